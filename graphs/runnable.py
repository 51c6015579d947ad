"""The governed writer as a LangChain ``Runnable`` (layer 5).

:class:`GovernedWriter` runs one compiled governance graph (compiled once, reused by every
call) on a draft or a task: ``invoke``/``ainvoke`` return a
:class:`~graphs.state.GovernanceResult`; ``batch``/``abatch`` and concurrent calls are safe
(per-run memory lives in each run's state). ``stream``/``astream`` without ``stream_mode``
yield one :class:`PipelineEvent` per node update, then a last event carrying the result; with
``stream_mode`` (and ``subgraphs``) they pass through to LangGraph's own stream, e.g.
``stream_mode=["updates", "custom"]`` for node updates and one verdict event per citation.
It composes like any runnable (``writer | post_process``, ``with_config``, callbacks).

Inputs: a draft string; ``{"draft": text, "as_of": "YYYY-MM-DD"?, "context": str?}``; or a task
``{"id"?, "query", "subtopics"?, "as_of"?}`` written by the deps' generator; ``None`` to
resume an interrupted run from the checkpointer (same ``thread_id`` in the config); or a
LangGraph ``Command(resume=...)`` answering a review pause.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from langchain_core.runnables import ConfigurableFieldSpec, Runnable, RunnableConfig
from langgraph.types import Command

from governor.core.errors import InputError
from graphs.settings import GovernanceContext, config_specs
from graphs.state import STATE_KEYS, GovernanceResult, GovernanceState, result_from_state

Prepare = Callable[[Any], Any]


def prepare_input(value: Any) -> Any:
    """Initial graph input for a writer input (see the module docstring).

    The as-of date and the question are left to the graph when not given (the ``as_of``
    setting, else the report date in the draft, else today; a ``问题：`` line).

    Raises:
        InputError: ``value`` is neither text, a mapping, ``None`` nor a ``Command``.
    """
    if value is None or isinstance(value, Command):
        return value
    if isinstance(value, str):
        return {"draft": value}
    if isinstance(value, Mapping):
        given = {k: str(value[k]) for k in ("as_of", "context") if value.get(k)}
        if "draft" in value:
            return {"draft": str(value["draft"]), **given}
        task = {k: v for k, v in value.items() if k != "as_of"}
        return {"task": task, **given}
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


def _interrupts(final: Mapping[str, Any]) -> tuple[dict[str, Any], ...]:
    return tuple(
        {"id": getattr(i, "id", None), "value": getattr(i, "value", i)}
        for i in final.get("__interrupt__", ()) or ()
    )


def _update(update: Any) -> dict[str, Any]:
    """A node's update as a dict (an ``__interrupt__`` update is a tuple of interrupts)."""
    if isinstance(update, Mapping):
        return dict(update)
    return {} if update is None else {"interrupts": _interrupts({"__interrupt__": update})}


def _result(final: Mapping[str, Any]) -> GovernanceResult:
    result = result_from_state(final)  # type: ignore[arg-type]
    pauses = _interrupts(final)
    return result.model_copy(update={"interrupts": pauses}) if pauses else result


@dataclass
class GovernedWriter(Runnable[Any, GovernanceResult]):
    """Generate (or take) a draft and govern its citations, as a LangChain ``Runnable``.

    Attributes:
        graph: the compiled governance graph (``build_governance_graph``), reused by every
            call; its checkpointer (if any) makes runs durable (the config then needs
            ``{"configurable": {"thread_id": ...}}``).
        prepare: turns an input into the graph input (:func:`prepare_input`).
        context: settings for every run (:class:`GovernanceContext`); a ``context=`` keyword
            or ``configurable`` keys of a call take precedence.
        interrupt_after: node names to pause after (needs a checkpointer).
    """

    graph: Any
    prepare: Prepare = prepare_input
    context: GovernanceContext | None = None
    interrupt_after: tuple[str, ...] = ()
    name: str | None = field(default="citegov")

    @property
    def config_specs(self) -> list[ConfigurableFieldSpec]:
        """The per-run settings a caller may set under ``configurable``."""
        return config_specs()

    def _kwargs(self, kwargs: dict[str, Any]) -> dict[str, Any]:
        out = dict(kwargs)
        if self.context is not None and out.get("context") is None:
            out["context"] = self.context
        if self.interrupt_after and "interrupt_after" not in out:
            out["interrupt_after"] = list(self.interrupt_after)
        return out

    def invoke(
        self, input: Any, config: RunnableConfig | None = None, **kwargs: Any
    ) -> GovernanceResult:
        """Govern one input; returns the run's :class:`GovernanceResult` (with
        ``interrupts`` set when the run paused for review).

        Raises:
            InputError: the input is not text, a draft mapping, a task, None or a Command.
            ConfigError: no draft and no generator; an invalid setting.
        """
        final = self.graph.invoke(
            self.prepare(input), config, output_keys=STATE_KEYS, **self._kwargs(kwargs)
        )
        return _result(final)

    async def ainvoke(
        self, input: Any, config: RunnableConfig | None = None, **kwargs: Any
    ) -> GovernanceResult:
        """Async :meth:`invoke` (LangGraph's ``ainvoke``; sync nodes run in its executor)."""
        final = await self.graph.ainvoke(
            self.prepare(input), config, output_keys=STATE_KEYS, **self._kwargs(kwargs)
        )
        return _result(final)

    def stream(  # type: ignore[override]
        self,
        input: Any,
        config: RunnableConfig | None = None,
        *,
        stream_mode: Any = None,
        subgraphs: bool = False,
        **kwargs: Any,
    ) -> Iterator[Any]:
        """Without ``stream_mode``: a :class:`PipelineEvent` per node update, then one with
        the result. With ``stream_mode`` (``"updates"``, ``"values"``, ``"custom"``,
        ``"messages"``, ``"debug"`` or a list): LangGraph's stream chunks as they come
        (``(namespace, ...)`` tuples with ``subgraphs=True``)."""
        state, kw = self.prepare(input), self._kwargs(kwargs)
        if stream_mode is not None:
            yield from self.graph.stream(
                state, config, stream_mode=stream_mode, subgraphs=subgraphs, **kw
            )
            return
        values: dict[str, Any] = {}
        for mode, chunk in self.graph.stream(
            state, config, stream_mode=["updates", "values"], output_keys=STATE_KEYS, **kw
        ):
            if mode == "values":
                values = dict(chunk)
                continue
            for node, update in chunk.items():
                yield PipelineEvent(node=node, update=_update(update))
        if values.get("stop_reason") is not None:
            yield PipelineEvent(node="result", update={}, result=_result(values))

    async def astream(  # type: ignore[override]
        self,
        input: Any,
        config: RunnableConfig | None = None,
        *,
        stream_mode: Any = None,
        subgraphs: bool = False,
        **kwargs: Any,
    ) -> AsyncIterator[Any]:
        """Async :meth:`stream`, same events."""
        state, kw = self.prepare(input), self._kwargs(kwargs)
        if stream_mode is not None:
            async for chunk in self.graph.astream(
                state, config, stream_mode=stream_mode, subgraphs=subgraphs, **kw
            ):
                yield chunk
            return
        values: dict[str, Any] = {}
        async for mode, chunk in self.graph.astream(
            state, config, stream_mode=["updates", "values"], output_keys=STATE_KEYS, **kw
        ):
            if mode == "values":
                values = dict(chunk)
                continue
            for node, update in chunk.items():
                yield PipelineEvent(node=node, update=_update(update))
        if values.get("stop_reason") is not None:
            yield PipelineEvent(node="result", update={}, result=_result(values))


__all__ = ["GovernanceState", "GovernedWriter", "PipelineEvent", "prepare_input"]
