// Cluster mode, measured (docs/operations.md, "Cluster mode"), in one run:
//
// 1. Throughput: R rooms x 4 players (the cluster tests' families: Happy Holidays, a third with a
//    server bot) answering every prompt at once, S seconds, (a) through HAProxy with three
//    instances on PostgreSQL (synchronous_commit on) and (b) one instance on SQLite (its default
//    durability), in turns. Moves acknowledged per second, and the own-move latency (action sent
//    -> its ok) p50/p99 with one room.
// 2. Takeover: with production lease settings (--lease-ms / --renew-ms, the server's defaults),
//    kill -9 the instance that owns the most rooms; for each of its rooms, the time from the kill
//    to the room's next state.
// 3. Drain: SIGTERM the busiest remaining instance; the time until each of its rooms plays on, and
//    until the process exited.
// 4. Lease traffic: transactions per second per idle instance (pg_stat_database), and what one
//    renewal round sends.
//
//   node bench/cluster.mjs [--rooms 50] [--seconds 10] [--takeover-rooms 12] [--server PATH]
//                          [--lease-ms 5000] [--renew-ms 1000] [--no-throughput]
//
// Needs PostgreSQL 15 and HAProxy (docker/test-packages.txt); exits 77 without them.
import { once } from 'node:events';
import { clusterTest, startCluster, waitFor } from '../tests/support/cluster.mjs';
import { liftedAddressLimits, startServer } from '../tests/support/processes.mjs';
import { openFamilies, owners, busiest, progress } from '../tests/cluster/play.mjs';
import { parseArgs, repoRoot } from './lib.mjs';

const args = parseArgs(process.argv.slice(2), {
  rooms: 50,
  seconds: 10,
  takeoverRooms: 12,
  leaseMs: 5000,
  renewMs: 1000,
  noThroughput: false,
  server: `${repoRoot}/build/server/tinsel-server`,
});
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
// A Markdown table, as bench/README.md quotes it.
const table = (head, rows) => [head, head.map(() => '---'), ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');
const pct = (xs, p) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

// The SQLite instance runs with exactly the cluster's lifted limits (startCluster's) and rates.
const unlimitedRates = ['--rate-per-sec', '100000', '--rate-burst', '100000'];
const lifted = [...liftedAddressLimits, ...unlimitedRates];

// Moves per second and own-move latencies of `families` playing for `seconds` (think time 0).
async function measure(families, seconds) {
  const timed = [];
  for (const f of families)
    for (const p of f.players) {
      const action = p.client.action.bind(p.client);
      p.client.action = async (c) => {
        const t0 = performance.now();
        const r = await action(c);
        timed.push({ at: Date.now(), ms: performance.now() - t0 });
        return r;
      };
    }
  for (const f of families) await f.start();
  await sleep(1000);  // warm-up
  const from = Date.now();
  await sleep(seconds * 1000);
  const to = Date.now();
  for (const f of families) f.playing = false;
  const inWindow = timed.filter((t) => t.at >= from && t.at < to);
  return { movesPerSec: inWindow.length / ((to - from) / 1000), p50: pct(inWindow.map((t) => t.ms), 50), p99: pct(inWindow.map((t) => t.ms), 99) };
}

async function throughput(url, label, rooms, seconds) {
  const target = { url };
  const many = await openFamilies(target, rooms, { thinkMs: 0 });
  const m = await measure(many, seconds);
  for (const f of many) f.close();
  const one = await openFamilies(target, 1, { thinkMs: 0 });
  const l = await measure(one, seconds);
  for (const f of one) f.close();
  return { label, moves: m.movesPerSec, p50: l.p50, p99: l.p99 };
}

async function throughputAndLease() {
  const rows = [];
  // (b) one instance on SQLite, the default.
  {
    const { proc, port } = await startServer(args.server, [...lifted, '--journal', 'sqlite', '--data-dir', `/tmp/tinsel-bench-sqlite-${process.pid}`]);
    rows.push(await throughput(`ws://127.0.0.1:${port}/ws`, 'one instance, SQLite', args.rooms, args.seconds));
    proc.child.kill('SIGTERM');
    await once(proc.child, 'exit');
  }
  // (a) three instances on PostgreSQL behind HAProxy.
  {
    const cluster = await startCluster({ binary: args.server, serverArgs: unlimitedRates });
    rows.push(await throughput(cluster.url, 'three instances, PostgreSQL, HAProxy', args.rooms, args.seconds));
    // Lease traffic: transactions of the idle cluster's database over 10 s.
    await sleep(2000);
    const xacts = async () => Number(await cluster.query(`SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()`));
    const x0 = await xacts();
    await sleep(10000);
    const x1 = await xacts();
    rows.lease = ((x1 - x0 - 2) / 10 / 3).toFixed(1);  // the two reads of pg_stat_database themselves
    cluster.stop();
  }
  console.log(`\n## Throughput (${args.rooms} rooms x 4, ${args.seconds} s; own-move latency with one room)\n`);
  console.log(table(['setup', 'moves/s', 'own-move p50 (ms)', 'own-move p99 (ms)'],
    rows.map((r) => [r.label, r.moves.toFixed(0), r.p50.toFixed(1), r.p99.toFixed(1)])));
  console.log(`\ncluster / SQLite moves/s: ${((rows[1].moves / rows[0].moves) * 100).toFixed(0)} %; p99 added: ${(rows[1].p99 - rows[0].p99).toFixed(1)} ms`);
  console.log(`lease traffic: ${rows.lease} database transactions per second per idle instance (renew-ms 500: a renewal, a tombstone sweep and an orphan query per round)`);

}

const sec = (ms) => (ms / 1000).toFixed(2);

// For each of `families` (rooms on an instance about to go), after `since`: when every player of
// the room had resumed (its first state answering a join), and when the room's next state came.
function watchBack(families, since) {
  const resumed = new Map(); // player -> ms
  const next = new Map(); // family -> ms
  const seqs = new Map(families.map((f) => [f, f.seq]));
  const offs = families.flatMap((f) => f.players.map((p) => p.client.on('state', (state, info) => {
    if (info.join && !resumed.has(p)) resumed.set(p, Date.now() - since);
  })));
  return {
    resumed: (f) => Math.max(...f.players.map((p) => resumed.get(p) ?? Infinity)),
    next: (f) => next.get(f) ?? Infinity,
    done: () => {
      for (const f of families) if (!next.has(f) && f.seq > seqs.get(f)) next.set(f, Date.now() - since);
      return families.every((f) => next.has(f) && f.players.every((p) => resumed.has(p)));
    },
    off: () => offs.forEach((off) => off()),
  };
}

// 2 and 3 with production lease settings.
async function takeoverAndDrain() {
  const cluster = await startCluster({ binary: args.server, leaseMs: args.leaseMs, renewMs: args.renewMs });
  const families = await openFamilies(cluster, args.takeoverRooms, { thinkMs: 100 });
  for (const f of families) await f.start();
  await progress(families, 4, 90000, 'every room to play 4 states');
  const before = await owners(cluster, families);
  const victim = busiest(before);
  const moved = families.filter((f) => before.get(f.code).owner === victim);
  const killedAt = Date.now();
  const watch = watchBack(moved, killedAt);
  await cluster.kill(victim);
  await waitFor(60000, 'the killed instance\'s rooms to play on', watch.done, 20);
  watch.off();
  console.log(`\n## Takeover after kill -9 (lease ${args.leaseMs / 1000} s, renewal ${args.renewMs / 1000} s): ${moved.length} rooms of ${victim}\n`);
  console.log(table(['room', 'every player back (s)', 'next state (s)'], moved.map((f) => [f.code, sec(watch.resumed(f)), sec(watch.next(f))])));
  console.log(`every player back: p50 ${sec(pct(moved.map(watch.resumed), 50))} s, max ${sec(Math.max(...moved.map(watch.resumed)))} s; ` +
    `next state: p50 ${sec(pct(moved.map(watch.next), 50))} s (the room's next move, a bot's thinking time included)`);

  const now = await owners(cluster, families);
  const drained = busiest(now);
  const mine = families.filter((f) => now.get(f.code).owner === drained);
  const termAt = Date.now();
  const watch2 = watchBack(mine, termAt);
  const exited = cluster.terminate(drained).then(() => Date.now() - termAt);
  await waitFor(60000, 'the drained instance\'s rooms to play on', watch2.done, 20);
  watch2.off();
  const exitMs = await exited;
  console.log(`\n## Drain (SIGTERM): ${mine.length} rooms of ${drained}\n`);
  console.log(`process exited after ${sec(exitMs)} s; every player back: p50 ${sec(pct(mine.map(watch2.resumed), 50))} s, ` +
    `max ${sec(Math.max(...mine.map(watch2.resumed)))} s; next state: p50 ${sec(pct(mine.map(watch2.next), 50))} s`);
  for (const f of families) f.close();
  cluster.stop();
}

await clusterTest(async () => {
  if (!args.noThroughput) await throughputAndLease();
  await takeoverAndDrain();
});
