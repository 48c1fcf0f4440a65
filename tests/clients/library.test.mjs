#!/usr/bin/env node
// The client library (clients/js) against a real tinsel-server:
//  - requests settle with their `ok` or reject with the `error`'s code (and retry_after_ms);
//  - a player plays Happy Holidays against a server bot through a TCP proxy whose connections are
//    cut, and kept down until the game has moved on, several times: the library reconnects with
//    the token from the token hook, takes the seat back with last_seq, and delivers every state in
//    order and every event exactly once (compared with a spectator who never lost its connection);
//  - a second connection with the same token replaces the first (close code 4001), which stops;
//  - the host picks the next game in the same room (setGame);
//  - a computer player's level (addBot(level)) shows on its seat, an unknown one is refused;
//  - a graceful server restart (close code 1012) shows as `restarting`, and the client comes back
//    into its room by itself once the server is up again.
//
//   node library.test.mjs --server PATH
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { TinselClient, TinselError, sendable } from '../../clients/js/index.js';
import { parseArgs, startServer, killAll, within, show } from '../support/processes.mjs';
import { startProxy } from '../support/proxy.mjs';

const args = parseArgs(process.argv.slice(2));
const CUTS = 3;

// Resolves with the first event of `type` for which `test(...)` holds.
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

// A token hook that records how it is used.
function recordingStore() {
  const calls = { get: 0, set: [] };
  let token = null;
  return { calls, store: { get: () => { calls.get += 1; return token; }, set: (t) => { calls.set.push(t); token = t; } } };
}

// Events without the `seq` a replay adds, for comparing streams.
const plain = (events) => events.map(({ seq, ...rest }) => JSON.stringify(rest));

async function requestsAndErrors(url) {
  // A hello the server refuses (an invisible name) fails the session instead of retrying it.
  const nobody = new TinselClient({ url, name: '\u200b', WebSocket });
  await assert.rejects(nobody.connect(), (e) => e instanceof TinselError && e.code === 'invalid_field');
  assert.equal(nobody.status, 'failed');

  const c = new TinselClient({ url, name: 'Errors', WebSocket });
  await c.connect();
  await assert.rejects(c.joinRoom('zzz-zzz'), (e) => e instanceof TinselError && e.code === 'unknown_room' && typeof e.message === 'string');
  await assert.rejects(c.createRoom('no_such_game'), (e) => e.code === 'unknown_game');
  await assert.rejects(c.action({ kind: 'roll' }), (e) => e.code === 'not_in_room');
  // A request type the library has no method for goes through request() all the same.
  await assert.rejects(c.request({ type: 'no_such_request' }), (e) => e.code === 'unknown_type');
  const ok = await c.request({ type: 'create_room', game: 'happy_holidays' });
  assert.match(ok.room, /^[2-9A-Z]{6}$/);
  assert.equal(c.room, null, 'request() keeps no room state: a generic request is only sent');
  await c.request({ type: 'leave_room' });
  // A computer player's level (issue 31): addBot(level) seats it, its seat shows the level, an
  // unknown level is refused and adds nobody, and without a level it is fair.
  await c.createRoom('happy_holidays', { maxPlayers: 4 });
  const gentle = until(c, 'room', (room) => room.seats.some((s) => s.bot_level === 'gentle'));
  await c.addBot('gentle');
  await gentle;
  await assert.rejects(c.addBot('cruel'), (e) => e.code === 'invalid_field');
  const fair = until(c, 'room', (room) => room.seats.filter((s) => s.status === 'bot').length === 2);
  await c.addBot();
  const room = await fair;
  assert.deepEqual(room.seats.map((s) => s.bot_level ?? null), [null, 'gentle', 'fair', null]);
  await c.leaveRoom();
  c.close();
  assert.equal(c.status, 'closed');
  await assert.rejects(c.chat('hello?'), (e) => e.code === 'disconnected');
}

async function resumeGapFree(port, url) {
  const net = await startProxy(port);
  const { calls, store } = recordingStore();
  const statuses = [];
  const anna = new TinselClient({ url: `ws://127.0.0.1:${net.port}/ws`, name: 'Anna', WebSocket, tokenStore: store });
  anna.on('status', (s) => statuses.push(s));
  const delivered = []; // [state, info]
  anna.on('state', (state, info) => delivered.push([state, info]));
  // Each rejoin brings the game from its start: it must hold exactly what was delivered so far.
  const logs = []; // [game_log, the events delivered before it]
  anna.on('game_log', (log) => logs.push([log, delivered.flatMap(([s]) => s.events)]));
  const rejoins = [];
  anna.on('joined', (ok, { rejoin }) => { if (rejoin) rejoins.push(ok); });

  const welcome = await anna.connect();
  assert.equal(welcome.resumed, false);
  assert.deepEqual(calls.set, [welcome.token], 'the token hook keeps the welcome token');
  const { room } = await anna.createRoom('happy_holidays', { maxPlayers: 2, giftsPerColour: 5, startPlayer: 'host-picks', mainTimeoutSec: 120, subPromptTimeoutSec: 120 });
  await anna.addBot();

  // A spectator on a direct connection sees the same public events without a cut.
  const tom = new TinselClient({ url, name: 'Tom', WebSocket });
  const watched = [];
  tom.on('state', (state) => watched.push(...state.events));
  await tom.connect();
  await tom.joinRoom(room, { as: 'spectator' });

  // Anna plays from `legal`: take a reindeer when she can, else the first command.
  anna.on('state', (state) => {
    if (state.over || !state.prompt?.seats.includes(state.seat)) return;
    const legal = sendable(state.legal);
    const pick = legal.find((e) => e.kind === 'take_reindeer') ?? legal[0];
    anna.action(pick).catch((e) => assert.ok(['disconnected', 'not_your_turn', 'wrong_phase'].includes(e.code), `refused: ${e.code}`));
  });

  const over = until(tom, 'state', (s) => s.over);
  await anna.startGame(0);
  // Cut when the bot is about to move, keep the network down until the spectator has seen the
  // game move on, so that Anna has missed something each time.
  for (let cut = 0; cut < CUTS; cut++) {
    await until(anna, 'state', (s) => !s.over && !s.prompt.seats.includes(s.seat));
    const seen = anna.lastSeq;
    net.setDown(true);
    await until(tom, 'state', (s) => s.seq > seen);
    net.setDown(false);
    await within(60000, until(anna, 'status', (s) => s === 'online'), 'Anna to be back online');
  }
  await within(120000, over, 'the game to end');
  if (!anna.state?.over) await within(30000, until(anna, 'state', (s) => s.over), 'Anna to see the end');

  // Every state in order: one above the last, or the answer to a rejoin, which replays from
  // exactly one above the last.
  let last = 0;
  let replays = 0;
  for (const [state, info] of delivered) {
    if (info.join && state.replayed_from !== undefined) {
      assert.equal(state.replayed_from, last + 1, `a replay from ${state.replayed_from} after ${last}`);
      assert.ok(state.events.every((e, i) => e.seq >= last + 1 && (i === 0 || e.seq >= state.events[i - 1].seq)));
      if (state.events.length) replays += 1;
    } else if (info.join) {
      assert.ok(state.seq === last || state.seq === last + 1, `a rejoin answered with ${state.seq} after ${last}`);
    } else {
      assert.equal(state.seq, last + 1, `state ${state.seq} after ${last}`);
    }
    assert.ok(!info.resync && !info.gap);
    last = state.seq;
  }
  assert.deepEqual(plain(delivered.flatMap(([s]) => s.events)), plain(watched), 'Anna saw every event once, as the spectator did');
  assert.equal(rejoins.length, CUTS, 'the seat was taken back after every cut');
  assert.ok(rejoins.every((ok) => ok.resumed && ok.room === room && ok.seat === 0));
  assert.ok(replays >= 1, 'a rejoin replayed missed events');
  // The game log on every rejoin: the game from its start up to the state that answers the join,
  // which is marked logged; with that state's (replayed) events it is exactly what Anna had seen.
  assert.equal(logs.length, CUTS, 'a game_log with every rejoin');
  for (const [log, before] of logs) {
    const i = delivered.findIndex(([s, info]) => info.join && info.logged && s.seq === log.seq);
    assert.ok(i >= 0, `the state answering the rejoin at ${log.seq} is marked logged`);
    assert.equal(log.truncated, false);
    assert.equal(log.events[0].kind, 'game_started');
    assert.deepEqual(plain(log.events), plain([...before, ...delivered[i][0].events]), 'the log is the game so far, every event once');
  }
  assert.ok(delivered.every(([, info]) => !info.logged || info.join), 'only join answers are logged');
  assert.equal(delivered.filter(([, info]) => info.logged).length, CUTS);
  assert.ok(calls.get >= CUTS + 1, 'the token hook was asked on every connect');
  assert.equal(anna.welcome.resumed, true);
  assert.equal(anna.welcome.player, welcome.player, 'the same player after resuming');
  assert.ok(statuses.includes('reconnecting') && statuses.at(-1) === 'online', statuses.join(' '));
  console.log(`ok: ${delivered.length} states to seq ${last} across ${CUTS} cuts, ${replays} replays, ${watched.length} events once each`);

  // The next game in the same room (setGame, issue 31): refused options change nothing; then the
  // room push names the new game, Anna and the bot stay seated and Tom watching, the last game's
  // state is dropped and the room's seq goes on.
  const seqBefore = anna.lastSeq;
  await assert.rejects(anna.setGame('christmas_penguins', { maxPlayers: 1 }), (e) => e.code === 'invalid_option');
  assert.equal(anna.roomInfo.game, 'happy_holidays');
  const nextForTom = until(tom, 'room', (r) => r.game === 'christmas_penguins');
  const nextForAnna = until(anna, 'room', (r) => r.game === 'christmas_penguins');
  await anna.setGame('christmas_penguins', { maxPlayers: 2, mainTimeoutSec: 'off' });
  const next = await within(10000, nextForTom, 'the room push of the next game');
  await within(10000, nextForAnna, 'Anna to see the next game');
  assert.equal(next.code, room);
  assert.equal(next.status, 'lobby');
  assert.equal(next.result, null);
  assert.equal(next.max_players, 2);
  assert.equal(next.options.mainTimeoutSec, 'off');
  assert.deepEqual(next.seats.map((s) => s.status), ['connected', 'bot']);
  assert.equal(next.spectators, 1);
  assert.equal(anna.state, null, "the last game's state is gone with its game");
  assert.equal(tom.state, null);
  assert.equal(anna.lastSeq, seqBefore, 'the seq goes on across games');
  console.log('ok: the next game in the same room');

  // Another connection resumes Anna's token: the first is replaced (4001) and stops.
  const disconnects = [];
  anna.on('disconnect', (d) => disconnects.push(d.code));
  const replaced = until(anna, 'status', (s) => s === 'replaced');
  const tab2 = new TinselClient({ url, name: 'Anna', WebSocket, tokenStore: store });
  const again = await tab2.connect();
  assert.equal(again.resumed, true);
  assert.equal(again.room, room);
  await within(10000, replaced, 'the first connection to be replaced');
  assert.deepEqual(disconnects, [4001]);
  await new Promise((r) => setTimeout(r, 1500));
  assert.equal(anna.status, 'replaced', 'a replaced client does not fight for the seat');
  assert.equal(tab2.status, 'online');
  for (const c of [tab2, tom]) c.close();
  net.close();
}

// After three joins that name no room, the address waits: the error says how long.
async function retryAfter(url) {
  const c = new TinselClient({ url, name: 'Guesser', WebSocket });
  await c.connect();
  let err;
  for (let i = 0; i < 5 && !(err?.code === 'too_many_attempts'); i++) {
    err = await c.joinRoom('ZZZZZZ').catch((e) => e);
  }
  assert.equal(err.code, 'too_many_attempts');
  assert.ok(Number.isInteger(err.retry_after_ms) && err.retry_after_ms > 0, 'retry_after_ms is carried');
  c.close();
}

// A burst over the rate limit: the server refuses the excess with rate_limited (a raw socket sees
// it), and the library sends those requests again after a pause, so every one of them succeeds.
async function rateLimited() {
  const s = await startServer(args.server, ['--rate-per-sec', '5', '--rate-burst', '5']);
  try {
    const url = `ws://127.0.0.1:${s.port}/ws`;
    const raw = new WebSocket(url);
    await new Promise((r) => raw.once('open', r));
    const codes = [];
    raw.on('message', (data) => { const m = JSON.parse(data); if (m.type === 'error') codes.push(m.code); });
    raw.send(JSON.stringify({ type: 'hello', protocol: 1, name: 'Raw', id: 1 }));
    for (let i = 0; i < 12; i++) raw.send(JSON.stringify({ type: 'chat', text: `raw ${i}`, id: 10 + i }));
    await within(10000, (async () => { while (!codes.includes('rate_limited')) await new Promise((r) => setTimeout(r, 50)); })(), 'a rate_limited refusal');
    raw.close();

    const c = new TinselClient({ url, name: 'Chatty', WebSocket });
    await c.connect();
    await c.createRoom('happy_holidays');
    const sent = await within(20000, Promise.all(Array.from({ length: 12 }, (_, i) => c.chat(`hello ${i}`))), 'a burst of chats');
    assert.equal(sent.length, 12, 'every request of the burst succeeded');
    c.close();
    console.log('ok: a burst over the rate limit is sent again and succeeds');
  } finally {
    s.proc.child.kill('SIGTERM');
    await within(10000, s.proc.exited, 'the rate-limited server to stop');
  }
}

// SIGTERM: the server closes every connection with 1012 and comes back on the same data folder.
async function restart(s, url) {
  const c = new TinselClient({ url, name: 'Rudi', WebSocket });
  await c.connect();
  const { room } = await c.createRoom('happy_holidays');
  const restarting = until(c, 'status', (status, detail) => status === 'restarting' && detail.code === 1012);
  server.child.kill('SIGTERM');
  await within(15000, server.exited, 'the server to stop');
  await within(15000, restarting, 'the client to say the server is restarting');
  const rejoined = until(c, 'joined', (ok, { rejoin }) => rejoin);
  server = (await startServer(args.server, [], { port: s.port, dataDir: s.dataDir })).proc;
  const ok = await within(60000, rejoined, 'the client to rejoin after the restart');
  assert.equal(ok.room, room);
  assert.equal(ok.resumed, true);
  assert.equal(c.welcome.resumed, true);
  await within(15000, c.status === 'online' ? Promise.resolve() : until(c, 'status', (status) => status === 'online'), 'online');
  c.close();
  console.log('ok: back in the room after a restart (1012)');
}

let server;
try {
  const s = await startServer(args.server, ['--auto-play-delay-ms', '20']);
  server = s.proc;
  const url = `ws://127.0.0.1:${s.port}/ws`;
  await within(30000, requestsAndErrors(url), 'requests and errors');
  await within(240000, resumeGapFree(s.port, url), 'the resumed game');
  await within(120000, restart(s, url), 'the restart');
  await within(60000, rateLimited(), 'the rate limit');
  await within(30000, retryAfter(url), 'retry_after_ms'); // last: it leaves the address waiting
  server.child.kill('SIGTERM');
  await within(10000, server.exited, 'the server to stop');
  console.log('ok: client library');
  process.exit(0);
} catch (e) {
  console.log(`FAILED: ${e.stack || e.message}`);
  if (server) show(server);
  killAll();
  process.exit(1);
}
