"""LLM judge throughput (issue 16 item 5): batches planned across documents, answers routed
back, concurrent calls in a bounded pool, the RPM/TPM limiter (fake clock: no sleeping), a
stable system prefix with cached-token accounting, and dry-run token counts equal to the
fake server's."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from governor.api import Governor
from governor.authorities import AuthorityStore, load_default_store
from governor.cli.app import app
from governor.clients.chat import OpenAIChatModel
from governor.clients.ratelimit import RateLimiter, shared_limiter
from governor.clients.tokens import count_message_tokens
from governor.core.config import load_config
from governor.core.models import Verdict
from tests.fakes.openai_server import FakeOpenAIServer, RecordedRequest, Reply
from tests.test_llm_judge import (
    ART_577,
    ENV,
    FAITHFUL_188,
    TODAY,
    _cli_env,
    axis,
    scripted,
)
from verifiers.llm_judge import LlmJudge, PlannedBatch, Slot, plan_batches

ART_143 = (
    "《民法典》第一百四十三条规定，具备下列条件的民事法律行为有效：行为人具有相应的民事行为"
    "能力；意思表示真实；不违反法律、行政法规的强制性规定，不违背公序良俗。"
)
DOCS = (FAITHFUL_188, ART_577, ART_143)


@pytest.fixture(scope="module")
def store() -> AuthorityStore:
    return load_default_store()


def make_judge(
    server: FakeOpenAIServer, store: AuthorityStore, *, dry_run: bool = False, **kw: Any
) -> LlmJudge:
    chat = OpenAIChatModel(
        server.base_url,
        "fake-judge",
        environ=ENV,
        sleep=kw.pop("sleep", lambda _s: None),
        backoff_base_s=0.001,
        max_retries=kw.pop("max_retries", 1),
        dry_run=dry_run,
        limiter=kw.pop("limiter", None),
    )
    return LlmJudge(chat=chat, store=store, retriever=store, **kw)


def verify_many(judge: LlmJudge, store: AuthorityStore, texts: Any) -> list[tuple[Verdict, ...]]:
    gov = Governor(load_config(overrides={}, environ={}), store=store, judge=judge)
    return gov.verify_many(list(texts), as_of=TODAY)


# ---------------------------------------------------------------------------------- planner

S = Slot


@pytest.mark.parametrize(
    "asks,size,expected",
    [
        # filled across documents, in run order
        ([(S(0, 0), "a", "cn"), (S(1, 0), "b", "cn"), (S(2, 0), "c", "cn")], 8,
         [("cn", [("a", [S(0, 0)]), ("b", [S(1, 0)]), ("c", [S(2, 0)])])]),
        # full batches first, the partial one last
        ([(S(0, 0), "a", "cn"), (S(0, 1), "b", "cn"), (S(1, 0), "c", "cn")], 2,
         [("cn", [("a", [S(0, 0)]), ("b", [S(0, 1)])]), ("cn", [("c", [S(1, 0)])])]),
        # an identical item of another document is asked once, answered for both
        ([(S(0, 0), "a", "cn"), (S(1, 0), "a", "cn"), (S(1, 1), "b", "cn")], 8,
         [("cn", [("a", [S(0, 0), S(1, 0)]), ("b", [S(1, 1)])])]),
        # one language per batch (the prompt is per language)
        ([(S(0, 0), "a", "cn"), (S(1, 0), "x", "en"), (S(2, 0), "b", "cn")], 2,
         [("cn", [("a", [S(0, 0)]), ("b", [S(2, 0)])]), ("en", [("x", [S(1, 0)])])]),
        # ... also when its batch was already full (and sent) when it came again
        ([(S(0, 0), "a", "cn"), (S(1, 0), "b", "cn"), (S(2, 0), "a", "cn")], 1,
         [("cn", [("a", [S(0, 0), S(2, 0)])]), ("cn", [("b", [S(1, 0)])])]),
        ([], 8, []),
    ],
)  # fmt: skip
def test_plan_batches(asks: Any, size: int, expected: Any) -> None:
    got = plan_batches(asks, size)
    assert got == tuple(
        PlannedBatch(lang, tuple((k, tuple(slots)) for k, slots in entries))
        for lang, entries in expected
    )
    assert all(len(b.entries) <= size for b in got)


def test_plan_batches_rejects_a_zero_batch() -> None:
    with pytest.raises(ValueError, match="batch_size"):
        plan_batches([(S(0, 0), "a", "cn")], 0)


# ---------------------------------------------------------------------------------- routing


def whole(_cid: str, source: str, _draft: str) -> dict[str, Any]:
    """Passes, quoting the whole source (covers any faithful description)."""
    return {"fidelity": axis("faithful", source), "applicability": axis("supports", source)}


def by_topic(cid: str, source: str, draft: str) -> dict[str, Any]:
    """Fails the 诉讼时效 article, passes the others: routing must keep them apart."""
    if "诉讼时效" in source:
        return {"fidelity": axis("misdescribed"), "applicability": axis("irrelevant")}
    return whole(cid, source, draft)


def test_one_call_for_several_documents_and_answers_routed_back(
    openai_server: FakeOpenAIServer, store: AuthorityStore
) -> None:
    openai_server.default = scripted(by_topic)
    judge = make_judge(openai_server, store, batch_size=8)
    out = verify_many(judge, store, DOCS)
    assert len(openai_server.completions) == 1 and judge.batches == 1
    labels = [[(v.citation.article, v.fidelity.label) for v in vs] for vs in out]
    assert labels == [[("188", "misdescribed")], [("577", "faithful")], [("143", "faithful")]]
    for vs in out:
        for v in vs:
            assert v.resolved is not None
            assert all(e.text in v.resolved.text for e in v.fidelity.evidence)


def test_an_item_repeated_after_its_call_was_sent_gets_its_answer(
    openai_server: FakeOpenAIServer, store: AuthorityStore
) -> None:
    openai_server.default = scripted(by_topic)
    judge = make_judge(openai_server, store, batch_size=1, concurrency=2)
    out = verify_many(judge, store, (ART_577, FAITHFUL_188, ART_577))
    assert len(openai_server.completions) == 2
    assert [v.fidelity.label for (v,) in out] == ["faithful", "misdescribed", "faithful"]
    assert judge.failed_items == 0


def test_a_failed_batch_scores_zero_and_the_others_stand(
    openai_server: FakeOpenAIServer, store: AuthorityStore
) -> None:
    answer = scripted(whole)

    def reply(req: RecordedRequest) -> Any:
        if "违约责任" in req.messages[-1]["content"]:
            return Reply(status=500, error="boom")
        return answer(req)

    openai_server.default = reply
    judge = make_judge(openai_server, store, batch_size=1, concurrency=3)
    out = verify_many(judge, store, DOCS)
    got = [(v.citation.article, v.fidelity.label, v.fidelity.score, v.item_trust) for (v,) in out]
    assert got == [
        ("188", "faithful", 1.0, 1.0),
        ("577", "unknown", 0.0, 0.0),
        ("143", "faithful", 1.0, 1.0),
    ]
    assert "judge call failed" in out[1][0].fidelity.rationale
    assert judge.failures == 1 and judge.failed_items == 1 and judge.batches == 3


# ---------------------------------------------------------------------------------- stable prefix


def test_system_prefix_is_byte_identical_and_cached_tokens_are_counted(
    openai_server: FakeOpenAIServer, store: AuthorityStore
) -> None:
    openai_server.default = scripted(whole)
    judge = make_judge(openai_server, store, batch_size=1, concurrency=1)
    verify_many(judge, store, DOCS)
    sent = openai_server.completions
    assert len(sent) == 3
    systems = [r.messages[0] for r in sent]
    assert systems[0]["role"] == "system" and systems.count(systems[0]) == 3
    assert len({r.messages[-1]["content"] for r in sent}) == 3  # the citations come last
    per_call = count_message_tokens([systems[0]]) - 3
    assert judge.usage.cached_tokens == 2 * per_call > 0


# ---------------------------------------------------------------------------------- dry run


def test_dry_run_prompt_tokens_equal_the_server_count(
    openai_server: FakeOpenAIServer, store: AuthorityStore
) -> None:
    openai_server.default = scripted(whole)
    live = make_judge(openai_server, store, batch_size=2)
    verify_many(live, store, DOCS)
    dry = make_judge(openai_server, store, batch_size=2, dry_run=True)
    verify_many(dry, store, DOCS)
    assert len(openai_server.completions) == dry.usage.dry_run_calls == 2
    assert dry.usage.estimated_prompt_tokens == live.usage.prompt_tokens > 0
    # the completion is an estimate per item, far below the cap (320 per item + 200)
    assert 0 < dry.usage.estimated_completion_tokens < 3 * 320


# ---------------------------------------------------------------------------------- concurrency


def questions(n: int) -> list[str]:
    """``n`` drafts citing one article under different questions (distinct items)."""
    return [f"问题：第{k}个合同纠纷如何处理？\n\n{ART_577}\n" for k in range(n)]


def test_calls_in_flight_are_bounded_by_the_pool(store: AuthorityStore) -> None:
    with FakeOpenAIServer(default=scripted(whole), latency=0.15) as server:
        judge = make_judge(server, store, batch_size=1, concurrency=2)
        out = verify_many(judge, store, questions(5))
        assert len(server.completions) == 5
        assert server.peak_in_flight == 2
        assert all(v.fidelity.label == "faithful" for (v,) in out)


def test_a_429_pauses_and_is_retried_to_success(store: AuthorityStore) -> None:
    with FakeOpenAIServer(
        default=scripted(whole), latency=0.1, max_in_flight=1, retry_after=0.05
    ) as server:
        judge = make_judge(
            server, store, batch_size=1, concurrency=3, max_retries=20, sleep=time.sleep,
            limiter=RateLimiter(),
        )  # fmt: skip
        out = verify_many(judge, store, questions(3))
        assert all(v.fidelity.label == "faithful" for (v,) in out)
        assert server.peak_in_flight == 1
        assert judge.usage.retries == server.throttled


# ---------------------------------------------------------------------------------- limiter


class FakeClock:
    """A clock that only moves when someone sleeps."""

    def __init__(self) -> None:
        self.now = 0.0
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, s: float) -> None:
        self.sleeps.append(s)
        self.now += s


@pytest.mark.parametrize(
    "rpm,tpm,calls,waits",
    [
        # a minute's burst, then one request per 60/rpm seconds
        (2, None, [0, 0, 0, 0], [0.0, 0.0, 30.0, 30.0]),
        # tokens: 600 of 1000 twice → the second waits for 200 tokens (12 s)
        (None, 1000, [600, 600], [0.0, 12.0]),
        # a request above the whole budget waits for a full bucket, never forever
        (None, 1000, [1500, 1500], [0.0, 60.0]),
        # both limits: the longer wait wins
        (60, 600, [300, 300, 300], [0.0, 0.0, 0.0 + 30.0]),
        (None, None, [10**9, 10**9], [0.0, 0.0]),
    ],
)
def test_limiter_waits_exactly_what_the_buckets_lack(
    rpm: float | None, tpm: float | None, calls: list[int], waits: list[float]
) -> None:
    clock = FakeClock()
    lim = RateLimiter(rpm=rpm, tpm=tpm, clock=clock, sleep=clock.sleep)
    got = [lim.acquire(t) for t in calls]
    assert got == pytest.approx(waits)
    assert len(clock.sleeps) == sum(1 for w in waits if w > 0)  # computed waits, no polling


def test_limiter_pause_holds_every_caller_and_settle_refunds() -> None:
    clock = FakeClock()
    lim = RateLimiter(tpm=1000, clock=clock, sleep=clock.sleep)
    lim.pause(5.0)
    assert lim.acquire(100) == pytest.approx(5.0)
    lim.acquire(900)  # bucket empty (refilled by the 5 s pause: 83 tokens, then spent)
    lim.settle(estimated=900, actual=100)  # the call used less: 800 come back
    assert lim.acquire(700) == pytest.approx(0.0)


def test_limiter_never_grants_more_than_its_bucket_across_threads() -> None:
    clock = FakeClock()
    lock = threading.Lock()

    def sleep(s: float) -> None:
        with lock:
            clock.sleep(s)

    lim = RateLimiter(rpm=4, clock=clock, sleep=sleep)
    waited: list[float] = []
    threads = [threading.Thread(target=lambda: waited.append(lim.acquire())) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=5)
    assert len(waited) == 8
    assert sum(1 for w in waited if w == 0.0) == 4  # the burst: a minute's worth, no more


@pytest.mark.parametrize("bad", [{"rpm": 0}, {"tpm": -1}])
def test_limiter_rejects_non_positive_limits(bad: dict[str, float]) -> None:
    with pytest.raises(ValueError, match="positive"):
        RateLimiter(**bad)


# ---------------------------------------------------------------------------------- revise


def test_answers_are_kept_for_the_run(
    openai_server: FakeOpenAIServer, store: AuthorityStore
) -> None:
    openai_server.default = scripted(whole)
    judge = make_judge(openai_server, store, batch_size=8)  # no disk cache
    verify_many(judge, store, DOCS)
    again = verify_many(judge, store, DOCS[1:])
    assert len(openai_server.completions) == 1  # the second pass asked nothing
    assert [v.fidelity.label for (v,) in again] == ["faithful", "faithful"]


def test_cli_revise_judges_the_drafts_together(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    openai_server.default = scripted(whole)
    inputs = tmp_path / "in"
    inputs.mkdir()
    for n, text in enumerate(DOCS):
        (inputs / f"d{n}.md").write_text(text + "\n", encoding="utf-8")
    env = _cli_env(openai_server.base_url, tmp_path / "cache")
    res = CliRunner().invoke(
        app,
        ["revise", str(inputs), "--out", str(tmp_path / "out"), "--judge", "llm", "-q",
         "--as-of", "2026-11-29"],
        env=env,
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    assert len(openai_server.completions) == 1  # three drafts, one call
    assert sorted(p.name for p in (tmp_path / "out").glob("*.verdicts.json")) == [
        "d0.verdicts.json",
        "d1.verdicts.json",
        "d2.verdicts.json",
    ]
    assert "judge_batches 1" in res.stderr


def test_a_full_batch_is_sent_while_later_items_are_still_checked(
    openai_server: FakeOpenAIServer, store: AuthorityStore
) -> None:
    answer = scripted(whole)
    first_call = threading.Event()

    def reply(req: RecordedRequest) -> Any:
        first_call.set()
        return answer(req)

    openai_server.default = reply
    judge = make_judge(openai_server, store, batch_size=1, concurrency=2)
    offline = judge.offline
    seen: list[bool] = []

    class Watching:
        """The offline judge, noting for each item whether a call had already arrived."""

        def __getattr__(self, name: str) -> Any:
            return getattr(offline, name)

        def judge_one(self, item: Any) -> Any:
            if seen:  # from the second item on, the first batch's call must be under way
                first_call.wait(timeout=10)
            seen.append(first_call.is_set())
            return offline.judge_one(item)  # type: ignore[union-attr]

    judge.offline = Watching()  # type: ignore[assignment]
    out = verify_many(judge, store, DOCS)
    assert seen[0] is False and seen[-1] is True
    assert [v.fidelity.label for (v,) in out] == ["faithful"] * 3


def test_clients_of_one_endpoint_share_one_limiter(tmp_path: Path) -> None:
    cfg = load_config(
        overrides={"llm_base_url": "http://127.0.0.1:9/v1", "llm_model": "m", "llm_rpm": 30,
                   "cache_dir": tmp_path},
        environ={},
    )  # fmt: skip
    judge_chat = OpenAIChatModel.from_config(cfg, environ=ENV)
    reviser_chat = OpenAIChatModel.from_config(cfg, prompt_version="rev", environ=ENV)
    assert judge_chat.limiter is reviser_chat.limiter is not None
    assert judge_chat.limiter.rpm == 30
    assert shared_limiter("http://127.0.0.1:9/v1", 60, None) is not judge_chat.limiter
