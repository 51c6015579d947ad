"""List the exceptions of the in-force audit: stored versions (every level: laws, 宪法,
regulations, judicial interpretations …) whose in-force date no corpus text states (``in_force_source`` ``manifest`` or ``version date``), with the reason read from the
version's own file.

``python scripts/in_force_exceptions.py [STORE] > tests/data/in_force_exceptions.csv``

Columns: ``title, level, version, in_force_from, source, reason``. ``tests/test_store_versions.py``
checks that every exception of the bundled store is listed here (a ratchet: an exception not
listed fails; a listed one the store no longer has is simply fixed). Regenerate after a store
rebuild that removes exceptions.
"""

from __future__ import annotations

import csv
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.datadir import data_path  # noqa: E402
from governor.authorities.parse import parse_markdown  # noqa: E402
from governor.authorities.store import AuthorityStore  # noqa: E402

DATA = data_path("cn_laws").parent
_DECISION = re.compile(r"《([^》]*决定)》")
_DATED = re.compile(r"本(?:法|条例|规则|办法)自\d{4}年\d{1,2}月\d{1,2}日起?(?:施行|实施)")
_ON_PUBLICATION = re.compile(r"本(?:法|条例|规则|办法)自(?:公布|发布)之日起(?:施行|实施)")


def _file(source_path: str) -> Path | None:
    first = source_path.split(" rebuilt back to ")[0].split(";")[0]
    for base in (DATA / "cn_laws", DATA / "cn_laws_updates", DATA):
        if (base / first).is_file():
            return base / first
    return None


def reason(version: dict[str, object]) -> str:
    """Why no corpus text states this version's in-force date."""
    src = str(version.get("source_path") or "")
    if " rebuilt back to " in src:
        return "rebuilt earlier text: its own in-force date is in no corpus text"
    path = _file(src)
    if path is None:
        return "source file not found"
    text = path.read_text(encoding="utf-8")
    pf = parse_markdown(text)
    vdate = str(version.get("published") or version.get("version"))
    last = [ev for on, ev in pf.events if on.isoformat() == vdate]
    decision = next((m[1] for ev in last for m in [_DECISION.search(ev)] if m), None)
    body = text.split("<!-- INFO END -->", 1)[-1]
    dated = _DATED.findall(body)
    clause = (
        f"keeps 「{dated[-1]}」"
        if dated
        else "keeps 「自公布之日起施行」"
        if _ON_PUBLICATION.search(body)
        else "has no commencement clause"
    )
    if decision:
        decision = decision.replace("<", "〈").replace(">", "〉")
        return f"修正 by 《{decision}》 ({vdate}), not in the corpus; the text {clause}"
    if not last:
        return f"the header has no event on {vdate}; the text {clause}"
    return f"adopted {vdate} ({last[-1][:24]}); the text {clause}"


def main(argv: list[str]) -> int:
    store = AuthorityStore.load(Path(argv[1]) if len(argv) > 1 else None)
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["title", "level", "version", "in_force_from", "source", "reason"])
    for title in store.titles():
        raw = store._raw[title]
        for v in raw["versions"]:
            if v.get("in_force_source") in ("manifest", "version date"):
                row = [
                    title,
                    raw["level"],
                    v["version"],
                    v["in_force_from"],
                    v["in_force_source"],
                    reason(v),
                ]
                out.writerow(row)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
