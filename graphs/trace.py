"""Per-draft traces: every round's edits and verdicts, and a unified diff (layer 5).

A trace is one JSON object (:func:`build_trace`): the run's settings and stop reason, the
verdicts on the draft, each round (its edits with reasons and the verdicts on the text it
produced, in the SPEC §2 shapes of :mod:`governor.core.report`), the verdicts on the output, notes
(rejected LLM replies...), the number of judged citations, and a unified diff draft → output.
:func:`replay` re-applies the rounds' edits to the draft and must give the output; that is how
"text outside edited spans is byte-identical" is checked.
"""

from __future__ import annotations

import difflib
import hashlib
import json
from pathlib import Path
from typing import Any

from governor.core.report import citation_out, edit_out, round_out, scores_out
from governor.text.textio import atomic_write_text
from graphs.state import GovernanceResult

TRACE_VERSION = "1"


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def unified_diff(result: GovernanceResult, name: str = "draft") -> str:
    """Unified diff (lines) of the draft → the output text; ``""`` when unchanged."""
    return "".join(
        difflib.unified_diff(
            result.draft.splitlines(keepends=True),
            result.text.splitlines(keepends=True),
            fromfile=f"{name} (draft)",
            tofile=f"{name} (governed)",
        )
    )


def replay(result: GovernanceResult) -> str:
    """Apply every round's edits to the draft, in order; equals ``result.text`` for a sound run.

    Each edit's span indexes the text at the start of its round, so a round's edits are
    applied right to left.

    Raises:
        ValueError: an edit's ``before`` does not match the text at its span.
    """
    text = result.draft
    for rnd in result.rounds:
        for e in sorted(rnd.edits, key=lambda x: x.span.start, reverse=True):
            if text[e.span.start : e.span.end] != e.before:
                raise ValueError(f"round {rnd.round}: edit {e.op} at {e.span} does not match")
            text = text[: e.span.start] + e.after + text[e.span.end :]
    return text


def build_trace(result: GovernanceResult, *, name: str = "draft") -> dict[str, Any]:
    """The trace of one governed draft as a JSON-ready dict (see the module docstring)."""
    rounds = []
    for r in result.rounds:
        row = round_out(r).model_dump(mode="json")
        row["edits"] = [
            {**edit_out(e).model_dump(mode="json"), "labels": list(e.labels)} for e in r.edits
        ]
        rounds.append(row)
    return {
        "version": TRACE_VERSION,
        "name": name,
        "strategy": result.strategy,
        "mode": result.mode,
        "as_of": result.as_of,
        "stop_reason": result.stop_reason,
        "draft": {"sha256": _sha(result.draft), "chars": len(result.draft)},
        "output": {"sha256": _sha(result.text), "chars": len(result.text)},
        "judged": result.judged,
        "notes": list(result.notes),
        "initial": {
            "citations": [citation_out(v).model_dump(mode="json") for v in result.initial_verdicts],
            "scores": scores_out(result.initial_verdicts).model_dump(mode="json"),
        },
        "rounds": rounds,
        "final": {
            "citations": [citation_out(v).model_dump(mode="json") for v in result.final_verdicts],
            "scores": scores_out(result.final_verdicts).model_dump(mode="json"),
        },
        "diff": unified_diff(result, name),
    }


def write_trace(result: GovernanceResult, path: Path, *, name: str | None = None) -> Path:
    """Write the trace of ``result`` to ``path`` (JSON, UTF-8, atomically); returns ``path``.

    Args:
        result: a finished run.
        path: target file, e.g. ``out/<draft>.trace.json``; parent folders are created.
        name: label used in the diff header (default: the file name without ``.trace.json``).
    """
    label = name or path.name.removesuffix(".json").removesuffix(".trace")
    text = json.dumps(build_trace(result, name=label), ensure_ascii=False, indent=2) + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, text)
    return path
