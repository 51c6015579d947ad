"""Pipeline nodes and typed routers (layer 5). Nodes take the state and return partial updates.

Dependencies are injected through :class:`GovernanceDeps` (built by the caller, never at
import time); :func:`make_nodes` closes the node functions over them. One ``GovernanceDeps``
serves one run: the verifier's verdict cache and the repair policy's memory of attempted
repairs are per run (a batch builds fresh deps per draft).

A round (SPEC §5): ``revise`` proposes edits over the text of the round, applies them, and
``extract`` → ``verify`` re-verify the new text; the verifier reuses the verdict of every
citation whose content did not change, so only what changed is re-judged. The loop stops when
every citation passes, nothing changes, or ``max_rounds`` rounds were done.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Literal

from governor.core.config import Strategy, Thresholds
from governor.core.models import Authority, Citation, Edit, Revision, Verdict
from governor.core.ports import Generator
from governor.revision.invariants import guilty_edits, new_violations
from governor.revision.llm import LLMRevision, diff_edits, regenerate_feedback
from governor.revision.ops import apply_edits
from governor.revision.policy import WORD_OPS, RevisionPolicy
from governor.revision.strategies import EfaReviser, existence_filter
from graphs.state import GovernanceState
from graphs.wrap import accepts_feedback
from verifiers.suggest import best_match
from verifiers.verify import Verifier

Extractor = Callable[[str], Sequence[Citation]]
TextReviser = Callable[[str, Sequence[Verdict]], LLMRevision]
"""An LLM reviser: (text, failing verdicts) → :class:`LLMRevision` (edits over ``text``)."""
FeedbackWriter = Callable[[str, Sequence[Verdict]], str]
"""(text, verdicts) → feedback text for regenerate mode (default: ``regenerate_feedback``)."""
Mode = Literal["edit", "regenerate"]

REMOVAL_OPS = frozenset(
    {"remove_citation", "mark_unsupported", "mark_stale", "mark_overreach", "mark_misdescribed"}
)
"""Offline edits that take evidence out or only flag it (a stale law annotated, not
replaced); an accepted LLM repair of the same sentence wins over them."""


@dataclass
class GovernanceDeps:
    """Everything the nodes need, injected.

    Attributes:
        extractor: text → citations (``governor.citations.extract.extract`` bound to the store).
        verifier: E/F/A verifier (offline or LLM judge inside); its cache lives for one run.
        strategy: ``none`` | ``existence`` | ``efa``.
        max_rounds: revision rounds at most (SPEC §5 default 2).
        strict: unverifiable citations removed by ``existence`` and scored 0.5.
        thresholds: offline repair thresholds.
        generator: writes the draft when none is given (and rewrites it in regenerate mode).
        mode: ``edit`` (citegov edits the text) or ``regenerate`` (the generator rewrites it
            with the verdict feedback; needs a generator that accepts feedback).
        text_reviser: optional LLM reviser used by ``efa`` for failing citations the offline
            repairs did not fix (``governor.revision.llm.LLMReviser``).
        feedback: renders (text, verdicts) as feedback for regenerate mode.
        policy: the revision policy (``governor.revision.policy``): what may change words.
    """

    extractor: Extractor
    verifier: Verifier
    strategy: Strategy = "efa"
    max_rounds: int = 2
    strict: bool = False
    thresholds: Thresholds = field(default_factory=Thresholds)
    generator: Generator | None = None
    mode: Mode = "edit"
    text_reviser: TextReviser | None = None
    feedback: FeedbackWriter = regenerate_feedback
    policy: RevisionPolicy = field(default_factory=RevisionPolicy)
    efa: EfaReviser = field(init=False)

    def __post_init__(self) -> None:
        self.efa = EfaReviser(self.thresholds, policy=self.policy)


def _failing(verdicts: Sequence[Verdict]) -> list[Verdict]:
    return [v for v in verdicts if not v.passes and not v.excluded]


def _touches(a: Edit, b: Edit) -> bool:
    """Edits that overlap, or an insertion at or inside another edit: not both applicable."""
    if a.span.overlaps(b.span):
        return True
    if len(a.span) == 0:
        return b.span.start <= a.span.start <= b.span.end
    if len(b.span) == 0:
        return a.span.start <= b.span.start <= a.span.end
    return False


def make_nodes(deps: GovernanceDeps) -> dict[str, Callable[[GovernanceState], dict[str, Any]]]:
    """Node functions keyed by node name, closed over ``deps``.

    Nodes: ``generate`` (use the given draft or call the generator), ``extract``, ``verify``
    (records the previous round's edits with the new verdicts), ``revise`` (one round of
    edits, or a regeneration) and ``finalize`` (sets the stop reason).
    """

    def generate(state: GovernanceState) -> dict[str, Any]:
        if state.get("draft") is not None:
            return {"text": state["draft"], "round": 0}
        if deps.generator is None:
            raise ValueError("no draft given and no generator configured")
        draft = deps.generator(state.get("task", {}))
        return {"draft": draft, "text": draft, "round": 0}

    def extract(state: GovernanceState) -> dict[str, Any]:
        return {"citations": tuple(deps.extractor(state["text"]))}

    def verify(state: GovernanceState) -> dict[str, Any]:
        before = deps.verifier.judged
        verdicts = deps.verifier.verify(
            state["citations"],
            as_of=date.fromisoformat(state["as_of"]),
            context=state.get("context", ""),
            text=state["text"],
        )
        update: dict[str, Any] = {"verdicts": verdicts, "judged": deps.verifier.judged - before}
        if state.get("round", 0) == 0:
            update["initial_verdicts"] = verdicts
        pending = state.get("pending", ())
        if pending:
            update["rounds"] = [
                Revision(
                    round=state["round"],
                    edits=tuple(pending),
                    text=state["text"],
                    verdicts=verdicts,
                )
            ]
            update["pending"] = ()
        return update

    def regenerate(state: GovernanceState, rnd: int) -> dict[str, Any]:
        text, verdicts = state["text"], state["verdicts"]
        if deps.generator is None or not accepts_feedback(deps.generator):
            return {
                "stop_reason": "regenerate_unavailable",
                "notes": [f"round {rnd}: regenerate mode needs a generator that takes feedback"],
            }
        new = deps.generator(state.get("task", {}), deps.feedback(text, verdicts))
        if not new.strip():
            return {
                "stop_reason": "no_change",
                "notes": [f"round {rnd}: the generator returned an empty rewrite; kept the draft"],
            }
        edits = diff_edits(
            text, new, op="regenerate", reason="the generator rewrote with feedback",
            verdicts=verdicts,
        )  # fmt: skip
        if not edits:
            return {"stop_reason": "no_change"}
        return {"text": new, "pending": edits, "round": rnd}

    def revise(state: GovernanceState) -> dict[str, Any]:
        text, verdicts = state["text"], state["verdicts"]
        rnd = state.get("round", 0) + 1
        if deps.mode == "regenerate":
            return regenerate(state, rnd)
        notes: list[str] = []
        deps.efa.locate = _locator(deps.verifier, date.fromisoformat(state["as_of"]))
        deps.efa.article_text = _article_text(deps.verifier)
        if deps.strategy == "existence":
            edits: tuple[Edit, ...] = existence_filter(
                text, verdicts, strict=deps.strict, policy=deps.policy
            )
        else:
            edits = deps.efa.propose(text, verdicts)
            if deps.text_reviser is not None and deps.policy.name != "annotate":
                # ``annotate`` changes no word, the LLM's included; under ``proven`` the LLM's
                # edits are re-verified like any draft but carry no proof of their own
                edits, notes = _with_llm(deps.text_reviser, text, verdicts, edits, rnd)
        new, applied = apply_edits(text, edits)
        if deps.policy.gates and applied:
            new, applied, reverted = _keep_invariants(deps, text, verdicts, applied)
            if reverted:
                notes.append(
                    f"round {rnd}: {reverted} edit(s) broke a reading invariant; annotated"
                )
        update: dict[str, Any] = {"notes": notes} if notes else {}
        if not applied or new == text:
            return {**update, "stop_reason": "no_change"}
        return {**update, "text": new, "pending": applied, "round": rnd}

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


def _locator(verifier: Verifier, as_of: date) -> Callable[[str, str | None], Any]:
    """The store's ranking for words in an instrument (``best_match``), bound to ``as_of``."""

    def locate(words: str, instrument: str | None) -> Any:
        try:
            return best_match(words, instrument, verifier.store, verifier.retriever, as_of=as_of)
        except Exception:
            return None

    return locate


def _article_text(verifier: Verifier) -> Callable[[Authority], str]:
    """The full text of an authority's article (its id is ``<record key>[/款[/项]]``)."""

    def article_text(auth: Authority) -> str:
        rec = verifier.store.get(auth.id.split("/")[0])
        return rec.text if rec is not None else ""

    return article_text


def _keep_invariants(
    deps: GovernanceDeps, text: str, verdicts: Sequence[Verdict], applied: Sequence[Edit]
) -> tuple[str, tuple[Edit, ...], int]:
    """Re-apply ``applied`` without the edits that break a reading invariant
    (``governor.revision.invariants``), each replaced by its annotation; returns the new
    text, the edits applied and how many were reverted."""
    guilty = [e for e in applied if e in guilty_edits(text, applied)]
    kept = [e for e in applied if e not in guilty]
    # edits harmless alone can break an invariant together (two removals emptying one
    # 法律依据 list): turn word changes back, one at a time, while that lowers the count
    new, _ = apply_edits(text, kept)
    while (extra := new_violations(text, new)) and kept:
        best: tuple[int, Edit] | None = None
        for e in kept:
            if e.op not in WORD_OPS:
                continue
            left = sum(
                new_violations(text, apply_edits(text, [k for k in kept if k is not e])[0]).values()
            )
            if left < sum(extra.values()) and (best is None or left < best[0]):
                best = (left, e)
        if best is None:
            break
        guilty.append(best[1])
        kept.remove(best[1])
        new, _ = apply_edits(text, kept)
    if not guilty:
        return new, tuple(applied), 0
    by_id = {v.citation.id: v for v in verdicts}
    for e in guilty:
        v = by_id.get(e.citation_id or "")
        if v is not None and e.op != "annotate":
            why = f"{e.op} broke a reading invariant"
            note = deps.policy.annotation(text, v, e.op, why, locate=deps.efa.locate)
            if note is not None and not new_violations(text, apply_edits(text, [*kept, note])[0]):
                kept.append(note)
    new, done = apply_edits(text, kept)
    return new, done, len(guilty)


def _with_llm(
    reviser: TextReviser,
    text: str,
    verdicts: Sequence[Verdict],
    offline: Sequence[Edit],
    rnd: int,
) -> tuple[tuple[Edit, ...], list[str]]:
    """Combine offline repairs with the LLM reviser's edits for one round.

    Offline repairs (renumber, fix numbers, 但书...) go first. The LLM gets every failing
    citation the offline policy did not repair (including those it would remove); its edits
    that collide with an offline repair are dropped, and an offline removal whose sentence
    the LLM repaired is withdrawn (repair rather than remove, SPEC §4 note).
    """
    repairs = [e for e in offline if e.op not in REMOVAL_OPS]
    removals = [e for e in offline if e.op in REMOVAL_OPS]
    repaired = {e.citation_id for e in repairs}
    ask = [v for v in _failing(verdicts) if v.citation.id not in repaired]
    if not ask:
        return tuple(offline), []
    rev = reviser(text, ask)
    notes = []
    if rev.rejected:
        notes.append(f"round {rnd}: LLM reviser reply rejected: {rev.rejected}")
    if rev.out_of_scope:
        notes.append(
            f"round {rnd}: dropped {len(rev.out_of_scope)} LLM edit(s) outside the failing "
            "citations' sentences"
        )
    llm = [h for h in rev.edits if not any(_touches(h, e) for e in repairs)]
    if len(llm) < len(rev.edits):
        notes.append(
            f"round {rnd}: dropped {len(rev.edits) - len(llm)} LLM edit(s) that overlap "
            "offline repairs"
        )
    fixed = {h.citation_id for h in llm if h.citation_id}
    kept = [e for e in removals if e.citation_id not in fixed]
    return (*repairs, *llm, *kept), notes


def route_after_verify(
    deps: GovernanceDeps,
) -> Callable[[GovernanceState], Literal["revise", "finalize"]]:
    """Router: revise while something fails, the strategy edits, and rounds remain."""

    def route(state: GovernanceState) -> Literal["revise", "finalize"]:
        if deps.strategy == "none":
            return "finalize"
        verdicts = state.get("verdicts", ())
        if all(v.passes or v.excluded for v in verdicts) and not (
            deps.strategy == "efa"
            and state.get("round", 0) < deps.max_rounds
            and deps.efa.needs_unquote(state.get("text", ""), verdicts)
        ):
            return "finalize"
        if state.get("round", 0) >= deps.max_rounds:
            return "finalize"
        return "revise"

    return route


def route_after_revise(state: GovernanceState) -> Literal["extract", "finalize"]:
    """Router: re-extract and re-verify the revised text, or stop when nothing changed."""
    return "finalize" if state.get("stop_reason") else "extract"
