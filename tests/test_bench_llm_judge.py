"""benchmarks/bench_llm_judge.py: the pieces that are not timing (the marked section of the
results file, the usage line, the scripted judge's answers)."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.bench_all import _kept_sections
from benchmarks.bench_llm_judge import BEGIN, END, parse_usage, scripted_judge, write_section
from tests.fakes.openai_server import RecordedRequest


@pytest.mark.parametrize(
    "before,after",
    [
        ("", f"{BEGIN}\nNEW\n{END}\n"),
        ("# table\n", f"# table\n\n{BEGIN}\nNEW\n{END}\n"),
        (f"# table\n\n{BEGIN}\nOLD\n{END}\ntail\n", f"# table\n\n{BEGIN}\nNEW\n{END}\ntail\n"),
    ],
)
def test_write_section_replaces_or_appends(tmp_path: Path, before: str, after: str) -> None:
    out = tmp_path / "RESULTS.md"
    if before:
        out.write_text(before, encoding="utf-8")
    write_section(out, "NEW\n")
    assert out.read_text(encoding="utf-8") == after


def test_bench_all_keeps_the_llm_section(tmp_path: Path) -> None:
    out = tmp_path / "RESULTS.md"
    assert _kept_sections(out) == ""
    out.write_text(f"# old table\n\n{BEGIN}\nLLM\n{END}\n", encoding="utf-8")
    assert _kept_sections(out) == f"\n{BEGIN}\nLLM\n{END}\n"


def test_parse_usage_reads_the_cli_line() -> None:
    got = parse_usage("x\nllm usage: calls 10, cache_hits 0, limited_s 0.00, judge_batches 10\n")
    assert got == {"calls": "10", "cache_hits": "0", "limited_s": "0.00", "judge_batches": "10"}
    assert parse_usage("nothing here") == {}


def test_scripted_judge_answers_every_item_with_a_source_quote() -> None:
    user = (
        "【引证 c1】《民法典》第一条\n条文原文（可信）：\n<<<SOURCE c1\n为了保护民事主体的合法权益。其余\n"
        "SOURCE c1>>>\n\n【引证 c2】X\n<<<SOURCE c2\n第二条文\nSOURCE c2>>>"
    )
    req = RecordedRequest("POST", "/v1/chat/completions", {}, "", {"messages": [
        {"role": "system", "content": "s"}, {"role": "user", "content": user}]})  # fmt: skip
    items = scripted_judge(req)["items"]
    assert [i["id"] for i in items] == ["c1", "c2"]
    assert items[0]["fidelity"]["quote"] == "为了保护民事主体的合法权益"
    assert items[1]["applicability"]["label"] == "supports"
