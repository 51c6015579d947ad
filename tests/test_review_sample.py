"""benchmarks.review_sample draws from the right key range: the fresh reviewer's (keys past the
first 100 of each dev file) or the tuning one (the first 100), for the tasks asked."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.review_sample import SKIP_FIRST, main, pick_drafts, reviewed_names


def _key(name: str) -> int:
    return int(name.rsplit("_", 1)[-1].removesuffix(".md"))


def test_tuning_keys_are_the_first_hundred_and_review_keys_the_rest() -> None:
    tuning = pick_drafts(12, 7, "tuning", ("3-8", "3-2"))
    review = pick_drafts(12, 7, "review", ("3-8", "3-2"))
    assert tuning and review
    assert all(_key(n) < SKIP_FIRST for n, _ in tuning)
    assert all(_key(n) >= SKIP_FIRST for n, _ in review)
    assert any("_3-2_" in n for n, _ in tuning) and any("_3-2_" not in n for n, _ in tuning)


def test_drafts_an_earlier_review_read_are_not_drawn_again(tmp_path: Path) -> None:
    first = pick_drafts(12, 7, "review", ("3-8",))
    (tmp_path / "in").mkdir()
    for name, text in first[:6]:
        (tmp_path / "in" / name).write_text(text, encoding="utf-8")
    seen = reviewed_names([tmp_path])
    assert seen == {n for n, _ in first[:6]}
    again = pick_drafts(12, 7, "review", ("3-8",), exclude=seen)
    assert again and not seen & {n for n, _ in again}


def test_a_review_with_samples_excludes_only_the_drafts_its_rows_came_from(
    tmp_path: Path,
) -> None:
    (tmp_path / "in").mkdir()
    for name in ("a_1.md", "a_2.md", "a_3.md"):
        (tmp_path / "in" / name).write_text("问题：x\n", encoding="utf-8")
    (tmp_path / "silent.jsonl").write_text('{"i": 0, "draft": "a_2.md"}\n', encoding="utf-8")
    (tmp_path / "edits.jsonl").write_text('{"i": 0, "draft": "a_3.md"}\n\n', encoding="utf-8")
    assert reviewed_names([tmp_path]) == {"a_2.md", "a_3.md"}
    # once reviewers labelled a part of it, only that part's drafts were read
    (tmp_path / "edits_a.jsonl").write_text('{"i": 0, "draft": "a_1.md"}\n', encoding="utf-8")
    (tmp_path / "edits_a.labels.jsonl").write_text('{"i": 0, "label": "helpful"}\n', "utf-8")
    assert reviewed_names([tmp_path]) == {"a_1.md"}


def test_a_missing_exclude_folder_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as e:
        main(["--out", str(tmp_path / "o"), "--exclude", str(tmp_path / "nope")])
    assert e.value.code == 2 and not (tmp_path / "o").exists()


def test_an_unknown_key_range_is_refused() -> None:
    with pytest.raises(ValueError):
        pick_drafts(3, 7, "all")


def test_the_drafts_question_carries_no_chat_template_tokens() -> None:
    # qwen's origin_prompt starts 「\n<|im_start|>user\n<instruction>\n场景:…」: the draft's
    # 「问题：」 line once read 「<|im_start|>user」 and the judges never saw the question
    drafts = pick_drafts(9, 3, "tuning", ("3-2",))
    qwen = [t for n, t in drafts if n.startswith("qwen")]
    assert qwen
    for t in (t for _n, t in drafts):
        first = t.split("\n", 1)[0]
        assert first.startswith("问题：") and len(first) > 12
        assert (
            "<|im_" not in t.split("\n\n", 1)[0] and "请根据具体场景与问题给出法律依据" not in first
        )


def _cite(cid: str, raw: str, span: tuple[int, int], f: str, a: str, trust: float) -> dict:
    check = {"label": "exists", "rationale": ""}
    return {
        "id": cid,
        "raw": raw,
        "span": list(span),
        "claim": "",
        "description": "",
        "existence": check,
        "fidelity": {"label": f, "rationale": ""},
        "applicability": {"label": a, "rationale": ""},
        "item_trust": trust,
    }


def test_a_not_assessed_line_is_neither_a_flag_nor_silence(tmp_path) -> None:
    # review seed 33: eight citations of a law cited whole whose only word to the reader was
    # 「not assessed (a law cited whole, no article) …」 were sampled as flags and judged
    # false alarms; a line that claims nothing wrong is counted apart
    import json

    from benchmarks.review_sample import collect

    text = (
        "问题：x\n\n依照劳动合同法的规定给予经济补偿。根据《劳动法》第四十四条，加班费。"
        "《民法典》第五条。依据《道路交通安全法》第九十一条。\n"
    )
    whole = text.index("劳动合同法")
    art44 = text.index("《劳动法》第四十四条")
    art5 = text.index("《民法典》第五条")
    art91 = text.index("《道路交通安全法》第九十一条")
    cites = [
        _cite("c1", "劳动合同法", (whole, whole + 5), "not_assessed", "skipped", 1.0),
        _cite("c2", "《劳动法》第四十四条", (art44, art44 + 10), "faithful", "irrelevant", 0.5),
        _cite("c3", "《民法典》第五条", (art5, art5 + 8), "faithful", "supports", 1.0),
        _cite(
            "c4",
            "《道路交通安全法》第九十一条",
            (art91, art91 + 14),
            "misdescribed",
            "irrelevant",
            0.0,
        ),
    ]
    note = "（注：该条文与上述结论不符，请核实）"
    rep = {
        "citations": cites,
        "rounds": [
            {
                "edits": [
                    {
                        "citation_id": "c2",
                        "op": "annotate",
                        "before": "",
                        "after": note,
                        "span": [art44 + 10, art44 + 10],
                    }
                ]
            }
        ],
        "warnings": [
            "not assessed (a law cited whole, no article): 劳动合同法 for 「给予经济补偿」 — only "
            "the law's existence was checked",
            "judged failing, left unchanged (no safe wording for a note): "
            "《道路交通安全法》第九十一条 [E exists / F misdescribed / A irrelevant]",
        ],
    }
    inp, out = tmp_path / "in", tmp_path / "out"
    inp.mkdir()
    out.mkdir()
    (inp / "d.md").write_text(text, encoding="utf-8")
    (out / "d.verdicts.json").write_text(json.dumps(rep, ensure_ascii=False), encoding="utf-8")
    silent, flagged, edits, unassessed = collect(inp, out)
    assert [r["raw"] for r in unassessed] == ["劳动合同法"]
    assert sorted(r["raw"] for r in flagged) == [
        "《劳动法》第四十四条",
        "《道路交通安全法》第九十一条",
    ]
    assert [r["raw"] for r in silent] == ["《民法典》第五条"]
    assert len(edits) == 1
