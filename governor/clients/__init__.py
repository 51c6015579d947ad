"""Layer 2: clients of outside services — OpenAI-compatible chat, CourtListener (and a local
US case store), and the disk cache of LLM responses.

Import the submodules directly: openai and httpx are slow to import, so nothing is loaded here.
"""
