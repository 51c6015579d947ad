"""Whether stated facts are the subject matter of a non-刑法 provision's instrument (issue 21,
LexEval 3_2 civil round; layer 3).

The civil counterpart of :mod:`verifiers.offence_fit`. A citation that applies a provision of
another instrument to the question's facts and states no proposition of its own (「问题：<facts>」
… 「本案应当适用《X》第N条的规定。」, role ``application``) is first of all wrong when the facts
are not a matter the instrument governs: the facts of a 商品房买卖合同 dispute are not a case of
the 商用密码管理条例, whatever article of it is named. A rank inside the cited instrument cannot
tell this (some article of any instrument ranks first in it), so the facts are compared with
**every instrument of the store** and the cited one is judged relative to the best:

* each instrument is profiled by blocks of :data:`BLOCK` consecutive articles (about a
  chapter: a code is many matters), each the TF-IDF vector of its content bigrams over the
  instrument's title and the block's texts (TF: ``1 + ln`` of the number of its articles, the
  title counting as one, holding the bigram; IDF: ``ln((N + 1) / (df + 0.5))`` over the
  store's ``N`` blocks), so
  the vocabulary all law shares (应当, 规定, 人民) weighs little and what a field of law speaks of
  (借款/利息, 租赁/租金, 起诉/判决/当事人, 商品房/出卖人) weighs much;
  an instrument of more than one block is also profiled whole;
* at each level, ``fit = cos(facts, vector)`` (the facts' bigrams binary, IDF-weighted; the
  evidence and request clauses dropped, :func:`verifiers.offence_fit.facts_proper`; an
  instrument's block fit is its best block's) and ``ratio = fit / best`` over all instruments;
  the instrument's ratio is the larger of its two levels', in [0, 1] (the whole fits where
  the facts touch several chapters, a block where they are one chapter's matter).

:func:`civil_fit_outcome`: ``supports`` when ``ratio ≥ Thresholds.civil_fit_ratio``, else
``irrelevant`` (L1.1.2) with the graded score ``partially_supports``'s score × ratio (as
:func:`verifiers.offence_fit.facts_fit_outcome`, a documented deviation from SPEC §3's label →
score table for this decision only), so candidates for the same facts are ranked by how close
their instrument came. What is not assessed: which article of a fitting instrument is the right
one (a 民事诉讼法 article is judged by its instrument alone; the fit of an article's own
conditions is left to the other checks). No suggestion is named.
"""

from __future__ import annotations

import math
import threading
from collections import Counter
from dataclasses import dataclass

from governor.authorities import AuthorityStore
from governor.authorities.charges import CRIMINAL_LAW
from governor.core.config import Thresholds
from governor.core.labels import score_for
from governor.core.models import CheckResult, Evidence
from verifiers.judge import AxisOutcome, JudgeItem
from verifiers.offence_fit import facts_proper
from verifiers.textsim import bigrams


def _grams(text: str) -> frozenset[str]:
    """Content bigrams of ``text`` without digits or Latin letters (dates, amounts and case
    numbers are no matter of law: 「2021年」 is not the 21st article of anything)."""
    return frozenset(
        b for b in bigrams(text) if not any(c.isdigit() or (c.isascii() and c.isalpha()) for c in b)
    )


_PARTIAL = score_for("applicability", "partially_supports") or 0.0
"""A failing fit's score is its ratio times ``partially_supports``'s score (0.5, SPEC §3)."""


@dataclass(frozen=True)
class _Index:
    """The store's instrument profiles: ``vectors[title]`` (bigram → TF-IDF weight, unit norm),
    ``postings[bigram]`` ((title, weight) pairs) and ``idf[bigram]``."""

    vectors: dict[tuple[str, int], dict[str, float]]
    postings: dict[str, list[tuple[tuple[str, int], float]]]
    idf: dict[str, float]
    n: int


_INDEX: dict[int, _Index] = {}
_LOCK = threading.Lock()


BLOCK = 20
"""Consecutive articles profiled together: about a chapter (a code's 借款合同 chapter is a
matter of its own; the whole 民法典 is every matter and fits none)."""


def _blocks(store: AuthorityStore, title: str) -> list[Counter[str]]:
    """Per :data:`BLOCK` consecutive articles of ``title``: bigram → number of them (and of the
    title, counted in each block) holding it."""
    arts = store.articles(title)
    head = _grams(title)
    out: list[Counter[str]] = []
    for i in range(0, len(arts), BLOCK):
        tf: Counter[str] = Counter(head)
        for a in arts[i : i + BLOCK]:
            tf.update(_grams(a.text))
        out.append(tf)
    if len(out) > 1:
        whole: Counter[str] = Counter(head)
        for a in arts:
            whole.update(_grams(a.text))
        out.append(whole)
    return out


def _vector(tf: Counter[str], idf: dict[str, float], unseen: float) -> dict[str, float]:
    vec = {b: (1.0 + math.log(c)) * idf.get(b, unseen) for b, c in tf.items()}
    norm = math.sqrt(math.fsum(w * w for w in vec.values())) or 1.0
    return {b: w / norm for b, w in vec.items()}


def _index(store: AuthorityStore) -> _Index:
    """The instrument profiles of ``store`` (built once per store, a few seconds)."""
    hit = _INDEX.get(id(store))
    if hit is not None:
        return hit
    counts = {(t, i): c for t in store.titles() for i, c in enumerate(_blocks(store, t))}
    df: Counter[str] = Counter()
    for c in counts.values():
        df.update(c.keys())
    n = len(counts)
    idf = {b: math.log((n + 1) / (d + 0.5)) for b, d in df.items()}
    unseen = math.log((n + 1) / 0.5)
    vectors = {k: _vector(c, idf, unseen) for k, c in counts.items()}
    postings: dict[str, list[tuple[tuple[str, int], float]]] = {}
    for t, vec in vectors.items():
        for b, w in vec.items():
            postings.setdefault(b, []).append((t, w))
    got = _Index(vectors, postings, idf, n)
    with _LOCK:
        _INDEX[id(store)] = got
    return got


@dataclass(frozen=True)
class InstrumentFit:
    """How well ``facts`` fall within one instrument's subject matter.

    Attributes:
        instrument: the cited instrument's title.
        score: ``cos(facts, ·)`` at the level of the larger ratio (whole or best block).
        best: the best instrument's score at that level; ``best_instrument`` its title.
        ratio: ``score / best`` in [0, 1] (0.0 when nothing fits).
    """

    instrument: str
    score: float
    best: float
    best_instrument: str | None
    ratio: float


def instrument_fit(store: AuthorityStore, instrument: str, facts: str) -> InstrumentFit:
    """The :class:`InstrumentFit` of ``facts`` for ``instrument`` (method in the module
    docstring). An instrument without stored articles (a repealed one kept apart) is profiled
    on the fly with the store's IDF. Pure given the store."""
    ix = _index(store)
    unseen = math.log((ix.n + 1) / 0.5)
    fb = _grams(facts_proper(facts))
    fw = {b: ix.idf[b] for b in fb if b in ix.idf}
    norm = math.sqrt(math.fsum(w * w for w in fw.values())) or 1.0
    per_block: dict[tuple[str, int], float] = {}
    for b, w in fw.items():
        for k, v in ix.postings.get(b, ()):
            per_block[k] = per_block.get(k, 0.0) + w * v
    sizes = dict(_sizes(ix))
    if (instrument, 0) not in ix.vectors:
        blocks = _blocks(store, instrument)
        sizes[instrument] = len(blocks)
        for i, c in enumerate(blocks):
            vec = _vector(c, ix.idf, unseen)
            per_block[(instrument, i)] = math.fsum(w * vec.get(b, 0.0) for b, w in fw.items())
    # two levels: the whole instrument, and its best block (the whole is its last vector)
    whole: dict[str, float] = {}
    block: dict[str, float] = {}
    for (t, i), x in per_block.items():
        n_t = sizes.get(t, i + 1)
        if n_t == 1 or i == n_t - 1:
            whole[t] = x
        if n_t == 1 or i < n_t - 1:
            block[t] = max(block.get(t, 0.0), x)
    best_w = max(whole.values(), default=0.0)
    best_b = max(block.values(), default=0.0)
    r_w = whole.get(instrument, 0.0) / best_w if best_w > 0 else 0.0
    r_b = block.get(instrument, 0.0) / best_b if best_b > 0 else 0.0
    if r_w >= r_b:
        level, own, best = whole, whole.get(instrument, 0.0), best_w
    else:
        level, own, best = block, block.get(instrument, 0.0), best_b
    best_t = max(level, key=lambda t: (level[t], t)) if level else None
    ratio = min(1.0, own / best) if best > 0 else 0.0
    return InstrumentFit(instrument, own / norm, best / norm, best_t, ratio)


_SIZES: dict[int, dict[str, int]] = {}


def _sizes(ix: _Index) -> dict[str, int]:
    """Vectors per instrument (1, or its blocks and its whole)."""
    hit = _SIZES.get(id(ix))
    if hit is None:
        hit = dict(Counter(t for t, _ in ix.vectors))
        _SIZES[id(ix)] = hit
    return hit


def applies_to_facts_civil(item: JudgeItem, claim: str) -> bool:
    """True when ``item`` is a provision of an instrument other than the 刑法 applied to the
    question's facts with no proposition of its own (``claim`` empty, as for 「本案应当适用…」)."""
    rec = item.record
    a = item.citation.assertion
    return (
        rec is not None
        and rec.instrument != CRIMINAL_LAW
        and not claim
        and bool(item.context.strip())
        and (a is None or a.role == "application")
    )


def civil_fit_outcome(item: JudgeItem, store: AuthorityStore, th: Thresholds) -> AxisOutcome:
    """Applicability of a non-刑法 provision applied to the question's facts
    (:func:`applies_to_facts_civil`): ``supports`` (1.0) when its instrument's fit reaches
    ``th.civil_fit_ratio`` of the best instrument's, else ``irrelevant`` (L1.1.2) with the
    graded score ``partially_supports``'s score × ratio.

    Raises:
        ValueError: ``item`` has no resolved record.
    """
    rec = item.record
    if rec is None:
        raise ValueError("civil_fit_outcome needs a resolved provision")
    fit = instrument_fit(store, rec.instrument, item.context.strip())
    what = (
        f"the facts fall within 《{rec.instrument}》 at {fit.ratio:.2f} of the best-fitting "
        f"instrument's fit (《{fit.best_instrument}》, {fit.best:.3f}; this one {fit.score:.3f})"
    )
    ev = (Evidence(text=rec.text[:200], authority_id=item.authority.id),)
    if fit.ratio >= th.civil_fit_ratio:
        return AxisOutcome(
            CheckResult(
                axis="applicability", label="supports", score=1.0, rationale=what, evidence=ev
            )
        )
    return AxisOutcome(
        CheckResult(
            axis="applicability",
            label="irrelevant",
            score=_PARTIAL * fit.ratio,
            rationale=f"the facts are not a matter of its instrument: {what}",
            evidence=ev,
        ),
        codes=("L1.1.2",),
    )
