"""Rebuild the bundled authority store, or measure it.

``python scripts/build_store.py [LAWS_DIR [CASES_DIR [REPEALED_DIR [UPDATES_DIR]]]] [--out FILE]``
writes ``governor/data/authorities.json.xz`` (or ``FILE``), the store's global BM25 index
``bm25_global.tar.xz`` and token table ``bm25_tokens.npz`` beside it (atomically), prints the
store stats, the build time and the file's sha256. Defaults to ``../shared/data/cn_laws``,
``cn_cases``, ``cn_repealed`` and ``cn_laws_updates`` of the shared data folder
(:func:`benchmarks.datadir.shared_data_dir`: ``$CITEGOV_SHARED_DATA``, else ``shared/data``
beside the checkout or a parent, so a git worktree finds it too). The same inputs
give the same bytes (run it twice and compare the sha256).

``python scripts/build_store.py --tokens`` writes only ``governor/data/bm25_tokens.npz`` (every
article's jieba tokens, from which per-instrument BM25 indexes are built) for the bundled store.

``python scripts/build_store.py --embeddings [--dims N] [--keep-float FILE]`` writes only the
prebuilt provision embeddings ``governor/data/embeddings_use.npy``/``.npz`` for the bundled store
(default embedder, one process; resumable: a killed run started again goes on from its last
chunk in ``governor/data/embeddings_use.building/``), printing progress and the time it took.
The full build does not re-embed (``--rebuild-embeddings`` does): the shipped vectors are tied
to the ``build_id`` of the store they were made from, so the new store records that build and
the units whose text changed as ``dense_base``
(:func:`governor.retrieval.prebuilt.dense_base_for`, computed against the store the output
replaces); hybrid retrieval keeps using the vectors of unchanged provisions and finds the new
or changed ones by BM25 only until ``citegov index build`` or ``--embeddings`` (the count is
printed).

``python scripts/build_store.py --bench`` measures the bundled copy instead (each step in a
fresh interpreter where "cold" matters): cold ``load()``, ``article()`` lookups, RSS with every
version materialised, per-instrument and global BM25 search (global index cold and cached).
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.datadir import data_path  # noqa: E402
from governor.authorities.store import (  # noqa: E402
    BUNDLED_BM25,
    BUNDLED_NAME,
    BUNDLED_TOKENS,
    AuthorityStore,
)

_COLD_LOAD = """
import time
t, c = time.perf_counter(), time.process_time()
from governor.authorities import AuthorityStore
s = AuthorityStore.load()
print(f"{time.perf_counter() - t:.2f}s wall/{time.process_time() - c:.2f}s cpu")
"""

_WARM = """
import time, resource, random
from governor.authorities import AuthorityStore
s = AuthorityStore.load()
print(f"rss_after_load_mb {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f}")
t = time.perf_counter(); s.article("民法典", "577"); print(f"first_article_ms {(time.perf_counter() - t) * 1e3:.1f}")
keys = [str(i) for i in range(1, 1261)]
random.seed(0)
t = time.perf_counter()
for _ in range(100_000):
    s.article("中华人民共和国民法典", random.choice(keys))
print(f"article_lookup_us {(time.perf_counter() - t) / 100_000 * 1e6:.2f}")
for title in s.titles():
    s.articles(title)
print(f"rss_all_articles_mb {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f}")
t = time.perf_counter(); s.search("违约责任 赔偿损失", instrument="民法典"); print(f"first_instrument_search_s {time.perf_counter() - t:.2f}")
t = time.perf_counter(); s.search("违约责任 赔偿损失", instrument="民法典"); print(f"warm_instrument_search_ms {(time.perf_counter() - t) * 1e3:.1f}")
t = time.perf_counter(); s.search("用人单位 未签订书面劳动合同 二倍工资"); print(f"first_global_search_s {time.perf_counter() - t:.2f}")
t = time.perf_counter(); s.search("用人单位 未签订书面劳动合同 二倍工资"); print(f"warm_global_search_ms {(time.perf_counter() - t) * 1e3:.1f}")
print(f"rss_with_global_index_mb {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f}")
"""


def _run(code: str, env_cache: str) -> str:
    import os

    env = dict(os.environ, CITEGOV_CACHE_DIR=env_cache, PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    ).stdout


def bench() -> int:
    with tempfile.TemporaryDirectory() as cache:
        loads = [_run(_COLD_LOAD, cache).strip() for _ in range(3)]
        print(f"cold_load (import + load, 3 runs) {'  '.join(loads)}")
        print("-- global index cold (empty cache dir):")
        print(_run(_WARM, cache), end="")
        print("-- global index from the disk cache:")
        print(_run(_WARM, cache), end="")
    return 0


def write_tokens(store: AuthorityStore, data_dir: Path) -> None:
    """Write the per-article token table the per-instrument BM25 indexes are built from."""
    path = data_dir / BUNDLED_TOKENS
    t0 = time.perf_counter()
    store.write_token_table(path)
    print(
        f"wrote the article token table {path} ({path.stat().st_size / 1e6:.2f} MB) "
        f"in {time.perf_counter() - t0:.1f} s"
    )


def _option(argv: list[str], name: str) -> str | None:
    """The value after ``name`` in ``argv`` (removed from it), or None."""
    if name not in argv:
        return None
    i = argv.index(name)
    if i + 1 >= len(argv):
        raise SystemExit(f"{name} needs a value")
    value = argv[i + 1]
    del argv[i : i + 2]
    return value


def write_embeddings(store: AuthorityStore, dims: int | None, keep_float: str | None) -> None:
    """Embed the store's distinct provision texts and write the prebuilt pair (see module doc)."""
    import os

    from governor.retrieval.embedders import make_embedder
    from governor.retrieval.prebuilt import build_prebuilt, bundled_prebuilt

    embedder = make_embedder("use")
    t0, c0 = time.perf_counter(), time.process_time()
    loads = [os.getloadavg()[0]]
    shown = [-1]

    def progress(done: int, total: int) -> None:
        loads.append(os.getloadavg()[0])
        step = done * 20 // max(1, total)
        if step != shown[0] or done == total:
            shown[0] = step
            dt = time.perf_counter() - t0
            print(
                f"embedding provisions: {done:,}/{total:,} ({100 * done // max(1, total)} %), "
                f"{dt:.0f} s, load {loads[-1]:.1f}",
                flush=True,
            )

    stem = bundled_prebuilt()
    header = build_prebuilt(
        store, embedder, stem, dims=dims, progress=progress, keep_float=keep_float
    )
    dt, dc = time.perf_counter() - t0, time.process_time() - c0
    size = sum(stem.with_suffix(x).stat().st_size for x in (".npy", ".npz"))
    print(
        f"wrote the prebuilt embeddings {stem}.npy/.npz ({size / 1e6:.2f} MB: {header.texts:,} "
        f"texts for {header.units:,} units, {header.dims} dims {header.quantisation}, "
        f"{header.embedder}) in {dt:.0f} s wall / {dc:.0f} s cpu, one process, "
        f"load average {min(loads):.1f}-{max(loads):.1f}"
    )


def main(argv: list[str]) -> int:
    argv = list(argv)
    if "--bench" in argv:
        return bench()
    if "--tokens" in argv:  # only the token table, for the bundled store as it is
        write_tokens(AuthorityStore.load(), ROOT / "governor" / "data")
        return 0
    from governor.retrieval.prebuilt import DEFAULT_DIMS

    dims_opt = _option(argv, "--dims")
    dims = (
        DEFAULT_DIMS if dims_opt is None else (None if dims_opt in ("0", "all") else int(dims_opt))
    )
    keep_float = _option(argv, "--keep-float")
    if "--embeddings" in argv:  # only the prebuilt embeddings, for the bundled store as it is
        write_embeddings(AuthorityStore.load(), dims, keep_float)
        return 0
    rebuild_embeddings = "--rebuild-embeddings" in argv
    argv = [a for a in argv if a not in ("--no-embeddings", "--rebuild-embeddings")]
    out_opt = _option(argv, "--out")
    data = data_path("cn_laws").parent  # $CITEGOV_SHARED_DATA, else shared/data nearby
    laws = Path(argv[1]) if len(argv) > 1 else data / "cn_laws"
    cases = Path(argv[2]) if len(argv) > 2 else data / "cn_cases"
    repealed = Path(argv[3]) if len(argv) > 3 else data / "cn_repealed"
    updates = Path(argv[4]) if len(argv) > 4 else data / "cn_laws_updates"
    out = Path(out_opt) if out_opt else ROOT / "governor" / "data" / BUNDLED_NAME
    t0, c0 = time.perf_counter(), time.process_time()
    store = AuthorityStore.build(
        laws,
        cases if cases.is_dir() else None,
        repealed if repealed.is_dir() else None,
        updates if updates.is_dir() else None,
    )
    if not rebuild_embeddings:
        keep_dense(store, out)
    store.save(out)
    dt, dc = time.perf_counter() - t0, time.process_time() - c0
    for key, value in store.stats().items():
        print(f"{key:>20} {value}")
    print(f"{'horizon':>20} {store.horizon}")
    size = out.stat().st_size / 1e6
    digest = hashlib.sha256(out.read_bytes()).hexdigest()
    print(
        f"built and saved {out} ({size:.2f} MB, sha256 {digest}) in {dt:.1f} s wall / {dc:.1f} s cpu"
    )
    bm25 = out.parent / BUNDLED_BM25
    store.write_bundled_global(bm25)
    print(f"wrote the global BM25 index {bm25} ({bm25.stat().st_size / 1e6:.2f} MB)")
    write_tokens(store, out.parent)
    if rebuild_embeddings:
        write_embeddings(store, dims, keep_float)
    return 0


def keep_dense(store: AuthorityStore, out: Path) -> None:
    """Record in ``store`` which shipped vectors stay valid (module doc); the old store is the
    one at ``out`` (else the bundled copy)."""
    from governor.retrieval.prebuilt import bundled_prebuilt, dense_base_for

    stem = bundled_prebuilt()
    if not stem.with_suffix(".npz").is_file():
        print("no shipped embeddings: hybrid retrieval needs `citegov index build`")
        return
    old = AuthorityStore.load(out if out.is_file() else None)
    base, missing = dense_base_for(store, old, stem)
    if base is None:
        print(
            "the shipped embeddings belong to neither the old store nor its base: hybrid "
            "retrieval needs `citegov index build` or `scripts/build_store.py --embeddings`"
        )
        return
    store._payload["dense_base"] = base
    print(
        f"shipped embeddings kept (build {base['build_id']}): {len(base['stale'])} stale "
        f"vectors unused; {missing:,} provisions BM25-only until the embeddings are rebuilt"
    )


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
