"""Parse one LawRefBook markdown file into articles, 款 and 项 (layer 1).

The format and its quirks are those documented in ``cn_laws/SOURCE.md`` ("File format (exact
markers)" and "Quirks a parser must handle"):

* line 1 ``# <title>``; the 民法典 files add a second title line naming the 编 (``# 合同编``);
* metadata lines ``YYYY年M月D日 <event>`` up to ``<!-- INFO END -->``; lines that do not start
  with a date are wrapped continuations of the previous event or 文号 lines; a passage note can
  spill across ``INFO END`` into the first body line;
* headings are ranked by their text (编 < 分编 < 章 < 节; 司法解释 ``一、`` = 章, ``（一）`` = 节),
  never by the number of ``#``;
* an article starts ``第<numeral>条[之N]`` (``笫`` typo and ``第一百二十八 条`` tolerated); every
  later non-item paragraph line is a new 款; lines ``（一）…`` are 项 of the 款 before them;
* ``<!-- … -->`` comment lines and zero-width-space lines are ignored; U+3000 is whitespace.

The parser is pure (text in, :class:`ParsedFile` out) so it can be table-tested on snippets.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date

from governor.text import regexes as rx
from governor.text.numerals import article_key

_WS = " \t\u3000\u200b\ufeff\xa0"
_CJK_SPACE = re.compile(r"(?<=[\u3400-\u9fff])[ \u3000]+(?=[\u3400-\u9fff])")
_RANKS = {"bian": 0, "fenbian": 1, "zhang": 2, "dun": 2, "jie": 3, "paren": 3}
_OTHER_RANK = 2
"""Rank of an unnumbered heading (附则, 基本案情 …): treated like a 章 heading."""


@dataclass
class ParsedArticle:
    """An article as parsed: key (``"133之一"``), heading path and 款 as (text, items)."""

    key: str
    path: tuple[str, ...]
    paragraphs: list[tuple[str, list[str]]]


@dataclass
class ParsedFile:
    """Everything the store needs from one markdown file.

    ``events`` are the metadata events ``(date, text)`` in file order; ``in_force`` the date of
    the ``… 施行`` event (or an explicit ``自…起施行`` clause in the metadata/spill), if any;
    ``body_in_force`` the last ``自…起施行`` (or ``自…起实施``, 香港/澳门基本法) date in the
    article text (the 附则 clause); ``body_on_publication`` whether the articles say
    「自公布之日起施行」 (or 发布/实施) instead of a date.
    """

    title: str
    subtitle: str = ""
    events: list[tuple[date, str]] = field(default_factory=list)
    in_force: date | None = None
    body_in_force: date | None = None
    body_on_publication: bool = False
    docnos: list[str] = field(default_factory=list)
    articles: list[ParsedArticle] = field(default_factory=list)
    body: str = ""
    duplicate_keys: list[str] = field(default_factory=list)


_BODY_IN_FORCE = re.compile(r"自(?P<y>\d{4})年(?P<m>\d{1,2})月(?P<d>\d{1,2})日起?(?:施行|实施)")
_ON_PUBLICATION = re.compile(r"自(?:公布|发布)之日起(?:施行|实施)")


def clean_line(line: str) -> str:
    """Strip ASCII/full-width/zero-width whitespace at both ends."""
    return line.strip(_WS + "\r\n")


def clean_heading(text: str) -> str:
    """Normalise a heading: ``第一章　总　则`` → ``第一章 总则`` (spaces only after the number)."""
    text = " ".join(text.replace("\u3000", " ").split())
    m = rx.CORPUS_HEADING_RANK.match(text)
    if m:
        head, rest = text[: m.end()], text[m.end() :].strip()
        rest = _CJK_SPACE.sub("", rest)
        return f"{head} {rest}".strip() if not head.endswith("、") else f"{head}{rest}"
    return _CJK_SPACE.sub("", text)


def heading_rank(text: str) -> int:
    """Rank of a heading by its text: 编 0, 分编 1, 章/``一、`` 2, 节/``（一）`` 3, other 2."""
    m = rx.CORPUS_HEADING_RANK.match(text)
    if not m:
        return _OTHER_RANK
    for name, rank in _RANKS.items():
        if m.group(name):
            return rank
    return _OTHER_RANK  # pragma: no cover - every branch names a group


def _date(y: str, m: str, d: str) -> date | None:
    try:
        return date(int(y), int(m), int(d))
    except ValueError:
        return None


def normalise_docno(docno: str) -> str:
    """Canonical 文号: brackets folded to 〔〕, spaces and a stray 第 removed.

    ``法释[2020]17号`` / ``法释（2020）17号`` → ``法释〔2020〕17号``. Returns the input stripped
    when it is not a document number.
    """
    m = rx.CORPUS_DOCNO.search(docno.replace(" ", ""))
    if not m:
        return docno.strip()
    return f"{m['prefix']}〔{m['year']}〕{int(m['num'])}号"


def _in_force_of(event: str, on: date) -> date | None:
    """In-force date stated by one metadata event, else None."""
    m = rx.CORPUS_IN_FORCE.search(event)
    if m:
        return _date(m["y"], m["m"], m["d"])
    if event.endswith("公布施行"):  # 宪法: 「全国人民代表大会公告公布施行」
        return on
    if event in ("施行", "起施行", "实施") or event.endswith(("日施行", "之日施行", "之日起施行")):
        return on
    if event.endswith("施行") and "通过" not in event and "公布" not in event:
        return on
    return None


def parse_markdown(text: str) -> ParsedFile:
    """Parse one corpus file.

    Args:
        text: the whole file, UTF-8 decoded.

    Returns:
        The parsed file. Articles keep file order; a repeated article key (a 决定 quoting
        amended articles) keeps its first occurrence and is listed in ``duplicate_keys``.

    Raises:
        ValueError: the first line is not a ``# title`` line.
    """
    lines = text.splitlines()
    if not lines or not lines[0].startswith("#"):
        raise ValueError("first line is not a '# title' heading")
    title = clean_line(lines[0].lstrip("#"))
    out = ParsedFile(title=title)
    i = 1
    # second title line (民法典 parts): a single-# heading before the metadata
    while i < len(lines) and not clean_line(lines[i]):
        i += 1
    if i < len(lines) and re.match(r"^#[^#]", lines[i]):
        out.subtitle = clean_heading(lines[i].lstrip("#"))
        i += 1
    try:
        info_end = next(j for j in range(i, len(lines)) if lines[j].strip() == "<!-- INFO END -->")
    except StopIteration:
        info_end = i - 1  # no metadata block: everything is body
    meta = [clean_line(s) for s in lines[i:info_end]]
    body_lines = [clean_line(s) for s in lines[info_end + 1 :]]
    body_lines = [s for s in body_lines if s and not (s.startswith("<!--") and s.endswith("-->"))]
    # metadata spill: the passage note continues on the first body line(s)
    spill: list[str] = []
    while body_lines and rx.CORPUS_SPILL.match(body_lines[0]):
        spill.append(body_lines.pop(0))
    _parse_meta(out, [s for s in meta if s and not s.startswith("<!--")], spill)
    _parse_body(out, body_lines)
    return out


def _parse_meta(out: ParsedFile, meta: list[str], spill: list[str]) -> None:
    events: list[list[object]] = []
    for line in meta:
        m = rx.CORPUS_META_DATE.match(line)
        on = _date(m["y"], m["m"], m["d"]) if m else None
        if m and on is not None:
            events.append([on, m["event"]])
        elif rx.CORPUS_DOCNO.fullmatch(line.replace(" ", "")):
            out.docnos.append(normalise_docno(line))
        elif events:  # wrapped continuation of the previous event
            events[-1][1] = f"{events[-1][1]}{line}"
    if spill and events:
        events[-1][1] = f"{events[-1][1]}{''.join(spill)}"
    out.events = [(e[0], str(e[1])) for e in events]  # type: ignore[misc]
    for on, event in out.events:
        found = _in_force_of(event, on)
        if found is not None:
            out.in_force = found  # the last stated in-force date wins


def _parse_body(out: ParsedFile, body: list[str]) -> None:
    stack: list[tuple[int, str]] = []  # (rank, heading) outermost first
    current: ParsedArticle | None = None
    seen: set[str] = set()
    attach = True  # lines after a non-structural heading following articles are not attached
    plain: list[str] = []
    for n, line in enumerate(body):
        if n < 12 and rx.CORPUS_DOCNO.fullmatch(line):
            out.docnos.append(normalise_docno(line))
            continue
        if line.startswith("#"):
            heading = clean_heading(line.lstrip("#"))
            plain.append(heading)
            if not heading:
                continue
            rank = heading_rank(heading)
            while stack and stack[-1][0] >= rank:
                stack.pop()
            stack.append((rank, heading))
            attach = rx.CORPUS_HEADING_RANK.match(heading) is not None
            current = None if not attach else current
            continue
        plain.append(line)
        m = rx.CORPUS_ARTICLE.match(line)
        if m:
            key = article_key(m["num"], m["suffix"])
            first = clean_line(m["text"])
            current = ParsedArticle(key, tuple(h for _, h in stack), [(first, [])] if first else [])
            if key in seen:
                out.duplicate_keys.append(key)
            else:
                seen.add(key)
                out.articles.append(current)
            attach = True
            _note_in_force(out, first)
            continue
        if current is None or not attach:
            continue
        if rx.CORPUS_APPENDIX.match(line):  # 附件/附表 after an article: not part of it
            current, attach = None, False
            continue
        _note_in_force(out, line)
        item = rx.CORPUS_ITEM.match(line)
        paras = current.paragraphs
        if item and paras:
            paras[-1][1].append(clean_line(item["text"]))
        elif item:  # an article that opens with an item: empty lead text
            paras.append(("", [clean_line(item["text"])]))
        elif paras and paras[-1][1] and re.match(r"^\d+[.．、]", line):
            paras[-1][1][-1] += "\n" + line  # 1. 2. sub-items belong to the item above
        elif paras and line.startswith("|"):
            text, items = paras[-1]
            if items:
                items[-1] += "\n" + line
            else:
                paras[-1] = (f"{text}\n{line}" if text else line, items)
        else:
            paras.append((line, []))
    if not out.articles:
        out.body = "\n".join(plain).strip()


def _note_in_force(out: ParsedFile, line: str) -> None:
    """Remember the last ``自…起施行`` date of the articles (the 附则 clause comes last), and
    whether they say 「自公布之日起施行」."""
    for f in _BODY_IN_FORCE.finditer(line):
        found = _date(f["y"], f["m"], f["d"])
        if found is not None:
            out.body_in_force = found
    if _ON_PUBLICATION.search(line):
        out.body_on_publication = True
