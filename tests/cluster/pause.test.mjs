#!/usr/bin/env node
// kill -STOP the instance that owns the most rooms, past its lease (3 s), then kill -CONT: its rooms
// went on elsewhere meanwhile (HAProxy marks it down and cuts its connections; the successor
// tombstones its lease and claims the rooms); after waking it writes nothing for them (no journal
// entry of its old epoch appears), and a direct connection to it gets no state of a room it lost,
// neither a spectator's nor a player's resume with token and last_seq. While it is paused, another
// instance asked for one of its rooms answers room_moved with retry_after_ms (the lease's end)
// and ws /ws?room=CODE once the owner has missed a renewal, rather than sending the client to it.
//
//   node pause.test.mjs --server PATH      (TINSEL_CLUSTER_ROOMS: rooms of 4, default 9)
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { clusterTest, startCluster, waitFor } from '../support/cluster.mjs';
import { within } from '../support/processes.mjs';
import { openFamilies, progress, owners, busiest, settle, checkMoved, checkOrder, checkSameGame, checkJournal } from './play.mjs';

const ROOMS = Number(process.env.TINSEL_CLUSTER_ROOMS || 9);

// A raw connection to `url` that sends `messages` in turn (each after the answer to the one
// before) and keeps everything that arrives within `ms`.
function probe(url, messages, ms = 4000) {
  return within(ms + 10000, new Promise((resolve) => {
    const ws = new WebSocket(url);
    const got = [];
    let next = 0;
    const send = () => { if (next < messages.length) ws.send(JSON.stringify(messages[next++])); };
    const done = () => resolve(got);
    ws.on('open', send);
    ws.on('message', (d) => {
      const m = JSON.parse(String(d));
      got.push(m);
      if (m.type === 'ok' || m.type === 'welcome') send();
    });
    ws.on('close', done);
    ws.on('error', done);
    setTimeout(() => { ws.terminate(); done(); }, ms);
  }), `a probe of ${url}`);
}

// The last record a room's journal holds of `epoch`, and how many records of it came after `n`.
// Asks `at` for `code` with hello every 150 ms until the answer is a room_moved that names `owner`
// and carries retry_after_ms (resolves with it and `at`, ms since the call), or the room is
// served or sent elsewhere (resolves null).
async function toldToWait(cluster, at, code, owner) {
  const from = Date.now();
  while (Date.now() - from < 15000) {
    const got = await probe(cluster.direct(at, `?room=${code}`), [{ type: 'hello', protocol: 1, name: 'Asks', id: 1 }], 3000);
    const moved = got.find((m) => m.type === 'error' && m.code === 'room_moved');
    if (!moved || moved.instance !== owner) return null;
    if (moved.retry_after_ms !== undefined) return { ...moved, at: Date.now() - from };
    await new Promise((r) => setTimeout(r, 150));
  }
  return null;
}

const lastOf = (cluster, code, epoch) =>
  cluster.query(`SELECT coalesce(max(n), 0) FROM entries WHERE room = '${code}' AND epoch = ${epoch}`).then(([[n]]) => Number(n));
const writtenAfter = (cluster, code, epoch, n) =>
  cluster.query(`SELECT count(*) FROM entries WHERE room = '${code}' AND epoch = ${epoch} AND n > ${n}`).then(([[c]]) => Number(c));

await clusterTest(async ({ server }) => {
  const cluster = await startCluster({ binary: server });
  const families = await openFamilies(cluster, ROOMS);
  for (const f of families) await f.start();
  await progress(families, 6, 90000, 'every room to play 6 states');

  const before = await owners(cluster, families);
  const victim = busiest(before);
  const moved = families.filter((f) => before.get(f.code).owner === victim);
  console.log(`kill -STOP ${victim} with ${moved.length} of ${ROOMS} rooms`);
  cluster.pause(victim);
  const paused = Date.now();
  const told = toldToWait(cluster, [...cluster.instances.keys()].find((id) => id !== victim), moved[0].code, victim);
  await progress(moved, 6, 60000, `the rooms of the paused ${victim} to play on elsewhere`);
  // Once the paused owner had missed a renewal, another instance asked for its room did not send
  // the client to it but said when the room could be taken over (its lease's end), on /ws?room=.
  const wait = await told;
  assert.ok(wait, `no room_moved with retry_after_ms for ${moved[0].code} while ${victim} was paused`);
  assert.equal(wait.ws, `/ws?room=${moved[0].code}`);
  assert.equal(wait.instance, victim);
  assert.ok(Number.isInteger(wait.retry_after_ms) && wait.retry_after_ms >= 0 && wait.retry_after_ms <= 3000, `retry_after_ms ${wait.retry_after_ms} within the lease`);
  console.log(`ok: ${wait.at} ms into the pause another instance said to come back in ${wait.retry_after_ms} ms (the lease's end), on /ws?room=`);
  await checkMoved(cluster, moved, victim);
  const taken = await owners(cluster, moved);
  // What the paused instance's epochs hold now: nothing may be added after it wakes.
  const old = new Map();
  for (const f of moved) old.set(f.code, await lastOf(cluster, f.code, before.get(f.code).epoch));
  await new Promise((r) => setTimeout(r, Math.max(0, 4000 - (Date.now() - paused))));
  console.log(`kill -CONT ${victim} after ${((Date.now() - paused) / 1000).toFixed(1)} s`);
  cluster.resume(victim);

  // Right after waking, directly (not through HAProxy): no state of a room it lost, to a spectator
  // or to a player resuming with token and last_seq.
  for (const f of moved) {
    const p = f.players[1];
    const url = cluster.direct(victim, `?room=${f.code}`);
    const asSpectator = await probe(url, [{ type: 'hello', protocol: 1, name: 'Nosy', id: 1 }, { type: 'join_room', room: f.code, as: 'spectator', id: 2 }]);
    const asPlayer = await probe(url, [{ type: 'hello', protocol: 1, name: p.name, token: p.token, id: 1 }, { type: 'join_room', room: f.code, last_seq: p.lastSeq, id: 2 }]);
    for (const [who, got] of [['a spectator', asSpectator], ['a resuming player', asPlayer]]) {
      const leak = got.filter((m) => ['state', 'room', 'game_log', 'chat_history'].includes(m.type));
      assert.deepEqual(leak.map((m) => m.type), [], `${victim} told ${who} about ${f.code}, which it lost: ${JSON.stringify(leak).slice(0, 300)}`);
    }
  }
  console.log(`ok: after waking, ${victim} gave no state of its lost rooms to direct connections`);

  // It comes back to the cluster (registers again, /healthz 200) and the rooms play on.
  await waitFor(30000, `${victim}'s /healthz to be 200 again`, async () => (await cluster.health(victim))?.status === 200, 200);
  await progress(families, 4, 60000, 'every room to play on after the wake-up');
  for (const f of moved) {
    // (A new game deletes the last game's records: none of the old epoch may be newer than before.)
    assert.equal(await writtenAfter(cluster, f.code, before.get(f.code).epoch, old.get(f.code)), 0, `${victim} wrote to ${f.code} after it had lost it`);
    const now = await cluster.roomOwner(f.code);
    assert.ok(now.owner !== victim || now.epoch > taken.get(f.code).epoch, `${f.code} is back on ${victim} without a new claim`);
  }
  await settle(families);
  const resumes = checkOrder(families);
  checkSameGame(families);
  const checked = await checkJournal(cluster, families);
  console.log(`ok: ${resumes} resumes without gap or duplicate, ${checked} acknowledged commands in the journal in order`);
  for (const f of families) f.close();
});
