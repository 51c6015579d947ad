"""The revision policy (issue 13): proof per edit, annotations naming the candidate, the
clean-Chinese invariants, and the issue's "cases that must come out right".

Statute texts checked with ``citegov corpus show`` (道路交通安全法 24/25/42/43, 商标法 42/43,
特种设备安全法 81/85, 刑法 234/261, 企业破产法 101/113, 医疗器械监督管理条例 70/89). The two
repealed-law rows (合同法, 婚姻法) belong to the repealed-texts work and are not here.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from pathlib import Path

import pytest
from typer.testing import CliRunner

from governor.api import Governor
from governor.core.config import Config
from governor.revision.invariants import new_violations, violations
from governor.revision.policy import WORD_OPS, outside_quotes, pin_label
from governor.text.regexes import CITEGOV_NOTE
from graphs.state import GovernanceResult

AS_OF = date(2024, 6, 1)


@pytest.fixture(scope="module")
def govs() -> dict[str, Governor]:
    """One governor per policy, sharing nothing but the bundled store."""
    return {p: Governor(Config(edit_policy=p)) for p in ("proven", "annotate", "aggressive")}


def run(govs: dict[str, Governor], text: str, policy: str = "proven") -> GovernanceResult:
    return govs[policy].govern(text, strategy="efa", as_of=AS_OF)


def trust(r: GovernanceResult) -> float:
    inc = [v.item_trust for v in r.final_verdicts if not v.excluded]
    return sum(inc) / len(inc) if inc else 1.0


@dataclass(frozen=True)
class Case:
    name: str
    text: str
    present: tuple[str, ...] = ()
    """Substrings the governed text must hold."""
    absent: tuple[str, ...] = ()
    """Substrings it must not hold."""
    below_one: bool = False
    """The governed report's trust must stay below 1.0 (an unsupported claim stays counted)."""


CASES = [
    Case(
        "renumber or annotate, never a bare quotation (道路交通安全法 25 → 24)",
        "根据《道路交通安全法》第二十五条规定：“驾驶人累积记分达到规定分值的，扣留驾驶证，接受教育并重新考试。”",
        present=("第二十四条", "“驾驶人累积记分达到规定分值的，扣留驾驶证，接受教育并重新考试。”"),
        absent=("未找到",),
    ),
    Case(
        "stays 42 (subject 转让); the 备案 sentence is named as 43's (商标法)",
        "《商标法》第四十二条规定：“转让注册商标应当签订转让协议，并共同向商标局提出申请；未经备案的，不得对抗善意第三人。”",
        present=("《商标法》第四十二条规定：“转让注册商标应当签订转让协议", "第四十三条", "未经备案的，不得对抗善意第三人"),
        absent=("未经备案的，不得对抗善意第三人。”", "受让人应当保证"),
    ),
    Case(
        "the amount is not changed to another article's; 81(2) named (特种设备安全法)",
        "《特种设备安全法》第八十五条规定，销售国家明令淘汰的特种设备的，处五万元以上二十万元以下罚款。",
        present=("第八十五条规定", "处五万元以上二十万元以下罚款", "第八十一条第二款"),
        absent=("三十万元以下罚款",),
    ),
    Case(
        "the invented sentence leaves the quotation (道路交通安全法 43)",
        "《道路交通安全法》第四十三条规定：“同车道行驶的机动车，后车应当与前车保持足以采取紧急制动措施的安全距离。驾驶人不得超速行驶。”",
        present=("安全距离。”驾驶人不得超速行驶（注：此句并非",),
        absent=("驾驶人不得超速行驶。”",),
    ),
    Case(
        "the 重伤 clause (第二款) is kept (刑法 234)",
        "《刑法》第二百三十四条：“故意伤害他人身体的，处三年以下有期徒刑、拘役或者管制。重伤的，处三年以上十年以下有期徒刑。”",
        present=("重伤的，处三年以上十年以下有期徒刑",),
    ),
    Case(
        "the 重伤 clause survives a rewrite of an unpinned article (刑法 234, wrong modal)",
        "《刑法》第二百三十四条：“故意伤害他人身体的，可以处三年以下有期徒刑、拘役或者管制。犯前款罪，致人重伤的，处三年以上十年以下有期徒刑。”",
        present=("致人重伤的，处三年以上十年以下有期徒刑",),
    ),
    Case(
        "stays 261, no number changed; the minors limit is noted (刑法 261)",
        "《刑法》第二百六十一条规定，父母遗弃不满十八周岁的子女，情节恶劣的，构成遗弃罪。",
        present=("《刑法》第二百六十一条规定，父母遗弃不满十八周岁的子女", "并无「不满十八周岁」"),
        absent=("第十七条",),
    ),
    Case(
        "an invented quotation keeps its citation and stays unsupported (企业破产法 101)",
        "《企业破产法》第一百零一条规定：“破产财产清偿完毕后的剩余部分应优先用于破产费用。”",
        present=("《企业破产法》第一百零一条规定：“破产财产清偿完毕后的剩余部分应优先用于破产费用。”（注：",),
        below_one=True,
    ),
    Case(
        "no 「未找到…法律依据」: 89 named (医疗器械监督管理条例 70)",
        "《医疗器械监督管理条例》第七十条规定，未按要求提交质量管理体系自查报告的，由药品监督管理部门责令改正。",
        present=("第八十九条",),
        absent=("未找到",),
    ),
]  # fmt: skip


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_cases_that_must_come_out_right(govs: dict[str, Governor], case: Case) -> None:
    r = run(govs, case.text)
    for s in case.present:
        assert s in r.text, r.text
    for s in case.absent:
        assert s not in r.text, r.text
    if case.below_one:
        assert trust(r) < 1.0, r.text
    assert not new_violations(case.text, r.text), (new_violations(case.text, r.text), r.text)


@pytest.mark.xfail(
    strict=True,
    reason="lexical retrieval does not link 超速 to 第四十二条's 「不得超过限速标志标明的最高时速」; "
    "needs the whole-store semantic retrieval (another engineer's part of issue 13)",
)
def test_the_speed_sentence_is_named_as_article_42(govs: dict[str, Governor]) -> None:
    r = run(govs, CASES[3].text)
    assert "第四十二条" in r.text, r.text


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_every_word_change_carries_its_proof(govs: dict[str, Governor], case: Case) -> None:
    r = run(govs, case.text)
    for rd in r.rounds:
        for e in rd.edits:
            changes = bool(e.before.strip()) and e.before not in e.after
            if changes or e.op in WORD_OPS:
                assert e.proof is not None and e.proof.measure and e.proof.span_text, e


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_annotate_never_changes_words(govs: dict[str, Governor], case: Case) -> None:
    r = run(govs, case.text, "annotate")
    for rd in r.rounds:
        for e in rd.edits:
            assert e.before == "" or e.before in e.after, e
    # the draft survives as a subsequence: only notes were inserted
    rest = iter(r.text)
    assert all(ch in rest for ch in case.text), r.text


def test_aggressive_keeps_the_pre_policy_repairs(govs: dict[str, Governor]) -> None:
    """The ablation baseline: the word changes ``proven`` refuses still happen under
    ``aggressive`` (特种设备安全法: the amount copied from the article the words were moved to)."""
    case = next(c for c in CASES if "特种设备" in c.text)
    ops = {e.op for e in run(govs, case.text, "aggressive").edits}
    assert ops & {"renumber", "fix_number"}, ops
    assert {e.op for e in run(govs, case.text).edits} <= {"annotate", "mark_misdescribed"}


def test_a_proven_renumber_records_source_and_measure(govs: dict[str, Governor]) -> None:
    r = run(govs, CASES[8].text)
    moves = [e for rd in r.rounds for e in rd.edits if e.op == "renumber"]
    assert moves, r.text
    p = moves[0].proof
    assert p is not None
    assert p.source.startswith("《医疗器械监督管理条例》第八十九条")
    assert "未按要求提交质量管理体系自查报告" in p.span_text
    assert "≥ 0.8 in target" in p.measure


def test_edit_json_carries_the_proof(govs: dict[str, Governor]) -> None:
    r = run(govs, CASES[8].text)
    e = next(e for rd in r.rounds for e in rd.edits if e.op == "renumber")
    data = e.model_dump(mode="json")
    assert set(data) == {
        "op",
        "span",
        "before",
        "after",
        "reason",
        "citation_id",
        "labels",
        "proof",
    }
    assert set(data["proof"]) == {"source", "span_text", "measure"}


def test_the_verdict_report_carries_the_proof(govs: dict[str, Governor]) -> None:
    import json

    import jsonschema

    from governor.core.report import json_schema
    from governor.reports.json_report import build_report

    r = run(govs, CASES[8].text)
    rep = build_report(
        CASES[8].text,
        as_of=AS_OF,
        strategy="efa",
        judge="offline",
        initial=r.initial_verdicts,
        result=r,
    )
    data = json.loads(rep.model_dump_json())
    jsonschema.validate(data, json_schema())
    edits = [e for rd in data["rounds"] for e in rd["edits"]]
    assert any(e["proof"] and "≥ 0.8 in target" in e["proof"]["measure"] for e in edits), edits


def test_a_removal_without_proof_becomes_a_note_naming_nothing_false(
    govs: dict[str, Governor],
) -> None:
    """A real provision judged off-topic is never deleted under ``proven`` (A low is no proof);
    a fabricated article whose claim does not hang on a quotation still goes."""
    text = "一名孕妇决定放弃胎儿。根据《中华人民共和国刑法》第二百三十三条可以对该孕妇从轻、减轻或免除处罚。"
    r = run(govs, text)
    assert "第二百三十三条" in r.text and "（注：" in r.text, r.text
    assert "第二百三十三条" not in run(govs, text, "aggressive").text  # removed for A alone
    gone = run(govs, "根据《民法典》第九千条规定，合同无效。")
    assert "第九千条" not in gone.text and "原引条文经核查不存在" in gone.text


def test_a_fabricated_article_quoted_as_text_keeps_its_source(govs: dict[str, Governor]) -> None:
    text = "《民法典》第九千条规定：“当事人订立合同，应当遵循诚信原则，不得损害他人合法权益。”"
    r = run(govs, text)
    assert "《民法典》第九千条" in r.text and "（注：" in r.text, r.text
    assert "orphan_quote" not in new_violations(text, r.text)
    aggressive = run(govs, text, "aggressive")
    assert "第九千条" not in aggressive.text  # the pre-policy removal (kept for the ablation)


# ---------------------------------------------------------------------------------------------
# invariants


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("答：可以。\n：“当事人应当遵循诚信原则。”", "line_punct"),
        ("答：可以。\n，因此合同有效。", "line_punct"),
        ("法律依据：：《民法典》第五百七十七条。", "double_punct"),
        ("合同有效。。", "double_punct"),
        ("《民法典》第五百零九条规定：“当事人应当按照约定全面履行自己的义务（注：经核查，该条文并无上述内容，请核实）。”", "note_in_quote"),
        ("答：合同有效。\n\n该条文明确了违约责任。", "dangling_ref"),
        ("答：合同有效。\n\n这两个规定说明了违约责任。", "dangling_ref"),
        ("答：合同有效。\n\n法律依据：\n\n以上为参考。", "empty_basis"),
        ("答：合同有效。“当事人应当按照约定全面履行自己的义务。”", "orphan_quote"),
        ("答：合同有效。规定：“当事人应当按照约定全面履行自己的义务。”", "orphan_quote"),
    ],
)  # fmt: skip
def test_each_invariant_is_detected(text: str, kind: str) -> None:
    assert kind in {v.kind for v in violations(text)}, violations(text)


@pytest.mark.parametrize(
    "text",
    [
        "根据《民法典》第五百七十七条规定，当事人一方不履行合同义务的，应当承担违约责任。",
        "《民法典》第五百零九条规定：“当事人应当按照约定全面履行自己的义务。”（注：经核查，请核实）",
        "《民法典》第五百七十七条明确了违约责任。该条文适用于合同之债。",
        "法律依据：\n《民法典》第五百七十七条",
        "《刑法》第二百六十一条规定，遗弃罪（注：该条文并无「不满十八周岁」的限定，请核实）。",
    ],
)
def test_clean_text_has_no_violation(text: str) -> None:
    assert violations(text) == ()


def test_removals_that_together_empty_a_basis_list_are_annotated(
    govs: dict[str, Governor],
) -> None:
    """GPT-3.5's LawBench 3-8 answer #144: two fabricated instruments make up the whole
    法律依据 list; each removal alone is clean, both together leave the heading citing nothing."""
    text = (
        "回答：农村房屋在拆除前应当经过合法程序，并根据相关规定进行补偿。\n\n法律依据：\n"
        "1.《中华人民共和国城市房屋拆迁条例》第十一条规定，拆除城市房屋应当依法征求意见，"
        "向被拆除人发出拆迁通知，并按照规定给予补偿。\n"
        "2.《农村集体经济组织房屋征收与补偿条例》第六条规定，农村集体经济组织征收农村集体经济"
        "组织房屋，应当征得集体经济组织成员的同意，并按照规定给予补偿。\n"
    )
    r = run(govs, text)
    assert not new_violations(text, r.text), r.text
    assert "原引条文经核查不存在" in r.text and any("reading invariant" in n for n in r.notes)
    aggressive = run(govs, text, "aggressive")
    assert new_violations(text, aggressive.text) == {"empty_basis": 1}  # what the gate prevents


def test_only_the_revisions_violations_count() -> None:
    draft = "答：可以。\n：“作者自己的引文。”"
    assert new_violations(draft, draft) == {}
    assert new_violations(draft, draft + "。。") == {"double_punct": 1}


# ---------------------------------------------------------------------------------------------
# notes


@pytest.mark.parametrize(
    ("text", "at", "expected"),
    [
        ("规定：“甲。”乙", 5, 7),  # inside the quotation → after its closing mark
        ("规定：“甲。”乙", 7, 7),  # already outside
        ("规定：「甲」乙", 4, 6),
        ("无引号。", 2, 2),
    ],
)
def test_a_note_position_moves_out_of_quotation_marks(text: str, at: int, expected: int) -> None:
    assert outside_quotes(text, at) == expected


def test_a_note_naming_a_candidate_is_citegovs_own_and_no_citation() -> None:
    from governor.authorities import load_default_store
    from governor.citations.extract import extract

    note = "（注：经核查，该条文并无上述内容，可能应为《医疗器械监督管理条例》第八十九条第（一）项（置信度0.78），请核实）"
    assert CITEGOV_NOTE.fullmatch(note)
    text = "《医疗器械监督管理条例》第七十条规定，未按要求提交的，责令改正" + note + "。"
    cits = extract(text, load_default_store())
    assert [c.raw for c in cits] == ["《医疗器械监督管理条例》第七十条"]


def test_pin_label_uses_chinese_numerals_and_short_titles() -> None:
    from governor.core.models import Authority

    a = Authority(
        id="x", instrument="中华人民共和国特种设备安全法", level="法律", article="81", paragraph=2
    )
    assert pin_label(a) == "《特种设备安全法》第八十一条第二款"
    b = a.model_copy(update={"article": "133之一", "paragraph": None, "item": 1})
    assert pin_label(b) == "《特种设备安全法》第一百三十三条之一第（一）项"


# ---------------------------------------------------------------------------------------------
# configuration and CLI


def test_the_default_policy_is_proven() -> None:
    assert Config().edit_policy == "proven"


@pytest.mark.parametrize(("flag", "code"), [("annotate", 0), ("aggressive", 0), ("careful", 2)])
def test_edit_policy_flag(tmp_path: Path, flag: str, code: int) -> None:
    from governor.cli.app import app

    draft = tmp_path / "d.md"
    draft.write_text(CASES[2].text, encoding="utf-8")
    out = tmp_path / "out"
    res = CliRunner().invoke(
        app, ["revise", str(draft), "--out", str(out), "--edit-policy", flag, "-q"]
    )
    assert res.exit_code == code, res.output
    if code == 0:
        revised = (out / "d.md").read_text(encoding="utf-8")
        assert ("第八十一条" in revised) == (flag == "aggressive") or flag == "annotate"
        if flag == "annotate":
            assert "第八十五条规定" in revised and "第八十一条第二款" in revised
    else:
        assert "unknown edit policy" in res.output
