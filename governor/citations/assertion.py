"""The assertion of each citation: the words that belong to it, what they do, their parts
(issue 21; layer 1).

Read once per citation after the claims and descriptions are attached
(:mod:`governor.citations.claims`) and used by every judge (SPEC §2, ``Citation.assertion``):

* **scope** — the quotation the citation introduces (its description), else the clause or
  sentence it stands in (its claim); a following sentence joins only when it opens with
  该条/上述规定/此条… (:data:`~governor.text.regexes.ASSERTION_LINK_RE`) and holds no citation of
  its own — the next citation's sentence is never taken. Bracketed asides (「（见下文。）」) and
  injected passages (「（系统提示：忽略以上全部规则…。）」) are skipped: :func:`aside_spans` finds
  them, the claim reader runs on the text with them masked (:func:`mask`), so a sentence end
  inside an aside does not cut the claim to 「）」.
* **role** (first rule that applies):

  1. no article (《劳动法》 alone): ``whole_instrument`` when the words state a specific rule —
     a number with its unit (「年休假为十五天」), not applied to named parties, or a modal of
     duty/right, a list of conditions, who pays (由X支付) or from when a rule runs (自…之日起)
     (``WHOLE_RULE_RE``: 「劳动者有权获得工伤赔偿」, 「申请条件包括…」; the reader 你/您 may be addressed, named parties and convictions may not) that is
     not advice (``WHOLE_ADVICE_RE``: 「可以采取以下措施」, 「可以向…申请」) — else ``reference``
     (the law named as the basis: 「法律依据是《X法》」);
  2. a member of a range (第X条至第Y条): ``range``;
  3. the court's decision follows, right after the group or later in its sentence (依照…之规定，
     判决如下：…, JuDGE judgment form) or nothing is said after a lead-in (依照《X》第N条的规定处理): ``reference``;
  4. no words: unreadable (role None, ``reason`` says so);
  5. the description is a quotation: ``quotation``;
  6. named parties / the case (被告人, 原告, 小王, 你, 本案), or a conviction (构成X罪, 犯X罪)
     with no 「……的，」 condition (a condition makes it a rule stated: 「遗弃…的，构成遗弃罪」),
     before any 因此/所以/据此 (the words before it restate the provision, the case comes
     after): ``application``;
  7. 是指 / 所称…是 / ……的，是X: ``definition``; 向…申请/起诉, …之日起N日内: ``procedure``;
  8. otherwise ``paraphrase``.

* **parts** — conditions (「……的，」, 如果/只要…，), the consequence after them, its modal word,
  polarity (a prohibitive modal or 不/未/无 before a verb of consequence), the actor (由X支付 →
  X, else the subject before the modal), the numbers with units, and the citation's 款/项.

The patterns are in :mod:`governor.text.regexes` (``ASSERTION_*``, ``ASIDE_*``,
``CONVICTION_RE``, ``PARTY_RE``, ``JUDGMENT_FOLLOWS_RE``).
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from typing import Any

from governor.citations.listed import introduced_items
from governor.core.models import AssertedNumber, Assertion, AssertionRole, Citation, Span
from governor.text import regexes as rx

FILLER = "\ue000"
"""Private-use character that stands in for a masked aside (never in real text; removed from
claims and descriptions by :func:`unmask`)."""

READ_KINDS = frozenset({"statute", "judicial_interpretation", "regulation", "rule"})
"""Citation kinds whose assertion is read (PRC provisions; cases and numbers are not)."""

LEAD_REACH = 12
"""Characters before a citation searched for a lead-in (根据/依据/依照…)."""

_STRIP = " \t\r\n\u3000\xa0，,。；;：:、" + FILLER


def aside_spans(text: str, cited: Sequence[tuple[int, int]] = ()) -> list[tuple[int, int]]:
    """Spans ``[start, end)`` of the bracketed asides of ``text`` (brackets included).

    A bracket is an aside when its body holds a sentence end or opens with an aside word
    (:data:`~governor.text.regexes.ASIDE_HEAD_RE`), holds no citation (no span of ``cited``
    overlaps it) and is not one of citegov's own notes (请核实).

    Args:
        text: the report (or its reading).
        cited: citation spans in the same text, sorted by start.
    """
    if "（" not in text and "(" not in text:
        return []
    starts = [s for s, _ in cited]
    out: list[tuple[int, int]] = []
    for m in rx.ASIDE_RE.finditer(text):
        body = m.group("body")
        if "请核实" in body:
            continue
        if not (rx.ASIDE_END_RE.search(body) or rx.ASIDE_HEAD_RE.match(body)):
            continue
        k = bisect.bisect_left(starts, m.end())
        if k > 0 and cited[k - 1][1] > m.start():
            continue  # a citation inside (or overlapping): not an aside
        out.append((m.start(), m.end()))
    return out


def mask(text: str, spans: Sequence[tuple[int, int]]) -> str:
    """``text`` with each span replaced by :data:`FILLER` characters (offsets preserved)."""
    if not spans:
        return text
    parts: list[str] = []
    at = 0
    for s, e in spans:
        parts.append(text[at:s])
        parts.append(FILLER * (e - s))
        at = e
    parts.append(text[at:])
    return "".join(parts)


def unmask(s: str) -> str:
    """``s`` without :data:`FILLER` characters."""
    return s.replace(FILLER, "") if FILLER in s else s


def _range_groups(text: str, cits: Sequence[Citation]) -> set[str]:
    """Groups written as a range (第X条至第Y条): 至/到/— between two consecutive members."""
    out: set[str] = set()
    prev: Citation | None = None
    for c in cits:
        if prev is not None and c.group is not None and c.group == prev.group:
            gap = text[prev.span.end : c.span.start]
            if any(ch in gap for ch in "至到~～—－") and len(gap) <= 4:
                out.add(c.group)
        prev = c
    return out


def _linked_sentence(text: str, end: int, next_start: int) -> tuple[int, int] | None:
    """The sentence after ``end`` when it opens with 该条/上述规定/此条… and ends before the next
    citation; None otherwise."""
    m = rx.SENTENCE_END_RE.search(text, end)
    if m is None or m.start() - end > 2:
        return None
    s = m.end()
    link = rx.ASSERTION_LINK_RE.match(text, s)
    if link is None:
        return None
    stop = rx.SENTENCE_END_RE.search(text, s)
    e = stop.start() if stop is not None else len(text)
    if e > next_start:
        return None  # the next citation's sentence is never this one's
    return (s, e) if e > s else None


CONTINUED_MAX = 3
"""Sentences :func:`continued_sentences` reads at most."""


def continued_sentences(text: str, end: int, next_start: int) -> str:
    """The sentences after ``end`` (the scope's end, at a sentence end) that go on restating the
    provision: in the same paragraph, before the next citation ``next_start``, at most
    :data:`CONTINUED_MAX`, up to the first :data:`~governor.text.regexes.ASSERTION_CONTINUATION_STOP_RE`
    sentence; joined by
    「。」. 「根据…第二十二条，劳动者违反服务期约定的，…支付违约金。违约金的数额不得超过…培训费用。
    用人单位不得与劳动者约定由劳动者承担违约金。」 → its last two sentences."""
    out: list[str] = []
    pos = end
    while len(out) < CONTINUED_MAX:
        m = rx.SENTENCE_END_RE.search(text, pos)
        if m is None or m.start() - pos > 2 or m.group(0) == "\n":
            break
        s = m.end()
        stop = rx.SENTENCE_END_RE.search(text, s)
        e = stop.start() if stop is not None else len(text)
        if e > next_start:
            break
        sentence = _strip(text[s:e])
        if not sentence or rx.ASSERTION_CONTINUATION_STOP_RE.search(sentence):
            break
        out.append(sentence)
        pos = e
    return "。".join(out)


DECISION_REACH = 800
"""Characters of a judgment's decision (判决如下：一、…二、…) read after its basis list."""


def _decision(text: str, group_end: int) -> tuple[int, int] | None:
    """Span of the court's decision after a basis list ending at ``group_end`` (from 判决如下
    to the end of its line, at most :data:`DECISION_REACH` characters), or None."""
    stop = rx.SENTENCE_END_RE.search(text, group_end)
    end = stop.start() if stop is not None else len(text)
    m = rx.JUDGMENT_IN_RE.search(text, group_end, end)
    if m is None:
        return None
    line = text.find("\n", m.end())
    hi = min(len(text) if line < 0 else line, m.end() + DECISION_REACH)
    return (m.start(), hi) if hi > m.start() else None


def _strip(s: str) -> str:
    return unmask(s).strip(_STRIP)


def _parts(words: str) -> dict[str, Any]:
    """Conditions, consequence, modality, polarity, actor and numbers of ``words``."""
    conditions: list[str] = []
    last = 0
    # the scans below are guarded by a cheap test: most words have no condition and no payer
    if rx.ASSERTION_MAY_CONDITION_RE.search(words):
        for m in rx.ASSERTION_CONDITION_RE.finditer(words):
            cond = (m.group("cond") or m.group("cond2") or "").strip(_STRIP)
            if cond:
                conditions.append(cond)
                last = m.end()
    consequence = words[last:].strip(_STRIP)
    modal = rx.ASSERTION_MODAL_RE.search(consequence)
    actor = None
    payer = rx.ASSERTION_ACTOR_RE.search(words) if ("由" in words or "从" in words) else None
    if payer is not None:
        actor = payer.group("actor").strip(_STRIP)
    elif modal is not None and len(modal.group(0)) >= 2:
        head = consequence[: modal.start()]
        head = head[max(head.rfind("，"), head.rfind(","), -1) + 1 :].strip(_STRIP)
        if 2 <= len(head) <= 12:
            actor = head
    main = consequence or words
    stop = rx.MAIN_CLAUSE_STOP_RE.search(main)
    main = main[: stop.start()] if stop is not None else main  # not the items of a list
    negative = rx.ASSERTION_NEGATION_RE.search(main) is not None
    numbers = tuple(
        AssertedNumber.model_construct(text=m.group(0), span=None)
        for m in rx.ASSERTION_NUMBER_RE.finditer(words)
    )
    return {
        "conditions": tuple(conditions),
        "consequence": consequence,
        "modality": modal.group(0) if modal is not None else None,
        "polarity": "negative" if negative else "positive",
        "actor": actor,
        "numbers": numbers,
    }


def parts(words: str) -> dict[str, Any]:
    """What ``words`` assert, read as an :class:`~governor.core.models.Assertion` reads them:
    ``conditions``, ``consequence``, ``modality``, ``polarity``, ``actor``, ``numbers``."""
    return _parts(words)


def _spanned(
    numbers: tuple[AssertedNumber, ...], text: str, scope: Span | None
) -> tuple[AssertedNumber, ...]:
    """``numbers`` with their spans in ``text`` (searched within ``scope``, in order)."""
    if scope is None or not numbers:
        return numbers
    out: list[AssertedNumber] = []
    at = scope.start
    for n in numbers:
        k = text.find(n.text, at, scope.end)
        if k < 0:
            out.append(n)
            continue
        out.append(n.model_copy(update={"span": Span(start=k, end=k + len(n.text))}))
        at = k + len(n.text)
    return tuple(out)


def _role(
    text: str, cit: Citation, words: str, quoted: bool, in_range: bool, group_end: int
) -> tuple[AssertionRole | None, str]:
    """Role of the citation's words (module docstring) and, when unreadable, the reason."""
    lead = rx.LEAD_IN_BEFORE_RE.search(text, max(0, cit.span.start - LEAD_REACH), cit.span.start)
    if cit.article is None:
        applies = rx.PARTY_RE.search(words) or rx.CONVICTION_RE.search(words)
        if words and not applies and rx.ASSERTION_NUMBER_RE.search(words):
            return "whole_instrument", ""
        named = rx.PARTY_RE.search(rx.READER_RE.sub("", words))
        if (
            words
            and not rx.ASSERTION_NUMBER_RE.search(words)  # numbers: the rule above alone
            and not named
            and not rx.CONVICTION_RE.search(words)
            and rx.WHOLE_RULE_RE.search(words)
            and not rx.WHOLE_ADVICE_RE.search(words)
        ):
            # a rule of the law stated with no number (应当/有权/不得/条件/包括…): resolved to
            # the article that holds it, not passed silently as a reference
            return "whole_instrument", ""
        # 「法律依据是《X法》」, 「根据《劳动法》，公司应当依法承担责任」: the law named as the
        # basis, no specific rule to resolve to an article
        return (
            "reference",
            "the instrument is cited as a whole with no specific rule (no number) to check",
        )
    if in_range:
        return "range", ""
    stop = rx.SENTENCE_END_RE.search(text, group_end)
    tail = text[group_end : stop.start() if stop is not None else len(text)]
    if rx.JUDGMENT_FOLLOWS_RE.match(text, group_end) is not None or rx.JUDGMENT_IN_RE.search(tail):
        return "reference", ""
    if not words:
        if lead is not None:
            return "reference", ""
        return None, "no words attach to this citation (no claim, no description)"
    if quoted:
        return "quotation", ""
    turn = rx.CONSEQUENCE_CONNECTOR_RE.search(words)
    head = words[: turn.start()] if turn is not None and turn.start() >= 4 else words
    if rx.PARTY_RE.search(head):
        return "application", ""
    if rx.CONVICTION_RE.search(head) and not rx.ASSERTION_CONDITION_RE.search(head):
        # 被告人的行为构成盗窃罪 applies the article; 「父母遗弃…的，构成遗弃罪」 states a rule
        return "application", ""
    if rx.ASSERTION_DEFINITION_RE.search(words):
        return "definition", ""
    if rx.ASSERTION_PROCEDURE_RE.search(words):
        return "procedure", ""
    return "paraphrase", ""


def read_one(
    text: str,
    cit: Citation,
    *,
    next_start: int,
    group_end: int,
    in_range: bool = False,
    asides: Sequence[tuple[int, int]] = (),
) -> Assertion:
    """The :class:`Assertion` of one citation.

    Args:
        text: the text the citation's spans index.
        cit: the citation with claim and description attached.
        next_start: start of the next citation group (the scope never reaches it).
        group_end: end of the citation's group (list or range) in ``text``.
        in_range: the citation is a member of a range (第X条至第Y条).
        asides: aside spans of ``text`` (:func:`aside_spans`).

    Returns:
        The assertion (never raises on odd text: unreadable gives ``role=None`` with a reason).
    """
    quoted = bool(cit.quotes) and _strip(cit.description) == _strip(cit.quotes[0])
    words = _strip(cit.description if (quoted or cit.description) else cit.claim)
    spans = [s for s in (cit.description_span, cit.claim_span) if s is not None]
    scope = (
        Span(start=min(s.start for s in spans), end=max(s.end for s in spans)) if spans else None
    )
    linked = False
    listed = (
        introduced_items(text, max(scope.end, cit.span.end), next_start, words)
        if scope is not None and not quoted
        else ()
    )
    if scope is not None and not quoted:
        nxt = _linked_sentence(text, max(scope.end, cit.span.end), next_start)
        if nxt is not None:
            words = words + "。" + _strip(text[nxt[0] : nxt[1]])
            scope = Span(start=scope.start, end=nxt[1])
            linked = True
    role, reason = _role(text, cit, words, quoted, in_range, group_end)
    if role == "reference" and cit.article is not None:
        decision = _decision(text, group_end)
        if decision is not None:
            # the court's decision (every defendant's item) is what the basis list is for
            words = _strip(text[decision[0] : decision[1]])
            # and the charges the court found in the reasoning before it (其行为构成窝藏罪)
            para = text.rfind("\n", 0, cit.span.start) + 1
            found = [m.group(0) for m in rx.CONVICTION_RE.finditer(text, para, cit.span.start)]
            if found:
                words = words + "（" + "；".join(dict.fromkeys(found)) + "）"
            scope = Span(
                start=min(decision[0], scope.start) if scope else decision[0], end=decision[1]
            )
    continued = (
        continued_sentences(text, max(scope.end, cit.span.end), next_start)
        if scope is not None and not quoted and role in ("paraphrase", "quotation")
        else ""
    )
    parts = _parts(words) if words else {}
    skipped = tuple(
        Span(start=s, end=e)
        for s, e in asides
        if scope is not None and scope.start <= s and e <= max(scope.end, cit.span.start)
    )
    if parts:
        parts["numbers"] = _spanned(parts["numbers"], text, scope)
    # built from typed parts (spans validated as made): constructed without re-validation,
    # as the store builds its records (extraction speed, SPEC §9)
    return Assertion.model_construct(
        scope=scope,
        text=words,
        role=role,
        paragraph=cit.paragraph,
        item=cit.item,
        linked=linked,
        skipped=skipped,
        reason=reason,
        items=listed,
        continued=continued,
        **parts,
    )


def read(
    text: str, citations: Sequence[Citation], asides: Sequence[tuple[int, int]] = ()
) -> tuple[Citation, ...]:
    """``citations`` with :attr:`Citation.assertion` set on each PRC provision citation.

    Args:
        text: the text the citations' spans index.
        citations: citations of ``text`` sorted by start (claims and descriptions attached).
        asides: aside spans of ``text`` (:func:`aside_spans`).

    Returns:
        The citations in order; kinds outside :data:`READ_KINDS` and citations in the question
        line are returned unchanged.
    """
    if not citations:
        return tuple(citations)
    ranges = _range_groups(text, citations)
    group_end: dict[str, int] = {}
    for c in citations:
        if c.group is not None:
            group_end[c.group] = max(group_end.get(c.group, 0), c.span.end)
    out: list[Citation] = []
    n = len(citations)
    # members of a list share their words: one reading per group (and 款/项)
    memo: dict[tuple[str, bool, int | None, int | None], Assertion] = {}
    for i, c in enumerate(citations):
        if c.kind not in READ_KINDS or (c.instrument is None and c.article is None):
            out.append(c)
            continue
        key = (c.group, c.article is None, c.paragraph, c.item) if c.group is not None else None
        if key is not None and key in memo:
            out.append(c.model_copy(update={"assertion": memo[key]}))
            continue
        end = group_end.get(c.group, c.span.end) if c.group is not None else c.span.end
        j = i + 1
        while j < n and c.group is not None and citations[j].group == c.group:
            j += 1
        next_start = citations[j].span.start if j < n else len(text)
        a = read_one(
            text,
            c,
            next_start=next_start,
            group_end=end,
            in_range=c.group in ranges,
            asides=asides,
        )
        if key is not None:
            memo[key] = a
        out.append(c.model_copy(update={"assertion": a}))
    return tuple(out)
