#!/usr/bin/env node
// A room in the URL is no way around the failed-join back-off: `hello` on /ws?room=CODE looks the
// room up like join_room, so a code that names no room is a miss for the address, and an address
// waiting out its back-off gets no lookup. Otherwise room_moved (the room lives on another
// instance) or not would tell a guesser which codes exist, without ever joining.
//
//   node guess.test.mjs --server PATH
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { TinselClient } from '../../clients/js/index.js';
import { clusterTest, startCluster } from '../support/cluster.mjs';
import { within } from '../support/processes.mjs';

// hello on `url`; resolves with the first answer: 'welcome' or the error's code.
function hello(url) {
  return within(20000, new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.on('open', () => ws.send(JSON.stringify({ type: 'hello', protocol: 1, name: 'Guesser', id: 1 })));
    ws.on('message', (d) => {
      const m = JSON.parse(String(d));
      if (m.type === 'welcome' || m.type === 'error') {
        ws.terminate();
        resolve(m.type === 'welcome' ? 'welcome' : m.code);
      }
    });
    ws.on('error', reject);
  }), `an answer from ${url}`);
}

await clusterTest(async ({ server }) => {
  // The default back-off (3 free misses), not the other tests' lifted one.
  const cluster = await startCluster({ binary: server, instances: 2, serverArgs: ['--free-failed-joins', '3'] });
  const host = new TinselClient({ url: cluster.direct('i1'), name: 'Oma', WebSocket });
  await host.connect();
  const { room } = await host.createRoom('happy_holidays');
  // Before any miss, i2 names the room's owner: the room exists.
  assert.equal(await hello(cluster.direct('i2', `?room=${room}`)), 'room_moved');
  // Four codes that name no room: each is a miss at i2 (the first three are free).
  for (const code of ['BBBBBB', 'CCCCCC', 'DDDDDD', 'FFFFFF']) assert.equal(await hello(cluster.direct('i2', `?room=${code}`)), 'welcome');
  // Now in its back-off: the real code gets the same answer as a wrong one.
  assert.equal(await hello(cluster.direct('i2', `?room=${room}`)), 'welcome');
  console.log(`ok: after 4 misses ${room} on i2 answers like any unknown code (no room_moved)`);
  host.close();
});
