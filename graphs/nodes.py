"""Pipeline nodes and typed routers (layer 5). Nodes take the state and return partial updates.

Dependencies are injected through :class:`GovernanceDeps` (built by the caller, never at
import time); :func:`make_nodes` closes the node functions over them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Literal

from governor.config import Strategy, Thresholds
from governor.models import Citation, Edit, Revision, Span, Verdict
from governor.ports import Generator
from governor.repairs import apply_edits
from governor.revise import EfaReviser, existence_filter
from graphs.state import GovernanceState
from verifiers.verify import Verifier

Extractor = Callable[[str], Sequence[Citation]]
TextReviser = Callable[[str, Sequence[Verdict]], str]
"""An LLM reviser: (text, verdicts) → revised text (re-verified like any draft)."""
FeedbackWriter = Callable[[Sequence[Verdict]], str]


@dataclass
class GovernanceDeps:
    """Everything the nodes need, injected.

    Attributes:
        extractor: text → citations (``governor.extract.extract`` bound to the store).
        verifier: E/F/A verifier (offline or LLM judge inside).
        strategy: ``none`` | ``existence`` | ``efa``.
        max_rounds: revision rounds at most (SPEC §5 default 2).
        strict: unverifiable citations removed by ``existence`` and scored 0.5.
        generator: writes the draft when none is given (and rewrites it in regenerate mode).
        mode: ``edit`` (citegov edits the text) or ``regenerate`` (the generator rewrites it
            with the verdict feedback).
        text_reviser: optional LLM reviser used by ``efa`` after the offline repairs.
        feedback: renders verdicts as feedback text for regenerate mode / LLM reviser.
    """

    extractor: Extractor
    verifier: Verifier
    strategy: Strategy = "efa"
    max_rounds: int = 2
    strict: bool = False
    thresholds: Thresholds = field(default_factory=Thresholds)
    generator: Generator | None = None
    mode: Literal["edit", "regenerate"] = "edit"
    text_reviser: TextReviser | None = None
    feedback: FeedbackWriter | None = None
    efa: EfaReviser = field(init=False)

    def __post_init__(self) -> None:
        self.efa = EfaReviser(self.thresholds)


def _whole(text: str, new: str, op: Literal["llm_rewrite", "regenerate"], why: str) -> Edit:
    return Edit(op=op, span=Span(start=0, end=len(text)), before=text, after=new, reason=why)


def make_nodes(deps: GovernanceDeps) -> dict[str, Callable[[GovernanceState], dict[str, Any]]]:
    """Node functions keyed by node name, closed over ``deps``."""

    def generate(state: GovernanceState) -> dict[str, Any]:
        if "draft" in state and state["draft"] is not None:
            return {"text": state["draft"], "round": 0}
        if deps.generator is None:
            raise ValueError("no draft given and no generator configured")
        draft = deps.generator(state.get("task", {}))
        return {"draft": draft, "text": draft, "round": 0}

    def extract(state: GovernanceState) -> dict[str, Any]:
        return {"citations": tuple(deps.extractor(state["text"]))}

    def verify(state: GovernanceState) -> dict[str, Any]:
        verdicts = deps.verifier.verify(
            state["citations"],
            as_of=date.fromisoformat(state["as_of"]),
            context=state.get("context", ""),
        )
        update: dict[str, Any] = {"verdicts": verdicts}
        if state.get("round", 0) == 0:
            update["initial_verdicts"] = verdicts
        pending = state.get("pending", ())
        if pending:
            update["rounds"] = [
                Revision(round=state["round"], edits=pending, text=state["text"], verdicts=verdicts)
            ]
            update["pending"] = ()
        return update

    def revise(state: GovernanceState) -> dict[str, Any]:
        text, verdicts = state["text"], state["verdicts"]
        if deps.mode == "regenerate":
            if deps.generator is None or deps.feedback is None:
                return {"stop_reason": "regenerate_unavailable"}
            new = deps.generator(state.get("task", {}), deps.feedback(verdicts))
            if new == text:
                return {"stop_reason": "no_change"}
            ed = _whole(text, new, "regenerate", "the generator rewrote the draft with feedback")
            return {"text": new, "pending": (ed,), "round": state.get("round", 0) + 1}
        if deps.strategy == "existence":
            edits = existence_filter(text, verdicts, strict=deps.strict)
        else:
            edits = deps.efa.propose(text, verdicts)
        new, applied = apply_edits(text, edits)
        if deps.strategy == "efa" and deps.text_reviser is not None:
            failing = [v for v in verdicts if not v.passes and not v.excluded]
            if failing:
                rewritten = deps.text_reviser(new, failing)
                if rewritten != new:
                    applied = (*applied, _whole(new, rewritten, "llm_rewrite", "LLM reviser"))
                    new = rewritten
        if not applied or new == text:
            return {"stop_reason": "no_change"}
        return {"text": new, "pending": applied, "round": state.get("round", 0) + 1}

    def finalize(state: GovernanceState) -> dict[str, Any]:
        if deps.strategy == "none":
            return {"stop_reason": "strategy_none"}
        if all(v.passes or v.excluded for v in state.get("verdicts", ())):
            return {"stop_reason": "all_pass"}
        if state.get("stop_reason"):
            return {}
        return {"stop_reason": "max_rounds"}

    return {
        "generate": generate,
        "extract": extract,
        "verify": verify,
        "revise": revise,
        "finalize": finalize,
    }


def route_after_verify(
    deps: GovernanceDeps,
) -> Callable[[GovernanceState], Literal["revise", "finalize"]]:
    """Router: revise while something fails, the strategy edits, and rounds remain."""

    def route(state: GovernanceState) -> Literal["revise", "finalize"]:
        if deps.strategy == "none":
            return "finalize"
        if all(v.passes or v.excluded for v in state.get("verdicts", ())):
            return "finalize"
        if state.get("round", 0) >= deps.max_rounds:
            return "finalize"
        return "revise"

    return route


def route_after_revise(state: GovernanceState) -> Literal["extract", "finalize"]:
    """Router: re-extract and re-verify the revised text, or stop when nothing changed."""
    return "finalize" if state.get("stop_reason") else "extract"
