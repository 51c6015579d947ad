"""Perturbation suite: clean research reports over real provisions, with labelled errors.

Layer 6. :func:`generate_suite` draws real provisions from the authority store, writes a
report whose sections (one per subtopic) cite them in the styles model-written Chinese reports
use, and injects labelled citation errors at configurable rates. Everything is seeded: the
same store build, seed and rates give the same suite.

Clean citations (every citation of ``PerturbedReport.clean_text``, and the untouched ones of
``text``) are meant to pass E = F = A = 1: the description is the cited 款's own text, the
claim is that description, and the provision is in force on the as-of date. A candidate
sentence is only kept when :func:`governor.citations.extract.extract` reads it back as exactly the
citation it was written as (instrument, article, 款); otherwise another style is tried.

Styles (each seen in LawBench 3-8 answers, ../shared/data/lawbench_dev):

* ``lead_in``  根据《X》第N条规定，D。
* ``paren``    D（《X》第N条）。
* ``quote``    对此，《X》第N条明确规定：“D。”
* ``bare``     民法典第N条规定，D。 (short name without 书名号)
* ``list``     a LawBench-style answer closing the report: ``结论：D。`` then ``法律依据：`` and
  ``1. 《X》第N条：D。`` (last section only, one provision: the conclusion is the claim of
  every list item, SPEC §2 claims rule 4)

Article numbers are written in Chinese (第一百八十八条) or Arabic (第188条) numerals; names as
the full title or a short alias (《民法典》).

Error kinds and their expected labels (SPEC §3 names; LexAgentHallu codes). Convention: an
error is charged to the axis SPEC §3 names for it and the other axes keep their clean label,
so each axis can be calibrated on its own. The exceptions are stated:

=====================  ============  ===================  =================  ===========
kind                   existence     fidelity             applicability      taxonomy
=====================  ============  ===================  =================  ===========
fabricated_article     not_found     not_assessed         skipped            L1.1.1
fabricated_instrument  not_found     not_assessed         skipped            L1.1.1
shifted_article        exists        misdescribed         irrelevant         L1.1.2
wrong_paragraph        partial       faithful             supports           L1.1.4
dropped_proviso        exists        partially_faithful   supports           L1.2.3 [1]
changed_period         exists        misdescribed         supports           L1.3.2
changed_amount         exists        misdescribed         supports           L1.2.2
flipped_modality       exists        misdescribed         contradicts        L1.2.2
repealed_instrument    repealed      not_assessed         skipped            STALE
claim_overreach        exists        partially_faithful   overextended       L1.1.2 [2]
=====================  ============  ===================  =================  ===========

* E = 0 (fabricated) leaves F and A unjudged (SPEC §3: "If E is 0, F and A are not judged").
* ``shifted_article`` cites a neighbouring article whose text shares < 20 % of the
  description's bigrams: the content belongs to another provision (F) and the cited one is
  about something else (A); both axes fail by construction.
* ``flipped_modality`` also fails A: the claim is the description, and with 可以 for 不得 it
  states the opposite of the provision (SPEC ``contradicts``). A wrong number or period
  leaves the provision governing the claim's matter, so it is charged to F alone.
* ``wrong_paragraph`` cites a 款 one past the last (instrument and article resolve, the 款 does
  not: SPEC ``partial``); the description is still the article's own text.
* ``repealed_instrument`` cites the repealed predecessor (e.g. 合同法 for a 民法典 provision,
  from the store's repeal registry). The repealed text is not in the store, so F and A are
  NA; the article number is kept when the predecessor had that many articles, else drawn in
  its range.
* [1] ``L2.1.5`` (out-of-context quoting) instead when the cut description is a quotation.
* [2] ``claim_overreach`` drops the description's leading condition (``……的，``) and asserts the
  rule "在任何情况下" for everyone: the claim is broader than the text allows (A
  ``overextended``) and the description omits an outcome-relevant condition (F
  ``partially_faithful``, SPEC §3). Only provisions without a 但书 carry it, and never a
  quotation (an altered quotation is a misquote, F ``misdescribed``).

Each :class:`InjectedError` records the span of the affected citation in the perturbed text,
the key of the real provision it was made from and, for description errors, the span of the
changed description.
"""

from __future__ import annotations

import json
import os
import random
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path
from typing import Final, Literal, get_args

from pydantic import ValidationError

from benchmarks.tasks import EvidencePoint, RubricItem, Subtopic, Task
from governor.authorities import ArticleRecord, AuthorityStore
from governor.citations.extract import extract
from governor.core.errors import TaskError
from governor.core.models import Citation, Frozen, Span, TaxonomyCode
from governor.text.numerals import to_chinese, to_int
from governor.text.textio import atomic_write_text
from verifiers.textsim import containment

ErrorKind = Literal[
    "fabricated_article",
    "fabricated_instrument",
    "shifted_article",
    "wrong_paragraph",
    "dropped_proviso",
    "changed_period",
    "changed_amount",
    "flipped_modality",
    "repealed_instrument",
    "claim_overreach",
]
ERROR_KINDS: Final[tuple[ErrorKind, ...]] = get_args(ErrorKind)

Style = Literal["lead_in", "paren", "quote", "bare", "list"]
STYLES: Final[tuple[Style, ...]] = get_args(Style)

DEFAULT_AS_OF: Final = date(2024, 6, 1)
"""As-of date of generated reports (every drawn provision is in force on it)."""

DEFAULT_RATES: Final[Mapping[ErrorKind, float]] = {
    "fabricated_article": 0.04,
    "fabricated_instrument": 0.03,
    "shifted_article": 0.05,
    "wrong_paragraph": 0.03,
    "dropped_proviso": 0.04,
    "changed_period": 0.04,
    "changed_amount": 0.03,
    "flipped_modality": 0.04,
    "repealed_instrument": 0.04,
    "claim_overreach": 0.03,
}
"""Share of all citations of the suite that receive each kind (about 37 % erroneous)."""

EXPECTED: Final[Mapping[ErrorKind, tuple[str, str, str, tuple[TaxonomyCode, ...]]]] = {
    "fabricated_article": ("not_found", "not_assessed", "skipped", ("L1.1.1",)),
    "fabricated_instrument": ("not_found", "not_assessed", "skipped", ("L1.1.1",)),
    "shifted_article": ("exists", "misdescribed", "irrelevant", ("L1.1.2",)),
    "wrong_paragraph": ("partial", "faithful", "supports", ("L1.1.4",)),
    "dropped_proviso": ("exists", "partially_faithful", "supports", ("L1.2.3",)),
    "changed_period": ("exists", "misdescribed", "supports", ("L1.3.2",)),
    "changed_amount": ("exists", "misdescribed", "supports", ("L1.2.2",)),
    "flipped_modality": ("exists", "misdescribed", "contradicts", ("L1.2.2",)),
    "repealed_instrument": ("repealed", "not_assessed", "skipped", ("STALE",)),
    "claim_overreach": ("exists", "partially_faithful", "overextended", ("L1.1.2",)),
}
"""Expected (existence, fidelity, applicability, taxonomy) per kind; see the module table."""

CLEAN_LABELS: Final = ("exists", "faithful", "supports")
"""Labels every untouched citation is expected to get."""


class InjectedError(Frozen):
    """One labelled error in :attr:`PerturbedReport.text`.

    Attributes:
        kind: The error kind.
        span: Half-open character span of the affected citation in ``PerturbedReport.text``.
        citation_raw: ``text[span]``: the citation as it reads after injection.
        original: :attr:`ArticleRecord.key` of the real provision it was made from.
        existence, fidelity, applicability: Expected labels (SPEC §3 names).
        taxonomy: Expected taxonomy codes.
        original_label: The correct citation, e.g. ``《中华人民共和国民法典》第188条第1款``.
        description_span: Span of the description in ``text`` when the error changed it.
        detail: What was changed, e.g. ``三年 → 六年``.
    """

    kind: ErrorKind
    span: Span
    citation_raw: str
    original: str
    existence: str
    fidelity: str
    applicability: str
    taxonomy: tuple[str, ...]
    original_label: str = ""
    description_span: Span | None = None
    detail: str = ""


class PerturbedReport(Frozen):
    """A generated report before and after error injection.

    Attributes:
        id: ``perturb-<seed>-<nnn>``.
        seed: Suite seed.
        as_of: The report's as-of date (also stated in the text as 报告日期).
        task: Query, subtopics and a rubric whose evidence points are the clean citations.
        clean_text: The report before injection (every citation expected E = F = A pass).
        text: The report after injection.
        errors: The injected errors, in text order.
        clean_citations: Raws of the citations of ``text`` left untouched, in text order.
    """

    id: str
    seed: int
    as_of: date
    task: Task
    clean_text: str
    text: str
    errors: tuple[InjectedError, ...] = ()
    clean_citations: tuple[str, ...] = ()


# ---------------------------------------------------------------------------------------------
# provisions

_POPULAR: Final = (
    "民法典", "劳动合同法", "公司法", "民事诉讼法", "刑法", "消费者权益保护法", "道路交通安全法",
    "行政处罚法", "劳动法", "商标法", "专利法", "个人信息保护法", "治安管理处罚法", "行政诉讼法",
    "刑事诉讼法", "产品质量法", "食品安全法", "保险法", "合伙企业法", "土地管理法", "社会保险法",
    "工伤保险条例", "反不正当竞争法", "电子商务法", "合同编通则解释", "婚姻家庭编解释（一）",
    "劳动合同法实施条例", "行政许可法", "证券法", "招标投标法", "安全生产法", "环境保护法",
)  # fmt: skip
"""Instruments reports cite most (names as the store resolves them); drawn 70 % of the time."""

_LEVELS: Final = frozenset({"法律", "行政法规", "司法解释"})
# References inside a provision would be extracted as extra citations (前款, 本法第N条, 《X》).
_REFERENCE = re.compile(
    r"第[一二三四五六七八九十百千零〇两\d]+[条款项编章节]|前款|本款|本条|前条|前[两三四]款|《|〈|该法|同法"
    r"|前述|上述|下列|如下|以下"
)
_HEADING_PREFIX = re.compile(
    r"^(?:第[一二三四五六七八九十百零〇\d]+[编章节]|[一二三四五六七八九十]+、)\s*"
)
_NUM = r"[0-9]+|[零〇一二两三四五六七八九十百千万]+"
_PERIOD = re.compile(
    rf"(?<![第0-9零〇一二两三四五六七八九十百千万.])(?P<n>{_NUM})(?P<unit>个工作日|工作日|个月|小时|日|天|年|周)"
    r"(?![度底初末份])"
)
_AMOUNT = re.compile(
    rf"(?<![第0-9零〇一二两三四五六七八九十百千万.])(?:百分之(?P<pct>{_NUM})"
    rf"|(?P<n>{_NUM})(?P<unit>周岁|万元|亿元|元|倍|%|％))"
)
_MODAL_FLIP: Final = {"应当": "可以", "可以": "应当", "不得": "可以"}
_MODAL = re.compile(r"(?<![不也])(应当|可以|不得)")
_PROVISO = re.compile(
    r"[，,；;]\s*(?:但是|但)[^。；;]*"
    r"|[，,；;][^，,；;。]*?(?:的除外|除外|不在此限)(?=[。；;]|$)"
)
_CONDITION = re.compile(
    r"^(?P<cond>[^，。；]{3,60}?的)，(?P<rest>[^。；]*?)(?P<modal>应当|可以|不得|必须)"
)
_MAX_DESC = 150
_MIN_DESC = 12

# Article counts of the nine laws 民法典 第一千二百六十条 repealed (absent from the corpus),
# from their last published texts; used only to keep a cited old article number plausible.
_REPEALED_ARTICLES: Final = {
    "中华人民共和国合同法": 428, "中华人民共和国物权法": 247, "中华人民共和国侵权责任法": 92,
    "中华人民共和国婚姻法": 51, "中华人民共和国继承法": 37, "中华人民共和国民法总则": 206,
    "中华人民共和国民法通则": 156, "中华人民共和国担保法": 96, "中华人民共和国收养法": 34,
}  # fmt: skip
# 民法典 编 (first heading of an article's path) → the repealed law it replaced.
_CIVIL_CODE_PREDECESSOR: Final = (
    ("总则", "中华人民共和国民法总则"),
    ("物权", "中华人民共和国物权法"),
    ("合同", "中华人民共和国合同法"),
    ("人格权", "中华人民共和国民法通则"),
    ("婚姻", "中华人民共和国婚姻法"),
    ("继承", "中华人民共和国继承法"),
    ("侵权", "中华人民共和国侵权责任法"),
)
_CIVIL_CODE = "中华人民共和国民法典"


@dataclass(frozen=True)
class _Provision:
    """A citable unit: one article (``paragraph`` None, single-款 article) or one 款."""

    record: ArticleRecord
    paragraph: int | None
    text: str  # the 款's own text, one sentence ending in 。
    heading: tuple[str, ...]
    carriers: frozenset[ErrorKind]


def _clean_text(text: str) -> str | None:
    """The 款 text if it can serve as a one-sentence description, else None."""
    t = text.strip()
    if not (_MIN_DESC <= len(t) <= _MAX_DESC) or "\n" in t or _REFERENCE.search(t):
        return None
    if not t.endswith("。") or t.count("。") != 1 or "？" in t or "：" in t or "“" in t:
        return None
    return t


def _periods(desc: str) -> list[re.Match[str]]:
    out = []
    for m in _PERIOD.finditer(desc):
        before = desc[max(0, m.start() - 2) : m.start()]
        if m.group("unit") == "日" and before.endswith("月"):
            continue  # a date such as 1月1日
        if m.group("unit") == "年" and len(m.group("n")) == 4:
            continue  # a year
        out.append(m)
    return out


def _amounts(desc: str) -> list[re.Match[str]]:
    return list(_AMOUNT.finditer(desc))


def _carriers(store: AuthorityStore, rec: ArticleRecord, desc: str, as_of: date) -> set[ErrorKind]:
    kinds: set[ErrorKind] = {"fabricated_article", "shifted_article", "wrong_paragraph"}
    title = rec.instrument
    if title.startswith("中华人民共和国") and (title.endswith("法") or title.endswith("条例")):
        kinds.add("fabricated_instrument")
    has_proviso = _PROVISO.search(desc) is not None
    if has_proviso:
        kinds.add("dropped_proviso")
    if _periods(desc):
        kinds.add("changed_period")
    if _amounts(desc):
        kinds.add("changed_amount")
    if _MODAL.search(desc):
        kinds.add("flipped_modality")
    if not has_proviso and _CONDITION.search(desc):
        kinds.add("claim_overreach")
    if _predecessor(store, rec, as_of) is not None:
        kinds.add("repealed_instrument")
    return kinds


def _predecessor(store: AuthorityStore, rec: ArticleRecord, as_of: date) -> str | None:
    """The repealed instrument this provision's instrument replaced, if the registry knows one."""
    if rec.instrument == _CIVIL_CODE:
        head = rec.path[0] if rec.path else ""
        for word, title in _CIVIL_CODE_PREDECESSOR:
            if word in head:
                r = store.repeal_record(title)
                return title if r is not None and r.repealed_on <= as_of else None
        return None
    cands = sorted(
        t
        for t in store.repealed_titles()
        if (r := store.repeal_record(t)) is not None
        and r.successor == rec.instrument
        and r.repealed_on <= as_of
        and store.resolve_instrument(t) == t
    )
    return cands[0] if cands else None


def _in_force(store: AuthorityStore, title: str, as_of: date) -> bool:
    r = store.repeal_record(title)
    if r is not None and r.repealed_on <= as_of:
        return False
    return store.status_of(title) == "in_force"


def _provisions(store: AuthorityStore, title: str, as_of: date) -> list[_Provision]:
    """Every citable unit of ``title``'s version in force on ``as_of`` (articles with a path)."""
    out = []
    for rec in store.articles(title, as_of=as_of):
        if not rec.path:
            continue
        paras = rec.paragraphs
        for k, para in enumerate(paras, start=1):
            if para.items:
                continue
            desc = _clean_text(para.text)
            if desc is None:
                continue
            out.append(
                _Provision(
                    record=rec,
                    paragraph=k if len(paras) > 1 else None,
                    text=desc,
                    heading=rec.path,
                    carriers=frozenset(_carriers(store, rec, desc, as_of)),
                )
            )
    return out


def _heading_title(path: tuple[str, ...]) -> str:
    last = _HEADING_PREFIX.sub("", path[-1]).strip() or path[-1]
    return last


# ---------------------------------------------------------------------------------------------
# rendering


def _pin(article: str, paragraph: int | None, chinese: bool) -> str:
    base, _, sfx = article.partition("之")
    num = to_chinese(int(base)) if chinese else base
    out = f"第{num}条" + (f"之{sfx}" if sfx else "")
    if paragraph is not None:
        out += f"第{to_chinese(paragraph) if chinese else paragraph}款"
    return out


def _book(title: str) -> str:
    """``《title》`` with inner 书名号 turned into 〈〉."""
    return "《" + title.replace("《", "〈").replace("》", "〉") + "》"


@dataclass
class _Slot:
    """One citation of a report as planned: what it cites and how it is written."""

    prov: _Provision
    subtopic: int
    style: Style
    name: str  # instrument name as written, without 书名号
    bracket: bool
    chinese: bool
    # the citation as written after injection (None = clean)
    error: ErrorKind | None = None
    name_x: str | None = None
    article_x: str | None = None
    paragraph_x: int | None = None
    use_paragraph_x: bool = False
    desc_x: str | None = None
    detail: str = ""

    def cite(self, injected: bool) -> str:
        name = self.name_x if injected and self.name_x is not None else self.name
        bracket = self.bracket or (injected and self.name_x is not None)
        article = self.article_x if injected and self.article_x else self.prov.record.article
        para = self.paragraph_x if injected and self.use_paragraph_x else self.prov.paragraph
        return (_book(name) if bracket else name) + _pin(article, para, self.chinese)

    def desc(self, injected: bool) -> str:
        d = self.desc_x if injected and self.desc_x is not None else self.prov.text
        return d.rstrip("。")


def _sentence(slot: _Slot, injected: bool, n: int) -> tuple[str, tuple[int, int], tuple[int, int]]:
    """The sentence of one citation with the offsets of the citation and the description."""
    c, d = slot.cite(injected), slot.desc(injected)
    if slot.style == "lead_in":
        head = f"根据{c}规定，"
        return head + d + "。", (2, 2 + len(c)), (len(head), len(head) + len(d))
    if slot.style == "paren":
        return f"{d}（{c}）。", (len(d) + 1, len(d) + 1 + len(c)), (0, len(d))
    if slot.style == "quote":
        head = f"对此，{c}明确规定：“"
        return head + d + "。”", (3, 3 + len(c)), (len(head), len(head) + len(d) + 1)
    if slot.style == "bare":
        head = f"{c}规定，"
        return head + d + "。", (0, len(c)), (len(head), len(head) + len(d))
    head = f"{n}. {c}："
    return head + d + "。", (len(head) - len(c) - 1, len(head) - 1), (len(head), len(head) + len(d))


@dataclass
class _Plan:
    """One report before rendering."""

    id: str
    query: str
    titles: list[str]
    slots: list[_Slot] = field(default_factory=list)
    list_section: bool = False


_NUMERAL_HEADS: Final = "一二三四五六七八九十"


@dataclass(frozen=True)
class _Rendered:
    text: str
    cites: tuple[Span, ...]
    descs: tuple[Span, ...]


def _render(plan: _Plan, as_of: date, injected: bool) -> _Rendered:
    parts: list[str] = [
        f"问题：{plan.query}\n",
        f"报告日期：{as_of.year}年{as_of.month}月{as_of.day}日\n",
    ]
    pos = sum(len(p) for p in parts)
    cites: list[Span] = []
    descs: list[Span] = []

    def put(s: str) -> None:
        nonlocal pos
        parts.append(s)
        pos += len(s)

    for si, title in enumerate(plan.titles):
        put(f"\n## {_NUMERAL_HEADS[si]}、{title}\n")
        slots = [s for s in plan.slots if s.subtopic == si]
        is_list = plan.list_section and si == len(plan.titles) - 1
        if is_list:
            # a LawBench-style answer: the conclusion, then the 法律依据 list it rests on
            put(f"结论：{slots[0].prov.text}\n法律依据：\n")
        else:
            put(f"关于{title}，相关规则如下。\n")
        for n, slot in enumerate(slots, start=1):
            sent, (cs, ce), (ds, de) = _sentence(slot, injected, n)
            cites.append(Span(start=pos + cs, end=pos + ce))
            descs.append(Span(start=pos + ds, end=pos + de))
            put(sent + "\n")
    return _Rendered("".join(parts), tuple(cites), tuple(descs))


def _matches(store: AuthorityStore, cit: Citation, slot: _Slot, span: Span, injected: bool) -> bool:
    """Does the extracted citation read back as the slot was written?"""
    if cit.span != span:
        return False
    rec = slot.prov.record
    if injected and slot.error == "fabricated_instrument":
        if cit.instrument is not None or (slot.name_x or "?") not in (
            cit.instrument_as_written or ""
        ):
            return False
    elif injected and slot.error == "repealed_instrument":
        if cit.instrument != store.resolve_instrument(slot.name_x or ""):
            return False
    elif cit.instrument != rec.instrument:
        return False
    article = slot.article_x if injected and slot.article_x else rec.article
    para = slot.paragraph_x if injected and slot.use_paragraph_x else slot.prov.paragraph
    return cit.article == article and cit.paragraph == para and cit.item is None


def _check(store: AuthorityStore, plan: _Plan, as_of: date, injected: bool) -> list[int]:
    """Indices of slots whose citation does not extract as written (empty when all do)."""
    r = _render(plan, as_of, injected)
    found = extract(r.text, store)
    by_span = {c.span: c for c in found}
    bad = [
        i
        for i, (slot, span) in enumerate(zip(plan.slots, r.cites, strict=True))
        if (c := by_span.get(span)) is None or not _matches(store, c, slot, span, injected)
    ]
    if not bad and len(found) != len(plan.slots):
        extra = {c.span for c in found} - set(r.cites)
        # an extra citation: blame the slot whose sentence holds it
        for sp in extra:
            for i, span in enumerate(r.cites):
                line_start = r.text.rfind("\n", 0, span.start)
                line_end = r.text.find("\n", span.end)
                if line_start <= sp.start <= line_end:
                    bad.append(i)
        if not bad:
            bad = list(range(len(plan.slots)))
    return sorted(set(bad))


# ---------------------------------------------------------------------------------------------
# planning


def _names(store: AuthorityStore, title: str) -> tuple[list[str], list[str]]:
    """(names usable in 书名号, names usable bare) that resolve back to ``title``."""
    inst = store.instrument(title)
    aliases = list(inst.aliases) if inst is not None else []
    short = set(store.known_short_names())
    bracketed = [title]
    if title.startswith("中华人民共和国") and store.resolve_instrument(title[7:]) == title:
        bracketed.append(title[7:])
    for a in sorted(aliases, key=len)[:2]:
        if store.resolve_instrument(a) == title and a not in bracketed and "编" not in a:
            bracketed.append(a)
    bare = [n for n in bracketed[1:] if n in short and "《" not in n]
    return bracketed, bare


def _pick_instrument(rng: random.Random, pool: Sequence[str], popular: Sequence[str]) -> str:
    if popular and rng.random() < 0.7:
        return rng.choice(popular)
    return rng.choice(pool)


def _plan_report(
    rng: random.Random,
    store: AuthorityStore,
    title: str,
    provs: Sequence[_Provision],
    rid: str,
) -> _Plan | None:
    by_head: dict[tuple[str, ...], list[_Provision]] = {}
    for p in provs:
        by_head.setdefault(p.heading, []).append(p)
    heads = [h for h, ps in by_head.items() if ps]
    if len(heads) < 2:
        return None
    n_sub = min(len(heads), rng.choice((2, 3, 3, 4)))
    chosen = rng.sample(heads, n_sub)
    chosen.sort(key=lambda h: by_head[h][0].record.ordinal)
    titles: list[str] = []
    for h in chosen:
        t = _heading_title(h)
        if t in titles and len(h) > 1:
            t = f"{_heading_title(h[:-1])}·{t}"
        if t in titles:
            t = f"{t}（{len(titles) + 1}）"
        titles.append(t)
    bracketed, bare = _names(store, title)
    short = bracketed[1] if len(bracketed) > 1 else title
    query = f"请结合{short}的相关规定，就{'、'.join(titles)}等问题撰写一份法律研究报告。"
    plan = _Plan(id=rid, query=query, titles=titles, list_section=rng.random() < 0.3)
    for si, h in enumerate(chosen):
        pool = by_head[h]
        is_list = plan.list_section and si == len(chosen) - 1
        k = 1 if is_list else min(len(pool), rng.choice((1, 2, 2, 3)))
        weights = [1.0 + 2.0 * len(p.carriers - {"fabricated_article", "shifted_article",
                                                  "wrong_paragraph", "fabricated_instrument"})
                   for p in pool]  # fmt: skip
        picked: list[_Provision] = []
        while len(picked) < k:
            p = rng.choices(pool, weights)[0]
            if p not in picked:
                picked.append(p)
        picked.sort(key=lambda p: (p.record.ordinal, p.paragraph or 0))
        for p in picked:
            style: Style = (
                "list" if is_list else rng.choice(("lead_in", "lead_in", "paren", "quote", "bare"))
            )
            if style == "bare" and not bare:
                style = "lead_in"
            if style == "bare":
                name, bracket = rng.choice(bare), False
            else:
                name, bracket = rng.choice(bracketed), True
            plan.slots.append(_Slot(p, si, style, name, bracket, chinese=rng.random() < 0.7))
    return plan


def _fallback(plan: _Plan, bad: Sequence[int], title: str) -> None:
    """Rewrite failing slots in the most robust form (full title, lead-in)."""
    for i in bad:
        s = plan.slots[i]
        plan.slots[i] = replace(
            s, style="list" if s.style == "list" else "lead_in", name=title, bracket=True
        )


def _drop(plan: _Plan, bad: Sequence[int]) -> _Plan | None:
    """Remove slots ``bad`` and subtopics left without a citation; None when nothing is left."""
    gone = set(bad)
    plan.slots = [s for i, s in enumerate(plan.slots) if i not in gone]
    used = sorted({s.subtopic for s in plan.slots})
    if len(used) != len(plan.titles):
        remap = {old: new for new, old in enumerate(used)}
        if plan.list_section and len(plan.titles) - 1 not in used:
            plan.list_section = False
        plan.titles = [plan.titles[i] for i in used]
        for s in plan.slots:
            s.subtopic = remap[s.subtopic]
    return plan if plan.slots else None


def _settle(store: AuthorityStore, plan: _Plan, as_of: date, title: str) -> _Plan | None:
    """Make every clean citation extract as written: fall back, then drop what still fails."""
    bad = _check(store, plan, as_of, injected=False)
    if bad:
        _fallback(plan, bad, title)
        bad = _check(store, plan, as_of, injected=False)
    if bad:
        settled = _drop(plan, bad)
        if settled is None or _check(store, settled, as_of, injected=False):
            return None
        return settled
    return plan


Screen = Callable[[str, date, str], Sequence[bool]]
"""``(clean report text, as-of date, query) → pass flag per citation in text order``."""


def _screen(
    store: AuthorityStore, plan: _Plan, as_of: date, title: str, screen: Screen
) -> _Plan | None:
    """Keep only citations ``screen`` passes: failing ones are rewritten in the lead-in form
    with the full title once, then dropped."""
    for attempt in range(2):
        flags = list(screen(_render(plan, as_of, injected=False).text, as_of, plan.query))
        if len(flags) != len(plan.slots):
            raise TaskError(
                f"the screen returned {len(flags)} flags for {len(plan.slots)} citations; "
                "return one flag per citation of the text, in order"
            )
        bad = [i for i, ok in enumerate(flags) if not ok]
        if not bad:
            return plan
        if attempt == 0:
            _fallback(plan, bad, title)
            if _check(store, plan, as_of, injected=False):
                return None
    settled = _drop(plan, bad)
    if settled is None or _check(store, settled, as_of, injected=False):
        return None
    return settled


# ---------------------------------------------------------------------------------------------
# injection


def _new_number(rng: random.Random, value: int, taken: set[int], pct: bool) -> int | None:
    if pct:
        cands = [value + 10, value - 10, value + 5, value * 2]
    elif value <= 1:
        cands = [2, 3]
    else:
        cands = [value * 2, value + 1, value - 1, max(1, value // 2)]
    cands = [c for c in dict.fromkeys(cands) if c > 0 and c not in taken and c != value]
    if pct:
        cands = [c for c in cands if c < 100]
    return rng.choice(cands) if cands else None


def _values(matches: Iterable[re.Match[str]]) -> set[int]:
    out = set()
    for m in matches:
        raw = m.group("n") or m.groupdict().get("pct")
        try:
            out.add(to_int(raw))
        except (ValueError, TypeError):
            continue
    return out


def _change_number(
    rng: random.Random, desc: str, source: str, kind: ErrorKind
) -> tuple[str, str] | None:
    finder = _periods if kind == "changed_period" else _amounts
    matches = finder(desc)
    if not matches:
        return None
    m = rng.choice(matches)
    group = "pct" if m.groupdict().get("pct") else "n"
    raw = m.group(group)
    try:
        value = to_int(raw)
    except ValueError:
        return None
    if group == "n" and kind == "changed_amount":
        same = [x for x in _amounts(source) if x.group("unit") == m.group("unit")]
    elif group == "pct":
        same = [x for x in _amounts(source) if x.group("pct")]
    else:
        same = [x for x in _periods(source) if x.group("unit") == m.group("unit")]
    new = _new_number(rng, value, _values(same), pct=group == "pct")
    if new is None:
        return None
    text = str(new) if raw.isdigit() else to_chinese(new)
    if raw == "两" or (
        raw.isdigit() is False and new == 2 and m.group(0).endswith(("年", "个月", "倍"))
    ):
        text = "两" if new == 2 else text
    s, e = m.span(group)
    return desc[:s] + text + desc[e:], f"{raw} → {text}"


def _flip_modality(rng: random.Random, desc: str, source: str) -> tuple[str, str] | None:
    cands = []
    for m in _MODAL.finditer(desc):
        new = _MODAL_FLIP[m.group(1)]
        pred = desc[m.end() : m.end() + 2]
        if len(pred) == 2 and new + pred not in source:
            cands.append((m, new))
    if not cands:
        return None
    m, new = rng.choice(cands)
    return desc[: m.start()] + new + desc[m.end() :], f"{m.group(1)} → {new}"


def _drop_proviso(desc: str) -> tuple[str, str] | None:
    m = _PROVISO.search(desc)
    if m is None:
        return None
    out = desc[: m.start()] + desc[m.end() :]
    if len(out.rstrip("。")) < 8:
        return None
    return out, f"dropped 「{m.group(0).lstrip('，,；; ')}」"


def _overreach(desc: str) -> tuple[str, str] | None:
    m = _CONDITION.search(desc)
    if m is None:
        return None
    rest = m.group("rest")
    head = f"在任何情况下，{rest}均" if rest else "在任何情况下均"
    return head + desc[m.start("modal") :], f"dropped the condition 「{m.group('cond')}」"


def _fabricated_name(rng: random.Random, store: AuthorityStore, title: str) -> str | None:
    stem = title.removeprefix("中华人民共和国")
    stem = stem[:-2] if stem.endswith("条例") else stem[:-1]
    options = [
        f"中华人民共和国{stem}管理法", f"中华人民共和国{stem}保障法",
        f"中华人民共和国{stem}促进法", f"中华人民共和国{stem}管理条例",
    ]  # fmt: skip
    rng.shuffle(options)
    for name in options:
        if store.resolve_instrument(name) is None and store.repeal_record(name) is None:
            return name
    return None


def _max_article(store: AuthorityStore, title: str) -> int:
    inst = store.instrument(title)
    best = 0
    for v in inst.versions if inst is not None else ():
        for a in v.articles:
            best = max(best, int(a.article.partition("之")[0]))
    return best


def _inject(
    rng: random.Random,
    store: AuthorityStore,
    slot: _Slot,
    kind: ErrorKind,
    as_of: date,
    cited: frozenset[str] = frozenset(),
) -> bool:
    """Set the slot's injected fields for ``kind``; False when this slot cannot carry it."""
    rec, desc = slot.prov.record, slot.prov.text
    source = rec.text
    if kind == "fabricated_article":
        n = _max_article(store, rec.instrument) + rng.randint(3, 60)
        slot.article_x, slot.use_paragraph_x, slot.paragraph_x = str(n), True, None
        slot.detail = f"第{rec.article}条 → 第{n}条 (the instrument has no such article)"
    elif kind == "fabricated_instrument":
        name = _fabricated_name(rng, store, rec.instrument)
        if name is None:
            return False
        slot.name_x, slot.detail = name, f"《{rec.instrument}》 → 《{name}》"
    elif kind == "shifted_article":
        arts = store.articles(rec.instrument, as_of=as_of)
        near = sorted(
            (a for a in arts if 0 < abs(a.ordinal - rec.ordinal) <= 5),
            key=lambda a: (abs(a.ordinal - rec.ordinal), a.ordinal),
        )
        k = slot.prov.paragraph
        for a in near:
            if (k is not None and len(a.paragraphs) < k) or a.article in cited:
                continue  # another citation of the report is that article: not an error
            if containment(desc, a.text) < 0.2:
                slot.article_x = a.article
                slot.detail = f"第{rec.article}条 → 第{a.article}条"
                break
        else:
            return False
    elif kind == "wrong_paragraph":
        slot.use_paragraph_x, slot.paragraph_x = True, len(rec.paragraphs) + 1
        slot.detail = f"{rec.article}条 has {len(rec.paragraphs)} 款; cites 第{slot.paragraph_x}款"
    elif kind == "repealed_instrument":
        old = _predecessor(store, rec, as_of)
        if old is None:
            return False
        count = _REPEALED_ARTICLES.get(old) or len(store.articles(old))
        num = int(rec.article.partition("之")[0])
        if count and num > count:
            slot.article_x = str(rng.randint(1, count))
        elif "之" in rec.article:
            slot.article_x = str(num)
        slot.use_paragraph_x, slot.paragraph_x = True, None
        slot.name_x = (
            old if slot.bracket or slot.style != "bare" else old.removeprefix("中华人民共和国")
        )
        slot.detail = f"《{rec.instrument}》 → repealed 《{old}》"
    else:
        changed: tuple[str, str] | None
        if kind in ("changed_period", "changed_amount"):
            changed = _change_number(rng, desc, source, kind)
        elif kind == "flipped_modality":
            changed = _flip_modality(rng, desc, source)
        elif kind == "dropped_proviso":
            changed = _drop_proviso(desc)
        else:
            changed = _overreach(desc)
        if changed is None:
            return False
        slot.desc_x, slot.detail = changed
    slot.error = kind
    return True


def _reset(slot: _Slot) -> None:
    slot.error = slot.name_x = slot.article_x = slot.paragraph_x = slot.desc_x = None
    slot.use_paragraph_x, slot.detail = False, ""


def _allocate(
    rng: random.Random,
    store: AuthorityStore,
    plans: Sequence[_Plan],
    rates: Mapping[ErrorKind, float],
    as_of: date,
) -> None:
    """Give ``round(rate × n_citations)`` citations of the suite each kind (at most one each)."""
    slots = [s for p in plans for s in p.slots]
    n = len(slots)
    cited = {
        id(s): frozenset(
            x.prov.record.article
            for x in p.slots
            if x.prov.record.instrument == s.prov.record.instrument
        )
        for p in plans
        for s in p.slots
    }
    # kinds with the fewest carriers choose first
    order = sorted(
        (k for k in ERROR_KINDS if rates.get(k, 0.0) > 0.0),
        key=lambda k: (sum(k in s.prov.carriers for s in slots), ERROR_KINDS.index(k)),
    )
    for kind in order:
        want = rates[kind] * n
        count = int(want) + (1 if rng.random() < want - int(want) else 0)
        cands = [
            s
            for s in slots
            if s.error is None
            and kind in s.prov.carriers
            and not (kind == "claim_overreach" and s.style == "quote")
        ]
        rng.shuffle(cands)
        done = 0
        for s in cands:
            if done >= count:
                break
            if _inject(rng, store, s, kind, as_of, cited[id(s)]):
                done += 1
            else:
                _reset(s)


def _validate_rates(
    rates: Mapping[ErrorKind, float] | Mapping[str, float],
) -> dict[ErrorKind, float]:
    unknown = sorted(set(rates) - set(ERROR_KINDS))
    if unknown:
        raise TaskError(f"unknown error kinds {unknown}: use some of {list(ERROR_KINDS)}")
    out: dict[ErrorKind, float] = {}
    for k, v in rates.items():
        if not 0.0 <= float(v) <= 1.0:
            raise TaskError(f"rate of {k} is {v}: give a share of citations in [0, 1]")
        out[k] = float(v)  # type: ignore[index]
    if sum(out.values()) > 1.0:
        raise TaskError(
            f"error rates add up to {sum(out.values()):.2f} > 1: each citation takes at most "
            "one error, lower some rates"
        )
    return out


def _report(plan: _Plan, seed: int, as_of: date) -> PerturbedReport:
    clean = _render(plan, as_of, injected=False)
    dirty = _render(plan, as_of, injected=True)
    subtopics = tuple(
        Subtopic(id=f"s{i + 1}", title=t, description=f"梳理{t}方面的主要规则及其法律依据。")
        for i, t in enumerate(plan.titles)
    )
    rubric = []
    for j, s in enumerate(plan.slots, start=1):
        rec = s.prov.record
        label = f"《{rec.instrument}》" + _pin(rec.article, s.prov.paragraph, chinese=False)
        rubric.append(
            RubricItem(
                id=f"r{j}",
                subtopic_id=f"s{s.subtopic + 1}",
                text=s.prov.text,
                evidence=(EvidencePoint(authority=label, text=s.prov.text),),
            )
        )
    task = Task(
        id=plan.id, query=plan.query, as_of=as_of, subtopics=subtopics, rubric=tuple(rubric)
    )
    errors = []
    untouched = []
    for s, span, dspan in zip(plan.slots, dirty.cites, dirty.descs, strict=True):
        if s.error is None:
            untouched.append(span.slice(dirty.text))
            continue
        e, f, a, tax = EXPECTED[s.error]
        if s.error == "dropped_proviso" and s.style == "quote":
            tax = ("L2.1.5",)
        rec = s.prov.record
        errors.append(
            InjectedError(
                kind=s.error,
                span=span,
                citation_raw=span.slice(dirty.text),
                original=rec.key,
                existence=e,
                fidelity=f,
                applicability=a,
                taxonomy=tax,
                original_label=f"《{rec.instrument}》"
                + _pin(rec.article, s.prov.paragraph, chinese=False),
                description_span=dspan if s.desc_x is not None else None,
                detail=s.detail,
            )
        )
    return PerturbedReport(
        id=plan.id,
        seed=seed,
        as_of=as_of,
        task=task,
        clean_text=clean.text,
        text=dirty.text,
        errors=tuple(errors),
        clean_citations=tuple(untouched),
    )


def _pools(store: AuthorityStore, as_of: date) -> tuple[list[str], list[str]]:
    popular = []
    for name in _POPULAR:
        t = store.resolve_instrument(name)
        if t is not None and t not in popular and _in_force(store, t, as_of):
            popular.append(t)
    pool = [
        t
        for t in store.titles()
        if store.level_of(t) in _LEVELS
        and _in_force(store, t, as_of)
        and len(store.articles(t, as_of=as_of)) >= 20
    ]
    return sorted(pool), popular


def generate_suite(
    store: AuthorityStore,
    *,
    n_reports: int = 60,
    seed: int = 0,
    rates: Mapping[ErrorKind, float] | None = None,
    as_of: date = DEFAULT_AS_OF,
    screen: Screen | None = None,
) -> tuple[PerturbedReport, ...]:
    """Generate ``n_reports`` perturbed reports over real provisions of ``store``.

    Args:
        store: The authority store (``load_default_store()``).
        n_reports: Reports to generate (>= 1).
        seed: Seed of every random choice; equal store build, seed and rates give an equal
            suite.
        rates: Share of all citations of the suite that receive each error kind, in [0, 1],
            summing to at most 1 (a citation takes at most one error). Kinds left out get
            none; ``None`` uses :data:`DEFAULT_RATES`. A kind with too few carriers gets fewer.
        as_of: As-of date of the reports; only provisions in force on it are drawn.
        screen: Optional check of the clean reports (e.g. the offline verifier's all-pass
            per citation). A citation it fails is rewritten in the most literal form
            (``根据《full title》第N条规定，D。``) and screened again, then dropped. Without it
            the generator relies on its construction alone (the tests check that this
            yields clean reports).

    Returns:
        The reports, ids ``perturb-<seed>-001`` ... in order.

    Raises:
        TaskError: ``n_reports`` < 1, an unknown kind or a rate outside [0, 1] (or summing
            above 1), or a store with too few citable provisions.
    """
    if n_reports < 1:
        raise TaskError(f"n_reports is {n_reports}: ask for at least one report")
    chosen_rates = _validate_rates(DEFAULT_RATES if rates is None else rates)
    rng = random.Random(seed)
    pool, popular = _pools(store, as_of)
    if not pool:
        raise TaskError("the authority store has no in-force instrument to draw from; rebuild it")
    cache: dict[str, list[_Provision]] = {}
    plans: list[_Plan] = []
    tries = 0
    while len(plans) < n_reports:
        tries += 1
        if tries > 20 * n_reports + 50:
            raise TaskError(
                f"could only plan {len(plans)} of {n_reports} reports from this store: "
                "it has too few citable provisions"
            )
        title = _pick_instrument(rng, pool, popular)
        if title not in cache:
            cache[title] = _provisions(store, title, as_of)
        plan = _plan_report(rng, store, title, cache[title], f"perturb-{seed}-{len(plans) + 1:03d}")
        if plan is None:
            continue
        settled = _settle(store, plan, as_of, title)
        if settled is not None and screen is not None:
            settled = _screen(store, settled, as_of, title, screen)
        if settled is not None:
            plans.append(settled)
    _allocate(rng, store, plans, chosen_rates, as_of)
    for plan in plans:
        # an injection the extractor does not read back as written is undone
        for _ in range(len(plan.slots)):
            bad = [i for i in _check(store, plan, as_of, injected=True) if plan.slots[i].error]
            if not bad:
                break
            for i in bad:
                _reset(plan.slots[i])
    return tuple(_report(p, seed, as_of) for p in plans)


# ---------------------------------------------------------------------------------------------
# files


def write_suite(reports: Iterable[PerturbedReport], path: str | os.PathLike[str]) -> None:
    """Write reports as JSONL (one report per line, UTF-8, atomic).

    Raises:
        TaskError: ``path`` does not end in ``.jsonl``.
    """
    out = Path(path)
    if out.suffix != ".jsonl":
        raise TaskError(f"{out}: write a perturbation suite to a .jsonl file")
    atomic_write_text(out, "".join(r.model_dump_json() + "\n" for r in reports))


def load_suite(path: str | os.PathLike[str]) -> tuple[PerturbedReport, ...]:
    """Read a suite written by :func:`write_suite`.

    Raises:
        TaskError: The file cannot be read, a line is not JSON or not a report (the message
            names the line), or the file holds no report.
    """
    src = Path(path)
    try:
        text = src.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise TaskError(f"{src}: cannot read the suite ({exc}); check the path") from None
    out = []
    for lineno, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            out.append(PerturbedReport.model_validate(json.loads(line)))
        except json.JSONDecodeError as exc:
            raise TaskError(f"{src}:{lineno}: not valid JSON ({exc.msg})") from None
        except ValidationError as exc:
            first = exc.errors(include_url=False)[0]
            where = ".".join(str(p) for p in first["loc"])
            raise TaskError(
                f"{src}:{lineno}: not a perturbed report ({where}: {first['msg']}); "
                "regenerate the suite with `citegov ablate --suite perturbation`"
            ) from None
    if not out:
        raise TaskError(f"{src}: holds no report; generate a suite first")
    return tuple(out)


def is_suite_file(path: str | os.PathLike[str]) -> bool:
    """True when the first non-empty line of a ``.jsonl`` file looks like a perturbed report."""
    p = Path(path)
    if p.suffix != ".jsonl" or not p.is_file():
        return False
    with p.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                try:
                    rec = json.loads(line)
                except json.JSONDecodeError:
                    return False
                return isinstance(rec, dict) and "clean_text" in rec and "errors" in rec
    return False


__all__ = [
    "CLEAN_LABELS",
    "DEFAULT_AS_OF",
    "DEFAULT_RATES",
    "ERROR_KINDS",
    "EXPECTED",
    "ErrorKind",
    "InjectedError",
    "PerturbedReport",
    "Screen",
    "generate_suite",
    "is_suite_file",
    "load_suite",
    "write_suite",
]
