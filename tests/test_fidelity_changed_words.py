"""Silent recitals with words changed (issue 21): a predicate the provision grants denied by a
restatement that kept its negation, a count of the provision's noun stated otherwise, a
condition restated without the listed situations it is limited to. Each wrong sentence is a
dev LawBench 3-8 answer's (tuning keys: chatglm2-6b 3, qwen-7b-chat 15, chatglm2-6b 31) that
passed with no note before; the right sentences next to them must stay faithful. Last, a
citation with no words of its own repeating a mention described with another provision's
content (chatglm2-6b 90) is no longer passed on the question's retrieval alone. The statute
text each case relies on is checked in the store, so a case cannot pass on a store that lacks
it.
"""

from __future__ import annotations

from datetime import date

import pytest

from governor.api import Governor
from governor.core.labels import REPEAT_OF_MISDESCRIBED
from tests.statute_text import checked_text
from verifiers.facts import count_mismatches, denied_grants, dropped_causes

AS_OF = date(2023, 7, 1)

SI_27 = (
    "参加职工基本医疗保险的个人，达到法定退休年龄时累计缴费达到国家规定年限的，退休后不再缴纳基本"
    "医疗保险费，按照国家规定享受基本医疗保险待遇；未达到国家规定年限的，可以缴费至国家规定年限。"
)
CIVIL_1209 = (
    "因租赁、借用等情形机动车所有人、管理人与使用人不是同一人时，发生交通事故造成损害，属于该机动车"
    "一方责任的，由机动车使用人承担赔偿责任；机动车所有人、管理人对损害的发生有过错的，承担相应的"
    "赔偿责任。"
)


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor()


@pytest.mark.parametrize(
    ("desc", "source", "denied"),
    [
        # 缴纳 → 享受 after the kept 不再; the passage grants 享受基本医疗保险待遇
        (
            "参加职工医疗保险的个人，达到法定退休年龄时累计缴费达到国家规定年限的，退休后不再享受"
            "医疗保险待遇",
            SI_27,
            ("不再享受医疗保险待遇", "不再缴纳", "享受基本医疗保险待遇"),
        ),
        # the provision's own words: nothing denied
        (SI_27[:-1], SI_27, None),
        # another verb after the negation, but one the passage never grants: not judged here
        (
            "参加职工基本医疗保险的个人，达到法定退休年龄时累计缴费达到国家规定年限的，退休后不再"
            "办理基本医疗保险",
            SI_27,
            None,
        ),
        # a paraphrase (not a verbatim restatement) is not judged
        ("退休的人不用再享受医保", SI_27, None),
    ],
)
def test_denied_grants(desc: str, source: str, denied: tuple[str, str, str] | None) -> None:
    got = denied_grants(desc, source)
    if denied is None:
        assert got == ()
    else:
        assert [(g.found, g.negated, g.granted) for g in got] == [denied]
        assert source[got[0].source_start :].startswith(denied[2])


@pytest.mark.parametrize(
    ("desc", "source", "found"),
    [
        (
            "国家提倡一对夫妻生育一个子女",
            "国家提倡适龄婚育、优生优育。一对夫妻可以生育三个子女。",
            ["一个子女"],
        ),
        ("一对夫妻可以生育3个子女", "一对夫妻可以生育三个子女。", []),
        # 1个婴儿 and 一个婴儿 are the same count
        ("每多生育一个婴儿，增加产假15天", "生育多胞胎的，每多生育1个婴儿，增加产假15天。", []),
        # a noun the source does not count is not judged
        ("一个月内订立书面劳动合同", "应当自用工之日起一个月内订立书面劳动合同。", []),
        ("三名以上的人员", "由五名以上的单数仲裁员组成。", []),
    ],
)
def test_count_mismatches(desc: str, source: str, found: list[str]) -> None:
    assert [c.found for c in count_mismatches(desc, source)] == found


@pytest.mark.parametrize(
    ("desc", "facts", "dropped"),
    [
        (
            "机动车所有人、管理人与使用人不是同一人时，发生交通事故造成损害的，由机动车使用人承担赔偿责任",
            "我朋友的一辆摩托车挂在我的名下,他把车卖了没过户",
            ["因租赁、借用等情形"],
        ),
        # the question is one of the listed situations: the rule applies as stated
        (
            "机动车所有人、管理人与使用人不是同一人时，发生交通事故造成损害的，由机动车使用人承担赔偿责任",
            "我把车借给朋友，他撞了人",
            [],
        ),
        # the description keeps the situations
        (CIVIL_1209[:-1], "我朋友的一辆摩托车挂在我的名下", []),
        # the description is about another part of the article
        ("机动车所有人对损害的发生有过错的，承担相应的赔偿责任", "卖了没过户", []),
    ],
)
def test_dropped_causes(desc: str, facts: str, dropped: list[str]) -> None:
    assert [d.cause for d in dropped_causes(desc, CIVIL_1209, facts)] == dropped


def test_a_recital_denying_the_benefit_the_article_grants_is_misdescribed(gov: Governor) -> None:
    """社会保险法第二十七条: retired members who have paid long enough stop paying and keep the
    benefits; the answer says they no longer get the benefits (faithful at 0.80 before)."""
    assert checked_text(
        gov, "中华人民共和国社会保险法", "27", "退休后不再缴纳基本医疗保险费", AS_OF
    )
    head = "问题：我2011年退休了，还要自己交多少年医疗保险费？\n\n根据《中华人民共和国社会保险法》第二十七条，"
    wrong = (  # (「享受基本养老保险待遇」 after it would be a swapped term, verifiers.term_swap)
        "参加职工医疗保险的个人，达到法定退休年龄时累计缴费达到国家规定年限的，退休后不再享受医疗保险"
        "待遇。"
    )
    (v,) = gov.verify(head + wrong, as_of=AS_OF)
    assert v.fidelity.label == "misdescribed", v.fidelity.rationale
    assert "不再享受医疗保险待遇" in v.fidelity.rationale
    r = gov.govern(head + wrong, strategy="efa", as_of=AS_OF)
    assert "享受基本医疗保险待遇" in r.text  # the note names what the provision grants
    (ok,) = gov.verify(head + SI_27, as_of=AS_OF)
    assert ok.fidelity.label == "faithful", ok.fidelity.rationale


def test_a_count_the_article_states_otherwise_is_misdescribed(gov: Governor) -> None:
    """人口与计划生育法第十八条 (2021): 「一对夫妻可以生育三个子女」; the answer recites the repealed
    one-child wording (faithful at 0.66 before)."""
    assert checked_text(
        gov, "中华人民共和国人口与计划生育法", "18", "一对夫妻可以生育三个子女", AS_OF
    )
    head = "问题：能办第一胎的生育证明吗？\n\n根据《中华人民共和国人口与计划生育法》第十八条规定，"
    (v,) = gov.verify(
        head + "国家提倡一对夫妻生育一个子女。符合法律、法规规定条件的，可以要求安排再生育子女。",
        as_of=AS_OF,
    )
    assert v.fidelity.label == "misdescribed", v.fidelity.rationale
    assert "三个子女" in v.fidelity.rationale
    (ok,) = gov.verify(head + "一对夫妻可以生育三个子女。", as_of=AS_OF)
    assert ok.fidelity.label == "faithful", ok.fidelity.rationale


def test_a_condition_without_its_listed_situations_is_partially_faithful(gov: Governor) -> None:
    """民法典第一千二百零九条 holds for 租赁、借用等情形; the answer drops them for a vehicle sold and
    not transferred (第一千二百一十条's case). With a question about a lent car it stays faithful."""
    assert checked_text(gov, "中华人民共和国民法典", "1209", "因租赁、借用等情形", AS_OF)
    said = (
        "根据《中华人民共和国民法典》第一千二百零九条，机动车所有人、管理人与使用人不是同一人时，发生"
        "交通事故造成损害的，由机动车使用人承担赔偿责任。"
    )
    (v,) = gov.verify(
        "问题：朋友的摩托车挂在我的名下，他把车卖了没过户怎么办？\n\n" + said, as_of=AS_OF
    )
    assert v.fidelity.label == "partially_faithful", v.fidelity.rationale
    assert "因租赁、借用等情形" in v.fidelity.rationale
    (lent,) = gov.verify("问题：我把车借给朋友，他撞了人，谁赔？\n\n" + said, as_of=AS_OF)
    assert lent.fidelity.label == "faithful", lent.fidelity.rationale


LAND_90 = (
    "问题：我的房子是企业转制时的房屋，房产登记本是13年办的，土地使用权取得方式写的是“出让”有人说还"
    "需要缴纳土地出让金？\n\n回答： 根据《中华人民共和国城市房地产管理法》第三十八条，以出让方式取得的"
    "土地使用权，转让房地产时需要依照规定补缴土地使用权出让金。但是，对于企业转制时取得的房屋，其房产"
    "登记本是13年办的，因此不需要缴纳土地出让金。\n\n法律依据：《中华人民共和国城市房地产管理法》第三十八条\n"
)


def test_a_bare_repeat_of_a_provision_described_with_another_ones_content_is_noted(
    gov: Governor,
) -> None:
    """城市房地产管理法第三十八条 lists property that may not be transferred; the 出让金 rule the
    answer states is 第四十条's (划拨). Its bare 法律依据 repeat passed on the question's retrieval
    alone (dev LawBench 3-8 chatglm2-6b 90, tuning keys): it is now ``partially_supports`` and the
    note says what the check found — the report's words above are not the provision's."""
    art = checked_text(gov, "中华人民共和国城市房地产管理法", "38", "下列房地产，不得转让", AS_OF)
    assert "出让金" not in art
    checked_text(gov, "中华人民共和国城市房地产管理法", "40", "土地使用权出让金", AS_OF)
    first, bare = gov.verify(LAND_90, as_of=AS_OF)
    assert first.fidelity.label == "misdescribed", first.fidelity.rationale
    assert bare.applicability.label == "partially_supports", bare.applicability.rationale
    assert REPEAT_OF_MISDESCRIBED in bare.applicability.rationale
    r = gov.govern(LAND_90, strategy="efa", as_of=AS_OF)
    assert r.text.rstrip().endswith(
        "第三十八条（注：经核查，上文对该条文的表述与其内容不一致，请核实）"
    )


def test_a_bare_repeat_of_a_wrong_figure_is_judged_alone(gov: Governor) -> None:
    """A wrong figure in the right article's own text (三倍 for 二倍) is not another provision's
    content: the 法律依据 repeat of 劳动合同法第八十二条 keeps its own verdict."""
    checked_text(gov, "中华人民共和国劳动合同法", "82", "应当向劳动者每月支付二倍的工资", AS_OF)
    text = (
        "问题：公司一年没和我签劳动合同，能要什么补偿？\n\n根据《中华人民共和国劳动合同法》第八十二条，"
        "用人单位自用工之日起超过一个月不满一年未与劳动者订立书面劳动合同的，应当向劳动者每月支付三倍"
        "的工资。\n\n法律依据：《中华人民共和国劳动合同法》第八十二条\n"
    )
    first, bare = gov.verify(text, as_of=AS_OF)
    assert first.fidelity.label == "misdescribed", first.fidelity.rationale
    assert REPEAT_OF_MISDESCRIBED not in bare.applicability.rationale


def test_one_negation_governs_the_whole_list_it_heads(gov: Governor) -> None:
    """Fresh review 39 (qwen 3-2 335, harmful note): 医疗器械生产监督管理办法第二十四条 「不得伪造、
    变造、买卖、出租、出借…」 negates every member; 「不得买卖、出租、出借…」 leaves two out, it
    denies nothing the provision grants."""
    art = checked_text(gov, "医疗器械生产监督管理办法", "24", "不得伪造、变造、买卖", AS_OF)
    assert denied_grants("任何单位或者个人不得买卖、出租、出借医疗器械生产许可证", art) == ()
    text = (
        "问题：任何单位或个人是否可以买卖医疗器械生产许可证呢？\n\n"
        "根据《医疗器械生产监督管理办法》第二十四条规定，任何单位或者个人不得买卖、出租、出借医疗器械"
        "生产许可证。"
    )
    (v,) = gov.verify(text, as_of=AS_OF)
    assert "denies what the provision grants" not in v.fidelity.rationale, v.fidelity.rationale
