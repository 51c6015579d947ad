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

``--governed`` (issue 22 "done when") governs each labelled answer with ``efa`` (the question
as context, as of the set's date) and reports what the reader is told, per model: for
wrong-article citations, the share whose governed text or note names exactly the reference
article (a renumber/move of the citation to it, or a note 「可能应为…」 naming it); named
candidates right (over every provision named for a wrong-article or correct citation), also
split into notes and moves; and correct citations kept (no edit changes their pin, no note
names another provision). ``--items-out`` writes what was named per citation, for reading.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable, Iterable
from datetime import date
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
    name_probability: float = 0.69,
) -> dict[str, Any]:
    """The figures of the module docstring from ``{"item", "prediction"}`` rows;
    ``cited_instrument(raw)`` gives the canonical title a citation names (None: unknown).
    With ``items``, the ids of the correct answers not kept are listed too (``correct_lost``,
    ``reference_lost``: item ids in input order). A suggestion with a calibrated probability
    (the candidate map) is offered at ``name_probability``
    (``Thresholds.candidate_name_probability``), others at ``min_score``."""
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
        prob = p.get("suggestion_probability")
        bar = name_probability if prob is not None else min_score
        if exp["applicability"] == "irrelevant" and exp.get("suggestion"):
            target = exp["suggestion"]
            hit = sug == target
            offered = hit and score >= bar
            wrong += 1
            wrong_hit += hit
            wrong_off += offered
            cited = cited_instrument(it["raw"]) or ""
            if cited and not target.startswith(cited + "#"):
                cross += 1
                cross_hit += hit
                cross_off += offered
        elif exp["applicability"] == "supports":
            ok = p["applicability"] not in FAIL and not (sug and score >= bar)
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
        "name_probability": name_probability,
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


_NAMED = re.compile(r"可能应为(?P<pin>.+?)（置信度")
MOVES = frozenset({"renumber", "reanchor", "replace_repealed", "fix_granularity"})


def named_for(
    result: Any,
    span: tuple[int, int],
    parse: Callable[[str], str | None],
    how: list[str] | None = None,
) -> list[str]:
    """Provision keys the governed run names for the citation at ``span`` of the draft: the
    targets of first-round moves on it and the provisions its notes name. With ``how``, the
    edit op naming each key is appended to it (same order)."""
    from benchmarks.calibration import match_verdict

    v = match_verdict(span, result.initial_verdicts)
    if v is None or not result.rounds:
        return []
    out: list[str] = []
    for ed in result.rounds[0].edits:
        if ed.citation_id != v.citation.id:
            continue
        if ed.op in MOVES:
            key = parse(ed.after)
        else:
            m = _NAMED.search(ed.after)
            key = parse(m["pin"]) if m else None
        if key:
            out.append(key)
            if how is not None:
                how.append(ed.op)
    return out


def governed(
    rows: Iterable[dict[str, Any]], detail: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """The ``--governed`` figures (module docstring) from ``{"item", ...}`` rows; with
    ``detail``, one dict per scored citation is appended to it (id, group, ``wrong``,
    ``reference``, ``named`` keys and the edit ``ops`` naming them, the prediction's
    suggestion, probability and features) for reading the failures."""
    from benchmarks.calibration import provision_key
    from governor.api import Governor
    from governor.citations.extract import parse_pin
    from governor.core.config import Config

    gov = Governor(Config())
    store = gov.store

    def parse(text: str) -> str | None:
        c = parse_pin(text, store)
        if c is None or not c.instrument or not c.article:
            return None
        return provision_key(c.instrument, c.article)

    cache: dict[tuple[str, str, str], Any] = {}
    per: dict[str, dict[str, int]] = {}
    for row in rows:
        it = row["item"]
        exp = it["expected"]
        app = exp.get("applicability")
        if it.get("group") == "reference" or app is None:
            continue
        wrong = app == "irrelevant" and bool(exp.get("suggestion"))
        if not wrong and app != "supports":
            continue
        key = (it["text"], it["as_of"], it.get("context", ""))
        if key not in cache:
            cache[key] = gov.govern(
                it["text"],
                strategy="efa",
                as_of=date.fromisoformat(it["as_of"]),
                context=it.get("context", ""),
            )
        ops: list[str] = []
        names = named_for(cache[key], tuple(it["span"]), parse, ops)
        if detail is not None:
            p = row.get("prediction") or {}
            detail.append(
                {
                    "id": it["id"],
                    "group": it["group"],
                    "wrong": wrong,
                    "reference": exp.get("suggestion"),
                    "named": names,
                    "ops": ops,
                    "suggestion": p.get("suggestion"),
                    "probability": p.get("suggestion_probability"),
                    "features": p.get("suggestion_features"),
                }
            )
        g = per.setdefault(it["group"], dict.fromkeys(_COUNTS, 0))
        for k, op in zip(names, ops, strict=True):
            kind = "move" if op in MOVES else "note"
            g[kind] += 1
            g[kind + "_right"] += wrong and k == exp["suggestion"]
        if wrong:
            g["wrong"] += 1
            g["named_ref"] += exp["suggestion"] in names
            g["named"] += bool(names)
            g["right"] += exp["suggestion"] in names
        else:
            g["n_ok"] += 1
            g["ok"] += not names
            g["named"] += bool(names)
    out: dict[str, Any] = {}
    tot = dict.fromkeys(_COUNTS, 0)
    for grp, g in sorted(per.items()):
        for k in tot:
            tot[k] += g[k]
        out[grp] = _governed_row(g)
    out["all"] = _governed_row(tot)
    return out


_COUNTS = (
    "wrong",
    "named_ref",
    "named",
    "right",
    "ok",
    "n_ok",
    "note",
    "note_right",
    "move",
    "move_right",
)


def _governed_row(g: dict[str, int]) -> dict[str, Any]:
    """One group's ``--governed`` row; ``notes_right`` / ``moves_right`` split the provisions
    named (each named key once per citation) into notes (「可能应为…」) and moves (a renumber or
    another move of the pin, proof-based in the revision policy), right = the reference."""
    return {
        "wrong_article": g["wrong"],
        "names_reference": _ratio(g["named_ref"], g["wrong"]),
        "named": g["named"],
        "named_right": _ratio(g["right"], g["named"]),
        "notes": g["note"],
        "notes_right": _ratio(g["note_right"], g["note"]),
        "moves": g["move"],
        "moves_right": _ratio(g["move_right"], g["move"]),
        "correct": g["n_ok"],
        "correct_kept": _ratio(g["ok"], g["n_ok"]),
    }


def main(argv: list[str] | None = None) -> int:
    """Print the figures as JSON."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("predictions", type=Path, help="JSONL from citegov calibrate --predictions")
    ap.add_argument("--min-score", type=float, default=0.5)
    ap.add_argument(
        "--json", action="store_true", help="also list the ids of the correct answers not kept"
    )
    ap.add_argument(
        "--governed",
        action="store_true",
        help="govern each labelled answer (efa) and report what the reader is told",
    )
    ap.add_argument(
        "--items-out",
        type=Path,
        help="with --governed: write one JSON line per scored citation (what was named, by "
        "which edit, the prediction's candidate) here",
    )
    args = ap.parse_args(argv)
    if not args.predictions.is_file():
        sys.stderr.write(f"{args.predictions}: no such file; run citegov calibrate first\n")
        return 2
    with args.predictions.open(encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh if line.strip()]
    if args.governed:
        detail: list[dict[str, Any]] | None = [] if args.items_out else None
        sys.stdout.write(json.dumps(governed(rows, detail), ensure_ascii=False, indent=2) + "\n")
        if args.items_out and detail is not None:
            with args.items_out.open("w", encoding="utf-8") as fh:
                for d in detail:
                    fh.write(json.dumps(d, ensure_ascii=False) + "\n")
        return 0
    from governor.authorities import load_default_store
    from governor.citations.extract import parse_pin

    store = load_default_store()

    def cited(raw: str) -> str | None:
        c = parse_pin(raw, store)
        return c.instrument if c is not None else None

    from governor.core.config import Thresholds

    result = figures(
        rows,
        args.min_score,
        cited,
        items=args.json,
        name_probability=Thresholds().candidate_name_probability,
    )
    sys.stdout.write(json.dumps(result, ensure_ascii=False, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
