"""Large regular expressions compiled once per machine, not once per process.

``re.compile`` parses a pattern and turns it into the ``_sre`` engine's code (a list of
integers); :data:`governor.text.regexes.CN_ANCHOR_RE` is ≈ 76,000 characters and ≈ 98,000
code words, and compiling it took ≈ 0.15 s of every cold ``citegov`` command. :func:`compile`
keeps that code in :func:`~governor.core.config.cache_root` ``/regex/`` and hands it back to
``_sre.compile``, the call ``re.compile`` itself ends with, so the pattern object is the same
(``==`` on patterns compares their flags, text and code; a test checks it). The file is keyed
by the pattern, its flags and the Python build (the code format is CPython's own), so another
pattern or interpreter never reads it. Anything unexpected (no cache, an unwritable folder, a
corrupt or foreign file, another Python implementation) falls back to ``re.compile``.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
import tempfile
from array import array
from functools import lru_cache

from governor.core.config import cache_root

_HEADER_MAX = 1 << 16
"""Longest header line read back (group names and counts; a few hundred bytes in practice)."""


def compile(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(pattern, flags)``, reading the engine code from the disk cache when there.

    Returns:
        A pattern equal (``==``) to ``re.compile(pattern, flags)``.
    """
    flags = int(flags)
    try:
        import _sre
        from re import _compiler, _parser  # type: ignore[attr-defined]
    except ImportError:  # not CPython
        return re.compile(pattern, flags)
    path = _path(pattern, flags, f"{_sre.MAGIC}:{_sre.CODESIZE}")
    try:
        cached = _read(path, pattern)
    except (OSError, ValueError, KeyError, TypeError, RuntimeError):
        cached = None  # unreadable, foreign, or code _sre's validator refuses (RuntimeError)
    if cached is not None:
        return cached
    p = _parser.parse(pattern, flags)  # a bad pattern raises re.error here, as re.compile does
    try:
        code = _compiler._code(p, flags)
        groupindex = dict(p.state.groupdict)
        indexgroup: list[str | None] = [None] * p.state.groups
        for name, i in groupindex.items():
            indexgroup[i] = name
        all_flags = flags | p.state.flags
        out: re.Pattern[str] = _sre.compile(
            pattern, all_flags, code, p.state.groups - 1, groupindex, tuple(indexgroup)
        )
    except (AttributeError, TypeError):  # another CPython's internals: no caching
        return re.compile(pattern, flags)
    _write(path, len(pattern), all_flags, p.state.groups - 1, groupindex, indexgroup, code)
    return out


def _path(pattern: str, flags: int, engine: str) -> str:
    digest = hashlib.blake2b(
        "\0".join((sys.version, engine, str(flags), pattern)).encode("utf-8"), digest_size=16
    ).hexdigest()
    return os.path.join(
        _folder(os.environ.get("CITEGOV_CACHE_DIR"), os.environ.get("HOME")), digest
    )


@lru_cache(maxsize=4)
def _folder(_cache_dir: str | None, _home: str | None) -> str:
    """``cache_root() / "regex"`` as a string, computed once per value of the variables
    :func:`~governor.core.config.cache_root` reads (a ``Path`` per pattern cost more than
    reading the file)."""
    return str(cache_root() / "regex")


def _read(path: str, pattern: str) -> re.Pattern[str] | None:
    """The pattern rebuilt from ``path``; None when the file is missing or not this one's."""
    import _sre

    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except FileNotFoundError:
        return None
    head, sep, _ = raw[:_HEADER_MAX].partition(b"\n")
    if not sep:
        return None
    meta = json.loads(head.decode("ascii"))
    code = array("I")
    if code.itemsize != _sre.CODESIZE:
        return None
    code.frombytes(raw[len(head) + 1 :])
    if meta["pattern_chars"] != len(pattern) or meta["code_words"] != len(code):
        return None
    compiled: re.Pattern[str] = _sre.compile(
        pattern,
        meta["flags"],
        code.tolist(),
        meta["groups"],
        meta["groupindex"],
        tuple(meta["indexgroup"]),
    )
    return compiled


def _write(
    path: str,
    pattern_chars: int,
    flags: int,
    groups: int,
    groupindex: dict[str, int],
    indexgroup: list[str | None],
    code: list[int],
) -> None:
    """Store the compiled code (best effort: a full or read-only disk is fine)."""
    import _sre

    try:
        words = array("I", code)
        if words.itemsize != _sre.CODESIZE:
            return
        meta = {
            "flags": flags,
            "groups": groups,
            "groupindex": groupindex,
            "indexgroup": indexgroup,
            "pattern_chars": pattern_chars,
            "code_words": len(words),
        }
        folder = os.path.dirname(path)
        os.makedirs(folder, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=os.path.basename(path), suffix=".tmp")
        with os.fdopen(fd, "wb") as fh:
            fh.write(json.dumps(meta).encode("ascii") + b"\n")
            fh.write(words.tobytes())
        os.replace(tmp, path)
        _prune(folder, keep=os.path.basename(path))
    except (OSError, OverflowError):
        pass


STALE_SECONDS = 30 * 24 * 3600
"""Age (by modification time) past which an entry is removed when another is written. Entries
are written only on a miss, i.e. when a pattern is new or changed (an upgrade); a live pattern's
entry removed with the stale ones is rebuilt once, at its next use (≈ 0.15 s for the largest)."""

MAX_BYTES = 32 << 20
"""Size of the folder past which the oldest entries are removed (down to half of it) when
another is written; this machine's folder held ≈ 0.7 MB in 200 entries (2026-12-03) after
dozens of upgrades, most of them stale."""


def _prune(folder: str, keep: str, now: float | None = None) -> None:
    """Remove the entries of ``folder`` (and writers' leftover ``.tmp`` files) older than
    :data:`STALE_SECONDS`, and, when the folder holds more than :data:`MAX_BYTES`, the oldest
    until it holds half of that; never ``keep``. Called after a write only, so a reading process
    never pays for it; best effort (another process may remove the same file first)."""
    import time

    now = time.time() if now is None else now
    entries: list[tuple[float, int, str]] = []
    with os.scandir(folder) as it:
        for e in it:
            if e.name == keep or not e.is_file(follow_symlinks=False):
                continue
            st = e.stat(follow_symlinks=False)
            entries.append((st.st_mtime, st.st_size, e.path))
    entries.sort()
    total = sum(size for _, size, _ in entries)
    over = total > MAX_BYTES
    for mtime, size, path in entries:  # oldest first
        if now - mtime <= STALE_SECONDS and not (over and total > MAX_BYTES // 2):
            break
        try:
            os.remove(path)
        except FileNotFoundError:
            pass
        total -= size
