"""A law cited whole for a rule or a conclusion is never a silent pass (issue 21 item 2; review 3).

Review 3 of dev LawBench answers found 36 wrong citations among the 77 citations of a law by
name alone (no article) that citegov passed with no word: 「根据《劳动合同法》，员工在春节期间应当享有
带薪年休假」, 「…也构成了劳动关系」, 「要求用人单位赔偿经济损失」. Their verdict rested on the law's existence
only (F ``not_assessed``, A ``skipped``; the ``no_pin`` gap counted them without a name). Right ones
stood beside them in the same form (「根据《劳动合同法》的规定，用人单位应当支付经济补偿」), so the words
cannot tell which is which: a note in the text would be a false alarm on those. What changes is
the report: each such citation is named there as not assessed, and the text keeps no note.

A question restated, a pointer to read the law and the law named as the basis state nothing of
it: no line. A pinned claim (an article holds it) keeps its pin and gets no line.
"""

from __future__ import annotations

from datetime import date

import pytest

from governor.api import Governor
from governor.core.config import Config
from governor.core.gaps import unchecked_claim

AS_OF = date(2023, 7, 1)


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor(Config())


STATED = [
    # a right the law does not give (春节 is a public holiday; 年休假 is in another regulation)
    ("根据《劳动合同法》，员工在春节期间应当享有带薪年休假，并给予相应的工资待遇。", "《劳动合同法》"),
    # a conclusion drawn from the law (构成…关系), role reference before
    ("根据劳动法，即使未签订劳动合同，一方提供劳动，一方支付工资，也构成了劳动关系。", "劳动法"),
    # a remedy claimed under the law (赔偿), no modal of duty
    ("根据《中华人民共和国劳动合同法》，您可以申请劳动仲裁，要求用人单位赔偿经济损失和赔偿金。", "《中华人民共和国劳动合同法》"),
    # a definition the law words otherwise (海商法第一百六十五条 asks no 过失)
    ("根据《中华人民共和国海商法》的规定，船舶碰撞是指船舶在海上行驶时，由于一方或者双方的过失，导致船舶遭受损害的事件。", "《中华人民共和国海商法》"),
    # right general advice in the same form: named as not assessed too, never noted
    ("根据《劳动合同法》的规定，用人单位应当给予职工相应的经济补偿。", "《劳动合同法》"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "raw"), STATED)
def test_a_rule_stated_under_a_law_cited_whole_is_named_in_the_report(
    gov: Governor, text: str, raw: str
) -> None:
    r = gov.govern(text, strategy="efa", as_of=AS_OF)
    (v,) = r.initial_verdicts
    assert v.citation.raw == raw and v.citation.article is None
    assert v.applicability.label == "skipped"  # not pinned, not flagged: content unchecked
    lines = [w for w in r.to_report().warnings if w.startswith("not assessed (a law cited whole")]
    assert len(lines) == 1 and raw in lines[0]
    assert "（注：" not in r.text  # a note would be a false alarm on the right ones


NOTHING_STATED = [
    "如果您想进一步了解年休假的相关法律法规，可以查阅《职工带薪年休假条例》。",
    "法律依据是《劳动法》。",
    "根据《中华人民共和国道路交通安全法》，交通警察在对机动车驾驶人使用简易程序处罚后需要做什么？",
    "根据《民法典》第一千零",
]


@pytest.mark.parametrize("text", NOTHING_STATED)
def test_no_line_when_nothing_of_the_law_is_stated(gov: Governor, text: str) -> None:
    r = gov.govern(text, strategy="efa", as_of=AS_OF)
    assert not any(unchecked_claim(v) for v in r.initial_verdicts)
    assert not any(w.startswith("not assessed (a law cited whole") for w in r.to_report().warnings)


def test_a_pinned_claim_keeps_its_pin_and_gets_no_line(gov: Governor) -> None:
    text = (
        "根据《土地管理法》，农村村民一户只能拥有一处宅基地，其宅基地的面积不得超过省、自治区、"
        "直辖市规定的标准。"
    )
    r = gov.govern(text, strategy="efa", as_of=date(2024, 6, 1))
    (v,) = r.initial_verdicts
    assert v.applicability.label == "supports"
    assert not any(w.startswith("not assessed (a law cited whole") for w in r.to_report().warnings)
