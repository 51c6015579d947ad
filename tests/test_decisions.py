"""Earlier versions of interpretations rebuilt from the SPC decisions that amended them
(issue 24 item 1: "any other law whose corpus holds its amendment decisions")."""

from __future__ import annotations

from datetime import date

import pytest

from governor.authorities import AuthorityStore, load_default_store
from governor.authorities.decisions import DecisionError, parse_decision, rebuild_decision
from governor.authorities.rebuild import to_state

BAOHE = "最高人民法院关于仲裁司法审查案件报核问题的有关规定"
FOOD = "最高人民法院关于审理食品药品纠纷案件适用法律若干问题的规定"
SHANGHAI = "最高人民法院关于上海金融法院案件管辖的规定"

DECISION = """根据审判实践需要，经最高人民法院审判委员会第1850次会议决定，对《某规定》作如下修改：
一、将第二条修改为：“新的第二条。”
二、增加一条作为第三条：“新增的第三条。”
三、原第三条作为第四条。
四、将第四条修改为第五条：
“改过的第五条，
第二款。”
本决定自2022年1月1日起施行。
根据本决定，《某规定》作相应修改后，重新公布。"""

AMENDED = to_state(
    [
        ["1", 0, [["第一条。", []]]],
        ["2", 0, [["新的第二条。", []]]],
        ["3", 0, [["新增的第三条。", []]]],
        ["4", 0, [["旧的第三条。", []]]],
        ["5", 0, [["改过的第五条，", []], ["第二款。", []]]],
    ]
)


def test_a_decision_is_read_instruction_by_instruction() -> None:
    d = parse_decision("关于修改《某规定》的决定", DECISION)
    assert d.in_force == date(2022, 1, 1)
    assert [(o.kind, o.src, o.dst, len(o.paras)) for o in d.ops] == [
        ("replace", "2", "2", 1),
        ("add", None, "3", 1),
        ("move", "3", "4", 0),
        ("replace", "4", "5", 2),
    ]


def test_the_text_before_the_decision_is_rebuilt_and_checked_forward() -> None:
    rb = rebuild_decision(AMENDED, parse_decision("关于修改《某规定》的决定", DECISION))
    assert list(rb.before) == ["1", "2", "3", "4"]  # 第三条 was added: four articles before
    assert rb.before["1"] == AMENDED["1"] and rb.before["3"] == AMENDED["4"]  # renumbered
    assert rb.before["2"] is None and rb.before["4"] is None  # replaced: wording unknown
    assert rb.unknown == {"2", "4"} and rb.later["4"] == "5"


def test_a_quotation_that_differs_from_the_amended_text_is_refused() -> None:
    changed = dict(AMENDED)
    changed["3"] = [("另一个第三条。", [])]
    with pytest.raises(DecisionError, match="differs from its quotation"):
        rebuild_decision(changed, parse_decision("关于修改《某规定》的决定", DECISION))


def test_a_numbering_that_does_not_close_is_refused() -> None:
    extra = dict(AMENDED)
    extra["7"] = [("第七条。", [])]  # old 第五条/第六条 would be missing
    with pytest.raises(DecisionError, match="does not close"):
        rebuild_decision(extra, parse_decision("关于修改《某规定》的决定", DECISION))


@pytest.mark.parametrize(
    "line",
    [
        "一、第一条第二款开始部分增加规定：“铁路运输企业……不适用本解释”。",  # 铁路运输 decision
        "二、删去第二条中的“依法由受害人承担扶养义务的被扶养人”。",
        "五、将第六条和第七条合并修改为：“……”",
    ],
)
def test_sentence_level_edits_are_not_parsed(line: str) -> None:
    with pytest.raises(DecisionError):
        parse_decision("关于修改《某解释》的决定", f"{line}\n本决定自2022年1月1日起施行。")


@pytest.fixture(scope="module")
def store() -> AuthorityStore:
    return load_default_store()


def test_the_build_reports_each_decision(store: AuthorityStore) -> None:
    report = store._payload["source"]["rebuilt_versions"]
    added = {
        v["target"]: v["versions_added"]
        for k, v in report.items()
        if isinstance(v, dict) and "target" in v
    }
    assert added == {BAOHE: 1, FOOD: 1, SHANGHAI: 1}
    skipped = [k for k, v in report.items() if isinstance(v, str) and "最高人民" in k]
    assert len(skipped) == 6  # 3 multi-instrument, 铁路运输, 掩饰隐瞒 (no text edit), 信用卡
    assert all(report[k].startswith("skipped: ") for k in skipped)


def test_the_arbitration_review_rules_before_2022(store: AuthorityStore) -> None:
    """2021 decision: 第三条 replaced, 第四条 added, old 第四条-第八条 → 第五条-第九条."""
    new4 = store.article(BAOHE, "4", as_of=date(2022, 6, 1))
    assert new4 is not None and "十五日内向最高人民法院报备" in new4.text
    old4 = store.article(BAOHE, "4", as_of=date(2020, 6, 1))
    new5 = store.article(BAOHE, "5", as_of=date(2022, 6, 1))
    assert old4 is not None and new5 is not None and old4.text == new5.text
    assert "报备" not in old4.text
    assert store.article(BAOHE, "9", as_of=date(2020, 6, 1)) is None  # eight articles then
    old3 = store.article(BAOHE, "3", as_of=date(2020, 6, 1))
    assert old3 is not None  # its 2017 wording is in no corpus text: marked, not judged
    assert store.text_in_force_from(BAOHE, old3.version, "3") == date(2022, 1, 1)


def test_the_food_and_drug_rules_between_the_two_decisions(store: AuthorityStore) -> None:
    """In force 2021-01-01 (the 2020-12-23 decision's own date) until 2021-12-01."""
    v = store.version_dates(FOOD, as_of=date(2021, 6, 1))
    assert v is not None and v.in_force_from == date(2021, 1, 1)
    assert v.in_force_to == date(2021, 12, 1)
    rec = store.article(FOOD, "12", as_of=date(2021, 6, 1))
    assert rec is not None and store.text_in_force_from(FOOD, rec.version, "12") == date(
        2021, 12, 1
    )
    assert store.text_in_force_from(FOOD, rec.version, "11") is None


def test_the_shanghai_financial_court_rules_had_seven_articles(store: AuthorityStore) -> None:
    assert store.article(SHANGHAI, "8", as_of=date(2020, 1, 1)) is None
    old5 = store.article(SHANGHAI, "5", as_of=date(2020, 1, 1))
    new10 = store.article(SHANGHAI, "10", as_of=date(2022, 1, 1))
    assert old5 is not None and new10 is not None and old5.text == new10.text
