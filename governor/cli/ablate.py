"""``citegov ablate``: run strategies over a benchmark suite and write the tables (layer 8).

Thin wrapper over :mod:`benchmarks.ablation` and :mod:`benchmarks.report`.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Annotated, Any

import typer

from governor.cli.common import (
    ConfigOpt,
    EditPolicyOpt,
    JudgeOpt,
    StrictOpt,
    err,
    fail,
    make_governor,
    out,
)
from governor.core.errors import GovernorError
from governor.core.extras import available

ABLATE_EPILOG = (
    "Suites: perturbation (seeded error injection over real provisions; perturbation:N for N "
    "reports), lawbench-3-2, lawbench-3-8 (LawBench dev answers of three models; folder "
    "$CITEGOV_LAWBENCH_DIR or ../shared/data/lawbench_dev), or a path: a perturbation suite "
    ".jsonl, or a task file/folder (SPEC §8 or LegalCiteTrust format) with --generator.\n\n"
    "Generators: drafts:DIR reads DIR/<task id>.md|.txt; module:function imports a callable "
    "taking a benchmarks.tasks.GeneratorView (query, subtopics) and returning the report.\n\n"
    "Outputs in --out: results.json, results.csv, table.md, scores_by_strategy.png, "
    "trust_vs_support.png, and checkpoint.jsonl (a rerun with the same settings resumes).\n\n"
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


def ablate(
    suite: Annotated[
        str, typer.Option("--suite", help="perturbation[:N], lawbench-3-2, lawbench-3-8 or a path.")
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
        int | None, typer.Option("--limit", help="Run a seeded sample of this many tasks.")
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of suite, sampling, bootstrap.")] = 0,
    resamples: Annotated[
        int, typer.Option("--resamples", help="Bootstrap resamples for the CIs.")
    ] = 10_000,
    no_plots: Annotated[bool, typer.Option("--no-plots", help="Skip the PNG plots.")] = False,
    strict: StrictOpt = None,
    edit_policy: EditPolicyOpt = None,
    config: ConfigOpt = None,
) -> None:
    """Score strategies on a suite: LegalCiteTrust Final/Cov/Sup/Trust/E/F/A with 95% CIs."""
    from benchmarks.ablation import load_cases, run_ablation
    from benchmarks.report import leaderboard, write_outputs

    names = [s.strip() for s in strategies.split(",") if s.strip()]
    gov = make_governor(config, judge=judge, strict=strict or None, edit_policy=edit_policy)
    try:
        store = gov.store
        cases, skipped = load_cases(
            suite,
            store,
            seed=seed,
            limit=limit,
            generator=generator,
            screen=_offline_screen(gov),
        )
        settings = {
            "suite": suite,
            "strategies": names,
            "judge": judge,
            "seed": seed,
            "limit": limit,
            "generator": generator,
            "edit_policy": gov.config.edit_policy,
        }
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
        )

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

            results = run_ablation(
                cases,
                names,
                gov=gov,
                store=store,
                out_dir=out_dir,
                suite=suite,
                seed=seed,
                settings=settings,
                skipped=skipped,
                progress=tick,
                n_resamples=resamples,
            )
        plots = not no_plots and available("matplotlib")
        write_outputs(results, out_dir, plots=plots)
    except GovernorError as exc:
        raise fail(str(exc)) from None
    out.print(leaderboard(results), markup=False, highlight=False)
    if not no_plots and not plots:
        err.print(
            "plots skipped: the plots of citegov ablate need matplotlib, which is not "
            "installed: pip install 'citegov[plots]'",
            highlight=False,
            markup=False,
        )
    out.print(f"\nwrote {out_dir}/table.md, results.json, results.csv", highlight=False)
