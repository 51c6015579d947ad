"""Issue 22 item 1, ranking by provision structure: a question that asks for a sanction gets the
liability provision that sanctions the rule retrieval found first, not the duty provision itself
(:func:`verifiers.suggest.sanction_first`).

Statute texts checked with ``citegov corpus show … --as-of 2023-07-01``: 残疾人保障法第五十三条
(第七章 无障碍环境, 「新建、改建和扩建建筑物、道路、交通设施等，应当符合国家有关无障碍设施工程建设
标准」) and 第六十六条 (第八章 法律责任, 「违反本法规定，新建、改建和扩建建筑物、道路、交通设施，不符合
国家有关无障碍设施工程建设标准…的，由有关主管部门依法处理」); 未成年人保护法第一百一十八条 (第十一章
法律责任, 父母或者其他监护人不依法履行监护职责…); 社会保险法第七十九条 / 第九十一条. The answers
are dev LawBench 3-2 GPT-3.5 answers 169 and 158 (the fitting model's tuning range).
"""

from __future__ import annotations

from datetime import date

import pytest

from governor.api import Governor
from governor.core.config import Config
from verifiers.suggest import sanction_first

AS_OF = date(2023, 7, 1)

Q_169 = (
    "某市政府新建了一座公共图书馆，但没有考虑到残疾人的无障碍需求。根据哪条法律规定，如果新建"
    "建筑物不符合国家无障碍设施建设标准会受到处罚？"
)
A_169 = (
    "根据《中华人民共和国残疾人保障法》第二十七条规定，新建建筑物应当符合国家无障碍设施建设标准。"
    "如果新建建筑物不符合国家无障碍设施建设标准，相关责任单位将受到处罚。"
)
Q_158 = (
    "小明是一名未成年人，他的父母经常熬夜打牌喝酒，对他的生活和学习造成了很大的困扰。根据哪条"
    "法律，未成年人的父母或者其他监护人不依法履行监护职责或者侵犯未成年人合法权益将面临什么处罚？"
)
A_158 = (
    "根据中华人民共和国婚姻法第二十六条，父母有抚养、教育未成年子女的义务，应当保护未成年子女的"
    "合法权益。如果父母或其他监护人不依法履行监护职责或侵犯未成年人的合法权益，根据中华人民共和国"
    "未成年人保护法第五十六条，可以处以警告、罚款、责令改正、限制或者剥夺监护权等处罚。"
)


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor(Config())


def _rec(gov: Governor, instrument: str, article: str):  # type: ignore[no-untyped-def]
    rec = gov.store.article(instrument, article, as_of=AS_OF)
    assert rec is not None
    return rec


def test_sanction_question_moves_the_duty_to_its_liability_article(gov: Governor) -> None:
    duty = _rec(gov, "中华人民共和国残疾人保障法", "53")
    other = _rec(gov, "中华人民共和国残疾人保障法", "52")
    out = sanction_first([(duty, 9.0), (other, 8.0)], Q_169, "", gov.store, as_of=AS_OF)
    assert (out[0][0].instrument, out[0][0].article) == ("中华人民共和国残疾人保障法", "66")
    assert out[1][0].article == "53"


def test_no_sanction_asked_keeps_the_order(gov: Governor) -> None:
    duty = _rec(gov, "中华人民共和国残疾人保障法", "53")
    q = "某市政府新建了一座公共图书馆。根据哪条法律规定，新建建筑物应当符合什么标准？"
    hits = [(duty, 9.0)]
    assert sanction_first(hits, q, "", gov.store, as_of=AS_OF) == hits


def test_a_liability_article_that_does_not_restate_the_rule_is_not_taken(gov: Governor) -> None:
    # 社会保险法第九十一条 (挪用社会保险基金…责令追回) holds 0.20 of 第七十九条's 款: it does not
    # sanction that supervision rule, so the order stands
    rule = _rec(gov, "中华人民共和国社会保险法", "79")
    q = "社会保险行政部门对社会保险基金实施监督检查，发现问题的会受到什么处罚？"
    out = sanction_first([(rule, 9.0)], q, "", gov.store, as_of=AS_OF)
    assert out[0][0].article != "91"


def test_governed_note_does_not_name_the_duty_article_for_a_penalty_question(
    gov: Governor,
) -> None:
    # old code: the note named 残疾人保障法第五十三条 (probability 0.87) for 「…会受到处罚？」
    r = gov.govern(A_169, strategy="efa", as_of=AS_OF, context=Q_169)
    afters = [e.after for rd in r.rounds for e in rd.edits]
    assert not any("第五十三条" in a for a in afters)


def test_penalty_question_candidate_is_the_guardian_liability_article(gov: Governor) -> None:
    # old code: the candidate for 未成年人保护法第五十六条 was 第一百二十四条 (probability 0.15);
    # the question asks what a guardian who fails the duty faces: 第一百一十八条
    # Since Applicability check 3a (a sanction claimed of an article that imposes none) the
    # judges find their own candidate from the invented sanction words (第一百二十四条, a
    # smoking fine, score 0.05): it is rescored as off the question (probability below the
    # naming probability), so no wrong article is named and the citation is still flagged.
    r = gov.govern(A_158, strategy="efa", as_of=AS_OF, context=Q_158)
    (v56,) = [v for v in r.initial_verdicts if v.citation.article == "56"]
    assert v56.applicability.label == "irrelevant"
    s = v56.suggestion
    assert (
        s is None
        or s.authority.article == "118"
        or (
            s.probability is not None
            and s.probability < Config().thresholds.candidate_name_probability
        )
    )
    assert "第一百二十四条" not in r.text and "第124条" not in r.text
    assert any(e.citation_id == v56.citation.id for e in r.edits)
