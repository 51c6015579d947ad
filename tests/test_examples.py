"""Every runnable example under ``examples/`` runs and prints what it promises.

Examples run in-process with ``runpy`` (the bundled store is loaded once per test session);
the OpenAI example runs against the scripted fake server on 127.0.0.1.
"""

from __future__ import annotations

import json
import re
import runpy
import sys
from pathlib import Path

import pytest

from tests.conftest import FAKE_KEY
from tests.fakes.openai_server import FakeOpenAIServer

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def run_example(name: str, capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    old = sys.argv
    sys.argv = [str(EXAMPLES / name), *argv]
    try:
        runpy.run_path(str(EXAMPLES / name), run_name="__main__")
    finally:
        sys.argv = old
    out: str = capsys.readouterr().out
    return out


def test_every_example_has_a_test() -> None:
    tested = {
        "wrap_callable.py", "wrap_runnable.py", "wrap_openai.py", "wrap_drafts.py",
        "subgraph.py", "durable.py", "review.py",
    }  # fmt: skip
    assert {p.name for p in EXAMPLES.glob("*.py")} == tested


def test_wrap_callable(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_example("wrap_callable.py", capsys)
    edit, regen = out.split("\n[")
    m = re.match(r"\[\(task\) -> str, edit\] trust ([0-9.]+) -> ([0-9.]+)", edit)
    assert m is not None and float(m.group(2)) > float(m.group(1))
    assert "fix_number: '二年' -> '三年'" in edit
    assert "(task, feedback) -> str, regenerate] trust 0.333 -> 1.000" in regen
    assert "regenerate:" in regen and "第九千条" not in regen.split("output:")[1]


def test_wrap_runnable(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_example("wrap_runnable.py", capsys)
    assert "invoke: all_pass | 依据《中华人民共和国民法典》第五百七十七条" in out
    assert out.count("batch: all_pass") == 2
    assert "stream: revise" in out and "stream: result all_pass" in out


def test_wrap_openai(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    openai_server: FakeOpenAIServer,
    tmp_path: Path,
) -> None:
    monkeypatch.setenv("CITEGOV_LLM_BASE_URL", openai_server.base_url)
    monkeypatch.setenv("CITEGOV_LLM_MODEL", "fake-writer")
    monkeypatch.setenv("CITEGOV_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
    openai_server.push(
        "出借人应在诉讼时效期间内起诉。向人民法院请求保护民事权利的诉讼时效期间为二年"
        "（《民法典》第一百八十八条）。"
    )
    out = run_example("wrap_openai.py", capsys)
    assert "model fake-writer: 1 citation(s), trust 0.000 -> 1.000" in out
    assert "fix_number: '二年' -> '三年'" in out
    (req,) = openai_server.completions
    assert "借款到期不还" in req.prompt and FAKE_KEY not in out


def test_wrap_drafts(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = run_example("wrap_drafts.py", capsys, str(EXAMPLES / "drafts"), str(tmp_path))
    traces = sorted(tmp_path.glob("*.trace.json"))
    assert len(traces) == len(list((EXAMPLES / "drafts").glob("*.md"))) == out.count("trust")
    t = json.loads(traces[0].read_text(encoding="utf-8"))
    assert t["rounds"] and t["rounds"][0]["edits"][0]["reason"]
    assert t["diff"].startswith("--- ") and t["initial"]["citations"]


def test_subgraph(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_example("subgraph.py", capsys)
    first = out.splitlines()[0]
    assert first.startswith("[all_pass]") and "三年" in first and "第九千条" not in first
    assert "app ['govern']" in out and any(ln.startswith("govern:") for ln in out.splitlines())
    assert "second run: True" in out and "batch of 3: [True, True, True]" in out
    assert "strategy none: [strategy_none]" in out
    assert "verdict: 《民法典》第九千条 not_found round 0" in out


def test_review(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = run_example("review.py", capsys, str(tmp_path / "r.sqlite"))
    assert (
        "proposed 0: fix_number '二年' -> '三年'" in out and "proposed 1: mark_unsupported" in out
    )
    assert "applied: ['fix_number'] | no_change" in out
    assert "三年" in out.split("text:")[1] and "rejected 1 of 2" in out


def test_durable(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = run_example("durable.py", capsys, str(tmp_path / "ck.sqlite"))
    assert "paused after the first revise: interrupted" in out
    assert "resumed: all_pass" in out and (tmp_path / "ck.sqlite").is_file()
