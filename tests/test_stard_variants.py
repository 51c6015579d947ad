"""The STARD retrieval variants bench (issue 22 item 6, ``benchmarks.stard_variants``): its
re-ranking is the shipped one for the baseline, and each variant's parts do what they say."""

from __future__ import annotations

from datetime import date
from typing import Any

import numpy as np
import pytest

from benchmarks.stard_variants import Ranker, _pooled, clauses, vocabulary_query
from governor.authorities.store import load_default_store
from verifiers.textsim import bigrams, pooled_containment

AS_OF = date(2024, 1, 1)
CIVIL = "中华人民共和国民法典"
SOLE = "个体工商户条例"
QUESTION = "个体工商户营业执照上登记的经营者与实际经营者不一致的，是否承担共同责任？"


@pytest.fixture(scope="module")
def store() -> Any:
    return load_default_store()


def test_pooled_is_the_shipped_second_stage_on_statute_texts(store: Any) -> None:
    recs = [
        store.article(CIVIL, "54", as_of=AS_OF),
        store.article(CIVIL, "56", as_of=AS_OF),
        store.article(SOLE, "2", as_of=AS_OF),
    ]
    texts = [r.text for r in recs]
    got = _pooled(bigrams(QUESTION), [bigrams(t) for t in texts])
    assert got.tolist() == pytest.approx(pooled_containment(QUESTION, texts))
    assert got.max() > 0


def test_clauses_split_the_asking_sentence_from_the_situation() -> None:
    assert clauses(QUESTION) == (
        "个体工商户营业执照上登记的经营者与实际经营者不一致的",
        "是否承担共同责任？",
    )
    assert clauses("谁可以成为个体工商户？") is None


def test_vocabulary_query_drops_words_no_article_holds(store: Any) -> None:
    df = store._global_index().df
    got = vocabulary_query("我老公出轨了，离婚时财产怎么分？", df)
    assert "老公" not in got and "出轨" not in got and "怎么" not in got
    assert "离婚" in got and "财产" in got and "，" in got
    # every word of a question in the statutes' own words stays
    assert vocabulary_query(QUESTION, df) == QUESTION


def _item(store: Any, arts: list[tuple[str, str]], bn: list[float], cos: list[float]) -> Any:
    recs = [store.article(t, a, as_of=AS_OF) for t, a in arts]
    return {
        "q": QUESTION,
        "keys": [r.key for r in recs],
        "bn": np.array(bn),
        "cos": np.array(cos),
        "prior": np.ones(len(recs)),
    }, {r.key: r for r in recs}


def test_baseline_rank_is_prior_times_fused_plus_bigram_share(store: Any) -> None:
    arts = [(CIVIL, "54"), (CIVIL, "56"), (SOLE, "2")]
    item, records = _item(store, arts, [1.0, 0.5, 0.9], [0.5, 0.5, 0.5])
    ranker = Ranker({"store": store, "records": records})
    extra = pooled_containment(QUESTION, [r.text for r in records.values()])
    want = sorted(range(3), key=lambda i: -(item["bn"][i] + 3 * item["cos"][i] + extra[i]))
    assert ranker.rank(item) == [arts[i] for i in want]
    # without the second stage the order is BM25's here (equal cosines)
    assert ranker.rank(item, bigram_w=0.0) == [arts[0], arts[2], arts[1]]


def test_concentration_lifts_the_instrument_holding_two_of_the_top(store: Any) -> None:
    arts = [(SOLE, "2"), (CIVIL, "54"), (CIVIL, "56")]
    item, records = _item(store, arts, [1.0, 0.95, 0.9], [0.5, 0.5, 0.5])
    ranker = Ranker({"store": store, "records": records})
    assert ranker.rank(item, bigram_w=0.0)[0] == (SOLE, "2")
    lifted = ranker.rank(item, bigram_w=0.0, concentration=0.2)
    assert lifted[0][0] == CIVIL and lifted[2] == (SOLE, "2")
