"""The SPEC §2 machine-readable report of one governed draft (layer 7), and its compact form.

``citegov verify --json`` prints it, ``citegov revise`` writes it as ``<name>.verdicts.json``.
The pydantic models, the JSON Schema and the builder live in :mod:`governor.core.report`
(layer 0), so a run result can render itself (``GovernanceResult.to_report()``, layer 5)
without importing this layer; this module re-exports the builder for the report writers.

:func:`compact_report` is what the governing proxy and the MCP tools answer by default
(issue 23: a 176-character answer came back as 44 KB, the report twice): trust, all-pass and
"n of m verified", the coverage gaps, one line per failing citation and one per edit.
"""

from __future__ import annotations

from typing import Any, Literal

from governor.core.report import CitationOut, EditOut, VerdictReport, build_report

__all__ = ["Detail", "build_report", "citation_line", "compact_report", "edit_line"]

Detail = Literal["summary", "citations", "full"]
"""How much a compact answer carries: ``summary`` (trust, gaps, failing citations, edits),
``citations`` (also one row per citation, failing first), ``full`` (the whole SPEC §2 report)."""

_CLIP = 160
"""Characters of a rationale or an edited span kept in a one-line summary (a line an agent
reads, not the evidence: ``detail="full"`` carries the whole text)."""


def _clip(s: str, n: int = _CLIP) -> str:
    s = " ".join(s.split())
    return s if len(s) <= n else s[: n - 1] + "…"


def _fails(c: CitationOut) -> bool:
    return not c.excluded and c.item_trust < 1.0


def _why(c: CitationOut) -> str:
    for ax in (c.existence, c.fidelity, c.applicability):
        if ax.rationale and (ax.score is None or ax.score < 1.0):
            return ax.rationale
    return ""


def citation_line(c: CitationOut) -> str:
    """One line for a citation: ``[id] raw: E label · F label · A label (trust t) — why``."""
    why = _why(c)
    return (
        f"[{c.id}] {_clip(c.raw, 60)}: E {c.existence.label} · F {c.fidelity.label} · "
        f"A {c.applicability.label} (trust {c.item_trust:.2f})"
        + (f" — {_clip(why)}" if why else "")
    )


def edit_line(e: EditOut) -> str:
    """One line for an edit: ``op [citation]: 「before」 → 「after」``."""
    cid = f" [{e.citation_id}]" if e.citation_id else ""
    return f"{e.op}{cid}: 「{_clip(e.before, 60)}」 → 「{_clip(e.after, 60)}」"


def _row(c: CitationOut) -> dict[str, Any]:
    return {
        "id": c.id,
        "raw": c.raw,
        "span": list(c.span),
        "existence": c.existence.label,
        "fidelity": c.fidelity.label,
        "applicability": c.applicability.label,
        "item_trust": c.item_trust,
        "excluded": c.excluded,
        "gap": c.gap,
        "taxonomy": list(c.taxonomy),
        "why": _clip(_why(c)),
        "suggestion": c.suggestion.authority.label if c.suggestion is not None else None,
    }


def compact_report(report: VerdictReport, *, detail: Detail = "summary") -> dict[str, Any]:
    """A compact, JSON-safe summary of ``report`` for agents and chat clients.

    Args:
        report: a SPEC §2 report (verify: no ``final``; govern: ``final`` and ``rounds``).
        detail: ``summary`` | ``citations`` | ``full`` (:data:`Detail`).

    Returns:
        ``{"report": detail, "trust", "all_pass", "verified": "n of m", "gaps": [...],
        "failing": [line, ...], "edits": [line, ...], "stop_reason", "warnings"}``; trust and
        all-pass describe the output text when the report has a ``final`` (``trust_before``
        the input's). ``failing`` lists the citations that still fail (not excluded, item
        trust < 1), one line each. ``citations`` adds one row per citation, failing first,
        then the unchecked, then the passing. ``full`` adds ``full``: the whole report.

    Raises:
        ValueError: an unknown ``detail``.
    """
    if detail not in ("summary", "citations", "full"):
        raise ValueError(f"detail: {detail!r}; use summary, citations or full")
    final = report.final
    cits = final.citations if final is not None else report.citations
    scores = final.scores if final is not None else report.scores
    out: dict[str, Any] = {
        "report": detail,
        "trust": round(scores.trust, 4),
        "all_pass": scores.all_pass,
        "verified": f"{scores.n_verified} of {scores.n_checkable}",
        "n_cite": scores.n_cite,
    }
    if final is not None:
        out["trust_before"] = round(report.scores.trust, 4)
        out["stop_reason"] = report.stop_reason
    out["gaps"] = [{"kind": g.kind, "n": g.n, "message": g.message} for g in report.gaps]
    out["failing"] = [citation_line(c) for c in cits if _fails(c)]
    edits = [e for r in report.rounds for e in r.edits]
    if final is not None:
        out["edits"] = [edit_line(e) for e in edits]
    if report.warnings:
        out["warnings"] = list(report.warnings)
    if detail in ("citations", "full"):
        order = sorted(cits, key=lambda c: (not _fails(c), not c.excluded))
        out["citations"] = [_row(c) for c in order]
    if detail == "full":
        out["full"] = report.model_dump(mode="json")
    return out
