"""Numbers, modality and 但书 facts used by the fidelity judge (real provision texts)."""

from __future__ import annotations

import pytest

from verifiers.facts import (
    mentions_exception,
    modality_flips,
    number_mismatches,
    provisos,
    quantities,
)

# 民法典第一百八十八条第一款 (real text)
ART_188 = "向人民法院请求保护民事权利的诉讼时效期间为三年。法律另有规定的，依照其规定。"
# 民法典第二百零九条第一款
ART_209 = "不动产物权的设立、变更、转让和消灭，经依法登记，发生效力；未经登记，不发生效力，但是法律另有规定的除外。"
# 道路交通安全法第九十一条 (first sentence)
ART_91 = "饮酒后驾驶机动车的，处暂扣六个月机动车驾驶证，并处一千元以上二千元以下罚款。"
# 劳动合同法第四十六条 (lead)
ART_46 = "有下列情形之一的，用人单位应当向劳动者支付经济补偿："


@pytest.mark.parametrize(
    "text,expected",
    [
        ("诉讼时效期间为三年", [(3.0, "年")]),
        ("处十五日以下拘留", [(15.0, "日")]),
        ("暂扣六个月", [(6.0, "月")]),
        ("并处一千元以上二千元以下罚款", [(1000.0, "元"), (2000.0, "元")]),
        ("百分之三十", [(30.0, "%")]),
        ("30％的违约金", [(30.0, "%")]),
        ("二分之一以上", [(0.5, "比例")]),
        ("5万元", [(50000.0, "元")]),
        ("已满十六周岁", [(16.0, "周岁")]),
        ("二倍的工资", [(2.0, "倍")]),
        ("自2021年1月1日起施行", []),  # a date is not a period
        ("第一百八十八条", []),  # an article number is not a quantity
    ],
)
def test_quantities(text: str, expected: list[tuple[float, str]]) -> None:
    assert [(q.value, q.unit) for q in quantities(text)] == expected


def test_quantity_offsets_index_the_text() -> None:
    text = "期间为二年。"
    (q,) = quantities(text)
    assert text[q.start : q.end] == "二年"


@pytest.mark.parametrize(
    "description,source,found,expected",
    [
        ("诉讼时效期间为二年", ART_188, "二年", "三年"),
        ("暂扣三个月机动车驾驶证", ART_91, "三个月", "六个月"),
        ("并处五百元罚款", ART_91, "五百元", "一千元"),
    ],
)
def test_number_mismatch(description: str, source: str, found: str, expected: str) -> None:
    (mm,) = number_mismatches(description, source)
    assert (mm.found.text, mm.expected.text) == (found, expected)


@pytest.mark.parametrize(
    "description,source",
    [
        ("诉讼时效期间为三年", ART_188),
        ("并处一千元以上二千元以下罚款", ART_91),
        ("我借给他五万元", ART_188),  # a unit the source never states is not judged
    ],
)
def test_no_number_mismatch(description: str, source: str) -> None:
    assert number_mismatches(description, source) == ()


def test_modality_flip_detected_and_not_when_same() -> None:
    (flip,) = modality_flips("用人单位可以支付经济补偿", ART_46)
    assert (flip.found.word, flip.expected.modality) == ("可以", "obligation")
    assert modality_flips("用人单位应当支付经济补偿", ART_46) == ()
    assert modality_flips("用人单位应当支付经济补偿", ART_188) == ()  # predicate absent


def test_proviso_found_with_its_rule() -> None:
    (p,) = provisos(ART_209)
    assert p.text == "但是法律另有规定的除外"
    assert p.rule.endswith("不发生效力")
    assert ART_209[p.start : p.end] == p.text
    assert provisos(ART_188) == ()


@pytest.mark.parametrize(
    "text,expected",
    [
        ("不动产物权经登记发生效力", False),
        ("但是法律另有规定的除外", True),
        ("另有规定的依照其规定", True),
    ],
)
def test_mentions_exception(text: str, expected: bool) -> None:
    assert mentions_exception(text) is expected
