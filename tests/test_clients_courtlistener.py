"""CourtListener citation-lookup client (against a 127.0.0.1 fake), rate limiter, local store."""

from __future__ import annotations

import traceback
from pathlib import Path

import pytest

from governor.clients.courtlistener import (
    CitationRateLimiter,
    CourtListenerClient,
    LocalCaseStore,
    normalise_reporter,
)
from governor.core.errors import ConfigError, EndpointError, InputError
from governor.core.ports import CaseLookup
from tests.conftest import FAKE_KEY
from tests.fakes.courtlistener_server import FakeCourtListener


class FakeClock:
    """A manual clock whose ``sleep`` advances time (the limiter never really waits)."""

    def __init__(self) -> None:
        self.t = 1000.0
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.t

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.t += seconds


def client(
    server: FakeCourtListener, clock: FakeClock | None = None, **kw: object
) -> CourtListenerClient:
    clock = clock or FakeClock()
    limiter = kw.pop("limiter", None) or CitationRateLimiter(clock=clock, sleep=clock.sleep)
    return CourtListenerClient(
        base_url=server.base_url,
        environ={"COURTLISTENER_TOKEN": FAKE_KEY},
        limiter=limiter,  # type: ignore[arg-type]
        sleep=clock.sleep,
        backoff_base_s=0.001,
        timeout_s=5,
        **kw,  # type: ignore[arg-type]
    )


@pytest.mark.parametrize(
    "cite,expected",
    [
        (("576", "U.S.", "644"), ["Obergefell v. Hodges"]),
        (("576", "US", "644"), ["Obergefell v. Hodges"]),  # non-canonical reporter normalised
        (("1", "U.S.", "200"), []),  # valid reporter, no such case: 404
        (("33", "Umbrella", "422"), []),  # unknown reporter: 400 on the by-parts request
        (("347", "U.S.", "483"), ["Brown v. Board of Education"]),
    ],
)
def test_lookup_statuses(
    courtlistener_server: FakeCourtListener, cite: tuple[str, str, str], expected: list[str]
) -> None:
    with client(courtlistener_server) as cl:
        assert isinstance(cl, CaseLookup)
        assert cl.lookup([cite]) == [expected]


def test_batch_keeps_order_dedupes_and_sends_token_header(
    courtlistener_server: FakeCourtListener,
) -> None:
    cites = [
        ("347", "U.S.", "483"),
        ("1", "U.S.", "200"),
        ("576", "U.S.", "644"),
        ("347", "U.S.", "483"),
    ]
    with client(courtlistener_server) as cl:
        out = cl.lookup(cites)
    assert out == [
        ["Brown v. Board of Education"],
        [],
        ["Obergefell v. Hodges"],
        ["Brown v. Board of Education"],
    ]
    (req,) = courtlistener_server.requests
    assert req.headers["authorization"] == f"Token {FAKE_KEY}"
    assert req.form["text"].count("U.S.") == 3  # duplicates sent once
    assert FAKE_KEY not in req.form["text"]


def test_per_minute_limit_spaces_requests() -> None:
    cases = {(str(v), "U.S.", "1"): [f"Case {v}"] for v in range(1, 131)}
    clock = FakeClock()
    with FakeCourtListener(cases, token=FAKE_KEY) as server, client(server, clock) as cl:
        out = cl.lookup([(str(v), "U.S.", "1") for v in range(1, 131)])
    assert out == [[f"Case {v}"] for v in range(1, 131)]
    sizes = [r.form["text"].count("U.S.") for r in server.requests]
    assert sizes == [60, 60, 10]  # ≤ 60 citations per request and per minute
    assert clock.sleeps and sum(clock.sleeps) >= 120 - 1e-6  # waited two windows in total


def test_per_request_cap_resends_citations_marked_429() -> None:
    cases = {(str(v), "U.S.", "1"): [f"Case {v}"] for v in range(1, 8)}
    with (
        FakeCourtListener(cases, token=FAKE_KEY, max_per_request=3) as server,
        client(server) as cl,
    ):
        out = cl.lookup([(str(v), "U.S.", "1") for v in range(1, 8)])
    assert out == [[f"Case {v}"] for v in range(1, 8)]
    assert len(server.requests) == 3  # 7 citations, 3 looked up per request


def test_server_throttle_waits_until_then_retries(courtlistener_server: FakeCourtListener) -> None:
    clock = FakeClock()
    courtlistener_server.throttle_next(30.0)
    with client(courtlistener_server, clock) as cl:
        assert cl.lookup([("576", "U.S.", "644")]) == [["Obergefell v. Hodges"]]
    assert len(courtlistener_server.requests) == 2
    assert any(25 <= s <= 30.5 for s in clock.sleeps)


def test_retry_after_header_is_honoured() -> None:
    with FakeCourtListener({}, token=FAKE_KEY) as server:
        server.fail_next(429, {"detail": "throttled"}, {"Retry-After": "12"})
        clock = FakeClock()
        with client(server, clock) as cl:
            assert cl.lookup([("1", "U.S.", "200")]) == [[]]
    assert 12 in [round(s) for s in clock.sleeps]


def test_5xx_retried_then_endpoint_error_without_token(
    courtlistener_server: FakeCourtListener,
) -> None:
    for _ in range(3):
        courtlistener_server.fail_next(502, {"detail": f"bad gateway {FAKE_KEY}"})
    with client(courtlistener_server, max_retries=2) as cl, pytest.raises(EndpointError) as info:
        cl.lookup([("576", "U.S.", "644")])
    assert courtlistener_server.base_url in str(info.value)
    assert FAKE_KEY not in "".join(traceback.format_exception(info.value))


def test_bad_token_fails_fast(courtlistener_server: FakeCourtListener) -> None:
    cl = CourtListenerClient(
        base_url=courtlistener_server.base_url, environ={"COURTLISTENER_TOKEN": "wrong"}
    )
    with cl, pytest.raises(EndpointError, match="COURTLISTENER_TOKEN"):
        cl.lookup([("576", "U.S.", "644")])
    assert len(courtlistener_server.requests) == 1


def test_missing_token_is_config_error() -> None:
    with pytest.raises(ConfigError, match="COURTLISTENER_TOKEN"):
        CourtListenerClient(environ={})


def test_limiter_window_slides() -> None:
    clock = FakeClock()
    lim = CitationRateLimiter(limit=10, window=60, clock=clock, sleep=clock.sleep)
    assert lim.acquire(6) == 0
    clock.t += 30
    assert lim.acquire(4) == 0
    assert lim.acquire(3) == pytest.approx(30)  # waits for the first 6 to leave the window
    with pytest.raises(ValueError):
        lim.acquire(11)


def test_limiter_block_until() -> None:
    clock = FakeClock()
    lim = CitationRateLimiter(limit=10, window=60, clock=clock, sleep=clock.sleep)
    lim.block_until(clock.t + 5)
    assert lim.acquire(1) == pytest.approx(5)


@pytest.mark.parametrize("a,b", [("F. 3d", "F.3d"), ("U. S.", "u.s."), ("S.Ct.", "S. Ct.")])
def test_reporter_normalisation(a: str, b: str) -> None:
    assert normalise_reporter(a) == normalise_reporter(b)


def test_local_store(tmp_path: Path) -> None:
    f = tmp_path / "cases.jsonl"
    f.write_text(
        '# my cases\n{"volume": "576", "reporter": "U.S.", "page": "644", "case_name": "Obergefell v. Hodges"}\n\n'
        '{"volume": 10, "reporter": "F. 3d", "page": "1", "case_name": "A v. B"}\n'
        '{"volume": 10, "reporter": "F.3d", "page": "1", "case_name": "C v. D"}\n',
        encoding="utf-8",
    )
    store = LocalCaseStore(f)
    assert isinstance(store, CaseLookup) and len(store) == 2
    assert store.lookup([("576", "US", "644"), ("10", "F.3d", "1"), ("1", "U.S.", "1")]) == [
        ["Obergefell v. Hodges"],
        ["A v. B", "C v. D"],
        [],
    ]


@pytest.mark.parametrize("content", ['{"volume": "1"}\n', "not json\n"])
def test_local_store_bad_line_names_line(tmp_path: Path, content: str) -> None:
    f = tmp_path / "cases.jsonl"
    f.write_text(
        '{"volume": "1", "reporter": "U.S.", "page": "1", "case_name": "x"}\n' + content,
        encoding="utf-8",
    )
    with pytest.raises(InputError, match=r"cases.jsonl:2"):
        LocalCaseStore(f)


def test_local_store_missing_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="cannot be read"):
        LocalCaseStore(tmp_path / "none.jsonl")
