#!/usr/bin/env bash
# The README's test command: fresh venv, CPU torch first, package with [st,dev], then lint,
# type-check and the whole test suite.
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
rm -rf "$VENV"
"$PY" -m venv "$VENV"
"$VENV/bin/pip" install -q --upgrade pip
"$VENV/bin/pip" install -q torch==2.13.0
"$VENV/bin/pip" install -q -e '.[st,dev]'
"$VENV/bin/ruff" check governor graphs verifiers benchmarks tests
"$VENV/bin/ruff" format --check governor graphs verifiers benchmarks tests
"$VENV/bin/mypy"
HF_HUB_OFFLINE=1 "$VENV/bin/python" -m pytest -p no:cacheprovider "$@"
