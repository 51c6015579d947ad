"""A scripted OpenAI chat-completions server on 127.0.0.1 for tests.

Real HTTP (``ThreadingHTTPServer`` in a thread, random free port), speaking the
``POST /v1/chat/completions`` wire format, driven by a queue of replies. Each reply is a
:class:`Reply` (content, finish reason, status, headers, raw body, delay), a ``str`` (the
content), a ``dict``/``list`` (JSON-encoded as the content), or a callable of the
:class:`RecordedRequest` returning any of those (so a scripted judge can answer per prompt).
Every request is recorded (headers, JSON body, raw body) for assertions on prompts, call
counts and secret leaks.

Helpers build the usual faults: :func:`rate_limited`, :func:`server_error`,
:func:`malformed_body`, :func:`truncated`, :func:`slow`, :func:`reject_json_schema`.

For throughput tests and ``benchmarks/bench_llm_judge.py``:

* ``latency`` seconds pass before every completion is answered (a model's generation time);
* ``usage`` is **counted** (unless a reply fixes it): prompt tokens by
  :func:`governor.clients.tokens.count_message_tokens` over the messages received, completion
  tokens by :func:`~governor.clients.tokens.count_tokens` of the content — the rule citegov's
  dry run uses;
* **prompt caching** is simulated per whole message: the leading messages of a request equal
  to the leading messages of an earlier one are "cached", reported as
  ``usage.prompt_tokens_details.cached_tokens`` (their tokens; providers cache prefixes in
  blocks, this is the message-level upper bound);
* ``max_in_flight``: a request arriving while that many are being answered gets a 429 with
  ``Retry-After: retry_after`` (a provider's concurrency limit); :attr:`peak_in_flight` and
  :attr:`timings` (start, end of each answered completion, ``time.monotonic``) are recorded.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from governor.clients.tokens import count_message_tokens, count_tokens

__all__ = [
    "FakeOpenAIServer",
    "RecordedRequest",
    "Reply",
    "malformed_body",
    "rate_limited",
    "reject_json_schema",
    "server_error",
    "slow",
    "truncated",
]


@dataclass(frozen=True)
class RecordedRequest:
    """One request as the server saw it (header names lower-cased)."""

    method: str
    path: str
    headers: dict[str, str]
    raw: str
    json: Any

    @property
    def messages(self) -> list[dict[str, Any]]:
        """The chat messages of a completions request (empty otherwise)."""
        return list((self.json or {}).get("messages", [])) if isinstance(self.json, dict) else []

    @property
    def prompt(self) -> str:
        """All message contents joined by newlines (for ``in`` assertions)."""
        return "\n".join(str(m.get("content", "")) for m in self.messages)

    @property
    def response_format(self) -> dict[str, Any] | None:
        """The ``response_format`` sent, if any."""
        rf = (self.json or {}).get("response_format") if isinstance(self.json, dict) else None
        return rf if isinstance(rf, dict) else None


@dataclass(frozen=True)
class Reply:
    """One scripted response.

    ``content``/``finish_reason`` build a normal completion; ``status`` != 200 sends
    ``error`` as an OpenAI-style error body; ``body`` (bytes/str) replaces the whole body
    verbatim (malformed JSON); ``delay`` seconds pass before anything is sent.
    """

    content: str | None = ""
    finish_reason: str = "stop"
    status: int = 200
    headers: Mapping[str, str] = field(default_factory=dict)
    body: bytes | str | None = None
    delay: float = 0.0
    error: str = "error"
    usage: tuple[int, int] | None = None
    """(prompt, completion) tokens to report; None counts them (module docstring)."""


Scripted = Reply | str | dict | list | Callable[[RecordedRequest], Any]


def rate_limited(retry_after: float = 0.01) -> Reply:
    """429 with a ``retry-after`` header (seconds)."""
    return Reply(
        status=429, headers={"retry-after": f"{retry_after:g}"}, error="Rate limit reached"
    )


def server_error(status: int = 500) -> Reply:
    """A 5xx error."""
    return Reply(status=status, error="internal server error")


def malformed_body() -> Reply:
    """HTTP 200 whose body is not JSON."""
    return Reply(body=b'{"id": "x", "choices": [ {"message": ')


def truncated(content: str = '{"label": "sup') -> Reply:
    """A completion cut by the token limit (``finish_reason: "length"``)."""
    return Reply(content=content, finish_reason="length")


def slow(delay: float, content: str = "late") -> Reply:
    """A reply sent after ``delay`` seconds (longer than the client timeout → timeout)."""
    return Reply(content=content, delay=delay)


def reject_json_schema(then: Scripted) -> Callable[[RecordedRequest], Any]:
    """A server without structured outputs: 400 on ``response_format.type == json_schema``,
    ``then`` otherwise."""

    def reply(req: RecordedRequest) -> Any:
        rf = req.response_format or {}
        if rf.get("type") == "json_schema":
            return Reply(status=400, error="response_format json_schema is not supported")
        return then(req) if callable(then) else then

    return reply


class FakeOpenAIServer:
    """A scripted chat-completions endpoint; use as a context manager.

    Args:
        script: replies served in order, one per request.
        default: reply once the script is exhausted (None → HTTP 500 "script exhausted").
        latency: seconds before every completion is answered (on top of a reply's delay).
        max_in_flight: concurrent completions served; one more gets 429 (None: no limit).
        retry_after: the ``Retry-After`` seconds of those 429s.
    """

    def __init__(
        self,
        script: Iterable[Scripted] = (),
        default: Scripted | None = None,
        *,
        latency: float = 0.0,
        max_in_flight: int | None = None,
        retry_after: float = 0.05,
    ) -> None:
        self._script: deque[Scripted] = deque(script)
        self.models: tuple[str, ...] = ("fake-writer", "fake-judge")
        """What ``GET /v1/models`` lists."""
        self.default = default
        self.latency = latency
        self.max_in_flight = max_in_flight
        self.retry_after = retry_after
        self.in_flight = 0
        self.peak_in_flight = 0
        self.throttled = 0
        self.timings: list[tuple[float, float]] = []
        self.usages: list[dict[str, Any]] = []
        self._prefixes: set[str] = set()
        self.requests: list[RecordedRequest] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle ----------------------------------------------------------------
    def start(self) -> FakeOpenAIServer:
        """Bind 127.0.0.1 on a free port and serve in a daemon thread."""
        server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        server.daemon_threads = True
        server.block_on_close = False  # a handler sleeping in a `slow` reply must not block close
        self._server = server
        self._thread = threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and release the port (wakes delayed handlers)."""
        self._stop.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> FakeOpenAIServer:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        assert self._server is not None, "server not started"
        return int(self._server.server_address[1])

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT/v1`` (what ``OpenAI(base_url=...)`` takes)."""
        return f"http://127.0.0.1:{self.port}/v1"

    def push(self, *replies: Scripted) -> None:
        """Append replies to the script."""
        with self._lock:
            self._script.extend(replies)

    @property
    def completions(self) -> list[RecordedRequest]:
        """Recorded chat-completions requests."""
        return [r for r in self.requests if r.path.endswith("/chat/completions")]

    # -- serving ------------------------------------------------------------------
    def _next(self, req: RecordedRequest) -> Reply:
        with self._lock:
            item = self._script.popleft() if self._script else self.default
        if item is None:
            return Reply(status=500, error="fake server: script exhausted")
        if callable(item) and not isinstance(item, Reply):
            item = item(req)
        if isinstance(item, Reply):
            return item
        if isinstance(item, str):
            return Reply(content=item)
        return Reply(content=json.dumps(item, ensure_ascii=False))

    def _cached_tokens(self, messages: list[dict[str, Any]]) -> int:
        """Tokens of the leading messages already seen at the head of an earlier request."""
        cached = 0
        with self._lock:
            for n in range(1, len(messages) + 1):
                key = json.dumps(messages[:n], ensure_ascii=False, sort_keys=True)
                if key in self._prefixes:
                    cached = count_message_tokens(messages[:n]) - 3  # reply priming not cached
                self._prefixes.add(key)
        return max(0, cached)

    def _completion(self, req: RecordedRequest, reply: Reply) -> bytes:
        model = (req.json or {}).get("model", "fake") if isinstance(req.json, dict) else "fake"
        cached = 0
        if reply.usage is not None:
            prompt_tokens, completion_tokens = reply.usage
        else:
            prompt_tokens = count_message_tokens(req.messages)
            completion_tokens = count_tokens(reply.content or "")
            cached = self._cached_tokens(req.messages)
        usage = {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
            "prompt_tokens_details": {"cached_tokens": cached},
        }
        with self._lock:
            self.usages.append(usage)
        body = {
            "id": f"chatcmpl-fake-{len(self.requests)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": model,
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": reply.content},
                    "finish_reason": reply.finish_reason,
                }
            ],
            "usage": usage,
        }
        return json.dumps(body, ensure_ascii=False).encode()

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:  # keep test output clean
                return

            def _send(self, status: int, body: bytes, headers: Mapping[str, str] = {}) -> None:
                try:
                    self.send_response(status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(body)))
                    for k, v in headers.items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client timed out and went away

            def do_GET(self) -> None:
                self._record("GET", b"")
                if self.path.rstrip("/").endswith("/models"):
                    models = {"object": "list", "data": [{"id": m, "object": "model"}
                                                         for m in fake.models]}  # fmt: skip
                    self._send(200, json.dumps(models).encode(), {"x-request-id": "req-models"})
                    return
                self._send(404, b'{"error": {"message": "not found"}}')

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length) if length else b""
                req = self._record("POST", raw)
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    self._send(404, b'{"error": {"message": "unknown route"}}')
                    return
                with fake._lock:
                    if fake.max_in_flight is not None and fake.in_flight >= fake.max_in_flight:
                        fake.throttled += 1
                        busy = True
                    else:
                        busy = False
                        fake.in_flight += 1
                        fake.peak_in_flight = max(fake.peak_in_flight, fake.in_flight)
                if busy:
                    err = {"error": {"message": "too many requests in flight", "code": 429}}
                    self._send(
                        429, json.dumps(err).encode(), {"retry-after": f"{fake.retry_after:g}"}
                    )
                    return
                started = time.monotonic()
                try:
                    self._answer(req)
                finally:
                    with fake._lock:
                        fake.in_flight -= 1
                        fake.timings.append((started, time.monotonic()))

            def _answer(self, req: RecordedRequest) -> None:
                reply = fake._next(req)
                wait = reply.delay + fake.latency
                if wait and fake._stop.wait(wait):
                    return
                if reply.body is not None:
                    body = reply.body.encode() if isinstance(reply.body, str) else reply.body
                    self._send(reply.status, body, reply.headers)
                elif reply.status != 200:
                    err = {"error": {"message": reply.error, "type": "fake", "code": reply.status}}
                    self._send(reply.status, json.dumps(err).encode(), reply.headers)
                else:
                    self._send(200, fake._completion(req, reply), reply.headers)

            def _record(self, method: str, raw: bytes) -> RecordedRequest:
                text = raw.decode("utf-8", errors="replace")
                try:
                    parsed = json.loads(text) if text else None
                except ValueError:
                    parsed = None
                req = RecordedRequest(
                    method=method,
                    path=self.path,
                    headers={k.lower(): v for k, v in self.headers.items()},
                    raw=text,
                    json=parsed,
                )
                with fake._lock:
                    fake.requests.append(req)
                return req

        return Handler
