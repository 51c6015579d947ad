"""The date a report speaks as of, and the question it answers (layer 0).

Both are read on what a reader sees (:func:`governor.text.sanitize.reading_view`), never on hidden
content, and only from explicit markers: dates inside the narrative are facts of the case.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any

from governor.core.errors import ConfigError
from governor.text.numerals import to_int
from governor.text.sanitize import ReadingView, reading_view

_CN_YEAR = "〇○零一二三四五六七八九"
_CN_YEAR_DIGITS = str.maketrans(_CN_YEAR, "00012345678" + "9")
_CN_MD = r"[一二三四五六七八九十]{1,3}"
_DATE = (
    rf"(?:(?P<y>\d{{4}}|[{_CN_YEAR}]{{4}})\s*年\s*(?P<m>\d{{1,2}}|{_CN_MD})\s*月"
    rf"\s*(?P<d>\d{{1,2}}|{_CN_MD})\s*[日号]"
    r"|(?P<y2>\d{4})[-/.](?P<m2>\d{1,2})[-/.](?P<d2>\d{1,2})(?!\d))"
)
"""A calendar date: 2024年6月1日, 二〇二四年六月一日, 2024-06-01, 2024/6/1, 2024.6.1."""


def _date_of(m: re.Match[str]) -> date:
    """The date a :data:`_DATE` match names. Raises ValueError for an impossible date."""
    if m.group("y2"):
        return date(int(m.group("y2")), int(m.group("m2")), int(m.group("d2")))
    year = int(m.group("y").translate(_CN_YEAR_DIGITS))
    return date(year, to_int(m.group("m")), to_int(m.group("d")))


_AS_OF_MARKERS = re.compile(
    rf"(?:(?:报告|撰写|出具|检索|写作|咨询)?(?:日期|时间)\s*[:：]\s*|截至\s*|截止\s*|As of\s+){_DATE}"
)
_DATE_LINE = re.compile(rf"^\s*{_DATE}\s*$", re.MULTILINE)


def parse_as_of(value: Any, what: str = "as_of") -> date:
    """``value`` as an as-of date: a ``date`` (a ``datetime`` gives its date) or an ISO string
    (``YYYY-MM-DD``, surrounding blanks ignored). The one parser of the library's, the
    graph's (input and settings) and the service's ``as_of``; the CLI's ``--as-of`` still has
    its own stricter option parser (``governor.cli.common.parse_as_of``) — issue 23: ``Governor.verify(text,
    as_of="2023-07-01")`` used to fail deep in the verifier.

    Raises:
        ConfigError: anything else (``"June"``, ``"2023-02-30"``, a number); the message names
            ``what`` and the expected form.
    """
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        try:
            return date.fromisoformat(value.strip())
        except ValueError:
            pass
    raise ConfigError(
        f"{what} {value!r} is not a date; give a datetime.date or an ISO string YYYY-MM-DD"
    )


def detect_as_of(text: str, today: date | None = None) -> date:
    """The report's as-of date: an explicit report date, else ``today``.

    Only explicit markers count (``报告日期：2024年3月1日``, ``截至2024年3月1日``, or a date
    alone on the first or last non-empty line): dates inside the narrative are facts of the
    case, not the date the report speaks as of. Future dates are ignored. Read on what a
    reader sees (:func:`governor.text.sanitize.reading_view`): a date hidden in an HTML comment or
    split by invisible characters does not move the as-of date.
    """
    today = today or date.today()
    text = reading_view(text).text
    lines = [ln for ln in text.splitlines() if ln.strip()]
    edge = "\n".join(lines[:1] + lines[-1:])
    for m in [*_AS_OF_MARKERS.finditer(text), *_DATE_LINE.finditer(edge)]:
        try:
            d = _date_of(m)
        except ValueError:
            continue
        if d <= today:
            return d
    return today


_QUESTION = re.compile(r"\A\s*(?:问题|咨询问题|问|Question)\s*[:：]\s*(?P<q>[^\n]+)")


def detect_context(text: str) -> str:
    """The question a draft answers when it opens with a ``问题：`` line, else ``""`` (read on
    what a reader sees, like :func:`detect_as_of`)."""
    m = _QUESTION.match(reading_view(text).text)
    return m.group("q").strip() if m else ""


def question_span(text: str) -> tuple[int, int] | None:
    """Half-open character span, in ``text`` as given, of the question line a draft opens
    with (``问题：…`` / ``Question: …``, the same marker as :func:`detect_context`), or None.

    Citations inside it are the asker's, not the report's (issue 15 item 6).
    """
    return question_span_in(reading_view(text))


def question_span_in(view: ReadingView) -> tuple[int, int] | None:
    """:func:`question_span` of ``view.original`` from its reading, already built (the
    extractor has it: building it again would scan the text a second time)."""
    m = _QUESTION.match(view.text)
    if m is None:
        return None
    return view.span(m.start(), m.end())
