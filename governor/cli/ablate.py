"""``citegov ablate``: run strategies over a benchmark suite and write the tables (layer 8).

Thin wrapper over :mod:`benchmarks.ablation` and :mod:`benchmarks.report`.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Annotated, Any

import typer

from governor.cli.common import (
    ConfigOpt,
    JudgeOpt,
    StrictOpt,
    err,
    fail,
    make_governor,
    out,
)
from governor.core.errors import GovernorError
from governor.core.extras import available
from governor.text.textio import atomic_write_text

ABLATE_EPILOG = (
    "Suites: perturbation (seeded error injection over real provisions; perturbation:N for N "
    "reports), lawbench-3-2, lawbench-3-8 (LawBench dev answers of three models; folder "
    "$CITEGOV_LAWBENCH_DIR or ../shared/data/lawbench_dev), or a path: a perturbation suite "
    ".jsonl, or a task file/folder (SPEC §8 or LegalCiteTrust format) with --generator.\n\n"
    "Generators: drafts:DIR reads DIR/<task id>.md|.txt; module:function imports a callable "
    "taking a benchmarks.tasks.GeneratorView (query, subtopics) and returning the report.\n\n"
    "Outputs in --out: results.json, results.csv, table.md, scores_by_strategy.png, "
    "trust_vs_support.png, and checkpoint.jsonl (a rerun with the same settings resumes). "
    "With several suites or edit policies (--edit-policy all): one such folder per "
    "<suite>/<policy>, and policies.md / policies.json: Trust, Cov, Sup, all-pass, kept/removed, "
    "orphan claims, annotations per (suite, policy, strategy), and injected errors restored "
    "per policy.\n\n"
    "Exit codes: 0 ok · 2 usage error (unknown suite, strategy or judge; bad generator; --out "
    "holds another run)."
)


def register(app: typer.Typer) -> None:
    """Add ``ablate`` to ``app``."""
    app.command(epilog=ABLATE_EPILOG)(ablate)


def _offline_screen(gov: Any) -> Callable[[str, date, str], list[bool]]:
    """All-pass per citation by the offline verifier (screens the perturbation suite)."""
    from governor.api import Governor

    offline = Governor(gov.config.model_copy(update={"judge": "offline"}), store=gov.store)

    def screen(text: str, as_of: date, query: str) -> list[bool]:
        return [v.passes for v in offline.verify(text, as_of=as_of, context=query)]

    return screen


def _list(value: str) -> list[str]:
    return list(dict.fromkeys(v.strip() for v in value.split(",") if v.strip()))


def _policies(value: str | None) -> list[str | None]:
    """``--edit-policy``: None (the config's), one name, a comma list, or ``all``."""
    from governor.core.config import EDIT_POLICIES

    if value is None:
        return [None]
    names = list(EDIT_POLICIES) if value.strip() == "all" else _list(value)
    bad = [n for n in names if n not in EDIT_POLICIES]
    if bad or not names:
        raise fail(
            f"unknown edit policy {', '.join(bad) or value!r}: use one or more of "
            f"{', '.join(EDIT_POLICIES)} (comma-separated), or all"
        )
    return list(names)


def _slug(suite: str) -> str:
    return re.sub(r"[^\w.-]+", "_", suite).strip("_") or "suite"


def _command(**opts: Any) -> str:
    """The one-line command that reproduces a run (options in a fixed order)."""
    parts = ["citegov", "ablate"]
    for flag, value in opts.items():
        if value is None or value is False:
            continue
        parts.append(flag if value is True else f"{flag} {shlex.quote(str(value))}")
    return " ".join(parts)


EditPoliciesOpt = Annotated[
    str | None,
    typer.Option(
        "--edit-policy",
        help="What may change words: annotate | proven | aggressive; a comma-separated list, "
        "or all, runs every strategy under each and writes policies.md. Default: config.",
    ),
]


def ablate(
    suite: Annotated[
        str,
        typer.Option(
            "--suite",
            help="perturbation[:N], lawbench-3-2, lawbench-3-8 or a path; comma-separated for "
            "several.",
        ),
    ],
    out_dir: Annotated[Path, typer.Option("--out", help="Output folder (created).")],
    strategies: Annotated[
        str, typer.Option("--strategies", help="Comma-separated: none,existence,efa.")
    ] = "none,existence,efa",
    judge: JudgeOpt = "offline",
    generator: Annotated[
        str | None,
        typer.Option("--generator", help="drafts:DIR or module:function (see below)."),
    ] = None,
    limit: Annotated[
        int | None,
        typer.Option("--limit", help="Run a seeded sample of this many tasks (per suite)."),
    ] = None,
    per_model: Annotated[
        bool,
        typer.Option(
            "--per-model",
            help="Apply --limit to each model's answers of a LawBench suite (e.g. 100 of each "
            "of the three models) instead of to the whole suite.",
        ),
    ] = False,
    seed: Annotated[int, typer.Option("--seed", help="Seed of suite, sampling, bootstrap.")] = 0,
    resamples: Annotated[
        int, typer.Option("--resamples", help="Bootstrap resamples for the CIs.")
    ] = 10_000,
    no_plots: Annotated[bool, typer.Option("--no-plots", help="Skip the PNG plots.")] = False,
    strict: StrictOpt = None,
    edit_policy: EditPoliciesOpt = None,
    table: Annotated[
        Path | None,
        typer.Option(
            "--table",
            help="Also write the policy table (policies.md) to this file, the command quoted.",
        ),
    ] = None,
    config: ConfigOpt = None,
) -> None:
    """Score strategies on a suite: LegalCiteTrust Final/Cov/Sup/Trust/E/F/A with 95% CIs."""
    from benchmarks.ablation import load_cases
    from benchmarks.report import (
        leaderboard,
        policy_markdown,
        policy_rows,
        write_outputs,
        write_policy_outputs,
    )

    names = _list(strategies)
    suites = _list(suite)
    if not suites:
        raise fail("--suite is empty: name a suite (perturbation, lawbench-3-2, lawbench-3-8)")
    policies = _policies(edit_policy)
    several = len(suites) > 1 or len(policies) > 1
    gov = make_governor(config, judge=judge, strict=strict or None, edit_policy=policies[0])
    plots = not no_plots and available("matplotlib")
    command = _command(
        **{
            "--suite": ",".join(suites),
            "--strategies": ",".join(names),
            "--edit-policy": edit_policy,
            "--judge": judge,
            "--generator": generator,
            "--limit": limit,
            "--per-model": per_model,
            "--seed": seed,
            "--resamples": resamples,
            "--strict": strict is True or None,
            "--no-strict": strict is False or None,
            "--config": config,
            "--out": out_dir,
            "--no-plots": no_plots,
            "--table": table,
        }
    )
    runs = []
    try:
        for su in suites:
            cases, skipped = load_cases(
                su,
                gov.store,
                seed=seed,
                limit=limit,
                per_model=per_model,
                generator=generator,
                screen=_offline_screen(gov),
            )
            for policy in policies:
                pgov = _with_policy(gov, policy)
                run_dir = out_dir / _slug(su) / str(pgov.config.edit_policy) if several else out_dir
                settings = {
                    "suite": su,
                    "strategies": names,
                    "judge": judge,
                    "seed": seed,
                    "limit": limit,
                    "per_model": per_model,
                    "generator": generator,
                    "edit_policy": pgov.config.edit_policy,
                }
                results = _run(pgov, cases, skipped, names, su, run_dir, settings, seed, resamples)
                write_outputs(results, run_dir, plots=plots)
                runs.append(results)
                if several:
                    err.print(f"{su} · {pgov.config.edit_policy}: wrote {run_dir}", highlight=False)
        if several:
            write_policy_outputs(runs, out_dir, command=command)
            if table is not None:
                atomic_write_text(table, policy_markdown(policy_rows(runs), command=command))
    except GovernorError as exc:
        raise fail(str(exc)) from None
    if several:
        out.print(policy_markdown(policy_rows(runs)), markup=False, highlight=False)
    else:
        out.print(leaderboard(runs[0]), markup=False, highlight=False)
        if table is not None:
            atomic_write_text(table, policy_markdown(policy_rows(runs), command=command))
    if not no_plots and not plots:
        err.print(
            "plots skipped: the plots of citegov ablate need matplotlib, which is not "
            "installed: pip install 'citegov[plots]'",
            highlight=False,
            markup=False,
        )
    written = (
        "policies.md, policies.json and one folder per suite and policy"
        if several
        else ("table.md, results.json, results.csv")
    )
    out.print(f"\nwrote {out_dir}: {written}", highlight=False)


def _with_policy(gov: Any, policy: str | None) -> Any:
    """``gov`` itself, or a Governor sharing its store and judge settings under ``policy``."""
    if policy is None or policy == gov.config.edit_policy:
        return gov
    from governor.api import Governor

    return Governor(gov.config.model_copy(update={"edit_policy": policy}), store=gov.store)


def _run(
    gov: Any,
    cases: Any,
    skipped: Any,
    names: list[str],
    suite: str,
    run_dir: Path,
    settings: dict[str, Any],
    seed: int,
    resamples: int,
) -> Any:
    """One run of ``names`` over ``cases`` with a progress bar on stderr."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from benchmarks.ablation import run_ablation

    with Progress(
        TextColumn("[bold]ablate"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.description}"),
        console=err,
        transient=True,
    ) as bar:
        tid = bar.add_task("", total=len(cases) * len(names))

        def tick(done: int, total: int, label: str) -> None:
            bar.update(tid, completed=done, total=total, description=label)

        return run_ablation(
            cases,
            names,
            gov=gov,
            store=gov.store,
            out_dir=run_dir,
            suite=suite,
            seed=seed,
            settings=settings,
            skipped=skipped,
            progress=tick,
            n_resamples=resamples,
        )
