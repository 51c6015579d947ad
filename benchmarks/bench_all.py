"""citegov's speed and memory end to end, as a user runs it (issue 16, SPEC §9).

Every figure times the ``citegov`` command line in a **new process** (start-up, imports and
store loading included), from outside, with the operating system's accounting of the child
(``os.wait4``: user and system CPU, peak RSS). Compared commands are **interleaved** (A B A B
…) so a drift in machine load hits both; each figure is the **median** of its runs with the
**range** (min–max) and the **load average** (1 min) seen around the runs. Inputs are built
from real model answers (LawBench 3-8, ``lawbench_dev``); sizes are counted in characters
(not UTF-8 bytes) and citations.

Figures (targets from SPEC §9 / issue 16, shown beside each figure, never asserted):

* ``cold verify``: ``citegov verify REPORT`` on a ≈10,000-character report (≤ 2.5 s);
* ``cold revise efa``: ``citegov revise REPORT --strategy efa --out DIR`` (≤ 3 s);
* ``warm efa``: ``Governor.govern(report, strategy="efa")`` after one warm-up run, in one
  process (the only in-process figure; ≤ 0.3 s);
* ``batch w1`` / ``batch w2``: ``citegov revise DRAFTS/ --out DIR --workers N`` on the first
  ``--answers`` 3-8 answers (≤ 25 s at 1 worker; w1/w2 ≥ 1.7);
* ``index``: whether hybrid retrieval works without a build (the prebuilt vectors shipped in
  ``governor/data`` fit the bundled store), an estimate of ``citegov index build`` and its
  time when ``--index-build`` is given (≤ 3 min);
* peak RSS of each command (≤ 1.5 GB);
* the LLM judge's calls and tokens per citation and its wall time against a local fake
  endpoint with 0.5 s latency (:mod:`benchmarks.bench_llm_judge`; its own section of the
  output file, skipped with ``--skip-llm``).

It replaces ``bench_govern.py`` (a cold timer started inside Python, one synthetic report).
Extraction speed per character against eyecite is ``benchmarks/bench_extract.py``.

Run: ``python -m benchmarks.bench_all [--runs 5] [--batch-runs 3] [--answers 500]
[--out benchmarks/RESULTS.md] [--skip-llm]``. The machine is shared: quote the load average with every
figure and treat figures taken under load as noisy.
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
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from benchmarks.datadir import data_path

ROOT = Path(__file__).resolve().parents[1]
LAUNCH = "import sys; from governor.cli.app import main; sys.argv[0] = 'citegov'; main()"
"""What the ``citegov`` console script runs (``governor.cli.app:main``), so the benchmark
needs no installed script and always times this checkout."""


@dataclass
class Runs:
    """The runs of one command: wall and CPU seconds, peak RSS (MiB), load averages."""

    name: str
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    rss_mb: list[float] = field(default_factory=list)
    load: list[float] = field(default_factory=list)
    failures: int = 0

    def add(self, wall: float, cpu: float, rss_mb: float, load: float) -> None:
        self.wall.append(wall)
        self.cpu.append(cpu)
        self.rss_mb.append(rss_mb)
        self.load.append(load)


def become_subreaper() -> bool:
    """Linux: adopt orphaned descendants (``PR_SET_CHILD_SUBREAPER``), so a batch's fork
    server and its workers, which outlive ``citegov``'s own wait, are reaped here and their
    CPU and memory counted. Returns False where the call is not available."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(36, 1, 0, 0, 0) == 0)  # 36 = PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        return False


def timed(argv: Sequence[str], env: dict[str, str]) -> tuple[float, float, float, int]:
    """Run ``argv`` to completion: ``(wall s, user+sys CPU s, peak RSS MiB, exit code)``.

    Output is discarded; the figures are the kernel's accounting of the reaped child and of
    any descendant adopted after it exits (see :func:`become_subreaper`; waited up to 10 s).
    """
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        list(argv), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    _pid, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    cpu, rss = usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            pid, _st, more = os.wait4(-1, os.WNOHANG)
        except ChildProcessError:
            break
        if pid == 0:
            time.sleep(0.02)
            continue
        cpu += more.ru_utime + more.ru_stime
        rss = max(rss, more.ru_maxrss / 1024)
    return wall, cpu, rss, proc.returncode


def interleave(
    commands: dict[str, Callable[[], list[str]]], runs: int, env: dict[str, str], warmup: int = 1
) -> dict[str, Runs]:
    """Run each command ``warmup`` times (not counted), then ``runs`` rounds A B A B …;
    ``commands`` map a name to a factory of argv (called per run, e.g. for a fresh out dir)."""
    out = {name: Runs(name) for name in commands}
    for _ in range(warmup):
        for make in commands.values():
            timed(make(), env)
    for _ in range(runs):
        for name, make in commands.items():
            load = os.getloadavg()[0]
            wall, cpu, rss, code = timed(make(), env)
            if code not in (0, 1):  # 1 = --fail-on crossed / low trust: still a full run
                out[name].failures += 1
            out[name].add(wall, cpu, rss, max(load, os.getloadavg()[0]))
    return out


PACKAGES = ("governor", "graphs", "verifiers")
"""citegov's own packages (byte-compiled before timing, see :func:`compile_bytecode`)."""


def compile_bytecode(root: Path = ROOT) -> bool:
    """Byte-compile this checkout's packages, as ``pip install`` does for an installed
    package, so the timed runs read ``.pyc`` files. Without it, when ``__pycache__`` is
    missing and ``PYTHONDONTWRITEBYTECODE`` is set (or the tree is read-only), every run
    compiles citegov's ≈ 130 modules from source again (≈ 0.2 s of each cold start: a cost
    of the checkout, not of the command). Returns True when every module compiled."""
    import compileall

    return all(compileall.compile_dir(str(root / pkg), quiet=1, workers=1) for pkg in PACKAGES)


def citegov(*args: str) -> list[str]:
    return [sys.executable, "-c", LAUNCH, *args]


def build_report(lawbench: Path, chars: int = 10_000) -> str:
    """LawBench 3-8 drafts (question line + model answer), in file order, joined until the
    report reaches ``chars`` characters: real model text with its real citations."""
    from benchmarks.lawbench import draft_text, load_task

    parts: list[str] = []
    for item in load_task(lawbench, "3-8"):
        parts.append(draft_text(item))
        if sum(len(p) + 2 for p in parts) >= chars:
            break
    return "\n\n".join(parts)


def warm_efa(report: Path, runs: int, env: dict[str, str]) -> Runs:
    """``govern(report, "efa")`` timed in one process after one warm-up run (median of
    ``runs``); the process's load average and peak RSS are recorded alongside."""
    code = (
        "import json,os,resource,sys,time\n"
        "from governor.api import Governor\n"
        "g=Governor(); text=open(sys.argv[1],encoding='utf-8').read()\n"
        "g.govern(text,strategy='efa')\n"
        "out=[]\n"
        "for _ in range(int(sys.argv[2])):\n"
        "    l=os.getloadavg()[0]; t=time.perf_counter(); c=time.process_time()\n"
        "    g.govern(text,strategy='efa')\n"
        "    out.append((time.perf_counter()-t,time.process_time()-c,l))\n"
        "print(json.dumps({'runs':out,"
        "'rss':resource.getrusage(resource.RUSAGE_SELF).ru_maxrss/1024}))\n"
    )
    res = subprocess.run(
        [sys.executable, "-c", code, str(report), str(runs)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(res.stdout.strip().splitlines()[-1])
    r = Runs("warm efa (in process)")
    for wall, cpu, load in data["runs"]:
        r.add(wall, cpu, data["rss"], load)
    return r


def index_estimate(env: dict[str, str], sample: int = 1024) -> dict[str, float]:
    """An ESTIMATE of ``citegov index build``: a new process embeds ``sample`` of the distinct
    provision texts the build would embed (default embedder, one process) and the rate is
    projected to all of them at the build's worker count (CPU count, at most 4, capped by the
    cores). chromadb's own insert time is not included: a lower bound."""
    code = (
        "import json,os,sys,time\n"
        "from governor.authorities import load_default_store\n"
        "from governor.core.config import load_config\n"
        "from governor.retrieval.embedders import make_embedder\n"
        "from governor.retrieval.hybrid import index_units\n"
        "texts=list(dict.fromkeys(u.text for u in index_units(load_default_store(),"
        "all_versions=True)))\n"
        "emb=make_embedder(load_config().embedder)\n"
        "emb.embed(texts[:8])\n"
        "n=int(sys.argv[1]); l=os.getloadavg()[0]; t=time.perf_counter()\n"
        "emb.embed(texts[:n])\n"
        "print(json.dumps({'seconds':time.perf_counter()-t,'n':n,'total':len(texts),"
        "'load':max(l,os.getloadavg()[0])}))\n"
    )
    res = subprocess.run(
        [sys.executable, "-c", code, str(sample)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(res.stdout.strip().splitlines()[-1])
    workers = min(4, os.cpu_count() or 1)
    rate = data["n"] / data["seconds"]
    data["rate_per_s"] = rate
    data["projected_s"] = data["total"] / rate / workers
    return data


def prebuilt_note(store: object) -> str:
    """Whether hybrid retrieval works without a build: the shipped prebuilt vectors, checked
    against the bundled store (:mod:`governor.retrieval.prebuilt`)."""
    from governor.core.errors import RetrievalIndexError
    from governor.retrieval.prebuilt import bundled_prebuilt, read_header

    stem = bundled_prebuilt()
    try:
        h = read_header(stem)
    except RetrievalIndexError:
        return "Semantic index: no prebuilt vectors shipped; hybrid retrieval needs a build."
    size = sum(stem.with_suffix(x).stat().st_size for x in (".npy", ".npz")) / 1e6
    base = getattr(store, "dense_base", None) or {}
    fits = h.store_build == getattr(store, "build_id", None)
    kept = not fits and base.get("build_id") == h.store_build
    head = (
        f"Semantic index: shipped prebuilt ({h.texts:,} texts for {h.units:,} provisions, "
        f"{h.dims} dims {h.quantisation}, {size:.1f} MB), "
    )
    if fits:
        return head + "so hybrid retrieval needs no build."
    if kept:  # a rebuilt store that keeps the vectors for the texts that did not change
        return head + (
            f"so hybrid retrieval needs no build; {base.get('bm25_only', 0):,} provisions of "
            "this store are BM25-only until `citegov index build`."
        )
    return head + "but for ANOTHER store build."


def _fmt(values: list[float], unit: str = "s", digits: int = 2) -> str:
    if not values:
        return "–"
    med = statistics.median(values)
    unit = f" {unit}" if unit else ""
    return f"{med:.{digits}f}{unit} ({min(values):.{digits}f}–{max(values):.{digits}f})"


def table(rows: list[tuple[Runs, str]], notes: list[str], header: str) -> str:
    """The markdown table: one row per figure with its median, range, CPU, RSS and load."""
    lines = [
        header,
        "",
        "| figure | wall, median (range) | CPU, median | peak RSS | load avg (1 min) | runs "
        "| target |",
        "|---|---|---|---|---|---|---|",
    ]
    for r, target in rows:
        lines.append(
            f"| {r.name} | {_fmt(r.wall)} | {_fmt(r.cpu)} | {max(r.rss_mb, default=0):.0f} MiB"
            f" | {_fmt(r.load, '', 1)} | {len(r.wall)}"
            + (f" ({r.failures} failed)" if r.failures else "")
            + f" | {target} |"
        )
    lines += ["", *notes, ""]
    return "\n".join(lines)


def _kept_sections(out: Path) -> str:
    """The sections other benchmarks keep in ``out`` between their markers (the LLM judge's
    table of ``benchmarks/bench_llm_judge.py``), to carry over when the file is rewritten."""
    from benchmarks.bench_llm_judge import BEGIN, END

    old = out.read_text(encoding="utf-8") if out.exists() else ""
    if BEGIN not in old or END not in old:
        return ""
    return "\n" + BEGIN + old.split(BEGIN, 1)[1].split(END, 1)[0] + END + "\n"


def main(argv: list[str] | None = None) -> str:
    """Run every benchmark, print the markdown table and write it to ``--out``."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--runs", type=int, default=5, help="interleaved runs per cold command")
    ap.add_argument("--batch-runs", type=int, default=3, help="interleaved runs per batch size")
    ap.add_argument("--answers", type=int, default=500, help="LawBench 3-8 answers per batch")
    ap.add_argument("--lawbench", type=Path, default=data_path("lawbench_dev"))
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "RESULTS.md")
    ap.add_argument("--skip-batch", action="store_true", help="leave out the 1/2-worker runs")
    ap.add_argument("--index-build", action="store_true", help="also time `citegov index build`")
    ap.add_argument(
        "--skip-llm", action="store_true", help="leave out the LLM judge (bench_llm_judge)"
    )
    args = ap.parse_args(argv)

    from benchmarks.lawbench import export_drafts, load_task
    from governor.authorities import load_default_store
    from governor.citations.extract import extract

    become_subreaper()
    compiled = compile_bytecode()
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    work = Path(tempfile.mkdtemp(prefix="citegov-bench-"))
    try:
        report = work / "report_10k.md"
        text = build_report(args.lawbench)
        report.write_text(text, encoding="utf-8")
        store = load_default_store()
        n_cites = len(extract(text, store))
        outs = iter(range(1_000_000))

        def fresh(name: str) -> str:
            return str(work / f"{name}-{next(outs)}")

        # Warm the on-disk caches once (jieba, store, numerals) as any second run finds them.
        timed(citegov("verify", str(report)), env)
        cold = interleave(
            {
                "cold `citegov verify` (10k chars)": lambda: citegov("verify", str(report)),
                "cold `citegov revise --strategy efa` (10k chars)": lambda: citegov(
                    "revise", str(report), "--strategy", "efa", "--out", fresh("rev")
                ),
            },
            args.runs,
            env,
        )
        warm = warm_efa(report, args.runs, env)
        rows: list[tuple[Runs, str]] = [
            (cold["cold `citegov verify` (10k chars)"], "≤ 2.5 s"),
            (cold["cold `citegov revise --strategy efa` (10k chars)"], "≤ 3 s"),
            (warm, "≤ 0.3 s"),
        ]
        notes = [
            f"Report: {len(text):,} characters, {n_cites} citations, built from LawBench 3-8 "
            "answers (question + model answer, file order).",
            "citegov's modules byte-compiled before timing, as an install does"
            + ("" if compiled else " (some failed: those runs include compiling them)")
            + "; PYTHONDONTWRITEBYTECODE "
            + ("set" if os.environ.get("PYTHONDONTWRITEBYTECODE") else "unset")
            + ".",
        ]
        if not args.skip_batch:
            items = load_task(args.lawbench, "3-8")[: args.answers]
            drafts = work / "drafts"
            export_drafts(items, drafts)
            chars = sum(len(p.read_text(encoding="utf-8")) for p in drafts.iterdir())

            def batch_cmd(w: int) -> Callable[[], list[str]]:
                return lambda: citegov(
                    "revise", str(drafts), "--out", fresh(f"w{w}"), "--workers", str(w)
                )

            batch = interleave(
                {
                    f"`citegov revise` {len(items)} answers, --workers {w}": batch_cmd(w)
                    for w in (1, 2)
                },
                args.batch_runs,
                env,
                warmup=0,
            )
            w1, w2 = batch.values()
            rows += [(w1, "≤ 25 s"), (w2, "w1/w2 ≥ 1.7")]
            ratios = [a / b for a, b in zip(w1.wall, w2.wall, strict=True)]
            notes.append(
                f"Batch: {len(items)} LawBench 3-8 drafts ({chars:,} characters); speed-up "
                f"w1/w2 pair by pair: median {statistics.median(ratios):.2f} "
                f"(range {min(ratios):.2f}–{max(ratios):.2f}); {os.cpu_count()} cores."
            )
        est = index_estimate(env)
        notes.append(
            prebuilt_note(store)
            + " A chroma index (`citegov index build`, for other embedders or a server): "
            f"ESTIMATE (not a build): the default embedder "
            f"embedded {est['n']:,} provisions at {est['rate_per_s']:.0f} texts/s in one "
            f"process (load {est['load']:.1f}); {est['total']:,} distinct texts at "
            f"{min(4, os.cpu_count() or 1)} processes project to ≈ "
            f"{est['projected_s'] / 60:.0f} min, chromadb inserts excluded (target ≤ 3 min)"
            + (" ; the build itself is timed in the table." if args.index_build else ".")
        )
        if args.index_build:
            idx = interleave(
                {"`citegov index build`": lambda: citegov("index", "build")}, 1, env, warmup=0
            )
            rows.append((idx["`citegov index build`"], "≤ 3 min"))
        stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
        header = (
            f"### citegov end to end ({stamp}, {os.cpu_count()} cores, Python "
            f"{sys.version.split()[0]}; `python -m benchmarks.bench_all`)"
        )
        notes.append(
            "Each figure: a new process per run, commands interleaved, median and range; CPU is "
            "user + system of the child; load average read before and after each run. The "
            "machine is shared: figures taken at a load average above the core count are noisy."
        )
        md = table(rows, notes, header)
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(md + _kept_sections(args.out), encoding="utf-8")
        print(md)
        if not args.skip_llm:
            from benchmarks import bench_llm_judge

            md += "\n" + bench_llm_judge.main(["--out", str(args.out)])
        return md
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
