"""Draft reading: encodings, binary/empty/oversize input, atomic writes (SPEC §10)."""

from __future__ import annotations

from pathlib import Path

import pytest

from governor.core.errors import EncodingError, InputError, InputTooLargeError
from governor.text.textio import atomic_write_text, read_draft

TEXT = "根据《中华人民共和国民法典》第五百七十七条规定，应当承担违约责任。\r\n第二行"


@pytest.mark.parametrize(
    "encoding,prefix",
    [
        ("utf-8", b""),
        ("utf-8", b"\xef\xbb\xbf"),
        ("gb18030", b""),
        ("gbk", b""),
        ("utf-16-le", b"\xff\xfe"),
        ("utf-16-be", b"\xfe\xff"),
    ],
)
def test_decodes_supported_encodings(tmp_path: Path, encoding: str, prefix: bytes) -> None:
    p = tmp_path / "d.md"
    p.write_bytes(prefix + TEXT.encode(encoding))
    d = read_draft(p)
    assert d.text == TEXT  # CRLF kept, BOM not part of the text
    assert d.chars == len(TEXT)


def test_binary_file_is_refused(tmp_path: Path) -> None:
    p = tmp_path / "x.md"
    p.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    with pytest.raises(EncodingError, match="binary"):
        read_draft(p)


def test_undecodable_bytes_are_refused(tmp_path: Path) -> None:
    p = tmp_path / "x.md"
    p.write_bytes(bytes(range(0x80, 0x100)) * 3)
    with pytest.raises(EncodingError):
        read_draft(p)


def test_missing_and_directory(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        read_draft(tmp_path / "nope.md")
    with pytest.raises(InputError, match="directory"):
        read_draft(tmp_path)


def test_oversize(tmp_path: Path) -> None:
    p = tmp_path / "big.md"
    p.write_text("字" * 101, encoding="utf-8")
    with pytest.raises(InputTooLargeError, match="--max-chars"):
        read_draft(p, max_chars=100)
    assert read_draft(p, max_chars=101).chars == 101


def test_empty_file_reads_as_empty(tmp_path: Path) -> None:
    p = tmp_path / "e.md"
    p.write_bytes(b"")
    assert read_draft(p).text == ""


def test_atomic_write_replaces_and_leaves_no_temp(tmp_path: Path) -> None:
    p = tmp_path / "sub" / "o.md"
    atomic_write_text(p, "一\r\n二")
    atomic_write_text(p, "三")
    assert p.read_text(encoding="utf-8") == "三"
    assert [x.name for x in p.parent.iterdir()] == ["o.md"]


def test_atomic_write_uses_the_umask_mode(tmp_path: Path) -> None:
    import os

    old = os.umask(0o022)
    try:
        p = tmp_path / "m.md"
        atomic_write_text(p, "x")
        assert p.stat().st_mode & 0o777 == 0o644
    finally:
        os.umask(old)
