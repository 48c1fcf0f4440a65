#!/usr/bin/env node
// The client library's rules for a room that moves (docs/protocol.md, "Cluster mode"), on a real
// cluster (tests/support/cluster.mjs: two instances on PostgreSQL behind HAProxy):
//  - where a redirect can never reach the owner (a client on an instance's own port, bypassing
//    HAProxy, where every `ws` path leads back to the same instance), the library follows exactly
//    5 hops, each to the error's `ws` path after a pause that grows (0-250 ms, then up to 500,
//    1000, ...), and then falls back to its ordinary backoff on `/ws?room=CODE`; the joinRoom()
//    promise waits meanwhile and is rejected (`disconnected`) by close();
//  - a client that learned an /i/<id>/ path from a redirect does not reuse it after a drop (a TCP
//    proxy cuts its connection mid-game): it reconnects to its base URL with ?room=CODE, follows
//    the redirect again and takes its seat back with last_seq, every state in order and every
//    event once (as a spectator on the owner saw them);
//  - tinsel-bot (--join CODE, watching) asked at the wrong instance puts the room in its URL, is
//    redirected, follows and watches the game to its end.
//
//   node follow_room.test.mjs --server PATH --bot PATH
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { TinselClient, maxHops, sendable } from '../../clients/js/index.js';
import { clusterTest, startCluster, waitFor } from '../support/cluster.mjs';
import { start, within } from '../support/processes.mjs';
import { startProxy } from '../support/proxy.mjs';

function until(client, type, test = () => true) {
  return new Promise((resolve) => {
    const off = client.on(type, (...a) => {
      if (test(...a)) {
        off();
        resolve(a[0]);
      }
    });
  });
}

// A WebSocket class that records the URL of every connection the library opens.
function recordingWebSocket(urls) {
  return class extends WebSocket {
    constructor(url, ...rest) {
      urls.push(url);
      super(url, ...rest);
    }
  };
}

const plain = (events) => events.map(({ seq, ...rest }) => JSON.stringify(rest));
const pathOf = (url) => { const u = new URL(url); return u.pathname + u.search; };

await clusterTest(async ({ server, bot }) => {
  const cluster = await startCluster({ binary: server, instances: 2 });
  const haproxy = `ws://127.0.0.1:${cluster.port}`;

  // ---- 5 hops at most, then the ordinary backoff on /ws?room=CODE ------------------------------
  const host = new TinselClient({ url: `${haproxy}/i/i1/ws`, name: 'Oma', WebSocket });
  await host.connect();
  const { room } = await host.createRoom('happy_holidays', { maxPlayers: 2 });
  assert.equal((await cluster.roomOwner(room))?.owner, 'i1');

  const urls = [];
  const direct = cluster.direct('i2'); // i2's own port: /i/i1/ws there is i2 again
  const lost = new TinselClient({ url: direct, name: 'Irrläufer', WebSocket: recordingWebSocket(urls) });
  const hops = [];
  lost.on('moved', (m) => hops.push(m));
  const closes = [];
  lost.on('disconnect', (d) => closes.push(d.code));
  await lost.connect();
  assert.equal(lost.welcome.server.instance, 'i2');
  const joining = lost.joinRoom(room.toLowerCase(), { as: 'spectator' });
  let settled = null;
  joining.then((ok) => { settled = { ok }; }, (err) => { settled = { err }; });
  // The 5 hops, then two connections of the ordinary backoff.
  await waitFor(60000, 'five hops and two ordinary reconnects', () => hops.length >= maxHops && urls.length >= 1 + maxHops + 2);
  assert.equal(maxHops, 5);
  // At most 5 hops in a row: the 6th room_moved is not followed but answered with the ordinary
  // backoff to /ws?room=CODE; after that pause a room_moved is followed again, from hop 1 (a client
  // that spent its hops while a dead owner's lease ran must not ignore the new owner forever).
  assert.ok(hops.every((h) => h.hop <= maxHops), `never more than ${maxHops} hops in a row: ${hops.map((h) => h.hop).join(' ')}`);
  if (hops.length > maxHops) assert.equal(hops[maxHops].hop, 1, 'a new run of hops after the backoff pause starts at 1');
  const expected = `/i/i1/ws?room=${room}`;
  hops.slice(0, maxHops).forEach((h, i) => {
    assert.equal(h.hop, i + 1);
    assert.equal(h.room, room);
    assert.equal(h.instance, 'i1');
    assert.equal(pathOf(h.url), expected, 'each hop goes to the ws path of the error');
    assert.equal(new URL(h.url).host, new URL(direct).host, 'on the origin of the base URL');
    assert.ok(h.delay >= 0 && h.delay <= 250 * 2 ** i, `hop ${i + 1} waited ${h.delay} ms`);
  });
  assert.equal(pathOf(urls[0]), '/ws', 'no room known at first: plain /ws');
  for (let i = 1; i <= maxHops; i++) assert.equal(pathOf(urls[i]), expected, `connection ${i + 1} follows the redirect`);
  assert.equal(pathOf(urls[1 + maxHops]), `/ws?room=${room}`, 'past 5 hops: the base URL with the room');
  for (const url of urls.slice(1 + maxHops)) assert.ok([`/ws?room=${room}`, expected].includes(pathOf(url)), `then the base URL with the room, or a new run of hops: ${pathOf(url)}`);
  assert.ok(closes.filter((c) => c === 4002).length >= maxHops + 1, `closed with 4002 each time: ${closes.join(' ')}`);
  assert.equal(settled, null, 'the join waits while the library looks for the room');
  assert.equal(lost.status, 'reconnecting');
  lost.close();
  await waitFor(5000, 'the waiting join to be rejected', () => settled);
  assert.equal(settled.err?.code, 'disconnected', 'close() rejects the join that waited');
  console.log(`ok: ${maxHops} hops (pauses ${hops.map((h) => h.delay).join(', ')} ms), then /ws?room=${room} with backoff; the join rejected on close()`);

  // ---- after a drop: the base URL with the room, not the learned /i/<id>/ path ------------------
  const net = await startProxy(cluster.port); // in front of HAProxy: its cut is a lost Wi-Fi
  const annUrls = [];
  const ann = new TinselClient({ url: `ws://127.0.0.1:${net.port}/i/i2/ws`, name: 'Anna', WebSocket: recordingWebSocket(annUrls) });
  const annHops = [];
  ann.on('moved', (m) => annHops.push(m));
  const delivered = [];
  ann.on('state', (state, info) => delivered.push([state, info]));
  await ann.connect();
  const joined = await within(30000, ann.joinRoom(room), 'Anna to join through i2');
  assert.equal(joined.room, room);
  assert.equal(ann.welcome.server.instance, 'i1', 'the join landed on the owner');
  assert.equal(annHops.length, 1, 'within one hop');
  assert.equal(pathOf(ann.connectUrl()), `/i/i2/ws?room=${room}`, 'the next connection: the base URL with the room');

  const tom = new TinselClient({ url: `${haproxy}/ws`, room, name: 'Tom', WebSocket });
  const watched = [];
  tom.on('state', (state) => watched.push(...state.events));
  await tom.connect();
  await tom.joinRoom(room, { as: 'spectator' });
  assert.equal(tom.welcome.server.instance, 'i1', '/ws?room= reaches the owner');

  // The reference bot watches, asked at i2 with the room in its URL: one redirect to i1.
  const watcher = start('tinsel-bot', bot, ['--url', `${haproxy}/i/i2/ws`, '--name', 'Botty', '--join', room.toLowerCase(), '--spectate', '--verbose']);
  cluster.procs.push(watcher);
  await within(30000, watcher.line(new RegExp(`^room ${room}$`)), 'the bot to join');
  assert.match(watcher.stderr, new RegExp(`connecting to ws://[^ ]+/i/i2/ws\\?room=${room}`), 'the bot put the room in its URL');
  assert.match(watcher.stderr, /room_moved/, 'the bot was redirected');
  assert.match(watcher.stderr, /the room moved to another server; following it in \d+ ms \(hop 1\)/);
  assert.match(watcher.stderr, new RegExp(`connecting to ws://[^ ]+/i/i1/ws\\?room=${room}`), 'the bot followed the ws path');

  const play = (c) => c.on('state', (state) => {
    if (state.over || !state.prompt?.seats.includes(state.seat)) return;
    const legal = sendable(state.legal);
    c.action(legal.find((e) => e.kind === 'take_reindeer') ?? legal[0]).catch(() => {});
  });
  play(ann);
  play(host);
  const over = until(tom, 'state', (s) => s.over);
  await host.startGame();
  await within(60000, until(tom, 'state', (s) => s.seq >= 6), 'a few moves');
  const before = annUrls.length;
  const rejoined = until(ann, 'joined', (ok, { rejoin }) => rejoin);
  assert.ok(net.cut() >= 1, "Anna's connection was cut");
  await within(60000, rejoined, 'Anna to take her seat back');
  assert.equal(pathOf(annUrls[before]), `/i/i2/ws?room=${room}`, 'after the drop: the base URL with the room, not /i/i1/');
  assert.equal(pathOf(annUrls[before + 1]), `/i/i1/ws?room=${room}`, 'then the redirect, followed again');
  assert.equal(annHops.length, 2);
  assert.equal(annHops[1].hop, 1, 'the joined room had reset the hop count');
  await within(120000, over, 'the game to end');
  if (!ann.state?.over) await within(30000, until(ann, 'state', (s) => s.over), 'Anna to see the end');

  let last = 0;
  for (const [state, info] of delivered) {
    if (info.join && state.replayed_from !== undefined) assert.equal(state.replayed_from, last + 1);
    else if (info.join) assert.ok(last === 0 || state.seq === last || state.seq === last + 1, `a join answered with ${state.seq} after ${last}`);
    else assert.equal(state.seq, last + 1, `state ${state.seq} after ${last}`);
    assert.ok(!info.resync && !info.gap);
    last = state.seq;
  }
  assert.deepEqual(plain(delivered.flatMap(([s]) => s.events)), plain(watched), 'Anna saw every event once, as the spectator did');
  const botExit = await within(60000, watcher.exited, 'the bot to leave after the game');
  assert.equal(botExit.code, 0, `the bot watched the game to its end (exit ${JSON.stringify(botExit)})`);
  console.log('ok: tinsel-bot followed the redirect and watched the game to its end');
  console.log(`ok: after a cut Anna reconnected to /i/i2/ws?room=${room}, hopped to i1 again and resumed: ${delivered.length} states to seq ${last}, no gap`);
  for (const c of [ann, tom, host]) c.close();
  net.close();
});
