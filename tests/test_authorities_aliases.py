"""Instrument names: normalisation, generated short names, clash rules, and the real table."""

from __future__ import annotations

import pytest

from governor.authorities import load_default_store
from governor.authorities.aliases import NameSource, build_alias_table, norm_name, strip_prc
from governor.core.ports import InstrumentNames

CIVIL_CODE = "中华人民共和国民法典"
CPL_JI = "最高人民法院关于适用《中华人民共和国民事诉讼法》的解释"
CONTRACT_JI = "最高人民法院关于适用《中华人民共和国民法典》合同编通则若干问题的解释"
GUARANTEE_JI = "最高人民法院关于适用《中华人民共和国民法典》有关担保制度的解释"
MARRIAGE_JI1 = "最高人民法院关于适用《中华人民共和国民法典》婚姻家庭编的解释（一）"
LOAN_JI = "最高人民法院关于审理民间借贷案件适用法律若干问题的规定"
LABOUR_JI1 = "最高人民法院关于审理劳动争议案件适用法律问题的解释（一）"
INJURY_JI = "最高人民法院关于审理人身损害赔偿案件适用法律若干问题的解释"
CRPL_JI = "最高人民法院关于适用《中华人民共和国刑事诉讼法》的解释"
GENERAL_JI = "最高人民法院关于适用《中华人民共和国民法典》总则编若干问题的解释"
TIME_JI = "最高人民法院关于适用《中华人民共和国民法典》时间效力的若干规定"
COMPANY_JI3 = "最高人民法院关于适用《中华人民共和国公司法》若干问题的规定（三）"


@pytest.mark.parametrize(
    "raw,key",
    [
        ("《中华人民共和国民法典》", "中华人民共和国民法典"),
        ("民法典 合同编", "民法典合同编"),
        ("婚姻家庭编解释（一）", "婚姻家庭编解释(一)"),
        ("婚姻家庭编解释(1)", "婚姻家庭编解释(一)"),
        ("婚姻家庭编解释一", "婚姻家庭编解释(一)"),
        (
            "最高人民法院关于适用〈中华人民共和国民法典〉有关担保制度的解释",
            "最高人民法院关于适用中华人民共和国民法典有关担保制度的解释",
        ),
        ("“公司法”", "公司法"),
    ],
)
def test_norm_name(raw: str, key: str) -> None:
    assert norm_name(raw) == key


def test_strip_prc() -> None:
    assert strip_prc("中华人民共和国公司法") == "公司法"
    assert strip_prc("工伤保险条例") == "工伤保险条例"
    assert strip_prc("中华人民共和国") == "中华人民共和国"


def _table(*sources: NameSource) -> dict[str, str]:
    table, _ = build_alias_table(sources)
    return table


def test_same_tier_clash_is_dropped_unless_one_is_a_statute() -> None:
    # two 司法解释 whose generated short name collides: dropped, neither wins silently
    a = NameSource("最高人民法院关于审理甲案件适用法律若干问题的解释", "司法解释")
    b = NameSource(
        "最高人民法院、最高人民检察院关于办理甲刑事案件适用法律若干问题的解释", "司法解释"
    )
    table = _table(a, b)
    assert norm_name("甲解释") not in table
    # a 法律 and a 行政法规 both claiming one tier-1 name: the statute keeps it
    law = NameSource("中华人民共和国乙法", "法律")  # tier 1: 乙法
    reg = NameSource("乙", "行政法规", parts=("法",))  # tier 1 (part name): 乙法
    assert _table(law, reg)[norm_name("乙法")] == "中华人民共和国乙法"
    # two non-statutes claiming it: dropped
    reg2 = NameSource("中华人民共和国乙法", "行政法规")
    assert norm_name("乙法") not in _table(reg2, reg)
    # a canonical title (tier 0) beats another instrument's short form (tier 1)
    assert _table(law, NameSource("乙法", "行政法规"))[norm_name("乙法")] == "乙法"


def test_lower_tier_never_overrides_higher() -> None:
    law = NameSource("中华人民共和国丙法", "法律")
    ji = NameSource("最高人民法院关于适用《中华人民共和国丙法》的解释", "司法解释")
    table = _table(law, ji)
    assert table[norm_name("丙法")] == "中华人民共和国丙法"
    assert table[norm_name("丙法解释")] == ji.title
    assert table[norm_name("丙法司法解释")] == ji.title  # tier-3 variant


def test_parts_of_a_multi_file_instrument() -> None:
    code = NameSource(CIVIL_CODE, "法律", ("总则", "合同编", "附则"))
    table = _table(code)
    for alias in ("民法典总则", "民法典总则编", "总则编", "民法典合同编", "合同编", "民法典附则"):
        assert table[norm_name(alias)] == CIVIL_CODE, alias
    assert norm_name("附则") not in table and norm_name("总则") not in table


# ---- the real alias table of the bundled store ------------------------------------------


@pytest.fixture(scope="module")
def store():  # type: ignore[no-untyped-def]
    return load_default_store()


@pytest.mark.parametrize(
    "name,title",
    [
        ("民法典", CIVIL_CODE),
        ("《中华人民共和国民法典》", CIVIL_CODE),
        ("中华人民共和国民法典", CIVIL_CODE),
        ("民法典合同编", CIVIL_CODE),
        ("《民法典》合同编", CIVIL_CODE),
        ("民法典总则编", CIVIL_CODE),
        ("民法典侵权责任编", CIVIL_CODE),
        ("民诉法", "中华人民共和国民事诉讼法"),
        ("民事诉讼法", "中华人民共和国民事诉讼法"),
        ("刑诉法", "中华人民共和国刑事诉讼法"),
        ("行诉法", "中华人民共和国行政诉讼法"),
        ("劳动合同法", "中华人民共和国劳动合同法"),
        ("消保法", "中华人民共和国消费者权益保护法"),
        ("消费者权益保护法", "中华人民共和国消费者权益保护法"),
        ("公司法", "中华人民共和国公司法"),
        ("公司法（2018年修正）", "中华人民共和国公司法"),
        ("道交法", "中华人民共和国道路交通安全法"),
        ("个保法", "中华人民共和国个人信息保护法"),
        ("中华人民共和国工伤保险条例", "工伤保险条例"),  # a wrong 中华人民共和国 prefix
        ("民诉法解释", CPL_JI),
        ("最高人民法院关于适用〈中华人民共和国民事诉讼法〉的解释", CPL_JI),
        ("合同编通则解释", CONTRACT_JI),
        ("民法典合同编通则解释", CONTRACT_JI),
        ("担保制度解释", GUARANTEE_JI),
        ("民法典担保制度解释", GUARANTEE_JI),
        ("婚姻家庭编解释（一）", MARRIAGE_JI1),
        ("婚姻家庭编解释(一)", MARRIAGE_JI1),
        ("民间借贷规定", LOAN_JI),
        ("民间借贷司法解释", LOAN_JI),
        ("劳动争议解释（一）", LABOUR_JI1),
        ("人身损害赔偿解释", INJURY_JI),
        ("刑诉法解释", CRPL_JI),
        ("总则编解释", GENERAL_JI),
        ("时间效力规定", TIME_JI),
        ("公司法解释（三）", COMPANY_JI3),
        ("公司法司法解释三", COMPANY_JI3),
        # repealed names resolve to their (absent) canonical titles
        ("合同法", "中华人民共和国合同法"),
        ("《中华人民共和国合同法》", "中华人民共和国合同法"),
        ("物权法", "中华人民共和国物权法"),
        ("民法总则", "中华人民共和国民法总则"),
        ("担保法解释", "最高人民法院关于适用《中华人民共和国担保法》若干问题的解释"),
        ("合同法解释（二）", "最高人民法院关于适用《中华人民共和国合同法》若干问题的解释（二）"),
    ],
)
def test_resolve_instrument(store, name: str, title: str) -> None:  # type: ignore[no-untyped-def]
    assert store.resolve_instrument(name) == title


@pytest.mark.parametrize(
    "name",
    [
        "合同",  # a word, not an instrument
        "公司法解释",  # ambiguous: 公司法解释（一）…（五） → must not pick one
        "解释",
        "中华人民共和国社会法",  # a fabricated law (seen in LawBench answers)
        "民法",
        "",
        "《》",
        "总则",  # bare part name of several instruments
    ],
)
def test_resolve_instrument_negative(store, name: str) -> None:  # type: ignore[no-untyped-def]
    assert store.resolve_instrument(name) is None


def test_every_short_name_resolves_to_one_title(store) -> None:  # type: ignore[no-untyped-def]
    names = store.known_short_names()
    assert len(names) == len(set(names)) > 2000
    assert all(store.resolve_instrument(n) is not None for n in names)
    assert [len(n) for n in names] == sorted((len(n) for n in names), reverse=True)
    for must in ("民法典", "民诉法", "合同编通则解释", "劳动合同法", "合同法", "刑法"):
        assert must in names


def test_store_satisfies_instrument_names_port(store) -> None:  # type: ignore[no-untyped-def]
    assert isinstance(store, InstrumentNames)


# --- title variants (issue 24 item 6) ------------------------------------------------------------

_RS = "最高人民法院关于审理人身损害赔偿案件适用法律若干问题的解释"
_XZ1 = "最高人民法院关于适用《中华人民共和国行政诉讼法》的解释"
_XZ2 = "最高人民法院关于适用《中华人民共和国行政诉讼法》若干问题的解释"


@pytest.mark.parametrize(
    "written,title",
    [
        ("最高人民法院关于审理人身损害赔偿案件具体应用法律若干问题的解释", _RS),
        ("最高人民法院关于审理人身损害赔偿案件适用法律的解释", _RS),
        ("最高人民法院关于适用〈行政诉讼法〉的解释", _XZ1),
        ("最高人民法院关于适用<行政诉讼法>若干问题的解释", _XZ2),
        ("最高人民法院关于适用《行政诉讼法》问题的解释", None),  # both fit: ambiguous
    ],
)
def test_title_variants_resolve_when_one_title_fits(written: str, title: str | None) -> None:
    from governor.authorities.aliases import VARIANT_LEVELS, unique_variants, variant_key

    tables = unique_variants([_RS, _XZ1, _XZ2])
    found = next(
        (
            tables[lv][variant_key(written, lv)]
            for lv in range(VARIANT_LEVELS)
            if variant_key(written, lv) in tables[lv]
        ),
        None,
    )
    assert found == title
