"""The governance graph: generate → extract → verify → (revise → extract → verify)* → finalize.

Built by :func:`build_governance_graph` (a factory: nothing is compiled at import time).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langgraph.graph import END, START, StateGraph

from graphs.nodes import GovernanceDeps, make_nodes, route_after_revise, route_after_verify
from graphs.state import GovernanceState


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
        A compiled graph (a LangChain ``Runnable``): ``invoke({"draft": text, "as_of": iso,
        "context": query})`` or ``invoke({"task": {...}, "as_of": iso})`` with a generator.
        It can be added as a node/subgraph of a user's LangGraph app.
    """
    g: StateGraph[GovernanceState, Any, GovernanceState, GovernanceState] = StateGraph(
        GovernanceState
    )
    for name, fn in make_nodes(deps).items():
        g.add_node(name, fn)  # type: ignore[call-overload]
    g.add_edge(START, "generate")
    g.add_edge("generate", "extract")
    g.add_edge("extract", "verify")
    g.add_conditional_edges("verify", route_after_verify(deps), ["revise", "finalize"])
    g.add_conditional_edges("revise", route_after_revise, ["extract", "finalize"])
    g.add_edge("finalize", END)
    return g.compile(
        checkpointer=checkpointer,
        interrupt_after=list(interrupt_after) or None,
        interrupt_before=list(interrupt_before) or None,
        name="citegov-governance",
    )
