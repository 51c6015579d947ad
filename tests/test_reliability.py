"""Calibrated confidence: reliability tables, ECE, isotonic and Platt maps, config output."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from benchmarks.calibration import Expected, LabelledItem, Prediction, axis_report
from benchmarks.reliability import (
    calibrate_kind,
    confidence_pairs,
    fit_isotonic,
    fit_platt,
    reliability,
    threshold_for,
    thresholds_toml,
    transfers,
)
from governor.core.config import interpolate, load_config


def test_reliability_table_hand_checked() -> None:
    # bin [0.0, 0.5): p = 0.2, 0.4 → mean 0.3, observed 0.5; bin [0.5, 1.0]: p = 0.6, 1.0 → 0.8, 1.0
    t = reliability([0.2, 0.4, 0.6, 1.0], [True, False, True, True], n_bins=2)
    assert [b.n for b in t.bins] == [2, 2]
    assert t.bins[0].mean_predicted == pytest.approx(0.3) and t.bins[0].observed == 0.5
    assert t.bins[1].mean_predicted == pytest.approx(0.8) and t.bins[1].observed == 1.0
    # ECE = 2/4·|0.3 − 0.5| + 2/4·|0.8 − 1.0| = 0.2; Brier = (0.64 + 0.16 + 0.16 + 0) / 4 = 0.24
    assert t.ece == pytest.approx(0.2) and t.brier == pytest.approx(0.24)


def test_reliability_empty_is_undefined_and_bad_input_raises() -> None:
    t = reliability([], [])
    assert t.ece is None and t.brier is None and t.n == 0
    with pytest.raises(ValueError):
        reliability([0.1], [])
    with pytest.raises(ValueError):
        reliability([0.1], [True], n_bins=0)


def test_isotonic_pools_violators_and_ties() -> None:
    # raw 0.2 → 1/2, raw 0.4 → 0/1 (violates), raw 0.9 → 2/2: PAV pools 0.2 and 0.4 to 1/3
    m = fit_isotonic([0.2, 0.2, 0.4, 0.9, 0.9], [True, False, False, True, True])
    assert m.method == "isotonic" and m.n == 5
    assert m(0.2) == pytest.approx(1 / 3, abs=1e-4) and m(0.4) == pytest.approx(1 / 3, abs=1e-4)
    assert m(0.9) == 1.0 and m(1.0) == 1.0 and m(0.0) == pytest.approx(1 / 3, abs=1e-4)
    assert all(a[1] <= b[1] for a, b in zip(m.knots, m.knots[1:], strict=False))
    with pytest.raises(ValueError):
        fit_isotonic([], [])


def test_platt_is_increasing_for_an_informative_score() -> None:
    raw = [0.1] * 10 + [0.9] * 10
    out = [False] * 9 + [True] + [True] * 9 + [False]
    m = fit_platt(raw, out)
    assert m.method == "platt" and len(m.knots) == 101
    assert m(0.1) < 0.5 < m(0.9)
    assert m(0.1) == pytest.approx(0.1, abs=0.08) and m(0.9) == pytest.approx(0.9, abs=0.08)


@pytest.mark.parametrize(
    ("knots", "raw", "expected"),
    [
        (((0.0, 0.1), (1.0, 0.9)), 0.5, 0.5),
        (((0.2, 0.1), (0.6, 0.5)), 0.0, 0.1),
        (((0.2, 0.1), (0.6, 0.5)), 0.4, 0.3),
        (((0.2, 0.1), (0.6, 0.5)), 1.0, 0.5),
        ((), 0.7, 0.7),
    ],
)
def test_interpolate(knots: tuple[tuple[float, float], ...], raw: float, expected: float) -> None:
    assert interpolate(knots, raw) == pytest.approx(expected)


def test_threshold_for() -> None:
    m = fit_isotonic([0.1, 0.1, 0.5, 0.5, 0.8, 0.8], [False, False, False, True, True, True])
    # knots (0.1, 0), (0.5, 0.5), (0.8, 1): p = 0.25 at raw 0.3, p = 0.5 at raw 0.5
    assert threshold_for(m, 0.25) == pytest.approx(0.3)
    assert threshold_for(m, 0.5) == pytest.approx(0.5)
    assert threshold_for(m, 1.01) is None


def _item(i: int, group: str, a: str | None, sug: str | None = None) -> LabelledItem:
    return LabelledItem(
        id=f"i{i}",
        set="s",
        group=group,
        text="《民法典》第一条",
        as_of=date(2023, 7, 1),
        span=(0, 8),
        raw="《民法典》第一条",
        expected=Expected(applicability=a, suggestion=sug),
    )


def _pred(
    i: int, a_score: float | None, sug: str | None = None, s: float | None = None
) -> Prediction:
    return Prediction(
        id=f"i{i}",
        found=True,
        applicability="supports",
        applicability_score=a_score,
        suggestion=sug,
        suggestion_score=s,
    )


def test_confidence_pairs_axes_and_suggestions() -> None:
    items = [_item(0, "m", "supports"), _item(1, "m", "irrelevant", "X#1"), _item(2, "m", None)]
    preds = [_pred(0, 1.0), _pred(1, 1.0, "X#1", 0.7), _pred(2, 1.0)]
    assert confidence_pairs("applicability", items, preds) == [("m", 1.0, True), ("m", 1.0, False)]
    assert confidence_pairs("suggestion", items, preds) == [("m", 0.7, True)]


def test_calibrate_kind_fits_on_one_group_checks_on_others_and_skips_reference() -> None:
    items, preds = [], []
    # group "a": raw 1.0 is right 1 time in 4, raw 0.0 never; group "b" alike; "reference" all right
    for n, (g, raw, ok) in enumerate(
        [("a", 1.0, True)] + [("a", 1.0, False)] * 3 + [("a", 0.0, False)] * 5
        + [("b", 1.0, True)] + [("b", 1.0, False)] * 3 + [("b", 0.0, False)] * 4
        + [("reference", 1.0, True)] * 50
    ):  # fmt: skip
        items.append(_item(n, g, "supports" if ok else "irrelevant"))
        preds.append(_pred(n, raw))
    # "a" has 1 pass: too few to fit
    thin = calibrate_kind("applicability", items, preds, "a")
    assert thin.map is None and "needs 5" in thin.no_map
    assert thin.calibrated_heldout.ece == thin.raw_heldout.ece
    items2 = items + [_item(100 + k, "a", "supports") for k in range(5)]
    preds2 = preds + [_pred(100 + k, 1.0) for k in range(5)]
    rep = calibrate_kind("applicability", items2, preds2, "a")
    assert rep.n_fit == 14 and rep.n_heldout == 8  # reference left out
    assert rep.map is not None and rep.map(1.0) == pytest.approx(6 / 9, abs=1e-4)
    assert [g.group for g in rep.per_group] == ["b"]
    # held-out "b": raw says 1.0 where 1 in 4 are right → ECE 4/8·0.75 = 0.375
    assert rep.raw_heldout.ece == pytest.approx(0.375)
    assert rep.calibrated_heldout.ece is not None and rep.calibrated_heldout.ece < 0.375
    assert transfers(rep)


def test_thresholds_toml_loads_as_config(tmp_path: Path) -> None:
    items, preds = [], []
    for n in range(40):
        g = "a" if n < 20 else "b"
        s = (n % 10) / 10 + 0.05
        right = s > 0.5
        items.append(_item(n, g, "irrelevant", "X#1"))
        preds.append(_pred(n, 0.0, "X#1" if right else "Y#2", s))
    rep = calibrate_kind("suggestion", items, preds, "a")
    text = thresholds_toml([rep], "test run")
    path = tmp_path / "citegov.toml"
    path.write_text(text, encoding="utf-8")
    th = load_config(path, environ={}).thresholds
    assert th.source.startswith("test run | ")
    if transfers(rep):
        assert th.suggestion_min_score == rep.threshold_50
        assert th.probability("suggestion", 0.95) == pytest.approx(rep.map(0.95) if rep.map else 0)
    assert th.probability("fidelity", 0.5) is None


def test_per_label_precision_recall_from_the_confusion_matrix() -> None:
    items = [_item(0, "m", "supports"), _item(1, "m", "irrelevant"), _item(2, "m", "irrelevant")]
    preds = [
        _pred(0, 1.0),
        Prediction(id="i1", found=True, applicability="irrelevant"),
        _pred(2, 1.0),
    ]
    rep = axis_report("applicability", items, preds)
    assert rep is not None
    rows = {r.label: r for r in rep.labels}
    assert (rows["supports"].precision, rows["supports"].recall) == (0.5, 1.0)
    assert (rows["irrelevant"].precision, rows["irrelevant"].recall) == (1.0, 0.5)


def _lawbench_slice(tmp_path: Path, n: int = 40) -> Path:
    shipped = Path(__file__).resolve().parents[1] / "benchmarks/data/labels_lawbench_3-2.jsonl"
    lines = shipped.read_text(encoding="utf-8").splitlines()[:n]
    path = tmp_path / "labels.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_cli_calibrate_fit_group_writes_a_loadable_thresholds_file(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from governor.cli.app import app

    labels = _lawbench_slice(tmp_path)
    out = tmp_path / "th.toml"
    runner = CliRunner()
    res = runner.invoke(
        app,
        [
            "calibrate",
            str(labels),
            "--fit-group",
            "GPT-3.5-turbo-0613",
            "--write-thresholds",
            str(out),
        ],
    )
    assert res.exit_code == 0, res.output
    assert "reliability on the held-out groups" in res.output
    assert "precision/recall per label" in res.output
    th = load_config(out, environ={}).thresholds
    assert "--fit-group GPT-3.5-turbo-0613" in th.source
    bad = runner.invoke(app, ["calibrate", str(labels), "--write-thresholds", str(out)])
    assert bad.exit_code == 2 and "needs --fit-group" in bad.output
    unknown = runner.invoke(app, ["calibrate", str(labels), "--fit-group", "nobody"])
    assert unknown.exit_code == 2 and "no labelled item has group 'nobody'" in unknown.output
    method = runner.invoke(app, ["calibrate", str(labels), "--fit-group", "x", "--method", "magic"])
    assert method.exit_code == 2 and "unknown calibration method" in method.output


def test_shipped_thresholds_file_loads_and_names_its_source() -> None:
    path = Path(__file__).resolve().parents[1] / "benchmarks/data/thresholds_lawbench.toml"
    th = load_config(path, environ={}).thresholds
    assert "citegov calibrate" in th.source and "--fit-group" in th.source
    for kind, knots in th.calibration.items():
        assert kind in {"existence", "fidelity", "applicability", "suggestion"}
        ys = [y for _, y in knots]
        assert ys == sorted(ys) and all(0.0 <= y <= 1.0 for y in ys)
