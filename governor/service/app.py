"""The governing service: a FastAPI app (``citegov serve``).

Layer 8, a composition root like :mod:`governor.cli` (only the CLI command that starts it
imports it). Routes, all JSON unless said:

* ``POST /v1/verify`` — body :class:`DraftRequest`; response: the SPEC §2 report, byte for
  byte what ``citegov verify --json`` prints for the same text (``strategy`` ``none``).
* ``POST /v1/govern`` — same body; response :class:`GovernResponse`: the governed ``text``
  and ``report``, the SPEC §2 report (``rounds`` and ``final`` included) as in
  ``<name>.verdicts.json``.
* ``GET /v1/provisions/{ref}`` — a provision by its citation text (「民法典第五百八十五条第二款」):
  the text of every version, the one in force on ``as_of``.
* ``POST /v1/chat/completions`` and ``GET /v1/models`` — the OpenAI-compatible governing proxy
  (:mod:`governor.service.proxy`).
* ``GET /healthz`` (no auth; 503 until the store is loaded and warmed up, ``degraded`` with a
  ``reason`` while the LLM budget is used up) and ``GET /metrics`` (Prometheus text).

Limits (each refusal names the limit and what to do): bodies over ``max_body_bytes`` and drafts
over ``max_chars`` characters or ``max_citations`` citations get 413; more than
``max_concurrency`` requests governing at once get 429 with ``Retry-After``; a body that is not
the documented JSON (not UTF-8, not JSON, NaN) gets 422 naming the field; the LLM judge's calls
are budgeted per window (``llm_calls_per_window`` per ``llm_window_s``: 429 with the reason when
used up, 503 when a request ran it dry). Every error is a JSON body (:func:`error_body`), a crash
a JSON 500. With bearer keys configured every ``/v1`` route
and ``/metrics`` need ``Authorization: Bearer KEY`` (401 otherwise); without keys the service
only binds loopback (:func:`governor.service.settings.check_binding`).

The store, retriever and judge are loaded once per worker process, at start-up (lifespan), and
shared by the requests of that worker; governance runs in worker threads so the event loop
keeps answering ``/healthz`` and 429s while drafts are judged.
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from datetime import date
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from governor import __version__
from governor.core.config import Config, load_config
from governor.core.errors import GovernorError
from governor.core.report import VerdictReport
from governor.service.governing import (
    BodyLimit,
    DraftRequest,
    GovernResponse,
    LlmBudget,
    ProvisionResponse,
    ServiceState,
    admit,
    budget_state,
    error_body,
    http_error,
    in_thread,
    llm_clients,
    lookup_provision,
    require_key,
    run_draft,
)
from governor.service.metrics import CONTENT_TYPE, ServiceMetrics
from governor.service.proxy import register_proxy
from governor.service.settings import ServiceSettings, api_keys

log = logging.getLogger("citegov.service")

# ---------------------------------------------------------------------------------------------
# The app


def create_app(
    settings: ServiceSettings | None = None,
    config: Config | None = None,
    *,
    governor: Any = None,
    environ: dict[str, str] | None = None,
) -> FastAPI:
    """Build the service app.

    Args:
        settings: service settings (default: :class:`ServiceSettings` defaults).
        config: citegov run config (default: :func:`load_config`).
        governor: an already-built :class:`governor.api.Governor` to serve (tests, embedding in
            another app); default: one built from ``config`` at start-up, store loaded once.
        environ: environment for bearer and upstream keys (default ``os.environ``).

    Returns:
        The FastAPI app; its OpenAPI schema is at ``/openapi.json``, docs at ``/docs``.
    """
    s = settings or ServiceSettings()
    cfg = config or (governor.config if governor is not None else load_config())
    env = dict(os.environ if environ is None else environ)
    keys = api_keys(s, env)
    st = ServiceState(settings=s, config=cfg, keys=keys, metrics=ServiceMetrics(lambda: ()))
    st.metrics = ServiceMetrics(st.judges)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        import httpx

        if st.governor is None:
            from governor.api import Governor

            gov = governor if governor is not None else Governor(cfg)
            await in_thread(lambda: gov.judge)  # load store, retriever, judge once, now
            if s.warm_up and hasattr(gov, "warm_up"):
                # before the port answers: /healthz is ready only when a draft is fast
                st.warm_s = await in_thread(gov.warm_up)
            st.governor = gov
        if llm_clients(st):
            st.budget = LlmBudget(
                calls=s.llm_calls_per_window or cfg.llm_max_calls, window_s=s.llm_window_s
            )
        if not keys:
            log.warning(
                "no bearer keys in $%s: the service is open to anyone who can reach %s",
                s.api_keys_env,
                s.host,
            )
        if s.upstream_base_url:
            from governor.clients.chat import secret_variants

            upstream_key = env.get(s.upstream_api_key_env, "")
            # the raw key too when it is shorter than secret_variants' minimum (but not a
            # one-letter placeholder, which would blank every such letter of the body)
            raw = (upstream_key,) if len(upstream_key) >= 6 else ()
            st.secrets = tuple(dict.fromkeys((*secret_variants(upstream_key), *raw)))
            st.http = httpx.AsyncClient(
                base_url=s.upstream_base_url.rstrip("/"),
                timeout=httpx.Timeout(
                    s.upstream_timeout_s, connect=min(10.0, s.upstream_timeout_s)
                ),
                headers={"Authorization": f"Bearer {upstream_key}"} if upstream_key else {},
            )
        try:
            yield
        finally:
            if st.http is not None:
                await st.http.aclose()

    app = FastAPI(
        title="citegov",
        version=__version__,
        description="Citation governance for LLM-written legal research reports: verify "
        "(Existence / Fidelity / Applicability), govern, look up provisions; an "
        "OpenAI-compatible governing proxy at /v1/chat/completions.",
        lifespan=lifespan,
    )
    app.state.citegov = st
    app.add_middleware(
        BodyLimit,
        limit=s.max_body_bytes,
        on_reject=lambda: st.metrics.rejected.labels("too_large").inc(),
    )

    @app.middleware("http")
    async def measure(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        t0 = time.perf_counter()
        response = await call_next(request)
        route = request.scope.get("route")
        name = getattr(route, "path", "unmatched")
        st.metrics.requests.labels(name, str(response.status_code)).inc()
        st.metrics.latency.labels(name).observe(time.perf_counter() - t0)
        return response

    @app.exception_handler(StarletteHTTPException)
    async def http_exception(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 400 and "parsing the body" in str(exc.detail):
            # Starlette's answer to a body it cannot decode (bytes that are not UTF-8): the
            # documented code for a body that is not the documented JSON is 422
            msg = "body: not valid JSON (not UTF-8 text); send a UTF-8 JSON object"
            return JSONResponse(status_code=422, content=error_body(msg, "invalid_request"))
        code = {
            401: "unauthorized",
            404: "not_found",
            413: "request_too_large",
            422: "invalid_request",
            503: "unavailable",
        }.get(exc.status_code, "rate_limited" if exc.status_code == 429 else "error")
        if isinstance(exc.detail, dict):  # a reasoned refusal: {"message", "code"}
            code = str(exc.detail.get("code", code))
            message = str(exc.detail.get("message", ""))
        else:
            message = str(exc.detail)
        return JSONResponse(
            status_code=exc.status_code,
            content=error_body(message, code),
            headers=exc.headers,
        )

    @app.exception_handler(Exception)
    async def crash(_: Request, exc: Exception) -> JSONResponse:
        # never a plain-text 500: the client gets the JSON error shape (issue 23)
        log.exception("unhandled error")
        msg = f"internal error ({type(exc).__name__}); the server log has the traceback"
        return JSONResponse(status_code=500, content=error_body(msg, "internal_error"))

    @app.exception_handler(RequestValidationError)
    async def invalid_body(_: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        first = errors[0] if errors else {}
        if first.get("type") == "json_invalid":
            loc = first.get("loc", ())
            msg = f"body: not valid JSON (error at character {loc[-1] if loc else '?'})"
        else:
            where = ".".join(str(x) for x in first.get("loc", ()) if x != "body") or "body"
            msg = f"{where}: {first.get('msg', 'invalid request')}"
        body = error_body(msg, "invalid_request")
        # loc/msg/type only: the offending input may be anything (NaN, bytes) and is the
        # client's own; echoing it made the 422 itself fail as a plain-text 500 (issue 23)
        body["detail"] = [
            {"type": str(e.get("type", "")), "loc": [str(x) for x in e.get("loc", ())],
             "msg": str(e.get("msg", ""))}
            for e in errors
        ]  # fmt: skip
        return JSONResponse(status_code=422, content=body)

    auth = [Depends(require_key)]

    @app.get("/healthz", tags=["ops"])
    async def healthz() -> JSONResponse:
        """Liveness and readiness: ``ready`` once the store is loaded and warmed up (503
        before); ``status`` ``degraded`` with a ``reason`` while the LLM budget is used up."""
        gov = st.governor
        budget = budget_state(st)
        status, reason = ("ok", None) if gov is not None else ("starting", "loading the store")
        if budget is not None and budget["exhausted"]:
            status = "degraded"
            reason = (
                f"LLM call budget exhausted ({budget['used']} of {budget['calls_per_window']} "
                f"per {budget['window_s']:g} s); resets in {budget['resets_in_s']:g} s"
            )
        body = {
            "status": status,
            "ready": gov is not None,
            "reason": reason,
            "version": __version__,
            "store": gov.store.build_id if gov is not None else None,
            "warm_s": None if st.warm_s is None else round(st.warm_s, 3),
            "in_flight": st.in_flight,
            "llm_budget": budget,
        }
        return JSONResponse(body, status_code=200 if gov is not None else 503)

    @app.get("/metrics", tags=["ops"], dependencies=auth, response_class=Response)
    async def metrics() -> Response:
        """Prometheus text: requests and latency by route, citations judged, LLM calls and
        the LLM budget left."""
        budget = budget_state(st)
        st.metrics.llm_budget_remaining.set(-1 if budget is None else budget["remaining"])
        st.metrics.llm_budget_exhausted.set(1 if budget is not None and budget["exhausted"] else 0)
        return Response(st.metrics.render(), media_type=CONTENT_TYPE)

    @app.post(
        "/v1/verify",
        tags=["govern"],
        dependencies=[*auth, Depends(admit)],
        response_model=VerdictReport,
        responses={413: {"description": "draft too large"}, 429: {"description": "busy"}},
    )
    async def verify(req: DraftRequest) -> Response:
        """Verify every citation of a draft (no revision): the SPEC §2 report."""
        try:
            _, report = await in_thread(lambda: run_draft(st, req, revise=False))
        except GovernorError as exc:
            raise http_error(exc) from None
        return Response(report.model_dump_json(), media_type="application/json")

    @app.post(
        "/v1/govern",
        tags=["govern"],
        dependencies=[*auth, Depends(admit)],
        response_model=GovernResponse,
        responses={413: {"description": "draft too large"}, 429: {"description": "busy"}},
    )
    async def govern(req: DraftRequest) -> Response:
        """Verify and revise a draft with ``strategy``: the governed text and its report."""
        try:
            text, report = await in_thread(lambda: run_draft(st, req, revise=True))
        except GovernorError as exc:
            raise http_error(exc) from None
        body = '{"text":' + json.dumps(text, ensure_ascii=False) + ',"report":'
        return Response(body + report.model_dump_json() + "}", media_type="application/json")

    @app.get(
        "/v1/provisions/{ref}",
        tags=["authorities"],
        dependencies=auth,
        response_model=ProvisionResponse,
        responses={404: {"description": "no such provision in the store"}},
    )
    async def provision(
        ref: str,
        as_of: Annotated[
            date | None, Query(description="Date whose in-force version is wanted.")
        ] = None,
    ) -> ProvisionResponse:
        """A provision by citation text, e.g. 「民法典第五百八十五条第二款」: every version."""
        return await in_thread(lambda: lookup_provision(st.governor, ref, as_of))

    register_proxy(app, st, auth)
    return app


def app_from_env() -> FastAPI:
    """uvicorn factory for ``--workers N``: settings and config come as JSON in
    ``CITEGOV_SERVICE_SETTINGS_JSON`` and ``CITEGOV_SERVICE_CONFIG_JSON`` (set by
    ``citegov serve``), so every worker process builds the same app and loads its own store."""
    raw_s = os.environ.get("CITEGOV_SERVICE_SETTINGS_JSON")
    raw_c = os.environ.get("CITEGOV_SERVICE_CONFIG_JSON")
    settings = ServiceSettings.model_validate_json(raw_s) if raw_s else ServiceSettings()
    config = Config.model_validate_json(raw_c) if raw_c else load_config()
    return create_app(settings, config)
