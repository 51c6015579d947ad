"""Repair retrieval over the whole store (issue 15 item 4): the scenario suggestion, its
calibrated confidence and recorded proof, the structure rerank, and the bench_repair figures."""

from __future__ import annotations

from datetime import date

import pytest

from benchmarks.bench_repair import figures
from governor.api import Governor
from governor.authorities import ArticleRecord, ParagraphRecord, load_default_store
from governor.core.config import load_config
from verifiers.suggest import scenario_confidence, structure_rank

WAGES_Q = "用人单位未及时足额支付劳动报酬，劳动者可以解除劳动合同吗？"


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor(load_config(overrides={}, environ={}), store=load_default_store())


def test_store_wide_suggestion_from_another_instrument_records_its_proof(gov: Governor) -> None:
    v = gov.verify(
        "劳动者可以解除（《民法典》第一千零四十二条）。", as_of=date(2025, 1, 1), context=WAGES_Q
    )[-1]
    assert v.applicability.label == "irrelevant"
    sug = v.suggestion
    assert sug is not None and sug.authority.instrument == "中华人民共和国劳动合同法"
    assert (
        "another instrument" in sug.reason and "margin" in sug.reason and "coverage" in sug.reason
    )
    assert 0.5 <= sug.score <= 1.0


def test_no_store_wide_suggestion_without_a_question(gov: Governor) -> None:
    v = gov.verify("劳动者可以解除（《民法典》第一千零四十二条）。", as_of=date(2025, 1, 1))[-1]
    assert v.suggestion is None or "store-wide" not in v.suggestion.reason


@pytest.mark.parametrize(
    "margin,coverage,low,high",
    [(0.0, 0.0, 0.0, 0.05), (0.0, 0.3, 0.3, 0.5), (0.2, 0.3, 0.7, 0.9), (0.5, 0.5, 0.99, 1.0)],
)
def test_scenario_confidence_is_monotone_and_bounded(
    margin: float, coverage: float, low: float, high: float
) -> None:
    c = scenario_confidence(margin, coverage)
    assert low <= c <= high
    assert scenario_confidence(margin + 0.1, coverage) > c
    assert scenario_confidence(margin, coverage + 0.1) > c


def _rec(article: str, text: str) -> ArticleRecord:
    return ArticleRecord(
        instrument="X法", version="2020-01-01", article=article, ordinal=0,
        paragraphs=(ParagraphRecord(text=text),),
    )  # fmt: skip


def test_structure_rank_puts_a_rule_before_a_close_procedural_hit() -> None:
    proc = _rec("1", "当事人向人民法院提出申请，应当提交申请书。")  # procedure + duty
    defin = _rec("2", "本法所称经营者是指从事商品生产的自然人。")  # definition only
    rule = _rec("3", "经营者有欺诈行为的，应当按照消费者的要求增加赔偿其受到的损失。")
    ranked = structure_rank([(defin, 1.0), (rule, 0.98), (proc, 0.5)])
    assert [r.article for r, _ in ranked] == ["3", "2", "1"]
    # far apart: retrieval order stands
    assert [r.article for r, _ in structure_rank([(defin, 1.0), (rule, 0.5)])] == ["2", "3"]


def _row(
    group: str,
    exp_a: str,
    target: str | None,
    raw: str,
    pred_a: str,
    sug: str | None,
    score: float | None,
) -> dict:
    return {
        "item": {"id": f"{group}/{raw}/{pred_a}", "group": group, "raw": raw, "expected": {"applicability": exp_a, "suggestion": target}},
        "prediction": {"applicability": pred_a, "suggestion": sug, "suggestion_score": score},
    }  # fmt: skip


def test_bench_repair_figures() -> None:
    rows = [
        _row(
            "m", "irrelevant", "A法#5", "《A法》第一条", "irrelevant", "A法#5", 0.9
        ),  # hit, offered
        _row(
            "m", "irrelevant", "B法#7", "《A法》第二条", "irrelevant", "B法#7", 0.3
        ),  # cross hit, not offered
        _row(
            "m", "irrelevant", "B法#8", "《A法》第三条", "partially_supports", "A法#9", 0.9
        ),  # miss
        _row("m", "supports", None, "《A法》第五条", "supports", None, None),  # kept
        _row(
            "m", "supports", None, "《A法》第五条", "partially_supports", "A法#6", 0.8
        ),  # not kept
        _row("reference", "supports", None, "《A法》第五条", "supports", None, None),
    ]
    inst = {"《A法》第一条": "A法", "《A法》第二条": "A法", "《A法》第三条": "A法"}
    f = figures(rows, 0.5, inst.get)
    assert f["wrong_article"] == {
        "n": 3,
        "top1_reference_any_confidence": 0.6667,
        "top1_reference_offered": 0.3333,
    }
    assert f["wrong_article_other_instrument"] == {
        "n": 2,
        "top1_reference_any_confidence": 0.5,
        "top1_reference_offered": 0.0,
    }
    assert f["correct_kept"] == {"n": 2, "kept": 0.5}
    assert f["reference_answers_kept"] == {"n": 1, "kept": 1.0}
    assert "correct_lost" not in f
    listed = figures(rows, 0.5, inst.get, items=True)
    assert listed["correct_lost"] == ["m/《A法》第五条/partially_supports"]
    assert listed["reference_lost"] == []
