"""Pipeline nodes and typed routers (layer 5). Nodes take the state and return partial updates.

Dependencies are injected through :class:`GovernanceDeps` (built by the caller, never at
import time); :func:`make_nodes` closes the node functions over them. The deps hold only what
every run shares (extractor, verifier, judges, repair thresholds): a compiled graph is reused
across runs, sequentially, in ``batch`` and concurrently. Per-run memory travels in the state
(``verdict_cache``, ``repair_memory``), per-run settings in the runtime context or
``configurable`` (:mod:`graphs.settings`), resolved once by the first node into ``settings``.

A round (SPEC §5): ``revise`` proposes edits over the text of the round, applies them (or, in
review mode, hands them to ``review``, which pauses with ``interrupt()`` until a person accepts
or rejects each), and ``extract`` → ``verify`` re-verify the new text; the verifier reuses the
verdict of every citation whose content did not change, so only what changed is re-judged. The
loop stops when every citation passes, nothing changes, or ``max_rounds`` rounds were done.
``verify`` writes one ``{"event": "verdict", ...}`` per citation to LangGraph's custom stream
(``stream_mode="custom"``).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any, Literal

from langchain_core.runnables import RunnableConfig
from langgraph.runtime import Runtime
from langgraph.types import interrupt

from governor.core.config import Strategy, Thresholds
from governor.core.errors import ConfigError, InputError
from governor.core.labels import report_score
from governor.core.models import Authority, Citation, Edit, Revision, Verdict
from governor.core.ports import Generator
from governor.revision.invariants import guilty_edits, new_violations
from governor.revision.llm import LLMRevision, diff_edits, regenerate_feedback
from governor.revision.ops import apply_edits
from governor.revision.policy import WORD_OPS, RevisionPolicy
from governor.revision.strategies import EfaReviser, existence_filter
from governor.text.dates import detect_as_of, detect_context
from governor.text.numerals import article_label
from governor.text.regexes import TITLE_FORM_RE
from graphs.settings import GovernanceContext, iso_date, resolve_settings
from graphs.state import GovernanceState
from graphs.wrap import accepts_feedback
from verifiers.suggest import best_match, bracket_title, search_query
from verifiers.verify import Verifier

Extractor = Callable[[str], Sequence[Citation]]
TextReviser = Callable[[str, Sequence[Verdict]], LLMRevision]
"""An LLM reviser: (text, failing verdicts) → :class:`LLMRevision` (edits over ``text``)."""
FeedbackWriter = Callable[[str, Sequence[Verdict]], str]
"""(text, verdicts) → feedback text for regenerate mode (default: ``regenerate_feedback``)."""
VerifierFor = Callable[[str], Verifier]
"""Judge name (``offline`` | ``llm``) → a verifier using that judge (shared, stateless use)."""
Mode = Literal["edit", "regenerate"]

_CHECKPOINTER = "__pregel_checkpointer"
"""Where LangGraph puts the run's checkpointer in ``configurable`` (``CONFIG_KEY_CHECKPOINTER``
in ``langgraph._internal._constants``; read by name so no private module is imported)."""

REMOVAL_OPS = frozenset(
    {"remove_citation", "mark_unsupported", "mark_stale", "mark_overreach", "mark_misdescribed"}
)
"""Offline edits that take evidence out or only flag it (a stale law annotated, not
replaced); an accepted LLM repair of the same sentence wins over them."""


@dataclass
class GovernanceDeps:
    """Everything the nodes need, injected; shared by every run of the compiled graph.

    The fields ``strategy``, ``max_rounds``, ``strict``, ``mode`` and ``as_of`` are the graph's
    defaults; a run overrides them through its runtime context (:mod:`graphs.settings`).

    Attributes:
        extractor: text → citations (``governor.citations.extract.extract`` bound to the store).
        verifier: E/F/A verifier with the default judge; runs use copies of it with their own
            cache (its ``cache`` and ``judged`` are never touched by a run).
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
        as_of: default as-of date (ISO) when neither the input nor the run's settings give one;
            None: the report date in the draft, else today.
        verifier_for: makes a verifier for another judge name (the ``judge`` setting);
            None: only ``verifier``'s judge is available.
        efa: the ``efa`` repair policy with an empty memory (each run copies it with its own).
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
    as_of: str | None = None
    verifier_for: VerifierFor | None = None
    policy: RevisionPolicy = field(default_factory=RevisionPolicy)
    efa: EfaReviser = field(init=False)

    def __post_init__(self) -> None:
        self.efa = EfaReviser(self.thresholds, policy=self.policy)

    def defaults(self) -> dict[str, Any]:
        """The graph's default settings (keys of :class:`GovernanceContext`)."""
        return {
            "strategy": self.strategy,
            "max_rounds": self.max_rounds,
            "as_of": self.as_of,
            "judge": None,  # the verifier's own judge
            "strict": self.strict,
            "mode": self.mode,
            "review": False,
            "edit_policy": self.policy.name,
        }

    def verifier_named(self, judge: str | None) -> Verifier:
        """The shared verifier for judge backend ``judge`` (None: ``verifier``).

        Raises:
            ConfigError: another judge is asked for and ``verifier_for`` is not set.
        """
        if judge is None:
            return self.verifier
        if self.verifier_for is None:
            raise ConfigError(
                f"this graph has no {judge!r} judge; build it with Governor(...).graph() or "
                "pass GovernanceDeps(verifier_for=...)"
            )
        return self.verifier_for(judge)


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


def _run_reviser(template: EfaReviser, memory: Mapping[str, Any] | None) -> EfaReviser:
    """A copy of the ``efa`` policy carrying this run's memory (state ``repair_memory``)."""
    m = memory or {}
    return replace(
        template,
        attempted={(str(a), str(b)) for a, b in m.get("attempted", ())},
        produced=dict(m.get("produced", {})),
        replaced=dict(m.get("replaced", {})),
    )


def _memory_of(reviser: EfaReviser) -> dict[str, Any]:
    """The run memory of ``reviser`` as checkpoint-friendly data (sorted pairs, dicts)."""
    return {
        "attempted": sorted(reviser.attempted),
        "produced": dict(reviser.produced),
        "replaced": dict(reviser.replaced),
    }


def verdict_event(v: Verdict, rnd: int) -> dict[str, Any]:
    """The custom-stream event for one verdict (JSON-ready)."""
    c = v.citation
    return {
        "event": "verdict",
        "round": rnd,
        "citation": c.raw,
        "span": [c.span.start, c.span.end],
        "existence": v.existence.label,
        "fidelity": v.fidelity.label,
        "applicability": v.applicability.label,
        "item_trust": v.item_trust,
        "excluded": v.excluded,
        "taxonomy": list(v.taxonomy),
    }


REVIEW_CONTEXT_CHARS = 30
"""Characters of surrounding text shown on each side of a proposed edit."""


def review_payload(rnd: int, edits: Sequence[Edit], text: str) -> dict[str, Any]:
    """What ``review`` pauses with (JSON-ready): the round and each proposed edit — its
    ``index``, every field of :class:`Edit` (op, span, before, after, reason, labels...) and
    ``context_before``/``context_after``, up to :data:`REVIEW_CONTEXT_CHARS` characters of the
    text around its span."""
    out = []
    for i, e in enumerate(edits):
        a, b = e.span.start, e.span.end
        out.append(
            {
                "index": i,
                **e.model_dump(mode="json"),
                "context_before": text[max(0, a - REVIEW_CONTEXT_CHARS) : a],
                "context_after": text[b : b + REVIEW_CONTEXT_CHARS],
            }
        )
    return {"round": rnd, "edits": out}


def review_key(edit: Edit) -> str:
    """What identifies a proposed edit across rounds (its span moves when earlier edits are
    applied): op, the words it replaces and the words it writes. A JSON-safe string, so the
    rejected edits of a run ride in the checkpointed state as plain strings."""
    return "\x1f".join((edit.op, edit.before, edit.after))


def parse_review(decision: Any, n: int) -> tuple[bool, ...]:
    """Which of ``n`` proposed edits a reviewer accepted.

    Args:
        decision: the ``Command(resume=...)`` value: ``True``/``"accept"``/``"all"`` (all),
            ``False``/``"reject"``/``"none"`` (none), a sequence of ``n`` booleans, or a mapping
            ``{"accept": [indices]}``, ``{"reject": [indices]}`` or ``{index: bool}``
            (unlisted indices rejected).
        n: number of proposed edits.

    Returns:
        One flag per edit, in order.

    Raises:
        InputError: a decision of another shape, a wrong length or an index out of range.
    """
    if isinstance(decision, bool):
        return (decision,) * n
    if isinstance(decision, str):
        word = decision.strip().lower()
        if word in ("accept", "all", "yes", "y"):
            return (True,) * n
        if word in ("reject", "none", "no", "n"):
            return (False,) * n
    elif isinstance(decision, Mapping):
        if set(decision) <= {"accept", "reject"} and decision:
            accept = {_index(i, n) for i in decision.get("accept", ())}
            reject = {_index(i, n) for i in decision.get("reject", ())}
            if "accept" in decision:
                return tuple(i in accept and i not in reject for i in range(n))
            return tuple(i not in reject for i in range(n))
        chosen = {_index(k, n): bool(v) for k, v in decision.items()}
        return tuple(chosen.get(i, False) for i in range(n))
    elif isinstance(decision, Sequence) and all(isinstance(x, bool) for x in decision):
        if len(decision) != n:
            raise InputError(
                f"review decision has {len(decision)} flags for {n} proposed edit(s); give one "
                "true/false per edit"
            )
        return tuple(decision)
    raise InputError(
        f"cannot read review decision {decision!r}; resume with True/False, 'accept'/'reject', "
        "a list of one bool per edit, {'accept': [indices]} or {index: bool}"
    )


def _index(value: Any, n: int) -> int:
    try:
        i = int(value)
    except (TypeError, ValueError):
        raise InputError(f"review decision index {value!r} is not an integer") from None
    if not 0 <= i < n:
        raise InputError(f"review decision index {i} out of range (0..{n - 1})")
    return i


def _start_update(
    state: GovernanceState, deps: GovernanceDeps, context: Any, config: RunnableConfig | None
) -> dict[str, Any]:
    """Settings, as-of date and question of a new run, and its per-run memory reset."""
    settings = resolve_settings(deps.defaults(), context, (config or {}).get("configurable") or {})
    update: dict[str, Any] = {
        "settings": settings,
        "round": 0,
        "stop_reason": None,
        "pending": (),
        "proposed": (),
        "verdict_cache": {},
        "repair_memory": {},
    }
    return update


def _as_of(state: GovernanceState, settings: Mapping[str, Any], draft: str) -> str:
    """The run's as-of date: the input's, else the setting, else the report date in the
    draft (``governor.text.dates.detect_as_of``), else today."""
    given = state.get("as_of")
    if given:
        return iso_date(given, "input as_of")
    if settings.get("as_of"):
        return str(settings["as_of"])
    return detect_as_of(draft).isoformat()


def make_nodes(deps: GovernanceDeps) -> dict[str, Callable[..., dict[str, Any]]]:
    """Node functions keyed by node name, closed over ``deps``.

    Nodes: ``generate`` (resolve the settings; use the given draft or call the generator),
    ``extract``, ``verify`` (records the previous round's edits with the new verdicts),
    ``revise`` (one round of edits, or a regeneration), ``review`` (human approval of the
    proposed edits, review mode only) and ``finalize`` (stop reason, all edits, scores).
    """

    def generate(
        state: GovernanceState,
        runtime: Runtime[GovernanceContext],
        config: RunnableConfig,
    ) -> dict[str, Any]:
        update = _start_update(state, deps, runtime.context, config)
        settings = update["settings"]
        if settings["review"] and not (config.get("configurable") or {}).get(_CHECKPOINTER):
            raise ConfigError(
                "review mode pauses the run until a person decides, which needs a checkpointer: "
                "compile with checkpointer=graphs.durable.sqlite_checkpointer(...) (e.g. "
                "Governor.runnable(checkpointer=...)) or use Governor.govern(review=callback)"
            )
        if settings["mode"] == "regenerate" and (
            deps.generator is None or not accepts_feedback(deps.generator)
        ):
            raise ConfigError(
                "mode='regenerate' needs a generator that accepts feedback, e.g. a callable "
                "(task, feedback) -> str; use mode='edit' for this generator"
            )
        draft = state.get("draft")
        if draft is None:
            if deps.generator is None:
                raise ConfigError(
                    "no draft given and no generator configured; pass {'draft': text} or build "
                    "the graph with a generator"
                )
            draft = deps.generator(state.get("task", {}))
            update["draft"] = draft
        elif not isinstance(draft, str):
            raise InputError(f"draft must be text, got {type(draft).__name__}")
        update["text"] = draft
        update["as_of"] = _as_of(state, settings, draft)
        update["context"] = (
            state.get("context") or str(state.get("task", {}).get("query", ""))
            or detect_context(draft)
        )  # fmt: skip
        return update

    def extract(state: GovernanceState) -> dict[str, Any]:
        return {"citations": tuple(deps.extractor(state["text"]))}

    def _reviser_for(state: GovernanceState) -> EfaReviser:
        """This run's ``efa`` reviser: the graph's template with the run's repair memory, edit
        policy, and the store's ranking bound to the run's as-of date and judge."""
        settings = state["settings"]
        verifier = deps.verifier_named(settings.get("judge"))
        return replace(
            _run_reviser(deps.efa, state.get("repair_memory")),
            policy=RevisionPolicy(
                settings["edit_policy"],
                weigh=_weigher(verifier, date.fromisoformat(state["as_of"])),
                rivals=_rivals(verifier, date.fromisoformat(state["as_of"])),
                calibrate=_calibrated(deps.efa.thresholds),
                name_probability=deps.efa.thresholds.candidate_name_probability,
                close_title=_close_title(verifier),
            ),
            locate=_locator(verifier, date.fromisoformat(state["as_of"])),
            article_text=_article_text(verifier),
            charge_article=_charge_article(verifier, date.fromisoformat(state["as_of"])),
            successor_of=_cited_successor(verifier),
        )

    def verify(state: GovernanceState, runtime: Runtime[GovernanceContext]) -> dict[str, Any]:
        settings = state["settings"]
        run = replace(
            deps.verifier_named(settings.get("judge")),
            strict=bool(settings.get("strict")),
            cache=dict(state.get("verdict_cache") or {}),
            judged=0,
        )
        verdicts = run.verify(
            state["citations"],
            as_of=date.fromisoformat(state["as_of"]),
            context=state.get("context", ""),
            text=state["text"],
        )
        for v in verdicts:
            runtime.stream_writer(verdict_event(v, state.get("round", 0)))
        update: dict[str, Any] = {
            "verdicts": verdicts,
            "judged": run.judged,
            "verdict_cache": run.cache,
        }
        if state.get("round", 0) == 0:
            update["initial_verdicts"] = verdicts
        if settings["strategy"] == "efa":
            update["unquote_due"] = _reviser_for(state).needs_unquote(state["text"], verdicts)
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
        settings = state["settings"]
        rnd = state.get("round", 0) + 1
        if settings["mode"] == "regenerate":
            return regenerate(state, rnd)
        notes: list[str] = []
        update: dict[str, Any] = {}
        reviser = _reviser_for(state)
        policy = reviser.policy
        if settings["strategy"] == "existence":
            edits: tuple[Edit, ...] = existence_filter(
                text, verdicts, strict=settings["strict"], policy=policy
            )
        else:
            edits = reviser.propose(text, verdicts)
            update["repair_memory"] = _memory_of(reviser)
            if deps.text_reviser is not None and policy.name != "annotate":
                # ``annotate`` changes no word, the LLM's included; under ``proven`` the LLM's
                # edits are re-verified like any draft but carry no proof of their own
                edits, notes = _with_llm(deps.text_reviser, text, verdicts, edits, rnd)
        if settings.get("review") and edits:
            # an edit the reviewer rejected is not proposed again in a later round (issue 23)
            seen = set(state.get("rejected") or ())
            fresh = tuple(e for e in edits if review_key(e) not in seen)
            if len(fresh) < len(edits):
                notes = [*notes, f"round {rnd}: {len(edits) - len(fresh)} edit(s) the reviewer "
                                 "rejected earlier not proposed again"]  # fmt: skip
            if not fresh:
                return {**update, "notes": notes, "stop_reason": "rejected"}
            return {**update, **({"notes": notes} if notes else {}), "proposed": fresh}
        if notes:
            update["notes"] = notes
        new, applied = apply_edits(text, edits)
        if policy.gates and applied:
            new, applied, reverted = _keep_invariants(reviser, text, verdicts, applied)
            if reverted:
                update["notes"] = [
                    *update.get("notes", []),
                    f"round {rnd}: {reverted} edit(s) broke a reading invariant; annotated",
                ]
        if not applied or new == text:
            return {**update, "stop_reason": "no_change"}
        return {**update, "text": new, "pending": applied, "round": rnd}

    def review(state: GovernanceState) -> dict[str, Any]:
        text, proposed = state["text"], tuple(state.get("proposed", ()))
        rnd = state.get("round", 0) + 1
        flags = parse_review(interrupt(review_payload(rnd, proposed, text)), len(proposed))
        accepted = [e for e, ok in zip(proposed, flags, strict=True) if ok]
        rejected = len(proposed) - len(accepted)
        update: dict[str, Any] = {"proposed": ()}
        if rejected:
            update["rejected"] = [
                review_key(e) for e, ok in zip(proposed, flags, strict=True) if not ok
            ]
            update["notes"] = [f"round {rnd}: the reviewer rejected {rejected} of "
                               f"{len(proposed)} proposed edit(s)"]  # fmt: skip
        new, applied = apply_edits(text, accepted)
        if not applied or new == text:
            return {**update, "stop_reason": "rejected" if not accepted else "no_change"}
        return {**update, "text": new, "pending": applied, "round": rnd}

    def finalize(state: GovernanceState) -> dict[str, Any]:
        verdicts = tuple(state.get("verdicts", ()))
        out: dict[str, Any] = {
            "edits": tuple(e for r in state.get("rounds", []) for e in r.edits),
            "scores": report_score(verdicts),
        }
        if state["settings"]["strategy"] == "none":
            return {**out, "stop_reason": "strategy_none"}
        if all(v.passes or v.excluded for v in verdicts):
            # nothing left to fix; all-pass only when every citation was verified (issue 23)
            if out["scores"].all_pass:
                return {**out, "stop_reason": "all_pass"}
            own = [v for v in verdicts if not v.citation.in_question]
            return {**out, "stop_reason": "unchecked_left" if own else "no_citations"}
        if state.get("stop_reason"):
            return out
        return {**out, "stop_reason": "max_rounds"}

    return {
        "generate": generate,
        "extract": extract,
        "verify": verify,
        "revise": revise,
        "review": review,
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


def _weigher(verifier: Verifier, as_of: date) -> Callable[[str, str | None], Any]:
    """How distinctive each word of a text is in an instrument
    (``AuthorityStore.word_weights``), bound to ``as_of``."""

    def weigh(words: str, instrument: str | None) -> Any:
        try:
            return verifier.store.word_weights(words, instrument, as_of=as_of)
        except Exception:
            return {}

    return weigh


def _rivals(verifier: Verifier, as_of: date) -> Callable[[str, str | None], Any]:
    """(article, text) of the store's top BM25 hits for words in an instrument on ``as_of``."""

    def rivals(words: str, instrument: str | None) -> Any:
        if not instrument:
            return ()
        try:
            hits = verifier.store.search(search_query(words), instrument=instrument, as_of=as_of)
        except Exception:
            return ()
        return tuple((rec.article, rec.text) for rec, _ in hits)

    return rivals


def _calibrated(thresholds: Thresholds) -> Callable[[float], float | None]:
    """Raw suggestion confidence → the configured calibrated probability (None: no map)."""

    def calibrate(raw: float) -> float | None:
        return thresholds.probability("suggestion", raw)

    return calibrate


def _charge_article(
    verifier: Verifier, as_of: date
) -> Callable[[str, Authority], Authority | None]:
    """The 刑法 article whose charge the words name, when the cited 刑法 article is not it
    (``EfaReviser.charge_article``): a charge of the 罪名 table (its name, or its conduct stem
    — 「诈骗」 of 诈骗罪) written in the words, not one the cited article defines, whose stem the
    cited text lacks and the defining article's text (in force on ``as_of``) holds. None when
    the words name the cited article's own charge too, or no such article is found."""
    from governor.authorities.charges import CRIMINAL_LAW, charge_table

    def charge_article(words: str, auth: Authority) -> Authority | None:
        if auth.instrument != CRIMINAL_LAW or not auth.article or not words:
            return None
        store = verifier.store
        table = charge_table(store)
        named = table.find(words, conduct=True)
        own = set(table.charges_of(auth.article))
        if not named or own & set(named):
            return None
        cited = auth.text
        recs = {r.article: r for r in store.articles(CRIMINAL_LAW, as_of=as_of)}
        for name in named:
            stem = name[:-1]
            if stem in cited:
                continue
            for ca in table.articles_of(name):
                rec = recs.get(ca.article)
                if rec is None or ca.article == auth.article or stem not in rec.text:
                    continue
                found = store.authority(rec, ca.paragraph)
                if found is not None:
                    return found
        return None

    return charge_article


def _article_text(verifier: Verifier) -> Callable[[Authority], str]:
    """The full text of an authority's article (its id is ``<record key>[/款[/项]]``)."""

    def article_text(auth: Authority) -> str:
        rec = verifier.store.get(auth.id.split("/")[0])
        return rec.text if rec is not None else ""

    return article_text


CLOSE_TITLE_MIN = 0.6
"""``difflib`` similarity ratio from which a title the store does not hold is read as a stored
instrument under a wrong name, when one title is the other with words added or dropped (a
subsequence): 残疾人权利保障法 ~ 残疾人保障法 0.86; 地方各级人民代表大会组织法 ~ 地方各级人民代表
大会和地方各级人民政府组织法 0.74 (全国人民代表大会组织法 scores 0.83 but is not one with words
dropped); 刑法执行法 ~ 刑法 0.57 is not."""


def _subsequence(short: str, long: str) -> bool:
    it = iter(long)
    return all(ch in it for ch in short)


_CLOSE_TITLES: weakref.WeakKeyDictionary[object, dict[str, str | None]] = (
    weakref.WeakKeyDictionary()
)
""":func:`_close_title`'s answers per store (its titles never change once loaded): every round
of every run asks again about the same few titles the store does not hold, each a
:mod:`difflib` pass over every stored title (≈ 0.015 s; ≈ 0.05 s of a warm ``efa`` round)."""


CLOSE_TITLE_HITS = 10
"""How many store-wide BM25 hits for a written title's subject :func:`_holds_subject` counts:
the ten best articles, the size of a note's candidate list."""


def _holds_subject(verifier: Verifier, want: str, found: str) -> bool:
    """Whether the stored instrument ``found`` is one the store finds on the subject of the
    written title ``want`` (its words without the form word 法/条例/…): ``found`` holds one of
    the :data:`CLOSE_TITLE_HITS` best store-wide BM25 hits for that subject. A title with words
    dropped or added can land on a law that is not the one meant: 《医疗保险法》 and
    《养老保险法》 are not 《保险法》 (commercial insurance; the subject is 社会保险法's and
    医疗保障法's), 《劳动监察法》 is not 《监察法》, 《船舶法》 is not 《船舶吨税法》 (held-out
    review rev42, a harmful 「名称相近」 note; dev 3-2/3-8 not-found titles: 18 such names
    withheld, 《公益信托法》 → 《信托法》, 《药品监督管理法》 → 《药品管理法》 and 18 others kept)."""
    subject = TITLE_FORM_RE.sub("", want)
    if not subject:
        return True
    hits = verifier.store.search(subject, k=CLOSE_TITLE_HITS)
    return any(rec.instrument == found for rec, _ in hits)


def _close_title(verifier: Verifier) -> Callable[[str], str | None]:
    """The stored instrument title closest to ``title`` (both without 「中华人民共和国」) among
    those that are ``title`` with words added or dropped, at :data:`CLOSE_TITLE_MIN` or more
    (:class:`difflib.SequenceMatcher` ratio), or None (kept per store: :data:`_CLOSE_TITLES`)."""
    import difflib

    short: dict[str, str] = {}
    memo = _CLOSE_TITLES.setdefault(verifier.store, {})

    def close_title(title: str) -> str | None:
        if title in memo:
            return memo[title]
        if not short:
            for t in verifier.store.titles():
                short.setdefault(t.removeprefix("中华人民共和国"), t)
        want = title.removeprefix("中华人民共和国")
        best: tuple[float, str] | None = None
        for cand in difflib.get_close_matches(want, list(short), n=10, cutoff=CLOSE_TITLE_MIN):
            if not (_subsequence(want, cand) or _subsequence(cand, want)):
                continue
            ratio = difflib.SequenceMatcher(None, want, cand).ratio()
            if best is None or ratio > best[0]:
                best = (ratio, cand)
        found = short[best[1]] if best else None
        if (
            found is not None
            and best is not None
            and best[1] != want
            and not _holds_subject(verifier, want, found)
        ):
            found = None
        memo[title] = found
        return found

    return close_title


def _cited_successor(
    verifier: Verifier,
) -> Callable[[Authority], tuple[str, float, str] | None]:
    """The successor of a repealed article's own text, from the store's build-time links:
    ``(「《民法典》第五百七十六条」, confidence, its text)`` or None (no link, or not a stored
    article)."""

    def cited_successor(auth: Authority) -> tuple[str, float, str] | None:
        if not auth.article:
            return None
        link = verifier.store.successor_of(auth.instrument, auth.article)
        if link is None:
            return None
        succ = link.successor
        title = bracket_title(succ.instrument)
        return f"{title}{article_label(succ.article)}", link.confidence, succ.text

    return cited_successor


def _keep_invariants(
    reviser: EfaReviser, text: str, verdicts: Sequence[Verdict], applied: Sequence[Edit]
) -> tuple[str, tuple[Edit, ...], int]:
    """Re-apply ``applied`` without the edits that break a reading invariant
    (``governor.revision.invariants``), each replaced by its annotation; returns the new
    text, the edits applied and how many were reverted."""
    found = guilty_edits(text, applied)  # once: each call re-reads the whole text per edit
    guilty = [e for e in applied if e in found]
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
            note = reviser.policy.annotation(text, v, e.op, why, locate=reviser.locate)
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


def route_after_verify(state: GovernanceState) -> Literal["revise", "finalize"]:
    """Router: revise while something fails, the strategy edits, and rounds remain."""
    settings = state["settings"]
    if settings["strategy"] == "none":
        return "finalize"
    if all(v.passes or v.excluded for v in state.get("verdicts", ())) and not (
        settings["strategy"] == "efa"
        and state.get("round", 0) < settings["max_rounds"]
        and state.get("unquote_due", False)
    ):
        return "finalize"
    if state.get("round", 0) >= settings["max_rounds"]:
        return "finalize"
    return "revise"


def route_after_revise(state: GovernanceState) -> Literal["review", "extract", "finalize"]:
    """Router: re-extract and re-verify the revised text, stop when nothing changed, or hand
    the proposed edits to ``review`` (review mode)."""
    if state.get("stop_reason"):
        return "finalize"
    return "review" if state.get("proposed") else "extract"


def route_after_review(state: GovernanceState) -> Literal["extract", "finalize"]:
    """Router: re-verify what the reviewer accepted, or stop when nothing was applied."""
    return "finalize" if state.get("stop_reason") else "extract"
