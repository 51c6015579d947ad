"""A shared store on a real ``chroma run`` server (issue #17): the index is built once on the
server, and hybrid retrieval through it gives the same top 5 as the embedded (local
directory) index; several workers query the one server at once with the same answers.

Real provisions (three labour laws of the bundled store, every version, ~260 articles) and the
default offline embedder (USE); the server is started by the test on 127.0.0.1.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from governor.authorities import AuthorityStore, load_default_store
from governor.retrieval.chroma_index import ChromaIndex
from governor.retrieval.embedders import make_embedder
from governor.retrieval.hybrid import HybridRetriever, build_index
from tests.test_clients_chroma import chroma_server  # noqa: F401  (the server fixture)

TITLES = ("中华人民共和国劳动合同法", "中华人民共和国劳动法", "中华人民共和国劳动争议调解仲裁法")
QUERIES = (
    "劳动者在同一用人单位连续工作满十年，要求订立无固定期限劳动合同",
    "用人单位未与劳动者订立书面劳动合同，应当支付二倍工资",
    "试用期最长不得超过六个月",
    "劳动争议申请仲裁的时效期间为一年",
    "加班工资的支付标准",
    "用人单位违法解除劳动合同的赔偿金",
)


class LabourView:
    """The bundled store seen through three instruments (a small index to build in a test)."""

    def __init__(self, store: AuthorityStore) -> None:
        self._store = store
        self.build_id = store.build_id

    def titles(self) -> tuple[str, ...]:
        return TITLES

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def search(
        self, query: str, *, instrument: str | None = None, as_of: date | None = None, k: int = 10
    ) -> Any:
        hits = self._store.search(query, instrument=instrument, as_of=as_of, k=200)
        return [h for h in hits if h[0].instrument in TITLES][:k]


@pytest.fixture(scope="module")
def view() -> LabourView:
    return LabourView(load_default_store())


def _top5(r: HybridRetriever, queries: Sequence[str]) -> list[list[str]]:
    return [[a.key for a, _ in r.search(q, k=5, as_of=date(2026, 11, 1))] for q in queries]


def test_server_index_matches_embedded_and_serves_workers(
    chroma_server: str,  # noqa: F811
    view: LabourView,
    tmp_path: Path,
) -> None:
    embedder = make_embedder("use")
    local = build_index(view, embedder, tmp_path / "idx", workers=1)  # type: ignore[arg-type]
    remote = build_index(view, embedder, tmp_path / "unused", workers=1, chroma_url=chroma_server)  # type: ignore[arg-type]
    assert remote.count() == local.count() > 250
    want = _top5(HybridRetriever(view, local), QUERIES)  # type: ignore[arg-type]
    assert all(len(k) == 5 for k in want)
    assert _top5(HybridRetriever(view, remote), QUERIES) == want  # type: ignore[arg-type]

    def worker(_: int) -> list[list[str]]:  # each worker connects on its own, nothing built
        index = ChromaIndex.connect(chroma_server, embedder)
        try:
            return _top5(HybridRetriever(view, index), QUERIES)  # type: ignore[arg-type]
        finally:
            index.close()

    with ThreadPoolExecutor(max_workers=3) as pool:
        answers = list(pool.map(worker, range(3)))
    assert answers == [want] * 3
    assert remote.count() == local.count()  # the workers built nothing
