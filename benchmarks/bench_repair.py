"""Repair-suggestion figures on LawBench 3-2 dev answers (issue 15 item 4 "done when").

Usage::

    citegov calibrate benchmarks/data/labels_lawbench_3-2.jsonl --predictions /tmp/p.jsonl
    python -m benchmarks.bench_repair /tmp/p.jsonl [--min-score 0.5] [--json]

Reads the item + prediction pairs ``citegov calibrate --predictions`` writes for the 3-2
labelled set (three models' answers; ``refr`` gives the reference article, used here only to
score) and reports, over model citations that exist:

* **wrong-article answers** (labelled ``irrelevant``, reference known): the share whose
  top-1 suggestion is exactly the reference article — at any confidence, and offered (at or
  above ``--min-score``, the confidence the revision policy acts on); the same for the subset
  whose reference is in **another instrument** than the one cited;
* **correct answers** (the model cited the reference article, labelled ``supports``): the
  share kept — applicability passes (not ``irrelevant``/``contradicts``) and no suggestion of
  another provision is offered at ``--min-score``.

Reference answers themselves (group ``reference``) are reported apart: they are the
reference's own words, so they are not model answers.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

FAIL = frozenset({"irrelevant", "contradicts"})


def _ratio(a: int, b: int) -> float | None:
    return round(a / b, 4) if b else None


def figures(
    rows: Iterable[dict[str, Any]],
    min_score: float = 0.5,
    cited_instrument: Callable[[str], str | None] = lambda raw: None,
    items: bool = False,
) -> dict[str, Any]:
    """The figures of the module docstring from ``{"item", "prediction"}`` rows;
    ``cited_instrument(raw)`` gives the canonical title a citation names (None: unknown).
    With ``items``, the ids of the correct answers not kept are listed too (``correct_lost``,
    ``reference_lost``: item ids in input order)."""
    wrong = wrong_hit = wrong_off = 0
    cross = cross_hit = cross_off = 0
    right = kept = 0
    ref_n = ref_kept = 0
    lost: list[str] = []
    ref_lost: list[str] = []
    for row in rows:
        it, p = row["item"], row["prediction"]
        exp = it["expected"]
        if exp.get("applicability") is None or p.get("applicability") is None:
            continue
        sug = p.get("suggestion")
        score = p.get("suggestion_score") or 0.0
        if exp["applicability"] == "irrelevant" and exp.get("suggestion"):
            target = exp["suggestion"]
            hit = sug == target
            offered = hit and score >= min_score
            wrong += 1
            wrong_hit += hit
            wrong_off += offered
            cited = cited_instrument(it["raw"]) or ""
            if cited and not target.startswith(cited + "#"):
                cross += 1
                cross_hit += hit
                cross_off += offered
        elif exp["applicability"] == "supports":
            ok = p["applicability"] not in FAIL and not (sug and score >= min_score)
            if it.get("group") == "reference":
                ref_n += 1
                ref_kept += ok
                if not ok:
                    ref_lost.append(it["id"])
            else:
                right += 1
                kept += ok
                if not ok:
                    lost.append(it["id"])
    out: dict[str, Any] = {
        "min_score": min_score,
        "wrong_article": {
            "n": wrong,
            "top1_reference_any_confidence": _ratio(wrong_hit, wrong),
            "top1_reference_offered": _ratio(wrong_off, wrong),
        },
        "wrong_article_other_instrument": {
            "n": cross,
            "top1_reference_any_confidence": _ratio(cross_hit, cross),
            "top1_reference_offered": _ratio(cross_off, cross),
        },
        "correct_kept": {"n": right, "kept": _ratio(kept, right)},
        "reference_answers_kept": {"n": ref_n, "kept": _ratio(ref_kept, ref_n)},
    }
    if items:
        out["correct_lost"] = lost
        out["reference_lost"] = ref_lost
    return out


def main(argv: list[str] | None = None) -> int:
    """Print the figures as JSON."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("predictions", type=Path, help="JSONL from citegov calibrate --predictions")
    ap.add_argument("--min-score", type=float, default=0.5)
    ap.add_argument(
        "--json", action="store_true", help="also list the ids of the correct answers not kept"
    )
    args = ap.parse_args(argv)
    if not args.predictions.is_file():
        sys.stderr.write(f"{args.predictions}: no such file; run citegov calibrate first\n")
        return 2
    with args.predictions.open(encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh if line.strip()]
    from governor.authorities import load_default_store
    from governor.citations.extract import parse_pin

    store = load_default_store()

    def cited(raw: str) -> str | None:
        c = parse_pin(raw, store)
        return c.instrument if c is not None else None

    result = figures(rows, args.min_score, cited, items=args.json)
    sys.stdout.write(json.dumps(result, ensure_ascii=False, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
