"""Quality of revision edits against a hand-judged gold set (issue 13 item 6; layer 6).

The gold set ``benchmarks/data/gold_edits.jsonl`` holds edits that ``efa`` made on real
LawBench dev answers (three models, tasks 3-2 and 3-8), each judged ``helpful`` / ``neutral``
/ ``harmful`` by a reviewer against the statute text and the question (one line of reason
naming the evidence). This benchmark reruns the pipeline on the gold drafts under each edit
policy, matches every edit to a gold row by :func:`match_key`, and reports per policy:

- helpful / neutral / harmful counts of matched edits, and **unjudged** edits (no gold row:
  new behaviour to be judged later; a sample is printed);
- annotations (edits that keep the draft's words and only add a note) accurate / false;
- the share of word-changing edits that are helpful;
- false 「未找到…法律依据」 notes (gold ``false_note``).

Policies are the values of ``Config.edit_policy`` (issue 13 item 1). A policy the config does
not accept is skipped with a message; ``aggressive`` is today's behaviour and runs on the
default config when the field does not exist yet.

Run: ``python -m benchmarks.bench_edits [--policies aggressive,proven,annotate]
[--gold FILE] [--out table.md] [--unjudged-out todo.jsonl]``; the unjudged edits written to
``todo.jsonl`` are gold rows with the verdict left empty: judge them, give each an ``id`` and
append them to the gold set. Shares are ``None`` (printed ``-``) when their denominator
is 0.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import date
from pathlib import Path
from typing import Any, Final, Literal

from pydantic import Field, ValidationError

from governor.core.errors import InputError, first_problem
from governor.core.models import Frozen
from governor.revision.ops import sentence_bounds
from governor.text.textio import atomic_write_text

GOLD_PATH: Final = Path(__file__).resolve().parent / "data" / "gold_edits.jsonl"
POLICIES: Final[tuple[str, ...]] = ("aggressive", "proven", "annotate")
TODAY_POLICY: Final = "aggressive"
"""The policy today's code implements (issue 13: today's behaviour stays as ``aggressive``)."""

Verdict = Literal["helpful", "neutral", "harmful"]

NO_BASIS_NOTE: Final = re.compile(r"未找到[^（）()]{0,30}法律依据")
"""The note 「未找到…法律依据」 whose truth issue 13 measures."""

NOTE: Final = re.compile(r"[（(]注[:：](?:[^（）()]|[（(][^（）()]{0,30}[）)])*[）)]")
"""A citegov note: 「（注：…）」 (full- or half-width brackets), with one level of brackets
inside (「可能应为《X》第八十九条第（一）项（置信度0.70）」)."""


class EditRecord(Frozen):
    """One edit the pipeline made on one draft, with the sentence it lands in.

    Attributes:
        draft_id: ``<model>_<task>_<index:03d>`` (:attr:`benchmarks.lawbench.LawBenchItem.id`).
        model / task / draft_index: the LawBench answer the draft is.
        round: governance round (1-based) the edit belongs to.
        op: the edit op (``EditOp``).
        before / after: the replaced text and its replacement (``before`` empty: insertion).
        sentence_before: the sentence of the round's input text holding the edit.
        sentence_after: that sentence with only this edit applied.
        reason: the edit's own reason.
        key: :func:`match_key` of the edit.
    """

    draft_id: str
    model: str
    task: str
    draft_index: int = Field(ge=0)
    round: int = Field(ge=1)
    op: str
    before: str
    after: str
    sentence_before: str
    sentence_after: str
    reason: str
    key: str


class GoldRow(EditRecord):
    """A judged edit.

    Attributes:
        id: unique row id (``g0001``...).
        policy: the policy that produced the edit when it was judged.
        verdict: ``helpful`` / ``neutral`` / ``harmful`` (reviewer's judgement against the
            statute text and the question).
        reviewer_reason: one line naming the statute evidence.
        false_note: for an edit adding 「未找到…法律依据」: True when a provision in the store
            supports the point (the note is false); None for other edits.
    """

    id: str
    policy: str = TODAY_POLICY
    verdict: Verdict
    reviewer_reason: str
    false_note: bool | None = None


# ------------------------------------------------------------------------------ keys


def normalize(text: str) -> str:
    """NFKC, without whitespace: the form keys are computed on (full/half-width agnostic)."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text))


def match_key(draft_id: str, op: str, sentence_before: str, before: str, after: str) -> str:
    """A key that identifies an edit across runs and small code changes.

    ``<draft_id>:<op>:<12 hex>``: the hash covers the normalized sentence the edit lands in,
    the replaced text and the replacement, so the same change to the same sentence of the
    same draft matches whatever its span offsets or round ordering; a changed replacement
    (another value, another note) does not match and is reported as unjudged.
    """
    digest = hashlib.sha1(
        "\x1f".join(normalize(x) for x in (sentence_before, before, after)).encode("utf-8")
    ).hexdigest()[:12]
    return f"{draft_id}:{op}:{digest}"


def is_annotation(op: str, before: str, after: str) -> bool:
    """True when the edit only adds notes 「（注：…）」 and keeps every word of the draft.

    The rule is about words, not op names: a ``mark_unsupported`` that also strips the
    citation, or a ``restore_proviso`` that adds a clause to the description, changes words
    and is not an annotation. ``op`` is accepted for callers that key on it; it is unused.
    """
    del op
    return bool(NOTE.search(after)) and normalize(NOTE.sub("", after)) == normalize(before)


def has_no_basis_note(after: str) -> bool:
    """True when the replacement adds a 「未找到…法律依据」 note."""
    return NO_BASIS_NOTE.search(after) is not None


# ------------------------------------------------------------------------------ collecting


def edit_records(
    draft_id: str, model: str, task: str, index: int, draft: str, rounds: Sequence[Any]
) -> list[EditRecord]:
    """The edits of a governed run as :class:`EditRecord` rows, in round order.

    Args:
        draft_id / model / task / index: the draft's identity.
        draft: the draft as governed.
        rounds: ``GovernanceResult.rounds`` (each has ``edits`` and the output ``text``).

    Duplicate keys within one draft (the same change twice in one sentence) get ``#2``,
    ``#3``... appended, so every record has its own key.
    """
    out: list[EditRecord] = []
    seen: Counter[str] = Counter()
    text = draft
    for rd in rounds:
        for e in rd.edits:
            s, t = sentence_bounds(text, e.span.start)
            s, t = min(s, e.span.start), max(t, e.span.end)
            sent = text[s:t]
            sent_after = text[s : e.span.start] + e.after + text[e.span.end : t]
            key = match_key(draft_id, e.op, sent, e.before, e.after)
            seen[key] += 1
            if seen[key] > 1:
                key = f"{key}#{seen[key]}"
            out.append(
                EditRecord(
                    draft_id=draft_id,
                    model=model,
                    task=task,
                    draft_index=index,
                    round=rd.round,
                    op=e.op,
                    before=e.before,
                    after=e.after,
                    sentence_before=sent,
                    sentence_after=sent_after,
                    reason=e.reason,
                    key=key,
                )
            )
        text = rd.text
    return out


GovernFn = Callable[[str, date, str], Sequence[Any]]
"""``govern(draft, as_of, question) -> rounds`` under one policy."""


def policy_governor(policy: str) -> GovernFn | str:
    """A govern function for ``policy``, or the reason it is not available (a message).

    The policy is passed as the config field ``edit_policy``; a config without that field
    (before issue 13 item 1) runs ``aggressive`` as today's behaviour and rejects the others.
    """
    from governor.api import Governor
    from governor.core.config import Config, load_config
    from governor.core.errors import ConfigError

    if "edit_policy" not in Config.model_fields:
        if policy != TODAY_POLICY:
            return f"policy {policy!r} is not implemented (Config has no edit_policy field)"
        cfg = load_config(environ={})
    else:
        try:
            cfg = load_config(overrides={"edit_policy": policy}, environ={})
        except ConfigError as exc:
            return f"policy {policy!r} is not implemented ({exc})"
    gov = Governor(cfg)

    def run(draft: str, as_of: date, question: str) -> Sequence[Any]:
        return gov.govern(draft, strategy="efa", as_of=as_of, context=question).rounds

    return run


def collect(items: Iterable[Any], govern: GovernFn, as_of: date) -> list[EditRecord]:
    """Govern every LawBench item (``draft_text``) and return all edits as records."""
    from benchmarks.lawbench import draft_text

    out: list[EditRecord] = []
    for it in items:
        draft = draft_text(it)
        out += edit_records(
            it.id, it.model, it.task, it.index, draft, govern(draft, as_of, it.question)
        )
    return out


# ------------------------------------------------------------------------------ gold files


def load_gold(path: Path) -> tuple[GoldRow, ...]:
    """Read the gold set (JSONL, one :class:`GoldRow` a line; blank lines skipped).

    Raises:
        InputError: unreadable file, an invalid row (line number given) or a duplicate key.
    """
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"gold set {path} cannot be read ({exc}); pass a JSONL file") from None
    rows: list[GoldRow] = []
    keys: set[str] = set()
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = GoldRow.model_validate_json(line)
        except ValidationError as exc:
            loc, msg = first_problem(exc)
            raise InputError(
                f"{path}:{n}: not a gold edit ({loc}: {msg}); see benchmarks/data/README.md"
            ) from None
        if row.key in keys:
            raise InputError(f"{path}:{n}: duplicate key {row.key}; keep one row per edit")
        keys.add(row.key)
        rows.append(row)
    return tuple(rows)


def write_gold(rows: Iterable[GoldRow], path: Path) -> int:
    """Write gold rows as JSONL atomically; returns the number written."""
    lines = []
    for r in rows:
        d = r.model_dump(mode="json")
        lines.append(json.dumps({"id": d.pop("id"), **d}, ensure_ascii=False))
    atomic_write_text(path, "".join(line + "\n" for line in lines))
    return len(lines)


# ------------------------------------------------------------------------------ scoring


class PolicyScore(Frozen):
    """Edit quality of one policy on the gold drafts.

    Counts are edits; shares are in [0, 1] or ``None`` when their denominator is 0.
    ``word_changing_helpful`` = helpful / judged word-changing edits; ``harmful_share`` =
    harmful / judged edits; ``false_notes`` of ``no_basis_notes`` judged 「未找到…法律依据」
    notes are false.
    """

    policy: str
    edits: int
    helpful: int
    neutral: int
    harmful: int
    unjudged: int
    annotations_accurate: int
    annotations_false: int
    word_changing: int
    word_changing_helpful: float | None
    harmful_share: float | None
    no_basis_notes: int
    false_notes: int
    per_op: tuple[tuple[str, int, int, int, int], ...] = ()
    """``(op, helpful, neutral, harmful, unjudged)`` per op, sorted by op."""
    unjudged_sample: tuple[str, ...] = ()


def _ratio(num: int, den: int) -> float | None:
    return None if den == 0 else num / den


def score(
    policy: str,
    edits: Sequence[EditRecord],
    gold: Mapping[str, GoldRow],
    *,
    sample: int = 5,
) -> PolicyScore:
    """Match ``edits`` to ``gold`` (by key) and count verdicts.

    Args:
        policy: the policy's name (for the report).
        edits: the edits the policy made on the gold drafts.
        gold: gold rows by :attr:`GoldRow.key`.
        sample: how many unjudged edits to keep for printing.

    Returns:
        The :class:`PolicyScore`; an edit without a gold row counts as unjudged, never as a
        pass.
    """
    verdicts: Counter[str] = Counter()
    per_op: dict[str, Counter[str]] = defaultdict(Counter)
    ann_ok = ann_false = word = word_helpful = notes = false_notes = 0
    unjudged: list[str] = []
    for e in edits:
        row = gold.get(e.key)
        v = row.verdict if row is not None else "unjudged"
        verdicts[v] += 1
        per_op[e.op][v] += 1
        if row is None:
            if len(unjudged) < sample:
                unjudged.append(f"{e.draft_id} {e.op}: {e.before!r} → {e.after!r}")
            continue
        if is_annotation(e.op, e.before, e.after):
            ann_ok += v != "harmful"
            ann_false += v == "harmful"
        else:
            word += 1
            word_helpful += v == "helpful"
        if has_no_basis_note(e.after):
            notes += 1
            false_notes += bool(row.false_note)
    judged = verdicts["helpful"] + verdicts["neutral"] + verdicts["harmful"]
    return PolicyScore(
        policy=policy,
        edits=len(edits),
        helpful=verdicts["helpful"],
        neutral=verdicts["neutral"],
        harmful=verdicts["harmful"],
        unjudged=verdicts["unjudged"],
        annotations_accurate=ann_ok,
        annotations_false=ann_false,
        word_changing=word,
        word_changing_helpful=_ratio(word_helpful, word),
        harmful_share=_ratio(verdicts["harmful"], judged),
        no_basis_notes=notes,
        false_notes=false_notes,
        per_op=tuple(
            (op, c["helpful"], c["neutral"], c["harmful"], c["unjudged"])
            for op, c in sorted(per_op.items())
        ),
        unjudged_sample=tuple(unjudged),
    )


def _f(x: float | None) -> str:
    return "-" if x is None else f"{x:.1%}"


def markdown(scores: Sequence[PolicyScore], skipped: Mapping[str, str]) -> str:
    """The report as markdown: one summary row per policy, then edits per op and policy."""
    lines = [
        "| policy | edits | helpful | neutral | harmful | harmful % | unjudged | "
        "annotations accurate / false | word-changing | word-changing helpful | "
        "false 「未找到…法律依据」 / notes |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for s in scores:
        lines.append(
            f"| {s.policy} | {s.edits} | {s.helpful} | {s.neutral} | {s.harmful} | "
            f"{_f(s.harmful_share)} | {s.unjudged} | {s.annotations_accurate} / "
            f"{s.annotations_false} | {s.word_changing} | {_f(s.word_changing_helpful)} | "
            f"{s.false_notes} / {s.no_basis_notes} |"
        )
    for name, why in skipped.items():
        lines.append(f"| {name} | skipped: {why} |" + " |" * 9)
    lines += [
        "",
        "| policy | op | helpful | neutral | harmful | unjudged |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for s in scores:
        for op, h, n, b, u in s.per_op:
            lines.append(f"| {s.policy} | {op} | {h} | {n} | {b} | {u} |")
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------------ main


def gold_items(gold: Sequence[GoldRow], lawbench: Path) -> list[Any]:
    """The LawBench items the gold rows were judged on (each draft once, in file order).

    Raises:
        InputError: a gold draft is not in the LawBench folder.
    """
    from benchmarks.lawbench import load_file

    wanted = {(r.model, r.task, r.draft_index) for r in gold}
    out = []
    for model, task in sorted({(m, t) for m, t, _ in wanted}):
        path = lawbench / f"{model}_zero_shot_{task}.json"
        if not path.is_file():
            raise InputError(f"{path} not found; pass --lawbench with the LawBench dev folder")
        out += [it for it in load_file(path) if (model, task, it.index) in wanted]
    return out


def unjudged_rows(
    policy: str, edits: Sequence[EditRecord], gold: Mapping[str, GoldRow]
) -> list[dict[str, Any]]:
    """The edits no gold row matches, as gold-row drafts to judge: every :class:`GoldRow`
    field, with ``policy`` set, ``verdict`` and ``false_note`` null and ``reviewer_reason``
    empty (so the file is rejected by :func:`load_gold` until a reviewer fills them in)."""
    rows = []
    for e in edits:
        if e.key in gold:
            continue
        rows.append(
            {
                "id": "",
                **e.model_dump(mode="json"),
                "policy": policy,
                "verdict": None,
                "reviewer_reason": "",
                "false_note": None,
            }
        )
    return rows


def run(
    policies: Sequence[str], gold_path: Path, lawbench: Path
) -> tuple[list[PolicyScore], dict[str, str], list[dict[str, Any]]]:
    """Score every available policy on the gold drafts.

    Returns:
        The scores, the skipped policies with the reason, and the unjudged edits of every
        policy as rows to judge (:func:`unjudged_rows`).
    """
    from benchmarks.lawbench import LAWBENCH_AS_OF

    gold = load_gold(gold_path)
    by_key = {r.key: r for r in gold}
    items = gold_items(gold, lawbench)
    scores: list[PolicyScore] = []
    skipped: dict[str, str] = {}
    todo: list[dict[str, Any]] = []
    for p in policies:
        gov = policy_governor(p)
        if isinstance(gov, str):
            skipped[p] = gov
            continue
        edits = collect(items, gov, LAWBENCH_AS_OF)
        scores.append(score(p, edits, by_key))
        todo += unjudged_rows(p, edits, by_key)
    return scores, skipped, todo


def main(argv: Sequence[str] | None = None) -> int:
    """Command line; returns the exit code (2 on bad input)."""
    from benchmarks.datadir import data_path

    ap = argparse.ArgumentParser(
        prog="python -m benchmarks.bench_edits", description=__doc__.split("\n")[0]
    )
    ap.add_argument("--policies", default=",".join(POLICIES), help="comma-separated policies")
    ap.add_argument("--gold", type=Path, default=GOLD_PATH, help="gold set (JSONL)")
    ap.add_argument("--lawbench", type=Path, default=None, help="LawBench dev folder")
    ap.add_argument("--out", type=Path, default=None, help="also write the markdown table here")
    ap.add_argument(
        "--unjudged-out",
        type=Path,
        default=None,
        help="write the unjudged edits here (JSONL, gold rows with verdict left empty)",
    )
    args = ap.parse_args(argv)
    policies = [p.strip() for p in args.policies.split(",") if p.strip()]
    unknown = [p for p in policies if p not in POLICIES]
    if unknown or not policies:
        print(f"unknown policy {unknown}; use some of: {', '.join(POLICIES)}", file=sys.stderr)
        return 2
    try:
        scores, skipped, todo = run(policies, args.gold, args.lawbench or data_path("lawbench_dev"))
    except InputError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    for p, why in skipped.items():
        print(f"skipped {p}: {why}", file=sys.stderr)
    table = markdown(scores, skipped)
    print(table)
    for s in scores:
        if s.unjudged:
            print(
                f"{s.policy}: {s.unjudged} unjudged edits (judge them into the gold set); sample:"
            )
            for line in s.unjudged_sample:
                print(f"  {line}")
    if args.out is not None:
        atomic_write_text(args.out, table)
    if args.unjudged_out is not None:
        atomic_write_text(
            args.unjudged_out,
            "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in todo),
        )
        print(f"wrote {len(todo)} unjudged edits to {args.unjudged_out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
