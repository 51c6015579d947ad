"""Silent wrong paraphrases judged part by part (issue 21): a kind of penalty the provision does
not impose, a sanction claimed of a provision that imposes none, a trigger condition the
provision does not state. Each wrong sentence is a dev LawBench answer's (tuning keys: 3-8
qwen-7b-chat 95, 3-2 GPT-3.5 62, 3-8 chatglm2-6b 59, 3-2 chatglm2-6b 30) that passed with no
note before; the right sentences next to them must keep their verdicts. The statute text each
case relies on is checked in the store, so a case cannot pass on a store that lacks it.
"""

from __future__ import annotations

from datetime import date

import pytest

from governor.api import Governor
from governor.core.config import Thresholds
from tests.statute_text import checked_text
from verifiers.fidelity import foreign_condition, invented_penalty_kinds

AS_OF = date(2023, 7, 1)


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor()


def _text(gov: Governor, inst: str, art: str, words: str) -> str:
    return checked_text(gov, inst, art, words, AS_OF)


def test_a_life_sentence_the_article_does_not_impose_is_misdescribed(gov: Governor) -> None:
    """刑法第一百三十三条: 「因逃逸致人死亡的，处七年以上有期徒刑」 — no 无期徒刑; the numbers agree, so
    no number check fires (faithful / not assessed before)."""
    art = _text(gov, "中华人民共和国刑法", "133", "因逃逸致人死亡的，处七年以上有期徒刑")
    assert "无期徒刑" not in art
    (v,) = gov.verify(
        "问题：车祸撞死人逃逸后自首，法院会判实刑吗？\n\n如果法院判决实判，依据是《中华人民共和国刑法》"
        "第133条的规定，交通肇事逃逸后致人死亡的，处7年以上有期徒刑或者无期徒刑。",
        as_of=AS_OF,
    )
    assert v.fidelity.label == "misdescribed", v.fidelity.rationale
    assert "无期徒刑" in v.fidelity.rationale
    assert v.item_trust < 1.0
    (ok,) = gov.verify(
        "根据《中华人民共和国刑法》第一百三十三条，交通运输肇事后逃逸的，处三年以上七年以下有期徒刑。",
        as_of=AS_OF,
    )
    assert ok.fidelity.label == "faithful", ok.fidelity.rationale


@pytest.mark.parametrize(
    ("desc", "source", "added"),
    [
        ("处7年以上有期徒刑或者无期徒刑", "因逃逸致人死亡的，处七年以上有期徒刑。", ("无期徒刑",)),
        ("处三年以下有期徒刑、拘役或者管制", "处三年以下有期徒刑、拘役或者管制。", ()),
        # the penalty comes from another provision: the kinds it names are not all that apply
        ("处十年以上有期徒刑或者无期徒刑", "…的，依照前款的规定处罚。", ()),
        ("应当承担赔偿责任", "…的，处三年以下有期徒刑。", ()),
    ],
)
def test_invented_penalty_kinds(desc: str, source: str, added: tuple[str, ...]) -> None:
    assert invented_penalty_kinds(desc, source) == added


def test_a_fine_claimed_of_an_article_that_fines_no_one_is_noted(gov: Governor) -> None:
    """企业破产法第六十八条 lists the creditors' committee's powers and fines no one; the fine for a
    debtor's officer who refuses to attend is 第一百二十六条. A supports by rank before, no note."""
    art = _text(gov, "中华人民共和国企业破产法", "68", "债权人委员会行使下列职权")
    assert "罚" not in art
    _text(gov, "中华人民共和国企业破产法", "126", "罚款")
    text = (
        "问题：场景:一家公司申请破产，债务人的有关人员被传唤出席债权人会议，其中一名高管却拒绝出席"
        "并给出了无理由的解释。根据哪个法律条款，人民法院可以对拒不列席债权人会议的债务人有关人员处以"
        "罚款？\n\n如果债务人的有关人员拒不出席债权人会议，人民法院可以依据《中华人民共和国企业破产法》"
        "第六十八条对其处以罚款。"
    )
    (v,) = gov.verify(text, as_of=AS_OF)
    assert v.applicability.label == "irrelevant", v.applicability.rationale
    r = gov.govern(text, strategy="efa", as_of=AS_OF)
    assert "第六十八条对其处以罚款（注：" in r.text, r.text
    (ok,) = gov.verify(
        text.replace("第六十八条对其", "第一百二十六条对其"),
        as_of=AS_OF,
    )
    assert "imposes none" not in ok.applicability.rationale


def test_a_trigger_the_article_does_not_state_is_not_faithful(gov: Governor) -> None:
    """道路交通安全法第七十六条 has no 逆向行驶 trigger (faithful at 0.35 before): partially_faithful
    (a word the provision lacks may be a synonym of its own), and the reader is told; the same
    article's own 「非机动车驾驶人、行人没有过错的，由机动车一方承担赔偿责任」 stays faithful."""
    art = _text(gov, "中华人民共和国道路交通安全法", "76", "非机动车驾驶人、行人没有过错的")
    assert "逆向" not in art
    (v,) = gov.verify(
        "根据《中华人民共和国道路交通安全法》第七十六条的规定，逆向行驶的机动车发生交通事故的，"
        "机动车驾驶员应当承担事故责任。",
        as_of=AS_OF,
    )
    assert v.fidelity.label == "partially_faithful", v.fidelity.rationale
    assert "逆向" in v.fidelity.rationale
    r = gov.govern(
        "根据《中华人民共和国道路交通安全法》第七十六条的规定，逆向行驶的机动车发生交通事故的，"
        "机动车驾驶员应当承担事故责任。",
        strategy="efa",
        as_of=AS_OF,
    )
    # the reader is told: a note, or the report's words replaced by the provision's text
    told = "机动车驾驶员应当承担事故责任（注：" in r.text or (
        "逆向行驶" not in r.text and "非机动车驾驶人、行人没有过错的" in r.text
    )
    assert told, r.text
    (ok,) = gov.verify(
        "根据《中华人民共和国道路交通安全法》第七十六条规定，机动车与非机动车驾驶人、行人发生交通事故，"
        "非机动车驾驶人、行人没有过错的，由机动车一方承担赔偿责任；有证据证明非机动车驾驶人、行人有过错"
        "的，根据过错程度适当减轻机动车一方的赔偿责任。",
        as_of=AS_OF,
    )
    assert ok.fidelity.label == "faithful", ok.fidelity.rationale


def test_an_item_the_article_does_not_list_is_a_foreign_condition(gov: Governor) -> None:
    """律师法第四十九条's nine items hold no 「职业道德」; the report's own wording (share below
    ``fidelity_condition_restates``) is not judged."""
    art = _text(gov, "中华人民共和国律师法", "49", "泄露国家秘密的")
    th = Thresholds()
    got = foreign_condition(("有其他严重违反职业道德行为的",), art, th)
    assert got is not None and "道德" in got[1]
    assert foreign_condition(("律师有下列行为之一的", "泄露国家秘密的"), art, th) is None
    assert foreign_condition(("老板跑路的",), art, th) is None


def test_a_general_part_article_in_a_sentencing_list_is_not_given_a_penalty(gov: Governor) -> None:
    """刑法第六十七条 (坦白) imposes no penalty of its own: the 分则 article's sentence is not added
    to it (a JuDGE-style conclusion sentence keeps every article)."""
    assert (
        invented_penalty_kinds(
            "处三年以下有期徒刑", _text(gov, "中华人民共和国刑法", "67", "从轻处罚")
        )
        == ()
    )
