"""Successor provisions of repealed instruments, found from the texts at build time (layer 1).

No official machine-readable correspondence table (old article → 民法典 article) exists
(``cn_repealed/SOURCE.md``, "Known limits"), so the successor of each article of a repealed
instrument is the article of its successor instrument whose *text* is most like it:

* candidates: the latest version of the successor instrument the repeal registry names
  (民法典 for 合同法; 合同编通则解释 for 合同法解释二 …) and, for a successor that is a 司法解释 or
  实施条例, the law it interprets (a rule of 合同法解释二 may have moved into 民法典 itself);
* similarity: cosine of character-bigram TF-IDF vectors (IDF over the candidates; bigrams that
  contain a digit, letter or CJK character), in [0, 1];
* ``confidence`` = best cosine × distinctiveness, distinctiveness = 1 − ½ · max(0, 1 − gap /
  :data:`CLEAR_GAP`), gap = best − runner-up cosine: two equally good candidates halve it (as in
  :mod:`verifiers.suggest`), a runner-up :data:`CLEAR_GAP` or more behind leaves it whole. An
  estimate, not a calibrated probability;
* ``containment``: share of the old article's distinct content bigrams found in the successor
  article, in [0, 1]; at :data:`PROVEN_CONTAINMENT` or more the old text is (nearly) restated
  by the successor, which is what a replacement needs as proof (SPEC §5, revision policy).

Precomputed because it pays: ~1,500 old articles against ~1,300 candidates take about a second
with sparse matrices at build time, and a lookup is then a dict access.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

PROVEN_CONTAINMENT = 0.8
"""Share of the old article's content bigrams the successor must hold to count as proof that
it restates the old text (合同法第一百零七条 → 民法典第五百七十七条 holds all of them)."""
CLEAR_GAP = 0.2
"""Cosine gap to the runner-up at which the best candidate is taken as clearly singled out."""
MIN_SIMILARITY = 0.2
"""Below this cosine no successor is recorded (the rule has no counterpart in the text)."""

_KEEP = re.compile(r"[0-9A-Za-z\u3400-\u9fff]")


def bigrams(text: str) -> list[str]:
    """Character bigrams of ``text`` with at least one content character (no whitespace)."""
    s = re.sub(r"\s+", "", text)
    return [s[i : i + 2] for i in range(len(s) - 1) if _KEEP.search(s[i : i + 2])]


def _containment(old: str, new: str) -> float:
    a = set(bigrams(old))
    if not a:
        return 0.0
    return len(a & set(bigrams(new))) / len(a)


def _matrix(
    texts: Sequence[str], vocab: dict[str, int], grow: bool
) -> tuple[list[int], list[int], list[float]]:
    rows: list[int] = []
    cols: list[int] = []
    vals: list[float] = []
    for r, t in enumerate(texts):
        counts: dict[int, int] = {}
        for g in bigrams(t):
            j = vocab.get(g)
            if j is None:
                if not grow:
                    continue
                j = vocab[g] = len(vocab)
            counts[j] = counts.get(j, 0) + 1
        for j, c in counts.items():
            rows.append(r)
            cols.append(j)
            vals.append(float(c))
    return rows, cols, vals


def match_successors(
    old: Mapping[str, str], candidates: Mapping[tuple[str, str], str]
) -> dict[str, list[Any]]:
    """Best candidate article for each old article.

    Args:
        old: old article key → article text.
        candidates: (instrument title, article key) → article text.

    Returns:
        old key → ``[title, article, confidence, similarity, containment]`` (numbers rounded
        to 3 places, each in [0, 1]); old articles whose best cosine is below
        :data:`MIN_SIMILARITY` (or with no text) are left out.
    """
    from scipy.sparse import csr_matrix

    if not old or not candidates:
        return {}
    cand_keys = list(candidates)
    vocab: dict[str, int] = {}
    cr, cc, cv = _matrix([candidates[k] for k in cand_keys], vocab, grow=True)
    n_vocab = len(vocab)
    cmat = csr_matrix((cv, (cr, cc)), shape=(len(cand_keys), n_vocab))
    df = np.bincount(np.asarray(cc, dtype=np.int64), minlength=n_vocab) if cc else np.zeros(1)
    idf = np.log((1 + len(cand_keys)) / (1 + df)) + 1.0
    old_keys = list(old)
    orows, ocols, ovals = _matrix([old[k] for k in old_keys], vocab, grow=False)
    omat = csr_matrix((ovals, (orows, ocols)), shape=(len(old_keys), n_vocab))

    def _weighted(m: Any) -> Any:
        m = m.multiply(idf).tocsr()
        norms = np.sqrt(np.asarray(m.multiply(m).sum(axis=1)).ravel())
        norms[norms == 0] = 1.0
        return csr_matrix(m.multiply(1.0 / norms[:, None]))

    sims = (_weighted(omat) @ _weighted(cmat).T).toarray()
    out: dict[str, list[Any]] = {}
    for i, key in enumerate(old_keys):
        row = sims[i]
        if row.size == 0:
            continue
        order = np.argsort(-row, kind="stable")[:2]
        best = float(row[order[0]])
        if best < MIN_SIMILARITY:
            continue
        runner = float(row[order[1]]) if order.size > 1 else 0.0
        distinct = 1.0 - 0.5 * max(0.0, 1.0 - (best - runner) / CLEAR_GAP)
        title, art = cand_keys[int(order[0])]
        out[key] = [
            title,
            art,
            round(min(1.0, best * distinct), 3),
            round(min(1.0, best), 3),
            round(_containment(old[key], candidates[(title, art)]), 3),
        ]
    return out


def _article_texts(version: Mapping[str, Any]) -> dict[str, str]:
    return {
        key: "\n".join(p[0] + "".join(p[1]) for p in paras)
        for key, _pidx, paras in version["articles"]
    }


def add_successor_links(instruments: dict[str, dict[str, Any]]) -> int:
    """Record ``successor_articles`` on every repealed instrument of the payload whose
    successor instrument is in the store with articles (see the module docstring).

    Args:
        instruments: payload instruments by title (after the repeal registry is applied);
            modified in place: ``inst["successor_articles"]`` = {old key: link}.

    Returns:
        The number of old articles that got a successor.
    """
    n = 0
    for inst in instruments.values():
        succ = inst.get("successor")
        if not inst.get("repealed_on") or not succ or succ not in instruments:
            continue
        if not inst["versions"] or not inst["versions"][-1]["articles"]:
            continue
        targets = [succ]
        parent = instruments[succ].get("parent_law")
        if parent and parent in instruments and parent != inst["title"]:
            targets.append(parent)
        candidates: dict[tuple[str, str], str] = {}
        for t in targets:
            versions = instruments[t]["versions"]
            if versions:
                for key, text in _article_texts(versions[-1]).items():
                    candidates[(t, key)] = text
        links = match_successors(_article_texts(inst["versions"][-1]), candidates)
        if links:
            inst["successor_articles"] = links
            n += len(links)
    return n
