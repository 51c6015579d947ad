"""A missing article of a repealed instrument whose words are its successor's provision (layer 2).

A report written after a codification often keeps the old law's name with the new law's
article number: 「《婚姻法》第一千零六十二条，夫妻在婚姻关系存续期间所得的工资、奖金…为夫妻的
共同财产」 — 婚姻法 (repealed by 民法典 on 2021-01-01) has 51 articles, but 民法典第一千零六十二条
states those words. The citation is rightly ``not_found``; the repair is to name the successor
provision, not to delete a right pin. The cited instrument's successor comes from the repeal
records (:meth:`AuthorityStore.repeal_record`, ``successor``), the same source the repeal note
and :func:`verifiers.suggest.successor_suggestion` use.

* **Same number**: the successor's article with the cited number holds what the report says
  (containment ≥ :data:`SAME_NUMBER_HOLDS`): the number and the words agree on it, so it is the
  suggestion, confidence = containment × specificity of the words.
* **Other number**: otherwise the best match in the successor
  (:func:`verifiers.suggest.best_match`) when the words are its text (containment ≥ :data:`SAME_NUMBER_HOLDS`) and it is singled out
  (confidence ≥ the caller's ``confident``).

The suggestion carries the feature ``("successor_of_cited", 1.0)`` so a repair may move the
citation to the successor instrument (:meth:`governor.revision.strategies.EfaReviser._may_move`).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

from governor.authorities import AuthorityStore
from governor.core.config import DEFAULT_THRESHOLDS
from governor.core.models import Authority, Citation, Suggestion
from verifiers.textsim import containment, specificity

SAME_NUMBER_HOLDS = DEFAULT_THRESHOLDS.suggest_successor_pin_holds
"""Share of the report's words (bigram containment) the successor's provision must hold."""

FEATURE = ("successor_of_cited", 1.0)
"""Marks a suggestion in the successor of the (repealed) cited instrument."""


def cited_successor(cit: Citation, store: AuthorityStore) -> str | None:
    """The stored successor instrument of the cited instrument when that one is repealed."""
    if not cit.instrument:
        return None
    rec = store.repeal_record(cit.instrument)
    if rec is None or not rec.successor or rec.successor == cit.instrument:
        return None
    return rec.successor if store.has_instrument(rec.successor) else None


def successor_pin(
    cit: Citation,
    query: str,
    store: AuthorityStore,
    locate: Callable[[str, str], tuple[float, Authority] | None],
    *,
    as_of: date,
    confident: float,
) -> Suggestion | None:
    """The successor provision holding ``query`` (what the report says) for a missing article
    of a repealed instrument, or None (see the module docstring). ``locate(words, instrument)``
    is the best match in an instrument with its confidence (:func:`verifiers.suggest.best_match`)."""
    successor = cited_successor(cit, store)
    if successor is None:
        return None
    spec = specificity(query)
    if spec <= 0.0:
        return None
    if cit.article:
        rec = store.article(successor, cit.article, as_of=as_of)
        auth = store.authority(rec) if rec is not None else None
        held = containment(query, rec.text) if rec is not None else 0.0
        if auth is not None and held >= SAME_NUMBER_HOLDS:
            return Suggestion(
                authority=auth,
                score=min(1.0, held * spec),
                reason=f"the same article of 《{successor}》, which replaced 《{cit.instrument}》, "
                f"holds what the report says (containment {held:.2f})",
                features=(FEATURE,),
            )
    best = locate(query, successor)
    if best is None or best[0] < confident:
        return None
    held = containment(query, best[1].text)
    if held < SAME_NUMBER_HOLDS:
        return None
    return Suggestion(
        authority=best[1],
        score=best[0],
        reason=f"provision of 《{successor}》, which replaced 《{cit.instrument}》, whose text "
        f"holds what the report says (containment {held:.2f})",
        features=(FEATURE,),
    )
