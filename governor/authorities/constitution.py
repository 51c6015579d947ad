"""Earlier versions of the 宪法 rebuilt from its five 修正案 (layer 1; issue 24 item 1).

The corpus holds the 宪法 as amended in 2018 (``宪法/宪法.md``) and the 修正案 of 1988, 1993,
1999, 2004 and 2018. Unlike the 刑法修正案, a 宪法修正案 quotes the words it replaces as well as
the new ones, so each instruction inverts exactly (no wording is unknown):

* 「宪法第X条（第Y款）（中）“O1”“O2”修改为：“N1”“N2”」 — the quoted 款 (or, for one quotation
  on each side, the quoted words) are replaced; several pairs are separated by 「；」;
* 「…第Z项“（Z）O”修改为“（Z）N”」 — the same within a 项;
* 「宪法第X条增加一款，作为第Y款：“…”」 / 「宪法第X条增加规定：“…”」 (a last 款);
* 「宪法第X条第Y款“S”后增写一句，内容为：“T”」;
* 「宪法第X条“…”中增加一项，作为第Z项“（Z）…”」;
* 「增加五条，分别作为第一百二十三条至第一百二十七条。内容如下：」 with the articles, and
  「第一百二十三条至第一百三十八条相应改为第一百二十八条至第一百四十三条」.

Instructions on the 序言, on chapter and section names (「第四章章名」, 「增加一节」) and
「这一条相应修改为：」 restatements change no stored article and are passed over. Any other form
stops the rebuild (reported). The rebuilt versions are checked both ways: applying the five
修正案 forward from the rebuilt 1982 text gives the stored text of every article, and an
amendment changes exactly the articles it names.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from governor.authorities.parse import parse_markdown
from governor.authorities.rebuild import sort_keys
from governor.text.numerals import to_int

_N = r"[零〇一二三四五六七八九十百]+"
_REF = re.compile(rf"^宪法第(?P<art>{_N})条(?:第(?P<para>{_N})款)?")
_QUOTE = re.compile(r"“([^“”]*(?:‘[^’]*’[^“”]*)*)”")
_ITEM_LABEL = re.compile(r"^[（(][一二三四五六七八九十]+[）)]")
_AMENDMENT_NO = re.compile(rf"^第{_N}条\s+")
_WS = re.compile(r"\s+")
CONSTITUTION = "中华人民共和国宪法"

Para = list[Any]  # [text, [item, …]]
State = dict[str, list[Para]]


class ConstitutionError(ValueError):
    """An instruction of a 宪法修正案 that is not one of the module's forms or does not fit."""


@dataclass
class COp:
    """``kind``: ``sub`` | ``add_para`` | ``append_para`` | ``add_sentence`` | ``add_item`` |
    ``add_articles``; ``key`` the article; ``para`` a 1-based 款 (or None); ``old``/``new``
    the quoted words; ``articles`` (key, 款) for ``add_articles`` with ``shift`` (first old
    key, last old key, offset) for the renumbering."""

    kind: str
    key: str
    para: int | None = None
    old: list[str] = field(default_factory=list)
    new: list[str] = field(default_factory=list)
    articles: list[tuple[str, list[Para]]] = field(default_factory=list)
    shift: tuple[int, int, int] | None = None


@dataclass
class CAmendment:
    """One 宪法修正案: title, adoption / in-force date, instructions."""

    title: str
    adopted: date
    in_force: date
    ops: list[COp]
    source_path: str = ""

    @property
    def keys(self) -> set[str]:
        """Articles the 修正案 changes (for added articles and the renumbering: every key)."""
        out: set[str] = set()
        for op in self.ops:
            if op.kind == "add_articles":
                assert op.shift is not None
                lo, hi, off = op.shift
                out |= {str(k) for k in range(lo, hi + off + 1)}
            else:
                out.add(op.key)
        return out


def _k(n: str) -> str:
    return str(to_int(n))


def _strip(s: str) -> str:
    return _ITEM_LABEL.sub("", s.strip()).strip()


def _parse_line(line: str) -> list[COp]:
    """The ops of one instruction (one sentence beginning 「宪法第X条」)."""
    ref = _REF.match(line)
    if ref is None:
        raise ConstitutionError(f"unread instruction {line[:40]!r}")
    key = _k(ref["art"])
    para = to_int(ref["para"]) if ref["para"] else None
    rest = re.split(r"。?这一(?:条|款)相应", line[ref.end() :], maxsplit=1)[0]  # restated
    if rest.count("“") > rest.count("”"):
        rest += "”"  # 1988 第二条: the quotation is not closed in the file
    ops = []
    for clause in re.split(r"[；;](?=(?:[^“”]*“[^“”]*”)*[^“”]*$)", rest):
        ops += _clause(key, para, clause.strip())
    if not ops:
        raise ConstitutionError(f"unread instruction {line[:40]!r}")
    return ops


def _clause(key: str, para: int | None, rest: str) -> list[COp]:
    """The op of one 「；」-separated clause of an instruction on 第{key}条."""
    rest = re.sub(r"^(?:“[^“”]*”)?中", "", rest)  # 「“…行使下列职权”中」: an anchor, not a change
    m = re.match(rf"^增加一款，作为第({_N})款(?:，规定)?[：:]“(.*)”", rest)
    if m:
        return [COp("add_para", key, to_int(m[1]), new=[m[2]])]
    m = re.match(r"^增加规定[：:]“(.*)”", rest)
    if m:
        return [COp("append_para", key, new=[m[1]])]
    m = re.match(r"^“(.*)”后增写一句，内容为[：:]“(.*)”", rest)
    if m:
        return [COp("add_sentence", key, para, old=[m[1]], new=[m[2]])]
    m = re.match(rf"^增加一项，作为第({_N})项“(.*?)”", rest)
    if m:
        return [COp("add_item", key, to_int(m[1]), new=[_strip(m[2])])]
    if "修改为" not in rest:
        raise ConstitutionError(f"unread clause {rest[:40]!r}")
    before, after = rest.split("修改为", 1)
    old = [_strip(q) for q in _QUOTE.findall(before)]
    new = [_strip(q) for q in _QUOTE.findall(after)]
    if not old or not new:
        raise ConstitutionError(f"no quotation in {rest[:40]!r}")
    return [COp("sub", key, para, old=old, new=new)]


def parse_constitution_amendment(
    title: str, text: str, adopted: date, in_force: date
) -> CAmendment:
    """Parse a 宪法修正案 file (module doc forms).

    Raises:
        ConstitutionError: an instruction is not one of the forms.
    """
    body = text.split("<!-- INFO END -->", 1)[1]
    lines = [s.strip() for s in body.splitlines() if s.strip()]
    ops: list[COp] = []
    i = 0
    while i < len(lines):
        line = _AMENDMENT_NO.sub("", lines[i])
        i += 1
        add = re.search(rf"增加({_N})条，分别作为第({_N})条至第({_N})条。内容如下[：:]$", line)
        if add:  # the added articles follow, then 「第A条至第B条相应改为第C条至第D条」
            arts: list[tuple[str, list[Para]]] = []
            shift = None
            while i < len(lines):
                cur = lines[i]
                i += 1
                m = re.match(rf"^第({_N})条\s+(.*)$", cur)
                sh = re.search(rf"第({_N})条至第({_N})条相应改为第({_N})条至第({_N})条", cur)
                if sh:
                    lo, hi, lo2 = to_int(sh[1]), to_int(sh[2]), to_int(sh[3])
                    shift = (lo, hi, lo2 - lo)
                    break
                if m:
                    arts.append((_k(m[1]), [[m[2].strip(), []]]))
                elif re.match(rf"^第{_N}节", cur):
                    continue  # the new section's heading
                elif arts:
                    arts[-1][1].append([cur, []])
            if shift is None or len(arts) != to_int(add[1]):
                raise ConstitutionError(f"{title}: added articles without their renumbering")
            ops.append(COp("add_articles", arts[0][0], articles=arts, shift=shift))
            continue
        for sentence in re.split(r"(?<=[。”])(?=宪法第)", line):
            s = sentence.strip()
            if s.startswith("宪法序言") or re.match(r"^宪法第.章", s):
                continue  # the 序言 and chapter names are not stored as articles
            ops += _parse_line(s)
    return CAmendment(title, adopted, in_force, ops)


def _norm(s: str) -> str:
    return _WS.sub("", s).rstrip("。；;")


def _find(slots: list[str], needle: str) -> list[int]:
    return [i for i, s in enumerate(slots) if needle and needle in s]


def _hits(scope: list[Para], needle: str) -> list[tuple[Para, int | None]]:
    slots = [(p, None) for p in scope] + [(p, j) for p in scope for j in range(len(p[1]))]
    return [(p, j) for p, j in slots if needle and needle in (p[0] if j is None else p[1][j])]


def _apply_op(state: State, op: COp, forward: bool, title: str) -> None:
    """Apply ``op`` forward (old → new) or invert it (new → old), in place."""
    if op.kind == "add_articles":
        assert op.shift is not None
        lo, hi, off = op.shift
        if forward:
            for n in range(hi, lo - 1, -1):
                state[str(n + off)] = state.pop(str(n))
            for key, paras in op.articles:
                state[key] = copy.deepcopy(paras)
        else:
            for key, paras in op.articles:
                got = state.pop(key, None)
                if got is None or [_norm(p[0]) for p in got] != [_norm(p[0]) for p in paras]:
                    raise ConstitutionError(f"{title}: added 第{key}条 differs from the text")
            for n in range(lo, hi + 1):
                state[str(n)] = state.pop(str(n + off))
        return
    art = state.get(op.key)
    if art is None:
        raise ConstitutionError(f"{title}: 第{op.key}条 is not in the text")
    if op.kind in ("add_para", "append_para"):
        text = op.new[0]
        pos = (op.para or len(art) + (1 if forward else 0)) - 1
        if forward:
            art.insert(pos, [text, []])
        else:
            if pos >= len(art) or _norm(art[pos][0]) != _norm(text):
                same = [i for i, p in enumerate(art) if _norm(p[0]) == _norm(text)]
                if len(same) != 1:
                    raise ConstitutionError(f"{title}: 第{op.key}条 has no 款 {text[:20]}")
                pos = same[0]
            del art[pos]
        return
    if op.kind == "add_sentence":
        p = art[(op.para or 1) - 1]
        anchor, added_text = op.old[0], op.new[0]
        if forward:
            if anchor not in p[0]:
                raise ConstitutionError(f"{title}: 第{op.key}条: no 「{anchor[:20]}」")
            p[0] = p[0].replace(anchor, anchor + added_text, 1)
        else:
            if p[0].count(anchor + added_text) != 1:
                raise ConstitutionError(f"{title}: 第{op.key}条: no 「{added_text[:20]}」")
            p[0] = p[0].replace(anchor + added_text, anchor, 1)
        return
    if op.kind == "add_item":
        holders = [p for p in art if p[1]]
        if len(holders) != 1:
            raise ConstitutionError(f"{title}: 第{op.key}条 has {len(holders)} item lists")
        items = holders[0][1]
        pos = (op.para or 0) - 1
        if forward:
            items.insert(pos, op.new[0] + "；")
        else:
            if pos >= len(items) or _norm(items[pos]) != _norm(op.new[0]):
                raise ConstitutionError(f"{title}: 第{op.key}条 has no 项 {op.new[0][:20]}")
            del items[pos]
        return
    # sub: find what is there (new when inverting, old forward), put the other in its place
    have, put = (op.old, op.new) if forward else (op.new, op.old)
    # the 款 number is a hint: the stored text splits some 款 into lines (第六十五条's list of
    # members are paragraphs of their own), so a quotation not in that 款 is sought in the article
    scope = [art[op.para - 1]] if op.para and op.para <= len(art) else art
    if len(have) == 1 and len(put) == 1:
        hits = _hits(scope, have[0])
        if not hits and scope is not art:
            scope = art
            hits = _hits(scope, have[0])
        if len(hits) != 1:
            raise ConstitutionError(f"{title}: 第{op.key}条: 「{have[0][:20]}」 {len(hits)}×")
        p, j = hits[0]
        if j is None:
            p[0] = p[0].replace(have[0], put[0], 1)
        else:
            p[1][j] = p[1][j].replace(have[0], put[0], 1)
        return
    scope = art
    texts = [_norm(p[0]) for p in scope]
    want = [_norm(t) for t in have]
    starts = [i for i in range(len(texts) - len(want) + 1) if texts[i : i + len(want)] == want]
    if len(starts) != 1:
        raise ConstitutionError(f"{title}: 第{op.key}条: the quoted 款 are not in the text")
    base = art.index(scope[starts[0]])
    art[base : base + len(want)] = [[t, []] for t in put]


def apply_amendment(state: State, amendment: CAmendment, forward: bool = True) -> State:
    """The text after (``forward``) or before an amendment."""
    out = copy.deepcopy(state)
    ops = amendment.ops if forward else list(reversed(amendment.ops))
    for op in ops:
        _apply_op(out, op, forward, amendment.title)
    return out


def _comparable(art: list[Para] | None) -> str | None:
    if art is None:
        return None
    return "|".join(_norm(p[0]) + "¦".join(_norm(i) for i in p[1]) for p in art)


@dataclass
class RebuiltConstitution:
    """``states[i]``: the text after ``amendments[:i]``; ``forward`` the 1982 text amended."""

    amendments: list[CAmendment]
    states: list[State]
    forward: State


def rebuild_constitution(current: State, amendments: list[CAmendment]) -> RebuiltConstitution:
    """Walk back from ``current``, then forward from the rebuilt base; raises
    :class:`ConstitutionError` when the round trip does not give ``current``."""
    back = [current]
    for a in reversed(amendments):
        back.append(apply_amendment(back[-1], a, forward=False))
    back.reverse()
    fwd = back[0]
    for a in amendments:
        fwd = apply_amendment(fwd, a, forward=True)
    off = [
        k for k in set(current) | set(fwd) if _comparable(fwd.get(k)) != _comparable(current.get(k))
    ]
    if off:
        raise ConstitutionError(f"round trip differs at {sort_keys(set(off))[:5]}")
    for i, a in enumerate(amendments):
        b, f = back[i], back[i + 1]
        changed = {k for k in set(b) | set(f) if _comparable(b.get(k)) != _comparable(f.get(k))}
        if not changed <= a.keys:
            raise ConstitutionError(
                f"{a.title} changes unnamed articles {sorted(changed - a.keys)}"
            )
        named = {op.key for op in a.ops if op.kind != "add_articles"}
        if not named <= changed:
            raise ConstitutionError(f"{a.title} leaves named articles {sorted(named - changed)}")
    return RebuiltConstitution(amendments, back, fwd)


def _later_key(key: str, later: list[CAmendment]) -> str:
    """The key an article of an earlier text has in the current one (2018 renumbering)."""
    for a in later:
        for op in a.ops:
            if op.shift is not None and key.isdigit() and op.shift[0] <= int(key) <= op.shift[1]:
                key = str(int(key) + op.shift[2])
    return key


def add_constitution_versions(
    instruments: dict[str, dict[str, Any]], laws_dir: Path
) -> dict[str, Any]:
    """Replace the one stored 宪法 version by its six versions rebuilt from the 修正案 in the
    corpus (module doc); returns the report (versions added, or why not)."""
    inst = instruments.get(CONSTITUTION)
    if inst is None or len(inst["versions"]) != 1:
        return {CONSTITUTION: "not rebuilt: not one stored version"}
    cur = inst["versions"][0]
    acts = sorted(t for t in instruments if t.startswith(f"{CONSTITUTION}修正案"))
    read: dict[str, bool] = {}  # whether the 修正案's own in-force date is read from its text
    try:
        amendments = []
        for t in acts:
            v = instruments[t]["versions"][-1]
            text = (Path(laws_dir) / v["source_path"]).read_text(encoding="utf-8")
            adopted = date.fromisoformat(v["published"])
            in_force = date.fromisoformat(v["in_force_from"] or v["published"])
            a = parse_constitution_amendment(t, text, adopted, in_force)
            a.source_path = v["source_path"]
            read[t] = v["in_force_source"] not in ("manifest", "version date")
            amendments.append(a)
        amendments.sort(key=lambda a: a.adopted)
        state: State = {a[0]: [[p[0], list(p[1])] for p in a[2]] for a in cur["articles"]}
        rb = rebuild_constitution(state, amendments)
        base = parse_markdown((Path(laws_dir) / cur["source_path"]).read_text(encoding="utf-8"))
    except (ConstitutionError, OSError, ValueError) as exc:
        return {CONSTITUTION: f"not rebuilt: {exc}"}
    base_on = min(on for on, _ev in base.events)
    base_force = (
        base.in_force if base.in_force and base.in_force <= amendments[0].adopted else base_on
    )
    dated = [base_on, *(a.adopted for a in amendments)]
    starts = [base_force, *(a.in_force for a in amendments)]
    pidx_of = {a[0]: a[1] for a in cur["articles"]}
    versions = []
    for i, st in enumerate(rb.states):
        last = i == len(rb.states) - 1
        arts = [
            [k, pidx_of.get(_later_key(k, amendments[i:]), 0), copy.deepcopy(st[k])]
            for k in sort_keys(set(st))
        ]
        versions.append(
            {
                "version": dated[i].isoformat(),
                "published": dated[i].isoformat(),
                "in_force_from": starts[i].isoformat(),
                "in_force_to": starts[i + 1].isoformat() if not last else None,
                "in_force_source": (
                    "text" if base_force != base_on or base.in_force else "version date"
                )
                if not i
                else "修正案"
                if read[amendments[i - 1].title]
                else "version date",
                "source_path": cur["source_path"]
                if last
                else f"{cur['source_path']} rebuilt back to {dated[i].isoformat()}",
                "expired_flag": cur["expired_flag"] if last else False,
                "body": "",
                "paths": cur["paths"],
                "articles": arts if not last else cur["articles"],
                "rebuilt_from": [a.source_path for a in amendments[:i]] if not last else [],
                "amended_by": amendments[i - 1].title if i else None,
            }
        )
    inst["versions"] = versions
    return {
        CONSTITUTION: {
            "versions_added": len(versions) - 1,
            "amendments": [a.title for a in amendments],
        }
    }


__all__ = [
    "CAmendment",
    "COp",
    "ConstitutionError",
    "RebuiltConstitution",
    "add_constitution_versions",
    "apply_amendment",
    "parse_constitution_amendment",
    "rebuild_constitution",
]
