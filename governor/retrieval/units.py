"""Index units: what the semantic index embeds, one per article (and optionally per 款), with
the metadata that selects a version by date (layer 2).

Shared by the chromadb index (:func:`governor.retrieval.hybrid.build_index`) and the prebuilt
vectors (:mod:`governor.retrieval.prebuilt`), so both name and cut provisions the same way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Protocol

from governor.core.records import Instrument, InstrumentVersion

__all__ = [
    "EMBED_MAX_CHARS",
    "OPEN_END",
    "PARA_SEP",
    "IndexUnit",
    "UnitSource",
    "index_units",
    "yyyymmdd",
]

OPEN_END = 99_991_231
"""``vto`` of a version still in force (yyyymmdd integers keep chromadb filters numeric)."""
PARA_SEP = "¶"
"""Separates an article key from a 款 number in unit ids (``<key>¶2``); never in titles."""
EMBED_MAX_CHARS = 256
"""Texts are cut to this many characters before embedding. USE's cost is linear in tokens;
about 5% of articles are longer, their opening carries the rule, and on the LawBench 3-2 set a
256 cap scored like 512 (within-instrument dense recall@1 0.448 both) for ~10% less build time."""


class UnitSource(Protocol):
    """The part of the authority store :func:`index_units` reads."""

    def titles(self) -> tuple[str, ...]: ...

    def instrument(self, title: str) -> Instrument | None: ...


def yyyymmdd(d: date | str | None) -> int | None:
    """``date(2023, 7, 1)`` or ``"2023-07-01"`` → ``20230701``; None → None."""
    if d is None:
        return None
    if isinstance(d, str):
        d = date.fromisoformat(d)
    return d.year * 10_000 + d.month * 100 + d.day


def _short_title(title: str) -> str:
    return title.removeprefix("中华人民共和国")


@dataclass(frozen=True)
class IndexUnit:
    """One vector of the semantic index: an article (or one 款 of a long article).

    ``id`` is the article key (``"<instrument>@<version>#<article>"``) or ``key¶N`` for 款 N;
    ``text`` is what gets embedded (the title without 中华人民共和国, a newline, the provision
    text; a chapter heading in front scored no better on LawBench 3-2 and costs tokens);
    ``meta`` the chromadb metadata (instrument, version, article, paragraph, vfrom, vto,
    latest).
    """

    id: str
    text: str
    meta: Mapping[str, Any] = field(default_factory=dict)


def _version_bounds(versions: Sequence[InstrumentVersion]) -> list[tuple[int, int]]:
    """``(vfrom, vto)`` per version mirroring the store's as-of rule (the last version that
    started on or before the date; the earliest one before them all).

    The first version covers everything before it (``vfrom = 0``); each later version starts
    at its in-force (else publication) date; a version ends where the next starts.
    """
    starts: list[int] = []
    for i, v in enumerate(versions):
        start = yyyymmdd(v.in_force_from or v.published)
        if i == 0:
            starts.append(0)
        else:
            starts.append(start if start is not None else starts[-1])
    ends = [*starts[1:], OPEN_END]
    return list(zip(starts, ends, strict=True))


def index_units(
    store: UnitSource,
    *,
    all_versions: bool = True,
    paragraph_min_chars: int | None = None,
    max_chars: int = EMBED_MAX_CHARS,
) -> list[IndexUnit]:
    """Every unit :func:`build_index` embeds, in store order.

    Args:
        store: the authority store.
        all_versions: also index superseded versions (as-of retrieval); when False only the
            latest version of each instrument.
        paragraph_min_chars: when set, articles longer than this with two or more 款 also get
            one unit per 款 (retrieval maps them back to the article).
        max_chars: cut embedded texts to this many characters.

    Returns:
        the units (ids unique).
    """
    units: list[IndexUnit] = []
    for title in store.titles():
        inst = store.instrument(title)
        if inst is None or not inst.versions:
            continue
        versions = list(inst.versions)
        bounds = _version_bounds(versions)
        last = len(versions) - 1
        chosen = range(len(versions)) if all_versions else [last]
        short = _short_title(title)
        for vi in chosen:
            version = versions[vi]
            vfrom, vto = bounds[vi]
            for rec in version.articles:
                meta = {
                    "instrument": title,
                    "version": version.version,
                    "article": rec.article,
                    "paragraph": 0,
                    "vfrom": vfrom,
                    "vto": vto,
                    "latest": vi == last,
                }
                units.append(IndexUnit(rec.key, f"{short}\n{rec.text}"[:max_chars], meta))
                if (
                    paragraph_min_chars is not None
                    and len(rec.paragraphs) > 1
                    and len(rec.text) > paragraph_min_chars
                ):
                    for pi, para in enumerate(rec.paragraphs, start=1):
                        units.append(
                            IndexUnit(
                                f"{rec.key}{PARA_SEP}{pi}",
                                f"{short}\n{para.full_text}"[:max_chars],
                                {**meta, "paragraph": pi},
                            )
                        )
    return units
