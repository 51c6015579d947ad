"""benchmarks.bench_judgment on a few hand-written records (no network, seconds)."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from benchmarks import bench_judgment as bj
from governor.api import Governor
from governor.authorities import load_default_store
from governor.authorities.charges import charge_table
from governor.core.config import load_config

_JUDGMENT = (
    "某某人民法院 刑事判决书 经审理查明，被告人安某窃取他人财物。本院认为，被告人安某以非法占有为目的，"
    "秘密窃取他人财物，数额较大，其行为已构成盗窃罪。被告人安某到案后如实供述自己的罪行，可以从轻处罚。"
    "依照《中华人民共和国刑法》第二百六十四条、第六十七条第三款之规定，判决如下："
    "被告人安某犯盗窃罪，判处有期徒刑六个月。审判员某某"
)


def _write(folder: Path) -> Path:
    ext = folder / "external"
    (ext / "judge").mkdir(parents=True)
    (ext / "lexeval").mkdir()
    judge = {"index": 4, "full_judgment": _JUDGMENT, "gold_articles": [264, 67]}
    nobasis = {
        "index": 6,
        "full_judgment": "本院认为，应予驳回。判决如下：驳回。",
        "gold_articles": [1],
    }
    (ext / "judge" / "test_even.jsonl").write_text(
        "\n".join(json.dumps(r, ensure_ascii=False) for r in (judge, nobasis)) + "\n",
        encoding="utf-8",
    )
    q12 = {
        "law_as_written": "中华人民共和国民法",
        "article": "第一千零八十四条",
        "answer": "B",
        "options": {
            "A": "抵押权人应当在主债权诉讼时效期间行使抵押权；未行使的，人民法院不予保护",
            "B": "父母与子女间的关系，不因父母离婚而消除",
        },
    }
    (ext / "lexeval" / "1_2.jsonl").write_text(json.dumps(q12, ensure_ascii=False) + "\n", "utf-8")
    q32 = {
        "facts": "被告人某某秘密窃取他人财物，价值人民币三千元。",
        "answer": "A",
        "options": {"A": "中华人民共和国刑法第二百六十四条", "B": "中华人民共和国刑法第九百条"},
    }
    (ext / "lexeval" / "3_2.jsonl").write_text(json.dumps(q32, ensure_ascii=False) + "\n", "utf-8")
    return ext


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor(load_config(overrides={}, environ={}), store=load_default_store())


def test_judgments_cut_the_basis_sentence(tmp_path: Path) -> None:
    ext = _write(tmp_path)
    rows = bj.judgments(ext / "judge" / "test_even.jsonl")
    assert [j.index for j in rows] == [4]  # the record without 依照 is skipped
    j = rows[0]
    assert j.paragraph.startswith("本院认为") and j.paragraph.endswith("。")
    assert j.paragraph[j.lo : j.hi].startswith("依照《中华人民共和国刑法》第二百六十四条")
    assert j.gold == {264, 67}


def test_run_rows_and_counts(tmp_path: Path, gov: Governor) -> None:
    rows = bj.run(gov, _write(tmp_path))
    by = {(r.set, r.figure): r for r in rows}
    exact = by[("JuDGE", "依照-sentence 刑法 article set == gold")]
    assert (exact.n, exact.value) == (1, 1.0)
    assert by[("JuDGE", "gold article kept (passes, no edit/note)")].n == 2
    swap = by[("JuDGE", "offence article swapped → flagged")]
    assert swap.n == 1 and swap.value is not None
    assert by[("LexEval 1_2", "wrong option not faithful")].n == 1
    assert by[("LexEval 1_2", "wrong option not faithful")].value == 1.0
    assert by[("LexEval 3_2", "wrong candidate flagged (recall)")].value == 1.0  # 第九百条
    assert all(r.target for r in rows)


def test_swap_pool_articles_define_one_charge(gov: Governor) -> None:
    table = charge_table(gov.store)
    pool = bj.swap_pool(gov.store)
    assert "264" in pool and "67" not in pool
    assert all(len(table.charges_of(a)) == 1 for a in pool)


def test_text_32_writes_the_application_sentence() -> None:
    text = bj.text_32("事实 甲 乙", "《中华人民共和国合同法》第五十二条")
    assert text == "问题：事实甲乙\n\n本案应当适用《中华人民共和国合同法》第五十二条的规定。\n"
    assert bj.text_32("事实", "没有条文") is None


def test_text_32_restores_the_dropped_zero() -> None:
    """3_2 writes 「第二百五条」 for 第二百零五条 (an item's options hold both 「第三百一条」 and
    「第三百一十条」); read as written, cn2an's 二百五 is 250, another article."""
    text = bj.text_32("被告人张某虚开增值税专用发票3份。", "中华人民共和国刑法第二百五条")
    assert text is not None and "《中华人民共和国刑法》第二百零五条的规定" in text
    assert bj.option_pin("第三百一十条") == "第三百一十条"
    assert bj.option_pin("第一千二百六十条") == "第一千二百六十条"
    assert bj.option_pin("第一百五十一条第一款") == "第一百五十一条第一款"
    assert bj.option_pin("第一千二百三条") == "第一千二百零三条"


def test_main_json_and_missing_data(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ext = _write(tmp_path)
    assert bj.main(["--data", str(ext), "--json", "--limit", "1"]) == 0
    out = json.loads(capsys.readouterr().out)
    sets = {r["set"] for r in out["rows"]}
    assert sets == {"JuDGE", "LexEval 1_2", "LexEval 3_2", "LexEval 3_2 as of AS_OF"}
    assert bj.main(["--data", str(tmp_path / "none")]) == 2
    assert "test_even.jsonl" in capsys.readouterr().err


def test_mismatches_out_writes_the_judgments_off_gold(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A gold set that lists an article the basis sentence does not cite (here 52, cited
    elsewhere in a real judgment) is a mismatch of class "gold convention", written with
    ``--mismatches-out`` and counted in the label-noise rows."""
    ext = _write(tmp_path)
    path = ext / "judge" / "test_even.jsonl"
    rec = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
    rec["gold_articles"] = [264, 67, 52]
    path.write_text(json.dumps(rec, ensure_ascii=False) + "\n", encoding="utf-8")
    out = tmp_path / "mm.jsonl"
    assert bj.main(["--data", str(ext), "--json", "--mismatches-out", str(out)]) == 0
    rows = {r["figure"]: r for r in json.loads(capsys.readouterr().out)["rows"]}
    assert rows["依照-sentence 刑法 article set == gold"]["value"] == 0.0
    assert rows["  of which the gold lists an article the sentence does not write"]["value"] == 1.0
    assert rows["  of which the gold omits an article the sentence writes"]["value"] == 0.0
    (m,) = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert m["index"] == 4 and m["sentence"].startswith("依照《中华人民共和国刑法》第二百六十四条")
    assert (m["extracted"], m["gold"], m["written"]) == ([67, 264], [52, 67, 264], [67, 264])
    assert m["gold_not_extracted"] == [52] and m["class"] == "gold convention"


def test_lawbench_rows(tmp_path: Path, gov: Governor) -> None:
    folder = tmp_path / "lawbench"
    folder.mkdir()
    for task, answer in (
        ("3-2", "《中华人民共和国民法典》第九千条规定，合同无效。"),
        ("3-8", "根据《中华人民共和国刑法》第二百六十四条的规定，构成盗窃罪。"),
    ):
        rec = {"0": {"origin_prompt": "问题", "prediction": answer, "refr": ""}}
        (folder / f"m_zero_shot_{task}.json").write_text(json.dumps(rec, ensure_ascii=False))
    cited: list[dict] = []
    rows = bj.bench_lawbench(gov, folder, None, cited)
    assert len(rows) == 8 and all(r.count for r in rows)
    # one record per citation, so two runs can be diffed (--citations-out)
    assert [(c["task"], c["id"]) for c in cited] == [("3-2", "m_3-2_000"), ("3-8", "m_3-8_000")]
    assert cited[0]["E"] == "not_found" and cited[0]["said"] and not cited[0]["passes"]
    assert cited[1]["raw"].endswith("第二百六十四条") and {"F_why", "A_why", "span"} <= set(
        cited[1]
    )
    flagged, silent, lined, unsaid = rows[0], rows[1], rows[2], rows[3]
    assert flagged.value is not None and silent.value is not None
    assert lined.value is not None and unsaid.value is not None
    assert flagged.n == silent.n == 1 and flagged.value + silent.value == 1
    assert lined.value + unsaid.value <= silent.value
    assert rows[7].figure == "judged failing, nothing said" and rows[7].target == "== 0"


@pytest.mark.parametrize(
    ("sentence", "written"),
    [
        # 「第二十三条和六十七条」: a number without 第 after 和 is written too
        (
            "依照《中华人民共和国刑法》第二百三十六条第一款、第二十三条和六十七条第三款的规定，",
            {236, 23, 67},
        ),
        # the 刑事诉讼法 pin after the next title is not a 刑法 article
        (
            "依照《中华人民共和国刑法》第二百六十六条、第六十四条、《中华人民共和国刑事诉讼法》第二百二十五条之规定，",
            {266, 64},
        ),
        # 「第七十二第一款」: a 条 dropped before the 款 still writes article 72
        (
            "依照《中华人民共和国刑法》第五十三条、第七十二第一款、第三款、第七十三条第一款之规定，",
            {53, 72, 73},
        ),
        # numbers inside a quoted article text are not cited articles
        (
            "依照《中华人民共和国刑法》第七十二条：“适用本法第六十一条的规定”、第五十二条之规定，",
            {72, 52},
        ),
    ],
)
def test_written_articles_reads_the_sentence_not_the_labels(
    sentence: str, written: set[int]
) -> None:
    para = f"本院认为，被告人构成犯罪。{sentence}判决如下："
    j = bj.Judgment(1, para, para.find("依照"), para.find("判决如下"), frozenset())
    assert bj.written_articles(j) == written


def test_halves_32_cut_each_block_in_file_order() -> None:
    """The 刑法 block and the civil block are each cut in two (first ceil(n/2) items first)."""
    crim = {"options": {"A": "中华人民共和国刑法第一条", "B": "中华人民共和国刑法第二条"}}
    civil = {"options": {"A": "中华人民共和国民法典第一条", "B": "中华人民共和国刑法第二条"}}
    items = [crim, crim, crim, civil, civil]
    assert bj.halves_32(items) == ["first", "first", "second", "first", "second"]


def test_run_with_halves_prints_the_split_rows(tmp_path: Path, gov: Governor) -> None:
    rows = bj.run(gov, _write(tmp_path), halves=True)
    sets = {r.set for r in rows}
    assert {"LexEval 3_2 first half", "LexEval 3_2 second half", "LexEval 3_2 刑法 items"} <= sets
    first = next(
        r
        for r in rows
        if r.set == "LexEval 3_2 first half" and r.figure.startswith("gold candidate ranks")
    )
    assert first.n == 1 and first.ok is None  # diagnostic: no target


def test_facts_date_is_the_latest_date_the_facts_write() -> None:
    """``--facts-date``: the latest 「YYYY年M月D日」 of the facts, not after the bench's as-of
    date (a 2031 expiry date is no date of the facts; an impossible date is skipped)."""
    from benchmarks.bench_judgment import AS_OF, facts_date

    facts = (
        "2018年8月17日，原告与被告签订《商品房买卖合同》，被告应在2019年12月31日前交付房屋，"
        "商标有效期至2031年8月27日，2019年2月30日。"
    )
    assert facts_date(facts) == date(2019, 12, 31)
    assert facts_date("被告于本月归还借款。") == AS_OF


def test_options_date_is_the_eve_of_a_repeal_among_the_options(gov: Governor) -> None:
    """The 3_2 framing: the latest day not after AS_OF when every option's instrument was in
    force (合同法 repealed 2021-01-01: its items are read on 2020-12-31), AS_OF when all are
    in force, None when no such day exists (合同法 beside the 民法典, in force from the day
    the 合同法 was repealed)."""
    store = gov.store
    assert store.in_force_span("中华人民共和国合同法") == (date(1999, 10, 1), date(2021, 1, 1))
    contract = ["《中华人民共和国合同法》第一百零七条", "中华人民共和国保险法第十条"]
    assert bj.options_date(store, contract) == date(2020, 12, 31)
    crim = ["中华人民共和国刑法第二百六十四条", "中华人民共和国刑法第九百条"]
    assert bj.options_date(store, crim) == bj.AS_OF
    assert bj.options_date(store, [*contract, "中华人民共和国民法典第五百七十七条"]) is None
    assert bj.options_date(store, ["没有条文", "某某条例第一条"]) == bj.AS_OF


def test_rows_out_writes_each_3_2_candidate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--rows-out``: one line per 3_2 candidate with its axes, to group the flagged gold rows
    by the check that flags them."""
    ext = _write(tmp_path)
    out = tmp_path / "rows.jsonl"
    assert bj.main(["--data", str(ext), "--json", "--rows-out", str(out)]) == 0
    capsys.readouterr()
    rows = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert [(r["letter"], r["gold"]) for r in rows] == [("A", True), ("B", False)]
    a, b = rows
    assert a["passes"] is True and a["applicability"]["label"] == "supports"
    assert b["passes"] is False and b["existence"]["label"] == "not_found"
    assert {"label", "score", "rationale", "fit"} <= set(a["applicability"])
