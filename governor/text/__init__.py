"""Layer 0: reading drafts (encodings, hidden content), numerals, every citation regex, report dates.

Imports nothing from citegov outside ``governor.text`` and ``governor.core``.
"""
