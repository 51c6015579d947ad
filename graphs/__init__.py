"""graphs package."""
