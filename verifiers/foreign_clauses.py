"""Clauses of a restatement taken from another article of the same instrument (fresh review,
2026-12-03: the largest class of wrong citations passed silently).

Layer 3, pure. A report describes article N mostly in N's own words and adds one clause that N
does not hold but another article of the same instrument holds near-verbatim: 工伤保险条例第十四条
(what counts as 工伤) described as 「工伤职工在事故伤害发生之日或者被诊断、鉴定为职业病之日起1年内，
因工作原因受到事故伤害或者患职业病的，应当认定为工伤职工」 — the one-year period is 第十七条第二款's
(who may apply, and by when); 劳动合同法第二十二条 (服务期 违约金) given 「用人单位不得与劳动者约定由
劳动者承担违约金」, 第二十五条's rule. Word overlap with N stays at 0.5–0.7 and calls it faithful.

A lawyer reads the clause against the article cited and, when it is not there, finds where it
comes from. :func:`foreign_clauses` does the same, clause by clause (:func:`report_clauses`):
a clause is taken from another provision when

1. it has ``Thresholds.foreign_clause_min_chars`` content characters or more (a short clause —
   「因此」, 「应当依法处理」 — is the report's own connective or a commonplace);
2. the cited provision (the pool of a list's texts) holds at most
   ``Thresholds.foreign_clause_own_max`` of its bigrams and less than
   ``Thresholds.foreign_clause_verbatim_min`` of its characters in verbatim runs (the cited
   article's own words restated are never foreign; 劳动合同法第二十二条 shares 用人单位、劳动者、
   约定、违约金 with 第二十五条's clause, 0.6 of its bigrams, none of its phrasing), and the
   bigrams it lacks are ``Thresholds.foreign_clause_lacking_min`` or more;
3. one 款 of another article holds ``Thresholds.foreign_clause_held_min`` of its bigrams, and of the
   bigrams the cited provision lacks, and ``Thresholds.foreign_clause_verbatim_min`` of its
   characters in verbatim runs (:func:`~verifiers.textsim.verbatim_share`): near-verbatim;
4. the clause is specific: no more than ``Thresholds.foreign_clause_max_holders`` other articles
   of the instrument hold it so (a clause many articles share is the instrument's vocabulary);
5. the clause names no instrument or article itself (「根据《合同法》的规定」 is the report's
   caption), the other article is none the cited one refers to (「依照本法第三十八条规定」: its
   rule is part of the cited one's), and every number of the clause is that 款's (a clause whose figure the
   other 款 does not state is not its text) — while a clause whose numbers are all the cited
   article's own restates the cited article's figure in other words, and is not judged.

A clause no other 款 holds as a whole (condition 3 fails) is still another article's when its
core — the phrase the cited provision lacks (:func:`core_phrase`) — stands nearly verbatim in
exactly one other article that also holds the clause's bigrams (:func:`foreign_phrase`):
劳动合同法第十九条 given 「用人单位可以与劳动者协商一致解除劳动合同」, whose single words 解除、劳动合同
are the law's frame and whose phrase 协商一致解除 is 第三十六条's (issue 21, review 35).

Known gap: a clause that paraphrases another article (职业病防治法第三十六条 given 「按照国家规定定期对
劳动者进行职业健康检查」, 第三十五条's checks in other words: 0.3 verbatim) is not found; only
near-verbatim text is proof of whose the clause is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

from governor.core.config import DEFAULT_THRESHOLDS, Thresholds
from governor.core.records import ArticleRecord
from governor.text.numerals import to_chinese, to_int
from verifiers.facts import quantities
from verifiers.textsim import bigrams, containment, content_chars, verbatim_share

_CLAUSE_BREAK = re.compile(r"[，,；;。：:！？!?\n]")
"""Where a report's clause ends: the comma-level break of Chinese legal prose."""

_LEAD = re.compile(r"^(?:并且|并|且|然后|同时|而且|另外|此外|但是|但|即|或者|以及)")
"""Connectives a clause may open with: the report's, not the provision's words."""

_CROSS_REFERENCE = re.compile(
    r"第([零〇一二两三四五六七八九十百千0-9]+)条(?:之([一二三四五六七八九十]+))?"
)
"""An article the provision refers to (「本法第二十二条」, 「依照第十七条的规定」)."""


@dataclass(frozen=True)
class ForeignClause:
    """A report clause the cited provision does not hold and another 款 does.

    Attributes:
        clause: the report's words (as written, without a leading connective).
        article: the other article's key (``"17"``, ``"133之一"``).
        paragraph: the 1-based 款 of that article holding the clause, None when it has one.
        text: that 款's text.
        own: share of the clause's bigrams the cited provision holds, in [0, 1].
        held: share of the clause's bigrams the other 款 holds, in [0, 1].
    """

    clause: str
    article: str
    paragraph: int | None
    text: str
    own: float
    held: float


def report_clauses(words: str) -> tuple[str, ...]:
    """The clauses of ``words``, split at commas, semicolons, colons, full stops and line
    breaks, each without a leading connective (并/然后/同时/但…), empty ones dropped."""
    out: list[str] = []
    for part in _CLAUSE_BREAK.split(words):
        part = _LEAD.sub("", part.strip())
        if content_chars(part):
            out.append(part)
    return tuple(out)


def referenced_articles(text: str) -> frozenset[str]:
    """Article keys ``text`` refers to (「本法第二十二条」 → ``"22"``, 「第一百三十三条之一」 →
    ``"133之一"``); numerals that do not parse are skipped."""
    out: set[str] = set()
    for m in _CROSS_REFERENCE.finditer(text):
        try:
            n = to_int(m.group(1))
        except ValueError:
            continue
        out.add(f"{n}之{m.group(2)}" if m.group(2) else str(n))
    return frozenset(out)


def _numbers_agree(clause: str, text: str) -> bool:
    """True when every quantity of ``clause`` (value and unit) is one of ``text``'s."""
    theirs = {(q.value, q.unit) for q in quantities(text)}
    return all((q.value, q.unit) in theirs for q in quantities(clause))


def _holding(
    clause: str, lacking: frozenset[str], rec: ArticleRecord, th: Thresholds
) -> tuple[int | None, str, float] | None:
    """``(paragraph, text, held)`` of the 款 of ``rec`` that holds ``clause`` near-verbatim
    (condition 3 of the module docstring), the best-held one; None when none does."""
    best: tuple[int | None, str, float] | None = None
    several = len(rec.paragraphs) > 1
    for k, para in enumerate(rec.paragraphs, start=1):
        text = para.full_text
        held = containment(clause, text)
        if held < th.foreign_clause_held_min:
            continue
        if len(lacking & bigrams(text)) < th.foreign_clause_held_min * len(lacking):
            continue
        if verbatim_share(clause, text) < th.foreign_clause_verbatim_min:
            continue
        if best is None or held > best[2]:
            best = (k if several else None, text, held)
    return best


def foreign_clauses(
    words: str,
    cited: str,
    cited_article: str,
    candidates: Iterable[ArticleRecord],
    th: Thresholds = DEFAULT_THRESHOLDS,
) -> tuple[ForeignClause, ...]:
    """The clauses of ``words`` taken from another article (rules in the module docstring).

    Args:
        words: the report's words for the citation (its assertion or description).
        cited: the cited provision's text (a list's texts together).
        cited_article: the cited article's key; it and the articles ``cited`` refers to are
            never the other article.
        candidates: the articles of the cited instrument version (any order).
        th: ``foreign_clause_*`` thresholds.

    Returns:
        One :class:`ForeignClause` per foreign clause, in the report's order; empty when none.
    """
    pool = list(candidates)
    skip = {cited_article, *referenced_articles(cited)}
    own_bigrams = bigrams(cited)
    out: list[ForeignClause] = []
    for clause in report_clauses(words):
        short = len(content_chars(clause)) < th.foreign_clause_min_chars
        if short and len(content_chars(clause)) < th.foreign_phrase_clause_min_chars:
            continue
        if "《" in clause or _CROSS_REFERENCE.search(clause):
            continue  # the report's caption or its own reference, not a rule
        own = containment(clause, cited)
        lacking = bigrams(clause) - own_bigrams
        if own > th.foreign_clause_own_max or len(lacking) < th.foreign_clause_lacking_min:
            continue
        if verbatim_share(clause, cited) >= th.foreign_clause_verbatim_min:
            continue  # the cited provision's own wording, a word or two changed
        if quantities(clause) and _numbers_agree(clause, cited):
            continue  # the cited provision's figure in other words
        holders: list[tuple[ArticleRecord, int | None, str, float]] = []
        for rec in pool if not short else ():  # a short clause is judged on its phrase only
            if rec.article in skip:
                continue
            hit = _holding(clause, lacking, rec, th)
            if hit is not None and _numbers_agree(clause, hit[1]):
                holders.append((rec, *hit))
        if not holders:
            # not the other article's clause as a whole: perhaps its phrase (第三十六条's
            # 协商一致解除 in a restatement of 第十九条), the words around it the cited one's
            if (phrased := foreign_phrase(clause, own, own_bigrams, pool, skip, th)) is not None:
                out.append(phrased)
            continue
        if len(holders) > th.foreign_clause_max_holders:
            continue
        rec, paragraph, text, held = max(holders, key=lambda h: h[3])
        out.append(ForeignClause(clause, rec.article, paragraph, text, own, held))
    return tuple(out)


def core_phrase(clause: str, own_bigrams: frozenset[str]) -> str:
    """The core of what ``clause`` says that the cited provision does not: the longest run of
    its content characters (:func:`~verifiers.textsim.content_chars`) whose every bigram is
    outside ``own_bigrams``, without a first or last character it shares with the cited words
    next to it. 「用人单位可以与劳动者协商一致解除劳动合同」 against 劳动合同法第十九条 → 「协商一致解除」
    (用人单位、劳动者、劳动合同 are 第十九条's words); ``""`` when no bigram is lacking."""
    s = content_chars(clause)
    lacking = [s[i : i + 2] not in own_bigrams for i in range(len(s) - 1)]
    best: tuple[int, int] = (0, -1)  # bigram run [i, j], longest first
    i = 0
    while i < len(lacking):
        if not lacking[i]:
            i += 1
            continue
        j = i
        while j + 1 < len(lacking) and lacking[j + 1]:
            j += 1
        if j - i > best[1] - best[0]:
            best = (i, j)
        i = j + 1
    i, j = best
    if j < i:
        return ""
    start = i + 1 if i > 0 else i  # s[i] ends the cited bigram before the run
    end = j + 1 if j + 1 < len(lacking) else j + 2  # s[j + 1] opens the cited bigram after it
    return s[start:end]


def holds_phrase(phrase: str, text: str, th: Thresholds = DEFAULT_THRESHOLDS) -> bool:
    """True when ``text`` holds ``phrase`` nearly verbatim: ``th.foreign_phrase_held_min`` of its
    characters in runs of two or more inside one window of ``len(phrase) +
    th.foreign_phrase_slack`` content characters (「协商一致，可以解除」 holds 「协商一致解除」;
    「协商一致，可以订立无固定期限劳动合同…解除」 does not: the words stand apart)."""
    pb = bigrams(phrase)
    if not pb or len(pb & bigrams(text)) < th.foreign_phrase_held_min * len(pb) - 1:
        return False
    c = content_chars(text)
    need = th.foreign_phrase_held_min * len(phrase)
    width = len(phrase) + th.foreign_phrase_slack
    for p in range(max(len(c) - 1, 0)):
        if c[p : p + 2] not in pb:
            continue
        blocks = SequenceMatcher(None, phrase, c[p : p + width], autojunk=False)
        if sum(b.size for b in blocks.get_matching_blocks() if b.size >= 2) >= need:
            return True
    return False


def foreign_phrase(
    clause: str,
    own: float,
    own_bigrams: frozenset[str],
    candidates: Sequence[ArticleRecord],
    skip: set[str],
    th: Thresholds = DEFAULT_THRESHOLDS,
) -> ForeignClause | None:
    """``clause`` as another article's when its :func:`core_phrase` — what it says that the
    cited provision does not, ``th.foreign_phrase_min_chars`` or more — stands nearly verbatim
    (:func:`holds_phrase`) in exactly one other article, and that 款 holds
    ``th.foreign_clause_held_min`` of the clause's bigrams and its numbers. Judged on the phrase,
    not word by word: 「解除劳动合同」 stands in a third of 劳动合同法's articles (its frame), 「协商一致
    解除」 in 第三十六条 and in 第四十六条(二), which refers to 第三十六条 — an article whose text cites
    another holder restates that holder's rule and is dropped. A phrase more than
    ``th.foreign_clause_max_holders`` articles hold is the instrument's vocabulary; None then,
    and when no article, or several, remain. ``skip``: the cited article and those it refers
    to; ``own``: the share of the clause's bigrams the cited provision holds."""
    phrase = core_phrase(clause, own_bigrams)
    if len(phrase) < th.foreign_phrase_min_chars:
        return None
    holders: list[tuple[ArticleRecord, int | None, str]] = []
    for rec in candidates:
        if rec.article in skip:
            continue
        several = len(rec.paragraphs) > 1
        for k, para in enumerate(rec.paragraphs, start=1):
            if holds_phrase(phrase, para.full_text, th):
                holders.append((rec, k if several else None, para.full_text))
                break
        if len(holders) > th.foreign_clause_max_holders:
            return None
    arts = {h[0].article for h in holders}
    kept = [h for h in holders if not (referenced_articles(h[0].text) & (arts - {h[0].article}))]
    if len(kept) != 1:
        return None
    rec, paragraph, text = kept[0]
    held = containment(clause, text)
    if held < th.foreign_clause_held_min or not _numbers_agree(clause, text):
        return None
    return ForeignClause(clause, rec.article, paragraph, text, own, held)


def covers_all(
    words: str, found: Sequence[ForeignClause], cited: str, th: Thresholds = DEFAULT_THRESHOLDS
) -> bool:
    """True when the foreign clauses are the whole assertion: no other clause of ``words`` (of
    four content characters or more) is the cited provision's (more than
    ``foreign_clause_own_max`` of its bigrams in ``cited``). 工伤保险条例第二十一条 restated as
    「职工发生工伤，经治疗伤情相对稳定后，由用人单位…提出劳动能力鉴定申请」 opens with its own words
    (「职工发生工伤」), so only the rest is 第二十三条's."""
    taken = {f.clause for f in found}
    return bool(found) and not any(
        c not in taken
        and len(content_chars(c)) >= 4
        and containment(c, cited) > th.foreign_clause_own_max
        for c in report_clauses(words)
    )


FOREIGN_LEAD = "foreign clause: "
"""Opens the rationale of a Fidelity outcome this module decided (:func:`rationale`); the
revision policy words the reader's note from it (:func:`note_head`)."""

_RATIONALE = re.compile(r"^foreign clause: 「(?P<clause>[^」]+)」 is the text of (?P<pin>\S+?) \(")


def pin_words(article: str, paragraph: int | None) -> str:
    """「第十七条第二款」: the other provision's pin inside the cited instrument, in the statute's
    numerals (「第一百三十三条之一」 for ``"133之一"``)."""
    base, _, sfx = article.partition("之")
    head = f"第{to_chinese(int(base))}条" if base.isdigit() else f"第{base}条"
    head += f"之{sfx}" if sfx else ""
    return head + (f"第{to_chinese(paragraph)}款" if paragraph else "")


def rationale(found: ForeignClause) -> str:
    """The Fidelity rationale for ``found`` (:data:`FOREIGN_LEAD`, the clause, the other pin,
    both shares)."""
    return (
        f"{FOREIGN_LEAD}「{found.clause}」 is the text of {pin_words(found.article, found.paragraph)} "
        f"({found.held:.2f} of its bigrams), not of the cited provision ({found.own:.2f})"
    )


NOT_THIS = "并非本条内容"
"""How a note of :func:`note_head` ends; after a list the revision policy names the members
instead of 「本条」 (``RevisionPolicy.name_members``)."""

NOTE_MARK = "的规定，" + NOT_THIS
"""The words every note of :func:`note_head` holds (the revision policy shows such a note for a
failing verdict: it names what the check found)."""

NOTE_CLAUSE_CHARS = 40
"""Characters of the report's clause a note quotes (a longer one is cut with 「…」)."""


def note_head(fidelity_rationale: str) -> str | None:
    """The reader's note for a Fidelity outcome of this module: 「其中「…」系第十七条第二款的规定，
    并非本条内容」; None for any other rationale."""
    m = _RATIONALE.match(fidelity_rationale)
    if m is None:
        return None
    clause = m.group("clause")
    if len(clause) > NOTE_CLAUSE_CHARS:
        clause = clause[:NOTE_CLAUSE_CHARS] + "…"
    return f"其中「{clause}」系{m.group('pin')}{NOTE_MARK}"
