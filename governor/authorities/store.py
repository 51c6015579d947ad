"""The authority store: exact lookup of PRC provisions by name, version and pin cite (layer 1).

One :class:`AuthorityStore` holds every instrument of the ``cn_laws`` corpus with all its
versions, articles (条), paragraphs (款) and items (项); names and aliases; the repeal registry;
document numbers (文号) and guiding cases. It satisfies :class:`governor.core.ports.InstrumentNames`.

Loading is lazy: the compressed payload is decoded once (a few hundred ms) and pydantic records
are made with ``model_construct`` per instrument version on first access, so ``article()`` is a
dict lookup after the first touch of that version. BM25 indexes (``bm25s`` over ``jieba``
search-mode tokens) are built per instrument version on first search, and the global index on
the first global search (then cached on disk under ``$CITEGOV_CACHE_DIR`` or
``~/.cache/citegov``, keyed by the store's build id).
"""

from __future__ import annotations

import gc
import json
import logging
import lzma
import math
import os
import re
import tempfile
import threading
from collections.abc import Iterable, Sequence
from datetime import date
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal, NamedTuple

import numpy as np

from governor.authorities.aliases import PRC, norm_name
from governor.authorities.build import FORMAT, build_payload
from governor.authorities.parse import normalise_docno
from governor.core.config import cache_root
from governor.core.errors import StoreError
from governor.core.models import Authority, CitationKind, Level
from governor.core.records import (
    ArticleRecord,
    GuidingCase,
    Instrument,
    InstrumentVersion,
    ParagraphRecord,
    RepealRecord,
    SuccessorLink,
    article_text,
)
from governor.text.numerals import article_key

Status = Literal["in_force", "superseded", "repealed", "unknown"]


class VersionDates(NamedTuple):
    """The dates of one instrument version (:class:`InstrumentVersion` without its articles):
    ``in_force_to`` is exclusive; None = unknown (from) or still in force (to)."""

    version: str
    in_force_from: date | None
    in_force_to: date | None


BUNDLED_NAME = "authorities.json.xz"
_ISSUERS = ("最高人民法院", "最高人民检察院", "最高人民法院、最高人民检察院", "国务院")
"""Issuers a report may write before a 《关于……》 title instead of inside it."""
BUNDLED_BM25 = "bm25_global.tar.xz"
"""The global BM25 index of the bundled build (a tar of ``<build_id>/``), so the first
store-wide search needs no tokenising of the whole corpus (~25 s on 2 cores)."""
"""File name of the bundled build inside the ``governor.data`` package folder."""
SEARCH_MEMO = 4096
"""How many :meth:`AuthorityStore.search` results a store keeps (oldest dropped first)."""
BUNDLED_TOKENS = "bm25_tokens.npz"
"""The ``jieba`` tokens of every article of every version of the bundled build (term ids and
counts per distinct article text), so a per-instrument BM25 index is built from arrays in a
few ms instead of re-tokenising the instrument on each process start (≈ 0.1–0.3 s per
instrument). Written by ``scripts/build_store.py``; ignored for any other build."""

KIND_OF_LEVEL: dict[str, CitationKind] = {
    "宪法": "statute",
    "法律": "statute",
    "司法解释": "judicial_interpretation",
    "行政法规": "regulation",
    "部门规章": "rule",
    "地方性法规": "regulation",
}
"""Citation kind per hierarchy level (SPEC §2 kinds; 案例/其他 have no statute-like kind)."""

_VERSION_NOTE = re.compile(r"[（(][^（）()]*\d{4}[^（）()]*[）)]$")
_HINT = re.compile(r"(?P<y>\d{4})(?:\s*[-年./]\s*(?P<m>\d{1,2})\s*[-月./]\s*(?P<d>\d{1,2}))?")
_ARTICLE_REF = re.compile(
    r"^第?\s*(?P<num>[0-9０-９零〇一二两三四五六七八九十百千]+)\s*条?\s*(?P<sfx>之[一二三四五六七八九十]+)?$"
)
_TOKEN_KEEP = re.compile(r"[0-9A-Za-z\u3400-\u9fff]")
_JIEBA_QUIET: list[bool] = []
_STOPWORDS = frozenset("的 了 是 在 和 与 及 或 或者 等 之 其 对 由 为 将 被 并 而".split())


def _d(s: str | None) -> date | None:
    return date.fromisoformat(s) if s else None


def tokenize(text: str) -> list[str]:
    """BM25 tokens: ``jieba`` search-mode words with punctuation and a few particles dropped."""
    import jieba

    if not _JIEBA_QUIET:
        _jieba_ready()
        _JIEBA_QUIET.append(True)
    return [t for t in jieba.lcut_for_search(text) if t not in _STOPWORDS and _TOKEN_KEEP.search(t)]


def _jieba_ready() -> None:
    """Load jieba's default prefix dictionary from citegov's own cache of it.

    jieba keeps the dictionary as a marshal file in the system temp folder (cleared at
    reboot; ≈ 1.5 s to rebuild) and reads it back in ≈ 0.6 s. citegov keeps the same
    dictionary in :func:`cache_root` as arrays (words joined in one string, frequencies as
    int64; no pickle), read in ≈ 0.25 s, and points jieba's own cache there too. A custom
    jieba dictionary is left to jieba.
    """
    import jieba

    jieba.setLogLevel(logging.WARNING)
    dt = jieba.dt
    if dt.initialized or dt.dictionary != jieba.DEFAULT_DICT:
        return
    root = cache_root()
    path = root / f"jieba-{jieba.__version__}-dict.npz"
    try:
        with np.load(path, allow_pickle=False) as arrays:
            words = bytes(arrays["words"]).decode("utf-8").split("\x1f")
            freq = dict(zip(words, arrays["freq"].tolist(), strict=True))
            total = int(arrays["total"])
        with dt.lock:
            if not dt.initialized:
                dt.FREQ, dt.total, dt.initialized = freq, total, True
        return
    except (OSError, ValueError, KeyError):
        pass
    if dt.tmp_dir is None and _writable(root):
        dt.tmp_dir = str(root)
    dt.initialize()
    if not _writable(root):
        return
    try:
        fd, tmp = tempfile.mkstemp(dir=root, prefix=path.name, suffix=".tmp")
        with os.fdopen(fd, "wb") as fh:
            np.savez(
                fh,
                words=np.frombuffer("\x1f".join(dt.FREQ).encode("utf-8"), dtype=np.uint8),
                freq=np.fromiter(dt.FREQ.values(), dtype=np.int64, count=len(dt.FREQ)),
                total=np.asarray(dt.total, dtype=np.int64),
            )
        os.replace(tmp, path)
    except OSError:
        pass  # caching is an optimisation


@lru_cache(maxsize=4096)
def tokenize_cached(text: str) -> tuple[str, ...]:
    """:func:`tokenize` memoised (queries repeat across citations, rounds and drafts)."""
    return tuple(tokenize(text))


def _tokenize_joined(texts: list[str]) -> list[str]:
    """Worker: tokens of each text joined by U+001F (cheap to pickle back)."""
    return ["\x1f".join(tokenize(t)) for t in texts]


def _tokenize_many(texts: list[str]) -> list[str]:
    """Tokenise many texts in this process.

    No worker pool on purpose: a library must not spawn processes (``spawn`` re-imports the
    caller's ``__main__``; ``fork`` is unsafe once threads run). The global index is built once
    per store build and then read from the on-disk cache.
    """
    return _tokenize_joined(texts)


def normalise_article(article: str) -> str | None:
    """``"577"``, ``"第五百七十七条"``, ``"133之一"``, ``"第一百三十三条之一"`` → article key.

    Returns None when the string is not an article reference.
    """
    s = re.sub(r"[\s\u3000]", "", article)
    m = _ARTICLE_REF.match(s)
    if not m:
        return None
    try:
        return article_key(m["num"], m["sfx"])
    except ValueError:
        return None


class _Bm25:
    """A bm25s index over a fixed list of article records."""

    def __init__(self, retriever: Any, keys: list[str]) -> None:
        self.retriever = retriever
        self.keys = keys
        self.vocab: dict[str, int] = retriever.vocab_dict

    @classmethod
    def build(cls, keys: list[str], texts: Iterable[str]) -> _Bm25:
        """Index ``texts`` (one per key). Token ids are kept as int32 arrays and identical
        texts are tokenised once, so the global index peaks at a few hundred MB, not GBs."""
        import bm25s

        texts = list(texts)
        unique = list(dict.fromkeys(texts))
        vocab: dict[str, int] = {}
        seen: dict[str, np.ndarray] = {}
        for text, joined in zip(unique, _tokenize_many(unique), strict=True):
            toks = joined.split("\x1f") if joined else ["\u2400"]
            seen[text] = np.fromiter(
                (vocab.setdefault(t, len(vocab)) for t in toks), dtype=np.int32, count=len(toks)
            )
        ids = [seen[t] for t in texts]
        del seen, unique
        retriever = bm25s.BM25()
        retriever.index((ids, vocab), show_progress=False)
        return cls(retriever, keys)

    def df(self, token: str) -> int:
        """Documents of the index holding ``token`` (0 when unknown)."""
        i = self.vocab.get(token)
        if i is None:
            return 0
        indptr = self.retriever.scores["indptr"]
        return int(indptr[i + 1] - indptr[i])

    def scores(self, query: str) -> np.ndarray:
        toks = [t for t in tokenize_cached(query) if t in self.vocab]
        if not toks:
            return np.zeros(len(self.keys), dtype=np.float32)
        return np.asarray(self.retriever.get_scores(toks), dtype=np.float32)


class _TokenTable:
    """The bundled article tokens (:data:`BUNDLED_TOKENS`), as arrays.

    ``article_doc[i]`` is the distinct text of the i-th article in store order (instrument,
    version, article, as in the payload); that text's term ids are
    ``terms[indptr[d]:indptr[d + 1]]`` with ``counts`` alongside; ``vocab`` names the ids.
    """

    def __init__(self, arrays: Any) -> None:
        self.article_doc: np.ndarray = arrays["article_doc"]
        self.indptr: np.ndarray = arrays["indptr"]
        self.terms: np.ndarray = arrays["terms"]
        self.counts: np.ndarray = arrays["counts"]
        self.vocab: list[str] = bytes(arrays["vocab"]).decode("utf-8").split("\x1f")

    def doc(self, d: int) -> tuple[np.ndarray, np.ndarray]:
        a, b = int(self.indptr[d]), int(self.indptr[d + 1])
        return self.terms[a:b], self.counts[a:b]


def write_token_table(texts: Sequence[str], path: Path, build_id: str) -> None:
    """Tokenise ``texts`` (every article in store order) and save the table as ``path`` (npz),
    tagged with the store's ``build_id`` (a table of another build is never used).

    Raises:
        OSError: ``path`` cannot be written.
    """
    unique = list(dict.fromkeys(texts))
    where = {t: i for i, t in enumerate(unique)}
    vocab: dict[str, int] = {}
    indptr = [0]
    terms: list[int] = []
    counts: list[int] = []
    for joined in _tokenize_many(unique):
        toks = joined.split("\x1f") if joined else ["\u2400"]
        tally: dict[int, int] = {}
        for t in toks:
            tid = vocab.setdefault(t, len(vocab))
            tally[tid] = tally.get(tid, 0) + 1
        terms.extend(tally)
        counts.extend(tally.values())
        indptr.append(len(terms))
    if any(c > 0xFFFF for c in counts):
        raise ValueError("a term occurs more than 65,535 times in one article")
    part = path.with_name(path.name + ".part")
    with open(part, "wb") as fh:
        np.savez_compressed(
            fh,
            article_doc=np.asarray([where[t] for t in texts], dtype=np.int32),
            indptr=np.asarray(indptr, dtype=np.int32),
            terms=np.asarray(terms, dtype=np.uint16 if len(vocab) <= 0x10000 else np.int32),
            counts=np.asarray(counts, dtype=np.uint16),
            vocab=np.frombuffer("\x1f".join(vocab).encode("utf-8"), dtype=np.uint8),
            build_id=np.asarray(build_id),
        )
    os.replace(part, path)


class _CscBm25:
    """A BM25 index as precomputed term weights in CSC form, scored with numpy alone.

    ``data[indptr[t]:indptr[t + 1]]`` are term ``t``'s weights in documents
    ``docs[indptr[t]:indptr[t + 1]]``: the layout bm25s saves, so a query's scores are the
    sums bm25s's ``get_scores`` returns (each query token counted as often as it occurs).
    Built from token counts (:meth:`from_counts`) or read from a saved bm25s index
    (:meth:`load`), it never imports bm25s (which pulls in scipy: ≈ 0.3 s of a cold start).
    """

    K1 = 1.5
    B = 0.75

    def __init__(
        self,
        keys: list[str],
        vocab: dict[str, int],
        data: np.ndarray,
        docs: np.ndarray,
        indptr: np.ndarray,
    ) -> None:
        self.keys = keys
        self.vocab = vocab
        self._data = data
        self._docs = docs
        self._indptr = indptr

    @classmethod
    def from_counts(
        cls, keys: list[str], docs: Sequence[tuple[np.ndarray, np.ndarray]], vocab: Sequence[str]
    ) -> _CscBm25:
        """Index pre-tokenised texts: ``docs[i]`` = (term ids into ``vocab``, their counts) of
        ``keys[i]``'s text.

        Weights follow bm25s's defaults (``method="lucene"``, ``k1=1.5``, ``b=0.75``,
        float32): idf = ln(1 + (N − df + 0.5) / (df + 0.5)), weight = idf · tf /
        (k1 · (1 − b + b · dl / avgdl) + tf) (Kamphuis et al., ECIR 2020); a test holds the
        scores to bm25s's on the same texts.
        """
        n = len(docs)
        lens = np.fromiter((len(t) for t, _c in docs), dtype=np.int64, count=n)
        terms = np.concatenate([t for t, _c in docs]) if n else np.zeros(0, np.int64)
        tf = (np.concatenate([c for _t, c in docs]) if n else np.zeros(0)).astype(np.float32)
        doc = np.repeat(np.arange(n, dtype=np.int32), lens)
        dl = np.bincount(doc, weights=tf, minlength=n).astype(np.float32)
        used, local = np.unique(terms, return_inverse=True)
        df = np.bincount(local, minlength=len(used)).astype(np.float64)
        idf = np.log(1.0 + (n - df + 0.5) / (df + 0.5)).astype(np.float32)
        norm = cls.K1 * ((1 - cls.B) + cls.B * dl / np.float32(dl.mean() if n else 1.0))
        weight = idf[local] * (tf / (norm[doc] + tf))
        order = np.argsort(local, kind="stable")
        return cls(
            keys,
            {vocab[g]: i for i, g in enumerate(used.tolist())},
            weight[order].astype(np.float32),
            doc[order],
            np.concatenate(([0], np.cumsum(df.astype(np.int64)))),
        )

    @classmethod
    def load(cls, folder: Path, keys: list[str]) -> _CscBm25:
        """Read an index saved by ``bm25s.BM25.save`` (arrays memory-mapped).

        Raises:
            OSError / ValueError / KeyError: missing or unreadable files, a non-lucene index.
        """
        params = json.loads((folder / "params.index.json").read_text(encoding="utf-8"))
        if params.get("method") != "lucene" or params.get("num_docs") != len(keys):
            raise ValueError(f"{folder}: not a lucene BM25 index of {len(keys)} documents")
        vocab = json.loads((folder / "vocab.index.json").read_text(encoding="utf-8"))
        return cls(
            keys,
            vocab,
            np.load(folder / "data.csc.index.npy", mmap_mode="r"),
            np.load(folder / "indices.csc.index.npy", mmap_mode="r"),
            np.load(folder / "indptr.csc.index.npy", mmap_mode="r"),
        )

    def df(self, token: str) -> int:
        """Documents of the index holding ``token`` (0 when unknown)."""
        i = self.vocab.get(token)
        return 0 if i is None else int(self._indptr[i + 1] - self._indptr[i])

    def scores(self, query: str) -> np.ndarray:
        out = np.zeros(len(self.keys), dtype=np.float32)
        vocab, indptr = self.vocab, np.asarray(self._indptr)
        # plain ndarray views of the (possibly memory-mapped) arrays: slicing a memmap builds
        # a memmap object each time, a tenth of a cold verify's scoring
        docs, data = np.asarray(self._docs), np.asarray(self._data)
        for t in tokenize_cached(query):
            i = vocab.get(t)
            if i is not None:
                a, b = int(indptr[i]), int(indptr[i + 1])
                out[docs[a:b]] += data[a:b]
        return out


def _decompressed(raw: bytes, *, use_cache: bool = True) -> bytes:
    """``raw`` decompressed (xz or gzip; plain JSON as is).

    The decompressed bytes are kept in :func:`cache_root` ``/store/<blake2b of raw>.json``
    (best effort): reading them back saves the ≈ 0.2 s of lzma a cold start would pay.

    Raises:
        lzma.LZMAError / OSError: corrupt compressed data.
    """
    if raw[:6] != b"\xfd7zXZ\x00" and raw[:2] != b"\x1f\x8b":
        return raw
    import hashlib

    cached = cache_root() / "store" / f"{hashlib.blake2b(raw, digest_size=16).hexdigest()}.json"
    if use_cache:
        try:
            return cached.read_bytes()
        except OSError:
            pass
    if raw[:6] == b"\xfd7zXZ\x00":
        out = lzma.decompress(raw)
    else:
        import gzip

        out = gzip.decompress(raw)
    if _writable(cached.parent):
        try:
            fd, tmp = tempfile.mkstemp(dir=cached.parent, prefix=cached.name, suffix=".tmp")
            with os.fdopen(fd, "wb") as fh:
                fh.write(out)
            os.replace(tmp, cached)
        except OSError:
            pass  # caching is an optimisation; a full or read-only disk is fine
    return out


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    return os.access(folder, os.W_OK)


class AuthorityStore:
    """Exact and lexical access to the PRC authority corpus (SPEC §6).

    Build with :meth:`build` (from the corpus folders) or :meth:`load` (a saved build; the
    bundled copy by default). Instances are read-only and safe to share between threads.
    """

    def __init__(self, payload: dict[str, Any]) -> None:
        if payload.get("format") != FORMAT:
            raise StoreError(
                f"store format {payload.get('format')!r} is not {FORMAT}: rebuild it with "
                "`citegov corpus build --from DIR`"
            )
        self._payload = payload
        self._raw: dict[str, dict[str, Any]] = {i["title"]: i for i in payload["instruments"]}
        self._aliases: dict[str, str] = payload["aliases"]
        self._short_names: tuple[str, ...] = tuple(payload["short_names"])
        self._absent: dict[str, dict[str, Any]] = {r["title"]: r for r in payload["repeals"]}
        self._docnos: dict[str, str] = payload["document_numbers"]
        self._cases: dict[int, dict[str, Any]] = {c["number"]: c for c in payload["guiding_cases"]}
        self._lock = threading.RLock()
        self._instruments: dict[str, Instrument] = {}
        self._children: dict[str, tuple[str, ...]] | None = None
        self._versions: dict[tuple[str, str], InstrumentVersion] = {}
        self._article_maps: dict[tuple[str, str], dict[str, ArticleRecord]] = {}
        self._bm25: dict[tuple[str, str], _Bm25 | _CscBm25] = {}
        self._tokens: _TokenTable | None = None
        self._tokens_read = False
        self._offsets: dict[tuple[str, str], int] = {}
        self._pos: dict[tuple[str, str], tuple[dict[str, Any], dict[str, int]]] = {}
        self._some_articles: dict[tuple[str, str], dict[str, ArticleRecord]] = {}
        self._search_memo: dict[
            tuple[str, str | None, date | None, int], list[tuple[ArticleRecord, float]]
        ] = {}
        self._global: _Bm25 | _CscBm25 | None = None
        self._global_versions: list[tuple[str, str]] = []
        self._global_owner: np.ndarray = np.zeros(0, dtype=np.int32)
        self._masks: dict[str, np.ndarray] = {}
        self._resolved: dict[str, str | None] = {}
        self._texts: dict[tuple[str, str], tuple[str, ...]] = {}
        self._horizon: date | None = None

    # ------------------------------------------------------------------ construction / io
    @classmethod
    def build(
        cls,
        laws_dir: Path,
        cases_dir: Path | None = None,
        repealed_dir: Path | None = None,
        updates_dir: Path | None = None,
    ) -> AuthorityStore:
        """Parse the corpus folders (see :func:`governor.authorities.build.build_payload`).

        Raises:
            CorpusError: the folder is not a ``cn_laws`` corpus or a file cannot be parsed.
        """
        return cls(
            build_payload(
                Path(laws_dir),
                Path(cases_dir) if cases_dir else None,
                Path(repealed_dir) if repealed_dir else None,
                Path(updates_dir) if updates_dir else None,
            )
        )

    @classmethod
    def load(cls, path: Path | None = None) -> AuthorityStore:
        """Load a saved build (``.json.xz``, ``.json.gz`` or ``.json``); None = the bundled copy.

        Raises:
            StoreError: the file is missing, corrupt or of another format version.
        """
        try:
            if path is None:
                raw = resources.files("governor").joinpath("data", BUNDLED_NAME).read_bytes()
                where = f"bundled governor/data/{BUNDLED_NAME}"
            else:
                raw = Path(path).read_bytes()
                where = str(path)
        except (OSError, ModuleNotFoundError) as exc:
            raise StoreError(
                f"authority store {path or BUNDLED_NAME} cannot be read ({exc}): rebuild it with "
                "`citegov corpus build --from DIR` or reinstall citegov"
            ) from exc
        try:
            try:
                payload = _json_untracked(_decompressed(raw))
            except ValueError:  # a damaged decompressed copy in the cache: decompress again
                payload = _json_untracked(_decompressed(raw, use_cache=False))
        except (lzma.LZMAError, OSError, ValueError) as exc:
            raise StoreError(
                f"authority store {where} is corrupt ({exc}): rebuild it with "
                "`citegov corpus build --from DIR`"
            ) from exc
        if not isinstance(payload, dict):
            raise StoreError(f"authority store {where} is not a store payload: rebuild it")
        return cls(payload)

    def save(self, path: Path) -> None:
        """Write the store atomically (temp file + ``os.replace``); ``.xz`` → lzma, ``.gz`` → gzip.

        Raises:
            StoreError: the target folder cannot be written.
        """
        path = Path(path)
        data = json.dumps(self._payload, ensure_ascii=False, separators=(",", ":")).encode()
        if path.suffix == ".xz":
            data = lzma.compress(data, preset=6)
        elif path.suffix == ".gz":
            import gzip

            data = gzip.compress(data, 9, mtime=0)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
            try:
                umask = os.umask(0)
                os.umask(umask)
                os.fchmod(fd, 0o666 & ~umask)  # mkstemp makes 0600; readable like any output
                with os.fdopen(fd, "wb") as fh:
                    fh.write(data)
                os.replace(tmp, path)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
        except OSError as exc:
            raise StoreError(
                f"cannot write authority store to {path} ({exc}): check the path"
            ) from exc

    @property
    def dense_base(self) -> dict[str, Any] | None:
        """What the shipped dense vectors may still be used for after a rebuild (payload
        ``dense_base``: ``build_id`` of the store they were made from, ``stale`` unit ids
        whose text changed or went since, ``bm25_only`` the number of this store's units
        without a valid vector); None when the payload has no such record."""
        raw = self._payload.get("dense_base")
        return raw if isinstance(raw, dict) else None

    @property
    def build_id(self) -> str:
        """Content hash of the instruments (changes whenever any text or date changes)."""
        return str(self._payload.get("build_id", ""))

    @property
    def horizon(self) -> date:
        """The store's horizon: the date up to which it holds the national law made.

        Law published after this date cannot be in the store, so a citation of an instrument
        the store lacks proves nothing when the report's as-of date (or the instrument) may be
        later (issue 24 item 4). Read from the payload's ``horizon`` (written by the store
        build from the corpus snapshot dates); a payload without one falls back to the newest
        publication date of any stored version (``in_force_from`` for a version without one,
        never a later entry into force: 增值税法 published 2024-12-25, in force 2026-01-01).

        Raises:
            StoreError: the store holds no dated version at all (rebuild it).
        """
        if self._horizon is not None:
            return self._horizon
        stated = _d(self._payload.get("horizon"))
        if stated is None:
            dates = [
                d
                for r in self._raw.values()
                for v in r["versions"]
                if (d := _d(v.get("published")) or _d(v.get("in_force_from"))) is not None
            ]
            if not dates:
                raise StoreError(
                    "the authority store holds no dated version, so its horizon is unknown: "
                    "rebuild it with `citegov corpus build --from DIR`"
                )
            stated = max(dates)
        self._horizon = stated
        return stated

    # ------------------------------------------------------------------ names / hierarchy
    def resolve_instrument(self, name: str) -> str | None:
        """Canonical title of an instrument name as written, or None.

        Accepts the full title, with or without ``中华人民共和国`` and 《》/〈〉, short names and
        aliases (民诉法, 合同编通则解释, 民法典合同编 …), repealed names (合同法 →
        ``中华人民共和国合同法``) and a trailing version note (``公司法（2018年修正）``).
        Ambiguous short names resolve to None (see :mod:`governor.authorities.aliases`).
        """
        try:
            return self._resolved[name]
        except KeyError:
            pass
        if len(self._resolved) > 100_000:
            self._resolved.clear()
        found = self._resolve(name)
        self._resolved[name] = found
        return found

    def _resolve(self, name: str) -> str | None:
        key = norm_name(name)
        if not key:
            return None
        for cand in self._name_candidates(key):
            title = self._aliases.get(cand)
            if title is not None:
                return title
        stripped = _VERSION_NOTE.sub("", norm_name(name).replace("(", "（").replace(")", "）"))
        if stripped != key.replace("(", "（").replace(")", "）"):
            return self._resolve(stripped)
        return None

    @staticmethod
    def _name_candidates(key: str) -> list[str]:
        out = [key]
        if key.startswith(PRC) and len(key) > len(PRC):
            out.append(key[len(PRC) :])
        else:
            out.append(PRC + key)
        if key.startswith("关于"):
            # 最高人民法院《关于审理…的解释》: the issuer written outside the title
            out += [issuer + key for issuer in _ISSUERS]
        return out

    def known_short_names(self) -> Sequence[str]:
        """Every alias and title (without 《》) usable bare before 第N条, longest first.

        Titles of typical cases (level 案例, sentence-like) resolve but are not listed.
        """
        return self._short_names

    def kind_of(self, title: str) -> CitationKind | None:
        """Citation kind of a title (or alias): 宪法/法律 → statute, 司法解释 →
        judicial_interpretation, 行政法规 → regulation, 部门规章 → rule; None for 案例/其他
        and unknown names."""
        level = self.level_of(title)
        return KIND_OF_LEVEL.get(level) if level else None

    def level_of(self, title: str) -> Level | None:
        """Hierarchy level of a title or alias (repealed absent instruments included)."""
        t = self._title(title)
        if t is None:
            return None
        if t in self._raw:
            level: Level = self._raw[t]["level"]
            return level
        absent_level: Level = self._absent[t]["level"]
        return absent_level

    def children(self, title: str) -> tuple[str, ...]:
        """Titles of the instruments that interpret or implement ``title`` (their
        ``parent_law``): its 司法解释 and 实施条例/细则, sorted; empty for unknown titles."""
        t = self._title(title)
        if t is None:
            return ()
        if self._children is None:
            kids: dict[str, list[str]] = {}
            for name, raw in self._raw.items():
                if raw.get("parent_law"):
                    kids.setdefault(raw["parent_law"], []).append(name)
            self._children = {k: tuple(sorted(v)) for k, v in kids.items()}
        return self._children.get(t, ())

    def enacted(self, title: str) -> date | None:
        """Earliest date in the instrument's metadata (its adoption, 通过), across all stored
        versions; None when unknown. Earlier versions than the oldest stored one existed when
        this date precedes that version's entry into force."""
        t = self._title(title)
        if t is None or t not in self._raw:
            return None
        return _d(self._raw[t].get("enacted"))

    def titles(self) -> tuple[str, ...]:
        """All canonical titles in the corpus (repealed absent instruments excluded), sorted."""
        return tuple(self._raw)

    def _title(self, title: str) -> str | None:
        if title in self._raw or title in self._absent:
            return title
        return self.resolve_instrument(title)

    def has_instrument(self, title: str) -> bool:
        """Whether ``instrument(title)`` is not None, without building its article records
        (a check on every citation; 民法典 alone has 1,260 articles per version)."""
        t = self._title(title)
        return t is not None and t in self._raw

    def has_articles(self, title: str) -> bool:
        """Whether the instrument is in the corpus with at least one article in some version
        (``any(v.articles for v in instrument(title).versions)``, without building them)."""
        t = self._title(title)
        return (
            t is not None
            and t in self._raw
            and any(v["articles"] for v in self._raw[t]["versions"])
        )

    def article_count(self, title: str, *, as_of: date | None = None) -> int:
        """Number of articles of ``title``'s version selected by ``as_of`` (the version rule
        of :meth:`version`; latest when None), read from the payload without building
        records; 0 for an unknown title or a version without articles."""
        t = self._title(title)
        if t is None or t not in self._raw:
            return 0
        v = self._select_version(t, as_of, None)
        return len(v["articles"]) if v is not None else 0

    def version_count(self, title: str) -> int:
        """Number of versions of the instrument in the corpus (0 when it is not there)."""
        t = self._title(title)
        return len(self._raw[t]["versions"]) if t is not None and t in self._raw else 0

    def parent_law(self, title: str) -> str | None:
        """``instrument(title).parent_law`` (None when not in the corpus or no parent)."""
        t = self._title(title)
        return self._raw[t]["parent_law"] if t is not None and t in self._raw else None

    def instrument(self, title: str) -> Instrument | None:
        """The instrument with all its versions and articles (None if not in the corpus)."""
        t = self._title(title)
        if t is None or t not in self._raw:
            return None
        with self._lock:
            inst = self._instruments.get(t)
            if inst is None:
                raw = self._raw[t]
                versions = tuple(self._version_record(t, v["version"]) for v in raw["versions"])
                inst = Instrument.model_construct(
                    title=t,
                    level=raw["level"],
                    aliases=tuple(raw["aliases"]),
                    versions=versions,
                    document_numbers=tuple(raw["document_numbers"]),
                    repealed_on=_d(raw["repealed_on"]),
                    successor=raw["successor"],
                    parent_law=raw["parent_law"],
                )
                self._instruments[t] = inst
            return inst

    def repeal_record(self, name: str) -> RepealRecord | None:
        """Repeal record of a repealed instrument (in the corpus or not), else None.

        Only instruments with a known repeal date have a record; an instrument the upstream
        flags as expired without a known date reports status ``repealed`` through
        :meth:`authority` but has no record.
        """
        t = self._title(name)
        if t is None:
            return None
        if t in self._absent:
            r = self._absent[t]
            return RepealRecord.model_construct(
                title=t,
                aliases=tuple(r["aliases"]),
                repealed_on=date.fromisoformat(r["repealed_on"]),
                successor=r["successor"],
                level=r["level"],
                source=r["source"],
            )
        raw = self._raw.get(t)
        if raw is None or not raw["repealed_on"]:
            return None
        return RepealRecord.model_construct(
            title=t,
            aliases=tuple(raw["aliases"]),
            repealed_on=date.fromisoformat(raw["repealed_on"]),
            successor=raw["successor"],
            level=raw["level"],
            source=raw["repeal_source"] or "",
        )

    def successor_of(self, title: str, article: str) -> SuccessorLink | None:
        """The successor provision of an article of a repealed instrument, found from the
        texts at build time (:mod:`governor.authorities.successors`), or None.

        Args:
            title: the repealed instrument (title or alias); ``article`` a key or label.

        Returns:
            The link: the successor article (latest version of the successor instrument),
            ``confidence`` and the measures behind it (cosine ``similarity``, ``containment``
            of the old text's bigrams in the successor), each in [0, 1].
        """
        t = self._title(title)
        key = normalise_article(article)
        if t is None or t not in self._raw or key is None:
            return None
        link = (self._raw[t].get("successor_articles") or {}).get(key)
        if link is None:
            return None
        succ_title, succ_art, conf, sim, cont = link
        rec = self.article(succ_title, succ_art)
        if rec is None:
            return None
        return SuccessorLink.model_construct(
            instrument=t,
            article=key,
            successor=rec,
            confidence=conf,
            similarity=sim,
            containment=cont,
        )

    def repealed_titles(self) -> tuple[str, ...]:
        """Titles of every instrument with a repeal record, sorted."""
        inside = [t for t, r in self._raw.items() if r["repealed_on"]]
        return tuple(sorted([*self._absent, *inside]))

    # ------------------------------------------------------------------ versions
    def _version_record(self, title: str, vid: str) -> InstrumentVersion:
        key = (title, vid)
        rec = self._versions.get(key)
        if rec is not None:
            return rec
        raw = next(v for v in self._raw[title]["versions"] if v["version"] == vid)
        arts = tuple(self._article_map(title, vid).values())
        rec = InstrumentVersion.model_construct(
            instrument=title,
            version=vid,
            published=_d(raw["published"]),
            in_force_from=_d(raw["in_force_from"]),
            in_force_to=_d(raw["in_force_to"]),
            source_path=raw["source_path"],
            expired_flag=raw["expired_flag"],
            articles=arts,
            body=raw["body"],
        )
        self._versions[key] = rec
        return rec

    def text_in_force_from(self, title: str, version: str, article: str) -> date | None:
        """The date from which the stored text of ``article`` is in force when that is later
        than its version's own date (an undated consolidated file that includes a later
        amendment, see :mod:`governor.authorities.amendments`); None otherwise or unknown."""
        raw = self._raw.get(title)
        if raw is None:
            return None
        for v in raw["versions"]:
            if v["version"] == version:
                return _d((v.get("text_from") or {}).get(article))
        return None

    def _article_map(self, title: str, vid: str) -> dict[str, ArticleRecord]:
        key = (title, vid)
        amap = self._article_maps.get(key)
        if amap is not None:
            return amap
        with self._lock:
            amap = self._article_maps.get(key)
            if amap is not None:
                return amap
            raw, pos = self._positions(title, vid)
            some = self._some_articles.pop(key, {})
            amap = {
                akey: some.get(akey) or self._make_record(title, vid, raw, i)
                for akey, i in pos.items()
            }
            self._article_maps[key] = amap
            return amap

    def _positions(self, title: str, vid: str) -> tuple[dict[str, Any], dict[str, int]]:
        """A version's raw payload and, per article number, the position of the record the
        store keeps for it (the last of duplicates; numbers in first-seen order)."""
        key = (title, vid)
        hit = self._pos.get(key)
        if hit is None:
            raw = next(v for v in self._raw[title]["versions"] if v["version"] == vid)
            hit = (raw, {akey: i for i, (akey, _p, _paras) in enumerate(raw["articles"])})
            self._pos[key] = hit
        return hit

    @staticmethod
    def _make_record(title: str, vid: str, raw: dict[str, Any], i: int) -> ArticleRecord:
        akey, pidx, paras = raw["articles"][i]
        return ArticleRecord.model_construct(
            instrument=title,
            version=vid,
            article=akey,
            ordinal=i,
            path=tuple(raw["paths"][pidx]),
            paragraphs=tuple(
                ParagraphRecord.model_construct(text=t, items=tuple(items)) for t, items in paras
            ),
        )

    def _article_one(self, title: str, vid: str, akey: str) -> ArticleRecord | None:
        """One article of a version, without materialising the others (a search or a pin
        cite touches a few articles of a long code: 民法典 has 1,260)."""
        key = (title, vid)
        amap = self._article_maps.get(key)
        if amap is not None:
            return amap.get(akey)
        raw, pos = self._positions(title, vid)
        i = pos.get(akey)
        if i is None:
            return None
        with self._lock:
            amap = self._article_maps.get(key)
            if amap is not None:
                return amap.get(akey)
            some = self._some_articles.setdefault(key, {})
            rec = some.get(akey)
            if rec is None:
                rec = some[akey] = self._make_record(title, vid, raw, i)
            return rec

    def _selected(
        self, title: str, as_of: date | None, version_hint: str | None
    ) -> tuple[str, dict[str, Any]] | None:
        """``(canonical title, raw version)`` that :meth:`version` selects, or None."""
        t = self._title(title)
        if t is None or t not in self._raw:
            return None
        v = self._select_version(t, as_of, version_hint)
        return None if v is None else (t, v)

    def _select_version(
        self, title: str, as_of: date | None, version_hint: str | None
    ) -> dict[str, Any] | None:
        raw = self._raw.get(title)
        if raw is None or not raw["versions"]:
            return None
        versions: list[dict[str, Any]] = raw["versions"]
        if version_hint:
            found = self._by_hint(versions, version_hint)
            if found is not None:
                return found
        if as_of is None:
            return versions[-1]
        iso = as_of.isoformat()
        best = None
        for v in versions:
            start = v["in_force_from"] or v["published"]
            if start is None or start <= iso:
                best = v  # the last version that started on or before as_of
        return best if best is not None else versions[0]

    @staticmethod
    def _by_hint(versions: list[dict[str, Any]], hint: str) -> dict[str, Any] | None:
        m = _HINT.search(hint)
        if not m:
            return None
        year = m["y"]
        if m["m"] and m["d"]:
            iso = f"{year}-{int(m['m']):02d}-{int(m['d']):02d}"
            for v in versions:
                if iso in (v["version"], v["published"], v["in_force_from"]):
                    return v
        same = [v for v in versions if (v["published"] or "").startswith(year)]
        if same:
            return same[-1]
        same = [v for v in versions if (v["in_force_from"] or "").startswith(year)]
        return same[-1] if same else None

    def version(
        self, title: str, *, as_of: date | None = None, version_hint: str | None = None
    ) -> InstrumentVersion | None:
        """Select one version of an instrument.

        ``version_hint`` (``"2018年修正"``, ``"2018"``, ``"2018-10-26"``) selects the version
        published (else put in force) on that date/year when one exists; otherwise the version
        in force on ``as_of`` (``in_force_from <= as_of < in_force_to``); ``as_of`` None → the
        latest version. If ``as_of`` precedes every version, the earliest version is returned
        (the caller labels it). None if the title is unknown or has no version in the corpus.
        """
        sel = self._selected(title, as_of, version_hint)
        return None if sel is None else self._version_record(sel[0], sel[1]["version"])

    def in_force_span(self, title: str) -> tuple[date | None, date | None] | None:
        """``(from, to)``: the days an instrument was in force, ``to`` exclusive, read as
        :meth:`in_force_on` reads them (its earliest version's entry into force, else its
        publication; its repeal date). None for an unknown bound; None altogether for a title
        the store has no version of."""
        t = self._title(title)
        raw = self._raw.get(t) if t else None
        if raw is None or not raw["versions"]:
            return None
        first = raw["versions"][0]
        return _d(first["in_force_from"] or first["published"]), _d(raw["repealed_on"])

    def in_force_on(self, title: str, as_of: date) -> tuple[str, InstrumentVersion | None]:
        """``(status, version)`` of an instrument on ``as_of`` (issue 24 item 7).

        ``not_yet_in_force`` with None before its earliest version took effect; ``repealed``
        with its last version (the repealed text, read with ``repealed_on``) on or after its
        repeal date; otherwise ``in_force`` with the version in force that day. ``unknown``
        with None for a title the store has no version of.
        """
        t = self._title(title)
        raw = self._raw.get(t) if t else None
        if raw is None or not raw["versions"]:
            return "unknown", None
        first = raw["versions"][0]
        start = first["in_force_from"] or first["published"]
        if start and as_of.isoformat() < start:
            return "not_yet_in_force", None
        if raw["repealed_on"] and as_of.isoformat() >= raw["repealed_on"]:
            return "repealed", self._version_record(raw["title"], raw["versions"][-1]["version"])
        return "in_force", self.version(raw["title"], as_of=as_of)

    # ------------------------------------------------------------------ provisions
    def article(
        self,
        title: str,
        article: str,
        *,
        as_of: date | None = None,
        version_hint: str | None = None,
    ) -> ArticleRecord | None:
        """One article of the selected version (see :meth:`version`); O(1) after first touch.

        ``article`` is a key (``"577"``, ``"133之一"``) or a label (``"第五百七十七条"``).
        """
        t = self._title(title)
        if t is None or t not in self._raw:
            return None
        key = normalise_article(article)
        if key is None:
            return None
        v = self._select_version(t, as_of, version_hint)
        if v is None:
            return None
        return self._article_one(t, v["version"], key)

    def version_dates(
        self, title: str, *, as_of: date | None = None, version_hint: str | None = None
    ) -> VersionDates | None:
        """``(version, in_force_from, in_force_to)`` of the version :meth:`version` selects,
        without building its article records; None when :meth:`version` returns None."""
        sel = self._selected(title, as_of, version_hint)
        if sel is None:
            return None
        v = sel[1]
        return VersionDates(v["version"], _d(v["in_force_from"]), _d(v["in_force_to"]))

    def article_texts(
        self, title: str, *, as_of: date | None = None, version_hint: str | None = None
    ) -> tuple[str, tuple[str, ...]] | None:
        """``(version, texts)``: the version :meth:`articles` selects and the
        :attr:`ArticleRecord.text` of each of its articles, in the same order, without
        building the records (an IDF table needs only the texts); None when unknown."""
        sel = self._selected(title, as_of, version_hint)
        if sel is None:
            return None
        t, v = sel
        key = (t, v["version"])
        texts = self._texts.get(key)
        if texts is None:
            raw, pos = self._positions(*key)
            texts = tuple(article_text(raw["articles"][i][2]) for i in pos.values())
            self._texts[key] = texts
        return v["version"], texts

    def version_texts(self, title: str) -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
        """Every stored version of ``title`` as ``(version, ((article, text), …))``, versions
        in stored order, articles as :meth:`articles` orders them, each text its
        :attr:`ArticleRecord.text`, without building the records (a whole-instrument scan
        needs only the texts; 刑法's 13 versions hold ~6,000 articles); empty when unknown."""
        t = self._title(title)
        if t is None or t not in self._raw:
            return ()
        out = []
        for v in self._raw[t]["versions"]:
            raw, pos = self._positions(t, v["version"])
            out.append(
                (
                    v["version"],
                    tuple((akey, article_text(raw["articles"][i][2])) for akey, i in pos.items()),
                )
            )
        return tuple(out)

    def articles(
        self, title: str, *, as_of: date | None = None, version_hint: str | None = None
    ) -> tuple[ArticleRecord, ...]:
        """All articles of the selected version, in order (empty when unknown or no articles)."""
        sel = self._selected(title, as_of, version_hint)
        if sel is None:
            return ()
        t, v = sel
        return tuple(self._article_map(t, v["version"]).values())

    def get(self, key: str) -> ArticleRecord | None:
        """Article by :attr:`ArticleRecord.key` (``"<instrument>@<version>#<article>"``)."""
        head, sep, art = key.rpartition("#")
        title, sep2, vid = head.rpartition("@")
        if not sep or not sep2 or title not in self._raw:
            return None
        if not any(v["version"] == vid for v in self._raw[title]["versions"]):
            return None
        return self._article_one(title, vid, art)

    def status_of(self, title: str, version: str | None = None) -> Status:
        """``in_force`` | ``superseded`` | ``repealed`` | ``unknown`` of a title (and version).

        ``repealed``: a repeal date on or before today, or the upstream expired flag on the
        newest version; ``superseded``: an older version (it has an ``in_force_to``).
        """
        t = self._title(title)
        if t is None:
            return "unknown"
        if t in self._absent:
            return "repealed"
        raw = self._raw[t]
        if raw["repealed_on"] and raw["repealed_on"] <= date.today().isoformat():
            return "repealed"
        if raw["expired"] and not raw["repealed_on"]:
            return "repealed"
        if version is not None:
            v = next((v for v in raw["versions"] if v["version"] == version), None)
            if v is not None and v["in_force_to"]:
                return "superseded"
        return "in_force"

    def authority(
        self, record: ArticleRecord, paragraph: int | None = None, item: int | None = None
    ) -> Authority | None:
        """The :class:`Authority` for an article, or one of its 款/项.

        ``Authority.text`` is the cited 款 (with its 项) or 项 text; the whole article when both
        are None. An item without a paragraph refers to the first 款 that has items. Returns
        None when that 款/项 does not exist.
        """
        paras = record.paragraphs
        text = record.text
        para: ParagraphRecord | None = None
        if paragraph is not None:
            if not 1 <= paragraph <= len(paras):
                return None
            para = paras[paragraph - 1]
            text = para.full_text
        elif item is not None:
            para = next((p for p in paras if p.items), None)
        if item is not None:
            if para is None or not 1 <= item <= len(para.items):
                return None
            text = para.items[item - 1]
        raw = self._raw.get(record.instrument)
        if raw is None:
            return None
        v = next((v for v in raw["versions"] if v["version"] == record.version), None)
        if v is None:
            return None
        aid = record.key + (f"/{paragraph}" if paragraph else "") + (f"/{item}" if item else "")
        return Authority.model_construct(
            id=aid,
            instrument=record.instrument,
            level=raw["level"],
            version=record.version,
            in_force_from=_d(v["in_force_from"]),
            in_force_to=_d(v["in_force_to"]) or _d(raw["repealed_on"]),
            status=self.status_of(record.instrument, record.version),
            article=record.article,
            paragraph=paragraph,
            item=item,
            path=record.path,
            text=text,
            successor=raw["successor"],
            source=v["source_path"],
        )

    # ------------------------------------------------------------------ cases / numbers
    def guiding_case(self, number: int) -> GuidingCase | None:
        """Guiding case 指导案例N号 from ``cn_cases`` (None if not in the extract)."""
        c = self._cases.get(int(number))
        if c is None:
            return None
        return GuidingCase.model_construct(
            number=c["number"],
            title=c["title"],
            published=_d(c["published"]),
            gist=c["gist"],
            keywords=tuple(c["keywords"]),
            related_laws=tuple(c["related_laws"]),
            case_numbers=tuple(c["case_numbers"]),
            no_longer_referenced=c["no_longer_referenced"],
        )

    def guiding_case_numbers(self) -> tuple[int, ...]:
        """Numbers of the guiding cases in the store, ascending."""
        return tuple(sorted(self._cases))

    def title_for_document_number(self, docno: str) -> str | None:
        """Title of the instrument a 文号 belongs to (brackets 〔〕[]（）［］ normalised)."""
        return self._docnos.get(normalise_docno(docno))

    # ------------------------------------------------------------------ retrieval
    def _version_index(self, title: str, vid: str) -> _Bm25 | _CscBm25:
        key = (title, vid)
        idx = self._bm25.get(key)
        if idx is None:
            keys = list(self._positions(title, vid)[1])
            with self._lock:
                idx = self._bm25.get(key)
                if idx is None:
                    idx = self._index_from_tokens(title, vid, keys)
                    if idx is None:
                        amap = self._article_map(title, vid)
                        idx = _Bm25.build(keys, [amap[k].text for k in keys])
                    self._bm25[key] = idx
        return idx

    def _index_from_tokens(self, title: str, vid: str, keys: list[str]) -> _CscBm25 | None:
        """The version's index from the bundled token table; None when there is none."""
        table = self._token_table()
        if table is None:
            return None
        last = self._positions(title, vid)[1]
        start = self._offsets[(title, vid)]
        docs = [table.doc(int(table.article_doc[start + last[k]])) for k in keys]
        return _CscBm25.from_counts(keys, docs, table.vocab)

    def _token_table(self) -> _TokenTable | None:
        """Load :data:`BUNDLED_TOKENS` once, if it was written for this build."""
        if self._tokens_read:
            return self._tokens
        table: _TokenTable | None = None
        res = resources.files("governor").joinpath("data", BUNDLED_TOKENS)
        try:
            if self.build_id and res.is_file():
                with res.open("rb") as fh, np.load(fh) as arrays:
                    if str(arrays["build_id"]) == self.build_id:
                        table = _TokenTable(arrays)
        except (OSError, ValueError, KeyError):
            table = None
        if table is not None:
            n = 0
            for t, raw in self._raw.items():
                for v in raw["versions"]:
                    self._offsets[(t, v["version"])] = n
                    n += len(v["articles"])
            if n != len(table.article_doc):
                table = None
        self._tokens, self._tokens_read = table, True
        return table

    def write_token_table(self, path: Path) -> None:
        """Tokenise every article of every version (store order) into ``path`` (npz), the
        table :meth:`search` builds per-instrument indexes from (``scripts/build_store.py``).
        """
        texts = [
            a.text
            for t, raw in self._raw.items()
            for v in raw["versions"]
            for a in self._ordered_articles(t, v)
        ]
        write_token_table(texts, path, self.build_id)
        self._tokens, self._tokens_read = None, False

    def _ordered_articles(self, title: str, v: dict[str, Any]) -> list[ArticleRecord]:
        """Every article of version ``v`` in payload order, duplicates of a number included
        (each with the record the article map keeps for that number)."""
        amap = self._article_map(title, v["version"])
        return [amap[akey] for akey, _p, _paras in v["articles"]]

    def search(
        self,
        query: str,
        *,
        instrument: str | None = None,
        as_of: date | None = None,
        k: int = 10,
    ) -> list[tuple[ArticleRecord, float]]:
        """BM25 (jieba tokens, ``bm25s``) search over articles; raw scores, best first.

        With ``instrument``: over the version selected by ``as_of`` (latest when None). Without:
        over every instrument's version in force on ``as_of`` (latest versions when None).
        Articles scoring 0 are not returned. The first global search tokenises the whole
        corpus (tens of seconds) unless the on-disk cache for this build exists. The last
        :data:`SEARCH_MEMO` results are kept (the store is read-only; repairs, judges and
        later rounds repeat the same searches); each call gets its own list.
        """
        if k <= 0 or not query.strip():
            return []
        memo_key = (query, instrument, as_of, k)
        hit = self._search_memo.get(memo_key)
        if hit is None:
            hit = self._search(query, instrument=instrument, as_of=as_of, k=k)
            with self._lock:
                if len(self._search_memo) >= SEARCH_MEMO:
                    self._search_memo.pop(next(iter(self._search_memo)))
                self._search_memo[memo_key] = hit
        return list(hit)

    def _search(
        self, query: str, *, instrument: str | None, as_of: date | None, k: int
    ) -> list[tuple[ArticleRecord, float]]:
        if instrument is not None:
            t = self._title(instrument)
            if t is None or t not in self._raw:
                return []
            v = self._select_version(t, as_of, None)
            if v is None or not v["articles"]:
                return []
            idx = self._version_index(t, v["version"])
            scores = idx.scores(query)
            vid = v["version"]
            hits = [
                (self._article_one(t, vid, idx.keys[i]), float(scores[i])) for i in _top(scores, k)
            ]
            return [(rec, score) for rec, score in hits if rec is not None]
        gidx = self._global_index()
        scores = np.where(self._global_mask(as_of), gidx.scores(query), 0.0)
        out = []
        for i in _top(scores, k):
            rec = self.get(gidx.keys[i])
            if rec is not None:
                out.append((rec, float(scores[i])))
        return out

    def global_scores(
        self, query: str, *, as_of: date | None = None
    ) -> tuple[Sequence[str], np.ndarray, np.ndarray]:
        """Raw BM25 scores of ``query`` for every article of the global index, as arrays.

        Returns:
            ``(keys, scores, searchable)``: the global index's article keys
            (``title@version#article``, every version, store order; the index's own list, do
            not modify it), a float array of each article's BM25 score (0 where not
            searchable), and the boolean mask of articles searchable on ``as_of`` (the rule of
            :meth:`search` without ``instrument``). Used by the linear fusion of
            :mod:`governor.retrieval.hybrid`, which needs scores for more articles than a
            top-k list holds.
        """
        gidx = self._global_index()
        mask = self._global_mask(as_of)
        if not query.strip():
            return gidx.keys, np.zeros(len(gidx.keys)), mask
        return gidx.keys, np.where(mask, gidx.scores(query), 0.0), mask

    def word_weights(
        self, text: str, instrument: str | None = None, *, as_of: date | None = None
    ) -> dict[str, float]:
        """How distinctive each BM25 word (``jieba`` token, :func:`tokenize`) of ``text`` is:
        the smaller of its IDF over the whole store (the global BM25 index) and over
        ``instrument``'s articles (the version on ``as_of``), so a word every provision of
        that instrument uses (保险人 in the 保险法) weighs little even though it is rare in the
        store. IDF is BM25's (lucene): ln(1 + (N − df + 0.5) / (df + 0.5)) ≥ 0.

        Returns:
            token → weight; empty when ``text`` has no tokens.
        """
        toks = dict.fromkeys(tokenize_cached(text))
        if not toks:
            return {}
        gidx = self._global_index()
        idxs: list[_Bm25 | _CscBm25] = [gidx]
        t = self._title(instrument) if instrument else None
        if t is not None and t in self._raw:
            v = self._select_version(t, as_of, None)
            if v is not None and v["articles"]:
                idxs.append(self._version_index(t, v["version"]))

        def idf(idx: _Bm25 | _CscBm25, tok: str) -> float:
            n, df = len(idx.keys), idx.df(tok)
            return math.log(1.0 + (n - df + 0.5) / (df + 0.5))

        return {tok: min(idf(i, tok) for i in idxs) for tok in toks}

    def build_global_index(self) -> None:
        """Build (or load from the disk cache) the global BM25 index now, e.g. right after
        ``citegov corpus build``, so the first global :meth:`search` is fast."""
        self._global_index()

    def _global_mask(self, as_of: date | None) -> np.ndarray:
        """Documents searchable globally on ``as_of``: the version in force then of every
        instrument that existed and was not repealed (today's law when ``as_of`` is None)."""
        key = as_of.isoformat() if as_of else ""
        mask = self._masks.get(key)
        if mask is not None:
            return mask
        day = key or date.today().isoformat()
        allowed: set[tuple[str, str]] = set()
        for t, raw in self._raw.items():
            if raw["repealed_on"] and raw["repealed_on"] <= day:
                continue
            if raw["expired"] and not raw["repealed_on"] and not as_of:
                continue
            v = self._select_version(t, as_of, None)
            if v is None or (as_of and (v["in_force_from"] or v["published"] or "") > day):
                continue
            allowed.add((t, v["version"]))
        versions = self._global_versions
        kept = np.fromiter((tv in allowed for tv in versions), dtype=bool, count=len(versions))
        mask = kept[self._global_owner]
        self._masks[key] = mask
        return mask

    def _global_index(self) -> _Bm25 | _CscBm25:
        if self._global is not None:
            return self._global
        with self._lock:
            if self._global is not None:
                return self._global
            keys, owners = self._global_keys()
            idx: _Bm25 | _CscBm25 | None = self._load_cached_global(keys)
            if idx is None:
                built = _Bm25.build(keys, self._global_texts())
                self._save_cached_global(built)
                idx = built
            self._global_versions, self._global_owner = owners
            self._global = idx
            return idx

    def _global_keys(self) -> tuple[list[str], tuple[list[tuple[str, str]], np.ndarray]]:
        """Keys ``title@version#article`` of every article of every version (store order),
        and which version each belongs to: the (title, version) pairs in store order and,
        per article, the index of its pair (so a mask over versions is one gather)."""
        keys: list[str] = []
        versions: list[tuple[str, str]] = []
        sizes: list[int] = []
        for t, raw in self._raw.items():
            for v in raw["versions"]:
                head = f"{t}@{v['version']}#"
                keys.extend([head + a[0] for a in v["articles"]])
                versions.append((t, v["version"]))
                sizes.append(len(v["articles"]))
        owner = np.repeat(np.arange(len(versions), dtype=np.int32), sizes)
        return keys, (versions, owner)

    def _global_texts(self) -> Iterable[str]:
        """The texts the global index holds, in :meth:`_global_keys` order."""
        return (
            "\n".join(p[0] + "".join(p[1]) for p in paras)
            for raw in self._raw.values()
            for v in raw["versions"]
            for _a, _p, paras in v["articles"]
        )

    def _cache_dir(self) -> Path | None:
        if not self.build_id:
            return None
        return cache_root() / "bm25" / self.build_id

    def _load_cached_global(self, keys: list[str]) -> _CscBm25 | None:
        d = self._cache_dir()
        if d is None:
            return None
        if not (d / "keys.json").is_file():
            unpacked = self._unpack_bundled_global(d)
            if unpacked is None:
                return None
            d = unpacked
        try:
            cached = json.loads((d / "keys.json").read_text(encoding="utf-8"))
            if cached != keys:
                return None
            return _CscBm25.load(d, keys)
        except (OSError, ValueError, KeyError):
            return None

    def _unpack_bundled_global(self, d: Path) -> Path | None:
        """Unpack the bundled global index into the cache dir ``d`` when it was built for
        this store (same ``build_id``); returns where it now is, None when not applicable."""
        res = resources.files("governor").joinpath("data", BUNDLED_BM25)
        if not res.is_file():
            return None
        import io
        import tarfile

        try:
            with tarfile.open(fileobj=io.BytesIO(res.read_bytes()), mode="r:xz") as tf:
                members = tf.getmembers()
                if not members or members[0].name.split("/")[0] != self.build_id:
                    return None
                parent = d.parent if _writable(d.parent) else Path(tempfile.mkdtemp())
                tmp = Path(tempfile.mkdtemp(prefix="bm25-unpack-", dir=parent))
                tf.extractall(tmp, filter="data")
            src = tmp / self.build_id
            if parent == d.parent and not d.exists():
                os.replace(src, d)
                tmp.rmdir()
                return d
            return src
        except (OSError, tarfile.TarError, lzma.LZMAError):
            return None

    def write_bundled_global(self, path: Path) -> None:
        """Build the global BM25 index and write it as ``path`` (tar.xz of ``<build_id>/``),
        for shipping beside the bundled store (``scripts/build_store.py``)."""
        import tarfile

        idx = _Bm25.build(self._global_keys()[0], self._global_texts())
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp) / self.build_id
            idx.retriever.save(str(root))
            (root / "keys.json").write_text(
                json.dumps(idx.keys, ensure_ascii=False), encoding="utf-8"
            )
            part = path.with_suffix(".part")

            def same_bytes(info: tarfile.TarInfo) -> tarfile.TarInfo:
                # no build-time metadata in the archive: the same store gives the same bytes
                info.mtime, info.uid, info.gid, info.uname, info.gname = 0, 0, 0, "", ""
                info.mode = 0o755 if info.isdir() else 0o644
                return info

            with lzma.open(part, "wb", preset=6) as xz, tarfile.open(fileobj=xz, mode="w") as tf:
                tf.add(root, arcname=self.build_id, filter=same_bytes)  # members sorted by name
            os.replace(part, path)

    def _save_cached_global(self, idx: _Bm25) -> None:
        d = self._cache_dir()
        if d is None:
            return
        try:
            tmp = Path(
                tempfile.mkdtemp(prefix="bm25-", dir=d.parent if d.parent.exists() else None)
            )
            idx.retriever.save(str(tmp))
            (tmp / "keys.json").write_text(
                json.dumps(idx.keys, ensure_ascii=False), encoding="utf-8"
            )
            d.parent.mkdir(parents=True, exist_ok=True)
            if d.exists():
                return
            os.replace(tmp, d)
        except OSError:
            return  # caching is an optimisation; a read-only home is fine

    # ------------------------------------------------------------------ stats
    def stats(self) -> dict[str, int]:
        """Counts: instruments, versions, articles (all versions), current articles, aliases,
        repealed (with a record), document numbers, guiding cases, and instruments per level."""
        out = {
            "instruments": len(self._raw),
            "versions": sum(len(r["versions"]) for r in self._raw.values()),
            "articles": sum(len(v["articles"]) for r in self._raw.values() for v in r["versions"]),
            "articles_current": sum(len(r["versions"][-1]["articles"]) for r in self._raw.values()),
            "aliases": len(self._aliases),
            "repealed": len(self.repealed_titles()),
            "repealed_absent": len(self._absent),
            "document_numbers": len(self._docnos),
            "guiding_cases": len(self._cases),
        }
        for r in self._raw.values():
            key = f"level:{r['level']}"
            out[key] = out.get(key, 0) + 1
        return out


def _top(scores: np.ndarray, k: int) -> list[int]:
    """Indices of the ``k`` best positive scores, best first (ties by index)."""
    pos = np.flatnonzero(scores > 0)
    if pos.size == 0:
        return []
    if pos.size > k:
        part = np.argpartition(-scores[pos], k - 1)[:k]
        pos = pos[part]
    keyed = sorted(zip((-scores[pos]).tolist(), pos.tolist(), strict=True))
    return [i for _s, i in keyed[:k]]


@lru_cache(maxsize=1)
def load_default_store() -> AuthorityStore:
    """The bundled store, loaded once per process (``AuthorityStore.load()``).

    Raises:
        StoreError: the bundled copy is missing or corrupt (reinstall citegov).
    """
    # The payload is millions of acyclic lists and dicts that live as long as the process:
    # moved out of the cyclic collector's reach (``gc.freeze``), a full collection no longer
    # re-traverses them (measured: ≈ 0.4 s of CPU in one full collection during a cold
    # ``verify`` of a 10k report). Reference counting still frees them; forked batch workers
    # also stop touching (copying) the parent's pages. The collector stays paused until they
    # are frozen: re-enabled in between, its next young collection walked them all (≈ 45 ms).
    enabled = gc.isenabled()
    gc.disable()
    try:
        store = AuthorityStore.load()
        gc.freeze()
    finally:
        if enabled:
            gc.enable()
    return store


def _json_untracked(data: bytes) -> Any:
    """``json.loads(data)`` with the cyclic garbage collector paused: a parse allocates only
    acyclic containers, yet a 26 MB payload triggers full collections over everything parsed
    so far (measured: 3 collections, ≈ 0.3 s of CPU on the bundled store)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return json.loads(data)
    finally:
        if enabled:
            gc.enable()


def build_store(
    laws_dir: Path,
    cases_dir: Path | None,
    out_path: Path,
    repealed_dir: Path | None = None,
    updates_dir: Path | None = None,
    dense_base: dict[str, Any] | None = None,
) -> AuthorityStore:
    """Build from the corpus folders and save to ``out_path`` (for ``citegov corpus build``).

    ``dense_base`` (see :attr:`AuthorityStore.dense_base`) is recorded in the payload when
    given, so shipped vectors of an earlier build stay usable for unchanged provisions.

    Raises:
        CorpusError: the corpus cannot be parsed.
        StoreError: ``out_path`` cannot be written.
    """
    store = AuthorityStore.build(laws_dir, cases_dir, repealed_dir, updates_dir)
    if dense_base is not None:
        store._payload["dense_base"] = dense_base
    store.save(out_path)
    return store


__all__ = [
    "BUNDLED_NAME",
    "KIND_OF_LEVEL",
    "AuthorityStore",
    "VersionDates",
    "build_store",
    "load_default_store",
    "normalise_article",
    "tokenize",
]
