"""Govern a chat agent's answer: a node for LangGraph ``MessagesState`` graphs (layer 5).

:func:`govern_last_message` turns the compiled governance graph into a node that governs the
last ``AIMessage`` of ``state["messages"]`` and replaces it (same message id, so LangGraph's
``add_messages`` reducer swaps it in place) by the governed text, with a summary of the run in
``response_metadata["citegov"]``. The question is the last ``HumanMessage`` before it.

Example::

    from langgraph.graph import MessagesState, StateGraph
    g = StateGraph(MessagesState)
    g.add_node("agent", agent)
    g.add_node("govern", govern_last_message(Governor().graph("efa")))
    g.add_edge("agent", "govern")
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.runnables import RunnableConfig

from graphs.state import STATE_KEYS


def _last(messages: Sequence[BaseMessage], kind: type[BaseMessage]) -> int | None:
    for i in range(len(messages) - 1, -1, -1):
        if isinstance(messages[i], kind):
            return i
    return None


def govern_last_message(
    graph: Any, *, context: Any = None, key: str = "messages"
) -> Callable[[Mapping[str, Any], RunnableConfig], dict[str, Any]]:
    """A node that governs the last ``AIMessage`` of a messages state.

    Args:
        graph: the compiled governance graph (``Governor().graph("efa")``).
        context: settings for the governance run (``GovernanceContext`` or a mapping);
            None: the graph's defaults.
        key: the state key holding the messages.

    Returns:
        ``node(state, config) -> {key: [AIMessage]}``: the governed message with the same id
        (replacing the original), or ``{}`` when there is no AI message with text content.
        ``response_metadata["citegov"]`` holds ``stop_reason``, ``edits`` (op and reason per
        edit), ``trust`` before/after and ``as_of``.
    """

    def govern(state: Mapping[str, Any], config: RunnableConfig) -> dict[str, Any]:
        messages = list(state.get(key) or ())
        i = _last(messages, AIMessage)
        if i is None or not isinstance(messages[i].content, str) or not messages[i].content:
            return {}
        answer = messages[i]
        h = _last(messages[:i], HumanMessage)
        question = messages[h].content if h is not None else ""
        inp: dict[str, Any] = {"draft": answer.content}
        if isinstance(question, str) and question:
            inp["context"] = question
        out = graph.invoke(inp, config, context=context, output_keys=list(STATE_KEYS))
        summary = {
            "stop_reason": out.get("stop_reason"),
            "edits": [{"op": e.op, "reason": e.reason} for e in out.get("edits", ())],
            "trust_before": _trust(out.get("initial_verdicts", ())),
            "trust_after": out["scores"].trust if out.get("scores") else None,
            "as_of": out.get("as_of"),
        }
        governed = answer.model_copy(
            update={
                "content": out["text"],
                "response_metadata": {**answer.response_metadata, "citegov": summary},
            }
        )
        return {key: [governed]}

    return govern


def _trust(verdicts: Sequence[Any]) -> float:
    from governor.core.labels import report_score

    return report_score(verdicts).trust
