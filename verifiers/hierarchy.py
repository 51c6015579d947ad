"""Hierarchy errors (LexAgentHallu L1.1.3) that only the surrounding sentence reveals.

A report that asserts a lower-rank source prevails over a higher-rank one ("《X条例》的规定
优先于《Y法》") contradicts the hierarchy of PRC law (立法法 第九十九条至第一百零一条 (2023):
the Constitution over laws, laws over administrative regulations, which prevail over local
regulations and rules). Judicial interpretations rank below the law they interpret.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from governor.core.models import Citation

RANK: Mapping[str, int] = {
    "宪法": 0,
    "法律": 1,
    "司法解释": 2,
    "行政法规": 2,
    "地方性法规": 3,
    "部门规章": 3,
}
"""Smaller is higher. 司法解释 and 行政法规 share a rank: neither may override a 法律."""

_OVERRIDE = re.compile(r"优先于|效力高于|优于|取代了?|排除.{0,8}(?:的)?适用")
_SENTENCE_END = re.compile(r"[。！？!?\n]")


def override_claims(
    text: str, citations: Sequence[Citation], level_of: Mapping[str, str]
) -> dict[str, str]:
    """Citations (by id) whose sentence says they prevail over a higher-rank citation.

    Args:
        text: the report text the citations' spans index.
        citations: the report's citations.
        level_of: canonical title → level (宪法/法律/行政法规/司法解释/…).

    Returns:
        ``{citation id: rationale}`` for each lower-rank citation placed before an override
        phrase whose object, later in the same sentence, is a higher-rank citation.
    """
    out: dict[str, str] = {}
    for m in _OVERRIDE.finditer(text):
        s = max((x.end() for x in _SENTENCE_END.finditer(text, 0, m.start())), default=0)
        end_m = _SENTENCE_END.search(text, m.end())
        e = end_m.start() if end_m else len(text)
        before = [c for c in citations if s <= c.span.start and c.span.end <= m.start()]
        after = [c for c in citations if m.end() <= c.span.start and c.span.end <= e]
        for lo in before:
            for hi in after:
                ll = RANK.get(level_of.get(lo.instrument or "", ""), None)
                hl = RANK.get(level_of.get(hi.instrument or "", ""), None)
                if ll is not None and hl is not None and ll > hl:
                    out[lo.id] = (
                        f"the report says {lo.raw} {m.group(0)} {hi.raw}, but a "
                        f"{level_of[lo.instrument or '']} ranks below a {level_of[hi.instrument or '']}"
                    )
    return out
