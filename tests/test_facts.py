"""Numbers, modality, 但书, polarity and condition facts used by the fidelity judge.

Provision texts are real (民法典, 劳动法, 劳动合同法, 道路交通安全法, 票据法, 妇女权益保障法).
"""

from __future__ import annotations

import pytest

from verifiers.facts import (
    dropped_conditions,
    mentions_exception,
    modality_flips,
    negated_terms,
    number_mismatches,
    polarity_swaps,
    provisos,
    quantities,
)
from verifiers.textsim import align_clauses, normalize, normalize_mapped, verbatim_share

# 民法典第一百八十八条第一款 (real text)
ART_188 = "向人民法院请求保护民事权利的诉讼时效期间为三年。法律另有规定的，依照其规定。"
# 民法典第二百零九条第一款
ART_209 = "不动产物权的设立、变更、转让和消灭，经依法登记，发生效力；未经登记，不发生效力，但是法律另有规定的除外。"
# 道路交通安全法第九十一条 (first sentence)
ART_91 = "饮酒后驾驶机动车的，处暂扣六个月机动车驾驶证，并处一千元以上二千元以下罚款。"
# 劳动合同法第四十六条 (lead)
ART_46 = "有下列情形之一的，用人单位应当向劳动者支付经济补偿："
ART_564 = (  # 民法典第五百六十四条第二款
    "法律没有规定或者当事人没有约定解除权行使期限，自解除权人知道或者应当知道解除事由之日起一年内"
    "不行使，或者经对方催告后在合理期限内不行使的，该权利消灭。"
)


@pytest.mark.parametrize(
    "text,expected",
    [
        ("诉讼时效期间为三年", [(36.0, "月")]),  # periods in months: 年 = 12 个月
        ("处十五日以下拘留", [(15.0, "日")]),
        ("暂扣六个月", [(6.0, "月")]),
        ("两周内", [(14.0, "日")]),
        ("并处一千元以上二千元以下罚款", [(1000.0, "元"), (2000.0, "元")]),
        ("百分之三十", [(30.0, "%")]),
        ("30％的违约金", [(30.0, "%")]),
        ("二分之一以上", [(50.0, "%")]),
        ("千分之五", [(0.5, "%")]),
        ("万分之五", [(0.05, "%")]),
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
        # a period in another unit is the same quantity (helper-14 review: 十八个月 vs 三年)
        ("诉讼时效期间为十八个月", ART_188, "十八个月", "三年"),
        ("自知道解除事由之日起六个月内不行使", ART_564, "六个月", "一年"),
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
        ("诉讼时效期间为三十六个月", ART_188),  # 三年 in months
        ("自知道解除事由之日起三十日内不行使", ART_564),  # days are not months
    ],
)
def test_no_number_mismatch(description: str, source: str) -> None:
    assert number_mismatches(description, source) == ()


def test_modality_flip_detected_and_not_when_same() -> None:
    (flip,) = modality_flips("用人单位可以支付经济补偿", ART_46)
    assert (flip.found.word, flip.expected.modality) == ("可以", "obligation")
    assert modality_flips("用人单位应当支付经济补偿", ART_46) == ()
    assert modality_flips("用人单位应当支付经济补偿", ART_188) == ()  # predicate absent


# 集成电路布图设计行政执法办法第二条第三款 (real text)
ART_IC_2 = (
    "各省、自治区、直辖市的知识产权局应当协助、配合国家知识产权局开展集成电路布图设计行政执法工作。"
)
# 安全生产法第四十一条第二款 (last sentence)
ART_SAFETY_41 = "其中，重大事故隐患排查治理情况应当及时向负有安全生产监督管理职责的部门和职工大会或者职工代表大会报告。"


@pytest.mark.parametrize(
    "description,source,flipped",
    [
        # the addressee of 向 is the report's act's addressee; in the source the same words
        # are the object of 协助、配合: no modality is said about 投诉
        ("A公司可以向国家知识产权局投诉B公司", ART_IC_2, None),
        # the same addressee after 向 in the source: a real flip (应当 → 可以)
        ("用人单位可以向劳动者支付经济补偿", ART_46, "obligation"),
        ("重大事故隐患排查治理情况可以向负有安全生产监督管理职责的部门报告", ART_SAFETY_41, "obligation"),
        ("重大事故隐患排查治理情况应当及时向负有安全生产监督管理职责的部门报告", ART_SAFETY_41, None),
    ],
)  # fmt: skip
def test_modality_flip_of_an_addressee(description: str, source: str, flipped: str | None) -> None:
    flips = modality_flips(description, source)
    assert [f.expected.modality for f in flips][:1] == ([flipped] if flipped else [])


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


# 劳动法第四十四条: three rates; 二百 belongs to 休息日, 三百 to 法定休假日
ART_44 = (
    "有下列情形之一的，用人单位应当按照下列标准支付高于劳动者正常工作时间工资的工资报酬：\n"
    "（一）安排劳动者延长工作时间的，支付不低于工资的百分之一百五十的工资报酬；\n"
    "（二）休息日安排劳动者工作又不能安排补休的，支付不低于工资的百分之二百的工资报酬；\n"
    "（三）法定休假日安排劳动者工作的，支付不低于工资的百分之三百的工资报酬。"
)
# 劳动合同法第四十条 (lead and first item)
ART_40 = (
    "有下列情形之一的，用人单位提前三十日以书面形式通知劳动者本人或者额外支付劳动者一个月工资"
    "后，可以解除劳动合同：\n（一）劳动者患病或者非因工负伤，在规定的医疗期满后不能从事原工作，"
    "也不能从事由用人单位另行安排的工作的；"
)
# 票据法第十二条: the same consequence in two sentences with different conditions
ART_12 = (
    "以欺诈、偷盗或者胁迫等手段取得票据的，或者明知有前列情形，出于恶意取得票据的，不得享有票据权利。\n"
    "持票人因重大过失取得不符合本法规定的票据的，也不得享有票据权利。"
)
# 民法典第一百四十四条, 第一百八十条第一款, 第六百八十六条第二款
ART_144 = "无民事行为能力人实施的民事法律行为无效。"
ART_180 = "因不可抗力不能履行民事义务的，不承担民事责任。法律另有规定的，依照其规定。"
ART_686 = "当事人在保证合同中对保证方式没有约定或者约定不明确的，按照一般保证承担保证责任。"


@pytest.mark.parametrize(
    "description,found,expected",
    [
        ("法定休假日安排劳动者工作的，支付不低于工资的百分之二百的工资报酬", "百分之二百", "百分之三百"),
        ("休息日安排劳动者工作又不能安排补休的，支付不低于工资的百分之三百的工资报酬", "百分之三百", "百分之二百"),
        ("安排劳动者延长工作时间的，支付不低于工资的百分之二百的工资报酬", "百分之二百", "百分之一百五十"),
    ],
)  # fmt: skip
def test_number_that_exists_elsewhere_is_still_wrong_in_its_clause(
    description: str, found: str, expected: str
) -> None:
    (mm,) = number_mismatches(description, ART_44)
    assert (mm.found.text, mm.expected.text) == (found, expected)
    assert ART_44[mm.expected.start : mm.expected.end] == expected


@pytest.mark.parametrize(
    "description",
    [
        "法定休假日安排劳动者工作的，支付不低于工资的百分之三百的工资报酬",
        "休息日安排劳动者工作又不能安排补休的，支付不低于工资的百分之二百的工资报酬",
        # rates listed in one clause: no clause of the source is restated around them
        "延长工作时间付百分之一百五十，休息日付百分之二百，法定休假日付百分之三百",
        "我每天加班两小时，老板只付了百分之二百",  # facts of a case
    ],
)
def test_numbers_in_their_right_clause_pass(description: str) -> None:
    assert number_mismatches(description, ART_44) == ()


@pytest.mark.parametrize(
    "description,source,found,expected,kind",
    [
        ("无民事行为能力人实施的民事法律行为有效", ART_144, "有效", "无效", "validity"),
        ("当事人在保证合同中对保证方式没有约定或者约定不明确的，按照连带责任保证承担保证责任",
         ART_686, "连带责任", "一般", "liability"),
        ("因不可抗力不能履行民事义务的，承担民事责任", ART_180, "承担", "不承担", "negation"),
        ("饮酒后驾驶机动车的，处暂扣六个月机动车驾驶证，并处一千元以上二千元以上罚款", ART_91,
         "以上", "以下", "bound"),
        ("有下列情形之一的，用人单位可以向劳动者支付经济补偿", ART_46, "可以", "应当", "modality"),
        ("抵押权人应当通知抵押人", "抵押人应当通知抵押权人", "抵押权人", "抵押人", "role"),
    ],
)  # fmt: skip
def test_polarity_swap(description: str, source: str, found: str, expected: str, kind: str) -> None:
    swaps = polarity_swaps(description, source)
    sw = swaps[0]
    assert (sw.found, sw.expected, sw.kind) == (found, expected, kind)
    assert description[sw.start : sw.end] == found
    assert source[sw.source_start : sw.source_end] == expected
    # replacing the found words by the expected ones restores that part of the source's clause
    fixed = description[: sw.start] + expected + description[sw.end :]
    assert len(polarity_swaps(fixed, source)) == len(swaps) - 1


@pytest.mark.parametrize(
    "description,source",
    [
        (ART_144, ART_144),  # verbatim
        ("无民事行为能力人实施的民事法律行为，没有法律效力", ART_144),  # paraphrase, same polarity
        ("限制民事行为能力人实施的纯获利益的民事法律行为有效", ART_144),  # another rule
        ("合同有效", "合同无效"),  # too short to be a restatement
        ("因不可抗力不能履行民事义务的，不承担民事责任", ART_180),
        # the forfeiture rule restated as the equivalent duty
        ("解除权人应当自知道或者应当知道解除事由之日起一年内行使", ART_564),
    ],
)
def test_no_polarity_swap(description: str, source: str) -> None:
    assert polarity_swaps(description, source) == ()


@pytest.mark.parametrize(
    "description,source,condition",
    [
        ("有下列情形之一的，用人单位可以解除劳动合同", ART_40,
         "用人单位提前三十日以书面形式通知劳动者本人或者额外支付劳动者一个月工资后"),
        ("用人单位可以解除劳动合同。", ART_40,
         "用人单位提前三十日以书面形式通知劳动者本人或者额外支付劳动者一个月工资后"),
    ],
)  # fmt: skip
def test_dropped_condition(description: str, source: str, condition: str) -> None:
    (dc,) = dropped_conditions(description, source)
    assert dc.condition == condition and dc.consequence == "可以解除劳动合同"
    assert source[dc.start : dc.end] == condition and not dc.exception


@pytest.mark.parametrize(
    "description,source,also_said",
    [
        # the condition kept
        ("有下列情形之一的，用人单位提前三十日以书面形式通知劳动者本人或者额外支付劳动者一个月工资"
         "后，可以解除劳动合同", ART_40, ""),
        # the condition stated in the claim around the description
        ("用人单位可以解除劳动合同", ART_40, "用人单位提前三十日以书面形式通知劳动者本人后"),
        # a paraphrase of the consequence is not judged
        ("单位能够与劳动者解约", ART_40, ""),
        # the same consequence in another sentence has its own condition: not this one's
        ("以欺诈、偷盗或者胁迫等手段取得票据的，或者明知有前列情形，出于恶意取得票据的，不得享有票据权利",
         ART_12, ""),
        # a list placeholder (有下列情形之一的) is restated by its items, not dropped
        ("劳动者患病或者非因工负伤，在规定的医疗期满后不能从事原工作，也不能从事由用人单位另行安排的工作的",
         ART_40, ""),
    ],
)  # fmt: skip
def test_no_dropped_condition(description: str, source: str, also_said: str) -> None:
    assert dropped_conditions(description, source, also_said=also_said) == ()


def test_proviso_of_its_own_sentence_is_not_split() -> None:
    # 妇女权益保障法第四十八条第二款: 「但是，…的除外」 stands after 。; its 「…的除外」 is not a
    # second 但书 whose rule would be 「但是，用人单位依法解除…」
    text = (
        "女职工在怀孕以及依法享受产假期间，劳动（聘用）合同或者服务协议期满的，劳动（聘用）合同或者"
        "服务协议期限自动延续至产假结束。但是，用人单位依法解除、终止劳动（聘用）合同、服务协议，"
        "或者女职工依法要求解除、终止劳动（聘用）合同、服务协议的除外。"
    )
    assert provisos(text) == ()


@pytest.mark.parametrize(
    "text",
    ["（一）１６周岁，\u200b 应当！", "罚款5000元，自2021年1月1日起", "第17条之一 abc", ""],
)
def test_normalize_mapped_agrees_with_normalize(text: str) -> None:
    n = normalize_mapped(text)
    assert n.chars == normalize(text) and len(n.spans) == len(n.chars)
    assert all(0 <= a < b <= len(text) for a, b in n.spans)


def test_alignment_maps_back_to_the_source() -> None:
    desc = "法定休假日安排劳动者工作的，支付不低于工资的百分之二百的工资报酬"
    (al,) = align_clauses(desc, ART_44)
    assert "法定休假日" in al.src.text and al.coverage > 0.9
    start, end = al.src.original(0, len(al.src.chars))
    assert ART_44[al.src_offset + start : al.src_offset + end].startswith("三）法定休假日")


@pytest.mark.parametrize(
    "part,whole,share",
    [
        ("违约方应当赔偿损失", "违约方应当赔偿损失。", 1.0),
        ("违约方应当赔偿损失", "对方应当采取适当措施防止损失的扩大", 0.0),  # fragments only
        ("", "任何文本", 0.0),
    ],
)
def test_verbatim_share(part: str, whole: str, share: float) -> None:
    assert verbatim_share(part, whole) == pytest.approx(share)


def test_a_modal_inside_a_negated_frame_is_no_flip() -> None:
    # 指导案例24号: 「不属于可以减轻侵权人责任的法定情形」 — 「不能减轻」 restates it, not a flip
    source = (
        "交通事故的受害人没有过错，其体质状况对损害后果的影响不属于可以减轻侵权人责任的法定情形。"
    )
    assert modality_flips("受害人的体质状况不能减轻侵权人责任", source) == ()


# 医疗器械注册与备案管理办法第七十二条 / 第六十八条 (lead), 社会保险法第八十四条 (real texts)
ART_MD_72 = (
    "纳入创新产品注册程序的医疗器械，申请人在规定期限内未提出注册申请的，不再适用创新产品注册程序。"
)
ART_MD_68 = "符合下列要求的医疗器械，申请人可以申请适用创新产品注册程序："
ART_SI_84 = (
    "用人单位不办理社会保险登记的，由社会保险行政部门责令限期改正；逾期不改正的，对用人单位处应缴"
    "社会保险费数额一倍以上三倍以下的罚款，对其直接负责的主管人员和其他直接责任人员处五百元以上三千元"
    "以下的罚款。"
)


@pytest.mark.parametrize(
    "description,source,negated",
    [
        # the candidate puts 不再 before the report's words: the opposite rule
        ("医疗器械注册申请人可以申请适用创新产品注册程序", ART_MD_72, ("适用创新产品注册程序",)),
        # the same polarity: the rule itself
        ("医疗器械注册申请人可以申请适用创新产品注册程序", ART_MD_68, ()),
        # the negated words are a sanction's condition (「不办理…的，」): the duty restated
        ("用人单位应当办理社会保险登记", ART_SI_84, ()),
        # the report negates, the source states a condition: the same mirror, not counted
        ("用人单位不得拒绝办理社会保险登记", "用人单位办理社会保险登记的，应当如实申报。", ()),
    ],
)
def test_negated_terms(description: str, source: str, negated: tuple[str, ...]) -> None:
    assert negated_terms(description, source) == negated
