"""Applicability of 「本案应当适用《X》第N条」 to stated facts (issue 21, LexEval 3_2 form).

The facts below are written from the statute texts (刑法第二百三十八条 非法拘禁, 第一百三十三条
交通肇事, 第二百六十四条 盗窃, 第二十五条/第二十六条/第二十七条 共同犯罪·主犯·从犯, 第三百五十四条
容留他人吸毒) in the way judgments state facts (窃得, 撞倒…致其死亡, 系从犯), not copied from any
label: the right article is kept, another offence's flagged, and the candidates for one set of
facts are ranked by how well the facts meet them (:mod:`verifiers.offence_fit`).
"""

from __future__ import annotations

from datetime import date

import pytest

from benchmarks.bench_judgment import text_32
from governor.api import Governor
from governor.authorities import load_default_store
from governor.core.config import load_config
from governor.core.models import Verdict
from governor.text.numerals import article_label

AS_OF = date(2023, 7, 1)

_DETAIN = "被告人甲为索要债务，将被害人乙强行带至一出租屋内看守，限制其离开达两日，期间对其殴打。"
_CRASH = "被告人甲驾驶小型轿车违反交通运输管理法规，撞倒行人乙，致其死亡，甲负事故全部责任。"
# real judgments write the theft verb (窃得) and rarely the statute's 盗窃 (the charge is masked)
_THEFT = (
    "经审理查明，2016年3月至5月，被告人刘某先后三次在某市某小区趁无人之机撬门入户，窃得被害人"
    "陈某现金3000元、金项链一条及手机一部，经鉴定价值人民币5400元。案发后，赃物已发还被害人。"
)
_ROAD = (
    "经审理查明，被告人王某驾驶重型货车在某国道行驶时，因超速行驶且未注意观察，与横过道路的行人"
    "李某相撞，致李某当场死亡。经交警部门认定，王某负事故全部责任。"
)
_ACCOMPLICE = (
    "经审理查明，被告人钱某与吴某事先预谋，由钱某望风、吴某入室，共同窃得被害人财物价值人民币"
    "8000元。钱某在共同犯罪中起次要作用，系从犯。"
)
_TWO_CHARGES = (
    "公诉机关指控：被告人郑某在其经营的茶楼内，多次容留吸毒人员吸食甲基苯丙胺，并向李某贩卖毒品"
    "甲基苯丙胺0.5克，获利300元。公诉机关认为，被告人郑某的行为已构成贩卖毒品罪、容留他人吸毒罪。"
)

# (facts, cited article, passes?)
ROWS = [
    (_DETAIN, "238", True),  # conduct clause held at 0.135: failed at 0.15
    (_DETAIN, "133", False),  # 交通肇事: none of its conduct in the facts
    (_CRASH, "133", True),
    (_CRASH, "238", False),
    # failed before the facts fit (rank > 20 by retrieval: irrelevant)
    (_THEFT, "264", True),
    (_THEFT, "133", False),
    (_THEFT, "35", False),  # 总则 (驱逐出境): no condition of it in the facts
    # failed before (partially_supports, rank 13)
    (_ROAD, "133", True),
    (_ROAD, "232", False),  # 故意杀人: a death alone is not its case
    # 总则 articles by the terms they define: 从犯 and 共同犯罪 stated, 主犯 not
    (_ACCOMPLICE, "27", True),
    (_ACCOMPLICE, "25", True),
    (_ACCOMPLICE, "26", False),  # passed before (rank 3)
    # each charge the facts name keeps its own article; another offence is flagged
    (_TWO_CHARGES, "354", True),
    (_TWO_CHARGES, "347", True),
    (_TWO_CHARGES, "264", False),
]


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor(load_config(overrides={}, environ={}), store=load_default_store())


def _verdict(gov: Governor, facts: str, article: str) -> Verdict:
    text = text_32(facts, f"中华人民共和国刑法{article_label(article)}")
    assert text is not None
    vs = [v for v in gov.verify(text, as_of=AS_OF) if v.citation.article == article]
    assert len(vs) == 1
    return vs[0]


@pytest.mark.parametrize(("facts", "article", "passes"), ROWS)
def test_application_to_facts(gov: Governor, facts: str, article: str, passes: bool) -> None:
    v = _verdict(gov, facts, article)
    assert v.passes is passes, v.applicability.rationale


@pytest.mark.parametrize(
    ("facts", "right", "wrong"),
    [
        (_THEFT, "264", ("133", "345", "35")),
        (_ROAD, "133", ("234", "232", "23")),
        (_DETAIN, "238", ("130", "262", "51")),
    ],
)
def test_the_right_article_ranks_first(
    gov: Governor, facts: str, right: str, wrong: tuple[str, ...]
) -> None:
    """The bench's rank key (item trust, applicability score): the right article strictly above
    each wrong one (before, every failing candidate scored 0.0: a tie)."""
    key = _verdict(gov, facts, right)
    for art in wrong:
        v = _verdict(gov, facts, art)
        assert (key.item_trust, key.applicability.score) > (
            v.item_trust,
            v.applicability.score,
        ), (art, v.applicability.rationale)


def test_a_failing_fit_is_graded_below_partial_support(gov: Governor) -> None:
    """A wrong offence article is ``irrelevant`` with a score that says how close it came: in
    [0, 0.5), below ``partially_supports``; the rationale names the best-fitting article."""
    v = _verdict(gov, _ROAD, "234")
    assert v.applicability.label == "irrelevant"
    assert v.applicability.score is not None
    assert 0.0 < v.applicability.score < 0.5
    assert "best 分则 article" in v.applicability.rationale
    assert not v.passes


def test_the_fit_grades_passing_candidates(gov: Governor) -> None:
    """Every passing candidate scores 1.0, so candidates for the same facts are ranked by the
    graded ``fit`` (:attr:`CheckResult.fit`): the ratio the rationale states for a 分则
    article, 1.0 for one whose charge the facts name, above a failing candidate's."""
    road = _verdict(gov, _ROAD, "133")
    assert road.passes and road.applicability.fit is not None
    assert (
        f"at {road.applicability.fit:.2f} of the best 分则 article" in road.applicability.rationale
    )
    named = _verdict(gov, _TWO_CHARGES, "354")
    assert named.applicability.fit == 1.0, named.applicability.rationale
    wrong = _verdict(gov, _ROAD, "234")
    assert wrong.applicability.fit is not None
    assert road.applicability.fit > wrong.applicability.fit
