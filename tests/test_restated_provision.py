"""A recital of the cited provision is not a wrong citation (review3 false alarms/harmful notes).

The report restates one 款 of the cited article near-verbatim (劳动合同法第八十二条第一款,
社会保险法第四十五条, 劳动合同法第三十七条, 婚姻法第二十七条 = 民法典第一千零七十二条): Applicability
must not be ``irrelevant`` because the question's retrieval ranks the article low, a bare repeat
of the same article in the 法律依据 line is judged as the recital, and no note says 「不符」.
The drafts are dev LawBench 3-8 answers past the first 100 keys (qwen-7b-chat 212, 386, 156,
159), read as of 2023-07-01; the reviewer judged each flag a false alarm against the statute.
"""

from __future__ import annotations

from datetime import date

import pytest

from governor.api import Governor
from governor.authorities import load_default_store
from governor.core.config import load_config

AS_OF = date(2023, 7, 1)
DRAFTS = {
    "qwen-7b-chat-hf_212": "问题：<|im_start|>user\n请回答下列问题，首先给出回答，然后给出对应的法律依据: \n单位没给签劳动合同，只签一个聘任合同，单位保险没给交。2020年3月开始至2023年2月28日想咨询一下单位补偿哪些东西？<|im_end|>\n<|im_start|>assistant\n\n单位应该支付未签订劳动合同的双倍工资差额，以及缴纳社会保险。根据《中华人民共和国劳动合同法》第八十二条规定，用人单位自用工之日起超过一个月不满一年未与劳动者订立书面劳动合同的，应当向劳动者每月支付二倍的工资。同时，根据《中华人民共和国社会保险法》第十条规定，用人单位应当自用工之日起三十日内为其职工向社会保险经办机构申请办理社会保险登记。因此，单位应该为员工缴纳社会保险。法律依据：《中华人民共和国劳动合同法》第八十二条规定，《中华人民共和国社会保险法》第十条规定。\n\n",
    "qwen-7b-chat-hf_386": "问题：<|im_start|>user\n请回答下列问题，首先给出回答，然后给出对应的法律依据: \n已经拿到解除劳动合同证明，但是社保状态公司还未及时更改，需要等状态更改再申请领取失业金还是可以直接申请<|im_end|>\n<|im_start|>assistant\n\n可以直接申请失业金。根据《中华人民共和国社会保险法》第四十五条规定，失业人员符合下列条件的，可以领取失业保险金：（一）失业前用人单位和本人已经缴纳失业保险费满一年的；（二）非因本人意愿中断就业的；（三）已经依法办理失业登记，并有求职要求的。因此，只要符合领取失业金的条件，就可以直接申请领取失业金，无需等待社保状态的更改。法律依据：《中华人民共和国社会保险法》第四十五条规定。\n\n",
    "qwen-7b-chat-hf_156": "问题：<|im_start|>user\n请回答下列问题，首先给出回答，然后给出对应的法律依据: \n我现在还在试用期想辞职，但是领导说不招到人接待我的位置，就不给我走。如果我不经过她同意我就不上班了我的工资还能拿到手吗？<|im_end|>\n<|im_start|>assistant\n\n您可以依法行使辞职权，但需要提前通知用人单位。根据《中华人民共和国劳动合同法》第三十七条规定，劳动者提前三十日以书面形式通知用人单位，可以解除劳动合同。因此，您可以提前一个月向领导提出辞职，并在辞职后继续上班，您的工资应该正常发放。如果单位未支付工资，您可以向当地的劳动监察部门投诉。\n\n",
    "qwen-7b-chat-hf_159": "问题：<|im_start|>user\n请回答下列问题，首先给出回答，然后给出对应的法律依据: \n我这边离婚，和男方有一个共同的孩子，还有一个是我带过去的，现在离婚需要支付抚养费吗带回去的闺女算继父女关系吗？<|im_end|>\n<|im_start|>assistant\n\n需要支付抚养费。根据《婚姻法》第三十七条规定，离婚后，一方抚养的子女，另一方应负担必要的生活费和教育费的一部或全部，负担费用的多少和期限的长短，由双方协议；协议不成时，由人民法院判决。对于带回去的闺女算继父女关系，根据《婚姻法》第二十七条规定，继父母与继子女间，不得虐待或歧视。继父母和继子女有相互抚养的义务。因此，离婚后，男方需要支付抚养费，具体数额和支付方式由双方协商或由人民法院判决。法律依据：《婚姻法》第三十七条、第二十七条规定。\n\n",
}


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor(load_config(overrides={}, environ={}), store=load_default_store())


@pytest.mark.parametrize(
    "name,article",
    [
        ("qwen-7b-chat-hf_212", "第八十二条"),
        ("qwen-7b-chat-hf_386", "第四十五条"),
        ("qwen-7b-chat-hf_156", "第三十七条"),
        ("qwen-7b-chat-hf_159", "第二十七条"),
    ],
)
def test_recital_and_its_bare_repeat_are_not_irrelevant(
    gov: Governor, name: str, article: str
) -> None:
    verdicts = [v for v in gov.verify(DRAFTS[name], as_of=AS_OF) if article in v.citation.raw]
    assert verdicts
    assert [v.applicability.label for v in verdicts] == ["supports"] * len(verdicts)


@pytest.mark.parametrize("name", ["qwen-7b-chat-hf_212", "qwen-7b-chat-hf_386"])
def test_no_conclusion_note_on_a_recital(gov: Governor, name: str) -> None:
    res = gov.govern(DRAFTS[name], strategy="efa", as_of=AS_OF)
    notes = [
        e.after
        for r in res.rounds
        for e in r.edits
        if "第四十五条" in e.before or "第八十二条" in e.before or e.op == "annotate"
    ]
    cited = {e.citation_id for r in res.rounds for e in r.edits}
    recited = {
        v.citation.id
        for v in gov.verify(DRAFTS[name], as_of=AS_OF)
        if "第八十二条" in v.citation.raw or "第四十五条" in v.citation.raw
    }
    assert not cited & recited, notes


def test_repeal_note_has_no_misfit_tail_for_a_bare_repeat(gov: Governor) -> None:
    res = gov.govern(DRAFTS["qwen-7b-chat-hf_159"], strategy="efa", as_of=AS_OF)
    stale = [e.after for r in res.rounds for e in r.edits if "原第二十七条" in (e.after or "")]
    assert stale and all("不符" not in s for s in stale), stale


def test_tax_law_subject_is_no_entitlement(gov: Governor) -> None:
    # chatglm2-6b 350: 个人所得税法第十二条 (第二款: 利息、股息、红利所得 由扣缴义务人代扣代缴)
    # was sent to 第五条's 减征 because both say 「个人所得税」, the law's own subject
    text = (
        "问题：取得利息，红利要交个人所得税时，是资方代为扣款再下发税后的钱到个人还是个人必须先"
        "缴纳税款后才能发放所得？\n\n根据《中华人民共和国个人所得税法》第十二条，取得利息、红利所得的，"
        "应当缴纳个人所得税。\n"
    )
    (v,) = gov.verify(text, as_of=AS_OF)
    assert v.applicability.label != "irrelevant", v.applicability.rationale
    assert "第5条" not in v.applicability.rationale


def test_a_list_item_that_took_the_conclusion_as_its_claim_repeats_the_recital(
    gov: Governor,
) -> None:
    """The same answer as the reader's tools render it (the question without the chat
    template): the 法律依据 item 《劳动合同法》第八十二条 takes the sentence before it
    (「因此，单位应该为员工缴纳社会保险。」, 社会保险法's conclusion) as its claim, and got
    「未能确认该条文支持上述结论」 (review6, judged harmful). Words it does not stand in are borrowed:
    it repeats the recital above, which 第一款 holds near-verbatim."""
    answer = DRAFTS["qwen-7b-chat-hf_212"].split("<|im_start|>assistant\n\n", 1)[1]
    text = (
        "问题：单位没给签劳动合同，只签一个聘任合同，单位保险没给交。2020年3月开始至2023年2月28日想"
        "咨询一下单位补偿哪些东西？\n\n" + answer
    )
    listed = [v for v in gov.verify(text, as_of=AS_OF) if "八十二" in v.citation.raw][-1]
    assert listed.applicability.label == "supports", listed.applicability.rationale
    assert "judged there" in listed.applicability.rationale
    r = gov.govern(text, strategy="efa", as_of=AS_OF)
    tail = r.text[r.text.index("法律依据：") :]
    assert "第八十二条规定（注" not in tail, tail
