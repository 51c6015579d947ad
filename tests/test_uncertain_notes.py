"""What a note says when the verdict behind it is uncertain (issue 22 "Done when": gold-edit
harmful ≤ 2 %). Classes from the harmful gold edits (benchmarks/data/gold_edits.jsonl):

* A ``irrelevant`` (the claim's words were not found in the provision) is not a contradiction:
  without a named candidate the note says the check could not confirm the support, never
  「该条文与上述结论不符」 (g0403 著作权法第五十二条 for 抄袭 — its item (五) is 剽窃; g0345
  居民身份证法第十八条 for a fake identity card — it is 伪造、变造居民身份证);
* a store-wide candidate the fidelity check contradicts (the words are near-verbatim another
  article of the candidate's own law) is not named (g0552 劳动合同法第十九条 for a 第四十六条
  list item); on F's guesses and across laws the candidate is still named (tuning range: those
  were the right articles — 公司法第一百七十条, 海商法第二百二十一条);
* a limit note 「该条文并无「X」的限定」 is not given when the limit and the words are another
  provision's (g0566: 「工资至少每月支付一次」 is 工资支付暂行规定第七条 verbatim), but stays when
  no candidate states the limit (g0476, 治安管理处罚法 「三月以下拘留」).

Sentences are dev LawBench answers (../shared/data/lawbench_dev, Apache-2.0); the statute
texts were read in the store as of 2023-07-01.
"""

from __future__ import annotations

from datetime import date

import pytest

from benchmarks.datadir import data_path
from benchmarks.lawbench import LAWBENCH_AS_OF, draft_text, load_task
from governor.api import Governor
from governor.core.config import Config
from governor.core.models import CheckResult, Evidence, Verdict
from governor.revision.policy import fidelity_match, topic_summary

AS_OF = date(2023, 7, 1)
LAWBENCH = data_path("lawbench_dev")
CONTRADICTS = "该条文与上述结论不符"
UNCONFIRMED = "（注：经核查，未能确认该条文支持上述结论，请核实）"


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor(Config())


@pytest.mark.parametrize(
    "text",
    [
        # chatglm2-6b 3-2 #216: 著作权法第五十二条(五) 「剽窃他人作品的」 is the plagiarism rule
        "因此，根据场景二，某高校的学生会主席在校园内组织了一次文艺演出，演出过程中存在抄袭行为，"
        "该学生会主席可能面临的法律责任可以依据《著作权法》第五十二条来处理。",
        # chatglm2-6b 3-8 #77: 居民身份证法第十八条 「伪造、变造居民身份证的，依法追究刑事责任」
        "回答： 根据《中华人民共和国居民身份证法》第十八条的规定，如果您办理的身份证被公安机关"
        "确认为假证，您可能会受到处理。",
    ],
)
def test_irrelevant_is_not_called_a_contradiction(gov: Governor, text: str) -> None:
    out = gov.govern(text, strategy="efa", as_of=AS_OF).text
    assert CONTRADICTS not in out
    assert UNCONFIRMED in out  # the failing verdict is still said


def test_a_limit_no_candidate_states_is_still_named(gov: Governor) -> None:
    """GPT-3.5 3-8 #297: 治安管理处罚法 has no 「三月以下拘留」 (拘留 is in 日); the note says so."""
    text = (
        "2. 对于先动手行为：根据《治安管理处罚法》第四十一条，故意伤害他人身体的，可以处五日以上"
        "十日以下拘留，并处五百元以下罚款；情节较重的，可以处十日以上十五日以下拘留，并处五百元"
        "以上一千元以下罚款，或者处三月以下拘留，并处五百元以上一千元以下罚款。"
    )
    out = gov.govern(text, strategy="efa", as_of=AS_OF).text
    assert "该条文并无「三月」的限定" in out


def _governed(item_id: str, gov: Governor) -> str:
    if not LAWBENCH.is_dir():
        pytest.skip(f"{LAWBENCH}: LawBench dev answers not available")
    task = item_id.split("_")[-2]
    it = next(x for x in load_task(LAWBENCH, task) if x.id == item_id)
    return gov.govern(
        draft_text(it), strategy="efa", as_of=LAWBENCH_AS_OF, context=it.question
    ).text


@pytest.mark.parametrize(
    ("item_id", "sentence", "wrong"),
    [
        # F: the words are 劳动合同法第四十六条's list (near-verbatim); the candidate was 第十九条
        (
            "chatglm2-6b-hf_3-8_227",
            "3. 根据本法第四十二条规定，依照本法第四十三条第一款规定终止固定期限劳动合同的",
            "第十九条",
        ),
    ],
)
def test_a_candidate_fidelity_contradicts_is_not_named(
    gov: Governor, item_id: str, sentence: str, wrong: str
) -> None:
    out = _governed(item_id, gov)
    at = out.index(sentence)
    line = out[at : out.find("\n", at) if "\n" in out[at:] else len(out)]
    assert "（注：" in line  # the failing verdict is said
    assert wrong not in line


def test_no_limit_note_when_the_limit_is_another_provisions(gov: Governor) -> None:
    """qwen 3-8 #23: 工资支付暂行规定第十七条 is the internal pay rules; 「工资至少每月支付一次」 is
    第七条 verbatim — 「并无「一次」的限定」 would say the limit is no law."""
    out = _governed("qwen-7b-chat-hf_3-8_023", gov)
    assert "「一次」的限定" not in out
    assert "工资应当至少每月支付一次（注：" in out


def test_fidelity_match_reads_the_evidence(gov: Governor) -> None:
    v: Verdict = gov.verify(
        "根据《劳动合同法》第四十二条，劳动者可以随时解除劳动合同。", as_of=AS_OF
    )[0]
    f = CheckResult(
        axis="fidelity",
        label="misdescribed",
        score=0.0,
        rationale="the description matches 《中华人民共和国劳动合同法》第46条 (0.83) better than "
        "the cited provision (0.31), its text near-verbatim (0.96)",
        evidence=(Evidence(text="", authority_id="中华人民共和国劳动合同法@2012-12-28#46"),),
    )
    assert fidelity_match(v.model_copy(update={"fidelity": f})) == (
        "中华人民共和国劳动合同法",
        "46",
    )
    other = f.model_copy(update={"rationale": "the description shares little with the text"})
    assert fidelity_match(v.model_copy(update={"fidelity": other})) is None


def test_topic_summary(gov: Governor) -> None:
    text = "1. 《中华人民共和国劳动合同法》第10条规定了劳动合同的签订和劳动报酬的支付。"
    cit = gov.verify(text, as_of=AS_OF)[0].citation
    assert topic_summary(text, cit)
    text2 = "根据《劳动合同法》第十条，建立劳动关系，应当订立书面劳动合同。"
    assert not topic_summary(text2, gov.verify(text2, as_of=AS_OF)[0].citation)


@pytest.mark.parametrize(
    ("text", "note"),
    [
        # GPT-3.5 3-2 #58 (tuning range): 刑法第二百四十三条 is 诬告陷害罪, 职务侵占罪 is 第二百七十一条
        (
            "根据中华人民共和国刑法第二百四十三条的规定，高管占有公司财产的行为构成职务侵占罪。",
            "（注：该条文规定的是诬告陷害罪，职务侵占罪见《刑法》第二百七十一条，请核实）",
        ),
        # chatglm2-6b 3-8 #81 (tuning range): 第二百七十一条 is 职务侵占罪, 倒卖文物罪 is 第三百二十六条
        (
            "您的回答: 根据我国《刑法》第271条，倒卖文物罪，您可能构成犯罪。",
            "（注：该条文规定的是职务侵占罪，倒卖文物罪见《刑法》第三百二十六条，请核实）",
        ),
    ],
)
def test_another_charges_article_is_said_as_such(gov: Governor, text: str, note: str) -> None:
    """A 刑法 article that defines another charge than the report's (the 罪名 table's proof) is
    said as that fact, not as an unconfirmed support."""
    assert note in gov.govern(text, strategy="efa", as_of=AS_OF).text


def test_no_note_grafted_after_a_short_claim(gov: Governor) -> None:
    """chatglm2-6b 3-8 #429: 「根据《劳动合同法》第四十六条，劳动合同期满，用人单位应当依照劳动合同法
    第四十三条的规定办理续签手续」 — the words of 第四十六条 are cut at the next citation to
    「劳动合同期满」; a 「不完全一致」 note after them split the sentence (gold g0419). The verdict
    is told in the report's line instead."""
    from governor.core.labels import told_by_edits, unsaid_line

    if not LAWBENCH.is_dir():
        pytest.skip(f"{LAWBENCH}: LawBench dev answers not available")
    it = next(x for x in load_task(LAWBENCH, "3-8") if x.id == "chatglm2-6b-hf_3-8_429")
    r = gov.govern(draft_text(it), strategy="efa", as_of=LAWBENCH_AS_OF, context=it.question)
    assert "劳动合同期满（注：" not in r.text
    v = next(w for w in r.initial_verdicts if w.citation.raw == "《劳动合同法》第四十六条")
    assert told_by_edits(v, r.rounds) or unsaid_line(v) in r.to_report().warnings


def test_a_figure_note_says_the_provisions_figure() -> None:
    # a new user's memo: 二年 under 民法典第一百八十八条 (三年) could not be fixed in place (the
    # claim repeats 二年), and the note said only 「所述数额、期限或用语与该条文不一致」
    from governor.api import Governor

    text = "三、需要注意，民法典第一百八十八条规定诉讼时效期间为二年，乙公司应在二年内起诉。\n"
    r = Governor().govern(text, strategy="efa", as_of="2024-03-01")
    assert "该条文规定为「三年」，而非「二年」" in r.text


def test_a_law_not_yet_in_force_is_not_called_repealed() -> None:
    # a new user's memo dated 2015: 民法典 (in force 2021-01-01) got 「该规定已废止」
    from governor.api import Governor

    text = "根据《中华人民共和国民法典》第五百七十七条，当事人一方不履行合同义务的，应当承担违约责任。\n"
    r = Governor().govern(text, strategy="efa", as_of="2015-06-01")
    assert "所引法律报告日期时尚未施行" in r.text
    assert "已废止" not in r.text
