"""Extractor output on every LawBench dev text, as JSON lines: a before/after check that a change
to extraction (speed work, refactors) changes no output.

Texts: every ``prediction`` and ``origin_prompt`` of ``lawbench_dev/*.json`` (3 models × 3
tasks × 500 rows), each in four readings that exercise every path of
:func:`governor.text.sanitize.reading_view` — as written; in traditional characters (OpenCC
``s2t``); with a zero-width space after every 37th character; with an HTML comment holding a
citation, a verification marker and a citegov note inserted. Each text is extracted with
``us=True`` (the default) and, as written, with ``us=False`` (what ``bench_extract`` times).

One line per (file, row, field, reading, us): ``{"src": …, "citations": [Citation.model_dump
(mode="json"), …]}``, keys sorted, so two runs compare byte for byte (``cmp a.jsonl b.jsonl``).
The ``governor`` package imported is whatever ``PYTHONPATH`` puts first: run this file by its
path with another tree first on the path to snapshot that tree (``PYTHONPATH=/tmp/before
python benchmarks/extract_snapshot.py --out before.jsonl``).

Run: ``python benchmarks/extract_snapshot.py --out FILE [--data DIR]``; prints the number of
texts, citations and the SHA-256 of the output.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

_NOTE = "（注：该条可能应为《中华人民共和国民法典》第五百八十五条，请核实）"
_COMMENT = "<!-- 隐藏：《中华人民共和国刑法》第二百六十四条 -->"
_MARKER = "（已核验）"


def _readings(text: str, s2t: Any) -> Iterator[tuple[str, str]]:
    yield "as_written", text
    yield "traditional", s2t.convert(text)
    yield "zero_width", "".join(c + "\u200b" if i % 37 == 36 else c for i, c in enumerate(text))
    k = text.find("。")
    marked = text[: k + 1] + _MARKER + text[k + 1 :] if k >= 0 else text + _MARKER
    mid = len(marked) // 2
    yield "hostile", marked[:mid] + _COMMENT + marked[mid:] + _NOTE


def texts(data: Path) -> Iterator[tuple[str, str]]:
    """``(source label, text)`` for every non-empty prediction and prompt of ``data``.

    Raises:
        FileNotFoundError: ``data`` holds no ``*.json`` file.
    """
    files = sorted(data.glob("*.json"))
    if not files:
        raise FileNotFoundError(f"no *.json files in {data}: pass --data <lawbench_dev folder>")
    for path in files:
        rows: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        for key in sorted(rows, key=int):
            for field in ("prediction", "origin_prompt"):
                value = rows[key][field]
                if isinstance(value, list):
                    value = "\n".join(str(v.get("prompt", v)) for v in value)
                if value.strip():
                    yield f"{path.stem}/{key}/{field}", value


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Write the snapshot; returns ``{texts, citations, sha256}``."""
    import opencc

    from governor.authorities import load_default_store
    from governor.citations.extract import extract

    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--out", type=Path, required=True, help="JSON-lines file to write")
    ap.add_argument("--data", type=Path, default=Path("/work/shared/data/lawbench_dev"))
    args = ap.parse_args(argv)
    store = load_default_store()
    s2t = opencc.OpenCC("s2t")
    digest = hashlib.sha256()
    n_texts = n_cits = 0
    with args.out.open("w", encoding="utf-8") as fh:
        for src, text in texts(args.data):
            for reading, variant in _readings(text, s2t):
                for us in (True, False) if reading == "as_written" else (True,):
                    cits = extract(variant, store, us=us)
                    line = json.dumps(
                        {
                            "src": f"{src}/{reading}/us={us}",
                            "citations": [c.model_dump(mode="json") for c in cits],
                        },
                        ensure_ascii=False,
                        sort_keys=True,
                    )
                    fh.write(line + "\n")
                    digest.update(line.encode("utf-8") + b"\n")
                    n_texts += 1
                    n_cits += len(cits)
    out = {"texts": n_texts, "citations": n_cits, "sha256": digest.hexdigest()}
    print(json.dumps(out))
    return out


if __name__ == "__main__":
    main()
