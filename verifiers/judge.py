"""The judge port for Fidelity and Applicability, and its data types (layer 3).

A judge receives a batch of :class:`JudgeItem` (a citation whose existence is established,
with the resolved source text) and returns one :class:`JudgeOutcome` per item. The offline
judge (``verifiers.offline``) is deterministic; the LLM judge (``verifiers.llm_judge``) calls an
OpenAI-compatible model. Both are injected (STYLE 4).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Protocol

from governor.core.labels import score_for
from governor.core.models import (
    Authority,
    Axis,
    CheckResult,
    Citation,
    Evidence,
    Suggestion,
    TaxonomyCode,
)
from governor.core.records import ArticleRecord


@dataclass(frozen=True)
class JudgeItem:
    """One citation to judge.

    Attributes:
        citation: the citation as extracted.
        authority: the resolved provision (the cited 款/项 when it exists, else the article).
        record: the resolved article record (None for cases/document numbers).
        context: the task query or surrounding paragraph (used when the claim is empty).
        as_of: the report's as-of date (selects versions for suggestions).
        siblings: descriptions shared with other citations of the same list (their texts are
            concatenated before judging fidelity, so a list is judged as a whole).
    """

    citation: Citation
    authority: Authority
    record: ArticleRecord | None
    context: str = ""
    as_of: date | None = None
    sibling_texts: tuple[str, ...] = ()


@dataclass(frozen=True)
class AxisOutcome:
    """A check result with the taxonomy codes it implies and an optional better authority."""

    result: CheckResult
    codes: tuple[TaxonomyCode, ...] = ()
    suggestion: Suggestion | None = None


@dataclass(frozen=True)
class JudgeOutcome:
    """Fidelity and applicability outcomes of one item."""

    fidelity: AxisOutcome
    applicability: AxisOutcome


class Judge(Protocol):
    """Judges fidelity and applicability of a batch of items; ``name`` is recorded in verdicts."""

    name: str

    def judge(self, items: Sequence[JudgeItem]) -> list[JudgeOutcome]: ...


def judge_all(judge: Judge, docs: Sequence[Sequence[JudgeItem]]) -> list[list[JudgeOutcome]]:
    """Outcomes for the items of several documents: through the judge's ``judge_many`` when it
    has one (the LLM judge batches across documents), else ``judge`` per document (documents
    without items are not sent).

    Returns:
        per document, one outcome per item, in order.
    """
    many = getattr(judge, "judge_many", None)
    if many is not None and sum(1 for d in docs if d) > 1:
        return [list(o) for o in many(docs)]
    return [list(judge.judge(d)) if d else [] for d in docs]


def outcome(
    axis: Axis,
    label: str,
    rationale: str,
    *,
    codes: tuple[TaxonomyCode, ...] = (),
    evidence: tuple[Evidence, ...] = (),
    suggestion: Suggestion | None = None,
) -> AxisOutcome:
    """An :class:`AxisOutcome` whose score follows ``label`` by the SPEC §3 table."""
    return AxisOutcome(
        CheckResult(
            axis=axis,
            label=label,
            score=score_for(axis, label),
            rationale=rationale,
            evidence=evidence,
        ),
        codes=codes,
        suggestion=suggestion,
    )
