"""Applicability of 「本案应当适用《X》第N条」 to stated facts (issue 21, LexEval 3_2 form).

The facts below are written from the statute texts (刑法第二百三十八条 非法拘禁, 第一百三十三条
交通肇事), not copied from any label: the right article is kept, another offence's flagged.
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

# (facts, cited article, passes?)
ROWS = [
    (_DETAIN, "238", True),  # conduct clause held at 0.135: failed at 0.15
    (_DETAIN, "133", False),  # 交通肇事: none of its conduct in the facts
    (_CRASH, "133", True),
    (_CRASH, "238", False),
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
