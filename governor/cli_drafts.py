"""``citegov verify`` and ``citegov revise`` (layer 8)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from governor.cli_common import (
    AsOfOpt,
    ConfigOpt,
    FilesArg,
    JudgeOpt,
    MaxCharsOpt,
    StrictOpt,
    err,
    fail,
    make_governor,
    out,
    parse_as_of,
    read,
    verdict_table,
)
from governor.errors import GovernorError


def register(app: typer.Typer) -> None:
    """Add the commands of this module to ``app``."""
    app.command()(verify)
    app.command()(revise)


def verify(
    files: FilesArg,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the SPEC JSON report (one object per line).")
    ] = False,
    as_of: AsOfOpt = None,
    strict: StrictOpt = False,
    judge: JudgeOpt = "offline",
    config: ConfigOpt = None,
    max_chars: MaxCharsOpt = None,
    context: Annotated[
        str, typer.Option("--context", help="Question the report answers (used for claims).")
    ] = "",
) -> None:
    """Verify every citation of each draft (no revision): a table, or JSON with --json."""
    from governor.api import build_report, detect_as_of

    gov = make_governor(config, strict=strict, judge=judge, max_chars=max_chars)
    fixed = parse_as_of(as_of)
    failed = 0
    for path in files:
        try:
            draft = read(path, gov)
            when = fixed or gov.config.as_of or detect_as_of(draft.text)
            verdicts = gov.verify(draft.text, as_of=when, context=context)
        except GovernorError as exc:
            err.print(f"[red]{path}:[/] {exc}", highlight=False)
            failed += 1
            continue
        warnings = ["empty draft: no citations"] if not draft.text.strip() else []
        report = build_report(
            draft,
            as_of=when,
            strategy="none",
            judge=gov.judge.name,
            initial=verdicts,
            warnings=warnings,
        )
        for w in warnings:
            err.print(f"[yellow]warning:[/] {path}: {w}", highlight=False)
        if as_json:
            sys.stdout.write(report.model_dump_json() + "\n")
        else:
            s = report.scores
            out.print(verdict_table(f"{path}  (as of {when})", list(report.citations)))
            out.print(
                f"citations {s.n_cite} · excluded {s.n_excluded} · trust {s.trust:.3f} · "
                f"all-pass {'yes' if s.all_pass else 'no'}\n",
                highlight=False,
            )
    if failed:
        raise typer.Exit(3 if failed < len(files) else 2)


def _out_paths(out_dir: Path, path: Path, taken: set[str]) -> tuple[Path, Path]:
    stem, suffix = path.stem, path.suffix or ".md"
    name = stem
    n = 1
    while name in taken:
        n += 1
        name = f"{stem}-{n}"
    taken.add(name)
    return out_dir / f"{name}{suffix}", out_dir / f"{name}.verdicts.json"


def _counts(cits: Any, axis: str) -> str:
    from collections import Counter

    c = Counter(getattr(x, axis).label for x in cits)
    return ", ".join(f"{k} {v}" for k, v in c.most_common())


def revise(
    files: FilesArg,
    out_dir: Annotated[Path, typer.Option("--out", help="Folder for revised drafts and verdicts.")],
    strategy: Annotated[str, typer.Option("--strategy", help="none | existence | efa")] = "efa",
    as_of: AsOfOpt = None,
    strict: StrictOpt = False,
    judge: JudgeOpt = "offline",
    max_rounds: Annotated[
        int | None, typer.Option("--max-rounds", help="Revision rounds at most (default 2).")
    ] = None,
    config: ConfigOpt = None,
    max_chars: MaxCharsOpt = None,
    context: Annotated[str, typer.Option("--context", help="Question the report answers.")] = "",
    fail_on: Annotated[
        float | None, typer.Option("--fail-on", help="Exit 1 if any final trust is below this.")
    ] = None,
) -> None:
    """Revise drafts: write the revised text, <name>.verdicts.json and a summary per draft."""
    from governor.api import build_report, detect_as_of
    from governor.config import STRATEGIES
    from governor.textio import atomic_write_text

    if strategy not in STRATEGIES:
        raise fail(f"unknown strategy {strategy!r}; use one of: {', '.join(STRATEGIES)}")
    gov = make_governor(
        config,
        strict=strict,
        judge=judge,
        max_rounds=max_rounds,
        max_chars=max_chars,
        strategy=strategy,
    )
    fixed = parse_as_of(as_of)
    taken: set[str] = set()
    failed = 0
    below = 0
    summary_rows: list[dict[str, Any]] = []
    for path in files:
        try:
            draft = read(path, gov)
            text_out, json_out = _out_paths(out_dir, path, taken)
            if text_out.resolve() == path.resolve():
                raise fail(f"{path}: --out would overwrite the input; choose another folder")
            when = fixed or gov.config.as_of or detect_as_of(draft.text)
            result = gov.govern(draft.text, strategy=strategy, as_of=when, context=context)
        except GovernorError as exc:
            err.print(f"[red]{path}:[/] {exc}", highlight=False)
            failed += 1
            continue
        report = build_report(
            draft,
            as_of=when,
            strategy=strategy,
            judge=gov.judge.name,
            initial=result.initial_verdicts,
            result=result,
        )
        atomic_write_text(text_out, result.text)
        atomic_write_text(json_out, report.model_dump_json(indent=2) + "\n")
        s0 = report.scores
        s1 = report.final.scores if report.final else s0
        if fail_on is not None and s1.trust < fail_on:
            below += 1
        row = {
            "input": str(path),
            "output": str(text_out),
            "verdicts": str(json_out),
            "citations": s0.n_cite,
            "edits": len(result.edits),
            "trust_before": round(s0.trust, 4),
            "trust_after": round(s1.trust, 4),
            "stop_reason": result.stop_reason,
        }
        summary_rows.append(row)
        out.print(
            f"[bold]{path}[/] → {text_out}\n"
            f"  citations {s0.n_cite} (excluded {s0.n_excluded}); "
            f"E: {_counts(report.citations, 'existence') or '-'}; "
            f"F: {_counts(report.citations, 'fidelity') or '-'}; "
            f"A: {_counts(report.citations, 'applicability') or '-'}\n"
            f"  edits {len(result.edits)} in {len(result.rounds)} round(s) · "
            f"trust {s0.trust:.3f} → {s1.trust:.3f} · stop: {result.stop_reason}",
            highlight=False,
        )
    if summary_rows:
        _w = atomic_write_text

        _w(
            out_dir / "summary.jsonl",
            "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in summary_rows),
        )
    if failed:
        raise typer.Exit(3 if failed < len(files) else 2)
    if below:
        raise typer.Exit(1)
