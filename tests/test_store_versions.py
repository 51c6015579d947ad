"""刑法 versions rebuilt from its 修正案, the updates corpus, repeals that take effect later, the
horizon, and the version in force on a date (issue 24 items 1-7; issue 22 item 4)."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

import pytest

from benchmarks.datadir import data_path
from governor.api import Governor
from governor.authorities import AuthorityStore, load_default_store
from governor.authorities.parse import parse_markdown
from governor.authorities.rebuild import (
    Amendment,
    known,
    parse_amendment,
    rebuild,
    to_state,
    wording,
)

CRIMINAL = "中华人民共和国刑法"
LAWS = data_path("cn_laws")
needs_corpus = pytest.mark.skipif(
    not (LAWS / "刑法" / "刑法.md").is_file(), reason="needs ../shared/data/cn_laws"
)


@pytest.fixture(scope="module")
def store() -> AuthorityStore:
    return load_default_store()


def _amendments() -> list[Amendment]:
    out = []
    for path in sorted((LAWS / "刑法").glob("刑法修正案*.md")):
        text = path.read_text(encoding="utf-8")
        pf = parse_markdown(text)
        body = text.split("<!-- INFO END -->", 1)[1].splitlines()
        out.append(parse_amendment(pf.title, body, pf.events[0][0]))
    return sorted(out, key=lambda a: a.adopted)


@pytest.fixture(scope="module")
def rebuilt() -> tuple[list[Amendment], dict[str, object], object]:
    pf = parse_markdown((LAWS / "刑法" / "刑法.md").read_text(encoding="utf-8"))
    current = to_state([[a.key, 0, a.paragraphs] for a in pf.articles])
    ams = _amendments()
    return ams, current, rebuild(current, ams)  # type: ignore[arg-type]


# (修正案, adopted, in force): 「本修正案自…起施行」 or 「自公布之日起施行」 (= adoption)
DATES = [
    ("中华人民共和国刑法修正案", "1999-12-25", "1999-12-25"),
    ("中华人民共和国刑法修正案（二）", "2001-08-31", "2001-08-31"),
    ("中华人民共和国刑法修正案（三）", "2001-12-29", "2001-12-29"),
    ("中华人民共和国刑法修正案（四）", "2002-12-28", "2002-12-28"),
    ("中华人民共和国刑法修正案（五）", "2005-02-28", "2005-02-28"),
    ("中华人民共和国刑法修正案（六）", "2006-06-29", "2006-06-29"),
    ("中华人民共和国刑法修正案（七）", "2009-02-28", "2009-02-28"),
    ("中华人民共和国刑法修正案（八）", "2011-02-25", "2011-05-01"),
    ("中华人民共和国刑法修正案（九）", "2015-08-29", "2015-11-01"),
    ("中华人民共和国刑法修正案（十）", "2017-11-04", "2017-11-04"),
    ("中华人民共和国刑法修正案（十一）", "2020-12-26", "2021-03-01"),
    ("中华人民共和国刑法修正案（十二）", "2023-12-29", "2024-03-01"),
]


@needs_corpus
def test_every_amendment_is_read_with_its_dates(rebuilt) -> None:  # type: ignore[no-untyped-def]
    ams = rebuilt[0]
    assert [(a.title, a.adopted.isoformat(), a.in_force.isoformat()) for a in ams] == DATES
    assert all(a.ops for a in ams)


@needs_corpus
def test_round_trip_forward_from_the_rebuilt_1997_text_gives_todays_text(rebuilt) -> None:  # type: ignore[no-untyped-def]
    """Apply all twelve 修正案 to the rebuilt 1997 text: every article equals the consolidated
    text (up to the 修正案's ASCII 「:」「,」 and one dropped 「。」, :func:`wording`)."""
    _ams, current, rb = rebuilt
    assert set(rb.forward) == set(current)
    off = [k for k in current if wording(rb.forward[k]) != wording(current[k])]
    assert off == []
    assert len(rb.states[0]) == 452  # 1997: 第一条 … 第四百五十二条, no 之一 articles
    assert not any("之" in k for k in rb.states[0])


@needs_corpus
def test_an_amendment_changes_exactly_the_articles_it_names(rebuilt) -> None:  # type: ignore[no-untyped-def]
    ams, _current, rb = rebuilt
    for i, a in enumerate(ams):
        before, after = rb.states[i], rb.states[i + 1]
        for k in set(before) | set(after):
            comparable = k in before and k in after and known(before[k]) and known(after[k])
            differs = (k in before) != (k in after) or (
                comparable and wording(before[k]) != wording(after[k])
            )
            if k in a.keys:
                assert differs or not comparable, (a.title, k)
            else:
                assert not differs, (a.title, k)


# one changed article per 修正案: (in force, article, words only after, words only before or
# None: added then / "unknown": the earlier wording is in no corpus text and is marked)
PER_AMENDMENT = [
    ("1999-12-25", "162之一", "隐匿或者故意销毁依法应当保存的会计凭证", None),
    ("2001-08-31", "342", "非法占用耕地、林地等农用地", "unknown"),
    ("2001-12-29", "120之一", "资助恐怖活动组织", None),
    ("2002-12-28", "244之一", "雇用未满十六周岁的未成年人", None),
    ("2005-02-28", "177之一", "妨害信用卡管理", None),
    (
        "2006-06-29",
        "182",
        "操纵证券、期货市场",
        "操纵证券、期货交易价格，获取不正当利益或者转嫁风险",
    ),
    ("2009-02-28", "224之一", "组织、领导以推销商品、提供服务等经营活动为名", None),
    ("2011-05-01", "133之一", "醉酒驾驶机动车", None),
    ("2015-11-01", "120之二", "为实施恐怖活动准备凶器", None),
    ("2017-11-04", "299", "侮辱国歌", "unknown"),
    ("2021-03-01", "133之二", "对行驶中的公共交通工具的驾驶人员使用暴力", None),
    (
        "2024-03-01",
        "390",
        "对犯行贿罪的，处三年以下有期徒刑或者拘役",
        "对犯行贿罪的，处五年以下有期徒刑或者拘役",
    ),
]


@pytest.mark.parametrize(("day", "article", "after", "before"), PER_AMENDMENT)
def test_each_amendment_changes_its_article_on_its_date(
    store: AuthorityStore, day: str, article: str, after: str, before: str | None
) -> None:
    on = date.fromisoformat(day)
    new = store.article(CRIMINAL, article, as_of=on)
    assert new is not None and after in new.text
    assert store.text_in_force_from(CRIMINAL, new.version, article) is None
    old = store.article(CRIMINAL, article, as_of=on - timedelta(days=1))
    if before is None:
        assert old is None  # the article did not exist yet
    elif before == "unknown":
        assert old is not None
        assert store.text_in_force_from(CRIMINAL, old.version, article) is not None
    else:
        assert old is not None and before in old.text and after not in old.text


def test_the_current_criminal_law_is_the_2023_version_in_force_from_2024(
    store: AuthorityStore,
) -> None:
    """It contains 修正案（十二）: labelled 2023-12-29 / 2024-03-01, not 2020-12-26 / 2021-03-01."""
    inst = store.instrument(CRIMINAL)
    assert inst is not None and len(inst.versions) == 13
    last = inst.versions[-1]
    assert (last.version, last.in_force_from) == ("2023-12-29", date(2024, 3, 1))
    first = inst.versions[0]
    assert (first.version, first.in_force_from) == ("1997-03-14", date(1997, 10, 1))
    for a, b in zip(inst.versions, inst.versions[1:], strict=False):
        assert a.in_force_to == b.in_force_from


@pytest.mark.parametrize(
    "day", ["1997-10-01", "2003-05-05", "2014-01-01", "2016-06-01", "2018-12-31"]
)
def test_no_criminal_citation_after_1997_lacks_its_version(store: AuthorityStore, day: str) -> None:
    on = date.fromisoformat(day)
    v = store.version_dates(CRIMINAL, as_of=on)
    assert v is not None and v.in_force_from is not None and v.in_force_from <= on
    assert v.in_force_to is None or on < v.in_force_to


def test_a_2016_report_is_checked_against_the_2015_wording() -> None:
    gov = Governor(store=load_default_store())
    text = "根据《刑法》第三百九十条第一款，对犯行贿罪的，处五年以下有期徒刑或者拘役，并处罚金。"
    (then,) = gov.verify(text, as_of=date(2016, 6, 1))
    assert then.existence.label == "exists"
    assert then.fidelity.label not in ("unfaithful", "not_assessed"), then.fidelity
    (now,) = gov.verify(text, as_of=date(2024, 6, 1))
    assert now.fidelity.label != then.fidelity.label or now.fidelity.label == "unfaithful"


# ---------------------------------------------------------------------------- updates corpus


def test_the_store_states_its_horizon(store: AuthorityStore) -> None:
    """The date of its newest text (cn_laws_updates: 农业法/医疗保障法… of 2026-08-28)."""
    assert isinstance(store.horizon, date)
    assert store.horizon == date(2026, 8, 28)
    newest = max(
        v.published
        for t in store.titles()
        if (i := store.instrument(t)) is not None
        for v in i.versions
        if v.published
    )
    assert store.horizon == newest


def test_the_horizon_falls_back_to_the_newest_version_date(store: AuthorityStore) -> None:
    payload = dict(store._payload)
    payload.pop("horizon", None)
    assert AuthorityStore(payload).horizon == store.horizon


# (title, as_of, version in force) — law made after the cn_laws snapshot (2025-04-19)
UPDATED = [
    ("中华人民共和国治安管理处罚法", "2025-12-31", "2012-10-26"),
    ("中华人民共和国治安管理处罚法", "2026-02-01", "2025-06-27"),
    ("中华人民共和国反不正当竞争法", "2025-10-15", "2025-06-27"),
    ("中华人民共和国仲裁法", "2026-03-01", "2025-09-12"),
    ("中华人民共和国仲裁法", "2026-02-28", "2017-09-01"),
]


@pytest.mark.parametrize(("title", "day", "version"), UPDATED)
def test_law_made_since_the_snapshot_is_in_the_store(
    store: AuthorityStore, title: str, day: str, version: str
) -> None:
    status, v = store.in_force_on(title, date.fromisoformat(day))
    assert status == "in_force" and v is not None and v.version == version


# stale commencement articles: the in-force date comes from the amending decision
# (cn_laws_updates/SOURCE.md, "in-force note"), not 「本法自…起施行」 of the text
IN_FORCE_EXCEPTIONS = [
    ("中华人民共和国网络安全法", "2025-10-28", "2026-01-01", "本法自2017年6月1日起施行"),
    ("中华人民共和国村民委员会组织法", "2025-10-28", "2026-01-01", "本法自公布之日起施行"),
    ("中华人民共和国环境保护税法", "2025-10-28", "2025-10-28", "本法自2018年1月1日起施行"),
    ("中华人民共和国注册会计师法", "2026-06-26", "2027-01-01", "本法自1994年1月1日起施行"),
    ("中华人民共和国食品安全法", "2025-09-12", "2025-12-01", None),
    ("中华人民共和国律师法", "2026-08-28", "2026-09-01", "本法自2008年6月1日起施行"),
    ("住房公积金管理条例", "2026-08-10", "2026-09-20", "本条例自发布之日起施行"),
    ("中华人民共和国刑法", "2023-12-29", "2024-03-01", "本法自1997年10月1日起施行"),
    ("中华人民共和国刑法修正案（十二）", "2023-12-29", "2024-03-01", None),  # 本修正案自…
]


@pytest.mark.parametrize(("title", "version", "in_force", "stale"), IN_FORCE_EXCEPTIONS)
def test_in_force_dates_come_from_the_amending_instrument(
    store: AuthorityStore, title: str, version: str, in_force: str, stale: str | None
) -> None:
    inst = store.instrument(title)
    assert inst is not None
    v = next(v for v in inst.versions if v.version == version)
    assert v.in_force_from == date.fromisoformat(in_force)
    if stale is not None:
        assert stale in v.articles[-1].text  # the text itself still says otherwise


def test_where_each_in_force_date_was_read(store: AuthorityStore) -> None:
    """Every version records where its in-force date comes from: the text (``施行`` line or
    「本法自…起施行」), an amending instrument (修正案, 修改决定), or — the exceptions — the
    manifest ``valid_from`` or the version date (no statement in any corpus text). A ratchet:
    the exceptions must not grow (laws: 176 before the 「自公布之日起施行」 reading, 153 now;
    all levels: 847 before, 677 now)."""
    sources: dict[str, int] = {}
    law_exceptions = 0
    for title in store.titles():
        for v in store._raw[title]["versions"]:
            src = v.get("in_force_source")
            sources[src] = sources.get(src, 0) + 1
            if store._raw[title]["level"] == "法律" and src in ("manifest", "version date"):
                law_exceptions += 1
    assert set(sources) <= {
        "text",
        "article",
        "修正案",
        "amending decision",
        "manifest",
        "version date",
    }
    assert sources["修正案"] >= 12 + 12 and sources["amending decision"] >= 6
    assert law_exceptions <= 153
    assert sum(sources[s] for s in ("manifest", "version date")) <= 677


EXCEPTIONS = Path(__file__).parent / "data" / "in_force_exceptions.csv"


def test_every_remaining_exception_is_listed_with_its_source(store: AuthorityStore) -> None:
    """Every stored version's exception — of any level: laws, 宪法, regulations, judicial
    interpretations, cases — is in ``tests/data/in_force_exceptions.csv`` (written by
    ``scripts/in_force_exceptions.py``) with its source and the reason no corpus text states
    the date: for laws mostly a 修正 by an NPCSC decision the corpus lacks, whose consolidated
    text keeps the original commencement article; for regulations mostly a header with no
    event on the version's date."""
    import csv

    with EXCEPTIONS.open(encoding="utf-8") as fh:
        listed = {(r["title"], r["version"]): r for r in csv.DictReader(fh)}
    assert all(r["reason"] and r["source"] in ("manifest", "version date") for r in listed.values())
    found = {
        (t, v["version"])
        for t in store.titles()
        for v in store._raw[t]["versions"]
        if v.get("in_force_source") in ("manifest", "version date")
    }
    assert found - set(listed) == set()
    assert len(found) <= len(listed) == 677
    laws = [r for r in listed.values() if r["level"] in ("法律", "宪法")]
    assert len(laws) == 155


# (title, version, in force, where it was read): the audit's readings (issue 24 item 2)
IN_FORCE_READ = [
    # 「自公布之日起施行」 of a text adopted whole: the day of its adoption (主席令 the same day)
    ("中华人民共和国国家安全法", "2015-07-01", "2015-07-01", "article"),
    ("中华人民共和国香港特别行政区维护国家安全法", "2020-06-30", "2020-06-30", "article"),
    ("中华人民共和国科学技术普及法", "2024-12-25", "2024-12-25", "article"),
    # a 修正 keeps the original 「本法自公布之日起施行」: the decision's date (flk), not the clause
    ("中华人民共和国人民警察法", "2012-10-26", "2013-01-01", "manifest"),
    ("中华人民共和国民事诉讼法", "2021-12-24", "2022-01-01", "manifest"),
    # a 施行 line older than the version is the amended text's (1980 / 2015), not the version's
    ("中华人民共和国地方各级人民代表大会和地方各级人民政府组织法", "2022-03-11", "2022-03-12", "manifest"),
    ("中华人民共和国广告法", "2021-04-29", "2021-04-29", "version date"),
    # 「1999年12月20日 实施」 in the header; 「全国人民代表大会公告公布施行」
    ("中华人民共和国澳门特别行政区基本法", "1993-03-31", "1999-12-20", "text"),
    ("中华人民共和国宪法修正案（2004年）", "2004-03-14", "2004-03-14", "text"),
    # an SPC decision's 「本决定自…起施行」 confirms the interpretation's date
    (
        "最高人民法院关于审理掩饰、隐瞒犯罪所得、犯罪所得收益刑事案件适用法律若干问题的解释",
        "2021-04-13",
        "2021-04-15",
        "amending decision",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("title", "version", "in_force", "source"), IN_FORCE_READ)
def test_in_force_dates_read_by_the_audit(
    store: AuthorityStore, title: str, version: str, in_force: str, source: str
) -> None:
    v = next(v for v in store._raw[title]["versions"] if v["version"] == version)
    assert (v["in_force_from"], v["in_force_source"]) == (in_force, source)


ENVIRONMENT_LAWS = [
    "环境保护法", "环境影响评价法", "海洋环境保护法", "大气污染防治法", "水污染防治法",
    "土壤污染防治法", "固体废物污染环境防治法", "噪声污染防治法", "放射性污染防治法", "清洁生产促进法",
]  # fmt: skip


@pytest.mark.parametrize("short", ENVIRONMENT_LAWS)
def test_the_environment_code_repeals_ten_laws_on_its_in_force_date(
    store: AuthorityStore, short: str
) -> None:
    title = f"中华人民共和国{short}"
    status, v = store.in_force_on(title, date(2026, 8, 14))
    assert status == "in_force" and v is not None
    status, v = store.in_force_on(title, date(2026, 8, 15))
    assert status == "repealed" and v is not None
    rec = store.repeal_record(title)
    assert rec is not None and rec.repealed_on == date(2026, 8, 15)
    assert rec.successor == "中华人民共和国生态环境法典"


# ---------------------------------------------------------------------------- repealed texts


@pytest.mark.parametrize(
    ("title", "articles", "repealed"),
    [
        ("中华人民共和国继承法", 37, "2021-01-01"),
        ("中华人民共和国侵权责任法", 92, "2021-01-01"),
        ("中华人民共和国收养法", 34, "2021-01-01"),
    ],
)
def test_repealed_laws_have_their_texts(
    store: AuthorityStore, title: str, articles: int, repealed: str
) -> None:
    inst = store.instrument(title)
    assert inst is not None and inst.repealed_on == date.fromisoformat(repealed)
    assert len(inst.versions[-1].articles) == articles


def test_the_2015_private_lending_rules_are_the_earlier_version() -> None:
    store = load_default_store()
    title = "最高人民法院关于审理民间借贷案件适用法律若干问题的规定"
    rec = store.article(title, "26", as_of=date(2016, 1, 1))
    assert rec is not None and "24%" in rec.text
    assert rec.version == "2015-08-06"


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("《继承法》第五十三条规定，遗产应当平均分配。", "not_found"),  # 继承法 has 37 articles
        ("《继承法》第十条规定，遗产按照下列顺序继承。", "repealed"),
    ],
)
def test_an_article_beyond_a_repealed_laws_last_is_not_found(text: str, label: str) -> None:
    gov = Governor(store=load_default_store())
    (r,) = gov.verify(text, as_of=date(2024, 1, 1))
    assert r.existence.label == label, r.existence.rationale


# ---------------------------------------------------------------------------- as_of lookups


def test_provision_lookup_gives_the_version_in_force_on_as_of() -> None:
    from governor.service.governing import lookup_provision

    gov = Governor(store=load_default_store())
    before = lookup_provision(gov, "民法典第五百八十五条第二款", date(2019, 3, 1))
    assert before.status == "not_yet_in_force" and before.in_force is None and before.text is None
    after = lookup_provision(gov, "合同法第一百一十四条", date(2024, 1, 1))
    assert after.status == "repealed" and after.in_force is None
    assert after.repealed_on == date(2021, 1, 1) and after.text and "违约金" in after.text
    assert after.successor == "中华人民共和国民法典"
    assert after.versions[-1].in_force_to == date(2021, 1, 1)
    then = lookup_provision(gov, "刑法第三百九十条", date(2022, 1, 1))
    assert then.status == "in_force" and then.in_force == "2020-12-26"
    assert then.text and "处五年以下有期徒刑或者拘役" in then.text


def test_corpus_show_prints_the_text_of_the_day() -> None:
    from typer.testing import CliRunner

    from governor.cli.app import app

    runner = CliRunner()
    res = runner.invoke(app, ["corpus", "show", "刑法第三百九十条", "--as-of", "2022-01-01"])
    assert res.exit_code == 0, res.output
    assert "处五年以下有期徒刑或者拘役" in res.output and "2020-12-26" in res.output
    res = runner.invoke(app, ["corpus", "show", "民法典第五百八十五条", "--as-of", "2019-03-01"])
    assert res.exit_code == 1 and "not yet in force" in res.output
    res = runner.invoke(app, ["corpus", "stats"])
    assert res.exit_code == 0 and "horizon" in res.output and "2026-08-28" in res.output
    assert "BM25-only" in res.output


def test_the_bundled_store_keeps_the_shipped_vectors_usable(store: AuthorityStore) -> None:
    """No rebuild of embeddings_use.*: the store records the build they were made from."""
    from governor.retrieval.prebuilt import bundled_prebuilt, read_header

    header = read_header(bundled_prebuilt())
    base = store.dense_base
    assert header.store_build == store.build_id or (
        base is not None and base["build_id"] == header.store_build
    )


def _unused(_: Path) -> None:  # keep Path imported for type checkers of fixtures
    return None


@pytest.mark.parametrize(
    ("text", "day", "label", "needle"),
    [
        # added by 刑法修正案（八） (in force 2011-05-01): not yet an article in 2010, no repeal
        (
            "依据《刑法》第一百三十三条之一，被告人构成危险驾驶罪。",
            "2010-01-01",
            "not_found",
            "2011-05-01",
        ),
        ("依据《刑法》第一百三十三条之一，被告人构成危险驾驶罪。", "2012-01-01", "exists", ""),
        # added by 刑法修正案（三） (2001-12-29)
        (
            "依据《刑法》第一百二十条之一，被告人构成资助恐怖活动罪。",
            "2000-01-01",
            "not_found",
            "2001-12-29",
        ),
        # added by 刑法修正案（九） (in force 2015-11-01): cited between adoption and force
        (
            "依据《刑法》第二百八十七条之一，被告人构成非法利用信息网络罪。",
            "2015-09-01",
            "not_found",
            "2015-11-01",
        ),
    ],
)
def test_an_article_cited_before_its_amendment_added_it_did_not_exist_yet(
    text: str, day: str, label: str, needle: str
) -> None:
    gov = Governor(store=load_default_store())
    (r,) = gov.verify(text, as_of=date.fromisoformat(day))
    assert r.existence.label == label, r.existence.rationale
    assert needle in (r.existence.rationale or "")
    assert "repeal" not in (r.existence.rationale or "")


def test_provision_lookup_of_an_article_not_yet_added() -> None:
    from governor.service.governing import lookup_provision

    gov = Governor(store=load_default_store())
    early = lookup_provision(gov, "刑法第一百三十三条之一", date(2010, 1, 1))
    assert early.status == "not_yet_in_force" and early.in_force is None and early.text is None
    later = lookup_provision(gov, "刑法第一百三十三条之一", date(2012, 1, 1))
    assert later.status == "in_force" and later.in_force == "2011-02-25" and later.text


# (reference, cited words, as_of, lookup status): issue 24 "Why" rows and a rebuilt 宪法 version
LOOKUP_VS_VERIFY = [
    ("民法典第五百八十五条第二款", "约定的违约金低于造成的损失的，人民法院可以增加。", "2019-03-01", "not_yet_in_force"),
    ("合同法第一百一十四条", "当事人可以约定违约金。", "2024-01-01", "repealed"),
    ("宪法第一百二十三条", "人民法院是国家的审判机关。", "2010-01-01", "in_force"),
    ("刑法第三百九十条", "对犯行贿罪的，处五年以下有期徒刑或者拘役。", "2022-01-01", "in_force"),
]  # fmt: skip


@pytest.mark.parametrize(("ref", "words", "day", "status"), LOOKUP_VS_VERIFY)
def test_provision_lookup_agrees_with_verify(ref: str, words: str, day: str, status: str) -> None:
    """/v1/provisions and verify read the same version: not in force on the day (SPEC §3
    ``repealed``: before the law took effect or after its repeal) for both, with no in-force
    version named, or in force for both with the text of that day."""
    from governor.service.governing import lookup_provision

    gov = Governor(store=load_default_store())
    on = date.fromisoformat(day)
    law, _, art = ref.partition("第")
    (r,) = gov.verify(f"根据《{law}》第{art}，{words}", as_of=on)
    p = lookup_provision(gov, ref, on)
    assert p.status == status
    if status == "in_force":
        assert r.existence.label == "exists" and p.in_force is not None
        assert p.text and words.rstrip("。")[-6:] in p.text
    else:
        assert r.existence.label == "repealed" and p.in_force is None
        assert (p.repealed_on is None) == (status == "not_yet_in_force")
