"""A repealed law applied to facts that happened while it was in force is the law of the time,
not a ``repealed`` citation (:mod:`verifiers.fact_dates`; 民法典时间效力规定 第一条第二款).

The facts are written the way civil judgments state them; before, 《合同法》第二百零六条 applied
to a 2019 loan in a report dated 2024 was ``repealed`` and failed (LexEval 3_2: 30 gold
articles of 合同法, 民法通则, 担保法, 侵权责任法 …).
"""

from __future__ import annotations

from datetime import date

import pytest

from governor.api import Governor
from governor.authorities import load_default_store
from governor.core.config import load_config
from governor.core.models import Verdict
from tests.lexeval_32 import verdict_32
from verifiers.fact_dates import facts_began, law_of_the_facts

AS_OF = date(2024, 6, 1)
REPEAL = date(2021, 1, 1)

_LOAN_2019 = (
    "经审理查明，2019年9月3日，被告张某向原告李某借款人民币50000元，约定借期一年，被告向原告出具"
    "借条一张，约定了还款期限。借款到期后，经原告多次催讨，被告至今未还，原告于2021年3月诉至本院。"
)
_LOAN_2022 = (
    "经审理查明，原告李某（1980年1月1日出生）与被告张某系朋友。2022年5月10日，被告张某向原告李某"
    "借款人民币50000元，约定借期一年，被告出具借条一张。借款到期后，被告至今未还。"
)


@pytest.mark.parametrize(
    ("facts", "began"),
    [
        (_LOAN_2019, date(2019, 9, 3)),  # the earliest event, not the day of the suit
        (_LOAN_2022, date(2022, 5, 10)),  # a date of birth is no event of the case
        ("被害人周某某（女，生于1998年8月2日）于2014年1月26日被抢", date(2014, 1, 26)),
        ("××××年××月××日，双方签订合同", None),  # masked dates are not read
        ("2034年5月签订", None),  # after the as-of date: a typo
    ],
)
def test_facts_began(facts: str, began: date | None) -> None:
    assert facts_began(facts, AS_OF) == began


def test_law_of_the_facts() -> None:
    assert law_of_the_facts(_LOAN_2019, AS_OF, REPEAL) == date(2019, 9, 3)
    assert law_of_the_facts(_LOAN_2022, AS_OF, REPEAL) is None
    assert law_of_the_facts("双方签订借款合同", AS_OF, REPEAL) is None


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor(load_config(overrides={}, environ={}), store=load_default_store())


def _verdict(gov: Governor, facts: str, option: str) -> Verdict:
    return verdict_32(gov, facts, option, AS_OF)


def test_old_law_for_old_facts(gov: Governor) -> None:
    """Failed on main: E ``repealed`` (STALE)."""
    v = _verdict(gov, _LOAN_2019, "《中华人民共和国合同法》第二百零六条")
    assert v.existence.label == "exists"
    assert "law of the time" in v.existence.rationale
    assert "STALE" not in v.taxonomy


def test_old_law_for_new_facts_stays_repealed(gov: Governor) -> None:
    v = _verdict(gov, _LOAN_2022, "《中华人民共和国合同法》第二百零六条")
    assert v.existence.label == "repealed"
    assert not v.passes


def test_whole_old_law_for_old_facts_stays_repealed(gov: Governor) -> None:
    """A whole law has no text to judge the facts on: its repeal is still said."""
    text = f"问题：{_LOAN_2019}\n\n根据《中华人民共和国合同法》规定，借款人应当按期返还借款。\n"
    vs = [
        v
        for v in gov.verify(text, as_of=AS_OF)
        if v.citation.instrument and not v.citation.in_question
    ]
    assert vs and all(v.existence.label == "repealed" for v in vs)
