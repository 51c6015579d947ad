"""How often a repeal note (or replacement) names a successor provision, on LawBench 3-8 answers.

Target (issue 13, "Done when"): the note or edit left on a citation of a repealed 合同法,
物权法, 婚姻法, 民法通则 or 民法总则 names a successor provision for ≥ 80 % of such citations in
the dev 3-8 answers (three models), and ≥ 90 % of those named are right on a hand-checked
sample of 50.

For every answer the draft is governed with ``efa`` (offline judge, as of ``--as-of``); for
every citation of those laws with an article, in the initial verdicts, it counts:

* ``named``: the output text names a successor provision for it — a ``replace_repealed``
  edit, a repeal note 「…相应规定见《X》第N条…」 (the successor for what the report says), or
  「…所引原第M条现为《X》第N条（置信度…），与所述内容不符…」 (the cited article's own
  successor, named as such, when the report's words are not that article's);
* ``replaced`` / ``noted`` / ``noted_as_cited``: which of the three.

``--sample N --out FILE`` writes N named successors (seeded) as JSONL — the old provision's
text, the report's words, the successor's text, confidence and proof — for the hand check.

Run: ``python -m benchmarks.bench_successors [--lawbench DIR] [--as-of 2024-06-01]``.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from datetime import date
from pathlib import Path

from benchmarks.datadir import data_path

LAWS = frozenset(
    f"中华人民共和国{n}" for n in ("合同法", "物权法", "婚姻法", "民法通则", "民法总则")
)
_NOTE = re.compile(
    r"（注：《[^》]+》已于[^（）]*?废止(?:，相应规定见(?P<succ>《[^》]+》第[^，（）]+条)"
    r"|；所引原第[^，（）]+条现为(?P<cited>《[^》]+》第[^，（）]+条))"
)
"""A repeal note naming a successor: for what the report says (``succ``), or as the cited
article's own successor when the report's words are not that article's (``cited``)."""


def run(
    lawbench: Path, as_of: date, sample: int, out: Path | None, seed: int = 0
) -> dict[str, float]:
    """Govern every 3-8 answer; return the counts (see the module docstring)."""
    from benchmarks.lawbench import draft_text, load_task
    from governor.api import Governor
    from governor.text.numerals import article_label

    gov = Governor()
    items = load_task(lawbench, "3-8")
    total = named = replaced = noted = noted_as_cited = 0
    rows: list[dict[str, object]] = []
    t0 = time.perf_counter()
    for item in items:
        text = draft_text(item)
        r = gov.govern(text, strategy="efa", as_of=as_of)
        first_ops = {e.citation_id: e for rd in r.rounds[:1] for e in rd.edits}
        for v in r.initial_verdicts:
            c = v.citation
            if v.existence.label != "repealed" or c.instrument not in LAWS or not c.article:
                continue
            total += 1
            ed = first_ops.get(c.id)
            s = v.suggestion
            how = named_as = succ_text = ""
            m = _NOTE.search(ed.after) if ed is not None and ed.op == "mark_stale" else None
            if ed is not None and ed.op == "replace_repealed" and s is not None:
                how = "replaced"
            elif m is not None and m.group("succ") and s is not None:
                how = "noted"
            elif m is not None and m.group("cited"):
                how = "noted_as_cited"  # the cited article's successor, said not to fit
                named_as = m.group("cited")
            if how in ("replaced", "noted") and s is not None and s.authority.article:
                short = s.authority.instrument.removeprefix("中华人民共和国")
                named_as = f"《{short}》{article_label(s.authority.article)}"
                succ_text = s.authority.text
            elif how == "noted_as_cited" and v.resolved is not None and v.resolved.article:
                link = gov.store.successor_of(v.resolved.instrument, v.resolved.article)
                succ_text = link.successor.text if link is not None else ""
            if not named_as or named_as not in r.text:
                continue  # none named, or named in round 1 and gone from the output
            named += 1
            replaced += how == "replaced"
            noted += how == "noted"
            noted_as_cited += how == "noted_as_cited"
            if v.resolved is not None:
                rows.append(
                    {
                        "model": item.model,
                        "id": item.id,
                        "cited": f"{c.instrument}{article_label(c.article)}",
                        "said": (c.description or c.claim)[:200],
                        "old_text": v.resolved.text[:300],
                        "successor": named_as,
                        "successor_text": succ_text[:300],
                        "confidence": round(s.score, 3) if s is not None else None,
                        "proof": s.proof if s is not None else "",
                        "how": how,
                        "note": ed.after if ed is not None else "",
                        "fidelity": v.fidelity.label,
                    }
                )
    elapsed = time.perf_counter() - t0
    if out is not None and sample:
        random.Random(seed).shuffle(rows)
        with out.open("w", encoding="utf-8") as fh:
            for row in rows[:sample]:
                fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    return {
        "answers": len(items),
        "repealed_citations": total,
        "named": named,
        "named_share": named / total if total else 0.0,
        "replaced": replaced,
        "noted": noted,
        "noted_as_cited": noted_as_cited,
        "seconds": round(elapsed, 1),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lawbench", type=Path, default=data_path("lawbench_dev"))
    ap.add_argument("--as-of", default="2024-06-01")
    ap.add_argument("--sample", type=int, default=50)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--seed", type=int, default=0, help="seed of the hand-check sample")
    args = ap.parse_args(argv)
    if not args.lawbench.is_dir():
        print(f"{args.lawbench}: no LawBench folder; pass --lawbench DIR", file=sys.stderr)
        return 2
    res = run(args.lawbench, date.fromisoformat(args.as_of), args.sample, args.out, args.seed)
    for k, v in res.items():
        print(f"{k:>20} {v:.3f}" if isinstance(v, float) else f"{k:>20} {v}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
