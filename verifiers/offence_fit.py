"""How well stated facts meet a 刑法 article's conditions (issue 21, LexEval 3_2 round; layer 3).

A citation that applies a 刑法 article to the question's facts and states no proposition of its
own (「问题：<facts>」 … 「本案应当适用《中华人民共和国刑法》第N条的规定。」, role ``application``)
is right when the facts are the case the article is written for. This module reads that from
the article text and the charge table, never from a list of article numbers:

The facts are read without the clauses that list the evidence or the prosecution's request
(:func:`facts_proper`).

* **分则** (第一百零二条 onwards, :func:`governor.authorities.charges.is_special_part`): the
  strongest evidence is a charge the article defines (:func:`charge_table`) named in the facts
  (「…构成非法拘禁罪」, a 选择性罪名 written in part). Otherwise each 款's **conduct clause** (its
  words before the penalty, :data:`~governor.text.regexes.SENTENCE_PENALTY_RE`) and the
  article's charge names are compared with the facts: ``fit = Σ w(shared) / √Σ w(clause)`` over
  content bigrams (``w`` = the 刑法 IDF, :class:`~verifiers.textsim.BigramIdf`), a cosine-like
  score that neither favours a two-word clause (containment does) nor a long article, plus
  ``Thresholds.offence_fit_char_weight`` × the same score over the characters of the charge
  names (real facts write 窃得, 盗走, 扒窃 for 盗窃; the charge itself is often masked). The fit is
  judged **relative to the best 分则 article of the same version that defines a charge**
  (``ratio = fit / best``): the
  facts of a theft meet 第二百六十四条 far better than any other article, while a random article
  shares only the legal vocabulary every criminal case has (被告人, 数额, 伤害…).
* **总则** (第一条 to 第一百零一条): a general-part article applies when the facts hold the
  case it defines — a term it defines (自首, 累犯, 主犯, 从犯, 共同犯罪 …:
  :attr:`ProvisionStructure.defines`) named in the facts, or its own 「……的」 condition clauses
  (「犯罪以后自动投案，如实供述自己的罪行的」) held by the facts (IDF-weighted containment).

Facts that name the parties of a civil case only (a 原告 and a 被告, no 被告人, 公诉机关 or
自诉人: :func:`facts_proceeding`) are no article's case: a 刑法 article applied to them is
``irrelevant`` (3_2 civil items: 刑法第一百零六条, 第一百六十七条 passed for civil facts on shared
words). Facts that name no party (「张三偷了邻居的自行车」) or both kinds are judged as before.

:func:`facts_fit_outcome` turns the fit into the Applicability outcome: ``supports`` at or above
the fitted thresholds (``Thresholds.offence_fit_ratio``, ``Thresholds.general_part_cover``),
else ``irrelevant`` (L1.1.2) with a **graded score** ``0.5 × ratio`` (or ``0.5 × cover``), below
every pass and below ``partially_supports``: how close the article came, so that four
candidates for the same facts are ranked by how well the facts meet them (a documented
deviation from the label → score table of SPEC §3, for this decision only). No suggestion is
named: the best-fitting article is the right one too rarely to be put to the reader.
"""

from __future__ import annotations

import math
import re
import threading
from collections import Counter
from dataclasses import dataclass
from typing import Literal

from governor.authorities import ArticleRecord, AuthorityStore
from governor.authorities.charges import CRIMINAL_LAW, charge_table, is_special_part
from governor.authorities.structure import structure_of
from governor.core.config import Thresholds
from governor.core.labels import score_for
from governor.core.models import CheckResult, Evidence
from governor.text import regexes as rx
from verifiers.conditions import written_charge
from verifiers.judge import AxisOutcome, JudgeItem
from verifiers.textsim import BigramIdf, bigrams, content_chars, weighted_containment

MIN_TERM = 2
"""Characters a defined term needs to be looked up in the facts (shorter ones are words)."""
PARTIAL_SCORE = score_for("applicability", "partially_supports") or 0.0
"""A failing fit's score is its ratio (or cover) times ``partially_supports``'s score (0.5, SPEC
§3): always below it."""


@dataclass(frozen=True)
class FactsFit:
    """How well ``facts`` meet one 刑法 article.

    Attributes:
        article: the cited article key.
        score: its fit (分则: the cosine-like fit; 总则: the cover, in [0, 1]).
        best: the best fit among the 分则 articles of its version (分则 only; else ``score``).
        best_article: the article with that best fit (分则 only).
        ratio: ``score / best`` in [0, 1] (分则), or the cover (总则).
        charge: a charge the article defines that the facts name, or None.
        term: a term the (总则) article defines that the facts name, or None.
    """

    article: str
    score: float
    best: float
    best_article: str | None
    ratio: float
    charge: str | None = None
    term: str | None = None


def conduct_clauses(rec: ArticleRecord) -> tuple[str, ...]:
    """Each 款's conduct clause: its words before the penalty (the whole 款 when it has none)."""
    out: list[str] = []
    for para in rec.text.split("\n"):
        if not para.strip():
            continue
        m = rx.SENTENCE_PENALTY_RE.search(para)
        out.append(para[: m.start()] if m is not None else para)
    return tuple(out)


def clause_fit(clause: frozenset[str], facts: frozenset[str], idf: BigramIdf) -> float:
    """``Σ w(shared) / √Σ w(clause)`` over content bigrams (0.0 for an empty clause)."""
    if not clause:
        return 0.0
    total = math.fsum(idf.weight(b) for b in clause)
    return math.fsum(idf.weight(b) for b in clause if b in facts) / math.sqrt(total)


_Profiles = dict[str, tuple[tuple[frozenset[str], ...], frozenset[str]]]
"""分则 article → (bigram sets of its conduct clauses with its charge names, its charge names'
characters)."""


@dataclass(frozen=True)
class _Version:
    profiles: _Profiles
    idf: BigramIdf
    chars: BigramIdf
    offences: frozenset[str]


_PROFILES: dict[tuple[int, str], _Version] = {}
_LOCK = threading.Lock()


def _profiles(store: AuthorityStore, version: str) -> _Version:
    """Per 分则 article: the bigram sets of its conduct clauses, each with the article's charge
    names (without 罪) added, and the characters of those names; the bigram and character IDF
    tables of the version; the 分则 articles that define a charge (cached per store and
    version)."""
    key = (id(store), version)
    hit = _PROFILES.get(key)
    if hit is not None:
        return hit
    arts = store.articles(CRIMINAL_LAW, version_hint=version)
    idf = BigramIdf.from_texts(a.text for a in arts)
    cdf: Counter[str] = Counter()
    for a in arts:
        cdf.update(set(content_chars(a.text)))
    table = charge_table(store)
    out: _Profiles = {}
    offences: set[str] = set()
    for a in arts:
        if not is_special_part(a.article):
            continue
        charges = table.charges_of(a.article)
        if charges:
            offences.add(a.article)
        stems = "，".join(c[:-1] for c in charges)
        names = bigrams(stems)
        out[a.article] = (
            tuple(bigrams(c) | names for c in conduct_clauses(a)),
            frozenset(content_chars(stems)),
        )
    got = _Version(out, idf, BigramIdf(dict(cdf), len(arts)), frozenset(offences))
    with _LOCK:
        _PROFILES[key] = got
    return got


_FITS: dict[tuple[int, str, str, float], dict[str, float]] = {}
_FITS_MAX = 64


def _all_fits(
    store: AuthorityStore, version: str, facts: str, char_weight: float
) -> dict[str, float]:
    """分则 article → fit for ``facts``: the best conduct clause's :func:`clause_fit` plus
    ``char_weight`` × the same fit over the characters of its charge names (盗窃 → 盗, 窃: the
    facts write 窃得, 盗走, 扒窃 as often as 盗窃). The last few facts are cached: the candidates
    of one question share them."""
    key = (id(store), version, facts, char_weight)
    hit = _FITS.get(key)
    if hit is not None:
        return hit
    v = _profiles(store, version)
    facts = facts_proper(facts)
    fb = bigrams(facts)
    fc = frozenset(content_chars(facts))
    fits = {
        art: max((clause_fit(c, fb, v.idf) for c in clauses), default=0.0)
        + char_weight * clause_fit(chars, fc, v.chars)
        for art, (clauses, chars) in v.profiles.items()
    }
    with _LOCK:
        if len(_FITS) >= _FITS_MAX:
            _FITS.pop(next(iter(_FITS)))
        _FITS[key] = fits
    return fits


def _named_charge(store: AuthorityStore, article: str, facts: str) -> str | None:
    table = charge_table(store)
    mine = table.charges_of(article)
    for name in table.find(facts):
        if name in mine:
            return name
    got = written_charge(facts, mine)
    return got[1] if got is not None else None


def offence_fit(
    store: AuthorityStore, rec: ArticleRecord, facts: str, *, char_weight: float = 0.0
) -> FactsFit:
    """The :class:`FactsFit` of ``facts`` for the 刑法 article ``rec`` (method in the module
    docstring; ``char_weight``: ``Thresholds.offence_fit_char_weight``). Pure given the store."""
    if is_special_part(rec.article):
        fits = _all_fits(store, rec.version, facts, char_weight)
        score = fits.get(rec.article, 0.0)
        offence_set = _profiles(store, rec.version).offences
        # the best is an offence article: one that defines a charge (a 附则 or 单位犯罪 article
        # — 第四百五十二条, 第二百三十一条 — shares words with every case and defines none)
        offences = [a for a in fits if a in offence_set] or list(fits)
        best_article = max(offences, key=lambda a: (fits[a], a)) if offences else None
        best = fits[best_article] if best_article is not None else 0.0
        ratio = min(1.0, score / best) if best > 0 else 0.0
        return FactsFit(
            rec.article, score, best, best_article, ratio, _named_charge(store, rec.article, facts)
        )
    s = structure_of(rec)
    term = next((t for t in s.defines if len(t) >= MIN_TERM and t in facts), None)
    idf = _profiles(store, rec.version).idf
    clauses = [c.text for c in s.conditions if c.kind == "clause"] or list(conduct_clauses(rec))
    cover = max((weighted_containment(c, facts, idf) for c in clauses), default=0.0)
    return FactsFit(rec.article, cover, cover, None, cover, term=term)


Proceeding = Literal["criminal", "civil"]
"""The kind of case a procedure law governs, and that stated facts are."""

_PARTIES: dict[Proceeding, re.Pattern[str]] = {
    "criminal": re.compile(r"被告人|犯罪嫌疑人|公诉机关|公诉人|自诉人"),
    "civil": re.compile(r"原告(?!人)|被告(?!人)"),
}
"""The parties each kind of proceeding names, as its procedure law calls them: the 刑事诉讼法
(第三条, 第十四条 … 犯罪嫌疑人、被告人, 第一百六十九条 公诉, 第二百一十条 自诉人) and the 民事诉讼法
(第一百二十二条 起诉: 原告, 被告). 「附带民事诉讼的原告人」 is a party of a criminal case."""


def facts_proceeding(facts: str) -> Proceeding | None:
    """The kind of case ``facts`` are, read from the parties they name
    (:data:`_PARTIES`): the one kind whose parties are named, None when both or neither are
    (「张三偷了邻居的自行车」 names none; a 刑事附带民事 case names both)."""
    kinds = [k for k, rx in _PARTIES.items() if rx.search(facts)]
    return kinds[0] if len(kinds) == 1 else None


_CLAUSE = re.compile(r"[^，,。；;\n]+")


def facts_proper(facts: str) -> str:
    """``facts`` without the clauses that list evidence or the prosecution's request
    (:data:`~governor.text.regexes.FACTS_EVIDENCE_CLAUSE_RE`), clauses joined by 「，」."""
    return "，".join(
        m.group(0)
        for m in _CLAUSE.finditer(facts)
        if not rx.FACTS_EVIDENCE_CLAUSE_RE.search(m.group(0))
    )


def applied_to_facts(item: JudgeItem, claim: str) -> bool:
    """True when ``item`` is a provision applied to the question's facts with no proposition
    of its own (``claim`` is the judged claim, empty for 「本案应当适用…」): a 刑法 article is
    judged by :func:`facts_fit_outcome`, any other by
    :func:`verifiers.civil_fit.civil_fit_outcome`."""
    a = item.citation.assertion
    return (
        item.record is not None
        and not claim
        and bool(item.context.strip())
        and (a is None or a.role == "application")
    )


def fit_result(
    label: str,
    score: float,
    why: str,
    evidence: tuple[Evidence, ...],
    fit: float | None = None,
) -> AxisOutcome:
    """The applicability outcome of a facts fit (L1.1.2 unless ``supports``); ``fit`` the
    graded fit in [0, 1] (:attr:`CheckResult.fit`)."""
    codes = ("L1.1.2",) if label != "supports" else ()
    return AxisOutcome(
        CheckResult(
            axis="applicability",
            label=label,
            score=score,
            rationale=why,
            evidence=evidence,
            fit=fit,
        ),
        codes=codes,  # type: ignore[arg-type]
    )


def facts_fit_outcome(item: JudgeItem, store: AuthorityStore, th: Thresholds) -> AxisOutcome:
    """Applicability of a 刑法 article applied to the question's facts (:func:`applied_to_facts`).

    Returns ``supports`` (score 1.0) when the facts name a charge the article defines or a term
    it defines, or its fit reaches the threshold (分则: ``th.offence_fit_ratio`` of the best
    分则 article's; 总则: cover ≥ ``th.general_part_cover``); else ``irrelevant`` with the
    graded score ````partially_supports``'s score × ratio``.

    Raises:
        ValueError: ``item`` has no resolved record.
    """
    rec = item.record
    if rec is None:
        raise ValueError("facts_fit_outcome needs a resolved provision")
    facts = item.context.strip()
    fit = offence_fit(store, rec, facts, char_weight=th.offence_fit_char_weight)
    ev = (Evidence(text=conduct_clauses(rec)[0][:200], authority_id=item.authority.id),)
    if fit.charge is not None:
        return fit_result(
            "supports", 1.0, f"第{rec.article}条 defines {fit.charge}, named in the facts", ev, 1.0
        )
    if fit.term is not None:
        return fit_result(
            "supports", 1.0, f"第{rec.article}条 defines {fit.term}, which the facts state", ev, 1.0
        )
    if facts_proceeding(facts) == "civil":
        return fit_result(
            "irrelevant",
            0.0,
            "the facts are not its case: they are a civil case (they name a 原告 and a 被告, "
            "no 被告人 or 公诉机关)",
            ev,
            0.0,
        )
    if is_special_part(rec.article):
        what = (
            f"the facts meet its conduct clause at {fit.ratio:.2f} of the best 分则 article's fit "
            f"(第{fit.best_article}条, {fit.best:.2f}; this one {fit.score:.2f})"
        )
        ok = fit.ratio >= th.offence_fit_ratio
    else:
        what = f"the facts hold {fit.ratio:.2f} of its conditions"
        ok = fit.ratio >= th.general_part_cover
    if ok:
        return fit_result("supports", 1.0, what, ev, fit.ratio)
    return fit_result(
        "irrelevant",
        PARTIAL_SCORE * fit.ratio,
        f"the facts are not its case: {what}",
        ev,
        fit.ratio,
    )
