"""Reading drafts safely and writing outputs atomically (layer 0).

Drafts are untrusted input. :func:`read_draft` decodes UTF-8 (with or without BOM), UTF-16
with BOM and GB18030/GBK (detected with ``charset-normalizer``), refuses binary files and
oversize input with a clear :class:`~governor.errors.InputError`, and never alters the text:
spans computed on the returned string index the text exactly as given (after decoding; a
UTF-8 BOM is not part of the text). Line endings are kept as they are (CRLF stays CRLF).
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from charset_normalizer import from_bytes

from governor.errors import EncodingError, InputError, InputTooLargeError

_BOMS: tuple[tuple[bytes, str], ...] = (
    (b"\xef\xbb\xbf", "utf-8-sig"),
    (b"\xff\xfe", "utf-16"),
    (b"\xfe\xff", "utf-16"),
)


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
    """Decode draft bytes; returns ``(text, encoding)``.

    Order: BOM (UTF-8, UTF-16 LE/BE) → strict UTF-8 → charset-normalizer's best guess limited to
    Chinese/Unicode encodings (GB18030 covers GBK and GB2312).

    Raises:
        EncodingError: NUL bytes outside a UTF-16 BOM file (a binary file), or no supported
            encoding decodes the bytes.
    """
    for bom, enc in _BOMS:
        if data.startswith(bom):
            try:
                return data.decode(enc), enc
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
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    best = from_bytes(data, cp_isolation=["gb18030", "big5", "utf_16"]).best()
    if best is None or best.encoding is None:
        raise EncodingError(
            f"{source}: cannot be decoded as UTF-8, GB18030/GBK or UTF-16; re-save it as UTF-8 text"
        )
    return str(best), best.encoding


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
            f"{path}: {len(data):,} bytes is over the limit of {max_chars:,} characters; "
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
    """Wrap in-memory text as a :class:`Draft` (sha256 over its UTF-8 bytes)."""
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
