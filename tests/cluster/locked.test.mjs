#!/usr/bin/env node
// A stopped process keeps its database sessions, and a transaction it left open keeps its row
// locks: a room whose owner was stopped in the middle of a journal write cannot be claimed while
// that lock is held. The instance that tombstones the owner's lease ends the owner's sessions (by
// their application_name, "tinsel/<id>/<tag>", which the owner recorded in instances.session), so
// the room is taken over all the same. Here a psql session under the owner's session name holds
// the room's row (SELECT ... FOR UPDATE in an open transaction), the owner is stopped, and a
// client asking for the room through HAProxy reaches it on the other instance; the held session
// was ended.
//
//   node locked.test.mjs --server PATH
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import WebSocket from 'ws';
import { TinselClient } from '../../clients/js/index.js';
import { clusterTest, startCluster } from '../support/cluster.mjs';
import { within } from '../support/processes.mjs';

await clusterTest(async ({ server }) => {
  const cluster = await startCluster({ binary: server, instances: 2 });
  const base = `ws://127.0.0.1:${cluster.port}`;
  const host = new TinselClient({ url: `${base}/i/i1/ws`, name: 'Oma', WebSocket });
  await host.connect();
  const { room } = await host.createRoom('happy_holidays', { maxPlayers: 2 });
  assert.equal((await cluster.roomOwner(room))?.owner, 'i1');
  const [[session]] = await cluster.query(`SELECT session FROM instances WHERE id = 'i1'`);
  assert.match(session, /^tinsel\/i1\/[0-9a-f]{8}$/, 'i1 recorded its session name');

  // A session of i1's (by its name) holds the room's row in an open transaction.
  const psql = spawn('psql', [cluster.conninfo, '-qAt', '-v', 'ON_ERROR_STOP=1'], { env: { ...process.env, PGAPPNAME: session } });
  let out = '';
  psql.stdout.on('data', (d) => { out += d; });
  psql.stderr.on('data', (d) => { out += d; });
  const ended = new Promise((resolve) => psql.on('exit', resolve));
  psql.stdin.write(`BEGIN;\nSELECT code FROM rooms WHERE code = '${room}' FOR UPDATE;\nSELECT 'locked';\n`);
  await within(10000, (async () => { while (!out.includes('locked')) await new Promise((r) => setTimeout(r, 50)); })(), 'the row to be locked');

  cluster.pause('i1');
  const stoppedAt = Date.now();
  const guest = new TinselClient({ url: `${base}/ws`, name: 'Ben', WebSocket, room, backoff: { baseMs: 200, restartBaseMs: 300, maxMs: 1000 } });
  await guest.connect().catch(() => {});
  await within(60000, guest.joinRoom(room, { as: 'spectator' }), `a spectator to reach ${room} while its owner is stopped with the row locked`);
  assert.equal(guest.welcome.server.instance, 'i2', 'the room is served by i2');
  assert.equal((await cluster.roomOwner(room))?.owner, 'i2');
  console.log(`ok: ${room} served by i2 ${((Date.now() - stoppedAt) / 1000).toFixed(1)} s after its owner stopped with the room's row locked`);
  psql.stdin.write(`SELECT 'still here';\n`);
  await within(10000, ended, 'the held session to be gone');
  assert.ok(!out.includes('still here'), `the held session was ended: ${out}`);
  console.log('ok: the stopped owner\'s session that held the lock was ended by the takeover');

  cluster.resume('i1');
  guest.close();
  host.close();
});
