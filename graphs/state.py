"""Pipeline state (a ``TypedDict``; nodes return partial updates), the graph's input and
output schemas, and the run result.

Layer 5. ``rounds``, ``judged`` and ``notes`` accumulate; every other key is replaced by the
node that returns it. Per-run memory (the verdict cache, the repair memory) lives in the state,
never in the compiled graph, so one compiled graph serves any number of runs, in sequence,
in ``batch`` or concurrently.
"""

from __future__ import annotations

import operator
from datetime import date
from typing import Annotated, Any, Literal, NotRequired

from pydantic import BaseModel, ConfigDict
from typing_extensions import TypedDict

from governor.core.labels import governed_score, report_score
from governor.core.models import Citation, Edit, ReportScore, Revision, Verdict
from governor.core.report import VerdictReport, build_report

StopReason = Literal[
    "strategy_none",
    "all_pass",
    "unchecked_left",
    "no_citations",
    "no_change",
    "max_rounds",
    "regenerate_unavailable",
    "rejected",
    "interrupted",
]


class GovernanceInput(TypedDict):
    """Input schema of the governance graph.

    Keys:
        draft: the report text (omit it and give ``task`` to have the generator write it).
        as_of: ISO date the report speaks as of; default: the ``as_of`` setting, else the
            report date written in the draft, else today.
        context: the question the report answers (default: a ``问题：`` line opening it).
        task: a task ``{"id"?, "query", "subtopics"?}`` for the generator.
    """

    draft: NotRequired[str]
    as_of: NotRequired[str]
    context: NotRequired[str]
    task: NotRequired[dict[str, Any]]


class GovernanceOutput(TypedDict):
    """Output schema of the governance graph.

    Keys:
        text: the governed text.
        verdicts: one :class:`Verdict` per citation of ``text``.
        edits: every applied edit of every round, in order (spans index the text of the
            edit's round).
        stop_reason: why the loop ended (:data:`StopReason`).
        scores: the report score of ``text`` (SPEC §3).
    """

    text: str
    verdicts: tuple[Verdict, ...]
    edits: tuple[Edit, ...]
    stop_reason: StopReason
    scores: ReportScore


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
        settings: the run's resolved settings (:func:`graphs.settings.resolve_settings`).
        proposed: edits awaiting human approval (review mode).
        rejected: :func:`graphs.nodes.review_key` of each edit the reviewer rejected
            (accumulates; never proposed again in this run).
        edits / scores: output keys, set by ``finalize``.
        verdict_cache: verdicts by content key, this run's only (the verifier's cache).
        unquote_due: a passing citation's quotation mixes its provision's text with other
            words, so ``efa`` runs a round even when every citation passes.
        repair_memory: the ``efa`` reviser's memory of this run (attempted repairs, the
            citations it wrote), so a repair that did not help is never repeated.
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
    settings: dict[str, Any]
    proposed: tuple[Edit, ...]
    rejected: Annotated[list[str], operator.add]
    edits: tuple[Edit, ...]
    scores: ReportScore
    verdict_cache: dict[str, Verdict]
    repair_memory: dict[str, Any]
    unquote_due: bool


STATE_KEYS: tuple[str, ...] = tuple(GovernanceState.__annotations__)
"""Every state key: ``graph.invoke(..., output_keys=STATE_KEYS)`` returns the whole state."""


class RunScores(BaseModel):
    """The report scores of a governed run: of the draft as given and of the output text."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    initial: ReportScore
    final: ReportScore


class GovernanceResult(BaseModel):
    """What a governed run produced: the draft, the output text and every round.

    A frozen pydantic model: ``result.model_dump(mode="json")`` is a JSON-ready dict
    (``json.dumps`` it), ``result.model_dump_json()`` the JSON text, and
    :meth:`to_report` the SPEC §2 verdict report.

    Attributes:
        draft: the text as given or generated (never modified).
        text: the output text.
        as_of: ISO as-of date used.
        initial_verdicts / final_verdicts: verdicts on ``draft`` / on ``text``.
        rounds: one :class:`Revision` per round; each edit's span indexes the text at the
            start of its round.
        stop_reason: ``strategy_none`` | ``all_pass`` | ``unchecked_left`` (the verified citations
            pass, others could not be checked) | ``no_citations`` | ``no_change`` | ``max_rounds`` |
            ``regenerate_unavailable`` | ``rejected`` (a reviewer rejected every edit) |
            ``interrupted``.
        strategy: ``none`` | ``existence`` | ``efa``.
        mode: ``edit`` | ``regenerate``.
        judged: citations sent to the F/A judge over the whole run.
        notes: recorded events besides edits (rejected LLM replies, dropped edits).
        interrupts: when the run paused (review mode): ``{"id", "value"}`` per pause, the
            value being :func:`graphs.nodes.review_payload`; resume with
            ``Command(resume=decision)`` and the same ``thread_id``.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

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
    interrupts: tuple[dict[str, Any], ...] = ()

    @property
    def edits(self) -> tuple[Edit, ...]:
        """All edits of all rounds, in order."""
        return tuple(e for r in self.rounds for e in r.edits)

    @property
    def scores(self) -> RunScores:
        """The report scores (SPEC §3) of the draft (``initial``) and of the output text
        (``final``): ``result.scores.final.trust``, ``result.scores.initial.all_pass``."""
        final = governed_score(
            self.initial_verdicts,
            self.final_verdicts,
            self.edits,
            self.text,
            rounds=[r.verdicts for r in self.rounds],
        )
        return RunScores(initial=report_score(self.initial_verdicts), final=final)

    def to_report(
        self, *, judge: str = "offline", path: str | None = None, horizon: date | None = None
    ) -> VerdictReport:
        """The SPEC §2 machine-readable report of this run (what ``citegov revise`` writes
        as ``<name>.verdicts.json``; ``.model_dump_json()`` it).

        Args:
            judge: name of the judge that decided (``offline`` | ``llm``).
            path: the draft's file, recorded in ``input.path``.
            horizon: the store's horizon (``AuthorityStore.horizon``): a report dated after
                it gets the loud ``after_horizon`` gap; None: not checked.
        """
        return build_report(
            self.draft,
            as_of=date.fromisoformat(self.as_of),
            strategy=self.strategy,
            judge=judge,
            initial=self.initial_verdicts,
            result=self,
            path=path,
            horizon=horizon,
        )


def result_from_state(
    state: GovernanceState, strategy: str | None = None, mode: str | None = None
) -> GovernanceResult:
    """Build a :class:`GovernanceResult` from a run's state (the whole state: invoke with
    ``output_keys=STATE_KEYS``).

    ``strategy`` and ``mode`` default to the run's resolved settings. Collections come back
    as tuples even when a checkpointer stored them as lists.
    """
    settings = state.get("settings") or {}
    strategy = strategy or settings.get("strategy") or "efa"
    mode = mode or settings.get("mode") or "edit"
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
