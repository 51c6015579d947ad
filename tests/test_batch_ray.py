"""Batch revision on Ray (issue #17): a local Ray (num_cpus=2) governs 40 LawBench dev drafts
with outputs byte for byte those of the local engine; --resume skips them; a worker killed
mid-run still leaves every draft written once. Bounded: 40 drafts, two actors."""

from __future__ import annotations

import os
import signal
from datetime import date
from pathlib import Path

import pytest

from benchmarks.datadir import data_path
from benchmarks.lawbench import export_drafts, load_task
from governor.api import Governor
from governor.batch import SUMMARY_NAME, BatchProgress, read_summary
from governor.core.errors import ConfigError

pytestmark = pytest.mark.heavy  # a local Ray cluster: `-m "not heavy"` skips it
ray = pytest.importorskip("ray")  # installed by the test command (citegov[dev] has citegov[ray])

AS_OF = date(2026, 11, 1)
N = 40


@pytest.fixture(scope="module")
def drafts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("ray") / "src"
    folder.mkdir()
    items = load_task(data_path("lawbench_dev"), "3-8")
    export_drafts(items[:N], folder)
    return folder


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor()


@pytest.fixture(scope="module")
def local_out(gov: Governor, drafts: Path) -> Path:
    out = drafts.parent / "local"
    res = gov.revise_many([drafts], out, as_of=AS_OF)
    assert res.governed == N and res.failed == 0
    return out


@pytest.fixture(scope="module")
def cluster() -> object:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def _same_outputs(a: Path, b: Path) -> None:
    names = sorted(p.name for p in a.iterdir() if not p.name.startswith("."))
    assert names == sorted(p.name for p in b.iterdir() if not p.name.startswith("."))
    for name in names:
        if name in (SUMMARY_NAME, "index.html"):
            continue
        assert (a / name).read_bytes() == (b / name).read_bytes(), name


def _actor_pids() -> list[int]:
    """Pids of this machine's Ray actor processes governing drafts (their process title is
    ``ray::MapWorker(MapBatches(_GovernActor))``)."""
    pids = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmd = (proc / "cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        if b"_GovernActor" in cmd and int(proc.name) != os.getpid():
            pids.append(int(proc.name))
    return sorted(pids)


def _rows(summary: Path) -> list[str]:
    lines = summary.read_text("utf-8").splitlines()
    return [line for line in lines if line.strip()]


def test_ray_outputs_are_the_local_outputs_and_resume_skips(
    gov: Governor, drafts: Path, local_out: Path, cluster: object
) -> None:
    out = drafts.parent / "ray"
    seen: list[BatchProgress] = []
    res = gov.revise_many([drafts], out, as_of=AS_OF, engine="ray", workers=2, progress=seen.append)
    assert res.governed == N and res.failed == 0
    assert sorted(e.completed for e in seen) == list(range(1, N + 1))  # progress per draft
    _same_outputs(local_out, out)
    assert len(_rows(out / SUMMARY_NAME)) == N
    again = gov.revise_many([drafts], out, as_of=AS_OF, engine="ray", workers=2, resume=True)
    assert again.skipped == N and again.governed == 0
    _same_outputs(local_out, out)


def test_killed_worker_still_writes_every_draft_once(
    gov: Governor, drafts: Path, local_out: Path, cluster: object
) -> None:
    out = drafts.parent / "ray-killed"
    killed: list[int] = []

    def kill_one_actor(ev: BatchProgress) -> None:
        if ev.completed == 3 and not killed:
            alive = _actor_pids()
            assert alive, "no governing actor alive to kill"
            killed.append(alive[0])
            os.kill(alive[0], signal.SIGKILL)

    res = gov.revise_many(
        [drafts], out, as_of=AS_OF, engine="ray", workers=2, progress=kill_one_actor
    )
    assert killed, "the kill point was never reached"
    assert killed[0] not in _actor_pids()  # it really died (Ray started a new actor)
    assert res.failed == 0 and res.governed == N
    rows = _rows(out / SUMMARY_NAME)
    assert len(rows) == N  # every draft once: none lost, none duplicated
    assert len(read_summary(out / SUMMARY_NAME)) == N
    _same_outputs(local_out, out)


def test_cli_engine_ray_and_resume(drafts: Path, local_out: Path, cluster: object) -> None:
    from typer.testing import CliRunner

    from governor.cli.app import app

    some = drafts.parent / "src-3"
    some.mkdir()
    for p in sorted(drafts.iterdir())[:3]:
        (some / p.name).write_bytes(p.read_bytes())
    out = drafts.parent / "cli-ray"
    args = ["revise", str(some), "--out", str(out), "--as-of", AS_OF.isoformat(), "-q"]
    first = CliRunner().invoke(app, [*args, "--engine", "ray", "--workers", "2"])
    assert first.exit_code == 0, first.output
    second = CliRunner().invoke(app, [*args, "--engine", "ray", "--resume"])
    assert second.exit_code == 0, second.output
    assert len(_rows(out / SUMMARY_NAME)) == 3
    for p in sorted(some.iterdir()):  # revised texts (reports name the other input folder)
        assert (out / p.name).read_bytes() == (local_out / p.name).read_bytes()


@pytest.mark.parametrize(
    ("flags", "needle"),
    [
        (["--engine", "spark"], "unknown engine"),
        (["--address", "auto"], "--address needs --engine ray"),
    ],
)
def test_cli_engine_flags_are_checked(drafts: Path, flags: list[str], needle: str) -> None:
    from typer.testing import CliRunner

    from governor.cli.app import app

    r = CliRunner().invoke(app, ["revise", str(drafts), "--out", str(drafts.parent / "y"), *flags])
    assert r.exit_code == 2 and needle in r.output


def test_cli_engine_ray_without_ray_says_how_to_install(
    drafts: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib.util

    from typer.testing import CliRunner

    from governor.cli.app import app

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda n, *a: None if n == "ray" else real(n, *a)
    )
    out = drafts.parent / "z"
    r = CliRunner().invoke(app, ["revise", str(drafts), "--out", str(out), "--engine", "ray"])
    assert r.exit_code == 2 and "pip install 'citegov[ray]'" in r.output
    assert not out.exists()


def test_unknown_engine_and_address_without_ray_engine(gov: Governor, drafts: Path) -> None:
    with pytest.raises(ConfigError, match="unknown engine"):
        gov.revise_many([drafts], drafts.parent / "x", engine="spark")
    with pytest.raises(ConfigError, match="engine='ray'"):
        gov.revise_many([drafts], drafts.parent / "x", ray_address="auto")
