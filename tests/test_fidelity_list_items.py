"""What a report adds to a provision's list or text (verifiers.list_items, issue 21): items
recited on the lines after a 「下列…：」 lead, several invented items, an invented 但书 and an
invented sanction, each wrong-but-silent in the rev35 review of dev LawBench answers. Statute
texts are checked in the store; the provision's own words stay faithful."""

from __future__ import annotations

import pytest

from governor.api import Governor
from governor.citations.listed import introduced_items
from tests.statute_text import DEV_AS_OF, checked_text

LABOUR = "中华人民共和国劳动法"
CONTRACT = "中华人民共和国劳动合同法"
ROAD = "中华人民共和国道路交通安全法"

OVERTIME = (
    "问题：加班工资怎么算？\n\n根据《中华人民共和国劳动法》第四十四条规定，"
    "用人单位应当按照下列标准支付劳动者的加班工资：\n"
    "1. 安排劳动者延长工作时间的，支付不低于工资的百分之一百五十的工资报酬；\n"
    "2. 休息日安排劳动者工作又不能安排补休的，支付不低于工资的百分之二百的工资报酬；\n"
    "{third}\n因此，公司需要支付加班工资。\n"
)
INVENTED_THIRD = "3. 延长工作时间工资报酬的计算基数为正常工作时间工资。"
OWN_THIRD = "3. 法定休假日安排劳动者工作的，支付不低于工资的百分之三百的工资报酬。"


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor()


def _f(gov: Governor, text: str, article: str) -> tuple[str, str]:
    (v,) = [v for v in gov.verify(text, as_of=DEV_AS_OF) if v.citation.article == article]
    return v.fidelity.label, v.fidelity.rationale


def test_the_items_on_the_lines_after_a_lead_are_read() -> None:
    text = "应当按照下列标准支付：\n1. 甲的；\n2. 乙的。因此应当支付。\n"
    end = text.index("：")
    assert introduced_items(text, end, len(text), text[:end]) == ("甲的", "乙的")
    assert introduced_items("应当支付：\n1. 甲；\n2. 乙", 4, 99, "应当支付") == ()  # no lead


def test_an_invented_item_on_its_own_line_is_partially_faithful(gov: Governor) -> None:
    """劳动法第四十四条's third item is 法定休假日 300 %; the report's 「计算基数」 item restates
    the first item's words with 计算/基数, which the article has nowhere (rev35 silent_b 50)."""
    art = checked_text(gov, LABOUR, "44", "法定休假日安排劳动者工作的", DEV_AS_OF)
    assert "基数" not in art
    label, why = _f(gov, OVERTIME.format(third=INVENTED_THIRD), "44")
    assert label == "partially_faithful", why
    out = gov.govern(OVERTIME.format(third=INVENTED_THIRD), strategy="efa", as_of=DEV_AS_OF)
    assert "该条文所列情形中并无「延长工作时间工资报酬的计算基数为正常工作时间工资」" in out.text


def test_the_provisions_own_items_on_their_lines_stay_faithful(gov: Governor) -> None:
    label, why = _f(gov, OVERTIME.format(third=OWN_THIRD), "44")
    assert label == "faithful", why


def test_several_invented_items_are_each_quoted(gov: Governor) -> None:
    """劳动合同法第三十八条 given 劳动安全卫生, 职业培训 and 竞业限制 items (rev35 silent_b 77)."""
    art = checked_text(gov, CONTRACT, "38", "未及时足额支付劳动报酬的", DEV_AS_OF)
    assert "职业培训" not in art
    text = (
        "根据《中华人民共和国劳动合同法》第三十八条，用人单位有下列情形之一的，劳动者可以解除劳动"
        "合同：未按照劳动合同约定提供劳动保护或劳动条件；未及时足额支付劳动报酬；未依法为劳动者"
        "缴纳社会保险费；未提供符合劳动安全卫生要求的劳动环境；未及时足额为劳动者提供职业培训；"
        "未依照本法规定为劳动者提供竞业限制；法律、行政法规规定劳动者可以解除劳动合同的其他情形。"
    )
    label, why = _f(gov, text, "38")
    assert label == "partially_faithful", why
    out = gov.govern(text, strategy="efa", as_of=DEV_AS_OF).text
    assert "「未提供符合劳动安全卫生要求的劳动环境」、「未及时足额为劳动者提供职业培训」" in out, (
        out
    )


def test_an_invented_exception_is_misdescribed(gov: Governor) -> None:
    """劳动合同法第五十八条第二款 requires 二年以上 with no exception (rev35 silent_b 83)."""
    art = checked_text(gov, CONTRACT, "58", "订立二年以上的固定期限劳动合同", DEV_AS_OF)
    assert "但" not in art
    text = (
        "根据《劳动合同法》第五十八条，劳务派遣单位应当与被派遣劳动者订立二年以上的固定期限劳动"
        "合同，但是劳动合同可以约定不满二年的期限。"
    )
    label, why = _f(gov, text, "58")
    assert label == "misdescribed", why
    out = gov.govern(text, strategy="efa", as_of=DEV_AS_OF).text
    assert "该条文并无「但劳动合同可以约定不满二年的期限」的例外规定" in out, out


def test_the_provisions_own_exception_stays_faithful(gov: Governor) -> None:
    checked_text(gov, "中华人民共和国消费者权益保护法", "25", "但下列商品除外", DEV_AS_OF)
    text = (
        "根据《中华人民共和国消费者权益保护法》第二十五条，经营者采用网络、电视、电话、邮购等方式"
        "销售商品，消费者有权自收到商品之日起七日内退货，且无需说明理由，但下列商品除外。"
    )
    label, why = _f(gov, text, "25")
    assert label == "faithful", why


def test_an_invented_sanction_is_misdescribed(gov: Governor) -> None:
    """道路交通安全法第九十三条 warns and fines; it revokes no licence (rev35 silent_a 47)."""
    art = checked_text(gov, ROAD, "93", "予以口头警告，令其立即驶离", DEV_AS_OF)
    assert "吊销" not in art
    text = (
        "根据《中华人民共和国道路交通安全法》第九十三条，对违反道路交通安全法律、法规关于机动车"
        "停放、临时停车规定的，可以指出违法行为，并予以口头警告、罚款或者吊销机动车驾驶证。"
    )
    label, why = _f(gov, text, "93")
    assert label == "misdescribed", why
    own = (
        "根据《中华人民共和国道路交通安全法》第九十三条，对违反道路交通安全法律、法规关于机动车"
        "停放、临时停车规定的，可以指出违法行为，并予以口头警告，令其立即驶离。"
    )
    label, why = _f(gov, own, "93")
    assert label == "faithful", why
