"""Shared pieces of the ``citegov`` CLI: consoles, option types, error helpers (layer 8)."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from governor.core.errors import GovernorError

out = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)

FilesArg = Annotated[
    list[Path], typer.Argument(help="Draft files (.md/.txt; UTF-8, GB18030 or UTF-16 with BOM).")
]
AsOfOpt = Annotated[
    str | None,
    typer.Option(
        "--as-of", help="Report date YYYY-MM-DD (default: a date the report states, else today)."
    ),
]
EditPolicyOpt = Annotated[
    str | None,
    typer.Option(
        "--edit-policy",
        help="What may change words: annotate (notes only) | proven (only with proof; "
        "default) | aggressive (pre-policy behaviour, for ablations). Default: config.",
    ),
]
StrictOpt = Annotated[
    bool | None,
    typer.Option(
        "--strict/--no-strict",
        help="Score unverifiable citations 0.5 (and let E-Filter remove them). Default: config.",
    ),
]
JudgeOpt = Annotated[
    str | None,
    typer.Option("--judge", help="F/A judge: offline or llm (default: config, else offline)."),
]
ConfigOpt = Annotated[Path | None, typer.Option("--config", help="TOML config file.")]
LlmUrlOpt = Annotated[
    str | None,
    typer.Option(
        "--llm-base-url",
        help="OpenAI-compatible endpoint for --judge llm (key from $OPENAI_API_KEY or llm_api_key_env).",
    ),
]
LlmModelOpt = Annotated[str | None, typer.Option("--llm-model", help="Model name for --judge llm.")]
DryRunOpt = Annotated[
    bool,
    typer.Option(
        "--dry-run",
        help="With --judge llm: count the calls and tokens it would spend; send nothing.",
    ),
]
MaxCharsOpt = Annotated[
    int | None,
    typer.Option(
        "--max-chars",
        help="Refuse drafts longer than this many characters (default: config, else 2,000,000).",
    ),
]

MaxCitationsOpt = Annotated[
    int | None,
    typer.Option(
        "--max-citations",
        help="Refuse drafts holding more citations than this (default: config, else 2,000).",
    ),
]

EXIT_IO = 4
"""Exit code of an I/O failure: an output could not be written (disk full, read-only or
missing folder). Rerun with ``--resume`` once it is fixed: finished drafts are kept."""


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print ``error: message`` (the message is text, never rich markup: ``citegov[index]``
    stays as written) and return the ``typer.Exit`` to raise."""
    err.print(f"[bold red]error:[/] {escape(message)}", highlight=False)
    return typer.Exit(code)


def draft_error(path: object, exc: BaseException | str) -> str:
    """``PATH: message`` for a draft that could not be read or checked, naming the path once
    (the readers' messages often start with it already: ``bin.md: contains NUL bytes``)."""
    message = str(exc)
    prefix = f"{path}:"
    return message if message.startswith(prefix) else f"{prefix} {message}"


def parse_as_of(value: str | None) -> date | None:
    if value is None:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise fail(f"--as-of {value!r} is not a date; use YYYY-MM-DD") from None


def make_governor(config: Path | None, *, dry_run: bool = False, **overrides: Any) -> Any:
    """A :class:`~governor.api.Governor` from ``--config`` + flag overrides; with ``dry_run``
    and ``--judge llm`` its judge counts calls and tokens instead of sending them."""
    from governor.api import Governor
    from governor.core.config import EDIT_POLICIES, load_config

    policy = overrides.get("edit_policy")
    if policy is not None and policy not in EDIT_POLICIES:
        raise fail(f"unknown edit policy {policy!r}; use one of: {', '.join(EDIT_POLICIES)}")
    try:
        cfg = load_config(config, overrides)
        if dry_run and cfg.judge != "llm":
            raise fail("--dry-run only applies to --judge llm")
        gov = Governor(cfg)
        if cfg.judge == "llm" and not dry_run:
            _ = gov.judge  # build it now: a missing endpoint or model is a usage error (exit 2)
        if dry_run:
            from verifiers.llm_judge import make_llm_judge

            gov = Governor(cfg, judge=make_llm_judge(cfg, gov.store, gov.retriever, dry_run=True))
        return gov
    except GovernorError as exc:
        raise fail(str(exc)) from None


def report_usage(gov: Any) -> None:
    """Print the LLM judge's call and token counters to stderr (nothing for offline)."""
    judge = gov.__dict__.get("judge") or getattr(gov, "_judge", None)
    usage = getattr(judge, "usage", None)
    if usage is None:
        return
    fields = {k: v for k, v in vars(usage).items() if not k.startswith("_")}
    # the judge's own counters: calls planned (cache hits included), items left unknown,
    # seconds waited for answers after its offline checks
    for k in ("batches", "failed_items", "waited_s"):
        if isinstance(getattr(judge, k, None), int | float):
            fields[f"judge_{k}"] = getattr(judge, k)
    err.print(
        "llm usage: "
        + ", ".join(
            f"{k} {v:.2f}" if isinstance(v, float) else f"{k} {v}" for k, v in fields.items()
        ),
        highlight=False,
    )
    if fields.get("judge_failed_items") and not fields.get("dry_run_calls"):
        err.print(
            f"warning: {fields['judge_failed_items']} citation(s) could not be judged by the LLM "
            "(endpoint, budget or invalid answers): recorded as unknown, scored 0.0",
            highlight=False,
        )


def read(path: Path, gov: Any) -> Any:
    from governor.text.textio import read_draft

    return read_draft(path, max_chars=gov.config.max_chars)


def verdict_table(title: str, rows: list[Any]) -> Table:
    t = Table(title=title, show_lines=False, title_justify="left")
    for col in ("citation", "E", "F", "A", "trust", "taxonomy", "suggestion"):
        t.add_column(col, overflow="fold")
    for c in rows:
        sug = c.suggestion.authority.label if c.suggestion else ""
        t.add_row(
            c.raw.replace("\n", " "),
            c.existence.label,
            c.fidelity.label,
            c.applicability.label,
            "excl." if c.excluded else f"{c.item_trust:.2f}",
            " ".join(c.taxonomy),
            sug,
        )
    return t
