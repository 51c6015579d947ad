"""Label → score rules and trust aggregation (SPEC §3; LegalCiteTrust item trust = E·F·A).

Layer 0: pure functions over labels and verdicts, no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final

from governor.core.models import Axis, ReportScore, Verdict

EXISTENCE_SCORES: Final[Mapping[str, float | None]] = {
    "exists": 1.0,
    "partial": 0.5,  # instrument + article resolve, cited 款/项 does not
    "repealed": 0.5,  # resolves, but not in force on the as-of date
    "not_found": 0.0,
    "unverifiable": None,  # excluded by default; 0.5 under the strict policy
    "unknown": 0.0,
}
FIDELITY_SCORES: Final[Mapping[str, float | None]] = {
    "faithful": 1.0,
    "partially_faithful": 0.5,
    "misdescribed": 0.0,
    "not_assessed": None,  # NA: counts 1.0 in trust
    "unknown": 0.0,
}
APPLICABILITY_SCORES: Final[Mapping[str, float | None]] = {
    "supports": 1.0,
    "partially_supports": 0.5,
    "overextended": 0.5,
    "contradicts": 0.0,
    "irrelevant": 0.0,
    "skipped": None,  # NA: counts 1.0 in trust
    "unknown": 0.0,
}
SCORES: Final[Mapping[Axis, Mapping[str, float | None]]] = {
    "existence": EXISTENCE_SCORES,
    "fidelity": FIDELITY_SCORES,
    "applicability": APPLICABILITY_SCORES,
}
STRICT_UNVERIFIABLE_SCORE: Final = 0.5


def score_for(axis: Axis, label: str, *, strict: bool = False) -> float | None:
    """Score in [0, 1] for ``label`` on ``axis``; ``None`` for NA/excluded labels.

    An unrecognised label scores 0.0, never a pass (SPEC §3: an unparseable judge answer is
    ``unknown``). Under ``strict``, existence ``unverifiable`` scores 0.5 instead of being
    excluded.
    """
    if strict and axis == "existence" and label == "unverifiable":
        return STRICT_UNVERIFIABLE_SCORE
    table = SCORES[axis]
    if label not in table:
        return 0.0
    return table[label]


def is_excluded(existence_label: str, *, strict: bool = False) -> bool:
    """True when the citation leaves the trust denominator (unverifiable, non-strict)."""
    return existence_label == "unverifiable" and not strict


def item_trust(e: float | None, f: float | None, a: float | None) -> float:
    """E × F × A with NA (None) counted as 1.0; E = 0 forces 0 (F and A not judged).

    ``e`` None means the item is excluded; callers should not aggregate it, and it returns 1.0.
    """
    if e is not None and e == 0.0:
        return 0.0
    out = 1.0
    for s in (e, f, a):
        out *= 1.0 if s is None else s
    return out


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def report_score(verdicts: Iterable[Verdict]) -> ReportScore:
    """Aggregate verdicts of one report into a :class:`ReportScore` (SPEC §3).

    ``trust`` is the mean ``item_trust`` over non-excluded citations, 1.0 when there are
    none; E/F/A are micro means over included citations where the axis was scored (NA
    skipped); ``all_pass`` holds when every included citation has trust 1.0.
    """
    vs = list(verdicts)
    inc = [v for v in vs if not v.excluded]
    trust = _mean([v.item_trust for v in inc])
    return ReportScore(
        trust=1.0 if trust is None else trust,
        n_cite=len(vs),
        n_excluded=len(vs) - len(inc),
        all_pass=all(v.item_trust >= 1.0 for v in inc),
        existence=_mean([v.existence.score for v in inc if v.existence.score is not None]),
        fidelity=_mean([v.fidelity.score for v in inc if v.fidelity.score is not None]),
        applicability=_mean(
            [v.applicability.score for v in inc if v.applicability.score is not None]
        ),
    )


STOP_PHRASES: dict[str, tuple[str, str]] = {
    "strategy_none": ("verified only (strategy none)", "仅核验，未修订"),
    "all_pass": ("every checked citation passes", "已核验的引用全部通过"),
    "no_change": ("nothing left to fix", "没有可再修正之处"),
    "max_rounds": ("round limit reached", "已达修订轮数上限"),
    "regenerate_unavailable": ("the writer cannot regenerate", "生成器不支持按反馈重写"),
    "interrupted": ("interrupted", "已中断"),
}
"""Why a governance loop stopped, as a reader says it (English, Chinese), by the
``stop_reason`` codes of :data:`graphs.state.StopReason` (the JSON keeps the codes)."""


def stop_phrase(reason: str | None, *, lang: str = "en") -> str:
    """The reader's words for a ``stop_reason`` code ("" for None; an unknown code as is).

    Args:
        reason: a ``stop_reason`` code (``no_change`` …) or None.
        lang: ``"zh"`` for Chinese, else English.
    """
    if not reason:
        return ""
    words = STOP_PHRASES.get(reason)
    if words is None:
        return reason
    return words[1] if lang == "zh" else words[0]
