"""The governed writer as a LangChain ``Runnable`` (layer 5).

:class:`GovernedWriter` runs the governance graph on a draft or a task: ``invoke`` returns a
:class:`~graphs.state.GovernanceResult`, ``batch`` governs several inputs (LangChain's thread
pool; each input gets fresh dependencies, so caches never leak between drafts), and ``stream``
yields one :class:`PipelineEvent` per node update, then a last event carrying the result.
It composes like any runnable (``writer | post_process``, ``with_config``, callbacks).

Inputs: a draft string; ``{"draft": text, "as_of": "YYYY-MM-DD"?, "context": str?}``; or a task
``{"id"?, "query", "subtopics"?, "as_of"?}`` written by the deps' generator; or ``None`` to
resume an interrupted run from the checkpointer (same ``thread_id`` in the config).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from langchain_core.runnables import Runnable, RunnableConfig

from governor.core.errors import InputError
from graphs.nodes import GovernanceDeps
from graphs.pipeline import build_governance_graph
from graphs.state import GovernanceResult, GovernanceState, result_from_state

Prepare = Callable[[Any], GovernanceState]


def prepare_input(value: Any, *, today: date | None = None) -> GovernanceState:
    """Initial graph state for a writer input (see the module docstring).

    The as-of date defaults to ``today``; :meth:`governor.api.Governor.runnable` injects a
    preparer that reads a report date from the draft instead.

    Raises:
        InputError: ``value`` is neither text nor a mapping.
    """
    when = (today or date.today()).isoformat()
    if isinstance(value, str):
        return {"draft": value, "as_of": when, "context": ""}
    if isinstance(value, Mapping):
        as_of = str(value.get("as_of") or when)
        if "draft" in value:
            return {
                "draft": str(value["draft"]),
                "as_of": as_of,
                "context": str(value.get("context", "")),
            }
        task = {k: v for k, v in value.items() if k != "as_of"}
        return {"task": task, "as_of": as_of, "context": str(task.get("query", ""))}
    raise InputError(
        f"cannot govern a {type(value).__name__}; pass draft text, {{'draft': text}} or a task "
        "{'query': ...}"
    )


@dataclass(frozen=True)
class PipelineEvent:
    """One streamed step: the node that ran and its partial state update.

    The last event of a stream has ``node == "result"`` and carries the run's ``result``.
    """

    node: str
    update: Mapping[str, Any]
    result: GovernanceResult | None = None


@dataclass
class GovernedWriter(Runnable[Any, GovernanceResult]):
    """Generate (or take) a draft and govern its citations, as a LangChain ``Runnable``.

    Attributes:
        make_deps: builds fresh :class:`GovernanceDeps` per run (strategy, mode, generator,
            verifier and reviser inside).
        prepare: turns an input into the initial state (:func:`prepare_input`).
        checkpointer: LangGraph checkpointer (``graphs.durable.sqlite_checkpointer``) for
            durable runs; the config then needs ``{"configurable": {"thread_id": ...}}``.
        interrupt_after: node names to pause after (human review, tests).
    """

    make_deps: Callable[[], GovernanceDeps]
    prepare: Prepare = prepare_input
    checkpointer: Any = None
    interrupt_after: tuple[str, ...] = ()
    name: str | None = field(default="citegov")

    def graph(self, deps: GovernanceDeps | None = None) -> Any:
        """The compiled governance graph over ``deps`` (fresh deps by default)."""
        return build_governance_graph(
            deps or self.make_deps(),
            checkpointer=self.checkpointer,
            interrupt_after=self.interrupt_after,
        )

    def _start(self, value: Any) -> tuple[GovernanceDeps, Any, GovernanceState | None]:
        deps = self.make_deps()
        state = None if value is None else self.prepare(value)
        return deps, self.graph(deps), state

    def invoke(
        self, input: Any, config: RunnableConfig | None = None, **kwargs: Any
    ) -> GovernanceResult:
        """Govern one input; returns the run's :class:`GovernanceResult`.

        Raises:
            InputError: the input is not text, a draft mapping or a task.
            ConfigError: no draft and no generator.
        """
        deps, graph, state = self._start(input)
        final = graph.invoke(state, config, **kwargs)
        return result_from_state(final, deps.strategy, deps.mode)

    def stream(  # type: ignore[override]
        self, input: Any, config: RunnableConfig | None = None, **kwargs: Any
    ) -> Iterator[PipelineEvent]:
        """Yield a :class:`PipelineEvent` per node update, then one with the result."""
        deps, graph, state = self._start(input)
        values: dict[str, Any] = {}
        for mode, chunk in graph.stream(state, config, stream_mode=["updates", "values"]):
            if mode == "values":
                values = dict(chunk)
                continue
            for node, update in chunk.items():
                yield PipelineEvent(node=node, update=dict(update or {}))
        if values.get("stop_reason") is not None:
            yield PipelineEvent(
                node="result",
                update={},
                result=result_from_state(values, deps.strategy, deps.mode),  # type: ignore[arg-type]
            )
