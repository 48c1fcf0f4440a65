#!/usr/bin/env bash
# What one download of a large game record costs the server: CPU per GET (sequential), and RSS
# with 20 GETs in parallel. Makes a record of about --mb megabytes (as the server would have
# pretty-printed it) straight in a journal of its own, starts the server on it, and fetches it
# with curl as a browser would (--compressed).
#
#   bench/records.sh [--server build/server/tinsel-server] [--mb 13.6] [--gets 20] [--parallel 20]
#
# Needs sqlite3, node and curl. Prints one line per figure.
set -euo pipefail
server=build/server/tinsel-server mb=13.6 gets=20 parallel=20
while [ $# -gt 0 ]; do
  case "$1" in
    --server) server=$2; shift 2 ;;
    --mb) mb=$2; shift 2 ;;
    --gets) gets=$2; shift 2 ;;
    --parallel) parallel=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
dir=$(mktemp -d)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$dir"; }
trap cleanup EXIT

# A record shaped like a real one: commands, a state hash every 32 of them.
node -e '
const target = Number(process.argv[1]) * 1e6;
const r = { format: "tinsel-game-record", version: 1, id: "00c0ffee00c0ffee", room: "K7M2QX", game: "christmas_penguins",
  options: {}, players: ["Oma", "Opa", "Ben", "Clara"], first_seat: null, seed: "1234567890", commitment: "ab".repeat(32),
  commands: [], result: { winners: [0] }, finished_ms: Date.now() };
for (let i = 0; JSON.stringify(r, null, 2).length < target; i += 1000)
  for (let j = i; j < i + 1000; j++)
    r.commands.push(Object.assign({ kind: "command", seq: j, seat: j % 4, command: { type: "move", from: j % 60, to: (j * 7) % 60 } },
                                  j % 32 === 31 ? { hash: require("crypto").createHash("sha256").update(String(j)).digest("hex") } : {}));
process.stdout.write(JSON.stringify(r));
' "$mb" > "$dir/record.json"
sqlite3 "$dir/tinsel.db" "CREATE TABLE games(id TEXT PRIMARY KEY, room TEXT NOT NULL, game TEXT NOT NULL,
  finished_ms INTEGER NOT NULL, body TEXT NOT NULL);
  INSERT INTO games VALUES ('00c0ffee00c0ffee', 'K7M2QX', 'christmas_penguins', $(date +%s)000, readfile('$dir/record.json'));"

flags=(--port 0 --metrics-bind off --threads 2 --log-level warn --data-dir "$dir")
"$server" --help | grep -q -- --record-downloads-per-address-per-minute && flags+=(--record-downloads-per-address-per-minute 100000)
"$server" "${flags[@]}" --log-level info > "$dir/log" 2>&1 &
pid=$!
for _ in $(seq 600); do grep -q "listening url=" "$dir/log" && break; sleep 0.1; done
port=$(sed -n 's/.*listening url=http:\/\/[^:]*:\([0-9]*\)\/.*/\1/p' "$dir/log" | head -1)
url="http://127.0.0.1:$port/records/00c0ffee00c0ffee"

cpu_ms() { awk '{ print int(($14 + $15) * 1000 / '"$(getconf CLK_TCK)"') }' "/proc/$pid/stat"; }
rss_kb() { awk '/^VmRSS/ { print $2 }' "/proc/$pid/status"; }

echo "server: $server ($("$server" --version))"
rss_start=$(rss_kb)
cpu0=$(cpu_ms)
curl -s --compressed -o /dev/null "$url"
cpu1=$(cpu_ms)
for _ in $(seq "$gets"); do curl -s --compressed -o /dev/null "$url"; done
cpu2=$(cpu_ms)
echo "cpu: the first GET $(( cpu1 - cpu0 )) ms, then $(( (cpu2 - cpu1) * 1000 / gets )) us per GET (the mean of $gets more, sequential)"
rss_before=$(rss_kb)
peak=$rss_before
for _ in $(seq "$parallel"); do curl -s --compressed -o /dev/null "$url" & done
while [ "$(jobs -r | wc -l)" -gt 1 ]; do r=$(rss_kb); [ "$r" -gt "$peak" ] && peak=$r; sleep 0.02; done
wait $(jobs -p | grep -v "^$pid$") 2>/dev/null || true
sleep 1
echo "rss: $(( rss_start / 1024 )) MB at start, $(( rss_before / 1024 )) MB after the sequential GETs, peak $(( peak / 1024 )) MB during $parallel parallel GETs, $(( $(rss_kb) / 1024 )) MB a second after"
echo "record: $(stat -c %s "$dir/record.json") bytes compact; as served $(curl -s "$url" | wc -c) bytes, to a browser $(curl -s --compressed -o /dev/null -w '%{size_download}' "$url") bytes on the wire"
