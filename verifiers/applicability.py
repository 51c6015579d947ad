"""Applicability (A), offline: does the provision support the claim it is attached to?

Labels (SPEC §3): ``supports`` 1.0 · ``partially_supports`` 0.5 · ``overextended`` 0.5 (used
for a broader or stronger claim than the text allows) · ``contradicts`` 0.0 · ``irrelevant``
0.0 · ``skipped`` NA (nothing to judge against).

The proposition a citation must support is its claim together with the question the report
answers (``JudgeItem.context``): the claim alone is often a restatement of the provision (then
it proves nothing about applicability) or, in a 法律依据 list, the answer's one-word conclusion
(可以, 合同无效). The test is retrieval-based: the provisions of the cited instrument are
ranked for *claim + question*; a provision an expert would cite for that proposition ranks
near the top. On LawBench 3-2 (dev: GPT-3.5 answers) the reference article is within the top
:data:`TOP_RANK` for 87 % of scenarios and a wrongly cited article for 9 %.

The claim is read without bracketed case captions (「参见指导案例24号（荣宝英诉王阳…纠纷案）」:
a citation's own title is not its claim), and a meta-description (「规定了X」, 「对X作了规定」,
「是关于X的规定」, :func:`meta_subject`) is reduced to its subject X: it says what the
provision is about, not a rule it states.

Roles (issue 21): Applicability judges the ``application`` and ``paraphrase`` roles of the
citation's :class:`~governor.core.models.Assertion` (and quotations, for the claim they are
used for); a ``reference`` (依照…之规定) is judged by the charge table alone when it is a 刑法
分则 article and a charge is named, else against the question when there is one, else
``skipped`` (:func:`verifiers.roles.reference_applicability`); an unreadable assertion (no
words) is judged against the question, or ``skipped`` with its reason when there is none. A ``whole_instrument`` citation is judged in :mod:`verifiers.verify`
(:func:`verifiers.roles.whole_instrument_outcome`).

Decisions, in order:

1. no claim and no question → ``skipped``;
2. the claim uses the provision's predicate with the opposite modality (可以 vs 不得), or
   restates the provision verbatim but for one opposed term (有效/无效, 连带/一般, an added or
   dropped 不: :func:`verifiers.facts.polarity_swaps`) → ``contradicts`` (L1.1.2), provided
   (for the modality) the provision is on the claim's topic;
1a. a provision applied to the question's facts with no proposition of its own: a 刑法
    article by :mod:`verifiers.offence_fit`, any other by its instrument's fit to the facts
    (:mod:`verifiers.civil_fit`);
2a. the legal conditions decide (:func:`verifiers.conditions.condition_check`): a 刑法 分则
    article against the charge the report names, a term defined by another article, an
    amount article cited for an entitlement, a 下列情形 consequence claimed for other facts;
2b. a meta-description whose subject X the provision's text holds → ``supports``;
2c. the report's own words (claim, else description) restate one 款 of the cited article
    near-verbatim (:func:`restated_paragraph`) → ``supports``: the question's retrieval rank
    or a store-wide candidate proves nothing against a recital of the cited text (review3:
    劳动合同法第八十二条第一款 recited word for word was reported "irrelevant"); whether the
    conclusion drawn from it holds is not a citation question;
3. a claim of its own that shares little with the provision (overlap <
   ``applicability_partial_relevance``) but restates another provision of the instrument
   (overlap ≥ :data:`RESTATES`) → ``irrelevant`` (L1.1.2) with that provision as suggestion —
   unless the claim is not that provision's text near-verbatim
   (:data:`~verifiers.suggest.NEAR_VERBATIM`) and the cited provision itself ranks within
   :data:`TOP_RANK` for claim + question (overlap ≥ :data:`MIN_FIT`): a paraphrase in the
   instrument's vocabulary (安全生产法第四条's general duties) resembles general articles more
   than the specific one cited, and proves nothing against a top rank (fidelity still reports
   the misdescription);
3a. before the rank decides: the report states a sanction (处…罚款/拘留…) of a provision that
    imposes none and refers to none (:func:`sanction_unimposed`; not 刑法, not a reference) →
    ``irrelevant`` (L1.1.2);
4. rank ≤ :data:`TOP_RANK` (and, for a claim of its own, overlap ≥ :data:`MIN_FIT`), or
   a claim that restates the provision (overlap ≥ :data:`RESTATES`), or — for a member of a
   list (《X》第一条、第二条) whose claim is shared — another member at rank ≤
   :data:`TOP_RANK` with the list's texts together holding :data:`MIN_FIT` of the claim while
   this member is itself on topic (rank ≤ :data:`ON_TOPIC_RANK` and overlap ≥
   ``applicability_min_relevance``) → the provision fits; it is then
   a citation with no proposition of its own (「本案应当适用《X》第N条」) whose question's facts
   hold ``applicability_facts_cover`` of the conduct clause of one of its 款
   (:func:`facts_cover`) also fits; it is then
   ``overextended`` (L1.1.2) when the claim generalises (一律/在任何情况下/所有…) a provision
   limited by scope words (仅/限于/但书/下列情形/……的，) the claim drops, else ``supports``;
5. otherwise, when there is a question, the best provision of the whole store for it
   (:func:`verifiers.suggest.scenario_provision`: any instrument, the proof — rank, score
   margin, question coverage — in the suggestion's reason, a calibrated confidence) is the
   suggestion; without a question (or when the cited article is itself the store's best),
   the provision that best covers the claim,
   among the top candidates of the cited instrument and of the whole store for claim +
   question, becomes the suggestion (confidence: :func:`verifiers.suggest.confidence` with
   ``full`` = :data:`~verifiers.suggest.PROPOSITION_FULL`; a provision of another
   instrument only when the report's own words are its text near-verbatim,
   :func:`verifiers.suggest.admissible`; never with confidence 0), and the label is
   ``partially_supports`` when the provision is on topic — rank ≤ :data:`ON_TOPIC_RANK` for
   claim + question, or overlap ≥ ``applicability_min_relevance`` (for a claim that is only
   the answer's conclusion or generic, the question's overlap with the provision also counts:
   法律依据 list items are judged leniently) — and ``irrelevant`` (L1.1.2) when it is not.

Each decision records the rank, the overlap and, as evidence, the provision sentence that
best matches the proposition.
"""

from __future__ import annotations

import re

from governor.authorities import ArticleRecord, AuthorityStore
from governor.authorities.charges import CRIMINAL_LAW
from governor.authorities.structure import structure_of
from governor.core.config import DEFAULT_THRESHOLDS, Thresholds
from governor.core.models import Evidence, Span, Suggestion, TaxonomyCode
from governor.core.ports import Retriever
from governor.text import regexes as rx
from verifiers.candidate_rule import act_core
from verifiers.civil_fit import civil_fit_outcome
from verifiers.conditions import condition_check
from verifiers.facts import modality_flips, polarity_swaps
from verifiers.judge import AxisOutcome, JudgeItem, list_pool, outcome
from verifiers.offence_fit import applied_to_facts, facts_fit_outcome
from verifiers.patterns import META_DESCRIPTION, SCOPE, UNIVERSAL
from verifiers.pins import restated_sibling
from verifiers.roles import reference_applicability
from verifiers.suggest import (
    NEAR_VERBATIM,
    PROPOSITION_FULL,
    IdfCache,
    better_provision,
    scenario_provision,
    search_query,
    strip_caption,
)
from verifiers.textsim import (
    BigramIdf,
    best_span,
    containment,
    contains_phrase,
    normalize,
    specificity,
    verbatim_share,
    weighted_containment,
)

TOP_RANK = 5
"""A cited provision ranked this high in its instrument for the proposition supports it."""
ON_TOPIC_RANK = 20
"""Ranked within this many, a provision that does not fit well is still on topic."""
MIN_FIT = DEFAULT_THRESHOLDS.applicability_min_fit
"""A claim of its own must share at least this (weighted) overlap with a top-ranked provision:
a top rank earned by the question alone does not make a provision support an unrelated claim."""
RESTATES = DEFAULT_THRESHOLDS.applicability_restates
"""Weighted overlap at which a claim restates the provision."""
MIN_CLAIM_SPECIFICITY = DEFAULT_THRESHOLDS.applicability_min_claim_specificity
"""A claim with fewer content bigrams (4) than this share of ``SPECIFIC_BIGRAMS`` is generic."""
EMPTY_CLAIM_SPECIFICITY = DEFAULT_THRESHOLDS.applicability_empty_claim_specificity
"""A claim with fewer than two content bigrams (参见, 可以) states no proposition."""
REMOTE = 80
"""A claim more than this many characters away from its citation is the answer's conclusion
(法律依据 list), not a proposition the citation is attached to."""
GLOBAL_K = 8
"""Candidates taken from the whole store when looking for a better provision."""


def _out(
    label: str,
    rationale: str,
    *,
    codes: tuple[TaxonomyCode, ...] = (),
    evidence: tuple[Evidence, ...] = (),
    suggestion: Suggestion | None = None,
) -> AxisOutcome:
    return outcome(
        "applicability", label, rationale, codes=codes, evidence=evidence, suggestion=suggestion
    )


def claim_text(item: JudgeItem) -> str:
    """The proposition to judge: the claim, else the description, else the task context."""
    cit = item.citation
    for text in (cit.claim, cit.description, item.context):
        if text and len(text.strip()) >= 4:
            return text.strip()
    return ""


def is_remote(item: JudgeItem) -> bool:
    """True when the claim is far from the citation (a 法律依据 list item's claim is the
    answer's main conclusion)."""
    cit = item.citation
    cs = cit.claim_span
    if cs is None or not cit.claim:
        return False
    return cs.end < cit.span.start - REMOTE or cs.start > cit.span.end + REMOTE


_CLAUSES = re.compile(r"[^，,；;。\n]+")


def meta_subject(claim: str) -> str:
    """The subject X of a meta-description (「规定了X」, 「对X作了规定」, 「是关于X的规定」),
    or ``""``. Such a claim says what the provision is about, not a rule it states. The claim
    as a whole, else its last clause, is read (a heading line or a clause before it — 「二、
    违约金\n规定了违约金」, 「违约金条款有效，规定了违约金」 — is not what the citation says)."""
    text = claim.strip()
    clauses = _CLAUSES.findall(text)
    for part in (text, clauses[-1] if clauses else ""):
        m = META_DESCRIPTION.search(part.strip())
        if m is not None:
            return (m.group("x1") or m.group("x2") or m.group("x3") or "").strip()
    return ""


def proposition(item: JudgeItem) -> tuple[str, str, bool]:
    """``(query, claim, lenient)``: the retrieval query (claim + question), the claim used
    for overlap and scope checks, and whether the claim is only the answer's conclusion,
    generic, or a meta-description (then judged leniently against the question).

    The claim is read without bracketed case captions (a citation's own title is not its
    claim: 「参见指导案例24号（荣宝英诉王阳…纠纷案）」 claims nothing); a meta-description
    「规定了X」 is reduced to its subject X.
    """
    cit = item.citation
    claim = strip_caption(cit.claim).strip()
    ctx = item.context.strip()
    if rx.APPLICATION_STUB_RE.fullmatch(claim):
        claim = ""  # 「本案应当适用《X》第N条」: the facts of the question are the proposition
    subject = meta_subject(claim)
    if subject:
        claim = subject
    if specificity(claim) < EMPTY_CLAIM_SPECIFICITY:
        claim = ""  # 参见 / 可以: no proposition
    lenient = bool(subject) or is_remote(item) or specificity(claim) < MIN_CLAIM_SPECIFICITY
    if not claim and not ctx:
        claim = strip_caption(cit.description).strip()
    parts = [p for p in (claim, ctx) if p]
    query = " ".join(dict.fromkeys(parts))
    return query, claim, lenient


def _hits(item: JudgeItem, retriever: Retriever, query: str) -> list[ArticleRecord]:
    """The top :data:`ON_TOPIC_RANK` provisions of the cited instrument for ``query``."""
    rec = item.record
    if rec is None or not query:
        return []
    found = retriever.search(
        search_query(query), instrument=rec.instrument, as_of=item.as_of, k=ON_TOPIC_RANK
    )
    return [cand for cand, _ in found]


def _rank(item: JudgeItem, retriever: Retriever, query: str) -> int | None:
    rec = item.record
    if rec is None:
        return None
    for i, cand in enumerate(_hits(item, retriever, query)):
        if cand.article == rec.article:
            return i + 1
    return None


CLAIM_PART = re.compile(r"[，,；;。]\s*(?:并且|并|同时|而且|且|另外)?")
"""Where a claim of several parts divides: a clause break, with the connective that opens the
next part (「…，并要求公司支付经济补偿金」)."""
PART_MIN_CHARS = 8
"""A claim part shorter than this (normalised characters) is too short to rank for: 「根据离婚协议」
(six) ranks 婚姻法第三十九条 first and says nothing of what the article must hold (dev GPT-3.5 3-8
416); 「可以与公司协商解除劳动合同」 has thirteen."""


def _part_held(
    item: JudgeItem,
    retriever: Retriever,
    claim: str,
    source: str,
    table: BigramIdf | None,
    th: Thresholds,
) -> tuple[str, int] | None:
    """``(part, rank)`` for the first part of a claim of two or more (:data:`CLAIM_PART`) for
    which the cited article ranks within :data:`TOP_RANK` of its instrument and whose words it
    holds at ``th.applicability_partial_relevance`` (weighted containment); None for a claim of
    one part, or when no part is the article's. Used for a member of a list of citations only
    (each member cited for its own part of the shared claim)."""
    rec = item.record
    if rec is None:
        return None
    parts = [p.strip() for p in CLAIM_PART.split(claim) if len(normalize(p)) >= PART_MIN_CHARS]
    if len(parts) < 2:
        return None
    cores = [c for c in map(consequence_core, structure_of(rec).consequences) if c]
    for p in parts:
        if containment(p, source) < th.applicability_part_held:
            continue
        states = any(c in normalize(p) for c in cores)
        found = retriever.search(
            search_query(p),
            instrument=rec.instrument,
            as_of=item.as_of,
            k=ON_TOPIC_RANK if states else TOP_RANK,
        )
        for i, (cand, _) in enumerate(found):
            if cand.article == rec.article:
                return p, i + 1
    return None


CORE_MIN_CHARS = 4
"""A consequence core shorter than this (支付, 赔偿) names no particular consequence."""


def consequence_core(consequence: str) -> str:
    """The act a provision's consequence grants or imposes, without its modal and the party it
    is owed to (normalised): 「应当向劳动者支付经济补偿」 → 「支付经济补偿」 (劳动合同法第四十六条); 「」
    when shorter than :data:`CORE_MIN_CHARS`. A claim part stating it states that article's
    consequence (:func:`_part_held`: the article need only be on topic for the part, rank
    ≤ :data:`ON_TOPIC_RANK`, since every article that computes or limits the same payment
    outranks it on words)."""
    c = act_core(consequence)
    return c if len(c) >= CORE_MIN_CHARS else ""


def _evidence(item: JudgeItem, source: str, query: str) -> tuple[Evidence, ...]:
    sp = best_span(query, source)
    if sp is None:
        return ()
    span = Span(start=sp[0], end=sp[1]) if source == item.authority.text else None
    return (Evidence(text=source[sp[0] : sp[1]], authority_id=item.authority.id, span=span),)


def check_applicability(
    item: JudgeItem,
    retriever: Retriever,
    store: AuthorityStore,
    th: Thresholds,
    idf: IdfCache | None = None,
) -> AxisOutcome:
    """Judge applicability of one item offline (method in the module docstring).

    Args:
        item: the citation with its resolved provision; ``context`` is the question.
        retriever: ranks the cited instrument's provisions for the proposition and finds
            better ones (in the instrument and in the whole store).
        store: turns a better provision into an :class:`Authority` suggestion.
        th: ``applicability_min_relevance``, ``applicability_partial_relevance``.
        idf: IDF tables per instrument version (plain containment when None).
    """
    a = item.citation.assertion
    asked = bool(item.context.strip())
    if a is not None and a.role == "reference":
        ruled = reference_applicability(item, store, asked=asked)
        if ruled is not None:
            return ruled
    if a is not None and a.role is None and not asked:
        return _out("skipped", f"unreadable: {a.reason}")
    query, claim, lenient = proposition(item)
    if not query:
        return _out("skipped", "no claim and no question to judge the provision against")
    rec = item.record
    source = rec.text if rec is not None else item.authority.text
    if not source:
        return _out("skipped", "no source text to compare with")
    table: BigramIdf | None = idf.of(rec) if idf is not None else None
    cited = item.authority.text or source
    rel = weighted_containment(claim, source, table) if claim else 0.0
    hits = _hits(item, retriever, query)
    rank = next((i + 1 for i, c in enumerate(hits) if rec and c.article == rec.article), None)
    where = f"rank {'>' + str(ON_TOPIC_RANK) if rank is None else rank} in its instrument"
    evidence = _evidence(item, cited, claim or query)

    flip = _contradiction(item, claim, cited, lenient, rank, rel, th)
    if flip is not None:
        return flip
    if applied_to_facts(item, claim):
        if rec is not None and rec.instrument == CRIMINAL_LAW:
            # a 刑法 article applied to the question's facts: the facts against its conditions
            # (charge, conduct clause, general-part terms), not retrieval rank
            return facts_fit_outcome(item, store, th)
        # any other provision applied to the facts: are they a matter of its instrument at
        # all (the facts against every instrument of the store), not a rank inside it
        return civil_fit_outcome(item, store, th)
    ruled = condition_check(item, store)
    if ruled is not None:
        return ruled

    subject = meta_subject(strip_caption(item.citation.claim))
    if subject and claim and contains_phrase(subject, source):
        # 「《X》第N条规定了违约金」: a description of the provision's subject, which it is
        return _out(
            "supports",
            f"the report names the provision's subject 「{subject}」, which its text holds",
            evidence=_evidence(item, cited, subject) or evidence,
        )

    recital = restated_paragraph(item, claim, table)
    if recital is not None:
        # the report's words are one 款 of the cited article near-verbatim: a recital of the
        # provision is not a citation of the wrong provision, whatever the question's
        # retrieval or a store-wide candidate says (whether the conclusion drawn from it
        # holds is not a citation question)
        return _out(
            "supports",
            f"the report restates {recital} of the provision near-verbatim",
            evidence=_evidence(item, cited, claim or strip_caption(item.citation.description))
            or evidence,
        )

    ctx = item.context.strip()
    own = bool(claim) and not lenient
    if own and rel < th.applicability_partial_relevance:
        # A claim that is another provision's text is supported by that provision.
        other, other_score = better_provision(
            claim,
            item,
            retriever,
            store,
            cited_score=rel,
            margin=th.applicability_min_relevance,
            reason="the claim is this provision's rule",
            scorer=lambda c, t: weighted_containment(c, t, table),
        )
        # ... unless the claim is only a paraphrase in the instrument's vocabulary (not that
        # provision's text near-verbatim) and the cited provision ranks among the best for
        # the proposition: resemblance in words proves nothing against a top rank
        paraphrase = verbatim_share(claim, other.authority.text) < NEAR_VERBATIM if other else True
        ranked_top = rank is not None and rank <= TOP_RANK and rel >= MIN_FIT
        if other is not None and other_score >= RESTATES and not (paraphrase and ranked_top):
            return _out(
                "irrelevant",
                f"the claim states the rule of {other.authority.label} ({other_score:.2f}), "
                f"not of the cited provision ({where}, overlap {rel:.2f})",
                codes=("L1.1.2",),
                suggestion=other,
            )
    unimposed = sanction_unimposed(item, source)
    if unimposed is not None:
        return unimposed
    fits = rank is not None and rank <= TOP_RANK and (not own or rel >= MIN_FIT)
    if not fits and not claim and ctx and rec is not None:
        cover = facts_cover(rec, ctx, table)
        if cover >= th.applicability_facts_cover:
            fits = True  # the facts meet the conduct the provision describes
            where = f"{where}; the facts hold {cover:.2f} of its conduct clause"
    if not fits and own and rel >= RESTATES:
        fits = True  # the claim restates the provision
        where = "the claim restates it"
    if not fits and item.sibling_texts:
        # A list supports its shared claim as a whole: a member of a list whose other member
        # fits the claim is not judged as if it stood alone, provided it is on topic itself
        # (ranked for the proposition and holding part of the claim).
        pool, _ = list_pool(item, source)
        pooled = weighted_containment(claim, pool, table) if claim else 0.0
        sibling = next(
            (i + 1 for i, c in enumerate(hits[:TOP_RANK]) if c.text in item.sibling_texts), None
        )
        on_topic = (
            rank is not None and rank <= ON_TOPIC_RANK and rel >= th.applicability_min_relevance
        )
        if sibling is not None and on_topic and (not own or pooled >= MIN_FIT):
            fits = True
            where = f"{where}; its list member at rank {sibling} fits it, list overlap {pooled:.2f}"
        elif (
            own
            and on_topic
            and pooled >= th.applicability_partial_relevance
            and pooled - rel >= th.applicability_min_relevance
        ):
            # the co-cited provisions hold the part of the claim this one does not (a member of
            # another instrument is never in this instrument's ranking: 道路交通安全法第七十六条
            # 以及 民法典第一千一百七十九条 for 「由机动车一方承担赔偿责任，赔偿范围包括医疗费…」):
            # the claim is judged on the union, each member on its own part
            fits = True
            where = (
                f"{where}; with the provisions cited with it the claim is held at "
                f"{pooled:.2f} (its own part {rel:.2f})"
            )
        elif own and (part := _part_held(item, retriever, claim, source, table, th)) is not None:
            # a list cited for a claim of several parts, each member for its own: 「可以与公司协商解除
            # 劳动合同，并要求公司…支付经济补偿金。具体的法律依据为《劳动合同法》第三十六条、第四十六条规定」
            # — 第三十六条 is 协商解除, 第四十六条 the 经济补偿 it owes; neither ranks high for the
            # whole claim (review seed 33: 「仅部分相关」 on both, false alarms)
            fits = True
            where = (
                f"{where}; it ranks {part[1]} in its instrument for the claim's part 「{part[0]}」"
            )
    if fits:
        over = _overreach(claim, cited)
        if over is not None:
            word, scope = over
            return _out(
                "overextended",
                f"the claim generalises ({word}) but the provision is limited ({scope})",
                codes=("L1.1.2",),
                evidence=(Evidence(text=scope, authority_id=item.authority.id),),
            )
        return _out(
            "supports",
            f"the provision fits the claim ({where}, overlap {rel:.2f})",
            evidence=evidence,
        )

    target = ctx or claim
    sug, best = better_provision(
        target,
        item,
        retriever,
        store,
        cited_score=containment(target, source),
        margin=th.applicability_min_relevance,
        reason="fits the claim better",
        global_k=GLOBAL_K,
        query=query,
        full=PROPOSITION_FULL,
        said=strip_caption(item.citation.description).strip() or claim,
    )
    if ctx:
        # repair retrieval over the whole store for the question (cross-instrument allowed,
        # proof recorded); the in-instrument candidate stays the fallback
        scen = scenario_provision(
            item,
            retriever,
            store,
            ctx,
            cited_rank=rank,
            said=strip_caption(item.citation.description).strip() or claim,
            weights=th.candidate_weights,
            level_prior=th.candidate_level_prior,
            size_prior=th.candidate_size_prior,
            overlap_weight=th.candidate_overlap_weight,
            paragraph_weight=th.candidate_paragraph_weight,
        )
        if scen is not None:
            sug = scen
            best = containment(ctx, scen.authority.text)
    ranked = rank is not None and rank <= ON_TOPIC_RANK
    topical = ranked or rel >= th.applicability_min_relevance
    if lenient and not topical and ctx:
        topical = containment(ctx, source) >= th.applicability_min_relevance
    # the rationale names a provision only at the probability a note would name it: a
    # question's candidate the map puts low (《人民检察院刑事诉讼规则》第一百八十八条 for civil
    # citations in a consultation, 0.07) read as an untrue "fits better" in the report lines
    # (seed-17 review: 6 of 75 flagged rows)
    named = sug is not None and (
        sug.probability is None or sug.probability >= th.candidate_name_probability
    )
    better = f"; {sug.authority.label} fits better ({best:.2f})" if sug and named else ""
    if topical:
        return _out(
            "partially_supports",
            f"the provision is on topic but not among the best for the claim ({where}, "
            f"overlap {rel:.2f}){better}",
            codes=("L1.1.2",),
            suggestion=sug,
            evidence=evidence,
        )
    return _out(
        "irrelevant",
        f"the provision does not address the claim ({where}, overlap {rel:.2f}){better}",
        codes=("L1.1.2",),
        suggestion=sug,
    )


_SANCTION_WORDS = ("处罚", "追究", "罚", "刑", "拘传", "法律责任", "依照", "按照", "给予")
"""Words by which a provision imposes a sanction or takes one from elsewhere (依照…处罚,
追究刑事责任, 给予处分; not 处分 alone, which is also the disposal of property): a provision
with none of them and no penalty
(:data:`~governor.text.regexes.STRUCTURE_PENALTY_RE`) imposes no sanction."""


def sanction_unimposed(item: JudgeItem, source: str) -> AxisOutcome | None:
    """``irrelevant`` (L1.1.2) when the report applies or restates the provision for a sanction
    (its own words hold 处…罚款/拘留/有期徒刑…: :data:`~governor.text.regexes.STRUCTURE_PENALTY_RE`)
    and the provision — with the other members of its list — imposes none: no penalty, none of
    :data:`_SANCTION_WORDS`, no outgoing reference (:mod:`governor.authorities.structure`).
    None otherwise, and for 刑法 (its 总则 is applied with the 分则's penalty: offence_fit
    judges it), a ``reference`` or a ``quotation`` (Fidelity checks a quotation's words).

    The consequence part against the provision's structure: 企业破产法第六十八条 (the creditors'
    committee's powers) cited for 「人民法院可以…对其处以罚款」 fits the question by rank, but a
    lawyer sees at once that it fines no one (dev LawBench 3-2 GPT-3.5 62, tuning keys, silent
    before; the fine is 第一百二十六条).
    """
    a = item.citation.assertion
    rec = item.record
    if a is None or a.role not in ("application", "paraphrase") or rec is None:
        return None
    if rec.instrument == CRIMINAL_LAW:
        return None
    said = a.text or item.citation.claim
    m = rx.STRUCTURE_PENALTY_RE.search(said)
    if m is None:
        return None
    pool, _ = list_pool(item, source)
    if rx.STRUCTURE_PENALTY_RE.search(pool) or any(w in pool for w in _SANCTION_WORDS):
        return None
    if structure_of(rec).references:
        return None
    return _out(
        "irrelevant",
        f"the report states a sanction (「{m.group(0)}」); the provision imposes none "
        "(no penalty, no 处罚/追究, no reference to another provision)",
        codes=("L1.1.2",),
    )


def restated_paragraph(item: JudgeItem, claim: str, table: BigramIdf | None) -> str | None:
    """「第N款」 (「the text」 for a one-款 article) when the report's own words for the citation
    — its claim, else its description (「根据《X》第N条规定，<recital>。」 leaves the claim
    empty) — restate one 款 of the cited article: weighted containment at least
    :data:`RESTATES` and verbatim share (runs of four or more characters) at least
    :data:`~verifiers.suggest.NEAR_VERBATIM` of that 款's text. None otherwise, or without a
    record. Both thresholds are the existing ones for "restates" and "near-verbatim"; the
    review3 false alarms (劳动合同法第八十二条第一款 1.00/1.00, 社会保险法第四十五条
    0.86/0.92, 劳动合同法第三十七条 1.00/1.00) clear them, 个人所得税法第十二条 recited as
    「利息、红利所得应当缴纳个人所得税」 (0.45/0.67 on its 第二款) does not. A pinned 款/项 whose
    words restate a sibling 款/项 instead (:func:`verifiers.pins.restated_sibling`:
    民法典第五百八十五条第三款 cited with 第二款's 违约金 rule) is None: not a recital of it."""
    rec = item.record
    if rec is None:
        return None
    words = claim or strip_caption(item.citation.description).strip()
    if specificity(words) < MIN_CLAIM_SPECIFICITY:
        return None
    auth = item.authority
    if restated_sibling(rec, auth.paragraph, auth.item, words, table) is not None:
        return None  # the words are a sibling 款/项's, not the pinned one's (Fidelity says so)
    paras = [p.full_text for p in rec.paragraphs] or [rec.text]
    for k, text in enumerate(paras):
        if (
            weighted_containment(words, text, table) >= RESTATES
            and verbatim_share(words, text) >= NEAR_VERBATIM
        ):
            return f"第{k + 1}款" if len(paras) > 1 else "the text"
    return None


def _contradiction(
    item: JudgeItem,
    claim: str,
    cited: str,
    lenient: bool,
    rank: int | None,
    rel: float,
    th: Thresholds,
) -> AxisOutcome | None:
    flips = modality_flips(claim, cited) if claim and not lenient else ()
    on_topic = (rank is not None and rank <= TOP_RANK) or rel >= th.applicability_partial_relevance
    if not flips and claim and not lenient:
        # an opposed term swapped in a verbatim restatement (有效/无效, 连带/一般 …)
        swaps = polarity_swaps(claim, cited)
        if swaps:
            sw = swaps[0]
            span = (
                Span(start=sw.source_start, end=sw.source_end)
                if cited == item.authority.text
                else None
            )
            return _out(
                "contradicts",
                f"the claim says {sw.found}; the provision says {sw.expected} ({sw.kind})",
                codes=("L1.1.2",),
                evidence=(Evidence(text=sw.expected, authority_id=item.authority.id, span=span),),
            )
    if not flips or not on_topic:
        return None
    f = flips[0]
    word = f.expected.word + f.expected.predicate
    at = cited.find(word)
    span = Span(start=at, end=at + len(word)) if at >= 0 and cited == item.authority.text else None
    return _out(
        "contradicts",
        f"the claim says {f.found.word}{f.found.predicate}; the provision says {word}",
        codes=("L1.1.2",),
        evidence=(Evidence(text=word, authority_id=item.authority.id, span=span),),
    )


def hard_failure(
    item: JudgeItem,
    retriever: Retriever,
    store: AuthorityStore,
    th: Thresholds,
    idf: IdfCache | None = None,
) -> AxisOutcome | None:
    """The deterministic applicability failure (the claim flips the provision's modality on
    its topic: ``contradicts``), or None. An LLM pass never overrides it."""
    a = item.citation.assertion
    if a is not None and (a.role is None or a.role == "reference") and not item.context.strip():
        return None
    query, claim, lenient = proposition(item)
    rec = item.record
    source = rec.text if rec is not None else item.authority.text
    if not query or not source or not claim:
        return None
    table = idf.of(rec) if idf is not None else None
    rel = weighted_containment(claim, source, table)
    rank = _rank(item, retriever, query)
    return _contradiction(item, claim, item.authority.text or source, lenient, rank, rel, th)


def facts_cover(rec: ArticleRecord, facts: str, table: BigramIdf | None) -> float:
    """The largest IDF-weighted share of a 款's conduct clause (its words before the penalty,
    :data:`~governor.text.regexes.SENTENCE_PENALTY_RE`; the whole 款 when it has none) that
    ``facts`` hold, in [0, 1]: do the stated facts meet what the provision describes?"""
    best = 0.0
    for para in rec.text.split("\n"):
        if not para.strip():
            continue
        m = rx.SENTENCE_PENALTY_RE.search(para)
        conduct = para[: m.start()] if m is not None else para
        best = max(best, weighted_containment(conduct, facts, table))
    return best


def _overreach(claim: str, cited: str) -> tuple[str, str] | None:
    """``(universal word, scope word)`` when the claim generalises a limited provision."""
    u = UNIVERSAL.search(claim)
    if u is None or UNIVERSAL.search(cited):
        return None
    for m in SCOPE.finditer(cited):
        scope = m.group(0).rstrip("，,")
        if not contains_phrase(scope, claim):
            return u.group(0), scope
    return None
