"""The instruments that govern every civil case (issue 21, LexEval 3_2 lex32 round; layer 3).

A civil case is governed, whatever its subject, by two instruments the statutes name for it:

* the **民事诉讼法**, the procedure law of civil cases: 「人民法院受理公民之间、法人之间、其他组织
  之间以及他们相互之间因财产关系和人身关系提起的民事诉讼，适用本法的规定」 (民事诉讼法 第三条),
  with the instruments of its family (its 解释); read as
  :func:`verifiers.civil_fit.case_kind` ``"civil"`` (the title words 「民事诉讼」);
* the **民法典**, the general law of civil relations: 「民法调整平等主体的自然人、法人和非法人
  组织之间的人身关系和财产关系」 (民法典 第二条), which governs what a special law does not
  (第十一条), with its family and the laws it repealed (合同法, 侵权责任法, 民法总则 …, whose
  rules live on in it: :func:`verifiers.civil_fit.in_force_successor`).

So facts that are a civil case (their parties are a 原告 and a 被告, no 被告人 or 公诉机关, and
no administrative act or organ is named: :func:`verifiers.civil_fit.not_its_case`) are a matter
of these instruments; the store-wide family ratio of :func:`verifiers.civil_fit.instrument_fit`
is not the test for them (a special law's family — 保险法, 交强险条例 — or one sharing party
words — 刑事诉讼法 — outscored the 民法典 on the words of the facts: 3_2 civil, first half,
13 gold 民事诉讼法 and 5 gold 民法典-family candidates called 「not a matter of its
instrument」). What is not assessed here: which article of the instrument is the right one (the
graded fit still ranks the articles by their own BM25 share for the facts).
"""

from __future__ import annotations

from collections.abc import Collection

from verifiers.offence_fit import facts_proceeding

CIVIL_CODE = "中华人民共和国民法典"
"""The general law of civil relations (民法典 第二条)."""


def governs_civil_case(
    facts: str, kind: str | None, line: Collection[str], administrative: bool
) -> str | None:
    """Why an instrument governs ``facts`` as a civil case (a short reason), or None: the facts
    are a civil case (their parties, :func:`verifiers.offence_fit.facts_proceeding`, and no
    administrative act or organ named: ``administrative`` False) and the instrument is the
    procedure law of civil cases (``kind`` ``"civil"``, :func:`verifiers.civil_fit.case_kind`)
    or of the 民法典's line (``line``: the instrument, its successors and their family heads,
    :func:`verifiers.civil_fit.in_force_successor`, :func:`verifiers.civil_fit.family`)."""
    if administrative or facts_proceeding(facts) != "civil":
        return None
    if kind == "civil":
        return (
            "the facts are a civil case (a 原告 and a 被告), which the 民事诉讼法 governs (第三条)"
        )
    if CIVIL_CODE in line:
        return (
            "the facts are a civil case (a 原告 and a 被告), a civil relation the 民法典 governs "
            "(第二条)"
        )
    return None
