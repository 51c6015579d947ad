"""Generator adapters: wrap any report writer behind the ``Generator`` port (layer 5).

A generator takes a task (``{"id", "query", "subtopics": [{id, title, description}], ...}``,
SPEC §8) and, when it accepts feedback, the verdict feedback of the previous draft, and returns
the report text. Adapters:

* :class:`CallableGenerator` — a Python callable ``(task) -> str`` or ``(task, feedback) -> str``
  (the arity is detected);
* :class:`LangChainGenerator` — a LangChain ``Runnable``: a chain ``prompt | model | parser``
  receives the task's keys plus ``feedback``; a bare chat model (``ChatOpenAI``,
  ``FakeListChatModel``) or a runnable taking messages receives the chat messages of a
  :class:`PromptTemplate`; a runnable taking a string receives the rendered question. It may
  return a str, a chat message or ``{"text": ...}``;
* :class:`ChatGenerator` — an OpenAI-compatible chat model (the ``ChatModel`` port, e.g.
  ``governor.clients.chat.OpenAIChatModel``) with a :class:`PromptTemplate`;
* :class:`DraftFolder` — existing drafts on disk, one file per task id (no feedback).

:func:`as_generator` picks the adapter for an object; :func:`accepts_feedback` tells whether a
generator can be asked to regenerate (``mode="regenerate"``).
"""

from __future__ import annotations

import inspect
import string
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from governor.core.config import Config
from governor.core.errors import ConfigError, InputError
from governor.core.ports import ChatModel, Generator
from governor.text.textio import read_draft

GENERATOR_PROMPT_VERSION = "generator-v1"
"""Part of the chat cache key of :class:`ChatGenerator` requests."""


def _as_text(out: Any, source: str) -> str:
    """The report text in a generator's output (str, chat message, or ``{"text": ...}``).

    Raises:
        InputError: the output holds no text.
    """
    if isinstance(out, str):
        return out
    content = getattr(out, "content", None)
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # content blocks of a chat message
        parts = [b if isinstance(b, str) else b.get("text", "") if isinstance(b, Mapping) else ""
                 for b in content]  # fmt: skip
        return "".join(p for p in parts if isinstance(p, str))
    if isinstance(out, Mapping):
        for key in ("text", "output", "report", "content"):
            if isinstance(out.get(key), str):
                return str(out[key])
    raise InputError(
        f"generator {source} returned {type(out).__name__}, not report text; return a str, a "
        "chat message or a mapping with a 'text' key"
    )


def _positional_arity(fn: Callable[..., Any]) -> int | None:
    """Positional parameters ``fn`` takes (None: ``*args``, any number)."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return 2
    n = 0
    for p in sig.parameters.values():
        if p.kind is p.VAR_POSITIONAL:
            return None
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            n += 1
    return n


@dataclass(frozen=True)
class CallableGenerator:
    """A Python callable as a generator.

    Attributes:
        fn: ``(task) -> str`` or ``(task, feedback) -> str`` (feedback is ``None`` for the
            first draft); may also return a chat message or ``{"text": ...}``.
        accepts_feedback: whether ``fn`` takes feedback (detected from its signature).

    Raises:
        ConfigError: ``fn`` takes no positional argument.
    """

    fn: Callable[..., Any]
    accepts_feedback: bool = field(default=False)

    @classmethod
    def wrap(cls, fn: Callable[..., Any]) -> CallableGenerator:
        """Wrap ``fn``, detecting whether it takes a second (feedback) argument."""
        n = _positional_arity(fn)
        if n == 0:
            raise ConfigError(
                f"generator {fn!r} takes no argument; it must accept (task) or (task, feedback)"
            )
        return cls(fn, accepts_feedback=n is None or n >= 2)

    def __call__(self, task: Mapping[str, Any], feedback: str | None = None) -> str:
        out = self.fn(task, feedback) if self.accepts_feedback else self.fn(task)
        return _as_text(out, repr(self.fn))


InputKind = Literal["mapping", "messages", "text"]


def input_kind(runnable: Any) -> InputKind:
    """What a LangChain runnable takes: ``messages`` (a chat/LLM model, also first in a
    chain, or a runnable typed ``list[BaseMessage]``), ``text`` (typed ``str``) or
    ``mapping`` (prompt templates, chains, untyped lambdas)."""
    from langchain_core.language_models import BaseLanguageModel

    first = runnable
    for _ in range(16):  # unwrap sequences (first step) and bindings (with_config, bind)
        nxt = getattr(first, "first", None) or getattr(first, "bound", None)
        if nxt is None:
            break
        first = nxt
    if isinstance(first, BaseLanguageModel):
        return "messages"
    try:
        kind = runnable.get_input_jsonschema().get("type")
    except Exception:  # e.g. a lambda annotated under postponed evaluation: read its hints
        kind = _declared_input(getattr(first, "func", None))
    if kind == "string":
        return "text"
    if kind == "array":
        return "messages"
    return "mapping"


def _declared_input(fn: Any) -> str | None:
    """JSON type of the first parameter's annotation of ``fn`` (``string``, ``array``), or
    None when it has none that resolves."""
    import typing
    from collections.abc import Sequence as AbcSequence

    try:
        hints = typing.get_type_hints(fn)
        first = next(iter(inspect.signature(fn).parameters))
    except Exception:  # no function, unresolvable hints or no parameter
        return None
    tp = hints.get(first)
    if tp is str:
        return "string"
    if typing.get_origin(tp) in (list, tuple, AbcSequence):
        return "array"
    return None


@dataclass(frozen=True)
class LangChainGenerator:
    """A LangChain ``Runnable`` as a generator.

    By :func:`input_kind`: a ``mapping`` runnable is invoked with the task's keys,
    ``subtopics_text`` (the subtopics rendered one per line) and ``feedback_key`` (``""`` for
    the first draft); a ``messages`` runnable (a bare chat model) with the chat messages of
    ``template`` (the feedback as one more human message); a ``text`` runnable with the
    rendered user prompt (the feedback appended). Its output may be a str, a chat message
    (``AIMessage``) or a mapping with ``text``.

    Attributes:
        runnable: any ``langchain_core.runnables.Runnable``.
        accepts_feedback: default: true for ``messages`` and ``text`` runnables, and for a
            ``mapping`` runnable whose input schema has ``feedback_key``.
        feedback_key: input key that carries the feedback.
        kind: what the runnable takes (detected by :meth:`wrap`).
        template: the prompt for ``messages`` and ``text`` runnables.
    """

    runnable: Any
    accepts_feedback: bool = False
    feedback_key: str = "feedback"
    kind: InputKind = "mapping"
    template: PromptTemplate = field(default_factory=lambda: PromptTemplate())

    @classmethod
    def wrap(
        cls,
        runnable: Any,
        *,
        feedback_key: str = "feedback",
        accepts: bool | None = None,
        template: PromptTemplate | None = None,
    ) -> LangChainGenerator:
        """Wrap ``runnable``; its input kind and feedback support are read from it unless
        given."""
        kind = input_kind(runnable)
        if accepts is None:
            if kind != "mapping":
                accepts = True
            else:
                try:
                    props = runnable.get_input_jsonschema().get("properties", {})
                except Exception:  # a runnable without a derivable schema
                    props = {}
                accepts = feedback_key in props
        return cls(
            runnable,
            accepts_feedback=accepts,
            feedback_key=feedback_key,
            kind=kind,
            template=template or PromptTemplate(),
        )

    def __call__(self, task: Mapping[str, Any], feedback: str | None = None) -> str:
        if self.kind == "mapping":
            payload: Any = {**_task_vars(task), self.feedback_key: feedback or ""}
        else:
            msgs = ChatGenerator.render(self.template, task, feedback)
            if self.kind == "messages":
                from langchain_core.messages import HumanMessage, SystemMessage

                payload = [SystemMessage(m["content"]) if m["role"] == "system"
                           else HumanMessage(m["content"]) for m in msgs]  # fmt: skip
            else:
                payload = "\n\n".join(m["content"] for m in msgs if m["role"] != "system")
        return _as_text(self.runnable.invoke(payload), repr(self.runnable))


@dataclass(frozen=True)
class PromptTemplate:
    """Chat prompt of :class:`ChatGenerator`: ``str.format`` templates over the task.

    Fields available: every top-level key of the task (missing ones render as ``""``),
    ``subtopics_text`` (one ``- title：description`` line per subtopic) and, in ``feedback``,
    ``{feedback}``.
    """

    system: str = (
        "你是中国法律研究助理。请就用户的问题撰写一份法律研究报告：分析问题，"
        "并在每个结论处注明所依据的法律条文（《法律名称》第X条），只引用真实存在且现行有效的条文。"
    )
    user: str = "问题：{query}\n{subtopics_text}"
    feedback: str = "{feedback}"


def _task_vars(task: Mapping[str, Any]) -> dict[str, Any]:
    subs = task.get("subtopics") or ()
    lines = []
    for s in subs if isinstance(subs, Sequence) else ():
        if isinstance(s, Mapping):
            title, desc = str(s.get("title", "")), str(s.get("description", ""))
            lines.append(f"- {title}：{desc}" if desc else f"- {title}")
    return {**task, "subtopics_text": ("需要覆盖的子问题：\n" + "\n".join(lines)) if lines else ""}


class _Blank(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return ""


def _fill(template: str, values: Mapping[str, Any]) -> str:
    return string.Formatter().vformat(template, (), _Blank(values))


@dataclass(frozen=True)
class ChatGenerator:
    """An OpenAI-compatible chat model with a prompt template as a generator.

    Attributes:
        chat: a ``ChatModel`` (``OpenAIChatModel`` with its retries, budget and disk cache).
        template: the prompt; the feedback (regenerate mode) is sent as one more user
            message rendered with ``template.feedback``.
        max_tokens: completion cap per report.
        accepts_feedback: always true.

    Raises (on call):
        EndpointError / BudgetExceededError: from the chat model.
    """

    chat: ChatModel
    template: PromptTemplate = field(default_factory=PromptTemplate)
    max_tokens: int | None = 4096
    accepts_feedback: bool = True

    def messages(
        self, task: Mapping[str, Any], feedback: str | None = None
    ) -> list[dict[str, str]]:
        """The chat messages for ``task`` (and ``feedback``)."""
        return self.render(self.template, task, feedback)

    @staticmethod
    def render(
        template: PromptTemplate, task: Mapping[str, Any], feedback: str | None = None
    ) -> list[dict[str, str]]:
        """The chat messages of ``template`` for ``task`` (and ``feedback``): system, user,
        and the feedback as one more user message."""
        values = _task_vars(task)
        msgs = [
            {"role": "system", "content": _fill(template.system, values)},
            {"role": "user", "content": _fill(template.user, values).strip()},
        ]
        if feedback:
            msgs.append(
                {"role": "user", "content": _fill(template.feedback, {"feedback": feedback})}
            )
        return msgs

    def __call__(self, task: Mapping[str, Any], feedback: str | None = None) -> str:
        return self.chat.complete(self.messages(task, feedback), max_tokens=self.max_tokens)


def chat_generator_from_config(
    config: Config, *, template: PromptTemplate | None = None, **client_kwargs: Any
) -> ChatGenerator:
    """A :class:`ChatGenerator` over the endpoint in ``config`` (``llm_base_url``,
    ``llm_model``, key from ``$llm_api_key_env``, cache in ``cache_dir``).

    Args:
        config: run configuration.
        template: prompt template (default :class:`PromptTemplate`).
        **client_kwargs: passed to ``OpenAIChatModel.from_config`` (``environ``,
            ``http_client``, ``sleep``, ``dry_run``...).

    Raises:
        ConfigError: endpoint settings or the key are missing.
    """
    from governor.clients.chat import OpenAIChatModel

    chat = OpenAIChatModel.from_config(
        config, prompt_version=GENERATOR_PROMPT_VERSION, **client_kwargs
    )
    return ChatGenerator(chat, template or PromptTemplate())


@dataclass(frozen=True)
class DraftFolder:
    """Existing drafts on disk as a generator: ``<folder>/<task id><suffix>``.

    Attributes:
        folder: the folder of drafts.
        suffixes: file suffixes tried in order.
        max_chars: refuse drafts longer than this (characters).
        accepts_feedback: always false (a file cannot rewrite itself).
    """

    folder: Path
    suffixes: tuple[str, ...] = (".md", ".txt")
    max_chars: int = 2_000_000
    accepts_feedback: bool = False

    def ids(self) -> tuple[str, ...]:
        """Task ids of the drafts in the folder, sorted."""
        return tuple(sorted({p.stem for p in self.folder.iterdir() if p.suffix in self.suffixes}))

    def path(self, task_id: str) -> Path:
        """The draft file of ``task_id``.

        Raises:
            InputError: no draft for that id.
        """
        for sfx in self.suffixes:
            p = self.folder / f"{task_id}{sfx}"
            if p.is_file():
                return p
        raise InputError(
            f"no draft for task {task_id!r} in {self.folder} (looked for "
            f"{', '.join(task_id + s for s in self.suffixes)}); check the task id or the folder"
        )

    def __call__(self, task: Mapping[str, Any], feedback: str | None = None) -> str:
        if "id" not in task:
            raise InputError(f"task {dict(task)!r} has no 'id'; DraftFolder reads <folder>/<id>.md")
        return read_draft(self.path(str(task["id"])), max_chars=self.max_chars).text


def _is_runnable(obj: Any) -> bool:
    try:
        from langchain_core.runnables import Runnable
    except ImportError:  # pragma: no cover - langchain-core is a dependency
        return False
    return isinstance(obj, Runnable)


def as_generator(obj: Any) -> Generator:
    """The adapter for ``obj``.

    Args:
        obj: an adapter (returned as is), a LangChain ``Runnable``, a ``ChatModel``, a folder
            (``str``/``Path``) of drafts, or a callable.

    Raises:
        ConfigError: ``obj`` is none of these, or a folder that does not exist.
    """
    if isinstance(obj, CallableGenerator | LangChainGenerator | ChatGenerator | DraftFolder):
        return obj
    if _is_runnable(obj):
        return LangChainGenerator.wrap(obj)
    if isinstance(obj, ChatModel):
        return ChatGenerator(obj)
    if isinstance(obj, str | Path):
        if not Path(obj).is_dir():
            raise ConfigError(f"generator folder {obj} does not exist; pass a folder of drafts")
        return DraftFolder(Path(obj))
    if callable(obj):
        return CallableGenerator.wrap(obj)
    raise ConfigError(
        f"cannot wrap {type(obj).__name__} as a generator; pass a callable (task[, feedback]) "
        "-> str, a LangChain Runnable, a ChatModel or a folder of drafts"
    )


def accepts_feedback(gen: Any) -> bool:
    """Whether ``gen`` can rewrite a draft from feedback (``mode="regenerate"``)."""
    flag = getattr(gen, "accepts_feedback", None)
    if isinstance(flag, bool):
        return flag
    n = _positional_arity(gen)
    return n is None or n >= 2
