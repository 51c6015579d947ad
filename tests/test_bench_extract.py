"""benchmarks/bench_extract.py: inputs counted in characters, runs that count what they time
(timing targets are never tested; the figures come from running the benchmark)."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.bench_extract import _inputs, chinese_docs, english_docs, run_child
from benchmarks.datadir import data_path

LAWBENCH = data_path("lawbench_dev")
needs_data = pytest.mark.skipif(not LAWBENCH.is_dir(), reason="shared lawbench_dev data absent")


@needs_data
def test_chinese_input_is_counted_in_characters() -> None:
    docs = chinese_docs(LAWBENCH, 20_000)
    total = sum(map(len, docs))
    assert 20_000 <= total < 20_000 + max(map(len, docs))
    assert sum(len(d.encode()) for d in docs) > 2 * total  # bytes would flatter Chinese


@pytest.mark.parametrize("chars,doc_chars", [(5_000, 200), (20_000, 600), (1, 50)])
def test_english_input_matches_size_and_document_length(chars: int, doc_chars: int) -> None:
    docs = english_docs(chars, doc_chars)
    total = sum(map(len, docs))
    assert chars <= total < chars + doc_chars + 200
    assert all(doc_chars <= len(d) < doc_chars + 200 for d in docs)
    assert docs == english_docs(chars, doc_chars)  # seeded


@needs_data
def test_both_languages_get_the_same_characters_per_document() -> None:
    zh, en = _inputs(LAWBENCH, 30_000)
    zh_avg, en_avg = sum(map(len, zh)) / len(zh), sum(map(len, en)) / len(en)
    assert abs(sum(map(len, en)) - sum(map(len, zh))) < 1_000
    assert 0.8 < en_avg / zh_avg < 1.5


@needs_data
@pytest.mark.parametrize("command", ["zh", "eyecite"])
def test_a_run_reports_what_it_timed(command: str) -> None:
    pytest.importorskip("eyecite")
    out = run_child(command, LAWBENCH, 5_000)
    assert out["chars"] >= 5_000 and out["docs"] > 1
    assert out["citations"] > 0 and out["cpu_s"] > 0


def test_unknown_command_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown command"):
        run_child("fr", LAWBENCH if LAWBENCH.is_dir() else tmp_path, 10)
