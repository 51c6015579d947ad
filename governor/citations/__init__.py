"""Layer 1: report text → citations (Chinese grammar, US through eyecite), claims and descriptions.

May import ``governor.core`` and ``governor.text``; the entry point is :func:`governor.citations.extract.extract`.
"""
