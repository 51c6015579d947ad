"""Existence label of every citation in a dev set, and the changes between two runs (issue 24).

Measuring only (labels and reference answers are never used to build anything):

    PYTHONPATH=$PWD python scripts/existence_labels.py dump lawbench --as-of 2024-06-01 > new.jsonl
    (same from a checkout of the old code) > old.jsonl
    python scripts/existence_labels.py diff old.jsonl new.jsonl

Sources: ``lawbench`` (model answers of the 9 dev files), ``refr`` (the reference answers of
LawBench 3-2/3-8), ``judge`` (JuDGE full judgments), ``stard`` (STARD gold citations, each
written as 《title》第N条). Rows are keyed by source, record and span start.
"""

from __future__ import annotations

import argparse
import ast
import collections
import json
import re
import sys
from collections.abc import Iterator
from datetime import date
from pathlib import Path


def _texts(source: str, data: Path) -> Iterator[tuple[str, str]]:
    if source == "lawbench":
        for f in sorted((data / "lawbench_dev").glob("*.json")):
            for k, v in json.loads(f.read_text(encoding="utf-8")).items():
                if isinstance(v.get("prediction"), str):
                    yield f"{f.name}:{k}", v["prediction"]
    elif source == "refr":
        for task in ("3-2", "3-8"):
            f = data / "lawbench_dev" / f"GPT-3.5-turbo-0613_zero_shot_{task}.json"
            for k, v in json.loads(f.read_text(encoding="utf-8")).items():
                if isinstance(v.get("refr"), str):
                    yield f"{task}:{k}", v["refr"]
    elif source == "judge":
        for line in (data / "external" / "judge" / "test_even.jsonl").open(encoding="utf-8"):
            r = json.loads(line)
            yield str(r["index"]), r["full_judgment"]
    elif source == "stard":
        seen: set[str] = set()
        for line in (data / "external" / "stard" / "stard.jsonl").open(encoding="utf-8"):
            r = json.loads(line)
            gold = r["gold"] if isinstance(r["gold"], list) else ast.literal_eval(r["gold"])
            for g in gold:
                m = re.match(r"^(.+?)(第[一二三四五六七八九十百千零〇\d]+条.*)$", g)
                if m and g not in seen:
                    seen.add(g)
                    yield g, f"《{m[1]}》{m[2]}"
    else:
        raise SystemExit(f"unknown source {source!r}: use lawbench, refr, judge or stard")


def dump(source: str, as_of: date, data: Path) -> None:
    from governor.authorities import load_default_store
    from governor.citations.extract import extract
    from verifiers.existence import check_existence

    store = load_default_store()
    for key, text in _texts(source, data):
        for c in extract(text, store, us=False):
            ex = check_existence(c, store, as_of=as_of)
            row = {
                "key": f"{key}@{c.span.start}",
                "written": c.instrument_as_written,
                "instrument": c.instrument,
                "label": ex.result.label,
                "gap": ex.gap,
                "why": ex.result.rationale,
            }
            sys.stdout.write(json.dumps(row, ensure_ascii=False) + "\n")


def diff(old: Path, new: Path) -> None:
    def rows(p: Path) -> dict[str, dict[str, str]]:
        return {r["key"]: r for r in map(json.loads, p.open(encoding="utf-8"))}

    a, b = rows(old), rows(new)
    print(f"citations: {len(a)} -> {len(b)} (gone {len(a.keys() - b.keys())}, "
          f"new {len(b.keys() - a.keys())})")  # fmt: skip
    changes: collections.Counter[tuple[str, str, str]] = collections.Counter()
    names: dict[tuple[str, str, str], collections.Counter[str]] = {}
    for k in a.keys() & b.keys():
        o, n = a[k], b[k]
        if (o["label"], o["instrument"]) != (n["label"], n["instrument"]):
            t = (o["label"], n["label"], str(n["gap"]))
            changes[t] += 1
            names.setdefault(t, collections.Counter())[str(o["written"])] += 1
    for t, count in changes.most_common():
        print(count, " -> ".join(t[:2]), f"(gap {t[2]})")
        for name, m in names[t].most_common(12):
            print(f"    {m} {name}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("dump")
    d.add_argument("source")
    d.add_argument("--as-of", type=date.fromisoformat, default=date(2024, 6, 1))
    d.add_argument("--data", type=Path, default=None, help="shared data folder")
    c = sub.add_parser("diff")
    c.add_argument("old", type=Path)
    c.add_argument("new", type=Path)
    args = ap.parse_args()
    if args.cmd == "dump":
        from benchmarks.datadir import data_path

        dump(args.source, args.as_of, args.data or data_path("lawbench_dev").parent)
    else:
        diff(args.old, args.new)


if __name__ == "__main__":
    main()
