"""Durable runs: SQLite checkpoints, resume after an interrupt or a crash, and a serializer
that round-trips citegov's pydantic models without "unregistered type" warnings."""

from __future__ import annotations

import logging
import typing
from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.serde import jsonplus
from pydantic import BaseModel

from governor.api import Governor
from governor.core.config import load_config
from governor.core.models import Citation
from graphs.durable import STATE_TYPES, checkpoint_serializer, sqlite_checkpointer
from graphs.nodes import GovernanceDeps
from graphs.pipeline import build_governance_graph
from graphs.state import STATE_KEYS, GovernanceResult, GovernanceState, result_from_state

AS_OF = date(2024, 6, 1)
DRAFT = (
    "根据《中华人民共和国民法典》第五百七十七条规定，当事人一方不履行合同义务的，应当承担违约责任。"
    "向人民法院请求保护民事权利的诉讼时效期间为二年（《民法典》第一百八十八条）。"
    "根据《民法典》第九千条规定，合同无效。\n"
)


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor(load_config(overrides={"as_of": AS_OF.isoformat()}))


def same(a: GovernanceResult, b: GovernanceResult) -> None:
    assert a.text == b.text and a.draft == b.draft and a.stop_reason == b.stop_reason
    assert a.rounds == b.rounds
    assert a.initial_verdicts == b.initial_verdicts and a.final_verdicts == b.final_verdicts


def test_interrupted_run_resumes_to_the_same_result(
    gov: Governor,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(jsonplus, "_warned_unregistered_types", set())
    monkeypatch.setattr(jsonplus, "_warned_blocked_types", set())
    caplog.set_level(logging.WARNING)
    plain = gov.runnable("efa").invoke(DRAFT)
    cfg: Any = {"configurable": {"thread_id": "draft-1"}}
    db = tmp_path / "runs.sqlite"
    with sqlite_checkpointer(db) as saver:
        paused = gov.runnable("efa", checkpointer=saver, interrupt_after=("revise",)).invoke(
            DRAFT, cfg
        )
    assert paused.stop_reason == "interrupted" and paused.text != DRAFT and paused.rounds == ()
    with sqlite_checkpointer(db) as saver:  # a new connection, as after a restart
        resumed = gov.runnable("efa", checkpointer=saver).invoke(None, cfg)
        history = list(saver.list(cfg))
    same(resumed, plain)
    assert len(history) > 5
    assert [w for w in caplog.messages if "unregistered" in w or "Blocked" in w] == []


def test_crash_after_the_first_revise_resumes(gov: Governor, tmp_path: Path) -> None:
    crashes = {"left": 1}

    def flaky_extract(text: str) -> Sequence[Citation]:
        if text != DRAFT and crashes["left"]:  # the first extraction of a revised text
            crashes["left"] -= 1
            raise RuntimeError("worker killed")
        return gov.extract(text)

    def graph(extractor: Any, saver: Any) -> Any:
        deps = GovernanceDeps(extractor=extractor, verifier=gov.verifier(), strategy="efa")
        return build_governance_graph(deps, checkpointer=saver)

    cfg: Any = {"configurable": {"thread_id": "draft-2"}}
    start: GovernanceState = {"draft": DRAFT, "as_of": AS_OF.isoformat(), "context": ""}
    db = tmp_path / "runs.sqlite"
    with sqlite_checkpointer(db) as saver:
        with pytest.raises(RuntimeError, match="worker killed"):
            graph(flaky_extract, saver).invoke(start, cfg)
        assert saver.get_tuple(cfg) is not None
    with sqlite_checkpointer(db) as saver:
        state = graph(gov.extract, saver).invoke(None, cfg, output_keys=STATE_KEYS)
    same(result_from_state(state, "efa"), gov.govern(DRAFT, strategy="efa"))
    assert crashes["left"] == 0


def _models_in(tp: Any, seen: set[type]) -> None:
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        if tp in seen:
            return
        seen.add(tp)
        for f in tp.model_fields.values():
            _models_in(f.annotation, seen)
        return
    for arg in typing.get_args(tp):
        _models_in(arg, seen)


def test_state_types_cover_every_model_in_the_state() -> None:
    found: set[type] = set()
    for tp in typing.get_type_hints(GovernanceState, include_extras=True).values():
        _models_in(tp, found)
    assert found and found <= set(STATE_TYPES)


def test_models_round_trip_without_unregistered_warnings(
    gov: Governor, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    r = gov.govern(DRAFT, strategy="efa")
    value = {"verdicts": r.final_verdicts, "rounds": list(r.rounds), "edits": r.edits}
    monkeypatch.setattr(jsonplus, "_warned_unregistered_types", set())
    monkeypatch.setattr(jsonplus, "_warned_blocked_types", set())
    with caplog.at_level(logging.WARNING):
        ours = checkpoint_serializer()
        back = ours.loads_typed(ours.dumps_typed(value))
    assert [w for w in caplog.messages if "unregistered" in w or "Blocked" in w] == []
    assert tuple(back["verdicts"]) == r.final_verdicts and back["rounds"] == list(r.rounds)
    assert tuple(back["edits"]) == r.edits
    # LangGraph's default serializer (a parent graph's InMemorySaver) revives them without a
    # warning too, once a governance graph was built (graphs.durable.register_state_types)
    with caplog.at_level(logging.WARNING):
        default = jsonplus.JsonPlusSerializer()
        again = default.loads_typed(default.dumps_typed(value))
    assert [w for w in caplog.messages if "unregistered" in w or "Blocked" in w] == []
    assert tuple(again["verdicts"]) == r.final_verdicts
