"""Issue 21 ("wrong but silent"): a restated clause that keeps the provision's frame and swaps
one of its terms for another term of the same law (:mod:`verifiers.term_swap`). The wrong
sentences are those of dev LawBench answers our reviewers labelled wrong_silent (社会保险法第四十八条,
rev35 silent_a 28 / silent_c 118, silent_a 31); on the code before this change each was
``faithful``. The statute text each case relies on is checked in the bundled store first."""

from __future__ import annotations

from datetime import date

import pytest

from governor.api import Governor
from governor.core.models import CheckResult
from verifiers.term_swap import TERM_KIND, swapped_terms

AS_OF = date(2023, 7, 1)
SIF = "中华人民共和国社会保险法"
ART48 = "失业人员在领取失业保险金期间，参加职工基本医疗保险，享受基本医疗保险待遇"


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor()


def _fidelity(gov: Governor, text: str) -> CheckResult:
    (v,) = gov.verify(text, as_of=AS_OF)
    return v.fidelity


def test_article_48_text(gov: Governor) -> None:
    rec = gov.store.article(SIF, "48", as_of=AS_OF)
    assert rec is not None and ART48 in rec.text and "从失业保险基金中支付" in rec.text


def test_pension_insurance_for_medical_insurance_is_misdescribed(gov: Governor) -> None:
    f = _fidelity(
        gov,
        "根据《社会保险法》第四十八条，失业人员在领取失业保险金期间，参加职工基本养老保险，"
        "享受基本养老保险待遇。",
    )
    assert f.label == "misdescribed", f.rationale
    assert "基本养老保险" in f.rationale and ART48 in f.evidence[0].text


def test_unemployment_insurance_for_medical_insurance_is_misdescribed(gov: Governor) -> None:
    f = _fidelity(
        gov, "根据《社会保险法》第四十八条，失业人员在失业期间，参加失业保险的，享受失业保险待遇。"
    )
    assert f.label == "misdescribed", f.rationale
    assert ART48 in f.evidence[0].text


def test_the_note_quotes_what_the_provision_says(gov: Governor) -> None:
    text = "根据《社会保险法》第四十八条，失业人员在领取失业保险金期间，参加职工基本养老保险，享受基本养老保险待遇。"
    r = gov.govern(text, strategy="efa", as_of=AS_OF)
    assert "基本医疗保险" in r.text.replace(text, "")


@pytest.mark.parametrize(
    "text",
    [
        # the provision's own words, and shorter names of the same scheme
        "根据《社会保险法》第四十八条，失业人员在领取失业保险金期间，参加职工基本医疗保险，享受基本医疗保险待遇。",
        "根据《社会保险法》第四十八条，失业人员在领取失业保险金期间参加基本医疗保险，享受医疗保险待遇。",
        "根据《社会保险法》第四十八条，失业人员应当缴纳的基本医疗保险费从失业保险基金中支付，个人不缴纳基本医疗保险费。",
    ],
)
def test_the_right_restatements_stay_faithful(gov: Governor, text: str) -> None:
    f = _fidelity(gov, text)
    assert f.label == "faithful", f.rationale


def _used(word: str) -> int:
    return 9  # every word a term of the law: the other conditions decide


def test_swapped_terms_reads_the_term_at_the_frames_slot() -> None:
    (c,) = swapped_terms("参加职工基本养老保险，享受基本养老保险待遇", ART48, _used)
    assert c.kind == TERM_KIND and c.statute == ART48


@pytest.mark.parametrize(
    ("said", "source"),
    [
        ("用人单位应当按月支付二倍的工资", "用人单位应当按月支付三倍的工资"),  # a figure: facts'
        ("用人单位可以解除劳动合同", "用人单位应当解除劳动合同"),  # a modal, not a term
        ("参加养老保险，享受养老保险待遇", "参加基本养老保险，享受基本养老保险待遇"),  # short name
        ("参加医疗保险和养老保险", "参加养老保险和医疗保险"),  # both named: reordered
    ],
)
def test_swapped_terms_leaves_other_changes(said: str, source: str) -> None:
    assert swapped_terms(said, source, _used) == ()


def test_a_word_the_law_does_not_use_is_the_reports_wording() -> None:
    def used(word: str) -> int:
        return 9 if word == "基本医疗保险" else 0

    assert swapped_terms("参加职工基本养老保险，享受基本养老保险待遇", ART48, used) == ()
