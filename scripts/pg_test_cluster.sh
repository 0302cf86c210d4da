#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests (Debian's postgresql package).
#
#   eval "$(scripts/pg_test_cluster.sh start /tmp/toolcall-pg)"   # exports TOOLCALL_TEST_DATABASE_URL
#   scripts/pg_test_cluster.sh stop /tmp/toolcall-pg              # stops the server, removes the folder
#
# `start DIR OWNER_PID` (what .ci/run does) records the process the cluster belongs to: when that process is
# gone (killed with SIGKILL, its `trap ... EXIT` never ran), the next start of a cluster in a sibling folder
# stops the left-over server and removes its folder, saying so on stderr. Clusters without an owner are
# left alone.
#
# The server listens only on a unix socket inside the folder (no TCP), with trust
# authentication for the local user: nothing outside this machine can reach it. As root the
# server runs as the `postgres` user (PostgreSQL refuses to run as root).
set -euo pipefail
cmd=${1:?usage: pg_test_cluster.sh start DIR [OWNER_PID] | stop DIR}
dir=${2:?usage: pg_test_cluster.sh start DIR [OWNER_PID] | stop DIR}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -n "$bin" ] || { echo "pg_test_cluster: Debian's postgresql package is not installed" >&2; exit 1; }

as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# The start time of process $1 (field 22 of /proc/PID/stat, after the command name in parentheses), or nothing:
# a pid and its start time name one process, even after the pid is reused.
started_at() {
  local stat
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 0
  stat=${stat##*) }
  # shellcheck disable=SC2086
  set -- $stat
  echo "${20}"
}

# Stop the clusters in DIR's sibling folders whose recorded owner process no longer exists.
reap_orphans() {
  local parent owner pid when
  parent=$(dirname "$1")
  for other in "$parent"/*/; do
    other=${other%/}
    [ -f "$other/owner" ] && [ -d "$other/data" ] && [ ! -L "$other" ] || continue
    [ -O "$other/owner" ] || continue  # another user's
    read -r pid when < "$other/owner" || continue
    [ -n "$pid" ] && [ "$(started_at "$pid")" = "$when" ] && continue  # its owner is alive
    as_owner "$bin/pg_ctl" -D "$other/data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$other"
    echo "pg_test_cluster: stopped the cluster in $other, left running by process $pid (gone)" >&2
  done
}

case "$cmd" in
  start)
    owner=${3:-}
    reap_orphans "$dir"
    if [ -e "$dir/data" ]; then
      echo "pg_test_cluster: $dir already holds a cluster; stop it first: scripts/pg_test_cluster.sh stop $dir" >&2
      exit 1
    fi
    mkdir -p "$dir"
    if [ -n "$owner" ]; then
      when=$(started_at "$owner")
      [ -n "$when" ] || { echo "pg_test_cluster: no process $owner to own the cluster" >&2; exit 1; }
      echo "$owner $when" > "$dir/owner"
    fi
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
