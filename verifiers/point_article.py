"""The claim's point is another article's (issue 21, "wrong but silent": a real article of the
right law cited for a point it does not carry).

A report recites or names an article and then states, with that article as its basis, a legal
consequence the article does not hold: 「根据《劳动合同法》第三十七条…。因此，如果…公司单方面变更
劳动合同的地点，劳动者有权要求公司支付经济补偿金。法律依据：【《劳动合同法》第三十七条】」 —
第三十七条 is the worker's notice resignation and pays nothing; 经济补偿 is 第四十六条's. The
recital passes (it is the article's text) and the 法律依据 item, whose claim is the conclusion,
was judged as the recital it repeats (:func:`verifiers.verify.bare_repeats`).

The test reads the claim's structure, not its words as a bag:

* its **point** — the act of its last sentence's consequence, after the last modal
  (可以/应当/有权/需要/必须…) and up to the clause's end, without whom it asks (「要求公司」:
  :data:`_DEMAND`) (:func:`point_of`): 「支付经济补偿金」,
  「与劳动者协商一致解除劳动合同」. A claim without a modal states no consequence and has no point;
* the point's **legal words** — its bigrams that the cited instrument uses at all (``df > 0``
  in the instrument's IDF table): the report's own words (公司, 社保局) are no term of that law
  and prove nothing either way;
* the cited article (with the other members of its list) holds at most
  ``point_article_absent`` of those words, IDF-weighted (it shares no distinctive term with the
  point), while another article of the same instrument version holds at least
  ``point_article_held`` of them and shares a run of :data:`RUN` characters with the point
  verbatim (经济补偿): that article states the consequence the claim attributes to the cited
  one. Among several, one whose consequence clause (what a modal governs:
  :mod:`governor.authorities.structure`) holds the point comes first (第四十六条 「应当向劳动者
  支付经济补偿」 before 第八十五条, whose 「未…支付经济补偿的」 is a condition), then the mean of
  the share and the verbatim run.

Then Applicability is ``irrelevant`` (L1.1.2) with that article as the suggestion when its
consequence states the point (otherwise the rationale names it as holding the point's words, and
no repair target is given) —
``partially_supports`` when the claim's other words (its conditions, its subject) are the cited
article's at ``applicability_partial_relevance`` (第十九条's 「劳动合同期限三个月以上不满一年的」 for
「…用人单位可以与劳动者协商一致解除劳动合同」: partly carried) — the rationale
saying what the cited provision is about (its first consequence clause, else its first clause).
Not for 刑法 (offence_fit judges it), a ``reference``, ``definition`` or ``quotation``, or a
claim that restates the cited article (its consequence is then the article's).
"""

from __future__ import annotations

import math
import re

from governor.authorities import ArticleRecord, AuthorityStore
from governor.authorities.charges import CRIMINAL_LAW
from governor.authorities.structure import structure_of
from governor.core.config import DEFAULT_THRESHOLDS, Thresholds
from governor.core.models import Suggestion
from verifiers.judge import AxisOutcome, JudgeItem, list_pool, outcome
from verifiers.suggest import TIE_MARGIN, IdfCache, strip_caption
from verifiers.textsim import BigramIdf, bigrams, normalize, verbatim_share, weighted_containment

POINT_NOTE = "the claim's point"
"""How this module's rationale opens (read by :func:`verifiers.verify.bare_repeats`: a repeat
judged here keeps its own verdict)."""

ROLES = frozenset({"application", "paraphrase", "procedure"})
"""Assertion roles whose point is read (a definition, quotation or reference states none)."""

MIN_POINT_CHARS = 6
"""A point shorter than this (normalised characters: 「解除」, 「申请」) names no consequence."""
MIN_TERMS = 4
"""A point with fewer legal words (bigrams the instrument uses) than this is judged by nothing."""
RUN = 4
"""Characters of the point the other article must hold verbatim in one run (经济补偿)."""
_DEMAND = re.compile(
    r"^(?:要求|请求)[^，,。]{1,8}?(?=支付|赔偿|承担|返还|退还|补偿|给予|发放|补缴|缴纳|补足)"
)
"""「要求公司」 before a payment: whom the claim asks (the report's name for a party), not what
is owed."""
RESTATES = DEFAULT_THRESHOLDS.applicability_restates
"""Weighted overlap at which a claim restates the cited article (its point is then the
article's): ``verifiers.applicability.RESTATES``."""
_LEAD_IN = re.compile(r"(?:是|为|如下|以下|下列|法律依据|法条|条文|规定)$|法律依据|法条内容")
"""A point that only introduces what follows (「向法院提起诉讼的法律依据是」, 「遵循以下原则」)."""
_MODAL = re.compile(r"可以|应当|应该|有权|需要|必须|能够|应|须")
_SENTENCES = re.compile(r"[^。；;！？!?\n]+")
_CLAUSE_END = re.compile(r"[，,：:]")


def point_of(claim: str) -> str:
    """The act a claim's last sentence states (normalised): the words after its last modal up
    to the end of that clause; ``""`` when it has no modal or the act is shorter than
    :data:`MIN_POINT_CHARS`. 「…因此，如果…，劳动者有权要求公司支付经济补偿金」 → 「支付经济补偿金」."""
    sentences = [s for s in _SENTENCES.findall(claim) if s.strip()]
    if not sentences:
        return ""
    last = sentences[-1]
    modals = list(_MODAL.finditer(last))
    if not modals:
        return ""
    act = _CLAUSE_END.split(last[modals[-1].end() :], maxsplit=1)[0]
    out = _DEMAND.sub("", normalize(act))
    if _LEAD_IN.search(out):
        return ""  # 「…的法律依据是」, 「遵循以下原则」: a lead-in to what follows, no consequence
    return out if len(out) >= MIN_POINT_CHARS else ""


def legal_terms(point: str, table: BigramIdf) -> frozenset[str]:
    """The point's bigrams that the instrument of ``table`` uses (df > 0)."""
    return frozenset(b for b in bigrams(point) if table.df.get(b, 0) > 0)


def held_share(terms: frozenset[str], text: str, table: BigramIdf) -> float:
    """IDF-weighted share of ``terms`` that ``text`` holds, in [0, 1]."""
    total = math.fsum(table.weight(b) for b in sorted(terms))
    if total <= 0.0:
        return 0.0
    have = bigrams(text)
    return math.fsum(table.weight(b) for b in sorted(terms) if b in have) / total


def _consequence_share(terms: frozenset[str], rec: ArticleRecord, table: BigramIdf) -> float:
    """The largest share of ``terms`` one consequence clause of ``rec`` holds (0.0 when the
    article has none: :mod:`governor.authorities.structure`)."""
    return max((held_share(terms, c, table) for c in structure_of(rec).consequences), default=0.0)


def about(rec: ArticleRecord, limit: int = 40) -> str:
    """What the provision is about, in its own words: its first sentence (up to 。 or ；), cut
    to ``limit`` characters."""
    text = re.split(r"[。；;\n]", rec.text.strip(), maxsplit=1)[0].strip().rstrip("：:，,")
    return text if len(text) <= limit else text[:limit] + "…"


def unheld_point(
    item: JudgeItem,
    store: AuthorityStore,
    table: BigramIdf | None,
    th: Thresholds,
    *,
    restates: bool,
) -> AxisOutcome | None:
    """``irrelevant`` or ``partially_supports`` (L1.1.2) naming the article of the same instrument that states the claim's
    point when the cited one does not (module docstring); None otherwise. ``restates``: the
    claim restates the cited article (then never)."""
    a = item.citation.assertion
    rec = item.record
    if a is None or a.role not in ROLES or rec is None or table is None or restates:
        return None
    if rec.instrument == CRIMINAL_LAW:
        return None
    claim = strip_caption(item.citation.claim).strip()
    point = point_of(claim)
    if not point:
        return None
    terms = legal_terms(point, table)
    if len(terms) < MIN_TERMS:
        return None
    pool, _ = list_pool(item, rec.text)
    mine = held_share(terms, pool, table)
    if mine > th.point_article_absent:
        return None
    scored: list[tuple[float, float, float, ArticleRecord]] = []
    for cand in store.articles(rec.instrument, version_hint=rec.version):
        if cand.article == rec.article:
            continue
        share = held_share(terms, cand.text, table)
        if share < th.point_article_held:
            continue
        run = verbatim_share(point, cand.text, min_block=RUN)
        if run > 0.0:
            # an article whose consequence (what its modal governs) states the point comes
            # first — 第四十六条's 「应当向劳动者支付经济补偿」, not 第八十五条, which names 「未…
            # 支付经济补偿的」 among its conditions; then the point's words and wording
            states = _consequence_share(terms, cand, table) >= th.point_article_held
            scored.append((float(states), (share + run) / 2, share, cand))
    if not scored or len(scored) > th.point_article_max_holders:
        return None  # none, or a consequence many articles state (承担赔偿责任): no one is meant
    scored.sort(key=lambda t: (t[0], t[1]), reverse=True)
    best = (scored[0][2], scored[0][3])
    tie = (
        len(scored) > 1
        and scored[0][0] == scored[1][0]
        and scored[0][1] - scored[1][1] < TIE_MARGIN
    )
    share, other = best
    auth = store.authority(other)
    if auth is None:
        return None
    # named only when its consequence states the point: a holder whose words are a condition
    # or another case's rule (道路交通安全法实施条例第九十二条's 逃逸 for 「承担全部责任」) is no repair
    states = scored[0][0] == 1.0
    sug = (
        Suggestion(
            authority=auth,
            score=round(min(1.0, share) * (0.5 if tie else 1.0), 3),
            reason="states the consequence the claim attributes to the cited provision",
        )
        if states
        else None
    )
    held = "states it" if states else "holds its words"
    # the claim's own conditions and subject are the cited article's (第十九条's 「劳动合同期限三个月
    # 以上不满一年的」): partly carried, the consequence is another's
    partly = weighted_containment(claim, pool, table) >= th.applicability_partial_relevance
    return outcome(
        "applicability",
        "partially_supports" if partly else "irrelevant",
        f"{POINT_NOTE} 「{point}」 is not in the provision, which is about 「{about(rec)}」; "
        f"{auth.label} {held} ({share:.2f})",
        codes=("L1.1.2",),
        suggestion=sug,
    )


def point_outcome(
    item: JudgeItem,
    fidelity: AxisOutcome,
    applicability: AxisOutcome,
    store: AuthorityStore,
    th: Thresholds,
    idf: IdfCache | None,
) -> AxisOutcome | None:
    """The hook of the offline judge (:meth:`verifiers.offline.OfflineJudge.judge_one`): the
    outcome of :func:`unheld_point` for a citation whose words Fidelity does not already find
    misdescribed and whose Applicability passes, names no provision, or belongs to a citation
    with no description of its own (a 法律依据 item, whose verdict would otherwise give way to
    its recital's in :func:`verifiers.verify.bare_repeats`); None otherwise. A citation already
    flagged keeps its judgments and the provision they name."""
    if fidelity.result.label == "misdescribed":
        return None
    a = applicability
    if (
        a.result.label != "supports"
        and a.suggestion is not None
        and item.citation.description.strip()
    ):
        return None
    rec = item.record
    table = idf.of(rec) if idf is not None else None
    claim = strip_caption(item.citation.claim).strip()
    restates = rec is not None and weighted_containment(claim, rec.text, table) >= RESTATES
    return unheld_point(item, store, table, th, restates=restates)


__all__ = [
    "POINT_NOTE",
    "about",
    "held_share",
    "legal_terms",
    "point_of",
    "point_outcome",
    "unheld_point",
]
