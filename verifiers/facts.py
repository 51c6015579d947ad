"""Checkable facts inside provision text and descriptions: numbers, modality, provisos.

Layer 3, pure. Each function takes plain text and returns frozen facts with character offsets
into the text it was given, so a repair can replace exactly the wrong number.

Sources of the rules: PRC drafting conventions (立法技术规范（试行）, 全国人大常委会法工委 2009):
应当 = obligation, 可以 = permission, 不得 = prohibition; a 但书 (但是…除外 / 但…的除外 /
…不在此限) restricts the rule before it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from governor.numerals import to_int
from verifiers.patterns import DATE_EXPR, DECISIVE_PROVISO, MODAL, NUMBER_EXPR, PROVISO

Modality = Literal["obligation", "permission", "prohibition"]

PERIOD_UNITS = frozenset({"年", "月", "日", "小时", "周", "工作日"})
_UNIT_CANON = {
    "天": "日",
    "个月": "月",
    "月": "月",
    "年": "年",
    "日": "日",
    "小时": "小时",
    "周": "周",
    "个工作日": "工作日",
    "工作日": "工作日",
    "周岁": "周岁",
    "岁": "周岁",
    "倍": "倍",
    "元": "元",
    "万元": "元",
    "亿元": "元",
    "%": "%",
    "人": "人",
    "次": "次",
    "分之": "比例",
}
_UNIT_SCALE = {"万元": 10_000.0, "亿元": 100_000_000.0}
_MODAL_CLASS: dict[str, Modality] = {
    "应当": "obligation",
    "必须": "obligation",
    "应": "obligation",
    "须": "obligation",
    "可以": "permission",
    "有权": "permission",
    "可": "permission",
    "不得": "prohibition",
    "禁止": "prohibition",
    "无权": "prohibition",
    "不能": "prohibition",
    "不可以": "prohibition",
    "不应当": "prohibition",
    "严禁": "prohibition",
    "不应": "prohibition",
}


@dataclass(frozen=True)
class Quantity:
    """A number with its unit: ``value`` in canonical units (元 for 万元), ``start``/``end`` its
    half-open character span in the analysed text."""

    value: float
    unit: str
    start: int
    end: int
    text: str

    @property
    def is_period(self) -> bool:
        """True for time periods (年/月/日/小时/周/工作日): errors are L1.3.2."""
        return self.unit in PERIOD_UNITS


def _num(s: str) -> float:
    s = s.strip()
    if s.startswith("百分之"):
        return float(to_int(s[3:]))
    s = s.replace("％", "%").rstrip("%").strip()
    try:
        return float(s)
    except ValueError:
        return float(to_int(s))


def quantities(text: str) -> tuple[Quantity, ...]:
    """All number+unit expressions in ``text`` (dates such as 2021年1月1日 are skipped).

    ``百分之三十`` and ``30%`` both give ``(30.0, "%")``; ``五千元`` and ``0.5万元`` give
    ``(5000.0, "元")``; ``二分之一`` gives ``(0.5, "比例")``.
    """
    masked = DATE_EXPR.sub(lambda m: "□" * len(m.group(0)), text)
    out: list[Quantity] = []
    for m in NUMBER_EXPR.finditer(masked):
        try:
            if m.group("den") is not None:
                value, unit = _num(m.group("num")) / _num(m.group("den")), "比例"  # M/N
            elif m.group("pct") is not None:
                value, unit = _num(m.group("pct")), "%"
            else:
                raw_unit = m.group("unit")
                value = _num(m.group("n")) * _UNIT_SCALE.get(raw_unit, 1.0)
                unit = _UNIT_CANON[raw_unit]
        except (ValueError, KeyError, ZeroDivisionError):
            continue
        out.append(Quantity(value, unit, m.start(), m.end(), text[m.start() : m.end()]))
    return tuple(out)


@dataclass(frozen=True)
class NumberMismatch:
    """A quantity in the description whose unit occurs in the source with other values only."""

    found: Quantity
    source_values: tuple[Quantity, ...]

    @property
    def expected(self) -> Quantity:
        """The source quantity to restore (closest in value, same unit)."""
        return min(self.source_values, key=lambda q: abs(q.value - self.found.value))


def number_mismatches(description: str, source: str) -> tuple[NumberMismatch, ...]:
    """Quantities in ``description`` that contradict ``source``.

    A description quantity is a mismatch when the source states quantities of the same unit
    and none of them has the same value. Units absent from the source are not judged (the
    description may be stating facts of the case).
    """
    src = quantities(source)
    out = []
    for q in quantities(description):
        same_unit = tuple(s for s in src if s.unit == q.unit)
        if same_unit and all(abs(s.value - q.value) > 1e-9 for s in same_unit):
            out.append(NumberMismatch(q, same_unit))
    return tuple(out)


def _context(text: str, start: int, n: int = 8) -> str:
    return "".join(ch for ch in text[max(0, start - n) : start] if "\u4e00" <= ch <= "\u9fff")


def anchored_mismatches(
    description: str, source: str, *, anchor: int = 3
) -> tuple[NumberMismatch, ...]:
    """Number mismatches whose quantity sits in the same wording as a source quantity.

    A description quantity counts when the ``anchor`` CJK characters just before it also stand
    just before a same-unit quantity of the source (「诉讼时效期间为二年」 vs 「…期间为三年」),
    whatever else the description says: padding a description with other words must not hide
    a wrong period (the overall-overlap gate of the fidelity judge would).
    """
    src_q = quantities(source)
    out = []
    for mm in number_mismatches(description, source):
        ctx = _context(description, mm.found.start)[-anchor:]
        if len(ctx) < anchor:
            continue
        same = [q for q in src_q if q.unit == mm.found.unit and ctx in _context(source, q.start)]
        if same:
            out.append(NumberMismatch(mm.found, tuple(same)))
    return tuple(out)


@dataclass(frozen=True)
class ModalUse:
    """A modal verb and the predicate that follows it (up to 4 content characters)."""

    modality: Modality
    word: str
    predicate: str
    start: int
    end: int


def modal_uses(text: str) -> tuple[ModalUse, ...]:
    """Modal verbs (应当/可以/不得/有权/无权 …) with the predicate right after them."""
    out = []
    for m in MODAL.finditer(text):
        pred = re.sub(r"[^\u4e00-\u9fff]", "", text[m.end() : m.end() + 8])
        pred = pred.removeprefix("依法").removeprefix("向")
        if len(pred) >= 2:
            out.append(ModalUse(_MODAL_CLASS[m.group(0)], m.group(0), pred[:4], m.start(), m.end()))
    return tuple(out)


@dataclass(frozen=True)
class ModalityFlip:
    """The description uses ``found`` where the source uses ``expected`` for one predicate."""

    found: ModalUse
    expected: ModalUse


def modality_flips(description: str, source: str) -> tuple[ModalityFlip, ...]:
    """Predicates governed by a different modality class in the description than in the source.

    For each modal in the description, its predicate (first 3, else 2 characters after it) is
    looked up in the source; the modal nearest before each occurrence (within
    ``_MODAL_REACH`` characters, same clause) gives the source's modality. A flip is reported
    only when the source uses that predicate with exactly one modality class.
    """
    src_modals = modal_uses(source)
    out = []
    for use in modal_uses(description):
        for n in (3, 2):
            key = use.predicate[:n]
            classes: dict[Modality, ModalUse] = {}
            for occ in re.finditer(re.escape(key), source):
                before = [
                    s
                    for s in src_modals
                    if 0 <= occ.start() - s.end <= _MODAL_REACH
                    and not _CLAUSE_BREAK.search(source[s.end : occ.start()])
                ]
                if before:
                    nearest = max(before, key=lambda s: s.end)
                    classes.setdefault(nearest.modality, nearest)
            if not classes:
                continue
            if len(classes) == 1 and use.modality not in classes:
                out.append(ModalityFlip(use, next(iter(classes.values()))))
            break
    return tuple(out)


@dataclass(frozen=True)
class Proviso:
    """A 但书 in a source text: ``rule`` is the clause it restricts, ``text`` the proviso itself
    (starting at 但), with its half-open span in the source."""

    rule: str
    text: str
    start: int
    end: int

    @property
    def decisive(self) -> bool:
        """True when the 但书 carves out an exception (除外/不在此限/另有规定/另有约定), as
        opposed to a contrastive 但 that adds a duty."""
        return DECISIVE_PROVISO.search(self.text) is not None


def provisos(source: str) -> tuple[Proviso, ...]:
    """All 但书 of ``source`` (但是…/但…除外/…不在此限) with the rule clause before each."""
    out = []
    for m in PROVISO.finditer(source):
        sent_start = max(source.rfind("。", 0, m.start()), source.rfind("\n", 0, m.start())) + 1
        rule = source[sent_start : m.start()].rstrip("，,；; ")
        out.append(Proviso(rule, m.group("proviso"), m.start("proviso"), m.end("proviso")))
    return tuple(out)


_MODAL_REACH = 12
_CLAUSE_BREAK = re.compile(r"[。；;，,：:\n]")

HEDGES = ("但", "除外", "不在此限", "例外", "另有规定", "另有约定", "除非")


def mentions_exception(text: str) -> bool:
    """True when ``text`` carries any exception marker (但/除外/不在此限/另有规定 …)."""
    return any(h in text for h in HEDGES)
