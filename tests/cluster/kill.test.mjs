#!/usr/bin/env node
// kill -9 the instance that owns the most rooms, mid-game: every one of its rooms accepts commands
// on another instance within the lease (3 s) and a few seconds more; every client resumes with its
// token and last_seq at exactly the seq it had (no gap, no duplicate, every member of a room the
// same game); every command the server acknowledged is in the room's journal, in order; the rooms
// of the other instances never stopped.
//
//   node kill.test.mjs --server PATH      (TINSEL_CLUSTER_ROOMS: rooms of 4, default 24)
import assert from 'node:assert/strict';
import { clusterTest, startCluster } from '../support/cluster.mjs';
import { openFamilies, progress, owners, busiest, settle, checkMoved, checkOrder, checkSameGame, checkJournal } from './play.mjs';

const ROOMS = Number(process.env.TINSEL_CLUSTER_ROOMS || 24);

await clusterTest(async ({ server }) => {
  const cluster = await startCluster({ binary: server });
  const families = await openFamilies(cluster, ROOMS);
  for (const f of families) await f.start();
  await progress(families, 6, 90000, 'every room to play 6 states');

  const before = await owners(cluster, families);
  const victim = busiest(before);
  const moved = families.filter((f) => before.get(f.code).owner === victim);
  const stayed = families.filter((f) => before.get(f.code).owner !== victim);
  console.log(`${ROOMS} rooms on ${[...new Set([...before.values()].map((o) => o.owner))].join(', ')}; kill -9 ${victim} with ${moved.length} rooms`);
  const killedAt = Date.now();
  await cluster.kill(victim);

  // Its rooms go on elsewhere: each plays 6 more states.
  await progress(moved, 6, 90000, `the rooms of ${victim} to play on elsewhere`);
  console.log(`ok: the ${moved.length} rooms of ${victim} played on ${((Date.now() - killedAt) / 1000).toFixed(1)} s after the kill`);
  await progress(stayed, 3, 60000, 'the other rooms to play on');
  await checkMoved(cluster, moved, victim);
  const after = await owners(cluster, moved);
  for (const f of moved) assert.ok(after.get(f.code).epoch > before.get(f.code).epoch, `${f.code}: the epoch grew with the new owner`);
  for (const f of stayed) assert.deepEqual(await cluster.roomOwner(f.code), before.get(f.code), `${f.code} stayed where it was`);

  await settle(families);
  const resumes = checkOrder(families);
  checkSameGame(families);
  const checked = await checkJournal(cluster, families);
  const movedClients = moved.flatMap((f) => f.players);
  assert.ok(movedClients.every((p) => p.states.some((s) => s.join && p.states.indexOf(s) > 0)), 'every client of a moved room rejoined it');
  console.log(`ok: ${resumes} resumes without gap or duplicate, ${checked} acknowledged commands in the journal in order`);
  for (const f of families) f.close();
});
