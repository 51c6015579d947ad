"""Facts that are a civil case are a matter of the 民事诉讼法 and of the 民法典 (and the laws the
民法典 repealed), whatever instrument outscores them on the facts' words
(:mod:`verifiers.civil_case`; LexEval 3_2 lex32 round).

The facts are written the way civil judgments state them (原告…被告…转账…至今未退还; 被告经传票
传唤…拒不到庭), not copied from any label. Before, the 民法典 article was called 「not a matter of
its instrument」 because the 民事诉讼法's or a special law's family won the store-wide search on
the facts' words, and the 民事诉讼法's own article because the facts' words are the dispute's,
not its procedure's.
"""

from __future__ import annotations

from datetime import date

import pytest

from benchmarks.bench_judgment import text_32
from governor.api import Governor
from governor.authorities import load_default_store
from governor.core.config import load_config
from governor.core.models import Verdict
from verifiers.civil_case import governs_civil_case

AS_OF = date(2024, 6, 1)

_REFUND = (
    "审理查明，原告王某经朋友介绍与被告刘某相识，王某委托刘某为其儿子办理转学事宜。2022年3月5日、"
    "3月20日，王某分两次向刘某转账共计80000元。因刘某未办成转学事宜，王某要求刘某退还上述款项，"
    "刘某退还了30000元，剩余50000元至今未退还。"
)
_ABSENT = (
    "审理查明，2022年6月1日，被告陈某向原告赵某借款20000元，约定2022年12月31日前归还，被告出具借条"
    "一张。借款到期后被告未还款。被告陈某经本院传票传唤，无正当理由拒不到庭参加诉讼。"
)


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor(load_config(overrides={}, environ={}), store=load_default_store())


def _verdict(gov: Governor, facts: str, option: str, when: date = AS_OF) -> Verdict:
    text = text_32(facts, option)
    assert text is not None
    vs = [v for v in gov.verify(text, as_of=when) if not v.excluded]
    assert len(vs) == 1
    return vs[0]


@pytest.mark.parametrize(
    ("facts", "option"),
    [
        # 民法典 第九百八十五条 (不当得利): the money kept without ground; failed before, the
        # 民事诉讼法 family outscored the 民法典 on the facts' words
        (_REFUND, "中华人民共和国民法典第九百八十五条"),
        # 民事诉讼法 第一百四十七条 (缺席判决): the 被告 did not appear (passed before too)
        (_ABSENT, "中华人民共和国民事诉讼法第一百四十七条"),
        # 民事诉讼法 第六十七条 (当事人对自己提出的主张，有责任提供证据): failed before, the
        # facts' words are the dispute's (the 民法典's), not the procedure law's
        (_REFUND, "中华人民共和国民事诉讼法第六十七条"),
    ],
)
def test_the_laws_of_every_civil_case_apply_to_civil_facts(
    gov: Governor, facts: str, option: str
) -> None:
    v = _verdict(gov, facts, option)
    assert v.applicability.label == "supports", v.applicability.rationale
    assert v.passes


@pytest.mark.parametrize(
    "option",
    ["居住证暂行条例第四条", "中华人民共和国疫苗管理法第一条", "中华人民共和国刑法第二百六十六条"],
)
def test_other_instruments_are_still_judged_by_their_fit(gov: Governor, option: str) -> None:
    assert not _verdict(gov, _REFUND, option).passes


def test_only_civil_facts_and_the_civil_instruments() -> None:
    crim = "公诉机关指控，被告人张某于2022年3月5日窃得被害人李某手机一部，价值3000元。"
    code = {"中华人民共和国民法典"}
    assert governs_civil_case(crim, None, code, False) is None
    assert governs_civil_case(_REFUND, None, code, False) is not None
    assert governs_civil_case(_REFUND, "civil", {"中华人民共和国民事诉讼法"}, False) is not None
    assert governs_civil_case(_REFUND, None, {"中华人民共和国保险法"}, False) is None
    assert governs_civil_case(_REFUND, None, code, True) is None  # an administrative case


def test_a_law_the_civil_code_repealed_is_of_its_line(gov: Governor) -> None:
    # 合同法 第一百零七条 (违约责任) as of a day it was in force: failed before, the facts'
    # best family was another instrument's
    v = _verdict(gov, _REFUND, "中华人民共和国合同法第一百零七条", date(2020, 6, 1))
    assert v.applicability.label == "supports", v.applicability.rationale
