"""LawBench dev predictions (open-compass/LawBench, Apache-2.0) as citegov inputs.

Files are ``<model>_zero_shot_<task>.json``: an object keyed ``"0".."499"`` whose values hold
``origin_prompt`` (a list of ``{role, prompt}`` or a string, sometimes still carrying chat
template tokens), ``prediction`` (the model's answer) and ``refr`` (the reference answer).
Tasks used: 1-1 (recite an article), 3-2 (name the article for a scenario), 3-8 (consultation
answers with 法律依据).

:func:`load_cases` turns 3-2 and 3-8 answers into benchmark cases (a :class:`Task` whose rubric
and evidence come from the reference answer, plus the model answer as the draft) for
``citegov ablate --suite lawbench-3-2|lawbench-3-8``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Final

from benchmarks.tasks import EvidencePoint, RubricItem, Subtopic, Task
from governor.authorities import AuthorityStore
from governor.citations.extract import extract
from governor.core.errors import TaskError
from governor.text.textio import atomic_write_text

_FILE = re.compile(r"^(?P<model>.+)_zero_shot_(?P<task>\d-\d)\.json$")
_TEMPLATE_TOKENS = re.compile(
    r"<\|im_(?:start|end)\|>(?:user|assistant|system)?|\[Round \d+\]|问：|答："
)
_INSTRUCTIONS = (
    "回答以下问题，只需直接给出法条内容:",
    "请根据具体场景与问题给出法律依据，只需要给出具体法条内容，每个场景仅涉及一个法条。",
    "请回答下列问题，首先给出回答，然后给出对应的法律依据:",
)


@dataclass(frozen=True)
class LawBenchItem:
    """One model answer: ``index`` is the key in the file (0..499)."""

    model: str
    task: str
    index: int
    question: str
    prediction: str
    reference: str

    @property
    def id(self) -> str:
        """``<model>_<task>_<index:03d>``."""
        return f"{self.model}_{self.task}_{self.index:03d}"


def question_of(origin_prompt: object) -> str:
    """The question a model was asked, without the task instruction and template tokens."""
    if isinstance(origin_prompt, list):
        text = "\n".join(str(m.get("prompt", "")) for m in origin_prompt if isinstance(m, dict))
    else:
        text = str(origin_prompt)
    text = _TEMPLATE_TOKENS.sub("", text)
    for ins in _INSTRUCTIONS:
        text = text.replace(ins, "")
    text = re.sub(r"^\s*场景[:：]", "", text.strip())
    return text.strip()


def load_file(path: Path) -> tuple[LawBenchItem, ...]:
    """Load one LawBench prediction file.

    Raises:
        TaskError: the file name is not ``<model>_zero_shot_<task>.json`` or the content is
            not the documented object.
    """
    m = _FILE.match(path.name)
    if m is None:
        raise TaskError(f"{path}: not a LawBench prediction file (<model>_zero_shot_<task>.json)")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise TaskError(f"{path}: cannot be read as JSON ({exc})") from None
    if not isinstance(data, dict):
        raise TaskError(f"{path}: expected an object keyed by item number")
    out = []
    for key, rec in sorted(data.items(), key=lambda kv: int(kv[0])):
        out.append(
            LawBenchItem(
                model=m.group("model"),
                task=m.group("task"),
                index=int(key),
                question=question_of(rec.get("origin_prompt", "")),
                prediction=str(rec.get("prediction", "")),
                reference=str(rec.get("refr", "")),
            )
        )
    return tuple(out)


def load_task(folder: Path, task: str) -> tuple[LawBenchItem, ...]:
    """All models' answers to ``task`` (e.g. ``"3-8"``) in ``folder``, model by model."""
    files = sorted(folder.glob(f"*_zero_shot_{task}.json"))
    if not files:
        raise TaskError(f"{folder}: no *_zero_shot_{task}.json files")
    return tuple(it for f in files for it in load_file(f))


def draft_text(item: LawBenchItem) -> str:
    """The draft citegov governs: the question on a ``问题：`` line, then the model's answer."""
    return f"问题：{item.question}\n\n{item.prediction.strip()}\n"


def export_drafts(items: Iterable[LawBenchItem], out_dir: Path) -> list[Path]:
    """Write one ``<id>.md`` draft per item (atomically); returns the paths written."""
    paths = []
    for it in items:
        p = out_dir / f"{it.id}.md"
        atomic_write_text(p, draft_text(it))
        paths.append(p)
    return paths


# ---------------------------------------------------------------------------------------------
# LawBench → benchmark tasks (issue #6)

LAWBENCH_AS_OF: Final = date(2023, 9, 1)
"""As-of date of LawBench answers: the benchmark and its predictions were published in
September 2023 (Fei et al., "LawBench", arXiv:2309.16289). 合同法/物权法 are repealed on it."""

ADAPTED_TASKS: Final = ("3-2", "3-8")
_CONCLUSION = re.compile(r"^\s*(?:回答|答案)\s*[:：]\s*")
_BASIS = re.compile(r"法律依[据據]\s*[:：]?|律师解答")
_MAX_CONCLUSION = 200


@dataclass(frozen=True)
class LawBenchCase:
    """A LawBench answer as a benchmark case: the task built from the reference, the draft.

    Attributes:
        item: The LawBench record (model, task, index, question, prediction, reference).
        task: Query = the question; one subtopic; rubric from the reference (see
            :func:`task_from_item`).
        draft: The text governed: :func:`draft_text` of the item.
        reference: ``(instrument, article)`` pairs the reference answer cites, in order.
    """

    item: LawBenchItem
    task: Task
    draft: str
    reference: tuple[tuple[str, str], ...]


def reference_citations(reference: str, names: AuthorityStore) -> tuple[tuple[str, str], ...]:
    """``(canonical instrument, article key)`` of each article the reference cites, deduplicated.

    Uses :func:`governor.citations.extract.extract`, so 同法/bare 第N条 continuations resolve to the
    instrument named before them.
    """
    out: list[tuple[str, str]] = []
    for c in extract(reference, names):
        if c.instrument and c.article and (c.instrument, c.article) not in out:
            out.append((c.instrument, c.article))
    return tuple(out)


def _conclusion(reference: str) -> str:
    """The reference answer's conclusion: its 回答 part, before 法律依据 (SPEC §8)."""
    text = _CONCLUSION.sub("", reference.strip())
    m = _BASIS.search(text)
    head = text[: m.start()] if m and m.start() > 0 else text
    head = head.strip().strip("。") or text.strip()
    return head[:_MAX_CONCLUSION]


def _evidence(
    store: AuthorityStore, refs: Sequence[tuple[str, str]], as_of: date
) -> tuple[EvidencePoint, ...]:
    out = []
    for title, article in refs:
        rec = store.article(title, article, as_of=as_of)
        out.append(
            EvidencePoint(authority=f"《{title}》第{article}条", text=rec.text if rec else "")
        )
    return tuple(out)


def task_from_item(
    item: LawBenchItem, store: AuthorityStore, *, as_of: date = LAWBENCH_AS_OF
) -> LawBenchCase | None:
    """Build the benchmark case of one LawBench 3-2 or 3-8 answer.

    Rubric (source: the item's reference answer ``refr``):

    * 3-2: one item, the reference's statement of the rule (the reference without its
      citation lead-in), backed by the **first** article the reference cites (3-2 asks for
      exactly one article; later ones are cross-references).
    * 3-8: one item, the reference's conclusion (its 回答 part before 法律依据, at most 200
      characters), backed by every article the reference cites (its 法律依据).

    One subtopic (``s1``, the question) holds the whole answer.

    Args:
        item: A 3-2 or 3-8 record.
        store: Resolves the reference's citations and supplies evidence texts.
        as_of: As-of date of the case (:data:`LAWBENCH_AS_OF`).

    Returns:
        The case, or ``None`` when the reference cites no article (3-2) or the question is
        empty: such items cannot be scored for support.

    Raises:
        TaskError: ``item.task`` is not 3-2 or 3-8.
    """
    if item.task not in ADAPTED_TASKS:
        raise TaskError(f"LawBench task {item.task} has no adapter: use one of {ADAPTED_TASKS}")
    if not item.question.strip():
        return None
    refs = reference_citations(item.reference, store)
    if item.task == "3-2":
        if not refs:
            return None
        cites = [c for c in extract(item.reference, store) if c.instrument and c.article]
        first = cites[0]
        rule = (first.description or item.reference.replace(first.raw, "")).strip()
        rule = re.sub(r"^(?:根据|依据|依照|按照)?\s*(?:的)?规定?[，,：:]?", "", rule).strip()
        text, refs = rule or item.reference.strip(), refs[:1]
    else:
        text = _conclusion(item.reference)
    if not text:
        return None
    task = Task(
        id=item.id,
        query=item.question,
        as_of=as_of,
        subtopics=(Subtopic(id="s1", title="法律意见", description=item.question),),
        rubric=(
            RubricItem(
                id="r1", subtopic_id="s1", text=text, evidence=_evidence(store, refs, as_of)
            ),
        ),
    )
    return LawBenchCase(item=item, task=task, draft=draft_text(item), reference=refs)


def load_cases(
    folder: Path,
    task: str,
    store: AuthorityStore,
    *,
    as_of: date = LAWBENCH_AS_OF,
    models: Sequence[str] | None = None,
) -> tuple[tuple[LawBenchCase, ...], tuple[str, ...]]:
    """Every model's answers to ``task`` (3-2 or 3-8) in ``folder`` as benchmark cases.

    Args:
        folder: The ``lawbench_dev`` folder (``<model>_zero_shot_<task>.json`` files).
        task: ``"3-2"`` or ``"3-8"``.
        store: The authority store.
        as_of: As-of date of every case.
        models: Keep only these models (default: all files found).

    Returns:
        ``(cases, skipped_ids)``: items whose reference cites no article are skipped.

    Raises:
        TaskError: No prediction file for ``task`` in ``folder``, or an unreadable file.
    """
    cases, skipped = [], []
    for it in load_task(folder, task):
        if models is not None and it.model not in models:
            continue
        case = task_from_item(it, store, as_of=as_of)
        if case is None:
            skipped.append(it.id)
        else:
            cases.append(case)
    return tuple(cases), tuple(skipped)
