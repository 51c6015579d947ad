"""Fidelity (F), offline: does the report describe the cited provision correctly?

Labels (SPEC §3): ``faithful`` 1.0 · ``partially_faithful`` 0.5 (an outcome-relevant
condition, exception or 但书 omitted; a quote cut out of context) · ``misdescribed`` 0.0 (wrong
content, numbers, periods, amounts, modality, or content of another provision) ·
``not_assessed`` NA (the report says nothing about the content).

Checks, in order; the first failure decides:
1. quotations must be in the source (after normalising width, punctuation, whitespace);
2. numbers/periods/amounts of the description must agree with the source (L1.3.2 for
   periods, L1.2.2 otherwise);
3. modality (应当/可以/不得/有权/无权) must not flip (L1.2.2);
4. a description matching another provision of the same instrument clearly better is
   ``misdescribed`` with that provision as suggestion (L1.1.2);
5. a description that restates a rule whose 但书 it drops is ``partially_faithful`` (L1.2.3;
   L2.1.5 when the dropped proviso continues a verbatim quote).
"""

from __future__ import annotations

from governor.authorities import AuthorityStore
from governor.config import Thresholds
from governor.labels import score_for
from governor.models import CheckResult, Evidence, Suggestion, TaxonomyCode
from governor.ports import Retriever
from verifiers.facts import mentions_exception, modality_flips, number_mismatches, provisos
from verifiers.judge import AxisOutcome, JudgeItem
from verifiers.suggest import better_provision
from verifiers.textsim import containment, quote_match

QUOTE_OK = 0.85
"""A quote matching at least this share of its characters verbatim counts as found."""
DESCRIBES_THIS = 0.3
"""Containment above which a description is taken to describe the cited provision, so its
numbers and modality are compared with it."""
RESTATES_RULE = 0.5
"""Share of a 但书's rule clause the description must contain to count as restating it."""


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
            axis="fidelity",
            label=label,
            score=score_for("fidelity", label),
            rationale=rationale,
            evidence=evidence,
        ),
        codes=codes,
        suggestion=suggestion,
    )


def check_fidelity(
    item: JudgeItem, retriever: Retriever, store: AuthorityStore, th: Thresholds
) -> AxisOutcome:
    """Judge fidelity of one item offline (rules in the module docstring).

    Args:
        item: the citation with its resolved authority (``authority.text`` is the cited 款/项
            or the whole article; ``record.text`` the whole article).
        retriever: searches the same instrument for a provision the description fits better.
        store: turns a better provision into an :class:`Authority` suggestion.
        th: thresholds (``fidelity_min_overlap``, ``fidelity_other_margin``).

    Returns:
        The fidelity outcome with taxonomy codes and, for ``misdescribed`` content, the
        provision the description actually matches as suggestion.
    """
    cit = item.citation
    article_text = item.record.text if item.record is not None else item.authority.text
    cited_text = item.authority.text or article_text
    pool = "\n".join((article_text, *item.sibling_texts))
    desc = cit.description.strip()
    if not desc and cit.claim and containment(cit.claim, pool) >= DESCRIBES_THIS:
        # "P（《X》第N条）": a claim that restates the provision is what the report says it says.
        desc = cit.claim.strip()
    if not desc and not cit.quotes:
        return _out("not_assessed", "the report states nothing about the provision's content")
    if not article_text:
        return _out("not_assessed", "no source text to compare with")

    for q in cit.quotes:
        m = quote_match(q, pool)
        if m < QUOTE_OK:
            sug, _ = better_provision(
                q,
                item,
                retriever,
                store,
                cited_score=m,
                margin=0.2,
                reason="the quoted text is in this provision",
                scorer=quote_match,
            )
            return _out(
                "misdescribed",
                f"quoted text 「{q[:40]}」 is not in the cited provision (match {m:.2f})",
                codes=("L1.1.2",),
                evidence=(Evidence(text=q),),
                suggestion=sug,
            )

    sim = containment(desc, pool)
    if sim >= DESCRIBES_THIS or cit.quotes:
        for mm in number_mismatches(desc, cited_text) or number_mismatches(desc, article_text):
            exp = mm.expected
            code: TaxonomyCode = "L1.3.2" if mm.found.is_period else "L1.2.2"
            return _out(
                "misdescribed",
                f"the report says {mm.found.text}; the provision says {exp.text}",
                codes=(code,),
                evidence=(Evidence(text=exp.text),),
            )
        for flip in modality_flips(desc, article_text):
            return _out(
                "misdescribed",
                f"modality flipped: the report says {flip.found.word}{flip.found.predicate}, "
                f"the provision says {flip.expected.word}",
                codes=("L1.2.2",),
                evidence=(Evidence(text=flip.expected.word + flip.expected.predicate),),
            )

    if sim < th.fidelity_min_overlap:
        sug, other = better_provision(
            desc,
            item,
            retriever,
            store,
            cited_score=sim,
            margin=th.fidelity_other_margin,
            reason="the description matches this provision",
        )
        if sug is not None:
            return _out(
                "misdescribed",
                f"the description matches {sug.authority.label} ({other:.2f}) "
                f"better than the cited provision ({sim:.2f})",
                codes=("L1.1.2",),
                suggestion=sug,
            )
        if sim < th.fidelity_min_overlap / 2:
            return _out(
                "misdescribed",
                f"the description shares little with the provision's text ({sim:.2f})",
                codes=("L1.1.2",),
            )

    if not mentions_exception(desc):
        for p in provisos(cited_text):
            if p.rule and containment(p.rule, desc) >= RESTATES_RULE:
                quoted = any(quote_match(q, p.rule) >= QUOTE_OK for q in cit.quotes)
                code = "L2.1.5" if quoted else "L1.2.3"
                return _out(
                    "partially_faithful",
                    f"the report states the rule but drops its 但书: 「{p.text}」",
                    codes=(code,),
                    evidence=(Evidence(text=p.text),),
                )
    return _out("faithful", f"description consistent with the provision (overlap {sim:.2f})")
