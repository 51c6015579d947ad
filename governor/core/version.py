"""citegov's version, read from the installed package's metadata (layer 0).

One source for ``citegov --version``, the service and the MCP server: ``pyproject.toml``'s
``version`` as installed (``pip install -e .`` included), never a copy in the code.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

UNKNOWN = "0+unknown"
"""The version of a source tree that was never installed (no metadata to read)."""


def package_version() -> str:
    """The installed ``citegov`` distribution's version, or :data:`UNKNOWN`."""
    try:
        return version("citegov")
    except PackageNotFoundError:
        return UNKNOWN
