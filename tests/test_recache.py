"""governor.text.recache: patterns rebuilt from the disk cache equal ``re.compile``'s."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from governor.text import recache, regexes

SAMPLES = [
    (r"\s+", 0),
    (r"(?P<title>《[^》]{1,60}》)(?P<pin>第[一二三四五六七八九十百千零]+条)?", 0),
    (regexes.CN_ANCHOR_RE.pattern, re.VERBOSE),
    (r"(?i)(?P<a>abc)|(?P<b>[\u4e00-\u9fff]{2,})", re.MULTILINE),
]


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CITEGOV_CACHE_DIR", str(tmp_path))
    return tmp_path / "regex"


@pytest.mark.parametrize(("pattern", "flags"), SAMPLES)
def test_written_then_read_back_equals_re_compile(cache: Path, pattern: str, flags: int) -> None:
    """``==`` on patterns compares flags, text and engine code: the same pattern object."""
    first = recache.compile(pattern, flags)
    assert len(list(cache.iterdir())) == 1
    second = recache.compile(pattern, flags)
    expected = re.compile(pattern, flags)
    assert first == expected and second == expected
    assert second.groupindex == expected.groupindex and second.groups == expected.groups
    text = "根据《中华人民共和国刑法》第一百三十三条 abc 规定 \n 合同法"
    assert [m.span() for m in second.finditer(text)] == [m.span() for m in expected.finditer(text)]


def test_module_patterns_equal_re_compile() -> None:
    """Every module-level pattern of regexes (now read from the real cache) is re.compile's."""
    pats = [v for v in vars(regexes).values() if isinstance(v, re.Pattern)]
    assert len(pats) > 100
    for p in pats:
        assert p == re.compile(p.pattern, p.flags), p.pattern[:60]


def test_corrupt_or_foreign_file_falls_back(cache: Path) -> None:
    recache.compile(r"第(?P<n>[0-9]+)条", 0)
    (path,) = cache.iterdir()
    good = path.read_bytes()
    head = good[: good.index(b"\n") + 1]
    scrambled = head + bytes([0xFF]) * (len(good) - len(head))  # right length, invalid code
    for junk in (b"", b"not json\n\x00\x01", b'{"flags": 32}\n\x00\x00\x00', good[:-3], scrambled):
        path.write_bytes(junk)
        assert recache.compile(r"第(?P<n>[0-9]+)条", 0) == re.compile(r"第(?P<n>[0-9]+)条")


def test_unwritable_cache_still_compiles(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setenv("CITEGOV_CACHE_DIR", str(blocker))  # regex/ cannot be made under a file
    assert recache.compile(r"[\u4e00-\u9fff]+法", 0) == re.compile(r"[\u4e00-\u9fff]+法")
    assert not os.path.isdir(blocker / "regex")


def test_other_flags_or_pattern_get_another_file(cache: Path) -> None:
    recache.compile("a+b", 0)
    recache.compile("a+b", re.IGNORECASE)
    recache.compile("a+c", 0)
    assert len(list(cache.iterdir())) == 3
    assert recache.compile("a+b", re.IGNORECASE) == re.compile("a+b", re.IGNORECASE)


def test_a_write_removes_stale_entries_and_keeps_fresh_ones(cache: Path) -> None:
    recache.compile("x+y", 0)
    recache.compile("x+z", 0)
    old, fresh = sorted(cache.iterdir())
    month_ago = os.path.getmtime(old) - recache.STALE_SECONDS - 60
    os.utime(old, (month_ago, month_ago))
    recache.compile("a changed pattern", 0)  # a miss: written, then the folder pruned
    left = set(cache.iterdir())
    assert old not in left and fresh in left and len(left) == 2
    assert recache.compile("x+y", 0) == re.compile("x+y")  # a pruned live pattern is rebuilt


def test_a_folder_over_the_size_cap_loses_its_oldest_entries(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for i in range(6):
        recache.compile(f"p{i}+", 0)
    files = sorted(cache.iterdir())
    for age, f in enumerate(reversed(files)):  # files[0] oldest
        os.utime(f, (1e9 + 1000 - age, 1e9 + 1000 - age))
    size = os.path.getsize(files[0])
    monkeypatch.setattr(recache, "STALE_SECONDS", 1e12)
    monkeypatch.setattr(recache, "MAX_BYTES", 5 * size)  # 6 entries exceed it
    recache.compile("q+", 0)
    left = set(cache.iterdir())
    assert files[-1] in left and files[0] not in left
    assert sum(os.path.getsize(f) for f in left) <= 5 * size // 2 + os.path.getsize(
        next(f for f in left if f not in files)
    )
