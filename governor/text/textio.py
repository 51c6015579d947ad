"""Reading drafts safely and writing outputs atomically (layer 0).

Drafts are untrusted input. :func:`read_draft` decodes UTF-8 (with or without BOM), UTF-16
and UTF-32 with BOM, and GB18030/GBK (SPEC §10; legacy Big5 when the bytes are clearly Big5),
refuses binary files and oversize input with a clear :class:`~governor.core.errors.InputError`,
and never alters the text: spans computed on the returned string index the text exactly as
given (after decoding; a BOM is not part of the text). Line endings are kept as they are
(CRLF stays CRLF, a lone CR stays CR).

Decoding rules, in order (:func:`decode_bytes`):

1. a byte-order mark decides (UTF-32 is checked before UTF-16: ``FF FE 00 00`` is UTF-32 LE);
2. NUL bytes without a BOM mean a binary file (text encodings of Chinese never contain NUL);
3. strict UTF-8;
4. charset-normalizer's candidates among GB18030 and Big5. Short GBK texts are ambiguous to
   it (``违约金`` decodes as Big5 ``峊埮踢`` as well), so the candidate whose decoding holds
   fewer characters a Chinese legal draft does not contain (kana, Greek, Cyrillic, box
   drawing, bopomofo, private use: GB2312 rows A4–A9 are exactly where the most frequent
   Big5 characters fall) wins, and GB18030 — the encoding the SPEC names — wins ties;
5. a decoded text with more control characters than text files hold (C0 controls other than
   tab, line feed, vertical tab, form feed, carriage return and SUB; more than 1 % of the
   characters, at least 2) is a binary file.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from charset_normalizer import from_bytes

from governor.core.errors import EncodingError, InputError, InputTooLargeError

_BOMS: tuple[tuple[bytes, str], ...] = (
    (b"\xef\xbb\xbf", "utf-8-sig"),
    (b"\xff\xfe\x00\x00", "utf-32"),  # before UTF-16 LE, whose BOM is its prefix
    (b"\x00\x00\xfe\xff", "utf-32"),
    (b"\xff\xfe", "utf-16"),
    (b"\xfe\xff", "utf-16"),
)
_CONTROL_RE = re.compile(r"[\x00-\x08\x0e-\x19\x1b-\x1f\x7f]")
"""C0 controls (and DEL) that a text draft does not contain (tab, LF, VT, FF, CR and SUB, the
old DOS end-of-file mark, are allowed)."""
_MISDECODED_RE = re.compile(
    "[\u0370-\u03ff\u0400-\u04ff\u2500-\u257f\u3040-\u30ff\u3100-\u312f\ue000-\uf8ff]"
)
"""Characters of GB2312 rows A4-A9 (kana, Greek, Cyrillic, box drawing, bopomofo) and private
use: a Chinese legal draft decoded with the right codec holds almost none of them."""
_SURROGATE_RE = re.compile("[\ud800-\udfff]")
_LEGACY = ("gb18030", "big5")


@dataclass(frozen=True)
class Draft:
    """A decoded draft: its text, where it came from, and how it was decoded.

    ``sha256`` is over the raw bytes of the file (so an unchanged file has an unchanged hash).
    """

    path: Path | None
    text: str
    encoding: str
    sha256: str

    @property
    def chars(self) -> int:
        """Length of ``text`` in characters."""
        return len(self.text)


def decode_bytes(data: bytes, *, source: str = "<bytes>") -> tuple[str, str]:
    """Decode draft bytes; returns ``(text, encoding)`` (see the module docstring for the rules).

    Raises:
        EncodingError: NUL bytes outside a UTF-16/UTF-32 BOM file or too many control
            characters (a binary file), a BOM whose encoding does not decode, or no supported
            encoding decodes the bytes.
    """
    for bom, enc in _BOMS:
        if data.startswith(bom):
            try:
                return _check_controls(data.decode(enc), source), enc
            except UnicodeDecodeError as exc:
                raise EncodingError(
                    f"{source}: starts with a {enc} byte-order mark but does not decode as {enc} "
                    f"({exc.reason} at byte {exc.start}); re-save it as UTF-8"
                ) from None
    if b"\x00" in data:
        raise EncodingError(
            f"{source}: contains NUL bytes, so it looks like a binary file, not a text draft; "
            "pass a .md or .txt file (UTF-8, GB18030 or UTF-16 with BOM)"
        )
    try:
        return _check_controls(data.decode("utf-8"), source), "utf-8"
    except UnicodeDecodeError:
        pass
    text, enc = _decode_legacy(data, source)
    return _check_controls(text, source), enc


def _decode_legacy(data: bytes, source: str) -> tuple[str, str]:
    """GB18030 or Big5 (charset-normalizer's candidates, tie-broken as documented)."""
    found: dict[str, str] = {}
    for match in from_bytes(data, cp_isolation=list(_LEGACY)):
        if match.encoding in _LEGACY and match.encoding not in found:
            found[match.encoding] = str(match)
    for enc in _LEGACY:  # a strict decode charset-normalizer ruled out is still a candidate
        if enc not in found:
            try:
                found[enc] = data.decode(enc)
            except UnicodeDecodeError:
                continue
    if not found:
        raise EncodingError(
            f"{source}: cannot be decoded as UTF-8, GB18030/GBK or UTF-16; re-save it as UTF-8 text"
        )
    best = min(found, key=lambda e: (len(_MISDECODED_RE.findall(found[e])), _LEGACY.index(e)))
    return found[best], best


def _check_controls(text: str, source: str) -> str:
    n = len(_CONTROL_RE.findall(text))
    if n >= 2 and n > 0.01 * len(text):
        raise EncodingError(
            f"{source}: {n} control characters in {len(text)} characters, so it looks like a "
            "binary file (or UTF-16 without a byte-order mark), not a text draft; re-save it as "
            "UTF-8 (GB18030 and UTF-16 with BOM are read too)"
        )
    return text


def ensure_text(text: str, *, source: str = "<text>") -> str:
    """Return ``text`` when it is valid Unicode (no lone surrogate code points).

    Decoded files never hold surrogates; a ``str`` built in Python can (``"\\ud800"``, or
    bytes decoded with ``errors="surrogateescape"``), and it cannot be hashed, written or sent
    as UTF-8.

    Raises:
        EncodingError: naming the first surrogate's character offset.
    """
    m = _SURROGATE_RE.search(text)
    if m is not None:
        raise EncodingError(
            f"{source}: lone surrogate U+{ord(m.group()):04X} at character {m.start()}: not valid "
            "Unicode text; decode the input strictly (or with errors='replace') before passing it"
        )
    return text


def read_draft(path: Path, *, max_chars: int = 2_000_000) -> Draft:
    """Read and decode one draft file.

    Args:
        path: file to read (never modified).
        max_chars: refuse drafts longer than this many characters.

    Raises:
        InputError: the path is missing, a directory or unreadable.
        EncodingError: binary or undecodable content.
        InputTooLargeError: more than ``max_chars`` characters (raise the limit with
            ``--max-chars``).
    """
    if not path.exists():
        raise InputError(f"{path}: no such file; check the path")
    if path.is_dir():
        raise InputError(f"{path}: is a directory; pass the draft files inside it")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot be read ({exc.strerror}); check permissions") from None
    if len(data) > 4 * max_chars + 4:
        raise InputTooLargeError(
            f"{path}: {len(data):,} bytes, so more than {max_chars:,} characters (the limit); "
            "split the draft or raise --max-chars"
        )
    text, enc = decode_bytes(data, source=str(path))
    if len(text) > max_chars:
        raise InputTooLargeError(
            f"{path}: {len(text):,} characters is over the limit of {max_chars:,}; "
            "split the draft or raise --max-chars"
        )
    return Draft(path=path, text=text, encoding=enc, sha256=hashlib.sha256(data).hexdigest())


def draft_from_text(text: str) -> Draft:
    """Wrap in-memory text as a :class:`Draft` (sha256 over its UTF-8 bytes).

    Raises:
        EncodingError: ``text`` holds a lone surrogate (see :func:`ensure_text`).
    """
    ensure_text(text)
    return Draft(
        path=None,
        text=text,
        encoding="utf-8",
        sha256=hashlib.sha256(text.encode("utf-8")).hexdigest(),
    )


def atomic_write_text(path: Path, text: str, *, encoding: str = "utf-8") -> None:
    """Write ``text`` to ``path`` atomically (temp file in the same folder + ``os.replace``).

    A crash leaves either the old file or the new one, never a truncated file.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        # mkstemp creates 0600; give the output the mode a plain open() would (0666 & ~umask).
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)
        with os.fdopen(fd, "w", encoding=encoding, newline="") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
