"""The list a citation's words introduce on the lines after them (issue 21).

A model recites a provision's items as the law prints them, one a line after a lead that ends
in 「下列…：」::

    根据《劳动法》第四十四条规定，用人单位应当按照下列标准支付劳动者的加班工资：
    1. 安排劳动者延长工作时间的，支付……；
    2. ……
    3. 延长工作时间工资报酬的计算基数为正常工作时间工资。

The description stops at the colon, so without this reading the items — where an invented one
stands (dev LawBench qwen-7b-chat 3-8 465: item 3 is none of 第四十四条's) — reach no judge.
:func:`introduced_items` gives them to the assertion (:attr:`Assertion.items`); Fidelity judges
them with the items the description holds (:mod:`verifiers.list_items`).
"""

from __future__ import annotations

import re

from governor.text.regexes import ITEM_MARK

LEAD = re.compile(r"(?:下列|以下|如下)")
"""A lead that announces a list (「有下列情形之一的」, 「按照下列标准」, 「规定如下」)."""

_COLON = re.compile(r"[^\n。；;]{0,30}?[：:][ \t\u3000]*\n")
"""The rest of the lead's line up to its colon and the line break."""

ITEM_LINE = re.compile(rf"[ \t\u3000]*(?:{ITEM_MARK}|[一二三四五六七八九十]{{1,3}}、)[ \t\u3000]*")
"""An item's mark at the start of a line: （一）, (1), 1. / 1、, 一、."""

MAX_ITEMS = 20
"""Lines read at most (PRC articles list fewer items; a longer run is no recital)."""


def introduced_items(text: str, end: int, next_start: int, words: str) -> tuple[str, ...]:
    """The items listed one a line right after ``end`` when ``words`` (the citation's) hold a
    list lead (:data:`LEAD`) and the text at ``end`` is the lead's colon and line break; each
    item up to its line's end or its first 「。」 (the report's own sentence may follow on the
    last line); never past ``next_start`` (the next citation's words). Empty when there is no
    such list or it has fewer than two items."""
    if LEAD.search(words) is None:
        return ()
    m = _COLON.match(text, end)
    if m is None:
        return ()
    pos = m.end()
    out: list[str] = []
    while pos < len(text) and len(out) < MAX_ITEMS:
        mark = ITEM_LINE.match(text, pos)
        if mark is None:
            break
        line_end = text.find("\n", mark.end())
        line_end = len(text) if line_end < 0 else line_end
        if line_end > next_start:
            break
        item = text[mark.end() : line_end]
        stop = item.find("。")
        item = (item[:stop] if stop >= 0 else item).strip(" \t\u3000；;，,：:")
        if item:
            out.append(item)
        if stop >= 0:
            break  # the report's own sentence follows: the list ends here
        pos = line_end + 1
    return tuple(out) if len(out) >= 2 else ()
