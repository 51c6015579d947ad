"""The ``citegov`` command line (typer). The composition root: nothing imports this module.

Commands live in the modules of ``governor/cli/``, each with a ``register(app)`` function.
Exit codes: 0 success · 1 a ``--fail-on`` threshold was crossed (or citations could not be
checked, unless ``--allow-unverifiable``) · 2 usage error (bad flag,
unknown strategy, unreadable input) · 3 some drafts failed (the others were still written) ·
4 I/O failure (an output could not be written: disk full, read-only folder).
"""

from __future__ import annotations

import gc
from typing import Annotated, Any

import typer
from rich.markup import escape
from typer.core import TyperCommand, TyperGroup

from governor.cli import ablate, calibrate, corpus, drafts, serve
from governor.cli.common import EXIT_IO, err
from governor.core.errors import GovernorError, OutputError
from governor.core.logs import configure_cli
from governor.core.version import package_version

app = typer.Typer(
    name="citegov",
    help="Govern the citations of LLM-written legal research reports: extract, verify "
    "(Existence / Fidelity / Applicability), revise, score.\n\n"
    "Exit codes: 0 ok; 1 --fail-on crossed (a trust below it, or citations that could not be "
    "checked unless --allow-unverifiable); 2 usage error; 3 some drafts failed; 4 I/O failure "
    "(an output could not be written: disk full, read-only folder).",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
    add_completion=False,
)
for _module in (drafts, corpus, ablate, calibrate, serve):
    _module.register(app)


def _escape_tree(cmd: Any) -> None:
    """Escape the help texts of ``cmd``, its parameters and subcommands, once: help texts are
    literal text, never rich markup (typer renders them as markup, and ``[docx]`` in
    「pip install 'citegov[docx]'」 vanished as an unknown tag)."""
    if getattr(cmd, "_citegov_escaped", False):
        return
    for attr in ("help", "short_help", "epilog"):
        text = getattr(cmd, attr, None)
        if text:
            setattr(cmd, attr, escape(text))
    for param in cmd.params:
        text = getattr(param, "help", None)
        if text:
            param.help = escape(text)
    cmd._citegov_escaped = True
    for sub in getattr(cmd, "commands", {}).values():
        _escape_tree(sub)


class LiteralHelpCommand(TyperCommand):
    """A command whose help texts are shown as written (:func:`_escape_tree`)."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        _escape_tree(ctx.find_root().command)
        _escape_tree(self)
        super().format_help(ctx, formatter)


class LiteralHelpGroup(TyperGroup):
    """A group whose help texts, and its commands', are shown as written."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        _escape_tree(ctx.find_root().command)
        _escape_tree(self)
        super().format_help(ctx, formatter)


def _literal_help(t: typer.Typer) -> None:
    """Every command and group of ``t`` (recursively) shows its help texts as written."""
    if t.info.cls in (None, TyperGroup) or not isinstance(t.info.cls, type):
        t.info.cls = LiteralHelpGroup
    for info in t.registered_commands:
        if info.cls in (None, TyperCommand):
            info.cls = LiteralHelpCommand
    for group in t.registered_groups:
        if group.typer_instance is not None:
            _literal_help(group.typer_instance)


_literal_help(app)


def _show_version(value: bool) -> Any:
    if value:
        typer.echo(f"citegov {package_version()}")
        raise typer.Exit(0)
    return value


@app.callback()
def _options(
    verbose: Annotated[
        int,
        typer.Option(
            "--verbose",
            "-v",
            count=True,
            help="Log citegov's progress to stderr (-v info, -vv debug); libraries it uses "
            "log warnings only.",
        ),
    ] = 0,
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_show_version,
            is_eager=True,
            help="Print citegov's version (from the installed package) and exit.",
        ),
    ] = False,
) -> None:
    configure_cli(verbose)


GC_YOUNG_THRESHOLD = 10_000
"""Allocations between two young-generation collections in a ``citegov`` process (Python's
default is 700). A command builds hundreds of thousands of long-lived objects (store
records, pydantic models, LangGraph's modules) and little cyclic garbage; at 700 the
collector ran ≈ 640 young, 57 middle and 5 full collections in a cold ``revise --strategy
efa`` of the 10k bench report (0.41 s of CPU; 0.16 s in a cold ``verify``), at 10,000 none
is full (0.20 s; peak RSS unchanged, 391 MiB), measured with ``gc.callbacks``. Outputs do
not depend on when garbage is collected. Set for the command line only (:func:`main`); a
library user's process keeps its own settings."""


def main() -> None:
    """Console-script entry point: maps :class:`OutputError` to exit code 4 and any other
    :class:`GovernorError` to 2."""
    gc.set_threshold(GC_YOUNG_THRESHOLD, *gc.get_threshold()[1:])
    try:
        app()
    except GovernorError as exc:
        err.print(f"[bold red]error:[/] {escape(str(exc))}", highlight=False)
        raise SystemExit(EXIT_IO if isinstance(exc, OutputError) else 2) from None
