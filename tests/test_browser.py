"""The HTML report in a real browser: headless Chromium (Debian's) driven by Playwright.

Opens a batch's ``index.html`` from a ``file://`` URL, follows a link, checks that every citation
is highlighted with its verdict class and styled (so the CSP admits our inline CSS), that a
click opens the citation's detail (so it admits our inline script) and that a ``<script>`` in a
draft neither runs nor loads anything; takes a screenshot. Needs ``/usr/bin/chromium``
(``apt-get install -y chromium chromium-driver``, see ``scripts/test.sh``); never runs
``playwright install``. Skipped where Chromium is absent, except under CI, where it fails.

``CITEGOV_DOCS_SCREENSHOT=docs/html_report.png`` also saves the screenshot of the real LawBench
answer (``examples/drafts``) there, to refresh the one kept in ``docs/``.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from governor.api import Governor
from governor.batch import make_options, run_batch
from governor.core.config import load_config
from governor.core.report import VerdictReport
from governor.reports.html import verdict_class
from governor.reports.i18n import label, readable

pytestmark = pytest.mark.heavy  # headless Chromium: `-m "not heavy"` skips it
CHROMIUM = Path("/usr/bin/chromium")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ROOT = Path(__file__).resolve().parents[1]
LAWBENCH = ROOT / "examples" / "drafts" / "GPT-3.5-turbo-0613_3-8_070.md"  # a real 3-8 answer
HOSTILE = (
    "问题：<script>window.__pwned = 1</script>怎么办？\n\n"
    "根据《中华人民共和国民法典》第五百七十七条规定，当事人一方不履行合同义务的，应当承担违约责任。"
    '<img src="https://example.invalid/x.png" onerror="window.__pwned = 2">'
    "根据《民法典》第九千条规定，合同无效。\n"
)

if not CHROMIUM.exists():
    if os.environ.get("CI"):
        pytest.fail("Chromium is missing in CI: scripts/test.sh must install it", pytrace=False)
    pytest.skip("needs /usr/bin/chromium (apt-get install -y chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("browser")
    src = base / "in"
    src.mkdir()
    shutil.copy(LAWBENCH, src / LAWBENCH.name)
    (src / "hostile.md").write_text(HOSTILE, encoding="utf-8")
    gov = Governor(load_config(environ={}))
    res = run_batch(gov, [src], base / "out", make_options(as_of=date(2026, 11, 29)))
    assert res.governed == 2
    return base / "out"


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    profile = tmp_path_factory.mktemp("chromium-profile")  # a fresh --user-data-dir
    with sync_api.sync_playwright() as p:
        ctx = p.chromium.launch_persistent_context(
            str(profile),
            executable_path=str(CHROMIUM),
            headless=True,
            args=FLAGS,
            viewport={"width": 1400, "height": 1000},
        )
        try:
            yield ctx
        finally:
            ctx.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    pg = browser.new_page()
    pg.requests = []  # type: ignore[attr-defined]
    pg.errors = []  # type: ignore[attr-defined]
    pg.on("request", lambda r: pg.requests.append(r.url))
    pg.on("console", lambda m: pg.errors.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))
    yield pg
    pg.close()


def report_of(out: Path, name: str) -> VerdictReport:
    return VerdictReport.model_validate_json((out / f"{name}.verdicts.json").read_text("utf-8"))


def test_index_links_and_filters(batch: Path, page: Any) -> None:
    page.goto((batch / "index.html").as_uri())
    rows = page.locator("#index tbody tr")
    assert rows.count() == 2
    page.fill("#filter", "hostile")
    assert [rows.nth(i).is_visible() for i in range(2)] == [False, True]
    page.fill("#filter", "")
    page.click("text=hostile")
    assert page.url.endswith("/hostile.html")
    assert page.title().startswith("hostile")
    assert page.errors == []  # no CSP violation, no script error
    assert all(u.startswith("file://") for u in page.requests), page.requests


def test_draft_script_is_inert_and_shown_as_text(batch: Path, page: Any) -> None:
    page.goto((batch / "hostile.html").as_uri())
    assert page.evaluate("window.__pwned") is None
    assert "<script>window.__pwned = 1</script>" in page.inner_text("#draft pre.draft")
    assert page.locator("#draft pre.draft img, #draft pre.draft script").count() == 0
    assert all(u.startswith("file://") for u in page.requests), page.requests


@pytest.mark.parametrize("name", ["hostile", LAWBENCH.stem])
def test_highlights_match_verdicts_and_click_opens_detail(
    batch: Path, page: Any, name: str, tmp_path: Path
) -> None:
    report = report_of(batch, name)
    page.goto((batch / f"{name}.html").as_uri())
    marks = page.locator("#draft a.cite")
    assert marks.count() == len(report.citations) > 0
    classes = [marks.nth(i).get_attribute("class") for i in range(marks.count())]
    assert classes == [f"cite v-{verdict_class(c)}" for c in report.citations]
    colours = {
        "fail": "rgb(255, 216, 211)",
        "pass": "rgb(218, 251, 225)",
        "partial": "rgb(255, 241, 184)",
        "excluded": "rgb(234, 238, 242)",
    }
    for i, c in enumerate(report.citations):
        bg = marks.nth(i).evaluate("e => getComputedStyle(e).backgroundColor")
        assert bg == colours[verdict_class(c)]
    assert page.locator("#placeholder").is_visible()
    fail = next(i for i, c in enumerate(report.citations) if verdict_class(c) == "fail")
    marks.nth(fail).click()
    detail = page.locator(f"#d-in-{fail}")
    assert detail.is_visible() and not page.locator("#placeholder").is_visible()
    text = detail.inner_text()
    cited = report.citations[fail]
    lang = "zh" if (page.locator("html").get_attribute("lang") or "").startswith("zh") else "en"
    assert lang == "zh"  # both drafts are Chinese: the page speaks Chinese
    assert label(cited.existence.label, lang) in text and label(cited.fidelity.label, lang) in text
    assert readable(cited.existence.rationale, lang=lang)[:30] in text
    if cited.suggestion:
        assert cited.suggestion.authority.text[:20] in text
    assert "selected" in (marks.nth(fail).get_attribute("class") or "")
    other = next(i for i in range(len(report.citations)) if i != fail)
    marks.nth(other).click()
    assert page.locator(f"#d-in-{other}").is_visible() and not detail.is_visible()
    assert page.locator("#changes table.diff tr").count() > 1
    assert page.errors == []
    shown = next((i for i, c in enumerate(report.citations) if c.suggestion), fail)
    marks.nth(shown).click()
    shot = tmp_path / f"{name}.png"
    page.screenshot(path=str(shot))
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 20_000
    keep = os.environ.get("CITEGOV_DOCS_SCREENSHOT")
    if keep and name == LAWBENCH.stem:
        shutil.copy(shot, keep)


def test_every_verdicts_json_has_a_page(batch: Path) -> None:
    summary = [json.loads(x) for x in (batch / "summary.jsonl").read_text("utf-8").splitlines()]
    assert sorted(Path(r["html"]).name for r in summary) == sorted(
        p.name for p in batch.glob("*.html") if p.name != "index.html"
    )


def _rgb(css: str) -> tuple[float, float, float]:
    parts = css[css.index("(") + 1 : css.index(")")].split(",")
    r, g, b = (float(x) for x in parts[:3])
    return r, g, b


def _luminance(css: str) -> float:
    def lin(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(c) for c in _rgb(css))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio of two CSS ``rgb(…)`` colours (1 … 21)."""
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


REVISED = (
    "根据《中华人民共和国民法典》第一百八十八条，向人民法院请求保护民事权利的诉讼时效期间为二年。\n"
)


def test_diff_insertions_and_deletions_stand_out(page: Any, tmp_path: Path) -> None:
    """Issue 23: an insertion was pale green on the pale green of its row (a 二年 → 三年 fix
    showed as a tinted paragraph). Each mark needs a line (underline / strike-through) of 3:1
    against its row (WCAG 1.4.11 non-text contrast), a tint of its own and readable text; the
    line is under the text (solid for an insertion, wavy for a deletion), not through it."""
    from governor.reports.html import render_draft
    from governor.reports.json_report import build_report

    as_of = date(2026, 11, 29)
    gov = Governor(load_config(environ={}))
    result = gov.govern(REVISED, strategy="efa", as_of=as_of)
    assert "三年" in result.text
    report = build_report(
        REVISED,
        as_of=as_of,
        strategy="efa",
        judge=gov.judge.name,
        initial=result.initial_verdicts,
        result=result,
    )
    html = render_draft(report, REVISED, result.text, title="diff", index_href="index.html")
    path = tmp_path / "diff.html"
    path.write_text(html, encoding="utf-8")
    page.goto(path.as_uri())
    for tag, style in (("ins", "solid"), ("del", "wavy")):
        mark = page.locator(f"#changes table.diff {tag}").first
        assert mark.inner_text() in ("三", "二")
        bg, fg, deco, deco_line, deco_style, row = mark.evaluate(
            "e => { const s = getComputedStyle(e), r = getComputedStyle(e.closest('td'));"
            " return [s.backgroundColor, s.color, s.textDecorationColor,"
            " s.textDecorationLine, s.textDecorationStyle, r.backgroundColor]; }"
        )
        # underlined, never struck through: a line through 二 reads as 三
        assert deco_line == "underline" and deco_style == style, (tag, deco_line, deco_style)
        assert contrast(deco, row) >= 3.0, (tag, deco, row)
        assert contrast(deco, bg) >= 3.0, (tag, deco, bg)
        assert contrast(bg, row) >= 1.3, (tag, bg, row)
        assert contrast(fg, bg) >= 4.5, (tag, fg, bg)
    shot = tmp_path / "diff.png"
    page.locator("#changes").screenshot(path=str(shot))
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    keep = os.environ.get("CITEGOV_DIFF_SCREENSHOT")
    if keep:
        shutil.copy(shot, keep)
    assert page.errors == []
