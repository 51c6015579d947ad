"""Harmful-edit classes from last round's review (issue 22 items 4–5): a restored 但书 never
splits the sentence it qualifies, and a removal never leaves a clause without its predicate
(the citation is kept with a note instead)."""

from __future__ import annotations

from datetime import date

import pytest

from governor.api import Governor
from governor.core.config import Config
from governor.revision.invariants import violations

AS_OF = date(2023, 7, 1)
NOTE = "（注：原引条文经核查不存在，请核实）"


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor(Config())


@pytest.mark.parametrize(
    ("text", "kind", "broken"),
    [
        (f"但是，在赡养父母的问题上{NOTE}。", "orphan_object", True),
        ("但是，在赡养父母的问题上。", "orphan_object", True),
        ("在赡养父母的问题上，法律有明确规定。", "orphan_object", False),
        ("在此基础上，双方应协商。", "orphan_object", False),
        ("在本案中，甲方违约。", "orphan_object", False),
        (
            f"可以保护归侨的房产权益{NOTE}。该条规定：“归侨的合法权益受到侵犯的，可以起诉。”",
            "dangling_ref",
            True,
        ),
        (
            "根据《归侨侨眷权益保护法》第三十八条，可以保护。该条规定：“可以起诉。”",
            "dangling_ref",
            False,
        ),
        ("双方约定了付款条件。该条件成就后付款。", "dangling_ref", False),
        (f"有明确规定{NOTE}{NOTE}。", "double_note", True),
        (f"有明确规定{NOTE}。另见{NOTE}。", "double_note", False),
    ],
)
def test_reading_invariant(text: str, kind: str, broken: bool) -> None:
    kinds = [v.kind for v in violations(text)]
    assert (kind in kinds) is broken, kinds


def test_proviso_closes_its_sentence(gov: Governor) -> None:
    """保险法第二十一条: the 但书 goes after 「保险人不承担赔偿责任」, not between 「难以确定的」
    and it (「难以确定的，但…除外，保险人不承担…」 is a broken sentence)."""
    text = (
        "根据《保险法》第二十一条规定：“保险事故发生后，投保人、被保险人应当及时通知保险人。"
        "故意或者因重大过失未及时通知，致使保险事故的性质、原因、损失程度等难以确定的，"
        "保险人不承担赔偿责任。”"
    )
    out = gov.govern(text, strategy="efa", as_of=AS_OF).text
    assert "难以确定的，保险人不承担赔偿责任" in out, out
    if "除外" in out:
        assert "保险人不承担赔偿责任，但保险人通过其他途径" in out, out


def test_removal_keeps_predicate(gov: Governor) -> None:
    """婚姻法 has no 第一千零七十一条, but removing 「，《婚姻法》…有明确规定」 leaves 「但是，在赡养
    父母的问题上（注…）。」: the citation stays, with one note."""
    text = "但是，在赡养父母的问题上，《婚姻法》第一千零七十一条有明确规定。子女应当赡养父母。"
    out = gov.govern(text, strategy="efa", as_of=AS_OF).text
    assert "《婚姻法》第一千零七十一条有明确规定" in out, out
    assert "（注：" in out, out
    kinds = [v.kind for v in violations(out)]
    assert "orphan_object" not in kinds and "double_note" not in kinds, (out, kinds)


def test_removal_keeps_what_a_later_gaitiao_refers_to(gov: Governor) -> None:
    """归侨侨眷权益保护法 has 30 articles, so 第三十八条 does not exist; removing 「根据《…》第三十八条，」
    left the next sentence's 「该条规定：“…”」 referring to nothing (dev 3-2 chatglm2-6b 263, judged
    harmful in the seed-13 review): the citation stays, with a note."""
    text = (
        "问题：一名归侨在回国时发现自己的房产被非法占用。根据哪条法律可以保护归侨的房产权益？\n\n"
        "根据《归侨侨眷权益保护法》第三十八条，可以保护归侨的房产权益。该条规定：“归侨、侨眷的合法"
        "权益受到侵犯的，可以依法向人民法院提起诉讼。”因此，归侨可以依法向人民法院提起诉讼。"
    )
    out = gov.govern(text, strategy="efa", as_of=AS_OF).text
    assert "《归侨侨眷权益保护法》第三十八条" in out, out
    assert "（注：" in out, out
    assert "dangling_ref" not in [v.kind for v in violations(out)], out


@pytest.mark.parametrize(
    ("text", "wrong"),
    [
        # 合同法第一百七十七条 is 供用电合同的内容 (successor 民法典第六百四十九条); cited for breach
        # liability, 「违约责任」 once led the note to 民法典第五百六十六条 (解除的效力)
        (
            "根据合同法第一百七十七条规定，当事人对违约方的违约行为有证据的，"
            "可以请求违约方承担违约责任，包括赔偿损失。",
            "第五百六十六条",
        ),
    ],
)
def test_repeal_note_names_no_wrong_successor(gov: Governor, text: str, wrong: str) -> None:
    out = gov.govern(text, strategy="efa", as_of=AS_OF).text
    assert "废止" in out, out
    assert wrong not in out, out
    assert "相应规定见" not in out, out
