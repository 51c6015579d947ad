"""Layer 8: the ``citegov`` command line (typer); one module per command group, the app in ``app``.

The composition root: nothing in citegov imports this package.
"""
