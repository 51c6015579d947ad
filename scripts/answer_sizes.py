"""Answer sizes of the governing proxy and the MCP tools (issue 23 item 3: "answers too big for
their consumers").

What it runs: the scripted OpenAI-wire server of the tests (``tests/fakes/openai_server.py``)
answers a 176-character Chinese answer (three citations, one with a wrong limitation period);
the service (``governor.service.app.create_app``, under uvicorn on 127.0.0.1) governs it as the
proxy (``POST /v1/chat/completions``, strategy ``efa``) with each ``citegov.report`` detail. Then
the MCP server (in process, the official SDK's client) runs ``govern_draft`` on a
3,400-character memo (the example drafts in ``examples/drafts/``, joined and repeated, cut at
3,400 characters) with each ``detail``. Offline judge.

Reported: response bytes of the proxy per detail; characters of the MCP answer's text content
and of its structured content (the SDK repeats a dict result there) per detail.

Run: ``PYTHONPATH=. python scripts/answer_sizes.py`` (a script, not a benchmark module: it drives the
service, which only the CLI may import). Before this issue: proxy 36,428 bytes,
MCP 204,272 characters of indented text + 140,900 of structured content (same inputs).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
AS_OF = "2026-11-01"
ANSWER = (
    "关于诉讼时效：根据《民法典》第一百八十八条规定，向人民法院请求保护民事权利的诉讼时效期间为二年。"
    "另外，当事人一方不履行合同义务的，应当承担继续履行、采取补救措施或者赔偿损失等违约责任"
    "（《民法典》第五百七十七条）。约定的违约金过分高于造成的损失的，人民法院可以根据当事人的"
    "请求予以适当减少（《民法典》第五百八十五条第二款）。"
)
ANSWER = (ANSWER * 2)[:176]


def memo() -> str:
    """The 3,400-character memo (example drafts joined, repeated, cut)."""
    drafts = sorted((ROOT / "examples" / "drafts").glob("*.md"))
    return ("\n\n".join(p.read_text(encoding="utf-8") for p in drafts) * 2)[:3400]


def proxy_sizes(gov: Any) -> dict[str, int]:
    """Response bytes of the proxy for one governed answer, per ``citegov.report`` detail."""
    import httpx

    from governor.service.app import create_app
    from governor.service.settings import ServiceSettings
    from tests.fakes.openai_server import FakeOpenAIServer
    from tests.test_service import serving

    out = {}
    with FakeOpenAIServer(default=ANSWER) as up:
        s = ServiceSettings(upstream_base_url=up.base_url, upstream_model="m")
        with serving(create_app(s, governor=gov, environ={})) as url:
            for detail in ("summary", "citations", "full"):
                body = {
                    "messages": [{"role": "user", "content": "问题：诉讼时效期间是多久？"}],
                    "citegov": {"as_of": AS_OF, "strategy": "efa", "report": detail},
                }
                r = httpx.post(url + "/v1/chat/completions", json=body, timeout=120)
                r.raise_for_status()
                out[detail] = len(r.content)
    return out


async def mcp_sizes(gov: Any) -> dict[str, tuple[int, int]]:
    """(text characters, structured-content characters) of ``govern_draft`` per detail."""
    from mcp import Client

    from governor.service.mcp_server import build_mcp_server

    out = {}
    async with Client(build_mcp_server(governor=gov)) as client:
        for detail in ("summary", "citations", "full"):
            res = await client.call_tool(
                "govern_draft", {"draft": memo(), "as_of": AS_OF, "detail": detail}
            )
            sc = res.structured_content
            structured = len(json.dumps(sc, ensure_ascii=False)) if sc is not None else 0
            out[detail] = (len(res.content[0].text), structured)  # type: ignore[union-attr]
    return out


def main() -> None:
    from governor.api import Governor

    gov = Governor()
    _ = gov.judge
    print(f"proxy, {len(ANSWER)}-character answer: response bytes")
    for detail, n in proxy_sizes(gov).items():
        print(f"  report={detail}: {n:,}")
    print(f"MCP govern_draft, {len(memo()):,}-character memo: text + structured characters")
    for detail, (text, structured) in asyncio.run(mcp_sizes(gov)).items():
        print(f"  detail={detail}: {text:,} + {structured:,}")


if __name__ == "__main__":
    main()
