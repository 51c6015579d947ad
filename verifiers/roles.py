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
from verifiers.textsim import containment, normalize

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


def _source_pairs(source: str) -> list[tuple[str, str, int]]:
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
        for scond, scons, _ in _source_pairs(source):
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
        for scond, scons, _ in _source_pairs(source):
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
    if (
        held is not None
        and len(words) >= th.whole_pin_min_chars
        and held[0] >= th.whole_pin_containment
    ):
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


def whole_instrument_outcome(
    cit: Citation,
    instrument: str,
    store: AuthorityStore,
    retriever: Retriever,
    *,
    as_of: date,
    th: Thresholds,
) -> tuple[CheckResult, CheckResult, Suggestion | None]:
    """F and A of a law cited whole for a specific rule (role ``whole_instrument``).

    The articles of ``instrument`` best ranked for the claim are read; the first that states
    every number of the claim (value and unit, :func:`verifiers.facts.quantities`: 30天 =
    三十日) and holds ``applicability_min_relevance`` of its words (a paraphrase in other words:
    员工/雇主 for 劳动者/用人单位) is the article the report should pin (A
    ``supports``, named in the rationale and the evidence). None → A ``irrelevant`` (L1.1.2,
    「no article of 《X》 holds …」): the claim is unsupported by the instrument cited. A claim
    with no number (「有权获得工伤赔偿」) is judged by :func:`_numberless`: pinned only at
    ``th.whole_pin_containment``, else A ``skipped`` with the rationale that no article was
    found stating it — never flagged (overlap cannot tell its wrong claims from right ones).

    Returns:
        ``(fidelity, applicability, suggestion)``; fidelity is ``not_assessed`` (no article
        cited to compare with); the suggestion is the best-ranked article when none holds the
        claim and it shares the claim's words (at half confidence: a guess, not proof).
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
    want = quantities(words)
    if not want:
        return f, _numberless(words, instrument, hits, th), None
    for rec, _ in hits:
        have = quantities(rec.text)
        if not all(any(_same_figure(q, h) for h in have) for q in want):
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
    holder = _figure_holder(words, want, store.articles(instrument, as_of=as_of), th)
    if holder is not None:
        # an article (款/项) of the instrument states the claim's figure and its words: the
        # instrument holds the rule, so 「《X》中未见上述规定」 would be false (issue 22 harm
        # review: 劳动法第四十四条第（三）项 holds 百分之三百 for 法定休假日); the 款/项 is
        # named with the figures it lacks (WHOLE_FIGURE_MARK)
        return f, holder, None
    missing = "、".join(q.text for q in want) or "its words"
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
