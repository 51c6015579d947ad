"""What the revision policy does to real model answers: edits per op and policy, words changed
vs annotations, proofs, orphan quotations and reading-invariant violations (issue 13).

Run: ``python -m benchmarks.bench_policy [--task 3-8] [--policies proven] [--limit N]
[--lawbench DIR] [--json OUT]``. Every answer of the task's dev files (three models × 500)
is governed with ``efa`` offline, as of LawBench's date; per policy it prints:

* edits per op; word-changing edits (the report's own words replaced or deleted: ``before``
  non-empty and not kept in ``after``) and how many carry a proof; annotations (notes only);
* 「未找到…法律依据」 notes (each a claim that nothing in the store supports the point);
* invariant violations the revision introduced (``governor.revision.invariants``: violations
  of the output beyond those of the input), by kind — ``orphan_quote`` among them;
* mean trust before → after, and citations kept / removed.

Counts, not timings: one run is exact (the offline pipeline is deterministic).
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

from benchmarks.datadir import data_path
from benchmarks.lawbench import LAWBENCH_AS_OF, draft_text, load_task
from governor.revision.invariants import new_violations

REMOVALS = frozenset({"remove_citation", "mark_unsupported"})
"""Ops that take a citation out of the text (renumbers and notes keep it)."""
NO_BASIS = re.compile(r"未找到[^）]*法律依据")


def changes_words(before: str, after: str) -> bool:
    """An edit that replaces or deletes the report's words (a pure insertion does not)."""
    return bool(before.strip()) and before not in after


def measure(task: str, policy: str, limit: int | None, lawbench: Path) -> dict[str, Any]:
    """Govern every answer of ``task`` with ``efa`` under ``policy``; the counts above."""
    from governor.api import Governor
    from governor.core.config import Config

    gov = Governor(Config(edit_policy=policy))
    items = load_task(lawbench, task)
    if limit:
        per = max(1, limit // 3)
        models = sorted({it.model for it in items})
        items = tuple(x for m in models for x in [it for it in items if it.model == m][:per])
    ops: Counter[str] = Counter()
    broken: Counter[str] = Counter()
    words = proven = notes = no_basis = kept = removed = drafts_broken = 0
    before_t: list[float] = []
    after_t: list[float] = []
    examples: list[dict[str, str]] = []
    for it in items:
        text = draft_text(it)
        r = gov.govern(text, strategy="efa", as_of=LAWBENCH_AS_OF)
        for rd in r.rounds:
            for e in rd.edits:
                ops[e.op] += 1
                if changes_words(e.before, e.after):
                    words += 1
                    proven += e.proof is not None
                elif not e.before.strip():
                    notes += 1
        no_basis += len(NO_BASIS.findall(r.text)) - len(NO_BASIS.findall(text))
        extra = new_violations(text, r.text)
        broken += extra
        if extra:
            drafts_broken += 1
            if len(examples) < 10:
                examples.append({"id": it.id, "kinds": ",".join(sorted(extra))})
        gone = sum(e.op in REMOVALS for rd in r.rounds for e in rd.edits)
        removed += gone
        kept += len(r.initial_verdicts) - gone
        inc = [v.item_trust for v in r.initial_verdicts if not v.excluded]
        fin = [v.item_trust for v in r.final_verdicts if not v.excluded]
        before_t.append(sum(inc) / len(inc) if inc else 1.0)
        after_t.append(sum(fin) / len(fin) if fin else 1.0)
    n = len(items)
    return {
        "task": task,
        "policy": policy,
        "answers": n,
        "edits_by_op": dict(ops.most_common()),
        "word_changing": words,
        "word_changing_with_proof": proven,
        "notes": notes,
        "no_basis_notes_added": no_basis,
        "violations_added": dict(broken),
        "orphan_quotes_added": broken.get("orphan_quote", 0),
        "drafts_with_new_violations": drafts_broken,
        "citations_kept": kept,
        "citations_removed": removed,
        "trust_before": round(sum(before_t) / n, 4) if n else None,
        "trust_after": round(sum(after_t) / n, 4) if n else None,
        "examples": examples,
    }


def main(argv: list[str] | None = None) -> int:
    """CLI entry point; prints one JSON object per (task, policy) and exits 0."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--task", action="append", help="3-8 and/or 3-2 (default both)")
    ap.add_argument("--policies", default="proven", help="comma list: annotate,proven,aggressive")
    ap.add_argument("--limit", type=int, default=None, help="answers per task (spread over models)")
    ap.add_argument("--lawbench", type=Path, default=None, help="LawBench dev folder")
    ap.add_argument("--json", type=Path, default=None, help="also write the results here")
    a = ap.parse_args(argv)
    folder = a.lawbench or data_path("lawbench_dev")
    results = []
    for task in a.task or ["3-8", "3-2"]:
        for policy in a.policies.split(","):
            res = measure(task, policy.strip(), a.limit, folder)
            results.append(res)
            print(json.dumps(res, ensure_ascii=False), flush=True)
    if a.json:
        a.json.write_text(json.dumps(results, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
