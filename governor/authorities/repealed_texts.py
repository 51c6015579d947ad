"""Read the ``cn_repealed`` folder: texts of instruments repealed when the 民法典 took effect (layer 1).

Format (``cn_repealed/SOURCE.md``, "Format"): ``# 标题``; metadata bullets (``- 通过：…通过，…起施行``,
``- 版本：…通过，根据…修正``, or LawRefBook-style ``- 2009年5月13日 施行``; ``状态``/``文本来源``/
``条文数`` bullets carry no dates the store uses); chapter headings as ``<!-- 第X章 … -->``
comments; one ``## 第N条`` heading per article with its 款 below, one per paragraph (in 合同法,
物权法, 婚姻法, 担保法 and 民法通则 the source joins the 款 and 项 of an article into one paragraph).

:func:`to_lawrefbook` rewrites such a file into the LawRefBook layout that
:func:`governor.authorities.parse.parse_markdown` reads, so the version rules of
:mod:`governor.authorities.build` apply unchanged: the version date is the last adoption or
amendment date (婚姻法: the 2001 修正; 民法通则: the 2009 修正), the in-force date the
``…起施行`` of the metadata (合同法 1999-10-01), else the amendment's own date.
The repeal itself is not read from the 状态 bullet: it comes from the repeal registry (民法典
第一千二百六十条 and :data:`governor.authorities.repeals.JI_REPEALS`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from governor.authorities.parse import ParsedFile, parse_markdown
from governor.core.errors import CorpusError

_DATE = r"\d{4}年\d{1,2}月\d{1,2}日"
_ADOPTED = re.compile(rf"(?P<on>{_DATE})(?P<event>[^，,；;]*?通过)")
_AMENDED = re.compile(rf"根据(?P<on>{_DATE})(?P<event>[^，,；;]*?(?:修正|修订))")
_IN_FORCE = re.compile(rf"(?P<on>{_DATE})起施行")
_DATED_BULLET = re.compile(rf"^{_DATE}\s*\S")
_ARTICLE_HEAD = re.compile(
    r"^##\s*(第[零〇一二三四五六七八九十百千]+条(?:之[一二三四五六七八九十]+)?)\s*$"
)
_HEADING_COMMENT = re.compile(r"^<!--\s*(第[零〇一二三四五六七八九十百千]+[编章节].*?)\s*-->$")
_SKIPPED_BULLETS = ("状态", "文本来源", "条文数")


@dataclass(frozen=True)
class RepealedFile:
    """One parsed ``cn_repealed`` file: its path relative to the folder, level and parse."""

    path: str
    level: str
    parsed: ParsedFile


def _meta_lines(bullet: str) -> list[str]:
    """LawRefBook metadata lines (``YYYY年M月D日 event``) for one metadata bullet."""
    body = bullet[1:].strip()
    if _DATED_BULLET.match(body):
        on = re.match(_DATE, body)
        assert on is not None
        return [f"{on[0]} {body[on.end() :].strip()}"]
    key, _, value = body.partition("：")
    if key in _SKIPPED_BULLETS or not value:
        return []
    out = [f"{m['on']} {m['event'].strip()}" for m in _ADOPTED.finditer(value)]
    out += [f"{m['on']} {m['event'].strip()}" for m in _AMENDED.finditer(value)]
    out += [f"{m['on']} 施行" for m in _IN_FORCE.finditer(value)]
    return out


def to_lawrefbook(text: str) -> str:
    """Rewrite a ``cn_repealed`` file in the LawRefBook layout (``cn_laws/SOURCE.md``).

    Args:
        text: the whole file.

    Returns:
        The same content as ``# title``, dated metadata lines, ``<!-- INFO END -->``, ``##``
        headings and ``第N条 text`` article lines.

    Raises:
        ValueError: the first line is not a ``# title`` line or no ``## 第N条`` is found.
    """
    lines = text.splitlines()
    if not lines or not lines[0].startswith("# "):
        raise ValueError("first line is not a '# title' heading")
    out = [lines[0], ""]
    body: list[str] = []
    pending: str | None = None  # the article label waiting for its first paragraph
    in_meta = True
    for raw in lines[1:]:
        line = raw.strip()
        if in_meta and line.startswith("- "):
            out += _meta_lines(line)
            continue
        if not line:
            continue
        in_meta = False
        head = _ARTICLE_HEAD.match(line)
        if head:
            if pending is not None:
                body.append(pending)  # an article with no text (none in the files; kept)
            pending = head[1]
            continue
        heading = _HEADING_COMMENT.match(line)
        if heading:
            body.append("## " + heading[1].replace("\u3000", " "))
            continue
        if pending is not None:
            body.append(f"{pending} {line}")
            pending = None
        else:
            body.append(line)
    if pending is not None:
        body.append(pending)
    if not any(_ARTICLE_HEAD.match(s.strip()) for s in lines):
        raise ValueError("no '## 第N条' article heading")
    return "\n".join([*out, "<!-- INFO END -->", "", *body, ""])


def read_repealed_folder(folder: Path) -> list[RepealedFile]:
    """Parse every ``*.md`` text of a ``cn_repealed`` folder (``SOURCE.md`` excepted).

    Files under ``司法解释/`` are level 司法解释, the others 法律.

    Raises:
        CorpusError: the folder does not exist or a file cannot be read or parsed.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise CorpusError(
            f"{folder} is not a folder: point --repealed at a cn_repealed folder, or omit it"
        )
    out = []
    for path in sorted(folder.rglob("*.md")):
        if path.name == "SOURCE.md":
            continue
        rel = path.relative_to(folder).as_posix()
        try:
            parsed = parse_markdown(to_lawrefbook(path.read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            raise CorpusError(f"cannot parse {path}: {exc}; fix or remove the file") from exc
        level = "司法解释" if rel.startswith("司法解释/") else "法律"
        out.append(RepealedFile(f"{folder.name}/{rel}", level, parsed))
    return out
