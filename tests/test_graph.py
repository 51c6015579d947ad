"""The governance graph: stop rules, re-verification cache, regenerate mode, LLM reviser wiring,
the governed writer as a LangChain Runnable, subgraph use, and the Mermaid drawing."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

import pytest
from langchain_core.runnables import RunnableLambda
from langgraph.graph import END, START, StateGraph
from typer.testing import CliRunner
from typing_extensions import TypedDict

from governor.api import Governor
from governor.core.config import load_config
from governor.core.errors import ConfigError, InputError
from governor.core.labels import report_score
from governor.revision.llm import LLMReviser
from graphs.nodes import GovernanceDeps
from graphs.pipeline import build_governance_graph
from graphs.runnable import PipelineEvent
from graphs.state import STATE_KEYS, result_from_state
from graphs.wrap import as_generator
from verifiers.judge import JudgeItem, JudgeOutcome
from verifiers.offline import OfflineJudge
from verifiers.verify import Verifier

AS_OF = date(2024, 6, 1)
OK = (
    "根据《中华人民共和国民法典》第五百七十七条规定，当事人一方不履行合同义务的，应当承担违约责任。"
)
PERIOD = "向人民法院请求保护民事权利的诉讼时效期间为二年（《民法典》第一百八十八条）。"
FAKE = "根据《民法典》第九千条规定，合同无效。"
DRAFT = OK + PERIOD + FAKE + "\n"


@dataclass
class CountingJudge:
    """Wraps a judge; counts ``judge`` calls and judged items."""

    inner: Any
    name: str = "offline"
    calls: int = 0
    items: list[str] = field(default_factory=list)

    def judge(self, items: Sequence[JudgeItem]) -> list[JudgeOutcome]:
        self.calls += 1
        self.items += [it.citation.raw for it in items]
        return list(self.inner.judge(items))


class NoCacheVerifier(Verifier):
    """A verifier that forgets every verdict before each call (the baseline)."""

    def verify(self, citations: Any, **kw: Any) -> Any:
        self.cache.clear()
        return super().verify(citations, **kw)


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor(load_config(overrides={"as_of": AS_OF.isoformat()}))


def run(gov: Governor, draft: str, *, verifier: Verifier, **kw: Any) -> Any:
    deps = GovernanceDeps(extractor=gov.extract, verifier=verifier, **kw)
    state = build_governance_graph(deps).invoke(
        {"draft": draft, "as_of": AS_OF.isoformat()}, output_keys=STATE_KEYS
    )
    return result_from_state(state, deps.strategy)


# ------------------------------------------------------------------ loop and cache


@pytest.mark.parametrize(
    "draft,strategy,max_rounds,stop",
    [
        (DRAFT, "none", 2, "strategy_none"),
        (DRAFT, "efa", 2, "all_pass"),
        (OK + "\n", "efa", 2, "all_pass"),  # nothing to do: no round
        (PERIOD + FAKE, "existence", 2, "no_change"),  # E-Filter leaves the F error
    ],
)
def test_stop_reasons(gov: Governor, draft: str, strategy: str, max_rounds: int, stop: str) -> None:
    v = gov.verifier()
    r = run(gov, draft, verifier=v, strategy=strategy, max_rounds=max_rounds)
    assert r.stop_reason == stop
    assert len(r.rounds) <= max_rounds


@pytest.mark.parametrize("max_rounds", [1, 3])
def test_max_rounds_bounds_a_generator_that_never_fixes(gov: Governor, max_rounds: int) -> None:
    calls: list[str | None] = []

    def stubborn(task: Mapping[str, Any], feedback: str | None = None) -> str:
        calls.append(feedback)
        return FAKE + "。" * len(calls)  # a new text each time, still citing 第九千条

    r = run(
        gov, DRAFT, verifier=gov.verifier(), strategy="efa", max_rounds=max_rounds,
        generator=as_generator(stubborn), mode="regenerate",
    )  # fmt: skip
    assert r.stop_reason == "max_rounds" and len(r.rounds) == max_rounds == len(calls)


def test_reverification_judges_only_changed_citations(gov: Governor) -> None:
    cached = CountingJudge(OfflineJudge(gov.store, gov.store))
    r = run(gov, DRAFT, verifier=Verifier(gov.store, gov.store, cached), strategy="efa")
    # round 0 judges 577 and 188 (第九千条 does not exist: nothing to judge);
    # round 1 changed only 188's description (二年 → 三年) and removed 第九千条.
    round0 = ["《中华人民共和国民法典》第五百七十七条", "《民法典》第一百八十八条"]
    assert cached.items == [*round0, "《民法典》第一百八十八条"]
    assert cached.calls == 2 and r.judged == 3
    untouched_before = r.initial_verdicts[0]
    untouched_after = next(v for v in r.final_verdicts if v.citation.article == "577")
    assert untouched_after == untouched_before  # same verdict, same span: reused as is

    baseline = CountingJudge(OfflineJudge(gov.store, gov.store))
    r0 = run(gov, DRAFT, verifier=NoCacheVerifier(gov.store, gov.store, baseline), strategy="efa")
    assert len(baseline.items) == 4 and r0.text == r.text  # 577 judged again without the cache


# ------------------------------------------------------------------ regenerate


def test_regenerate_sends_feedback_and_reverifies(gov: Governor) -> None:
    seen: list[str | None] = []

    def writer(task: Mapping[str, Any], feedback: str | None = None) -> str:
        seen.append(feedback)
        return DRAFT if feedback is None else OK + PERIOD.replace("二年", "三年") + "\n"

    g = Governor(gov.config, store=gov.store, judge=gov.judge, generator=writer)
    r = g.write({"query": "违约责任与诉讼时效？"}, strategy="efa", mode="regenerate")
    assert seen[0] is None and len(seen) == 2
    fb = seen[1] or ""
    assert "《民法典》第九千条" in fb and "不存在" in fb and "与条文不符" in fb and DRAFT in fb
    assert r.stop_reason == "all_pass" and r.mode == "regenerate"
    assert {e.op for e in r.edits} == {"regenerate"}
    assert report_score(r.final_verdicts).trust == 1.0


def test_regenerate_needs_a_generator_that_takes_feedback(gov: Governor) -> None:
    g = Governor(gov.config, store=gov.store, judge=gov.judge, generator=lambda task: DRAFT)
    with pytest.raises(ConfigError, match="accepts feedback"):
        g.write({"query": "q"}, mode="regenerate")
    with pytest.raises(ConfigError, match="mode"):
        g.write({"query": "q"}, mode="rewrite")


def test_regenerate_with_an_empty_rewrite_keeps_the_draft(gov: Governor) -> None:
    g = Governor(
        gov.config, store=gov.store, judge=gov.judge,
        generator=lambda task, feedback=None: DRAFT if feedback is None else "  ",
    )  # fmt: skip
    r = g.write({"query": "q"}, mode="regenerate")
    assert r.text == DRAFT and r.stop_reason == "no_change" and "empty rewrite" in r.notes[0]


# ------------------------------------------------------------------ LLM reviser wiring


class FixingChat:
    """Reviser model: fixes 第九千条 → 第一百五十三条 and records each call."""

    model = "fixer"

    def __init__(self) -> None:
        self.prompts: list[str] = []

    def complete(self, messages: Sequence[Mapping[str, str]], **_: Any) -> str:
        user = messages[-1]["content"]
        self.prompts.append(user)
        draft = user.split(">>>\n", 2)[-1].rsplit("\n<<<", 1)[0]
        return json.dumps({"revised_text": draft.replace("第九千条", "第一百五十三条")})


def test_llm_reviser_repairs_what_offline_would_remove(gov: Governor) -> None:
    chat = FixingChat()
    g = Governor(gov.config, store=gov.store, judge=gov.judge, reviser=LLMReviser(chat))
    r = g.govern(DRAFT, strategy="efa")
    ops = [e.op for e in r.rounds[0].edits]
    assert "fix_number" in ops and "llm_rewrite" in ops  # offline repair + LLM repair
    assert "mark_unsupported" not in ops  # the removal was withdrawn
    assert "《民法典》第一百五十三条" in r.text
    # the LLM was asked only about the citation offline could not repair
    assert (
        "第九千条" in chat.prompts[0] and "引注「《民法典》第一百八十八条」" not in chat.prompts[0]
    )
    assert all(e.op != "llm_rewrite" for e in gov.govern(DRAFT, strategy="efa").edits)


def test_llm_reviser_only_for_efa_edit_and_rejections_are_recorded(gov: Governor) -> None:
    class Down:
        model = "down"
        calls = 0

        def complete(self, *_: Any, **__: Any) -> str:
            Down.calls += 1
            return json.dumps({"revised_text": ""})

    g = Governor(gov.config, store=gov.store, judge=gov.judge, reviser=LLMReviser(Down()))
    g.govern(DRAFT, strategy="existence")
    g.graph("efa").invoke({"draft": DRAFT}, context={"strategy": "existence"})
    assert Down.calls == 0  # existence filtering never asks the LLM reviser
    r = g.govern(DRAFT, strategy="efa")
    assert Down.calls == 1
    assert any("LLM reviser reply rejected: empty reply" in n for n in r.notes)
    assert r.text == gov.govern(DRAFT, strategy="efa").text  # offline result kept
    assert gov.reviser is None  # offline config: no reviser


def test_llm_config_builds_a_reviser(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    cfg = load_config(
        overrides={
            "judge": "llm",
            "llm_base_url": "http://127.0.0.1:9/v1",
            "llm_model": "m",
            "cache_dir": str(tmp_path),
        }
    )
    assert isinstance(Governor(cfg).reviser, LLMReviser)


# ------------------------------------------------------------------ the Runnable


def test_governed_writer_invoke_batch_stream(gov: Governor) -> None:
    w = gov.runnable("efa")
    one = w.invoke(DRAFT)
    assert one.stop_reason == "all_pass" and "三年" in one.text
    many = w.batch([DRAFT, {"draft": PERIOD, "as_of": "2024-06-01"}, DRAFT])
    assert [m.text for m in many][0::2] == [one.text, one.text]  # fresh deps per input
    assert "三年" in many[1].text
    events = list(w.stream(DRAFT))
    assert all(isinstance(e, PipelineEvent) for e in events)
    assert [e.node for e in events] == [
        "generate", "extract", "verify", "revise", "extract", "verify", "finalize", "result",
    ]  # fmt: skip
    assert events[-1].result is not None and events[-1].result.text == one.text
    assert (w | RunnableLambda(lambda r: r.stop_reason)).invoke(DRAFT) == "all_pass"
    with pytest.raises(InputError, match="cannot govern"):
        w.invoke(42)


def test_governed_writer_reads_the_report_date() -> None:
    gov = Governor(load_config())
    r = gov.runnable("none").invoke("报告日期：2019年6月1日\n" + FAKE)
    assert r.as_of == "2019-06-01"


class App(TypedDict, total=False):
    question: str
    draft: str
    as_of: str
    text: str
    stop_reason: str
    answer: str


def test_graph_is_a_subgraph_of_a_user_app(gov: Governor) -> None:
    g: StateGraph[App, Any, App, App] = StateGraph(App)
    g.add_node("write", lambda s: {"draft": DRAFT, "as_of": AS_OF.isoformat()})
    g.add_node("govern", gov.graph("efa"))
    g.add_node("publish", lambda s: {"answer": s["text"]})
    g.add_edge(START, "write")
    g.add_edge("write", "govern")
    g.add_edge("govern", "publish")
    g.add_edge("publish", END)
    out = g.compile().invoke({"question": "q"})
    assert out["stop_reason"] == "all_pass" and out["answer"] == gov.govern(DRAFT).text
    assert "rounds" not in out  # the subgraph's own keys stay inside


# ------------------------------------------------------------------ drawing


def test_mermaid_drawing_shows_the_loop(gov: Governor) -> None:
    m = gov.graph("efa").get_graph().draw_mermaid()
    for node in ("generate", "extract", "verify", "revise", "finalize"):
        assert f"\t{node}({node})" in m
    for edge in (
        "__start__ --> generate;", "generate --> extract;", "extract --> verify;",
        "verify -.-> revise;", "verify -.-> finalize;", "revise -.-> extract;",
        "revise -.-> finalize;", "finalize --> __end__;",
    ):  # fmt: skip
        assert edge in m, edge
    from governor.cli.app import app

    res = CliRunner().invoke(app, ["graph", "--mermaid"])
    assert res.exit_code == 0 and "verify -.-> revise;" in res.output
