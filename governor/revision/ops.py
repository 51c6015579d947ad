"""Offline repair operations: each turns one failing verdict into one explainable :class:`Edit`.

Layer 4. Every edit replaces a half-open span of the text *as it was at the start of the
round*; :func:`apply_edits` applies non-overlapping edits right to left so the text outside
edited spans stays byte-identical (SPEC §5 invariant).

Operations (SPEC §5): remove a citation with its carrier phrase (根据……规定，/ 依据…… /
（……）/ a list element), renumber to the provision the description matches, fix 款/项,
restore the source's number/period/modality, restore an omitted 但书, replace a repealed
authority by its successor provision, re-anchor to a better-supporting provision, and mark a
claim unsupported when nothing supports it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from governor.core.models import Authority, Citation, Edit, EditOp, Span, Verdict, bracketed
from governor.text import recache
from governor.text.numerals import to_chinese

UNSUPPORTED_MARK = "（注：未找到支持该结论的现行有效法律依据，请核实）"
"""Appended to a claim whose only citation was removed because nothing supports it."""
NOT_FOUND_MARK = "（注：原引条文经核查不存在，未找到支持该结论的法律依据，请核实）"
"""Appended instead when the removed citation does not exist (the reader should know the
report cited a provision that is not there, not merely a weak one)."""
NOT_FOUND_CASE_MARK = "（注：原引案例经核查不存在，未找到支持该结论的依据，请核实）"
"""The same for a case (指导案例, 案号) that does not exist."""
MARKS = (UNSUPPORTED_MARK, NOT_FOUND_MARK, NOT_FOUND_CASE_MARK)
_CASE_KINDS = frozenset({"guiding_case", "case_number", "us_case"})

# Carrier phrases around a citation (checked against the text next to its span).
_PREFIX = recache.compile(
    r"(?:(?:另|又|亦|并|同时)?(?:根据|依据|依照|按照|据|依)|参照|参考|参见|详见|另见|可见|见|按|See|see|Cf\.|cf\.)"
    r"(?:我国|中国|现行|新|原)?\s*$"
)
# What belongs to a case citation after its number: a caption （…案） and the document type.
_CASE_TAIL = recache.compile(
    r"(?:\s*[（(][^（）()\n]{2,80}?[案件][）)])?(?:\s*(?:民事|刑事|行政|执行)?(?:判决书|裁定书|决定书|调解书))?"
)
_SEPARATORS = "；;、，,"
_SUFFIX = recache.compile(
    r"\s*(?:的?(?:相关|有关)?(?:规定|规范|要求)(?:的?精神)?|之规定)?\s*(?:[，,：:]\s*)?"
)
_SUBJECT_SUFFIX = recache.compile(
    r"\s*(?:中|里)?(?:也|还|亦|同样|则)?(?:明确)?(?:规定|指出|明确|认为|确立|阐明|表明)(?:了)?\s*[，,：:]?\s*"
)
_LIST_SEP = recache.compile(r"\s*(?:、|，|,|和|及|以及|与)\s*")
_LIST_SEP_BEFORE = recache.compile(r"(?:、|，|,|和|及|以及|与)\s*$")
_PAREN_OPEN = "（("
_PAREN_CLOSE = "）)"
_ARTICLE_PIN = recache.compile(
    r"第\s*[0-9０-９零〇一二两三四五六七八九十百千]+\s*条(?:\s*之\s*[一二三四五六七八九十]+)?"
    r"(?:\s*第\s*[0-9０-９零〇一二两三四五六七八九十百千]+\s*款)?"
    r"(?:\s*第\s*[（(]?\s*[0-9０-９零〇一二两三四五六七八九十百千]+\s*[）)]?\s*项)?"
)


def _line_bounds(text: str, pos: int) -> tuple[int, int]:
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    return start, len(text) if end < 0 else end


def removal_span(text: str, cit: Citation, *, group_members: Sequence[Citation] = ()) -> Span:
    """The span to delete so that ``cit`` disappears with its carrier phrase.

    Rules, first match wins:
    1. a list element (another member of the same group remains): the element and one separator;
    2. a parenthetical ``（《X》第N条）``: the parentheses too;
    3. a 法律依据 list line holding only this citation and its description: the whole line;
    4. ``根据/依据…《X》第N条(的)规定，`` prefix carrier + suffix: both;
    5. ``《X》第N条规定，P`` (subject position): the citation and ``规定，``.
    """
    return _tidy(text, _whole_sentence_if_empty(text, _removal_span(text, cit, group_members)))


_SEPARATOR_CHARS = frozenset(_SEPARATORS)
_OPENING = frozenset("（(")
_CLOSING = frozenset("）)")
_BEFORE_SEPARATOR = _SEPARATOR_CHARS | _OPENING | frozenset("：:\n")
"""One-character classes as sets, never strings: ``"" in "（("`` is True, so a test of the
character before a span at the start of the text (``""``) against a string of characters
matched, and a removal there widened to start -1 (fuzz: 「《評法》（正）第八條）0」)."""


def _tidy(text: str, span: Span) -> Span:
    """Widen a removal so it leaves no doubled separator (「、、」, 「; ;」) or empty brackets.

    The characters next to the span are ``""`` at either end of the text; they are tested
    against character sets (:data:`_OPENING` …), in which ``""`` is never a member.
    """
    s, e = span.start, span.end
    while True:
        before = text[:s].rstrip(" ")
        after_i = e + (len(text[e:]) - len(text[e:].lstrip(" ")))
        nxt = text[after_i : after_i + 1]
        prev = before[-1:]
        if nxt in _SEPARATOR_CHARS and (not prev or prev in _BEFORE_SEPARATOR):
            e = after_i + 1
            continue
        if prev in _OPENING and nxt in _CLOSING:
            s, e = len(before) - 1, after_i + 1
            continue
        return Span(start=s, end=e)


def sentence_bounds(text: str, pos: int) -> tuple[int, int]:
    """Half-open span of the sentence holding ``pos`` (bounded by 。！？!? or a line break; the
    terminator included, a line break not)."""
    start = max(text.rfind(c, 0, pos) for c in "。！？!?\n") + 1
    ends = [i for i in (text.find(c, pos) for c in "。！？!?\n") if i >= 0]
    end = min(ends) + 1 if ends else len(text)
    if end <= len(text) and text[end - 1 : end] == "\n":
        end -= 1
    return start, end


def _whole_sentence_if_empty(text: str, span: Span) -> Span:
    """If deleting ``span`` leaves its sentence with no content, delete the whole sentence."""
    ss, se = sentence_bounds(text, span.start)
    if ss <= span.start and span.end <= se:
        rest = text[ss : span.start] + text[span.end : se]
        if not re.sub(r"[\W_]", "", rest):
            return Span(start=ss, end=se)
    return span


_HEADING_TAG = recache.compile(r"\s*【[^】\n]{1,20}】")
"""A 【罪名】 / 【条文主旨】 tag written right after a citation: part of it."""


def _removal_span(text: str, cit: Citation, group_members: Sequence[Citation]) -> Span:
    s, e = cit.span.start, cit.span.end
    tag = _HEADING_TAG.match(text, e)
    e = tag.end() if tag else e
    if cit.kind in ("guiding_case", "case_number"):
        case_tail = _CASE_TAIL.match(text, e)
        e = case_tail.end() if case_tail else e
    others = [m for m in group_members if m.id != cit.id]
    if others:
        after = _LIST_SEP.match(text, e)
        later = [o for o in others if after and o.span.start >= after.end()]
        if after and after.end() < len(text) and later:
            # 「《民法典》第一千三百条、第五百七十七条」: the next member borrows this one's
            # title, so only the pin cite goes (「《民法典》第五百七十七条」)
            nxt = min(later, key=lambda o: o.span.start)
            pin = _ARTICLE_PIN.search(cit.raw)
            borrows = _ARTICLE_PIN.match(text, nxt.span.start) is not None
            start = s + pin.start() if pin and pin.start() > 0 and borrows else s
            return Span(start=start, end=after.end())
        before = _LIST_SEP_BEFORE.search(text[:s])
        if before and any(o.span.end <= before.start() for o in others):
            return Span(start=before.start(), end=e)
    if s > 0 and e < len(text) and text[s - 1] in _PAREN_OPEN and text[e] in _PAREN_CLOSE:
        return Span(start=s - 1, end=e + 1)
    ls, le = _line_bounds(text, s)
    line = text[ls:le]
    head = text[ls:s]
    listed = re.fullmatch(
        r"\s*(?:(?:[-*•]|\d+[.、．)]|[（(]?[一二三四五六七八九十]+[）)、.])\s*(?:法律依据[：:])?"
        r"|(?:法律依据[：:]))\s*",
        head,
    )
    if listed or (not head.strip() and _in_basis_section(text, ls)):
        # a 法律依据 entry (a list item, or a line of that section): the line is the citation
        desc_end = cit.description_span.end if cit.description_span else e
        tail = text[max(e, desc_end) : le]
        if re.fullmatch(r"[\s。；;，,.]*", tail) and line.strip():
            end = le + 1 if le < len(text) else le
            return Span(start=ls, end=end)
    pre = _PREFIX.search(text[max(0, s - 8) : s])
    if pre:
        start = s - (len(text[max(0, s - 8) : s]) - pre.start())
        suf = _SUFFIX.match(text, e)
        return Span(start=start, end=suf.end() if suf else e)
    sub = _SUBJECT_SUFFIX.match(text, e)
    clause_from = _clause_start(text, s)
    head = _LIST_HEAD.sub("", text[clause_from:s])
    if sub and sub.end() > e and len(_content(head)) <= LEFTOVER_CHARS:
        # subject position only (「（2）指导案例999号认为，P」); 「法院在…中认为」 keeps its verb
        ss, se = sentence_bounds(text, s)
        rest = re.sub(r"[\W_]", "", text[sub.end() : se])
        meta = not re.search(r"[，,：:]", sub.group(0))  # 「规定了X」, not 「规定，P」
        if meta and text[ss:s].strip() == "" and len(rest) < SUBJECT_ONLY_CHARS:
            # 「《X》第N条规定了一切。」: the sentence speaks only about the citation; drop it whole.
            return Span(start=ss, end=se)
        return Span(start=s, end=sub.end())
    return _meta_clause(text, s, e) or Span(start=s, end=e)


_CLAUSE_END = recache.compile(r"[，,；;。！？!?\n]")
_META = recache.compile(
    r"规定|要求|所示|指出|明确|体现|可见|为例|参见|载明|确立|阐明|印证|佐证|为证"
)
META_CLAUSE_CHARS = 8
"""A clause whose content without the citation is at most this many characters and speaks
only about it (「这是…的明确要求」, 「…亦有规定」, 「正如…所示」) goes with the citation."""
_LIST_HEAD = recache.compile(
    r"^\s*(?:[-*•>]|\d+[.、．)]|[（(][0-9一二三四五六七八九十]+[）)]|[一二三四五六七八九十]+、)\s*"
)
_CONNECTIVES = recache.compile(r"(?:以及|及|和|与|并|另|另见|同时|此外|还有|还|也|亦|参照|参考)*")
LEFTOVER_CHARS = 4
"""A sentence left with at most this many content characters (「对此」, 「此外」) goes whole."""


def _clause_start(text: str, pos: int) -> int:
    """Start of the clause holding ``pos`` (after the last ，；。… before it)."""
    return max((m.end() for m in _CLAUSE_END.finditer(text, 0, pos)), default=0)


def _content(s: str) -> str:
    return re.sub(r"[\W_]", "", s)


def _meta_clause(text: str, s: int, e: int) -> Span | None:
    """The clause around ``text[s:e]`` (and its separator) when it only speaks about the
    citation; the whole sentence when what would remain of it is a bare connective."""
    cs = _clause_start(text, s)
    m = _CLAUSE_END.search(text, e)
    ce = m.start() if m else len(text)
    rest = text[cs:s] + text[e:ce]
    bare = _CONNECTIVES.fullmatch(_content(rest)) is not None  # 「，以及《X》第N条。」
    if not bare and (len(_content(rest)) > META_CLAUSE_CHARS or not _META.search(rest)):
        return None
    ss, se = sentence_bounds(text, s)
    if cs > ss and text[cs - 1] in "，,；;":
        span = Span(start=cs - 1, end=ce)  # 「P，这是…的要求。」 → 「P。」
    elif ce < len(text) and text[ce] in "，,；;":
        span = Span(start=cs, end=ce + 1)  # 「正如…所示，P。」 → 「P。」
    else:
        span = Span(start=cs, end=ce)
    left = text[ss : span.start] + text[span.end : se]
    if len(_content(left)) <= LEFTOVER_CHARS:
        return Span(start=ss, end=se)
    return span


_NOUN_BEFORE = "是在为与和及同对按据照依从由经将把被"
_NOUN_AFTER = "的中亦也等之所都均还"
_FILLER = {"guiding_case": "相关指导案例", "case_number": "相关案件", "us_case": "相关判例"}


def filler(text: str, cit: Citation, span: Span) -> str:
    """A neutral noun to leave where a removed citation filled a noun slot of the sentence
    (「在指导案例999号中认为」 → 「在相关指导案例中认为」); ``""`` when the sentence reads
    without it. Only for a bare citation span (no carrier phrase was removed with it)."""
    if span.start != cit.span.start or span.end < cit.span.end:
        return ""
    before = text[span.start - 1 : span.start]
    after = text[span.end : span.end + 1]
    if (before and before in _NOUN_BEFORE) or (after and after in _NOUN_AFTER):
        if cit.kind not in _FILLER and after == "的" and "规定" in text[span.end : span.end + 10]:
            return "法律法规"  # 「违反了…的强制性规定」 → 「违反了法律法规的强制性规定」
        return _FILLER.get(cit.kind, "有关规定")
    return ""


_BASIS_HEADING = recache.compile(
    r"^\s*(?:#+\s*)?(?:[一二三四五六七八九十]+[、.．]\s*)?(?:法律依据|相关法条|法条依据|参考法条|相关法律规定)\s*[：:]?\s*$"
)


def _in_basis_section(text: str, line_start: int) -> bool:
    """Whether the line at ``line_start`` follows a 法律依据 heading with no blank line between
    (a plain body line is an argument: its claim must survive a removal)."""
    prev_end = line_start - 1
    while prev_end > 0:
        prev_start = text.rfind("\n", 0, prev_end) + 1
        line = text[prev_start:prev_end]
        if not line.strip():
            return False
        if _BASIS_HEADING.match(line):
            return True
        prev_end = prev_start - 1
    return False


SUBJECT_ONLY_CHARS = 8
"""A sentence whose citation is its subject and whose rest is shorter than this (content
characters) says nothing without the citation: removing the citation removes the sentence."""


def _pin_style_chinese(raw: str) -> bool:
    m = _ARTICLE_PIN.search(raw)
    return m is None or not re.search(r"[0-9０-９]", m.group(0))


def _pin_for(auth: Authority, chinese: bool) -> str:
    base, _, sfx = (auth.article or "").partition("之")
    num = to_chinese(int(base)) if chinese else base
    out = f"第{num}条" + (f"之{sfx}" if sfx else "")
    if auth.paragraph:
        out += f"第{to_chinese(auth.paragraph) if chinese else auth.paragraph}款"
    if auth.item:
        out += f"第（{to_chinese(auth.item)}）项" if chinese else f"第{auth.item}项"
    return out


def retarget(cit: Citation, target: Authority) -> str:
    """New citation text pointing at ``target``, keeping the report's style.

    Same instrument: only the pin cite changes (第N条 → 第M条, numerals as written). Another
    instrument (successor): 《full title》 + pin cite.
    """
    raw = cit.raw
    chinese = _pin_style_chinese(raw)
    pin = _pin_for(target, chinese)
    same = cit.instrument == target.instrument
    m = _ARTICLE_PIN.search(raw)
    if same and m:
        head = raw[: m.start()]
        if cit.version_hint and not _same_version(cit.version_hint, target.version):
            # 「《公司法》（2023年修订）第八十四条」 moved to the 2018 text's 第七十一条: the
            # version note would name the wrong text; the report's date selects the version
            head = _VERSION_PAREN.sub("", head)
        return head + pin + raw[m.end() :]
    return bracketed(target.instrument) + pin


_VERSION_PAREN = recache.compile(
    r"\s*[（(]\s*(?:[0-9０-９]{4}|[〇○零一二三四五六七八九]{4})[^（）()\n]{0,16}[)）]"
)


def _same_version(hint: str, version: str | None) -> bool:
    """Whether a version note (「2023年修订」) names the version ``version`` (ISO date)."""
    digits = re.match(
        r"[0-9]{4}", hint.translate(str.maketrans("０１２３４５６７８９", "0123456789"))
    )
    return bool(digits and version and version.startswith(digits.group(0)))


def edit(op: EditOp, text: str, span: Span, after: str, reason: str, v: Verdict) -> Edit:
    """Build an :class:`Edit` over ``text[span]`` caused by verdict ``v``."""
    return Edit(
        op=op,
        span=span,
        before=span.slice(text),
        after=after,
        reason=reason,
        citation_id=v.citation.id,
        labels=(v.existence.label, v.fidelity.label, v.applicability.label),
    )


SENTENCE_STOP = recache.compile(r"[。！？!?\n]")
"""A sentence terminator (or line break)."""
_TABLE_STOP = recache.compile(r"[。！？!?\n|]")


def remove(text: str, v: Verdict, group: Sequence[Citation], *, mark: bool, reason: str) -> Edit:
    """Remove the citation of ``v`` with its carrier; optionally mark the claim unsupported.

    The mark goes after the claim's sentence (before its final 。) when the claim survives.
    """
    span = removal_span(text, v.citation, group_members=group)
    whole_line = (span.start == 0 or text[span.start - 1] == "\n") and (
        span.end == len(text) or text[span.end - 1] == "\n"
    )
    whole_sentence = text[span.end - 1 : span.end] in ("。", "！", "？", "!", "?")
    listed = any(m.id != v.citation.id for m in group)
    noun = "" if listed else filler(text, v.citation, span)
    if not mark or whole_line or whole_sentence or listed:
        # A 法律依据 line or a sentence that was only the citation carries no claim of its own,
        # and a list member's claim keeps the other members' support: nothing to mark.
        return edit("remove_citation", text, span, noun, reason, v)
    # Place the mark at the end of the sentence that held the citation.
    end = span.end
    ls, _ = _line_bounds(text, span.start)
    in_table = text[ls:].lstrip().startswith("|")  # a Markdown table row: the cell ends at |
    m = (_TABLE_STOP if in_table else SENTENCE_STOP).search(text, end)
    stop = m.start() if m else len(text)
    if any(mk in text[span.start : stop + 1] for mk in MARKS):
        # Already marked (another citation of the sentence, an earlier run): mark once.
        return edit("remove_citation", text, span, noun, reason, v)
    seg = text[span.end : stop]
    body = seg.rstrip()
    mark_text = (
        UNSUPPORTED_MARK
        if v.existence.label != "not_found"
        else NOT_FOUND_CASE_MARK
        if v.citation.kind in _CASE_KINDS
        else NOT_FOUND_MARK
    )
    after = noun + body + mark_text + seg[len(body) :]
    return edit("mark_unsupported", text, Span(start=span.start, end=stop), after, reason, v)


def apply_edits(text: str, edits: Sequence[Edit]) -> tuple[str, tuple[Edit, ...]]:
    """Apply non-overlapping edits (earlier-listed win on overlap); returns text and applied.

    Raises:
        ValueError: an edit's ``before`` does not match the text at its span (stale edit).
    """
    chosen: list[Edit] = []
    for ed in edits:
        if ed.span.slice(text) != ed.before:
            raise ValueError(f"stale edit {ed.op} at {ed.span}: text changed under it")
        if any(
            ed.span.overlaps(c.span)
            or (len(ed.span) == 0 and c.span.start <= ed.span.start < c.span.end)
            or (ed.span.start == c.span.start and (len(ed.span) == 0 or len(c.span) == 0))
            for c in chosen
        ):
            continue
        chosen.append(ed)
    out = text
    for ed in sorted(chosen, key=lambda x: x.span.start, reverse=True):
        out = out[: ed.span.start] + ed.after + out[ed.span.end :]
    return out, tuple(sorted(chosen, key=lambda x: x.span.start))
