"""Fidelity beyond verbatim (issue 15 item 5) and the stale 24 % rate (issue 15 table row):
a paraphrase that drops a 但书, numbers compared across forms, fixed rate vs LPR multiple."""

from __future__ import annotations

from datetime import date

import pytest

from governor.api import Governor
from governor.authorities import load_default_store
from governor.core.config import load_config
from governor.core.models import Verdict
from verifiers.facts import number_mismatches, rate_form_mismatches

LPR_SOURCE = "但是双方约定的利率超过合同成立时一年期贷款市场报价利率四倍的除外。"


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor(load_config(overrides={}, environ={}), store=load_default_store())


def last(gov: Governor, text: str, as_of: date) -> Verdict:
    return gov.verify(text, as_of=as_of)[-1]


@pytest.mark.parametrize(
    "description,source,found,expected",
    [
        ("按日加收滞纳税款千分之五的滞纳金", "按日加收滞纳税款万分之五的滞纳金", "千分之五", "万分之五"),
        ("按日加收滞纳税款0.5%的滞纳金", "按日加收滞纳税款万分之五的滞纳金", "0.5%", "万分之五"),
        ("超过年利率24%的部分无效", LPR_SOURCE, "24%", "四倍"),
        ("年利率百分之三十六以上的部分无效", LPR_SOURCE, "百分之三十六", "四倍"),
    ],
)  # fmt: skip
def test_numbers_compared_across_forms(
    description: str, source: str, found: str, expected: str
) -> None:
    mm = number_mismatches(description, source)
    assert [(m.found.text, m.expected.text) for m in mm] == [(found, expected)]


@pytest.mark.parametrize(
    "description,source",
    [
        ("按日加收滞纳税款万分之五的滞纳金", "按日加收滞纳税款万分之五的滞纳金"),
        ("按日加收滞纳税款0.05%的滞纳金", "按日加收滞纳税款万分之五的滞纳金"),
        ("二分之一以上的股东同意", "经全体股东百分之五十以上同意"),
        ("利率不得超过四倍贷款市场报价利率", LPR_SOURCE),
        ("出资比例为30%", LPR_SOURCE),  # a percentage that is not a rate
    ],
)  # fmt: skip
def test_equal_values_in_other_forms_agree(description: str, source: str) -> None:
    assert number_mismatches(description, source) == ()
    assert rate_form_mismatches(description, source) == () or "利率" not in description


@pytest.mark.parametrize(
    "text,label,code",
    [
        # the foreseeability 但书 of 民法典第五百八十四条 dropped in a paraphrase
        ("守约方可以要求赔偿全部损失，包括预期利益（《民法典》第584条）。", "partially_faithful", "L1.2.3"),
        # the same rule with its 但书 kept
        ("违约方赔偿的损失包括合同履行后可以获得的利益，但是不得超过违约一方订立合同时预见到或者应当预见到的损失（《民法典》第584条）。", "faithful", None),
        # a 但书 of another 款 is not omitted from a restatement of this one (第六十二条: the
        # 保密 proviso restricts 第二款's internet publication, not 第一款's ten days)
        ("公安机关交通管理部门应当自现场调查之日起十日内制作道路交通事故认定书（《道路交通事故处理程序规定》第六十二条）。", "faithful", None),
        ("有条件的地方公安机关交通管理部门可以试行在互联网公布道路交通事故认定书（《道路交通事故处理程序规定》第六十二条）。", "partially_faithful", "L1.2.3"),
        # numbers in another form
        ("纳税人未按照规定期限缴纳税款的，税务机关除责令限期缴纳外，从滞纳税款之日起，按日加收滞纳税款千分之五的滞纳金（《税收征收管理法》第三十二条）。", "misdescribed", "L1.2.2"),
        ("纳税人未按照规定期限缴纳税款的，税务机关除责令限期缴纳外，从滞纳税款之日起，按日加收滞纳税款万分之五的滞纳金（《税收征收管理法》第三十二条）。", "faithful", None),
        ("出借人请求借款人按照合同约定利率支付利息的，人民法院应予支持，但是双方约定的利率超过年利率24%的除外（《民间借贷规定》第二十五条）。", "misdescribed", "L1.2.2"),
        # issue 21: a sanction the provision lacks (刑法第十七条第二款 sets ages, no term)
        ("已满十六周岁的人犯故意杀人罪的，处十年以上有期徒刑，可以并处没收财产（《刑法》第十七条第二款）。", "misdescribed", "L1.2.2"),
        # issue 21: a liability kind the provision lacks (民法典第一千二百零九条: 使用人 is liable)
        ("租赁机动车发生交通事故的，由机动车管理人与使用人承担连带责任（《民法典》第一千二百零九条）。", "misdescribed", "L1.2.2"),
        ("租赁机动车发生交通事故，属于该机动车一方责任的，由机动车使用人承担赔偿责任（《民法典》第一千二百零九条）。", "faithful", None),
        # the same article's ages restated: no sanction stated, faithful
        ("已满十四周岁不满十六周岁的人，犯故意杀人、故意伤害致人重伤或者死亡、强奸、抢劫、贩卖毒品、放火、爆炸、投放危险物质罪的，应当负刑事责任（《刑法》第十七条第二款）。", "faithful", None),
    ],
)  # fmt: skip
def test_fidelity_beyond_verbatim(gov: Governor, text: str, label: str, code: str | None) -> None:
    v = last(gov, text, date(2025, 1, 1))
    assert v.fidelity.label == label, v.fidelity.rationale
    if code is not None:
        assert code in v.taxonomy


@pytest.mark.parametrize(
    "text,as_of",
    [
        ("…借款年利率超过24%的部分无效（《民间借贷规定》第十二条）。", date(2024, 6, 1)),
        ("借款年利率超过百分之二十四的部分，人民法院不予支持（《民间借贷规定》第二十六条）。", date(2024, 6, 1)),
    ],
)  # fmt: skip
def test_fixed_rate_in_a_2024_report_is_stale(gov: Governor, text: str, as_of: date) -> None:
    v = last(gov, text, as_of)
    assert v.applicability.label != "supports"
    assert "STALE" in v.taxonomy, v.applicability.rationale
    assert "四倍" in v.applicability.rationale and "贷款市场报价利率" in v.applicability.rationale
    assert v.suggestion is not None and "四倍" in v.suggestion.authority.text


def test_stale_rate_with_the_report_date_read_from_the_text(gov: Governor) -> None:
    text = "报告日期：2024年3月1日\n\n…借款年利率超过24%的部分无效（《民间借贷规定》第十二条）。"
    v = gov.verify(text)[-1]
    assert v.applicability.label != "supports" and "STALE" in v.taxonomy
