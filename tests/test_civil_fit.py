"""A non-刑法 provision applied to stated facts (「本案应当适用《X》第N条」, LexEval 3_2 civil
form): judged by whether the facts are a matter of its instrument at all, against every
instrument of the store (:mod:`verifiers.civil_fit`).

The facts are written the way civil judgments state them (审理查明…借款…借条; 租赁…租金…至今未付),
not copied from any label. Before, the verifier ranked the cited article inside its own
instrument: some article of any instrument (商用密码管理条例, 电信条例) ranks first there, so the
wrong candidate passed, and the right 民法典 article, outranked inside the 1,260 articles of its
code, failed as irrelevant.
"""

from __future__ import annotations

from datetime import date

import pytest

from governor.api import Governor
from governor.authorities import load_default_store
from governor.core.config import load_config
from governor.core.models import Verdict
from tests.lexeval_32 import verdict_32

AS_OF = date(2024, 6, 1)

_LOAN = (
    "经审理查明，2021年5月10日，被告张某向原告李某借款人民币50000元，约定月利率1%，借期一年，"
    "被告向原告出具借条一张。借款到期后，经原告多次催讨，被告仅偿还利息3000元，借款本金至今未还。"
)
_LEASE = (
    "本院查明的事实如下：2021年至2022年12月，原告向被告出租挖掘机两台，用于被告承包工程的施工，"
    "双方约定每月租金20000元。被告共欠原告租金299300元，已经支付30000元，剩余租金269300元至今未付。"
)

ROWS = [
    (_LOAN, "中华人民共和国民法典第六百七十五条", True),  # failed before: irrelevant, rank > 20
    (_LOAN, "商用密码管理条例第十三条", False),
    (_LOAN, "中华人民共和国电信条例第三十条", False),
    (_LEASE, "中华人民共和国民法典第七百二十一条", True),
    (_LEASE, "中华人民共和国药品管理法第一百四十七条", False),
    (_LEASE, "中华人民共和国导弹及相关物项和技术出口管制条例第十条", False),
]


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor(load_config(overrides={}, environ={}), store=load_default_store())


def _verdict(gov: Governor, facts: str, option: str) -> Verdict:
    return verdict_32(gov, facts, option, AS_OF)


@pytest.mark.parametrize(("facts", "option", "passes"), ROWS)
def test_application_to_civil_facts(gov: Governor, facts: str, option: str, passes: bool) -> None:
    v = _verdict(gov, facts, option)
    assert v.passes is passes, v.applicability.rationale


def test_the_right_provision_ranks_first(gov: Governor) -> None:
    """The bench's rank key (item trust, applicability score): the right article strictly above
    each wrong one, and a wrong one is ``irrelevant`` with a graded score in [0, 0.5)."""
    key = _verdict(gov, _LOAN, "中华人民共和国民法典第六百七十五条")
    for option in ("商用密码管理条例第十三条", "中华人民共和国电信条例第三十条"):
        v = _verdict(gov, _LOAN, option)
        assert v.applicability.label == "irrelevant", v.applicability.rationale
        assert v.applicability.score is not None and 0.0 <= v.applicability.score < 0.5
        assert "best-fitting instrument" in v.applicability.rationale
        assert (key.item_trust, key.applicability.score) > (
            v.item_trust,
            v.applicability.score,
        ), (option, v.applicability.rationale)


def test_fit_is_one_store_wide_search_and_reads_no_instrument(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The user's path pays one search of the shipped global BM25 index: no instrument's
    articles are read to profile it (civil32 built TF-IDF profiles of every instrument on first
    use: 23 s and 1.4 GB for a 3-line report)."""
    from verifiers.civil_fit import instrument_fit

    store = load_default_store()
    calls: list[tuple[str | None, int]] = []
    search = store.search

    def counted(query: str, **kw: object) -> object:
        calls.append((kw.get("instrument"), kw.get("k")))  # type: ignore[arg-type]
        return search(query, **kw)  # type: ignore[arg-type]

    def no_articles(*_a: object, **_k: object) -> None:
        raise AssertionError("an instrument's articles were read to profile it")

    monkeypatch.setattr(store, "search", counted)
    monkeypatch.setattr(store, "articles", no_articles)
    fit = instrument_fit(store, "中华人民共和国民法典", _LOAN, as_of=AS_OF)
    assert [c[0] for c in calls] == [None]
    assert fit.ratio >= load_config(overrides={}, environ={}).thresholds.civil_fit_ratio, fit


def test_an_interpretation_fits_as_its_law_does() -> None:
    """A judicial interpretation governs the matters of the law it interprets: the 民事诉讼法's
    解释 and the 民事诉讼法 share one family score for the same facts (before, the 解释 was
    scored on its own articles and the two differed)."""
    from verifiers.civil_fit import instrument_fit

    store = load_default_store()
    law = instrument_fit(store, "中华人民共和国民事诉讼法", _LEASE, as_of=AS_OF)
    interp = instrument_fit(
        store, "最高人民法院关于适用《中华人民共和国民事诉讼法》的解释", _LEASE, as_of=AS_OF
    )
    assert law.ratio == interp.ratio
    assert law.score == interp.score > 0


# A criminal judgment's fact statement as LexEval 3_2 writes them (公诉机关指控 … 被告人), and a
# 刑事附带民事 one naming both kinds of party.
_THEFT = (
    "公诉机关指控，2016年4月19日凌晨1时许，被告人姚某某至某村在建院落内，推开钉在窗户上的木板"
    "进入院内盗窃木材，价值人民币3000元。"
)
_ANCILLARY = (
    "公诉机关指控，被告人王某驾驶小型轿车与被害人李某相撞，致李某受伤。附带民事诉讼原告人李某"
    "要求被告人王某赔偿医疗费。"
)


@pytest.mark.parametrize(
    "option",
    [
        # the 刑事诉讼法 family was the best family for loan facts (被告 ~ 被告人): all three passed
        "最高人民法院关于适用《中华人民共和国刑事诉讼法》的解释第一百八十八条",
        "中华人民共和国刑事诉讼法第十九条",
        "人民检察院刑事诉讼规则第六百四十六条",
    ],
)
def test_a_criminal_procedure_is_not_applied_to_civil_facts(gov: Governor, option: str) -> None:
    v = _verdict(gov, _LOAN, option)
    assert not v.passes
    assert v.applicability.label == "irrelevant"
    assert "criminal cases; the facts are a civil case" in v.applicability.rationale


def test_the_civil_procedure_still_applies_to_civil_facts(gov: Governor) -> None:
    """民事诉讼法第六十七条 (当事人对自己提出的主张，有责任提供证据) for the loan facts is kept."""
    assert _verdict(gov, _LOAN, "中华人民共和国民事诉讼法第六十七条").passes


def test_facts_proceeding_reads_the_parties() -> None:
    from verifiers.offence_fit import facts_proceeding

    assert facts_proceeding(_LOAN) == "civil"
    assert facts_proceeding(_LEASE) == "civil"
    assert facts_proceeding(_THEFT) == "criminal"
    assert facts_proceeding(_ANCILLARY) == "criminal"  # 附带民事诉讼原告人: a criminal case's party
    assert facts_proceeding("原告李某诉称，被告王某系另案被告人张某的雇主。") is None  # both kinds
    assert facts_proceeding("张三偷了邻居的自行车，构成什么罪？") is None


def test_case_kind_of_procedure_laws_and_the_criminal_law() -> None:
    from verifiers.civil_fit import case_kind

    store = load_default_store()
    assert case_kind(store, "最高人民法院关于适用《中华人民共和国刑事诉讼法》的解释") == "criminal"
    assert case_kind(store, "中华人民共和国刑法") == "criminal"
    assert case_kind(store, "中华人民共和国民事诉讼法") == "civil"
    assert case_kind(store, "中华人民共和国民法典") is None


def test_a_criminal_law_article_is_not_applied_to_civil_facts(gov: Governor) -> None:
    """A 刑法 分则 article for facts between a 原告 and a 被告 is not their case, whatever words it
    shares with them (3_2: 刑法第一百零六条 and 第一百六十七条 passed for civil facts)."""
    v = _verdict(gov, _LOAN, "中华人民共和国刑法第一百七十五条")
    assert v.applicability.label == "irrelevant"
    assert "civil case" in v.applicability.rationale
    theft = _verdict(gov, _THEFT, "中华人民共和国刑法第二百六十四条")
    assert theft.passes, theft.applicability.rationale


def test_a_repealed_law_is_scored_by_its_successor(gov: Governor) -> None:
    """合同法 (repealed by 民法典第一千二百六十条 on 2021-01-01) is not in the search as of 2024:
    its article scored 0 for loan facts. Its rules live on in the 民法典, so it takes the 民法典
    family's ratio; existence still says repealed (never kept), but it ranks above an instrument
    the facts do not fit."""
    from verifiers.civil_fit import in_force_successor, instrument_fit

    store = load_default_store()
    assert in_force_successor(store, "中华人民共和国合同法", AS_OF) == "中华人民共和国民法典"
    assert in_force_successor(store, "中华人民共和国合同法", date(2019, 1, 1)) == (
        "中华人民共和国合同法"
    )
    old = instrument_fit(store, "中华人民共和国合同法", _LOAN, as_of=AS_OF)
    new = instrument_fit(store, "中华人民共和国民法典", _LOAN, as_of=AS_OF)
    assert old.ratio == new.ratio > 0
    v = _verdict(gov, _LOAN, "中华人民共和国合同法第二百零六条")
    assert v.existence.label == "repealed" and not v.passes
    assert v.applicability.label == "supports", v.applicability.rationale
    assert "its rules live on in 《中华人民共和国民法典》" in v.applicability.rationale
    wrong = _verdict(gov, _LOAN, "商用密码管理条例第十三条")
    assert v.item_trust > wrong.item_trust


@pytest.mark.parametrize(
    "option",
    [
        "中华人民共和国行政诉讼法第七十条",  # passed on loan facts before (ratio 0.35)
        "最高人民法院关于适用《中华人民共和国行政诉讼法》的解释第七十六条",  # passed before
    ],
)
def test_an_administrative_procedure_law_is_not_applied_to_civil_facts(
    gov: Governor, option: str
) -> None:
    """The 行政诉讼法 family governs a challenge to an administrative act (its 第二条): loan facts
    between a 原告 and a 被告 that name no administrative act or organ are no such case (3_2 civil:
    行政诉讼法解释 and 行政诉讼证据规定 articles passed beside the right 民事诉讼法 article)."""
    v = _verdict(gov, _LOAN, option)
    assert v.applicability.label == "irrelevant", v.applicability.rationale
    assert "administrative cases" in v.applicability.rationale
    assert v.applicability.score == 0.0


def test_not_its_case_reads_the_parties_and_the_administrative_act() -> None:
    from verifiers.civil_fit import case_kind, not_its_case

    store = load_default_store()
    assert case_kind(store, "中华人民共和国行政诉讼法") == "administrative"
    assert case_kind(store, "最高人民法院关于行政诉讼证据若干问题的规定") == "administrative"
    assert not_its_case("administrative", _LOAN) == "civil"
    admin = "原告张某不服被告某市人力资源和社会保障局作出的工伤认定，申请行政复议后提起诉讼。"
    assert not_its_case("administrative", admin) is None  # may be an administrative case
    assert not_its_case("administrative", _THEFT) == "criminal"
    assert not_its_case("civil", _LOAN) is None
    assert not_its_case("criminal", _LOAN) == "civil"
    assert not_its_case("civil", "张三偷了邻居的自行车。") is None


_SALE = (
    "审理查明，2019年5月，原告向被告出售钢材一批，总价款人民币86000元，原告已依约交付货物，"
    "被告出具欠条一张，载明尚欠货款86000元。经原告多次催要，被告至今未付货款。"
)


def test_a_family_is_measured_by_its_best_hits_not_their_number(gov: Governor) -> None:
    """Unpaid-price facts are a matter of the 民法典 (第六百二十八条: 买受人应当按照约定的数额
    和支付方式支付价款). Summed over all its hits the 刑事诉讼法 family (~1,100 articles with
    its 解释, 被告 ~ 被告人) was the best one and the 民法典 stood at 0.05 of it, irrelevant;
    each family's best ``civil_fit_family_top`` hits put it above ``civil_fit_ratio``."""
    from verifiers.civil_fit import instrument_fit

    store = load_default_store()
    th = load_config(overrides={}, environ={}).thresholds
    v = _verdict(gov, _SALE, "中华人民共和国民法典第六百二十八条")
    assert v.passes, v.applicability.rationale
    every = instrument_fit(store, "中华人民共和国民法典", _SALE, as_of=AS_OF, top=None)
    best = instrument_fit(store, "中华人民共和国民法典", _SALE, as_of=AS_OF, top=30)
    assert every.ratio < th.civil_fit_ratio <= best.ratio, (every, best)
    wrong = _verdict(gov, _SALE, "中华人民共和国导弹及相关物项和技术出口管制条例第十条")
    assert not wrong.passes


def test_articles_of_one_instrument_are_graded_by_their_own_fit(gov: Governor) -> None:
    """Two 民法典 articles for loan facts share the instrument's fit, so both pass with score
    1.0; the graded ``fit`` (instrument ratio × the article's share of its instrument's best
    BM25 score, ``Thresholds.civil_fit_article_weight``) puts the loan article (第六百七十五条,
    借款人应当按照约定的期限返还借款) above the lease-rent one (第七百二十一条, 承租人应当按照约定的期限支付租金)."""
    loan = _verdict(gov, _LOAN, "中华人民共和国民法典第六百七十五条")
    rent = _verdict(gov, _LOAN, "中华人民共和国民法典第七百二十一条")
    assert loan.passes and rent.passes
    assert loan.applicability.score == rent.applicability.score == 1.0
    assert loan.applicability.fit is not None and rent.applicability.fit is not None
    assert loan.applicability.fit > rent.applicability.fit, (
        loan.applicability.rationale,
        rent.applicability.rationale,
    )
    assert "of its instrument's best article" in loan.applicability.rationale
