"""One item the report lists under a provision's 下列情形 that the provision does not list
(Fidelity step 4d), and lists recited on one line with 「；」 (review seed 35, wrong-but-silent:
劳动合同法第四十二条 given 「劳动者家庭暴力或者虐待家庭成员的」 among its 职业病 and 孕期 items). The
statute text is checked in the store; a faithful recital of the items stays faithful."""

from __future__ import annotations

import pytest

from governor.api import Governor
from tests.statute_text import DEV_AS_OF, checked_text
from verifiers.fidelity import report_items

LABOUR = "中华人民共和国劳动合同法"
LEAD = "根据《中华人民共和国劳动合同法》第四十二条，劳动者有下列情形之一的，用人单位不得依照本法规定解除劳动合同："
INVENTED = (
    LEAD + "劳动者在本单位患职业病或者因工负伤并被确认丧失或者部分丧失劳动能力的；"
    "劳动者家庭暴力或者虐待家庭成员的；劳动者在孕期、产期、哺乳期的。"
)
FAITHFUL = (
    LEAD + "在本单位患职业病或者因工负伤并被确认丧失或者部分丧失劳动能力的；"
    "患病或者非因工负伤，在规定的医疗期内的；女职工在孕期、产期、哺乳期的。"
)


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor()


def test_a_list_on_one_line_is_read_as_items() -> None:
    assert report_items("有下列情形之一的，不得解除：甲的；乙的；丙的。") == (
        "甲的",
        "乙的",
        "丙的",
    )
    assert report_items("（一）甲的；（二）乙的") == ("甲的", "乙的")
    assert report_items("不得解除劳动合同。") == ()


def test_one_invented_item_is_partially_faithful_and_quoted(gov: Governor) -> None:
    art = checked_text(gov, LABOUR, "42", "女职工在孕期、产期、哺乳期的", DEV_AS_OF)
    assert "家庭暴力" not in art
    (v,) = [v for v in gov.verify(INVENTED, as_of=DEV_AS_OF) if v.citation.article == "42"]
    assert v.fidelity.label == "partially_faithful", v.fidelity.rationale
    out = gov.govern(INVENTED, strategy="efa", as_of=DEV_AS_OF).text
    assert "该条文所列情形中并无「劳动者家庭暴力或者虐待家庭成员的」" in out, out
    assert "劳动者家庭暴力或者虐待家庭成员的；" in out  # a note, the report's words kept


def test_the_provisions_own_items_stay_faithful(gov: Governor) -> None:
    (v,) = [v for v in gov.verify(FAITHFUL, as_of=DEV_AS_OF) if v.citation.article == "42"]
    assert v.fidelity.label == "faithful", v.fidelity.rationale


def test_an_item_stating_the_article_its_item_refers_to_is_the_provisions(gov: Governor) -> None:
    """劳动合同法第三十九条（五） reads 「因本法第二十六条第一款第一项规定的情形致使劳动合同无效的」; a
    recital giving 第二十六条's own words for it lists the provision's item (dev qwen 3-8 170,
    a false alarm of step 4d before the referred articles were read)."""
    checked_text(
        gov, LABOUR, "39", "因本法第二十六条第一款第一项规定的情形致使劳动合同无效的", DEV_AS_OF
    )
    checked_text(gov, LABOUR, "26", "以欺诈、胁迫的手段或者乘人之危", DEV_AS_OF)
    text = (
        "根据《中华人民共和国劳动合同法》第三十九条，劳动者有下列情形之一的，用人单位可以解除劳动合同："
        "在试用期间被证明不符合录用条件的；严重违反用人单位的规章制度的；"
        "劳动者以欺诈、胁迫的手段或者乘人之危，使对方在违背真实意思的情况下订立或者变更劳动合同的。"
    )
    (v,) = [v for v in gov.verify(text, as_of=DEV_AS_OF) if v.citation.article == "39"]
    assert v.fidelity.label == "faithful", v.fidelity.rationale
