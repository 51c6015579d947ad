"""Per-call cost of ``Governor.govern`` on real answers, before/after compiling graphs once.

Each measurement is a new process: it builds a :class:`governor.api.Governor` (bundled store,
offline judge), governs one answer to warm caches, then times ``govern(text, strategy=...)``
on each of ``--answers`` LawBench dev answers (task 3-8, real model output) and prints the
median seconds per call. ``--trees`` names source trees (e.g. an exported older commit and this
one); their runs are interleaved ``--repeats`` times and the median and range of the per-run
medians are reported with the load average, so a busy machine shows in the figures.

Run: ``python -m benchmarks.bench_graph_reuse --trees /tmp/before . --answers 60 --repeats 3``
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

_CHILD = r"""
import json, statistics, sys, time
from benchmarks.datadir import data_path
from benchmarks.lawbench import draft_text, load_task
from governor.api import Governor
from governor.core.config import load_config
n, strategy = int(sys.argv[1]), sys.argv[2]
items = load_task(data_path("lawbench_dev"), "3-8")[:n]
texts = [draft_text(it) for it in items]
gov = Governor(load_config(overrides={"as_of": "2024-06-01"}))
gov.govern(texts[0], strategy=strategy)
times = []
for t in texts:
    t0 = time.perf_counter()
    gov.govern(t, strategy=strategy)
    times.append(time.perf_counter() - t0)
print(json.dumps({"median_s": statistics.median(times), "chars": sum(map(len, texts))}))
"""


def _run(tree: Path, n: int, strategy: str) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(tree.resolve())}
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, str(n), strategy],
        capture_output=True,
        text=True,
        check=True,
        env=env,
        cwd=str(tree),
    )
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def main(argv: list[str] | None = None) -> dict[str, list[float]]:
    """Measure and print; returns the per-run medians (seconds per call) keyed by tree."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trees", type=Path, nargs="+", default=[Path(".")])
    ap.add_argument("--answers", type=int, default=60)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--strategy", default="efa")
    args = ap.parse_args(argv)
    runs: dict[str, list[float]] = {str(t): [] for t in args.trees}
    loads = []
    for _ in range(args.repeats):
        for tree in args.trees:  # interleaved: tree A, tree B, tree A, ...
            loads.append(os.getloadavg()[0])
            runs[str(tree)].append(_run(tree, args.answers, args.strategy)["median_s"])
    for tree, meds in runs.items():
        print(
            f"{tree}: govern({args.strategy}) median {statistics.median(meds) * 1000:.1f} ms/call "
            f"(range {min(meds) * 1000:.1f}–{max(meds) * 1000:.1f}; {args.answers} answers × "
            f"{args.repeats} runs)"
        )
    print(f"load average (1 min) during runs: {min(loads):.2f}–{max(loads):.2f}")
    return runs


if __name__ == "__main__":
    main()
