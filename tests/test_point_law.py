"""The wrong law for the point (issue 21, "wrong but silent"; ``verifiers.point_law``).

A law cited whole (no article) for a matter none of its articles names passed silently: the
words under it (「法条：【《农村土地承包法》】」, 「由司法部按照【刑事诉讼法】的规定处理」) state no rule,
so nothing was judged. Now the point — the report's words and the question's asking sentence —
is read against the cited law: its words of law the cited instrument never uses (引渡, 社会工作者,
医疗器械注册证 …), or the subject another law's title names (农村土地承包经营纠纷调解仲裁), held
near-verbatim by one article of another instrument, make the citation A ``irrelevant`` (L1.1.2)
with that article as the suggestion, and the note says 「《X》中未见上述规定，可能应为…」.

The rows are LawBench dev answers (3-2); each statute text is checked in the store. Every
flagged row fails on the code before this change (A ``skipped``: 「not judged: no source text
available」). A general law cited for a matter it governs in general terms is not flagged.
"""

from __future__ import annotations

from datetime import date

import pytest

from governor.api import Governor
from governor.core.config import Thresholds
from governor.core.labels import POINT_LAW_MARK
from governor.core.models import Verdict
from verifiers.point_law import subject_titles, title_stem

AS_OF = date(2023, 7, 1)


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor()


def _whole(gov: Governor, text: str, title: str) -> Verdict:
    (v,) = [
        v
        for v in gov.verify(text, as_of=AS_OF)
        if v.citation.article is None and v.citation.instrument == title
    ]
    return v


ARBITRATION = (
    "问题：一位村民在农村土地承包经营方面发生纠纷，决定通过调解和仲裁解决争议。根据哪个法律的规定，"
    "农村土地承包经营纠纷调解和仲裁应当具备哪些原则？\n\n法条：【《中华人民共和国农村土地承包法》】\n\n"
    "农村土地承包经营纠纷调解和仲裁应当具备以下原则：公开公正原则；自愿原则。\n"
)
OTC = (
    "问题：小李在药店购买感冒药，但是发现这种药在非处方药目录中并没有被发布。根据哪条法律规定，"
    "国家药品监督管理局需要负责非处方药目录的发布和调整工作？\n\n根据【《中华人民共和国药品管理法》】的"
    "规定，国家药品监督管理局负责非处方药目录的发布和调整工作。\n"
)
EXTRADITION = (
    "问题：一名外籍犯罪嫌疑人隐藏在中国国内，请求国向中国外交部提出引渡请求。根据法律规定，外交部对引渡请求"
    "进行审查后应该执行什么行动？\n\n根据《中华人民共和国刑事诉讼法》第19条的规定，对于应当追究刑事责任的外国人，"
    "应当由中华人民共和国的司法机关通过外交途径向该外国人所在国的司法机关送达刑事诉讼状和证据。因此，外交部在"
    "审查引渡请求后，应当将请求及相关材料转交给司法部，由司法部按照刑事诉讼法的规定处理。\n"
)
DEVICE = (
    "问题：某公司申请补发医疗器械注册证，但收到原发证机关的回复却超过了规定时间。根据哪个法规，"
    "原发证机关应当在多长时间内给予补发医疗器械注册证？\n\n因此，根据【《中华人民共和国行政许可法》】的"
    "规定，原发证机关应当在二十日内给予补发医疗器械注册证。\n"
)
SOCIAL_WORKERS = (
    "问题：学校发生了欺凌事件。根据哪个法律，教育行政部门可以如何预防欺凌？\n\n因此，根据"
    "【《中华人民共和国教育法》】的相关规定，教育行政部门鼓励学校聘请社会工作者进驻学校协助开展道德教育"
    "和预防欺凌行为。\n"
)
POLICE = (
    "问题：某市公安机关在办理一起刑事案件时，发现案件管辖和定性处理出现争议，需要与办案地和协作地公安机关进行"
    "协商。根据哪条法律规定，办案地和协作地公安机关对于案件管辖、定性处理等发生争议时应如何处理？\n\n"
    "法律依据：《中华人民共和国刑事诉讼法》\n\n具体法条内容：根据刑事诉讼法第一百六十三条的规定，办案地和协作地"
    "公安机关对于案件管辖、定性处理等发生争议时，应当及时协商解决。\n"
)


@pytest.mark.parametrize(
    ("text", "cited", "other", "article"),
    [
        (
            ARBITRATION,
            "中华人民共和国农村土地承包法",
            "中华人民共和国农村土地承包经营纠纷调解仲裁法",
            "5",
        ),
        (OTC, "中华人民共和国药品管理法", "处方药与非处方药分类管理办法（试行）", "4"),
        (EXTRADITION, "中华人民共和国刑事诉讼法", "中华人民共和国引渡法", None),
        (DEVICE, "中华人民共和国行政许可法", "医疗器械注册与备案管理办法", "97"),
        (SOCIAL_WORKERS, "中华人民共和国教育法", "中华人民共和国预防未成年人犯罪法", "21"),
        (POLICE, "中华人民共和国刑事诉讼法", "公安机关办理刑事案件程序规定", "356"),
    ],
)
def test_the_wrong_law_is_flagged_and_the_other_named(
    gov: Governor, text: str, cited: str, other: str, article: str | None
) -> None:
    v = _whole(gov, text, cited)
    assert v.applicability.label == "irrelevant"
    assert POINT_LAW_MARK in v.applicability.rationale
    assert "第1条" in v.applicability.rationale  # what the cited law governs
    assert "L1.1.2" in v.taxonomy
    assert v.suggestion is not None and v.suggestion.authority.instrument == other
    if article is not None:
        assert v.suggestion.authority.article == article


def test_the_statute_texts(gov: Governor) -> None:
    a5 = gov.store.article("中华人民共和国农村土地承包经营纠纷调解仲裁法", "5", as_of=AS_OF)
    assert a5 is not None and "农村土地承包经营纠纷调解和仲裁，应当公开、公平、公正" in a5.text
    a4 = gov.store.article("处方药与非处方药分类管理办法（试行）", "4", as_of=AS_OF)
    assert a4 is not None and "负责非处方药目录的遴选、审批、发布和调整" in a4.text
    a21 = gov.store.article("中华人民共和国预防未成年人犯罪法", "21", as_of=AS_OF)
    assert a21 is not None and "聘请社会工作者" in a21.text
    for title, word in (
        ("中华人民共和国刑事诉讼法", "引渡"),
        ("中华人民共和国药品管理法", "国家药品监督管理局"),
        ("中华人民共和国行政许可法", "医疗器械"),
        ("中华人民共和国教育法", "社会工作者"),
        ("中华人民共和国刑事诉讼法", "协作地"),
        ("中华人民共和国农村土地承包法", "调解仲裁"),
    ):
        assert all(word not in r.text for r in gov.store.articles(title, as_of=AS_OF))


def test_the_note_names_the_other_law(gov: Governor) -> None:
    out = gov.govern(ARBITRATION, strategy="efa", as_of=AS_OF).text
    assert (
        "《农村土地承包法》中未见上述规定，可能应为《农村土地承包经营纠纷调解仲裁法》第五条" in out
    )


GENERAL = [
    # 劳动法 governs 劳动合同 in general terms: 劳动合同法 is not named over it
    (
        "问题：公司要和我解除劳动合同，需要提前通知吗？\n\n根据《中华人民共和国劳动法》，用人单位解除劳动合同，"
        "应当提前三十日以书面形式通知劳动者本人。\n",
        "中华人民共和国劳动法",
    ),
    # 民法典 governs contracts of all kinds
    (
        "问题：买卖合同的买受人没有按期付款怎么办？\n\n根据《中华人民共和国民法典》，当事人一方不履行合同义务"
        "的，应当承担继续履行、采取补救措施或者赔偿损失等违约责任。\n",
        "中华人民共和国民法典",
    ),
]


# a law cited for a scene of the report's own (a nurse and a vaccine allergy) under a question
# about 红十字会's property: the matter the question names is not what the law is cited for
# (dev 3-2 chatglm2 205; it was flagged before the report's own words were required to hold it)
OWN_SCENE = (
    "问题：某红十字会义工在慰问老人的过程中，发现有人试图私分红十字会的物资。根据某某法的哪一条规定，"
    "任何组织和个人不得私分、挪用、截留或者侵占红十字会的财产？\n\n场景:某医院护士在给患者注射疫苗时，"
    "发现有些患者对疫苗过敏。根据《中华人民共和国疫苗管理法》的规定，对于这种情况，护士应该采取哪些措施？\n"
)
GENERAL.append((OWN_SCENE, "中华人民共和国疫苗管理法"))


@pytest.mark.parametrize(("text", "cited"), GENERAL)
def test_a_general_law_for_a_matter_it_governs_is_not_flagged(
    gov: Governor, text: str, cited: str
) -> None:
    v = _whole(gov, text, cited)
    assert POINT_LAW_MARK not in v.applicability.rationale


def test_a_title_names_a_subject_the_cited_law_never_uses(gov: Governor) -> None:
    assert title_stem("中华人民共和国引渡法") == "引渡"
    assert title_stem("处方药与非处方药分类管理办法（试行）") == "处方药与非处方药分类管理"
    arts = gov.store.articles("中华人民共和国劳动法", as_of=AS_OF)
    body = "".join(r.text for r in arts)
    # 劳动法 uses 劳动合同: 劳动合同法's subject is its own too
    named = subject_titles(
        "用人单位解除劳动合同应当提前通知",
        "中华人民共和国劳动法",
        body,
        gov.store,
        Thresholds().point_law_title_cover,
    )
    assert "中华人民共和国劳动合同法" not in named
    assert Thresholds().point_law_near > Thresholds().point_law_title_near
