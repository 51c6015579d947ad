"""Coverage and support (LegalCiteTrust Cov/Sup): the pure formula and the offline judges' parts.

Layer 3, so that ``verify``/``revise`` (layers 7-8) and the ablation (``benchmarks``, layers
6-7) compute Cov and Sup the same way without an upward import (SPEC §1).

The formula (SPEC §4, after the LegalCiteTrust benchmark description), :func:`support_scores`:

* ``s_cov``      mean ``covered`` over the rubric items, in [0, 1];
* ``s_rubric``   mean ``backed`` over the rubric items, in [0, 1];
* ``s_subtopic`` share of subtopics whose section cites at least one authority, in [0, 1];
* ``s_sup``      ``0.5·s_rubric + 0.5·s_subtopic`` (independent of E/F/A), in [0, 1].

A mean over an empty set is 1.0, the vacuous value (the rule of
:data:`benchmarks.metrics.METRICS`); the counts beside it tell a vacuous 1.0 from a measured one.

Two judges feed it. With a task (rubric items, evidence points, subtopics) the ablation's
:class:`benchmarks.judging.CoverageJudge` decides. Without one — ``citegov verify`` and
``citegov revise`` on a plain draft — :func:`draft_support` takes **the draft as given as the
reference**:

* rubric items = the draft's cited claims: the distinct claims (citation text removed) of its
  citations, each with the quotations given as the provision's words (``Citation.quotes``);
  a citation inside the question line (``in_question``) is the asker's, not an item;
* ``covered`` = the lexical judge of the ablation (:func:`lexical_coverage`) on the output;
* ``backed`` = 1.0 when some citation of the output whose existence is not ``not_found`` is
  attached to the claim (its own claim or description holds :data:`FULL_COVERAGE` of the
  item's bigrams), else 0.0 — so a claim, or a quoted "statute" text, left in the text after
  its citation was removed is an unsupported claim (issue 13 item 5), and a fabricated
  authority backs nothing (as in the ablation's ``cited-authority`` judge);
* subtopics = the draft's sections (cut at heading lines, :data:`REPORT_HEADING_RE`; the whole
  text without headings) that cite at least one authority in the draft; the output's section
  under the same heading ``cites`` its citations whose existence is not ``not_found``.

On the draft itself (``verify``) Cov is 1.0 by construction — the draft covers its own claims —
and Sup says how much of what it claims carries an existing citation. After ``revise``, Cov
falls when claims were deleted and Sup falls when citations were removed while their claims
stay: trust cannot rise by deletion unseen. The thresholds are stated choices (shared with the
ablation judge), not fitted to any answers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

from pydantic import Field

from governor.core.config import DEFAULT_THRESHOLDS
from governor.core.models import Frozen, Span, Verdict
from governor.text.regexes import REPORT_HEADING_RE
from verifiers.textsim import containment, content_chars

FULL_COVERAGE: Final = DEFAULT_THRESHOLDS.coverage_full_coverage
"""Share of a rubric item's content bigrams a section must contain to cover it fully."""


class RubricJudgement(Frozen):
    """A judge's decision on one rubric item of one report (input to :func:`support_scores`).

    Attributes:
        item_id: The rubric item's id.
        covered: How much of the item the report covers, in [0, 1] (1.0 = fully).
        backed: Share of the item's evidence points backed by an authority the report cites,
            in [0, 1].
        judge: Name of the judge that decided (e.g. ``lexical+cited-authority``).
    """

    item_id: str = Field(min_length=1)
    covered: float = Field(ge=0.0, le=1.0)
    backed: float = Field(ge=0.0, le=1.0)
    judge: str = Field(min_length=1)


class SubtopicJudgement(Frozen):
    """How many authorities the report's section for one subtopic cites.

    Attributes:
        subtopic_id: The subtopic's id.
        cites: Number of citations in that section, >= 0.
        judge: What mapped sections to subtopics (e.g. ``headings``, ``llm:...``).
    """

    subtopic_id: str = Field(min_length=1)
    cites: int = Field(ge=0)
    judge: str = "offline"


class SupportScores(Frozen):
    """Cov and Sup of one report (module docstring).

    Attributes:
        s_cov, s_rubric, s_subtopic, s_sup: In [0, 1]; 1.0 over an empty set (vacuous).
        n_rubric: Rubric items (the denominator of ``s_cov`` and ``s_rubric``).
        n_subtopics: Subtopics (the denominator of ``s_subtopic``).
    """

    s_cov: float = Field(ge=0.0, le=1.0)
    s_rubric: float = Field(ge=0.0, le=1.0)
    s_subtopic: float = Field(ge=0.0, le=1.0)
    s_sup: float = Field(ge=0.0, le=1.0)
    n_rubric: int = Field(ge=0)
    n_subtopics: int = Field(ge=0)


def _mean(values: Sequence[float]) -> float:
    return math.fsum(values) / len(values) if values else 1.0


def support_scores(
    covered: Sequence[float], backed: Sequence[float], cited: Sequence[float]
) -> SupportScores:
    """The LegalCiteTrust Cov/Sup formula (SPEC §4) over judged values.

    Args:
        covered: Per rubric item, coverage in [0, 1].
        backed: Per rubric item (same order and length), backed share in [0, 1].
        cited: Per subtopic, 1.0 when its section cites an authority, else 0.0.

    Returns:
        :class:`SupportScores`; each mean over an empty sequence is 1.0 (vacuous).

    Raises:
        ValueError: ``covered`` and ``backed`` differ in length.
    """
    if len(covered) != len(backed):
        raise ValueError(
            f"{len(covered)} coverage and {len(backed)} support values: give one of each per item"
        )
    s_rubric = _mean(backed)
    s_subtopic = _mean(cited)
    return SupportScores(
        s_cov=_mean(covered),
        s_rubric=s_rubric,
        s_subtopic=s_subtopic,
        s_sup=0.5 * s_rubric + 0.5 * s_subtopic,
        n_rubric=len(covered),
        n_subtopics=len(cited),
    )


def lexical_coverage(item: str, section: str) -> float:
    """Coverage of one rubric item by a section: ``min(1, containment / FULL_COVERAGE)``.

    ``containment`` is the share of the item's character bigrams (after normalisation, function
    characters dropped; :func:`verifiers.textsim.containment`) found in ``section``.

    Returns:
        A value in [0, 1]; 0.0 for an item without content.
    """
    return min(1.0, containment(item, section) / FULL_COVERAGE)


def heading_sections(text: str) -> tuple[tuple[str, Span], ...]:
    """``text`` cut at heading lines: ``(heading words, span)`` per section, in order.

    The text before the first heading is a section with heading ``""``; a text without
    headings is one such section. Spans are half-open character offsets into ``text``.
    """
    heads = list(REPORT_HEADING_RE.finditer(text))
    out: list[tuple[str, Span]] = []
    first = heads[0].start() if heads else len(text)
    if first > 0 or not heads:
        out.append(("", Span(start=0, end=first)))
    for i, m in enumerate(heads):
        words = next(g for g in m.groups() if g).strip()
        end = heads[i + 1].start() if i + 1 < len(heads) else len(text)
        out.append((words, Span(start=m.start(), end=end)))
    return tuple(out)


def _section_of(sections: Sequence[tuple[str, Span]], pos: int) -> str | None:
    for words, span in sections:
        if span.start <= pos < span.end:
            return words
    return None


def _item_text(v: Verdict) -> str:
    c = v.citation
    claim = c.claim.replace(c.raw, "") if c.raw else c.claim
    extra = [
        q for q in c.quotes if content_chars(q) and content_chars(q) not in content_chars(claim)
    ]
    return "".join([claim, *extra]) or c.description


def _backs(v: Verdict, item: str) -> bool:
    c = v.citation
    return containment(item, f"{c.claim}{c.description}{''.join(c.quotes)}") >= FULL_COVERAGE


def draft_support(
    draft_text: str,
    draft_verdicts: Sequence[Verdict],
    text: str,
    verdicts: Sequence[Verdict],
) -> SupportScores:
    """Cov and Sup of ``text`` with the draft as the reference (module docstring).

    Args:
        draft_text: The draft as given.
        draft_verdicts: Verdicts on the draft's citations (spans index ``draft_text``).
        text: The text to score (the draft itself for ``verify``, the output for ``revise``).
        verdicts: Verdicts on ``text``'s citations (spans index ``text``).

    Returns:
        :class:`SupportScores`; ``n_rubric`` is the number of the draft's cited claims and
        ``n_subtopics`` the number of its sections citing an authority. A draft without a
        citation scores 1.0 (vacuous) on both with both counts 0.

    Source of the rule: SPEC §4 (LegalCiteTrust Cov/Sup) with the draft as rubric; issue 13
    item 5 (a quoted statute text whose citation was removed still counts as unsupported).
    """
    items: dict[str, str] = {}
    for v in draft_verdicts:
        if v.citation.in_question:
            continue
        item = _item_text(v)
        key = content_chars(item)
        if key:
            items.setdefault(key, item)
    existing = [
        v for v in verdicts if v.existence.label != "not_found" and not v.citation.in_question
    ]
    covered = [lexical_coverage(item, text) for item in items.values()]
    backed = [1.0 if any(_backs(v, item) for v in existing) else 0.0 for item in items.values()]
    draft_sections = heading_sections(draft_text)
    cited_sections = dict.fromkeys(
        w
        for v in draft_verdicts
        if not v.citation.in_question
        and (w := _section_of(draft_sections, v.citation.span.start)) is not None
    )
    out_sections = heading_sections(text)
    out_cites = {_section_of(out_sections, v.citation.span.start) for v in existing}
    cited = [1.0 if w in out_cites else 0.0 for w in cited_sections]
    return support_scores(covered, backed, cited)


__all__ = [
    "FULL_COVERAGE",
    "RubricJudgement",
    "SubtopicJudgement",
    "SupportScores",
    "draft_support",
    "heading_sections",
    "lexical_coverage",
    "support_scores",
]
