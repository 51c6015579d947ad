"""The ``citegov`` command line (typer). The composition root: nothing imports this module.

Commands live in the modules of ``governor/cli/``, each with a ``register(app)`` function.
Exit codes: 0 success · 1 a ``--fail-on`` threshold was crossed (or citations could not be
checked, unless ``--allow-unverifiable``) · 2 usage error (bad flag,
unknown strategy, unreadable input) · 3 some drafts failed (the others were still written) ·
4 I/O failure (an output could not be written: disk full, read-only folder).
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markup import escape

from governor.cli import ablate, calibrate, corpus, drafts, serve
from governor.cli.common import EXIT_IO, err
from governor.core.errors import GovernorError, OutputError
from governor.core.logs import configure_cli

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
) -> None:
    configure_cli(verbose)


def main() -> None:
    """Console-script entry point: maps :class:`OutputError` to exit code 4 and any other
    :class:`GovernorError` to 2."""
    try:
        app()
    except GovernorError as exc:
        err.print(f"[bold red]error:[/] {escape(str(exc))}", highlight=False)
        raise SystemExit(EXIT_IO if isinstance(exc, OutputError) else 2) from None
