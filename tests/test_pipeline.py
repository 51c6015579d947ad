"""Both strategies end to end through the LangGraph pipeline, and the SPEC §5 invariants."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

import pytest

from governor.api import Governor
from governor.core.labels import report_score
from governor.core.models import Verdict
from governor.text.dates import detect_as_of, detect_context

TODAY = date(2026, 11, 29)
DRAFT = (
    "问题：对方违约后我能否要求赔偿？\n\n"
    "回答：根据《中华人民共和国民法典》第五百七十七条规定，当事人一方不履行合同义务的，应当承担违约责任。"
    "向人民法院请求保护民事权利的诉讼时效期间为二年（《民法典》第一百八十八条）。"
    "根据《民法典》第九千条规定，合同无效。\n"
)


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor()


def by_raw(vs: tuple[Verdict, ...]) -> Mapping[str, Verdict]:
    return {v.citation.raw: v for v in vs}


def test_none_verifies_only(gov: Governor) -> None:
    r = gov.govern(DRAFT, strategy="none", as_of=TODAY)
    assert r.text == DRAFT and r.rounds == () and r.stop_reason == "strategy_none"
    assert len(r.initial_verdicts) == 3


def test_existence_filter_drops_only_the_fabrication(gov: Governor) -> None:
    r = gov.govern(DRAFT, strategy="existence", as_of=TODAY)
    assert "第九千条" not in r.text
    assert "合同无效。" in r.text  # the claim is kept, its carrier phrase removed
    assert "根据。" not in r.text and "根据合同无效" not in r.text
    assert "二年" in r.text  # E-Filter does not touch fidelity errors
    assert [e.op for e in r.edits] == ["remove_citation"]
    assert report_score(r.final_verdicts).trust > report_score(r.initial_verdicts).trust


def test_efa_repairs_number_and_marks_unsupported(gov: Governor) -> None:
    r = gov.govern(DRAFT, strategy="efa", as_of=TODAY)
    ops = {e.op for e in r.edits}
    assert "fix_number" in ops and "三年" in r.text and "二年" not in r.text
    assert "mark_unsupported" in ops and "第九千条" not in r.text
    assert report_score(r.final_verdicts).trust == 1.0
    assert r.stop_reason == "all_pass"


def test_efa_replaces_repealed_law_by_successor_provision(gov: Governor) -> None:
    text = "依据合同法第一百零七条，当事人一方不履行合同义务或者履行合同义务不符合约定的，应当承担继续履行、采取补救措施或者赔偿损失等违约责任。"
    r = gov.govern(text, strategy="efa", as_of=TODAY)
    assert [e.op for e in r.edits] == ["replace_repealed"]
    assert "《中华人民共和国民法典》第五百七十七条" in r.text


def test_efa_renumbers_to_the_provision_the_description_matches(gov: Governor) -> None:
    text = (
        "《民法典》第一百五十三条规定，行为人与相对人恶意串通，损害他人合法权益的民事法律行为无效。"
    )
    r = gov.govern(text, strategy="efa", as_of=TODAY)
    assert r.text.startswith("《民法典》第一百五十四条规定")
    assert report_score(r.final_verdicts).trust == 1.0


def test_efa_keeps_a_real_provision_in_its_own_instrument(gov: Governor) -> None:
    # GPT-3.5's LawBench 3-8 answer #475: the description is no article's text, and its words
    # happen to be in an interpretation — no reason to change laws (repealed or fabricated
    # instruments are the only cross-instrument moves).
    text = (
        "法律依据：根据《中华人民共和国劳动合同法》第十九条规定，用人单位应当按照劳动合同的约定"
        "支付劳动报酬，并提供劳动条件和保障。如果包工头无故关机不接电话，可能涉嫌违反劳动法相关规定。"
    )
    r = gov.govern(text, strategy="efa", as_of=date(2024, 6, 1))
    assert all("解释" not in e.after for e in r.edits), r.edits
    assert "解释" not in r.text


def test_input_is_never_modified_and_outside_text_is_identical(gov: Governor) -> None:
    original = str(DRAFT)
    r = gov.govern(DRAFT, strategy="efa", as_of=TODAY)
    assert DRAFT == original
    # Undo each round's edits in reverse: we must get the draft back byte for byte.
    # Edits of a round are sorted by position; undoing them in that order restores each one's
    # ``before`` before the next is reached, so every span is already in pre-round coordinates.
    text = r.text
    for rnd in reversed(r.rounds):
        rebuilt = text
        offset = 0
        for e in rnd.edits:
            start = e.span.start + offset
            assert rebuilt[start : start + len(e.after)] == e.after
            offset += len(e.after) - len(e.before)
        for e in reversed(rnd.edits):
            start = e.span.start + sum(
                len(x.after) - len(x.before) for x in rnd.edits if x.span.start < e.span.start
            )
            rebuilt = rebuilt[:start] + e.before + rebuilt[start + len(e.after) :]
        text = rebuilt
    assert text == DRAFT


def test_untouched_citation_keeps_its_trust(gov: Governor) -> None:
    r = gov.govern(DRAFT, strategy="efa", as_of=TODAY)
    before = by_raw(r.initial_verdicts)["《中华人民共和国民法典》第五百七十七条"]
    after = by_raw(r.final_verdicts)["《中华人民共和国民法典》第五百七十七条"]
    assert after.item_trust >= before.item_trust


def test_every_output_citation_was_verified(gov: Governor) -> None:
    r = gov.govern(DRAFT, strategy="efa", as_of=TODAY)
    assert {v.citation.raw for v in r.final_verdicts} == {c.raw for c in gov.extract(r.text)}


def test_generator_callable_is_wrapped() -> None:
    calls: list[Mapping[str, Any]] = []

    def writer(task: Mapping[str, Any], feedback: str | None = None) -> str:
        calls.append(task)
        return "根据《民法典》第九千条规定，合同无效。"

    g = Governor(generator=writer)
    r = g.write({"query": "合同是否有效？"}, strategy="existence")
    assert calls == [{"query": "合同是否有效？"}]
    assert r.draft.startswith("根据") and r.text == "合同无效。"


def test_unknown_strategy_is_a_clear_error(gov: Governor) -> None:
    from governor.core.errors import StrategyError

    with pytest.raises(StrategyError, match="existence"):
        gov.govern("x", strategy="delete-all")


@pytest.mark.parametrize(
    "text,expected",
    [
        ("报告日期：2019年6月1日\n根据……", date(2019, 6, 1)),
        ("截至2023年1月1日，……", date(2023, 1, 1)),
        ("我在2011年5月1日醉驾……", TODAY),  # a fact of the case is not the as-of date
        ("正文\n2020年3月5日", date(2020, 3, 5)),
        ("报告日期：2099年1月1日", TODAY),  # future dates are ignored
        # Chinese-numeral and ISO forms (helper-14 review)
        ("报告日期：二〇一九年六月一日\n正文", date(2019, 6, 1)),
        ("报告日期：二〇一九年十二月三十一日", date(2019, 12, 31)),
        ("报告日期：2019-06-01\n正文", date(2019, 6, 1)),
        ("截至2019/6/1，……", date(2019, 6, 1)),
        ("报告日期：2019年13月1日", TODAY),  # an impossible date is no date
    ],
)
def test_detect_as_of(text: str, expected: date) -> None:
    assert detect_as_of(text, today=TODAY) == expected


def test_detect_context() -> None:
    assert detect_context("问题：能否要求赔偿？\n\n回答") == "能否要求赔偿？"
    assert detect_context("回答：可以") == ""


def test_efa_moves_a_not_yet_in_force_version_to_the_text_in_force(gov: Governor) -> None:
    # 公司法 2023 took effect on 2024-07-01: a report dated 2024-06-01 citing it by version is
    # moved to the 2018 text's article, and the version note that named the wrong text goes
    text = "《公司法》（2023年修订）第八十四条规定，有限责任公司的股东之间可以相互转让其全部或者部分股权。"
    r = gov.govern(text, strategy="efa", as_of=date(2024, 6, 1))
    assert r.text.startswith("《公司法》第七十一条规定")
    assert "废止" not in r.text
    assert all(v.passes for v in r.final_verdicts)


def test_a_reverted_successor_replacement_leaves_the_repeal_note(gov: Governor) -> None:
    # GPT-3.5's LawBench 3-8 answer #96: 合同法第十条 (合同形式) cited for 履行义务; the successor
    # 民法典第五百零九条 is not proven (the report's words are not its text): the citation stays
    # and the reader is told it was repealed and where the rule now is
    text = (
        "回答：租房公司应该按照合同约定的时间支付租金给原房东，如果他们从上个月十五号开始没有支付"
        "租金给原房东，这是不合理的。\n\n法律依据：根据《中华人民共和国合同法》第十条规定，当事人"
        "应当按照合同约定履行自己的义务。根据租房合同的约定，租房公司应该按照规定时间支付租金给原"
        "房东。如果租房公司未按约定时间支付租金，构成违约行为。原房东可以要求租房公司履行合同，支付"
        "拖欠的租金。"
    )
    r = gov.govern(text, strategy="efa", as_of=date(2024, 6, 1))
    # the note names the successor of what the report says (民法典第五百零九条, 全面履行)
    assert (
        "《中华人民共和国合同法》第十条（注：《合同法》已于2021年1月1日废止，相应规定见"
        "《民法典》第五百零九条，置信度" in r.text
    )
    assert r.text.count("（注：") == 1


def test_a_revised_version_cited_by_name_is_superseded_not_repealed(gov: Governor) -> None:
    r = gov.govern(
        "参见《公司法》（2018年修正）第七十一条。", strategy="efa", as_of=date(2025, 1, 1)
    )
    assert r.text == (
        "参见《公司法》（2018年修正）第七十一条（注：所引版本已于2024年7月1日被修订后的版本取代，"
        "现行规定请核实）。"
    )
    assert "废止" not in r.text


@pytest.mark.parametrize(
    "text,as_of",
    [
        ("参见《公司法》（2018年修正）第七十一条。", date(2025, 1, 1)),
        ("依据《合同法》第五十二条，甲公司的损失应由乙公司赔偿。", date(2024, 6, 1)),
        ("《公司法》第七十一条规定，股东向股东以外的人转让股权，应当经其他股东过半数同意。", date(2025, 6, 1)),
        ("根据《公司法》第四十七条，全体股东认缴的出资额由股东按照公司章程的规定自公司成立之日起五年内缴足。", date(2024, 6, 1)),
        ("甲应当赔偿乙的损失（《民法典》第九千条）。", date(2024, 6, 1)),
        ("甲应当赔偿乙的损失（指导案例999号）。", date(2024, 6, 1)),
    ],
)  # fmt: skip
def test_every_note_citegov_writes_is_recognised_as_its_own(
    gov: Governor, text: str, as_of: date
) -> None:
    # notes are cut out before judging (CITEGOV_NOTE): one that is not would be judged as the
    # report's own words in the next round and the next run
    from governor.text.regexes import CITEGOV_NOTE

    r = gov.govern(text, strategy="efa", as_of=as_of)
    assert "（注：" in r.text
    assert "（注：" not in CITEGOV_NOTE.sub("", r.text)


def test_a_missing_paragraph_of_the_wrong_article_is_renumbered_in_one_round(gov: Governor) -> None:
    # Qwen's LawBench 3-2 answer #404: 第83条第2款 (83 has one 款) quoting 第85条's rule
    text = (
        "《刑事诉讼法》第83条第2款规定：“对有证据证明有犯罪事实，可能判处徒刑以上刑罚的犯罪嫌疑人、"
        "被告人，采取拘留、逮捕措施后，应当在拘留、逮捕后二十四小时以内，通知被拘留、逮捕人的家属。"
        "有碍侦查的情形消失以后，应当立即通知被拘留、逮捕人的家属。”因此，警方在逮捕嫌疑人后，应当在"
        "二十四小时内通知其家属。"
    )
    r = gov.govern(text, strategy="efa", as_of=date(2024, 6, 1))
    assert r.rounds[0].edits[0].op == "renumber"
    assert "第85条" in r.text
    assert gov.govern(r.text, strategy="efa", as_of=date(2024, 6, 1)).edits == ()
