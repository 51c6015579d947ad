"""A restated clause with one of the provision's terms swapped for another of its law (issue 21).

A paraphrase can keep the provision's sentence frame word for word and change the one word the
rule turns on: 社会保险法第四十八条 「失业人员在领取失业保险金期间，参加职工基本医疗保险，享受
基本医疗保险待遇」 restated as 「…参加职工基本养老保险，享受基本养老保险待遇」, or as 「参加失业保险
的，享受失业保险待遇」. Parties swapped (劳动者 for 用人单位, 与物业买受人) are
:func:`verifiers.clauses.swapped_parties`'; this module reads the other terms the same way: the
kind of thing the rule is about (a scheme, a fund, a contract, a right …), named by a compound
whose head the two words share (…保险, …基金, …合同).

:func:`swapped_terms` aligns each report clause with the provision clause it restates (difflib on
normalised text) and looks at each changed run: the report's word and the provision's word at the
same place in the frame, each widened over the characters the two share on both sides to a
compound that ends in a shared head of at least two characters (医疗/养老 + 保险 → 基本医疗保险 /
基本养老保险). The swap counts when

1. the rest of the two clauses is the same sentence (each holds
   ``Thresholds.clause_align_min`` of the other's bigrams, the changed words cut out),
2. both compounds are terms of the cited law: each is used in at least
   ``Thresholds.term_swap_min_articles`` of the articles of its version (the law's own words,
   not a wording of the report's — 「失业期间」 is no term of 社会保险法, 「失业保险」 is),
3. neither holds the other (养老保险 for 基本养老保险 is the same scheme named short), the
   report's is not in the provision's clause and the provision's not in the report's (a clause
   naming both reorders them), and no changed run is a number (:mod:`verifiers.facts` judges
   figures) or holds a function word (应当/可以/不得/的 …: a modal or a structure change, not a
   term), and
4. no sentence of the provision that names the report's term holds
   ``clause_align_min`` of the report's clause, the aligned clause cut out of it (the report
   restates that sentence; 失业保险 in 「领取失业保险金期间」 does not make 「享受失业保险待遇」 a
   restatement of the clause before it).

The legal knowledge is the law's own vocabulary, read from its articles: no list of terms.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from governor.core.config import DEFAULT_THRESHOLDS, Thresholds
from verifiers.clauses import ClauseContradiction, changed_ops
from verifiers.textsim import containment, normalize, sentences

TERM_KIND = "term"
"""The :class:`~verifiers.clauses.ClauseContradiction` kind of a swapped term."""

_CUT = re.compile(r"[，,；;。：:！？\n]")
_LIST_ITEM = re.compile(r"[（(][一二三四五六七八九十]+[)）]")
_FUNCTION = re.compile(
    r"[的了之其或和与及并而也均都即则但若如是在由向对为从给将把被按应可不得能无未已须要]"
)
"""Characters that make a changed run a structure or modal change, not a term (应当/可以/不得,
的, 和/或, 由/向 …)."""
_NUMBER = re.compile(r"[0-9零〇一二两三四五六七八九十百千万亿半]")

HEAD_MIN = 2
"""Shared characters a compound's head has at least (保险, 基金, 合同)."""
HEAD_MOST = 4
"""Shared characters the head reaches over at most (a head longer than that is the clause)."""
LEAD_MOST = 3
"""Shared characters before the changed run a compound may start with (基本, 职工基本)."""
RUN_MOST = 6
"""Characters a changed run has at most on either side (医疗 / 职工基本医疗)."""


def _clauses(text: str) -> list[str]:
    return [c for c in _CUT.split(_LIST_ITEM.sub("", text)) if len(normalize(c)) >= 4]


def _compound(
    d: str, s: str, op: tuple[str, int, int, int, int], used: Callable[[str], int], least: int
) -> tuple[str, str] | None:
    """The two compounds the changed run ``op`` of ``d`` (report) against ``s`` (provision) is
    part of, widened over shared characters to terms of the law (module docstring), or None."""
    _, i1, i2, j1, j2 = op
    mine_run, their_run = d[i1:i2], s[j1:j2]
    if not (1 <= len(mine_run) <= RUN_MOST and 1 <= len(their_run) <= RUN_MOST):
        return None
    if any(_FUNCTION.search(r) or _NUMBER.search(r) for r in (mine_run, their_run)):
        return None
    best: tuple[str, str] | None = None
    for r in range(min(HEAD_MOST, len(d) - i2, len(s) - j2), HEAD_MIN - 1, -1):
        if d[i2 : i2 + r] != s[j2 : j2 + r] or _FUNCTION.search(d[i2 : i2 + r]):
            continue
        for lead in range(min(LEAD_MOST, i1, j1), -1, -1):
            if d[i1 - lead : i1] != s[j1 - lead : j1] or _FUNCTION.search(d[i1 - lead : i1]):
                continue
            mine, theirs = d[i1 - lead : i2 + r], s[j1 - lead : j2 + r]
            if used(mine) >= least and used(theirs) >= least:
                if best is None or len(mine) + len(theirs) > len(best[0]) + len(best[1]):
                    best = (mine, theirs)
    return best


def _sentence_of(clause: str, source: str) -> str:
    """The sentence of ``source`` that holds ``clause`` (the note quotes the provision's rule
    whole), else the clause."""
    for a, b in sentences(source):
        if clause in source[a:b]:
            return _LIST_ITEM.sub("", source[a:b]).strip(" ，,。；;\n")
    return clause.strip()


def swapped_terms(
    description: str, source: str, used: Callable[[str], int], th: Thresholds = DEFAULT_THRESHOLDS
) -> tuple[ClauseContradiction, ...]:
    """Report clauses that restate one clause of the provision with one of its terms swapped for
    another term of the cited law (module docstring).

    Args:
        description: the report's words for the provision.
        source: the provision's text (the pool judged).
        used: in how many articles of the cited law's version a (normalised) word occurs.
        th: ``clause_align_min``, ``term_swap_min_articles``.
    """
    clauses = _clauses(source)
    norms = [normalize(c) for c in clauses]
    sents = [normalize(source[a:b]) for a, b in sentences(_LIST_ITEM.sub("", source))]
    for rc in _CUT.split(description):
        d = normalize(rc)
        if len(d) < 6 or any(d in n for n in norms):
            continue
        for c, s in zip(clauses, norms, strict=True):
            ops = changed_ops(d, s)
            if not ops or len(ops) > 3:
                continue
            for op in ops:
                if op[0] != "replace":
                    continue
                got = _compound(d, s, op, used, th.term_swap_min_articles)
                if got is None:
                    continue
                mine, theirs = got
                if mine in theirs or theirs in mine or mine in s or theirs in d:
                    continue
                other = d[: op[1]] + d[op[2] :]
                rest = s[: op[3]] + s[op[4] :]
                if len(other) < 4 or min(containment(other, s), containment(rest, d)) < (
                    th.clause_align_min
                ):
                    continue
                if any(
                    mine in x and containment(d, x) >= th.clause_align_min
                    for x in (y.replace(s, "", 1) for y in sents)
                ):
                    continue
                return (ClauseContradiction(TERM_KIND, rc.strip(), _sentence_of(c, source)),)
    return ()


_NORMED: dict[tuple[str, str], tuple[str, ...]] = {}
"""Normalised article texts of the law versions read so far (a few laws per run)."""


def article_uses(key: tuple[str, str], texts: Callable[[], Sequence[str]]) -> Callable[[str], int]:
    """``used`` for :func:`swapped_terms`: in how many articles of one law version (``key``:
    instrument and version; ``texts`` gives their texts, read only when a word is asked) a
    normalised word occurs."""
    seen: dict[str, int] = {}

    def used(word: str) -> int:
        if word not in seen:
            norm = _NORMED.get(key)
            if norm is None:
                if len(_NORMED) > 64:
                    _NORMED.clear()
                norm = _NORMED[key] = tuple(normalize(t) for t in texts())
            seen[word] = sum(1 for t in norm if word in t)
        return seen[word]

    return used
