"""Small process helpers shared by the benchmarks that start servers (layer 0).

Servers started by a benchmark bind to loopback only; memory is read from ``/proc`` (Linux).
"""

from __future__ import annotations

import socket
from pathlib import Path


def free_port() -> int:
    """A free TCP port on 127.0.0.1 (the OS picks it; a race with another binder is possible)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_mb(pid: int) -> float:
    """Resident set size of process ``pid`` in MiB (one decimal), 0.0 when ``/proc`` lacks it."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0
