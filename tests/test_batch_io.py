"""Batch I/O failures, output-name collisions, the citation limit and the batch lock (issue 23).

* disk full (ENOSPC, simulated by a write function that fails from the n-th call on) at every
  kind of write — the summary's compaction, a draft's outputs, a summary row, the index — and a
  read-only existing output folder (EACCES from ``os.open``: the tests run as root, whom chmod
  does not stop) → exit 4 with one clear line, no traceback, a summary of whole rows, and
  ``--resume`` after the fix gives the outputs of an uninterrupted run;
* output names that would be one file are refused before anything is written;
* ``--max-citations`` (config ``max_citations``) refuses drafts holding more citations;
* the lock records its owner, is taken over (with a message) from a batch that is gone, names
  the live owner or the leftover holders otherwise, and is removed by a clean run.
"""

from __future__ import annotations

import errno
import json
import logging
import os
import socket
import subprocess
import sys
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import governor.batch as batch
from governor.api import Governor
from governor.batch import SUMMARY_NAME, plan_jobs, read_summary, run_batch, settings_key
from governor.cli.app import app
from governor.core.config import Config, load_config
from governor.core.errors import InputError, OutputError

AS_OF = "2026-11-29"
GOOD = (
    "回答：根据《中华人民共和国民法典》第五百七十七条规定，当事人一方不履行合同义务的，应当承担违约责任。"
    "向人民法院请求保护民事权利的诉讼时效期间为二年（《民法典》第一百八十八条）。\n"
)
ONE = "根据《民法典》第五百七十七条规定，当事人一方不履行合同义务的，应当承担违约责任。\n"
FABRICATED = "根据《民法典》第九千条规定，合同无效。\n"
LOCK = ".citegov-batch.lock"


def cli(*args: str) -> Any:
    quiet = ["-q"] if args[0] == "revise" else []
    return CliRunner().invoke(app, [*args, "--as-of", AS_OF, *quiet])


def drafts(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in (("a.md", GOOD), ("b.md", FABRICATED), ("c.md", GOOD + "补充。\n")):
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def outputs(out: Path) -> dict[str, bytes]:
    return {
        p.name: p.read_bytes()
        for p in out.iterdir()
        if p.name not in (SUMMARY_NAME, "index.html") and not p.name.startswith(".")
    }


def whole_rows(out: Path) -> list[str]:
    """Inputs of the summary's rows; every line must be a whole row (or the file absent)."""
    path = out / SUMMARY_NAME
    if not path.exists():
        return []
    lines = [x for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    return [json.loads(x)["input"] for x in lines]


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, bytes]]:
    src = drafts(tmp_path_factory.mktemp("ref") / "src")
    out = src.parent / "out"
    r = cli("revise", str(src), "--out", str(out))
    assert r.exit_code == 0, r.output
    return src, outputs(out)


# --- disk full and read-only ------------------------------------------------------------------


def full_after(n: int, monkeypatch: pytest.MonkeyPatch) -> Callable[[], None]:
    """From the ``n``-th write on (atomic writes and summary rows counted together, 1-based)
    every write fails with ENOSPC; returns the function that frees the disk again."""
    calls = {"n": 0, "full": True}
    real_atomic, real_write = batch.atomic_write_text, os.write

    def tick(path: object) -> None:
        calls["n"] += 1
        if calls["full"] and calls["n"] >= n:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))

    def atomic(path: Path, text: str, **kw: Any) -> None:
        tick(path)
        real_atomic(path, text, **kw)

    def write(fd: int, data: bytes) -> int:
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            target = ""
        if target.endswith(SUMMARY_NAME):
            tick(target)
        return real_write(fd, data)

    monkeypatch.setattr(batch, "atomic_write_text", atomic)
    monkeypatch.setattr(os, "write", write)

    def free() -> None:
        calls["full"] = False

    return free


# writes of a 3-draft batch: 1 summary compaction, then per draft 3 outputs + 1 row, 1 index
@pytest.mark.parametrize(
    ("n", "done"),
    [(1, 0), (2, 0), (4, 0), (5, 0), (6, 1), (11, 2), (14, 3)],
    ids=["compaction", "first-output", "third-output", "first-row", "second-draft", "mid", "index"],
)
def test_disk_full_exits_4_and_resume_restores(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    reference: tuple[Path, dict[str, bytes]],
    n: int,
    done: int,
) -> None:
    src, expected = reference
    out = tmp_path / "out"
    free = full_after(n, monkeypatch)
    r = cli("revise", str(src), "--out", str(out))
    assert r.exit_code == 4, r.output
    text = " ".join(r.output.split())
    assert "No space left on device [ENOSPC]" in text and "free space on that disk" in text
    assert "rerun with --resume" in text and "Traceback" not in r.output
    assert len(whole_rows(out)) == done  # whole rows only, one per finished draft
    free()
    again = cli("revise", str(src), "--out", str(out), "--resume")
    assert again.exit_code == 0, again.output
    assert sorted(whole_rows(out)) == sorted(str(p) for p in src.iterdir())
    assert outputs(out) == expected
    assert not list(out.glob(".*.tmp")) and not (out / LOCK).exists()


def test_read_only_output_folder_exits_4(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reference: tuple[Path, dict[str, bytes]]
) -> None:
    src, expected = reference
    out = tmp_path / "out"
    out.mkdir()
    real_open = os.open
    writing = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND

    def read_only(path: Any, flags: int, *args: Any, **kw: Any) -> int:
        if flags & writing and Path(os.fsdecode(path)).resolve().parent == out.resolve():
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
        return real_open(path, flags, *args, **kw)

    monkeypatch.setattr(os, "open", read_only)
    r = cli("revise", str(src), "--out", str(out))
    assert r.exit_code == 4, r.output
    text = " ".join(r.output.split())
    assert "Permission denied [EACCES]" in text and "not writable" in text
    assert "Traceback" not in r.output and len(r.output.splitlines()) <= 4
    monkeypatch.setattr(os, "open", real_open)
    assert cli("revise", str(src), "--out", str(out), "--resume").exit_code == 0
    assert outputs(out) == expected


def test_output_folder_under_a_file_exits_4(tmp_path: Path) -> None:
    src = drafts(tmp_path / "src")
    (tmp_path / "file").write_text("x", encoding="utf-8")
    r = cli("revise", str(src), "--out", str(tmp_path / "file" / "out"))
    assert r.exit_code == 4, r.output
    assert "is a file, not a folder" in " ".join(r.output.split())


def test_output_error_from_a_worker_stops_the_batch(tmp_path: Path) -> None:
    """A draft whose outputs cannot be written raises (not a failed row), in any engine."""
    gov = Governor(load_config(environ={}))
    src = drafts(tmp_path / "src")
    out = tmp_path / "out"
    jobs = plan_jobs(sorted(src.iterdir()), out)
    (out / "a.md").mkdir(parents=True)  # the revised text's path is a folder: os.replace fails
    with pytest.raises(OutputError, match=r"cannot write .*a\.md"):
        batch.govern_one(gov, jobs[0], batch.make_options(), "k")


# --- output names -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("files", "needle"),
    [
        (["a.html"], "a.html: its HTML page would be a.html, its own revised text"),
        (["x.md", "x.verdicts.json"], "its revised text would be x.verdicts.json"),
        (["X.md", "x.Verdicts.json"], "x.Verdicts.json"),  # case-insensitive file systems
        (["x.md", "x.trace.json"], "x.md's trace"),
        (["summary.jsonl"], "the batch summary"),
        (["d/index.html"], "d__index.html, its own revised text"),  # index: reserved
    ],
)
def test_colliding_outputs_are_refused_before_writing(
    tmp_path: Path, files: list[str], needle: str
) -> None:
    paths = []
    for f in files:
        p = tmp_path / "in" / f
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(GOOD, encoding="utf-8")
        paths.append(p)
    with pytest.raises(InputError, match="output names collide") as info:
        plan_jobs(paths, tmp_path / "out")
    assert needle in str(info.value)
    r = cli("revise", *map(str, paths), "--out", str(tmp_path / "out"))
    assert r.exit_code == 2 and "output names collide" in r.output
    assert not (tmp_path / "out").exists()  # nothing written


def test_distinct_outputs_are_accepted(tmp_path: Path) -> None:
    paths = [tmp_path / n for n in ("x.md", "x.txt", "x.verdicts.md", "a.html.md", "notes.json")]
    jobs = plan_jobs(paths, tmp_path / "out")
    names = [p.name.casefold() for j in jobs for p in j.outputs().values()]
    assert len(names) == len(set(names))


# --- citation limit ---------------------------------------------------------------------------


def test_citation_limit_in_verify_and_revise(tmp_path: Path) -> None:
    two = tmp_path / "two.md"
    two.write_text(GOOD, encoding="utf-8")
    one = tmp_path / "one.md"
    one.write_text(ONE, encoding="utf-8")
    r = cli("verify", str(two), "--max-citations", "1")
    assert r.exit_code == 2
    assert "draft holds 2 citations, over the limit of 1" in " ".join(r.output.split())
    assert "--max-citations" in r.output
    assert cli("verify", str(two), "--max-citations", "2").exit_code == 0
    out = tmp_path / "out"
    r = cli("revise", str(two), str(one), "--out", str(out), "--max-citations", "1")
    assert r.exit_code == 3, r.output  # one draft refused, the other written
    rows = read_summary(out / SUMMARY_NAME)
    assert rows[str(two)].status == "failed" and rows[str(two)].error_code == "too_large"
    assert rows[str(one)].status == "ok"


def test_citation_limit_default_and_not_in_the_settings_key() -> None:
    assert Config().max_citations == 2_000
    opts = batch.make_options()
    assert settings_key(Config(max_citations=5), opts) == settings_key(Config(), opts)
    r = CliRunner().invoke(app, ["revise", "--help"], env={"COLUMNS": "200"})
    assert "(default: config, else 2,000)" in " ".join(r.output.split())
    assert "4 I/O failure" in " ".join(r.output.split())


# --- the lock ---------------------------------------------------------------------------------


def dead_pid() -> int:
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


def record(pid: int, host: str | None = None) -> str:
    return json.dumps({"pid": pid, "host": host or socket.gethostname(), "started": "t"})


def holder(lock: Path) -> subprocess.Popen[bytes]:
    """Another process holding the lock file's flock (prints 'ok' once it does)."""
    code = (
        "import fcntl, sys, time\n"
        f"fh = open({str(lock)!r}, 'a+')\n"
        "fcntl.flock(fh, fcntl.LOCK_EX)\n"
        "print('ok', flush=True)\n"
        "time.sleep(60)\n"
    )
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE)
    assert p.stdout is not None and p.stdout.readline().strip() == b"ok"
    return p


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor(load_config(overrides={"as_of": date(2026, 11, 29)}, environ={}))


def test_lock_of_a_dead_batch_is_taken_over_with_a_message(
    gov: Governor, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    src = drafts(tmp_path / "src")
    out = tmp_path / "out"
    out.mkdir()
    pid = dead_pid()
    (out / LOCK).write_text(record(pid), encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="citegov"):
        res = run_batch(gov, [src], out, batch.make_options())
    assert res.governed == 3
    assert f"took over the lock of an earlier batch (pid {pid} on {socket.gethostname()}" in (
        caplog.text
    )
    assert not (out / LOCK).exists()  # a clean run leaves no lock file


def test_lock_held_by_a_live_batch_names_it(gov: Governor, tmp_path: Path) -> None:
    src = drafts(tmp_path / "src")
    out = tmp_path / "out"
    out.mkdir()
    p = holder(out / LOCK)
    try:
        (out / LOCK).write_text(record(p.pid), encoding="utf-8")
        with pytest.raises(InputError, match=rf"another citegov batch \(pid {p.pid} on "):
            run_batch(gov, [src], out, batch.make_options())
        # the owner it records is gone but a process it left still holds the lock
        gone = dead_pid()
        (out / LOCK).write_text(record(gone), encoding="utf-8")
        with pytest.raises(InputError) as info:
            run_batch(gov, [src], out, batch.make_options())
        msg = str(info.value)
        assert f"(pid {gone} on" in msg and "no longer running" in msg
        assert f"still held by pid {p.pid}" in msg and f"kill {p.pid}" in msg
    finally:
        p.kill()
        p.wait()
    assert run_batch(gov, [src], out, batch.make_options()).governed == 3  # free again


def test_lock_is_recorded_while_the_batch_runs(gov: Governor, tmp_path: Path) -> None:
    src = drafts(tmp_path / "src")
    out = tmp_path / "out"
    seen: list[dict[str, Any]] = []

    def progress(_: object) -> None:
        seen.append(json.loads((out / LOCK).read_text(encoding="utf-8")))

    run_batch(gov, [src], out, batch.make_options(), progress=progress)
    assert seen and seen[0]["pid"] == os.getpid() and seen[0]["host"] == socket.gethostname()
    assert not (out / LOCK).exists()


def test_two_workers_leave_no_lock_and_close_their_copy(gov: Governor, tmp_path: Path) -> None:
    src = drafts(tmp_path / "src")
    out = tmp_path / "out"
    res = run_batch(gov, [src], out, batch.make_options(workers=2))
    assert res.governed == 3 and not (out / LOCK).exists()


def test_without_flock_the_record_decides(
    gov: Governor, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A filesystem without flock (ENOLCK): a live owner on this host is refused, a dead one's
    lock is taken over."""
    import fcntl

    def no_flock(fd: int, op: int) -> None:
        raise OSError(errno.ENOLCK, os.strerror(errno.ENOLCK))

    monkeypatch.setattr(fcntl, "flock", no_flock)
    src = drafts(tmp_path / "src")
    out = tmp_path / "out"
    out.mkdir()
    live = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        (out / LOCK).write_text(record(live.pid), encoding="utf-8")
        with pytest.raises(InputError, match=rf"another citegov batch \(pid {live.pid} on "):
            run_batch(gov, [src], out, batch.make_options())
    finally:
        live.kill()
        live.wait()
    (out / LOCK).write_text(record(dead_pid()), encoding="utf-8")
    assert run_batch(gov, [src], out, batch.make_options()).governed == 3
    assert not (out / LOCK).exists()
