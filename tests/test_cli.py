"""``citegov verify`` / ``citegov revise`` through typer's CliRunner: output, widths, exit codes."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from rich.cells import cell_len
from typer.testing import CliRunner

from governor.cli.app import app

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "drafts" / "GPT-3.5-turbo-0613_3-8_001.md"  # final trust < 1
GOOD = "根据《中华人民共和国民法典》第五百七十七条规定，当事人一方不履行合同义务的，应当承担违约责任。\n"
ENV = {"CITEGOV_CONFIG": "", "NO_COLOR": "1"}


def run(args: list[str], columns: int = 120) -> object:
    runner = CliRunner()
    return runner.invoke(app, args, env={**ENV, "COLUMNS": str(columns)})


@pytest.mark.parametrize("columns", [40, 60, 99, 100, 160])
def test_verify_output_fits_the_terminal(columns: int) -> None:
    res = run(["verify", "--as-of", "2026-11-29", str(EXAMPLE)], columns)
    assert res.exit_code == 0, res.output  # type: ignore[attr-defined]
    lines = res.stdout.splitlines()  # type: ignore[attr-defined]
    too_long = [ln for ln in lines if cell_len(ln) > columns]
    assert not too_long, too_long
    text = res.stdout  # type: ignore[attr-defined]
    # 合同法第四十四条 (合同生效) and 物权法第四十三条 (耕地保护) are judged on their own text:
    # misdescribed and irrelevant (trust 0); 继承法第十七条 too since its text is stored (it is
    # about the forms of a will, not 「继承人对继承财产享有所有权」; before, by name only: 0.5);
    # 民事诉讼法 0
    for word in ("repealed", "STALE", "trust 0.000"):
        assert word in text
    if columns >= 100:
        assert "┃ citation" in text  # a table
    else:  # stacked, one block per citation (wrapped to the width)
        flat = re.sub(r"\s+", "", text)
        assert "[4]中华人民共和国民事诉讼法第一百五十二条" in flat
        assert "Eexists·Fmisdescribed·Airrelevant·trust0.00·L1.1.2" in flat


def test_verify_json_one_object_per_line(tmp_path: Path) -> None:
    other = tmp_path / "b.md"
    other.write_text(GOOD, encoding="utf-8")
    res = run(["verify", "--json", "--as-of", "2026-11-29", str(EXAMPLE), str(other)])
    assert res.exit_code == 0  # type: ignore[attr-defined]
    objs = [json.loads(line) for line in res.stdout.splitlines()]  # type: ignore[attr-defined]
    assert [o["scores"]["n_cite"] for o in objs] == [4, 1]
    assert objs[0]["citations"][0]["existence"]["label"] == "repealed"
    assert {"version", "input", "citations", "scores", "strategy"} <= set(objs[0])


@pytest.mark.parametrize(
    "files,code",
    [(["missing.md"], 2), (["good.md", "bin.md"], 3), (["bin.md"], 2), (["good.md"], 0)],
)
def test_verify_exit_codes(tmp_path: Path, files: list[str], code: int) -> None:
    (tmp_path / "good.md").write_text(GOOD, encoding="utf-8")
    (tmp_path / "bin.md").write_bytes(b"\x00\x01")
    res = run(["verify", *[str(tmp_path / f) for f in files]])
    assert res.exit_code == code, res.output  # type: ignore[attr-defined]


def _inputs(tmp_path: Path) -> Path:
    src = tmp_path / "in"
    src.mkdir()
    (src / "good.md").write_text(GOOD, encoding="utf-8")
    (src / "bin.md").write_bytes(b"\x00\x01")
    shutil.copy(EXAMPLE, src / "low.md")
    return src


@pytest.mark.parametrize(
    "args,code,message",
    [
        (["{in}/good.md"], 0, "governed now"),
        # strategy none keeps the repealed 合同法/物权法 citations of low.md: trust 0.125 < 0.9
        (
            ["{in}/good.md", "{in}/low.md", "--strategy", "none", "--fail-on", "0.9"],
            1,
            "failing --fail-on 0.9",
        ),
        (["{in}/good.md", "--strategy", "magic"], 2, "unknown strategy"),
        (["{in}/good.md", "--workers", "0"], 2, "workers"),
        (["{in}/good.md", "{in}/nope.md"], 2, "no such file"),
        (["{in}/good.md", "{in}/bin.md"], 3, "failed"),
        (["{in}/bin.md"], 2, "binary"),
        (["{in}/good.md", "--out", "{in}"], 2, "overwrite an input"),
        (["{in}/good.md", "--fail-on", "2"], 2, "--fail-on"),
    ],
)
def test_revise_exit_codes(tmp_path: Path, args: list[str], code: int, message: str) -> None:
    src = _inputs(tmp_path)
    argv = [a.replace("{in}", str(src)) for a in args]
    if "--out" not in argv:
        argv += ["--out", str(tmp_path / "out")]
    res = run(["revise", "--as-of", "2026-11-29", *argv])
    assert res.exit_code == code, res.output  # type: ignore[attr-defined]
    assert message in res.output  # type: ignore[attr-defined]
    assert (src / "good.md").read_text(encoding="utf-8") == GOOD
    if code in (0, 1, 3):
        assert (tmp_path / "out" / "good.md").is_file()
        assert (tmp_path / "out" / "index.html").is_file()


def test_revise_help_documents_exit_codes() -> None:
    res = run(["revise", "--help"], 200)
    text = " ".join(res.output.split())  # type: ignore[attr-defined]
    for phrase in (
        "Exit codes: 0 all drafts governed",
        "1 --fail-on crossed (a final trust below it, or citations that could not be checked, "
        "unless --allow-unverifiable)",
        "2 usage error",
        "3 some drafts failed",
        "--resume",
        "--workers",
    ):
        assert phrase in text


def test_revise_resume_and_quiet(tmp_path: Path) -> None:
    src = _inputs(tmp_path)
    (src / "bin.md").unlink()
    out = tmp_path / "out"
    first = run(["revise", str(src), "--out", str(out), "--as-of", "2026-11-29"])
    assert first.exit_code == 0  # type: ignore[attr-defined]
    assert "good: citations 1" in first.stdout  # type: ignore[attr-defined]
    assert re.search(
        r"good: .* kept 1 · removed 0 · orphan claims 0 · annotations \d", first.stdout
    )  # type: ignore[attr-defined]
    assert "ETA" not in first.output  # type: ignore[attr-defined]  # no bar when not a TTY
    again = run(["revise", str(src), "--out", str(out), "--as-of", "2026-11-29", "--resume", "-q"])
    assert again.exit_code == 0  # type: ignore[attr-defined]
    assert "good: citations" not in again.stdout  # type: ignore[attr-defined]
    table = {
        row.split("│")[1].strip(): row.split("│")[2].strip()
        for row in again.stdout.splitlines()  # type: ignore[attr-defined]
        if row.count("│") == 3
    }
    assert table["already done (resume)"] == "2" and table["governed now"] == "0"
    lines = (out / "summary.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2
    rows = [json.loads(line) for line in lines]
    for r in rows:  # every draft citation is kept or removed (issue 13 item 5)
        assert r["kept"] + r["removed"] == r["citations"] and r["orphan_claims"] <= r["removed"]
    kept, removed = (sum(r[k] for r in rows) for k in ("kept", "removed"))
    assert table["citations kept / removed"] == f"{kept} / {removed}"
    assert table["claims left without a citation"] == str(sum(r["orphan_claims"] for r in rows))
    assert table["annotations"] == str(sum(r["annotations"] for r in rows))
    # Cov and Sup beside trust, from the rows (issue 13 item 5)
    sup = [(r["sup_before"], r["sup_after"]) for r in rows]
    assert all(r["cov_after"] is not None for r in rows)
    mean = [sum(x[i] for x in sup) / len(sup) for i in (0, 1)]
    assert table["mean Sup"] == f"{mean[0]:.3f} → {mean[1]:.3f}"
    cov = sum(r["cov_after"] for r in rows) / len(rows)
    assert table["mean Cov (draft = reference)"] == f"1.000 → {cov:.3f}"


def test_verify_reads_stdin_and_fails_on_a_trust_threshold() -> None:
    bad = "报告日期：2024年6月1日。根据《民法典》第九千条规定，合同无效。"
    good = "报告日期：2024年6月1日。向人民法院请求保护民事权利的诉讼时效期间为三年（《民法典》第一百八十八条）。"
    runner = CliRunner()
    res = runner.invoke(app, ["verify", "-", "--fail-on", "0.5"], input=bad)
    assert res.exit_code == 1 and "第九千条" in res.stdout and "--fail-on" in res.stderr
    # a fabricated authority backs nothing: its claim is unsupported (Sup 0), Cov is the draft's
    assert "cov 1.000 · sup 0.000" in " ".join(res.stdout.split())
    res = runner.invoke(app, ["verify", "-", "--fail-on", "0.5"], input=good)
    assert res.exit_code == 0 and "trust 1.000" in res.stdout
    assert "kept 1 · removed 0" in res.stdout
    assert "cov 1.000 · sup 1.000" in " ".join(res.stdout.split())
    res = runner.invoke(app, ["verify", "-"], input=bad)
    assert res.exit_code == 0  # without --fail-on a low trust is a finding, not an error
    res = runner.invoke(app, ["verify", "-", "--fail-on", "2"], input=good)
    assert res.exit_code == 2


def test_help_defaults_are_the_config_defaults() -> None:
    from governor.core.config import Config

    cfg = Config()
    text = " ".join(run(["revise", "--help"], 200).output.split())  # type: ignore[attr-defined]
    assert f"(default: config, else {cfg.max_rounds})" in text
    assert f"(default: config, else {cfg.max_chars:,})" in text
    assert f"(default: config, else {cfg.strategy})" in text
    assert "No progress bar and no per-draft lines; failures and the summary table" in text


def test_quiet_keeps_failures_and_summary(tmp_path: Path) -> None:
    src = _inputs(tmp_path)
    res = run(
        ["revise", str(src / "good.md"), str(src / "bin.md"), "--out", str(tmp_path / "o"), "-q"]
    )
    out = res.output  # type: ignore[attr-defined]
    assert res.exit_code == 3  # type: ignore[attr-defined]
    assert "failed:" in out and "bin.md" in out  # the failure is printed
    assert "citegov revise" in out  # the summary table
    assert "good: citations" not in out  # no per-draft line


@pytest.mark.parametrize("details", [False, True])
def test_verify_lists_rationales_of_failing_citations(details: bool) -> None:
    args = ["verify", "--as-of", "2026-11-29", str(EXAMPLE)] + (["--details"] if details else [])
    res = run(args, 200)
    out = res.output  # type: ignore[attr-defined]
    assert (
        "[1] repealed: 《中华人民共和国合同法》第44条 exists but was repealed on 2021-01-01" in out
    )
    assert "[4] misdescribed: the description matches 《中华人民共和国民事诉讼法》第104条" in out
    has_measure = re.search(r"\([0-9]\.[0-9]{2}\)", out) is not None
    assert has_measure is details  # raw numbers only when asked


@pytest.mark.parametrize("details", [False, True])
def test_revise_html_measures_only_with_details(tmp_path: Path, details: bool) -> None:
    out_dir = tmp_path / "out"
    args = ["revise", str(EXAMPLE), "--as-of", "2026-11-29", "--out", str(out_dir), "-q"]
    res = run(args + (["--details"] if details else []))
    assert res.exit_code == 0, res.output  # type: ignore[attr-defined]
    page = (out_dir / f"{EXAMPLE.stem}.html").read_text(encoding="utf-8")
    assert (re.search(r"\([0-9]\.[0-9]{2}\)", page) is not None) is details


@pytest.mark.parametrize(
    "args,shown",
    [
        # issue 23: rich markup ate the brackets ("pip install 'citegov'")
        (["verify", "--help"], "pip install 'citegov[docx]'"),
        (["revise", "--help"], "pip install 'citegov[docx]'"),
        (["serve", "--help"], "[service] table"),
        (["calibrate", "--help"], "[thresholds]"),
        (["ablate", "--help"], "perturbation[:N]"),
    ],
)
def test_help_shows_bracketed_text(args: list[str], shown: str) -> None:
    res = run(args, 250)
    assert res.exit_code == 0, res.output  # type: ignore[attr-defined]
    text = " ".join(res.output.replace("│", " ").split())  # type: ignore[attr-defined]
    assert " ".join(shown.split()) in text


def test_version_comes_from_the_package_metadata() -> None:
    from importlib.metadata import version

    res = run(["--version"])
    assert res.exit_code == 0, res.output  # type: ignore[attr-defined]
    assert res.output.strip() == f"citegov {version('citegov')}"  # type: ignore[attr-defined]
