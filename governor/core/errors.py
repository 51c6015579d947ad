"""citegov errors: one root, one subclass per failure kind (leaf module, imports nothing).

Every message names the input and says what to do next (STYLE 7). Each class carries an
``ErrorCode`` so callers and the CLI branch on codes, never on message text.
"""

from __future__ import annotations

from enum import StrEnum


class ErrorCode(StrEnum):
    """Stable machine-readable codes; the CLI maps them to exit codes."""

    INPUT = "input"
    ENCODING = "encoding"
    TOO_LARGE = "too_large"
    CONFIG = "config"
    CORPUS = "corpus"
    STORE = "store"
    INDEX = "index"
    BACKEND = "backend"
    ENDPOINT = "endpoint"
    UNREACHABLE = "unreachable"
    BUDGET = "budget"
    JUDGE = "judge"
    TASK = "task"
    STRATEGY = "strategy"
    MISSING_EXTRA = "missing_extra"
    OUTPUT = "output"


class GovernorError(Exception):
    """Root of all citegov errors."""

    code: ErrorCode = ErrorCode.INPUT


class InputError(GovernorError):
    """A draft or file given by the user cannot be used (missing, binary, empty path...)."""

    code = ErrorCode.INPUT


class EncodingError(InputError):
    """A file is not text in a supported encoding (UTF-8/BOM, UTF-16 BOM, GB18030/GBK)."""

    code = ErrorCode.ENCODING


class InputTooLargeError(InputError):
    """A draft exceeds the configured size limit (``--max-chars``)."""

    code = ErrorCode.TOO_LARGE


class OutputError(GovernorError):
    """An output cannot be written: the disk is full, the folder is read-only or not a folder.
    Not a fault of one draft: a batch stops (the drafts already written are kept for
    ``--resume``) and the CLI exits with its own code (4)."""

    code = ErrorCode.OUTPUT


class ConfigError(GovernorError):
    """A configuration value, flag or environment variable is invalid."""

    code = ErrorCode.CONFIG


class StrategyError(ConfigError):
    """An unknown governance strategy or judge backend was requested."""

    code = ErrorCode.STRATEGY


class CorpusError(GovernorError):
    """The source corpus folder cannot be parsed into an authority store."""

    code = ErrorCode.CORPUS


class StoreError(GovernorError):
    """The built authority store is missing or corrupt."""

    code = ErrorCode.STORE


class RetrievalIndexError(GovernorError):
    """The semantic (chromadb) or BM25 index is missing, corrupt or built with another embedder."""

    code = ErrorCode.INDEX


class BackendError(GovernorError):
    """An optional backend (embedder, sentence-transformers, chroma server) is unavailable."""

    code = ErrorCode.BACKEND


class EndpointError(BackendError):
    """An OpenAI-compatible or CourtListener endpoint is unreachable or keeps failing."""

    code = ErrorCode.ENDPOINT


class EndpointUnreachableError(EndpointError):
    """An endpoint could not be connected to at all (connection refused, DNS failure), after
    the client's retries, and no request to it ever succeeded: a configuration problem, not a
    transient fault (SPEC §10: a clear error and a non-zero exit, never ``unknown`` verdicts)."""

    code = ErrorCode.UNREACHABLE


class EndpointRejectedError(EndpointError):
    """An endpoint answered but refuses every request of this run: the key is rejected (HTTP
    401/403) or the model/path does not exist (404). Like an unreachable endpoint this is a
    configuration problem: a clear error and a non-zero exit, never ``unknown`` verdicts."""

    code = ErrorCode.UNREACHABLE


FATAL_ENDPOINT_ERRORS: tuple[type[GovernorError], ...] = (
    EndpointUnreachableError,
    EndpointRejectedError,
)
"""Endpoint failures that end a run instead of being recorded as ``unknown`` verdicts."""


class BudgetExceededError(GovernorError):
    """A per-run budget of LLM calls or tokens would be exceeded."""

    code = ErrorCode.BUDGET


class JudgeOutputError(GovernorError):
    """A judge answer could not be parsed or validated (recorded as label ``unknown``)."""

    code = ErrorCode.JUDGE


class TaskError(GovernorError):
    """A benchmark task file does not follow the task schema."""

    code = ErrorCode.TASK


class MissingExtraError(ConfigError):
    """An optional part of citegov is used but its package is not installed (the message
    names the ``pip install 'citegov[extra]'`` command)."""

    code = ErrorCode.MISSING_EXTRA


def first_problem(exc: Exception) -> tuple[str, str]:
    """``(dotted location, message)`` of the first error of a pydantic ``ValidationError``,
    for messages that name the field to fix."""
    errors = getattr(exc, "errors", None)
    if not callable(errors) or not errors():
        return "", str(exc)
    first = errors()[0]
    return ".".join(str(p) for p in first.get("loc", ())), str(first.get("msg", exc))
