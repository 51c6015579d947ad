"""Load run of the governing service: latency p50/p95 and throughput of ``POST /v1/govern``
(or ``/v1/verify``) on LawBench 3-8 answers, offline judge.

Starts ``citegov serve`` as a new process on 127.0.0.1 (a free port, a bearer key), waits for
``/healthz``, then (1) sends ``--single`` requests one at a time (the latency of one 3-8
answer), and (2) ``--requests`` requests at ``--concurrency`` with a bounded async httpx
client (a semaphore and a connection limit of the same size; a total time limit), cycling
over the answers. Reports p50/p95/max latency, requests/s, the status-code counts (errors must
be 0) and the server's resident memory after the run. The server is stopped (SIGTERM) at the
end. Loopback only; bounded in count (``--requests``) and time (``--timeout``).

Usage::

    python -m benchmarks.bench_service --requests 500 --concurrency 16 --route govern
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import httpx

from benchmarks.datadir import data_path
from benchmarks.lawbench import draft_text, load_task
from benchmarks.processes import free_port, rss_mb

KEY = "bench-key"


def _pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return round(1000 * s[min(len(s) - 1, int(q * len(s)))], 1)


async def _load(
    url: str, route: str, drafts: list[str], n: int, concurrency: int, timeout: float
) -> tuple[list[float], Counter[int], float]:
    sem = asyncio.Semaphore(concurrency)
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    headers = {"Authorization": f"Bearer {KEY}"}
    lat: list[float] = []
    codes: Counter[int] = Counter()
    async with httpx.AsyncClient(base_url=url, timeout=120, limits=limits, headers=headers) as c:

        async def one(i: int) -> None:
            async with sem:
                t0 = time.perf_counter()
                try:
                    r = await c.post(route, json={"draft": drafts[i % len(drafts)]})
                    codes[r.status_code] += 1
                except httpx.HTTPError:
                    codes[0] += 1
                lat.append(time.perf_counter() - t0)

        t0 = time.perf_counter()
        await asyncio.wait_for(asyncio.gather(*(one(i) for i in range(n))), timeout=timeout)
        wall = time.perf_counter() - t0
    return lat, codes, wall


def main(argv: list[str] | None = None) -> dict[str, object]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=500)
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--single", type=int, default=50)
    ap.add_argument("--route", choices=("govern", "verify"), default="govern")
    ap.add_argument("--timeout", type=float, default=900.0)
    ap.add_argument("--lawbench", type=Path, default=data_path("lawbench_dev"))
    args = ap.parse_args(argv)
    drafts = [draft_text(it) for it in load_task(args.lawbench, "3-8")]
    route = f"/v1/{args.route}"
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("CITEGOV_")}
    env.update({"CITEGOV_API_KEYS": KEY, "CITEGOV_CONFIG": ""})
    cmd = [sys.executable, "-c", "from governor.cli.app import main; main()", "serve"]
    cmd += ["--port", str(port), "--max-concurrency", str(args.concurrency)]
    t_start = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        while True:
            try:
                if httpx.get(url + "/healthz", timeout=2).json().get("status") == "ok":
                    break
            except httpx.HTTPError:
                pass
            if proc.poll() is not None or time.perf_counter() - t_start > 120:
                raise SystemExit("citegov serve did not start")
            time.sleep(0.1)
        ready_s = time.perf_counter() - t_start
        single: list[float] = []
        headers = {"Authorization": f"Bearer {KEY}"}
        with httpx.Client(base_url=url, timeout=120, headers=headers) as c:
            for i in range(args.single):
                t0 = time.perf_counter()
                r = c.post(route, json={"draft": drafts[i % len(drafts)]})
                single.append(time.perf_counter() - t0)
                r.raise_for_status()
        lat, codes, wall = asyncio.run(
            _load(url, route, drafts, args.requests, args.concurrency, args.timeout)
        )
        rss = rss_mb(proc.pid)
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
    report: dict[str, object] = {
        "route": route,
        "cpus": os.cpu_count(),
        "load_avg_1m": os.getloadavg()[0],
        "ready_seconds": round(ready_s, 2),
        "single": {
            "n": len(single),
            "p50_ms": _pct(single, 0.5),
            "p95_ms": _pct(single, 0.95),
            "mean_ms": round(1000 * statistics.mean(single), 1),
        },
        "load": {
            "requests": args.requests,
            "concurrency": args.concurrency,
            "p50_ms": _pct(lat, 0.5),
            "p95_ms": _pct(lat, 0.95),
            "max_ms": _pct(lat, 1.0),
            "requests_per_s": round(args.requests / wall, 2),
            "status": dict(codes),
            "errors": sum(v for k, v in codes.items() if k != 200),
        },
        "server_rss_mb": rss,
    }
    print(json.dumps(report, indent=2))
    return report


if __name__ == "__main__":
    main()
