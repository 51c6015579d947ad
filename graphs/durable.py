"""Durable runs: a SQLite checkpointer whose serializer knows citegov's types (layer 5).

LangGraph's serializer revives pydantic models from checkpoints by module and class name;
types it was not told about are revived with a warning today and blocked in future versions.
:func:`checkpoint_serializer` registers every domain model that can sit in the pipeline state
(strict allowlist), so checkpoints round-trip ``Verdict``, ``Citation``, ``Edit`` and
``Revision`` without warnings, and nothing else is revived from a checkpoint file.

A governance graph used as a subgraph checkpoints through its *parent's* saver (an
``InMemorySaver`` with LangGraph's default serializer, say), which warned once per citegov
type on every resume (issue 23). :func:`register_state_types` — called when a governance
graph is built — adds :data:`STATE_TYPES` to LangGraph's list of types that are safe to revive
(``langgraph.checkpoint.serde._msgpack.SAFE_MSGPACK_TYPES``): frozen data models with no
behaviour on construction, so any saver revives them without a warning, strict mode included.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

from governor.core import models

STATE_TYPES: tuple[type[Any], ...] = (
    models.Span,
    models.USParts,
    models.AssertedNumber,
    models.Assertion,
    models.Citation,
    models.Authority,
    models.Evidence,
    models.CheckResult,
    models.Suggestion,
    models.Verdict,
    models.Proof,
    models.Edit,
    models.Revision,
    models.ReportScore,
)
"""Pydantic types that appear (possibly nested) in :class:`graphs.state.GovernanceState`."""


def register_state_types() -> bool:
    """Add :data:`STATE_TYPES` to LangGraph's safe msgpack types (idempotent).

    Returns:
        True when they are registered; False when this LangGraph has no such list (older or
        newer versions: their savers then behave as they always did).
    """
    try:
        from langgraph.checkpoint.serde import _msgpack
    except ImportError:  # pragma: no cover - a LangGraph without the module
        return False
    safe = getattr(_msgpack, "SAFE_MSGPACK_TYPES", None)
    if not isinstance(safe, frozenset):
        return False
    ours = {(t.__module__, t.__name__) for t in STATE_TYPES}
    if not ours <= safe:
        _msgpack.SAFE_MSGPACK_TYPES = safe | ours
    return True


def checkpoint_serializer() -> JsonPlusSerializer:
    """A LangGraph serializer that revives citegov's state types (and only safe types)."""
    return JsonPlusSerializer(
        allowed_msgpack_modules=[(t.__module__, t.__name__) for t in STATE_TYPES]
    )


@contextmanager
def sqlite_checkpointer(path: Path | str) -> Iterator[Any]:
    """A ``SqliteSaver`` over the database file ``path`` (created if missing), closed on exit.

    Args:
        path: SQLite file; ``":memory:"`` for an in-process store.

    Yields:
        a ``langgraph.checkpoint.sqlite.SqliteSaver`` using :func:`checkpoint_serializer`.
    """
    from langgraph.checkpoint.sqlite import SqliteSaver

    if str(path) != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(str(path), check_same_thread=False)
    try:
        saver = SqliteSaver(conn, serde=checkpoint_serializer())
        saver.setup()
        yield saver
    finally:
        conn.close()
