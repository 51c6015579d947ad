"""Chinese ↔ Arabic numerals for article, paragraph and item numbers (layer 0).

Conversion is delegated to ``cn2an`` (STYLE 9); this module only adds caching, the 之一
suffix handling of article keys, and full-width digit folding.

Importing cn2an compiles its patterns (≈ 0.2–0.4 s of every cold start), so the numbers
1–3000 (articles, 款, 项, 之N) are kept as cn2an renders them in a table in the cache folder
(written by cn2an on the first run, keyed by cn2an's version); only other numerals import
cn2an.
"""

from __future__ import annotations

import json
import os
import tempfile
from functools import lru_cache
from typing import Any

from governor.core.config import cache_root

TABLE_MAX = 3000
"""Numbers 1..TABLE_MAX are kept in the on-disk table of cn2an renderings."""

_FULLWIDTH = str.maketrans("０１２３４５６７８９", "0123456789")
_CN_DIGITS = set("零〇一二两三四五六七八九十百千万")


@lru_cache(maxsize=65536)
def to_int(numeral: str) -> int:
    """Parse ``"五百七十七"``, ``"577"``, ``"５７７"`` or mixed ``"五十4"`` to an int.

    Raises:
        ValueError: the string is not a numeral.
    """
    s = numeral.strip().translate(_FULLWIDTH)
    if not s:
        raise ValueError("empty numeral")
    if s.isdigit():
        return int(s)
    if not all(c in _CN_DIGITS or c.isdigit() for c in s):
        raise ValueError(f"not a numeral: {numeral!r}")
    hit = _table()[1].get(s)
    if hit is not None:
        return hit
    try:
        return int(_cn2an().cn2an(s, "smart"))
    except (ValueError, KeyError) as exc:
        raise ValueError(f"not a numeral: {numeral!r}") from exc


@lru_cache(maxsize=65536)
def to_chinese(n: int) -> str:
    """Render ``n`` the way PRC legislation numbers articles: 577 → 五百七十七, 10 → 十."""
    if n <= 0:
        raise ValueError(f"article numbers start at 1, got {n}")
    if n <= TABLE_MAX:
        return _table()[0][n - 1]
    return str(_cn2an().an2cn(n))


def _cn2an() -> Any:
    import cn2an

    return cn2an


@lru_cache(maxsize=1)
def _table() -> tuple[list[str], dict[str, int]]:
    """cn2an's renderings of 1..TABLE_MAX (index n − 1) and the reverse map, from the cache
    folder when a table for this cn2an version is there, else computed and saved."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        tag = version("cn2an")
    except PackageNotFoundError:
        tag = "unknown"
    path = cache_root() / f"numerals-cn2an-{tag}-{TABLE_MAX}.json"
    names: list[str] | None = None
    try:
        loaded = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(loaded, list) and len(loaded) == TABLE_MAX:
            names = [str(x) for x in loaded]
    except (OSError, ValueError):
        names = None
    if names is None:
        cn2an = _cn2an()
        names = [str(cn2an.an2cn(n)) for n in range(1, TABLE_MAX + 1)]
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(names, fh, ensure_ascii=False)
            os.replace(tmp, path)
        except OSError:
            pass  # caching is an optimisation
    return names, {s: n for n, s in enumerate(names, 1)}


def article_key(number: str, suffix: str | None = None) -> str:
    """Canonical article key: ``("一百三十三", "之一")`` → ``"133之一"``; ``("39", None)`` → ``"39"``.

    Raises:
        ValueError: ``number`` or the suffix numeral is not a numeral.
    """
    key = str(to_int(number))
    if suffix:
        sfx = suffix[1:] if suffix.startswith("之") else suffix
        key += "之" + to_chinese(to_int(sfx))
    return key


def article_label(key: str) -> str:
    """Chinese label of an article key: ``"133之一"`` → ``"第一百三十三条之一"``."""
    base, _, sfx = key.partition("之")
    out = f"第{to_chinese(int(base))}条"
    return out + (f"之{sfx}" if sfx else "")


def pin_label(article: str | None, paragraph: int | None = None, item: int | None = None) -> str:
    """A pin cite as PRC legislation writes it: ``("276之一", 2, 3)`` →
    ``第二百七十六条之一第二款第三项``; ``""`` without an article. A key that is not an
    article number (an unparsed pin) is returned as ``第{key}条``.
    """
    if not article:
        return ""
    try:
        out = article_label(article)
    except ValueError:
        out = f"第{article}条"
    if paragraph:
        out += f"第{to_chinese(paragraph)}款"
    if item:
        out += f"第{to_chinese(item)}项"
    return out


def article_sort_key(key: str) -> tuple[int, int]:
    """Sort key for article keys: ``"133"`` → (133, 0), ``"133之二"`` → (133, 2)."""
    base, _, sfx = key.partition("之")
    return int(base), (to_int(sfx) if sfx else 0)
