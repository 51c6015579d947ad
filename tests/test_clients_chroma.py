"""chromadb index: atomic builds, embedder checks, registered embedding function, server mode."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import chromadb
import numpy as np
import pytest

from governor.core.errors import RetrievalIndexError
from governor.core.ports import VectorIndex
from governor.retrieval.chroma_index import (
    COLLECTION,
    MARKER_FILE,
    ChromaIndex,
    CitegovEmbeddingFunction,
    building_index,
    where_clause,
)
from governor.retrieval.embedders import UseEmbedder
from tests.fakes.embedder import HashEmbedder

DOCS = {
    "a": (
        "当事人一方不履行合同义务或者履行合同义务不符合约定的，应当承担继续履行、采取补救措施或者赔偿损失等违约责任。",
        "民法典",
    ),
    "b": ("劳动者在同一用人单位连续工作满十年以上的，应当订立无固定期限劳动合同。", "劳动合同法"),
    "c": ("公司是企业法人，有独立的法人财产，享有法人财产权。", "公司法"),
    "d": ("用人单位自用工之日起即与劳动者建立劳动关系。", "劳动合同法"),
}


def build(path: Path, embedder: object, docs: dict[str, tuple[str, str]] = DOCS) -> None:
    with building_index(path, embedder) as index:  # type: ignore[arg-type]
        index.add(
            list(docs),
            [t for t, _ in docs.values()],
            [{"instrument": i, "n": n} for n, (_, i) in enumerate(docs.values())],
        )


def test_build_open_query(tmp_path: Path, hash_embedder: HashEmbedder) -> None:
    build(tmp_path / "idx", hash_embedder)
    assert (tmp_path / "idx" / MARKER_FILE).is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["idx"]  # no temp dirs left
    with ChromaIndex.open(tmp_path / "idx", hash_embedder) as index:
        assert isinstance(index, VectorIndex)
        assert index.count() == 4
        hits = index.query("劳动者连续工作满十年，应当订立无固定期限劳动合同", 2)
        assert hits[0][0] == "b"
        assert all(0.0 <= s <= 1.0 for _, s in hits)
        assert hits[0][1] > hits[1][1]
        assert index.info["citegov_embedder"] == hash_embedder.name


@pytest.mark.parametrize(
    "where,expected",
    [
        ({"instrument": "劳动合同法"}, {"b", "d"}),
        ({"instrument": "劳动合同法", "n": 3}, {"d"}),
        ({"n": {"$gte": 2}}, {"c", "d"}),
        (None, {"a", "b", "c", "d"}),
    ],
)
def test_where_filters(
    tmp_path: Path, hash_embedder: HashEmbedder, where: dict | None, expected: set[str]
) -> None:
    build(tmp_path / "idx", hash_embedder)
    with ChromaIndex.open(tmp_path / "idx", hash_embedder) as index:
        assert {i for i, _ in index.query("劳动", 10, where)} == expected


@pytest.mark.parametrize(
    "where,expected",
    [
        (None, None),
        ({}, None),
        ({"a": 1}, {"a": 1}),
        ({"a": 1, "b": None}, {"a": 1}),
        ({"a": 1, "b": 2}, {"$and": [{"a": 1}, {"b": 2}]}),
        ({"$or": [{"a": 1}, {"b": 2}]}, {"$or": [{"a": 1}, {"b": 2}]}),
    ],
)
def test_where_clause(where: dict | None, expected: dict | None) -> None:
    assert where_clause(where) == expected


def test_other_embedder_is_refused(tmp_path: Path, hash_embedder: HashEmbedder) -> None:
    build(tmp_path / "idx", hash_embedder)
    with pytest.raises(RetrievalIndexError, match="hash-bigram-64@2"):
        ChromaIndex.open(tmp_path / "idx", HashEmbedder(version="2"))


def test_interrupted_build_leaves_nothing(tmp_path: Path, hash_embedder: HashEmbedder) -> None:
    with pytest.raises(KeyboardInterrupt), building_index(tmp_path / "idx", hash_embedder) as index:
        index.add(["a"], ["文本"], [{}])
        raise KeyboardInterrupt
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(RetrievalIndexError, match="no semantic index"):
        ChromaIndex.open(tmp_path / "idx", hash_embedder)


def test_failed_rebuild_keeps_previous_index(tmp_path: Path, hash_embedder: HashEmbedder) -> None:
    build(tmp_path / "idx", hash_embedder)

    def crash() -> None:
        raise RuntimeError("killed at the swap")

    with (
        pytest.raises(RuntimeError),
        building_index(tmp_path / "idx", hash_embedder, on_swap=crash) as index,
    ):
        index.add(["z"], ["新文本"], [{}])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["idx"]
    with ChromaIndex.open(tmp_path / "idx", hash_embedder) as index:
        assert index.count() == 4


def test_rebuild_replaces_index(tmp_path: Path, hash_embedder: HashEmbedder) -> None:
    build(tmp_path / "idx", hash_embedder)
    build(tmp_path / "idx", hash_embedder, {"x": ("唯一的条文", "某法")})
    with ChromaIndex.open(tmp_path / "idx", hash_embedder) as index:
        assert index.count() == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["idx"]


def test_directory_without_marker_is_refused(tmp_path: Path, hash_embedder: HashEmbedder) -> None:
    # what a build killed by SIGKILL before the marker would leave, had it been built in place
    client = chromadb.PersistentClient(path=str(tmp_path / "idx"))
    client.create_collection(COLLECTION).add(
        ids=["a"], embeddings=np.ones((1, 64), dtype=np.float32)
    )
    client.close()  # type: ignore[attr-defined]
    with pytest.raises(RetrievalIndexError, match="incomplete"):
        ChromaIndex.open(tmp_path / "idx", hash_embedder)


def test_corrupt_marker_is_refused(tmp_path: Path, hash_embedder: HashEmbedder) -> None:
    build(tmp_path / "idx", hash_embedder)
    (tmp_path / "idx" / MARKER_FILE).write_text("{not json", encoding="utf-8")
    with pytest.raises(RetrievalIndexError, match="unreadable"):
        ChromaIndex.open(tmp_path / "idx", hash_embedder)


def test_registered_function_reopens_offline_without_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A plain chromadb client reopening the collection rebuilds citegov's embedder from the
    stored configuration and never touches chromadb's downloading default."""
    from chromadb.api.types import DefaultEmbeddingFunction

    def no_default(self: object, input: object) -> object:
        raise AssertionError("chromadb fell back to its default embedding function")

    monkeypatch.setattr(DefaultEmbeddingFunction, "__call__", no_default)
    build(tmp_path / "idx", UseEmbedder())
    client = chromadb.PersistentClient(path=str(tmp_path / "idx"))
    try:
        col = client.get_collection(COLLECTION)
        ef = col.configuration_json["embedding_function"]
        assert ef["name"] == "citegov" and ef["config"]["spec"] == "use"
        res = col.query(query_texts=["公司的法人财产权"], n_results=1)
        assert res["ids"][0] == ["c"]
    finally:
        client.close()  # type: ignore[attr-defined]


def test_function_without_spec_explains_itself(hash_embedder: HashEmbedder) -> None:
    ef = CitegovEmbeddingFunction.build_from_config(
        {"spec": "", "embedder_name": hash_embedder.name}
    )
    with pytest.raises(RetrievalIndexError, match="cannot be rebuilt"):
        ef(["x"])
    assert (
        CitegovEmbeddingFunction(embedder=hash_embedder).get_config()["embedder_name"]
        == hash_embedder.name
    )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def chroma_server(tmp_path: Path) -> Iterator[str]:
    exe = shutil.which("chroma", path=os.path.dirname(os.sys.executable))  # type: ignore[attr-defined]
    if exe is None:
        pytest.skip("chroma CLI not installed")
    port = _free_port()
    proc = subprocess.Popen(
        [
            exe,
            "run",
            "--path",
            str(tmp_path / "server"),
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                chromadb.HttpClient(host="127.0.0.1", port=port).heartbeat()
                break
            except Exception:
                time.sleep(0.1)
        else:
            pytest.fail("chroma server did not start")
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.mark.slow
def test_chroma_server_build_and_connect(
    chroma_server: str, tmp_path: Path, hash_embedder: HashEmbedder
) -> None:
    with building_index(tmp_path / "unused", hash_embedder, chroma_url=chroma_server) as index:
        index.add(
            list(DOCS), [t for t, _ in DOCS.values()], [{"instrument": i} for _, i in DOCS.values()]
        )
    remote = ChromaIndex.connect(chroma_server, hash_embedder)
    assert remote.count() == 4
    assert remote.query("公司 法人财产", 1)[0][0] == "c"
    names = [
        c.name
        for c in chromadb.HttpClient(
            host="127.0.0.1", port=int(chroma_server.rsplit(":", 1)[1])
        ).list_collections()
    ]
    assert names == [COLLECTION]  # the temporary build collection was renamed
    with pytest.raises(RetrievalIndexError, match="hash-bigram-64@9"):
        ChromaIndex.connect(chroma_server, HashEmbedder(version="9"))


def test_a_killed_build_is_swept_by_the_next(tmp_path: Path, hash_embedder: HashEmbedder) -> None:
    """SIGKILL/SIGTERM run no ``finally``: the next build removes the dead build's folder
    (its pid is gone) and swap leftovers, and keeps a live build's folder."""
    dead_pid = subprocess.Popen(["true"])
    dead_pid.wait()  # reaped: its pid names no process now
    dead = tmp_path / f"idx.building-{dead_pid.pid}-deadbeef"
    live = tmp_path / f"idx.building-{os.getpid()}-0badf00d"
    old = tmp_path / "idx.old-12345678"
    for p in (dead, live, old):
        (p / "chroma").mkdir(parents=True)
    build(tmp_path / "idx", hash_embedder)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["idx", live.name])
