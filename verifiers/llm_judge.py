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
   them; the prompt says instructions inside them are void. Batches are planned over a whole
   run (:meth:`LlmJudge.judge_many`, :func:`plan_batches`): filled across documents, one
   language per batch, an item identical to one already asked (same rendered block) asked
   once; each answer is routed back to its document and citation. The calls run
   concurrently in a bounded pool (``Config.llm_concurrency``) behind the chat client's
   rate limiter. The system message is a **stable prefix** (the same bytes in every call of
   a language: instructions and rules only; the batch's citations are all in the user
   message after it), so providers' prompt caches apply. Valid answers are kept for the run
   by item: ``citegov revise`` judges a chunk of drafts together first (one pass across
   documents), and the per-draft rounds then find their first-round items answered.
3. **Structured output** (JSON schema) validated by pydantic. An answer that does not parse,
   has a label outside the allowed list or misses an item of the batch is rejected inside
   the chat client (its ``validate`` hook) and asked again within the client's retries,
   bypassing the cache; when the retries are spent, the items answered validly by the last
   schema-valid answer keep their answers and the others — like every item of a call that
   fails after the client's retries/backoff or exceeds the run's budget — get label
   ``unknown`` (score 0.0, SPEC §3), never a pass. An endpoint that cannot be connected to at
   all (:class:`~governor.core.errors.EndpointUnreachableError`) is not a judge failure but a
   configuration error: it propagates (SPEC §10: clear error, non-zero exit).
4. **Quoted evidence** (SPEC §7: "a judge's faithful/supports must quote its evidence from
   the source text, and the quote is checked programmatically"). A pass stands only when its
   quote

   a. is in the source (:func:`verify_quote`: one contiguous run covering :data:`QUOTE_OK`
      of it, at least :data:`MIN_QUOTE_CHARS` characters), and
   b. agrees with what the draft states (:func:`statement`, :func:`disagreement`).
      Fidelity: the quote holds at least ``fidelity_min_overlap`` of the description's
      content bigrams, IDF-weighted over the cited instrument (:func:`coverage`) — the bar
      the offline judge sets for the whole provision, here met by the quoted passage alone —
      and states no other number, period or amount and no other modality (应当/可以/不得…)
      than the description. Applicability: the quote holds at least
      ``applicability_min_relevance`` of the claim — the overlap at which the offline judge
      takes a provision to be on the claim's topic; a claim of its own applies the rule to
      facts the provision never names, so a description's bar would reject honest passes —
      and states no other modality than the claim. In a list (《X》第一条、第二条……) only
      the part of the shared statement this provision holds is counted. Proving where a
      quote comes from is not proving that it supports the statement: an obedient judge
      quoting the source's first sentence for a misdescription fails (b).
   c. supports the statement *as made*: the statement drops no condition that the quote or
      the cited provision states — no 但书 whose rule it restates, no limit it states
      universally (一律…), no condition of a consequence it restates
      (:func:`dropped_condition`, the offline judge's structural tests). Quoting the whole
      article proves the article, not a statement that leaves out its 但书.

   An unsupported pass — or an NA answer on content the offline judge found stated — is
   downgraded to ``partially_faithful``/``partially_supports``, or to the offline verdict
   when that is worse.
5. **No overruling without evidence.** A supported pass may not raise an offline
   ``misdescribed``/``contradicts``/``irrelevant`` (score 0) above ``partially_*`` unless its
   quote covers the statement as fully as the offline judge requires to set its objection
   aside: :data:`verifiers.fidelity.VERBATIM` of the description (the description *is* the
   quoted text, so no other provision can fit it better and no content is missing) or
   :data:`verifiers.applicability.RESTATES` of the claim (the claim restates the quoted
   rule). The offline objections are to content the cited provision does not hold; a quote
   from the provision that covers the statement refutes them, any other quote cannot.
   A deterministic offline *finding* (:data:`FINDINGS`: ``partially_faithful`` for a dropped
   但书/condition/limit, ``overextended``) is never lifted by an LLM answer, whatever it
   quotes; the model may only lower it.
6. **Cache.** Responses are cached on disk by the chat client under model + prompt version +
   messages + schema; the messages are a deterministic function of the items, so a rerun
   makes zero calls.

Suggestions (better provisions) always come from the offline judge: the model is never
trusted to name an authority.
"""

from __future__ import annotations

import difflib
import inspect
import json
import math
import re
import string
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any, Final, Literal, Protocol

from pydantic import BaseModel, ConfigDict, ValidationError

from governor.authorities import AuthorityStore
from governor.core.config import DEFAULT_THRESHOLDS, Config, Thresholds
from governor.core.errors import (
    FATAL_ENDPOINT_ERRORS,
    BudgetExceededError,
    EndpointError,
    JudgeOutputError,
)
from governor.core.labels import score_for
from governor.core.models import Axis, CheckResult, Evidence, Span, TaxonomyCode
from governor.core.ports import ChatModel, Retriever
from verifiers import applicability as app_mod
from verifiers import fidelity as fid_mod
from verifiers.facts import (
    dropped_conditions,
    mentions_exception,
    modality_flips,
    number_mismatches,
    provisos,
)
from verifiers.judge import AxisOutcome, JudgeItem, JudgeOutcome, Siblings, list_pool
from verifiers.offline import OfflineJudge
from verifiers.patterns import SCOPE, UNIVERSAL
from verifiers.suggest import IdfCache
from verifiers.textsim import BigramIdf, bigrams, containment, contains_phrase, normalize

PROMPT_FILES: Final[Mapping[str, str]] = {"cn": "judge_cn_v2", "en": "judge_en_v2"}
"""Prompt file (and version tag, part of the cache key) per report language."""
QUOTE_OK: Final = DEFAULT_THRESHOLDS.llm_judge_quote_ok
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
EXPECTED_TOKENS_PER_ITEM: Final = 150
"""ESTIMATE of the completion tokens an answer takes per item (what a dry run counts and the
rate limiter charges up front): the JSON frame with two labels (≈45 ``o200k_base`` tokens),
two one-sentence quotes (≈30 each) and two one-sentence rationales (≈22 each), per the
prompt's rules 3-4. Real answers vary with the model's verbosity; the cap stays
:data:`TOKENS_PER_ITEM`."""
EXPECTED_TOKENS_BASE: Final = 10
"""ESTIMATE: completion tokens of the answer's outer frame (``{"items": [...]}``)."""

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


class ValidatingChatModel(ChatModel, Protocol):
    """A :class:`~governor.core.ports.ChatModel` whose ``complete`` takes a ``validate`` hook: a
    callable given the parsed answer that raises ``ValueError``/``JudgeOutputError`` to have
    it asked again within the model's retries, bypassing its cache
    (``governor.clients.chat.OpenAIChatModel``)."""

    def complete(
        self,
        messages: Sequence[Mapping[str, str]],
        *,
        json_schema: Mapping[str, Any] | None = None,
        max_tokens: int | None = None,
        validate: Callable[[Any], object] | None = None,
    ) -> str: ...


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


@dataclass(frozen=True)
class Slot:
    """Where an item of a run sits: document ``doc`` (index in the run), item ``item`` (index
    in that document's items)."""

    doc: int
    item: int


@dataclass(frozen=True)
class PlannedBatch:
    """One call: the prompt ``language`` and its entries in order; each entry is the item key
    (:func:`item_key`) with every slot that asked that exact item."""

    language: str
    entries: tuple[tuple[str, tuple[Slot, ...]], ...]


def item_key(item: JudgeItem) -> str:
    """What the model sees of ``item`` (its rendered block, without the per-call id) and the
    prompt language: two items with the same key get the same answer."""
    lang = language_of([item])
    block = render_messages([("c", item)], load_prompt(PROMPT_FILES[lang]))[1]["content"]
    return f"{lang}\x1f{block}"


class BatchPlanner:
    """Fills batches of up to ``batch_size`` distinct item keys as items arrive, one language
    per batch (the prompt is per language): :meth:`add` returns a batch the moment it is
    full (so its call can start while later items are still being checked), :meth:`flush`
    the partial ones in order of their language's first appearance.

    Raises:
        ValueError: ``batch_size`` < 1.
    """

    def __init__(self, batch_size: int) -> None:
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, got {batch_size}")
        self.batch_size = batch_size
        self._open: dict[str, list[str]] = {}

    def add(self, key: str, language: str) -> tuple[str, tuple[str, ...]] | None:
        """Add a (new, distinct) key; ``(language, keys)`` when that batch is now full."""
        batch = self._open.setdefault(language, [])
        batch.append(key)
        if len(batch) < self.batch_size:
            return None
        self._open[language] = []
        return language, tuple(batch)

    def flush(self) -> list[tuple[str, tuple[str, ...]]]:
        """The partial batches left, in order of their language's first appearance."""
        out = [(lang, tuple(keys)) for lang, keys in self._open.items() if keys]
        self._open = {}
        return out


def plan_batches(
    asks: Sequence[tuple[Slot, str, str]], batch_size: int
) -> tuple[PlannedBatch, ...]:
    """Calls for a whole run: ``asks`` lists ``(slot, key, language)`` in run order
    (documents in order, items in order); batches take up to ``batch_size`` distinct keys,
    filled across documents (:class:`BatchPlanner`); a key seen before — in the same batch
    or an earlier one — adds its slot to that entry instead of taking room. Batches are in
    the order they fill, then the partial ones. Pure and deterministic (the order in which
    :meth:`LlmJudge.judge_many` sends them).

    Raises:
        ValueError: ``batch_size`` < 1.
    """
    planner = BatchPlanner(batch_size)
    where: dict[str, list[Slot]] = {}
    batches: list[tuple[str, tuple[str, ...]]] = []
    for slot, key, lang in asks:
        if key in where:
            where[key].append(slot)
            continue
        where[key] = [slot]
        full = planner.add(key, lang)
        if full is not None:
            batches.append(full)
    batches += planner.flush()
    return tuple(
        PlannedBatch(lang, tuple((k, tuple(where[k])) for k in keys)) for lang, keys in batches
    )


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


def _source(item: JudgeItem) -> tuple[str, ...]:
    """The trusted texts a quote may come from: the cited 款/项 and the whole article."""
    record_text = item.record.text if item.record is not None else ""
    return tuple(t for t in (item.authority.text, record_text) if t)


def statement(axis: Axis, item: JudgeItem, th: Thresholds) -> str:
    """What the draft states that the quote must agree with, or ``""``.

    Fidelity: the description (:func:`verifiers.fidelity.described_text`: else a claim that
    restates the provision), else the quotations. Applicability: the claim, when it is a
    proposition of its own (:func:`verifiers.applicability.proposition`: not a remote
    conclusion of a 法律依据 list, not generic); a question cannot be "covered" by a quote.
    """
    if axis == "fidelity":
        record_text = item.record.text if item.record is not None else item.authority.text
        pool, _ = list_pool(item, record_text)
        desc = fid_mod.described_text(item, pool, th.fidelity_min_overlap)
        return desc or " ".join(item.citation.quotes)
    _, claim, lenient = app_mod.proposition(item)
    return "" if lenient else claim


def coverage(
    text: str,
    quote: str,
    item: JudgeItem,
    idf: BigramIdf | None = None,
    *,
    own_part: bool = False,
) -> float:
    """Share of ``text``'s content bigrams (:func:`verifiers.textsim.bigrams`) that ``quote``
    holds, in [0, 1], IDF-weighted like the offline judge's overlap
    (:func:`verifiers.textsim.weighted_containment`; plain share without ``idf``); 0.0 when
    nothing is left to cover. With the whole provision as the quote this *is* the offline
    overlap, so the offline thresholds apply unchanged.

    For a citation in a list (``item.sibling_texts``) the statement is shared by every member
    (the offline judge compares it with all their texts together), so bigrams only the other
    members hold are left out — they are theirs to cover; with ``own_part`` only the bigrams
    this provision holds are counted (what this member's quote can agree with; whether the
    list as a whole states the statement is the offline judge's pooled check).
    """
    want = set(bigrams(text))
    if item.sibling_texts:
        own = set().union(*(bigrams(t) for t in _source(item)))
        if own_part:
            want &= own
        else:
            sib = item.sibling_texts
            held = (
                sib.hold
                if isinstance(sib, Siblings)
                else set().union(*(bigrams(t) for t in sib)).__contains__
            )
            want = {b for b in want if b in own or not held(b)}  # want -= theirs - own
    if not want:
        return 0.0
    have = bigrams(quote)
    weight = idf.weight if idf is not None else (lambda _b: 1.0)
    # fsum: exact, so the same in every process whatever the set order (hash seed)
    total = math.fsum(weight(b) for b in want)
    return math.fsum(weight(b) for b in want if b in have) / total


def disagreement(
    axis: Axis, item: JudgeItem, quote: str, th: Thresholds, idf: BigramIdf | None = None
) -> str:
    """Why ``quote`` (already verified to be in the source) does not support a pass on
    ``axis`` (module docstring, rule 4b), or ``""`` when it does. ``idf``: the cited
    instrument version's table (as the offline judge weighs overlap)."""
    said = statement(axis, item, th)
    if not said:
        return ""
    cov = coverage(said, quote, item, idf, own_part=True)
    bar = th.fidelity_min_overlap if axis == "fidelity" else th.applicability_min_relevance
    if cov < bar:
        what = "description" if axis == "fidelity" else "claim"
        return (
            f"the judge's quote holds {cov:.0%} of what the {what} states (needs {bar:.0%}): "
            "it does not show that the source says what the report says"
        )
    if axis == "fidelity":
        for mm in number_mismatches(said, quote):
            return f"the judge's quote says {mm.expected.text}; the report says {mm.found.text}"
    for flip in modality_flips(said, quote):
        return (
            f"the judge's quote says {flip.expected.word}; the report says "
            f"{flip.found.word}{flip.found.predicate}"
        )
    return dropped_condition(axis, item, said, quote)


def _unlimited(said: str, text: str) -> str:
    """A limit of ``text`` (its scope: 已满两周岁的子女…) that ``said`` states universally
    (一律, 所有, 任何…) without, or ``""``."""
    if UNIVERSAL.search(said) is None or UNIVERSAL.search(text) is not None:
        return ""
    for m in SCOPE.finditer(text):
        scope = m.group(0).rstrip("，,")
        if not contains_phrase(scope, said):
            return scope
    return ""


def dropped_condition(axis: Axis, item: JudgeItem, said: str, quote: str) -> str:
    """Why ``said`` — the statement as the draft makes it — drops a condition that the quote
    or the cited provision states, or ``""`` (module docstring, rule 4c).

    A quote proves that the source says something, not that it says what the draft says: a
    judge quoting the whole of 民法典第五百八十四条 for 「可以要求赔偿全部损失」 quotes the
    foreseeability 但书 the statement leaves out. Checked against the quote and against the
    cited 款/article (a quote that stops before the 但书 drops it too), with the offline
    judge's own structural tests (:mod:`verifiers.fidelity` checks 6–8,
    :func:`verifiers.applicability.check_applicability`'s overreach): fidelity — a 但书 whose
    rule the statement restates (:data:`verifiers.fidelity.RESTATES_RULE`) with no exception
    marker, a limit stated universally, a condition whose consequence is restated verbatim
    (:func:`verifiers.facts.dropped_conditions`); applicability — a limit stated universally
    (「子女一律由母亲直接抚养」 for 第一千零八十四条, whose rule is for 已满两周岁的子女…).
    Source of the rule: SPEC §3 (``partially_faithful``: omits an outcome-relevant condition;
    ``overextended``: the claim goes beyond the provision's scope).
    """
    cited = item.authority.text or (item.record.text if item.record is not None else "")
    for text in dict.fromkeys(t for t in (quote, cited) if t):
        where = "the judge's quote" if text == quote else "the cited provision"
        scope = _unlimited(said, text)
        if scope:
            return f"the report states universally what {where} limits: 「{scope[:60]}」"
        if axis != "fidelity":
            continue
        if not mentions_exception(said):
            for p in provisos(text):
                if (
                    p.rule
                    and containment(p.rule, said) >= fid_mod.RESTATES_RULE
                    and not fid_mod.restates_another_sentence(said, p, text)
                ):
                    return f"the report states the rule of {where} but drops its 但书: 「{p.text[:60]}」"
        for dc in dropped_conditions(said, text, also_said=item.citation.claim):
            return (
                f"the report restates 「{dc.consequence}」 of {where} but omits its condition "
                f"「{dc.condition[:60]}」"
            )
    return ""


FINDINGS: Final[Mapping[Axis, frozenset[str]]] = {
    "fidelity": frozenset({"partially_faithful"}),
    "applicability": frozenset({"overextended"}),
}
"""Offline labels that are deterministic findings — a 但书, condition or limit of the source
that the statement drops, a universal claim on a limited provision (the structural checks of
:mod:`verifiers.fidelity` 6–8, :mod:`verifiers.conditions` and the applicability overreach),
not an overlap threshold: an LLM answer may lower them, never lift them (module docstring,
rule 5)."""

OVERRULE: Final[Mapping[Axis, float]] = {
    "fidelity": fid_mod.VERBATIM,
    "applicability": app_mod.RESTATES,
}
"""Coverage of the statement by the quote needed to lift an offline score-0 label above
``partially_*`` (module docstring, rule 5)."""


@dataclass
class LlmJudge:
    """Fidelity/applicability by a chat model, behind the offline judge's hard checks.

    Attributes:
        chat: the chat model (``OpenAIChatModel`` with cache, budget, retries and the
            ``validate`` hook).
        store: the authority store.
        retriever: retrieval for the offline checks and suggestions.
        thresholds: offline thresholds.
        batch_size: citations per call.
        concurrency: calls in flight at once (a thread pool of this size, at most one
            thread per batch).
        name: recorded in verdicts (``llm:<model>``).
        failures: batches that ended as ``unknown`` (endpoint, budget or output failures).
        failed_items: items those batches left ``unknown`` (score 0.0, never a pass).
        batches: calls planned so far (cache hits included).
        waited_s: wall seconds spent waiting for answers after the last item was checked
            offline (what the calls add to a run: the calls overlap the checks before it).
    """

    chat: ValidatingChatModel
    store: AuthorityStore
    retriever: Retriever
    thresholds: Thresholds = field(default_factory=Thresholds)
    batch_size: int = 8
    concurrency: int = 4
    name: str = ""
    failures: int = 0
    failed_items: int = 0
    batches: int = 0
    waited_s: float = 0.0
    offline: OfflineJudge | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _memo: dict[str, ItemAnswer] = field(default_factory=dict, repr=False)
    """Valid answers of this run by :func:`item_key`: an item asked before (in a prefetch over
    many documents, or an earlier round) is not asked again. Failures are not kept."""

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
        """Judge ``items`` (order preserved); see the module docstring for the rules.

        Raises:
            EndpointUnreachableError: the endpoint could not be connected to at all.
        """
        return self.judge_many([items])[0]

    def judge_many(self, docs: Sequence[Sequence[JudgeItem]]) -> list[list[JudgeOutcome]]:
        """Judge the items of several documents with batches filled across them (the order of
        :func:`plan_batches`), the calls run concurrently (at most ``concurrency`` in flight).
        Items are checked offline one by one and a batch's call starts as soon as it is full,
        so the calls overlap the checks of the items after them; an item answered earlier in
        this run (same :func:`item_key`) is not asked again.

        Args:
            docs: per document, its items.

        Returns:
            per document, one outcome per item, in order. An item of a batch that failed
            (endpoint, budget, invalid answer) or that the answer missed is ``unknown``
            (score 0.0) with the reason in its rationale, and counted in ``failed_items``.

        Raises:
            EndpointUnreachableError: the endpoint could not be connected to at all (and the
                other fatal endpoint errors: 401/403/404); calls not yet started are cancelled.
        """
        assert self.offline is not None
        idf: IdfCache | None = self.offline.idf
        offline: list[list[JudgeOutcome]] = []
        hard: list[list[tuple[AxisOutcome | None, AxisOutcome | None]]] = []
        asked: dict[str, list[Slot]] = {}  # item key → every slot that asked it
        first: dict[str, JudgeItem] = {}
        known: dict[str, ItemAnswer | str] = {}  # answers by key (memo, then the calls)
        planner = BatchPlanner(self.batch_size)
        sent: list[tuple[tuple[str, ...], Future[dict[int, ItemAnswer | str]]]] = []
        with ThreadPoolExecutor(
            max_workers=self.concurrency, thread_name_prefix="citegov-judge"
        ) as pool:

            def send(keys: tuple[str, ...]) -> None:
                batch = list(enumerate(first[k] for k in keys))
                sent.append((keys, pool.submit(self._ask, batch)))

            try:
                # Offline checks item by item; a batch's call starts as soon as it is full,
                # so the calls overlap the checks of the items after them.
                for d, items in enumerate(docs):
                    offline.append([])
                    hard.append([])
                    for i, it in enumerate(items):
                        off = self.offline.judge_one(it)
                        offline[d].append(off)
                        hf, ha = self._hard(it, off, idf)
                        hard[d].append((hf, ha))
                        if hf is not None and ha is not None:
                            continue
                        key = item_key(it)
                        if key in asked:
                            asked[key].append(Slot(d, i))
                            continue
                        asked[key] = [Slot(d, i)]
                        with self._lock:
                            memo = self._memo.get(key)
                        if memo is not None:
                            known[key] = memo
                            continue
                        first[key] = it
                        full = planner.add(key, language_of([it]))
                        if full is not None:
                            send(full[1])
                for _lang, keys in planner.flush():
                    send(keys)
                waiting = time.perf_counter()
                for keys, fut in sent:
                    got = fut.result()
                    for n, key in enumerate(keys):
                        known[key] = got[n]
                with self._lock:
                    self.waited_s += time.perf_counter() - waiting
            except BaseException:
                for _, fut in sent:
                    fut.cancel()
                raise
        for key, answer in known.items():
            if not isinstance(answer, str) and key in first:
                with self._lock:
                    self._memo[key] = answer
        answers = {slot: known[key] for key, slots in asked.items() for slot in slots}
        with self._lock:
            self.batches += len(sent)
            self.failed_items += sum(isinstance(a, str) for a in answers.values())
        out: list[list[JudgeOutcome]] = []
        for d, items in enumerate(docs):
            row = []
            for i, it in enumerate(items):
                hf, ha = hard[d][i]
                ans = answers.get(Slot(d, i))
                row.append(
                    JudgeOutcome(
                        fidelity=hf or self._merge("fidelity", it, offline[d][i].fidelity, ans),
                        applicability=ha
                        or self._merge("applicability", it, offline[d][i].applicability, ans),
                    )
                )
            out.append(row)
        return out

    def _hard(
        self, it: JudgeItem, off: JudgeOutcome, idf: IdfCache | None
    ) -> tuple[AxisOutcome | None, AxisOutcome | None]:
        """The final (deterministic or NA) outcome per axis, None where the model is asked
        (module docstring, rule 1)."""
        th = self.thresholds
        hf = fid_mod.hard_failure(it, self.retriever, self.store, th, idf)
        ha = app_mod.hard_failure(it, self.retriever, self.store, th, idf)
        if hf is None and off.fidelity.result.label == "not_assessed" and not _states(it, th):
            hf = off.fidelity  # nothing stated: NA is final
        if ha is None and off.applicability.result.label == "skipped":
            ha = off.applicability
        return hf, ha

    # ------------------------------------------------------------------ internals

    def _idf(self, item: JudgeItem) -> BigramIdf | None:
        idf = self.offline.idf if self.offline is not None else None
        return idf.of(item.record) if idf is not None else None

    def _ask(self, batch: Sequence[tuple[int, JudgeItem]]) -> dict[int, ItemAnswer | str]:
        """One call for ``batch``; per index the parsed answer or a failure reason.

        Raises:
            EndpointUnreachableError: from the chat model (not a judge failure).
        """
        prompt = load_prompt(PROMPT_FILES[language_of([it for _, it in batch])])
        ids = [(f"c{n + 1}", it) for n, (_, it) in enumerate(batch)]
        messages = render_messages(ids, prompt)
        wanted = [cid for cid, _ in ids]
        last: list[JudgeAnswer] = []  # the last schema-valid answer, even if it missed items

        def validate(answer: Any) -> None:
            parsed = JudgeAnswer.model_validate(answer)  # labels outside the lists: ValueError
            last[:] = [parsed]
            have = {a.id for a in parsed.items}
            missing = [cid for cid in wanted if cid not in have]
            if missing:
                raise JudgeOutputError(f"the answer has no entry for {', '.join(missing[:5])}")

        try:
            raw = self.chat.complete(
                messages,
                json_schema=ANSWER_SCHEMA,
                max_tokens=TOKENS_BASE + TOKENS_PER_ITEM * len(batch),
                validate=validate,
                **self._expected(len(batch)),
            )
            parsed = JudgeAnswer.model_validate(json.loads(raw))
        except FATAL_ENDPOINT_ERRORS:
            raise
        except (EndpointError, BudgetExceededError, JudgeOutputError) as exc:
            with self._lock:
                self.failures += 1
            why = f"judge call failed: {type(exc).__name__}: {exc}"[:300]
            if not last:
                return {i: why for i, _ in batch}
            parsed = last[0]  # retries spent: keep what the last valid answer did answer
        except (ValueError, ValidationError) as exc:
            with self._lock:
                self.failures += 1
            why = f"judge answer did not validate ({type(exc).__name__})"
            return {i: why for i, _ in batch}
        by_id = {a.id: a for a in parsed.items}
        out: dict[int, ItemAnswer | str] = {}
        for (i, _), (cid, _) in zip(batch, ids, strict=True):
            out[i] = by_id.get(cid) or f"judge answer has no entry for {cid}"
        return out

    def _expected(self, n: int) -> dict[str, int]:
        """``expected_tokens`` for a batch of ``n`` items, when the chat model takes it."""
        if "expected_tokens" not in _parameters(self.chat.complete):
            return {}
        return {"expected_tokens": EXPECTED_TOKENS_BASE + EXPECTED_TOKENS_PER_ITEM * n}

    def _merge(
        self, axis: Axis, item: JudgeItem, off: AxisOutcome, ans: ItemAnswer | str | None
    ) -> AxisOutcome:
        if ans is None or isinstance(ans, str):
            why = ans or "not judged"
            return AxisOutcome(_result(axis, "unknown", why, self.name))
        a = ans.fidelity if axis == "fidelity" else ans.applicability
        label: str = a.label
        rationale = a.rationale.strip() or "(no rationale)"
        source = "\n".join(_source(item))
        evidence: tuple[Evidence, ...] = ()
        unsupported = ""
        if score_for(axis, label) is None:
            # The offline judge established that there is content/a claim to judge: an NA
            # answer would pass without evidence, so it is treated as an unsupported pass.
            unsupported = f"the judge declined to assess ({a.label})"
        elif label == PASSES[axis]:
            if verify_quote(a.quote, source):
                evidence = _quote_evidence(item, a.quote)
                unsupported = disagreement(axis, item, a.quote, self.thresholds, self._idf(item))
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
        elif label == PASSES[axis] and off.result.score == 0.0:
            said = statement(axis, item, self.thresholds)
            cov = coverage(said, a.quote, item, self._idf(item)) if said else 0.0
            if cov < OVERRULE[axis]:
                label = DOWNGRADE[axis]
                rationale = (
                    f"the offline check found {off.result.label} ({off.result.rationale}); the "
                    f"judge's quote covers {cov:.0%} of the statement, not the content that "
                    f"check objected to: {a.label} capped at {label}. Judge: {rationale}"
                )
        if off.result.label in FINDINGS[axis] and label != off.result.label:
            if (score_for(axis, label) or 0.0) >= (off.result.score or 0.0):
                return AxisOutcome(
                    off.result.model_copy(
                        update={
                            "rationale": f"{off.result.rationale} (offline finding kept: the "
                            f"judge's {a.label} does not lift it)"[:500]
                        }
                    ),
                    codes=off.codes,
                    suggestion=off.suggestion,
                )
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


@lru_cache(maxsize=32)
def _parameters(func: Callable[..., Any]) -> frozenset[str]:
    """Names of ``func``'s parameters (a chat model injected by a test may not take
    ``expected_tokens``)."""
    try:
        return frozenset(inspect.signature(func).parameters)
    except (TypeError, ValueError):
        return frozenset()


def _fails(score: float | None) -> bool:
    """True for a failing score (< 1.0); NA (None) is not a failure."""
    return score is not None and score < 1.0


def _states(item: JudgeItem, th: Thresholds) -> bool:
    """True when the report says something about the provision's content."""
    record_text = item.record.text if item.record is not None else item.authority.text
    pool, _ = list_pool(item, record_text)
    return bool(fid_mod.described_text(item, pool, th.fidelity_min_overlap) or item.citation.quotes)


def make_llm_judge(
    config: Config,
    store: AuthorityStore,
    retriever: Retriever,
    *,
    dry_run: bool = False,
    chat: ValidatingChatModel | None = None,
    environ: Mapping[str, str] | None = None,
) -> LlmJudge:
    """The LLM judge for ``config`` (``llm_base_url``, ``llm_model``, key from the variable
    named by ``llm_api_key_env``, ``llm_batch_size``, ``llm_concurrency``, ``llm_rpm``/``llm_tpm``,
    budgets, ``cache_dir``).

    Args:
        dry_run: count calls and estimated tokens without sending (answers become unknown).
        chat: a ready chat model (tests); default an ``OpenAIChatModel`` from ``config``.
        environ: environment for the key (default ``os.environ``).

    Raises:
        ConfigError: no endpoint/model configured, an ``llm_base_url`` that is not an
            http(s) URL with a host, or the key variable is unset.
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
        concurrency=config.llm_concurrency,
    )
