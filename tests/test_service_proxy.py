"""The OpenAI-compatible governing proxy (issue #17): a real ``openai`` client whose only change
is ``base_url`` gets governed answers; upstream errors pass through; streaming; on_error.

The upstream is the scripted fake OpenAI server (tests/fakes/openai_server.py) on 127.0.0.1.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import openai
import pytest

from governor.api import Governor
from governor.service.app import create_app
from governor.service.settings import ServiceSettings
from tests.fakes.openai_server import FakeOpenAIServer, Reply, server_error, slow
from tests.test_service import AS_OF, WRONG_PERIOD, serving

ANSWER = "关于诉讼时效：" + WRONG_PERIOD
QUESTION = [{"role": "user", "content": "问题：诉讼时效期间是多久？"}]


@pytest.fixture(scope="module")
def gov() -> Governor:
    g = Governor()
    _ = g.judge
    return g


@pytest.fixture
def upstream() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as srv:
        yield srv


def proxy(gov: Governor, upstream: FakeOpenAIServer, **settings: Any) -> Any:
    s = ServiceSettings(
        upstream_base_url=upstream.base_url, upstream_model="fake-writer", **settings
    )
    env = {"CITEGOV_UPSTREAM_API_KEY": "sk-upstream-secret"}
    return serving(create_app(s, governor=gov, environ=env))


def client(url: str) -> openai.OpenAI:
    return openai.OpenAI(base_url=url + "/v1", api_key="unused", max_retries=0, timeout=60)


def test_openai_client_gets_the_governed_answer(gov: Governor, upstream: FakeOpenAIServer) -> None:
    upstream.push(ANSWER)
    with proxy(gov, upstream) as url:
        resp = client(url).chat.completions.create(
            model="writer-x",
            messages=QUESTION,  # type: ignore[arg-type]
            extra_body={"citegov": {"as_of": AS_OF, "strategy": "efa"}},
        )
    text = resp.choices[0].message.content or ""
    assert "三年" in text and "二年" not in text
    summary = resp.model_dump()["citegov"]  # compact by default (issue 23)
    assert summary["governed"] is True and summary["report"] == "summary"
    assert summary["trust"] > summary["trust_before"]
    assert any("二年" in e and "三年" in e for e in summary["edits"])
    sent = upstream.completions[0]
    assert sent.json["model"] == "writer-x" and "citegov" not in sent.json
    assert sent.json.get("stream") is None
    assert sent.headers["authorization"] == "Bearer sk-upstream-secret"
    assert "citegov" not in sent.raw


def test_default_model_is_filled_in(gov: Governor, upstream: FakeOpenAIServer) -> None:
    upstream.push(ANSWER)
    with proxy(gov, upstream) as url:
        r = httpx.post(url + "/v1/chat/completions", json={"messages": QUESTION}, timeout=60)
    assert r.status_code == 200
    assert upstream.completions[0].json["model"] == "fake-writer"


@pytest.mark.parametrize(
    ("reply", "status"),
    [
        (server_error(500), 500),
        (server_error(503), 503),
        (Reply(status=429, error="slow down", headers={"retry-after": "7"}), 429),
        (Reply(status=400, error="bad model"), 400),
    ],
)
def test_upstream_errors_pass_through(
    gov: Governor, upstream: FakeOpenAIServer, reply: Reply, status: int
) -> None:
    upstream.push(reply)
    with proxy(gov, upstream) as url:
        r = httpx.post(url + "/v1/chat/completions", json={"messages": QUESTION}, timeout=60)
    assert r.status_code == status
    assert "error" in r.json()
    if status == 429:
        assert r.headers["retry-after"] == "7"


def test_upstream_timeout_is_504(gov: Governor, upstream: FakeOpenAIServer) -> None:
    upstream.push(slow(3.0, ANSWER))
    with proxy(gov, upstream, upstream_timeout_s=0.5) as url:
        r = httpx.post(url + "/v1/chat/completions", json={"messages": QUESTION}, timeout=60)
    assert r.status_code == 504
    assert "did not answer" in r.json()["error"]["message"]


def test_upstream_unreachable_is_502(gov: Governor) -> None:
    s = ServiceSettings(upstream_base_url="http://127.0.0.1:9/v1", upstream_model="m")
    with serving(create_app(s, governor=gov, environ={})) as url:
        r = httpx.post(url + "/v1/chat/completions", json={"messages": QUESTION}, timeout=60)
    assert r.status_code == 502 and "unreachable" in r.json()["error"]["message"]


def test_streaming_sends_the_governed_text(gov: Governor, upstream: FakeOpenAIServer) -> None:
    upstream.push(ANSWER)
    with proxy(gov, upstream, stream_chunk_chars=8) as url:
        stream = client(url).chat.completions.create(
            model="writer-x",
            messages=QUESTION,  # type: ignore[arg-type]
            stream=True,
            extra_body={"citegov": {"as_of": AS_OF}},
        )
        chunks = list(stream)
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert "三年" in text and "二年" not in text
    assert len(chunks) > 3  # really in pieces
    assert chunks[-1].choices[0].finish_reason == "stop"
    assert chunks[-1].model_dump()["citegov"]["stop_reason"] is not None
    assert upstream.completions[0].json.get("stream") is None  # upstream is not streamed


@pytest.mark.parametrize("on_error", ["fail", "pass"])
def test_governance_failure_follows_on_error(
    gov: Governor, upstream: FakeOpenAIServer, on_error: str
) -> None:
    too_many = "；".join(["《民法典》第五百七十七条"] * 3)  # over max_citations=2
    upstream.push(too_many)
    with proxy(gov, upstream, on_error=on_error, max_citations=2) as url:
        r = httpx.post(url + "/v1/chat/completions", json={"messages": QUESTION}, timeout=60)
    if on_error == "fail":
        assert r.status_code == 502
        assert "max_citations" in r.json()["error"]["message"]
    else:
        assert r.status_code == 200
        body = r.json()
        assert body["choices"][0]["message"]["content"] == too_many  # ungoverned, as configured
        assert body["citegov"]["governed"] is False and "max_citations" in body["citegov"]["error"]


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        ({}, "messages"),
        ({"messages": "hi"}, "messages"),
        ({"messages": QUESTION, "citegov": {"strategy": "rewrite"}}, "citegov.strategy"),
    ],
)
def test_bad_proxy_requests_are_422(
    gov: Governor, upstream: FakeOpenAIServer, body: dict[str, Any], needle: str
) -> None:
    with proxy(gov, upstream) as url:
        r = httpx.post(url + "/v1/chat/completions", json=body, timeout=60)
    assert r.status_code == 422 and needle in r.json()["error"]["message"]
    assert upstream.completions == []  # nothing forwarded


def test_proxy_without_upstream_is_503(gov: Governor) -> None:
    with serving(create_app(ServiceSettings(), governor=gov, environ={})) as url:
        r = httpx.post(url + "/v1/chat/completions", json={"messages": QUESTION}, timeout=60)
    assert r.status_code == 503 and "upstream_base_url" in r.json()["error"]["message"]
