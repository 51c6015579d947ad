"""Lexical similarity over Chinese legal text (layer 3 helpers, pure functions).

Chinese has no spaces, so similarity is measured on character bigrams of *content*
characters: NFKC-folded (full-width → half-width), punctuation, whitespace, zero-width
characters and a small set of function characters removed. All scores are in [0, 1].
"""

from __future__ import annotations

import difflib
import math
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from functools import lru_cache

from governor.core.config import DEFAULT_THRESHOLDS
from governor.text.numerals import to_chinese

_ZERO_WIDTH = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff"), None)
# Function characters that carry no legal content; dropping them makes bigrams of paraphrases
# meet (的/了/和/或者 variants). Deliberately tiny: modal and negation characters stay.
_FUNCTION_CHARS = frozenset("的了和与及或者其之而在对于将被把由以等即也就")
_DROP_FUNCTION = dict.fromkeys(map(ord, _FUNCTION_CHARS), None)
_NOT_ALNUM = re.compile(r"[\W_]+")
"""Runs of characters that are not ``str.isalnum()``: ``re``'s Unicode ``\\w`` is exactly
``isalnum()`` plus ``_`` (CPython's ``_sre`` uses ``Py_UNICODE_ISALNUM``), checked over every
code point in ``tests/test_textsim.py``. One C-level ``sub`` instead of a generator per
character (``normalize`` runs on every provision text an IDF table or a search touches)."""


_ARABIC_INT = re.compile(r"(?<![0-9.])([0-9]{1,5})(?![0-9.])")


def _folded(m: re.Match[str], text: str) -> str:
    digits = m.group(1)
    if len(digits) == 4 and text.startswith("年", m.end()):
        return digits
    n = int(digits)
    return to_chinese(n) if n > 0 else "零"


def fold_numerals(text: str) -> str:
    """Arabic integers written as PRC legislation writes them: ``16岁`` → ``十六岁``,
    ``第17条`` → ``第十七条``, ``5000元`` → ``五千元`` (a four-digit number before 年 is a
    year and stays). Statutes use Chinese numerals for counts, periods and amounts; reports
    mix both, and without folding 16周岁 shares no bigram with 十六周岁. Expects NFKC text
    (full-width digits already folded)."""
    return _ARABIC_INT.sub(lambda m: _folded(m, text), text)


@lru_cache(maxsize=8192)
def normalize(text: str) -> str:
    """NFKC fold, Arabic integers as Chinese numerals (:func:`fold_numerals`), zero-width
    characters, whitespace and punctuation dropped; CJK and alphanumerics kept."""
    s = fold_numerals(unicodedata.normalize("NFKC", text).translate(_ZERO_WIDTH))
    return _NOT_ALNUM.sub("", s)


def content_chars(text: str) -> str:
    """``normalize`` without function characters."""
    return normalize(text).translate(_DROP_FUNCTION)


@lru_cache(maxsize=8192)
def bigrams(text: str) -> frozenset[str]:
    """Set of character bigrams of :func:`content_chars` (a single char yields itself)."""
    s = content_chars(text)
    if len(s) < 2:
        return frozenset([s]) if s else frozenset()
    return frozenset(map(str.__add__, s, s[1:]))  # s[i] + s[i + 1], pairwise


def containment(part: str, whole: str) -> float:
    """Share of ``part``'s bigrams found in ``whole`` (0.0 when ``part`` has none)."""
    p = bigrams(part)
    if not p:
        return 0.0
    return len(p & bigrams(whole)) / len(p)


def dice(a: str, b: str) -> float:
    """Sørensen–Dice coefficient of the two bigram sets."""
    x, y = bigrams(a), bigrams(b)
    if not x or not y:
        return 0.0
    return 2 * len(x & y) / (len(x) + len(y))


def quote_match(quote: str, source: str) -> float:
    """How well ``quote`` appears verbatim in ``source``, in [0, 1].

    1.0 when the normalised quote is a substring of the normalised source; otherwise the
    longest common block's share of the quote (difflib), so a one-character slip scores high
    and a fabricated quote low.
    """
    q, s = normalize(quote), normalize(source)
    if not q:
        return 0.0
    if q in s:
        return 1.0
    sm = difflib.SequenceMatcher(None, q, s, autojunk=False)
    blocks = sm.get_matching_blocks()
    covered = sum(b.size for b in blocks if b.size >= 2)
    return covered / len(q)


def best_of(scores: Iterable[float]) -> float:
    """Max of ``scores``, 0.0 when empty."""
    return max(scores, default=0.0)


SPECIFIC_BIGRAMS = 10
"""A query needs this many distinct content bigrams for its matches to count in full."""


def specificity(query: str) -> float:
    """How specific a query is, in [0, 1]: distinct content bigrams / ``SPECIFIC_BIGRAMS``.

    "合同无效" (3 bigrams) is contained in hundreds of provisions; a match found with it
    proves little, so match scores used for repairs are multiplied by this factor.
    """
    return min(1.0, len(bigrams(query)) / SPECIFIC_BIGRAMS)


@dataclass(frozen=True)
class BigramIdf:
    """Inverse document frequencies of content bigrams over a set of provisions.

    Built over the articles of one instrument version, it down-weights the vocabulary every
    article of that instrument shares (农民专业合作社 in the 农民专业合作社法), so overlap
    measures what is specific to a provision. ``weight(b) = ln((n + 1) / (df(b) + 0.5))``,
    always > 0 (BM25's IDF with a floor); with few documents weights are nearly uniform and
    :func:`weighted_containment` tends to :func:`containment`.

    Attributes:
        df: documents (provisions) containing each bigram.
        n: number of documents.
    """

    df: Mapping[str, int]
    n: int

    @classmethod
    def from_texts(cls, texts: Iterable[str]) -> BigramIdf:
        """IDF table of ``texts`` (one document each)."""
        df: Counter[str] = Counter()
        n = 0
        for t in texts:
            df.update(bigrams(t))
            n += 1
        return cls(dict(df), n)

    def weight(self, bigram: str) -> float:
        """IDF weight of ``bigram`` (> 0; unseen bigrams get the largest weight)."""
        return math.log((self.n + 1) / (self.df.get(bigram, 0) + 0.5)) + 1e-6


def weighted_containment(part: str, whole: str, idf: BigramIdf | None = None) -> float:
    """IDF-weighted share of ``part``'s bigrams found in ``whole``, in [0, 1].

    Without ``idf`` this is :func:`containment`. 0.0 when ``part`` has no bigrams.
    """
    if idf is None:
        return containment(part, whole)
    p = bigrams(part)
    if not p:
        return 0.0
    w = bigrams(whole)
    # fsum: exact, so the same in every process whatever the set order (hash seed)
    total = math.fsum(idf.weight(b) for b in p)
    return math.fsum(idf.weight(b) for b in p if b in w) / total


def pooled_containment(part: str, wholes: Sequence[str]) -> list[float]:
    """For each of ``wholes``, the IDF-weighted share of ``part``'s bigrams it holds, the IDF
    taken over ``wholes`` themselves: ``weight(b) = ln((n + 1) / (df(b) + 0.5))`` with ``n =
    len(wholes)`` and ``df(b)`` the wholes holding ``b`` (BM25's IDF with a floor, as
    :class:`BigramIdf`). Bigrams no whole holds are left out of the denominator, so a
    layperson's words no provision uses (「请问」「老公」) do not dilute the share.

    Used as the second-stage scorer of store-wide candidates
    (:meth:`governor.retrieval.hybrid.HybridRetriever.search_with_prior`): within the
    retriever's best candidates, a bigram of the question that few of them hold says more
    about which one answers it than one most of them hold.

    Returns:
        one value in [0, 1] per whole (all 0.0 when ``part`` has no bigram any whole holds).
    """
    p = bigrams(part)
    return pooled_share(p, [bigrams(w) for w in wholes])


def pooled_share(query: AbstractSet[str], units: Sequence[AbstractSet[str]]) -> list[float]:
    """:func:`pooled_containment` on ready-made unit sets (bigrams, or words): for each of
    ``units``, the IDF-weighted share of ``query``'s units it holds, the IDF over ``units``."""
    sets = [u & query for u in units]
    df: Counter[str] = Counter()
    for s in sets:
        df.update(s)
    n = len(sets)
    weight = {b: math.log((n + 1) / (c + 0.5)) for b, c in df.items()}
    total = math.fsum(weight.values())
    if total <= 0:
        return [0.0] * n
    return [math.fsum(weight[b] for b in s) / total for s in sets]


_SENTENCE = re.compile(r"[^。；;！？!?\n]+[。；;！？!?]?")


def sentences(text: str) -> list[tuple[int, int]]:
    """Half-open spans of the sentences/clauses of ``text`` (split at 。；！？ and newlines)."""
    return [(m.start(), m.end()) for m in _SENTENCE.finditer(text) if m.group(0).strip()]


def best_span(query: str, source: str) -> tuple[int, int] | None:
    """Span of the sentence of ``source`` that contains most of ``query``'s bigrams.

    Returns None when ``source`` is empty or no sentence shares a bigram with ``query``.
    Used as the evidence span of a decision (offsets index ``source``).
    """
    q = bigrams(query)
    best: tuple[int, tuple[int, int]] | None = None
    for st, en in sentences(source):
        sc = len(bigrams(source[st:en]) & q)
        if sc > 0 and (best is None or sc > best[0]):
            best = (sc, (st, en))
    return best[1] if best else None


def contains_phrase(phrase: str, text: str, ratio: float = 0.8) -> bool:
    """True when one contiguous run of ``text`` covers ``ratio`` of ``phrase`` (normalised).

    Unlike :func:`containment`, scattered shared vocabulary does not count: the condition
    "个人信息处理者委托处理个人信息的" is not *in* a sentence that merely mentions 委托处理
    and 个人信息. Empty phrases are never contained.
    """
    p, t = normalize(phrase), normalize(text)
    if not p or not t:
        return False
    if p in t:
        return True
    m = difflib.SequenceMatcher(None, p, t, autojunk=False).find_longest_match(0, len(p), 0, len(t))
    return m.size / len(p) >= ratio


@lru_cache(maxsize=16384)  # pure and immutable: the same pairs recur across citations and rounds
def verbatim_share(part: str, whole: str, *, min_block: int = 4) -> float:
    """Share of ``part``'s normalised characters that stand in ``whole`` verbatim, in runs of
    at least ``min_block`` characters (difflib matching blocks), in [0, 1].

    Scattered shared vocabulary (合同, 当事人) does not count, a phrase copied with a word
    changed does: the measure of a *near-verbatim* match. 0.0 when ``part`` normalises to
    nothing.
    """
    p, w = normalize(part), normalize(whole)
    if not p or not w:
        return 0.0
    if p in w:
        return 1.0
    sm = difflib.SequenceMatcher(None, p, w, autojunk=False)
    return sum(b.size for b in sm.get_matching_blocks() if b.size >= min_block) / len(p)


# ---------------------------------------------------------------- clause alignment

_BOUNDARY_PUNCT = frozenset('，,、：:；;。！？!?\n（）()“”"「」『』')


@dataclass(frozen=True)
class NormText:
    """A text and its :func:`normalize` form with the way back.

    Attributes:
        text: the text as given.
        chars: the normalised characters (equal to ``normalize(text)`` for ordinary text).
        spans: for each normalised character, the half-open span in ``text`` it comes from
            (a folded Arabic number: the span of the whole digit run).
    """

    text: str
    chars: str
    spans: tuple[tuple[int, int], ...]

    def original(self, start: int, end: int) -> tuple[int, int]:
        """Half-open span in ``text`` of the normalised characters ``[start, end)``; an
        empty range maps to the empty span where it would be."""
        if start < end:
            return self.spans[start][0], self.spans[end - 1][1]
        at = self.spans[start][0] if start < len(self.spans) else len(self.text)
        return at, at

    def normalised(self, start: int, end: int) -> tuple[int, int]:
        """Half-open range of the normalised characters that come from ``text[start:end]``."""
        idx = [k for k, (a, _) in enumerate(self.spans) if start <= a < end]
        if not idx:
            return 0, 0
        return idx[0], idx[-1] + 1

    def boundary(self, k: int) -> bool:
        """True when position ``k`` (between normalised characters ``k-1`` and ``k``) is a
        clause boundary: the start or end of the text, or punctuation in between."""
        if k <= 0 or k >= len(self.chars):
            return True
        gap = self.text[self.spans[k - 1][1] : self.spans[k][0]]
        return any(ch in _BOUNDARY_PUNCT for ch in gap)


@lru_cache(maxsize=8192)
def normalize_mapped(text: str) -> NormText:
    """:func:`normalize` with the span of every normalised character in ``text``."""
    chars: list[str] = []
    spans: list[tuple[int, int]] = []
    for i, ch in enumerate(text):
        for c in unicodedata.normalize("NFKC", ch).translate(_ZERO_WIDTH):
            chars.append(c)
            spans.append((i, i + 1))
    s1 = "".join(chars)
    out: list[str] = []
    out_spans: list[tuple[int, int]] = []
    pos = 0
    for m in _ARABIC_INT.finditer(s1):
        for k in range(pos, m.start()):
            out.append(s1[k])
            out_spans.append(spans[k])
        run = (spans[m.start()][0], spans[m.end() - 1][1])
        for c in _folded(m, s1):
            out.append(c)
            out_spans.append(run)
        pos = m.end()
    for k in range(pos, len(s1)):
        out.append(s1[k])
        out_spans.append(spans[k])
    keep = [k for k, c in enumerate(out) if c.isalnum()]
    return NormText(text, "".join(out[k] for k in keep), tuple(out_spans[k] for k in keep))


Opcode = tuple[str, int, int, int, int]


@dataclass(frozen=True)
class ClauseAlignment:
    """One clause of a description aligned with the source passage it restates.

    Attributes:
        desc: the description clause (``desc.text`` starts at ``desc_offset`` of the
            description).
        src: the source passage (one to :data:`MAX_WINDOW` consecutive source clauses;
            ``src.text`` starts at ``src_offset`` of the source).
        desc_offset: offset of the clause in the description (characters).
        src_offset: offset of the passage in the source (characters).
        opcodes: difflib opcodes from ``desc.chars`` to ``src.chars``.
        coverage: share of the clause's normalised characters in matching runs of at least
            two characters, in [0, 1].
    """

    desc: NormText
    src: NormText
    desc_offset: int
    src_offset: int
    opcodes: tuple[Opcode, ...]
    coverage: float

    def equal_map(self) -> dict[int, int]:
        """Normalised description position → source position, for matched characters."""
        out: dict[int, int] = {}
        for tag, i1, i2, j1, _ in self.opcodes:
            if tag == "equal":
                for k in range(i2 - i1):
                    out[i1 + k] = j1 + k
        return out

    def anchored(self, i1: int, i2: int, j1: int, j2: int, anchor: int) -> bool:
        """True when description chars ``[i1, i2)`` and source chars ``[j1, j2)`` sit between
        matched anchors: on each side, the characters next to them match in sequence (the
        description's ``i1-1, i1-2, …`` onto the source's ``j1-1, j1-2, …``; likewise after)
        for ``anchor`` characters, or up to a clause boundary on both sides
        (:meth:`NormText.boundary`)."""
        eq = self.equal_map()
        n = 0
        while n < anchor and eq.get(i1 - n - 1) == j1 - n - 1:
            n += 1
        left = n >= anchor or (self.desc.boundary(i1 - n) and self.src.boundary(j1 - n))
        n = 0
        while n < anchor and eq.get(i2 + n) == j2 + n:
            n += 1
        right = n >= anchor or (self.desc.boundary(i2 + n) and self.src.boundary(j2 + n))
        return left and right


MAX_WINDOW = 3
"""A description clause is aligned with up to this many consecutive source clauses."""
ALIGN_MIN_COVERAGE = DEFAULT_THRESHOLDS.textsim_align_min_coverage
"""A description clause restates a source passage when this share of it matches verbatim."""
_MIN_CLAUSE_CHARS = 6


@lru_cache(maxsize=4096)  # pure; returns frozen alignments
def align_clauses(
    description: str, source: str, *, min_coverage: float = ALIGN_MIN_COVERAGE
) -> tuple[ClauseAlignment, ...]:
    """Each clause of ``description`` aligned with the source passage it restates.

    Clauses are :func:`sentences` (split at 。；！？ and newlines). For each description clause
    of at least six normalised characters, the candidate passages are runs of one to
    :data:`MAX_WINDOW` consecutive source clauses; the four that hold most of the clause's
    bigrams are compared character by character (difflib on normalised text) and the one with
    the highest similarity ratio is kept when at least ``min_coverage`` of the clause matches
    it in runs of two or more characters. Clauses that restate nothing are left out.

    Returns:
        One :class:`ClauseAlignment` per restating clause, in description order.
    """
    src_clauses = sentences(source)
    if not src_clauses:
        return ()
    windows = [
        (src_clauses[a][0], src_clauses[b][1])
        for a in range(len(src_clauses))
        for b in range(a, min(a + MAX_WINDOW, len(src_clauses)))
    ]
    out: list[ClauseAlignment] = []
    for ds, de in sentences(description):
        d = normalize_mapped(description[ds:de])
        if len(d.chars) < _MIN_CLAUSE_CHARS:
            continue
        dtext = description[ds:de]
        ranked = sorted(
            windows, key=lambda w: (-containment(dtext, source[w[0] : w[1]]), w[1] - w[0])
        )[:4]
        best: tuple[float, float, ClauseAlignment] | None = None
        for ws, we in ranked:
            s = normalize_mapped(source[ws:we])
            if not s.chars:
                continue
            sm = difflib.SequenceMatcher(None, d.chars, s.chars, autojunk=False)
            matched = sum(b.size for b in sm.get_matching_blocks() if b.size >= 2)
            cov = matched / len(d.chars)
            ratio = sm.ratio()
            if best is None or ratio > best[0]:
                al = ClauseAlignment(d, s, ds, ws, tuple(sm.get_opcodes()), cov)
                best = (ratio, cov, al)
        if best is not None and best[1] >= min_coverage:
            out.append(best[2])
    return tuple(out)


_NUMERAL = re.compile(r"[0-9零〇一二两三四五六七八九十百千万亿]")


def subject_words(weights: Mapping[str, float]) -> dict[str, float]:
    """``weights`` without words holding a numeral: amounts, periods and article numbers are
    what a check compares, not what the claim is about (a wrong 「五万元以上二十万元以下」
    must not pick the provision with the same amount)."""
    return {t: w for t, w in weights.items() if not _NUMERAL.search(t)}


def folded(text: str) -> str:
    """NFKC, Arabic numerals as Chinese, no whitespace: the form words are matched in."""
    return re.sub(r"\s+", "", fold_numerals(unicodedata.normalize("NFKC", text)))


def distinct_share(weights: Mapping[str, float], text: str) -> float:
    """IDF-weighted share of the words (``weights``: word → weight) found in ``text``, in
    [0, 1]; 0.0 without words."""
    total = math.fsum(weights.values())
    if total <= 0.0:
        return 0.0
    body = folded(text)
    return math.fsum(w for t, w in weights.items() if folded(t) in body) / total


_WORDY = re.compile(r"[\u3400-\u9fff]+")


def claim_words(text: str) -> set[str]:
    """Distinct ``jieba`` words of two or more Chinese characters in ``text`` (how specific a
    claim is: four such words fit many provisions)."""
    import jieba

    return {w for w in jieba.lcut(text) if len(w) >= 2 and _WORDY.fullmatch(w)}
