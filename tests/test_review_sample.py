"""benchmarks.review_sample draws from the right key range: the fresh reviewer's (keys past the
first 100 of each dev file) or the tuning one (the first 100), for the tasks asked."""

from __future__ import annotations

import pytest

from benchmarks.review_sample import SKIP_FIRST, pick_drafts


def _key(name: str) -> int:
    return int(name.rsplit("_", 1)[-1].removesuffix(".md"))


def test_tuning_keys_are_the_first_hundred_and_review_keys_the_rest() -> None:
    tuning = pick_drafts(12, 7, "tuning", ("3-8", "3-2"))
    review = pick_drafts(12, 7, "review", ("3-8", "3-2"))
    assert tuning and review
    assert all(_key(n) < SKIP_FIRST for n, _ in tuning)
    assert all(_key(n) >= SKIP_FIRST for n, _ in review)
    assert any("_3-2_" in n for n, _ in tuning) and any("_3-2_" not in n for n, _ in tuning)


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
