"""A tiny deterministic ``Embedder`` for index/retrieval tests (no model, no download).

Bag of character bigrams (and single CJK characters) hashed into ``dim`` buckets, L2-normalised:
texts sharing many bigrams are close, which is enough to test ranking plumbing.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt


class HashEmbedder:
    """Deterministic bigram-hashing embedder; ``name`` encodes ``dim`` and ``version``."""

    def __init__(self, dim: int = 64, version: str = "1") -> None:
        self.dim = dim
        self.name = f"hash-bigram-{dim}@{version}"
        self.spec = ""  # not rebuildable by make_embedder
        self.calls = 0

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        self.calls += 1
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            grams = [text[i : i + 2] for i in range(len(text) - 1)] + list(text)
            for g in grams:
                h = int.from_bytes(hashlib.blake2b(g.encode(), digest_size=4).digest(), "little")
                out[row, h % self.dim] += 1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        return out / norms
