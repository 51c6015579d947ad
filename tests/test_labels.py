"""Label → score rules and trust aggregation (SPEC §3)."""

from __future__ import annotations

import pytest

from governor.core.labels import item_trust, report_score, score_for
from governor.core.models import CheckResult, Citation, Span, Verdict


@pytest.mark.parametrize(
    "axis,label,strict,expected",
    [
        ("existence", "exists", False, 1.0),
        ("existence", "partial", False, 0.5),
        ("existence", "repealed", False, 0.5),
        ("existence", "not_found", False, 0.0),
        ("existence", "unverifiable", False, None),
        ("existence", "unverifiable", True, 0.5),
        ("fidelity", "faithful", False, 1.0),
        ("fidelity", "partially_faithful", False, 0.5),
        ("fidelity", "misdescribed", False, 0.0),
        ("fidelity", "not_assessed", False, None),
        ("applicability", "supports", False, 1.0),
        ("applicability", "partially_supports", False, 0.5),
        ("applicability", "overextended", False, 0.5),
        ("applicability", "contradicts", False, 0.0),
        ("applicability", "irrelevant", False, 0.0),
        ("applicability", "skipped", False, None),
        # an unknown or unparseable label never passes
        ("fidelity", "unknown", False, 0.0),
        ("applicability", "SUPPORTS!!", False, 0.0),
        ("existence", "", False, 0.0),
    ],
)
def test_score_for(axis: str, label: str, strict: bool, expected: float | None) -> None:
    assert score_for(axis, label, strict=strict) == expected  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "e,f,a,expected",
    [
        (1.0, 1.0, 1.0, 1.0),
        (1.0, None, None, 1.0),  # NA counts 1.0
        (0.5, 1.0, 0.5, 0.25),
        (0.0, None, None, 0.0),  # E = 0 → 0, whatever F and A
        (0.0, 1.0, 1.0, 0.0),
        (1.0, 0.5, None, 0.5),
    ],
)
def test_item_trust(e: float, f: float | None, a: float | None, expected: float) -> None:
    assert item_trust(e, f, a) == pytest.approx(expected)


def _v(trust: float, *, excluded: bool = False, e: float | None = 1.0) -> Verdict:
    cit = Citation(id="x", span=Span(start=0, end=1), raw="x", kind="statute")

    def cr(axis: str, score: float | None) -> CheckResult:
        return CheckResult(axis=axis, label="l", score=score)  # type: ignore[arg-type]

    return Verdict(
        citation=cit,
        existence=cr("existence", e),
        fidelity=cr("fidelity", None),
        applicability=cr("applicability", trust if e else None),
        item_trust=trust,
        excluded=excluded,
    )


def test_report_score_excludes_and_averages() -> None:
    s = report_score([_v(1.0), _v(0.5), _v(1.0, excluded=True, e=None)])
    assert s.trust == pytest.approx(0.75)
    assert (s.n_cite, s.n_excluded, s.all_pass) == (3, 1, False)


def test_report_score_empty_is_one_and_not_all_pass() -> None:
    s = report_score([])
    assert (s.trust, s.n_cite, s.all_pass) == (1.0, 0, False)  # nothing checked (issue 23)


def test_report_score_only_excluded_is_one() -> None:
    s = report_score([_v(1.0, excluded=True, e=None)])
    assert s.trust == 1.0 and s.n_excluded == 1
