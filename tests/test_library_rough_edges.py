"""Library rough edges (issue 23 item 4).

Rows: ``GovernanceResult.scores`` (initial and final); ``as_of`` as a date or an ISO string
everywhere, one parser, a clear error otherwise (``Governor.verify(text, as_of="2023-07-01")``
raised AttributeError deep in the verifier); an edit the reviewer rejected is not proposed again
later in the run (``govern(review=...)``, ``Command(resume=...)``, ``citegov revise --review``);
resuming a parent graph over an ``InMemorySaver`` logs no "unregistered type" warning for
citegov's state types.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import date, datetime
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from governor.api import Governor
from governor.cli.app import app
from governor.core.config import load_config
from governor.core.errors import ConfigError
from governor.text.dates import parse_as_of

ROOT = Path(__file__).resolve().parents[1]
WRONG = "根据《民法典》第一百八十八条规定，向人民法院请求保护民事权利的诉讼时效期间为二年。"
TWO_MISSING = (
    "向人民法院请求保护民事权利的诉讼时效期间为二年（《民法典》第一百八十八条）。"
    "根据《民法典》第九千条规定，合同无效。另依《中华人民共和国反性骚扰法》第四条，应当赔偿。\n"
)
"""Two citations that do not exist: ``existence`` proposes removing both in round 1, and the
one a reviewer rejects used to be proposed again in round 2."""


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor(load_config(overrides={"as_of": "2024-06-01"}))


def test_result_has_initial_and_final_scores(gov: Governor) -> None:
    r = gov.govern(WRONG, strategy="efa", as_of="2024-06-01")
    assert r.scores.initial.trust < r.scores.final.trust == 1.0
    assert r.scores.final.model_dump() == r.to_report().final.scores.model_dump()  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "value,expected",
    [
        ("2023-07-01", date(2023, 7, 1)),
        (" 2023-07-01 ", date(2023, 7, 1)),
        (date(2023, 7, 1), date(2023, 7, 1)),
        (datetime(2023, 7, 1, 15, 30), date(2023, 7, 1)),
    ],
)
def test_parse_as_of_accepts_dates_and_iso(value: Any, expected: date) -> None:
    assert parse_as_of(value) == expected


@pytest.mark.parametrize("value", ["June", "2023-02-30", 20230701, "", None])
def test_parse_as_of_refuses_the_rest_clearly(value: Any) -> None:
    with pytest.raises(ConfigError, match="YYYY-MM-DD"):
        parse_as_of(value)


def test_every_library_entry_takes_an_iso_as_of(gov: Governor) -> None:
    by_date = gov.verify(WRONG, as_of=date(2023, 7, 1))
    assert gov.verify(WRONG, as_of="2023-07-01") == by_date
    assert gov.verify_many([WRONG], as_of="2023-07-01") == [by_date]
    assert gov.verify_many([WRONG], as_of=["2023-07-01"]) == [by_date]
    assert gov.verifier().verify(gov.extract(WRONG), as_of="2023-07-01", text=WRONG) == by_date
    assert gov.govern(WRONG, strategy="none", as_of="2023-07-01").as_of == "2023-07-01"
    with pytest.raises(ConfigError, match="'June' is not a date"):
        gov.verify(WRONG, as_of="June")


def _reject_second(seen: list[list[str]]) -> Any:
    def review(payload: dict[str, Any]) -> list[bool]:
        seen.append([e["before"] for e in payload["edits"]])
        return [i == 0 for i in range(len(payload["edits"]))]

    return review


def test_rejected_edit_is_not_proposed_again(gov: Governor) -> None:
    seen: list[list[str]] = []
    r = gov.govern(TWO_MISSING, strategy="existence", review=_reject_second(seen))
    rejected = seen[0][1]
    assert all(rejected not in later for later in seen[1:])
    assert "反性骚扰法" in r.text  # the rejected removal was never applied
    assert any("rejected earlier" in n for n in r.notes)


def test_rejected_edit_is_remembered_across_command_resume(gov: Governor) -> None:
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.types import Command

    from graphs.state import STATE_KEYS

    graph = gov.graph("existence", checkpointer=InMemorySaver())
    cfg: Any = {"configurable": {"thread_id": "reject-1"}}
    ctx = {"review": True}
    out = graph.invoke({"draft": TWO_MISSING}, cfg, context=ctx, output_keys=STATE_KEYS)
    proposals = []
    while out.get("__interrupt__") and len(proposals) < 5:
        edits = out["__interrupt__"][0].value["edits"]
        proposals.append([e["before"] for e in edits])
        out = graph.invoke(
            Command(resume={"accept": [0]}), cfg, context=ctx, output_keys=STATE_KEYS
        )
    assert len(proposals) == 1 and len(proposals[0]) == 2
    assert "反性骚扰法" in out["text"]


def test_revise_review_does_not_ask_twice(tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.mkdir()
    (src / "d.md").write_text(TWO_MISSING, encoding="utf-8")
    env = {"CITEGOV_CONFIG": "", "NO_COLOR": "1", "COLUMNS": "200"}
    args = ["revise", str(src), "--out", str(tmp_path / "out"), "--review",
            "--strategy", "existence", "--as-of", "2024-06-01"]  # fmt: skip
    res = CliRunner().invoke(app, args, input="y\nn\ny\ny\ny\n", env=env)
    assert res.exit_code == 0, res.output
    assert res.output.count("apply this edit?") == 2  # round 1 only: the rejected one not re-asked
    assert "反性骚扰法" in (tmp_path / "out" / "d.md").read_text(encoding="utf-8")


_PARENT = """
import logging, sys
logging.basicConfig(stream=sys.stdout, level=logging.WARNING, format="LOG %(message)s")
from typing_extensions import TypedDict
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command
from governor.api import Governor
from governor.core.config import load_config

class Parent(TypedDict, total=False):
    draft: str
    text: str

gov = Governor(load_config(overrides={"as_of": "2024-06-01"}))
b = StateGraph(Parent)
b.add_node("citegov", gov.graph("efa"))
b.add_edge(START, "citegov")
b.add_edge("citegov", END)
parent = b.compile(checkpointer=InMemorySaver())
cfg = {"configurable": {"thread_id": "p"}}
out = parent.invoke({"draft": sys.argv[1]}, cfg, context={"review": True})
assert out.get("__interrupt__"), out
out = parent.invoke(Command(resume=True), cfg, context={"review": True})
print("TEXT", out["text"].strip())
"""


def test_parent_graph_resume_logs_no_unregistered_type_warning(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CITEGOV_")}
    env.update({"PYTHONPATH": str(ROOT), "CITEGOV_CONFIG": "", "HF_HUB_OFFLINE": "1"})
    script = tmp_path / "parent.py"
    script.write_text(_PARENT, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script), WRONG], env=env, capture_output=True, text=True,
        timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert "TEXT" in done.stdout and "三年" in done.stdout
    logged = [ln for ln in done.stdout.splitlines() if ln.startswith("LOG")]
    assert not [ln for ln in logged if "governor." in ln], json.dumps(logged, ensure_ascii=False)
