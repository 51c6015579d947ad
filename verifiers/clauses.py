"""Clause-level contradictions of a restatement (issue 21, "silence on wrong ones"): a report's
clause whose words overlap one clause of the provision well but say the opposite of it.

Layer 3, pure. Four kinds of contradiction (and two kinds of altered restatement below), each
judged only against the provision clause the report's clause aligns with (its words, other
than the changed ones, hold at least ``Thresholds.clause_align_min`` of their bigrams in that
one clause of the provision):

* :func:`denied_items` — polarity: the report denies (不包括/不属于/不是/无须/并不…) what the
  aligned clause asserts with no negation of its own (民法典第一千零六十三条 「下列财产为夫妻一方的
  个人财产：（一）一方的婚前财产」 restated as 「个人财产不包括一方的婚前财产」);
* :func:`granted_denials` — polarity the other way: the report grants (可以/应当) what the
  aligned clause denies (劳动合同法第四十二条 「…在规定的医疗期内的，用人单位不得…解除劳动合同」
  restated as 「…用人单位可以解除劳动合同」);
* :func:`joined_choices` — choice: the provision lets a party choose one of two remedies
  (「可以选择适用违约金或者定金条款」) and the report has both at once (「定金和违约金可以同时
  主张」, 民法典第五百八十八条);
* :func:`ignored_grades` — a qualifier 「不论/无论/并不看 X的轻重（大小、多少…）」 on a rule whose
  article grades its consequence by that very X (刑法第二百三十四条 「致人重伤的，处三年以上…」).

Two kinds of changed part (fidelity step 3h), each in a report clause that the provision clause
restates both ways: :func:`swapped_parties` (another party, or a counterpart the clause does not
name) and :func:`changed_references` (本法第N条 the clause does not refer to).

Each returns the report's words and the provision's, so the note can quote the statute.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass

from governor.core.config import DEFAULT_THRESHOLDS
from governor.text.numerals import to_int
from verifiers.patterns import NEGATORS
from verifiers.textsim import containment, normalize, sentences, verbatim_share

ALIGN_MIN = DEFAULT_THRESHOLDS.clause_align_min
"""Share of the report clause's other words (bigrams) one provision clause must hold before the
clause is read as restating it (see ``Thresholds.clause_align_min``)."""
QUOTE_CLAUSE_MIN = DEFAULT_THRESHOLDS.clause_quote_min
"""A quoted clause must have this share of its characters in one provision clause (runs of two or
more) to be that clause quoted (see ``Thresholds.clause_quote_min``)."""


def changed_ops(a: str, b: str) -> list[tuple[str, int, int, int, int]]:
    """The non-equal opcodes of :class:`difflib.SequenceMatcher` from ``a`` to ``b`` (no
    autojunk): ``(tag, i1, i2, j1, j2)`` spans, character offsets into ``a`` and ``b``."""
    return [
        o
        for o in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
        if o[0] != "equal"
    ]


@dataclass(frozen=True)
class ClauseContradiction:
    """A report clause that says the opposite of the provision clause it restates.

    Attributes:
        kind: ``polarity``, ``grant``, ``choice``, ``grade``, ``quote``
            (:func:`altered_quote_clauses`), ``kind`` (:func:`widened_kinds`), ``party``
            (:func:`swapped_parties`) or ``reference`` (:func:`changed_references`).
        found: the report's words (「不包括夫妻一方的婚前财产」).
        statute: the provision's words it contradicts (「下列财产为夫妻一方的个人财产」…).
    """

    kind: str
    found: str
    statute: str


_LIST_ITEM = re.compile(r"[（(][一二三四五六七八九十]+[)）]")
_BREAK = re.compile(r"[，,；;。！？\n：:]")


def _clauses(text: str) -> list[str]:
    """The provision's clauses: sentences, split again at commas and at list-item marks, each
    list item carrying the lead sentence it completes (「下列财产为…：」 + 「一方的婚前财产」)."""
    out: list[str] = []
    lead = ""
    for s, e in sentences(text):
        sent = text[s:e]
        body = _LIST_ITEM.sub("", sent).strip()
        if _LIST_ITEM.match(sent.strip()):
            out.append(lead + body)
        else:
            if re.search(r"[：:]\s*$", sent):
                lead = re.sub(r"[：:]\s*$", "：", sent.strip())
            out.append(body)
        out.extend(p for p in re.split(r"[，,]", body) if len(normalize(p)) >= 4)
    return out


def _holds(words: str, clause: str) -> bool:
    return len(normalize(words)) >= 4 and containment(words, clause) >= ALIGN_MIN


_PROHIBITS = ("除", "禁止", "严禁", "免")
"""Words that make a clause deny or except something without a negator (禁止用人单位招用…, 免除)."""


def _negated(clause: str) -> bool:
    return any(n in clause for n in (*NEGATORS, *_PROHIBITS))


_DENIAL = re.compile(
    r"(?:并不|均不|都不)?(不包括|不包含|不属于|不是|不算|不得|无须|无需|不需要|不必|不用)"
)
"""A denial of membership or duty in the report; what follows is its object."""


def denied_items(description: str, source: str) -> tuple[ClauseContradiction, ...]:
    """Report clauses that deny what the aligned provision clause asserts.

    A denial (:data:`_DENIAL`) counts when (1) the words before it in the report's sentence (its
    subject: 「夫妻一方的个人财产」) and (2) its object up to the next 、，；。 (「夫妻一方的婚前
    财产」) are both held by one provision clause (:func:`_holds`), (3) that clause negates
    nothing (no 不/未/非/无/没有, nor 除/禁止/严禁/免), and (4) the provision nowhere uses the denial's words.
    """
    out: list[ClauseContradiction] = []
    clauses = _clauses(source)
    src_norm = normalize(source)
    for s, e in sentences(description):
        sent = description[s:e]
        for m in _DENIAL.finditer(sent):
            if normalize(m.group(1)) in src_norm:
                continue
            head = re.split(r"[，,；;。]", sent[: m.start()])
            subject = head[-1] if normalize(head[-1]) else (head[-2] if len(head) > 1 else "")
            rest = sent[m.end() :]
            obj = re.split(r"[、，,；;。]", rest, maxsplit=1)[0]
            if len(normalize(subject)) < 4 or len(normalize(obj)) < 4:
                continue
            for c in clauses:
                if _holds(subject, c) and _holds(obj, c) and not _negated(c):
                    out.append(
                        ClauseContradiction("polarity", m.group(0) + obj, c.strip(" ；;。，,\n"))
                    )
                    break
            else:
                continue
            break
    return tuple(out)


_GRANT = re.compile(r"(?<![不无])(可以|应当|有权|能够)")
"""A modal that grants or imposes the predicate after it (可以解除劳动合同)."""
_DENY_BEFORE = re.compile(r"(?:不得|不能|无权|不予|不应|不)")
NEGATION_REACH = 30
"""Characters between the provision's negation and the predicate it denies (「不得依照本法第四十条、
第四十一条的规定解除劳动合同」)."""


def granted_denials(description: str, source: str) -> tuple[ClauseContradiction, ...]:
    """Report sentences that grant (可以/应当/有权…) a predicate the aligned provision clause
    denies (不得/不能/无权…).

    The report's words before the modal (its condition and subject: 「劳动者患病或者非因工负伤，在
    规定的医疗期内的，用人单位」) must be held by one provision clause (:func:`_holds`, list items
    with their lead), and that clause must put a negation within :data:`NEGATION_REACH`
    characters before the predicate's first four characters (「不得依照…解除劳动合同」, 劳动合同法
    第四十二条) and grant it nowhere (no modal right before it).
    """
    out: list[ClauseContradiction] = []
    clauses = _clauses(source)
    for ds, de in sentences(description):
        sent = description[ds:de]
        for m in _GRANT.finditer(sent):
            head, pred = sent[: m.start()], normalize(sent[m.end() :])[:4]
            if len(pred) < 4 or len(normalize(head)) < 8:
                continue
            for c in clauses:
                n = normalize(c)
                at = n.find(pred)
                if at < 0 or not _holds(head, c):
                    continue
                before = n[max(0, at - NEGATION_REACH) : at]
                neg = list(_DENY_BEFORE.finditer(before))
                granted = any(
                    g.end() == k.start()
                    for k in re.finditer(re.escape(pred), n)
                    for g in _GRANT.finditer(n)
                )
                if neg and not granted and not _GRANT.search(before[neg[-1].end() :]):
                    out.append(
                        ClauseContradiction("grant", _span(sent, m.start()), c.strip(" ；;。，,\n"))
                    )
                    break
            if out:
                return tuple(out)
    return tuple(out)


_CHOICE = re.compile(
    r"选择(?:适用|行使|主张|请求)?([^，,；;。或]{2,14}?)或者([^，,；;。]{2,14}?)(?:条款|规定|方式)?(?=[，,；;。]|$)"
)
"""The provision's choice of one of two: 「选择适用违约金或者定金条款」."""
_BOTH = re.compile(r"同时|一并|并用|都可以|均可|两者都|二者都|合并|叠加|并处|一起")
"""The report's words for having both at once."""
_ONE = re.compile(r"选择|择一|或者|只能|之一|不能同时|不得同时|不可同时")


def _core(term: str) -> str:
    t = normalize(term)
    for suffix in ("条款", "规定", "方式", "责任"):
        t = t.removesuffix(suffix)
    return t


def joined_choices(description: str, source: str) -> tuple[ClauseContradiction, ...]:
    """Report sentences that have both of two remedies the provision lets a party choose between.

    The provision clause 「…选择（适用）A或者B…」 (:data:`_CHOICE`); a report sentence naming both A
    and B (their cores, suffixes 条款/规定 dropped) with a word for both at once (:data:`_BOTH`:
    同时、一并、并处…) and none for one of them (:data:`_ONE`).
    """
    out: list[ClauseContradiction] = []
    for s, e in sentences(source):
        clause = source[s:e]
        m = _CHOICE.search(clause)
        if m is None:
            continue
        a, b = _core(m.group(1)), _core(m.group(2))
        if len(a) < 2 or len(b) < 2:
            continue
        for ds, de in sentences(description):
            sent = description[ds:de]
            n = normalize(sent)
            if a in n and b in n and (both := _BOTH.search(sent)) and not _ONE.search(sent):
                out.append(
                    ClauseContradiction(
                        "choice", _span(sent, both.start()), _span(clause, m.start())
                    )
                )
        if out:
            break
    return tuple(out)


_GRADE = re.compile(
    r"(?:并不看|不看|不论|无论|不管|不分|不问)([^，,；;。]{0,8}?)的?(轻重|大小|多少|长短|高低|多寡|深浅)"
)
"""A qualifier saying the consequence does not depend on how much of X: 「不论伤的轻重」."""


def ignored_grades(description: str, source: str) -> tuple[ClauseContradiction, ...]:
    """Report sentences that say the rule holds whatever the degree of X while the provision
    grades its consequence by X.

    The qualifier (:data:`_GRADE`) names X (「伤」) and a scale (「轻重」); it counts when the
    rest of the report's sentence is held by one provision clause (:func:`_holds`: the rule it
    restates) and a 「……的」 condition of the provision puts a pole of the scale next to X
    (「致人重伤的」: 重 + 伤).
    """
    out: list[ClauseContradiction] = []
    clauses: list[str] | None = None  # the provision's, cut once when a qualifier is found
    for ds, de in sentences(description):
        sent = description[ds:de]
        g = _GRADE.search(sent)
        if g is None:
            continue
        head = normalize(g.group(1)).removeprefix("是否")[-2:]
        if not head:
            continue
        rest = sent[: g.start()] + sent[g.end() :]
        if clauses is None:
            clauses = _clauses(source)
        if not any(_holds(rest, c) for c in clauses):
            continue
        poles = g.group(2)
        for cm in re.finditer(r"[^，,；;。：:]*的[，,][^；;。]*", source):
            cond = normalize(cm.group(0).split("的")[0])
            if any(p + head in cond or head + p in cond for p in poles):
                out.append(ClauseContradiction("grade", g.group(0), cm.group(0).strip()))
                break
    return tuple(out)


def _span(sent: str, at: int, most: int = 30) -> str:
    """The report's clause around offset ``at`` of ``sent`` (from the last break to the next)."""
    starts = [m.end() for m in _BREAK.finditer(sent, 0, at)]
    start = starts[-1] if starts else 0
    end_m = _BREAK.search(sent, at)
    end = end_m.start() if end_m else len(sent)
    return sent[start:end][:most].strip()


def clause_contradictions(description: str, source: str) -> tuple[ClauseContradiction, ...]:
    """Every contradiction of the four kinds above (denial, grant, choice, grade), polarity
    first."""
    return (
        denied_items(description, source)
        + granted_denials(description, source)
        + joined_choices(description, source)
        + ignored_grades(description, source)
    )


_PARTY_END = re.compile(
    r"(?:人|单位|机关|者|企业|组织|基金|法院|检察院|部门|机构|公司|委员会|政府)$"
)
"""How the words end that a statute uses for a party who acts or is acted on (劳动者、用人单位、
工伤保险基金、人民法院、建设单位、物业买受人、社会保险经办机构). Not 方: 一方、对方、另一方、双方
name a side relative to another (「男女一方」 is 「夫妻一方」), not who it is."""
_NOT_PARTY = re.compile(
    r"(?:^(?:所在|该|本|原|其|上述|相关|有关|前款|对方|任何)|(?:或者|再者|前者|后者|两者|二者|本人|"
    r"个人|他人|任何人)$)"
)
"""Words shaped like a party that name none by themselves: a determiner (「所在单位」 is the
worker's 用人单位, 「该单位」, 「有关部门」), a conjunction (或者), or a person whoever it is
(本人、他人)."""
_PARTY_BEFORE = "由向与对和及被经为从给按将把使让同或"
"""Characters a party word can follow inside a clause (由用人单位支付, 向劳动者, 与物业买受人); a
word that starts after any other character is the tail of a longer one."""
_COUNTERPART = "与同向"
"""Prepositions that name the other party of an act (与X签订, 向X支付)."""
PARTY_MOST = DEFAULT_THRESHOLDS.party_word_most
"""Characters a party word has at most (see ``Thresholds.party_word_most``)."""
PARTY_REACH = DEFAULT_THRESHOLDS.party_reach
"""Shared characters a changed run may reach over on its right for the party's ending (see
``Thresholds.party_reach``)."""


def _party_word(text: str, a: int, b: int) -> tuple[int, str] | None:
    """``(start, word)`` of the party word that the changed run ``text[a:b]`` (normalised) is or
    ends in: a leading 由/向/与… is cut off, and the word reaches right over at most
    :data:`PARTY_REACH` shared characters to the longest party ending (:data:`_PARTY_END`); None when
    there is none, the word is longer than :data:`PARTY_MOST`, names no one
    (:data:`_NOT_PARTY`), or starts inside a word (after a character not in
    :data:`_PARTY_BEFORE`)."""
    while a < b and text[a] in _PARTY_BEFORE:
        a += 1
    if a >= b or (a > 0 and text[a - 1] not in _PARTY_BEFORE):
        return None
    for k in range(min(PARTY_REACH, len(text) - b), -1, -1):
        w = text[a : b + k]
        if 2 <= len(w) <= PARTY_MOST and _PARTY_END.search(w) and not _NOT_PARTY.search(w):
            return a, w
    return None


_REF = re.compile(
    r"(?<![》法例定释则])(?:本法|本条例|本规定|本办法|本解释|本规则)?((?:第[0-9零〇一二两三四五六七八九十百千]+"
    r"[条款项](?:之一)?(?:[、和及与或至]|或者|以及)?)+)"
)
"""A cross-reference of a clause: 「本法第三条或者第十七条」, 「本法第四十四条第一项」 (not one
after a law's name: 《劳动合同法》第四十六条 is the citation itself)."""
_REF_PART = re.compile(r"第([0-9零〇一二两三四五六七八九十百千]+)([条款项])")


def _refs(clause: str) -> tuple[frozenset[str], str]:
    """The cross-references of ``clause`` (each 「第N条/款/项」 as N and its unit, N in digits)
    and the clause's other words (the references cut out)."""
    out: set[str] = set()
    rest = clause
    for m in _REF.finditer(clause):
        for p in _REF_PART.finditer(m.group(1)):
            try:
                out.add(f"{to_int(p.group(1))}{p.group(2)}")
            except ValueError:
                continue
        rest = rest.replace(m.group(0), "")
    return frozenset(out), rest


_CUT = re.compile(r"[，,；;。：:！？\n]")


def _report_clauses(description: str) -> list[str]:
    return [c for c in _CUT.split(description) if len(normalize(c)) >= 6]


def _provision_clauses(source: str) -> list[str]:
    """The provision's comma clauses, list-item marks cut out (the lead sentence is a clause of
    its own: a party or a reference is judged in the clause that holds it)."""
    return [c for c in _CUT.split(_LIST_ITEM.sub("", source)) if len(normalize(c)) >= 4]


def swapped_parties(
    description: str, source: str, known: Callable[[str], bool] | None = None
) -> tuple[ClauseContradiction, ...]:
    """Report clauses that restate one clause of the provision but name another party in it.

    A report clause (split at ，；。：) and a provision clause are compared character by
    character (difflib on normalised text, at most two changed runs); a change of one party
    word for another (:func:`_party_word`: 「劳动者依照本法第四十条规定解除劳动合同的」 for 劳动合同法
    第四十六条 「用人单位依照本法第四十条规定解除劳动合同的」), or a counterpart the clause does not
    name at all added with 与/同/向 (物业管理条例第二十一条 「应当与物业买受人签订…」; the article
    nowhere names it), counts when (1) each clause's other words hold
    ``Thresholds.clause_align_min`` of their bigrams in the other (both ways: 「有权向销售者追偿」
    is no restatement of 「经营者赔偿后有权向生产者追偿」), (2) the
    report's party is not in that clause and the provision's is not in the report's clause (a
    clause naming both reorders them), (3) neither word holds the other (法院/人民法院), (4) the
    report's party is a word the cited law uses (``known``: the instrument's texts; without it,
    the article's) — one it never uses is the report's wording for the same party (中介人 for
    合同法's 居间人), and (5) no sentence of the provision that names the report's party, with
    the report clause's cross-references (:func:`_refs`), holds ``clause_align_min`` of the
    report's clause: the report restates that sentence (合同法第九十三条 「当事人协商一致，可以解除
    合同」 for 「当事人可以解除合同」; 劳动合同法第四十六条（一） 「劳动者依照本法第三十八条…」 refers
    elsewhere and is no such sentence).
    """
    clauses = _provision_clauses(source)
    norms = [normalize(c) for c in clauses]
    sents = [normalize(source[a:b]) for a, b in sentences(_LIST_ITEM.sub("", source))]
    src = normalize(source)
    for rc in _report_clauses(description):
        d = normalize(rc)
        if any(d in n for n in norms):
            continue
        refs = _refs(rc)[0]
        for c, s in zip(clauses, norms, strict=True):
            changed = changed_ops(d, s)
            if not changed or len(changed) > 2:
                continue
            for tag, i1, i2, j1, j2 in changed:
                if tag == "delete" and d[i1] in _COUNTERPART:
                    # a counterpart the provision's clause does not name (与物业买受人签订)
                    m = _party_word(d, i1, i2)
                    if m is None or m[0] + len(m[1]) != i2 or m[1] in src:
                        continue
                    (at, mine), theirs = m, ""
                    other, rest = d[:i1] + d[i2:], s
                elif tag == "replace":
                    m, t = _party_word(d, i1, i2), _party_word(s, j1, j2)
                    if m is None or t is None:
                        continue
                    (at, mine), (tat, theirs) = m, t
                    if mine in theirs or theirs in mine or mine in s or theirs in d:
                        continue
                    other, rest = d[:at] + d[at + len(mine) :], s[:tat] + s[tat + len(theirs) :]
                else:
                    continue
                if len(other) < 4 or min(containment(other, s), containment(rest, d)) < ALIGN_MIN:
                    continue
                if not (known(mine) if known is not None else mine in src):
                    continue
                if any(
                    mine in x and _refs(x)[0] == refs and containment(d, x) >= ALIGN_MIN
                    for x in sents
                ):
                    continue
                return (ClauseContradiction("party", rc.strip(), c.strip()),)
    return ()


def changed_references(description: str, source: str) -> tuple[ClauseContradiction, ...]:
    """Report clauses that restate one clause of the provision but refer to other provisions.

    The report clause's references (:func:`_refs`: 「本法第三条、第四条」) must include one that
    the provision clause it restates does not make (国家赔偿法第三十五条 「有本法第三条或者第十七条规定
    情形之一」), where the two clauses' other words (references cut out) hold
    ``Thresholds.clause_align_min`` of the report's bigrams in the provision's, and no clause of
    the provision that they align with makes all of the report's references (劳动合同法第四十六条
    has one item per reference: 「…依照本法第三十八条规定解除…」, 「…依照本法第四十条规定解除…」).
    A reference the report leaves out is not judged (it may name the one that applies).
    """
    out: list[ClauseContradiction] = []
    clauses = _provision_clauses(source)
    theirs = [(c, *_refs(c)) for c in clauses]
    for rc in _report_clauses(description):
        mine, other = _refs(rc)
        if not mine or len(normalize(other)) < 4:
            continue
        aligned = sorted(
            (
                (containment(other, rest), c, refs)
                for c, refs, rest in theirs
                if refs and containment(other, rest) >= ALIGN_MIN
            ),
            key=lambda x: -x[0],
        )
        if not aligned or any(mine <= refs for _, _, refs in aligned):
            continue
        _, c, refs = aligned[0]
        if mine - refs:
            out.append(ClauseContradiction("reference", rc.strip(), c.strip()))
            break
    return tuple(out)


_QUOTE_CLAUSE = re.compile(r"[^；;。！？\n]+")


def _coverage(part: str, whole: str) -> float:
    """Share of ``part``'s normalised characters matched in runs of two or more in ``whole``
    (:func:`verifiers.textsim.verbatim_share` with two-character blocks)."""
    return verbatim_share(part, whole, min_block=2)


def altered_quote_clauses(quote: str, source: str) -> tuple[ClauseContradiction, ...]:
    """Clauses of a quotation that no clause of the provision reads like.

    A quotation can match the provision on the whole (most of its characters verbatim) and still
    change one clause of it: 继承法第五条 「有遗赠扶养协议的，按照协议办理」 quoted as 「有遗赠的，
    按照遗赠办理」. Each quoted clause (split at ；。！？, at least six normalised characters, not
    in the provision verbatim) is aligned with the provision clause that matches most of it
    (:func:`_coverage`); under ``Thresholds.clause_quote_min``, or with one of that clause's words
    swapped for another word of the provision (:func:`_swapped_term`), it is altered. Only a quotation
    whose other clauses are the provision's (at least one clause verbatim) is judged: a quote
    from another text altogether is step 1's.
    """
    src_clauses = [m.group(0) for m in _QUOTE_CLAUSE.finditer(source) if normalize(m.group(0))]
    src = normalize(source)
    mine = [m.group(0) for m in _QUOTE_CLAUSE.finditer(quote) if len(normalize(m.group(0))) >= 6]
    verbatim = [c for c in mine if normalize(c) in src]
    if not verbatim or not src_clauses:
        return ()
    out: list[ClauseContradiction] = []
    at = -1  # the provision clause the last verbatim quoted clause is
    norm = [normalize(x) for x in src_clauses]
    for c in mine:
        if c in verbatim:
            at = next((k for k, x in enumerate(norm) if normalize(c) in x), at)
            continue
        best = max(src_clauses, key=lambda s: _coverage(c, s))
        if _coverage(c, best) < QUOTE_CLAUSE_MIN or _swapped_term(c, best, src):
            # the clause it stands for: the one after the last clause quoted verbatim, when it
            # shares half of it (a quote follows the provision's order), else the closest
            nxt = src_clauses[at + 1] if 0 <= at + 1 < len(src_clauses) else best
            shown = nxt if _coverage(c, nxt) >= 0.5 else best
            out.append(ClauseContradiction("quote", c.strip(), shown.strip(" ，,。\n")))
    return tuple(out)


def _swapped_term(clause: str, src_clause: str, src: str) -> bool:
    """Whether the quoted clause puts, where ``src_clause`` has one word, another word the
    provision itself uses (``src``, normalised): 「有遗赠的」 for 「有遗嘱的」 in 继承法第五条, which
    has 遗赠 in another clause. A replacement the provision never uses (「之日起」 for 「时」) is a
    wording of the report's, judged by coverage alone."""
    d, s = normalize(clause), normalize(src_clause)
    sm = difflib.SequenceMatcher(None, d, s, autojunk=False)
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag != "replace" or i1 == 0 or j1 == 0 or i2 - i1 > 2 or d[i1 - 1] != s[j1 - 1]:
            continue
        mine, theirs = d[i1 - 1 : i2], s[j1 - 1 : j2]
        if mine != theirs and mine in src and theirs not in d:
            return True
    return False


_SENT_START = re.compile(r"(?:^|[。；;\n])\s*(?:[（(][一二三四五六七八九十]+[)）])?\s*")


def widened_kinds(description: str, source: str) -> tuple[ClauseContradiction, ...]:
    """Report sentences that state, for a whole kind, the rule the provision sets for one sort of it.

    An article that sets one rule each for several sorts of a thing (继承法第十七条: 公证遗嘱…,
    自书遗嘱由遗嘱人亲笔书写…, 代书遗嘱应当…) opens those sentences with a modifier before the
    same head (「自书」「代书」「公证」 + 「遗嘱」). A report sentence that restates one of them
    (``Thresholds.clause_align_min`` of its characters in that sentence, in runs of two or more)
    without its opening modifier (「遗嘱应当由遗嘱人亲笔书写」) states that sort's rule for every
    sort. At least two distinct modifiers must open sentences of the article before the head.
    """
    out: list[ClauseContradiction] = []
    src_sents = [source[s:e] for s, e in sentences(source)]
    starts = [m.end() for m in _SENT_START.finditer(source)]
    for ds, de in sentences(description):
        d = normalize(description[ds:de])
        if len(d) < 8:
            continue
        for sent in src_sents:
            s = normalize(_LIST_ITEM.sub("", sent))
            sm = difflib.SequenceMatcher(None, d, s, autojunk=False)
            ops = sm.get_opcodes()
            # the source's opening modifier is missing from the report (difflib: an insert at 0)
            if not ops or ops[0][0] != "insert" or not 2 <= ops[0][4] - ops[0][3] <= 4:
                continue
            if _coverage(description[ds:de], s) < ALIGN_MIN:
                continue
            modifier, head = s[: ops[0][4]], s[ops[0][4] : ops[0][4] + 2]
            if len(head) < 2 or not d.startswith(head):
                continue
            kinds = {
                normalize(source[a : a + 8]).split(head)[0]
                for a in starts
                if head in normalize(source[a : a + 8])
            }
            kinds = {k for k in kinds if 2 <= len(k) <= 4}
            if modifier in kinds and len(kinds) >= 2:
                out.append(
                    ClauseContradiction(
                        "kind", description[ds:de].strip(" 。；;"), sent.strip(" 。；;\n")
                    )
                )
                break
    return tuple(out)
