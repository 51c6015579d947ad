"""Shared by the LexEval 3_2-form tests: the one article citation a 3_2 candidate's report
text yields, verified with a real store (:func:`benchmarks.bench_judgment.text_32`)."""

from __future__ import annotations

from datetime import date

from benchmarks.bench_judgment import text_32
from governor.api import Governor
from governor.core.models import Verdict


def verdict_32(gov: Governor, facts: str, option: str, as_of: date) -> Verdict:
    """The verdict of the single article citation in ``option``'s report text for ``facts``.

    Raises AssertionError when the option names no article or yields other than one."""
    text = text_32(facts, option)
    assert text is not None
    vs = [v for v in gov.verify(text, as_of=as_of) if v.citation.article]
    assert len(vs) == 1
    return vs[0]
