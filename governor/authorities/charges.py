"""Criminal charges (罪名) and the 刑法 articles that define them (layer 1).

Source: the 罪名 instruments in the store, read from their text, oldest first —
《最高人民检察院关于适用刑法分则规定的犯罪的罪名的意见》 (1997, a numbered list
「1．背叛国家罪（第102条）」) and the 《最高人民法院、最高人民检察院关于执行〈中华人民共和国刑法〉
确定罪名的补充规定》 (一)–(八) (tables 「| 第133条之一 （…） |危险驾驶罪 |」, cancellations
「（取消投毒罪罪名）」, and renamings 「的罪名由“X”修改为“Y”」). 《最高人民法院关于执行〈中华人民共和国
刑法〉确定罪名的规定》 (1997) is not in the corpus; the procuratorate's list covers the same
articles (its few differing names — e.g. 奸淫幼女罪 — are those the 补充规定 later unified).

:func:`charge_table` returns the :class:`ChargeTable` of a store (cached per store).
"""

from __future__ import annotations

import re
import threading
import weakref
from dataclasses import dataclass, field
from datetime import date

from governor.authorities.store import AuthorityStore
from governor.text.numerals import article_key, to_int

CRIMINAL_LAW = "中华人民共和国刑法"
"""Canonical title of the Criminal Law in the store."""

SPECIAL_PART_FROM = 102
"""First article of 刑法 分则 (第二编, 第一百零二条 背叛国家罪); earlier articles are 总则."""

_NUM = r"[0-9０-９零〇一二两三四五六七八九十百千]+"
_PIN = rf"第(?P<num>{_NUM})条(?P<suffix>之[一二三四五六七八九十]+)?(?:第(?P<para>{_NUM})款)?"
_PIN_RE = re.compile(_PIN)
_LIST_ENTRY_RE = re.compile(
    rf"""
    (?:\d+[．.])?\s*                                  # 1． (sometimes missing)
    (?P<name>[^\s（）()．.\d|][^\s（）()|]*?罪)          # 背叛国家罪
    （(?P<pins>第{_NUM}条[^（）]*)）                      # （第103条第1款） / （第114条、第115条第1款）
    """,
    re.VERBOSE,
)
_TABLE_ROW_RE = re.compile(r"^\|\s*(?P<pins>第[^|]+?)\|(?P<names>[^|]+)\|", re.MULTILINE)
_CANCEL_RE = re.compile(r"取消(?:刑法原第[^条]+条(?:第[^项]+项)?)?(?P<name>[^（）()；;]+?罪)罪名")
_RENAME_RE = re.compile(
    rf"第(?P<num>{_NUM})条(?P<suffix>之[一二三四五六七八九十]+)?[^。]*?的罪名由[“\"](?P<old>[^”\"]+)[”\"]修改为[“\"](?P<new>[^”\"]+)[”\"]"
)
_PAREN_RE = re.compile(r"[（(][^（）()]*[）)]")


@dataclass(frozen=True)
class ChargeArticle:
    """A 刑法 article (``article`` key, optional 1-based ``paragraph``) defining a charge."""

    article: str
    paragraph: int | None = None


@dataclass
class ChargeTable:
    """Charges and their defining 刑法 articles.

    Attributes:
        by_charge: charge name (with 罪) → defining articles, in source order.
        sources: titles of the instruments read, oldest first.
    """

    by_charge: dict[str, tuple[ChargeArticle, ...]] = field(default_factory=dict)
    sources: tuple[str, ...] = ()
    _selective: dict[str, str] | None = field(default=None, repr=False, compare=False)

    def articles_of(self, charge: str) -> tuple[ChargeArticle, ...]:
        """Defining articles of ``charge`` (exact name, with or without the final 罪)."""
        name = charge if charge.endswith("罪") else charge + "罪"
        return self.by_charge.get(name, ())

    def charges_of(self, article: str) -> tuple[str, ...]:
        """Charges an article defines (any 款), in table order."""
        return tuple(
            name for name, arts in self.by_charge.items() if any(a.article == article for a in arts)
        )

    def selective(self) -> dict[str, str]:
        """The forms a 选择性罪名 is written in judgments → its table name: 「走私、贩卖、运输、
        制造毒品罪」 is charged as 贩卖毒品罪, 走私、贩卖毒品罪 … (each verb, or verbs in table
        order joined by 、, with the object; the verbs are taken to be as long as the first).
        Forms that are themselves table names are left out (cached)."""
        if self._selective is not None:
            return self._selective
        out: dict[str, str] = {}
        for name in self.by_charge:
            items = name[:-1].split("、")
            if len(items) < 2 or len(items) > 6:
                continue
            width = len(items[0])
            last = items[-1]
            if len(last) < width or any(len(v) != width for v in items[:-1]):
                continue
            verbs, obj = [*items[:-1], last[:width]], last[width:]  # 窝藏、包庇罪: no object
            for mask in range(1, 1 << len(verbs)):
                chosen = [v for i, v in enumerate(verbs) if mask >> i & 1]
                if len(chosen) == len(verbs):
                    continue
                form = "、".join(chosen) + obj + "罪"
                if form not in self.by_charge and len(form) >= 3:
                    out.setdefault(form, name)
        self._selective = out
        return out

    def defines(self, article: str, charge: str) -> bool:
        """True when ``article`` is a defining article of ``charge``."""
        return any(a.article == article for a in self.articles_of(charge))

    def find(self, text: str, *, conduct: bool = False) -> tuple[str, ...]:
        """Charges named in ``text``, longest names first, overlapping shorter names dropped
        (「容留他人吸毒罪」 does not also name 吸毒罪-like substrings). A name is found with its
        final 罪 or, when at least four characters long, without it; with ``conduct``, also a
        two- or three-character stem written as the conduct (「诈骗公私财物」 names 诈骗罪)."""
        found: list[tuple[int, int, str]] = []
        least = 2 if conduct else 4
        for name in self.by_charge:
            stem = name[:-1]
            for probe in (name, stem) if len(stem) >= least else (name,):
                at = text.find(probe)
                if at >= 0:
                    found.append((at, at + len(probe), name))
                    break
        if "、" in "".join(self.by_charge) and "罪" in text:
            for variant, name in self.selective().items():
                at = text.find(variant)
                if at >= 0:
                    found.append((at, at + len(variant), name))
        found.sort(key=lambda t: (-(t[1] - t[0]), t[0]))
        taken: list[tuple[int, int]] = []
        out: list[str] = []
        for start, end, name in found:
            if any(start < e and s < end for s, e in taken):
                continue
            taken.append((start, end))
            if name not in out:
                out.append(name)
        return tuple(out)


def _unbracket(text: str) -> str:
    """``text`` without bracketed notes, nested ones included (（《刑法修正案（八）》第二条）)."""
    while True:
        shorter = _PAREN_RE.sub("", text)
        if shorter == text:
            return text
        text = shorter


def _pins(text: str) -> list[ChargeArticle]:
    out: list[ChargeArticle] = []
    for m in _PIN_RE.finditer(_unbracket(text)):
        try:
            key = article_key(m.group("num"), m.group("suffix"))
        except ValueError:
            continue
        para = to_int(m.group("para")) if m.group("para") else None
        out.append(ChargeArticle(article=key, paragraph=para))
    return out


def _names(cell: str) -> tuple[list[str], list[str]]:
    """``(charges, cancelled)`` of one table cell (「A罪；B罪（取消X罪名）」)."""
    cancelled = [m.group("name").strip() for m in _CANCEL_RE.finditer(cell)]
    names: list[str] = []
    buf = ""
    for piece in re.split(r"[；;\s]+", _unbracket(cell)):
        buf += piece  # a name broken by a space (「非法提供 商业秘密罪」) is joined
        if buf.endswith("罪"):
            names.append(buf)
            buf = ""
    return names, cancelled


def parse_charges(bodies: list[tuple[date, str, str]]) -> ChargeTable:
    """Build the table from ``(date, title, body)`` of the 罪名 instruments, applied oldest
    first (a later instrument adds charges, cancels 「取消X罪名」 and renames)."""
    table: dict[str, list[ChargeArticle]] = {}
    for _, _, body in sorted(bodies, key=lambda t: t[0]):
        for m in _LIST_ENTRY_RE.finditer(body):
            table.setdefault(m.group("name"), []).extend(_pins(m.group("pins")))
        for m in _TABLE_ROW_RE.finditer(body):
            pins = _pins(m.group("pins"))
            if not pins:
                continue
            names, cancelled = _names(m.group("names"))
            for old in cancelled:
                table.pop(old, None)
            for name in names:
                table[name] = list(pins)
        for m in _RENAME_RE.finditer(body):
            arts = table.pop(m.group("old"), None)
            if arts is None:
                arts = [ChargeArticle(article=article_key(m.group("num"), m.group("suffix")))]
            table[m.group("new")] = arts
    by_charge = {k: tuple(dict.fromkeys(v)) for k, v in table.items() if v}
    return ChargeTable(by_charge=by_charge)


_TABLES: weakref.WeakKeyDictionary[AuthorityStore, ChargeTable] = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()


def charge_table(store: AuthorityStore) -> ChargeTable:
    """The :class:`ChargeTable` read from ``store``'s 罪名 instruments (cached per store).

    Instruments whose title holds 罪名 and names the 刑法 are read (意见 and 补充规定); an
    empty table when the store has none.
    """
    hit = _TABLES.get(store)
    if hit is not None:
        return hit
    bodies: list[tuple[date, str, str]] = []
    for title in store.titles():
        if "罪名" not in title or "刑法" not in title:
            continue
        inst = store.instrument(title)
        if inst is None:
            continue
        for v in inst.versions:
            when = v.in_force_from or v.published or date.min
            bodies.append((when, title, v.body))
    table = parse_charges(bodies)
    table.sources = tuple(t for _, t, _ in sorted(bodies, key=lambda b: b[0]))
    with _LOCK:
        _TABLES[store] = table
    return table


def is_special_part(article: str) -> bool:
    """True for a 刑法 分则 article (第一百零二条 onwards, 之一 articles included)."""
    head = re.match(r"\d+", article)
    return head is not None and int(head.group(0)) >= SPECIAL_PART_FROM
