"""Crash safety: ``kill -9`` in the middle of a batch and of store/index builds (issue #8).

* ``citegov revise DIR --out OUT`` is killed (SIGKILL to its process group) after some drafts
  are done; ``--resume`` then completes with every draft written exactly once (one summary
  row each, all outputs present and parseable, finished drafts not redone, outputs equal to
  an uninterrupted in-process run) and no temporary files left.
* ``citegov corpus build`` is killed mid-parse and at the worst moment (the new store written
  to a temp file, its rename pending), and so is a plain store save: the previous store at
  the target path is untouched and loads.
* A chroma index build (:func:`governor.retrieval.hybrid.build_index`) is killed while embedding
  and between the two renames of the swap: the target is either the previous complete index
  or refused as missing/incomplete, and a rebuild opens.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

import pytest

from benchmarks.datadir import data_path
from governor.api import Governor
from governor.authorities import AuthorityStore, load_default_store
from governor.batch import SUMMARY_NAME, read_summary
from governor.core.config import load_config
from governor.core.errors import RetrievalIndexError
from governor.retrieval.chroma_index import ChromaIndex
from governor.retrieval.hybrid import build_index
from tests.fakes.embedder import HashEmbedder
from tests.fakes.store import FakeStore

pytestmark = pytest.mark.heavy  # kill -9 of real processes (minutes): `-m "not heavy"` skips

ROOT = Path(__file__).resolve().parents[1]
CITEGOV = [sys.executable, "-c", "from governor.cli.app import main; main()"]
"""The ``citegov`` console script, run with this interpreter."""
LAWBENCH = data_path("lawbench_dev") / "qwen-7b-chat-hf_zero_shot_3-8.json"
AS_OF = "2026-11-01"
N_DRAFTS = 16


def _env(tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CITEGOV_")}
    env.update({"CITEGOV_CONFIG": "", "PYTHONPATH": str(ROOT), "NO_COLOR": "1"})
    return env


def _kill_when(proc: subprocess.Popen[bytes], ready: object, timeout: float = 120.0) -> None:
    """SIGKILL the process group of ``proc`` as soon as ``ready()`` is true."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if ready():  # type: ignore[operator]
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)
            return
        if proc.poll() is not None:
            pytest.fail(f"the process ended (exit {proc.returncode}) before the kill point")
        time.sleep(0.01)
    os.killpg(proc.pid, signal.SIGKILL)
    pytest.fail("the kill point was never reached")


def _rows(summary: Path) -> int:
    try:
        return sum(1 for line in summary.read_text(encoding="utf-8").splitlines() if line.strip())
    except FileNotFoundError:
        return 0


def _drafts(folder: Path) -> list[Path]:
    data = json.loads(LAWBENCH.read_text(encoding="utf-8"))
    folder.mkdir()
    out = []
    for i in range(N_DRAFTS):
        item = data[str(i)]
        p = folder / f"d{i:02d}.md"
        p.write_text(f"问题：{item['origin_prompt'][-200:]}\n\n{item['prediction']}\n", "utf-8")
        out.append(p)
    return out


@pytest.mark.skipif(not LAWBENCH.is_file(), reason="needs the shared data folder")
def test_kill_during_batch_then_resume_loses_and_duplicates_nothing(tmp_path: Path) -> None:
    inputs = _drafts(tmp_path / "in")
    out = tmp_path / "out"
    summary = out / SUMMARY_NAME
    args = [*CITEGOV, "revise", str(tmp_path / "in"), "--out", str(out), "--as-of", AS_OF, "-q"]
    proc = subprocess.Popen(
        args, env=_env(tmp_path), start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    _kill_when(proc, lambda: _rows(summary) >= 3)
    done_before = read_summary(summary)
    assert 3 <= len(done_before) < N_DRAFTS, "killed in the middle"
    for f in out.glob("*.verdicts.json"):  # whatever was written is whole (atomic writes)
        json.loads(f.read_text(encoding="utf-8"))
    stamps = {
        p: p.stat().st_mtime_ns
        for row in done_before.values()
        for p in map(Path, (row.output, row.verdicts, row.html))  # type: ignore[arg-type]
    }

    res = subprocess.run([*args, "--resume"], env=_env(tmp_path), capture_output=True, timeout=300)
    assert res.returncode == 0, res.stderr.decode()
    rows = read_summary(summary)
    lines = [ln for ln in summary.read_text(encoding="utf-8").splitlines() if ln.strip()]
    assert len(lines) == len(rows) == N_DRAFTS  # one row per draft: nothing lost, no duplicate
    assert {Path(r).name for r in rows} == {p.name for p in inputs}
    assert all(r.status == "ok" for r in rows.values())
    assert not list(out.glob(".*.tmp")) and not list(out.glob("*.tmp"))
    for p, ns in stamps.items():  # finished drafts were not redone
        assert p.stat().st_mtime_ns == ns, p
    gov = Governor(load_config(overrides={}, environ={}))
    for p in inputs:
        row = rows[str(p.resolve())]
        want = gov.govern(p.read_text("utf-8"), strategy="efa", as_of=date.fromisoformat(AS_OF))
        assert Path(row.output).read_text("utf-8") == want.text  # type: ignore[arg-type]
        report = json.loads(Path(row.verdicts).read_text("utf-8"))  # type: ignore[arg-type]
        assert report["input"]["sha256"] == row.input_sha256
        assert Path(row.html).is_file()  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def bundled() -> AuthorityStore:
    return load_default_store()


CORPUS_BUILD_KILLED = """
import os, signal, sys
from pathlib import Path
mode, target = sys.argv[1], Path(sys.argv[-1])
real_read, real_replace = Path.read_text, os.replace
reads = 0
def read_text(self, *a, **k):  # mid-parse: after 200 corpus files
    global reads
    reads += 1
    if mode == "parse" and reads > 200:
        os.kill(os.getpid(), signal.SIGKILL)
    return real_read(self, *a, **k)
def replace(src, dst):  # store written to a temp file, rename pending
    if mode == "rename" and Path(dst) == target:
        os.kill(os.getpid(), signal.SIGKILL)
    return real_replace(src, dst)
Path.read_text, os.replace = read_text, replace
sys.argv = ["citegov", *sys.argv[2:]]
from governor.cli.app import main
main()
"""


@pytest.mark.skipif(not data_path("cn_laws").is_dir(), reason="needs the shared data folder")
@pytest.mark.parametrize("mode", ["parse", "rename"])
def test_kill_during_corpus_build_keeps_the_previous_store(
    tmp_path: Path, bundled: AuthorityStore, mode: str
) -> None:
    """``citegov corpus build`` killed mid-parse and at the rename of the finished store."""
    target = tmp_path / "store.json"
    bundled.save(target)
    before = target.read_bytes()
    laws = data_path("cn_laws")
    res = subprocess.run(
        [sys.executable, "-c", CORPUS_BUILD_KILLED, mode, "corpus", "build", "--from", str(laws),
         "--out", str(target)],
        env=_env(tmp_path), cwd=ROOT, capture_output=True, timeout=600,
    )  # fmt: skip
    assert res.returncode == -signal.SIGKILL, res.stderr.decode()[-2000:]
    assert target.read_bytes() == before
    assert AuthorityStore.load(target).stats() == bundled.stats()


SAVE_KILLED = """
import os, signal, sys
from pathlib import Path
from governor.authorities import load_default_store
target = Path(sys.argv[1])
real = os.replace
def replace(src, dst):
    if Path(dst) == target:  # temp file complete, rename pending: the worst moment
        os.kill(os.getpid(), signal.SIGKILL)
    return real(src, dst)
os.replace = replace
load_default_store().save(target)
"""


def test_kill_at_the_store_rename_keeps_the_previous_store(
    tmp_path: Path, bundled: AuthorityStore
) -> None:
    target = tmp_path / "store.json"
    target.write_text("{}", encoding="utf-8")  # a previous (tiny, valid-JSON) store file
    res = subprocess.run(
        [sys.executable, "-c", SAVE_KILLED, str(target)], env=_env(tmp_path), timeout=120
    )
    assert res.returncode == -signal.SIGKILL
    assert target.read_text(encoding="utf-8") == "{}"
    leftovers = [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    assert leftovers, "the kill came after the temp file was written"
    bundled.save(target)  # a rerun completes and the store loads
    assert AuthorityStore.load(target).stats() == bundled.stats()


CHROMA_KILLED = """
import os, signal, sys
from pathlib import Path
from governor.retrieval.hybrid import build_index
from tests.fakes.embedder import HashEmbedder
from tests.fakes.store import FakeStore
mode, path = sys.argv[1], Path(sys.argv[2])
arts = {str(i): [f"第{i}条：编号为{i}的条文，内容{i * 7}。"] for i in range(1, 61)}
store = FakeStore({"某法": [("2020-01-01", "2020-01-01", arts)]}, build_id="crash")
class Killer(HashEmbedder):
    def embed(self, texts):
        if mode == "embed" and self.calls >= 3:  # mid-build: two chunks are in the index
            os.kill(os.getpid(), signal.SIGKILL)
        return super().embed(texts)
if mode == "swap":  # between moving the old index aside and moving the new one in
    real = os.replace
    def replace(src, dst):
        if ".building-" in Path(src).name:
            os.kill(os.getpid(), signal.SIGKILL)
        return real(src, dst)
    os.replace = replace
build_index(store, Killer(), path, workers=1, chunk_size=8)
"""


def _fake_store(n: int) -> FakeStore:
    arts = {str(i): [f"第{i}条：编号为{i}的条文，内容{i * 7}。"] for i in range(1, n + 1)}
    return FakeStore({"某法": [("2020-01-01", "2020-01-01", arts)]}, build_id="crash")


@pytest.mark.parametrize("previous", [False, True], ids=["fresh", "over_previous"])
@pytest.mark.parametrize("mode", ["embed", "swap"])
def test_kill_during_index_build(tmp_path: Path, mode: str, previous: bool) -> None:
    target = tmp_path / "idx"
    if previous:
        build_index(_fake_store(5), HashEmbedder(), target, workers=1).close()
    res = subprocess.run(
        [sys.executable, "-c", CHROMA_KILLED, mode, str(target)],
        env=_env(tmp_path), cwd=ROOT, timeout=180, capture_output=True,
    )  # fmt: skip
    assert res.returncode == -signal.SIGKILL, res.stderr.decode()[-2000:]
    if previous and mode == "embed":  # the previous complete index is untouched
        with ChromaIndex.open(target, HashEmbedder()) as idx:
            assert idx.count() == 5
    else:  # nothing usable at the target: refused (missing / incomplete), never half-read
        with pytest.raises(RetrievalIndexError):
            ChromaIndex.open(target, HashEmbedder())
    killed = [p.name for p in tmp_path.glob("idx.building-*")]
    assert killed, "SIGKILL runs no cleanup: the dead build's folder is left"
    build_index(_fake_store(60), HashEmbedder(), target, workers=1).close()
    with ChromaIndex.open(target, HashEmbedder()) as idx:
        assert idx.count() == 60
    assert not list(tmp_path.glob("idx.building-*"))  # swept by the next build
    assert not list(tmp_path.glob("idx.old-*"))
