"""Issue 22 harm review (repair only with proof): three classes of harmful edits on the merged
main, each fixed as a class and checked on real store text.

1. A rewrite never pastes the cited article's text over words that describe another
   provision's subject — another offence (the 罪名 table), another article's text: the pin
   moves when proven (刑法第二百六十四条 → 第二百六十六条), else a note says what is wrong.
2. A rewrite never swaps the report's case for a provision's 下列情形 when the case is none of
   them (劳动法第二十六条 over a renewal claim; 劳动合同法第四十条): a note instead.
3. A law cited whole for a rule one of its 款/项 states (劳动法第四十四条第（三）项, 百分之三百)
   never gets 「《劳动法》中未见上述规定」: the 项 is named, or nothing is said.
"""

from __future__ import annotations

from datetime import date

import pytest

from governor.api import Governor
from governor.core.config import Config
from tests.statute_text import checked_text
from verifiers.conditions import unlisted_case
from verifiers.facts import quantities
from verifiers.roles import _same_figure

AS_OF = date(2023, 7, 1)
THEFT = "盗窃公私财物，数额较大的，或者多次盗窃"
LABOUR_26_LIST = "有下列情形之一的，用人单位可以解除劳动合同"


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor(Config())


def _ops(result: object) -> list[tuple[str, str, str]]:
    return [(e.op, e.before, e.after) for r in result.rounds for e in r.edits]  # type: ignore[attr-defined]


def test_fraud_text_under_theft_article_is_renumbered(gov: Governor) -> None:
    """「诈骗公私财物…」 is 刑法第二百六十六条's text: under 第二百六十四条 (盗窃罪) the pin moves,
    the words stay (main pasted the theft text over them)."""
    text = (
        "问题：甲虚构投资项目骗取他人钱财十万元，构成何罪？\n\n"
        "根据《中华人民共和国刑法》第二百六十四条：诈骗公私财物，数额较大的，处三年以下有期徒刑、"
        "拘役或者管制，并处或者单处罚金。"
    )
    r = gov.govern(text, strategy="efa", as_of=AS_OF)
    assert THEFT not in r.text, r.text
    assert "《中华人民共和国刑法》第二百六十六条：诈骗公私财物" in r.text, r.text
    assert all(op != "rewrite_description" for op, _, _ in _ops(r))


def test_fraud_definition_under_theft_article_gets_the_charge_note(gov: Governor) -> None:
    """A fraud description in other words (骗取) under 第二百六十四条, the report naming 诈骗罪:
    not the text of 第二百六十六条 (no proven move), so the note says which article defines
    诈骗罪 — never the theft text over the fraud words."""
    words = "以非法占有为目的，用虚构事实或者隐瞒真相的方法，骗取数额较大的公私财物的"
    text = (
        "问题：甲虚构投资项目骗取他人钱财十万元，构成何罪？\n\n"
        f"根据《中华人民共和国刑法》第二百六十四条规定：“{words}，处三年以下有期徒刑、拘役或者管制，"
        "并处或者单处罚金。”因此甲构成诈骗罪。"
    )
    r = gov.govern(text, strategy="efa", as_of=AS_OF)
    assert THEFT not in r.text, r.text
    assert words in r.text, r.text
    assert "诈骗罪见《刑法》第二百六十六条" in r.text, r.text


@pytest.mark.parametrize(
    "text",
    [
        # F partially_faithful: 「omits a condition」 would paste 第二十六条's three cases
        "问题：劳动合同到期，劳动者不愿续签，单位怎么办？\n\n根据《中华人民共和国劳动法》第二十六条规定，"
        "劳动合同期满，劳动者不同意续订劳动合同的，用人单位可以解除劳动合同，但是应当提前三十日以书面"
        "形式通知劳动者本人。",
        # F misdescribed: the quotation is a renewal rule, not 第二十六条's
        "问题：劳动合同到期后，用人单位不续签，需要提前通知吗？\n\n根据《中华人民共和国劳动法》第二十六条"
        "规定：“劳动合同期满，用人单位不续订劳动合同的，用人单位可以解除劳动合同，但是应当提前三十日以"
        "书面形式通知劳动者本人。”",
    ],
)
def test_unlisted_case_is_not_rewritten_into_the_list(gov: Governor, text: str) -> None:
    r = gov.govern(text, strategy="efa", as_of=AS_OF)
    assert LABOUR_26_LIST not in r.text, r.text
    assert "续订劳动合同" in r.text and "（注：" in r.text, r.text


def test_overextended_list_claim_gets_a_note_not_the_list(gov: Governor) -> None:
    """A ``list_rule`` verdict (「…which is none of the listed cases」) is the proof line itself:
    劳动合同法第四十条's three cases were pasted over a 期满终止 claim (main)."""
    text = (
        "问题：员工已满六十七岁，公司如何终止劳动关系？\n\n根据《中华人民共和国劳动合同法》第四十条规定，"
        "劳动者在合同期满前，用人单位应当提前三十日以书面形式通知劳动者终止劳动合同。"
    )
    r = gov.govern(text, strategy="efa", as_of=AS_OF)
    assert "有下列情形之一的" not in r.text, r.text
    assert "用人单位应当提前三十日以书面形式通知劳动者终止劳动合同" in r.text, r.text
    assert "该条文限于其所列情形" in r.text, r.text


@pytest.mark.parametrize(
    ("claim", "pin"),
    [
        # 十五日 is no figure of 第四十四条; 百分之三百 is its 第（三）项's
        (
            "根据《劳动法》的规定，法定节假日加班的，用人单位应当在十五日内支付不低于工资的百分之三百"
            "的工资报酬。",
            "可能应为《劳动法》第四十四条第（三）项",
        ),
        # 三倍 is 百分之三百: the article states the claim (no note at all)
        (
            "根据《劳动法》的相关规定，在春节等法定节假日期间上班，可以获得不低于三倍工资的报酬，即百分"
            "之三百。",
            None,
        ),
    ],
)
def test_whole_law_figure_is_found_in_its_item(gov: Governor, claim: str, pin: str | None) -> None:
    checked_text(
        gov,
        "中华人民共和国劳动法",
        "44",
        "法定休假日安排劳动者工作的，支付不低于工资的百分之三百",
        AS_OF,
    )
    r = gov.govern(f"问题：国庆节加班工资怎么算？\n\n{claim}", strategy="efa", as_of=AS_OF)
    assert "中未见上述规定" not in r.text, r.text
    if pin is not None:
        assert pin in r.text, r.text


def test_unlisted_case_on_the_statute_text(gov: Governor) -> None:
    art26 = checked_text(gov, "中华人民共和国劳动法", "26", "有下列情形之一的", AS_OF)
    assert (
        unlisted_case(
            "劳动合同期满，用人单位不续订劳动合同的，用人单位可以解除劳动合同，但是应当提前三十日以书面"
            "形式通知劳动者本人",
            art26,
        )
        == "劳动合同期满，用人单位不续订劳动合同的"
    )
    # a listed case (item 二) in the report's words, and the lead-in alone: no finding
    assert (
        unlisted_case("劳动者不能胜任工作，经过培训仍不能胜任的，用人单位可以解除劳动合同", art26)
        is None
    )
    assert unlisted_case("有下列情形之一的，用人单位可以解除劳动合同", art26) is None


def test_multiple_is_its_percentage() -> None:
    (three,) = quantities("三倍")
    (pct,) = quantities("百分之三百")
    (two,) = quantities("百分之二百")
    assert _same_figure(three, pct) and _same_figure(pct, three)
    assert not _same_figure(three, two)
