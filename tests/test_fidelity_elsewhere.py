"""Silence on wrong ones (issue 21): paraphrases word overlap calls ``faithful`` though the
report's claim is not what the cited provision says — another article's rule, the opposite
consequence of the pinned 款, items a 下列情形 list does not have. Each case is a dev LawBench
answer's sentence (chatglm2-6b, 3-2 key 10, 3-8 keys 17 and 58, tuning keys) that passed
silently before; the right citations next to them must stay ``faithful``. The statute text each
case relies on is checked in the store, so a case cannot pass on a store that lacks it.
"""

from __future__ import annotations

from datetime import date

import pytest

from governor.api import Governor
from governor.core.config import Thresholds
from tests.statute_text import checked_text
from verifiers.fidelity import invented_items, list_items, reversed_consequence

AS_OF = date(2023, 7, 1)


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor()


def _text(gov: Governor, inst: str, art: str, words: str) -> str:
    return checked_text(gov, inst, art, words, AS_OF)


def test_another_articles_rule_is_misdescribed_with_that_article_named(gov: Governor) -> None:
    """「董事、高级管理人员不得兼任监事」 is 公司法第五十一条's rule; 第一百四十六条 (disqualifications)
    has every word but 兼任 (overlap 0.58: faithful before)."""
    _text(gov, "中华人民共和国公司法", "51", "董事、高级管理人员不得兼任监事")
    assert "兼任" not in _text(gov, "中华人民共和国公司法", "146", "不得担任")
    (v,) = gov.verify(
        "根据《公司法》第一百四十六条第二款规定，公司董事、高级管理人员不得兼任监事。", as_of=AS_OF
    )
    assert v.fidelity.label == "misdescribed", v.fidelity.rationale
    assert "第51条" in v.fidelity.rationale and "near-verbatim" in v.fidelity.rationale
    assert v.item_trust < 1.0


def test_another_articles_rule_gets_a_note_never_a_renumber(gov: Governor) -> None:
    """The 3-2 question the sentence answers (a director convicted of 贪污) rests on 第一百四十六条:
    moving the pin to 第五十一条 would take the conclusion away from its basis. The reader is
    told what the cited article says instead (a failing verdict is never silent)."""
    text = (
        "公司董事会成员中有因贪污罪被判刑且执行期未满五年的人。根据《公司法》第一百四十六条第二款"
        "规定，公司董事、高级管理人员不得兼任监事。"
    )
    r = gov.govern(text, strategy="efa", as_of=AS_OF)
    assert "第一百四十六条第二款" in r.text and "第五十一条" not in r.text
    assert "其规定为「有下列情形之一的，不得担任" in r.text, r.text


def test_a_fragment_of_another_articles_sentence_is_not_its_rule(gov: Governor) -> None:
    """「用人单位应当向劳动者支付经济补偿」 for 劳动合同法第四十七条 lacks only 应当 (a modal) and is a
    fragment of 第五十条's sentence; 「国家提倡一对夫妻生育一个子女」 stands verbatim in 人口与计划生育法
    第三十一条 only inside 「在国家提倡…期间，…国家发给《独生子女父母光荣证》」: neither is named as
    the article whose rule the report states."""
    _text(gov, "中华人民共和国人口与计划生育法", "31", "在国家提倡一对夫妻生育一个子女期间")
    (v,) = gov.verify(
        "根据《中华人民共和国人口与计划生育法》第十八条规定，国家提倡一对夫妻生育一个子女。",
        as_of=AS_OF,
    )
    assert "lacks" not in v.fidelity.rationale
    (v,) = gov.verify(
        "根据《劳动合同法》第四十七条，用人单位应当向劳动者支付经济补偿。", as_of=AS_OF
    )
    assert "lacks" not in v.fidelity.rationale


def test_the_opposite_consequence_of_the_pinned_paragraph_is_misdescribed(gov: Governor) -> None:
    """道路交通安全法第七十六条第二款: 「…故意碰撞机动车造成的，机动车一方不承担赔偿责任」; the
    report cites it for the driver's liability (faithful at 0.57 before)."""
    art = _text(gov, "中华人民共和国道路交通安全法", "76", "机动车一方不承担赔偿责任")
    assert "由机动车一方承担赔偿责任" in art  # the article as a whole states both
    (v,) = gov.verify(
        "根据《中华人民共和国道路交通安全法》第七十六条第二款规定，机动车与非机动车驾驶人发生交通"
        "事故，造成行人受伤的，机动车驾驶人应当承担赔偿责任。",
        as_of=AS_OF,
    )
    assert v.fidelity.label == "misdescribed", v.fidelity.rationale
    assert "不承担赔偿责任" in v.fidelity.rationale
    assert v.fidelity.evidence and "故意碰撞机动车" in v.fidelity.evidence[0].text


def test_the_article_that_states_both_consequences_keeps_a_right_paraphrase(
    gov: Governor,
) -> None:
    (v,) = gov.verify(
        "根据《中华人民共和国道路交通安全法》第七十六条规定，机动车与非机动车驾驶人、行人之间发生"
        "交通事故，非机动车驾驶人、行人没有过错的，由机动车一方承担赔偿责任。",
        as_of=AS_OF,
    )
    assert v.fidelity.label == "faithful", v.fidelity.rationale


@pytest.mark.parametrize(
    ("desc", "cited", "found"),
    [
        ("机动车驾驶人应当承担赔偿责任", "机动车一方不承担赔偿责任。", True),
        ("机动车一方不承担赔偿责任", "机动车一方不承担赔偿责任。", False),
        (
            "由机动车一方承担赔偿责任",
            "由机动车一方承担赔偿责任；…机动车一方不承担赔偿责任。",
            False,
        ),
        ("人民法院无需保护", "超过二十年的，人民法院不予保护。", False),
        ("人民法院应当予以保护", "超过二十年的，人民法院不予保护。", False),
    ],
)
def test_reversed_consequence(desc: str, cited: str, found: bool) -> None:
    assert (reversed_consequence(desc, cited) is not None) is found


def test_invented_list_items_are_misdescribed(gov: Governor) -> None:
    """劳动合同法第四十二条 lists 职业病, 医疗期, 孕期 …; the report's lead is verbatim, its items
    are 第三十九条-like misconduct (overlap 0.41: faithful before)."""
    _text(gov, "中华人民共和国劳动合同法", "42", "在规定的医疗期内的")
    (v,) = gov.verify(
        "根据《劳动合同法》第42条规定，劳动者有下列情形之一的，用人单位不得解除劳动合同：（1）劳动者"
        "未按照劳动合同约定提供劳动的；（2）劳动者未按照劳动合同约定完成本单位的工作任务的。",
        as_of=AS_OF,
    )
    assert v.fidelity.label == "misdescribed", v.fidelity.rationale
    assert "未按照劳动合同约定提供劳动" in v.fidelity.rationale


def test_the_provisions_own_items_paraphrased_stay_faithful(gov: Governor) -> None:
    """工伤保险条例第十六条's items paraphrased (自残或自杀 for 自残或者自杀) stay faithful; an item
    widened with acts the article does not name (「或者抗拒抓捕、逃避伤害」) is one of its items, so
    not invented (4c), but not faithful either (check 8c, tests/test_fidelity_recitals.py)."""
    _text(gov, "工伤保险条例", "16", "醉酒或者吸毒的")
    lead = "根据《工伤保险条例》第十六条，职工有下列情形之一的，不得认定为工伤或者视同工伤："
    (v,) = gov.verify(
        lead + "（一）故意犯罪的；（二）醉酒或者吸毒的；（三）自残或自杀的。", as_of=AS_OF
    )
    assert v.fidelity.label == "faithful", v.fidelity.rationale
    (w,) = gov.verify(
        lead + "（一）故意犯罪或者抗拒抓捕、逃避伤害的；（二）醉酒或者吸毒的；（三）自残或自杀的。",
        as_of=AS_OF,
    )
    assert w.fidelity.label == "partially_faithful", w.fidelity.rationale


def test_list_items_and_the_half_rule() -> None:
    th = Thresholds()
    src = "有下列情形之一的，不得解除：（一）患职业病的；（二）在规定的医疗期内的；（三）女职工在孕期的。"
    assert list_items(src) == ("患职业病的", "在规定的医疗期内的", "女职工在孕期的")
    one_wrong = "有下列情形之一的：1.在本单位患职业病的；2.在规定的医疗期内的；3.劳动者严重失职的。"
    assert invented_items(one_wrong, src, th) == ()
    two_wrong = "有下列情形之一的：(1)劳动者严重违反规章制度的；(2)劳动者严重失职营私舞弊的。"
    assert len(invented_items(two_wrong, src, th)) == 2


def test_a_rewrite_of_a_pinned_paragraph_puts_in_its_text_once(gov: Governor) -> None:
    """The content form 「第七十六条第二款规定：…」 with the opposite consequence is rewritten to the
    款's text — not to that text followed by the judge's evidence (「…不承担赔偿责任。不承担赔偿责任」
    before: the revision appended the evidence it reads numbers from)."""
    text = (
        "法律依据：\n2. 《中华人民共和国道路交通安全法》第七十六条第二款规定：机动车与非机动车驾驶人"
        "发生交通事故，造成行人受伤的，机动车驾驶人应当承担赔偿责任。\n"
    )
    out = gov.govern(text, strategy="efa", as_of=AS_OF).text
    assert "应当承担赔偿责任" not in out or "请核实" in out
    assert "不承担赔偿责任。不承担" not in out and "不承担赔偿责任不承担" not in out, out
