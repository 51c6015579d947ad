"""How ``citegov serve`` runs uvicorn: the HTTP protocol with a header timeout (layer 8).

uvicorn closes an idle keep-alive connection after ``timeout_keep_alive`` seconds, but a new
connection that sends nothing, or trickles its headers a byte at a time, is never closed
(issue 23: "idle slow connections never closed" — a slow-header client holds a socket and a
file descriptor for as long as it likes). :class:`TimedH11Protocol` arms a timer when a
connection opens and after each response; the timer is disarmed once a request's headers are
complete, and closes the connection when it fires first.
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

DEFAULT_HEADER_TIMEOUT_S = 10.0


@functools.cache
def header_timeout_s() -> float:
    """``header_timeout_s`` of the settings ``citegov serve`` put in the environment (every
    uvicorn worker process reads the same), else :data:`DEFAULT_HEADER_TIMEOUT_S`."""
    raw = os.environ.get("CITEGOV_SERVICE_SETTINGS_JSON")
    try:
        value = json.loads(raw).get("header_timeout_s") if raw else None
    except (ValueError, AttributeError):
        value = None
    return float(value) if value else DEFAULT_HEADER_TIMEOUT_S


class TimedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, closing connections that do not finish their request headers
    within :attr:`header_timeout` seconds (new connections and keep-alive ones alike)."""

    header_timeout: float | None = None
    """Seconds; None reads :func:`header_timeout_s` (tests set it on a subclass)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._header_timer: asyncio.TimerHandle | None = None

    def _arm(self) -> None:
        self._disarm()
        timeout = self.header_timeout if self.header_timeout is not None else header_timeout_s()
        self._header_timer = self.loop.call_later(timeout, self._headers_too_slow)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing():
            self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def handle_events(self) -> None:
        super().handle_events()
        if self.cycle is not None and not self.cycle.response_complete:
            self._disarm()  # the headers of the current request are in

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()  # the next request's headers get the same time
