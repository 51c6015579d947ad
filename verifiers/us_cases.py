"""Existence of US reporter citations through a :class:`~governor.core.ports.CaseLookup`.

Rule (issue #3): a citation exists when its volume/reporter/page resolve to a case whose name
matches the name the report gives. A case whose name matches but whose volume/page belong to
another case, or whose volume/page exist but name another case, is ``not_found`` (L1.1.1). A
lookup that could not be made (no lookup configured, endpoint down) is ``unverifiable``.
Short forms (Id., supra) inherit the outcome of the citation they resolve to.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date

from governor.core.labels import score_for
from governor.core.models import Authority, CheckResult, Citation
from governor.core.ports import CaseLookup
from verifiers.existence import ExistenceOutcome

_STOP = frozenset(
    {"v", "vs", "the", "of", "and", "in", "re", "ex", "rel", "inc", "co", "corp", "llc",
     "ltd", "state", "united", "states", "people", "commonwealth", "et", "al", "a", "an"}
)  # fmt: skip


def _words(name: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]+", name.lower()) if w not in _STOP and len(w) > 1}


def names_match(cited: str, found: str) -> bool:
    """True when the cited case name and a found name share a significant party word.

    Both names are lower-cased, split into words, and stripped of procedural words (v., In
    re, Inc., State, United States …); one shared remaining word suffices, so short forms
    ("Obergefell") match full captions ("James Obergefell, et al. v. Richard Hodges").
    """
    return bool(_words(cited) & _words(found))


def _result(label: str, why: str, strict: bool) -> CheckResult:
    return CheckResult(
        axis="existence",
        label=label,
        score=score_for("existence", label, strict=strict),
        rationale=why,
    )


def check_us_cases(
    citations: Sequence[Citation],
    lookup: CaseLookup | None,
    *,
    strict: bool = False,
    as_of: date | None = None,
) -> dict[str, ExistenceOutcome]:
    """Existence outcomes for every ``us_case`` citation (by citation id), one batched lookup.

    Statutes (``us_statute``) and citations without volume/reporter/page are left out (the
    caller labels them unverifiable). Short forms with an ``antecedent`` copy its outcome.
    """
    full = [
        c for c in citations
        if c.kind == "us_case" and c.antecedent is None and c.us is not None
        and c.us.volume and c.us.reporter and c.us.page
    ]  # fmt: skip
    out: dict[str, ExistenceOutcome] = {}
    if as_of is not None:
        future = [
            c
            for c in full
            if c.us and c.us.year and c.us.year.isdigit() and int(c.us.year) > as_of.year
        ]
        for c in future:
            out[c.id] = ExistenceOutcome(
                _result(
                    "not_found",
                    f"dated {c.us.year if c.us else '?'}, after the report's as-of date {as_of.isoformat()}",
                    strict,
                ),
                codes=("L1.1.1",),
            )
        full = [c for c in full if c.id not in out]
    if lookup is None:
        results: list[list[str] | None] = [None] * len(full)
    else:
        triples = [(c.us.volume or "", c.us.reporter or "", c.us.page or "") for c in full if c.us]
        results = lookup.lookup(triples) if triples else []
    for c, names in zip(full, results, strict=True):
        assert c.us is not None
        cite = f"{c.us.volume} {c.us.reporter} {c.us.page}"
        cited_name = c.us.case_name or " ".join(filter(None, (c.us.plaintiff, c.us.defendant)))
        if names is None:
            why = (
                "no case lookup configured (set courtlistener_url and COURTLISTENER_TOKEN, "
                "or case_store)"
                if lookup is None
                else "the configured case lookup failed (endpoint down or refused); retry later"
            )
            out[c.id] = ExistenceOutcome(
                _result("unverifiable", f"{cite}: could not be looked up: {why}", strict),
                gap="us_case_no_lookup" if lookup is None else "us_case_lookup_down",
            )
        elif not names:
            out[c.id] = ExistenceOutcome(
                _result("not_found", f"{cite}: no case at this volume and page", strict),
                codes=("L1.1.1",),
            )
        elif cited_name and not any(names_match(cited_name, n) for n in names):
            out[c.id] = ExistenceOutcome(
                _result(
                    "not_found",
                    f"{cite} is {names[0]}, not {cited_name} (name and reporter citation disagree)",
                    strict,
                ),
                codes=("L1.1.1",),
            )
        else:
            out[c.id] = ExistenceOutcome(
                _result("exists", f"{cite}: {names[0]}", strict),
                authority=Authority(id=cite, instrument=names[0], level="案例", text=""),
            )
    by_id = {c.id: c for c in citations}
    for c in citations:
        if c.kind == "us_case" and c.antecedent is not None:
            root = c
            while root.antecedent is not None and root.antecedent in by_id:
                root = by_id[root.antecedent]
            if root.id in out:
                out[c.id] = out[root.id]
    return out
