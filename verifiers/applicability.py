"""Applicability (A), offline: does the provision support the claim it is attached to?

Labels (SPEC §3): ``supports`` 1.0 · ``partially_supports`` 0.5 · ``overextended`` 0.5 (used
for a broader or stronger claim than the text allows) · ``contradicts`` 0.0 · ``irrelevant``
0.0 · ``skipped`` NA (no claim to judge).

Method: the claim (else the description, else the task context) is used as a retrieval query
within the cited instrument. The cited provision's relevance is the share of the claim's
content bigrams it contains, boosted when retrieval ranks it near the top. If a different
provision fits the claim clearly better it becomes the suggestion (L1.1.2); a claim that
generalises (一律/所有/任何/均) over a provision restricted by scope words (仅/限于/但书/下列情形)
is ``overextended``; a claim whose modality contradicts the provision on the same predicate
is ``contradicts``.
"""

from __future__ import annotations

import re

from governor.authorities import AuthorityStore
from governor.config import Thresholds
from governor.labels import score_for
from governor.models import CheckResult, Evidence, Suggestion, TaxonomyCode
from governor.ports import Retriever
from verifiers.facts import modality_flips
from verifiers.judge import AxisOutcome, JudgeItem
from verifiers.suggest import better_provision
from verifiers.textsim import containment

_UNIVERSAL = re.compile(r"一律|所有|任何|一切|均可|都可以|都应当|必然|无论|凡是|全部")
_SCOPE = re.compile(r"仅|限于|但是|但|除外|不在此限|下列情形|之一的|符合.{0,12}条件")
TOP_RANK = 3
"""A cited provision that retrieval ranks in the top ``TOP_RANK`` for the claim supports it."""


def _out(
    label: str,
    rationale: str,
    *,
    codes: tuple[TaxonomyCode, ...] = (),
    evidence: tuple[Evidence, ...] = (),
    suggestion: Suggestion | None = None,
) -> AxisOutcome:
    return AxisOutcome(
        CheckResult(
            axis="applicability",
            label=label,
            score=score_for("applicability", label),
            rationale=rationale,
            evidence=evidence,
        ),
        codes=codes,
        suggestion=suggestion,
    )


def claim_text(item: JudgeItem) -> str:
    """The proposition to judge: the claim, else the description, else the task context."""
    cit = item.citation
    for text in (cit.claim, cit.description, item.context):
        if text and len(text.strip()) >= 4:
            return text.strip()
    return ""


def check_applicability(
    item: JudgeItem, retriever: Retriever, store: AuthorityStore, th: Thresholds
) -> AxisOutcome:
    """Judge applicability of one item offline (method in the module docstring).

    Args:
        item: the citation with its resolved provision.
        retriever: searches the cited instrument for the provisions that best fit the claim.
        store: turns a better provision into an :class:`Authority` suggestion.
        th: ``applicability_min_relevance``, ``applicability_partial_relevance`` and
            ``suggestion_min_score``.
    """
    claim = claim_text(item)
    if not claim:
        return _out("skipped", "no claim attached to the citation")
    rec = item.record
    source = rec.text if rec is not None else item.authority.text
    if not source:
        return _out("skipped", "no source text to compare with")
    query = claim if claim == item.context or not item.context else f"{claim} {item.context}"
    rel = containment(claim, source)
    rank = None
    if rec is not None:
        hits = retriever.search(query, instrument=rec.instrument, as_of=item.as_of, k=10)
        for i, (cand, _) in enumerate(hits):
            if cand.article == rec.article:
                rank = i
                break

    flips = modality_flips(claim, source)
    if flips and rel >= th.applicability_partial_relevance:
        f = flips[0]
        return _out(
            "contradicts",
            f"the claim says {f.found.word}{f.found.predicate}; the provision says {f.expected.word}",
            codes=("L1.1.2",),
            evidence=(Evidence(text=f.expected.word + f.expected.predicate),),
        )

    top = rank is not None and rank < TOP_RANK
    if top or rel >= 2 * th.applicability_partial_relevance:
        if _UNIVERSAL.search(claim) and (m := _SCOPE.search(source)):
            return _out(
                "overextended",
                f"the claim generalises ({_UNIVERSAL.search(claim).group(0)}) "  # type: ignore[union-attr]
                f"but the provision is limited ({m.group(0)})",
                codes=("L1.1.2",),
                evidence=(Evidence(text=m.group(0)),),
            )
        return _out(
            "supports",
            f"the provision fits the claim (rank {'-' if rank is None else rank + 1}, "
            f"overlap {rel:.2f})",
        )

    sug, best = better_provision(
        query,
        item,
        retriever,
        store,
        cited_score=rel,
        margin=th.applicability_min_relevance,
        reason="fits the claim better",
        scorer=lambda q, t: containment(claim, t),
    )
    if rel < th.applicability_min_relevance:
        return _out(
            "irrelevant",
            f"the provision shares little with the claim (overlap {rel:.2f}, "
            f"rank {'>10' if rank is None else rank + 1})",
            codes=("L1.1.2",),
            suggestion=sug,
        )
    if sug is not None or rel < th.applicability_partial_relevance:
        return _out(
            "partially_supports",
            f"the provision is related (overlap {rel:.2f}) but "
            + (f"{sug.authority.label} fits better ({best:.2f})" if sug else "weakly"),
            codes=("L1.1.2",),
            suggestion=sug,
        )
    return _out("supports", f"the provision fits the claim (overlap {rel:.2f})")
