"""Frozen run configuration: defaults < TOML file < environment < explicit overrides (CLI).

Layer 0. Environment variables are ``CITEGOV_<FIELD>`` (upper case). The config file is TOML
with the same field names at top level (``citegov.toml`` in the working directory, or the
path in ``CITEGOV_CONFIG``). API keys are never stored here: only the *name* of the
environment variable that holds the key (``llm_api_key_env``), so a config dump never leaks it.
"""

from __future__ import annotations

import itertools
import os
import tomllib
from datetime import date
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from governor.core.errors import ConfigError, first_problem

Strategy = Literal["none", "existence", "efa"]
JudgeBackend = Literal["offline", "llm"]
STRATEGIES: tuple[str, ...] = ("none", "existence", "efa")
EditPolicy = Literal["annotate", "proven", "aggressive"]
EDIT_POLICIES: tuple[str, ...] = ("annotate", "proven", "aggressive")
JUDGES: tuple[str, ...] = ("offline", "llm")


def interpolate(knots: tuple[tuple[float, float], ...], raw: float) -> float:
    """Piecewise-linear map through ``knots`` (``(raw, probability)`` sorted by raw; constant
    outside them); ``raw`` itself when there are no knots."""
    if not knots:
        return raw
    if raw <= knots[0][0]:
        return knots[0][1]
    for (x0, y0), (x1, y1) in itertools.pairwise(knots):
        if raw <= x1:
            return y0 if x1 == x0 else y0 + (y1 - y0) * (raw - x0) / (x1 - x0)
    return knots[-1][1]


def cache_root() -> Path:
    """citegov's on-disk cache folder: ``$CITEGOV_CACHE_DIR``, else ``~/.cache/citegov``.

    Everything kept there (jieba's dictionary, the decompressed store, BM25 indexes, a table
    of numerals, LLM answers) is an optimisation that is rebuilt when missing.
    """
    base = os.environ.get("CITEGOV_CACHE_DIR")
    return Path(base) if base else Path.home() / ".cache" / "citegov"


CANDIDATE_SOURCE = (
    "citegov calibrate labels_lawbench_3-2.jsonl --fit-group GPT-3.5-turbo-0613 (offline judge, "
    "BM25; issue 22 round 2, features incl. asked_unmet, candidates the citation's own assertion "
    "rules out left out): logistic map fitted on 215 GPT-3.5 candidates; naming threshold 0.70, "
    "between the lowest probability at which GPT-3.5 named candidates were right >= 90 % at every "
    "higher value in-sample (0.66) and two-fold out-of-fold (0.75); at 0.70: GPT-3.5 109/117 "
    "right (93.2 %); checked on the held-out models: chatglm2-6b 211/228 (92.5 %), qwen-7b 82/96 "
    "(85.4 %), pooled 293/324 (90.4 %)"
)
"""Where the candidate map and its naming threshold come from (issue 22 item 1)."""


class Thresholds(BaseModel):
    """Decision thresholds of the offline judges (scores in [0, 1]).

    ``source`` says where the values come from (defaults: chosen by hand on the GPT-3.5 dev
    split of LawBench 3-2; a file written by ``citegov calibrate --write-thresholds`` names the
    label set, the fitting group and the held-out ECE). ``calibration`` maps a raw score to a
    probability per kind (``existence``, ``fidelity``, ``applicability``, ``suggestion``), as
    ``(raw, probability)`` knots fitted by ``citegov calibrate`` (isotonic or Platt); see
    :meth:`probability`.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    source: str = "defaults (hand-set on the GPT-3.5 dev split of LawBench 3-2)"
    calibration: dict[str, tuple[tuple[float, float], ...]] = Field(default_factory=dict)

    def probability(self, kind: str, raw: float) -> float | None:
        """The calibrated probability of ``raw`` for ``kind``; None when no map is configured."""
        knots = self.calibration.get(kind)
        return None if not knots else interpolate(knots, raw)

    fidelity_min_overlap: float = Field(0.35, ge=0, le=1)
    """Below this lexical overlap with the cited provision a description is not faithful."""
    fidelity_other_margin: float = Field(0.15, ge=0, le=1)
    """Another provision must match the description by this margin to be 'misdescribed'."""
    applicability_min_relevance: float = Field(0.12, ge=0, le=1)
    """Below this claim–provision relevance the citation is 'irrelevant'."""
    applicability_partial_relevance: float = Field(0.25, ge=0, le=1)
    """Below this (and above the minimum) the citation only 'partially_supports'."""
    whole_pin_containment: float = Field(0.8, ge=0, le=1)
    """A law cited whole for a rule with no number (「根据《劳动法》，劳动者有权…」): the share of
    the claim's words an article of the law must hold to be named as its pin (A 'supports');
    below it the claim is not assessed. Fitted on dev LawBench 3-2/3-8 answers (first 100 keys
    of each of the six files, 76 numberless whole-law claims, pins read against the statute
    text): every pin at ≥ 0.80 is the article stating the claim (土地管理法第62条, 民法典第676条,
    社会保险法第60条 …); the first wrong pin is at 0.77 (食品安全法第33条 for 「不得生产经营不符合
    食品安全标准的食品」), a fragment pinned at 0.73."""
    whole_pin_min_chars: int = Field(16, ge=0)
    """…and the claim must have at least this many characters: a short generic clause is held by
    many long articles (「用人单位应当与劳动者协商一致」, 14 characters, is 0.8-contained in
    劳动合同法第46条, a list of severance cases). Fitted on the same dev claims: the shortest
    right pin there has 22 characters; checked on tests/test_whole_instrument_claims.py."""
    suggestion_min_score: float = Field(0.5, ge=0, le=1)
    """A suggestion is only offered (and used for repair) at or above this confidence."""
    candidate_weights: tuple[float, ...] = (
        -2.4469,
        5.7302,
        5.9429,
        0.1068,
        2.0053,
        1.0937,
        -0.583,
        -0.6264,
    )
    """The candidate map: logistic ``(bias, w per verifiers.suggest.CANDIDATE_FEATURES)`` giving
    the probability that a store-wide candidate is the provision an expert would cite (empty:
    the older two-feature confidence). Source in :data:`CANDIDATE_SOURCE`."""
    candidate_off_question_probability: float = Field(0.15, ge=0, le=1)
    """Probability of a failing citation's candidate found from the report's words when the
    store's best provision for the question is another one: its share right on the GPT-3.5
    answers of LawBench 3-2 (16 of 108; held out: chatglm2-6b 9 of 206, qwen-7b 11 of 131)."""
    candidate_name_probability: float = Field(0.7, ge=0, le=1)
    """A note names a store-wide candidate (「可能应为…（置信度…）」) at or above this calibrated
    probability; below, it says what is wrong without a name. Source in
    :data:`CANDIDATE_SOURCE`."""
    applicability_facts_cover: float = Field(0.12, ge=0, le=1)
    """A citation that states no proposition of its own (「本案应当适用《X》第N条」) fits the
    question's facts when they hold at least this IDF-weighted share of the conduct clause of
    one of its 款 (:func:`verifiers.applicability.facts_cover`). Source: fitted on the first 100 items
    of the LexEval 3_2 dev slice through the verifier (gold kept / wrong flagged: 0.2 → 41 % /
    98 %, 0.15 → 52 % / 96 %, 0.12 → 56 % / 95 %). Refitted (issue 21, 3_2 round) on the
    even-position half of all 497 3_2 items through the verifier: the lowest value whose
    wrong-candidate recall stays ≥ 0.90 (0.15 → gold kept 36 % / wrong flagged 95 % by cover
    alone; 0.12 → 45 % / 93 %; 0.11 → 48 % / 91 %; 0.12 taken for margin), checked on the odd
    half (whole verifier at 0.12: even 39.8 % / 90.1 %, odd 39.5 % / 90.4 %); checked with
    ``python -m benchmarks.bench_judgment``."""
    paraphrase_same_condition: float = Field(0.8, ge=0, le=1)
    """Share of bigrams a report's 「……的」 condition and the provision's must hold of each
    other to be the same condition (or the thing paid, for a payer comparison), so that their
    consequences are compared (:func:`verifiers.roles.paraphrase_parts`). Source: hand-set on
    the issue-21 cases (民法典第六百九十九条, 第五百七十七条, 工伤保险条例第三十七条: 1.0 on the
    condition stated); checked on dev LawBench 3-8 (GPT-3.5, Qwen: 200 + 150 answers, no new
    flag from it on a right citation)."""
    paraphrase_consequence_min: float = Field(0.25, ge=0, le=1)
    """A paraphrase that states a condition of the provision verbatim must hold at least this
    share of its consequence's bigrams in the provision's consequence for that condition (or
    in the article), else the consequence is changed: ``misdescribed``
    (:func:`verifiers.roles.paraphrase_parts`). Source: hand-set on the issue-21 cases
    (民法典第六百九十九条 「平均分摊」: 0.0; right paraphrases ≥ 0.4), checked on the dev
    LawBench 3-8 answers (reading_check) for new flags."""


class Config(BaseModel):
    """All knobs of a citegov run. Immutable; build with :func:`load_config`."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    strategy: Strategy = "efa"
    judge: JudgeBackend = "offline"
    strict: bool = False
    edit_policy: EditPolicy = "proven"
    """What may change the report's words (``governor.revision.policy``): ``proven`` (default)
    changes words only with proof, ``annotate`` never changes them (notes only),
    ``aggressive`` is the pre-policy behaviour kept for the ablation."""
    max_rounds: int = Field(2, ge=1, le=10)
    max_chars: int = Field(2_000_000, ge=1)
    max_citations: int = Field(2_000, ge=1)
    """Most citations one draft may hold in ``citegov verify``/``revise`` and a batch: a draft
    over it is refused with an error naming the count (verifying cost grows with citations;
    the service's own limit is ``ServiceSettings.max_citations``, 400 for one request). Not
    part of a batch's settings fingerprint (it changes which drafts run, not their outputs)."""
    as_of: date | None = None
    store_path: Path | None = None
    index_dir: Path | None = None
    chroma_url: str | None = None
    """URL of a chroma server (``chroma run``) holding the semantic index; None = local ``index_dir``."""
    cache_dir: Path = Path.home() / ".cache" / "citegov"
    embedder: str = "use"
    retrieval: Literal["bm25", "hybrid"] = "bm25"
    llm_base_url: str | None = None
    llm_model: str | None = None
    llm_api_key_env: str = "OPENAI_API_KEY"
    llm_timeout_s: float = Field(60.0, gt=0)
    llm_max_retries: int = Field(4, ge=0)
    llm_max_calls: int = Field(1000, ge=0)
    llm_max_tokens: int = Field(2_000_000, ge=0)
    llm_batch_size: int = Field(8, ge=1)
    """Citations per judge call; batches are filled across the documents of a run."""
    llm_concurrency: int = Field(4, ge=1, le=64)
    """Judge calls in flight at once (a bounded thread pool)."""
    llm_rpm: float | None = Field(None, gt=0)
    """Requests per minute allowed to the endpoint (None: no client-side limit)."""
    llm_tpm: float | None = Field(None, gt=0)
    """Tokens per minute (prompt + expected completion) allowed (None: no limit)."""
    case_store: Path | None = None
    """JSONL file of US cases (volume, reporter, page, case_name) for US existence checks."""
    courtlistener_url: str | None = None
    """CourtListener base URL; when set, US cases are looked up there (token from
    ``COURTLISTENER_TOKEN``)."""
    thresholds: Thresholds = Thresholds()


_ENV_PREFIX = "CITEGOV_"


def _from_env(environ: dict[str, str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in Config.model_fields:
        key = _ENV_PREFIX + name.upper()
        if key in environ and name != "thresholds":
            out[name] = environ[key]
    return out


def load_config(
    file: Path | None = None,
    overrides: dict[str, Any] | None = None,
    environ: dict[str, str] | None = None,
) -> Config:
    """Build a :class:`Config` from defaults < file < environment < ``overrides``.

    Args:
        file: TOML file; ``None`` uses ``$CITEGOV_CONFIG`` or ``./citegov.toml`` if present.
        overrides: explicit values (e.g. CLI flags); ``None`` values are ignored.
        environ: environment mapping (defaults to ``os.environ``).

    Raises:
        ConfigError: the file is unreadable/invalid TOML or a value fails validation.
    """
    env = dict(os.environ if environ is None else environ)
    data: dict[str, Any] = {}
    path = file or (Path(env["CITEGOV_CONFIG"]) if env.get("CITEGOV_CONFIG") else None)
    if path is None and Path("citegov.toml").is_file():
        path = Path("citegov.toml")
    if path is not None:
        try:
            data.update(tomllib.loads(path.read_text(encoding="utf-8")))
        except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ConfigError(
                f"config file {path} could not be read ({exc}); fix the TOML or pass another --config"
            ) from exc
    data.update(_from_env(env))
    data.update({k: v for k, v in (overrides or {}).items() if v is not None})
    try:
        return Config.model_validate(data)
    except ValidationError as exc:
        loc, msg = first_problem(exc)
        raise ConfigError(
            f"invalid config value for '{loc}': {msg} (from {path or 'environment/flags'});"
            " see `citegov --help` for allowed values"
        ) from None
