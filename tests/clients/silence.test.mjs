#!/usr/bin/env node
// The client library's silence timer (docs/protocol.md, "Following a room"), against a real
// tinsel-server:
//  - a quiet but live connection (a lobby where nothing happens) is kept: after `silenceMs` without
//    a message the library sends a `ping`, the server answers `ok` at once, and nothing reconnects;
//  - a dead connection that still looks open (tests/support/proxy.mjs freezes it: nothing passes
//    in either direction and nobody closes anything) is noticed by the timer alone: the library
//    pings, hears nothing for `pingTimeoutMs`, drops the connection itself, reconnects and takes
//    its seat back with last_seq. Twice in a game against a server bot; every state in order and
//    every event exactly once, as a spectator on a direct connection saw them.
//
//   node silence.test.mjs --server PATH
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { TinselClient, sendable } from '../../clients/js/index.js';
import { parseArgs, startServer, killAll, within, show } from '../support/processes.mjs';
import { startProxy } from '../support/proxy.mjs';

const args = parseArgs(process.argv.slice(2));
const FREEZES = 2;
const silenceMs = 1500;
const pingTimeoutMs = 1000;

function until(client, type, test) {
  return new Promise((resolve) => {
    const off = client.on(type, (...a) => {
      if (test(...a)) {
        off();
        resolve(a[0]);
      }
    });
  });
}

// A WebSocket that records every frame the library sends.
function spyingWebSocket(sent) {
  return class extends WebSocket {
    send(data, ...rest) {
      sent.push(JSON.parse(data));
      return super.send(data, ...rest);
    }
  };
}

const plain = (events) => events.map(({ seq, ...rest }) => JSON.stringify(rest));

async function quietButAlive(url) {
  const sent = [];
  const c = new TinselClient({ url, name: 'Quiet', WebSocket: spyingWebSocket(sent), silenceMs: 300, pingTimeoutMs: 5000 });
  const answers = new Map(); // id -> the answer's type
  c.on('message', (m) => { if (m.id !== undefined) answers.set(m.id, m.type); });
  const disconnects = [];
  c.on('disconnect', (d) => disconnects.push(d));
  await c.connect();
  await c.createRoom('happy_holidays'); // a lobby: nobody else, nothing pushed
  const pings = () => sent.filter((m) => m.type === 'ping');
  await within(30000, (async () => {
    while (pings().filter((p) => answers.get(p.id) === 'ok').length < 3) await new Promise((r) => setTimeout(r, 50));
  })(), 'three pings answered ok');
  assert.ok(pings().every((p) => Object.keys(p).sort().join() === 'id,type'), 'a ping is {type, id}');
  assert.deepEqual(disconnects, [], 'a quiet connection that answers its pings is kept');
  assert.equal(c.status, 'online');
  c.close();
  console.log(`ok: ${pings().length} pings on a quiet connection, each answered ok, no reconnect`);
}

async function frozenConnection(port, url) {
  const net = await startProxy(port);
  const anna = new TinselClient({ url: `ws://127.0.0.1:${net.port}/ws`, name: 'Anna', WebSocket, silenceMs, pingTimeoutMs });
  const delivered = [];
  anna.on('state', (state, info) => delivered.push([state, info]));
  const disconnects = [];
  anna.on('disconnect', (d) => disconnects.push({ ...d, at: Date.now() }));
  const rejoins = [];
  anna.on('joined', (ok, { rejoin }) => { if (rejoin) rejoins.push(ok); });

  await anna.connect();
  const { room } = await anna.createRoom('happy_holidays', { maxPlayers: 2, giftsPerColour: 5, startPlayer: 'host-picks', mainTimeoutSec: 120, subPromptTimeoutSec: 120 });
  await anna.addBot();
  const tom = new TinselClient({ url, name: 'Tom', WebSocket });
  const watched = [];
  tom.on('state', (state) => watched.push(...state.events));
  await tom.connect();
  await tom.joinRoom(room, { as: 'spectator' });

  anna.on('state', (state) => {
    if (state.over || !state.prompt?.seats.includes(state.seat)) return;
    const legal = sendable(state.legal);
    const pick = legal.find((e) => e.kind === 'take_reindeer') ?? legal[0];
    anna.action(pick).catch((e) => assert.ok(['disconnected', 'not_your_turn', 'wrong_phase'].includes(e.code), `refused: ${e.code}`));
  });
  const over = until(tom, 'state', (s) => s.over);
  await anna.startGame(0);

  for (let i = 0; i < FREEZES; i++) {
    // Frozen when the bot is about to move: the game goes on, and Anna hears none of it.
    await until(anna, 'state', (s) => !s.over && !s.prompt.seats.includes(s.seat));
    const seen = anna.lastSeq;
    const frozenAt = Date.now();
    assert.equal(net.freeze(), 1, "Anna's connection is the proxy's only one");
    const silent = until(anna, 'disconnect', (d) => d.silent);
    const caughtUp = new Promise((resolve) => {
      const off = anna.on('state', (state, info) => { if (info.join) { off(); resolve(state); } });
    });
    await within(60000, until(tom, 'state', (s) => s.seq > seen), 'the game to move on');
    const d = await within(silenceMs + pingTimeoutMs + 30000, silent, 'the library to notice the frozen connection');
    const took = Date.now() - frozenAt;
    // The timer, not the network, noticed it: nothing was closed, so no earlier than one
    // pingTimeoutMs after the freeze (the ping went out at most silenceMs after the last message).
    assert.ok(took >= pingTimeoutMs - 50, `given up ${took} ms after the freeze`);
    assert.match(d.reason, /no message from the server/);
    const answer = await within(60000, caughtUp, 'the state that answers the rejoin');
    assert.ok(answer.seq > seen && answer.replayed_from === seen + 1, `the rejoin caught up from ${seen + 1}: ${answer.replayed_from} to ${answer.seq}`);
    console.log(`ok: freeze ${i + 1} noticed after ${took} ms (silenceMs ${silenceMs} + pingTimeoutMs ${pingTimeoutMs}), seat taken back`);
  }
  await within(120000, over, 'the game to end');
  if (!anna.state?.over) await within(30000, until(anna, 'state', (s) => s.over), 'Anna to see the end');

  let last = 0;
  for (const [state, info] of delivered) {
    if (info.join && state.replayed_from !== undefined) {
      assert.equal(state.replayed_from, last + 1, `a replay from ${state.replayed_from} after ${last}`);
    } else if (info.join) {
      assert.ok(state.seq === last || state.seq === last + 1, `a rejoin answered with ${state.seq} after ${last}`);
    } else {
      assert.equal(state.seq, last + 1, `state ${state.seq} after ${last}`);
    }
    assert.ok(!info.resync && !info.gap);
    last = state.seq;
  }
  assert.deepEqual(plain(delivered.flatMap(([s]) => s.events)), plain(watched), 'Anna saw every event once, as the spectator did');
  assert.equal(disconnects.filter((d) => d.silent).length, FREEZES, 'one silent drop per freeze, no other');
  assert.equal(rejoins.length, FREEZES, 'the seat was taken back after every freeze');
  assert.ok(rejoins.every((ok) => ok.resumed && ok.room === room && ok.seat === 0));
  console.log(`ok: ${delivered.length} states to seq ${last} through ${FREEZES} frozen connections, ${watched.length} events once each`);
  anna.close();
  tom.close();
  net.close();
}

let server;
try {
  const s = await startServer(args.server, ['--auto-play-delay-ms', '20']);
  server = s.proc;
  const url = `ws://127.0.0.1:${s.port}/ws`;
  await within(60000, quietButAlive(url), 'the quiet connection');
  await within(240000, frozenConnection(s.port, url), 'the frozen connections');
  server.child.kill('SIGTERM');
  await within(10000, server.exited, 'the server to stop');
  console.log('ok: silence timer');
  process.exit(0);
} catch (e) {
  console.log(`FAILED: ${e.stack || e.message}`);
  if (server) show(server);
  killAll();
  process.exit(1);
}
