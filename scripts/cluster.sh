#!/usr/bin/env bash
# A Tinsel cluster on this machine in one command: PostgreSQL 15 in a folder of its own, N
# instances of tinsel-server on it (cluster mode, docs/operations.md "Cluster mode"), and HAProxy
# in front (packaging/haproxy.cfg). Installs what is missing and builds, like scripts/run.sh.
# Open the URL it prints; Ctrl-C stops everything (the instances drain first).
#
#   scripts/cluster.sh [--instances N] [--port PORT] [-- FLAGS FOR EVERY INSTANCE]
#
#   --instances N   how many instances, i1 ... iN (default 3)
#   --port PORT     HAProxy's port, the one to open (default 8080); instance K listens on
#                   127.0.0.1:PORT+K and has its metrics on 127.0.0.1:9464+K
#
# The database is kept in TINSEL_CLUSTER_DIR (default data/cluster, or /var/tmp/tinsel-cluster when
# run as root from a folder the postgres user cannot reach), so rooms survive a restart of the
# whole cluster. Try the failover: `kill -9` the instance that owns your room (the log line
# "room created" names it, and so does the welcome's server.instance); the page carries on.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

instances=3
port=${TINSEL_PORT:-8080}
extra=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --instances) instances=${2:?--instances needs a number}; shift 2 ;;
    --port) port=${2:?--port needs a number}; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "cluster.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
[[ "$instances" =~ ^[1-9][0-9]?$ ]] || { echo "cluster.sh: --instances must be 1 to 99" >&2; exit 2; }
[[ "$port" =~ ^[0-9]+$ ]] || { echo "cluster.sh: --port must be a number" >&2; exit 2; }

"$root/docker/install-deps.sh" "$root/docker/cluster-packages.txt"
# TINSEL_SERVER_BINARY: a tinsel-server built elsewhere (no build here).
if [[ -n "${TINSEL_SERVER_BINARY:-}" ]]; then
  server=$TINSEL_SERVER_BINARY
else
  tinsel_build -DTINSEL_BUILD_TESTS=OFF
  server="$build_dir/server/tinsel-server"
fi
pgbin=${TINSEL_PG_BINDIR:-/usr/lib/postgresql/15/bin}
[[ -x "$pgbin/initdb" ]] || { echo "cluster.sh: PostgreSQL 15 is missing ($pgbin/initdb)" >&2; exit 1; }
command -v haproxy >/dev/null || { echo "cluster.sh: HAProxy is missing (apt-get install haproxy)" >&2; exit 1; }

# initdb refuses to run as root: as root, PostgreSQL runs as the postgres user, which owns its
# folder and must be able to reach it.
as_pg=()
if [[ $(id -u) -eq 0 ]]; then
  id postgres >/dev/null 2>&1 || { echo "cluster.sh: running as root needs the postgres user (it comes with postgresql-15)" >&2; exit 1; }
  as_pg=(runuser -u postgres --)
fi
dir=${TINSEL_CLUSTER_DIR:-$root/data/cluster}
if [[ -z "${TINSEL_CLUSTER_DIR:-}" && ${#as_pg[@]} -gt 0 ]] && ! runuser -u postgres -- test -x "$(dirname "$dir")" 2>/dev/null; then
  mkdir -p "$(dirname "$dir")"
  runuser -u postgres -- test -x "$(dirname "$dir")" 2>/dev/null || dir=/var/tmp/tinsel-cluster
fi
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
pgdata="$dir/postgres"
conninfo="host=$dir port=5432 user=postgres dbname=tinsel"
mkdir -p "$dir/logs"

pids=()
stop_all() {
  trap - INT TERM EXIT
  echo
  echo "cluster.sh: stopping: the instances drain (their rooms are released in the database) ..."
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  "${as_pg[@]}" "$pgbin/pg_ctl" -D "$pgdata" -m fast stop >/dev/null 2>&1 || true
  echo "cluster.sh: stopped. The database stays in $dir (rooms come back with the next start)."
}
trap stop_all INT TERM EXIT

if [[ ! -f "$pgdata/PG_VERSION" ]]; then
  echo "cluster.sh: a new PostgreSQL in $pgdata"
  [[ ${#as_pg[@]} -eq 0 ]] || chown postgres: "$dir"
  chmod 0700 "$dir"
  "${as_pg[@]}" "$pgbin/initdb" -D "$pgdata" -U postgres -A trust -E UTF8 --locale=C >"$dir/logs/initdb.log" 2>&1 ||
    { cat "$dir/logs/initdb.log" >&2; exit 1; }
fi
[[ ${#as_pg[@]} -eq 0 ]] || chown postgres: "$dir/logs"
# Only a unix socket in $dir (mode 0700: this user or root only), no TCP port.
setsid "${as_pg[@]}" "$pgbin/pg_ctl" -D "$pgdata" -l "$dir/logs/postgres.log" -w -t 120 \
  -o "-c listen_addresses='' -k $dir -p 5432 -c max_connections=200" start >/dev/null ||
  { tail -20 "$dir/logs/postgres.log" >&2; exit 1; }
"${as_pg[@]}" psql "host=$dir port=5432 user=postgres dbname=postgres" -qAt -c "SELECT 1 FROM pg_database WHERE datname = 'tinsel'" | grep -q 1 ||
  "${as_pg[@]}" psql "host=$dir port=5432 user=postgres dbname=postgres" -q -c "CREATE DATABASE tinsel" >/dev/null

servers=""
for k in $(seq 1 "$instances"); do
  id="i$k"
  # setsid: Ctrl-C reaches this script only, which then drains the instances one by one.
  setsid "$server" --instance "$id" --journal postgres --postgres "$conninfo" \
    --bind 127.0.0.1 --port $((port + k)) --metrics-bind "127.0.0.1:$((9464 + k))" \
    --trusted-proxy 127.0.0.1 --data-dir "$dir/$id" "${extra[@]}" >"$dir/logs/$id.log" 2>&1 &
  pids+=($!)
  servers+="    server $id 127.0.0.1:$((port + k)) check inter 1s fall 2 rise 2"$'\n'
  echo "cluster.sh: instance $id on 127.0.0.1:$((port + k)) (log: $dir/logs/$id.log)"
done

# packaging/haproxy.cfg with its server lines replaced by this cluster's.
awk -v servers="$servers" '/^[ \t]*# servers: begin/ { print; printf "%s", servers; skip = 1; next }
  /^[ \t]*# servers: end/ { skip = 0 } !skip' "$root/packaging/haproxy.cfg" >"$dir/haproxy.cfg"
export TINSEL_HAPROXY_BIND="0.0.0.0:$port" TINSEL_HAPROXY_SOCKET="$dir/haproxy.sock"
setsid haproxy -db -f "$dir/haproxy.cfg" >"$dir/logs/haproxy.log" 2>&1 &
pids+=($!)

# Ready once every instance's /healthz says 200 (its lease is valid) and HAProxy answers.
ready() {
  for k in $(seq 1 "$instances"); do curl -fsS -o /dev/null "http://127.0.0.1:$((port + k))/healthz" 2>/dev/null || return 1; done
  curl -fsS -o /dev/null "http://127.0.0.1:$port/healthz" 2>/dev/null
}
for _ in $(seq 1 120); do
  ready && break
  for pid in "${pids[@]}"; do
    kill -0 "$pid" 2>/dev/null || { echo "cluster.sh: a process stopped; see $dir/logs/" >&2; tail -n 5 "$dir"/logs/*.log >&2; exit 1; }
  done
  sleep 0.5
done
echo
echo "Tinsel cluster: $instances instances on one PostgreSQL, behind HAProxy. Open http://localhost:$port/"
echo "  HAProxy's runtime API: $dir/haproxy.sock; logs in $dir/logs/. Ctrl-C stops everything."
wait -n "${pids[@]}" || true
echo "cluster.sh: a process stopped unexpectedly; see $dir/logs/" >&2
