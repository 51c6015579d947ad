"""Table-driven tests of citation extraction (governor.citations.extract, extract_cn, extract_us, claims).

Grammar cases live in ``tests/data/extract_cases.jsonl`` (text → expected citations, each a
partial dict of Citation fields, ``"us.section"`` naming a field of a nested part; ``"$N"``
stands for the id of the N-th extracted citation).
They run against a small fake ``InstrumentNames`` and again against the bundled store
(``"store": "fake"`` / ``"store"`` limits a case to one of them).
Real sentences from LawBench 3-2/3-8 answers (../shared/data/lawbench_dev, Apache-2.0,
copied verbatim) are in ``LAWBENCH`` below.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from governor.citations.extract import case_number_is_well_formed, extract, parse_pin
from governor.core.models import Citation, CitationKind, citation_id

CASES_PATH = Path(__file__).parent / "data" / "extract_cases.jsonl"

MFD = "中华人民共和国民法典"
LDHT = "中华人民共和国劳动合同法"
XF = "中华人民共和国刑法"
GSF = "中华人民共和国公司法"
HTJS = "最高人民法院关于适用《中华人民共和国民法典》合同编通则若干问题的解释"


class FakeNames:
    """Minimal ``InstrumentNames``: the titles named in the extraction brief."""

    TITLES: ClassVar[dict[str, CitationKind]] = {
        MFD: "statute",
        LDHT: "statute",
        XF: "statute",
        GSF: "statute",
        "中华人民共和国民事诉讼法": "statute",
        HTJS: "judicial_interpretation",
        "中华人民共和国合同法": "statute",
        "中华人民共和国物权法": "statute",
    }
    ALIASES: ClassVar[dict[str, str]] = {
        "民法典": MFD,
        "劳动合同法": LDHT,
        "刑法": XF,
        "公司法": GSF,
        "民事诉讼法": "中华人民共和国民事诉讼法",
        "民诉法": "中华人民共和国民事诉讼法",
        "合同编通则解释": HTJS,
        "合同法": "中华人民共和国合同法",
        "物权法": "中华人民共和国物权法",
    }

    def __init__(self) -> None:
        self.table = {t: t for t in self.TITLES} | self.ALIASES

    def resolve_instrument(self, name: str) -> str | None:
        return self.table.get(name)

    def known_short_names(self) -> Sequence[str]:
        return list(self.table)

    def kind_of(self, title: str) -> CitationKind | None:
        return self.TITLES.get(title)


FAKE = FakeNames()


@pytest.fixture(scope="module")
def store() -> Any:
    from governor.authorities import load_default_store

    return load_default_store()


def _load_cases() -> list[dict[str, Any]]:
    with CASES_PATH.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


CASES = _load_cases()


def assert_matches(text: str, got: tuple[Citation, ...], expect: list[dict[str, Any]]) -> None:
    """Every expected partial dict matches the citation at the same position."""
    raws = [c.raw for c in got]
    assert len(got) == len(expect), f"{text!r}: got {raws}"
    for n, (c, e) in enumerate(zip(got, expect, strict=True)):
        d = c.model_dump()
        for key, want in e.items():
            if isinstance(want, str) and want.startswith("$"):
                want = got[int(want[1:])].id
            have: Any = d
            for part in key.split("."):  # "us.section": a field of a nested part
                have = have[part]
            if isinstance(have, tuple):
                have = list(have)
            assert have == want, f"{text!r} citation {n} ({c.raw!r}) {key}: {have!r} != {want!r}"


def assert_invariants(text: str, got: tuple[Citation, ...]) -> None:
    """The contract of ``extract``: sorted, non-overlapping, raw == slice, stable ids."""
    last_end = 0
    for c in got:
        assert c.span.start >= last_end, f"overlap or unsorted at {c.raw!r}"
        assert c.raw == text[c.span.start : c.span.end]
        assert c.id == citation_id(c.span.start, c.span.end, c.raw)
        for span, value in ((c.claim_span, None), (c.description_span, c.description)):
            if span is not None:
                assert 0 <= span.start <= span.end <= len(text)
            if value and span is not None:
                assert text[span.start : span.end] == value
        last_end = c.span.end
    ids = {c.id for c in got}
    for c in got:
        if c.antecedent is not None:
            assert c.antecedent in ids
        if c.group is not None:
            assert c.group in ids


FAKE_CASES = [c for c in CASES if c.get("store") != "store"]
STORE_CASES = [c for c in CASES if c.get("store") != "fake"]


@pytest.mark.parametrize("case", FAKE_CASES, ids=[c["note"] for c in FAKE_CASES])
def test_grammar_table_fake_names(case: dict[str, Any]) -> None:
    got = extract(case["text"], FAKE)
    assert_invariants(case["text"], got)
    assert_matches(case["text"], got, case["expect"])


@pytest.mark.parametrize("case", STORE_CASES, ids=[c["note"] for c in STORE_CASES])
def test_grammar_table_bundled_store(case: dict[str, Any], store: Any) -> None:
    got = extract(case["text"], store)
    assert_matches(case["text"], got, case["expect"])


# --- claims and descriptions -------------------------------------------------------------------

CLAIMS: list[tuple[str, list[dict[str, Any]]]] = [
    (  # lead-in form: claim and description are P
        "根据《民法典》第五百七十七条规定，当事人一方不履行合同义务的，应当承担违约责任。因此被告应赔偿。",
        [
            {
                "claim": "当事人一方不履行合同义务的，应当承担违约责任",
                "description": "当事人一方不履行合同义务的，应当承担违约责任",
                "quotes": [],
            }
        ],
    ),
    (  # parenthetical form: claim is P, nothing said about the content
        "被告应当承担违约责任（《民法典》第五百七十七条）。",
        [{"claim": "被告应当承担违约责任", "description": ""}],
    ),
    (  # quotation: description is the quote, claim follows it
        "《民法典》第五百七十七条规定：“当事人一方不履行合同义务的，应当承担违约责任。”因此，被告应当赔偿。",
        [
            {
                "description": "当事人一方不履行合同义务的，应当承担违约责任。",
                "quotes": ["当事人一方不履行合同义务的，应当承担违约责任。"],
                "claim": "因此，被告应当赔偿",
            }
        ],
    ),
    (  # corner-bracket quotation
        "《民法典》第五百七十七条规定「当事人应当承担违约责任」。",
        [{"description": "当事人应当承担违约责任", "quotes": ["当事人应当承担违约责任"]}],
    ),
    (  # 法律依据 list: description is the recitation, claim the main conclusion
        "回答：公司可以解除劳动合同。\n\n法律依据：\n1. 《劳动合同法》第三十九条：劳动者严重违反用人单位的规章制度的，"
        "用人单位可以解除劳动合同。\n2. 《劳动合同法》第四十条 劳动者患病，医疗期满后不能从事原工作的，可以解除。",
        [
            {
                "claim": "公司可以解除劳动合同",
                "description": "劳动者严重违反用人单位的规章制度的，用人单位可以解除劳动合同",
            },
            {
                "claim": "公司可以解除劳动合同",
                "description": "劳动者患病，医疗期满后不能从事原工作的，可以解除",
            },
        ],
    ),
    (  # 法律依据 item with no proposition and no conclusion marker: empty claim
        "法律依据：《中华人民共和国劳动合同法》第三十九条",
        [{"claim": "", "description": ""}],
    ),
    (  # the citation modifies a noun: no description; claim without the citation
        "该行为违反了《劳动合同法》第三十九条规定的义务。",
        [{"description": "", "claim": "该行为违反了规定的义务"}],
    ),
    (  # 违反…的规定，P: P is a consequence, not the content
        "这一行为违反了《民法典》第五百七十七条的规定，应当承担责任。",
        [{"description": "", "claim": "这一行为违反了，应当承担责任"}],
    ),
    (  # a list shares its description and claim
        "根据《民法典》第五百七十七条、第五百八十五条的规定，守约方可以主张违约金。",
        [
            {"description": "守约方可以主张违约金", "claim": "守约方可以主张违约金"},
            {"description": "守约方可以主张违约金", "claim": "守约方可以主张违约金"},
        ],
    ),
    (  # two citations in one sentence: each description stops at the clause before the next
        "依据《劳动合同法》第三十九条，用人单位可以解除合同；依据第四十条，需提前三十日通知。",
        [
            {"description": "用人单位可以解除合同", "claim": "用人单位可以解除合同"},
            {"description": "需提前三十日通知", "claim": "需提前三十日通知"},
        ],
    ),
    (  # lead-in after the proposition
        "被告应赔偿，根据《民法典》第五百七十七条。",
        [{"claim": "被告应赔偿", "description": ""}],
    ),
    (  # 指出 as the carrier verb
        "《民法典》第五百七十七条指出，违约方应当承担责任。",
        [{"description": "违约方应当承担责任"}],
    ),
    (  # a sentence that only names the basis: its claim is the sentence before (dev qwen 308)
        "可以与公司协商解除劳动合同，并要求公司支付经济补偿金。"
        "具体的法律依据为《劳动合同法》第三十六条、第四十六条规定。",
        [
            {"claim": "可以与公司协商解除劳动合同，并要求公司支付经济补偿金", "description": ""},
            {"claim": "可以与公司协商解除劳动合同，并要求公司支付经济补偿金", "description": ""},
        ],
    ),
    (  # …after an answer marker, which is not part of the claim
        "回答：您可以申请提取公积金。相关法律依据为《住房公积金管理条例》第二十四条。",
        [{"claim": "您可以申请提取公积金", "description": ""}],
    ),
    (  # a basis sentence opening its paragraph grounds nothing before it
        "问题如上。\n\n法律依据是《民法典》第五百七十七条。",
        [{"claim": ""}],
    ),
]


@pytest.mark.parametrize("text,expect", CLAIMS, ids=[t[:20] for t, _ in CLAIMS])
def test_claims_and_descriptions(text: str, expect: list[dict[str, Any]]) -> None:
    got = extract(text, FAKE)
    assert_invariants(text, got)
    assert_matches(text, got, expect)


def test_claim_span_points_at_the_claim() -> None:
    text = "被告应当承担违约责任（《民法典》第五百七十七条）。"
    (c,) = extract(text, FAKE)
    assert c.claim_span is not None
    assert text[c.claim_span.start : c.claim_span.end] == "被告应当承担违约责任"


# --- real LawBench sentences (3-2, 3-8 predictions) ---------------------------------------------

LAWBENCH: list[tuple[str, str, list[dict[str, Any]]]] = [
    (
        "3-8 GPT-3.5 #1",
        "1. 中华人民共和国合同法第四十四条规定了买卖合同的效力，即合同的当事人应当按照约定履行自己的义务。",
        [
            {
                "raw": "中华人民共和国合同法第四十四条",
                "instrument": "中华人民共和国合同法",
                "article": "44",
                "description": "买卖合同的效力，即合同的当事人应当按照约定履行自己的义务",
            }
        ],
    ),
    (
        "3-8 chatglm2 #1",
        "《民法典》第296条：不动产权利人因年老、患病、死亡等客观原因或者因其他原因不能继续履行合同义务的，"
        "可以请求人民法院或者仲裁机构变更或者解除合同。",
        [{"raw": "《民法典》第296条", "article": "296", "description": "$desc"}],
    ),
    (
        "3-8 chatglm2 #61",
        "1.《中华人民共和国社会保险法》第二章第十二条规定：“国家建立基本养老保险制度，实行社会统筹和个人账户"
        "相结合的基本养老保险制度。农村居民参加基本养老保险的，按照国务院的规定执行。”",
        [
            {
                "raw": "《中华人民共和国社会保险法》第二章第十二条",
                "instrument": "中华人民共和国社会保险法",
                "article": "12",
                "quotes": [
                    "国家建立基本养老保险制度，实行社会统筹和个人账户相结合的基本养老保险制度。"
                    "农村居民参加基本养老保险的，按照国务院的规定执行。"
                ],
            }
        ],
    ),
    (
        "3-8 GPT-3.5 #0",
        "法律依据：根据中华人民共和国刑法第一百三十九条的规定，醉酒后驾驶机动车的行为构成危险驾驶罪。",
        [
            {
                "raw": "中华人民共和国刑法第一百三十九条",
                "instrument": XF,
                "article": "139",
                "description": "醉酒后驾驶机动车的行为构成危险驾驶罪",
            }
        ],
    ),
    (
        "3-2 qwen #52 (本法 inside quoted law text is not extracted)",
        "《中华人民共和国合同法》第二百九十九条规定：“承租人应当按照约定的期限支付租金。对支付租金的期限没有约定"
        "或者约定不明确，依照本法第六十一条的规定仍不能确定，租赁期间不满一年的，应当在租赁期间届满时支付。”",
        [{"article": "299", "instrument": "中华人民共和国合同法"}],
    ),
    (
        "3-8 GPT-3.5 #227",
        "3.劳动合同法第四章第三节第四十四条规定：劳动者与用人单位解除劳动合同的，用人单位应当支付劳动者不低于"
        "一个月工资的经济补偿。",
        [{"raw": "劳动合同法第四章第三节第四十四条", "instrument": LDHT, "article": "44"}],
    ),
    (
        "3-8 chatglm2 #468",
        "对应的法律依据： \n- 中华人民共和国社会保险法，第六十六条 \n- 中华人民共和国劳动法，第七十五条",
        [
            {"raw": "中华人民共和国社会保险法，第六十六条", "article": "66"},
            {"raw": "中华人民共和国劳动法，第七十五条", "article": "75"},
        ],
    ),
    (
        "3-2 chatglm2 #474 (fabricated instrument)",
        "《公司治理规则》第一百零七条规定，会计师事务所是否有权陈述意见？",
        [
            {
                "raw": "《公司治理规则》第一百零七条",
                "instrument": None,
                "kind": "rule",
                "article": "107",
            }
        ],
    ),
    (
        "3-8 qwen #284 (traditional characters)",
        "法律依據：《中華人民共和國教育法》第二十七條：“國家實行教育資助制度，保障家庭經濟困難的學生能夠接受公平的教育。”",
        [
            {
                "raw": "《中華人民共和國教育法》第二十七條",
                "instrument": "中华人民共和国教育法",
                "article": "27",
            }
        ],
    ),
    (
        "3-8 chatglm2 #252 (ASCII <> nested in 《》, list across instruments)",
        "根据《民事诉讼法》第二十三条和《最高人民法院关于适用<中华人民共和国民事诉讼法>的解释》第一百零八条，"
        "当事人可以起诉跨越省份的案件，但需要满足一定条件。",
        [
            {"article": "23", "instrument": "中华人民共和国民事诉讼法", "group": "$0"},
            {
                "article": "108",
                "kind": "judicial_interpretation",
                "instrument": "最高人民法院关于适用《中华人民共和国民事诉讼法》的解释",
                "group": "$0",
            },
        ],
    ),
    (
        "3-2 qwen #7",
        "根据《中华人民共和国个人独资企业法》第二十一条规定：“个人独资企业解散后，原投资人应当对个人独资企业"
        "债务承担无限责任。”因此，小王需要以其个人财产承担企业债务的偿还责任。",
        [
            {
                "article": "21",
                "quotes": ["个人独资企业解散后，原投资人应当对个人独资企业债务承担无限责任。"],
                "claim": "因此，小王需要以其个人财产承担企业债务的偿还责任",
            }
        ],
    ),
    (
        "3-8 qwen #9 (decree number bridged)",
        "不能，根据《机动车驾驶证申领和使用规定》（公安部令第139号）规定，机动车驾驶人在一个记分周期内累积记分"
        "达到12分的，公安机关交通管理部门应当扣留其机动车驾驶证。",
        [{"raw": "《机动车驾驶证申领和使用规定》", "article": None}],
    ),
    (
        "3-2 chatglm2 #159 (parenthetical bare pins continue the earlier instrument)",
        "《中华人民共和国未成年人保护法》第四十九条规定了父母的义务。\n根据以上法律依据，小明的父母应该尊重小明的"
        "独立性，不得限制或者剥夺小明的自由（第四十九条第三款）。",
        [
            {"article": "49"},
            {
                "raw": "第四十九条第三款",
                "article": "49",
                "paragraph": 3,
                "antecedent": "$0",
                "claim": "根据以上法律依据，小明的父母应该尊重小明的独立性，不得限制或者剥夺小明的自由",
            },
        ],
    ),
]


@pytest.mark.parametrize("note,text,expect", LAWBENCH, ids=[n for n, _, _ in LAWBENCH])
def test_lawbench_sentences(note: str, text: str, expect: list[dict[str, Any]], store: Any) -> None:
    got = extract(text, store)
    assert_invariants(text, got)
    for e in expect:
        if e.get("description") == "$desc":  # the whole recitation after the colon
            e["description"] = text[text.index("：") + 1 :].rstrip("。")
    assert_matches(text, got, expect)


# --- invariants on arbitrary text ---------------------------------------------------------------

_FRAGMENTS = [
    "《民法典》",
    "第五百七十七条",
    "第39条",
    "第二款",
    "第（一）项",
    "、",
    "至",
    "和",
    "，",
    "。",
    "\n",
    "根据",
    "规定：",
    "“",
    "”",
    "同法",
    "该条",
    "前款",
    "劳动合同法",
    "依法",
    "本法",
    "指导案例24号",
    "（2016）鲁15刑初33号",
    "法释〔2020〕17号",
    "\u200b",
    " ",
    "（",
    "）",
    "<",
    ">",
    "〈",
    "〉",
    "合同",
    "回答：",
    "法律依据：",
    "检例第39号",
    "第24号指导案例",
    "[2020]",
    "＜",
    "依照",
    "按照",
    "上述条款",
    "此条",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_FRAGMENTS), max_size=25), st.text(max_size=10))
def test_invariants_hold_on_any_mix(parts: list[str], noise: str) -> None:
    text = noise.join(parts) if noise and len(parts) > 1 else "".join(parts) + noise
    got = extract(text, FAKE, us=False)
    assert_invariants(text, got)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_FRAGMENTS), max_size=25), st.text(max_size=10))
def test_anchor_jumping_equals_finditer(parts: list[str], noise: str) -> None:
    from governor.citations.cn import iter_anchors
    from governor.text import regexes as rx

    text = noise.join(parts)
    want = [m.span() for m in rx.CN_ANCHOR_RE.finditer(text)]
    assert [m.span() for m in iter_anchors(text)] == want


def test_conclusion_markers_all_hold_da_or_jielun() -> None:
    """claims skips CONCLUSION_RE on texts without 答 or 结论: each of its words holds one."""
    import re

    from governor.text import regexes as rx

    groups = re.findall(r"\(\?:((?:[^()|]+\|)+[^()|]+)\)", rx.CONCLUSION_RE.pattern)
    (words,) = [g for g in groups if "回答" in g]
    assert len(words.split("|")) >= 5
    for w in words.split("|"):
        assert "答" in w or "结论" in w, w


# --- 案号 validator ---------------------------------------------------------------------------

CASE_NUMBERS = [
    ("（2016）鲁15刑初33号", True),
    ("(2011)泉商初字第240号", True),
    ("（2009）沪二中民二（民）终字第1508号", True),
    ("（2013）锡民终字第497号", True),
    ("（2012）锡滨民初字第1138号", True),
    ("（2008）二中民终字第00453号", True),
    ("（2017）鲁刑终151号", True),
    ("（2021）最高法民终123号", True),
    ("（2022）京0105民初1号", True),
    ("（2016）鲁15刑初033号", False),  # new style: no leading zero
    ("（2019）鲁民初字第12号", False),  # 字第 form after 2016
    ("（2010）鲁15刑初33号", False),  # new form before 2016
    ("（1890）京民初字第1号", False),  # year out of range
    ("（2016）鲁15饭初33号", False),  # no such case type
    ("2016鲁15刑初33号", False),  # year not bracketed
    ("（2016）鲁15刑初33", False),  # no 号
]


@pytest.mark.parametrize("number,ok", CASE_NUMBERS)
def test_case_number_is_well_formed(number: str, ok: bool) -> None:
    assert case_number_is_well_formed(number) is ok


# --- parse_pin -----------------------------------------------------------------------------------

PINS: list[tuple[str, dict[str, Any] | None]] = [
    ("民法典第五百七十七条第二款", {"instrument": MFD, "article": "577", "paragraph": 2}),
    ("《劳动合同法》第39条", {"instrument": LDHT, "article": "39"}),
    ("民法典", {"instrument": MFD, "article": None}),
    ("刑法第一百三十三条之一", {"instrument": XF, "article": "133之一"}),
    ("不是法条", None),
    ("", None),
]


@pytest.mark.parametrize("text,expect", PINS)
def test_parse_pin(text: str, expect: dict[str, Any] | None) -> None:
    got = parse_pin(text, FAKE)
    if expect is None:
        assert got is None
        return
    assert got is not None
    assert got.claim == "" and got.description == ""
    for key, want in expect.items():
        assert getattr(got, key) == want


# --- US citations (eyecite) ----------------------------------------------------------------------

US: list[tuple[str, list[dict[str, Any]]]] = [
    (
        "In Bush v. Gore, 531 U.S. 98, 100 (2000), the Court stopped the recount. Id. at 101.",
        [
            {
                "raw": "Bush v. Gore, 531 U.S. 98, 100 (2000)",
                "kind": "us_case",
                "antecedent": None,
            },
            {"raw": "Id. at 101", "kind": "us_case", "antecedent": "$0"},
        ],
    ),
    (
        "Relief is available under 42 U.S.C. § 1983.",
        [{"raw": "42 U.S.C. § 1983", "kind": "us_statute"}],
    ),
    ("《民法典》第五百七十七条 and 531 U.S. 98.", [{"kind": "statute"}, {"kind": "us_case"}]),
]


@pytest.mark.parametrize("text,expect", US, ids=[t[:20] for t, _ in US])
def test_us_citations(text: str, expect: list[dict[str, Any]]) -> None:
    got = extract(text, FAKE)
    assert_invariants(text, got)
    assert_matches(text, got, expect)


def test_us_parts_of_a_reporter_citation() -> None:
    (c, _) = extract("In Bush v. Gore, 531 U.S. 98, 100 (2000), held. Id. at 101.", FAKE)
    assert c.us is not None
    assert (c.us.volume, c.us.reporter, c.us.page) == ("531", "U.S.", "98")
    assert (c.us.pin_cite, c.us.year, c.us.court) == ("100", "2000", "scotus")
    assert c.us.case_name == "Bush v. Gore"


def test_us_statute_parts() -> None:
    (c,) = extract("See 42 U.S.C. § 1983.", FAKE)
    assert c.us is not None and (c.us.title, c.us.section) == ("42", "1983")


def test_us_off_skips_eyecite() -> None:
    assert extract("531 U.S. 98", FAKE, us=False) == ()


def test_empty_text() -> None:
    assert extract("", FAKE) == ()


@pytest.mark.parametrize(
    "text",
    [
        "指导案例24号“荣宝英诉王阳、永诚财产保险股份有限公司江阴支公司机动车交通事故责任纠纷案”认为，"
        "交通事故的受害人没有过错。",
        "指导案例24号（荣宝英诉王阳、永诚财产保险股份有限公司江阴支公司机动车交通事故责任纠纷案）确立了"
        "交通事故的受害人没有过错。",
    ],
)
def test_a_case_caption_is_neither_description_nor_claim(text: str) -> None:
    (c,) = extract(text, FAKE)
    assert "荣宝英" not in c.description and "荣宝英" not in c.claim
    assert c.claim.startswith("交通事故的受害人没有过错")


@pytest.mark.parametrize(
    ("text", "raws"),
    [
        ("《民法典》第十条和三条路", ["《民法典》第十条"]),  # 条 as a measure word
        ("《民法典》第十条，三条规定都适用", ["《民法典》第十条"]),  # no bare member after a comma
        ("《民法典》第十条及五条款", ["《民法典》第十条"]),  # 条款 is a noun
    ],
)
def test_bare_chain_members_need_a_list_separator(text: str, raws: list[str]) -> None:
    """A number without 第 joins a chain only after 、/及/和/至 … and as 「N条」 itself (issue 21)."""
    assert [c.raw for c in extract(text, FAKE)] == raws
