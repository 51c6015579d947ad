"""``citegov verify`` and ``citegov revise`` (layer 8).

``verify`` prints a verdict table per draft (a stacked list when the terminal is narrower than
:data:`WIDE` columns or output is not a terminal, so it stays readable in logs and pipes), or
the SPEC §2 JSON with ``--json`` (one object per line). ``revise`` runs the batch engine
(:mod:`governor.batch`): files, folders and globs, worker processes, a progress bar, resume,
per-draft outputs, ``summary.jsonl`` and ``index.html``.
"""

from __future__ import annotations

import importlib.util
import signal
import sys
from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from governor.cli.common import (
    EXIT_IO,
    AsOfOpt,
    ConfigOpt,
    DryRunOpt,
    EditPolicyOpt,
    JudgeOpt,
    LlmModelOpt,
    LlmUrlOpt,
    MaxCharsOpt,
    MaxCitationsOpt,
    StrictOpt,
    draft_error,
    err,
    fail,
    make_governor,
    parse_as_of,
    report_usage,
)
from governor.core.errors import FATAL_ENDPOINT_ERRORS, GovernorError, OutputError
from governor.core.gaps import INFO_ONLY, gap_line
from governor.core.labels import stop_phrase
from governor.reports.i18n import readable

WIDE = 100
"""Terminal width (columns) from which ``verify`` prints a table instead of a stacked list."""
_INPUT_CODES = frozenset({"input", "encoding", "too_large"})

STDIN = "-"
"""The path argument that reads a draft from standard input (``citegov verify -``)."""

PathsArg = Annotated[
    list[str],
    typer.Argument(
        help="Draft files, folders (searched recursively for .md/.txt/.docx) or glob patterns "
        "(quote them: 'drafts/**/*.md'). Text files: UTF-8, GB18030 or UTF-16 with BOM; "
        ".docx needs the docx extra (pip install 'citegov[docx]').",
        show_default=False,
    ),
]

REVISE_EPILOG = (
    "Outputs in --out, per draft: the revised text (<name>.md for .docx input), "
    "<name>.verdicts.json (SPEC JSON) and <name>.html; per batch: summary.jsonl (one row per "
    "draft, the checkpoint used by --resume) and index.html. Two outputs that would be one "
    "file (an input a.html and its page a.html) are refused before anything is written.\n\n"
    "Exit codes: 0 all drafts governed · 1 --fail-on crossed (a final trust below it, or "
    "citations that could not be checked, unless --allow-unverifiable) · "
    "2 usage error (bad flag or path, unknown strategy, output would overwrite an input or "
    "another output, another batch holds --out, or every draft unreadable) · 3 some drafts "
    "failed (the others were still written) · 4 I/O failure: an output could not be written "
    "(disk full, read-only folder; rerun with --resume once fixed) · 130 / 143 stopped by "
    "Ctrl-C / SIGTERM (rerun with --resume)."
)


AllowUnverifiableOpt = Annotated[
    bool,
    typer.Option(
        "--allow-unverifiable",
        help="With --fail-on: do not fail a draft only because some citations could not be "
        "checked (US cases without a case lookup, foreign law, instruments outside the store).",
    ),
]


def register(app: typer.Typer) -> None:
    """Add the commands of this module to ``app``."""
    app.command(
        epilog="Exit codes: 0 ok · 1 --fail-on crossed (a trust below it, or citations that "
        "could not be checked, unless --allow-unverifiable) · 2 usage error or no draft "
        "readable · 3 some drafts failed."
    )(verify)
    app.command(epilog=REVISE_EPILOG)(revise)


# ---------------------------------------------------------------------------------------------
# verify


def _trust(c: Any) -> str:
    return "excl." if c.excluded else f"{c.item_trust:.2f}"


def _suggestion(c: Any) -> str:
    """The suggested provision with its confidence (a low one is a lead, not a repair)."""
    if not c.suggestion:
        return ""
    return f"{c.suggestion.authority.label} (confidence {c.suggestion.score:.2f})"


def nothing_checked(n_cite: int, n_excluded: int) -> str:
    """The headline of a draft none of whose citations was scored, else ``""``.

    Its trust is 1.0 by SPEC §3's formula (the mean over no included citation) and JSON keeps
    that value with the gap ``no_citations``; the human headline says that nothing was checked
    in place of a trust that reads as a pass (SPEC §10)."""
    if n_cite == 0:
        return "no citations found — nothing checked"
    if n_excluded >= n_cite:
        return "no citation could be checked (all excluded) — nothing checked"
    return ""


def verdict_view(console: Console, title: str, citations: Sequence[Any]) -> None:
    """Print one draft's verdicts: a table on a wide console, else one block per citation.

    Every line fits ``console.width`` (rich folds long cells; the stacked form wraps).
    """
    if not citations:
        console.print(f"{escape(title)}\n  no citations found", highlight=False)
        return
    if console.width >= WIDE:
        t = Table(title=title, title_justify="left", expand=False, highlight=False)
        t.add_column("#", justify="right", no_wrap=True)
        t.add_column("citation", overflow="fold", ratio=3, min_width=12)
        for col in ("E", "F", "A"):
            t.add_column(col, overflow="fold")
        t.add_column("trust", justify="right", no_wrap=True)
        t.add_column("taxonomy", overflow="fold")
        t.add_column("suggestion", overflow="fold", ratio=2, min_width=10)
        for i, c in enumerate(citations, 1):
            t.add_row(
                str(i),
                escape(c.raw.replace("\n", " ")),
                c.existence.label,
                c.fidelity.label,
                c.applicability.label,
                _trust(c),
                " ".join(c.taxonomy),
                escape(_suggestion(c)),
            )
        console.print(t)
        return
    console.print(f"[bold]{escape(title)}[/]", highlight=False)
    for i, c in enumerate(citations, 1):
        console.print(f"[{i}] {escape(c.raw.replace(chr(10), ' '))}", highlight=False)
        line = (
            f"    E {c.existence.label} · F {c.fidelity.label} · A {c.applicability.label}"
            f" · trust {_trust(c)}"
        )
        if c.taxonomy:
            line += " · " + " ".join(c.taxonomy)
        console.print(line, highlight=False)
        if c.suggestion:
            console.print(f"    → {escape(_suggestion(c))}", highlight=False)


def _failing_axis(c: Any) -> Any:
    """The first axis of a citation that did not pass (existence first), or None."""
    for axis in (c.existence, c.fidelity, c.applicability):
        if axis.score is not None and axis.score < 1.0:
            return axis
    return None


def rationale_view(console: Console, citations: Sequence[Any], *, details: bool = False) -> None:
    """Under the verdicts: why each failing citation failed (its first failing axis), and
    why each unverifiable one could not be checked, one line each; raw measures (overlap,
    match scores) only with ``details``."""
    for i, c in enumerate(citations, 1):
        axis = c.existence if c.existence.label == "unverifiable" else _failing_axis(c)
        if axis is None or not axis.rationale:
            continue
        console.print(
            f"  [{i}] {axis.label}: "
            f"{escape(readable(axis.rationale, details=details).replace(chr(10), ' '))}",
            highlight=False,
            soft_wrap=False,
        )


def verify(
    paths: PathsArg,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the SPEC JSON report (one object per line).")
    ] = False,
    as_of: AsOfOpt = None,
    strict: StrictOpt = None,
    judge: JudgeOpt = None,
    llm_base_url: LlmUrlOpt = None,
    llm_model: LlmModelOpt = None,
    dry_run: DryRunOpt = False,
    config: ConfigOpt = None,
    max_chars: MaxCharsOpt = None,
    max_citations: MaxCitationsOpt = None,
    edit_policy: EditPolicyOpt = None,
    context: Annotated[
        str, typer.Option("--context", help="Question the report answers (used for claims).")
    ] = "",
    fail_on: Annotated[
        float | None,
        typer.Option(
            "--fail-on",
            min=0.0,
            max=1.0,
            help="Exit 1 if any draft's trust is below this (0-1), or if some of its "
            "citations could not be checked (see --allow-unverifiable).",
        ),
    ] = None,
    allow_unverifiable: AllowUnverifiableOpt = False,
    details: Annotated[
        bool,
        typer.Option(
            "--details", help="Keep the raw measures (overlap, match scores) in rationales."
        ),
    ] = False,
) -> None:
    """Verify every citation of each draft (no revision): a table, or JSON with --json.

    ``-`` reads one draft from standard input. Failing citations are listed with their
    rationale. Exit codes: 0 ok; 1 --fail-on crossed (trust below it, or citations that could
    not be checked unless --allow-unverifiable); 2 usage error or every draft failed; 3 some
    drafts failed.
    """
    from governor.batch import check_citations, collect_inputs, read_input
    from governor.reports.json_report import build_report
    from governor.text.dates import detect_as_of
    from governor.text.textio import decode_bytes, draft_from_text

    gov = make_governor(
        config,
        dry_run=dry_run,
        strict=strict,
        judge=judge,
        max_chars=max_chars,
        max_citations=max_citations,
        llm_base_url=llm_base_url,
        llm_model=llm_model,
        edit_policy=edit_policy,
    )
    from verifiers.coverage import draft_support

    fixed = parse_as_of(as_of)
    named = [p for p in paths if p != STDIN]
    try:
        files = [Path(STDIN)] if STDIN in paths else []
        files += collect_inputs(named) if named else ()
    except GovernorError as exc:
        raise fail(str(exc)) from None
    console = Console(highlight=False)
    failed = below = 0
    # Read every draft first, then verify them together: the LLM judge fills its batches
    # across the drafts and runs its calls concurrently (Governor.verify_many).
    read: list[tuple[Path, Any, date]] = []
    for path in files:
        try:
            if str(path) == STDIN:
                text, _ = decode_bytes(sys.stdin.buffer.read(), source="<stdin>")
                draft = draft_from_text(text)
            else:
                draft = read_input(path, max_chars=gov.config.max_chars)
            check_citations(gov, draft.text, source=path)
            read.append((path, draft, fixed or gov.config.as_of or detect_as_of(draft.text)))
        except GovernorError as exc:
            err.print(f"[bold red]error:[/] {escape(draft_error(path, exc))}", highlight=False)
            failed += 1
    results: list[Any]
    try:
        results = gov.verify_many(
            [d.text for _, d, _ in read], as_of=[w for _, _, w in read], context=context
        )
    except FATAL_ENDPOINT_ERRORS as exc:
        raise fail(str(exc)) from None
    except GovernorError:
        results = []  # one draft's failure: verify them one by one to name it
        for path, draft, when in read:
            try:
                results.append(gov.verify(draft.text, as_of=when, context=context))
            except FATAL_ENDPOINT_ERRORS as exc:
                raise fail(str(exc)) from None
            except GovernorError as exc:
                err.print(f"[bold red]error:[/] {escape(draft_error(path, exc))}", highlight=False)
                failed += 1
                results.append(None)
    for (path, draft, when), verdicts in zip(read, results, strict=True):
        if verdicts is None:
            continue
        warnings = ["empty draft: no citations"] if not draft.text.strip() else []
        report = build_report(
            draft,
            as_of=when,
            strategy="none",
            judge=gov.judge.name,
            initial=verdicts,
            warnings=warnings,
            horizon=gov.store.horizon,
        )
        if dry_run:
            continue  # verdicts of a dry run are placeholders: only the usage is reported
        # a report dated after the store's horizon is flagged (n = 0) but fails only
        # through citations that could not be checked
        gapped = any(g.n for g in report.gaps if g.kind not in INFO_ONLY) and not allow_unverifiable
        below += fail_on is not None and (report.scores.trust < fail_on or gapped)
        for w in report.warnings:
            err.print(f"[yellow]warning:[/] {escape(str(path))}: {escape(w)}", highlight=False)
        if as_json:
            sys.stdout.write(report.model_dump_json() + "\n")
            continue
        s = report.scores
        sup = draft_support(draft.text, verdicts, draft.text, verdicts)
        verdict_view(console, f"{path}  (as of {when})", report.citations)
        rationale_view(console, report.citations, details=details)
        line = gap_line(report.gaps)
        unchecked = sum(
            g.n for g in report.gaps if g.kind != "no_citations" and g.kind not in INFO_ONLY
        )
        if line:
            style = "red" if any(g.loud for g in report.gaps) else "yellow"
            console.print(f"[{style}]{escape(line)}[/]", highlight=False)
        trust = nothing_checked(s.n_cite, s.n_excluded) or f"trust {s.trust:.3f}"
        console.print(
            f"citations {s.n_cite} · excluded {s.n_excluded} · {trust} · "
            f"cov {sup.s_cov:.3f} · sup {sup.s_sup:.3f} · "
            f"all-pass {'yes' if s.all_pass else 'no'} ({s.n_verified} of {s.n_checkable} "
            f"verified) · kept {s.n_cite} · removed 0 · orphan claims 0 · annotations 0"
            + (" · not checked " + str(unchecked) if unchecked else "")
            + "\n"
        )
    report_usage(gov)
    if failed:
        raise typer.Exit(3 if failed < len(files) else 2)
    if below:
        err.print(
            f"{below} draft(s) failing --fail-on {fail_on:g} (trust below it, or citations "
            "not checked without --allow-unverifiable)",
            highlight=False,
        )
        raise typer.Exit(1)


# ---------------------------------------------------------------------------------------------
# revise


def _mean(values: Sequence[float | None]) -> float | None:
    xs = [v for v in values if v is not None]
    return sum(xs) / len(xs) if xs else None


def _fmt(v: float | None) -> str:
    return "–" if v is None else f"{v:.3f}"


def summary_table(result: Any, fail_on: float | None) -> Table:
    """The final summary of a batch: counts, trust before → after, where the outputs are."""
    ok = [r for r in result.rows if r.status == "ok"]
    t = Table(title="citegov revise", title_justify="left", show_header=False, highlight=False)
    t.add_column("", style="bold", no_wrap=True)
    t.add_column("", overflow="fold")
    t.add_row("drafts", str(len(result.rows)))
    t.add_row("governed now", str(result.governed))
    t.add_row("already done (resume)", str(result.skipped))
    t.add_row("failed", f"[red]{result.failed}[/]" if result.failed else "0")
    t.add_row("citations", str(sum(r.citations for r in ok)))
    t.add_row("edits", str(sum(r.edits for r in ok)))
    t.add_row(
        "citations kept / removed",
        f"{sum(r.kept for r in ok)} / {sum(r.removed for r in ok)}",
    )
    t.add_row("claims left without a citation", str(sum(r.orphan_claims for r in ok)))
    t.add_row("annotations", str(sum(r.annotations for r in ok)))
    # a draft with no citation has trust 1.0 by SPEC §3's formula (a mean over nothing); it is
    # "nothing checked", so the batch means are over the drafts that had a citation to check
    # (before revision: a draft whose citations were all removed is still among them)
    cited = [r for r in ok if r.citations]
    t.add_row(
        "mean trust" + (f" ({len(cited)} drafts with citations)" if len(cited) < len(ok) else ""),
        f"{_fmt(_mean([r.trust_before for r in cited]))} → "
        f"{_fmt(_mean([r.trust_after for r in cited]))}",
    )
    t.add_row(
        "mean Cov (draft = reference)",
        f"{_fmt(1.0 if ok else None)} → {_fmt(_mean([r.cov_after for r in ok]))}",
    )
    t.add_row(
        "mean Sup",
        f"{_fmt(_mean([r.sup_before for r in cited]))} → "
        f"{_fmt(_mean([r.sup_after for r in cited]))}",
    )
    t.add_row(
        "all-pass",
        f"{sum(bool(r.all_pass_before) for r in ok)} → {sum(bool(r.all_pass_after) for r in ok)}"
        f" of {len(ok)}",
    )
    unverified = sum(r.unverified for r in ok)
    if unverified:
        t.add_row(
            "not checked",
            f"[yellow]{unverified} citation(s) in "
            f"{sum(1 for r in ok if r.unverified)} draft(s)[/] (see each draft's gaps)",
        )
    uncited = sum(1 for r in ok if r.uncited)
    if uncited:
        t.add_row("no citation", f"[yellow]{uncited} draft(s)[/]: nothing checked, not a pass")
    if fail_on is not None:
        t.add_row(f"failing --fail-on {fail_on:g}", str(result.below))
    t.add_row("wall time", f"{result.seconds:.1f} s")
    t.add_row("outputs", escape(str(result.out_dir)))
    t.add_row("index", escape(str(result.index)))
    return t


def exit_code(result: Any) -> int:
    """0 all governed · 1 ``--fail-on`` crossed · 2 every draft unreadable · 3 some failed."""
    if result.failed:
        every = result.failed == len(result.rows)
        if every and all(r.error_code in _INPUT_CODES for r in result.rows):
            return 2
        return 3
    return 1 if result.below else 0


def revise(
    paths: PathsArg,
    out_dir: Annotated[
        Path, typer.Option("--out", help="Folder for the outputs (never an input folder).")
    ],
    strategy: Annotated[
        str | None,
        typer.Option("--strategy", help="none | existence | efa (default: config, else efa)."),
    ] = None,
    as_of: AsOfOpt = None,
    strict: StrictOpt = None,
    judge: JudgeOpt = None,
    llm_base_url: LlmUrlOpt = None,
    llm_model: LlmModelOpt = None,
    dry_run: DryRunOpt = False,
    max_rounds: Annotated[
        int | None,
        typer.Option("--max-rounds", help="Revision rounds at most (default: config, else 2)."),
    ] = None,
    config: ConfigOpt = None,
    max_chars: MaxCharsOpt = None,
    max_citations: MaxCitationsOpt = None,
    edit_policy: EditPolicyOpt = None,
    context: Annotated[
        str, typer.Option("--context", help="Question every report answers (default: its own).")
    ] = "",
    fail_on: Annotated[
        float | None,
        typer.Option(
            "--fail-on",
            min=0.0,
            max=1.0,
            help="Exit 1 if any final trust is below this (0-1), or if some citations of a "
            "draft could not be checked (see --allow-unverifiable).",
        ),
    ] = None,
    allow_unverifiable: AllowUnverifiableOpt = False,
    details: Annotated[
        bool,
        typer.Option(
            "--details",
            help="Keep the raw measures (overlap, match scores) in the HTML rationales.",
        ),
    ] = False,
    workers: Annotated[
        int, typer.Option("--workers", "-j", help="Worker processes (each loads the store).")
    ] = 1,
    resume: Annotated[
        bool,
        typer.Option(
            "--resume",
            help="Skip drafts already done with the same content and settings "
            "(per summary.jsonl in --out).",
        ),
    ] = False,
    quiet: Annotated[
        bool,
        typer.Option(
            "--quiet",
            "-q",
            help="No progress bar and no per-draft lines; failures and the summary table are "
            "still printed.",
        ),
    ] = False,
    trace: Annotated[
        bool,
        typer.Option(
            "--trace", help="Also write <name>.trace.json (rounds, verdicts, unified diff)."
        ),
    ] = False,
    review: Annotated[
        bool,
        typer.Option(
            "--review",
            help="Accept or reject each proposed edit in the terminal before it is applied "
            "(one worker; rejected edits are recorded in the notes).",
        ),
    ] = False,
    engine: Annotated[
        str,
        typer.Option(
            "--engine",
            help="local (this machine, --workers processes) or ray (Ray Data actors, "
            "--workers of them; needs citegov[ray]).",
        ),
    ] = "local",
    address: Annotated[
        str | None,
        typer.Option(
            "--address",
            help="With --engine ray: a running cluster (auto, ray://HOST:10001); "
            "default: a local Ray for this run.",
        ),
    ] = None,
) -> None:
    """Revise drafts: revised text, verdicts JSON and an annotated HTML page per draft."""
    from governor.batch import make_options
    from governor.core.config import STRATEGIES

    if strategy is not None and strategy not in STRATEGIES:
        raise fail(f"unknown strategy {strategy!r}; use one of: {', '.join(STRATEGIES)}")
    if review and workers != 1:
        raise fail("--review asks about each edit in this terminal; use it with --workers 1")
    if review and dry_run:
        raise fail("--review applies edits; it cannot be combined with --dry-run")
    if review and engine != "local":
        raise fail("--review asks about each edit in this terminal; use it with --engine local")
    if engine not in ("local", "ray"):
        raise fail(f"unknown engine {engine!r}; use local or ray")
    if address is not None and engine != "ray":
        raise fail("--address needs --engine ray")
    if engine == "ray":
        from governor.batch_ray import RAY_MISSING

        if importlib.util.find_spec("ray") is None:
            raise fail(RAY_MISSING)
    gov = make_governor(
        config,
        dry_run=dry_run,
        strict=strict,
        judge=judge,
        llm_base_url=llm_base_url,
        llm_model=llm_model,
        max_rounds=max_rounds,
        max_chars=max_chars,
        max_citations=max_citations,
        strategy=strategy,
        edit_policy=edit_policy,
    )
    fixed: date | None = parse_as_of(as_of)
    if dry_run:
        _dry_run_revise(gov, paths, out_dir, fixed, context)
        return
    try:
        options = make_options(
            strategy=gov.config.strategy,
            as_of=fixed,
            context=context,
            fail_on=fail_on,
            allow_unverifiable=allow_unverifiable,
            details=details,
            resume=resume,
            workers=workers,
            trace=trace,
        )
    except GovernorError as exc:
        raise fail(str(exc)) from None
    console = Console(highlight=False)
    show_bar = not quiet and err.is_terminal and not review
    per_draft = not quiet and not show_bar
    try:
        runner = _Reviewing(gov, review_in_terminal) if review else gov
        result = _run(
            runner, paths, out_dir, options, console, show_bar, per_draft, engine, address
        )
    except OutputError as exc:
        raise fail(str(exc), EXIT_IO) from None
    except GovernorError as exc:
        raise fail(str(exc)) from None
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM (BatchInterrupted): workers stopped
        raise fail(
            f"interrupted; finished drafts are in {out_dir}. Rerun with --resume to go on.",
            128 + getattr(exc, "signum", signal.SIGINT),
        ) from None
    console.print(summary_table(result, fail_on))
    report_usage(gov)
    code = exit_code(result)
    if code:
        raise typer.Exit(code)


def _dry_run_revise(
    gov: Any, paths: Sequence[str], out_dir: Path, fixed: date | None, context: str
) -> None:
    """``revise --dry-run``: judge the drafts once (the first round's calls) and report what
    that would spend; nothing is sent and nothing is written."""
    from governor.batch import collect_inputs, read_input
    from governor.text.dates import detect_as_of

    try:
        files = collect_inputs(paths, exclude=out_dir)
        texts = [read_input(p, max_chars=gov.config.max_chars).text for p in files]
        gov.verify_many(texts, as_of=[fixed or detect_as_of(t) for t in texts], context=context)
    except GovernorError as exc:
        raise fail(str(exc)) from None
    err.print(
        f"dry run over {len(files)} draft(s): first-round judge calls only; "
        "revision rounds add calls for the citations they change; nothing was written",
        highlight=False,
    )
    report_usage(gov)


def _run(
    gov: Any,
    paths: Sequence[str],
    out_dir: Path,
    options: Any,
    console: Console,
    show_bar: bool,
    per_draft: bool,
    engine: str = "local",
    address: str | None = None,
) -> Any:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from governor.batch import BatchProgress

    progress = Progress(
        SpinnerColumn(),
        TextColumn("revising"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("[red]{task.fields[failed]} failed[/] · {task.fields[skipped]} already done"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=err,
        disable=not show_bar,
        transient=False,
    )
    task = progress.add_task("revise", total=None, failed=0, skipped=0)

    def on_progress(ev: BatchProgress) -> None:
        r = ev.row
        # Count only drafts to do in this run, so the ETA is not skewed by resumed ones.
        progress.update(
            task,
            total=ev.total - ev.skipped,
            completed=ev.completed - ev.skipped,
            failed=ev.failed,
            skipped=ev.skipped,
        )
        if r.status == "failed":
            progress.console.print(
                f"[red]failed:[/] {escape(draft_error(r.input, r.error or ''))}",
                highlight=False,
            )
        elif per_draft and not ev.was_skipped:
            trust = (
                nothing_checked(0, 0)
                if r.citations == 0
                else f"trust {_fmt(r.trust_before)} → {_fmt(r.trust_after)}"
            )
            console.print(
                f"{escape(r.name)}: citations {r.citations} · edits {r.edits} · {trust} · cov "
                f"{_fmt(r.cov_after)} · sup {_fmt(r.sup_before)} → {_fmt(r.sup_after)} · "
                f"kept {r.kept} · removed "
                f"{r.removed} · orphan claims {r.orphan_claims} · annotations {r.annotations}"
                " · stopped: "
                f"{stop_phrase(r.stop_reason)}" + (f" · {escape(r.gaps)}" if r.gaps else ""),
                highlight=False,
                soft_wrap=True,  # one log line per draft, whatever the width
            )

    with progress:
        if isinstance(gov, _Reviewing):
            from governor.batch import run_batch

            return run_batch(gov, list(paths), out_dir, options, progress=on_progress)
        return gov.revise_many(
            paths,
            out_dir,
            strategy=options.strategy,
            workers=options.workers,
            resume=options.resume,
            as_of=options.as_of,
            context=options.context,
            fail_on=options.fail_on,
            allow_unverifiable=options.allow_unverifiable,
            details=options.details,
            trace=options.trace,
            progress=on_progress,
            engine=engine,
            ray_address=address,
        )


class _Reviewing:
    """The facade with a reviewer in the loop: ``govern`` pauses at each round's proposed
    edits (``Governor.govern(review=...)``); everything else is the facade's."""

    def __init__(self, gov: Any, review: Any) -> None:
        self._gov = gov
        self._review = review

    def __getattr__(self, name: str) -> Any:
        return getattr(self._gov, name)

    def govern(self, text: str, **kwargs: Any) -> Any:
        return self._gov.govern(text, review=self._review, **kwargs)


def edit_diff(edit: dict[str, Any]) -> Any:
    """A proposed edit (one item of ``graphs.nodes.review_payload``) as rich text: the
    words around it, the removed words struck through in red, the new ones in green."""
    from rich.text import Text

    t = Text()
    t.append("…" + edit.get("context_before", ""), style="dim")
    if edit.get("before"):
        t.append(edit["before"], style="red strike")
    if edit.get("after"):
        t.append(edit["after"], style="bold green")
    t.append(edit.get("context_after", "") + "…", style="dim")
    return t


def review_in_terminal(payload: dict[str, Any]) -> list[bool]:
    """Show each proposed edit of a round (op, reason, proof when recorded, diff) on stderr
    and ask whether to apply it; returns one flag per edit (``graphs.nodes.parse_review``)."""
    edits = payload.get("edits", [])
    err.print(
        f"[bold]round {payload.get('round')}[/]: {len(edits)} proposed edit(s)", highlight=False
    )
    flags = []
    for e in edits:
        err.print(
            f"[bold]{e['index'] + 1}/{len(edits)}[/] {escape(e['op'])}: {escape(e['reason'])}",
            highlight=False,
        )
        if e.get("proof"):
            err.print(f"  proof: {escape(str(e['proof']))}", highlight=False)
        err.print(edit_diff(e))
        flags.append(typer.confirm("  apply this edit?", default=True, err=True))
    return flags
