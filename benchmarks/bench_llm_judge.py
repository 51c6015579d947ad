"""LLM judge throughput end to end (issue 16 item 5, SPEC §9: ≤ 0.2 judge calls per citation,
calls concurrent and batched across documents, zero on a cached rerun).

What it runs: the scripted OpenAI-wire server of the tests (``tests/fakes/openai_server.py``)
on 127.0.0.1 with a fixed **latency** per completion (default 0.5 s, a model's generation
time), counting tokens with citegov's rule (:mod:`governor.clients.tokens`); then
``citegov verify DRAFTS --judge llm --json`` in a **new process** on the first ``--answers``
LawBench 3-8 answers (file order: the first model's answers 0..N-1), with a fresh response
cache per run, at ``llm_concurrency`` = ``--concurrency`` and at 1 (interleaved, median of
``--runs``), then ``--dry-run`` once and a cached rerun once.

The scripted judge answers like a real one is asked to (prompt rules 3-5): per item, labels
``faithful``/``supports``, the source's first sentence (at most 60 characters) as the quote
and a one-sentence rationale. Its verdicts are not the point: only calls, tokens and time are.

Reported: calls; citations extracted and citations sent to the judge; calls per citation;
prompt/completion/cached tokens per citation sent; the dry run's token count against the
server's (prompt exact by construction of the shared rule; completion an ESTIMATE per item);
the wall time the calls add to the run (the judge's ``judge_waited_s``: waiting for answers
after its last offline check; the calls sent before overlap the checks) against the sum of the
calls' latencies and the bound ``slowest call × ceil(calls / concurrency)``; the judge window (first request to last answer, from the
server's timings); the peak number of calls in flight; the CLI's wall time.

Run: ``python -m benchmarks.bench_llm_judge [--answers 50] [--latency 0.5] [--runs 3]
[--concurrency 4] [--batch-size 8] [--out benchmarks/RESULTS.md]``. The table replaces the
section between the ``bench_llm_judge`` markers of ``--out`` (appended when absent), which
``benchmarks/bench_all.py`` keeps when it rewrites the file.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchmarks.datadir import data_path

ROOT = Path(__file__).resolve().parents[1]
LAUNCH = "import sys; from governor.cli.app import main; sys.argv[0] = 'citegov'; main()"
BEGIN = "<!-- bench_llm_judge -->"
END = "<!-- /bench_llm_judge -->"
_ITEM = re.compile(
    r"【引证 (?P<id>c\d+)】.*?<<<SOURCE (?P=id)\n(?P<source>.*?)\nSOURCE (?P=id)>>>", re.S
)
_USAGE = re.compile(r"llm usage: (.*)")
RATIONALE = "报告陈述与条文原文一致，条文内容支持报告在此处的主张。"


def scripted_judge(req: Any) -> dict[str, Any]:
    """A judge's answer to one request: every item passes, quoting its source's first
    sentence (≤ 60 characters), with a one-sentence rationale."""
    user = req.messages[-1]["content"] if req.messages else ""
    items = []
    for m in _ITEM.finditer(user):
        quote = re.split(r"[。；\n]", m.group("source").strip())[0][:60]
        ans = {"label": "faithful", "quote": quote, "rationale": RATIONALE}
        items.append(
            {
                "id": m.group("id"),
                "fidelity": ans,
                "applicability": {**ans, "label": "supports"},
            }
        )
    return {"items": items}


@dataclass
class Run:
    """One ``citegov verify`` process against the server."""

    concurrency: int
    wall: float
    code: int
    calls: int
    items_sent: int
    citations: int
    prompt: int
    completion: int
    cached: int
    window: float
    latency_sum: float
    slowest: float
    peak: int
    usage: dict[str, str]


def parse_usage(stderr: str) -> dict[str, str]:
    """The ``llm usage: k v, k v`` line citegov prints, as a mapping."""
    m = _USAGE.search(stderr)
    if not m:
        return {}
    return dict(part.strip().split(" ", 1) for part in m.group(1).split(",") if " " in part.strip())


def run_verify(
    server: Any,
    drafts: Path,
    work: Path,
    *,
    concurrency: int,
    batch_size: int,
    tag: str,
    dry_run: bool = False,
    cache: Path | None = None,
) -> Run:
    """``citegov verify DRAFTS --judge llm --json`` in a new process; the server's records of
    the requests it made."""
    cache = cache or work / f"cache-{tag}"
    conf = work / f"citegov-{tag}.toml"
    conf.write_text(
        f'cache_dir = "{cache}"\nllm_concurrency = {concurrency}\nllm_batch_size = {batch_size}\n'
        f'llm_base_url = "{server.base_url}"\nllm_model = "gpt-4o-mini"\n',
        encoding="utf-8",
    )
    env = dict(
        os.environ,
        PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
        CITEGOV_CONFIG=str(conf),
        OPENAI_API_KEY="local-fake-key",
    )
    argv = [sys.executable, "-c", LAUNCH, "verify", str(drafts), "--judge", "llm", "--json"]
    if dry_run:
        argv.append("--dry-run")
    n0, t0, u0 = len(server.completions), len(server.timings), len(server.usages)
    server.peak_in_flight = 0
    start = time.perf_counter()
    res = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    sent = server.completions[n0:]
    timings = server.timings[t0:]
    usages = server.usages[u0:]
    citations = sum(
        len(json.loads(line).get("citations", []))
        for line in res.stdout.splitlines()
        if line.startswith("{")
    )
    lat = [b - a for a, b in timings]
    return Run(
        concurrency=concurrency,
        wall=wall,
        code=res.returncode,
        calls=len(sent),
        items_sent=sum(len(_ITEM.findall(r.messages[-1]["content"])) for r in sent),
        citations=citations,
        prompt=sum(u["prompt_tokens"] for u in usages),
        completion=sum(u["completion_tokens"] for u in usages),
        cached=sum(u["prompt_tokens_details"]["cached_tokens"] for u in usages),
        window=(max(b for _, b in timings) - min(a for a, _ in timings)) if timings else 0.0,
        latency_sum=sum(lat),
        slowest=max(lat, default=0.0),
        peak=server.peak_in_flight,
        usage=parse_usage(res.stderr),
    )


def _med(values: list[float], fmt: str = "{:.2f}") -> str:
    if not values:
        return "–"
    return (
        fmt.format(statistics.median(values))
        + " ("
        + fmt.format(min(values))
        + "–"
        + fmt.format(max(values))
        + ")"
    )


def write_section(out: Path, md: str) -> None:
    """Replace the marked section of ``out`` by ``md`` (append it when absent)."""
    block = f"{BEGIN}\n{md.rstrip()}\n{END}\n"
    old = out.read_text(encoding="utf-8") if out.exists() else ""
    if BEGIN in old and END in old:
        head, rest = old.split(BEGIN, 1)
        new = head + block + rest.split(END, 1)[1].lstrip("\n")
    else:
        new = old.rstrip("\n") + ("\n\n" if old else "") + block
    out.write_text(new, encoding="utf-8")


def main(argv: list[str] | None = None) -> str:
    """Run the benchmark, print the markdown and write it into ``--out``."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--answers", type=int, default=50, help="first N LawBench 3-8 answers")
    ap.add_argument("--latency", type=float, default=0.5, help="seconds per completion")
    ap.add_argument("--runs", type=int, default=3, help="interleaved runs per concurrency")
    ap.add_argument("--concurrency", type=int, default=4)
    ap.add_argument("--batch-size", type=int, default=8)
    ap.add_argument("--lawbench", type=Path, default=data_path("lawbench_dev"))
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "RESULTS.md")
    args = ap.parse_args(argv)

    sys.path.insert(0, str(ROOT))
    from benchmarks.lawbench import export_drafts, load_task
    from governor.clients.tokens import count_tokens, tokenizer_name
    from tests.fakes.openai_server import FakeOpenAIServer

    count_tokens("warm-up")  # the server's tokenizer loads once, before any timed call

    items = load_task(args.lawbench, "3-8")[: args.answers]
    work = Path(tempfile.mkdtemp(prefix="citegov-bench-llm-"))
    try:
        drafts = work / "drafts"
        export_drafts(items, drafts)
        chars = sum(len(p.read_text(encoding="utf-8")) for p in drafts.iterdir())
        with FakeOpenAIServer(default=scripted_judge, latency=args.latency) as server:
            # (concurrency, latency): the pool, and one call at a time
            setups = [(args.concurrency, args.latency), (1, args.latency)]
            runs: dict[tuple[int, float], list[Run]] = {k: [] for k in setups}
            loads: list[float] = []
            n = 0
            for _ in range(args.runs):
                for conc, lat in setups:
                    server.latency = lat
                    loads.append(os.getloadavg()[0])
                    r = run_verify(
                        server, drafts, work, concurrency=conc, batch_size=args.batch_size,
                        tag=f"r{n}",
                    )  # fmt: skip
                    n += 1
                    runs[conc, lat].append(r)
            server.latency = args.latency
            dry = run_verify(
                server, drafts, work, concurrency=args.concurrency, batch_size=args.batch_size,
                tag="dry", dry_run=True,
            )  # fmt: skip
            rerun = run_verify(
                server, drafts, work, concurrency=args.concurrency, batch_size=args.batch_size,
                tag="rerun", cache=work / "cache-r0",
            )  # fmt: skip
        main_runs, seq_runs = runs[setups[0]], runs[setups[1]]
        r0 = main_runs[0]
        failed = [r.code for rs in runs.values() for r in rs if r.code not in (0, 1)]
        # what waiting for the model adds to the run: the judge's own clock of the wait after
        # its last offline check (the calls before it overlap the checks)
        added = [float(r.usage.get("judge_waited_s", "nan")) for r in main_runs]
        added_seq = [float(r.usage.get("judge_waited_s", "nan")) for r in seq_runs]
        sent = r0.items_sent or 1
        dry_prompt = int(dry.usage.get("estimated_prompt_tokens", 0))
        dry_total = int(dry.usage.get("estimated_tokens", 0))
        server_total = r0.prompt + r0.completion
        bound = [r.slowest * math.ceil(r.calls / r.concurrency) for r in main_runs]
        stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
        lines = [
            f"### LLM judge throughput ({stamp}, {os.cpu_count()} cores; "
            f"`python -m benchmarks.bench_llm_judge --answers {args.answers} --latency "
            f"{args.latency:g} --runs {args.runs}`)",
            "",
            f"{len(items)} LawBench 3-8 answers ({chars:,} characters; the first model's answers "
            f"in file order), `citegov verify DRAFTS --judge llm --json` in a new process against "
            f"the fake OpenAI server on 127.0.0.1 with {args.latency:g} s per completion; "
            f"batch size {args.batch_size}; tokens counted by `{tokenizer_name()}`; load average "
            f"{_med(loads, '{:.1f}')}.",
            "",
            "| figure | measured | target |",
            "|---|---|---|",
            f"| judge calls | {r0.calls} (before, per-document batches: 29, issue 16) | – |",
            f"| citations extracted / sent to the judge | {r0.citations} / {r0.items_sent} "
            f"(the rest: decided offline — existence failures, deterministic mismatches, "
            f"nothing stated) | – |",
            f"| calls per citation extracted · per citation sent | "
            f"{r0.calls / max(1, r0.citations):.3f} · {r0.calls / sent:.3f} | ≤ 0.2 |",
            f"| citations per call | {r0.items_sent / max(1, r0.calls):.2f} (before: 1.55) | "
            f"≤ {args.batch_size} |",
            f"| prompt tokens per citation sent | {r0.prompt / sent:.0f} (of which cached "
            f"prefix {r0.cached / sent:.0f}: {r0.cached / max(1, r0.prompt):.0%} of prompt "
            f"tokens) | – |",
            f"| completion tokens per citation sent | {r0.completion / sent:.0f} | – |",
            f"| `--dry-run` vs server tokens | prompt {dry_prompt:,} vs {r0.prompt:,} "
            f"({(dry_prompt - r0.prompt) / max(1, r0.prompt):+.1%}); total {dry_total:,} vs "
            f"{server_total:,} ({(dry_total - server_total) / max(1, server_total):+.1%}); "
            f"calls {dry.usage.get('dry_run_calls', '?')} vs {r0.calls} | within 10 % |",
            f"| sum of call latencies · bound slowest × ceil(calls/{args.concurrency}) | "
            f"{_med([r.latency_sum for r in main_runs])} s · {_med(bound)} s · peak in flight "
            f"{max(r.peak for r in main_runs)} | – |",
            f"| wall time the calls add (waiting for answers after the last offline check, "
            f"`judge_waited_s`), concurrency {args.concurrency} | {_med(added)} s | ≤ bound, "
            f"not the sum |",
            f"| the same, concurrency 1 | {_med(added_seq)} s | – |",
            f"| judge window (first request → last answer), concurrency {args.concurrency} / 1 | "
            f"{_med([r.window for r in main_runs])} s / {_med([r.window for r in seq_runs])} s "
            f"(calls start while later items are still checked offline, so the window spans "
            f"those checks) | – |",
            f"| CLI wall, concurrency {args.concurrency} / 1 | "
            f"{_med([r.wall for r in main_runs])} s / {_med([r.wall for r in seq_runs])} s "
            f"(start-up, extraction and offline checks included; noisy under load) | – |",
            f"| cached rerun | {rerun.calls} calls, "
            f"{rerun.usage.get('cache_hits', '?')} cache hits | 0 calls |",
            "",
            "Dry-run prompt tokens use the server's own rule (`governor/clients/tokens.py`), so "
            "they match by construction when the exact tokenizer is installed; its completion "
            "tokens are an ESTIMATE (150 per citation + 10 per call, "
            "`verifiers/llm_judge.py` EXPECTED_TOKENS_*), compared here with the scripted "
            "judge's one-sentence answers, not a real model's. Cached tokens: the fake server "
            "counts leading messages identical to an earlier request's (message-level prefix; "
            "providers cache 128-token blocks past 1,024 tokens)."
            + (f" {len(failed)} run(s) exited with an error: {failed}." if failed else ""),
        ]
        md = "\n".join(lines) + "\n"
        args.out.parent.mkdir(parents=True, exist_ok=True)
        write_section(args.out, md)
        print(md)
        return md
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
