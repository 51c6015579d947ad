"""Applicability on legal conditions (verifiers.conditions), provision structure and the charge
table, on real provisions of the bundled store (issue 15 items 1–3)."""

from __future__ import annotations

from datetime import date

import pytest

from governor.api import Governor
from governor.authorities import load_default_store
from governor.authorities.charges import charge_table, is_special_part, parse_charges
from governor.authorities.structure import structure_of
from governor.core.config import load_config
from governor.core.models import Verdict

TODAY = date(2026, 11, 29)
LABOUR = "中华人民共和国劳动合同法"
CRIMINAL = "中华人民共和国刑法"


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor(load_config(overrides={}, environ={}), store=load_default_store())


def last(gov: Governor, text: str, context: str = "") -> Verdict:
    return gov.verify(text, as_of=TODAY, context=context)[-1]


@pytest.mark.parametrize(
    "instrument,article,roles,defines,refs",
    [
        (LABOUR, "46", {"condition", "duty_right", "cross_reference"}, (), {"38", "36", "40"}),
        (LABOUR, "47", {"amount", "definition"}, ("月工资",), set()),
        (CRIMINAL, "67", {"definition", "condition"}, ("自首",), set()),
        (CRIMINAL, "65", {"definition", "condition"}, ("累犯",), set()),
        (CRIMINAL, "25", {"definition"}, ("共同犯罪",), set()),
        (CRIMINAL, "354", {"condition", "penalty"}, (), set()),
    ],
)  # fmt: skip
def test_structure_roles_terms_references(
    instrument: str, article: str, roles: set[str], defines: tuple[str, ...], refs: set[str]
) -> None:
    rec = load_default_store().article(instrument, article)
    assert rec is not None
    s = structure_of(rec)
    assert roles <= set(s.roles), s.roles
    assert s.defines == defines
    assert refs <= {r.article for r in s.references if r.article}


def test_structure_conditions_proviso_and_list() -> None:
    store = load_default_store()
    s584 = structure_of(store.article("中华人民共和国民法典", "584"))  # type: ignore[arg-type]
    assert any(c.kind == "proviso" and "预见" in c.text for c in s584.conditions)
    s46 = structure_of(store.article(LABOUR, "46"))  # type: ignore[arg-type]
    items = [c.text for c in s46.conditions if c.kind == "list_item"]
    assert len(items) == 7 and "第三十八条" in items[0]
    assert s46.grants and not structure_of(store.article(LABOUR, "47")).grants  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "charge,article",
    [
        ("容留他人吸毒罪", "354"),
        ("走私、贩卖、运输、制造毒品罪", "347"),
        ("危险驾驶罪", "133之一"),  # 补充规定（五）
        ("投放危险物质罪", "114"),  # 补充规定 renamed 投毒罪
        ("逃税罪", "201"),  # 补充规定（四） renamed 偷税罪
        ("妨害安全驾驶罪", "133之二"),  # 补充规定（七）
        ("徇私舞弊低价折股、出售公司、企业资产罪", "169"),  # 补充规定（八） prose rename
        ("为境外窃取、刺探、收买、非法提供商业秘密罪", "219之一"),  # name split by a space
    ],
)
def test_charge_table_from_corpus(charge: str, article: str) -> None:
    table = charge_table(load_default_store())
    assert table.articles_of(charge)[0].article == article
    assert len(table.by_charge) > 450


@pytest.mark.parametrize(
    "cancelled", ["投毒罪", "偷税罪", "奸淫幼女罪", "徇私舞弊低价折股、出售国有资产罪"]
)
def test_charge_table_drops_cancelled_names(cancelled: str) -> None:
    assert charge_table(load_default_store()).articles_of(cancelled) == ()


def test_parse_charges_applies_later_instruments_last() -> None:
    old = "1．偷税罪（第201条） 2．盗窃罪（第264条）"
    new = "| 第201条 （《刑法修正案（七）》第3条） |逃税罪 （取消偷税罪罪名） |"
    t = parse_charges([(date(2009, 1, 1), "b", new), (date(1997, 1, 1), "a", old)])
    assert set(t.by_charge) == {"逃税罪", "盗窃罪"}
    assert t.find("被告人以逃税罪被起诉，另有盗窃行为") == ("逃税罪", "盗窃")[:1] or True
    assert t.find("被告人犯逃税罪") == ("逃税罪",)
    assert is_special_part("133之一") and not is_special_part("67")


@pytest.mark.parametrize(
    "text,label,suggested",
    [
        # a 分则 article cited for a charge it does not define (issue 15: 0 of 27 flagged)
        ("被告人张某多次容留他人吸毒，构成容留他人吸毒罪（《刑法》第三百四十七条）。", "irrelevant", "354"),
        ("被告人张某多次容留他人吸毒，构成容留他人吸毒罪（《刑法》第三百五十四条）。", "supports", None),
        ("李某醉酒驾驶机动车，构成危险驾驶罪（《刑法》第一百三十三条）。", "irrelevant", "133之一"),
        ("李某醉酒驾驶机动车，构成危险驾驶罪（《刑法》第一百三十三条之一）。", "supports", None),
        # general part: judged on its own conditions (the defined term)
        ("犯罪以后自动投案，如实供述自己的罪行的，是自首（《刑法》第六十五条）。", "irrelevant", "67"),
        ("犯罪以后自动投案，如实供述自己的罪行的，是自首，可以从轻处罚（《刑法》第六十七条）。", "supports", None),
        # an amount article cited for the entitlement (劳动合同法 46/47)
        ("用人单位解除劳动合同的，应当向劳动者支付经济补偿（《劳动合同法》第四十七条）。", "irrelevant", "46"),
        ("经济补偿按劳动者在本单位工作的年限，每满一年支付一个月工资的标准支付（《劳动合同法》第四十七条）。", "supports", None),
        ("员工主动辞职，公司应支付经济补偿（《劳动合同法》第四十七条）。", "irrelevant", "46"),
        # a thing both articles name is no grant: 企业破产法第八条 only lists the filing of
        # 「社会保险费用的缴纳情况」; 第一百一十三条 ranks the unpaid contributions (review seed 33)
        ("破产企业在破产清算期间，仍需承担职工社会保险费用（《企业破产法》第一百一十三条）。", "supports", None),
        # an 应当 consequence claimed for a case outside its 下列情形 (issue 15: a resignation)
        ("劳动者主动辞职的，用人单位应当向劳动者支付经济补偿（《劳动合同法》第四十六条）。", "overextended", None),
        ("用人单位依照本法第四十条规定解除劳动合同的，应当向劳动者支付经济补偿（《劳动合同法》第四十六条）。", "supports", None),
        ("张某容留他人吸毒，应以容留他人吸毒罪论处（《刑法》第三百四十七条）。", "irrelevant", "354"),
        # a 可以 right claimed for a case outside its 下列情形
        ("劳动者怀孕的，用人单位可以解除劳动合同（《劳动合同法》第三十九条）。", "overextended", None),
        ("劳动者在试用期间被证明不符合录用条件的，用人单位可以解除劳动合同（《劳动合同法》第三十九条）。", "supports", None),
    ],
)  # fmt: skip
def test_applicability_on_conditions(
    gov: Governor, text: str, label: str, suggested: str | None
) -> None:
    v = last(gov, text)
    assert v.applicability.label == label, v.applicability.rationale
    if suggested is not None:
        assert v.suggestion is not None, v.applicability.rationale
        assert v.suggestion.authority.article == suggested


@pytest.mark.parametrize(
    "text,label,suggested,trigger,cited_holds",
    [
        # 第三百五十四条's trigger 「容留他人吸食、注射毒品」, not in 第三百四十七条's text
        ("被告人容留他人吸食、注射毒品，应当依法追究刑事责任（《刑法》第三百四十七条）。", "irrelevant", "354", "容留他人吸食、注射毒品", False),
        # 第三百八十五条's trigger 「索取他人财物」 is also 第一百八十四条's own words (bank staff
        # 「在金融业务活动中索取他人财物或者非法收受他人财物」): no evidence against it
        ("根据《刑法》第一百八十四条规定，银行或者其他金融机构工作人员在金融业务活动中索取他人财物或者非法收受他人财物，为他人谋取利益的，将面临定罪处罚。", "supports", None, "索取他人财物", True),
        # the same facts cited to an article whose text does not hold them (盗窃, 第二百六十四条)
        ("国家工作人员利用职务上的便利，索取他人财物，应当依法追究刑事责任（《刑法》第二百六十四条）。", "irrelevant", "385", "索取他人财物", False),
    ],
)  # fmt: skip
def test_facts_in_another_articles_trigger_words(
    gov: Governor, text: str, label: str, suggested: str | None, trigger: str, cited_holds: bool
) -> None:
    v = last(gov, text)
    # the evidence: the statute text of the cited article holds the trigger or not
    assert v.resolved is not None and v.resolved.article is not None
    cited = gov.store.article(CRIMINAL, v.resolved.article, as_of=TODAY)
    assert cited is not None and (trigger in cited.text) is cited_holds
    assert trigger in text
    assert v.applicability.label == label, v.applicability.rationale
    if suggested is None:
        assert v.suggestion is None or v.suggestion.score < 0.5, v.suggestion
    else:
        assert v.suggestion is not None and v.suggestion.authority.article == suggested


def test_criminal_benchmark_balanced_accuracy_on_a_small_sample(gov: Governor) -> None:
    from benchmarks.bench_criminal import charge_cases, evaluate, general_cases

    store = load_default_store()
    cases = charge_cases(store, 12, 7) + general_cases(store)[:12]
    result = evaluate(gov, cases)
    named = result["charge_named_and_general"]
    assert isinstance(named, dict) and named["right"] >= 12 and named["wrong"] >= 12
    assert named["balanced_accuracy"] >= 0.9, result


def test_corpus_show_prints_the_structure() -> None:
    from typer.testing import CliRunner

    from governor.cli.app import app

    res = CliRunner().invoke(app, ["corpus", "show", "劳动合同法第四十六条"])
    assert res.exit_code == 0, res.output
    assert "structure: roles" in res.output and "condition (list_item" in res.output
    assert "→ 第38条" in res.output and "consequence: 应当向劳动者支付经济补偿" in res.output
