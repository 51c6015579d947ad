"""Silence on wrong ones (issue 21): the wrong article of the right law. A paraphrase that
shares most of its words with the cited article passes every overlap check, yet another article
of the same instrument holds its content — its consequence in the very words — clearly better
(:mod:`verifiers.neighbour`). Cases are dev LawBench answers' sentences (tuning keys: qwen-7b
3-2 key 17, chatglm2-6b 3-8 key 90) that passed silently before; right citations measured next
to them (same run) must keep ``supports``. Each statute text relied on is checked in the store.
"""

from __future__ import annotations

from datetime import date

import pytest

from governor.api import Governor
from tests.statute_text import checked_text
from verifiers.neighbour import _consequence_moved

AS_OF = date(2023, 7, 1)
COMPANY = "中华人民共和国公司法"
QUESTION = (
    "问题：某公司董事在执行职务过程中，未经公司同意私自将公司资产转移至其个人账户，导致公司遭受"
    "财产损失。根据哪条法律，该董事应当承担怎样的责任？\n\n"
)
SAID_152 = (
    "根据《中华人民共和国公司法》第152条的规定，董事、高级管理人员违反法律、行政法规或者公司章程的"
    "规定，损害公司利益的，应当承担赔偿责任。因此，该董事应当承担赔偿责任。"
)


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor()


def test_another_articles_consequence_fails_applicability_naming_it(gov: Governor) -> None:
    """公司法第一百五十二条: 损害股东利益的，股东可以向人民法院提起诉讼; 第一百四十九条: 给公司造成
    损失的，应当承担赔偿责任 — the report's consequence. Faithful and supported before (overlap
    0.65)."""
    checked_text(gov, COMPANY, "152", "损害股东利益的，股东可以向人民法院提起诉讼", AS_OF)
    checked_text(gov, COMPANY, "149", "给公司造成损失的，应当承担赔偿责任", AS_OF)
    v = gov.verify(QUESTION + SAID_152, as_of=AS_OF)[0]
    assert v.applicability.label == "partially_supports", v.applicability.rationale
    assert "第149条" in v.applicability.rationale
    assert v.suggestion is not None and v.suggestion.authority.article == "149"
    assert v.item_trust < 1.0


def test_the_reader_is_told_which_article_holds_the_rule(gov: Governor) -> None:
    r = gov.govern(QUESTION + SAID_152, strategy="efa", as_of=AS_OF)
    assert "第152条" in r.text  # a note, never a renumber
    assert "可能应为《公司法》第一百四十九条" in r.text, r.text


def test_words_no_article_holds_as_its_own_are_flagged_without_a_name(gov: Governor) -> None:
    """「第七十一条 食品和食品添加剂生产经营者应当保证…的安全」 (qwen-7b 3-2 key 84): 食品安全法第七十一
    条 is about labels; 第一百二十四条 (penalties) holds more of the words but is not the rule
    either: the reader is told, and no article is named (the naming rules decide, unchanged)."""
    art = checked_text(gov, "中华人民共和国食品安全法", "71", "标签、说明书", AS_OF)
    assert "保证食品和食品添加剂的安全" not in art
    text = (
        "问题：小明在一家超市购买了一瓶饮料，结果喝了几口后就感到口干舌燥、恶心呕吐，经过医生诊断是因为"
        "该瓶饮料中含有有害化学物质，导致了小明的身体不适。根据哪一条法律，小明可以向谁要求赔偿？\n\n"
        "《中华人民共和国食品安全法》规定，食品生产经营者应当保证食品安全，不得生产经营不符合食品安全标准"
        "的食品。小明可以向超市要求赔偿，超市应当承担赔偿责任。具体法条内容为：第七十一条 食品和食品添加剂"
        "生产经营者应当保证食品和食品添加剂的安全，不得生产经营不符合食品安全标准的食品和食品添加剂。\n\n"
    )
    v = next(x for x in gov.verify(text, as_of=AS_OF) if x.citation.raw == "第七十一条")
    assert v.applicability.label == "partially_supports", v.applicability.rationale
    r = gov.govern(text, strategy="efa", as_of=AS_OF)
    assert "仅部分相关，请核实" in r.text, r.text
    assert "第一百二十四条" not in r.text


@pytest.mark.parametrize(
    "text",
    [
        # the cited article's own words: no other article holds them better
        "根据《中华人民共和国劳动合同法》第三十七条，劳动者提前三十日以书面形式通知用人单位，可以解除劳动合同。",
        # an application (公司法第六十三条 is right): a margin alone never fails an application
        "根据《公司法》第六十三条，小张必须为公司的债务负连带责任。",
        # a paraphrase its article holds as well as the duty article it sanctions (0.01 apart)
        "根据《安全生产法》第一百零三条，生产经营单位将生产经营项目、场所、设备发包或者出租给不具备"
        "安全生产条件的单位或者个人的，应该承担什么责任？",
    ],
)
def test_right_citations_keep_their_support(gov: Governor, text: str) -> None:
    (v,) = gov.verify(text, as_of=AS_OF)
    assert "IDF-weighted over the instrument" not in v.applicability.rationale, (
        v.applicability.rationale
    )


def test_consequence_moved_needs_the_words_in_the_other_and_not_in_the_cited() -> None:
    cited = "董事、高级管理人员违反法律、行政法规或者公司章程的规定，损害股东利益的，股东可以向人民法院提起诉讼。"
    other = "董事、监事、高级管理人员执行公司职务时违反法律、行政法规或者公司章程的规定，给公司造成损失的，应当承担赔偿责任。"
    assert _consequence_moved("应当承担赔偿责任", other, cited)
    assert not _consequence_moved("应当承担赔偿责任", cited, other)
    assert not _consequence_moved("承担", other, cited)  # too short to compare


def test_generic_words_many_articles_hold_single_none_out(gov: Governor) -> None:
    """「当事人应当承担违约责任」 is 民法典第五百七十七条's consequence (「…应当承担继续履行、采取补救措施或者
    赔偿损失等违约责任」); 第五百六十六条 holds the words verbatim, and so do several others nearly:
    generic words single no article out (``Thresholds.neighbour_generic_cover``)."""
    checked_text(gov, "中华人民共和国民法典", "577", "等违约责任", AS_OF)
    checked_text(gov, "中华人民共和国民法典", "566", "承担违约责任", AS_OF)
    (v,) = gov.verify("当事人应当承担违约责任（《民法典》第五百七十七条）。\n", as_of=AS_OF)
    assert v.passes, v.applicability.rationale
