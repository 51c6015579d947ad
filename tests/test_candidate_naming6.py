"""Issue 22, named candidates must be right (naming6): the asking sentence is matched to a
candidate without its asking formula (「根据哪一条法律规定」, 「请问」, 「吗？」:
:data:`verifiers.suggest.ASK_FORMULA_RE`), and a run-on sentence asks from 请问.

Dev LawBench answers of the gold set (benchmarks/data/gold_edits.jsonl): chatglm2-6b 3-2 021
(g0613), GPT-3.5 3-8 135 (g0612). Statute texts (``citegov
corpus show … --as-of 2023-07-01``): 公司法（2018）第一百八十条 「公司因下列原因解散：…（二）股东会
或者股东大会决议解散；…」, 第二十二条第一款 「公司股东会或者股东大会、董事会的决议内容违反法律、
行政法规的无效」; 劳动合同法第五十八条 (劳务派遣单位…订立二年以上的固定期限劳动合同).
"""

from __future__ import annotations

from datetime import date

import pytest

from governor.api import Governor
from governor.core.config import Config, Thresholds
from verifiers.suggest import (
    ASK_FORMULA_RE,
    ask_coverage,
    ask_rank,
    asking_sentence,
    search_query,
    store_candidates,
)

AS_OF = date(2023, 7, 1)
COMPANY = "中华人民共和国公司法"

Q_021 = "某股份有限公司股东在股东大会上决议解散公司。根据哪一条法律规定，公司可以因股东会或股东大会决议解散？"
Q_135 = "在公司工作12年，签订劳务派遣合同2年，后与公司签订5年期固定劳动合同请问职工能拿到2倍的赔偿金吗？"
A_135 = (
    "回答：根据劳动合同法的规定，职工在签订劳务派遣合同期满后，与公司再次签订固定期限劳动合同的，"
    "职工在解除劳动合同时可以获得2倍的经济补偿。\n\n法律依据：《中华人民共和国劳动合同法》第44条第1款："
    "“劳动者与用人单位解除劳动合同的，用人单位应当向劳动者支付经济补偿，经济补偿的标准为劳动者在"
    "岗位上工作的年限×当地月最低工资标准×2。”\n"
)


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor(Config())


def _notes(gov: Governor, draft: str, question: str) -> str:
    res = gov.govern(draft, strategy="efa", as_of=AS_OF, context=question)
    return res.text


def test_asking_formula_is_left_out() -> None:
    ask = asking_sentence(Q_021)
    assert ASK_FORMULA_RE.sub("", ask).strip("，") == "公司可以因股东会或股东大会决议解散"
    assert ASK_FORMULA_RE.sub("", "请问职工能拿到2倍的赔偿金吗？") == "职工能拿到2倍的赔偿金"


def test_run_on_sentence_asks_from_qingwen() -> None:
    assert asking_sentence(Q_135) == "请问职工能拿到2倍的赔偿金吗？"


def test_asking_formula_does_not_pick_the_article(gov: Governor) -> None:
    # 第二十二条第一款 holds 决议 and 法律 (违反法律…无效): with the formula it outranked 第一百八十条
    rec = gov.store.article(COMPANY, "180", as_of=AS_OF)
    other = gov.store.article(COMPANY, "22", as_of=AS_OF)
    assert rec is not None and other is not None
    ask = asking_sentence(Q_021)
    assert ask_coverage(ask, rec) > ask_coverage(ask, other)
    th = Thresholds()
    hits = store_candidates(
        gov.retriever,
        gov.store,
        search_query(Q_021),
        as_of=AS_OF,
        k=10,
        level_prior=th.candidate_level_prior,
        size_prior=th.candidate_size_prior,
        overlap_weight=th.candidate_overlap_weight,
    )
    ranked = ask_rank(hits, ask, th.candidate_paragraph_weight)
    assert (ranked[0][0].instrument, ranked[0][0].article) == (COMPANY, "180")


def test_facts_before_qingwen_name_no_article(gov: Governor) -> None:
    text = _notes(gov, A_135, Q_135)
    assert "第五十八条" not in text
    assert "注：" in text
