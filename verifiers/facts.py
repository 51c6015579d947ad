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
from functools import lru_cache
from typing import Literal

from governor.core.config import DEFAULT_THRESHOLDS
from governor.text import recache
from governor.text.numerals import to_int
from verifiers.patterns import (
    CONDITION_CLAUSE,
    DATE_EXPR,
    DECISIVE_PROVISO,
    LIST_PLACEHOLDER,
    MODAL,
    NEGATORS,
    NUMBER_EXPR,
    OPPOSITIONS,
    PROVISO,
    REQUIREMENT,
)
from verifiers.textsim import ClauseAlignment, align_clauses, containment, normalize, sentences

Modality = Literal["obligation", "permission", "prohibition"]

PERIOD_UNITS = frozenset({"年", "月", "日", "小时", "周", "工作日"})
_UNIT_CANON = {
    "天": "日",
    "个月": "月",
    "月": "月",
    "年": "月",
    "日": "日",
    "小时": "小时",
    "周": "日",
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
}
_UNIT_SCALE = {"万元": 10_000.0, "亿元": 100_000_000.0, "年": 12.0, "周": 7.0}
"""Canonical units: amounts in 元; periods in months (年 = 12 个月: 十八个月 contradicts 三年,
十二个月 agrees with 一年) or in days (周 = 7 日). Months and days are never compared: a
month is not a fixed number of days."""
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
    """A number with its unit: ``value`` in canonical units (元 for 万元, 月 for 年, 日 for
    周), ``start``/``end`` its half-open character span in the analysed text."""

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
    if s in ("十", "百", "千", "万", "亿"):
        s = "一" + s  # 千分之五: the denominator 千 is 一千
    if s.startswith("百分之"):
        return float(to_int(s[3:]))
    s = s.replace("％", "%").rstrip("%").strip()
    try:
        return float(s)
    except ValueError:
        return float(to_int(s))


@lru_cache(maxsize=4096)  # pure, frozen result: a list's shared text is scanned once
def quantities(text: str) -> tuple[Quantity, ...]:
    """All number+unit expressions in ``text`` (dates such as 2021年1月1日 are skipped).

    ``百分之三十`` and ``30%`` both give ``(30.0, "%")``; ``五千元`` and ``0.5万元`` give
    ``(5000.0, "元")``; a ratio is a percentage too, so the forms compare: ``二分之一`` gives
    ``(50.0, "%")``, ``千分之五`` ``(0.5, "%")`` and ``万分之五`` ``(0.05, "%")``.
    """
    masked = DATE_EXPR.sub(lambda m: "□" * len(m.group(0)), text)
    out: list[Quantity] = []
    for m in NUMBER_EXPR.finditer(masked):
        try:
            if m.group("den") is not None:
                # M/N as a percentage, so 千分之五 / 万分之五 / 0.5% compare
                value, unit = 100.0 * _num(m.group("num")) / _num(m.group("den")), "%"
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
    """A quantity of the description that the source contradicts: its unit occurs in the
    source with other values only, or the source clause it restates holds another value at
    the same place (``source_values`` is then that one quantity)."""

    found: Quantity
    source_values: tuple[Quantity, ...]

    @property
    def expected(self) -> Quantity:
        """The source quantity to restore (closest in value, same unit)."""
        return min(self.source_values, key=lambda q: abs(q.value - self.found.value))


ANCHOR = 4
"""Characters matched verbatim on each side of a changed number or term (or a clause
boundary on both sides) before the change counts as a contradiction of that very clause."""


def number_mismatches(description: str, source: str) -> tuple[NumberMismatch, ...]:
    """Quantities in ``description`` that contradict ``source``, in description order.

    Two rules:

    1. *value absent*: the source states quantities of the same unit and none has the same
       value (units absent from the source are not judged: the description may be stating
       facts of the case);
    2. *aligned*: the description clause restates a source passage
       (:func:`verifiers.textsim.align_clauses`) and the quantity sits at the place of a
       source quantity of the same unit — :data:`ANCHOR` characters matched verbatim on each
       side, or a clause boundary — whose value differs (:func:`aligned_number_mismatches`).
       A value that exists elsewhere in the article does not hide a wrong number:
       劳动法第四十四条 pays 百分之三百 for 法定休假日; its 百分之二百 is for 休息日;
    3. *rate form*: a fixed rate where the source states an LPR multiple
       (:func:`rate_form_mismatches`: 24% vs 四倍 LPR).
    """
    out = list(_absent_values(description, source)) + list(
        rate_form_mismatches(description, source)
    )
    seen = {(m.found.start, m.found.end) for m in out}
    out += [
        m
        for m in aligned_number_mismatches(description, source)
        if (m.found.start, m.found.end) not in seen
    ]
    return tuple(sorted(out, key=lambda m: m.found.start))


_RATE_WORDS = ("利率", "利息", "年息", "月息", "年利")


def rate_form_mismatches(description: str, source: str) -> tuple[NumberMismatch, ...]:
    """A fixed interest rate (24%, 年利率百分之三十六) where the source states the rate as a
    multiple of the 一年期贷款市场报价利率 (LPR) and no fixed percentage: the two forms are
    never equal (the LPR moves). Source of the rule: 民间借贷规定 as amended by 法释〔2020〕17号
    replaced the 24 %/36 % caps of 法释〔2015〕18号 by 四倍 LPR. Each mismatch expects the
    source's multiple (unit 倍)."""
    lpr = [q for q in quantities(source) if q.unit == "倍" and _near_lpr(source, q)]
    if not lpr or any(q.unit == "%" for q in quantities(source)):
        return ()
    out = []
    for q in quantities(description):
        window = description[max(0, q.start - 12) : q.end + 4]
        if q.unit == "%" and any(w in window for w in _RATE_WORDS):
            out.append(NumberMismatch(q, tuple(lpr)))
    return tuple(out)


def _near_lpr(text: str, q: Quantity) -> bool:
    window = text[max(0, q.start - 16) : q.end + 12]
    return "贷款市场报价利率" in window or "LPR" in window


def _absent_values(description: str, source: str) -> tuple[NumberMismatch, ...]:
    src = quantities(source)
    out: list[NumberMismatch] = []
    for q in quantities(description):
        same_unit = tuple(s for s in src if s.unit == q.unit)
        if same_unit and all(abs(s.value - q.value) > 1e-9 for s in same_unit):
            out.append(NumberMismatch(q, same_unit))
    return tuple(out)


def aligned_number_mismatches(
    description: str, source: str, *, anchor: int = ANCHOR
) -> tuple[NumberMismatch, ...]:
    """Quantities whose value exists in ``source`` but not at the place the description puts
    them (rule 2 of :func:`number_mismatches`); each with the one source quantity it
    contradicts. Only quantities whose unit the source states with several values are
    aligned (otherwise rule 1 decides)."""
    src_q = quantities(source)
    todo = [
        q
        for q in quantities(description)
        if any(s.unit == q.unit and abs(s.value - q.value) < 1e-9 for s in src_q)
        and any(s.unit == q.unit and abs(s.value - q.value) > 1e-9 for s in src_q)
    ]
    if not todo:
        return ()
    out: list[NumberMismatch] = []
    for al in align_clauses(description, source):
        d_end, s_end = al.desc_offset + len(al.desc.text), al.src_offset + len(al.src.text)
        here = [s for s in src_q if al.src_offset <= s.start and s.end <= s_end]
        for q in todo:
            if not (al.desc_offset <= q.start and q.end <= d_end):
                continue
            ns, ne = al.desc.normalised(q.start - al.desc_offset, q.end - al.desc_offset)
            for s in here:
                if s.unit != q.unit or abs(s.value - q.value) < 1e-9:
                    continue
                ms, me = al.src.normalised(s.start - al.src_offset, s.end - al.src_offset)
                if ns < ne and ms < me and al.anchored(ns, ne, ms, me, anchor):
                    out.append(NumberMismatch(q, (s,)))
                    break
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
    a wrong period (the overall-overlap gate of the fidelity judge would). The aligned
    mismatches of :func:`aligned_number_mismatches` are anchored by construction and included.
    """
    src_q = quantities(source)
    out = []
    for mm in _absent_values(description, source):
        ctx = _context(description, mm.found.start)[-anchor:]
        if len(ctx) < anchor:
            continue
        same = [q for q in src_q if q.unit == mm.found.unit and ctx in _context(source, q.start)]
        if same:
            out.append(NumberMismatch(mm.found, tuple(same)))
    seen = {(m.found.start, m.found.end) for m in out}
    out += [
        m
        for m in aligned_number_mismatches(description, source)
        if (m.found.start, m.found.end) not in seen
    ]
    return tuple(sorted(out, key=lambda m: m.found.start))


@dataclass(frozen=True)
class ModalUse:
    """A modal verb and the predicate that follows it (up to 4 content characters).

    ``addressee`` is True when the modal is followed by 向 and ``predicate`` is the 向-phrase's
    object (「可以向人民法院起诉」 → 人民法院), the addressee of the act rather than the act.
    """

    modality: Modality
    word: str
    predicate: str
    start: int
    end: int
    addressee: bool = False


def modal_uses(text: str) -> tuple[ModalUse, ...]:
    """Modal verbs (应当/可以/不得/有权/无权 …) with the predicate right after them."""
    out = []
    for m in MODAL.finditer(text):
        pred = re.sub(r"[^\u4e00-\u9fff]", "", text[m.end() : m.end() + 8])
        pred = pred.removeprefix("依法")
        to = pred.startswith("向")
        pred = pred.removeprefix("向")
        if len(pred) >= 2:
            out.append(
                ModalUse(_MODAL_CLASS[m.group(0)], m.group(0), pred[:4], m.start(), m.end(), to)
            )
    return tuple(out)


@dataclass(frozen=True)
class ModalityFlip:
    """The description uses ``found`` where the source uses ``expected`` for one predicate."""

    found: ModalUse
    expected: ModalUse


_NEGATED_FRAME = recache.compile(r"(?:不属于|不是|并非|不再|不视为|不得以|不作为|不构成)$")


def modality_flips(description: str, source: str) -> tuple[ModalityFlip, ...]:
    """Predicates governed by a different modality class in the description than in the source.

    For each modal in the description, its predicate (first 3, else 2 characters after it) is
    looked up in the source; the modal nearest before each occurrence (within
    ``_MODAL_REACH`` characters, same clause) gives the source's modality. A flip is reported
    only when the source uses that predicate with exactly one modality class.

    An addressee (the object of 向 after the modal, :attr:`ModalUse.addressee`) is looked up
    only where the source has it after 向 too: the same words as another verb's object
    (「应当协助、配合国家知识产权局」 against 「可以向国家知识产权局投诉」) say nothing of the modality
    of the report's act.
    """
    src_modals = modal_uses(source)
    out = []
    for use in modal_uses(description):
        for n in (3, 2):
            key = use.predicate[:n]
            classes: dict[Modality, ModalUse] = {}
            for occ in re.finditer(re.escape(key), source):
                if use.addressee and not source[: occ.start()].endswith("向"):
                    continue  # the words as the object of another verb, not an addressee
                before = [
                    s
                    for s in src_modals
                    if 0 <= occ.start() - s.end <= _MODAL_REACH
                    and not _CLAUSE_BREAK.search(source[s.end : occ.start()])
                ]
                if before:
                    nearest = max(before, key=lambda s: s.end)
                    if _NEGATED_FRAME.search(source, max(0, nearest.start - 4), nearest.start):
                        # 「不属于可以减轻…的情形」: the modal sits inside a negated frame;
                        # its class says nothing about the rule
                        classes.clear()
                        break
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
    """All 但书 of ``source`` (但是…/但…除外/…不在此限) with the rule clause before each.

    A 但书 that stands as a sentence of its own after 。 (「…产假结束。但是，用人单位依法
    解除…的除外。」) is not read: a description stops at the 。 before it (the extractor's
    description is one sentence), so whether the report kept it cannot be told from the
    description; and no 「…的除外」 is read inside it as a second 但书 with 「但是，…」 as
    its rule.
    """
    own = [
        (ss, se)
        for ss, se in sentences(source)
        if ss > 0 and source[ss - 1] in "。\n" and source[ss:se].lstrip().startswith("但")
    ]
    out = []
    for m in PROVISO.finditer(source):
        if any(a <= m.start("proviso") < b for a, b in own):
            continue
        sent_start = max(source.rfind("。", 0, m.start()), source.rfind("\n", 0, m.start())) + 1
        rule = source[sent_start : m.start()].rstrip("，,；; ")
        out.append(Proviso(rule, m.group("proviso"), m.start("proviso"), m.end("proviso")))
    return tuple(out)


_MODAL_REACH = 12
_CLAUSE_BREAK = recache.compile(r"[。；;，,：:\n]")

HEDGES = ("但", "除外", "不在此限", "例外", "另有规定", "另有约定", "除非")


def mentions_exception(text: str) -> bool:
    """True when ``text`` carries any exception marker (但/除外/不在此限/另有规定 …)."""
    return any(h in text for h in HEDGES)


# ---------------------------------------------------------------- polarity

MAX_SWAP = 6
"""A swapped term spans at most this many normalised characters on either side."""
SWAP_MIN_COVERAGE = DEFAULT_THRESHOLDS.facts_swap_min_coverage
"""A clause must restate its source passage this closely (share of its characters matched
verbatim) before a swapped term in it counts: one word changed in a copy, not a paraphrase or
another rule that shares the wording (「限制民事行为能力人实施的纯获利益的…行为有效」 is
民法典第一百四十五条, not 第一百四十四条 with 无效 flipped)."""


@dataclass(frozen=True)
class PolaritySwap:
    """The description says ``found`` where the source clause it restates says ``expected``.

    Each side covers the opposed term and the whole change around it (「连带责任」 where the
    source says 「一般」), so replacing ``found`` by ``expected`` restores the source's words.

    ``start``/``end`` index the description, ``source_start``/``source_end`` the source
    (half-open character offsets); ``kind`` names the opposition
    (:data:`verifiers.patterns.OPPOSITIONS`) or is ``"negation"``.
    """

    found: str
    expected: str
    start: int
    end: int
    source_start: int
    source_end: int
    kind: str


def _covering(chars: str, terms: tuple[str, ...], r1: int, r2: int) -> tuple[int, int] | None:
    """Span of an occurrence of one of ``terms`` in ``chars`` that overlaps ``[r1, r2)``
    (for an empty range: that starts at or before ``r1`` and ends after it)."""
    for t in terms:
        k = chars.find(t, max(0, r1 - len(t) + 1))
        while k != -1 and k <= r2:
            e = k + len(t)
            if (k < r2 and r1 < e) if r1 < r2 else (k <= r1 < e):
                return k, e
            k = chars.find(t, k + 1)
    return None


def _opposed(
    al: ClauseAlignment, i1: int, i2: int, j1: int, j2: int
) -> tuple[tuple[int, int], tuple[int, int], str] | None:
    """``(description range, source range, kind)`` of an opposed term pair at one change."""
    d, s = al.desc.chars, al.src.chars

    def union(term: tuple[int, int], a: int, b: int) -> tuple[int, int]:
        # the term together with the whole change (连带责任 → 一般: both words replaced)
        return (min(term[0], a), max(term[1], b)) if a < b else term

    for name, side_a, side_b, _ in OPPOSITIONS:
        da, db = _covering(d, side_a, i1, i2), _covering(d, side_b, i1, i2)
        sa, sb = _covering(s, side_a, j1, j2), _covering(s, side_b, j1, j2)
        if da and sb and not db and not sa:
            return union(da, i1, i2), union(sb, j1, j2), name
        if db and sa and not da and not sb:
            return union(db, i1, i2), union(sa, j1, j2), name
    # a negation added or dropped in front of the same words
    if i1 == i2 and s[j1:j2] in NEGATORS:
        return (i1, min(len(d), i1 + 2)), (j1, min(len(s), j2 + 2)), "negation"
    if j1 == j2 and d[i1:i2] in NEGATORS:
        return (i1, min(len(d), i2 + 2)), (j1, min(len(s), j1 + 2)), "negation"
    return None


_FORFEITS = recache.compile(r"消灭|丧失|失效|视为放弃|不予保护|不予支持|不予受理")
_DUTY = recache.compile(r"应当|应|必须|须|需要|需")
_SENTENCE_END = recache.compile(r"[。；;\n]")


def _duty_for_forfeiture(description: str, d_at: int, source: str, s_end: int) -> bool:
    """Whether a dropped 不 turns a forfeiture rule into the equivalent duty: the source's
    「一年内不行使的，该权利消灭」 is restated as 「应当…一年内行使」 (民法典第五百六十四条)."""
    d_from = max(
        (m.end() for m in _CLAUSE_BREAK.finditer(description, 0, d_at)),
        default=0,
    )
    s_stop = _SENTENCE_END.search(source, s_end)
    tail = source[s_end : s_stop.start() if s_stop else len(source)]
    return bool(_DUTY.search(description, d_from, d_at)) and bool(_FORFEITS.search(tail))


_PAIRED_KINDS = frozenset({"role", "family"})
"""Oppositions between parties (a clause may name both), not between rules."""


def _names_both(chars: str, kind: str) -> bool:
    """Whether a clause joins both sides of a ``kind`` opposition by a coordinator
    (「劳动者与用人单位」 = 「用人单位与劳动者」: the order of a pair is not a swap; 「抵押权人应当
    通知抵押人」 vs 「抵押人应当通知抵押权人」 still is)."""
    for name, side_a, side_b, _ in OPPOSITIONS:
        if name != kind:
            continue
        for a in side_a:
            for b in side_b:
                for x, y in ((a, b), (b, a)):
                    if re.search(rf"{re.escape(x)}(?:与|和|及|同|、|或者|或){re.escape(y)}", chars):
                        return True
    return False


def polarity_swaps(
    description: str, source: str, *, anchor: int = ANCHOR
) -> tuple[PolaritySwap, ...]:
    """Opposed terms swapped in a verbatim restatement of the source.

    Each clause of ``description`` is aligned with the source passage it restates
    (:func:`verifiers.textsim.align_clauses`, difflib on normalised text; at least
    :data:`SWAP_MIN_COVERAGE` of the clause verbatim). A change of at
    most :data:`MAX_SWAP` characters between ``anchor`` matched characters on each side (or
    a clause boundary) that puts a term of one side of an opposition
    (:data:`verifiers.patterns.OPPOSITIONS`: 有效/无效, 连带/一般/按份, 以上/以下, 之前/之后,
    不得/可以, 应当/可以, 有权/无权, 不低于/不高于, 从轻/从重, 减轻/加重, 书面/口头 …) where
    the source has the other — or adds/drops a negation (不/未/非/无/没有: 承担/不承担,
    适用/不适用, 公开/不公开, 超过/不超过) — states the opposite rule.

    Returns:
        The swaps in description order, with the source's term as ``expected``.
    """
    out: list[PolaritySwap] = []
    for al in align_clauses(description, source, min_coverage=SWAP_MIN_COVERAGE):
        for tag, i1, i2, j1, j2 in al.opcodes:
            if tag == "equal" or i2 - i1 > MAX_SWAP or j2 - j1 > MAX_SWAP:
                continue
            if not al.anchored(i1, i2, j1, j2, anchor):
                continue
            hit = _opposed(al, i1, i2, j1, j2)
            if hit is None:
                continue
            if hit[2] in _PAIRED_KINDS and _names_both(al.desc.chars, hit[2]):
                continue  # 「劳动者与用人单位发生争议」 names both parties: no swap
            (a, b), (c, e), kind = hit
            ds, de = al.desc.original(a, b)
            ss, se = al.src.original(c, e)
            ds, de = ds + al.desc_offset, de + al.desc_offset
            ss, se = ss + al.src_offset, se + al.src_offset
            found, expected = description[ds:de], source[ss:se]
            if kind == "negation" and _duty_for_forfeiture(description, ds, source, se):
                continue
            if normalize(found) != normalize(expected):
                out.append(PolaritySwap(found, expected, ds, de, ss, se, kind))
    return tuple(out)


NEGATED_MIN_COVERAGE = DEFAULT_THRESHOLDS.facts_negated_min_coverage
"""A clause must share this much of its characters with the passage before a negation in
front of its words counts (looser than :data:`SWAP_MIN_COVERAGE`: a candidate's rule is
restated, not copied)."""


def negated_terms(description: str, source: str) -> tuple[str, ...]:
    """The report's words the source puts after a negation it does not have (or the reverse).

    Each clause of ``description`` is aligned with the passage it restates
    (:func:`verifiers.textsim.align_clauses`, at least :data:`NEGATED_MIN_COVERAGE`); where
    the words around a change are the same on both sides for :data:`ANCHOR` characters after
    it, and the source's changed run ends in a negation (:data:`verifiers.patterns.NEGATORS`,
    with 再/得: 不再, 不得) while the report's does not, the two state opposite rules — unless
    the negated words are the source's condition (「未…的，」: a liability provision restating
    the duty it sanctions). The reverse (the report negates: 「不得有虚假记载」 against a
    liability article's 「有虚假记载…的」) is that same mirror and is not counted. Unlike :func:`polarity_swaps` the change may replace other words too
    (「申请人可以申请适用创新产品注册程序」 against 《医疗器械注册与备案管理办法》第七十二条
    「申请人…未提出注册申请的，不再适用创新产品注册程序」: a candidate named for the first is
    the rule that ends it; fresh review seed 17).

    Returns:
        The report's words (the aligned run after the change) the source negates, in
        description order.
    """
    out: list[str] = []
    for al in align_clauses(description, source, min_coverage=NEGATED_MIN_COVERAGE):
        d, s = al.desc.chars, al.src.chars
        ops = al.opcodes
        for k, (tag, i1, i2, j1, j2) in enumerate(ops):
            if tag == "equal" or k + 1 >= len(ops):
                continue
            nxt = ops[k + 1]
            if nxt[0] != "equal" or nxt[2] - nxt[1] < ANCHOR:
                continue
            if not _ends_negated(s[j1:j2]) or _ends_negated(d[i1:i2]):
                continue
            _ss, se = al.src.original(nxt[3], nxt[4])
            if _CONDITION_END.match(source, se + al.src_offset):
                # 「未办理登记的，由…责令」: the negation states the condition a sanction
                # applies on (a liability provision restating the duty), not the opposite rule
                continue
            out.append(d[nxt[1] : nxt[2]])
    return tuple(out)


_CONDITION_END = recache.compile(r"[^，,；;。]*的(?:[，,；;。]|$)")
"""The source's words after a negation, to the clause's end, end in 的: a condition."""


def _ends_negated(run: str) -> bool:
    """Whether a changed run ends in a negation of the words after it (不, 不再, 不得, 未…)."""
    run = run.removesuffix("再").removesuffix("得") if len(run) > 1 else run
    return any(run.endswith(n) for n in NEGATORS)


# ---------------------------------------------------------------- dropped conditions

CONSEQUENCE_CHARS = 8
"""Normalised characters of a consequence (modal + predicate) a description must repeat
verbatim before an omitted condition of it counts (a paraphrase is not judged)."""
CONDITION_KEPT = DEFAULT_THRESHOLDS.facts_condition_kept
"""A condition counts as stated when the description holds this share of its bigrams."""

_SEGMENT = recache.compile(r"[^，,]+")
_EXCEPTION_CLAUSE = recache.compile(r"^除[^，,；;。]{1,40}外$")


@dataclass(frozen=True)
class DroppedCondition:
    """A condition of a source clause that the description omits while restating the
    clause's consequence.

    Attributes:
        condition: the condition as the source words it.
        consequence: the source's consequence (modal + predicate) the description repeats.
        start: start of ``condition`` in the source (half-open span with ``end``).
        end: end of ``condition`` in the source.
        exception: True for an exception (除…外), whose omission is L1.2.3.
    """

    condition: str
    consequence: str
    start: int
    end: int
    exception: bool = False


def _condition_in(segment: str) -> tuple[int, int, bool] | None:
    """Span of the outcome-relevant condition inside a comma segment, or None."""
    stripped = segment.strip()
    lead = len(segment) - len(segment.lstrip())
    if not stripped or LIST_PLACEHOLDER.search(stripped):
        return None
    if _EXCEPTION_CLAUSE.match(stripped):
        return lead, lead + len(stripped), True
    if CONDITION_CLAUSE.match(stripped):
        return lead, lead + len(stripped), False
    m = REQUIREMENT.search(stripped)
    if m is not None:
        return lead + m.start(), lead + m.end(), False
    return None


def dropped_conditions(
    description: str, source: str, *, also_said: str = ""
) -> tuple[DroppedCondition, ...]:
    """Conditions of the source that the description drops while repeating their consequence.

    Only the source sentences that a clause of the description restates are read
    (:func:`verifiers.textsim.align_clauses`): a consequence repeated in another sentence of
    the article (「…的，也不得享有票据权利」) is that sentence's, with its own conditions.
    For each modal (应当/可以/不得 …) of such a sentence, the consequence is the modal and
    the rest of its comma segment; when the description clause repeats its first
    :data:`CONSEQUENCE_CHARS` normalised characters verbatim (a paraphrase is never judged),
    the comma segments before it in the same sentence are searched for conditions: a leading
    「……的」 clause, a requirement (提前…, 经…同意/批准, 未经…, 在…期间, 自…起, an act
    「…后」) or an exception (除…外). Placeholders for a list (有下列情形之一的) are not
    conditions of their own. A condition is dropped when the description (with ``also_said``,
    e.g. the claim) holds less than :data:`CONDITION_KEPT` of its bigrams.

    Source of the rule: SPEC §3 (``partially_faithful``: omits an outcome-relevant condition).
    """
    said = description + "\n" + also_said
    out: list[DroppedCondition] = []
    seen: set[tuple[int, int]] = set()
    restated = [
        (al.desc.chars, al.src_offset + a, al.src_offset + b)
        for al in align_clauses(description, source)
        for a, b in sentences(al.src.text)
    ]
    for nd, ss, se in restated:
        sent = source[ss:se]
        segs = [(m.start(), m.end()) for m in _SEGMENT.finditer(sent)]
        for mm in MODAL.finditer(sent):
            k = next((n for n, (a, b) in enumerate(segs) if a <= mm.start() < b), None)
            if k is None:
                continue
            cons = normalize(sent[mm.start() : segs[k][1]])
            if len(cons) < len(mm.group(0)) + 2 or cons[:CONSEQUENCE_CHARS] not in nd:
                continue
            parts = [*segs[:k], (segs[k][0], mm.start())]
            for a, b in parts:
                found = _condition_in(sent[a:b])
                if found is None:
                    continue
                ca, cb, exc = found
                cond = sent[a + ca : a + cb]
                span = (ss + a + ca, ss + a + cb)
                if span in seen or containment(cond, said) >= CONDITION_KEPT:
                    continue
                seen.add(span)
                consequence = sent[mm.start() : segs[k][1]].rstrip("。；;：:")
                out.append(DroppedCondition(cond, consequence, *span, exception=exc))
    return tuple(out)


# ---------------------------------------------------------------- denied grants, head counts

GRANT_OBJECT_REACH = DEFAULT_THRESHOLDS.facts_grant_object_reach
"""Characters after a predicate within which its object must follow (:func:`denied_grants`)."""
_NEGATION_HEAD = recache.compile(r"(?:不再|不得|不能|不予|无权|不)$")
"""A negation just before a predicate (不再缴纳, 不得享受, 无权请求)."""
_NEGATED_LIST = recache.compile(
    r"(?:不再|不得|不能|不予|无权|禁止|严禁|不)(?:[\u4e00-\u9fff]{1,6}?(?:、|或者|和|及))+$"
)
"""Members of a list before a predicate that one negation governs: 医疗器械生产监督管理办法
第二十四条 「不得伪造、变造、买卖、出租、出借…」 negates 买卖 too (fresh review 39: a restatement
「不得买卖、出租、出借…」 was read as denying a grant)."""


@dataclass(frozen=True)
class DeniedGrant:
    """A predicate the description negates where the restated source passage negates another
    one and grants this one.

    Attributes:
        found: the description's negated predicate with its object (「不再享受医疗保险待遇」).
        negated: the source's negated predicate at the same place (「不再缴纳」).
        granted: the source's words that grant the predicate (「享受基本医疗保险待遇」).
        source_start: offset of ``granted`` in the source.
    """

    found: str
    negated: str
    granted: str
    source_start: int


def denied_grants(
    description: str, source: str, *, min_coverage: float = SWAP_MIN_COVERAGE
) -> tuple[DeniedGrant, ...]:
    """Predicates a verbatim restatement denies that the source grants (one verb changed).

    Each clause of ``description`` is aligned with the source passage it restates
    (:func:`verifiers.textsim.align_clauses`, at least ``min_coverage`` verbatim). Where the
    clause keeps the source's negation (不再/不得/不能/不予/无权/不, matched characters) but puts
    another two-character predicate after it (「不再享受」 for 「不再缴纳」), and the same passage
    states that predicate without a negation with the same object (its next two characters
    within the following :data:`GRANT_OBJECT_REACH`: 「享受基本医疗保险待遇」), the report denies what the provision
    grants: 社会保险法第二十七条 「退休后不再缴纳基本医疗保险费，按照国家规定享受基本医疗保险
    待遇」 restated as 「退休后不再享受医疗保险待遇」 (dev LawBench 3-8 chatglm2 3, tuning keys).
    The same holds when the restatement leaves out the source's negated predicate and the words
    after it (「退休后不再享受医疗保险待遇」 against 「不再缴纳基本医疗保险费，按照国家规定享受…」).
    A clause that negates the source's own predicate, or whose predicate the passage does not
    state, is not one.

    Returns:
        The denied grants in description order.
    """
    out: list[DeniedGrant] = []
    for al in align_clauses(description, source, min_coverage=min_coverage):
        d, s = al.desc.chars, al.src.chars
        for tag, i1, i2, j1, j2 in al.opcodes:
            # replace: another predicate where the source has its own (「不再享受」 for 「不再
            # 缴纳」); insert: the source's negated predicate and more left out, so the negation
            # now governs the predicate the source states after them (「不再[缴纳…规定]享受」)
            replaced = tag == "replace" and i2 - i1 >= 2 and j2 - j1 >= 2
            skipped = tag == "insert" and j2 - j1 >= 4
            if not (replaced or skipped):
                continue
            neg = _NEGATION_HEAD.search(d[max(0, i1 - 2) : i1])
            if neg is None or not s[:j1].endswith(neg.group(0)):
                continue
            verb, other = d[i1 : i1 + 2], s[j1 : j1 + 2]
            if verb == other or _NEGATION_HEAD.search(verb[:1]) is not None:
                continue
            obj = d[i1 + 2 : i1 + 4]
            if len(obj) < 2:
                continue
            for m in re.finditer(re.escape(verb), s):
                if m.start() == j1 or any(
                    x in s[max(0, m.start() - 2) : m.start()] for x in NEGATORS
                ):
                    continue
                at = al.src.original(m.start(), m.end())[0] + al.src_offset
                if _NEGATED_LIST.search(source, max(0, at - 40), at) is not None:
                    continue  # a member of a list one negation governs (「不得伪造、变造、买卖」)
                tail = s[m.end() : m.end() + GRANT_OBJECT_REACH]
                if obj not in tail:
                    continue
                end = m.end() + tail.index(obj) + len(obj)
                gs, ge = al.src.original(m.start(), end)
                fs, fe = al.desc.original(i1 - len(neg.group(0)), min(len(d), i1 + 4))
                ns, ne = al.src.original(j1 - len(neg.group(0)), j1 + 2)
                fs, gs = fs + al.desc_offset, gs + al.src_offset
                out.append(
                    DeniedGrant(
                        found=_to_break(description, fs, fe + al.desc_offset),
                        negated=source[ns + al.src_offset : ne + al.src_offset],
                        granted=_to_break(source, gs, ge + al.src_offset),
                        source_start=gs,
                    )
                )
                break
    return tuple(out)


def _to_break(text: str, start: int, end: int, most: int = 24) -> str:
    """``text[start:]`` up to the clause's end (，；。 or a newline), at least to ``end`` and at
    most ``most`` characters."""
    m = _CLAUSE_BREAK.search(text, end)
    stop = m.start() if m is not None else len(text)
    return text[start : min(stop, start + most)]


_HEAD_COUNT = recache.compile(
    r"(?P<n>[0-9零〇一二两三四五六七八九十]+)(?P<unit>个|名)(?P<noun>(?![以之月])[\u4e00-\u9fff]{2})"
)
"""A count of persons or things: 「三个子女」, 「1个婴儿」 (the noun is the next two characters; a
range 「五名以上」, 「之一」 or a period 「一个月」 is no noun)."""


@dataclass(frozen=True)
class CountMismatch:
    """A count of a noun the description states that the source states otherwise.

    Attributes:
        found: the description's count (「一个子女」).
        expected: the source's count of the same noun (「三个子女」).
        source_start: offset of ``expected`` in the source.
    """

    found: str
    expected: str
    source_start: int


def count_mismatches(description: str, source: str) -> tuple[CountMismatch, ...]:
    """Counts of the same noun (「N个X」/「N名X」, X the next two characters) that differ.

    A count the description states is wrong when the source counts the same noun with the
    same measure word, never with the description's number (「一对夫妻生育一个子女」 against
    人口与计划生育法第十八条 「一对夫妻可以生育三个子女」: the text of a repealed version, dev
    LawBench 3-8 qwen 15, tuning keys). 「1个婴儿」 and 「一个婴儿」 are the same count; a noun
    the source does not count is not judged (:func:`number_mismatches` judges units).

    Returns:
        The mismatches in description order.
    """
    src: dict[tuple[str, str], list[tuple[float, str, int]]] = {}
    for m in _HEAD_COUNT.finditer(source):
        try:
            n = _num(m.group("n"))
        except (ValueError, TypeError):
            continue
        src.setdefault((m.group("unit"), m.group("noun")), []).append((n, m.group(0), m.start()))
    out: list[CountMismatch] = []
    for m in _HEAD_COUNT.finditer(description):
        counted = src.get((m.group("unit"), m.group("noun")))
        if not counted:
            continue
        try:
            n = _num(m.group("n"))
        except (ValueError, TypeError):
            continue
        if any(n == c for c, _, _ in counted):
            continue
        _, text, at = counted[0]
        out.append(CountMismatch(found=m.group(0), expected=text, source_start=at))
    return tuple(out)


# ---------------------------------------------------------------- dropped listed causes

_LISTED_CAUSE = recache.compile(
    r"因(?P<items>[\u4e00-\u9fff]{1,8}(?:、[\u4e00-\u9fff]{1,8})+)等(?:情形|原因|事由)"
)
"""A condition limited to listed situations: 「因租赁、借用等情形」 (民法典第一千二百零九条)."""


@dataclass(frozen=True)
class DroppedCause:
    """Listed situations a condition is limited to, dropped by a description that restates
    the rest of the condition.

    Attributes:
        cause: the source's words (「因租赁、借用等情形」).
        items: the situations listed (「租赁」, 「借用」).
        source_start: offset of ``cause`` in the source.
    """

    cause: str
    items: tuple[str, ...]
    source_start: int


def dropped_causes(description: str, source: str, facts: str = "") -> tuple[DroppedCause, ...]:
    """Listed situations (「因A、B等情形」) a restated condition drops, for facts that name none.

    The description restates the rest of the condition clause (at least :data:`CONDITION_KEPT`
    of its bigrams) but names none of the situations and no 「等情形」; the question's
    ``facts`` name none of them either, so the report applies the rule to a case the listed
    situations do not cover without saying it is limited to them: 民法典第一千二百零九条 (「因
    租赁、借用等情形机动车所有人、管理人与使用人不是同一人时」) restated without 租赁、借用 for a
    vehicle sold and not transferred (第一千二百一十条's case; dev LawBench 3-8 chatglm2 31,
    tuning keys).

    Returns:
        The dropped causes in source order.
    """
    out: list[DroppedCause] = []
    for m in _LISTED_CAUSE.finditer(source):
        items = tuple(m.group("items").split("、"))
        named = (description, facts)
        if any(x in t or x[0] in t for x in items for t in named) or "等情形" in description:
            continue
        brk = _CLAUSE_BREAK.search(source, m.end())
        rest = source[m.end() : brk.start() if brk is not None else len(source)]
        if (
            len(normalize(rest)) < CONSEQUENCE_CHARS
            or containment(rest, description) < CONDITION_KEPT
        ):
            continue
        out.append(DroppedCause(cause=m.group(0), items=items, source_start=m.start()))
    return tuple(out)
