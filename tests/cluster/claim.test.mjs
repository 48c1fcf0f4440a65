#!/usr/bin/env node
// Claim race: the owner of 12 rooms is killed, and once its lease has run out, for every room two
// other instances are asked for it at the same moment (directly, hello with ?room=CODE and join_room): exactly one of them
// claims it and serves it (its epoch grows by exactly one), the other answers room_moved naming
// the winner, and the database agrees.
//
//   node claim.test.mjs --server PATH
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { TinselClient } from '../../clients/js/index.js';
import { clusterTest, startCluster, waitFor } from '../support/cluster.mjs';
import { within } from '../support/processes.mjs';

const ROOMS = 12;

// hello (the room in the URL), then join_room as a spectator; resolves with every message until
// the close, or after 15 s.
function ask(url, room) {
  return within(30000, new Promise((resolve) => {
    const ws = new WebSocket(url);
    const got = [];
    const done = () => resolve(got);
    ws.on('open', () => ws.send(JSON.stringify({ type: 'hello', protocol: 1, name: 'Racer', id: 1 })));
    ws.on('message', (d) => {
      const m = JSON.parse(String(d));
      got.push(m);
      if (m.type === 'welcome') ws.send(JSON.stringify({ type: 'join_room', room, as: 'spectator', id: 2 }));
      if (m.type === 'ok' && m.id === 2) setTimeout(() => ws.close(), 200);
    });
    ws.on('close', done);
    ws.on('error', done);
    setTimeout(() => { ws.terminate(); done(); }, 15000);
  }), `an answer from ${url}`);
}

await clusterTest(async ({ server }) => {
  const cluster = await startCluster({ binary: server });
  const rooms = [];
  for (let k = 0; k < ROOMS; k++) {
    const host = new TinselClient({ url: cluster.direct('i1'), name: `Host ${k}`, WebSocket });
    await host.connect();
    const { room } = await host.createRoom('happy_holidays');
    rooms.push(room);
    host.close();
  }
  for (const room of rooms) assert.deepEqual(await cluster.roomOwner(room), { owner: 'i1', epoch: 1 });
  await cluster.kill('i1');
  // Until its lease runs out i1 is the owner (a killed process cannot say so): asked before, both
  // would rightly name i1. Then both are asked at once (the sweeps may claim some rooms first).
  await waitFor(10000, 'the lease of i1 to run out', async () => (await cluster.query("SELECT lease_until < clock_timestamp() FROM instances WHERE id = 'i1'"))[0]?.[0] === 't');
  const answers = await Promise.all(rooms.map((room) =>
    Promise.all(['i2', 'i3'].map((id) => ask(cluster.direct(id, `?room=${room}`), room)))));
  for (const [k, room] of rooms.entries()) {
    const [a2, a3] = answers[k];
    const served = (got) => got.some((m) => m.type === 'ok' && m.id === 2);
    const redirect = (got) => got.find((m) => m.type === 'error' && m.code === 'room_moved');
    const winners = [['i2', a2], ['i3', a3]].filter(([, got]) => served(got)).map(([id]) => id);
    assert.equal(winners.length, 1, `${room}: served by ${winners.join(' and ') || 'nobody'}: ${JSON.stringify(answers[k]).slice(0, 600)}`);
    const [winner] = winners;
    const loser = winner === 'i2' ? a3 : a2;
    assert.equal(redirect(loser)?.instance, winner, `${room}: the other instance answered ${JSON.stringify(loser).slice(0, 300)}`);
    assert.deepEqual(await cluster.roomOwner(room), { owner: winner, epoch: 2 }, `${room}: one claim, by ${winner}`);
  }
  const wins = answers.map(([a2]) => (a2.some((m) => m.type === 'ok' && m.id === 2) ? 'i2' : 'i3'));
  console.log(`ok: each of ${ROOMS} orphaned rooms claimed exactly once (i2 ${wins.filter((w) => w === 'i2').length}, i3 ${wins.filter((w) => w === 'i3').length})`);
});
