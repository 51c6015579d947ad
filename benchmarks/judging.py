"""Offline coverage and support judges: the inputs of :func:`benchmarks.metrics.report_metrics`.

Layer 6. Everything here reads the text a strategy produced (the governed output, not the
draft) and its verdicts, and returns one :class:`~benchmarks.metrics.RubricJudgement` per
rubric item and one :class:`~benchmarks.metrics.SubtopicJudgement` per subtopic. Every
judgement carries the name of the judge that made it.

Sections (which part of the report answers which subtopic), judge ``headings``: the report
is cut at heading lines (Markdown ``#``, ``一、``, ``（一）``, ``**…**`` lines); a heading belongs
to the subtopic whose title shares the most of its content bigrams with it (at least
:data:`HEADING_MATCH`). A task with one subtopic, or a report none of whose headings matches
a subtopic, is judged on the whole text (judge ``whole-text``); a subtopic no heading matches
then gets the whole text too, so a report without structure is not punished twice.

Coverage (``covered``), judge ``lexical``: the share of the rubric item's content character
bigrams (function characters dropped, :func:`verifiers.textsim.containment`) found in its
subtopic's section, scaled so that :data:`FULL_COVERAGE` of them counts as fully covered:
``min(1, share / FULL_COVERAGE)``. With an :class:`~governor.core.ports.Embedder` (judge
``hybrid:<embedder name>``) it is the larger of that and the best cosine between the item and
a sentence of the section, mapped linearly from [:data:`COS_FLOOR`, :data:`COS_FULL`] to
[0, 1].

Support (``backed``), judge ``cited-authority``: the share of the item's evidence points
whose authority — same instrument and article, 款/项 ignored — is cited anywhere in the
report (a citation a strategy repaired to point at the evidence article counts; a removed one
does not). An item without evidence points is backed when its section cites at least one
authority that exists. Subtopic support (``cites``): the number of citations in the section
whose existence is not ``not_found`` (a fabricated authority cites nothing).

Source of the definitions: SPEC §4 (LegalCiteTrust Cov/Sup); the thresholds are stated
choices, not fitted to any answers.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from benchmarks.tasks import EvidencePoint, Task
from governor.authorities import AuthorityStore
from governor.citations.extract import parse_pin
from governor.core.models import Span, Verdict
from governor.core.ports import Embedder
from governor.text.regexes import REPORT_HEADING_RE
from verifiers.coverage import (
    FULL_COVERAGE,
    RubricJudgement,
    SubtopicJudgement,
    lexical_coverage,
)
from verifiers.textsim import containment

HEADING_MATCH = 0.5
"""Share of a subtopic title's bigrams a heading must contain to belong to it."""
COS_FLOOR = 0.5
"""Cosine at or below which a sentence says nothing of the rubric item (hybrid judge)."""
COS_FULL = 0.85
"""Cosine from which a sentence restates the rubric item (hybrid judge)."""

_SENTENCE = re.compile(r"[^。！？!?\n]+[。！？!?]?")


@dataclass(frozen=True)
class Sections:
    """The report's sections per subtopic id (spans into the judged text) and the judge name."""

    spans: dict[str, tuple[Span, ...]]
    judge: str

    def text_of(self, text: str, subtopic_id: str | None) -> str:
        """The concatenated section text of a subtopic; the whole text for ``None``/unknown."""
        spans = self.spans.get(subtopic_id or "")
        if not spans:
            return text
        return "\n".join(s.slice(text) for s in spans)

    def holds(self, subtopic_id: str, span: Span) -> bool:
        """True when ``span`` starts inside one of the subtopic's sections."""
        return any(s.start <= span.start < s.end for s in self.spans.get(subtopic_id, ()))


def split_sections(task: Task, text: str) -> Sections:
    """Assign spans of ``text`` to the task's subtopics (rules in the module docstring).

    Args:
        task: The task (its subtopic ids and titles).
        text: The report text (after the strategy).

    Returns:
        :class:`Sections`: every subtopic id has at least one span.
    """
    whole = (Span(start=0, end=len(text)),)
    if len(task.subtopics) == 1:
        return Sections({task.subtopics[0].id: whole}, "whole-text")
    heads = list(REPORT_HEADING_RE.finditer(text))
    owner: list[str | None] = []
    for m in heads:
        heading = next(g for g in m.groups() if g)
        best, best_sim = None, HEADING_MATCH
        for sub in task.subtopics:
            sim = containment(sub.title, heading)
            if sim >= best_sim and (best is None or sim > best_sim):
                best, best_sim = sub.id, sim
        owner.append(best)
    spans: dict[str, list[Span]] = {s.id: [] for s in task.subtopics}
    for i, (m, sid) in enumerate(zip(heads, owner, strict=True)):
        if sid is None:
            continue
        end = heads[i + 1].start() if i + 1 < len(heads) else len(text)
        spans[sid].append(Span(start=m.start(), end=end))
    if not any(spans.values()):
        return Sections({s.id: whole for s in task.subtopics}, "whole-text")
    return Sections({k: tuple(v) if v else whole for k, v in spans.items()}, "headings")


def _pin_key(store: AuthorityStore, authority: str) -> tuple[str, str | None] | None:
    """``(canonical instrument, article or None)`` of an evidence point's authority string."""
    cit = parse_pin(authority, store)
    if cit is not None and cit.instrument:
        return cit.instrument, cit.article
    title = store.resolve_instrument(authority.strip().strip("《》"))
    return (title, None) if title else None


def backed_share(
    store: AuthorityStore, evidence: Sequence[EvidencePoint], verdicts: Sequence[Verdict]
) -> float | None:
    """Share of ``evidence`` whose authority (instrument + article) some citation cites.

    Returns:
        A share in [0, 1], or ``None`` when there is no evidence point.
    """
    if not evidence:
        return None
    cited = {(v.citation.instrument, v.citation.article) for v in verdicts}
    cited_instruments = {v.citation.instrument for v in verdicts}
    hits = 0
    for ev in evidence:
        key = _pin_key(store, ev.authority)
        if key is None:
            continue
        if (key[1] is None and key[0] in cited_instruments) or key in cited:
            hits += 1
    return hits / len(evidence)


class CoverageJudge:
    """Judges coverage and support of a report against a task (offline).

    Args:
        store: Resolves evidence authorities (``《X》第N条``) to instrument + article.
        embedder: Optional; turns the ``lexical`` coverage judge into ``hybrid:<name>``.
    """

    def __init__(self, store: AuthorityStore, embedder: Embedder | None = None) -> None:
        self.store = store
        self.embedder = embedder
        self.coverage_name = f"hybrid:{embedder.name}" if embedder is not None else "lexical"

    def _semantic(self, item: str, section: str) -> float:
        assert self.embedder is not None
        sents = [s.strip() for s in _SENTENCE.findall(section) if len(s.strip()) >= 4]
        if not sents:
            return 0.0
        vecs = self.embedder.embed([item, *sents])
        cos = float(np.max(vecs[1:] @ vecs[0]))
        return min(1.0, max(0.0, (cos - COS_FLOOR) / (COS_FULL - COS_FLOOR)))

    def covered(self, item: str, section: str) -> float:
        """Coverage of one rubric item by a section, in [0, 1] (module docstring)."""
        lexical = lexical_coverage(item, section)
        if self.embedder is None or lexical >= 1.0:
            return lexical
        return max(lexical, self._semantic(item, section))

    def judge(
        self, task: Task, text: str, verdicts: Sequence[Verdict]
    ) -> tuple[tuple[RubricJudgement, ...], tuple[SubtopicJudgement, ...]]:
        """Judgements of one report.

        Args:
            task: The task (rubric items, evidence, subtopics).
            text: The report as the strategy left it.
            verdicts: Verdicts on ``text``'s citations (spans index ``text``).

        Returns:
            ``(rubric judgements in rubric order, subtopic judgements in subtopic order)``.
        """
        sections = split_sections(task, text)
        existing = [v for v in verdicts if v.existence.label != "not_found"]
        rubric = []
        for item in task.rubric:
            section = sections.text_of(text, item.subtopic_id)
            share = backed_share(self.store, item.evidence, verdicts)
            if share is None:
                sid = item.subtopic_id
                local = [v for v in existing if sid is None or sections.holds(sid, v.citation.span)]
                share = 1.0 if local else 0.0
            rubric.append(
                RubricJudgement(
                    item_id=item.id,
                    covered=self.covered(item.text, section),
                    backed=share,
                    judge=f"{self.coverage_name}+cited-authority",
                )
            )
        subtopics = tuple(
            SubtopicJudgement(
                subtopic_id=s.id,
                cites=sum(1 for v in existing if sections.holds(s.id, v.citation.span)),
                judge=sections.judge,
            )
            for s in task.subtopics
        )
        return tuple(rubric), subtopics


__all__ = [
    "COS_FLOOR",
    "COS_FULL",
    "FULL_COVERAGE",
    "HEADING_MATCH",
    "CoverageJudge",
    "Sections",
    "backed_share",
    "split_sections",
]
