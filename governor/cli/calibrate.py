"""``citegov calibrate``: measure the judges against labelled citations (layer 8).

Labelled sets are JSONL files of :class:`benchmarks.calibration.LabelledItem` (see
``benchmarks/data/README.md``). Per axis it prints precision, recall and F1 of the *flagged*
class, balanced accuracy, Cohen's κ (binary and over labels) and the confusion matrix; then
recall per expected taxonomy code and per error class, and how often the verifier's
suggestion is the labelled target provision.
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


def _per_label(a: Any) -> Table:
    t = Table(title=f"{a.axis}: precision/recall per label", title_justify="left")
    for col in ("label", "n true", "n judged", "hit", "precision", "recall"):
        t.add_column(col, justify="right" if col != "label" else "left")
    for r in a.labels:
        t.add_row(r.label, str(r.n_true), str(r.n_pred), str(r.hit), _f(r.precision), _f(r.recall))
    return t


def _recall(title: str, rows: Any) -> Table:
    t = Table(title=title, title_justify="left")
    for col in ("", "n", "hit", "recall"):
        t.add_column(col, justify="right" if col else "left")
    for r in rows:
        t.add_row(r.key, str(r.n), str(r.hit), _f(r.recall))
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
            out.print(_per_label(a))
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
