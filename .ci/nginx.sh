#!/usr/bin/env bash
# Debian's nginx (and openssl, for the test's self-signed certificate) for the deployment
# test (tests/serve/test_deploy.py, which runs docs/DEPLOY.md's site in front of two
# `cove serve` processes); installed when missing. Prints the nginx binary, which the test
# reads from COVE_TEST_NGINX. The test starts its own nginx (its own prefix, ports and pid
# file), so the package's service is not needed: it is stopped if the install started it.
# Runs as root, as CI does.
set -euo pipefail
nginx=$(command -v nginx || true)
if [ -z "$nginx" ] && [ -x /usr/sbin/nginx ]; then nginx=/usr/sbin/nginx; fi
if [ -z "$nginx" ] || ! command -v openssl >/dev/null 2>&1; then
    echo "installing nginx and openssl (Debian packages) ..." >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq nginx openssl >&2
    if command -v systemctl >/dev/null 2>&1 && systemctl is-active --quiet nginx 2>/dev/null; then
        systemctl stop nginx >&2 || true
    fi
    nginx=/usr/sbin/nginx
fi
"$nginx" -v >&2
echo "$nginx"
