#!/usr/bin/env node
// Routing through HAProxy (packaging/haproxy.cfg) to three instances:
//  - /i/<id>/ws reaches that instance (welcome.server.instance), /healthz names it;
//  - a room owned elsewhere is reached within one redirect: the hello on /i/<other>/ws?room=CODE
//    is answered with the error room_moved (room, instance, ws) and close code 4002, and the
//    client library, joining through any instance, lands on the owner after at most one hop;
//  - with the owner killed, all the clients of a room reach the same successor, also those that
//    ask for the dead instance by name (/i/<dead>/ws?room=CODE);
//  - HAProxy bounds the connections per client address (its stick table), whatever
//    X-Forwarded-For a client sends.
//
//   node routing.test.mjs --server PATH
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { TinselClient } from '../../clients/js/index.js';
import { clusterTest, startCluster, waitFor } from '../support/cluster.mjs';
import { within } from '../support/processes.mjs';
import { openFamilies, owners, busiest, checkMoved } from './play.mjs';

// A raw WebSocket: sends `messages` one after the other (each after the answer to the one before)
// and collects everything until the close; resolves with {messages, code}.
function raw(url, messages, { headers = {}, ms = 10000 } = {}) {
  return within(ms, new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    const got = [];
    let next = 0;
    const send = () => { if (next < messages.length) ws.send(JSON.stringify(messages[next++])); };
    ws.on('open', send);
    ws.on('message', (d) => {
      const m = JSON.parse(String(d));
      got.push(m);
      if (m.type === 'ok' || m.type === 'welcome') send();
    });
    ws.on('close', (code) => resolve({ messages: got, code }));
    ws.on('unexpected-response', (_, res) => resolve({ messages: got, status: res.statusCode }));
    ws.on('error', reject);
  }), `a raw connection to ${url}`);
}

await clusterTest(async ({ server }) => {
  const cluster = await startCluster({ binary: server, haproxyEnv: { TINSEL_HAPROXY_CONNECTIONS_PER_ADDRESS: '60' } });
  const base = `ws://127.0.0.1:${cluster.port}`;
  const ids = [...cluster.instances.keys()];

  // /i/<id>/ws reaches <id>; /healthz names the instance.
  for (const id of ids) {
    for (let k = 0; k < 3; k++) {
      const c = new TinselClient({ url: `${base}/i/${id}/ws`, name: `Probe ${id}`, WebSocket });
      const welcome = await c.connect();
      assert.equal(welcome.server.instance, id, `/i/${id}/ws reached ${welcome.server.instance}`);
      c.close();
    }
    const health = await cluster.health(id);
    assert.equal(health.status, 200);
    assert.equal(health.json.instance, id);
  }
  console.log(`ok: /i/<id>/ws reaches <id> for ${ids.join(', ')}`);

  // A room on i1; asked for on i2, the hello gets the redirect and the close 4002.
  const host = new TinselClient({ url: `${base}/i/i1/ws`, name: 'Oma', WebSocket });
  await host.connect();
  const { room } = await host.createRoom('happy_holidays', { maxPlayers: 4 });
  assert.deepEqual(await cluster.roomOwner(room), { owner: 'i1', epoch: 1 }, 'the room is claimed by its creator before create_room is answered');
  const asked = await raw(`${base}/i/i2/ws?room=${room}`, [{ type: 'hello', protocol: 1, name: 'Ben', id: 1 }]);
  const moved = asked.messages.find((m) => m.type === 'error');
  assert.ok(moved, `the hello for a room on i1 at i2 got no error: ${JSON.stringify(asked.messages)}`);
  assert.equal(moved.code, 'room_moved');
  assert.equal(moved.id, 1);
  assert.equal(moved.room, room);
  assert.equal(moved.instance, 'i1');
  assert.equal(moved.ws, `/i/i1/ws?room=${room}`);
  assert.equal(asked.code, 4002, 'closed with 4002 (room moved)');
  assert.ok(!asked.messages.some((m) => m.type === 'state' || m.type === 'room'), 'nothing of the room from i2');
  // A join_room for it on a connection without the room in its URL: the same redirect.
  const joined = await raw(`${base}/i/i3/ws`, [{ type: 'hello', protocol: 1, name: 'Lena', id: 1 }, { type: 'join_room', room, id: 2 }]);
  const moved2 = joined.messages.find((m) => m.type === 'error');
  assert.equal(moved2?.code, 'room_moved', JSON.stringify(joined.messages));
  assert.equal(moved2.id, 2);
  assert.equal(moved2.ws, `/i/i1/ws?room=${room}`);
  assert.equal(joined.code, 4002);
  console.log('ok: hello and join_room for a room elsewhere get room_moved with its ws path and close 4002');

  // The library joins through every instance and lands on the owner within one hop.
  for (const id of ids) {
    const guest = new TinselClient({ url: `${base}/i/${id}/ws`, name: `Gast ${id}`, WebSocket });
    const hops = [];
    guest.on('moved', (m) => hops.push(m));
    await guest.connect();
    await within(20000, guest.joinRoom(room, { as: 'spectator' }), `a spectator to join through ${id}`);
    assert.equal(guest.welcome.server.instance, 'i1');
    assert.equal(hops.length, id === 'i1' ? 0 : 1, `joining through ${id}: ${hops.length} hops`);
    guest.close();
  }
  host.close();
  console.log('ok: the client library reaches the room on i1 through every instance within one redirect');

  // Families in rooms wherever they were created; the busiest instance is killed.
  const families = await openFamilies(cluster, 6);
  for (const f of families) for (const p of f.players) assert.equal(p.instance, (await cluster.roomOwner(f.code)).owner, `${p.name} is on the owner of ${f.code}`);
  const before = await owners(cluster, families);
  const victim = busiest(before);
  const theirs = families.filter((f) => before.get(f.code).owner === victim);
  await cluster.kill(victim);
  // Every client reconnects by itself (the dead connections) to /ws?room=CODE.
  await checkMoved(cluster, theirs, victim);
  // Asking for the dead instance by name reaches the room's successor too.
  for (const f of theirs) {
    const late = new TinselClient({ url: `${base}/i/${victim}/ws`, room: f.code, name: 'Spät', WebSocket });
    const hops = [];
    late.on('moved', (m) => hops.push(m));
    await late.connect();
    await late.joinRoom(f.code, { as: 'spectator' });
    assert.equal(late.welcome.server.instance, f.players[0].instance);
    assert.equal(hops.length, 0, `/i/${victim}/ws?room=${f.code} went straight to the successor`);
    late.close();
  }
  console.log(`ok: with ${victim} killed, the clients of its ${theirs.length} rooms each reach one successor`);
  for (const f of families) f.close();

  // The stick table: 60 requests or WebSockets at once per address. Connections with a forged
  // X-Forwarded-For each (which HAProxy does not trust) until one is refused: by the 61st at most.
  const open = [];
  let status = null;
  for (let k = 0; k < 61 && status === null; k++) {
    const ws = new WebSocket(`${base}/ws`, { headers: { 'X-Forwarded-For': `203.0.113.${k}` } });
    status = await new Promise((resolve) => {
      ws.on('open', () => resolve(null));
      ws.on('unexpected-response', (_, res) => resolve(res.statusCode));
      ws.on('error', () => resolve('error'));
    });
    open.push(ws);
  }
  assert.equal(status, 429, 'a connection past the per-address limit is refused with 429');
  assert.ok(open.length > 20, `refused after ${open.length} connections`);
  for (const ws of open) ws.terminate();
  console.log(`ok: HAProxy refused connection ${open.length} from one address (forged X-Forwarded-For ignored)`);
});
