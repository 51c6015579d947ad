"""Human approval of edits: the run pauses with the proposed edits, a person decides, the run
goes on from its SQLite checkpoint (LangGraph ``interrupt()`` / ``Command(resume=...)``).

Each proposed edit carries its op, the words it replaces and writes, its reason and the text
around it. Resume with one flag per edit, ``{"accept": [indices]}``, ``True`` or ``"reject"``.
The same loop runs in the terminal with ``citegov revise drafts/ --out out/ --review``.

Run: ``python examples/review.py [CHECKPOINT.sqlite]``
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from langchain_core.runnables import RunnableConfig
from langgraph.types import Command

from governor.api import Governor
from governor.core.config import load_config
from graphs.durable import sqlite_checkpointer

DRAFT = (
    "向人民法院请求保护民事权利的诉讼时效期间为二年（《民法典》第一百八十八条）。"
    "根据《民法典》第九千条规定，合同无效。\n"
)


def main(argv: list[str]) -> None:
    db = Path(argv[0]) if argv else Path(tempfile.mkdtemp(prefix="citegov-review-")) / "r.sqlite"
    gov = Governor(load_config(overrides={"as_of": "2024-06-01"}))
    config: RunnableConfig = {"configurable": {"thread_id": "draft-042"}}
    with sqlite_checkpointer(db) as saver:
        writer = gov.runnable("efa", checkpointer=saver)
        paused = writer.invoke(DRAFT, config, context={"review": True})
        proposal = paused.interrupts[0]["value"]
        for e in proposal["edits"]:
            print(
                f"proposed {e['index']}: {e['op']} {e['before']!r} -> {e['after']!r} ({e['reason']})"
            )
    decision = [e["op"] == "fix_number" for e in proposal["edits"]]  # the reviewer's choice
    with sqlite_checkpointer(db) as saver:  # later, maybe in another process
        done = gov.runnable("efa", checkpointer=saver).invoke(Command(resume=decision), config)
    print("applied:", [e.op for e in done.edits], "|", done.stop_reason)
    print("text:", done.text.strip())
    print("notes:", "; ".join(done.notes))


if __name__ == "__main__":
    main(sys.argv[1:])
