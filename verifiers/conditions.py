"""Applicability read from legal conditions, not topical overlap (issue 15 item 2–3; layer 3).

Each rule reads the cited provision's structure (:mod:`governor.authorities.structure`) or the
charge table (:mod:`governor.authorities.charges`) and returns a decision, or None when it has
nothing to say (then :mod:`verifiers.applicability` goes on with its retrieval test):

0. **Stale rate** (:func:`stale_rate_rule`): a fixed interest rate (24%) claimed under an
   instrument whose version in force states rates as LPR multiples only → ``contradicts``
   with ``STALE`` and the in-force article as suggestion.
1. **Charge** (:func:`charge_rule`): a 刑法 分则 article cited where the report names a charge
   (罪名) — the charge table (罪名 意见 and 补充规定 in the store) says which article defines it:
   the cited article defines a named charge → ``supports``; it defines other charges, none of
   them named → ``irrelevant`` (L1.1.2) with the defining article as suggestion; it defines no
   charge at all (第二百六十九条, 第三百五十六条) → ``supports`` when its text names the charge or
   refers to its defining article, else no decision.
2. **Defined term** (:func:`definition_rule`): the claim states the definition of a term
   (「……的，是主犯」) that another article of the instrument defines, or names such a term (自首 → 刑法第六十七条, 累犯 → 第六十五条), the cited article defines a
   different term and says nothing of the claim's → ``irrelevant`` with the defining article.
   General-part articles (自首, 累犯, 共同犯罪 …) are thus judged on their own conditions.
3. **Amount, not entitlement** (:func:`grant_rule`): the cited article only measures a
   consequence (role ``amount``, no modal grant: 劳动合同法第四十七条 sets the 经济补偿) while the
   claim asserts the entitlement (应当支付经济补偿) without any amount → ``irrelevant`` with the
   article that grants it (第四十六条, whose consequence 「应当向劳动者支付经济补偿」 holds it);
   a shared object that is the instrument's own subject (个人所得税 in 个人所得税法) proves
   nothing.
4. **Outside the list** (:func:`list_rule`): the cited article grants its consequence only in
   下列情形; the claim states that consequence for facts that match none of the items →
   ``overextended`` (L1.1.2), the items named in the rationale.

Suggestions carry their proof in ``reason`` (the table or structure that proves them), as the
revision policy requires (SPEC §5).
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from governor.authorities import ArticleRecord, AuthorityStore
from governor.authorities.charges import CRIMINAL_LAW, charge_table, is_special_part
from governor.authorities.structure import ProvisionStructure, structure_of
from governor.core.config import DEFAULT_THRESHOLDS
from governor.core.labels import CHARGE_DEFINED_MARK
from governor.core.models import Evidence, Suggestion, TaxonomyCode
from governor.text import regexes as rx
from verifiers.facts import mentions_exception, quantities, rate_form_mismatches
from verifiers.judge import AxisOutcome, JudgeItem, outcome
from verifiers.textsim import bigrams, containment

CHARGE_CONFIDENCE = DEFAULT_THRESHOLDS.conditions_charge_confidence
"""Confidence of a suggestion read from the charge table (an official list, not a guess)."""
DEFINITION_CONFIDENCE = DEFAULT_THRESHOLDS.conditions_definition_confidence
"""Confidence of a suggestion to the article defining a term the claim names."""
GRANT_CONFIDENCE = DEFAULT_THRESHOLDS.conditions_grant_confidence
"""Confidence of a suggestion to the article granting the consequence the claim asserts."""
ITEM_MATCH = DEFAULT_THRESHOLDS.conditions_item_match
"""A claim's facts match a 下列情形 item when this share of the item's content bigrams (or of
the facts') is shared."""
MIN_TRIGGER = 6
"""Characters a 分则 trigger clause needs to identify its article from the facts."""
MIN_SHARED = 4
"""Characters a claim must share verbatim with a consequence to be stating it."""
UNLISTED_CASE = "which is none of the listed cases"
"""In the rationale of :func:`list_rule`: the claim's facts are none of the 下列情形 (the
revision policy never rewrites such a claim into the provision's text)."""

_ENTITLEMENT = re.compile(r"应当|应|须|必须|需要?|有权|可以|可|能够?|享有|要求|主张|获得")
_AMOUNT_WORDS = re.compile(
    r"按|标准|计算|每满|个月|倍|最高|年限|多少|数额|金额|不超过|半个月|[0-9]"
)


def _out(
    label: str,
    rationale: str,
    *,
    evidence: tuple[Evidence, ...] = (),
    suggestion: Suggestion | None = None,
    stale: bool = False,
) -> AxisOutcome:
    codes: tuple[TaxonomyCode, ...] = (
        ("L1.1.2",) if label in ("irrelevant", "overextended", "contradicts") else ()
    )
    if stale:
        codes = (*codes, "STALE")
    return outcome(
        "applicability", label, rationale, codes=codes, evidence=evidence, suggestion=suggestion
    )


def _suggest(
    store: AuthorityStore, rec: ArticleRecord | None, score: float, reason: str
) -> Suggestion | None:
    if rec is None:
        return None
    auth = store.authority(rec)
    return None if auth is None else Suggestion(authority=auth, score=score, reason=reason)


def _texts(item: JudgeItem) -> str:
    cit = item.citation
    return " ".join(t for t in (cit.claim, cit.description, item.context) if t)


def charge_rule(item: JudgeItem, store: AuthorityStore) -> AxisOutcome | None:
    """Rule 1 of the module docstring (刑法 分则 article vs the charge the report names)."""
    rec = item.record
    if rec is None or rec.instrument != CRIMINAL_LAW or not is_special_part(rec.article):
        return None
    table = charge_table(store)
    named = table.find(_texts(item))
    if not named:
        return _facts_rule(item, store, rec)
    own = [c for c in named if table.defines(rec.article, c)]
    if own:
        return _out(
            "supports",
            f"第{rec.article}条 {CHARGE_DEFINED_MARK} {own[0]} (charge table: {table.sources[0]})",
        )
    mine = table.charges_of(rec.article)
    written = written_charge(_texts(item), mine)
    if written is not None:
        return _out(
            "supports",
            f"第{rec.article}条 defines {written[1]}, charged as {written[0]} (a 选择性罪名 written "
            "in part)",
        )
    if not mine:
        # an article that defines no charge (第二百六十九条 转化型抢劫 「依照本法第二百六十三条的
        # 规定定罪处罚」, 第三百五十六条 毒品再犯, 第三百五十七条 毒品的定义) applies to the charges
        # its text names or refers to; it is no evidence against the report
        refs = {r.article for r in structure_of(rec).references if r.article}
        hit = next(
            (c for c in named if c in rec.text or any(table.defines(a, c) for a in refs)), None
        )
        if hit is not None:
            return _out(
                "supports",
                f"第{rec.article}条 defines no charge; it applies to {hit} (named or referred to "
                "in its text)",
            )
        return None
    charge = named[0]
    target = table.articles_of(charge)[0]
    other = store.article(CRIMINAL_LAW, target.article, as_of=item.as_of)
    defined = "、".join(table.charges_of(rec.article)) or "no charge"
    sug = _suggest(
        store,
        other,
        CHARGE_CONFIDENCE,
        f"defines {charge} (proof: charge table from {len(table.sources)} 罪名 instruments)",
    )
    return _out(
        "irrelevant",
        f"the report names {charge}, defined by 第{target.article}条; the cited 第{rec.article}条 "
        f"defines {defined}",
        suggestion=sug,
    )


MIN_PARTIAL_CHARGE = 5
"""Characters a charge as written needs to be matched, in part, with a 选择性罪名 (shorter ones —
抢劫罪 — are in part in many names)."""


def _subsequence(short: str, long: str) -> bool:
    it = iter(long)
    return all(ch in it for ch in short)


def written_charge(text: str, charges: tuple[str, ...]) -> tuple[str, str] | None:
    """``(as written, table name)`` when a conviction in ``text`` (犯X罪 / 构成X罪) names one of
    ``charges`` in part — its characters in order, as a 选择性罪名 is charged (非法持有枪支罪 for
    「非法持有、私藏枪支、弹药罪」, 拒不执行判决罪 for 「拒不执行判决、裁定罪」) — else None."""
    if not charges:
        return None
    for m in rx.CONVICTION_RE.finditer(text):
        said = m.group(0)
        said = said[2:] if said.startswith("构成") else said[1:]
        said = said[: said.find("罪") + 1]
        if len(said) < MIN_PARTIAL_CHARGE:
            continue
        for name in charges:
            if "、" in name and _subsequence(said, name.replace("、", "")):
                return said, name
    return None


_TRIGGERS: dict[tuple[int, str], dict[str, str]] = {}


def _triggers(store: AuthorityStore, version: str) -> dict[str, str]:
    """Distinctive 分则 triggers of one 刑法 version: 「……的」 clause (without 的, at least
    :data:`MIN_TRIGGER` characters) → the one article whose trigger it is (clauses shared by
    several articles — 情节严重的 — are dropped)."""
    key = (id(store), version)
    hit = _TRIGGERS.get(key)
    if hit is not None:
        return hit
    seen: dict[str, set[str]] = {}
    for a in store.articles(CRIMINAL_LAW, version_hint=version):
        if not is_special_part(a.article):
            continue
        for c in structure_of(a).conditions:
            t = c.text.removesuffix("的")
            if c.kind == "clause" and len(t) >= MIN_TRIGGER:
                seen.setdefault(t, set()).add(a.article)
    out = {t: next(iter(arts)) for t, arts in seen.items() if len(arts) == 1}
    _TRIGGERS[key] = out
    return out


def _facts_rule(item: JudgeItem, store: AuthorityStore, rec: ArticleRecord) -> AxisOutcome | None:
    """A 分则 article cited for facts stated in another article's trigger words (no charge
    named): the facts hold a distinctive trigger of another article and none of the cited
    article's → ``irrelevant`` with that article; they hold one of its own → ``supports``.
    Another article's trigger that the cited article's text also holds (第一百八十四条 restates
    第三百八十五条's 「索取他人财物」 for bank staff) is not evidence against the cited article."""
    text = _texts(item)
    # a trigger the cited article's own text holds (184 「索取他人财物或者非法收受他人财物」, 385's
    # 「索取他人财物」) is its trigger too: no evidence against it
    found = {
        art
        for t, art in _triggers(store, rec.version).items()
        if t in text and (art == rec.article or t not in rec.text)
    }
    if not found:
        return None
    if rec.article in found:
        return _out("supports", f"the facts are the trigger of 第{rec.article}条 (its own words)")
    art = sorted(found)[0]
    other = store.article(CRIMINAL_LAW, art, version_hint=rec.version)
    sug = _suggest(
        store, other, GRANT_CONFIDENCE, "the facts are its trigger (proof: trigger verbatim)"
    )
    return _out(
        "irrelevant",
        f"the facts are the trigger of 第{art}条, not of the cited 第{rec.article}条",
        suggestion=sug,
    )


_DEFINITIONS: dict[tuple[int, str, str], dict[str, ArticleRecord]] = {}


def _definitions(store: AuthorityStore, rec: ArticleRecord) -> dict[str, ArticleRecord]:
    """Term → defining article of the instrument version ``rec`` belongs to (cached)."""
    key = (id(store), rec.instrument, rec.version)
    hit = _DEFINITIONS.get(key)
    if hit is not None:
        return hit
    out: dict[str, ArticleRecord] = {}
    for a in store.articles(rec.instrument, version_hint=rec.version):
        for term in structure_of(a).defines:
            if len(term) >= 2:
                out.setdefault(term, a)
    _DEFINITIONS[key] = out
    return out


def _claim_defines(claim: str) -> list[str]:
    """Terms the claim itself defines (「……的，是主犯」, 「共同犯罪是指……」)."""
    out: list[str] = []
    for m in rx.STRUCTURE_DEFINITION_RE.finditer(claim):
        term = next((g for g in m.groups() if g), "").strip('“”"「」 ')
        if term:
            out.append(term)
    return out


def definition_rule(item: JudgeItem, store: AuthorityStore) -> AxisOutcome | None:
    """Rule 2 of the module docstring (a term defined elsewhere in the instrument)."""
    rec = item.record
    claim = item.citation.claim.strip()
    if rec is None or not claim:
        return None
    mine = structure_of(rec).defines
    if not mine:
        return None
    defs = _definitions(store, rec)
    stated = [t for t in _claim_defines(claim) if t in defs and defs[t].article != rec.article]
    named = [t for t, a in defs.items() if t in claim and a.article != rec.article]
    if stated and not any(t in mine for t in stated):
        term = stated[0]  # the claim states another article's definition
    elif not named or any(t in claim for t in mine) or any(t in rec.text for t in named):
        return None
    else:
        term = max(named, key=len)
    target = defs[term]
    sug = _suggest(
        store,
        target,
        DEFINITION_CONFIDENCE,
        f"defines {term} (proof: 第{target.article}条 text 「…是{term}」 / 「{term}是指…」)",
    )
    return _out(
        "irrelevant",
        f"the claim is about {term}, defined by 第{target.article}条; the cited article defines "
        f"{'、'.join(mine)}",
        suggestion=sug,
    )


def _shared(a: str, b: str) -> str:
    m = SequenceMatcher(None, a, b, autojunk=False).find_longest_match(0, len(a), 0, len(b))
    return a[m.a : m.a + m.size]


def _object(shared: str) -> str:
    """The thing granted in a shared consequence phrase (支付经济补偿 → 经济补偿)."""
    return re.sub(r"^.*?(?:支付|赔偿|给予|获得|承担|返还|退还|补偿)", "", shared) or shared


def grant_rule(item: JudgeItem, store: AuthorityStore) -> AxisOutcome | None:
    """Rule 3 of the module docstring (an amount article cited for an entitlement)."""
    rec = item.record
    claim = item.citation.claim.strip()
    if rec is None or not claim:
        return None
    own = structure_of(rec)
    if not own.has("amount") or own.grants:
        return None
    if not _ENTITLEMENT.search(claim) or _AMOUNT_WORDS.search(claim):
        return None
    best: tuple[int, ArticleRecord, str] | None = None
    for a in store.articles(rec.instrument, version_hint=rec.version):
        if a.article == rec.article:
            continue
        for q in structure_of(a).consequences:
            shared = _shared(claim, q)
            thing = _object(shared)
            if len(shared) < MIN_SHARED or len(thing) < 2 or thing not in rec.text:
                continue
            if thing == shared:
                # no verb of granting in what the two share: a thing both name is no grant
                # (企业破产法第八条's filing duty 「…社会保险费用的缴纳情况」 is not what grants
                # 「仍需承担职工社会保险费用」 that 第一百一十三条 ranks; review seed 33 ×2)
                continue
            if thing in rec.instrument:
                # the law's own subject (个人所得税 in 个人所得税法): every article speaks of
                # it, so sharing it proves no entitlement (review3: 第十二条's withholding
                # rule sent to 第五条's 减征 for 「应当缴纳个人所得税」)
                continue
            if best is None or len(shared) > best[0]:
                best = (len(shared), a, q)
    if best is None:
        return None
    _, target, q = best
    sug = _suggest(
        store,
        target,
        GRANT_CONFIDENCE,
        f"grants it: 「{q}」 (proof: structure consequence shared with the claim)",
    )
    return _out(
        "irrelevant",
        f"the cited article only sets the amount or standard; the entitlement the claim states "
        f"(「{q}」) is granted by 第{target.article}条",
        suggestion=sug,
    )


def _facts_before(claim: str, shared: str) -> str:
    at = claim.find(shared)
    head = (claim[:at] if at > 0 else "").strip("，,。；; ")
    lead, _, tail = head.rpartition("，")
    # 「劳动者主动辞职的，用人单位」: the short tail is the consequence's subject, not a fact
    return lead if lead and len(tail) <= 6 else head


def list_rule(item: JudgeItem, structure: ProvisionStructure) -> AxisOutcome | None:
    """Rule 4 of the module docstring (a 下列情形 consequence claimed for other facts).

    The facts are the claim before the consequence, without the words of the list's lead
    (its subject: 劳动者有下列情形之一的); they match an item when :data:`ITEM_MATCH` of their
    remaining content bigrams are the item's."""
    claim = item.citation.claim.strip()
    items = [c.text for c in structure.conditions if c.kind == "list_item"]
    rec = item.record
    if rec is None or not claim or not items or not structure.consequences:
        return None
    if mentions_exception(claim):
        return None  # the claim states an exception (…的除外), not the listed consequence
    lead = bigrams("".join(p.text for p in rec.paragraphs if p.items))
    for q in structure.consequences:
        shared = _shared(claim, q)
        if len(shared) < MIN_SHARED:
            continue
        facts = _facts_before(claim, shared)
        own = bigrams(facts) - lead
        if len(own) < 2:
            return None
        if any(len(own & bigrams(t)) / len(own) >= ITEM_MATCH for t in items):
            return None
        listed = "；".join(t.rstrip("；;。") for t in items[:4])
        return _out(
            "overextended",
            f"the claim states 「{q}」 for 「{facts}」, {UNLISTED_CASE} ({listed})",
            evidence=(Evidence(text=items[0], authority_id=item.authority.id),),
        )
    return None


_LIST_LEAD = re.compile(
    r"^(?P<lead>[^\n]*?有下列情形之一的[，,]?)(?P<rule>[^\n]*?)[：:]\s*$", re.MULTILINE
)
_LIST_ITEM = re.compile(r"^\s*[（(][一二三四五六七八九十]+[）)](?P<item>[^\n]+)$", re.MULTILINE)


def unlisted_case(said: str, article_text: str) -> str | None:
    """What :func:`list_rule` reads, on a provision's text alone: when ``article_text`` grants
    its consequence only in 下列情形 (「有下列情形之一的，用人单位可以解除劳动合同…：」 and its
    （一）（二）… lines) and ``said`` states that consequence (:data:`MIN_SHARED` characters
    verbatim) for facts matching none of the items (:data:`ITEM_MATCH` of the facts' own
    content bigrams), the facts; else None. A rewrite into such a provision's text would swap
    the report's case for the listed ones (劳动法第二十六条 pasted over 「劳动合同期满…续订」:
    issue 22 harm review)."""
    said = said.strip()
    m = _LIST_LEAD.search(article_text)
    items = [it.group("item") for it in _LIST_ITEM.finditer(article_text)]
    if m is None or not items or not said:
        return None
    rule = m.group("rule").strip("，,；; ")
    shared = _shared(said, rule)
    if len(shared) < MIN_SHARED or len(rule) < MIN_SHARED:
        return None
    if mentions_exception(said.replace(shared, "")):
        return None  # the report states an exception (…的除外), not the listed consequence
    facts = _facts_before(said, shared)
    own = bigrams(facts) - bigrams(m.group("lead") + rule)
    if len(own) < 2:
        return None
    if any(len(own & bigrams(t)) / len(own) >= ITEM_MATCH for t in items):
        return None
    return facts


def stale_rate_rule(item: JudgeItem, store: AuthorityStore) -> AxisOutcome | None:
    """Rule 0 of the module docstring: a fixed interest rate (24%) claimed under an
    instrument whose version in force on the as-of date states rates only as LPR multiples
    (:func:`verifiers.facts.rate_form_mismatches`) → ``contradicts`` with ``STALE``: the
    fixed rate is a superseded rule; the in-force article that states the LPR multiple and
    best fits the claim is the suggestion."""
    rec = item.record
    claim = item.citation.claim.strip()
    if rec is None or not claim:
        return None
    fixed = {round(q.value, 6) for q in quantities(claim) if q.unit == "%"}
    if not fixed:
        return None  # checked first: most claims state no rate, and the articles cost more
    arts = store.articles(rec.instrument, as_of=item.as_of)
    if not arts or any(
        round(q.value, 6) in fixed for a in arts for q in quantities(a.text) if q.unit == "%"
    ):
        return None
    scored = [
        (containment(claim, a.text), a, mm)
        for a in arts
        for mm in rate_form_mismatches(claim, a.text)[:1]
    ]
    if not scored:
        return None
    score, target, mm = max(scored, key=lambda t: (t[0], -t[1].ordinal))
    multiple = mm.expected.text
    sug = _suggest(
        store,
        target,
        GRANT_CONFIDENCE * min(1.0, 2 * score),
        f"states the current rule, 一年期贷款市场报价利率{multiple} (proof: rate form; the "
        f"version in force states no fixed rate)",
    )
    return _out(
        "contradicts",
        f"the claim states a fixed rate ({mm.found.text}); the version in force "
        f"({target.version}) caps it at {multiple} the 一年期贷款市场报价利率 (LPR) "
        f"(第{target.article}条): a superseded rule",
        evidence=(Evidence(text=multiple, authority_id=item.authority.id),),
        suggestion=sug,
        stale=True,
    )


def condition_check(item: JudgeItem, store: AuthorityStore) -> AxisOutcome | None:
    """The first decision of rules 0–4 (module docstring), or None."""
    for rule in (stale_rate_rule, charge_rule, definition_rule, grant_rule):
        got = rule(item, store)
        if got is not None:
            return got
    if item.record is not None:
        return list_rule(item, structure_of(item.record))
    return None
