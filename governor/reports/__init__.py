"""Layer 7: what a run hands to its reader — the SPEC §2 JSON report and the annotated HTML pages.

May import every layer below 8 (graphs included); imported by the facade, the batch runner and the CLI.
"""
