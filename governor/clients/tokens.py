"""Token counts of chat requests (layer 2): one rule for the dry run, the rate limiter and
the test/benchmark server.

The rule: OpenAI's ``o200k_base`` BPE (the tokenizer of the gpt-4o and o-series models),
through ``bpe-openai`` (a Rust implementation with the BPE table compiled in, so it needs no
download at run time — unlike ``tiktoken``, which fetches its BPE file on first use), when
that package is installed (``pip install 'citegov[llm]'``); else :func:`estimate_tokens`, a
character rule calibrated against ``o200k_base`` on the judge's own prompts (LawBench 3-8
answers: prompts within a few per cent, see the constants). Other providers' tokenizers
(Qwen, DeepSeek, GLM) count Chinese somewhat differently; a dry run against them is an
estimate either way.

Chat framing follows OpenAI's published counting recipe for the gpt-4o family
(``openai-cookbook``, "How to count tokens with tiktoken"): :data:`TOKENS_PER_MESSAGE` per
message plus :data:`TOKENS_REPLY_PRIMING` for the assistant's reply.
"""

from __future__ import annotations

import math
import re
import warnings
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Final

__all__ = [
    "TOKENS_PER_MESSAGE",
    "TOKENS_REPLY_PRIMING",
    "count_message_tokens",
    "count_tokens",
    "estimate_tokens",
    "tokenizer_name",
]

ENCODING: Final = "o200k_base"
TOKENS_PER_MESSAGE: Final = 3
"""Framing tokens per chat message (role and separators), gpt-4o family."""
TOKENS_REPLY_PRIMING: Final = 3
"""Tokens that prime the assistant's reply (``<|start|>assistant<|message|>``)."""
CJK_TOKENS_PER_CHAR: Final = 0.75
"""Estimate: ``o200k_base`` tokens per CJK character (measured on the judge prompts of the first
50 LawBench 3-8 answers: 0.73 alone; 0.75 with the other characters gives the whole prompts
within 1 % of ``o200k_base``)."""
OTHER_CHARS_PER_TOKEN: Final = 2.8
"""Estimate: other characters (ASCII, punctuation, digits, markup) per ``o200k_base`` token."""
_CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]")


def estimate_tokens(text: str) -> int:
    """Token count of ``text`` by a character rule (no tokenizer installed):
    :data:`CJK_TOKENS_PER_CHAR` per CJK character plus one per :data:`OTHER_CHARS_PER_TOKEN`
    other characters, rounded up. An estimate, calibrated against ``o200k_base``."""
    cjk = len(_CJK.findall(text))
    return math.ceil(cjk * CJK_TOKENS_PER_CHAR + (len(text) - cjk) / OTHER_CHARS_PER_TOKEN)


@lru_cache(maxsize=1)
def _encoder() -> Callable[[str], int] | None:
    """The ``o200k_base`` counter of ``bpe-openai``, or None when it is not installed (its
    import builds its tables in Python: ≈1.5 s once per process, so live calls do not use it)."""
    with warnings.catch_warnings():  # its resource loading uses a deprecated importlib call
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            import bpe_openai  # type: ignore[import-not-found,unused-ignore]
        except ImportError:
            return None
        enc = bpe_openai.get_encoding(ENCODING)
        enc.encode("x")  # the table loads on first use
    return lambda text: len(enc.encode(text, disallowed_special=()))


def tokenizer_name() -> str:
    """``"o200k_base"`` when the BPE tokenizer is installed, else ``"estimate"``."""
    return ENCODING if _encoder() is not None else "estimate"


def count_tokens(text: str) -> int:
    """Tokens of ``text`` (``o200k_base`` when installed, else :func:`estimate_tokens`)."""
    enc = _encoder()
    return enc(text) if enc is not None else estimate_tokens(text)


def count_message_tokens(messages: Sequence[Mapping[str, str]], *, exact: bool = True) -> int:
    """Prompt tokens of a chat request: every message's content (and ``name``) plus the
    framing (:data:`TOKENS_PER_MESSAGE` each, :data:`TOKENS_REPLY_PRIMING` once).

    Args:
        messages: ``[{"role": ..., "content": ...}, ...]``.
        exact: count with the BPE tokenizer when installed (importing it costs about 1.5 s
            once per process); False always uses :func:`estimate_tokens` (a live call's
            rate-limit charge, settled with the server's count afterwards).
    """
    count = count_tokens if exact else estimate_tokens
    total = TOKENS_REPLY_PRIMING
    for m in messages:
        total += TOKENS_PER_MESSAGE + count(str(m.get("content", "") or ""))
        total += count(str(m.get("role", "")))
        if m.get("name"):
            total += 1 + count(str(m["name"]))
    return total
