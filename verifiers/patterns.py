"""Regexes for checkable facts in provision text (numbers, dates, modality, 但书).

Kept beside the verifiers until the extraction grammar in ``governor/regexes.py`` settles;
same conventions: verbose mode, named groups, a comment per branch.
"""

from __future__ import annotations

import re

_CN = "零〇一二两三四五六七八九十百千万"

# Calendar dates: 2021年1月1日, 2021年1月, 1月1日 — masked before quantities are read so a
# year is never taken for a period of 2021 years.
DATE_EXPR = re.compile(
    rf"""
    (?:[0-9０-９]{{4}}|[{_CN}]{{4}})年(?:[0-9０-９{_CN}]{{1,2}}月(?:[0-9０-９{_CN}]{{1,3}}[日号])?)?
    | [0-9０-９{_CN}]{{1,2}}月[0-9０-９{_CN}]{{1,3}}[日号]
    """,
    re.VERBOSE,
)

NUMBER_EXPR = re.compile(
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
MODAL = re.compile(
    r"""
    不应当|不可以|应当|必须|可以|有权|无权|不得|禁止|严禁|不能|不应
    """,
    re.VERBOSE,
)

# A 但书: 但是… or 但… up to the end of the sentence (。；\n), ending in 除外/不在此限 or not;
# or an exception clause without 但 that closes the sentence (……，遇有……情形的除外。).
PROVISO = re.compile(
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
DECISIVE_PROVISO = re.compile(
    r"""
    除外                      # 但是…的除外
    | 不在此限                # 但…的，不在此限
    | 另有(?:规定|约定)       # 但是法律另有规定的 / 但是当事人另有约定的
    """,
    re.VERBOSE,
)

# Words of a claim that generalise a rule beyond any qualification (claim overreach).
UNIVERSAL = re.compile(
    r"""
    在任何情况下 | 任何情况下 | 无论(?:如何|何种|什么)       # "in any case"
    | 一律 | 一概 | 概不 | 均(?:可|应|须|不得) | 都(?:可以|应当|必须|不得)  # "always / all"
    | 所有(?![权人者制]) | 任何 | 一切 | 凡是 | 必然 | 绝对     # not 所有权/所有人
    """,
    re.VERBOSE,
)

# Words of a provision that restrict its scope (so a universal claim overreaches it).
SCOPE = re.compile(
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
CASE_FACTS = re.compile(
    r"""
    小[王李张刘陈杨赵黄周吴徐孙马朱胡郭何林高罗郑梁谢宋唐许韩冯邓曹彭曾明红刚华丽芳强军美]
    | [王李张刘陈杨赵黄周吴徐孙马朱胡郭何林高罗郑梁谢宋唐许韩冯邓曹彭曾][某]{1,2}
    | [甲乙丙丁](?:方|公司|某|先生|女士)                     # 甲方, 乙公司
    | 你|您|本案|该案|此案                                    # the user addressed; the case
    # (我 is left out: in answers it is the writer's voice, 根据我所了解…, not a party)
    """,
    re.VERBOSE,
)
