"""Generator adapters: callables (arity detection), LangChain Runnables, OpenAI-compatible chat
models with a prompt template, and drafts on disk."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.messages import AIMessage
from langchain_core.output_parsers import StrOutputParser
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import RunnableLambda

from governor.core.config import load_config
from governor.core.errors import ConfigError, InputError
from graphs.wrap import (
    CallableGenerator,
    ChatGenerator,
    DraftFolder,
    LangChainGenerator,
    PromptTemplate,
    accepts_feedback,
    as_generator,
    chat_generator_from_config,
)
from tests.fakes.openai_server import FakeOpenAIServer

TASK = {
    "id": "t1",
    "query": "违约责任？",
    "subtopics": [{"id": "s1", "title": "违约", "description": "违约的构成"}, {"title": "时效"}],
}


def one(task: Mapping[str, Any]) -> str:
    return "一稿"


def two(task: Mapping[str, Any], feedback: str | None = None) -> str:
    return f"二稿:{feedback}"


def star(*args: Any) -> str:
    return f"{len(args)}"


class Writer:
    def __call__(self, task: Mapping[str, Any]) -> str:
        return "对象"


def kw_only(task: Mapping[str, Any], *, feedback: str | None = None) -> str:
    return "kw"


@pytest.mark.parametrize(
    "fn,takes_feedback,first,second",
    [
        (one, False, "一稿", "一稿"),
        (two, True, "二稿:None", "二稿:改"),
        (star, True, "2", "2"),
        (Writer(), False, "对象", "对象"),
        (kw_only, False, "kw", "kw"),  # feedback must be positional to be passed
        (functools.partial(two, feedback="x"), False, "二稿:x", "二稿:x"),
        (lambda task, fb: f"λ{fb}", True, "λNone", "λ改"),
    ],
)
def test_callable_arity_is_detected(fn: Any, takes_feedback: bool, first: str, second: str) -> None:
    gen = CallableGenerator.wrap(fn)
    assert gen.accepts_feedback is takes_feedback and accepts_feedback(gen) is takes_feedback
    assert gen(TASK) == first and gen(TASK, "改") == second


def test_callable_without_arguments_is_refused() -> None:
    with pytest.raises(ConfigError, match=r"\(task\) or \(task, feedback\)"):
        CallableGenerator.wrap(lambda: "x")


@pytest.mark.parametrize(
    "out,text",
    [
        ("文本", "文本"),
        (AIMessage(content="消息"), "消息"),
        (AIMessage(content=[{"type": "text", "text": "块"}, "二"]), "块二"),
        ({"text": "映射"}, "映射"),
        ({"output": "输出"}, "输出"),
    ],
)
def test_generator_outputs_become_text(out: Any, text: str) -> None:
    assert CallableGenerator.wrap(lambda task: out)(TASK) == text


def test_non_text_output_is_a_clear_error() -> None:
    with pytest.raises(InputError, match="return a str"):
        CallableGenerator.wrap(lambda task: 42)(TASK)


def test_langchain_chain_gets_task_keys_subtopics_and_feedback() -> None:
    seen: list[Any] = []
    prompt = ChatPromptTemplate.from_messages([("user", "{query}|{subtopics_text}|{feedback}")])
    spy = RunnableLambda(lambda pv: seen.append(pv.to_string()) or pv)
    chain = prompt | spy | FakeListChatModel(responses=["报告一", "报告二"]) | StrOutputParser()
    gen = as_generator(chain)
    assert isinstance(gen, LangChainGenerator) and gen.accepts_feedback
    assert gen(TASK) == "报告一" and gen(TASK, "请改正第九千条") == "报告二"
    assert "违约？" not in seen[0] and "违约责任？" in seen[0]
    assert "- 违约：违约的构成" in seen[0] and "- 时效" in seen[0]
    assert seen[0].endswith("|") and seen[1].endswith("|请改正第九千条")


def test_langchain_runnable_without_feedback_input() -> None:
    gen = as_generator(RunnableLambda(lambda d: AIMessage(content=d["query"])))
    assert isinstance(gen, LangChainGenerator) and not gen.accepts_feedback
    assert gen(TASK) == "违约责任？"
    assert LangChainGenerator.wrap(RunnableLambda(lambda d: "x"), accepts=True).accepts_feedback


class EchoChat:
    model = "echo"

    def __init__(self) -> None:
        self.messages: list[Any] = []

    def complete(self, messages: Any, **kw: Any) -> str:
        self.messages.append(messages)
        return "报告"


def test_chat_generator_renders_the_template() -> None:
    chat = EchoChat()
    gen = as_generator(chat)
    assert isinstance(gen, ChatGenerator) and gen.accepts_feedback
    assert gen(TASK) == "报告"
    system, user = chat.messages[0]
    assert system["role"] == "system" and "法律" in system["content"]
    assert (
        user["content"].startswith("问题：违约责任？") and "- 违约：违约的构成" in user["content"]
    )
    gen(TASK, "反馈内容")
    assert chat.messages[1][-1] == {"role": "user", "content": "反馈内容"}
    custom = ChatGenerator(chat, PromptTemplate(system="S{id}", user="{query}{missing}"))
    custom(TASK)
    assert [m["content"] for m in chat.messages[2]] == ["St1", "违约责任？"]  # missing → ""


def test_chat_generator_from_config_over_the_openai_wire(
    openai_server: FakeOpenAIServer, fake_key_env: dict[str, str], tmp_path: Path
) -> None:
    cfg = load_config(
        overrides={
            "llm_base_url": openai_server.base_url,
            "llm_model": "writer-model",
            "cache_dir": str(tmp_path),
        },
        environ={},
    )
    gen = chat_generator_from_config(cfg, environ=fake_key_env, sleep=lambda _: None)
    openai_server.push("根据《民法典》第五百七十七条规定……")
    assert gen(TASK) == "根据《民法典》第五百七十七条规定……"
    assert gen(TASK) == "根据《民法典》第五百七十七条规定……"  # disk cache: no second call
    (req,) = openai_server.completions
    assert req.json["model"] == "writer-model" and "违约责任？" in req.prompt
    assert req.response_format is None  # a report is free text


def test_chat_generator_needs_endpoint_settings() -> None:
    with pytest.raises(ConfigError, match="llm_base_url"):
        chat_generator_from_config(load_config(environ={}), environ={"OPENAI_API_KEY": "k"})


def test_draft_folder(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("甲稿", encoding="utf-8")
    gbk = "乙稿：根据《中华人民共和国民法典》第五百七十七条规定，当事人一方不履行合同义务的，应当承担违约责任。"
    (tmp_path / "b.txt").write_bytes(gbk.encode("gb18030"))
    (tmp_path / "c.json").write_text("{}", encoding="utf-8")
    gen = as_generator(tmp_path)
    assert isinstance(gen, DraftFolder) and not accepts_feedback(gen)
    assert gen.ids() == ("a", "b")
    assert gen({"id": "a"}) == "甲稿" and gen({"id": "b"}, "feedback is ignored") == gbk
    with pytest.raises(InputError, match=r"no draft for task 'zz'.*zz\.md"):
        gen({"id": "zz"})
    with pytest.raises(InputError, match="has no 'id'"):
        gen({"query": "q"})


@pytest.mark.parametrize("bad", [42, str(Path("/nonexistent/folder"))])
def test_unwrappable_objects_are_refused(bad: Any) -> None:
    with pytest.raises(ConfigError):
        as_generator(bad)


def test_adapters_pass_through() -> None:
    gen = CallableGenerator.wrap(two)
    assert as_generator(gen) is gen
