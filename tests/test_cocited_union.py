"""A sentence citing provisions of two instruments is judged on their union (issue 21 item 2,
「仅部分相关」 false alarms).

「根据《道路交通安全法》第七十六条以及《民法典》第一千一百七十九条，…由机动车一方承担赔偿责任，
赔偿范围包括医疗费…」: 第七十六条 holds the liability part, 第一千一百七十九条 the heads of damage.
The list rule (a member of the list ranked in the top five of the citation's own instrument)
never saw a member of another instrument, so 第一千一百七十九条 (rank 12 in 民法典 for the whole
claim) got 「该条文与上述结论仅部分相关」 for the part 第七十六条 holds. Now a member on topic
whose list holds the claim at ``applicability_partial_relevance`` — at least
``applicability_min_relevance`` more than the member alone — fits it. The first test fails on
the code before this change; the second guards that a member off topic is still flagged.
"""

from __future__ import annotations

from datetime import date

import pytest

from governor.api import Governor

AS_OF = date(2023, 7, 1)
ROAD = "中华人民共和国道路交通安全法"
CIVIL = "中华人民共和国民法典"
TEXT = (
    "问题：我骑电动车被汽车撞了，对方全责，怎么赔？\n\n根据《中华人民共和国道路交通安全法》第七十六条"
    "以及《中华人民共和国民法典》第一千一百七十九条，机动车与非机动车驾驶人之间发生交通事故，由机动车"
    "一方承担赔偿责任，赔偿范围包括医疗费、护理费、交通费、误工费等。"
)


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor()


def test_each_member_is_judged_on_its_part(gov: Governor) -> None:
    a76 = gov.store.article(ROAD, "76", as_of=AS_OF)
    assert a76 is not None and "机动车与非机动车驾驶人、行人之间发生交通事故" in a76.text
    assert "由机动车一方承担赔偿责任" in a76.text and "误工费" not in a76.text
    a1179 = gov.store.article(CIVIL, "1179", as_of=AS_OF)
    assert a1179 is not None and "医疗费、护理费、交通费" in a1179.text and "误工" in a1179.text
    vs = gov.verify(TEXT, as_of=AS_OF)
    assert [v.citation.article for v in vs] == ["76", "1179"]
    assert [v.applicability.label for v in vs] == ["supports", "supports"]
    assert "with the provisions cited with it" in vs[1].applicability.rationale
    r = gov.govern(TEXT, strategy="efa", as_of=AS_OF)
    assert "仅部分相关" not in r.text and "（注：" not in r.text


def test_a_member_off_topic_is_still_flagged(gov: Governor) -> None:
    text = TEXT.replace("第一千一百七十九条", "第一千零七十九条")  # 离婚 (off topic)
    vs = gov.verify(text, as_of=AS_OF)
    assert vs[1].citation.article == "1079"
    assert vs[1].applicability.label not in ("supports", "partially_supports")


LABOUR = "中华人民共和国劳动合同法"
BASIS = (
    "问题：我想问一下如何才能与公司解除合同并可要求公司给予补偿？\n\n可以与公司协商解除劳动合同，"
    "并要求公司按照劳动合同法的规定支付经济补偿金。具体的法律依据为《中华人民共和国劳动合同法》"
    "第三十六条、第{other}条规定。"
)


def test_a_basis_list_for_a_claim_of_two_parts_supports_each_part(gov: Governor) -> None:
    """Review seed 33: 第三十六条 (协商解除) and 第四十六条 (the 经济补偿 owed) cited for 「协商解除…，
    并要求公司…支付经济补偿金」 both got 「仅部分相关」: neither ranks high for the whole claim
    (12 and 9 in 劳动合同法). Each holds one part — 第三十六条 ranks first for 「可以与公司协商解除劳动
    合同」, 第四十六条's consequence 「应当向劳动者支付经济补偿」 is the other — so the list holds the
    claim. A member holding neither part (第八十二条, 二倍工资) is still failing."""
    a36 = gov.store.article(LABOUR, "36", as_of=AS_OF)
    a46 = gov.store.article(LABOUR, "46", as_of=AS_OF)
    assert a36 is not None and "协商一致，可以解除劳动合同" in a36.text
    assert a46 is not None and "应当向劳动者支付经济补偿" in a46.text
    vs = {v.citation.article: v for v in gov.verify(BASIS.format(other="四十六"), as_of=AS_OF)}
    assert vs["36"].applicability.label == "supports", vs["36"].applicability.rationale
    assert vs["46"].applicability.label == "supports", vs["46"].applicability.rationale
    out = gov.govern(BASIS.format(other="四十六"), strategy="efa", as_of=AS_OF).text
    assert "（注：" not in out, out
    vs = {v.citation.article: v for v in gov.verify(BASIS.format(other="八十二"), as_of=AS_OF)}
    assert vs["82"].applicability.label not in ("supports", "partially_supports")


@pytest.mark.parametrize(
    ("consequence", "core"),
    [
        ("应当向劳动者支付经济补偿", "支付经济补偿"),
        ("可以向人民法院提起诉讼", "向人民法院提起诉讼"),
        ("应当赔偿", ""),
    ],
)
def test_the_consequence_core_drops_the_modal_and_the_party_paid(
    consequence: str, core: str
) -> None:
    from verifiers.applicability import consequence_core

    assert consequence_core(consequence) == core
