"""The wrong article of the right law (issue 21, silence on wrong ones; layer 3).

A paraphrase or application that passes Fidelity and Applicability on word overlap may still
state another article's rule: 「董事、高级管理人员违反法律、行政法规或者公司章程的规定，损害公司利益的，
应当承担赔偿责任」 cited as 公司法第一百五十二条 (损害股东利益 → 股东可以提起诉讼) is 第一百四十九条's
rule (给公司造成损失的，应当承担赔偿责任). The cited article shares most of the words, so every
overlap check passes it.

:func:`neighbour_outcome` compares, over all articles of the cited instrument version, how much
of the assertion's content each one holds, IDF-weighted over those articles
(:func:`verifiers.textsim.pooled_containment`: a bigram most articles hold — 违反法律、行政法规 —
weighs little, a number with its unit, an actor or a consequence few of them hold weighs much;
words no article holds are left out). When another article holds clearly more than the cited
one (``Thresholds.neighbour_margin``), Applicability becomes ``partially_supports`` (the cited
article still holds part of the content) or ``irrelevant`` (it holds less than
``Thresholds.applicability_min_relevance``), L1.1.2, with that article as the suggestion; the
revision policy decides whether the note names it (:mod:`governor.revision.policy`).

Not judged: quotations (Fidelity's quote check), list members (a list's words are shared),
刑法 applications (the charge table decides a conviction sentence), assertions with fewer than
``Thresholds.neighbour_min_bigrams`` content bigrams (a few words fit many articles).
"""

from __future__ import annotations

import re

from governor.authorities import AuthorityStore
from governor.authorities.charges import CRIMINAL_LAW
from governor.core.config import Thresholds
from governor.core.models import Evidence, Suggestion
from verifiers.judge import AxisOutcome, JudgeItem, outcome
from verifiers.suggest import confidence, strip_caption
from verifiers.textsim import bigrams, contains_phrase, normalize, pooled_containment

ROLES = frozenset({"paraphrase", "application"})
"""Assertion roles the neighbour comparison judges."""

REASON = "another article of the instrument holds the report's words clearly better"
"""The suggestion's reason."""


_PIN = re.compile(r"《[^》]{1,60}》|第[零〇一二两三四五六七八九十百千0-9]+[条款项]")
"""Titles and pins left in the assertion's words: the instrument's name is in every article's
context, not in one article's text."""

MIN_CONSEQUENCE = 4
"""Normalised characters a consequence needs to be compared verbatim (「承担责任」)."""


def _consequence_moved(consequence: str, other: str, cited: str) -> bool:
    """True when the assertion's consequence stands in ``other`` in those words and not in
    ``cited`` (:func:`verifiers.textsim.contains_phrase`): 「应当承担赔偿责任」 is 公司法第一百四十九
    条's consequence, not 第一百五十二条's (股东可以向人民法院提起诉讼)."""
    c = consequence.strip()
    if len(normalize(c)) < MIN_CONSEQUENCE:
        return False
    return contains_phrase(c, other) and not contains_phrase(c, cited)


_CARRIER_GAP = 8
"""Characters allowed between a citation and its assertion's scope for the words to be its own
(「…第152条的规定，」, 「…之规定：」); a 法律依据 item whose scope is an earlier sentence lies
dozens of characters away."""


def neighbour_outcome(item: JudgeItem, store: AuthorityStore, th: Thresholds) -> AxisOutcome | None:
    """Applicability ``partially_supports``/``irrelevant`` (L1.1.2) naming the article of the
    cited instrument that holds the assertion's content clearly better than the cited one
    (module docstring), or None (no such article, or the citation is not judged here: a
    quotation, a list member, a 刑法 application, words borrowed from another sentence)."""
    cit, rec = item.citation, item.record
    a = cit.assertion
    if a is None or a.role not in ROLES or rec is None or item.sibling_texts or cit.quotes:
        return None
    if a.scope is not None and not (
        a.scope.start - _CARRIER_GAP <= cit.span.end
        and cit.span.start <= a.scope.end + _CARRIER_GAP
    ):
        # words borrowed from another sentence (a bare 法律依据 item repeating an earlier
        # mention): that mention is judged on them, and a repeat of a misdescribed one is
        # noted as such (verifiers.verify, REPEAT_OF_MISDESCRIBED)
        return None
    if a.role == "application" and rec.instrument == CRIMINAL_LAW:
        return None
    said = _PIN.sub("", strip_caption(a.text).replace(cit.raw, "")).strip()
    if len(bigrams(said)) < th.neighbour_min_bigrams:
        return None
    arts = store.articles(rec.instrument, version_hint=rec.version)
    at = next((i for i, r in enumerate(arts) if r.article == rec.article), None)
    if at is None or len(arts) < 3:
        return None
    scores = pooled_containment(said, [r.text for r in arts])
    cited = scores[at]
    ranked = sorted(((s, i) for i, s in enumerate(scores) if i != at), key=lambda t: -t[0])
    best, bi = ranked[0]
    other = arts[bi]
    above = sum(1 for sc, _ in ranked if sc >= cited + th.neighbour_margin)
    if cited >= th.neighbour_generic_cover and above >= 2:
        return None  # generic words several articles hold: no one article is singled out
    held = _consequence_moved(a.consequence, other.text, rec.text)
    clearly = a.role == "paraphrase" and best >= cited + th.neighbour_margin
    if best <= cited or not (held or clearly):
        return None
    auth = store.authority(other)
    if auth is None:
        return None
    runner_up = max(cited, ranked[1][0] if len(ranked) > 1 else 0.0)
    sug = Suggestion(
        authority=auth,
        score=confidence(best, runner_up, said),
        reason=REASON,
        proof="",
    )
    label = "irrelevant" if cited < th.applicability_min_relevance else "partially_supports"
    return outcome(
        "applicability",
        label,
        f"{auth.label} holds the report's words ({best:.2f}, IDF-weighted over the "
        f"instrument's articles) clearly better than the cited provision ({cited:.2f})",
        codes=("L1.1.2",),
        suggestion=sug,
        evidence=(Evidence(text=other.text[:120], authority_id=auth.id),),
    )
