"""Sentencing tiers of a penal provision a report merges (issue 21, fresh review 35).

A 刑法 article grades its sanction by conditions — 第二百三十四条: 「致人重伤的，处三年以上十年以下
有期徒刑；致人死亡或者以特别残忍手段致人重伤造成严重残疾的，处十年以上有期徒刑、无期徒刑或者死刑」. A
report's 「应当处三年以上十年以下有期徒刑、无期徒刑或者死刑」 (dev LawBench 3-2 qwen-7b-chat 291) states one
tier's term with the next tier's kinds of penalty: a sanction no tier of the provision has.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_TIER_RE = re.compile(r"(?P<cond>[^。；;，,\n]{1,60}?)的，(?P<sanc>处[^。；;\n]*)")
"""A tier of the provision: its condition (「致人重伤」) and its sanction (「处三年以上十年以下有期徒刑」)."""

_TERM_RE = re.compile(
    r"[零〇一二两三四五六七八九十百0-9]+年(?:以上|以下)(?:[零〇一二两三四五六七八九十百0-9]+年以下)?有期徒刑"
)
_SANCTION_RE = re.compile(r"处[^。；;\n]*")
"""A sanction the report states, 处 to the end of its clause."""
_EXTRA_KINDS = ("无期徒刑", "死刑")


@dataclass(frozen=True)
class MergedTiers:
    """The tier whose term the report states (``condition``, ``sanction``) and the kinds it
    adds from another tier."""

    condition: str
    sanction: str
    added: tuple[str, ...]

    def note(self) -> str:
        return f"该条对「{self.condition}」规定的刑罚为「{self.sanction}」"


def merged_tiers(desc: str, source: str) -> MergedTiers | None:
    """The report's sanction (``desc``) when it is one tier's term of 有期徒刑 joined with
    kinds (无期徒刑, 死刑) only another tier of ``source`` imposes; None otherwise (a report
    quoting a tier exactly, or a provision of one tier)."""
    tiers = [(m.group("cond").strip(), m.group("sanc")) for m in _TIER_RE.finditer(source)]
    if len(tiers) < 2:
        return None
    for m in _SANCTION_RE.finditer(desc):
        clause = m.group(0)
        term = _TERM_RE.search(clause)
        if term is None:
            continue
        own = [t for t in tiers if term.group(0) in t[1]]
        if len(own) != 1:
            continue
        cond, sanc = own[0]
        rest = clause[term.end() :]
        added = tuple(k for k in _EXTRA_KINDS if k in rest and k not in sanc)
        if added and all(any(k in s for _, s in tiers if s != sanc) for k in added):
            cond = re.sub(r"^(?:犯前款罪|犯[^，]*罪)，?", "", cond)
            return MergedTiers(cond, sanc, added)
    return None


_ACT_LIST_RE = re.compile(r"(?:[\u4e00-\u9fff]{2}、){2,}[\u4e00-\u9fff]{2}")
"""A list of acts: three or more two-character words joined by 、 (「强迫、诱骗、拐骗、买卖」)."""


def foreign_acts(definition: str, article: str, least: float) -> tuple[str, str] | None:
    """(the report's act list, the article's) when a 「X罪是指…」 ``definition`` lists acts of
    which fewer than ``least`` stand in the ``article`` defining X while the article lists acts
    of its own; None otherwise (a definition in other words, or listing the article's acts)."""
    body = definition.split("是指", 1)[-1]
    said = _ACT_LIST_RE.search(body)
    lists = [m.group(0) for m in _ACT_LIST_RE.finditer(article)]
    if said is None or not lists:
        return None
    acts = said.group(0).split("、")
    best = max(lists, key=lambda lst: sum(a in lst.split("、") for a in acts))
    share = sum(a in best.split("、") for a in acts) / len(acts)
    return (said.group(0), best) if share < least else None
