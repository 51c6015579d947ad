"""citegov's logging: quiet as a library, and on the command line citegov's own messages
without a dependency's DEBUG output (issue 14 item 6)."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator

import pytest
from typer.testing import CliRunner

from governor.cli.app import app
from governor.core.logs import LOGGER, configure_cli, get_logger


@pytest.fixture
def restore() -> Iterator[None]:
    root = logging.getLogger()
    saved = (root.level, list(root.handlers), logging.getLogger(LOGGER).level)
    levels = {n: logging.getLogger(n).level for n in ("jieba", "httpx")}
    yield
    for h in list(root.handlers):
        if getattr(h, "_citegov", False):
            root.removeHandler(h)
    root.setLevel(saved[0])
    logging.getLogger(LOGGER).setLevel(saved[2])
    for n, lvl in levels.items():
        logging.getLogger(n).setLevel(lvl)


def test_library_adds_only_a_null_handler() -> None:
    handlers = logging.getLogger(LOGGER).handlers
    assert handlers and all(isinstance(h, logging.NullHandler) for h in handlers)


@pytest.mark.parametrize(
    "verbosity,shown,hidden",
    [
        (0, ["WARNING httpx: slow"], ["citegov.batch: info", "httpx: debug", "jieba: Building"]),
        (1, ["citegov.batch: info"], ["citegov.batch: debug", "httpx: debug", "jieba: Building"]),
        (2, ["citegov.batch: info", "citegov.batch: debug"], ["httpx: debug", "jieba: Building"]),
    ],
)
def test_cli_logging_keeps_dependencies_at_warning(
    restore: None, verbosity: int, shown: list[str], hidden: list[str]
) -> None:
    out = io.StringIO()
    logging.getLogger("httpx").setLevel(logging.DEBUG)  # a library asking for DEBUG
    configure_cli(verbosity, out)
    own = get_logger("batch")
    own.info("info")
    own.debug("debug")
    logging.getLogger("httpx").debug("debug")
    logging.getLogger("httpx").warning("slow")
    logging.getLogger("jieba").debug("Building prefix dict from the default dictionary ...")
    text = out.getvalue()
    for s in shown:
        assert s in text, text
    for s in hidden:
        assert s not in text, text


def test_verbose_flag_is_documented_and_accepted(restore: None) -> None:
    res = CliRunner().invoke(app, ["-v", "schema"], env={"NO_COLOR": "1", "CITEGOV_CONFIG": ""})
    assert res.exit_code == 0, res.output
    help_text = CliRunner().invoke(app, ["--help"], env={"NO_COLOR": "1", "COLUMNS": "200"}).output
    assert "--verbose" in help_text and "-v" in help_text
