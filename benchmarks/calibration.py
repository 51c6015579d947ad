"""Calibration of the E/F/A judges against labelled citations (layer 6).

A labelled set is a JSONL file of :class:`LabelledItem` (one target citation in a text, with
the expected label on one or more axes and the way that label was obtained). :func:`predict`
runs any ``verify`` callable (``Governor.verify``) once per distinct text and picks the verdict
of each target citation; :func:`evaluate` compares predictions with labels. Metrics are pure
functions with hand-checked tests (``sklearn`` is not a dependency).

Binary view per axis (what a user of the verdicts acts on): an item is *flagged* when its
label is in :data:`FLAGGED` for that axis — existence: ``not_found`` (the rule of the issue's
target "precision/recall on non-existent articles"); fidelity and applicability: any label
scoring below 1.0 (NA labels ``not_assessed``/``skipped`` count as passes, as in trust, SPEC
§3). Precision, recall and F1 are about the flagged class; balanced accuracy and Cohen's κ
are symmetric.

Empty-input rule (one for every ratio here): a ratio whose denominator is 0 is ``None``
("undefined"), never 0.0 or NaN; tables print it as ``-``.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import date
from pathlib import Path
from typing import Final, Literal

from pydantic import Field, ValidationError

from governor.core.errors import InputError, first_problem
from governor.core.models import Axis, Frozen, Verdict
from governor.text.textio import atomic_write_text

AXES: Final[tuple[Axis, ...]] = ("existence", "fidelity", "applicability")
FLAGGED: Final[Mapping[Axis, frozenset[str]]] = {
    "existence": frozenset({"not_found"}),
    "fidelity": frozenset({"partially_faithful", "misdescribed", "unknown"}),
    "applicability": frozenset(
        {"partially_supports", "overextended", "contradicts", "irrelevant", "unknown"}
    ),
}
"""Labels counted as *flagged* (the positive class) per axis."""

MISSED: Final = "missed"
"""Predicted label of a target citation the extractor did not find (never flagged)."""


class Expected(Frozen):
    """Expected labels of one citation; ``None`` = not labelled on that axis."""

    existence: str | None = None
    fidelity: str | None = None
    applicability: str | None = None
    taxonomy: tuple[str, ...] = ()
    suggestion: str | None = None
    """The provision a repair should move to, as ``"<canonical title>#<article>"``."""

    def label(self, axis: Axis) -> str | None:
        """The expected label on ``axis`` (or None)."""
        return str(getattr(self, axis)) if getattr(self, axis) is not None else None


class LabelledItem(Frozen):
    """One labelled citation.

    Attributes:
        id: unique id within the set.
        set: the set's name (``lawbench_3-2``, ``lawbench_1-1``, ``perturb``...).
        group: grouping key for held-out splits (the LawBench model, the perturbed report).
        kind: error class for per-class recall (e.g. ``changed_period``; ``clean`` for items
            without an error, ``""`` when not applicable).
        text: the draft text the target citation is in.
        as_of: the report's as-of date.
        context: the question the draft answers (``JudgeItem.context``).
        span: half-open character offsets of the target citation in ``text``.
        raw: the citation text (``text[span]``), for matching and display.
        expected: the labels.
        how: how the labels were obtained (rule name, ``hand-checked``...).
    """

    id: str
    set: str
    group: str = ""
    kind: str = ""
    text: str
    as_of: date
    context: str = ""
    span: tuple[int, int]
    raw: str
    expected: Expected
    how: str = ""


class Prediction(Frozen):
    """What the judge said about one target citation (``found`` False: not extracted)."""

    id: str
    found: bool
    existence: str = MISSED
    fidelity: str = MISSED
    applicability: str = MISSED
    taxonomy: tuple[str, ...] = ()
    judge: str = ""
    rationale: str = ""
    suggestion: str | None = None
    suggestion_score: float | None = None
    suggestion_features: tuple[tuple[str, float], ...] = ()
    """The store-wide candidate's evidence (``Suggestion.features``; empty otherwise)."""
    suggestion_probability: float | None = None
    """Its calibrated probability (``Suggestion.probability``; None: no candidate map)."""
    existence_score: float | None = None
    fidelity_score: float | None = None
    applicability_score: float | None = None
    """Axis scores in [0, 1] (``CheckResult.score``; None for NA labels or a missed target)."""

    def label(self, axis: Axis) -> str:
        """The predicted label on ``axis``."""
        return str(getattr(self, axis))

    def score(self, axis: Axis) -> float | None:
        """The predicted score on ``axis`` (the verdict's raw confidence that it passes)."""
        value = getattr(self, f"{axis}_score")
        return None if value is None else float(value)


# ------------------------------------------------------------------------------ files


def load_labels(path: Path) -> tuple[LabelledItem, ...]:
    """Read a labelled set (JSONL, one :class:`LabelledItem` per line; blank lines skipped).

    Raises:
        InputError: the file is unreadable or a line is not a valid item (line number given).
    """
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"labelled set {path} cannot be read ({exc}); pass a JSONL file") from None
    out = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            out.append(LabelledItem.model_validate_json(line))
        except ValidationError as exc:
            loc, msg = first_problem(exc)
            raise InputError(
                f"{path}:{n}: not a labelled item ({loc}: {msg}); "
                "see benchmarks/data/README.md for the format"
            ) from None
    return tuple(out)


def write_labels(items: Iterable[LabelledItem], path: Path) -> int:
    """Write items as JSONL atomically; returns the number written."""
    rows = [it.model_dump_json() for it in items]
    atomic_write_text(path, "".join(r + "\n" for r in rows))
    return len(rows)


# ------------------------------------------------------------------------------ prediction

VerifyFn = Callable[[str, date, str], Sequence[Verdict]]
"""``verify(text, as_of, context) -> verdicts`` (e.g. a closure over ``Governor.verify``)."""


def match_verdict(span: tuple[int, int], verdicts: Sequence[Verdict]) -> Verdict | None:
    """The verdict whose citation span overlaps ``span`` most (earliest on ties), or None."""
    best: tuple[int, Verdict] | None = None
    for v in verdicts:
        s = v.citation.span
        overlap = min(s.end, span[1]) - max(s.start, span[0])
        if overlap > 0 and (best is None or overlap > best[0]):
            best = (overlap, v)
    return best[1] if best else None


def prediction_of(item_id: str, verdict: Verdict | None) -> Prediction:
    """A :class:`Prediction` from a verdict (``found=False`` when there is none)."""
    if verdict is None:
        return Prediction(id=item_id, found=False)
    sug = verdict.suggestion
    return Prediction(
        id=item_id,
        found=True,
        existence=verdict.existence.label,
        fidelity=verdict.fidelity.label,
        applicability=verdict.applicability.label,
        taxonomy=tuple(verdict.taxonomy),
        judge=verdict.judge,
        rationale=" | ".join(
            r for r in (verdict.fidelity.rationale, verdict.applicability.rationale) if r
        ),
        suggestion=provision_key(sug.authority.instrument, sug.authority.article)
        if sug is not None
        else None,
        suggestion_score=sug.score if sug is not None else None,
        suggestion_features=sug.features if sug is not None else (),
        suggestion_probability=sug.probability if sug is not None else None,
        existence_score=verdict.existence.score,
        fidelity_score=verdict.fidelity.score,
        applicability_score=verdict.applicability.score,
    )


def provision_key(instrument: str, article: str | None) -> str:
    """``"<canonical title>#<article>"``: how suggestion targets are written."""
    return f"{instrument}#{article or ''}"


def predict(
    items: Sequence[LabelledItem],
    verify: VerifyFn,
    *,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[Prediction, ...]:
    """Run ``verify`` once per distinct ``(text, as_of, context)`` and predict every item.

    Args:
        items: the labelled items.
        verify: the verification function under calibration.
        progress: called as ``progress(done_texts, total_texts)`` after each text.

    Returns:
        One prediction per item, in order.
    """
    by_text: dict[tuple[str, date, str], list[int]] = defaultdict(list)
    for i, it in enumerate(items):
        by_text[(it.text, it.as_of, it.context)].append(i)
    preds: list[Prediction | None] = [None] * len(items)
    for n, ((text, as_of, context), idx) in enumerate(by_text.items(), 1):
        verdicts = verify(text, as_of, context)
        for i in idx:
            preds[i] = prediction_of(items[i].id, match_verdict(items[i].span, verdicts))
        if progress is not None:
            progress(n, len(by_text))
    return tuple(p for p in preds if p is not None)


# ------------------------------------------------------------------------------ metrics


def _ratio(num: float, den: float) -> float | None:
    return None if den == 0 else num / den


class BinaryMetrics(Frozen):
    """Metrics of a binary decision; the positive class is *flagged*.

    Ratios are in [0, 1] (higher is better; κ in [-1, 1]) and ``None`` when undefined
    (denominator 0). ``balanced_accuracy`` is the mean of recall and specificity when both
    are defined.
    """

    tp: int = Field(ge=0)
    fp: int = Field(ge=0)
    fn: int = Field(ge=0)
    tn: int = Field(ge=0)
    precision: float | None
    recall: float | None
    specificity: float | None
    f1: float | None
    balanced_accuracy: float | None
    accuracy: float | None
    kappa: float | None

    @property
    def n(self) -> int:
        """Number of items."""
        return self.tp + self.fp + self.fn + self.tn


def binary_metrics(truth: Sequence[bool], predicted: Sequence[bool]) -> BinaryMetrics:
    """Precision, recall, specificity, F1, balanced accuracy, accuracy and Cohen's κ.

    Args:
        truth: True where the item is in the positive (flagged) class.
        predicted: True where the judge flagged the item.

    Raises:
        ValueError: the sequences differ in length.
    """
    if len(truth) != len(predicted):
        raise ValueError(f"{len(truth)} labels but {len(predicted)} predictions")
    tp = sum(1 for t, p in zip(truth, predicted, strict=True) if t and p)
    fp = sum(1 for t, p in zip(truth, predicted, strict=True) if not t and p)
    fn = sum(1 for t, p in zip(truth, predicted, strict=True) if t and not p)
    tn = len(truth) - tp - fp - fn
    precision = _ratio(tp, tp + fp)
    recall = _ratio(tp, tp + fn)
    specificity = _ratio(tn, tn + fp)
    f1 = None if precision is None or recall is None else _ratio(2 * tp, 2 * tp + fp + fn)
    bal = None if recall is None or specificity is None else (recall + specificity) / 2
    return BinaryMetrics(
        tp=tp,
        fp=fp,
        fn=fn,
        tn=tn,
        precision=precision,
        recall=recall,
        specificity=specificity,
        f1=f1,
        balanced_accuracy=bal,
        accuracy=_ratio(tp + tn, len(truth)),
        kappa=cohen_kappa(truth, predicted),
    )


def cohen_kappa(truth: Sequence[object], predicted: Sequence[object]) -> float | None:
    """Cohen's κ = (p_o − p_e) / (1 − p_e) for any hashable labels (Cohen 1960).

    ``p_o`` is the observed agreement, ``p_e`` the agreement expected from the two marginal
    distributions. Returns None for empty input and 1.0 when ``p_e == 1`` and the raters agree
    everywhere (a single shared label); None when ``p_e == 1`` otherwise cannot happen.

    Raises:
        ValueError: the sequences differ in length.
    """
    if len(truth) != len(predicted):
        raise ValueError(f"{len(truth)} labels but {len(predicted)} predictions")
    n = len(truth)
    if n == 0:
        return None
    p_o = sum(1 for t, p in zip(truth, predicted, strict=True) if t == p) / n
    ct, cp = Counter(truth), Counter(predicted)
    p_e = sum(ct[k] * cp.get(k, 0) for k in ct) / (n * n)
    if p_e >= 1.0:
        return 1.0 if p_o >= 1.0 else None
    return (p_o - p_e) / (1 - p_e)


def confusion(
    truth: Sequence[str], predicted: Sequence[str]
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[tuple[int, ...], ...]]:
    """Confusion matrix: ``(row_labels, col_labels, counts)``, rows = truth, cols = predicted.

    Labels are sorted; ``counts[i][j]`` is the number of items with truth ``rows[i]`` and
    prediction ``cols[j]``.
    """
    rows = tuple(sorted(set(truth)))
    cols = tuple(sorted(set(predicted)))
    c = Counter(zip(truth, predicted, strict=True))
    return rows, cols, tuple(tuple(c[(r, k)] for k in cols) for r in rows)


class LabelRow(Frozen):
    """Precision and recall of one label of an axis: ``n_true`` items carry it, the judge
    gave it ``n_pred`` times, ``hit`` of them rightly (``None`` when a denominator is 0)."""

    label: str
    n_true: int
    n_pred: int
    hit: int
    precision: float | None
    recall: float | None


def label_rows(
    rows: Sequence[str], cols: Sequence[str], matrix: Sequence[Sequence[int]]
) -> tuple[LabelRow, ...]:
    """Per-label precision/recall from a confusion matrix (rows = truth, cols = judge), for
    every label that occurs on either side, sorted."""
    out = []
    for lab in sorted(set(rows) | set(cols)):
        i = rows.index(lab) if lab in rows else None
        j = cols.index(lab) if lab in cols else None
        n_true = sum(matrix[i]) if i is not None else 0
        n_pred = sum(r[j] for r in matrix) if j is not None else 0
        hit = matrix[i][j] if i is not None and j is not None else 0
        out.append(
            LabelRow(
                label=lab,
                n_true=n_true,
                n_pred=n_pred,
                hit=hit,
                precision=_ratio(hit, n_pred),
                recall=_ratio(hit, n_true),
            )
        )
    return tuple(out)


class AxisReport(Frozen):
    """Calibration of one axis: binary metrics, multi-class κ, the confusion matrix and
    per-label precision/recall (``labels``)."""

    axis: Axis
    n: int
    binary: BinaryMetrics
    kappa_labels: float | None
    rows: tuple[str, ...]
    cols: tuple[str, ...]
    matrix: tuple[tuple[int, ...], ...]
    missed: int = 0
    labels: tuple[LabelRow, ...] = ()


class RecallRow(Frozen):
    """Recall of one error class or taxonomy code: ``hit`` of ``n`` items (``None`` if n=0)."""

    key: str
    n: int
    hit: int
    recall: float | None


class SuggestionReport(Frozen):
    """How often the verifier's suggestion is the labelled target provision.

    ``offered``: suggestions with confidence ≥ ``min_score`` (the ones a repair acts on);
    ``precision`` = correct offered / offered; ``recall`` = correct offered / ``n`` (items
    with a target); ``any_correct``: the suggestion is right at any confidence.
    """

    n: int
    min_score: float
    offered: int
    correct: int
    any_correct: int
    precision: float | None
    recall: float | None


class CalibrationReport(Frozen):
    """Everything :func:`evaluate` measures on one set of items."""

    n_items: int
    n_found: int
    axes: tuple[AxisReport, ...]
    taxonomy: tuple[RecallRow, ...]
    kinds: tuple[RecallRow, ...]
    groups: tuple[tuple[str, tuple[AxisReport, ...]], ...] = ()
    suggestions: SuggestionReport | None = None


def is_flagged(axis: Axis, label: str) -> bool:
    """True when ``label`` is in the flagged (positive) class of ``axis``."""
    return label in FLAGGED[axis]


def axis_report(
    axis: Axis, items: Sequence[LabelledItem], preds: Sequence[Prediction]
) -> AxisReport | None:
    """Metrics of ``axis`` over the items labelled on it (None when there are none).

    A target the extractor missed is predicted ``missed`` (not flagged).
    """
    pairs = [
        (lab, p.label(axis))
        for it, p in zip(items, preds, strict=True)
        if (lab := it.expected.label(axis)) is not None
    ]
    if not pairs:
        return None
    truth = [t for t, _ in pairs]
    pred = [p for _, p in pairs]
    rows, cols, matrix = confusion(truth, pred)
    return AxisReport(
        axis=axis,
        n=len(pairs),
        binary=binary_metrics(
            [is_flagged(axis, t) for t in truth], [is_flagged(axis, p) for p in pred]
        ),
        kappa_labels=cohen_kappa(truth, pred),
        rows=rows,
        cols=cols,
        matrix=matrix,
        missed=sum(1 for p in pred if p == MISSED),
        labels=label_rows(rows, cols, matrix),
    )


def detected(item: LabelledItem, pred: Prediction) -> bool:
    """True when the judge flags at least one axis on which the item is expected flagged.

    Items without a flagged expectation (clean items) are "detected" when nothing is flagged
    on any labelled axis (so per-class recall of ``clean`` is the true-negative rate).
    """
    flagged_axes = [
        a for a in AXES if (lab := item.expected.label(a)) is not None and is_flagged(a, lab)
    ]
    if not flagged_axes:
        return not any(
            is_flagged(a, pred.label(a)) for a in AXES if item.expected.label(a) is not None
        )
    return any(is_flagged(a, pred.label(a)) for a in flagged_axes)


def suggestion_report(
    items: Sequence[LabelledItem], preds: Sequence[Prediction], min_score: float = 0.5
) -> SuggestionReport | None:
    """Suggestion precision/recall over items with a target (None when there are none)."""
    pairs = [
        (it.expected.suggestion, p)
        for it, p in zip(items, preds, strict=True)
        if it.expected.suggestion
    ]
    if not pairs:
        return None
    offered = [(t, p) for t, p in pairs if (p.suggestion_score or 0.0) >= min_score]
    correct = sum(1 for t, p in offered if p.suggestion == t)
    return SuggestionReport(
        n=len(pairs),
        min_score=min_score,
        offered=len(offered),
        correct=correct,
        any_correct=sum(1 for t, p in pairs if p.suggestion == t),
        precision=_ratio(correct, len(offered)),
        recall=_ratio(correct, len(pairs)),
    )


def evaluate(
    items: Sequence[LabelledItem],
    preds: Sequence[Prediction],
    *,
    by_group: bool = False,
    min_score: float = 0.5,
) -> CalibrationReport:
    """Compare predictions with labels.

    Args:
        items: the labelled items.
        preds: one prediction per item, same order (from :func:`predict`).
        by_group: also report every axis per ``item.group`` (held-out splits).
        min_score: suggestion confidence a repair acts on (``suggestion_min_score``).

    Returns:
        Per-axis reports, recall per expected taxonomy code (the code is in the predicted
        verdict's taxonomy) and per error class (:func:`detected`).

    Raises:
        ValueError: lengths or ids differ.
    """
    if len(items) != len(preds):
        raise ValueError(f"{len(items)} items but {len(preds)} predictions")
    for it, p in zip(items, preds, strict=True):
        if it.id != p.id:
            raise ValueError(f"prediction {p.id!r} is not for item {it.id!r}")
    axes = tuple(r for a in AXES if (r := axis_report(a, items, preds)) is not None)
    codes: dict[str, list[bool]] = defaultdict(list)
    kinds: dict[str, list[bool]] = defaultdict(list)
    for it, p in zip(items, preds, strict=True):
        for code in it.expected.taxonomy:
            codes[code].append(code in p.taxonomy)
        if it.kind:
            kinds[it.kind].append(detected(it, p))
    groups: list[tuple[str, tuple[AxisReport, ...]]] = []
    if by_group:
        idx: dict[str, list[int]] = defaultdict(list)
        for i, it in enumerate(items):
            idx[it.group].append(i)
        for g in sorted(idx):
            gi = [items[i] for i in idx[g]]
            gp = [preds[i] for i in idx[g]]
            groups.append((g, tuple(r for a in AXES if (r := axis_report(a, gi, gp)) is not None)))
    return CalibrationReport(
        n_items=len(items),
        n_found=sum(1 for p in preds if p.found),
        axes=axes,
        taxonomy=_recall_rows(codes),
        kinds=_recall_rows(kinds),
        groups=tuple(groups),
        suggestions=suggestion_report(items, preds, min_score),
    )


def _recall_rows(table: Mapping[str, list[bool]]) -> tuple[RecallRow, ...]:
    return tuple(
        RecallRow(key=k, n=len(v), hit=sum(v), recall=_ratio(sum(v), len(v)))
        for k, v in sorted(table.items())
    )


Split = Literal["all", "dev", "heldout"]


def split_items(
    items: Sequence[LabelledItem], split: Split, dev_group: str
) -> tuple[LabelledItem, ...]:
    """Items of a held-out split: ``dev`` = ``group == dev_group``, ``heldout`` = the others."""
    if split == "all":
        return tuple(items)
    if split == "dev":
        return tuple(it for it in items if it.group == dev_group)
    return tuple(it for it in items if it.group != dev_group)


def report_json(report: CalibrationReport) -> str:
    """The report as one JSON object (for ``citegov calibrate --json``)."""
    return json.dumps(report.model_dump(mode="json"), ensure_ascii=False)
