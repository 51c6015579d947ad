"""``citegov serve`` (the HTTP service and governing proxy) and ``citegov mcp`` (MCP, stdio).

Layer 8: the only importer of :mod:`governor.service`. Each command checks its extra is
installed first and says how to install it when not.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from typing import Annotated, Any

import typer

from governor.cli.common import ConfigOpt, err, fail
from governor.core.errors import GovernorError

SERVE_MISSING = "citegov serve needs the serve extra: pip install 'citegov[serve]'"
MCP_MISSING = "citegov mcp needs the mcp extra: pip install 'citegov[mcp]'"


def register(app: typer.Typer) -> None:
    """Add the commands of this module to ``app``."""
    app.command()(serve)
    app.command(name="mcp")(mcp_command)


def _need(modules: tuple[str, ...], message: str) -> None:
    if any(importlib.util.find_spec(m) is None for m in modules):
        raise fail(message)


def serve(
    host: Annotated[
        str | None,
        typer.Option("--host", help="Address to bind (default 127.0.0.1; others need keys)."),
    ] = None,
    port: Annotated[int | None, typer.Option("--port", help="TCP port (default 8000).")] = None,
    workers: Annotated[
        int | None,
        typer.Option("--workers", help="uvicorn worker processes, each loading the store."),
    ] = None,
    upstream: Annotated[
        str | None,
        typer.Option(
            "--upstream",
            help="OpenAI-compatible base URL the /v1/chat/completions proxy forwards to.",
        ),
    ] = None,
    upstream_model: Annotated[
        str | None, typer.Option("--upstream-model", help="Model sent upstream by default.")
    ] = None,
    on_error: Annotated[
        str | None,
        typer.Option("--on-error", help="Proxy on governance failure: fail (502) or pass."),
    ] = None,
    max_concurrency: Annotated[
        int | None,
        typer.Option("--max-concurrency", help="Drafts governed at once per worker (429 above)."),
    ] = None,
    service_config: Annotated[
        Path | None,
        typer.Option("--service-config", help="TOML with a [service] table (limits, upstream)."),
    ] = None,
    config: ConfigOpt = None,
) -> None:
    """Serve citegov over HTTP: /v1/verify, /v1/govern, /v1/provisions/{ref}, the
    OpenAI-compatible proxy /v1/chat/completions, /healthz, /metrics (OpenAPI at /docs).

    Bearer keys come from $CITEGOV_API_KEYS (comma-separated); without keys only 127.0.0.1
    may be bound. SIGTERM or Ctrl-C drain in-flight requests before exiting.
    """
    _need(("fastapi", "uvicorn", "prometheus_client"), SERVE_MISSING)
    import uvicorn

    from governor.core.config import load_config
    from governor.service.serving import TimedH11Protocol
    from governor.service.settings import api_keys, check_binding, load_service_settings

    try:
        settings = load_service_settings(
            service_config,
            {
                "host": host,
                "port": port,
                "workers": workers,
                "upstream_base_url": upstream,
                "upstream_model": upstream_model,
                "on_error": on_error,
                "max_concurrency": max_concurrency,
            },
        )
        check_binding(settings, api_keys(settings))
        cfg = load_config(config)
    except GovernorError as exc:
        raise fail(str(exc)) from None
    if settings.upstream_base_url:
        from governor.clients.chat import check_base_url

        try:
            check_base_url(settings.upstream_base_url)
        except GovernorError as exc:
            raise fail(f"--upstream: {exc}") from None
    os.environ["CITEGOV_SERVICE_SETTINGS_JSON"] = settings.model_dump_json()
    os.environ["CITEGOV_SERVICE_CONFIG_JSON"] = cfg.model_dump_json()
    err.print(
        f"citegov serve: http://{settings.host}:{settings.port} "
        f"({settings.workers} worker(s); docs at /docs)",
        highlight=False,
    )
    uvicorn.run(
        "governor.service.app:app_from_env",
        factory=True,
        host=settings.host,
        port=settings.port,
        workers=settings.workers,
        timeout_graceful_shutdown=int(settings.graceful_shutdown_s),
        timeout_keep_alive=max(1, round(settings.keep_alive_s)),
        http=TimedH11Protocol,
        log_level="info",
    )


def mcp_command(config: ConfigOpt = None) -> None:
    """Serve citegov's tools (verify_citations, lookup_provision, govern_draft) to agent
    applications over the Model Context Protocol, on stdio."""
    _need(("mcp",), MCP_MISSING)
    from governor.core.config import load_config
    from governor.service.mcp_server import build_mcp_server

    try:
        cfg = load_config(config)
    except GovernorError as exc:
        raise fail(str(exc)) from None
    server: Any = build_mcp_server(cfg)
    server.run("stdio")
