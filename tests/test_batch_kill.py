"""A batch survives the death of its process (issue 23): ``citegov revise --workers 2 --resume``
killed with SIGKILL at random points, then resumed, loses and duplicates no draft, writes
outputs byte for byte those of an uninterrupted run, and leaves no process behind (workers die
with the batch, the lock is never held by a leftover); SIGTERM stops the workers cleanly.

Bounded for CI: six short drafts, three kills, one SIGTERM (about 30-50 s on a loaded machine).
Processes are found by session: each CLI run starts a session of its own, which its workers
(forked, or from the fork server) inherit, so a worker orphaned by the kill is still found.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from governor.batch import SUMMARY_NAME

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "drafts"
AS_OF = "2026-11-01"
N_DRAFTS = 12
SEED = 23
"""Seed of the kill points (printed on failure): the test is the same on every run."""


def _drafts(folder: Path) -> Path:
    folder.mkdir(parents=True)
    sources = sorted(EXAMPLES.glob("*.md"))
    for i in range(N_DRAFTS):
        text = sources[i % len(sources)].read_text(encoding="utf-8")
        (folder / f"d{i}.md").write_text(text + f"\n（第{i}稿）\n", encoding="utf-8")
    return folder


def _start(src: Path, out: Path, *extra: str) -> subprocess.Popen[bytes]:
    """Start ``citegov revise`` in a session of its own; its stderr goes to ``out``'s sibling
    ``<out>.<n>.err`` (a file, not a pipe: a leftover worker holding a pipe would block the
    test instead of failing it)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}
    env.pop("COLUMNS", None)
    n = len(list(out.parent.glob(f"{out.name}.*.err")))
    err = out.parent / f"{out.name}.{n}.err"
    with err.open("wb") as fh:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "from governor.cli.app import main; main()",
                "revise",
                str(src),
                "--out",
                str(out),
                "--as-of",
                AS_OF,
                "-q",
                *extra,
            ],
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=fh,
            start_new_session=True,  # its own session: its workers are found by session id
        )
    proc.err_path = err  # type: ignore[attr-defined]
    return proc


def _stderr(proc: subprocess.Popen[bytes]) -> str:
    path: Path = proc.err_path  # type: ignore[attr-defined]
    return path.read_text(encoding="utf-8", errors="replace")


def _session(sid: int) -> list[int]:
    """Pids of live (non-zombie) processes in session ``sid``."""
    found = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            stat = (entry / "stat").read_bytes()
        except OSError:
            continue
        fields = stat.rsplit(b")", 1)[-1].split()
        if int(fields[3]) == sid and fields[0] != b"Z":
            found.append(int(entry.name))
    return found


def _none_left(sid: int, timeout: float = 5.0) -> list[int]:
    """Wait until session ``sid`` is empty; the pids still alive after ``timeout`` s (killed
    then, so a failing run leaves nothing behind either)."""
    deadline = time.monotonic() + timeout
    while (left := _session(sid)) and time.monotonic() < deadline:
        time.sleep(0.1)
    for pid in left:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    return left


def _rows(out: Path) -> list[str]:
    path = out / SUMMARY_NAME
    if not path.exists():
        return []
    lines = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line)["input"] for line in lines if line.strip().endswith("}")]


def _outputs(out: Path) -> dict[str, bytes]:
    return {
        p.name: p.read_bytes()
        for p in out.iterdir()
        if p.name not in (SUMMARY_NAME, "index.html") and not p.name.startswith(".")
    }


def _kill_when(proc: subprocess.Popen[bytes], out: Path, rows: int, jitter: float) -> bool:
    """SIGKILL ``proc`` once the summary has ``rows`` rows, ``jitter`` s later; False when
    the run ended first."""
    deadline = time.monotonic() + 120
    while len(_rows(out)) < rows and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    time.sleep(jitter)
    if proc.poll() is not None:
        return False
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(10)
    return True


def test_kill_9_at_random_points_then_resume(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    src = _drafts(tmp_path / "src")
    ref, out = tmp_path / "ref", tmp_path / "out"
    first = _start(src, ref)
    assert first.wait(300) == 0, _stderr(first)
    reference = _outputs(ref)
    assert len(reference) == 3 * N_DRAFTS
    assert not (ref / ".citegov-batch.lock").exists()  # a clean run removes its lock

    # kill points: during start-up (before any row), after the next row, mid-batch (12 drafts,
    # so that on a quiet machine the batch is still running at each point)
    plan = [(0, rng.uniform(0.3, 1.5)), (1, rng.uniform(0.0, 0.2)), (2, rng.uniform(0.0, 0.2))]
    kills, took_over = 0, 0
    for rows, jitter in plan:
        proc = _start(src, out, "--workers", "2", "--resume")
        killed = _kill_when(proc, out, len(_rows(out)) + rows, jitter)
        stderr = _stderr(proc)
        took_over += "took over the lock" in stderr
        kills += killed
        assert _none_left(proc.pid) == [], f"processes left after kill (seed {SEED}, {plan})"
        if not killed:  # the run finished before its kill point
            assert proc.returncode == 0, stderr
    assert kills >= 2, f"the kill points missed the runs (seed {SEED}, {plan})"

    last = _start(src, out, "--workers", "2", "--resume")
    code = last.wait(300)
    stderr = _stderr(last)
    took_over += "took over the lock" in stderr
    assert code == 0, stderr
    assert _none_left(last.pid) == []
    assert took_over >= 1  # a run after a kill said it took the lock over
    inputs = _rows(out)
    lost = {str(p) for p in src.iterdir()} - set(inputs)
    duplicated = {i for i in inputs if inputs.count(i) > 1}
    print(  # the figures of the run (pytest -rP)
        f"kills {kills} of {len(plan)} (seed {SEED}), take-over messages {took_over}, "
        f"drafts {N_DRAFTS}, lost {len(lost)}, duplicated {len(duplicated)}, final exit {code}"
    )
    assert (lost, duplicated) == (set(), set())
    assert _outputs(out) == reference  # byte for byte the uninterrupted run's
    assert not list(out.glob(".*.tmp")) and not (out / ".citegov-batch.lock").exists()


def test_sigterm_stops_the_workers_and_resume_finishes(tmp_path: Path) -> None:
    src = _drafts(tmp_path / "src")
    out = tmp_path / "out"
    proc = _start(src, out, "--workers", "2")
    deadline = time.monotonic() + 120
    while not _rows(out) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    if proc.poll() is not None:
        pytest.skip("the batch finished before it could be stopped")
    os.kill(proc.pid, signal.SIGTERM)
    code = proc.wait(30)
    stderr = _stderr(proc)
    assert code == 128 + signal.SIGTERM, stderr
    assert "interrupted" in stderr and "Traceback" not in stderr
    assert _none_left(proc.pid, timeout=1.0) == []  # stopped by the batch, not by their watch
    assert not (out / ".citegov-batch.lock").exists()
    done = len(_rows(out))
    assert 1 <= done < N_DRAFTS
    again = _start(src, out, "--workers", "2", "--resume")
    assert again.wait(300) == 0, _stderr(again)
    assert sorted(_rows(out)) == sorted(str(p) for p in src.iterdir())


@pytest.mark.slow
def test_kill_9_of_the_ray_driver_then_resume(tmp_path: Path) -> None:
    """The Ray engine: the local Ray instance the driver started (raylet, GCS, the actors)
    dies with the driver's SIGKILL, and a resumed Ray run completes with the local outputs."""
    pytest.importorskip("ray")
    src = _drafts(tmp_path / "src")
    ref, out = tmp_path / "ref", tmp_path / "out"
    first = _start(src, ref)
    assert first.wait(300) == 0, _stderr(first)
    proc = _start(src, out, "--engine", "ray", "--workers", "2", "--resume")
    killed = _kill_when(proc, out, 1, 0.0)
    assert killed, _stderr(proc)
    assert _none_left(proc.pid, timeout=15.0) == [], "Ray processes left after the driver's kill"
    last = _start(src, out, "--engine", "ray", "--workers", "2", "--resume")
    assert last.wait(600) == 0, _stderr(last)
    assert _none_left(last.pid, timeout=15.0) == []
    inputs = _rows(out)
    assert sorted(inputs) == sorted(str(p) for p in src.iterdir())  # each once
    assert _outputs(out) == _outputs(ref)
    assert not (out / ".citegov-batch.lock").exists()
