"""One compiled governance graph, many runs (issue 14 items 1–4, issue 16 item 2).

Per-run memory in the run: sequential, batched, threaded and async runs of one compiled graph
all repair the draft. LangGraph conventions: input/output schemas, a default as-of date inside
the graph, settings per run (context or configurable), streams passed through with verdict
events, a MessagesState helper, chat models and str/messages runnables as generators. Human
approval of edits with interrupt()/Command(resume=...) over a SQLite checkpoint, and the
terminal review. Results dump to JSON and render the SPEC report.
"""

from __future__ import annotations

import asyncio
import json
import threading
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from langchain_core.language_models import FakeListChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.runnables import RunnableLambda
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.types import Command
from typer.testing import CliRunner

import graphs.pipeline
from governor.api import Governor
from governor.core.config import load_config
from governor.core.errors import ConfigError, InputError, StrategyError
from governor.reports.json_report import build_report
from graphs.durable import sqlite_checkpointer
from graphs.nodes import parse_review
from graphs.settings import SETTING_NAMES
from graphs.state import STATE_KEYS, GovernanceResult

AS_OF = "2024-06-01"
PERIOD = "向人民法院请求保护民事权利的诉讼时效期间为二年（《民法典》第一百八十八条）。"
FIXED = PERIOD.replace("二年", "三年")
FAKE = "根据《民法典》第九千条规定，合同无效。"
INP = {"draft": PERIOD, "as_of": AS_OF}


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor(load_config())


# ------------------------------------------------------------------ reuse (item 1)


def test_one_compiled_graph_repairs_every_sequential_run(gov: Governor) -> None:
    g = gov.graph("efa")
    outs = [g.invoke(INP) for _ in range(3)]  # issue 14: runs 2 and 3 used to be no_change
    assert [o["text"] for o in outs] == [FIXED] * 3
    assert [o["stop_reason"] for o in outs] == ["all_pass"] * 3
    assert [[e.op for e in o["edits"]] for o in outs] == [["fix_number"]] * 3


def test_batch_and_abatch_repair_every_input(gov: Governor) -> None:
    g = gov.graph("efa")
    assert [o["text"] for o in g.batch([INP] * 4)] == [FIXED] * 4
    assert [o["text"] for o in asyncio.run(g.abatch([INP] * 4))] == [FIXED] * 4
    w = gov.runnable("efa")
    assert [r.text for r in w.batch([INP] * 3)] == [FIXED] * 3


def test_two_threads_and_two_tasks_at_once(gov: Governor) -> None:
    g = gov.graph("efa")
    drafts = [PERIOD, PERIOD + FAKE]
    expected = [g.invoke({"draft": d, "as_of": AS_OF})["text"] for d in drafts]
    barrier = threading.Barrier(2)
    got: dict[int, str] = {}

    def run(i: int) -> None:
        barrier.wait()
        got[i] = g.invoke({"draft": drafts[i], "as_of": AS_OF})["text"]

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert [got[0], got[1]] == expected

    async def both() -> list[Any]:
        return list(
            await asyncio.gather(*(g.ainvoke({"draft": d, "as_of": AS_OF}) for d in drafts))
        )

    assert [o["text"] for o in asyncio.run(both())] == expected
    w = gov.runnable("efa")

    async def both_writer() -> list[GovernanceResult]:
        return list(
            await asyncio.gather(*(w.ainvoke({"draft": d, "as_of": AS_OF}) for d in drafts))
        )

    assert [r.text for r in asyncio.run(both_writer())] == expected


def test_the_example_subgraph_app_repairs_on_every_invocation() -> None:
    import runpy

    app = runpy.run_path(str(Path(__file__).parents[1] / "examples" / "subgraph.py"))
    built = app["build_app"]()
    answers = [built.invoke({"question": "诉讼时效多长？"})["answer"] for _ in range(2)]
    assert answers[0] == answers[1] and "三年" in answers[0] and "二年" not in answers[0]


def test_each_strategy_is_compiled_once_per_governor(monkeypatch: pytest.MonkeyPatch) -> None:
    gov = Governor(load_config(overrides={"as_of": AS_OF}))
    calls: list[str] = []
    real = graphs.pipeline.build_governance_graph

    def counting(deps: Any, **kw: Any) -> Any:
        calls.append(deps.strategy)
        return real(deps, **kw)

    monkeypatch.setattr(graphs.pipeline, "build_governance_graph", counting)
    for _ in range(3):
        assert gov.govern(PERIOD, strategy="efa").text == FIXED
        gov.govern(PERIOD, strategy="existence")
    gov.runnable("efa").invoke(PERIOD)
    assert gov.graph("efa") is gov.graph("efa")
    assert sorted(calls) == ["efa", "existence"]


# ------------------------------------------------------------------ conventions (item 2)


def test_input_and_output_schemas(gov: Governor) -> None:
    g = gov.graph("efa")
    inp = g.get_input_jsonschema()
    assert set(inp["properties"]) == {"draft", "as_of", "context", "task"}
    assert not inp.get("required")
    out = g.get_output_jsonschema()
    assert set(out["properties"]) == {"text", "verdicts", "edits", "stop_reason", "scores"}
    assert set(g.invoke(INP)) == {"text", "verdicts", "edits", "stop_reason", "scores"}
    assert set(g.get_context_jsonschema()["properties"]) == set(SETTING_NAMES)
    specs = gov.runnable("efa").config_specs
    assert {s.id for s in specs} == set(SETTING_NAMES)
    assert set(SETTING_NAMES) <= {s.id for s in g.config_specs}
    assert {s.id for s in g.with_config(tags=["x"]).config_specs} >= set(SETTING_NAMES)
    from governor.cli.app import app

    res = CliRunner().invoke(app, ["graph", "--schemas"])
    assert res.exit_code == 0, res.output
    printed = json.loads(res.output)
    assert printed["input"] == inp and printed["output"] == out
    assert set(printed["context"]["properties"]) == set(SETTING_NAMES)


@pytest.mark.parametrize(
    "draft,given,context,expected",
    [
        ("报告日期：2019年6月1日\n" + FAKE, None, None, "2019-06-01"),  # the report date
        (FAKE, None, None, "today"),  # else today (read when the test runs, not when collected)
        (FAKE, None, {"as_of": "2020-01-02"}, "2020-01-02"),  # the run's setting
        ("报告日期：2019年6月1日\n" + FAKE, "2021-03-04", {"as_of": "2020-01-02"}, "2021-03-04"),
    ],
)
def test_as_of_defaults_inside_the_graph(
    gov: Governor, draft: str, given: str | None, context: Any, expected: str
) -> None:
    inp = {"draft": draft, **({"as_of": given} if given else {})}
    before = date.today().isoformat()
    out = gov.graph("none").invoke(inp, context=context, output_keys=STATE_KEYS)
    if expected == "today":  # a run across midnight may see either day
        assert out["as_of"] in (before, date.today().isoformat())
    else:
        assert out["as_of"] == expected


@pytest.mark.parametrize("how", ["context", "context_object", "configurable"], ids=lambda s: str(s))
@pytest.mark.parametrize(
    "settings,stop,ops",
    [
        ({"strategy": "none"}, "strategy_none", []),
        ({"strategy": "existence"}, "no_change", ["remove_citation"]),  # round 2: nothing left
        ({"strategy": "existence", "max_rounds": 1}, "max_rounds", ["remove_citation"]),
        ({}, "all_pass", ["fix_number", "mark_unsupported"]),  # the graph's default: efa
    ],
)
def test_one_graph_serves_every_setting(
    gov: Governor, how: str, settings: dict[str, Any], stop: str, ops: list[str]
) -> None:
    from graphs.settings import GovernanceContext

    g = gov.graph("efa")
    inp = {"draft": PERIOD + FAKE, "as_of": AS_OF}
    if how == "configurable":
        out = g.invoke(inp, {"configurable": settings})
    elif how == "context_object":
        out = g.invoke(inp, context=GovernanceContext(**settings))
    else:
        out = g.invoke(inp, context=settings)
    assert out["stop_reason"] == stop
    assert [e.op for e in out["edits"]] == ops


@pytest.mark.parametrize(
    "settings,error",
    [
        ({"strategy": "delete"}, StrategyError),
        ({"max_rounds": 0}, ConfigError),
        ({"judge": "oracle"}, ConfigError),
        ({"as_of": "June"}, ConfigError),
        ({"mode": "regenerate"}, ConfigError),  # no generator that takes feedback
    ],
)
def test_bad_settings_fail_clearly(gov: Governor, settings: dict[str, Any], error: type) -> None:
    with pytest.raises(error):
        gov.graph("efa").invoke(INP, context=settings)


def test_llm_judge_setting_without_endpoint_is_a_config_error(gov: Governor) -> None:
    assert gov.graph("efa").invoke(INP, context={"judge": "offline"})["text"] == FIXED
    with pytest.raises(ConfigError):
        gov.graph("efa").invoke(INP, context={"judge": "llm"})


def test_streams_pass_modes_through_with_verdict_events(gov: Governor) -> None:
    w = gov.runnable("efa")
    draft = {"draft": PERIOD + FAKE, "as_of": AS_OF}
    custom = list(w.stream(draft, stream_mode="custom"))
    first = [e for e in custom if e["round"] == 0]
    assert [e["citation"] for e in first] == ["《民法典》第一百八十八条", "《民法典》第九千条"]
    assert [e["existence"] for e in first] == ["exists", "not_found"]
    assert all(e["event"] == "verdict" for e in custom)
    updates = list(w.stream(draft, stream_mode="updates"))
    assert [next(iter(u)) for u in updates][:3] == ["generate", "extract", "verify"]
    both = list(w.stream(draft, stream_mode=["updates", "custom"]))
    assert {m for m, _ in both} == {"updates", "custom"}

    async def collect() -> list[Any]:
        return [c async for c in w.astream(draft, stream_mode="custom")]

    assert asyncio.run(collect()) == custom

    async def events() -> list[Any]:
        return [e async for e in w.astream(draft)]

    evs = asyncio.run(events())
    assert evs[-1].node == "result" and evs[-1].result.text == w.invoke(draft).text


def test_subgraph_stream_passes_subgraphs_through(gov: Governor) -> None:
    import runpy

    app = runpy.run_path(str(Path(__file__).parents[1] / "examples" / "subgraph.py"))
    built = app["build_app"]()
    chunks = list(built.stream({"question": "q"}, subgraphs=True, stream_mode="custom"))
    assert chunks and all(ns and ns[0].startswith("govern") for ns, _ in chunks)
    assert all(ev["event"] == "verdict" for _, ev in chunks)


def test_messages_state_helper_governs_the_last_ai_message(gov: Governor) -> None:
    g: StateGraph[MessagesState, Any, MessagesState, MessagesState] = StateGraph(MessagesState)
    g.add_node("agent", lambda s: {"messages": [AIMessage(PERIOD, id="answer-1")]})
    g.add_node("govern", gov.messages_node("efa", as_of=AS_OF))
    g.add_edge(START, "agent")
    g.add_edge("agent", "govern")
    g.add_edge("govern", END)
    out = g.compile().invoke({"messages": [("human", "诉讼时效多长？")]})
    msgs = out["messages"]
    assert [m.type for m in msgs] == ["human", "ai"]  # replaced, not appended
    assert msgs[-1].content == FIXED and msgs[-1].id == "answer-1"
    meta = msgs[-1].response_metadata["citegov"]
    assert meta["stop_reason"] == "all_pass" and [e["op"] for e in meta["edits"]] == ["fix_number"]
    assert meta["trust_before"] < meta["trust_after"] == 1.0


def _typed_str(q: str) -> str:
    return PERIOD if "诉讼时效" in q else ""


def _typed_messages(msgs: list[BaseMessage]) -> AIMessage:
    return AIMessage(PERIOD if "诉讼时效" in str(msgs[-1].content) else "")


@pytest.mark.parametrize(
    "make",
    [
        lambda: FakeListChatModel(responses=[PERIOD]),  # a bare chat model
        lambda: RunnableLambda(_typed_str),  # str in, str out
        lambda: RunnableLambda(_typed_messages),  # messages in, message out
    ],
    ids=["chat_model", "str_runnable", "messages_runnable"],
)
def test_chat_models_and_runnables_as_generators(make: Any) -> None:
    g = Governor(load_config(overrides={"as_of": AS_OF}), generator=make())
    r = g.write({"query": "诉讼时效多长？"})
    assert r.draft == PERIOD and r.text == FIXED
    assert g.runnable("efa").invoke("诉讼时效多长？").text == FIXED


def test_chat_model_generator_regenerates_with_feedback() -> None:
    chat = FakeListChatModel(responses=[PERIOD + FAKE, FIXED])
    g = Governor(load_config(overrides={"as_of": AS_OF}), generator=chat)
    r = g.write({"query": "诉讼时效？"}, mode="regenerate")
    assert r.text == FIXED and r.rounds[0].edits[0].op == "regenerate"


# ------------------------------------------------------------------ review (item 4)


@pytest.mark.parametrize(
    "decision,n,flags",
    [
        (True, 2, (True, True)),
        ("reject", 2, (False, False)),
        ([True, False], 2, (True, False)),
        ({"accept": [1]}, 3, (False, True, False)),
        ({"reject": [0]}, 2, (False, True)),
        ({"0": True, 2: False}, 3, (True, False, False)),
    ],
)
def test_parse_review(decision: Any, n: int, flags: tuple[bool, ...]) -> None:
    assert parse_review(decision, n) == flags


@pytest.mark.parametrize("decision", [[True], {"accept": [5]}, 3.5, "maybe", {"x": 1}])
def test_parse_review_rejects_what_it_cannot_read(decision: Any) -> None:
    with pytest.raises(InputError):
        parse_review(decision, 2)


@pytest.mark.parametrize(
    "decision,text,stop,applied",
    [
        ([True, False], FIXED + FAKE, "no_change", ["fix_number"]),
        ("reject", PERIOD + FAKE, "rejected", []),
        (True, None, "all_pass", ["fix_number", "mark_unsupported"]),
    ],
)
def test_review_pauses_and_resumes_from_a_sqlite_checkpoint(
    gov: Governor, tmp_path: Path, decision: Any, text: str | None, stop: str, applied: list[str]
) -> None:
    cfg: Any = {"configurable": {"thread_id": "review-1"}}
    db = tmp_path / "review.sqlite"
    with sqlite_checkpointer(db) as saver:
        w = gov.runnable("efa", checkpointer=saver)
        paused = w.invoke({"draft": PERIOD + FAKE, "as_of": AS_OF}, cfg, context={"review": True})
    assert paused.stop_reason == "interrupted" and paused.text == PERIOD + FAKE
    (pause,) = paused.interrupts
    edits = pause["value"]["edits"]
    assert [e["op"] for e in edits] == ["fix_number", "mark_unsupported"]
    assert all(e["reason"] and "context_before" in e for e in edits)
    assert edits[0]["before"] == "二年" and edits[0]["after"] == "三年"
    json.dumps(pause["value"])  # the payload is JSON
    with sqlite_checkpointer(db) as saver:  # a new connection, as after a restart
        done = gov.runnable("efa", checkpointer=saver).invoke(Command(resume=decision), cfg)
    if text is not None:
        assert done.text == text
    assert done.stop_reason == stop and [e.op for e in done.edits] == applied


def test_review_without_a_checkpointer_is_a_config_error(gov: Governor) -> None:
    with pytest.raises(ConfigError, match="checkpointer"):
        gov.graph("efa").invoke(INP, context={"review": True})


def test_govern_with_a_review_callback(gov: Governor) -> None:
    seen: list[list[str]] = []

    def reviewer(payload: dict[str, Any]) -> list[bool]:
        seen.append([e["op"] for e in payload["edits"]])
        return [e["op"] == "fix_number" for e in payload["edits"]]

    r = gov.govern(PERIOD + FAKE, as_of=date(2024, 6, 1), review=reviewer)
    assert seen == [["fix_number", "mark_unsupported"]]
    assert r.text == FIXED + FAKE and any("rejected 1 of 2" in n for n in r.notes)


def test_revise_review_in_the_terminal(tmp_path: Path) -> None:
    from governor.cli.app import app

    src = tmp_path / "in" / "d.md"
    src.parent.mkdir()
    src.write_text(PERIOD + FAKE + "\n", encoding="utf-8")
    out = tmp_path / "out"
    args = ["revise", str(src), "--out", str(out), "--as-of", AS_OF, "--review"]
    res = CliRunner().invoke(app, args, input="y\nn\n")
    assert res.exit_code == 0, res.output
    assert (out / "d.md").read_text(encoding="utf-8") == FIXED + FAKE + "\n"
    assert "1/2 fix_number" in res.output and "2/2 mark_unsupported" in res.output
    assert "apply this edit?" in res.output
    report = json.loads((out / "d.verdicts.json").read_text(encoding="utf-8"))
    assert [e["op"] for r in report["rounds"] for e in r["edits"]] == ["fix_number"]
    bad = CliRunner().invoke(app, [*args, "--workers", "2"])
    assert bad.exit_code == 2 and "--workers 1" in bad.output


# ------------------------------------------------------------------ results (item 5)


def test_results_dump_to_json_and_render_the_spec_report(gov: Governor) -> None:
    r = gov.govern(PERIOD + FAKE, as_of=date(2024, 6, 1))
    text = json.dumps(r.model_dump(mode="json"), ensure_ascii=False)
    assert GovernanceResult.model_validate_json(text) == r
    assert GovernanceResult.model_validate_json(r.model_dump_json()) == r
    report = r.to_report(judge=gov.judge.name)
    same = build_report(
        r.draft,
        as_of=date(2024, 6, 1),
        strategy="efa",
        judge=gov.judge.name,
        initial=r.initial_verdicts,
        result=r,
    )
    assert report == same
    data = json.loads(report.model_dump_json())
    assert data["final"]["scores"]["trust"] > data["scores"]["trust"]
    assert [e["op"] for rd in data["rounds"] for e in rd["edits"]] == [e.op for e in r.edits]
