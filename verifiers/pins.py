"""A pinned 款/项 described with a sibling's words (SPEC §3, Fidelity L1.1.2).

《民法典》第五百八十五条第三款 cited for 「约定的违约金过分高于造成的损失的，人民法院或者仲裁机构
可以根据当事人的请求予以适当减少」 states 第二款's rule, not 第三款's (迟延履行). Judged against
the whole article (the module rule of :mod:`verifiers.fidelity`: a 项 is read with its lead-in)
such words pass; the pin is still wrong. :func:`restated_sibling` finds the sibling 款/项 whose
text the words are, so Fidelity can say ``misdescribed`` with that sibling as the suggestion
(the revision re-pins: ``fix_granularity``) and Applicability does not count the recital of a
sibling as support of the pinned one. Unpinned citations are never affected.

"Restates" is the existing pair of measures of :func:`verifiers.applicability.restated_paragraph`:
IDF-weighted containment (of the report's words in the 款, or in the 项 with its lead-in) ≥
``applicability_restates`` and verbatim share (runs of four or more characters) ≥
``suggest_near_verbatim`` — of the words in the 款, or of the 项's own text in the words.
"""

from __future__ import annotations

from governor.authorities import ArticleRecord
from governor.core.config import DEFAULT_THRESHOLDS
from verifiers.textsim import BigramIdf, verbatim_share, weighted_containment

RESTATES = DEFAULT_THRESHOLDS.applicability_restates
NEAR_VERBATIM = DEFAULT_THRESHOLDS.suggest_near_verbatim

Unit = tuple[int, int | None]
"""A 款 (1-based) and, optionally, one of its 项 (1-based)."""


def _unit_text(record: ArticleRecord, unit: Unit) -> str:
    para = record.paragraphs[unit[0] - 1]
    if unit[1] is None:
        return para.full_text
    return "\n".join(t for t in (para.text, para.items[unit[1] - 1]) if t)


def _pinned_unit(record: ArticleRecord, paragraph: int | None, item: int | None) -> Unit | None:
    """The 款/项 a citation pins, in the record's numbering; None when unpinned or absent
    (a 项 without a 款 is in the first 款 that has items: the store's rule)."""
    paras = record.paragraphs
    if paragraph is not None:
        if not 1 <= paragraph <= len(paras):
            return None
        k = paragraph
    elif item is not None:
        k = next((i for i, p in enumerate(paras, start=1) if p.items), 0)
        if not k:
            return None
    else:
        return None
    if item is not None and not 1 <= item <= len(paras[k - 1].items):
        return None
    return k, item


def restated_sibling(
    record: ArticleRecord | None,
    paragraph: int | None,
    item: int | None,
    words: str,
    table: BigramIdf | None = None,
) -> Unit | None:
    """The sibling 款/项 of the same article whose text ``words`` restate, when the citation
    pins 款 ``paragraph`` / 项 ``item`` and the words do not restate that pinned unit.

    Args:
        record: the cited article (None: nothing to compare, returns None).
        paragraph, item: the citation's pin (1-based; both None = unpinned → None).
        words: what the report says the provision says (its description, else its claim).
        table: IDF table of the instrument version (plain containment when None).

    Returns:
        ``(款, 项 or None)`` of the sibling, the best restated one by weighted containment; for
        a pinned 项 another 项 is preferred to a whole 款 (words of the 款 as a whole are its
        lead-in, which governs every 项: no sibling). None otherwise.
    """
    if record is None or not words.strip():
        return None
    pinned = _pinned_unit(record, paragraph, item)
    if pinned is None:
        return None

    def score(unit: Unit) -> float | None:
        text = _unit_text(record, unit)
        wc = weighted_containment(words, text, table)
        # a 项 is restated with its lead-in around it (「劳动者<第三项>的，用人单位可以解除劳动合同」):
        # the 项's own words verbatim in the report's, not the report's in one run of the 项's
        own = record.paragraphs[unit[0] - 1].items[unit[1] - 1] if unit[1] else ""
        vs = verbatim_share(own, words) if own else verbatim_share(words, text)
        return wc if wc >= RESTATES and vs >= NEAR_VERBATIM else None

    if score(pinned) is not None:
        return None
    paras = record.paragraphs
    items: list[Unit] = [
        (k, j)
        for k, p in enumerate(paras, start=1)
        for j in range(1, len(p.items) + 1)
        if (k, j) != pinned and (pinned[1] is not None or k != pinned[0])
    ]
    whole: list[Unit] = [(k, None) for k in range(1, len(paras) + 1) if k != pinned[0]]
    # a pinned 项: another 项 first; a pinned 款: another 款 (its 项 only when no 款 is restated)
    tiers = (items, whole) if pinned[1] is not None else (whole, items)
    for tier in tiers:
        scored = [(s, u) for u in tier if (s := score(u)) is not None]
        if scored:
            return max(scored, key=lambda su: su[0])[1]
    return None


__all__ = ["restated_sibling"]
