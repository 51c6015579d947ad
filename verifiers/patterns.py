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

# A 但书: 但是… or 但… up to the end of the sentence (。；\n), ending in 除外/不在此限 or not.
PROVISO = re.compile(
    r"""
    [，,；;]\s*(?P<proviso>但(?:是)?[^。；;\n]+)
    """,
    re.VERBOSE,
)
