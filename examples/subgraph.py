"""Add the governance graph as a subgraph of your own LangGraph app, and reuse it.

The compiled governance graph is a node like any other: the parent state shares the keys of
its input schema (``draft``, ``as_of``, ``context``) and of its output schema (``text``,
``verdicts``, ``edits``, ``stop_reason``, ``scores``); its own keys stay inside. It is compiled
once and keeps no per-run state, so the app can be invoked again, batched or run concurrently;
settings per run go in the runtime context (here: the strategy of one run).

Run: ``python examples/subgraph.py``
"""

from __future__ import annotations

from typing import Any

from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict

from governor.api import Governor
from governor.core.config import load_config


class App(TypedDict, total=False):
    """The user's app state; ``draft``/``as_of``/``context``/``text``/``stop_reason`` are
    shared with the governance subgraph."""

    question: str
    draft: str
    as_of: str
    context: str
    text: str
    stop_reason: str
    answer: str


def write(state: App) -> dict[str, Any]:
    """The app's own writer node (a stand-in for an agent)."""
    return {
        "draft": "根据《民法典》第九千条规定，合同无效。"
        "向人民法院请求保护民事权利的诉讼时效期间为二年（《民法典》第一百八十八条）。\n",
        "as_of": "2024-06-01",
        "context": state["question"],
    }


def publish(state: App) -> dict[str, Any]:
    """The app's next step consumes the governed text."""
    return {"answer": f"[{state['stop_reason']}] {state['text'].strip()}"}


def build_app() -> Any:
    gov = Governor(load_config())
    g: StateGraph[App, Any, App, App] = StateGraph(App)
    g.add_node("write", write)
    g.add_node("govern", gov.graph("efa"))  # the compiled governance graph as a subgraph
    g.add_node("publish", publish)
    g.add_edge(START, "write")
    g.add_edge("write", "govern")
    g.add_edge("govern", "publish")
    g.add_edge("publish", END)
    return g.compile()


def main() -> None:
    app = build_app()
    q = {"question": "合同是否有效？诉讼时效多长？"}
    out = app.invoke(q)
    print(out["answer"])
    again = app.invoke(q)  # the same compiled graphs, a second run: repaired again
    print("second run:", again["answer"] == out["answer"])
    print("batch of 3:", [o["answer"] == out["answer"] for o in app.batch([q] * 3)])
    plain = app.invoke(q, context={"strategy": "none"})  # one run's setting: verify only
    print("strategy none:", plain["answer"].split("]")[0] + "]")
    for chunk in app.stream({"question": "合同是否有效？"}, subgraphs=True, stream_mode="updates"):
        namespace, update = chunk
        print("/".join(namespace) or "app", list(update))
    for _, event in app.stream(q, subgraphs=True, stream_mode="custom"):
        print("verdict:", event["citation"], event["existence"], f"round {event['round']}")


if __name__ == "__main__":
    main()
