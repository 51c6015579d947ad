"""Issue 21 item 3 / issue 22 item 6: every citation judged failing reaches the reader — an
edit on it or a note in its line — over LawBench 3-8 dev answers (three models).

The fast test governs the first 15 answers of each model; the ``slow`` one all 3 × 500.
"""

from __future__ import annotations

import pytest

from benchmarks.datadir import data_path
from benchmarks.lawbench import LAWBENCH_AS_OF, draft_text, load_task
from governor.api import Governor
from governor.core.config import Config
from governor.revision.strategies import unreported

LAWBENCH = data_path("lawbench_dev")


def _silent(per_model: int | None) -> list[tuple[str, str, str]]:
    if not LAWBENCH.is_dir():
        pytest.skip(f"{LAWBENCH}: LawBench dev answers not available")
    gov = Governor(Config())
    items = load_task(LAWBENCH, "3-8")
    models = sorted({it.model for it in items})
    chosen = [x for m in models for x in [it for it in items if it.model == m][:per_model]]
    out = []
    for it in chosen:
        r = gov.govern(draft_text(it), strategy="efa", as_of=LAWBENCH_AS_OF)
        edited = {e.citation_id for rd in r.rounds for e in rd.edits if e.citation_id}
        for v in unreported(r.text, r.final_verdicts, edited):
            out.append((it.id, v.citation.raw, v.fidelity.label + "/" + v.applicability.label))
    return out


def test_failing_verdicts_reach_the_reader_sample() -> None:
    silent = _silent(15)
    assert silent == [], silent[:10]


@pytest.mark.slow
def test_failing_verdicts_reach_the_reader_all() -> None:
    silent = _silent(None)
    assert silent == [], (len(silent), silent[:10])
