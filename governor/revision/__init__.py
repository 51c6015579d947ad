"""Layer 4: revision — strategies (existence / efa), edit operations, the revision policy
(what may change words, ``policy``), the reading invariants (``invariants``), the LLM reviser.

May import layers 0–3 (core, text, citations, authorities, retrieval, clients, verifiers).
"""
