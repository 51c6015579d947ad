"""Coverage gaps: the citations a run could not check, grouped by why (layer 0).

SPEC §10 and issue 14 item 5: nothing passes silently. An ``unverifiable`` citation leaves the
trust denominator (SPEC §3), so a report whose every citation is unverifiable would score
trust 1.0; the gap summary says, in one line, which kinds of citations were not checked, and
``--fail-on`` fails on any gap unless ``--allow-unverifiable`` is given. A configured case
lookup that failed is louder than none configured: the user asked for a check that did not
happen.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict

from governor.core.config import DEFAULT_THRESHOLDS
from governor.core.models import GapKind, Verdict
from governor.text.regexes import ASSERTION_NUMBER_RE, WHOLE_CLAIM_RE, WHOLE_NO_CLAIM_RE

__all__ = ["INFO_ONLY", "CoverageGap", "DraftGapKind", "coverage_gaps", "gap_line"]

DraftGapKind = Literal["no_citations"]
"""A gap of the draft as a whole rather than of some citations: ``no_citations`` — the text
holds no citation of its own, so nothing was checked (issue 23: nothing checked is not a pass;
``n`` is 1, the draft)."""

_WHAT: dict[str, tuple[str, str]] = {
    "no_citations": (
        "draft with no citation (nothing was checked; --allow-unverifiable accepts it)",
        "篇文稿未引用任何依据（无可核验内容）",
    ),
    "us_case_not_extracted": (
        "US case citation(s) (not extracted: eyecite is not installed; pip install 'citegov[us]')",
        "件美国判例引用（未提取：未安装 eyecite，请运行 pip install 'citegov[us]'）",
    ),
    "us_case_lookup_down": (
        "US case citation(s) (the configured case lookup failed: endpoint down or refused; "
        "retry, or check courtlistener_url / case_store)",
        "件美国判例引用（已配置的判例查询失败：服务不可用或拒绝，请稍后重试或检查 "
        "courtlistener_url / case_store）",
    ),
    "us_case_no_lookup": (
        "US case citation(s) (no case lookup configured: set courtlistener_url + "
        "COURTLISTENER_TOKEN, or case_store)",
        "件美国判例引用（未配置判例查询：请设置 courtlistener_url 与 COURTLISTENER_TOKEN，"
        "或 case_store）",
    ),
    "us_statute": (
        "US statute citation(s) (the store holds no United States Code text)",
        "件美国制定法引用（权威库不含美国法典文本）",
    ),
    "foreign_law": (
        "foreign-law citation(s) (the store holds PRC law only)",
        "件外国法引用（权威库仅收录中国法律）",
    ),
    "outside_store": (
        "citation(s) of instruments outside the store (local, departmental or technical documents)",
        "件引用的文件不在权威库收录范围内（地方性、部门或技术文件）",
    ),
    "version_not_in_store": (
        "citation(s) whose version in force on the as-of date is not in the store",
        "件引用在报告日期当时有效的版本不在权威库中",
    ),
    "record_not_in_store": (
        "case number(s), document number(s) or guiding case(s) not in the store",
        "件案号、文号或指导案例不在权威库中",
    ),
    "no_pin": (
        "citation(s) of a whole instrument with no article: its existence was checked, not what "
        "the report says it holds (cite the article to have it checked)",
        "件引用仅指明法律文件而未指明条文：仅核验了文件存在，未核验所述内容（请注明条文）",
    ),
    "after_horizon": (
        "citation(s) of national instruments the store lacks, possibly made after its horizon",
        "件引用的全国性文件不在权威库中，可能制定于权威库截止日期之后",
    ),
}
_ORDER = (*get_args(DraftGapKind), *get_args(GapKind))
_LOUD = frozenset({"us_case_lookup_down", "us_case_not_extracted", "after_horizon"})
INFO_ONLY = frozenset({"no_pin"})
"""Gap kinds that are said but do not fail ``--fail-on``: the citation was checked for
existence, only its content could not be (``no_pin``)."""
_PINLESS_KINDS = frozenset({"statute", "judicial_interpretation", "regulation", "rule"})


class CoverageGap(BaseModel):
    """One kind of citation that could not be checked.

    Attributes:
        kind: why (:data:`governor.core.models.GapKind`, or :data:`DraftGapKind`).
        n: how many citations (>= 1); 1 (the draft) for ``no_citations``; for
            ``after_horizon`` the citations of instruments the store lacks, 0 when the
            report is only dated after the horizon.
        message: one English line (count first).
        loud: True when a check the user configured failed (a case lookup that is down),
            or when the report is dated after the store's horizon.
        horizon: the store's horizon, for ``after_horizon`` only.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: GapKind | DraftGapKind
    n: int
    message: str
    loud: bool = False
    horizon: date | None = None


def coverage_gaps(
    verdicts: Sequence[Verdict],
    *,
    unextracted_us: int = 0,
    as_of: date | None = None,
    horizon: date | None = None,
) -> tuple[CoverageGap, ...]:
    """The coverage gaps of one text's verdicts, loud ones first, then in
    :data:`~governor.core.models.GapKind` order.

    Args:
        verdicts: verdicts of one text (any order). Only ``unverifiable`` verdicts with a
            ``gap`` count; citations in the question line (``in_question``) do not.
        unextracted_us: reporter-shaped US case citations that were not extracted at all
            (:func:`governor.core.extras.unread_us_cases`).
        as_of / horizon: the report's as-of date and the store's horizon
            (``AuthorityStore.horizon``). A report dated after the horizon always gets the
            loud ``after_horizon`` gap, "law made after <horizon> is not in the store"
            (issue 24 item 4): every citation in it was checked against the law as it stood
            on the horizon, not on the report's date.

    Returns:
        One :class:`CoverageGap` per kind present; empty when every citation was checkable.
        A text with no citation of its own (none outside the question line, none unread)
        gets ``no_citations``.
    """
    counts: dict[str, int] = {}
    if unextracted_us == 0 and all(v.citation.in_question for v in verdicts):
        counts["no_citations"] = 1
    for v in verdicts:
        if v.gap is not None and v.existence.label == "unverifiable" and not v.citation.in_question:
            counts[v.gap] = counts.get(v.gap, 0) + 1
        elif _content_unchecked(v):
            counts["no_pin"] = counts.get("no_pin", 0) + 1
    if unextracted_us:
        counts["us_case_not_extracted"] = unextracted_us
    late = as_of is not None and horizon is not None and as_of > horizon
    if late:
        counts.setdefault("after_horizon", 0)
    kinds = sorted(counts, key=lambda k: (k not in _LOUD, _ORDER.index(k)))
    return tuple(
        CoverageGap(
            kind=k,
            n=counts[k],
            message=_message(k, counts[k], as_of if late else None, horizon),
            loud=k in _LOUD,
            horizon=horizon if k == "after_horizon" else None,
        )
        for k in kinds
    )


def _content_unchecked(v: Verdict) -> bool:
    """A PRC instrument cited whole (no article) with words of the report attached, of which
    only existence was judged: F ``not_assessed`` and A ``skipped`` (a whole-instrument
    citation resolved to an article, or flagged, has labels of its own)."""
    c = v.citation
    return (
        c.article is None
        and c.kind in _PINLESS_KINDS
        and not c.in_question
        and not v.excluded
        and v.existence.label == "exists"
        and v.fidelity.label == "not_assessed"
        and v.applicability.label == "skipped"
        and bool((c.claim or c.description).strip())
    )


def claim_words(v: Verdict) -> str:
    """The words a citation's verdict rests on: its assertion's text, else its claim or
    description (empty when none)."""
    c = v.citation
    a = c.assertion
    return ((a.text if a is not None else "") or c.claim or c.description).strip()


def unchecked_claim(v: Verdict, *, min_chars: int | None = None) -> bool:
    """True when an instrument cited whole (no article) is cited for a rule or a conclusion
    whose content nobody checked (:func:`_content_unchecked`, not pinned, not flagged): its
    words state one (:data:`~governor.text.regexes.WHOLE_CLAIM_RE` or a number with its unit)
    and are neither a question restated nor a pointer to read the law
    (:data:`~governor.text.regexes.WHOLE_NO_CLAIM_RE`). Such a citation is never passed
    silently: the report names it as not assessed (issue 21 item 2; review 3 found 36 of 77
    numberless citations passed with no word wrong, most of them of this form). ``min_chars``:
    the shortest words read as a claim (default ``Thresholds.unchecked_claim_min_chars``)."""
    if not _content_unchecked(v):
        return False
    words = claim_words(v)
    least = DEFAULT_THRESHOLDS.unchecked_claim_min_chars if min_chars is None else min_chars
    if len(words) < least or WHOLE_NO_CLAIM_RE.search(words):
        return False
    return bool(WHOLE_CLAIM_RE.search(words) or ASSERTION_NUMBER_RE.search(words))


def unchecked_claim_line(v: Verdict) -> str:
    """The report line for :func:`unchecked_claim` citations: which one, the words, and that
    only its existence was checked."""
    c = v.citation
    title = (c.instrument or c.raw).strip("《》")
    words = claim_words(v)
    short = words if len(words) <= 60 else words[:60] + "…"
    return (
        f"not assessed (a law cited whole, no article): {c.raw} for 「{short}」 — only the law's "
        f"existence was checked, not whether 《{title}》 says this (cite the article)"
    )


def _message(kind: str, n: int, as_of: date | None, horizon: date | None) -> str:
    """The English line of one gap; ``after_horizon`` names the horizon (and the report's
    date when it is later)."""
    if kind != "after_horizon":
        return f"{n} {_WHAT[kind][0]}"
    when = f"law made after {horizon.isoformat()} is not in the store" if horizon else ""
    if as_of is not None:
        when += f" (the report is dated {as_of.isoformat()})"
    return "; ".join(x for x in (when, f"{n} {_WHAT[kind][0]}" if n else "") if x)


def _message_zh(g: CoverageGap) -> str:
    if g.kind != "after_horizon" or g.horizon is None:
        return f"{g.n} {_WHAT[g.kind][1]}"
    head = f"权威库未收录{g.horizon.isoformat()}之后制定的法律"
    return head + (f"，{g.n} {_WHAT[g.kind][1]}" if g.n else "")


def gap_line(gaps: Sequence[CoverageGap], *, lang: str = "en") -> str:
    """One line saying what could not be checked ("" when nothing is missing).

    Args:
        gaps: from :func:`coverage_gaps`.
        lang: ``"zh"`` for a Chinese line (Chinese drafts), else English.
    """
    if not gaps:
        return ""
    if lang == "zh":
        return "未核验：" + "；".join(_message_zh(g) for g in gaps) + "。"
    return "not checked: " + "; ".join(g.message for g in gaps) + "."
