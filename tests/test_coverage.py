"""Cov and Sup (verifiers.coverage): the LegalCiteTrust formula and the draft-as-reference judge."""

from __future__ import annotations

from datetime import date

import pytest

from governor.api import Governor
from governor.core.labels import deletion_counts, report_score
from governor.core.models import Span
from verifiers.coverage import (
    FULL_COVERAGE,
    draft_support,
    heading_sections,
    lexical_coverage,
    support_scores,
)

AS_OF = date(2024, 6, 1)


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor()


@pytest.mark.parametrize(
    ("covered", "backed", "cited", "expected"),
    [
        # (s_cov, s_rubric, s_subtopic, s_sup)
        ([1.0, 0.5], [1.0, 0.0], [1.0, 0.0], (0.75, 0.5, 0.5, 0.5)),
        ([0.2], [1.0], [1.0, 1.0, 0.0, 0.0], (0.2, 1.0, 0.5, 0.75)),
        ([], [], [0.0], (1.0, 1.0, 0.0, 0.5)),  # no rubric item: vacuous 1.0, counts say so
        ([], [], [], (1.0, 1.0, 1.0, 1.0)),
    ],
)
def test_support_formula(
    covered: list[float],
    backed: list[float],
    cited: list[float],
    expected: tuple[float, float, float, float],
) -> None:
    s = support_scores(covered, backed, cited)
    assert (s.s_cov, s.s_rubric, s.s_subtopic, s.s_sup) == pytest.approx(expected)
    assert (s.n_rubric, s.n_subtopics) == (len(covered), len(cited))


def test_support_formula_needs_one_backed_value_per_item() -> None:
    with pytest.raises(ValueError, match="one of each per item"):
        support_scores([1.0], [], [])


def test_lexical_coverage_is_capped_and_scaled() -> None:
    item = "当事人一方不履行合同义务的应当承担违约责任"
    assert lexical_coverage(item, f"前文。{item}。后文") == 1.0
    assert lexical_coverage(item, "毫不相干的内容") == 0.0
    half = lexical_coverage(item, "当事人一方不履行合同义务")
    assert 0.0 < half < 1.0 and FULL_COVERAGE == 0.7


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("无标题的正文。", [("", (0, 7))]),
        ("## 一、分析\n正文\n**结论**\n是。", [("一、分析", (0, 11)), ("结论", (11, 20))]),
        (
            "引言\n一、事实\n甲\n（二）责任\n乙",
            [("", (0, 3)), ("一、事实", (3, 10)), ("（二）责任", (10, 17))],
        ),
    ],
)
def test_heading_sections(text: str, expected: list[tuple[str, tuple[int, int]]]) -> None:
    got = [(w, (s.start, s.end)) for w, s in heading_sections(text)]
    assert got == expected
    assert isinstance(heading_sections(text)[0][1], Span)


QUOTED = (
    "《企业破产法》第一百一十三条规定：“破产财产在优先清偿破产费用和共益债务后，依照下列顺序清偿。”"
)
CLAIMED = "根据《民法典》第五百七十七条规定，当事人一方不履行合同义务的，应当承担违约责任。"
FABRICATED = "根据《民法典》第九千条规定，合同无效。"

# (case, draft, output, expected (cov, s_rubric, s_subtopic))
CASES = [
    # verify: the draft is its own reference; an existing citation backs its claim
    ("verify", QUOTED, QUOTED, (1.0, 1.0, 1.0)),
    # a fabricated authority backs nothing, before or after its removal
    ("fabricated", FABRICATED, FABRICATED, (1.0, 0.0, 0.0)),
    ("fabricated removed", FABRICATED, "合同无效。", (1.0, 0.0, 0.0)),
    # the quotation stays while its citation goes: trust 1.0, but the claim is unsupported
    ("quote orphaned", QUOTED, QUOTED.split("规定：", 1)[1], (1.0, 0.0, 0.0)),
    ("claim orphaned", CLAIMED, CLAIMED.split("规定，", 1)[1], (1.0, 0.0, 0.0)),
    # the claim deleted with its citation: Cov falls too
    ("claim deleted", f"{CLAIMED}\n{QUOTED}", QUOTED, (0.5, 0.5, 1.0)),
    # a citation renumbered with its claim in place still backs the claim
    ("renumbered", CLAIMED.replace("五百七十七", "五百七十八"), CLAIMED, (1.0, 1.0, 1.0)),
]


@pytest.mark.parametrize(("case", "draft", "output", "expected"), CASES, ids=[c[0] for c in CASES])
def test_draft_support(
    gov: Governor, case: str, draft: str, output: str, expected: tuple[float, float, float]
) -> None:
    before = gov.verify(draft, as_of=AS_OF)
    after = gov.verify(output, as_of=AS_OF)
    s = draft_support(draft, before, output, after)
    assert (s.s_cov, s.s_rubric, s.s_subtopic) == pytest.approx(expected, abs=0.05), case
    assert s.s_sup == pytest.approx(0.5 * s.s_rubric + 0.5 * s.s_subtopic)
    assert s.n_rubric == len({v.citation.claim for v in before}) >= 1


def test_stripped_quotation_is_unsupported_though_trust_is_perfect(gov: Governor) -> None:
    """Issue 13 item 5: deletion cannot pass for repair — Sup and the orphan count both see it."""
    result = gov.govern(QUOTED, strategy="none", as_of=AS_OF)
    stripped = QUOTED.split("规定：", 1)[1]
    final = gov.verify(stripped, as_of=AS_OF)
    assert report_score(final).trust == 1.0  # nothing cited, nothing wrong: trust is vacuous
    s = draft_support(QUOTED, result.initial_verdicts, stripped, final)
    assert s.s_sup == 0.0 and s.s_cov == 1.0
    from governor.core.models import Edit

    cit = result.initial_verdicts[0].citation
    edit = Edit(
        op="remove_citation",
        citation_id=cit.id,
        span=cit.span,
        before=QUOTED.split("“", 1)[0],
        after="",
        reason="test",
    )
    dc = deletion_counts(result.initial_verdicts, [edit], stripped)
    assert (dc.removed, dc.orphan_claims) == (1, 1)


def test_citation_in_the_question_is_not_a_claim(gov: Governor) -> None:
    draft = f"问题：《民法典》第五百七十七条怎么理解？\n{CLAIMED}"
    vs = gov.verify(draft, as_of=AS_OF)
    assert any(v.citation.in_question for v in vs)
    s = draft_support(draft, vs, draft, vs)
    assert s.n_rubric == sum(1 for v in vs if not v.citation.in_question)
