"""Layer 0: frozen domain types, errors, configuration, label→score rules, ports and the report schema.

Imports nothing from citegov outside ``governor.core`` and ``governor.text``.
"""
