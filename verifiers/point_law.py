"""The wrong law for the point: a law cited whole whose articles never use the matter's words,
another instrument's article holding them (issue 21, "wrong but silent").

A report that names a law with no article (「根据《农村土地承包法》」, 「依照【刑事诉讼法】的规定处理」)
for the question's matter is checked on words, not on a rule: the point is what the report
says under the citation plus the question's asking sentence (:func:`point_text`, the asking
formula 「根据哪个法律」 left out). Its ``jieba`` words the cited instrument never uses — not in
any article, not in its title (:func:`absent_words`) — are the matter the law does not govern
(调解仲裁, 引渡, 非处方药目录, 社会工作者 … ; a general law holds the words of the matters it
governs in general terms: 民法典 has 合同, 劳动法 has 劳动合同, and nothing is found absent).
Only words some article of the store uses count (a layperson's 小芳, 哪些 are no matter of law).
When the report says something of its own under the citation (:data:`OWN_WORDS` words), the
matter must be among its words: a law cited for a scene the report made up is not judged on the
question's matter (疫苗管理法 for a nurse's duty under a question about 红十字会's property).

The citation is judged the wrong law (A ``irrelevant``, L1.1.2) when those words are a real
share of the point (``Thresholds.point_law_absent_share``) and an article of another instrument
holds them all and the point near-verbatim (``Thresholds.point_law_near``, at
``Thresholds.point_law_margin`` above the cited law's best article): a matter the store shows
governed elsewhere, not an absence that proves nothing. When exactly one instrument holds it
so, its article is the suggestion (the point near-verbatim: at the containment as confidence).

The rationale says what the cited law governs (its 第一条, the purpose article every statute
opens with) and names the other law's article (:data:`POINT_LAW_MARK` marks it for the note,
:meth:`governor.revision.policy.RevisionPolicy.note`: 「经核查，《X》中未见上述规定」).
"""

from __future__ import annotations

import functools
import re
from datetime import date

from governor.authorities import AuthorityStore
from governor.core.config import Thresholds
from governor.core.labels import POINT_LAW_MARK, score_for
from governor.core.models import CheckResult, Citation, Evidence, Suggestion
from governor.core.ports import Retriever
from governor.core.records import ArticleRecord
from verifiers.suggest import ASK_FORMULA_RE, asking_sentence, citable
from verifiers.textsim import bigrams, claim_words, containment, folded

__all__ = ["absent_words", "point_text", "wrong_law"]

POINT_K = 30
"""Store-wide hits searched for an article holding the point."""

_SCOPE_CHARS = 60
"""Characters of the cited law's purpose article quoted in the rationale."""

OWN_WORDS = 3
"""Words of two characters or more the report must say under the citation for them to be the
point's matter (fewer — 「法条」, 「处理」 — and the question's asking sentence names it)."""

_STEM_RE = re.compile(
    r"(?:中华人民共和国)?(?P<stem>[^（(《》]+?)(?:办法|法|条例|规定)(?:（[^）]*）)?"
)
"""A law's, regulation's or 规定's title, its stem without the country name and the kind."""

_GENERIC = re.compile(r"^(?:法律|法规|规定|条文|法条|相关|依据|根据|依照|按照|具体|有关)$")
"""Words every citing sentence has: never the matter."""


def point_text(said: str, question: str) -> str:
    """What the citation is offered for: the report's words under it and the question's asking
    sentence without its asking formula (「根据哪个法律的规定，」, 「？」)."""
    ask = ASK_FORMULA_RE.sub("", asking_sentence(question)).strip()
    return "。".join(p for p in (said.strip(), ask) if p)


def absent_words(point: str, body: str) -> list[str]:
    """The ``jieba`` words of ``point`` (two characters or more) not in ``body`` (folded)."""
    return sorted(w for w in claim_words(point) if not _GENERIC.match(w) and folded(w) not in body)


def _weight(words: list[str] | set[str]) -> int:
    return sum(len(w) for w in words)


def _scope(arts: tuple[ArticleRecord, ...]) -> str:
    first = next((r for r in arts if r.article == "1"), None)
    return first.text.replace("\n", "")[:_SCOPE_CHARS] if first is not None else ""


def _keep(
    holders: dict[str, tuple[float, ArticleRecord, str]],
    rec: ArticleRecord,
    c: float,
    own: float,
    near: tuple[float, float],
    terms: str,
) -> None:
    """``rec`` kept as its instrument's holder of the point (with the ``terms`` it holds that
    the cited law lacks) when it holds ``near[0]`` of the point and ``near[1]`` more than the
    cited law's best article (``own``)."""
    if c < near[0] or c < own + near[1]:
        return
    if rec.instrument not in holders or c > holders[rec.instrument][0]:
        holders[rec.instrument] = (c, rec, terms)


def title_stem(title: str) -> str:
    """A law's subject as its title names it: 「中华人民共和国引渡法」 → 「引渡」, 「农村土地承包经营纠纷
    调解仲裁法」 → itself without 法 (a law, 条例 or 规定's title; other titles → ``""``)."""
    m = _STEM_RE.fullmatch(title)
    return m.group("stem") if m else ""


def subject_titles(
    point: str, instrument: str, body: str, store: AuthorityStore, cover: float
) -> list[str]:
    """Other instruments whose title names the point's subject (the title's stem,
    :func:`title_stem`, has ``cover`` — ``Thresholds.point_law_title_cover`` — of its bigrams in
    the point) where
    the cited instrument never uses that stem: 「农村土地承包经营纠纷调解和仲裁」 under
    《农村土地承包法》 names 《农村土地承包经营纠纷调解仲裁法》; 「引渡请求」 under 《刑事诉讼法》
    names 《引渡法》. A law using the other's subject as a phrase governs it too (《劳动法》 has
    劳动合同: 《劳动合同法》 is never named over it)."""
    own = title_stem(instrument)
    pb = bigrams(point)
    out = []
    for title, stem, fstem, sb in _stem_table(store.titles()):
        if title == instrument or stem == own or fstem in body:
            continue
        if len(sb & pb) / len(sb) >= cover:
            out.append(title)
    return out


@functools.lru_cache(maxsize=4)
def _stem_table(titles: tuple[str, ...]) -> tuple[tuple[str, str, str, frozenset[str]], ...]:
    """``(title, stem, folded stem, stem bigrams)`` for each title with a stem of two
    characters or more and some bigram: computed once per store's title tuple (a warm
    round called :func:`title_stem` on all 1,600 titles for each whole-law citation)."""
    rows = []
    for title in titles:
        stem = title_stem(title)
        sb = bigrams(stem) if len(stem) >= 2 else frozenset()
        if sb:
            rows.append((title, stem, folded(stem), sb))
    return tuple(rows)


def wrong_law(
    cit: Citation,
    instrument: str,
    store: AuthorityStore,
    retriever: Retriever,
    *,
    question: str,
    as_of: date,
    th: Thresholds,
) -> tuple[CheckResult, Suggestion | None] | None:
    """A irrelevant (and the other law's article when one alone holds the point) for a law
    cited whole for a matter its articles never name; None when the law may govern it."""
    if cit.article is not None:
        return None
    said = cit.assertion.text if cit.assertion is not None else cit.claim
    point = point_text(said, question)
    arts = store.articles(instrument, as_of=as_of)
    if not point or not arts:
        return None
    body = folded(instrument + "".join(r.text for r in arts))
    absent = absent_words(point, body)
    others = [
        rec
        for rec, _ in citable(retriever.search(point, as_of=as_of, k=POINT_K))
        if rec.instrument != instrument
    ]
    texts = {rec.key: folded(rec.instrument + rec.text) for rec in others}
    legal = [w for w in absent if any(folded(w) in t for t in texts.values())]
    present = [w for w in claim_words(point) if not _GENERIC.match(w) and w not in absent]
    share = _weight(legal) / max(1, _weight(legal) + _weight(present))
    # words of its own under the citation: the matter must be among them (a report may cite a
    # law for a scene of its own making: 疫苗管理法 for a nurse's duty, under a question
    # about 红十字会's property, is no wrong law for 红十字会)
    own_words = len([w for w in claim_words(said) if not _GENERIC.match(w)]) >= OWN_WORDS
    own = max(containment(point, r.text) for r in arts)
    holders: dict[str, tuple[float, ArticleRecord, str]] = {}
    if legal and share >= th.point_law_absent_share:
        near = (th.point_law_near, th.point_law_margin)
        for rec in others:
            has = [w for w in legal if folded(w) in texts[rec.key]]
            if own_words and not any(folded(w) in folded(said) for w in has):
                continue  # the question's matter, not what the report cites the law for
            if _weight(has) / _weight(legal) >= th.point_law_held:
                _keep(holders, rec, containment(point, rec.text), own, near, "、".join(has))
    near = (th.point_law_title_near, th.point_law_title_margin)
    for title in subject_titles(
        said if own_words else point, instrument, body, store, th.point_law_title_cover
    ):
        for rec, _ in retriever.search(point, instrument=title, as_of=as_of, k=3):
            _keep(holders, rec, containment(point, rec.text), own, near, title_stem(title))
    if not holders:
        return None
    ranked = sorted(holders.values(), key=lambda cr: -cr[0])
    best_c, best, terms = ranked[0]
    alone = len(ranked) == 1 or ranked[1][0] < best_c - th.point_law_margin
    scope = _scope(arts)
    governs = f" (its 第1条: 「{scope}」)" if scope else ""
    where = f"《{best.instrument}》第{best.article}条" if alone else "another instrument"
    a = CheckResult(
        axis="applicability",
        label="irrelevant",
        score=score_for("applicability", "irrelevant"),
        rationale=(
            f"{POINT_LAW_MARK}: no article of 《{instrument}》{governs} uses 「{terms}」; "
            f"{where} holds the point (overlap {best_c:.2f}) better than any article of the "
            f"cited law ({own:.2f})"
        ),
        evidence=(Evidence(text=best.text[:120], authority_id=best.key),),
    )
    sug = None
    auth = store.authority(best) if alone else None
    if auth is not None:
        sug = Suggestion(
            authority=auth,
            score=round(best_c, 3),
            reason=f"the article of another instrument holding the point's 「{terms}」",
        )
    return a, sug
