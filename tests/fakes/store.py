"""A small in-memory stand-in for ``AuthorityStore`` (the retrieval-facing methods only).

Instruments are given as ``{title: [(version, in_force_from, {article: [款 text, ...]}), ...]}``
(versions oldest first). ``search`` scores articles by shared character bigrams (a crude
BM25 stand-in) over the version selected with the store's rule: the last version in force on
or before ``as_of`` (the earliest if ``as_of`` precedes all; the latest when None).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date

from governor.core.records import (
    ArticleRecord,
    Instrument,
    InstrumentVersion,
    ParagraphRecord,
)

VersionSpec = tuple[str, str | None, Mapping[str, Sequence[str]]]


def _bigrams(text: str) -> set[str]:
    return {text[i : i + 2] for i in range(len(text) - 1)}


class FakeStore:
    """Retrieval-facing fake of the authority store (see module doc)."""

    def __init__(
        self, instruments: Mapping[str, Sequence[VersionSpec]], build_id: str = "fake-build-1"
    ) -> None:
        self.build_id = build_id
        self._inst: dict[str, Instrument] = {}
        for title, versions in instruments.items():
            vrecs = []
            for version, start, arts in versions:
                records = tuple(
                    ArticleRecord(
                        instrument=title,
                        version=version,
                        article=a,
                        ordinal=i,
                        path=("第一章 总则",),
                        paragraphs=tuple(ParagraphRecord(text=t) for t in paras),
                    )
                    for i, (a, paras) in enumerate(arts.items())
                )
                vrecs.append(
                    InstrumentVersion(
                        instrument=title,
                        version=version,
                        in_force_from=date.fromisoformat(start) if start else None,
                        articles=records,
                    )
                )
            self._inst[title] = Instrument(title=title, level="法律", versions=tuple(vrecs))

    def titles(self) -> tuple[str, ...]:
        return tuple(self._inst)

    def instrument(self, title: str) -> Instrument | None:
        return self._inst.get(title)

    def resolve_instrument(self, name: str) -> str | None:
        for title in self._inst:
            if name in (title, title.removeprefix("中华人民共和国")):
                return title
        return None

    def version(
        self, title: str, *, as_of: date | None = None, version_hint: str | None = None
    ) -> InstrumentVersion | None:
        inst = self._inst.get(title)
        if inst is None or not inst.versions:
            return None
        if as_of is None:
            return inst.versions[-1]
        best = None
        for v in inst.versions:
            if v.in_force_from is None or v.in_force_from <= as_of:
                best = v
        return best or inst.versions[0]

    def get(self, key: str) -> ArticleRecord | None:
        head, _, art = key.rpartition("#")
        title, _, vid = head.rpartition("@")
        inst = self._inst.get(title)
        for v in inst.versions if inst else ():
            if v.version == vid:
                return next((a for a in v.articles if a.article == art), None)
        return None

    def search(
        self, query: str, *, instrument: str | None = None, as_of: date | None = None, k: int = 10
    ) -> list[tuple[ArticleRecord, float]]:
        titles = [instrument] if instrument else list(self._inst)
        q = _bigrams(query)
        scored = []
        for t in titles:
            v = self.version(t, as_of=as_of)
            for a in v.articles if v else ():
                s = len(q & _bigrams(a.text))
                if s:
                    scored.append((a, float(s)))
        scored.sort(key=lambda x: -x[1])
        return scored[:k]
