"""Calibrated confidence: reliability tables, ECE and calibration maps (issue 13 item 2; layer 6).

A confidence *means a probability* when, among the verdicts that say 0.8, about 80 % are
right. This module measures that on labelled citations (:mod:`benchmarks.calibration`) and
fits a monotone map from a raw score to a probability:

- **what is calibrated** (:data:`KINDS`): for each axis, the verdict's score
  (``CheckResult.score`` in [0, 1]) against "the label passes" (not in
  :data:`benchmarks.calibration.FLAGGED`); for suggestions, ``Suggestion.score`` against "the
  suggested provision is the labelled target";
- **reliability table**: equal-width bins of the predicted probability; per bin the count, the
  mean prediction and the observed rate; **ECE** = Σ_b (n_b / N) · |mean_pred_b − observed_b|
  (Naeini et al. 2015; Guo et al. 2017) and the **Brier score** = mean (p − y)²;
- **maps**: isotonic regression (pool-adjacent-violators, ``scipy.optimize.isotonic_regression``;
  Zadrozny & Elkan 2002) stored as knots and applied by linear interpolation, or Platt scaling
  (a logistic curve on the raw score, fitted by maximum likelihood with Platt's smoothed
  targets; Platt 1999).

Protocol (SPEC: LawBench labels are threshold-tuning data only): a map is fitted on one group
(one dev model's labels) and checked on the other groups; nothing else is learnt from them.
Groups in :data:`EXCLUDED_GROUPS` are left out of both: the LawBench reference answers are
positives by construction (every reference citation "supports" its scenario), not answers a
model wrote, and would make any judge look calibrated. A map is only fitted when the fitting
group has at least :data:`MIN_FIT` examples of each outcome; otherwise the report says why and
the raw score is kept. Empty input: ECE and Brier are ``None``, never 0.0.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final, Literal

import numpy as np
from pydantic import Field
from scipy.optimize import isotonic_regression, minimize

from benchmarks.calibration import AXES, LabelledItem, Prediction, is_flagged
from governor.core.config import interpolate
from governor.core.models import Frozen

EXCLUDED_GROUPS: Final = frozenset({"reference"})
"""Label groups left out of confidence calibration (see the module docstring)."""
MIN_FIT: Final = 5
"""Fewest examples of each outcome in the fitting group for a map to be fitted."""

Kind = Literal["existence", "fidelity", "applicability", "suggestion"]
KINDS: Final[tuple[Kind, ...]] = ("existence", "fidelity", "applicability", "suggestion")
Method = Literal["isotonic", "platt"]


class ReliabilityBin(Frozen):
    """One bin ``[lo, hi)`` (the last one closed) of predicted probabilities."""

    lo: float
    hi: float
    n: int = Field(ge=0)
    mean_predicted: float | None
    observed: float | None


class ReliabilityTable(Frozen):
    """Reliability of predicted probabilities against outcomes (see the module docstring)."""

    n: int = Field(ge=0)
    bins: tuple[ReliabilityBin, ...]
    ece: float | None
    brier: float | None


def reliability(
    predicted: Sequence[float], outcome: Sequence[bool], n_bins: int = 10
) -> ReliabilityTable:
    """Reliability table, ECE and Brier score.

    Args:
        predicted: probabilities in [0, 1] (values outside are clipped).
        outcome: True where the prediction's event happened.
        n_bins: number of equal-width bins on [0, 1].

    Raises:
        ValueError: lengths differ or ``n_bins < 1``.
    """
    if len(predicted) != len(outcome):
        raise ValueError(f"{len(predicted)} predictions but {len(outcome)} outcomes")
    if n_bins < 1:
        raise ValueError("n_bins must be at least 1")
    p = np.clip(np.asarray(predicted, dtype=float), 0.0, 1.0)
    y = np.asarray(outcome, dtype=float)
    idx = np.minimum((p * n_bins).astype(int), n_bins - 1)
    bins = []
    ece = 0.0
    for b in range(n_bins):
        mask = idx == b
        n = int(mask.sum())
        mp = float(p[mask].mean()) if n else None
        ob = float(y[mask].mean()) if n else None
        if mp is not None and ob is not None:
            ece += n / len(p) * abs(mp - ob)
        bins.append(
            ReliabilityBin(lo=b / n_bins, hi=(b + 1) / n_bins, n=n, mean_predicted=mp, observed=ob)
        )
    empty = len(p) == 0
    return ReliabilityTable(
        n=len(p),
        bins=tuple(bins),
        ece=None if empty else ece,
        brier=None if empty else float(((p - y) ** 2).mean()),
    )


class CalibrationMap(Frozen):
    """A monotone map from a raw score in [0, 1] to a probability in [0, 1].

    ``knots`` are ``(raw, probability)`` pairs sorted by raw; between knots the map is linear,
    outside them constant (the end values). Platt maps are stored as knots too (sampled on a
    grid of 101 points), so config and code need one representation only.
    """

    method: Method
    knots: tuple[tuple[float, float], ...]
    n: int = Field(ge=0)
    """Number of fitting examples."""

    def __call__(self, raw: float) -> float:
        """The probability for ``raw``."""
        return apply_knots(self.knots, raw)


def apply_knots(knots: Sequence[tuple[float, float]], raw: float) -> float:
    """Piecewise-linear interpolation through ``knots`` (constant outside; ``raw`` if empty);
    the same function the pipeline uses (:func:`governor.core.config.interpolate`)."""
    return interpolate(tuple(knots), raw)


def _compress(knots: Sequence[tuple[float, float]]) -> tuple[tuple[float, float], ...]:
    """Drop knots inside a run of equal probabilities (the map is unchanged)."""
    out: list[tuple[float, float]] = []
    for i, k in enumerate(knots):
        inner = 0 < i < len(knots) - 1 and knots[i - 1][1] == k[1] == knots[i + 1][1]
        if not inner:
            out.append(k)
    return tuple(out)


def fit_isotonic(raw: Sequence[float], outcome: Sequence[bool]) -> CalibrationMap:
    """Isotonic (non-decreasing) map fitted by pool-adjacent-violators.

    Equal raw scores are pooled first (their mean outcome, weighted by count), so a discrete
    score gets one probability per value.

    Raises:
        ValueError: no examples or lengths differ.
    """
    if not raw or len(raw) != len(outcome):
        raise ValueError("isotonic calibration needs one outcome per score and at least one")
    xs = np.asarray(raw, dtype=float)
    ys = np.asarray(outcome, dtype=float)
    ux, inv = np.unique(xs, return_inverse=True)
    w = np.bincount(inv).astype(float)
    mean = np.bincount(inv, weights=ys) / w
    fitted = isotonic_regression(mean, weights=w, increasing=True).x
    return CalibrationMap(
        method="isotonic",
        knots=_compress(
            [(round(float(x), 4), round(float(f), 4)) for x, f in zip(ux, fitted, strict=True)]
        ),
        n=len(xs),
    )


def fit_platt(raw: Sequence[float], outcome: Sequence[bool]) -> CalibrationMap:
    """Platt scaling: ``p = 1 / (1 + exp(-(a·raw + b)))`` by maximum likelihood.

    Targets are Platt's smoothed ``(N+ + 1) / (N+ + 2)`` and ``1 / (N- + 2)``, so a separable
    set does not drive the slope to infinity. The map is stored as 101 knots on [0, 1].

    Raises:
        ValueError: no examples or lengths differ.
    """
    if not raw or len(raw) != len(outcome):
        raise ValueError("Platt scaling needs one outcome per score and at least one")
    x = np.asarray(raw, dtype=float)
    y = np.asarray(outcome, dtype=bool)
    pos, neg = int(y.sum()), int((~y).sum())
    t = np.where(y, (pos + 1) / (pos + 2), 1 / (neg + 2))

    def loss(ab: np.ndarray) -> float:
        z = ab[0] * x + ab[1]
        # log(1 + e^z) − t·z, computed stably
        return float(np.sum(np.logaddexp(0.0, z) - t * z))

    res = minimize(loss, np.array([1.0, 0.0]), method="L-BFGS-B")
    a, b = (float(v) for v in res.x)
    grid = np.linspace(0.0, 1.0, 101)
    return CalibrationMap(
        method="platt",
        knots=tuple(
            (round(float(g), 4), round(1.0 / (1.0 + math.exp(-(a * g + b))), 4)) for g in grid
        ),
        n=len(x),
    )


def fit(raw: Sequence[float], outcome: Sequence[bool], method: Method) -> CalibrationMap:
    """Fit a map with ``method`` (``isotonic`` or ``platt``)."""
    return fit_isotonic(raw, outcome) if method == "isotonic" else fit_platt(raw, outcome)


def threshold_for(cmap: CalibrationMap, target: float) -> float | None:
    """The smallest raw score in [0, 1] (to 0.01) whose calibrated probability is ≥ ``target``;
    None when no score reaches it."""
    for i in range(101):
        if cmap(i / 100) >= target - 1e-12:
            return i / 100
    return None


def confidence_pairs(
    kind: Kind, items: Sequence[LabelledItem], preds: Sequence[Prediction]
) -> list[tuple[str, float, bool]]:
    """``(group, raw score, outcome)`` for every item that has both a label and a score.

    Axes: items labelled on the axis whose target was found and scored; outcome = the label
    is not flagged (the verdict's "passes" is right to say so). Suggestions: items with a
    labelled target provision and an offered suggestion; outcome = the suggestion is it.
    """
    out: list[tuple[str, float, bool]] = []
    for it, p in zip(items, preds, strict=True):
        if kind == "suggestion":
            if it.expected.suggestion and p.suggestion_score is not None:
                out.append((it.group, p.suggestion_score, p.suggestion == it.expected.suggestion))
            continue
        label = it.expected.label(kind)
        raw = p.score(kind) if p.found else None
        if label is not None and raw is not None:
            out.append((it.group, raw, not is_flagged(kind, label)))
    return out


class GroupEce(Frozen):
    """ECE of one held-out group, raw and with the map applied (None when empty)."""

    group: str
    n: int
    raw: float | None
    calibrated: float | None


class KindReport(Frozen):
    """Calibration of one kind of confidence: fitted on ``fit_group``, checked on the rest.

    ``raw_heldout`` treats the raw score as a probability; ``calibrated_heldout`` applies the
    map fitted on ``fit_group`` (the raw score again when no map was fitted: ``no_map`` says
    why); ``per_group`` is the held-out ECE group by group; ``threshold_50`` is the smallest
    raw score whose calibrated probability is ≥ 0.5 (None when never or without a map).
    """

    kind: Kind
    fit_group: str
    n_fit: int
    n_heldout: int
    map: CalibrationMap | None
    no_map: str = ""
    raw_fit: ReliabilityTable
    raw_heldout: ReliabilityTable
    calibrated_heldout: ReliabilityTable
    per_group: tuple[GroupEce, ...] = ()
    threshold_50: float | None = None


def calibrate_kind(
    kind: Kind,
    items: Sequence[LabelledItem],
    preds: Sequence[Prediction],
    fit_group: str,
    method: Method = "isotonic",
    n_bins: int = 10,
) -> KindReport:
    """Fit a map for ``kind`` on ``fit_group``'s items and check it on the other groups."""
    pairs = [p for p in confidence_pairs(kind, items, preds) if p[0] not in EXCLUDED_GROUPS]
    fit_x = [r for g, r, _ in pairs if g == fit_group]
    fit_y = [o for g, _, o in pairs if g == fit_group]
    held = [(g, r, o) for g, r, o in pairs if g != fit_group]
    pos = sum(fit_y)
    no_map = ""
    if min(pos, len(fit_y) - pos) < MIN_FIT:
        no_map = (
            f"{fit_group} has {pos} passing and {len(fit_y) - pos} failing examples; "
            f"a map needs {MIN_FIT} of each"
        )
    cmap = fit(fit_x, fit_y, method) if not no_map else None

    def cal(r: float) -> float:
        return cmap(r) if cmap is not None else r

    per_group = []
    for g in sorted({g for g, _, _ in held}):
        gx = [r for h, r, _ in held if h == g]
        gy = [o for h, _, o in held if h == g]
        per_group.append(
            GroupEce(
                group=g,
                n=len(gx),
                raw=reliability(gx, gy, n_bins).ece,
                calibrated=reliability([cal(r) for r in gx], gy, n_bins).ece,
            )
        )
    ho_x = [r for _, r, _ in held]
    ho_y = [o for _, _, o in held]
    return KindReport(
        kind=kind,
        fit_group=fit_group,
        n_fit=len(fit_x),
        n_heldout=len(ho_x),
        map=cmap,
        no_map=no_map,
        raw_fit=reliability(fit_x, fit_y, n_bins),
        raw_heldout=reliability(ho_x, ho_y, n_bins),
        calibrated_heldout=reliability([cal(r) for r in ho_x], ho_y, n_bins),
        per_group=tuple(per_group),
        threshold_50=threshold_for(cmap, 0.5) if cmap is not None else None,
    )


def calibrate_all(
    items: Sequence[LabelledItem],
    preds: Sequence[Prediction],
    fit_group: str,
    method: Method = "isotonic",
    n_bins: int = 10,
) -> tuple[KindReport, ...]:
    """:func:`calibrate_kind` for every kind that has fitting examples in ``fit_group``."""
    out = []
    for kind in KINDS:
        rep = calibrate_kind(kind, items, preds, fit_group, method, n_bins)
        if rep.n_fit or rep.n_heldout:
            out.append(rep)
    return tuple(out)


def _toml_str(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


def transfers(report: KindReport) -> bool:
    """True when the fitted map lowers the held-out ECE (the check that adopts a map)."""
    raw, cal = report.raw_heldout.ece, report.calibrated_heldout.ece
    return report.map is not None and raw is not None and cal is not None and cal < raw


def thresholds_toml(
    reports: Sequence[KindReport], source: str, candidates: CandidateFit | None = None
) -> str:
    """A config file (TOML) with the fitted ``[thresholds]`` and their ``source``.

    ``[thresholds.calibration]`` holds every map that :func:`transfers` (lowers the held-out
    ECE); ``suggestion_min_score`` is set to the raw score at which a suggestion is right with
    calibrated probability ≥ 0.5 only when the suggestion map transfers (otherwise the
    default stays and ``source`` says why). ``source`` lists, per kind, the method, the
    fitting group's size and the held-out ECE raw → calibrated. With ``candidates`` (a
    :class:`CandidateFit` whose threshold exists), ``candidate_weights`` and
    ``candidate_name_probability`` are written too, with the held-out precision in ``source``.
    """
    lines = [
        "# Fitted by `citegov calibrate --fit-group … --write-thresholds`; see README.",
        "",
        "[thresholds]",
    ]
    sug = next((r for r in reports if r.kind == "suggestion"), None)
    notes = []
    if sug is not None and transfers(sug) and sug.threshold_50 is not None:
        lines.append(f"suggestion_min_score = {sug.threshold_50}")
    elif sug is not None:
        notes.append(
            "suggestion_min_score kept at its default: the suggestion map does not "
            "lower the held-out ECE"
        )
    if candidates is not None and candidates.threshold is not None:
        lines.append(f"candidate_weights = [{', '.join(str(w) for w in candidates.weights)}]")
        lines.append(f"candidate_name_probability = {candidates.threshold}")
        held = "; ".join(
            f"{g} {right}/{named} right, names {rate}"
            for g, _n, named, right, _w, _p, rate in candidates.per_group
        )
        notes.append(
            f"candidates: logistic on {candidates.n_fit} of {candidates.fit_group}, named at "
            f"p >= {candidates.threshold} ({held})"
        )
    for r in reports:
        if r.map is None:
            notes.append(f"{r.kind}: no map ({r.no_map})")
            continue
        verdict = "adopted" if transfers(r) else "not adopted"
        notes.append(
            f"{r.kind}: {r.map.method} on {r.n_fit} items of {r.fit_group}, held-out ECE "
            f"{_fmt(r.raw_heldout.ece)} raw -> {_fmt(r.calibrated_heldout.ece)} ({verdict})"
        )
    lines.append(f"source = {_toml_str(source + ' | ' + '; '.join(notes))}")
    lines += ["", "[thresholds.calibration]"]
    for r in reports:
        if r.map is not None and transfers(r):
            knots = ", ".join(f"[{x}, {y}]" for x, y in r.map.knots)
            lines.append(f"{r.kind} = [{knots}]")
    return "\n".join(lines) + "\n"


def _fmt(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f}"


__all__ = [
    "AXES",
    "KINDS",
    "CalibrationMap",
    "KindReport",
    "ReliabilityTable",
    "apply_knots",
    "calibrate_all",
    "calibrate_kind",
    "confidence_pairs",
    "fit",
    "fit_isotonic",
    "fit_platt",
    "reliability",
    "threshold_for",
    "thresholds_toml",
    "transfers",
]


# ------------------------------------------------------------------------------ candidates

NAME_PRECISION: Final = 0.9
"""Named candidates must be right this often on held-back dev data (issue 22 item 1)."""


class CandidateFit(Frozen):
    """The candidate map fitted on one group and checked on the others.

    ``weights`` = ``(bias, w per feature)`` (``verifiers.suggest.CANDIDATE_FEATURES``);
    ``threshold`` = the smallest probability from which named candidates were right ≥
    :data:`NAME_PRECISION` on out-of-fold predictions of the fit group (two folds by item id);
    ``per_group`` = per group: items with a candidate, named at the threshold, right among
    them, the wrong-article items (target known) and the share of them named right.
    """

    features: tuple[str, ...]
    weights: tuple[float, ...]
    threshold: float | None
    fit_group: str
    n_fit: int
    per_group: tuple[tuple[str, int, int, int, int, float | None, float | None], ...] = ()
    """``(group, candidates, named, right, wrong_article, precision, naming_rate)``."""


def candidate_pairs(
    items: Sequence[LabelledItem], preds: Sequence[Prediction], features: Sequence[str]
) -> list[tuple[str, str, tuple[float, ...], bool, bool]]:
    """``(group, id, features, right, wrong_article)`` per model answer whose verdict carries a
    store-wide candidate with exactly the named ``features``: right = it is the labelled
    target provision (an answer labelled ``supports`` has none: any candidate is wrong);
    reference answers left out."""
    out = []
    for it, p in zip(items, preds, strict=True):
        if it.group == "reference" or not p.suggestion_features:
            continue
        if tuple(k for k, _v in p.suggestion_features) != tuple(features):
            continue  # another kind of candidate (``off_question``)
        app = it.expected.applicability
        target = it.expected.suggestion
        if app == "supports":
            right, wrong = False, False
        elif app is not None and target:
            right, wrong = p.suggestion == target, True
        else:
            continue
        feats = tuple(v for _k, v in p.suggestion_features)
        out.append((it.group, it.id, feats, right, wrong))
    return out


def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float = 0.1) -> np.ndarray:
    """Maximum-likelihood logistic weights ``(bias, w…)`` with an L2 penalty ``l2`` on the
    slopes (keeps a separable feature finite).

    Raises:
        ValueError: no rows, or only one outcome class.
    """
    if len(x) == 0 or y.all() or not y.any():
        raise ValueError("a candidate map needs right and wrong candidates; label more items")
    xb = np.hstack([np.ones((len(x), 1)), x])

    def loss(w: np.ndarray) -> float:
        z = xb @ w
        return float(np.sum(np.logaddexp(0.0, z) - y * z) + l2 * np.sum(w[1:] ** 2))

    res = minimize(loss, np.zeros(xb.shape[1]), method="L-BFGS-B")
    return np.asarray(res.x, dtype=float)


def _prob(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    z = np.clip(w[0] + x @ w[1:], -50, 50)
    return np.asarray(1.0 / (1.0 + np.exp(-z)))


def precision_threshold(p: Sequence[float], right: Sequence[bool], target: float) -> float | None:
    """The smallest probability ``t`` (to 0.01) such that, for every ``t' ≥ t`` with some
    candidate at or above it, the share right among candidates with ``p ≥ t'`` is ≥ ``target``;
    None when no ``t`` qualifies."""
    pa, ra = np.asarray(p, dtype=float), np.asarray(right, dtype=bool)
    best: float | None = None
    for i in range(100, -1, -1):
        t = i / 100
        sel = pa >= t
        if not sel.any():
            continue
        if ra[sel].mean() < target:
            break
        best = t
    return best


def fit_candidates(
    items: Sequence[LabelledItem],
    preds: Sequence[Prediction],
    fit_group: str,
    features: Sequence[str],
    target: float = NAME_PRECISION,
) -> CandidateFit | None:
    """Fit the candidate map on ``fit_group``; the naming threshold from two-fold
    out-of-fold probabilities there; figures per group at that threshold. None when the fit
    group has no right or no wrong candidate."""
    rows = candidate_pairs(items, preds, features)
    fit_rows = [r for r in rows if r[0] == fit_group]
    if not fit_rows:
        return None
    x = np.array([r[2] for r in fit_rows], dtype=float)
    y = np.array([r[3] for r in fit_rows], dtype=bool)
    try:
        w = fit_logistic(x, y)
        fold = np.array([hash_fold(r[1]) for r in fit_rows])
        oof = np.zeros(len(fit_rows))
        for f in (0, 1):
            wf = fit_logistic(x[fold != f], y[fold != f])
            oof[fold == f] = _prob(x[fold == f], wf)
    except ValueError:
        return None
    thr = precision_threshold(oof.tolist(), y.tolist(), target)
    n_wrong: dict[str, int] = {}
    for it in items:
        if it.group != "reference" and it.expected.applicability == "irrelevant":
            if it.expected.suggestion:
                n_wrong[it.group] = n_wrong.get(it.group, 0) + 1
    per = []
    for g in sorted({r[0] for r in rows}):
        gr = [r for r in rows if r[0] == g]
        pg = _prob(np.array([r[2] for r in gr], dtype=float), w)
        named = [r for r, pr in zip(gr, pg, strict=True) if thr is not None and pr >= thr]
        right = sum(r[3] for r in named)
        nw = n_wrong.get(g, 0)
        per.append(
            (
                g,
                len(gr),
                len(named),
                right,
                nw,
                round(right / len(named), 4) if named else None,
                round(right / nw, 4) if nw else None,
            )
        )
    return CandidateFit(
        features=tuple(features),
        weights=tuple(round(float(v), 4) for v in w),
        threshold=thr,
        fit_group=fit_group,
        n_fit=len(fit_rows),
        per_group=tuple(per),
    )


def hash_fold(item_id: str) -> int:
    """0 or 1, a stable fold of ``item_id`` (sum of its code points: no salted ``hash``)."""
    return sum(map(ord, item_id)) % 2
