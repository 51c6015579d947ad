"""Requests- and tokens-per-minute limiter for chat calls (layer 2).

Two token buckets (OpenAI's and most providers' published limit model: RPM and TPM, each a
budget that refills continuously over a minute): a call takes one request and its estimated
tokens; when either bucket lacks them the caller sleeps exactly until both would hold them
(computed, never polled). A server's ``429`` with ``Retry-After`` pauses *every* caller until
then (:meth:`RateLimiter.pause`), not only the one that was refused: the limit is the
account's, shared by all the calls in flight.

Why not a library: ``aiolimiter`` is asyncio-only and has no token weights per request of two
kinds at once; ``pyrate-limiter``'s blocking mode has no shared pause. The buckets here are
thread-safe, take an injectable clock and sleep (tests run without sleeping), and are about
fifty lines.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["RateLimiter", "shared_limiter"]


@dataclass
class RateLimiter:
    """Blocks callers to stay within ``rpm`` requests and ``tpm`` tokens per minute.

    Args:
        rpm: requests per minute (None: unlimited). Bucket capacity: one minute's worth.
        tpm: tokens (prompt + completion estimate) per minute (None: unlimited).
        clock: monotonic seconds (injectable for tests).
        sleep: the sleep function (tests inject one that advances their clock).

    A request estimated above ``tpm`` is let through once the token bucket is full (it could
    never fit otherwise). Waits are bounded by one minute plus any pause a server asked for.
    """

    rpm: float | None = None
    tpm: float | None = None
    clock: Callable[[], float] = time.monotonic
    sleep: Callable[[float], None] = time.sleep
    waited_s: float = 0.0
    """Total seconds callers slept here (a rate-limit figure for reports)."""
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _req: float = field(default=0.0, repr=False)
    _tok: float = field(default=0.0, repr=False)
    _last: float | None = field(default=None, repr=False)
    _paused_until: float = field(default=0.0, repr=False)

    def __post_init__(self) -> None:
        for name, value in (("rpm", self.rpm), ("tpm", self.tpm)):
            if value is not None and value <= 0:
                raise ValueError(f"{name} must be positive or None, got {value!r}")
        self._req = float(self.rpm or 0.0)
        self._tok = float(self.tpm or 0.0)

    def _refill(self, now: float) -> None:
        if self._last is not None:
            elapsed = max(0.0, now - self._last)
            if self.rpm:
                self._req = min(self.rpm, self._req + elapsed * self.rpm / 60.0)
            if self.tpm:
                self._tok = min(self.tpm, self._tok + elapsed * self.tpm / 60.0)
        self._last = now

    def _wait_for(self, tokens: int, now: float) -> float:
        """Seconds until one request and ``tokens`` tokens are available (0: now)."""
        wait = max(0.0, self._paused_until - now)
        if self.rpm and self._req < 1.0:
            wait = max(wait, (1.0 - self._req) * 60.0 / self.rpm)
        if self.tpm:
            need = min(float(tokens), float(self.tpm))
            if self._tok < need:
                wait = max(wait, (need - self._tok) * 60.0 / self.tpm)
        return wait

    def acquire(self, tokens: int = 0) -> float:
        """Take one request and ``tokens`` tokens, sleeping until they are available.

        Returns:
            seconds slept.
        """
        slept = 0.0
        while True:
            with self._lock:
                now = self.clock()
                self._refill(now)
                wait = self._wait_for(tokens, now)
                if wait <= 0.0:
                    if self.rpm:
                        self._req -= 1.0
                    if self.tpm:
                        self._tok -= min(float(tokens), float(self.tpm))
                    self.waited_s += slept
                    return slept
            self.sleep(wait)
            slept += wait

    def pause(self, seconds: float) -> None:
        """No request starts for ``seconds`` from now (a server's ``Retry-After``)."""
        with self._lock:
            self._paused_until = max(self._paused_until, self.clock() + max(0.0, seconds))

    def settle(self, estimated: int, actual: int) -> None:
        """Correct the token bucket once a call's real token count is known: return what
        the estimate overcharged, or take what it undercharged (the bucket may go negative,
        delaying the next caller)."""
        if not self.tpm:
            return
        with self._lock:
            self._refill(self.clock())
            self._tok = min(float(self.tpm), self._tok + estimated - actual)


_SHARED: dict[tuple[str, float | None, float | None], RateLimiter] = {}
_SHARED_LOCK = threading.Lock()


def shared_limiter(endpoint: str, rpm: float | None, tpm: float | None) -> RateLimiter:
    """The process's limiter for ``endpoint`` (base URL) at these limits: every client of one
    endpoint — the judge, the reviser, a second judge built for a graph — draws from the same
    buckets, as the provider counts them. Limits are per key and account, so the same
    endpoint with other limits (another key) gets its own."""
    key = (endpoint.rstrip("/"), rpm, tpm)
    with _SHARED_LOCK:
        if key not in _SHARED:
            _SHARED[key] = RateLimiter(rpm=rpm, tpm=tpm)
        return _SHARED[key]
