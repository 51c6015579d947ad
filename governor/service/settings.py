"""Settings of the governing service (``citegov serve``) and its OpenAI-compatible proxy.

Layer 8 (composition root). Values come from defaults < a TOML file (a ``[service]`` table, or
top-level keys) < environment (``CITEGOV_SERVICE_<FIELD>``) < explicit overrides (CLI flags),
like :func:`governor.core.config.load_config`. Bearer keys are secrets: they are read from the
environment variable named by ``api_keys_env`` (comma-separated), never from the file, and
never printed. The upstream model's key is read from ``upstream_api_key_env`` the same way.
"""

from __future__ import annotations

import ipaddress
import logging
import math
import os
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from governor.core.errors import ConfigError, first_problem

_ENV_PREFIX = "CITEGOV_SERVICE_"
LOOPBACK = "127.0.0.1"
log = logging.getLogger("citegov.service")


class ServiceSettings(BaseModel):
    """All knobs of one service process (frozen).

    Sizes are in bytes (``max_body_bytes``) or characters (``max_chars``); times in seconds.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    host: str = LOOPBACK
    port: int = Field(8000, ge=0, le=65535)
    workers: int = Field(1, ge=1, le=64)
    """uvicorn worker processes; each loads the store once."""
    api_keys_env: str = "CITEGOV_API_KEYS"
    """Name of the environment variable holding the accepted bearer keys (comma-separated)."""
    max_body_bytes: int = Field(4_000_000, ge=1)
    """Largest request body accepted (413 above)."""
    max_chars: int = Field(200_000, ge=1)
    """Largest draft accepted, in characters (413 above)."""
    max_citations: int = Field(400, ge=1)
    """Most citations one draft may hold (413 above)."""
    max_concurrency: int = Field(8, ge=1)
    """Requests governed at once in this worker; more get 429 with ``Retry-After``."""
    retry_after_s: int = Field(1, ge=1)
    upstream_base_url: str | None = None
    """OpenAI-compatible endpoint (``http://host:port/v1``) the proxy forwards to."""
    upstream_model: str | None = None
    """Model name sent upstream when the client's request names none."""
    upstream_api_key_env: str = "CITEGOV_UPSTREAM_API_KEY"
    upstream_timeout_s: float = Field(120.0, gt=0)
    on_error: Literal["pass", "fail"] = "fail"
    """Proxy: when governance fails, return the ungoverned answer (``pass``) or a 502."""
    stream_chunk_chars: int = Field(64, ge=1)
    """Proxy streaming: characters of governed text per ``chat.completion.chunk``."""
    graceful_shutdown_s: float = Field(30.0, ge=0)
    min_key_chars: int = Field(16, ge=1)
    """Shortest bearer key accepted when binding a non-loopback address."""
    min_key_bits: float = Field(64.0, ge=0)
    """Least estimated entropy of such a key, in bits (:func:`key_bits`). Source: 64 bits is
    the floor NIST SP 800-63B sets for memorized secrets chosen by a system (§5.1.1.2 asks 6
    random digits for a lookup secret, 20 bits; 64 bits is the usual floor for API secrets,
    OWASP ASVS V2.6/V3.2: "at least 64 bits of entropy" for session and access tokens)."""
    header_timeout_s: float = Field(10.0, gt=0)
    """Seconds a connection may take to send a request's headers (and an idle new connection
    to send anything) before it is closed: slow-header clients cannot hold sockets."""
    keep_alive_s: float = Field(5.0, gt=0)
    """Seconds an idle keep-alive connection stays open between requests."""
    warm_up: bool = True
    """Verify and govern a small draft at start-up; ``/healthz`` is ready only after it."""
    llm_calls_per_window: int | None = Field(None, ge=1)
    """LLM requests this worker may send per ``llm_window_s`` (default: the run config's
    ``llm_max_calls``). Exhausted: requests get 429 with the reason and ``Retry-After`` until
    the window turns, and ``/healthz`` and ``/metrics`` show it."""
    llm_window_s: float = Field(3600.0, gt=0)
    """Length of the LLM budget window, in seconds."""


def api_keys(settings: ServiceSettings, environ: dict[str, str] | None = None) -> frozenset[str]:
    """The accepted bearer keys (empty: no auth, loopback only)."""
    env = os.environ if environ is None else environ
    raw = env.get(settings.api_keys_env, "")
    return frozenset(k.strip() for k in raw.split(",") if k.strip())


def is_loopback(host: str) -> bool:
    """``True`` for ``localhost`` and 127.0.0.0/8 or ``::1`` addresses."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def key_bits(key: str) -> float:
    """Estimated entropy of ``key`` in bits: its length times the Shannon entropy of its
    characters (a key of one repeated character scores 0, ``x`` scores 0, 32 random hex
    digits about 120)."""
    if not key:
        return 0.0
    n = len(key)
    per_char = -sum(c / n * math.log2(c / n) for c in Counter(key).values())
    return max(0.0, n * per_char)  # never -0.0


def check_binding(settings: ServiceSettings, keys: frozenset[str]) -> None:
    """Refuse to serve a non-loopback address without bearer keys, or with a weak one; warn
    that the service speaks plain HTTP there (keys travel in clear without a TLS proxy).

    Raises:
        ConfigError: ``host`` is not loopback and ``api_keys_env`` holds no key, or a key
            shorter than ``min_key_chars`` or under ``min_key_bits`` (:func:`key_bits`).
    """
    if is_loopback(settings.host):
        return
    if not keys:
        raise ConfigError(
            f"refusing to bind {settings.host} without authentication: set bearer keys in "
            f"${settings.api_keys_env} (comma-separated) or bind {LOOPBACK}"
        )
    for i, key in enumerate(sorted(keys, key=len), start=1):
        if len(key) < settings.min_key_chars or key_bits(key) < settings.min_key_bits:
            raise ConfigError(
                f"refusing to bind {settings.host} with a weak bearer key in "
                f"${settings.api_keys_env} (key {i}: {len(key)} character(s), about "
                f"{key_bits(key):.0f} bits; need {settings.min_key_chars}+ characters and "
                f"{settings.min_key_bits:g}+ bits): generate one with "
                "`python -c 'import secrets; print(secrets.token_urlsafe(32))'`"
            )
    log.warning(
        "serving plain HTTP on %s: bearer keys and drafts travel unencrypted; put a TLS "
        "reverse proxy in front, or bind %s",
        settings.host,
        LOOPBACK,
    )


def load_service_settings(
    file: Path | None = None,
    overrides: dict[str, Any] | None = None,
    environ: dict[str, str] | None = None,
) -> ServiceSettings:
    """Build :class:`ServiceSettings` from defaults < file < environment < ``overrides``.

    Args:
        file: TOML file; its ``[service]`` table is used when present, else its top level
            (keys that are not service settings are ignored there, so one ``citegov.toml``
            can hold both).
        overrides: explicit values (CLI flags); ``None`` values are ignored.
        environ: environment mapping (default ``os.environ``).

    Raises:
        ConfigError: unreadable TOML or a value out of range.
    """
    env = dict(os.environ if environ is None else environ)
    data: dict[str, Any] = {}
    if file is not None:
        try:
            raw = tomllib.loads(file.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ConfigError(
                f"service config {file} could not be read ({exc}); fix the TOML"
            ) from None
        table = raw.get("service", raw)
        data.update({k: v for k, v in table.items() if k in ServiceSettings.model_fields})
    for name in ServiceSettings.model_fields:
        key = _ENV_PREFIX + name.upper()
        if key in env:
            data[name] = env[key]
    data.update({k: v for k, v in (overrides or {}).items() if v is not None})
    try:
        return ServiceSettings.model_validate(data)
    except ValidationError as exc:
        loc, msg = first_problem(exc)
        raise ConfigError(
            f"invalid service setting '{loc}': {msg}; see `citegov serve --help`"
        ) from None
