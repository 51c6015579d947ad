"""Batch revision wall time: ``citegov revise --engine local`` (1 and N workers) vs
``--engine ray`` (N actors) on LawBench 3-8 answers, and peak memory per worker.

Each run is a new ``citegov revise`` process (store loading, Ray start-up and actor start-up
included: what a user waits for), into a fresh output folder; the configurations are
interleaved round by round and the median per configuration is reported. Memory: the largest
resident set (VmRSS, sampled every 0.2 s from /proc) of any worker process of the run (the
spawned local workers, or the Ray actors) and of the driver.

Usage::

    python -m benchmarks.bench_ray --answers 500 --workers 2 --rounds 1

Prints one JSON object. Numbers depend on the machine's load: state it beside them.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from benchmarks.datadir import data_path
from benchmarks.lawbench import export_drafts, load_task

AS_OF = "2026-11-01"


def _rss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _descendants(root: int) -> list[int]:
    """Pids of every process below ``root`` (from /proc/*/stat parent pids)."""
    parent: dict[int, int] = {}
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            stat = (proc / "stat").read_text()
        except OSError:
            continue
        parent[int(proc.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    out: list[int] = []
    todo = [root]
    while todo:
        p = todo.pop()
        kids = [c for c, pp in parent.items() if pp == p]
        out += kids
        todo += kids
    return out


def _worker_pids(driver: int) -> list[int]:
    """The run's worker processes: spawned local workers or Ray actors, below ``driver``."""
    out = []
    for pid in _descendants(driver):
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"_GovernActor" in cmd or b"multiprocessing" in cmd:
            out.append(pid)
    return out


def run_once(src: Path, out: Path, engine: str, workers: int) -> dict[str, float]:
    """One ``citegov revise`` process; wall seconds and peak RSS (MB) of driver and workers."""
    shutil.rmtree(out, ignore_errors=True)
    cmd = [sys.executable, "-c", "from governor.cli.app import main; main()", "revise"]
    cmd += [str(src), "--out", str(out), "--as-of", AS_OF, "-q", "--engine", engine]
    cmd += ["--workers", str(workers)]
    peak = {"driver": 0, "worker": 0}
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            peak["driver"] = max(peak["driver"], _rss_kb(proc.pid))
            for pid in _worker_pids(proc.pid):
                peak["worker"] = max(peak["worker"], _rss_kb(pid))
            time.sleep(0.2)

    t = threading.Thread(target=sample, daemon=True)
    t.start()
    _, err = proc.communicate()
    wall = time.perf_counter() - t0
    done.set()
    t.join()
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{engine}/{workers} failed ({proc.returncode}): {err.decode()[-2000:]}")
    return {
        "seconds": round(wall, 2),
        "driver_mb": round(peak["driver"] / 1024, 1),
        "worker_mb": round(peak["worker"] / 1024, 1),
    }


def main(argv: list[str] | None = None) -> dict[str, object]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--answers", type=int, default=500)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--lawbench", type=Path, default=data_path("lawbench_dev"))
    args = ap.parse_args(argv)
    configs = [("local", 1), ("local", args.workers), ("ray", args.workers)]
    results: dict[str, list[dict[str, float]]] = {f"{e}-{w}": [] for e, w in configs}
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "src"
        src.mkdir()
        export_drafts(load_task(args.lawbench, "3-8")[: args.answers], src)
        for _ in range(args.rounds):
            for engine, workers in configs:
                res = run_once(src, Path(tmp) / "out", engine, workers)
                results[f"{engine}-{workers}"].append(res)
                print(engine, workers, res, file=sys.stderr, flush=True)
    med = {k: {m: statistics.median(r[m] for r in v) for m in v[0]} for k, v in results.items()}
    one = med["local-1"]["seconds"]
    report: dict[str, object] = {
        "answers": args.answers,
        "cpus": os.cpu_count(),
        "load_avg_1m": os.getloadavg()[0],
        "rounds": args.rounds,
        "median": med,
        "drafts_per_s": {k: round(args.answers / v["seconds"], 2) for k, v in med.items()},
        "speedup_vs_local_1": {k: round(one / v["seconds"], 2) for k, v in med.items()},
    }
    print(json.dumps(report, indent=2))
    return report


if __name__ == "__main__":
    main()
