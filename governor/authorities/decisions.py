"""Earlier versions of a judicial interpretation rebuilt from the SPC/SPP decision that amended
it (layer 1; issue 24 item 1, "any other law whose corpus holds its amendment decisions").

The corpus holds, for some interpretations, the text as amended and the amending decision
(``最高人民法院关于修改《…》的决定``) but not the text before it. A decision written in
whole-article instructions can be inverted exactly:

* 「将第X条修改为：“…”」 — article X is replaced (its earlier wording is in no corpus text);
* 「将第X条修改为第Y条：“…”」 / 「将…原第X条改为…第Y条，修改为：“…”」 — replaced and
  renumbered;
* 「将第X条修改为第Y条。」 / 「原第X条作为第Y条。」 / 「将…原第X条改为…第Y条。」 — renumbered,
  wording unchanged;
* 「增加一条（，）作为（《解释》）第Y条：“…”」 — inserted;
* 「本决定自YYYY年M月D日起施行。」 — the in-force date of the amended text.

Any other instruction (「删去第X条中的“…”」, 「开始部分增加规定」, 「合并修改为」, a decision naming
several instruments) is not parsed: the decision is skipped and reported with its reason. The
rebuilt text is checked both ways (:func:`rebuild_decision`): every quoted text equals the
amended text's article it names, the earlier numbering closes (第一条 … 第N条, none twice), and
applying the instructions forward to the rebuilt text gives the amended text exactly; articles
the decision does not name are the same in both versions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from governor.authorities.rebuild import Art, quote_paras, sort_keys, to_state, wording
from governor.text.numerals import to_int

_N = r"[零〇一二三四五六七八九十百]+"
_NO = re.compile(r"^[一二三四五六七八九十]+、")
_SELF = r"(?:《解释》|《规定》|修改后《解释》|修改后《规定》)?"
_REPLACE = re.compile(
    rf"^将{_SELF}(?:原)?第(?P<src>{_N})条"
    rf"(?:(?:修改为|改为){_SELF}第(?P<dst>{_N})条(?:[，,]修改为)?|修改为)"
    r"[：:]?(?P<rest>“.*)?$"
)
_MOVE = re.compile(
    rf"^(?:将{_SELF}(?:原)?第(?P<a>{_N})条(?:修改为|改为){_SELF}第(?P<b>{_N})条"
    rf"|原第(?P<c>{_N})条作为第(?P<d>{_N})条)。$"
)
_ADD = re.compile(rf"^增加一条[，,]?作为{_SELF}第(?P<dst>{_N})条[：:]?(?P<rest>“.*)?$")
_IN_FORCE = re.compile(r"本决定自(\d{4})年(\d{1,2})月(\d{1,2})日起施行")
_PREAMBLE = re.compile(r"作如下修改[：:]$")
_TRAILER = re.compile(r"^(?:根据本决定|《[^》]+》根据本决定).*(?:重新公布|相应修改)")
_DECISION_TITLE = re.compile(r"关于修改《(?P<target>[^《》]+(?:〈[^〈〉]*〉[^《》]*)*)》的决定$")


class DecisionError(ValueError):
    """An instruction of a decision that is not one of the module's forms or does not fit."""


@dataclass
class DecisionOp:
    """``kind``: ``replace`` | ``move`` | ``add``; ``src`` the article before (None for add),
    ``dst`` after; ``paras`` the quoted 款 (replace/add)."""

    kind: str
    src: str | None
    dst: str
    paras: list[tuple[str, list[str]]] = field(default_factory=list)


@dataclass
class Decision:
    """A parsed amending decision: title, in-force date and its whole-article instructions."""

    title: str
    in_force: date
    ops: list[DecisionOp]


def _k(numeral: str) -> str:
    return str(to_int(numeral))


def _quote(first: str | None, lines: list[str], i: int) -> tuple[list[str], int]:
    """The quoted lines starting with ``first`` (or on the next lines), and the next index."""
    quote: list[str] = []
    if first is None:
        if i >= len(lines) or not lines[i].startswith("“"):
            raise DecisionError(f"no quotation after line {i}")
        first, i = lines[i], i + 1
    quote.append(first)
    while not quote[-1].rstrip("。；").endswith("”"):
        if i >= len(lines) or _NO.match(lines[i]) or _IN_FORCE.search(lines[i]):
            raise DecisionError(f"quotation not closed: {first[:30]}")
        quote.append(lines[i])
        i += 1
    return quote, i


def parse_decision(title: str, body: str) -> Decision:
    """Parse a decision's body text (module doc forms).

    Raises:
        DecisionError: a line is not one of the forms, or there is no in-force clause.
    """
    lines = [s.strip() for s in body.splitlines() if s.strip()]
    ops: list[DecisionOp] = []
    in_force: date | None = None
    i = 0
    while i < len(lines):
        line = _NO.sub("", lines[i]).strip()
        i += 1
        m = _IN_FORCE.search(line)
        if m:
            in_force = date(int(m[1]), int(m[2]), int(m[3]))
            continue
        if _PREAMBLE.search(line) or _TRAILER.search(line) or line.startswith("#"):
            continue
        mv = _MOVE.match(line)
        if mv:
            src, dst = (mv["a"], mv["b"]) if mv["a"] else (mv["c"], mv["d"])
            ops.append(DecisionOp("move", _k(src), _k(dst)))
            continue
        mr = _REPLACE.match(line)
        ma = _ADD.match(line) if mr is None else None
        if mr is None and ma is None:
            raise DecisionError(f"unread instruction {line[:40]!r}")
        hit = mr or ma
        assert hit is not None
        quote, i = _quote(hit["rest"], lines, i)
        paras = quote_paras([q.lstrip("“") for q in quote])
        if mr is not None:
            src = _k(mr["src"])
            ops.append(DecisionOp("replace", src, _k(mr["dst"]) if mr["dst"] else src, paras))
        else:
            ops.append(DecisionOp("add", None, _k(hit["dst"]), paras))
    if in_force is None:
        raise DecisionError(f"{title}: no 「本决定自…起施行」")
    if not ops:
        raise DecisionError(f"{title}: no whole-article instruction")
    return Decision(title, in_force, ops)


@dataclass
class RebuiltDecision:
    """The text before a decision: ``before`` (state; None where the wording is unknown) and,
    per rebuilt article, the article of the amended text whose wording it shows (``later``)."""

    before: dict[str, Art]
    later: dict[str, str]
    unknown: set[str]


def rebuild_decision(current: dict[str, Art], decision: Decision) -> RebuiltDecision:
    """Invert ``decision`` on the amended text ``current`` and check the round trip.

    Raises:
        DecisionError: a quotation differs from the amended text, an article is named twice,
            the earlier numbering does not close, or the forward application differs.
    """
    dsts = [op.dst for op in decision.ops]
    srcs = [op.src for op in decision.ops if op.src is not None]
    if len(set(dsts)) != len(dsts) or len(set(srcs)) != len(srcs):
        raise DecisionError(f"{decision.title}: an article is named twice")
    for op in decision.ops:
        if op.dst not in current:
            raise DecisionError(f"{decision.title}: 第{op.dst}条 is not in the amended text")
        if op.kind != "move" and wording(op.paras) != wording(current[op.dst]):  # type: ignore[arg-type]
            raise DecisionError(f"{decision.title}: 第{op.dst}条 differs from its quotation")
    unnamed = [k for k in current if k not in set(dsts)]
    if set(unnamed) & set(srcs):
        raise DecisionError(f"{decision.title}: renumbering collides at {set(unnamed) & set(srcs)}")
    keys = set(unnamed) | set(srcs)
    if not all(k.isdigit() for k in keys) or sorted(int(k) for k in keys) != list(
        range(1, len(keys) + 1)
    ):
        raise DecisionError(f"{decision.title}: the earlier numbering does not close: {keys}")
    before: dict[str, Art] = {k: current[k] for k in unnamed}
    later = {k: k for k in unnamed}
    unknown: set[str] = set()
    for op in decision.ops:
        if op.src is None:
            continue
        before[op.src] = current[op.dst] if op.kind == "move" else None
        later[op.src] = op.dst
        if op.kind == "replace":
            unknown.add(op.src)
    # forward: the instructions applied to the rebuilt text give the amended text
    forward: dict[str, Art] = {k: before[k] for k in unnamed}
    for op in decision.ops:
        if op.kind == "move":
            assert op.src is not None
            forward[op.dst] = before[op.src]
        else:
            forward[op.dst] = [(t, list(items)) for t, items in op.paras]
    off = [k for k in current if wording(forward.get(k)) != wording(current[k])]
    if off or set(forward) != set(current):
        raise DecisionError(f"{decision.title}: forward application differs at {off[:5]}")
    return RebuiltDecision({k: before[k] for k in sort_keys(keys)}, later, unknown)


def add_decision_versions(
    instruments: dict[str, dict[str, Any]],
    events: dict[str, list[tuple[date, str]]],
    resolve: Any,
) -> dict[str, Any]:
    """Insert, before the amended version of each interpretation a single-instrument decision
    in the corpus amends, the version rebuilt from it; returns a report per decision (versions
    added, or why it was skipped).

    The rebuilt version is dated by the target's metadata event before the decision's
    adoption (「2017年11月20日 …第1727次会议通过」); its in-force date is the in-force date of
    another corpus decision adopted that day that names the target (``amending decision``),
    else that date (``version date``, an exception of the in-force audit). An article the
    decision replaced keeps the amended wording with ``text_from`` = the decision's in-force
    date (its earlier wording is in no corpus text), as :mod:`governor.authorities.rebuild`.

    Args:
        instruments: payload instruments by title (changed in place).
        events: per title, the metadata events of its newest file.
        resolve: name → title in ``instruments`` (or None).
    """
    report: dict[str, Any] = {}
    decided: dict[tuple[str, date], date] = {}  # (target, adoption) → in force, any decision
    for title, inst in instruments.items():
        if "关于修改" not in title or not title.endswith("决定") or not inst["versions"]:
            continue
        v = inst["versions"][-1]
        body = v.get("body") or ""
        m = _IN_FORCE.search(body)
        adopted = _adopted(inst)
        if m is None or adopted is None:
            continue
        on = date(int(m[1]), int(m[2]), int(m[3]))
        for t in re.finditer(r"修改《(?P<t>[^《》]+(?:〈[^〈〉]*〉[^《》]*)*)》", body):
            found = _target(t["t"], resolve)
            if found:
                decided[(found, adopted)] = on
    for title, inst in sorted(instruments.items()):
        if not title.startswith("最高人民") or "关于修改《" not in title or not inst["versions"]:
            continue
        if re.search(r"》等[一二三四五六七八九十百]+件[^《》]*决定$", title):
            report[title] = "skipped: several instruments in one decision (sentence-level edits)"
            continue
        m = _DECISION_TITLE.search(title)
        if m is None:
            continue
        target = _target(m["target"], resolve)
        if target is None:
            report[title] = f"skipped: 《{m['target']}》 is not in the store"
            continue
        try:
            decision = parse_decision(title, inst["versions"][-1].get("body") or "")
        except DecisionError as exc:
            report[title] = f"skipped: {exc}"
            continue
        tinst = instruments[target]
        adopted = _adopted(inst)
        idx = next(
            (
                i
                for i, tv in enumerate(tinst["versions"])
                if tv["in_force_from"] == decision.in_force.isoformat()
            ),
            None,
        )
        if idx is None or adopted is None:
            report[title] = "skipped: no stored version of the target is in force from its date"
            continue
        cur = tinst["versions"][idx]
        earlier = [on for on, ev in events.get(target, []) if on < adopted and "施行" not in ev]
        if not earlier:
            report[title] = "skipped: the target's metadata names no earlier version"
            continue
        base_on = max(earlier)
        if any(tv["version"].split("#")[0] == base_on.isoformat() for tv in tinst["versions"]):
            report[title] = f"skipped: the {base_on} version is already stored"
            continue
        try:
            rb = rebuild_decision(to_state(cur["articles"]), decision)
        except DecisionError as exc:
            report[title] = f"skipped: {exc}"
            continue
        pidx = {a[0]: a[1] for a in cur["articles"]}
        arts = []
        for k, art in rb.before.items():
            shown = art if art is not None else to_state(cur["articles"])[rb.later[k]]
            assert shown is not None
            arts.append([k, pidx[rb.later[k]], [[p[0], list(p[1])] for p in shown if p]])
        force = decided.get((target, base_on))
        new = {
            "version": base_on.isoformat(),
            "published": base_on.isoformat(),
            "in_force_from": (force or base_on).isoformat(),
            "in_force_to": cur["in_force_from"],
            "in_force_source": "amending decision" if force else "version date",
            "source_path": f"{cur['source_path']} rebuilt back to {base_on.isoformat()}",
            "expired_flag": False,
            "body": "",
            "paths": cur["paths"],
            "articles": arts,
            "rebuilt_from": [inst["versions"][-1]["source_path"]],
            "amended_by": None,
        }
        if rb.unknown:
            new["text_from"] = {k: decision.in_force.isoformat() for k in sort_keys(rb.unknown)}
        if idx > 0:
            prev = tinst["versions"][idx - 1]
            if (prev["in_force_from"] or "") >= new["in_force_from"]:
                report[title] = "skipped: an earlier stored version overlaps the rebuilt one"
                continue
            prev["in_force_to"] = new["in_force_from"]
        cur["amended_by"] = title
        tinst["versions"].insert(idx, new)
        report[title] = {
            "target": target,
            "versions_added": 1,
            "version": new["version"],
            "in_force_from": new["in_force_from"],
            "unknown_articles": len(rb.unknown),
        }
    return report


def _adopted(inst: dict[str, Any]) -> date | None:
    v = inst["versions"][-1]
    s = inst.get("enacted") or v.get("published")
    return date.fromisoformat(s) if s else None


def _target(name: str, resolve: Any) -> str | None:
    named = name.replace("〈", "《").replace("〉", "》")
    found = resolve(named) or resolve(f"最高人民法院{named}")
    return str(found) if found else None


__all__ = [
    "Decision",
    "DecisionError",
    "DecisionOp",
    "RebuiltDecision",
    "add_decision_versions",
    "parse_decision",
    "rebuild_decision",
]
