"""Pipeline state (a ``TypedDict``; nodes return partial updates) and the run result.

Layer 5. ``rounds`` accumulates with ``operator.add``; every other key is replaced by the
node that returns it.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from typing_extensions import TypedDict

from governor.core.models import Citation, Edit, Revision, Verdict

StopReason = Literal[
    "strategy_none", "all_pass", "no_change", "max_rounds", "regenerate_unavailable", "interrupted"
]


class GovernanceState(TypedDict, total=False):
    """State of one governance run.

    Keys:
        task: the task given to the generator (query, subtopics); ``{}`` for an existing draft.
        context: text used when a citation's claim is empty (the task query).
        draft: the text as given or generated (never modified).
        text: the current text.
        as_of: ISO as-of date of the report.
        round: number of revision rounds done.
        citations / verdicts: of the current text.
        initial_verdicts: verdicts on the draft as given.
        pending: edits applied by the last revise step (recorded with the next verdicts).
        rounds: one :class:`Revision` per round (accumulates).
        stop_reason: why the loop ended.
        judged: citations sent to the F/A judge, summed over rounds (the verifier's cache
            skips citations whose content did not change).
        notes: what the run recorded besides edits, e.g. a rejected LLM reviser reply
            (accumulates).
    """

    task: dict[str, Any]
    context: str
    draft: str
    text: str
    as_of: str
    round: int
    citations: tuple[Citation, ...]
    verdicts: tuple[Verdict, ...]
    initial_verdicts: tuple[Verdict, ...]
    pending: tuple[Edit, ...]
    rounds: Annotated[list[Revision], operator.add]
    stop_reason: StopReason
    judged: Annotated[int, operator.add]
    notes: Annotated[list[str], operator.add]


@dataclass(frozen=True)
class GovernanceResult:
    """What a governed run produced: the draft, the output text and every round.

    Attributes:
        draft: the text as given or generated (never modified).
        text: the output text.
        as_of: ISO as-of date used.
        initial_verdicts / final_verdicts: verdicts on ``draft`` / on ``text``.
        rounds: one :class:`Revision` per round; each edit's span indexes the text at the
            start of its round.
        stop_reason: ``strategy_none`` | ``all_pass`` | ``no_change`` | ``max_rounds`` |
            ``regenerate_unavailable``.
        strategy: ``none`` | ``existence`` | ``efa``.
        mode: ``edit`` | ``regenerate``.
        judged: citations sent to the F/A judge over the whole run.
        notes: recorded events besides edits (rejected LLM replies, dropped edits).
    """

    draft: str
    text: str
    as_of: str
    initial_verdicts: tuple[Verdict, ...]
    final_verdicts: tuple[Verdict, ...]
    rounds: tuple[Revision, ...]
    stop_reason: str
    strategy: str
    mode: str = "edit"
    judged: int = 0
    notes: tuple[str, ...] = ()

    @property
    def edits(self) -> tuple[Edit, ...]:
        """All edits of all rounds, in order."""
        return tuple(e for r in self.rounds for e in r.edits)


def result_from_state(
    state: GovernanceState, strategy: str, mode: str = "edit"
) -> GovernanceResult:
    """Build a :class:`GovernanceResult` from a finished run's state.

    Collections come back as tuples even when a checkpointer stored them as lists.
    """
    return GovernanceResult(
        draft=state["draft"],
        text=state["text"],
        as_of=state["as_of"],
        initial_verdicts=tuple(state.get("initial_verdicts", ())),
        final_verdicts=tuple(state.get("verdicts", ())),
        rounds=tuple(state.get("rounds", [])),
        stop_reason=state.get("stop_reason") or "interrupted",
        strategy=strategy,
        mode=mode,
        judged=int(state.get("judged", 0)),
        notes=tuple(state.get("notes", [])),
    )
