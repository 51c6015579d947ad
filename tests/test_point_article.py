"""A real article of the right law cited for a point it does not carry (issue 21, "wrong but
silent"; :mod:`verifiers.point_article`).

Dev LawBench 3-8 answers (qwen-7b-chat 149, chatglm2-6b 339), read as of 2023-07-01; the
reviewers (rev38r silent_s 35, rev35 silent_a 16) judged each citation wrong against the statute
and citegov passed both silently:

* 劳动合同法第三十七条 (the worker's notice resignation) cited, in the 法律依据 line after the
  recital, for 「劳动者有权要求公司支付经济补偿金」 — 经济补偿 is 第四十六条's; the recital itself is
  right and stays ``supports``;
* 劳动合同法第十九条 (probation lengths) cited for 「用人单位可以与劳动者协商一致解除劳动合同」 —
  协商一致解除 is 第三十六条/第四十六条's.
"""

from __future__ import annotations

from datetime import date

import pytest

from governor.api import Governor
from governor.authorities import load_default_store
from governor.core.config import load_config
from governor.reports.i18n import readable
from verifiers.point_article import legal_terms, point_of
from verifiers.textsim import BigramIdf

AS_OF = date(2023, 7, 1)
QWEN_149 = (
    "问题：公司被其他公司收购了，公司要求改签合同，但我合同没有到期，今年10月份公司要从苏州搬迁到安徽"
    "请问改签合同可以要求公司赔偿吗？\n\n可以要求公司赔偿，根据《中华人民共和国劳动合同法》第三十七条的"
    "规定，劳动者提前三十日以书面形式通知用人单位，可以解除劳动合同。劳动者在试用期内提前三日通知用人"
    "单位，可以解除劳动合同。因此，如果劳动者在合同期内，公司单方面变更劳动合同的地点，劳动者有权要求"
    "公司支付经济补偿金。经济补偿金的计算标准为每满一年支付一个月工资，不满六个月的支付半个月工资。"
    "法律依据：《中华人民共和国劳动合同法》第三十七条。\n"
)
GLM_339 = (
    "问题：公司是在深圳注册的，深圳和东莞都有办公场所，我本人在东莞，试用期是三个月仲裁是需要去深圳"
    "劳动局还是东莞劳动局？\n\n根据《中华人民共和国劳动法》第四十三条和《中华人民共和国劳动合同法》"
    "第十八条，劳动合同期限三个月以上不满一年的，试用期不得超过一个月。因此，试用期无需去深圳或东莞"
    "劳动局。而根据《中华人民共和国劳动合同法》第十九条规定，劳动合同期限三个月以上不满一年的，用人"
    "单位可以与劳动者协商一致解除劳动合同。因此，用人单位可以与您协商一致解除劳动合同，无需事先告知"
    "劳动部门。 \n\n回答：您无需去深圳或东莞劳动局，可以与用人单位协商一致解除劳动合同。根据《中华"
    "人民共和国劳动合同法》第十九条规定。\n"
)


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor(load_config(overrides={}, environ={}), store=load_default_store())


def test_point_is_the_act_after_the_last_modal() -> None:
    assert (
        point_of(
            "如果劳动者在合同期内，公司单方面变更劳动合同的地点，劳动者有权要求公司支付经济补偿金"
        )
        == "支付经济补偿金"
    )
    assert point_of("劳动者提前三十日以书面形式通知用人单位，可以解除劳动合同") == "解除劳动合同"
    assert point_of("父母是未成年人的法定监护人") == ""  # no modal: no consequence stated


def test_legal_terms_are_the_instruments_words() -> None:
    table = BigramIdf.from_texts(["用人单位应当向劳动者支付经济补偿", "劳动者可以解除劳动合同"])
    assert legal_terms("支付经济补偿金", table) == frozenset(
        {"支付", "付经", "经济", "济补", "补偿"}
    )


def test_conclusion_drawn_from_a_recital_is_not_the_recited_articles(gov: Governor) -> None:
    recital, listed = [v for v in gov.verify(QWEN_149, as_of=AS_OF) if "三十七" in v.citation.raw]
    assert recital.applicability.label == "supports"
    a = listed.applicability
    assert a.label == "irrelevant", a.rationale
    assert "「支付经济补偿金」" in a.rationale
    assert "第46条" in a.rationale, (
        a.rationale
    )  # 第四十六条, not 第八十五条's 「经济补偿」 among others
    zh = readable(a.rationale, lang="zh")
    assert zh.startswith("该主张的要点「支付经济补偿金」不在所引条文中"), zh
    assert "第四十六条规定了这一点" in zh, zh


def test_probation_article_cited_for_termination_by_agreement(gov: Governor) -> None:
    first = next(v for v in gov.verify(GLM_339, as_of=AS_OF) if "第十九条" in v.citation.raw)
    a = first.applicability
    # its condition (劳动合同期限三个月以上不满一年的) is 第十九条's: partly carried
    assert a.label == "partially_supports", a.rationale
    assert "协商一致解除劳动合同" in a.rationale
    assert "试用期不得超过一个月" in a.rationale  # what the provision is about


def test_the_recital_of_the_article_stays_supported(gov: Governor) -> None:
    text = (
        "问题：我想辞职，要提前多久通知公司？\n\n根据《中华人民共和国劳动合同法》第三十七条的规定，"
        "劳动者提前三十日以书面形式通知用人单位，可以解除劳动合同。\n"
    )
    (v,) = gov.verify(text, as_of=AS_OF)
    assert v.applicability.label == "supports", v.applicability.rationale


def test_a_holder_of_the_words_only_is_no_repair_target(gov: Governor) -> None:
    # 第十九条 for 「协商一致解除劳动合同」: 第四十六条 holds the words in a 项 (a condition), no
    # article's consequence states them — the point is flagged, no provision offered for it
    first = next(v for v in gov.verify(GLM_339, as_of=AS_OF) if "第十九条" in v.citation.raw)
    assert readable(first.applicability.rationale).endswith("holds its words")
    assert first.suggestion is None or first.suggestion.authority.article != "46"
    zh = readable(first.applicability.rationale, lang="zh")
    assert zh.endswith("第四十六条含有这些用语"), zh
