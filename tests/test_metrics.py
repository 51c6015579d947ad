"""Pinned, hand-computed cases for benchmarks.metrics and benchmarks.taxonomy_profile."""

from __future__ import annotations

from datetime import date
from typing import get_args

import pytest

from benchmarks.metrics import (
    CITE_TYPE_OF_KIND,
    METRICS,
    CitationScore,
    ReportMetrics,
    RubricJudgement,
    SubtopicJudgement,
    citation_diagnostics,
    report_metrics,
    system_metrics,
)
from benchmarks.tasks import RubricItem, Subtopic, Task
from benchmarks.taxonomy_profile import (
    TAXONOMY_CODES,
    TAXONOMY_LAYERS,
    lift,
    taxonomy_profile,
)
from governor.core.labels import is_excluded, item_trust, report_score, score_for
from governor.core.models import CheckResult, Citation, CitationKind, Span, TaxonomyCode, Verdict


def verdict(
    e: str = "exists",
    f: str = "faithful",
    a: str = "supports",
    *,
    kind: CitationKind = "statute",
    taxonomy: tuple[TaxonomyCode, ...] = (),
    n: int = 0,
) -> Verdict:
    """A verdict whose scores follow governor.core.labels from the three labels."""
    es, fs, as_ = (
        score_for("existence", e),
        score_for("fidelity", f),
        score_for("applicability", a),
    )
    cit = Citation(id=f"c{n}", span=Span(start=n, end=n + 1), raw="x", kind=kind)
    return Verdict(
        citation=cit,
        existence=CheckResult(axis="existence", label=e, score=es),
        fidelity=CheckResult(axis="fidelity", label=f, score=fs),
        applicability=CheckResult(axis="applicability", label=a, score=as_),
        item_trust=item_trust(es, fs, as_),
        excluded=is_excluded(e),
        taxonomy=taxonomy,
    )


def rj(item: str, covered: float, backed: float, judge: str = "j") -> RubricJudgement:
    return RubricJudgement(item_id=item, covered=covered, backed=backed, judge=judge)


def sj(sub: str, cites: int, judge: str = "headings") -> SubtopicJudgement:
    return SubtopicJudgement(subtopic_id=sub, cites=cites, judge=judge)


def test_every_metric_declares_range_direction_and_an_empty_value_inside_the_range() -> None:
    for name, spec in METRICS.items():
        assert spec.name == name
        assert spec.low <= spec.empty
        assert spec.high is None or spec.empty <= spec.high
    assert {"s_cov", "s_rubric", "s_subtopic", "s_sup", "s_trust", "s_final"} <= set(METRICS)
    assert METRICS["s_final"].high == 2.0


def test_every_citation_kind_has_a_type() -> None:
    assert set(CITE_TYPE_OF_KIND) == set(get_args(CitationKind))


# (verdicts, rubric, subtopics, expected {field: value})
REPORT_CASES = [
    pytest.param(
        [verdict(n=0), verdict(f="partially_faithful", n=1), verdict(e="unverifiable", n=2)],
        [rj("r1", 1.0, 1.0), rj("r2", 0.5, 0.0)],
        [sj("s1", 2), sj("s2", 0)],
        # cov (1+.5)/2; rubric (1+0)/2; sub 1/2; sup .5; trust (1+.5)/2; final (.75+.5)*.75
        dict(s_cov=0.75, s_rubric=0.5, s_subtopic=0.5, s_sup=0.5, s_trust=0.75,
             s_final=0.9375, n_cite=3, n_excluded=1, all_pass=False),
        id="hand-computed",
    ),
    pytest.param(
        [], [], [],
        dict(s_cov=1.0, s_rubric=1.0, s_subtopic=1.0, s_sup=1.0, s_trust=1.0, s_final=2.0,
             n_cite=0, n_rubric=0, n_subtopics=0, all_pass=True),
        id="empty-is-vacuous",
    ),
    pytest.param(
        [verdict(e="unverifiable", f="not_assessed", a="skipped")],
        [rj("r1", 1.0, 0.0)], [sj("s1", 1)],
        dict(s_trust=1.0, n_cite=1, n_excluded=1, citation_all_pass=True, s_sup=0.5,
             s_final=1.5, all_pass=True),
        id="excluded-only",
    ),
    pytest.param(
        [verdict(f="unknown"), verdict(a="unparseable-judge-answer", n=1)],
        [rj("r1", 1.0, 1.0)], [sj("s1", 1)],
        dict(s_trust=0.0, s_final=0.0, citation_all_pass=False, all_pass=False),
        id="unknown-labels-score-0",
    ),
    pytest.param(
        [verdict(f="not_assessed", a="skipped")],
        [rj("r1", 1.0, 1.0)], [sj("s1", 1)],
        dict(s_trust=1.0, s_final=2.0, citation_all_pass=True, all_pass=True),
        id="NA-counts-1",
    ),
    pytest.param(
        [verdict(e="not_found", f="not_assessed", a="skipped"), verdict(e="repealed", n=1)],
        [rj("r1", 0.5, 0.25)], [sj("s1", 0)],
        # trust (0 + .5)/2 = .25; sup .5*.25 + 0 = .125; final (.5 + .125)*.25
        dict(s_trust=0.25, s_sup=0.125, s_final=0.15625),
        id="E0-and-repealed",
    ),
    pytest.param(
        [verdict()],
        [rj("r1", 0.99, 1.0)], [sj("s1", 1)],
        dict(rubric_all_covered=False, citation_all_pass=True, all_pass=False),
        id="all-pass-needs-full-coverage",
    ),
]  # fmt: skip


@pytest.mark.parametrize("verdicts,rubric,subtopics,expected", REPORT_CASES)
def test_report_metrics(
    verdicts: list[Verdict],
    rubric: list[RubricJudgement],
    subtopics: list[SubtopicJudgement],
    expected: dict[str, object],
) -> None:
    m = report_metrics(verdicts, rubric, subtopics, task_id="t")
    got = {k: getattr(m, k) for k in expected}
    assert got == pytest.approx(expected)


def test_report_trust_is_labels_report_score() -> None:
    vs = [verdict(), verdict(f="misdescribed", n=1), verdict(a="overextended", n=2)]
    m = report_metrics(vs, [rj("r1", 1, 1)], [sj("s1", 1)])
    assert m.s_trust == pytest.approx(report_score(vs).trust) == pytest.approx(0.5)


def test_judges_are_recorded() -> None:
    m = report_metrics(
        [], [rj("r1", 1, 1, "llm:a"), rj("r2", 1, 1, "offline")], [sj("s1", 1, "headings")]
    )
    assert m.coverage_judges == ("llm:a", "offline")
    assert m.support_judges == ("headings", "llm:a", "offline")


def _task() -> Task:
    return Task(
        id="t9",
        query="q",
        as_of=date(2024, 1, 1),
        subtopics=(Subtopic(id="s1", title="a"), Subtopic(id="s2", title="b")),
        rubric=(RubricItem(id="r1", text="x"), RubricItem(id="r2", text="y")),
    )


def test_task_ids_are_the_denominators_and_missing_judgements_score_0() -> None:
    m = report_metrics([], [rj("r1", 1.0, 1.0)], [sj("s2", 3)], task=_task())
    assert m.task_id == "t9"
    assert (m.s_cov, m.s_rubric, m.s_subtopic) == (0.5, 0.5, 0.5)
    assert m.missing_judgements == ("r2", "s1")
    assert (m.n_rubric, m.n_subtopics) == (2, 2)


@pytest.mark.parametrize(
    "rubric,subtopics,fragment",
    [
        ([rj("r1", 1, 1), rj("r1", 0, 0)], [], "two rubric judgements for 'r1'"),
        ([], [sj("s1", 1), sj("s1", 0)], "two subtopic judgements"),
        ([rj("r7", 1, 1)], [], "no rubric item ['r7']"),
        ([], [sj("zz", 1)], "no subtopic ['zz']"),
    ],
)
def test_bad_judgements_raise(
    rubric: list[RubricJudgement], subtopics: list[SubtopicJudgement], fragment: str
) -> None:
    with pytest.raises(ValueError, match=fragment.replace("[", r"\[").replace("]", r"\]")):
        report_metrics([], rubric, subtopics, task=_task())


def test_system_final_is_macro_not_product_of_means() -> None:
    good = report_metrics([verdict()], [rj("r1", 1, 1)], [sj("s1", 1)], task_id="a")
    bad = report_metrics(
        [verdict(e="not_found", f="not_assessed", a="skipped")],
        [rj("r1", 0, 0)],
        [sj("s1", 0)],
        task_id="b",
    )
    assert (good.s_final, bad.s_final) == (2.0, 0.0)
    s = system_metrics([good, bad])
    assert s.s_final == pytest.approx(1.0)  # mean of 2.0 and 0.0
    product = (s.s_cov + s.s_sup) * s.s_trust  # (0.5 + 0.5) * 0.5
    assert product == pytest.approx(0.5)
    assert s.s_final != pytest.approx(product)
    assert (s.report_all_pass, s.n_reports, s.n_cite, s.mean_n_cite) == (0.5, 2, 2, 1.0)


def test_system_micro_diagnostics_overall_and_per_type() -> None:
    r1 = report_metrics([verdict(kind="statute")], [], [], task_id="1")
    r2 = report_metrics(
        [
            verdict(e="not_found", f="not_assessed", a="skipped", kind="case_number", n=1),
            verdict(f="misdescribed", kind="guiding_case", n=2),
            verdict(a="irrelevant", kind="judicial_interpretation", n=3),
            verdict(e="unverifiable", f="not_assessed", a="skipped", kind="us_case", n=4),
        ],
        [],
        [],
        task_id="2",
    )
    s = system_metrics([r1, r2])
    c = s.citations
    # included: 4 (unverifiable out); E (1+0+1+1)/4; F NA skipped (1+0+1)/3; A (1+1+0)/3
    assert (c.n_cite, c.n_included) == (5, 4)
    assert (c.existence, c.fidelity, c.applicability) == pytest.approx((0.75, 2 / 3, 2 / 3))
    assert c.citation_all_pass == pytest.approx(0.25)
    assert c.trust == pytest.approx(0.25)
    by = {d.group: d for d in s.by_type}
    assert list(by) == ["law", "interpretation", "case", "other"]
    assert (by["case"].n_cite, by["case"].n_included) == (3, 2)
    assert (by["case"].existence, by["case"].fidelity, by["case"].applicability) == (0.5, 0.0, 1.0)
    assert (by["interpretation"].applicability, by["law"].existence) == (0.0, 1.0)
    assert by["other"].n_cite == 0 and by["other"].existence == METRICS["existence"].empty


def test_micro_diagnostics_of_one_report_match_labels_report_score() -> None:
    vs = [verdict(), verdict(f="partially_faithful", n=1), verdict(a="contradicts", n=2)]
    d = citation_diagnostics(CitationScore.of(v) for v in vs)
    ref = report_score(vs)
    assert (d.existence, d.fidelity, d.applicability, d.trust) == pytest.approx(
        (ref.existence, ref.fidelity, ref.applicability, ref.trust)
    )


def test_system_over_no_report_raises() -> None:
    with pytest.raises(ValueError, match="at least one report"):
        system_metrics([])


# -------------------------------------------------------------------------- taxonomy profile


def _tax_reports() -> list[ReportMetrics]:
    r1 = report_metrics(
        [
            verdict(e="not_found", f="not_assessed", a="skipped", taxonomy=("L1.1.1",)),
            verdict(f="misdescribed", taxonomy=("L1.1.2", "L1.3.2"), n=1),
        ],
        [],
        [],
        task_id="1",
    )
    r2 = report_metrics(
        [verdict(a="irrelevant", taxonomy=("L1.1.2", "L1.1.2")), verdict(n=1)], [], [], task_id="2"
    )
    r3 = report_metrics([], [], [], task_id="3")
    return [r1, r2, r3]


def test_layers_partition_the_taxonomy_codes() -> None:
    flat = [c for codes in TAXONOMY_LAYERS.values() for c in codes]
    assert sorted(flat) == sorted(TAXONOMY_CODES) and len(flat) == len(set(flat))


def test_hf_and_hd_per_layer() -> None:
    p = taxonomy_profile(_tax_reports())
    layers = {lp.name: (lp.n_reports_with, lp.n_codes, lp.hf, lp.hd) for lp in p.layers}
    # 3 reports, 4 citations; r2's duplicate L1.1.2 counts once.
    assert layers["L1.1"] == pytest.approx((2, 3, 2 / 3, 3 / 4))
    assert layers["L1.3"] == pytest.approx((1, 1, 1 / 3, 1 / 4))
    assert layers["L1.2"] == (0, 0, 0.0, 0.0)
    assert layers["STALE"] == (0, 0, 0.0, 0.0)
    codes = {cp.name: cp.hf for cp in p.codes}
    assert codes["L1.1.2"] == pytest.approx(2 / 3) and codes["L1.1.1"] == pytest.approx(1 / 3)


def test_lift_between_codes_and_zero_marginal_rule() -> None:
    p = taxonomy_profile(_tax_reports())
    cells = {(c.a, c.b): c for c in p.lifts}
    assert len(cells) == len(TAXONOMY_CODES) * (len(TAXONOMY_CODES) - 1) // 2
    assert cells[("L1.1.1", "L1.1.2")].lift == pytest.approx(1 * 3 / (1 * 2))
    assert cells[("L1.1.1", "L1.3.2")].lift == pytest.approx(3.0)
    stale = cells[("L1.1.1", "STALE")]
    assert (stale.lift, stale.defined, stale.n_b) == (1.0, False, 0)


@pytest.mark.parametrize(
    "counts,expected",
    [
        ((2, 2, 1, 4), (1.0, True)),  # independent: .25 / (.5 * .5)
        ((2, 2, 2, 4), (2.0, True)),
        ((2, 2, 0, 4), (0.0, True)),
        ((0, 3, 0, 4), (1.0, False)),
        ((0, 0, 0, 0), (1.0, False)),
    ],
)
def test_lift_formula(counts: tuple[int, int, int, int], expected: tuple[float, bool]) -> None:
    assert lift(*counts) == expected


def test_lift_rejects_inconsistent_counts() -> None:
    with pytest.raises(ValueError, match="inconsistent"):
        lift(1, 2, 2, 4)


def test_hd_with_no_citations_is_vacuous_zero() -> None:
    p = taxonomy_profile([report_metrics([], [], [], task_id="x")])
    assert all(lp.hd == 0.0 and lp.hf == 0.0 for lp in p.layers)
    assert all(c.lift == 1.0 and not c.defined for c in p.lifts)
