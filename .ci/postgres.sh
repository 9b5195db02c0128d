#!/usr/bin/env bash
# Start a PostgreSQL server for the tests (Debian's package; installed when missing) and
# print the URL the tests read from COVE_TEST_POSTGRES. Runs as root, as CI does.
set -euo pipefail
if ! command -v pg_ctlcluster >/dev/null 2>&1 || ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    echo "installing postgresql (Debian package) ..." >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq postgresql >&2
fi
version=$(ls /usr/lib/postgresql | sort -V | tail -1)
if ! pg_lsclusters -h | awk '{print $1" "$2}' | grep -q "^$version main$"; then
    pg_createcluster "$version" main >&2
fi
pg_ctlcluster "$version" main start >&2 2>/dev/null || true
port=$(pg_lsclusters -h | awk -v v="$version" '$1==v && $2=="main" {print $3}')
for _ in $(seq 1 30); do
    if su postgres -c "pg_isready -q -p $port"; then break; fi
    sleep 1
done
su postgres -c "psql -q -p $port -tc \"SELECT 1 FROM pg_roles WHERE rolname='cove'\"" | grep -q 1 \
    || su postgres -c "psql -q -p $port -c \"CREATE ROLE cove LOGIN PASSWORD 'cove'\"" >&2
su postgres -c "psql -q -p $port -tc \"SELECT 1 FROM pg_database WHERE datname='cove_test'\"" | grep -q 1 \
    || su postgres -c "createdb -p $port -O cove cove_test" >&2
echo "postgresql://cove:cove@127.0.0.1:$port/cove_test"
