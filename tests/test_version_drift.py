"""Version drift (verifiers.versions): a description that is another version's text."""

from __future__ import annotations

from datetime import date

import pytest

from governor.authorities import AuthorityStore, load_default_store
from verifiers.versions import version_drift

COMPANY = "中华人民共和国公司法"


@pytest.fixture(scope="module")
def store() -> AuthorityStore:
    return load_default_store()


@pytest.mark.parametrize("title", [COMPANY, "中华人民共和国刑法"])
def test_version_texts_are_the_records_texts(store: AuthorityStore, title: str) -> None:
    inst = store.instrument(title)
    assert inst is not None and len(inst.versions) >= 2
    got = store.version_texts(title)
    assert [v for v, _ in got] == [v.version for v in inst.versions]
    for (_, texts), version in zip(got, inst.versions, strict=True):
        assert texts == tuple((a.article, a.text) for a in version.articles)


def test_version_texts_of_an_unknown_title_is_empty(store: AuthorityStore) -> None:
    assert store.version_texts("中华人民共和国不存在法") == ()


def test_the_2018_company_law_text_is_named_as_the_superseded_version(
    store: AuthorityStore,
) -> None:
    # 2018 第十二条 (经营范围 … 但是应当办理变更登记) was reworded in the 2023 revision.
    old = store.article(COMPANY, "12", as_of=date(2020, 1, 1))
    now = store.article(COMPANY, "12", as_of=date(2025, 6, 1))
    assert old is not None and now is not None and old.version == "2018-10-26"
    drift = version_drift(old.text, now, store)
    assert drift is not None
    assert drift.article.key == f"{COMPANY}@2018-10-26#12"
    assert drift.score == 1.0 and drift.in_force_score < drift.score


def test_the_text_in_force_is_no_drift(store: AuthorityStore) -> None:
    now = store.article(COMPANY, "12", as_of=date(2025, 6, 1))
    assert now is not None
    assert version_drift(now.text, now, store) is None
