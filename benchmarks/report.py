"""Tables and plots of an ablation run (layer 7).

:func:`write_outputs` writes, into one folder: ``results.json`` (every number, with the judge
that produced it), ``results.csv`` (one row per task × strategy), ``table.md`` (a Table 7-style
leaderboard as in LegalCiteTrust — Final, Cov, Sup, Trust, E, F, A per strategy with 95 %
bootstrap CIs — plus paired comparisons, the taxonomy profile and per-task rows) and two PNG
plots (``scores_by_strategy.png``: Final/Cov/Sup/Trust per strategy with CI error bars;
``trust_vs_support.png``: per-task trust against support).

:func:`policy_rows` / :func:`policy_markdown` / :func:`write_policy_outputs` put several runs
(suites × edit policies, each a full run) into one table: Trust, Cov, Sup, Final, all-pass,
citations kept/removed, orphan claims and annotations per (suite, policy, strategy), and the
share of injected errors restored per policy on perturbation suites (issue 13, "done when").
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from pydantic import Field

from benchmarks.ablation import AblationResults, StrategySummary
from benchmarks.stats import BootstrapCI
from governor.core.extras import require
from governor.core.models import Frozen
from governor.text.textio import atomic_write_text

TABLE_COLUMNS: Final = (
    "Final", "Cov", "Sup", "Trust", "E", "F", "A", "all-pass",
    "kept", "removed", "annotations", "orphan claims",
)  # fmt: skip
CSV_FIELDS: Final = (
    "case_id", "strategy", "s_final", "s_cov", "s_sup", "s_rubric", "s_subtopic", "s_trust",
    "initial_trust", "n_cite", "n_excluded", "all_pass", "citation_all_pass", "n_edits",
    "edit_ops", "wrong_citations", "evidence_repairs", "stop_reason", "judge",
    "coverage_judges", "seconds", "cites_kept", "cites_removed", "annotations", "orphan_claims",
)  # fmt: skip
PLOT_METRICS: Final = (
    ("s_final", "Final"),
    ("s_cov", "Cov"),
    ("s_sup", "Sup"),
    ("s_trust", "Trust"),
)


def _ci(c: BootstrapCI | None, digits: int = 4) -> str:
    if c is None:
        return "–"
    return f"{c.estimate:.{digits}f} [{c.low:.{digits - 1}f}, {c.high:.{digits - 1}f}]"


def _row(s: StrategySummary) -> list[str]:
    sysm = s.system.citations
    micro = {
        "existence": s.micro_ci.get("existence"),
        "fidelity": s.micro_ci.get("fidelity"),
        "applicability": s.micro_ci.get("applicability"),
    }
    cells = [_ci(s.ci["s_final"]), _ci(s.ci["s_cov"]), _ci(s.ci["s_sup"]), _ci(s.ci["s_trust"])]
    for axis, value in (
        ("existence", sysm.existence),
        ("fidelity", sysm.fidelity),
        ("applicability", sysm.applicability),
    ):
        c = micro[axis]
        cells.append(_ci(c) if c is not None else f"{value:.4f}")
    cells.append(_ci(s.ci["all_pass"], 3))
    cells += [str(s.cites_kept), str(s.cites_removed), str(s.annotations), str(s.orphan_claims)]
    return cells


def leaderboard(results: AblationResults) -> str:
    """The Table 7-style Markdown table (one row per strategy)."""
    head = "| Strategy | n | " + " | ".join(TABLE_COLUMNS) + " |"
    sep = "|---|---:|" + "---:|" * len(TABLE_COLUMNS)
    lines = [head, sep]
    for s in results.summaries:
        lines.append(f"| {s.strategy} | {s.system.n_reports} | " + " | ".join(_row(s)) + " |")
    return "\n".join(lines)


def _comparisons(results: AblationResults) -> str:
    lines = [
        "| b vs a | Δ Final [95% CI] (p) | Δ Trust (p) | Δ Sup (p) | Δ Cov (p) | all-pass a-only / b-only (McNemar p) |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for c in results.comparisons:
        lines.append(
            f"| {c.b} vs {c.a} | {c.final.delta:+.4f} [{c.final.low:+.3f}, {c.final.high:+.3f}] "
            f"({c.final.p_value:.3g}) | {c.trust.delta:+.4f} ({c.trust.p_value:.3g}) | "
            f"{c.support.delta:+.4f} ({c.support.p_value:.3g}) | "
            f"{c.coverage.delta:+.4f} ({c.coverage.p_value:.3g}) | "
            f"{c.all_pass.a_only} / {c.all_pass.b_only} ({c.all_pass.p_value:.3g}) |"
        )
    return "\n".join(lines)


def _diagnostics(results: AblationResults) -> str:
    lines = [
        "| Strategy | draft trust | n_cite | citation all-pass | edits | edit ops | wrong cites "
        "| repaired to evidence | evidence lost by |",
        "|---|---:|---:|---:|---:|---|---:|---:|---|",
    ]
    for s in results.summaries:
        ops = ", ".join(f"{op} {n}" for op, n in s.edit_ops) or "–"
        lost = ", ".join(f"{op} {n}" for op, n in s.evidence_lost) or "–"
        lines.append(
            f"| {s.strategy} | {s.initial_trust:.4f} | {s.system.n_cite} | "
            f"{s.system.citations.citation_all_pass:.4f} | {s.n_edits} | {ops} | "
            f"{s.wrong_citations} | {s.evidence_repairs} | {lost} |"
        )
    return "\n".join(lines)


def _ground_truth(results: AblationResults) -> str:
    kinds = sorted({k for s in results.summaries for k, _, _ in s.restored})
    if not kinds:
        return ""
    lines = [
        "## Ground truth from the injected labels",
        "",
        "Share of injected errors whose clean sentence the governed text holds again "
        "(restored / injected), and of untouched citation sentences left intact. This does not "
        "depend on the verifier that the strategies act on.",
        "",
        "| Strategy | all errors | " + " | ".join(kinds) + " | untouched kept |",
        "|---|---:|" + "---:|" * len(kinds) + "---:|",
    ]
    for s in results.summaries:
        by = {k: (a, b) for k, a, b in s.restored}
        tot_a = sum(a for a, _ in by.values())
        tot_b = sum(b for _, b in by.values())
        cells = [f"{by.get(k, (0, 0))[1]}/{by.get(k, (0, 0))[0]}" for k in kinds]
        ka, kb = s.clean_kept
        lines.append(
            f"| {s.strategy} | {tot_b}/{tot_a} ({tot_b / tot_a:.0%}) | "
            + " | ".join(cells)
            + f" | {kb}/{ka} |"
        )
    return "\n".join(lines)


def _by_type(results: AblationResults) -> str:
    lines = ["| Strategy | type | n | E | F | A | trust |", "|---|---|---:|---:|---:|---:|---:|"]
    for s in results.summaries:
        for d in s.system.by_type:
            if d.n_cite:
                lines.append(
                    f"| {s.strategy} | {d.group} | {d.n_cite} | {d.existence:.4f} | "
                    f"{d.fidelity:.4f} | {d.applicability:.4f} | {d.trust:.4f} |"
                )
    return "\n".join(lines)


def _taxonomy(results: AblationResults) -> str:
    layers = [lp.name for lp in results.taxonomy[0][1].layers] if results.taxonomy else []
    lines = [
        "| Strategy | " + " | ".join(f"{name} HF / HD" for name in layers) + " |",
        "|---|" + "---:|" * len(layers),
    ]
    for strategy, prof in results.taxonomy:
        cells = [f"{lp.hf:.3f} / {lp.hd:.3f}" for lp in prof.layers]
        lines.append(f"| {strategy} | " + " | ".join(cells) + " |")
    codes = ["| Strategy | " + " | ".join(c.name for c in results.taxonomy[0][1].codes) + " |"]
    codes.append("|---|" + "---:|" * len(results.taxonomy[0][1].codes))
    for strategy, prof in results.taxonomy:
        codes.append(f"| {strategy} | " + " | ".join(str(c.n_codes) for c in prof.codes) + " |")
    lifts = []
    for strategy, prof in results.taxonomy:
        top = sorted((c for c in prof.lifts if c.defined and c.n_ab > 0), key=lambda c: -c.lift)
        if top:
            lifts.append(
                f"- {strategy}: "
                + "; ".join(f"{c.a}×{c.b} lift {c.lift:.2f} (n={c.n_ab})" for c in top[:5])
            )
    return (
        "\n".join(lines)
        + "\n\nCodes (count of citation × code):\n\n"
        + "\n".join(codes)
        + (
            "\n\nHighest lifts between codes (reports with both):\n\n" + "\n".join(lifts)
            if lifts
            else ""
        )
    )


def _per_task(results: AblationResults) -> str:
    strategies = results.strategies
    by = {(p.case_id, p.strategy): p for p in results.pairs}
    ids = list(dict.fromkeys(p.case_id for p in results.pairs))
    head = "| task | " + " | ".join(f"{s} Final / Trust / Sup / Cov" for s in strategies) + " |"
    lines = [head, "|---|" + "---:|" * len(strategies)]
    for cid in ids:
        cells = []
        for s in strategies:
            m = by[(cid, s)].metrics
            cells.append(f"{m.s_final:.3f} / {m.s_trust:.3f} / {m.s_sup:.3f} / {m.s_cov:.3f}")
        lines.append(f"| {cid} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def markdown(results: AblationResults) -> str:
    """The whole ``table.md``."""
    n = results.n_tasks
    judges = f"E/F/A judge: `{results.judge}`; coverage/support judge: `{results.coverage_judge}`"
    parts = [
        f"# Ablation on `{results.suite}`",
        "",
        f"{n} tasks × {len(results.strategies)} strategies; {judges}; seed {results.seed}; "
        f"governing and scoring took {results.seconds:.1f} s "
        f"(wall time of the last call {results.wall_seconds:.1f} s).",
        "",
        "Final, Cov, Sup, Trust and all-pass are per-report values macro-averaged over tasks "
        "(SPEC §4), with 95 % percentile bootstrap CIs over tasks. E, F, A are citation-level "
        "micro means with task-cluster bootstrap CIs.",
        "",
        leaderboard(results),
        "",
        "## Paired comparisons (same tasks)",
        "",
        "Paired bootstrap on the per-task difference (b − a); McNemar exact test on report "
        "all-pass.",
        "",
        _comparisons(results),
        "",
        "## Diagnostics",
        "",
        _diagnostics(results),
        "",
        _by_type(results),
        "",
        _ground_truth(results),
        "",
        "## Taxonomy profile (final texts)",
        "",
        _taxonomy(results),
    ]
    if results.skipped:
        parts += ["", f"Skipped {len(results.skipped)} suite items (e.g. {results.skipped[0]})."]
    parts += [
        "",
        "## Per-task rows",
        "",
        "<details><summary>show</summary>",
        "",
        _per_task(results),
        "",
        "</details>",
        "",
    ]
    return "\n".join(parts)


def csv_text(results: AblationResults) -> str:
    """``results.csv``: one row per task × strategy, columns :data:`CSV_FIELDS`."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_FIELDS)
    for p in results.pairs:
        m = p.metrics
        w.writerow(
            [
                p.case_id, p.strategy, f"{m.s_final:.6f}", f"{m.s_cov:.6f}", f"{m.s_sup:.6f}",
                f"{m.s_rubric:.6f}", f"{m.s_subtopic:.6f}", f"{m.s_trust:.6f}",
                f"{p.initial_trust:.6f}", m.n_cite, m.n_excluded, int(m.all_pass),
                int(m.citation_all_pass), p.n_edits,
                ";".join(f"{op}={n}" for op, n in p.edit_ops), p.wrong_citations,
                p.evidence_repairs, p.stop_reason, p.judge, ";".join(m.coverage_judges),
                f"{p.seconds:.4f}", p.cites_kept, p.cites_removed, p.annotations,
                p.orphan_claims,
            ]
        )  # fmt: skip
    return buf.getvalue()


def plot_scores(results: AblationResults, path: Path) -> None:
    """Grouped bars: Final/Cov/Sup/Trust per strategy with 95 % CI error bars (PNG)."""
    matplotlib = require("matplotlib")  # the `plots` extra

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.5, 4.2), dpi=120)
    n = len(results.summaries)
    width = 0.8 / max(n, 1)
    for i, s in enumerate(results.summaries):
        xs = [j + (i - (n - 1) / 2) * width for j in range(len(PLOT_METRICS))]
        cis = [s.ci[m] for m, _ in PLOT_METRICS]
        ys = [c.estimate for c in cis]
        err = [[c.estimate - c.low for c in cis], [c.high - c.estimate for c in cis]]
        ax.bar(xs, ys, width, yerr=err, capsize=3, label=s.strategy)
    ax.set_xticks(range(len(PLOT_METRICS)), [label for _, label in PLOT_METRICS])
    ax.set_ylabel("score (Final in [0, 2], others in [0, 1])")
    ax.set_title(f"{results.suite}: {results.n_tasks} tasks, 95% bootstrap CIs")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def plot_trust_support(results: AblationResults, path: Path) -> None:
    """Scatter of per-task support (x) against trust (y), one colour per strategy (PNG)."""
    matplotlib = require("matplotlib")  # the `plots` extra

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5.5, 5.0), dpi=120)
    markers = "osD^v"
    for i, s in enumerate(results.strategies):
        rows = [p.metrics for p in results.pairs if p.strategy == s]
        ax.scatter(
            [m.s_sup for m in rows],
            [m.s_trust for m in rows],
            s=14,
            alpha=0.55,
            marker=markers[i % len(markers)],
            label=s,
        )
    ax.set_xlabel("support (s_sup)")
    ax.set_ylabel("trust (s_trust)")
    ax.set_xlim(-0.03, 1.03)
    ax.set_ylim(-0.03, 1.03)
    ax.set_title(f"{results.suite}: trust vs support per task")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def write_outputs(results: AblationResults, out_dir: Path, *, plots: bool = True) -> Sequence[Path]:
    """Write ``results.json``, ``results.csv``, ``table.md`` and the PNG plots (atomically).

    Returns:
        The paths written.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in (
        ("results.json", results.model_dump_json(indent=1) + "\n"),
        ("results.csv", csv_text(results)),
        ("table.md", markdown(results)),
    ):
        atomic_write_text(out_dir / name, text)
        written.append(out_dir / name)
    if plots:
        for name, fn in (
            ("scores_by_strategy.png", plot_scores),
            ("trust_vs_support.png", plot_trust_support),
        ):
            tmp = out_dir / f".{name}.tmp.png"
            fn(results, tmp)
            tmp.replace(out_dir / name)
            written.append(out_dir / name)
    return written


# ---------------------------------------------------------------------------------------------
# several runs: one row per (suite, edit policy, strategy)

POLICY_COLUMNS: Final = (
    "Trust", "Cov", "Sup", "Final", "all-pass", "kept", "removed", "orphan claims",
    "annotations", "injected restored",
)  # fmt: skip
"""Value columns of :func:`policy_markdown`, after Suite, Policy, Strategy and n."""


class PolicyRow(Frozen):
    """One strategy of one run, as the policy table shows it.

    Attributes:
        suite: The run's suite.
        edit_policy: The revision policy of the run.
        strategy: ``none`` / ``existence`` / ``efa``.
        n: Reports scored.
        trust, cov, sup: Macro means of the per-report ``s_trust``, ``s_cov``, ``s_sup``, in [0, 1].
        final: Macro mean of ``s_final``, in [0, 2].
        all_pass: Share of reports with all-pass, in [0, 1].
        kept, removed: Draft citations kept / removed by the strategy, summed over reports.
        orphan_claims: Removed citations whose claim or quotation stays, summed.
        annotations: Notes added, summed.
        injected, restored: Perturbation suites: injected errors and those whose clean sentence
            the governed text holds again (0, 0 elsewhere).
    """

    suite: str
    edit_policy: str
    strategy: str
    n: int = Field(ge=1)
    trust: float = Field(ge=0.0, le=1.0)
    cov: float = Field(ge=0.0, le=1.0)
    sup: float = Field(ge=0.0, le=1.0)
    final: float = Field(ge=0.0, le=2.0)
    all_pass: float = Field(ge=0.0, le=1.0)
    kept: int = Field(ge=0)
    removed: int = Field(ge=0)
    orphan_claims: int = Field(ge=0)
    annotations: int = Field(ge=0)
    injected: int = Field(0, ge=0)
    restored: int = Field(0, ge=0)


def policy_rows(runs: Sequence[AblationResults]) -> tuple[PolicyRow, ...]:
    """One :class:`PolicyRow` per strategy of each run, in run order (numbers from the runs).

    Args:
        runs: Results of finished runs, one per (suite, edit policy).

    Returns:
        The rows, run by run, strategies in each run's order.

    Raises:
        ValueError: A run does not name its edit policy, or two runs share a suite and policy.
    """
    seen: set[tuple[str, str]] = set()
    rows = []
    for r in runs:
        if not r.edit_policy:
            raise ValueError(f"run of suite {r.suite!r} names no edit policy: rerun it with one")
        key = (r.suite, r.edit_policy)
        if key in seen:
            raise ValueError(f"two runs of suite {r.suite!r} under policy {r.edit_policy!r}")
        seen.add(key)
        for s in r.summaries:
            m = s.system
            rows.append(
                PolicyRow(
                    suite=r.suite,
                    edit_policy=r.edit_policy,
                    strategy=s.strategy,
                    n=m.n_reports,
                    trust=m.s_trust,
                    cov=m.s_cov,
                    sup=m.s_sup,
                    final=m.s_final,
                    all_pass=m.report_all_pass,
                    kept=s.cites_kept,
                    removed=s.cites_removed,
                    orphan_claims=s.orphan_claims,
                    annotations=s.annotations,
                    injected=sum(a for _, a, _ in s.restored),
                    restored=sum(b for _, _, b in s.restored),
                )
            )
    return tuple(rows)


def _restored_cell(injected: int, restored: int) -> str:
    return f"{restored}/{injected} ({restored / injected:.1%})" if injected else "–"


def policy_markdown(rows: Sequence[PolicyRow], *, command: str | None = None) -> str:
    """The policy table (Markdown) and, for perturbation suites, the restore rate per policy.

    Args:
        rows: From :func:`policy_rows`.
        command: The command line that produced the runs, quoted above the tables.

    Returns:
        Markdown text ending in a newline.
    """
    lines = ["# Ablation: strategies under each edit policy", ""]
    if command:
        intro = "Produced by (deterministic: same code and data, same numbers):"
        lines += [intro, "", "```", command, "```", ""]
    lines += [
        "Trust, Cov, Sup, Final, all-pass: macro means over the reports of each run (SPEC §4; "
        "Cov/Sup by the offline task judge, `benchmarks.judging`); kept/removed: draft "
        "citations the strategy kept or took out; orphan claims: removed citations whose claim "
        "or quotation stays (an unsupported claim); annotations: notes added; injected "
        "restored: perturbation errors whose clean sentence the governed text holds again. "
        "95 % CIs and E/F/A are in each run's `table.md`.",
        "",
        "| Suite | Policy | Strategy | n | " + " | ".join(POLICY_COLUMNS) + " |",
        "|---|---|---|---:|" + "---:|" * len(POLICY_COLUMNS),
    ]
    for r in rows:
        cells = [
            f"{r.trust:.4f}", f"{r.cov:.4f}", f"{r.sup:.4f}", f"{r.final:.4f}",
            f"{r.all_pass:.3f}", str(r.kept), str(r.removed), str(r.orphan_claims),
            str(r.annotations), _restored_cell(r.injected, r.restored),
        ]  # fmt: skip
        lines.append(
            f"| {r.suite} | {r.edit_policy} | {r.strategy} | {r.n} | " + " | ".join(cells) + " |"
        )
    pert = [r for r in rows if r.injected]
    for suite in dict.fromkeys(r.suite for r in pert):
        strategies = list(dict.fromkeys(r.strategy for r in pert if r.suite == suite))
        lines += [
            "",
            f"## Injected errors restored per policy ({suite})",
            "",
            "| Policy | " + " | ".join(strategies) + " |",
            "|---|" + "---:|" * len(strategies),
        ]
        for policy in dict.fromkeys(r.edit_policy for r in pert if r.suite == suite):
            by = {r.strategy: r for r in pert if r.suite == suite and r.edit_policy == policy}
            cells = [
                _restored_cell(by[s].injected, by[s].restored) if s in by else "–"
                for s in strategies
            ]
            lines.append(f"| {policy} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def write_policy_outputs(
    runs: Sequence[AblationResults], out_dir: Path, *, command: str | None = None
) -> Sequence[Path]:
    """Write ``policies.md`` and ``policies.json`` (the rows) into ``out_dir`` (atomically).

    Raises:
        ValueError: As :func:`policy_rows`.
    """
    import json

    rows = policy_rows(runs)
    out_dir.mkdir(parents=True, exist_ok=True)
    md = out_dir / "policies.md"
    js = out_dir / "policies.json"
    atomic_write_text(md, policy_markdown(rows, command=command))
    payload = {"command": command, "rows": [r.model_dump() for r in rows]}
    atomic_write_text(js, json.dumps(payload, ensure_ascii=False, indent=1) + "\n")
    return (md, js)


__all__ = [
    "CSV_FIELDS",
    "POLICY_COLUMNS",
    "PolicyRow",
    "csv_text",
    "leaderboard",
    "markdown",
    "plot_scores",
    "plot_trust_support",
    "policy_markdown",
    "policy_rows",
    "write_outputs",
    "write_policy_outputs",
]
