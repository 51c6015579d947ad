"""Issue 22 item 2: a rewrite is for wrong words on the right pin, never a substitution.

``rewrite_description`` replaced short claims of the report by a text of the cited article that
states another rule (tuning keys, ``review_sample --drafts 200 --n 80 --seed 41 --keys tuning
--tasks 3-8,3-2 --as-of 2023-07-01``): 民法典第五百七十四条 cited for 催告 got its 提存 text,
第五百三十五条 for 申请执行 its 代位权 text, 道路交通安全法第七十六条第二款 for 「…机动车驾驶人应当
承担赔偿责任」 its 「…故意碰撞机动车造成的，机动车一方不承担赔偿责任」. A rewrite now needs the new
text to restate the report's rule (:meth:`RevisionPolicy.same_rule`); else the reader keeps the
words and gets the misdescribed / partially-faithful note. Rewrites that correct the report's
rule (民法典第一千二百零九条's omitted conditions, 消费者权益保护法第二十五条's exceptions) stay.
"""

from __future__ import annotations

from datetime import date

import pytest

from governor.api import Governor
from governor.core.config import Config
from governor.revision.policy import RevisionPolicy
from tests.statute_text import checked_text

AS_OF = date(2023, 7, 1)
CIVIL = "中华人民共和国民法典"
ROAD = "中华人民共和国道路交通安全法"


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor(Config())


def _ops(result: object) -> list[tuple[str, str, str]]:
    return [(e.op, e.before, e.after) for r in result.rounds for e in r.edits]  # type: ignore[attr-defined]


def _policy(gov: Governor) -> RevisionPolicy:
    return RevisionPolicy(
        "proven", weigh=lambda w, inst: gov.store.word_weights(w, inst, as_of=AS_OF)
    )


@pytest.mark.parametrize(
    ("art", "marker", "claim"),
    [
        ("574", "领取提存物", "债权人可以随时催告债务人履行义务"),
        ("535", "代位行使债务人对相对人的权利", "债权人可以向人民法院申请执行，要求实现债权"),
        (
            "537",
            "人民法院认定代位权成立的",
            "债务人未按期履行债务，债权人可以请求人民法院采取保全措施或者强制执行措施",
        ),
    ],
)
def test_another_rule_of_the_article_is_not_pasted_over_the_claim(
    gov: Governor, art: str, marker: str, claim: str
) -> None:
    checked_text(gov, CIVIL, art, marker, AS_OF)
    text = (
        "问题：我父亲欠债，法院已经判决让他还15000元，现在想还债，该从哪里开始？\n\n"
        f"根据我国《民法典》第{art}条，{claim}。因此应当尽快履行判决。"
    )
    r = gov.govern(text, strategy="efa", as_of=AS_OF)
    assert marker not in r.text, r.text
    assert claim in r.text and "（注：" in r.text, r.text
    assert all(op != "rewrite_description" for op, _, _ in _ops(r)), _ops(r)


def test_a_negated_act_is_another_rule(gov: Governor) -> None:
    """道路交通安全法第七十六条第二款 says when the motor vehicle side is NOT liable: it never
    replaces a claim that it is."""
    checked_text(gov, ROAD, "76", "机动车一方不承担赔偿责任", AS_OF)
    claim = "机动车与非机动车驾驶人发生交通事故，造成行人受伤的，机动车驾驶人应当承担赔偿责任"
    text = (
        "问题：我在斑马线骑自行车过马路，与机动车相撞，谁承担责任？\n\n"
        f"《中华人民共和国道路交通安全法》第七十六条第二款规定：{claim}。"
    )
    r = gov.govern(text, strategy="efa", as_of=AS_OF)
    assert "故意碰撞机动车造成的，机动车一方不承担赔偿责任" not in r.text.split("（注：")[0], r.text
    assert claim in r.text and "（注：" in r.text, r.text


def test_a_rewrite_that_restores_the_rule_stays(gov: Governor) -> None:
    """民法典第一千二百零九条 in the report's words without 「因租赁、借用等情形」 and 「属于该机动车一方
    责任的」: the same rule, corrected from the text."""
    checked_text(gov, CIVIL, "1209", "属于该机动车一方责任的", AS_OF)
    text = (
        "问题：朋友的摩托车挂在我名下，他卖了车没过户，出了事故谁负责？\n\n"
        "根据《中华人民共和国民法典》第一千二百零九条，机动车所有人、管理人与使用人不是同一人时，"
        "发生交通事故造成损害的，由机动车使用人承担赔偿责任。"
    )
    r = gov.govern(text, strategy="efa", as_of=AS_OF)
    assert "属于该机动车一方责任的，由机动车使用人承担赔偿责任" in r.text, r.text
    assert any(op == "rewrite_description" for op, _, _ in _ops(r)), _ops(r)


def test_same_rule_on_the_statute_texts(gov: Governor) -> None:
    from governor.revision.policy import rule_head  # new in this change (main: no such check)

    pol = _policy(gov)
    art574 = checked_text(gov, CIVIL, "574", "领取提存物", AS_OF).split("\n")[0]
    ok, why = pol.same_rule("债权人可以随时催告债务人履行义务", art574, CIVIL)
    assert not ok and "rule head" in why, why
    art1209 = checked_text(gov, CIVIL, "1209", "属于该机动车一方责任的", AS_OF)
    ok, _ = pol.same_rule(
        "机动车所有人、管理人与使用人不是同一人时，发生交通事故造成损害的，由机动车使用人承担赔偿责任",
        art1209,
        CIVIL,
    )
    assert ok
    # a list with one wrong member is the same rule corrected (民法典第一千零六十三条)
    art1063 = checked_text(gov, CIVIL, "1063", "一方的婚前财产", AS_OF)
    said = (
        "夫妻一方的个人财产，应当包括一方的婚前财产、因身体受到伤害获得的医疗费、残疾人生活辅助具费等"
        "费用、遗嘱或者赠与合同中确定只归一方的财产、一方专用的生活用品以及其他应当归一方的财产"
    )
    head, members, _act, _main = rule_head(said)
    assert head == "夫妻一方的个人财产，应当包括一方的婚前财产"
    assert len(members) == 5
    assert pol.same_rule(said, art1063, CIVIL)[0]
    # the act negated in the new text: another rule
    art76 = checked_text(gov, ROAD, "76", "故意碰撞机动车", AS_OF).split("\n")[-1]
    ok, why = pol.same_rule(
        "机动车与非机动车驾驶人发生交通事故，造成行人受伤的，机动车驾驶人应当承担赔偿责任",
        art76,
        ROAD,
    )
    assert not ok and "negates" in why, why


def test_the_lead_of_the_reports_own_list_is_never_rewritten(gov: Governor) -> None:
    """Fresh review 39 (chatglm2-6b-hf 3-8, harmful): 「…第四十一条规定，裁减人员方案应当包括下列
    内容：」 then three invented items; 第四十一条's text pasted over the lead left them reading as
    the statute's (「…优先招用被裁减的人员。：（一）被裁减人员享有…」). The words stay, with a note."""
    labour = "中华人民共和国劳动合同法"
    checked_text(gov, labour, "41", "裁减人员方案经向劳动行政部门报告", AS_OF)
    text = (
        "问题：公司要裁员，需要走什么程序？\n\n"
        "但是，如果公司决定裁减人员，根据《劳动合同法》第四十一条规定，裁减人员方案应当包括下列内容：\n\n"
        "（一）被裁减人员享有本法第四十一条规定的给予补偿的义务；\n\n"
        "（二）公司依照本法第四十一条规定应当向被裁减人员支付的工资和社会保险费用；\n\n"
        "（三）公司依照本法第四十一条规定解除或者终止劳动合同的其他相关事项。\n"
    )
    r = gov.govern(text, strategy="efa", as_of=AS_OF)
    assert all(op != "rewrite_description" for op, _, _ in _ops(r)), _ops(r)
    assert "裁减人员方案应当包括下列内容" in r.text and "听取工会或者职工的意见后" not in r.text, (
        r.text
    )
    assert "（注：" in r.text, r.text
