"""Record types of the authority store (layer 0; frozen, tuples, STYLE 1).

An :class:`Instrument` (one title, e.g. 中华人民共和国公司法) has one or more
:class:`InstrumentVersion` s; each version holds its :class:`ArticleRecord` s; an article holds
its 款 (:class:`ParagraphRecord`), each 款 its 项 (``items``). Numbers are 1-based; ``article``
is a string key so 之一 articles keep their suffix (``"133之一"``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date

from pydantic import Field

from governor.core.models import Frozen, Level


def paragraph_text(text: str, items: Sequence[str]) -> str:
    """A 款's whole text: the lead ``text`` followed by the ``items``, each on its own line
    with its （N） marker (:attr:`ParagraphRecord.full_text`)."""
    if not items:  # most 款 (the join below would return ``text`` itself)
        return text
    from governor.text.numerals import to_chinese

    lines = [text] if text else []
    lines += [f"（{to_chinese(i + 1)}）{t}" for i, t in enumerate(items)]
    return "\n".join(lines)


def article_text(paragraphs: Iterable[tuple[str, Sequence[str]]]) -> str:
    """An article's whole text from its ``(lead text, items)`` 款, newline-separated
    (:attr:`ArticleRecord.text`, computable without building the records)."""
    return "\n".join(paragraph_text(t, items) for t, items in paragraphs)


class ParagraphRecord(Frozen):
    """One 款: its lead text and its 项 (each item text without the （一） marker)."""

    text: str
    items: tuple[str, ...] = ()

    @property
    def full_text(self) -> str:
        """Lead text followed by the items, each on its own line with its （N） marker."""
        return paragraph_text(self.text, self.items)


class ArticleRecord(Frozen):
    """One article (条) of one instrument version.

    ``article`` is the Arabic key (``"577"``, ``"133之一"``); ``ordinal`` its 0-based position in
    the version; ``path`` the 编/分编/章/节 headings above it, outermost first.
    """

    instrument: str
    version: str
    article: str
    ordinal: int = Field(ge=0)
    path: tuple[str, ...] = ()
    paragraphs: tuple[ParagraphRecord, ...]

    @property
    def text(self) -> str:
        """Whole article text, 款 separated by newlines (no 第N条 marker)."""
        return "\n".join(p.full_text for p in self.paragraphs)

    @property
    def key(self) -> str:
        """Store-wide unique id ``"<instrument>@<version>#<article>"``."""
        return f"{self.instrument}@{self.version}#{self.article}"


class InstrumentVersion(Frozen):
    """One version (text as published/amended on ``version``) of an instrument.

    ``in_force_to`` is exclusive and derived from the next version's ``in_force_from``;
    ``None`` means in force as far as the store knows (unless the instrument is repealed).
    """

    instrument: str
    version: str
    published: date | None = None
    in_force_from: date | None = None
    in_force_to: date | None = None
    source_path: str = ""
    expired_flag: bool = False
    articles: tuple[ArticleRecord, ...] = ()
    body: str = ""
    """Text of instruments without 第N条 articles (批复, 决定, 修正案, cases); else empty."""


class Instrument(Frozen):
    """An instrument across its versions, with its names and hierarchy level."""

    title: str
    level: Level
    aliases: tuple[str, ...] = ()
    versions: tuple[InstrumentVersion, ...] = ()
    document_numbers: tuple[str, ...] = ()
    repealed_on: date | None = None
    successor: str | None = None
    parent_law: str | None = None
    """For a 司法解释/实施条例: the canonical title of the 法律 it interprets/implements."""


class RepealRecord(Frozen):
    """A repealed instrument that may be absent from the corpus (e.g. 合同法).

    ``successor`` is the canonical title of the instrument that replaced it; ``source`` says
    where the rule came from (e.g. ``民法典第一千二百六十条``).
    """

    title: str
    aliases: tuple[str, ...] = ()
    repealed_on: date
    successor: str | None = None
    level: Level = "法律"
    source: str = ""


class SuccessorLink(Frozen):
    """The successor provision of one article of a repealed instrument, found from the texts
    (:mod:`governor.authorities.successors`): 合同法第一百零七条 → 民法典第五百七十七条.

    ``confidence`` (cosine × distinctiveness), ``similarity`` (cosine of character-bigram
    TF-IDF vectors) and ``containment`` (share of the old text's bigrams in the successor's)
    are in [0, 1].
    """

    instrument: str
    article: str
    successor: ArticleRecord
    confidence: float = Field(ge=0.0, le=1.0)
    similarity: float = Field(ge=0.0, le=1.0)
    containment: float = Field(ge=0.0, le=1.0)


class GuidingCase(Frozen):
    """A Supreme People's Court guiding case (指导案例N号)."""

    number: int = Field(ge=1)
    title: str = ""
    published: date | None = None
    gist: str = ""
    keywords: tuple[str, ...] = ()
    related_laws: tuple[str, ...] = ()
    case_numbers: tuple[str, ...] = ()
    no_longer_referenced: bool = False
