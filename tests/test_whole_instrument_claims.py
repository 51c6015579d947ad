"""Whole-law citations that state a rule with no number (issue 21 item 2: 「wrong but silent」).

「根据《劳动法》，您有权获得工伤赔偿」 was role ``reference`` before (only a number made an
article-less citation ``whole_instrument``), so it was passed with no word. Now:

1. a modal of duty/right or a list of conditions routes it to ``whole_instrument``; advice to
   the reader (「可以采取以下措施」, 「可以向…申请」), named parties and convictions stay
   ``reference``;
2. an article of the law that holds the claim at ``Thresholds.whole_pin_containment`` is named
   as its pin (A ``supports``); otherwise the claim is not assessed (A ``skipped``, the
   ``no_pin`` gap) — never flagged: word overlap cannot tell its wrong claims from right ones;
3. the high-bar pin is told to the reader: 「（注：该说法见《X》第N条）」.

The statute texts each row relies on are checked in the store, so no row passes on a store
that lacks them. Rows 1–3 fail on the code before this change (role ``reference``, no pin, no
note); the numbered rule and the advice rows guard what must not move.
"""

from __future__ import annotations

from datetime import date

import pytest

from governor.api import Governor
from governor.core.config import Thresholds
from governor.core.gaps import coverage_gaps

AS_OF = date(2024, 6, 1)


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor()


ROLE_ROWS = [
    ("根据《劳动法》，您有权获得工伤赔偿。", "whole_instrument"),
    ("《土地管理法》规定宅基地的申请条件包括户籍和家庭人口。", "whole_instrument"),
    ("根据《劳动合同法》，用人单位不得扣押劳动者的居民身份证。", "whole_instrument"),
    ("根据《劳动法》，用人单位应当依法为劳动者缴纳住房公积金。", "whole_instrument"),
    ("根据《劳动法》，劳动者连续工作一年以上的，年休假为十五天。", "whole_instrument"),
    # who pays, from when a rule runs (fresh review 45: read as references, passed unchecked)
    ("根据《社会保险法》的规定，失业人员在领取失业保险金期间，由失业保险基金支付其基本医疗保险费。", "whole_instrument"),
    ("根据《劳动合同法》的规定，用人单位自用工之日起即与劳动者建立劳动关系。", "whole_instrument"),
    # advice, a named party, a conviction, the law named as the basis: nothing to resolve
    ("根据《劳动法》，您可以采取以下措施维护自己的权益。", "reference"),
    ("根据《劳动争议调解仲裁法》，您可以向劳动争议仲裁委员会申请仲裁。", "reference"),
    ("根据《民法典》，王某应当赔偿李某的损失。", "reference"),
    ("根据《刑法》，行为人的行为构成盗窃罪。", "reference"),
    ("法律依据是《劳动法》。", "reference"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "role"), ROLE_ROWS)
def test_role_of_a_law_cited_whole(gov: Governor, text: str, role: str) -> None:
    (v,) = gov.verify(text, as_of=AS_OF)
    assert v.citation.article is None
    assert v.citation.assertion is not None and v.citation.assertion.role == role


HOMESTEAD = "根据《土地管理法》，农村村民一户只能拥有一处宅基地，其宅基地的面积不得超过省、自治区、直辖市规定的标准。"


def test_an_article_holding_the_claim_is_named_and_told(gov: Governor) -> None:
    rec = gov.store.article("中华人民共和国土地管理法", "62", as_of=AS_OF)
    assert rec is not None and "农村村民一户只能拥有一处宅基地" in rec.text
    (v,) = gov.verify(HOMESTEAD, as_of=AS_OF)
    assert v.applicability.label == "supports" and "第62条" in v.applicability.rationale
    assert v.item_trust == 1.0 and not coverage_gaps((v,))
    r = gov.govern(HOMESTEAD, strategy="efa", as_of=AS_OF)
    assert "（注：该说法见《土地管理法》第六十二条）" in r.text
    assert r.text.count("（注：") == 1
    # the note is read as a note: a second run adds nothing and extracts no citation from it
    again = gov.govern(r.text, strategy="efa", as_of=AS_OF)
    assert again.text == r.text
    assert len(gov.verify(r.text, as_of=AS_OF)) == 1
    # a sentence repeated (degenerate answers do) is told once
    twice = gov.govern(HOMESTEAD + HOMESTEAD, strategy="efa", as_of=AS_OF)
    assert twice.text.count("（注：该说法见《土地管理法》第六十二条）") == 1


NOT_FOUND = [
    # 劳动法 has no 住房公积金 article (the 条例 does): wrong, but overlap cannot prove it
    ("根据《劳动法》，用人单位应当依法为劳动者缴纳住房公积金。", "中华人民共和国劳动法"),
    # right in substance (劳动法第七十三条 工伤), but no article holds these words
    ("根据《劳动法》，您有权获得工伤赔偿。", "中华人民共和国劳动法"),
    # a short generic clause is 0.8-contained in 劳动合同法第46条 (a list): no pin
    ("根据《中华人民共和国劳动合同法》，用人单位应当与劳动者协商一致。", "中华人民共和国劳动合同法"),
    # 第十二条 holds every word, but its 2/3 majority is for 第十一条（五）（六）, not 物业服务费: the
    # topic before the modal must be the article's (review seed 35, a harmful 「该说法见…第十二条」)
    ("根据《物业管理条例》的规定，物业服务费的调整，应当经专有部分占建筑物总面积2/3以上的业主且占总人数2/3以上的业主同意。", "物业管理条例"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "instrument"), NOT_FOUND)
def test_a_numberless_claim_not_held_is_a_gap_not_a_flag_nor_a_pass(
    gov: Governor, text: str, instrument: str
) -> None:
    (v,) = gov.verify(text, as_of=AS_OF)
    assert v.citation.assertion is not None and v.citation.assertion.role == "whole_instrument"
    assert v.applicability.label == "skipped" and v.fidelity.label == "not_assessed"
    assert f"no article of 《{instrument}》 was found stating the claim" in (
        v.applicability.rationale
    )
    assert "L1.1.2" not in v.taxonomy and v.item_trust == 1.0
    assert [g.kind for g in coverage_gaps((v,))] == ["no_pin"]  # said to the reader
    r = gov.govern(text, strategy="efa", as_of=AS_OF)
    assert r.text == text  # no note, no edit: nothing proven either way


def test_gpf_is_not_in_the_labour_law(gov: Governor) -> None:
    """The 住房公积金 row above is wrong: no article of 劳动法 mentions it."""
    hits = gov.retriever.search("住房公积金", instrument="中华人民共和国劳动法", as_of=AS_OF, k=50)
    assert not any("住房公积金" in rec.text for rec, _ in hits)


def test_the_numbered_path_still_flags(gov: Governor) -> None:
    """No article of 劳动法 states 十五天, but 第四十五条第二款 states 「连续工作一年以上的，享受
    带薪年休假」: the note names it and the figure it lacks, never 「《劳动法》中未见上述规定」
    (issue 22 harm review: that note is false when an article holds the rule)."""
    text = "根据《劳动法》，劳动者连续工作一年以上的，年休假为十五天。"
    (v,) = gov.verify(text, as_of=AS_OF)
    assert v.applicability.label == "irrelevant" and "L1.1.2" in v.taxonomy
    r = gov.govern(text, strategy="efa", as_of=AS_OF)
    assert "中未见上述规定" not in r.text and "该说法见" not in r.text, r.text
    assert "可能应为《劳动法》第四十五条第二款，但该款未规定「十五天」" in r.text, r.text
    assert r.text.count("可能应为") == 1, r.text


def test_the_pin_bar_lives_in_thresholds_and_decides(gov: Governor) -> None:
    """Above the fitted bar the pin is named; with the bar raised past the claim's
    containment the same claim is not assessed (the bar, not a constant, decides)."""
    from verifiers.roles import whole_instrument_outcome

    (v,) = gov.verify(HOMESTEAD, as_of=AS_OF)
    cit = v.citation
    assert cit.instrument is not None
    th = Thresholds()
    assert 0.5 < th.whole_pin_containment < 1.0
    _, a, _ = whole_instrument_outcome(
        cit, cit.instrument, gov.store, gov.retriever, as_of=AS_OF, th=th
    )
    assert a.label == "supports"
    strict = th.model_copy(update={"whole_pin_containment": 1.0, "whole_pin_min_chars": 200})
    _, a2, _ = whole_instrument_outcome(
        cit, cit.instrument, gov.store, gov.retriever, as_of=AS_OF, th=strict
    )
    assert a2.label == "skipped"


PAYER_AND_START = [
    (
        "根据《社会保险法》的规定，失业人员在领取失业保险金期间，由失业保险基金支付其基本医疗保险费。",
        "中华人民共和国社会保险法", "48", "基本医疗保险费从失业保险基金中支付",
        "（注：该说法见《社会保险法》第四十八条）",
    ),
    (
        "根据《劳动合同法》的规定，用人单位自用工之日起即与劳动者建立劳动关系。",
        "中华人民共和国劳动合同法", "7", "用人单位自用工之日起即与劳动者建立劳动关系",
        "（注：该说法见《劳动合同法》第七条）",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("text", "title", "art", "words", "note"), PAYER_AND_START)
def test_a_payer_or_start_rule_is_pinned_and_told(
    gov: Governor, text: str, title: str, art: str, words: str, note: str
) -> None:
    rec = gov.store.article(title, art, as_of=AS_OF)
    assert rec is not None and words in rec.text
    (v,) = gov.verify(text, as_of=AS_OF)
    assert v.applicability.label == "supports" and f"第{art}条" in v.applicability.rationale
    assert note in gov.govern(text, strategy="efa", as_of=AS_OF).text


LEAVE = (
    "问题：我是5月入职单位，现在已有5年工龄，但是现单位要求我必须在本单位工作满1年才能享受法定年休假，"
    "请问这样合法吗？\n\n回答：根据中国劳动法，雇员在连续工作满一年后，享有带薪年休假的权利。"
)


def test_a_claim_whose_only_number_is_the_askers_is_pinned_when_an_article_states_it(
    gov: Governor,
) -> None:
    """The claim's 一年 is also the question's (满1年): it is looked for in the law's articles
    before it is read as unsupported (fresh review 45, harmful: 「《劳动法》中未见上述规定」)."""
    rec = gov.store.article("中华人民共和国劳动法", "45", as_of=AS_OF)
    assert rec is not None and "劳动者连续工作一年以上的，享受带薪年休假" in rec.text
    (v,) = [v for v in gov.verify(LEAVE, as_of=AS_OF) if not v.citation.in_question]
    assert v.applicability.label == "supports" and "第45条" in v.applicability.rationale
    assert "未见上述规定" not in gov.govern(LEAVE, strategy="efa", as_of=AS_OF).text
