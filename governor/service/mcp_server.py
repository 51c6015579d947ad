"""citegov as a Model Context Protocol server (``citegov mcp``, stdio), on the official ``mcp``
SDK (2.x, ``MCPServer``).

Layer 8. Tools, each returning one compact JSON text (no indentation: an agent's context is
the budget — issue 23 measured 120,868 characters of indented JSON for a 3,400-character memo):

* ``verify_citations(draft, as_of?, context?, policy?, detail?)`` — the compact summary of the
  draft's verdicts (:func:`governor.reports.json_report.compact_report`: trust, all-pass and
  "n of m verified", gaps, one line per failing citation); ``detail="citations"`` adds one row
  per citation, failing first; ``detail="full"`` the SPEC §2 report (the same JSON as
  ``POST /v1/verify`` and ``citegov verify --json``);
* ``lookup_provision(ref, as_of?)`` — a provision by citation text (「民法典第五百八十五条第二款」),
  every version (as ``GET /v1/provisions/{ref}``);
* ``govern_draft(draft, strategy?, as_of?, context?, policy?, detail?)`` — ``{"text",
  "citegov"}``: the governed text and the compact summary (edits included); ``detail`` as
  above (``full``: ``{"text", "report"}`` as ``POST /v1/govern``).

The server reports the installed package's version (``importlib.metadata``).

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
from mcp.types import CallToolResult, TextContent

from governor.core.config import Config, load_config
from governor.core.errors import GovernorError
from governor.reports.json_report import Detail, compact_report
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

    server: MCPServer = MCPServer("citegov", instructions=INSTRUCTIONS, version=_version())

    def run(req: DraftRequest, revise: bool) -> tuple[str, Any]:
        try:
            return run_draft(ready(), req, revise=revise)
        except GovernorError as exc:
            raise ToolError(str(exc)) from None

    @server.tool()
    def verify_citations(
        draft: str,
        as_of: date | None = None,
        context: str = "",
        policy: Literal["default", "strict"] = "default",
        detail: Detail = "summary",
    ) -> CallToolResult:
        """Verify every legal citation of a draft (no revision).

        Returns compact JSON: trust, all_pass, "n of m verified", coverage gaps and one line
        per failing citation (its existence/fidelity/applicability labels and why).
        detail="citations" adds every citation (failing first); detail="full" adds the whole
        citegov verdict report.
        """
        req = DraftRequest(draft=draft, as_of=as_of, context=context, policy=policy)
        report = run(req, revise=False)[1]
        if detail == "full":
            return _answer(report.model_dump(mode="json"))
        return _answer(compact_report(report, detail=detail))

    @server.tool()
    def govern_draft(
        draft: str,
        strategy: Literal["none", "existence", "efa"] = "efa",
        as_of: date | None = None,
        context: str = "",
        policy: Literal["default", "strict"] = "default",
        detail: Detail = "summary",
    ) -> CallToolResult:
        """Verify and revise a draft's citations. Returns compact JSON {"text": the governed
        draft, "citegov": trust before/after, gaps, failing citations, one line per edit};
        detail="citations" adds every citation, detail="full" returns {"text", "report"}
        with the whole citegov verdict report."""
        req = DraftRequest(
            draft=draft, strategy=strategy, as_of=as_of, context=context, policy=policy
        )
        text, report = run(req, revise=True)
        if detail == "full":
            return _answer({"text": text, "report": report.model_dump(mode="json")})
        return _answer({"text": text, "citegov": compact_report(report, detail=detail)})

    @server.tool(name="lookup_provision")
    def lookup_provision_tool(ref: str, as_of: date | None = None) -> CallToolResult:
        """Look up a provision by citation text, e.g. 民法典第五百八十五条第二款: its text in
        every version and the version in force on as_of."""
        from fastapi import HTTPException

        try:
            found = lookup_provision(ready().governor, ref, as_of)
        except HTTPException as exc:
            raise ToolError(str(exc.detail)) from None
        return _answer(found.model_dump(mode="json"))

    return server


def _answer(obj: Any) -> CallToolResult:
    """One compact JSON text block (no indentation; the SDK's default indents and repeats the
    result as structured content, doubling the answer)."""
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    return CallToolResult(content=[TextContent(type="text", text=text)])


def _version() -> str:
    """The installed citegov's version (package metadata), else :data:`governor.__version__`."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("citegov")
    except PackageNotFoundError:
        from governor import __version__

        return __version__
