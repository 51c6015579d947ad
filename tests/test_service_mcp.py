"""The MCP server (issue #17): an in-process client of the official SDK lists the three tools
and calls each; a bad call is a tool error with citegov's message."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from mcp import Client

from governor.api import Governor
from governor.service.mcp_server import build_mcp_server
from governor.service.settings import ServiceSettings
from tests.test_service import AS_OF, WRONG_PERIOD


@pytest.fixture(scope="module")
def gov() -> Governor:
    g = Governor()
    _ = g.judge
    return g


def _payload(result: Any) -> Any:
    if result.structured_content is not None:
        return result.structured_content
    return json.loads(result.content[0].text)


async def _session(gov: Governor) -> dict[str, Any]:
    server = build_mcp_server(governor=gov, settings=ServiceSettings(max_citations=3))
    out: dict[str, Any] = {}
    async with Client(server) as client:
        out["tools"] = sorted(t.name for t in (await client.list_tools()).tools)
        out["verify"] = await client.call_tool(
            "verify_citations", {"draft": WRONG_PERIOD, "as_of": AS_OF, "detail": "full"}
        )
        out["govern"] = await client.call_tool(
            "govern_draft",
            {"draft": WRONG_PERIOD, "as_of": AS_OF, "strategy": "efa", "detail": "full"},
        )
        out["lookup"] = await client.call_tool(
            "lookup_provision", {"ref": "民法典第五百八十五条第二款"}
        )
        out["missing"] = await client.call_tool("lookup_provision", {"ref": "民法典第九千条"})
        too_many = "；".join(["《民法典》第五百七十七条"] * 4)
        out["too_many"] = await client.call_tool("verify_citations", {"draft": too_many})
    return out


def test_mcp_tools_listed_and_called(gov: Governor) -> None:
    out = asyncio.run(asyncio.wait_for(_session(gov), timeout=120))
    assert out["tools"] == ["govern_draft", "lookup_provision", "verify_citations"]
    verify = _payload(out["verify"])
    assert verify["citations"][0]["fidelity"]["label"] == "misdescribed"
    governed = _payload(out["govern"])
    assert "三年" in governed["text"] and governed["report"]["strategy"] == "efa"
    assert "约定的违约金低于造成的损失的" in _payload(out["lookup"])["text"]
    assert out["missing"].is_error and "9000" in out["missing"].content[0].text
    assert out["too_many"].is_error and "max_citations" in out["too_many"].content[0].text


async def _stdio_tools() -> list[str]:
    import os
    import sys
    from pathlib import Path

    from mcp import StdioServerParameters

    root = Path(__file__).resolve().parents[1]
    env = {k: v for k, v in os.environ.items() if not k.startswith("CITEGOV_")}
    env.update({"PYTHONPATH": str(root), "CITEGOV_CONFIG": ""})
    params = StdioServerParameters(
        command=sys.executable,
        args=["-c", "from governor.cli.app import main; main()", "mcp"],
        env=env,
    )
    async with Client(params) as client:
        result = await client.call_tool("lookup_provision", {"ref": "民法典第五百七十七条"})
        assert "违约责任" in _payload(result)["text"]
        return sorted(t.name for t in (await client.list_tools()).tools)


def test_citegov_mcp_over_stdio() -> None:
    tools = asyncio.run(asyncio.wait_for(_stdio_tools(), timeout=120))
    assert tools == ["govern_draft", "lookup_provision", "verify_citations"]
