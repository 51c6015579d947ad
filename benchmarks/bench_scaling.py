"""Verification cost against the number of citations in one list (issue 23: it was quadratic).

Input: one sentence citing a list of ``n`` articles of one instrument —
「根据《中华人民共和国民法典》第1条、第2条、…、第n条的规定，合同应当履行。」 — the article numbers
running through 民法典's 1,260 articles (and round again past 1,260, so every citation
exists and is judged). A list is judged as a whole (each member's description against the
texts of every member), which made the old verifier O(n²) in time and memory.

Each **size runs in a new process** that loads the store, verifies a 3-citation warm-up list,
then times one ``Governor.verify`` of the list (wall clock, ``time.perf_counter``); memory is
the process's peak resident set (``VmHWM``) and its growth over the resident set before the
timed call (``VmRSS``), from ``/proc/self/status`` (Linux). The table gives both per citation:
a flat column is linear cost.

Run (from the repository root): ``python -m benchmarks.bench_scaling [--sizes 100,300,1000,3000,10000] [--json OUT]``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ARTICLES = 1260
"""Articles of 民法典 (第一条 … 第一千二百六十条)."""
DEFAULT_SIZES = (100, 300, 1000, 3000, 10000)


def list_text(n: int, start: int = 0) -> str:
    """The benchmark draft: one sentence citing ``n`` articles of 民法典 as a list, from
    article ``start + 1`` on (round again past the last)."""
    pins = "、".join(f"第{((start + i) % ARTICLES) + 1}条" for i in range(n))
    return f"根据《中华人民共和国民法典》{pins}的规定，合同应当履行。"


_CHILD = r"""
import json, sys, time
from datetime import date
from pathlib import Path

def kb(key):
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    return 0

from governor.api import Governor
from governor.core.config import load_config

n = int(sys.argv[1])
text = Path(sys.argv[2]).read_text(encoding="utf-8")
warm = Path(sys.argv[3]).read_text(encoding="utf-8")
gov = Governor(load_config(overrides={"max_chars": 10_000_000}, environ={}))
as_of = date(2023, 7, 1)
gov.verify(warm, as_of=as_of)
before = kb("VmRSS")
t0 = time.perf_counter()
verdicts = gov.verify(text, as_of=as_of)
wall = time.perf_counter() - t0
print(json.dumps({
    "n": n, "citations": len(verdicts), "wall_s": wall,
    "rss_before_mb": before / 1024, "peak_mb": kb("VmHWM") / 1024,
}))
"""


def run_size(n: int, timeout: float) -> dict[str, Any]:
    """One size in a new process; its JSON row (``error`` set when it failed or timed out).

    The child imports citegov from the current directory / ``PYTHONPATH`` (so another
    checkout can be measured with the same script)."""
    with tempfile.TemporaryDirectory() as tmp:
        draft, warm = Path(tmp, "list.md"), Path(tmp, "warm.md")
        draft.write_text(list_text(n), encoding="utf-8")
        warm.write_text(list_text(3), encoding="utf-8")
        return _child(n, draft, warm, timeout)


def _child(n: int, draft: Path, warm: Path, timeout: float) -> dict[str, Any]:
    try:
        out = subprocess.run(
            [sys.executable, "-c", _CHILD, str(n), str(draft), str(warm)],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=True,
        )
    except subprocess.TimeoutExpired:
        return {"n": n, "error": f"timeout after {timeout:.0f} s"}
    except subprocess.CalledProcessError as exc:
        return {"n": n, "error": exc.stderr.strip().splitlines()[-1:]}
    row: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    row["ms_per_citation"] = 1000 * row["wall_s"] / n
    row["growth_kb_per_citation"] = 1024 * (row["peak_mb"] - row["rss_before_mb"]) / n
    return row


def table(rows: list[dict[str, Any]]) -> str:
    """Markdown table of the rows."""
    lines = [
        "| citations | wall s | ms / citation | peak RSS MB | RSS growth KB / citation |",
        "|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        if "error" in r:
            lines.append(f"| {r['n']} | {r['error']} | | | |")
            continue
        lines.append(
            f"| {r['n']} | {r['wall_s']:.1f} | {r['ms_per_citation']:.1f} | "
            f"{r['peak_mb']:.0f} | {r['growth_kb_per_citation']:.1f} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default=",".join(map(str, DEFAULT_SIZES)))
    ap.add_argument("--timeout", type=float, default=1800.0, help="seconds per size")
    ap.add_argument("--json", type=Path, default=None, help="write the rows here")
    args = ap.parse_args(argv)
    rows = []
    for n in (int(s) for s in args.sizes.split(",")):
        rows.append(run_size(n, args.timeout))
        print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    print(table(rows))
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
