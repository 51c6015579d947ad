"""benchmarks.stats: bootstrap intervals, paired bootstrap, McNemar exact test."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as sps

from benchmarks.metrics import ReportMetrics, RubricJudgement, report_metrics
from benchmarks.stats import (
    bootstrap_ci,
    mcnemar_exact,
    pair_reports,
    paired_bootstrap,
)

B = 2000  # resamples in tests: enough for the pinned cases, fast
VALUES = [0.9, 1.2, 1.0, 0.4, 1.7, 1.1, 0.8, 1.3, 0.95, 1.05]


def test_bootstrap_is_deterministic_given_the_seed() -> None:
    a = bootstrap_ci(VALUES, n_resamples=B, seed=7)
    assert a == bootstrap_ci(VALUES, n_resamples=B, seed=7)
    other = bootstrap_ci(VALUES, n_resamples=B, seed=8)
    assert (other.seed, (other.low, other.high)) != (a.seed, (a.low, a.high))
    assert (other.low, other.high) != (a.low, a.high)


def test_bootstrap_interval_brackets_the_mean_and_matches_scipy_percentile() -> None:
    ci = bootstrap_ci(VALUES, n_resamples=B, seed=0)
    assert ci.estimate == pytest.approx(float(np.mean(VALUES)))
    assert ci.low < ci.estimate < ci.high
    ref = sps.bootstrap(
        (np.array(VALUES),), np.mean, method="percentile", n_resamples=B,
        rng=np.random.default_rng(0),
    ).confidence_interval  # fmt: skip
    assert (ci.low, ci.high) == pytest.approx((ref.low, ref.high), abs=0.04)


def test_bootstrap_of_two_points_spans_both() -> None:
    # resampled means of [0, 1] are 0, .5, 1 with probability 1/4, 1/2, 1/4
    ci = bootstrap_ci([0.0, 1.0], n_resamples=B, seed=1)
    assert (ci.low, ci.high, ci.estimate) == (0.0, 1.0, 0.5)


@pytest.mark.parametrize("values,expected", [([0.7], (0.7, 0.7)), ([0.5] * 6, (0.5, 0.5))])
def test_degenerate_samples_give_a_point_interval(
    values: list[float], expected: tuple[float, float]
) -> None:
    ci = bootstrap_ci(values, n_resamples=B)
    assert (ci.low, ci.high) == pytest.approx(expected)


@pytest.mark.parametrize(
    "kwargs,fragment",
    [
        (dict(values=[]), "non-empty"),
        (dict(values=[1.0, float("nan")]), "NaN"),
        (dict(values=[1.0], confidence=1.0), "confidence"),
        (dict(values=[1.0], n_resamples=0), "n_resamples"),
    ],
)
def test_bootstrap_rejects_bad_input(kwargs: dict[str, object], fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment):
        bootstrap_ci(**kwargs)  # type: ignore[arg-type]


def test_paired_bootstrap_on_identical_strategies_finds_nothing() -> None:
    r = paired_bootstrap(VALUES, VALUES, n_resamples=B)
    assert (r.delta, r.low, r.high, r.p_value) == (0.0, 0.0, 0.0, 1.0)


def test_paired_bootstrap_on_a_constant_gain_is_maximally_significant() -> None:
    b = [v + 0.1 for v in VALUES]
    r = paired_bootstrap(VALUES, b, n_resamples=B, seed=3)
    assert r.delta == pytest.approx(0.1)  # b - a
    assert (r.low, r.high) == pytest.approx((0.1, 0.1))
    assert r.p_value == pytest.approx(1 / (B + 1))
    assert (r.mean_a, r.mean_b) == pytest.approx((np.mean(VALUES), np.mean(b)))


def test_paired_bootstrap_pairs_tasks_rather_than_pooling() -> None:
    # Task difficulty varies a lot but b beats a on every task by 0.05: paired => significant.
    a = [0.2, 1.8, 0.5, 1.5, 0.1, 1.9, 0.7, 1.2]
    b = [x + 0.05 + 0.01 * (i % 3) for i, x in enumerate(a)]
    r = paired_bootstrap(a, b, n_resamples=B, seed=0)
    assert r.low > 0 and r.p_value < 0.01


def test_paired_bootstrap_with_symmetric_differences_is_not_significant() -> None:
    a = [1.0, 1.0, 1.0, 1.0, 1.0, 1.0]
    b = [1.2, 0.8, 1.3, 0.7, 1.1, 0.9]
    r = paired_bootstrap(a, b, n_resamples=B, seed=0)
    assert r.delta == pytest.approx(0.0)
    assert r.low < 0 < r.high and r.p_value > 0.5


def test_paired_bootstrap_is_deterministic_and_checks_lengths() -> None:
    b = [v * 1.1 for v in VALUES]
    assert paired_bootstrap(VALUES, b, n_resamples=B, seed=5) == paired_bootstrap(
        VALUES, b, n_resamples=B, seed=5
    )
    with pytest.raises(ValueError, match="pair them"):
        paired_bootstrap([1.0, 2.0], [1.0], n_resamples=B)


def test_paired_bootstrap_with_one_task_has_no_evidence() -> None:
    r = paired_bootstrap([1.0], [1.5], n_resamples=B)
    assert (r.delta, r.low, r.high, r.p_value) == (0.5, 0.5, 0.5, 1.0)


def _table(both: int, a_only: int, b_only: int, neither: int) -> tuple[list[bool], list[bool]]:
    a = [True] * both + [True] * a_only + [False] * b_only + [False] * neither
    b = [True] * both + [False] * a_only + [True] * b_only + [False] * neither
    return a, b


@pytest.mark.parametrize(
    "table,p",
    [
        ((5, 2, 8, 3), 112 / 1024),  # 2 * P(X <= 2), X ~ Bin(10, 1/2) = 2 * 56/1024
        ((0, 0, 6, 0), 2 / 64),  # 2 * (1/2)^6
        ((4, 3, 3, 4), 1.0),
        ((7, 0, 0, 2), 1.0),  # no discordant pair
        ((0, 1, 0, 0), 1.0),  # Bin(1, 1/2): both tails are 1/2
    ],
)
def test_mcnemar_exact_on_known_tables(table: tuple[int, int, int, int], p: float) -> None:
    a, b = _table(*table)
    r = mcnemar_exact(a, b)
    assert (r.both, r.a_only, r.b_only, r.neither, r.n) == (*table, sum(table))
    assert r.p_value == pytest.approx(p)
    assert mcnemar_exact(b, a).p_value == pytest.approx(p)  # symmetric


def test_mcnemar_checks_lengths() -> None:
    with pytest.raises(ValueError, match="pair them"):
        mcnemar_exact([True], [True, False])


def _report(task_id: str, covered: float = 1.0) -> ReportMetrics:
    judgement = RubricJudgement(item_id="r1", covered=covered, backed=1.0, judge="j")
    return report_metrics([], [judgement], [], task_id=task_id)


def test_pair_reports_aligns_by_task_id() -> None:
    a = [_report("t2", 0.5), _report("t1", 0.25)]
    b = [_report("t1", 1.0), _report("t2", 0.0)]
    pa, pb = pair_reports(a, b)
    assert [r.task_id for r in pa] == [r.task_id for r in pb] == ["t1", "t2"]
    assert [r.s_cov for r in pa] == [0.25, 0.5] and [r.s_cov for r in pb] == [1.0, 0.0]


@pytest.mark.parametrize(
    "a_ids,b_ids,fragment",
    [
        (["t1", "t2"], ["t1", "t3"], r"only in a \['t2'\], only in b \['t3'\]"),
        (["t1", "t1"], ["t1"], r"several reports for tasks \['t1'\]"),
    ],
)
def test_pair_reports_rejects_mismatched_task_sets(
    a_ids: list[str], b_ids: list[str], fragment: str
) -> None:
    with pytest.raises(ValueError, match=fragment):
        pair_reports([_report(i) for i in a_ids], [_report(i) for i in b_ids])
