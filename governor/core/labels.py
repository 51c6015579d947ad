"""Label → score rules and trust aggregation (SPEC §3; LegalCiteTrust item trust = E·F·A).

Layer 0: pure functions over labels and verdicts, no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Final

from governor.core.models import Axis, Citation, Edit, Frozen, ReportScore, Revision, Verdict

EXISTENCE_SCORES: Final[Mapping[str, float | None]] = {
    "exists": 1.0,
    "partial": 0.5,  # instrument + article resolve, cited 款/项 does not
    "repealed": 0.5,  # resolves, but not in force on the as-of date
    "not_found": 0.0,
    "unverifiable": None,  # excluded by default; 0.5 under the strict policy
    "unknown": 0.0,
}
FIDELITY_SCORES: Final[Mapping[str, float | None]] = {
    "faithful": 1.0,
    "partially_faithful": 0.5,
    "misdescribed": 0.0,
    "not_assessed": None,  # NA: counts 1.0 in trust
    "unknown": 0.0,
}
APPLICABILITY_SCORES: Final[Mapping[str, float | None]] = {
    "supports": 1.0,
    "partially_supports": 0.5,
    "overextended": 0.5,
    "contradicts": 0.0,
    "irrelevant": 0.0,
    "skipped": None,  # NA: counts 1.0 in trust
    "unknown": 0.0,
}
SCORES: Final[Mapping[Axis, Mapping[str, float | None]]] = {
    "existence": EXISTENCE_SCORES,
    "fidelity": FIDELITY_SCORES,
    "applicability": APPLICABILITY_SCORES,
}
STRICT_UNVERIFIABLE_SCORE: Final = 0.5


def score_for(axis: Axis, label: str, *, strict: bool = False) -> float | None:
    """Score in [0, 1] for ``label`` on ``axis``; ``None`` for NA/excluded labels.

    An unrecognised label scores 0.0, never a pass (SPEC §3: an unparseable judge answer is
    ``unknown``). Under ``strict``, existence ``unverifiable`` scores 0.5 instead of being
    excluded.
    """
    if strict and axis == "existence" and label == "unverifiable":
        return STRICT_UNVERIFIABLE_SCORE
    table = SCORES[axis]
    if label not in table:
        return 0.0
    return table[label]


def judged_failing(v: Verdict) -> bool:
    """A verdict the reader must hear about (issue 21 item 3): the citation does not exist or
    is repealed, its description is ``misdescribed``, or its provision is ``irrelevant`` to or
    ``contradicts`` the claim (partial labels — ``partially_faithful``,
    ``partially_supports``, ``overextended`` — are qualified passes with their own repairs).
    Excluded citations never fail."""
    return not v.excluded and (
        v.existence.label in ("not_found", "repealed")
        or v.fidelity.label == "misdescribed"
        or v.applicability.label in ("irrelevant", "contradicts")
    )


NAMED_NEAR: Final = 400
"""A note names a list member (「经核查，《著作权法》第二十三条、第二十四条与上述内容未见直接
关联」) only within this many characters after it: the note follows the list it is about."""


def told_by_edits(v: Verdict, rounds: Sequence[Revision]) -> bool:
    """Whether an edit of the run tells the reader about ``v``'s citation (a verdict on the
    draft as given): an edit carrying its id, a first-round edit over its span (ids are
    span-based, so a later round's edit names the citation by its new id only when nothing
    before it moved), or a first-round citegov note inserted after it (within
    :data:`NAMED_NEAR` characters) that names its article (「第二十三条」, a list's one note
    naming its failing members)."""
    from governor.text.numerals import article_label

    c = v.citation
    label = article_label(c.article) if c.article else ""
    for r in rounds:
        for e in r.edits:
            if e.citation_id == c.id:
                return True
            if r.round != 1:
                continue
            if e.span.start < c.span.end and c.span.start < e.span.end:
                return True
            if (
                label
                and "（注：" in e.after
                and 0 <= e.span.start - c.span.end <= NAMED_NEAR
                and re.search(re.escape(label) + r"(?![之一二三四五六七八九十])", e.after)
            ):
                return True
    return False


def unsaid_line(v: Verdict) -> str:
    """The report line for a citation that does not pass and that the output text says nothing
    about: which one, its labels and the judge's reason (no safe wording for a note in the
    text was found, or the citation stands where a note cannot go: a quotation, a table row,
    a list of citations)."""
    why = next(
        (
            c.rationale
            for c in (v.existence, v.fidelity, v.applicability)
            if c.rationale and (c.score is not None and c.score < 1.0)
        ),
        "",
    )
    return (
        f"judged failing, left unchanged (no safe wording for a note): {v.citation.raw} "
        f"[E {v.existence.label} / F {v.fidelity.label} / A {v.applicability.label}]"
        f"{': ' + why[:160] if why else ''}"
    )


def is_excluded(existence_label: str, *, strict: bool = False) -> bool:
    """True when the citation leaves the trust denominator (unverifiable, non-strict)."""
    return existence_label == "unverifiable" and not strict


def item_trust(e: float | None, f: float | None, a: float | None) -> float:
    """E × F × A with NA (None) counted as 1.0; E = 0 forces 0 (F and A not judged).

    ``e`` None means the item is excluded; callers should not aggregate it, and it returns 1.0.
    """
    if e is not None and e == 0.0:
        return 0.0
    out = 1.0
    for s in (e, f, a):
        out *= 1.0 if s is None else s
    return out


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def report_score(verdicts: Iterable[Verdict]) -> ReportScore:
    """Aggregate verdicts of one report into a :class:`ReportScore` (SPEC §3).

    ``trust`` is the mean ``item_trust`` over non-excluded citations, 1.0 when there are
    none; E/F/A are micro means over included citations where the axis was scored (NA
    skipped). ``all_pass`` holds only when at least one citation was verified, every
    included citation has trust 1.0 and none of the report's citations was left unchecked
    (issue 23: nothing checked is not a pass; an ``unverifiable`` citation makes it false, a
    draft with no citation, or whose citations were all removed, is never all-pass).
    ``n_verified`` counts the included citations, ``n_checkable`` those of the report (the
    question line's citations are the asker's and count in neither).
    """
    vs = list(verdicts)
    inc = [v for v in vs if not v.excluded]
    own = [v for v in vs if not v.citation.in_question]
    trust = _mean([v.item_trust for v in inc])
    return ReportScore(
        trust=1.0 if trust is None else trust,
        n_cite=len(vs),
        n_excluded=len(vs) - len(inc),
        n_verified=len(inc),
        n_checkable=len(own),
        all_pass=bool(inc) and len(inc) == len(own) and all(v.item_trust >= 1.0 for v in inc),
        existence=_mean([v.existence.score for v in inc if v.existence.score is not None]),
        fidelity=_mean([v.fidelity.score for v in inc if v.fidelity.score is not None]),
        applicability=_mean(
            [v.applicability.score for v in inc if v.applicability.score is not None]
        ),
    )


STOP_PHRASES: dict[str, tuple[str, str]] = {
    "strategy_none": ("verified only (strategy none)", "仅核验，未修订"),
    "all_pass": ("every citation was verified and passes", "全部引用均已核验并通过"),
    "unchecked_left": (
        "the verified citations pass; the others could not be checked",
        "已核验的引用均通过，其余引用无法核验",
    ),
    "no_citations": ("no citation to check", "没有可核验的引用"),
    "no_change": ("nothing left to fix", "没有可再修正之处"),
    "max_rounds": ("round limit reached", "已达修订轮数上限"),
    "regenerate_unavailable": ("the writer cannot regenerate", "生成器不支持按反馈重写"),
    "interrupted": ("interrupted", "已中断"),
}
"""Why a governance loop stopped, as a reader says it (English, Chinese), by the
``stop_reason`` codes of :data:`graphs.state.StopReason` (the JSON keeps the codes)."""


def stop_phrase(reason: str | None, *, lang: str = "en") -> str:
    """The reader's words for a ``stop_reason`` code ("" for None; an unknown code as is).

    Args:
        reason: a ``stop_reason`` code (``no_change`` …) or None.
        lang: ``"zh"`` for Chinese, else English.
    """
    if not reason:
        return ""
    words = STOP_PHRASES.get(reason)
    if words is None:
        return reason
    return words[1] if lang == "zh" else words[0]


WHOLE_PIN_MARK: Final = "the article holds the claim's words"
"""In the applicability rationale of a law cited whole for a numberless rule (issue 21,
``verifiers.roles``): the pin was named at ``Thresholds.whole_pin_containment``, so the
revision policy may tell the reader (「（注：该说法见《X》第N条）」, ``policy.pin_note``)."""


WHOLE_FIGURE_MARK: Final = "its 款/项 states the claim's figure"
"""In the (``skipped``) applicability rationale of a law cited whole for a rule with numbers
no retrieved article states in full, when one article's 款/项 states them (``verifiers.roles``,
issue 22): the revision policy names it 「（注：该说法可能应为《X》第N条第（K）项，请核实）」
(``policy.pin_note``), never 「中未见上述规定」."""


POINT_LAW_MARK: Final = "the wrong law for the point"
"""In the (``irrelevant``) applicability rationale of a law cited whole for a matter none of
its articles names, another instrument's article holding it (``verifiers.point_law``, issue
21): the revision policy says 「经核查，《X》中未见上述规定」 and names that article when one alone
holds the point."""


CHARGE_DEFINED_MARK: Final = "defines the charge"
"""In the applicability rationale of a 刑法 分则 article cited for the charge it defines
(``verifiers.conditions.charge_rule``): the article holds the report's consequence 「构成X罪」,
so the policy never says 「该条文并无上述内容」 of a rule-paraphrase ending in it (「父母遗弃年幼的
子女，情节恶劣的，构成遗弃罪」 for 刑法第二百六十一条: its conditions are paraphrased, the charge is
the article's; the note says the wording differs instead)."""

REPEAT_OF_MISDESCRIBED: Final = "whose words there are not the provision's content"
"""In the applicability rationale of a citation with no words of its own that repeats a
mention whose description is another provision's content or shares little with this one's
(``verifiers.verify.bare_repeats``): the policy tells the reader so (「经核查，上文对该条文的表述
与其内容不一致」)."""


REMOVING_OPS: Final = frozenset({"remove_citation", "mark_unsupported"})
"""Ops that take the citation out of the text (``governor.revision.ops.remove``: the carrier
goes; ``mark_unsupported`` also adds a 「（注：…）」 mark to the claim that stays)."""
ANNOTATION_OPS: Final = frozenset(
    {"annotate", "mark_unsupported", "mark_stale", "mark_overreach", "mark_misdescribed"}
)
"""Ops whose added words are a 「（注：…）」 note or mark (``governor.revision.ops`` MARKS,
``governor.revision.strategies._note_at``); the cited words themselves stay or go per op."""
RETARGET_OPS: Final = frozenset(
    {
        "renumber", "fix_granularity", "fix_number", "restore_proviso", "replace_repealed",
        "reanchor", "rewrite_description", "revert", "unquote",
    }
)  # fmt: skip
"""Ops that keep a citation in place, pointed at the same or another provision (a repealed
law's successor, the matching article), or change only the words around it: never a removal."""
_PIN = re.compile(r"《[^》]{2,}》|第[0-9０-９零〇一二三四五六七八九十百千]+条|\(\d{4}\)|（\d{4}）")
_NOTE = "（注："
_NON_CONTENT = re.compile(r"[\W_]+")


class DeletionCounts(Frozen):
    """What revision did to the draft's citations (issue 13 item 5: scores not gamed by deletion).

    Attributes:
        kept: Citations of the draft still cited in the output (``n_draft - removed``).
        removed: Citations of the draft taken out of the text by an edit.
        annotations: Edits that add a 「（注：…）」 note or mark (:data:`ANNOTATION_OPS`, or any
            other edit whose only change is inserting such a note).
        orphan_claims: Removed citations whose claim, or a quotation “…” given as the
            provision's words, is still in the output: an unsupported claim left standing.
    """

    kept: int = 0
    removed: int = 0
    annotations: int = 0
    orphan_claims: int = 0


def _content(s: str) -> str:
    return _NON_CONTENT.sub("", s)


def _still_cited(c: Citation, after: str) -> bool:
    """Whether ``after`` still names the authority ``c`` cites (its words, instrument or number)."""
    names = (c.raw, c.instrument_as_written, c.instrument, c.case_number, c.document_number)
    return any(n and _content(n) and _content(n) in _content(after) for n in names)


def _is_note_only(ed: Edit) -> bool:
    """An edit whose ``after`` is ``before`` with a 「（注：…）」 note inserted."""
    if _NOTE not in ed.after or _NOTE in ed.before:
        return False
    i = ed.after.index(_NOTE)
    j = ed.after.find("）", i)
    if j < 0:
        return False
    return ed.after[:i] + ed.after[j + 1 :] == ed.before


def _removes(ed: Edit, c: Citation) -> bool:
    if ed.op in REMOVING_OPS:
        return True
    if ed.op in ANNOTATION_OPS or ed.op in RETARGET_OPS:
        return False
    # Free rewrites (llm_rewrite, regenerate): removed when the new words cite nothing for it.
    return c.raw in ed.before and not _still_cited(c, ed.after) and not _PIN.search(ed.after)


def _orphan(c: Citation, text: str) -> bool:
    body = _content(text)
    if any(q and _content(q) and _content(q) in body for q in c.quotes):
        return True
    claim = _content(c.claim.replace(c.raw, ""))
    return bool(claim) and claim in body


def deletion_counts(
    initial: Sequence[Verdict],
    edits: Sequence[Edit],
    text: str,
    *,
    rounds: Sequence[Sequence[Verdict]] = (),
) -> DeletionCounts:
    """Count citations kept / removed, annotations and orphan claims of one governed draft.

    Args:
        initial: Verdicts on the draft as given (one per extracted citation).
        edits: Every applied edit, all rounds, in order (``Edit.citation_id`` names the citation
            of the text the edit's round started from; ``None`` for a whole-text edit).
        text: The output text.
        rounds: Verdicts on each round's output, so later rounds' ``citation_id`` resolve;
            a citation first seen in a later round that is removed is not a draft citation
            and does not count.

    Returns:
        :class:`DeletionCounts`; with no edits ``kept == len(initial)`` and the rest 0.
        Whitespace and punctuation are ignored when looking for a claim in ``text``.

    Source of the rule: issue 13 item 5 — a quoted statute text whose citation was removed
    still counts as an unsupported claim.
    """
    draft = {v.citation.id: v.citation for v in initial}
    known = dict(draft)
    for vs in rounds:
        for v in vs:
            known.setdefault(v.citation.id, v.citation)
    removed: dict[str, Citation] = {}
    annotations = 0
    for ed in edits:
        if ed.op in ANNOTATION_OPS or _is_note_only(ed):
            annotations += 1
        if ed.citation_id is not None:
            cands = [known[ed.citation_id]] if ed.citation_id in known else []
        else:
            cands = [c for c in draft.values() if c.raw in ed.before]
        for c in cands:
            if c.id in draft and c.id not in removed and _removes(ed, c):
                removed[c.id] = c
    orphans = sum(_orphan(c, text) for c in removed.values())
    return DeletionCounts(
        kept=len(draft) - len(removed),
        removed=len(removed),
        annotations=annotations,
        orphan_claims=orphans,
    )


def governed_score(
    initial: Sequence[Verdict],
    final: Sequence[Verdict],
    edits: Sequence[Edit],
    text: str,
    *,
    rounds: Sequence[Sequence[Verdict]] = (),
) -> ReportScore:
    """:func:`report_score` of a governed text's ``final`` verdicts, with ``all_pass`` false
    while a removed citation's claim still stands in ``text`` (:func:`deletion_counts`
    ``orphan_claims`` > 0).

    Existence filtering that strips 「根据《劳动合同法》第一百二十条，」 and keeps the invented
    rule after it leaves only passing citations, yet the report now states a rule with no
    authority: all-pass ("every rubric item covered and every citation E = F = A = 1", SPEC §3)
    does not hold. Arguments as :func:`deletion_counts`; ``final`` the verdicts on ``text``.
    """
    s = report_score(final)
    if s.all_pass and edits and deletion_counts(initial, edits, text, rounds=rounds).orphan_claims:
        return s.model_copy(update={"all_pass": False})
    return s
