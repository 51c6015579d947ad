"""Verification cost in the number of citations of one list (issue 23: it was quadratic).

A list's shared description is judged against the texts of all its members; each member used
to build its own copy of that text (and its own tuple of the others' texts), so a list of n
citations cost O(n²) time and memory (200 citations 4.1 s, 800 → 54 s / 1.46 GB). The
benchmark is ``benchmarks/bench_scaling.py``; these tests pin the mechanism and the growth.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

import pytest

from benchmarks.bench_scaling import list_text
from governor.api import Governor
from governor.core.config import load_config
from verifiers.judge import JudgeItem, ListTexts, Siblings, list_pool
from verifiers.verify import VerifyRequest

AS_OF = date(2023, 7, 1)


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor(load_config(overrides={"as_of": AS_OF}, environ={}))


@pytest.mark.parametrize(
    "texts,own",
    [
        (("a", "b", "c"), 0),
        (("a", "b", "c"), 1),
        (("a", "b", "c"), 2),
        (("a", "b", "a"), 0),  # the same article twice: the other one is still a sibling
        (("a",), 0),
        (("a", "b"), None),  # a member whose own article did not resolve
    ],
)
def test_siblings_view_behaves_as_the_tuple_it_replaces(
    texts: tuple[str, ...], own: int | None
) -> None:
    view = Siblings(ListTexts(texts), own)
    old = tuple(t for j, t in enumerate(texts) if j != own)
    assert tuple(view) == old and len(view) == len(old) and bool(view) == bool(old)
    assert [view[i] for i in range(len(old))] == list(old)
    assert (view[-1] == old[-1]) if old else True
    for t in ("a", "b", "c", "z"):
        assert (t in view) == (t in old)
    with pytest.raises(IndexError):
        view[len(old)]


def _items(gov: Governor, text: str) -> Sequence[JudgeItem]:
    cits = gov.extract(text)
    pending = gov.verifier()._prepare(VerifyRequest(tuple(cits), AS_OF, "", text))
    return [it for _, it in pending.items]


def test_list_members_share_one_pool(gov: Governor) -> None:
    items = _items(gov, list_text(12))
    assert len(items) == 12
    pools = []
    for it in items:
        own = it.record.text if it.record is not None else it.authority.text
        pool, at = list_pool(it, own)
        assert pool[at : at + len(own)] == own
        assert len(it.sibling_texts) == 11
        pools.append(pool)
    assert all(p is pools[0] for p in pools), "each member rebuilt the list's text"


def test_a_citation_outside_a_list_is_judged_against_its_own_text(gov: Governor) -> None:
    (it,) = _items(gov, "根据《中华人民共和国民法典》第五百八十四条的规定，应当赔偿损失。")
    own = it.record.text if it.record is not None else it.authority.text
    assert list_pool(it, own) == (own, 0)


@pytest.mark.parametrize("own", [0, 1, 2, None])
def test_siblings_hold_the_bigrams_of_the_other_members(own: int | None) -> None:
    from verifiers.textsim import bigrams

    texts = ("诉讼时效期间为三年", "合同无效", "诉讼时效中止")
    view = Siblings(ListTexts(texts), own)
    theirs = set().union(*(bigrams(t) for j, t in enumerate(texts) if j != own))
    for b in set().union(*(bigrams(t) for t in texts)) | {"不在"}:
        assert view.hold(b) == (b in theirs), b


def test_siblings_hash_as_the_tuple_they_equal() -> None:
    view = Siblings(ListTexts(("a", "b", "c")), 1)
    assert view == ("a", "c") and hash(view) == hash(("a", "c"))
    assert view == Siblings(ListTexts(("a", "c")), None)
