"""The SPEC §2 machine-readable report of one governed draft (layer 7).

``citegov verify --json`` prints it, ``citegov revise`` writes it as ``<name>.verdicts.json``.
The pydantic models and the JSON Schema live in :mod:`governor.core.report`; this module fills
them from verdicts and a :class:`graphs.state.GovernanceResult`.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

from governor.citations.us import us_cases_skipped
from governor.core.gaps import coverage_gaps
from governor.core.models import Verdict
from governor.core.report import (
    FinalOut,
    InputOut,
    VerdictReport,
    citation_out,
    round_out,
    scores_out,
)
from governor.text.sanitize import draft_warnings
from governor.text.textio import Draft, draft_from_text
from graphs.state import GovernanceResult


def build_report(
    draft: Draft | str,
    *,
    as_of: date,
    strategy: str,
    judge: str,
    initial: Sequence[Verdict],
    result: GovernanceResult | None = None,
    warnings: Sequence[str] = (),
) -> VerdictReport:
    """Assemble the SPEC §2 machine-readable report of one draft.

    ``citations``/``scores`` describe the input as given; with a ``result`` (revise), ``rounds``
    and ``final`` describe each round and the output text.
    """
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
            scores=scores_out(result.final_verdicts),
        )
        stop = result.stop_reason
    notes = (*warnings, *draft_warnings(d.text), *_unknown_warnings(initial, result))
    return VerdictReport(
        input=InputOut(
            path=str(d.path) if d.path else None,
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
        gaps=coverage_gaps(initial, unextracted_us=us_cases_skipped(d.text)),
    )


def _unknown_warnings(
    initial: Sequence[Verdict], result: GovernanceResult | None
) -> tuple[str, ...]:
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
