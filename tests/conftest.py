"""Shared pytest fixtures: fake endpoints on 127.0.0.1 and small fakes for the ports.

Keep each fixture small and documented; put servers in ``tests/fakes/``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.fakes.courtlistener_server import FakeCourtListener
from tests.fakes.embedder import HashEmbedder
from tests.fakes.openai_server import FakeOpenAIServer

FAKE_KEY = "sk-test-SECRET-0123456789abcdef"
"""API key used against fake endpoints; tests assert it never leaks."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A ``slow`` test is ``heavy`` too: ``-m "not heavy"`` (the quick local run) skips both;
    CI selects nothing and runs everything."""
    for item in items:
        if item.get_closest_marker("slow") is not None:
            item.add_marker(pytest.mark.heavy)


@pytest.fixture
def openai_server() -> Iterator[FakeOpenAIServer]:
    """A scripted OpenAI-compatible server (``.push(...)`` replies, ``.requests`` recorded)."""
    with FakeOpenAIServer() as server:
        yield server


@pytest.fixture
def fake_key_env() -> dict[str, str]:
    """An environment mapping holding :data:`FAKE_KEY` under ``OPENAI_API_KEY``."""
    return {"OPENAI_API_KEY": FAKE_KEY}


@pytest.fixture
def courtlistener_server() -> Iterator[FakeCourtListener]:
    """A fake CourtListener citation-lookup API (token ``FAKE_KEY``) with a few cases."""
    cases = {
        ("576", "U.S.", "644"): ["Obergefell v. Hodges"],
        ("347", "U.S.", "483"): ["Brown v. Board of Education"],
        ("1", "Haw.", "150"): ["Fell v. Parke"],
        ("1", "Hill", "150"): ["People v. Smith"],
    }
    with FakeCourtListener(cases, token=FAKE_KEY) as server:
        yield server


@pytest.fixture
def hash_embedder() -> HashEmbedder:
    """A deterministic 64-d bigram-hashing embedder (no model files)."""
    return HashEmbedder()
