"""Issue 22 items 1-3: a failing citation's candidate is named for its own assertion, and a
penalty article is never the target for a claim of a right or duty (nor a duty article for a
claim of a sanction).

Statute texts checked with ``citegov corpus show`` (劳动合同法第三十条、第八十五条, 刑法第十九条、
第二百六十四条, 妇女权益保障法第七十六条, 著作权法第五十二条). The 著作权法 case is dev LawBench 3-2
chatglm2-6b answer 216 (its 场景二, a citation about plagiarism in an answer whose question is
the 妇女权益 hotline); the 劳动合同法 case is the class a review found (a duty renumbered to the
penalty article that sanctions it).
"""

from __future__ import annotations

from datetime import date

import pytest

from governor.api import Governor
from governor.authorities.structure import is_liability
from governor.core.config import Config
from verifiers.suggest import off_claim, sanction_mismatch

AS_OF = date(2023, 7, 1)


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor(Config())


def edits(gov: Governor, text: str, question: str = "") -> list[tuple[str, str]]:
    r = gov.govern(text, strategy="efa", as_of=AS_OF, context=question)
    return [(e.op, e.after) for rd in r.rounds for e in rd.edits]


def test_duty_not_renumbered_to_its_penalty_article(gov: Governor) -> None:
    # 劳动合同法第八十五条 (由劳动行政部门责令限期支付…) restates the duties it sanctions; a claim
    # of the duty is not the penalty article's rule (old code: renumbered 第三十六条 → 第八十五条)
    got = edits(
        gov,
        "根据《劳动合同法》第三十六条，用人单位不得安排加班不支付加班费，也不得低于当地最低工资"
        "标准支付劳动者工资。",
    )
    assert not any(op == "renumber" for op, _ in got)
    assert not any("第八十五条" in after for _, after in got)


def test_question_candidate_not_named_for_another_point(gov: Governor) -> None:
    # the question is the 妇女权益 hotline; the citation's own sentence is about copyright: the
    # question's best provision (妇女权益保障法第七十六条) is not named for it (old code: named 0.79)
    got = edits(
        gov,
        "场景二：根据《著作权法》第五十二条规定，著作权人、与著作权有关的的权利人或者利害关系人"
        "认为他人有侵犯其著作权或者与著作权有关的权利的，可以向人民法院提起诉讼。",
        "一位女性被公司中的男同事骚扰，决定向妇女权益保护服务热线进行投诉。根据哪条法律，县级以上"
        "人民政府应当开通全国统一的妇女权益保护服务热线？",
    )
    assert got, "the citation still gets its note"
    assert not any("妇女权益保障法" in after for _, after in got)


@pytest.mark.parametrize(
    ("instrument", "article", "liability"),
    [
        ("中华人民共和国劳动合同法", "85", True),  # 第七章 法律责任
        ("中华人民共和国劳动合同法", "30", False),  # 用人单位应当…支付劳动报酬
        ("中华人民共和国刑法", "264", True),  # 盗窃…处三年以下有期徒刑
        ("中华人民共和国刑法", "19", False),  # 又聋又哑的人或者盲人犯罪…可以从轻、减轻或者免除处罚
    ],
)
def test_is_liability(gov: Governor, instrument: str, article: str, liability: bool) -> None:
    rec = gov.store.article(instrument, article, as_of=AS_OF)
    assert rec is not None
    assert is_liability(rec.path, rec.text) is liability


def test_sanction_mismatch_both_ways(gov: Governor) -> None:
    pen = gov.store.article("中华人民共和国劳动合同法", "85", as_of=AS_OF)
    duty = gov.store.article("中华人民共和国劳动合同法", "30", as_of=AS_OF)
    sentencing = gov.store.article("中华人民共和国刑法", "19", as_of=AS_OF)
    assert pen is not None and duty is not None and sentencing is not None
    said_duty = "用人单位应当按照劳动合同约定和国家规定，向劳动者及时足额支付劳动报酬"
    said_pen = "用人单位未及时足额支付劳动报酬的，由劳动行政部门责令限期支付"
    assert sanction_mismatch(said_duty, pen.path, pen.text)
    assert not sanction_mismatch(said_duty, pen.path, pen.text, asked=True)  # 「会受到什么处罚」
    assert not sanction_mismatch(said_duty, duty.path, duty.text)
    assert sanction_mismatch(said_pen, duty.path, duty.text)
    assert not sanction_mismatch(said_pen, pen.path, pen.text)
    # a sentencing rule speaks of 处罚 without imposing one: 刑法第十九条 fits it
    said = "盲人犯罪的，可以从轻、减轻或者免除处罚"
    assert not sanction_mismatch(said, sentencing.path, sentencing.text)


def test_off_claim_other_instrument(gov: Governor) -> None:
    rec = gov.store.article("中华人民共和国妇女权益保障法", "76", as_of=AS_OF)
    assert rec is not None
    copyright_said = "著作权人认为他人有侵犯其著作权的，可以向人民法院提起诉讼"
    hotline_said = "县级以上人民政府应当开通全国统一的妇女权益保护服务热线"
    q = "根据哪条法律，县级以上人民政府应当开通全国统一的妇女权益保护服务热线？"
    assert off_claim(copyright_said, q, rec, other=True)
    assert off_claim(hotline_said, q, rec, other=True) == ""
    assert off_claim(copyright_said, q, rec, other=False) == ""  # the cited law's own article
