"""LexAgentHallu taxonomy codes (Layer 1 and L2.1.5) plus citegov's STALE (SPEC §3).

Codes are attached by the checks that detect them; this module holds their meanings, their
layer (for HF/HD profiles) and the merge rule.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from governor.core.models import TaxonomyCode

MEANING: Final[dict[str, str]] = {
    "L1.1.1": "source fabrication (the authority does not exist)",
    "L1.1.2": "citation–content misapplication (real source, wrong content or wrong use)",
    "L1.1.3": "hierarchy error (rank/territory/department of the source confused)",
    "L1.1.4": "granularity error (right instrument and article, wrong 款/项)",
    "L1.2.2": "element misstatement (wrong numbers, amounts or modality)",
    "L1.2.3": "exception omission (a decisive 但书 dropped)",
    "L1.3.2": "period error (wrong deadline or limitation period)",
    "L2.1.5": "out-of-context quoting",
    "STALE": "repealed or superseded authority cited as current",
}
ORDER: Final[tuple[str, ...]] = tuple(MEANING)


def layer_of(code: str) -> str:
    """Layer key of a code: ``"L1.1.4"`` → ``"L1.1"``; ``"STALE"`` → ``"STALE"``."""
    return code if code == "STALE" else ".".join(code.split(".")[:2])


def merge(*groups: Iterable[TaxonomyCode]) -> tuple[TaxonomyCode, ...]:
    """Union of code groups, deduplicated, in the canonical order of :data:`ORDER`."""
    seen = {c for g in groups for c in g}
    return tuple(c for c in ORDER if c in seen)  # type: ignore[misc,unused-ignore]
