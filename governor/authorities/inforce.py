"""Audit of in-force dates: an amendment's adoption date is not its in-force date (layer 1).

The manifest and the metadata give each version a date; when no ``施行`` line exists the build
falls back to the manifest ``valid_from``, which for many amended versions is the adoption date
(民事诉讼法 2023-09-01, in force 2024-01-01). :func:`audit_in_force` corrects the in-force date
of stored versions from the texts that state it:

1. **Amending decisions in the corpus** (``最高人民法院关于修改《A》等…的决定``): their own
   ``本决定自…起施行`` date is the in-force date of every version of an instrument they name
   (``修改《A》``) that was adopted or published between the decision's first metadata date and
   that in-force date, when the version's stored in-force date is earlier.
2. **Amending decisions not in the corpus** (NPC Standing Committee 决定 on laws):
   :data:`AMENDMENT_IN_FORCE`, each entry citing the decision's closing clause. Only decisions
   whose in-force date differs from their adoption date are listed; an entry is applied only
   when the stored version matches (title and version date).

Every correction is recorded in the payload (``source.in_force_fixes``) with the old and new
date and its source, and the next older version's ``in_force_to`` follows.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from datetime import date
from itertools import pairwise
from typing import Any

AMENDMENT_IN_FORCE: Mapping[tuple[str, str], tuple[date, str]] = {
    # (title, stored version date): (in-force date, the amending decision's closing clause)
    ("中华人民共和国民事诉讼法", "2023-09-01"): (
        date(2024, 1, 1),
        "全国人大常委会关于修改《中华人民共和国民事诉讼法》的决定（2023年9月1日）：本决定自2024年1月1日起施行",
    ),
    ("中华人民共和国慈善法", "2023-12-29"): (
        date(2024, 9, 5),
        "全国人大常委会关于修改《中华人民共和国慈善法》的决定（2023年12月29日）：本决定自2024年9月5日起施行",
    ),
    ("中华人民共和国会计法", "2024-06-28"): (
        date(2024, 7, 1),
        "全国人大常委会关于修改《中华人民共和国会计法》的决定（2024年6月28日）：本决定自2024年7月1日起施行",
    ),
    ("中华人民共和国反垄断法", "2022-06-24"): (
        date(2022, 8, 1),
        "全国人大常委会关于修改《中华人民共和国反垄断法》的决定（2022年6月24日）：本决定自2022年8月1日起施行",
    ),
    ("中华人民共和国立法法", "2023-03-13"): (
        date(2023, 3, 15),
        "全国人民代表大会关于修改《中华人民共和国立法法》的决定（2023年3月13日）：本决定自2023年3月15日起施行",
    ),
    ("中华人民共和国监察法", "2024-12-25"): (
        date(2025, 6, 1),
        "全国人大常委会关于修改《中华人民共和国监察法》的决定（2024年12月25日）：本决定自2025年6月1日起施行",
    ),
}
"""Curated: NPC(SC) amending decisions absent from ``cn_laws`` whose in-force date is not their
adoption date. Extend it when the corpus gains a version amended this way."""

_DECISION = re.compile(r"关于修改.*决定")
_AMENDS = re.compile(r"修改《(?P<title>[^《》]+(?:《[^《》]*》[^《》]*)*)》")
_IN_FORCE = re.compile(r"本决定自(?P<y>\d{4})年(?P<m>\d{1,2})月(?P<d>\d{1,2})日起施行")


_UNREAD = ("manifest", "version date")
"""In-force sources that are not a statement of a corpus text (the audit's exceptions)."""


def _d(s: str | None) -> date | None:
    return date.fromisoformat(s) if s else None


def _text(version: Mapping[str, Any]) -> str:
    parts = [version.get("body") or ""]
    parts += [p[0] + "".join(p[1]) for _k, _i, paras in version["articles"] for p in paras]
    return "\n".join(parts)


def _decision_dates(
    instruments: Mapping[str, dict[str, Any]], resolve: Callable[[str], str | None]
) -> list[tuple[str, date, date, str]]:
    """(amended title, decision's first date, in-force date, source) per amendment found."""
    out = []
    for title, inst in instruments.items():
        if not _DECISION.search(title) or not inst["versions"]:
            continue
        v = inst["versions"][-1]
        text = f"{title}\n{_text(v)}"  # the title names what it amends (「关于修改《…》的决定」)
        m = _IN_FORCE.search(text)
        first = _d(v["published"])
        if m is None or first is None:
            continue
        on = date(int(m["y"]), int(m["m"]), int(m["d"]))
        start = min(first, _d(inst.get("enacted")) or first)
        for a in _AMENDS.finditer(text):
            named = a["title"].replace("〈", "《").replace("〉", "》")
            found = resolve(named) or resolve(f"最高人民法院{named}")
            if found and found != title:
                out.append((found, start, on, f"《{title}》：本决定自{on.isoformat()}起施行"))
    return out


def audit_in_force(
    instruments: dict[str, dict[str, Any]], resolve: Callable[[str], str | None]
) -> list[dict[str, str]]:
    """Correct in-force dates of stored versions (rules in the module docstring).

    Args:
        instruments: payload instruments by title, modified in place (``in_force_from`` of the
            corrected version, ``in_force_to`` of the version before it).
        resolve: name → title in ``instruments`` (or None).

    Returns:
        One record per correction: ``{title, version, was, now, source}`` (ISO dates).
    """
    fixes: list[dict[str, str]] = []

    def fix(title: str, v: dict[str, Any], on: date, source: str) -> None:
        was = v["in_force_from"]
        v["in_force_from"] = on.isoformat()
        v["in_force_source"] = "amending decision"
        fixes.append(
            {
                "title": title,
                "version": v["version"],
                "was": was or "",
                "now": on.isoformat(),
                "source": source,
            }
        )

    for title, start, on, source in _decision_dates(instruments, resolve):
        for v in instruments[title]["versions"]:
            when = _d(v["published"]) or _d(v["version"].split("#")[0])
            current = _d(v["in_force_from"])
            if when is None or not start <= when <= on:
                continue
            if current is None or current < on:
                fix(title, v, on, source)
            elif current == on and v.get("in_force_source") in _UNREAD:
                v["in_force_source"] = "amending decision"  # the decision states that date
    for (title, vid), (on, source) in AMENDMENT_IN_FORCE.items():
        inst = instruments.get(title)
        if inst is None:
            continue
        for v in inst["versions"]:
            if v["version"] == vid and v["in_force_from"] != on.isoformat():
                fix(title, v, on, source)
            elif v["version"] == vid and v.get("in_force_source") in _UNREAD:
                v["in_force_source"] = "amending decision"
    touched = {f["title"] for f in fixes}
    for title in touched:
        versions = instruments[title]["versions"]
        for older, newer in pairwise(versions):
            older["in_force_to"] = newer["in_force_from"]
    return fixes
