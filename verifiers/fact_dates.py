"""The law in force when the stated facts happened (issue 21, LexEval 3_2 round; layer 3, pure).

A report dated after a law's repeal may still rightly apply it: the law that governs a case is
the law in force when the facts that give rise to it happened (立法法 第一百零四条, laws do not
reach back; 最高人民法院关于适用《中华人民共和国民法典》时间效力的若干规定 第一条第二款: 「民法典
施行前的法律事实引起的民事纠纷案件，适用当时的法律、司法解释的规定」). A court that in 2021
decides a loan made in 2019 applies 合同法 第二百零六条, not the 民法典. Calling that citation
``repealed`` is a false alarm on the right article.

:func:`facts_began` reads the day the stated facts began: the earliest calendar date the
question's facts write (「2019年9月」, 「2019年9月3日」), a date of birth (「1980年1月1日出生」,
「生于1998年8月2日」) not being a fact of the case, and no date after the report's as-of date
(a typo, 「2034年」). :func:`law_of_the_facts` says whether a citation that resolved ``repealed``
is the law of those facts: repealed after they began. Facts that write no date (most
consultations) change nothing. Masked dates (「××××年××月××日」) are not read.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date

from governor.authorities import AuthorityStore
from governor.core.models import Citation
from verifiers.existence import ExistenceOutcome, check_existence

_DATE = re.compile(r"(?<![0-9])(\d{4})年(\d{1,2})月(?:(\d{1,2})日)?")
"""A calendar date written in digits, day optional (the facts' 「2019年9月」 is a day in it)."""

_BIRTH_BEFORE = re.compile(r"(?:生于|出生于|出生日期为?|出生时间为?)\s*$")
_BIRTH_AFTER = re.compile(r"^\s*(?:出生|生)")
"""A date of birth: 「生于1998年8月2日」, 「1980年1月1日出生」, 「1980年1月1日生」."""

MIN_YEAR = 1949
"""Dates before the People's Republic's laws are no facts this reading dates (an 1800 is a
number, not a year)."""


def facts_began(facts: str, as_of: date) -> date | None:
    """The earliest date of an event written in ``facts`` (module docstring), or None.

    A date with no day counts from the first of its month, one with an impossible day or month
    is skipped; dates of birth and dates after ``as_of`` are not events of the case."""
    got: list[date] = []
    for m in _DATE.finditer(facts):
        if _BIRTH_BEFORE.search(facts[max(0, m.start() - 6) : m.start()]):
            continue
        if _BIRTH_AFTER.match(facts[m.end() : m.end() + 3]):
            continue
        y, mo = int(m.group(1)), int(m.group(2))
        try:
            d = date(y, mo, int(m.group(3)) if m.group(3) else 1)
        except ValueError:
            continue
        if MIN_YEAR <= y and d <= as_of:
            got.append(d)
    return min(got, default=None)


def law_of_the_facts(facts: str, as_of: date, repealed_on: date) -> date | None:
    """The day as of which a provision repealed on ``repealed_on`` is to be judged for
    ``facts``: the day the facts began (:func:`facts_began`) when that is before the repeal
    (the law of the time governs them), else None (the repeal stands)."""
    began = facts_began(facts, as_of)
    return began if began is not None and began < repealed_on <= as_of else None


def as_of_the_facts(
    cit: Citation,
    outcome: ExistenceOutcome,
    store: AuthorityStore,
    *,
    as_of: date,
    facts: str,
    strict: bool = False,
) -> tuple[ExistenceOutcome, date]:
    """``outcome`` and ``as_of`` unchanged, unless ``cit`` resolved ``repealed`` and the
    question's ``facts`` began before the repeal (:func:`law_of_the_facts`): then its existence
    as of the day the facts began (the law of the time, judged on its text of that day), the
    rationale saying why, and that day. Only a provision whose text of that day is stored: a
    whole law cited (「根据《合同法》规定」) would pass unjudged, its repeal unsaid."""
    if outcome.result.label != "repealed" or not facts:
        return outcome, as_of
    title = cit.instrument or cit.instrument_as_written or ""
    repeal = store.repeal_record(title) if title else None
    when = law_of_the_facts(facts, as_of, repeal.repealed_on) if repeal is not None else None
    if repeal is None or when is None:
        return outcome, as_of
    again = check_existence(cit, store, as_of=when, strict=strict)
    if again.result.label not in ("exists", "partial") or again.record is None:
        return outcome, as_of  # a whole law, or a text not stored: nothing to judge it on
    why = (
        f"{again.result.rationale}; in force when the stated facts began ({when.isoformat()}), "
        f"repealed after them on {repeal.repealed_on.isoformat()}: the law of the time governs "
        "them (民法典时间效力规定 第一条第二款)"
    ).lstrip("; ")
    result = again.result.model_copy(update={"rationale": why})
    return replace(again, result=result), when
