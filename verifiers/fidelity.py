"""Fidelity (F), offline: does the report describe the cited provision correctly?

Labels (SPEC §3): ``faithful`` 1.0 · ``partially_faithful`` 0.5 (an outcome-relevant
condition, exception or 但书 omitted; a quote cut out of context) · ``misdescribed`` 0.0 (wrong
content, numbers, periods, amounts, modality, or content of another provision) ·
``not_assessed`` NA (the report says nothing about the content).

What is compared: the citation's description (what the report says the provision says); for
``P（《X》第N条）`` with no description, the claim P when it restates the provision. The source
is the whole article plus the texts of the other citations of the same list (a description
shared by 《X》第一条、第二条 is judged against both). Text is compared after NFKC folding
(full/half width), with punctuation and whitespace removed (:mod:`verifiers.textsim`).

Roles (issue 21): Fidelity judges the ``quotation`` and ``paraphrase`` roles of the citation's
:class:`~governor.core.models.Assertion` (``definition`` and ``procedure`` as paraphrases); an
``application`` only on a number in the provision's own wording; ``reference``, ``range`` and
``whole_instrument`` are ``not_assessed`` and an unreadable assertion is ``not_assessed`` with
its reason (:func:`_by_role`); an ``application`` that restates a rule to the reader (a modal,
no conviction: 「您可以在…六十日内申请」) is judged as a paraphrase. Before the text checks, a paraphrase is compared part by part
with the provision (:func:`verifiers.roles.paraphrase_parts`: payer, consequence of a verbatim
condition, a denied limit → ``misdescribed``).

Checks, in order; the first failure decides:

1. every quotation must be in the source (:data:`QUOTE_OK` of its characters verbatim), else
   ``misdescribed`` L1.1.2 (with the provision that holds the quote as suggestion);
2. the description's overlap with the source is the IDF-weighted share of its content
   bigrams found there (weights over the articles of the cited instrument version, so shared
   vocabulary such as the law's own name counts little);
3. when the description talks about the provision (overlap ≥ ``fidelity_min_overlap``, or a
   matched quote, or the statement of a case application): every number, period, amount and
   ratio must agree with the source (L1.3.2 for periods, L1.2.2 otherwise) and modality
   (应当/可以/不得/有权/无权) must not flip (L1.2.2) — PRC drafting conventions
   (立法技术规范（试行）, 全国人大常委会法工委 2009). A number must also agree with the
   source clause the description restates, not only with the article
   (:func:`verifiers.facts.number_mismatches` rule 2: 劳动法第四十四条 pays 百分之三百 for
   法定休假日; its 百分之二百 is for 休息日). A quantity in the source's own wording is judged
   however much else the description says (anchored);
3b. a clause that restates the source verbatim but for one opposed term (有效/无效,
   连带/一般, 以上/以下, 不得/可以, an added or dropped 不 …:
   :func:`verifiers.facts.polarity_swaps`, term list and sources in
   :data:`verifiers.patterns.OPPOSITIONS`) → ``misdescribed`` L1.2.2 with the source's term as
   evidence (L1.1.2 with a suggestion when another provision holds the description as
   written);
3g. a clause that restates one clause of the provision (``clause_align_min`` of its other words
   in that clause) and says the opposite of it (:mod:`verifiers.clauses`): a denial
   (不包括/不属于/无须…) of what the clause states with no negation (民法典第一千零六十三条
   「个人财产不包括一方的婚前财产」) or a grant (可以/应当) of what it denies (劳动合同法第四十二条
   「…医疗期内的，用人单位可以解除劳动合同」), both of two remedies the clause makes a choice (第五百八十八条
   「定金和违约金可以同时主张」 for 「可以选择适用违约金或者定金条款」), 「不论/并不看 X的轻重」 for a
   rule whose article grades the consequence by X (刑法第二百三十四条 「致人重伤的，…」), or a quoted
   clause that no clause of the provision reads like (``clause_quote_min``), or that swaps one
   of its words for another of the provision's (继承法第五条 「有遗赠的」 for 「有遗嘱的」) →
   ``misdescribed`` L1.2.2, the provision's clause quoted; one sort's rule stated for the whole
   kind, its opening modifier dropped where the article sets rules for several sorts (继承法第十七条
   「自书遗嘱由遗嘱人亲笔书写」 as 「遗嘱应当由遗嘱人亲笔书写」: :func:`verifiers.clauses.widened_kinds`)
   → ``partially_faithful`` L1.2.2;
4. another provision of the same instrument that the description matches clearly better
   (by ``fidelity_other_margin``, and at least :data:`OTHER_MATCH`) and that also holds more
   of it — more of its words, or its text near-verbatim where the cited one does not
   (:func:`word_share`, :func:`~verifiers.textsim.verbatim_share`) → ``misdescribed``
   L1.1.2 with that provision as suggestion. Bigram overlap alone is fooled by fragments
   across words: 「违约方应当赔偿损失」, shared by 民法典第五百七十七条、第五百八十四条, is a
   restatement they support, not the content of 第五百九十一条 (「对方应当…损失…赔偿」).
   The suggestion keeps its confidence only when the description is that provision's text
   near-verbatim; a paraphrase in the instrument's vocabulary gets half
   (:func:`paraphrase_confidence`: which provision it meant is a guess);
3d. a paraphrase stating un-negated a consequence the cited provision (the pinned 款 when
   one is pinned) attaches only in the negative (「机动车驾驶人应当承担赔偿责任」 for 道路交通安全法
   第七十六条第二款's 「机动车一方不承担赔偿责任」: :func:`reversed_consequence`) →
   ``misdescribed`` L1.2.2;
3e. a sanction naming a kind of penalty the cited provision does not impose while imposing one
   of its own (「处7年以上有期徒刑或者无期徒刑」 for 刑法第一百三十三条: :func:`invented_penalty_kinds`),
   for a paraphrase or an application → ``misdescribed`` L1.2.2;
4b. another article's rule: the cited provision lacks some of the paraphrase's content words and
   another article of the instrument holds every one of them, ``key_terms_other_share`` of all
   and covers a sentence of it (:func:`key_terms_elsewhere`) → ``misdescribed`` L1.1.2 with
   that article as suggestion;
4c. items listed under the provision's 下列情形 that it does not list, half or more of them
   (:func:`invented_items`) → ``misdescribed`` L1.1.2;
4d. fewer of them (each quoted, up to two; the list may stand on the lines after the lead:
   :attr:`~governor.core.models.Assertion.items`) → ``partially_faithful`` L1.1.2;
4e. an exception (但…除外) or a kind of sanction (吊销, 拘留 …) the provision does not make
   (:mod:`verifiers.list_items`) → ``misdescribed``;
3h. (after 4c) a clause that restates one clause of the provision (``clause_align_min`` of its
   other words, both ways) with another party in it (劳动合同法第四十六条（三） 「劳动者依照本法第四十条
   规定解除劳动合同的」 for 「用人单位…」; a counterpart the clause does not name, 物业管理条例第二十一条
   「应当与物业买受人签订…」: :func:`verifiers.clauses.swapped_parties`) or with cross-references the
   clause does not make (国家赔偿法第三十五条 「有本法第三条、第四条规定情形之一」 for 「第三条或者第十七条」:
   :func:`verifiers.clauses.changed_references`) or with another term of the law at the same place
   (社会保险法第四十八条 「参加职工基本养老保险」 for 「…基本医疗保险」: :func:`verifiers.term_swap.swapped_terms`)
   → ``misdescribed`` L1.2.2, the clause quoted; after step 4 so that a clause another article
   states is that article's;
5. overlap below ``fidelity_min_overlap``: a description that applies the provision to the
   facts of a case (小王, 甲公司, 你, 本案…) states nothing checkable about the text →
   ``not_assessed``; otherwise ``misdescribed`` L1.1.2 (content not in the provision);
6. a description that restates the rule a 但书 restricts (但是…, 但…除外, …的除外) without
   any exception marker → ``partially_faithful`` L1.2.3 (L2.1.5 when the rule is quoted);
7. a description that asserts the rule universally (在任何情况下/一律…, words the source
   does not use) while the source is limited (a leading condition ``……的，``, 仅/限于,
   下列情形…) that the description does not contain → ``partially_faithful`` L1.1.2;
8. a description that repeats a consequence of the source clause it restates verbatim
   (modal + predicate: 「可以解除劳动合同」) but omits most of an outcome-relevant condition of
   that clause (「……的，」, 提前…, 经…同意, 在…期间, an act 「…后」; SPEC §3 "omits an
   outcome-relevant condition": :func:`verifiers.facts.dropped_conditions`) →
   ``partially_faithful`` L1.2.2 (L1.2.3 for an exception 除…外); a paraphrase of the
   consequence is not judged;
8b. a paraphrase's 「……的」 condition in the provision's wording (``fidelity_condition_restates`` of
   its words) with words the provision lacks (「逆向行驶的机动车发生交通事故的」 for 道路交通安全法
   第七十六条: :func:`foreign_condition`) → ``partially_faithful`` L1.2.2 (the words may be a fact
   the provision does not address or its condition in other words);
8c. one of the provision's 下列情形 items the report lists with ``fidelity_consequence_foreign``
   content words the provision lacks (「故意犯罪或者抗拒抓捕、逃避伤害的」 for 工伤保险条例第十六条
   「故意犯罪的」: :func:`widened_items`) → ``partially_faithful`` L1.1.2;
8d. a paraphrase's consequence (its modal and the clause it governs) in the provision's wording
   but with ``fidelity_consequence_foreign`` content words the provision lacks (「债权人可以向人民法院
   申请执行」 for 民法典第五百三十五条: :func:`foreign_consequence`) → ``partially_faithful`` L1.2.2;
   ``misdescribed`` when the paraphrase's condition holds one of the provision's conditions
   verbatim, whose own consequence is then quoted (「两个保证人没有约定保证份额的，应当平均分摊」 for
   民法典第六百九十九条 「没有约定保证份额的，债权人可以请求任何一个保证人…」: :func:`_own_consequence_for`);
8e. a restatement that keeps the provision's negation but puts another predicate after it,
   one the provision grants (「退休后不再享受医疗保险待遇」 for 社会保险法第二十七条 「不再缴纳基本医疗
   保险费，…享受基本医疗保险待遇」: :func:`verifiers.facts.denied_grants`) → ``misdescribed``
   L1.2.2;
8f. a count of a noun the provision counts otherwise (「一个子女」 for 人口与计划生育法第十八条
   「三个子女」: :func:`verifiers.facts.count_mismatches`), when the description is about the
   provision → ``misdescribed`` L1.2.2;
8g. a restated condition without the listed situations it is limited to (「因租赁、借用等情形」,
   民法典第一千二百零九条), for a question that names none of them
   (:func:`verifiers.facts.dropped_causes`) → ``partially_faithful`` L1.2.2;
8h. a clause of the report's words that the cited provision does not hold and another article
   of the instrument holds near-verbatim (工伤保险条例第十四条 given 第十七条第二款's
   「事故伤害发生之日或者被诊断、鉴定为职业病之日起1年内」: :func:`foreign_clause_outcome`,
   :mod:`verifiers.foreign_clauses`) → ``partially_faithful`` L1.1.2 naming that article,
   ``misdescribed`` when nothing else of the words is the cited provision's;
9. otherwise ``faithful``, with the best-matching source sentence as evidence.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Literal

from governor.authorities import ArticleRecord, AuthorityStore
from governor.authorities.charges import CRIMINAL_LAW, charge_table
from governor.authorities.store import tokenize_cached
from governor.core.config import DEFAULT_THRESHOLDS, Thresholds
from governor.core.models import (
    Assertion,
    CheckResult,
    Citation,
    Evidence,
    Span,
    Suggestion,
    TaxonomyCode,
)
from governor.core.ports import Retriever
from verifiers.clauses import (
    ClauseContradiction,
    altered_quote_clauses,
    changed_references,
    clause_contradictions,
    ignored_grades,
    swapped_parties,
    widened_kinds,
)
from verifiers.fact_clauses import FACT_CLAUSE_LEAD, omitted_fact_clause
from verifiers.facts import (
    NumberMismatch,
    Proviso,
    Quantity,
    anchored_mismatches,
    count_mismatches,
    denied_grants,
    dropped_causes,
    dropped_conditions,
    mentions_exception,
    modality_flips,
    number_mismatches,
    polarity_swaps,
    provisos,
    quantities,
)
from verifiers.foreign_clauses import covers_all, foreign_clauses, report_clauses
from verifiers.foreign_clauses import rationale as foreign_rationale
from verifiers.judge import AxisOutcome, JudgeItem, list_pool, outcome
from verifiers.list_items import (
    PENALTY_KINDS,
    foreign_items,
    invented_exception,
    invented_sanction_kinds,
    items_rationale,
    recited,
)
from verifiers.patterns import (
    CASE_FACTS,
    LIABILITY_KIND,
    LIST_ITEM_MARK,
    MODALS,
    NEGATED_CONSEQUENCE,
    SANCTION_AFTER,
    SCOPE,
    UNIVERSAL,
)
from verifiers.pins import restated_sibling
from verifiers.roles import (
    FIDELITY_ROLES,
    MIN_CONDITION,
    PARTS_LEAD,
    paraphrase_parts,
    restates_rule,
    source_pairs,
)
from verifiers.sentencing import foreign_acts, merged_tiers
from verifiers.spliced_tiers import spliced_tiers
from verifiers.suggest import (
    NEAR_VERBATIM,
    IdfCache,
    better_provision,
    search_query,
    strip_caption,
)
from verifiers.term_swap import article_uses, swapped_terms
from verifiers.textsim import (
    BigramIdf,
    best_span,
    containment,
    contains_phrase,
    normalize,
    quote_match,
    sentences,
    verbatim_share,
    weighted_containment,
)
from verifiers.versions import version_drift

QUOTE_OK = DEFAULT_THRESHOLDS.fidelity_quote_ok
"""A quote matching at least this share of its characters verbatim counts as found."""
RESTATES_RULE = DEFAULT_THRESHOLDS.fidelity_restates_rule
"""Share of a 但书's rule clause the description must contain to count as restating it."""
OTHER_MATCH = DEFAULT_THRESHOLDS.fidelity_other_match
"""Another provision must match at least this much to be named as what the report describes."""
VERBATIM = DEFAULT_THRESHOLDS.fidelity_verbatim
"""Overlap at or above which the description is the provision's own text (no other provision
can fit it clearly better)."""


CONTENT_ELSEWHERE = (
    "the description matches ",
    "the description is the text of ",
    "the description shares little",
    "quoted text ",
)
"""How a ``misdescribed`` rationale opens when the report's words are not this provision's
content at all (another provision's, or little of its own: steps 1, 4, 5), as opposed to one
number, modal or term changed in its own text (:func:`verifiers.verify.bare_repeats`)."""


def _own_words(cit: Citation) -> Assertion | None:
    """``cit``'s assertion when it restates the provision in the report's own words — a role
    Fidelity judges (:data:`verifiers.roles.FIDELITY_ROLES`) other than ``quotation``, with no
    quoted text — else None. Steps 8b, 8d and 8g compare such words with the provision's
    conditions and consequences; a quotation is judged as the text itself (steps 1–3)."""
    a = cit.assertion
    if a is None or a.role not in FIDELITY_ROLES or a.role == "quotation" or cit.quotes:
        return None
    return a


def _out(
    label: str,
    rationale: str,
    *,
    codes: tuple[TaxonomyCode, ...] = (),
    evidence: tuple[Evidence, ...] = (),
    suggestion: Suggestion | None = None,
) -> AxisOutcome:
    return outcome(
        "fidelity", label, rationale, codes=codes, evidence=evidence, suggestion=suggestion
    )


def _evidence(item: JudgeItem, source: str, start: int, end: int) -> Evidence:
    """Evidence quoting ``source[start:end]``; the span indexes ``item.authority.text`` when
    ``source`` is that text."""
    span = Span(start=start, end=end) if source == item.authority.text else None
    return Evidence(text=source[start:end], authority_id=item.authority.id, span=span)


def _pool_evidence(
    item: JudgeItem, article: str, pool: str, start: int, end: int, at: int = 0
) -> Evidence:
    """Evidence for ``pool[start:end]`` (the list's texts, the article's at offset ``at``:
    :func:`verifiers.judge.list_pool`); spanned when it lies in the article and the article is
    the authority."""
    if at <= start and end <= at + len(article):
        return _evidence(item, article, start - at, end - at)
    return Evidence(text=pool[start:end], authority_id=item.authority.id)


def words(text: str) -> tuple[str, ...]:
    """Content words of ``text``: jieba search-mode tokens of two or more characters,
    normalised, without repeats (compound and parts both kept: 赔偿损失, 赔偿, 损失)."""
    return tuple(
        dict.fromkeys(w for w in (normalize(t) for t in tokenize_cached(text)) if len(w) >= 2)
    )


def word_share(desc: str, text: str) -> float:
    """Share of ``desc``'s :func:`words` that ``text`` holds (normalised), in [0, 1]."""
    ws = words(desc)
    if not ws:
        return 0.0
    t = normalize(text)
    return sum(1 for w in ws if w in t) / len(ws)


def _holds_more(desc: str, other: str, cited: str) -> bool:
    """True when ``other`` holds more of the description than ``cited`` does: more of its
    words (:func:`word_share`), or its text near-verbatim
    (:data:`~verifiers.suggest.NEAR_VERBATIM` in runs of four or more characters) where the
    cited text does not."""
    if word_share(desc, other) > word_share(desc, cited):
        return True
    return verbatim_share(desc, other) >= NEAR_VERBATIM > verbatim_share(desc, cited)


def _find(item: JudgeItem, source: str, needle: str) -> Evidence:
    at = source.find(needle)
    if at < 0:
        return Evidence(text=needle, authority_id=item.authority.id)
    return _evidence(item, source, at, at + len(needle))


CLAIM_RESTATES = DEFAULT_THRESHOLDS.fidelity_claim_restates
"""A claim (no description) is another provision's content only when at least this share of
it is in that provision and it covers at least this share of the provision's text: a claim is
the report's proposition, and short ones (「违约方应当承担违约责任」) are verbatim in hundreds
of provisions."""


CITED_HOLDS = DEFAULT_THRESHOLDS.fidelity_cited_holds
"""A description the cited provision holds this much of is another provision's content only
when it restates that provision (:func:`_restates`), not when it is a fragment of it
(「用人单位应当向劳动者支付经济补偿」 is in 劳动合同法第五十条 verbatim and says what 第四十七条
is about)."""


def _restates(claim: str, other_text: str, other: float) -> bool:
    """Whether ``claim`` restates ``other_text`` (``other`` = share of the claim in it)."""
    return other >= CLAIM_RESTATES and containment(other_text, claim) >= CLAIM_RESTATES


def described_text(item: JudgeItem, pool: str, min_overlap: float) -> str:
    """What the report says the provision says: the description, else a claim that restates
    the provision (``P（《X》第N条）``), else ``""``."""
    cit = item.citation
    desc = cit.description.strip()
    if not desc and cit.claim and containment(cit.claim, pool) >= min_overlap:
        desc = cit.claim.strip()
    return desc


PARAPHRASE_RULE = DEFAULT_THRESHOLDS.fidelity_paraphrase_rule
"""Share of a claim's content bigrams found in the rule a 但书 restricts at which the claim,
not near-verbatim, is read as a paraphrase of that rule."""
_LIMITING_PROVISO = ("不得", "不超过", "为限", "限于", "除外", "不在此限", "另有")


OTHER_SENTENCE_MARGIN = DEFAULT_THRESHOLDS.fidelity_other_sentence_margin
"""How much more of the report's words another sentence of the source must hold than the rule a
但书 restricts for the report to be restating that other sentence, not the rule."""


def restates_another_sentence(said: str, proviso: Proviso, source: str) -> bool:
    """True when ``said`` restates a sentence of ``source`` other than the one holding the
    但书 — by :data:`OTHER_SENTENCE_MARGIN` more of its bigrams — so the 但书 is not omitted
    from it. 道路交通事故处理程序规定第六十二条: 「…应当自现场调查之日起十日内制作道路交通事故
    认定书」 restates its first 款; the 但书 「但对涉及的国家秘密…应当保密」 restricts the second
    (publishing on the internet) and is no omission (issue 13 gold set, a false note)."""
    in_rule = containment(said, proviso.rule)
    other = max(
        (
            containment(said, source[a:b])
            for a, b in sentences(source)
            if not a <= proviso.start < b
        ),
        default=0.0,
    )
    return other >= in_rule + OTHER_SENTENCE_MARGIN


def paraphrase_drops_proviso(item: JudgeItem, source: str) -> AxisOutcome | None:
    """Check 6 for a paraphrase (a claim that is not the provision's words): the claim
    restates the rule a limiting 但书 restricts (:data:`PARAPHRASE_RULE` of its bigrams in the
    rule, more than in the 但书) and carries no exception marker and none of the 但书's words →
    ``partially_faithful`` L1.2.3. 「守约方可以要求赔偿全部损失，包括预期利益（《民法典》第584条）」
    drops 「但是，不得超过违约一方订立合同时预见到……的损失」 (SPEC §3: an omitted proviso)."""
    claim = strip_caption(item.citation.claim).strip()
    if len(claim) < 8 or mentions_exception(claim):
        return None
    for p in provisos(source):
        if not any(w in p.text for w in _LIMITING_PROVISO):
            continue
        in_rule = containment(claim, p.rule)
        if in_rule < PARAPHRASE_RULE or in_rule <= containment(claim, p.text):
            continue
        if contains_phrase(p.text, claim, ratio=0.3):
            continue
        if restates_another_sentence(claim, p, source):
            continue
        return _out(
            "partially_faithful",
            f"the claim restates the rule ({in_rule:.2f} of its words) but drops the 但书 "
            f"「{p.text[:60]}」",
            codes=("L1.2.3",),
            evidence=(_find(item, source, p.text),),
        )
    return None


def hard_failure(
    item: JudgeItem,
    retriever: Retriever,
    store: AuthorityStore,
    th: Thresholds,
    idf: IdfCache | None = None,
) -> AxisOutcome | None:
    """The deterministic fidelity failures (checks 1 and 3: a quote not in the source, a wrong
    number/period/amount, a flipped modality), or None. An LLM pass never overrides these."""
    return _checks(item, retriever, store, th, idf, hard_only=True)


def check_fidelity(
    item: JudgeItem,
    retriever: Retriever,
    store: AuthorityStore,
    th: Thresholds,
    idf: IdfCache | None = None,
) -> AxisOutcome:
    """Judge fidelity of one item offline (rules in the module docstring).

    Args:
        item: the citation with its resolved authority (``authority.text`` is the cited 款/项
            or the whole article; ``record.text`` the whole article).
        retriever: searches the same instrument for a provision the description fits better.
        store: turns a better provision into an :class:`Authority` suggestion.
        th: thresholds (``fidelity_min_overlap``, ``fidelity_other_margin``).
        idf: IDF tables per instrument version (plain containment when None).

    Returns:
        The fidelity outcome with taxonomy codes, evidence quoting the source and, for
        content of another provision, that provision as suggestion.
    """
    out = _checks(item, retriever, store, th, idf, hard_only=False)
    assert out is not None
    return out


def _matching_provision(
    desc: str,
    sim: float,
    item: JudgeItem,
    retriever: Retriever,
    store: AuthorityStore,
    th: Thresholds,
    table: BigramIdf | None,
) -> tuple[Suggestion | None, float]:
    """The provision of the cited instrument the description fits best, if it beats the
    cited one (``sim``) by ``th.fidelity_other_margin`` (IDF-weighted containment)."""
    return better_provision(
        desc,
        item,
        retriever,
        store,
        cited_score=sim,
        margin=th.fidelity_other_margin,
        reason="the description matches this provision",
        scorer=lambda d, t: weighted_containment(d, t, table),
    )


def _elsewhere(
    desc: str,
    sim: float,
    item: JudgeItem,
    retriever: Retriever,
    store: AuthorityStore,
    th: Thresholds,
    table: BigramIdf | None,
    mismatches: Sequence[NumberMismatch] = (),
    *,
    polarity: bool = False,
) -> AxisOutcome | None:
    """``misdescribed`` (L1.1.2) naming another provision of the instrument that contains the
    description clearly better and states the very numbers (with ``polarity``: the very
    terms) the cited one contradicts; None when there is none (then the numbers or terms
    themselves are wrong)."""
    sug, _ = _matching_provision(desc, sim, item, retriever, store, th, table)
    if sug is None or number_mismatches(desc, sug.authority.text):
        return None
    if polarity and polarity_swaps(desc, sug.authority.text):
        return None
    other = weighted_containment(desc, sug.authority.text, table)
    theirs = quantities(sug.authority.text)
    if not all(
        any(q.unit == m.found.unit and abs(q.value - m.found.value) < 1e-9 for q in theirs)
        for m in mismatches
    ):
        return None
    return _other_text("description", sug, other, sim)


def _other_text(what: str, sug: Suggestion, other: float, sim: float) -> AxisOutcome:
    """``misdescribed`` (L1.1.2): ``what`` the report says is the text of ``sug``."""
    return _out(
        "misdescribed",
        f"the {what} is the text of {sug.authority.label} ({other:.2f}), "
        f"not of the cited provision ({sim:.2f})",
        codes=("L1.1.2",),
        suggestion=sug,
        evidence=(Evidence(text=sug.authority.text[:120], authority_id=sug.authority.id),),
    )


def _claim_elsewhere(
    item: JudgeItem,
    pool: str,
    retriever: Retriever,
    store: AuthorityStore,
    th: Thresholds,
    idf: IdfCache | None,
) -> AxisOutcome | None:
    """``misdescribed`` (L1.1.2) when a claim that shares little with the cited provision
    restates another provision of the instrument (:func:`_restates`): the text of article
    32 cited as article 36. None otherwise."""
    claim = item.citation.claim.strip()
    if not claim:
        return None
    table = idf.of(item.record) if idf is not None and item.record is not None else None
    sim = weighted_containment(claim, pool, table)
    sug, other = _matching_provision(claim, sim, item, retriever, store, th, table)
    if sug is None or not _restates(claim, sug.authority.text, other):
        return None
    return _other_text("claim", sug, other, sim)


PARAPHRASE_FACTOR = DEFAULT_THRESHOLDS.fidelity_paraphrase_factor
"""Factor on the confidence of a step-4 suggestion whose text the description is not
near-verbatim (:func:`paraphrase_confidence`): the choice between the provisions is then a
guess, as for a tie (:data:`verifiers.suggest.TIE_MARGIN`)."""


def paraphrase_confidence(sug: Suggestion, share: float) -> Suggestion:
    """``sug`` with its confidence × :data:`PARAPHRASE_FACTOR` unless the description is the
    suggested provision's text near-verbatim (``share`` =
    :func:`~verifiers.textsim.verbatim_share` ≥ :data:`~verifiers.suggest.NEAR_VERBATIM`).

    A paraphrase in the instrument's own vocabulary (「有关部门应当依法及时处理」, 「建立健全安全
    生产责任制…提高安全生产水平」) overlaps a general or procedural article's words more than the
    cited article's without being its text: the report is still ``misdescribed`` (it does not
    state the cited provision), but which provision it meant is a guess, not proof — the
    revision policy's proof for a renumber is the same near-verbatim test (SPEC §5).
    """
    if share >= NEAR_VERBATIM:
        return sug
    return sug.model_copy(update={"score": sug.score * PARAPHRASE_FACTOR})


FUNCTION_WORDS = frozenset(
    {*MODALS, "依法", "依照", "按照", "根据", "规定", "相关", "有关", "应该", "需要", "可能"}
)
"""Words that say how a rule binds or where it comes from, not what it is about: a paraphrase
that adds 应当 to 劳动合同法第四十七条 (「用人单位应当向劳动者支付经济补偿」, verbatim in 第五十条)
does not lack the article's content."""


def _first_sentence(item: JudgeItem, source: str) -> Evidence:
    """Evidence quoting the first sentence of ``source`` (the rule a note states)."""
    spans = sentences(source)
    a, b = spans[0] if spans else (0, len(source))
    return _evidence(item, source, a, b)


def lacking_words(desc: str, cited: str) -> tuple[str, ...]:
    """The :func:`words` of ``desc`` that ``cited`` does not hold (normalised), without
    :data:`FUNCTION_WORDS`; compounds among them whose parts are lacking too dropped; in
    order."""
    t = normalize(cited)
    out = [w for w in words(desc) if w not in t and w not in FUNCTION_WORDS]
    return tuple(w for w in out if not any(o != w and o in w for o in out) or len(w) <= 2)


SENTENCE_COVERED = DEFAULT_THRESHOLDS.fidelity_sentence_covered
"""Share of one of the other article's sentences the paraphrase must cover for the article to
hold its rule (:func:`key_terms_elsewhere`): 「国家提倡一对夫妻生育一个子女」 stands
verbatim in 人口与计划生育法第三十一条 but as a fragment of 「在国家提倡…期间，自愿终身只生育一个子女
的夫妻，国家发给…」 (0.3), not its rule."""


def key_terms_elsewhere(
    desc: str,
    sim: float,
    item: JudgeItem,
    retriever: Retriever,
    store: AuthorityStore,
    th: Thresholds,
    table: BigramIdf | None,
    cited: str,
) -> AxisOutcome | None:
    """Check 4b, another article's rule: the cited provision lacks some of the paraphrase's
    content words (:func:`lacking_words`) and an article of the same instrument holds every one
    of them, ``th.key_terms_other_share`` of all its words and a clearly better match
    (``th.fidelity_other_margin``, IDF-weighted) → ``misdescribed`` L1.1.2 with that article
    as suggestion (full confidence only when the paraphrase is its text near-verbatim,
    :func:`paraphrase_confidence`). None otherwise.

    「公司董事、高级管理人员不得兼任监事」 cited as 公司法第一百四十六条第二款 (disqualifications;
    no 兼任) is 第五十一条's rule; 「以出让方式取得土地使用权的，转让房地产时…补缴土地使用权
    出让金」 is not 城市房地产管理法第三十八条 (下列房地产不得转让). Searched with the lacking words
    added to the description (``th.key_terms_k`` articles): the words the cited article lacks
    are what tells the articles apart (dev LawBench silent review, issue 21).
    """
    lack = lacking_words(desc, cited)
    if not lack or item.record is None:
        return None
    query = search_query(desc + "".join(f" {w} {w}" for w in lack))
    hits = retriever.search(
        query, instrument=item.record.instrument, as_of=item.as_of, k=th.key_terms_k
    )
    for rec, _ in hits:
        if rec.article == item.record.article:
            continue
        t = normalize(rec.text)
        if not all(w in t for w in lack):
            continue
        share = word_share(desc, rec.text)
        other = weighted_containment(desc, rec.text, table)
        if share < th.key_terms_other_share or other < sim + th.fidelity_other_margin:
            continue
        auth = store.authority(rec)
        if auth is None:
            continue
        vshare = verbatim_share(desc, rec.text)
        covers = max(
            (containment(rec.text[a:b], desc) for a, b in sentences(rec.text)), default=0.0
        )
        if covers < SENTENCE_COVERED:
            continue  # a fragment of one of its sentences is not its rule
        said = (
            f"its text near-verbatim ({vshare:.2f})"
            if vshare >= NEAR_VERBATIM
            else f"not its text (verbatim {vshare:.2f})"
        )
        # named in the rationale only, never as the suggestion a renumber or a named note
        # acts on: the words are that article's, but the report's conclusion may still rest
        # on the cited one (公司法第一百四十六条 is the right basis for the 3-2 question the
        # 「不得兼任监事」 sentence answers; a renumber to 第五十一条 would move it away)
        # the reader's note states what the cited provision says (its first sentence)
        return _out(
            "misdescribed",
            PARTS_LEAD + f"the cited provision lacks 「{'、'.join(lack)}」; {auth.label} holds "
            f"every word ({share:.2f}, overlap {other:.2f} vs {sim:.2f}), {said}",
            codes=("L1.1.2",),
            evidence=(
                _first_sentence(item, cited),
                Evidence(text=rec.text[:120], authority_id=rec.key),
            ),
        )
    return None


def foreign_condition(
    conditions: Sequence[str],
    source: str,
    th: Thresholds,
    *,
    frame: Callable[[str], bool] = lambda w: False,
) -> tuple[str, tuple[str, ...]] | None:
    """``(condition, words)`` for the first of the paraphrase's 「……的」 ``conditions`` (at least
    :data:`verifiers.roles.MIN_CONDITION` characters) that restates the provision's wording —
    ``th.fidelity_condition_restates`` of its content words in ``source`` — but holds content
    words ``source`` lacks (:func:`lacking_words`); None when every condition is the
    provision's, or is the report's own wording (below the share: not judged).

    A lawyer reads the trigger of a rule first: 「逆向行驶的机动车发生交通事故的，机动车驾驶员应当
    承担事故责任」 for 道路交通安全法第七十六条 (who pays for a collision with a non-motorist) gives
    it a trigger, 逆向行驶, it does not have; 「有其他严重违反职业道德行为的」 is none of 律师法第四十九条's
    nine items. Overlap called both faithful (0.35, 0.6; dev LawBench tuning keys, issue 21).

    ``frame``: True for a word of the law's frame (:func:`law_frame`), which is not a trigger
    the report adds.
    """
    for cond in conditions:
        if len(normalize(cond)) < MIN_CONDITION:
            continue
        lack = tuple(w for w in lacking_words(cond, source) if not frame(w))
        if lack and word_share(cond, source) >= th.fidelity_condition_restates:
            return cond, lack
    return None


_CLAUSE_END = re.compile(r"[，,；;。：:\n]")


SCOPE_ARTICLE = re.compile(r"适用本(?:法|条例|规定|办法|解释)|本(?:法|条例|规定|办法|解释)适用于")
"""The words of a law's scope article (「…，适用本法」, 「本条例适用于…」)."""
SCOPE_ARTICLE_WITHIN = 3
"""A scope article is one of a law's first articles (第一条 purpose, 第二条 scope, at most 第三条):
the general provisions open every Chinese statute so; a later 「适用本法」 is one rule's
cross-reference, not the law's frame."""


def _title_or_frame(
    item: JudgeItem, store: AuthorityStore, th: Thresholds
) -> Callable[[str], bool]:
    """:func:`law_frame` of the cited law, and words of its title (「招标」 of 招标投标法)."""
    rec = item.record
    frame = law_frame(rec, store, th.fidelity_frame_share)
    title = normalize(rec.instrument) if rec is not None else ""
    return lambda w: w in title or frame(w)


def law_frame(
    record: ArticleRecord | None, store: AuthorityStore, share: float
) -> Callable[[str], bool]:
    """A predicate: True for a word of the frame every article of ``record``'s law (its
    version) stands in — a word its scope article holds (the first of its first
    :data:`SCOPE_ARTICLE_WITHIN` articles holding :data:`SCOPE_ARTICLE`, the record itself
    excepted) or one that ``share`` (``Thresholds.fidelity_frame_share``) of its articles hold (the institution it
    sets up). Such a word in a paraphrase is the law's setting, not a condition or remedy the
    report adds: 「劳动者与用人单位发生劳动争议的，…一年内向劳动争议仲裁委员会申请仲裁」 for
    劳动争议调解仲裁法第二十七条 — 第二条 reads 「用人单位与劳动者发生的下列劳动争议，适用本法」, and
    委员(会) stands in 22 of its 54 articles (review seed 33: a false alarm on the right
    article); 执行 stands in 28 of 民法典's 1,260, so 第五百三十五条's 「申请执行」 stays foreign.
    Always False when ``record`` is None. The articles are read only when a word is asked
    about (a check that found words lacking), once per word."""
    if record is None:
        return lambda w: False
    seen: dict[str, bool] = {}
    law: list[tuple[str, tuple[ArticleRecord, ...]]] = []  # (scope article, articles), read once

    def frame(w: str) -> bool:
        if w in seen:
            return seen[w]
        if not law:
            arts = store.articles(record.instrument, version_hint=record.version)
            scope = next(
                (
                    r.text
                    for r in arts[:SCOPE_ARTICLE_WITHIN]
                    if r.key != record.key and SCOPE_ARTICLE.search(r.text)
                ),
                "",
            )
            law.append((normalize(scope), arts))
        scope, arts = law[0]
        held = w in scope or (bool(arts) and sum(w in r.text for r in arts) >= share * len(arts))
        seen[w] = held
        return held

    return frame


def foreign_consequence(
    consequence: str,
    modality: str | None,
    source: str,
    th: Thresholds,
    *,
    frame: Callable[[str], bool] = lambda w: False,
) -> tuple[str, tuple[str, ...]] | None:
    """``(clause, words)`` when the paraphrase's consequence — from its ``modality`` word to the
    end of that clause (「可以向人民法院申请执行」) — restates the provision's wording
    (``th.fidelity_condition_restates`` of its content words in ``source``) but holds
    ``th.fidelity_consequence_foreign`` or more content words ``source`` lacks
    (:func:`lacking_words`; a compound whose first or last two characters the provision holds
    is not lacking: 补偿金 for 经济补偿); None otherwise. With no modal the clause is the
    consequence's last (the predicate closes a Chinese sentence: 专利法第二十五条 does not grant
    「因缺乏新颖性而不授予专利权」, it lists what is not patentable, with no reason).

    The consequence is the part of a rule a lawyer checks second, after the trigger: 民法典
    第五百三十五条 lets the creditor 「向人民法院请求以自己的名义代位行使债务人对相对人的权利」; a report's
    「债权人可以向人民法院申请执行，要求实现债权」 gives it a remedy (执行) it does not grant, and
    「债权人可以请求人民法院采取保全措施或者强制执行措施」 is no remedy of 第五百三十七条 (the
    相对人 pays the creditor directly). Both share enough words with the article to be called
    faithful on overlap (dev LawBench 3-8 chatglm2-6b 47, tuning keys, issue 21).

    Args:
        consequence: the assertion's consequence (:attr:`~governor.core.models.Assertion.consequence`).
        modality: the assertion's modal word (应当/可以/不得/有权 …), or None.
        source: the cited provision's text (the article, or the list's texts together).
        th: ``fidelity_condition_restates``, ``fidelity_consequence_foreign``.
        frame: True for a word of the law's frame (:func:`law_frame`), never lacking.
    """
    if modality and modality in consequence:
        tail = consequence[consequence.find(modality) :]
        clause = _CLAUSE_END.split(tail, maxsplit=1)[0]
    else:  # no modal: the predicate closes the sentence (「…，因缺乏新颖性而不授予专利权」)
        parts = [p for p in _CLAUSE_END.split(consequence) if p.strip()]
        clause = parts[-1] if parts else ""
    if clause.startswith("但") or clause.rstrip("。；;").endswith("除外"):
        return None  # an exception (…的除外), not a consequence granted: check 6 judges it
    if len(normalize(clause)) < MIN_CONDITION:
        return None
    src = normalize(source)
    # a compound whose head or tail the provision holds names the same thing (补偿金, 经济补偿)
    lack = tuple(
        w
        for w in lacking_words(clause, source)
        if (len(w) <= 2 or (w[:2] not in src and w[-2:] not in src)) and not frame(w)
    )
    have = {(q.value, q.unit) for q in quantities(source)}
    figures = tuple(q.text for q in quantities(clause) if (q.value, q.unit) not in have)
    if (len(lack) >= th.fidelity_consequence_foreign or figures) and word_share(
        clause, source
    ) >= th.fidelity_condition_restates:
        # a figure the provision does not state (「…后的一个月内支付劳动者工资」 for 工资支付暂行规定
        # 第九条 「…时一次付清」) is a changed consequence on its own: a period, amount or rate is
        # what the reader acts on
        return clause, tuple(dict.fromkeys((*figures, *lack)))
    return None


def _own_consequence_for(conditions: Sequence[str], source: str) -> tuple[str, str] | None:
    """``(condition, consequence)`` of the source's first 「……的，」 clause that one of the
    paraphrase's ``conditions`` holds verbatim (at least :data:`~verifiers.roles.MIN_CONDITION`
    normalised characters: 「没有约定保证份额的」 in 「两个保证人没有约定保证份额的」), the report's
    last condition first (the one its consequence follows); None when none does. Step 8d then knows the provision's consequence for the condition the report
    states (民法典第六百九十九条: 「债权人可以请求任何一个保证人…承担保证责任」, not 平均分摊)."""
    pairs = source_pairs(source)
    for cond in reversed(conditions):  # the last condition is the one the consequence follows
        for scond, scons, _ in pairs:
            s = normalize(scond)
            if len(s) >= MIN_CONDITION and s in normalize(cond):
                return scond, scons
    return None


def list_items(text: str) -> tuple[str, ...]:
    """The enumerated items of ``text`` (after each :data:`~verifiers.patterns.LIST_ITEM_MARK`
    up to the next mark or the end), stripped of closing punctuation; empty items dropped."""
    marks = list(LIST_ITEM_MARK.finditer(text))
    out: list[str] = []
    for i, m in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        item = text[m.end() : end].strip(" \t\n；;。，,：:")
        if item:
            out.append(item)
    return tuple(out)


MIN_ITEM = 6
"""Characters (normalised) a report's item needs to be judged (「醉酒或者吸毒的」 has 7)."""


def invented_items(
    desc: str, source: str, th: Thresholds, referred: Sequence[str] = ()
) -> tuple[str, ...]:
    """Items the report lists under the provision (two or more, each of :data:`MIN_ITEM`
    characters) of which at least half are in none of the provision's own items (below
    ``th.list_item_held`` of their bigrams in any), when the provision lists items itself;
    those items, else ``()``.

    A lawyer sees it at once: 「劳动者有下列情形之一的，用人单位不得解除劳动合同：（1）劳动者未按照
    劳动合同约定提供劳动的…」 for 劳动合同法第四十二条, whose items are 职业病, 医疗期, 孕期 …
    The lead sentence is verbatim, so overlap calls it faithful (dev LawBench silent review,
    issue 21).
    """
    absent, mine = _items_absent(desc, source, th, referred)
    return absent if absent and 2 * len(absent) >= len(mine) else ()


_LIST_LEAD = re.compile(r"下列[^：:。；;]{0,40}[：:]")
_ITEM_SEP = re.compile(r"[；;]")


def report_items(desc: str) -> tuple[str, ...]:
    """The items a report lists under a provision: marked ones (:func:`list_items`: （一）, 1.),
    else — after a 「下列情形之一的，…：」 lead — its 「；」-separated parts (「…：A的；B的；C的」, how
    models recite a list on one line)."""
    marked = list_items(desc)
    if len(marked) >= 2:
        return marked
    m = _LIST_LEAD.search(desc)
    if m is None:
        return marked
    parts = [p.strip(" 。，,") for p in _ITEM_SEP.split(desc[m.end() :])]
    return tuple(p for p in parts if p)


def _items_absent(
    desc: str, source: str, th: Thresholds, referred: Sequence[str] = ()
) -> tuple[tuple[str, ...], list[str]]:
    """(the report's listed items in none of the provision's items, all its listed items of
    :data:`MIN_ITEM` characters); both empty when either side lists fewer than two.
    ``referred``: texts of the articles the provision's items refer to (「因本法第二十六条第一款
    第一项规定的情形致使劳动合同无效的」): an item stating one of them is the provision's item in
    its content (劳动合同法第三十九条（五） recited as 第二十六条's 「以欺诈、胁迫的手段…」)."""
    own = list_items(source)
    mine = [i for i in report_items(desc) if len(normalize(i)) >= MIN_ITEM]
    if len(own) + len(referred) < 2 or len(mine) < 2:
        return (), []
    lead = _LIST_LEAD.search(desc)
    return foreign_items(mine, own, source, th, desc[: lead.end()] if lead else "", referred), mine


_SAME_LAW_REF = re.compile(r"本(?:法|条例|规定|办法)第(?P<art>[零〇一二三四五六七八九十百千\d]+)条")


def _referred_texts(item: JudgeItem, article: str, store: AuthorityStore) -> list[str]:
    """The texts of the articles of the same law and version that ``article`` refers to
    (「本法第二十六条」), for :func:`_items_absent`; empty without an article record."""
    rec = item.record
    if rec is None:
        return []
    out: list[str] = []
    for m in dict.fromkeys(x.group("art") for x in _SAME_LAW_REF.finditer(article)):
        other = store.article(rec.instrument, f"第{m}条", version_hint=rec.version)
        if other is not None and other.key != rec.key:
            out.extend(list_items(other.text) or [other.text])
    return out


ITEM_LEAD = "items: "
"""How a Fidelity rationale of an item the provision does not list begins (step 4d); the item
is quoted in 「」 after it."""
_ITEM_SAID = re.compile(r"^items: the report lists 「(?P<item>[^」]+)」")


def invented_item(check: CheckResult) -> str | None:
    """The item a step-4d result says the provision does not list, for the reader's note."""
    m = _ITEM_SAID.match(check.rationale)
    return m.group("item") if m is not None else None


def widened_items(desc: str, source: str, th: Thresholds) -> tuple[str, tuple[str, ...]] | None:
    """``(item, words)`` for the first item the report lists under the provision that holds one
    of the provision's own items (every content word of it) and adds
    ``th.fidelity_consequence_foreign`` or more content words the provision lacks (as
    :func:`foreign_consequence` counts them); None otherwise, and when either side lists fewer
    than two items.

    An item is a condition of the rule: 工伤保险条例第十六条 excludes 「故意犯罪的」; a report's
    「（一）故意犯罪或者抗拒抓捕、逃避伤害的」 widens the exclusion to acts the article does not
    name, while its other items are verbatim, so 4c (half the items invented) and overlap call
    it faithful (dev LawBench 3-8 chatglm2-6b 87, tuning keys, issue 21).
    """
    theirs = list_items(source)
    mine = [i for i in list_items(desc) if len(normalize(i)) >= MIN_ITEM]
    if len(theirs) < 2 or len(mine) < 2:
        return None
    src = normalize(source)
    for item in mine:
        it = normalize(item)
        if not any(words(t) and all(w in it for w in words(t)) for t in theirs):
            continue  # not one of the provision's items (4c judges invented ones)
        lack = tuple(
            w
            for w in lacking_words(item, source)
            if len(w) <= 2 or (w[:2] not in src and w[-2:] not in src)
        )
        if len(lack) >= th.fidelity_consequence_foreign:
            return item, lack
    return None


_NEGATOR_TAIL = (
    "不",
    "无",
    "未",
    "非",
    "没有",
    "不予",
    "无需",
    "不再",
    "免予",
    "不用",
    "不必",
    "不需要",
)


def reversed_consequence(desc: str, cited: str) -> tuple[str, str] | None:
    """``(report's words, provision's words)`` when ``cited`` attaches a consequence only in the
    negative (:data:`~verifiers.patterns.NEGATED_CONSEQUENCE`: 「机动车一方不承担赔偿责任」, and
    nowhere un-negated) and ``desc`` states that very predicate un-negated (「机动车驾驶人应当承担
    赔偿责任」) without the negated form; else None.

    The opposite consequence is what a lawyer sees at once; word overlap counts it as shared
    words (道路交通安全法第七十六条第二款 cited for the driver's liability to a pedestrian: faithful
    at 0.57 before; dev LawBench silent review, issue 21). ``cited`` is the pinned 款 when the
    report pins one: the article as a whole may state both (第一款 「由机动车一方承担」).
    """
    d, c = normalize(desc), normalize(cited)
    for m in NEGATED_CONSEQUENCE.finditer(cited):
        pred = normalize(m.group("pred"))
        if len(pred) < 4 or normalize(m.group(0)) in d:
            continue
        at = d.find(pred)
        if at < 0 or any(d[:at].endswith(n) for n in _NEGATOR_TAIL):
            continue
        if any(n + pred in d for n in _NEGATOR_TAIL):
            continue
        # the provision itself states it un-negated somewhere: no reversal
        rest = c.replace(normalize(m.group(0)), "")
        pos = rest.find(pred)
        if pos >= 0 and not any(rest[:pos].endswith(n) for n in _NEGATOR_TAIL):
            continue
        return d[max(0, at - 4) : at + len(pred)], m.group(0)
    return None


def invented_sanctions(desc: str, source: str) -> tuple[Quantity, ...]:
    """Quantities of a sanction in ``desc`` (a term of 有期徒刑, a 罚款 range, a share of
    赔偿责任: :data:`verifiers.patterns.SANCTION_AFTER`) whose unit the ``source`` never uses.

    A provision that states no sanction of that measure cannot hold the one the paraphrase
    gives it (刑法第十七条第二款 sets an age, not 「十年以上有期徒刑」; 民法典第一千二百一十五条
    names no 「百分之十五」). A unit the source does use is left to
    :func:`verifiers.facts.number_mismatches` (a changed value).

    Args:
        desc: the paraphrase's words.
        source: the cited provision's text (whole article).

    Returns:
        The invented quantities, in order; empty when none.
    """
    units = {q.unit for q in quantities(source)}
    return tuple(
        q
        for q in quantities(desc)
        if q.unit not in units and SANCTION_AFTER.match(desc[q.end :]) is not None
    )


_SANCTION_CLAUSE = re.compile(
    r"处(?:以)?[^。；;，,]{0,20}?(?:" + "|".join(PENALTY_KINDS) + r")[^。；;\n]*"
)
"""A sanction the report states: 处 + range + kind, to the end of its clause (「处7年以上有期徒刑
或者无期徒刑」, 「处五日以下拘留，并处罚款」)."""


def invented_penalty_kinds(desc: str, source: str) -> tuple[str, ...]:
    """Kinds of penalty (:data:`PENALTY_KINDS`) that a sanction ``desc`` states
    (:data:`_SANCTION_CLAUSE`) adds to the provision: ``source`` never names them and takes
    no penalty from another provision (:data:`verifiers.list_items.PENALTY_ELSEWHERE`), while imposing a penalty of
    its own (a 刑法 总则 article — 「可以从轻处罚」 — or a list member that imposes none is left to
    the judges of its role); in order, without repeats.

    A lawyer compares the consequence part: 刑法第一百三十三条 says 「因逃逸致人死亡的，处七年
    以上有期徒刑」; a report's 「交通肇事逃逸后致人死亡的，处7年以上有期徒刑或者无期徒刑」 gives it a
    life sentence it does not have (dev LawBench 3-8 qwen-7b-chat 95, tuning keys, silent
    before: the numbers agree, so no number check fires).

    Args:
        desc: the report's words for the citation.
        source: the cited provision's text (the whole article, or a list's texts together).

    Returns:
        The added kinds; empty when the report states no sanction or adds none.
    """
    # nothing when the penalty is another provision's, or the provision imposes none itself
    return invented_sanction_kinds(desc, source, _SANCTION_CLAUSE, PENALTY_KINDS)


def _invented_penalty(item: JudgeItem, said: str, source: str) -> AxisOutcome | None:
    """``misdescribed`` L1.2.2 when ``said`` adds a kind of penalty to ``source``
    (:func:`invented_penalty_kinds`), with the provision's own sanction as evidence; else None."""
    added = invented_penalty_kinds(said, source)
    if not added:
        return None
    own = _SANCTION_CLAUSE.search(source)
    ev = (_find(item, source, own.group(0)),) if own is not None else ()
    return _out(
        "misdescribed",
        f"the report's sanction names {'、'.join(added)}; the provision imposes no such penalty",
        codes=("L1.2.2",),
        evidence=ev,
    )


def _defines_its_charge(
    item: JudgeItem, store: AuthorityStore, th: Thresholds = DEFAULT_THRESHOLDS
) -> AxisOutcome | None:
    """``not_assessed`` for a doctrinal definition of the very charge the cited 刑法 article
    defines (「诈骗罪是指以非法占有为目的，用虚构事实或者隐瞒真相的方法，骗取…的行为」 for
    第二百六十六条): a textbook's words, not the article's, so word overlap says nothing about
    it (dev review: it was called 「并无上述内容」, matched to 第二百二十四条 on 0.29 vs 0.13).
    The charge is the article's by the SPP charge table; None for any other citation."""
    a = item.citation.assertion
    if a is None or a.role != "definition" or item.authority.instrument != CRIMINAL_LAW:
        return None
    article = item.authority.article
    said = a.text or item.citation.description or ""
    if not article or "是指" not in said:
        return None
    table = charge_table(store)
    named = table.find(said.split("是指", 1)[0])
    if not named or not all(table.defines(article, c) for c in named):
        return None
    text = item.record.text if item.record is not None else item.authority.text
    if (acts := foreign_acts(said, text, th.charge_definition_acts_min)) is not None:
        return _out(
            "partially_faithful",
            f"the definition's acts 「{acts[0]}」 are not the article's: it lists 「{acts[1]}」",
            codes=("L1.2.2",),
            evidence=(_find(item, text, acts[1]),),
        )
    return _out(
        "not_assessed",
        f"a definition of {'、'.join(sorted(named))}, the charge this article defines: "
        "a doctrinal wording, not the article's text",
    )


def _by_role(
    item: JudgeItem, cited_text: str, article_text: str, th: Thresholds, *, hard_only: bool
) -> AxisOutcome | Literal[False] | None:
    """The decision the assertion's role makes before the text checks (issue 21), or False
    when the text checks go on.

    Fidelity judges quotations and paraphrases (:data:`verifiers.roles.FIDELITY_ROLES`): an
    unreadable assertion is ``not_assessed`` with its reason; an ``application`` is judged
    only on a number in the provision's own wording (anchored); ``reference``, ``range`` and
    ``whole_instrument`` are ``not_assessed``. A paraphrase whose payer, consequence of a
    verbatim condition or limit is changed is ``misdescribed``
    (:func:`verifiers.roles.paraphrase_parts`). A citation built without an assertion is
    judged as before (text checks only)."""
    a = item.citation.assertion
    if a is None:
        return False
    if a.role is None:
        return None if hard_only else _out("not_assessed", f"unreadable: {a.reason}")
    if a.role == "application" and restates_rule(a):
        # 「您可以在…六十日内提出行政复议申请」: addressed to the reader, it still states the
        # provision's rule (a modal, no conviction): judged as a paraphrase
        parts = paraphrase_parts(item, th, as_role="paraphrase")
        return parts if parts is not None else False
    if a.role not in FIDELITY_ROLES:
        if a.role == "application" and a.text and cited_text:
            mm = anchored_mismatches(a.text, cited_text) or anchored_mismatches(
                a.text, article_text
            )
            if mm:
                exp = mm[0].expected
                src = cited_text if exp.text in cited_text else article_text
                code: TaxonomyCode = "L1.3.2" if mm[0].found.is_period else "L1.2.2"
                return _out(
                    "misdescribed",
                    f"the report says {mm[0].found.text}; the provision says {exp.text}",
                    codes=(code,),
                    evidence=(_find(item, src, exp.text),),
                )
        if a.role == "application" and a.text and article_text:
            added = _invented_penalty(item, a.text, list_pool(item, article_text)[0])
            if added is not None:
                return added
            if (merged := merged_tiers(a.text, article_text)) is not None:
                return _out(
                    "misdescribed",
                    merged.note(),
                    codes=("L1.2.2",),
                    evidence=(_find(item, article_text, merged.sanction),),
                )
        if hard_only:
            return None
        return _out(
            "not_assessed",
            f"role {a.role}: the words do not state the provision's content "
            "(fidelity judges quotations and paraphrases)",
        )
    parts = paraphrase_parts(item, th)
    return parts if parts is not None else False


def _sibling_pin(
    item: JudgeItem, desc: str, store: AuthorityStore, idf: IdfCache | None
) -> AxisOutcome | None:
    """``misdescribed`` (L1.1.2) when the citation pins a 款/项 and ``desc`` restates another
    款/项 of the same article, not the pinned one (:func:`verifiers.pins.restated_sibling`):
    the sibling is the suggestion, so the revision re-pins (``fix_granularity``) and never
    "corrects" the sibling's words into the pinned unit's. None otherwise, for a list (its
    members' texts are judged together) or without a record."""
    auth, rec = item.authority, item.record
    if rec is None or item.sibling_texts or not (auth.paragraph or auth.item):
        return None
    table = idf.of(rec) if idf is not None else None
    unit = restated_sibling(rec, auth.paragraph, auth.item, desc, table)
    if unit is None:
        return None
    paragraph = unit[0] if len(rec.paragraphs) > 1 or unit[1] is None else None
    other = store.authority(rec, paragraph, unit[1])
    if other is None:
        return None
    sug = Suggestion(
        authority=other,
        score=1.0,
        reason="the description is this 款/项's text",
        proof=f"the description restates {other.label}, not {auth.label}",
    )
    return _out(
        "misdescribed",
        f"the description is the text of {other.label}, not of the cited {auth.label}",
        codes=("L1.1.2",),
        suggestion=sug,
        evidence=(Evidence(text=other.text[:120], authority_id=other.id),),
    )


_CONTRADICTION_SAYS = {
    "polarity": "it denies what the provision states",
    "grant": "it grants what the provision denies",
    "choice": "the provision lets a party choose one of them, not both",
    "grade": "the provision grades the consequence by it",
    "quote": "the quotation changes the provision's clause",
    "kind": "the provision sets this rule for that sort only, and other rules for the others",
    "party": "it names another party than the provision's clause",
    "reference": "it refers to other provisions than the provision's clause",
    "term": "it names another term of the law than the provision's clause",
}


def _contradicted(item: JudgeItem, words: str, pool: str, article: str) -> AxisOutcome | None:
    """Step 3g: ``misdescribed`` when a paraphrase or quotation's clause restates one clause of
    the provision and contradicts it (:func:`verifiers.clauses.clause_contradictions`: the pool
    for a denial or a choice, the whole article for a grade it sets in another 款), or a quoted
    clause no clause of the provision reads like (:func:`verifiers.clauses.altered_quote_clauses`),
    with the provision's words quoted; None otherwise."""
    a = item.citation.assertion
    if a is None or a.role not in FIDELITY_ROLES or not words:
        return None
    quoted = [*item.citation.quotes, *([words] if a.role == "quotation" else [])]
    found: tuple[ClauseContradiction, ...] = (
        clause_contradictions(words, pool)
        or ignored_grades(words, article)
        or tuple(c for q in quoted for c in altered_quote_clauses(q, pool))
        or (() if a.role == "quotation" else widened_kinds(words, pool))
    )
    return _clause_outcome(item, found[0]) if found else None


def _clause_outcome(item: JudgeItem, c: ClauseContradiction) -> AxisOutcome:
    """The outcome of one clause contradiction (steps 3g and 3h), the provision's clause
    quoted as the evidence the reader's note shows."""
    return _out(
        # one sort's rule stated for every sort: its condition (the sort) dropped, SPEC §3
        "partially_faithful" if c.kind == "kind" else "misdescribed",
        PARTS_LEAD + f"the report says 「{c.found}」; the provision says 「{c.statute}」: "
        f"{_CONTRADICTION_SAYS[c.kind]}",
        codes=("L1.2.2",),
        evidence=(Evidence(text=c.statute, authority_id=item.authority.id),),
    )


def _instrument_words(item: JudgeItem, store: AuthorityStore) -> Callable[[str], bool]:
    """Whether a word is in the cited instrument version's texts (the article's when the store
    does not hold them), read only when asked."""
    texts: list[str] = []

    def known(word: str) -> bool:
        if not texts:
            rec = item.record
            found = (
                store.article_texts(rec.instrument, version_hint=rec.version)
                if rec is not None
                else None
            )
            body = "\n".join(found[1]) if found is not None and found[1] else ""
            texts.append(normalize(body or (rec.text if rec is not None else item.authority.text)))
        return word in texts[0]

    return known


def _article_uses(item: JudgeItem, store: AuthorityStore) -> Callable[[str], int]:
    """In how many articles of the cited instrument version a word occurs
    (:func:`verifiers.term_swap.article_uses`; the article alone when the store lacks them)."""
    rec = item.record
    own = rec.text if rec is not None else item.authority.text

    def texts() -> tuple[str, ...]:
        found = (
            store.article_texts(rec.instrument, version_hint=rec.version)
            if rec is not None
            else None
        )
        return found[1] if found is not None and found[1] else (own,)

    key = (rec.instrument, rec.version or "") if rec is not None else ("", own)
    return article_uses(key, texts)


def _swapped(item: JudgeItem, words: str, pool: str, store: AuthorityStore) -> AxisOutcome | None:
    """Step 3h: ``misdescribed`` when a paraphrase or quotation's clause restates one clause of
    the provision with one part changed: another party (:func:`verifiers.clauses.swapped_parties`)
    or other cross-references (:func:`verifiers.clauses.changed_references`) or another term of
    the law (:func:`verifiers.term_swap.swapped_terms`), with the provision's clause quoted; None otherwise. After step 4: a clause that is another article's
    text is that article's (its suggestion re-cites)."""
    a = item.citation.assertion
    if a is None or a.role not in FIDELITY_ROLES or not words:
        return None
    found = (
        swapped_parties(words, pool, _instrument_words(item, store))
        or changed_references(words, pool)
        or swapped_terms(words, pool, _article_uses(item, store))
    )
    return _clause_outcome(item, found[0]) if found else None


def foreign_clause_outcome(
    item: JudgeItem, desc: str, pool: str, store: AuthorityStore, th: Thresholds
) -> AxisOutcome | None:
    """Step 8h: a clause of the report's words for the provision that the cited provision does
    not hold and another article of the same instrument version holds near-verbatim
    (:func:`verifiers.foreign_clauses.foreign_clauses`) → ``partially_faithful`` L1.1.2 (the
    rest is the cited article's), ``misdescribed`` L1.1.2 when such clauses are the whole
    assertion; the rationale names the other article (the note quotes it:
    :func:`verifiers.foreign_clauses.note_head`). Judged for a paraphrase or quotation (its
    assertion's words, else the description, and the sentences that go on restating the
    provision, :attr:`~governor.core.models.Assertion.continued`: only the assertion's own
    make it ``misdescribed``); None otherwise, and without an article record.

    Evidence: the cited provision's first sentence (what it says), then the other 款's text.
    No suggestion: the report's conclusion may still rest on the cited article (工伤保险条例
    第十四条 is the basis for 「应当认定为工伤」); only the clause is another article's."""
    a, rec = item.citation.assertion, item.record
    if a is None or a.role not in FIDELITY_ROLES or rec is None:
        return None
    words = a.text or desc
    if not words:
        return None
    articles = store.articles(rec.instrument, as_of=item.as_of, version_hint=rec.version)
    # the sentences that go on restating the provision are read too (劳动合同法第二十二条's
    # restatement followed by 第二十五条's rule); only the assertion's own can make it whole
    more = f"{words}。{a.continued}" if a.continued else words
    found = foreign_clauses(more, pool, rec.article, articles, th)
    if not found:
        return None
    f = found[0]
    other = next((r for r in articles if r.article == f.article), None)
    auth = store.authority(other, f.paragraph) if other is not None else None
    whole = covers_all(words, found, pool, th) and all(
        x.clause in report_clauses(words) for x in found
    )
    return _out(
        "misdescribed" if whole else "partially_faithful",
        foreign_rationale(f),
        codes=("L1.1.2",),
        evidence=(
            _first_sentence(item, item.authority.text or pool),
            Evidence(text=f.text[:120], authority_id=auth.id if auth is not None else rec.key),
        ),
    )


def _added_content(
    item: JudgeItem, desc: str, article: str, th: Thresholds, referred: Sequence[str]
) -> AxisOutcome | None:
    """Step 4e: a 但书 (:func:`verifiers.list_items.invented_exception`) or a kind of sanction
    (:func:`verifiers.list_items.invented_sanction_kinds`) the report adds to a provision it
    quotes or paraphrases (overlap at least ``fidelity_min_overlap``: words that share little
    with it are another rule, step 5's) → ``misdescribed`` L1.2.2 (L1.2.3 for the exception);
    else None."""
    a = item.citation.assertion
    if a is None or a.role not in FIDELITY_ROLES:
        return None
    said = a.text or desc
    if (exc := invented_exception(said, article, th, referred)) is not None:
        return _out(
            "misdescribed",
            f"exception: the report adds 「{exc[:40]}」 to the provision's rule; "
            "the provision makes no such exception",
            codes=("L1.2.3",),
            evidence=(_first_sentence(item, article),),
        )
    if kinds := invented_sanction_kinds(said, article):
        return _out(
            "misdescribed",
            f"sanction: the report's sanction names {'、'.join(kinds)}; "
            "the provision imposes no such penalty",
            codes=("L1.2.2",),
            evidence=(_first_sentence(item, article),),
        )
    return None


def _spliced(item: JudgeItem, desc: str, pool: str, th: Thresholds) -> AxisOutcome | None:
    """Step 8e2: a 「……的，」 condition of the provision stated with another condition's
    consequence (:func:`verifiers.spliced_tiers.spliced_tiers`) → ``misdescribed`` L1.2.2,
    evidence the provision's clause for that condition
    (the note quotes it). Judged for a paraphrase or quotation, on its words and the sentences
    that go on restating the provision (``Assertion.continued``); else None."""
    a = item.citation.assertion
    if a is None or a.role not in FIDELITY_ROLES:
        return None
    words = a.text or desc
    more = f"{words}。{a.continued}" if a.continued else words
    found = spliced_tiers(more, pool, th)
    if not found:
        return None
    sp = found[0]
    return _out(
        "misdescribed",
        PARTS_LEAD + f"for 「{sp.condition}」 the report says 「{sp.consequence}」, the "
        f"consequence the provision gives 「{sp.other}」; it says 「{sp.rule}」",
        codes=("L1.2.2",),
        evidence=(_find(item, pool, sp.rule),),
    )


def _checks(
    item: JudgeItem,
    retriever: Retriever,
    store: AuthorityStore,
    th: Thresholds,
    idf: IdfCache | None,
    *,
    hard_only: bool,
) -> AxisOutcome | None:
    cit = item.citation
    article_text = item.record.text if item.record is not None else item.authority.text
    cited_text = item.authority.text or article_text
    if (defined := _defines_its_charge(item, store, th)) is not None:
        return None if hard_only else defined
    ruled = _by_role(item, cited_text, article_text, th, hard_only=hard_only)
    if ruled is not False:
        return ruled
    pool, at = list_pool(item, article_text)
    desc = described_text(item, pool, th.fidelity_min_overlap)
    if not desc and not cit.quotes:
        if hard_only:
            return None
        return (
            _contradicted(item, cit.assertion.text if cit.assertion else "", pool, article_text)
            or _claim_elsewhere(item, pool, retriever, store, th, idf)
            or _swapped(item, cit.assertion.text if cit.assertion else "", pool, store)
            or paraphrase_drops_proviso(item, cited_text)
            or _out("not_assessed", "the report states nothing about the provision's content")
        )
    if not article_text:
        return None if hard_only else _out("not_assessed", "no source text to compare with")
    table: BigramIdf | None = idf.of(item.record) if idf is not None else None

    # 1. quotations
    for q in cit.quotes:
        m = quote_match(q, pool)
        if m < QUOTE_OK:
            sug, _ = better_provision(
                q,
                item,
                retriever,
                store,
                cited_score=m,
                margin=0.2,
                reason="the quoted text is in this provision",
                scorer=quote_match,
            )
            return _out(
                "misdescribed",
                f"quoted text 「{q[:40]}」 is not in the cited provision (match {m:.2f})",
                codes=("L1.1.2",),
                evidence=(Evidence(text=q),),
                suggestion=sug,
            )

    # 2. overlap
    sim = weighted_containment(desc, pool, table)
    applies = CASE_FACTS.search(desc) is not None
    talks_about_it = sim >= th.fidelity_min_overlap or bool(cit.quotes) or applies

    # 3. numbers, periods, amounts; modality. A quantity in the same wording as the source's
    # is judged however much else the description says (anchored); the rest only when the
    # description is about this provision at all. Content that belongs to another provision
    # (same words, its own numbers) is reported as such, not as a wrong number (step 4).
    if item.sibling_texts:
        # a list is judged as a whole: a number any member states is not a wrong number
        mismatches = (
            number_mismatches(desc, pool) if talks_about_it else anchored_mismatches(desc, pool)
        )
    else:
        mismatches = (
            number_mismatches(desc, cited_text) or number_mismatches(desc, article_text)
            if talks_about_it
            else anchored_mismatches(desc, cited_text) or anchored_mismatches(desc, article_text)
        )
    if mismatches or (talks_about_it and modality_flips(desc, article_text)):
        elsewhere = _elsewhere(desc, sim, item, retriever, store, th, table, mismatches)
        if elsewhere is not None:
            return elsewhere
    if (
        not mismatches
        and not applies
        and not cit.quotes
        and (cit.assertion is not None and cit.assertion.role == "paraphrase")
    ):
        kind = LIABILITY_KIND.search(desc)
        if kind is not None and kind.group(1) not in pool and "责任" in pool:
            return _out(
                "misdescribed",
                f"the report says {kind.group(0)}; the provision names no {kind.group(1)}责任",
                codes=("L1.2.2",),
            )
        inv = invented_sanctions(desc, pool)
        if inv:
            return _out(
                "misdescribed",
                f"the report says {inv[0].text}; the provision states no sanction of that measure",
                codes=("L1.2.2",),
            )
    if mismatches:
        for mm in mismatches:
            exp = mm.expected
            src = cited_text if exp.text in cited_text else article_text
            code: TaxonomyCode = "L1.3.2" if mm.found.is_period else "L1.2.2"
            return _out(
                "misdescribed",
                f"the report says {mm.found.text}; the provision says {exp.text}",
                codes=(code,),
                evidence=(_find(item, src, exp.text),),
            )
    if talks_about_it:
        for flip in modality_flips(desc, article_text):
            word = flip.expected.word + flip.expected.predicate
            return _out(
                "misdescribed",
                f"modality flipped: the report says {flip.found.word}{flip.found.predicate}, "
                f"the provision says {flip.expected.word}",
                codes=("L1.2.2",),
                evidence=(_find(item, article_text, word),),
            )
    # 3b. an opposed term swapped in a verbatim restatement (有效/无效, 连带/一般 …)
    swaps = polarity_swaps(desc, pool)
    if swaps:
        elsewhere = _elsewhere(desc, sim, item, retriever, store, th, table, polarity=True)
        if elsewhere is not None:
            return elsewhere
        sw = swaps[0]
        return _out(
            "misdescribed",
            f"the report says {sw.found} where the provision says {sw.expected} "
            f"({sw.kind}): the opposite rule",
            codes=("L1.2.2",),
            evidence=(
                _pool_evidence(item, article_text, pool, sw.source_start, sw.source_end, at),
            ),
        )
    if (
        cit.assertion is not None
        and cit.assertion.role in FIDELITY_ROLES
        and not cit.quotes
        and (rev := reversed_consequence(desc, cited_text)) is not None
    ):
        clause = next(
            (cited_text[a:b] for a, b in sentences(cited_text) if rev[1] in cited_text[a:b]),
            rev[1],
        )
        return _out(
            "misdescribed",
            PARTS_LEAD + f"the report says 「{rev[0]}」 where the provision says 「{rev[1]}」: "
            "the opposite consequence",
            codes=("L1.2.2",),
            evidence=(_find(item, cited_text, clause),),
        )
    # 3e. a kind of penalty the provision does not impose (无期徒刑 added to 七年以上有期徒刑)
    if (
        cit.assertion is not None
        and cit.assertion.role in FIDELITY_ROLES
        and not cit.quotes
        and (added := _invented_penalty(item, cit.assertion.text or desc, pool)) is not None
    ):
        return added
    # 3f. a pinned 款/项 described in a sibling's words (585第三款 for 第二款's 违约金 rule)
    if (pinned := _sibling_pin(item, desc, store, idf)) is not None:
        return pinned
    if hard_only:
        return None
    claim_only = not cit.description.strip() and not cit.quotes

    # 3c. the text of another version of the instrument: superseded (or not yet in force) law
    if item.record is not None and sim < VERBATIM and not cit.quotes:
        drift = version_drift(desc, item.record, store)
        if drift is not None:
            old = drift.article
            newer = old.version > item.record.version
            # the text of a later version (not yet in force): the report cites the new law
            # by its new number; moving the pin to the old text's article would be wrong
            sug = (
                None
                if newer
                else _matching_provision(desc, sim, item, retriever, store, th, table)[0]
            )
            when = (
                "a later version, not yet in force on the report's date"
                if newer
                else ("an earlier version")
            )
            return _out(
                "misdescribed",
                f"the description is the text of 《{old.instrument}》（{old.version}版）第{old.article}条 "
                f"({drift.score:.2f}), {when}; the version judged ({item.record.version}) holds at "
                f"most {drift.in_force_score:.2f} of it in any article",
                codes=("STALE",),
                suggestion=sug,
                evidence=(Evidence(text=old.text[:120], authority_id=old.key),),
            )

    # 3g. a clause that restates one of the provision's and says the opposite (a denial, both of
    # two remedies the provision makes a choice, 不论…轻重 where it grades)
    if (opposite := _contradicted(item, desc, pool, article_text)) is not None:
        return opposite

    # 4. content of another provision: it must also hold more of the description than the
    # cited provision(s), in words or verbatim — bigram overlap alone is fooled by fragments
    # across words (「违约方应当」 vs 591's 「对方应当」): a generic restatement the cited text
    # supports as well as the other stays theirs
    if sim < VERBATIM and not cit.quotes:
        sug, other = _matching_provision(desc, sim, item, retriever, store, th, table)
        if (
            sug is not None
            and (other >= OTHER_MATCH or sim < th.fidelity_min_overlap)
            and _holds_more(desc, sug.authority.text, pool)
            and (
                not (claim_only or sim >= CITED_HOLDS) or _restates(desc, sug.authority.text, other)
            )
        ):
            share = verbatim_share(desc, sug.authority.text)
            said = (
                f"its text near-verbatim ({share:.2f})"
                if share >= NEAR_VERBATIM
                else f"not its text (verbatim {share:.2f}): which provision is meant is a guess"
            )
            return _out(
                "misdescribed",
                f"the description matches {sug.authority.label} ({other:.2f}) "
                f"better than the cited provision ({sim:.2f}), {said}",
                codes=("L1.1.2",),
                suggestion=paraphrase_confidence(sug, share),
                evidence=(Evidence(text=sug.authority.text[:120], authority_id=sug.authority.id),),
            )

    # 4b. another article's rule: the cited article lacks words another one holds, all of them
    if sim < VERBATIM and not cit.quotes and not claim_only and not item.sibling_texts:
        moved = key_terms_elsewhere(desc, sim, item, retriever, store, th, table, pool)
        if moved is not None:
            return moved

    # 4c. items listed under the provision's 下列情形 that it does not list
    # the articles the provision's items refer to are read only for a report that lists items
    listed = recited(desc, cit.assertion)  # with the list it introduces on the lines after
    referred = _referred_texts(item, article_text, store) if len(report_items(listed)) >= 2 else []
    if not cit.quotes and (made_up := invented_items(listed, article_text, th, referred)):
        return _out(
            "misdescribed",
            PARTS_LEAD + f"{len(made_up)} of the items the report lists are not the provision's "
            f"(「{made_up[0][:40]}」)",
            codes=("L1.1.2",),
            evidence=(_first_sentence(item, article_text),),
        )

    # 4d. one item listed under the provision's 下列情形 that it does not list (the rest are
    # its own: 劳动合同法第四十二条 given 「劳动者家庭暴力或者虐待家庭成员的」 among 职业病 and 孕期)
    if not cit.quotes and (odd := _items_absent(listed, article_text, th, referred))[0]:
        return _out(
            "partially_faithful",
            items_rationale(odd[0], len(odd[1])),
            codes=("L1.1.2",),
            evidence=(_first_sentence(item, article_text),),
        )
    # 4e. an exception or a sanction the provision does not make (verifiers.list_items)
    if sim >= th.fidelity_min_overlap and (
        added := _added_content(item, desc, article_text, th, referred)
    ):
        return added

    # 3h. a clause restated with another party or other cross-references
    if (changed := _swapped(item, desc, pool, store)) is not None:
        return changed

    # 5. low overlap
    if sim < th.fidelity_min_overlap and not cit.quotes:
        if applies or claim_only:
            return _out(
                "not_assessed",
                f"the report applies the provision to the case (overlap {sim:.2f}); "
                "it does not state the provision's content",
            )
        return _out(
            "misdescribed",
            f"the description shares little with the provision's text (overlap {sim:.2f})",
            codes=("L1.1.2",),
        )

    # 6. dropped decisive 但书
    if not mentions_exception(desc):
        for p in provisos(cited_text):
            if (
                p.rule
                and containment(p.rule, desc) >= RESTATES_RULE
                and not restates_another_sentence(desc, p, cited_text)
            ):
                quoted = any(quote_match(q, p.rule) >= QUOTE_OK for q in cit.quotes)
                code = "L2.1.5" if quoted else "L1.2.3"
                return _out(
                    "partially_faithful",
                    f"the report states the rule but drops its 但书: 「{p.text}」",
                    codes=(code,),
                    evidence=(_find(item, cited_text, p.text),),
                )

    # 7. a condition dropped and the rule stated universally
    if (u := UNIVERSAL.search(desc)) and not UNIVERSAL.search(cited_text):
        for sm in SCOPE.finditer(cited_text):
            scope = sm.group(0).rstrip("，,")
            if not contains_phrase(scope, desc):
                return _out(
                    "partially_faithful",
                    f"the report states the rule universally ({u.group(0)}) and omits its "
                    f"limit 「{scope}」",
                    codes=("L1.1.2",),
                    evidence=(_find(item, cited_text, scope),),
                )

    # 8. an outcome-relevant condition dropped while its consequence is restated verbatim
    for dc in dropped_conditions(desc, cited_text, also_said=cit.claim):
        code = "L1.2.3" if dc.exception else "L1.2.2"
        return _out(
            "partially_faithful",
            f"the report restates 「{dc.consequence}」 but omits its condition 「{dc.condition}」",
            codes=(code,),
            evidence=(_find(item, cited_text, dc.condition),),
        )

    # 8b. a condition the provision does not state in these words (foreign facts, or a synonym)
    if (own := _own_words(cit)) is not None and (
        foreign := foreign_condition(
            own.conditions, pool, th, frame=law_frame(item.record, store, th.fidelity_frame_share)
        )
    ) is not None:
        cond, lack = foreign
        # partially_faithful, not misdescribed: a single word the provision lacks is as often a
        # plain-language synonym of its own (受伤 for 人身伤亡, 履行 for 执行) as a fact it does
        # not address (逆向行驶); either way the report's condition is not the provision's, and
        # the reader is told so (fresh tuning drafts, seed 23: 道路交通安全法第七十六条 「造成非机动车
        # 驾驶人受伤的」, 刑法第三百一十三条 「拒不履行判决、裁定的」 — simplified, conditions dropped)
        return _out(
            "partially_faithful",
            f"the provision states no condition 「{cond}」 (it lacks 「{'、'.join(lack)}」): "
            "a fact pattern it does not address, or its condition in other words",
            codes=("L1.2.2",),
            evidence=(_first_sentence(item, cited_text),),
        )

    # 8c. one of the provision's items, widened with words it does not state
    if not cit.quotes and (wide := widened_items(desc, article_text, th)) is not None:
        it, lack = wide
        return _out(
            "partially_faithful",
            PARTS_LEAD + f"the report's item 「{it[:40]}」 adds 「{'、'.join(lack)}」 to the "
            "provision's item: the provision does not list it so",
            codes=("L1.1.2",),
            evidence=(_first_sentence(item, article_text),),
        )
    # 8d. a consequence the provision does not grant in these words (another rule's remedy)
    if (
        (own := _own_words(cit)) is not None
        and normalize(own.text) not in normalize(pool)
        and (
            remedy := foreign_consequence(
                own.consequence,
                own.modality,
                pool,
                th,
                frame=law_frame(item.record, store, th.fidelity_frame_share),
            )
        )
        is not None
    ):
        clause, lack = remedy
        if (theirs := _own_consequence_for(own.conditions, pool)) is not None:
            # the report's condition holds one of the provision's verbatim: the provision's
            # consequence for it is known, and the report's (with words it lacks) is another
            scond, scons = theirs
            return _out(
                "misdescribed",
                PARTS_LEAD + f"for 「{scond}」 the report says 「{clause}」 (the provision lacks "
                f"「{'、'.join(lack)}」); the provision says 「{scons}」",
                codes=("L1.2.2",),
                evidence=(Evidence(text=f"{scond}，{scons}", authority_id=item.authority.id),),
            )
        # partially_faithful, as 8b: the words may still be the provision's consequence said
        # otherwise; the reader is told which words the provision does not state
        return _out(
            "partially_faithful",
            PARTS_LEAD + f"the provision states no consequence 「{clause}」 "
            f"(it lacks 「{'、'.join(lack)}」): another rule's remedy, or its own in other words",
            codes=("L1.2.2",),
            evidence=(_first_sentence(item, cited_text),),
        )

    # 8e. a predicate the provision grants, denied by a restatement that changed one verb
    if (
        cit.assertion is not None
        and cit.assertion.role in FIDELITY_ROLES
        and (denied := denied_grants(desc, pool))
    ):
        dg = denied[0]
        return _out(
            "misdescribed",
            PARTS_LEAD + f"the report says 「{dg.found}」 where the provision says "
            f"「{dg.negated}」 and 「{dg.granted}」: it denies what the provision grants",
            codes=("L1.2.2",),
            evidence=(_find(item, cited_text, dg.granted),),
        )
    # 8e2. a tier's condition joined to another tier's consequence (六个月以上不满一年的 +
    # 不满六个月的's 半个月工资), in the words or the sentences that go on restating them
    if (spliced := _spliced(item, desc, pool, th)) is not None:
        return spliced
    # 8f. a count of the provision's noun stated otherwise (一个子女 for 三个子女)
    if talks_about_it and (counts := count_mismatches(desc, pool)):
        cm = counts[0]
        return _out(
            "misdescribed",
            f"the report says {cm.found}; the provision says {cm.expected}",
            codes=("L1.2.2",),
            evidence=(_find(item, cited_text, cm.expected),),
        )
    # 8g. the listed situations a restated condition is limited to, dropped (因租赁、借用等情形)
    if _own_words(cit) is not None and (causes := dropped_causes(desc, cited_text, item.context)):
        dc0 = causes[0]
        # partially_faithful: the rule is stated, its limit to the listed situations is not,
        # and the question names none of them
        return _out(
            "partially_faithful",
            PARTS_LEAD + f"the report restates the condition without 「{dc0.cause}」, the "
            "situations the provision is limited to, and the question names none of them",
            codes=("L1.2.2",),
            evidence=(_find(item, cited_text, dc0.cause),),
        )

    # 8h. a clause of the restatement that is another article's text (工伤保险条例第十七条第二款's
    # one-year period in a restatement of 第十四条)
    if (taken := foreign_clause_outcome(item, desc, pool, store, th)) is not None:
        return taken

    # 8i. one clause recited where the question's facts meet another (试用期, 重伤)
    if (
        cit.assertion is not None
        and cit.assertion.role in FIDELITY_ROLES
        and (
            left_out := omitted_fact_clause(
                "".join((desc, cit.claim, cit.assertion.text)),
                item.context,
                article_text,
                th,
                store.word_weights,
                _title_or_frame(item, store, th),
            )
        )
        is not None
    ):
        clause, term = left_out
        return _out(
            "partially_faithful",
            FACT_CLAUSE_LEAD + f"the report recites another clause; the question's 「{term}」 "
            f"meets the provision's clause 「{clause}」, which it leaves out",
            codes=("L1.2.2",),
            evidence=(_find(item, article_text, clause),),
        )

    span = best_span(desc, cited_text)
    ev = (_evidence(item, cited_text, *span),) if span else ()
    return _out(
        "faithful", f"description consistent with the provision (overlap {sim:.2f})", evidence=ev
    )
