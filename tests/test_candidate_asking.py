"""Issue 22 item 1, naming what citegov knows (naming5): the question's candidates are ranked
with its asking sentence (:func:`verifiers.suggest.asking_sentence`, ``ask_rank``,
``Thresholds.candidate_paragraph_weight``); a move away from the article the question itself
singles out is not made on the report's words alone; the question's candidate at the naming
probability in another law than the words' candidate is preferred to it; a liability claim (「应当承担民事赔偿责任」,
``LIABILITY_CLAIM_RE``) does not rule a liability article out; a bare citation (no words of its
own) is not ruled off its own words.

The answers are dev LawBench 3-2 GPT-3.5 answers 009, 032, 205, 248 and 289 (the first half of the fitting
model's keys, where the weight was chosen) and chatglm2-6b 187 (a correct citation). Statute
texts checked with ``citegov corpus show … --as-of 2023-07-01``: 公司法（2018）第一百四十条
「无记名股票的转让，由股东将该股票交付给受让人后即发生转让的效力」 (第一百二十九条: 股票的转让
在依法设立的证券交易场所进行); 妇女权益保障法第十四条 「妇女享有与男子平等的选举权和被选举权」;
反家庭暴力法第三条 「…国家禁止任何形式的家庭暴力」 and 第二条 (the definition of 家庭暴力);
刑法第三十六条 (「…承担民事赔偿责任的犯罪分子…」); 证券法（2019）第一百零一条 (会员制证券交易所的
财产积累归会员所有).
"""

from __future__ import annotations

from datetime import date

import pytest

from governor.api import Governor
from governor.authorities import ArticleRecord
from governor.core.config import Config, Thresholds
from governor.text.regexes import LIABILITY_CLAIM_RE
from verifiers.suggest import (
    ask_coverage,
    ask_rank,
    asking_sentence,
    off_claim,
    sanction_mismatch,
    search_query,
    store_candidates,
)

AS_OF = date(2023, 7, 1)
COMPANY = "中华人民共和国公司法"

Q_009 = (
    "小明拥有一家公司的无记名股票，他准备将其出售给小红。根据哪个法条，无记名股票的转让可以生效？"
)
A_009 = "根据《中华人民共和国公司法》第一百四十五条的规定，无记名股票的转让可以生效。"
Q_248 = "某城市正在选举市长。根据哪个法律，妇女享有与男子平等的选举权和被选举权？"
A_248 = (
    "《中华人民共和国选举法》第十一条：凡具有中华人民共和国国籍的公民，年满十八周岁的妇女和男子，"
    "都有选举权和被选举权。"
)
Q_187 = (
    "小明是一个初中生，他的父亲因为工作压力过大时常对他进行暴力行为，导致他在家无法安心学习。"
    "根据哪一条法律，国家对于家庭暴力有何禁止规定？"
)
A_187 = (
    "根据《中华人民共和国反家庭暴力法》第三条，家庭暴力是指家庭成员之间以殴打、捆绑、残害、限制"
    "自由以及经常性谩骂、恐吓等方式实施的身体、精神等侵害行为。国家禁止任何组织或者个人实施"
    "家庭暴力。"
)


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor(Config())


def _top(hits: list[tuple[ArticleRecord, float]]) -> tuple[str, str]:
    rec = hits[0][0]
    return rec.instrument, rec.article


def test_asking_sentence_is_the_sentence_that_asks() -> None:
    assert asking_sentence(Q_009) == "根据哪个法条，无记名股票的转让可以生效？"
    assert asking_sentence("小明把车借给小红。小红撞了人。") == ""
    # several asking sentences are kept together, the facts left out
    q = "小明在商店被打伤。商店是否要赔偿？赔偿多少？"
    assert asking_sentence(q) == "商店是否要赔偿？赔偿多少？"


def test_ask_coverage_reads_the_best_paragraph(gov: Governor) -> None:
    rec = gov.store.article(COMPANY, "140", as_of=AS_OF)
    other = gov.store.article(COMPANY, "129", as_of=AS_OF)
    assert rec is not None and other is not None
    ask = asking_sentence(Q_009)
    assert ask_coverage(ask, rec) > ask_coverage(ask, other)
    assert ask_coverage("", rec) == 0.0


def test_asking_sentence_ranks_the_rule_asked_for(gov: Governor) -> None:
    # the facts (出售给小红) pull 第一百二十九条 (transfer on an exchange) to the top; the asking
    # sentence asks when a bearer share's transfer takes effect: 第一百四十条
    th = Thresholds()
    hits = store_candidates(
        gov.retriever,
        gov.store,
        search_query(Q_009),
        as_of=AS_OF,
        k=10,
        level_prior=th.candidate_level_prior,
        size_prior=th.candidate_size_prior,
    )
    assert _top(hits) == (COMPANY, "129")
    ranked = ask_rank(hits, asking_sentence(Q_009), th.candidate_paragraph_weight)
    assert _top(ranked) == (COMPANY, "140")
    assert ask_rank(hits, asking_sentence(Q_009), 0.0) == hits
    assert ask_rank(hits, "", th.candidate_paragraph_weight) == hits


@pytest.mark.parametrize(
    ("answer", "question", "named"),
    [
        (A_009, Q_009, "《公司法》第一百四十条"),
        (A_248, Q_248, "《妇女权益保障法》第十四条"),
    ],
)
def test_governed_note_names_the_article_the_question_asks_for(
    gov: Governor, answer: str, question: str, named: str
) -> None:
    # old code: nothing named (009: 第一百二十九条 below the naming probability; 248: 香港基本法
    # 第二十六条 ranked first by the facts)
    r = gov.govern(answer, strategy="efa", as_of=AS_OF, context=question)
    notes = [e.after for rd in r.rounds for e in rd.edits]
    assert any(f"可能应为{named}" in n for n in notes), notes


def test_no_move_away_from_the_article_the_question_singles_out(gov: Governor) -> None:
    # the words are 第二条's definition plus 第三条's ban; the question asks for the ban, and its
    # best provision store-wide is the cited 第三条: no renumber to 第二条 (old code renumbered)
    r = gov.govern(A_187, strategy="efa", as_of=AS_OF, context=Q_187)
    assert "《中华人民共和国反家庭暴力法》第三条" in r.text
    assert not any(e.op == "renumber" for rd in r.rounds for e in rd.edits)


Q_289 = "小明因为犯罪被判刑，同时也造成了被害人的经济损失。根据哪一条法律，犯罪分子应该承担民事赔偿责任？"
A_289 = "根据《中华人民共和国刑法》第二百三十六条的规定，犯罪分子应当承担民事赔偿责任。"


def test_a_liability_claim_is_no_mismatch_for_a_liability_article(gov: Governor) -> None:
    # 刑法第三十六条 (「…承担民事赔偿责任的犯罪分子，同时被判处罚金…」) is a penalty/liability
    # provision; a claim that states a liability (「应当承担民事赔偿责任」) rests on it, while a
    # claim of a bare right still does not (劳动合同法第三十六条 → 第八十五条 stays refused)
    rec = gov.store.article("中华人民共和国刑法", "36", as_of=AS_OF)
    assert rec is not None
    assert not sanction_mismatch("犯罪分子应当承担民事赔偿责任", rec.path, rec.text)
    assert not sanction_mismatch("侵权人应当赔偿被害人的经济损失", rec.path, rec.text)
    assert sanction_mismatch("用人单位与劳动者协商一致，可以变更劳动合同", rec.path, rec.text)
    assert LIABILITY_CLAIM_RE.search("应当依法承担连带责任")
    assert not LIABILITY_CLAIM_RE.search("劳动者享有平等就业的权利")


def test_governed_names_the_liability_article_for_a_liability_claim(gov: Governor) -> None:
    # old code: the question's candidate 刑法第三十六条 was ruled out as off the claim
    # (probability 0.15) and nothing was named
    r = gov.govern(A_289, strategy="efa", as_of=AS_OF, context=Q_289)
    assert "第三十六条" in r.text


Q_032 = (
    "一家实行会员制的证券交易所在经营过程中，积累了大量的财产。会员们开始争议如何分配这些财产。"
    "根据哪条法律，实行会员制的证券交易所的财产积累归会员所有，其权益由会员共同享有？"
)


def test_a_bare_citation_is_not_off_its_own_words(gov: Governor) -> None:
    # 「公司法第42条」 alone (dev 3-2 GPT-3.5 032) has no words that 证券法第一百零一条 could fail
    # to hold; a citation with words of another subject still rules another law out
    rec = gov.store.article("中华人民共和国证券法", "101", as_of=AS_OF)
    assert rec is not None
    assert off_claim("", Q_032, rec, other=True) == ""
    assert off_claim("著作权人享有发表权、署名权", Q_032, rec, other=True) != ""


def test_governed_note_names_the_question_candidate_for_a_bare_citation(gov: Governor) -> None:
    # old code: the candidate was ruled out as holding none of the citation's (absent) words
    r = gov.govern("公司法第42条", strategy="efa", as_of=AS_OF, context=Q_032)
    notes = [e.after for rd in r.rounds for e in rd.edits]
    assert any("可能应为《证券法》第一百零一条" in n for n in notes), notes


Q_205 = (
    "某红十字会义工在慰问老人的过程中，发现有人试图私分红十字会的物资。根据某某法的哪一条规定，"
    "任何组织和个人不得私分、挪用、截留或者侵占红十字会的财产？"
)
A_205 = (
    "根据《中华人民共和国慈善法》第四十一条规定，任何组织和个人不得私分、挪用、截留或者侵占"
    "慈善组织的财产。"
)


def test_the_question_candidate_in_another_law_is_preferred(gov: Governor) -> None:
    # dev 3-2 GPT-3.5 205 (keys 000-249): the words are 慈善法's own rule for 慈善组织 (the
    # judges' candidate from them), the question asks about 红十字会的财产: 红十字会法（2017）
    # 第二十五条 「任何组织和个人不得私分、挪用、截留或者侵占红十字会的财产」 reaches the naming
    # probability in another law. Old code kept the words' candidate (off the question, never
    # named) because it held the words a little better
    r = gov.govern(A_205, strategy="efa", as_of=AS_OF, context=Q_205)
    assert "红十字会法" in r.text and "第二十五条" in r.text
