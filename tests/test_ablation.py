"""Ablation runner: suites, generators, checkpoint/resume, aggregation, outputs and the CLI."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchmarks import ablation as A
from benchmarks.ablation import Case, PairResult, load_cases, run_ablation, summarise
from benchmarks.metrics import ReportMetrics
from benchmarks.report import CSV_FIELDS, policy_markdown, policy_rows, write_outputs
from benchmarks.tasks import GeneratorView
from governor.api import Governor
from governor.authorities import AuthorityStore, load_default_store
from governor.cli.app import app
from governor.core.errors import StrategyError, TaskError

TASKS = Path(__file__).parent / "data" / "tasks" / "native" / "tasks.jsonl"


@pytest.fixture(scope="module")
def store() -> AuthorityStore:
    return load_default_store()


@pytest.fixture(scope="module")
def gov(store: AuthorityStore) -> Governor:
    return Governor(store=store)


@pytest.fixture(scope="module")
def cases(store: AuthorityStore) -> tuple[Case, ...]:
    found, skipped = load_cases("perturbation:3", store, seed=4)
    assert skipped == ()
    return found


def echo_generator(view: GeneratorView) -> str:
    """A generator for the tests: restates the query under each subtopic heading."""
    return "\n".join(f"## {s.title}\n{view.query}" for s in view.subtopics)


def _metrics(task_id: str, cov: float, sup: float, trust: float, all_pass: bool) -> ReportMetrics:
    return ReportMetrics(
        task_id=task_id, s_cov=cov, s_rubric=sup, s_subtopic=sup, s_sup=sup, s_trust=trust,
        s_final=(cov + sup) * trust, n_cite=1, n_excluded=0, n_rubric=1, n_subtopics=1,
        rubric_all_covered=cov == 1.0, citation_all_pass=trust == 1.0, all_pass=all_pass,
    )  # fmt: skip


def _pair(task_id: str, strategy: str, **kw: float | bool) -> PairResult:
    return PairResult(
        case_id=task_id,
        strategy=strategy,
        metrics=_metrics(task_id, **kw),
        initial_trust=0.5,
        n_edits=0,
    )  # type: ignore[arg-type]


def test_summarise_is_macro_and_pairs_tasks() -> None:
    pairs = [
        _pair("t1", "none", cov=1.0, sup=1.0, trust=0.5, all_pass=False),
        _pair("t2", "none", cov=0.0, sup=0.0, trust=1.0, all_pass=False),
        _pair("t1", "efa", cov=1.0, sup=1.0, trust=1.0, all_pass=True),
        _pair("t2", "efa", cov=0.0, sup=0.0, trust=1.0, all_pass=False),
        _pair("t3", "efa", cov=1.0, sup=1.0, trust=1.0, all_pass=True),  # not run under none
    ]
    (none, efa), (cmp,), profiles = summarise(pairs, ["none", "efa"], n_resamples=200)
    assert none.system.n_reports == efa.system.n_reports == 2
    assert none.system.s_final == pytest.approx(0.5)  # mean of 1.0 and 0.0
    means = (none.system.s_cov + none.system.s_sup) * none.system.s_trust
    assert means == pytest.approx(0.75) != none.system.s_final  # SPEC §4: not the product
    assert (cmp.a, cmp.b) == ("none", "efa")
    assert cmp.final.delta == pytest.approx(0.5)
    assert (cmp.all_pass.a_only, cmp.all_pass.b_only) == (0, 1)
    assert [name for name, _ in profiles] == ["none", "efa"]
    assert none.ci["s_final"].low <= 0.5 <= none.ci["s_final"].high


def test_summarise_without_common_tasks_fails() -> None:
    with pytest.raises(ValueError, match="every strategy"):
        summarise([_pair("t1", "none", cov=1, sup=1, trust=1, all_pass=True)], ["none", "efa"])


def test_run_resume_and_outputs(
    cases: tuple[Case, ...], gov: Governor, store: AuthorityStore, tmp_path: Path
) -> None:
    seen: list[str] = []

    def tick(done: int, total: int, label: str) -> None:
        seen.append(label)

    res = run_ablation(
        cases, ["none", "efa"], gov=gov, store=store, out_dir=tmp_path, suite="p", progress=tick,
        n_resamples=200,
    )  # fmt: skip
    assert len(seen) == 6 and len(res.pairs) == 6
    assert len((tmp_path / A.CHECKPOINT).read_text(encoding="utf-8").splitlines()) == 6
    none, efa = res.summaries
    # every case has injected errors; efa restores some, none restores nothing
    assert sum(b for _, _, b in none.restored) == 0
    assert sum(a for _, a, _ in efa.restored) == sum(len(c.injected) for c in cases)
    assert efa.system.s_trust >= none.system.s_trust
    assert none.clean_kept[0] == none.clean_kept[1] > 0  # strategy none changes nothing
    # deletion is visible: every draft citation is kept or removed; none removes nothing
    for p in res.pairs:
        n_draft = sum(1 for v in gov.verify(next(c.draft for c in cases if c.id == p.case_id)))
        assert p.cites_kept + p.cites_removed == n_draft, p
    assert none.cites_removed == none.annotations == none.orphan_claims == 0
    assert efa.orphan_claims <= efa.cites_removed  # an orphan is a removed citation
    assert efa.n_edits > 0 and efa.cites_kept == none.cites_kept  # retargets are not removals

    # a kill mid-write leaves a cut line: it is dropped, nothing is redone
    with (tmp_path / A.CHECKPOINT).open("a", encoding="utf-8") as fh:
        fh.write('{"case_id": "perturb-4-00')
    seen.clear()
    again = run_ablation(
        cases, ["none", "efa"], gov=gov, store=store, out_dir=tmp_path, suite="p", progress=tick,
        n_resamples=200,
    )  # fmt: skip
    assert seen == []
    assert again.pairs == res.pairs
    assert len((tmp_path / A.CHECKPOINT).read_text(encoding="utf-8").splitlines()) == 6

    # a removed row is redone, and only it
    rows = (tmp_path / A.CHECKPOINT).read_text(encoding="utf-8").splitlines()
    (tmp_path / A.CHECKPOINT).write_text("\n".join(rows[1:]) + "\n", encoding="utf-8")
    run_ablation(
        cases, ["none", "efa"], gov=gov, store=store, out_dir=tmp_path, suite="p", progress=tick,
        n_resamples=200,
    )  # fmt: skip
    assert len(seen) == 1

    written = write_outputs(res, tmp_path)
    names = {p.name for p in written}
    assert names == {
        "results.json", "results.csv", "table.md", "scores_by_strategy.png", "trust_vs_support.png",
    }  # fmt: skip
    data = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    assert data["judge"] == "offline" and "lexical" in data["coverage_judge"]
    with (tmp_path / "results.csv").open(encoding="utf-8") as fh:
        table = list(csv.reader(fh))
    assert tuple(table[0]) == CSV_FIELDS and len(table) == 7
    md = (tmp_path / "table.md").read_text(encoding="utf-8")
    assert "| kept | removed | annotations | orphan claims |" in md
    assert "| efa | 3 |" in md and "Ground truth" in md and "Paired comparisons" in md
    assert (tmp_path / "scores_by_strategy.png").read_bytes()[:4] == b"\x89PNG"


def test_other_settings_in_the_same_folder_are_refused(
    cases: tuple[Case, ...], gov: Governor, store: AuthorityStore, tmp_path: Path
) -> None:
    run_ablation(
        cases[:1], ["none"], gov=gov, store=store, out_dir=tmp_path, suite="p", n_resamples=50
    )
    with pytest.raises(TaskError, match="other settings"):
        run_ablation(
            cases[:1], ["none"], gov=gov, store=store, out_dir=tmp_path, suite="q", n_resamples=50
        )


def test_another_edit_policy_in_the_same_folder_is_refused(
    cases: tuple[Case, ...], gov: Governor, store: AuthorityStore, tmp_path: Path
) -> None:
    """The policy decides the edits: a checkpoint of one policy is never resumed under another."""
    res = run_ablation(
        cases[:1], ["none"], gov=gov, store=store, out_dir=tmp_path, suite="p", n_resamples=50
    )
    assert res.edit_policy == gov.config.edit_policy
    other = Governor(gov.config.model_copy(update={"edit_policy": "annotate"}), store=store)
    with pytest.raises(TaskError, match="edit_policy"):
        run_ablation(
            cases[:1], ["none"], gov=other, store=store, out_dir=tmp_path, suite="p", n_resamples=50
        )


def _policy_run(suite: str, policy: str, seedling: int) -> A.AblationResults:
    """A run whose every number depends on ``seedling``, so rows can be traced to their run."""
    pairs = []
    for t in ("t1", "t2"):
        for strategy, k in (("none", 0), ("efa", 1)):
            trust = (seedling + k) / 10
            pairs.append(
                PairResult(
                    case_id=t,
                    strategy=strategy,
                    metrics=_metrics(t, cov=0.5, sup=trust / 2, trust=trust, all_pass=False),
                    initial_trust=0.5,
                    n_edits=k,
                    cites_kept=seedling + k,
                    cites_removed=k * seedling,
                    annotations=10 * seedling + k,
                    orphan_claims=k,
                    restored=(("renumber", 2, seedling % 3 + k - 1 if k else 0),),
                )
            )
    summaries, comparisons, taxonomy = summarise(pairs, ["none", "efa"], n_resamples=50)
    return A.AblationResults(
        suite=suite, strategies=("none", "efa"), judge="offline", edit_policy=policy,
        coverage_judge="lexical", seed=0, n_tasks=2, seconds=0.0, summaries=summaries,
        comparisons=comparisons, taxonomy=taxonomy, pairs=tuple(pairs),
    )  # fmt: skip


def test_policy_table_rows_come_from_their_runs() -> None:
    runs = [
        _policy_run(suite, policy, i + 1)
        for i, (suite, policy) in enumerate(
            (s, p) for s in ("pert", "lb") for p in ("annotate", "proven", "aggressive")
        )
    ]
    rows = policy_rows(runs)
    assert [(r.suite, r.edit_policy, r.strategy) for r in rows] == [
        (s, p, st)
        for s in ("pert", "lb")
        for p in ("annotate", "proven", "aggressive")
        for st in ("none", "efa")
    ]
    for run in runs:
        for summary in run.summaries:
            (row,) = [
                r for r in rows
                if (r.suite, r.edit_policy, r.strategy) == (run.suite, run.edit_policy, summary.strategy)
            ]  # fmt: skip
            assert row.trust == pytest.approx(summary.system.s_trust)
            assert row.sup == pytest.approx(summary.system.s_sup)
            assert (row.kept, row.removed, row.annotations, row.orphan_claims) == (
                summary.cites_kept, summary.cites_removed, summary.annotations,
                summary.orphan_claims,
            )  # fmt: skip
            assert (row.injected, row.restored) == (
                sum(a for _, a, _ in summary.restored), sum(b for _, _, b in summary.restored)
            )  # fmt: skip
    md = policy_markdown(rows, command="citegov ablate --x")
    assert "```\ncitegov ablate --x\n```" in md
    header = next(line for line in md.splitlines() if line.startswith("| Suite |"))
    for column in ("Trust", "Cov", "Sup", "all-pass", "kept", "removed", "orphan claims",
                   "annotations", "injected restored"):  # fmt: skip
        assert f"| {column} |" in header
    for r in rows:
        assert f"| {r.suite} | {r.edit_policy} | {r.strategy} | 2 | {r.trust:.4f} |" in md
    restore = md.split("## Injected errors restored per policy (pert)")[1]
    for policy in ("annotate", "proven", "aggressive"):
        assert f"| {policy} |" in restore


@pytest.mark.parametrize(
    ("runs", "message"),
    [
        ([("s", "")], "names no edit policy"),
        ([("s", "proven"), ("s", "proven")], "two runs"),
    ],
)
def test_policy_rows_refuse_ambiguous_runs(runs: list[tuple[str, str]], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        policy_rows([_policy_run(s, p, 1) for s, p in runs])


@pytest.mark.parametrize("strategies", [["none", "typo"], []])
def test_unknown_strategy(
    cases: tuple[Case, ...],
    gov: Governor,
    store: AuthorityStore,
    tmp_path: Path,
    strategies: list[str],
) -> None:
    with pytest.raises(StrategyError, match="unknown strategies"):
        run_ablation(cases, strategies, gov=gov, store=store, out_dir=tmp_path)


def test_ground_truth_counts(cases: tuple[Case, ...], store: AuthorityStore) -> None:
    case = next(c for c in cases if c.injected)
    restored, kept = A._ground_truth(case, case.clean_text, store)
    assert sum(a for _, a, _ in restored) == len(case.injected)
    assert all(a == b for _, a, b in restored)  # the clean text restores everything
    assert kept[0] == kept[1] == len(case.task.rubric) - len(case.injected)
    restored, kept = A._ground_truth(case, case.draft, store)
    assert all(b == 0 for _, _, b in restored)


def test_task_file_with_generators(store: AuthorityStore, tmp_path: Path) -> None:
    with pytest.raises(TaskError, match="--generator"):
        load_cases(str(TASKS), store)
    found, _ = load_cases(str(TASKS), store, generator="tests.test_ablation:echo_generator")
    assert found and all(c.draft.startswith("## ") for c in found)
    first = found[0]
    (tmp_path / f"{first.id}.md").write_text(
        "根据《民法典》第五百七十七条规定，违约。", encoding="utf-8"
    )
    with pytest.raises(TaskError, match="no draft for task"):
        load_cases(str(TASKS), store, generator=f"drafts:{tmp_path}")  # the others are missing
    for c in found[1:]:
        (tmp_path / f"{c.id}.txt").write_text(f"草稿 {c.id}", encoding="utf-8")
    drafts, _ = load_cases(str(TASKS), store, generator=f"drafts:{tmp_path}")
    assert drafts[0].draft == "根据《民法典》第五百七十七条规定，违约。"
    assert [c.draft for c in drafts[1:]] == [f"草稿 {c.id}" for c in found[1:]]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("nocolon", "drafts:DIR or module:function"),
        ("drafts:/no/such/folder", "not a folder"),
        ("no_such_module_xyz:f", "cannot import"),
        ("tests.test_ablation:nothing_here", "no callable"),
    ],
)
def test_bad_generator_specs(spec: str, message: str) -> None:
    with pytest.raises(TaskError, match=message):
        A.resolve_generator(spec)


def test_limit_is_a_seeded_sample_in_suite_order(store: AuthorityStore) -> None:
    a, _ = load_cases(str(TASKS), store, generator=echo_generator, limit=2, seed=1)
    b, _ = load_cases(str(TASKS), store, generator=echo_generator, limit=2, seed=1)
    full, _ = load_cases(str(TASKS), store, generator=echo_generator)
    assert [c.id for c in a] == [c.id for c in b]
    order = [c.id for c in full]
    assert [order.index(c.id) for c in a] == sorted(order.index(c.id) for c in a)


def test_limit_per_model_samples_each_model(cases: tuple[Case, ...]) -> None:
    sizes = (("m1", 5), ("m2", 3), ("m3", 1))
    pool = [
        cases[0].model_copy(update={"id": f"{g}_{i}", "group": g})
        for g, n in sizes
        for i in range(n)
    ]
    got = A._sample(pool, 2, 7, per_model=True)
    assert sorted(c.group for c in got) == ["m1", "m1", "m2", "m2", "m3"]
    order = [c.id for c in pool]
    assert [c.id for c in got] == sorted((c.id for c in got), key=order.index)
    assert got == A._sample(pool, 2, 7, per_model=True)
    # a model's sample does not depend on the other models in the suite
    alone = A._sample([c for c in pool if c.group == "m1"], 2, 7, per_model=True)
    assert [c.id for c in alone] == [c.id for c in got if c.group == "m1"]
    assert len(A._sample(pool, 2, 7)) == 2  # without per_model: the whole suite


def test_unknown_suite(store: AuthorityStore) -> None:
    with pytest.raises(TaskError, match="not a built-in suite"):
        load_cases("no-such-suite", store)


def test_cli_ablate(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "run"
    args = [
        "ablate",
        "--suite",
        "perturbation:2",
        "--strategies",
        "none,existence",
        "--out",
        str(out),
    ]
    result = runner.invoke(app, [*args, "--resamples", "100", "--no-plots"])
    assert result.exit_code == 0, result.output
    assert "| existence | 2 |" in result.output
    assert (out / "table.md").is_file() and not (out / "trust_vs_support.png").exists()
    bad = runner.invoke(
        app, ["ablate", "--suite", "perturbation:2", "--strategies", "nope", "--out", str(out)]
    )
    assert bad.exit_code == 2
    assert "unknown strategies" in bad.output


def test_cli_ablate_every_policy_in_one_table(tmp_path: Path) -> None:
    """One command: each strategy under each policy, one table whose numbers are the runs'."""
    out = tmp_path / "run"
    table = tmp_path / "ablation_policies.md"
    argv = [
        "ablate", "--suite", "perturbation:2", "--strategies", "none,efa", "--edit-policy", "all",
        "--out", str(out), "--resamples", "50", "--no-plots", "--table", str(table),
    ]  # fmt: skip
    res = CliRunner().invoke(app, argv)
    assert res.exit_code == 0, res.output
    payload = json.loads((out / "policies.json").read_text(encoding="utf-8"))
    rows = payload["rows"]
    assert {(r["edit_policy"], r["strategy"]) for r in rows} == {
        (p, s) for p in ("annotate", "proven", "aggressive") for s in ("none", "efa")
    }
    for r in rows:
        run = json.loads(
            (out / "perturbation_2" / r["edit_policy"] / "results.json").read_text(encoding="utf-8")
        )
        assert run["edit_policy"] == r["edit_policy"]
        (summary,) = [s for s in run["summaries"] if s["strategy"] == r["strategy"]]
        assert r["trust"] == summary["system"]["s_trust"]
        assert r["cov"] == summary["system"]["s_cov"] and r["sup"] == summary["system"]["s_sup"]
        assert r["kept"] == summary["cites_kept"] and r["removed"] == summary["cites_removed"]
        assert r["injected"] == sum(n for _, n, _ in summary["restored"]) > 0
    text = table.read_text(encoding="utf-8")
    assert payload["command"] in text and "--edit-policy all" in payload["command"]
    assert text == (out / "policies.md").read_text(encoding="utf-8")
    for policy in ("annotate", "proven", "aggressive"):
        assert f"| perturbation:2 | {policy} | efa | 2 |" in text
    bad = CliRunner().invoke(app, [*argv[:5], "--edit-policy", "proven,bold", "--out", str(out)])
    assert bad.exit_code == 2 and "unknown edit policy 'bold'" in bad.output
