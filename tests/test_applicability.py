"""Offline applicability (A) on real provisions of the bundled store: one case per rule.

The 3-2 style cases use a LawBench dev scenario (task 3-2, item 0: the reference article is
农民专业合作社法第五十六条).
"""

from __future__ import annotations

from datetime import date

import pytest

from governor.api import Governor
from governor.authorities import load_default_store
from governor.core.config import load_config
from governor.core.models import Verdict
from verifiers.existence import check_existence
from verifiers.judge import JudgeItem
from verifiers.suggest import better_provision, existence_suggestion

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


def last(gov: Governor, text: str, context: str = "") -> Verdict:
    """The verdict of the text's last citation (earlier ones set the scene)."""
    return gov.verify(text, as_of=TODAY, context=context)[-1]


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
        # an opposed term swapped in a restatement of the provision
        ("无民事行为能力人实施的民事法律行为有效（《民法典》第一百四十四条）。", "", "contradicts"),
        ("因不可抗力不能履行民事义务的，承担民事责任（《民法典》第一百八十条）。", "", "contradicts"),
        # a meta-description (「规定了X」) names the provision's subject: judged as such
        ("《民法典》第五百八十五条第一款规定了违约金。", "", "supports"),
        ("二、违约金\n《民法典》第五百八十五条第一款规定了违约金。", "", "supports"),
        ("违约金条款有效。《民法典》第五百八十五条第一款规定了违约金，第五百八十四条规定了损失赔偿。", "", "supports"),
        ("《民法典》第五百八十五条第一款规定了违约金。", "合同约定的违约金过高，可以请求法院调整吗？", "supports"),
        ("《民法典》第五百三十五条规定了违约金。", "", "irrelevant"),
        # a case citation's own caption is not its claim
        ("参见指导案例24号（荣宝英诉王阳、永诚财产保险股份有限公司江阴支公司机动车交通事故责任纠纷案）。", "", "skipped"),
        ("参见指导案例24号（荣宝英诉王阳、永诚财产保险股份有限公司江阴支公司机动车交通事故责任纠纷案）：交通事故的受害人没有过错，其体质状况对损害后果的影响不属于可以减轻侵权人责任的法定情形。", "", "supports"),
    ],
)  # fmt: skip
def test_applicability_rules(gov: Governor, text: str, context: str, label: str) -> None:
    v = last(gov, text, context)
    assert v.applicability.label == label, v.applicability.rationale
    # a suggestion offered with the verdict is never one whose own confidence is 0
    assert v.suggestion is None or v.suggestion.score > 0


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


@pytest.mark.parametrize(
    "text,instrument,article",
    [
        # the claim is another law's text near-verbatim: that law's provision may be named
        ("拍卖人对委托人交付拍卖的物品负有保管义务（《民法典》第五百七十七条）。", "中华人民共和国拍卖法", "19"),
        ("用人单位应当保证劳动者每周至少休息一日（《民法典》第五百七十七条）。", "中华人民共和国劳动法", "38"),
        # a paraphrase: suggestions stay in the cited instrument
        ("拍卖人应当妥善保管拍卖标的，并且不得擅自处分（《民法典》第五百七十七条）。", "中华人民共和国民法典", None),
    ],
)  # fmt: skip
def test_suggestions_stay_in_the_cited_instrument_unless_verbatim(
    gov: Governor, text: str, instrument: str, article: str | None
) -> None:
    v = one(gov, text)
    assert v.applicability.label == "irrelevant", v.applicability.rationale
    assert v.suggestion is not None and v.suggestion.authority.instrument == instrument
    if article is not None:
        assert v.suggestion.authority.article == article
        assert v.suggestion.score >= gov.config.thresholds.suggestion_min_score


@pytest.mark.parametrize(
    "text,instrument,article",
    [
        # an article that does not exist: searched in the cited instrument first
        ("民法典第九千条规定，当事人应当遵循诚信原则。", "中华人民共和国民法典", None),
        # …and another instrument only for its own words
        ("根据《民法典》第九千条规定，拍卖人对委托人交付拍卖的物品负有保管义务。", "中华人民共和国拍卖法", "19"),
        # a repealed law: its successor
        ("合同法第五十二条规定，恶意串通，损害国家、集体或者第三人利益的合同无效。", "中华人民共和国民法典", None),
        # a guiding case that does not exist: no statute for its caption
        ("参见指导案例999号（张三诉李四劳动争议案）。", None, None),
        ("参见指导案例999号。", None, None),
        # a fabricated instrument with a provision's own words
        ("《民事合同法》第一百五十四条规定，行为人与相对人恶意串通，损害他人合法权益的民事法律行为无效。", "中华人民共和国民法典", "154"),
    ],
)  # fmt: skip
def test_existence_suggestion_stays_in_the_instrument_or_successor(
    gov: Governor, text: str, instrument: str | None, article: str | None
) -> None:
    store = gov.store
    (cit,) = gov.extract(text)
    # within the store's horizon: a name the store lacks is not_found, not "maybe newer"
    when = min(TODAY, store.horizon)
    ex = check_existence(cit, store, as_of=when)
    sug = existence_suggestion(
        cit, ex.result.label, ex.authority, ex.record, store, store, as_of=when
    )
    if instrument is None:
        assert sug is None
        return
    assert sug is not None and sug.authority.instrument == instrument and sug.score > 0
    if article is not None:
        assert sug.authority.article == article


@pytest.mark.parametrize(
    "text,label,named",
    [
        # after the horizon, a name the store lacks might be new law: unverifiable …
        ("《中华人民共和国数字货币法》第十条规定，发行人应当登记备案。", "unverifiable", None),
        # … unless its words are a stored provision's text: existing law, misnamed
        ("《民事合同法》第一百五十四条规定，行为人与相对人恶意串通，损害他人合法权益的民事法律行为无效。",
         "not_found", "中华人民共和国民法典"),
    ],
)  # fmt: skip
def test_after_the_horizon_a_misnamed_law_with_its_words_is_not_found(
    gov: Governor, text: str, label: str, named: str | None
) -> None:
    assert TODAY > gov.store.horizon
    (v,) = gov.verify(text, as_of=TODAY)
    assert v.existence.label == label, v.existence.rationale
    if named is None:
        assert "horizon" in v.existence.rationale
    else:
        assert v.suggestion is not None and v.suggestion.authority.instrument == named
        assert v.suggestion.authority.article == "154" and "wrong name" in v.existence.rationale


def test_no_suggestion_without_confidence(gov: Governor) -> None:
    # a text with no content bigrams has specificity 0: whatever is found is not offered
    store = gov.store
    (cit,) = gov.extract("《民法典》第五百七十七条")
    ex = check_existence(cit, store, as_of=TODAY)
    assert ex.authority is not None
    item = JudgeItem(cit, ex.authority, ex.record, "", TODAY)
    sug, _ = better_provision(
        "的", item, store, store, cited_score=0.0, margin=0.0, reason="test", global_k=8
    )
    assert sug is None
