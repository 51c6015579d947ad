"""Hallucination taxonomy profile of a set of reports (LexAgentHallu codes, SPEC §3-§4).

Codes (attached to verdicts by ``verifiers.taxonomy``): ``L1.1.1`` … ``L1.1.4`` (source-level
errors), ``L1.2.2``/``L1.2.3`` (element and exception errors), ``L1.3.2`` (period errors),
``L2.1.5`` (out-of-context quoting), and citegov's own ``STALE``. Layers group them by their
first two levels; ``STALE`` is its own layer.

Definitions used here (profile measures as named by LexAgentHallu; the exact formulas below
are citegov's, stated so they can be checked):

* **HF** (hallucination frequency) of a layer or code: share of reports with at least one
  citation carrying a code of that layer/code. In [0, 1], lower is better; 0.0 with no
  reports is not reachable (aggregating zero reports raises).
* **HD** (hallucination density): number of (citation, code) pairs of that layer/code divided
  by the number of citations over all reports (excluded ones included, since codes are
  attached to them too). A citation's duplicate codes count once; a citation with two codes
  of one layer counts twice for the layer. In [0, ∞) (codes per citation), lower is better;
  0.0 when there are no citations (vacuous, see :data:`benchmarks.metrics.METRICS`).
* **Lift** between two codes A, B over reports (association-rule lift, called "interest" in
  Brin, Motwani & Silverstein 1997, "Beyond market baskets", SIGMOD):
  ``P(A ∧ B) / (P(A)·P(B)) = n_ab·n / (n_a·n_b)``, where ``n_a`` counts reports with A. 1 means
  independence, > 1 co-occurrence beyond chance. **Rule when a marginal is 0** (``n_a`` or
  ``n_b`` is 0, so ``n_ab`` is 0 too and the ratio is 0/0): lift is 1.0 (no evidence of
  association) and ``defined`` is False, so no NaN or infinity reaches a table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from types import MappingProxyType
from typing import Final, get_args

from pydantic import Field

from benchmarks.metrics import METRICS, ReportMetrics
from governor.core.models import Frozen, TaxonomyCode

TAXONOMY_CODES: Final[tuple[TaxonomyCode, ...]] = get_args(TaxonomyCode)
TAXONOMY_LAYERS: Final[Mapping[str, tuple[TaxonomyCode, ...]]] = MappingProxyType(
    {
        "L1.1": ("L1.1.1", "L1.1.2", "L1.1.3", "L1.1.4"),
        "L1.2": ("L1.2.2", "L1.2.3"),
        "L1.3": ("L1.3.2",),
        "L2.1": ("L2.1.5",),
        "STALE": ("STALE",),
    }
)
"""Layer → codes; the layers partition :data:`TAXONOMY_CODES`."""


class CodeProfile(Frozen):
    """HF and HD of one layer or one code.

    Attributes:
        name: Layer (``L1.1``) or code (``L1.1.2``).
        codes: Codes counted under ``name``.
        n_reports_with: Reports with at least one of ``codes``.
        n_codes: (citation, code) pairs with a code in ``codes``.
        hf: ``n_reports_with / n_reports`` in [0, 1].
        hd: ``n_codes / n_cite`` (codes per citation), >= 0.
    """

    name: str
    codes: tuple[TaxonomyCode, ...]
    n_reports_with: int = Field(ge=0)
    n_codes: int = Field(ge=0)
    hf: float = Field(ge=0.0, le=1.0)
    hd: float = Field(ge=0.0)


class LiftCell(Frozen):
    """Lift between two codes over reports; see the module docstring for the 0-marginal rule.

    Attributes:
        a, b: The two codes (``a`` before ``b`` in :data:`TAXONOMY_CODES`).
        n_a, n_b: Reports with ``a`` / with ``b``.
        n_ab: Reports with both.
        lift: ``n_ab·n / (n_a·n_b)``; 1.0 when undefined.
        defined: False when ``n_a`` or ``n_b`` is 0.
    """

    a: TaxonomyCode
    b: TaxonomyCode
    n_a: int = Field(ge=0)
    n_b: int = Field(ge=0)
    n_ab: int = Field(ge=0)
    lift: float = Field(ge=0.0)
    defined: bool


class TaxonomyProfile(Frozen):
    """Taxonomy profile of a system's reports.

    Attributes:
        n_reports: Reports profiled (>= 1).
        n_cite: Citations over all reports (HD denominator).
        layers: One :class:`CodeProfile` per layer, in :data:`TAXONOMY_LAYERS` order.
        codes: One :class:`CodeProfile` per code, in :data:`TAXONOMY_CODES` order.
        lifts: One :class:`LiftCell` per unordered pair of distinct codes.
    """

    n_reports: int = Field(ge=1)
    n_cite: int = Field(ge=0)
    layers: tuple[CodeProfile, ...]
    codes: tuple[CodeProfile, ...]
    lifts: tuple[LiftCell, ...]


def lift(n_a: int, n_b: int, n_ab: int, n: int) -> tuple[float, bool]:
    """Association lift ``P(A∧B)/(P(A)P(B))`` from report counts.

    Args:
        n_a: Reports with A. n_b: Reports with B. n_ab: Reports with both. n: All reports.

    Returns:
        ``(lift, defined)``; ``(1.0, False)`` when ``n_a`` or ``n_b`` is 0 (0/0, no evidence
        of association: the vacuous value of :data:`benchmarks.metrics.METRICS` ``lift``).

    Raises:
        ValueError: Counts are inconsistent (``n_ab > min(n_a, n_b)`` or a count above ``n``).
    """
    if not (0 <= n_ab <= min(n_a, n_b) and max(n_a, n_b) <= n):
        raise ValueError(f"inconsistent counts n_a={n_a} n_b={n_b} n_ab={n_ab} n={n}")
    if n_a == 0 or n_b == 0:
        return METRICS["lift"].empty, False
    return n_ab * n / (n_a * n_b), True


def _profile(
    name: str,
    codes: tuple[TaxonomyCode, ...],
    per_report: Sequence[Sequence[tuple[TaxonomyCode, ...]]],
    n_cite: int,
) -> CodeProfile:
    wanted = set(codes)
    with_code = sum(1 for cites in per_report if any(wanted & set(c) for c in cites))
    n_codes = sum(1 for cites in per_report for c in cites for code in c if code in wanted)
    return CodeProfile(
        name=name,
        codes=codes,
        n_reports_with=with_code,
        n_codes=n_codes,
        hf=with_code / len(per_report),
        hd=n_codes / n_cite if n_cite else METRICS["hd"].empty,
    )


def taxonomy_profile(reports: Sequence[ReportMetrics]) -> TaxonomyProfile:
    """Profile the taxonomy codes of ``reports``: HF/HD per layer and code, pairwise lift.

    Args:
        reports: Per-report metrics of one system (their ``citations`` carry the codes).

    Returns:
        The :class:`TaxonomyProfile`; definitions and the 0-marginal rule are in the module
        docstring.

    Raises:
        ValueError: ``reports`` is empty.
    """
    if not reports:
        raise ValueError("taxonomy_profile needs at least one report; score some reports first")
    per_report = [[c.taxonomy for c in r.citations] for r in reports]
    n = len(reports)
    n_cite = sum(len(r.citations) for r in reports)
    present = [{code for c in cites for code in c} for cites in per_report]
    count = {code: sum(code in p for p in present) for code in TAXONOMY_CODES}
    lifts = []
    for a, b in combinations(TAXONOMY_CODES, 2):
        n_ab = sum(a in p and b in p for p in present)
        value, defined = lift(count[a], count[b], n_ab, n)
        lifts.append(
            LiftCell(a=a, b=b, n_a=count[a], n_b=count[b], n_ab=n_ab, lift=value, defined=defined)
        )
    return TaxonomyProfile(
        n_reports=n,
        n_cite=n_cite,
        layers=tuple(
            _profile(name, codes, per_report, n_cite) for name, codes in TAXONOMY_LAYERS.items()
        ),
        codes=tuple(_profile(code, (code,), per_report, n_cite) for code in TAXONOMY_CODES),
        lifts=tuple(lifts),
    )
