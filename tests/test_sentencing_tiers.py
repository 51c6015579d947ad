"""A report joining two sentencing tiers of a 刑法 article under one (issue 21, review 35).

刑法第二百三十四条 gives 「处三年以上十年以下有期徒刑」 for 致人重伤 and 「处十年以上有期徒刑、无期徒刑或者
死刑」 for 致人死亡…; dev LawBench 3-2 qwen-7b-chat 291 says 「应当处三年以上十年以下有期徒刑、无期徒刑或者
死刑」 (wrong, silent on main: an application was not_assessed). Now misdescribed, quoting the
tier whose term it states. A tier quoted exactly stays faithful.
"""

from __future__ import annotations

from datetime import date

import pytest

from governor.api import Governor
from verifiers.sentencing import merged_tiers

AS_OF = date(2023, 7, 1)
HEAD = "根据《中华人民共和国刑法》第二百三十四条的规定，"


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor()


def _fidelity(gov: Governor, text: str):  # type: ignore[no-untyped-def]
    return gov.verify(text, as_of=AS_OF)[0].fidelity


def test_merged_tiers_flagged(gov: Governor) -> None:
    f = _fidelity(
        gov,
        HEAD + "小明的行为已经构成故意伤害罪，应当处三年以上十年以下有期徒刑、无期徒刑或者死刑。",
    )
    assert f.label == "misdescribed"
    assert "该条对「致人重伤」规定的刑罚为「处三年以上十年以下有期徒刑」" in f.rationale


def test_right_tier_faithful(gov: Governor) -> None:
    f = _fidelity(gov, HEAD + "故意伤害他人身体，致人重伤的，处三年以上十年以下有期徒刑。")
    assert f.label == "faithful"


def test_exact_tiers_not_merged() -> None:
    src = (
        "犯前款罪，致人重伤的，处三年以上十年以下有期徒刑；致人死亡或者以特别残忍手段致人重伤造成"
        "严重残疾的，处十年以上有期徒刑、无期徒刑或者死刑。"
    )
    assert merged_tiers("致人死亡的，处十年以上有期徒刑、无期徒刑或者死刑", src) is None
    assert merged_tiers("致人重伤的，处三年以上十年以下有期徒刑", src) is None


def test_definition_with_foreign_acts(gov: Governor) -> None:
    """刑法第二百四十条 lists 「拐骗、绑架、收买、贩卖、接送、中转」; dev LawBench 3-2 (review 35
    silent, wrong) defined the charge by 「强迫、诱骗、拐骗、买卖」: not_assessed on main."""
    f = _fidelity(
        gov,
        "根据《中华人民共和国刑法》第二百四十条，拐卖妇女、儿童罪是指强迫、诱骗、拐骗、买卖妇女、儿童的行为。",
    )
    assert f.label == "partially_faithful"
    assert "拐骗、绑架、收买、贩卖、接送、中转" in f.rationale
