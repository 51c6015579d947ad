"""Finding a better provision than the cited one (shared by fidelity, applicability, repair).

A :class:`~governor.models.Suggestion`'s ``score`` is a *confidence* in [0, 1] that the
suggested provision is the right one; the repair policy only acts on suggestions at or above
``Thresholds.suggestion_min_score`` (default 0.5). Confidence = the candidate's match score
(a share of the query's content bigrams, in [0, 1], divided by the score at which it saturates)
× :func:`~verifiers.textsim.specificity` of the query (a short generic query such as 合同无效
matches hundreds of provisions and proves little) × a margin factor (1.0 when the runner-up is
clearly worse, 0.5 when two candidates tie, because then the choice between them is a guess).
"""

from __future__ import annotations

import threading
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field

from governor.authorities import ArticleRecord, AuthorityStore
from governor.models import Suggestion
from governor.ports import Retriever
from verifiers.judge import JudgeItem
from verifiers.textsim import BigramIdf, containment, fold_numerals, specificity

TIE_MARGIN = 0.05
"""A runner-up within this score of the best candidate halves the confidence (a tie)."""
PROPOSITION_FULL = 0.6
"""Applicability suggestions: the coverage of the proposition (share of its content bigrams
the candidate holds) at which confidence saturates. Chosen on the GPT-3.5 dev split of LawBench
3-2 (calibration ``suggestions``): coverage 0.3 with a clear runner-up gap (confidence 0.5)
named the reference article in 87 % of cases there, 89 % for the held-out models."""


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
            arts = self.store.articles(record.instrument, version_hint=record.version)
            if not arts or arts[0].version != record.version:
                arts = (record,)
            table = BigramIdf.from_texts(a.text for a in arts)
            with self._lock:
                self._tables[key] = table
        return table


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
        hits = hits + retriever.search(query, as_of=item.as_of, k=global_k)
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
) -> tuple[Suggestion | None, float]:
    """Best provision for ``text`` if it beats the cited one by ``margin``.

    Candidates come from :func:`candidates` (queried with ``query``, default ``text``) and
    are re-scored with ``scorer(text, candidate_text)`` in [0, 1].

    Returns:
        ``(suggestion, best_score)``; the suggestion is None unless the best candidate's score
        is at least ``cited_score + margin``; its ``score`` is :func:`confidence` (with
        ``full``).
    """
    if item.record is None or not text.strip():
        return None, 0.0
    scored = sorted(
        (
            (scorer(text, c.text), i, c)
            for i, c in enumerate(
                candidates(query or text, item, retriever, k=k, global_k=global_k)
            )
        ),
        key=lambda t: (-t[0], t[1]),
    )
    if not scored:
        return None, 0.0
    best_score, _, best = scored[0]
    if best_score < cited_score + margin:
        return None, best_score
    auth = store.authority(best)
    if auth is None:
        return None, best_score
    runner_up = scored[1][0] if len(scored) > 1 else 0.0
    return (
        Suggestion(authority=auth, score=confidence(best_score, runner_up, text), reason=reason),
        best_score,
    )
