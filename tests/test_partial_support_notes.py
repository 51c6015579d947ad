"""A citation judged ``partially_supports`` (on topic, not the provision the claim rests on)
is said in the text, not only in the report (issue 21 item 3; dev review seed 11: 25 of 27
such silent citations were wrong by the statute text)."""

from __future__ import annotations

from datetime import date

import pytest

from governor.api import Governor
from governor.authorities import load_default_store
from governor.core.config import load_config

AS_OF = date(2023, 7, 1)


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor(load_config(overrides={}, environ={}), store=load_default_store())


def test_partially_supporting_citation_gets_a_note(gov: Governor) -> None:
    # 劳动合同法第四十条 is a ground for dismissal; the 经济补偿 the answer asserts is 第四十六条
    text = (
        "问题：公司解除劳动合同要给经济补偿吗？\n回答：需要。\n"
        "法律依据：《中华人民共和国劳动合同法》第四十条"
    )
    (v,) = gov.verify(text, as_of=AS_OF)
    assert v.applicability.label == "partially_supports", v.applicability.rationale
    out = gov.govern(text, strategy="efa", as_of=AS_OF).text
    assert out.startswith(text)
    assert "（注：该条文与上述结论仅部分相关" in out[len(text) :]


def test_a_supporting_citation_gets_no_note(gov: Governor) -> None:
    text = (
        "问题：离婚后孩子的抚养费怎么算？\n回答：根据《民法典》第一千零八十四条，"
        "离婚后，父母对于子女仍有抚养、教育、保护的权利和义务。"
    )
    assert gov.govern(text, strategy="efa", as_of=AS_OF).text == text
