"""LawBench dev predictions (open-compass/LawBench, Apache-2.0) as citegov inputs.

Files are ``<model>_zero_shot_<task>.json``: an object keyed ``"0".."499"`` whose values hold
``origin_prompt`` (a list of ``{role, prompt}`` or a string, sometimes still carrying chat
template tokens), ``prediction`` (the model's answer) and ``refr`` (the reference answer).
Tasks used: 1-1 (recite an article), 3-2 (name the article for a scenario), 3-8 (consultation
answers with 法律依据).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from governor.errors import TaskError
from governor.textio import atomic_write_text

_FILE = re.compile(r"^(?P<model>.+)_zero_shot_(?P<task>\d-\d)\.json$")
_TEMPLATE_TOKENS = re.compile(r"<\|im_(?:start|end)\|>(?:user|assistant|system)?|\[Round \d+\]|问：|答：")
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
