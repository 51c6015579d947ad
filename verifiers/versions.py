"""Version drift: a description that is the text of another version of the cited instrument.

Layer 3. 75 instruments of the corpus have several versions (公司法 2018/2023, 民事诉讼法
2021/2023 …). A report dated 2025 that says 「《公司法》第七十一条规定，股东向股东以外的人转让
股权，应当经其他股东过半数同意」 states the 2018 text: the 2023 revision dropped the consent
rule. Bigram overlap with the version in force can still look respectable (shared words: 股东,
转让股权, 其他股东), so the check compares the description with every article of the other
versions: when one of them holds it near-verbatim and clearly better than any article of the
version in force, the report restates superseded law.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

from governor.authorities import AuthorityStore
from governor.core.config import DEFAULT_THRESHOLDS
from governor.core.records import ArticleRecord
from verifiers.textsim import bigrams

DRIFT_MATCH = DEFAULT_THRESHOLDS.versions_drift_match
"""Share of the description's bigrams an article of another version must hold."""
DRIFT_MARGIN = DEFAULT_THRESHOLDS.versions_drift_margin
"""…and by how much it must beat the best article of the version in force."""
MIN_CHARS = 10
"""Shorter descriptions are not judged (too few bigrams to tell versions apart)."""


@dataclass(frozen=True)
class Drift:
    """The other version's article the description restates (``score``: share of the
    description's bigrams in it; ``in_force_score``: best share in the version judged)."""

    article: ArticleRecord
    score: float
    in_force_score: float


def _best(
    desc: frozenset[str], articles: tuple[tuple[str, frozenset[str]], ...]
) -> tuple[str | None, float]:
    best: str | None = None
    score = 0.0
    n = len(desc)
    for a, grams in articles:
        s = len(desc & grams) / n
        if s > score:
            best, score = a, s
    return best, score


_Index = tuple[tuple[str, tuple[tuple[str, frozenset[str]], ...]], ...]
_INDEX: weakref.WeakKeyDictionary[AuthorityStore, dict[str, _Index]] = weakref.WeakKeyDictionary()


def _versions(store: AuthorityStore, instrument: str) -> _Index:
    """Every version of ``instrument`` as ``(version, ((article number, its bigrams), …))``,
    built once per store and instrument from the stored texts
    (:meth:`~governor.authorities.store.AuthorityStore.version_texts`, no records built): a
    wording shared by several versions (13 rebuilt versions of 刑法 share most articles) is cut
    once. Without it each check rebuilt ~6,000 article texts of 刑法 (warm efa 0.2 → 0.4 s);
    building the records of every version cost a cold ``verify`` ≈ 0.2 s more."""
    per = _INDEX.setdefault(store, {})
    got = per.get(instrument)
    if got is None:
        cut: dict[str, frozenset[str]] = {}

        def grams(t: str) -> frozenset[str]:
            g = cut.get(t)
            if g is None:
                g = cut[t] = frozenset(bigrams(t))
            return g

        got = tuple(
            (version, tuple((akey, grams(text)) for akey, text in texts))
            for version, texts in store.version_texts(instrument)
        )
        per[instrument] = got
    return got


def version_drift(description: str, record: ArticleRecord, store: AuthorityStore) -> Drift | None:
    """The article of another version of ``record``'s instrument that ``description`` restates
    (see the module docstring), or None.

    Args:
        description: what the report says the provision says.
        record: the article judged (its ``version`` is the version in force on the report's
            date, or the one the citation names).
        store: the authority store holding every version.

    Returns:
        A :class:`Drift` when an article of another version holds at least
        :data:`DRIFT_MATCH` of the description's bigrams and beats every article of
        ``record``'s version by :data:`DRIFT_MARGIN`; None otherwise (one version only, a
        short description, or no clear winner).
    """
    if len(description) < MIN_CHARS:
        return None
    if store.version_count(record.instrument) < 2:
        return None
    versions = _versions(store, record.instrument)
    if not versions:
        return None
    desc = frozenset(bigrams(description))
    if not desc:
        return None
    this = next((arts for ver, arts in versions if ver == record.version), None)
    if this is None:
        return None
    _, here = _best(desc, this)
    if here >= DRIFT_MATCH:
        return None
    found: tuple[str, str, float] | None = None  # (version, article, score)
    mine = {id(g) for _, g in this}  # one frozenset per distinct wording (see _versions)
    for ver, arts in versions:
        if ver == record.version:
            continue
        art, score = _best(desc, tuple((a, g) for a, g in arts if id(g) not in mine))
        if art is not None and score >= DRIFT_MATCH and score - here >= DRIFT_MARGIN:
            if found is None or score > found[2]:
                found = (ver, art, score)
    if found is None:
        return None
    rec = store.get(f"{record.instrument}@{found[0]}#{found[1]}")
    return Drift(rec, found[2], here) if rec is not None else None


__all__ = ["DRIFT_MARGIN", "DRIFT_MATCH", "Drift", "version_drift"]
