"""Regexes for checkable facts in provision text (numbers, dates, modality, 但书).

Kept beside the verifiers until the extraction grammar in ``governor/text/regexes.py`` settles;
same conventions: verbose mode, named groups, a comment per branch.
"""

from __future__ import annotations

import re

from governor.text import recache
from governor.text.regexes import ITEM_MARK

_CN = "零〇一二两三四五六七八九十百千万"

# Calendar dates: 2021年1月1日, 2021年1月, 1月1日 — masked before quantities are read so a
# year is never taken for a period of 2021 years.
DATE_EXPR = recache.compile(
    rf"""
    (?:[0-9０-９]{{4}}|[{_CN}]{{4}})年(?:[0-9０-９{_CN}]{{1,2}}月(?:[0-9０-９{_CN}]{{1,3}}[日号])?)?
    | [0-9０-９{_CN}]{{1,2}}月[0-9０-９{_CN}]{{1,3}}[日号]
    """,
    re.VERBOSE,
)

NUMBER_EXPR = recache.compile(
    rf"""
    (?P<pct>百分之[{_CN}]+(?:点[{_CN}]+)?                     # 百分之三十 (before ratios: 百 is a numeral)
        | [0-9０-９]+(?:\.[0-9]+)?\s*[%％])                   # 30% / 30％
    | (?P<den>[0-9０-９{_CN}]+)分之(?P<num>[0-9０-９{_CN}]+)   # 二分之一 = 1/2 (denominator first)
    | (?P<n>[0-9０-９]+(?:\.[0-9]+)?|[{_CN}]+)                # 3 / 三 / 一千
      (?P<unit>个工作日|工作日|个月|周岁|小时|万元|亿元|年|月|日|天|周|岁|倍|元|人|次)
    """,
    re.VERBOSE,
)

# Modal verbs, longest first so 不得/不可以/无权 win over 得/可以/有权 inside them.
MODAL = recache.compile(
    r"""
    不应当|不可以|应当|必须|可以|有权|无权|不得|禁止|严禁|不能|不应
    """,
    re.VERBOSE,
)

# A 但书: 但是… or 但… up to the end of the sentence (。；\n), ending in 除外/不在此限 or not;
# or an exception clause without 但 that closes the sentence (……，遇有……情形的除外。).
PROVISO = recache.compile(
    r"""
    [，,；;]\s*(?P<proviso>
        但(?:是)?[^。；;\n]+                        # 但(是)…: an exception or a limitation
      | [^，,。；;\n但]{2,80}?除外(?=[。；;\n]|$)    # …的除外 closing the sentence
    )
    """,
    re.VERBOSE,
)

# A 但书 is decisive (it carves an exception out of the rule) when it says 除外 / 不在此限 /
# 另有规定 / 另有约定; a plain contrastive 但 (但应当…) adds a duty rather than an exception.
DECISIVE_PROVISO = recache.compile(
    r"""
    除外                      # 但是…的除外
    | 不在此限                # 但…的，不在此限
    | 另有(?:规定|约定)       # 但是法律另有规定的 / 但是当事人另有约定的
    """,
    re.VERBOSE,
)

# Words of a claim that generalise a rule beyond any qualification (claim overreach).
UNIVERSAL = recache.compile(
    r"""
    在任何情况下 | 任何情况下 | 无论(?:如何|何种|什么)       # "in any case"
    | 一律 | 一概 | 概不 | 均(?:可|应|须|不得) | 都(?:可以|应当|必须|不得)  # "always / all"
    | 所有(?![权人者制]) | 任何 | 一切 | 凡是 | 必然 | 绝对     # not 所有权/所有人
    """,
    re.VERBOSE,
)

# Words of a provision that restrict its scope (so a universal claim overreaches it).
SCOPE = recache.compile(
    r"""
    仅(?:限)? | 限于 | 只(?:有|能|限)                     # only / limited to
    | 除外 | 不在此限 | 另有规定 | 另有约定                # 但书
    | 下列情形(?:之一)? | 有下列 | 之一的                  # enumerated conditions
    | 符合.{0,12}?条件 | 经.{0,12}?(?:同意|批准|登记|许可)  # conditions precedent
    | [^。；\n]{2,40}?的，                                  # a leading condition "……的，"
    """,
    re.VERBOSE,
)

# Markers that a sentence applies a provision to the facts of a case rather than stating what
# the provision says: persons of the case (小王, 张某, 甲公司), the user addressed, 本案.
CASE_FACTS = recache.compile(
    r"""
    小[王李张刘陈杨赵黄周吴徐孙马朱胡郭何林高罗郑梁谢宋唐许韩冯邓曹彭曾明红刚华丽芳强军美]
    | [王李张刘陈杨赵黄周吴徐孙马朱胡郭何林高罗郑梁谢宋唐许韩冯邓曹彭曾][某]{1,2}
    | [甲乙丙丁](?:方|公司|某|先生|女士)                     # 甲方, 乙公司
    | 你|您|本案|该案|此案                                    # the user addressed; the case
    # (我 is left out: in answers it is the writer's voice, 根据我所了解…, not a party)
    """,
    re.VERBOSE,
)


# --- oppositions: terms whose swap inverts a rule (fidelity, polarity check) ----------------
#
# Each entry: (name, terms of one side, terms of the other side, source). A description that
# restates a source clause verbatim except for one term of a side where the source has a term
# of the other side states the opposite rule. Terms of one side are interchangeable (之后 =
# 以后); pairs are only listed where the law gives the two sides different consequences.
_OBLIGATION = ("应当", "必须")
_PERMISSION = ("可以", "有权")
_PROHIBITION = ("不得", "禁止", "严禁", "无权", "不能", "不可以", "不应当")
MODALS = frozenset((*_OBLIGATION, *_PERMISSION, *_PROHIBITION))
"""The modal words of PRC drafting (应当/必须, 可以/有权, 不得/禁止 …)."""
_AT_LEAST = (
    "以上",
    "不低于",
    "不少于",
    "已满",
)  # 民法典第一千二百五十九条: 以上 includes the number
_AT_MOST = ("以下", "以内", "不高于", "不多于", "不超过")  # 以下/以内 include it
_MORE = ("超过", "高于", "多于", "以外")  # 超过/以外 exclude it
_LESS = ("低于", "少于", "不足", "不满", "未满")  # 不满 excludes it
_VALIDITY = ("有效", "无效", "可撤销", "效力待定")
_LIABILITY = ("连带", "按份", "一般", "补充")
_SENTENCING = ("从轻", "减轻", "从重", "加重", "免除")
_ROLES = (
    ("债权人", "债务人"), ("出租人", "承租人"), ("出卖人", "买受人"), ("用人单位", "劳动者"),
    ("原告", "被告"), ("抵押人", "抵押权人"), ("出质人", "质权人"), ("委托人", "受托人"),
    ("赠与人", "受赠人"), ("出借人", "借款人"), ("贷款人", "借款人"), ("发包人", "承包人"),
    ("转让人", "受让人"), ("继承人", "被继承人"), ("上诉人", "被上诉人"),
)  # fmt: skip


def _pairs(terms: tuple[str, ...]) -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
    return tuple(((a,), (b,)) for i, a in enumerate(terms) for b in terms[i + 1 :])


OPPOSITIONS: tuple[tuple[str, tuple[str, ...], tuple[str, ...], str], ...] = (
    # modality: 立法技术规范（试行）(全国人大常委会法工委 2009) 应当/可以/不得
    ("modality", _OBLIGATION, _PERMISSION, "立法技术规范（试行）"),
    ("modality", _OBLIGATION, _PROHIBITION, "立法技术规范（试行）"),
    ("modality", _PERMISSION, _PROHIBITION, "立法技术规范（试行）"),
    # numeric bounds: 民法典第一千二百五十九条 (以上/以下/以内/届满 include the number,
    # 不满/超过/以外 do not)
    ("bound", _AT_LEAST, _AT_MOST, "民法典第一千二百五十九条"),
    ("bound", _AT_LEAST, _LESS, "民法典第一千二百五十九条"),
    ("bound", _AT_MOST, _MORE, "民法典第一千二百五十九条"),
    ("bound", _MORE, _LESS, "民法典第一千二百五十九条"),
    # time: before vs after a reference event
    ("time", ("之前", "以前"), ("之后", "以后"), "issue #4 (期间起算)"),
    # form of a juristic act: 民法典第一百三十五条、第四百六十九条
    ("form", ("书面",), ("口头",), "民法典第一百三十五条"),
    # consideration: 民法典第六百五十七条 (赠与), 第六百八十条 (借款利息)
    ("consideration", ("有偿",), ("无偿",), "民法典第六百五十七条"),
    # good / bad faith: 民法典第三百一十一条
    ("faith", ("善意",), ("恶意",), "民法典第三百一十一条"),
    # fault: 刑法第十四条、第十五条; 民法典第一千一百六十五条
    ("fault", ("故意",), ("过失",), "刑法第十四条、第十五条"),
    # procedure: a court grants or refuses
    ("grant", ("予以",), ("不予",), "民事诉讼法 (予以/不予受理、支持)"),
    *(("validity", a, b, "民法典第一百四十三条至第一百五十七条") for a, b in _pairs(_VALIDITY)),
    *(
        ("liability", a, b, "民法典第一百七十七条、第一百七十八条、第六百八十六条")
        for a, b in _pairs(_LIABILITY)
    ),
    *(
        ("sentencing", a, b, "刑法第六十二条、第六十三条、第六十七条")
        for a, b in _pairs(_SENTENCING)
    ),
    *(("role", (a,), (b,), "民法典合同编典型合同; 劳动合同法") for a, b in _ROLES),
    # family roles: 民法典第一千零八十四条 (不满两周岁的子女，以由母亲直接抚养为原则)
    ("family", ("父亲",), ("母亲",), "民法典第一千零八十四条"),
    ("family", ("丈夫", "男方"), ("妻子", "女方"), "民法典婚姻家庭编"),
)
"""Opposed legal terms (name, one side, other side, source of the distinction)."""

# A negation added to or dropped from a verbatim restatement inverts it (承担/不承担,
# 适用/不适用, 公开/不公开, 超过/不超过, 过错/无过错, 成年人/未成年人).
NEGATORS = ("不", "未", "非", "无", "没有")

# --- conditions of a rule (fidelity, dropped-condition check) -------------------------------
# A requirement inside the clause that leads to a consequence: notice in advance, consent or
# approval, a period during which, an act after which. 劳动合同法第四十条: 「用人单位提前三十日
# 以书面形式通知劳动者本人或者额外支付劳动者一个月工资后，可以解除劳动合同」.
REQUIREMENT = recache.compile(
    r"""
    提前[^，,；;。]{1,40}                                   # 提前三十日以书面形式通知…
    | 未经[^，,；;。]{1,30}                                 # 未经…同意
    | 经[^，,；;。]{0,24}?(?:同意|批准|许可|登记|核准|备案|协商一致|追认|认定|审查|公证)[^，,；;。]{0,12}
    | 在[^，,；;。]{1,24}?期间[^，,；;。]{0,12}             # 在试用期间
    | 自[^，,；;。]{1,30}?(?:之日)?起[^，,；;。]{0,12}      # 自知道…之日起
    | [^，,；;。]{2,40}后$                                  # …支付…工资后 (an act first)
    """,
    re.VERBOSE,
)

# A leading condition clause 「……的，」 (a 的-phrase closing a comma segment).
CONDITION_CLAUSE = recache.compile(r"^[^，,；;。]{3,60}的$")

# Conditions that stand for the list that follows (下列情形之一的): restated by its items.
LIST_PLACEHOLDER = recache.compile(r"下列|以下情形|前款|本条")

# A report's meta-description of a provision: 「规定了违约金」, 「对违约金作了规定」,
# 「是关于违约金的规定」 — it says what the provision is about, not what it says.
META_DESCRIPTION = recache.compile(
    r"""
    ^(?:[^，,。；;]{0,8}[，,])?                                    # a lead-in (关于…，)
    (?:本条|该条|该款|此条|其|这一条)?\s*
    (?:
        (?:明确)?规定了(?P<x1>[^，,。；;]{2,30})                     # 规定了X (not 涉及X:
                                                                   # facts 涉及 things too)
      | (?:对|就)(?P<x2>[^，,。；;]{2,30}?)(?:作(?:出)?了?|有|进行了)(?:明确|具体|相关)?规定
      | (?:是)?关于(?P<x3>[^，,。；;]{2,30}?)的(?:规定|条款)
    )
    (?:的(?:规定|内容))?[。；;]?$
    """,
    re.VERBOSE,
)

# A case caption in brackets right after a case citation (（荣宝英诉王阳…纠纷案）): the
# citation's own title, not a proposition.
CAPTION = recache.compile(r"[（(][^（）()]{2,80}?(?:案|案件|纠纷)[）)]")


SANCTION_AFTER = recache.compile(
    r"^[^，。；,;]{0,8}?(?:有期徒刑|拘役|管制|罚款|罚金|滞纳金|赔偿责任|赔偿金)"
)
"""A sanction a quantity measures when it follows it within eight characters of the same
clause (「处十年以上有期徒刑」, 「处五万元以上十万元以下的罚款」, 「承担不超过百分之十五的赔偿责任」):
PRC drafting states penalties as 处+range+kind (立法技术规范（试行）, 法工委 2009). Issue 21."""


LIABILITY_KIND = recache.compile(r"(连带|补充|按份)(?:赔偿)?责任")
"""The kind of a shared liability (民法典第一百七十七条、第一百七十八条; 补充责任 e.g. 第一千一百九十八条):
a paraphrase that gives a kind the provision never names changes who pays. Issue 21."""


LIST_ITEM_MARK = recache.compile(ITEM_MARK)
"""An enumerated item's mark in a report or a statute: （一）, (1), 1. / 1、 (PRC drafting uses
（一）…; model answers write （1） or 1.)."""


NEGATED_CONSEQUENCE = recache.compile(
    r"(?:不予|无需|不再|不|免予)(?P<pred>(?:承担|支付|认定为|给予|赔偿|退还|返还|享有|享受|保护)"
    r"[^，,；;。：:、\s]{1,10})"
)
"""A consequence a provision attaches in the negative (机动车一方不承担赔偿责任, 不予保护, 无需支付):
the verb of consequence after the negator is its predicate (道路交通安全法第七十六条第二款; the
verbs are those of :data:`governor.text.regexes.ASSERTION_NEGATION_RE`'s consequences)."""
