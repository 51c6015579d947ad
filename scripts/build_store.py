"""Rebuild the bundled authority store: ``python scripts/build_store.py [LAWS_DIR [CASES_DIR]]``.

Writes ``governor/data/authorities.json.xz`` (atomically) and prints the store stats and timing.
Defaults to ``../shared/data/cn_laws`` and ``../shared/data/cn_cases`` next to the repository.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from governor.authorities.store import BUNDLED_NAME, build_store  # noqa: E402


def main(argv: list[str]) -> int:
    laws = Path(argv[1]) if len(argv) > 1 else ROOT.parent / "shared" / "data" / "cn_laws"
    cases = Path(argv[2]) if len(argv) > 2 else ROOT.parent / "shared" / "data" / "cn_cases"
    out = ROOT / "governor" / "data" / BUNDLED_NAME
    t0 = time.perf_counter()
    store = build_store(laws, cases if cases.is_dir() else None, out)
    dt = time.perf_counter() - t0
    for key, value in store.stats().items():
        print(f"{key:>20} {value}")
    print(f"built and saved {out} ({out.stat().st_size / 1e6:.2f} MB) in {dt:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
