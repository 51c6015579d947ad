"""The edit benchmark: match keys, the annotation rule, scoring and the gold file."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from benchmarks.bench_edits import (
    GOLD_PATH,
    EditRecord,
    GoldRow,
    edit_records,
    has_no_basis_note,
    is_annotation,
    load_gold,
    markdown,
    match_key,
    policy_governor,
    score,
    unjudged_rows,
    write_gold,
)
from governor.core.errors import InputError
from governor.core.models import Edit, Span

DRAFT = "问题：借款合同？\n\n根据《合同法》第十一条规定，借款合同应当采用书面形式。依据《刑法》第九条，处十年。\n"


def _edit(text: str, raw: str, after: str, op: str = "renumber", insert: bool = False) -> Edit:
    start = text.index(raw) + (len(raw) if insert else 0)
    end = start if insert else start + len(raw)
    return Edit(
        op=op, span=Span(start=start, end=end), before=text[start:end], after=after, reason="r"
    )


def _rounds(*edits: Edit, text: str = DRAFT) -> list[SimpleNamespace]:
    return [SimpleNamespace(round=1, edits=edits, text=text)]


def _records(*edits: Edit) -> list[EditRecord]:
    return edit_records("m_3-8_001", "m", "3-8", 1, DRAFT, _rounds(*edits))


def _gold(rec: EditRecord, verdict: str, false_note: bool | None = None) -> GoldRow:
    return GoldRow(
        id="g1",
        verdict=verdict,
        reviewer_reason="x",
        false_note=false_note,
        **rec.model_dump(),
    )


def test_record_holds_the_sentence_before_and_after() -> None:
    (rec,) = _records(
        _edit(DRAFT, "《合同法》第十一条", "《民法典》第六百六十八条", "replace_repealed")
    )
    assert rec.sentence_before == "根据《合同法》第十一条规定，借款合同应当采用书面形式。"
    assert rec.sentence_after == "根据《民法典》第六百六十八条规定，借款合同应当采用书面形式。"
    assert rec.key.startswith("m_3-8_001:replace_repealed:")


def test_key_survives_offsets_and_width_but_not_a_new_replacement() -> None:
    shifted = "前言。\n" + DRAFT
    a = _records(_edit(DRAFT, "十年", "七年", "fix_number"))[0]
    b = edit_records(
        "m_3-8_001",
        "m",
        "3-8",
        1,
        shifted,
        _rounds(_edit(shifted, "十年", "七年", "fix_number"), text=shifted),
    )[0]
    assert a.key == b.key
    assert match_key("d", "fix_number", "处 十年。", "十年", "七年") == match_key(
        "d", "fix_number", "处十年。", "十年", "七年"
    )
    assert match_key("d", "fix_number", "处（十年）。", "十年", "七年") == match_key(
        "d", "fix_number", "处(十年)。", "十年", "七年"
    )
    assert match_key("d", "fix_number", "处十年。", "十年", "七年") != match_key(
        "d", "fix_number", "处十年。", "十年", "五年"
    )
    assert match_key("d", "fix_number", "处十年。", "十年", "七年") != match_key(
        "e", "fix_number", "处十年。", "十年", "七年"
    )


def test_the_same_change_twice_in_one_sentence_gets_its_own_key() -> None:
    note = "（注：该规定已废止，请核实）"
    e = _edit(DRAFT, "《合同法》第十一条", note, "mark_stale", insert=True)
    r1, r2 = _records(e, e)
    assert r2.key == r1.key + "#2"


@pytest.mark.parametrize(
    ("op", "before", "after", "expected"),
    [
        ("mark_stale", "", "（注：该规定已于2021年1月1日废止，请核实）", True),
        ("mark_misdescribed", "", "(注:经核查，该条文并无上述内容)", True),
        (
            "mark_unsupported",
            "《刑法》第九条",
            "有关规定（注：未找到支持该结论的现行有效法律依据，请核实）",
            False,
        ),
        (
            "mark_unsupported",
            "根据《刑法》第九条，处十年",
            "处十年（注：未找到支持该结论的现行有效法律依据，请核实）",
            False,
        ),
        ("restore_proviso", "", "，但是本法另有规定的除外", False),
        ("renumber", "第九条", "第十条", False),
        ("revert", "《民法典》第一条", "《合同法》第二条（注：该规定已废止）", False),
        ("mark_unsupported", "处十年", "处十年（注：未找到法律依据）", True),
        (
            "annotate",
            "处十年",
            "处十年（注：所引条文可能应为《刑法》第十条第（一）项（置信度0.70），请核实）",
            True,
        ),
    ],
)
def test_annotation_means_only_a_note_was_added(
    op: str, before: str, after: str, expected: bool
) -> None:
    assert is_annotation(op, before, after) is expected


@pytest.mark.parametrize(
    ("after", "expected"),
    [
        ("有关规定（注：未找到支持该结论的现行有效法律依据，请核实）", True),
        ("（注：原引条文经核查不存在，未找到支持该结论的法律依据，请核实）", True),
        ("（注：经核查，该条文并无上述内容，请核实）", False),
        ("未找到。（注：见法律依据）", False),
    ],
)
def test_no_basis_note(after: str, expected: bool) -> None:
    assert has_no_basis_note(after) is expected


def test_score_counts_verdicts_unjudged_annotations_and_false_notes() -> None:
    recs = _records(
        _edit(
            DRAFT, "《合同法》第十一条", "（注：该规定已废止，请核实）", "mark_stale", insert=True
        ),
        _edit(DRAFT, "《合同法》第十一条", "《民法典》第六百六十八条", "replace_repealed"),
        _edit(
            DRAFT,
            "《刑法》第九条",
            "有关规定（注：未找到支持该结论的现行有效法律依据，请核实）",
            "mark_unsupported",
        ),
        _edit(DRAFT, "十年", "七年", "fix_number"),
    )
    gold = {
        recs[0].key: _gold(recs[0], "neutral"),
        recs[1].key: _gold(recs[1], "helpful"),
        recs[2].key: _gold(recs[2], "harmful", false_note=True),
    }
    s = score("aggressive", recs, gold)
    assert (s.edits, s.helpful, s.neutral, s.harmful, s.unjudged) == (4, 1, 1, 1, 1)
    assert (s.annotations_accurate, s.annotations_false) == (1, 0)
    assert s.word_changing == 2 and s.word_changing_helpful == 0.5
    assert s.harmful_share == pytest.approx(1 / 3)
    assert (s.no_basis_notes, s.false_notes) == (1, 1)
    assert s.unjudged_sample == ("m_3-8_001 fix_number: '十年' → '七年'",)
    assert ("fix_number", 0, 0, 0, 1) in s.per_op
    table = markdown([s], {"proven": "not implemented"})
    assert "| aggressive | 4 | 1 | 1 | 1 | 33.3% | 1 | 1 / 0 | 2 | 50.0% | 1 / 1 |" in table
    assert "| proven | skipped: not implemented |" in table


def test_unjudged_edits_become_rows_to_judge_that_load_once_judged(tmp_path: Path) -> None:
    judged, new = _records(
        _edit(DRAFT, "《合同法》第十一条", "《民法典》第六百六十八条", "replace_repealed"),
        _edit(DRAFT, "十年", "七年", "fix_number"),
    )
    rows = unjudged_rows("proven", [judged, new], {judged.key: _gold(judged, "helpful")})
    assert [r["key"] for r in rows] == [new.key]
    assert rows[0]["policy"] == "proven" and rows[0]["verdict"] is None
    path = tmp_path / "todo.jsonl"
    path.write_text(json.dumps(rows[0], ensure_ascii=False) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match="not a gold edit"):
        load_gold(path)  # an unjudged row is never scored as a pass
    done = rows[0] | {
        "id": "g9",
        "verdict": "harmful",
        "reviewer_reason": "刑法第九条 says no such period",
    }
    path.write_text(json.dumps(done, ensure_ascii=False) + "\n", encoding="utf-8")
    assert load_gold(path)[0].verdict == "harmful"


def test_no_edits_gives_undefined_shares_not_zero() -> None:
    s = score("proven", [], {})
    assert s.harmful_share is None and s.word_changing_helpful is None
    assert "| proven | 0 | 0 | 0 | 0 | - | 0 | 0 / 0 | 0 | - | 0 / 0 |" in markdown([s], {})


def test_gold_round_trip_and_bad_files(tmp_path: Path) -> None:
    (rec,) = _records(_edit(DRAFT, "十年", "七年", "fix_number"))
    row = _gold(rec, "harmful")
    path = tmp_path / "gold.jsonl"
    assert write_gold([row], path) == 1
    assert path.read_text(encoding="utf-8").startswith('{"id": "g1"')
    assert load_gold(path) == (row,)
    path.write_text(path.read_text(encoding="utf-8") * 2, encoding="utf-8")
    with pytest.raises(InputError, match="duplicate key"):
        load_gold(path)
    path.write_text('{"id": "g1"}\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"gold\.jsonl:1: not a gold edit"):
        load_gold(path)
    bad = row.model_dump() | {"verdict": "pass"}
    with pytest.raises(ValueError):
        GoldRow.model_validate(bad)


def test_a_policy_the_config_does_not_know_is_skipped_with_a_reason() -> None:
    got = policy_governor("no-such-policy")
    assert isinstance(got, str) and "no-such-policy" in got and "not implemented" in got


def test_the_shipped_gold_set_covers_models_tasks_and_ops() -> None:
    gold = load_gold(GOLD_PATH)
    assert len(gold) >= 220
    assert {r.model for r in gold} == {"GPT-3.5-turbo-0613", "chatglm2-6b-hf", "qwen-7b-chat-hf"}
    assert {r.task for r in gold} == {"3-2", "3-8"}
    assert len({r.op for r in gold}) >= 10
    for r in gold:
        assert r.reviewer_reason.strip()
        assert r.key == match_key(
            r.draft_id, r.op, r.sentence_before, r.before, r.after
        ) or r.key.startswith(
            match_key(r.draft_id, r.op, r.sentence_before, r.before, r.after) + "#"
        )
        assert (r.false_note is not None) == has_no_basis_note(r.after), r.id
