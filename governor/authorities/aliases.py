"""Instrument names: normalisation, generated short names and the curated tables (layer 1).

Every alias maps to exactly one canonical title. Aliases come in tiers; a name claimed by two
titles in the same tier is resolved by one documented rule and otherwise dropped:

* tier 0 - the canonical titles themselves (always win);
* tier 1 - the title without ``中华人民共和国``; the curated tables below; the 民法典 parts;
* tier 2 - short names generated from the title patterns of 司法解释
  (``最高人民法院关于适用《X》Y的解释/规定（N）`` → ``Y解释（N）``, ``X解释``, ``<abbr of X>解释``;
  ``最高人民法院关于审理X案件适用法律若干问题的解释/规定（N）`` → ``X解释/规定（N）``);
* tier 3 - looser variants (``解释``↔``规定`` swapped, ``司法解释`` spelling, without ``纠纷``).

Rule for a same-tier clash: if exactly one claimant is a 宪法/法律 it keeps the name (a bare
short name in a report is read as the statute, e.g. a law and its 实施条例 never share one);
otherwise the name is dropped as ambiguous. A lower tier never overrides a higher one.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from governor.text import regexes as rx

PRC = "中华人民共和国"

LAW_ABBREVIATIONS: Mapping[str, str] = {
    # Conventional abbreviations of statutes in PRC legal writing; several are the SPC's own
    # (民诉法解释 / 刑诉法解释 are the names the SPC uses in its press releases for those
    # interpretations). Values are canonical titles; entries whose title is missing from the
    # store are ignored at build time.
    "民诉法": "中华人民共和国民事诉讼法",
    "刑诉法": "中华人民共和国刑事诉讼法",
    "行诉法": "中华人民共和国行政诉讼法",
    "消保法": "中华人民共和国消费者权益保护法",
    "消法": "中华人民共和国消费者权益保护法",
    "道交法": "中华人民共和国道路交通安全法",
    "道路交通法": "中华人民共和国道路交通安全法",
    "个保法": "中华人民共和国个人信息保护法",
    "个人信息法": "中华人民共和国个人信息保护法",
    "网安法": "中华人民共和国网络安全法",
    "数安法": "中华人民共和国数据安全法",
    "电商法": "中华人民共和国电子商务法",
    "社保法": "中华人民共和国社会保险法",
    "食安法": "中华人民共和国食品安全法",
    "环保法": "中华人民共和国环境保护法",
    "未保法": "中华人民共和国未成年人保护法",
    "破产法": "中华人民共和国企业破产法",
    "个税法": "中华人民共和国个人所得税法",
    "治安处罚法": "中华人民共和国治安管理处罚法",
    "招投标法": "中华人民共和国招标投标法",
    "国赔法": "中华人民共和国国家赔偿法",
    "反家暴法": "中华人民共和国反家庭暴力法",
    "妇女权益法": "中华人民共和国妇女权益保障法",
    "老年人权益法": "中华人民共和国老年人权益保障法",
    "残保法": "中华人民共和国残疾人保障法",
    "房地产管理法": "中华人民共和国城市房地产管理法",
    "土地承包法": "中华人民共和国农村土地承包法",
    "劳动争议仲裁法": "中华人民共和国劳动争议调解仲裁法",
    "劳动仲裁法": "中华人民共和国劳动争议调解仲裁法",
    "选举法": "中华人民共和国全国人民代表大会和地方各级人民代表大会选举法",
    "警察法": "中华人民共和国人民警察法",
}

JI_ABBREVIATIONS: Mapping[str, str] = {
    # Names in common use that the title patterns cannot produce.
    "民诉法司法解释": "最高人民法院关于适用《中华人民共和国民事诉讼法》的解释",
    "刑诉法司法解释": "最高人民法院关于适用《中华人民共和国刑事诉讼法》的解释",
    "民法典担保解释": "最高人民法院关于适用《中华人民共和国民法典》有关担保制度的解释",
    "担保解释": "最高人民法院关于适用《中华人民共和国民法典》有关担保制度的解释",
    "合同编解释": "最高人民法院关于适用《中华人民共和国民法典》合同编通则若干问题的解释",
    "合同编通则司法解释": "最高人民法院关于适用《中华人民共和国民法典》合同编通则若干问题的解释",
    "新民间借贷司法解释": "最高人民法院关于审理民间借贷案件适用法律若干问题的规定",
}

_STRIP = re.compile(r"[\s\u3000《》〈〉<>\"'“”‘’「」『』]")
_SEQ_ARABIC = re.compile(r"\((\d{1,2})\)")
_SEQ_BARE = re.compile(r"(解释|规定|解答|意见)([一二三四五六七八九十]{1,2})$")
_CN = "零一二三四五六七八九十"


def norm_name(name: str) -> str:
    """Lookup key of an instrument name.

    NFKC (full-width brackets/digits to ASCII), whitespace and book-title marks removed,
    ``(1)`` → ``(一)`` and a bare trailing numeral after 解释/规定 wrapped: ``解释一`` → ``解释(一)``.
    Canonical titles are never shown in this form; it is only a dictionary key.
    """
    s = _STRIP.sub("", unicodedata.normalize("NFKC", name))
    s = _SEQ_ARABIC.sub(lambda m: f"({_CN[int(m[1])]})" if 0 < int(m[1]) <= 10 else m[0], s)
    return _SEQ_BARE.sub(r"\1(\2)", s)


def strip_prc(title: str) -> str:
    """``中华人民共和国公司法`` → ``公司法`` (other titles unchanged)."""
    return title[len(PRC) :] if title.startswith(PRC) and len(title) > len(PRC) else title


@dataclass(frozen=True)
class NameSource:
    """What alias generation needs to know about one instrument."""

    title: str
    level: str
    parts: tuple[str, ...] = ()
    """Sub-part names of a multi-file instrument (民法典: 总则, 物权编, …)."""


def _abbreviations_of(title: str) -> list[str]:
    """Short forms of a statute title: itself without 中华人民共和国 plus curated abbreviations."""
    out = [strip_prc(title)]
    out += [a for a, t in LAW_ABBREVIATIONS.items() if t == title]
    return out


def _ji_names(title: str, law_titles: Mapping[str, str]) -> tuple[list[str], list[str]]:
    """Generated (tier 2, tier 3) short names of a 司法解释 title."""
    t = re.sub(r"[\s\u3000]+", "", title).replace("〈", "《").replace("〉", "》")
    t = t.replace("最高人民法院最高人民检察院", "最高人民法院、最高人民检察院")
    tier2: list[str] = []
    tier3: list[str] = []
    m = rx.CORPUS_JI_TITLE.match(t)
    if m:
        law = m["law"]
        law_title = law_titles.get(norm_name(law)) or law_titles.get(norm_name(PRC + law))
        law_forms = _abbreviations_of(law_title) if law_title else [strip_prc(law)]
        part = re.sub(r"^(有关|关于)", "", m["part"])
        kind, seq = m["kind"], m["seq"] or ""
        other = "规定" if kind == "解释" else "解释"
        if part:
            base = [part]
            if law_forms[0] == "民法典":  # 民法典 interpretations are named by their part alone
                base += [f"民法典{part}"]
            else:
                base = [f"{f}{part}" for f in law_forms]
        else:
            base = list(law_forms)
        for b in base:
            tier2.append(f"{b}{kind}{seq}")
            tier3 += [f"{b}{other}{seq}", f"{b}司法解释{seq}"]
        return tier2, tier3
    m = rx.CORPUS_JI_CASES_TITLE.match(t)
    if m:
        subject = m["subject"]
        core = re.sub(r"(纠纷|民事纠纷|刑事|民事|行政)$", "", subject)
        kind, seq = m["kind"], m["seq"] or ""
        other = "规定" if kind == "解释" else "解释"
        tier2.append(f"{core}{kind}{seq}")
        tier3 += [f"{subject}{kind}{seq}", f"{core}{other}{seq}", f"{core}司法解释{seq}"]
        tier3.append(f"{subject}案件{kind}{seq}")
    return tier2, tier3


def build_alias_table(
    sources: Iterable[NameSource], repealed: Iterable[NameSource] = ()
) -> tuple[dict[str, str], list[str]]:
    """Build ``norm_name(alias) → canonical title`` and the display forms of all aliases.

    Args:
        sources: instruments in the store.
        repealed: repealed instruments that are not in the store (合同法 …); their names take
            part like any other title.

    Returns:
        ``(table, display)``: the lookup table (keys are :func:`norm_name` keys, canonical titles
        included) and the aliases as written (no 《》), longest first.
    """
    srcs = list(sources) + list(repealed)
    levels = {s.title: s.level for s in srcs}
    law_titles = {norm_name(s.title): s.title for s in srcs if s.level in ("法律", "宪法")}
    claims: dict[str, dict[int, set[str]]] = {}
    display: dict[str, str] = {}

    def claim(alias: str, title: str, tier: int) -> None:
        if len(alias) < 2:
            return
        key = norm_name(alias)
        claims.setdefault(key, {}).setdefault(tier, set()).add(title)
        display.setdefault(key, alias)

    for s in srcs:
        claim(s.title, s.title, 0)
        short = strip_prc(s.title)
        if short != s.title:
            claim(short, s.title, 1)
        for part in s.parts:  # 民法典合同编, 民法典总则编, 合同编 …
            bare = part if part.endswith("编") or part == "附则" else f"{part}编"
            claim(f"{short}{part}", s.title, 1)
            claim(f"{short}{bare}", s.title, 1)
            if bare != "附则":
                claim(bare, s.title, 1)
        if s.level == "司法解释":
            tier2, tier3 = _ji_names(s.title, law_titles)
            for a in tier2:
                claim(a, s.title, 2)
            for a in tier3:
                claim(a, s.title, 3)
    for alias, title in {**LAW_ABBREVIATIONS, **JI_ABBREVIATIONS}.items():
        if title in levels:
            claim(alias, title, 1)

    table: dict[str, str] = {}
    for key, tiers in claims.items():
        for tier in sorted(tiers):
            titles = tiers[tier]
            if len(titles) == 1:
                table[key] = next(iter(titles))
                break
            statutes = [t for t in titles if levels.get(t) in ("法律", "宪法")]
            if len(statutes) == 1:
                table[key] = statutes[0]
                break
            break  # ambiguous in its best tier: dropped, lower tiers may not decide it
    shown = sorted({display[k] for k in table}, key=lambda a: (-len(a), a))
    return table, shown


# Title variants reports write for one stored title (issue 24 item 6): the SPC's own titles
# alternate 「具体应用法律」 and 「适用法律」 and drop or add 「若干问题」 between interpretations
# (法释〔2003〕20号 「…适用法律若干问题的解释」, 法释〔2000〕33号 「…具体应用法律若干问题的
# 解释」), so reports mix them; 中华人民共和国 and bracket width are spelling only.
_VARIANT_FOLDS: tuple[tuple[tuple[str, str], ...], ...] = (
    ((PRC, ""),),  # spelling only
    (("具体应用法律", "适用法律"), ("具体适用法律", "适用法律"), ("应用法律", "适用法律")),
    (
        ("若干问题的解释", "的解释"),
        ("若干问题的规定", "的规定"),
        ("问题的解释", "的解释"),
        ("问题的规定", "的规定"),
        ("若干规定", "规定"),
    ),
)
VARIANT_LEVELS = len(_VARIANT_FOLDS)
"""How many looser keys :func:`variant_key` has (level 0 = spelling only)."""


def variant_key(name: str, level: int = VARIANT_LEVELS - 1) -> str:
    """The key under which title variants of one instrument meet, folding more with each
    ``level``: 0 — :func:`norm_name` with 〈〉 and 《》 dropped and 中华人民共和国 removed
    everywhere (also inside an interpretation's 《》); 1 — also 具体应用法律 → 适用法律; 2 — also
    若干问题的解释 → 的解释 (and 规定)."""
    s = norm_name(name.replace("〈", "").replace("〉", ""))
    for folds in _VARIANT_FOLDS[: level + 1]:
        for a, b in folds:
            s = s.replace(a, b)
    return s


def unique_variants(titles: Iterable[str]) -> tuple[dict[str, str], ...]:
    """Per level of :func:`variant_key`, ``key → title`` for the keys exactly one of
    ``titles`` has (a key two titles share is left out: a variant resolves only when one
    stored title fits, at the least folding that finds one)."""
    ts = list(titles)
    out = []
    for level in range(VARIANT_LEVELS):
        seen: dict[str, set[str]] = {}
        for t in ts:
            seen.setdefault(variant_key(t, level), set()).add(t)
        out.append({k: next(iter(v)) for k, v in seen.items() if len(v) == 1})
    return tuple(out)
