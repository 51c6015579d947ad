"""benchmarks/bench_all.py: the pieces that are not timing (timing targets are never tested)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from benchmarks.bench_all import Runs, build_report, interleave, table, timed
from benchmarks.datadir import data_path

LAWBENCH = data_path("lawbench_dev")


@pytest.mark.skipif(not LAWBENCH.is_dir(), reason="shared lawbench_dev data not present")
def test_report_is_real_answers_counted_in_characters() -> None:
    from benchmarks.lawbench import draft_text, load_task

    text = build_report(LAWBENCH, chars=10_000)
    assert 10_000 <= len(text) < 12_000  # characters, not UTF-8 bytes (≈ 3× more)
    assert len(text.encode()) > 2 * len(text)
    first = draft_text(load_task(LAWBENCH, "3-8")[0])
    assert text.startswith(first)


def test_timed_reports_the_childs_own_accounting() -> None:
    wall, cpu, rss, code = timed(
        [sys.executable, "-c", "x = bytearray(64 << 20); sum(range(3_000_000))"], {}
    )
    assert code == 0 and wall >= cpu * 0.5 and cpu > 0
    assert rss > 64  # MiB: the child's peak, not this process's
    assert timed([sys.executable, "-c", "raise SystemExit(3)"], {})[3] == 3


def test_interleave_alternates_and_counts_failures(tmp_path: Path) -> None:
    log = tmp_path / "log"
    cmd = [sys.executable, "-c", f"open({str(log)!r}, 'a').write(__import__('sys').argv[1])"]
    runs = interleave(
        {
            "A": lambda: [*cmd, "A"],
            "B": lambda: [*cmd, "B"],
            "C": lambda: [*cmd[:2], "raise SystemExit(2)"],
        },
        runs=2,
        env={},
        warmup=1,
    )
    assert log.read_text() == "AB" + "ABAB"  # warm-up round, then A B A B
    assert [len(r.wall) for r in runs.values()] == [2, 2, 2]
    assert runs["C"].failures == 2 and runs["A"].failures == 0


def test_table_shows_median_range_load_and_target() -> None:
    r = Runs("cold verify")
    for wall, load in ((3.0, 1.0), (1.0, 2.0), (2.0, 9.0)):
        r.add(wall, wall / 2, 300.0, load)
    md = table([(r, "≤ 2.5 s")], ["a note"], "### head")
    row = next(line for line in md.splitlines() if line.startswith("| cold verify"))
    assert "2.00 s (1.00–3.00)" in row and "1.00 s (0.50–1.50)" in row
    assert "300 MiB" in row and "2.0 (1.0–9.0)" in row and "≤ 2.5 s" in row
    assert md.splitlines()[0] == "### head" and "a note" in md


def test_prebuilt_note_says_whether_hybrid_needs_a_build() -> None:
    from benchmarks.bench_all import prebuilt_note
    from governor.authorities.store import load_default_store

    note = prebuilt_note(load_default_store())
    assert "so hybrid retrieval needs no build" in note and "ANOTHER" not in note, note
    assert "ANOTHER store build" in prebuilt_note(object())


def test_compile_bytecode_writes_pyc_even_when_the_environment_forbids_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from benchmarks import bench_all

    for pkg in bench_all.PACKAGES:
        (tmp_path / pkg).mkdir()
        (tmp_path / pkg / "m.py").write_text("X = 1\n", encoding="utf-8")
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    assert bench_all.compile_bytecode(tmp_path)
    for pkg in bench_all.PACKAGES:
        assert list((tmp_path / pkg / "__pycache__").glob("m.*.pyc"))
    (tmp_path / "graphs" / "bad.py").write_text("def (:\n", encoding="utf-8")
    assert not bench_all.compile_bytecode(tmp_path)
