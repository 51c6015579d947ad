"""Benchmark task schema, loaders and writers (SPEC §8).

Native format, one task::

    {"id": "t1", "query": "...", "as_of": "2024-01-01",
     "subtopics": [{"id": "s1", "title": "...", "description": "..."}],
     "rubric": [{"id": "r1", "subtopic_id": "s1", "text": "...",
                 "evidence": [{"authority": "《民法典》第577条", "text": "..."}]}]}

Files: ``.jsonl`` (one task per line; blank lines skipped), ``.json`` (one task, a list of
tasks, or ``{"tasks": [...]}``), or a folder of such files (read in name order, not recursive).
Every error is a :class:`governor.core.errors.TaskError` naming the file, the line where the task
starts, the field path, and what to change.

The generator may see only the query, the subtopics and their descriptions
(:func:`generator_view`); rubric items and evidence are for scoring only.

The LegalCiteTrust release format is read by :func:`load_legalcitetrust` from an *assumed*
layout (see there): no copy of the release was available when this was written.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from datetime import date
from pathlib import Path
from typing import Any, Final

from pydantic import Field, ValidationError, model_validator
from pydantic_core import ErrorDetails

from governor.core.errors import TaskError
from governor.core.models import Frozen

TASK_SUFFIXES: Final = (".json", ".jsonl")


class EvidencePoint(Frozen):
    """An authority that backs a rubric item, with the text it should be cited for.

    Attributes:
        authority: How the authority is named, e.g. ``《中华人民共和国民法典》第五百七十七条``.
        text: The point the authority establishes (may be empty).
    """

    authority: str = Field(min_length=1)
    text: str = ""


class RubricItem(Frozen):
    """One scoring point of a task.

    Attributes:
        id: Unique within the task.
        subtopic_id: The subtopic it belongs to, or ``None`` when the source has no mapping.
        text: What a good report must say.
        evidence: Authorities expected to back it (the Support metric's evidence points).
    """

    id: str = Field(min_length=1)
    subtopic_id: str | None = None
    text: str = Field(min_length=1)
    evidence: tuple[EvidencePoint, ...] = ()


class Subtopic(Frozen):
    """A section the report is expected to have (visible to the generator).

    Attributes:
        id: Unique within the task.
        title: Short heading.
        description: What the section should address (may be empty).
    """

    id: str = Field(min_length=1)
    title: str = Field(min_length=1)
    description: str = ""


class Task(Frozen):
    """One legal research task (SPEC §8).

    Attributes:
        id: Unique within a task set.
        query: The research question put to the generator.
        as_of: Date the law is assessed at (verifiers resolve versions against it).
        subtopics: At least one.
        rubric: At least one item; each ``subtopic_id`` must name a subtopic of the task.

    Raises:
        ValueError: (as a pydantic ``ValidationError``) on duplicate ids or a rubric item
            pointing at an unknown subtopic.
    """

    id: str = Field(min_length=1)
    query: str = Field(min_length=1)
    as_of: date
    subtopics: tuple[Subtopic, ...] = Field(min_length=1)
    rubric: tuple[RubricItem, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _consistent(self) -> Task:
        for what, ids in (
            ("subtopic", [s.id for s in self.subtopics]),
            ("rubric item", [r.id for r in self.rubric]),
        ):
            dup = sorted({i for i in ids if ids.count(i) > 1})
            if dup:
                raise ValueError(f"duplicate {what} ids {dup}: give each a unique id")
        known = {s.id for s in self.subtopics}
        for r in self.rubric:
            if r.subtopic_id is not None and r.subtopic_id not in known:
                raise ValueError(
                    f"rubric item {r.id!r} points at subtopic {r.subtopic_id!r}, which the "
                    f"task does not define: use one of {sorted(known)}"
                )
        return self


class GeneratorView(Frozen):
    """What a report generator may see of a task: the query and the subtopics.

    The as-of date, rubric items and evidence are withheld (SPEC §8).
    """

    query: str
    subtopics: tuple[Subtopic, ...]


def generator_view(task: Task) -> GeneratorView:
    """Return the part of ``task`` the generator may see (query, subtopic titles/descriptions)."""
    return GeneratorView(query=task.query, subtopics=task.subtopics)


# ---------------------------------------------------------------------------------------------
# error messages

_HINTS: Final[Mapping[str, str]] = {
    "missing": "add this field",
    "extra_forbidden": "remove this field or fix its spelling",
    "string_too_short": "give a non-empty string",
    "too_short": "add at least one entry",
    "string_type": "give a string",
    "date_from_datetime_parsing": "write the date as YYYY-MM-DD",
    "date_from_datetime_inexact": "write the date as YYYY-MM-DD, without a time",
    "date_parsing": "write the date as YYYY-MM-DD",
    "date_type": "write the date as a YYYY-MM-DD string",
    "tuple_type": "give a JSON list",
    "model_type": "give a JSON object",
    "model_attributes_type": "give a JSON object",
}


def _describe(err: ErrorDetails) -> str:
    path = ""
    for part in err["loc"]:
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
    hint = _HINTS.get(err["type"], "")
    msg = err["msg"].removeprefix("Value error, ")
    return f"{path or 'task'}: {msg}" + (f" ({hint})" if hint else "")


def _task_error(where: str, exc: ValidationError) -> TaskError:
    lines = "; ".join(_describe(e) for e in exc.errors(include_url=False))
    return TaskError(f"{where}: invalid task: {lines}")


def _where(path: Path, line: int, index: int | None = None) -> str:
    return f"{path}:{line}" + (f" (task #{index + 1})" if index is not None else "")


# ---------------------------------------------------------------------------------------------
# reading JSON with the line where each task starts

_WS: Final = " \t\n\r"


def _line(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _skip(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in _WS:
        pos += 1
    return pos


def _decode(dec: json.JSONDecoder, text: str, pos: int, path: Path) -> tuple[Any, int]:
    try:
        return dec.raw_decode(text, pos)
    except json.JSONDecodeError as exc:
        raise TaskError(
            f"{path}:{exc.lineno}:{exc.colno}: not valid JSON ({exc.msg}); fix the syntax"
        ) from None


def _array_items(text: str, pos: int, path: Path) -> Iterator[tuple[int, Any]]:
    """Yield ``(line, value)`` for each element of the JSON array starting at ``text[pos]``."""
    dec = json.JSONDecoder()
    pos = _skip(text, pos + 1)
    if pos < len(text) and text[pos] == "]":
        return
    while True:
        start = _skip(text, pos)
        value, pos = _decode(dec, text, start, path)
        yield _line(text, start), value
        pos = _skip(text, pos)
        if pos < len(text) and text[pos] == ",":
            pos += 1
            continue
        if pos < len(text) and text[pos] == "]":
            return
        raise TaskError(f"{path}:{_line(text, pos)}: expected ',' or ']' in the task list")


def _json_records(text: str, path: Path, list_keys: Sequence[str]) -> Iterator[tuple[int, Any]]:
    """Yield ``(line, record)`` from a JSON document: a list, ``{key: [...]}`` or one object.

    Lines are found by walking the top level with :meth:`json.JSONDecoder.raw_decode`, so
    each record reports the line it starts on. The whole document is parsed first, so a
    syntax error anywhere is reported before any record.
    """
    dec = json.JSONDecoder()
    start = _skip(text, 0)
    doc, end = _decode(dec, text, start, path)
    if _skip(text, end) != len(text):
        raise TaskError(
            f"{path}:{_line(text, _skip(text, end))}: extra data after the JSON value; "
            "put several tasks in a list or use a .jsonl file"
        )
    if isinstance(doc, list):
        yield from _array_items(text, start, path)
        return
    if not isinstance(doc, dict):
        raise TaskError(f"{path}:{_line(text, start)}: expected a task object or a list of tasks")
    key = next((k for k in list_keys if isinstance(doc.get(k), list)), None)
    if key is None:
        yield _line(text, start), doc
        return
    # Walk the top-level object to the position of doc[key].
    pos = _skip(text, start + 1)
    while pos < len(text):
        name, pos = _decode(dec, text, pos, path)
        pos = _skip(text, _skip(text, pos) + 1)  # past ':'
        if name == key:
            yield from _array_items(text, pos, path)
            return
        _, pos = _decode(dec, text, pos, path)
        pos = _skip(text, _skip(text, pos) + 1)  # past ','
    raise AssertionError("unreachable: key was present in the parsed object")


def _read_text(path: Path) -> str:
    try:
        return path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise TaskError(
            f"{path}: not UTF-8 text (byte {exc.start}); save the task file as UTF-8"
        ) from None
    except OSError as exc:
        raise TaskError(f"{path}: cannot read ({exc.strerror}); check the path") from None


def _records(path: Path, list_keys: Sequence[str]) -> Iterator[tuple[str, Any]]:
    """Yield ``(where, record)`` for every record of one ``.json``/``.jsonl`` file."""
    text = _read_text(path)
    if not text.strip():
        raise TaskError(f"{path}: the file is empty; add at least one task")
    if path.suffix == ".jsonl":
        # split on "\n" only: JSON strings may hold U+2028 etc., which splitlines() breaks on
        for lineno, line in enumerate(text.split("\n"), start=1):
            if not line.strip():
                continue
            try:
                yield _where(path, lineno), json.loads(line)
            except json.JSONDecodeError as exc:
                raise TaskError(
                    f"{path}:{lineno}:{exc.colno}: not valid JSON ({exc.msg}); each line of a "
                    ".jsonl file must be one complete task object"
                ) from None
        return
    for index, (lineno, rec) in enumerate(_json_records(text, path, list_keys)):
        yield _where(path, lineno, index), rec


def _files(path: Path) -> list[Path]:
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.is_file() and p.suffix in TASK_SUFFIXES)
        if not files:
            raise TaskError(f"{path}: no .json or .jsonl task files in this folder")
        return files
    if not path.exists():
        raise TaskError(f"{path}: no such file or folder; check the path")
    if path.suffix not in TASK_SUFFIXES:
        raise TaskError(f"{path}: unsupported task file type; use .json or .jsonl")
    return [path]


def _unique(tasks: Iterable[tuple[str, Task]], path: Path) -> tuple[Task, ...]:
    """Check task ids are unique and that there is at least one task."""
    seen: dict[str, str] = {}
    out = []
    for where, task in tasks:
        if task.id in seen:
            raise TaskError(
                f"{where}: task id {task.id!r} already used at {seen[task.id]}; "
                "give every task a unique id"
            )
        seen[task.id] = where
        out.append(task)
    if not out:
        raise TaskError(f"{path}: holds no task (an empty list?); add at least one task")
    return tuple(out)


def _validate(where: str, record: Any) -> Task:
    if not isinstance(record, dict):
        raise TaskError(f"{where}: expected a JSON object for a task, got {type(record).__name__}")
    try:
        return Task.model_validate(record)
    except ValidationError as exc:
        raise _task_error(where, exc) from None


def load_tasks(path: str | os.PathLike[str]) -> tuple[Task, ...]:
    """Load tasks in the native format (SPEC §8) from a file or a folder.

    Args:
        path: A ``.json`` file (one task, a list, or ``{"tasks": [...]}``), a ``.jsonl`` file
            (one task per line), or a folder of such files (name order, not recursive).

    Returns:
        The tasks in file order; ids are unique across all files.

    Raises:
        TaskError: Unreadable or non-UTF-8 file, invalid JSON, a record that does not follow
            the schema, an empty file or folder, or a duplicate task id. The message names
            the file, the line where the task starts, the field path and what to change.
            Also raised when the files hold no task at all.
    """
    root = Path(path)
    records = ((w, rec) for file in _files(root) for w, rec in _records(file, ("tasks",)))
    return _unique(((w, _validate(w, rec)) for w, rec in records), root)


def _atomic_write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def dump_tasks(tasks: Iterable[Task], path: str | os.PathLike[str]) -> None:
    """Write tasks atomically in the native format; :func:`load_tasks` reads them back equal.

    Args:
        tasks: Tasks to write (ids should be unique for the file to load again).
        path: ``.jsonl`` (one task per line) or ``.json`` (an indented list). UTF-8, Chinese
            written as is.

    Raises:
        TaskError: ``path`` has another suffix.
    """
    out = Path(path)
    rows = [t.model_dump(mode="json") for t in tasks]
    if out.suffix == ".jsonl":
        text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
    elif out.suffix == ".json":
        text = json.dumps(rows, ensure_ascii=False, indent=2) + "\n"
    else:
        raise TaskError(f"{out}: unsupported task file type; write to .json or .jsonl")
    _atomic_write(out, text)


# ---------------------------------------------------------------------------------------------
# LegalCiteTrust release format (ASSUMED)

LCT_LIST_KEYS: Final = ("tasks", "data", "items", "examples", "records")
LCT_ID: Final = ("id", "task_id", "qid", "uid", "idx", "index")
LCT_QUERY: Final = ("query", "question", "prompt", "instruction", "task", "input")
LCT_AS_OF: Final = ("as_of", "asof", "as_of_date", "date", "query_date", "time")
LCT_SUBTOPICS: Final = ("subtopics", "sub_topics", "subtopic", "aspects", "outline", "sections")
LCT_TITLE: Final = ("title", "name", "subtopic", "topic", "heading", "aspect")
LCT_DESCRIPTION: Final = ("description", "desc", "detail", "details", "explanation", "content")
LCT_RUBRIC: Final = (
    "rubric", "rubrics", "rubric_items", "criteria", "checklist", "key_points", "points",
)  # fmt: skip
LCT_RUBRIC_TEXT: Final = (
    "text", "item", "criterion", "point", "content", "description", "rubric", "requirement",
)  # fmt: skip
LCT_RUBRIC_SUBTOPIC: Final = ("subtopic_id", "subtopic", "subtopic_index", "aspect_id", "section")
LCT_EVIDENCE: Final = (
    "evidence", "evidences", "evidence_points", "authorities", "legal_basis", "laws",
    "references", "citations", "sources",
)  # fmt: skip
LCT_AUTHORITY: Final = (
    "authority", "law", "citation", "source", "provision", "basis", "name", "title", "ref",
)  # fmt: skip
LCT_ARTICLE: Final = ("article", "article_no", "article_number")
LCT_EVIDENCE_TEXT: Final = ("text", "content", "quote", "excerpt", "provision_text", "point")


def _pick(rec: Mapping[str, Any], keys: Sequence[str]) -> Any:
    """First present, non-null value among ``keys`` (the order is the priority)."""
    for k in keys:
        if rec.get(k) is not None:
            return rec[k]
    return None


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, int | float):
        return str(value)
    raise ValueError(f"expected text, got {type(value).__name__}")


def _as_list(value: Any, what: str) -> list[Any]:
    if value is None:
        return []
    if isinstance(value, list):
        return value
    if isinstance(value, dict | str):
        return [value]
    raise ValueError(f"{what}: expected a list, got {type(value).__name__}")


def _lct_evidence(value: Any) -> dict[str, str]:
    if isinstance(value, str):
        return {"authority": value.strip(), "text": ""}
    if isinstance(value, dict):
        authority = _text(_pick(value, LCT_AUTHORITY))
        article = _text(_pick(value, LCT_ARTICLE))
        if article:  # {"law": "民法典", "article": "577"} → 民法典第577条
            article = article if article.startswith("第") else f"第{article}条"
            authority = authority if authority.endswith(article) else authority + article
        return {"authority": authority, "text": _text(_pick(value, LCT_EVIDENCE_TEXT))}
    raise ValueError(f"evidence: expected a string or an object, got {type(value).__name__}")


def _lct_rubric(value: Any, rid: str, subtopic_id: str | None) -> dict[str, Any]:
    if isinstance(value, str):
        return {"id": rid, "subtopic_id": subtopic_id, "text": value.strip()}
    if not isinstance(value, dict):
        raise ValueError(f"rubric item: expected a string or an object, got {type(value).__name__}")
    return {
        "id": _text(_pick(value, ("id", "rubric_id", "item_id"))) or rid,
        "subtopic_id": subtopic_id,
        "text": _text(_pick(value, LCT_RUBRIC_TEXT)),
        "evidence": [_lct_evidence(e) for e in _as_list(_pick(value, LCT_EVIDENCE), "evidence")],
    }


def _lct_subtopic_ref(value: Any, ids: Sequence[str], titles: Sequence[str]) -> str | None:
    """Resolve a top-level rubric item's subtopic reference: id, title, or 0/1-based index."""
    if value is None:
        return None
    text = _text(value)
    if text in ids:
        return text
    if text in titles:
        return ids[titles.index(text)]
    if isinstance(value, int) and not isinstance(value, bool):
        if 1 <= value <= len(ids):
            return ids[value - 1]  # assumed 1-based (matches generated ids s1, s2, ...)
    return text  # unknown: Task validation names it and lists the valid ids


def _lct_record(rec: Any, index: int, default_as_of: date | None) -> dict[str, Any]:
    """Map one assumed-LegalCiteTrust record onto the native task dict."""
    if not isinstance(rec, dict):
        raise ValueError(f"expected a JSON object per task, got {type(rec).__name__}")
    query = _text(_pick(rec, LCT_QUERY))
    if not query:
        raise ValueError(f"no query: expected one of the fields {list(LCT_QUERY)}")
    as_of = _pick(rec, LCT_AS_OF)
    if as_of is None:
        if default_as_of is None:
            raise ValueError(
                f"no as-of date (fields {list(LCT_AS_OF)}): add one, or pass default_as_of"
            )
        as_of = default_as_of.isoformat()
    elif isinstance(as_of, str) and len(as_of) > 10 and as_of[10] in "T ":
        as_of = as_of[:10]  # a timestamp: keep its date part
    subtopics: list[dict[str, Any]] = []
    rubric: list[dict[str, Any]] = []
    for i, sub in enumerate(_as_list(_pick(rec, LCT_SUBTOPICS), "subtopics"), start=1):
        sid = f"s{i}"
        if isinstance(sub, str):
            subtopics.append({"id": sid, "title": sub.strip(), "description": ""})
            continue
        if not isinstance(sub, dict):
            raise ValueError(f"subtopic {i}: expected a string or an object")
        sid = _text(_pick(sub, ("id", "subtopic_id"))) or sid
        subtopics.append(
            {
                "id": sid,
                "title": _text(_pick(sub, LCT_TITLE)),
                "description": _text(_pick(sub, LCT_DESCRIPTION)),
            }
        )
        for j, item in enumerate(_as_list(_pick(sub, LCT_RUBRIC), "rubric"), start=1):
            rubric.append(_lct_rubric(item, f"{sid}.r{j}", sid))
    ids = [s["id"] for s in subtopics]
    titles = [s["title"] for s in subtopics]
    for k, item in enumerate(_as_list(_pick(rec, LCT_RUBRIC), "rubric"), start=1):
        ref = _pick(item, LCT_RUBRIC_SUBTOPIC) if isinstance(item, dict) else None
        rubric.append(_lct_rubric(item, f"r{k}", _lct_subtopic_ref(ref, ids, titles)))
    return {
        "id": _text(_pick(rec, LCT_ID)) or f"lct-{index + 1:04d}",
        "query": query,
        "as_of": as_of,
        "subtopics": subtopics,
        "rubric": rubric,
    }


def load_legalcitetrust(
    path: str | os.PathLike[str], *, default_as_of: date | None = None
) -> tuple[Task, ...]:
    """Load tasks from the LegalCiteTrust release format (**ASSUMED** layout, see below).

    No copy of the release was available (no network) when this was written. The mapping
    follows the published description only: *tasks with a query, subtopics with a title and a
    description, rubric items with evidence authorities*. Everything below is ASSUMED and
    accepts field-name variants defensively; verify it against the real release and tighten:

    * container: ``.jsonl`` (one task per line), ``.json`` holding a list or an object with
      the list under one of ``tasks/data/items/examples/records``, or a single task object;
      a folder of such files;
    * task id: first of ``id/task_id/qid/uid/idx/index``; missing → ``lct-0001``... by order;
    * query: first of ``query/question/prompt/instruction/task/input`` (required);
    * as-of date: first of ``as_of/asof/as_of_date/date/query_date/time`` (a timestamp keeps
      its date part); missing → ``default_as_of``, else an error;
    * subtopics: first of ``subtopics/sub_topics/subtopic/aspects/outline/sections``; each a
      string (the title) or an object with title (``title/name/subtopic/topic/heading/
      aspect``) and description (``description/desc/detail/details/explanation/content``);
      ids from ``id/subtopic_id`` or ``s1, s2, ...`` by order;
    * rubric items either nested in a subtopic or at task level, under
      ``rubric/rubrics/rubric_items/criteria/checklist/key_points/points``; each a string
      or an object with text (``text/item/criterion/point/content/description/rubric/
      requirement``) and evidence (``evidence/evidences/evidence_points/authorities/
      legal_basis/laws/references/citations/sources``); nested ids ``s1.r1``..., task-level
      ``r1``...; a task-level item names its subtopic by id, title or 1-based index under
      ``subtopic_id/subtopic/subtopic_index/aspect_id/section`` (optional);
    * an evidence point is a string (the authority) or an object with the authority under
      ``authority/law/citation/source/provision/basis/name/title/ref`` and its text under
      ``text/content/quote/excerpt/provision_text/point``; an ``article/article_no/
      article_number`` field is appended as ``第N条`` unless the authority already ends so;
    * when several variants are present the first in the order above wins; other fields are
      ignored (unlike :func:`load_tasks`, which rejects unknown fields).

    Args:
        path: File or folder as above.
        default_as_of: As-of date for records that carry none.

    Returns:
        The tasks, validated against :class:`Task`.

    Raises:
        TaskError: Unreadable file, invalid JSON, a record that cannot be mapped (names the
            file, line, and the field variants looked for), or duplicate task ids.
    """
    out: list[tuple[str, Task]] = []
    index = 0
    for file in _files(Path(path)):
        for where, rec in _records(file, LCT_LIST_KEYS):
            try:
                mapped = _lct_record(rec, index, default_as_of)
            except ValueError as exc:
                raise TaskError(f"{where}: cannot read as a LegalCiteTrust task: {exc}") from None
            try:
                out.append((where, Task.model_validate(mapped)))
            except ValidationError as exc:
                raise _task_error(where, exc) from None
            index += 1
    return _unique(out, Path(path))
