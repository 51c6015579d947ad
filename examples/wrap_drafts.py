"""Govern existing drafts on disk (one file per task id) and write a trace per draft.

``DraftFolder`` serves ``<folder>/<task id>.md`` as the generator's output, so a folder of
drafts written by any system goes through the same pipeline as a live generator. Each run's
trace (every round's verdicts and edits + a unified diff) is written as JSON.

Run: ``python examples/wrap_drafts.py [DRAFT_FOLDER] [TRACE_FOLDER]``
(defaults: ``examples/drafts`` and a temporary folder).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from governor.api import Governor
from governor.core.config import load_config
from governor.core.labels import report_score
from graphs.trace import write_trace
from graphs.wrap import DraftFolder


def main(argv: list[str]) -> None:
    folder = Path(argv[0]) if argv else Path(__file__).parent / "drafts"
    out = Path(argv[1]) if len(argv) > 1 else Path(tempfile.mkdtemp(prefix="citegov-traces-"))
    drafts = DraftFolder(folder)
    gov = Governor(load_config(overrides={"as_of": "2023-07-01"}), generator=drafts)
    for task_id in drafts.ids():
        result = gov.write({"id": task_id}, strategy="efa")
        path = write_trace(result, out / f"{task_id}.trace.json")
        s0, s1 = report_score(result.initial_verdicts), report_score(result.final_verdicts)
        print(
            f"{task_id}: {s0.n_cite} citations, trust {s0.trust:.3f} -> {s1.trust:.3f}, "
            f"{len(result.edits)} edit(s), stop {result.stop_reason} -> {path}"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
