"""Ablation runner: strategies × tasks → LegalCiteTrust scores with uncertainty (SPEC §4-5).

Layer 7. :func:`load_cases` turns a suite (a built-in name or a path) into :class:`Case` s
(task + draft); :func:`run_ablation` governs every draft with every strategy through
:class:`governor.api.Governor`, judges coverage and support on the governed text
(:mod:`benchmarks.judging`), scores each report (:func:`benchmarks.metrics.report_metrics`)
and aggregates: macro system metrics with 95 % bootstrap CIs over tasks, citation-level E/F/A
micro means with task-cluster bootstrap CIs, paired comparisons between strategies (paired
bootstrap on Δ final, McNemar on all-pass) and the taxonomy profile.

Resumable: each (task, strategy) result is appended to ``checkpoint.jsonl`` in the output
folder as one line, written with a single ``write`` and fsynced; a rerun with the same
settings skips the pairs already there (a line cut by a kill is dropped and redone).
Deterministic: governance is deterministic, and every random choice (suite generation,
``--limit`` sampling, bootstrap) derives from ``seed``.

Suites:

* ``perturbation`` — :func:`benchmarks.perturb.generate_suite` (60 reports; ``perturbation:N``
  for N reports), drafts = the perturbed texts; the CLI screens the clean reports with the
  offline verifier so that every untouched citation starts at E = F = A = 1;
* ``lawbench-3-2`` / ``lawbench-3-8`` — :func:`benchmarks.lawbench.load_cases` over the
  ``lawbench_dev`` folder (``$CITEGOV_LAWBENCH_DIR``, else ``../shared/data/lawbench_dev``
  next to the repository), all three models;
* a path: a perturbation suite file (``.jsonl`` written by :func:`benchmarks.perturb.write_suite`)
  or a task file/folder (SPEC §8 native format, else the LegalCiteTrust release format), whose
  drafts come from a generator.

Generators (``generator=`` / ``--generator``): ``drafts:DIR`` reads ``DIR/<task id>.md`` (or
``.txt``); ``module:function`` imports a callable that takes a
:class:`benchmarks.tasks.GeneratorView` (query and subtopics only, SPEC §8) and returns the
report text. With a built-in suite, a generator replaces the suite's own drafts.
"""

from __future__ import annotations

import importlib
import json
import math
import os
import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

import numpy as np
from pydantic import Field

from benchmarks.judging import CoverageJudge
from benchmarks.lawbench import load_cases as load_lawbench_cases
from benchmarks.metrics import ReportMetrics, SystemMetrics, report_metrics, system_metrics
from benchmarks.perturb import InjectedError, Screen, generate_suite, is_suite_file, load_suite
from benchmarks.stats import (
    BootstrapCI,
    McNemarResult,
    PairedBootstrap,
    bootstrap_ci,
    mcnemar_exact,
    pair_reports,
    paired_bootstrap,
)
from benchmarks.tasks import GeneratorView, Task, generator_view, load_legalcitetrust, load_tasks
from benchmarks.taxonomy_profile import TaxonomyProfile, taxonomy_profile
from governor.authorities import AuthorityStore
from governor.citations.extract import extract, parse_pin
from governor.core.config import STRATEGIES
from governor.core.errors import StrategyError, TaskError
from governor.core.labels import deletion_counts
from governor.core.models import Frozen
from governor.text.textio import atomic_write_text, read_draft
from verifiers.textsim import normalize

BUILTIN_SUITES: Final = ("perturbation", "lawbench-3-2", "lawbench-3-8")
CHECKPOINT: Final = "checkpoint.jsonl"
RUN_FILE: Final = "run.json"
REPAIR_OPS: Final = frozenset({"renumber", "reanchor", "replace_repealed", "fix_granularity"})
"""Edit operations that retarget a citation to another provision."""
CI_METRICS: Final = ("s_final", "s_cov", "s_sup", "s_rubric", "s_subtopic", "s_trust", "all_pass")
MICRO_AXES: Final = ("existence", "fidelity", "applicability")
_ROOT = Path(__file__).resolve().parent.parent


class Case(Frozen):
    """One task with the draft to govern.

    Attributes:
        id: Unique within the suite (the task id).
        task: The task (rubric and evidence for scoring).
        draft: The report text as generated.
        suite: Name of the suite it came from.
        group: The model that wrote the draft (LawBench suites; ``""`` elsewhere): the unit of
            ``per_model`` sampling.
        clean_text: For perturbation cases: the report before injection (ground truth).
        injected: For perturbation cases: the labelled errors of ``draft``.
    """

    id: str
    task: Task
    draft: str
    suite: str
    group: str = ""
    clean_text: str = ""
    injected: tuple[InjectedError, ...] = ()


class PairResult(Frozen):
    """One (task, strategy) result: the checkpoint row.

    Attributes:
        case_id, strategy: The pair.
        metrics: The governed report's :class:`ReportMetrics` (coverage/support judged on
            the governed text).
        initial_trust: Trust of the draft as given (before the strategy), in [0, 1].
        n_edits: Edits applied over all rounds.
        edit_ops: ``(op, count)`` pairs, sorted.
        wrong_citations: Draft citations with an instrument and article that match no
            evidence point of the task.
        evidence_repairs: Edits that retargeted a citation to an evidence point's article.
        stop_reason: Why governance stopped.
        judge: Verification judge name (e.g. ``offline``).
        seconds: Wall time of governing and scoring this pair.
        restored: Perturbation cases only, ground truth from the labels: ``(kind, injected,
            restored)`` per error kind — an error is restored when the governed text holds
            the clean sentence again (same instrument, article and 款 or the whole article;
            the rest of the sentence equal up to punctuation and whitespace).
        clean_kept: Perturbation cases only: ``(untouched citations, their sentences still
            intact in the governed text)``.
        evidence_lost: ``(op, count)``: edits whose replaced text cited an evidence point's
            article and whose new text cites none (what makes support fall).
        cites_kept, cites_removed, annotations, orphan_claims: What the strategy did to the
            draft's citations (:func:`governor.core.labels.deletion_counts`): trust cannot
            rise by deletion unseen.
    """

    case_id: str
    strategy: str
    metrics: ReportMetrics
    initial_trust: float = Field(ge=0.0, le=1.0)
    n_edits: int = Field(ge=0)
    edit_ops: tuple[tuple[str, int], ...] = ()
    wrong_citations: int = Field(0, ge=0)
    evidence_repairs: int = Field(0, ge=0)
    stop_reason: str = ""
    judge: str = "offline"
    seconds: float = Field(0.0, ge=0.0)
    restored: tuple[tuple[str, int, int], ...] = ()
    clean_kept: tuple[int, int] = (0, 0)
    evidence_lost: tuple[tuple[str, int], ...] = ()
    cites_kept: int = Field(0, ge=0)
    cites_removed: int = Field(0, ge=0)
    annotations: int = Field(0, ge=0)
    orphan_claims: int = Field(0, ge=0)


class StrategySummary(Frozen):
    """System row of one strategy.

    Attributes:
        strategy: ``none`` / ``existence`` / ``efa``.
        system: Macro (report-level) and micro (citation-level) metrics.
        ci: 95 % bootstrap CI per macro metric (:data:`CI_METRICS`), over tasks.
        micro_ci: Task-cluster bootstrap CI of the citation-level E, F, A micro means
            (absent when no citation was judged on that axis).
        initial_trust: Mean trust of the drafts before the strategy.
        n_edits: Edits over all tasks.
        edit_ops: ``(op, count)`` over all tasks, sorted.
        wrong_citations, evidence_repairs: Sums over tasks (see :class:`PairResult`).
        restored, clean_kept: Ground-truth sums over tasks (perturbation suites only).
        evidence_lost: ``(op, count)`` over tasks (see :class:`PairResult`).
        cites_kept, cites_removed, annotations, orphan_claims: Sums over tasks (see
            :class:`PairResult`).
    """

    strategy: str
    system: SystemMetrics
    ci: dict[str, BootstrapCI]
    micro_ci: dict[str, BootstrapCI] = Field(default_factory=dict)
    initial_trust: float
    n_edits: int
    edit_ops: tuple[tuple[str, int], ...] = ()
    wrong_citations: int = 0
    evidence_repairs: int = 0
    restored: tuple[tuple[str, int, int], ...] = ()
    clean_kept: tuple[int, int] = (0, 0)
    evidence_lost: tuple[tuple[str, int], ...] = ()
    cites_kept: int = 0
    cites_removed: int = 0
    annotations: int = 0
    orphan_claims: int = 0


class Comparison(Frozen):
    """Paired comparison of strategy ``b`` against ``a`` on the same tasks.

    Attributes:
        a, b: Strategy names.
        final, trust, support, coverage: Paired bootstrap on the per-task difference ``b - a``.
        all_pass: McNemar exact test on report all-pass.
    """

    a: str
    b: str
    final: PairedBootstrap
    trust: PairedBootstrap
    support: PairedBootstrap
    coverage: PairedBootstrap
    all_pass: McNemarResult


class AblationResults(Frozen):
    """Everything ``results.json`` holds.

    Attributes:
        suite: Suite name or path.
        strategies: In the order run.
        judge: Verification (E/F/A) judge.
        edit_policy: The revision policy the strategies ran under (``annotate`` / ``proven`` /
            ``aggressive``; ``""`` when the caller did not say).
        coverage_judge: Coverage/support judge names.
        seed: Seed of suite generation, sampling and bootstrap.
        n_tasks: Tasks scored per strategy.
        seconds: Time spent governing and scoring all pairs (resumed ones included).
        wall_seconds: Wall time of this call (excluding suite loading).
        summaries: One per strategy.
        comparisons: Every later strategy against every earlier one.
        taxonomy: ``(strategy, profile)`` pairs.
        pairs: Every (task, strategy) result.
        skipped: Items of the suite that could not be made into cases (with the reason).
    """

    suite: str
    strategies: tuple[str, ...]
    judge: str
    edit_policy: str = ""
    coverage_judge: str
    seed: int
    n_tasks: int
    seconds: float
    wall_seconds: float = 0.0
    summaries: tuple[StrategySummary, ...]
    comparisons: tuple[Comparison, ...]
    taxonomy: tuple[tuple[str, TaxonomyProfile], ...]
    pairs: tuple[PairResult, ...]
    skipped: tuple[str, ...] = ()


# ---------------------------------------------------------------------------------------------
# suites and generators

Generator = Callable[[GeneratorView], str]


def lawbench_dir() -> Path:
    """``$CITEGOV_LAWBENCH_DIR``, else ``lawbench_dev`` in the shared data folder
    (:func:`benchmarks.datadir.shared_data_dir`: ``$CITEGOV_SHARED_DATA`` or a ``shared/data``
    folder beside the checkout or the working directory)."""
    from benchmarks.datadir import data_path

    env = os.environ.get("CITEGOV_LAWBENCH_DIR")
    return Path(env) if env else data_path("lawbench_dev")


def resolve_generator(spec: str) -> Generator:
    """Turn ``drafts:DIR`` or ``module:function`` into a generator.

    Args:
        spec: ``drafts:DIR`` (read ``DIR/<task id>.md`` or ``.txt``; the task id is taken
            from the view's ``task_id`` attribute set by :func:`load_cases`) or
            ``package.module:function`` (a callable ``(GeneratorView) -> str``).

    Raises:
        TaskError: The spec has no ``:``, the folder does not exist, the module cannot be
            imported or has no such callable.
    """
    head, sep, tail = spec.partition(":")
    if not sep or not head or not tail:
        raise TaskError(
            f"--generator {spec!r}: use drafts:DIR or module:function (e.g. mypkg.gen:write)"
        )
    if head == "drafts":
        folder = Path(tail)
        if not folder.is_dir():
            raise TaskError(f"--generator {spec!r}: {folder} is not a folder of drafts")
        return _DraftFolder(folder)
    try:
        module = importlib.import_module(head)
    except ImportError as exc:
        raise TaskError(
            f"--generator {spec!r}: cannot import {head} ({exc}); check PYTHONPATH"
        ) from None
    fn = getattr(module, tail, None)
    if not callable(fn):
        raise TaskError(f"--generator {spec!r}: {head} has no callable {tail}")
    return fn


class _DraftFolder:
    """Generator reading existing drafts ``<folder>/<task id>.md|.txt``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def draft_for(self, task_id: str) -> str:
        for suffix in (".md", ".txt"):
            p = self.folder / f"{task_id}{suffix}"
            if p.is_file():
                return read_draft(p).text
        raise TaskError(
            f"no draft for task {task_id!r} in {self.folder} (expected {task_id}.md or .txt)"
        )

    def __call__(self, view: GeneratorView) -> str:  # pragma: no cover - needs the id
        raise TaskError("drafts:DIR needs the task id; it is only usable through load_cases")


def _generate(gen: Generator, task: Task) -> str:
    if isinstance(gen, _DraftFolder):
        return gen.draft_for(task.id)
    text = gen(generator_view(task))
    if not isinstance(text, str):
        raise TaskError(f"generator returned {type(text).__name__} for task {task.id}; return str")
    return text


def _perturbed_case(r: Any, suite: str) -> Case:
    return Case(
        id=r.id, task=r.task, draft=r.text, suite=suite, clean_text=r.clean_text, injected=r.errors
    )


def _sample(
    cases: Sequence[Case], limit: int | None, seed: int, *, per_model: bool = False
) -> tuple[Case, ...]:
    """A seeded sample of ``limit`` cases in suite order; with ``per_model``, of ``limit``
    cases of each ``Case.group`` (each group drawn with its own seed, ``f"{seed}:{group}"``, so
    a group's sample does not depend on the others)."""
    if limit is not None and limit < 1:
        raise TaskError(f"--limit {limit}: give at least 1")
    if limit is None:
        return tuple(cases)
    keep: set[int] = set()
    groups = dict.fromkeys(c.group for c in cases) if per_model else {"": None}
    for g in groups:
        idx = [i for i, c in enumerate(cases) if not per_model or c.group == g]
        rng = random.Random(f"{seed}:{g}" if per_model else seed)
        keep |= set(idx) if limit >= len(idx) else set(rng.sample(idx, limit))
    return tuple(c for i, c in enumerate(cases) if i in keep)


def load_cases(
    suite: str,
    store: AuthorityStore,
    *,
    seed: int = 0,
    limit: int | None = None,
    per_model: bool = False,
    generator: str | Generator | None = None,
    screen: Screen | None = None,
) -> tuple[tuple[Case, ...], tuple[str, ...]]:
    """Cases of a suite (names and paths in the module docstring).

    Args:
        suite: ``perturbation[:N]``, ``lawbench-3-2``, ``lawbench-3-8`` or a path.
        store: The authority store.
        seed: Seed of the perturbation suite and of ``limit`` sampling.
        limit: Keep a seeded random sample of this many cases (in suite order).
        per_model: Apply ``limit`` to each model's answers of a LawBench suite (``Case.group``)
            rather than to the whole suite; no effect on suites without models.
        generator: A spec for :func:`resolve_generator` or a callable; required for task
            files, optional for built-in suites (replaces their drafts).
        screen: Passed to :func:`benchmarks.perturb.generate_suite` for ``perturbation``
            (keep only clean citations the screen passes).

    Returns:
        ``(cases, skipped)``; ``skipped`` names items that could not become cases and why.

    Raises:
        TaskError: Unknown suite, unreadable files, a task file without a generator, or a
            generator failure.
    """
    gen = resolve_generator(generator) if isinstance(generator, str) else generator
    name, _, arg = suite.partition(":")
    skipped: tuple[str, ...] = ()
    if name == "perturbation":
        n = int(arg) if arg.isdigit() else 60
        reports = generate_suite(store, n_reports=n, seed=seed, screen=screen)
        cases = [_perturbed_case(r, suite) for r in reports]
    elif name in ("lawbench-3-2", "lawbench-3-8"):
        found, skip = load_lawbench_cases(lawbench_dir(), name.removeprefix("lawbench-"), store)
        cases = [
            Case(id=c.task.id, task=c.task, draft=c.draft, suite=suite, group=c.item.model)
            for c in found
        ]
        skipped = tuple(f"{i}: reference cites no article" for i in skip)
    else:
        path = Path(suite)
        if not path.exists():
            raise TaskError(
                f"--suite {suite!r}: not a built-in suite ({', '.join(BUILTIN_SUITES)}) "
                "and no such file or folder"
            )
        if is_suite_file(path):
            cases = [_perturbed_case(r, suite) for r in load_suite(path)]
        else:
            try:
                tasks = load_tasks(path)
            except TaskError as native_error:
                try:
                    tasks = load_legalcitetrust(path)
                except TaskError:
                    raise native_error from None
            if gen is None:
                raise TaskError(
                    f"{suite}: a task file has no drafts; pass --generator drafts:DIR or "
                    "module:function"
                )
            cases = [Case(id=t.id, task=t, draft="", suite=suite) for t in tasks]
    cases = list(_sample(cases, limit, seed, per_model=per_model))
    if gen is not None:
        cases = [c.model_copy(update={"draft": _generate(gen, c.task)}) for c in cases]
    return tuple(cases), skipped


# ---------------------------------------------------------------------------------------------
# checkpoint


def read_checkpoint(path: Path) -> list[PairResult]:
    """Rows of a checkpoint; a malformed line (a write cut by a kill) is dropped."""
    if not path.is_file():
        return []
    out = []
    for line in path.read_text(encoding="utf-8").split("\n"):
        if not line.strip():
            continue
        try:
            out.append(PairResult.model_validate_json(line))
        except ValueError:
            continue
    return out


def append_checkpoint(path: Path, row: PairResult) -> None:
    """Append one row as a single ``write`` followed by ``fsync`` (no partial duplicate)."""
    data = (row.model_dump_json() + "\n").encode("utf-8")
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)


# ---------------------------------------------------------------------------------------------
# one pair


def _evidence_keys(store: AuthorityStore, task: Task) -> set[tuple[str, str | None]]:
    keys = set()
    for item in task.rubric:
        for ev in item.evidence:
            cit = parse_pin(ev.authority, store)
            if cit is not None and cit.instrument:
                keys.add((cit.instrument, cit.article))
    return keys


def run_pair(
    gov: Any, judge: CoverageJudge, case: Case, strategy: str, store: AuthorityStore
) -> PairResult:
    """Govern one draft with one strategy and score the output.

    Args:
        gov: A :class:`governor.api.Governor`.
        judge: The coverage/support judge.
        case: The task and draft.
        strategy: ``none`` / ``existence`` / ``efa``.
        store: The authority store (evidence resolution).

    Returns:
        The :class:`PairResult`.
    """
    start = time.perf_counter()
    task = case.task
    result = gov.govern(case.draft, strategy=strategy, as_of=task.as_of, context=task.query)
    rubric, subs = judge.judge(task, result.text, result.final_verdicts)
    metrics = report_metrics(result.final_verdicts, rubric, subs, task=task)
    initial = report_metrics(result.initial_verdicts, (), (), task_id=task.id).s_trust
    evidence = _evidence_keys(store, task)
    wrong = sum(
        1
        for v in result.initial_verdicts
        if v.citation.instrument
        and v.citation.article
        and (v.citation.instrument, v.citation.article) not in evidence
    )
    repairs = 0
    lost: Counter[str] = Counter()
    for e in result.edits:
        if e.op in REPAIR_OPS:
            cit = parse_pin(e.after, store)
            if cit is not None and (cit.instrument, cit.article) in evidence:
                repairs += 1
        before = {(c.instrument, c.article) for c in extract(e.before, store)} & evidence
        after = {(c.instrument, c.article) for c in extract(e.after, store)} & evidence
        if before and not after:
            lost[e.op] += 1
    ops = Counter(e.op for e in result.edits)
    restored, kept = (
        _ground_truth(case, result.text, store)
        if case.injected or case.clean_text
        else ((), (0, 0))
    )
    dc = deletion_counts(
        result.initial_verdicts,
        result.edits,
        result.text,
        rounds=[r.verdicts for r in result.rounds],
    )
    return PairResult(
        case_id=case.id,
        strategy=strategy,
        metrics=metrics,
        initial_trust=initial,
        n_edits=len(result.edits),
        edit_ops=tuple(sorted(ops.items())),
        wrong_citations=wrong,
        evidence_repairs=repairs,
        stop_reason=result.stop_reason,
        judge=str(getattr(gov.judge, "name", "offline")),
        seconds=time.perf_counter() - start,
        restored=restored,
        clean_kept=kept,
        evidence_lost=tuple(sorted(lost.items())),
        cites_kept=dc.kept,
        cites_removed=dc.removed,
        annotations=dc.annotations,
        orphan_claims=dc.orphan_claims,
    )


def _canonical(
    line: str, store: AuthorityStore
) -> tuple[tuple[tuple[str, str, int | None], ...], str]:
    """A sentence as (cited provisions, its other text normalised): the unit of restoration."""
    cits = [c for c in extract(line, store) if c.instrument and c.article]
    rest = line
    for c in sorted(cits, key=lambda c: -c.span.start):
        rest = rest[: c.span.start] + rest[c.span.end :]
    return tuple((c.instrument or "", c.article or "", c.paragraph) for c in cits), normalize(rest)


def _restores(clean: tuple[Any, str], final: Iterable[tuple[Any, str]]) -> bool:
    keys, rest = clean
    for fkeys, frest in final:
        if frest != rest or len(fkeys) != len(keys):
            continue
        if all(
            fi == ci and fa == ca and fp in (cp, None)
            for (ci, ca, cp), (fi, fa, fp) in zip(keys, fkeys, strict=True)
        ):
            return True
    return False


def _ground_truth(
    case: Case, final_text: str, store: AuthorityStore
) -> tuple[tuple[tuple[str, int, int], ...], tuple[int, int]]:
    """Label-based restoration counts of a perturbation case (see :class:`PairResult`)."""
    clean_lines = case.clean_text.split("\n")
    dirty_lines = case.draft.split("\n")
    if len(clean_lines) != len(dirty_lines):
        return (), (0, 0)
    final = [_canonical(ln, store) for ln in final_text.split("\n") if ln.strip()]
    err_lines: dict[int, str] = {}
    for e in case.injected:
        err_lines[case.draft.count("\n", 0, e.span.start)] = e.kind
    per_kind: dict[str, list[int]] = {}
    kept = [0, 0]
    for i, (cl, dl) in enumerate(zip(clean_lines, dirty_lines, strict=True)):
        canon = _canonical(cl, store)
        if not canon[0]:
            continue
        ok = _restores(canon, final)
        if i in err_lines:
            row = per_kind.setdefault(err_lines[i], [0, 0])
            row[0] += 1
            row[1] += int(ok)
        elif cl == dl:
            kept[0] += 1
            kept[1] += int(ok)
    return tuple((k, a, b) for k, (a, b) in sorted(per_kind.items())), (kept[0], kept[1])


# ---------------------------------------------------------------------------------------------
# aggregation


def _micro_ci(
    reports: Sequence[ReportMetrics], axis: str, seed: int, n_resamples: int
) -> BootstrapCI | None:
    """Task-cluster bootstrap CI of a citation-level micro mean (ratio of sums over tasks)."""
    sums, counts = [], []
    for r in reports:
        vals = [
            getattr(c, axis) for c in r.citations if not c.excluded and getattr(c, axis) is not None
        ]
        sums.append(math.fsum(vals))
        counts.append(len(vals))
    s, n = np.asarray(sums), np.asarray(counts, dtype=float)
    if n.sum() == 0:
        return None
    estimate = float(s.sum() / n.sum())
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(s), size=(n_resamples, len(s)))
    num, den = s[idx].sum(axis=1), n[idx].sum(axis=1)
    ratios = num[den > 0] / den[den > 0]
    low, high = (estimate, estimate) if len(s) == 1 else np.quantile(ratios, [0.025, 0.975])
    return BootstrapCI(
        estimate=estimate,
        low=float(low),
        high=float(high),
        confidence=0.95,
        n=len(s),
        n_resamples=n_resamples,
        seed=seed,
    )


def summarise(
    pairs: Sequence[PairResult],
    strategies: Sequence[str],
    *,
    seed: int = 0,
    n_resamples: int = 10_000,
) -> tuple[
    tuple[StrategySummary, ...], tuple[Comparison, ...], tuple[tuple[str, TaxonomyProfile], ...]
]:
    """System rows with CIs, pairwise comparisons and taxonomy profiles.

    Only tasks scored under every strategy are aggregated, so rows are comparable.

    Raises:
        ValueError: No task was scored under every strategy.
    """
    by: dict[str, dict[str, PairResult]] = {s: {} for s in strategies}
    for p in pairs:
        if p.strategy in by:
            by[p.strategy][p.case_id] = p
    common = sorted(set.intersection(*(set(v) for v in by.values())))
    if not common:
        raise ValueError("no task was scored under every strategy; run the ablation first")
    summaries = []
    profiles = []
    reports: dict[str, list[ReportMetrics]] = {}
    for s in strategies:
        rows = [by[s][cid] for cid in common]
        rs = [r.metrics for r in rows]
        reports[s] = rs
        ci = {
            m: bootstrap_ci([float(getattr(r, m)) for r in rs], seed=seed, n_resamples=n_resamples)
            for m in CI_METRICS
        }
        micro = {a: c for a in MICRO_AXES if (c := _micro_ci(rs, a, seed, n_resamples)) is not None}
        ops: Counter[str] = Counter()
        inj: Counter[str] = Counter()
        fixed: Counter[str] = Counter()
        lost: Counter[str] = Counter()
        for r in rows:
            ops.update(dict(r.edit_ops))
            lost.update(dict(r.evidence_lost))
            for kind, n_inj, n_fixed in r.restored:
                inj[kind] += n_inj
                fixed[kind] += n_fixed
        summaries.append(
            StrategySummary(
                strategy=s,
                system=system_metrics(rs),
                ci=ci,
                micro_ci=micro,
                initial_trust=math.fsum(r.initial_trust for r in rows) / len(rows),
                n_edits=sum(r.n_edits for r in rows),
                edit_ops=tuple(sorted(ops.items())),
                wrong_citations=sum(r.wrong_citations for r in rows),
                evidence_repairs=sum(r.evidence_repairs for r in rows),
                restored=tuple((k, inj[k], fixed[k]) for k in sorted(inj)),
                evidence_lost=tuple(sorted(lost.items())),
                cites_kept=sum(r.cites_kept for r in rows),
                cites_removed=sum(r.cites_removed for r in rows),
                annotations=sum(r.annotations for r in rows),
                orphan_claims=sum(r.orphan_claims for r in rows),
                clean_kept=(
                    sum(r.clean_kept[0] for r in rows),
                    sum(r.clean_kept[1] for r in rows),
                ),
            )
        )
        profiles.append((s, taxonomy_profile(rs)))
    comparisons = []
    for i, a in enumerate(strategies):
        for b in strategies[i + 1 :]:
            ra, rb = pair_reports(reports[a], reports[b])

            def pb(
                attr: str, ra: Sequence[ReportMetrics] = ra, rb: Sequence[ReportMetrics] = rb
            ) -> PairedBootstrap:
                return paired_bootstrap(
                    [float(getattr(r, attr)) for r in ra],
                    [float(getattr(r, attr)) for r in rb],
                    seed=seed,
                    n_resamples=n_resamples,
                )

            comparisons.append(
                Comparison(
                    a=a,
                    b=b,
                    final=pb("s_final"),
                    trust=pb("s_trust"),
                    support=pb("s_sup"),
                    coverage=pb("s_cov"),
                    all_pass=mcnemar_exact([r.all_pass for r in ra], [r.all_pass for r in rb]),
                )
            )
    return tuple(summaries), tuple(comparisons), tuple(profiles)


# ---------------------------------------------------------------------------------------------
# the run


def _check_strategies(strategies: Sequence[str]) -> tuple[str, ...]:
    out = tuple(dict.fromkeys(s.strip() for s in strategies if s.strip()))
    bad = [s for s in out if s not in STRATEGIES]
    if bad or not out:
        raise StrategyError(
            f"unknown strategies {bad or '(none given)'}: use some of {', '.join(STRATEGIES)}"
        )
    return out


def _run_settings(
    suite: str, strategies: Sequence[str], judge: str, seed: int, limit: int | None, gen: str | None
) -> dict[str, Any]:
    return {
        "suite": suite,
        "strategies": list(strategies),
        "judge": judge,
        "seed": seed,
        "limit": limit,
        "generator": gen,
    }


def run_ablation(
    cases: Sequence[Case],
    strategies: Sequence[str],
    *,
    gov: Any,
    store: AuthorityStore,
    out_dir: Path,
    suite: str = "",
    seed: int = 0,
    settings: Mapping[str, Any] | None = None,
    skipped: Iterable[str] = (),
    progress: Callable[[int, int, str], None] | None = None,
    coverage_judge: CoverageJudge | None = None,
    n_resamples: int = 10_000,
) -> AblationResults:
    """Run (or resume) an ablation and return its results; writes the checkpoint only.

    Args:
        cases: The tasks and drafts (:func:`load_cases`).
        strategies: Strategy names, e.g. ``("none", "existence", "efa")``.
        gov: A :class:`governor.api.Governor` (its judge decides E/F/A).
        store: The authority store.
        out_dir: Output folder; ``checkpoint.jsonl`` and ``run.json`` live there.
        suite: Suite name recorded in the results.
        seed: Bootstrap seed (and recorded).
        settings: Run settings compared on resume (default: built from the arguments).
        skipped: Suite items that could not become cases (recorded).
        progress: Called ``(done, total, label)`` after each pair.
        coverage_judge: Default :class:`CoverageJudge` over ``store``.
        n_resamples: Bootstrap resamples.

    Returns:
        :class:`AblationResults`.

    Raises:
        StrategyError: An unknown strategy.
        TaskError: No case, duplicate case ids, or ``out_dir`` holds a checkpoint of a run
            with other settings.
    """
    strats = _check_strategies(strategies)
    if not cases:
        raise TaskError(f"suite {suite!r} has no case to run; check --suite and --limit")
    ids = [c.id for c in cases]
    if len(set(ids)) != len(ids):
        raise TaskError(f"suite {suite!r} has duplicate task ids; give each task a unique id")
    judge = coverage_judge or CoverageJudge(store)
    judge_name = str(getattr(gov.judge, "name", "offline"))
    out_dir.mkdir(parents=True, exist_ok=True)
    wanted = dict(settings or _run_settings(suite, strats, judge_name, seed, None, None))
    wanted["coverage_judge"] = judge.coverage_name
    # the policy decides the edits, so a checkpoint of another policy must not be resumed
    wanted.setdefault("edit_policy", getattr(getattr(gov, "config", None), "edit_policy", None))
    run_file = out_dir / RUN_FILE
    ckpt = out_dir / CHECKPOINT
    if run_file.is_file() and ckpt.is_file():
        before = json.loads(run_file.read_text(encoding="utf-8"))
        diff = [
            k
            for k in (
                "suite",
                "judge",
                "seed",
                "limit",
                "per_model",
                "generator",
                "coverage_judge",
                "edit_policy",
            )
            if before.get(k) != wanted.get(k)
        ]
        if diff:
            raise TaskError(
                f"{out_dir} holds a run with other settings ({', '.join(diff)} differ): "
                "use another --out folder or delete it"
            )
    atomic_write_text(run_file, json.dumps(wanted, ensure_ascii=False, indent=2) + "\n")
    done_rows = read_checkpoint(ckpt)
    # rewrite the checkpoint without a cut line, keeping one row per pair
    keep: dict[tuple[str, str], PairResult] = {}
    valid_ids = set(ids)
    for r in done_rows:
        if r.case_id in valid_ids and r.strategy in strats:
            keep[(r.case_id, r.strategy)] = r
    atomic_write_text(ckpt, "".join(r.model_dump_json() + "\n" for r in keep.values()))
    total = len(cases) * len(strats)
    done = len(keep)
    start = time.perf_counter()
    for case in cases:
        for s in strats:
            if (case.id, s) in keep:
                continue
            row = run_pair(gov, judge, case, s, store)
            append_checkpoint(ckpt, row)
            keep[(case.id, s)] = row
            done += 1
            if progress is not None:
                progress(done, total, f"{case.id} · {s}")
    pairs = [keep[(c.id, s)] for c in cases for s in strats]
    summaries, comparisons, profiles = summarise(pairs, strats, seed=seed, n_resamples=n_resamples)
    return AblationResults(
        suite=suite,
        strategies=strats,
        judge=judge_name,
        edit_policy=str(wanted.get("edit_policy") or ""),
        coverage_judge=f"{judge.coverage_name}+cited-authority; sections: headings/whole-text",
        seed=seed,
        n_tasks=len(cases),
        seconds=math.fsum(p.seconds for p in pairs),
        wall_seconds=time.perf_counter() - start,
        summaries=summaries,
        comparisons=comparisons,
        taxonomy=profiles,
        pairs=tuple(pairs),
        skipped=tuple(skipped),
    )


__all__ = [
    "BUILTIN_SUITES",
    "AblationResults",
    "Case",
    "Comparison",
    "PairResult",
    "StrategySummary",
    "append_checkpoint",
    "lawbench_dir",
    "load_cases",
    "read_checkpoint",
    "resolve_generator",
    "run_ablation",
    "run_pair",
    "summarise",
]
