"""OpenAI-compatible chat client (``ChatModel`` port, layer 2).

Talks to any chat-completions endpoint (OpenAI, vLLM, Ollama, llama.cpp, DeepSeek, Qwen...)
through the ``openai`` package, with:

* **retries** (tenacity is the single mechanism; the openai client's own retries are off) on
  timeouts, connection errors, 429 (honouring ``retry-after`` / ``retry-after-ms``), 5xx,
  malformed bodies, truncated answers (``finish_reason == "length"``) and, for structured
  calls, answers that are not JSON, lack the schema's required keys or are rejected by the
  caller's ``validate`` function (labels outside the allowed list, a missing item...);
  exponential backoff with jitter, base and sleep injectable. After the budget:
  :class:`EndpointUnreachableError` when every attempt failed to connect (refused, DNS) and no
  request to the endpoint ever succeeded (SPEC §10: a configuration error, not a transient
  fault), :class:`EndpointError` naming the endpoint and what to do for the other endpoint
  faults, or :class:`JudgeOutputError` for answers that never became valid;
* **a validated base URL**: ``http``/``https`` with a host (and a port in range), checked
  when the client is built (:class:`ConfigError` naming ``llm_base_url``);
* **structured output**: ``response_format={"type": "json_schema", ...}``; a server that
  rejects it (400/422) is asked again in JSON mode (``{"type": "json_object"}``, schema in the
  prompt), then with no ``response_format`` at all; the mode that worked is remembered;
* a per-run **budget** (calls, tokens) checked *before* each request
  (:class:`BudgetExceededError`), with call/token counters (:attr:`OpenAIChatModel.usage`);
* a **disk cache** (:class:`~governor.clients.cache.ChatCache`) keyed by model + prompt version
  + messages + schema, so a rerun makes zero calls;
* a **dry run** that counts calls and tokens without sending anything: prompt tokens by the
  rule of :mod:`governor.clients.tokens` (the one the test server counts with), completion
  tokens by the caller's ``expected_tokens`` (what an answer usually takes, not the cap);
* a shared **rate limiter** (:class:`~governor.clients.ratelimit.RateLimiter`: requests and
  tokens per minute, ``llm_rpm``/``llm_tpm``) taken before every request, paused for everyone
  by a 429's ``Retry-After``; the client is thread-safe, so several calls may be in flight
  (the judge's pool, ``llm_concurrency``);
* **prompt-cache accounting**: ``usage.prompt_tokens_details.cached_tokens`` (providers'
  prefix caching) summed in :attr:`ChatUsage.cached_tokens`.

The API key is read from the environment variable named in the config
(``llm_api_key_env``); it is never logged, stored in the cache or put in an exception
message. Every text the client returns or quotes — answers (a proxy may echo the
``Authorization`` header), cached answers, server error texts, validation messages — is
scrubbed of the key and of its obvious encodings (:func:`secret_variants`: percent-encoded,
base64 at any alignment, hex) when the key has at least :data:`MIN_SECRET_CHARS` characters
(shorter values such as ``EMPTY`` or ``x`` are placeholders for local servers, not secrets).
User info and query strings of the base URL are masked in messages.
"""

from __future__ import annotations

import base64
import json
import math
import os
import random
import re
import socket
import threading
import time
import urllib.parse
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

import httpx
import openai
from tenacity import RetryCallState, Retrying, retry_if_exception_type, stop_after_attempt

from governor.clients.cache import ChatCache, cache_key
from governor.clients.ratelimit import RateLimiter, shared_limiter
from governor.clients.tokens import count_message_tokens
from governor.clients.tokens import estimate_tokens as estimate_tokens
from governor.core.config import Config
from governor.core.errors import (
    BudgetExceededError,
    ConfigError,
    EndpointError,
    EndpointRejectedError,
    EndpointUnreachableError,
    JudgeOutputError,
)

__all__ = [
    "ChatUsage",
    "OpenAIChatModel",
    "Validator",
    "check_base_url",
    "estimate_tokens",
    "secret_variants",
]

Validator = Callable[[Any], object]
"""A caller's check of an answer: receives the parsed JSON (structured calls) or the text,
raises ``ValueError`` (pydantic's ``ValidationError`` is one) or :class:`JudgeOutputError` to
reject it; a rejected answer is retried like an answer that is not JSON."""

SchemaMode = Literal["json_schema", "json_object", "prompt"]
_MODES: tuple[SchemaMode, ...] = ("json_schema", "json_object", "prompt")
DEFAULT_MAX_OUTPUT = 1024
"""Completion tokens assumed for budgeting when the caller gives no ``max_tokens``."""
_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.S)
MIN_SECRET_CHARS = 8
"""Keys shorter than this are placeholders (``EMPTY``, ``x``) and are not scrubbed from text."""
REDACTED = "***"


def _connect_error_types() -> tuple[type[BaseException], ...]:
    """Exception types of a failed connection (refused, DNS, TLS handshake): httpx's and
    httpx2's ``ConnectError`` (openai >= 3 uses httpx2) and the socket-level ones."""
    types: list[type[BaseException]] = [httpx.ConnectError, ConnectionRefusedError, socket.gaierror]
    try:
        import httpx2  # type: ignore[import-not-found,unused-ignore]

        types.append(httpx2.ConnectError)
    except (ImportError, AttributeError):
        pass
    return tuple(types)


_CONNECT_ERRORS = _connect_error_types()


def _is_connect_failure(exc: BaseException) -> bool:
    """True when ``exc`` (an ``openai.APIConnectionError``) was caused by a failure to
    connect, as opposed to a connection that broke after it was made."""
    seen: BaseException | None = exc
    for _ in range(8):
        if seen is None:
            return False
        if isinstance(seen, _CONNECT_ERRORS):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def secret_variants(secret: str) -> tuple[str, ...]:
    """The forms in which ``secret`` may be echoed: itself, percent-encoded, base64
    (standard and URL-safe, at each of the three byte alignments inside a longer encoded
    text, e.g. ``Basic base64(user:key)``) and hex; longest first. Empty for a secret shorter
    than :data:`MIN_SECRET_CHARS`."""
    if len(secret) < MIN_SECRET_CHARS:
        return ()
    raw = secret.encode("utf-8")
    out = {secret, urllib.parse.quote(secret, safe=""), raw.hex(), raw.hex().upper()}
    for pad in range(3):
        for enc in (base64.b64encode, base64.urlsafe_b64encode):
            text = enc(b"\0" * pad + raw).decode("ascii").rstrip("=")
            # drop the characters that depend on the unknown neighbouring bytes
            lead = math.ceil(pad * 4 / 3)
            tail = (len(raw) + pad) % 3
            core = text[lead : len(text) - (1 if tail else 0)]
            if len(core) >= MIN_SECRET_CHARS:
                out.add(core)
    return tuple(sorted(out, key=len, reverse=True))


def check_base_url(value: str) -> str:
    """``value`` stripped, when it is a usable endpoint root: scheme ``http`` or ``https``, a
    host, a port in 1-65535.

    Raises:
        ConfigError: naming ``llm_base_url`` (credentials and query masked) and the fix.
    """
    url = value.strip()
    why = ""
    try:
        parsed = httpx.URL(url)
        port = parsed.port
        if parsed.scheme not in ("http", "https"):
            why = f"scheme {parsed.scheme or '(none)'!r} is not http or https"
        elif not parsed.host or re.search(r"[\s%/\\]", parsed.host):
            why = "it has no valid host"
        elif port is not None and not 0 < port < 65536:
            why = f"port {port} is out of range"
    except (httpx.InvalidURL, ValueError, TypeError) as exc:
        why = f"it does not parse ({type(exc).__name__})"
    if why:
        raise ConfigError(
            f"llm_base_url {shown_url(url)!r} is not a valid endpoint URL: {why}; set "
            "llm_base_url (CITEGOV_LLM_BASE_URL or --llm-base-url) to http(s)://HOST[:PORT]/PATH, "
            "e.g. https://api.openai.com/v1 or http://127.0.0.1:8000/v1"
        )
    return url


def shown_url(url: str) -> str:
    """``url`` safe to print: user info (``user:password@``) and query/fragment masked."""
    url = re.sub(r"(?<=//)[^/@?#]*@", f"{REDACTED}@", url)
    return re.sub(r"[?#].*\Z", f"?{REDACTED}", url, flags=re.S)


@dataclass(frozen=True)
class ChatUsage:
    """Counters of one client (a run). ``calls`` counts HTTP requests actually sent
    (retries included); ``cached_tokens`` the prompt tokens the endpoint reported served from
    its prompt cache; ``dry_run_calls``/``estimated_*`` what a dry run would send
    (``estimated_tokens`` = prompt + expected completion); ``limited_s`` seconds spent
    waiting for the rate limiter."""

    calls: int = 0
    cache_hits: int = 0
    retries: int = 0
    failures: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0
    dry_run_calls: int = 0
    estimated_prompt_tokens: int = 0
    estimated_completion_tokens: int = 0
    estimated_tokens: int = 0
    limited_s: float = 0.0

    @property
    def total_tokens(self) -> int:
        """Prompt + completion tokens reported by the endpoint."""
        return self.prompt_tokens + self.completion_tokens


class _Retry(Exception):
    """A failed attempt that may succeed when repeated (internal)."""

    def __init__(self, reason: str, *, kind: str = "endpoint", wait: float | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.kind = kind  # endpoint | connect (no connection made) | output
        self.wait = wait


class _SchemaRejected(Exception):
    """The server refused the response_format of the current mode (internal)."""


def _retry_after(exc: Any) -> float | None:
    """Seconds to wait from ``retry-after-ms`` / ``retry-after`` response headers (or None)."""
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    if headers is None:
        return None
    raw_ms = headers.get("retry-after-ms")
    if raw_ms:
        try:
            return max(0.0, float(raw_ms) / 1000.0)
        except ValueError:
            pass
    raw = headers.get("retry-after")
    if not raw:
        return None
    try:
        return max(0.0, float(raw))
    except ValueError:
        from email.utils import parsedate_to_datetime

        try:
            return max(0.0, parsedate_to_datetime(raw).timestamp() - time.time())
        except (TypeError, ValueError):
            return None


class OpenAIChatModel:
    """A ``ChatModel`` over an OpenAI-compatible ``base_url`` + ``model``.

    Args:
        base_url: endpoint root, e.g. ``https://api.openai.com/v1`` or ``http://127.0.0.1:8000/v1``.
        model: model name sent with each request.
        api_key_env: name of the environment variable holding the key (never the key itself).
        timeout_s: per-request timeout in seconds.
        max_retries: retries after the first attempt (so ``max_retries + 1`` attempts).
        max_calls: budget of HTTP requests for this client's lifetime (a run).
        max_tokens_budget: budget of prompt + completion tokens for the run.
        cache: response cache, or None for no caching.
        prompt_version: default prompt-template version for cache keys.
        dry_run: count calls and estimated tokens; send nothing; return ``"{}"`` for
            structured calls and ``""`` otherwise.
        temperature: sampling temperature (0 for judges).
        strict_schema: send ``strict: true`` with the JSON schema (OpenAI then requires
            ``additionalProperties: false`` everywhere).
        backoff_base_s / backoff_max_s: exponential backoff: attempt *n* waits about
            ``base · 2^(n-1)`` seconds (×0.5-1 jitter), capped; a ``retry-after`` header wins
            (capped at ``backoff_max_s``).
        sleep: the sleep function (tests inject a no-op).
        environ: environment mapping for the key (default ``os.environ``).
        http_client: an ``httpx.Client`` for the openai client (proxies, tests).
        limiter: requests/tokens-per-minute limiter shared by every call (None: unlimited).

    Raises:
        ConfigError: no base_url/model, a base_url that is not an http(s) URL with a host
            (:func:`check_base_url`), or the key variable is unset (and not ``dry_run``).
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key_env: str = "OPENAI_API_KEY",
        timeout_s: float = 60.0,
        max_retries: int = 4,
        max_calls: int = 1000,
        max_tokens_budget: int = 2_000_000,
        cache: ChatCache | None = None,
        prompt_version: str = "v1",
        dry_run: bool = False,
        temperature: float = 0.0,
        strict_schema: bool = False,
        backoff_base_s: float = 1.0,
        backoff_max_s: float = 60.0,
        sleep: Callable[[float], None] = time.sleep,
        environ: Mapping[str, str] | None = None,
        http_client: Any = None,
        limiter: RateLimiter | None = None,
    ) -> None:
        if not base_url or not model:
            raise ConfigError(
                "the LLM backend needs llm_base_url and llm_model (e.g. CITEGOV_LLM_BASE_URL="
                "https://api.openai.com/v1 CITEGOV_LLM_MODEL=gpt-4o-mini)"
            )
        base_url = check_base_url(base_url)
        env = os.environ if environ is None else environ
        key = env.get(api_key_env, "")
        if not key and not dry_run:
            raise ConfigError(
                f"no API key: set the environment variable {api_key_env} (or point "
                "llm_api_key_env at the variable that holds it; a local server without auth "
                "accepts any value)"
            )
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.api_key_env = api_key_env
        self.timeout_s = timeout_s
        self.max_retries = max_retries
        self.max_calls = max_calls
        self.max_tokens_budget = max_tokens_budget
        self.cache = cache
        self.prompt_version = prompt_version
        self.dry_run = dry_run
        self.temperature = temperature
        self.strict_schema = strict_schema
        self.backoff_base_s = backoff_base_s
        self.backoff_max_s = backoff_max_s
        self._sleep = sleep
        self.limiter = limiter
        self._secrets = secret_variants(key)
        self._shown = shown_url(self.base_url)
        self._reached = False  # an HTTP response (any status) was ever received
        self._mode: SchemaMode = "json_schema"
        self._lock = threading.Lock()
        self._usage = ChatUsage()
        self._client = openai.OpenAI(
            api_key=key or "dry-run",
            base_url=self.base_url,
            timeout=timeout_s,
            max_retries=0,
            http_client=http_client,
        )

    @classmethod
    def from_config(
        cls,
        config: Config,
        *,
        prompt_version: str = "v1",
        dry_run: bool = False,
        environ: Mapping[str, str] | None = None,
        **kwargs: Any,
    ) -> OpenAIChatModel:
        """Build from a :class:`~governor.core.config.Config` (``llm_*`` fields, ``cache_dir``).

        Raises:
            ConfigError: ``llm_base_url``/``llm_model`` unset or malformed, or the key
                variable unset.
        """
        return cls(
            config.llm_base_url or "",
            config.llm_model or "",
            api_key_env=config.llm_api_key_env,
            timeout_s=config.llm_timeout_s,
            max_retries=config.llm_max_retries,
            max_calls=config.llm_max_calls,
            max_tokens_budget=config.llm_max_tokens,
            cache=ChatCache(config.cache_dir),
            prompt_version=prompt_version,
            dry_run=dry_run,
            environ=environ,
            **{
                "limiter": shared_limiter(
                    config.llm_base_url or "", config.llm_rpm, config.llm_tpm
                ),
                **kwargs,
            },
        )

    def __repr__(self) -> str:
        return f"OpenAIChatModel(base_url={self._shown!r}, model={self.model!r}, key=${self.api_key_env})"

    # ------------------------------------------------------------------ counters

    @property
    def usage(self) -> ChatUsage:
        """A snapshot of the counters."""
        with self._lock:
            return self._usage

    def _bump(self, **delta: float) -> None:
        with self._lock:
            self._usage = replace(
                self._usage, **{k: getattr(self._usage, k) + v for k, v in delta.items()}
            )

    def _reserve(self, estimate: int) -> None:
        """Check the budget for one more request of ``estimate`` tokens, then count it."""
        with self._lock:
            u = self._usage
            if u.calls + 1 > self.max_calls:
                raise BudgetExceededError(
                    f"LLM call budget exhausted ({u.calls} of llm_max_calls={self.max_calls} used) "
                    f"for {self._shown}; raise llm_max_calls or rerun to use the cache"
                )
            if u.total_tokens + estimate > self.max_tokens_budget:
                raise BudgetExceededError(
                    f"LLM token budget would be exceeded ({u.total_tokens} used + ~{estimate} for "
                    f"the next call > llm_max_tokens={self.max_tokens_budget}) for {self._shown}; "
                    "raise llm_max_tokens or reduce the batch"
                )
            self._usage = replace(u, calls=u.calls + 1)

    # ------------------------------------------------------------------ the port

    def complete(
        self,
        messages: Sequence[Mapping[str, str]],
        *,
        json_schema: Mapping[str, Any] | None = None,
        max_tokens: int | None = None,
        prompt_version: str | None = None,
        validate: Validator | None = None,
        expected_tokens: int | None = None,
    ) -> str:
        """Send one chat completion and return the assistant text, scrubbed of the API key.

        Args:
            messages: ``[{"role": ..., "content": ...}, ...]``.
            json_schema: when given, a JSON object answer is requested and checked (it must
                parse and carry the schema's top-level ``required`` keys); the returned text
                is that JSON (code fences removed).
            max_tokens: completion token cap.
            prompt_version: overrides the client's prompt version in the cache key.
            validate: the caller's check of the answer (:data:`Validator`: the parsed JSON
                for structured calls, else the text). A rejected answer is retried within
                ``max_retries`` like a non-JSON one and never cached; a cached answer it
                rejects is ignored and asked again (then overwritten). Not applied in a dry
                run.
            expected_tokens: completion tokens an answer usually takes (below ``max_tokens``,
                the cap): what a dry run counts and the rate limiter charges up front, later
                settled with the real count. Default: ``max_tokens``.

        Returns:
            the assistant message content (key and its encodings replaced by ``***``).

        Raises:
            BudgetExceededError: the next request would exceed the call or token budget.
            EndpointUnreachableError: every attempt failed to connect (refused, DNS failure)
                and no request to this endpoint ever succeeded.
            EndpointError: the endpoint kept failing (timeouts, 429, 5xx, connection,
                malformed bodies) or refused the request (401/403/404).
            JudgeOutputError: the answer stayed truncated, non-JSON, off-schema or rejected
                by ``validate``.
        """
        msgs = [{"role": str(m["role"]), "content": str(m["content"])} for m in messages]
        key = cache_key(self.model, prompt_version or self.prompt_version, msgs, json_schema)
        if self.cache is not None:
            hit = self.cache.get(key)
            if hit is not None:
                try:
                    hit = self._checked(self.scrub(hit), json_schema, validate)
                except _Retry:
                    hit = None  # an entry the caller rejects: ask again, bypassing the cache
            if hit is not None:
                self._bump(cache_hits=1)
                return hit
        # exact count for a dry run (what it reports); the cheap estimate for a live call's
        # rate-limit charge, settled with the server's own count afterwards
        prompt_tokens = count_message_tokens(msgs, exact=self.dry_run)
        cap = max_tokens or DEFAULT_MAX_OUTPUT
        expected = min(cap, expected_tokens) if expected_tokens is not None else cap
        estimate = prompt_tokens + cap  # the budget check counts the cap: never overspent
        if self.dry_run:
            self._bump(
                dry_run_calls=1,
                estimated_prompt_tokens=prompt_tokens,
                estimated_completion_tokens=expected,
                estimated_tokens=prompt_tokens + expected,
            )
            return "{}" if json_schema is not None else ""

        retrying = Retrying(
            retry=retry_if_exception_type(_Retry),
            stop=stop_after_attempt(self.max_retries + 1),
            wait=self._wait,
            sleep=self._sleep,
            before_sleep=lambda _rs: self._bump(retries=1),
            reraise=True,
        )
        try:
            content = retrying(
                self._attempt, msgs, json_schema, max_tokens, estimate, validate,
                prompt_tokens + expected,
            )  # fmt: skip
        except _Retry as exc:
            self._bump(failures=1)
            attempts = self.max_retries + 1
            reason = self.scrub(exc.reason)[:300]
            if exc.kind == "output":
                raise JudgeOutputError(
                    f"model {self.model} at {self._shown} gave no valid answer in {attempts} "
                    f"attempts ({reason}); the item is recorded as unknown — raise max_tokens, "
                    "simplify the prompt or use a model that supports structured output"
                ) from None
            if exc.kind == "connect" and not self._reached:
                raise EndpointUnreachableError(
                    f"LLM endpoint {self._shown} is unreachable: {attempts} connection "
                    f"attempt(s) failed ({reason}) and no request to it ever succeeded; check "
                    "llm_base_url (--llm-base-url / CITEGOV_LLM_BASE_URL), that the server is "
                    "running and reachable from this machine, or run with --judge offline"
                ) from None
            raise EndpointError(
                f"LLM endpoint {self._shown} (model {self.model}) failed {attempts} times "
                f"({reason}); check that the server is up and the model name is right, "
                "raise llm_timeout_s/llm_max_retries, or run with the offline judge"
            ) from None
        if self.cache is not None:
            self.cache.put(key, content, {"model": self.model, "base_url": self._shown})
        return content

    def scrub(self, text: str) -> str:
        """``text`` with the API key and its encodings (:func:`secret_variants`) replaced by
        ``***``."""
        for variant in self._secrets:
            if variant in text:
                text = text.replace(variant, REDACTED)
        return text

    # ------------------------------------------------------------------ internals

    def _wait(self, rs: RetryCallState) -> float:
        exc = rs.outcome.exception() if rs.outcome is not None else None
        if isinstance(exc, _Retry) and exc.wait is not None:
            return min(exc.wait, self.backoff_max_s)
        base = self.backoff_base_s * (2 ** (rs.attempt_number - 1))
        return min(self.backoff_max_s, base * (0.5 + random.random() / 2))

    def _redact(self, text: str) -> str:
        return self.scrub(text)[:200]

    def _request(
        self,
        msgs: list[dict[str, str]],
        schema: Mapping[str, Any] | None,
        max_tokens: int | None,
        mode: SchemaMode,
    ) -> dict[str, Any]:
        kwargs: dict[str, Any] = {
            "model": self.model,
            "messages": msgs,
            "temperature": self.temperature,
        }
        if max_tokens is not None:
            kwargs["max_tokens"] = max_tokens
        if schema is not None:
            if mode == "json_schema":
                kwargs["response_format"] = {
                    "type": "json_schema",
                    "json_schema": {
                        "name": re.sub(r"[^A-Za-z0-9_-]", "_", str(schema.get("title", "answer")))[
                            :64
                        ],
                        "schema": dict(schema),
                        "strict": self.strict_schema,
                    },
                }
            else:
                if mode == "json_object":
                    kwargs["response_format"] = {"type": "json_object"}
                hint = (
                    "Answer with one JSON object only (no prose, no code fence) that conforms to "
                    "this JSON Schema:\n" + json.dumps(schema, ensure_ascii=False)
                )
                kwargs["messages"] = [{"role": "system", "content": hint}, *msgs]
        response = self._client.chat.completions.create(**kwargs)
        return response.model_dump() if hasattr(response, "model_dump") else dict(response)

    def _attempt(
        self,
        msgs: list[dict[str, str]],
        schema: Mapping[str, Any] | None,
        max_tokens: int | None,
        estimate: int,
        validate: Validator | None = None,
        expected: int = 0,
    ) -> str:
        while True:
            mode = self._mode
            self._reserve(estimate)
            if self.limiter is not None:
                waited = self.limiter.acquire(expected)
                if waited:
                    self._bump(limited_s=waited)
            try:
                data = self._call(msgs, schema, max_tokens, mode)
            except _SchemaRejected:
                nxt = _MODES.index(mode) + 1
                if nxt >= len(_MODES):
                    raise EndpointError(
                        f"LLM endpoint {self._shown} rejected the request even without "
                        "response_format; check the model name and the server's API"
                    ) from None
                with self._lock:
                    if self._mode == mode:
                        self._mode = _MODES[nxt]
                continue
            if self.limiter is not None:
                used = (data.get("usage") or {}).get("total_tokens")
                if isinstance(used, int):
                    self.limiter.settle(expected, used)
            return self._content(data, schema, validate)

    def _call(
        self,
        msgs: list[dict[str, str]],
        schema: Mapping[str, Any] | None,
        max_tokens: int | None,
        mode: SchemaMode,
    ) -> dict[str, Any]:
        try:
            data = self._request(msgs, schema, max_tokens, mode)
        except openai.APITimeoutError:
            raise _Retry(f"timeout after {self.timeout_s:g} s") from None
        except openai.APIConnectionError as exc:
            kind = "connect" if _is_connect_failure(exc) else "endpoint"
            why = "could not connect" if kind == "connect" else "connection error"
            raise _Retry(f"{why}: {type(exc.__cause__ or exc).__name__}", kind=kind) from None
        except openai.RateLimitError as exc:
            self._reached = True
            wait = _retry_after(exc)
            if self.limiter is not None and wait is not None:
                self.limiter.pause(min(wait, self.backoff_max_s))  # for every call in flight
            raise _Retry("429 rate limited", wait=wait) from None
        except openai.APIStatusError as exc:
            self._reached = True
            status = exc.status_code
            detail = self._redact(_error_text(exc))
            if status in (400, 422) and schema is not None and mode != "prompt":
                raise _SchemaRejected() from None
            if status >= 500 or status == 408 or status == 409:
                raise _Retry(f"HTTP {status}: {detail}", wait=_retry_after(exc)) from None
            if status in (401, 403):
                raise EndpointRejectedError(
                    f"LLM endpoint {self._shown} refused the key from ${self.api_key_env} "
                    f"(HTTP {status}); set a valid key in that variable"
                ) from None
            if status == 404:
                raise EndpointRejectedError(
                    f"LLM endpoint {self._shown} has no model {self.model!r} or no chat "
                    f"completions route (HTTP 404: {detail}); check llm_model and llm_base_url"
                ) from None
            raise EndpointError(
                f"LLM endpoint {self._shown} rejected the request (HTTP {status}: {detail}); "
                f"check llm_model={self.model!r} and llm_base_url"
            ) from None
        except (openai.APIResponseValidationError, ValueError) as exc:
            self._reached = True
            raise _Retry(f"malformed response body ({type(exc).__name__})") from None
        self._reached = True
        return data

    def _content(
        self,
        data: Mapping[str, Any],
        schema: Mapping[str, Any] | None,
        validate: Validator | None = None,
    ) -> str:
        usage = data.get("usage") or {}
        details = usage.get("prompt_tokens_details") or {}
        self._bump(
            prompt_tokens=int(usage.get("prompt_tokens") or 0),
            completion_tokens=int(usage.get("completion_tokens") or 0),
            cached_tokens=int(details.get("cached_tokens") or 0)
            if isinstance(details, Mapping)
            else 0,
        )
        choices = data.get("choices") or []
        if not choices or not isinstance(choices[0], Mapping):
            raise _Retry("response without choices")
        choice = choices[0]
        message = choice.get("message") or {}
        content = message.get("content")
        if choice.get("finish_reason") == "length":
            raise _Retry("answer truncated (finish_reason=length)", kind="output")
        if not isinstance(content, str):
            raise _Retry("response without message content", kind="output")
        return self._checked(self.scrub(content), schema, validate)

    def _checked(
        self, content: str, schema: Mapping[str, Any] | None, validate: Validator | None
    ) -> str:
        """``content`` as returned (JSON text without code fence for structured calls) once
        it passes the checks; else :class:`_Retry` of kind ``output``."""
        if schema is None:
            self._validated(content, validate)
            return content
        text = content.strip()
        fenced = _FENCE.match(text)
        if fenced:
            text = fenced.group(1)
        try:
            parsed = json.loads(text)
        except ValueError:
            raise _Retry("answer is not valid JSON", kind="output") from None
        required = schema.get("required") or ()
        if required:
            if not isinstance(parsed, dict):
                raise _Retry("answer is not a JSON object", kind="output")
            missing = [k for k in required if k not in parsed]
            if missing:
                raise _Retry(f"answer ignores the schema (missing {missing[:3]})", kind="output")
        self._validated(parsed, validate)
        return text

    def _validated(self, answer: Any, validate: Validator | None) -> None:
        if validate is None:
            return
        try:
            validate(answer)
        except (ValueError, JudgeOutputError) as exc:
            detail = self.scrub(str(exc)).splitlines()
            first = " ".join(detail[:3])[:200]
            raise _Retry(f"answer rejected: {first}", kind="output") from None


def _error_text(exc: Any) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, Mapping):
        err = body.get("error", body)
        if isinstance(err, Mapping) and err.get("message"):
            return str(err["message"])
        return json.dumps(body, ensure_ascii=False)[:200]
    return str(getattr(exc, "message", "") or type(exc).__name__)
