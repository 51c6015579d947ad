"""Offline coverage/support judging: sections, coverage, evidence backing, subtopic cites."""

from __future__ import annotations

from datetime import date

import numpy as np
import pytest

from benchmarks.judging import FULL_COVERAGE, CoverageJudge, backed_share, split_sections
from benchmarks.tasks import EvidencePoint, RubricItem, Subtopic, Task
from governor.api import Governor
from governor.authorities import AuthorityStore, load_default_store

AS_OF = date(2024, 6, 1)
RULE_188 = "向人民法院请求保护民事权利的诉讼时效期间为三年"
RULE_577 = "当事人一方不履行合同义务或者履行合同义务不符合约定的，应当承担继续履行、采取补救措施或者赔偿损失等违约责任"


@pytest.fixture(scope="module")
def store() -> AuthorityStore:
    return load_default_store()


@pytest.fixture(scope="module")
def gov(store: AuthorityStore) -> Governor:
    return Governor(store=store)


def _task(*, two: bool = True, evidence: bool = True) -> Task:
    subs = [Subtopic(id="s1", title="诉讼时效")]
    if two:
        subs.append(Subtopic(id="s2", title="违约责任"))
    rubric = [
        RubricItem(
            id="r1",
            subtopic_id="s1",
            text=RULE_188,
            evidence=(EvidencePoint(authority="《中华人民共和国民法典》第一百八十八条"),)
            if evidence
            else (),
        )
    ]
    if two:
        rubric.append(
            RubricItem(
                id="r2",
                subtopic_id="s2",
                text=RULE_577,
                evidence=(EvidencePoint(authority="《民法典》第577条"),) if evidence else (),
            )
        )
    return Task(
        id="t", query="诉讼时效与违约责任", as_of=AS_OF, subtopics=tuple(subs), rubric=tuple(rubric)
    )


REPORT = (
    "问题：诉讼时效与违约责任\n\n"
    "## 一、诉讼时效\n"
    f"根据《民法典》第一百八十八条规定，{RULE_188}。\n\n"
    "## 二、违约责任\n"
    f"根据《民法典》第五百七十七条规定，{RULE_577}。\n"
)


@pytest.mark.parametrize(
    ("text", "judge", "s1_has", "s2_has"),
    [
        (REPORT, "headings", "第一百八十八条", "第五百七十七条"),
        ("**违约责任**\nA\n**诉讼时效**\nB\n", "headings", "B", "A"),
        ("一、诉讼时效的起算\nA\n二、其他\nB\n", "headings", "A", "A"),  # s2 unmatched: whole text
        ("没有任何标题的报告。\n", "whole-text", "没有", "没有"),
    ],
)
def test_split_sections(text: str, judge: str, s1_has: str, s2_has: str) -> None:
    secs = split_sections(_task(), text)
    assert secs.judge == judge
    assert s1_has in secs.text_of(text, "s1")
    assert s2_has in secs.text_of(text, "s2")


def test_first_section_does_not_leak_into_the_second() -> None:
    secs = split_sections(_task(), REPORT)
    assert "第五百七十七条" not in secs.text_of(REPORT, "s1")
    assert "第一百八十八条" not in secs.text_of(REPORT, "s2")


def test_one_subtopic_is_the_whole_text() -> None:
    secs = split_sections(_task(two=False), "## 标题\n正文")
    assert secs.judge == "whole-text"
    assert secs.text_of("## 标题\n正文", "s1") == "## 标题\n正文"


@pytest.mark.parametrize(
    ("item", "section", "expected"),
    [
        (RULE_188, f"……{RULE_188}……", 1.0),
        (RULE_188, "完全无关的内容：甲乙丙丁", 0.0),
        ("甲乙丙丁戊己", "甲乙丙", 2 / 5 / FULL_COVERAGE),  # 2 of 5 content bigrams
    ],
)
def test_lexical_coverage(store: AuthorityStore, item: str, section: str, expected: float) -> None:
    assert CoverageJudge(store).covered(item, section) == pytest.approx(expected)


class _FakeEmbedder:
    """Maps texts containing 时效 to one direction and everything else to another."""

    name = "fake"
    dim = 2

    def embed(self, texts: list[str]) -> np.ndarray:
        return np.asarray(
            [[1.0, 0.0] if "时效" in t else [0.0, 1.0] for t in texts], dtype=np.float32
        )


def test_hybrid_coverage_takes_the_semantic_match(store: AuthorityStore) -> None:
    judge = CoverageJudge(store, embedder=_FakeEmbedder())
    assert judge.coverage_name == "hybrid:fake"
    assert judge.covered("诉讼时效期间", "我们讨论时效。") == 1.0  # lexically low, cosine 1
    assert judge.covered("诉讼时效期间", "别的话题。") == 0.0


def test_backing_counts_same_instrument_and_article(store: AuthorityStore, gov: Governor) -> None:
    ev = (
        EvidencePoint(authority="《中华人民共和国民法典》第一百八十八条"),
        EvidencePoint(authority="《民法典》第577条"),
    )
    cited_188 = gov.verify("根据民法典第188条第1款规定，诉讼时效期间为三年。", as_of=AS_OF)
    assert backed_share(store, ev, cited_188) == 0.5  # 款 ignored
    assert backed_share(store, ev, ()) == 0.0
    assert backed_share(store, (), cited_188) is None
    other = gov.verify("根据《劳动合同法》第188条规定，诉讼时效期间为三年。", as_of=AS_OF)
    assert backed_share(store, ev, other) == 0.0


def test_judge_report(store: AuthorityStore, gov: Governor) -> None:
    task = _task()
    verdicts = gov.verify(REPORT, as_of=AS_OF)
    rubric, subs = CoverageJudge(store).judge(task, REPORT, verdicts)
    assert [(r.item_id, r.covered, r.backed) for r in rubric] == [
        ("r1", 1.0, 1.0),
        ("r2", 1.0, 1.0),
    ]
    assert [(s.subtopic_id, s.cites) for s in subs] == [("s1", 1), ("s2", 1)]
    assert all(r.judge == "lexical+cited-authority" for r in rubric)
    assert all(s.judge == "headings" for s in subs)


def test_fabricated_citation_backs_nothing_and_is_not_a_cite(
    store: AuthorityStore, gov: Governor
) -> None:
    text = REPORT.replace("第五百七十七条", "第九千条")
    rubric, subs = CoverageJudge(store).judge(_task(), text, gov.verify(text, as_of=AS_OF))
    assert [r.backed for r in rubric] == [1.0, 0.0]
    assert [s.cites for s in subs] == [1, 0]


def test_item_without_evidence_is_backed_by_any_real_citation_in_its_section(
    store: AuthorityStore, gov: Governor
) -> None:
    task = _task(evidence=False)
    text = REPORT.replace("第五百七十七条", "第九千条")
    rubric, _ = CoverageJudge(store).judge(task, text, gov.verify(text, as_of=AS_OF))
    assert [r.backed for r in rubric] == [1.0, 0.0]
