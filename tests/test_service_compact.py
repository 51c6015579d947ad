"""Compact service answers (issue 23 item 3) and the proxy's pass-through of the upstream.

Rows: the proxy answers the governed text plus a compact ``citegov`` summary by default (the
report used to come twice: 36 KB for a 176-character answer) and the full report on request;
``GET /v1/models`` is forwarded; ``stream_options.include_usage`` gets its usage chunk; the
upstream's ``x-request-id`` and rate-limit headers reach the client; an upstream error body that
echoes the Authorization header (or any key) is scrubbed; MCP tools answer compact JSON, failing
citations first, with ``detail`` for more, and the server reports a version.
"""

from __future__ import annotations

import asyncio
import json
from importlib.metadata import version
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp import Client

from governor.api import Governor
from governor.service.governing import scrub_credentials
from governor.service.mcp_server import build_mcp_server
from tests.fakes.openai_server import FakeOpenAIServer, RecordedRequest, Reply
from tests.test_service import AS_OF, WRONG_PERIOD
from tests.test_service_proxy import ANSWER, QUESTION, proxy

SECRET = "sk-upstream-secret"


@pytest.fixture(scope="module")
def gov() -> Governor:
    g = Governor()
    _ = g.judge
    return g


def _post(url: str, **extra: Any) -> httpx.Response:
    body = {"messages": QUESTION, "citegov": {"as_of": AS_OF, "strategy": "efa"}, **extra}
    return httpx.post(url + "/v1/chat/completions", json=body, timeout=120)


def test_proxy_answers_a_compact_summary_by_default(gov: Governor) -> None:
    with FakeOpenAIServer([ANSWER]) as up, proxy(gov, up) as url:
        r = _post(url)
    assert r.status_code == 200
    body = r.json()
    assert len(r.content) < 3000  # 36,428 bytes before (the report at the top and per choice)
    assert "citegov" not in body["choices"][0]  # one summary, not two
    s = body["citegov"]
    assert s["governed"] and s["report"] == "summary" and "citations" not in s
    assert set(s) >= {"trust", "trust_before", "all_pass", "verified", "gaps", "failing", "edits"}
    assert s["verified"] == "1 of 1"
    assert any("fix_number" in e or "三年" in e for e in s["edits"])
    assert "三年" in body["choices"][0]["message"]["content"]


def test_proxy_full_report_on_request(gov: Governor) -> None:
    with FakeOpenAIServer([ANSWER]) as up, proxy(gov, up) as url:
        r = _post(url, citegov={"as_of": AS_OF, "strategy": "efa", "report": "full"})
    full = r.json()["citegov"]["full"]
    assert full["citations"][0]["fidelity"]["label"] == "misdescribed"
    assert full["final"]["scores"]["trust"] > full["scores"]["trust"]


def test_proxy_forwards_models(gov: Governor) -> None:
    with FakeOpenAIServer() as up, proxy(gov, up) as url:
        r = httpx.get(url + "/v1/models", timeout=30)
    assert r.status_code == 200
    assert [m["id"] for m in r.json()["data"]] == ["fake-writer", "fake-judge"]
    assert r.headers["x-request-id"] == "req-models"


def test_proxy_passes_request_id_and_rate_limit_headers(gov: Governor) -> None:
    hdrs = {"x-request-id": "req-42", "x-ratelimit-remaining-requests": "9"}
    with FakeOpenAIServer([Reply(content=ANSWER, headers=hdrs)]) as up, proxy(gov, up) as url:
        r = _post(url)
        limited = Reply(status=429, error="slow", headers={**hdrs, "retry-after": "3"})
        up.push(limited)
        e = _post(url)
    assert r.headers["x-request-id"] == "req-42"
    assert r.headers["x-ratelimit-remaining-requests"] == "9"
    assert e.status_code == 429 and e.headers["x-request-id"] == "req-42"
    assert e.headers["retry-after"] == "3"


def test_stream_include_usage_sends_the_usage_chunk(gov: Governor) -> None:
    with FakeOpenAIServer([ANSWER]) as up, proxy(gov, up) as url:
        r = _post(url, stream=True, stream_options={"include_usage": True})
    events = [json.loads(line[6:]) for line in r.text.splitlines() if line.startswith("data: {")]
    assert events[-1]["choices"] == [] and events[-1]["usage"]["total_tokens"] > 0
    assert "stream_options" not in up.completions[0].json


def test_upstream_error_echoing_the_key_is_scrubbed(gov: Governor) -> None:
    def echo(req: RecordedRequest) -> Reply:
        leak = {"error": {"message": f"bad auth header: {req.headers['authorization']}",
                          "api_key": SECRET, "other": "sk-proj-abcdefgh12345678"}}  # fmt: skip
        return Reply(status=401, body=json.dumps(leak))

    with FakeOpenAIServer([echo]) as up, proxy(gov, up) as url:
        r = _post(url)
    assert r.status_code == 401
    assert SECRET not in r.text and "upstream-secret" not in r.text
    assert "sk-proj-abcdefgh" not in r.text and "***" in r.text


@pytest.mark.parametrize(
    "text,leak",
    [
        ("Authorization: Bearer abc.def-123456", "abc.def-123456"),
        ('{"api_key": "k-0123456789"}', "k-0123456789"),
        ("key=sk-ABCDEFGH12345678 failed", "sk-ABCDEFGH12345678"),
        ("x-api-key: zzzzzzzz", "zzzzzzzz"),
    ],
)
def test_scrub_credentials_patterns(text: str, leak: str) -> None:
    assert leak not in scrub_credentials(text)


def test_scrub_the_configured_key_in_any_form() -> None:
    import base64

    from governor.clients.chat import secret_variants

    blob = base64.b64encode(f"user:{SECRET}".encode()).decode()
    out = scrub_credentials(f"echo {blob} and {SECRET}", secret_variants(SECRET))
    assert SECRET not in out and blob not in out


def _memo() -> str:
    root = Path(__file__).resolve().parents[1] / "examples" / "drafts"
    return ("\n\n".join(p.read_text(encoding="utf-8") for p in sorted(root.glob("*.md"))) * 2)[
        :3400
    ]


async def _mcp(gov: Governor) -> dict[str, Any]:
    out: dict[str, Any] = {}
    server = build_mcp_server(governor=gov)
    out["version"] = server.version
    async with Client(server) as client:
        out["govern"] = await client.call_tool("govern_draft", {"draft": _memo(), "as_of": AS_OF})
        two = WRONG_PERIOD + "当事人应当承担违约责任（《民法典》第五百七十七条）。"
        out["cits"] = await client.call_tool(
            "verify_citations", {"draft": two, "as_of": AS_OF, "detail": "citations"}
        )
    return out


def test_mcp_answers_compact_json_failing_first(gov: Governor) -> None:
    out = asyncio.run(asyncio.wait_for(_mcp(gov), timeout=300))
    from governor import __version__

    assert out["version"] in (__version__, version("citegov"))
    text = out["govern"].content[0].text
    assert out["govern"].structured_content is None  # not the same answer twice
    assert "\n " not in text and len(text) < 20_000  # 204,272 characters (+140,900) before
    got = json.loads(text)
    assert set(got) == {"text", "citegov"} and got["citegov"]["edits"]
    rows = json.loads(out["cits"].content[0].text)["citations"]
    assert [r["item_trust"] < 1.0 for r in rows] == [False, True][::-1]  # failing first
    assert rows[0]["fidelity"] == "misdescribed"
