"""Silent wrong paraphrases that change what the provision's clause says (issue 21, "silence on
wrong ones"): a denial of what the clause states (民法典第一千零六十三条 「不包括」), both of two
remedies the clause makes a choice (第五百八十八条 「同时主张」), 「不论伤的轻重」 for a rule whose
article grades the penalty by the injury (刑法第二百三十四条), and a consequence the provision does
not attach to a condition the report states verbatim (第六百九十九条 「平均分摊」 behind a longer
condition), a grant of what the provision denies (劳动合同法第四十二条 「可以解除」), a quoted clause
the provision reads otherwise (继承法第五条), one sort's rule stated for the whole kind (继承法第十七条
「遗嘱应当由遗嘱人亲笔书写」). Each wrong sentence was called faithful or only partially faithful on main; the
payer (工伤保险条例第三十七条) and number (社会保险法第八十六条) cases are kept beside them as
regressions. The right sentences next to them — reordered words, a number in Arabic digits, the
payer the provision names — must stay faithful. The statute text each case relies on is checked
in the store.
"""

from __future__ import annotations

import pytest

from governor.api import Governor
from tests.statute_text import DEV_AS_OF, checked_text
from verifiers.clauses import (
    changed_references,
    denied_items,
    granted_denials,
    ignored_grades,
    joined_choices,
    swapped_parties,
    widened_kinds,
)

CIVIL = "中华人民共和国民法典"
CIVIL_1063 = (
    "下列财产为夫妻一方的个人财产：\n（一）一方的婚前财产；\n（二）一方因受到人身损害获得的赔偿或者"
    "补偿；\n（三）遗嘱或者赠与合同中确定只归一方的财产；\n（四）一方专用的生活用品；\n（五）其他应当"
    "归一方的财产。"
)
CIVIL_588 = (
    "当事人既约定违约金，又约定定金的，一方违约时，对方可以选择适用违约金或者定金条款。\n定金不足以"
    "弥补一方违约造成的损失的，对方可以请求赔偿超过定金数额的损失。"
)
CRIMINAL_234 = (
    "故意伤害他人身体的，处三年以下有期徒刑、拘役或者管制。\n犯前款罪，致人重伤的，处三年以上十年"
    "以下有期徒刑；致人死亡或者以特别残忍手段致人重伤造成严重残疾的，处十年以上有期徒刑、无期徒刑或者"
    "死刑。本法另有规定的，依照规定。"
)


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor()


def _one(gov: Governor, text: str) -> tuple[str, str]:
    (v,) = gov.verify(text, as_of=DEV_AS_OF)
    return v.fidelity.label, v.fidelity.rationale


@pytest.mark.parametrize(
    ("desc", "found"),
    [
        ("夫妻一方的个人财产不包括一方的婚前财产", ["不包括一方的婚前财产"]),
        (
            "夫妻一方的个人财产，不包括夫妻一方的婚前财产、遗嘱中确定只归一方的财产",
            ["不包括夫妻一方的婚前财产"],
        ),
        # the same words in another order, not denied
        ("一方的婚前财产属于夫妻一方的个人财产", []),
        # a denial of what the article does not address (夫妻共同财产): not this check's
        ("一方的婚前财产属于夫妻一方的个人财产，不属于夫妻共同财产", []),
    ],
)
def test_denied_items(desc: str, found: list[str]) -> None:
    assert [c.found for c in denied_items(desc, CIVIL_1063)] == found


LABOUR_42 = (
    "劳动者有下列情形之一的，用人单位不得依照本法第四十条、第四十一条的规定解除劳动合同：\n（一）从事"
    "接触职业病危害作业的劳动者未进行离岗前职业健康检查，或者疑似职业病病人在诊断或者医学观察期间的；\n"
    "（三）患病或者非因工负伤，在规定的医疗期内的；\n（四）女职工在孕期、产期、哺乳期的；"
)


@pytest.mark.parametrize(
    ("desc", "found"),
    [
        (
            "劳动者患病或者非因工负伤，在规定的医疗期内的，用人单位可以解除劳动合同",
            ["用人单位可以解除劳动合同"],
        ),
        # the provision's own denial
        (
            "劳动者患病或者非因工负伤，在规定的医疗期内的，用人单位不得依照本法第四十条的规定解除劳动合同",
            [],
        ),
        # a grant on a condition the clause does not state
        ("劳动者严重违反用人单位的规章制度的，用人单位可以解除劳动合同", []),
    ],
)
def test_granted_denials(desc: str, found: list[str]) -> None:
    assert [c.found for c in granted_denials(desc, LABOUR_42)] == found


@pytest.mark.parametrize(
    ("desc", "found"),
    [
        ("定金和违约金可以同时主张", ["定金和违约金可以同时主张"]),
        ("违约金和定金不能同时适用，对方可以选择适用违约金或者定金条款", []),
        ("守约方可以选择适用定金或者违约金", []),
    ],
)
def test_joined_choices(desc: str, found: list[str]) -> None:
    got = joined_choices(desc, CIVIL_588)
    assert [c.found for c in got] == found
    if found:
        assert got[0].statute == "对方可以选择适用违约金或者定金条款"


@pytest.mark.parametrize(
    ("desc", "found"),
    [
        (
            "故意伤害他人身体的，处三年以下有期徒刑、拘役或者管制，并不看伤的轻重",
            ["并不看伤的轻重"],
        ),
        ("故意伤害他人身体的，不论伤的轻重，都处三年以下有期徒刑、拘役或者管制", ["不论伤的轻重"]),
        (
            "故意伤害他人身体的，处三年以下有期徒刑、拘役或者管制；致人重伤的，处三年以上十年以下有期徒刑",
            [],
        ),
    ],
)
def test_ignored_grades(desc: str, found: list[str]) -> None:
    got = ignored_grades(desc, CRIMINAL_234)
    assert [c.found for c in got] == found
    if found:
        assert got[0].statute.startswith("致人重伤的，处三年以上十年以下有期徒刑")


def test_a_denial_of_what_the_article_lists_is_misdescribed(gov: Governor) -> None:
    """民法典第一千零六十三条 lists 一方的婚前财产 as a spouse's own property; the answer (dev
    chatglm2-6b 3-8 89, tuning keys) says the own property 不包括 it (faithful 0.52 before)."""
    assert checked_text(gov, CIVIL, "1063", "一方的婚前财产")
    label, why = _one(
        gov,
        "问题：婚前买的房子算谁的？\n\n根据《中华人民共和国民法典》第一千零六十三条，夫妻一方的个人财产"
        "不包括一方的婚前财产。",
    )
    assert label == "misdescribed", why
    assert "下列财产为夫妻一方的个人财产" in why
    label, why = _one(
        gov,
        "问题：婚前买的房子算谁的？\n\n根据《中华人民共和国民法典》第一千零六十三条，一方的婚前财产"
        "属于夫妻一方的个人财产。",
    )
    assert label == "faithful", why


def test_a_grant_of_what_the_article_denies_is_misdescribed(gov: Governor) -> None:
    """劳动合同法第四十二条: in the 医疗期 the employer 「不得…解除劳动合同」; the paraphrase says it
    「可以解除劳动合同」 (faithful 0.76 before)."""
    assert checked_text(gov, "中华人民共和国劳动合同法", "42", "在规定的医疗期内的")
    label, why = _one(
        gov,
        "问题：生病期间能被辞退吗？\n\n根据《劳动合同法》第四十二条，劳动者患病或者非因工负伤，在规定的"
        "医疗期内的，用人单位可以解除劳动合同。",
    )
    assert label == "misdescribed", why
    assert "用人单位不得依照本法第四十条、第四十一条的规定解除劳动合同" in why


def test_both_remedies_of_a_choice_is_misdescribed(gov: Governor) -> None:
    """民法典第五百八十八条: 「对方可以选择适用违约金或者定金条款」, one or the other; the answer has
    both (faithful 0.64 before), and the note quotes the provision."""
    assert checked_text(gov, CIVIL, "588", "可以选择适用违约金或者定金条款")
    text = (
        "问题：定金和违约金能一起要吗？\n\n根据《中华人民共和国民法典》第五百八十八条，当事人既约定"
        "违约金，又约定定金的，一方违约时，定金和违约金可以同时主张。"
    )
    label, why = _one(gov, text)
    assert label == "misdescribed", why
    r = gov.govern(text, strategy="efa", as_of=DEV_AS_OF)
    assert "「对方可以选择适用违约金或者定金条款」" in r.text


def test_regardless_of_the_grade_the_article_sets_is_misdescribed(gov: Governor) -> None:
    """刑法第二百三十四条 punishes 致人重伤 more heavily; 「并不看伤的轻重」 says the injury's degree
    does not matter (faithful 0.52 before)."""
    assert checked_text(gov, "中华人民共和国刑法", "234", "致人重伤的，处三年以上十年以下有期徒刑")
    label, why = _one(
        gov,
        "问题：打人会判多久？\n\n根据《刑法》第二百三十四条，故意伤害他人身体的，处三年以下有期徒刑、"
        "拘役或者管制，并不看伤的轻重。",
    )
    assert label == "misdescribed", why
    assert "致人重伤的" in why


def test_another_consequence_for_a_condition_stated_verbatim_is_misdescribed(
    gov: Governor,
) -> None:
    """民法典第六百九十九条: 「没有约定保证份额的，债权人可以请求任何一个保证人…承担保证责任」; 平均
    分摊 behind a longer condition (「两个保证人没有约定保证份额的」) was only partially faithful."""
    assert checked_text(gov, CIVIL, "699", "债权人可以请求任何一个保证人")
    for text in (
        "问题：两个保证人怎么承担？\n\n根据《民法典》第六百九十九条，两个保证人没有约定保证份额的，"
        "应当平均分摊保证责任。",
        "问题：两个保证人怎么承担？\n\n多个保证人的，按照约定的份额承担；没有约定保证份额的，平均分摊"
        "（《民法典》第六百九十九条）。",
    ):
        label, why = _one(gov, text)
        assert label == "misdescribed", why
        assert "债权人可以请求任何一个保证人" in why


def test_a_wrong_payer_and_a_wrong_rate_stay_misdescribed(gov: Governor) -> None:
    """Regressions: 工伤保险条例第三十七条 has 工伤保险基金 pay the 一次性工伤医疗补助金; 社会保险法
    第八十六条 charges 万分之五 a day."""
    assert checked_text(gov, "工伤保险条例", "37", "由工伤保险基金支付一次性工伤医疗补助金")
    assert checked_text(gov, "中华人民共和国社会保险法", "86", "按日加收万分之五的滞纳金")
    label, why = _one(
        gov,
        "问题：工伤补助金谁付？\n\n工伤职工的一次性工伤医疗补助金由用人单位支付（《工伤保险条例》第三十七条）。",
    )
    assert label == "misdescribed" and "工伤保险基金" in why, why
    label, why = _one(
        gov,
        "问题：社保滞纳金？\n\n用人单位未按时足额缴纳社会保险费的，按日加收千分之五的滞纳金"
        "（《社会保险法》第八十六条）。",
    )
    assert label == "misdescribed" and "万分之五" in why, why


@pytest.mark.parametrize(
    "text",
    [
        # the right rate in Arabic digits
        "问题：社保滞纳金？\n\n根据《社会保险法》第八十六条，用人单位未按时足额缴纳社会保险费的，按日加收"
        "万分之5的滞纳金。",
        # the payer the provision names
        "问题：工伤补助金？\n\n根据《工伤保险条例》第三十七条，劳动、聘用合同期满终止的，由用人单位支付"
        "一次性伤残就业补助金。",
        # the choice, said with the words reordered
        "问题：定金和违约金？\n\n根据《民法典》第五百八十八条，当事人既约定违约金，又约定定金的，一方"
        "违约时，对方可以选择适用定金或者违约金条款。",
        # 不得 for the provision's 禁止: the same prohibition
        "问题：童工？\n\n根据《劳动法》第十五条，用人单位不得招用未满十六周岁的未成年人。",
        # the provision's 不得 kept
        "问题：医疗期？\n\n根据《劳动合同法》第四十二条，劳动者患病或者非因工负伤，在规定的医疗期内的，"
        "用人单位不得依照本法第四十条的规定解除劳动合同。",
        # a right denial of what the article does not list as 共同财产
        "问题：婚前财产？\n\n根据《民法典》第一千零六十三条，一方的婚前财产不属于夫妻共同财产，而是夫妻一方"
        "的个人财产。",
        # the grade stated
        "问题：打人？\n\n根据《刑法》第二百三十四条，故意伤害他人身体的，处三年以下有期徒刑、拘役或者管制；"
        "致人重伤的，处三年以上十年以下有期徒刑。",
    ],
)
def test_right_paraphrases_stay_faithful(gov: Governor, text: str) -> None:
    label, why = _one(gov, text)
    assert label == "faithful", why


def test_a_quoted_clause_the_provision_reads_otherwise_is_misdescribed(gov: Governor) -> None:
    """继承法第五条: 「有遗赠扶养协议的，按照协议办理」; the quotation (dev chatglm2-6b 3-8 94, tuning
    keys) has 「有遗赠的，按照遗赠办理」 — 0.91 of the article verbatim, faithful before. A quote that
    words one clause otherwise with the same meaning (「之日起」 for 「时」) stays faithful."""
    assert checked_text(gov, "中华人民共和国继承法", "5", "有遗赠扶养协议的，按照协议办理")
    label, why = _one(
        gov,
        "问题：遗产怎么分？\n\n根据《中华人民共和国继承法》第五条规定：“继承开始后，按照法定继承办理；"
        "有遗嘱的，按照遗嘱继承或者遗赠办理；有遗赠的，按照遗赠办理。”",
    )
    assert label == "misdescribed", why
    assert "有遗赠的，按照遗赠办理" in why and "「有遗赠扶养协议的，按照协议办理」" in why
    label, why = _one(
        gov,
        "问题：合同何时成立？\n\n《中华人民共和国合同法》第三十二条规定：“当事人采用合同书形式订立合同的，"
        "自双方当事人签字或者盖章之日起合同成立。”",
    )
    assert label == "faithful", why


INHERITANCE_17 = (
    "公证遗嘱由遗嘱人经公证机关办理。\n自书遗嘱由遗嘱人亲笔书写，签名，注明年、月、日。\n代书遗嘱应当有两个"
    "以上见证人在场见证，由其中一人代书，注明年、月、日，并由代书人、其他见证人和遗嘱人签名。"
)


@pytest.mark.parametrize(
    ("desc", "widened"),
    [
        ("遗嘱应当由遗嘱人亲笔书写，签名，注明年、月、日", True),
        ("自书遗嘱由遗嘱人亲笔书写，签名，注明年、月、日", False),
        # a sentence of the article with no sorts: nothing to widen
        ("遗嘱人可以立口头遗嘱", False),
    ],
)
def test_widened_kinds(desc: str, widened: bool) -> None:
    got = widened_kinds(desc, INHERITANCE_17)
    assert bool(got) == widened
    if widened:
        assert got[0].statute == "自书遗嘱由遗嘱人亲笔书写，签名，注明年、月、日"


def test_one_sorts_rule_for_the_whole_kind_is_partially_faithful(gov: Governor) -> None:
    """继承法第十七条 sets 亲笔书写 for 自书遗嘱 only (公证, 代书, 录音, 口头 wills have their own
    rules); dev qwen-7b-chat 3-8 85 (tuning keys) says every will must be handwritten — faithful
    before."""
    assert checked_text(gov, "中华人民共和国继承法", "17", "自书遗嘱由遗嘱人亲笔书写")
    label, why = _one(
        gov,
        "问题：遗嘱怎么写才有效？\n\n根据《中华人民共和国继承法》第十七条，遗嘱应当由遗嘱人亲笔书写，"
        "签名，注明年、月、日。",
    )
    assert label == "partially_faithful", why
    assert "自书遗嘱由遗嘱人亲笔书写" in why
    label, why = _one(
        gov,
        "问题：遗嘱怎么写才有效？\n\n根据《中华人民共和国继承法》第十七条，自书遗嘱由遗嘱人亲笔书写，"
        "签名，注明年、月、日。",
    )
    assert label == "faithful", why


LABOUR_46 = (
    "有下列情形之一的，用人单位应当向劳动者支付经济补偿：\n（一）劳动者依照本法第三十八条规定解除劳动合同的；\n"
    "（二）用人单位依照本法第三十六条规定向劳动者提出解除劳动合同并与劳动者协商一致解除劳动合同的；\n"
    "（三）用人单位依照本法第四十条规定解除劳动合同的；\n（四）用人单位依照本法第四十一条第一款规定解除劳动合同"
    "的；\n（五）除用人单位维持或者提高劳动合同约定条件续订劳动合同，劳动者不同意续订的情形外，依照本法第四十四条"
    "第一项规定终止固定期限劳动合同的；\n（六）依照本法第四十四条第四项、第五项规定终止劳动合同的；\n（七）法律、"
    "行政法规规定的其他情形。"
)
PROPERTY_21 = "在业主、业主大会选聘物业服务企业之前，建设单位选聘物业服务企业的，应当签订书面的前期物业服务合同。"
CONTRACT_93 = "当事人协商一致，可以解除合同。当事人可以约定一方解除合同的条件。解除合同的条件成就时，解除权人可以解除合同。"
INJURY_33 = (
    "职工因工作遭受事故伤害或者患职业病需要暂停工作接受工伤医疗的，在停工留薪期内，原工资福利待遇不变，由所在"
    "单位按月支付。"
)
CONTRACT_426 = "居间人促成合同成立的，委托人应当按照约定支付报酬。"


@pytest.mark.parametrize(
    ("desc", "source", "statute"),
    [
        # 劳动合同法第四十六条（三）: the employer dismisses under 第四十条, not the worker
        (
            "劳动者依照本法第四十条规定解除劳动合同的，用人单位应当向劳动者支付经济补偿",
            LABOUR_46,
            "用人单位依照本法第四十条规定解除劳动合同的",
        ),
        # a counterpart the clause does not name (物业管理条例第二十一条: the contract is the
        # 建设单位's with the 物业服务企业 it chose)
        (
            "建设单位选聘物业服务企业的，应当与物业买受人签订书面的前期物业服务合同",
            PROPERTY_21,
            "应当签订书面的前期物业服务合同",
        ),
        # item (一) as it is: its party, its reference
        ("劳动者依照本法第三十八条规定解除劳动合同的，用人单位应当支付经济补偿", LABOUR_46, None),
        # a party of another sentence of the article (「当事人协商一致，可以解除合同」)
        ("当事人可以解除合同", CONTRACT_93, None),
        # 所在单位 is the worker's 用人单位: a determiner, no party of its own
        ("停工留薪期内，原工资福利待遇不变，由用人单位按月支付", INJURY_33, None),
        # 中介人 (民法典's word) for 合同法's 居间人: a word the cited law never uses
        ("中介人促成合同成立的，委托人应当按照约定支付报酬", CONTRACT_426, None),
        # both parties named in the clause
        ("用人单位与劳动者依照本法第四十条规定解除劳动合同的", LABOUR_46, None),
    ],
)
def test_swapped_parties(desc: str, source: str, statute: str | None) -> None:
    got = swapped_parties(desc, source, lambda w: w in source or w == "物业买受人")
    assert [c.statute for c in got] == ([statute] if statute else [])


STATE_COMP_35 = (
    "有本法第三条或者第十七条规定情形之一，致人精神损害的，应当在侵权行为影响的范围内，为受害人消除影响，恢复"
    "名誉，赔礼道歉；造成严重后果的，应当支付相应的精神损害抚慰金。"
)


@pytest.mark.parametrize(
    ("desc", "source", "statute"),
    [
        (
            "有本法第三条、第四条规定情形之一，致人精神损害的，应当为受害人消除影响",
            STATE_COMP_35,
            "有本法第三条或者第十七条规定情形之一",
        ),
        (
            "劳动者依照本法第四十四条第一项规定解除劳动合同的，用人单位应当支付经济补偿",
            LABOUR_46,
            "劳动者依照本法第三十八条规定解除劳动合同的",
        ),
        ("有本法第三条或者第十七条规定情形之一，致人精神损害的", STATE_COMP_35, None),
        # one of the two references, the one that applies: not judged
        ("有本法第十七条规定情形之一，致人精神损害的", STATE_COMP_35, None),
        # each item with its own reference (（三）, （六）)
        ("用人单位依照本法第四十条规定解除劳动合同的", LABOUR_46, None),
        ("依照本法第四十四条第四项、第五项规定终止劳动合同的", LABOUR_46, None),
        # the citation itself, after the law's name, is no cross-reference
        ("依照《劳动合同法》第四十六条规定，用人单位应当向劳动者支付经济补偿", LABOUR_46, None),
    ],
)
def test_changed_references(desc: str, source: str, statute: str | None) -> None:
    got = changed_references(desc, source)
    assert [c.statute for c in got] == ([statute] if statute else [])


def test_another_party_or_reference_in_a_restated_clause_is_misdescribed(gov: Governor) -> None:
    """Silent on main (faithful 0.96–0.97): dev qwen-7b-chat 3-8 146/261 and 3-2 264 write
    劳动合同法第四十六条（三） with 劳动者 for 用人单位, 3-8 150/414/429 write （一） with
    「第四十四条第一项」 for 「第三十八条」, qwen 3-8 251 has the 物业管理条例第二十一条 contract signed
    「与物业买受人」, chatglm2-6b 3-8 111 has 国家赔偿法第三十五条 refer to 「第三条、第四条」 (it
    refers to 第三条或者第十七条). The note quotes the provision's clause."""
    labour = "中华人民共和国劳动合同法"
    assert checked_text(gov, labour, "46", "用人单位依照本法第四十条规定解除劳动合同的")
    assert checked_text(gov, labour, "46", "劳动者依照本法第三十八条规定解除劳动合同的")
    assert checked_text(gov, "物业管理条例", "21", "应当签订书面的前期物业服务合同")
    assert "物业买受人" not in checked_text(gov, "物业管理条例", "21", "建设单位")
    assert checked_text(gov, "物业管理条例", "25", "物业买受人")
    assert checked_text(
        gov, "中华人民共和国国家赔偿法", "35", "有本法第三条或者第十七条规定情形之一"
    )
    cases = [
        (
            "问题：被辞退有补偿吗？\n\n根据《劳动合同法》第四十六条第（三）项，劳动者依照本法第四十条规定"
            "解除劳动合同的，用人单位应当向劳动者支付经济补偿。",
            "用人单位依照本法第四十条规定解除劳动合同的",
        ),
        (
            "问题：合同到期不续签有补偿吗？\n\n根据《劳动合同法》第四十六条，劳动者依照本法第四十四条第一项"
            "规定解除劳动合同的，用人单位应当向劳动者支付经济补偿。",
            "劳动者依照本法第三十八条规定解除劳动合同的",
        ),
        (
            "问题：前期物业合同谁签？\n\n根据《物业管理条例》第二十一条，在业主、业主大会选聘物业服务企业"
            "之前，建设单位选聘物业服务企业的，应当与物业买受人签订书面的前期物业服务合同。",
            "应当签订书面的前期物业服务合同",
        ),
        (
            "问题：精神损害能赔吗？\n\n根据《国家赔偿法》第三十五条，有本法第三条、第四条规定情形之一，致人"
            "精神损害的，应当在侵权行为影响的范围内，为受害人消除影响，恢复名誉，赔礼道歉。",
            "有本法第三条或者第十七条规定情形之一",
        ),
    ]
    for text, statute in cases:
        label, why = _one(gov, text)
        assert label == "misdescribed", why
        assert f"「{statute}」" in why, why
    r = gov.govern(cases[0][0], strategy="efa", as_of=DEV_AS_OF)
    assert "用人单位依照本法第四十条规定解除劳动合同的" in r.text


@pytest.mark.parametrize(
    "text",
    [
        "问题：被辞退有补偿吗？\n\n根据《劳动合同法》第四十六条，用人单位依照本法第四十条规定解除劳动合同的，"
        "用人单位应当向劳动者支付经济补偿。",
        "问题：辞职有补偿吗？\n\n根据《劳动合同法》第四十六条，劳动者依照本法第三十八条规定解除劳动合同的，"
        "用人单位应当向劳动者支付经济补偿。",
        "问题：前期物业合同？\n\n根据《物业管理条例》第二十一条，在业主、业主大会选聘物业服务企业之前，建设单位"
        "选聘物业服务企业的，应当签订书面的前期物业服务合同。",
        "问题：精神损害？\n\n根据《国家赔偿法》第三十五条，有本法第三条或者第十七条规定情形之一，致人精神损害的，"
        "应当为受害人消除影响，恢复名誉，赔礼道歉。",
        # the right payer in the determiner's words (所在单位)
        "问题：停工留薪期工资？\n\n根据《工伤保险条例》第三十三条，在停工留薪期内，原工资福利待遇不变，由用人单位"
        "按月支付。",
    ],
)
def test_right_parties_and_references_stay_faithful(gov: Governor, text: str) -> None:
    label, why = _one(gov, text)
    assert label == "faithful", why
