"""Runtime settings of one governance run (layer 5): LangGraph's ``context_schema``.

One compiled graph serves every run; what may differ between runs travels with the run:

* ``graph.invoke(inp, context={"strategy": "existence", "max_rounds": 1})`` (LangGraph's
  runtime context, coerced to :class:`GovernanceContext`), or
* ``graph.invoke(inp, {"configurable": {"strategy": "existence"}})`` (LangChain's
  ``configurable``; the keys are the field names of :class:`GovernanceContext`).

A setting left ``None`` falls back to the graph's default (the :class:`GovernanceDeps` it was
compiled over). The first node resolves the settings once and stores them in the state
(``settings``), so routers, an interrupted run resumed from a checkpoint and every later node
see the same values. To add a setting: add a field here (``None`` default) and a default in
:func:`resolve_settings`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from langchain_core.runnables import ConfigurableFieldSpec

from governor.core.config import EDIT_POLICIES, JUDGES, STRATEGIES
from governor.core.errors import ConfigError, StrategyError
from governor.text.dates import parse_as_of

MODES: tuple[str, ...] = ("edit", "regenerate")


@dataclass(frozen=True)
class GovernanceContext:
    """Per-run settings (all optional; ``None`` = the compiled graph's default).

    Attributes:
        strategy: ``none`` | ``existence`` | ``efa`` (SPEC §5).
        max_rounds: revision rounds at most (1–10).
        as_of: ISO date (``YYYY-MM-DD``) the report speaks as of; used when the input has
            no ``as_of``. Without either: the report date written in the draft, else today.
        judge: name of the F/A judge (``offline`` | ``llm``); the graph must have been built
            with a way to make that judge (``Governor`` does).
        strict: unverifiable citations scored 0.5 and removed by ``existence``.
        mode: ``edit`` | ``regenerate`` (needs a generator that takes feedback).
        review: pause before applying each round's edits (``interrupt()``); resume with
            ``Command(resume=decision)`` (see :func:`graphs.nodes.parse_review`). Needs a
            checkpointer.
        edit_policy: what may change the report's words (``annotate`` | ``proven`` |
            ``aggressive``; :mod:`governor.revision.policy`).
    """

    strategy: str | None = None
    max_rounds: int | None = None
    as_of: str | None = None
    judge: str | None = None
    strict: bool | None = None
    mode: str | None = None
    review: bool | None = None
    edit_policy: str | None = None


SETTING_NAMES: tuple[str, ...] = tuple(f.name for f in fields(GovernanceContext))

_DESCRIPTIONS = {
    "strategy": "Governance strategy: none | existence | efa.",
    "max_rounds": "Revision rounds at most (1-10).",
    "as_of": "ISO date the report speaks as of (default: report date in the draft, else today).",
    "judge": "F/A judge: offline | llm.",
    "strict": "Score unverifiable citations 0.5 and let existence filtering remove them.",
    "mode": "edit (citegov edits) | regenerate (the generator rewrites with feedback).",
    "review": "Pause for human approval of each round's edits (needs a checkpointer).",
    "edit_policy": "What may change words: annotate | proven | aggressive.",
}
_TYPES: dict[str, Any] = {
    "strategy": str,
    "max_rounds": int,
    "as_of": str,
    "judge": str,
    "strict": bool,
    "mode": str,
    "review": bool,
    "edit_policy": str,
}


def config_specs() -> list[ConfigurableFieldSpec]:
    """The settings as LangChain ``ConfigurableFieldSpec`` s (``configurable`` keys)."""
    return [
        ConfigurableFieldSpec(
            id=name, annotation=_TYPES[name], name=name, description=_DESCRIPTIONS[name]
        )
        for name in SETTING_NAMES
    ]


def _given(context: Any, configurable: Mapping[str, Any]) -> dict[str, Any]:
    """Settings given for this run: runtime context first, then ``configurable``.

    A context of another type (a parent graph's own context when this graph is a subgraph)
    contributes the attributes or keys it shares with :class:`GovernanceContext`.
    """
    out: dict[str, Any] = {}
    for name in SETTING_NAMES:
        if isinstance(context, Mapping):
            value = context.get(name)
        else:
            value = getattr(context, name, None) if context is not None else None
        if value is None:
            value = configurable.get(name)
        if value is not None:
            out[name] = value
    return out


def resolve_settings(
    defaults: Mapping[str, Any], context: Any, configurable: Mapping[str, Any]
) -> dict[str, Any]:
    """The settings of one run: given values over ``defaults``, validated.

    Args:
        defaults: the graph's defaults (keys of :data:`SETTING_NAMES`).
        context: the run's LangGraph runtime context (a :class:`GovernanceContext`, a mapping,
            another object with some of its attributes, or ``None``).
        configurable: ``config["configurable"]`` of the run.

    Returns:
        A plain dict (checkpoint-friendly) with every key of :data:`SETTING_NAMES`.

    Raises:
        StrategyError: unknown strategy.
        ConfigError: unknown judge, edit policy or mode, ``max_rounds`` outside 1–10, a bad ``as_of``.
    """
    s = {**{n: None for n in SETTING_NAMES}, **defaults, **_given(context, configurable)}
    if s["strategy"] not in STRATEGIES:
        raise StrategyError(
            f"unknown strategy {s['strategy']!r}; use one of {', '.join(STRATEGIES)}"
        )
    if s["judge"] is not None and s["judge"] not in JUDGES:
        raise ConfigError(f"unknown judge {s['judge']!r}; use one of {', '.join(JUDGES)}")
    if s["edit_policy"] not in EDIT_POLICIES:
        raise ConfigError(
            f"unknown edit policy {s['edit_policy']!r}; use one of {', '.join(EDIT_POLICIES)}"
        )
    if s["mode"] not in MODES:
        raise ConfigError(f"unknown mode {s['mode']!r}; use edit or regenerate")
    try:
        s["max_rounds"] = int(s["max_rounds"])
    except (TypeError, ValueError):
        raise ConfigError(f"max_rounds must be an integer, got {s['max_rounds']!r}") from None
    if not 1 <= s["max_rounds"] <= 10:
        raise ConfigError(f"max_rounds must be between 1 and 10, got {s['max_rounds']}")
    if s["as_of"] is not None:
        s["as_of"] = iso_date(s["as_of"], "as_of setting")
    s["strict"] = bool(s["strict"])
    s["review"] = bool(s["review"])
    return s


def iso_date(value: Any, what: str) -> str:
    """``value`` (a ``date`` or an ISO string) as ``YYYY-MM-DD``
    (:func:`governor.text.dates.parse_as_of`).

    Raises:
        ConfigError: not a date; the message names ``what``.
    """
    return parse_as_of(value, what).isoformat()
