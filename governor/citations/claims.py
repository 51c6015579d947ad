"""Claims and descriptions of citations (layer 1; SPEC §2).

For each citation group (a list or range shares one description and one claim) this module
finds, in the text exactly as given:

* **description** — what the report says the authority says, with its span:

  1. a quotation right after the citation (optionally after 规定：/规定，): the quoted text
     (“…”, 「…」, 『…』, "…", ‘…’);
  2. after a carrier verb (规定/明确规定/指出/明确/载明…, optionally 了, then ，/：): the text up
     to the sentence end (。！？ or a line break), or up to the clause before the next citation
     when another citation follows in the same sentence;
  3. after a lead-in (根据/依据/依照/按照《X》第N条，…): the text after the comma, as in 2
     (not a judgment's 「…之规定，判决如下：」: the ruling follows, not the provision);
  4. a 法律依据 list item — the citation opens its line (after a list mark, a heading such as
     法律依据：, markdown bold ``**…**``) and is followed by ``：``, a space or directly by the
     provision text (``第二百零九条不动产物权的设立…``): the rest of the line up to the next
     citation, with the provision's own 项 lines (``（一）…``) when the line ends in ``：``;
     the next line when the citation is alone on its line and that line is running text;
     a citation opening a sentence mid-line and followed by a space
     (``答：可以。《社会保险法》第五十八条 用人单位…``): the text up to the sentence end;
  5. otherwise empty (the report states nothing about the content: fidelity not assessed).

  ``quotes`` are the quoted spans inside the description. An omission mark (……, …, ...) at
  either end of a description is left out, with the punctuation next to it: what was left out
  is not words the report added.

* **claim** — the local proposition the citation is attached to, citation text removed:

  1. parenthetical ``P（《X》第N条）。`` → P (the sentence before the bracket);
  2. lead-in ``根据《X》第N条规定，P。`` → P; when nothing follows the citation
     (``P，根据《X》第N条。``) → the part of the sentence before the lead-in;
  3. subject form ``《X》第N条规定，P。`` → P;
  4. inside a 法律依据 section (after a 法律依据：/相关法条： heading, up to the next
     回答：/答案： marker), when forms 2-3 apply or there is no proposition at all, the claim
     is the answer's **main conclusion**: the first sentence after 回答：/答案：/结论：, else
     the first sentence opened by 综上/因此/所以/总之 outside the 法律依据 section, else empty;
  5. otherwise the whole sentence with the citation (and its carrier words) cut out;
     ``claim_span`` then covers the sentence, citation included; when what is left only names
     the basis (「具体的法律依据为」, :data:`_BASIS_ONLY_RE`), the sentence before it in the same
     paragraph, the proposition the basis is given for.

The rules are deterministic and offset-preserving; they were written against LawBench 3-2
and 3-8 answers (../shared/data/lawbench_dev).
"""

from __future__ import annotations

import bisect
import re
from typing import TYPE_CHECKING

from governor.text import recache
from governor.text import regexes as rx

if TYPE_CHECKING:
    from governor.citations.cn import Hit

_STRIP = " \t\r\n\u3000\xa0" + rx.ZERO_WIDTH
_STRIP_PUNCT = _STRIP + "。；;，,：:、"
_CJK_OR_OPEN_RE = recache.compile(rf"[{rx.CJK}（(0-9０-９A-Za-z]")
_PAREN_SKIP_BEFORE_RE = recache.compile(
    rf"(?:参见|详见|见|依据|根据|依照|按照)?{rx.GAP}$", re.VERBOSE
)
_PAREN_SKIP_AFTER_RE = recache.compile(rf"{rx.GAP}(?:等|之规定|的规定|规定)?{rx.GAP}", re.VERBOSE)
_CAPTION_RE = recache.compile(
    r"[ \t]*[“\"「『《（(][^”\"」』》（）()\n]{2,80}?(?:案|纠纷|一案)[”\"」』》）)]"
)
_LIST_MARK = r"(?:[0-9０-９]{1,2}(?:[.．](?![0-9０-９])|[、)）])|[（(][0-9一二三四五六七八九十]{1,3}[)）]|[-*+•·])"
_MARKER_RE = recache.compile(rf"[ \t\u3000]*(?:[#>]+[ \t]*{_LIST_MARK}?|{_LIST_MARK})[ \t\u3000]*")
_LINE_HEAD_RE = recache.compile(
    r"^[ \t\u3000]*(?:[#*>]+[ \t]*)?"
    r"(?:[0-9０-９]{1,2}[.．、)）]|[（(][0-9一二三四五六七八九十]{1,3}[)）]|[-*•·])?[ \t\u3000]*"
    r"(?:(?:法律依[据據]|法条依据|相关法条|相关法律规定|相关规定|参考法条|法律条文|对应的法律依据|具体法律依据)"
    r"(?:\*\*)?[为是]?[ \t]*[：:][ \t]*(?:\*\*)?[ \t]*)?(?:\*\*)?$"
)
_ELLIPSIS = "…⋯."
_ELLIPSIS_EDGE = _ELLIPSIS + "，,：:；;、 \t\u3000"


class _Context:
    """Precomputed boundaries of one text (sentence ends, 法律依据 sections, conclusion)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.n = len(text)
        self.ends = [m.start() for m in rx.SENTENCE_END_RE.finditer(text)]
        self.regions: list[tuple[int, int]] = []
        heads = list(rx.LEGAL_BASIS_RE.finditer(text))
        # every CONCLUSION_RE match holds 答 or 结论: most texts are spared its scan
        conclusions = (
            [m.start() for m in rx.CONCLUSION_RE.finditer(text)]
            if heads and ("答" in text or "结论" in text)
            else []
        )
        for m in heads:
            start = m.end()
            k = bisect.bisect_right(conclusions, start)
            end = conclusions[k] if k < len(conclusions) else self.n
            self.regions.append((start, end))
        self._conclusion: tuple[str, tuple[int, int] | None] | None = None

    def sentence(self, start: int, end: int) -> tuple[int, int]:
        """Span of the sentence holding ``[start, end)`` (bounded by 。！？!? or a line break)."""
        i = bisect.bisect_left(self.ends, start)
        s = self.ends[i - 1] + 1 if i > 0 else 0
        j = bisect.bisect_left(self.ends, end)
        e = self.ends[j] if j < len(self.ends) else self.n
        return s, e

    def line_end(self, pos: int) -> int:
        k = self.text.find("\n", pos)
        return self.n if k < 0 else k

    def line_start(self, pos: int) -> int:
        return self.text.rfind("\n", 0, pos) + 1

    def in_legal_basis(self, pos: int) -> bool:
        """True inside a 法律依据 section (regions are sorted by start, ends non-decreasing)."""
        i = bisect.bisect_right(self.regions, (pos, self.n + 1)) - 1
        return i >= 0 and pos < self.regions[i][1]

    def conclusion(self) -> tuple[str, tuple[int, int] | None]:
        """The answer's main conclusion sentence and its span (see module doc, claim rule 4)."""
        if self._conclusion is None:
            self._conclusion = self._find_conclusion()
        return self._conclusion

    def _find_conclusion(self) -> tuple[str, tuple[int, int] | None]:
        text = self.text
        m = rx.CONCLUSION_RE.search(text)
        starts: list[int] = []
        if m is not None:
            starts.append(m.end())
        else:
            for f in rx.CONCLUSION_FALLBACK_RE.finditer(text):
                if not self.in_legal_basis(f.end()):
                    starts.append(f.end())
                    break
        for pos in starts:
            while pos < self.n and text[pos] in _STRIP:
                pos += 1
            s, e = pos, self.sentence(pos, pos)[1]
            span = _strip_span(text, s, e, _STRIP_PUNCT)
            if span[1] > span[0]:
                return text[span[0] : span[1]], span
        return "", None


def _strip_span(text: str, s: int, e: int, chars: str = _STRIP) -> tuple[int, int]:
    while s < e and text[s] in chars:
        s += 1
    while e > s and text[e - 1] in chars:
        e -= 1
    return s, e


def _groups(hits: list[Hit]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    i = 0
    while i < len(hits):
        j = i + 1
        g = hits[i].group
        if g is not None:
            while j < len(hits) and hits[j].group == g:
                j += 1
        out.append((i, j))
        i = j
    return out


def attach(text: str, hits: list[Hit]) -> None:
    """Set ``claim``/``claim_span``/``description``/``description_span``/``quotes`` on hits.

    Args:
        text: the report, exactly as given.
        hits: citation hits sorted by start, non-overlapping (mutated in place).
    """
    if not hits:
        return
    ctx = _Context(text)
    groups = _groups(hits)
    for gi, (i0, i1) in enumerate(groups):
        g_start, g_end = hits[i0].start, hits[i1 - 1].end
        if hits[i1 - 1].kind in ("guiding_case", "case_number"):
            # 指导案例24号“荣宝英诉王阳…纠纷案”: the quoted caption names the case; what the
            # report says about it comes after
            caption = _CAPTION_RE.match(text, g_end)
            g_end = caption.end() if caption is not None else g_end
        next_start = hits[groups[gi + 1][0]].start if gi + 1 < len(groups) else len(text)
        lead_at = _lead_in_start(ctx, g_start)
        desc_span, quoted, list_item = _description(
            ctx, g_start, g_end, next_start, lead_at is not None
        )
        desc = text[desc_span[0] : desc_span[1]] if desc_span else ""
        quotes: tuple[str, ...] = ()
        if desc_span is not None:
            if quoted:
                quotes = (desc,)
            else:
                quotes = tuple(
                    next(g for g in q.groups() if g is not None)
                    for q in rx.QUOTE_RE.finditer(text, desc_span[0], desc_span[1])
                )
        prev_end = hits[groups[gi - 1][1] - 1].end if gi > 0 else 0
        claim_span, claim_text = _claim(
            ctx, g_start, g_end, desc_span, quoted, list_item, lead_at, prev_end=prev_end
        )
        for h in hits[i0:i1]:
            h.description = desc
            h.description_span = desc_span
            h.quotes = quotes
            h.claim = claim_text
            h.claim_span = claim_span


def _description(
    ctx: _Context, g_start: int, g_end: int, next_start: int, lead: bool
) -> tuple[tuple[int, int] | None, bool, bool]:
    """Description span of a group, whether it is a quotation, and whether the group is a
    法律依据-style list item (citation opening its line); ``lead``: a lead-in (根据…) stands
    right before the group (:func:`_lead_in_start`)."""
    text = ctx.text
    head = text[ctx.line_start(g_start) : g_start]
    list_item = _LINE_HEAD_RE.match(head) is not None or _LEAD_ONLY_RE.match(head) is not None
    if text.startswith(("**", "__"), g_end) and (list_item or "**" in head):
        g_end += 2  # **《X》第N条** <text>: the markup is layout
    m = rx.CARRIER_AFTER_RE.match(text, g_end)
    d = m.end() if m else g_end
    verb = m["verb"] if m else None
    punct = m["punct"] if m else None
    if d >= len(text) or d >= next_start:
        return None, False, list_item
    if text[d] in "判裁决处" and rx.RULING_RE.match(text, d):
        return None, False, list_item  # 依照…之规定，判决如下：the ruling, not the provision
    ch = text[d]
    if ch in rx.QUOTE_OPEN_CLOSE:
        close = text.find(rx.QUOTE_OPEN_CLOSE[ch], d + 1, min(len(text), d + 3000))
        if close > d + 1:
            return _trim_ellipsis(text, d + 1, close), True, list_item
    if verb is not None:
        if punct is None and ch == "的":  # 规定的义务: the citation modifies a noun
            return None, False, list_item
        # 违反了《X》第N条的规定，P: P is a consequence, not the provision's content
        ok = lead or list_item or m is None or m["of"] is None or verb != "规定"
        if lead and punct is None and "规定" in verb:  # 依照X规定处理: a verb phrase
            ok = False
    elif punct in ("：", ":"):
        ok = True
    elif punct is not None:
        ok = lead or list_item
    else:
        gap = text[g_end:d]
        spaced = gap != "" and gap.strip(" \t\u3000") == ""
        if list_item and gap.strip(" \t\u3000\n") == "" and gap.count("\n") == 1:
            # **《X》第N条**⏎ <text>: the citation is its line, the provision the next one (a
            # line of running text: not 「2. …」, not a label 「具体法条内容：…」)
            spaced = rx.PROVISION_LINE_RE.match(text, d) is not None
        # 答：可以。《X法》第N条 <text>: a sentence-opening citation, a space, the provision
        opener = spaced and rx.SENTENCE_OPEN_RE.search(head) is not None
        ok = (list_item or opener) and (gap == "" or spaced) and bool(_CJK_OR_OPEN_RE.match(ch))
        if ok and opener and not list_item:
            end = min(ctx.sentence(d, d)[1], next_start)
            return _trim_ellipsis(text, *_strip_span(text, d, end, _STRIP_PUNCT)), False, False
    if not ok:
        return None, False, list_item
    recitation = verb is None and (punct in ("：", ":") or (list_item and punct is None))
    if recitation:
        end = min(_items_end(ctx, ctx.line_end(d)), next_start)
    else:
        sentence_end = ctx.sentence(d, d)[1]
        end = min(sentence_end, next_start)
        if next_start < sentence_end:
            # another citation later in this sentence: stop at the clause before it
            cut = None
            for b in rx.CLAUSE_BOUNDARY_RE.finditer(text, d, next_start):
                cut = b.start()
            if cut is not None:
                end = cut
    span = _trim_ellipsis(text, *_strip_span(text, d, end, _STRIP_PUNCT))
    if span[1] <= span[0]:
        return None, False, list_item
    return span, False, list_item


def _items_end(ctx: _Context, end: int) -> int:
    """End of a recitation line ``…的，劳动者可以解除劳动合同：`` extended over the 项 lines
    that follow it (``（一）…；`` one per line): the provision's own list, recited as written."""
    text = ctx.text
    if end >= ctx.n or not text[:end].rstrip(" \t\u3000").endswith(("：", ":")):
        return end
    while end < ctx.n:
        nxt = rx.ITEM_LINE_RE.match(text, end + 1)
        if nxt is None:
            break
        end = ctx.line_end(nxt.end())
    return end


def _trim_ellipsis(text: str, s: int, e: int) -> tuple[int, int]:
    """``[s, e)`` without an omission mark at either end (「……应当准予离婚：……」 → 应当准予离婚):
    the words left out are not words the report added. Kept when nothing else is left."""
    if e <= s or (text[s] not in _ELLIPSIS and text[e - 1] not in _ELLIPSIS):
        return s, e
    a, b = s, e
    if text[a] in _ELLIPSIS and text[a:].startswith(("…", "⋯", "...")):
        while a < b and text[a] in _ELLIPSIS_EDGE:
            a += 1
    if text[b - 1] in _ELLIPSIS and text[:b].endswith(("…", "⋯", "...")):
        while b > a and text[b - 1] in _ELLIPSIS_EDGE:
            b -= 1
    return (a, b) if b > a else (s, e)


_DOUBLE_PUNCT_RE = recache.compile(r"[，,；;：:、]{2,}")
_LEAD_ONLY_RE = recache.compile(
    r"^[ \t\u3000]*(?:[0-9０-９]{1,2}[.．、)）][ \t]*)?(?:根据|依据|依照|按照)(?:我国|中国)?[ \t]*$"
)


def _lead_in_start(ctx: _Context, g_start: int) -> int | None:
    lo = max(0, g_start - 12)
    m = rx.LEAD_IN_BEFORE_RE.search(ctx.text, lo, g_start)
    return m.start() if m else None


def _claim(
    ctx: _Context,
    g_start: int,
    g_end: int,
    desc_span: tuple[int, int] | None,
    quoted: bool,
    list_item: bool,
    lead_at: int | None,
    *,
    prev_end: int = 0,
) -> tuple[tuple[int, int] | None, str]:
    text = ctx.text
    s_start, s_end = ctx.sentence(g_start, g_end)
    if s_start == ctx.line_start(s_start):
        # a list or quote marker (「1. 」「- 」「> 」「（一）」) is layout, not part of the claim
        marker = _MARKER_RE.match(text, s_start)
        if marker is not None and marker.end() <= g_start:
            s_start = marker.end()
    # 1. parenthetical: P（《X》第N条）
    before = _PAREN_SKIP_BEFORE_RE.search(text, s_start, g_start)
    open_at = (before.start() if before else g_start) - 1
    if open_at >= s_start and text[open_at] in "（(":
        after = _PAREN_SKIP_AFTER_RE.match(text, g_end)
        close_at = after.end() if after else g_end
        if close_at < len(text) and text[close_at] in "）)":
            # 「P（《X》第N条），Q（《Y》第M条）」: Q alone is the claim of Y
            lo = s_start
            if s_start <= prev_end <= open_at:
                shut = re.compile(r"[）)]").search(text, prev_end, open_at)
                lo = shut.end() if shut is not None else lo
            span = _strip_span(text, lo, open_at, _STRIP_PUNCT)
            if span[1] <= span[0]:
                span = _strip_span(text, close_at + 1, s_end, _STRIP_PUNCT)
            if span[1] > span[0]:
                return span, text[span[0] : span[1]]
    head = text[max(s_start, ctx.line_start(g_start)) : lead_at if lead_at is not None else g_start]
    subject = _LINE_HEAD_RE.match(head) is not None or head.strip(_STRIP_PUNCT) == ""
    in_basis = ctx.in_legal_basis(g_start)
    # 2./3. lead-in or subject form: the claim is P
    if lead_at is not None or subject:
        if in_basis and (subject or list_item):
            return _main_conclusion(ctx)
        if desc_span is not None and not quoted:
            return desc_span, text[desc_span[0] : desc_span[1]]
        if desc_span is not None:  # quoted: the claim follows the closing quote
            tail_from = desc_span[1]
            while tail_from < len(text) and text[tail_from] in _ELLIPSIS_EDGE:
                tail_from += 1  # an omission mark trimmed off the quotation (「…：……」)
            tail_from += 1
            s_end = ctx.sentence(tail_from, tail_from)[1]
        else:
            tail_from = g_end
        m = rx.CARRIER_AFTER_RE.match(text, tail_from)
        span = _strip_span(text, m.end() if m else tail_from, s_end, _STRIP_PUNCT)
        if span[1] > span[0]:
            return span, text[span[0] : span[1]]
        if lead_at is not None:
            span = _strip_span(text, s_start, lead_at, _STRIP_PUNCT)
            if span[1] > span[0]:
                return span, text[span[0] : span[1]]
        if in_basis:
            return _main_conclusion(ctx)
        return None, ""
    if in_basis and list_item:
        return _main_conclusion(ctx)
    # 5. the sentence with the citation cut out
    pre_end = lead_at if lead_at is not None else g_start
    m = rx.CARRIER_AFTER_RE.match(text, g_end)
    post_start = (m.start("punct") if m["punct"] else m.end()) if m else g_end
    if m is not None and m["verb"] is not None and m["punct"] is None:
        post_start = g_end  # 违反了《X》第N条规定的义务: keep 规定的义务
        m2 = re.compile(r"(?:的|之)?规定").match(text, g_end)
        if m2 is not None and text[m2.end() : m2.end() + 1] in ("", "，", ",", "。", "；"):
            post_start = m2.end()
    pre = text[s_start:pre_end].strip(_STRIP)
    post = text[post_start:s_end].strip(_STRIP)
    claim = (pre + post).strip(_STRIP_PUNCT)
    claim = _DOUBLE_PUNCT_RE.sub(lambda q: q.group()[-1], claim)
    span = _strip_span(text, s_start, s_end, _STRIP_PUNCT)
    if not claim:
        return None, ""
    if _BASIS_ONLY_RE.match(claim):
        # 「P。具体的法律依据为《X》第N条、第M条规定。」: the sentence names the basis of P
        return _previous_sentence(ctx, s_start)
    return span, claim


_BASIS_ONLY_RE = recache.compile(
    r"^(?:具体|相关|主要|有关|本案|上述)?的?(?:法律|法条|法规)?(?:依据|根据|条文依据)"
    r"(?:主要|可以|可)?(?:为|是|有|如下|包括|参见|参考)?$"
)
"""A sentence that, with its citations cut out, only says they are the basis
(「具体的法律依据为」, 「法律依据是」, 「相关依据有」): it asserts nothing itself; the proposition
it grounds is the sentence before it (claim rule 5, dev LawBench 3-8 qwen-7b 308: 「可以与公司
协商解除劳动合同…。具体的法律依据为《劳动合同法》第三十六条、第四十六条规定。」 was judged on
「具体的法律依据为」 and both articles called unrelated)."""


_ANSWER_MARK_RE = recache.compile(r"[ \t\u3000]*(?:回答|答案|答|结论)[：:][ \t\u3000]*")


def _previous_sentence(ctx: _Context, s_start: int) -> tuple[tuple[int, int] | None, str]:
    """The sentence right before ``s_start`` in the same paragraph (not across a blank
    line), stripped; ``(None, "")`` when there is none."""
    text = ctx.text
    pos = s_start - 1
    while pos >= 0 and text[pos] in _STRIP_PUNCT + "。！？!?":
        if text[pos] == "\n" and pos > 0 and text[pos - 1] == "\n":
            return None, ""  # a blank line: another paragraph
        pos -= 1
    if pos < 0:
        return None, ""
    s, e = ctx.sentence(pos, pos)
    marker = _ANSWER_MARK_RE.match(text, s)
    span = _strip_span(text, marker.end() if marker else s, e, _STRIP_PUNCT)
    if span[1] <= span[0]:
        return None, ""
    return span, text[span[0] : span[1]]


def _main_conclusion(ctx: _Context) -> tuple[tuple[int, int] | None, str]:
    text, span = ctx.conclusion()
    return span, text
