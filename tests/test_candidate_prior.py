"""Store-wide repair candidates: the instrument prior (hierarchy level × instrument size) that
reorders the question's hits (issue 22 item 6; ``Thresholds.candidate_level_prior``)."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest

from benchmarks.datadir import data_path
from governor.authorities import ArticleRecord
from governor.authorities.store import load_default_store
from governor.core.config import Thresholds
from governor.retrieval.chroma_index import ChromaIndex
from governor.retrieval.hybrid import HybridRetriever, build_index
from tests.fakes.embedder import HashEmbedder
from tests.fakes.store import FakeStore
from verifiers.suggest import instrument_prior, store_candidates

AS_OF = date(2024, 1, 1)
CIVIL = "中华人民共和国民法典"
LABOUR = "中华人民共和国劳动合同法"
PROPERTY_REG = "物业管理条例"


class _Fixed:
    """A retriever that returns fixed store-wide hits, best first."""

    def __init__(self, hits: list[tuple[ArticleRecord, float]]) -> None:
        self.hits = hits
        self.asked: list[int] = []

    def search(
        self,
        query: str,
        *,
        instrument: str | None = None,
        as_of: date | None = None,
        k: int = 10,
    ) -> list[tuple[ArticleRecord, float]]:
        self.asked.append(k)
        return self.hits[:k]


@pytest.fixture(scope="module")
def store() -> Any:
    return load_default_store()


def test_prior_orders_law_above_regulation_and_code_above_narrow_law(store: Any) -> None:
    th = Thresholds()
    f = {
        t: instrument_prior(store, t, AS_OF, th.candidate_level_prior, th.candidate_size_prior)
        for t in (CIVIL, LABOUR, PROPERTY_REG)
    }
    assert store.instrument(PROPERTY_REG).level == "行政法规"
    assert f[CIVIL] > f[LABOUR] > f[PROPERTY_REG] >= 1.0
    # 民法典 is the store's largest latest version: level 1.2 × (1 + 0.2)
    assert f[CIVIL] == pytest.approx(1.2 * 1.2)
    assert instrument_prior(store, "没有这部法", AS_OF, th.candidate_level_prior, 0.2) == 1.0
    assert instrument_prior(store, PROPERTY_REG, AS_OF, {}, 0.0) == 1.0


def test_store_candidates_put_the_law_first_when_scores_are_close(store: Any) -> None:
    # a layperson's 物业费 question: the regulation's article scores a little higher lexically,
    # the 民法典 article states the rule (业主不得…拒绝支付物业费)
    reg = store.article(PROPERTY_REG, "35", as_of=AS_OF)
    law = store.article(CIVIL, "944", as_of=AS_OF)
    retriever = _Fixed([(reg, 10.0), (law, 9.0)])
    th = Thresholds()
    plain = store_candidates(retriever, store, "物业不好能拒交物业费吗", as_of=AS_OF, k=2)
    assert [r.instrument for r, _ in plain] == [PROPERTY_REG, CIVIL]
    ranked = store_candidates(
        retriever,
        store,
        "物业不好能拒交物业费吗",
        as_of=AS_OF,
        k=2,
        level_prior=th.candidate_level_prior,
        size_prior=th.candidate_size_prior,
    )
    assert [r.instrument for r, _ in ranked] == [CIVIL, PROPERTY_REG]
    assert ranked[0][1] == pytest.approx(9.0 * 1.44)
    assert max(retriever.asked) >= 100  # fetched deeper than k before reordering


def test_prior_defaults_are_not_neutral() -> None:
    th = Thresholds()
    lv = th.candidate_level_prior
    assert lv.get("法律", 1.0) > lv.get("行政法规", 1.0)
    # the Constitution is never ranked below the laws that implement it (宪法第一百三十条 lost to
    # 刑事诉讼法第十一条 on LawBench 3-2 while 宪法 had no factor)
    assert lv.get("宪法", 1.0) >= lv.get("法律", 1.0)
    assert th.candidate_size_prior > 0


SPEC = {
    "甲法": [("2020-01-01", "2020-01-01", {"1": ["出租人应当履行租赁物的维修义务。"]})],
    "乙条例": [("2020-01-01", "2020-01-01", {"1": ["承租人可以要求出租人在合理期限内维修。"]})],
}


def test_hybrid_applies_the_prior_inside_each_ranker(tmp_path: Path) -> None:
    fake = FakeStore(SPEC)
    index: ChromaIndex = build_index(fake, HashEmbedder(), tmp_path / "idx", workers=1)
    r = HybridRetriever(fake, index)
    q = "出租人应当履行租赁物的维修义务"
    assert r.search(q, as_of=AS_OF, k=2)[0][0].instrument == "甲法"
    down = r.search_with_prior(q, lambda t: 0.01 if t == "甲法" else 1.0, as_of=AS_OF, k=2)
    assert [h.instrument for h, _ in down] == ["乙条例", "甲法"]
    # within one instrument the prior is ignored (it is one factor for every article)
    inside = r.search(q, instrument="甲法", as_of=AS_OF, k=2, prior=lambda t: 0.0)
    assert [h.instrument for h, _ in inside] == ["甲法"]


STARD = data_path("external") / "stard" / "stard.jsonl"


@pytest.mark.skipif(not STARD.is_file(), reason="needs the shared STARD snapshot")
def test_stard_dev_recall_with_the_prior(store: Any) -> None:
    from benchmarks.bench_retrieval import bench_stard

    before = bench_stard(store, "dev", prior=False)
    after = bench_stard(store, "dev")
    # measured: BM25 0.428 → 0.481 (recall@5), 0.498 → 0.543 (@10); both halves gain
    assert after["recall@5"] >= 0.47 > before["recall@5"]
    assert after["recall@10"] > before["recall@10"]
    for half in ("half1", "half2"):
        assert after[half]["recall@5"] > before[half]["recall@5"]


def test_article_count_reads_the_selected_version(store: Any) -> None:
    assert store.article_count(CIVIL) == 1260
    assert store.article_count("民法典", as_of=AS_OF) == 1260  # alias resolved
    assert store.article_count(CIVIL, as_of=date(2019, 1, 1)) == 1260  # before it: the first
    assert store.article_count("没有这部法") == 0
