"""US case lookup (``CaseLookup`` port, layer 2): CourtListener API v4 and a local JSONL store.

:class:`CourtListenerClient` calls the citation-lookup API
(``POST /api/rest/v4/citation-lookup/``, ``Authorization: Token …`` from ``COURTLISTENER_TOKEN``)
as documented by Free Law Project (courtlistener.com/help/api/rest/citation-lookup/): the body
is form-encoded ``text`` (the service finds citations in it with eyecite) or
``volume``/``reporter``/``page``; the answer is one object per citation found, with
``start_index``/``end_index`` into the text, a per-citation ``status`` (200 found, 300 several
matches, 404 not found, 400 unknown reporter, 429 past the per-request cap) and ``clusters``
(with ``case_name``). Published limits respected here:

* at most 250 citations are looked up per request (later ones come back with status 429 and
  are sent again in the next request);
* at most 60 valid citations per minute: a client-side sliding-window limiter
  (:class:`CitationRateLimiter`, injectable clock and sleep) spaces requests; chunks are at
  most ``min(250, per_minute)`` citations;
* a throttled request answers HTTP 429 with ``wait_until`` (ISO-8601) in the body (and/or a
  ``Retry-After`` header): the client waits until then and retries.

Timeouts, connection errors and 5xx are retried with exponential backoff; after the budget an
:class:`~governor.core.errors.EndpointError` names the endpoint (never the token).

:class:`LocalCaseStore` answers the same port from a JSONL file the user fills, one case per
line: ``{"volume": "576", "reporter": "U.S.", "page": "644", "case_name": "Obergefell v. Hodges"}``.
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

from governor.core.errors import ConfigError, EndpointError, InputError

__all__ = [
    "CITATION_LOOKUP_PATH",
    "DEFAULT_BASE_URL",
    "CitationRateLimiter",
    "CourtListenerClient",
    "LocalCaseStore",
    "normalise_reporter",
]

DEFAULT_BASE_URL = "https://www.courtlistener.com"
CITATION_LOOKUP_PATH = "/api/rest/v4/citation-lookup/"
MAX_CITATIONS_PER_REQUEST = 250
"""Published cap: citations looked up in one request."""
MAX_CITATIONS_PER_MINUTE = 60
"""Published throttle: valid citations per minute (default account)."""

Cite = tuple[str, str, str]


def normalise_reporter(reporter: str) -> str:
    """Reporter key for matching: lower case without spaces or periods (``"F. 3d"`` → ``"f3d"``)."""
    return re.sub(r"[\s.]", "", reporter).lower()


def _key(cite: Cite) -> tuple[str, str, str]:
    volume, reporter, page = cite
    return (volume.strip(), normalise_reporter(reporter), page.strip())


class CitationRateLimiter:
    """Sliding-window limiter: at most ``limit`` citations per ``window`` seconds.

    Args:
        limit: citations allowed per window (CourtListener: 60).
        window: window length in seconds.
        clock: monotonic clock in seconds (injectable for tests).
        sleep: sleep function (injectable).
    """

    def __init__(
        self,
        limit: int = MAX_CITATIONS_PER_MINUTE,
        window: float = 60.0,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if limit < 1 or window <= 0:
            raise ValueError("limit must be >= 1 and window > 0")
        self.limit = limit
        self.window = window
        self._clock = clock
        self._sleep = sleep
        self._events: deque[tuple[float, int]] = deque()
        self._blocked_until = 0.0
        self._lock = threading.Lock()

    def _used(self, now: float) -> int:
        while self._events and self._events[0][0] <= now - self.window:
            self._events.popleft()
        return sum(n for _, n in self._events)

    def acquire(self, n: int) -> float:
        """Block until ``n`` more citations fit in the window, then record them.

        Args:
            n: citations about to be sent (1 ≤ n ≤ ``limit``).

        Returns:
            seconds slept.

        Raises:
            ValueError: ``n`` is outside ``[1, limit]`` (callers chunk first).
        """
        if not 1 <= n <= self.limit:
            raise ValueError(f"cannot send {n} citations at once (limit {self.limit} per window)")
        slept = 0.0
        with self._lock:
            while True:
                now = self._clock()
                if now < self._blocked_until:
                    wait = self._blocked_until - now
                elif self._used(now) + n <= self.limit:
                    self._events.append((now, n))
                    return slept
                else:
                    need = self._used(now) + n - self.limit
                    freed, wait = 0, 0.0
                    for t, m in self._events:
                        freed += m
                        if freed >= need:
                            wait = t + self.window - now
                            break
                wait = max(wait, 1e-3)
                self._sleep(wait)
                slept += wait

    def now(self) -> float:
        """The limiter's clock (seconds)."""
        return self._clock()

    def block_until(self, when: float) -> None:
        """Refuse to send before clock time ``when`` (after a server 429)."""
        with self._lock:
            self._blocked_until = max(self._blocked_until, when)


def _wait_seconds(response: httpx.Response) -> float | None:
    """Seconds to wait after a 429: ``wait_until`` in the body, else ``Retry-After``."""
    try:
        body = response.json()
    except ValueError:
        body = None
    if isinstance(body, Mapping):
        raw = body.get("wait_until") or body.get("wait_util")
        if isinstance(raw, str):
            try:
                until = datetime.fromisoformat(raw.replace("Z", "+00:00"))
                if until.tzinfo is None:
                    until = until.replace(tzinfo=UTC)
                return max(0.0, (until - datetime.now(UTC)).total_seconds())
            except ValueError:
                pass
    header = response.headers.get("retry-after")
    if header:
        try:
            return max(0.0, float(header))
        except ValueError:
            return None
    return None


class CourtListenerClient:
    """``CaseLookup`` over CourtListener's citation-lookup API v4.

    Args:
        base_url: service root (tests pass a 127.0.0.1 fake).
        token_env: environment variable holding the API token.
        environ: environment mapping (default ``os.environ``).
        timeout_s: per-request timeout.
        max_retries: retries of one request (5xx, timeouts, connection errors, HTTP 429).
        per_request: citations per request (≤ 250).
        limiter: the citation rate limiter (default 60 per minute, real clock).
        backoff_base_s / backoff_max_s: exponential backoff of retries (seconds).
        sleep: sleep function for backoff (the limiter has its own).
        transport: an ``httpx`` transport (tests).

    Raises:
        ConfigError: the token variable is unset.
    """

    def __init__(
        self,
        *,
        base_url: str = DEFAULT_BASE_URL,
        token_env: str = "COURTLISTENER_TOKEN",
        environ: Mapping[str, str] | None = None,
        timeout_s: float = 30.0,
        max_retries: int = 3,
        per_request: int = MAX_CITATIONS_PER_REQUEST,
        limiter: CitationRateLimiter | None = None,
        backoff_base_s: float = 1.0,
        backoff_max_s: float = 120.0,
        sleep: Callable[[float], None] = time.sleep,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        env = os.environ if environ is None else environ
        token = env.get(token_env, "")
        if not token:
            raise ConfigError(
                f"no CourtListener token: set {token_env} (free at courtlistener.com/help/api/rest/) "
                "or check US cases against a LocalCaseStore JSONL file"
            )
        self.base_url = base_url.rstrip("/")
        self.url = self.base_url + CITATION_LOOKUP_PATH
        self.token_env = token_env
        self.max_retries = max_retries
        self.limiter = limiter or CitationRateLimiter()
        self.per_request = max(1, min(per_request, MAX_CITATIONS_PER_REQUEST, self.limiter.limit))
        self.backoff_base_s = backoff_base_s
        self.backoff_max_s = backoff_max_s
        self._sleep = sleep
        self._token = token
        self.requests_sent = 0
        self._http = httpx.Client(
            timeout=timeout_s,
            headers={"Authorization": f"Token {token}", "User-Agent": "citegov"},
            transport=transport,
        )

    def __repr__(self) -> str:
        return f"CourtListenerClient(base_url={self.base_url!r}, token=${self.token_env})"

    def close(self) -> None:
        """Close the HTTP connection pool."""
        self._http.close()

    def __enter__(self) -> CourtListenerClient:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # -- HTTP ----------------------------------------------------------------------
    def _post(self, data: Mapping[str, str], n_cites: int) -> list[dict[str, Any]]:
        """One API call with limiter, retries and error mapping; returns the entry list."""
        last = ""
        for attempt in range(self.max_retries + 1):
            self.limiter.acquire(max(1, min(n_cites, self.limiter.limit)))
            wait: float | None = None
            try:
                self.requests_sent += 1
                response = self._http.post(self.url, data=dict(data))
            except httpx.TimeoutException:
                last = "timeout"
            except httpx.TransportError as exc:
                last = f"connection error ({type(exc).__name__})"
            else:
                status = response.status_code
                if status == 200:
                    try:
                        body = response.json()
                    except ValueError:
                        last = "malformed JSON body"
                    else:
                        if isinstance(body, list):
                            return [e for e in body if isinstance(e, dict)]
                        if isinstance(body, dict) and not body:
                            return []  # no citation found in the text
                        last = "unexpected response shape"
                elif status == 429:
                    wait = _wait_seconds(response)
                    last = "429 throttled"
                    if wait is not None:
                        self.limiter.block_until(self.limiter.now() + wait)
                elif status in (401, 403):
                    raise EndpointError(
                        f"CourtListener ({self.base_url}) refused the token from ${self.token_env} "
                        f"(HTTP {status}); set a valid token in that variable"
                    )
                elif status >= 500:
                    last = f"HTTP {status}"
                else:
                    raise EndpointError(
                        f"CourtListener ({self.url}) rejected the request (HTTP {status}); "
                        "check the base URL and the citations sent"
                    )
            if attempt < self.max_retries and wait is None:
                self._sleep(min(self.backoff_max_s, self.backoff_base_s * 2**attempt))
        raise EndpointError(
            f"CourtListener ({self.base_url}) failed {self.max_retries + 1} times ({last}); "
            "try again later, raise the retry budget, or use a LocalCaseStore"
        )

    # -- the port ------------------------------------------------------------------
    def lookup(self, cites: Sequence[Cite]) -> list[list[str] | None]:
        """Case names at each ``(volume, reporter, page)``.

        Returns:
            per input triple: the case names found (``[]``: the citation does not exist or
            its reporter is unknown; ``None``: the service did not recognise it as a
            citation, so it could not be checked).

        Raises:
            EndpointError: the service kept failing or refused the token.
        """
        unique: dict[tuple[str, str, str], Cite] = {}
        for cite in cites:
            unique.setdefault(_key(cite), cite)
        results: dict[tuple[str, str, str], list[str] | None] = {}
        pending = list(unique)
        unrecognised: list[tuple[str, str, str]] = []
        while pending:
            chunk, pending = pending[: self.per_request], pending[self.per_request :]
            done, again, unseen = self._lookup_chunk([unique[k] for k in chunk], chunk)
            results.update(done)
            pending = again + pending
            unrecognised += unseen
        for key in unrecognised:  # ask by parts: a definite 404/400 instead of "not parsed"
            volume, reporter, page = unique[key]
            entries = self._post({"volume": volume, "reporter": reporter, "page": page}, 1)
            results[key] = _names(entries[0]) if entries else None
        return [results.get(_key(c)) for c in cites]

    def _lookup_chunk(
        self, cites: list[Cite], keys: list[tuple[str, str, str]]
    ) -> tuple[
        dict[tuple[str, str, str], list[str] | None],
        list[tuple[str, str, str]],
        list[tuple[str, str, str]],
    ]:
        parts, starts = [], []
        pos = 0
        for volume, reporter, page in cites:
            s = f"{volume.strip()} {reporter.strip()} {page.strip()}"
            starts.append((pos, pos + len(s)))
            parts.append(s)
            pos += len(s) + 2
        entries = self._post({"text": "; ".join(parts)}, len(cites))
        done: dict[tuple[str, str, str], list[str] | None] = {}
        again: list[tuple[str, str, str]] = []
        for entry in entries:
            idx = _match(entry, starts)
            if idx is None:
                continue
            key = keys[idx]
            if entry.get("status") == 429:
                again.append(key)
            else:
                done[key] = _names(entry)
        unseen = [k for k in keys if k not in done and k not in again]
        return done, again, unseen


def _match(entry: Mapping[str, Any], spans: list[tuple[int, int]]) -> int | None:
    try:
        start = int(entry.get("start_index"))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    for i, (s, e) in enumerate(spans):
        if s <= start < e:
            return i
    return None


def _names(entry: Mapping[str, Any]) -> list[str] | None:
    status = entry.get("status")
    if status in (200, 300):
        names = []
        for cluster in entry.get("clusters") or []:
            if isinstance(cluster, Mapping):
                name = (
                    cluster.get("case_name")
                    or cluster.get("case_name_full")
                    or cluster.get("case_name_short")
                )
                if name:
                    names.append(str(name))
        return names
    if status in (400, 404):
        return []
    return None


class LocalCaseStore:
    """``CaseLookup`` from a JSONL file of known cases (offline).

    Each line: ``{"volume": "576", "reporter": "U.S.", "page": "644", "case_name": "..."}``;
    blank lines and lines starting with ``#`` are skipped. Reporters match without spaces,
    periods or case (``"F. 3d"`` = ``"F.3d"``).

    Args:
        path: the JSONL file.

    Raises:
        InputError: the file is missing or a line is not such an object (names the line).
    """

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._cases: dict[tuple[str, str, str], list[str]] = {}
        try:
            lines = self.path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError(
                f"case file {self.path} cannot be read ({exc}); give a UTF-8 JSONL file with "
                "volume, reporter, page, case_name per line"
            ) from exc
        for n, line in enumerate(lines, start=1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            try:
                row = json.loads(line)
                cite = (str(row["volume"]), str(row["reporter"]), str(row["page"]))
                name = str(row["case_name"])
            except (ValueError, KeyError, TypeError) as exc:
                raise InputError(
                    f"{self.path}:{n}: expected a JSON object with volume, reporter, page and "
                    f"case_name ({type(exc).__name__}); fix or remove the line"
                ) from None
            names = self._cases.setdefault(_key(cite), [])
            if name not in names:
                names.append(name)

    def __len__(self) -> int:
        return len(self._cases)

    def lookup(self, cites: Sequence[Cite]) -> list[list[str] | None]:
        """Case names per triple; ``[]`` when the file has no case at that citation."""
        return [list(self._cases.get(_key(c), [])) for c in cites]
