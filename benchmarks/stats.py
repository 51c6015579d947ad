"""Uncertainty and paired comparisons over benchmark tasks (SPEC §4).

* :func:`bootstrap_ci` — 95 % percentile bootstrap interval of a mean over tasks
  (Efron & Tibshirani 1993, *An Introduction to the Bootstrap*, ch. 13).
* :func:`paired_bootstrap` — paired bootstrap on the per-task difference of two strategies run
  on the same tasks: percentile interval of the mean difference and a two-sided p-value from
  the null-shifted bootstrap distribution (Efron & Tibshirani 1993 §16.4; the ``(1 + k)/(B + 1)``
  form from Davison & Hinkley 1997, *Bootstrap Methods*, eq. 4.11, so p is never 0).
* :func:`mcnemar_exact` — McNemar's exact test on paired booleans (all-pass): a two-sided
  binomial test with p = 1/2 on the discordant pairs (``scipy.stats.binomtest``).

Everything is deterministic given ``seed`` (``numpy.random.default_rng``). Resampling is done
here with numpy rather than ``scipy.stats.bootstrap`` because that one refuses samples of
size 1, and its seeding keyword changed between the scipy versions we allow (``>=1.11``); the
p-value also needs the bootstrap distribution itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np
from pydantic import Field
from scipy.stats import binomtest

from benchmarks.metrics import ReportMetrics
from governor.core.models import Frozen

DEFAULT_RESAMPLES: Final = 10_000
DEFAULT_CONFIDENCE: Final = 0.95
_CELLS_PER_CHUNK: Final = 2_000_000  # resampled values held in memory at once (16 MB)


class BootstrapCI(Frozen):
    """Percentile bootstrap interval of a mean.

    Attributes:
        estimate: Mean of the observed values.
        low, high: Interval bounds (same unit as the values).
        confidence: Nominal coverage in (0, 1), e.g. 0.95.
        n: Number of tasks.
        n_resamples: Bootstrap resamples drawn.
        seed: Seed of the generator.
    """

    estimate: float
    low: float
    high: float
    confidence: float = Field(gt=0.0, lt=1.0)
    n: int = Field(ge=1)
    n_resamples: int = Field(ge=1)
    seed: int


class PairedBootstrap(Frozen):
    """Paired bootstrap comparison of strategy ``b`` against strategy ``a`` on the same tasks.

    Attributes:
        n: Number of paired tasks.
        mean_a, mean_b: Means of the two strategies.
        delta: ``mean_b - mean_a`` (the mean per-task difference ``b - a``).
        low, high: Percentile interval of ``delta``.
        p_value: Two-sided p for H0: mean difference 0, in (0, 1].
        confidence, n_resamples, seed: As in :class:`BootstrapCI`.
    """

    n: int = Field(ge=1)
    mean_a: float
    mean_b: float
    delta: float
    low: float
    high: float
    p_value: float = Field(gt=0.0, le=1.0)
    confidence: float = Field(gt=0.0, lt=1.0)
    n_resamples: int = Field(ge=1)
    seed: int


class McNemarResult(Frozen):
    """McNemar exact test on paired booleans (e.g. report all-pass under two strategies).

    Attributes:
        n: Paired tasks.
        both: True under ``a`` and ``b``.
        a_only: True under ``a`` only (discordant).
        b_only: True under ``b`` only (discordant).
        neither: False under both.
        p_value: Two-sided exact p in [0, 1]; 1.0 with no discordant pair.
    """

    n: int = Field(ge=0)
    both: int = Field(ge=0)
    a_only: int = Field(ge=0)
    b_only: int = Field(ge=0)
    neither: int = Field(ge=0)
    p_value: float = Field(ge=0.0, le=1.0)


def _array(values: Sequence[float], name: str) -> np.ndarray:
    x = np.asarray(values, dtype=float)
    if x.ndim != 1 or x.size == 0:
        raise ValueError(f"{name}: need a non-empty flat sequence of per-task values")
    if not np.isfinite(x).all():
        raise ValueError(f"{name}: contains NaN or infinity; score every task first")
    return x


def _check(confidence: float, n_resamples: int) -> None:
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence {confidence} must be in (0, 1), e.g. 0.95")
    if n_resamples < 1:
        raise ValueError(f"n_resamples {n_resamples} must be >= 1 (10000 is usual)")


def _bootstrap_means(x: np.ndarray, n_resamples: int, seed: int) -> np.ndarray:
    """Means of ``n_resamples`` resamples (with replacement, size ``len(x)``) of ``x``."""
    rng = np.random.default_rng(seed)
    out = np.empty(n_resamples)
    chunk = max(1, _CELLS_PER_CHUNK // x.size)
    for start in range(0, n_resamples, chunk):
        k = min(chunk, n_resamples - start)
        out[start : start + k] = x[rng.integers(0, x.size, size=(k, x.size))].mean(axis=1)
    return out


def _percentile(dist: np.ndarray, confidence: float) -> tuple[float, float]:
    alpha = 1.0 - confidence
    low, high = np.quantile(dist, [alpha / 2, 1.0 - alpha / 2])
    return float(low), float(high)


def bootstrap_ci(
    values: Sequence[float],
    *,
    confidence: float = DEFAULT_CONFIDENCE,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
) -> BootstrapCI:
    """Percentile bootstrap interval of the mean of per-task values (tasks resampled).

    Args:
        values: One value per task (e.g. per-report ``s_final``), finite.
        confidence: Nominal coverage in (0, 1).
        n_resamples: Number of resamples (>= 1).
        seed: Seed; equal inputs and seed give equal output.

    Returns:
        The :class:`BootstrapCI`. With one task the interval is ``[x, x]``.

    Raises:
        ValueError: Empty or non-finite ``values``, or a bad ``confidence``/``n_resamples``.
    """
    _check(confidence, n_resamples)
    x = _array(values, "values")
    estimate = float(x.mean())
    if x.size == 1:
        low = high = estimate
    else:
        low, high = _percentile(_bootstrap_means(x, n_resamples, seed), confidence)
    return BootstrapCI(
        estimate=estimate,
        low=low,
        high=high,
        confidence=confidence,
        n=int(x.size),
        n_resamples=n_resamples,
        seed=seed,
    )


def paired_bootstrap(
    a: Sequence[float],
    b: Sequence[float],
    *,
    confidence: float = DEFAULT_CONFIDENCE,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
) -> PairedBootstrap:
    """Paired bootstrap on ``d_i = b_i - a_i`` over tasks (e.g. Δ final, EFA vs E-Filter).

    Tasks are resampled as pairs. The interval is the percentile interval of the resampled
    mean differences; the p-value is ``(1 + #{|d̄* - d̄| >= |d̄|}) / (B + 1)``: how often the
    null-shifted distribution is at least as far from 0 as the observed mean difference.

    Args:
        a: Per-task values of the reference strategy.
        b: Per-task values of the compared strategy, same tasks in the same order (see
            :func:`pair_reports`).
        confidence: Nominal coverage in (0, 1).
        n_resamples: Number of resamples ``B`` (>= 1).
        seed: Seed; equal inputs and seed give equal output.

    Returns:
        The :class:`PairedBootstrap`. With one task the interval is ``[d, d]`` and p is 1.0
        (a single pair carries no evidence of a difference).

    Raises:
        ValueError: Empty, non-finite or unequal-length inputs, or bad parameters.
    """
    _check(confidence, n_resamples)
    xa, xb = _array(a, "a"), _array(b, "b")
    if xa.size != xb.size:
        raise ValueError(f"a has {xa.size} tasks and b {xb.size}: pair them with pair_reports")
    d = xb - xa
    delta = float(d.mean())
    if d.size == 1:
        low = high = delta
        p = 1.0
    else:
        dist = _bootstrap_means(d, n_resamples, seed)
        low, high = _percentile(dist, confidence)
        extreme = int(np.count_nonzero(np.abs(dist - delta) >= abs(delta)))
        p = (1 + extreme) / (n_resamples + 1)
    return PairedBootstrap(
        n=int(d.size),
        mean_a=float(xa.mean()),
        mean_b=float(xb.mean()),
        delta=delta,
        low=low,
        high=high,
        p_value=p,
        confidence=confidence,
        n_resamples=n_resamples,
        seed=seed,
    )


def mcnemar_exact(a: Sequence[bool], b: Sequence[bool]) -> McNemarResult:
    """McNemar's exact test on paired booleans (McNemar 1947; exact binomial form).

    Under H0 the discordant pairs split 50/50, so the two-sided p is
    ``binomtest(a_only, a_only + b_only, 0.5)``; with no discordant pair it is 1.0.

    Args:
        a: Per-task outcome under strategy ``a`` (e.g. report all-pass).
        b: Per-task outcome under strategy ``b``, same tasks in the same order.

    Returns:
        The :class:`McNemarResult` with the 2x2 table and p.

    Raises:
        ValueError: ``a`` and ``b`` differ in length.
    """
    if len(a) != len(b):
        raise ValueError(f"a has {len(a)} tasks and b {len(b)}: pair them with pair_reports")
    pairs = list(zip(map(bool, a), map(bool, b), strict=True))
    a_only = sum(x and not y for x, y in pairs)
    b_only = sum(y and not x for x, y in pairs)
    discordant = a_only + b_only
    p = float(binomtest(a_only, discordant, 0.5).pvalue) if discordant else 1.0
    return McNemarResult(
        n=len(pairs),
        both=sum(x and y for x, y in pairs),
        a_only=a_only,
        b_only=b_only,
        neither=sum(not x and not y for x, y in pairs),
        p_value=min(1.0, p),
    )


def pair_reports(
    a: Sequence[ReportMetrics], b: Sequence[ReportMetrics]
) -> tuple[tuple[ReportMetrics, ...], tuple[ReportMetrics, ...]]:
    """Align two strategies' reports by ``task_id`` (sorted), for the paired tests.

    Args:
        a: Reports of strategy ``a``, one per task.
        b: Reports of strategy ``b``, one per task.

    Returns:
        ``(a_sorted, b_sorted)``: equal length, ``a_sorted[i].task_id == b_sorted[i].task_id``.

    Raises:
        ValueError: A task id repeats within one side, or the two sides cover different
            tasks (the ids missing on each side are named).
    """
    sides = []
    for name, reports in (("a", a), ("b", b)):
        by_id = {r.task_id: r for r in reports}
        if len(by_id) != len(reports):
            ids = [r.task_id for r in reports]
            dup = sorted({i for i in ids if ids.count(i) > 1})
            raise ValueError(f"strategy {name} has several reports for tasks {dup}")
        sides.append(by_id)
    only_a = sorted(set(sides[0]) - set(sides[1]))
    only_b = sorted(set(sides[1]) - set(sides[0]))
    if only_a or only_b:
        raise ValueError(
            f"paired tests need the same tasks: only in a {only_a}, only in b {only_b}; "
            "rerun the missing tasks or drop them from both"
        )
    ids = sorted(sides[0])
    return tuple(sides[0][i] for i in ids), tuple(sides[1][i] for i in ids)
