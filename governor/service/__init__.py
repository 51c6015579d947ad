"""citegov as a service: an HTTP API (FastAPI), an OpenAI-compatible governing proxy and an MCP
server. Layer 8, a composition root: only the CLI commands that start them import this package.
Needs the ``serve`` / ``mcp`` extras (``pip install 'citegov[serve,mcp]'``).
"""
