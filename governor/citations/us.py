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


def scan_us(text: str) -> list[Hit]:
    """Find US reporter/statute citations (and resolved Id./supra/short forms) in ``text``.

    Args:
        text: report text, exactly as given.

    Returns:
        Hits of kind ``us_case``/``us_statute`` sorted by start, non-overlapping; short
        forms, Id. and supra carry ``antecedent`` (an index into the returned list) and the
        antecedent's reporter fields with their own pin cite. Unresolved Id./supra are
        dropped (nothing to verify them against).
    """
    if not rx.US_HINT_RE.search(text):
        return []
    from eyecite import get_citations, resolve_citations
    from eyecite.models import (
        FullCaseCitation,
        FullLawCitation,
        IdCitation,
        ShortCaseCitation,
        SupraCitation,
    )

    cites = get_citations(text)
    if not cites:
        return []
    resolved = resolve_citations(cites)
    full_of: dict[int, Any] = {}
    for resource, members in resolved.items():
        head = getattr(resource, "citation", None)
        for c in members:
            if head is not None and c is not head:
                full_of[id(c)] = head
    hits: list[Hit] = []
    index_of: dict[int, int] = {}
    last_end = 0
    for c in cites:
        if isinstance(c, FullCaseCitation):
            start, end = _case_span(text, c)
            kind = "us_case"
            parts = _parts(c)
        elif isinstance(c, FullLawCitation):
            start, end = c.span()
            kind = "us_statute"
            parts = _parts(c)
        elif isinstance(c, (ShortCaseCitation, IdCitation, SupraCitation)):
            head = full_of.get(id(c))
            if head is None or id(head) not in index_of:
                continue
            start, end = c.span()
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
        h.us = parts
        if kind == "us_case" and parts.case_name:
            h.instrument_as_written = parts.case_name
        head = full_of.get(id(c))
        if head is not None and id(head) in index_of:
            h.antecedent = index_of[id(head)]
        index_of[id(c)] = len(hits)
        hits.append(h)
        last_end = end
    _attach_claims(text, hits)
    return hits


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
