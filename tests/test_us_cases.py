"""US reporter citations: existence through a CaseLookup (issue #3 rule)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import date
from pathlib import Path

import pytest

from governor.api import Governor
from governor.clients.courtlistener import LocalCaseStore
from verifiers.us_cases import names_match
from verifiers.verify import Verifier

TEXT = (
    "In Obergefell v. Hodges, 576 U.S. 644, 675 (2015), the Court held so. Id. at 681. "
    "See Brown v. Board of Education, 347 U.S. 484 (1954); Roe v. Wade, 347 U.S. 483 (1973); "
    "42 U.S.C. § 1983."
)
CASES = [
    {"volume": "576", "reporter": "U.S.", "page": "644", "case_name": "Obergefell v. Hodges"},
    {
        "volume": "347",
        "reporter": "U.S.",
        "page": "483",
        "case_name": "Brown v. Board of Education",
    },
]


class Recording:
    def __init__(self, inner: LocalCaseStore) -> None:
        self.inner, self.calls = inner, 0

    def lookup(self, cites: Sequence[tuple[str, str, str]]) -> list[list[str] | None]:
        self.calls += 1
        return self.inner.lookup(cites)


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor()


def test_local_case_store_decides_existence(gov: Governor, tmp_path: Path) -> None:
    p = tmp_path / "cases.jsonl"
    p.write_text("".join(json.dumps(c) + "\n" for c in CASES), encoding="utf-8")
    lookup = Recording(LocalCaseStore(p))
    v = Verifier(gov.store, gov.retriever, gov.judge, case_lookup=lookup)
    got = {
        x.citation.raw: x.existence.label
        for x in v.verify(gov.extract(TEXT), as_of=date(2026, 1, 1))
    }
    assert got["Obergefell v. Hodges, 576 U.S. 644, 675 (2015)"] == "exists"
    assert got["Id. at 681"] == "exists"  # short form inherits its antecedent
    assert got["Brown v. Board of Education, 347 U.S. 484 (1954)"] == "not_found"  # wrong page
    assert got["Roe v. Wade, 347 U.S. 483 (1973)"] == "not_found"  # page belongs to another case
    assert got["42 U.S.C. § 1983"] == "unverifiable"
    assert lookup.calls == 1  # one batched lookup per report


def test_without_lookup_us_cases_are_unverifiable_and_excluded(gov: Governor) -> None:
    vs = gov.verify(TEXT, as_of=date(2026, 1, 1))
    assert {v.existence.label for v in vs} == {"unverifiable"}
    assert all(v.excluded for v in vs)


@pytest.mark.parametrize(
    "cited,found,ok",
    [
        ("Obergefell v. Hodges", "James Obergefell, et al. v. Richard Hodges, Director", True),
        ("Roe v. Wade", "Brown v. Board of Education", False),
        ("United States v. Nixon", "United States v. Nixon", True),
        ("United States v. Nixon", "United States v. Lopez", False),
    ],
)
def test_names_match(cited: str, found: str, ok: bool) -> None:
    assert names_match(cited, found) is ok
