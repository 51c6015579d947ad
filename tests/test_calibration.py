"""Calibration metrics (hand-checked), label files, prediction matching and the CLI command."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from benchmarks.calibration import (
    Expected,
    LabelledItem,
    Prediction,
    binary_metrics,
    cohen_kappa,
    confusion,
    detected,
    evaluate,
    label_rows,
    load_labels,
    match_verdict,
    split_items,
    write_labels,
)
from governor.core.errors import InputError
from governor.core.models import CheckResult, Citation, Span, Verdict

# ------------------------------------------------------------------ binary metrics


@pytest.mark.parametrize(
    "truth,pred,expected",
    [
        # tp=2 fp=1 fn=1 tn=2: P=2/3 R=2/3 spec=2/3 F1=2/3 BA=2/3 acc=4/6;
        # p_o=4/6, p_e=(3·3+3·3)/36=1/2 → κ=(2/3-1/2)/(1/2)=1/3
        ([1, 1, 1, 0, 0, 0], [1, 1, 0, 1, 0, 0], (2 / 3, 2 / 3, 2 / 3, 2 / 3, 2 / 3, 1 / 3)),
        # all right: everything 1
        ([1, 0, 1, 0], [1, 0, 1, 0], (1.0, 1.0, 1.0, 1.0, 1.0, 1.0)),
        # tp=1 fp=0 fn=3 tn=4: P=1 R=1/4 spec=1 F1=2/5 BA=5/8; p_o=5/8,
        # p_e=(4·1+4·7)/64=1/2 → κ=1/4
        ([1, 1, 1, 1, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0, 0, 0], (1.0, 0.25, 1.0, 0.4, 0.625, 0.25)),
    ],
)
def test_binary_metrics_hand_checked(
    truth: list[int], pred: list[int], expected: tuple[float, ...]
) -> None:
    m = binary_metrics([bool(t) for t in truth], [bool(p) for p in pred])
    got = (m.precision, m.recall, m.specificity, m.f1, m.balanced_accuracy, m.kappa)
    assert got == pytest.approx(expected)
    assert m.n == len(truth)


def test_undefined_ratios_are_none_not_zero() -> None:
    m = binary_metrics([False, False], [False, False])  # no positives at all
    assert (m.precision, m.recall, m.f1, m.balanced_accuracy) == (None, None, None, None)
    assert m.specificity == 1.0 and m.accuracy == 1.0
    empty = binary_metrics([], [])
    assert empty.accuracy is None and empty.kappa is None


def test_length_mismatch_raises() -> None:
    with pytest.raises(ValueError):
        binary_metrics([True], [])
    with pytest.raises(ValueError):
        cohen_kappa(["a"], ["a", "b"])


@pytest.mark.parametrize(
    "truth,pred,kappa",
    [
        # Cohen (1960)-style 3-label table: p_o = 6/9, p_e = (3·3 + 3·3 + 3·3)/81 = 1/3 → 1/2
        (list("aaabbbccc"), list("aabbbccca"), 0.5),
        (list("aaaa"), list("aaaa"), 1.0),  # one shared label, full agreement
        (list("ab"), list("ba"), -1.0),
    ],
)
def test_multiclass_kappa(truth: list[str], pred: list[str], kappa: float) -> None:
    assert cohen_kappa(truth, pred) == pytest.approx(kappa)


def test_confusion_matrix_rows_are_truth() -> None:
    rows, cols, m = confusion(["x", "x", "y"], ["x", "z", "z"])
    assert rows == ("x", "y") and cols == ("x", "z")
    assert m == ((1, 1), (0, 1))


def test_per_label_precision_recall_from_the_matrix() -> None:
    # truth: supports ×3, irrelevant ×2; judge: supports, supports, irrelevant, irrelevant, skipped
    rows, cols, m = confusion(
        ["supports", "supports", "supports", "irrelevant", "irrelevant"],
        ["supports", "supports", "irrelevant", "irrelevant", "skipped"],
    )
    got = {
        r.label: (r.n_true, r.n_pred, r.hit, r.precision, r.recall)
        for r in label_rows(rows, cols, m)
    }
    assert got == {
        "irrelevant": (2, 2, 1, 0.5, 0.5),
        "skipped": (0, 1, 0, 0.0, None),
        "supports": (3, 2, 2, 1.0, 2 / 3),
    }


# ------------------------------------------------------------------ evaluate

AS_OF = date(2024, 6, 1)


def item(i: str, kind: str = "", group: str = "g", **exp: Any) -> LabelledItem:
    return LabelledItem(
        id=i, set="t", group=group, kind=kind, text="x", as_of=AS_OF, span=(0, 1), raw="x",
        expected=Expected(**exp),
    )  # fmt: skip


def pred(i: str, **labels: Any) -> Prediction:
    return Prediction(id=i, found=True, **labels)


def test_evaluate_axes_codes_kinds_and_groups() -> None:
    items = [
        item("1", "changed_period", existence="exists", fidelity="misdescribed", taxonomy=("L1.3.2",)),
        item("2", "changed_period", existence="exists", fidelity="misdescribed", taxonomy=("L1.3.2",)),
        item("3", "clean", group="h", existence="exists", fidelity="faithful"),
        item("4", "fabricated_article", group="h", existence="not_found", taxonomy=("L1.1.1",)),
    ]  # fmt: skip
    preds = [
        pred("1", existence="exists", fidelity="misdescribed", taxonomy=("L1.3.2",)),
        pred("2", existence="exists", fidelity="faithful"),
        pred("3", existence="exists", fidelity="not_assessed"),  # NA is not a flag
        Prediction(id="4", found=False),  # missed by the extractor: not flagged
    ]
    rep = evaluate(items, preds, by_group=True)
    ax = {a.axis: a for a in rep.axes}
    assert ax["fidelity"].binary.tp == 1 and ax["fidelity"].binary.fn == 1
    assert ax["fidelity"].binary.tn == 1 and ax["existence"].binary.fn == 1
    assert ax["existence"].missed == 1
    codes = {r.key: (r.hit, r.n) for r in rep.taxonomy}
    assert codes == {"L1.3.2": (1, 2), "L1.1.1": (0, 1)}
    kinds = {r.key: r.recall for r in rep.kinds}
    assert kinds == {"changed_period": 0.5, "clean": 1.0, "fabricated_article": 0.0}
    assert [g for g, _ in rep.groups] == ["g", "h"]
    assert rep.n_found == 3


def test_detected_requires_the_right_axis() -> None:
    it = item(
        "1", "changed_period", existence="exists", fidelity="misdescribed", applicability="supports"
    )
    assert detected(
        it, pred("1", existence="exists", fidelity="misdescribed", applicability="supports")
    )
    # flagging only another axis does not detect a fidelity error
    assert not detected(
        it, pred("1", existence="exists", fidelity="faithful", applicability="irrelevant")
    )
    clean = item("2", "clean", existence="exists", fidelity="faithful", applicability="supports")
    assert not detected(
        clean, pred("2", existence="exists", fidelity="faithful", applicability="irrelevant")
    )


def test_suggestion_report() -> None:
    items = [item("1", applicability="irrelevant", suggestion="X#1"), item("2", suggestion="X#2")]
    preds = [
        pred("1", applicability="irrelevant", suggestion="X#1", suggestion_score=0.9),
        pred("2", suggestion="X#3", suggestion_score=0.6),
    ]
    s = evaluate(items, preds).suggestions
    assert s is not None and (s.offered, s.correct, s.precision, s.recall) == (2, 1, 0.5, 0.5)


def test_evaluate_rejects_misaligned_predictions() -> None:
    with pytest.raises(ValueError):
        evaluate([item("1", fidelity="faithful")], [pred("2", fidelity="faithful")])


def test_split_items() -> None:
    items = [item("1", group="a", fidelity="faithful"), item("2", group="b", fidelity="faithful")]
    assert [i.id for i in split_items(items, "dev", "a")] == ["1"]
    assert [i.id for i in split_items(items, "heldout", "a")] == ["2"]
    assert len(split_items(items, "all", "a")) == 2


# ------------------------------------------------------------------ files and matching


def test_labels_roundtrip_and_bad_line(tmp_path: Path) -> None:
    items = [item("1", fidelity="faithful"), item("2", existence="not_found")]
    path = tmp_path / "labels.jsonl"
    assert write_labels(items, path) == 2
    assert load_labels(path) == tuple(items)
    path.write_text(path.read_text(encoding="utf-8") + '{"id": "3"}\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"labels.jsonl:3"):
        load_labels(path)
    with pytest.raises(InputError, match="cannot be read"):
        load_labels(tmp_path / "missing.jsonl")


def _verdict(start: int, end: int) -> Verdict:
    cit = Citation(id=f"c{start}", span=Span(start=start, end=end), raw="r", kind="statute")
    ok = CheckResult(axis="existence", label="exists", score=1.0)
    f = CheckResult(axis="fidelity", label="faithful", score=1.0)
    a = CheckResult(axis="applicability", label="supports", score=1.0)
    return Verdict(citation=cit, existence=ok, fidelity=f, applicability=a, item_trust=1.0)


def test_match_verdict_takes_largest_overlap() -> None:
    vs = [_verdict(0, 5), _verdict(4, 12), _verdict(20, 25)]
    assert match_verdict((3, 10), vs) is vs[1]
    assert match_verdict((13, 19), vs) is None


@pytest.mark.parametrize(
    "name", ["labels_lawbench_3-2.jsonl", "labels_lawbench_1-1.jsonl", "labels_perturb.jsonl"]
)
def test_shipped_label_sets_load_and_point_at_their_citations(name: str) -> None:
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / name
    items = load_labels(path)
    assert len(items) > 300
    for it in items[:: max(1, len(items) // 50)]:
        assert it.text[it.span[0] : it.span[1]] == it.raw
        assert it.how
        assert any(
            it.expected.label(a) is not None for a in ("existence", "fidelity", "applicability")
        )


def test_handcheck_files_are_valid() -> None:
    root = Path(__file__).resolve().parents[1] / "benchmarks" / "data"
    names = json.loads((root / "handcheck_names.json").read_text(encoding="utf-8"))
    labels = {"alias", "not_found", "repealed", "unverifiable", "drop"}
    for k, v in names.items():
        assert k.startswith("_") or v["label"] in labels
    for line in (root / "handcheck.jsonl").read_text(encoding="utf-8").splitlines():
        d = json.loads(line)
        assert d["axis"] in ("existence", "fidelity", "applicability") and d["note"]


# ------------------------------------------------------------------ the CLI


def _small_set(tmp_path: Path, n: int = 6) -> Path:
    shipped = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "labels_perturb.jsonl"
    lines = shipped.read_text(encoding="utf-8").splitlines()[:n]
    path = tmp_path / "labels.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_cli_calibrate_offline_and_llm_dry_run(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from governor.cli.app import app

    path = _small_set(tmp_path)
    runner = CliRunner()
    res = runner.invoke(app, ["calibrate", str(path), "--json"])
    assert res.exit_code == 0, res.output
    report = json.loads(res.stdout.strip().splitlines()[-1])
    assert report["n_items"] == 6 and {a["axis"] for a in report["axes"]} >= {"existence"}
    assert all(a["labels"] for a in report["axes"])  # per-label precision/recall
    table = runner.invoke(app, ["calibrate", str(path)])
    assert table.exit_code == 0 and "precision/recall per label" in table.output
    dry = runner.invoke(
        app,
        ["calibrate", str(path), "--judge", "llm", "--llm-base-url", "http://127.0.0.1:9/v1",
         "--llm-model", "m", "--dry-run"],
        env={"CITEGOV_CACHE_DIR": str(tmp_path / "cache")},
    )  # fmt: skip
    assert dry.exit_code == 0, dry.output
    assert "dry run: would send" in dry.output


def test_cli_calibrate_rejects_unknown_judge(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from governor.cli.app import app

    res = CliRunner().invoke(app, ["calibrate", str(_small_set(tmp_path)), "--judge", "oracle"])
    assert res.exit_code == 2 and "unknown judge" in res.output
