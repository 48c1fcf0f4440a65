#!/usr/bin/env bash
# A throwaway PostgreSQL 15 for tests: its data folder and unix socket in DIR, no TCP port.
#   postgres_cluster.sh start DIR [WATCH_PID]   initdb (if DIR has none yet) and start; with WATCH_PID
#                                               the cluster stops by itself once that process is gone
#                                               ("parent": the caller, e.g. ctest for its fixture)
#   postgres_cluster.sh stop DIR                stop (immediately) and remove DIR
#   postgres_cluster.sh crash DIR               stop immediately (as a database crash), keep DIR
#   postgres_cluster.sh restart DIR             start again after a crash
# Exits 77 when PostgreSQL is not installed (CTest's SKIP_RETURN_CODE). initdb refuses to run as
# root: as root, everything runs as the `postgres` user (runuser), which owns DIR. Connect with
# "host=DIR port=5432 user=postgres dbname=postgres" (trust authentication: only the socket in DIR,
# which only root and postgres can reach).
set -euo pipefail
cmd=${1:?usage: postgres_cluster.sh start|stop|crash|restart DIR [WATCH_PID]}
dir=${2:?usage: postgres_cluster.sh start|stop|crash|restart DIR [WATCH_PID]}
watch=${3:-}
[[ "$dir" == /* ]] || { echo "postgres_cluster: DIR must be an absolute path" >&2; exit 2; }
[[ "$watch" != parent ]] || watch=$PPID

bindir=${TINSEL_PG_BINDIR:-/usr/lib/postgresql/15/bin}
if [[ "$cmd" == stop && ! -x "$bindir/pg_ctl" ]]; then
  rm -rf "$dir"  # nothing was started: nothing to stop
  exit 0
fi
if [[ ! -x "$bindir/initdb" || ! -x "$bindir/pg_ctl" ]]; then
  echo "postgres_cluster: PostgreSQL 15 is not installed ($bindir/initdb); apt-get install postgresql-15" >&2
  exit 77
fi
as_pg=()
if [[ $(id -u) -eq 0 ]]; then
  if ! id postgres >/dev/null 2>&1 || ! command -v runuser >/dev/null; then
    echo "postgres_cluster: running as root needs the postgres user and runuser" >&2
    exit 77
  fi
  as_pg=(runuser -u postgres --)
fi
pg_ctl() { "${as_pg[@]}" "$bindir/pg_ctl" -D "$dir/data" "$@"; }

start() {
  # fsync off: a test crashes the database process, never the machine.
  pg_ctl -l "$dir/postgres.log" -w -t 120 \
    -o "-c listen_addresses='' -k $dir -p 5432 -c fsync=off -c full_page_writes=off -c max_connections=200" start >/dev/null
}

case "$cmd" in
  start)
    mkdir -p "$dir"
    if [[ ! -f "$dir/data/PG_VERSION" ]]; then
      [[ ${#as_pg[@]} -eq 0 ]] || chown postgres: "$dir"
      chmod 0700 "$dir"
      "${as_pg[@]}" "$bindir/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C --no-sync >"$dir/initdb.log" 2>&1 ||
        { cat "$dir/initdb.log" >&2; exit 1; }
    fi
    start
    if [[ -n "$watch" ]]; then
      # Whatever happens to the tests (a crash, a timeout's SIGKILL), the cluster does not outlive them.
      nohup setsid bash -c "while kill -0 $watch 2>/dev/null; do sleep 1; done; \
        ${as_pg[*]} $bindir/pg_ctl -D $dir/data -m immediate stop >/dev/null 2>&1; rm -rf $dir" >/dev/null 2>&1 &
    fi
    ;;
  stop)
    [[ -f "$dir/data/postmaster.pid" ]] && pg_ctl -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$dir"
    ;;
  crash) pg_ctl -m immediate stop >/dev/null ;;
  restart) start ;;
  *) echo "postgres_cluster: unknown command $cmd" >&2; exit 2 ;;
esac
