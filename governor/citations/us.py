"""US citations through eyecite (layer 1): reporter and statute citations, Id./supra resolved.

eyecite (freelawproject/eyecite, STYLE 9) does the finding and resolving; this module only
maps its objects to :class:`governor.citations.cn.Hit` s. eyecite is imported lazily and only
run when the text contains reporter- or statute-shaped ASCII (:data:`regexes.US_HINT_RE`):
building its tokenizer and scanning are far slower than the Chinese grammar.
"""

from __future__ import annotations

import re
from typing import Any

from governor.citations.cn import Hit
from governor.core.extras import available
from governor.core.models import USParts
from governor.text import regexes as rx

_EN_SENTENCE_END_RE = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\"“])|\n")


def _parts(cite: Any) -> USParts:
    groups = dict(cite.groups or {})
    meta = cite.metadata
    plaintiff = getattr(meta, "plaintiff", None)
    defendant = getattr(meta, "defendant", None)
    case_name = getattr(meta, "resolved_case_name", None)
    if not case_name and plaintiff and defendant:
        case_name = f"{plaintiff} v. {defendant}"
    return USParts(
        volume=groups.get("volume"),
        reporter=groups.get("reporter"),
        page=groups.get("page"),
        pin_cite=getattr(meta, "pin_cite", None),
        year=getattr(meta, "year", None),
        court=getattr(meta, "court", None),
        case_name=case_name,
        plaintiff=plaintiff,
        defendant=defendant,
        title=groups.get("title") or groups.get("chapter"),
        section=groups.get("section"),
    )


def _case_span(text: str, cite: Any) -> tuple[int, int]:
    """Span of a full case citation: from the case name (when found just before the
    reporter cite) through the pin cite and year parenthetical."""
    start, end = cite.span()
    try:
        f_end = cite.full_span()[1]
    except Exception:  # eyecite versions without full_span
        f_end = end
    end = max(end, f_end)
    plaintiff = getattr(cite.metadata, "plaintiff", None)
    if plaintiff:
        k = text.rfind(plaintiff, max(0, start - 200), start)
        if k >= 0:
            start = k
    return start, end


def _code_hits(text: str) -> list[Hit]:
    """United States Code citations (:data:`regexes.US_CODE_RE`), each with title, section,
    subsection pin, ``appendix`` and ``note`` kept apart."""
    hits = []
    for m in rx.US_CODE_RE.finditer(text):
        h = Hit(m.start(), m.end(), "us_statute")
        h.us = USParts(
            reporter="U.S.C.",
            title=m["title"],
            section=m["section"],
            pin_cite=m["pin"] or None,
            appendix=m["app"] is not None,
            note=m["note"] is not None,
        )
        hits.append(h)
    return hits


_PIN_AND_YEAR_RE = re.compile(r"(?:,[ ]?[0-9]+(?:[-–][0-9]+)?)?(?:[ ]?\([^()\n]{0,40}[0-9]{4}\))?")
"""What may follow a reporter cite as its own: a pin page and a court/year parenthetical."""

_CASE_NAME_BEFORE_RE = re.compile(
    r"(?P<name>(?:In re [A-Z][\w.'&-]*(?: [A-Z][\w.'&-]*)*)"
    r"|(?:[A-Z][\w.'&-]*(?: (?:of |the |[A-Z][\w.'&-]*))*,? v\. [A-Z][\w.'&-]*"
    r"(?: (?:of |the |[A-Z][\w.'&-]*))*)),[ ]$"
)
"""A case name right before a reporter cite (``Lewis v. Casey, 516 U.S. 217``), for the
citations eyecite gives no plaintiff (a case name after ``and``)."""


def _spans(text: str, cites: list[Any], full: tuple[type, ...]) -> list[tuple[int, int, bool]]:
    """``(start, end, cut)`` per eyecite citation: a full case citation runs from its case
    name through its pin cite and year parenthetical, but never into its neighbour — it ends
    before the next citation (with its case name) starts, and starts after the previous one's
    reporter cite. ``cut`` is True when the end was cut back (what eyecite attached beyond it,
    such as a year, belongs to the neighbour)."""
    core = [c.span() for c in cites]
    wide = []
    for c, (s, e) in zip(cites, core, strict=True):
        if not isinstance(c, full):
            wide.append((s, e))
            continue
        ws, we = _case_span(text, c)
        if ws == s:
            m = _CASE_NAME_BEFORE_RE.search(text, max(0, s - 120), s)
            if m is not None:
                ws = m.start("name")
        wide.append((ws, we))
    starts = [max(w[0], core[i - 1][1] if i else 0) for i, w in enumerate(wide)]
    out = []
    for i, (_, e) in enumerate(wide):
        cut = False
        if i + 1 < len(cites) and e > starts[i + 1]:
            m = _PIN_AND_YEAR_RE.match(text, core[i][1])
            own = m.end() if m else core[i][1]
            e, cut = max(core[i][1], min(own, starts[i + 1])), True
        out.append((starts[i], e, cut))
    return out


def scan_us(text: str) -> list[Hit]:
    """Find US reporter/statute citations (and resolved Id./supra/short forms) in ``text``.

    Args:
        text: report text, exactly as given.

    Returns:
        Hits of kind ``us_case``/``us_statute`` sorted by start, non-overlapping; short
        forms, Id. and supra carry ``antecedent`` (an index into the returned list) and the
        antecedent's reporter fields with their own pin cite. Unresolved Id./supra are
        dropped (nothing to verify them against). Neighbours stay apart
        (「…111279-U, both of which hold … 516 U.S. 217」 gives two citations); U.S.C.
        citations come from :data:`regexes.US_CODE_RE` (``app.``, ``note`` and the pin kept).
    """
    if not rx.US_HINT_RE.search(text):
        return []
    code = _code_hits(text)
    if not available(
        "eyecite"
    ):  # the `us` extra: governor.core.extras.unread_us_cases counts what is left
        _attach_claims(text, code)
        return code
    from eyecite import get_citations, resolve_citations
    from eyecite.models import (
        FullCaseCitation,
        FullLawCitation,
        IdCitation,
        ShortCaseCitation,
        SupraCitation,
    )

    cites = [
        c
        for c in get_citations(text)
        if not any(h.start < c.span()[1] and c.span()[0] < h.end for h in code)
    ]
    if not cites:
        if code:
            _attach_claims(text, code)
        return code
    resolved = resolve_citations(cites)
    full_of: dict[int, Any] = {}
    for resource, members in resolved.items():
        head = getattr(resource, "citation", None)
        for c in members:
            if head is not None and c is not head:
                full_of[id(c)] = head
    spans = _spans(text, cites, (FullCaseCitation,))
    hits: list[Hit] = []
    index_of: dict[int, int] = {}
    last_end = 0
    for c, (start, end, cut) in zip(cites, spans, strict=True):
        if isinstance(c, FullCaseCitation):
            kind = "us_case"
            parts = _parts(c)
            if cut and parts.year and parts.volume != parts.year:
                parts = parts.model_copy(update={"year": None})  # the neighbour's year
        elif isinstance(c, FullLawCitation):
            kind = "us_statute"
            parts = _parts(c)
        elif isinstance(c, (ShortCaseCitation, IdCitation, SupraCitation)):
            head = full_of.get(id(c))
            if head is None or id(head) not in index_of:
                continue
            ante = hits[index_of[id(head)]]
            kind = ante.kind
            pin = getattr(c.metadata, "pin_cite", None)
            base = ante.us if isinstance(ante.us, USParts) else USParts()
            parts = base.model_copy(update={"pin_cite": pin})
        else:
            continue
        start = max(start, last_end)
        if end <= start:
            continue
        h = Hit(start, end, kind)  # type: ignore[arg-type]
        if kind == "us_case" and not parts.case_name:
            name = _CASE_NAME_BEFORE_RE.search(text, start, c.span()[0])
            if name is not None:
                p, _, d = name["name"].partition(" v. ")
                parts = parts.model_copy(
                    update={"case_name": name["name"], "plaintiff": p, "defendant": d or None}
                )
        h.us = parts
        if kind == "us_case" and parts.case_name:
            h.instrument_as_written = parts.case_name
        head = full_of.get(id(c))
        if head is not None and id(head) in index_of:
            h.antecedent = index_of[id(head)]
        index_of[id(c)] = len(hits)
        hits.append(h)
        last_end = end
    if code:
        hits = _merge_code(hits, code)
    _attach_claims(text, hits)
    return hits


def _merge_code(hits: list[Hit], code: list[Hit]) -> list[Hit]:
    """eyecite hits and U.S.C. hits in text order, antecedent indices renumbered."""
    merged = sorted(
        [(h, "e", i) for i, h in enumerate(hits)] + [(h, "c", i) for i, h in enumerate(code)],
        key=lambda t: t[0].start,
    )
    pos = {(src, i): n for n, (_, src, i) in enumerate(merged)}
    out = []
    for h, src, _ in merged:
        if src == "e" and h.antecedent is not None:
            h.antecedent = pos[("e", h.antecedent)]
        out.append(h)
    return out


def _attach_claims(text: str, hits: list[Hit]) -> None:
    """Claim of an English citation: its sentence with the citation cut out; description:
    a parenthetical right after the citation ("(holding that …)") if any."""
    bounds = [0, *(m.end() for m in _EN_SENTENCE_END_RE.finditer(text)), len(text) + 1]
    import bisect

    for h in hits:
        i = bisect.bisect_right(bounds, h.start) - 1
        s = bounds[i]
        j = bisect.bisect_left(bounds, h.end)
        e = min(bounds[j] if j < len(bounds) else len(text), len(text))
        claim = (text[s : h.start] + text[h.end : e]).strip(" \t\n,;.")
        claim = re.sub(r"\s{2,}", " ", claim)
        claim = re.sub(r"^(?:See also|See|Cf\.|E\.g\.,)\s+", "", claim)
        if claim:
            h.claim, h.claim_span = claim, (s, e)
        m = re.compile(r"\s*\((?P<p>(?:holding|finding|stating|explaining|noting)[^)]*)\)").match(
            text, h.end
        )
        if m:
            h.description = m["p"]
            h.description_span = m.span("p")
