"""Issue 21 item 2: a paraphrase must keep the actor and the counting basis
(:mod:`verifiers.actors`). The wrong sentences are from the tuning keys of the dev LawBench 3-8
answers (chatglm2 key 43, qwen key 58); on the code before this change each was ``faithful``.
The statute text each row relies on is checked in the bundled store first."""

from __future__ import annotations

from datetime import date

import pytest

from governor.api import Governor
from governor.core.models import CheckResult
from verifiers.actors import ACTOR_MARK, BASIS_MARK, actor_kind

AS_OF = date(2023, 7, 1)
SIF = "中华人民共和国社会保险法"
LEAVE = "企业职工带薪年休假实施办法"
INJURY = "工伤保险条例"


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor()


def _has(gov: Governor, inst: str, art: str, *words: str) -> None:
    rec = gov.store.article(inst, art, as_of=AS_OF)
    assert rec is not None
    for w in words:
        assert w in rec.text, (inst, art, w)


def _fidelity(gov: Governor, text: str) -> CheckResult:
    (v,) = gov.verify(text, as_of=AS_OF)
    return v.fidelity


def test_the_worker_does_not_pay_what_the_employer_pays(gov: Governor) -> None:
    _has(gov, SIF, "60", "用人单位应当自行申报、按时足额缴纳社会保险费", "由用人单位代扣代缴")
    f = _fidelity(
        gov,
        "根据《社会保险法》第六十条，用人单位应当按时足额缴纳社会保险费，"
        "职工应当按时足额缴纳社会保险费。",
    )
    assert f.label == "misdescribed" and ACTOR_MARK in f.rationale, f.rationale
    assert "用人单位应当自行申报" in f.evidence[0].text


def test_the_right_actors_of_article_60_stay_faithful(gov: Governor) -> None:
    f = _fidelity(
        gov,
        "根据《社会保险法》第六十条，用人单位应当按时足额缴纳社会保险费，"
        "职工应当缴纳的社会保险费由用人单位代扣代缴。",
    )
    assert f.label == "faithful", f.rationale


def test_article_33_the_employer_pays_the_injury_premium(gov: Governor) -> None:
    _has(gov, SIF, "33", "由用人单位缴纳工伤保险费，职工不缴纳工伤保险费")
    f = _fidelity(gov, "根据《社会保险法》第三十三条，职工应当缴纳工伤保险费。")
    assert f.label == "misdescribed" and ACTOR_MARK in f.rationale, f.rationale
    right = _fidelity(
        gov, "根据《社会保险法》第三十三条，职工应当参加工伤保险，由用人单位缴纳工伤保险费。"
    )
    assert right.label == "faithful", right.rationale


def test_two_benefits_one_payer_is_partly_right(gov: Governor) -> None:
    _has(
        gov,
        INJURY,
        "37",
        "由工伤保险基金支付一次性工伤医疗补助金，由用人单位支付一次性伤残就业补助金",
    )
    f = _fidelity(
        gov,
        "根据《工伤保险条例》第三十七条，由用人单位支付一次性工伤医疗补助金和一次性伤残就业补助金。",
    )
    assert f.label == "partially_faithful" and ACTOR_MARK in f.rationale, f.rationale
    # the single wrong payer stays misdescribed (caught before this change)
    g = _fidelity(gov, "工伤职工的一次性工伤医疗补助金由用人单位支付（《工伤保险条例》第三十七条）")
    assert g.label == "misdescribed" and "工伤保险基金" in g.rationale


def test_unused_leave_is_counted_on_time_worked(gov: Governor) -> None:
    _has(gov, LEAVE, "12", "应当按照职工当年已工作时间折算应休未休年休假天数")
    f = _fidelity(
        gov,
        "根据《企业职工带薪年休假实施办法》第十二条规定，用人单位与职工解除或者终止劳动合同的，"
        "未休年休假天数应当按照职工应当休年休假天数计算。",
    )
    assert f.label == "misdescribed" and BASIS_MARK in f.rationale, f.rationale
    right = _fidelity(
        gov,
        "根据《企业职工带薪年休假实施办法》第十二条规定，用人单位与职工解除或者终止劳动合同的，"
        "应当按照职工当年已工作时间折算应休未休年休假天数并支付未休年休假工资报酬。",
    )
    assert BASIS_MARK not in right.rationale and ACTOR_MARK not in right.rationale


def test_the_note_names_the_provisions_actor(gov: Governor) -> None:
    text = "根据《社会保险法》第三十三条，职工应当缴纳工伤保险费。"
    r = gov.govern(text, strategy="efa", as_of=AS_OF)
    assert r.text != text and "用人单位" in r.text.replace(text.rstrip("。"), "")


@pytest.mark.parametrize(
    ("subject", "kind"),
    [
        ("用人单位", "employer"),
        ("单位职工", "worker"),
        ("被保险人", "insured"),
        ("保险人", "insurer"),
        ("非机动车驾驶人", "nonmotor"),
        ("机动车驾驶人", "motor"),
        ("用人单位和职工", None),
        ("有过错的一方", None),
    ],
)
def test_actor_kind(subject: str, kind: str | None) -> None:
    assert actor_kind(subject) == kind
