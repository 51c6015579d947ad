"""A restatement of article N that gives it a rule of another article of the same law (issue
21, fresh reviews 33/35: wrong and silent). Two ways it passed:

* the rule's phrase is another article's while its single words are the law's frame:
  劳动合同法第十九条 (probation caps) restated as 「劳动合同期限三个月以上不满一年的，用人单位可以与劳动者
  协商一致解除劳动合同」 — 协商一致解除 is 第三十六条's (解除、劳动合同 stand in a third of the law's
  articles; the clause as a whole is 0.67 of 第三十六条's lacking bigrams). Judged on the phrase
  the cited article lacks (:func:`verifiers.foreign_clauses.core_phrase`), nearly verbatim in one
  article; 第四十六条(二) holds it too but refers to 第三十六条, whose rule it restates.
* the other article's rule stands in the next sentence of the restatement: 「根据…第二十二条，
  劳动者违反服务期约定的，…支付违约金。违约金的数额不得超过…培训费用。用人单位不得与劳动者约定由劳动者
  承担违约金。」 (第二十五条's), 第四十六条 followed by 第四十七条's 「经济补偿按劳动者在本单位工作的年限…」:
  the assertion ended at the first 。 (:attr:`Assertion.continued` now carries the sentences
  that go on restating the provision).

All ``faithful`` on main; ``partially_faithful`` naming the other article now. The statute text
each case relies on is checked in the store.
"""

from __future__ import annotations

import pytest

from governor.api import Governor
from governor.citations.assertion import continued_sentences
from tests.statute_text import DEV_AS_OF, checked_text
from verifiers.foreign_clauses import core_phrase, foreign_clauses, holds_phrase, note_head
from verifiers.textsim import bigrams

LABOUR = "中华人民共和国劳动合同法"
CIVIL = "中华人民共和国民法典"
LABOUR_19 = "劳动合同期限三个月以上不满一年的，用人单位可以与劳动者协商一致解除劳动合同"
"""dev LawBench 3-8 chatglm2-6b 339 (review 35 silent_a 16: wrong, silent on main)."""


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor()


def _one(gov: Governor, text: str) -> tuple[str, str, str]:
    v = gov.verify(text, as_of=DEV_AS_OF)[0]
    return v.fidelity.label, v.fidelity.rationale, note_head(v.fidelity.rationale) or ""


def test_the_phrase_the_cited_article_lacks(gov: Governor) -> None:
    text = checked_text(gov, LABOUR, "19", "劳动合同期限三个月以上不满一年的，试用期不得超过一个月")
    assert core_phrase("用人单位可以与劳动者协商一致解除劳动合同", bigrams(text)) == "协商一致解除"
    assert core_phrase("劳动合同期限三个月以上不满一年的", bigrams(text)) == ""


def test_nearly_verbatim_in_one_window(gov: Governor) -> None:
    art36 = checked_text(gov, LABOUR, "36", "用人单位与劳动者协商一致，可以解除劳动合同")
    art14 = checked_text(gov, LABOUR, "14", "用人单位与劳动者协商一致，可以订立无固定期限劳动合同")
    assert holds_phrase("协商一致解除", art36)
    assert not holds_phrase("协商一致解除", art14)  # its 解除 stands far from 协商一致


def test_the_holder_that_refers_to_the_other_is_dropped(gov: Governor) -> None:
    text = checked_text(gov, LABOUR, "19", "试用期包含在劳动合同期限内")
    checked_text(
        gov,
        LABOUR,
        "46",
        "用人单位依照本法第三十六条规定向劳动者提出解除劳动合同并与劳动者协商一致",
    )
    articles = gov.store.articles(LABOUR, as_of=DEV_AS_OF)
    found = foreign_clauses(LABOUR_19, text, "19", articles)
    assert [(f.article, f.clause) for f in found] == [
        ("36", "用人单位可以与劳动者协商一致解除劳动合同")
    ]


def test_labour_contract_19_given_36s_rule(gov: Governor) -> None:
    label, why, note = _one(
        gov,
        "问题：试用期三个月，仲裁去哪里？\n\n根据《中华人民共和国劳动合同法》第十九条规定，"
        f"{LABOUR_19}。",
    )
    assert label == "partially_faithful", why
    assert (
        note == "其中「用人单位可以与劳动者协商一致解除劳动合同」系第三十六条的规定，并非本条内容"
    )


def test_the_next_sentence_of_the_restatement(gov: Governor) -> None:
    """dev LawBench 3-8 chatglm2-6b 101 (silent_a 16/17): 第二十五条's rule after 第二十二条's."""
    checked_text(gov, LABOUR, "25", "用人单位不得与劳动者约定由劳动者承担违约金")
    label, why, note = _one(
        gov,
        "问题：三方协议毁约要赔两万吗？\n\n根据《中华人民共和国劳动合同法》第二十二条，劳动者违反服务期"
        "约定的，应当按照约定向用人单位支付违约金。违约金的数额不得超过用人单位提供的培训费用。"
        "用人单位不得与劳动者约定由劳动者承担违约金。因此，您不一定要赔两万。",
    )
    assert label == "partially_faithful", why
    assert note.startswith("其中「用人单位不得与劳动者约定由劳动者承担违约金」系第二十五条")


def test_the_next_sentence_gives_47s_formula(gov: Governor) -> None:
    """dev LawBench 3-8 (silent_a 43): 第四十六条(三) restated, then 第四十七条's formula."""
    checked_text(gov, LABOUR, "47", "经济补偿按劳动者在本单位工作的年限")
    label, why, _ = _one(
        gov,
        "问题：公司解除合同有补偿吗？\n\n根据《中华人民共和国劳动合同法》第四十六条，用人单位依照本法"
        "第四十条规定解除劳动合同的，应当向劳动者支付经济补偿。经济补偿按劳动者在本单位工作的年限，"
        "每满一年支付一个月工资的标准向劳动者支付。",
    )
    assert label == "partially_faithful", why
    assert "第四十七条" in why


def test_a_short_clause_judged_on_its_phrase(gov: Governor) -> None:
    """dev LawBench 3-8 chatglm2-6b 286 (review 35 silent_b 84): 民法典第五百八十六条 (定金 and its
    cap) followed by 「…应当双倍返还定金」, 第五百八十七条's rule (8 content characters: below
    ``foreign_clause_min_chars``, judged on its phrase)."""
    checked_text(gov, CIVIL, "587", "收受定金的一方不履行债务")
    label, why, note = _one(
        gov,
        "问题：户主不卖房，订金怎么要回？\n\n根据《中华人民共和国民法典》第五百八十六条，当事人可以约定"
        "一方向对方给付定金作为债权的担保。如果给付定金的一方不履行约定的债务，无权要求返还定金；"
        "收受定金的一方不履行约定的债务，应当双倍返还定金。\n\n因此，您可以要求双倍返还定金。",
    )
    assert label == "partially_faithful", why
    assert note == "其中「应当双倍返还定金」系第五百八十七条的规定，并非本条内容"


@pytest.mark.parametrize(
    "text",
    [
        # 第十九条's own words
        "问题：试用期多长？\n\n根据《中华人民共和国劳动合同法》第十九条规定，劳动合同期限三个月以上"
        "不满一年的，试用期不得超过一个月。",
        # the other rule after 因此 is the report's conclusion, not the provision restated
        "问题：服务期违约金？\n\n根据《中华人民共和国劳动合同法》第二十二条，劳动者违反服务期约定的，"
        "应当按照约定向用人单位支付违约金。因此，用人单位不得与劳动者约定由劳动者承担违约金。",
        # the provision's own next sentence
        "问题：服务期违约金？\n\n根据《中华人民共和国劳动合同法》第二十二条，劳动者违反服务期约定的，"
        "应当按照约定向用人单位支付违约金。违约金的数额不得超过用人单位提供的培训费用。",
    ],
)
def test_right_restatements_stay_faithful(gov: Governor, text: str) -> None:
    label, why, _ = _one(gov, text)
    assert label == "faithful", why


def test_continued_sentences_stop_at_the_case_and_the_paragraph() -> None:
    text = "根据第二十二条，甲。乙规则。丙规则。因此，您可以。"
    end = text.index("。")
    assert continued_sentences(text, end, len(text)) == "乙规则。丙规则"
    assert continued_sentences("根据第二十二条，甲。\n乙规则。", 9, 99) == ""
    assert continued_sentences(text, end, text.index("乙") + 1) == ""  # the next citation


def test_the_verdict_cache_key_holds_what_follows_the_restatement() -> None:
    """A verdict is cached by :func:`verifiers.verify.content_key`: two citations alike but for
    :attr:`Assertion.continued` (the next sentence is 第二十五条's rule in one, the provision's own
    in the other) must not share a cached verdict; with nothing following, the key is as it was
    (no cached verdict lost)."""
    from datetime import date

    from governor.core.models import Assertion, Citation, Span
    from verifiers.verify import content_key

    base = Citation(
        id="c1", raw="第二十二条", span=Span(start=0, end=5), kind="statute",
        instrument=LABOUR, article="22",
        assertion=Assertion(text="劳动者违反服务期约定的，应当按照约定向用人单位支付违约金"),
    )  # fmt: skip
    a = base.model_copy(
        update={"assertion": base.assertion.model_copy(update={"continued": "用人单位不得…"})}
    )
    b = base.model_copy(
        update={"assertion": base.assertion.model_copy(update={"continued": "违约金的数额…"})}
    )
    day = date(2023, 7, 1)
    keys = {content_key(c, as_of=day) for c in (base, a, b)}
    assert len(keys) == 3
