"""The offline judge: deterministic fidelity and applicability (no network, no model)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from governor.authorities import AuthorityStore
from governor.core.config import Thresholds
from governor.core.ports import Retriever
from verifiers.applicability import check_applicability
from verifiers.fidelity import check_fidelity
from verifiers.judge import JudgeItem, JudgeOutcome
from verifiers.neighbour import neighbour_outcome
from verifiers.point_article import point_outcome
from verifiers.suggest import IdfCache


@dataclass
class OfflineJudge:
    """Lexical + numeric + modality + proviso checks with retrieval for better provisions.

    Attributes:
        store: the authority store (turns candidate records into suggestions).
        retriever: BM25 (the store itself) or hybrid retrieval.
        thresholds: decision thresholds (``governor.core.config.Thresholds``).
        idf: per-instrument IDF tables (built lazily, shared across calls).
    """

    store: AuthorityStore
    retriever: Retriever
    thresholds: Thresholds = field(default_factory=Thresholds)
    name: str = "offline"
    idf: IdfCache | None = None

    def __post_init__(self) -> None:
        if self.idf is None:
            self.idf = IdfCache(self.store)

    def judge(self, items: Sequence[JudgeItem]) -> list[JudgeOutcome]:
        """Judge each item independently; order preserved."""
        return [self.judge_one(it) for it in items]

    def judge_one(self, item: JudgeItem) -> JudgeOutcome:
        """Fidelity and applicability of one item.

        One suggestion reaches the verdict (the verifier takes fidelity's first). When the
        citation fails applicability with a confident suggestion, that suggestion wins: the
        provision that answers the claim/question is a better repair target than the one a
        (possibly invented) description happens to resemble.

        A citation both judges pass on word overlap is compared with the other articles of its
        instrument (:func:`verifiers.neighbour.neighbour_outcome`): when one holds the
        report's words clearly better, Applicability fails naming it.
        """
        th = self.thresholds
        f = check_fidelity(item, self.retriever, self.store, th, self.idf)
        a = check_applicability(item, self.retriever, self.store, th, self.idf)
        # the claim's point (its consequence) is another article's of the same instrument
        a = point_outcome(item, f, a, self.store, th, self.idf) or a
        if a.result.label == "supports" and f.result.label in ("faithful", "not_assessed"):
            # a pass on word overlap: another article of the instrument may hold the words
            # clearly better (the wrong article of the right law, issue 21)
            a = neighbour_outcome(item, self.store, th) or a
        fs, as_ = f.suggestion, a.suggestion
        if (
            fs is not None
            and as_ is not None
            and as_.score >= th.suggestion_min_score
            and (fs.authority.instrument, fs.authority.article)
            != (as_.authority.instrument, as_.authority.article)
        ):
            f = replace(f, suggestion=None)
        return JudgeOutcome(fidelity=f, applicability=a)
