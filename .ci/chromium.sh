#!/usr/bin/env bash
# Debian's Chromium for the browser tests (tests/web, Playwright drives /usr/bin/chromium
# headless; `playwright install` is never needed). Installed when missing; runs as root, as
# CI does.
set -euo pipefail
if ! command -v chromium >/dev/null 2>&1; then
    echo "installing chromium (Debian package) ..." >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq chromium >&2
fi
chromium --version >&2
