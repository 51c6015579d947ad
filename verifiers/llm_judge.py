"""The LLM judge: fidelity and applicability by an OpenAI-compatible chat model (SPEC §7).

Trust boundary, in the order the judge applies it:

1. **Offline first.** Every item is judged by :class:`~verifiers.offline.OfflineJudge`. Its
   *deterministic* failures — a quote that is not in the source, a wrong number, period or
   amount, a flipped modality (:func:`verifiers.fidelity.hard_failure`), a claim that flips
   the provision's modality (:func:`verifiers.applicability.hard_failure`) — are final: no
   LLM answer overrides them. Items whose report says nothing about the content (F
   ``not_assessed``) or that have neither claim nor question (A ``skipped``) keep those NA
   labels. Items with nothing left to ask are not sent at all.
2. **Several citations per call** (``Config.llm_batch_size``), in a versioned Chinese (or
   English, for US citations) prompt from ``governor/prompts/``. Draft text (description,
   claim) and the question are delimited as data, with the delimiter characters removed from
   them; the prompt says instructions inside them are void.
3. **Structured output** (JSON schema) validated by pydantic. An answer that does not parse,
   misses an item, or a call that fails after the client's retries/backoff (or exceeds the
   run's budget) gives label ``unknown`` (score 0.0, SPEC §3), never a pass.
4. **Quoted evidence.** A ``faithful``/``supports`` must quote the source; the quote is
   checked against the source text (:func:`verify_quote`: one contiguous run covering
   :data:`QUOTE_OK` of it, at least :data:`MIN_QUOTE_CHARS` characters). An unsupported pass
   — or an NA answer on content the offline judge found stated — is downgraded to
   ``partially_faithful``/``partially_supports``, or to the offline verdict when that is
   worse.
5. **Cache.** Responses are cached on disk by the chat client under model + prompt version +
   messages + schema; the messages are a deterministic function of the items, so a rerun
   makes zero calls.

Suggestions (better provisions) always come from the offline judge: the model is never
trusted to name an authority.
"""

from __future__ import annotations

import difflib
import json
import re
import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from governor.authorities import AuthorityStore
from governor.config import Config, Thresholds
from governor.errors import BudgetExceededError, EndpointError, JudgeOutputError
from governor.labels import score_for
from governor.models import Axis, CheckResult, Evidence, Span, TaxonomyCode
from governor.ports import ChatModel, Retriever
from verifiers import applicability as app_mod
from verifiers import fidelity as fid_mod
from verifiers.judge import AxisOutcome, JudgeItem, JudgeOutcome
from verifiers.offline import OfflineJudge
from verifiers.suggest import IdfCache
from verifiers.textsim import normalize

PROMPT_FILES: Final[Mapping[str, str]] = {"cn": "judge_cn_v1", "en": "judge_en_v1"}
"""Prompt file (and version tag, part of the cache key) per report language."""
QUOTE_OK: Final = 0.9
"""Share of a judge's quote that must appear verbatim in the source to support a pass."""
MIN_QUOTE_CHARS: Final = 4
"""A supporting quote needs at least this many content characters."""
MAX_SOURCE_CHARS: Final = 2000
"""Source text per item is cut to this many characters (long articles with many 项)."""
MAX_DRAFT_CHARS: Final = 800
"""Description/claim/question per item are cut to this many characters."""
TOKENS_PER_ITEM: Final = 320
"""Completion tokens allowed per item of a batch (plus :data:`TOKENS_BASE`)."""
TOKENS_BASE: Final = 200

FidelityLabel = Literal["faithful", "partially_faithful", "misdescribed", "not_assessed"]
ApplicabilityLabel = Literal[
    "supports", "partially_supports", "overextended", "contradicts", "irrelevant", "skipped"
]
PASSES: Final[Mapping[Axis, str]] = {"fidelity": "faithful", "applicability": "supports"}
DOWNGRADE: Final[Mapping[Axis, str]] = {
    "fidelity": "partially_faithful",
    "applicability": "partially_supports",
}
DEFAULT_CODES: Final[Mapping[str, tuple[TaxonomyCode, ...]]] = {
    "misdescribed": ("L1.1.2",),
    "partially_faithful": ("L1.2.3",),
    "partially_supports": ("L1.1.2",),
    "overextended": ("L1.1.2",),
    "contradicts": ("L1.1.2",),
    "irrelevant": ("L1.1.2",),
}
"""Taxonomy codes of an LLM failure label when the offline judge named none."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class FidelityAnswer(_Strict):
    """The model's fidelity decision for one item."""

    label: FidelityLabel
    quote: str = ""
    rationale: str = ""


class ApplicabilityAnswer(_Strict):
    """The model's applicability decision for one item."""

    label: ApplicabilityLabel
    quote: str = ""
    rationale: str = ""


class ItemAnswer(_Strict):
    """Both decisions for the item with id ``id``."""

    id: str
    fidelity: FidelityAnswer
    applicability: ApplicabilityAnswer


class JudgeAnswer(_Strict):
    """One call's answer: an entry per item of the batch."""

    items: list[ItemAnswer]


def _axis_schema(labels: Sequence[str]) -> dict[str, Any]:
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["label", "quote", "rationale"],
        "properties": {
            "label": {"type": "string", "enum": list(labels)},
            "quote": {"type": "string"},
            "rationale": {"type": "string"},
        },
    }


ANSWER_SCHEMA: Final[Mapping[str, Any]] = {
    "title": "citegov_judge",
    "type": "object",
    "additionalProperties": False,
    "required": ["items"],
    "properties": {
        "items": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["id", "fidelity", "applicability"],
                "properties": {
                    "id": {"type": "string"},
                    "fidelity": _axis_schema(FidelityLabel.__args__),  # type: ignore[attr-defined]
                    "applicability": _axis_schema(ApplicabilityLabel.__args__),  # type: ignore[attr-defined]
                },
            },
        }
    },
}
"""JSON schema sent as ``response_format`` (strict-mode compatible: every key required)."""


@dataclass(frozen=True)
class Prompt:
    """A versioned prompt: ``system`` text and the per-item ``item`` template ($-placeholders)."""

    version: str
    system: str
    item: string.Template


@lru_cache(maxsize=8)
def load_prompt(version: str) -> Prompt:
    """Read ``governor/prompts/<version>.md`` (sections after ``<!-- system -->`` and
    ``<!-- item -->``).

    Raises:
        JudgeOutputError: the file is missing or lacks a section (reinstall citegov).
    """
    try:
        text = resources.files("governor").joinpath(f"prompts/{version}.md").read_text("utf-8")
    except (FileNotFoundError, OSError) as exc:
        raise JudgeOutputError(
            f"prompt file governor/prompts/{version}.md is missing ({exc}); reinstall citegov"
        ) from None
    m = re.search(r"<!-- system -->\n(.*?)\n<!-- item -->\n(.*)\Z", text, re.S)
    if m is None:
        raise JudgeOutputError(
            f"prompt file governor/prompts/{version}.md lacks its system/item sections"
        )
    return Prompt(version, m.group(1).strip(), string.Template(m.group(2).strip()))


_DELIMITERS = re.compile(r"<<<|>>>|[<>＜＞《》]{3,}")


def as_data(text: str, limit: int = MAX_DRAFT_CHARS) -> str:
    """Untrusted text made safe to embed: delimiter sequences removed, cut to ``limit``."""
    s = _DELIMITERS.sub("", text).strip()
    return s[:limit] + ("…" if len(s) > limit else "")


def language_of(items: Sequence[JudgeItem]) -> str:
    """``"en"`` when every item is a US citation, else ``"cn"``."""
    us = all(it.citation.kind in ("us_case", "us_statute") for it in items)
    return "en" if items and us else "cn"


def source_text(item: JudgeItem) -> str:
    """The trusted text the judge sees: the cited 款/项 (or article), cut to the limit."""
    text = item.authority.text or (item.record.text if item.record is not None else "")
    return text[:MAX_SOURCE_CHARS]


def render_messages(items: Sequence[tuple[str, JudgeItem]], prompt: Prompt) -> list[dict[str, str]]:
    """Chat messages for one batch: the system prompt and one user message with every item.

    ``items`` pairs an id (``c1``…) with the item. Deterministic in its inputs (cache key).
    """
    blocks = []
    for cid, it in items:
        cit = it.citation
        label = cit.raw.replace("\n", " ")
        if it.authority.instrument:
            label += f"（条文：{it.authority.label}）"
        blocks.append(
            prompt.item.substitute(
                id=cid,
                citation=as_data(label, 200),
                source=source_text(it),
                description=as_data(cit.description or "（无）"),
                claim=as_data(cit.claim or "（无）"),
                question=as_data(it.context or "（无）"),
            )
        )
    user = "\n\n".join(blocks)
    return [
        {"role": "system", "content": f"[{prompt.version}]\n{prompt.system}"},
        {"role": "user", "content": user},
    ]


def verify_quote(quote: str, source: str) -> bool:
    """True when ``quote`` is in ``source``: after folding width, punctuation and whitespace,
    one contiguous run of the source covers :data:`QUOTE_OK` of the quote's characters (a
    slip or two is tolerated; stitching fragments together is not), and the quote has at
    least :data:`MIN_QUOTE_CHARS` characters."""
    q, s = normalize(quote), normalize(source)
    if len(q) < MIN_QUOTE_CHARS or not s:
        return False
    if q in s:
        return True
    m = difflib.SequenceMatcher(None, q, s, autojunk=False).find_longest_match(0, len(q), 0, len(s))
    return m.size / len(q) >= QUOTE_OK


def _result(
    axis: Axis, label: str, rationale: str, judge: str, evidence: tuple[Evidence, ...] = ()
) -> CheckResult:
    return CheckResult(
        axis=axis,
        label=label,
        score=score_for(axis, label),
        rationale=rationale,
        evidence=evidence,
        judge=judge,
    )


def _quote_evidence(item: JudgeItem, quote: str) -> tuple[Evidence, ...]:
    text = item.authority.text
    at = text.find(quote) if quote else -1
    span = Span(start=at, end=at + len(quote)) if at >= 0 else None
    return (Evidence(text=quote, authority_id=item.authority.id, span=span),) if quote else ()


@dataclass
class LlmJudge:
    """Fidelity/applicability by a chat model, behind the offline judge's hard checks.

    Attributes:
        chat: the chat model (``OpenAIChatModel`` with cache, budget and retries).
        store: the authority store.
        retriever: retrieval for the offline checks and suggestions.
        thresholds: offline thresholds.
        batch_size: citations per call.
        name: recorded in verdicts (``llm:<model>``).
        failures: batches that ended as ``unknown`` (endpoint, budget or output failures).
    """

    chat: ChatModel
    store: AuthorityStore
    retriever: Retriever
    thresholds: Thresholds = field(default_factory=Thresholds)
    batch_size: int = 8
    name: str = ""
    failures: int = 0
    offline: OfflineJudge | None = None

    def __post_init__(self) -> None:
        if not self.name:
            self.name = f"llm:{self.chat.model}"
        if self.offline is None:
            self.offline = OfflineJudge(self.store, self.retriever, self.thresholds)

    @property
    def usage(self) -> Any:
        """The chat client's counters (calls, cache hits, tokens), when it has them."""
        return getattr(self.chat, "usage", None)

    def judge(self, items: Sequence[JudgeItem]) -> list[JudgeOutcome]:
        """Judge ``items`` (order preserved); see the module docstring for the rules."""
        assert self.offline is not None
        idf: IdfCache | None = self.offline.idf
        th = self.thresholds
        offline = [self.offline.judge_one(it) for it in items]
        hard: list[tuple[AxisOutcome | None, AxisOutcome | None]] = []
        ask: list[int] = []
        for i, (it, off) in enumerate(zip(items, offline, strict=True)):
            hf = fid_mod.hard_failure(it, self.retriever, self.store, th, idf)
            ha = app_mod.hard_failure(it, self.retriever, self.store, th, idf)
            if hf is None and off.fidelity.result.label == "not_assessed" and not _states(it, th):
                hf = off.fidelity  # nothing stated: NA is final
            if ha is None and off.applicability.result.label == "skipped":
                ha = off.applicability
            hard.append((hf, ha))
            if hf is None or ha is None:
                ask.append(i)
        answers: dict[int, ItemAnswer | str] = {}
        for start in range(0, len(ask), self.batch_size):
            batch = ask[start : start + self.batch_size]
            answers.update(self._ask([(i, items[i]) for i in batch]))
        out = []
        for i, it in enumerate(items):
            hf, ha = hard[i]
            ans = answers.get(i)
            out.append(
                JudgeOutcome(
                    fidelity=hf or self._merge("fidelity", it, offline[i].fidelity, ans),
                    applicability=ha
                    or self._merge("applicability", it, offline[i].applicability, ans),
                )
            )
        return out

    # ------------------------------------------------------------------ internals

    def _ask(self, batch: Sequence[tuple[int, JudgeItem]]) -> dict[int, ItemAnswer | str]:
        """One call for ``batch``; per index the parsed answer or a failure reason."""
        prompt = load_prompt(PROMPT_FILES[language_of([it for _, it in batch])])
        ids = [(f"c{n + 1}", it) for n, (_, it) in enumerate(batch)]
        messages = render_messages(ids, prompt)
        try:
            raw = self.chat.complete(
                messages,
                json_schema=ANSWER_SCHEMA,
                max_tokens=TOKENS_BASE + TOKENS_PER_ITEM * len(batch),
            )
            parsed = JudgeAnswer.model_validate(json.loads(raw))
        except (EndpointError, BudgetExceededError, JudgeOutputError) as exc:
            self.failures += 1
            return {i: f"judge call failed: {type(exc).__name__}: {exc}"[:300] for i, _ in batch}
        except (ValueError, ValidationError) as exc:
            self.failures += 1
            why = f"judge answer did not validate ({type(exc).__name__})"
            return {i: why for i, _ in batch}
        by_id = {a.id: a for a in parsed.items}
        out: dict[int, ItemAnswer | str] = {}
        for (i, _), (cid, _) in zip(batch, ids, strict=True):
            out[i] = by_id.get(cid) or f"judge answer has no entry for {cid}"
        return out

    def _merge(
        self, axis: Axis, item: JudgeItem, off: AxisOutcome, ans: ItemAnswer | str | None
    ) -> AxisOutcome:
        if ans is None or isinstance(ans, str):
            why = ans or "not judged"
            return AxisOutcome(_result(axis, "unknown", why, self.name))
        a = ans.fidelity if axis == "fidelity" else ans.applicability
        label: str = a.label
        rationale = a.rationale.strip() or "(no rationale)"
        record_text = item.record.text if item.record is not None else ""
        source = "\n".join(t for t in (item.authority.text, record_text) if t)
        evidence: tuple[Evidence, ...] = ()
        unsupported = ""
        if score_for(axis, label) is None:
            # The offline judge established that there is content/a claim to judge: an NA
            # answer would pass without evidence, so it is treated as an unsupported pass.
            unsupported = f"the judge declined to assess ({a.label})"
        elif label == PASSES[axis]:
            if verify_quote(a.quote, source):
                evidence = _quote_evidence(item, a.quote)
            else:
                unsupported = "the judge's evidence quote is not in the source text"
        elif a.quote and verify_quote(a.quote, source):
            evidence = _quote_evidence(item, a.quote)
        if unsupported:
            # Downgraded: to the partial label, or to the offline verdict when that is worse.
            down = score_for(axis, DOWNGRADE[axis]) or 0.0
            if _fails(off.result.score) and (off.result.score or 0.0) < down:
                return AxisOutcome(
                    off.result.model_copy(
                        update={
                            "rationale": f"{unsupported}; {a.label} downgraded to the "
                            f"offline verdict: {off.result.rationale}"
                        }
                    ),
                    codes=off.codes,
                    suggestion=off.suggestion,
                )
            label = DOWNGRADE[axis]
            rationale = f"{unsupported}; {a.label} downgraded. Judge: {rationale}"
        failing = _fails(score_for(axis, label))
        codes: tuple[TaxonomyCode, ...] = ()
        if failing:
            codes = (
                off.codes
                if _fails(off.result.score) and off.codes
                else DEFAULT_CODES.get(label, ())
            )
        return AxisOutcome(
            _result(axis, label, rationale[:500], self.name, evidence),
            codes=codes,
            suggestion=off.suggestion if failing else None,
        )


def _fails(score: float | None) -> bool:
    """True for a failing score (< 1.0); NA (None) is not a failure."""
    return score is not None and score < 1.0


def _states(item: JudgeItem, th: Thresholds) -> bool:
    """True when the report says something about the provision's content."""
    record_text = item.record.text if item.record is not None else item.authority.text
    pool = "\n".join((record_text, *item.sibling_texts))
    return bool(fid_mod.described_text(item, pool, th.fidelity_min_overlap) or item.citation.quotes)


def make_llm_judge(
    config: Config,
    store: AuthorityStore,
    retriever: Retriever,
    *,
    dry_run: bool = False,
    chat: ChatModel | None = None,
    environ: Mapping[str, str] | None = None,
) -> LlmJudge:
    """The LLM judge for ``config`` (``llm_base_url``, ``llm_model``, key from the variable
    named by ``llm_api_key_env``, ``llm_batch_size``, budgets, ``cache_dir``).

    Args:
        dry_run: count calls and estimated tokens without sending (answers become unknown).
        chat: a ready chat model (tests); default an ``OpenAIChatModel`` from ``config``.
        environ: environment for the key (default ``os.environ``).

    Raises:
        ConfigError: no endpoint/model configured, or the key variable is unset.
    """
    if chat is None:
        from governor.clients.chat import OpenAIChatModel

        chat = OpenAIChatModel.from_config(
            config, prompt_version=PROMPT_FILES["cn"], dry_run=dry_run, environ=environ
        )
    return LlmJudge(
        chat=chat,
        store=store,
        retriever=retriever,
        thresholds=config.thresholds,
        batch_size=config.llm_batch_size,
    )
