"""The Ray engine of batch revision (``citegov revise --engine ray``).

Layer 7 (beside :mod:`governor.batch`, whose :data:`~governor.batch.Engine` seam it fills).
Ray Data holds the batch's jobs as a dataset (one record per draft: its index in the job list)
and maps them through a pool of actors; each actor builds ``Governor(config)`` once (the store,
retriever and judge load once per actor, about a second and a few hundred MB) and runs
:func:`governor.batch.govern_one` on each record, which writes that draft's outputs atomically
(temp file + ``os.replace``) and returns its :class:`~governor.batch.BatchRow`. The rows stream
back to the driver, where :func:`governor.batch.run_batch` appends them to ``summary.jsonl``
(the checkpoint), reports progress and writes the index: the same code as the local engine,
so the outputs are byte for byte the same.

Faults: an actor that dies (killed, out of memory) is restarted by Ray and its unfinished
record retried (Ray Data's actor pools restart actors and retry their tasks); a draft's outputs
are only replaced atomically and its row is appended once, by the driver, when its record
comes back, so a killed worker leaves every draft written once. A killed driver is a killed
batch: rerun with ``--resume``. The local Ray instance this engine starts dies with the driver
(Ray starts its processes bound to their parent: ``PR_SET_PDEATHSIG`` on Linux), so even a
``kill -9`` of the driver leaves no actor behind (tested: ``tests/test_batch_ray.py``); on a
cluster the driver's actors end with its job. SIGTERM and Ctrl-C end the run in the driver,
which shuts its local Ray down. A draft whose outputs cannot be written (disk full, read-only
folder) stops the batch with :class:`~governor.core.errors.OutputError`, as the local engine.

Cluster: ``address=None`` starts a local Ray instance for the run (``num_cpus`` CPUs, shut
down afterwards); ``"auto"`` or ``"ray://head:10001"`` joins a running cluster, where every
node must see the input and output paths (a shared filesystem) and have citegov installed.
Needs ``pip install 'citegov[ray]'``.
"""

from __future__ import annotations

import contextlib
import logging
import os
import subprocess
import sys
from collections.abc import Iterator, Sequence
from typing import Any

from governor.batch import (
    BatchJob,
    BatchOptions,
    BatchRow,
    Engine,
    Governor,
    check_portable,
    govern_one,
)
from governor.core.config import Config
from governor.core.errors import ConfigError, OutputError

RAY_MISSING = (
    "--engine ray needs Ray, which is not installed; install it with "
    "`pip install 'citegov[ray]'` or use --engine local"
)


def require_ray() -> Any:
    """Import Ray (and Ray Data).

    Raises:
        ConfigError: Ray is not installed (with the install command).
    """
    try:
        import ray
        import ray.data
    except ImportError:
        raise ConfigError(RAY_MISSING) from None
    return ray


class _GovernActor:
    """A Ray Data map actor: one governor per actor process, built once."""

    def __init__(
        self,
        factory: type,
        config: Config,
        jobs: Sequence[BatchJob],
        options: BatchOptions,
        settings: str,
    ) -> None:
        self.gov = factory(config)
        _ = self.gov.judge  # load the store, retriever and judge before the first record
        self.jobs = jobs
        self.options = options
        self.settings = settings

    def __call__(self, batch: dict[str, Any]) -> dict[str, list[str]]:
        rows = []
        for i in batch["job"]:
            try:
                row = govern_one(self.gov, self.jobs[int(i)], self.options, self.settings)
            except OutputError as exc:  # the outputs cannot be written: the driver stops
                rows.append(_IO_FAILED + str(exc))
                continue
            rows.append(row.model_dump_json())
        return {"row": rows}


_IO_FAILED = "!output-error:"
"""Prefix of a record whose draft could not be written (:class:`OutputError` in the actor):
sent back as text, so the driver raises the same error whatever Ray wraps exceptions in."""


def ray_engine(
    address: str | None = None, *, num_cpus: int | None = None, actors: int | None = None
) -> Engine:
    """A batch :data:`~governor.batch.Engine` that governs drafts in Ray actors.

    Args:
        address: ``None`` starts a local Ray for the run; ``"auto"`` or ``"ray://HOST:PORT"``
            joins a running cluster (left running afterwards).
        num_cpus: CPUs of the local Ray instance (default: the batch's ``workers``); ignored
            when joining a cluster.
        actors: actors in the pool (default: the batch's ``workers``), one CPU each.

    Returns:
        The engine, for :func:`governor.batch.run_batch` (``engine=...``).

    Raises:
        ConfigError: (when the engine runs) Ray is not installed, or the governor carries
            injected components the actors could not rebuild.
    """
    require_ray()

    def engine(
        gov: Governor, jobs: Sequence[BatchJob], options: BatchOptions, settings: str
    ) -> Iterator[BatchRow]:
        ray = require_ray()
        check_portable(gov, 2)  # actors rebuild the governor from its config
        size = max(1, min(actors or options.workers, len(jobs)))
        started = not ray.is_initialized()
        watchdog = start_watchdog() if started and address is None else None
        if started:
            ray.init(
                address=address,
                num_cpus=(num_cpus or max(size, options.workers)) if address is None else None,
                include_dashboard=False,
                log_to_driver=False,
                logging_level=logging.WARNING,
            )
        try:
            ctx = ray.data.DataContext.get_current()
            ctx.enable_progress_bars = False  # citegov's own progress (per row, in the driver)
            ds = ray.data.from_items([{"job": i} for i in range(len(jobs))])
            ds = ds.map_batches(
                _GovernActor,
                fn_constructor_args=(type(gov), gov.config, tuple(jobs), options, settings),
                batch_size=1,
                compute=ray.data.ActorPoolStrategy(size=size),
                num_cpus=1,
            )
            for rec in ds.iter_rows():
                if rec["row"].startswith(_IO_FAILED):
                    raise OutputError(rec["row"].removeprefix(_IO_FAILED))
                yield BatchRow.model_validate_json(rec["row"])
        finally:
            if started:
                ray.shutdown()
            if watchdog is not None:
                stop_watchdog(watchdog)

    return engine


_WATCHDOG = r"""
import os, select, signal, sys, time
driver = int(sys.argv[1])
def children():
    kids = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat", "rb") as fh:
                    f = fh.read().rsplit(b")", 1)[1].split()
                kids.setdefault(int(f[1]), []).append((int(d), f[19]))
            except (OSError, IndexError, ValueError):
                pass
    return kids
def start(pid):
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return fh.read().rsplit(b")", 1)[1].split()[19]
    except (OSError, IndexError):
        return None
known = {}
while True:
    ready, _, _ = select.select([0], [], [], 0.5)
    if ready:
        if os.read(0, 16):
            sys.exit(0)  # the driver finished and shut its Ray down itself
        break  # end of file without a word: the driver died
    kids, todo, seen = children(), [driver], set()
    while todo:
        for pid, st in kids.get(todo.pop(), []):
            if pid != os.getpid() and pid not in seen:
                seen.add(pid)
                known.setdefault(pid, st)
                todo.append(pid)
for sig in (signal.SIGTERM, signal.SIGKILL):
    for pid, st in known.items():
        if start(pid) == st:
            try:
                os.kill(pid, sig)
            except OSError:
                pass
    time.sleep(2)
"""
"""The watchdog's program (``python -c``): every 0.5 s it records the driver's descendants
(pid and start time, from ``/proc``); when its stdin reaches end of file without the driver's
word, the driver died, and it ends every recorded process still running (SIGTERM, then SIGKILL
2 s later). Ray binds its raylet and GCS to the driver, but the per-node agents they start
(DashboardAgent, RuntimeEnvAgent) outlive a ``kill -9`` of the driver by a minute or two."""


def start_watchdog() -> subprocess.Popen[bytes] | None:
    """Start the watchdog of a local Ray instance (Linux; ``None`` elsewhere or on failure)."""
    if not sys.platform.startswith("linux"):  # pragma: no cover - /proc needed
        return None
    try:
        return subprocess.Popen(
            [sys.executable, "-c", _WATCHDOG, str(os.getpid())],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    except OSError:  # pragma: no cover - the run goes on without it
        return None


def stop_watchdog(proc: subprocess.Popen[bytes]) -> None:
    """Tell the watchdog the driver finished (its Ray is shut down) and wait for it."""
    with contextlib.suppress(OSError, ValueError):
        if proc.stdin is not None:
            proc.stdin.write(b"done\n")
            proc.stdin.close()
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(5)
