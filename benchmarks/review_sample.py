"""Seeded samples of governed dev answers for a fresh reviewer to judge against the statutes.

Runs ``citegov revise --strategy efa`` on dev LawBench 3-8 answers (all three models) that no
test or fitted threshold reads by position — keys past the first 100 of each file, drawn with a
fixed seed — and writes three samples a reviewer judges by hand, with the provision text each
citation resolved to:

- ``silent.jsonl``: citations that got no edit, no note and no report line (question: wrong
  but silent?); ``failing`` marks those whose verdict failed all the same (should be none);
- ``flagged.jsonl``: citations that got an edit, a note or a report line saying they failed
  (false alarm?);
- ``not_assessed.jsonl``: citations whose only word to the reader is a report line saying they
  were **not assessed** (「not assessed (a law cited whole, no article) …」,
  :func:`governor.core.gaps.unchecked_claim_line`): such a line claims nothing wrong, so it is
  no flag and no false alarm, and it is not silence either (what the check could not read is
  said) — kept apart and counted (question: should it have been assessed?);
- ``edits.jsonl``: the edits themselves (helpful / neutral / harmful?).

Usage (from the project root)::

    python -m benchmarks.review_sample --out runs/review --drafts 90 --n 150 --seed 7

The reviewer's judgments are not computed here: this only draws the sample (issue 21/22
"Done when": wrong-but-silent and false-alarm shares, harmful edits).
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from benchmarks.datadir import data_path
from benchmarks.lawbench import question_of

SKIP_FIRST = 100
"""Keys of each dev file read by position elsewhere (tests, reading_check) are left out."""


def _question(v: dict[str, Any]) -> str:
    """The question the model was asked (:func:`benchmarks.lawbench.question_of`: no task
    instruction, no chat-template tokens — qwen's ``<|im_start|>user`` once stood in the
    draft's 「问题：」 line and hid the question from the judges)."""
    return question_of(v["origin_prompt"])


def pick_drafts(
    n: int,
    seed: int,
    keys_from: str = "review",
    tasks: tuple[str, ...] = ("3-8",),
    exclude: frozenset[str] = frozenset(),
) -> list[tuple[str, str]]:
    """``n`` (name, text) drafts from the dev answers of ``tasks``, spread over models and tasks.

    ``keys_from`` is ``"review"`` (keys past the first :data:`SKIP_FIRST` of each file, the
    fresh reviewer's range) or ``"tuning"`` (the first :data:`SKIP_FIRST` keys, the range
    thresholds are fitted on). Drafts named in ``exclude`` (file names as written here, e.g.
    those an earlier review read and fixes were tuned on: :func:`reviewed_names`) are never
    drawn. Raises ValueError on another ``keys_from``.
    """
    if keys_from not in ("review", "tuning"):
        raise ValueError(f"keys_from must be 'review' or 'tuning', not {keys_from!r}")
    rng = random.Random(seed)
    files = sorted(f for t in tasks for f in data_path("lawbench_dev").glob(f"*_{t}.json"))
    per = max(1, n // max(1, len(files)))
    out: list[tuple[str, str]] = []
    for f in files:
        d = json.loads(f.read_text(encoding="utf-8"))
        ordered = sorted(d, key=lambda k: int(k) if k.isdigit() else k)
        keys = ordered[SKIP_FIRST:] if keys_from == "review" else ordered[:SKIP_FIRST]
        keys = [k for k in keys if "第" in d[k]["prediction"] and "条" in d[k]["prediction"]]
        task = f.stem.rsplit("_", 1)[-1]

        def name_of(k: str, f: Path = f, task: str = task) -> str:
            return f"{f.stem.split('_zero')[0]}_{k}.md" if task == "3-8" else f"{f.stem}_{k}.md"

        keys = [k for k in keys if name_of(k) not in exclude]
        for k in rng.sample(keys, min(per, len(keys))):
            v = d[k]
            out.append((name_of(k), f"问题：{_question(v)}\n\n{v['prediction']}\n"))
    return out


SAMPLES = ("silent", "flagged", "edits", "not_assessed")
"""The samples :func:`main` writes, one JSON Lines file each."""


def reviewed_names(folders: list[Path]) -> frozenset[str]:
    """Names of the drafts an earlier review put before its reviewers. Per folder: the
    ``draft`` of every row of each labelled file (``X.jsonl`` beside a reviewer's
    ``X.labels.jsonl``); without labels, of its sample files (:data:`SAMPLES`); without those,
    every ``*.md`` of its ``in/`` (or of the folder itself). Raises FileNotFoundError for a
    folder that does not exist."""
    names: set[str] = set()
    for d in folders:
        if not d.is_dir():
            raise FileNotFoundError(f"no review folder {d}")
        labelled = [
            f.with_name(f.name.removesuffix(".labels.jsonl") + ".jsonl")
            for f in sorted(d.glob("*.labels.jsonl"))
        ]
        rows = [f for f in labelled if f.is_file()] or [
            d / f"{s}.jsonl" for s in SAMPLES if (d / f"{s}.jsonl").is_file()
        ]
        for f in rows:
            with f.open(encoding="utf-8") as fh:
                names.update(json.loads(line)["draft"] for line in fh if line.strip())
        if not rows:
            src = d / "in" if (d / "in").is_dir() else d
            names.update(p.name for p in src.glob("*.md"))
    return frozenset(names)


def _context(text: str, span: list[int], width: int = 160) -> str:
    a, b = span
    return text[max(0, a - width) : a] + "【" + text[a:b] + "】" + text[b : b + width]


def _cite_row(name: str, text: str, c: dict[str, Any], notes: list[str]) -> dict[str, Any]:
    res = c.get("resolved") or {}
    sug = c.get("suggestion") or {}
    return {
        "draft": name,
        "raw": c["raw"],
        "context": _context(text, c["span"]),
        "claim": c.get("claim"),
        "description": c.get("description"),
        "E": c["existence"]["label"],
        "F": c["fidelity"]["label"],
        "A": c["applicability"]["label"],
        "rationale": " | ".join(
            c[k].get("rationale", "") for k in ("existence", "fidelity", "applicability")
        ),
        "provision": res.get("label"),
        "provision_text": res.get("text"),
        "suggestion": sug.get("label") or sug.get("title"),
        "notes_and_edits": notes,
    }


NOT_ASSESSED_PREFIX = "not assessed"
"""How a report line that says a citation was not assessed begins
(:func:`governor.core.gaps.unchecked_claim_line`); a line saying it failed begins
「judged failing」 (:func:`governor.core.labels.unsaid_line`)."""


def _lines_about(warnings: list[str], names: tuple[str, ...]) -> list[str]:
    """The report lines that name a citation (its raw text or resolved label)."""
    return [w for w in warnings if any(n and n in w for n in names)]


def collect(inp: Path, out: Path) -> tuple[list[dict[str, Any]], ...]:
    """(silent, flagged, edits, not_assessed) rows from a revise output folder.

    A citation is ``flagged`` when it got an edit or a note, a note of its sentence or list
    covers it, or a report line names it other than as not assessed; ``not_assessed`` when the
    only word about it is a not-assessed line (:data:`NOT_ASSESSED_PREFIX`); else ``silent``
    (excluded citations — the question's own — are in none)."""
    silent: list[dict[str, Any]] = []
    flagged: list[dict[str, Any]] = []
    edits: list[dict[str, Any]] = []
    unassessed: list[dict[str, Any]] = []
    for vj in sorted(out.glob("*.verdicts.json")):
        name = vj.name.replace(".verdicts.json", ".md")
        text = (inp / name).read_text(encoding="utf-8")
        rep = json.loads(vj.read_text(encoding="utf-8"))
        all_edits = [e for r in rep.get("rounds", []) for e in r.get("edits", [])]
        by_cite: dict[str, list[str]] = {}
        for e in all_edits:
            by_cite.setdefault(e.get("citation_id") or "", []).append(
                f"{e['op']}: 「{e.get('before', '')}」→「{e.get('after', '')}」"
            )
        warnings = list(rep.get("warnings") or [])
        cites = {c["id"]: c for c in rep["citations"]}
        for c in rep["citations"]:
            notes = by_cite.get(c["id"], [])
            row = _cite_row(name, text, c, notes)
            row["failing"] = c["item_trust"] < 1.0
            label = (c.get("resolved") or {}).get("label") or c["raw"]
            end = c["span"][1]
            stop = min(
                (j for j in (text.find(x, end) for x in "。\n") if j >= 0), default=len(text)
            )
            # a list's or sentence's one note (placed after its last member) covers it too
            covered = any(end <= e["span"][0] <= stop + 1 for e in all_edits)
            row["covered_by_sentence_note"] = covered and not notes
            lines = _lines_about(warnings, (c["raw"], label))
            said = [w for w in lines if not w.startswith(NOT_ASSESSED_PREFIX)]
            if notes or covered or said:
                flagged.append(row)
            elif lines:
                unassessed.append(row)
            elif not c.get("excluded"):
                silent.append(row)
        for e in all_edits:
            c = cites.get(e.get("citation_id") or "")
            edits.append(
                {
                    "draft": name,
                    "op": e["op"],
                    "before": e.get("before"),
                    "after": e.get("after"),
                    "reason": e.get("reason"),
                    "proof": e.get("proof"),
                    "context": _context(text, e["span"]),
                    "citation": c["raw"] if c else None,
                    "provision_text": ((c or {}).get("resolved") or {}).get("text"),
                }
            )
    return silent, flagged, edits, unassessed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--drafts", type=int, default=90)
    ap.add_argument("--n", type=int, default=150, help="citations per sample")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--citegov", default=shutil.which("citegov") or "citegov")
    ap.add_argument(
        "--as-of",
        default=None,
        help="YYYY-MM-DD the undated answers are read as of (reviewers judge the law of that day)",
    )
    ap.add_argument(
        "--keys",
        choices=("review", "tuning"),
        default="review",
        help="review: keys past the first 100 of each file (fresh review); "
        "tuning: the first 100 (where thresholds are fitted)",
    )
    ap.add_argument(
        "--tasks", default="3-8", help="comma-separated dev tasks to draw from, e.g. 3-8,3-2"
    )
    ap.add_argument(
        "--exclude",
        type=Path,
        action="append",
        default=[],
        metavar="DIR",
        help="an earlier review's --out folder: its drafts are not drawn again (repeatable)",
    )
    a = ap.parse_args(argv)
    try:
        exclude = reviewed_names(a.exclude)
    except FileNotFoundError as e:
        ap.error(str(e))
    inp = a.out / "in"
    inp.mkdir(parents=True, exist_ok=True)
    tasks = tuple(t.strip() for t in a.tasks.split(",") if t.strip())
    for name, text in pick_drafts(a.drafts, a.seed, a.keys, tasks, exclude):
        (inp / name).write_text(text, encoding="utf-8")
    gov = a.out / "governed"
    r = subprocess.run(
        [a.citegov, "revise", str(inp), "--strategy", "efa", "--out", str(gov)]
        + (["--as-of", a.as_of] if a.as_of else []),
        capture_output=True,
        text=True,
        check=False,
    )
    if r.returncode not in (0, 1):
        print(f"review_sample: revise exited {r.returncode}: {r.stderr[-400:]}", file=sys.stderr)
        return 2
    rng = random.Random(a.seed)
    silent, flagged, edits, unassessed = collect(inp, gov)
    for label, rows in zip(SAMPLES, (silent, flagged, edits, unassessed), strict=True):
        pick = rng.sample(rows, min(a.n, len(rows)))
        with (a.out / f"{label}.jsonl").open("w", encoding="utf-8") as fh:
            for i, row in enumerate(pick):
                fh.write(json.dumps({"i": i, **row}, ensure_ascii=False) + "\n")
        extra = f", {sum(r['failing'] for r in rows)} judged failing" if label == "silent" else ""
        print(f"{label}: {len(pick)} sampled of {len(rows)}{extra}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
