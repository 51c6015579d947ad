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
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache

from governor.numerals import to_chinese

_ZERO_WIDTH = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff"), None)
# Function characters that carry no legal content; dropping them makes bigrams of paraphrases
# meet (的/了/和/或者 variants). Deliberately tiny: modal and negation characters stay.
_FUNCTION_CHARS = frozenset("的了和与及或者其之而在对于将被把由以等即也就")


_ARABIC_INT = re.compile(r"(?<![0-9.])([0-9]{1,5})(?![0-9.])")


def fold_numerals(text: str) -> str:
    """Arabic integers written as PRC legislation writes them: ``16岁`` → ``十六岁``,
    ``第17条`` → ``第十七条``, ``5000元`` → ``五千元`` (a four-digit number before 年 is a
    year and stays). Statutes use Chinese numerals for counts, periods and amounts; reports
    mix both, and without folding 16周岁 shares no bigram with 十六周岁. Expects NFKC text
    (full-width digits already folded)."""

    def repl(m: re.Match[str]) -> str:
        digits = m.group(1)
        if len(digits) == 4 and text.startswith("年", m.end()):
            return digits
        n = int(digits)
        return to_chinese(n) if n > 0 else "零"

    return _ARABIC_INT.sub(repl, text)


@lru_cache(maxsize=8192)
def normalize(text: str) -> str:
    """NFKC fold, Arabic integers as Chinese numerals (:func:`fold_numerals`), zero-width
    characters, whitespace and punctuation dropped; CJK and alphanumerics kept."""
    s = fold_numerals(unicodedata.normalize("NFKC", text).translate(_ZERO_WIDTH))
    return "".join(ch for ch in s if ch.isalnum())


def content_chars(text: str) -> str:
    """``normalize`` without function characters."""
    return "".join(ch for ch in normalize(text) if ch not in _FUNCTION_CHARS)


@lru_cache(maxsize=8192)
def bigrams(text: str) -> frozenset[str]:
    """Set of character bigrams of :func:`content_chars` (a single char yields itself)."""
    s = content_chars(text)
    if len(s) < 2:
        return frozenset([s]) if s else frozenset()
    return frozenset(s[i : i + 2] for i in range(len(s) - 1))


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
    total = sum(idf.weight(b) for b in p)
    return sum(idf.weight(b) for b in p if b in w) / total


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
