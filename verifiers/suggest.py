"""Finding a better provision than the cited one (shared by fidelity, applicability, repair).

A :class:`~governor.core.models.Suggestion`'s ``score`` is a *confidence* in [0, 1] that the
suggested provision is the right one; the repair policy only acts on suggestions at or above
``Thresholds.suggestion_min_score`` (default 0.5). Confidence = the candidate's match score
(a share of the query's content bigrams, in [0, 1], divided by the score at which it saturates)
× :func:`~verifiers.textsim.specificity` of the query (a short generic query such as 合同无效
matches hundreds of provisions and proves little) × a margin factor (1.0 when the runner-up is
clearly worse, 0.5 when two candidates tie, because then the choice between them is a guess).
A suggestion whose confidence is 0 is never offered.

Suggestions stay in the cited instrument or its successor (:func:`home_instruments`): a
provision of another instrument is only offered when the report's own words are that
provision's text near-verbatim (:data:`NEAR_VERBATIM` of them in runs of four or more
characters, :func:`~verifiers.textsim.verbatim_share`), and its confidence is scaled by that
share. A claim about 违约金 does not make 拍卖法 the better authority for a 民法典 citation.

The one exception is the question a report answers (:func:`scenario_provision`): a citation
that does not fit the question gets the best provision of the whole store for it, whatever
instrument it is in, with its proof (rank, score margin, coverage) recorded and a confidence
calibrated on LawBench 3-2 (:data:`SCENARIO_WEIGHTS`) — the question, not the report's words,
is the evidence there.
"""

from __future__ import annotations

import functools
import math
import re
import threading
import unicodedata
import weakref
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date

from governor.authorities import ArticleRecord, AuthorityStore
from governor.authorities.structure import is_liability, structure_of
from governor.core.config import DEFAULT_THRESHOLDS
from governor.core.models import Authority, Citation, Level, Suggestion
from governor.core.ports import Retriever
from governor.text.regexes import (
    AMENDING_ACT_TITLE_RE,
    LIABILITY_CLAIM_RE,
    SANCTION_CLAIM_RE,
    SANCTION_IMPOSED_RE,
)
from verifiers.candidate_rule import conditions_only, consequence_holder
from verifiers.judge import JudgeItem
from verifiers.patterns import CAPTION
from verifiers.successor_pin import successor_pin
from verifiers.textsim import (
    BigramIdf,
    claim_words,
    containment,
    distinct_share,
    fold_numerals,
    pooled_containment,
    specificity,
    subject_words,
    verbatim_share,
)

TIE_MARGIN = DEFAULT_THRESHOLDS.suggest_tie_margin
"""A runner-up within this score of the best candidate halves the confidence (a tie)."""
PROPOSITION_FULL = DEFAULT_THRESHOLDS.suggest_proposition_full
"""Applicability suggestions: the coverage of the proposition (share of its content bigrams
the candidate holds) at which confidence saturates. Chosen on the GPT-3.5 dev split of LawBench
3-2 (calibration ``suggestions``): coverage 0.3 with a clear runner-up gap (confidence 0.5)
named the reference article in 87 % of cases there, 89 % for the held-out models."""


NEAR_VERBATIM = DEFAULT_THRESHOLDS.suggest_near_verbatim
"""Share of the report's words (in runs of four or more characters) another instrument's
provision must hold verbatim before it is suggested for a citation of a different instrument."""


def home_instruments(instrument: str | None, successor: str | None = None) -> frozenset[str]:
    """The instruments a suggestion for a citation of ``instrument`` may come from freely: the
    instrument itself and its successor (a repealed law's replacement)."""
    return frozenset(t for t in (instrument, successor) if t)


def strip_caption(text: str) -> str:
    """``text`` without bracketed case captions (（荣宝英诉王阳…纠纷案）): a citation's own
    title is not a proposition about the law."""
    return CAPTION.sub("", text)


def admissible(
    candidate_instrument: str, home: Collection[str], said: str, candidate_text: str
) -> float:
    """Factor in [0, 1] by which a candidate's confidence is scaled: 1.0 inside ``home``; for
    another instrument (any, when ``home`` is empty) the
    :func:`~verifiers.textsim.verbatim_share` of ``said`` (what the report says) in the
    candidate's text when at least :data:`NEAR_VERBATIM`, else 0.0 (not admissible)."""
    if candidate_instrument in home:
        return 1.0
    share = verbatim_share(said, candidate_text) if said.strip() else 0.0
    return share if share >= NEAR_VERBATIM else 0.0


@dataclass
class IdfCache:
    """Per (instrument, version) :class:`BigramIdf` tables, built on first use (thread-safe).

    Attributes:
        store: the authority store the articles come from.
    """

    store: AuthorityStore
    _tables: dict[tuple[str, str], BigramIdf] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def of(self, record: ArticleRecord | None) -> BigramIdf | None:
        """IDF table of the instrument version ``record`` belongs to (None without record)."""
        if record is None:
            return None
        key = (record.instrument, record.version)
        table = self._tables.get(key)
        if table is None:
            found = self.store.article_texts(record.instrument, version_hint=record.version)
            texts: tuple[str, ...] = (record.text,)
            if found is not None and found[1] and found[0] == record.version:
                texts = found[1]
            table = BigramIdf.from_texts(texts)
            with self._lock:
                self._tables[key] = table
        return table


@functools.lru_cache(maxsize=8192)
def amending_act(title: str) -> bool:
    """True for an amending act's title (:data:`~governor.text.regexes.AMENDING_ACT_TITLE_RE`:
    「…刑法修正案（十一）」, 「…宪法修正案（2018年）」, 「…关于修改《…》的决定」): its articles are
    instructions merged into the consolidated law, never a provision to suggest."""
    return AMENDING_ACT_TITLE_RE.search(title) is not None


def citable(hits: Sequence[tuple[ArticleRecord, float]]) -> list[tuple[ArticleRecord, float]]:
    """``hits`` (``(record, score)``, order kept) without the articles of amending acts
    (:func:`amending_act`): what a store-wide search may suggest."""
    return [h for h in hits if not amending_act(h[0].instrument)]


def _same(a: ArticleRecord, b: ArticleRecord) -> bool:
    return a.instrument == b.instrument and a.article == b.article


def candidates(
    query: str,
    item: JudgeItem,
    retriever: Retriever,
    *,
    k: int = 8,
    global_k: int = 0,
) -> list[ArticleRecord]:
    """Provisions other than the cited one that retrieval finds for ``query``.

    Top ``k`` of the cited instrument (version in force on ``item.as_of``), then, when
    ``global_k > 0``, the top ``global_k`` of the whole store on that date; duplicates and the
    cited article removed, retrieval order kept.
    """
    rec = item.record
    if rec is None or not query.strip():
        return []
    query = search_query(query)
    out: list[ArticleRecord] = []
    seen: set[str] = set()
    hits = retriever.search(query, instrument=rec.instrument, as_of=item.as_of, k=k)
    if global_k > 0:
        hits = hits + citable(retriever.search(query, as_of=item.as_of, k=global_k))
    for cand, _ in hits:
        if _same(cand, rec) or cand.key in seen:
            continue
        seen.add(cand.key)
        out.append(cand)
    return out


def search_query(text: str) -> str:
    """``text`` as a retrieval query: NFKC-folded, Arabic integers as Chinese numerals (the
    statutes' spelling, :func:`~verifiers.textsim.fold_numerals`)."""
    return fold_numerals(unicodedata.normalize("NFKC", text))


def confidence(best: float, runner_up: float, query: str, *, full: float = 1.0) -> float:
    """Confidence in [0, 1] of a suggestion (formula in the module docstring).

    ``full`` is the match score at which the score factor reaches 1.0 (1.0 for text that
    should be the provision's own words; :data:`PROPOSITION_FULL` for a claim or question
    that a provision only has to cover).
    """
    tie = 0.5 if best - runner_up < TIE_MARGIN else 1.0
    return max(0.0, min(1.0, min(1.0, best / full) * specificity(query) * tie))


def better_provision(
    text: str,
    item: JudgeItem,
    retriever: Retriever,
    store: AuthorityStore,
    *,
    cited_score: float,
    margin: float,
    reason: str,
    scorer: Callable[[str, str], float] = containment,
    k: int = 8,
    global_k: int = 0,
    query: str | None = None,
    full: float = 1.0,
    said: str | None = None,
) -> tuple[Suggestion | None, float]:
    """Best provision for ``text`` if it beats the cited one by ``margin``.

    Candidates come from :func:`candidates` (queried with ``query``, default ``text``) and
    are re-scored with ``scorer(text, candidate_text)`` in [0, 1]. Candidates of an
    instrument other than the cited one or its successor are only kept when ``said`` (what
    the report says the provision says; default ``text``) is their text near-verbatim
    (:func:`admissible`).

    Returns:
        ``(suggestion, best_score)``; the suggestion is None unless the best admissible
        candidate's score is at least ``cited_score + margin`` and its confidence
        (:func:`confidence` with ``full``, × :func:`admissible`) is above 0.
    """
    rec = item.record
    if rec is None or not text.strip():
        return None, 0.0
    home = home_instruments(rec.instrument, item.authority.successor)
    words = text if said is None else said
    scored = sorted(
        (
            (scorer(text, c.text), i, c)
            for i, c in enumerate(
                candidates(query or text, item, retriever, k=k, global_k=global_k)
            )
        ),
        key=lambda t: (-t[0], t[1]),
    )
    # admissibility (a verbatim share for another instrument's candidate) is asked in score
    # order and only until the first admissible candidate, the one picked
    allowed = (
        (score, i, c, factor)
        for score, i, c in scored
        if (factor := admissible(c.instrument, home, words, c.text)) > 0.0
    )
    first = next(allowed, None)
    if first is None:
        return None, 0.0
    best_score, best_i, best, factor = first
    if best_score < cited_score + margin:
        return None, best_score
    auth = store.authority(best)
    if auth is None:
        return None, best_score
    # every other candidate competes, admissible or not: a provision elsewhere that fits as
    # well makes the choice a guess
    runner_up = max((t[0] for t in scored if t[1] != best_i), default=0.0)
    conf = confidence(best_score, runner_up, text, full=full) * factor
    if conf <= 0.0:
        return None, best_score
    return Suggestion(authority=auth, score=conf, reason=reason), best_score


SCENARIO_WEIGHTS = (-3.572, 9.876, 9.749)
"""Logistic confidence of a store-wide scenario suggestion: ``(bias, margin, coverage)``.
Fitted on the GPT-3.5 answers of LawBench 3-2 (threshold tuning on the dev group only:
wrong-article citations, target = the reference article) with BM25 retrieval; on the two
held-out models a confidence ≥ 0.5 was right 82 % of the time and the bins were calibrated
within ±0.1 (``python -m benchmarks.bench_repair``). Features: ``margin`` = 1 − s₂/s₁ of the
top two retrieval scores; ``coverage`` = :func:`~verifiers.textsim.containment` of the
question in the provision. Used when no candidate map is configured
(``Thresholds.candidate_weights`` empty)."""
SCENARIO_K = 10
"""Candidates taken store-wide for the question."""

CANDIDATE_DEPTH = 100
"""Hits fetched store-wide before the instrument prior reorders them (:func:`store_candidates`):
a factor of at most ≈ 1.4 rarely lifts a hit from below rank 100 into the top 10."""

_SIZE_NORM: weakref.WeakKeyDictionary[AuthorityStore, float] = weakref.WeakKeyDictionary()
_SIZE_LOCK = threading.Lock()


def _size_norm(store: AuthorityStore) -> float:
    """``log(1 + n_max)``: n_max = the largest latest-version article count in ``store``
    (kept per store object, weak keys, like :data:`_LEVEL_COUNT`)."""
    norm = _SIZE_NORM.get(store)
    if norm is None:
        n_max = max((store.article_count(t) for t in store.titles()), default=1)
        norm = math.log1p(max(1, n_max))
        with _SIZE_LOCK:
            _SIZE_NORM[store] = norm
    return norm


def instrument_prior(
    store: AuthorityStore,
    title: str,
    as_of: date | None,
    level_prior: Mapping[str, float],
    size_prior: float,
) -> float:
    """The factor (≥ 0; 1.0 = neutral) by which a store-wide hit of ``title`` is scaled:
    ``level_prior[level] × (1 + size_prior × log(1 + n) / log(1 + n_max))`` with ``n`` the
    article count of the version in force on ``as_of`` (rule and sources:
    ``Thresholds.candidate_level_prior`` / ``candidate_size_prior``). Unknown title → 1.0."""
    level, n = _level_and_count(store, title, as_of)
    if level is None:
        return 1.0
    factor = float(level_prior.get(level, 1.0))
    if size_prior > 0:
        factor *= 1.0 + size_prior * math.log1p(n) / _size_norm(store)
    return factor


_LEVEL_COUNT: weakref.WeakKeyDictionary[
    AuthorityStore, dict[tuple[str, date | None], tuple[Level | None, int]]
] = weakref.WeakKeyDictionary()
_LEVEL_COUNT_MAX = 50_000
"""Entries kept per store of ``(title, as_of) → (level, article count)``: a warm round asks
the same few hundred titles again for every candidate search; cleared when full."""


def _level_and_count(
    store: AuthorityStore, title: str, as_of: date | None
) -> tuple[Level | None, int]:
    """``(store.level_of(title), store.article_count(title, as_of=as_of))``, memoised per
    store object (the count only when the level is known)."""
    memo = _LEVEL_COUNT.get(store)
    if memo is None:
        with _SIZE_LOCK:
            memo = _LEVEL_COUNT.setdefault(store, {})
    got = memo.get((title, as_of))
    if got is None:
        level = store.level_of(title)
        got = (level, store.article_count(title, as_of=as_of) if level is not None else 0)
        if len(memo) >= _LEVEL_COUNT_MAX:
            memo.clear()
        memo[(title, as_of)] = got
    return got


def store_candidates(
    retriever: Retriever,
    store: AuthorityStore,
    query: str,
    *,
    as_of: date | None,
    k: int = SCENARIO_K,
    level_prior: Mapping[str, float] | None = None,
    size_prior: float = 0.0,
    depth: int = CANDIDATE_DEPTH,
    overlap_weight: float = 0.0,
) -> list[tuple[ArticleRecord, float]]:
    """The whole store's best provisions for ``query`` (versions in force on ``as_of``), up to
    ``k`` ``(record, score)`` best first: the retriever's top ``max(k, depth)`` with each score
    multiplied by :func:`instrument_prior`, re-sorted (stable: retrieval order breaks ties);
    a retriever with ``search_with_prior`` (the hybrid one) applies the factor inside each of
    its rankers before fusing instead. Articles of amending acts are left out
    (:func:`citable`), so fewer than ``k`` may come back. Scores keep the retriever's scale
    (raw BM25 × the factor, or RRF in [0, 1]). With no prior (``level_prior`` empty and
    ``size_prior`` 0) it is ``retriever.search`` unchanged, amending acts left out.

    ``overlap_weight`` (``Thresholds.candidate_overlap_weight``; 0 = off) is handed to a
    fusing retriever's ``search_with_prior`` with :func:`~verifiers.textsim.pooled_containment`
    as its second-stage scorer (the hybrid's linear fusion re-scores its best candidates by the
    question's bigrams they hold); a plain retriever ignores it.

    Measured on STARD (layperson questions → the articles a legal team chose, question alone,
    BM25; ``python -m benchmarks.bench_retrieval stard``): see ``Thresholds.candidate_level_prior``.
    """
    if k <= 0 or not query.strip():
        return []
    if not level_prior and size_prior <= 0:
        return citable(retriever.search(query, as_of=as_of, k=k))
    factors: dict[str, float] = {}

    def factor(title: str) -> float:
        f = factors.get(title)
        if f is None:
            f = factors[title] = instrument_prior(
                store, title, as_of, level_prior or {}, size_prior
            )
        return f

    inside = getattr(retriever, "search_with_prior", None)
    if callable(inside):  # a fusing retriever applies it to each ranker before fusion
        if overlap_weight > 0:
            hits: list[tuple[ArticleRecord, float]] = inside(
                query,
                factor,
                as_of=as_of,
                k=k,
                overlap=pooled_containment,
                overlap_weight=overlap_weight,
            )
        else:
            hits = inside(query, factor, as_of=as_of, k=k)
        return citable(hits)
    scored = [
        (rec, score * factor(rec.instrument))
        for rec, score in citable(retriever.search(query, as_of=as_of, k=max(k, depth)))
    ]
    scored.sort(key=lambda rs: -rs[1])
    return scored[:k]


CANDIDATE_FEATURES: tuple[str, ...] = (
    "margin",
    "coverage",
    "said_rank",
    "said_coverage",
    "same_instrument",
    "rule_like",
    "asked_unmet",
)
"""The evidence a store-wide candidate carries (``Suggestion.features``, in this order), all
in [0, 1]: ``margin`` and ``coverage`` as for :data:`SCENARIO_WEIGHTS`; ``said_rank`` = 1/rank
of the candidate when the store is searched for what the report says the provision says (0:
not in the top :data:`SCENARIO_K` — the question and the report's own words agree on it);
``said_coverage`` = containment of those words in the candidate; ``same_instrument`` = 1 when
the candidate is in the cited instrument; ``rule_like`` = 1 when its structure
(:func:`~governor.authorities.structure.structure_of`) states a rule (condition, consequence,
duty or right, penalty) rather than a definition, procedure or pointer; ``asked_unmet`` = 1 when
the question asks for a sanction or liability (:data:`~governor.text.regexes.SANCTION_CLAIM_RE`:
「会受到什么处罚」) and the candidate is no penalty or liability provision
(:func:`~governor.authorities.structure.is_liability`)."""

OFF_CLAIM_COVERAGE = DEFAULT_THRESHOLDS.suggest_off_claim_coverage
"""A candidate in another instrument than the cited one must hold at least this share of the
citation's own words (its assertion, :func:`~verifiers.textsim.containment`) to be named for it:
the question alone does not send a citation about 著作权 to 《妇女权益保障法》 (dev 3-2
chatglm2-6b 216, a note judged harmful). On the GPT-3.5 3-2 answers at the naming probability
the gate removed 6 wrong and 27 right question-candidates (right by the set's one reference per
question, which also labels the copyright citation's reference 妇女权益保障法第七十六条)."""


def sanction_mismatch(said: str, path: Sequence[str], text: str, *, asked: bool = False) -> bool:
    """True when what a report says (``said``) and the provision at ``path`` with ``text``
    differ in kind: the provision is a penalty or liability one
    (:func:`~governor.authorities.structure.is_liability`) while the words state a right or
    duty and no sanction or liability (:data:`~governor.text.regexes.SANCTION_CLAIM_RE`,
    :data:`~governor.text.regexes.LIABILITY_CLAIM_RE`: 「应当承担民事赔偿责任」 is a liability
    claim; nor is a sanction ``asked`` by the question), or the words say a sanction is imposed
    (:data:`~governor.text.regexes.SANCTION_IMPOSED_RE`) and the provision imposes none. A
    penalty article restates the duty it sanctions (「用人单位违反本法规定，未…的，由劳动行政部门
    责令…」), so the report's words being in it prove no move there (issue 22: 劳动合同法第三十六条
    → 第八十五条)."""
    if not said.strip():
        return False
    liability = is_liability(path, text)
    says = SANCTION_CLAIM_RE.search(said) is not None or LIABILITY_CLAIM_RE.search(said) is not None
    imposes = SANCTION_IMPOSED_RE.search(said) is not None
    return (liability and not says and not asked) or (imposes and not liability)


def off_claim(said: str, question: str, record: ArticleRecord, *, other: bool) -> str:
    """Why ``record`` cannot be named for a citation whose own words are ``said`` (its
    assertion) in a report answering ``question``, or ``""``: a penalty or liability provision
    for a claim that states a right or duty (neither the words nor the question speak of a
    sanction), a provision imposing none for a claim that states a sanction (issue 22 item 1;
    :data:`~governor.text.regexes.SANCTION_CLAIM_RE`, :func:`is_liability`), or — ``other``:
    another instrument than the cited one — a provision holding less than
    :data:`OFF_CLAIM_COVERAGE` of the words (when there are words: a citation with none of its
    own answers the question as it stands)."""
    asks = SANCTION_CLAIM_RE.search(question) is not None
    if sanction_mismatch(said, record.path, record.text, asked=asks):
        return "a penalty/liability provision and a claim of a right or duty, or vice versa"
    if other and said.strip() and containment(said, record.text) < OFF_CLAIM_COVERAGE:
        # (a bare citation, 「《公司法》第42条」 alone, has no words of its own to hold: the
        # question is its only claim)
        return "another instrument that does not hold the citation's own words"
    return ""


def sanction_first(
    hits: list[tuple[ArticleRecord, float]],
    question: str,
    said: str,
    retriever: Retriever,
    *,
    as_of: date | None,
    k: int = SCENARIO_K,
) -> list[tuple[ArticleRecord, float]]:
    """``hits`` with the liability provision that sanctions the top hit's rule first, when the
    question asks for a sanction (:data:`~governor.text.regexes.SANCTION_CLAIM_RE`: 「会受到
    处罚」) and the top hit is no penalty or liability provision
    (:func:`~governor.authorities.structure.is_liability`): a penalty article restates the
    duty it sanctions (残疾人保障法第五十三条 「新建、改建和扩建建筑物…应当符合国家有关无障碍设施
    工程建设标准」 → 第六十六条 「违反本法规定，新建、改建和扩建建筑物…不符合…的，由有关主管部门
    依法处理」; 《立法技术规范（试行）（一）》 item 16), so the liability provision of the same
    instrument that restates one of the top hit's 款 (holds at least :data:`SANCTION_RESTATES`
    of its bigrams; the most) is the answer. It is looked for among ``hits`` and the retriever's top ``k`` of that instrument for
    the question. Unchanged when no sanction is asked or none is found (``said`` is unused: the
    question decides what is asked)."""
    if not hits or SANCTION_CLAIM_RE.search(question) is None:
        return hits
    top = hits[0][0]
    if is_liability(top.path, top.text):
        return hits
    pool = [r for r, _s in hits[1:] if r.instrument == top.instrument]
    pool += [
        r
        for r, _s in retriever.search(
            search_query(question), instrument=top.instrument, as_of=as_of, k=k
        )
    ]
    best: ArticleRecord | None = None
    best_share = SANCTION_RESTATES
    for r in pool:
        if _same(r, top) or not is_liability(r.path, r.text):
            continue
        share = max((containment(p.full_text, r.text) for p in top.paragraphs), default=0.0)
        if share >= best_share and (best is None or share > best_share):
            best, best_share = r, share
    if best is None:
        return hits
    at = next((i for i, (r, _s) in enumerate(hits) if _same(r, best)), None)
    if at is not None:
        return [hits[at], *hits[:at], *hits[at + 1 :]]
    return [(best, hits[0][1]), *hits]


def consequence_first(
    hits: list[tuple[ArticleRecord, float]],
    said: str,
    retriever: Retriever,
    *,
    as_of: date | None,
    k: int = SCENARIO_K,
) -> list[tuple[ArticleRecord, float]]:
    """``hits`` with the provision stating the consequence of the citation's words (``said``)
    first, when the top hit holds only their conditions
    (:func:`verifiers.candidate_rule.consequence_holder`): looked for among ``hits`` of the top
    hit's instrument, then the retriever's top ``k`` of that instrument for ``said``. The
    question names the facts (登记证书、号牌), the words say what follows (予以收缴): an article
    of the same law holding that consequence nearly verbatim outranks one sharing only the
    facts (道路交通安全法第九十六条 over 第九条; review seed 35, harmful). It takes the top hit's
    score when it was not among ``hits`` (as :func:`sanction_first`); the displaced hit stays
    as runner-up, so the margin is 0. Unchanged when no such provision is found."""
    if not hits or not said.strip() or not conditions_only(said, hits[0][0].text):
        return hits
    top = hits[0][0]
    pool = [r for r, _s in hits[1:] if r.instrument == top.instrument]
    seen = {r.key for r in pool}
    pool += [
        r
        for r, _s in retriever.search(
            search_query(said), instrument=top.instrument, as_of=as_of, k=k
        )
        if r.key not in seen and not _same(r, top)
    ]
    held = consequence_holder(said, top.text, ((r, r.text) for r in pool))
    if held is None:
        return hits
    best = held[0]
    at = next((i for i, (r, _s) in enumerate(hits) if _same(r, best)), None)
    if at is not None:
        return [hits[at], *hits[:at], *hits[at + 1 :]]
    return [(best, hits[0][1]), *hits]


SANCTION_RESTATES = DEFAULT_THRESHOLDS.suggest_sanction_restates
"""Share of one 款 of a duty provision's bigrams a liability provision must hold to count as
the one sanctioning it (:func:`sanction_first`)."""


ASK_RE = re.compile(
    r"吗|？|\?|是否|怎么|怎样|如何|什么|哪些|哪个|哪条|哪一|哪种|能否|可否|有何|有没有|多少|多久|多长"
)
"""Words that make a sentence of a question the one that asks (「根据哪条法律，…可以…？」)."""
_ASK_SPLIT = re.compile(r"[^。！？!?；;\n]+[。！？!?；;]?")


_ASK_START = re.compile(r"请问|想问|问一下")
"""Where the asking part of a run-on sentence starts: 「…签订5年期固定劳动合同请问职工能拿到2倍的
赔偿金吗？」 tells the facts and asks in one sentence; the facts before 请问 are facts."""

ASK_FORMULA_RE = re.compile(
    r"(?:请问|想问|问一下)"
    r"|(?:根据|依据|依照|按照)(?:我国)?(?:哪一?[条部个项款种]|什么|何种)?"
    r"(?:的)?(?:法律|法规|法条|条款|条文|规定)*(?:的|中)?(?:规定)?"
    r"|(?:哪一?[条部个项款种]|什么|何种)(?:法律|法规|法条|条款|条文)(?:的)?(?:规定)?"
    r"|吗|？|\?"
)
"""The asking formula of a question (「根据哪一条法律规定，」, 「请问」, 「吗？」): words every question
has, which every provision holding 法律/规定 shares; they are left out of the asking sentence
before it is matched to a candidate (:func:`ask_coverage`; naming6, gold g0613: 「根据哪一条法律
规定，公司可以因股东会或股东大会决议解散？」 put 公司法第二十二条 (决议…违反法律…无效) before 第一百八十
条 (股东会或者股东大会决议解散))."""


def asking_sentence(question: str) -> str:
    """The sentence(s) of ``question`` that ask (:data:`ASK_RE`), joined; ``""`` when none
    does. A consultation tells the facts first and asks last (「小明…。根据哪个法律条款，小明可以
    当然退伙？」): the asking sentence names the rule wanted, the facts name much else. A
    sentence that tells facts and then asks (「…请问…吗？」) counts from 请问 (:data:`_ASK_START`)."""
    asks = []
    for m in _ASK_SPLIT.finditer(question):
        sent = m.group(0)
        if not ASK_RE.search(sent):
            continue
        start = _ASK_START.search(sent)
        asks.append(sent[start.start() :] if start else sent)
    return "".join(asks).strip()


def ask_coverage(ask: str, record: ArticleRecord) -> float:
    """The largest :func:`~verifiers.textsim.containment` of ``ask`` — without its asking
    formula (:data:`ASK_FORMULA_RE`) — in one 款 (lead and its 项) or one 项 of ``record``
    (0.0 without an asking sentence)."""
    ask = ASK_FORMULA_RE.sub("", ask).strip()
    if not ask:
        return 0.0
    best = 0.0
    for p in record.paragraphs:
        best = max(best, containment(ask, p.full_text))
        for it in p.items:
            best = max(best, containment(ask, p.text + it))
    return best


def ask_rank(
    hits: list[tuple[ArticleRecord, float]], ask: str, weight: float
) -> list[tuple[ArticleRecord, float]]:
    """``hits`` re-scored ``score × (1 + weight × ask_coverage)`` (:func:`ask_coverage`: the
    asking sentence in the candidate's best 款/项) and re-sorted (stable); unchanged when
    ``weight`` is 0 or there is no asking sentence."""
    if weight <= 0 or not ask or not hits:
        return hits
    out = [(r, s * (1.0 + weight * ask_coverage(ask, r))) for r, s in hits]
    out.sort(key=lambda rs: -rs[1])
    return out


def scenario_confidence(margin: float, coverage: float) -> float:
    """Confidence in [0, 1] that the store-wide top hit for a question is the provision an
    expert would cite (:data:`SCENARIO_WEIGHTS`)."""
    b, wm, wc = SCENARIO_WEIGHTS
    return 1.0 / (1.0 + math.exp(-(b + wm * margin + wc * coverage)))


def candidate_probability(features: Sequence[float], weights: Sequence[float]) -> float:
    """Calibrated probability in [0, 1] that a store-wide candidate is the provision an
    expert would cite: a logistic map ``weights = (bias, w₁ … wₙ)`` over
    :data:`CANDIDATE_FEATURES`, fitted by ``citegov calibrate --fit-group`` on one LawBench
    model's 3-2 answers and checked on the others (``Thresholds.candidate_weights``).

    Raises:
        ValueError: ``weights`` is not one longer than ``features``.
    """
    if len(weights) != len(features) + 1:
        raise ValueError(
            f"candidate weights need {len(features) + 1} values (bias + one per feature "
            f"{', '.join(CANDIDATE_FEATURES)}), got {len(weights)}; refit with citegov calibrate"
        )
    z = weights[0] + sum(w * x for w, x in zip(weights[1:], features, strict=True))
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z))))


def _rule_like(r: ArticleRecord) -> bool:
    roles = structure_of(r).roles
    return any(x in roles for x in ("condition", "consequence", "duty_right", "penalty"))


def scenario_provision(
    item: JudgeItem,
    retriever: Retriever,
    store: AuthorityStore,
    question: str,
    *,
    k: int = SCENARIO_K,
    cited_rank: int | None = None,
    plausible_rank: int = 5,
    rerank: Callable[[list[tuple[ArticleRecord, float]]], list[tuple[ArticleRecord, float]]]
    | None = None,
    said: str = "",
    weights: Sequence[float] = (),
    off_claim_probability: float = 0.15,
    level_prior: Mapping[str, float] | None = None,
    size_prior: float = 0.0,
    overlap_weight: float = 0.0,
    paragraph_weight: float = 0.0,
    cited_top: list[bool] | None = None,
) -> Suggestion | None:
    """The best provision of the **whole store** (versions in force on ``item.as_of``) for
    the question the report answers, as a suggestion for a citation that does not fit it.

    Candidates are :func:`store_candidates` (the retriever's hits reordered by the instrument
    prior ``level_prior``/``size_prior``: ``Thresholds.candidate_level_prior`` and
    ``candidate_size_prior``; none by default; with the hybrid retriever re-scored by the
    question's bigrams with ``overlap_weight``, ``Thresholds.candidate_overlap_weight``).

    Retrieval is the configured :class:`~governor.core.ports.Retriever` (BM25, or BM25 +
    dense fused by RRF when ``retrieval = "hybrid"``); ``rerank`` (e.g. :func:`structure_rank`)
    may reorder the top ``k``. It is off by default: on LawBench 3-2 wrong-article answers the
    structure rerank moved the reference from top-1 more often than to it (top-1 = reference:
    GPT-3.5 50.1 % → 49.6 %, held-out models 49.6 % → 48.1 %, BM25), so retrieval order stands
    and structure is one of the candidate's features instead. Another instrument than the
    cited one is allowed: the proof — rank, score margin over the runner-up (the cited article
    when it is among the hits), coverage of the question, agreement with what the report
    says (``said``) — is recorded in the suggestion's ``reason`` and ``features``
    (:data:`CANDIDATE_FEATURES`).

    The confidence is :func:`candidate_probability` with ``weights`` (the fitted candidate
    map; ``Suggestion.probability`` is then set), else :func:`scenario_confidence`; a candidate
    the citation's own words rule out (:func:`off_claim`) gets at most ``off_claim_probability``
    (``Thresholds.candidate_off_question_probability``: below any naming probability) and an
    ``("off_claim", 1.0)`` pair before its features (the map is neither fitted on nor applied to
    such candidates). A cited
    article that ranks within ``plausible_rank`` of its own instrument for the question
    (``cited_rank``) is plausible: without a fitted map, a suggestion from another instrument
    then gets half the confidence (the choice between them is a guess, as for a tie).

    Returns:
        The suggestion, or None (no question, no hit, or the cited article is the top hit).
    """
    rec = item.record
    if not question.strip():
        return None
    hits = store_candidates(
        retriever,
        store,
        search_query(question),
        as_of=item.as_of,
        k=k,
        level_prior=level_prior,
        size_prior=size_prior,
        overlap_weight=overlap_weight,
    )
    if not hits:
        return None
    ranked = rerank(hits) if rerank is not None else hits
    ask = asking_sentence(question)
    ranked = ask_rank(ranked, ask, paragraph_weight)
    ranked = sanction_first(ranked, question, said, retriever, as_of=item.as_of)
    ranked = consequence_first(ranked, said, retriever, as_of=item.as_of)
    top, s1 = ranked[0]
    if rec is not None and _same(top, rec):
        if cited_top is not None:
            cited_top.append(True)
        return None
    s2 = max((sc for r, sc in ranked[1:]), default=0.0)
    if rec is not None:
        # the cited article among the hits is the runner-up to beat
        s2 = max([s2, *(sc for r, sc in ranked if _same(r, rec))])
    margin = max(0.0, 1.0 - s2 / s1) if s1 > 0 else 0.0
    cov = containment(question, top.text)
    auth = store.authority(top)
    if auth is None:
        return None
    other = rec is not None and top.instrument != rec.instrument
    said_rank = said_cov = 0.0
    if said.strip():
        own = retriever.search(search_query(said), as_of=item.as_of, k=k)
        said_rank = next((1.0 / i for i, (r, _s) in enumerate(own, 1) if _same(r, top)), 0.0)
        said_cov = containment(said, top.text)
    unmet = SANCTION_CLAIM_RE.search(question) is not None and not is_liability(top.path, top.text)
    feats = (
        margin,
        cov,
        said_rank,
        said_cov,
        0.0 if other else 1.0,
        float(_rule_like(top)),
        float(unmet),
    )
    probability: float | None = None
    if weights:
        probability = conf = candidate_probability(feats, weights)
    else:
        conf = scenario_confidence(margin, cov)
    why_not = off_claim(said, question, top, other=other)
    if why_not and probability is not None:
        # the citation's own assertion rules it out: never named (issue 22 item 1)
        probability = conf = min(probability, off_claim_probability)
    note = "; another instrument" if other else ""
    note += f"; not for this claim: {why_not}" if why_not else ""
    if other and cited_rank is not None and cited_rank <= plausible_rank:
        if probability is None:
            conf *= 0.5
        note += f", the cited article ranks {cited_rank} in its own"
    reason = (
        f"best provision store-wide for the question (proof: rank 1 of {len(hits)}, score "
        f"margin {margin:.2f}, question coverage {cov:.2f}, report's words: rank "
        f"{round(1 / said_rank) if said_rank else '>' + str(k)}, coverage {said_cov:.2f}{note})"
    )
    pairs = tuple(zip(CANDIDATE_FEATURES, feats, strict=True))
    return Suggestion(
        authority=auth,
        score=conf,
        reason=reason,
        features=(("off_claim", 1.0), *pairs) if why_not and probability is not None else pairs,
        probability=probability,
    )


def rescored(
    current: Suggestion,
    item: JudgeItem,
    retriever: Retriever,
    store: AuthorityStore,
    question: str,
    *,
    said: str = "",
    probability: float,
    question_probability: float | None = None,
    k: int = SCENARIO_K,
) -> Suggestion:
    """``current`` (a candidate the judges found from the report's words, which is not the
    store's best for the question) with its :data:`CANDIDATE_FEATURES` after an
    ``("off_question", 1.0)`` pair (``margin`` 0: the question does not single it out; the
    candidate map is neither fitted on nor applied to such candidates) and ``probability``
    (``Thresholds.candidate_off_question_probability``: on LawBench 3-2 such candidates were
    the reference article for 16 of 108 GPT-3.5 citations, 20 of 337 for the other models —
    far below any naming probability, so the note names none; a move still needs its own
    proof), then — when given — ``("question_candidate", question_probability)``: the
    calibrated probability of the provision the question singles out instead (a repair does
    not move the citation when it reaches the naming probability). ``current`` unchanged
    when its provision is not in the store."""
    a = current.authority
    rec = store.article(a.instrument, a.article or "", as_of=item.as_of) if a.article else None
    if rec is None:
        return current
    said_rank = said_cov = 0.0
    if said.strip():
        own = retriever.search(search_query(said), as_of=item.as_of, k=k)
        said_rank = next((1.0 / i for i, (r, _s) in enumerate(own, 1) if _same(r, rec)), 0.0)
        said_cov = containment(said, rec.text)
    same = item.record is not None and rec.instrument == item.record.instrument
    feats = (
        0.0,
        containment(question, rec.text),
        said_rank,
        said_cov,
        1.0 if same else 0.0,
        float(_rule_like(rec)),
        float(
            SANCTION_CLAIM_RE.search(question) is not None and not is_liability(rec.path, rec.text)
        ),
    )
    return current.model_copy(
        update={
            "features": (
                ("off_question", 1.0),
                *(
                    (("question_candidate", question_probability),)
                    if question_probability is not None
                    else ()
                ),
                *zip(CANDIDATE_FEATURES, feats, strict=True),
            ),
            "probability": probability,
        }
    )


def structure_rank(
    hits: list[tuple[ArticleRecord, float]],
) -> list[tuple[ArticleRecord, float]]:
    """``hits`` reordered by provision structure, scores kept: a provision that states a
    rule (a condition, a consequence, a duty or right) goes before one that only defines
    terms, sets procedure or points elsewhere, when their scores are within
    :data:`TIE_MARGIN` (relative) of each other; otherwise retrieval order stands."""

    def rule_like(r: ArticleRecord) -> bool:
        roles = structure_of(r).roles
        return any(x in roles for x in ("condition", "consequence", "duty_right", "penalty"))

    out = list(hits)
    for i in range(len(out) - 1):
        (a, sa), (b, sb) = out[i], out[i + 1]
        close = sa > 0 and (sa - sb) / sa < TIE_MARGIN
        if close and not rule_like(a) and rule_like(b):
            out[i], out[i + 1] = out[i + 1], out[i]
    return out


def existence_suggestion(
    cit: Citation,
    label: str,
    authority: Authority | None,
    record: ArticleRecord | None,
    store: AuthorityStore,
    retriever: Retriever,
    *,
    as_of: date,
    confident: float = 0.5,
) -> Suggestion | None:
    """For a missing article, a fabricated instrument or a repealed instrument: the provision
    whose text best matches what the report says (description, else claim without captions).

    Searched in the right instrument — the cited one, or the successor of a repealed one.
    When that finds nothing at ``confident`` (or the instrument itself is unknown, or the
    citation is a guiding case or case number), the whole store is searched, but a provision
    of another instrument is only offered when the report's words are its text near-verbatim
    (:func:`admissible`): 民法典第九千条 「当事人应当遵循诚信原则」 is not repaired to 拍卖法,
    a non-existent 指导案例 not to a statute article. Confidence = containment × specificity
    of the query × distinctiveness (:func:`best_match`) × :func:`admissible`; a suggestion
    with confidence 0 is not offered.

    Args:
        cit: the citation; ``label`` its existence label.
        authority: the resolved authority (a repealed instrument's, with its ``successor``).
        record: the resolved article record (a repealed version's), or None.
        store: the authority store; ``retriever`` searches it.
        as_of: the report's as-of date.
        confident: confidence below which the search is widened to the store.

    Returns:
        The suggestion, or None (label not ``not_found``/``repealed``, nothing said, or no
        admissible match).
    """
    if label not in ("not_found", "repealed"):
        return None
    target: str | None = None
    if label == "repealed" and authority is not None and authority.successor:
        target = authority.successor
    elif label == "repealed" and record is not None:
        target = record.instrument
    elif label == "not_found" and cit.instrument and store.has_instrument(cit.instrument):
        target = cit.instrument
    query = strip_caption(cit.description.strip() or cit.claim.strip()).strip()
    if len(query) < 4 or specificity(query) <= 0.0:
        return None
    if label == "not_found":
        # 《婚姻法》第一千零六十二条: a missing article of a repealed law whose words are its
        # successor's provision (verifiers.successor_pin)
        pinned = successor_pin(
            cit,
            query,
            store,
            lambda q, t: best_match(q, t, store, retriever, as_of=as_of),
            as_of=as_of,
            confident=confident,
        )
        if pinned is not None:
            return pinned
    home = home_instruments(target, authority.successor if authority is not None else None)
    best = best_match(query, target, store, retriever, as_of=as_of) if target else None
    if (target is None or best is None or best[0] < confident) and (
        label == "not_found" or target is None
    ):
        other = best_match(query, None, store, retriever, as_of=as_of, home=home)
        if other is not None and (best is None or other[0] > best[0]):
            best = other
    if best is None or best[0] <= 0.0:
        return None
    if label == "repealed" and best[1].instrument == target:
        reason = f"successor provision in 《{target}》"
    else:
        reason = "provision whose text matches what the report says"
    return Suggestion(authority=best[1], score=best[0], reason=reason)


def best_match(
    query: str,
    instrument: str | None,
    store: AuthorityStore,
    retriever: Retriever,
    *,
    as_of: date,
    home: Collection[str] = (),
) -> tuple[float, Authority] | None:
    """Best retrieval hit for ``query`` in ``instrument`` (None: the whole store), with a
    confidence in [0, 1].

    Confidence = containment of the query in the hit × specificity of the query ×
    distinctiveness, where distinctiveness = 1 − ½ · (runner-up containment / best): a
    query that other candidates match as well singles none out (halved when tied). In a
    store-wide search, hits outside ``home`` are scaled by :func:`admissible` (dropped
    unless near-verbatim).
    """
    spec = specificity(query)
    scored: list[tuple[float, str, ArticleRecord]] = []
    for rec, _ in retriever.search(search_query(query), instrument=instrument, as_of=as_of, k=8):
        factor = (
            1.0 if instrument is not None else admissible(rec.instrument, home, query, rec.text)
        )
        if factor > 0.0:
            scored.append((containment(query, rec.text) * factor, rec.key, rec))
    if not scored:
        return None
    scored.sort(key=lambda t: (-t[0], t[1]))
    top, _, rec = scored[0]
    runner_up = scored[1][0] if len(scored) > 1 else 0.0
    distinct = 1.0 - 0.5 * (runner_up / top) if top > 0 else 0.0
    auth = store.authority(rec)
    if auth is None:
        return None
    return min(1.0, top * spec * distinct), auth


SUCCESSOR_PROVEN = DEFAULT_THRESHOLDS.suggest_successor_proven
"""Share of the old article's content bigrams its successor must hold (``containment``,
:mod:`governor.authorities.successors`) for a replacement to count as proven; also the
:func:`~verifiers.textsim.verbatim_share` of the report's own words in the successor."""


CLAIM_ROUTE_MIN = DEFAULT_THRESHOLDS.suggest_claim_route_min
"""Confidence below which the successor found for what the report says gives way to the cited
article's own successor when the claim is about that article (:data:`OLD_SUBJECT`), else to
:func:`distinct_successor` (:func:`successor_suggestion`): the confidence at which a repair acts on
a suggestion (``Thresholds.suggestion_min_score``). A hand check of 50 named successors on the
LawBench 3-8 dev answers at 0.3 found 5 of the 11 claim-route names between 0.3 and 0.5 wrong,
against none of the cited articles' own successors."""


def successor_suggestion(
    cit: Citation,
    record: ArticleRecord,
    fidelity_label: str,
    applicability_label: str,
    fidelity_suggestion: Suggestion | None,
    store: AuthorityStore,
    retriever: Retriever,
    *,
    as_of: date,
) -> Suggestion | None:
    """The successor provision for a citation of a repealed instrument whose text is stored.

    When the report's words fit the old article (F not ``misdescribed``, A not
    ``irrelevant``/``contradicts``), the old article's own successor, found from the texts at
    build time (:meth:`AuthorityStore.successor_of`): confidence is that link's; proven when the
    successor restates the old text (containment ≥ :data:`SUCCESSOR_PROVEN`). Otherwise the
    successor is found for what the report says (description, else claim): the best match in
    the successor instrument and the law it interprets (:func:`best_match`), or the successor
    of the old article whose text the report's words are (the fidelity suggestion, confidence
    multiplied by that link's); proven when the report's words are the successor's text
    near-verbatim (:func:`~verifiers.textsim.verbatim_share` ≥ :data:`SUCCESSOR_PROVEN`).
    When that search is below :data:`CLAIM_ROUTE_MIN`, the cited article's own successor is
    named only when the claim is still about that article (:data:`OLD_SUBJECT`; never as
    proof); otherwise a successor provision only with distinctive-word proof
    (:func:`distinct_successor`), else none (issue 13 class 5: naming the successor of a text
    the report does not describe sends the reader to the wrong rule).

    Args:
        cit: the citation; ``record`` the old article it resolved to.
        fidelity_label, applicability_label: the verdicts on the old text.
        fidelity_suggestion: the judge's better old article for the description, or None.
        store, retriever: the authority store and its retrieval; ``as_of`` the report's date.

    Returns:
        The suggestion (confidence in [0, 1], ``proof`` set when proven), or None when the
        instrument has no successor in the store or nothing matches.
    """
    link = store.successor_of(record.instrument, record.article)
    fits = fidelity_label != "misdescribed" and applicability_label not in (
        "irrelevant",
        "contradicts",
    )
    old = f"{bracket_title(record.instrument)}第{record.article}条"
    said = strip_caption(cit.description.strip() or cit.claim.strip()).strip()
    if fits and link is not None:
        by_para = paragraph_successor(said, record, link.successor, store, as_of=as_of)
        if by_para is not None:
            return by_para
        auth = store.authority(link.successor)
        if auth is None:
            return None
        proof = (
            f"old text ≈ successor text: containment {link.containment:.2f} ≥ {SUCCESSOR_PROVEN}"
            if link.containment >= SUCCESSOR_PROVEN
            else ""
        )
        return Suggestion(
            authority=auth,
            score=link.confidence,
            reason=f"successor of {old} from the texts (similarity {link.similarity:.2f}, "
            f"containment {link.containment:.2f})",
            proof=proof,
        )
    repeal = store.repeal_record(record.instrument)
    target = repeal.successor if repeal is not None else None
    found: list[tuple[float, Authority, str]] = []
    if target and len(said) >= 4 and specificity(said) > 0.0:
        targets = [target, *(p for p in [_parent(store, target)] if p)]
        for t in targets:
            hit = best_match(said, t, store, retriever, as_of=as_of)
            if hit is not None:
                found.append(
                    (hit[0], hit[1], f"successor provision in 《{t}》 for what the report says")
                )
    if fidelity_suggestion is not None:
        moved = store.successor_of(
            fidelity_suggestion.authority.instrument, fidelity_suggestion.authority.article or ""
        )
        if moved is not None and (auth := store.authority(moved.successor)) is not None:
            found.append(
                (
                    fidelity_suggestion.score * moved.confidence,
                    auth,
                    f"successor of {fidelity_suggestion.authority.label}, whose text the "
                    "report's words are",
                )
            )
    best = max(found, key=lambda f: f[0]) if found else None
    if (
        link is not None
        and link.containment >= SUCCESSOR_PROVEN
        and (auth := store.authority(link.successor)) is not None
        and (
            best is None or (best[1].instrument, best[1].article) != (auth.instrument, auth.article)
        )
    ):
        # the old article's text is its successor's (proven): a provision matching only the
        # report's words (which are another rule) does not displace it (合同法第二百一十四条,
        # 租赁期限二十年 → 民法典第七百零五条 at containment 0.89, cited for 「协商一致解除合同」:
        # best match 民法典第五百六十二条). Named without proof as the cited article's successor;
        # the note tells the reader the words differ from it.
        return Suggestion(
            authority=auth,
            score=link.confidence,
            reason=f"successor of {old} from the texts (similarity {link.similarity:.2f}, "
            f"containment {link.containment:.2f}); {WORDS_DIFFER_REASON}",
        )
    if (best is None or best[0] < CLAIM_ROUTE_MIN) and link is not None and said:
        # the lexical F check also fails paraphrases: when the claim's distinctive words are
        # the old article's, the report does describe it and its own successor is named
        w_old = subject_words(store.word_weights(said, record.instrument, as_of=None))
        if distinct_share(w_old, record.text) >= OLD_SUBJECT:
            auth = store.authority(link.successor)
            if auth is not None:
                return Suggestion(
                    authority=auth,
                    score=link.confidence,
                    reason=f"successor of {old} from the texts (similarity "
                    f"{link.similarity:.2f}); {OLD_SUBJECT_REASON} {old}'s",
                )
    if best is None or best[0] < CLAIM_ROUTE_MIN:
        # what the report says is not the cited article's text and matches no successor
        # provision by the store's ranking: the old article's own successor is not named (it
        # is a rule the report does not state: 合同法第一百零六条 cited for loan repayment →
        # 民法典第五百七十六条 混同), only a provision holding the claim's distinctive words
        if target and len(said) >= 4:
            targets = [target, *(p for p in [_parent(store, target)] if p)]
            return distinct_successor(said, targets, store, as_of=as_of)
        return None
    score, auth, reason = best
    share = verbatim_share(said, auth.text) if said else 0.0
    proof = (
        f"the report's words are the successor's text: verbatim share {share:.2f} ≥ {SUCCESSOR_PROVEN}"
        if share >= SUCCESSOR_PROVEN
        else ""
    )
    return Suggestion(authority=auth, score=min(1.0, score), reason=reason, proof=proof)


OLD_SUBJECT_REASON = "the claim's distinctive words are"
"""Part of a suggestion's reason when the cited article's own successor is named because the
claim's distinctive words are the old article's (:data:`OLD_SUBJECT`): a paraphrase the lexical
F check failed, not words shown to be another rule (the repeal note then does not call them
「与所述内容不符」)."""
WORDS_DIFFER_REASON = "the report's words are another rule"
"""Part of a suggestion's reason when the cited article's proven successor is kept although the
report's words match another provision better (the note says the words differ from it)."""


def _paragraphs(text: str) -> list[str]:
    """The 款 of an article text (lines; a 项 line belongs to the 款 before it)."""
    out: list[str] = []
    for ln in text.split("\n"):
        if not ln.strip():
            continue
        if out and _ITEM.match(ln):
            out[-1] += "\n" + ln
        else:
            out.append(ln)
    return out


_ITEM = re.compile(r"^\s*[（(][一二三四五六七八九十]+[）)]")
PARAGRAPH_SAID = DEFAULT_THRESHOLDS.suggest_paragraph_said
"""Share of the report's words (bigram containment) one 款 must hold to be the 款 they restate
(the rule of ``governor.revision.strategies._best_paragraph``)."""


def paragraph_successor(
    said: str,
    record: ArticleRecord,
    article_successor: ArticleRecord,
    store: AuthorityStore,
    *,
    as_of: date,
) -> Suggestion | None:
    """The successor of the 款 of a repealed multi-款 article that the report's words restate,
    when it is another provision than the whole article's successor (``article_successor``):
    the old 款's text is contained (≥ :data:`SUCCESSOR_PROVEN`) in a provision of the successor
    instrument more than in the article's successor. 继承法第十七条 (five 款, one per form of
    遗嘱) maps as a whole to 民法典第一千一百三十八条 (口头遗嘱, containment 0.45); its 第二款
    (自书遗嘱) is 民法典第一千一百三十四条. None for a one-款 article, words that restate no
    one 款, or no such provision."""
    paras = _paragraphs(record.text)
    if len(paras) < 2 or not said:
        return None
    scores = [containment(said, p) for p in paras]
    k = max(range(len(paras)), key=lambda i: scores[i])
    if scores[k] < PARAGRAPH_SAID:
        return None
    para = paras[k]
    here = containment(para, article_successor.text)
    hits = store.search(search_query(para), instrument=article_successor.instrument, k=5)
    scored = [(containment(para, rec.text), rec.key, rec) for rec, _ in hits]
    if not scored:
        return None
    share, _, rec = max(scored, key=lambda x: (x[0], x[1]))
    if share < SUCCESSOR_PROVEN or share <= here or rec.key == article_successor.key:
        return None
    auth = store.authority(rec)
    if auth is None:
        return None
    old = f"{bracket_title(record.instrument)}第{record.article}条第{k + 1}款"
    return Suggestion(
        authority=auth,
        score=share,
        reason=f"successor of {old} (the 款 the report's words restate) from the texts "
        f"(containment {share:.2f})",
        proof=f"text of {old} ≈ successor text: containment {share:.2f} ≥ {SUCCESSOR_PROVEN}",
    )


OLD_SUBJECT = DEFAULT_THRESHOLDS.suggest_old_subject
"""A claim the lexical F check failed still describes the old article (whose own successor is
then named) when this IDF-weighted share of its subject words is in the old text. On the gold
edits every text-successor named for a claim below it was judged neutral or harmful (合同法
第十三、十四、十五、三十一、四十二、九十八、一百零六、一百二十三、一百五十六条: ≤ 0.18); 合同法
第九十四条 cited for 「当事人有权解除合同…」 holds 0.41."""
DISTINCT_HOLDS = DEFAULT_THRESHOLDS.suggest_distinct_holds
"""A claim-based successor holds at least this IDF-weighted share of the claim's subject words
(:func:`~verifiers.textsim.distinct_share`; same rule as ``governor.revision.policy``)…"""
DISTINCT_RIVAL_GAP = DEFAULT_THRESHOLDS.suggest_distinct_rival_gap
"""…and this much more than any other provision ranked for the words (else a tie: a guess)…"""
DISTINCT_ALL = DEFAULT_THRESHOLDS.suggest_distinct_all
"""…unless it holds (nearly) all of them."""
CLAIM_WORDS = 5
"""…and the claim has at least this many words (:func:`~verifiers.textsim.claim_words`)."""
DISTINCT_REASON = "successor provision holding the claim's distinctive words"
"""How a :func:`distinct_successor` suggestion's reason begins (its proof for naming, not for
changing words: the revision reads it to name the successor as the rule for the claim)."""


def distinct_successor(
    said: str, targets: Sequence[str], store: AuthorityStore, *, as_of: date
) -> Suggestion | None:
    """The provision of ``targets`` (the successor instrument and the law it interprets) that
    holds the distinctive words of what the report says (``said``), as a suggestion; None
    without proof.

    Candidates are the store's top BM25 hits for ``said`` in each target; words are weighted by
    :meth:`AuthorityStore.word_weights` without numerals (:func:`subject_words`). Proof: the
    best holds ≥ :data:`DISTINCT_HOLDS` of the weight and beats every other candidate by
    :data:`DISTINCT_RIVAL_GAP` (or holds ≥ :data:`DISTINCT_ALL`), and the claim has at least
    :data:`CLAIM_WORDS` words. Confidence (an estimate, not
    calibrated) = share × (1 − ½ · runner-up share / share), the shape of
    :func:`best_match`'s distinctiveness.
    """
    if len(claim_words(said)) < CLAIM_WORDS:
        return None  # 「向人民法院提起诉讼」 is in hundreds of provisions
    scored: list[tuple[float, str, ArticleRecord]] = []
    for t in targets:
        w = subject_words(store.word_weights(said, t, as_of=as_of))
        for rec, _ in store.search(search_query(said), instrument=t, as_of=as_of, k=10):
            scored.append((distinct_share(w, rec.text), rec.key, rec))
    if not scored:
        return None
    scored.sort(key=lambda x: (-x[0], x[1]))
    top, _, rec = scored[0]
    runner = scored[1][0] if len(scored) > 1 else 0.0
    if top < DISTINCT_HOLDS or (top < runner + DISTINCT_RIVAL_GAP and top < DISTINCT_ALL):
        return None
    auth = store.authority(rec)
    if auth is None:
        return None
    conf = top * (1.0 - 0.5 * runner / top)
    return Suggestion(
        authority=auth,
        score=min(1.0, conf),
        reason=f"{DISTINCT_REASON} ({top:.2f}; runner-up {runner:.2f})",
    )


def _parent(store: AuthorityStore, title: str) -> str | None:
    return store.parent_law(title)


def bracket_title(title: str) -> str:
    """``《合同法》``: the title in 《》 without 中华人民共和国 (for reasons and notes)."""
    return "《" + title.removeprefix("中华人民共和国") + "》"
