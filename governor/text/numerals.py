"""Chinese ↔ Arabic numerals for article, paragraph and item numbers (layer 0).

Conversion is delegated to ``cn2an`` (STYLE 9); this module only adds caching, the 之一
suffix handling of article keys, and full-width digit folding.

Importing cn2an compiles its patterns (≈ 0.2–0.4 s of every cold start), so the numerals
legal text spells most are kept as cn2an renders and reads them, in a table in the cache
folder (written by cn2an on the first run, keyed by cn2an's version): 1–9999 (articles, 款,
项, 之N, amounts such as 五千), their multiples of 万 (二万, 二十万: fines and damages), and
the other spellings cn2an reads for them (一十五 = 十五, 两千 = 二千). Only other numerals
import cn2an, and cn2an's answer for each (a number, or "not a numeral" for a misspelt pin
such as 十六十四) is kept beside the table, so a later process does not import it again.
"""

from __future__ import annotations

import json
import os
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Any

from governor.core.config import cache_root

TABLE_MAX = 9999
"""Numbers 1..TABLE_MAX, and each of them × 10,000, are kept in the on-disk table."""
_TEN_THOUSAND = 10_000

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
    got = _other(s)
    if got is None:
        raise ValueError(f"not a numeral: {numeral!r}")
    return got


_OTHER_MAX = 4096
"""At most this many numerals outside the table are remembered on disk (see :func:`_other`)."""


def _other(s: str) -> int | None:
    """cn2an's reading of a numeral outside the table (``"smart"`` mode; None when cn2an
    rejects it), remembered in memory and in the cache folder beside the table.

    Reports carry misspelt pin cites (十六十四, 一千零零六十三): without the memo every process
    that meets one imports cn2an (≈ 0.17 s CPU) to be told it is not a numeral, and every
    meeting of it asks again (:func:`to_int` caches only successes). Keyed by cn2an's
    version like the table, so the answers are cn2an's own.
    """
    memo = _other_memo()
    if s in memo:
        return memo[s]
    try:
        got: int | None = int(_cn2an().cn2an(s, "smart"))
    except (ValueError, KeyError):
        got = None
    if len(memo) < _OTHER_MAX:
        memo[s] = got
        _save_json(_other_path(), memo)
    return got


def _cn2an_tag() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("cn2an")
    except PackageNotFoundError:
        return "unknown"


def _other_path() -> Path:
    return cache_root() / f"numerals-cn2an-{_cn2an_tag()}-other.json"


@lru_cache(maxsize=1)
def _other_memo() -> dict[str, int | None]:
    try:
        loaded = json.loads(_other_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(loaded, dict):
        return {}
    return {
        str(k): v
        for k, v in loaded.items()
        if v is None or (isinstance(v, int) and not isinstance(v, bool))
    }


def _save_json(path: Path, data: object) -> None:
    """Write ``data`` to ``path`` atomically; failures are ignored (caching is an
    optimisation)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh, ensure_ascii=False)
        os.replace(tmp, path)
    except OSError:
        pass


@lru_cache(maxsize=65536)
def to_chinese(n: int) -> str:
    """Render ``n`` the way PRC legislation numbers articles: 577 → 五百七十七, 10 → 十."""
    if n <= 0:
        raise ValueError(f"article numbers start at 1, got {n}")
    hit = _table()[0].get(n)
    if hit is not None:
        return hit
    return str(_cn2an().an2cn(n))


def _cn2an() -> Any:
    import cn2an

    return cn2an


def table_numbers() -> list[int]:
    """The numbers the on-disk table holds: 1..:data:`TABLE_MAX` and each × 10,000."""
    small = list(range(1, TABLE_MAX + 1))
    return small + [n * _TEN_THOUSAND for n in small]


def _variants(name: str) -> list[str]:
    """Other spellings of cn2an's rendering ``name`` that legal text uses: 一十… for 十…
    (一十五, 一十万) and 两 for a leading 二 before 百/千/万 (两百, 两千五百, 两万)."""
    out = []
    if name.startswith("十"):
        out.append("一" + name)
    if name[:2] in ("二百", "二千", "二万"):
        out.append("两" + name[1:])
    return out


@lru_cache(maxsize=1)
def _table() -> tuple[dict[int, str], dict[str, int]]:
    """cn2an's renderings of :func:`table_numbers` (number → numeral) and the reverse map
    (numeral → number, also holding each :func:`_variants` spelling with the value cn2an
    reads for it), from the cache folder when a table for this cn2an version is there, else
    computed with cn2an and saved."""
    tag = _cn2an_tag()
    numbers = table_numbers()
    path = cache_root() / f"numerals-cn2an-{tag}-{TABLE_MAX}w.json"
    names: list[str] | None = None
    variants: dict[str, int] = {}
    try:
        loaded = json.loads(path.read_text(encoding="utf-8"))
        if (
            isinstance(loaded, dict)
            and isinstance(loaded.get("names"), list)
            and len(loaded["names"]) == len(numbers)
            and isinstance(loaded.get("variants"), dict)
        ):
            names = [str(x) for x in loaded["names"]]
            variants = {str(k): int(v) for k, v in loaded["variants"].items()}
    except (OSError, ValueError, TypeError):
        names = None
    if names is None:
        cn2an = _cn2an()
        names = [str(cn2an.an2cn(n)) for n in numbers]
        variants = {v: int(cn2an.cn2an(v, "smart")) for name in names for v in _variants(name)}
        _save_json(path, {"names": names, "variants": variants})
    back = {s: n for n, s in zip(numbers, names, strict=True)}
    return dict(zip(numbers, names, strict=True)), {**variants, **back}


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
