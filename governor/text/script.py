"""Traditional → simplified Chinese, one character for one (layer 0).

Drafts (and LawBench answers) sometimes cite PRC law in traditional characters:
「根據《著作權法》第五十四條第二款……可參見（2023）滬73民終12345號判決」. citegov reads them as
their simplified form, so the citation grammar, the store's titles and the fidelity checks
(all simplified) apply unchanged. The conversion is OpenCC's ``t2s`` profile (the ``opencc``
wheel, Apache-2.0, a kept library: STYLE 9), applied so that offsets do not move: the reading
of a text has exactly its length, and spans found in it index the text as given.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from governor.text.regexes import TRADITIONAL_TO_SIMPLIFIED

__all__ = ["language", "simplified", "traditional_offsets"]


@lru_cache(maxsize=1)
def _converter() -> Any:
    """OpenCC's t2s converter, or None when the ``opencc`` package is missing (then only the
    title characters of :data:`governor.text.regexes.TRADITIONAL_TO_SIMPLIFIED` fold)."""
    try:
        import opencc
    except ImportError:  # pragma: no cover - opencc is a core dependency
        return None
    return opencc.OpenCC("t2s")


@lru_cache(maxsize=1)
def _to_traditional() -> Any:
    conv = _converter()
    if conv is None:  # pragma: no cover - opencc is a core dependency
        return None
    import opencc

    return opencc.OpenCC("s2t")


@lru_cache(maxsize=8192)
def _simplified_form(ch: str) -> bool:
    """True when ``ch`` is itself the simplified form of another character (坏 of 壞, 后 of
    後): such a character is never converted, whatever t2s says (t2s reads 坏 as the variant
    of 坯, which would turn 损坏 into 损坯)."""
    back = _to_traditional()
    return back is not None and back.convert(ch) != ch


@lru_cache(maxsize=4096)
def _char(ch: str) -> str:
    conv = _converter()
    out = conv.convert(ch) if conv is not None else ch.translate(TRADITIONAL_TO_SIMPLIFIED)
    return out if len(out) == 1 else ch


def simplified(text: str) -> str:
    """``text`` with traditional characters read as simplified, one character for one.

    Args:
        text: any text.

    Returns:
        A string of exactly ``len(text)`` characters; ``text`` itself (the same object) when
        it holds no traditional character. OpenCC's phrase-level conversion is used when it
        keeps the length; otherwise each character is converted on its own (a character
        whose simplified form is several characters is kept). A character that is itself a
        simplified form (坏, 后, 干) is never changed. Text holding a lone surrogate (not
        valid Unicode) is returned as is, for :func:`governor.text.textio.ensure_text` to
        reject with its own message.
    """
    if not text:
        return text
    conv = _converter()
    if conv is None:
        out = text.translate(TRADITIONAL_TO_SIMPLIFIED)
    else:
        try:
            out = conv.convert(text)
        except UnicodeEncodeError:  # a lone surrogate: not Unicode text; textio rejects it
            return text
        if len(out) != len(text):
            out = "".join(_char(c) for c in text)
        if out != text:
            out = "".join(
                b if a == b or not _simplified_form(a) else a
                for a, b in zip(text, out, strict=True)
            )
    return text if out == text else out


def traditional_offsets(text: str) -> list[int]:
    """Offsets of the characters of ``text`` that :func:`simplified` changes."""
    out = simplified(text)
    if out is text:
        return []
    return [i for i, (a, b) in enumerate(zip(text, out, strict=True)) if a != b]


def language(text: str) -> str:
    """``"zh"`` when ``text`` reads as Chinese, else ``"en"`` (the language of a report's
    labels and notes, issue 14 item 6).

    Rule: a CJK ideograph carries about one word, an English word about five letters, so the
    text is Chinese when its ideographs are at least a fifth of its Latin letters.
    """
    cjk = sum(1 for ch in text if "\u4e00" <= ch <= "\u9fff")
    latin = sum(1 for ch in text if ch.isascii() and ch.isalpha())
    return "zh" if cjk and cjk * 5 >= latin else "en"
