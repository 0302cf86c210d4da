#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests (Debian's postgresql package).
#
#   eval "$(scripts/pg_test_cluster.sh start /tmp/toolcall-pg)"   # exports TOOLCALL_TEST_DATABASE_URL
#   scripts/pg_test_cluster.sh stop /tmp/toolcall-pg              # stops the server, removes the folder
#
# The server listens only on a unix socket inside the folder (no TCP), with trust
# authentication for the local user: nothing outside this machine can reach it. As root the
# server runs as the `postgres` user (PostgreSQL refuses to run as root).
set -euo pipefail
cmd=${1:?usage: pg_test_cluster.sh start|stop DIR}
dir=${2:?usage: pg_test_cluster.sh start|stop DIR}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -n "$bin" ] || { echo "pg_test_cluster: Debian's postgresql package is not installed" >&2; exit 1; }

as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "$cmd" in
  start)
    if [ -e "$dir/data" ]; then
      echo "pg_test_cluster: $dir already holds a cluster; stop it first: scripts/pg_test_cluster.sh stop $dir" >&2
      exit 1
    fi
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres:postgres "$dir"
    as_owner "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; exit 1; }
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
      -o "-k $dir -p $port -c listen_addresses='' -c fsync=off -c max_connections=200" start >/dev/null \
      || { cat "$dir/server.log" >&2; exit 1; }
    as_owner "$bin/createdb" -h "$dir" -p "$port" -U postgres toolcall_test
    echo "export TOOLCALL_TEST_DATABASE_URL='postgresql://postgres@/toolcall_test?host=$dir&port=$port'"
    ;;
  stop)
    if [ -d "$dir/data" ]; then
      as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    ;;
  *) echo "usage: pg_test_cluster.sh start|stop DIR" >&2; exit 2 ;;
esac
