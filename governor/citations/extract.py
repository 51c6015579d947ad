"""Report text → citations (layer 1; SPEC §2): the public extraction API.

``extract`` runs the Chinese grammar (:mod:`governor.citations.cn`), optionally eyecite for US
citations (:mod:`governor.citations.us`), attaches claims and descriptions
(:mod:`governor.citations.claims`) and freezes the result into :class:`governor.core.models.Citation` s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from governor.citations import assertion, claims
from governor.citations.cn import (
    Hit,
    case_number_is_well_formed,
    clean_title,
    normalise_case_number,
    resolve_title,
    scan,
)
from governor.citations.us import scan_us
from governor.core.models import Citation, Span, USParts, citation_id
from governor.text.dates import question_span_in
from governor.text.regexes import CITEGOV_NOTE
from governor.text.sanitize import ReadingView, reading_view
from governor.text.textio import ensure_text

if TYPE_CHECKING:
    from governor.core.ports import InstrumentNames

__all__ = [
    "case_number_is_well_formed",
    "extract",
    "normalise_case_number",
    "parse_pin",
]


def _merge(cn: list[Hit], us: list[Hit]) -> list[Hit]:
    """Merge US hits into CN hits (CN wins on overlap); antecedent indices become positions in
    the merged list."""
    if not us:
        return cn
    tagged = [(h, "cn", i) for i, h in enumerate(cn)]
    taken = [(h.start, h.end) for h in cn]
    import bisect

    kept_us: list[tuple[Hit, str, int]] = []
    for i, h in enumerate(us):
        k = bisect.bisect_right(taken, (h.start, 10**12))
        overlaps = (k > 0 and taken[k - 1][1] > h.start) or (k < len(taken) and taken[k][0] < h.end)
        if not overlaps:
            kept_us.append((h, "us", i))
    merged = sorted(tagged + kept_us, key=lambda t: t[0].start)
    pos = {(src, i): n for n, (_, src, i) in enumerate(merged)}
    out: list[Hit] = []
    for h, src, _ in merged:
        if h.antecedent is not None:
            h.antecedent = pos.get((src, h.antecedent))
        out.append(h)
    return out


def _to_original(view: ReadingView, hits: list[Hit]) -> None:
    """Map every span of ``hits`` from the reading ``view.text`` back to the text as given.

    A description keeps its span only when the text at that span *is* the description: when
    the reading left something out inside it (an invisible character, a comment, a marker)
    or folded a character, the description is the reading and ``description_span`` is None
    (no exact slice of the input says it; edits that need one are then not proposed).
    """
    text = view.original
    for h in hits:
        h.start, h.end = view.span(h.start, h.end)
        if h.claim_span is not None:
            h.claim_span = view.span(*h.claim_span)
        if h.description_span is not None:
            s, e = view.span(*h.description_span)
            h.description_span = (s, e) if text[s:e] == h.description else None


def _freeze(view: ReadingView, hits: list[Hit]) -> tuple[Citation, ...]:
    """Hits → validated :class:`Citation` s. Spans are given as ``{"start", "end"}`` dicts and
    the citation as one dict to ``model_validate``: the same validation (pydantic builds and
    checks each :class:`Span` in its core), without a Python ``__init__`` call per span —
    about half the cost of ``Citation(span=Span(...), ...)``."""
    text = view.original
    question = question_span_in(view)
    validate = Citation.model_validate
    ids: list[str] = []
    group_ids: dict[int, str] = {}
    out: list[Citation] = []
    for h in hits:
        raw = text[h.start : h.end]
        cid = citation_id(h.start, h.end, raw)
        ids.append(cid)
        group = None
        if h.group is not None:
            group = group_ids.setdefault(h.group, cid)
        cs, ds = h.claim_span, h.description_span
        out.append(
            validate(
                {
                    "id": cid,
                    "span": {"start": h.start, "end": h.end},
                    "raw": raw,
                    "kind": h.kind,
                    "instrument": h.instrument,
                    "instrument_as_written": h.instrument_as_written,
                    "article": h.article,
                    "paragraph": h.paragraph,
                    "item": h.item,
                    "version_hint": h.version_hint,
                    "case_number": h.case_number,
                    "document_number": h.document_number,
                    "guiding_case": h.guiding_case,
                    "antecedent": ids[h.antecedent] if h.antecedent is not None else None,
                    "group": group,
                    "claim": h.claim,
                    "claim_span": {"start": cs[0], "end": cs[1]} if cs else None,
                    "description": h.description,
                    "description_span": {"start": ds[0], "end": ds[1]} if ds else None,
                    "quotes": h.quotes,
                    "us": h.us if isinstance(h.us, USParts) else None,
                    "in_question": question is not None
                    and question[0] <= h.start
                    and h.end <= question[1],
                    "placeholder": h.placeholder,
                    "article_range": h.article_range,
                }
            )
        )
    return tuple(out)


def extract(text: str, names: InstrumentNames, *, us: bool = True) -> tuple[Citation, ...]:
    """Find every legal citation in a report.

    Args:
        text: the report, exactly as given (any size; offsets are Python ``str`` indices).
        names: resolves instrument names as written to canonical titles (the authority store,
            or any :class:`governor.core.ports.InstrumentNames`).
        us: also run eyecite for US reporter/statute citations (only invoked when the text
            holds reporter- or statute-shaped ASCII).

    Returns:
        Citations sorted by ``span.start`` with non-overlapping spans;
        ``raw == text[span.start:span.end]`` and ``id == citation_id(start, end, raw)``.
        Lists and ranges give one citation per pin cite sharing ``group`` (the id of the
        first member) and one description. Back-references (同法, 该条, 前款, Id., supra)
        carry ``antecedent``. See :mod:`governor.citations.cn` for the Chinese grammar and
        :mod:`governor.citations.claims` for the claim/description rules.

        The grammar runs on the *reading* of the text (:func:`governor.text.sanitize.reading_view`):
        invisible characters, HTML comments and verification markers left out, look-alike
        characters folded. Spans are mapped back, so they index ``text`` exactly as given and
        ``raw`` keeps every character written (a zero-width space, U+200B, inside
        第五百七十七条 stays in ``raw``); ``claim``/``description``/``quotes`` are the reading's text.
        Citations inside HTML comments are not returned (hidden content, reported by
        :func:`governor.text.sanitize.draft_warnings`).

    Raises:
        EncodingError: ``text`` holds a lone surrogate (not valid Unicode; only possible for
            strings built in Python, never for decoded files). Errors raised by ``names``
            propagate.
    """
    if not text:
        return ()
    ensure_text(text)
    view = reading_view(text)
    hits = scan(view.text, names)
    # asides (「（见下文。）」, injected instructions) are masked for the claim reader and
    # skipped by the assertion (issue 21)
    asides = assertion.aside_spans(view.text, [(h.start, h.end) for h in hits])
    claims.attach(assertion.mask(view.text, asides), hits)
    if asides:
        _unmask(hits)
    if us:
        hits = _merge(hits, scan_us(view.text))
    if not view.identity:
        _to_original(view, hits)
        asides = [view.span(s, e) for s, e in asides]
    return _outside_notes(text, assertion.read(text, _freeze(view, hits), asides))


def _unmask(hits: list[Hit]) -> None:
    """Claims, descriptions and quotes of ``hits`` without the masked asides' filler."""
    for h in hits:
        h.claim = assertion.unmask(h.claim)
        h.description = assertion.unmask(h.description)
        h.quotes = tuple(assertion.unmask(q) for q in h.quotes)


def _outside_notes(text: str, cits: tuple[Citation, ...]) -> tuple[Citation, ...]:
    """``cits`` without those inside citegov's own notes (「（注：…可能应为《X》第N条…请核实）」):
    a candidate named for the reader is not a citation of the report. Back-references to a
    dropped citation lose their antecedent."""
    if "请核实" not in text and "（注：该说法见" not in text:
        return cits
    notes = [(m.start(), m.end()) for m in CITEGOV_NOTE.finditer(text)]
    inside = {c.id for c in cits if any(a <= c.span.start and c.span.end <= b for a, b in notes)}
    if not inside:
        return cits
    return tuple(
        c.model_copy(update={"antecedent": None}) if c.antecedent in inside else c
        for c in cits
        if c.id not in inside
    )


def parse_pin(text: str, names: InstrumentNames) -> Citation | None:
    """Parse one citation written on its own, e.g. ``民法典第五百七十七条第二款``,
    ``《劳动合同法》第39条`` or just ``民法典`` (used by ``citegov corpus show``).

    Args:
        text: the citation.
        names: instrument-name resolver.

    Returns:
        The first citation found in ``text`` (claim and description cleared), or a
        whole-instrument citation when ``text`` is only a resolvable title; None otherwise.
    """
    found = extract(text, names, us=True)
    if found:
        return found[0].model_copy(
            update={
                "claim": "",
                "claim_span": None,
                "description": "",
                "description_span": None,
                "quotes": (),
            }
        )
    stripped = text.strip()
    title = clean_title(stripped.strip("《》<>〈〉"))
    if not title:
        return None
    instrument = resolve_title(names, title)
    if instrument is None:
        return None
    start = text.find(stripped)
    end = start + len(stripped)
    kind = names.kind_of(instrument) or "statute"
    return Citation(
        id=citation_id(start, end, stripped),
        span=Span(start=start, end=end),
        raw=stripped,
        kind=kind,
        instrument=instrument,
        instrument_as_written=title,
    )
