"""Whether stated facts are the subject matter of a non-刑法 provision's instrument (issue 21,
LexEval 3_2 civil round; layer 3).

The civil counterpart of :mod:`verifiers.offence_fit`. A citation that applies a provision of
another instrument to the question's facts and states no proposition of its own (「问题：<facts>」
… 「本案应当适用《X》第N条的规定。」, role ``application``) is first of all wrong when the facts
are not a matter the instrument governs: the facts of a 商品房买卖合同 dispute are not a case of
the 商用密码管理条例, whatever article of it is named. A rank inside the cited instrument cannot
tell this (some article of any instrument ranks first in it), so the facts are compared with
**every instrument of the store** and the cited one is judged relative to the best:

* the facts proper (the evidence and request clauses dropped,
  :func:`verifiers.offence_fit.facts_proper`) are searched **once, store-wide**, with the
  shipped global BM25 index (:meth:`AuthorityStore.search`, versions in force on the
  report's date; no index is built at run time: civil32's TF-IDF profiles of every instrument
  cost 23 s and 1.4 GB on a 3-line report), keeping the ``Thresholds.civil_fit_depth`` best
  articles;
* their BM25 scores are summed per **family**, each family's best
  ``Thresholds.civil_fit_family_top`` only (summing all rewarded breadth: the 刑事诉讼法 with its
  解释, the 公司法 with its five 规定 won plain civil facts on many weak hits): an instrument with its parent law's
  implementing rules and judicial interpretations (``parent_law``: the 民事诉讼法 with its
  解释, the 民法典 with its 时间效力规定; an interpretation that names no law, as the
  商品房买卖合同解释, stands alone), since an interpretation governs the matters of the law it
  interprets;
  BM25's IDF makes the vocabulary all law shares (应当, 规定, 人民) weigh little and what a
  field speaks of (借款/利息, 租赁/租金, 商品房/出卖人) weigh much, and the sum over many hits
  rewards a family that covers the facts' several matters;
* ``ratio = family sum / best family sum``, in [0, 1] (0 when no hit of the family is among
  the best articles). Per-20-article block sums (civil32's second level) were measured and
  dropped: with families they lowered gold-first at the fitted ratio on the first half of
  the 3_2 civil items (53.2 → 50.8 %). Weak: a large family wins on shared party words (the
  刑事诉讼法 with its 解释 is the best family for plain loan facts, 被告 matching 被告人), so
  the fitted ratio is low (0.1).

* a **repealed** instrument (合同法, 担保法, 民法总则: the 3_2 items are older than the 民法典) is
  not in the search on a later date; its rules live on in the successor its repeal record names,
  so its ratio is its successor's family's (:func:`in_force_successor`). Existence still says
  ``repealed`` (score 0.5), so such a citation is never kept, but it ranks above candidates
  whose instrument does not fit (3_2 civil, first half: gold first 54.8 → 71.4 %);
* a **procedure law** is written for one kind of case (:func:`case_kind`: the 刑事诉讼法 with its
  解释 and the 人民检察院刑事诉讼规则 for criminal cases, the 民事诉讼法 for civil ones): when the
  facts name the parties of only the other kind (:func:`verifiers.offence_fit.facts_proceeding`:
  a 原告 and a 被告, no 被告人), it is ``irrelevant`` whatever words it shares with them (loan
  facts made the 刑事诉讼法 family the best one, 被告 ~ 被告人). The 行政诉讼法 with its 解释 and
  the 行政诉讼证据规定 are written for administrative cases, whose parties are a 原告 and a 被告
  as a civil case's: facts with those parties are no administrative case unless they name an
  administrative act or organ (:func:`not_its_case`; 3_2 civil, first half: gold first 72.2 →
  75.4 %, wrong flagged 92.0 → 93.1 %; second half 77.6 → 78.4 %, 94.1 → 94.4 %).

:func:`civil_fit_outcome`: ``supports`` when ``ratio ≥ Thresholds.civil_fit_ratio``, else
``irrelevant`` (L1.1.2) with the graded score ``partially_supports``'s score × ratio (as
:func:`verifiers.offence_fit.facts_fit_outcome`, a documented deviation from SPEC §3's label →
score table for this decision only), so candidates for the same facts are ranked by how close
their instrument came. What is not assessed: which article of a fitting instrument is the right
one (a 民事诉讼法 article is judged by its instrument alone; the fit of an article's own
conditions is left to the other checks). No suggestion is named.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import Literal

from governor.authorities import AuthorityStore
from governor.authorities.charges import CRIMINAL_LAW
from governor.core.config import DEFAULT_THRESHOLDS, Thresholds
from governor.core.models import Evidence
from verifiers.civil_case import governs_civil_case
from verifiers.judge import AxisOutcome, JudgeItem
from verifiers.offence_fit import (
    PARTIAL_SCORE,
    Proceeding,
    facts_proceeding,
    facts_proper,
    fit_result,
)
from verifiers.suggest import search_query


@dataclass(frozen=True)
class InstrumentFit:
    """How well ``facts`` fall within one instrument's subject matter.

    Attributes:
        instrument: the cited instrument's title.
        score: its family's summed BM25 score over the store-wide hits (raw BM25 units).
        best: the best family's sum; ``best_instrument`` that family's head (the parent law,
            or the instrument itself when it has none).
        ratio: ``score / best`` in [0, 1] (0.0 when nothing fits).
    """

    instrument: str
    score: float
    best: float
    best_instrument: str | None
    ratio: float


CaseKind = Literal["criminal", "civil", "administrative"]
"""The kind of case a procedure law is written for."""

_PROCEDURE_TITLE: dict[CaseKind, str] = {
    "criminal": "刑事诉讼",
    "civil": "民事诉讼",
    "administrative": "行政诉讼",
}
"""The words in a title (its own or its family head's) that make it the procedure law of one
kind of case: 刑事诉讼法 and its 解释, 人民检察院刑事诉讼规则; 民事诉讼法 and its 解释; 行政诉讼法
and its 解释, 最高人民法院关于行政诉讼证据若干问题的规定."""

_ADMINISTRATIVE_ACT = re.compile(r"行政(?:行为|机关|处罚|许可|复议|强制|协议|赔偿|诉讼|不作为)")
"""What makes a case one of the 行政诉讼法: an administrative act of an administrative organ
challenged (行政诉讼法 第二条 「认为行政机关和行政机关工作人员的行政行为侵犯其合法权益」, 第十二条's
行政处罚, 行政强制, 行政许可 … 行政协议, 第七十六条 行政赔偿). Its parties are a 原告 and a
被告 as a civil case's are, so facts with those parties are an administrative case only when
they name such an act or organ."""


def not_its_case(kind: CaseKind, facts: str) -> Proceeding | None:
    """The kind of case ``facts`` are (:func:`verifiers.offence_fit.facts_proceeding`) when a
    procedure law written for ``kind`` cases cannot govern them, else None: a criminal or
    civil procedure law on facts of the other kind; an administrative one on criminal facts,
    or on facts whose parties are a 原告 and a 被告 that name no administrative act or organ
    (:data:`_ADMINISTRATIVE_ACT`: a civil case, not an administrative one)."""
    case = facts_proceeding(facts)
    if case is None:
        return None
    if kind == "administrative":
        return case if case == "criminal" or not _ADMINISTRATIVE_ACT.search(facts) else None
    return case if case != kind else None


def case_kind(store: AuthorityStore, title: str) -> CaseKind | None:
    """The kind of case ``title`` is written for: a procedure law of one kind
    (:data:`_PROCEDURE_TITLE`, read on the title and its family head), or the 刑法 and the
    instruments that implement or interpret it (criminal); else None (any other law, which
    may govern any case)."""
    head = family(store, title)
    if head == CRIMINAL_LAW:
        return "criminal"
    found = [k for k, w in _PROCEDURE_TITLE.items() if any(w in n for n in (title, head))]
    return found[0] if len(found) == 1 else None


def family(store: AuthorityStore, title: str) -> str:
    """The head of ``title``'s family: its parent law (``parent_law``: the law an
    implementing regulation or judicial interpretation belongs to), else ``title``."""
    return store.parent_law(title) or title


def in_force_successor(store: AuthorityStore, title: str, as_of: date | None) -> str:
    """``title``, or, when it was repealed on or before ``as_of`` (at all, when None), the
    instrument its repeal record names as successor, followed to one in force (合同法, 担保法,
    民法总则 → 民法典; :meth:`AuthorityStore.repeal_record`): the store-wide search holds only
    the versions in force on the date, and the rules of a repealed law live on in its
    successor. ``title`` itself when there is no successor in the store."""
    seen: set[str] = set()
    cur = title
    while cur not in seen:
        seen.add(cur)
        rr = store.repeal_record(cur)
        if rr is None or not rr.successor or (as_of is not None and rr.repealed_on > as_of):
            break
        nxt = store.resolve_instrument(rr.successor)
        if nxt is None or not store.has_articles(nxt):
            break
        cur = nxt
    return cur


def instrument_fit(
    store: AuthorityStore,
    instrument: str,
    facts: str,
    *,
    as_of: date | None = None,
    depth: int = 1000,
    top: int | None = DEFAULT_THRESHOLDS.civil_fit_family_top,
) -> InstrumentFit:
    """The :class:`InstrumentFit` of ``facts`` for ``instrument`` (method in the module
    docstring): one store-wide BM25 search of the facts proper over the versions in force on
    ``as_of`` (latest when None), its ``depth`` best articles' scores summed per family; a
    repealed instrument is scored by its successor's family (:func:`in_force_successor`).
    Pure given the store (the search is memoised by the store, so the four candidates of one
    question cost one search). Leaving the families written for another kind of case than the
    facts' (:func:`case_kind`) out of the best was measured and dropped: on the first half of
    the 3_2 civil items gold-first fell 54.8 → 53.2 % (gold kept 54.8 → 56.3 %); measured again
    with ``top`` = 30 (first / flagged / kept at ratio 0.24 unchanged, 75.4 / 93.1 / 64.3 %), still
    dropped. ``top``: only each family's best ``top`` hits are summed (None: all), so a family
    is measured by how close its best articles come, not by how many weak hits it has."""
    query = search_query(facts_proper(facts))
    sums: dict[str, float] = {}
    counted: dict[str, int] = {}
    for rec, s in store.search(query, as_of=as_of, k=depth):
        head = family(store, rec.instrument)
        if top is not None and counted.get(head, 0) >= top:
            continue  # the family's best ``top`` hits only: closeness, not breadth
        counted[head] = counted.get(head, 0) + 1
        sums[head] = sums.get(head, 0.0) + s
    best = max(sums.values(), default=0.0)
    own = sums.get(family(store, in_force_successor(store, instrument, as_of)), 0.0)
    best_t = max(sums, key=lambda t: (sums[t], t)) if sums else None
    ratio = min(1.0, own / best) if best > 0 else 0.0
    return InstrumentFit(instrument, own, best, best_t, ratio)


def article_share(
    store: AuthorityStore,
    instrument: str,
    article: str,
    facts: str,
    *,
    as_of: date | None,
    depth: int,
) -> float:
    """The cited article's BM25 score for ``facts`` over the best article's of its own
    instrument version (the one in force on ``as_of``), in [0, 1]; 0.0 when it is not among
    the ``depth`` best. Ranks the articles of one instrument, which :func:`instrument_fit`
    scores alike (the instrument's fit is the same for each of its articles)."""
    hits = store.search(
        search_query(facts_proper(facts)), instrument=instrument, as_of=as_of, k=depth
    )
    best = max((s for _, s in hits), default=0.0)
    own = max((s for r, s in hits if r.article == article), default=0.0)
    return min(1.0, own / best) if best > 0 else 0.0


def civil_fit_outcome(item: JudgeItem, store: AuthorityStore, th: Thresholds) -> AxisOutcome:
    """Applicability of a non-刑法 provision applied to the question's facts
    (:func:`verifiers.offence_fit.applied_to_facts`, not the 刑法): ``supports`` (1.0) when its instrument's fit reaches
    ``th.civil_fit_ratio`` of the best instrument's, else ``irrelevant`` (L1.1.2) with the
    graded score ``partially_supports``'s score × ratio.

    Raises:
        ValueError: ``item`` has no resolved record.
    """
    rec = item.record
    if rec is None:
        raise ValueError("civil_fit_outcome needs a resolved provision")
    fit = instrument_fit(
        store,
        rec.instrument,
        item.context.strip(),
        as_of=item.as_of,
        depth=th.civil_fit_depth,
        top=th.civil_fit_family_top,
    )
    heir = in_force_successor(store, rec.instrument, item.as_of)
    via = f" (repealed; its rules live on in 《{heir}》)" if heir != rec.instrument else ""
    what = (
        f"the facts fall within 《{rec.instrument}》{via} at {fit.ratio:.2f} of the best-fitting "
        f"instrument's fit (《{fit.best_instrument}》 and its rules, BM25 {fit.best:.1f}; "
        f"this one's family {fit.score:.1f})"
    )
    ev = (Evidence(text=rec.text[:200], authority_id=item.authority.id),)
    share = article_share(
        store,
        rec.instrument,
        rec.article,
        item.context.strip(),
        as_of=item.as_of,
        depth=th.civil_fit_depth,
    )
    graded = fit.ratio * (1.0 - th.civil_fit_article_weight + th.civil_fit_article_weight * share)
    kind = case_kind(store, rec.instrument)
    case = not_its_case(kind, item.context) if kind is not None else None
    if case is not None:
        return fit_result(
            "irrelevant",
            0.0,
            f"《{rec.instrument}》 is written for {kind} cases; the facts are a {case} case "
            f"(the parties they name{'' if kind != 'administrative' else ', no administrative act'})",
            ev,
            0.0,
        )
    what += f"; the article scores {share:.2f} of its instrument's best article for the facts"
    line = {heir, in_force_successor(store, rec.instrument, None)}  # 合同法 in 2020 too
    civil = governs_civil_case(
        item.context,
        case_kind(store, heir),
        line | {family(store, t) for t in line},
        bool(_ADMINISTRATIVE_ACT.search(item.context)),
    )
    if civil is not None:
        return fit_result("supports", 1.0, f"{civil}; {what}", ev, graded)
    if fit.ratio >= th.civil_fit_ratio:
        return fit_result("supports", 1.0, what, ev, graded)
    return fit_result(
        "irrelevant",
        PARTIAL_SCORE * fit.ratio,
        f"the facts are not a matter of its instrument: {what}",
        ev,
        graded,
    )
