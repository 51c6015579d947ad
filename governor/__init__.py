"""citegov: citation governance for LLM-written legal research reports.

The facade (:class:`Governor`) lives in an upper layer and is loaded lazily, so importing
``governor`` (layer 0/1 modules) never pulls in the pipeline and no import cycle appears.
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"
__all__ = ["Governor", "__version__"]


def __getattr__(name: str) -> Any:
    if name == "Governor":
        from governor.api import Governor

        return Governor
    raise AttributeError(name)
