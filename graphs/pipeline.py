"""The governance graph: generate → extract → verify → (revise [→ review] → extract →
verify)* → finalize.

Built by :func:`build_governance_graph` (a factory: nothing is compiled at import time). The
compiled graph is reusable: per-run memory is in the state, per-run settings in the runtime
context (``context_schema=GovernanceContext``) or ``configurable``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.runnables import ConfigurableFieldSpec
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from graphs.durable import register_state_types
from graphs.nodes import (
    GovernanceDeps,
    make_nodes,
    route_after_review,
    route_after_revise,
    route_after_verify,
)
from graphs.settings import GovernanceContext, config_specs
from graphs.state import GovernanceInput, GovernanceOutput, GovernanceState


class GovernanceGraph(CompiledStateGraph[Any, Any, Any, Any]):
    """The compiled governance graph: LangGraph's compiled graph that also declares the
    per-run settings it reads from ``configurable`` (``config_specs``), like any LangChain
    runnable with configurable fields."""

    @property
    def config_specs(self) -> list[ConfigurableFieldSpec]:
        """LangGraph's own specs plus the settings of :class:`GovernanceContext`."""
        return [*super().config_specs, *config_specs()]


def build_governance_graph(
    deps: GovernanceDeps,
    *,
    checkpointer: Any = None,
    interrupt_after: Sequence[str] = (),
    interrupt_before: Sequence[str] = (),
) -> Any:
    """Compile the governance ``StateGraph`` over ``deps``.

    Args:
        deps: injected extractor, verifier, strategy, generator and limits.
        checkpointer: a LangGraph checkpointer (``graphs.durable.sqlite_checkpointer``) so an
            interrupted run resumes from its last completed node with the same ``thread_id``;
            ``None`` keeps state in memory only.
        interrupt_after / interrupt_before: node names to pause at (needs a checkpointer);
            ``invoke(None, config)`` continues.

    Returns:
        A compiled graph (a LangChain ``Runnable``) with input schema
        :class:`~graphs.state.GovernanceInput` (``{"draft", "as_of"?, "context"?}`` or
        ``{"task": {...}}`` with a generator) and output schema
        :class:`~graphs.state.GovernanceOutput` (``{"text", "verdicts", "edits",
        "stop_reason", "scores"}``; ``output_keys=graphs.state.STATE_KEYS`` returns the whole
        state). Settings per run: ``invoke(inp, context={"strategy": "existence"})`` or
        ``{"configurable": {...}}`` (:class:`~graphs.settings.GovernanceContext`). It can be
        added as a node/subgraph of a user's LangGraph app.
    """
    register_state_types()  # any saver, a parent graph's too, revives citegov's state types
    g: StateGraph[GovernanceState, GovernanceContext, GovernanceInput, GovernanceOutput] = (
        StateGraph(
            GovernanceState,
            context_schema=GovernanceContext,
            input_schema=GovernanceInput,
            output_schema=GovernanceOutput,
        )
    )
    for name, fn in make_nodes(deps).items():
        g.add_node(name, fn)
    g.add_edge(START, "generate")
    g.add_edge("generate", "extract")
    g.add_edge("extract", "verify")
    g.add_conditional_edges("verify", route_after_verify, ["revise", "finalize"])
    g.add_conditional_edges("revise", route_after_revise, ["review", "extract", "finalize"])
    g.add_conditional_edges("review", route_after_review, ["extract", "finalize"])
    g.add_edge("finalize", END)
    compiled = g.compile(
        checkpointer=checkpointer,
        interrupt_after=list(interrupt_after) or None,
        interrupt_before=list(interrupt_before) or None,
        name="citegov-governance",
    )
    compiled.__class__ = GovernanceGraph  # same object, one more property (config_specs)
    return compiled
