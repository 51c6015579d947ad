"""Frozen domain types shared by every layer (layer 0: imports nothing from citegov).

Conventions (SPEC §2, STYLE 1-2):
* every model is frozen with ``extra="forbid"``; collections are tuples;
* a :class:`Span` is a half-open ``[start, end)`` pair of *character* offsets into the text
  exactly as the user gave it (never into a normalised copy);
* scores are floats in ``[0, 1]``; ``None`` means "not applicable" (NA), which the trust
  formula counts as 1.0 (SPEC §3).
"""

from __future__ import annotations

import hashlib
from datetime import date
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator


class Frozen(BaseModel):
    """Base for all domain objects: immutable, no unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class Span(Frozen):
    """Half-open character interval ``[start, end)`` into the input text.

    Raises:
        ValueError: if ``start < 0`` or ``end < start``.
    """

    start: int = Field(ge=0)
    end: int = Field(ge=0)

    @model_validator(mode="after")
    def _ordered(self) -> Span:
        if self.end < self.start:
            raise ValueError(f"span end {self.end} is before start {self.start}")
        return self

    def slice(self, text: str) -> str:
        """Return ``text[start:end]``."""
        return text[self.start : self.end]

    def overlaps(self, other: Span) -> bool:
        """True when the two half-open intervals share at least one character."""
        return self.start < other.end and other.start < self.end

    def __len__(self) -> int:
        return self.end - self.start


CitationKind = Literal[
    "statute",
    "judicial_interpretation",
    "regulation",
    "rule",
    "guiding_case",
    "case_number",
    "document_number",
    "us_case",
    "us_statute",
]

Level = Literal["宪法", "法律", "行政法规", "司法解释", "部门规章", "地方性法规", "案例", "其他"]
"""Hierarchy level of an instrument, highest first (PRC 立法法 ranks; 司法解释 sits beside 法律
as an interpretation of it, but it is not a 法律 and may not be cited as one)."""


GapKind = Literal[
    "us_case_not_extracted",
    "us_case_no_lookup",
    "us_case_lookup_down",
    "us_statute",
    "foreign_law",
    "outside_store",
    "version_not_in_store",
    "record_not_in_store",
    "after_horizon",
    "no_pin",
]
"""Why an ``unverifiable`` citation could not be checked (SPEC §10: nothing passes silently):
US cases with no case lookup configured, or with one that failed; US statutes (no US code in
the store); foreign law; a PRC instrument outside the store's coverage (local, departmental,
technical); a version of a law older than the store's; a 案号, 文号 or guiding case the store
does not list; ``us_case_not_extracted``: reporter citations left unread because eyecite (the
``us`` extra) is not installed; ``after_horizon``: a national instrument the store lacks, cited
in a report dated after the store's horizon or itself possibly newer than it (issue 24 item 4);
``no_pin``: an instrument cited whole, with no article, for what the report says: its
existence was checked, not what it is said to hold (said, but it does not fail ``--fail-on``;
issue 21: what cannot be checked is said)."""


class USParts(Frozen):
    """Reporter/statute fields of a US citation (as parsed by eyecite, or by
    :data:`governor.text.regexes.US_CODE_RE` for the United States Code).

    For a U.S.C. citation ``title`` and ``section`` are the title and section number,
    ``pin_cite`` the subsection chain (``(b)(1)``), ``appendix`` marks the title's appendix
    (``50 U.S.C. app. § 5``: another provision than ``50 U.S.C. § 5``) and ``note`` a
    statutory note printed under the section (``42 U.S.C. § 1983 note``).
    """

    volume: str | None = None
    reporter: str | None = None
    page: str | None = None
    pin_cite: str | None = None
    year: str | None = None
    court: str | None = None
    case_name: str | None = None
    plaintiff: str | None = None
    defendant: str | None = None
    title: str | None = None
    section: str | None = None
    appendix: bool = False
    note: bool = False


AssertionRole = Literal[
    "quotation",
    "paraphrase",
    "application",
    "definition",
    "procedure",
    "reference",
    "range",
    "whole_instrument",
]
"""What a citation's words do (issue 21): present the provision's text (``quotation``), say what
it says (``paraphrase``; ``definition`` and ``procedure`` are paraphrases of a definitional or
procedural rule), apply it to facts (``application``: 构成X罪, 可以请求…), cite it with nothing
stated (``reference``: 依照…之规定，判决如下), span several articles (``range``: 第X条至第Y条) or
cite a whole law or chapter for a specific rule (``whole_instrument``)."""


class AssertedNumber(Frozen):
    """A number with its unit as the report writes it (「十五天」, 「千分之五」, 「24%」), with
    its span in the text the citations index."""

    text: str
    span: Span | None = None


class Assertion(Frozen):
    """What the report asserts with one citation, read once (issue 21;
    :mod:`governor.citations.assertion`) and used by every judge.

    Attributes:
        scope: the words that belong to this citation (the quotation it introduces, the clause or
            sentence it stands in, a following sentence linked by 该条/上述/此), as a span into
            the text; None when no words attach to it.
        text: those words, with the citation itself and skipped asides cut out.
        role: what the words do (:data:`AssertionRole`); None when unreadable (see ``reason``).
        actor: who must, may or pays (由用人单位支付 → 用人单位); None when not stated.
        modality: the modal word (应当/可以/不得/有权/…); None when none.
        polarity: ``negative`` when the consequence is negated (不/未/无/不得…).
        conditions: the 「……的，」 / 如果… clauses, in text order.
        consequence: what follows the conditions (the clause the modal governs), or ``""``.
        numbers: numbers with units, in text order.
        paragraph: the 款 the words belong to (the citation's, 1-based), None for the article.
        item: the 项 the words belong to (1-based), None when not given.
        linked: True when a following sentence joined by 该条/上述/此 is part of the scope.
        skipped: asides left out of the scope (「（见下文。）」, injected instructions).
        reason: why the assertion is unreadable or its role uncertain (``""`` when read).
        items: the items of a list the words introduce on the lines after them (「下列…：」
            then 「1. …」 a line each: :func:`governor.citations.listed.introduced_items`);
            empty when none.
        continued: the sentences right after the scope in the same paragraph that go on
            restating the provision (no citation, no case, no 因此/此外 between), joined by 「。」;
            ``""`` when none (:func:`governor.citations.assertion.continued_sentences`). Only
            the foreign-clause check reads them: a restatement of 劳动合同法第二十二条 whose next
            sentence is 第二十五条's rule.
    """

    scope: Span | None = None
    text: str = ""
    role: AssertionRole | None = None
    actor: str | None = None
    modality: str | None = None
    polarity: Literal["positive", "negative"] = "positive"
    conditions: tuple[str, ...] = ()
    consequence: str = ""
    numbers: tuple[AssertedNumber, ...] = ()
    paragraph: int | None = Field(default=None, ge=1)
    item: int | None = Field(default=None, ge=1)
    linked: bool = False
    skipped: tuple[Span, ...] = ()
    reason: str = ""
    items: tuple[str, ...] = ()
    continued: str = ""


def article_pin(article: str) -> str:
    """``第N条`` of an article key, an inserted article's suffix after 条 as the law writes it:
    ``"577"`` → ``第577条``, ``"276之一"`` → ``第276条之一`` (never ``第276之一条``)."""
    base, _, suffix = article.partition("之")
    return f"第{base}条" + (f"之{suffix}" if suffix else "")


def bracketed(title: str) -> str:
    """A title in 书名号, inner 《》 turned into 〈〉 as PRC drafting style requires:
    ``最高人民法院关于适用《中华人民共和国民法典》…的解释`` → ``《最高人民法院关于适用〈中华人民共和国民法典〉…的解释》``."""
    return "《" + title.replace("《", "〈").replace("》", "〉") + "》"


def citation_id(start: int, end: int, raw: str) -> str:
    """Stable id of a citation: first 12 hex chars of sha1 over ``"start:end:raw"``."""
    return hashlib.sha1(f"{start}:{end}:{raw}".encode()).hexdigest()[:12]


class Citation(Frozen):
    """One legal citation found in a report (SPEC §2).

    ``article`` is a string so that 之一 articles keep their suffix: ``"577"``, ``"133之一"``.
    ``paragraph`` (款) and ``item`` (项) are 1-based. ``antecedent`` holds the id of the
    citation that 同法/该法/本条/前款/Id. resolved to, when it was a back-reference.
    ``group`` is shared by citations written as one list or range (《民法典》第十条、第十一条;
    第十条至第十二条: a range yields its two endpoints) that share one description.
    ``claim`` is the local proposition the citation supports, with citation text removed;
    ``description`` is what the report says the authority says (may be empty); ``quotes`` are
    quoted spans inside the description. ``in_question`` marks a citation inside the question
    line the draft opens with (``问题：…《刑法》第17条…``): the asker's words, reported and
    verified but not scored or edited as the report's own claim.
    ``placeholder`` holds a pin written as a placeholder instead of a number
    (``《劳动合同法》第X条`` → ``"第X条"``; ``article`` is then None): an unfinished citation
    of no article, never read as a real one. ``article_range`` is ``(first, last)`` on both
    endpoints of a range of articles (第十条至第十二条 → ``("10", "12")`` on the citations of
    第十条 and of 第十二条, which share ``group``): the articles between are cited too.
    ``assertion`` is what the words assert, read once by
    :mod:`governor.citations.assertion` (issue 21).
    """

    id: str
    span: Span
    raw: str
    kind: CitationKind
    instrument: str | None = None
    instrument_as_written: str | None = None
    article: str | None = None
    paragraph: int | None = Field(default=None, ge=1)
    item: int | None = Field(default=None, ge=1)
    version_hint: str | None = None
    case_number: str | None = None
    document_number: str | None = None
    guiding_case: int | None = None
    antecedent: str | None = None
    group: str | None = None
    claim: str = ""
    claim_span: Span | None = None
    description: str = ""
    description_span: Span | None = None
    quotes: tuple[str, ...] = ()
    us: USParts | None = None
    in_question: bool = False
    placeholder: str | None = None
    article_range: tuple[str, str] | None = None
    assertion: Assertion | None = None
    """What the citation's words assert (role, scope, parts); None when not read (citations
    built by hand, US citations)."""

    @property
    def pin(self) -> str:
        """Human-readable pin cite, e.g. ``第577条第2款第1项``, ``第133条之一``."""
        parts = []
        if self.article:
            parts.append(article_pin(self.article))
        if self.paragraph:
            parts.append(f"第{self.paragraph}款")
        if self.item:
            parts.append(f"第{self.item}项")
        return "".join(parts)


class Authority(Frozen):
    """A provision (or whole instrument) in the authority store.

    ``version`` is the ISO date identifying the version (publication or amendment date);
    ``in_force_from``/``in_force_to`` bound the interval during which that version was in
    force (``in_force_to`` is exclusive, ``None`` = still in force as far as the store knows).
    ``text`` is the provision text (the cited 款/项 only when ``paragraph``/``item`` are set).
    """

    id: str
    instrument: str
    level: Level
    version: str | None = None
    in_force_from: date | None = None
    in_force_to: date | None = None
    status: Literal["in_force", "superseded", "repealed", "unknown"] = "in_force"
    article: str | None = None
    paragraph: int | None = None
    item: int | None = None
    path: tuple[str, ...] = ()
    text: str = ""
    successor: str | None = None
    source: str | None = None

    @property
    def label(self) -> str:
        """``《title》第N条第M款`` style label used in tables and repairs."""
        out = bracketed(self.instrument)
        if self.article:
            out += article_pin(self.article)
        if self.paragraph:
            out += f"第{self.paragraph}款"
        if self.item:
            out += f"第{self.item}项"
        return out


Axis = Literal["existence", "fidelity", "applicability"]

ExistenceLabel = Literal["exists", "partial", "repealed", "not_found", "unverifiable", "unknown"]
FidelityLabel = Literal["faithful", "partially_faithful", "misdescribed", "not_assessed", "unknown"]
ApplicabilityLabel = Literal[
    "supports",
    "partially_supports",
    "overextended",
    "contradicts",
    "irrelevant",
    "skipped",
    "unknown",
]

TaxonomyCode = Literal[
    "L1.1.1", "L1.1.2", "L1.1.3", "L1.1.4", "L1.2.2", "L1.2.3", "L1.3.2", "L2.1.5", "STALE"
]


class Evidence(Frozen):
    """A piece of evidence for a check: a quote from the source text with its location.

    ``span`` indexes ``Authority.text`` of the authority named by ``authority_id`` when set.
    """

    text: str
    authority_id: str | None = None
    span: Span | None = None


class CheckResult(Frozen):
    """Outcome of one axis check. ``score`` is None for NA labels (not_assessed, skipped)."""

    axis: Axis
    label: str
    score: float | None = Field(default=None, ge=0.0, le=1.0)
    rationale: str = ""
    evidence: tuple[Evidence, ...] = ()
    judge: str = "offline"
    fit: float | None = Field(default=None, ge=0.0, le=1.0)
    """Applicability of a provision applied to stated facts only: how well the facts meet it,
    in [0, 1], relative to the best-fitting provision of the store (1.0 when the facts name the
    charge or term it defines); graded where ``score`` is not (every ``supports`` scores 1.0),
    so candidates for the same facts can be ranked. None when no facts fit was measured
    (``verifiers.offence_fit``, ``verifiers.civil_fit``)."""


class Suggestion(Frozen):
    """A better authority found by the verifier, with its retrieval/match score in [0, 1].

    ``proof`` is empty unless the texts prove the suggestion (the measure that passed, e.g.
    for a repealed law's successor 「old text ≈ successor text: containment 0.96 ≥ 0.8」);
    a repair may change the report's words only on a proven suggestion (SPEC §5).
    """

    authority: Authority
    score: float = Field(ge=0.0, le=1.0)
    reason: str = ""
    proof: str = ""
    features: tuple[tuple[str, float], ...] = ()
    """The candidate's evidence as ``(name, value in [0, 1])`` pairs
    (``verifiers.suggest.CANDIDATE_FEATURES``; empty for suggestions not ranked store-wide)."""
    probability: float | None = Field(None, ge=0.0, le=1.0)
    """Calibrated probability that this is the provision an expert would cite (the fitted
    candidate map, ``Thresholds.candidate_weights``); None when no map applies."""


class Verdict(Frozen):
    """Verdict on one citation: the three axes plus derived trust and taxonomy (SPEC §3)."""

    citation: Citation
    existence: CheckResult
    fidelity: CheckResult
    applicability: CheckResult
    item_trust: float = Field(ge=0.0, le=1.0)
    excluded: bool = False
    taxonomy: tuple[TaxonomyCode, ...] = ()
    resolved: Authority | None = None
    suggestion: Suggestion | None = None
    judge: str = "offline"
    gap: GapKind | None = None

    @property
    def passes(self) -> bool:
        """Citation all-pass: E = F = A = 1 (NA counts as 1), not excluded."""
        return not self.excluded and self.item_trust >= 1.0


EditOp = Literal[
    "remove_citation",
    "renumber",
    "fix_granularity",
    "restore_proviso",
    "fix_number",
    "replace_repealed",
    "reanchor",
    "mark_unsupported",
    "rewrite_description",
    "mark_stale",
    "mark_overreach",
    "mark_misdescribed",
    "revert",
    "llm_rewrite",
    "regenerate",
    "annotate",
    "unquote",
]


class Proof(Frozen):
    """What licensed an edit that changes the report's words (SPEC §5, revision policy).

    Attributes:
        source: the authority text the edit relies on, with its label
            (「《道路交通安全法》第二十四条：驾驶人在一个记分周期内…」), or the draft as given
            for a revert.
        span_text: the report's words the measure was taken on.
        measure: the check that passed, with its values and thresholds
            (「containment 0.92 ≥ 0.8 in target, 0.31 in cited」).
    """

    source: str
    span_text: str
    measure: str


class Edit(Frozen):
    """One explainable change to a draft.

    ``span`` indexes the text *before* this round's edits; ``before == text[span]``.
    """

    op: EditOp
    span: Span
    before: str
    after: str
    reason: str
    citation_id: str | None = None
    labels: tuple[str, ...] = ()
    proof: Proof | None = None
    """Set on every word-changing edit the revision policy allowed; None on notes."""


class Revision(Frozen):
    """One governance round: the edits applied and the verdicts on the resulting text."""

    round: int = Field(ge=1)
    edits: tuple[Edit, ...]
    text: str
    verdicts: tuple[Verdict, ...]


class ReportScore(Frozen):
    """Citation-level summary of one report (SPEC §3).

    ``trust`` is the mean item trust over included citations (1.0 with none);
    ``all_pass`` is citation all-pass: at least one citation verified, every citation of the
    report verified (none ``unverifiable``) and every one with E = F = A = 1 (issue 23).
    ``n_verified`` of ``n_checkable`` citations were verified ("n of m verified").
    """

    trust: float = Field(ge=0.0, le=1.0)
    n_cite: int = Field(ge=0)
    n_excluded: int = Field(ge=0)
    all_pass: bool
    n_verified: int = Field(default=0, ge=0)
    n_checkable: int = Field(default=0, ge=0)
    existence: float | None = None
    fidelity: float | None = None
    applicability: float | None = None
