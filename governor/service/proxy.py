"""The OpenAI-compatible governing proxy: ``POST /v1/chat/completions``.

Layer 8. A writer that already talks to an OpenAI client adopts citegov by changing
``base_url`` to the service's ``/v1``: the request is forwarded (``stream`` turned off) to the
configured upstream (``upstream_base_url``, any OpenAI-compatible server, key from
``$upstream_api_key_env``), each choice's answer is governed (:func:`run_draft` with
``revise=True``; the question is the last user message), and the response comes back in the
same wire format with the governed text as the message content and, in a top-level
``citegov`` field, a compact summary of choice 0's governance
(:func:`governor.reports.json_report.compact_report`: trust, all-pass and "n of m verified",
gaps, one line per failing citation, one per edit); with several choices each choice carries
its own. ``citegov: {report: "citations"}`` adds one row per citation, ``{report: "full"}``
the whole SPEC §2 report (issue 23: the report used to come twice, 44 KB for a 176-character
answer).

Options ride in the request body as ``citegov: {strategy, policy, as_of, report}`` (the
OpenAI client's ``extra_body``); they are removed before forwarding.

``GET /v1/models`` is forwarded to the upstream. The upstream's ``x-request-id`` and rate-limit
headers (``x-ratelimit-*``, ``retry-after``) are passed on, on answers and on errors.

``stream=true``: governance needs the whole answer, so the upstream call is not streamed; the
governed text is then sent as server-sent events in the ``chat.completion.chunk`` format
(role chunk, content chunks of ``stream_chunk_chars`` characters, a last chunk with
``finish_reason`` and the ``citegov`` summary, with ``stream_options: {include_usage: true}``
a chunk with empty ``choices`` and the upstream's ``usage``, then ``data: [DONE]``). The first
byte therefore arrives after governance, not sooner.

Errors: an upstream error status is passed through with its body scrubbed of credentials
(:func:`governor.service.governing.scrub_credentials`) and its rate-limit headers; an
upstream timeout is 504 and a connection failure 502 (OpenAI-style error bodies). A governance
failure returns 502 unless ``on_error = "pass"``, which returns the ungoverned answer with
``citegov: {"governed": false, "error": ...}``.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import AsyncIterator, Sequence
from datetime import date
from typing import Any, Literal

from fastapi import Depends, FastAPI, HTTPException, Request
from fastapi.responses import Response, StreamingResponse
from pydantic import BaseModel, ConfigDict, ValidationError

from governor.core.errors import BudgetExceededError, GovernorError
from governor.reports.json_report import Detail, compact_report
from governor.service.governing import (
    DraftRequest,
    ServiceState,
    admit,
    http_error,
    in_thread,
    run_draft,
    scrub_credentials,
)

log = logging.getLogger("citegov.service.proxy")


class ProxyOptions(BaseModel):
    """The ``citegov`` object of a proxied request (all optional)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    strategy: Literal["none", "existence", "efa"] | None = None
    policy: Literal["default", "strict"] = "default"
    as_of: date | None = None
    report: Detail = "summary"
    """How much of the verdict report comes back (:data:`governor.reports.json_report.Detail`)."""


PASSED_HEADERS = ("x-request-id", "retry-after", "openai-processing-ms")
"""Upstream response headers passed on to the client, besides every ``x-ratelimit-*``."""


def passed_headers(headers: Any) -> dict[str, str]:
    """The upstream headers a client of the proxy keeps (:data:`PASSED_HEADERS`, rate limits)."""
    return {
        k: v
        for k, v in headers.items()
        if k.lower() in PASSED_HEADERS or k.lower().startswith("x-ratelimit-")
    }


def _question(messages: Sequence[Any]) -> str:
    """The last user message's text (string content, or the text parts of a content list)."""
    for m in reversed(messages):
        if isinstance(m, dict) and m.get("role") == "user":
            c = m.get("content")
            if isinstance(c, str):
                return c
            if isinstance(c, list):
                return "".join(
                    str(p.get("text", ""))
                    for p in c
                    if isinstance(p, dict) and p.get("type") == "text"
                )
    return ""


def _sse(obj: Any) -> bytes:
    return b"data: " + json.dumps(obj, ensure_ascii=False).encode("utf-8") + b"\n\n"


def register_proxy(app: FastAPI, st: ServiceState, auth: list[Any]) -> None:
    """Add ``POST /v1/chat/completions`` to ``app`` (see the module docstring)."""

    @app.get("/v1/models", tags=["proxy"], dependencies=auth)
    async def models() -> Response:
        """The upstream's model list (``GET {upstream}/models``), credentials scrubbed."""
        r = await _upstream(st, "GET", "/models")
        return Response(
            scrub_credentials(r.text, st.secrets),
            status_code=r.status_code,
            media_type=r.headers.get("content-type", "application/json"),
            headers=passed_headers(r.headers),
        )

    @app.post(
        "/v1/chat/completions",
        tags=["proxy"],
        dependencies=[*auth, Depends(admit)],
        responses={
            200: {"description": "OpenAI chat completion (or SSE chunks) with a citegov field"},
            502: {"description": "upstream unreachable, or governance failed (on_error=fail)"},
            504: {"description": "upstream timed out"},
        },
    )
    async def chat_completions(request: Request) -> Response:
        """OpenAI chat completions, governed: forward upstream, govern the answer, return it."""
        if st.http is None:
            raise HTTPException(
                503, "proxy not configured: set upstream_base_url (citegov serve --upstream URL)"
            )
        try:
            body = json.loads(await request.body())
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise HTTPException(
                422, f"body: not JSON ({exc}); send an OpenAI chat request"
            ) from None
        if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
            raise HTTPException(422, "messages: field required (a list of chat messages)")
        try:
            opts = ProxyOptions.model_validate(body.pop("citegov", None) or {})
        except ValidationError as exc:
            first = exc.errors()[0]
            loc = ".".join(str(x) for x in first["loc"])
            raise HTTPException(422, f"citegov.{loc}: {first['msg']}") from None
        stream = bool(body.pop("stream", False))
        stream_options = body.pop("stream_options", None)
        include_usage = isinstance(stream_options, dict) and bool(
            stream_options.get("include_usage")
        )
        if not body.get("model"):
            if not st.settings.upstream_model:
                raise HTTPException(422, "model: field required (or set upstream_model)")
            body["model"] = st.settings.upstream_model
        r = await _upstream(st, "POST", "/chat/completions", body)
        headers = passed_headers(r.headers)
        if r.status_code != 200:
            return Response(
                scrub_credentials(r.text, st.secrets),
                status_code=r.status_code,
                media_type=r.headers.get("content-type", "application/json"),
                headers=headers,
            )
        try:
            data = r.json()
            choices = data["choices"]
            answers = [str(c["message"]["content"] or "") for c in choices]
        except (ValueError, KeyError, TypeError):
            raise HTTPException(
                502, "upstream answer is not an OpenAI chat completion (no choices[].message)"
            ) from None
        question = _question(body["messages"])
        summaries = [
            await _govern_answer(st, answer, question, opts, choice)
            for choice, answer in zip(choices, answers, strict=True)
        ]
        if len(choices) > 1:  # one summary per choice; the top level repeats choice 0's
            for choice, summary in zip(choices, summaries, strict=True):
                choice["citegov"] = summary
        data["citegov"] = summaries[0] if summaries else None
        if not stream:
            return Response(
                json.dumps(data, ensure_ascii=False, separators=(",", ":")),
                media_type="application/json",
                headers=headers,
            )
        return StreamingResponse(
            _stream(data, st.settings.stream_chunk_chars, include_usage=include_usage),
            media_type="text/event-stream",
            headers=headers,
        )


async def _upstream(
    st: ServiceState, method: str, path: str, body: dict[str, Any] | None = None
) -> Any:
    """One call to the upstream: its ``httpx.Response`` (any status).

    Raises:
        HTTPException: 503 no upstream configured, 504 timeout, 502 unreachable.
    """
    import httpx

    if st.http is None:
        raise HTTPException(
            503, "proxy not configured: set upstream_base_url (citegov serve --upstream URL)"
        )
    try:
        r = await st.http.request(method, path, json=body)
    except httpx.TimeoutException:
        st.metrics.upstream.labels("timeout").inc()
        raise HTTPException(
            504, f"upstream model did not answer within {st.settings.upstream_timeout_s} s"
        ) from None
    except httpx.HTTPError as exc:
        st.metrics.upstream.labels("unreachable").inc()
        raise HTTPException(
            502, f"upstream model unreachable ({type(exc).__name__}); check upstream_base_url"
        ) from None
    st.metrics.upstream.labels(str(r.status_code)).inc()
    return r


async def _govern_answer(
    st: ServiceState, answer: str, question: str, opts: ProxyOptions, choice: dict[str, Any]
) -> Any:
    """Govern one choice in place; returns its ``citegov`` field (report or error)."""
    req = DraftRequest(
        draft=answer,
        strategy=opts.strategy,
        policy=opts.policy,
        as_of=opts.as_of,
        context=question,
    )
    try:
        text, report = await in_thread(lambda: run_draft(st, req, revise=True))
    except Exception as exc:  # governance failure: the configured on_error decides
        msg = str(exc) if isinstance(exc, GovernorError) else f"{type(exc).__name__}: {exc}"
        if st.settings.on_error == "pass":
            log.warning("governance failed, answer passed ungoverned: %s", msg)
            return {"governed": False, "error": msg}
        if isinstance(exc, BudgetExceededError):  # 503 with the reason and Retry-After
            raise http_error(exc) from None
        raise HTTPException(
            502, f"governance failed: {msg} (on_error=fail; set on_error=pass to pass answers)"
        ) from None
    choice["message"]["content"] = text
    return {"governed": True, **compact_report(report, detail=opts.report)}


async def _stream(
    data: dict[str, Any], size: int, *, include_usage: bool = False
) -> AsyncIterator[bytes]:
    """The governed completion as ``chat.completion.chunk`` server-sent events."""
    base = {
        "id": data.get("id", "chatcmpl-citegov"),
        "object": "chat.completion.chunk",
        "created": data.get("created", int(time.time())),
        "model": data.get("model", ""),
    }
    for choice in data.get("choices", []):
        i = choice.get("index", 0)
        text = str(choice["message"].get("content") or "")
        yield _sse(
            {
                **base,
                "choices": [
                    {
                        "index": i,
                        "delta": {"role": "assistant", "content": ""},
                        "finish_reason": None,
                    }
                ],
            }
        )
        for k in range(0, len(text), size):
            delta = {"content": text[k : k + size]}
            yield _sse({**base, "choices": [{"index": i, "delta": delta, "finish_reason": None}]})
        last = {"index": i, "delta": {}, "finish_reason": choice.get("finish_reason", "stop")}
        summary = choice.get("citegov", data.get("citegov"))
        yield _sse({**base, "choices": [last], "citegov": summary})
    if include_usage:  # OpenAI: one more chunk, empty choices, the usage of the request
        yield _sse({**base, "choices": [], "usage": data.get("usage")})
    yield b"data: [DONE]\n\n"
