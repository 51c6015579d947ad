"""benchmarks.tasks: schema, native loaders/writer, generator view, LegalCiteTrust loader."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest

from benchmarks.tasks import (
    EvidencePoint,
    RubricItem,
    Subtopic,
    Task,
    dump_tasks,
    generator_view,
    load_legalcitetrust,
    load_tasks,
)
from governor.core.errors import ErrorCode, TaskError

DATA = Path(__file__).parent / "data" / "tasks"
NATIVE = DATA / "native"


def _task(tid: str = "t1", **changes: object) -> dict[str, object]:
    base: dict[str, object] = {
        "id": tid,
        "query": "违约金过高如何调整？",
        "as_of": "2024-01-01",
        "subtopics": [{"id": "s1", "title": "调整"}],
        "rubric": [{"id": "r1", "subtopic_id": "s1", "text": "第五百八十五条"}],
    }
    base.update(changes)
    return base


def _jsonl(*rows: object) -> str:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)


def test_load_jsonl_fixture() -> None:
    tasks = load_tasks(NATIVE / "tasks.jsonl")
    assert [t.id for t in tasks] == ["labor-01", "contract-01"]
    t = tasks[0]
    assert t.as_of == date(2024, 6, 1)
    assert t.rubric[0].evidence == (
        EvidencePoint(
            authority="《中华人民共和国劳动合同法》第三十九条", text="严重违反用人单位的规章制度的"
        ),
    )
    assert isinstance(t.subtopics, tuple) and isinstance(t.rubric[0].evidence, tuple)
    assert tasks[1].subtopics[0].description == ""


def test_load_json_list_fixture_and_folder() -> None:
    listed = load_tasks(NATIVE / "tasks_list.json")
    assert [t.id for t in listed] == ["t1", "t2"]
    assert listed[1].rubric[0].subtopic_id is None
    folder = load_tasks(NATIVE)  # files in name order: tasks.jsonl, tasks_list.json
    assert [t.id for t in folder] == ["labor-01", "contract-01", "t1", "t2"]


@pytest.mark.parametrize(
    "name,content",
    [
        ("one.json", json.dumps(_task())),
        ("wrapped.json", json.dumps({"tasks": [_task()], "version": 1})),
        ("bom.jsonl", "\ufeff" + _jsonl(_task())),
        ("blank-lines.jsonl", "\n" + _jsonl(_task()) + "\n\n"),
        ("u2028.jsonl", _jsonl(_task(query="第一行\u2028第二行"))),
    ],
)
def test_accepted_containers(tmp_path: Path, name: str, content: str) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    (task,) = load_tasks(path)
    assert task.id == "t1"


BAD = [
    # (file name, content, fragments the message must contain)
    ("a.jsonl", _jsonl(_task(), _task("t2", query=None)),
     ["a.jsonl:2", "query", "give a string"]),
    ("a.jsonl", _jsonl(_task(), {k: v for k, v in _task("t2").items() if k != "query"}),
     ["a.jsonl:2", "query: Field required", "add this field"]),
    ("a.jsonl", _jsonl(_task()) + "\n" + '{"id": "t2", "query": \n',
     ["a.jsonl:3:", "not valid JSON"]),
    ("a.jsonl", _jsonl(_task(as_of="2024/01/01")), ["a.jsonl:1", "as_of", "YYYY-MM-DD"]),
    ("a.jsonl", _jsonl(_task(rubric=[])), ["rubric", "add at least one entry"]),
    ("a.jsonl", _jsonl(_task(notes="x")), ["notes", "remove this field"]),
    ("a.jsonl", _jsonl(_task(rubric=[{"id": "r1", "subtopic_id": "s9", "text": "x"}])),
     ["'s9'", "use one of ['s1']"]),
    ("a.jsonl", _jsonl(_task(rubric=[{"id": "r1", "text": "x"}, {"id": "r1", "text": "y"}])),
     ["duplicate rubric item ids ['r1']"]),
    ("a.jsonl", _jsonl(_task(rubric=[{"id": "r1", "text": "x", "evidence": [{"text": "y"}]}])),
     ["rubric[0].evidence[0].authority", "add this field"]),
    ("a.jsonl", _jsonl(_task(), _task()), ["a.jsonl:2", "'t1' already used at", "a.jsonl:1"]),
    ("a.jsonl", _jsonl([1, 2]), ["a.jsonl:1", "expected a JSON object"]),
    ("b.json", json.dumps({"version": 2, "tasks": [_task(), _task("t2", query="")]}, indent=1),
     ["b.json:", "(task #2)", "query", "non-empty"]),
    ("b.json", json.dumps(_task()) + "\n{}", ["b.json:2", "extra data"]),
    ("b.json", "[\n" + json.dumps(_task()) + ",\n]", ["b.json:3:", "not valid JSON"]),
    ("b.json", "42", ["expected a task object"]),
    ("b.json", '{"tasks": []}', ["holds no task"]),
    ("b.json", "[]", ["holds no task"]),
    ("b.json", "  \n", ["empty"]),
    ("c.txt", "x", ["use .json or .jsonl"]),
]  # fmt: skip


@pytest.mark.parametrize("name,content,fragments", BAD)
def test_bad_task_files_name_file_line_and_fix(
    tmp_path: Path, name: str, content: str, fragments: list[str]
) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    with pytest.raises(TaskError) as info:
        load_tasks(path)
    msg = str(info.value)
    assert info.value.code is ErrorCode.TASK
    for fragment in fragments:
        assert fragment in msg


@pytest.mark.parametrize(
    "doc",
    [
        [_task(), _task("t2", as_of="soon")],
        {"version": 2, "tasks": [_task(), _task("t2", as_of="soon")], "note": "x"},
    ],
    ids=["list", "wrapped"],
)
def test_error_names_the_line_where_the_bad_task_starts(tmp_path: Path, doc: object) -> None:
    text = json.dumps(doc, indent=2)
    lines = text.splitlines()
    id_line = next(i for i, ln in enumerate(lines, start=1) if '"t2"' in ln)
    assert lines[id_line - 2].strip() == "{"  # the task object opens on the line before
    path = tmp_path / "w.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(TaskError, match=rf"w\.json:{id_line - 1} \(task #2\): .*as_of"):
        load_tasks(path)


@pytest.mark.parametrize(
    "setup,fragment",
    [
        (lambda p: p.write_bytes(b"\xff\xfe\x00garbage"), "not UTF-8"),
        (lambda p: None, "no such file"),
        (lambda p: p.mkdir(), "no .json or .jsonl task files"),
    ],
)
def test_unreadable_inputs(tmp_path: Path, setup: Callable[[Path], object], fragment: str) -> None:
    path = tmp_path / "x.jsonl"
    setup(path)
    with pytest.raises(TaskError, match=fragment):
        load_tasks(path)


def test_duplicate_ids_across_files_in_a_folder(tmp_path: Path) -> None:
    (tmp_path / "1.jsonl").write_text(_jsonl(_task()), encoding="utf-8")
    (tmp_path / "2.json").write_text(json.dumps([_task()]), encoding="utf-8")
    with pytest.raises(TaskError, match=r"2\.json:1 \(task #1\): task id 't1' already used"):
        load_tasks(tmp_path)


@pytest.mark.parametrize("suffix", [".json", ".jsonl"])
def test_dump_then_load_round_trips(tmp_path: Path, suffix: str) -> None:
    tasks = load_tasks(NATIVE / "tasks.jsonl")
    out = tmp_path / "sub" / f"out{suffix}"
    dump_tasks(tasks, out)
    assert load_tasks(out) == tasks
    assert "劳动合同法" in out.read_text(encoding="utf-8")  # not \u-escaped
    assert [p.name for p in out.parent.iterdir()] == [out.name]  # no temp file left


def test_dump_rejects_other_suffixes(tmp_path: Path) -> None:
    with pytest.raises(TaskError, match=r"write to \.json or \.jsonl"):
        dump_tasks([], tmp_path / "x.csv")


def test_generator_view_hides_rubric_evidence_and_date() -> None:
    task = load_tasks(NATIVE / "tasks.jsonl")[0]
    view = generator_view(task)
    assert set(type(view).model_fields) == {"query", "subtopics"}
    assert view.query == task.query and view.subtopics == task.subtopics
    dumped = view.model_dump_json()
    for hidden in (task.rubric[0].text, task.rubric[0].evidence[0].authority, "2024-06-01"):
        assert hidden not in dumped


def test_task_is_frozen() -> None:
    task = Task.model_validate(_task())
    with pytest.raises(ValueError):
        task.id = "other"


# ------------------------------------------------------------------ LegalCiteTrust (assumed)


def test_legalcitetrust_sample_maps_field_variants() -> None:
    tasks = load_legalcitetrust(DATA / "legalcitetrust_sample.json", default_as_of=date(2025, 1, 1))
    first, second = tasks
    assert first == Task(
        id="LCT-001",
        query="公司股东未届出资期限即转让股权，出资责任如何承担？",
        as_of=date(2024, 7, 1),
        subtopics=(
            Subtopic(id="s1", title="转让人与受让人的责任", description="新《公司法》下的责任分配"),
            Subtopic(id="s2", title="时间效力"),
        ),
        rubric=(
            RubricItem(
                id="s1.r1",
                subtopic_id="s1",
                text="受让人承担缴纳出资义务，转让人承担补充责任",
                evidence=(
                    EvidencePoint(
                        authority="《中华人民共和国公司法》第88条",
                        text="由受让人承担缴纳该出资的义务",
                    ),
                ),
            ),
            RubricItem(
                id="r1",
                subtopic_id="s2",
                text="说明新法溯及适用的司法解释",
                evidence=(
                    EvidencePoint(
                        authority="《最高人民法院关于适用〈中华人民共和国公司法〉时间效力的若干规定》第四条"
                    ),
                ),
            ),
            RubricItem(id="r2", subtopic_id="s1", text="提及股东名册记载"),
        ),
    )
    assert second.id == "lct-0002"  # generated from the position
    assert second.as_of == date(2025, 1, 1)  # default_as_of
    assert second.rubric[0].text.startswith("《民法典》第一千一百九十五条")


LCT_BAD = [
    ({"question": "q", "subtopics": ["a"], "rubric": ["x"]}, None, ["no as-of date", "default_as_of"]),
    ({"id": "x", "as_of": "2024-01-01", "subtopics": ["a"]}, None, ["no query", "'question'"]),
    ({"query": "q", "date": "2024-01-01", "subtopics": [5]}, None, ["subtopic 1"]),
    ({"query": "q", "date": "2024-01-01", "subtopics": ["a"]}, None, ["rubric", "add at least one"]),
    ({"query": "q", "date": "2024-01-01", "subtopics": ["a"],
      "rubric": [{"text": "x", "subtopic": "zzz"}]}, None, ["'zzz'", "use one of ['s1']"]),
]  # fmt: skip


@pytest.mark.parametrize("record,default,fragments", LCT_BAD)
def test_legalcitetrust_errors_name_line_and_field(
    tmp_path: Path, record: dict[str, object], default: date | None, fragments: list[str]
) -> None:
    path = tmp_path / "lct.jsonl"
    ok = {"query": "q", "date": "2024-01-01", "subtopics": ["a"], "rubric": ["x"]}
    path.write_text(_jsonl(ok, record), encoding="utf-8")
    with pytest.raises(TaskError) as info:
        load_legalcitetrust(path, default_as_of=default)
    msg = str(info.value)
    assert "lct.jsonl:2" in msg
    for fragment in fragments:
        assert fragment in msg
