"""Authority store of PRC legal instruments (SPEC §6; layer 1).

Public entry points: :class:`AuthorityStore` and :func:`load_default_store` (the bundled build,
cached per process); :func:`build_store` for ``citegov corpus build``. Record types are in
:mod:`governor.core.records`.
"""

from __future__ import annotations

from governor.authorities.store import (
    AuthorityStore,
    VersionDates,
    build_store,
    load_default_store,
)
from governor.core.records import (
    ArticleRecord,
    GuidingCase,
    Instrument,
    InstrumentVersion,
    ParagraphRecord,
    RepealRecord,
    SuccessorLink,
)

__all__ = [
    "ArticleRecord",
    "AuthorityStore",
    "GuidingCase",
    "Instrument",
    "InstrumentVersion",
    "ParagraphRecord",
    "RepealRecord",
    "SuccessorLink",
    "VersionDates",
    "build_store",
    "load_default_store",
]
