"""A tier's condition joined to another tier's consequence is misdescribed (fresh review 40).

劳动合同法第四十七条 grades the service count: 「六个月以上不满一年的，按一年计算；不满六个月的，向
劳动者支付半个月工资的经济补偿」. Dev chatglm2 3-8 481 wrote 「六个月以上不满一年的，向劳动者支付半个月
工资的经济补偿」 — every word the article's, overlap 1.00 — and citegov passed it in silence.
"""

from __future__ import annotations

from datetime import date

import pytest

from governor.api import Governor
from governor.core.config import Config, Thresholds
from tests.statute_text import checked_text
from verifiers.spliced_tiers import spliced_tiers

AS_OF = date(2023, 7, 1)
LABOUR = "中华人民共和国劳动合同法"
HEAD = (
    "问题：进厂干了三十五天，厂子辞退我，能拿多少补偿？\n\n"
    "根据《劳动合同法》第四十七条，经济补偿按劳动者在本单位工作的年限，每满一年支付一个月工资的"
    "标准向劳动者支付。"
)


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor(Config())


@pytest.fixture(scope="module")
def art47(gov: Governor) -> str:
    return checked_text(gov, LABOUR, "47", "六个月以上不满一年的，按一年计算", AS_OF)


def test_the_spliced_tier_is_read_on_the_statute_text(art47: str) -> None:
    said = (
        "六个月以上不满一年的，向劳动者支付半个月工资的经济补偿；月工资是指解除前十二个月平均月工资"
    )
    (sp,) = spliced_tiers(said, art47, Thresholds())
    assert sp.condition == "六个月以上不满一年的" and sp.other == "不满六个月的"
    assert sp.rule == "六个月以上不满一年的，按一年计算"
    # each tier with its own consequence, or a tier stated alone, is no splice
    assert spliced_tiers(art47, art47, Thresholds()) == ()
    assert (
        spliced_tiers("不满六个月的，向劳动者支付半个月工资的经济补偿", art47, Thresholds()) == ()
    )
    assert spliced_tiers("六个月以上不满一年的，按照一年计算", art47, Thresholds()) == ()


def test_the_dev_answer_is_misdescribed_and_the_note_quotes_the_tier(gov: Governor) -> None:
    text = HEAD + "六个月以上不满一年的，向劳动者支付半个月工资的经济补偿。\n"
    (v,) = gov.verify(text, as_of=AS_OF)
    assert v.fidelity.label == "misdescribed", v.fidelity.rationale
    assert "不满六个月的" in v.fidelity.rationale
    r = gov.govern(text, strategy="efa", as_of=AS_OF)
    assert "其规定为「六个月以上不满一年的，按一年计算」" in r.text, r.text


def test_the_right_tiers_stay_faithful(gov: Governor) -> None:
    text = (
        HEAD
        + "六个月以上不满一年的，按一年计算；不满六个月的，向劳动者支付半个月工资的经济补偿。\n"
    )
    (v,) = gov.verify(text, as_of=AS_OF)
    assert v.fidelity.label == "faithful", v.fidelity.rationale
