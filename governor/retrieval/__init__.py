"""Layer 2: provision retrieval — BM25 + dense hybrid (RRF), embedders, the persistent chromadb index.

May import layers 0–1 (core, text, citations, authorities) and ``governor.clients``.
"""
