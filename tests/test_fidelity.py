"""Offline fidelity (F) on real provisions of the bundled store: one case per rule.

Each row is a sentence as a report would write it, the expected F label and taxonomy code.
Sources: 民法典第一百五十三/一百五十四/一百八十八/二百零九/五百七十七条, 道路交通安全法第九十一条,
校车安全管理条例第三十条 (texts as in the bundled store).
"""

from __future__ import annotations

from datetime import date

import pytest

from governor.api import Governor
from governor.authorities import load_default_store
from governor.core.config import load_config
from governor.core.models import Verdict
from verifiers.textsim import (
    BigramIdf,
    contains_phrase,
    fold_numerals,
    normalize,
    weighted_containment,
)

TODAY = date(2026, 11, 29)


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor(load_config(overrides={}, environ={}), store=load_default_store())


def one(gov: Governor, text: str, context: str = "") -> Verdict:
    vs = gov.verify(text, as_of=TODAY, context=context)
    assert len(vs) == 1, [v.citation.raw for v in vs]
    return vs[0]


@pytest.mark.parametrize(
    "text,label,code",
    [
        # verbatim and paraphrase
        ("《民法典》第一百八十八条规定，向人民法院请求保护民事权利的诉讼时效期间为三年。", "faithful", None),
        ("《民法典》第五百七十七条规定，当事人一方不履行合同义务或者履行合同义务不符合约定的，应当承担继续履行、采取补救措施或者赔偿损失等违约责任。", "faithful", None),
        # Arabic and Chinese numerals are the same number
        ("《民法典》第188条规定，向人民法院请求保护民事权利的诉讼时效期间为3年。", "faithful", None),
        # wrong period / amount (L1.3.2 / L1.2.2)
        ("向人民法院请求保护民事权利的诉讼时效期间为二年（《民法典》第一百八十八条）。", "misdescribed", "L1.3.2"),
        ("《道路交通安全法》第九十一条规定，饮酒后驾驶机动车的，处暂扣六个月机动车驾驶证，并处五百元罚款。", "misdescribed", "L1.2.2"),
        # modality flip
        ("《民法典》第五百七十七条规定，当事人一方不履行合同义务的，可以承担违约责任。", "misdescribed", "L1.2.2"),
        # a quotation the provision does not hold
        ("《民法典》第五百七十七条规定：“当事人一方违约的，对方可以解除合同并要求双倍赔偿。”", "misdescribed", "L1.1.2"),
        # content of another provision (第一百五十四条)
        ("《民法典》第一百五十三条规定，行为人与相对人恶意串通，损害他人合法权益的民事法律行为无效。", "misdescribed", "L1.1.2"),
        # dropped 但书: 但是…除外, and the 但-less "……的除外" form
        ("《民法典》第二百零九条规定：不动产物权的设立、变更、转让和消灭，经依法登记，发生效力；未经登记，不发生效力。", "partially_faithful", "L1.2.3"),
        ("《校车安全管理条例》第三十条第二款规定，校车运载学生，应当按照经审核确定的线路行驶。", "partially_faithful", "L1.2.3"),
        # the 但书 kept
        ("《民法典》第二百零九条规定，不动产物权经依法登记发生效力，未经登记不发生效力，但是法律另有规定的除外。", "faithful", None),
        # the rule asserted universally, its condition dropped
        ("《民法典》第五百七十七条规定，在任何情况下均应当承担继续履行、采取补救措施或者赔偿损失等违约责任。", "partially_faithful", "L1.1.2"),
        # an application to the facts of a case states nothing checkable
        ("根据《民法典》第五百七十七条规定，小王应当向李某赔偿全部货款损失。", "not_assessed", None),
        # nothing stated about the content
        ("参见《民法典》第五百七十七条。", "not_assessed", None),
        # an opposed term swapped in a verbatim restatement (issue #4, reviewer's drafts)
        ("《民法典》第一百四十四条规定，无民事行为能力人实施的民事法律行为有效。", "misdescribed", "L1.2.2"),
        ("《民法典》第六百八十六条规定，当事人在保证合同中对保证方式没有约定或者约定不明确的，按照连带责任保证承担保证责任。", "misdescribed", "L1.2.2"),
        ("《民法典》第一百八十条规定，因不可抗力不能履行民事义务的，承担民事责任。", "misdescribed", "L1.2.2"),
        ("《民法典》第一百八十条规定，因不可抗力不能履行民事义务的，不承担民事责任。", "faithful", None),
        ("不满两周岁的子女，以由父亲直接抚养为原则（《民法典》第一千零八十四条第三款）。", "misdescribed", "L1.2.2"),
        # a number that exists elsewhere in the article, in the wrong clause
        ("《劳动法》第四十四条规定，法定休假日安排劳动者工作的，支付不低于工资的百分之二百的工资报酬。", "misdescribed", "L1.2.2"),
        ("《劳动法》第四十四条规定，法定休假日安排劳动者工作的，支付不低于工资的百分之三百的工资报酬。", "faithful", None),
        # the consequence restated verbatim, its condition dropped (L1.2.2; a 但书 stays L1.2.3)
        ("《劳动合同法》第四十条规定，有下列情形之一的，用人单位可以解除劳动合同。", "partially_faithful", "L1.2.2"),
        ("《劳动合同法》第四十条规定，有下列情形之一的，用人单位提前三十日以书面形式通知劳动者本人或者额外支付劳动者一个月工资后，可以解除劳动合同。", "faithful", None),
        # a paraphrase of the consequence is not judged for conditions
        ("《民法典》第五百七十七条规定，违约的一方要承担违约责任。", "faithful", None),
        # a claim (no description) that is the text of another article: 32 cited as 36
        ("法律、行政法规对处理敏感个人信息规定应当取得相关行政许可或者作出其他限制的，从其规定（《个人信息保护法》第36条）。", "misdescribed", "L1.1.2"),
        # a fragment verbatim in another provision, which the cited one also holds, stays theirs
        ("根据《劳动合同法》第四十七条，用人单位应当向劳动者支付经济补偿。", "faithful", None),
        # a short claim verbatim in many provisions is the report's proposition, not their text
        ("违约方应当承担违约责任（《民法典》第五百七十七条）。", "faithful", None),
    ],
)  # fmt: skip
def test_fidelity_rules(gov: Governor, text: str, label: str, code: str | None) -> None:
    v = one(gov, text)
    assert v.fidelity.label == label, v.fidelity.rationale
    if code is not None:
        assert code in v.taxonomy
    if label == "faithful":
        assert v.fidelity.evidence, "a pass records the source sentence it rests on"


def test_quote_cut_before_its_proviso_is_out_of_context(gov: Governor) -> None:
    v = one(
        gov,
        "《民法典》第二百零九条规定：“不动产物权的设立、变更、转让和消灭，经依法登记，发生效力；未经登记，不发生效力。”",
    )
    assert v.fidelity.label == "partially_faithful" and "L2.1.5" in v.taxonomy


def test_evidence_span_indexes_the_source(gov: Governor) -> None:
    v = one(gov, "向人民法院请求保护民事权利的诉讼时效期间为二年（《民法典》第一百八十八条）。")
    (ev,) = v.fidelity.evidence
    assert v.resolved is not None and ev.span is not None
    assert v.resolved.text[ev.span.start : ev.span.end] == ev.text == "三年"


def test_other_provision_becomes_a_confident_suggestion(gov: Governor) -> None:
    v = one(
        gov,
        "《民法典》第一百五十三条规定，行为人与相对人恶意串通，损害他人合法权益的民事法律行为无效。",
    )
    assert v.suggestion is not None and v.suggestion.authority.article == "154"
    assert v.suggestion.score >= gov.config.thresholds.suggestion_min_score


@pytest.mark.parametrize(
    "text,folded",
    [
        ("未满16周岁", "未满十六周岁"),
        ("第17条", "第十七条"),
        ("罚款5000元", "罚款五千元"),
        ("自2021年1月1日起", "自2021年一月一日起"),  # a year stays Arabic
        ("0.5万元", "0.5万元"),  # decimals are left alone
    ],
)
def test_fold_numerals(text: str, folded: str) -> None:
    assert fold_numerals(text) == folded


def test_normalize_folds_width_punctuation_and_numerals() -> None:
    assert normalize("（一）１６周岁，\u200b 应当！") == "一十六周岁应当"


def test_weighted_containment_discounts_shared_vocabulary() -> None:
    arts = ["合作社成员大会选举理事长", "合作社设立登记", "合作社解散清算", "合作社财务会计"]
    idf = BigramIdf.from_texts(arts)
    desc = "合作社成员大会选举理事长"
    assert weighted_containment(desc, arts[0], idf) == pytest.approx(1.0)
    # only the law's shared name matches: far below plain containment
    other = weighted_containment(desc, arts[1], idf)
    plain = weighted_containment(desc, arts[1], None)  # 合作, 作社 of 11 bigrams
    assert plain == pytest.approx(2 / 11) and other < plain / 4


@pytest.mark.parametrize(
    "phrase,text,ok",
    [
        ("个人信息处理者委托处理个人信息的", "个人信息处理者委托处理个人信息的，应当约定", True),
        (
            "个人信息处理者委托处理个人信息的",
            "在任何情况下均应当与受托人约定委托处理的个人信息",
            False,
        ),
        ("", "任何文本", False),
    ],
)
def test_contains_phrase(phrase: str, text: str, ok: bool) -> None:
    assert contains_phrase(phrase, text) is ok


@pytest.mark.parametrize(
    "text,evidence",
    [
        ("《民法典》第一百四十四条规定，无民事行为能力人实施的民事法律行为有效。", "无效"),
        ("《民法典》第六百八十六条规定，当事人在保证合同中对保证方式没有约定或者约定不明确的，按照连带责任保证承担保证责任。", "一般"),
        ("《劳动法》第四十四条规定，法定休假日安排劳动者工作的，支付不低于工资的百分之二百的工资报酬。", "百分之三百"),
        ("《劳动合同法》第四十条规定，有下列情形之一的，用人单位可以解除劳动合同。",
         "用人单位提前三十日以书面形式通知劳动者本人或者额外支付劳动者一个月工资后"),
    ],
)  # fmt: skip
def test_evidence_is_the_sources_own_words(gov: Governor, text: str, evidence: str) -> None:
    v = one(gov, text)
    (ev,) = v.fidelity.evidence
    assert ev.text == evidence
    assert v.resolved is not None and ev.span is not None
    assert v.resolved.text[ev.span.start : ev.span.end] == evidence


def test_list_is_judged_against_all_its_members(gov: Governor) -> None:
    # 「违约方应当赔偿损失」 restates what 第五百七十七条 (…赔偿损失等违约责任) and
    # 第五百八十四条 (损失赔偿额) say; 第五百九十一条 shares only word fragments with it
    vs = gov.verify("根据民法典第五百七十七条、第五百八十四条，违约方应当赔偿损失。", as_of=TODAY)
    assert [v.citation.article for v in vs] == ["577", "584"]
    for v in vs:
        assert v.fidelity.label == "faithful", v.fidelity.rationale
        assert v.applicability.label == "supports", v.applicability.rationale
        assert v.suggestion is None


def test_the_text_of_a_superseded_version_is_misdescribed(gov: Governor) -> None:
    # 公司法 2023 dropped 「应当经其他股东过半数同意」 (2018 text, 第七十一条); in force 2024-07-01
    text = "《公司法》第八十四条规定，股东向股东以外的人转让股权，应当经其他股东过半数同意。"
    (v,) = gov.verify(text, as_of=date(2025, 6, 1))
    assert v.fidelity.label == "misdescribed" and "STALE" in v.taxonomy
    assert "2018" in v.fidelity.rationale
    (v,) = gov.verify(text.replace("八十四", "七十一"), as_of=date(2019, 6, 1))
    assert v.fidelity.label == "faithful"


@pytest.mark.parametrize(
    ("policy", "pin"),
    [
        # the 2023 text's 第八十四条 no longer holds the consent rule: ``proven`` does not move
        ("proven", "第七十一条"),
        ("aggressive", "第八十四条"),  # the pre-policy move to the article of the same subject
    ],
)
def test_a_superseded_rule_is_noted_not_silently_kept(gov: Governor, policy: str, pin: str) -> None:
    from governor.core.config import Config

    g = Governor(Config(edit_policy=policy), store=gov.store)  # type: ignore[arg-type]
    text = "《公司法》第七十一条规定，股东向股东以外的人转让股权，应当经其他股东过半数同意。"
    r = g.govern(text, strategy="efa", as_of=date(2025, 6, 1))
    assert r.text.startswith(
        f"《公司法》{pin}规定，股东向股东以外的人转让股权，应当经其他股东过半数同意"
        "（注：所述内容系该法2018年版本第七十一条的规定，现行版本已修改，请核实）。"
    ), r.text
    again = g.govern(r.text, strategy="efa", as_of=date(2025, 6, 1))
    assert again.edits == ()


def test_a_later_versions_text_keeps_its_number_and_is_noted(gov: Governor) -> None:
    # 公司法 2023 第四十七条 (five-year paid-in rule) cited in a report dated before 2024-07-01:
    # the report means the new law; the pin must not move to an article of the 2018 text
    text = "根据《公司法》第四十七条，全体股东认缴的出资额由股东按照公司章程的规定自公司成立之日起五年内缴足。"
    (v,) = gov.verify(text, as_of=date(2024, 6, 1))
    assert v.fidelity.label == "misdescribed" and "STALE" in v.taxonomy
    r = gov.govern(text, strategy="efa", as_of=date(2024, 6, 1))
    assert (
        r.text
        == text[:-1]
        + "（注：所述内容系该法2023年修订后第四十七条的规定，报告日期时尚未施行，请核实）。"
    )
