"""Governance strategies (SPEC §5): which edits a round proposes from the verdicts.

* ``existence`` (E-Filter): sees only existence; removes citations with E = 0 (and, under
  ``strict``, unverifiable ones) with their carrier phrase, keeping the claim.
* ``efa`` (E/F/A revision): sees the full verdicts and prefers repair to removal — renumber,
  fix 款/项, restore numbers/modality/但书, replace repealed authorities by their successor
  provision, re-anchor to a better-supporting provision — and removes a citation (marking the
  claim unsupported) only when nothing supports the claim.

Both return edits over the text of the round; :func:`governor.revision.ops.apply_edits` applies them.
What each edit may change is decided by :class:`governor.revision.policy.RevisionPolicy`
(``proven`` by default: a word-changing edit carries its proof, otherwise it becomes an
annotation naming the best candidate).
Layer 4: imports verdict types and repair operations, never the pipeline.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field

from governor.core.config import DEFAULT_THRESHOLDS, Thresholds
from governor.core.labels import judged_failing
from governor.core.models import Authority, Citation, Edit, EditOp, Proof, Span, Verdict
from governor.revision.ops import (
    MARKS,
    edit,
    removal_span,
    remove,
    retarget,
    sentence_bounds,
)
from governor.revision.policy import (
    IN_TARGET,
    MOVE_WORDS,
    MOVES,
    QUOTE_IN,
    QUOTE_OUT,
    WORD_OPS,
    Locator,
    RevisionPolicy,
    claim_word_count,
    clause_end,
    outside_quotes,
    pin_label,
    pinpoint,
    said_of,
    sentence_end,
    unit_text,
)
from governor.text.numerals import article_label, to_chinese
from governor.text.regexes import CITEGOV_NOTE, CLAUSE_BOUNDARY_RE, MODAL_WORD_RE
from governor.text.sanitize import fenced_blocks
from verifiers.fact_clauses import fact_clause
from verifiers.facts import (
    modality_flips,
    number_mismatches,
    polarity_swaps,
    provisos,
    quantities,
)
from verifiers.fidelity import invented_item
from verifiers.foreign_clauses import note_head as foreign_note_head
from verifiers.successor_pin import FEATURE as SUCCESSOR_OF_CITED
from verifiers.suggest import DISTINCT_REASON, OLD_SUBJECT_REASON, bracket_title
from verifiers.textsim import containment, verbatim_share

_CONTENT_INTRO = re.compile(
    r"\s*(?:的)?(?:中)?(?:明确)?(?:规定|载明|写道|指出)?(?:了)?\s*[：:]\s*[“\"「『]?\s*"
)
_TRAILING = '。；;，, ”"」』'


def _short_misdescribed(v: Verdict) -> bool:
    """F ``misdescribed`` on a claim of fewer than ``policy.MOVE_WORDS`` words (the lexical F
    check is not trusted there: ``policy.generic_kind``)."""
    return v.fidelity.label == "misdescribed" and claim_word_count(said_of(v.citation)) < MOVE_WORDS


def _content_form(text: str, cit: Citation) -> bool:
    """True when the description is presented as the provision's own content: a quotation, or
    introduced by a colon (「第N条：…」, 「第N条规定：…」) rather than 「规定，P」."""
    ds = cit.description_span
    if ds is None:
        return False
    if cit.quotes:
        return True
    between = text[cit.span.end : ds.start]
    return _CONTENT_INTRO.fullmatch(between) is not None


def _replacement(text: str, span: Span, said: str, src: str) -> tuple[Span, str]:
    """The span and text that replace ``said`` by the provision text ``src`` without doubling
    the sentence's closing punctuation (the report's own 。/；/” stay where they are)."""
    trail = len(said) - len(said.rstrip(_TRAILING))
    body = Span(start=span.start, end=span.end - trail)
    after = src.replace("\n", "").rstrip("。；;")
    nxt = text[body.end : body.end + 1]
    if not nxt or nxt not in _TRAILING + "\n（(":
        after += "。"
    return body, after


def _inside(span: Span, regions: Sequence[tuple[int, int]]) -> bool:
    return any(a <= span.start and span.end <= b for a, b in regions)


def _groups(verdicts: Sequence[Verdict]) -> dict[str, list[Citation]]:
    out: dict[str, list[Citation]] = {}
    for v in verdicts:
        if v.citation.group:
            out.setdefault(v.citation.group, []).append(v.citation)
    return out


def _merged(members: Sequence[Citation]) -> Citation:
    first, last = members[0], members[-1]
    return first.model_copy(
        update={
            "span": Span(start=first.span.start, end=last.span.end),
            "description_span": last.description_span,
        }
    )


def _dependents(ids: set[str], verdicts: Sequence[Verdict]) -> list[Verdict]:
    """Verdicts whose citation refers back (transitively) to one of ``ids``."""
    found: list[Verdict] = []
    todo = set(ids)
    changed = True
    while changed:
        changed = False
        for v in verdicts:
            a = v.citation.antecedent
            if a in todo and v.citation.id not in todo:
                todo.add(v.citation.id)
                found.append(v)
                changed = True
    return found


def _drift_evidence(v: Verdict) -> tuple[str, str] | None:
    """``(version, article)`` of the other version's article a STALE description restates."""
    if "STALE" not in v.taxonomy or v.fidelity.label != "misdescribed":
        return None
    judged = v.resolved.version if v.resolved is not None else None
    for e in v.fidelity.evidence:
        if e.authority_id and "@" in e.authority_id:
            version, _, article = e.authority_id.partition("@")[2].partition("#")
            if version == judged:
                # another article of the version judged (a repealed law's only text), not
                # another version: 「所述内容系该法2007年版本第一百零六条」 misread a better
                # match in 物权法 itself as a version drift (held-out review, 2026-12-01)
                continue
            return version, article
    return None


def _drift_is_later(v: Verdict) -> bool:
    """Whether a STALE description restates a later version than the one judged (the text of
    a law not yet in force on the report's date)."""
    found = _drift_evidence(v)
    judged = v.resolved.version if v.resolved is not None else None
    return found is not None and judged is not None and found[0] > judged


def _drift_note(text: str, v: Verdict) -> Edit | None:
    """A note after a citation whose description states another version's text (the author's
    point 「根据X规定，P」 is kept; the reader learns the rule changed). None when noted."""
    found = _drift_evidence(v)
    if found is None:
        return None
    version, article = found
    num, _, sfx = article.partition("之")
    pin = f"第{to_chinese(int(num))}条" + (f"之{sfx}" if sfx else "") if num.isdigit() else ""
    auth = v.resolved
    if _drift_is_later(v):
        note = f"（注：所述内容系该法{version[:4]}年修订后{pin}的规定，报告日期时尚未施行，请核实）"
    elif v.existence.label == "repealed" and auth is not None and auth.status == "repealed":
        # a repealed law was not amended: 「现行版本已修改」 would misstate its status
        end = auth.in_force_to
        when = f"已于{end.year}年{end.month}月{end.day}日废止" if end else "已废止"
        note = f"（注：所述内容系该法{version[:4]}年版本{pin}的规定，该法{when}，请核实）"
    else:
        note = f"（注：所述内容系该法{version[:4]}年版本{pin}的规定，现行版本已修改，请核实）"
    cit = v.citation
    # after what the report says (its description, else its claim), so the citation and its
    # description still parse the same on re-verification
    said = cit.description_span if cit.description else cit.claim_span
    at = said.end if said is not None and said.end >= cit.span.end else cit.span.end
    return _note_at(text, v, at, note, "mark_stale", v.fidelity.rationale)


def _note_at(text: str, v: Verdict, at: int, note: str, op: EditOp, reason: str) -> Edit | None:
    """Insert ``note`` at offset ``at``; None when ``at`` is past the text or the note is in the
    citation's sentence already (an earlier round or run)."""
    if at > len(text):
        return None
    at = outside_quotes(text, at)  # a note never goes inside quotation marks
    if note in text[v.citation.span.start : sentence_end(text, at)]:
        return None
    return edit(op, text, Span(start=at, end=at), note, reason, v)


_MOVES = frozenset({"renumber", "reanchor", "replace_repealed"})


RESTATES_SAID = DEFAULT_THRESHOLDS.strategies_restates_said
"""Share of what the report says that must be in another instrument's provision…"""
RESTATES_TARGET = DEFAULT_THRESHOLDS.strategies_restates_target
"""…and share of that provision it must cover, before a citation moves to that instrument."""


def _restates_provision(said: str, provision: str) -> bool:
    """Whether ``said`` is ``provision``'s text (near-verbatim both ways), not a fragment."""
    return (
        containment(said, provision) >= RESTATES_SAID
        and containment(provision, said) >= RESTATES_TARGET
    )


def _overreach_note(text: str, v: Verdict) -> Edit | None:
    """A note after the claim of an overextended citation naming the limit it drops
    (「（注：该条文限于「已满十四周岁不满十六周岁的人，犯故意杀人…的」情形，上述表述超出其适用
    范围，请核实）」); None when noted or when the verdict names no limit."""
    if v.applicability.label != "overextended" or not v.applicability.evidence:
        return None
    limit = v.applicability.evidence[0].text.strip().rstrip("，,")  # the scope words dropped
    limit = limit if len(limit) <= 40 else limit[:40] + "…"
    case = "情形" if limit.endswith("的") else "的情形"
    note = f"（注：该条文适用于「{limit}」{case}，上述表述超出其适用范围，请核实）"
    cit = v.citation
    said = cit.description_span if cit.description else cit.claim_span
    at = said.end if said is not None else cit.span.end
    return _note_at(text, v, at, note, "mark_overreach", v.applicability.rationale)


REWRITE_MIN = DEFAULT_THRESHOLDS.strategies_rewrite_min
"""A content-form description is rewritten from the article only when at least this share of
it is in the article (a flawed restatement); below, it is another text and gets a note."""
MISDESCRIBED_NOTE = "（注：经核查，该条文并无上述内容，请核实）"
"""Left after a description presented as an article's content that the article does not hold."""


def _misdescribed_note(text: str, v: Verdict) -> Edit | None:
    """:data:`MISDESCRIBED_NOTE` after the description (None when already there)."""
    ds = v.citation.description_span
    if ds is None:
        return None
    return _note_at(text, v, ds.end, MISDESCRIBED_NOTE, "mark_misdescribed", v.fidelity.rationale)


def _recital_of_borrowed_claim(text: str, v: Verdict) -> bool:
    """Whether ``v``'s citation recites its provision faithfully (F ``faithful`` on a
    description in its own sentence) while the claim Applicability judged is another
    sentence's (a 法律依据 item is judged against the answer's conclusion,
    ``governor.citations.claims`` rule 4). A note there lands after the recital, where
    「与上述结论仅部分相关」 reads as doubt of words that are the provision's own (fresh review
    seed 17: 《社会保险法》第五十八条 recited rightly under 法律依据, judged harmful); the
    verdict report's line still says it. A claim in the citation's sentence is the recital's
    own (then the note stands: dev review seed 11, 25 of 27 on-topic citations wrong)."""
    cit = v.citation
    if v.fidelity.label != "faithful" or cit.description_span is None or cit.claim_span is None:
        return False
    a, b = sentence_bounds(text, cit.span.start)
    inside = a <= cit.description_span.start and cit.description_span.end <= b + 1
    return inside and not (cit.claim_span.start < b and a < cit.claim_span.end)


def _noted(text: str, cit: Citation) -> bool:
    """Whether a citegov note (「（注：……请核实）」) follows ``cit`` in its sentence."""
    return CITEGOV_NOTE.search(text, cit.span.end, sentence_end(text, cit.span.end)) is not None


def _range_end(text: str, v: Verdict, verdicts: Sequence[Verdict]) -> bool:
    """Whether ``v`` is an endpoint of a range (「第N条至第M条」) with another member."""
    g = v.citation.group
    if not g:
        return False
    for w in verdicts:
        if w is v or w.citation.group != g:
            continue
        a, b = sorted((v.citation.span, w.citation.span), key=lambda sp: sp.start)
        if re.fullmatch(r"[ \t　]*(?:至|到|—|-|－|~|～)[ \t　]*", text[a.end : b.start]):
            # on one line: a markdown bullet 「\n- 」 between two list lines is no range dash
            return True
    return False


def _listed_with_support(v: Verdict, verdicts: Sequence[Verdict]) -> bool:
    """Whether ``v`` exists, is not misdescribed and shares its list with a member that fits
    the claim: a list is cited as a whole (an irrelevance verdict on one member is no reason
    to cut it out of 「依照第五百七十七条、第五百八十四条的规定」)."""
    g = v.citation.group
    if not g or v.existence.label != "exists" or v.fidelity.label == "misdescribed":
        return False
    return any(
        w is not v
        and w.citation.group == g
        and w.existence.label == "exists"
        and w.applicability.label in ("supports", "partially_supports")
        for w in verdicts
    )


def _quoted_by_another(text: str, v: Verdict, verdicts: Sequence[Verdict]) -> bool:
    """Whether ``v`` is part of what an earlier citation of its sentence says its provision
    says: 「根据解释第六十五条，…人民法院应当以民法典第五百八十四条规定的损失为基础…」 — the
    interpretation's own text cites 584; that is not a citation of the report to repair."""
    sp = v.citation.span
    raw = _bare(v.citation.raw)
    for w in verdicts:
        end = w.citation.span.end
        if end > sp.start or sp.start - end > 300:  # first: most citations are far off
            continue
        auth = w.resolved
        if w is v or auth is None or not auth.text:
            continue
        between = text[end : sp.start]
        if re.search(r"[。！？!?\n]", between):
            continue
        if raw and raw in _bare(auth.text):
            return True
    return False


def _bare(s: str) -> str:
    return re.sub(r"[《》〈〉\s]", "", s).removeprefix("中华人民共和国")


def _listed_twin(v: Verdict, target: Authority, verdicts: Sequence[Verdict]) -> Verdict | None:
    """Another member of ``v``'s list that already cites ``target`` (same instrument and
    article): moving ``v`` there would cite it twice (「第五百七十七条、第五百七十七条」)."""
    g = v.citation.group
    if not g:
        return None
    for w in verdicts:
        r = w.resolved
        if w is v or w.citation.group != g or r is None:
            continue
        if r.instrument == target.instrument and r.article == target.article:
            return w
    return None


def _removals(
    text: str, doomed: Sequence[Verdict], all_verdicts: Sequence[Verdict], *, mark: bool, why: str
) -> list[Edit]:
    """Removal edits for ``doomed``; a list whose members are all doomed goes as one unit.

    Back-references to a removed citation (同法/该条/前款 … whose ``antecedent`` it is) go with
    it, unmarked: left behind they would resolve to whatever citation precedes them.
    """
    groups = _groups(all_verdicts)
    doomed_ids = {v.citation.id for v in doomed}
    out: list[Edit] = []
    for dep in _dependents(doomed_ids, all_verdicts):
        out.append(
            remove(text, dep, (), mark=False, reason=f"refers back to a removed citation; {why}")
        )
    done_groups: set[str] = set()
    for v in doomed:
        g = v.citation.group
        members = groups.get(g or "", [])
        survivors = [m for m in members if m.id not in doomed_ids]
        if g and members and not survivors:
            if g in done_groups:
                continue
            done_groups.add(g)
            unit = v.model_copy(update={"citation": _merged(members)})
            out.append(remove(text, unit, (), mark=mark, reason=why))
        else:
            keep = [*survivors, v.citation] if survivors else ()
            backed = mark and _backed_in_sentence(text, v, all_verdicts, doomed_ids)
            out.append(remove(text, v, keep, mark=mark and not backed, reason=why))
    return out


def _backed_in_sentence(
    text: str, v: Verdict, all_verdicts: Sequence[Verdict], doomed_ids: set[str]
) -> bool:
    """Whether another citation of ``v``'s sentence stays and supports the claim: the claim
    is then not unsupported and gets no mark."""
    start, end = sentence_bounds(text, v.citation.span.start)
    return any(
        w.citation.id not in doomed_ids
        and w.citation.id != v.citation.id
        and start <= w.citation.span.start
        and w.citation.span.end <= end
        and w.existence.label == "exists"
        and w.applicability.label in ("supports", "partially_supports")
        for w in all_verdicts
    )


def existence_filter(
    text: str,
    verdicts: Sequence[Verdict],
    *,
    strict: bool = False,
    policy: RevisionPolicy | None = None,
) -> tuple[Edit, ...]:
    """E-Filter edits: remove E = 0 citations (and unverifiable ones under ``strict``).

    Under a gating ``policy`` (``proven``/``annotate``) a removal needs its proof
    (:meth:`RevisionPolicy.removal_proof`): a citation whose quotation is presented as the
    provision's text stays, with a note, instead of leaving the quotation without a source.

    Source: LegalCiteTrust's existence-only verification ablation (SPEC §4–5).
    """
    fenced = fenced_blocks(text)
    doomed = [
        v for v in verdicts
        if (v.existence.label == "not_found" or (strict and v.existence.label == "unverifiable"))
        and not _inside(v.citation.span, fenced)
        and not v.citation.in_question  # the asker's citation, not the report's
    ]  # fmt: skip
    why = "existence filter: authority not found"
    if policy is None or not policy.gates:
        return tuple(_removals(text, doomed, verdicts, mark=False, why=why))
    out: list[Edit] = []
    for v in doomed:
        proof = (
            policy.removal_proof(text, v, _content_form(text, v.citation))
            if policy.name == "proven"
            else None
        )
        if proof is None:
            note = policy.annotation(text, v, "remove_citation", why)
            out += [note] if note is not None else []
            continue
        out += [
            e.model_copy(update={"proof": proof})
            for e in _removals(text, [v], verdicts, mark=False, why=why)
        ]
    return tuple(out)


CitedSuccessor = tuple[str, float, str]
"""The successor of a repealed article's own text: its label 「《民法典》第五百七十六条」, the
link's confidence in [0, 1] (:meth:`governor.authorities.store.AuthorityStore.successor_of`) and
the successor's text."""

SUCCESSOR_HOLDS_CLAIM = DEFAULT_THRESHOLDS.strategies_successor_holds_claim
"""Share of the report's words (bigram containment) the cited article's successor must hold for
a repeal note not to call it 「与所述内容不符」: 合同法第十一条 cited for 「合同的订立可以采用书面
形式、口头形式或者其他形式」 was judged misdescribed on the old text, yet its successor 民法典第四百
六十九条 states exactly that (gold set, judged harmful)."""


def stale_note(v: Verdict, cited_successor: CitedSuccessor | None = None) -> str | None:
    """The note left after a repealed (or not yet in force) authority that stays cited:
    「（注：该规定已于2021年1月1日废止，现行规定见民法典相应条文，请核实）」, or for a cited
    version that took effect after the report's date 「（注：所引版本自…起施行，报告日期时尚未
    生效，请核实）」. None without a resolved authority.

    A successor provision shown to be the rule for what the report says (:func:`_for_the_claim`)
    comes first: 「相应规定见《民法典》第五百八十五条，置信度0.73」. Otherwise ``cited_successor``
    (the cited old article's own successor from the texts, at :data:`NAME_SUCCESSOR_MIN` or
    more) is named *as the cited article's*, adding 「与所述内容不符」 when the report's words do
    not fit the old article (F ``misdescribed`` or A ``irrelevant`` / ``contradicts`` on its own
    text): 「所引原第一百零六条现为《民法典》第五百七十六条（置信度0.76），与所述内容不符」 —
    naming it as the rule for the report's words would send the reader to the wrong rule
    (issue 13: gold set, 合同法106 cited for loan repayment). An unproven best match is never
    named (issue 22: 「相应规定见」 on a wrong successor was judged harmful); the note then names
    the successor instrument only."""
    auth = v.resolved
    if auth is None:
        return None
    if auth.in_force_to is None and auth.in_force_from is not None:
        start = auth.in_force_from
        return f"（注：所引版本自{start.year}年{start.month}月{start.day}日起施行，报告日期时尚未生效，请核实）"
    end = auth.in_force_to
    when = f"于{end.year}年{end.month}月{end.day}日" if end else ""
    if auth.status == "superseded":
        # 《公司法》（2018年修正）: revised, not repealed
        return f"（注：所引版本已{when}被修订后的版本取代，现行规定请核实）"
    named = _named_successor(v)
    old = bracket_title(auth.instrument)
    if named is not None and _for_the_claim(v):
        # 「（注：《合同法》已于2021年1月1日废止，相应规定见《民法典》第五百八十五条，置信度0.73，请核实）」
        said = v.citation.description or v.citation.claim
        changed = rule_change(auth.text, v.suggestion.authority.text if v.suggestion else "", said)
        return f"（注：{old}已{when}废止，相应规定见{named}{changed}，请核实）"
    misfit = v.fidelity.label == "misdescribed" or v.applicability.label in (
        "irrelevant",
        "contradicts",
    )
    if cited_successor is not None and cited_successor[1] >= NAME_SUCCESSOR_MIN and auth.article:
        label, conf, succ_text = cited_successor
        said = v.citation.description or v.citation.claim
        held = bool(said) and containment(said, succ_text) >= SUCCESSOR_HOLDS_CLAIM
        # the claim's distinctive words are the old article's: a paraphrase the lexical F check
        # failed, not words shown to be another rule (婚姻法第十七条 cited for 「婚姻关系存续期间
        # 所得的财产为夫妻共同财产」 → 民法典第一千零六十二条 states it; issue 22 item 4)
        paraphrase = v.suggestion is not None and OLD_SUBJECT_REASON in v.suggestion.reason
        # no words of its own (a bare 「第二十七条」 in a 法律依据 list): nothing 所述 to misfit
        unfit = "，与所述内容不符" if misfit and said and not held and not paraphrase else ""
        # the report's words do not fit the old article: comparing rules is moot
        changed = "" if unfit else rule_change(auth.text, succ_text, said)
        return (
            f"（注：{old}已{when}废止；所引原{article_label(auth.article)}现为{label}"
            f"（置信度{conf:.2f}）{unfit}{changed}，请核实）"
        )
    # a best-match successor not shown to hold the claim is not named (合同法第一百七十七条,
    # 供用电合同, cited for breach liability → 民法典第五百六十六条 by word overlap: wrong; the
    # hand check had such names right 10 times of 18): the successor instrument only
    succ = (
        f"，现行规定见{auth.successor.removeprefix('中华人民共和国')}相应条文"
        if auth.successor
        else ""
    )
    return f"（注：该规定已{when}废止{succ}，请核实）"


def rule_change(old_text: str, new_text: str, said: str = "") -> str:
    """「；规则已变化：现行规定另有「九十日」「五年」」 when the successor provision's text states
    amounts, periods or rates (:func:`verifiers.facts.quantities`) that neither the repealed
    article nor the report (``said``) states, or 「；规则已变化：原规定「一年」现行规定未见」 when
    it drops one that the old article and the report state; empty when nothing differs or a
    text is missing. A successor is never offered as the same rule when its figures differ
    (合同法第五十五条's 一年 → 民法典第一百五十二条: 九十日 for 重大误解, a five-year cap); a
    figure the report itself gives (民法典第七百零五条's 二十年 for a report saying 二十年) is no
    change to it."""
    if not old_text or not new_text:
        return ""
    was = {(q.value, q.unit): q.text for q in quantities(old_text)}
    now = {(q.value, q.unit): q.text for q in quantities(new_text)}
    told = {(q.value, q.unit) for q in quantities(said)}
    added = [t for k, t in now.items() if k not in was and k not in told]
    dropped = [t for k, t in was.items() if k not in now and (not said or k in told)]
    if added:
        return "；规则已变化：现行规定另有" + "".join(f"「{t}」" for t in added[:3])
    if dropped:
        return "；规则已变化：原规定" + "".join(f"「{t}」" for t in dropped[:3]) + "现行规定未见"
    return ""


NAME_SUCCESSOR_MIN = DEFAULT_THRESHOLDS.strategies_name_successor_min
"""Confidence from which a repeal note names the successor provision (with its confidence, for
the reader to check); below it the note names the successor instrument only."""


def _for_the_claim(v: Verdict) -> bool:
    """True when the verdict's successor is shown to be the rule for what the report says:
    proven by the texts, the report's words are the old article's (F ``faithful`` /
    ``partially_faithful``), or it holds the claim's distinctive words
    (:func:`verifiers.suggest.distinct_successor`) and the report's words fit the old
    article (not F ``misdescribed`` / A ``irrelevant`` / ``contradicts``), or its text holds the report's words
    (:data:`SUCCESSOR_STATES_CLAIM`). Otherwise a repeal note names the cited
    article's own successor as such (hand check of 50 named successors on dev 3-8: a
    best-match successor named for the claim was right 10 times of 18, the cited article's
    successor named as such 30 of 32)."""
    s = v.suggestion
    if s is None:
        return False
    said = v.citation.description or v.citation.claim
    # distinctive words alone do not carry a successor for words the old article does not
    # say (合同法第一百七十七条, 供用电合同, cited for breach liability: 「违约责任」 led to 民法典
    # 第五百六十六条, judged harmful); then the cited article's own successor is named as such
    misfit = v.fidelity.label == "misdescribed" or v.applicability.label in (
        "irrelevant",
        "contradicts",
    )
    return (
        bool(s.proof)
        or v.fidelity.label in ("faithful", "partially_faithful")
        or (s.reason.startswith(DISTINCT_REASON) and not misfit)
        or (bool(said) and containment(said, s.authority.text) >= SUCCESSOR_STATES_CLAIM)
    )


SUCCESSOR_STATES_CLAIM = DEFAULT_THRESHOLDS.strategies_successor_states_claim
"""Share of the report's words (bigram containment) in a best-match successor from which it is
named as the rule for the claim: 合同法第十条 cited for 「当事人应当按照合同约定履行自己的义务」 →
民法典第五百零九条 (0.81). In the hand check every best-match successor at ≥ 0.8 was right (2 of
2) and the wrong ones held 0.05–0.69 (民法典第五百三十三条 0.69 for 「协商一致，变更或者解除合同」)."""


def _named_successor(v: Verdict) -> str | None:
    """「《民法典》第五百八十五条，置信度0.73」 for a repealed authority whose suggestion is a
    provision of another instrument (its successor) at :data:`NAME_SUCCESSOR_MIN` or more."""
    s, auth = v.suggestion, v.resolved
    if s is None or auth is None or s.score < NAME_SUCCESSOR_MIN or not s.authority.article:
        return None
    if s.authority.instrument == auth.instrument:
        return None
    title = bracket_title(s.authority.instrument)
    return f"{title}{article_label(s.authority.article)}，置信度{s.score:.2f}"


@dataclass
class EfaReviser:
    """Offline E/F/A repair policy (SPEC §5).

    Attributes:
        thresholds: ``suggestion_min_score`` gates every repair that uses a suggestion.
        attempted: ``(citation content, op)`` pairs already tried, so a repair that did not
            help is never repeated (guarantees the loop terminates).
    """

    thresholds: Thresholds = field(default_factory=Thresholds)
    attempted: set[tuple[str, str]] = field(default_factory=set)
    produced: dict[str, Edit] = field(default_factory=dict)
    """Citation texts this reviser wrote (retargets), with the edit that wrote them."""
    replaced: dict[str, Verdict] = field(default_factory=dict)
    """Citation texts this reviser wrote, with the verdict on the citation they replaced."""
    policy: RevisionPolicy = field(default_factory=RevisionPolicy)
    """What may change words (``governor.revision.policy``); ``aggressive`` = no gate."""
    locate: Locator | None = None
    """The store's ranking for words in an instrument, used to name candidates in notes
    (set per run by the pipeline; None names only the verdict's suggestion)."""
    article_text: Callable[[Authority], str] | None = None
    """The full text of an authority's article (for a pinned 款/项), from the store."""
    charge_article: Callable[[str, Authority], Authority | None] | None = None
    """The 刑法 article defining a charge the words name (its name or conduct stem), when the
    cited 刑法 article does not define it (the 罪名 table; set per run by the pipeline)."""
    successor_of: Callable[[Authority], CitedSuccessor | None] | None = None
    """The successor of a repealed article's own text (set per run by the pipeline; None
    names none), for the repeal note when the report's words are not that article's."""

    def propose(self, text: str, verdicts: Sequence[Verdict]) -> tuple[Edit, ...]:
        """Edits for every failing, non-excluded verdict; at most one edit per citation."""
        edits: list[Edit] = []
        doomed: list[tuple[Verdict, str]] = []
        moving: dict[tuple[str | None, str, str | None], Verdict] = {}
        fenced = fenced_blocks(text)
        for v in verdicts:
            if v.excluded or v.passes or _inside(v.citation.span, fenced):
                continue  # code blocks are quoted material: verified and reported, never edited
            uq = self._unquote(text, v) if self.policy.gates else None
            ed = uq if uq is not None else self._repair(text, v)
            if _range_end(text, v, verdicts) and (
                ed == "remove" or (isinstance(ed, Edit) and ed.op in _MOVES)
            ):
                continue  # 「第五百七十七条至第五百八十四条」: one endpoint never goes alone
            if (ed == "remove" or (isinstance(ed, Edit) and ed.op == "reanchor")) and (
                _listed_with_support(v, verdicts)
            ):
                continue  # 「第五百七十七条、第五百八十四条」 cited together: the list holds
            if _quoted_by_another(text, v, verdicts):
                continue  # part of what another citation's provision says (解释 citing 584)
            if isinstance(ed, Edit) and ed is not uq:
                target = self._target(v)
                if (
                    ed.op in _MOVES
                    and target is not None
                    and ((tw := _listed_twin(v, target, verdicts)) is not None)
                ):
                    # the move's target is already cited in the same list: the member goes
                    # (whether or not the move itself is proven, naming it would repeat it)
                    doomed.append(
                        (v, f"{ed.reason}; already cited in the same list as {tw.citation.raw}")
                    )
                    continue
                ed = self.govern(text, ed, v)
                if ed is None:
                    continue
                twin = (
                    _listed_twin(v, target, verdicts)
                    if ed.op in _MOVES and target is not None
                    else None
                )
                dest = (
                    (v.citation.group, target.instrument, target.article)
                    if ed.op in _MOVES and target is not None and v.citation.group
                    else None
                )
                if twin is None and dest is not None and dest in moving:
                    twin = moving[dest]  # another member moves to the same provision this round
                if twin is not None:
                    # moving this member would repeat another one of its list: drop it instead
                    why = f"{ed.reason}; already cited in the same list as {twin.citation.raw}"
                    doomed.append((v, why))
                    continue
                if dest is not None:
                    moving[dest] = v
                edits.append(ed)
            elif ed == "remove":
                doomed.append((v, self._why_remove(v)))
        for v, why in doomed:
            edits += self._remove_or_annotate(text, v, verdicts, why)
        if self.policy.gates:
            edits = self._name_members(text, verdicts, edits)
            edits += self._said_for_failing(text, verdicts, edits, fenced)
        if self.policy.gates:
            taken = {e.citation_id for e in edits}
            pinned: set[str] = set()
            for v in verdicts:
                if v.citation.id in taken or v.excluded or _inside(v.citation.span, fenced):
                    continue
                uq = self._unquote(text, v)
                if uq is not None:
                    edits.append(uq)
                elif (pin := self._pin_note(text, v)) is not None and pin.after not in pinned:
                    pinned.add(pin.after)  # one pin note per article (repeated sentences)
                    edits.append(pin)
        out = []
        by_id = {v.citation.id: v for v in verdicts}
        for ed in edits:
            key = (ed.before + "\x1f" + (ed.citation_id or ""), ed.op + ed.after)
            if key in self.attempted:
                continue
            self.attempted.add(key)
            out.append(ed)
            if ed.op in ("renumber", "replace_repealed", "reanchor"):
                self.produced[ed.after] = ed
                if (orig := by_id.get(ed.citation_id or "")) is not None:
                    self.replaced[ed.after] = orig
        return tuple(out)

    def _name_members(
        self, text: str, verdicts: Sequence[Verdict], edits: list[Edit]
    ) -> list[Edit]:
        """``edits`` with each note on a list member naming the members it is about
        (:meth:`~governor.revision.policy.RevisionPolicy.name_members`): members with no edit
        of their own, and members whose own note is the very same note at the same place (it
        is dropped: two equal notes side by side are one, ``double_note``). A member named
        once is not named again."""
        by_id = {v.citation.id: v for v in verdicts}
        same_note: dict[tuple[int, str, str], list[Edit]] = {}
        for ed in edits:
            v = by_id.get(ed.citation_id or "")
            if ed.op == "annotate" and v is not None and v.citation.group:
                same_note.setdefault((ed.span.start, ed.after, v.citation.group), []).append(ed)
        taken: set[str | None] = {e.citation_id for e in edits}
        dropped: set[int] = set()
        out = []
        for ed in edits:
            if id(ed) in dropped:
                continue
            v = by_id.get(ed.citation_id or "")
            if ed.op == "annotate" and v is not None and v.citation.group:
                twins = same_note[(ed.span.start, ed.after, v.citation.group)][1:]
                twin_ids = {t.citation_id for t in twins}
                siblings = _failing_siblings(text, v, verdicts, taken - twin_ids)
                # a twin whose note says a clause is another article's (Fidelity step 8h, a
                # partially_faithful verdict, not "failing") is named as well: the one note is
                # about every member whose text lacks the clause
                siblings += [
                    w
                    for t in twins
                    if (w := by_id.get(t.citation_id or "")) is not None
                    and w not in siblings
                    and foreign_note_head(w.fidelity.rationale)
                ]
                ed, named = self.policy.name_members(text, ed, v, siblings)
                taken |= set(named)
                dropped |= {id(t) for t in twins if t.citation_id in named}
            out.append(ed)
        return out

    def _said_for_failing(
        self,
        text: str,
        verdicts: Sequence[Verdict],
        edits: Sequence[Edit],
        fenced: Sequence[tuple[int, int]],
    ) -> list[Edit]:
        """A note for each citation judged failing (``governor.core.labels.judged_failing``)
        that got no edit and has no note in its sentence, as
        :meth:`~governor.revision.policy.RevisionPolicy.failing_note` words it: the specific
        note when its wording is safe (the provision lacks what the report says 「并无…」, a
        calibrated candidate is named, or the citation does not exist), else a generic
        "check this" note (「经核查，该条文内容与上述表述不尽一致」 / 「…与上述内容未见直接
        关联」; a list's members it follows named). What the verifier found reaches the reader
        (issue 21 item 3: 8–12 % of wrong-article answers ended with no edit and no note);
        where no note fits, the verdict report carries a line for it (``governor.core.report``).

        Hand check of the generic notes against the statute text (dev LawBench 3-8, keys
        0–99 of each file to tune, 100–199 to check; 2026-12-02): F ``misdescribed`` 29 of 29
        on wrong words (刑法第一百三十三条 「构成交通肇事逃逸罪」, 民法典第五百八十六条 for
        违约金, 劳动合同法第四十二条 reciting 第三十九条); A ``irrelevant`` with F not assessed
        11 of 12 on wrong articles (the false alarm: 劳动法第七十二条 listed for 产假期间社保);
        A ``irrelevant`` on a faithful recitation 0 of 3 — not noted; a law cited whole 0 of 1 —
        not noted."""
        taken = {e.citation_id for e in edits}
        out: list[Edit] = []
        for v in verdicts:
            if v.citation.id in taken or v.excluded or not judged_failing(v):
                continue
            if _inside(v.citation.span, fenced) or _noted(text, v.citation):
                continue
            if held_by_context(text, v, verdicts):
                continue
            why = v.fidelity.rationale if v.fidelity.label == "misdescribed" else ""
            why = why or v.applicability.rationale or v.existence.rationale
            siblings = _failing_siblings(text, v, verdicts, taken | {o.citation_id for o in out})
            ed = self.policy.failing_note(text, v, siblings, why=why, locate=self.locate)
            if ed is None:
                # no safe wording, or no place where a note reads as this citation's (a
                # quotation, a table row): the report's line says it (``governor.core.report``)
                continue
            a, b = sentence_bounds(text, min(ed.span.start, max(len(text) - 1, 0)))
            if any(a <= o.span.start <= b for o in (*edits, *out)):
                continue  # one note per sentence: another edit of this round is already there
            out.append(ed)
        return out

    def needs_unquote(self, text: str, verdicts: Sequence[Verdict]) -> bool:
        """Whether a passing citation's quotation mixes its provision's text with other
        words (a round is due even when every citation passes)."""
        return self.policy.gates and any(
            v.passes and (self._unquote(text, v) is not None or self._pin_note(text, v) is not None)
            for v in verdicts
        )

    def _pin_note(self, text: str, v: Verdict) -> Edit | None:
        """The pin of a law cited whole, told to the reader after the claim
        (:meth:`~governor.revision.policy.RevisionPolicy.pin_note`); None when there is none or
        the text holds it already."""
        note = self.policy.pin_note(v) if v.passes else None
        if note is None or note in text:
            return None  # told once per text (an earlier round, or the same pin elsewhere)
        cit = v.citation
        said = cit.description_span if cit.description else cit.claim_span
        at = said.end if said is not None and said.end >= cit.span.end else cit.span.end
        at = clause_end(text, outside_quotes(text, min(at, len(text))))
        return _note_at(text, v, at, note, "annotate", v.applicability.rationale)

    def govern(self, text: str, ed: Edit, v: Verdict) -> Edit | None:
        """``ed`` as the policy allows it: with its proof; or, unproven under a gating policy
        (every word change under ``annotate``), the annotation naming the best candidate.
        Notes pass (a 「并无上述内容」 note names a candidate when there is one)."""
        pol = self.policy
        target = self._target(v)
        if ed.op == "mark_misdescribed" and pol.gates:
            named = pol.annotation(text, v, ed.op, ed.reason, target=target, locate=self.locate)
            return named if named is not None and "可能应为" in named.after else ed
        if ed.op not in WORD_OPS:
            return ed
        if ed.proof is not None and pol.name == "proven":
            return ed  # proven where it was proposed, on its own target (:meth:`_move_first`)
        whole = (
            self.article_text(v.resolved)
            if self.article_text is not None and v.resolved is not None
            else ""
        )
        proof = pol.prove(text, ed, v, target, whole)
        if proof is not None and pol.name != "annotate":
            return ed.model_copy(update={"proof": proof})
        if not pol.gates:
            return ed
        drift = _drift_note(text, v)
        if drift is not None and ed.op in MOVES:
            # the words are another version's text (公司法 2018 第七十一条 cited in 2025): the
            # version note says exactly that, where a candidate would be a half-truth
            return drift
        return pol.annotation(text, v, ed.op, ed.reason, target=target, locate=self.locate)

    def _remove_or_annotate(
        self, text: str, v: Verdict, verdicts: Sequence[Verdict], why: str
    ) -> list[Edit]:
        """Removal edits for ``v`` when the policy's removal proof holds (always under
        ``aggressive``); else the annotation. A 「未找到…法律依据」 mark is replaced by a note
        naming the store's best candidate when there is one."""
        pol = self.policy
        if not pol.gates:
            return _removals(text, [v], verdicts, mark=True, why=why)
        proof = (
            pol.removal_proof(text, v, _content_form(text, v.citation))
            if pol.name == "proven"
            else None
        )
        if proof is None:
            siblings = _failing_siblings(text, v, verdicts, ())
            note = (
                # a list member failing with others: one note after the list names them all
                pol.failing_note(text, v, siblings, why=why, locate=self.locate)
                if siblings and judged_failing(v)
                else None
            ) or pol.annotation(text, v, "remove_citation", why, locate=self.locate)
            if note is not None and _short_misdescribed(v) and not pol.speaks(note, v):
                # the lexical F verdict on a claim of a few words (「劳动合同期满」, cut at the
                # next citation of the sentence) is no ground for 「不完全一致」 grafted after
                # them (gold g0419: the note split 「劳动合同期满，用人单位应当…」): as for the
                # generic notes (``policy.generic_kind``), the verdict report's line says it
                return []
            return [note] if note is not None else []
        named = pol.candidate(v, None, self.locate)
        out = []
        for e in _removals(text, [v], verdicts, mark=True, why=why):
            if e.citation_id == v.citation.id:
                # the mark says what was checked: 「原引条文经核查不存在」, with the store's best
                # candidate when there is one; never 「未找到…法律依据」, which the store cannot
                # prove (issue 13: false 23 times out of 26)
                for mk in MARKS:
                    e = e.model_copy(
                        update={"after": e.after.replace(mk, pol.note(v, named, e.op))}
                    )
            out.append(e.model_copy(update={"proof": proof}))
        return out

    def _unquote(self, text: str, v: Verdict) -> Edit | None:
        """A quotation presented as the cited provision's text whose last sentences are not
        that text (「…安全距离。驾驶人不得超速行驶。”」): the closing mark moves before them,
        so the quotation holds only the provision's words, and a note after them says they
        are not its text, naming where they are when the store's ranking finds it. Words are
        kept; nothing is deleted. ``annotate`` leaves the quotation and adds the note."""
        cit, auth = v.citation, v.resolved
        ds = cit.description_span
        if (
            auth is None
            or not auth.text
            or ds is None
            or not cit.quotes
            or v.existence.label != "exists"
            or ds.slice(text) != cit.description
        ):
            return None
        qs = [(a, b) for a, b in _quote_spans(text) if ds.start <= a + 1 and b - 1 <= ds.end + 1]
        if len(qs) != 1:
            return None
        qa, qb = qs[0]  # qa: the opening mark, qb - 1: the closing mark
        inner = text[qa + 1 : qb - 1]
        sents = [(m.start(), m.end()) for m in _QUOTE_SENT.finditer(inner)]
        if len(sents) < 2:
            return None
        scores = [containment(inner[a:b], auth.text) for a, b in sents]
        verbatim = [verbatim_share(inner[a:b], auth.text) for a, b in sents]
        cut = len(sents)
        while cut > 0 and verbatim[cut - 1] < QUOTE_OUT and scores[cut - 1] < 0.5:
            cut -= 1
        if cut == 0 or cut == len(sents) or min(scores[:cut]) < QUOTE_IN:
            return None
        kept_end = qa + 1 + sents[cut - 1][1]
        while text[kept_end - 1] in "；;，,":
            kept_end -= 1  # 「…申请；”」 reads 「…申请”；」: the separator stays the author's
        foreign = text[kept_end : qb - 1]
        lead = foreign[: len(foreign) - len(foreign.lstrip("；;，,"))]
        foreign = foreign[len(lead) :]
        body = foreign.rstrip("。；;，, ")
        tail = foreign[len(body) :]
        hit = self.locate(body, auth.instrument) if self.locate is not None else None
        same = hit is not None and hit[1].article == auth.article
        named = (
            f"，可能应为{pin_label(hit[1])}（置信度{hit[0]:.2f}）"
            if hit is not None and hit[0] >= self.policy.name_min and not same
            else ""
        )
        note = f"（注：此句并非{pin_label(auth)}原文{named}，请核实）"
        close = text[qb - 1]
        proof = Proof(
            source=f"{pin_label(auth)}：{auth.text.replace(chr(10), '')[:120]}",
            span_text=inner,
            measure=f"quoted sentences in the cited text: containment {min(scores[:cut]):.2f} "
            f"≥ {QUOTE_IN}; moved out: verbatim {max(verbatim[cut:]):.2f} < {QUOTE_OUT}, "
            f"containment {max(scores[cut:]):.2f} < 0.5",
        )
        if self.policy.name == "annotate":
            return edit("annotate", text, Span(start=qb, end=qb), note,
                        "quotation mixes the provision's text with other words", v)  # fmt: skip
        ed = edit("unquote", text, Span(start=kept_end, end=qb), close + lead + body + note + tail,
                  "quotation mixes the provision's text with other words; the closing mark "
                  "moved before them", v)  # fmt: skip
        return ed.model_copy(update={"proof": proof})

    @staticmethod
    def _may_move(v: Verdict, target: Authority) -> bool:
        """Repairs move a citation to another instrument only when the cited one cannot stand:
        a repealed law (to its successor) or an instrument that does not exist. A real
        provision of a real instrument is re-anchored within that instrument at most — a
        verbatim phrase elsewhere ("违约方应当承担违约责任") is no reason to change laws."""
        cit = v.citation
        if target.instrument == cit.instrument:
            return True
        if v.existence.label == "repealed":
            return True
        if v.suggestion is not None and SUCCESSOR_OF_CITED in v.suggestion.features:
            return target == v.suggestion.authority  # the repealed law's successor holds the words
        said = cit.description or " ".join(cit.quotes)
        if said and _restates_provision(said, target.text):
            return True  # the words are the other law's provision: 保险法 cited for 海商法's text
        return (
            v.existence.label == "not_found"
            and (v.resolved is None or v.resolved.instrument != cit.instrument)
            and not cit.instrument
        )

    def _target(self, v: Verdict) -> Authority | None:
        """The provision a repair may move ``v`` to (confident and allowed), or None.

        None for a real provision whose candidate the question does not single out
        (``("off_question", 1.0)``: :func:`verifiers.suggest.rescored`): the words may be the
        candidate's text (刑法第二百三十五条 cited for 第二百三十四条's words), but the question
        asks about another rule, so a renumber would make an off-point answer read as clean.
        On dev LawBench 3-2 such moves named the reference article 5 times in 62 (all other
        moves 68 in 71; naming3, 2026-12-02); the citation gets the failing verdict's note.
        Blocking them only when the question's own candidate reaches the naming probability
        (``("question_candidate", p)``) let most back in: moves right 94 % → 60 %, named right
        90.2 % → 82.7 % (``benchmarks.bench_repair --governed``). When the question is about the
        words' provision it is no off-question candidate: 「行为人与相对人恶意串通，损害他人合法
        权益的民事法律行为效力如何？」 renumbers 第一百五十三条 → 第一百五十四条
        (examples/wrap_runnable.py)."""
        target = self._confident(v)
        if target is None or not self._may_move(v, target):
            return None
        s = v.suggestion
        if (
            v.existence.label == "exists"
            and s is not None
            and s.features[:1] == (("off_question", 1.0),)
        ):
            return None
        return target

    def _confident(self, v: Verdict) -> Authority | None:
        s = v.suggestion
        if s is not None and s.score >= self.thresholds.suggestion_min_score:
            return s.authority
        return None

    @staticmethod
    def _why_remove(v: Verdict) -> str:
        if v.existence.label == "not_found":
            return f"authority does not exist ({v.existence.rationale}); no provision found for the claim"
        if v.existence.label == "repealed":
            return f"repealed ({v.existence.rationale}); no successor provision found for the claim"
        return f"the provision does not support the claim ({v.applicability.rationale}); no better one found"

    def _repair(self, text: str, v: Verdict) -> Edit | str | None:
        e, f, a = v.existence.label, v.fidelity.label, v.applicability.label
        cit = v.citation
        target = self._target(v)
        earlier = self.produced.get(cit.raw)
        if (
            earlier is not None
            and earlier.op == "replace_repealed"
            and earlier.proof is not None
            and self.policy.gates
        ):
            # a proven successor (the old text is its text): what fails now is the report's
            # description, which the repealed text fails alike; restoring repealed law helps
            # no reader (gold set: every such revert judged harmful)
            return None
        if earlier is not None and earlier.labels[:1] == ("repealed",):
            # Our own replacement of a repealed law failed re-verification: the original was
            # real law (merely stale, trust 0.5); restore it rather than delete the evidence.
            original = self.replaced.get(cit.raw)
            note = (
                (stale_note(original, self._cited_successor(original)) or "")
                if original is not None
                else ""
            )
            back = edit("revert", text, cit.span, earlier.before + note,
                        f"the successor provision {cit.raw} failed re-verification "
                        f"({v.fidelity.label}/{v.applicability.label}); original citation restored", v)  # fmt: skip
            return back.model_copy(update={"proof": Proof(
                source="the draft as given", span_text=earlier.before,
                measure=f"restores the report's own citation: {cit.raw} failed re-verification "
                        f"({v.fidelity.label}/{v.applicability.label})",
            )})  # fmt: skip
        if e == "exists" and _noted(text, cit):
            return None  # flagged for the reader in an earlier round or run: the note stands
        if e == "not_found":
            if target is not None:
                why = f"{cit.pin or cit.raw} does not exist; what the report says matches {target.label}"
                return edit("renumber", text, cit.span, retarget(cit, target), why, v)
            return "remove"
        if e == "repealed":
            # a repealed text in the store: words change only on a proven successor (the
            # old text, or the report's words, are the successor's); otherwise the note names it
            by_text = v.resolved is not None and v.resolved.status == "repealed"
            proven = v.suggestion is not None and (
                bool(v.suggestion.proof) or not (by_text and v.resolved and v.resolved.text)
            )
            if (
                target is not None
                and proven
                and (target.instrument != cit.instrument or target.article != cit.article)
            ):
                proof = (
                    f"; proof: {v.suggestion.proof}" if v.suggestion and v.suggestion.proof else ""
                )
                return edit("replace_repealed", text, cit.span, retarget(cit, target),
                            f"{v.existence.rationale}; successor provision {target.label}{proof}", v)  # fmt: skip
            return self._mark_stale(text, v)
        if e == "partial":
            if f == "misdescribed" and target is not None and target.article != cit.article:
                # the words are another article's: renumber now (its 款 goes with the move)
                return self._fix_description(text, v, target)
            return self._fix_granularity(text, v)
        if f == "misdescribed":
            fixed = self._fix_description(text, v, target)
            if fixed is None and a != "overextended" and self.policy.gates:
                # nothing to prove a change with: the reader is told what the provision does
                # not hold, or the best candidate; a generic 「不完全一致」 is no help (the
                # lexical F check also fires on short faithful claims: 577 「应承担违约责任」)
                named = self.policy.annotation(
                    text, v, "mark_misdescribed", v.fidelity.rationale, locate=self.locate
                )
                if named is not None and self.policy.speaks(named, v):
                    return named
                return None  # the generic note, if any, is :meth:`_said_for_failing`'s
            if fixed is not None or a != "overextended":
                return fixed
            # nothing to fix in the description itself: the claim overreaches the provision
        facts_clause = f == "partially_faithful" and (
            fact_clause(v.fidelity) is not None or invented_item(v.fidelity) is not None
        )
        if facts_clause and a in ("supports", "partially_supports"):
            # the words recited are the provision's; the clause the question's facts meet is
            # quoted in a note, never spliced into the report (verifiers.fact_clauses); with
            # A failing, A's finding is what the reader is told (below)
            return self.policy.annotation(
                text, v, "mark_misdescribed", v.fidelity.rationale, locate=self.locate
            )
        if f == "partially_faithful" and (taken := foreign_note_head(v.fidelity.rationale)):
            # one clause is another article's text (Fidelity step 8h): the report's other words
            # are the cited article's, and pasting its whole text over them would bury the
            # author's point; the reader is told which clause is whose (when the sentence holds
            # a note already, the applicability repairs below still speak for the citation)
            noted = self.policy.annotation(
                text, v, "mark_misdescribed", v.fidelity.rationale, locate=self.locate, head=taken
            )
            if noted is not None:
                return noted
        elif f == "partially_faithful" and not facts_clause:
            return self._restore_proviso(text, v) or self._restore_text(
                text,
                v,
                "the description omits a condition of the provision; restored from its text",
            )
        if a in ("irrelevant", "contradicts", "partially_supports", "overextended"):
            if target is not None and target.article != cit.article and a != "partially_supports":
                return edit("reanchor", text, cit.span, retarget(cit, target),
                            f"{v.applicability.rationale}; {target.label} fits the claim", v)  # fmt: skip
            if a == "overextended":
                auth = v.resolved
                said = v.citation.description or v.citation.claim
                if auth is not None and (
                    auth.paragraph
                    or len(paragraphs(auth.text)) < 2
                    or (_best_paragraph(said, auth.text) != auth.text)
                ):
                    return self._restore_text(
                        text,
                        v,
                        f"{v.applicability.rationale}; claim narrowed to the provision's text",
                    )
                # no one 款 the claim restates: pasting the whole article would bury the
                # author's point; the reader is told where the claim overreaches instead
                return _overreach_note(text, v)
            if a == "contradicts" or (a == "irrelevant" and f != "faithful"):
                return "remove"
            # A faithful description judged irrelevant: the offline relevance check is lexical
            # and cannot prove the provision useless, so the citation stays (with its verdict;
            # a note there was a false alarm on 2 of 2 in the reading check: 劳动合同法第四十六条
            # for 经济补偿). A provision on topic but not the one the claim rests on
            # (partially_supports) stays too, with a note, so the reader hears the verdict
            # (issue 21 item 3; dev review, seed 11: 25 of 27 such silent citations with F
            # faithful or not_assessed were wrong by the statute text).
            # Not for a quotation (its words are the provision's: Fidelity speaks for them),
            # a range or a bare reference (「见…第五百七十七条至第五百八十四条」 states no claim
            # of its own to fall short of).
            role = cit.assertion.role if cit.assertion is not None else None
            if (
                a == "partially_supports"
                and self.policy.gates
                and not cit.quotes
                and role not in ("quotation", "range", "reference")
                and not _recital_of_borrowed_claim(text, v)
            ):
                return self.policy.annotation(
                    text, v, "mark_unsupported", v.applicability.rationale, locate=self.locate
                )
        return None

    def _cited_successor(self, v: Verdict) -> CitedSuccessor | None:
        auth = v.resolved
        if self.successor_of is None or auth is None or auth.status != "repealed":
            return None
        return self.successor_of(auth)

    def _mark_stale(self, text: str, v: Verdict) -> Edit | None:
        """A repealed authority without a confident successor provision stays cited (it is
        real law, trust 0.5) and gets a note naming the repeal and the successor (see
        :func:`stale_note`)."""
        cit = v.citation
        note = stale_note(v, self._cited_successor(v))
        if note is None or cit.span.end > len(text):
            return None
        if text[cit.span.end : cit.span.end + len(note)] == note:
            return None
        at = Span(start=cit.span.end, end=cit.span.end)
        return edit("mark_stale", text, at, note, v.existence.rationale, v)

    def _restore_text(self, text: str, v: Verdict, why: str) -> Edit | None:
        """Replace what the report says the provision says by the provision's own text (the
        cited 款/项 when pinned), restoring omitted conditions; None without a description.
        Words that are another provision's (:meth:`_move_first`) move there instead."""
        cit, auth = v.citation, v.resolved
        said, span = (
            (cit.description, cit.description_span)
            if cit.description
            else (cit.claim, cit.claim_span)
        )
        if auth is None or not auth.text or span is None or not said or span.slice(text) != said:
            return None
        moved = self._move_first(text, v, said)
        if moved is not None:
            return moved
        source = auth.text if auth.paragraph else _best_paragraph(said, auth.text)
        body, after = _replacement(text, span, said, source)
        if after.rstrip("。") == body.slice(text).rstrip("。"):
            return None
        return edit("rewrite_description", text, body, after, why, v)

    def _move_first(self, text: str, v: Verdict, said: str) -> Edit | None:
        """Renumber before rewrite (issue 22 item 2): when the report's words ``said`` are
        another provision's — another 款 of the cited article, the article the store's
        ranking finds for them in the cited instrument, or the verdict's suggestion — the
        citation moves there (``fix_granularity`` / ``renumber``), with its proof
        (:meth:`RevisionPolicy.prove`); None when no move is proven (the rewrite's own proof,
        :meth:`RevisionPolicy._rewrite_proof`, then refuses words another provision holds
        better, and the reader gets a note). Only under a gating policy; a candidate the
        question does not single out (``off_question``, :meth:`_target`) is never moved to."""
        cit, auth = v.citation, v.resolved
        if not self.policy.gates or self.policy.name == "annotate" or auth is None or not said:
            return None
        whole = self.article_text(auth) if self.article_text is not None else ""
        whole = whole or auth.text
        cands: list[Authority] = []
        charged = self.charge_article(said, auth) if self.charge_article is not None else None
        if charged is not None:
            # the words name another offence (its conduct, 「诈骗公私财物」 under 第二百六十四条):
            # the charge table says which article is theirs; the move needs the words to be
            # that article's text (no number, modal or polarity changed), else a note
            ed = edit("renumber", text, cit.span, retarget(cit, charged),
                      f"the words name a charge defined by {pin_label(charged)}, not by "
                      f"{pin_label(auth)}: the pin moves, the words stay", v)  # fmt: skip
            c_t, c_c = containment(said, charged.text), containment(said, auth.text)
            wrong = (
                number_mismatches(said, charged.text)
                or modality_flips(said, charged.text)
                or polarity_swaps(said, charged.text)
            )
            if c_t >= IN_TARGET and c_t > c_c and not wrong and ed.after != cit.raw:
                return ed.model_copy(update={"proof": Proof(
                    source=f"{pin_label(charged)}：{charged.text.replace(chr(10), '')[:120]}",
                    span_text=said,
                    measure=f"the words name the charge {pin_label(charged)} defines (罪名 "
                    f"table), not the cited article's; containment {c_t:.2f} ≥ {IN_TARGET} in "
                    f"target, {c_c:.2f} in cited; no number, modal or polarity differs",
                )})  # fmt: skip
        if v.applicability.label == "overextended":
            # the words state the cited provision's consequence for facts outside it (劳动合同法
            # 第四十六条's 支付 for 第四十条's case): the facts' article does not grant that
            # consequence, so no move is a repair (gold g0086); the rewrite's proof refuses too
            return None
        base = auth.model_copy(update={"text": whole, "paragraph": None, "item": None})
        where = pinpoint(said, base)
        if (auth.paragraph or auth.item) and (where.paragraph, where.item) != (
            auth.paragraph,
            auth.item,
        ):
            # a citation pinned to another 款/项 than the words' (an unpinned one keeps its
            # rewrite: naming the 款 would not restore what the words omit)
            cands.append(where)
        s = v.suggestion
        if s is not None and not s.features[:1] == (("off_question", 1.0),):
            cands.append(s.authority)
        if self.locate is not None:
            hit = self.locate(said, auth.instrument)
            if hit is not None:
                cands.append(hit[1])
        for cand in cands:
            same = cand.instrument == auth.instrument and cand.article == auth.article
            if same and not (cand.paragraph or cand.item):
                continue
            if not same and not self._may_move(v, cand):
                continue
            op: EditOp = "fix_granularity" if same else "renumber"
            ed = edit(op, text, cit.span, retarget(cit, cand),
                      f"the description is the text of {pin_label(cand)}, not of "
                      f"{pin_label(auth)}: the pin moves, the words stay", v)  # fmt: skip
            if ed.after == cit.raw:
                continue
            proof = self.policy.prove(text, ed, v, cand, whole)
            if proof is not None:
                return ed.model_copy(update={"proof": proof})
        return None

    def _fix_granularity(self, text: str, v: Verdict) -> Edit | None:
        cit, auth = v.citation, v.resolved
        if auth is None:
            return None
        paras = [
            ln
            for ln in auth.text.split("\n")
            if ln and not re.match(r"^（[一二三四五六七八九十]+）", ln)
        ]
        probe = cit.description or cit.claim
        best_k, best = None, 0.0
        for k, p in enumerate(paras, start=1):
            sc = containment(probe, p) if probe else 0.0
            if sc > best:
                best_k, best = k, sc
        fixed = auth.model_copy(
            update={"paragraph": best_k if best >= 0.5 and len(paras) > 1 else None, "item": None}
        )
        new = retarget(cit, fixed)
        if new == cit.raw:
            return None
        return edit("fix_granularity", text, cit.span, new,
                    f"{v.existence.rationale}; cite {fixed.label}", v)  # fmt: skip

    def _fix_description(
        self, text: str, v: Verdict, target: Authority | None
    ) -> Edit | str | None:
        cit, auth = v.citation, v.resolved
        if _drift_is_later(v):
            # the report states a later version's text (not yet in force): it cites the new
            # law by its new number; no article of the text in force is what it means
            return _drift_note(text, v)
        ds = cit.description_span
        src = auth.text if auth is not None else ""
        own = src  # the cited provision's own text: what a rewrite puts in (never the evidence)
        # What the report says the provision says: the description, else (P（《X》第N条）) the claim.
        said, said_span = (cit.description, ds) if cit.description else (cit.claim, cit.claim_span)
        other = target is not None and (
            target.article != cit.article or target.instrument != cit.instrument
        )
        if (
            other
            and target is not None
            and said
            and containment(said, target.text) > containment(said, src)
        ):
            # The words are another provision's (with its own numbers): renumber, never
            # "correct" that provision's numbers into the cited one's.
            return edit("renumber", text, cit.span, retarget(cit, target),
                        f"the description is the text of {target.label}, not of {cit.pin}", v)  # fmt: skip
        whole = self.article_text(auth) if self.article_text is not None and auth else ""
        repin = _repin(said, auth, whole)
        if repin is not None:
            # the words are another 款/项's of the cited article (劳动法第四十四条第二项 cited
            # for 第三项's 百分之三百): change the pin, never that 项's figures into the cited one's
            return edit("fix_granularity", text, cit.span, retarget(cit, repin),
                        f"the description is the text of {repin.label}, not of {cit.pin}", v)  # fmt: skip
        if said_span is not None and src and said and said_span.slice(text) == said:
            if auth is not None and (auth.paragraph or auth.item):
                # a pinned 款/项 is judged with its article (the modal of 第三十九条's lead-in
                # governs item 一): the judge's evidence quotes the article's words
                src = "\n".join((src, *(e.text for e in v.fidelity.evidence)))
            for mm in number_mismatches(said, src):
                sp = Span(
                    start=said_span.start + mm.found.start, end=said_span.start + mm.found.end
                )
                return edit("fix_number", text, sp, mm.expected.text,
                            f"the provision says {mm.expected.text}, not {mm.found.text}", v)  # fmt: skip
            for fl in modality_flips(said, src):
                a, b, new = _modal_fix(
                    said, fl.found.start, fl.found.end, src, fl.expected.start, fl.expected.end
                )
                sp = Span(start=said_span.start + a, end=said_span.start + b)
                return edit("fix_number", text, sp, new,
                            f"the provision says {new}, not {said[a:b]}", v)  # fmt: skip
            for sw in polarity_swaps(said, src):
                a, b, new = _modal_fix(said, sw.start, sw.end, src, sw.source_start, sw.source_end)
                sp = Span(start=said_span.start + a, end=said_span.start + b)
                return edit("fix_number", text, sp, new,
                            f"the provision says {new}, not {said[a:b]}", v)  # fmt: skip
        if target is not None and target.article != cit.article:
            return edit("renumber", text, cit.span, retarget(cit, target),
                        f"the description matches {target.label}, not {cit.pin}", v)  # fmt: skip
        if (
            ds is not None
            and own
            and _content_form(text, cit)
            and ds.slice(text) == cit.description
        ):
            # Only a description presented as the provision's content (「第N条：…」, 「规定：“…”」)
            # is replaced by the text; 「根据X规定，P」 keeps the author's point P.
            source = (
                own
                if auth is not None and auth.paragraph
                else _best_paragraph(cit.description, own)
            )
            if containment(cit.description, source) < REWRITE_MIN:
                # the entry quotes something else entirely: swapping in the article's text would
                # silently change the answer; the reader is told the article does not say it
                return _misdescribed_note(text, v)
            moved = self._move_first(text, v, cit.description)
            if moved is not None:
                return moved
            body, after = _replacement(text, ds, cit.description, source)
            return edit("rewrite_description", text, body, after,
                        "the description does not match the provision; replaced by its text", v)  # fmt: skip
        if "STALE" in v.taxonomy:
            return _drift_note(text, v)
        return "remove" if v.applicability.label in ("irrelevant", "contradicts") else None

    def _restore_proviso(self, text: str, v: Verdict) -> Edit | None:
        """Insert the omitted 但书 right after the description's clause that states its rule
        (not after a conclusion the author adds); None when the 但书 belongs to an enumeration
        (「有下列情形之一的……：」: the caller restores the provision's text instead)."""
        cit, auth = v.citation, v.resolved
        ds = cit.description_span
        if auth is None or ds is None or ds.slice(text) != cit.description:
            return None
        for p in provisos(auth.text):
            if containment(p.rule, cit.description) < 0.5:
                continue
            if re.search(r"[：:]\s*$", p.rule) or re.search(r"[：:]\s*$", p.text):
                return None
            # the 但书 closes the sentence it qualifies, never splits it (保险法第二十一条:
            # not between 「难以确定的」 and 「保险人不承担赔偿责任」)
            at = ds.start + _sentence_end(
                cit.description, _rule_clause_end(cit.description, p.rule), auth.text
            )
            return edit("restore_proviso", text, Span(start=at, end=at), f"，{p.text}",
                        f"the provision's 但书 was omitted: 「{p.text}」", v)  # fmt: skip
        return None


_SENTENCE_STOP = re.compile(r"[。；;！？!?]")
_QUOTE_SENT = re.compile(r"[^。；;！？!?]+[。；;！？!?]*")


def _failing_siblings(
    text: str, v: Verdict, verdicts: Sequence[Verdict], taken: Collection[str | None]
) -> list[Verdict]:
    """The other members of ``v``'s list (same ``group``) judged failing, with no edit of
    their own (ids not in ``taken``) and not overruled by their context."""
    g = v.citation.group
    if not g:
        return []
    return [
        w
        for w in verdicts
        if w is not v
        and w.citation.group == g
        and w.citation.id not in taken
        and judged_failing(w)
        and not held_by_context(text, w, verdicts)
    ]


def held_by_context(text: str, v: Verdict, verdicts: Sequence[Verdict]) -> bool:
    """A failing verdict its context overrules, as :meth:`EfaReviser.propose` does: an
    endpoint of a range cited whole (「第五百七十七条至第五百八十四条」), a member of a list
    another member of which supports the shared claim, or a citation inside the text of a
    provision another citation quotes (an interpretation's own 「民法典第五百八十四条」)."""
    return (
        _range_end(text, v, verdicts)
        or _listed_with_support(v, verdicts)
        or _quoted_by_another(text, v, verdicts)
    )


def unreported(
    text: str, verdicts: Sequence[Verdict], edited: Collection[str]
) -> tuple[Verdict, ...]:
    """The verdicts on ``text`` (a governed output) judged failing
    (``governor.core.labels.judged_failing``) that the text tells the reader nothing about:
    no edit of the run was on the citation (its id not
    in ``edited``) and no citegov note stands between it and the end of its line. Excluded
    citations, citations in code blocks and verdicts their context overrules
    (:func:`held_by_context`) are not counted."""
    fenced = fenced_blocks(text)
    out = []
    for v in verdicts:
        if v.excluded or not judged_failing(v) or v.citation.id in edited:
            continue
        if held_by_context(text, v, verdicts):
            continue
        if _inside(v.citation.span, fenced):
            continue
        end = text.find("\n", v.citation.span.end)
        if CITEGOV_NOTE.search(text, v.citation.span.start, len(text) if end < 0 else end):
            continue
        out.append(v)
    return tuple(out)


def _quote_spans(text: str) -> list[tuple[int, int]]:
    """Half-open spans of “…” and 「…」 quotations (marks included), one line each."""
    return [(m.start(), m.end()) for m in re.finditer(r"“[^“”\n]*”|「[^「」\n]*」", text)]


_ITEM_LINE = re.compile(r"^\s*[（(][一二三四五六七八九十]+[）)]")


def _modal_phrase(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The consequence phrase holding ``text[start:end]``: from the nearest modal verb before
    it in its clause (:data:`~governor.text.regexes.MODAL_WORD_RE`) to the clause's end; None
    when its clause has no modal before it."""
    lo = start
    while lo > 0 and not CLAUSE_BOUNDARY_RE.match(text, lo - 1) and text[lo - 1] not in "。；;\n":
        lo -= 1
    modal = [m for m in MODAL_WORD_RE.finditer(text, lo, end) if m.start() <= start]
    if not modal:
        return None
    hi = end
    while hi < len(text) and not CLAUSE_BOUNDARY_RE.match(text, hi) and text[hi] not in "。；;\n":
        hi += 1
    return modal[-1].start(), hi


def _modal_fix(
    said: str, start: int, end: int, src: str, s_start: int, s_end: int
) -> tuple[int, int, str]:
    """``(start, end, replacement)`` in ``said`` for a term fix: the whole modal phrase of
    the report replaced by the provision's (「可以减轻处罚」 → 「可以从轻或者减轻处罚」, never
    「可以从轻或者处罚」) when both sides have one; else the term alone (``src[s_start:s_end]``)."""
    mine, theirs = _modal_phrase(said, start, end), _modal_phrase(src, s_start, s_end)
    if mine is None or theirs is None or theirs[1] - theirs[0] > 2 * (mine[1] - mine[0]) + 4:
        # no phrase on one side, or the provision's clause runs far beyond the report's: the
        # term alone
        return start, end, src[s_start:s_end]
    phrase = src[theirs[0] : theirs[1]]
    tail = said[end : mine[1]]
    if not phrase.endswith(tail) or not phrase.startswith(said[mine[0] : start]):
        # the provision's phrase is not the report's with the term changed (an excerpt cut
        # short, another predicate): the term alone
        return start, end, src[s_start:s_end]
    return mine[0], mine[1], phrase


REPIN_GAP = DEFAULT_THRESHOLDS.strategies_repin_gap
"""A pinned 款/项 is re-pinned to a sibling only when the sibling holds this much more of the
report's words (containment): 第四十四条第二项 (百分之二百) vs 第三项 (百分之三百) differ in one
figure, so the words' other terms decide which 项 they are."""


def _repin(said: str, auth: Authority | None, whole: str) -> Authority | None:
    """The 款/项 of the cited article (``whole``: its text) whose text the report's words are
    (≥ the policy's ``IN_TARGET`` and :data:`REPIN_GAP` more than the cited 款/项), when the
    citation pins another one; None otherwise (unpinned, or the cited 款/项 is where the words
    belong). The returned authority carries the whole article's text."""
    if auth is None or not said or not (auth.paragraph or auth.item) or not whole:
        return None
    auth = auth.model_copy(update={"text": whole})
    where = pinpoint(said, auth.model_copy(update={"paragraph": None, "item": None}))
    if (where.paragraph, where.item) == (auth.paragraph, auth.item):
        return None
    if auth.item and not where.item:
        return None  # the words are the 款's lead, not another 项: nothing to re-pin to
    if not (where.paragraph or where.item):
        return None
    there, here = containment(said, unit_text(where)), containment(said, unit_text(auth))
    if there < IN_TARGET or there < here + REPIN_GAP:
        return None
    return where


def paragraphs(article_text: str) -> list[str]:
    """The 款 of an article text (lines; a 项 line belongs to the 款 before it)."""
    out: list[str] = []
    for ln in article_text.split("\n"):
        if not ln.strip():
            continue
        if out and _ITEM_LINE.match(ln):
            out[-1] += "\n" + ln
        else:
            out.append(ln)
    return out


def _best_paragraph(said: str, article_text: str) -> str:
    """The 款 of an unpinned article that ``said`` restates (most of it contained), so a
    rewrite does not paste the whole article; the article when no 款 stands out."""
    paras = paragraphs(article_text)
    if len(paras) < 2:
        return article_text
    scores = [containment(said, p) for p in paras]
    best = max(range(len(paras)), key=lambda k: scores[k])
    if scores[best] < 0.5:
        return article_text
    # every 款 a clause of ``said`` restates (刑法第二百三十四条: 重伤 is 第二款), in order
    clauses = [c for c in re.split(r"[，,；;。]", said) if len(c) >= 4]
    missing = [c for c in clauses if containment(c, paras[best]) < 0.5]
    held = [k for k, p in enumerate(paras) if any(containment(c, p) >= 0.8 for c in missing)]
    chosen = sorted({best, *held})
    return "\n".join(paras[k] for k in chosen)


_CLAUSE = re.compile(r"[^，,；;。]+[，,；;。]*")


def _sentence_end(description: str, at: int, provision: str) -> int:
    """Offset in ``description`` of the end of the provision's words in the sentence holding
    ``at``: where a 但书 goes, since a 但书 qualifies its whole sentence (「……的，X。」 →
    「……的，X，但……的除外。」), but not the report's own conclusion after it (民法典第二百零九条:
    「……不发生效力，但是法律另有规定的除外，因此甲某尚未取得…」). From ``at`` the following clauses
    of the sentence are taken while each is the provision's words (containment ≥ 0.5 in
    ``provision``), stopping before 「。；！？」 or the description's closing punctuation."""
    m = _SENTENCE_STOP.search(description, at)
    end = m.start() if m else len(description.rstrip('。；;，, ”"」'))
    out = at
    for c in _CLAUSE.finditer(description, at, end):
        body = c.group(0).rstrip("，,、 ")
        if not body.strip("，,、 "):
            continue
        if containment(body, provision) < 0.5:
            break
        out = c.start() + len(body)
    return max(at, out)


def _rule_clause_end(description: str, rule: str) -> int:
    """Offset in ``description`` just after the last clause that restates ``rule`` (before
    its punctuation); the description's end (before closing punctuation) when none does."""
    best, top = -1, 0.6
    for m in _CLAUSE.finditer(description):
        body = m.group(0).rstrip("，,；;。")
        score = containment(body, rule) if len(body) >= 2 else 0.0
        if score >= top:  # the clause that restates the rule best; the last among equals
            best, top = m.start() + len(body), score
    if best >= 0:
        return best
    return len(description.rstrip('。；;，, ”"」'))


__all__ = ["EfaReviser", "existence_filter", "removal_span"]
