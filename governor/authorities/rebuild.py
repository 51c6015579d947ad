"""Earlier versions of a law rebuilt from its amending acts (layer 1; issue 24 item 1).

The corpus holds one consolidated text of 刑法 (``刑法/刑法.md``, which includes 修正案（十二）) and
the twelve 修正案 themselves. Each 修正案 is a list of instructions in a fixed legislative
drafting style (全国人大常委会法工委《立法技术规范（试行）》, 修改 forms):

* 「将刑法第X条修改为：“…”」 — the whole article is replaced;
* 「在刑法第X条中增加一款作为第Y款，将该条修改为：“…”」 — likewise (the whole text is quoted);
* 「将刑法第X条第Y款（、第Z款）修改为：“…”」 — those 款 are replaced;
* 「在刑法第X条中增加一款（两款）作为第Y款（、第Z款）：“…”」, and after another instruction on
  the same article 「增加一款作为第Y款：“…”」 — 款 are inserted at Y;
* 「原第Y款作为第Z款，修改为：“…”」 — the renumbered 款 is replaced; 「原第Y款作为第Z款。」 alone
  only states the renumbering an insertion implies;
* 「删去刑法第X条第Y款。」 / 「删去刑法第X条。」 — a 款 / an article is deleted (the consolidated
  text keeps 「（删去）」);
* 「在刑法第X条后增加一条（五条），作为第X条之一（、…）：“…”」 — articles are inserted;
* 「刑法第X条增加一项，作为第Y项：“…”」 / 「将刑法第X条第Y项修改为：“…”」 — a 项 is inserted /
  replaced;
* 「本修正案自YYYY年M月D日起施行。」 or 「本修正案自公布之日起施行。」 (the adoption date: an NPCSC
  修正案 is promulgated on the day it is adopted).

:func:`parse_amendment` turns a 修正案 into :class:`Op` s. :func:`rebuild` walks back from the
consolidated text: each instruction is inverted (a replaced 款 becomes unknown, an inserted one
is dropped); then forward from the earliest version, applying instructions fills in what a
later act left unknown but an earlier act quoted in full. A version keeps, for an article whose
wording on its dates is in no text of the corpus (a 1997 wording replaced in 1999, say), the
nearest later known wording with ``text_from`` set to the date that wording took effect, so the
verifier does not judge fidelity against it (:meth:`AuthorityStore.text_in_force_from`).
"""

from __future__ import annotations

import copy
import re
import unicodedata
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from governor.text import regexes as rx
from governor.text.numerals import article_key, article_sort_key, to_int

_N = r"[零〇一二三四五六七八九十百]+"
_S = r"[一二三四五六七八九十]+"
_ART = re.compile(rf"第(?P<n>{_N})条(?:之(?P<s>{_S}))?")
_PARAS = re.compile(rf"第({_N})款")
_ITEMS = re.compile(rf"第({_N})项")
_ITEM_LABEL = re.compile(rf"^[（(]{_S}[）)]")
_INLINE_ITEMS = re.compile(r"[：:]（一）")
_INLINE_ITEM_SPLIT = re.compile(rf"（{_S}）")
_INSTRUCTION_NO = re.compile(rf"^{_S}、")
_QUOTED_ARTICLE = re.compile(rf"^第(?P<n>{_N})条(?:之(?P<s>{_S}))?[\s\u3000]+(?P<text>.*)$")
_IN_FORCE = rx.AMENDMENT_IN_FORCE_RE
_ON_PUBLICATION = re.compile(r"本修正案自公布之日起施行")
_WS = re.compile(r"\s+")
_PUNCT = re.compile(r"[。，；：,;:.、]")

Para = tuple[str | None, list[str | None]] | None
"""A 款: (text, 项 texts); None, or a None part, where the wording is unknown."""
Art = list[Para] | None
"""An article's 款; None where its whole wording is unknown."""


class AmendmentError(ValueError):
    """An instruction that cannot be read or does not fit the text it amends."""


@dataclass
class Op:
    """One instruction of an amending act.

    ``kind``: ``replace_article`` | ``add_articles`` | ``delete_article`` | ``replace_paras`` |
    ``add_paras`` | ``delete_para`` | ``replace_item`` | ``add_item``; ``key`` the article;
    ``pos`` 1-based 款/项 numbers; ``paras`` the quoted 款; ``articles`` the quoted articles
    (``add_articles``).
    """

    kind: str
    key: str
    pos: list[int] = field(default_factory=list)
    paras: list[tuple[str, list[str]]] = field(default_factory=list)
    articles: list[tuple[str, list[tuple[str, list[str]]]]] = field(default_factory=list)


@dataclass
class Amendment:
    """A parsed amending act: title, adoption and in-force dates, instructions in order."""

    title: str
    adopted: date
    in_force: date
    ops: list[Op]
    source_path: str = ""

    @property
    def keys(self) -> set[str]:
        """Articles the act names (replaced, inserted, deleted or changed)."""
        out: set[str] = set()
        for op in self.ops:
            out |= {k for k, _ in op.articles} if op.kind == "add_articles" else {op.key}
        return out


def _key(m: re.Match[str]) -> str:
    return article_key(str(to_int(m["n"])), str(to_int(m["s"])) if m["s"] else None)


def quote_paras(lines: list[str]) -> list[tuple[str, list[str]]]:
    """Quoted lines → 款 ``(text, 项 texts)``: quotation marks stripped, 「（一）…」 lines as
    items of the 款 above (also written inline after 「：」)."""
    paras: list[tuple[str, list[str]]] = []
    for line in lines:
        text = line.strip().lstrip("“").rstrip("”").strip()
        if not text:
            continue
        if _ITEM_LABEL.match(text) and paras:
            paras[-1][1].append(_ITEM_LABEL.sub("", text).strip())
        elif _INLINE_ITEMS.search(
            text
        ):  # 修正案（四）三: 「…处罚：（一）…；（二）…。」 on one line
            lead, *items = _INLINE_ITEM_SPLIT.split(text)
            paras.append((lead, [i.strip() for i in items]))
        else:
            paras.append((text, []))
    return paras


def _quote_articles(
    paras: list[tuple[str, list[str]]],
) -> list[tuple[str, list[tuple[str, list[str]]]]]:
    out: list[tuple[str, list[tuple[str, list[str]]]]] = []
    for text, items in paras:
        m = _QUOTED_ARTICLE.match(text)
        if m:
            out.append((_key(m), [(m["text"].strip(), items)]))
        elif out:
            out[-1][1].append((text, items))
        else:
            raise AmendmentError(f"quoted articles do not start with 第N条: {text[:30]}")
    return out


def _instruction(head: str, quote: list[str] | None, current: str | None) -> list[Op]:
    """The ops of one instruction line (``head`` = the text before its quotation)."""
    paras = quote_paras(quote) if quote is not None else []
    arts = [_key(m) for m in _ART.finditer(head)]
    target = arts[0] if arts else current
    if "删去" in head:
        if target is None:
            raise AmendmentError(f"no article in {head!r}")
        ps = [to_int(p) for p in _PARAS.findall(head)]
        return [Op("delete_para", target, ps)] if ps else [Op("delete_article", target)]
    if re.search(r"后增加[一二两三四五六七八九十]+条", head):
        if target is None:
            raise AmendmentError(f"no article in {head!r}")
        new = arts[1:]
        if len(new) > 1 or (paras and _QUOTED_ARTICLE.match(paras[0][0])):
            quoted = _quote_articles(paras)
            if new and [k for k, _ in quoted] != new:
                raise AmendmentError(f"{head!r}: quoted articles {[k for k, _ in quoted]}")
            return [Op("add_articles", target, articles=quoted)]
        if len(new) != 1:
            raise AmendmentError(f"{head!r}: which article is added?")
        return [Op("add_articles", target, articles=[(new[0], paras)])]
    if target is None:
        m = re.match(r"^原第(" + _N + r")款作为第(" + _N + r")款", head)
        if m and quote is None:
            return []
        raise AmendmentError(f"no article in {head!r}")
    if "将该条修改为" in head:
        return [Op("replace_article", target, paras=paras)]
    m = re.search(r"原第(" + _N + r")款作为第(" + _N + r")款", head)
    if m:
        return [Op("replace_paras", target, [to_int(m[2])], paras)] if quote is not None else []
    m = re.search(r"增加[一二两三四五六七八九十]+款作为((?:第" + _N + r"款、?)+)", head)
    if m:
        ps = [to_int(p) for p in _PARAS.findall(m[1])]
        if len(ps) != len(paras):
            raise AmendmentError(f"{head!r}: {len(ps)} 款 named, {len(paras)} quoted")
        return [Op("add_paras", target, ps, paras)]
    m = re.search(r"增加一项，?作为第(" + _N + r")项", head)
    if m:
        return [Op("add_item", target, [to_int(m[1])], paras)]
    if "修改为" in head:
        items = [to_int(p) for p in _ITEMS.findall(head)]
        if items:
            return [Op("replace_item", target, items, paras)]
        ps = [to_int(p) for p in _PARAS.findall(head)]
        if ps:
            if len(ps) != len(paras):
                raise AmendmentError(f"{head!r}: {len(ps)} 款 named, {len(paras)} quoted")
            return [Op("replace_paras", target, ps, paras)]
        return [Op("replace_article", target, paras=paras)]
    raise AmendmentError(f"unread instruction {head!r}")


def parse_amendment(title: str, body_lines: list[str], adopted: date) -> Amendment:
    """Parse the body (lines after ``<!-- INFO END -->``) of a 修正案.

    Raises:
        AmendmentError: an instruction is not one of the module's forms or has no in-force date.
    """
    ops: list[Op] = []
    in_force: date | None = None
    current: str | None = None
    lines = [s.strip() for s in body_lines if s.strip()]
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        m = _IN_FORCE.search(line)
        if m:
            in_force = date(int(m[1]), int(m[2]), int(m[3]))
            continue
        if _ON_PUBLICATION.search(line):
            in_force = adopted
            continue
        head, sep, rest = line.partition("“")
        head = _INSTRUCTION_NO.sub("", head)
        quote: list[str] | None = None
        trailer = ""
        if sep:
            quote = [rest]
            while not _quote_ends(quote[-1]):
                if i >= len(lines) or _INSTRUCTION_NO.match(lines[i]):
                    break  # 修正案（九）二十三: the source does not close its quotation
                quote.append(lines[i])
                i += 1
            last = quote[-1]
            cut = last.rfind("”")
            if cut >= 0:
                trailer = last[cut + 1 :].strip("。；， ")
                quote[-1] = last[: cut + 1]
        elif head.rstrip().endswith((":", "：")) and i < len(lines) and lines[i].startswith("“"):
            quote = []
            while i < len(lines) and not _INSTRUCTION_NO.match(lines[i]):
                quote.append(lines[i])
                i += 1
                if _quote_ends(quote[-1]):
                    break
        if not _ART.search(head) and not re.search(r"增加|原第|删去", head):
            continue  # a preamble (为了……，对刑法作如下修改：)
        new_ops = _instruction(head, quote, current)
        ops += new_ops
        if new_ops and new_ops[0].kind != "add_articles":
            current = new_ops[0].key
        elif new_ops:
            current = new_ops[0].articles[-1][0]
        if trailer and not re.match(r"^原第" + _N + "项改为第" + _N + "项$", trailer):
            raise AmendmentError(f"{title}: unread text after a quotation: {trailer!r}")
    if in_force is None:
        raise AmendmentError(f"{title}: no 「本修正案自…起施行」")
    return Amendment(title, adopted, in_force, ops)


def _quote_ends(line: str) -> bool:
    cut = line.rfind("”")
    if cut < 0:
        return False
    rest = line[cut + 1 :].strip()
    return rest in ("", "。", "；") or rest.startswith("原第")


# ---------------------------------------------------------------------------------- apply


def _items_para(art: list[Para], key: str) -> int:
    for i, p in enumerate(art):
        if p is not None and p[1]:
            return i
    raise AmendmentError(f"第{key}条 has no 项")


def apply(state: dict[str, Art], amendment: Amendment) -> dict[str, Art]:
    """The text after ``amendment`` (unknown parts stay unknown unless an op quotes them)."""
    out = copy.deepcopy(state)
    for op in amendment.ops:
        if op.kind == "add_articles":
            for k, paras in op.articles:
                out[k] = [(t, list(items)) for t, items in paras]
            continue
        if op.key not in out:
            raise AmendmentError(f"{amendment.title}: 第{op.key}条 is not in the text")
        if op.kind == "replace_article":
            out[op.key] = [(t, list(items)) for t, items in op.paras]
            continue
        if op.kind == "delete_article":
            out[op.key] = [("（删去）", [])]
            continue
        art = out[op.key]
        if art is None:
            continue
        try:
            if op.kind == "replace_paras":
                for p, (t, items) in zip(op.pos, op.paras, strict=True):
                    art[p - 1] = (t, list(items))
            elif op.kind == "add_paras":
                for p, (t, items) in zip(op.pos, op.paras, strict=True):
                    art.insert(p - 1, (t, list(items)))
            elif op.kind == "delete_para":
                for p in sorted(op.pos, reverse=True):
                    del art[p - 1]
            elif op.kind in ("replace_item", "add_item"):
                pi = _items_para(art, op.key)
                para = art[pi]
                assert para is not None
                slots: list[str | None] = para[1]
                for p, (t, _) in zip(op.pos, op.paras, strict=True):
                    if op.kind == "add_item":
                        slots.insert(p - 1, t)
                    else:
                        slots[p - 1] = t
        except (IndexError, ValueError) as exc:
            raise AmendmentError(f"{amendment.title}: {op.kind} on 第{op.key}条: {exc}") from exc
    return out


def invert(state: dict[str, Art], amendment: Amendment) -> dict[str, Art]:
    """The text before ``amendment``: what it replaced becomes unknown, what it added goes."""
    out = copy.deepcopy(state)
    for op in reversed(amendment.ops):
        if op.kind == "add_articles":
            for k, _ in op.articles:
                if k not in out:
                    raise AmendmentError(f"{amendment.title}: added 第{k}条 is not in the text")
                del out[k]
            continue
        if op.key not in out:
            raise AmendmentError(f"{amendment.title}: 第{op.key}条 is not in the text")
        if op.kind in ("replace_article", "delete_article"):
            out[op.key] = None
            continue
        art = out[op.key]
        if art is None:
            continue
        try:
            if op.kind == "replace_paras":
                for p in op.pos:
                    art[p - 1] = None
            elif op.kind == "add_paras":
                for p in sorted(op.pos, reverse=True):
                    del art[p - 1]
            elif op.kind == "delete_para":
                for p in sorted(op.pos):
                    art.insert(p - 1, None)
            elif op.kind in ("replace_item", "add_item"):
                pi = _items_para(art, op.key)
                para = art[pi]
                assert para is not None
                for p in sorted(op.pos, reverse=True):
                    if op.kind == "add_item":
                        del para[1][p - 1]
                    else:
                        para[1][p - 1] = None
        except IndexError as exc:
            raise AmendmentError(f"{amendment.title}: {op.kind} on 第{op.key}条: {exc}") from exc
    return out


def known(art: Art) -> bool:
    """Whether every 款 and 项 of the article is known."""
    return art is not None and all(
        p is not None and p[0] is not None and all(i is not None for i in p[1]) for p in art
    )


def _merge(a: Art, b: Art) -> Art:
    """Part by part: the known one of ``a`` (preferred) and ``b``."""
    if a is None:
        return copy.deepcopy(b)
    if b is None or len(a) != len(b):
        return copy.deepcopy(a)
    out: list[Para] = []
    for pa, pb in zip(a, b, strict=True):
        if pa is None:
            out.append(copy.deepcopy(pb))
        elif pb is None or len(pa[1]) != len(pb[1]):
            out.append(copy.deepcopy(pa))
        else:
            text = pa[0] if pa[0] is not None else pb[0]
            items = [x if x is not None else y for x, y in zip(pa[1], pb[1], strict=True)]
            out.append((text, items))
    return out


def norm(art: Art) -> str | None:
    """Comparable form of a known article (whitespace removed), None when not fully known."""
    if not known(art):
        return None
    assert art is not None
    return _WS.sub("", "|".join(str(p[0]) + "¦".join(map(str, p[1])) for p in art if p))


def wording(art: Art) -> str | None:
    """:func:`norm` without punctuation and width differences (NFKC): the 修正案 texts write
    「:」 and 「,」 where the consolidated text has 「：」「，」, and one drops a final 「。」
    (修正案（九）三十六, 第三百零八条之一第四款)."""
    n = norm(art)
    return None if n is None else _PUNCT.sub("", unicodedata.normalize("NFKC", n))


@dataclass
class Rebuilt:
    """Versions rebuilt for one law: ``states[i]`` is the text after ``amendments[:i]``
    (``states[0]`` the base text, ``states[-1]`` the consolidated text)."""

    amendments: list[Amendment]
    states: list[dict[str, Art]]
    forward: dict[str, Art]


def rebuild(current: dict[str, Art], amendments: list[Amendment]) -> Rebuilt:
    """Walk back from ``current`` through ``amendments`` (in adoption order), then forward.

    Raises:
        AmendmentError: an instruction does not fit the text.
    """
    back = [current]
    for a in reversed(amendments):
        back.append(invert(back[-1], a))
    back.reverse()  # back[i]: before amendments[i]
    fwd = [back[0]]
    for a in amendments:
        fwd.append(apply(fwd[-1], a))
    states = []
    for b, f in zip(back, fwd, strict=True):
        states.append({k: _merge(b[k], f.get(k)) for k in b})
    return Rebuilt(amendments, states, fwd[-1])


def to_state(articles: list[list[Any]]) -> dict[str, Art]:
    """Payload articles (``[key, path index, [[text, items], …]]``) → state."""
    return {a[0]: [(t, list(items)) for t, items in a[2]] for a in articles}


def sort_keys(keys: set[str] | list[str]) -> list[str]:
    """Article keys in statute order (``133``, ``133之一``, ``133之二``, ``134``)."""
    return sorted(keys, key=article_sort_key)


__all__ = [
    "OUTSIDE_CORPUS",
    "Amendment",
    "AmendmentError",
    "Op",
    "Rebuilt",
    "add_rebuilt_versions",
    "apply",
    "invert",
    "known",
    "norm",
    "parse_amendment",
    "quote_paras",
    "rebuild",
    "sort_keys",
    "to_state",
    "wording",
]


OUTSIDE_CORPUS: dict[str, list[tuple[date, tuple[str, ...], str]]] = {
    # law: (in force, articles, the amending act) — acts the consolidated file's metadata
    # names but the corpus does not hold, so the wording before them is unknown
    "中华人民共和国刑法": [
        (
            date(1998, 12, 29),
            ("190",),
            "全国人民代表大会常务委员会关于惩治骗购外汇、逃汇和非法买卖外汇犯罪的决定（1998年12月29日）第三条",
        ),
        (
            date(2009, 8, 27),
            ("381", "410"),
            "全国人民代表大会常务委员会关于修改部分法律的决定（2009年8月27日）",
        ),
    ],
}
"""Curated: amending acts of a rebuilt law that are not in the corpus. In every rebuilt
version in force before such an act, the articles it changed keep the later wording marked
with the act's date (``text_from``), as for any wording the corpus lacks."""


def _base_date(events: list[tuple[date, str]], before: date) -> date | None:
    """The base text's own date: its last 通过/修订 event before the first amendment (an
    event naming another act, 「…通过的《…修正案》」, is an amendment, not the base)."""
    own = [
        on for on, ev in events if on < before and "《" not in ev and ("修订" in ev or "通过" in ev)
    ]
    return max(own) if own else None


def add_rebuilt_versions(
    instruments: dict[str, dict[str, Any]],
    events: dict[str, list[tuple[date, str]]],
    body_in_force: dict[str, date | None],
) -> dict[str, Any]:
    """Replace the one consolidated version of each law whose 修正案 are in the corpus by
    its versions rebuilt from them (module doc); returns a report per law: versions added,
    or why not.

    Only a law whose newest version comes from an undated consolidated file (no
    ``(YYYY-MM-DD)`` suffix) and whose round trip holds (the instructions applied forward
    from the rebuilt base text give the consolidated text, :func:`wording`) is rebuilt.

    Args:
        instruments: the payload instruments by title (changed in place).
        events: per title, the metadata events of its newest file (``(date, text)``).
        body_in_force: per title, the 「本法自…起施行」 date of its newest file's articles.
    """
    acts: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    for title, inst in instruments.items():
        m = rx.AMENDMENT_ACT_BASE_RE.match(title)
        if m and m["base"] in instruments and m["base"] != title:
            acts.setdefault(m["base"], []).append((title, inst))
    report: dict[str, Any] = {}
    for base, members in sorted(acts.items()):
        inst = instruments[base]
        cur = inst["versions"][-1]
        if len(inst["versions"]) != 1 or re.search(
            r"\(\d{4}-\d{2}-\d{2}\)\.md$", cur["source_path"] or ""
        ):
            report[base] = "not rebuilt: its versions are separate files"
            continue
        try:
            amendments = []
            for title, act in members:
                v = act["versions"][-1]
                adopted = date.fromisoformat(v["published"])
                a = parse_amendment(title, (v["body"] or "").splitlines(), adopted)
                a.source_path = v["source_path"]
                amendments.append(a)
            amendments.sort(key=lambda a: (a.adopted, a.title))
            state = to_state(cur["articles"])
            rb = rebuild(state, amendments)
        except AmendmentError as exc:
            report[base] = f"not rebuilt: {exc}"
            continue
        off = [k for k in state if wording(rb.forward.get(k)) != wording(state[k])]
        off += [k for k in rb.forward if k not in state]
        if off:
            report[base] = f"not rebuilt: round trip differs at {sort_keys(set(off))[:5]}"
            continue
        first = amendments[0].adopted
        base_on = _base_date(events.get(base, []), first)
        base_force = body_in_force.get(base)
        if base_on is None:
            report[base] = "not rebuilt: no base date before the first amendment"
            continue
        base_source = "article"
        if base_force is None or not base_on <= base_force < first:
            base_force, base_source = base_on, "version date"
        starts = [base_force, *(a.in_force for a in amendments)]
        dated = [base_on, *(a.adopted for a in amendments)]
        order = [a[0] for a in cur["articles"]]
        pidx = {a[0]: a[1] for a in cur["articles"]}
        versions = []
        for i, st in enumerate(rb.states):
            arts: list[list[Any]] = []
            text_from: dict[str, str] = {}
            for k in order:
                if k not in st:
                    continue
                art, j = st[k], i
                while not known(art):
                    j += 1
                    art = rb.states[j][k]
                    text_from[k] = starts[j].isoformat()
                assert art is not None
                arts.append([k, pidx[k], [[p[0], list(p[1])] for p in art if p is not None]])
            for on, keys, _act in OUTSIDE_CORPUS.get(base, []):
                if starts[i] < on:
                    for k in keys:
                        if k in st and text_from.get(k, "") < on.isoformat():
                            text_from[k] = on.isoformat()
            applied = [a.source_path for a in amendments[:i]]
            v = {
                "version": dated[i].isoformat(),
                "published": dated[i].isoformat(),
                "in_force_from": starts[i].isoformat(),
                "in_force_to": starts[i + 1].isoformat() if i + 1 < len(starts) else None,
                "in_force_source": "修正案" if i else base_source,
                "source_path": cur["source_path"]
                if i == len(rb.states) - 1
                else f"{cur['source_path']} rebuilt back to {dated[i].isoformat()}",
                "expired_flag": cur["expired_flag"] if i == len(rb.states) - 1 else False,
                "body": "",
                "paths": cur["paths"],
                "articles": arts,
                "rebuilt_from": applied if i < len(rb.states) - 1 else [],
                "amended_by": amendments[i - 1].title if i else None,
            }
            if text_from:
                v["text_from"] = dict(sorted(text_from.items()))
            versions.append(v)
        inst["versions"] = versions
        by_title = {a.title: a for a in amendments}
        for title, act in members:  # an act is in force from its own 「本修正案自…起施行」
            v = act["versions"][-1]
            v["in_force_from"] = by_title[title].in_force.isoformat()
            v["in_force_source"] = "修正案"
        report[base] = {
            "versions_added": len(versions) - 1,
            "amendments": [a.title for a in amendments],
            "unknown_articles": {vv["version"]: len(vv.get("text_from", {})) for vv in versions},
        }
    return report
