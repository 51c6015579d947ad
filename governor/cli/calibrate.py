"""``citegov calibrate``: measure the judges against labelled citations (layer 8).

Labelled sets are JSONL files of :class:`benchmarks.calibration.LabelledItem` (see
``benchmarks/data/README.md``). Per axis it prints precision, recall and F1 of the *flagged*
class, balanced accuracy, Cohen's κ (binary and over labels) and the confusion matrix; then
recall per expected taxonomy code and per error class, precision and recall per label, and
how often the verifier's suggestion is the labelled target provision.

With ``--fit-group G`` it also calibrates the confidences (``benchmarks.reliability``): per
axis score and for suggestions, a reliability table (bins of predicted vs observed, ECE and
Brier) of the raw scores, a map (isotonic or Platt) fitted on group G's items, and the same
table on the other groups with the map applied; ``--write-thresholds FILE`` writes the fitted
``[thresholds]`` (with their ``source``) as a config file for ``--config``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from governor.cli.common import ConfigOpt, err, fail, out


def register(app: typer.Typer) -> None:
    """Add the ``calibrate`` command to ``app``."""
    app.command()(calibrate)


def _f(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f}"


def _axis_table(title: str, reports: Any) -> Table:
    t = Table(title=title, title_justify="left")
    for col in ("axis", "n", "flag", "prec", "rec", "F1", "BA", "κ", "κ lab"):
        t.add_column(col, justify="right" if col != "axis" else "left")
    for a in reports:
        b = a.binary
        t.add_row(
            a.axis,
            str(a.n),
            str(b.tp + b.fn),
            _f(b.precision),
            _f(b.recall),
            _f(b.f1),
            _f(b.balanced_accuracy),
            _f(b.kappa),
            _f(a.kappa_labels),
        )
    return t


def _confusion(a: Any) -> Table:
    t = Table(title=f"{a.axis}: rows = label, columns = judge", title_justify="left")
    t.add_column("")
    for c in a.cols:
        t.add_column(c, justify="right")
    for r, row in zip(a.rows, a.matrix, strict=True):
        t.add_row(r, *(str(x) for x in row))
    return t


def _recall(title: str, rows: Any) -> Table:
    t = Table(title=title, title_justify="left")
    for col in ("", "n", "hit", "recall"):
        t.add_column(col, justify="right" if col else "left")
    for r in rows:
        t.add_row(r.key, str(r.n), str(r.hit), _f(r.recall))
    return t


def _labels(a: Any) -> Table:
    t = Table(title=f"{a.axis}: precision/recall per label", title_justify="left")
    for col in ("label", "true", "predicted", "hit", "prec", "rec"):
        t.add_column(col, justify="right" if col != "label" else "left")
    for r in a.labels:
        t.add_row(r.label, str(r.n_true), str(r.n_pred), str(r.hit), _f(r.precision), _f(r.recall))
    return t


def _reliability(title: str, raw: Any, cal: Any) -> Table:
    t = Table(title=title, title_justify="left")
    for col in ("bin", "n raw", "pred raw", "obs raw", "n cal", "pred cal", "obs cal"):
        t.add_column(col, justify="right")
    for b, c in zip(raw.bins, cal.bins, strict=True):
        if b.n == 0 and c.n == 0:
            continue
        t.add_row(
            f"{b.lo:.1f}–{b.hi:.1f}",
            str(b.n),
            _f(b.mean_predicted),
            _f(b.observed),
            str(c.n),
            _f(c.mean_predicted),
            _f(c.observed),
        )
    t.add_row("ECE", "", _f(raw.ece), "", "", _f(cal.ece), "")
    t.add_row("Brier", "", _f(raw.brier), "", "", _f(cal.brier), "")
    return t


def calibrate(
    labels: Annotated[list[Path], typer.Argument(help="Labelled sets (labels_*.jsonl).")],
    judge: Annotated[str, typer.Option("--judge", help="offline (default) or llm.")] = "offline",
    config: ConfigOpt = None,
    llm_base_url: Annotated[
        str | None, typer.Option("--llm-base-url", help="OpenAI-compatible endpoint root.")
    ] = None,
    llm_model: Annotated[str | None, typer.Option("--llm-model", help="Model name.")] = None,
    dry_run: Annotated[
        bool,
        typer.Option("--dry-run", help="LLM judge: count the calls and tokens, send nothing."),
    ] = False,
    by_group: Annotated[
        bool, typer.Option("--by-group", help="Also report each group (LawBench model).")
    ] = False,
    dev_group: Annotated[
        str | None,
        typer.Option(
            "--dev-group",
            help="Held-out split: report the items of this group (dev) and of all others "
            "(held-out) separately.",
        ),
    ] = None,
    limit: Annotated[
        int | None, typer.Option("--limit", help="Only the first N items of each file.")
    ] = None,
    predictions: Annotated[
        Path | None, typer.Option("--predictions", help="Write item + prediction JSONL here.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
    fit_group: Annotated[
        str | None,
        typer.Option(
            "--fit-group",
            help="Calibrate confidences: fit maps on this group (a LawBench model) and check "
            "them on the other groups.",
        ),
    ] = None,
    method: Annotated[
        str, typer.Option("--method", help="Calibration map: isotonic (default) or platt.")
    ] = "isotonic",
    bins: Annotated[int, typer.Option("--bins", min=1, help="Reliability-table bins.")] = 10,
    write_thresholds: Annotated[
        Path | None,
        typer.Option(
            "--write-thresholds",
            help="With --fit-group: write the fitted [thresholds] (and their source) to this "
            "TOML config file.",
        ),
    ] = None,
) -> None:
    """Calibrate the E/F/A judges against labelled citations."""
    from benchmarks.calibration import (
        evaluate,
        load_labels,
        predict,
        report_json,
        split_items,
    )
    from governor.api import Governor
    from governor.core.config import JUDGES, load_config
    from governor.core.errors import GovernorError
    from governor.text.textio import atomic_write_text

    if judge not in JUDGES:
        raise fail(f"unknown judge {judge!r}; use one of: {', '.join(JUDGES)}")
    if method not in ("isotonic", "platt"):
        raise fail(f"unknown calibration method {method!r}; use isotonic or platt")
    if write_thresholds is not None and fit_group is None:
        raise fail("--write-thresholds needs --fit-group (the group the maps are fitted on)")
    try:
        cfg = load_config(
            config,
            {"judge": judge, "llm_base_url": llm_base_url, "llm_model": llm_model},
        )
        items = []
        for path in labels:
            items += list(load_labels(path))[: limit if limit is not None else None]
        gov = Governor(cfg)
        if judge == "llm":
            from verifiers.llm_judge import make_llm_judge

            gov = Governor(
                cfg, judge=make_llm_judge(cfg, gov.store, gov.retriever, dry_run=dry_run)
            )
        preds = predict(
            items,
            lambda text, as_of, ctx: gov.verify(text, as_of=as_of, context=ctx),
        )
    except GovernorError as exc:
        raise fail(str(exc)) from None
    if predictions is not None:
        atomic_write_text(
            predictions,
            "".join(
                json.dumps(
                    {"item": it.model_dump(mode="json"), "prediction": p.model_dump(mode="json")},
                    ensure_ascii=False,
                )
                + "\n"
                for it, p in zip(items, preds, strict=True)
            ),
        )
    usage = getattr(gov.judge, "usage", None)
    splits: list[tuple[str, Any]] = [("all", None)]
    if dev_group is not None:
        splits = [("dev", dev_group), ("heldout", dev_group)]
    min_score = cfg.thresholds.suggestion_min_score
    for name, group in splits:
        sel = items if group is None else split_items(items, name, group)  # type: ignore[arg-type]
        ids = {it.id for it in sel}
        sp = [p for p in preds if p.id in ids]
        report = evaluate(sel, sp, by_group=by_group, min_score=min_score)
        if as_json:
            sys.stdout.write(report_json(report) + "\n")
            continue
        label = name if group is None else f"{name} ({'=' if name == 'dev' else '≠'} {group})"
        out.print(
            f"[bold]{label}[/]: {report.n_items} items, {report.n_found} found by the extractor, "
            f"judge {judge}",
            highlight=False,
        )
        out.print(_axis_table("per axis (positive class = flagged)", report.axes))
        for a in report.axes:
            out.print(_confusion(a))
            out.print(_labels(a))
        for g, axes in report.groups:
            out.print(_axis_table(f"group {g}", axes))
        if report.taxonomy:
            out.print(_recall("recall per expected taxonomy code", report.taxonomy))
        if report.kinds:
            out.print(_recall("recall per error class (clean: no false flag)", report.kinds))
        s = report.suggestions
        if s is not None:
            out.print(
                f"suggestions: {s.n} items with a target; {s.offered} offered at ≥ {s.min_score} "
                f"confidence, {s.correct} correct (precision {_f(s.precision)}, recall "
                f"{_f(s.recall)}); right at any confidence: {s.any_correct}",
                highlight=False,
            )
    if fit_group is not None:
        _confidence(items, preds, fit_group, method, bins, write_thresholds, labels, as_json)
    if usage is not None:
        msg = (
            f"LLM: {usage.calls} calls, {usage.cache_hits} cache hits, {usage.total_tokens} tokens"
        )
        if dry_run:
            msg = (
                f"dry run: would send {usage.dry_run_calls} calls, about "
                f"{usage.estimated_tokens} tokens"
            )
        err.print(msg, highlight=False)


def _confidence(
    items: Any,
    preds: Any,
    fit_group: str,
    method: str,
    bins: int,
    write_thresholds: Path | None,
    labels: list[Path],
    as_json: bool,
) -> None:
    from benchmarks.reliability import calibrate_all, fit_candidates, thresholds_toml
    from governor.text.textio import atomic_write_text
    from verifiers.suggest import CANDIDATE_FEATURES

    if not any(it.group == fit_group for it in items):
        groups = ", ".join(sorted({it.group for it in items}))
        raise fail(f"no labelled item has group {fit_group!r}; use one of: {groups}")
    reports = calibrate_all(items, preds, fit_group, method, bins)  # type: ignore[arg-type]
    cands = fit_candidates(items, preds, fit_group, CANDIDATE_FEATURES)
    if as_json:
        sys.stdout.write(
            json.dumps(
                {
                    "calibration": [r.model_dump(mode="json") for r in reports],
                    "candidates": cands.model_dump(mode="json") if cands is not None else None,
                },
                ensure_ascii=False,
            )
            + "\n"
        )
    else:
        for r in reports:
            thr = "" if r.threshold_50 is None else f"; P ≥ 0.5 from raw {r.threshold_50:.2f}"
            out.print(
                _reliability(
                    f"{r.kind}: reliability on the held-out groups ({r.n_heldout} items), raw vs "
                    f"{method} map fitted on {fit_group} ({r.n_fit} items){thr}",
                    r.raw_heldout,
                    r.calibrated_heldout,
                )
            )
            if r.no_map:
                out.print(f"  no map: {r.no_map}", highlight=False)
            elif r.map is not None and len(r.map.knots) <= 12:
                knots = ", ".join(f"{x:.2f}→{y:.2f}" for x, y in r.map.knots)
                out.print(f"  map: {knots}", highlight=False)
            groups = "; ".join(
                f"{g.group} n={g.n} ECE {_f(g.raw)} → {_f(g.calibrated)}" for g in r.per_group
            )
            out.print(f"  held-out groups: {groups}", highlight=False)
        if cands is None:
            out.print("candidates: no map (no right or no wrong candidate in the fit group)")
        else:
            out.print(
                f"candidates: logistic map on {cands.n_fit} candidates of {fit_group}, weights "
                f"{', '.join(str(w) for w in cands.weights)}; named at p ≥ {cands.threshold} "
                "(out-of-fold precision ≥ 0.9)",
                highlight=False,
            )
            for g, n, named, right, nw, prec, rate in cands.per_group:
                out.print(
                    f"  {g}: {n} candidates, {named} named, {right} right (precision "
                    f"{_f(prec)}); names the reference for {_f(rate)} of {nw} wrong-article "
                    "citations",
                    highlight=False,
                )
    if write_thresholds is not None:
        source = (
            f"citegov calibrate {' '.join(p.name for p in labels)} --fit-group {fit_group} "
            f"--method {method} (offline judge)"
        )
        atomic_write_text(write_thresholds, thresholds_toml(reports, source, cands))
        err.print(f"wrote {write_thresholds}", highlight=False)
