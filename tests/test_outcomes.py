"""Nothing checked is not a pass (issue 23 item 2).

Rows: a draft with no citation gets the gap ``no_citations`` and fails ``--fail-on`` unless
``--allow-unverifiable``; ``all_pass`` is true only when every citation was verified and passed
(a brief whose every citation is a US case that could not be checked is not all-pass, and says
"0 of 2 verified"); a draft whose citations were all removed is never counted as all-pass, in the
JSON, the draft page or ``index.html``.
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest
from typer.testing import CliRunner

from governor.api import Governor
from governor.cli.app import app
from governor.core.gaps import coverage_gaps
from governor.core.labels import report_score, stop_phrase
from governor.reports.json_report import build_report

AS_OF = date(2024, 6, 1)
ENV = {"CITEGOV_CONFIG": "", "NO_COLOR": "1", "COLUMNS": "200"}
NOCITE = "# 备忘录\n\n本案双方当事人应当协商解决争议，建议尽快签订和解协议。\n"
US_ONLY = (
    "The court held in Brown v. Board of Education, 347 U.S. 483 (1954), that segregation is "
    "unconstitutional. See also Miranda v. Arizona, 384 U.S. 436 (1966).\n"
)
REMOVED = (
    "根据《中华人民共和国反性骚扰法》第四条的规定，当事人应当遵守。"
    "依据《中华人民共和国数字货币法》第十条，当事人应当登记。\n"
)
"""Two fabricated citations, each in a carrier phrase the sentence stands without, so both are
removed (a removal that would leave 「来源于以及」 keeps the citation with a note instead)."""
PASSING = "当事人应当承担违约责任（《民法典》第五百七十七条）。\n"


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor()


def _cli(args: list[str]) -> object:
    return CliRunner().invoke(app, args, env=ENV)


@pytest.mark.parametrize(
    "text,all_pass,verified,gap_kinds",
    [
        (NOCITE, False, (0, 0), ["no_citations"]),
        ("", False, (0, 0), ["no_citations"]),
        (US_ONLY, False, (0, 2), ["us_case_no_lookup"]),
        (PASSING, True, (1, 1), []),
        (
            "问题：《民法典》第五百七十七条怎么规定？\n回答：应当协商。",
            False,
            (0, 0),
            ["no_citations"],
        ),
    ],
)
def test_all_pass_needs_every_citation_verified(
    gov: Governor, text: str, all_pass: bool, verified: tuple[int, int], gap_kinds: list[str]
) -> None:
    vs = gov.verify(text, as_of=AS_OF)
    report = build_report(text, as_of=AS_OF, strategy="none", judge="offline", initial=vs)
    data = json.loads(report.model_dump_json())
    assert data["scores"]["all_pass"] is all_pass
    assert (data["scores"]["n_verified"], data["scores"]["n_checkable"]) == verified
    assert [g["kind"] for g in data["gaps"]] == gap_kinds
    assert [g.kind for g in coverage_gaps(vs)] == gap_kinds


def test_report_score_of_nothing_is_not_all_pass() -> None:
    assert report_score([]).all_pass is False


@pytest.mark.parametrize("extra,code", [([], 1), (["--allow-unverifiable"], 0)])
def test_verify_no_citation_fails_fail_on(tmp_path: Path, extra: list[str], code: int) -> None:
    memo = tmp_path / "nocite.md"
    memo.write_text(NOCITE, encoding="utf-8")
    res = _cli(["verify", str(memo), "--fail-on", "0.9", *extra])
    assert res.exit_code == code, res.output  # type: ignore[attr-defined]
    out = " ".join(res.output.split())  # type: ignore[attr-defined]
    assert "draft with no citation" in out and "all-pass no (0 of 0 verified)" in out


def test_verify_unchecked_us_brief_says_n_of_m(tmp_path: Path) -> None:
    brief = tmp_path / "us.md"
    brief.write_text(US_ONLY, encoding="utf-8")
    res = _cli(["verify", str(brief), "--allow-unverifiable", "--fail-on", "0.9"])
    assert res.exit_code == 0, res.output  # type: ignore[attr-defined]
    assert "all-pass no (0 of 2 verified)" in " ".join(res.output.split())  # type: ignore[attr-defined]


def test_unchecked_citations_do_not_stop_as_all_pass(gov: Governor) -> None:
    r = gov.govern(US_ONLY, strategy="existence", as_of=AS_OF)
    assert r.stop_reason == "unchecked_left"
    assert "every" not in stop_phrase(r.stop_reason)
    assert r.to_report().final.scores.all_pass is False  # type: ignore[union-attr]
    assert gov.govern(PASSING, strategy="existence", as_of=AS_OF).stop_reason == "all_pass"


def test_all_citations_removed_is_never_all_pass(tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.mkdir()
    (src / "removed.md").write_text(REMOVED, encoding="utf-8")
    out = tmp_path / "out"
    res = _cli(["revise", str(src), "--out", str(out), "--as-of", "2024-06-01"])
    assert res.exit_code == 0, res.output  # type: ignore[attr-defined]
    report = json.loads((out / "removed.verdicts.json").read_text(encoding="utf-8"))
    assert report["final"]["scores"]["n_cite"] == 0
    assert report["final"]["scores"]["all_pass"] is False
    assert report["stop_reason"] == "no_citations"
    row = json.loads((out / "summary.jsonl").read_text().splitlines()[-1])
    assert row["all_pass_after"] is False
    index = (out / "index.html").read_text(encoding="utf-8")
    assert "0 / 1" in index
    page = (out / "removed.html").read_text(encoding="utf-8")
    assert "已核验 2 / 2 → 已核验 0 / 0" in page


@pytest.mark.parametrize("extra,code", [([], 1), (["--allow-unverifiable"], 0)])
def test_revise_no_citation_row_fails_fail_on(tmp_path: Path, extra: list[str], code: int) -> None:
    memo = tmp_path / "nocite.md"
    memo.write_text(NOCITE, encoding="utf-8")
    out = tmp_path / "out"
    res = _cli(["revise", str(memo), "--out", str(out), "--fail-on", "0.9", *extra])
    assert res.exit_code == code, res.output  # type: ignore[attr-defined]
    row = json.loads((out / "summary.jsonl").read_text(encoding="utf-8").splitlines()[0])
    # Not counted as an unchecked citation: the draft has none, and says so.
    assert (row["uncited"], row["unverified"], row["all_pass_after"]) == (True, 0, False)
    assert "nothing checked" in " ".join(res.output.split())  # type: ignore[attr-defined]


def test_revise_mean_trust_leaves_out_drafts_without_citations(tmp_path: Path) -> None:
    """A draft with no citation (trust 1.0 by a mean over nothing) does not lift the batch's
    mean trust: the mean is over the drafts that had a citation to check."""
    src = tmp_path / "in"
    src.mkdir()
    (src / "a_nocite.md").write_text(NOCITE, encoding="utf-8")
    (src / "b_fake.md").write_text(
        "依据《中华人民共和国民法典》第九千条，合同无效。\n", encoding="utf-8"
    )
    out = tmp_path / "out"
    res = _cli(["revise", str(src), "--out", str(out), "--as-of", "2024-06-01"])
    assert res.exit_code == 0, res.output  # type: ignore[attr-defined]
    rows = [json.loads(x) for x in (out / "summary.jsonl").read_text().splitlines()]
    fake = next(r for r in rows if r["name"] == "b_fake")
    assert fake["trust_before"] < 1.0
    text = " ".join(res.output.replace("│", " ").split())  # type: ignore[attr-defined]
    assert f"mean trust (1 drafts with citations) {fake['trust_before']:.3f} →" in text
