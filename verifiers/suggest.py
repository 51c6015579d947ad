"""Finding a better provision than the cited one (shared by fidelity, applicability, repair)."""

from __future__ import annotations

from collections.abc import Callable

from governor.authorities import AuthorityStore
from governor.models import Suggestion
from governor.ports import Retriever
from verifiers.judge import JudgeItem
from verifiers.textsim import containment, specificity


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
) -> tuple[Suggestion | None, float]:
    """Best provision of the cited instrument for ``text`` if it beats the cited one.

    Candidates come from ``retriever`` (top ``k`` within the instrument, version in force on
    ``item.as_of``) and are re-scored with ``scorer(text, candidate_text)`` in [0, 1].

    Returns:
        ``(suggestion, best_score)``; the suggestion is None unless the best candidate's score
        is at least ``cited_score + margin``. The suggestion's ``score`` (its confidence) is
        the best score times :func:`~verifiers.textsim.specificity` of ``text``.
    """
    rec = item.record
    if rec is None or not text.strip():
        return None, 0.0
    best = None
    best_score = 0.0
    for cand, _ in retriever.search(text, instrument=rec.instrument, as_of=item.as_of, k=k):
        if cand.article == rec.article:
            continue
        sc = scorer(text, cand.text)
        if best is None or sc > best_score:
            best, best_score = cand, sc
    if best is None or best_score < cited_score + margin:
        return None, best_score
    auth = store.authority(best)
    if auth is None:
        return None, best_score
    confidence = min(1.0, best_score * specificity(text))
    return Suggestion(authority=auth, score=confidence, reason=reason), best_score
