"""Annotated HTML pages (governor/reports/html.py): segments, diff, classes, escaping, self-containment."""

from __future__ import annotations

import base64
import hashlib
import re
from datetime import date
from html import unescape
from typing import Any

import pytest

from governor.api import Governor
from governor.core.config import load_config
from governor.core.report import AxisOut, CitationOut
from governor.reports.html import (
    DiffPart,
    IndexEntry,
    render_draft,
    render_index,
    segments,
    side_by_side,
    verdict_class,
)
from governor.reports.i18n import label, op_name
from governor.reports.json_report import build_report

AS_OF = date(2026, 11, 29)
HOSTILE = (
    "问题：<script>window.__pwned = 1</script>怎么办？\n\n"
    "根据《中华人民共和国民法典》第五百七十七条规定，<img src=x onerror=alert(1)>应当承担违约责任。"
    '根据《民法典》第九千条规定，合同无效"><script>alert(2)</script>。\n'
)


def cit(span: tuple[int, int], trust: float = 1.0, excluded: bool = False) -> CitationOut:
    axis = AxisOut(label="x", score=1.0)
    return CitationOut(
        id="c",
        raw="r",
        span=span,
        kind="statute",
        instrument=None,
        instrument_as_written=None,
        article=None,
        paragraph=None,
        item=None,
        version_hint=None,
        case_number=None,
        claim="",
        description="",
        existence=axis,
        fidelity=axis,
        applicability=axis,
        item_trust=trust,
        excluded=excluded,
        taxonomy=(),
        resolved=None,
        suggestion=None,
    )


@pytest.mark.parametrize(
    "trust,excluded,expected",
    [
        (1.0, False, "pass"),
        (0.5, False, "partial"),
        (0.25, False, "partial"),
        (0.0, False, "fail"),
        (1.0, True, "excluded"),
        (0.0, True, "excluded"),
    ],
)
def test_verdict_class(trust: float, excluded: bool, expected: str) -> None:
    assert verdict_class(cit((0, 1), trust, excluded)) == expected


@pytest.mark.parametrize(
    "spans,expected",
    [
        ([], [("abcdefgh", None)]),
        ([(2, 4)], [("ab", None), ("cd", 0), ("efgh", None)]),
        ([(0, 2), (2, 4)], [("ab", 0), ("cd", 1), ("efgh", None)]),  # adjacent
        ([(4, 8), (0, 2)], [("ab", 1), ("cd", None), ("efgh", 0)]),  # given out of order
        ([(1, 5), (3, 6)], [("a", None), ("bcde", 0), ("fgh", None)]),  # overlap: first kept
        ([(6, 20), (3, 3)], [("abcdefgh", None)]),  # out of range, empty
    ],
)
def test_segments(spans: list[tuple[int, int]], expected: list[tuple[str, int | None]]) -> None:
    segs = segments("abcdefgh", [cit(s) for s in spans])
    assert [(s.text, s.cite) for s in segs] == expected
    assert "".join(s.text for s in segs) == "abcdefgh"


@pytest.mark.parametrize(
    "before,after,kinds",
    [
        ("a\nb\n", "a\nb\n", ["equal", "equal"]),
        ("a\n二年\nc", "a\n三年\nc", ["equal", "replace", "equal"]),
        ("a\nb\nc", "a\nc", ["equal", "delete", "equal"]),
        ("a\nc", "a\nb\nc", ["equal", "insert", "equal"]),
    ],
)
def test_side_by_side(before: str, after: str, kinds: list[str]) -> None:
    rows = side_by_side(before, after)
    assert [r.kind for r in rows] == kinds
    assert "\n".join("".join(p.text for p in r.left) for r in rows if r.left_no) == "\n".join(
        before.splitlines()
    )
    assert "\n".join("".join(p.text for p in r.right) for r in rows if r.right_no) == "\n".join(
        after.splitlines()
    )


def test_side_by_side_marks_only_changed_characters() -> None:
    (row,) = side_by_side("诉讼时效期间为二年。", "诉讼时效期间为三年。")
    assert row.left == (DiffPart("诉讼时效期间为"), DiffPart("二", True), DiffPart("年。"))
    assert row.right == (DiffPart("诉讼时效期间为"), DiffPart("三", True), DiffPart("年。"))


REPEATED_BEFORE = (
    "根据《中华人民共和国民法典》第一百八十八条，向人民法院请求保护民事权利的诉讼时效期间为二年；"
)
REPEATED_AFTER = REPEATED_BEFORE.replace("二年", "三年")


def _line(unit: str, chars: int) -> str:
    return unit * (chars // len(unit))


def _texts(parts: Any) -> str:
    return "".join(p.text for p in parts)


@pytest.mark.parametrize(
    "before,after,changed_right",
    [
        # one repetitive line (issue 23: 10,200 characters took 41 s in the character diff)
        (_line(REPEATED_BEFORE, 10_200), _line(REPEATED_AFTER, 10_200), "三"),
        # a long line with a few scattered edits and an insertion longer than a window
        (
            "甲" * 50 + "十年" + "乙丙丁" * 300 + "尾" * 30,
            "甲" * 50 + "十二年" + "乙丙丁" * 300 + "新增" * 300 + "尾" * 30,
            "二" + "新增" * 300,
        ),
        # a deletion longer than a window in a long line
        ("开头" * 200 + "删去" * 300 + "结尾" * 200, "开头" * 200 + "结尾" * 200, ""),
    ],
)
def test_long_lines_are_diffed_in_bounded_time(
    before: str, after: str, changed_right: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bounded work, not a clock: every character-level difflib call sees at most
    :data:`CHAR_DIFF_WINDOW` characters a side (difflib's cost grows with the product of the
    lengths: the old whole-line diff took 41 s on the first row), and the number of calls grows
    with the line's length, not its square. Timed figures: ``benchmarks/bench_scaling.py``."""
    import difflib

    from governor.reports import html as html_mod

    sizes: list[tuple[int, int]] = []
    real = difflib.SequenceMatcher

    def counting(isjunk: Any = None, a: Any = "", b: Any = "", autojunk: bool = True) -> Any:
        if isinstance(a, str):
            sizes.append((len(a), len(b)))
        return real(isjunk, a, b, autojunk=autojunk)

    monkeypatch.setattr(html_mod.difflib, "SequenceMatcher", counting)
    (row,) = side_by_side(before, after)
    assert _texts(row.left) == before and _texts(row.right) == after
    marked = "".join(p.text for p in row.right if p.changed)
    n = before.count("二年") if "二年" in before else 1
    assert marked == changed_right * n
    removed = "".join(p.text for p in row.left if p.changed)
    assert len(before) - len(removed) + len(marked) == len(after)
    window = html_mod.CHAR_DIFF_WINDOW
    assert all(max(a, b) <= window for a, b in sizes), sizes[:5]
    assert len(sizes) <= 4 * (len(before) + len(after)) // window + 4, len(sizes)


@pytest.fixture(scope="module")
def page() -> tuple[str, Any]:
    gov = Governor(load_config(environ={}))
    result = gov.govern(HOSTILE, strategy="efa", as_of=AS_OF)
    report = build_report(
        HOSTILE,
        as_of=AS_OF,
        strategy="efa",
        judge=gov.judge.name,
        initial=result.initial_verdicts,
        result=result,
    )
    return render_draft(
        report, HOSTILE, result.text, title="<b>t</b>", index_href="index.html"
    ), report


def test_draft_text_is_escaped(page: tuple[str, Any]) -> None:
    html, _ = page
    assert "<script>window.__pwned" not in html and "<script>alert" not in html
    assert "<img src=x" not in html and "<b>t</b>" not in html
    assert "&lt;script&gt;window.__pwned = 1&lt;/script&gt;" in html
    assert len(re.findall(r"<script\b", html)) == 1  # ours, at the end


def test_page_is_self_contained_and_csp_pins_its_own_assets(page: tuple[str, Any]) -> None:
    html, _ = page
    assert not re.search(r"(?:src|href)=\"(?:https?:)?//", html)
    assert "@import" not in html and "url(" not in html
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', html)
    assert csp is not None
    policy = unescape(csp.group(1))  # attribute entities are decoded by the browser
    assert "default-src 'none'" in policy
    for tag in ("script", "style"):
        body = re.search(rf"<{tag}>(.*?)</{tag}>", html, re.S)
        assert body is not None
        digest = base64.b64encode(hashlib.sha256(body.group(1).encode()).digest()).decode()
        assert f"'sha256-{digest}'" in policy, tag


def test_every_citation_is_highlighted_with_its_class(page: tuple[str, Any]) -> None:
    html, report = page
    marks = re.findall(r'<a class="cite v-(\w+)" href="#d-in-(\d+)"', html)
    assert [(cls, int(i)) for cls, i in marks] == [
        (verdict_class(c), i) for i, c in enumerate(report.citations)
    ]
    assert "fail" in {cls for cls, _ in marks}  # the fabricated 第九千条
    for i, c in enumerate(report.citations):
        detail = html.split(f'id="d-in-{i}"', 1)[1].split("</section>", 1)[0]
        assert f"E {label(c.existence.label, 'zh')}" in detail  # a Chinese draft: Chinese labels
        if c.resolved:
            assert c.resolved.text[:20] in detail


def test_diff_and_edits_are_shown(page: tuple[str, Any]) -> None:
    html, report = page
    assert report.rounds and '<table class="diff">' in html
    assert "<del>" in html or "<ins>" in html
    for e in report.rounds[0].edits:
        assert f"<td>{op_name(e.op, 'zh')}</td>" in html


def test_page_without_revision() -> None:
    gov = Governor(load_config(environ={}))
    vs = gov.verify("根据《民法典》第九千条规定，合同无效。", as_of=AS_OF)
    report = build_report(
        "根据《民法典》第九千条规定，合同无效。",
        as_of=AS_OF,
        strategy="none",
        judge="offline",
        initial=vs,
    )
    html = render_draft(report, "根据《民法典》第九千条规定，合同无效。", None, title="t")
    assert 'id="revised"' not in html and 'class="cite v-fail"' in html


def test_index_escapes_and_links() -> None:
    entries = [
        IndexEntry(
            "a<b>", "a%3Cb%3E.html", "/in/a<b>.md", "ok", 3, 2, 0.5, 1.0, True, "all_pass", None
        ),
        IndexEntry("bad", None, "/in/bad.md", "failed", 0, 0, None, None, None, None, "<x> broke"),
    ]
    html = render_index(entries, title="batch")
    assert '<a href="a%3Cb%3E.html">a&lt;b&gt;</a>' in html
    assert "&lt;x&gt; broke" in html and "<x>" not in html
    assert "0.50 → 1.00" in html and "1 / 1" in html


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_index_shows_support_and_deletions_beside_trust(lang: str) -> None:
    """Issue 13 item 5: the batch page cannot show trust without Cov, Sup and what was removed."""
    entry = IndexEntry(
        "a", "a.html", "/in/a.md", "ok", 3, 2, 0.5, 1.0, True, "all_pass", None,
        sup_before=0.75, sup_after=0.25, cov_after=0.5, kept=1, removed=2, orphan_claims=1,
        annotations=3,
    )  # fmt: skip
    html = render_index([entry], title="batch", lang=lang)
    row = html.split('data-key="a /in/a.md">')[1].split("</tr>")[0]
    cells = [c.split(">", 1)[1] for c in row.split("<td")[1:]]
    assert [c.rsplit("</td>", 1)[0].strip() for c in cells[5:10]] == [
        "0.75 → 0.25", "0.50", "1 / 2", "1", "3"
    ]  # fmt: skip
    assert "0.75 → 0.25" in html.split('<table class="index"')[0]  # the mean Sup card


# --- readable for the people who read it (issue 14 item 6) ---------------------------------

ENGLISH = (
    "The limitation period was tolled by the bankruptcy stay. Varghese v. China Southern "
    "Airlines Co., 925 F.3d 1339 (11th Cir. 2019).\n"
)


def _page(text: str, strategy: str = "none", details: bool = False) -> str:
    gov = Governor(load_config(environ={}))
    vs = gov.verify(text, as_of=AS_OF)
    report = build_report(text, as_of=AS_OF, strategy=strategy, judge="offline", initial=vs)
    return render_draft(report, text, None, title="t", details=details)


@pytest.mark.parametrize(
    "text,lang,words,absent",
    [
        (
            "根据《民法典》第九千条规定，合同无效。",
            "zh-CN",
            ["原稿（未改动）", "存在性", "E 不存在", "没有第九千条（现行版本共1260条）"],
            ["Draft as given", "Existence", "not_found", "第9000条"],
        ),
        (
            ENGLISH,
            "en",
            ["Draft as given", "Existence", "E unverifiable", "not checked: 1 US case"],
            ["原稿", "存在性"],
        ),
    ],
)
def test_page_speaks_the_drafts_language(
    text: str, lang: str, words: list[str], absent: list[str]
) -> None:
    html = unescape(_page(text))
    assert f'<html lang="{lang}">' in html
    for w in words:
        assert w in html, w
    for w in absent:
        assert w not in html, w


def test_gap_banner_is_one_line_in_chinese() -> None:
    html = unescape(_page("依据《上海市居住证管理办法》第十条办理。"))
    banner = re.search(r'<p class="gap" id="gaps">(.*?)</p>', html)
    assert banner is not None and "\n" not in banner.group(1)
    assert banner.group(1).startswith("未核验：1 件引用的文件不在权威库收录范围内")


def test_raw_measures_only_when_asked() -> None:
    text = "根据《民事诉讼法》第一百五十二条的规定，当事人对于自己的权益受到侵害，可以向人民法院提起诉讼。"
    plain, detailed = unescape(_page(text)), unescape(_page(text, details=True))
    assert not re.search(r"overlap [0-9]\.[0-9]{2}|\([0-9]\.[0-9]{2}\)", plain)
    assert re.search(r"overlap [0-9]\.[0-9]{2}|\([0-9]\.[0-9]{2}\)", detailed)


@pytest.mark.parametrize(
    "rationale,zh",
    [
        (
            "《中华人民共和国合同法》 was repealed on 2021-01-01 (《中华人民共和国民法典》第一千二百六十条); "
            "successor: 中华人民共和国民法典",
            "《中华人民共和国合同法》已于2021年1月1日废止（《中华人民共和国民法典》第一千二百六十条）"
            "；后继法：《中华人民共和国民法典》",
        ),
        (
            "《中华人民共和国刑法》第276条之一 exists",
            "《中华人民共和国刑法》第二百七十六条之一存在",
        ),
        (
            "《中华人民共和国合同法》第44条 exists but was repealed on 2021-01-01 "
            "(《中华人民共和国民法典》第一千二百六十条); successor: 中华人民共和国民法典",
            "《中华人民共和国合同法》第四十四条已于2021年1月1日废止（《中华人民共和国民法典》"
            "第一千二百六十条）；后继法：《中华人民共和国民法典》",
        ),
        (
            "the description matches 《中华人民共和国民事诉讼法》第104条 (0.35) better than the cited "
            "provision (0.01)",
            "报告的表述与《中华人民共和国民事诉讼法》第一百零四条更吻合，而非所引条文",
        ),
        (
            "the provision does not address the claim (rank >20 in its instrument, overlap 0.04)",
            "该条文未涉及该主张",
        ),
        (
            "the report says 两个月; the provision says 一个月",
            "报告称「两个月」，条文规定为「一个月」",
        ),
        ("the provision says 一年, not 二年", "条文规定为「一年」，而非「二年」"),
        (
            "the report restates 「应当支付」 but omits its condition 「劳动者提出解除的」",
            "报告复述了「应当支付」，但遗漏了其条件「劳动者提出解除的」",
        ),
        ("an unlisted rationale about 第5条第2款", "an unlisted rationale about 第五条第二款"),
    ],
)
def test_chinese_rationales(rationale: str, zh: str) -> None:
    from governor.reports.i18n import readable

    assert readable(rationale, lang="zh") == zh


def test_index_is_titled_by_the_run_in_chinese() -> None:
    from governor.batch import BatchRow, run_title

    rows = [
        BatchRow(input=f"/data/examples/drafts/{n}.md", input_sha256=None, settings="",
                 name=n, status="ok", language="zh")
        for n in ("a", "b")
    ]  # fmt: skip
    title = run_title(rows, "efa", "zh")
    assert title == "examples/drafts 的引用核验与修订（策略 efa，2 份文稿）"
    apart = [
        r.model_copy(update={"input": p})
        for r, p in zip(rows, ("/a/x/1.md", "/b/y/2.md"), strict=True)
    ]
    assert run_title(apart, "efa", "en") == "citegov revise of x, y (efa, 2 drafts)"
    entries = [
        IndexEntry("a", "a.html", "/in/a.md", "ok", 3, 2, 0.5, 1.0, True, "no_change", None, 2)
    ]
    html = render_index(entries, title=title, lang="zh")
    assert f"<h1>{title}</h1>" in html and "没有可再修正之处" in html and "no_change" not in html
    assert "<th>未核验</th>" in html and '<span class="badge v-excluded">2</span>' in html
