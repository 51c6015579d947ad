"""Judges by role: what each judge reads of a citation's :class:`~governor.core.models.Assertion`
(issue 21; layer 3).

* :data:`FIDELITY_ROLES` — Fidelity judges ``quotation`` and ``paraphrase`` (``definition`` and
  ``procedure`` are paraphrases of a definitional or procedural rule and are judged as such). An
  ``application`` that restates the rule to the reader (:func:`restates_rule`) is judged as a
  paraphrase; any other only on a number written in the provision's own wording (anchored:
  「支付二倍的工资」); ``reference``, ``range`` and ``whole_instrument`` are not judged by
  Fidelity (``not_assessed`` with the role as reason).
* :func:`paraphrase_parts` — a paraphrase compared part by part with the provision
  (:mod:`governor.authorities.structure` conventions: 「……的，」 trigger clause → consequence):
  the payer changed (由X支付 where the provision has 由Y支付 for the same thing), the actor or
  the counting basis of an act changed (:mod:`verifiers.actors`: 「职工应当按时足额缴纳」 where
  社会保险法第六十条 has 用人单位; 「按照…应当休年休假天数计算」 for 「按照…已工作时间折算」), the consequence
  of a condition the provision states verbatim changed (「没有约定保证份额的，平均分摊」 where
  民法典第六百九十九条 lets the creditor claim against any guarantor), a limit the same 款 sets
  denied (「无论…已过多少年…仍可主张」 against 「超过二十年的，人民法院不予保护」), the consequence
  of the provision's condition negated (「…不履行合同义务的，无需承担任何责任」 against 应当承担)
  → ``misdescribed``.
* :func:`reference_applicability` — a ``reference`` (依照…之规定) gets E and A only: A is the
  charge table's word on a 刑法 分则 article when a charge is named, else ``skipped``.
* :func:`whole_instrument_outcome` — a law cited whole for a specific rule is resolved to the
  article that holds the claim (its numbers and its words), or flagged unsupported.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from datetime import date

from governor.authorities import AuthorityStore
from governor.authorities.charges import CRIMINAL_LAW, charge_table, is_special_part
from governor.core.config import Thresholds
from governor.core.labels import WHOLE_FIGURE_MARK, WHOLE_PIN_MARK, score_for
from governor.core.models import (
    Assertion,
    CheckResult,
    Citation,
    Evidence,
    Suggestion,
)
from governor.core.ports import Retriever
from governor.core.records import ArticleRecord
from governor.text import regexes as rx
from verifiers.actors import actor_changed, basis_changed
from verifiers.facts import Quantity, quantities
from verifiers.judge import AxisOutcome, JudgeItem, outcome
from verifiers.textsim import containment, normalize, pooled_containment

FIDELITY_ROLES = frozenset({"quotation", "paraphrase", "definition", "procedure"})
"""Roles whose words state the provision's content: Fidelity judges them."""

MIN_CONDITION = 6
"""Characters a report's 「……的」 condition needs to be matched with the provision's (shorter
ones — 法律另有规定的 — are shared by hundreds of articles)."""
MIN_OBJECT = 3
"""Characters the thing paid needs for a payer comparison."""
WHOLE_K = 8
"""Articles of a whole-instrument citation's instrument searched for the claim."""


def assertion_of(item: JudgeItem) -> Assertion | None:
    """The citation's assertion, or None when it was not read (hand-built citations)."""
    return item.citation.assertion


PARTS_LEAD = "parts: "
"""Opens the rationale of a part-by-part failure (:func:`paraphrase_parts`): its evidence is the
provision's own rule for the part the report changed (:func:`stated_rule`)."""


def _fout(label: str, rationale: str, **kw: object) -> AxisOutcome:
    return outcome("fidelity", label, PARTS_LEAD + rationale, **kw)  # type: ignore[arg-type]


def stated_rule(check: CheckResult) -> str | None:
    """The provision's words for the part a paraphrase changed (the evidence of a
    :func:`paraphrase_parts` failure), for the reader's note; None for other results."""
    if not check.rationale.startswith(PARTS_LEAD) or not check.evidence:
        return None
    return check.evidence[0].text


def source_pairs(source: str) -> list[tuple[str, str, int]]:
    """``(condition, consequence, start)`` of each 「……的，」 clause of ``source``."""
    out: list[tuple[str, str, int]] = []
    for m in rx.ASSERTION_CONDITION_RE.finditer(source):
        cond = m.group("cond") or m.group("cond2") or ""
        stop = rx.CONSEQUENCE_STOP_RE.search(source, m.end())
        end = stop.start() if stop is not None else len(source)
        cons = source[m.end() : end].strip("，, ")
        if cond and cons:
            out.append((cond, cons, m.start()))
    return out


def _payers(text: str) -> list[tuple[str, str, str]]:
    """``(actor, verb, thing)`` of each 由X支付Y / Y由X支付 in ``text``."""
    out: list[tuple[str, str, str]] = []
    for m in rx.ASSERTION_ACTOR_RE.finditer(text):
        thing = m.group("obj").strip()
        if len(thing) < MIN_OBJECT:
            head = text[: m.start()]
            cut = max(head.rfind(c) for c in "，,；;。：:\n")
            thing = head[cut + 1 :].strip()
        out.append((m.group("actor").strip(), m.group("verb"), thing))
    return out


def _payer_changed(
    a: Assertion, item: JudgeItem, source: str, th: Thresholds
) -> AxisOutcome | None:
    if not a.actor:
        return None
    for actor, verb, thing in _payers(a.text):
        if len(thing) < MIN_OBJECT:
            continue
        theirs = [
            (sa, st)
            for sa, sv, st in _payers(source)
            if sv == verb
            and len(st) >= MIN_OBJECT
            and containment(st, thing) >= th.paraphrase_same_condition
        ]
        if not theirs or any(
            normalize(actor) in normalize(sa) or normalize(sa) in normalize(actor)
            for sa, _ in theirs
        ):
            continue
        sa, st = theirs[0]
        return _fout(
            "misdescribed",
            f"the report says {actor} {verb}s {st}; the provision says 由{sa}{verb}",
            codes=("L1.2.2",),
            evidence=(Evidence(text=f"由{sa}{verb}{st}", authority_id=item.authority.id),),
        )
    return None


def _consequence_changed(
    a: Assertion, item: JudgeItem, source: str, th: Thresholds
) -> AxisOutcome | None:
    cons = a.consequence
    if len(normalize(cons)) < 2 or not a.conditions:
        return None
    for cond in a.conditions:
        if len(normalize(cond)) < MIN_CONDITION:
            continue
        for scond, scons, _ in source_pairs(source):
            if (
                containment(scond, cond) < th.paraphrase_same_condition
                or containment(cond, scond) < th.paraphrase_same_condition
            ):
                continue
            if containment(cons, scons) >= th.paraphrase_consequence_min:
                return None
            if containment(cons, source) >= th.paraphrase_consequence_min:
                return None
            return _fout(
                "misdescribed",
                f"for 「{cond}」 the report says 「{cons}」; the provision says 「{scons}」",
                codes=("L1.2.2",),
                evidence=(Evidence(text=f"{scond}，{scons}", authority_id=item.authority.id),),
            )
    return None


def _main(consequence: str) -> str:
    """The main clause of a consequence (up to a list colon or a clause end)."""
    m = rx.MAIN_CLAUSE_STOP_RE.search(consequence)
    return consequence[: m.start()] if m is not None else consequence


def _polarity_reversed(
    a: Assertion, item: JudgeItem, source: str, th: Thresholds
) -> AxisOutcome | None:
    """The report negates the consequence the provision attaches to the condition it states
    (「当事人一方不履行合同义务的，无需承担任何责任」 where 民法典第五百七十七条 says 应当承担):
    the report's condition lies within the provision's, the consequences share their verb and
    only the report's is negated (or the other way round)."""
    cons = _main(a.consequence)
    if len(normalize(cons)) < 2 or not a.conditions:
        return None
    mine = rx.ASSERTION_NEGATION_RE.search(cons) is not None
    for cond in a.conditions:
        if len(normalize(cond)) < MIN_CONDITION:
            continue
        for scond, scons, _ in source_pairs(source):
            if (
                containment(cond, scond) < th.paraphrase_same_condition
                or containment(cons, scons) == 0.0
            ):
                continue
            theirs = rx.ASSERTION_NEGATION_RE.search(_main(scons)) is not None
            if mine == theirs:
                return None
            return _fout(
                "misdescribed",
                f"for 「{cond}」 the report says 「{cons}」; the provision says 「{scons}」: "
                "the opposite consequence",
                codes=("L1.2.2",),
                evidence=(Evidence(text=f"{scond}，{scons}", authority_id=item.authority.id),),
            )
    return None


def _limit_denied(a: Assertion, item: JudgeItem, source: str) -> AxisOutcome | None:
    m = rx.UNLIMITED_RE.search(a.text)
    if m is None:
        return None
    period = rx.PERIOD_DIMENSION_RE.search(m.group(0)) is not None
    for q in quantities(source):
        if q.is_period != period or (not period and q.unit != "元"):
            continue
        lo = max(0, source.rfind("，", 0, q.start) + 1, source.rfind("。", 0, q.start) + 1)
        stop = rx.CONSEQUENCE_STOP_RE.search(source, q.end)
        hi = stop.start() if stop is not None else len(source)
        clause = source[lo:hi]
        if rx.LIMIT_WORDS_RE.search(clause) is None:
            continue
        return _fout(
            "misdescribed",
            f"the report says no limit applies (「{m.group(0)}」); the provision sets one: 「{clause}」",
            codes=("L1.3.2" if period else "L1.2.2",),
            evidence=(Evidence(text=clause, authority_id=item.authority.id),),
        )
    return None


def restates_rule(a: Assertion) -> bool:
    """Whether an ``application`` still states the provision's rule: a two-character modal
    (可以/应当/有权/不得…) and no conviction (构成X罪 applies a 分则 article to the case)."""
    return (
        a.modality is not None and len(a.modality) >= 2 and rx.CONVICTION_RE.search(a.text) is None
    )


def paraphrase_parts(
    item: JudgeItem, th: Thresholds, *, as_role: str | None = None
) -> AxisOutcome | None:
    """``misdescribed`` when a part of the paraphrase is changed (module docstring), else None.

    Args:
        item: a citation whose assertion's role is in :data:`FIDELITY_ROLES` (others: None).
        th: ``paraphrase_consequence_min``, ``paraphrase_same_condition``.
        as_role: judge the words as this role (an application that restates a rule is
            judged as a paraphrase: :func:`restates_rule`).

    Returns:
        The fidelity outcome naming the part, with the provision's words as evidence; None
        when every part that can be compared agrees (the other fidelity checks then run).
    """
    a = assertion_of(item)
    role = as_role or (a.role if a is not None else None)
    if a is None or role not in FIDELITY_ROLES or role == "quotation" or not a.text:
        return None
    cited = item.authority.text or (item.record.text if item.record is not None else "")
    if not cited:
        return None
    said = normalize(a.text)
    if said and said in normalize(cited):
        return None  # the provision's own words, verbatim: no part of it can be changed
    return (
        _payer_changed(a, item, cited, th)
        or actor_changed(a, item, cited, th)
        or basis_changed(a, item, cited, th)
        or _consequence_changed(a, item, cited, th)
        or _polarity_reversed(a, item, cited, th)
        or _limit_denied(a, item, cited)
    )


def reference_applicability(
    item: JudgeItem, store: AuthorityStore, *, asked: bool = False
) -> AxisOutcome | None:
    """Applicability of a ``reference``: the charge table decides a 刑法 分则 article when the
    words after it name a charge (依照…第二百六十六条…之规定，判决如下：被告人犯盗窃罪 → the
    article defines 诈骗罪: ``irrelevant`` with 第二百六十四条); otherwise None when the report
    answers a question (``asked``: the question is then judged as the proposition) or
    ``skipped`` — a bare reference states nothing the provision must support."""
    from verifiers.conditions import charge_rule  # conditions imports facts; no cycle here

    rec = item.record
    if rec is not None and rec.instrument == CRIMINAL_LAW and is_special_part(rec.article):
        cit = item.citation
        said = cit.assertion.text if cit.assertion is not None else cit.claim
        if charge_table(store).find(said):
            # the decision the reference is for (every defendant's item), not the first clause
            got = charge_rule(replace(item, citation=cit.model_copy(update={"claim": said})), store)
            if got is not None:
                return got
    if asked:
        return None  # the question is the proposition: the retrieval test judges it
    return outcome(
        "applicability",
        "skipped",
        "a reference (依照…之规定) states nothing the provision must support; existence only",
    )


def _numberless(
    words: str, instrument: str, hits: list[tuple[ArticleRecord, float]], th: Thresholds
) -> CheckResult:
    """A of a whole-law claim with no number (「劳动者有权获得工伤赔偿」).

    Word overlap cannot tell a wrong numberless claim from a right one (a wrong claim shares
    as many words with the nearest article as a right one), so it only names the pin: the
    best-ranked article holding ``th.whole_pin_containment`` of the claim's words (a claim of
    at least ``th.whole_pin_min_chars`` characters: a short clause is held by any long list) gives A
    ``supports`` with that pin; anything else is ``skipped`` (not judged, never a pass, never a
    flag) with the rationale that no article of the instrument was found stating the claim.
    """
    held = max(
        ((containment(words, rec.text), rec) for rec, _ in hits),
        key=lambda h: h[0],
        default=None,
    )
    topic = claim_topic(words)
    if (
        held is not None
        and len(words) >= th.whole_pin_min_chars
        and held[0] >= th.whole_pin_containment
        and not (topic and containment(topic, held[1].text) < th.applicability_partial_relevance)
    ):
        # (the claim's topic must be the article's too: 物业管理条例第十二条 holds every word of
        # 「物业服务费的调整，应当经专有部分占建筑物总面积2/3以上的业主且占总人数2/3以上的业主同意」
        # but 物业服务费 — its 2/3 majority is for 第十一条（五）（六）; review seed 35, harmful)
        rec = held[1]
        return CheckResult(
            axis="applicability",
            label="supports",
            score=score_for("applicability", "supports"),
            rationale=(
                f"the claim is held by {instrument}第{rec.article}条 ({WHOLE_PIN_MARK}: "
                "the pin the report should give)"
            ),
            evidence=(Evidence(text=rec.text[:120], authority_id=rec.key),),
        )
    return CheckResult(
        axis="applicability",
        label="skipped",
        score=None,
        rationale=(
            f"not assessed: no article of 《{instrument}》 was found stating the claim "
            "(a whole instrument cited for a rule with no number; the words alone cannot "
            "tell whether it says so — cite the article)"
        ),
    )


def _same_figure(q: Quantity, h: Quantity) -> bool:
    """The claim's figure ``q`` is the provision's ``h``: same value and unit, or a multiple
    written as a percentage (三倍 = 百分之三百)."""
    if q.unit == h.unit:
        return abs(h.value - q.value) < 1e-9
    units = {q.unit, h.unit}
    if units == {"倍", "%"}:
        times, pct = (q, h) if q.unit == "倍" else (h, q)
        return abs(times.value * 100 - pct.value) < 1e-9
    return False


def _figure_units(rec: ArticleRecord) -> list[tuple[int | None, int | None, str, str]]:
    """``(款, 项, text for its figures, text for its words)`` of each 款 and 项 of ``rec``
    (款 None for an article of one 款; a 项 is read with its 款's lead)."""
    out: list[tuple[int | None, int | None, str, str]] = []
    many = len(rec.paragraphs) > 1
    for k, p in enumerate(rec.paragraphs, start=1):
        para = k if many else None
        out.append((para, None, p.full_text, p.full_text))
        for j, item in enumerate(p.items, start=1):
            out.append((para, j, item, p.text + item))
    return out


def _figure_holder(
    words: str,
    want: Sequence[Quantity],
    records: Sequence[ArticleRecord],
    th: Thresholds,
) -> CheckResult | None:
    """A of a whole-law claim whose figures no retrieved article states in full, when some
    款/项 of the instrument (``records``, every article) states at least one of them
    (:func:`_same_figure`) and holds ``th.whole_figure_containment`` of the words: the
    instrument has the rule, so never a "not found" note. The 款/项 stating the most figures
    (then holding most words; a 项 before its 款) is named with
    :data:`~governor.core.labels.WHOLE_FIGURE_MARK` and the figures it lacks — A stays
    ``irrelevant`` (the claim's other figure is no article's: 「年休假为十五天」); when another
    article states as many, A is ``skipped`` (which is meant is unknown). None when no 款/项
    qualifies."""
    scored: list[tuple[int, float, ArticleRecord, int | None, int | None]] = []
    for rec in records:
        best: tuple[int, float, int | None, int | None] | None = None
        for para, item, figures, body in _figure_units(rec):
            have = quantities(figures)
            n = sum(1 for q in want if any(_same_figure(q, h) for h in have))
            if not n:
                continue
            c = containment(words, body)
            if c < th.whole_figure_containment:
                continue
            # the narrowest unit wins a tie (the 项 over its 款)
            if best is None or (n, c) > best[:2] or ((n, c) == best[:2] and item):
                best = (n, c, para, item)
        if best is not None:
            scored.append((best[0], best[1], rec, best[2], best[3]))
    if not scored:
        return None
    scored.sort(key=lambda t: (t[0], t[1]), reverse=True)
    n, c, rec, para, item = scored[0]
    tied = len(scored) > 1 and scored[1][0] == n
    pin = f"第{rec.article}条" + (f"第{para}款" if para else "") + (f"第{item}项" if item else "")
    unit = next(figures for k, j, figures, _ in _figure_units(rec) if (k, j) == (para, item))
    have = quantities(unit)
    missing = [q.text for q in want if not any(_same_figure(q, h) for h in have)]
    if tied:
        # several articles state the figure: the instrument holds it, which article is meant
        # the words do not say — nothing is named, nothing flagged
        return CheckResult(
            axis="applicability",
            label="skipped",
            score=None,
            rationale=(
                f"not assessed: several articles of 《{rec.instrument}》 state the claim's "
                f"figures in part (first {pin}); none states them all"
            ),
        )
    return CheckResult(
        axis="applicability",
        label="irrelevant",
        score=score_for("applicability", "irrelevant"),
        rationale=(
            f"no article of 《{rec.instrument}》 holds the claim ({'、'.join(missing)}); "
            f"{rec.instrument}{pin} states {n} of its figures and holds {c:.2f} of its words "
            f"({WHOLE_FIGURE_MARK}; it lacks {'、'.join(missing)})"
        ),
        evidence=(Evidence(text=rec.text[:120], authority_id=rec.key),),
    )


_CONDITION_HEAD = ("如果", "假如", "倘若", "若", "只要", "凡", "当", "在")
"""Words that open a conditional clause (「如果…，则…」, 「在…期间，」)."""
_CONDITION_TAIL = ("后", "时", "前", "期间", "以前", "以后", "之前", "之后")
"""Endings of a clause that states a time (「结婚两年后，」); the 「……的，」 trigger clause
(:mod:`governor.authorities.structure` conventions) is :data:`_TRIGGER`."""


_TRIGGER = re.compile(r"[^。；;！？!?]*?的[，,]")
"""A 「……的，」 trigger clause, from the start of its sentence (every clause of it: 「男性年满
60周岁、女性年满50周岁，且累计缴费满15年的，」)."""
_THRESHOLD = re.compile(r"满$")
"""满 (年满/未满/不满/满) right before a number: a threshold of a condition (「累计缴费满十五年
才能领取」)."""


def _condition_spans(words: str) -> list[tuple[int, int]]:
    """Spans of ``words`` that state conditions: a 「……的，」 trigger clause with the clauses of
    its sentence before it, a clause opening with 如果/若/在… or ending with 后/时… before a
    comma; the rest is the claim's consequence."""
    out = [(m.start(), m.end()) for m in _TRIGGER.finditer(words)]
    for m in re.finditer(r"[^，,；;。！？!?]+", words):
        clause = m.group(0).strip()
        follows = words[m.end() : m.end() + 1]
        if clause.startswith(_CONDITION_HEAD) or (
            follows and follows in "，,;；" and clause.endswith(_CONDITION_TAIL)
        ):
            out.append((m.start(), m.end()))
    return out


def _same(q: Quantity, have: tuple[Quantity, ...]) -> bool:
    """``q`` is one of ``have`` (:func:`_same_figure`: 三倍 = 百分之三百)."""
    return any(_same_figure(q, h) for h in have)


_AFTER = ("后", "以后", "之后")
"""After a period (「结婚两年后」): the time from which a rule applies, a condition."""
_CALENDAR_MONTH = re.compile(r"^[0-9０-９一二三四五六七八九十]+月$")
"""「1月」, 「十二月」 with no 个: a month of the year (今年1月借款), not a period."""


_TOPIC_END = re.compile(r"应当|可以|须|必须|不得|需要|需")
TOPIC_MIN_CHARS = 4
"""A claim's topic shorter than this (normalised characters) is not judged."""


def claim_topic(words: str) -> str:
    """What a rule-claim is about: its words before the first modal (「物业服务费的调整，应当经…
    同意」 → 「物业服务费的调整」), or 「」 when that is shorter than :data:`TOPIC_MIN_CHARS` or
    holds a figure (then it is a condition, judged by the figures). Read for a claim the figures
    do not judge (:func:`_numberless`); a claim with figures is pinned by them (a topic in
    other words — 法定节假日 for 法定休假日 — is no reason to call it unsupported)."""
    m = _TOPIC_END.search(words)
    head = words[: m.start()].strip(" ，,") if m is not None else ""
    if len(normalize(head)) < TOPIC_MIN_CHARS or quantities(head):
        return ""
    return head


def rule_numbers(
    words: str, question: str
) -> tuple[tuple[Quantity, ...], tuple[Quantity, ...], tuple[Quantity, ...]]:
    """The numbers a whole-law claim states (value and unit, :func:`verifiers.facts.quantities`;
    a month of the year 「1月」 is no number of a rule), split into ``(conditions,
    consequences, facts)``.

    A number in a conditional clause (:func:`_condition_spans`: 「男性年满60周岁…累计缴费满15年
    的，」, 如果…, 满N年) is a condition, any other a consequence (「年休假为十五天」, 「处10万元
    以上100万元以下的罚款」). A condition's number the question also holds (「结婚两年后离婚」
    for 「我们结婚两年了」) is the asker's fact: ``facts``, left out of the other two.
    """
    facts = quantities(question) if question else ()
    spans = _condition_spans(words)
    c: list[Quantity] = []
    k: list[Quantity] = []
    f: list[Quantity] = []
    for q in quantities(words):
        if _CALENDAR_MONTH.match(q.text):
            continue
        cond = (
            any(a <= q.start < b for a, b in spans)
            or _THRESHOLD.search(words[: q.start]) is not None
            or words[q.end : q.end + 2].startswith(_AFTER)
        )
        if cond and _same(q, facts):
            f.append(q)
        else:
            (c if cond else k).append(q)
    return tuple(c), tuple(k), tuple(f)


def _instrument_candidates(
    words: str,
    instrument: str,
    store: AuthorityStore,
    hits: list[tuple[ArticleRecord, float]],
    *,
    as_of: date,
) -> tuple[list[ArticleRecord], tuple[ArticleRecord, ...]]:
    """The articles searched for a whole-law claim, and all articles of the instrument: the
    retriever's ``hits`` first, then the :data:`WHOLE_K` best of the whole instrument by
    IDF-weighted containment (:func:`verifiers.textsim.pooled_containment`, the IDF over the
    instrument's articles, so the claim's words few articles use — 年休假, 养老金 — weigh
    most; a layperson's words no article uses do not dilute it)."""
    arts = store.articles(instrument, as_of=as_of)
    cands = [rec for rec, _ in hits]
    if arts:
        pooled = pooled_containment(words, [r.text for r in arts])
        order = sorted(range(len(arts)), key=lambda i: -pooled[i])[:WHOLE_K]
        seen = {r.key for r in cands}
        cands += [arts[i] for i in order if arts[i].key not in seen and pooled[i] > 0.0]
    return cands, arts


def whole_instrument_outcome(
    cit: Citation,
    instrument: str,
    store: AuthorityStore,
    retriever: Retriever,
    *,
    as_of: date,
    th: Thresholds,
    question: str = "",
) -> tuple[CheckResult, CheckResult, Suggestion | None]:
    """F and A of a law cited whole for a specific rule (role ``whole_instrument``).

    The claim's own numbers (:func:`rule_numbers`: the asker's facts in its conditions, from
    ``question``, left out) are looked for in the articles of ``instrument`` best ranked for the claim. The first
    that states every one
    (value and unit: 30天 = 三十日) and holds ``applicability_min_relevance`` of its words (a
    paraphrase in other words: 员工/雇主 for 劳动者/用人单位) is the article the report should
    pin (A ``supports``, named in the rationale and the evidence). An article (of those or of
    the instrument's best by IDF-weighted containment, :func:`_instrument_candidates`) that
    states the claim's consequence numbers and some of its conditions' numbers, lacking only
    other numbers of a condition, leaves the claim not assessed (A ``skipped``, a ``no_pin`` gap): the absence
    of a condition the law sets elsewhere (法定退休年龄) proves nothing. Any other claim → A
    ``irrelevant`` (L1.1.2, 「no article of 《X》 holds …」): unsupported by the instrument
    cited. A claim with no number of its own (「有权获得工伤赔偿」, or only the asker's facts) is
    judged by :func:`_numberless`: pinned only at ``th.whole_pin_containment``, else ``skipped``
    — unless its only numbers were the asker's facts: they are then looked for as the claim's
    (an article stating them and the words is the pin: 劳动法第四十五条 for 「连续工作满一年后，
    享有带薪年休假」 asked about 满1年), and with no article found it is flagged as above
    (「如果…连续三个月离开工作岗位，公司有权解除」 for a question about 三个月).

    Returns:
        ``(fidelity, applicability, suggestion)``; fidelity is ``not_assessed`` (no article
        cited to compare with); the suggestion is the best-ranked article when the claim is
        flagged and it shares the claim's words (at half confidence: a guess, not proof).
    """
    a = cit.assertion
    words = a.text if a is not None else cit.claim
    f = CheckResult(
        axis="fidelity",
        label="not_assessed",
        score=None,
        rationale="a whole instrument is cited: no article to compare the words with",
    )
    hits = retriever.search(words, instrument=instrument, as_of=as_of, k=WHOLE_K)
    conds, cons, facts = rule_numbers(words, question)
    want = conds + cons
    if not want:
        held = _numberless(words, instrument, hits, th)
        if held.label == "supports" or not facts:
            return f, held, None
        # its only numbers are the asker's facts: before they are read as the claim's and
        # flagged (below), an article stating them is the pin (fresh review 45, harmful:
        # 「根据中国劳动法，雇员在连续工作满一年后，享有带薪年休假的权利」 for a question about 满1年
        # got 「《劳动法》中未见上述规定」; 劳动法第四十五条 「连续工作一年以上的，享受带薪年休假」)
        want = facts
    for rec, _ in hits if want else ():
        if not all(_same(q, quantities(rec.text)) for q in want):
            continue
        if containment(words, rec.text) < th.applicability_min_relevance:
            continue  # the numbers agree: a share of the words in other wording is enough
        ok = CheckResult(
            axis="applicability",
            label="supports",
            score=score_for("applicability", "supports"),
            rationale=f"the claim is held by {instrument}第{rec.article}条 (the pin the report should give)",
            evidence=(Evidence(text=rec.text[:120], authority_id=rec.key),),
        )
        return f, ok, None
    # an article holding the claim's consequence numbers and some of its conditions' numbers
    # (and ``applicability_partial_relevance`` of its words), lacking only other numbers of a
    # condition (社会保险法第十六条 「累计缴费满十五年的，按月领取基本养老金」 for
    # 「男性年满60周岁…且累计缴费满15年的，可以按月领取养老金」: the ages are the 法定退休年龄
    # it refers to): the claim is not resolved, and nothing is proven against it
    cands = _instrument_candidates(words, instrument, store, hits, as_of=as_of)[0] if want else []
    near = None
    for rec in cands:
        have = quantities(rec.text)
        if (
            all(_same(q, have) for q in cons)
            and any(_same(q, have) for q in conds)
            and containment(words, rec.text) >= th.applicability_partial_relevance
        ):
            near = rec
            break
    if near is not None:
        lacking = "、".join(q.text for q in conds if not _same(q, quantities(near.text)))
        return (
            f,
            CheckResult(
                axis="applicability",
                label="skipped",
                score=None,
                rationale=(
                    f"not assessed: no article of 《{instrument}》 was found stating the claim "
                    f"(nearest: 第{near.article}条, which states the rest but not the "
                    f"condition's {lacking}: its absence proves nothing) — cite the article"
                ),
            ),
            None,
        )
    holder = (
        _figure_holder(words, want, store.articles(instrument, as_of=as_of), th) if want else None
    )
    if holder is not None:
        # an article (款/项) of the instrument states the claim's figure and its words: the
        # instrument holds the rule, so 「《X》中未见上述规定」 would be false (issue 22 harm
        # review: 劳动法第四十四条第（三）项 holds 百分之三百 for 法定休假日); the 款/项 is
        # named with the figures it lacks (WHOLE_FIGURE_MARK)
        return f, holder, None
    # no article found: the asker's numbers are the claim's too
    proven = want if want is facts else want + facts
    missing = "、".join(q.text for q in proven)
    bad = CheckResult(
        axis="applicability",
        label="irrelevant",
        score=score_for("applicability", "irrelevant"),
        rationale=f"no article of 《{instrument}》 holds the claim ({missing}): unsupported",
    )
    sug = None
    if hits:
        best = hits[0][0]
        auth = store.authority(best)
        if auth is not None and containment(words, best.text) >= th.fidelity_min_overlap:
            sug = Suggestion(
                authority=auth,
                score=0.5 * containment(words, best.text),
                reason="the article of the instrument nearest the claim (it does not state its numbers)",
            )
    return f, bad, sug
