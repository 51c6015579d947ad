"""Durable runs: checkpoint to SQLite, stop after the first revision, resume in a new process.

Every node's state update is written to a SQLite checkpoint; a run interrupted (here on
purpose with ``interrupt_after``; in real life by a crash or a kill) continues from its last
completed node when invoked again with ``None`` and the same ``thread_id``.

Run: ``python examples/durable.py [CHECKPOINT.sqlite]``
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from langchain_core.runnables import RunnableConfig

from governor.api import Governor
from governor.core.config import load_config
from graphs.durable import sqlite_checkpointer

DRAFT = (
    "向人民法院请求保护民事权利的诉讼时效期间为二年（《民法典》第一百八十八条）。"
    "根据《民法典》第九千条规定，合同无效。\n"
)


def main(argv: list[str]) -> None:
    db = Path(argv[0]) if argv else Path(tempfile.mkdtemp(prefix="citegov-ckpt-")) / "runs.sqlite"
    gov = Governor(load_config(overrides={"as_of": "2024-06-01"}))
    config: RunnableConfig = {"configurable": {"thread_id": "draft-001"}}
    with sqlite_checkpointer(db) as saver:
        paused = gov.runnable("efa", checkpointer=saver, interrupt_after=("revise",))
        first = paused.invoke(DRAFT, config)
        print(
            "paused after the first revise:",
            first.stop_reason,
            [e.op for e in first.rounds[0].edits] if first.rounds else "(edits pending)",
        )
    with sqlite_checkpointer(db) as saver:  # e.g. a new process
        done = gov.runnable("efa", checkpointer=saver).invoke(None, config)
        print("resumed:", done.stop_reason, "|", done.text.strip())


if __name__ == "__main__":
    main(sys.argv[1:])
