"""A fake CourtListener citation-lookup API (v4) on 127.0.0.1 for tests.

Mirrors ``POST /api/rest/v4/citation-lookup/`` as documented by Free Law Project
(courtlistener.com/help/api/rest/citation-lookup/, template
``cl/api/templates/citation-lookup-api-vlatest.html``): form or JSON body with ``text`` (citations
found with eyecite, like the real service) or ``volume``/``reporter``/``page``; ``Authorization:
Token <token>``; the answer is a list of ``{citation, normalized_citations, start_index,
end_index, status, error_message, clusters}`` with per-citation status 200 (found), 300
(several clusters), 404 (not found), 400 (unknown reporter) and 429 (past the per-request cap,
not looked up). Throttling: :meth:`FakeCourtListener.throttle_next` makes the next request
answer HTTP 429 ``{"wait_until": ISO-8601}`` (the key the real API uses); faults can be queued
with :meth:`fail_next`.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs

__all__ = ["FakeCourtListener", "LookupRequest"]

MAX_PER_REQUEST = 250
KNOWN_REPORTERS = {
    "U.S.",
    "S. Ct.",
    "F.2d",
    "F.3d",
    "F.4th",
    "F. Supp.",
    "F. Supp. 2d",
    "Haw.",
    "Hill",
    "L. Ed.",
}


def _norm_reporter(rep: str) -> str:
    return rep.replace(" ", "").replace(".", "").lower()


@dataclass(frozen=True)
class LookupRequest:
    """One request as received (header names lower-cased; ``form`` is the decoded body)."""

    path: str
    headers: dict[str, str]
    form: dict[str, str]


class FakeCourtListener:
    """Fake citation-lookup endpoint; use as a context manager.

    Args:
        cases: ``(volume, reporter, page)`` → case names at that citation.
        token: the only accepted API token.
        max_per_request: citations looked up per request (later ones get status 429).
    """

    def __init__(
        self,
        cases: Mapping[tuple[str, str, str], list[str]],
        *,
        token: str,
        max_per_request: int = MAX_PER_REQUEST,
    ) -> None:
        self.cases = {(v, _norm_reporter(r), p): names for (v, r, p), names in cases.items()}
        self.reporters = {_norm_reporter(r) for r in KNOWN_REPORTERS} | {
            r for (_, r, _) in self.cases
        }
        self.token = token
        self.max_per_request = max_per_request
        self.requests: list[LookupRequest] = []
        self._faults: deque[tuple[int, dict[str, Any], dict[str, str]]] = deque()
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle ----------------------------------------------------------------
    def __enter__(self) -> FakeCourtListener:
        server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        server.daemon_threads = True
        self._server = server
        self._thread = threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        assert self._server is not None
        self._server.shutdown()
        self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT`` (the client appends ``/api/rest/v4/citation-lookup/``)."""
        assert self._server is not None, "server not started"
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    # -- scripting ----------------------------------------------------------------
    def throttle_next(self, seconds: float = 0.05, *, header: bool = False) -> None:
        """Answer the next request with HTTP 429 and ``wait_until`` = now + ``seconds``
        (also a ``Retry-After`` header when ``header``)."""
        until = datetime.now(UTC) + timedelta(seconds=seconds)
        headers = {"Retry-After": f"{seconds:g}"} if header else {}
        self.fail_next(429, {"wait_until": until.isoformat()}, headers)

    def fail_next(
        self, status: int, body: dict[str, Any] | None = None, headers: dict[str, str] | None = None
    ) -> None:
        """Answer the next request with ``status`` and ``body`` instead of looking up."""
        with self._lock:
            self._faults.append((status, body or {"detail": "fake failure"}, headers or {}))

    @property
    def looked_up(self) -> int:
        """Requests that reached the lookup (faults excluded)."""
        return sum(1 for r in self.requests if r.form.get("_served") == "1")

    # -- the API ------------------------------------------------------------------
    def _entry(
        self, citation: str, start: int, volume: str, reporter: str, page: str, n: int
    ) -> dict[str, Any]:
        entry: dict[str, Any] = {
            "citation": citation,
            "normalized_citations": [f"{volume} {reporter} {page}"],
            "start_index": start,
            "end_index": start + len(citation),
            "error_message": "",
            "clusters": [],
        }
        if n >= self.max_per_request:
            entry.update(status=429, error_message="Too many citations requested.")
            return entry
        rep = _norm_reporter(reporter)
        if rep not in self.reporters:
            entry.update(
                normalized_citations=[],
                status=400,
                error_message=f"Unable to find reporter with abbreviation of '{reporter}'",
            )
            return entry
        names = self.cases.get((volume, rep, page), [])
        if not names:
            entry.update(
                status=404, error_message=f"Citation not found: '{volume} {reporter} {page}'"
            )
            return entry
        entry["status"] = 300 if len(names) > 1 else 200
        entry["clusters"] = [
            {
                "id": 1000 + i,
                "absolute_url": f"/opinion/{1000 + i}/x/",
                "case_name": name,
                "citations": [
                    {"volume": int(volume), "reporter": reporter, "page": page, "type": 1}
                ],
            }
            for i, name in enumerate(names)
        ]
        return entry

    def lookup(self, form: Mapping[str, str]) -> list[dict[str, Any]]:
        """The response body for a decoded request form."""
        text = form.get("text")
        if text:
            import eyecite
            from eyecite.models import FullCaseCitation

            out: list[dict[str, Any]] = []
            for cite in eyecite.get_citations(text):
                if not isinstance(cite, FullCaseCitation):
                    continue
                start, end = cite.span()
                g = cite.groups
                out.append(
                    self._entry(
                        text[start:end],
                        start,
                        str(g["volume"]),
                        str(g["reporter"]),
                        str(g["page"]),
                        len(out),
                    )
                )
            return out
        volume, reporter, page = (
            form.get("volume", ""),
            form.get("reporter", ""),
            form.get("page", ""),
        )
        return [self._entry(f"{volume} {reporter} {page}", 0, volume, reporter, page, 0)]

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                return

            def _send(self, status: int, payload: Any, headers: Mapping[str, str] = {}) -> None:
                body = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(body)))
                for k, v in headers.items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(body)

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length).decode() if length else ""
                if "json" in (self.headers.get("content-type") or ""):
                    form = {k: str(v) for k, v in (json.loads(raw or "{}")).items()}
                else:
                    form = {k: v[0] for k, v in parse_qs(raw).items()}
                headers = {k.lower(): v for k, v in self.headers.items()}
                with fake._lock:
                    fault = fake._faults.popleft() if fake._faults else None
                served = dict(form)
                if (
                    fault is None
                    and self.path == "/api/rest/v4/citation-lookup/"
                    and headers.get("authorization") == f"Token {fake.token}"
                ):
                    served["_served"] = "1"
                with fake._lock:
                    fake.requests.append(LookupRequest(self.path, headers, served))
                if fault is not None:
                    self._send(fault[0], fault[1], fault[2])
                elif self.path != "/api/rest/v4/citation-lookup/":
                    self._send(404, {"detail": "Not found."})
                elif headers.get("authorization") != f"Token {fake.token}":
                    self._send(401, {"detail": "Invalid token."})
                else:
                    self._send(200, fake.lookup(form))

        return Handler
