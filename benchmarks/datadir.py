"""Where the shared data folders live (cn_laws, cn_cases, lawbench_dev).

Order: ``$CITEGOV_SHARED_DATA`` (a folder holding ``cn_laws/``, ``cn_cases/``,
``lawbench_dev/``); else a ``shared/data`` folder beside the repository, the working directory
or any of their parents (a checkout at ``…/main`` next to ``…/shared``); else
:data:`WORKPLACE`. The installed package
itself never needs this data: the authority store ships inside it.
"""

from __future__ import annotations

import os
from pathlib import Path

_REPO = Path(__file__).resolve().parents[1]
WORKPLACE = Path("/work/shared/data")
"""Last resort: where this project's development machines keep the shared data."""


def shared_data_dir() -> Path | None:
    """The shared data folder, or None when none is found (see the module docstring)."""
    env = os.environ.get("CITEGOV_SHARED_DATA")
    if env:
        return Path(env)
    for start in (_REPO, Path.cwd().resolve()):
        for base in (start, *start.parents):
            cand = base / "shared" / "data"
            if (cand / "cn_laws").is_dir() or (cand / "lawbench_dev").is_dir():
                return cand
    if (WORKPLACE / "cn_laws").is_dir():
        return WORKPLACE
    return None


def data_path(name: str) -> Path:
    """``<shared data>/<name>`` (``cn_laws``, ``cn_cases``, ``lawbench_dev``); a path that
    does not exist when no shared data folder is found, so callers report it by name."""
    root = shared_data_dir()
    return (root / name) if root is not None else _REPO.parent / "shared" / "data" / name
