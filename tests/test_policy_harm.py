"""Issue 13 "do no harm" classes under ``proven`` (table-driven): notes name a candidate
only with distinctive-word proof, limit tokens are whole words, notes end a clause and are
never added twice, a 款 fix on an article judged wrong becomes the citation's one note."""

from __future__ import annotations

from datetime import date

import pytest

from governor.api import Governor
from governor.core.config import Config
from governor.revision.policy import RevisionPolicy, clause_end, distinct_share

AS_OF = date(2024, 6, 1)


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor(Config(edit_policy="proven"))


@pytest.mark.parametrize(
    ("said", "cited", "expected"),
    [
        # 「三人」 is part of 「第三人」: no limit token
        ("原告或者第三人认为人民法院不适格的", "人民法院审理上诉案件，应当组成合议庭", ()),
        # a range is not cut into 「以上二十万元」
        ("处五万元以上二十万元以下罚款", "责令改正", ("五万元", "二十万元")),
        (
            "不满十八周岁的子女",
            "对于年老、年幼、患病的人，负有扶养义务而拒绝扶养",
            ("不满十八周岁",),
        ),
    ],
)
def test_limit_tokens_are_whole_words(said: str, cited: str, expected: tuple[str, ...]) -> None:
    assert RevisionPolicy.absent_terms(said, cited) == expected


@pytest.mark.parametrize(
    ("text", "at", "expected"),
    [
        ("根据第四十七条，用人单位应当依照第四十三条的规定办理，并支付补偿。", 15, 26),
        ("根据第四十七条，用人单位应当支付补偿。", 18, 18),  # at the clause's end already
        ("规定：“甲。”因此，乙。", 7, 7),  # right after a closing quotation mark
        # a 「……的，」 condition is not an end: the note follows its consequence
        ("记录未处理的，不得申领驾驶证。", 6, 14),
        ("第十三条 记录未处理的，不得申领驾驶证，请注意。", 4, 19),
        ("有下列情形之一的，用人单位可以解除，但是应当通知。", 8, 17),
    ],
)
def test_a_note_ends_its_clause(text: str, at: int, expected: int) -> None:
    assert clause_end(text, at) == expected


@pytest.mark.parametrize(
    ("weights", "text", "share"),
    [
        ({"生效": 3.0, "通知": 1.0}, "应当及时通知保险人", 0.25),
        ({"生效": 3.0, "通知": 1.0}, "合同生效后通知", 1.0),
        ({}, "任何文字", 0.0),
    ],
)
def test_distinct_share_weighs_rare_words(
    weights: dict[str, float], text: str, share: float
) -> None:
    assert distinct_share(weights, text) == pytest.approx(share)


CASES = [
    (
        "shared words name no candidate (保险法 46: 「及时通知保险人」 is the law's vocabulary)",
        "根据《中华人民共和国保险法》第四十六条的规定，投保人应当及时通知保险人保险合同生效或者解除的情况。",
        (),
        ("可能应为",),
    ),
    (
        "a tie names no candidate (民法典 1209 and 1212 hold the same words)",
        "根据《民法典》第一千二百零三条第二款规定，机动车发生交通事故造成他人损害的，由机动车使用人或者管理人"
        "与机动车所有人、管理人与机动车使用人承担连带责任；机动车所有人、管理人与机动车使用人不一致的，由机动车"
        "所有人、管理人与机动车使用人承担连带责任。",
        (),
        ("第一千二百一十二条",),
    ),
    (
        "a 款 fix of a wrong article is one note, not a word change (劳动法 39)",
        "根据《中华人民共和国劳动法》第39条第3款规定，员工在工作期间发生打架等严重违纪行为，给单位造成重大损失"
        "的，单位可以解除劳动合同。",
        ("第39条第3款", "所引款项经核查不存在，且"),
        (),
    ),
    (
        "the successor of a repealed text the report does not describe is named only as the "
        "cited article's, said not to fit (合同法 106 is 混同)",
        "依据《合同法》第一百零六条，借款人应当按照约定的期限和方式归还借款。",
        ("废止", "所引原第一百零六条现为《民法典》第五百七十六条", "与所述内容不符"),
        ("相应规定见《民法典》第五百七十六条",),
    ),
    (
        "the successor of a repealed text the report does not describe is named only as the "
        "cited article's, said not to fit (合同法 15 is 要约邀请)",
        "根据《中华人民共和国合同法》第十五条规定，合同书面形式是指当事人以书面形式订立合同。",
        ("废止", "所引原第十五条现为《民法典》第四百七十三条", "与所述内容不符"),
        ("相应规定见《民法典》第四百七十三条",),
    ),
    (
        "a successor not shown to be the claim's rule is named as the cited article's "
        "(婚姻法 36 is 离婚后的父母子女关系, cited for moving a 户口: a hand-checked wrong "
        "「相应规定见」)",
        "根据《中华人民共和国婚姻法》第三十六条规定，您需要与母亲商量并提交相关申请，才能将户口恢复到原籍。",
        ("废止", "所引原第三十六条现为《民法典》第一千零八十四条"),
        ("相应规定见《民法典》第一千零八十四条",),
    ),
    (
        "a four-word claim moves nothing (劳动合同法 44 → 14 on 「终止无固定期限劳动合同」)",
        "根据《中华人民共和国劳动合同法》第四十七条规定，有下列情形之一的，用人单位应当支付经济补偿："
        "\n4. 根据本法第四十四条第一款规定终止无固定期限劳动合同的。",
        ("本法第四十四条第一款",),
        ("本法第十四条",),
    ),
    (
        "a 款 fix of a faithful article is applied (民法典 1063 has one 款)",
        "根据《民法典》第一千零六十三条第二款，夫妻一方的婚前财产为夫妻一方的个人财产。",
        ("《民法典》第一千零六十三条，",),
        ("第一千零六十三条第二款",),
    ),
    (
        "no 「与所述内容不符」 when the cited article's successor holds the report's words "
        "(合同法 11 → 民法典 469 「可以采用书面形式、口头形式或者其他形式」)",
        "法律依据：根据《中华人民共和国合同法》第十一条规定，合同的订立可以采用书面形式、口头形式或者其他形式。",
        ("《民法典》第四百六十九条",),
        ("与所述内容不符",),
    ),
    (
        "a repealed law's only text is not 「another version」: no 「现行版本已修改」; the "
        "current rule for the words is named (婚姻法 18 → 民法典 1063)",
        "1. 《婚姻法》第三十六条规定：夫妻一方的个人财产为夫妻一方的财产。",
        ("废止", "《民法典》第一千零六十三条"),
        ("现行版本已修改", "2001年版本"),
    ),
    (
        "no article named whose text negates a term of the report (物权法 106 / 民法典 311 are "
        "无处分权人; the report says 处分权人)",
        "根据《中华人民共和国物权法》第191条的规定，处分权人可以将不动产或者动产转让给受让人。",
        ("废止",),
        ("第一百零六条", "第三百一十一条"),
    ),
    (
        "a real law under a wrong name stays cited, its stored name in the note (held-out "
        "review: stripped as non-existent)",
        "根据《中华人民共和国残疾人权利保障法》第二十三条的规定，公共交通工具、公共场所应当按照规定为残疾人提供无障碍设施。",
        ("《中华人民共和国残疾人权利保障法》第二十三条", "名称相近的有《残疾人保障法》"),
        ("原引条文经核查不存在",),
    ),
    (
        "a shortened title is read as the stored one it shortens, not as the closest string",
        "根据《中华人民共和国地方各级人民代表大会组织法》第四十六条规定，县级以上地方各级人民代表大会常务委员会可以撤销本级人民政府的不适当的决定和命令。",
        ("名称相近的有《地方各级人民代表大会和地方各级人民政府组织法》",),
        ("全国人民代表大会组织法", "原引条文经核查不存在"),
    ),
    (
        "a title like no stored one is still a non-existent citation",
        "根据《中华人民共和国刑法执行法》第十条规定，犯罪分子应当接受改造。",
        ("原引条文经核查不存在",),
        ("名称相近", "《中华人民共和国刑法执行法》"),
    ),
    (
        "a clause of a sentence limited to some persons is no pin for the words without them "
        "(刑法第十七条之一 is about 已满七十五周岁的人: fresh review 45, harmful renumber)",
        "法律依据：\n1. 《中华人民共和国刑法》第十四条：故意犯罪应当负刑事责任。\n"
        "2. 《中华人民共和国刑法》第十五条：过失犯罪应当从轻或者减轻处罚。\n",
        ("《中华人民共和国刑法》第十五条",),
        ("第十七条之一",),
    ),
    (
        "a penalty shared with the cited article is no proof for pasting its text over another "
        "offence's conduct (刑法第三百五十八条's words under 第三百六十三条第一款: fresh review 45)",
        "问题：在某偏远村落，一些妇女被迫卖淫为生，生活异常困难。根据哪个法律法规，禁止卖淫、嫖娼，保护妇女权益？\n\n"
        "《中华人民共和国刑法》第三百六十三条第一款规定：“以营利为目的，组织、强迫他人卖淫的，处五年以上十年以下"
        "有期徒刑，并处罚金；情节严重的，处十年以上有期徒刑或者无期徒刑，并处罚金或者没收财产。”",
        ("组织、强迫他人卖淫",),
        ("淫秽物品",),
    ),
    (
        "a title with a qualifier dropped is not named as the broader law the store finds "
        "nothing of the subject in (《医疗保险法》 is not 《保险法》: rev42, harmful)",
        "根据《中华人民共和国医疗保险法》第三十条，参保人员在定点医疗机构发生的医疗费用，由医疗保险基金按照规定支付。",
        ("原引条文经核查不存在",),
        ("名称相近", "《保险法》"),
    ),
    (
        "a title with a qualifier dropped is named when the store finds its subject there "
        "(《商业票据法》: 票据法 holds the store's hits for 商业票据)",
        "根据《商业票据法》第二十二条，汇票必须记载下列事项：表明“汇票”的字样；无条件支付的委托；确定的金额。",
        ("名称相近的有《票据法》",),
        (),
    ),
    (
        "no limit note on an article that holds none of the claim (劳动法 87 is supervision; "
        "万分之五 is 社会保险法第八十六条's own rate)",
        "根据《中华人民共和国劳动法》第八十七条，用人单位未按时足额缴纳社会保险费的，由社会保险费征收机构责令其限期缴纳或者补足，并自欠缴之日起，按日加收万分之五的滞纳金。",
        ("万分之五",),
        ("并无「万分之五」的限定",),
    ),
    (
        "no limit note on a rule the article does not state (民法典1092 is 隐藏、转移…共同财产; "
        "「并无「一年」的限定」 implied the rest is the article's, review seed 33)",
        "根据《民法典》第一千零九十二条规定，夫妻一方请求离婚后禁止另一方在离婚后一年内以任何方式干涉或者妨碍其自由生活，但当事人另有约定的除外。",
        ("经核查，该条文并无上述内容",),
        ("的限定",),
    ),
    (
        "a rule-paraphrase ending in the charge the article defines is never 「并无上述内容」 "
        "(刑法261 defines 遗弃罪; its conditions are paraphrased)",
        "根据《刑法》第二百六十一条，父母遗弃年幼的子女，情节恶劣的，构成遗弃罪。",
        ("不尽一致",),
        ("并无上述内容",),
    ),
    (
        "a loose paraphrase with the article's own figure is never 「并无上述内容」 (道路交通安全法"
        "90 「处警告或者二十元以上二百元以下罚款」, review seed 33)",
        "根据《中华人民共和国道路交通安全法》第九十条，机动车驾驶人违反交通规则、操作不当或者违反交通信号灯指示，"
        "发生交通事故的，由公安机关交通管理部门或者交通警察责令当事人改正，并可以处二百元以下罚款。",
        (),
        ("并无上述内容",),
    ),
]


@pytest.mark.parametrize(("name", "text", "present", "absent"), CASES, ids=[c[0] for c in CASES])
def test_harm_classes(
    gov: Governor, name: str, text: str, present: tuple[str, ...], absent: tuple[str, ...]
) -> None:
    out = gov.govern(text, strategy="efa", as_of=AS_OF).text
    for s in present:
        assert s in out, out
    for s in absent:
        assert s not in out, out
    assert "请核实）（注：" not in out, out  # one note per citation, never stacked


def test_a_note_already_present_is_not_added_again(gov: Governor) -> None:
    text = "根据《行政诉讼法》第八十六条第二款规定，发现第三人认为人民法院不适格的，可以裁定转为普通程序。"
    once = gov.govern(text, strategy="efa", as_of=AS_OF).text
    twice = gov.govern(once, strategy="efa", as_of=AS_OF).text
    assert twice == once
    assert "「三人」" not in once


def test_a_candidate_must_hold_the_claims_act(gov: Governor) -> None:
    """Proof-based naming (:meth:`RevisionPolicy.candidate`) needs the candidate to hold the act
    of the claim's consequence (review seed 35: 道路交通安全法第九条 (登记) named for 「…由公安机关
    交通管理部门予以收缴」, 第九十六条's act). Calibrated candidates are not held to it: on dev 3-2
    the same rule dropped 29 right names for 8 wrong ones (names the reference 36.6 → 34.5 %)."""
    from governor.revision.policy import _holds_the_act

    said = (
        "使用伪造、变造或者盗窃的机动车登记证书、号牌，或者使用其他方法非法取得机动车登记证书、号牌的，"
        "由公安机关交通管理部门予以收缴"
    )
    a9 = gov.store.article("中华人民共和国道路交通安全法", "9", as_of=AS_OF)
    a96 = gov.store.article("中华人民共和国道路交通安全法", "96", as_of=AS_OF)
    assert a9 is not None and a96 is not None and "予以收缴" in a96.text
    assert not _holds_the_act(said, a9.text)
    assert _holds_the_act(said, a96.text)
    assert _holds_the_act("应当赔偿", a9.text)  # no act of four characters: not judged


REVIEW_AS_OF = date(2023, 7, 1)


@pytest.mark.parametrize(
    ("draft", "absent", "present"),
    [
        (
            # the candidate shares the conditions (登记证书、号牌), not the consequence 予以收缴:
            # 第九十六条 states it and outranks 第九条 (review seed 35, harmful)
            "问题：小明通过贿赂方式成功获得了机动车登记证书和号牌，但被交警查获。根据相关法律规定，公安机关应当如何"
            "处理小明的机动车登记证书和号牌？\n\n根据《中华人民共和国道路交通安全法》第九十五条的规定，使用伪造、变造"
            "或者盗窃的机动车登记证书、号牌，或者使用其他方法非法取得机动车登记证书、号牌的，由公安机关交通管理部门予以"
            "收缴。因此，公安机关应当收缴小明的机动车登记证书和号牌。\n",
            "第九条",
            "可能应为《道路交通安全法》第九十六条",
        ),
        (
            # 第一百零八条 (人身安全保护令) holds the conditions; 第一百一十八条 the 劝诫、制止
            "问题：小明是一名未成年人，他的父母经常熬夜打牌喝酒，对他的生活和学习造成了很大的困扰。根据哪条法律，"
            "未成年人的父母或者其他监护人不依法履行监护职责或者侵犯未成年人合法权益将面临什么处罚？\n\n"
            "根据《未成年人保护法》第72条，未成年人的父母或者其他监护人不依法履行监护职责或者侵犯未成年人合法权益的，"
            "由其所在单位或者居民委员会、村民委员会予以劝诫、制止；构成违反治安管理行为的，由公安机关依法给予行政处罚。\n",
            "第一百零八条",
            "可能应为《未成年人保护法》第一百一十八条",
        ),
        (
            # 第五十八条 is the 联合社's members' rule (the cooperative member's is 第六条)
            "问题：一家农民专业合作社计划购买一批新设备来提高生产效率，但有些成员出资不足导致无法完成购买。根据哪条"
            "法律规定，农民专业合作社成员的出资额有限制？\n\n根据《中华人民共和国农民专业合作社法》第十七条规定，"
            "农民专业合作社成员以其出资额为限对农民专业合作社承担责任。因此，农民专业合作社成员的出资额有限制。\n",
            "第五十八条",
            "并无上述内容",
        ),
    ],
)
def test_a_named_candidate_states_the_claims_rule(
    gov: Governor, draft: str, absent: str, present: str
) -> None:
    """A note names a candidate only when it states the claim's consequence and subject
    (``verifiers.candidate_rule``; review seed 35: three harmful names on dev 3-2 answers)."""
    out = gov.govern(draft, strategy="efa", as_of=REVIEW_AS_OF).text
    assert absent not in out
    assert present in out
