"""Speed and memory of offline governance against the SPEC §9 targets, measured in one run.

Targets: ``efa`` on a 10,000-character report with 40 citations ≤ 1 s warm and ≤ 5 s cold
(cold = a fresh process, including loading the bundled store); LawBench 3-8 (500 answers)
governed offline in ≤ 60 s; peak RSS ≤ 1.5 GB with the full store.

The end-to-end figures (CLI in a new process, interleaved runs, medians, load average) are
``python -m benchmarks.bench_all``; this script is the in-process breakdown.

Run: ``python -m benchmarks.bench_govern [--answers 500] [--lawbench DIR]``. Prints each
figure with its target and the ratio figure/target (≤ 1 meets it). The report is built from
the perturbation suite (real provisions, injected errors) so every repair path runs.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from pathlib import Path

from benchmarks.datadir import data_path

TARGETS = {"efa_warm_s": 1.0, "efa_cold_s": 5.0, "lawbench_500_s": 60.0, "peak_rss_mb": 1536.0}


def build_report(lawbench: Path, chars: int = 10_000, citations: int = 40, seed: int = 0) -> str:
    """A ≈``chars``-character report with ≈``citations`` citations.

    Sections of the perturbation suite (real provisions, injected errors) are taken until
    ``citations`` is reached; citation-free narrative (LawBench 3-8 questions, real user text)
    pads it to ``chars``, so the citation density is that of a long research report.
    """
    from benchmarks.lawbench import load_task
    from benchmarks.perturb import generate_suite
    from governor.authorities import load_default_store
    from governor.citations.extract import extract

    store = load_default_store()
    sections: list[str] = []
    for rep in generate_suite(store, n_reports=20, seed=seed):
        for sec in rep.text.split("\n## ")[1:]:
            if len(extract("\n## ".join([*sections, sec]), store)) > citations:
                break
            sections.append(sec)
    text = "## " + "\n## ".join(sections)
    fillers = [it.question for it in load_task(lawbench, "3-8")] if lawbench.is_dir() else []
    i = 0
    while len(text) < chars and i < len(fillers):
        if not extract(fillers[i], store):
            text += "\n\n" + fillers[i]
        i += 1
    return text


def _cold(path: Path) -> float:
    """Wall seconds of a new process that governs ``path`` with ``efa``, timed from outside
    (interpreter start-up, imports and store loading included)."""
    from benchmarks.bench_all import timed

    code = (
        "import sys;from governor.api import Governor;"
        "Governor().govern(open(sys.argv[1],encoding='utf-8').read(),strategy='efa')"
    )
    wall, _cpu, _rss, code_ = timed([sys.executable, "-c", code, str(path)], dict(os.environ))
    if code_ != 0:
        raise RuntimeError(f"the cold run exited with {code_}")
    return wall


def main(argv: list[str] | None = None) -> dict[str, float]:
    """Measure and print the figures; returns them keyed like :data:`TARGETS`."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--answers", type=int, default=500)
    ap.add_argument("--lawbench", type=Path, default=data_path("lawbench_dev"))
    args = ap.parse_args(argv)

    from benchmarks.lawbench import draft_text, load_task
    from governor.api import Governor

    text = build_report(args.lawbench)
    tmp = Path("/tmp/citegov_bench_report.md")
    tmp.write_text(text, encoding="utf-8")
    figures: dict[str, float] = {}
    figures["efa_cold_s"] = _cold(tmp)

    gov = Governor()
    n_cites = len(gov.extract(text))
    gov.govern(text, strategy="efa")  # warm-up: store, jieba, BM25 indexes
    t = time.perf_counter()
    gov.govern(text, strategy="efa")
    figures["efa_warm_s"] = time.perf_counter() - t

    if args.lawbench.is_dir():
        items = [it for it in load_task(args.lawbench, "3-8")][: args.answers]
        t = time.perf_counter()
        for it in items:
            gov.govern(draft_text(it), strategy="efa")
        figures["lawbench_500_s"] = (time.perf_counter() - t) * 500 / max(1, len(items))
    figures["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    print(f"report: {len(text):,} characters, {n_cites} citations")
    for k, v in figures.items():
        print(f"{k:16s} {v:9.2f}   target {TARGETS[k]:8.1f}   ratio {v / TARGETS[k]:.2f}")
    print(json.dumps(figures))
    return figures


if __name__ == "__main__":
    main()
