"""The offline judge: deterministic fidelity and applicability (no network, no model)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from governor.authorities import AuthorityStore
from governor.config import Thresholds
from governor.ports import Retriever
from verifiers.applicability import check_applicability
from verifiers.fidelity import check_fidelity
from verifiers.judge import JudgeItem, JudgeOutcome


@dataclass
class OfflineJudge:
    """Lexical + numeric + modality + proviso checks with retrieval for better provisions.

    Attributes:
        store: the authority store (turns candidate records into suggestions).
        retriever: BM25 (the store itself) or hybrid retrieval.
        thresholds: decision thresholds (``governor.config.Thresholds``).
    """

    store: AuthorityStore
    retriever: Retriever
    thresholds: Thresholds = field(default_factory=Thresholds)
    name: str = "offline"

    def judge(self, items: Sequence[JudgeItem]) -> list[JudgeOutcome]:
        """Judge each item independently; order preserved."""
        return [
            JudgeOutcome(
                fidelity=check_fidelity(it, self.retriever, self.store, self.thresholds),
                applicability=check_applicability(it, self.retriever, self.store, self.thresholds),
            )
            for it in items
        ]
