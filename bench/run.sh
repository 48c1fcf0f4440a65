#!/usr/bin/env bash
# One table of Tinsel's performance: builds tinsel-server, tinsel-loadgen and tinsel-echo, starts a
# fresh server for every row (timers off through the room options, journal off unless the row says
# otherwise, rate and per-address limits lifted, --threads 1 unless the row says otherwise), runs
# tinsel-loadgen against it and prints one markdown table. bench/README.md describes every row.
#
#   bench/run.sh [--quick] [--seconds 10] [--warmup 2] [--repeat 1] [--only ROW,ROW]
#                [--server PATH] [--baseline PATH] [--build-dir build] [--no-build] [--idle [N]] [--out DIR]
#
# --baseline PATH: every Tinsel row also runs against another tinsel-server binary (for example one
# built from an older commit), interleaved with the current one, and the table shows both.
#
# Rows (for --only): echo echo-sized hh hh-t2 echo-250 echo-sized-250 hh-250 cp ub journal deflate cp-deflate ub-deflate
# hh-changes cp-changes ub-changes hh-both cp-both ub-both, and idle idle-game idle-changes idle-deflate idle-both
# (only with --idle or --only: 10,000 connections by default, which needs `ulimit -n` of about 10,100
# in each process). The echo-sized rows first record the sizes of Happy Holidays' state frames (a
# short run of their own, tinsel-loadgen --record-sizes).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build="$root/build"
seconds=10
warmup=2
repeat=1
only=""
server_bin=""
baseline_bin=""
do_build=1
idle=0
idle_connections=10000
out=""

usage() { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) seconds=3; warmup=1 ;;
    --seconds) seconds=$2; shift ;;
    --warmup) warmup=$2; shift ;;
    --repeat) repeat=$2; shift ;;
    --only) only=$2; shift ;;
    --server) server_bin=$(realpath "$2"); shift ;;
    --baseline) baseline_bin=$(realpath "$2"); shift ;;
    --build-dir) build=$(realpath "$2"); shift ;;
    --no-build) do_build=0 ;;
    --idle)
      idle=1
      if [ $# -gt 1 ] && [[ $2 =~ ^[0-9]+$ ]]; then idle_connections=$2; shift; fi ;;
    --out) out=$2; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "run.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
  esac
  shift
done

# ---- build ---------------------------------------------------------------------------------------
if [ "$do_build" = 1 ]; then
  [ -f "$build/build.ninja" ] || [ -f "$build/Makefile" ] ||
    cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  targets=(tinsel-loadgen tinsel-echo)
  [ -n "$server_bin" ] || targets+=(tinsel-server)
  # The engine's own benchmark (bench/engine) comes from another branch: build it where it exists.
  if cmake --build "$build" --target help 2>/dev/null | grep -q '^tinsel-engine-bench:'; then
    targets+=(tinsel-engine-bench)
  fi
  echo "building ${targets[*]}" >&2
  cmake --build "$build" --target "${targets[@]}" >&2
fi
[ -n "$server_bin" ] || server_bin="$build/server/tinsel-server"
loadgen="$build/bench/loadgen/tinsel-loadgen"
echo_bin="$build/bench/echo/tinsel-echo"
for b in "$server_bin" "$loadgen" "$echo_bin" ${baseline_bin:+"$baseline_bin"}; do
  [ -x "$b" ] || { echo "run.sh: $b is missing (build it, or drop --no-build)" >&2; exit 2; }
done

# Many connections in the idle row: the servers started below inherit this.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

[ -n "$out" ] || out=$(mktemp -d /tmp/tinsel-bench.XXXXXX)
mkdir -p "$out"
results="$out/results.jsonl"
: >"$results"

# ---- servers -------------------------------------------------------------------------------------

# The flags a server binary lists in --help; an older binary (--server, --baseline) may lack some.
# lifted_flags BINARY: prints the limit-lifting flags that binary knows, one per line.
lifted_flags() {
  local skipped=()
  for pair in max-connections=20000 max-connections-per-address=20000 rooms-per-address-per-minute=100000 \
              live-rooms-per-address=100000 identities-per-address=100000 rate-per-sec=100000 rate-burst=100000 \
              max-tcp-connections-per-address=100000 connections-per-address-per-sec=100000 \
              connection-burst-per-address=100000 metrics-bind=off; do
    if knows "$1" "${pair%%=*}"; then printf '%s\n' "--${pair%%=*}" "${pair#*=}"
    else skipped+=("${pair%%=*}"); fi
  done
  [ ${#skipped[@]} -eq 0 ] || echo "run.sh: $1 does not know --${skipped[*]} (left out)" >&2
}
# knows BINARY FLAG: whether that binary lists --FLAG. Each binary's --help is read once, into a
# variable (grep -q ending a pipe early would fail it under pipefail).
declare -A help_text=()
knows() {
  [ -n "${help_text[$1]+x}" ] || help_text[$1]=$("$1" --help 2>&1 || true)
  grep -Eq -- "^ +--$2( |$)" <<<"${help_text[$1]}"
}
mapfile -t lifted < <(lifted_flags "$server_bin")
baseline_lifted=()
[ -z "$baseline_bin" ] || mapfile -t baseline_lifted < <(lifted_flags "$baseline_bin")

free_port() {
  node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

server_pid=""
stop_server() {
  [ -n "$server_pid" ] || return 0
  kill -TERM "$server_pid" 2>/dev/null || true
  for _ in $(seq 100); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
  server_pid=""
}
trap stop_server EXIT

# start_tinsel BINARY LOG FLAGS...: sets server_pid and url.
start_tinsel() {
  local bin=$1 log=$2; shift 2
  local port extra=("${lifted[@]}")
  [ "$bin" = "$server_bin" ] || extra=("${baseline_lifted[@]}")
  # A flag this binary does not know (an older --baseline) is left out: "--deflate on" for one.
  local flags=()
  while [ $# -gt 0 ]; do
    if [[ $1 == --* ]] && ! knows "$bin" "${1#--}"; then
      echo "run.sh: $bin does not know $1 (left out)" >&2
      [[ $# -gt 1 && $2 != --* ]] && shift
    else flags+=("$1"); fi
    shift
  done
  port=$(free_port)
  "$bin" --port "$port" --log-level warn "${extra[@]}" "${flags[@]}" >"$log" 2>&1 &
  server_pid=$!
  url="ws://127.0.0.1:$port/ws"
  for _ in $(seq 200); do
    curl -fs "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && return 0
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.05
  done
  echo "run.sh: tinsel-server did not come up; its log:" >&2
  cat "$log" >&2
  return 1
}

start_echo() {
  local log=$1; shift
  "$echo_bin" --port 0 "$@" >"$log" 2>&1 &
  server_pid=$!
  for _ in $(seq 200); do
    if grep -q 'listening port=' "$log"; then
      url="ws://127.0.0.1:$(sed -n 's/.*listening port=\([0-9]*\).*/\1/p' "$log")/ws"
      return 0
    fi
    sleep 0.05
  done
  echo "run.sh: tinsel-echo did not come up" >&2
  return 1
}

# ---- rows ----------------------------------------------------------------------------------------
# id | label | kind (tinsel, echo, idle) | server flags | loadgen flags
rows=(
  "echo|tinsel-echo, 50×4 (the lean ceiling: action-sized frames)|echo|--threads 1|--echo --rooms 50 --players 4"
  "echo-sized|tinsel-echo, 50×4, frames the size of Happy Holidays' states|echo|--threads 1|--echo --rooms 50 --players 4 --sizes @SIZES@"
  "hh|happy_holidays 50×4|tinsel|--threads 1 --journal off|--game happy_holidays --rooms 50 --players 4"
  "hh-t2|happy_holidays 50×4, server --threads 2|tinsel|--threads 2 --journal off|--game happy_holidays --rooms 50 --players 4"
  "echo-250|tinsel-echo, 250×4 (the lean ceiling for 250 rooms)|echo|--threads 1|--echo --rooms 250 --players 4"
  "echo-sized-250|tinsel-echo, 250×4, frames the size of Happy Holidays' states|echo|--threads 1|--echo --rooms 250 --players 4 --sizes @SIZES@"
  "hh-250|happy_holidays 250×4|tinsel|--threads 1 --journal off|--game happy_holidays --rooms 250 --players 4"
  "cp|christmas_penguins 50×4|tinsel|--threads 1 --journal off|--game christmas_penguins --rooms 50 --players 4"
  "ub|unterm_baum 50×4|tinsel|--threads 1 --journal off|--game unterm_baum --rooms 50 --players 4"
  "journal|happy_holidays 50×4, journal sqlite|tinsel|--threads 1 --journal sqlite --data-dir @DATA@|--game happy_holidays --rooms 50 --players 4"
  "deflate|happy_holidays 50×4, permessage-deflate|tinsel|--threads 1 --journal off --deflate on|--game happy_holidays --rooms 50 --players 4 --deflate"
  "cp-deflate|christmas_penguins 50×4, permessage-deflate|tinsel|--threads 1 --journal off --deflate on|--game christmas_penguins --rooms 50 --players 4 --deflate"
  "ub-deflate|unterm_baum 50×4, permessage-deflate|tinsel|--threads 1 --journal off --deflate on|--game unterm_baum --rooms 50 --players 4 --deflate"
  "hh-changes|happy_holidays 50×4, views as changes|tinsel|--threads 1 --journal off|--game happy_holidays --rooms 50 --players 4 --changes"
  "cp-changes|christmas_penguins 50×4, views as changes|tinsel|--threads 1 --journal off|--game christmas_penguins --rooms 50 --players 4 --changes"
  "ub-changes|unterm_baum 50×4, views as changes|tinsel|--threads 1 --journal off|--game unterm_baum --rooms 50 --players 4 --changes"
  "hh-both|happy_holidays 50×4, changes and permessage-deflate|tinsel|--threads 1 --journal off --deflate on|--game happy_holidays --rooms 50 --players 4 --changes --deflate"
  "cp-both|christmas_penguins 50×4, changes and permessage-deflate|tinsel|--threads 1 --journal off --deflate on|--game christmas_penguins --rooms 50 --players 4 --changes --deflate"
  "ub-both|unterm_baum 50×4, changes and permessage-deflate|tinsel|--threads 1 --journal off --deflate on|--game unterm_baum --rooms 50 --players 4 --changes --deflate"
)
idle_rows=(
  "idle|$idle_connections idle connections in rooms of 4, in the lobby|idle|--threads 1 --journal off|--idle $idle_connections --players 4"
  "idle-game|$idle_connections idle connections in rooms of 4, a game started in each|idle|--threads 1 --journal off|--idle $idle_connections --players 4 --idle-start"
  "idle-changes|$idle_connections idle connections in rooms of 4, a game started in each, views as changes|idle|--threads 1 --journal off|--idle $idle_connections --players 4 --idle-start --changes"
  "idle-deflate|$idle_connections idle connections in rooms of 4, a game started in each, permessage-deflate|idle|--threads 1 --journal off --deflate on|--idle $idle_connections --players 4 --idle-start --deflate"
  "idle-both|$idle_connections idle connections in rooms of 4, a game started in each, changes and permessage-deflate|idle|--threads 1 --journal off --deflate on|--idle $idle_connections --players 4 --idle-start --changes --deflate"
)

# The engines' micro-benchmark (row "engine"): its own table, printed after the load table.
engine_bench="$build/bench/engine/tinsel-engine-bench"
run_engine=0
if [ -z "$only" ] || [[ ",$only," == *",engine,"* ]]; then
  [ -x "$engine_bench" ] && run_engine=1
fi
only_load=${only//engine/}
only_load=$(sed 's/,,*/,/g; s/^,//; s/,$//' <<<"$only_load")

selected=()
for row in "${rows[@]}" "${idle_rows[@]}"; do
  id=${row%%|*}
  if [ -n "$only" ] && [ -z "$only_load" ]; then continue; fi
  if [ -n "$only" ]; then
    [[ ",$only," == *",$id,"* ]] && selected+=("$row")
  elif [[ $id != idle* ]] || [ "$idle" = 1 ]; then
    selected+=("$row")
  fi
done
[ ${#selected[@]} -gt 0 ] || [ "$run_engine" = 1 ] || { echo "run.sh: --only $only names no row" >&2; exit 2; }

# run_row REP ROW [before]: with "before", against the --baseline binary.
run_row() {
  local rep=$1 row=$2 which=${3:-}
  IFS='|' read -r id label kind sflags lflags <<<"$row"
  local bin=$server_bin
  if [ "$which" = before ]; then
    bin=$baseline_bin
    id="$id@before"
    label="$label, before"
  fi
  local data=""
  if [[ $sflags == *@DATA@* ]]; then
    data=$(mktemp -d /tmp/tinsel-bench-journal.XXXXXX)
    sflags=${sflags//@DATA@/$data}
  fi
  lflags=${lflags//@SIZES@/$sizes_file}
  local slog="$out/$id-$rep.server.log" llog="$out/$id-$rep.loadgen.log"
  # shellcheck disable=SC2086  # the flags are words
  if [ "$kind" = echo ]; then start_echo "$slog" $sflags; else start_tinsel "$bin" "$slog" $sflags; fi
  local timing=(--seconds "$seconds" --warmup "$warmup")
  [ "$kind" = idle ] && timing=()
  echo "== $label (run $rep of $repeat; log $llog)" >&2
  set +e
  # shellcheck disable=SC2086
  "$loadgen" --url "$url" --pid "$server_pid" --json "${timing[@]}" $lflags >"$llog" 2>&1
  local status=$?
  set -e
  # The loadgen's own report goes to its log; a failed run shows it here too.
  if [ "$status" != 0 ]; then grep -v '^{' "$llog" >&2 || true; fi
  stop_server
  local warnings
  warnings=$(grep -c . "$slog" || true)
  [ "$kind" = echo ] && warnings=$((warnings - 1))  # its "listening" line
  [ -z "$data" ] || rm -rf "$data"
  local line
  line=$(grep '^{' "$llog" | tail -1 || true)
  [ -n "$line" ] || line='{"errors":1,"refusals":0,"failed":true}'
  node -e 'const [id,label,rep,status,warnings,line]=process.argv.slice(1);
           console.log(JSON.stringify({id,label,rep:+rep,exit:+status,server_log_lines:+warnings,...JSON.parse(line)}))' \
    "$id" "$label" "$rep" "$status" "$warnings" "$line" >>"$results"
}

# The same-size echo rows replay the sizes of Tinsel's own state frames, measured now (they change
# as the state builder does): a short Happy Holidays run of 50 rooms × 4 against a fresh server.
sizes_file="$out/sizes-happy_holidays.txt"
record_sizes() {
  start_tinsel "$server_bin" "$out/sizes.server.log" --threads 1 --journal off
  echo "== recording the sizes of Happy Holidays' state frames (log $out/sizes.loadgen.log)" >&2
  set +e
  "$loadgen" --url "$url" --game happy_holidays --rooms 50 --players 4 --seconds 3 --warmup 1 \
    --record-sizes "$sizes_file" >"$out/sizes.loadgen.log" 2>&1
  local status=$?
  set -e
  stop_server
  if [ "$status" != 0 ] || [ ! -s "$sizes_file" ]; then
    echo "run.sh: recording the state sizes failed; its log:" >&2
    cat "$out/sizes.loadgen.log" >&2
    exit 1
  fi
}
for row in ${selected[@]+"${selected[@]}"}; do
  if [[ $row == *@SIZES@* ]]; then record_sizes; break; fi
done

started=$(date +%s)
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
# Repeats are interleaved (all rows, then all rows again), so a burst of load from elsewhere on the
# machine spreads over the rows instead of spoiling one.
for rep in $(seq "$repeat"); do
  for row in ${selected[@]+"${selected[@]}"}; do
    run_row "$rep" "$row"
    if [ -n "$baseline_bin" ] && [[ $row != echo* ]]; then run_row "$rep" "$row" before; fi
  done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

# ---- the table -----------------------------------------------------------------------------------
status=0
[ ${#selected[@]} -eq 0 ] || node - "$results" "$server_bin${baseline_bin:+ (rows marked \"before\": $baseline_bin)}" "$seconds" "$warmup" "$repeat" "$load_before" "$load_after" "$(( $(date +%s) - started ))" <<'EOF' || status=$?
const fs = require('fs');
const [file, server, seconds, warmup, repeat, loadBefore, loadAfter, took] = process.argv.slice(2);
const runs = fs.readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
const median = (xs) => {
  const v = xs.filter((x) => typeof x === 'number').sort((a, b) => a - b);
  if (!v.length) return null;
  return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
};
const fmt = (x, d = 0) => (x === null || x === undefined ? '–' : x.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d }));
const ids = [...new Set(runs.map((r) => r.id))];
const by = (id) => runs.filter((r) => r.id === id);
const window = runs.some((r) => !r.id.startsWith('idle')) ? `window ${seconds} s after ${warmup} s warm-up; ` : '';
console.log(`Server: ${server}; ${window}${repeat === '1' ? 'one run per row' : `median of ${repeat} interleaved runs`}; ` +
            `load average ${loadBefore} before, ${loadAfter} after; ${took} s in all.\n`);
const loadIds = ids.filter((i) => !i.startsWith('idle'));
if (loadIds.length) {
  console.log('| configuration | moves/s | p50 (ms) | p99 (ms) | server CPU per move (µs) | bytes/move/client: payload / wire | errors |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
}
const notes = [];
for (const id of loadIds) {
  const rs = by(id);
  const m = (k) => median(rs.map((r) => r[k]));
  const errors = rs.reduce((n, r) => n + (r.errors ?? 0) + (r.refusals ?? 0), 0);
  let label = rs[0].label;
  if (rs.some((r) => r.deflate === 'offered, not negotiated')) label += ' (not negotiated: no deflate on the wire)';
  if (rs.some((r) => r.deflate === 'negotiated')) label += ' (negotiated)';
  console.log(`| ${label} | ${fmt(m('moves_per_sec'))} | ${fmt(m('p50_ms'), 2)} | ${fmt(m('p99_ms'), 2)} | ${fmt(m('server_cpu_us_per_move'))} | ${fmt(m('payload_bytes_per_move_per_client'))} / ${fmt(m('wire_bytes_per_move_per_client'))} | ${errors} |`);
  const timer = m('timer_wait_percent');
  if (timer >= 1) notes.push(`${rs[0].label}: the rooms spent ${fmt(timer)} % of their time waiting for a server timer (MEMORIZE cannot be switched off), which lowers its moves/s.`);
  const logs = rs.reduce((n, r) => n + (r.server_log_lines ?? 0), 0);
  if (logs > 0) notes.push(`${rs[0].label}: the server logged ${logs} warning or error line(s); see the logs.`);
  const lg = m('loadgen_cpu_percent');
  const sc = m('server_cpu_percent');
  const games = rs[0].mode === 'tinsel' ? `, ${fmt(m('games'))} games finished` : '';
  notes.push(`${rs[0].label}: server ${fmt(sc)} % of a core, tinsel-loadgen ${fmt(lg)} %, ${fmt(m('frames_per_move'), 2)} frames per move${games}.`);
}
for (const id of ids.filter((i) => i.startsWith('idle'))) {
  const rs = by(id);
  const m = (k) => median(rs.map((r) => r[k]));
  const errors = rs.reduce((n, r) => n + (r.errors ?? 0) + (r.refusals ?? 0), 0);
  console.log(`\n${rs[0].label}: ${fmt(m('connections'))} open, server RSS ${fmt(m('server_rss_kb_before'))} KB → ${fmt(m('server_rss_kb_after'))} KB: ` +
              `**${fmt(m('rss_kb_per_connection'), 2)} KB per connection** (errors ${errors}).`);
}
// Tinsel's share of each ceiling: its moves/s over the echo's, and the echo's server CPU per move
// over Tinsel's (how much of Tinsel's CPU a move the transport alone would need).
const ceilings = { hh: ['echo', 'echo-sized'], 'hh-250': ['echo-250', 'echo-sized-250'] };
const shares = [];
for (const id of loadIds) {
  const base = id.replace(/@before$/, '');
  for (const c of ceilings[base] ?? []) {
    if (!by(c).length) continue;
    const t = (k) => median(by(id).map((r) => r[k]));
    const e = (k) => median(by(c).map((r) => r[k]));
    const pct = (a, b) => (a && b ? `${fmt((a / b) * 100)} %` : '–');
    shares.push(`| ${by(id)[0].label} | ${by(c)[0].label} | ${pct(t('moves_per_sec'), e('moves_per_sec'))} | ` +
                `${fmt(t('server_cpu_us_per_move'))} / ${fmt(e('server_cpu_us_per_move'))} µs: ${pct(e('server_cpu_us_per_move'), t('server_cpu_us_per_move'))} |`);
  }
}
if (shares.length) {
  console.log('\nTinsel against each ceiling (moves/s: Tinsel as a share of the echo; server CPU per move: Tinsel / echo, and the echo\'s as a share of Tinsel\'s):\n');
  console.log('| Tinsel row | ceiling | moves/s share | server CPU per move |');
  console.log('|---|---|---:|---:|');
  for (const line of shares) console.log(line);
}
if (notes.length) console.log('\n' + notes.map((n) => `- ${n}`).join('\n'));
const failed = runs.filter((r) => r.exit !== 0 || r.errors || r.refusals);
if (failed.length) console.log(`\n**${failed.length} run(s) had errors or refusals**; logs in ${require('path').dirname(file)}.`);
process.exitCode = failed.length ? 1 : 0;
EOF
if [ "$run_engine" = 1 ]; then
  echo
  echo "Engines, one core (\`$engine_bench --seconds 1 --repeat $repeat\`):"
  echo
  echo '```'
  "$engine_bench" --seconds 1 --repeat "$repeat"
  echo '```'
fi
exit $status
