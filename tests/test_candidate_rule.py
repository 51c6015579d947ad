"""``verifiers.candidate_rule`` on store texts: a candidate holding only the claim's conditions
gives way to the article stating its consequence; a qualified subject is another entity."""

from __future__ import annotations

from datetime import date

import pytest

from governor.authorities import AuthorityStore, load_default_store
from verifiers.candidate_rule import (
    claim_rules,
    conditions_only,
    consequence_holder,
    subject_qualifier,
)

AS_OF = date(2023, 7, 1)
ROAD = "中华人民共和国道路交通安全法"
MINORS = "中华人民共和国未成年人保护法"
COOP = "中华人民共和国农民专业合作社法"


@pytest.fixture(scope="module")
def store() -> AuthorityStore:
    return load_default_store()


def _text(store: AuthorityStore, title: str, art: str) -> str:
    rec = store.article(title, art, as_of=AS_OF)
    assert rec is not None
    return rec.text


def test_the_act_is_what_the_named_actor_does() -> None:
    said = "未成年人的父母…合法权益将面临由其所在单位或者居民委员会、村民委员会予以劝诫、制止"
    (rule,) = claim_rules(said)
    assert rule.act == "予以劝诫制止"
    assert rule.conditions.endswith("将面临")


def test_conditions_only_candidates_give_way(store: AuthorityStore) -> None:
    said = (
        "使用伪造、变造或者盗窃的机动车登记证书、号牌，或者使用其他方法非法取得机动车登记证书、号牌的，"
        "由公安机关交通管理部门予以收缴"
    )
    a9, a96 = _text(store, ROAD, "9"), _text(store, ROAD, "96")
    assert conditions_only(said, a9) and not conditions_only(said, a96)
    assert consequence_holder(said, a9, [("9", a9), ("96", a96)]) == ("96", a96)
    said = (
        "未成年人的父母或者其他监护人不依法履行监护职责或者侵犯未成年人合法权益的，由其所在单位或者居民委员会、"
        "村民委员会予以劝诫、制止；构成违反治安管理行为的，由公安机关依法给予行政处罚"
    )
    a108, a118 = _text(store, MINORS, "108"), _text(store, MINORS, "118")
    assert consequence_holder(said, a108, [("118", a118)]) == ("118", a118)
    assert consequence_holder(said, a118, [("108", a108)]) is None


def test_a_qualified_subject_is_another_entity(store: AuthorityStore) -> None:
    said = "农民专业合作社成员以其出资额为限对农民专业合作社承担责任"
    assert subject_qualifier(said, _text(store, COOP, "58")) == "联合社"
    assert subject_qualifier(said, _text(store, COOP, "6")) is None
    # a qualifier before the head keeps the entity
    assert (
        subject_qualifier(
            "劳动者享有同工同酬的权利", "被派遣劳动者享有与用工单位的劳动者同工同酬的权利"
        )
        is None
    )
