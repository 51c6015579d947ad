"""Counts that keep a score from being gamed by deletion (issue 13 item 5)."""

from __future__ import annotations

from typing import get_args

import pytest

from governor.api import Governor
from governor.authorities import load_default_store
from governor.core.labels import (
    ANNOTATION_OPS,
    REMOVING_OPS,
    RETARGET_OPS,
    DeletionCounts,
    deletion_counts,
)
from governor.core.models import CheckResult, Citation, Edit, EditOp, Span, Verdict

DRAFT = (
    "根据《刑法》第二百六十四条，盗窃公私财物数额较大的，处三年以下有期徒刑。"
    "《民法典》第十条规定：“处理民事纠纷，应当依照法律。”"
)
C1 = "《刑法》第二百六十四条"
C2 = "《民法典》第十条"
MARK = "（注：未找到支持该结论的现行有效法律依据，请核实）"


def _cit(cid: str, raw: str, instrument: str, claim: str, quotes: tuple[str, ...] = ()) -> Citation:
    s = DRAFT.index(raw)
    return Citation(
        id=cid,
        span=Span(start=s, end=s + len(raw)),
        raw=raw,
        kind="statute",
        instrument=instrument,
        instrument_as_written=instrument,
        claim=claim,
        quotes=quotes,
    )


def _v(c: Citation) -> Verdict:
    r = CheckResult(axis="existence", label="found")
    return Verdict(
        citation=c,
        existence=r,
        fidelity=CheckResult(axis="fidelity", label="faithful"),
        applicability=CheckResult(axis="applicability", label="applicable"),
        item_trust=1.0,
    )


INITIAL = (
    _v(_cit("c1", C1, "刑法", "盗窃公私财物数额较大的，处三年以下有期徒刑")),
    _v(_cit("c2", C2, "民法典", "处理民事纠纷，应当依照法律", ("处理民事纠纷，应当依照法律",))),
)


def _ed(op: EditOp, before: str, after: str, cid: str | None) -> tuple[Edit, str]:
    s = DRAFT.index(before)
    e = Edit(op=op, span=Span(start=s, end=s + len(before)), before=before, after=after,
             reason="r", citation_id=cid)  # fmt: skip
    return e, DRAFT.replace(before, after, 1)


CASES = [
    # name, op, before, after, citation id, expected (kept, removed, annotations, orphans)
    ("quoted statute text left after its citation went", "remove_citation",
     "《民法典》第十条规定：", "", "c2", (1, 1, 0, 1)),
    ("claim left, carrier gone, marked", "mark_unsupported",
     "根据《刑法》第二百六十四条，盗窃公私财物数额较大的，处三年以下有期徒刑",
     "盗窃公私财物数额较大的，处三年以下有期徒刑" + MARK, "c1", (1, 1, 1, 1)),
    ("whole sentence removed: no claim left", "remove_citation",
     "根据《刑法》第二百六十四条，盗窃公私财物数额较大的，处三年以下有期徒刑。", "", "c1",
     (1, 1, 0, 0)),
    ("renumber: neither removed nor annotation", "renumber", C1, "《刑法》第二百六十五条",
     "c1", (2, 0, 0, 0)),
    ("a repealed law retargeted to its successor is kept", "replace_repealed", C1,
     "《中华人民共和国民法典》第五百六十九条", "c1", (2, 0, 0, 0)),
    ("a rewrite citing another provision keeps it", "llm_rewrite", "根据《刑法》第二百六十四条，",
     "根据《治安管理处罚法》第五十八条，", "c1", (2, 0, 0, 0)),
    ("an inserted note is an annotation", "annotate", "。《民法典》", "。（注：请核实）《民法典》",
     "c2", (2, 0, 1, 0)),
    ("a note is an annotation, the citation stays", "mark_stale", C1,
     C1 + "（注：该条已修改，请核对现行文本）", "c1", (2, 0, 1, 0)),
    ("a rewrite that drops the citation removes it", "llm_rewrite",
     "根据《刑法》第二百六十四条，", "依法，", "c1", (1, 1, 0, 1)),
    ("a rewrite that keeps the instrument keeps it", "rewrite_description",
     "根据《刑法》第二百六十四条，盗窃", "《刑法》第二百六十四条规定，盗窃", "c1", (2, 0, 0, 0)),
]  # fmt: skip


@pytest.mark.parametrize(("name", "op", "before", "after", "cid", "want"), CASES)
def test_counts(name: str, op: EditOp, before: str, after: str, cid: str, want: tuple) -> None:
    e, out = _ed(op, before, after, cid)
    got = deletion_counts(INITIAL, [e], out)
    assert (got.kept, got.removed, got.annotations, got.orphan_claims) == want, name


def test_no_edits_keeps_all() -> None:
    assert deletion_counts(INITIAL, [], DRAFT) == DeletionCounts(kept=2)


def test_whole_text_edit_without_citation_id() -> None:
    e = Edit(op="regenerate", span=Span(start=0, end=len(DRAFT)), before=DRAFT,
             after="盗窃公私财物数额较大的，处三年以下有期徒刑。", reason="r")  # fmt: skip
    got = deletion_counts(INITIAL, [e], e.after)
    assert (got.removed, got.orphan_claims) == (2, 1)


def test_one_citation_removed_twice_counts_once() -> None:
    e, out = _ed("remove_citation", "《民法典》第十条规定：", "", "c2")
    assert deletion_counts(INITIAL, [e, e], out).removed == 1


GOVERNED = [
    # draft, strategy, expected (kept, removed, annotations, orphans) on the governed output
    ("报告日期：2024年6月1日。根据《民法典》第九千条规定，合同无效。", "efa", (0, 1, 1, 1)),
    ("报告日期：2024年6月1日。《民法典》第九千条规定：“合同一律无效。”", "existence", (1, 0, 1, 0)),
    ("报告日期：2024年6月1日。诉讼时效期间为三年（《民法典》第一百八十八条）。", "efa", (1, 0, 0, 0)),
    ("报告日期：2024年6月1日。根据《民法典》第九千条规定，合同无效。", "none", (1, 0, 0, 0)),
]  # fmt: skip


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor(store=load_default_store())


@pytest.mark.parametrize(("draft", "strategy", "want"), GOVERNED)
def test_governed_drafts(gov: Governor, draft: str, strategy: str, want: tuple) -> None:
    r = gov.govern(draft, strategy=strategy)
    got = deletion_counts(
        r.initial_verdicts, r.edits, r.text, rounds=[x.verdicts for x in r.rounds]
    )
    assert (got.kept, got.removed, got.annotations, got.orphan_claims) == want, r.text


def test_every_edit_op_is_classified() -> None:
    """A new op must be placed: removal, note, retarget, or a free rewrite judged by its words."""
    free = {"llm_rewrite", "regenerate"}
    for op in get_args(EditOp):
        homes = [op in REMOVING_OPS, op in RETARGET_OPS, op in free]
        assert sum(homes) + (op in ANNOTATION_OPS and op not in REMOVING_OPS) == 1, op


def test_a_claim_left_standing_after_its_citation_is_removed_is_no_all_pass() -> None:
    # a new user's memo: existence filtering strips 「根据《劳动合同法》第一百二十条，」 (the law
    # has 98 articles) and keeps the invented rule; the remaining citation passes, yet the
    # report states a rule with no authority — no all-pass (trust may still be 1.0)
    text = (
        "根据《中华人民共和国民法典》第五百七十七条，当事人一方不履行合同义务或者履行合同义务不符合约定的，"
        "应当承担继续履行、采取补救措施或者赔偿损失等违约责任。"
        "此外，根据《劳动合同法》第一百二十条，用人单位还应当额外支付三个月工资作为惩罚性赔偿。"
    )
    r = Governor().govern(text, strategy="existence", as_of="2024-03-01")
    assert "第一百二十条" not in r.text and "惩罚性赔偿" in r.text
    assert r.scores.final.trust == 1.0
    assert r.scores.final.all_pass is False
    assert r.to_report().final is not None and r.to_report().final.scores.all_pass is False
    clean = Governor().govern(text.split("此外")[0], strategy="existence", as_of="2024-03-01")
    assert clean.scores.final.all_pass is True
