"""Annotated HTML: one page per governed draft and an index page per batch (jinja2).

Layer 7. Draft text is untrusted: every template is rendered with autoescape on, no draft text
is ever marked safe or placed inside ``<script>``/``<style>``, and each page carries a
Content-Security-Policy that allows only its own inline style and script (by sha256 hash) and
no network at all (``default-src 'none'``), so a page opened from a ``file://`` URL needs
nothing else and an injected ``<script>`` would not run even if escaping failed.

A draft page shows the draft as given with each citation highlighted by its verdict
(:func:`verdict_class`), the revised text highlighted by its final verdicts, a side-by-side
diff of the two (:func:`side_by_side`), the edits of each round and a citation table. Clicking
a highlight (or a table row) opens its detail — resolved provision text, E/F/A labels and
rationales, item trust, taxonomy codes and the suggestion — in a side panel; without script the
same detail opens through its ``#anchor`` (CSS ``:target``); hovering shows the labels.
"""

from __future__ import annotations

import base64
import difflib
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Literal

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

from governor.core.gaps import gap_line
from governor.core.models import bracketed
from governor.core.report import AuthorityOut, AxisOut, CitationOut, ScoresOut, VerdictReport
from governor.reports.i18n import TAXONOMY_ZH, UI, label, op_name, readable, stop_words
from governor.text.numerals import pin_label
from governor.text.script import language
from verifiers.taxonomy import MEANING

VerdictClass = Literal["pass", "partial", "fail", "excluded"]


def verdict_class(c: CitationOut) -> VerdictClass:
    """Highlight class of a citation: ``excluded`` (left out of trust, e.g. unverifiable),
    ``pass`` (item trust 1.0: E = F = A = 1, NA counted 1), ``fail`` (item trust 0.0),
    else ``partial`` (SPEC §3 scores)."""
    if c.excluded:
        return "excluded"
    if c.item_trust >= 1.0:
        return "pass"
    if c.item_trust <= 0.0:
        return "fail"
    return "partial"


def axis_class(a: AxisOut) -> str:
    """Chip class of one axis label: ``ok`` (1.0), ``mid`` (in between), ``bad`` (0.0),
    ``na`` (not scored: NA or excluded)."""
    if a.score is None:
        return "na"
    if a.score >= 1.0:
        return "ok"
    return "bad" if a.score <= 0.0 else "mid"


@dataclass(frozen=True)
class Segment:
    """A run of draft text; ``cite`` is the index of the citation it highlights, if any."""

    text: str
    cite: int | None = None


def segments(text: str, citations: Sequence[CitationOut]) -> tuple[Segment, ...]:
    """Split ``text`` into plain runs and highlighted citation spans.

    Spans are half-open character offsets into ``text``. A span that is out of range, empty,
    or overlaps an earlier one is not highlighted (its citation still appears in the table).
    """
    order = sorted(
        range(len(citations)), key=lambda i: (citations[i].span[0], -citations[i].span[1])
    )
    out: list[Segment] = []
    pos = 0
    for i in order:
        start, end = citations[i].span
        if start < pos or end <= start or end > len(text):
            continue
        if start > pos:
            out.append(Segment(text[pos:start]))
        out.append(Segment(text[start:end], i))
        pos = end
    if pos < len(text):
        out.append(Segment(text[pos:]))
    return tuple(out)


@dataclass(frozen=True)
class DiffPart:
    """A piece of one side of a diff line; ``changed`` marks deleted/inserted characters."""

    text: str
    changed: bool = False


@dataclass(frozen=True)
class DiffRow:
    """One row of a side-by-side diff: 1-based line numbers (``None`` = no line that side)."""

    kind: Literal["equal", "replace", "delete", "insert"]
    left_no: int | None
    left: tuple[DiffPart, ...]
    right_no: int | None
    right: tuple[DiffPart, ...]


CHAR_DIFF_WINDOW = 200
"""Characters per side that one character-level diff (:class:`difflib.SequenceMatcher`) sees at
once. difflib's cost grows with the product of the lengths — on repetitive text much faster
than linearly (one 10,200-character line took 41 s, 20,400 → 335 s, issue 23) — so longer
changed lines are diffed window by window (:func:`_windowed_diff`), which is linear in the
line length (10,200 repetitive characters: 0.3 s; 306,000: 8 s)."""
_ANCHOR_CHARS = 16
"""Characters of one side searched for in the other to re-align after a change longer than a
window."""


def _parts(
    a: str, b: str, ops: Sequence[tuple[str, int, int, int, int]]
) -> tuple[list[DiffPart], list[DiffPart]]:
    left: list[DiffPart] = []
    right: list[DiffPart] = []
    for op, i1, i2, j1, j2 in ops:
        if op == "equal":
            left.append(DiffPart(a[i1:i2]))
            right.append(DiffPart(b[j1:j2]))
            continue
        if i2 > i1:
            left.append(DiffPart(a[i1:i2], True))
        if j2 > j1:
            right.append(DiffPart(b[j1:j2], True))
    return left, right


def _merged(parts: list[DiffPart]) -> tuple[DiffPart, ...]:
    """Adjacent parts with the same ``changed`` flag joined (empty parts dropped)."""
    out: list[DiffPart] = []
    for p in parts:
        if not p.text:
            continue
        if out and out[-1].changed == p.changed:
            out[-1] = DiffPart(out[-1].text + p.text, p.changed)
        else:
            out.append(p)
    return tuple(out)


def _windowed_diff(a: str, b: str) -> tuple[list[DiffPart], list[DiffPart]]:
    """Character diff of two long strings in windows of :data:`CHAR_DIFF_WINDOW`: each window
    is diffed with difflib and committed up to its last matching block that starts before the
    window's last quarter, cut there (a cut window aligns badly near its end); a window with no such block is a
    change longer than a window, passed over by finding the next :data:`_ANCHOR_CHARS` of one
    side in the other (``str.find``), else the rest is marked changed. O(len × window)."""
    w = CHAR_DIFF_WINDOW
    left: list[DiffPart] = []
    right: list[DiffPart] = []
    i = j = 0
    while i < len(a) and j < len(b):
        wa, wb = a[i : i + w], b[j : j + w]
        sm = difflib.SequenceMatcher(None, wa, wb, autojunk=False)
        if len(wa) < w and len(wb) < w:  # both tails fit: diff them whole
            l_, r_ = _parts(wa, wb, sm.get_opcodes())
            left += l_
            right += r_
            i, j = len(a), len(b)
            break
        # a window that holds the rest of its side is not cut: its end is the real end
        cut_a = len(wa) if i + w >= len(a) else len(wa) - w // 4
        cut_b = len(wb) if j + w >= len(b) else len(wb) - w // 4
        # the last matching block starting before the window's last quarter, cut there
        blocks = sm.get_matching_blocks()
        safe = [m for m in blocks if m.size and m.a < cut_a and m.b < cut_b]
        if safe:
            last = safe[-1]
            size = min(last.size, cut_a - last.a, cut_b - last.b)
            end_a, end_b = last.a + size, last.b + size
            sub = difflib.SequenceMatcher(None, wa[:end_a], wb[:end_b], autojunk=False)
            l_, r_ = _parts(wa[:end_a], wb[:end_b], sub.get_opcodes())
            left += l_
            right += r_
            i, j = i + end_a, j + end_b
            continue
        k = b.find(a[i : i + _ANCHOR_CHARS], j + 1)
        m = a.find(b[j : j + _ANCHOR_CHARS], i + 1)
        if k >= 0 and (m < 0 or k - j <= m - i):
            right.append(DiffPart(b[j:k], True))  # an insertion longer than a window
            j = k
        elif m >= 0:
            left.append(DiffPart(a[i:m], True))  # a deletion longer than a window
            i = m
        else:
            break
    left.append(DiffPart(a[i:], True))
    right.append(DiffPart(b[j:], True))
    return left, right


def _char_diff(a: str, b: str) -> tuple[tuple[DiffPart, ...], tuple[DiffPart, ...]]:
    """Parts of two paired lines, the characters that differ marked ``changed``.

    Lines within :data:`CHAR_DIFF_WINDOW` characters are diffed whole; longer ones lose their
    common prefix and suffix first, and the middle is diffed window by window
    (:func:`_windowed_diff`), so the cost is linear in the line length.
    """
    if len(a) <= CHAR_DIFF_WINDOW and len(b) <= CHAR_DIFF_WINDOW:
        sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
        left, right = _parts(a, b, sm.get_opcodes())
        return tuple(left), tuple(right)
    n = min(len(a), len(b))
    pre = 0
    while pre < n and a[pre] == b[pre]:
        pre += 1
    suf = 0
    while suf < n - pre and a[len(a) - 1 - suf] == b[len(b) - 1 - suf]:
        suf += 1
    mid_l, mid_r = _windowed_diff(a[pre : len(a) - suf], b[pre : len(b) - suf])
    head, tail = [DiffPart(a[:pre])], [DiffPart(a[len(a) - suf :])]
    return _merged(head + mid_l + tail), _merged(head + mid_r + tail)


def side_by_side(before: str, after: str) -> tuple[DiffRow, ...]:
    """Line-by-line side-by-side diff with character-level marks inside changed lines.

    Lines are compared with :class:`difflib.SequenceMatcher`; a replaced block pairs its lines
    in order and marks the characters that differ (suited to Chinese text, which has no word
    boundaries); unpaired lines are pure deletions/insertions.
    """
    a, b = before.splitlines(), after.splitlines()
    rows: list[DiffRow] = []
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op == "equal":
            for k in range(i2 - i1):
                part = (DiffPart(a[i1 + k]),)
                rows.append(DiffRow("equal", i1 + k + 1, part, j1 + k + 1, part))
            continue
        n = max(i2 - i1, j2 - j1)
        for k in range(n):
            li = i1 + k if i1 + k < i2 else None
            rj = j1 + k if j1 + k < j2 else None
            if li is not None and rj is not None:
                left, right = _char_diff(a[li], b[rj])
                rows.append(DiffRow("replace", li + 1, left, rj + 1, right))
            elif li is not None:
                rows.append(DiffRow("delete", li + 1, (DiffPart(a[li], True),), None, ()))
            elif rj is not None:
                rows.append(DiffRow("insert", None, (), rj + 1, (DiffPart(b[rj], True),)))
    return tuple(rows)


@dataclass(frozen=True)
class IndexEntry:
    """One draft on the batch index page (``href`` relative to the index, ``None`` if failed);
    trust values in [0, 1]."""

    name: str
    href: str | None
    input: str
    status: str
    citations: int
    edits: int
    trust_before: float | None
    trust_after: float | None
    all_pass_after: bool | None
    stop_reason: str | None
    error: str | None
    unverified: int = 0
    """Citations of the output that could not be checked (coverage gaps)."""
    sup_before: float | None = None
    """Sup of the draft and of the output, in [0, 1] (:func:`verifiers.coverage.draft_support`)."""
    sup_after: float | None = None
    cov_after: float | None = None
    """Cov of the output with the draft as reference, in [0, 1]."""
    kept: int = 0
    removed: int = 0
    orphan_claims: int = 0
    annotations: int = 0
    """Draft citations kept / removed, removed ones whose claim stays, notes added
    (:func:`governor.core.labels.deletion_counts`)."""


def _csp_hash(source: str) -> str:
    digest = hashlib.sha256(source.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


@cache
def _assets() -> tuple[str, str, str]:
    base = files("governor.reports") / "templates"
    css = (base / "report.css").read_text(encoding="utf-8")
    js = (base / "report.js").read_text(encoding="utf-8")
    csp = (
        "default-src 'none'; "
        f"style-src {_csp_hash(css)}; script-src {_csp_hash(js)}; "
        "img-src data:; base-uri 'none'; form-action 'none'"
    )
    return css, js, csp


@cache
def _env() -> Environment:
    env = Environment(
        loader=PackageLoader("governor.reports", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["vclass"] = verdict_class
    env.filters["aclass"] = axis_class
    env.filters["lab"] = label
    env.filters["op"] = op_name
    env.filters["readable"] = lambda text, details=False, lang="en": readable(
        text, details=details, lang=lang
    )
    env.filters["pin"] = cite_pin
    env.filters["auth_label"] = authority_label
    env.globals["MEANING"] = MEANING
    env.globals["MEANING_ZH"] = TAXONOMY_ZH
    return env


def cite_pin(c: CitationOut, lang: str) -> str:
    """The pin cite of a citation as the reader's language writes it: in Chinese as PRC
    legislation does (第二百七十六条之一第二款), in English compactly (第276条之一第2款)."""
    if lang == "zh":
        return pin_label(c.article, c.paragraph, c.item)
    base, _, sfx = (c.article or "").partition("之")
    out = f"第{base}条" + (f"之{sfx}" if sfx else "") if c.article else ""
    out += f"第{c.paragraph}款" if c.paragraph else ""
    return out + (f"第{c.item}项" if c.item else "")


def authority_label(a: AuthorityOut, lang: str) -> str:
    """An authority's label; in Chinese pages with the pin cite written as the law does."""
    if lang != "zh" or not a.article:
        return a.label
    try:
        return bracketed(a.instrument) + pin_label(a.article, a.paragraph, a.item)
    except ValueError:
        return a.label


def _counts(cits: Sequence[CitationOut]) -> dict[str, int]:
    out = {"pass": 0, "partial": 0, "fail": 0, "excluded": 0}
    for c in cits:
        out[verdict_class(c)] += 1
    return out


def render_draft(
    report: VerdictReport,
    source: str,
    revised: str | None = None,
    *,
    title: str,
    index_href: str | None = None,
    details: bool = False,
) -> str:
    """The annotated HTML page of one draft (a complete, self-contained document).

    The page speaks the draft's language (:func:`governor.text.script.language`): Chinese
    headings, labels and pin cites for a Chinese draft, English otherwise. A one-line banner
    names the citations that could not be checked (:mod:`governor.core.gaps`).

    Args:
        report: the draft's SPEC §2 report (``citations`` index ``source``; ``final``, when
            present, indexes ``revised``).
        source: the draft text exactly as given (the report's spans index it).
        revised: the output text; ``None`` when there was no revision.
        title: page title (the draft's output name).
        index_href: relative link to the batch index page, if any.
        details: keep the raw measures (overlap, match scores) in rationales.

    Returns:
        HTML text (UTF-8 when written).
    """
    css, js, csp = _assets()
    final_cits: tuple[CitationOut, ...] = report.final.citations if report.final else ()
    final_scores: ScoresOut = report.final.scores if report.final else report.scores
    after = revised if report.final is not None else None
    has_revision = after is not None
    changed = after is not None and after != source
    lang = language(source)
    template = _env().get_template("draft.html.j2")
    return template.render(
        lang=lang,
        t=UI[lang],
        details=details,
        gaps=gap_line(report.gaps, lang=lang),
        loud=any(g.loud for g in report.gaps),
        stop=stop_words(report.stop_reason, lang),
        title=title,
        report=report,
        css=css,
        js=js,
        csp=csp,
        index_href=index_href,
        source_segments=segments(source, report.citations),
        revised_segments=segments(after, final_cits) if after is not None else (),
        final_citations=final_cits,
        final_scores=final_scores,
        has_revision=has_revision,
        changed=changed,
        diff=side_by_side(source, after) if after is not None and changed else (),
        counts_before=_counts(report.citations),
        counts_after=_counts(final_cits) if has_revision else None,
    )


def render_index(entries: Sequence[IndexEntry], *, title: str, lang: str = "en") -> str:
    """The batch index page: totals and one linked row per draft.

    ``trust`` means are macro averages over drafts that were governed (``status == "ok"``).
    ``title`` names the run; ``lang`` (``"zh"``/``"en"``) the page's words.
    """
    css, js, csp = _assets()
    ok = [e for e in entries if e.status == "ok"]

    def mean(vals: list[float | None]) -> float | None:
        xs = [v for v in vals if v is not None]
        return sum(xs) / len(xs) if xs else None

    totals = {
        "drafts": len(entries),
        "ok": len(ok),
        "failed": len(entries) - len(ok),
        "citations": sum(e.citations for e in ok),
        "edits": sum(e.edits for e in ok),
        "trust_before": mean([e.trust_before for e in ok]),
        "trust_after": mean([e.trust_after for e in ok]),
        "sup_before": mean([e.sup_before for e in ok]),
        "sup_after": mean([e.sup_after for e in ok]),
        "all_pass_after": sum(1 for e in ok if e.all_pass_after),
    }
    template = _env().get_template("index.html.j2")
    t = UI["zh" if lang == "zh" else "en"]
    return template.render(
        title=title,
        entries=entries,
        totals=totals,
        css=css,
        js=js,
        csp=csp,
        t=t,
        lang=lang,
        stops={e.name: stop_words(e.stop_reason, lang) for e in entries},
    )
