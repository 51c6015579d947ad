"""Disk cache of LLM responses (layer 2).

One JSON file per response under ``<cache_dir>/chat/<key[:2]>/<key>.json``; the key is the
sha256 of the canonical JSON of (model, prompt version, messages, schema) (SPEC §7), so a
rerun of the same judgement makes zero calls. Writes are atomic (temporary file in the same
folder + ``os.replace``): a killed run never leaves a half-written entry, and concurrent
workers writing the same key simply race to an identical file. An unreadable entry is a miss.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

__all__ = ["ChatCache", "cache_key"]


def cache_key(
    model: str,
    prompt_version: str,
    messages: Sequence[Mapping[str, str]],
    schema: Mapping[str, Any] | None,
) -> str:
    """sha256 hex digest of the canonical JSON of the four parts (key order and spacing fixed).

    Args:
        model: model name as sent to the endpoint.
        prompt_version: version tag of the prompt template (bump it to invalidate).
        messages: the chat messages (role/content mappings).
        schema: the JSON schema requested, or None.
    """
    payload = {
        "model": model,
        "prompt_version": prompt_version,
        "messages": [dict(m) for m in messages],
        "schema": schema,
    }
    blob = json.dumps(payload, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class ChatCache:
    """Content-addressed response cache in a folder (created on first write).

    Args:
        root: the cache folder (``Config.cache_dir``); entries go under ``root/chat``.
    """

    def __init__(self, root: Path | str) -> None:
        self.root = Path(root) / "chat"

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str) -> str | None:
        """The cached assistant text for ``key``, or None (missing or unreadable entry)."""
        try:
            data = json.loads(self._path(key).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        content = data.get("content") if isinstance(data, dict) else None
        return content if isinstance(content, str) else None

    def put(self, key: str, content: str, meta: Mapping[str, Any] | None = None) -> None:
        """Store ``content`` under ``key`` atomically (best effort: an unwritable folder is
        ignored, caching being an optimisation).

        Args:
            key: from :func:`cache_key`.
            content: the assistant text.
            meta: extra JSON-serialisable fields kept for inspection (model, usage...).
        """
        path = self._path(key)
        record = {"key": key, "content": content, **dict(meta or {})}
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{key[:8]}", suffix=".tmp")
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as fh:
                    json.dump(record, fh, ensure_ascii=False)
                os.replace(tmp, path)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
        except OSError:
            return

    def __len__(self) -> int:
        return sum(1 for _ in self.root.glob("*/*.json")) if self.root.is_dir() else 0
