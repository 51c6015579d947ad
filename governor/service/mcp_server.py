"""citegov as a Model Context Protocol server (``citegov mcp``, stdio), on the official ``mcp``
SDK (2.x, ``MCPServer``).

Layer 8. Tools, each returning structured JSON:

* ``verify_citations(draft, as_of?, context?, policy?)`` — the SPEC §2 report of the draft
  (the same JSON as ``POST /v1/verify`` and ``citegov verify --json``);
* ``lookup_provision(ref, as_of?)`` — a provision by citation text (「民法典第五百八十五条第二款」),
  every version (as ``GET /v1/provisions/{ref}``);
* ``govern_draft(draft, strategy?, as_of?, context?, policy?)`` — ``{"text", "report"}`` as
  ``POST /v1/govern``.

The governor (store, retriever, judge) is built once, at the first call, and shared by the
calls. A bad draft or an unknown provision is a tool error (``ToolError``) carrying the
service's message, which reaches the client; anything else is a crash the SDK hides.
Needs ``pip install 'citegov[mcp]'``.
"""

from __future__ import annotations

import json
import threading
from datetime import date
from typing import Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from governor.core.config import Config, load_config
from governor.core.errors import GovernorError
from governor.service.governing import (
    DraftRequest,
    ServiceState,
    lookup_provision,
    run_draft,
)
from governor.service.metrics import ServiceMetrics
from governor.service.settings import ServiceSettings

INSTRUCTIONS = (
    "citegov checks the legal citations of a Chinese (or US) legal research report against a "
    "bundled authority store: existence, fidelity, applicability. Use verify_citations to "
    "judge a draft, govern_draft to get a corrected draft, lookup_provision to read a "
    "provision's text."
)


def build_mcp_server(
    config: Config | None = None,
    *,
    governor: Any = None,
    settings: ServiceSettings | None = None,
) -> MCPServer:
    """The MCP server with citegov's three tools.

    Args:
        config: run config (default :func:`load_config`).
        governor: an already-built :class:`governor.api.Governor` (default: one from ``config``,
            built at the first tool call).
        settings: limits (``max_chars``, ``max_citations``) as for the HTTP service.
    """
    cfg = config or (governor.config if governor is not None else load_config())
    st = ServiceState(
        settings=settings or ServiceSettings(),
        config=cfg,
        keys=frozenset(),
        metrics=ServiceMetrics(),
        governor=governor,
    )
    lock = threading.Lock()

    def ready() -> ServiceState:
        with lock:
            if st.governor is None:
                from governor.api import Governor

                st.governor = Governor(cfg)
        return st

    server: MCPServer = MCPServer("citegov", instructions=INSTRUCTIONS)

    def run(req: DraftRequest, revise: bool) -> tuple[str, dict[str, Any]]:
        try:
            text, report = run_draft(ready(), req, revise=revise)
        except GovernorError as exc:
            raise ToolError(str(exc)) from None
        return text, json.loads(report.model_dump_json())

    @server.tool()
    def verify_citations(
        draft: str,
        as_of: date | None = None,
        context: str = "",
        policy: Literal["default", "strict"] = "default",
    ) -> dict[str, Any]:
        """Verify every legal citation of a draft (no revision).

        Returns the citegov verdict report: each citation's existence, fidelity and
        applicability labels and scores, item trust, taxonomy codes, and the report's trust.
        """
        req = DraftRequest(draft=draft, as_of=as_of, context=context, policy=policy)
        return run(req, revise=False)[1]

    @server.tool()
    def govern_draft(
        draft: str,
        strategy: Literal["none", "existence", "efa"] = "efa",
        as_of: date | None = None,
        context: str = "",
        policy: Literal["default", "strict"] = "default",
    ) -> dict[str, Any]:
        """Verify and revise a draft's citations; returns {"text": governed draft, "report"}."""
        req = DraftRequest(
            draft=draft, strategy=strategy, as_of=as_of, context=context, policy=policy
        )
        text, report = run(req, revise=True)
        return {"text": text, "report": report}

    @server.tool(name="lookup_provision")
    def lookup_provision_tool(ref: str, as_of: date | None = None) -> dict[str, Any]:
        """Look up a provision by citation text, e.g. 民法典第五百八十五条第二款: its text in
        every version and the version in force on as_of."""
        from fastapi import HTTPException

        try:
            found = lookup_provision(ready().governor, ref, as_of)
        except HTTPException as exc:
            raise ToolError(str(exc.detail)) from None
        result: dict[str, Any] = json.loads(found.model_dump_json())
        return result

    return server
