"""The statute text a test case relies on, checked in the store (shared by the fidelity tests)."""

from __future__ import annotations

from datetime import date

from governor.api import Governor

DEV_AS_OF = date(2023, 7, 1)
"""The date dev LawBench answers are read as of (their questions predate it)."""


def checked_text(gov: Governor, inst: str, art: str, words: str, as_of: date = DEV_AS_OF) -> str:
    """The text of ``inst`` article ``art`` on ``as_of``; fails the test unless it holds
    ``words`` (so a case cannot pass on a store that lacks the rule it relies on)."""
    rec = gov.store.article(inst, art, as_of=as_of)
    assert rec is not None and words in rec.text, (inst, art)
    return rec.text
