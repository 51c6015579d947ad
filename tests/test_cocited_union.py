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
