"""The library facade: ``from governor import Governor``.

Layer 7 (a composition root for library users, like the CLI is for the shell). It wires the
bundled store, a retriever, a judge and the LangGraph pipeline from a :class:`Config`, and
turns runs into :class:`~governor.core.report.VerdictReport` s.

Example:
    >>> from governor import Governor
    >>> gov = Governor()
    >>> result = gov.govern("根据《民法典》第九千条规定，合同无效。", strategy="efa")
    >>> result.text  # doctest: +SKIP
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable, Sequence
from datetime import date
from functools import cached_property
from typing import TYPE_CHECKING, Any

from governor.authorities import AuthorityStore, load_default_store
from governor.citations.extract import extract
from governor.core.config import STRATEGIES, Config, load_config
from governor.core.errors import ConfigError, StrategyError
from governor.core.models import Citation, Verdict
from governor.core.ports import CaseLookup, Generator, Retriever
from governor.revision.policy import RevisionPolicy
from governor.text.dates import detect_as_of, detect_context, parse_as_of
from verifiers.judge import Judge
from verifiers.offline import OfflineJudge
from verifiers.verify import Verifier, VerifyRequest

WARM_UP_DRAFT = (
    "根据《中华人民共和国民法典》第五百七十七条，当事人一方不履行合同义务的，应当承担违约责任；"
    "约定的违约金过分高于造成的损失的，人民法院可以根据当事人的请求予以适当减少"
    "（《民法典》第五百八十五条第二款）。"
)
"""What :meth:`Governor.warm_up` verifies: one full-title and one short-title citation, one
with a 款 pin, so every stage a draft passes through is loaded."""

if TYPE_CHECKING:  # the graph layer (LangGraph, LangChain, revision) loads only when used
    from graphs.nodes import GovernanceDeps, TextReviser
    from graphs.runnable import GovernedWriter
    from graphs.state import GovernanceResult


class Governor:
    """Citation governance for legal research reports.

    Args:
        config: run configuration (defaults < file < env < overrides); ``None`` loads it.
        store: authority store; default: the bundled build (or ``config.store_path``).
        judge: fidelity/applicability judge; default: offline (or the LLM judge when
            ``config.judge == "llm"``).
        retriever: provision retrieval; default: the store's BM25 (hybrid when configured
            and an index exists).
        generator: report writer wrapped by :meth:`write`: a callable ``(task[, feedback])``,
            a LangChain Runnable, a ChatModel or a folder of drafts (``graphs.wrap``).
        reviser: LLM reviser for ``efa`` (default: an ``LLMReviser`` over the configured
            endpoint when ``config.judge == "llm"``, else none).

    Raises:
        ConfigError: an unknown judge backend or an LLM judge without endpoint settings.
    """

    def __init__(
        self,
        config: Config | None = None,
        *,
        store: AuthorityStore | None = None,
        judge: Judge | None = None,
        retriever: Retriever | None = None,
        generator: Any = None,
        reviser: TextReviser | None = None,
    ) -> None:
        self.config = config or load_config()
        self._store = store
        self._judge = judge
        self._retriever = retriever
        self.generator: Generator | None = None
        if generator:
            from graphs.wrap import as_generator

            self.generator = as_generator(generator)
        self._reviser = reviser
        self._graphs: dict[tuple[str, str], Any] = {}
        self._verifiers: dict[str, Verifier] = {}
        self._lock = threading.Lock()

    @cached_property
    def store(self) -> AuthorityStore:
        """The authority store (loaded on first use)."""
        if self._store is not None:
            return self._store
        if self.config.store_path is not None:
            return AuthorityStore.load(self.config.store_path)
        return load_default_store()

    @cached_property
    def retriever(self) -> Retriever:
        """Provision retrieval used by the judge and the repairs."""
        if self._retriever is not None:
            return self._retriever
        if self.config.retrieval == "hybrid":
            from governor.retrieval.hybrid import open_hybrid

            return open_hybrid(self.store, self.config)
        return self.store

    @cached_property
    def judge(self) -> Judge:
        """The fidelity/applicability judge."""
        if self._judge is not None:
            return self._judge
        if self.config.judge == "offline":
            return OfflineJudge(self.store, self.retriever, self.config.thresholds)
        if self.config.judge == "llm":
            from verifiers.llm_judge import make_llm_judge

            return make_llm_judge(self.config, self.store, self.retriever)
        raise ConfigError(f"unknown judge {self.config.judge!r}; use offline or llm")

    @cached_property
    def reviser(self) -> TextReviser | None:
        """The LLM reviser used by ``efa`` in edit mode (None: offline repairs only)."""
        if self._reviser is not None:
            return self._reviser
        if self.config.judge != "llm":
            return None
        from governor.clients.chat import OpenAIChatModel
        from governor.revision.llm import REVISER_PROMPT_VERSION, LLMReviser

        return LLMReviser(
            OpenAIChatModel.from_config(self.config, prompt_version=REVISER_PROMPT_VERSION)
        )

    @cached_property
    def case_lookup(self) -> CaseLookup | None:
        """US case lookup: CourtListener when ``courtlistener_url`` is set, else a local
        JSONL case store when ``case_store`` is set, else None (US cases unverifiable)."""
        if self.config.courtlistener_url:
            from governor.clients.courtlistener import CourtListenerClient

            return CourtListenerClient(base_url=self.config.courtlistener_url)
        if self.config.case_store is not None:
            from governor.clients.courtlistener import LocalCaseStore

            return LocalCaseStore(self.config.case_store)
        return None

    def verifier(self) -> Verifier:
        """A fresh verifier (its verdict cache lives for one run)."""
        return Verifier(
            self.store,
            self.retriever,
            self.judge,
            strict=self.config.strict,
            case_lookup=self.case_lookup,
        )

    def _verifier_for(self, judge: str | None) -> Verifier:
        """The shared verifier of the graphs for judge backend ``judge`` (None: this
        governor's own judge), built once; runs copy it with their own cache (``graphs.nodes``).

        Raises:
            ConfigError: unknown judge, or ``llm`` without endpoint settings.
        """
        own = judge is None or (judge == self.config.judge and self._judge is None)
        key = "" if own else str(judge)
        with self._lock:
            if key not in self._verifiers:
                if own:
                    chosen: Judge = self.judge
                elif judge == "offline":
                    chosen = OfflineJudge(self.store, self.retriever, self.config.thresholds)
                elif judge == "llm":
                    from verifiers.llm_judge import make_llm_judge

                    chosen = make_llm_judge(self.config, self.store, self.retriever)
                else:
                    raise ConfigError(f"unknown judge {judge!r}; use offline or llm")
                self._verifiers[key] = Verifier(
                    self.store,
                    self.retriever,
                    chosen,
                    strict=self.config.strict,
                    case_lookup=self.case_lookup,
                )
            return self._verifiers[key]

    def warm_up(self) -> float:
        """Load and exercise what the first draft would otherwise wait for (the store, the
        retriever, the offline judge, the extraction grammar) on a two-citation draft, with
        the offline judge only: no LLM call is spent. ``citegov serve`` runs it before
        ``/healthz`` says ready (issue 23: the first request took 1.5 s, the first wave 7-9 s).

        Returns:
            Seconds it took.
        """
        t0 = time.perf_counter()
        text = WARM_UP_DRAFT
        when = self.config.as_of or date.today()
        self._verifier_for("offline").verify(self.extract(text), as_of=when, text=text)
        return time.perf_counter() - t0

    def extract(self, text: str) -> tuple[Citation, ...]:
        """Citations of ``text`` (spans index ``text`` as given).

        The last text's citations are kept (one entry, compared by value): the CLI counts a
        draft's citations against ``max_citations`` and then verifies it, and extraction of a
        10,000-character draft costs ~0.15 s, so the second call is answered from the first
        (citations are frozen; a thread reading the entry another thread replaced compares its
        own text, so it never gets another draft's citations)."""
        last = getattr(self, "_last_extract", None)
        if last is not None and last[0] == text:
            return last[1]
        got = extract(text, self.store)
        self._last_extract = (text, got)
        return got

    def verify(
        self, text: str, *, as_of: date | str | None = None, context: str = ""
    ) -> tuple[Verdict, ...]:
        """Verdicts on every citation of ``text`` (no revision).

        Args:
            text: the draft.
            as_of: a ``date`` or ISO string (default: config, else the draft's report date,
                else today).
            context: the question the report answers (default: a ``问题：`` line).

        Raises:
            ConfigError: ``as_of`` is not a date (:func:`governor.text.dates.parse_as_of`).
        """
        when = _as_of(as_of) or self.config.as_of or detect_as_of(text)
        ctx = context or detect_context(text)
        return self.verifier().verify(self.extract(text), as_of=when, context=ctx, text=text)

    def verify_many(
        self,
        texts: Sequence[str],
        *,
        as_of: date | str | Sequence[date | str | None] | None = None,
        context: str = "",
    ) -> list[tuple[Verdict, ...]]:
        """Verdicts on every citation of each of ``texts`` (as :meth:`verify` per text), with
        one judge pass over all of them: the LLM judge fills its batches across the texts and
        runs its calls concurrently (``llm_batch_size``, ``llm_concurrency``).

        Args:
            texts: the drafts.
            as_of: one date for all, or one per text (None: config, else detected per text).
            context: the question every text answers (default: detected per text).

        Returns:
            per text, its verdicts in order.

        Raises:
            ValueError: ``as_of`` is a sequence of another length than ``texts``.
            ConfigError: an ``as_of`` that is not a date or ISO string.
        """
        dates: Sequence[date | None]
        if as_of is None or isinstance(as_of, date | str):
            dates = [_as_of(as_of)] * len(texts)
        else:
            dates = [_as_of(d) for d in as_of]
            if len(dates) != len(texts):
                raise ValueError(f"as_of has {len(dates)} dates for {len(texts)} texts")
        requests = [
            VerifyRequest(
                self.extract(text),
                when or self.config.as_of or detect_as_of(text),
                context or detect_context(text),
                text,
            )
            for text, when in zip(texts, dates, strict=True)
        ]
        return self.verifier().verify_many(requests)

    def _deps(self, strategy: str, *, mode: str = "edit") -> GovernanceDeps:
        from graphs.nodes import GovernanceDeps
        from graphs.wrap import accepts_feedback

        if strategy not in STRATEGIES:
            raise StrategyError(
                f"unknown strategy {strategy!r}; use one of {', '.join(STRATEGIES)}"
            )
        if mode not in ("edit", "regenerate"):
            raise ConfigError(f"unknown mode {mode!r}; use edit or regenerate")
        if mode == "regenerate" and (
            self.generator is None or not accepts_feedback(self.generator)
        ):
            raise ConfigError(
                "mode='regenerate' needs a generator that accepts feedback, e.g. a callable "
                "(task, feedback) -> str; use mode='edit' for this generator"
            )
        return GovernanceDeps(
            extractor=self.extract,
            verifier=self._verifier_for(None),
            strategy=strategy,  # type: ignore[arg-type]
            max_rounds=self.config.max_rounds,
            strict=self.config.strict,
            thresholds=self.config.thresholds,
            generator=self.generator,
            mode=mode,  # type: ignore[arg-type]
            text_reviser=self.reviser,  # used by efa in edit mode only (graphs.nodes.revise)
            as_of=self.config.as_of.isoformat() if self.config.as_of else None,
            verifier_for=self._verifier_for,
            policy=RevisionPolicy(self.config.edit_policy),
        )

    def graph(
        self, strategy: str | None = None, *, mode: str = "edit", checkpointer: Any = None
    ) -> Any:
        """The compiled LangGraph pipeline whose default strategy is ``strategy``.

        Compiled once per (strategy, mode) and reused: a compiled graph keeps no per-run
        state, so it serves any number of sequential, batched or concurrent runs. Per-run
        settings go in ``invoke(..., context={...})`` (:class:`graphs.settings.
        GovernanceContext`). With a ``checkpointer`` a new graph is compiled over it.

        Raises:
            StrategyError / ConfigError: unknown strategy or mode, regenerate without a
                feedback-taking generator.
        """
        from graphs.pipeline import build_governance_graph

        strat = strategy or self.config.strategy
        if checkpointer is not None:
            return build_governance_graph(self._deps(strat, mode=mode), checkpointer=checkpointer)
        key = (strat, mode)
        graph = self._graphs.get(key)
        if graph is None:
            graph = build_governance_graph(self._deps(strat, mode=mode))
            with self._lock:
                graph = self._graphs.setdefault(key, graph)
        return graph

    def runnable(
        self,
        strategy: str | None = None,
        *,
        mode: str = "edit",
        checkpointer: Any = None,
        interrupt_after: tuple[str, ...] = (),
    ) -> GovernedWriter:
        """The governed writer as a LangChain ``Runnable`` (invoke, batch, stream).

        Inputs: ``{"draft": text}``, a task ``{"query": ..., "subtopics": [...]}`` for the wrapped
        generator, or plain text — the question when a generator is wrapped, else the draft.
        The as-of date and question are read from the draft unless given (``as_of``,
        ``context``).

        Raises:
            StrategyError / ConfigError: unknown strategy or mode, regenerate without a
                feedback-taking generator.
        """
        from graphs.runnable import GovernedWriter, prepare_input

        strat = strategy or self.config.strategy

        def prepare(value: Any) -> Any:
            if isinstance(value, str) and self.generator is not None:
                value = {"query": value}  # a writer with a generator writes: text is the question
            return prepare_input(value)

        return GovernedWriter(
            self.graph(strat, mode=mode, checkpointer=checkpointer),
            prepare=prepare,
            interrupt_after=interrupt_after,
        )

    def messages_node(self, strategy: str | None = None, **settings: Any) -> Any:
        """A node for a ``MessagesState`` graph that governs the last ``AIMessage`` in place
        (:func:`graphs.messages.govern_last_message`); ``settings`` are
        :class:`graphs.settings.GovernanceContext` fields for its runs."""
        from graphs.messages import govern_last_message
        from graphs.settings import GovernanceContext

        ctx = GovernanceContext(**settings) if settings else None
        return govern_last_message(self.graph(strategy), context=ctx)

    def govern(
        self,
        text: str,
        *,
        strategy: str | None = None,
        as_of: date | str | None = None,
        context: str = "",
        review: Callable[[dict[str, Any]], Any] | None = None,
    ) -> GovernanceResult:
        """Verify and revise ``text`` with ``strategy`` (default from config).

        Args:
            text: the draft (never modified).
            strategy: ``none`` | ``existence`` | ``efa``.
            as_of: the date the report speaks as of (a ``date`` or ISO string); default:
                ``config.as_of``, else the report date in the draft, else today.
            context: the question the report answers (default: a ``问题：`` line).
            review: human approval of edits: called with each round's proposed edits
                (:func:`graphs.nodes.review_payload`) and returns the decision
                (:func:`graphs.nodes.parse_review`); the run pauses at a checkpoint meanwhile.

        Returns:
            The run's result: initial and final verdicts, every round's edits, output text.

        Raises:
            StrategyError: unknown strategy.
            InputError: a review decision that cannot be read.
        """
        from graphs.state import STATE_KEYS, result_from_state

        inp: dict[str, Any] = {"draft": text}
        when = _as_of(as_of)
        if when is not None:
            inp["as_of"] = when.isoformat()
        if context:
            inp["context"] = context
        if review is not None:
            return self._govern_reviewed(inp, strategy, review)
        state = self.graph(strategy).invoke(inp, output_keys=STATE_KEYS)
        return result_from_state(state)

    def _govern_reviewed(
        self, inp: dict[str, Any], strategy: str | None, review: Callable[[dict[str, Any]], Any]
    ) -> GovernanceResult:
        from langgraph.types import Command

        from graphs.durable import sqlite_checkpointer
        from graphs.settings import GovernanceContext
        from graphs.state import STATE_KEYS, result_from_state

        cfg: Any = {"configurable": {"thread_id": f"review-{uuid.uuid4().hex}"}}
        ctx = GovernanceContext(review=True)
        with sqlite_checkpointer(":memory:") as saver:
            graph = self.graph(strategy, checkpointer=saver)
            out = graph.invoke(inp, cfg, context=ctx, output_keys=STATE_KEYS)
            while out.get("__interrupt__"):
                decision = review(out["__interrupt__"][0].value)
                out = graph.invoke(
                    Command(resume=decision), cfg, context=ctx, output_keys=STATE_KEYS
                )
        return result_from_state(out)

    def write(
        self, task: dict[str, Any], *, strategy: str | None = None, mode: str = "edit"
    ) -> GovernanceResult:
        """Generate a report for ``task`` with the wrapped generator, then govern it.

        ``mode="regenerate"`` sends the verdict feedback back to the generator instead of
        editing the text (the generator must accept feedback).
        """
        if self.generator is None:
            raise ConfigError("Governor.write needs a generator; pass generator=...")
        from graphs.state import STATE_KEYS, result_from_state

        inp: dict[str, Any] = {"task": task}
        if self.config.as_of is None:
            inp["as_of"] = date.today().isoformat()  # a generated report speaks as of today
        state = self.graph(strategy, mode=mode).invoke(inp, output_keys=STATE_KEYS)
        return result_from_state(state)

    def revise_many(
        self,
        paths: Sequence[Any],
        out_dir: Any,
        *,
        strategy: str | None = None,
        workers: int = 1,
        resume: bool = False,
        as_of: date | str | None = None,
        context: str = "",
        fail_on: float | None = None,
        trace: bool = False,
        progress: Any = None,
        engine: str = "local",
        ray_address: str | None = None,
        allow_unverifiable: bool = False,
        details: bool = False,
    ) -> Any:
        """Revise many drafts into ``out_dir`` (the engine of ``citegov revise``).

        ``paths`` are files, folders or glob patterns; each draft gets its revised text,
        ``<name>.verdicts.json`` and ``<name>.html``, the batch ``summary.jsonl`` and
        ``index.html``. ``progress`` is called with a :class:`governor.batch.BatchProgress`
        after each draft. See :func:`governor.batch.run_batch` for resume and output naming.
        With ``fail_on``, a draft with citations that could not be checked counts as failing
        unless ``allow_unverifiable`` (SPEC §10).

        ``engine="ray"`` governs the drafts in Ray actors (:mod:`governor.batch_ray`;
        ``workers`` actors, on a local Ray instance or the cluster at ``ray_address``, e.g.
        ``"auto"`` or ``"ray://head:10001"``), with the same outputs, byte for byte, as
        ``engine="local"``.

        Returns:
            A :class:`governor.batch.BatchResult` (bad drafts are ``failed`` rows).

        Raises:
            ConfigError: invalid options, ``workers > 1`` (or ``engine="ray"``) with injected
                components, an unknown engine, or ``engine="ray"`` without Ray installed.
            InputError: no drafts, an output would overwrite an input or another output, or
                another batch holds ``out_dir``.
            OutputError: an output cannot be written (disk full, read-only folder); the
                drafts finished are kept for ``resume=True``.
        """
        from pathlib import Path

        from governor.batch import check_portable, local_engine, make_options, run_batch

        if engine not in ("local", "ray"):
            raise ConfigError(f"unknown engine {engine!r}; use local or ray")
        if ray_address is not None and engine != "ray":
            raise ConfigError("ray_address needs engine='ray'")
        check_portable(self, 2 if engine == "ray" else workers)
        options = make_options(
            strategy=strategy or self.config.strategy,
            as_of=_as_of(as_of),
            context=context,
            fail_on=fail_on,
            allow_unverifiable=allow_unverifiable,
            details=details,
            resume=resume,
            workers=workers,
            trace=trace,
        )
        if engine == "ray":
            from governor.batch_ray import ray_engine

            run = ray_engine(ray_address)
        else:
            run = local_engine
        return run_batch(self, list(paths), Path(out_dir), options, progress=progress, engine=run)


def _as_of(value: date | str | None) -> date | None:
    """An optional ``as_of`` argument as a date (:func:`governor.text.dates.parse_as_of`)."""
    return None if value is None else parse_as_of(value)
