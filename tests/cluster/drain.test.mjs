#!/usr/bin/env node
// SIGTERM drains an instance mid-game: /healthz turns 503 at once, it exits 0, and each of its rooms
// moves to another instance with one reconnect per client (the room_moved it pushes, followed by
// the client library), nothing acknowledged lost, no gap, no duplicate; the next owner claims at
// once, without waiting for a lease to run out.
//
//   node drain.test.mjs --server PATH      (TINSEL_CLUSTER_ROOMS: rooms of 4, default 12)
import assert from 'node:assert/strict';
import { clusterTest, startCluster, waitFor } from '../support/cluster.mjs';
import { openFamilies, progress, owners, busiest, settle, checkMoved, checkOrder, checkSameGame, checkJournal } from './play.mjs';

const ROOMS = Number(process.env.TINSEL_CLUSTER_ROOMS || 12);

await clusterTest(async ({ server }) => {
  // A lease far longer than the test: only a release lets another instance claim a room at once.
  const cluster = await startCluster({ binary: server, leaseMs: 60000, renewMs: 1000 });
  const families = await openFamilies(cluster, ROOMS);
  for (const f of families) await f.start();
  await progress(families, 6, 90000, 'every room to play 6 states');

  const before = await owners(cluster, families);
  const victim = busiest(before);
  const moved = families.filter((f) => before.get(f.code).owner === victim);
  const clients = moved.flatMap((f) => f.players);
  const mark = new Map(clients.map((p) => [p, { welcomes: p.welcomes.length, disconnects: p.disconnects.length }]));
  console.log(`SIGTERM ${victim} with ${moved.length} of ${ROOMS} rooms`);
  const started = Date.now();
  const exit = cluster.terminate(victim);
  await waitFor(5000, `${victim}'s /healthz to turn 503`, async () => (await cluster.health(victim))?.status !== 200, 20);
  const { code, signal } = await exit;
  assert.equal(signal, null, `${victim} was ended by ${signal}`);
  assert.equal(code, 0, `${victim} exited ${code} after SIGTERM`);
  const drained = Date.now() - started;

  // With a 60 s lease the rooms can only have moved because they were released.
  await progress(moved, 6, 40000, `the rooms of ${victim} to play on elsewhere`);
  assert.ok(Date.now() - started < 40000);
  await checkMoved(cluster, moved, victim);
  const reconnects = clients.map((p) => p.welcomes.length - mark.get(p).welcomes);
  const closes = clients.map((p) => p.disconnects.slice(mark.get(p).disconnects));
  const drops = closes.map((codes) => codes.filter((c) => c !== 4002).length);
  console.log(`${victim} drained in ${drained} ms; reconnects per client: ${JSON.stringify(reconnects)}; close codes: ${JSON.stringify(closes)}`);
  assert.ok(reconnects.every((n) => n === 1), `one reconnect per client: ${JSON.stringify(reconnects)}`);
  // Each session on the drained instance ended with room moved (4002). A connection attempt that
  // HAProxy still sent to the exiting instance (before two failed checks mark it down) may end
  // without a close (1006) before the client's one new session: counted, not a second session.
  assert.ok(clients.every((p) => p.disconnects[mark.get(p).disconnects] === 4002), `every session on ${victim} ended with 4002: ${JSON.stringify(closes)}`);
  assert.ok(closes.flat().every((c) => c === 4002 || c === 1006), `only 4002 and 1006: ${JSON.stringify(closes)}`);
  const attempts = closes.reduce((n, c) => n + c.length, 0);
  console.log(`ok: one new session per client (${clients.length}), ${attempts} connections ended on the way (${drops.reduce((a, b) => a + b, 0)} without a close)`);

  await settle(families);
  const resumes = checkOrder(families);
  checkSameGame(families);
  const checked = await checkJournal(cluster, families);
  console.log(`ok: ${moved.length} rooms moved, ${resumes} resumes without gap or duplicate, ${checked} acknowledged commands in the journal in order`);
  for (const f of families) f.close();
});
