"""Failing LLM endpoints (SPEC §10, issue #8), against the scripted OpenAI-wire server.

Each fault — timeout, 429 with ``retry-after``, 5xx, a malformed body, a truncated answer
(``finish_reason: length``), answers that ignore the schema, an exhausted budget — is retried
with backoff within the run's budget and then recorded as ``unknown`` (score 0.0), never as a
pass; the report's warnings say so. Transient faults followed by a good answer recover. An
unreachable endpoint is a clear error with a non-zero exit from the CLI.
"""

from __future__ import annotations

import json
import socket
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from governor.api import Governor
from governor.authorities import AuthorityStore, load_default_store
from governor.cli.app import app
from governor.clients.chat import OpenAIChatModel
from governor.core.config import load_config
from governor.reports.json_report import build_report
from tests.conftest import FAKE_KEY
from tests.fakes.openai_server import (
    FakeOpenAIServer,
    RecordedRequest,
    Reply,
    malformed_body,
    rate_limited,
    server_error,
    slow,
    truncated,
)
from verifiers.llm_judge import LlmJudge

AS_OF = date(2026, 11, 1)
DRAFT = (
    "根据《民法典》第五百七十七条规定，当事人一方不履行合同义务或者履行合同义务不符合约定的，"
    "应当承担继续履行、采取补救措施或者赔偿损失等违约责任。"
)
SOURCE_QUOTE = "当事人一方不履行合同义务或者履行合同义务不符合约定的"


def good_answer(req: RecordedRequest) -> Any:
    """A valid answer: both axes pass with a quote from the source."""
    ids = [m.split("】")[0] for m in req.messages[-1]["content"].split("【引证 ")[1:]]
    ax = {"label": "faithful", "quote": SOURCE_QUOTE, "rationale": "ok"}
    ay = {"label": "supports", "quote": SOURCE_QUOTE, "rationale": "ok"}
    return {"items": [{"id": i, "fidelity": ax, "applicability": ay} for i in ids]}


@pytest.fixture(scope="module")
def store() -> AuthorityStore:
    return load_default_store()


def judged(
    server: FakeOpenAIServer,
    store: AuthorityStore,
    *,
    max_retries: int = 2,
    max_calls: int = 100,
    timeout_s: float = 5.0,
) -> tuple[Governor, OpenAIChatModel, list[float]]:
    waits: list[float] = []
    chat = OpenAIChatModel(
        server.base_url,
        "fake",
        environ={"OPENAI_API_KEY": FAKE_KEY},
        max_retries=max_retries,
        max_calls=max_calls,
        timeout_s=timeout_s,
        backoff_base_s=0.05,
        backoff_max_s=1.0,
        sleep=waits.append,
    )
    judge = LlmJudge(chat=chat, store=store, retriever=store)
    return Governor(load_config(overrides={}, environ={}), store=store, judge=judge), chat, waits


FAILING = {
    "timeout": (slow(3.0), {"timeout_s": 0.3, "max_retries": 1}),
    "rate_limited": (rate_limited(0.01), {}),
    "server_error_500": (server_error(500), {}),
    "server_error_503": (server_error(503), {}),
    "malformed_body": (malformed_body(), {}),
    "truncated": (truncated('{"items": [{"id": "c1", "fidelity": {"lab'), {}),
    "not_json": (Reply(content="我认为这些引用都是真实的。"), {}),
    "ignores_schema": ({"verdict": "all good"}, {}),
    "wrong_labels": (
        {"items": [{"id": "c1", "fidelity": {"label": "true"}, "applicability": {"label": "ok"}}]},
        {},
    ),
    "missing_item": ({"items": [{"id": "c9", "fidelity": {}, "applicability": {}}]}, {}),
    "budget": (server_error(500), {"max_calls": 1}),
}


DEEP_SCHEMA = ("missing_item", "wrong_labels")
"""Answers that are JSON with the top-level keys but break the schema inside."""


@pytest.mark.parametrize("fault", sorted(FAILING))
def test_persistent_fault_is_unknown_never_a_pass(
    openai_server: FakeOpenAIServer, store: AuthorityStore, fault: str
) -> None:
    reply, kw = FAILING[fault]
    openai_server.default = reply
    gov, chat, waits = judged(openai_server, store, **kw)
    (v,) = gov.verify(DRAFT, as_of=AS_OF)
    assert (v.fidelity.label, v.applicability.label) == ("unknown", "unknown")
    assert v.fidelity.score == 0.0 and v.applicability.score == 0.0
    assert v.item_trust == 0.0 and not v.passes
    attempts = len(openai_server.completions)
    if fault == "budget":  # the retry is refused by the budget, before anything is sent
        assert attempts == 1 and "Budget" in v.fidelity.rationale
    else:
        assert attempts == kw.get("max_retries", 2) + 1
        assert len(waits) == attempts - 1 and chat.usage.retries == attempts - 1
    report = build_report(DRAFT, as_of=AS_OF, strategy="none", judge="llm", initial=[v])
    assert report.scores.trust == 0.0 and not report.scores.all_pass
    assert any("judge failures" in w and "unknown" in w for w in report.warnings)


@pytest.mark.parametrize("fault", DEEP_SCHEMA)
def test_deep_schema_violations_are_retried(
    openai_server: FakeOpenAIServer, store: AuthorityStore, fault: str
) -> None:
    openai_server.push(FAILING[fault][0])
    openai_server.default = good_answer
    gov, _, _ = judged(openai_server, store)
    (v,) = gov.verify(DRAFT, as_of=AS_OF)
    assert (v.fidelity.label, v.applicability.label) == ("faithful", "supports")


def test_backoff_grows_and_retry_after_is_honoured(
    openai_server: FakeOpenAIServer, store: AuthorityStore
) -> None:
    openai_server.default = server_error(500)
    gov, _, waits = judged(openai_server, store, max_retries=3)
    gov.verify(DRAFT, as_of=AS_OF)
    assert len(waits) == 3
    for n, w in enumerate(waits):  # base · 2^n, jitter ×0.5-1
        assert 0.05 * 2**n * 0.5 <= w <= 0.05 * 2**n
    openai_server.default = rate_limited(0.2)
    gov, _, waits = judged(openai_server, store, max_retries=1)
    gov.verify(DRAFT, as_of=AS_OF)
    assert waits == [0.2]


@pytest.mark.parametrize(
    "first",
    [
        rate_limited(0.01),
        server_error(500),
        malformed_body(),
        truncated(),
        Reply(content="not json"),
        {"verdict": "ignores the schema"},
    ],
    ids=["429", "500", "malformed", "truncated", "not_json", "ignores_schema"],
)
def test_transient_fault_then_a_good_answer_recovers(
    openai_server: FakeOpenAIServer, store: AuthorityStore, first: Any
) -> None:
    openai_server.push(first)
    openai_server.default = good_answer
    gov, chat, waits = judged(openai_server, store)
    (v,) = gov.verify(DRAFT, as_of=AS_OF)
    assert (v.fidelity.label, v.applicability.label) == ("faithful", "supports")
    assert len(openai_server.completions) == 2 and len(waits) == 1
    assert chat.usage.failures == 0


def _cli_env(base_url: str, tmp_path: Path) -> dict[str, str]:
    return {
        "CITEGOV_CONFIG": "",
        "NO_COLOR": "1",
        "COLUMNS": "120",
        "CITEGOV_LLM_BASE_URL": base_url,
        "CITEGOV_LLM_MODEL": "fake",
        "CITEGOV_LLM_MAX_RETRIES": "1",
        "CITEGOV_LLM_TIMEOUT_S": "2",
        "CITEGOV_CACHE_DIR": str(tmp_path / "cache"),
        "OPENAI_API_KEY": FAKE_KEY,
    }


def _draft(tmp_path: Path) -> Path:
    p = tmp_path / "d.md"
    p.write_text(DRAFT + "\n", encoding="utf-8")
    return p


def test_cli_json_records_unknown_and_warns(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    openai_server.default = server_error(500)
    res = CliRunner().invoke(
        app,
        ["verify", "--judge", "llm", "--json", "--as-of", "2026-11-01", str(_draft(tmp_path))],
        env=_cli_env(openai_server.base_url, tmp_path),
    )
    assert res.exit_code == 0, res.output
    report = json.loads(res.stdout)
    (c,) = report["citations"]
    assert c["fidelity"]["label"] == "unknown" and c["item_trust"] == 0.0
    assert any("judge failures" in w for w in report["warnings"])


def test_cli_summary_says_the_judge_failed(openai_server: FakeOpenAIServer, tmp_path: Path) -> None:
    openai_server.default = server_error(500)
    res = CliRunner().invoke(
        app,
        ["verify", "--judge", "llm", "--as-of", "2026-11-01", str(_draft(tmp_path))],
        env=_cli_env(openai_server.base_url, tmp_path),
    )
    assert res.exit_code == 0
    assert "judge failures" in res.stdout + res.stderr


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_cli_unreachable_endpoint_is_a_clear_error(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    res = CliRunner().invoke(
        app,
        ["verify", "--judge", "llm", "--as-of", "2026-11-01", str(_draft(tmp_path))],
        env=_cli_env(url, tmp_path),
    )
    assert res.exit_code != 0
    assert "127.0.0.1" in res.stderr and "unknown" not in res.stdout


@pytest.mark.parametrize("existing", [False, True])
def test_revise_against_an_unreachable_endpoint_leaves_no_empty_outputs(
    tmp_path: Path, existing: bool
) -> None:
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    out = tmp_path / "out"
    if existing:
        out.mkdir()
    res = CliRunner().invoke(
        app,
        ["revise", "--judge", "llm", "--strategy", "efa", "--as-of", "2026-11-01",
         "--out", str(out), str(_draft(tmp_path))],
        env=_cli_env(url, tmp_path),
    )  # fmt: skip
    assert res.exit_code == 2 and "unreachable" in res.stderr, res.output
    assert not (out / "summary.jsonl").exists()  # no empty summary.jsonl
    assert out.exists() == existing  # a folder this run made, holding only the lock, goes


@pytest.mark.parametrize(
    "url", ["http://[::1", "ftp://127.0.0.1/v1", "localhost:8000/v1", "http:///v1"]
)
def test_cli_malformed_base_url_is_a_config_error(tmp_path: Path, url: str) -> None:
    for args in (["verify", "--judge", "llm"], ["verify", "--judge", "llm", "--dry-run"]):
        res = CliRunner().invoke(app, [*args, str(_draft(tmp_path))], env=_cli_env(url, tmp_path))
        assert res.exit_code == 2 and "llm_base_url" in res.stderr, res.output
        assert "Traceback" not in res.output
        assert res.exception is None or isinstance(res.exception, SystemExit)
