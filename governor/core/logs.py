"""citegov's logging (layer 0): a library logger that stays quiet, and a CLI handler that
shows citegov's own messages without letting a dependency's DEBUG chatter through.

As a library citegov follows the ``logging`` HOWTO for libraries: it logs to the ``citegov``
logger tree and adds only a :class:`logging.NullHandler`, so an application decides what is
shown. The command line (``citegov -v …``) installs one stderr handler with
:class:`DependencyFilter`: records from ``citegov.*`` pass at the chosen level, records from
any other logger (jieba, httpx, httpcore, openai, chromadb, urllib3, matplotlib …) only at
WARNING or above, whatever level those libraries set on themselves.
"""

from __future__ import annotations

import logging
import sys
from typing import TextIO

__all__ = ["LOGGER", "DependencyFilter", "configure_cli", "get_logger"]

LOGGER = "citegov"
"""Name of citegov's root logger."""

logging.getLogger(LOGGER).addHandler(logging.NullHandler())

_QUIET_DEPENDENCIES = ("jieba", "httpx", "httpcore", "openai", "chromadb", "urllib3")
"""Libraries that log below WARNING on their own handlers or at import (jieba adds a DEBUG
stderr handler of its own: "Building prefix dict …")."""


def get_logger(name: str) -> logging.Logger:
    """The logger of one citegov module: ``get_logger(__name__)`` → ``citegov.<module>``."""
    return logging.getLogger(f"{LOGGER}.{name}")


class DependencyFilter(logging.Filter):
    """Passes citegov's records at any level and other loggers' at WARNING or above."""

    def filter(self, record: logging.LogRecord) -> bool:
        own = record.name == LOGGER or record.name.startswith(LOGGER + ".")
        return own or record.levelno >= logging.WARNING


def configure_cli(verbosity: int, stream: TextIO | None = None) -> logging.Handler:
    """Logging for the command line: ``0`` warnings only, ``1`` (``-v``) citegov INFO,
    ``2`` (``-vv``) citegov DEBUG; dependencies stay at WARNING in every case.

    Args:
        verbosity: number of ``-v`` flags (0, 1, 2+).
        stream: where to write (default ``sys.stderr``).

    Returns:
        The installed handler (replaces one installed by an earlier call).
    """
    level = logging.WARNING if verbosity <= 0 else logging.INFO if verbosity == 1 else logging.DEBUG
    root = logging.getLogger()
    for h in list(root.handlers):
        if getattr(h, "_citegov", False):
            root.removeHandler(h)
    handler = logging.StreamHandler(stream or sys.stderr)
    handler._citegov = True  # type: ignore[attr-defined]
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    handler.addFilter(DependencyFilter())
    root.addHandler(handler)
    root.setLevel(min(root.level or logging.WARNING, logging.WARNING))
    logging.getLogger(LOGGER).setLevel(level)
    for name in _QUIET_DEPENDENCIES:
        dep = logging.getLogger(name)
        dep.setLevel(max(dep.level, logging.WARNING))
        for h in dep.handlers:  # a library's own handler (jieba's DEBUG stderr handler)
            h.addFilter(DependencyFilter())
    return handler
