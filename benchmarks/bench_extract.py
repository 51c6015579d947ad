"""Extraction speed per character against eyecite (SPEC §9: ≥ 10× eyecite per character).

Inputs, the same size counted in **characters** (not UTF-8 bytes, which would flatter Chinese
about ×3) and cut into documents of the same average length:

* ``zh``: LawBench 3-8 answers (``prediction`` of the three models in ``lawbench_dev``), real
  model text, repeated up to ``--chars`` characters, one answer per call (the real use);
* ``en``: seeded documents of US-style legal sentences (reporter, statute, Id. and supra
  citations), one per call (eyecite's time grows faster than linearly with document length,
  so one multi-MB string would not be a fair test).

Each **run is a new process** that builds its input, warms up, and times one command over all
documents with the CPU clock of that process (one core; store loading and imports are outside
the timed loop and reported apart): ``zh`` (``extract(doc, store, us=False)``), ``eyecite``
(``get_citations`` + ``resolve_citations``) and ``en`` (``extract(doc, store, us=True)``).
Commands are **interleaved** (zh, eyecite, en, zh, …); each figure is the **median** of its
runs with the **range**, the ratio zh / eyecite is taken run by run (characters per second,
and citations found), and the 1-minute **load average** is noted around every run.

Run: ``python -m benchmarks.bench_extract [--chars 1000000] [--runs 5] [--data DIR]``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.datadir import data_path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = data_path("lawbench_dev")
MODELS = ("GPT-3.5-turbo-0613", "qwen-7b-chat-hf", "chatglm2-6b-hf")
COMMANDS = ("zh", "eyecite", "en")

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


def chinese_docs(data: Path, chars: int) -> list[str]:
    """LawBench 3-8 answers (one document each, empty ones dropped), in file order, repeated
    until they total ``chars`` characters.

    Raises:
        FileNotFoundError: a ``<model>_zero_shot_3-8.json`` file is missing from ``data``.
    """
    answers: list[str] = []
    for model in MODELS:
        path = data / f"{model}_zero_shot_3-8.json"
        rows: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        answers += [rows[k]["prediction"] for k in sorted(rows, key=int)]
    answers = [a for a in answers if a.strip()]
    out: list[str] = []
    size = 0
    while size < chars:
        for a in answers:
            out.append(a)
            size += len(a)
            if size >= chars:
                break
    return out


def english_docs(chars: int, doc_chars: int, seed: int = 0) -> list[str]:
    """Seeded documents of US legal prose with citations, each about ``doc_chars`` characters
    long, ``chars`` characters in total."""
    rng = random.Random(seed)
    docs: list[str] = []
    size = 0
    while size < chars:
        sentences: list[str] = []
        n = 0
        while n < doc_chars:
            sentences.append(rng.choice(_EN_SENTENCES))
            n += len(sentences[-1]) + 1
        doc = " ".join(sentences)
        docs.append(doc)
        size += len(doc)
    return docs


def _inputs(data: Path, chars: int) -> tuple[list[str], list[str]]:
    zh = chinese_docs(data, chars)
    en = english_docs(sum(map(len, zh)), sum(map(len, zh)) // len(zh))
    return zh, en


def run_child(command: str, data: Path, chars: int) -> dict[str, float]:
    """One timed run of ``command`` in this process: ``{chars, docs, citations, cpu_s,
    wall_s, setup_s}`` (CPU seconds of the timed loop only; ``setup_s`` = imports, store and
    warm-up).

    Raises:
        ValueError: unknown ``command``.
    """
    if command not in COMMANDS:
        raise ValueError(f"unknown command {command!r}: use one of {', '.join(COMMANDS)}")
    t0 = time.perf_counter()
    zh, en = _inputs(data, chars)
    docs = zh if command == "zh" else en
    if command == "eyecite":
        from eyecite import get_citations, resolve_citations

        def one(d: str) -> int:
            found = get_citations(d)
            resolve_citations(found)
            return len(found)

    else:
        from governor.authorities import load_default_store
        from governor.citations.extract import extract

        store = load_default_store()
        us = command == "en"

        def one(d: str) -> int:
            return len(extract(d, store, us=us))

    for d in docs[:20]:  # warm-up: alias index, regex caches, eyecite's tokenizer
        one(d)
    setup = time.perf_counter() - t0
    c, w = time.process_time(), time.perf_counter()
    found = sum(one(d) for d in docs)
    return {
        "chars": float(sum(map(len, docs))),
        "docs": float(len(docs)),
        "citations": float(found),
        "cpu_s": time.process_time() - c,
        "wall_s": time.perf_counter() - w,
        "setup_s": setup,
    }


def _spawn(command: str, data: Path, chars: int) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    load = os.getloadavg()[0]
    res = subprocess.run(
        [sys.executable, "-m", "benchmarks.bench_extract", "--child", command, "--data",
         str(data), "--chars", str(chars)],
        env=env, capture_output=True, text=True, check=True, cwd=ROOT,
    )  # fmt: skip
    out: dict[str, float] = json.loads(res.stdout.strip().splitlines()[-1])
    out["load"] = max(load, os.getloadavg()[0])
    return out


def _med(values: list[float], digits: int = 0) -> str:
    med = statistics.median(values)
    return f"{med:,.{digits}f} ({min(values):,.{digits}f}–{max(values):,.{digits}f})"


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Run the interleaved benchmark, print a markdown table; returns the runs and ratios."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--chars", type=int, default=1_000_000, help="input size in characters")
    ap.add_argument("--runs", type=int, default=5, help="interleaved runs (new processes) each")
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA, help="lawbench_dev folder")
    ap.add_argument("--child", choices=COMMANDS, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        out = run_child(args.child, args.data, args.chars)
        print(json.dumps(out))
        return out

    runs: dict[str, list[dict[str, float]]] = {c: [] for c in COMMANDS}
    for _ in range(args.runs):
        for c in COMMANDS:
            runs[c].append(_spawn(c, args.data, args.chars))
    rate = {c: [r["chars"] / r["cpu_s"] for r in rs] for c, rs in runs.items()}
    ratio = [z / e for z, e in zip(rate["zh"], rate["eyecite"], strict=True)]
    loads = [r["load"] for rs in runs.values() for r in rs]
    names = {
        "zh": "citegov `extract`, Chinese (LawBench 3-8 answers)",
        "eyecite": "eyecite `get_citations` + `resolve_citations`, English",
        "en": "citegov `extract(us=True)`, English (eyecite inside)",
    }
    lines = [
        f"### Extraction per character (`python -m benchmarks.bench_extract --chars {args.chars}"
        f" --runs {args.runs}`, {os.cpu_count()} cores, load average {min(loads):.1f}–"
        f"{max(loads):.1f})",
        "",
        "| command | characters | documents | citations | characters/s (CPU), median (range) "
        "| citations/s (CPU), median |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for c, rs in runs.items():
        r0 = rs[0]
        cites_per_s = statistics.median(r["citations"] / r["cpu_s"] for r in rs)
        lines.append(
            f"| {names[c]} | {r0['chars']:,.0f} | {r0['docs']:,.0f} | {r0['citations']:,.0f} | "
            f"{_med(rate[c])} | {cites_per_s:,.0f} |"
        )
    lines += [
        "",
        f"citegov (Chinese) / eyecite (English), characters per CPU second, run by run: median "
        f"{statistics.median(ratio):.1f}× (range {min(ratio):.1f}–{max(ratio):.1f}×; target "
        "≥ 10×). Each run a new process; the timed loop is CPU time of one core, store "
        "loading and imports excluded (median setup "
        + ", ".join(f"{c} {statistics.median(r['setup_s'] for r in rs):.2f} s" for c, rs in runs.items())
        + "). The two languages' texts differ in citation density: compare citations/s too.",
    ]  # fmt: skip
    print("\n".join(lines))
    return {"runs": runs, "ratio": ratio, "table": "\n".join(lines)}


if __name__ == "__main__":
    main()
