"""OpenAI-compatible chat client against the scripted fake server on 127.0.0.1."""

from __future__ import annotations

import base64
import importlib
import json
import traceback
import urllib.parse
from pathlib import Path
from typing import Any

import openai
import pytest

from governor.clients.cache import ChatCache, cache_key
from governor.clients.chat import OpenAIChatModel, estimate_tokens, secret_variants
from governor.clients.tokens import count_message_tokens, count_tokens
from governor.core.config import load_config
from governor.core.errors import (
    BudgetExceededError,
    ConfigError,
    EndpointError,
    EndpointUnreachableError,
    JudgeOutputError,
)
from governor.core.ports import ChatModel
from tests.conftest import FAKE_KEY
from tests.fakes.openai_server import (
    FakeOpenAIServer,
    RecordedRequest,
    Reply,
    malformed_body,
    rate_limited,
    reject_json_schema,
    server_error,
    slow,
    truncated,
)

MSGS = [{"role": "user", "content": "《民法典》第五百七十七条规定了什么？"}]
SCHEMA: dict[str, Any] = {
    "title": "Verdict",
    "type": "object",
    "properties": {"label": {"type": "string"}, "quote": {"type": "string"}},
    "required": ["label", "quote"],
}


class Sleeps:
    """Records requested sleeps without sleeping (retry tests finish in milliseconds)."""

    def __init__(self) -> None:
        self.calls: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.calls.append(seconds)


def make(server: FakeOpenAIServer, env: dict[str, str], **kw: Any) -> OpenAIChatModel:
    kw.setdefault("sleep", Sleeps())
    kw.setdefault("backoff_base_s", 0.001)
    kw.setdefault("timeout_s", 5.0)
    return OpenAIChatModel(server.base_url, "fake-model", environ=env, **kw)


def test_satisfies_port_and_sends_key_only_in_header(
    openai_server: FakeOpenAIServer, fake_key_env: dict[str, str]
) -> None:
    openai_server.push("答：违约责任。")
    chat = make(openai_server, fake_key_env)
    assert isinstance(chat, ChatModel)
    assert chat.complete(MSGS) == "答：违约责任。"
    (req,) = openai_server.completions
    assert req.headers["authorization"] == f"Bearer {FAKE_KEY}"
    assert FAKE_KEY not in req.raw
    assert req.json["model"] == "fake-model" and req.messages == MSGS
    assert FAKE_KEY not in repr(chat)
    assert chat.usage.calls == 1
    # the server counts with the dry run's rule; the reply's tokens are the content's
    assert chat.usage.prompt_tokens == count_message_tokens(MSGS) > 0
    assert chat.usage.completion_tokens == count_tokens("答：违约责任。")


@pytest.mark.parametrize(
    "faults,retries",
    [
        ([rate_limited(0.25)], 1),
        ([server_error(500), server_error(503)], 2),
        ([malformed_body()], 1),
        ([slow(1.0)], 1),
    ],
    ids=["429", "5xx", "malformed", "timeout"],
)
def test_transient_faults_are_retried(
    openai_server: FakeOpenAIServer, fake_key_env: dict[str, str], faults: list[Reply], retries: int
) -> None:
    openai_server.push(*faults, "ok")
    sleeps = Sleeps()
    chat = make(openai_server, fake_key_env, sleep=sleeps, timeout_s=0.3)
    assert chat.complete(MSGS) == "ok"
    assert len(openai_server.completions) == retries + 1
    assert chat.usage.calls == retries + 1 and chat.usage.retries == retries
    assert len(sleeps.calls) == retries


def test_429_honours_retry_after(
    openai_server: FakeOpenAIServer, fake_key_env: dict[str, str]
) -> None:
    openai_server.push(rate_limited(7.0), "ok")
    sleeps = Sleeps()
    chat = make(openai_server, fake_key_env, sleep=sleeps)
    assert chat.complete(MSGS) == "ok"
    assert sleeps.calls == [7.0]


def test_backoff_grows_exponentially(
    openai_server: FakeOpenAIServer, fake_key_env: dict[str, str]
) -> None:
    openai_server.push(server_error(), server_error(), server_error(), "ok")
    sleeps = Sleeps()
    chat = make(openai_server, fake_key_env, sleep=sleeps, backoff_base_s=1.0, max_retries=3)
    chat.complete(MSGS)
    assert [0.5 <= s <= 1 for s in sleeps.calls[:1]] == [True]
    assert 1.0 <= sleeps.calls[1] <= 2.0 and 2.0 <= sleeps.calls[2] <= 4.0


def test_after_budget_endpoint_error_names_endpoint_not_key(
    openai_server: FakeOpenAIServer, fake_key_env: dict[str, str]
) -> None:
    # the server even echoes the key in its error text: it must be redacted
    openai_server.default = Reply(status=500, error=f"upstream rejected Bearer {FAKE_KEY}")
    chat = make(openai_server, fake_key_env, max_retries=2)
    with pytest.raises(EndpointError) as info:
        chat.complete(MSGS)
    text = "".join(traceback.format_exception(info.value))
    assert openai_server.base_url in str(info.value)
    assert "check" in str(info.value)
    assert FAKE_KEY not in text and FAKE_KEY not in repr(info.value)
    assert len(openai_server.completions) == 3
    assert chat.usage.failures == 1


def test_non_retryable_status_fails_fast_without_leaking(
    openai_server: FakeOpenAIServer, fake_key_env: dict[str, str]
) -> None:
    openai_server.push(Reply(status=401, error=f"bad key {FAKE_KEY}"))
    chat = make(openai_server, fake_key_env)
    with pytest.raises(EndpointError) as info:
        chat.complete(MSGS)
    assert "OPENAI_API_KEY" in str(info.value)
    assert FAKE_KEY not in "".join(traceback.format_exception(info.value))
    assert len(openai_server.completions) == 1


def test_unreachable_endpoint(fake_key_env: dict[str, str]) -> None:
    with FakeOpenAIServer() as server:
        url = server.base_url
    sleeps = Sleeps()
    chat = OpenAIChatModel(url, "m", environ=fake_key_env, max_retries=1, sleep=sleeps, timeout_s=1)
    with pytest.raises(EndpointUnreachableError, match=r"127\.0\.0\.1.*llm_base_url") as info:
        chat.complete(MSGS)
    assert "unreachable" in str(info.value) and FAKE_KEY not in str(info.value)
    assert chat.usage.calls == 2 and len(sleeps.calls) == 1  # retried before giving up


def _http_lib() -> Any:
    """The HTTP library the installed openai package is built on (httpx, or httpx2 for
    openai >= 3): its client and transport classes are what ``http_client`` must be."""
    client = next(c for c in openai.DefaultHttpxClient.__mro__ if c.__name__ == "Client")
    return importlib.import_module(client.__module__.split(".")[0])


def test_connection_lost_after_a_success_is_an_ordinary_endpoint_error(
    fake_key_env: dict[str, str],
) -> None:
    # the endpoint answered once: a later refusal is a fault of a running service (the
    # judge records unknown), not a wrong address
    http = _http_lib()
    sent: list[Any] = []

    def transport(request: Any) -> Any:
        sent.append(request)
        if len(sent) > 1:
            raise http.ConnectError("connection refused", request=request)
        choice = {"index": 0, "message": {"role": "assistant", "content": "ok"}}
        body = {"id": "x", "object": "chat.completion", "created": 0, "model": "m"}
        return http.Response(200, json={**body, "choices": [{**choice, "finish_reason": "stop"}]})

    chat = OpenAIChatModel(
        "http://127.0.0.1:9/v1",
        "m",
        environ=fake_key_env,
        max_retries=1,
        sleep=Sleeps(),
        http_client=http.Client(transport=http.MockTransport(transport)),
    )
    assert chat.complete(MSGS) == "ok"
    with pytest.raises(EndpointError, match="could not connect") as info:
        chat.complete([{"role": "user", "content": "again"}])
    assert not isinstance(info.value, EndpointUnreachableError) and len(sent) == 3


@pytest.mark.parametrize(
    "url,why",
    [
        ("http://[::1", "does not parse"),
        ("ftp://127.0.0.1/v1", "scheme 'ftp'"),
        ("localhost:8000/v1", "scheme 'localhost'"),
        ("127.0.0.1:8000/v1", "scheme '(none)'"),
        ("http:///v1", "no valid host"),
        ("http://exa mple.com/v1", "no valid host"),
        ("http://127.0.0.1:99999/v1", "port 99999"),
        ("https://user:sk-inline-secret-123@[::1", "does not parse"),
    ],
)
def test_malformed_base_url_is_a_config_error(
    fake_key_env: dict[str, str], url: str, why: str
) -> None:
    with pytest.raises(ConfigError) as info:
        OpenAIChatModel(url, "m", environ=fake_key_env)
    msg = str(info.value)
    assert "llm_base_url" in msg and why in msg and "http(s)://" in msg
    assert "sk-inline-secret-123" not in msg  # credentials in the URL are masked


@pytest.mark.parametrize(
    "url,base",
    [
        ("https://api.openai.com/v1", "https://api.openai.com/v1"),
        ("http://[::1]:8000/v1/", "http://[::1]:8000/v1"),
        (" http://127.0.0.1:8000/v1\n", "http://127.0.0.1:8000/v1"),
    ],
)
def test_valid_base_urls_are_accepted(fake_key_env: dict[str, str], url: str, base: str) -> None:
    assert OpenAIChatModel(url, "m", environ=fake_key_env).base_url == base


def test_credentials_in_the_base_url_are_not_shown() -> None:
    chat = OpenAIChatModel("http://me:pw-1234567@127.0.0.1:9/v1?key=abc", "m", dry_run=True)
    assert "pw-1234567" not in repr(chat) and "abc" not in repr(chat)


def test_structured_output_sends_json_schema(
    openai_server: FakeOpenAIServer, fake_key_env: dict[str, str]
) -> None:
    answer = {"label": "faithful", "quote": "应当承担继续履行"}
    openai_server.push(answer)
    chat = make(openai_server, fake_key_env)
    out = chat.complete(MSGS, json_schema=SCHEMA, max_tokens=50)
    assert json.loads(out) == answer
    rf = openai_server.completions[0].response_format
    assert rf is not None and rf["type"] == "json_schema"
    assert rf["json_schema"]["schema"] == SCHEMA and rf["json_schema"]["name"] == "Verdict"
    assert openai_server.completions[0].json["max_tokens"] == 50


def test_falls_back_to_json_mode_when_schema_rejected(
    openai_server: FakeOpenAIServer, fake_key_env: dict[str, str]
) -> None:
    answer = {"label": "supports", "quote": "q"}
    openai_server.default = reject_json_schema(answer)
    chat = make(openai_server, fake_key_env)
    assert json.loads(chat.complete(MSGS, json_schema=SCHEMA)) == answer
    first, second = openai_server.completions
    assert first.response_format["type"] == "json_schema"  # type: ignore[index]
    assert second.response_format == {"type": "json_object"}
    assert "JSON Schema" in second.prompt  # the schema travels in the prompt instead
    # the working mode is remembered: the next call goes straight to JSON mode
    chat.complete([{"role": "user", "content": "again"}], json_schema=SCHEMA)
    assert openai_server.completions[2].response_format == {"type": "json_object"}


@pytest.mark.parametrize(
    "bad",
    [truncated(), Reply(content="好的，我认为是faithful"), Reply(content='{"label": "x"}')],
    ids=["truncated", "not-json", "ignores-schema"],
)
def test_bad_answers_are_retried_then_judge_output_error(
    openai_server: FakeOpenAIServer, fake_key_env: dict[str, str], bad: Reply
) -> None:
    openai_server.default = bad
    chat = make(openai_server, fake_key_env, max_retries=2)
    with pytest.raises(JudgeOutputError, match="fake-model"):
        chat.complete(MSGS, json_schema=SCHEMA)
    assert len(openai_server.completions) == 3


def test_bad_answer_then_good_one(
    openai_server: FakeOpenAIServer, fake_key_env: dict[str, str]
) -> None:
    openai_server.push(truncated(), '```json\n{"label": "a", "quote": "b"}\n```')
    chat = make(openai_server, fake_key_env)
    assert json.loads(chat.complete(MSGS, json_schema=SCHEMA)) == {"label": "a", "quote": "b"}


def test_truncated_plain_text_is_an_error(
    openai_server: FakeOpenAIServer, fake_key_env: dict[str, str]
) -> None:
    openai_server.default = truncated("半句")
    chat = make(openai_server, fake_key_env, max_retries=1)
    with pytest.raises(JudgeOutputError):
        chat.complete(MSGS)


def test_callable_replies_answer_per_prompt(
    openai_server: FakeOpenAIServer, fake_key_env: dict[str, str]
) -> None:
    def judge(req: RecordedRequest) -> dict[str, str]:
        return {"label": "supports" if "577" in req.prompt else "irrelevant", "quote": ""}

    openai_server.default = judge
    chat = make(openai_server, fake_key_env)
    assert (
        json.loads(chat.complete([{"role": "user", "content": "第577条"}], json_schema=SCHEMA))[
            "label"
        ]
        == "supports"
    )
    assert (
        json.loads(chat.complete([{"role": "user", "content": "第1条"}], json_schema=SCHEMA))[
            "label"
        ]
        == "irrelevant"
    )


def test_call_budget_raises_before_sending(
    openai_server: FakeOpenAIServer, fake_key_env: dict[str, str]
) -> None:
    openai_server.default = "ok"
    chat = make(openai_server, fake_key_env, max_calls=2)
    chat.complete([{"role": "user", "content": "1"}])
    chat.complete([{"role": "user", "content": "2"}])
    with pytest.raises(BudgetExceededError, match="llm_max_calls"):
        chat.complete([{"role": "user", "content": "3"}])
    assert len(openai_server.completions) == 2


def test_retries_count_against_the_call_budget(
    openai_server: FakeOpenAIServer, fake_key_env: dict[str, str]
) -> None:
    openai_server.default = server_error()
    chat = make(openai_server, fake_key_env, max_calls=2, max_retries=5)
    with pytest.raises(BudgetExceededError):
        chat.complete(MSGS)
    assert len(openai_server.completions) == 2


def test_token_budget_raises_before_sending(
    openai_server: FakeOpenAIServer, fake_key_env: dict[str, str]
) -> None:
    chat = make(openai_server, fake_key_env, max_tokens_budget=100)
    with pytest.raises(BudgetExceededError, match="llm_max_tokens"):
        chat.complete(MSGS, max_tokens=500)
    assert openai_server.completions == []


def test_disk_cache_makes_a_rerun_free(
    openai_server: FakeOpenAIServer, fake_key_env: dict[str, str], tmp_path: Path
) -> None:
    openai_server.push({"label": "faithful", "quote": "x"})
    first = make(openai_server, fake_key_env, cache=ChatCache(tmp_path))
    out = first.complete(MSGS, json_schema=SCHEMA)
    rerun = make(openai_server, fake_key_env, cache=ChatCache(tmp_path))
    assert rerun.complete(MSGS, json_schema=SCHEMA) == out
    assert len(openai_server.completions) == 1
    assert rerun.usage.calls == 0 and rerun.usage.cache_hits == 1
    # another prompt version, schema or message is another key
    openai_server.push({"label": "a", "quote": "b"}, {"label": "c", "quote": "d"})
    rerun.complete(MSGS, json_schema=SCHEMA, prompt_version="v2")
    rerun.complete(MSGS, json_schema={**SCHEMA, "title": "Other"})
    assert len(openai_server.completions) == 3
    assert not any(FAKE_KEY in p.read_text() for p in tmp_path.rglob("*.json"))


def test_failed_calls_are_not_cached(
    openai_server: FakeOpenAIServer, fake_key_env: dict[str, str], tmp_path: Path
) -> None:
    openai_server.push(truncated(), truncated())
    chat = make(openai_server, fake_key_env, cache=ChatCache(tmp_path), max_retries=1)
    with pytest.raises(JudgeOutputError):
        chat.complete(MSGS, json_schema=SCHEMA)
    assert len(ChatCache(tmp_path)) == 0


def test_dry_run_counts_without_sending(openai_server: FakeOpenAIServer) -> None:
    chat = OpenAIChatModel(openai_server.base_url, "m", environ={}, dry_run=True)
    assert chat.complete(MSGS, json_schema=SCHEMA, max_tokens=100) == "{}"
    assert chat.complete(MSGS) == ""
    assert openai_server.requests == []
    u = chat.usage
    assert u.calls == 0 and u.dry_run_calls == 2
    assert u.estimated_tokens >= 2 * estimate_tokens(MSGS[0]["content"]) + 100


def test_missing_key_is_a_config_error(openai_server: FakeOpenAIServer) -> None:
    with pytest.raises(ConfigError, match="MY_KEY"):
        OpenAIChatModel(openai_server.base_url, "m", api_key_env="MY_KEY", environ={})


def test_from_config_uses_named_key_variable(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    cfg = load_config(
        overrides={
            "llm_base_url": openai_server.base_url,
            "llm_model": "cfg-model",
            "llm_api_key_env": "ALT_KEY",
            "cache_dir": tmp_path,
            "llm_max_calls": 5,
        },
        environ={},
    )
    openai_server.push("hi")
    chat = OpenAIChatModel.from_config(cfg, environ={"ALT_KEY": FAKE_KEY})
    assert chat.complete(MSGS) == "hi" and chat.max_calls == 5
    assert openai_server.completions[0].json["model"] == "cfg-model"
    assert "ALT_KEY" not in str(cfg.model_dump()) or FAKE_KEY not in str(cfg.model_dump())


@pytest.mark.parametrize(
    "text,expected",
    # 0.75 per CJK character, one per 2.8 other characters, rounded up once
    [("", 0), ("ab", 1), ("abcd", 2), ("abcdefg", 3), ("合同", 2), ("合同法", 3), ("第577条", 3)],
)
def test_estimate_tokens(text: str, expected: int) -> None:
    assert estimate_tokens(text) == expected


def test_cache_key_is_order_insensitive_for_mappings_only() -> None:
    a = cache_key("m", "v1", [{"role": "user", "content": "x"}], {"b": 1, "a": 2})
    b = cache_key("m", "v1", [{"content": "x", "role": "user"}], {"a": 2, "b": 1})
    c = cache_key("m", "v1", [{"role": "user", "content": "y"}], {"a": 2, "b": 1})
    assert a == b != c and len(a) == 64


# --------------------------------------------------------------------------- validate hook


def _needs_label_a(answer: Any) -> None:
    if answer.get("label") != "a":
        raise ValueError(f"label {answer.get('label')!r} is not allowed")


def test_answers_the_validator_rejects_are_retried(
    openai_server: FakeOpenAIServer, fake_key_env: dict[str, str]
) -> None:
    openai_server.push({"label": "zzz", "quote": ""}, {"label": "a", "quote": "q"})
    sleeps = Sleeps()
    chat = make(openai_server, fake_key_env, sleep=sleeps)
    out = chat.complete(MSGS, json_schema=SCHEMA, validate=_needs_label_a)
    assert json.loads(out)["label"] == "a"
    assert len(openai_server.completions) == 2 and len(sleeps.calls) == 1


def test_validator_rejections_exhaust_the_retries(
    openai_server: FakeOpenAIServer, fake_key_env: dict[str, str], tmp_path: Path
) -> None:
    openai_server.default = {"label": f"bad {FAKE_KEY}", "quote": ""}
    chat = make(openai_server, fake_key_env, max_retries=2, cache=ChatCache(tmp_path))
    with pytest.raises(JudgeOutputError, match="not allowed") as info:
        chat.complete(MSGS, json_schema=SCHEMA, validate=_needs_label_a)
    assert len(openai_server.completions) == 3
    assert FAKE_KEY not in "".join(traceback.format_exception(info.value))
    assert len(ChatCache(tmp_path)) == 0  # a rejected answer is never cached


def test_a_cached_answer_the_validator_rejects_is_asked_again(
    openai_server: FakeOpenAIServer, fake_key_env: dict[str, str], tmp_path: Path
) -> None:
    openai_server.push({"label": "old", "quote": ""}, {"label": "a", "quote": "new"})
    make(openai_server, fake_key_env, cache=ChatCache(tmp_path)).complete(MSGS, json_schema=SCHEMA)
    rerun = make(openai_server, fake_key_env, cache=ChatCache(tmp_path))
    out = rerun.complete(MSGS, json_schema=SCHEMA, validate=_needs_label_a)
    assert json.loads(out)["quote"] == "new" and len(openai_server.completions) == 2
    assert rerun.usage.cache_hits == 0
    # the good answer replaced the rejected entry: a third client hits the cache
    third = make(openai_server, fake_key_env, cache=ChatCache(tmp_path))
    assert third.complete(MSGS, json_schema=SCHEMA, validate=_needs_label_a) == out
    assert third.usage.cache_hits == 1 and len(openai_server.completions) == 2


# --------------------------------------------------------------------------- key scrubbing


def _encodings(key: str) -> dict[str, str]:
    return {
        "plain": key,
        "percent": urllib.parse.quote(key, safe=""),
        "hex": key.encode().hex(),
        "basic_auth": base64.b64encode(f"user:{key}".encode()).decode(),
        "b64_offset_1": base64.b64encode(f"x{key}".encode()).decode(),
        "b64_offset_2": base64.b64encode(f"xy{key}".encode()).decode(),
        "urlsafe_b64": base64.urlsafe_b64encode(key.encode()).decode(),
    }


@pytest.mark.parametrize("encoding", sorted(_encodings(FAKE_KEY)))
def test_a_key_echoed_in_the_answer_is_scrubbed(
    openai_server: FakeOpenAIServer, fake_key_env: dict[str, str], tmp_path: Path, encoding: str
) -> None:
    echoed = _encodings(FAKE_KEY)[encoding]
    openai_server.push(
        f"your key is {echoed}.", {"label": "faithful", "quote": f"Authorization: {echoed}"}
    )
    chat = make(openai_server, fake_key_env, cache=ChatCache(tmp_path))
    text = chat.complete(MSGS)
    structured = chat.complete(MSGS, json_schema=SCHEMA)
    for out in (text, structured):
        assert echoed not in out and FAKE_KEY not in out and "***" in out
    assert json.loads(structured)["label"] == "faithful"  # still valid JSON
    cached = "".join(p.read_text() for p in tmp_path.rglob("*.json"))
    assert echoed not in cached and "***" in cached


@pytest.mark.parametrize(
    "key,scrubbed", [("EMPTY", False), ("x", False), ("sk-12345", True), (FAKE_KEY, True)]
)
def test_short_placeholder_keys_are_not_scrubbed(key: str, scrubbed: bool) -> None:
    # local servers accept any key ("EMPTY", "x"): replacing those everywhere would mangle
    # answers, and they are no secret
    assert (key in secret_variants(key)) is scrubbed
    chat = OpenAIChatModel("http://127.0.0.1:9/v1", "m", environ={"K": key}, api_key_env="K")
    assert (chat.scrub(f"a {key} b") == "a *** b") is scrubbed
