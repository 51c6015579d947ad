"""LawBench loader and the 3-2 / 3-8 → task adapter (rubric and evidence from the reference)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import lawbench as lb
from governor.authorities import AuthorityStore, load_default_store
from governor.core.errors import TaskError

# Shapes copied from ../shared/data/lawbench_dev (LawBench, Apache-2.0), shortened.
REF_32 = "根据《农民专业合作社法》第五十六条，三个以上的农民专业合作社在自愿的基础上，可以出资设立农民专业合作社联合社。"
REF_38 = (
    "回答:二手房房产已过户但房款未付清，卖方可以向法院提起诉讼要求买方承担违约责任。"
    "法律依据:《民法典》第二百零九条不动产物权的设立、变更、转让和消灭，经依法登记，发生效力。"
    "第二百三十八条侵害物权，造成权利人损害的，权利人可以依法请求损害赔偿。"
)
PROMPT_32 = [
    {
        "role": "HUMAN",
        "prompt": "请根据具体场景与问题给出法律依据，只需要给出具体法条内容，每个场景仅涉及一个法条。\n"
        "场景:三个农民专业合作社想设立联合社。根据哪条法律可以设立？",
    }
]
PROMPT_38 = "请回答下列问题，首先给出回答，然后给出对应的法律依据: \n房款未付清怎么办？"


@pytest.fixture(scope="module")
def store() -> AuthorityStore:
    return load_default_store()


def _item(task: str, reference: str, question: str = "问题？") -> lb.LawBenchItem:
    return lb.LawBenchItem(
        model="m", task=task, index=7, question=question, prediction="答案", reference=reference
    )


def test_reference_citations_resolve_continuations(store: AuthorityStore) -> None:
    assert lb.reference_citations(REF_38, store) == (
        ("中华人民共和国民法典", "209"),
        ("中华人民共和国民法典", "238"),
    )


def test_task_3_2_uses_the_first_reference_article(store: AuthorityStore) -> None:
    case = lb.task_from_item(_item("3-2", REF_32 + "另见《民法典》第一条。"), store)
    assert case is not None
    (item,) = case.task.rubric
    assert [e.authority for e in item.evidence] == ["《中华人民共和国农民专业合作社法》第56条"]
    assert "联合社" in item.evidence[0].text  # the store's article text
    assert item.text.startswith("三个以上的农民专业合作社")
    assert case.task.as_of == lb.LAWBENCH_AS_OF
    assert case.task.id == "m_3-2_007"
    assert case.draft == lb.draft_text(case.item)


def test_task_3_8_conclusion_and_every_basis_article(store: AuthorityStore) -> None:
    case = lb.task_from_item(_item("3-8", REF_38), store)
    assert case is not None
    (item,) = case.task.rubric
    assert item.text == "二手房房产已过户但房款未付清，卖方可以向法院提起诉讼要求买方承担违约责任"
    assert [e.authority for e in item.evidence] == [
        "《中华人民共和国民法典》第209条",
        "《中华人民共和国民法典》第238条",
    ]
    assert [s.id for s in case.task.subtopics] == ["s1"]


@pytest.mark.parametrize(
    ("task", "reference", "question"),
    [("3-2", "没有引用任何法条的参考答案。", "问题？"), ("3-8", REF_38, "")],
)
def test_unscorable_items_are_skipped(
    store: AuthorityStore, task: str, reference: str, question: str
) -> None:
    assert lb.task_from_item(_item(task, reference, question), store) is None


def test_other_tasks_are_refused(store: AuthorityStore) -> None:
    with pytest.raises(TaskError, match="no adapter"):
        lb.task_from_item(_item("1-1", REF_32), store)


def test_3_8_without_basis_keeps_the_conclusion_without_evidence(store: AuthorityStore) -> None:
    case = lb.task_from_item(_item("3-8", "回答:可以起诉。律师解答可以起诉。"), store)
    assert case is not None
    assert case.task.rubric[0].text == "可以起诉"
    assert case.task.rubric[0].evidence == ()


def _write(folder: Path, model: str, task: str, records: dict[str, dict[str, object]]) -> None:
    (folder / f"{model}_zero_shot_{task}.json").write_text(
        json.dumps(records, ensure_ascii=False), encoding="utf-8"
    )


def test_load_cases_over_files(tmp_path: Path, store: AuthorityStore) -> None:
    rec = {
        "origin_prompt": PROMPT_32,
        "prediction": "《农民专业合作社法》第十九条：可以。",
        "refr": REF_32,
    }
    bad = {"origin_prompt": PROMPT_32, "prediction": "x", "refr": "无引用。"}
    _write(tmp_path, "a", "3-2", {"0": rec, "1": bad})
    _write(tmp_path, "b", "3-2", {"0": rec})
    _write(
        tmp_path, "a", "3-8", {"0": {"origin_prompt": PROMPT_38, "prediction": "y", "refr": REF_38}}
    )
    cases, skipped = lb.load_cases(tmp_path, "3-2", store)
    assert [c.task.id for c in cases] == ["a_3-2_000", "b_3-2_000"]
    assert skipped == ("a_3-2_001",)
    assert cases[0].task.query == "三个农民专业合作社想设立联合社。根据哪条法律可以设立？"
    only_b, _ = lb.load_cases(tmp_path, "3-2", store, models=["b"])
    assert [c.item.model for c in only_b] == ["b"]
    with pytest.raises(TaskError, match=r"no \*_zero_shot_3-9\.json"):
        lb.load_cases(tmp_path, "3-9", store)
