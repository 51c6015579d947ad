"""Repeal registry: which instruments were repealed, when, and by what (layer 1).

Three sources, in this order of authority:

1. **Repeal clauses in the corpus text** (derived, not hard-coded): every article of every
   instrument is scanned for ``…《A》、《B》…同时废止``. A named instrument that is another title
   is repealed on the in-force date stated in the same article (``本法自2021年1月1日起施行``), or
   else on the repealing version's in-force date, with the repealing instrument as successor.
   This yields the nine laws repealed by 民法典 第一千二百六十条 (absent from the corpus) and
   many superseded 司法解释.
2. :data:`JI_REPEALS`, a small curated table for 司法解释 that the corpus keeps with the
   upstream ``expired`` flag but whose repealing decision is not in the corpus.
3. The upstream ``expired_flag`` of the newest file of a title (``cn_laws/SOURCE.md``: reliable
   only in that direction): status ``repealed``, date and successor unknown.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date

from governor.text import regexes as rx

CLEANUP_2020 = "最高人民法院关于废止部分司法解释及相关规范性文件的决定（法释〔2020〕16号）"
"""The SPC decision of 2020-12-29 (in force 2021-01-01) that repealed the 司法解释 of the laws
the 民法典 replaced. Not in the corpus; the entries below cite it as their source."""

JI_REPEALS: Mapping[str, tuple[date, str | None, str]] = {
    # title: (repealed_on, successor title or None, source)
    "最高人民法院关于适用《中华人民共和国合同法》若干问题的解释（一）": (
        date(2021, 1, 1),
        "最高人民法院关于适用《中华人民共和国民法典》合同编通则若干问题的解释",
        CLEANUP_2020,
    ),
    "最高人民法院关于适用《中华人民共和国合同法》若干问题的解释（二）": (
        date(2021, 1, 1),
        "最高人民法院关于适用《中华人民共和国民法典》合同编通则若干问题的解释",
        CLEANUP_2020,
    ),
    "最高人民法院关于适用《中华人民共和国担保法》若干问题的解释": (
        date(2021, 1, 1),
        "最高人民法院关于适用《中华人民共和国民法典》有关担保制度的解释",
        CLEANUP_2020,
    ),
    "最高人民法院关于适用《中华人民共和国婚姻法》若干问题的解释（一）": (
        date(2021, 1, 1),
        "最高人民法院关于适用《中华人民共和国民法典》婚姻家庭编的解释（一）",
        CLEANUP_2020,
    ),
    "最高人民法院关于适用《中华人民共和国婚姻法》若干问题的解释（二）": (
        date(2021, 1, 1),
        "最高人民法院关于适用《中华人民共和国民法典》婚姻家庭编的解释（一）",
        CLEANUP_2020,
    ),
    "最高人民法院关于适用《中华人民共和国婚姻法》若干问题的解释（三）": (
        date(2021, 1, 1),
        "最高人民法院关于适用《中华人民共和国民法典》婚姻家庭编的解释（一）",
        CLEANUP_2020,
    ),
    "最高人民法院关于适用《中华人民共和国婚姻法》若干问题的解释（二）的补充规定": (
        date(2021, 1, 1),
        "最高人民法院关于适用《中华人民共和国民法典》婚姻家庭编的解释（一）",
        CLEANUP_2020,
    ),
    "最高人民法院关于审理涉及夫妻债务纠纷案件适用法律有关问题的解释": (
        date(2021, 1, 1),
        "最高人民法院关于适用《中华人民共和国民法典》婚姻家庭编的解释（一）",
        CLEANUP_2020,
    ),
    "最高人民法院关于适用《中华人民共和国物权法》若干问题的解释（一）": (
        date(2021, 1, 1),
        "最高人民法院关于适用《中华人民共和国民法典》物权编的解释（一）",
        CLEANUP_2020,
    ),
    "最高人民法院关于审理劳动争议案件适用法律若干问题的解释": (
        date(2021, 1, 1),
        "最高人民法院关于审理劳动争议案件适用法律问题的解释（一）",
        CLEANUP_2020,
    ),
    "最高人民法院关于审理劳动争议案件适用法律若干问题的解释（二）": (
        date(2021, 1, 1),
        "最高人民法院关于审理劳动争议案件适用法律问题的解释（一）",
        CLEANUP_2020,
    ),
    "最高人民法院关于审理劳动争议案件适用法律若干问题的解释（三）": (
        date(2021, 1, 1),
        "最高人民法院关于审理劳动争议案件适用法律问题的解释（一）",
        CLEANUP_2020,
    ),
    "最高人民法院关于审理劳动争议案件适用法律若干问题的解释（四）": (
        date(2021, 1, 1),
        "最高人民法院关于审理劳动争议案件适用法律问题的解释（一）",
        CLEANUP_2020,
    ),
    "最高人民法院关于审理建设工程施工合同纠纷案件适用法律问题的解释": (
        date(2021, 1, 1),
        "最高人民法院关于审理建设工程施工合同纠纷案件适用法律问题的解释（一）",
        CLEANUP_2020,
    ),
    "最高人民法院关于审理建设工程施工合同纠纷案件适用法律问题的解释（二）": (
        date(2021, 1, 1),
        "最高人民法院关于审理建设工程施工合同纠纷案件适用法律问题的解释（一）",
        CLEANUP_2020,
    ),
    "最高人民法院关于适用《中华人民共和国民法总则》诉讼时效制度若干问题的解释": (
        date(2021, 1, 1),
        None,
        CLEANUP_2020,
    ),
}

GUIDING_CASES_NOT_REFERENCED: Mapping[int, str] = {
    # 最高人民法院关于部分指导性案例不再参照的通知（法〔2020〕343号, 2020-12-29), effective
    # 2021-01-01: guiding cases 9 and 20 are no longer to be referenced (cn_cases/SOURCE.md
    # flags this as "to our knowledge"; it is the SPC notice's own wording).
    9: "法〔2020〕343号",
    20: "法〔2020〕343号",
}


@dataclass(frozen=True)
class RepealClause:
    """One repeal found in the text: ``named`` repealed on ``on`` by ``by`` (article label)."""

    named: str
    issuer: str
    on: date | None
    by: str
    source: str


def book_title(title: str) -> str:
    """``《title》`` with inner 《》 turned into 〈〉 (the print convention for nested titles)."""
    return "《" + title.replace("《", "〈").replace("》", "〉") + "》"


def find_repeal_clauses(title: str, article_label: str, text: str) -> list[RepealClause]:
    """All ``…《A》…同时废止`` repeals in one article.

    Args:
        title: canonical title of the repealing instrument.
        article_label: e.g. ``第一千二百六十条`` (for the ``source`` string).
        text: the article text.

    Returns:
        One :class:`RepealClause` per named title (inner 〈〉 folded to 《》), file order.
    """
    out: list[RepealClause] = []
    found = rx.CORPUS_IN_FORCE.search(text)
    on = None
    if found:
        try:
            on = date(int(found["y"]), int(found["m"]), int(found["d"]))
        except ValueError:
            on = None
    for clause in rx.CORPUS_REPEAL_CLAUSE.finditer(text):
        for m in rx.CORPUS_BOOK_TITLE.finditer(clause["clause"]):
            named = m["title"].replace("〈", "《").replace("〉", "》")
            out.append(
                RepealClause(
                    named, m["issuer"] or "", on, title, f"{book_title(title)}{article_label}"
                )
            )
    return out


def candidate_titles(named: str, issuer: str) -> list[str]:
    """Full-title guesses for a title written in a repeal clause (issuer may be outside 《》)."""
    out = [named]
    if named.startswith("关于"):
        out += [f"{issuer}{named}"] if issuer else []
        out += [f"最高人民法院{named}", f"最高人民法院、最高人民检察院{named}"]
    return out


def resolve_clause(
    clause: RepealClause, resolve: Callable[[str], str | None]
) -> tuple[str | None, str]:
    """``(title in the store or None, best full title)`` for a repeal clause."""
    for c in candidate_titles(clause.named, clause.issuer):
        t = resolve(c)
        if t is not None:
            return t, t
    if clause.issuer and clause.named.startswith("关于"):
        return None, f"{clause.issuer}{clause.named}"
    return None, clause.named
