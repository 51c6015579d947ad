"""Variants of the STARD repair retrieval (issue 22 item 6), measured on train and dev at once.

``python -m benchmarks.stard_variants [--pool 600]`` computes, once per question, the parts of
the shipped hybrid ranking (:meth:`governor.retrieval.hybrid.HybridRetriever.linear_search`
with the instrument prior and the bigram second stage, as ``benchmarks.bench_retrieval stard
--hybrid`` runs it): the normalised BM25 and the cosine of the best ``--pool`` articles by
``bm25 / bm25_max + 3 · cos``, their prior factors and texts; then re-ranks that pool under
each variant and prints one JSON line per variant with recall@1/5/10 on train and on dev (and
dev's two halves, in file order as the bench splits them). ``baseline`` reproduces the bench.

The variants (none is in the shipped code; the weights are the grid points tried):

* ``rerank_R`` — the second stage re-scores the best R (shipped: 100) of the first 200;
  ``pool300_R300`` widens both.
* ``words_X`` / ``bigrams_B_words_X`` — the second stage's containment on the question's
  ``jieba`` words (BM25's tokens, IDF over the re-scored candidates as for bigrams) with weight
  X, instead of or beside the bigrams.
* ``concentration_G`` — after the second stage, + G × prior for every candidate whose
  instrument holds 2+ of the top 10 (the instrument the question is about).
* ``ask_A`` / ``situation_S`` — a second dense query: the question's last clause (the asking
  sentence, after the last ，；。) or the clauses before it, its cosine × A/3 added to the
  cosine (questions of one clause are unchanged).
* ``instrument_idf_X`` — + X × the share of the question's words a candidate holds, each word
  weighted by the smaller of its IDF in the store and in the candidate's own instrument
  (:meth:`~governor.authorities.store.AuthorityStore.word_weights`: words every article of
  that instrument uses weigh little).
* ``cos_over_max_W`` — the cosine divided by the question's best cosine, weight W.
* ``vocabulary_query`` / ``vocabulary_query_avg`` — the dense query is the question with its
  ``jieba`` words that no article of the store holds left out (a vocabulary from the store's
  texts; particles and punctuation kept): its cosine instead of the question's, or the mean of both. BM25
  needs no such filter (a word no article holds has no postings), nor does the second stage
  (bigrams no candidate holds are left out of its denominator).

Keep only what raises train **and** dev. Not a unit test: it takes a few minutes (the pool is
embedded once per question, the sub-queries once more).
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import re
from collections import Counter
from collections.abc import Callable, Sequence, Set
from typing import Any

import numpy as np

from benchmarks.bench_retrieval import KS, STARD, STARD_AS_OF
from verifiers.textsim import pooled_share

CLAUSE = re.compile(r"[,，;；。]")
W_DENSE = 3.0
"""The shipped ``HybridRetriever.prior_dense_weight``."""


def _pooled(query: Set[str], sets: Sequence[Set[str]]) -> np.ndarray:
    """:func:`verifiers.textsim.pooled_share` (the second stage's measure) as an array."""
    return np.array(pooled_share(query, sets))


def clauses(question: str) -> tuple[str, str] | None:
    """(the clauses before the last one, the last one) of a question of 2+ clauses."""
    segs = [s for s in CLAUSE.split(question) if s.strip()]
    return ("，".join(segs[:-1]), segs[-1]) if len(segs) >= 2 else None


def vocabulary_query(question: str, df: Callable[[str], int]) -> str:
    """``question`` without the ``jieba`` words no article holds (``df(word) == 0``, ``df`` the
    store's article count of a BM25 token); what BM25 does not index (particles such as 的,
    punctuation: :func:`~governor.authorities.store.tokenize` gives nothing for it) is kept."""
    import jieba

    from governor.authorities.store import tokenize_cached

    return "".join(t for t in jieba.lcut(question) if not tokenize_cached(t) or df(t) > 0)


def _pool_cosines(
    index: Any, records: dict[str, Any], keys: Sequence[str], qvecs: np.ndarray
) -> np.ndarray:
    """Per article of ``keys``, the cosine of its best unit (article, 款) to each query vector
    (rows: articles, columns: queries)."""
    from governor.retrieval.units import PARA_SEP

    wanted = []
    for key in keys:
        wanted.append(key)
        rec = records[key]
        if rec is not None and len(rec.paragraphs) > 1:
            wanted += [f"{key}{PARA_SEP}{p}" for p in range(1, len(rec.paragraphs) + 1)]
    ids, vecs = index.get_embeddings(wanted)
    best: dict[str, np.ndarray] = {}
    for uid, s in zip(ids, np.clip(vecs @ qvecs.T, 0, 1), strict=True):
        k = uid.split(PARA_SEP, 1)[0]
        best[k] = s if k not in best else np.maximum(best[k], s)
    return np.array([best.get(k, np.zeros(len(qvecs))) for k in keys])


def collect(pool: int = 600) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Per STARD question (every split): its parts over the best ``pool`` articles."""
    from governor.api import Governor
    from governor.authorities.store import load_default_store
    from governor.citations.extract import parse_pin
    from governor.core.config import Config, Thresholds
    from governor.retrieval.embedders import embed_queries
    from verifiers.suggest import instrument_prior, search_query

    store = load_default_store()
    ret: Any = Governor(Config(retrieval="hybrid"), store=store).retriever
    index = ret.index
    gidx = store._global_index()  # the store's vocabulary: a word's article count
    th = Thresholds()
    raw = [json.loads(x) for x in STARD.read_text(encoding="utf-8").splitlines() if x.strip()]
    factors: dict[str, float] = {}
    records: dict[str, Any] = {}
    out: list[dict[str, Any]] = []
    by_split: Counter[str] = Counter(r["split"] for r in raw)
    seen: Counter[str] = Counter()
    for r in raw:
        pos = seen[r["split"]]
        seen[r["split"]] += 1
        gold = set()
        for g in r["gold"]:
            c = parse_pin(g, store)
            if c is not None and c.instrument and c.article:
                gold.add((c.instrument, c.article))
        if not gold:
            continue
        q = search_query(r["question"])
        keys, bm25, searchable = store.global_scores(q, as_of=STARD_AS_OF)
        rows = ret._unit_rows(keys)
        b_max = float(bm25.max()) if len(bm25) else 0.0
        qvec = embed_queries(index.embedder, [q])[0]
        units = np.clip(np.asarray(index.valid_unit_scores(qvec[None, :])[0], float), 0, 1)
        cos = np.zeros(len(keys))
        ok = rows >= 0
        np.maximum.at(cos, rows[ok], units[ok])
        bn = bm25 / b_max if b_max > 0 else np.zeros(len(keys))
        fused = np.where(searchable, bn + W_DENSE * cos, -1.0)
        top = np.argpartition(-fused, pool - 1)[:pool]
        top = top[np.argsort(-fused[top], kind="stable")]
        pkeys = [keys[i] for i in top.tolist()]
        for key in pkeys:
            if key not in records:
                records[key] = store.get(key)
        prior = []
        for key in pkeys:
            title = key.rpartition("#")[0].rpartition("@")[0]
            if title not in factors:
                factors[title] = instrument_prior(
                    store, title, STARD_AS_OF, th.candidate_level_prior, th.candidate_size_prior
                )
            prior.append(factors[title])
        item: dict[str, Any] = {
            "split": r["split"],
            "half": 0 if pos < by_split[r["split"]] // 2 else 1,
            "q": q,
            "gold": gold,
            "keys": pkeys,
            "bn": bn[top],
            "cos": cos[top],
            "prior": np.array(prior),
        }
        parts = clauses(q)
        if parts is not None:
            arr = _pool_cosines(index, records, pkeys, embed_queries(index.embedder, list(parts)))
            item["cos_situation"], item["cos_ask"] = arr[:, 0], arr[:, 1]
        vq = vocabulary_query(q, gidx.df)
        if vq.strip() and vq != q:
            vec = embed_queries(index.embedder, [vq])
            item["cos_vocabulary"] = _pool_cosines(index, records, pkeys, vec)[:, 0]
        out.append(item)
    return out, {"store": store, "records": records}


class Ranker:
    """Re-ranks a collected pool under one variant (shipped defaults = the bench)."""

    def __init__(self, ctx: dict[str, Any]) -> None:
        from governor.authorities.store import tokenize_cached
        from verifiers.textsim import bigrams

        self.store = ctx["store"]
        self.records = ctx["records"]
        self._tok = tokenize_cached
        self._bigrams = bigrams
        self._bg: dict[str, Set[str]] = {}
        self._wd: dict[str, Set[str]] = {}
        self._ww: dict[tuple[str, str], dict[str, float]] = {}

    def bg(self, key: str) -> Set[str]:
        if key not in self._bg:
            self._bg[key] = self._bigrams(self.records[key].text)
        return self._bg[key]

    def wd(self, key: str) -> Set[str]:
        if key not in self._wd:
            self._wd[key] = set(self._tok(self.records[key].text))
        return self._wd[key]

    def instrument_cover(self, q: str, keys: Sequence[str]) -> np.ndarray:
        out = []
        for key in keys:
            title = self.records[key].instrument
            w = self._ww.get((q, title))
            if w is None:
                w = self._ww[(q, title)] = self.store.word_weights(q, title, as_of=STARD_AS_OF)
            total = math.fsum(w.values())
            words = self.wd(key)
            out.append(math.fsum(x for t, x in w.items() if t in words) / total if total else 0.0)
        return np.array(out)

    def rank(
        self,
        item: dict[str, Any],
        *,
        pool: int = 200,
        rerank: int = 100,
        w: float = W_DENSE,
        bigram_w: float = 1.0,
        word_w: float = 0.0,
        concentration: float = 0.0,
        ask: float = 0.0,
        situation: float = 0.0,
        instrument_idf: float = 0.0,
        cos_over_max: bool = False,
        vocabulary: str = "",
    ) -> list[tuple[str, str]]:
        cos = item["cos"]
        if vocabulary and "cos_vocabulary" in item:
            v = item["cos_vocabulary"]
            cos = v if vocabulary == "replace" else (cos + v) / 2
        if cos_over_max:
            cos = cos / max(float(cos.max()), 1e-9)
        if "cos_ask" in item and (ask or situation):
            cos = cos + (ask * item["cos_ask"] + situation * item["cos_situation"]) / W_DENSE
        value = item["bn"] + w * cos
        first = np.argsort(-value, kind="stable")[:pool]  # the shipped pool: before the prior
        keys = [item["keys"][i] for i in first.tolist()]
        prior = item["prior"][first]
        scored = prior * value[first]
        order = np.lexsort((np.arange(len(scored)), -scored))[:rerank]
        top = [keys[i] for i in order.tolist() if self.records.get(keys[i]) is not None]
        keep = [i for i in order.tolist() if self.records.get(keys[i]) is not None]
        s, p = scored[keep].copy(), prior[keep]
        if bigram_w:
            s += p * bigram_w * _pooled(self._bigrams(item["q"]), [self.bg(k) for k in top])
        if word_w:
            s += p * word_w * _pooled(set(self._tok(item["q"])), [self.wd(k) for k in top])
        if instrument_idf:
            s += p * instrument_idf * self.instrument_cover(item["q"], top)
        o = np.lexsort((np.arange(len(s)), -s))
        top, s, p = [top[i] for i in o], s[o], p[o]
        if concentration:
            inst = [self.records[k].instrument for k in top]
            held = Counter(inst[:10])
            s = s + np.array([concentration * p[i] * (held[t] >= 2) for i, t in enumerate(inst)])
            o = np.lexsort((np.arange(len(s)), -s))
            top = [top[i] for i in o]
        return [(self.records[k].instrument, self.records[k].article) for k in top[: max(KS)]]


VARIANTS: dict[str, dict[str, Any]] = {
    "baseline": {},
    "rerank_200": {"rerank": 200},
    "pool300_R300": {"pool": 300, "rerank": 300},
    "words_1.0": {"bigram_w": 0.0, "word_w": 1.0},
    "bigrams_1.0_words_0.5": {"word_w": 0.5},
    "bigrams_0.5_words_0.5": {"bigram_w": 0.5, "word_w": 0.5},
    "concentration_0.1": {"concentration": 0.1},
    "concentration_0.2": {"concentration": 0.2},
    "ask_0.5": {"ask": 0.5},
    "ask_1.0": {"ask": 1.0},
    "situation_0.5": {"situation": 0.5},
    "instrument_idf_0.5": {"instrument_idf": 0.5},
    "instrument_idf_1.0": {"instrument_idf": 1.0},
    "cos_over_max_2": {"cos_over_max": True, "w": 2.0},
    "cos_over_max_3": {"cos_over_max": True, "w": 3.0},
    "vocabulary_query": {"vocabulary": "replace"},
    "vocabulary_query_avg": {"vocabulary": "avg"},
}


def measure(
    items: Sequence[dict[str, Any]], rank: Callable[[dict[str, Any]], list[tuple[str, str]]]
) -> dict[str, Any]:
    """recall@k on train and dev (and dev's halves) of one ranking function."""
    hit: dict[tuple[str, int], Counter[int]] = {}
    for item in items:
        got = rank(item)
        for key in ((item["split"], -1), (item["split"], item["half"])):
            c = hit.setdefault(key, Counter())
            c[0] += 1
            for k in KS:
                c[k] += bool(set(got[:k]) & item["gold"])
    out: dict[str, Any] = {}
    for (split, half), c in sorted(hit.items()):
        name = split if half < 0 else f"{split}_half{half + 1}"
        out[name] = [round(c[k] / c[0], 4) for k in KS]
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pool", type=int, default=600, help="articles kept per question")
    ap.add_argument("--only", nargs="*", help="variant names (default: all)")
    args = ap.parse_args(argv)
    items, ctx = collect(args.pool)
    ranker = Ranker(ctx)
    for name, kw in VARIANTS.items():
        if args.only and name not in args.only:
            continue
        res = measure(items, functools.partial(ranker.rank, **kw))
        print(json.dumps({"variant": name, **res}, ensure_ascii=False), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
