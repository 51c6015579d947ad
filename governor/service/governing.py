"""Shared pieces of the service: request bodies, per-process state, auth, admission, and the
governing of one draft (used by :mod:`governor.service.app` and :mod:`governor.service.proxy`).

Layer 8.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import math
import threading
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import date
from typing import Annotated, Any, Literal

import anyio
from fastapi import Depends, HTTPException, Request
from fastapi.responses import JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field, model_validator
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from governor.core.config import Config
from governor.core.errors import (
    FATAL_ENDPOINT_ERRORS,
    BudgetExceededError,
    EncodingError,
    GovernorError,
    InputTooLargeError,
)
from governor.core.report import VerdictReport
from governor.service.metrics import ServiceMetrics
from governor.service.settings import ServiceSettings
from governor.text.textio import Draft, decode_bytes, draft_from_text

# ---------------------------------------------------------------------------------------------
# Request and response bodies


class DraftRequest(BaseModel):
    """Body of ``/v1/verify`` and ``/v1/govern``.

    Exactly one of ``draft`` (text) and ``draft_base64`` (the file's bytes, base64: UTF-8,
    UTF-8 with BOM, UTF-16 with BOM, GB18030/GBK or Big5, detected as ``citegov verify`` does
    for files) is given. ``as_of`` defaults to the date the draft states (else today);
    ``context`` to the draft's own ``问题：`` line.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    draft: str | None = Field(None, description="The draft as text.")
    draft_base64: str | None = Field(
        None, description="The draft file's bytes, base64-encoded (any supported encoding)."
    )
    strategy: Literal["none", "existence", "efa"] | None = Field(
        None, description="Revision strategy for /v1/govern (default: the service config's)."
    )
    policy: Literal["default", "strict"] = Field(
        "default",
        description="Scoring policy: 'strict' scores unverifiable citations 0.5 instead of "
        "excluding them (SPEC §3, like --strict).",
    )
    as_of: date | None = Field(None, description="Report date, YYYY-MM-DD.")
    context: str = Field("", description="The question the report answers.")

    @model_validator(mode="after")
    def _one_draft(self) -> DraftRequest:
        if (self.draft is None) == (self.draft_base64 is None):
            raise ValueError("give exactly one of 'draft' (text) and 'draft_base64' (bytes)")
        return self


class GovernResponse(BaseModel):
    """Response of ``/v1/govern``: the governed text and its SPEC §2 report."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str
    report: VerdictReport


class ProvisionVersion(BaseModel):
    """One version of a provision: its text (the cited 款/项 when given) and in-force dates."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    version: str
    in_force_from: date | None
    in_force_to: date | None
    text: str | None = Field(description="None when this version lacks the article or 款.")


class ProvisionResponse(BaseModel):
    """Response of ``/v1/provisions/{ref}``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    ref: str
    instrument: str
    article: str
    paragraph: int | None
    item: int | None
    level: str
    as_of: date | None
    in_force: str | None = Field(
        description="Version in force on as_of (latest if no as_of); null before the instrument "
        "took effect and on or after its repeal."
    )
    status: str = Field(
        default="in_force",
        description="On as_of: in_force | not_yet_in_force (the instrument, or the article "
        "added by a later amendment, was not yet in force) | repealed (text is then the "
        "repealed wording, with repealed_on and successor).",
    )
    text: str | None = Field(
        description="Text of the version in force on as_of; the repealed text after repeal; "
        "null before the instrument took effect."
    )
    repealed_on: date | None
    successor: str | None
    versions: tuple[ProvisionVersion, ...]


# ---------------------------------------------------------------------------------------------
# Per-process state


@dataclass
class LlmBudget:
    """The LLM calls one worker may send per window (issue 23: ``llm_max_calls`` used to be
    counted over the process lifetime, after which every request answered 200 with
    ``unknown`` verdicts and ``/healthz`` stayed ok).

    The window opens at the first request after the previous one closed; each judge's chat
    client gets its own cap lifted to "its calls at the window's start + ``calls``", so the
    client's guard stops a request that runs the window dry mid-way (its verdicts ``unknown``:
    the request then answers 503).
    """

    calls: int
    window_s: float
    started: float | None = None
    bases: dict[int, int] = field(default_factory=dict)
    """Calls of each chat client (by ``id``) when the window opened."""
    refused: int = 0

    def roll(self, clients: list[Any], now: float) -> None:
        """Open a new window when none is open or the last one is over; lift the clients'
        own caps to this window's budget (a client seen for the first time starts now)."""
        if self.started is None or now - self.started >= self.window_s:
            self.started = now
            self.bases = {}
        for c in clients:
            base = self.bases.setdefault(id(c), int(c.usage.calls))
            c.max_calls = max(int(getattr(c, "max_calls", 0)), base + self.calls)

    def used(self, clients: list[Any]) -> int:
        """Calls sent in this window, over every client."""
        return sum(max(0, int(c.usage.calls) - self.bases.get(id(c), 0)) for c in clients)

    def resets_in(self, now: float) -> float:
        """Seconds until the window turns (0 when no window is open)."""
        return 0.0 if self.started is None else max(0.0, self.started + self.window_s - now)


def llm_clients(st: ServiceState) -> list[Any]:
    """The chat clients behind the service's LLM judges (those with a call counter and a
    ``max_calls`` cap)."""
    out = []
    for judge in st.judges():
        chat = getattr(judge, "chat", None)
        if chat is not None and hasattr(chat, "max_calls") and hasattr(chat, "usage"):
            out.append(chat)
    return out


def budget_state(st: ServiceState) -> dict[str, Any] | None:
    """The LLM budget as ``/healthz`` shows it (None: no LLM judge)."""
    b = st.budget
    clients = llm_clients(st)
    if b is None or not clients:
        return None
    now = time.monotonic()
    with st.lock:
        b.roll(clients, now)
        used = b.used(clients)
    return {
        "calls_per_window": b.calls,
        "window_s": b.window_s,
        "used": used,
        "remaining": max(0, b.calls - used),
        "resets_in_s": round(b.resets_in(now), 1),
        "exhausted": used >= b.calls,
        "refused": b.refused,
    }


@dataclass
class ServiceState:
    """What one worker process holds: governors (one per policy) sharing one store."""

    settings: ServiceSettings
    config: Config
    keys: frozenset[str]
    metrics: ServiceMetrics
    governor: Any = None
    _strict: Any = None
    in_flight: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)
    http: Any = None
    """httpx.AsyncClient to the proxy's upstream (None without ``upstream_base_url``)."""
    secrets: tuple[str, ...] = ()
    """The upstream key and its encodings (scrubbed from what the upstream sends back)."""
    budget: LlmBudget | None = None
    """The per-window LLM budget (None: no LLM judge configured)."""
    warm_s: float | None = None
    """Seconds the start-up warm-up took (None: not warmed)."""

    def governor_for(self, policy: str) -> Any:
        """The governor for ``policy`` (the strict one shares the store and retriever)."""
        if policy != "strict" or self.config.strict:
            return self.governor
        with self.lock:
            if self._strict is None:
                g = self.governor
                self._strict = type(g)(
                    self.config.model_copy(update={"strict": True}),
                    store=g.store,
                    retriever=g.retriever,
                )
            return self._strict

    def judges(self) -> tuple[Any, ...]:
        return tuple(
            g.__dict__["judge"]
            for g in (self.governor, self._strict)
            if g is not None and "judge" in g.__dict__
        )


def scrub_credentials(text: str, secrets: tuple[str, ...] = ()) -> str:
    """``text`` with credentials replaced by ``***``: each of ``secrets`` (the configured key
    and its encodings, :func:`governor.clients.chat.secret_variants`) and anything shaped like
    one (:data:`governor.text.regexes.CREDENTIAL_RE`: bearer values, ``sk-`` keys, key-named
    fields).

    Source: issue 23 — an upstream that echoes the ``Authorization`` header leaked the key.
    """
    from governor.text.regexes import CREDENTIAL_RE

    for variant in secrets:
        if variant and variant in text:
            text = text.replace(variant, "***")
    return CREDENTIAL_RE.sub(lambda m: (m.group("scheme") or m.group("field") or "") + "***", text)


def state_of(request: Request) -> ServiceState:
    st: ServiceState = request.app.state.citegov
    return st


# ---------------------------------------------------------------------------------------------
# Middleware and dependencies


class BodyLimit:
    """ASGI middleware: 413 for a request body over ``limit`` bytes (by ``Content-Length``, or
    counted while reading a chunked body, which is then replayed to the app)."""

    def __init__(self, app: ASGIApp, limit: int, on_reject: Callable[[], None]) -> None:
        self.app = app
        self.limit = limit
        self.on_reject = on_reject

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in ("POST", "PUT", "PATCH"):
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.limit:
            await self._reject(scope, receive, send, int(declared))
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if size > self.limit:
                await self._reject(scope, receive, send, size)
                return
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _reject(self, scope: Scope, receive: Receive, send: Send, size: int) -> None:
        self.on_reject()
        msg = (
            f"request body of {size:,} bytes is over the limit of {self.limit:,} bytes; "
            "send a smaller draft or raise max_body_bytes"
        )
        response = JSONResponse(status_code=413, content=error_body(msg, "request_too_large"))
        await response(scope, receive, send)


def error_body(message: str, code: str) -> dict[str, Any]:
    """``{"detail": ..., "error": {...}}``: FastAPI's shape and OpenAI's, so both clients read it."""
    return {"detail": message, "error": {"message": message, "type": code, "code": code}}


_bearer = HTTPBearer(auto_error=False)


def require_key(
    request: Request, creds: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]
) -> None:
    """401 unless the request carries one of the configured bearer keys (none configured:
    open, the service being bound to loopback)."""
    st = state_of(request)
    if not st.keys:
        return
    given = creds.credentials if creds is not None else ""
    if not any(hmac.compare_digest(given.encode(), k.encode()) for k in st.keys):
        st.metrics.rejected.labels("auth").inc()
        raise HTTPException(
            401,
            "missing bearer key" if creds is None else "invalid bearer key",
            headers={"WWW-Authenticate": "Bearer"},
        )


async def admit(request: Request) -> AsyncIterator[None]:
    """Admission control: at most ``max_concurrency`` requests governing at once; the next
    gets 429 with ``Retry-After`` (seconds) at once instead of queueing."""
    st = state_of(request)
    with st.lock:
        if st.in_flight >= st.settings.max_concurrency:
            busy = True
        else:
            busy = False
            st.in_flight += 1
    if busy:
        st.metrics.rejected.labels("busy").inc()
        raise HTTPException(
            429,
            f"busy: {st.settings.max_concurrency} requests are being governed; retry after "
            f"{st.settings.retry_after_s} s",
            headers={"Retry-After": str(st.settings.retry_after_s)},
        )
    budget = budget_state(st)
    if budget is not None and budget["exhausted"]:
        with st.lock:
            st.in_flight -= 1
        assert st.budget is not None
        st.budget.refused += 1
        st.metrics.rejected.labels("llm_budget").inc()
        wait = max(1, math.ceil(budget["resets_in_s"]))
        raise HTTPException(
            429,
            {
                "message": f"LLM call budget exhausted: {budget['used']} of "
                f"{budget['calls_per_window']} calls per {budget['window_s']:g} s used in "
                f"this worker; retry after {wait} s or raise llm_calls_per_window",
                "code": "llm_budget_exhausted",
            },
            headers={"Retry-After": str(wait)},
        )
    st.metrics.in_flight.inc()
    try:
        yield
    finally:
        with st.lock:
            st.in_flight -= 1
        st.metrics.in_flight.dec()


# ---------------------------------------------------------------------------------------------
# Governing one draft (runs in a worker thread)


def decode_request(req: DraftRequest, max_chars: int) -> Draft:
    """The request's draft as a :class:`Draft` (``sha256`` over the bytes as sent).

    Raises:
        EncodingError: bad base64, or bytes no supported encoding decodes.
        InputTooLargeError: more than ``max_chars`` characters.
    """
    if req.draft_base64 is not None:
        try:
            data = base64.b64decode(req.draft_base64, validate=True)
        except (binascii.Error, ValueError):
            raise EncodingError(
                "draft_base64: not valid base64; encode the file's bytes with base64"
            ) from None
        text, enc = decode_bytes(data, source="draft_base64")
        draft = Draft(path=None, text=text, encoding=enc, sha256=hashlib.sha256(data).hexdigest())
    else:
        draft = draft_from_text(req.draft or "")
    if draft.chars > max_chars:
        raise InputTooLargeError(
            f"draft of {draft.chars:,} characters is over the limit of {max_chars:,}; "
            "split the draft or raise max_chars"
        )
    return draft


def run_draft(st: ServiceState, req: DraftRequest, *, revise: bool) -> tuple[str, VerdictReport]:
    """Verify (``revise=False``) or govern one draft: ``(output text, SPEC §2 report)``.

    Raises:
        GovernorError: bad input (encoding, size, citation count) or a backend failure.
    """
    from governor.reports.json_report import build_report
    from governor.text.dates import detect_as_of

    gov = st.governor_for(req.policy)
    draft = decode_request(req, min(st.settings.max_chars, gov.config.max_chars))
    n = len(gov.extract(draft.text))
    if n > st.settings.max_citations:
        raise InputTooLargeError(
            f"draft holds {n} citations, over the limit of {st.settings.max_citations}; "
            "split the draft or raise max_citations"
        )
    when = req.as_of or gov.config.as_of or detect_as_of(draft.text)
    warnings = ["empty draft: no citations"] if not draft.text.strip() else []
    if not revise:
        verdicts = gov.verify(draft.text, as_of=when, context=req.context)
        report = build_report(
            draft,
            as_of=when,
            strategy="none",
            judge=gov.judge.name,
            initial=verdicts,
            warnings=warnings,
            horizon=gov.store.horizon,
        )
        st.metrics.citations.inc(len(verdicts))
        _check_budget(st, verdicts)
        return draft.text, report
    strategy = req.strategy or gov.config.strategy
    result = gov.govern(draft.text, strategy=strategy, as_of=when, context=req.context)
    report = build_report(
        draft,
        as_of=when,
        strategy=strategy,
        judge=gov.judge.name,
        initial=result.initial_verdicts,
        result=result,
        warnings=warnings,
        horizon=gov.store.horizon,
    )
    st.metrics.citations.inc(len(result.initial_verdicts))
    _check_budget(st, (*result.initial_verdicts, *result.final_verdicts))
    return result.text, report


def _check_budget(st: ServiceState, verdicts: Any) -> None:
    """Raise when the LLM budget ran out during this request and left verdicts ``unknown``
    (a degraded answer is not returned as if judged).

    Raises:
        BudgetExceededError: naming the count and when the window turns.
    """
    budget = budget_state(st)
    if budget is None or not budget["exhausted"]:
        return
    labels = [(v.existence.label, v.fidelity.label, v.applicability.label) for v in verdicts]
    unknown = sum("unknown" in ls for ls in labels)
    if unknown:
        exc = BudgetExceededError(
            f"LLM call budget exhausted during this request ({budget['used']} of "
            f"{budget['calls_per_window']} calls per {budget['window_s']:g} s): {unknown} "
            f"verdict(s) could not be judged; retry after {math.ceil(budget['resets_in_s'])} s "
            "or raise llm_calls_per_window"
        )
        exc.retry_after_s = max(1, math.ceil(budget["resets_in_s"]))  # type: ignore[attr-defined]
        raise exc


def http_error(exc: GovernorError) -> HTTPException:
    """The HTTP status of a citegov error: 413 too large, 503 the LLM budget ran out (with a
    reason), 502 endpoint, 422 other bad input."""
    if isinstance(exc, InputTooLargeError):
        return HTTPException(413, str(exc))
    if isinstance(exc, BudgetExceededError):
        wait = str(getattr(exc, "retry_after_s", "") or 60)
        return HTTPException(
            503,
            {"message": str(exc), "code": "llm_budget_exhausted"},
            headers={"Retry-After": wait},
        )
    if isinstance(exc, FATAL_ENDPOINT_ERRORS) or exc.code.value in (
        "endpoint",
        "unreachable",
        "budget",
        "judge",
    ):
        return HTTPException(502, str(exc))
    return HTTPException(422, str(exc))


async def in_thread(fn: Callable[[], Any]) -> Any:
    """Run blocking governance in a worker thread (the event loop keeps serving)."""
    return await anyio.to_thread.run_sync(fn)


def lookup_provision(gov: Any, ref: str, as_of: date | None) -> ProvisionResponse:
    """Resolve ``ref`` (one citation, with or without 《》) to the provision's versions.

    Raises:
        HTTPException: 422 when ``ref`` holds no article citation (or several), or words after
            the citation that are not a valid pin (``第0项``); 404 when the instrument,
            article or 款 is not in the store (a repealed instrument says so).
    """
    store = gov.store
    found = [c for c in gov.extract(ref) if c.instrument and c.article]
    if len(found) != 1:
        raise HTTPException(
            422,
            f"{ref!r}: expected one citation of an article (e.g. 民法典第五百八十五条第二款), "
            f"found {len(found)}",
        )
    c = found[0]
    assert c.instrument is not None and c.article is not None
    rest = ref[c.span.end :].strip(" \t\r\n。，,;；)）")
    if rest:  # a pin the grammar could not read (第0项, 第二款第〇项): not silently dropped
        raise HTTPException(
            422,
            f"{ref!r}: could not read {rest!r} after {c.raw!r}; a pin is 第N款 / 第N项 with N "
            "from 1 (e.g. 民法典第五百八十五条第二款)",
        )
    inst = store.instrument(c.instrument)
    if inst is None:
        rec = store.repeal_record(c.instrument)
        extra = (
            f"; it was repealed on {rec.repealed_on} (successor: {rec.successor or 'none'})"
            if rec is not None
            else ""
        )
        raise HTTPException(404, f"{c.instrument}: not in the authority store{extra}")

    def text_of(article: Any) -> str | None:
        if article is None:
            return None
        if c.paragraph is None:
            return str(article.text)
        if not 1 <= c.paragraph <= len(article.paragraphs):
            return None
        para = article.paragraphs[c.paragraph - 1]
        if c.item is None:
            return str(para.full_text)
        return str(para.items[c.item - 1]) if 1 <= c.item <= len(para.items) else None

    last = inst.versions[-1].version if inst.versions else None
    versions = tuple(
        ProvisionVersion(
            version=v.version,
            in_force_from=v.in_force_from,
            # the last version of a repealed instrument ends on its repeal
            in_force_to=v.in_force_to or (inst.repealed_on if v.version == last else None),
            text=text_of(store.article(c.instrument, c.article, version_hint=v.version)),
        )
        for v in inst.versions
    )
    status = "in_force"
    if as_of is None:
        current = store.version(c.instrument)
        if inst.repealed_on is not None and inst.repealed_on <= date.today():
            status = "repealed"
    else:
        status, current = store.in_force_on(c.instrument, as_of)
    cur_text = (
        text_of(store.article(c.instrument, c.article, version_hint=current.version))
        if current is not None
        else None
    )
    if all(v.text is None for v in versions):
        raise HTTPException(
            404,
            f"{c.instrument} has no article {c.article}"
            + (f" 第{c.paragraph}款" if c.paragraph else "")
            + " in any version in the store",
        )
    if (
        as_of is not None
        and status == "in_force"
        and cur_text is None
        and current is not None
        and current.in_force_from is not None
        and any(
            v.text is not None and v.in_force_from is not None and v.in_force_from > as_of
            for v in versions
        )
    ):
        # the article was added by a later amendment (刑法第一百三十三条之一 before 2011-05-01):
        # it did not exist yet on as_of — the same reading as verify's not_found (issue 24)
        status, current = "not_yet_in_force", None
    return ProvisionResponse(
        ref=ref,
        instrument=c.instrument,
        article=c.article,
        paragraph=c.paragraph,
        item=c.item,
        level=str(inst.level),
        as_of=as_of,
        in_force=current.version if current is not None and status == "in_force" else None,
        status=status,
        text=cur_text,
        repealed_on=inst.repealed_on,
        successor=inst.successor,
        versions=versions,
    )
