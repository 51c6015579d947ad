"""Judgment benchmark on public development sets: the "Done when" figures of issue 21.

Usage: ``python -m benchmarks.bench_judgment [--limit N] [--seed 21] [--json] [--lawbench]
[--data DIR] [--halves] [--mismatches-out FILE] [--citations-out FILE]``.

Every figure is printed as one row: the set, the figure, ``n``, the value and the target.
Labels of the sets are read for measuring only (SPEC, COMMON rules): no table, index or model is
built from them. Sets (``external/``, see each ``SOURCE.md``) and how they become citations:

* **JuDGE** (``judge/test_even.jsonl``): the judgment's reasoning paragraph, 本院认为 … the
  first sentence after 判决如下 (as ``/work/shared/tools/judgment_check.py`` cuts it). The
  basis sentence is the last 「依照」 before 判决如下.

  - *extracted exactly*: the set of 刑法 article numbers extracted from the basis sentence
    equals ``gold_articles`` (co-cited interpretations are not counted; 之一 articles count
    by their base number, as JuDGE's integer labels do). *label noise* (diagnostic): the set is
    not the gold one but is the set the sentence writes (:func:`written_articles`, a plain
    pattern independent of the extractor), split into judgments whose gold lists an article
    the sentence does not write (``la`` also takes the articles of the 公诉机关's charge or of
    the first-instance judgment an appeal recites) and those whose gold omits one it writes
    (「第二十三条和六十七条第三款」, 「第七十二第一款」: forms ``la``'s own reading missed);
    ``--mismatches-out FILE`` writes every judgment whose set is not the gold one
    (:func:`mismatch`).
  - *gold kept*: each gold article cited in the basis sentence passes (E = F = A = 1) and gets
    no edit and no note in an ``efa`` run of the paragraph; ``n`` counts citations.
  - *swap flagged*: the first offence article of the basis sentence (a 分则 article that
    defines a charge in :func:`governor.authorities.charges.charge_table`, built from the 罪名
    provisions) is replaced by the defining article of another charge (seeded pick among the
    table's single-charge articles, never a gold article); flagged = the swapped citation does
    not pass.

* **LexEval 1_2** (``lexeval/1_2.jsonl``): each option written as
  「《X》第N条规定：“<option>”」. *right faithful*: the right option's citation gets fidelity
  ``faithful``; *wrong not faithful*: each wrong option's does not. 「中华人民共和国民法」 (as the
  questions write it, for articles up to 第一千二百六十条) is cited as 民法典.

* **LexEval 3_2** (``lexeval/3_2.jsonl``): for each of the four candidates,
  「问题：<facts>」 then 「本案应当适用《X》第N条的规定。」 (the judgment_check template).
  *gold first*: the gold candidate's (item_trust, applicability score, applicability fit) is
  strictly above the three others' (ties count as not first; the fit,
  :attr:`~governor.core.models.CheckResult.fit`, grades candidates that all pass); *wrong flagged*: a wrong candidate does not pass;
  *gold kept*: the gold one passes. Each item is verified as of :func:`options_date`: the
  latest day not after :data:`AS_OF` on which the instruments of all four options were in
  force (the options are the question's input; the answer is never read), :data:`AS_OF` when
  there is none; the same figures as of :data:`AS_OF` for every item (the former framing,
  which calls every gold 合同法 article ``repealed``) are printed beside. With ``--halves``, the same figures (diagnostic) for the
  first and the second half of the items (:func:`halves_32`: each of the file's two blocks, 刑法
  items then civil ones, cut in two in file order; thresholds are fitted on the first half) and
  for the 刑法 and the civil items (each also on its second half). With ``--facts-date`` (a
  measurement choice, off by default), each 3_2 item is verified as of the latest date its
  facts write (:func:`facts_date`, the law applicable at the time of the facts), falling back
  to :data:`AS_OF`.

* **LawBench dev** (``--lawbench``; ``lawbench_dev``, three models × 3-2 and 3-8, 500 answers
  each): every answer governed with ``efa`` as of :data:`benchmarks.lawbench.LAWBENCH_AS_OF`.
  A citation of the answer (not of the question line) is *flagged* when an edit or note names
  it (an edit with its id, a first-round edit overlapping its span, or a first-round note
  after it naming its article: a list's one note) or its verdict has a
  coverage gap (the report's gap line), else *silent*. *said in the report line only*: a
  silent citation whose verdict fails (item_trust < 1 or excluded) and that the verdict
  report names in a line of its own (:func:`governor.core.labels.unsaid_line`: where no safe
  wording for a note exists, issue 21 item 3). *judged failing, nothing said*: a citation
  whose verdict fails and that is silent with no such line; target 0 on 3-8. A few minutes per model-task on a quiet machine, hence the flag.

The seed fixes the swap article picks (seeded per judgment index, so ``--limit`` keeps them).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from benchmarks.datadir import data_path
from governor.api import Governor
from governor.authorities import AuthorityStore, load_default_store
from governor.authorities.charges import CRIMINAL_LAW, charge_table, is_special_part
from governor.core.config import load_config
from governor.core.labels import told_by_edits, unsaid_line
from governor.core.models import Citation, Verdict
from governor.text.numerals import article_label, to_int

AS_OF = date(2024, 6, 1)
"""As-of date of the JuDGE and LexEval checks (the gold texts are the current 刑法/民法典,
as in ``judgment_check.py``)."""

SEED = 21
_CN_PIN = re.compile(r"第[0-9零〇一二两三四五六七八九十百千]+条(?:之[一二三四五六七八九十]+)?")
_OPTION = re.compile(
    r"^(.*?)(第[0-9零〇一二两三四五六七八九十百千]+条(?:之[一二三四五六七八九十]+)?"
    r"(?:第[0-9零〇一二两三四五六七八九十百千]+款)?(?:第[（(]?[0-9零〇一二两三四五六七八九十]+[)）]?项)?)"
)


@dataclass(frozen=True)
class Row:
    """One printed figure: ``hits`` of ``n`` (``value`` = hits / n), or a count (``n`` =
    population, ``value`` = the count) when ``count`` is set."""

    set: str
    figure: str
    n: int
    value: float | None
    target: str
    ok: bool | None
    count: bool = False


def _share(set_: str, figure: str, hits: int, n: int, target: float | None) -> Row:
    value = hits / n if n else None
    if target is None:
        return Row(set_, figure, n, value, "(diagnostic)", None)
    return Row(
        set_, figure, n, value, f">= {target:.2f}", None if value is None else value >= target
    )


def _base(article: str | None) -> int | None:
    if not article:
        return None
    head = article.split("之")[0]
    return int(head) if head.isdigit() else None


# ---------------------------------------------------------------------------------------------
# JuDGE


@dataclass(frozen=True)
class Judgment:
    """A JuDGE record cut for checking: its reasoning ``paragraph`` and the basis sentence's
    ``[lo, hi)`` span inside it."""

    index: int
    paragraph: str
    lo: int
    hi: int
    gold: frozenset[int]


def judgments(path: Path, limit: int | None = None) -> list[Judgment]:
    """The records whose reasoning paragraph holds a 「依照」 basis sentence."""
    out: list[Judgment] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        r = json.loads(line)
        fj = r["full_judgment"]
        i, j = fj.find("本院认为"), fj.find("判决如下")
        if i < 0 or j < i:
            continue
        k = fj.find("。", j)
        para = fj[i : k + 1 if k > 0 else j + 200]
        hi = para.find("判决如下")
        lo = para.rfind("依照", 0, hi)
        if lo < 0:
            continue
        out.append(Judgment(int(r["index"]), para, lo, hi, frozenset(map(int, r["gold_articles"]))))
        if limit is not None and len(out) >= limit:
            break
    return out


_WRITTEN = re.compile(
    r"(?:第|(?<=[、和及]))([零〇一二两三四五六七八九十百千]+)(?:条|(?=第[一二三四五六七八九十]+款))"
)
_QUOTED = re.compile(r"“[^”]*”")


def written_articles(j: Judgment) -> frozenset[int]:
    """The 刑法 article numbers the basis sentence writes, read by a plain pattern (a check on
    the gold labels, independent of citegov's extractor): from 《中华人民共和国刑法》 to the next
    title, quotations dropped, 第N条 and N条 after 、/和/及, and 第N before 第K款 (a 条 dropped:
    「第七十二第一款」)."""
    s = j.paragraph[j.lo : j.hi]
    i = s.find("刑法》")
    if i < 0:
        return frozenset()
    k = s.find("《", i)
    seg = _QUOTED.sub("", s[i : k if k > 0 else len(s)])
    return frozenset(to_int(m.group(1)) for m in _WRITTEN.finditer(seg))


def _in_basis(c: Citation, j: Judgment) -> bool:
    """A 刑法 article citation that starts inside the basis sentence."""
    return c.instrument == CRIMINAL_LAW and bool(c.article) and j.lo <= c.span.start < j.hi


def _said(v: Verdict, result: Any) -> bool:
    """An edit or note of the run names the citation (:func:`governor.core.labels.told_by_edits`:
    its id, a first-round edit over its span, or a first-round note after it naming its
    article — a list's one note), or the report's gap line covers it."""
    return v.gap is not None or told_by_edits(v, result.rounds)


def swap_pool(store: AuthorityStore) -> list[str]:
    """刑法 分则 articles that define exactly one charge, sorted by number."""
    table = charge_table(store)
    arts = {a.article for arts in table.by_charge.values() for a in arts}
    pool = [a for a in arts if is_special_part(a) and len(table.charges_of(a)) == 1]
    return sorted(pool, key=lambda a: (_base(a) or 0, a))


def mismatch(j: Judgment, got: set[int]) -> dict[str, Any]:
    """One ``--mismatches-out`` record: the basis sentence, the extracted and the gold article
    sets, the sentence's written articles (:func:`written_articles`) and ``class``:
    ``"extraction"`` when the extracted set differs from the written one (the extractor
    misread the sentence), else ``"gold convention"`` (the labels list an article the
    sentence does not cite — JuDGE's ``la`` also takes the articles of the 公诉机关's charge
    or of the first-instance judgment an appeal recites — or omit one it cites)."""
    written = written_articles(j)
    return {
        "index": j.index,
        "sentence": j.paragraph[j.lo : j.hi],
        "extracted": sorted(got),
        "gold": sorted(j.gold),
        "written": sorted(written),
        "gold_not_extracted": sorted(j.gold - got),
        "extracted_not_gold": sorted(got - j.gold),
        "class": "extraction" if got != written else "gold convention",
    }


def bench_judge(
    gov: Governor,
    rows: list[Judgment],
    seed: int,
    mismatches: list[dict[str, Any]] | None = None,
) -> list[Row]:
    """JuDGE rows: extraction exact, gold kept, swap flagged; each judgment whose extracted
    set is not the gold one is appended to ``mismatches`` (:func:`mismatch`) when given."""
    table = charge_table(gov.store)
    pool = swap_pool(gov.store)
    exact = kept = cited = flagged = swapped = noisy = extra_gold = omitted = 0
    for j in rows:
        result = gov.govern(j.paragraph, strategy="efa", as_of=AS_OF)
        basis_v = [v for v in result.initial_verdicts if _in_basis(v.citation, j)]
        got = {n for n in (_base(v.citation.article) for v in basis_v) if n is not None}
        exact += got == j.gold
        written = written_articles(j)
        if got != j.gold and got == written:
            noisy += 1
            extra_gold += bool(j.gold - written)
            omitted += bool(written - j.gold)
        if got != j.gold and mismatches is not None:
            mismatches.append(mismatch(j, got))
        seen: set[int] = set()
        for v in basis_v:
            n = _base(v.citation.article)
            if n in j.gold and n not in seen:
                seen.add(n)
                cited += 1
                kept += v.passes and not _said(v, result)
        offence = next(
            (
                v.citation
                for v in basis_v
                if is_special_part(str(v.citation.article))
                and table.charges_of(str(v.citation.article))
            ),
            None,
        )
        if offence is None or offence.article is None:
            continue
        charges = set(table.charges_of(offence.article))
        rng = random.Random(seed * 100003 + j.index)
        choices = [
            a for a in pool if _base(a) not in j.gold and not charges & set(table.charges_of(a))
        ]
        other = rng.choice(choices)
        raw = j.paragraph[offence.span.start : offence.span.end]
        m = _CN_PIN.search(raw)
        if m is None:
            continue
        at = offence.span.start + m.start()
        text = j.paragraph[:at] + article_label(other) + j.paragraph[offence.span.start + m.end() :]
        shifted = Judgment(j.index, text, j.lo, j.hi + len(text) - len(j.paragraph), j.gold)
        swapped += 1
        vs = [v for v in gov.verify(text, as_of=AS_OF) if _in_basis(v.citation, shifted)]
        hit = [v for v in vs if v.citation.article == other]
        flagged += bool(hit) and not hit[0].passes
    return [
        _share("JuDGE", "依照-sentence 刑法 article set == gold", exact, len(rows), 0.97),
        _share(
            "JuDGE",
            "set ≠ gold where the gold ≠ the sentence's written articles (label noise)",
            noisy,
            len(rows),
            None,
        ),
        _share(
            "JuDGE",
            "  of which the gold lists an article the sentence does not write",
            extra_gold,
            len(rows),
            None,
        ),
        _share(
            "JuDGE",
            "  of which the gold omits an article the sentence writes",
            omitted,
            len(rows),
            None,
        ),
        _share("JuDGE", "gold article kept (passes, no edit/note)", kept, cited, 0.97),
        _share("JuDGE", "offence article swapped → flagged", flagged, swapped, 0.90),
    ]


# ---------------------------------------------------------------------------------------------
# LexEval


def _load_jsonl(path: Path, limit: int | None) -> list[dict[str, Any]]:
    rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    return rows[:limit] if limit is not None else rows


def _title_12(law: str) -> str:
    return law + "典" if law == "中华人民共和国民法" else law


def _cited(vs: Sequence[Verdict], article: str | None = None) -> Verdict | None:
    own = [v for v in vs if v.citation.article and not v.citation.in_question]
    if article is not None:
        own = [v for v in own if v.citation.article == article] or own
    return own[0] if own else None


def bench_lexeval_12(gov: Governor, items: list[dict[str, Any]]) -> list[Row]:
    """LexEval 1_2 rows: the right option faithful, each wrong option not faithful."""
    right = wrong_ok = n_wrong = 0
    for it in items:
        pin = str(it["article"])
        for letter, option in sorted(it["options"].items()):
            text = f"《{_title_12(it['law_as_written'])}》{pin}规定：“{option}”"
            v = _cited(gov.verify(text, as_of=AS_OF))
            faithful = v is not None and v.fidelity.label == "faithful"
            if letter == it["answer"]:
                right += faithful
            else:
                n_wrong += 1
                wrong_ok += not faithful
    return [
        _share("LexEval 1_2", "right option faithful", right, len(items), 0.98),
        _share("LexEval 1_2", "wrong option not faithful", wrong_ok, n_wrong, 0.98),
    ]


_DROPPED_ZERO = re.compile(r"([百千])([一二三四五六七八九])(?=条)")
"""A unit digit written straight after 百/千 in an article number: 3_2's options render their
integer labels without the 零 (「第二百五条」 for 第二百零五条, 「第三百一条」 beside
「第三百一十条」 in one item; facts of 虚开增值税专用发票 with 「第二百五条」 as the answer), where the
statutes write 第二百零五条 and 第二百五十条. Read as written (cn2an: 二百五 = 250) such a
candidate is another article, or the same one as a sibling option."""


def option_pin(pin: str) -> str:
    """``pin`` as the statutes number it: the dropped 零 restored (:data:`_DROPPED_ZERO`,
    「第二百五条」 → 「第二百零五条」); any other pin unchanged."""
    return _DROPPED_ZERO.sub(r"\1零\2", pin)


def option_title(option: str) -> str | None:
    """The instrument title a 3_2 option writes before its pin (《》 stripped, ASCII <> as
    〈〉), or None when the option names no article."""
    m = _OPTION.match(option.strip())
    if m is None:
        return None
    return m.group(1).strip().strip("《》").replace("<", "〈").replace(">", "〉")


def text_32(facts: str, option: str) -> str | None:
    """The report text for one 3_2 candidate (None when the option names no article); its
    pin as the statutes number it (:func:`option_pin`)."""
    m = _OPTION.match(option.strip())
    title = option_title(option)
    if m is None or title is None:
        return None
    body = re.sub(r"\s+", "", facts)[:1500]
    return f"问题：{body}\n\n本案应当适用《{title}》{option_pin(m.group(2))}的规定。\n"


_FACT_DATE = re.compile(r"(\d{4})年(\d{1,2})月(\d{1,2})日")


def facts_date(facts: str, default: date = AS_OF) -> date:
    """The latest calendar date 「YYYY年M月D日」 written in ``facts`` that is not after
    ``default`` (impossible dates skipped), else ``default``."""
    got: list[date] = []
    for m in _FACT_DATE.finditer(facts):
        try:
            d = date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        except ValueError:
            continue
        if d <= default:
            got.append(d)
    return max(got, default=default)


def options_date(
    store: AuthorityStore, options: Sequence[str], default: date = AS_OF
) -> date | None:
    """The latest day not after ``default`` on which the instruments of all ``options`` were
    in force, as the store's versions date them (:meth:`AuthorityStore.in_force_span`: the
    first stored version's entry into force to the repeal; an option whose title the store
    does not resolve sets no bound); None when no such day exists (a 合同法 option beside a
    民法典 one: the one was repealed the day the other took effect).

    The 3_2 framing (issue 21): a question that offers four articles as candidates for one
    case asks as of a day when each of them could be the law applied; the options are the
    question's input, not its label, and the answer letter is never read. Items older than
    the 民法典 (合同法, 民法总则 gold articles) are thus verified on the eve of their repeal
    instead of being called ``repealed`` as of :data:`AS_OF`."""
    lo: date | None = None
    hi: date | None = None  # exclusive
    for option in options:
        title = option_title(option)
        name = store.resolve_instrument(title) if title else None
        span = store.in_force_span(name) if name else None
        if span is None:
            continue
        start, end = span
        if start is not None and (lo is None or start > lo):
            lo = start
        if end is not None and (hi is None or end < hi):
            hi = end
    day = default if hi is None or hi > default else hi - timedelta(days=1)
    return day if lo is None or lo <= day else None


def halves_32(items: Sequence[dict[str, Any]]) -> list[str]:
    """``"first"`` or ``"second"`` per 3_2 item: the file holds a block of items whose four
    candidates are all 刑法 articles, then a block of civil ones; each block is cut in two in
    file order (the first ``ceil(n / 2)`` items are its first half), so both halves hold both
    kinds. Thresholds are fitted on the first half (``Thresholds`` docstrings)."""
    crim = [all(str(o).startswith(CRIMINAL_LAW) for o in it["options"].values()) for it in items]
    out = [""] * len(items)
    for kind in (True, False):
        idx = [i for i, c in enumerate(crim) if c == kind]
        cut = (len(idx) + 1) // 2
        for j, i in enumerate(idx):
            out[i] = "first" if j < cut else "second"
    return out


_Item32 = tuple[bool, bool, int, int]
"""One 3_2 item's outcome: (gold first, gold kept, wrong candidates flagged, wrong ones)."""


def judge_32(
    gov: Governor, it: dict[str, Any], when: date, rows: list[dict[str, Any]] | None = None
) -> _Item32 | None:
    """Verify the four candidates of one 3_2 item as of ``when``; None when the gold option
    names no article. With ``rows``, one record per candidate is appended to it (:func:`row_32`)."""
    facts = it.get("facts") or it["input"]
    keys: dict[str, tuple[float, float, float]] = {}
    passes: dict[str, bool] = {}
    for letter, option in sorted(it["options"].items()):
        text = text_32(facts, option)
        if text is None:
            continue
        v = _cited(gov.verify(text, as_of=when))
        if rows is not None:
            rows.append(row_32(it, letter, option, when, v))
        if v is None:
            keys[letter], passes[letter] = (-1.0, -1.0, -1.0), False
            continue
        keys[letter] = (v.item_trust, v.applicability.score or 0.0, v.applicability.fit or 0.0)
        passes[letter] = v.passes
    gold = it["answer"]
    if gold not in keys:
        return None
    first = all(keys[gold] > k for ltr, k in keys.items() if ltr != gold)
    wrong = [not ok for ltr, ok in passes.items() if ltr != gold]
    return first, passes[gold], sum(wrong), len(wrong)


def row_32(
    it: dict[str, Any], letter: str, option: str, when: date, v: Verdict | None
) -> dict[str, Any]:
    """One 3_2 candidate's record for ``--rows-out``: the item, the candidate, whether it is
    the gold one, the as-of date, and its verdict per axis (label, score, rationale; the
    applicability fit), or ``verdict: None`` when the text yields no citation of it."""
    out: dict[str, Any] = {
        "index": it.get("index"),
        "letter": letter,
        "option": option,
        "gold": letter == it.get("answer"),
        "as_of": when.isoformat(),
    }
    if v is None:
        return {**out, "verdict": None}
    axes: dict[str, dict[str, Any]] = {
        str(a.axis): {"label": a.label, "score": a.score, "rationale": a.rationale}
        for a in (v.existence, v.fidelity, v.applicability)
    }
    axes["applicability"]["fit"] = v.applicability.fit
    return {**out, "passes": v.passes, "item_trust": v.item_trust, **axes}


def bench_lexeval_32(
    gov: Governor,
    items: list[dict[str, Any]],
    *,
    split: bool = False,
    by_facts: bool = False,
    rows_out: list[dict[str, Any]] | None = None,
) -> list[Row]:
    """LexEval 3_2 rows: gold ranks first, wrong flagged, gold kept, each item verified as of
    :func:`options_date` of its options (:data:`AS_OF` when none exists), and the same three
    figures as of :data:`AS_OF` for every item (the former framing, diagnostic); with
    ``split``, the figures per half (:func:`halves_32`) and for the 刑法 and the civil items
    (diagnostic rows); with ``by_facts``, each item verified as of :func:`facts_date` of its
    facts instead. ``rows_out`` receives one record per candidate of that framing
    (:func:`row_32`)."""
    half = halves_32(items)
    # per item: (half, 刑法 item, gold first, gold kept, wrong flagged, wrong candidates)
    per: list[tuple[str, bool, bool, bool, int, int]] = []
    old: list[tuple[str, bool, bool, bool, int, int]] = []
    for it, h in zip(items, half, strict=True):
        facts = it.get("facts") or it["input"]
        options = [str(o) for o in it["options"].values()]
        if by_facts:
            when = facts_date(facts)
        else:
            when = options_date(gov.store, options) or AS_OF
        got = judge_32(gov, it, when, rows_out)
        if got is None:
            continue
        crim = all(o.startswith(CRIMINAL_LAW) for o in options)
        per.append((h, crim, *got))
        before = got if when == AS_OF else judge_32(gov, it, AS_OF)
        if before is not None:
            old.append((h, crim, *before))

    def rows(
        name: str, sel: list[tuple[str, bool, bool, bool, int, int]], target: bool
    ) -> list[Row]:
        first = sum(p[2] for p in sel)
        kept = sum(p[3] for p in sel)
        flagged, n_wrong = sum(p[4] for p in sel), sum(p[5] for p in sel)
        t = (0.85, 0.90, 0.95) if target else (None, None, None)
        return [
            _share(name, "gold candidate ranks first of four", first, len(sel), t[0]),
            _share(name, "wrong candidate flagged (recall)", flagged, n_wrong, t[1]),
            _share(name, "gold candidate kept", kept, len(sel), t[2]),
        ]

    out = rows("LexEval 3_2", per, True)
    out += rows("LexEval 3_2 as of AS_OF", old, False)
    if split:
        out += rows("3_2 as of AS_OF, 1st half", [p for p in old if p[0] == "first"], False)
        out += rows("3_2 as of AS_OF, 2nd half", [p for p in old if p[0] == "second"], False)
        out += rows("LexEval 3_2 first half", [p for p in per if p[0] == "first"], False)
        out += rows("LexEval 3_2 second half", [p for p in per if p[0] == "second"], False)
        out += rows("LexEval 3_2 刑法 items", [p for p in per if p[1]], False)
        out += rows(
            "LexEval 3_2 刑法, 2nd half", [p for p in per if p[1] and p[0] == "second"], False
        )
        out += rows("LexEval 3_2 civil items", [p for p in per if not p[1]], False)
        out += rows(
            "LexEval 3_2 civil, 2nd half", [p for p in per if not p[1] and p[0] == "second"], False
        )
    return out


# ---------------------------------------------------------------------------------------------
# LawBench dev


def bench_lawbench(
    gov: Governor,
    folder: Path,
    limit: int | None,
    citations: list[dict[str, Any]] | None = None,
) -> list[Row]:
    """LawBench dev rows per task: flagged and silent citations, judged failing with nothing
    said (the 3-8 count's target is 0). ``citations``, when given, receives one record per
    citation (task, model, id, raw, span, E/F/A labels, ``said``, ``passes``, and the
    F and A rationales) so two runs can be diffed (``--citations-out``)."""
    from benchmarks.lawbench import LAWBENCH_AS_OF, draft_text, load_task

    out: list[Row] = []
    for task in ("3-2", "3-8"):
        items = load_task(folder, task)
        if limit is not None:
            by_model: dict[str, int] = {}
            kept_items = []
            for it in items:
                if by_model.get(it.model, 0) < limit:
                    by_model[it.model] = by_model.get(it.model, 0) + 1
                    kept_items.append(it)
            items = tuple(kept_items)
        n_cit = flagged = silent = unsaid = lined = 0
        for it in items:
            result = gov.govern(draft_text(it), strategy="efa", as_of=LAWBENCH_AS_OF)
            warnings = set(result.to_report().warnings)
            for v in result.initial_verdicts:
                if v.citation.in_question:
                    continue
                n_cit += 1
                said = _said(v, result)
                if citations is not None:
                    citations.append(
                        {
                            "task": task,
                            "model": it.model,
                            "id": it.id,
                            "raw": v.citation.raw,
                            "span": [v.citation.span.start, v.citation.span.end],
                            "E": v.existence.label,
                            "F": v.fidelity.label,
                            "A": v.applicability.label,
                            "said": bool(said),
                            "passes": v.passes,
                            "F_why": v.fidelity.rationale,
                            "A_why": v.applicability.rationale,
                        }
                    )
                flagged += said
                silent += not said
                if not v.passes and not said:
                    if unsaid_line(v) in warnings:
                        lined += 1
                    else:
                        unsaid += 1
        name = f"LawBench {task} ({len(items)} answers)"
        out += [
            Row(name, "citations flagged (edit, note or gap)", n_cit, flagged, "-", None, True),
            Row(name, "citations silent (no edit, no note)", n_cit, silent, "-", None, True),
            Row(
                name, "judged failing, said in the report line only", n_cit, lined, "-", None, True
            ),
            Row(
                name,
                "judged failing, nothing said",
                n_cit,
                unsaid,
                "== 0" if task == "3-8" else "-",
                (unsaid == 0) if task == "3-8" else None,
                True,
            ),
        ]
    return out


# ---------------------------------------------------------------------------------------------


def run(
    gov: Governor,
    external: Path,
    *,
    limit: int | None = None,
    seed: int = SEED,
    lawbench: Path | None = None,
    halves: bool = False,
    facts_dates: bool = False,
    mismatches: list[dict[str, Any]] | None = None,
    citations: list[dict[str, Any]] | None = None,
    rows32: list[dict[str, Any]] | None = None,
) -> list[Row]:
    """Every row, in the issue's order (LawBench only when ``lawbench`` is given); the JuDGE
    judgments whose extracted set is not the gold one go to ``mismatches`` when given, the
    LawBench citations' records to ``citations`` (:func:`bench_lawbench`), and the 3_2
    candidates' records to ``rows32`` (:func:`row_32`).

    Raises:
        FileNotFoundError: a data file is missing.
    """
    rows = bench_judge(
        gov, judgments(external / "judge" / "test_even.jsonl", limit), seed, mismatches
    )
    rows += bench_lexeval_12(gov, _load_jsonl(external / "lexeval" / "1_2.jsonl", limit))
    rows += bench_lexeval_32(
        gov,
        _load_jsonl(external / "lexeval" / "3_2.jsonl", limit),
        split=halves,
        by_facts=facts_dates,
        rows_out=rows32,
    )
    if lawbench is not None:
        rows += bench_lawbench(gov, lawbench, limit, citations)
    return rows


def render(rows: Sequence[Row]) -> str:
    """The rows as an aligned text table."""
    lines = [f"{'set':<26} {'figure':<44} {'n':>6} {'value':>8}  target    ok"]
    for r in rows:
        if r.value is None:
            val = "-"
        elif r.count:
            val = str(int(r.value))
        else:
            val = f"{100 * r.value:.1f}%"
        ok = "-" if r.ok is None else ("yes" if r.ok else "NO")
        lines.append(f"{r.set:<26} {r.figure:<44} {r.n:>6} {val:>8}  {r.target:<8}  {ok}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Print the issue 21 figures (text table, or JSON with ``--json``)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=None, help="records per set (per model-task)")
    ap.add_argument("--seed", type=int, default=SEED, help="seed of the swap article picks")
    ap.add_argument("--json", action="store_true", help="print the rows as JSON")
    ap.add_argument(
        "--lawbench", action="store_true", help="also govern every dev 3-2/3-8 answer (slow)"
    )
    ap.add_argument("--data", type=Path, default=None, help="the external/ folder")
    ap.add_argument(
        "--halves",
        action="store_true",
        help="also print the 3_2 figures per half (thresholds are fitted on the first) and for "
        "the 刑法 items",
    )
    ap.add_argument(
        "--facts-date",
        action="store_true",
        help="verify each 3_2 item as of the latest date its facts write (default: AS_OF)",
    )
    ap.add_argument(
        "--mismatches-out",
        type=Path,
        default=None,
        metavar="FILE",
        help="write the JuDGE judgments whose extracted article set is not the gold one as "
        "JSON Lines (index, sentence, extracted, gold, written, class)",
    )
    ap.add_argument(
        "--citations-out",
        type=Path,
        default=None,
        metavar="FILE",
        help="with --lawbench: write one JSON line per dev citation (task, model, id, raw, "
        "span, labels, said, passes, rationales) to diff two runs",
    )
    ap.add_argument(
        "--rows-out",
        type=Path,
        default=None,
        metavar="FILE",
        help="write one JSON line per LexEval 3_2 candidate (index, letter, option, gold, "
        "as_of, passes, each axis's label, score and rationale) to group the losses",
    )
    args = ap.parse_args(argv)
    if args.citations_out is not None and not args.lawbench:
        ap.error("--citations-out needs --lawbench")
    if args.limit is not None and args.limit < 1:
        ap.error("--limit must be at least 1")
    external = args.data or data_path("external")
    if not (external / "judge" / "test_even.jsonl").is_file():
        sys.stderr.write(f"bench_judgment: no judge/test_even.jsonl under {external}\n")
        return 2
    t0 = time.perf_counter()
    store = load_default_store()
    gov = Governor(load_config(overrides={}, environ={}), store=store)
    mismatches: list[dict[str, Any]] = []
    cited: list[dict[str, Any]] = []
    rows32: list[dict[str, Any]] = []
    rows = run(
        gov,
        external,
        limit=args.limit,
        seed=args.seed,
        lawbench=data_path("lawbench_dev") if args.lawbench else None,
        halves=args.halves,
        facts_dates=args.facts_date,
        mismatches=mismatches,
        citations=cited,
        rows32=rows32,
    )
    if args.rows_out is not None:
        args.rows_out.write_text(
            "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows32), encoding="utf-8"
        )
    if args.citations_out is not None:
        args.citations_out.write_text(
            "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cited), encoding="utf-8"
        )
    if args.mismatches_out is not None:
        args.mismatches_out.write_text(
            "".join(json.dumps(m, ensure_ascii=False) + "\n" for m in mismatches),
            encoding="utf-8",
        )
    secs = time.perf_counter() - t0
    if args.json:
        payload = {"rows": [asdict(r) for r in rows], "seconds": round(secs, 1)}
        sys.stdout.write(json.dumps(payload, ensure_ascii=False, indent=2) + "\n")
    else:
        sys.stdout.write(render(rows) + f"\n({secs:.0f} s)\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
