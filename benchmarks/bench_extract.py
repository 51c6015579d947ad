"""Extraction speed (SPEC §9): MB/s of Chinese report text per core, and eyecite on English
text of the same size, measured in one run.

Chinese input: the LawBench 3-8 answers (``prediction`` of the three models in
``../shared/data/lawbench_dev``), repeated up to ``--mb`` megabytes (UTF-8 bytes); timed one
answer per call (the real use) and as one concatenated string. English input: seeded documents
of US-style legal sentences with reporter, statute, Id. and supra citations, each the average
size of a Chinese answer, the same total size; timed one document per call (eyecite's time
grows faster than linearly with document length, so one multi-MB string is not a fair test).
All timings are ``time.process_time`` (CPU seconds of this process: one core), best of
``--repeat`` runs, after a warm-up.

Run: ``python -m benchmarks.bench_extract [--mb 3] [--repeat 3] [--data DIR]``.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.datadir import data_path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = data_path("lawbench_dev")
MODELS = ("GPT-3.5-turbo-0613", "qwen-7b-chat-hf", "chatglm2-6b-hf")

_EN_SENTENCES = (
    "In Bush v. Gore, 531 U.S. 98, 100 (2000), the Court held that the recount violated the "
    "Equal Protection Clause.",
    "Id. at 104.",
    "The plaintiff sued under 42 U.S.C. § 1983 for deprivation of civil rights.",
    "See Miranda v. Arizona, 384 U.S. 436, 444 (1966) (holding that statements are "
    "inadmissible absent warnings).",
    "The court of appeals affirmed. Roe v. Wade, 410 U.S. 113 (1973).",
    "Bush, supra, at 102.",
    "Under 28 U.S.C. § 1331, district courts have original jurisdiction of federal questions.",
    "The parties dispute whether the contract was formed before the deadline.",
    "Summary judgment is appropriate where there is no genuine dispute as to any material fact.",
    "See Celotex Corp. v. Catrett, 477 U.S. 317, 322 (1986).",
    "The district court denied the motion, and the defendant timely appealed.",
    "Cf. Anderson v. Liberty Lobby, Inc., 477 U.S. 242, 248 (1986).",
    "We review the district court's legal conclusions de novo and its findings for clear error.",
    "United States v. Booker, 543 U.S. 220 (2005), rendered the Guidelines advisory.",
    "The statute of limitations is four years. 15 U.S.C. § 15b.",
    "Nothing in the record suggests that the agency considered the alternative.",
)


def chinese_docs(data: Path, megabytes: float) -> list[str]:
    """LawBench 3-8 answers (one document each), repeated until they total ``megabytes``."""
    answers: list[str] = []
    for model in MODELS:
        path = data / f"{model}_zero_shot_3-8.json"
        rows: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        answers += [rows[k]["prediction"] for k in sorted(rows, key=int)]
    answers = [a for a in answers if a.strip()]
    target = int(megabytes * 1_000_000)
    out: list[str] = []
    size = 0
    while size < target:
        for a in answers:
            out.append(a)
            size += len(a.encode())
            if size >= target:
                break
    return out


def english_docs(target_bytes: int, doc_bytes: int, seed: int = 0) -> list[str]:
    """Seeded documents of US legal prose with citations, each about ``doc_bytes`` long,
    ``target_bytes`` in total."""
    rng = random.Random(seed)
    docs: list[str] = []
    size = 0
    while size < target_bytes:
        sentences: list[str] = []
        n = 0
        while n < doc_bytes:
            sentences.append(rng.choice(_EN_SENTENCES))
            n += len(sentences[-1]) + 1
        doc = " ".join(sentences)
        docs.append(doc)
        size += len(doc.encode())
    return docs


def _cut_to_bytes(text: str, target: int) -> str:
    raw = text.encode()[:target]
    return raw.decode("utf-8", errors="ignore")


def best_seconds(fn: Callable[[], object], repeat: int) -> float:
    """Minimum CPU seconds of ``fn`` over ``repeat`` runs."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return best


def main(argv: list[str] | None = None) -> dict[str, float]:
    """Run the benchmark and print a table; returns the numbers (MB/s, ratios)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=float, default=3.0, help="input size in MB (UTF-8 bytes)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per measurement (best kept)")
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA, help="lawbench_dev folder")
    args = ap.parse_args(argv)

    from eyecite import get_citations, resolve_citations

    from governor.authorities import load_default_store
    from governor.citations.extract import extract

    t0 = time.perf_counter()
    store = load_default_store()
    load_s = time.perf_counter() - t0
    zh_docs = chinese_docs(args.data, args.mb)
    zh = "\n\n".join(zh_docs)
    zh_mb = sum(len(d.encode()) for d in zh_docs) / 1e6
    avg = int(zh_mb * 1e6 / len(zh_docs))
    en_docs = english_docs(int(zh_mb * 1e6), avg)
    en_mb = sum(len(d.encode()) for d in en_docs) / 1e6

    extract(zh[:20_000], store)  # warm-up: alias index, regex caches
    resolve_citations(get_citations(en_docs[0]))  # warm-up: eyecite tokenizer build

    n_zh = sum(len(extract(d, store, us=False)) for d in zh_docs)
    zh_s = best_seconds(lambda: [extract(d, store, us=False) for d in zh_docs], args.repeat)
    zh_concat_s = best_seconds(lambda: extract(zh, store, us=False), args.repeat)
    n_en = sum(len(get_citations(d)) for d in en_docs)
    eyecite_s = best_seconds(
        lambda: [resolve_citations(get_citations(d)) for d in en_docs], args.repeat
    )
    en_s = best_seconds(lambda: [extract(d, store, us=True) for d in en_docs], args.repeat)

    out = {
        "zh_mb": zh_mb,
        "zh_docs": float(len(zh_docs)),
        "zh_citations": float(n_zh),
        "zh_mb_per_s": zh_mb / zh_s,
        "zh_concat_mb_per_s": zh_mb / zh_concat_s,
        "en_mb": en_mb,
        "en_citations": float(n_en),
        "eyecite_mb_per_s": en_mb / eyecite_s,
        "extract_en_mb_per_s": en_mb / en_s,
        "ratio_zh_over_eyecite": (zh_mb / zh_s) / (en_mb / eyecite_s),
        "store_load_s": load_s,
    }
    print(f"store load (wall)                  {load_s:8.2f} s")
    print(
        f"Chinese extract, per answer        {zh_mb:6.2f} MB {len(zh_docs):6d} docs "
        f"{n_zh:7d} cites {out['zh_mb_per_s']:7.2f} MB/s"
    )
    print(
        f"Chinese extract, one concatenation {zh_mb:6.2f} MB {1:6d} doc  "
        f"{'':13}{out['zh_concat_mb_per_s']:7.2f} MB/s"
    )
    print(
        f"English eyecite get+resolve        {en_mb:6.2f} MB {len(en_docs):6d} docs "
        f"{n_en:7d} cites {out['eyecite_mb_per_s']:7.2f} MB/s"
    )
    print(
        f"English extract(us=True)           {en_mb:6.2f} MB {len(en_docs):6d} docs "
        f"{'':13}{out['extract_en_mb_per_s']:7.2f} MB/s"
    )
    print(f"ratio Chinese / eyecite (per doc)  {out['ratio_zh_over_eyecite']:8.1f} x")
    print(
        f"CPU seconds of one process (one core), best of {args.repeat} runs; target >= 5 MB/s."
        " eyecite is superlinear in document length, so both sides run per document."
    )
    return out


if __name__ == "__main__":
    main()
