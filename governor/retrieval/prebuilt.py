"""Prebuilt provision embeddings shipped with the package: a semantic index without a build
(layer 2; issue 16 item 4).

``scripts/build_store.py`` embeds every distinct provision text of the bundled store with the
default embedder (the units of :func:`governor.retrieval.hybrid.index_units`, each distinct
text once) and writes two files beside the store:

* ``<stem>.npy`` — the codes, ``(texts, dims)`` int8 (or float32 for measurements), read
  memory-mapped on the first dense query;
* ``<stem>.npz`` — the header (JSON: format, embedder name and width, stored width,
  quantisation, the store's ``build_id``, counts, a SHA-256 of the codes) and the arrays that
  turn codes back into vectors: ``mean`` ``(D,)``, ``basis`` ``(D, dims)`` (orthonormal PCA
  directions; absent when ``dims == D``), ``scale`` ``(dims,)``, ``rows`` ``(units,)``
  (unit → text row) and ``ids`` (the unit ids, UTF-8, newline-separated).

A vector is reconstructed as ``mean + basis @ (codes * scale)`` (symmetric per-dimension int8
quantisation of the centred, optionally PCA-projected vectors: scale = max |value| / 127 per
dimension). A query ``q`` (unit length) scores ``q·mean + (basisᵀq)·(codes * scale)``, which is
``q`` dotted with the reconstructed vector: exact brute force (no approximate search), one
matrix-vector product over ``codes * scale``, dequantised to float32 once on the first query
(texts × dims × 4 bytes in memory: 64 MB for the shipped 62,528 × 256).

:class:`PrebuiltIndex` offers what :class:`~governor.retrieval.hybrid.HybridRetriever` needs of
an index (``embedder``, ``info``, ``count``, ``query``, ``query_embeddings``,
``get_embeddings``). It refuses, with an error that says to run ``citegov index build``, a file
made by another embedder (name or width) or from another store build: never silently wrong
vectors.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from governor.core.errors import RetrievalIndexError
from governor.core.ports import Embedder
from governor.retrieval.embedders import embed_queries, l2_normalise
from governor.retrieval.units import EMBED_MAX_CHARS, index_units

__all__ = [
    "BUNDLED_STEM",
    "FORMAT",
    "PrebuiltHeader",
    "PrebuiltIndex",
    "build_prebuilt",
    "bundled_prebuilt",
    "dense_base_for",
    "distinct_texts",
    "embed_resumable",
    "quantise",
    "read_header",
    "write_prebuilt",
]

FORMAT = 1
"""Layout version of the two files (bumped when their meaning changes)."""
BUNDLED_STEM = "embeddings_use"
"""``governor/data/<stem>.npy`` / ``.npz``: the prebuilt vectors of the default embedder."""
BUILD_HELP = "run `citegov index build` to embed the store with your embedder"

Quantisation = Literal["int8", "float32"]


@dataclass(frozen=True)
class PrebuiltHeader:
    """What a prebuilt file was made from (stored as JSON in the ``.npz``).

    Attributes:
        format: :data:`FORMAT` of the writer.
        embedder: the embedder's ``name`` (model + package version).
        embedder_dim: width of the embedder's vectors (``D``).
        dims: stored width (``D``, or fewer after PCA).
        quantisation: ``"int8"`` or ``"float32"``.
        store_build: the store's ``build_id`` (content hash) the units come from.
        units: number of index units (rows of ``rows``).
        texts: number of distinct texts (rows of the codes).
        codes_sha256: SHA-256 of the codes' bytes (C order).
        max_chars: texts were cut to this many characters before embedding.
    """

    format: int
    embedder: str
    embedder_dim: int
    dims: int
    quantisation: str
    store_build: str
    units: int
    texts: int
    codes_sha256: str
    max_chars: int


def _stem(path: Path | str) -> Path:
    p = Path(path)
    return p.with_suffix("") if p.suffix in (".npy", ".npz") else p


def bundled_prebuilt() -> Path:
    """Stem of the prebuilt vectors shipped in ``governor/data`` (the files may be absent)."""
    return Path(__file__).resolve().parents[1] / "data" / BUNDLED_STEM


def quantise(
    vectors: npt.NDArray[np.float32], dims: int | None = None, quant: Quantisation = "int8"
) -> dict[str, npt.NDArray[Any]]:
    """Centre, optionally PCA-project, and quantise document vectors.

    Args:
        vectors: ``(n, D)`` float32 unit rows.
        dims: keep the ``dims`` leading principal directions (None or ``D``: no projection).
        quant: ``"int8"`` (symmetric, one scale per dimension: max |value| / 127) or
            ``"float32"`` (no quantisation; for measuring what quantisation costs).

    Returns:
        ``{"codes", "mean", "scale"}`` and, with a projection, ``"basis"`` ``(D, dims)``.

    Raises:
        ValueError: ``dims`` outside ``1..D`` or an unknown ``quant``.
    """
    x = np.asarray(vectors, dtype=np.float32)
    n, width = x.shape
    d = width if dims is None else int(dims)
    if not 1 <= d <= width:
        raise ValueError(f"dims must be in 1..{width}, got {dims}")
    if quant not in ("int8", "float32"):
        raise ValueError(f"unknown quantisation {quant!r}; use 'int8' or 'float32'")
    mean = x.mean(axis=0, dtype=np.float64).astype(np.float32)
    z = x - mean
    out: dict[str, npt.NDArray[Any]] = {"mean": mean}
    if d < width:
        cov = (z.T.astype(np.float64) @ z.astype(np.float64)) / max(1, n - 1)
        _, evecs = np.linalg.eigh(cov)  # eigenvalues ascending
        basis = np.ascontiguousarray(evecs[:, ::-1][:, :d], dtype=np.float32)
        z = z @ basis
        out["basis"] = basis
    if quant == "float32":
        out["scale"] = np.ones(d, dtype=np.float32)
        out["codes"] = np.ascontiguousarray(z, dtype=np.float32)
        return out
    peak = np.abs(z).max(axis=0)
    scale = np.where(peak > 0, peak / 127.0, 1.0).astype(np.float32)
    out["scale"] = scale
    out["codes"] = np.clip(np.rint(z / scale), -127, 127).astype(np.int8)
    return out


def _digest(codes: npt.NDArray[Any]) -> str:
    h = hashlib.sha256()
    flat = np.ascontiguousarray(codes).reshape(-1).view(np.uint8)
    step = 1 << 24
    for start in range(0, flat.size, step):
        h.update(flat[start : start + step].data)
    return h.hexdigest()


def write_prebuilt(
    stem: Path | str,
    parts: Mapping[str, npt.NDArray[Any]],
    rows: npt.NDArray[np.int32],
    *,
    ids: Sequence[str],
    embedder: Embedder,
    store_build: str,
    max_chars: int,
) -> PrebuiltHeader:
    """Write ``<stem>.npy`` (codes) and ``<stem>.npz`` (header + arrays), each atomically; the
    header is written last and names the codes' digest, so a half-replaced pair is refused.

    Args:
        stem: path without suffix.
        parts: the output of :func:`quantise`.
        rows: ``(units,)`` int32, the codes row of each index unit.
        ids: the index units' ids, in unit order (stored, so opening needs no walk over
            every version of the store).
        embedder: the embedder that made the vectors (its ``name`` and ``dim`` are recorded).
        store_build: the store's ``build_id``.
        max_chars: the cut applied to texts before embedding.

    Returns:
        the header written.
    """
    base = _stem(stem)
    base.parent.mkdir(parents=True, exist_ok=True)
    codes = parts["codes"]
    if len(ids) != len(rows):
        raise ValueError(f"{len(ids)} ids for {len(rows)} rows")
    header = PrebuiltHeader(
        format=FORMAT,
        embedder=str(embedder.name),
        embedder_dim=int(embedder.dim),
        dims=int(codes.shape[1]),
        quantisation="int8" if codes.dtype == np.int8 else "float32",
        store_build=store_build,
        units=len(rows),
        texts=int(codes.shape[0]),
        codes_sha256=_digest(codes),
        max_chars=max_chars,
    )
    tag = uuid.uuid4().hex[:8]
    tmp_codes = base.with_name(f".{base.name}.{tag}.npy")
    tmp_meta = base.with_name(f".{base.name}.{tag}.npz")
    try:
        np.save(tmp_codes, codes)
        os.replace(tmp_codes, base.with_suffix(".npy"))
        payload: dict[str, Any] = {k: v for k, v in parts.items() if k != "codes"}
        payload["header"] = np.asarray(json.dumps(asdict(header)))
        payload["rows"] = np.asarray(rows, dtype=np.int32)
        payload["ids"] = np.frombuffer("\n".join(ids).encode("utf-8"), dtype=np.uint8)
        np.savez_compressed(tmp_meta, **payload)
        os.replace(tmp_meta, base.with_suffix(".npz"))
    finally:
        tmp_codes.unlink(missing_ok=True)
        tmp_meta.unlink(missing_ok=True)
    return header


def embed_resumable(
    embedder: Embedder,
    texts: Sequence[str],
    work_dir: Path | str,
    *,
    chunk_size: int = 512,
    progress: Callable[[int, int], None] | None = None,
) -> npt.NDArray[np.float32]:
    """Embed ``texts`` in chunks, each saved to ``work_dir`` as it is done, so an interrupted
    run resumes where it stopped (chunks already on disk are not embedded again).

    ``work_dir`` is tied to the texts: it holds a digest of them and is emptied when they differ.

    Args:
        embedder: the embedder (one process; its threads are the embedder's).
        texts: the texts, in order.
        work_dir: folder for the chunk files (created).
        chunk_size: texts per chunk.
        progress: called as ``progress(done, total)`` after each chunk (also for resumed ones).

    Returns:
        ``(len(texts), dim)`` float32 unit rows.
    """
    work = Path(work_dir)
    work.mkdir(parents=True, exist_ok=True)
    ident = hashlib.sha256(
        "\x1f".join([str(embedder.name), str(chunk_size), *texts]).encode()
    ).hexdigest()
    stamp = work / "texts.sha256"
    if not stamp.is_file() or stamp.read_text().strip() != ident:
        for old in work.glob("chunk-*.npy"):
            old.unlink()
        stamp.write_text(ident)
    parts: list[npt.NDArray[np.float32]] = []
    for start in range(0, len(texts), chunk_size):
        path = work / f"chunk-{start:07d}.npy"
        batch = list(texts[start : start + chunk_size])
        vecs: npt.NDArray[np.float32] | None = None
        if path.is_file():
            try:
                vecs = np.load(path)
            except (OSError, ValueError):
                vecs = None
            if vecs is not None and vecs.shape[0] != len(batch):
                vecs = None
        if vecs is None:
            vecs = l2_normalise(embedder.embed(batch))
            tmp = path.with_name(f".{path.stem}.{uuid.uuid4().hex[:8]}.npy")
            np.save(tmp, vecs)
            os.replace(tmp, path)
        parts.append(vecs)
        if progress is not None:
            progress(min(start + chunk_size, len(texts)), len(texts))
    if not parts:
        return np.zeros((0, int(embedder.dim)), dtype=np.float32)
    return np.concatenate(parts).astype(np.float32, copy=False)


def read_header(stem: Path | str) -> PrebuiltHeader:
    """The header of a prebuilt pair (reads only the small ``.npz`` member).

    Raises:
        RetrievalIndexError: the file is missing or not a prebuilt file of this format.
    """
    meta = _stem(stem).with_suffix(".npz")
    try:
        with np.load(meta, allow_pickle=False) as z:
            raw = json.loads(str(z["header"]))
        header = PrebuiltHeader(**raw)
    except FileNotFoundError:
        raise RetrievalIndexError(f"no prebuilt embeddings at {meta}; {BUILD_HELP}") from None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise RetrievalIndexError(
            f"{meta} is not a readable prebuilt embeddings file ({type(exc).__name__}); {BUILD_HELP}"
        ) from None
    if header.format != FORMAT:
        raise RetrievalIndexError(
            f"{meta} has format {header.format}, this citegov reads {FORMAT}; {BUILD_HELP}"
        )
    return header


class _UnitTable:
    """Ids of the index units, in index order, and where each one is."""

    def __init__(self, ids: list[str]) -> None:
        self.ids = ids
        self.position = {uid: i for i, uid in enumerate(ids)}


def _compare(value: Any, op: str, arg: Any) -> bool:
    if op == "$eq":
        return bool(value == arg)
    if op == "$ne":
        return bool(value != arg)
    if op == "$in":
        return value in arg
    if op == "$nin":
        return value not in arg
    if value is None:
        return False
    if op == "$gt":
        return bool(value > arg)
    if op == "$gte":
        return bool(value >= arg)
    if op == "$lt":
        return bool(value < arg)
    if op == "$lte":
        return bool(value <= arg)
    raise RetrievalIndexError(f"unsupported filter operator {op!r}")


def _match(meta: Mapping[str, Any], where: Mapping[str, Any]) -> bool:
    """Chromadb ``where`` semantics for the operators citegov uses ($and, $or, $eq, $ne,
    $gt, $gte, $lt, $lte, $in, $nin; a bare value means $eq)."""
    for key, cond in where.items():
        if key == "$and":
            if not all(_match(meta, c) for c in cond):
                return False
        elif key == "$or":
            if not any(_match(meta, c) for c in cond):
                return False
        else:
            ops = cond if isinstance(cond, Mapping) else {"$eq": cond}
            if not all(_compare(meta.get(key), op, arg) for op, arg in ops.items()):
                return False
    return True


class PrebuiltIndex:
    """The shipped (or any prebuilt) provision vectors, searched by exact brute force in numpy.

    Opening reads and checks only the header; on the first query the codes are
    memory-mapped and checked against the header's digest, and the unit ids read from the
    file (the units' metadata is derived from the store only when a ``where`` filter asks
    for it).

    Args:
        stem: path of the pair without suffix (``.npy``/``.npz`` also accepted).
        embedder: the run's embedder; its ``name`` and ``dim`` must be the file's.
        store: the authority store; its ``build_id`` must be the file's ``store_build``.

    Raises:
        RetrievalIndexError: missing or unreadable file, another embedder, another width or
            another store build (each message says to run ``citegov index build``).
    """

    exact = True
    """Queries rank every row (callers may ask for as many results as they need)."""

    def __init__(self, stem: Path | str, embedder: Embedder, store: Any) -> None:
        self.stem = _stem(stem)
        self.location = str(self.stem.with_suffix(".npz"))
        self.embedder = embedder
        self.store = store
        self.header = read_header(self.stem)
        h = self.header
        if h.embedder != embedder.name:
            raise RetrievalIndexError(
                f"the prebuilt embeddings at {self.location} were made with embedder "
                f"'{h.embedder}', not '{embedder.name}'; {BUILD_HELP} (and set `retrieval = "
                '"hybrid"` with that embedder)'
            )
        if h.embedder_dim != int(embedder.dim):
            raise RetrievalIndexError(
                f"the prebuilt embeddings at {self.location} hold {h.embedder_dim}-d vectors, the "
                f"embedder gives {embedder.dim}-d; {BUILD_HELP}"
            )
        build = str(getattr(store, "build_id", "") or "")
        base = getattr(store, "dense_base", None)
        self._stale: frozenset[str] = frozenset()
        self.partial = False
        if (
            h.store_build != build
            and isinstance(base, Mapping)
            and base.get("build_id") == h.store_build
        ):
            # a store rebuilt since the vectors were made: the vectors of provisions whose
            # text is unchanged stay valid; the others (and new provisions) are BM25-only
            self._stale = frozenset(base.get("stale") or ())
            self.partial = True
        elif h.store_build != build:
            raise RetrievalIndexError(
                f"the prebuilt embeddings at {self.location} belong to store build "
                f"{h.store_build[:12]}, but the store is build {build[:12] or '(none)'}; {BUILD_HELP}"
            )
        self._lock = threading.Lock()
        self._arrays: dict[str, npt.NDArray[Any]] | None = None
        self._units: _UnitTable | None = None
        self._meta: list[Mapping[str, Any]] | None = None

    @classmethod
    def open(cls, stem: Path | str, embedder: Embedder, store: Any) -> PrebuiltIndex:
        """Open a prebuilt pair (see the class for the checks and errors)."""
        return cls(stem, embedder, store)

    # -- lazy state ---------------------------------------------------------------------

    def _load(self) -> dict[str, npt.NDArray[Any]]:
        if self._arrays is not None:
            return self._arrays
        with self._lock:
            if self._arrays is None:
                h = self.header
                npy = self.stem.with_suffix(".npy")
                try:
                    codes = np.load(npy, mmap_mode="r", allow_pickle=False)
                    with np.load(self.stem.with_suffix(".npz"), allow_pickle=False) as z:
                        arrays = {k: np.asarray(z[k]) for k in z.files if k != "header"}
                except (OSError, ValueError) as exc:
                    raise RetrievalIndexError(
                        f"cannot read the prebuilt embeddings {npy} ({type(exc).__name__}); "
                        f"{BUILD_HELP}"
                    ) from None
                want_dtype = np.int8 if h.quantisation == "int8" else np.float32
                if (
                    codes.shape != (h.texts, h.dims)
                    or codes.dtype != want_dtype
                    or arrays["rows"].shape != (h.units,)
                    or "ids" not in arrays
                    or _digest(codes) != h.codes_sha256
                ):
                    raise RetrievalIndexError(
                        f"the prebuilt embeddings {npy} do not match their header "
                        f"{self.location} (a partial copy?); {BUILD_HELP}"
                    )
                # dequantised once: a float32 matrix-vector product is ~4x faster than
                # converting int8 blocks per query (40 vs 156 ms at load 6 on 2 cores)
                arrays["matrix"] = np.multiply(codes, arrays["scale"], dtype=np.float32)
                self._arrays = arrays
                self._units = _UnitTable(bytes(arrays.pop("ids")).decode("utf-8").split("\n"))
                if self._stale:
                    ids = self._units.ids
                    arrays["valid"] = np.fromiter(
                        (i not in self._stale for i in ids), bool, len(ids)
                    )
        assert self._arrays is not None
        return self._arrays

    def _unit_table(self) -> _UnitTable:
        self._load()
        assert self._units is not None
        return self._units

    def _metas(self) -> list[Mapping[str, Any]]:
        """The units' chromadb-style metadata, derived from the store (for ``where``)."""
        if self._meta is None:
            units = index_units(self.store, max_chars=self.header.max_chars)
            if self.partial:  # by id: a unit the store no longer has matches no filter
                by_id = {u.id: u.meta for u in units}
                self._meta = [by_id.get(i, {"instrument": None}) for i in self._unit_table().ids]
                return self._meta
            if [u.id for u in units] != self._unit_table().ids:
                raise RetrievalIndexError(
                    f"the store's index units differ from those of {self.location}; {BUILD_HELP}"
                )
            self._meta = [u.meta for u in units]
        return self._meta

    # -- scoring --------------------------------------------------------------------------

    def _text_scores(self, qvecs: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """``(n_queries, texts)`` cosine-style scores: query · reconstructed vector."""
        a = self._load()
        q = np.asarray(qvecs, dtype=np.float32)
        offset = q @ a["mean"]
        proj = q @ a["basis"] if "basis" in a else q
        return np.asarray(proj @ a["matrix"].T + offset[:, None], dtype=np.float32)

    def unit_scores(self, qvecs: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """``(n_queries, units)`` scores of every index unit (unit order of the store)."""
        return self._text_scores(qvecs)[:, self._load()["rows"]]

    def valid_unit_scores(self, qvecs: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """:meth:`unit_scores` with ``-inf`` for units whose text changed since the vectors
        were made (a partial index of a rebuilt store; those are BM25-only)."""
        scores = self.unit_scores(qvecs)
        valid = self._load().get("valid")
        return scores if valid is None else np.where(valid, scores, -np.inf)

    def query(
        self, text: str, k: int, where: Mapping[str, Any] | None = None
    ) -> list[tuple[str, float]]:
        """Nearest provisions to ``text``: up to ``k`` ``(id, similarity)``, best first,
        similarity clipped to [0, 1]; ``where`` is a chromadb-style metadata filter."""
        return self.query_embeddings(embed_queries(self.embedder, [text]), k, where)[0]

    def query_embeddings(
        self,
        vectors: npt.NDArray[np.float32],
        k: int,
        where: Mapping[str, Any] | None = None,
    ) -> list[list[tuple[str, float]]]:
        """Exact top ``k`` units for each query vector ``(n, D)`` (unit rows), ties broken
        by unit order."""
        if k <= 0 or len(vectors) == 0:
            return [[] for _ in range(len(vectors))]
        table = self._unit_table()
        scores = self.unit_scores(np.atleast_2d(vectors))
        valid = self._load().get("valid")
        if valid is not None:
            scores = np.where(valid, scores, -np.inf)
        if where:
            metas = self._metas()
            mask = np.fromiter((_match(m, where) for m in metas), bool, len(metas))
            scores = np.where(mask, scores, -np.inf)
        out: list[list[tuple[str, float]]] = []
        for row in scores:
            kk = min(k, int(np.isfinite(row).sum()))
            if kk <= 0:
                out.append([])
                continue
            top = np.argpartition(-row, kk - 1)[:kk] if kk < len(row) else np.arange(len(row))
            top = top[np.lexsort((top, -row[top]))]
            out.append([(table.ids[i], float(min(1.0, max(0.0, row[i])))) for i in top])
        return out

    def get_embeddings(self, ids: Sequence[str]) -> tuple[list[str], npt.NDArray[np.float32]]:
        """Reconstructed vectors of ``ids`` (missing ids skipped): ``(found, (n, D) float32)``;
        ``query · vector`` equals the score :meth:`query_embeddings` ranks by."""
        table = self._unit_table()
        found = [i for i in ids if i in table.position and i not in self._stale]
        if not found:
            return [], np.zeros((0, int(self.header.embedder_dim)), dtype=np.float32)
        a = self._load()
        text_rows = a["rows"][[table.position[i] for i in found]]
        z = a["matrix"][text_rows]
        vecs = (z @ a["basis"].T if "basis" in a else z) + a["mean"]
        return found, np.ascontiguousarray(vecs, dtype=np.float32)

    def ids(self) -> list[str]:
        """Every unit id, in index order."""
        return list(self._unit_table().ids)

    def count(self) -> int:
        """Number of index units (those still valid for a rebuilt store)."""
        return int(self.header.units) - len(self._stale)

    @property
    def info(self) -> dict[str, Any]:
        """Index metadata, with the keys a chroma index has (``citegov_store_build``, ...)."""
        h = self.header
        return {
            "citegov_embedder": h.embedder,
            "citegov_embedder_dim": h.embedder_dim,
            "citegov_store_build": h.store_build,
            "citegov_count": h.units,
            "citegov_prebuilt": True,
            "citegov_dims": h.dims,
            "citegov_quantisation": h.quantisation,
            "citegov_stale_units": len(self._stale),
        }

    def close(self) -> None:
        """Drop the memory map and tables (reopened on the next query)."""
        with self._lock:
            self._arrays = None
            self._units = None
            self._meta = None

    def __enter__(self) -> PrebuiltIndex:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def distinct_texts(units: Iterable[Any]) -> tuple[list[str], npt.NDArray[np.int32]]:
    """Distinct unit texts in first-appearance order and each unit's row among them."""
    first: dict[str, int] = {}
    rows: list[int] = []
    for unit in units:
        rows.append(first.setdefault(unit.text, len(first)))
    return list(first), np.asarray(rows, dtype=np.int32)


DEFAULT_DIMS: int | None = 256
"""PCA width of the shipped vectors (None: all of the embedder's dimensions); chosen by
``python -m benchmarks.bench_retrieval quant`` (see the README, "Speed")."""


def dense_base_for(
    new_store: Any, old_store: Any, stem: Path | str, *, max_chars: int = EMBED_MAX_CHARS
) -> tuple[dict[str, Any] | None, int]:
    """The ``dense_base`` record a rebuilt store keeps so the vectors at ``stem`` stay usable.

    ``old_store`` is the store the vectors were made for (same ``build_id`` as the file) or
    a rebuild of it that carries its own ``dense_base`` for them; the record lists as
    ``stale`` every unit of the file whose text differs in ``new_store`` or which it lacks
    (and those already stale), and counts as ``bm25_only`` the units of ``new_store`` without
    a valid vector. Deterministic: the same inputs give the same record.

    Returns:
        ``(record or None when the vectors belong to neither, units of new_store that have
        no valid vector: BM25-only)``.
    """
    header = read_header(stem)
    with np.load(_stem(stem).with_suffix(".npz"), allow_pickle=False) as z:
        file_ids = bytes(z["ids"]).decode("utf-8").split("\n")
    old_build = str(getattr(old_store, "build_id", "") or "")
    prior: set[str] = set()
    if old_build != header.store_build:
        base = getattr(old_store, "dense_base", None)
        if not isinstance(base, Mapping) or base.get("build_id") != header.store_build:
            return None, len(index_units(new_store, max_chars=max_chars))
        prior = set(base.get("stale") or ())
    old = {u.id: u.text for u in index_units(old_store, max_chars=max_chars)}
    new = {u.id: u.text for u in index_units(new_store, max_chars=max_chars)}
    stale = sorted(i for i in file_ids if i in prior or i not in new or new[i] != old.get(i))
    covered = set(file_ids) - set(stale)
    missing = sum(1 for i in new if i not in covered)
    return {"build_id": header.store_build, "stale": stale, "bm25_only": missing}, missing


def build_prebuilt(
    store: Any,
    embedder: Embedder,
    stem: Path | str,
    *,
    dims: int | None = DEFAULT_DIMS,
    quant: Quantisation = "int8",
    work_dir: Path | str | None = None,
    progress: Callable[[int, int], None] | None = None,
    keep_float: Path | str | None = None,
) -> PrebuiltHeader:
    """Embed every distinct index text of ``store`` and write the prebuilt pair at ``stem``.

    Args:
        store: the authority store (its ``build_id`` is recorded).
        embedder: the embedder (its ``name`` and ``dim`` are recorded).
        stem: output path without suffix.
        dims: PCA width (None: no projection).
        quant: ``"int8"`` or ``"float32"``.
        work_dir: chunk folder of :func:`embed_resumable` (default ``<stem>.building``,
            removed after success): a killed run started again resumes there.
        progress: ``progress(done_texts, total_texts)`` after each chunk.
        keep_float: also save the float vectors here (``.npy``; for ``bench_retrieval quant``).

    Returns:
        the header written.
    """
    import shutil

    units = index_units(store, max_chars=EMBED_MAX_CHARS)
    if not units:
        raise RetrievalIndexError("the store has no articles to embed")
    texts, rows = distinct_texts(units)
    work = Path(work_dir) if work_dir is not None else _stem(stem).with_suffix(".building")
    vectors = embed_resumable(embedder, texts, work, progress=progress)
    if keep_float is not None:
        np.save(keep_float, vectors)
    header = write_prebuilt(
        stem,
        quantise(vectors, dims, quant),
        rows,
        ids=[u.id for u in units],
        embedder=embedder,
        store_build=str(getattr(store, "build_id", "") or ""),
        max_chars=EMBED_MAX_CHARS,
    )
    shutil.rmtree(work, ignore_errors=True)
    return header
