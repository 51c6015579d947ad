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

Each returns the report's words and the provision's, so the note can quote the statute.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from governor.core.config import DEFAULT_THRESHOLDS
from verifiers.patterns import NEGATORS
from verifiers.textsim import containment, normalize, sentences, verbatim_share

ALIGN_MIN = DEFAULT_THRESHOLDS.clause_align_min
"""Share of the report clause's other words (bigrams) one provision clause must hold before the
clause is read as restating it (see ``Thresholds.clause_align_min``)."""
QUOTE_CLAUSE_MIN = DEFAULT_THRESHOLDS.clause_quote_min
"""A quoted clause must have this share of its characters in one provision clause (runs of two or
more) to be that clause quoted (see ``Thresholds.clause_quote_min``)."""


@dataclass(frozen=True)
class ClauseContradiction:
    """A report clause that says the opposite of the provision clause it restates.

    Attributes:
        kind: ``polarity``, ``grant``, ``choice``, ``grade``, ``quote``
            (:func:`altered_quote_clauses`) or ``kind`` (:func:`widened_kinds`).
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
