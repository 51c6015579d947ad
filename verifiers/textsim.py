"""Lexical similarity over Chinese legal text (layer 3 helpers, pure functions).

Chinese has no spaces, so similarity is measured on character bigrams of *content*
characters: NFKC-folded (full-width → half-width), punctuation, whitespace, zero-width
characters and a small set of function characters removed. All scores are in [0, 1].
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

_ZERO_WIDTH = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff"), None)
# Function characters that carry no legal content; dropping them makes bigrams of paraphrases
# meet (的/了/和/或者 variants). Deliberately tiny: modal and negation characters stay.
_FUNCTION_CHARS = frozenset("的了和与及或者其之而在对于将被把由以等即也就")


@lru_cache(maxsize=8192)
def normalize(text: str) -> str:
    """NFKC fold, drop zero-width characters, whitespace and punctuation; keep CJK/alnum."""
    s = unicodedata.normalize("NFKC", text).translate(_ZERO_WIDTH)
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
