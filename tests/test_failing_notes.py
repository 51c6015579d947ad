"""Issue 21 item 3: a citation judged failing with no safe specific wording gets a generic
"check this" note where a note reads as its own (:meth:`RevisionPolicy.failing_note`), and a
line in the verdict report otherwise; a list's one note names the members it is about.

Texts are dev LawBench 3-8 answers (../shared/data/lawbench_dev, Apache-2.0), cut to the
citation's sentence; the verdicts were checked against the statute text in the store.
"""

from __future__ import annotations

import re
from datetime import date

import pytest

from benchmarks.datadir import data_path
from benchmarks.lawbench import LAWBENCH_AS_OF, draft_text, load_task
from governor.api import Governor
from governor.core.config import Config
from governor.core.labels import told_by_edits, unsaid_line
from governor.core.models import Verdict
from governor.revision.policy import generic_kind

AS_OF = date(2023, 9, 1)
LAWBENCH = data_path("lawbench_dev")

# 民法典第一千零六十三条 lists a spouse's personal property; it does not say that property
# 「不因婚姻关系的存续而增加」 (chatglm2-6b 3-8 #79)
MISDESCRIBED = (
    "问题：婚前贷款买的房子算谁的？\n\n根据《民法典》第一千零六十三条，夫妻一方的个人财产，"
    "不因婚姻关系的存续而增加。因此，您婚前贷款买的房子属于您的个人财产。\n"
)
# 著作权法第二十二条 (moral rights' term), 第二十三条 (term), 第二十四条 (fair use) for who holds
# the copyright (chatglm2-6b 3-8 #88)
LISTED = (
    "问题：原画师给了一个人设子，但是是非买断，过后原画师回收，那个人说买版权了，请问版权现在"
    "是在原画师还是在那个人手里？\n\n原画师和那个人都没有购买对方的著作权，因此现在该作品仍然"
    "属于原画师。\n\n对应的法律依据：《中华人民共和国著作权法》第二十二条、第二十三条、"
    "第二十四条规定。\n"
)
# 刑事诉讼法第一百九十四条/第一百九十五条 (questioning witnesses, evidence at trial) for the time
# limit to prosecute (chatglm2-6b 3-8 #5), one per markdown list line
BULLETS = (
    "问题：朋友取保候审两个月了还没起诉，是不是过了起诉期？\n\n检察院和法院应当移送起诉。\n\n"
    "法律依据：\n- 《中华人民共和国刑事诉讼法》第一百九十四条\n"
    "- 《中华人民共和国刑事诉讼法》第一百九十五条\n"
)


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor(Config())


def test_misdescribed_without_provable_wording_gets_a_generic_note(gov: Governor) -> None:
    r = gov.govern(MISDESCRIBED, strategy="efa", as_of=AS_OF)
    assert r.initial_verdicts[0].fidelity.label == "misdescribed"
    assert (
        "不因婚姻关系的存续而增加（注：经核查，该条文内容与上述表述不尽一致，请核实）。" in r.text
    )


def test_a_list_note_names_its_failing_members(gov: Governor) -> None:
    r = gov.govern(LISTED, strategy="efa", as_of=AS_OF)
    note = "（注：经核查，《著作权法》第二十二条、第二十三条、第二十四条与上述内容未见直接关联，请核实）"
    assert r.text.count("（注：") == 1 and note in r.text
    assert all(told_by_edits(v, r.rounds) for v in r.initial_verdicts)
    warnings = r.to_report().warnings
    assert not any(w.startswith("judged failing") for w in warnings), warnings


def test_markdown_bullets_are_no_range(gov: Governor) -> None:
    """「…第一百九十四条\\n- 《…》第一百九十五条」: the bullet is no range dash, so the members
    are not endpoints of a range cited whole; each line gets its own note."""
    r = gov.govern(BULLETS, strategy="efa", as_of=AS_OF)
    # The wording depends on the path the policy takes (a generic 「未见直接关联」 note, or
    # 「与上述结论不符」 when a better article was found and is named, 「未能确认该条文支持上述
    # 结论」 when A found the claim's words missing and names none); what this test
    # holds is that each line is noted after its own article, not left as a range's end.
    assert re.search(r"第一百九十四条（注：[^）]*(未见直接关联|不符|未能确认)", r.text), r.text
    assert re.search(r"第一百九十五条（注：[^）]*(未见直接关联|不符|未能确认)", r.text), r.text
    assert all(v.citation.article_range is None for v in r.initial_verdicts)


def test_no_generic_note_in_a_table_row_but_a_report_line(gov: Governor) -> None:
    text = (
        "问题：婚前贷款买的房子算谁的？\n\n| 依据 | 说明 |\n|---|---|\n"
        "| 《民法典》第一千零六十三条 | 夫妻一方的个人财产，不因婚姻关系的存续而增加 |\n"
    )
    r = gov.govern(text, strategy="efa", as_of=AS_OF)
    failing = [v for v in r.initial_verdicts if not v.passes and not told_by_edits(v, r.rounds)]
    assert "不尽一致" not in r.text
    warnings = r.to_report().warnings
    assert all(unsaid_line(v) in warnings for v in failing)


def _variant(v: Verdict, f: str, a: str, article: str | None = "1063") -> Verdict:
    return v.model_copy(
        update={
            "fidelity": v.fidelity.model_copy(update={"label": f}),
            "applicability": v.applicability.model_copy(update={"label": a}),
            "citation": v.citation.model_copy(update={"article": article}),
        }
    )


def test_generic_kinds(gov: Governor) -> None:
    """A faithful recitation judged irrelevant and a law cited whole get no generic note (the
    hand check found those notes false); a bare list member judged irrelevant does."""
    v = gov.verify(MISDESCRIBED, as_of=AS_OF)[0]
    assert generic_kind(v) == "misdescribed"
    assert generic_kind(_variant(v, "not_assessed", "irrelevant")) == "unrelated"
    assert generic_kind(_variant(v, "faithful", "irrelevant")) is None
    assert generic_kind(_variant(v, "not_assessed", "irrelevant", None)) is None
    short = v.model_copy(
        update={"citation": v.citation.model_copy(update={"description": "应承担违约责任"})}
    )
    assert generic_kind(short) is None


def _unheard(per_model: int | None) -> list[tuple[str, str]]:
    """Citations of the answers (not the question) that do not pass and that no edit names,
    no gap line covers and no report line names (the ``bench_judgment --lawbench`` count)."""
    if not LAWBENCH.is_dir():
        pytest.skip(f"{LAWBENCH}: LawBench dev answers not available")
    g = Governor(Config())
    items = load_task(LAWBENCH, "3-8")
    models = sorted({it.model for it in items})
    chosen = [x for m in models for x in [it for it in items if it.model == m][:per_model]]
    out = []
    for it in chosen:
        r = g.govern(draft_text(it), strategy="efa", as_of=LAWBENCH_AS_OF)
        warnings = set(r.to_report().warnings)
        for v in r.initial_verdicts:
            if v.citation.in_question or v.passes or v.gap is not None:
                continue
            if not told_by_edits(v, r.rounds) and unsaid_line(v) not in warnings:
                out.append((it.id, v.citation.raw))
    return out


def test_every_failing_citation_is_heard_sample() -> None:
    left = _unheard(15)
    assert left == [], left[:10]


@pytest.mark.slow
def test_every_failing_citation_is_heard_all() -> None:
    left = _unheard(None)
    assert left == [], (len(left), left[:10])


def test_a_member_note_names_the_members_failing_alike(gov: Governor) -> None:
    """GPT-3.5 3-8 #3: 「根据《社会保险法》第三十四条和第三十六条的规定，下岗职工…」 — neither
    article (基本医疗保险缴费年限 is 第二十七条) holds the words; the one note after the list
    names both, and no report line is left for the second."""
    if not LAWBENCH.is_dir():
        pytest.skip(f"{LAWBENCH}: LawBench dev answers not available")
    it = next(x for x in load_task(LAWBENCH, "3-8") if x.id == "GPT-3.5-turbo-0613_3-8_003")
    r = gov.govern(draft_text(it), strategy="efa", as_of=LAWBENCH_AS_OF)
    assert "（注：经核查，《社会保险法》第三十四条、第三十六条并无上述内容，请核实）" in r.text
    assert r.text.count("第三十六条并无上述内容") == 1
    listed = [v for v in r.initial_verdicts if v.citation.group and not v.citation.in_question]
    assert len(listed) == 2 and all(told_by_edits(v, r.rounds) for v in listed)
