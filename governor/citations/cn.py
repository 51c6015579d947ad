"""Chinese citation grammar: report text → citation hits (layer 1).

One regex scan (:data:`governor.text.regexes.CN_ANCHOR_RE`) finds every anchor — a 《title》, a
第N条 pin chain, a 指导案例/检例 number, an article back-reference (同条, 前款…) or a bracketed
year (案号 / 文号) — and this module turns each anchor into :class:`Hit` s, looking backwards
from a bare 第N条 for its instrument:

1. the longest known alias ending right before 第 (``InstrumentNames.known_short_names``,
   allowing 的, spaces, a 编/章/节 path or, in lists, a comma between): 民法典第五百七十七条;
2. an instrument back-reference (同法/该法/本法/上述法律…) → the nearest preceding citation
   (``antecedent`` set); 本法/本条例… only in the report's own voice (a clause opening with
   根据/依据/按照: ``2. 根据本法第四十条规定``) — elsewhere (``劳动者依照本法第三十八条…``)
   it is the wording of a recited law, a cross-reference inside provision text, and skipped;
   a word naming a kind (该条例, 上述解释, and a bare 《条例》/《解释》 in 《》) takes the nearest
   preceding instrument of that kind (issue 24 item 6);
3. an unknown instrument-shaped title (…法/条例/规定/办法/解释 + 第N条): extracted with
   ``instrument=None`` — a fabricated instrument is an error to report, not to ignore;
4. a continuation of the previous citation's instrument when the 第N条 stands after a
   boundary (punctuation, line start, list number, 和/及/根据…) in the same paragraph or
   within 500 characters (any distance after 根据); an earlier citation of the same article
   number among the last few wins over the nearest one, unless the nearest one stands in the
   bare pin's own sentence;
5. otherwise nothing (合同第三条, 章程第十条, 他的第一条腿 are not citations of law).

Pin chains: 第N条 lists and ranges (、/和/及/至…); after 、/和/及/与/至 a member may drop its 第
(第一千二百三十六条及一千二百三十七条, 第二十三条和六十七条第三款), and right after a 《title》
the first article may too (《中华人民共和国刑法》三百零七条之一, two numeral characters at
least); 条文/法条 may stand between the instrument and its pin (依据刑法条文第一百一十四条), also
相关(法律)条文 (a judgment's appendix: 「附：《中华人民共和国刑法》相关法律条文 第一百七十六条…」);
bracketed 款/项 forms (第（二）款, 第(五)项, 第〔二〕项, 第【三】项) are read; a 款 list gives one
citation per 款 (第七十二条第一、三款 → 72(1), 72(3)), a 款 may drop its 第 after its article
or in a 款 list (第六十七条三款, 第三百四十七条一款、四款), and a chain member may drop its 条
before its 款 (第五十三条、第七十二第一款 → 72(1); JuDGE judgments); numbers may share one 条
(第十七、十九条 → 17, 19; 第264、52、53条; a range 第一千零六十二至一千零六十五条), a 项 list
may drop its brackets (第一款第二、五项 → items 2, 5), and 之 may take digits (第133条之1 =
133之一). A range marks both endpoints with ``article_range``. A 《title》 followed by a
placeholder pin (第X条, 第N条, 第×条, 第某条, 第__条, or a range of them: 第X条至第Y条) gives
one citation with ``placeholder`` set and no article. Titles ending 法案
are statute-shaped and resolve to the law without 案 (《反垄断法案》 → 反垄断法).

A short name the report defines right after a citation (「（以下简称《公开条例》）」, 「（下称
“X”）」) names that citation's instrument for the rest of the report, in 《》 or bare before
第N条; the definition itself is not a citation. A title that resolves to nothing is tried as a
variant (具体应用法律/适用法律, 若干问题的解释/解释, 中华人民共和国 inside or out, bracket width)
and taken when exactly one stored title fits (:func:`governor.authorities.aliases.variant_key`).

Also extracted: whole-instrument citations (``article=None``) for a 《title》 without a pin
cite when the title resolves or is instrument-shaped, and for a bare *known* title between a
lead-in and 规定 or a comma (根据劳动合同法的相关规定 / 根据劳动法，); article back-references
(同条/该条/此条/上述条款 → the antecedent's article; 前款/本款 also its 款; 本条/本款/前款/前条
only in the report's voice, as above); 指导案例 / 检例; 案号; 文号. Inside a quotation
(“…”) continuations and back-references are not extracted (they belong to the quoted
provision) unless the quotation opens with the pin cite (``“第十三条 军人退役后…”``);
titled citations are, except inside a quotation that recites the provision of the citation
right before it (「第一千一百九十八条规定：“…依照《民法典》第一千一百六十五条的规定…”」: the
quoted provision's cross-reference); bare-title citations (依照刑法规定) never are.

Spans are character offsets into the text exactly as given; nothing is normalised in place
(titles are looked up after removing whitespace/zero-width characters, folding 〈〉/<> to 《》
and common traditional characters to simplified; ``instrument_as_written`` holds that
cleaned form). Claims and descriptions are attached afterwards by :mod:`governor.citations.claims`.
"""

from __future__ import annotations

import bisect
import re
import weakref
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from governor.authorities.aliases import unique_variants, variant_key
from governor.core.models import CitationKind
from governor.text import recache
from governor.text import regexes as rx
from governor.text.numerals import article_key, to_int

if TYPE_CHECKING:
    from governor.core.ports import InstrumentNames

_ZW_TABLE = str.maketrans("", "", rx.ZERO_WIDTH)
_FULLWIDTH_DIGITS = str.maketrans("０１２３４５６７８９", "0123456789")
_WS_RE = recache.compile(r"\s+")
_TRAILING_VERSION_RE = recache.compile(
    r"[（(](?P<version>(?:[0-9０-９]{4}|[〇○零一二三四五六七八九]{4})[^（）()]{0,16})[)）]$"
)
_BLANK_LINE_RE = recache.compile(r"\n[^\S\n]*\n")
_QUOTE_OPEN_BEFORE_RE = recache.compile(r"[“「『\"‘]$")
_INNER_TITLE_BRACKETS = str.maketrans("〈〉＜＞<>", "《》《》《》")
_STATUTE_TAIL_RE = recache.compile(
    r"(?:法|法典|法案|修正案(?:[（(][一二三四五六七八九十]+[)）])?|条约|协定|公约)$"
)
_REPORT_VOICE_RE = recache.compile(
    r"(?:^|[。！？；;，,：:\n])[ \t\u3000]*"
    r"(?:[0-9０-９]{1,2}[.．、)）]|[（(][一二三四五六七八九十0-9]{1,3}[)）])?[ \t\u3000]*"
    r"(?:根据|依据|按照|参照)$"
)
"""A lead-in in the report's own voice at the start of a clause (``2. 根据本法第四十条规定``).
本法/本条/前款 elsewhere (``劳动者依照本法第三十八条规定解除…``) is the wording of a recited
law, a cross-reference inside the provision text, not a citation made by the report."""
_REPEATED_ZERO_RE = recache.compile(r"[零〇○]{2,}")
_JOINER_LAST = ("的", "中", "之", "文", "条")
"""Last characters of a :data:`regexes.PIN_JOINER_TAIL_RE` match (a cheap test first)."""
_STATUTE_KINDS: frozenset[str] = frozenset(
    {"statute", "judicial_interpretation", "regulation", "rule"}
)
_LOOKBACK = 64
"""Characters searched backwards from a bare 第N条 for its instrument title."""
_CONTINUATION_WINDOW = 500
"""A bare 第N条 after a boundary continues the previous citation's instrument when it is in
the same paragraph or this close (法律依据 lists often put a blank line between items); after a
lead-in (根据第四条规定) at any distance."""
_SAME_ARTICLE_LOOKBACK = 8
"""Hits searched back for an earlier citation of the same article number (continuations)."""
_ARTICLE_REF_WINDOW = 200
"""An article back-reference (该条, 前款…) resolves only to a citation this close before it."""
_MULTI_LEAD_IN = tuple(
    """
    根据 依据 依照 按照 参照 遵照 对照 适用 违反 违背 符合 援引 引用 参见 详见 参考 结合 规定 可以 应当 是否 属于
    """.split()
)
_SINGLE_LEAD_IN = frozenset("依据按见如即是为了在由对和及与或的中而则也还看")
_PLACE_SUFFIX_RE = recache.compile(r"(?:省|市|自治区|自治州|县|特区|地区|区|州)$")
_DOC_ISSUER_CUT = ("根据", "依据", "依照", "按照", "参照", "参见", "详见", "文号", "即", "见")


@dataclass(slots=True)
class Hit:
    """A citation found in the text, before it becomes a frozen :class:`Citation`.

    ``start``/``end`` are character offsets into the input; ``antecedent`` and ``group`` are
    indices into the hit list (resolved to ids by :mod:`governor.citations.extract`).
    """

    start: int
    end: int
    kind: CitationKind
    instrument: str | None = None
    instrument_as_written: str | None = None
    article: str | None = None
    paragraph: int | None = None
    item: int | None = None
    version_hint: str | None = None
    case_number: str | None = None
    document_number: str | None = None
    guiding_case: int | None = None
    antecedent: int | None = None
    group: int | None = None
    claim: str = ""
    claim_span: tuple[int, int] | None = None
    description: str = ""
    description_span: tuple[int, int] | None = None
    quotes: tuple[str, ...] = field(default_factory=tuple)
    us: object | None = None
    placeholder: str | None = None
    article_range: tuple[str, str] | None = None


@dataclass(slots=True)
class _Element:
    """One pin cite of a chain: its own span and 条/款/项; ``ranged``: it follows a range
    separator (第十条至第十二条: the second element)."""

    start: int
    end: int
    article: str
    paragraph: int | None = None
    item: int | None = None
    ranged: bool = False


# --- names ------------------------------------------------------------------------------------


class _AliasIndex:
    """Known bare aliases grouped by length, for longest-suffix lookup before 第N条."""

    __slots__ = ("_variants", "aliases", "lengths_by_last", "names", "titled_memo", "titles")

    def __init__(self, names: InstrumentNames) -> None:
        self.names = names
        self.titles: dict[str, tuple[str | None, CitationKind, CitationKind | None]] = {}
        self._variants: tuple[dict[str, str], ...] | None = None
        self.titled_memo: dict[
            tuple[str, bool], tuple[str, str | None, str | None, CitationKind, CitationKind | None]
        ] = {}
        self.aliases: frozenset[str] = frozenset(
            a for a in (clean_title(s) for s in names.known_short_names()) if len(a) >= 2
        )
        by_last: dict[str, set[int]] = {}  # alias lengths by last character: suffixes to try
        for a in self.aliases:
            by_last.setdefault(a[-1], set()).add(len(a))
        self.lengths_by_last: dict[str, tuple[int, ...]] = {
            ch: tuple(sorted(ls, reverse=True)) for ch, ls in by_last.items()
        }

    def longest_suffix(self, text: str) -> str | None:
        """The longest alias that ``text`` ends with, or None."""
        n = len(text)
        for length in self.lengths_by_last.get(text[-1:], ()):
            if length <= n and text[n - length :] in self.aliases:
                return text[n - length :]
        return None

    def titled(
        self, raw_title: str, has_version: bool
    ) -> tuple[str, str | None, str | None, CitationKind, CitationKind | None]:
        """``(title, version from the title or None, canonical title or None, kind, kind
        from the shape)`` of a title as written in 《》: cleaned, a trailing version note
        (《公司法（2018年修正）》) split off unless the citation has its own (``has_version``),
        then :meth:`lookup`; memoised (the same titles recur in every report)."""
        key = (raw_title, has_version)
        got = self.titled_memo.get(key)
        if got is None:
            title = clean_title(raw_title)
            version = None
            tv = _TRAILING_VERSION_RE.search(title)
            if tv and not has_version:
                version, title = tv["version"], title[: tv.start()]
            got = (title, version, *self.lookup(title))
            if len(self.titled_memo) > 200_000:
                self.titled_memo.clear()
            self.titled_memo[key] = got
        return got

    def lookup(self, title: str) -> tuple[str | None, CitationKind, CitationKind | None]:
        """``(canonical title or None, citation kind, kind guessed from the shape or None)``
        of a cleaned title; memoised per names object (titles repeat across reports)."""
        got = self.titles.get(title)
        if got is None:
            instrument = resolve_title(self.names, title) or self.variant(title)
            shape = guess_kind(title)
            got = (instrument, _kind_of(self.names, instrument, title), shape)
            if len(self.titles) > 200_000:
                self.titles.clear()
            self.titles[title] = got
        return got

    def variant(self, title: str) -> str | None:
        """The one stored title a variant spelling fits (具体应用法律/适用法律, 若干问题的解释/
        解释, 中华人民共和国, bracket width: :func:`governor.authorities.aliases.variant_key`),
        or None when none or several fit; names objects without ``titles()`` have none."""
        if self._variants is None:
            titles = getattr(self.names, "titles", None)
            self._variants = unique_variants(titles()) if callable(titles) else ()
        for level, table in enumerate(self._variants):
            found = table.get(variant_key(title, level))
            if found is not None:
                return found
        return None


_ALIAS_CACHE: weakref.WeakKeyDictionary[object, _AliasIndex] = weakref.WeakKeyDictionary()


def _alias_index(names: InstrumentNames) -> _AliasIndex:
    try:
        idx = _ALIAS_CACHE.get(names)
    except TypeError:  # not weak-referenceable: build every call (small fakes only)
        return _AliasIndex(names)
    if idx is None:
        idx = _AliasIndex(names)
        _ALIAS_CACHE[names] = idx
    return idx


@lru_cache(maxsize=65536)
def clean_title(title: str) -> str:
    """Title as looked up: zero-width chars and whitespace removed, 〈〉 folded to 《》,
    common traditional characters folded to simplified.

    ``"最高人民法院关于适用〈中华人民共和国\\n民法典〉…的解释"`` →
    ``"最高人民法院关于适用《中华人民共和国民法典》…的解释"``.
    """
    t = _WS_RE.sub("", title.translate(_ZW_TABLE))
    return t.translate(_INNER_TITLE_BRACKETS).translate(rx.TRADITIONAL_TO_SIMPLIFIED)


def resolve_title(names: InstrumentNames, title: str) -> str | None:
    """Canonical title of ``title`` (already cleaned), trying a few spelling variants.

    Variants: as written; without inner 《》; without a leading 我国/中国; with 中华人民共和国
    prepended; a title ending 法案 also without its 案 (《反垄断法案》 → 反垄断法: models name a
    law as a bill; the title as written stays in ``instrument_as_written``). Returns None when
    nothing resolves.
    """
    found = names.resolve_instrument(title)
    if found:
        return found
    variants = [title.replace("《", "").replace("》", "")]
    stripped = rx.TITLE_LEAD_PREFIX_RE.sub("", title)
    if stripped != title and stripped:
        variants.append(stripped)
    if not title.startswith("中华人民共和国"):
        variants.append("中华人民共和国" + stripped)
    if title.endswith("法案"):  # 《中华人民共和国反垄断法案》: the law named as a bill
        variants += [v[:-1] for v in [*variants, title] if v.endswith("法案")]
    for v in variants:
        if v and v != title:
            found = names.resolve_instrument(v)
            if found:
                return found
    return None


def guess_kind(title: str) -> CitationKind | None:
    """Citation kind guessed from a title's shape, or None when it is not an instrument.

    Rules (立法法 name forms; 《最高人民法院关于司法解释工作的规定》(2021) art. 6: 解释, 规定,
    规则, 批复, 决定): an SPC/SPP title or one ending 解释/批复/答复 → judicial_interpretation;
    …法/法典/法案/修正案/决定 → statute; …条例 → regulation; …规定/办法/细则/规则 → rule (a 国务院
    规定 → regulation); anything else → None (《红楼梦》 is not a citation).
    """
    t = re.sub(r"[（(](?:试行|暂行|修正|修订|草案)[)）]$", "", title)
    t = _TRAILING_VERSION_RE.sub("", t)
    if not t:
        return None
    spc = "最高人民法院" in t or "最高人民检察院" in t or "司法解释" in t
    if spc or t.endswith(("解释", "批复", "答复")):
        return "judicial_interpretation"
    if t.endswith("条例"):
        return "regulation"
    if t.endswith(
        ("规定", "办法", "细则", "规则", "规程", "纪要", "意见", "通知", "准则", "规范", "纲要")
    ):
        return "regulation" if "国务院" in t else "rule"
    if _STATUTE_TAIL_RE.search(t) or t.endswith("决定"):
        return "statute"
    return None


def _kind_of(names: InstrumentNames, instrument: str | None, written: str) -> CitationKind:
    if instrument is not None:
        k = names.kind_of(instrument)
        if k is not None:
            return k
    return guess_kind(instrument or written) or "statute"


# --- pin chains -------------------------------------------------------------------------------


def _num(s: str | None) -> int | None:
    if s is None:
        return None
    try:
        n = to_int(s)
    except ValueError:
        try:
            n = to_int(_REPEATED_ZERO_RE.sub("零", s))
        except ValueError:
            return None
    return n if n >= 1 else None


def _article_key(num: str, suffix: str | None) -> str:
    """``article_key`` tolerant of a doubled zero (一千零零六十三 → ``"1063"``).

    Raises:
        ValueError: the numeral does not parse even then (十六十四).
    """
    try:
        return article_key(num, suffix)
    except ValueError:
        return article_key(_REPEATED_ZERO_RE.sub("零", num), suffix)


def parse_chain(text: str, start: int, end: int, first: _Element | None = None) -> list[_Element]:
    """Split the pin chain ``text[start:end]`` into its elements.

    Args:
        text: the whole input.
        start: offset of the chain (a 第N条, or a back-reference's 款/项 tail).
        end: end offset of the chain.
        first: element the chain refines (a back-reference: 同条第二款), if any.

    Returns:
        One element per pin cite, in order: a list ``第十条、第十一条`` or a range
        ``第十条至第十二条`` gives two; a 款/项 after a separator inherits the article (and
        款) of the element before it, so ``第七十二条第一、三款`` gives 72(1) and 72(3) (spans
        ``第七十二条第一`` and ``三款``); numbers sharing one 条 likewise, ``第十七、十九条``
        gives 17 and 19 (spans ``第十七`` and ``十九条``). Elements whose numerals do not
        parse are dropped.
    """
    out: list[_Element] = []
    cur = first
    pending = first is None  # the first token always starts an element
    ranged = False
    for tok in rx.PIN_ELEMENT_RE.finditer(text, start, end):
        kind = tok.lastgroup
        if kind in ("list", "range"):
            pending, ranged = True, kind == "range"
            continue
        if kind == "article":
            try:
                num = tok["article_num"] or tok["article_num2"] or tok["article_num3"]
                key = _article_key(num, tok["article_sfx"])
            except ValueError:
                cur, pending = None, False
                continue
            if key == "0" or key.startswith("0"):
                cur, pending = None, False
                continue
            if cur is not None and cur is not first:
                out.append(cur)
            cur = _Element(tok.start(), tok.end(), key, ranged=ranged and pending)
        elif cur is None:
            pending = False
            continue
        elif kind == "paragraph":
            para = _num(
                tok["paragraph_num"]
                or tok["paragraph_num2"]
                or tok["paragraph_num3"]
                or tok["paragraph_num4"]
                or tok["paragraph_num5"]
            )
            if para is None:
                continue
            if pending or cur.paragraph is not None or cur.item is not None:
                if cur is not first:
                    out.append(cur)
                cur = _Element(tok.start(), tok.end(), cur.article, para)
            else:
                cur.paragraph, cur.end = para, tok.end()
        elif kind == "item":
            item = _num(
                tok["item_num1"]
                or tok["item_num2"]
                or tok["item_num3"]
                or tok["item_num4"]
                or tok["item_num5"]
                or tok["item_num6"]
            )
            if item is None:
                continue
            if pending or cur.item is not None:
                if cur is not first:
                    out.append(cur)
                cur = _Element(tok.start(), tok.end(), cur.article, cur.paragraph, item)
            else:
                cur.item, cur.end = item, tok.end()
        pending = ranged = False
    if cur is not None and cur is not first:
        out.append(cur)
    elif cur is first and first is not None and (first.paragraph or first.item):
        out.append(first)
    return out


# --- the scanner ------------------------------------------------------------------------------


class _Scanner:
    """State of one extraction pass over one text."""

    def __init__(self, text: str, names: InstrumentNames) -> None:
        self.text = text
        self.names = names
        self.aliases = _alias_index(names)
        self.hits: list[Hit] = []
        self._quotes: list[tuple[int, int]] | None = None
        self._group = 0
        # short names the report defines (（以下简称《公开条例》）): name → (instrument, as
        # written, kind) of the hit it follows; anchors before ``_skip_to`` are the definition
        self.defined: dict[str, tuple[str | None, str | None, CitationKind]] = {}
        self._skip_to = 0

    # -- helpers --

    def prev_end(self) -> int:
        return self.hits[-1].end if self.hits else 0

    def quote_at(self, pos: int) -> tuple[int, int] | None:
        """Span of the quotation (“…”, 「…」, "…") ``pos`` lies inside, marks included."""
        if self._quotes is None:
            self._quotes = [(m.start(), m.end()) for m in rx.QUOTE_RE.finditer(self.text)]
        i = bisect.bisect_right(self._quotes, (pos, len(self.text) + 1)) - 1
        if i >= 0 and self._quotes[i][0] < pos < self._quotes[i][1] - 1:
            return self._quotes[i]
        return None

    def in_quote(self, pos: int) -> bool:
        """True when ``pos`` lies inside a quotation (“…”, 「…」, "…")."""
        return self.quote_at(pos) is not None

    def in_quoted_provision(self, pos: int) -> bool:
        """True when ``pos`` lies inside a quotation that recites the provision of the citation
        right before it (「《民法典》第一千一百九十八条规定：“…依照《…》第一千一百六十五条的规定…”」):
        a title there is the quoted provision's cross-reference, not a citation of the report."""
        if not self.hits:
            return False
        last = self.hits[-1]
        if rx.QUOTE_OPEN_RE.search(self.text, last.end, pos) is None:
            return False  # no quotation opens between the last citation and this title
        q = self.quote_at(pos)
        if q is None:
            return False
        prev = None
        for h in reversed(self.hits):
            if h.end <= q[0]:
                prev = h
                break
        if prev is None or prev.kind not in _STATUTE_KINDS:
            return False
        gap = rx.CARRIER_AFTER_RE.match(self.text, prev.end, q[0])
        return gap is not None and gap.end() == q[0]

    def same_paragraph(self, a: int, b: int) -> bool:
        return _BLANK_LINE_RE.search(self.text, a, b) is None

    def antecedent(
        self, *, need_article: bool = False, word: str = "", strict: bool = False
    ) -> int | None:
        """Index of the nearest preceding statute-like hit (with an article if asked).

        ``word`` is the back-reference as written (该条例, 上述解释, 《条例》): the nearest hit
        of the kind it names (:func:`_names_kind`) wins over a nearer one of another kind;
        without one, the nearest hit of any kind — or None when ``strict``."""
        fallback = None
        for i in range(len(self.hits) - 1, -1, -1):
            h = self.hits[i]
            if h.kind not in _STATUTE_KINDS:
                continue
            if h.instrument is None and h.instrument_as_written is None:
                continue
            if need_article and h.article is None:
                continue
            if not word or _names_kind(word, h):
                return i
            if fallback is None:
                fallback = i
        return None if strict else fallback

    def define_short_name(self) -> None:
        """Record 「（以下简称《X》）」 right after the last hit: X names that hit's instrument
        for the rest of the report, and the definition itself is not a citation."""
        h = self.hits[-1]
        m = rx.DEFINED_NAME_AFTER_RE.match(self.text, h.end)
        if m is None or h.kind not in _STATUTE_KINDS:
            return
        short = clean_title(m["short"])
        if len(short) >= 2 and (h.instrument or h.instrument_as_written):
            self.defined[short] = (h.instrument, h.instrument_as_written, h.kind)
            self._skip_to = m.end()

    def _join_defined_pin(self, n: int) -> None:
        """《工伤保险条例》（以下简称《条例》）第三十七条: the pin right after a short-name
        definition belongs to the whole-instrument hit before the definition — one citation
        spanning both, not a whole-instrument citation plus a bare 第三十七条. ``n`` is the
        index of the first hit just added."""
        if n == 0 or self._skip_to == 0:
            return
        prev, first = self.hits[n - 1], self.hits[n]
        if prev.article is not None or first.article is None or prev.kind not in _STATUTE_KINDS:
            return
        if self.text[self._skip_to : first.start].strip() or first.start < self._skip_to:
            return
        if (first.instrument or first.instrument_as_written) != (
            prev.instrument or prev.instrument_as_written
        ):
            return
        first.start = prev.start
        del self.hits[n - 1]

    def recent_with_article(self, article: str, nearest: int) -> int | None:
        """Index of a hit among the last few before ``nearest`` (inclusive) that cites
        ``article`` of a different instrument than ``nearest``; None when there is none."""
        inst = self.hits[nearest].instrument or self.hits[nearest].instrument_as_written
        for i in range(nearest, max(-1, nearest - _SAME_ARTICLE_LOOKBACK), -1):
            h = self.hits[i]
            if h.article == article and h.kind in _STATUTE_KINDS:
                if (h.instrument or h.instrument_as_written) == inst:
                    return None
                return i
        return None

    def new_group(self) -> int:
        self._group += 1
        return self._group

    def emit_chain(
        self,
        elements: list[_Element],
        start: int,
        base: Hit,
    ) -> None:
        """Append one hit per chain element; the first element's span starts at ``start``."""
        group = self.new_group() if len(elements) > 1 else None
        first_hit = len(self.hits)
        for n, el in enumerate(elements):
            h = Hit(
                start=start if n == 0 else el.start,
                end=el.end,
                kind=base.kind,
                instrument=base.instrument,
                instrument_as_written=base.instrument_as_written,
                article=el.article,
                paragraph=el.paragraph,
                item=el.item,
                version_hint=base.version_hint,
                antecedent=base.antecedent,
                group=group,
            )
            self.hits.append(h)
        for n in range(1, len(elements)):  # 第十条至第十二条: both endpoints name the range
            prev, el = elements[n - 1], elements[n]
            if el.ranged and el.article != prev.article:
                pair = (prev.article, el.article)
                self.hits[first_hit + n - 1].article_range = pair
                self.hits[first_hit + n].article_range = pair

    # -- anchors --

    def titled(self, m: re.Match[str]) -> None:
        if self.in_quoted_provision(m.start()):
            return
        raw_title = next(filter(None, m.group(*rx.TITLE_GROUPS)))  # exactly one is set
        if m["title_cn"] is None and len(re.findall(rf"[{rx.CJK}]", clean_title(raw_title))) < 2:
            return  # <b>, <br>: ASCII markup, not a title
        version = m["version"]
        title, title_version, instrument, kind, shape = self.aliases.titled(
            raw_title, bool(version)
        )
        if title_version is not None:  # 《公司法（2018年修正）》
            version = title_version
        ante = None
        if title in self.defined:  # a short name the report defined (《公开条例》)
            instrument, full, kind = self.defined[title]
            if instrument is None and full:  # 《条约》 for 《1978年国际刑事司法协助条约》
                title = full
        elif instrument is None and rx.GENERIC_BRACKETED_RE.match(title):
            # 《条例》 after 《工伤保险条例》: the nearest preceding instrument of that kind
            ante = self.antecedent(word=title, strict=True)
            if ante is not None:  # without one it stays unresolved (existence: unverifiable)
                a = self.hits[ante]
                instrument, kind = a.instrument, a.kind
                version = version or a.version_hint
        if instrument is None and shape is None:
            return
        base = Hit(
            0,
            0,
            kind,
            instrument=instrument,
            instrument_as_written=title,
            version_hint=_clean_version(version),
            antecedent=ante,
        )
        if m["titled_placeholder"] is not None:  # 《劳动合同法》第X条: no article named
            base.start, base.end = m.start(), m.end()
            base.placeholder = _WS_RE.sub("", m["titled_placeholder"].translate(_ZW_TABLE))
            self.hits.append(base)
            return
        chain = "titled_chain" if m["titled_chain"] is not None else "titled_bare"
        if m[chain] is None:
            base.start, base.end = m.start(), m.end()
            self.hits.append(base)
            return
        elements = parse_chain(self.text, m.start(chain), m.end(chain))
        if not elements:
            base.start, base.end = m.start(), m.start(chain)
            self.hits.append(base)
            return
        self.emit_chain(elements, m.start(), base)

    def chain(self, m: re.Match[str]) -> None:
        text, s = self.text, m.start()
        lb = max(self.prev_end(), s - _LOOKBACK)
        pre = text[lb:s]
        core = pre.rstrip(" \t\u3000\xa0\n" + rx.ZERO_WIDTH)
        joiner = (  # 刑法的 / 刑法中的 / 刑法条文 第N条
            rx.PIN_JOINER_TAIL_RE.search(core) if core.endswith(_JOINER_LAST) else None
        )
        if joiner is not None and joiner.start() < len(core):
            core = core[: joiner.start()].rstrip(" \t\u3000\xa0\n" + rx.ZERO_WIDTH)
        st = rx.STRUCTURE_TAIL_RE.search(core) if core.endswith(("章", "节", "编", " ")) else None
        if st is not None:  # 劳动合同法第四章第三节第四十四条: skip the 编/章/节 path
            core = core[: st.start()].rstrip(" \t\u3000\xa0\n" + rx.ZERO_WIDTH)
        core_end = lb + len(core)
        base: Hit | None = None
        start = s
        # 0. a title in quotes instead of 《》: "中华人民共和国刑法"第十七条 / “劳动合同法”第三十九条
        qt = rx.QUOTED_TITLE_TAIL_RE.search(core)
        if qt is not None and rx.QUOTE_OPEN_CLOSE.get(qt["open"]) == qt["close"]:
            written = clean_title(qt["title"])
            inst, kind, shape = self.aliases.lookup(written)
            if inst is not None or (shape is not None and rx.BARE_TITLE_TAIL_RE.search(written)):
                self.emit_pin(m, lb + qt.start(), Hit(0, 0, kind, inst, written))
                return
        # 1. longest known alias (before back-references: 合同法 ends with 同法); a comma may
        #    stand between a known title and its pin in a list (- 中华人民共和国劳动法，第七十五条)
        folded = core.translate(rx.TRADITIONAL_TO_SIMPLIFIED)  # 1:1, offsets unchanged
        short = next(
            (d for d in sorted(self.defined, key=len, reverse=True) if folded.endswith(d)), None
        )
        if short is not None:  # 公开条例第十三条 after （以下简称“公开条例”）
            inst, full, kind = self.defined[short]
            elements = parse_chain(text, s, m.end())
            if elements:
                written = short if inst is not None or not full else full
                self.emit_chain(elements, core_end - len(short), Hit(0, 0, kind, inst, written))
            return
        alias = self.aliases.longest_suffix(folded)
        if alias is None and core.endswith(("，", ",")):
            alias = self.aliases.longest_suffix(folded[:-1])
            if alias is not None:
                core = core[:-1]
                core_end -= 1
        if alias is not None:
            a_start = core_end - len(alias)
            before = text[max(lb, a_start - 6) : a_start]
            if _PLACE_SUFFIX_RE.search(before):  # 北京市物业管理条例: a local rule
                local = rx.BARE_TITLE_TAIL_RE.search(core)
                written = _trim_bare_title(local["title"]) if local else alias
                base = Hit(0, 0, guess_kind(written) or "rule", None, written)
                start = core_end - len(written)
            else:
                inst, kind, _ = self.aliases.lookup(alias)
                base = Hit(0, 0, kind, inst, alias)
                start = a_start
        # 2. instrument back-reference: 同法第N条 / 本法第N条
        br = rx.INSTRUMENT_BACKREF_RE.search(core) if base is None else None
        if br is not None and (br.group()[0] not in "同前" or _starts_word(core, br.start())):
            ante = self.antecedent(word=br.group())
            if ante is None:
                return
            if br.group().startswith("本") and not _REPORT_VOICE_RE.search(
                text, max(0, lb + br.start() - 24), lb + br.start()
            ):
                return  # 依照本法第三十八条…: wording of a recited law
            a = self.hits[ante]
            base = Hit(0, 0, a.kind, a.instrument, a.instrument_as_written, antecedent=ante)
            base.version_hint = a.version_hint
            start = lb + br.start()
        # 3. unknown instrument-shaped title
        if base is None:
            tail = rx.BARE_TITLE_TAIL_RE.search(core)
            if tail is not None and br is None:
                written = _trim_bare_title(tail["title"])
                if written and len(written) >= 3 and not rx.GENERIC_TITLE_RE.match(written):
                    inst, kind, _ = self.aliases.lookup(written)
                    base = Hit(0, 0, kind, inst, written)
                    start = core_end - len(written)
        # 4. continuation of the previous citation's instrument
        if base is None:
            if m["placeholder_pin"] is not None:
                return  # a bare 第X条: too loose to read as a citation
            bare = pre.rstrip(" \t\u3000\xa0" + rx.ZERO_WIDTH)
            if not rx.CONTINUATION_BOUNDARY_RE.search(bare[-8:] if bare else ""):
                return
            ante = self.antecedent()
            if ante is None:
                return
            if self.in_quote(s) and not _QUOTE_OPEN_BEFORE_RE.search(bare):
                return  # a cross-reference inside quoted law text, not the report's citation
            a = self.hits[ante]
            led = rx.LEAD_IN_BEFORE_RE.search(bare[-10:]) is not None
            if not (led or s - a.end <= _CONTINUATION_WINDOW or self.same_paragraph(a.end, s)):
                return
            elements = parse_chain(text, s, m.end())
            if not elements:
                return
            # 《民法典》第1068条和《婚姻法》第1071条…。第1068条明确规定: the instrument a recently
            # cited article of the same number came from beats the nearest instrument — unless
            # the nearest citation opens the bare pin's own sentence (「根据《民法典》第一千零六十三条，
            # …依照第一千零六十二条的规定处理」 is the 民法典's 1062, not an earlier 《婚姻法》
            # 第一千零六十二条; fresh review 42, LawBench 3-8 chatglm2 197)
            same = self.recent_with_article(elements[0].article, ante)
            if same is not None and rx.SENTENCE_END_RE.search(text, a.end, s) is not None:
                ante, a = same, self.hits[same]
            base = Hit(0, 0, a.kind, a.instrument, a.instrument_as_written, antecedent=ante)
            base.version_hint = a.version_hint
            self.emit_chain(elements, start, base)
            return
        self.emit_pin(m, start, base)

    def emit_pin(self, m: re.Match[str], start: int, base: Hit) -> None:
        """Emit the pin cite of a ``chain`` or ``placeholder_pin`` anchor for ``base``."""
        if m["placeholder_pin"] is not None:  # 劳动合同法第X条: no article named
            base.start, base.end = start, m.end()
            base.placeholder = _WS_RE.sub("", m["placeholder_pin"].translate(_ZW_TABLE))
            self.hits.append(base)
            return
        elements = parse_chain(self.text, m.start(), m.end())
        if elements:
            self.emit_chain(elements, start, base)

    def article_ref(self, m: re.Match[str]) -> None:
        s = m.start()
        word = m["article_ref"]
        if s > 0 and self.text[s - 1] in "根基日文成版资账样剧":
            return  # 根本条件, 日本条约…
        ante = self.antecedent(need_article=True)
        if ante is None or self.in_quote(s):
            return
        if word[0] in "本前" and not _REPORT_VOICE_RE.search(self.text, max(0, s - 24), s):
            return  # 前款规定的…: wording of a recited law
        a = self.hits[ante]
        if s - a.end > _ARTICLE_REF_WINDOW or not self.same_paragraph(a.end, s):
            return
        assert a.article is not None
        keep_para = word in ("前款", "本款", "上述条款", "该条款")
        first = _Element(s, m.end("article_ref"), a.article, a.paragraph if keep_para else None)
        base = Hit(0, 0, a.kind, a.instrument, a.instrument_as_written, antecedent=ante)
        base.version_hint = a.version_hint
        tail_start, tail_end = m.span("article_ref_tail")
        elements = (
            parse_chain(self.text, tail_start, tail_end, first) if tail_end > tail_start else []
        )
        if not elements:
            elements = [first]
        else:
            elements[0].start = s
        self.emit_chain(elements, s, base)

    def guiding(self, m: re.Match[str], spp: bool) -> None:
        s = m.start()
        lb = max(self.prev_end(), s - 20)
        court = rx.COURT_PREFIX_RE.search(self.text, lb, s)
        start = court.start() if court else s
        if spp:
            self.hits.append(Hit(start, m.end(), "guiding_case"))
            return
        num = _num(m["guiding_num"] or m["guiding_num2"])
        if num is None:
            return
        self.hits.append(Hit(start, m.end(), "guiding_case", guiding_case=num))

    def year_bracket(self, m: re.Match[str]) -> None:
        text, s, after = self.text, m.start(), m.end()
        year = m["year"]
        tail = rx.DOCUMENT_NUMBER_TAIL_RE.match(text, after)
        if tail is not None:
            lb = max(self.prev_end(), s - 10)
            iss = rx.DOCUMENT_ISSUER_RE.search(text, lb, s)
            issuer = iss["issuer"] if iss else ""
            for cut in _DOC_ISSUER_CUT:
                k = issuer.rfind(cut)
                if k >= 0:
                    issuer = issuer[k + len(cut) :]
            while len(issuer) > 1 and issuer[0] in "及和与或即见的是为":
                issuer = issuer[1:]
            if issuer and not rx.DOCUMENT_ISSUER_SHAPE_RE.search(issuer):
                issuer = ""
            if issuer or text[s] in "〔[［【":
                serial = int(tail["serial"].translate(_FULLWIDTH_DIGITS))
                self.hits.append(
                    Hit(
                        s - len(issuer),
                        tail.end(),
                        "document_number",
                        document_number=f"{issuer}〔{year}〕{serial}号",
                    )
                )
                return
        if text[s] not in "(（":
            return
        case = rx.CASE_NUMBER_TAIL_RE.match(text, after)
        if case is None or not re.search(rf"[{rx.CJK}]", case["body"]):
            return
        if case["body"].startswith(("指导", "检例", "第")):
            return  # (1954)指导案例24号: a year, then a guiding case, not a 案号
        raw = text[s : case.end()]
        self.hits.append(Hit(s, case.end(), "case_number", case_number=normalise_case_number(raw)))

    def bare_lead(self, m: re.Match[str]) -> None:
        """根据劳动合同法的规定: a whole-instrument citation when the bare title is a known
        alias (unknown bare titles without a pin cite are too ambiguous to extract)."""
        written = clean_title(m["bare_title"])
        if written not in self.aliases.aliases:
            stripped = rx.TITLE_LEAD_PREFIX_RE.sub("", written)
            if stripped not in self.aliases.aliases:
                return
        instrument, kind, _ = self.aliases.lookup(written)
        if instrument is None:
            return
        if self.in_quote(m.start()):
            return  # 「…依照刑法规定处罚。」: the quoted provision's words, not a citation
        s, e = m.span("bare_title")
        self.hits.append(Hit(s, e, kind, instrument, written))

    # -- driver --

    def run(self) -> list[Hit]:
        for m in iter_anchors(self.text):
            if self.hits and m.start() < self.hits[-1].end:
                continue  # inside the previous hit (a 案号/文号 tail runs past its anchor)
            if m.start() < self._skip_to:
                continue  # the short name of （以下简称《公开条例》）: a definition
            n = len(self.hits)
            if m["titled"] is not None:
                self.titled(m)
            elif m["chain"] is not None or m["placeholder_pin"] is not None:
                self.chain(m)
            elif m["article_ref"] is not None:
                self.article_ref(m)
            elif m["guiding"] is not None or m["guiding_first"] is not None:
                self.guiding(m, spp=False)
            elif m["spp"] is not None:
                self.guiding(m, spp=True)
            elif m["year_bracket"] is not None:
                self.year_bracket(m)
            elif m["bare_lead"] is not None:
                self.bare_lead(m)
            if len(self.hits) > n:
                self._join_defined_pin(n)
                self.define_short_name()
        self._group_adjacent()
        return self.hits

    def _group_adjacent(self) -> None:
        """Hits separated only by a list separator form one group (they share a description):
        （《民法典》第五百八十五条、《合同编通则解释》第六十五条）."""
        hits = self.hits
        for i in range(1, len(hits)):
            a, b = hits[i - 1], hits[i]
            if a.kind not in _STATUTE_KINDS or b.kind not in _STATUTE_KINDS:
                continue
            gap = self.text[a.end : b.start]
            if len(gap) > 6 or not _SEPARATOR_GAP_RE.fullmatch(gap):
                continue
            if a.group is None:
                a.group = self.new_group()
            if b.group is None:
                b.group = a.group
            elif b.group != a.group:
                old = b.group
                for h in hits[i:]:
                    if h.group == old:
                        h.group = a.group


_SEPARATOR_GAP_RE = recache.compile(
    rf"{rx.GAP}(?:{rx.LIST_SEPARATOR}|{rx.RANGE_SEPARATOR}){rx.GAP}", re.VERBOSE
)


def _names_kind(word: str, h: Hit) -> bool:
    """Whether back-reference ``word`` (该条例, 上述解释, 《条例》) can name hit ``h``: a 条例/
    办法/规定/细则 word the instrument of that type, a 解释 word a judicial interpretation;
    any other word (该法, 同法 …) any instrument."""
    name = re.sub(r"[（(][^）)]*[）)]$", "", h.instrument or h.instrument_as_written or "")
    for tail in ("条例", "办法", "规定", "细则"):
        if word.endswith(tail):
            return name.endswith(tail)
    if word.endswith("解释"):
        return h.kind == "judicial_interpretation"
    return True


def _starts_word(text: str, k: int) -> bool:
    """True when a back-reference word at ``text[k:]`` is a word of its own: at the start,
    after a non-CJK char, after a particle (和, 及, 依…) or a lead-in verb (根据…)."""
    if k == 0:
        return True
    prev = text[k - 1]
    if not ("\u4e00" <= prev <= "\u9fff"):
        return True
    if prev in _SINGLE_LEAD_IN:
        return True
    return any(text.endswith(w, 0, k) for w in _MULTI_LEAD_IN)


def _trim_bare_title(title: str) -> str:
    """Cut running text off the front of an instrument-shaped run: the title starts at
    中华人民共和国/最高人民法院 if present, else after the last lead-in verb (根据, 依据…),
    then leading particles and qualifiers (是, 的, 我国…) are dropped."""
    for anchor in ("中华人民共和国", "最高人民法院", "最高人民检察院", "国务院"):
        k = title.find(anchor)
        if k >= 0:
            return title[k:]
    cut = 0
    for w in _MULTI_LEAD_IN:
        k = title.rfind(w)
        if k >= 0 and k + len(w) > cut and k + len(w) < len(title) - 1:
            cut = k + len(w)
    t = title[cut:]
    while len(t) > 2 and t[0] in _SINGLE_LEAD_IN:
        t = t[1:]
    return rx.TITLE_LEAD_PREFIX_RE.sub("", t)


def _clean_version(version: str | None) -> str | None:
    if not version:
        return None
    v = _WS_RE.sub("", version.translate(_ZW_TABLE)).translate(_FULLWIDTH_DIGITS)
    return v or None


def normalise_case_number(raw: str) -> str:
    """Canonical 案号: full-width brackets, ASCII digits, no whitespace.

    ``(2011)泉商初字第240号`` → ``（2011）泉商初字第240号``.
    """
    s = _WS_RE.sub("", raw.translate(_ZW_TABLE)).translate(_FULLWIDTH_DIGITS)
    return s.replace("(", "（").replace(")", "）")


def case_number_is_well_formed(case_number: str) -> bool:
    """Whether a 案号 (as written or normalised) follows the PRC numbering rules.

    Rules (《最高人民法院关于人民法院案件案号的若干规定》, 法〔2015〕137号, in force
    2016-01-01, and its 案件类型代字标准; old forms per ../shared/data/cn_cases/SOURCE.md):

    * the year is in brackets, 1949 … 2099;
    * new style (year ≥ 2016): 法院代字 (最高法, or a province character plus an optional
      court number: 鲁15, 京0105) + 类型代字 ending in a known code (民初, 民终, 刑初, 执…)
      + serial without leading zero + 号: ``（2016）鲁15刑初33号``;
    * old style (year ≤ 2016): court abbreviation + type characters (民/刑/商/执 + 初/终…,
      optionally a （民） division) + 字第 + serial + 号, the type ending in a stage character
      (初/终/再/监/申…) after a domain character (民/刑/行/商/执…):
      ``（2009）沪二中民二（民）终字第1508号``;
      leading zeros allowed (``（2008）二中民终字第00453号``).

    Returns:
        True when well formed; False otherwise (never raises).
    """
    s = normalise_case_number(case_number)
    m = rx.CASE_NUMBER_WELL_FORMED_RE.match(s)
    if m is None:
        return False
    year = int(m["year"])
    if year < 1949:
        return False
    if m["new_type"] is not None:
        if year < 2016:
            return False
        return any(m["new_type"].endswith(code) for code in rx.CASE_TYPE_CODES)
    if year > 2016:
        return False
    body = re.sub(r"（[^）]*）", "", (m["old_court"] or "") + m["old_type"])
    return (
        len(body) >= 2
        and body[-1] in rx.OLD_CASE_STAGE_CHARS
        and any(c in rx.OLD_CASE_DOMAIN_CHARS for c in body[:-1])
    )


def iter_anchors(text: str) -> Iterator[re.Match[str]]:
    """The matches of :data:`regexes.CN_ANCHOR_RE` in ``text`` — the same as ``finditer`` —
    found by jumping between possible first characters (:data:`regexes.CN_ANCHOR_START_RE`)."""
    search = rx.CN_ANCHOR_START_RE.search
    match = rx.CN_ANCHOR_RE.match
    pos = 0
    while True:
        c = search(text, pos)
        if c is None:
            return
        p = c.start()
        m = match(text, p)
        if m is not None and m.end() > p:
            yield m
            pos = m.end()
        else:
            pos = p + 1


def scan(text: str, names: InstrumentNames) -> list[Hit]:
    """Find every Chinese citation in ``text``.

    Args:
        text: report text, exactly as given.
        names: instrument-name resolver (the authority store or a fake).

    Returns:
        Hits sorted by start offset, non-overlapping; claims/descriptions not yet set.
    """
    return _Scanner(text, names).run()
