"""Layer 4: revision — strategies (existence / efa), edit operations, the LLM reviser.

May import layers 0–3 (core, text, citations, authorities, retrieval, clients, verifiers).
"""
