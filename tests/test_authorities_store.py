"""AuthorityStore over the bundled build: articles, 款/项, versions, repeals, cases, search, io."""

from __future__ import annotations

import gzip
import json
import lzma
from datetime import date
from pathlib import Path

import pytest

from governor.authorities import AuthorityStore, load_default_store
from governor.authorities.store import BUNDLED_NAME, normalise_article
from governor.core.errors import StoreError

CIVIL_CODE = "中华人民共和国民法典"
CRIMINAL_LAW = "中华人民共和国刑法"
COMPANY_LAW = "中华人民共和国公司法"
NINE_REPEALED = {
    "中华人民共和国婚姻法",
    "中华人民共和国继承法",
    "中华人民共和国民法通则",
    "中华人民共和国收养法",
    "中华人民共和国担保法",
    "中华人民共和国合同法",
    "中华人民共和国物权法",
    "中华人民共和国侵权责任法",
    "中华人民共和国民法总则",
}


@pytest.fixture(scope="module")
def store() -> AuthorityStore:
    return load_default_store()


def test_load_default_store_is_cached_per_process(store: AuthorityStore) -> None:
    assert load_default_store() is store


def test_bundled_copy_is_small_package_data() -> None:
    path = Path(__file__).resolve().parents[1] / "governor" / "data" / BUNDLED_NAME
    assert path.is_file() and path.stat().st_size < 15_000_000


# ---- articles, 款 and 项 ------------------------------------------------------------------


def test_civil_code_is_one_instrument_of_1260_articles(store: AuthorityStore) -> None:
    arts = store.articles(CIVIL_CODE)
    assert len(arts) == 1260
    assert [a.article for a in arts[:3]] == ["1", "2", "3"] and arts[-1].article == "1260"
    assert [a.ordinal for a in arts] == list(range(1260))
    assert len(store.instrument(CIVIL_CODE).versions) == 1  # type: ignore[union-attr]


def test_civil_code_577(store: AuthorityStore) -> None:
    a = store.article("民法典", "577")
    assert a is not None
    assert a.text == (
        "当事人一方不履行合同义务或者履行合同义务不符合约定的，应当承担继续履行、"
        "采取补救措施或者赔偿损失等违约责任。"
    )
    assert a.path == ("合同编", "第一分编 通则", "第八章 违约责任")
    assert a.key == f"{CIVIL_CODE}@{a.version}#577"
    assert store.get(a.key) is a
    assert store.article(CIVIL_CODE, "第五百七十七条") is a


@pytest.mark.parametrize(
    "article,path0",
    [
        ("1", "总则"),
        ("205", "物权编"),
        ("989", "人格权编"),
        ("1040", "婚姻家庭编"),
        ("1260", "附则"),
    ],
)
def test_civil_code_paths_start_with_the_part(
    store: AuthorityStore, article: str, path0: str
) -> None:
    a = store.article(CIVIL_CODE, article)
    assert a is not None and a.path[0] == path0


def test_criminal_law_505_articles_with_53_inserted(store: AuthorityStore) -> None:
    arts = store.articles("刑法")
    assert len(arts) == 505
    assert sum("之" in a.article for a in arts) == 53
    a = store.article(CRIMINAL_LAW, "第一百三十三条之一")
    assert a is not None and a.article == "133之一"
    assert a.text.startswith("在道路上驾驶机动车，有下列情形之一的，处拘役，并处罚金")
    assert store.article(CRIMINAL_LAW, "120之六") is not None
    assert store.article(CRIMINAL_LAW, "120之七") is None


@pytest.mark.parametrize(
    "title,article,n_paragraphs,n_items",
    [
        (CIVIL_CODE, "18", 2, (0, 0)),
        (CRIMINAL_LAW, "33", 1, (5,)),
        (CIVIL_CODE, "577", 1, (0,)),
        (CIVIL_CODE, "1260", 1, (0,)),
    ],
)
def test_paragraph_and_item_counts(
    store: AuthorityStore, title: str, article: str, n_paragraphs: int, n_items: tuple[int, ...]
) -> None:
    a = store.article(title, article)
    assert a is not None
    assert len(a.paragraphs) == n_paragraphs
    assert tuple(len(p.items) for p in a.paragraphs) == n_items


def test_authority_of_article_paragraph_item(store: AuthorityStore) -> None:
    a18 = store.article(CIVIL_CODE, "18")
    assert a18 is not None
    whole = store.authority(a18)
    assert whole is not None and whole.text == a18.text and whole.level == "法律"
    second = store.authority(a18, 2)
    assert second is not None
    assert (
        second.text
        == "十六周岁以上的未成年人，以自己的劳动收入为主要生活来源的，视为完全民事行为能力人。"
    )
    assert second.paragraph == 2 and second.status == "in_force" and second.path[0] == "总则"
    assert store.authority(a18, 3) is None
    assert store.authority(a18, 1, 1) is None  # 款 without 项
    a33 = store.article(CRIMINAL_LAW, "33")
    assert a33 is not None
    assert store.authority(a33, 1, 3).text == "有期徒刑；"  # type: ignore[union-attr]
    assert store.authority(a33, None, 5).text == "死刑。"  # type: ignore[union-attr]
    assert store.authority(a33, 1, 6) is None
    assert store.authority(a33, 1).text.startswith("主刑的种类如下：\n（一）管制；")  # type: ignore[union-attr]


# ---- quirk files ------------------------------------------------------------------------


def test_misplaced_space_and_typo_files_parse(store: AuthorityStore) -> None:
    crpl = store.article("刑事诉讼法", "128", version_hint="2018")
    assert crpl is not None and crpl.text.startswith("侦查人员对于与犯罪有关的场所")
    ji = store.article("刑诉法解释", "124", as_of=date(2022, 1, 1))
    assert ji is not None and ji.text.startswith("采用刑讯逼供方法")
    coop = store.article("农民专业合作社法", "54")
    assert coop is not None and coop.text.startswith("清算组成员应当忠于职守")
    assert len(store.articles("农民专业合作社法")) == 74


def test_instrument_without_articles_keeps_body(store: AuthorityStore) -> None:
    v = store.version("刑法修正案（十一）")
    assert v is not None and v.articles == () and "第一百三十四条" in v.body


# ---- versions -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "as_of,version,has_majority_rule",
    [
        (date(2020, 1, 1), "2018-10-26", True),
        (date(2024, 6, 30), "2018-10-26", True),  # 2023 revision in force only from 2024-07-01
        (date(2024, 7, 1), "2023-12-29", False),
        (None, "2023-12-29", False),
    ],
)
def test_company_law_versions_by_as_of(
    store: AuthorityStore, as_of: date | None, version: str, has_majority_rule: bool
) -> None:
    v = store.version("公司法", as_of=as_of)
    assert v is not None and v.version == version
    a71 = store.article("公司法", "71", as_of=as_of)
    assert a71 is not None and a71.version == version
    assert ("其他股东过半数同意" in a71.text) is has_majority_rule


def test_version_intervals_chain(store: AuthorityStore) -> None:
    inst = store.instrument(COMPANY_LAW)
    assert inst is not None
    old, new = inst.versions
    assert old.in_force_to == new.in_force_from == date(2024, 7, 1)
    assert new.in_force_to is None


@pytest.mark.parametrize(
    "hint,version",
    [
        ("2018年修正", "2018-10-26"),
        ("2018", "2018-10-26"),
        ("2018-10-26", "2018-10-26"),
        ("2023年修订", "2023-12-29"),
        ("1999年", "2023-12-29"),
    ],
)
def test_version_hint(store: AuthorityStore, hint: str, version: str) -> None:
    # an unknown hint (1999) falls back to as_of (None → latest)
    assert store.version(COMPANY_LAW, version_hint=hint).version == version  # type: ignore[union-attr]


def test_as_of_before_every_version_returns_earliest(store: AuthorityStore) -> None:
    v = store.version(COMPANY_LAW, as_of=date(1990, 1, 1))
    assert v is not None and v.version == "2018-10-26"


def test_near_duplicates_collapse(store: AuthorityStore) -> None:
    # 人身损害赔偿解释 2022-04-04 / 2022-04-24 and 民诉法解释 2022-04-01 / 2022-04-02 (SOURCE.md)
    injury = store.instrument("人身损害赔偿解释")
    cpl = store.instrument("民诉法解释")
    assert injury is not None and [v.version for v in injury.versions] == [
        "2020-12-29",
        "2022-04-04",
    ]
    assert cpl is not None and [v.version for v in cpl.versions] == ["2020-12-29", "2022-04-01"]
    assert cpl.versions[-1].in_force_from == date(2022, 4, 10)


# ---- hierarchy, repeals, cases, document numbers -----------------------------------------


@pytest.mark.parametrize(
    "name,kind",
    [
        (CIVIL_CODE, "statute"),
        ("中华人民共和国宪法", "statute"),
        ("民诉法解释", "judicial_interpretation"),
        ("工伤保险条例", "regulation"),
        ("合同法", "statute"),
        ("不存在的法", None),
    ],
)
def test_kind_of(store: AuthorityStore, name: str, kind: str | None) -> None:
    assert store.kind_of(name) == kind


def test_article_1260_derives_the_nine_repealed_laws(store: AuthorityStore) -> None:
    derived = {
        t
        for t in store.repealed_titles()
        if (r := store.repeal_record(t)) is not None and r.source.endswith("第一千二百六十条")
    }
    assert derived == NINE_REPEALED
    for title in NINE_REPEALED:
        rec = store.repeal_record(title)
        assert rec is not None
        assert rec.repealed_on == date(2021, 1, 1)
        assert rec.successor == CIVIL_CODE and rec.level == "法律"
        # all nine are stored with their text (cn_repealed; 继承法, 收养法, 侵权责任法 since
        # issue 24/22: before, by name only)
        assert store.instrument(title) is not None
        assert store.kind_of(title) == "statute"


def test_repealed_interpretation_in_corpus(store: AuthorityStore) -> None:
    rec = store.repeal_record("合同法解释（二）")
    assert rec is not None
    assert rec.successor == "最高人民法院关于适用《中华人民共和国民法典》合同编通则若干问题的解释"
    a = store.article("合同法解释（二）", "1")
    assert a is not None
    auth = store.authority(a)
    assert auth is not None and auth.status == "repealed" and auth.successor == rec.successor
    # a repeal clause in the corpus text: 行诉法解释 2018 第一百六十三条 repealed the 2015 one
    rec = store.repeal_record("最高人民法院关于适用《中华人民共和国行政诉讼法》若干问题的解释")
    assert rec is not None and rec.repealed_on == date(2018, 2, 8)
    assert rec.successor == "最高人民法院关于适用《中华人民共和国行政诉讼法》的解释"


def test_superseded_version_status(store: AuthorityStore) -> None:
    old = store.article(COMPANY_LAW, "71", as_of=date(2020, 1, 1))
    assert old is not None
    assert store.authority(old).status == "superseded"  # type: ignore[union-attr]
    assert store.repeal_record(COMPANY_LAW) is None


def test_guiding_case(store: AuthorityStore) -> None:
    gc = store.guiding_case(24)
    assert gc is not None
    assert gc.title.startswith("荣宝英诉王阳")
    assert "（2013）锡民终字第497号" in gc.case_numbers
    assert gc.published == date(2014, 1, 29)
    assert not gc.no_longer_referenced
    assert store.guiding_case(9).no_longer_referenced  # type: ignore[union-attr]
    assert store.guiding_case(2) is None


@pytest.mark.parametrize(
    "docno,title",
    [
        (
            "法释〔2023〕13号",
            "最高人民法院关于适用《中华人民共和国民法典》合同编通则若干问题的解释",
        ),
        ("法释[2023]13号", "最高人民法院关于适用《中华人民共和国民法典》合同编通则若干问题的解释"),
        ("法释（2020）26号", "最高人民法院关于审理劳动争议案件适用法律问题的解释（一）"),
        ("法释〔2012〕21号", "最高人民法院关于适用《中华人民共和国刑事诉讼法》的解释"),
        ("法释〔1999〕99号", None),
    ],
)
def test_title_for_document_number(store: AuthorityStore, docno: str, title: str | None) -> None:
    assert store.title_for_document_number(docno) == title


# ---- lookups that must fail cleanly -------------------------------------------------------


@pytest.mark.parametrize(
    "title,article",
    [
        (CIVIL_CODE, "1261"),
        (CIVIL_CODE, "五百七十七款"),
        ("不存在的法", "1"),
        ("继承法", "38"),  # repealed, stored with its 37 articles
        ("合同法", "429"),  # repealed, stored with its 428 articles
        (CIVIL_CODE, ""),
    ],
)
def test_missing_article_is_none(store: AuthorityStore, title: str, article: str) -> None:
    assert store.article(title, article) is None


@pytest.mark.parametrize(
    "raw,key",
    [
        ("577", "577"),
        ("第五百七十七条", "577"),
        ("第一百三十三条之一", "133之一"),
        ("133之一", "133之一"),
        ("５７７", "577"),
        ("第十条", "10"),
        ("款", None),
    ],
)
def test_normalise_article(raw: str, key: str | None) -> None:
    assert normalise_article(raw) == key


@pytest.mark.parametrize("key", ["", "x@y#1", f"{CIVIL_CODE}@1999-01-01#1", f"{CIVIL_CODE}#1"])
def test_get_unknown_key(store: AuthorityStore, key: str) -> None:
    assert store.get(key) is None


# ---- search -------------------------------------------------------------------------------


def test_search_within_an_instrument(store: AuthorityStore) -> None:
    hits = store.search(
        "不履行合同义务 继续履行 采取补救措施 赔偿损失 违约责任", instrument="民法典", k=3
    )
    assert hits[0][0].article == "577"
    scores = [s for _, s in hits]
    assert scores == sorted(scores, reverse=True) and scores[0] > 0
    assert store.search("", instrument="民法典") == []
    assert store.search("违约", instrument="不存在的法") == []


def test_search_uses_the_version_in_force(store: AuthorityStore) -> None:
    q = "股东向股东以外的人转让股权 应当经其他股东过半数同意"
    old = store.search(q, instrument=COMPANY_LAW, as_of=date(2020, 1, 1), k=1)
    assert old[0][0].version == "2018-10-26" and old[0][0].article == "71"
    new = store.search(q, instrument=COMPANY_LAW, k=1)
    assert new[0][0].version == "2023-12-29"


@pytest.mark.slow
def test_global_search_respects_as_of(store: AuthorityStore) -> None:
    q = "借款利率 超过 合同成立时一年期贷款市场报价利率四倍"
    now = store.search(q, k=5)
    assert any(
        a.instrument == "最高人民法院关于审理民间借贷案件适用法律若干问题的规定" for a, _ in now
    )
    then = store.search(q, as_of=date(2019, 1, 1), k=20)
    assert all(
        (store.version(a.instrument, as_of=date(2019, 1, 1)).in_force_from or date.min)
        <= date(2019, 1, 1)
        for a, _ in then
    )  # type: ignore[union-attr]
    assert all(store.status_of(a.instrument) != "repealed" for a, _ in now)


# ---- io -----------------------------------------------------------------------------------


def test_save_load_round_trip(store: AuthorityStore, tmp_path: Path) -> None:
    path = tmp_path / "store.json.gz"
    store.save(path)
    again = AuthorityStore.load(path)
    assert again.stats() == store.stats()
    assert again.build_id == store.build_id
    assert again.article(CIVIL_CODE, "577") == store.article(CIVIL_CODE, "577")
    assert again.known_short_names() == store.known_short_names()
    assert [p.name for p in tmp_path.iterdir()] == ["store.json.gz"]  # no temp files left


def test_save_is_atomic_on_failure(store: AuthorityStore, tmp_path: Path) -> None:
    target = tmp_path / "dir-not-file"
    target.mkdir()
    with pytest.raises(StoreError, match="cannot write"):
        store.save(target)  # os.replace onto a directory fails
    assert [p.name for p in tmp_path.iterdir()] == ["dir-not-file"]


@pytest.mark.parametrize(
    "content,match",
    [
        (b"not json at all", "corrupt"),
        (lzma.compress(b"{broken"), "corrupt"),
        (gzip.compress(json.dumps({"format": 999}).encode()), "format"),
        (json.dumps([1, 2]).encode(), "not a store"),
    ],
)
def test_load_rejects_bad_files(tmp_path: Path, content: bytes, match: str) -> None:
    p = tmp_path / "bad.json"
    p.write_bytes(content)
    with pytest.raises(StoreError, match=match):
        AuthorityStore.load(p)


def test_load_missing_file(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="citegov corpus build"):
        AuthorityStore.load(tmp_path / "nope.json.xz")


def test_stats(store: AuthorityStore) -> None:
    st = store.stats()
    assert st["instruments"] > 1400 and st["articles"] > 60000 and st["guiding_cases"] == 8
    assert st["level:司法解释"] > 400 and st["repealed_absent"] >= 9


def test_bundled_global_index_is_used_on_a_fresh_machine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first store-wide search unpacks the shipped index instead of tokenising the corpus."""
    from governor.authorities import AuthorityStore

    monkeypatch.setenv("CITEGOV_CACHE_DIR", str(tmp_path))
    store = AuthorityStore.load()
    hits = store.search("当事人一方不履行合同义务或者履行合同义务不符合约定的 违约责任", k=3)
    assert hits and hits[0][0].instrument == "中华人民共和国民法典"
    assert [p.name for p in (tmp_path / "bm25").iterdir()] == [store.build_id]


# ---- fast indexes (issue 16: cold start) ---------------------------------------------------


@pytest.mark.parametrize(
    "instrument,as_of,query",
    [
        ("劳动合同法", None, "用人单位 未签订书面劳动合同 二倍工资"),
        ("公司法", None, "股东 出资 股东"),
        ("公司法", date(2020, 1, 1), "股东向股东以外的人转让股权"),
        ("消费者权益保护法", None, "欺诈 三倍 赔偿"),
        ("民事诉讼法", date(2015, 1, 1), "管辖 被告住所地 人民法院"),
        ("刑法", None, "的 了 是"),  # stop words only: no token, all zero
    ],
)
def test_token_table_index_scores_like_bm25s(
    store: AuthorityStore, instrument: str, as_of: date | None, query: str
) -> None:
    """Per-instrument indexes built from the shipped token table score as bm25s does on the
    same articles tokenised afresh (same top 10, scores within float32 rounding)."""
    import numpy as np

    from governor.authorities.store import _Bm25, _CscBm25, _top

    title = store._title(instrument)
    assert title is not None
    v = store._select_version(title, as_of, None)
    assert v is not None
    fast = store._version_index(title, v["version"])
    assert isinstance(fast, _CscBm25)  # the table is shipped for this build
    amap = store._article_map(title, v["version"])
    ref = _Bm25.build(list(amap), [a.text for a in amap.values()])
    assert fast.keys == ref.keys
    got, want = fast.scores(query), ref.scores(query)
    assert np.allclose(got, want, rtol=1e-5, atol=1e-6)
    assert _top(got, 10) == _top(want, 10)


def test_token_table_is_ignored_for_another_build(store: AuthorityStore) -> None:
    other = AuthorityStore({**store._payload, "build_id": "not-the-bundled-build"})
    assert other._token_table() is None
    hits = other.search("用人单位 未签订书面劳动合同 二倍工资", instrument="劳动合同法", k=1)
    assert (
        hits[0][0].article
        == store.search("用人单位 未签订书面劳动合同 二倍工资", instrument="劳动合同法", k=1)[0][
            0
        ].article
    )


def test_saved_global_index_scores_like_bm25s(store: AuthorityStore) -> None:
    """The global index read without bm25s (memory-mapped arrays) scores as bm25s's loader."""
    import bm25s
    import numpy as np

    from governor.authorities.store import _Bm25, _CscBm25, _top

    fast = store._global_index()
    assert isinstance(fast, _CscBm25)
    d = store._cache_dir()
    assert d is not None
    ref = _Bm25(bm25s.BM25.load(str(d)), fast.keys)
    for query in ("违约责任 赔偿损失", "故意杀人 死刑", "股东 出资 股东", "zzzz"):
        got, want = fast.scores(query), ref.scores(query)
        assert np.allclose(got, want, rtol=1e-5, atol=1e-6), query
        assert _top(got, 10) == _top(want, 10), query


def test_decompressed_store_is_cached_and_a_damaged_copy_is_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CITEGOV_CACHE_DIR", str(tmp_path))
    first = AuthorityStore.load()
    (cached,) = (tmp_path / "store").iterdir()
    assert cached.suffix == ".json" and cached.stat().st_size > 10_000_000
    cached.write_bytes(b"{damaged")
    again = AuthorityStore.load()
    assert again.build_id == first.build_id
    assert json.loads(cached.read_bytes())["build_id"] == first.build_id


@pytest.mark.parametrize(
    "name",
    [
        "中华人民共和国民法典",
        "民法典",
        "中华人民共和国公司法",
        "中华人民共和国合同法",  # repealed, text in the store
        "中华人民共和国刑法",
        "最高人民法院关于审理民间借贷案件适用法律若干问题的规定",
        "中华人民共和国担保法",
        "不存在的法",
    ],
)
@pytest.mark.parametrize("as_of", [None, date(2015, 6, 1), date(2024, 6, 1)])
def test_cheap_accessors_agree_with_the_built_records(
    store: AuthorityStore, name: str, as_of: date | None
) -> None:
    """has_instrument / has_articles / version_count / parent_law / version_dates /
    article_texts answer from the payload what the full records would (issue 16: a cold
    verify no longer builds every article of every version it only asks about)."""
    fresh = AuthorityStore(store._payload)  # nothing materialised yet
    inst = store.instrument(name)
    assert fresh.has_instrument(name) == (inst is not None)
    assert fresh.has_articles(name) == bool(inst and any(v.articles for v in inst.versions))
    assert fresh.version_count(name) == (len(inst.versions) if inst else 0)
    assert fresh.parent_law(name) == (inst.parent_law if inst else None)
    v = store.version(name, as_of=as_of)
    dates = fresh.version_dates(name, as_of=as_of)
    assert (dates is None) == (v is None)
    if v is not None and dates is not None:
        assert dates == (v.version, v.in_force_from, v.in_force_to)
    arts = store.articles(name, as_of=as_of)
    texts = fresh.article_texts(name, as_of=as_of)
    if inst is None:
        assert texts is None
    else:
        assert texts is not None and (not arts or texts[0] == arts[0].version)
        assert texts[1] == tuple(a.text for a in arts)
    assert not fresh._article_maps and not fresh._versions and not fresh._instruments
