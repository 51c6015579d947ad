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
    denied_items,
    granted_denials,
    ignored_grades,
    joined_choices,
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
