#!/usr/bin/env bash
# Smoke test of the container image: build it (docker/Dockerfile), start it, wait until it is
# healthy, play a game of Happy Holidays against it with tinsel-bot (in the image), check /healthz,
# the web client and /metrics, stop it with SIGTERM and expect exit status 0.
#
#   docker/smoke.sh            exit 0: passed, 1: failed, 77: skipped (no container engine)
#
# The engine: TINSEL_CONTAINER_ENGINE, else docker if its daemon answers, else podman. Without
# either it prints why and exits 77, which CTest reports as skipped. Where no registry is reachable,
# the debian:12 and debian:12-slim bases are made with docker/debian-base.sh (podman, as root).
# Where containers cannot run (no usable cgroups or rlimits), podman still builds the image, and the
# server is run from the image's own file system instead (podman image mount + chroot, as the
# image's user), which checks everything but the container runtime. TINSEL_SMOKE_MODE=chroot forces
# that. docs/operations.md ("Checking the image") says what worked where.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
image=${TINSEL_SMOKE_IMAGE:-tinsel:smoke}
name=tinsel-smoke-$$
SKIP=77
log() { echo "smoke: $*"; }
fail() { echo "smoke: FAILED: $*" >&2; exit 1; }

# ---- the engine
engine=${TINSEL_CONTAINER_ENGINE:-}
if [[ -z "$engine" ]]; then
  if command -v docker >/dev/null && docker info >/dev/null 2>&1; then
    engine=docker
  elif command -v podman >/dev/null && podman info >/dev/null 2>&1; then
    engine=podman
  else
    log "SKIP: no container engine here (neither a docker whose daemon answers nor podman);"
    log "      install podman (apt-get install podman) or Docker to run this test"
    exit $SKIP
  fi
fi
log "engine: $engine ($($engine --version))"

# ---- base images
for base in debian:12 debian:12-slim; do
  $engine image inspect "$base" >/dev/null 2>&1 && continue
  if ! $engine pull "$base" >/dev/null 2>&1; then
    log "cannot pull $base: making debian:12 and debian:12-slim with docker/debian-base.sh"
    "$root/docker/debian-base.sh" "$engine" || fail "no $base image: pull it, or run docker/debian-base.sh as root"
  fi
done

# ---- build
build_args=(build -f "$root/docker/Dockerfile" -t "$image")
if [[ $engine == podman ]]; then
  # Docker format keeps HEALTHCHECK (OCI images have none); chroot isolation runs the RUN steps
  # without a container runtime, so it also works where containers cannot start.
  build_args+=(--format docker --isolation "${TINSEL_SMOKE_ISOLATION:-chroot}")
fi
log "building $image"
started=$(date +%s)
$engine "${build_args[@]}" "$root" >"/tmp/tinsel-smoke-build-$$.log" 2>&1 ||
  { tail -n 60 "/tmp/tinsel-smoke-build-$$.log" >&2; fail "image build (whole log: /tmp/tinsel-smoke-build-$$.log)"; }
rm -f "/tmp/tinsel-smoke-build-$$.log"
size=$($engine image inspect "$image" --format '{{.Size}}')
log "built in $(($(date +%s) - started)) s; image size $((size / 1000000)) MB ($size bytes)"

# ---- helpers
# GET over bash's /dev/tcp (no curl on the image or needed on the host): status line and body.
http_get() {  # HOST PORT PATH
  exec 3<>"/dev/tcp/$1/$2" || return 1
  printf 'GET %s HTTP/1.1\r\nHost: %s:%s\r\nConnection: close\r\n\r\n' "$3" "$1" "$2" >&3
  cat <&3
  exec 3<&-
}
http_status() { http_get "$@" | head -n1 | awk '{print $2}'; }
# The metric's value in an exposition (exact series), or empty.
metric() { awk -v s="$2" '$1 == s {print $2}' <<<"$1"; }
# Runs the command until it succeeds, for up to SECONDS; fails the test with WHAT after that.
wait_for() {  # SECONDS WHAT COMMAND...
  local seconds=$1 what=$2
  local until=$(($(date +%s) + seconds))
  shift 2
  until "$@" >/dev/null 2>&1; do
    [[ $(date +%s) -lt $until ]] || fail "$what (gave up after $seconds s)"
    sleep 0.5
  done
}

mode=${TINSEL_SMOKE_MODE:-container}
server_pid=""
mnt=""
cleanup() {
  if [[ $mode == container ]]; then
    $engine rm -f -v "$name" >/dev/null 2>&1 || true
  else
    [[ -z "$server_pid" ]] || kill -9 "$server_pid" 2>/dev/null || true
    [[ -z "$mnt" ]] || podman image unmount "$image" >/dev/null 2>&1 || true
  fi
}
trap cleanup EXIT

# ---- start
# Container mode: 8080 published on a free loopback port; bots move at once.
if [[ $mode == container ]]; then
  attempts=("")
  if [[ $engine == podman ]]; then
    # Sandboxes without CAP_SYS_RESOURCE refuse podman's default rlimits; hybrid cgroups refuse crun.
    nofile=$(ulimit -Hn); [[ $nofile == unlimited || $nofile -gt 65536 ]] && nofile=65536
    attempts+=("--ulimit nofile=$nofile:$nofile --ulimit nproc=4096:4096")
    command -v runc >/dev/null && attempts+=("--runtime runc|--ulimit nofile=$nofile:$nofile --ulimit nproc=4096:4096")
  fi
  started_ok=""
  for a in "${attempts[@]}"; do
    global=""; run_opts=$a
    if [[ $a == *"|"* ]]; then global=${a%%|*}; run_opts=${a#*|}; fi
    $engine rm -f -v "$name" >/dev/null 2>&1 || true
    # shellcheck disable=SC2086
    if $engine $global run -d --name "$name" $run_opts -p 127.0.0.1::8080 -e TINSEL_AUTO_PLAY_DELAY_MS=20 "$image" \
        >/dev/null 2>"/tmp/tinsel-smoke-run-$$.err"; then
      started_ok="${global:+$global }run $run_opts"
      break
    fi
    log "run ${global:+$global }${run_opts:-(defaults)} failed: $(tail -n1 "/tmp/tinsel-smoke-run-$$.err")"
  done
  rm -f "/tmp/tinsel-smoke-run-$$.err"
  if [[ -z "$started_ok" ]]; then
    [[ $engine == podman && $(id -u) -eq 0 ]] || fail "no container starts here"
    log "no container starts here: running the server from the image's file system instead (chroot)"
    mode=chroot
  else
    log "container started: $engine $started_ok"
  fi
fi

if [[ $mode == container ]]; then
  host=127.0.0.1
  port=$($engine port "$name" 8080 | head -n1 | sed 's/.*://')
  [[ -n "$port" ]] || fail "8080 is not published"
  in_image() { $engine exec "$name" "$@"; }
  user=$($engine exec "$name" id -u)
  [[ "$user" != 0 ]] || fail "the server runs as root"
else
  [[ $engine == podman ]] || fail "chroot mode needs podman"
  mnt=$(podman image mount "$image")
  uid=$(chroot "$mnt" id -u tinsel)
  env_args=()
  while IFS= read -r e; do [[ -n "$e" ]] && env_args+=("$e"); done < <(podman image inspect "$image" --format '{{range .Config.Env}}{{println .}}{{end}}')
  # The image's environment, but on loopback ports of our own (this shares the host's network).
  # The image mount is read-only: no journal in this mode.
  env_args+=(TINSEL_BIND=127.0.0.1 TINSEL_PORT=0 TINSEL_METRICS_BIND=127.0.0.1:0 TINSEL_AUTO_PLAY_DELAY_MS=20 TINSEL_JOURNAL=off)
  # Its own mount namespace each time: /dev and /proc bound into the (read-only) image mount.
  # shellcheck disable=SC2016  # expanded by the inner shell
  inner='m=$0 u=$1; shift; mount --rbind /dev "$m/dev" && mount --rbind /proc "$m/proc" && exec chroot --userspec="$u:$u" "$m" "$@"'
  in_image() { unshare --mount --propagation private sh -c "$inner" "$mnt" "$uid" env -i "${env_args[@]}" "$@"; }
  serverlog=/tmp/tinsel-smoke-server-$$.log
  # exec: the background job becomes the server itself, so that $! is the server's pid.
  run_server() { exec unshare --mount --propagation private sh -c "$inner" "$mnt" "$uid" env -i "${env_args[@]}" tinsel-server; }
  run_server >"$serverlog" 2>&1 &
  server_pid=$!
  wait_for 60 "the server did not log its URL" grep -q " listening url=" "$serverlog"
  host=127.0.0.1
  port=$(sed -n 's/.* listening url=http:\/\/[^:]*:\([0-9]*\)\/.*/\1/p' "$serverlog" | head -n1)
  metrics_port=$(sed -n 's/.* metrics=http:\/\/[^:]*:\([0-9]*\)\/.*/\1/p' "$serverlog" | head -n1)
  log "server started from the image's file system as uid $uid, port $port"
fi

# ---- health
healthy() { in_image tinsel-server --healthcheck "http://127.0.0.1:${internal_port:-8080}/healthz"; }
[[ $mode == container ]] || internal_port=$port
wait_for 120 "tinsel-server --healthcheck never answered 0" healthy
log "healthy: tinsel-server --healthcheck exits 0"
if [[ $mode == container ]]; then
  if [[ $engine == podman ]]; then
    podman healthcheck run "$name" >/dev/null || fail "podman healthcheck run (the image's HEALTHCHECK) failed"
    log "the image's HEALTHCHECK passes (podman healthcheck run)"
  else
    wait_for 120 "docker never reported the container healthy" \
      bash -c "[[ \$(docker inspect --format '{{.State.Health.Status}}' $name) == healthy ]]"
    log "docker reports the container healthy"
  fi
fi
[[ $(http_status $host "$port" /healthz) == 200 ]] || fail "/healthz on the published port is not 200"
[[ $(http_status $host "$port" /) == 200 ]] || fail "the web client (/) is not served"
[[ $(http_status $host "$port" /lib/index.js) == 200 ]] || fail "the client library (/lib/index.js), which the web client imports, is not served"
[[ $(http_status $host "$port" /metrics) == 404 ]] || fail "/metrics on the public port is not 404"
if [[ $mode == container ]]; then
  # The journal in the volume: the user tinsel can write there.
  http_get $host "$port" /healthz | grep -q '"journal":"sqlite"' || fail "/healthz does not say journal sqlite: $(http_get $host "$port" /healthz | tail -n1)"
fi
log "port $port seen from the host: /healthz 200, / 200, /lib/index.js 200, /metrics 404"

# ---- a game
result=$(in_image timeout 300 tinsel-bot --url "ws://127.0.0.1:${internal_port:-8080}/ws" --name Smoke \
  --create happy_holidays --add-bots 1 --wait-players 2 --think-ms 0 --quiet \
  --options '{"maxPlayers":2,"giftsPerColour":5}') || fail "tinsel-bot did not finish its game: $result"
grep -q '^result {' <<<"$result" || fail "no result line from tinsel-bot: $result"
log "tinsel-bot played Happy Holidays to the end: $(grep '^result' <<<"$result" | cut -c1-100)…"

# ---- metrics, from inside (the metrics port is not published)
scrape() {
  if [[ $mode == container ]]; then
    in_image bash -c 'exec 3<>/dev/tcp/127.0.0.1/9464 && printf "GET /metrics HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n" >&3 && cat <&3'
  else
    http_get 127.0.0.1 "$metrics_port" /metrics
  fi | tr -d '\r' | sed '1,/^$/d'
}
finished() { [[ $(metric "$(scrape)" 'tinsel_games_finished_total{game="happy_holidays"}') == 1 ]]; }
wait_for 60 "tinsel_games_finished_total{game=\"happy_holidays\"} never reached 1" finished
metrics=$(scrape)
accepted=$(metric "$metrics" 'tinsel_commands_total{game="happy_holidays",result="accepted"}')
[[ ${accepted:-0} -gt 0 ]] || fail "no accepted commands in /metrics"
[[ $(metric "$metrics" 'tinsel_games_started_total{game="happy_holidays"}') == 1 ]] || fail "games started is not 1"
log "/metrics: 1 game started and finished, $accepted commands accepted"
if command -v promtool >/dev/null; then
  promtool check metrics <<<"$metrics" || fail "promtool check metrics"
  log "promtool check metrics: ok"
else
  log "promtool not on this host: exposition not linted (apt-get install prometheus)"
fi

# ---- stop
if [[ $mode == container ]]; then
  $engine stop -t 30 "$name" >/dev/null
  code=$($engine inspect "$name" --format '{{.State.ExitCode}}')
  [[ $code == 0 ]] || fail "exit status $code after SIGTERM; log: $($engine logs "$name" 2>&1 | tail -n 5)"
  $engine logs "$name" 2>&1 | grep -q ' stopped' || fail "no 'stopped' in the log"
  # The same container again: the room comes back from the journal in the volume.
  $engine start "$name" >/dev/null
  wait_for 120 "tinsel-server --healthcheck never answered 0 after the restart" healthy
  $engine logs "$name" 2>&1 | grep -q 'rooms recovered rooms=1' || fail "the room was not recovered: $($engine logs "$name" 2>&1 | grep recovered)"
  log "restarted: the room came back from the journal in /var/lib/tinsel"
  $engine stop -t 30 "$name" >/dev/null
else
  kill -TERM "$server_pid"
  code=0
  wait "$server_pid" || code=$?
  server_pid=""
  [[ $code == 0 ]] || fail "exit status $code after SIGTERM"
  grep -q ' stopped' "$serverlog" || fail "no 'stopped' in the log"
  rm -f "$serverlog"
fi
log "stopped with SIGTERM: exit status 0"
log "PASSED ($mode mode, $engine)"
