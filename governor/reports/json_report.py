"""The SPEC §2 machine-readable report of one governed draft (layer 7).

``citegov verify --json`` prints it, ``citegov revise`` writes it as ``<name>.verdicts.json``.
The pydantic models, the JSON Schema and the builder live in :mod:`governor.core.report`
(layer 0), so a run result can render itself (``GovernanceResult.to_report()``, layer 5)
without importing this layer; this module re-exports the builder for the report writers.
"""

from __future__ import annotations

from governor.core.report import build_report

__all__ = ["build_report"]
