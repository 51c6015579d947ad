"""Queries per second of a shared ``chroma run`` server holding citegov's semantic index.

Starts ``chroma run`` on 127.0.0.1 (a new process, a temporary folder), builds an index of the
bundled store's current articles of ``--instruments`` instruments with the default offline
embedder (USE), then times dense top-10 queries of LawBench 3-8 questions from ``--clients``
threads, each with its own connection (as separate workers would), two ways: the chroma
query alone (query vectors embedded beforehand) and end to end (embed + query). Reports
queries/s per way and client count, and the server's resident memory. Bounded by
``--queries`` per client count.

Usage::

    python -m benchmarks.bench_chroma_server --instruments 40 --queries 400 --clients 1 4
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import chromadb

from benchmarks.datadir import data_path
from benchmarks.lawbench import load_task
from benchmarks.processes import free_port, rss_mb
from governor.authorities import load_default_store
from governor.retrieval.chroma_index import ChromaIndex, building_index
from governor.retrieval.embedders import make_embedder


def main(argv: list[str] | None = None) -> dict[str, object]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--instruments", type=int, default=40)
    ap.add_argument("--queries", type=int, default=400)
    ap.add_argument("--clients", type=int, nargs="+", default=[1, 4])
    args = ap.parse_args(argv)
    exe = shutil.which("chroma", path=os.path.dirname(sys.executable)) or shutil.which("chroma")
    if exe is None:
        raise SystemExit("the chroma CLI is not installed (pip install chromadb)")
    store = load_default_store()
    titles = [t for t in store.titles() if store.articles(t)][: args.instruments]
    arts = [a for t in titles for a in store.articles(t)]
    embedder = make_embedder("use")
    questions = [it.question for it in load_task(data_path("lawbench_dev"), "3-8")]
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.Popen(
            [exe, "run", "--path", tmp, "--host", "127.0.0.1", "--port", str(port)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    chromadb.HttpClient(host="127.0.0.1", port=port).heartbeat()
                    break
                except Exception:
                    if time.monotonic() > deadline:
                        raise SystemExit("chroma server did not start") from None
                    time.sleep(0.2)
            t0 = time.perf_counter()
            vecs = embedder.embed([a.text for a in arts])
            with building_index(Path(tmp) / "unused", embedder, chroma_url=url) as index:
                for s in range(0, len(arts), 1000):
                    index.add_embeddings(
                        [a.key for a in arts[s : s + 1000]],
                        vecs[s : s + 1000],
                        [{"instrument": a.instrument} for a in arts[s : s + 1000]],
                    )
            build_s = time.perf_counter() - t0
            qvecs = embedder.embed(questions)
            results: dict[str, dict[str, float]] = {}
            for clients in args.clients:
                per = max(1, args.queries // clients)

                def dense_only(c: int, per: int = per) -> None:
                    idx = ChromaIndex.connect(url, embedder)
                    for i in range(per):
                        j = (c * per + i) % len(qvecs)
                        idx.query_embeddings(qvecs[j : j + 1], 10)

                def end_to_end(c: int, per: int = per) -> None:
                    idx = ChromaIndex.connect(url, embedder)
                    for i in range(per):
                        idx.query(questions[(c * per + i) % len(questions)], 10)

                for name, fn in (("query", dense_only), ("embed+query", end_to_end)):
                    t0 = time.perf_counter()
                    with ThreadPoolExecutor(max_workers=clients) as pool:
                        list(pool.map(fn, range(clients)))
                    wall = time.perf_counter() - t0
                    results[f"{name}@{clients}"] = {"queries_per_s": round(per * clients / wall, 1)}
            rss = rss_mb(proc.pid)
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=30)
    report: dict[str, object] = {
        "articles_indexed": len(arts),
        "build_seconds": round(build_s, 1),
        "load_avg_1m": os.getloadavg()[0],
        "results": results,
        "server_rss_mb": rss,
    }
    print(json.dumps(report, indent=2))
    return report


if __name__ == "__main__":
    main()
