"""Fake servers and small fakes for tests (never shipped in the package)."""
