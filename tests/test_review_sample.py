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
