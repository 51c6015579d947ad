"""The API key never leaks (SPEC §10, issue #8): a sentinel key is put in the environment and
looked for in every channel — stdout/stderr, ``--json`` reports, revised drafts, verdict JSON,
HTML pages, ``summary.jsonl``, the response cache, traces, log records, tracebacks and error
messages — while the fake endpoint fails, echoes the key back or answers normally.

Keys come only from the environment variable named by ``llm_api_key_env``; the config (file,
environment, flags) holds the variable's *name*, never a key.
"""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from governor.authorities import AuthorityStore, load_default_store
from governor.cli.app import app
from governor.clients.chat import OpenAIChatModel
from governor.core.config import load_config
from governor.core.errors import ConfigError
from graphs.trace import build_trace
from tests.fakes.openai_server import FakeOpenAIServer, RecordedRequest, Reply, server_error
from verifiers.llm_judge import LlmJudge

SENTINEL = "sk-SENTINEL-4f1d2c9a8b7e6d5c"
ROOT = Path(__file__).resolve().parents[1]
DRAFT = (
    "根据《民法典》第五百七十七条规定，当事人一方不履行合同义务或者履行合同义务不符合约定的，"
    "应当承担继续履行、采取补救措施或者赔偿损失等违约责任。\n"
    "根据《民法典》第一百八十八条规定，向人民法院请求保护民事权利的诉讼时效期间为二年。\n"
)
QUOTE = "当事人一方不履行合同义务或者履行合同义务不符合约定的"


def _key_of(req: RecordedRequest) -> str:
    return req.headers.get("authorization", "").removeprefix("Bearer ")


def echo_401(req: RecordedRequest) -> Reply:
    return Reply(status=401, error=f"Incorrect API key provided: {_key_of(req)}")


def echo_500(req: RecordedRequest) -> Reply:
    return Reply(status=500, error=f"upstream failed for key {_key_of(req)}")


def echo_400(req: RecordedRequest) -> Reply:
    return Reply(status=404, error=f"model not found (key {_key_of(req)})")


def echo_in_answer(req: RecordedRequest) -> Any:
    """A valid answer whose rationales quote the key (a hostile or broken proxy)."""
    ids = [m.split("】")[0] for m in req.messages[-1]["content"].split("【引证 ")[1:]]
    ax = {"label": "faithful", "quote": QUOTE, "rationale": f"checked with {_key_of(req)}"}
    ay = {"label": "supports", "quote": QUOTE, "rationale": f"key={_key_of(req)}"}
    return {"items": [{"id": i, "fidelity": ax, "applicability": ay} for i in ids]}


REPLIES = {
    "echo_401": echo_401,
    "echo_500": echo_500,
    "echo_404": echo_400,
    "plain_500": server_error(500),
}


def _env(base_url: str, tmp: Path) -> dict[str, str]:
    return {
        "CITEGOV_CONFIG": "",
        "NO_COLOR": "1",
        "COLUMNS": "120",
        "CITEGOV_LLM_BASE_URL": base_url,
        "CITEGOV_LLM_MODEL": "fake",
        "CITEGOV_LLM_MAX_RETRIES": "0",  # retries and backoff: tests/test_faults.py
        "CITEGOV_LLM_TIMEOUT_S": "5",
        "CITEGOV_CACHE_DIR": str(tmp / "cache"),
        "OPENAI_API_KEY": SENTINEL,
    }


def _all_files(root: Path) -> str:
    out = []
    for p in root.rglob("*"):
        if p.is_file():
            out.append(p.read_bytes().decode("utf-8", errors="replace"))
    return "\n".join(out)


@pytest.fixture
def draft(tmp_path: Path) -> Path:
    d = tmp_path / "in"
    d.mkdir()
    p = d / "report.md"
    p.write_text(DRAFT, encoding="utf-8")
    return p


@pytest.mark.parametrize("reply", sorted(REPLIES))
def test_cli_verify_and_revise_never_print_or_write_the_key(
    openai_server: FakeOpenAIServer, tmp_path: Path, draft: Path, reply: str
) -> None:
    openai_server.default = REPLIES[reply]
    env = _env(openai_server.base_url, tmp_path)
    runner = CliRunner()
    for args in (
        ["verify", "--judge", "llm", "--as-of", "2026-11-01", str(draft)],
        ["verify", "--judge", "llm", "--json", "--as-of", "2026-11-01", str(draft)],
        ["revise", "--judge", "llm", "--as-of", "2026-11-01", "--out", str(tmp_path / "out"),
         str(draft)],
    ):  # fmt: skip
        res = runner.invoke(app, args, env=env)
        assert SENTINEL not in res.stdout + res.stderr, args
        if res.exception is not None and not isinstance(res.exception, SystemExit):
            assert SENTINEL not in repr(res.exception)
    assert openai_server.completions, "the endpoint was called"
    assert all(_key_of(r) == SENTINEL for r in openai_server.completions)
    assert all(SENTINEL not in r.raw for r in openai_server.completions)  # header only
    assert SENTINEL not in _all_files(tmp_path / "out")
    assert SENTINEL not in _all_files(tmp_path / "cache")


def test_a_key_echoed_inside_an_answer_is_not_written(
    openai_server: FakeOpenAIServer, tmp_path: Path, draft: Path
) -> None:
    openai_server.default = echo_in_answer
    env = _env(openai_server.base_url, tmp_path)
    res = CliRunner().invoke(
        app, ["verify", "--judge", "llm", "--json", "--as-of", "2026-11-01", str(draft)], env=env
    )
    assert res.exit_code == 0
    assert SENTINEL not in res.stdout


@pytest.fixture(scope="module")
def store() -> AuthorityStore:
    return load_default_store()


def test_logs_traces_and_reprs_hold_no_key(
    openai_server: FakeOpenAIServer,
    store: AuthorityStore,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    from governor.api import Governor
    from governor.reports.json_report import build_report

    openai_server.push(server_error(500))
    openai_server.default = echo_500
    chat = OpenAIChatModel(
        openai_server.base_url,
        "fake",
        environ={"OPENAI_API_KEY": SENTINEL},
        max_retries=2,
        sleep=lambda _s: None,
    )
    judge = LlmJudge(chat=chat, store=store, retriever=store)
    gov = Governor(load_config(overrides={}, environ={}), store=store, judge=judge)
    with caplog.at_level(logging.DEBUG):  # openai, httpx, langgraph, citegov: everything
        result = gov.govern(DRAFT, strategy="efa", as_of=date(2026, 11, 1))
    assert openai_server.completions
    report = build_report(
        DRAFT, as_of=date(2026, 11, 1), strategy="efa", judge=judge.name,
        initial=result.initial_verdicts, result=result,
    )  # fmt: skip
    channels = {
        "logs": caplog.text + "\n".join(str(r.__dict__) for r in caplog.records),
        "report": report.model_dump_json(),
        "trace": json.dumps(build_trace(result), ensure_ascii=False),
        "reprs": repr(chat) + repr(judge) + repr(gov.config) + str(chat.usage),
        "verdicts": repr(result.initial_verdicts) + repr(result.final_verdicts),
    }
    for name, text in channels.items():
        assert SENTINEL not in text, name


def test_config_never_holds_a_key(tmp_path: Path) -> None:
    env = {"OPENAI_API_KEY": SENTINEL, "CITEGOV_LLM_API_KEY": SENTINEL}
    cfg = load_config(overrides={}, environ=env)
    assert SENTINEL not in cfg.model_dump_json() and cfg.llm_api_key_env == "OPENAI_API_KEY"
    bad = tmp_path / "citegov.toml"
    bad.write_text(f'llm_api_key = "{SENTINEL}"\n', encoding="utf-8")
    with pytest.raises(ConfigError) as exc:
        load_config(bad, environ={})
    assert SENTINEL not in str(exc.value)
    res = CliRunner().invoke(
        app, ["verify", "--config", str(bad), str(bad)], env={"CITEGOV_CONFIG": ""}
    )
    assert res.exit_code == 2 and SENTINEL not in res.stdout + res.stderr


def test_missing_key_names_the_variable_not_a_value(draft: Path, tmp_path: Path) -> None:
    env = _env("http://127.0.0.1:9/v1", tmp_path)
    env["CITEGOV_LLM_API_KEY_ENV"] = "MY_CITEGOV_KEY"
    res = CliRunner().invoke(app, ["verify", "--judge", "llm", str(draft)], env=env)
    assert res.exit_code == 2 and "MY_CITEGOV_KEY" in res.stderr
    assert SENTINEL not in res.stdout + res.stderr


def test_crash_traceback_shows_no_key(draft: Path, tmp_path: Path) -> None:
    """An unexpected exception (here a bug injected into the client's request, below frames
    whose ``self`` holds the key) prints a traceback without local variables, so the key is
    not shown. (A malformed base URL is no longer such a crash: it is a ConfigError, see
    tests/test_faults.py::test_cli_malformed_base_url_is_a_config_error.)"""
    env = _env("http://127.0.0.1:9/v1", tmp_path)
    env["PYTHONPATH"] = str(ROOT)
    code = (
        "import governor.clients.chat as c\n"
        "def boom(self, *a, **k):\n"
        "    raise RuntimeError('injected bug in the chat client')\n"
        "c.OpenAIChatModel._request = boom\n"
        "from governor.cli.app import main; main()"
    )
    res = subprocess.run(
        [sys.executable, "-c", code, "verify", "--judge", "llm", str(draft)],
        env=env, capture_output=True, timeout=120,
    )  # fmt: skip
    out = (res.stdout + res.stderr).decode("utf-8", errors="replace")
    assert res.returncode not in (0, 2), out  # a crash, not a handled error
    assert "Traceback" in out and "injected bug in the chat client" in out  # it was printed
    assert SENTINEL not in out
