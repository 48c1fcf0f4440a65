#!/usr/bin/env node
// The limits that make guessing slow and rooms scarce count across the cluster, not per instance
// (docs/operations.md, "Cluster mode"):
// - A room in the URL is no way around the failed-join back-off: `hello` on /ws?room=CODE looks
//   the room up like join_room, so a code that names no room is a miss for the address, and an
//   address waiting out its back-off gets no lookup. Otherwise room_moved (the room lives on
//   another instance) or not would tell a guesser which codes exist, without ever joining.
// - Misses made at one instance make the address wait at every other (join_room refused with
//   too_many_attempts there too, even for the code of a room that instance owns).
// - One address's open rooms count across the instances (--live-rooms-per-address).
//
//   node limits.test.mjs --server PATH
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

// hello, then `request` on `url`; resolves with the request's answer: 'ok' or the error's code.
function helloThen(url, request) {
  return within(20000, new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.on('open', () => {
      ws.send(JSON.stringify({ type: 'hello', protocol: 1, name: 'Guesser', id: 1 }));
      ws.send(JSON.stringify({ ...request, id: 2 }));
    });
    ws.on('message', (d) => {
      const m = JSON.parse(String(d));
      if (m.id === 2 && (m.type === 'ok' || m.type === 'error')) {
        ws.terminate();
        resolve(m.type === 'ok' ? 'ok' : m.code);
      }
    });
    ws.on('error', reject);
  }), `an answer from ${url}`);
}

await clusterTest(async ({ server }) => {
  // The default back-off (3 free misses), not the other tests' lifted one; 2 open rooms per address.
  const cluster = await startCluster({ binary: server, instances: 2, serverArgs: ['--free-failed-joins', '3', '--live-rooms-per-address', '2'] });
  const host = new TinselClient({ url: cluster.direct('i1'), name: 'Oma', WebSocket });
  await host.connect();
  const { room } = await host.createRoom('happy_holidays');
  // Before any miss, i2 names the room's owner: the room exists; i1 lets anyone join it.
  assert.equal(await hello(cluster.direct('i2', `?room=${room}`)), 'room_moved');
  // Three codes that name no room: each is a miss at i2, counted in the database.
  for (const code of ['BBBBBB', 'CCCCCC', 'DDDDDD']) assert.equal(await hello(cluster.direct('i2', `?room=${code}`)), 'welcome');
  const misses = Number(await cluster.query(`SELECT misses FROM join_misses WHERE key = '127.0.0.1'`));
  assert.equal(misses, 3, 'the database counts the misses made at i2');
  // As if the guesser had gone on to 10 misses: a wait of 2^7 s, long enough for a slow machine.
  await cluster.query(`UPDATE join_misses SET misses = 10, last_miss = clock_timestamp() WHERE key = '127.0.0.1'`);
  // Now in its back-off: the real code gets the same answer as a wrong one, at i2 and at i1.
  assert.equal(await hello(cluster.direct('i2', `?room=${room}`)), 'welcome');
  assert.equal(await hello(cluster.direct('i1', `?room=${room}`)), 'welcome');
  console.log(`ok: in its back-off ${room} answers like any unknown code (no room_moved)`);
  // And i1 refuses its own room to this address for now.
  assert.equal(await helloThen(cluster.direct('i1'), { type: 'join_room', room, spectator: true }), 'too_many_attempts');
  console.log('ok: the back-off counted in the database holds at every instance');

  // Rooms: the host's address has one open room (on i1); a second at i2 is allowed, a third at
  // either instance is not.
  assert.equal(await helloThen(cluster.direct('i2'), { type: 'create_room', game: 'happy_holidays' }), 'ok');
  assert.equal(await helloThen(cluster.direct('i1'), { type: 'create_room', game: 'happy_holidays' }), 'too_many_rooms');
  assert.equal(await helloThen(cluster.direct('i2'), { type: 'create_room', game: 'happy_holidays' }), 'too_many_rooms');
  console.log('ok: an address with 2 open rooms (one per instance) gets no third at either instance');
  host.close();
});
