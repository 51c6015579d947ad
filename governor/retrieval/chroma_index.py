"""Persistent chromadb index of provisions (``VectorIndex`` port, layer 2).

chromadb's default embedding function downloads a model on first use and fails offline
(SPEC §6). citegov therefore always gives chromadb its own embedder, wrapped as
:class:`CitegovEmbeddingFunction`, which is **registered** with
``chromadb.utils.embedding_functions.register_embedding_function`` (name ``"citegov"``,
``get_config``/``build_from_config``): the collection's stored configuration names it, so a
reopened collection rebuilds *our* function (from the embedder spec) instead of falling back
to the downloading default. Vectors are computed by citegov and passed to chromadb explicitly
(documents with ``embed``, queries with ``embed_query``), so E5's query/passage prefixes are
honoured.

Safety rules:

* the embedder ``name`` (model + version) is stored in the collection metadata; opening the
  index with another embedder raises :class:`~governor.core.errors.RetrievalIndexError`;
* a local index is built into a temporary sibling directory and renamed into place only after
  a completion marker (``citegov-index.json``) was written, so an interrupted build never
  leaves a half-built index at the target path; an index without the marker is refused;
* on a chroma server (``chroma run``) the build goes into a temporary collection that is
  renamed once complete (its metadata carries ``citegov_complete``).

Telemetry is disabled on every client (no network).
"""

from __future__ import annotations

import json
import os
import shutil
import time
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import numpy as np
import numpy.typing as npt

from governor.core.errors import ConfigError, GovernorError, RetrievalIndexError
from governor.core.extras import require
from governor.core.ports import Embedder
from governor.retrieval.embedders import embed_queries, l2_normalise, make_embedder

require("chromadb")  # the `index` extra: a clear MissingExtraError when it is not installed
import chromadb  # noqa: E402
from chromadb.api.types import Documents, EmbeddingFunction, Embeddings  # noqa: E402
from chromadb.config import Settings  # noqa: E402
from chromadb.utils.embedding_functions import register_embedding_function  # noqa: E402

__all__ = [
    "COLLECTION",
    "MARKER_FILE",
    "ChromaIndex",
    "CitegovEmbeddingFunction",
    "building_index",
    "where_clause",
]

COLLECTION = "citegov_provisions"
"""Default collection name (chromadb: 3-512 chars of ``[a-zA-Z0-9._-]``)."""
MARKER_FILE = "citegov-index.json"
"""Completion marker written inside a finished local index directory."""
META_EMBEDDER = "citegov_embedder"
META_COMPLETE = "citegov_complete"
ADD_BATCH = 2000
"""Rows per chromadb ``add`` call (well under chromadb's max batch size)."""


def _settings() -> Settings:
    return Settings(anonymized_telemetry=False, allow_reset=False)


@register_embedding_function
class CitegovEmbeddingFunction(EmbeddingFunction[Documents]):
    """citegov's embedder as a chromadb embedding function (registered as ``"citegov"``).

    Args:
        spec: embedder spec for :func:`~governor.retrieval.embedders.make_embedder` (stored in
            the collection configuration so chromadb can rebuild the function offline).
        embedder: an already built embedder (e.g. a test fake); its ``spec`` attribute, when
            present, is what gets stored.
        embedder_name: the expected embedder ``name`` (stored for diagnostics).

    The embedder is built lazily on the first call, so chromadb rebuilding the function
    when a collection is reopened costs nothing.
    """

    def __init__(
        self,
        spec: str = "",
        embedder: Embedder | None = None,
        embedder_name: str = "",
    ) -> None:
        self._spec = spec or (getattr(embedder, "spec", "") if embedder is not None else "")
        self._embedder: Any = embedder
        self._name = embedder_name or (embedder.name if embedder is not None else "")

    def _get(self) -> Any:
        if self._embedder is None:
            if not self._spec:
                raise RetrievalIndexError(
                    f"this index was built with embedder '{self._name}', which cannot be rebuilt "
                    "from its stored configuration; open it with ChromaIndex.open(..., embedder=...)"
                )
            self._embedder = make_embedder(self._spec)
        return self._embedder

    def __call__(self, input: Documents) -> Embeddings:
        return list(l2_normalise(self._get().embed(list(input))))

    def embed_query(self, input: Documents) -> Embeddings:
        return list(embed_queries(self._get(), list(input)))

    @staticmethod
    def name() -> str:
        return "citegov"

    def get_config(self) -> dict[str, Any]:
        return {"spec": self._spec, "embedder_name": self._name}

    @staticmethod
    def build_from_config(config: dict[str, Any]) -> CitegovEmbeddingFunction:
        return CitegovEmbeddingFunction(
            spec=str(config.get("spec", "")), embedder_name=str(config.get("embedder_name", ""))
        )

    def default_space(self) -> Any:
        return "cosine"

    def supported_spaces(self) -> list[Any]:
        return ["cosine"]

    def validate_config_update(
        self, old_config: dict[str, Any], new_config: dict[str, Any]
    ) -> None:
        if old_config.get("spec") != new_config.get("spec"):
            raise RetrievalIndexError(
                "the embedder of an existing citegov index cannot be changed; rebuild the index"
            )


def where_clause(where: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """Turn ``{"field": value, "other": {"$gte": 3}}`` into a chromadb ``where`` filter.

    One condition is passed as is; several are joined with ``$and`` (chromadb 1.x requires
    exactly one top-level operator). ``None`` values are dropped; an already composed filter
    (a key starting with ``$``) is returned unchanged.

    Args:
        where: field → value (equality) or field → operator mapping.

    Returns:
        a chromadb filter, or ``None`` for no filter.
    """
    if not where:
        return None
    if any(k.startswith("$") for k in where):
        return dict(where)
    conds = [{k: v} for k, v in where.items() if v is not None]
    if not conds:
        return None
    return conds[0] if len(conds) == 1 else {"$and": conds}


def _clean_meta(meta: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in meta.items():
        if value is None:
            continue
        if isinstance(value, (str, int, float, bool)):
            out[key] = value
        else:
            out[key] = str(value)
    return out


def _parse_url(url: str) -> tuple[str, int, bool]:
    parsed = urlparse(url if "://" in url else f"http://{url}")
    if parsed.scheme not in ("http", "https") or not parsed.hostname:
        raise ConfigError(
            f"chroma server URL '{url}' is not valid; use http://HOST:PORT (e.g. http://127.0.0.1:8000)"
        )
    ssl = parsed.scheme == "https"
    return parsed.hostname, parsed.port or (443 if ssl else 8000), ssl


class ChromaIndex:
    """A chromadb collection of provision vectors, opened with a known embedder.

    Build with :func:`building_index`; open with :meth:`open` (local directory) or
    :meth:`connect` (chroma server). Satisfies the ``VectorIndex`` port.

    Attributes:
        embedder: the embedder used for documents and queries.
        location: the directory or ``url#collection`` (for messages).
    """

    def __init__(self, client: Any, collection: Any, embedder: Embedder, location: str) -> None:
        self._client = client
        self._collection = collection
        self.embedder = embedder
        self.location = location

    # -- opening -----------------------------------------------------------------------

    @classmethod
    def open(
        cls, path: Path | str, embedder: Embedder, *, collection: str = COLLECTION
    ) -> ChromaIndex:
        """Open a finished local index built with the same embedder.

        Args:
            path: index directory (as given to :func:`building_index`).
            embedder: must have the same ``name`` as the one the index was built with.
            collection: collection name.

        Raises:
            RetrievalIndexError: missing directory, no completion marker (interrupted build),
                unreadable chromadb files, missing collection, or a different embedder.
        """
        root = Path(path)
        marker = root / MARKER_FILE
        if not root.is_dir():
            raise RetrievalIndexError(
                f"no semantic index at {root}; build it with `citegov index build` "
                "(or governor.retrieval.hybrid.build_index)"
            )
        if not marker.is_file():
            raise RetrievalIndexError(
                f"the semantic index at {root} is incomplete (no {MARKER_FILE}: the build was "
                "interrupted or it is not a citegov index); delete it and rebuild"
            )
        try:
            info = json.loads(marker.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise RetrievalIndexError(
                f"the index marker {marker} is unreadable ({exc}); delete {root} and rebuild"
            ) from exc
        _check_embedder(str(info.get("embedder", "")), embedder, str(root))
        try:
            client = chromadb.PersistentClient(path=str(root), settings=_settings())
            col = client.get_collection(collection)
        except GovernorError:
            raise
        except Exception as exc:
            raise RetrievalIndexError(
                f"could not open collection '{collection}' in {root} ({type(exc).__name__}: {exc}); "
                "delete the directory and rebuild the index"
            ) from exc
        idx = cls(client, col, embedder, str(root))
        idx._verify_metadata()
        return idx

    @classmethod
    def connect(
        cls,
        url: str,
        embedder: Embedder,
        *,
        collection: str = COLLECTION,
        headers: Mapping[str, str] | None = None,
    ) -> ChromaIndex:
        """Open a finished index on a chroma server (``chroma run``) by URL.

        Args:
            url: ``http://HOST:PORT``.
            embedder: must match the embedder the collection was built with.
            collection: collection name.
            headers: extra HTTP headers (e.g. an auth token for the server).

        Raises:
            ConfigError: the URL is malformed.
            EndpointError: the server is unreachable.
            RetrievalIndexError: no such collection, incomplete build or another embedder.
        """
        client = _http_client(url, headers)
        location = f"{url}#{collection}"
        try:
            col = client.get_collection(collection)
        except Exception as exc:
            raise RetrievalIndexError(
                f"chroma server {url} has no finished collection '{collection}' "
                f"({type(exc).__name__}); build it with `citegov index build --chroma-url {url}`"
            ) from exc
        idx = cls(client, col, embedder, location)
        idx._verify_metadata()
        return idx

    def _verify_metadata(self) -> None:
        meta = self._collection.metadata or {}
        if not meta.get(META_COMPLETE):
            raise RetrievalIndexError(
                f"the semantic index at {self.location} is incomplete (interrupted build); rebuild it"
            )
        _check_embedder(str(meta.get(META_EMBEDDER, "")), self.embedder, self.location)

    # -- VectorIndex port -----------------------------------------------------------------

    def add(
        self, ids: Sequence[str], texts: Sequence[str], metadatas: Sequence[Mapping[str, Any]]
    ) -> None:
        """Embed ``texts`` with the index's embedder and add them (batched).

        Args:
            ids: unique ids, one per text.
            texts: document texts.
            metadatas: one mapping per text (values str/int/float/bool; ``None`` dropped).

        Raises:
            ValueError: the three sequences differ in length.
        """
        if not (len(ids) == len(texts) == len(metadatas)):
            raise ValueError("ids, texts and metadatas must have the same length")
        for start in range(0, len(ids), ADD_BATCH):
            chunk = slice(start, start + ADD_BATCH)
            vecs = l2_normalise(self.embedder.embed(list(texts[chunk])))
            self.add_embeddings(ids[chunk], vecs, metadatas[chunk])

    def add_embeddings(
        self,
        ids: Sequence[str],
        embeddings: npt.NDArray[np.float32],
        metadatas: Sequence[Mapping[str, Any]],
        documents: Sequence[str] | None = None,
    ) -> None:
        """Add precomputed vectors (rows must come from this index's embedder).

        Raises:
            RetrievalIndexError: the vector width differs from the collection's.
        """
        for start in range(0, len(ids), ADD_BATCH):
            chunk = slice(start, start + ADD_BATCH)
            try:
                self._collection.add(
                    ids=list(ids[chunk]),
                    embeddings=np.asarray(embeddings[chunk], dtype=np.float32),
                    metadatas=[_clean_meta(m) or None for m in metadatas[chunk]],
                    documents=list(documents[chunk]) if documents is not None else None,
                )
            except GovernorError:
                raise
            except Exception as exc:
                raise RetrievalIndexError(
                    f"could not add {len(ids[chunk])} vectors to {self.location} "
                    f"({type(exc).__name__}: {exc})"
                ) from exc

    def query(
        self, text: str, k: int, where: Mapping[str, Any] | None = None
    ) -> list[tuple[str, float]]:
        """Nearest provisions to ``text``: up to ``k`` ``(id, similarity)``, best first.

        Similarity is cosine similarity clipped to [0, 1] (chromadb's cosine distance ``d``
        gives ``1 - d``). ``where`` is an equality mapping or a chromadb filter
        (see :func:`where_clause`).
        """
        vec = embed_queries(self.embedder, [text])
        return self.query_embeddings(vec, k, where)[0]

    def query_embeddings(
        self,
        vectors: npt.NDArray[np.float32],
        k: int,
        where: Mapping[str, Any] | None = None,
    ) -> list[list[tuple[str, float]]]:
        """Batch form of :meth:`query` over precomputed query vectors ``(n, dim)``."""
        if k <= 0 or len(vectors) == 0:
            return [[] for _ in range(len(vectors))]
        try:
            res = self._collection.query(
                query_embeddings=np.asarray(vectors, dtype=np.float32),
                n_results=k,
                where=where_clause(where),
                include=["distances"],
            )
        except Exception as exc:
            raise RetrievalIndexError(
                f"query on {self.location} failed ({type(exc).__name__}: {exc}); "
                "check the filter or rebuild the index"
            ) from exc
        out: list[list[tuple[str, float]]] = []
        for ids, dists in zip(res["ids"], res["distances"] or [], strict=False):
            out.append(
                [
                    (i, float(min(1.0, max(0.0, 1.0 - float(d)))))
                    for i, d in zip(ids, dists, strict=True)
                ]
            )
        return out

    def count(self) -> int:
        """Number of vectors in the collection."""
        return int(self._collection.count())

    def get_embeddings(self, ids: Sequence[str]) -> tuple[list[str], npt.NDArray[np.float32]]:
        """Stored vectors of ``ids`` (missing ids skipped): ``(found_ids, (n, dim) float32)``."""
        if not ids:
            return [], np.zeros((0, int(self.embedder.dim)), dtype=np.float32)
        try:
            res = self._collection.get(ids=list(ids), include=["embeddings"])
        except Exception as exc:
            raise RetrievalIndexError(
                f"could not read vectors from {self.location} ({type(exc).__name__}: {exc}); "
                "rebuild the index"
            ) from exc
        found = list(res["ids"])
        vecs = res.get("embeddings")
        if not found or vecs is None:
            return [], np.zeros((0, int(self.embedder.dim)), dtype=np.float32)
        return found, np.asarray(vecs, dtype=np.float32)

    def get_metadata(self, ids: Sequence[str]) -> dict[str, dict[str, Any]]:
        """Stored metadata of ``ids`` (missing ids are absent from the result)."""
        if not ids:
            return {}
        res = self._collection.get(ids=list(ids), include=["metadatas"])
        return {i: dict(m or {}) for i, m in zip(res["ids"], res["metadatas"] or [], strict=False)}

    @property
    def info(self) -> dict[str, Any]:
        """Collection metadata (embedder name, counts, build time...)."""
        return dict(self._collection.metadata or {})

    def close(self) -> None:
        """Release the chromadb client (its files may then be moved or deleted)."""
        _close_client(self._client)

    def __enter__(self) -> ChromaIndex:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def _close_client(client: Any) -> None:
    close = getattr(client, "close", None)
    if callable(close):
        try:
            close()
        except Exception:  # closing twice or a server gone away is harmless here
            pass


def _check_embedder(stored: str, embedder: Embedder, location: str) -> None:
    if stored != embedder.name:
        raise RetrievalIndexError(
            f"the semantic index at {location} was built with embedder '{stored}', not "
            f"'{embedder.name}'; use the same embedder (config `embedder`) or rebuild the index"
        )


def _http_client(url: str, headers: Mapping[str, str] | None) -> Any:
    from governor.core.errors import EndpointError

    host, port, ssl = _parse_url(url)
    try:
        client = chromadb.HttpClient(
            host=host, port=port, ssl=ssl, headers=dict(headers or {}), settings=_settings()
        )
        client.heartbeat()
    except Exception as exc:
        raise EndpointError(
            f"chroma server {url} is unreachable ({type(exc).__name__}); start it with "
            "`chroma run --path DIR --port PORT` or check the URL"
        ) from None
    return client


def _collection_metadata(
    embedder: Embedder, extra: Mapping[str, Any] | None, done: bool
) -> dict[str, Any]:
    meta: dict[str, Any] = {
        META_EMBEDDER: embedder.name,
        "citegov_embedder_dim": int(embedder.dim),
        META_COMPLETE: done,
    }
    meta.update(_clean_meta(extra or {}))
    return meta


def _new_collection(
    client: Any, name: str, embedder: Embedder, extra: Mapping[str, Any] | None
) -> Any:
    return client.create_collection(
        name,
        embedding_function=CitegovEmbeddingFunction(embedder=embedder),
        metadata=_collection_metadata(embedder, extra, done=False),
        configuration={"hnsw": {"space": "cosine", "ef_construction": 100}},
    )


def _finish(
    collection: Any, embedder: Embedder, extra: Mapping[str, Any] | None, count: int
) -> dict[str, Any]:
    meta = _collection_metadata(embedder, extra, done=True)
    meta["citegov_count"] = count
    meta["citegov_built_at"] = time.strftime("%Y-%m-%dT%H:%M:%S")
    collection.modify(metadata=meta)
    return meta


def _write_json_atomic(path: Path, data: Mapping[str, Any]) -> None:
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    os.replace(tmp, path)


def sweep_dead_builds(final: Path) -> list[Path]:
    """Delete ``<final>.building-<pid>-<id>`` folders whose build process is gone (killed by
    SIGKILL or SIGTERM, where no ``finally`` runs), and ``.old-*`` leftovers of a swap.

    Folders of a live process are kept (another build may be running); folders named
    without a pid (older citegov versions) are removed only when untouched for an hour.

    Returns:
        The folders removed.
    """
    removed = []
    for p in final.parent.glob(f"{final.name}.building-*"):
        pid_part = p.name.rsplit(".building-", 1)[1].split("-", 1)[0]
        if pid_part.isdigit() and "-" in p.name.rsplit(".building-", 1)[1]:
            if _alive(int(pid_part)):
                continue
        else:
            try:
                if time.time() - p.stat().st_mtime < 3600:
                    continue
            except OSError:
                continue
        shutil.rmtree(p, ignore_errors=True)
        removed.append(p)
    for p in final.parent.glob(f"{final.name}.old-*"):
        shutil.rmtree(p, ignore_errors=True)
        removed.append(p)
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@contextmanager
def building_index(
    target: Path | str,
    embedder: Embedder,
    *,
    collection: str = COLLECTION,
    chroma_url: str | None = None,
    metadata: Mapping[str, Any] | None = None,
    on_swap: Callable[[], None] | None = None,
) -> Iterator[ChromaIndex]:
    """Build a new index atomically; yields a writable :class:`ChromaIndex`.

    Local (``chroma_url`` None): builds in ``<target>.building-<id>`` beside ``target``; on
    clean exit writes the completion marker, then renames the directory to ``target``
    (replacing an older index). On an exception the temporary directory is deleted and
    ``target`` is left untouched.

    Server: builds into a temporary collection, marks it complete, deletes the old
    ``collection`` and renames the new one into place.

    Args:
        target: final index directory (ignored for a server, except in messages).
        embedder: the embedder; its ``name`` is stored and checked on every open.
        collection: collection name.
        chroma_url: ``http://HOST:PORT`` of a chroma server, or None for a local directory.
        metadata: extra collection metadata (e.g. store fingerprint, corpus version).
        on_swap: called right before the finished index replaces the old one (tests use it
            to simulate a crash at the worst moment).

    Raises:
        RetrievalIndexError: chromadb rejected the build.
        EndpointError: the chroma server is unreachable.
    """
    if chroma_url is not None:
        yield from _build_remote(chroma_url, embedder, collection, metadata, on_swap)
        return
    final = Path(target)
    final.parent.mkdir(parents=True, exist_ok=True)
    sweep_dead_builds(final)
    tmp = final.with_name(f"{final.name}.building-{os.getpid()}-{uuid.uuid4().hex[:8]}")
    client = chromadb.PersistentClient(path=str(tmp), settings=_settings())
    ok = False
    try:
        col = _new_collection(client, collection, embedder, metadata)
        index = ChromaIndex(client, col, embedder, str(tmp))
        yield index
        meta = _finish(col, embedder, metadata, index.count())
        index.close()
        _write_json_atomic(
            tmp / MARKER_FILE,
            {
                "embedder": embedder.name,
                "embedder_spec": getattr(embedder, "spec", ""),
                "dim": int(embedder.dim),
                "collection": collection,
                "count": meta["citegov_count"],
                "built_at": meta["citegov_built_at"],
                "metadata": _clean_meta(metadata or {}),
            },
        )
        if on_swap is not None:
            on_swap()
        old = final.with_name(f"{final.name}.old-{uuid.uuid4().hex[:8]}")
        if final.exists():
            os.replace(final, old)
        os.replace(tmp, final)
        shutil.rmtree(old, ignore_errors=True)
        ok = True
    finally:
        if not ok:
            _close_client(client)
            shutil.rmtree(tmp, ignore_errors=True)


def _build_remote(
    url: str,
    embedder: Embedder,
    collection: str,
    metadata: Mapping[str, Any] | None,
    on_swap: Callable[[], None] | None,
) -> Iterator[ChromaIndex]:
    client = _http_client(url, None)
    tmp_name = f"{collection}.building-{uuid.uuid4().hex[:8]}"
    ok = False
    try:
        col = _new_collection(client, tmp_name, embedder, metadata)
        index = ChromaIndex(client, col, embedder, f"{url}#{tmp_name}")
        yield index
        _finish(col, embedder, metadata, index.count())
        if on_swap is not None:
            on_swap()
        try:
            client.delete_collection(collection)
        except Exception:  # no previous collection
            pass
        col.modify(name=collection)
        ok = True
    finally:
        if not ok:
            try:
                client.delete_collection(tmp_name)
            except Exception:
                pass
