"""A restatement of article N that adds a clause of another article of the same instrument
(fresh review 2026-12-03: the largest class of wrong citations passed silently). 工伤保险条例
第十四条 (what is 工伤) given 第十七条第二款's one-year period, 劳动合同法第二十二条 (服务期 违约金)
given 第二十五条's 「用人单位不得与劳动者约定由劳动者承担违约金」: ``faithful`` on main (overlap
0.5–0.7), ``partially_faithful`` naming the other article now, with the reader's note saying
whose the clause is. The right restatements beside them stay faithful; a clause the cited article
takes from the one it refers to (劳动合同法第二十五条 「除本法第二十二条…」) is not foreign. The
statute text each case relies on is checked in the store.
"""

from __future__ import annotations

from datetime import date

import pytest

from governor.api import Governor
from governor.core.config import DEFAULT_THRESHOLDS
from tests.statute_text import DEV_AS_OF, checked_text
from verifiers.foreign_clauses import (
    covers_all,
    foreign_clauses,
    note_head,
    pin_words,
    referenced_articles,
    report_clauses,
)

INJURY = "工伤保险条例"
LABOUR = "中华人民共和国劳动合同法"
CIVIL = "中华人民共和国民法典"
INJURY_14_DESC = (
    "工伤职工在事故伤害发生之日或者被诊断、鉴定为职业病之日起1年内，因工作原因受到事故伤害或者"
    "患职业病的，应当认定为工伤职工"
)
"""dev LawBench 3-8 chatglm2-6b 463 (faithful on main, overlap 0.51)."""


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor()


def _one(gov: Governor, text: str) -> tuple[str, str]:
    (v,) = gov.verify(text, as_of=DEV_AS_OF)
    return v.fidelity.label, v.fidelity.rationale


def test_report_clauses_drop_connectives() -> None:
    assert report_clauses("先行支付，然后由基金结算；并告知劳动者。") == (
        "先行支付",
        "由基金结算",
        "告知劳动者",
    )


@pytest.mark.parametrize(
    ("text", "refs"),
    [
        ("除本法第二十二条和第二十三条规定的情形外", {"22", "23"}),
        ("依照第一百三十三条之一的规定", {"133之一"}),
        ("依照前款规定", set()),
    ],
)
def test_referenced_articles(text: str, refs: set[str]) -> None:
    assert referenced_articles(text) == frozenset(refs)


def test_pin_words_and_note_head() -> None:
    assert pin_words("17", 2) == "第十七条第二款"
    assert pin_words("133之一", None) == "第一百三十三条之一"
    why = "foreign clause: 「某某起1年内」 is the text of 第十七条第二款 (0.96 of its bigrams), x"
    assert note_head(why) == "其中「某某起1年内」系第十七条第二款的规定，并非本条内容"
    assert note_head("description consistent with the provision (overlap 0.51)") is None


def test_the_clause_and_its_article_are_found(gov: Governor) -> None:
    text = checked_text(gov, INJURY, "14", "职工有下列情形之一的，应当认定为工伤")
    checked_text(gov, INJURY, "17", "事故伤害发生之日或者被诊断、鉴定为职业病之日起1年内")
    articles = gov.store.articles(INJURY, as_of=DEV_AS_OF)
    found = foreign_clauses(INJURY_14_DESC, text, "14", articles, DEFAULT_THRESHOLDS)
    assert [(f.article, f.paragraph) for f in found] == [("17", 2)]
    assert found[0].clause.startswith("工伤职工在事故伤害发生之日")
    assert found[0].held >= 0.9 > 0.5 > found[0].own
    # the rest («因工作原因受到事故伤害…应当认定为工伤») is 第十四条's: not the whole assertion
    assert not covers_all(INJURY_14_DESC, found, text, DEFAULT_THRESHOLDS)


def test_a_clause_of_another_article_is_partially_faithful(gov: Governor) -> None:
    label, why = _one(
        gov, f"问题：工伤怎么认定？\n\n根据《工伤保险条例》第十四条，{INJURY_14_DESC}。"
    )
    assert label == "partially_faithful", why
    assert "第十七条第二款" in why


def test_labour_contract_22_given_25s_rule(gov: Governor) -> None:
    checked_text(gov, LABOUR, "25", "用人单位不得与劳动者约定由劳动者承担违约金")
    checked_text(gov, LABOUR, "22", "劳动者违反服务期约定的，应当按照约定向用人单位支付违约金")
    label, why = _one(
        gov,
        "问题：服务期违约金？\n\n根据《中华人民共和国劳动合同法》第二十二条，劳动者违反服务期约定的，"
        "应当按照约定向用人单位支付违约金，用人单位不得与劳动者约定由劳动者承担违约金。",
    )
    assert label == "partially_faithful", why
    assert "第二十五条" in why and "用人单位不得与劳动者约定由劳动者承担违约金" in why


@pytest.mark.parametrize(
    "text",
    [
        # the cited article's own words, reordered and in Arabic numerals
        "问题：工伤怎么认定？\n\n根据《工伤保险条例》第十四条，职工在工作时间和工作场所内，因工作原因"
        "受到事故伤害的，应当认定为工伤。",
        # a short commonplace clause another article also holds
        "问题：服务期违约金？\n\n根据《中华人民共和国劳动合同法》第二十二条，劳动者违反服务期约定的，"
        "应当按照约定向用人单位支付违约金，应当依法处理。",
    ],
)
def test_right_restatements_stay_faithful(gov: Governor, text: str) -> None:
    label, why = _one(gov, text)
    assert label == "faithful", why


def test_the_article_the_cited_one_refers_to_is_part_of_its_rule(gov: Governor) -> None:
    """劳动合同法第四十六条(一) pays 经济补偿 when 「劳动者依照本法第三十八条规定解除劳动合同」: a
    restatement naming 第三十八条's case (「未及时足额支付劳动报酬的」) states 第四十六条's rule. The
    same words against a text without the reference are found as 第三十八条's."""
    text = checked_text(gov, LABOUR, "46", "劳动者依照本法第三十八条规定解除劳动合同的")
    articles = gov.store.articles(LABOUR, as_of=DEV_AS_OF)
    words = (
        "用人单位未及时足额支付劳动报酬的，劳动者可以解除劳动合同，用人单位应当向劳动者支付经济补偿"
    )
    assert foreign_clauses(words, text, "46", articles) == ()
    unreferenced = text.replace("本法第三十八条", "本法规定")
    found = foreign_clauses(words, unreferenced, "46", articles)
    assert [(f.article, f.clause) for f in found] == [("38", "用人单位未及时足额支付劳动报酬的")]


def test_whole_assertion_of_another_article(gov: Governor) -> None:
    """合同法第六十条's 诚实信用 duties cited as 第六十八条 (不安抗辩; dev qwen-7b-chat 3-8 400): the
    clause is 第六十条's. Beside 第四十二条's words (0.79 of them there, below
    ``foreign_clause_held_min``: not named) nothing of the assertion is 第六十八条's, so it is the
    whole assertion (misdescribed); beside 第六十八条's own words it is not (partially_faithful)."""
    contract = "中华人民共和国合同法"
    when = date(2020, 1, 1)
    duties = "根据合同的性质、目的和交易习惯履行通知、协助、保密等义务"
    checked_text(gov, contract, "60", duties, when)
    rec = gov.store.article(contract, "68", as_of=when)
    assert rec is not None and "应当先履行债务的当事人" in rec.text
    articles = gov.store.articles(contract, as_of=when)
    words = "当事人在订立合同过程中应当遵循诚实信用原则，" + duties
    found = foreign_clauses(words, rec.text, "68", articles, DEFAULT_THRESHOLDS)
    assert [(f.article, f.paragraph, f.clause) for f in found] == [("60", None, duties)]
    assert covers_all(words, found, rec.text, DEFAULT_THRESHOLDS)
    mixed = "应当先履行债务的当事人，有确切证据证明对方经营状况严重恶化的，可以中止履行，" + duties
    found = foreign_clauses(mixed, rec.text, "68", articles, DEFAULT_THRESHOLDS)
    assert [f.article for f in found] == ["60"]
    assert not covers_all(mixed, found, rec.text, DEFAULT_THRESHOLDS)


def test_a_procedure_with_its_own_opening_is_partially_faithful(gov: Governor) -> None:
    """工伤保险条例第二十一条 (when 劳动能力鉴定 is due) restated with 第二十三条's applicants (dev
    qwen-7b-chat 3-8 359, faithful on main): 「职工发生工伤」 is 第二十一条's, so only the rest is
    another article's."""
    checked_text(
        gov, INJURY, "23", "由用人单位、工伤职工或者其近亲属向设区的市级劳动能力鉴定委员会提出申请"
    )
    label, why = _one(
        gov,
        "问题：怎么做伤残鉴定？\n\n根据《工伤保险条例》第二十一条，职工发生工伤，经治疗伤情相对稳定后，"
        "由用人单位、工伤职工或者其近亲属向设区的市级劳动能力鉴定委员会提出劳动能力鉴定申请。",
    )
    assert label == "partially_faithful", why
    assert "第二十三条" in why


def test_the_note_says_whose_the_clause_is(gov: Governor) -> None:
    result = gov.govern(
        f"问题：工伤怎么认定？\n\n根据《工伤保险条例》第十四条，{INJURY_14_DESC}。",
        strategy="efa",
        as_of=DEV_AS_OF,
    )
    notes = [e.after for r in result.rounds for e in r.edits]
    assert any("系第十七条第二款的规定，并非本条内容" in n for n in notes), notes
    # the report's words stay (no rewrite of the description with the whole article)
    assert all(e.op == "annotate" for r in result.rounds for e in r.edits)


def test_a_list_note_names_the_members_it_is_about(gov: Governor) -> None:
    """劳动合同法第八十二条、第八十八条、第九十七条 cited together for 「…并依法为劳动者缴纳社会保险费…」
    (dev chatglm2-6b 3-8 212): none of the three holds the clause; one note after the list must
    say which members it is about (「本条」 after a list names none), so each is told."""
    for art in ("82", "88", "97"):
        text = checked_text(gov, LABOUR, art, "")
        assert "社会保险费" not in text
    draft = (
        "问题：公司不签合同也不交社保怎么办？\n\n综上所述，用人单位应当向劳动者每月支付2倍的工资，并依法为劳动者"
        "缴纳社会保险费，同时提供劳动保护用品。\n\n对应的法律依据是：《劳动合同法》第82条、第88条、"
        "第97条。\n"
    )
    result = gov.govern(draft, strategy="efa", as_of=DEV_AS_OF)
    notes = [e.after for r in result.rounds for e in r.edits if "并非" in e.after]
    assert notes == [
        "（注：其中「依法为劳动者缴纳社会保险费」系第三十八条第一款的规定，并非《劳动合同法》"
        "第八十二条、第八十八条、第九十七条的内容，请核实）"
    ]
