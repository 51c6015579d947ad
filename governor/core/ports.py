"""Ports: the Protocols that injected collaborators satisfy (layer 0, STYLE 4).

Adapters live in ``governor/clients/`` and ``governor/retrieval/``; fakes for tests in ``tests/conftest.py``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from governor.core.models import CitationKind
from governor.core.records import ArticleRecord


@runtime_checkable
class Embedder(Protocol):
    """Text → dense vectors.

    ``name`` identifies model + version (stored with an index so a reopened index refuses a
    different embedder). ``embed`` returns a float32 array of shape ``(len(texts), dim)`` with
    L2-normalised rows.
    """

    name: str
    dim: int

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]: ...


@runtime_checkable
class VectorIndex(Protocol):
    """Persistent nearest-neighbour index over provision texts (chromadb adapter)."""

    def add(
        self, ids: Sequence[str], texts: Sequence[str], metadatas: Sequence[Mapping[str, Any]]
    ) -> None: ...

    def query(
        self, text: str, k: int, where: Mapping[str, Any] | None = None
    ) -> list[tuple[str, float]]:
        """Return up to ``k`` ``(id, similarity)`` pairs, similarity in [0, 1], best first."""
        ...

    def count(self) -> int: ...


@runtime_checkable
class InstrumentNames(Protocol):
    """Resolves an instrument name as written (alias, short name) to its canonical title."""

    def resolve_instrument(self, name: str) -> str | None: ...

    def known_short_names(self) -> Sequence[str]:
        """Every alias (without 《》) that may appear bare before 第N条 in a report."""
        ...

    def kind_of(self, title: str) -> CitationKind | None:
        """Citation kind of a canonical title (statute, judicial_interpretation, ...)."""
        ...


@runtime_checkable
class ChatModel(Protocol):
    """A chat-completions model (OpenAI-compatible). Returns the assistant text.

    Implementations raise :class:`governor.core.errors.EndpointError` after their retries fail.
    """

    model: str

    def complete(
        self,
        messages: Sequence[Mapping[str, str]],
        *,
        json_schema: Mapping[str, Any] | None = None,
        max_tokens: int | None = None,
    ) -> str: ...


@runtime_checkable
class CaseLookup(Protocol):
    """Looks up US reporter citations (CourtListener citation-lookup or a local store).

    ``lookup`` takes ``(volume, reporter, page)`` triples and returns, per triple, the list of
    case names found there (empty list: not found; ``None``: could not be checked).
    """

    def lookup(self, cites: Sequence[tuple[str, str, str]]) -> list[list[str] | None]: ...


@runtime_checkable
class Generator(Protocol):
    """A report writer: task (query + subtopics) and optional feedback → report text."""

    def __call__(self, task: Mapping[str, Any], feedback: str | None = None) -> str: ...


@runtime_checkable
class Retriever(Protocol):
    """Finds provisions for a query: BM25 (the store), dense, or hybrid.

    Returns up to ``k`` ``(record, score)`` pairs, best first; scores are comparable only
    within one call. ``instrument`` restricts to one canonical title, ``as_of`` to the version
    in force on that date (latest when None).
    """

    def search(
        self,
        query: str,
        *,
        instrument: str | None = None,
        as_of: date | None = None,
        k: int = 10,
    ) -> list[tuple[ArticleRecord, float]]: ...
