"""Offline applicability (A) on real provisions of the bundled store: one case per rule.

The 3-2 style cases use a LawBench dev scenario (task 3-2, item 0: the reference article is
农民专业合作社法第五十六条).
"""

from __future__ import annotations

from datetime import date

import pytest

from governor.api import Governor
from governor.authorities import load_default_store
from governor.config import load_config
from governor.models import Verdict

TODAY = date(2026, 11, 29)
COOP_Q = (
    "某个地区的三个以上专业农民合作社想要出资设立农民专业合作社联合社，以提高其在市场中的竞争力"
    "和规模效应。根据哪条法律，三个以上的农民专业合作社可以出资设立农民专业合作社联合社？"
)
DIVORCE_Q = "我和丈夫感情不和已经分居两年了，他不同意离婚，我可以起诉离婚吗？"


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor(load_config(overrides={}, environ={}), store=load_default_store())


def one(gov: Governor, text: str, context: str = "") -> Verdict:
    vs = gov.verify(text, as_of=TODAY, context=context)
    assert len(vs) == 1, [v.citation.raw for v in vs]
    return vs[0]


@pytest.mark.parametrize(
    "text,context,label",
    [
        # the reference article for the scenario
        ("根据《农民专业合作社法》第五十六条，三个以上的农民专业合作社在自愿的基础上，可以出资设立农民专业合作社联合社。", COOP_Q, "supports"),
        # a wrong article whose (invented) content echoes the question
        ("《农民专业合作社法》第十九条：三个以上的农民专业合作社可以出资设立农民专业合作社联合社。", COOP_Q, "irrelevant"),
        # a claim that is the rule of another provision (第一百五十四条)
        ("行为人与相对人恶意串通，损害他人合法权益的民事法律行为无效（《民法典》第一百五十三条）。", "", "irrelevant"),
        # off-topic provision: names (第一千零一十四条) for employer liability
        ("用人单位的工作人员因执行工作任务造成他人损害的，由用人单位承担侵权责任（《民法典》第一千零一十四条）。", "", "irrelevant"),
        # modality of the claim opposite to the provision's
        ("当事人一方不履行合同义务的，可以承担违约责任（《民法典》第五百七十七条）。", "", "contradicts"),
        # a claim broader than the provision (its condition dropped, 在任何情况下 added)
        ("在任何情况下均应当承担继续履行、采取补救措施或者赔偿损失等违约责任（《民法典》第五百七十七条）。", "", "overextended"),
        # Arabic numerals in the claim, Chinese in the statute
        ("已满16周岁的人犯罪，应当负刑事责任（《刑法》第17条）。", "", "supports"),
        # no claim and no question
        ("参见《民法典》第五百七十七条。", "", "skipped"),
    ],
)  # fmt: skip
def test_applicability_rules(gov: Governor, text: str, context: str, label: str) -> None:
    v = one(gov, text, context)
    assert v.applicability.label == label, v.applicability.rationale


def test_wrong_article_gets_the_reference_as_confident_suggestion(gov: Governor) -> None:
    v = one(
        gov,
        "《农民专业合作社法》第十九条：三个以上的农民专业合作社可以出资设立农民专业合作社联合社。",
        COOP_Q,
    )
    assert v.suggestion is not None and v.suggestion.authority.article == "56"
    assert v.suggestion.score >= gov.config.thresholds.suggestion_min_score


def test_claim_of_another_provision_suggests_it(gov: Governor) -> None:
    v = one(
        gov,
        "行为人与相对人恶意串通，损害他人合法权益的民事法律行为无效（《民法典》第一百五十三条）。",
    )
    assert v.suggestion is not None and v.suggestion.authority.article == "154"


def test_generic_claim_gives_no_confident_suggestion(gov: Governor) -> None:
    # 合同无效 is contained in hundreds of provisions: whatever is found is a guess
    v = one(gov, "合同无效（《民法典》第一千零一十四条）。")
    assert v.applicability.label != "supports"
    assert v.suggestion is None or v.suggestion.score < gov.config.thresholds.suggestion_min_score


def test_legal_basis_list_item_is_judged_against_the_question(gov: Governor) -> None:
    # the claim of a 法律依据 list item is the answer's conclusion ("可以"): judged leniently
    # against the question, an on-topic provision is not irrelevant (so it is not removed)
    text = "回答：可以。\n\n法律依据：\n1. 《民法典》第一千零七十九条：夫妻一方要求离婚的，可以由有关组织进行调解或者直接向人民法院提起离婚诉讼。"
    v = one(gov, text, DIVORCE_Q)
    assert v.applicability.label in ("supports", "partially_supports"), v.applicability.rationale


def test_off_topic_list_item_is_still_irrelevant(gov: Governor) -> None:
    text = "回答：可以。\n\n法律依据：\n1. 《中华人民共和国海商法》第二百零七条"
    v = one(gov, text, DIVORCE_Q)
    assert v.applicability.label == "irrelevant", v.applicability.rationale


def test_supports_records_evidence_from_the_provision(gov: Governor) -> None:
    v = one(
        gov,
        "根据《农民专业合作社法》第五十六条，三个以上的农民专业合作社在自愿的基础上，可以出资设立农民专业合作社联合社。",
        COOP_Q,
    )
    (ev,) = v.applicability.evidence
    assert v.resolved is not None and ev.span is not None
    assert v.resolved.text[ev.span.start : ev.span.end] == ev.text and "联合社" in ev.text
