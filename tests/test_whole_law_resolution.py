"""A law cited whole for a rule with numbers (issue 21 item 2, whole_instrument; false alarms).

「no article of 《X》 holds the claim」 was said whenever one number of the claim was missing from
the eight articles the retriever ranked first — for the asker's own facts (「结婚两年」, 「今年
1月借款」), for a condition the law leaves to another rule (法定退休年龄: 「男性年满60周岁」) and
for lay wording that ranked the right article low. Now a number the question holds is a fact,
a number in a condition (「……的，」, 如果…, 满N年) proves nothing by its absence, the articles of
the instrument best by IDF-weighted containment are searched as well, and the flag is kept for
a consequence's number that is provably absent: no article of the law states it, or the article
that states the claim's conditions does not. Otherwise the claim is not assessed (a ``no_pin``
gap), never 「《X》中未见上述规定」.

Every row's statute text is checked in the store; rows 1–3 fail on the code before this change
(A ``irrelevant``, the note 「未见上述规定」).
"""

from __future__ import annotations

from datetime import date

import pytest

from governor.api import Governor
from governor.core.gaps import coverage_gaps

AS_OF = date(2023, 7, 1)
SSL = "中华人民共和国社会保险法"
CIVIL = "中华人民共和国民法典"
LABOUR = "中华人民共和国劳动法"


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor()


def _one(gov: Governor, text: str):  # type: ignore[no-untyped-def]
    (v,) = [v for v in gov.verify(text, as_of=AS_OF) if v.citation.article is None]
    assert v.citation.assertion is not None and v.citation.assertion.role == "whole_instrument"
    return v


PENSION = (
    "根据《社会保险法》，男性年满60周岁、女性年满50周岁，且累计缴费满15年的，可以按月领取养老金。"
)
DIVORCE = (
    "问题：我们结婚两年了，现在要离婚，财产怎么分？\n\n根据《民法典》，结婚两年后离婚，夫妻共同财产"
    "由双方协议处理；协议不成的，由人民法院根据财产的具体情况，按照照顾子女、女方和无过错方权益的原则判决。"
)
BLACKLIST = (
    "问题：我朋友今年1月借款16.4万元，目前未还款，已起诉，胜诉。就只能列入失信被执行人吗？\n\n"
    "根据《最高人民法院关于公布失信被执行人名单信息的若干规定》，如果朋友未能在规定期限内履行1月借款的"
    "义务，则可以被列入失信被执行人名单。"
)


def test_the_statute_texts(gov: Governor) -> None:
    a16 = gov.store.article(SSL, "16", as_of=AS_OF)
    assert a16 is not None and "累计缴费满十五年" in a16.text and "周岁" not in a16.text
    a1087 = gov.store.article(CIVIL, "1087", as_of=AS_OF)
    assert a1087 is not None and "夫妻的共同财产由双方协议处理" in a1087.text
    a45 = gov.store.article(LABOUR, "45", as_of=AS_OF)
    assert a45 is not None and "连续工作一年以上的，享受带薪年休假" in a45.text
    assert "十五天" not in a45.text and "十五日" not in a45.text


def test_a_condition_the_law_leaves_elsewhere_is_not_a_flag(gov: Governor) -> None:
    v = _one(gov, PENSION)
    assert v.applicability.label == "skipped" and "L1.1.2" not in v.taxonomy
    assert "第16条" in v.applicability.rationale  # the nearest article is named
    assert [g.kind for g in coverage_gaps((v,))] == ["no_pin"]
    r = gov.govern(PENSION, strategy="efa", as_of=AS_OF)
    assert "未见上述规定" not in r.text


def test_the_askers_facts_are_not_the_laws_numbers(gov: Governor) -> None:
    v = _one(gov, DIVORCE)
    assert v.applicability.label == "supports" and "第1087条" in v.applicability.rationale
    r = gov.govern(DIVORCE, strategy="efa", as_of=AS_OF)
    assert "未见上述规定" not in r.text
    v = _one(gov, BLACKLIST)
    assert v.applicability.label == "skipped" and "L1.1.2" not in v.taxonomy
    assert "未见上述规定" not in gov.govern(BLACKLIST, strategy="efa", as_of=AS_OF).text


@pytest.mark.parametrize(
    ("text", "missing", "note"),
    [
        # 劳动法第四十五条第二款 states the condition (连续工作一年以上) and no number of days:
        # it is named with the figure it lacks (the figure holder), never 「未见上述规定」
        (
            "根据《劳动法》，劳动者连续工作一年以上的，年休假为十五天。",
            "十五天",
            "可能应为《劳动法》第四十五条第二款，但该款未规定「十五天」",
        ),
        # no article of 劳动法 has 十小时 (第三十六条 八小时, 第四十一条 一小时/三小时)
        ("根据《劳动法》，劳动者每日工作时间不超过十小时。", "十小时", "《劳动法》中未见上述规定"),
    ],
)
def test_a_consequence_provably_absent_is_still_flagged(
    gov: Governor, text: str, missing: str, note: str
) -> None:
    v = _one(gov, text)
    assert v.applicability.label == "irrelevant" and "L1.1.2" in v.taxonomy
    assert missing in v.applicability.rationale
    assert note in gov.govern(text, strategy="efa", as_of=AS_OF).text


def test_the_law_states_the_right_numbers(gov: Governor) -> None:
    v = _one(
        gov, "根据《劳动法》，劳动者每日工作时间不超过八小时、平均每周工作时间不超过四十四小时。"
    )
    assert v.applicability.label == "supports" and "第36条" in v.applicability.rationale


def test_rule_numbers_split() -> None:
    from verifiers.roles import rule_numbers

    conds, cons, facts = rule_numbers("劳动者连续工作一年以上的，年休假为十五天", "")
    assert [q.text for q in conds] == ["一年"] and [q.text for q in cons] == ["十五天"]
    conds, cons, facts = rule_numbers(PENSION.split("，", 1)[1], "")
    assert [q.text for q in conds] == ["60周岁", "50周岁", "15年"] and not cons and not facts
    # a condition's number the question holds is the asker's fact; 满N年 is a condition;
    # a consequence's number stays the claim's even when the question asks about it
    conds, cons, facts = rule_numbers(
        "结婚两年后离婚，累计缴费满十五年才能领取二倍工资", "结婚两年了，能领二倍工资吗"
    )
    assert [q.text for q in conds] == ["十五年"] and [q.text for q in facts] == ["两年"]
    assert [q.text for q in cons] == ["二倍"]
    # 「1月」 is a month of the year, no number of a rule
    assert rule_numbers("如果朋友未能履行1月借款的义务，则可以被列入失信被执行人名单", "") == (
        (),
        (),
        (),
    )
