"""E/F/A on hand-made cases with known answers, against the real bundled store (SPEC §3)."""

from __future__ import annotations

from datetime import date

import pytest

from governor.api import Governor
from governor.core.models import Verdict

TODAY = date(2026, 11, 29)


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor()


def one(gov: Governor, text: str, *, as_of: date = TODAY, context: str = "") -> Verdict:
    vs = gov.verify(text, as_of=as_of, context=context)
    assert len(vs) == 1, [v.citation.raw for v in vs]
    return vs[0]


@pytest.mark.parametrize(
    "text,label,codes",
    [
        (
            "根据《中华人民共和国民法典》第五百七十七条规定，当事人一方不履行合同义务的，应当承担违约责任。",
            "exists",
            (),
        ),
        ("根据《民法典》第九千条规定，合同无效。", "not_found", ("L1.1.1",)),
        # a law the store lacks, in a report dated after the store's horizon: it may be law
        # made since (issue 24 item 4; within the horizon it is not_found, see
        # tests/test_existence_names.py)
        ("根据《中华人民共和国合同保护法》第十条规定，合同无效。", "unverifiable", ()),
        ("依据合同法第一百零七条，可以要求赔偿。", "repealed", ("STALE",)),
        ("根据物权法第四十三条规定，不动产登记后生效。", "repealed", ("STALE",)),
        ("民法典第十八条第三款规定，成年人为完全民事行为能力人。", "partial", ("L1.1.4",)),
        ("根据《上海市公安局户口迁入管理规定》第五条，可以迁入。", "unverifiable", ()),
    ],
)
def test_existence_labels(gov: Governor, text: str, label: str, codes: tuple[str, ...]) -> None:
    v = one(gov, text)
    assert v.existence.label == label
    for code in codes:
        assert code in v.taxonomy


def test_repealed_points_to_successor_and_scores_half(gov: Governor) -> None:
    v = one(
        gov,
        "依据合同法第一百零七条，当事人一方不履行合同义务或者履行合同义务不符合约定的，应当承担继续履行、采取补救措施或者赔偿损失等违约责任。",
    )
    assert v.existence.score == 0.5
    assert v.resolved is not None and v.resolved.successor == "中华人民共和国民法典"
    assert v.suggestion is not None and v.suggestion.authority.article == "577"


def test_fabrication_scores_zero_and_skips_f_and_a(gov: Governor) -> None:
    v = one(gov, "根据《民法典》第九千条规定，合同无效。")
    assert v.item_trust == 0.0
    assert (v.fidelity.label, v.applicability.label) == ("not_assessed", "skipped")


def test_unverifiable_is_excluded_unless_strict() -> None:
    text = "根据《上海市公安局户口迁入管理规定》第五条，可以迁入。"
    v = Governor().verify(text, as_of=TODAY)[0]
    assert v.excluded and v.item_trust == 1.0
    from governor.core.config import load_config

    strict = Governor(load_config(overrides={"strict": True})).verify(text, as_of=TODAY)[0]
    assert not strict.excluded and strict.item_trust == 0.5


@pytest.mark.parametrize(
    "text,label,code",
    [
        # period error: 诉讼时效 is three years (民法典第一百八十八条)
        (
            "向人民法院请求保护民事权利的诉讼时效期间为二年（《民法典》第一百八十八条）。",
            "misdescribed",
            "L1.3.2",
        ),
        # dropped 但书 of 民法典第二百零九条第一款
        (
            "《民法典》第二百零九条规定：不动产物权的设立、变更、转让和消灭，经依法登记，发生效力；未经登记，不发生效力。",
            "partially_faithful",
            "L1.2.3",
        ),
        # content of another provision (民法典第一百五十四条) under 第一百五十三条
        (
            "《民法典》第一百五十三条规定，行为人与相对人恶意串通，损害他人合法权益的民事法律行为无效。",
            "misdescribed",
            "L1.1.2",
        ),
        # faithful
        (
            "《民法典》第一百八十八条规定，向人民法院请求保护民事权利的诉讼时效期间为三年。",
            "faithful",
            None,
        ),
    ],
)
def test_fidelity_labels(gov: Governor, text: str, label: str, code: str | None) -> None:
    v = one(gov, text)
    assert v.fidelity.label == label, v.fidelity.rationale
    if code:
        assert code in v.taxonomy


def test_misdescribed_suggests_the_matching_provision(gov: Governor) -> None:
    v = one(
        gov,
        "《民法典》第一百五十三条规定，行为人与相对人恶意串通，损害他人合法权益的民事法律行为无效。",
    )
    assert v.suggestion is not None and v.suggestion.authority.article == "154"


def test_modality_flip_is_misdescribed(gov: Governor) -> None:
    v = one(gov, "《民法典》第五百七十七条规定，当事人一方不履行合同义务的，可以承担违约责任。")
    assert v.fidelity.label == "misdescribed" and "L1.2.2" in v.taxonomy


def test_applicability_irrelevant_with_suggestion(gov: Governor) -> None:
    # 民法典第一千零一十四条 is about names; the claim is employer liability (第一千一百九十一条).
    v = one(
        gov,
        "用人单位的工作人员因执行工作任务造成他人损害的，由用人单位承担侵权责任（《民法典》第一千零一十四条）。",
    )
    assert v.applicability.label == "irrelevant"
    assert v.suggestion is not None and v.suggestion.authority.article == "1191"


def test_applicability_supports(gov: Governor) -> None:
    v = one(
        gov,
        "网络运营者收集、使用个人信息应当遵循合法、正当、必要的原则（《中华人民共和国网络安全法》第41条）。",
        as_of=date(2025, 6, 1),  # the 2016 text: the 2025 revision (in force 2026-01-01) renumbers
    )
    assert v.applicability.label == "supports"
    assert v.item_trust == 1.0


def test_version_by_as_of_company_law(gov: Governor) -> None:
    text = "根据《公司法》第七十一条规定，股东向股东以外的人转让股权，应当经其他股东过半数同意。"
    old = one(gov, text, as_of=date(2019, 6, 1))
    new = one(gov, text, as_of=date(2025, 6, 1))
    assert old.fidelity.label == "faithful"
    assert new.fidelity.label != "faithful"


def test_interpretation_article_attributed_to_the_law_is_a_hierarchy_error(gov: Governor) -> None:
    # 民事诉讼法 has 306 articles; 第四百条 exists only in its interpretation (民诉法解释).
    interp = gov.store.resolve_instrument("民诉法解释")
    assert interp is not None
    rec = gov.store.article(interp, "400")
    assert rec is not None and gov.store.article("中华人民共和国民事诉讼法", "400") is None
    v = one(gov, f"《民事诉讼法》第四百条规定，{rec.text[:40]}。")
    assert v.existence.label == "not_found"
    assert "L1.1.3" in v.taxonomy and "L1.1.1" not in v.taxonomy
    assert v.suggestion is not None and v.suggestion.authority.instrument == interp


def test_lower_source_said_to_prevail_over_the_law(gov: Governor) -> None:
    text = "《中华人民共和国劳动合同法实施条例》第十九条的规定优先于《中华人民共和国劳动合同法》第三十九条。"
    vs = gov.verify(text, as_of=TODAY)
    lower = next(v for v in vs if "实施条例" in v.citation.raw)
    assert lower.applicability.label == "contradicts" and "L1.1.3" in lower.taxonomy
    same = gov.verify(
        "《中华人民共和国劳动合同法》第三十九条优先于《中华人民共和国劳动合同法实施条例》第十九条。",
        as_of=TODAY,
    )
    assert all("L1.1.3" not in v.taxonomy for v in same)


def test_as_of_before_the_civil_code_resolves_the_old_laws(gov: Governor) -> None:
    """A 2019 report citing 合同法 cites law then in force, stored with its text: it exists (and
    is judged on that text); 民法典 was not yet in force; so was 继承法, now with its text."""
    text = "根据《合同法》第一百零七条，应当承担违约责任。《民法典》第五百七十七条规定违约责任。"
    old, new = gov.verify(text, as_of=date(2019, 6, 1))
    assert old.existence.label == "exists" and not old.excluded
    assert new.existence.label == "repealed" and "not yet in force" in new.existence.rationale
    r = gov.govern(text, strategy="efa", as_of=date(2019, 6, 1))
    assert "合同法》第一百零七条" in r.text
    (inherit,) = gov.verify("根据《继承法》第十条，配偶是第一顺序继承人。", as_of=date(2019, 6, 1))
    # 继承法 is stored with its text since issue 24 (before: by name only, unverifiable)
    assert inherit.existence.label == "exists" and not inherit.excluded


def test_as_of_before_the_oldest_stored_version_is_unverifiable(gov: Governor) -> None:
    """民事诉讼法 was in force in 2021-06 in a version older than the store's oldest (2022)."""
    (v,) = gov.verify("《民事诉讼法》第一百一十九条规定起诉条件。", as_of=date(2021, 6, 1))
    assert v.existence.label == "unverifiable"


def test_placeholder_pin_is_not_found_and_said_to_be_a_placeholder(gov: Governor) -> None:
    """「《劳动合同法》第X条」 names no article (issue 21): not the whole law, not a real article."""
    v = one(gov, "根据《劳动合同法》第X条规定，用人单位应当支付经济补偿。")
    assert v.citation.placeholder == "第X条" and v.citation.article is None
    assert v.existence.label == "not_found"
    assert "placeholder" in v.existence.rationale
    assert not v.passes
