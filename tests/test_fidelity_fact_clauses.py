"""A recital of one clause where the question's facts meet another clause of the same article
(verifiers.fact_clauses; review seed 33, wrong-but-silent: 劳动合同法第三十七条 for a worker still
in 试用期, 刑法第二百三十四条第一款 for a victim 打成重伤). The statute text each case relies on is
checked in the store; the guards keep a right recital faithful."""

from __future__ import annotations

import pytest

from governor.api import Governor
from governor.core.config import Thresholds
from tests.statute_text import DEV_AS_OF, checked_text
from verifiers.fact_clauses import clauses, omitted_fact_clause, trigger

TH = Thresholds()
LABOUR = "中华人民共和国劳动合同法"
CRIMINAL = "中华人民共和国刑法"
RESIGN = (
    "问题：{q}\n\n您可以依法行使辞职权。根据《中华人民共和国劳动合同法》第三十七条规定，劳动者提前三十日"
    "以书面形式通知用人单位，可以解除劳动合同。因此，您可以提前一个月向领导提出辞职。"
)
HURT = (
    "问题：小明和同学起了冲突，把同学打成{harm}。小明可能会被怎样处罚？\n\n根据《中华人民共和国刑法》"
    "第二百三十四条，故意伤害他人身体的，处三年以下有期徒刑、拘役或者管制。"
)


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor()


def _one(gov: Governor, text: str, article: str):
    (v,) = [v for v in gov.verify(text, as_of=DEV_AS_OF) if v.citation.article == article]
    return v


def test_the_article_is_cut_into_rule_clauses_with_their_triggers(gov: Governor) -> None:
    art = checked_text(gov, CRIMINAL, "234", "致人重伤的，处三年以上十年以下有期徒刑")
    cs = clauses(art)
    assert cs[0] == "故意伤害他人身体的，处三年以下有期徒刑、拘役或者管制"
    assert cs[1] == "犯前款罪，致人重伤的，处三年以上十年以下有期徒刑"
    assert trigger(cs[1]) == "致人重伤的"
    assert trigger("劳动者在试用期内提前三日通知用人单位，可以解除劳动合同") == (
        "劳动者在试用期内提前三日通知用人单位，"
    )


def test_a_probation_question_answered_with_the_thirty_day_rule(gov: Governor) -> None:
    checked_text(gov, LABOUR, "37", "劳动者在试用期内提前三日通知用人单位，可以解除劳动合同")
    v = _one(gov, RESIGN.format(q="我现在还在试用期想辞职，领导说不招到人就不给我走。"), "37")
    assert v.fidelity.label == "partially_faithful", v.fidelity.rationale
    assert "试用期" in v.fidelity.rationale
    out = gov.govern(
        RESIGN.format(q="我现在还在试用期想辞职，领导说不招到人就不给我走。"),
        strategy="efa",
        as_of=DEV_AS_OF,
    ).text
    assert "该条对此另有规定「劳动者在试用期内提前三日通知用人单位，可以解除劳动合同」" in out, out
    assert "提前三十日以书面形式通知用人单位，可以解除劳动合同" in out  # the words stay


def test_no_flag_when_the_facts_meet_the_clause_recited(gov: Governor) -> None:
    v = _one(gov, RESIGN.format(q="我已经转正两年了，想辞职，领导不放人。"), "37")
    assert v.fidelity.label == "faithful", v.fidelity.rationale


def test_no_flag_when_the_report_addresses_the_fact() -> None:
    art = "劳动者提前三十日以书面形式通知用人单位，可以解除劳动合同。劳动者在试用期内提前三日通知用人单位，可以解除劳动合同。"
    said = "劳动者提前三十日以书面形式通知用人单位，可以解除劳动合同；试用期的另行处理"
    assert omitted_fact_clause(said, "我还在试用期", art, TH) is None


@pytest.mark.parametrize(("harm", "flagged"), [("重伤", True), ("轻伤", False)])
def test_a_grave_injury_answered_with_the_first_paragraph(
    gov: Governor, harm: str, flagged: bool
) -> None:
    v = _one(gov, HURT.format(harm=harm), "234")
    if flagged:
        assert v.fidelity.label == "partially_faithful", v.fidelity.rationale
        assert "致人重伤的，处三年以上十年以下有期徒刑" in v.fidelity.rationale
    else:
        assert v.fidelity.label == "faithful", v.fidelity.rationale


def test_a_qualified_or_common_trigger_word_is_not_met(gov: Governor) -> None:
    """Dev false alarms the guards remove: 道路交通安全法第七十六条第二款 「…故意碰撞机动车造成的」 is
    not met by a question about a 碰撞 (the qualifier 故意 is not stated); (二) is not met by
    「驾驶」 (a word every traffic clause uses, IDF below ``fact_clause_term_idf``) when the
    question is about two motor vehicles. A question naming a 非机动车 meets (二)."""
    art = checked_text(gov, "中华人民共和国道路交通安全法", "76", "行人故意碰撞机动车造成的")
    first = "机动车之间发生交通事故的，由有过错的一方承担赔偿责任；双方都有过错的，按照各自过错的比例分担责任"
    weight = gov.store.word_weights
    assert "驾驶" in art and weight("驾驶")["驾驶"] < TH.fact_clause_term_idf
    assert omitted_fact_clause(first, "摩托车与小轿车发生碰撞，驾驶员受伤", art, TH, weight) is None
    got = omitted_fact_clause(first, "机动车与非机动车碰撞，双方负同等责任", art, TH, weight)
    assert got is not None and got[1] == "非机动车" and "非机动车驾驶人、行人没有过错的" in got[0]


def test_a_word_of_the_laws_title_is_no_fact(gov: Governor) -> None:
    """「请结合招标投标法的相关规定…撰写一份法律研究报告」 names the law, not facts: 招标 in 招标投标法
    第三十一条's other clause is not met by it (the perturbation suite's clean report was judged
    partially faithful before the title and frame words were left out)."""
    law = "中华人民共和国招标投标法"
    art = checked_text(gov, law, "31", "两个以上法人或者其他组织可以组成一个联合体")
    said = "两个以上法人或者其他组织可以组成一个联合体，以一个投标人的身份共同投标"
    query = "请结合招标投标法的相关规定，就总则、投标、附则等问题撰写一份法律研究报告。"
    weight = gov.store.word_weights
    assert omitted_fact_clause(said, query, art, TH, weight) is not None  # without the guard
    assert omitted_fact_clause(said, query, art, TH, weight, lambda w: w in law) is None
    (v,) = [
        v
        for v in gov.verify(
            "根据《招投标法》第31条第1款规定，" + said + "。", as_of=DEV_AS_OF, context=query
        )
        if v.citation.article == "31"
    ]
    assert v.fidelity.label == "faithful", v.fidelity.rationale
