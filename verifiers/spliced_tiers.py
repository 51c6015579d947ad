"""A tier's condition joined to another tier's consequence (issue 21, fresh review 40; layer 3).

Provisions that grade a rule state it tier by tier, each 「……的，」 condition with its own
consequence: 劳动合同法第四十七条 「六个月以上不满一年的，按一年计算；不满六个月的，向劳动者支付半个月
工资的经济补偿」. A restatement that keeps every word but joins the first condition to the second
consequence (「六个月以上不满一年的，向劳动者支付半个月工资的经济补偿」, dev chatglm2 3-8 481) states a
rule the provision does not make: word overlap is 1.00, no number is foreign, and
:func:`verifiers.roles.paraphrase_parts` passes it because the report's consequence is in the
source (it is — under the other condition). The same splice moves a sentencing tier
(「数额较大的，处三年以上十年以下有期徒刑」) or a period.

:func:`spliced_tiers` reads each 「……的，」 clause of the report's words
(:func:`verifiers.roles.source_pairs`, the reading the provision gets too) and finds the
provision's clause with the same condition (both ways at ``Thresholds.paraphrase_same_condition``,
the part-by-part reading's own measure). It is a splice when the report's consequence is not
that clause's (below ``Thresholds.paraphrase_consequence_min`` of it) and is, near-verbatim
(``Thresholds.spliced_tier_held``), the consequence of another condition of the provision.
"""

from __future__ import annotations

from dataclasses import dataclass

from governor.core.config import Thresholds
from verifiers.roles import MIN_CONDITION, source_pairs
from verifiers.textsim import containment, normalize

_CLAUSE_END = "；;。\n"
"""Where a consequence of the report's ends (its next clause is another tier or a definition)."""


@dataclass(frozen=True)
class SplicedTier:
    """A report condition stated with another condition's consequence.

    Attributes:
        condition: the report's condition (「六个月以上不满一年的」).
        consequence: the consequence the report gives it (「向劳动者支付半个月工资的经济补偿」).
        rule: the provision's clause for that condition (「六个月以上不满一年的，按一年计算」).
        other: the provision's condition the report's consequence belongs to (「不满六个月的」).
    """

    condition: str
    consequence: str
    rule: str
    other: str


def _first_clause(text: str) -> str:
    cut = min((i for i in (text.find(c) for c in _CLAUSE_END) if i >= 0), default=len(text))
    return text[:cut].strip("，, ")


def spliced_tiers(words: str, source: str, th: Thresholds) -> tuple[SplicedTier, ...]:
    """The report's 「……的，」 clauses in ``words`` whose consequence is another condition's in
    ``source`` (module docstring), in the report's order.

    Args:
        words: the report's words restating the provision (its description and the sentences
            that go on restating it, ``Assertion.continued``).
        source: the provision's text.
        th: ``paraphrase_same_condition``, ``paraphrase_consequence_min``, ``spliced_tier_held``.
    """
    theirs = source_pairs(source)
    if len(theirs) < 2:
        return ()
    out: list[SplicedTier] = []
    for cond, cons, _ in source_pairs(words):
        cons = _first_clause(cons)
        if len(normalize(cond)) < MIN_CONDITION or len(normalize(cons)) < 4:
            continue
        same = [
            (sc, scs)
            for sc, scs, _ in theirs
            if containment(sc, cond) >= th.paraphrase_same_condition
            and containment(cond, sc) >= th.paraphrase_same_condition
        ]
        if not same or any(
            containment(cons, scs) >= th.paraphrase_consequence_min for _, scs in same
        ):
            continue
        other = [
            sc
            for sc, scs, _ in theirs
            if all(sc != s for s, _ in same) and containment(cons, scs) >= th.spliced_tier_held
        ]
        if other:
            sc, scs = same[0]
            out.append(SplicedTier(cond, cons, f"{sc}，{scs}", other[0]))
    return tuple(out)
