"""LegalCiteTrust report metrics, macro system averages and E/F/A diagnostics (SPEC §4).

Layer 6: pure functions over verdicts (``governor.core.models``) and judgements made elsewhere. No
model calls happen here: whether a rubric item is covered, or its evidence backed, is decided
by a judge in another module and arrives as a :class:`RubricJudgement`; this module only
aggregates. The Cov/Sup formula and the judgement types live in :mod:`verifiers.coverage`
(layer 3), so that ``verify`` and ``revise`` compute the same shares without importing
benchmarks; they are re-exported here.

Per report (source: SPEC §4, after the LegalCiteTrust benchmark description):

* ``s_cov``      mean of ``RubricJudgement.covered`` over the task's rubric items, in [0, 1];
* ``s_rubric``   mean of ``RubricJudgement.backed`` over the rubric items, in [0, 1];
* ``s_subtopic`` share of subtopics whose section cites at least one authority, in [0, 1];
* ``s_sup``      ``0.5·s_rubric + 0.5·s_subtopic`` (independent of E/F/A), in [0, 1];
* ``s_trust``    mean item trust (E×F×A) over included citations, from
  :func:`governor.core.labels.report_score` (NA = 1.0, unknown = 0.0, excluded leave the
  denominator, 1.0 with no citations; SPEC §3), in [0, 1];
* ``s_final``    ``(s_cov + s_sup)·s_trust``, in [0, 2].

System level: every leaderboard number is the *macro* average of per-report values, so the
system Final is the mean of per-report finals, **not** ``(mean Cov + mean Sup)·mean Trust``.
E/F/A diagnostics are *micro* averages over citations, overall and per citation type.

Empty-input convention (one rule for every metric, declared in :data:`METRICS`): a share or
mean over an empty set takes the metric's ``empty`` value, which is the *vacuous* value, the
one asserting that nothing failed: 1.0 for shares of good outcomes (trust, coverage, E/F/A,
all-pass), 0.0 for rates of bad outcomes (hallucination frequency/density), 1.0 (independence)
for lift. This generalises SPEC §3's "trust is 1.0 when there are no citations". Counts beside
each value (``n_rubric``, ``n_cite``...) let tables tell a vacuous 1.0 from a measured one.
System-level aggregation over zero reports is a caller error and raises ``ValueError``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Final, Literal, get_args

from pydantic import Field

from benchmarks.tasks import Task
from governor.core.labels import report_score
from governor.core.models import CitationKind, Frozen, TaxonomyCode, Verdict
from verifiers.coverage import RubricJudgement, SubtopicJudgement, support_scores

Direction = Literal["higher", "lower", "neutral"]
Level = Literal["report", "system", "citation"]
CiteType = Literal["law", "interpretation", "case", "other"]

CITE_TYPES: Final[tuple[CiteType, ...]] = get_args(CiteType)
CITE_TYPE_OF_KIND: Final[Mapping[CitationKind, CiteType]] = MappingProxyType(
    {
        "statute": "law",
        "regulation": "law",
        "rule": "law",
        # Not in the brief's list; a US statute is a statute, so it is grouped with law.
        "us_statute": "law",
        "judicial_interpretation": "interpretation",
        "guiding_case": "case",
        "case_number": "case",
        "us_case": "case",
        # 文号 (e.g. 国发〔2020〕1号) fits none of the three published groups.
        "document_number": "other",
    }
)
"""Citation kind → diagnostic group (law / interpretation / case, LegalCiteTrust tables)."""


class MetricSpec(Frozen):
    """Declaration of one metric: range, direction and empty-input value (STYLE, ragas).

    Attributes:
        name: Key used in tables and JSON.
        level: ``report`` (one value per report), ``system`` (over reports) or ``citation``
            (micro average over citations).
        low: Smallest possible value.
        high: Largest possible value; ``None`` when unbounded (counts, lift).
        direction: ``higher`` / ``lower`` is better, or ``neutral`` (descriptive).
        empty: Value returned when the denominator is empty (the vacuous value).
        definition: One-line formula.
        source: Where the rule comes from.
    """

    name: str
    level: Level
    low: float
    high: float | None
    direction: Direction
    empty: float
    definition: str
    source: str


def _spec(*args: object) -> tuple[str, MetricSpec]:
    keys = ("name", "level", "low", "high", "direction", "empty", "definition", "source")
    spec = MetricSpec.model_validate(dict(zip(keys, args, strict=True)))
    return spec.name, spec


METRICS: Final[Mapping[str, MetricSpec]] = MappingProxyType(
    dict(
        [
            _spec("s_cov", "report", 0.0, 1.0, "higher", 1.0,
                  "mean covered fraction over rubric items", "SPEC §4 (LegalCiteTrust Cov)"),
            _spec("s_rubric", "report", 0.0, 1.0, "higher", 1.0,
                  "mean backed fraction over rubric items", "SPEC §4"),
            _spec("s_subtopic", "report", 0.0, 1.0, "higher", 1.0,
                  "share of subtopics whose section cites >= 1 authority", "SPEC §4"),
            _spec("s_sup", "report", 0.0, 1.0, "higher", 1.0,
                  "0.5*s_rubric + 0.5*s_subtopic", "SPEC §4 (LegalCiteTrust Sup)"),
            _spec("s_trust", "report", 0.0, 1.0, "higher", 1.0,
                  "mean E*F*A over included citations (NA=1, unknown=0)",
                  "SPEC §3, governor.core.labels.report_score"),
            _spec("s_final", "report", 0.0, 2.0, "higher", 2.0,
                  "(s_cov + s_sup) * s_trust", "SPEC §4 (LegalCiteTrust Final)"),
            _spec("n_cite", "report", 0.0, None, "neutral", 0.0,
                  "number of citations extracted (excluded included)", "SPEC §4"),
            _spec("all_pass", "report", 0.0, 1.0, "higher", 1.0,
                  "every rubric item fully covered and every included citation E=F=A=1",
                  "SPEC §4 (Legal Research Bench all-pass)"),
            _spec("report_all_pass", "system", 0.0, 1.0, "higher", 1.0,
                  "share of reports with all_pass", "SPEC §4"),
            _spec("existence", "citation", 0.0, 1.0, "higher", 1.0,
                  "micro mean E over included citations", "SPEC §4 diagnostics"),
            _spec("fidelity", "citation", 0.0, 1.0, "higher", 1.0,
                  "micro mean F over included citations, NA skipped", "SPEC §4 diagnostics"),
            _spec("applicability", "citation", 0.0, 1.0, "higher", 1.0,
                  "micro mean A over included citations, NA skipped", "SPEC §4 diagnostics"),
            _spec("citation_trust", "citation", 0.0, 1.0, "higher", 1.0,
                  "micro mean item trust over included citations", "SPEC §3"),
            _spec("citation_all_pass", "citation", 0.0, 1.0, "higher", 1.0,
                  "share of included citations with E=F=A=1", "SPEC §4"),
            _spec("hf", "system", 0.0, 1.0, "lower", 0.0,
                  "share of reports with >= 1 code in the layer", "LexAgentHallu, SPEC §3"),
            _spec("hd", "system", 0.0, None, "lower", 0.0,
                  "taxonomy codes in the layer per citation", "LexAgentHallu, SPEC §3"),
            _spec("lift", "system", 0.0, None, "neutral", 1.0,
                  "P(A and B) / (P(A) P(B)) over reports", "association-rule lift"),
        ]
    )
)  # fmt: skip
"""Every metric this package reports, by name."""


def _mean(values: Sequence[float], metric: str) -> float:
    """Mean of ``values``, or ``METRICS[metric].empty`` when there are none."""
    return math.fsum(values) / len(values) if values else METRICS[metric].empty


class CitationScore(Frozen):
    """The per-citation numbers the system tables need, taken from one :class:`Verdict`.

    Scores are in [0, 1]; ``None`` is NA (not judged / not applicable), and for ``existence``
    it means the citation is excluded (e.g. ``unverifiable``).
    """

    citation_id: str
    kind: CitationKind
    cite_type: CiteType
    existence: float | None
    fidelity: float | None
    applicability: float | None
    item_trust: float = Field(ge=0.0, le=1.0)
    excluded: bool
    passes: bool
    taxonomy: tuple[TaxonomyCode, ...] = ()

    @classmethod
    def of(cls, verdict: Verdict) -> CitationScore:
        """Project a :class:`Verdict` onto its scores; duplicate taxonomy codes are dropped."""
        kind = verdict.citation.kind
        return cls(
            citation_id=verdict.citation.id,
            kind=kind,
            cite_type=CITE_TYPE_OF_KIND[kind],
            existence=verdict.existence.score,
            fidelity=verdict.fidelity.score,
            applicability=verdict.applicability.score,
            item_trust=verdict.item_trust,
            excluded=verdict.excluded,
            passes=verdict.passes,
            taxonomy=tuple(dict.fromkeys(verdict.taxonomy)),
        )


class ReportMetrics(Frozen):
    """Every per-report number (SPEC §4) plus what produced it.

    Attributes:
        task_id: Task the report answers (pairs reports across strategies).
        s_cov, s_rubric, s_subtopic, s_sup, s_trust: In [0, 1]; see module docstring.
        s_final: ``(s_cov + s_sup)·s_trust`` in [0, 2].
        n_cite: Citations extracted, excluded ones included.
        n_excluded: Citations left out of the trust denominator.
        n_rubric, n_subtopics: Denominators of the coverage and support shares.
        rubric_all_covered: Every rubric item has ``covered == 1.0``.
        citation_all_pass: Every included citation has E = F = A = 1.
        all_pass: ``rubric_all_covered and citation_all_pass`` (Legal Research Bench).
        coverage_judges: Sorted names of the judges behind ``s_cov``.
        support_judges: Sorted names of the judges behind ``s_rubric``/``s_subtopic``.
        missing_judgements: Rubric item / subtopic ids of the task that had no judgement
            and were scored 0 (an unknown never passes; SPEC §3).
        citations: Per-citation scores, in report order.
    """

    task_id: str
    s_cov: float = Field(ge=0.0, le=1.0)
    s_rubric: float = Field(ge=0.0, le=1.0)
    s_subtopic: float = Field(ge=0.0, le=1.0)
    s_sup: float = Field(ge=0.0, le=1.0)
    s_trust: float = Field(ge=0.0, le=1.0)
    s_final: float = Field(ge=0.0, le=2.0)
    n_cite: int = Field(ge=0)
    n_excluded: int = Field(ge=0)
    n_rubric: int = Field(ge=0)
    n_subtopics: int = Field(ge=0)
    rubric_all_covered: bool
    citation_all_pass: bool
    all_pass: bool
    coverage_judges: tuple[str, ...] = ()
    support_judges: tuple[str, ...] = ()
    missing_judgements: tuple[str, ...] = ()
    citations: tuple[CitationScore, ...] = ()


def _by_id(items: Iterable[Frozen], attr: str, what: str) -> dict[str, Frozen]:
    out: dict[str, Frozen] = {}
    for it in items:
        key = getattr(it, attr)
        if key in out:
            raise ValueError(f"two {what} judgements for {key!r}: pass one per id")
        out[key] = it
    return out


def _align(
    given: dict[str, Frozen], expected: Sequence[str] | None, what: str, task_id: str
) -> tuple[list[Frozen | None], list[str]]:
    """Order judgements by the task's ids; ids without a judgement come back as ``None``."""
    if expected is None:
        return list(given.values()), []
    unknown = sorted(set(given) - set(expected))
    if unknown:
        raise ValueError(
            f"task {task_id!r} has no {what} {unknown}: judge the task's own ids ({list(expected)})"
        )
    missing = [i for i in expected if i not in given]
    return [given.get(i) for i in expected], missing


def report_metrics(
    verdicts: Iterable[Verdict],
    rubric: Iterable[RubricJudgement],
    subtopics: Iterable[SubtopicJudgement],
    *,
    task: Task | None = None,
    task_id: str | None = None,
) -> ReportMetrics:
    """Score one report (SPEC §4).

    Args:
        verdicts: Verdicts on every citation of the report, in report order.
        rubric: One judgement per rubric item.
        subtopics: One judgement per subtopic.
        task: When given, its rubric item and subtopic ids are the denominators: an id with
            no judgement scores 0 (covered = backed = 0, cites = 0) and is listed in
            ``missing_judgements``. Without it, the judgements given are the denominators.
        task_id: Overrides ``task.id`` (defaults to it, or ``""`` without a task).

    Returns:
        The report's :class:`ReportMetrics`; shares over an empty set are 1.0 (vacuous).

    Raises:
        ValueError: Two judgements for one id, or a judgement for an id the task lacks.
    """
    tid = task_id if task_id is not None else (task.id if task else "")
    vs = tuple(verdicts)
    rubric_by_id = _by_id(rubric, "item_id", "rubric")
    sub_by_id = _by_id(subtopics, "subtopic_id", "subtopic")
    rubric_rows, miss_r = _align(
        rubric_by_id, [r.id for r in task.rubric] if task else None, "rubric item", tid
    )
    sub_rows, miss_s = _align(
        sub_by_id, [s.id for s in task.subtopics] if task else None, "subtopic", tid
    )
    rj = [r for r in rubric_rows if isinstance(r, RubricJudgement)]
    sj = [s for s in sub_rows if isinstance(s, SubtopicJudgement)]
    covered = [r.covered for r in rj] + [0.0] * len(miss_r)
    backed = [r.backed for r in rj] + [0.0] * len(miss_r)
    cited = [1.0 if s.cites > 0 else 0.0 for s in sj] + [0.0] * len(miss_s)

    shares = support_scores(covered, backed, cited)
    s_cov, s_rubric, s_subtopic, s_sup = (
        shares.s_cov,
        shares.s_rubric,
        shares.s_subtopic,
        shares.s_sup,
    )
    score = report_score(vs)
    # the benchmark's citation all-pass (SPEC §4) is vacuous over excluded and absent
    # citations, unlike the report's ``all_pass`` (issue 23: nothing checked is not a pass)
    citation_all_pass = all(v.item_trust >= 1.0 for v in vs if not v.excluded)
    rubric_all_covered = all(c >= 1.0 for c in covered)
    return ReportMetrics(
        task_id=tid,
        s_cov=s_cov,
        s_rubric=s_rubric,
        s_subtopic=s_subtopic,
        s_sup=s_sup,
        s_trust=score.trust,
        s_final=(s_cov + s_sup) * score.trust,
        n_cite=score.n_cite,
        n_excluded=score.n_excluded,
        n_rubric=len(covered),
        n_subtopics=len(cited),
        rubric_all_covered=rubric_all_covered,
        citation_all_pass=citation_all_pass,
        all_pass=rubric_all_covered and citation_all_pass,
        coverage_judges=tuple(sorted({r.judge for r in rj})),
        support_judges=tuple(sorted({r.judge for r in rj} | {s.judge for s in sj})),
        missing_judgements=tuple(miss_r + miss_s),
        citations=tuple(CitationScore.of(v) for v in vs),
    )


class CitationDiagnostics(Frozen):
    """Citation-level micro averages for one group of citations (SPEC §4 E/F/A tables).

    Means are over *included* citations; F and A skip NA scores (as
    :func:`governor.core.labels.report_score` does per report). With nothing to average a value
    is 1.0 (vacuous); read ``n_included`` beside it.

    Attributes:
        group: ``all`` or a citation type (``law``, ``interpretation``, ``case``, ``other``).
        n_cite: Citations in the group, excluded ones included.
        n_included: Citations in the trust denominator.
        existence, fidelity, applicability: Micro means in [0, 1].
        trust: Micro mean item trust in [0, 1].
        citation_all_pass: Share of included citations with E = F = A = 1.
    """

    group: Literal["all", "law", "interpretation", "case", "other"]
    n_cite: int = Field(ge=0)
    n_included: int = Field(ge=0)
    existence: float = Field(ge=0.0, le=1.0)
    fidelity: float = Field(ge=0.0, le=1.0)
    applicability: float = Field(ge=0.0, le=1.0)
    trust: float = Field(ge=0.0, le=1.0)
    citation_all_pass: float = Field(ge=0.0, le=1.0)


def citation_diagnostics(
    citations: Iterable[CitationScore],
    group: Literal["all", "law", "interpretation", "case", "other"] = "all",
) -> CitationDiagnostics:
    """Micro-average E/F/A, trust and citation all-pass over ``citations`` (SPEC §4).

    Args:
        citations: Citation scores pooled over any number of reports.
        group: Label stored in the result; filtering is the caller's job.

    Returns:
        The group's :class:`CitationDiagnostics`.
    """
    cs = tuple(citations)
    inc = [c for c in cs if not c.excluded]
    return CitationDiagnostics(
        group=group,
        n_cite=len(cs),
        n_included=len(inc),
        existence=_mean([c.existence for c in inc if c.existence is not None], "existence"),
        fidelity=_mean([c.fidelity for c in inc if c.fidelity is not None], "fidelity"),
        applicability=_mean(
            [c.applicability for c in inc if c.applicability is not None], "applicability"
        ),
        trust=_mean([c.item_trust for c in inc], "citation_trust"),
        citation_all_pass=_mean([1.0 if c.passes else 0.0 for c in inc], "citation_all_pass"),
    )


class SystemMetrics(Frozen):
    """Leaderboard row for one system/strategy over a set of tasks (SPEC §4).

    Attributes:
        n_reports: Reports aggregated (>= 1).
        s_final, s_cov, s_sup, s_rubric, s_subtopic, s_trust: Macro means of the per-report
            values (Final in [0, 2], the rest in [0, 1]).
        report_all_pass: Share of reports with ``all_pass``.
        n_cite: Total citations over all reports.
        mean_n_cite: ``n_cite / n_reports``.
        citations: Micro diagnostics over every citation.
        by_type: Micro diagnostics per citation type, in :data:`CITE_TYPES` order.
    """

    n_reports: int = Field(ge=1)
    s_final: float = Field(ge=0.0, le=2.0)
    s_cov: float = Field(ge=0.0, le=1.0)
    s_sup: float = Field(ge=0.0, le=1.0)
    s_rubric: float = Field(ge=0.0, le=1.0)
    s_subtopic: float = Field(ge=0.0, le=1.0)
    s_trust: float = Field(ge=0.0, le=1.0)
    report_all_pass: float = Field(ge=0.0, le=1.0)
    n_cite: int = Field(ge=0)
    mean_n_cite: float = Field(ge=0.0)
    citations: CitationDiagnostics
    by_type: tuple[CitationDiagnostics, ...]


def system_metrics(reports: Sequence[ReportMetrics]) -> SystemMetrics:
    """Aggregate per-report metrics into one leaderboard row (SPEC §4).

    Leaderboard values are macro means over reports, so ``s_final`` is the mean of the
    per-report finals and in general differs from ``(s_cov + s_sup)·s_trust`` of the means.
    Citation diagnostics are micro means over all citations of all reports.

    Args:
        reports: One :class:`ReportMetrics` per task (the same task may appear once).

    Returns:
        The :class:`SystemMetrics` row.

    Raises:
        ValueError: ``reports`` is empty (a system over no report has no score).
    """
    if not reports:
        raise ValueError("system_metrics needs at least one report; score some reports first")
    n = len(reports)

    def macro(attr: str) -> float:
        return math.fsum(float(getattr(r, attr)) for r in reports) / n

    pooled = [c for r in reports for c in r.citations]
    n_cite = sum(r.n_cite for r in reports)
    return SystemMetrics(
        n_reports=n,
        s_final=macro("s_final"),
        s_cov=macro("s_cov"),
        s_sup=macro("s_sup"),
        s_rubric=macro("s_rubric"),
        s_subtopic=macro("s_subtopic"),
        s_trust=macro("s_trust"),
        report_all_pass=macro("all_pass"),
        n_cite=n_cite,
        mean_n_cite=n_cite / n,
        citations=citation_diagnostics(pooled, "all"),
        by_type=tuple(
            citation_diagnostics([c for c in pooled if c.cite_type == t], t) for t in CITE_TYPES
        ),
    )
