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

from collections.abc import Sequence
from datetime import date
from functools import cached_property
from typing import TYPE_CHECKING, Any

from governor.authorities import AuthorityStore, load_default_store
from governor.citations.extract import extract
from governor.core.config import STRATEGIES, Config, load_config
from governor.core.errors import ConfigError, StrategyError
from governor.core.models import Citation, Verdict
from governor.core.ports import CaseLookup, Generator, Retriever
from governor.text.dates import detect_as_of, detect_context
from verifiers.judge import Judge
from verifiers.offline import OfflineJudge
from verifiers.verify import Verifier

if TYPE_CHECKING:  # the graph layer (LangGraph, LangChain, revision) loads only when used
    from graphs.nodes import GovernanceDeps, TextReviser
    from graphs.runnable import GovernedWriter
    from graphs.state import GovernanceResult, GovernanceState


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

    def extract(self, text: str) -> tuple[Citation, ...]:
        """Citations of ``text`` (spans index ``text`` as given)."""
        return extract(text, self.store)

    def verify(
        self, text: str, *, as_of: date | None = None, context: str = ""
    ) -> tuple[Verdict, ...]:
        """Verdicts on every citation of ``text`` (no revision)."""
        when = as_of or self.config.as_of or detect_as_of(text)
        ctx = context or detect_context(text)
        return self.verifier().verify(self.extract(text), as_of=when, context=ctx, text=text)

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
            verifier=self.verifier(),
            strategy=strategy,  # type: ignore[arg-type]
            max_rounds=self.config.max_rounds,
            strict=self.config.strict,
            thresholds=self.config.thresholds,
            generator=self.generator,
            mode=mode,  # type: ignore[arg-type]
            text_reviser=self.reviser if strategy == "efa" and mode == "edit" else None,
        )

    def graph(
        self, strategy: str | None = None, *, mode: str = "edit", checkpointer: Any = None
    ) -> Any:
        """The compiled LangGraph pipeline for ``strategy`` (a LangChain Runnable)."""
        from graphs.pipeline import build_governance_graph

        return build_governance_graph(
            self._deps(strategy or self.config.strategy, mode=mode), checkpointer=checkpointer
        )

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
        self._deps(strat, mode=mode)  # validate now, not at the first invoke

        def prepare(value: Any) -> GovernanceState:
            if isinstance(value, str) and self.generator is not None:
                value = {"query": value}  # a writer with a generator writes: text is the question
            state = prepare_input(value, today=self.config.as_of)
            draft = state.get("draft")
            if draft is not None:
                given = isinstance(value, dict) and value.get("as_of")
                if not given and self.config.as_of is None:
                    state["as_of"] = detect_as_of(draft).isoformat()
                state["context"] = state.get("context") or detect_context(draft)
            return state

        return GovernedWriter(
            lambda: self._deps(strat, mode=mode),
            prepare=prepare,
            checkpointer=checkpointer,
            interrupt_after=interrupt_after,
        )

    def govern(
        self,
        text: str,
        *,
        strategy: str | None = None,
        as_of: date | None = None,
        context: str = "",
    ) -> GovernanceResult:
        """Verify and revise ``text`` with ``strategy`` (default from config).

        Returns:
            The run's result: initial and final verdicts, every round's edits, output text.

        Raises:
            StrategyError: unknown strategy.
        """
        from graphs.state import result_from_state

        strat = strategy or self.config.strategy
        when = as_of or self.config.as_of or detect_as_of(text)
        state = self.graph(strat).invoke(
            {"draft": text, "as_of": when.isoformat(), "context": context or detect_context(text)}
        )
        return result_from_state(state, strat)

    def write(
        self, task: dict[str, Any], *, strategy: str | None = None, mode: str = "edit"
    ) -> GovernanceResult:
        """Generate a report for ``task`` with the wrapped generator, then govern it.

        ``mode="regenerate"`` sends the verdict feedback back to the generator instead of
        editing the text (the generator must accept feedback).
        """
        if self.generator is None:
            raise ConfigError("Governor.write needs a generator; pass generator=...")
        from graphs.state import result_from_state

        strat = strategy or self.config.strategy
        when = self.config.as_of or date.today()
        state = self.graph(strat, mode=mode).invoke(
            {"task": task, "as_of": when.isoformat(), "context": str(task.get("query", ""))}
        )
        return result_from_state(state, strat, mode)

    def revise_many(
        self,
        paths: Sequence[Any],
        out_dir: Any,
        *,
        strategy: str | None = None,
        workers: int = 1,
        resume: bool = False,
        as_of: date | None = None,
        context: str = "",
        fail_on: float | None = None,
        trace: bool = False,
        progress: Any = None,
    ) -> Any:
        """Revise many drafts into ``out_dir`` (the engine of ``citegov revise``).

        ``paths`` are files, folders or glob patterns; each draft gets its revised text,
        ``<name>.verdicts.json`` and ``<name>.html``, the batch ``summary.jsonl`` and
        ``index.html``. ``progress`` is called with a :class:`governor.batch.BatchProgress`
        after each draft. See :func:`governor.batch.run_batch` for resume and output naming.

        Returns:
            A :class:`governor.batch.BatchResult` (bad drafts are ``failed`` rows).

        Raises:
            ConfigError: invalid options, or ``workers > 1`` with injected components.
            InputError: no drafts, or an output would overwrite an input.
        """
        from pathlib import Path

        from governor.batch import check_portable, make_options, run_batch

        check_portable(self, workers)
        options = make_options(
            strategy=strategy or self.config.strategy,
            as_of=as_of,
            context=context,
            fail_on=fail_on,
            resume=resume,
            workers=workers,
            trace=trace,
        )
        return run_batch(self, list(paths), Path(out_dir), options, progress=progress)
