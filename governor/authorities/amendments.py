"""Articles whose stored text is newer than the version it is filed under.

Layer 1 (store build). ``SOURCE.md`` notes that some corpus files carry no date suffix and hold
the consolidated current text while the database dates them earlier: ``刑法/刑法.md`` is dated
2020-12-26 (修正案（十一）) but includes 修正案（十二） (adopted 2023-12-29, in force 2024-03-01).
Its articles 165, 166, 169, 387, 390, 391 and 393 therefore show the 2024 text to a report dated
2022. The amending acts themselves are in the corpus (「将刑法第三百九十条修改为：」, 「在刑法第一百
六十五条中增加一款」, 「本修正案自2024年3月1日起施行」): this module reads them and records, per
article of such an undated version, the date from which its stored text is in force. The
verifier then does not judge fidelity against that text for an earlier report date.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from governor.text import regexes as rx
from governor.text.numerals import article_key, to_int

_TOUCHED = re.compile(
    r"(?:将|在)(?P<short>[\u4e00-\u9fff]{1,12}?)第(?P<n>[一二三四五六七八九十百零〇]+)条"
    r"(?:之(?P<sfx>[一二三四五六七八九十]+))?"
    r"(?:后增加一条，作为第[一二三四五六七八九十百零〇]+条之(?P<new>[一二三四五六七八九十]+))?"
)
_IN_FORCE = rx.AMENDMENT_IN_FORCE_RE
_DATED_FILE = re.compile(r"\(\d{4}-\d{2}-\d{2}\)\.md$")


def amendment_dates(body: str) -> tuple[date | None, set[str]]:
    """``(in-force date, article keys)`` an amending act states: the articles it replaces or
    adds to (「将刑法第三百九十条修改为」, 「在刑法第一百六十五条中增加一款」) and the articles it
    inserts (「后增加一条，作为第一百三十三条之二」)."""
    m = _IN_FORCE.search(body)
    when = date(int(m.group(1)), int(m.group(2)), int(m.group(3))) if m else None
    keys: set[str] = set()
    for t in _TOUCHED.finditer(body):
        n = str(to_int(t.group("n")))
        keys.add(article_key(n, str(to_int(t.group("sfx"))) if t.group("sfx") else None))
        if t.group("new"):
            keys.add(article_key(n, str(to_int(t.group("new")))))
    return when, keys


def mark_later_amendments(instruments: dict[str, dict[str, Any]]) -> int:
    """Set ``text_from`` (article key → ISO date) on undated versions whose text includes an
    amendment in force after the version's own in-force date; returns how many articles.

    Only undated files (no ``(YYYY-MM-DD)`` suffix) are consolidated current texts; a dated
    version holds its own text and is left alone.
    """
    marked = 0
    for title, inst in instruments.items():
        m = rx.AMENDMENT_ACT_BASE_RE.match(title)
        if m is None or m.group("base") not in instruments:
            continue
        body = "\n".join(v.get("body") or "" for v in inst["versions"])
        when, keys = amendment_dates(body)
        if when is None or not keys:
            continue
        for v in instruments[m.group("base")]["versions"]:
            start = v.get("in_force_from")
            if "rebuilt_from" in v:
                continue  # a version rebuilt from the amendments holds its own text
            if _DATED_FILE.search(v.get("source_path") or "") or not start:
                continue
            if date.fromisoformat(start) >= when:
                continue
            present = {a[0] for a in v["articles"]}
            text_from = v.setdefault("text_from", {})
            for k in sorted(keys & present):
                if k not in text_from or text_from[k] < when.isoformat():
                    text_from[k] = when.isoformat()
                    marked += 1
    return marked


__all__ = ["amendment_dates", "mark_later_amendments"]
