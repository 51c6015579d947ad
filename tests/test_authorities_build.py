"""Building a store from a corpus folder: versions, in-force dates, parts, duplicates, repeals."""

from __future__ import annotations

import csv
import json
from datetime import date
from pathlib import Path

import pytest

from benchmarks.datadir import data_path
from governor.authorities import AuthorityStore
from governor.authorities.build import build_payload
from governor.core.errors import CorpusError

SHARED = data_path("cn_laws").parent

COLUMNS = "path,folder,level,title,subtitle,db_name,publish,valid_from,expired_flag,versions_in_corpus,latest_in_corpus,articles,has_info_end,bytes,sha1".split(
    ","
)


def _write(root: Path, rows: list[tuple[str, str, str, str, str, str, str]]) -> None:
    """rows: (path, level, publish, valid_from, expired, latest, text)."""
    with (root / "manifest.csv").open("w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, COLUMNS)
        w.writeheader()
        for path, level, publish, valid_from, expired, latest, text in rows:
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_text(text, encoding="utf-8")
            title = text.splitlines()[0].lstrip("# ")
            w.writerow({c: "" for c in COLUMNS} | {
                "path": path, "folder": path.split("/")[0], "level": level, "title": title,
                "publish": publish, "valid_from": valid_from, "expired_flag": expired,
                "latest_in_corpus": latest,
            })  # fmt: skip


def law(title: str, meta: str, body: str, sub: str = "") -> str:
    return (
        f"# {title}\n\n"
        + (f"# {sub}\n\n" if sub else "")
        + f"{meta}\n\n<!-- INFO END -->\n\n{body}"
    )


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("cn_laws")
    code = "中华人民共和国样本法典"
    _write(
        root,
        [
            # two versions; the newer one has no 施行 line but a 附则 clause within 3 years
            ("民法商法/甲法(2018-10-26).md", "法律", "2018-10-26", "2018-10-26", "0", "0",
             law("中华人民共和国甲法", "2018年10月26日 修正", "第一条 旧文。\n\n第二条 本法自1994年7月1日起施行。\n")),
            ("民法商法/甲法(2023-12-29).md", "法律", "2023-12-29", "", "0", "1",
             law("中华人民共和国甲法", "2023年12月29日 修订", "第一条 新文。\n\n第二条 本法自2024年7月1日起施行。\n")),
            # a near-duplicate of a 司法解释 (same text, punctuation width differs)
            ("司法解释/乙解释(2022-04-01).md", "司法解释", "2022-04-01", "", "0", "0",
             law("最高人民法院关于适用《中华人民共和国甲法》的解释", "2022年4月10日 施行", "第一条 审理(包括调解)。\n")),
            ("司法解释/乙解释(2022-04-02).md", "司法解释", "2022-04-02", "", "0", "1",
             law("最高人民法院关于适用《中华人民共和国甲法》的解释", "2022年3月22日 通过", "第一条 审理（包括调解）。\n")),
            # a code split into parts; its 附则 repeals two absent laws and one in the corpus
            ("民法典/总则.md", "法律", "", "", "0", "1",
             law(code, "2020年5月28日 通过\n\n2021年1月1日 施行", "## 第一章 基本规定\n\n第一条 总则。\n", "总则")),
            ("民法典/附则.md", "法律", "", "", "0", "1",
             law(code, "2020年5月28日 通过\n\n2021年1月1日 施行",
                 "第二条 本法自2021年1月1日起施行。《中华人民共和国丙法》、《中华人民共和国丁法》、"
                 "《中华人民共和国甲法》同时废止。\n", "附则")),
            # an expired interpretation of a repealed law (curated successor table does not know it)
            ("司法解释/丙法解释(2009-04-24).md", "司法解释", "2009-04-24", "2009-05-13", "1", "1",
             law("最高人民法院关于适用《中华人民共和国丙法》若干问题的解释（二）", "2009年2月9日 通过", "第一条 丙。\n")),
            # a 批复 without articles and with a document number line near the top
            ("司法解释/批复.md", "司法解释", "2021-05-01", "", "0", "1",
             law("最高人民法院关于某问题的批复", "2021年5月1日 通过", "法释〔2021〕9号\n\n上海市高级人民法院：\n\n经研究，批复如下。\n")),
        ],
    )  # fmt: skip
    return root


@pytest.fixture(scope="module")
def built(corpus: Path) -> AuthorityStore:
    return AuthorityStore.build(corpus)


def test_versions_and_in_force_rules(built: AuthorityStore) -> None:
    inst = built.instrument("甲法")
    assert inst is not None
    old, new = inst.versions
    assert (old.version, old.in_force_from) == (
        "2018-10-26",
        date(2018, 10, 26),
    )  # 1994 clause ignored
    assert (new.version, new.in_force_from) == ("2023-12-29", date(2024, 7, 1))  # 附则 clause
    assert old.in_force_to == date(2024, 7, 1) and new.in_force_to is None
    assert built.article("甲法", "1", as_of=date(2024, 1, 1)).text == "旧文。"  # type: ignore[union-attr]
    assert built.article("甲法", "1", as_of=date(2024, 7, 1)).text == "新文。"  # type: ignore[union-attr]


def test_near_duplicates_collapse_into_the_earliest(built: AuthorityStore) -> None:
    inst = built.instrument("甲法解释")
    assert inst is not None
    assert [v.version for v in inst.versions] == ["2022-04-01"]
    assert inst.versions[0].in_force_from == date(2022, 4, 10)
    assert inst.parent_law == "中华人民共和国甲法"


def test_parts_merge_into_one_version(built: AuthorityStore) -> None:
    v = built.version("样本法典")
    assert v is not None and v.version == "2020-05-28" and v.in_force_from == date(2021, 1, 1)
    assert [(a.article, a.path) for a in v.articles] == [
        ("1", ("总则", "第一章 基本规定")),
        ("2", ("附则",)),
    ]
    assert built.resolve_instrument("样本法典总则编") == "中华人民共和国样本法典"


def test_repeals_derived_from_the_text(built: AuthorityStore) -> None:
    for absent in ("中华人民共和国丙法", "中华人民共和国丁法"):
        rec = built.repeal_record(absent)
        assert rec is not None and rec.repealed_on == date(2021, 1, 1)
        assert rec.successor == "中华人民共和国样本法典" and rec.level == "法律"
        assert "《中华人民共和国样本法典》第二条" == rec.source
    # 甲法 is named too, but its newest version (in force 2024) postdates the repeal: an older,
    # homonymous instrument was meant, so the current one is not marked repealed
    assert built.repeal_record("甲法") is None
    assert built.resolve_instrument("丙法") == "中华人民共和国丙法"


def test_expired_flag_without_date_is_repealed_status(built: AuthorityStore) -> None:
    title = "最高人民法院关于适用《中华人民共和国丙法》若干问题的解释（二）"
    assert built.repeal_record(title) is None
    assert built.status_of(title) == "repealed"
    assert built.resolve_instrument("丙法解释（二）") == title


def test_body_only_instrument_and_document_number(built: AuthorityStore) -> None:
    v = built.version("最高人民法院关于某问题的批复")
    assert v is not None and v.articles == () and v.body.startswith("上海市高级人民法院：")
    assert built.title_for_document_number("法释[2021]9号") == "最高人民法院关于某问题的批复"


def test_no_cases_dir_means_no_guiding_cases(built: AuthorityStore) -> None:
    assert built.guiding_case(1) is None and built.stats()["guiding_cases"] == 0


def test_cases_are_read(corpus: Path, tmp_path: Path) -> None:
    (tmp_path / "guiding_cases_extract.jsonl").write_text(
        json.dumps(
            {
                "number": 9,
                "title": "甲诉乙案",
                "gist": ["要点。"],
                "relatedLaws": ["《中华人民共和国公司法》第二十条"],
            },
            ensure_ascii=False,
        )
        + "\n",
        encoding="utf-8",
    )
    gc = AuthorityStore.build(corpus, tmp_path).guiding_case(9)
    assert gc is not None and gc.gist == "要点。" and gc.no_longer_referenced


def test_missing_manifest_is_a_corpus_error(tmp_path: Path) -> None:
    with pytest.raises(CorpusError, match=r"manifest\.csv"):
        build_payload(tmp_path)


def test_unparseable_file_is_a_corpus_error(tmp_path: Path) -> None:
    _write(tmp_path, [("x/坏.md", "法律", "2020-01-01", "", "0", "1", "# 中华人民共和国坏法\n")])
    (tmp_path / "x/坏.md").write_text("no title line\n", encoding="utf-8")
    with pytest.raises(CorpusError, match=r"坏\.md"):
        build_payload(tmp_path)


def test_save_xz_round_trip(built: AuthorityStore, tmp_path: Path) -> None:
    built.save(tmp_path / "s.json.xz")
    assert AuthorityStore.load(tmp_path / "s.json.xz").stats() == built.stats()


@pytest.mark.slow
@pytest.mark.skipif(
    not (SHARED / "cn_laws" / "manifest.csv").is_file(), reason="needs ../shared/data"
)
def test_bundled_copy_matches_a_fresh_build() -> None:
    """Fails when parsing code changed without rebuilding governor/data (scripts/build_store.py)."""
    fresh = AuthorityStore.build(
        SHARED / "cn_laws", SHARED / "cn_cases", SHARED / "cn_repealed", SHARED / "cn_laws_updates"
    )
    assert fresh.build_id == AuthorityStore.load().build_id
    assert fresh.stats() == AuthorityStore.load().stats()


def test_the_same_corpus_gives_the_same_bytes(corpus: Path, tmp_path: Path) -> None:
    """issue 24: ``scripts/build_store.py`` is reproducible — store and global BM25 index."""
    import time

    a, b = AuthorityStore.build(corpus), AuthorityStore.build(corpus)
    a.save(tmp_path / "a.json.xz")
    b.save(tmp_path / "b.json.xz")
    assert (tmp_path / "a.json.xz").read_bytes() == (tmp_path / "b.json.xz").read_bytes()
    a.write_bundled_global(tmp_path / "a.tar.xz")
    time.sleep(1.1)  # a tar that kept file times would differ now
    b.write_bundled_global(tmp_path / "b.tar.xz")
    assert (tmp_path / "a.tar.xz").read_bytes() == (tmp_path / "b.tar.xz").read_bytes()


def _updates(root: Path) -> Path:
    """A cn_laws_updates-style folder: a new version superseding 甲法 2023, a new law 戊法 and
    a repeals.csv with a repeal that takes effect later."""
    up = root / "cn_laws_updates"
    files = {
        "民法商法/甲法(2025-06-27).md": law(
            "中华人民共和国甲法", "2025年6月27日 修订\n\n2026年1月1日 施行", "第一条 更新文。\n"
        ),
        "诉讼与非诉讼程序法/戊法(2025-09-12).md": law(
            "中华人民共和国戊法", "2025年9月12日 通过\n\n2026年3月1日 施行", "第一条 戊。\n"
        ),
    }
    cols = [*COLUMNS, "supersedes", "source"]
    up.mkdir()
    with (up / "manifest.csv").open("w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, cols)
        w.writeheader()
        for path, text in files.items():
            (up / path).parent.mkdir(parents=True, exist_ok=True)
            (up / path).write_text(text, encoding="utf-8")
            publish = path[-14:-4]
            w.writerow({c: "" for c in cols} | {
                "path": path, "folder": path.split("/")[0], "level": "法律",
                "title": text.splitlines()[0][2:], "publish": publish, "expired_flag": "0",
                "latest_in_corpus": "1",
                "supersedes": "民法商法/甲法(2023-12-29).md" if "甲法" in path else "",
            })  # fmt: skip
    with (up / "repeals.csv").open("w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["repealed", "repealed_paths", "by", "by_path", "provision", "effective", "scope", "note"])  # fmt: skip
        w.writerow(["最高人民法院关于某问题的批复", "司法解释/批复.md", "中华人民共和国戊法", "", "第一条", "2026-03-01", "whole", ""])  # fmt: skip
        w.writerow(["中华人民共和国己法", "", "中华人民共和国戊法", "", "第一条", "2026-03-01", "whole", ""])  # fmt: skip
        w.writerow(["中华人民共和国甲法第一条第一款", "", "中华人民共和国戊法", "", "第一条", "2026-03-01", "partial", ""])  # fmt: skip
    return up


def test_the_updates_folder_adds_versions_laws_and_later_repeals(
    corpus: Path, tmp_path: Path
) -> None:
    store = AuthorityStore.build(corpus, updates_dir=_updates(tmp_path))
    inst = store.instrument("甲法")
    assert inst is not None
    assert [v.version for v in inst.versions] == ["2018-10-26", "2023-12-29", "2025-06-27"]
    assert inst.versions[-1].in_force_from == date(2026, 1, 1)
    assert inst.versions[-1].source_path.startswith("cn_laws_updates/")
    assert store.horizon == date(2025, 9, 12)
    reply = "最高人民法院关于某问题的批复"
    assert store.in_force_on(reply, date(2026, 2, 28))[0] == "in_force"  # until the day before
    status, v = store.in_force_on(reply, date(2026, 3, 1))
    assert status == "repealed" and v is not None
    rec = store.repeal_record(reply)
    assert rec is not None and rec.repealed_on == date(2026, 3, 1)
    assert rec.successor == "中华人民共和国戊法"
    absent = store.repeal_record("中华人民共和国己法")
    assert absent is not None and absent.repealed_on == date(2026, 3, 1)
    assert store.instrument("甲法").repealed_on != date(2026, 3, 1)  # type: ignore[union-attr]
    assert store.in_force_on("中华人民共和国戊法", date(2026, 2, 1)) == ("not_yet_in_force", None)
