"""Garbled recitals judged faithful on word overlap (issue 21, class (c) of the silent review):
a consequence the provision does not grant (民法典第五百三十五条、第五百三十七条), a reason it does not
give (专利法第二十五条), one of its 下列情形 items widened (工伤保险条例第十六条). Each wrong sentence
is a dev LawBench answer's (tuning keys: 3-8 chatglm2-6b 47 and 87, 3-2 qwen-7b-chat 89) that
passed with no note and no edit on main 43d9be7; the right sentences next to them must stay
faithful. The statute text each case relies on is checked in the store.
"""

from __future__ import annotations

from datetime import date

import pytest

from governor.api import Governor
from governor.core.config import Thresholds
from tests.statute_text import checked_text
from verifiers.fidelity import foreign_consequence, widened_items

AS_OF = date(2023, 7, 1)
TH = Thresholds()


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor()


def _text(gov: Governor, inst: str, art: str, words: str) -> str:
    return checked_text(gov, inst, art, words, AS_OF)


def _one(gov: Governor, text: str, article: str):
    (v,) = [v for v in gov.verify(text, as_of=AS_OF) if v.citation.article == article]
    return v


def test_a_remedy_the_subrogation_article_does_not_grant_is_not_faithful(gov: Governor) -> None:
    """民法典第五百三十五条 is 代位权 (the creditor sues the debtor's debtor in its own name); it grants
    no 申请执行. Faithful at overlap before (chatglm2-6b 47)."""
    art = _text(gov, "中华人民共和国民法典", "535", "债权人可以向人民法院请求以自己的名义代位行使")
    assert "申请" not in art and "执行" not in art
    v = _one(
        gov,
        "问题：父亲欠债，法院判决让他还15000元，现在想还债，该从哪里开始？\n\n"
        "根据我国《民法典》第535条，债权人可以向人民法院申请执行，要求实现债权。",
        "535",
    )
    assert v.fidelity.label == "partially_faithful", v.fidelity.rationale
    assert "申请" in v.fidelity.rationale and v.item_trust < 1.0
    ok = _one(
        gov,
        "根据《民法典》第五百三十五条，因债务人怠于行使其到期债权，影响债权人的到期债权实现的，"
        "债权人可以向人民法院请求以自己的名义代位行使债务人对相对人的权利，但是该权利专属于债务人自身的除外。",
        "535",
    )
    assert ok.fidelity.label == "faithful", ok.fidelity.rationale


def test_enforcement_measures_are_not_the_remedy_of_article_537(gov: Governor) -> None:
    """民法典第五百三十七条: once 代位权 is upheld the 相对人 performs to the creditor; it lets the
    creditor request no 保全/强制执行 measures (chatglm2-6b 47)."""
    art = _text(gov, "中华人民共和国民法典", "537", "由债务人的相对人向债权人履行义务")
    assert "请求" not in art and "强制" not in art
    v = _one(
        gov,
        "根据《民法典》第537条，债务人未按期履行债务，债权人可以请求人民法院采取保全措施或者强制执行措施。",
        "537",
    )
    assert v.fidelity.label != "faithful", v.fidelity.rationale


def test_a_reason_the_patent_exclusion_does_not_give_is_not_faithful(gov: Governor) -> None:
    """专利法第二十五条 lists what is not patentable (（三）疾病的诊断和治疗方法) and gives no reason;
    「因缺乏新颖性」 is 第二十二条's test (qwen-7b-chat 3-2 89)."""
    art = _text(gov, "中华人民共和国专利法", "25", "疾病的诊断和治疗方法")
    assert "新颖" not in art
    v = _one(
        gov,
        "根据《专利法》第25条第1款规定，对于疾病的诊断和治疗方法，因缺乏新颖性而不授予专利权。",
        "25",
    )
    assert v.fidelity.label == "partially_faithful", v.fidelity.rationale
    ok = _one(
        gov, "根据《专利法》第二十五条第一款规定，对疾病的诊断和治疗方法，不授予专利权。", "25"
    )
    assert ok.fidelity.label == "faithful", ok.fidelity.rationale


def test_a_widened_exclusion_item_is_not_faithful(gov: Governor) -> None:
    """工伤保险条例第十六条（一）「故意犯罪的」: the report adds 「或者抗拒抓捕、逃避伤害」 and keeps
    the other items verbatim (chatglm2-6b 87)."""
    art = _text(gov, "工伤保险条例", "16", "（一）故意犯罪的")
    assert "抓捕" not in art
    lead = "根据《工伤保险条例》第十六条，职工有下列情形之一的，不得认定为工伤或者视同工伤："
    v = _one(
        gov,
        lead + "（一）故意犯罪或者抗拒抓捕、逃避伤害的；（二）醉酒或者吸毒的；（三）自残或自杀的。",
        "16",
    )
    assert v.fidelity.label == "partially_faithful", v.fidelity.rationale
    assert "抓捕" in v.fidelity.rationale
    ok = _one(gov, lead + "（一）故意犯罪的；（二）醉酒或者吸毒的；（三）自残或自杀的。", "16")
    assert ok.fidelity.label == "faithful", ok.fidelity.rationale


@pytest.mark.parametrize(
    ("consequence", "modality", "source", "hit"),
    [
        ("债权人可以向人民法院申请执行", "可以", "债权人可以向人民法院请求代位行使。", True),
        # a compound whose head the provision holds names the same thing (补偿金, 经济补偿)
        (
            "劳动者可以请求用人单位支付经济补偿金",
            "可以",
            "用人单位应当向劳动者支付经济补偿。",
            False,
        ),
        # one word the provision lacks is as often a synonym (提起 for 提出)
        ("可以向人民法院提起离婚诉讼", "可以", "也可以直接向人民法院提出离婚诉讼。", False),
        # an exception is no consequence granted (check 6 judges 但书)
        ("为夫妻共同财产，但法律规定为个人所有的财产除外", None, "为夫妻的共同财产。", False),
    ],
)
def test_foreign_consequence(
    consequence: str, modality: str | None, source: str, hit: bool
) -> None:
    assert (foreign_consequence(consequence, modality, source, TH) is not None) is hit


def test_widened_items_needs_the_provisions_item() -> None:
    src = "有下列情形之一的，不得认定为工伤：（一）故意犯罪的；（二）醉酒或者吸毒的。"
    assert widened_items("（一）故意犯罪或者抗拒抓捕、逃避伤害的；（二）醉酒或者吸毒的", src, TH)
    assert widened_items("（一）故意犯罪的；（二）醉酒或者吸毒的", src, TH) is None


def test_the_laws_own_frame_is_no_foreign_condition_or_remedy(gov: Governor) -> None:
    """劳动争议调解仲裁法第二十七条 sets the one-year limit; 「劳动者与用人单位发生劳动争议的」 is the
    scope of the whole law (第二条) and 仲裁委员会 its institution (22 of 54 articles): a paraphrase
    naming them states the article's rule (review seed 33 false alarm 「所述内容与该条文不完全一致」).
    A condition the law does not frame stays foreign."""
    scope = _text(
        gov, "中华人民共和国劳动争议调解仲裁法", "2", "用人单位与劳动者发生的下列劳动争议，适用本法"
    )
    assert "适用本法" in scope
    art = _text(gov, "中华人民共和国劳动争议调解仲裁法", "27", "劳动争议申请仲裁的时效期间为一年")
    assert "用人单位" not in art and "委员" not in art
    v = _one(
        gov,
        "根据《中华人民共和国劳动争议调解仲裁法》第二十七条规定，劳动者与用人单位发生劳动争议的，劳动者可以在"
        "知道或者应当知道权利被侵害之日起一年内向劳动争议仲裁委员会申请仲裁。",
        "27",
    )
    assert v.fidelity.label == "faithful", v.fidelity.rationale
    bad = _one(
        gov,
        "根据《中华人民共和国劳动争议调解仲裁法》第二十七条规定，劳动者被单位拖欠工资的，劳动者可以在"
        "知道或者应当知道权利被侵害之日起一年内向劳动争议仲裁委员会申请仲裁。",
        "27",
    )
    assert bad.fidelity.label != "faithful", bad.fidelity.rationale
