"""宪法 versions rebuilt from the five 宪法修正案 in the corpus (issue 24 item 1)."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from benchmarks.datadir import data_path
from governor.authorities import AuthorityStore, load_default_store
from governor.authorities.constitution import (
    CONSTITUTION,
    ConstitutionError,
    apply_amendment,
    parse_constitution_amendment,
    rebuild_constitution,
)
from governor.authorities.parse import parse_markdown

LAWS = data_path("cn_laws")
needs_corpus = pytest.mark.skipif(
    not (LAWS / "宪法" / "宪法.md").is_file(), reason="needs ../shared/data/cn_laws"
)

TEXT = """# 中华人民共和国宪法修正案（测试）
2004年3月14日 通过
<!-- INFO END -->
第一条 宪法第二条第一款中“旧的说法”修改为“新的说法”。
第二条 宪法第三条增加一款，作为第二款：“新增的一款。”
第三条 宪法第四条“甲款。”“乙款。”修改为：“丙款。”
"""
AFTER = {
    "1": [["第一条。", []]],
    "2": [["这是新的说法，没有别的。", []]],
    "3": [["第三条第一款。", []], ["新增的一款。", []]],
    "4": [["丙款。", []]],
}


def _amendment():  # type: ignore[no-untyped-def]
    on = date(2004, 3, 14)
    return parse_constitution_amendment("测试修正案", TEXT, on, on)


def test_each_instruction_inverts_from_its_own_quotations() -> None:
    a = _amendment()
    assert [(o.kind, o.key) for o in a.ops] == [("sub", "2"), ("add_para", "3"), ("sub", "4")]
    before = apply_amendment(AFTER, a, forward=False)
    assert before["2"] == [["这是旧的说法，没有别的。", []]]
    assert before["3"] == [["第三条第一款。", []]]
    assert before["4"] == [["甲款。", []], ["乙款。", []]]
    assert apply_amendment(before, a, forward=True) == AFTER  # and back


def test_a_quotation_not_in_the_text_stops_the_rebuild() -> None:
    wrong = dict(AFTER)
    wrong["2"] = [["这里没有那几个字。", []]]
    with pytest.raises(ConstitutionError):
        rebuild_constitution(wrong, [_amendment()])


def test_an_unread_instruction_stops_the_parse() -> None:
    text = TEXT.replace("第三条 宪法第四条", "第三条 宪法第四条删去").replace(
        "修改为：“丙款。”", ""
    )
    with pytest.raises(ConstitutionError):
        parse_constitution_amendment("x", text, date(2004, 1, 1), date(2004, 1, 1))


@needs_corpus
def test_the_round_trip_holds_for_the_five_amendments() -> None:
    pf = parse_markdown((LAWS / "宪法" / "宪法.md").read_text(encoding="utf-8"))
    current = {a.key: [[t, list(i)] for t, i in a.paragraphs] for a in pf.articles}
    ams = []
    for path in sorted((LAWS / "宪法").glob("宪法修正案*.md")):
        text = path.read_text(encoding="utf-8")
        on = parse_markdown(text).events[0][0]
        ams.append(parse_constitution_amendment(path.stem, text, on, on))
    rb = rebuild_constitution(current, ams)  # raises unless forward gives the stored text
    assert [len(s) for s in rb.states] == [138, 138, 138, 138, 138, 143]


@pytest.fixture(scope="module")
def store() -> AuthorityStore:
    return load_default_store()


def test_six_versions_with_their_dates(store: AuthorityStore) -> None:
    inst = store.instrument(CONSTITUTION)
    assert inst is not None
    assert [(v.version, v.in_force_from) for v in inst.versions] == [
        ("1982-12-04", date(1982, 12, 4)),
        ("1988-04-12", date(1988, 4, 12)),
        ("1993-03-29", date(1993, 3, 29)),
        ("1999-03-15", date(1999, 3, 15)),
        ("2004-03-14", date(2004, 3, 14)),
        ("2018-03-11", date(2018, 3, 11)),
    ]


# one changed article per 修正案: (in force, article, words only after, words only before)
PER_AMENDMENT = [
    ("1988-04-12", "11", "国家允许私营经济在法律规定的范围内存在和发展", None),
    ("1993-03-29", "7", "国有经济，即社会主义全民所有制经济", "国营经济是社会主义全民所有制经济"),
    ("1999-03-15", "5", "实行依法治国，建设社会主义法治国家", None),
    ("2004-03-14", "13", "公民的合法的私有财产不受侵犯", "国家保护公民的合法的收入、储蓄"),
    ("2018-03-11", "123", "各级监察委员会是国家的监察机关", "人民法院是国家的审判机关"),
]


@pytest.mark.parametrize(("day", "article", "after", "before"), PER_AMENDMENT)
def test_each_amendment_changes_its_article_on_its_date(
    store: AuthorityStore, day: str, article: str, after: str, before: str | None
) -> None:
    on = date.fromisoformat(day)
    new = store.article(CONSTITUTION, article, as_of=on)
    old = store.article(CONSTITUTION, article, as_of=on - timedelta(days=1))
    assert new is not None and old is not None
    assert after in new.text and after not in old.text
    if before is not None:
        assert before in old.text and before not in new.text


def test_before_2018_the_constitution_had_138_articles(store: AuthorityStore) -> None:
    assert store.article(CONSTITUTION, "143", as_of=date(2017, 1, 1)) is None
    old = store.article(CONSTITUTION, "138", as_of=date(2017, 1, 1))
    new = store.article(CONSTITUTION, "143", as_of=date(2019, 1, 1))
    assert old is not None and new is not None and old.text == new.text  # 首都是北京
