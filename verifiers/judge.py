"""The judge port for Fidelity and Applicability, and its data types (layer 3).

A judge receives a batch of :class:`JudgeItem` (a citation whose existence is established,
with the resolved source text) and returns one :class:`JudgeOutcome` per item. The offline
judge (``verifiers.offline``) is deterministic; the LLM judge (``verifiers.llm_judge``) calls an
OpenAI-compatible model. Both are injected (STYLE 4).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import date
from functools import cached_property
from typing import Protocol

from governor.core.labels import score_for
from governor.core.models import (
    Authority,
    Axis,
    CheckResult,
    Citation,
    Evidence,
    Suggestion,
    TaxonomyCode,
)
from governor.core.records import ArticleRecord
from verifiers.textsim import bigrams


@dataclass(frozen=True, eq=False)
class ListTexts:
    """The article texts of one list's members, in list order, built once per list and shared
    by the items of all its members (so a list of n citations costs O(n), not O(n²)).

    Attributes:
        texts: one article text per member (members whose article resolved), list order.
    """

    texts: tuple[str, ...]

    @cached_property
    def pool(self) -> str:
        """The texts joined by newlines: what a list's shared description is judged against
        (one string object, so the text caches of :mod:`verifiers.textsim` hit for every
        member after the first)."""
        return "\n".join(self.texts)

    @cached_property
    def starts(self) -> tuple[int, ...]:
        """Offset of each member's text in :attr:`pool` (characters)."""
        out, at = [], 0
        for t in self.texts:
            out.append(at)
            at += len(t) + 1
        return tuple(out)

    @cached_property
    def counts(self) -> Counter[str]:
        """How many members have each text (membership tests in O(1))."""
        return Counter(self.texts)

    @cached_property
    def bigram_counts(self) -> Counter[str]:
        """How many members' texts hold each content bigram (:func:`verifiers.textsim.bigrams`)."""
        out: Counter[str] = Counter()
        for t in self.texts:
            out.update(bigrams(t))
        return out


class Siblings(Sequence[str]):
    """The texts of the other members of a list (``texts`` without member ``own``): a view
    over the list's shared :class:`ListTexts`, O(1) to build and to test membership in.

    ``own`` is None for a member whose own text is not among ``texts`` (its article did not
    resolve): then every text is a sibling's.
    """

    __slots__ = ("list", "own")

    def __init__(self, texts: ListTexts, own: int | None) -> None:
        self.list = texts
        self.own = own

    def __len__(self) -> int:
        return len(self.list.texts) - (self.own is not None)

    def __getitem__(self, i: int) -> str:  # type: ignore[override]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        return self.list.texts[i + (self.own is not None and i >= self.own)]

    def __iter__(self) -> Iterator[str]:
        for j, t in enumerate(self.list.texts):
            if j != self.own:
                yield t

    def __contains__(self, text: object) -> bool:
        n = self.list.counts.get(text, 0) if isinstance(text, str) else 0
        return n - (self.own is not None and self.list.texts[self.own] == text) > 0

    def hold(self, bigram: str) -> bool:
        """True when some sibling's text holds ``bigram`` (O(1): :attr:`ListTexts.bigram_counts`)."""
        n = self.list.bigram_counts.get(bigram, 0)
        if self.own is not None and bigram in bigrams(self.list.texts[self.own]):
            n -= 1
        return n > 0

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Siblings):
            return tuple(self) == tuple(other)
        return isinstance(other, tuple) and tuple(self) == other

    def __hash__(self) -> int:  # as the tuple it equals (O(n); JudgeItems are rarely hashed)
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"Siblings({len(self)} texts)"


def list_pool(item: JudgeItem, own_text: str) -> tuple[str, int]:
    """The text a citation's description is judged against and where ``own_text`` (its
    article's text) starts in it: ``own_text`` alone for a citation outside a list; for a list
    member the texts of the whole list, and for a member built from :class:`Siblings` that one
    string shared by every member of the list.

    Returns:
        ``(pool, offset)``: ``pool[offset : offset + len(own_text)] == own_text``.
    """
    sib = item.sibling_texts
    if isinstance(sib, Siblings) and sib.own is not None and sib.list.texts[sib.own] == own_text:
        return sib.list.pool, sib.list.starts[sib.own]
    return "\n".join((own_text, *sib)), 0


@dataclass(frozen=True)
class JudgeItem:
    """One citation to judge.

    Attributes:
        citation: the citation as extracted.
        authority: the resolved provision (the cited 款/项 when it exists, else the article).
        record: the resolved article record (None for cases/document numbers).
        context: the task query or surrounding paragraph (used when the claim is empty).
        as_of: the report's as-of date (selects versions for suggestions).
        sibling_texts: the article texts of the other members of the citation's list (a
            :class:`Siblings` view from the verifier; any sequence of texts works): they are
            judged together with its own (:func:`list_pool`), so a list is judged as a whole.
    """

    citation: Citation
    authority: Authority
    record: ArticleRecord | None
    context: str = ""
    as_of: date | None = None
    sibling_texts: Sequence[str] = ()


@dataclass(frozen=True)
class AxisOutcome:
    """A check result with the taxonomy codes it implies and an optional better authority."""

    result: CheckResult
    codes: tuple[TaxonomyCode, ...] = ()
    suggestion: Suggestion | None = None


@dataclass(frozen=True)
class JudgeOutcome:
    """Fidelity and applicability outcomes of one item."""

    fidelity: AxisOutcome
    applicability: AxisOutcome


class Judge(Protocol):
    """Judges fidelity and applicability of a batch of items; ``name`` is recorded in verdicts."""

    name: str

    def judge(self, items: Sequence[JudgeItem]) -> list[JudgeOutcome]: ...


def judge_all(judge: Judge, docs: Sequence[Sequence[JudgeItem]]) -> list[list[JudgeOutcome]]:
    """Outcomes for the items of several documents: through the judge's ``judge_many`` when it
    has one (the LLM judge batches across documents), else ``judge`` per document (documents
    without items are not sent).

    Returns:
        per document, one outcome per item, in order.
    """
    many = getattr(judge, "judge_many", None)
    if many is not None and sum(1 for d in docs if d) > 1:
        return [list(o) for o in many(docs)]
    return [list(judge.judge(d)) if d else [] for d in docs]


def outcome(
    axis: Axis,
    label: str,
    rationale: str,
    *,
    codes: tuple[TaxonomyCode, ...] = (),
    evidence: tuple[Evidence, ...] = (),
    suggestion: Suggestion | None = None,
) -> AxisOutcome:
    """An :class:`AxisOutcome` whose score follows ``label`` by the SPEC §3 table."""
    return AxisOutcome(
        CheckResult(
            axis=axis,
            label=label,
            score=score_for(axis, label),
            rationale=rationale,
            evidence=evidence,
        ),
        codes=codes,
        suggestion=suggestion,
    )
