"""A missing article of a repealed law whose words are its successor's provision is moved to the
successor, never deleted (verifiers.successor_pin; rev39 chatglm2-6b-hf_247, task 3-8, judged
harmful: 「《婚姻法》第一千零六十二条」 removed with 「原引条文经核查不存在」 while the words are
民法典第一千零六十二条's)."""

from __future__ import annotations

from datetime import date

import pytest

from governor.api import Governor
from governor.core.config import Config

AS_OF = date(2023, 7, 1)
WORDS = "夫妻在婚姻关系存续期间所得的工资、奖金、劳务报酬等财产为夫妻的共同财产，归夫妻共同所有。"


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor(Config())


def test_suggestion_is_the_successor_article(gov: Governor) -> None:
    v = gov.verify(f"根据《中华人民共和国婚姻法》第一千零六十二条，{WORDS}", as_of=AS_OF)[0]
    assert v.existence.label == "not_found"
    assert v.suggestion is not None
    assert (v.suggestion.authority.instrument, v.suggestion.authority.article) == (
        "中华人民共和国民法典",
        "1062",
    )
    assert v.suggestion.score >= 0.5


@pytest.mark.parametrize("pin", ["第一千零六十二条", "第一千零七十九条"])
def test_pin_named_not_removed(gov: Governor, pin: str) -> None:
    """Same number (民法典第一千零六十二条) or another one (第一千零七十九条 is 离婚's): the
    successor article holding the words is named; the pin is not deleted."""
    out = gov.govern(f"根据《婚姻法》{pin}，{WORDS}", strategy="efa", as_of=AS_OF).text
    assert "《中华人民共和国民法典》第一千零六十二条" in out, out
    assert "原引条文经核查不存在" not in out, out


def test_words_not_the_successors_are_not_moved(gov: Governor) -> None:
    """民法典第一千零六十三条 lists 个人财产; 「其中不包括…共同财产」 is not its text, and the best
    match in 民法典 (第一千零六十五条, 约定财产制) holds it no better: no move to the successor."""
    text = "根据《婚姻法》第一千零六十三条，夫妻一方的个人财产，其中不包括本法第一千零六十二条规定的夫妻共同财产。"
    v = gov.verify(text, as_of=AS_OF)[0]
    assert v.suggestion is None or v.suggestion.authority.instrument != "中华人民共和国民法典"
