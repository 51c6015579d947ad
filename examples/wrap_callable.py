"""Wrap a plain Python callable as the report generator.

A callable ``(task) -> str`` is used for the first draft only; a callable
``(task, feedback) -> str`` can also be asked to rewrite its draft from the verdict feedback
(``mode="regenerate"``). citegov detects which one it got from the signature.

Run: ``python examples/wrap_callable.py``
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from governor.api import Governor
from governor.core.config import load_config
from governor.core.labels import report_score

TASK = {"id": "demo-1", "query": "对方违约后我能否要求赔偿？诉讼时效多长？"}

FIRST_DRAFT = (
    "根据《中华人民共和国民法典》第五百七十七条规定，当事人一方不履行合同义务的，应当承担违约责任。"
    "向人民法院请求保护民事权利的诉讼时效期间为二年（《民法典》第一百八十八条）。"
    "根据《民法典》第九千条规定，违约方还应支付惩罚性赔偿。\n"
)


def writer(task: Mapping[str, Any], feedback: str | None = None) -> str:
    """A stand-in for a real report writer: its second draft follows the feedback."""
    if not feedback:
        return FIRST_DRAFT
    # A real writer would send `feedback` to its model; this one applies two obvious fixes.
    fixed = FIRST_DRAFT.replace("为二年", "为三年")
    return fixed.replace("根据《民法典》第九千条规定，违约方还应支付惩罚性赔偿。", "")


def first_draft_only(task: Mapping[str, Any]) -> str:
    """A one-argument writer: it cannot take feedback, so citegov edits its draft."""
    return FIRST_DRAFT


def main() -> None:
    config = load_config(overrides={"as_of": "2024-06-01"})
    for label, gen, mode in (
        ("(task) -> str, edit", first_draft_only, "edit"),
        ("(task, feedback) -> str, regenerate", writer, "regenerate"),
    ):
        gov = Governor(config, generator=gen)
        result = gov.write(TASK, strategy="efa", mode=mode)
        before = report_score(result.initial_verdicts).trust
        after = report_score(result.final_verdicts).trust
        print(f"[{label}] trust {before:.3f} -> {after:.3f}; stop: {result.stop_reason}")
        for e in result.edits:
            print(f"  {e.op}: {e.before!r} -> {e.after!r}")
        print("  output:", result.text.strip())


if __name__ == "__main__":
    main()
