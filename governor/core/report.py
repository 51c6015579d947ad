"""The machine-readable verdict report (SPEC §2) as pydantic models, and its JSON Schema.

Layer 0. ``citegov verify --json`` prints one :class:`VerdictReport` per input;
``citegov revise`` writes one beside each revised draft (``<name>.verdicts.json``);
``citegov schema`` prints :func:`json_schema`. ``citations`` and ``scores`` always describe the
input as given; ``rounds`` holds each revision round's edits and verdicts and ``final`` the
verdicts on the output text. Changing a field name is a breaking change: bump
:data:`SCHEMA_VERSION`.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict, Field

from governor.core.extras import unread_us_cases
from governor.core.gaps import (
    CoverageGap,
    coverage_gaps,
    unchecked_claim,
    unchecked_claim_line,
)
from governor.core.labels import governed_score, report_score
from governor.core.models import CheckResult, Edit, Proof, Revision, Suggestion, Verdict

SCHEMA_VERSION = "1.0"


class _Out(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class AxisOut(_Out):
    """One axis: label, score in [0, 1] (null = NA/excluded) and why."""

    label: str
    score: float | None
    rationale: str = ""
    judge: str = "offline"


class AuthorityOut(_Out):
    """An authority the verifier resolved or suggested."""

    label: str
    instrument: str
    article: str | None
    paragraph: int | None
    item: int | None
    version: str | None
    status: str
    text: str


class SuggestionOut(_Out):
    """A better authority, with its match score in [0, 1] and the reason."""

    authority: AuthorityOut
    score: float
    reason: str
    proof: str = ""


class CitationOut(_Out):
    """One citation with its three verdicts (span: half-open character offsets)."""

    id: str
    raw: str
    span: tuple[int, int]
    kind: str
    instrument: str | None
    instrument_as_written: str | None
    article: str | None
    paragraph: int | None
    item: int | None
    version_hint: str | None
    case_number: str | None
    claim: str
    description: str
    existence: AxisOut
    fidelity: AxisOut
    applicability: AxisOut
    item_trust: float
    excluded: bool
    taxonomy: tuple[str, ...]
    resolved: AuthorityOut | None
    suggestion: SuggestionOut | None
    gap: str | None = None
    in_question: bool = False


class ScoresOut(_Out):
    """Report-level citation scores (SPEC §3): trust = mean item trust of included citations.

    ``all_pass`` is true only when every citation of the report was verified and passes
    (``n_verified == n_checkable > 0``); nothing checked is not a pass (issue 23)."""

    trust: float
    n_cite: int
    n_excluded: int
    all_pass: bool
    n_verified: int = 0
    n_checkable: int = 0
    existence: float | None = None
    fidelity: float | None = None
    applicability: float | None = None


class InputOut(_Out):
    """The input as given: path (null for in-memory text), sha256 of its bytes, length in
    characters, the as-of date used, and the detected encoding."""

    path: str | None
    sha256: str
    chars: int
    as_of: date
    encoding: str = "utf-8"


class EditOut(_Out):
    """One edit: ``span`` indexes the text at the start of its round."""

    op: str
    span: tuple[int, int]
    before: str
    after: str
    reason: str
    citation_id: str | None
    proof: Proof | None = None
    """What licensed a word-changing edit (``governor.revision.policy``); null on notes."""


class RoundOut(_Out):
    """One revision round: its edits, then the verdicts on the text it produced."""

    round: int
    edits: tuple[EditOut, ...]
    citations: tuple[CitationOut, ...]
    scores: ScoresOut


class FinalOut(_Out):
    """Verdicts on the output text."""

    sha256: str
    chars: int
    citations: tuple[CitationOut, ...]
    scores: ScoresOut


class VerdictReport(_Out):
    """The whole machine-readable report of one draft."""

    version: str = SCHEMA_VERSION
    input: InputOut
    strategy: str
    judge: str
    citations: tuple[CitationOut, ...]
    scores: ScoresOut
    rounds: tuple[RoundOut, ...] = ()
    final: FinalOut | None = None
    stop_reason: str | None = None
    warnings: tuple[str, ...] = Field(default=())
    gaps: tuple[CoverageGap, ...] = Field(
        default=(),
        description="Citations of the input that could not be checked, one entry per kind "
        "(us_case_not_extracted, us_case_no_lookup, us_case_lookup_down, us_statute, "
        "foreign_law, outside_store, "
        "version_not_in_store, record_not_in_store, after_horizon) with its count and a "
        "one-line message; `loud` marks a configured lookup that failed or a report dated "
        "after the store's horizon (`after_horizon`, `horizon` set; n = 0 when no citation "
        "names an instrument the store lacks). Empty when everything was checkable. "
        "`--fail-on` fails on any gap with n > 0 unless `--allow-unverifiable` is given.",
    )


def _axis(c: CheckResult) -> AxisOut:
    return AxisOut(label=c.label, score=c.score, rationale=c.rationale, judge=c.judge)


def _auth(a: Any) -> AuthorityOut:
    return AuthorityOut(
        label=a.label,
        instrument=a.instrument,
        article=a.article,
        paragraph=a.paragraph,
        item=a.item,
        version=a.version,
        status=a.status,
        text=a.text,
    )


def _sugg(s: Suggestion | None) -> SuggestionOut | None:
    if s is None:
        return None
    return SuggestionOut(
        authority=_auth(s.authority), score=s.score, reason=s.reason, proof=s.proof
    )


def citation_out(v: Verdict) -> CitationOut:
    """Flatten one verdict into its output row."""
    c = v.citation
    return CitationOut(
        id=c.id,
        raw=c.raw,
        span=(c.span.start, c.span.end),
        kind=c.kind,
        instrument=c.instrument,
        instrument_as_written=c.instrument_as_written,
        article=c.article,
        paragraph=c.paragraph,
        item=c.item,
        version_hint=c.version_hint,
        case_number=c.case_number,
        claim=c.claim,
        description=c.description,
        existence=_axis(v.existence),
        fidelity=_axis(v.fidelity),
        applicability=_axis(v.applicability),
        item_trust=v.item_trust,
        excluded=v.excluded,
        taxonomy=tuple(v.taxonomy),
        resolved=_auth(v.resolved) if v.resolved is not None else None,
        suggestion=_sugg(v.suggestion),
        gap=v.gap,
        in_question=c.in_question,
    )


def scores_out(verdicts: Sequence[Verdict]) -> ScoresOut:
    """Report scores of ``verdicts`` (see :func:`governor.core.labels.report_score`)."""
    s = report_score(verdicts)
    return ScoresOut(**s.model_dump())


def edit_out(e: Edit) -> EditOut:
    """Flatten one edit."""
    return EditOut(
        op=e.op,
        span=(e.span.start, e.span.end),
        before=e.before,
        after=e.after,
        reason=e.reason,
        citation_id=e.citation_id,
        proof=e.proof,
    )


def round_out(r: Revision) -> RoundOut:
    """Flatten one revision round."""
    return RoundOut(
        round=r.round,
        edits=tuple(edit_out(e) for e in r.edits),
        citations=tuple(citation_out(v) for v in r.verdicts),
        scores=scores_out(r.verdicts),
    )


def json_schema() -> dict[str, Any]:
    """JSON Schema (draft 2020-12) of :class:`VerdictReport`."""
    schema = VerdictReport.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = f"https://citegov.dev/schema/verdict-report-{SCHEMA_VERSION}.json"
    return schema


class RunResult(Protocol):
    """What :func:`build_report` reads of a governed run (``graphs.state.GovernanceResult``)."""

    @property
    def text(self) -> str: ...

    @property
    def rounds(self) -> Sequence[Revision]: ...

    @property
    def final_verdicts(self) -> Sequence[Verdict]: ...

    @property
    def stop_reason(self) -> str: ...


def build_report(
    draft: Any,
    *,
    as_of: date,
    strategy: str,
    judge: str,
    initial: Sequence[Verdict],
    result: RunResult | None = None,
    warnings: Sequence[str] = (),
    path: str | None = None,
    horizon: date | None = None,
) -> VerdictReport:
    """Assemble the SPEC §2 machine-readable report of one draft.

    ``citations``/``scores`` describe the input as given; with a ``result`` (revise), ``rounds``
    and ``final`` describe each round and the output text.

    Args:
        draft: a ``governor.text.textio.Draft`` (read from a file) or the text itself.
        as_of: the as-of date used.
        strategy / judge: recorded as given.
        initial: verdicts on the draft as given.
        result: the governed run (``GovernanceResult``), or None for ``verify``.
        warnings: extra warnings (e.g. an empty draft).
        path: the draft's file when ``draft`` is text (a ``Draft`` carries its own).
        horizon: the store's horizon (``AuthorityStore.horizon``); a report dated after it
            gets the loud ``after_horizon`` gap. None: not checked.

    Raises:
        EncodingError: ``draft`` text holds a lone surrogate.
    """
    from governor.text.sanitize import draft_warnings
    from governor.text.textio import draft_from_text

    d = draft_from_text(draft) if isinstance(draft, str) else draft
    final = None
    rounds: tuple[Any, ...] = ()
    stop = None
    if result is not None:
        rounds = tuple(round_out(r) for r in result.rounds)
        out = draft_from_text(result.text)
        final = FinalOut(
            sha256=out.sha256,
            chars=out.chars,
            citations=tuple(citation_out(v) for v in result.final_verdicts),
            scores=ScoresOut(
                **governed_score(
                    initial,
                    result.final_verdicts,
                    [e for r in result.rounds for e in r.edits],
                    result.text,
                    rounds=[r.verdicts for r in result.rounds],
                ).model_dump()
            ),
        )
        stop = result.stop_reason
    notes = (
        *warnings,
        *draft_warnings(d.text),
        *_unknown_warnings(initial, result),
        *_unsaid_warnings(result, initial),
        *_unchecked_claim_warnings(initial),
    )
    return VerdictReport(
        input=InputOut(
            path=str(d.path) if d.path else path,
            sha256=d.sha256,
            chars=d.chars,
            as_of=as_of,
            encoding=d.encoding,
        ),
        strategy=strategy,
        judge=judge,
        citations=tuple(citation_out(v) for v in initial),
        scores=scores_out(initial),
        rounds=rounds,
        final=final,
        stop_reason=stop,
        warnings=tuple(dict.fromkeys(notes)),
        gaps=coverage_gaps(
            initial, unextracted_us=unread_us_cases(d.text), as_of=as_of, horizon=horizon
        ),
    )


def _unsaid_warnings(result: RunResult | None, initial: Sequence[Verdict] = ()) -> tuple[str, ...]:
    """One line per citation the reader would otherwise not hear about (issue 21 item 3):

    * of the draft as given (``initial``): each that does not pass (item trust < 1; partial
      labels included), is not the asker's (``in_question``), has no coverage gap line and
      that no edit of the run names (:func:`~governor.core.labels.told_by_edits`);
    * of the output: each judged failing (``labels.judged_failing``) that no edit of the run
      touched and no citegov note follows in its line.

    The report says which failed and why; lines are not repeated."""
    from governor.core.labels import judged_failing, told_by_edits, unsaid_line
    from governor.text.regexes import CITEGOV_NOTE

    if result is None:
        return ()
    out = [
        unsaid_line(v)
        for v in initial
        if not v.passes
        and not v.excluded
        and not v.citation.in_question
        and v.gap is None
        and not told_by_edits(v, result.rounds)
    ]
    edited = {e.citation_id for r in result.rounds for e in r.edits if e.citation_id}
    text = result.text
    for v in result.final_verdicts:
        if not judged_failing(v) or v.citation.id in edited or v.citation.in_question:
            continue
        end = text.find("\n", v.citation.span.end)
        if CITEGOV_NOTE.search(text, v.citation.span.start, len(text) if end < 0 else end):
            continue
        out.append(unsaid_line(v))
    return tuple(dict.fromkeys(out))


def _unchecked_claim_warnings(initial: Sequence[Verdict]) -> tuple[str, ...]:
    """One line per law cited whole for a rule or a conclusion that was neither pinned to an
    article nor flagged (:func:`governor.core.gaps.unchecked_claim`): the verdict rests on the
    law's existence only, so the report says so by name (issue 21: 「a verdict that rests on
    nothing is not_assessed with a reason and a gap line — never a pass by default」)."""
    return tuple(dict.fromkeys(unchecked_claim_line(v) for v in initial if unchecked_claim(v)))


def _unknown_warnings(initial: Sequence[Verdict], result: RunResult | None) -> tuple[str, ...]:
    """A warning when a judge could not answer for some citations (label ``unknown``, scored
    0.0 and never a pass, SPEC §3/§10), naming the count and the first reason."""
    out = []
    for name, vs in (("input", initial), ("output", result.final_verdicts if result else ())):
        bad = [
            next(c for c in (v.existence, v.fidelity, v.applicability) if c.label == "unknown")
            for v in vs
            if "unknown" in (v.existence.label, v.fidelity.label, v.applicability.label)
        ]
        if bad:
            out.append(
                f"judge failures ({name}): {len(bad)} citation(s) labelled unknown (scored 0.0, "
                f"never a pass): {bad[0].rationale[:160]}"
            )
    return tuple(out)
