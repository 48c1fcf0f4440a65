#!/usr/bin/env node
// Views as changes (hello `views: "changes"`, docs/protocol.md "The state push") through the real
// server, for every game, on raw WebSocket connections (what is on the wire, not the library):
//  - two players and a spectator ask for changes, a second spectator does not. The one without
//    never gets a `view_patch`; the others get a whole `view` first (join, start_game, a new game,
//    the resume) and then patches, each exactly one seq above the state before;
//  - every patch applied to the previous view gives the full view the same viewer gets: the
//    players ask for it (`full_view`: one player after every state, the other every third, so
//    patches chain in between) and the spectator's is compared with the other spectator's for
//    every seq. Every value a patch carries is in that full view at its path: no patch holds
//    anything the viewer may not see;
//  - in the middle of each game the second player's connection is cut; it resumes with its token
//    and `last_seq`, gets a whole view, and goes on with patches;
//  - `views` other than "full" or "changes" is `invalid_field`; `full_view` outside a room is
//    `not_in_room`, before a game `game_not_started`.
//
//   node view_changes.test.mjs --server PATH
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { applyPatch } from '../../clients/js/json_patch.js';
import { parseArgs, startServer, within, show } from '../support/processes.mjs';

const args = parseArgs(process.argv.slice(2));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Timers off (nothing moves but our commands), short games; Unterm Baum's MEMORIZE cannot be
// switched off (1 s), Christmas Penguins' reaction window gets its longest timer.
const games = {
  happy_holidays: { maxPlayers: 2, giftsPerColour: 5, mainTimeoutSec: 'off', subPromptTimeoutSec: 'off' },
  christmas_penguins: { maxPlayers: 2, maxRounds: 2, mainTimeoutSec: 'off', subPromptTimeoutSec: 'off', stopSeconds: 'off', reactionWindowMs: 60000 },
  unterm_baum: { maxPlayers: 2, cardsToRemember: 8, maxRounds: 6, mainTimeoutSec: 'off', assignSeconds: 'off', memorizeSeconds: 1 },
};

// Every subtree of a document, as canonical text (keys sorted).
const canonical = (v) => (v === null || typeof v !== 'object' ? JSON.stringify(v)
  : Array.isArray(v) ? `[${v.map(canonical).join(',')}]`
  : `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`);
function subtrees(doc, out = new Set()) {
  out.add(canonical(doc));
  if (doc !== null && typeof doc === 'object') for (const v of Object.values(doc)) subtrees(v, out);
  return out;
}

let nextName = 0;
class Conn {
  constructor(url, label, { changes, askEvery = 0 }) {
    this.url = url;
    this.label = label;
    this.changes = changes;
    this.askEvery = askEvery; // ask for the full view after every n-th patch (0: never)
    this.nextId = 1;
    this.pending = new Map();
    this.view = null;
    this.lastSeq = null;
    this.state = null;
    this.views = new Map(); // seq -> view, as this connection ended up with it
    this.kinds = []; // [seq, 'view' | 'patch']
    this.patches = 0;
    this.checked = 0; // full views compared with the patched one
    this.asking = 0; // full_view requests not answered yet
  }

  async open(token) {
    this.ws = new WebSocket(this.url);
    this.ws.on('message', (data) => this.receive(JSON.parse(String(data))));
    await new Promise((resolve, reject) => { this.ws.once('open', resolve); this.ws.once('error', reject); });
    const hello = { type: 'hello', protocol: 1, name: `${this.label}${nextName++}` };
    if (token) hello.token = token;
    if (this.changes) hello.views = 'changes';
    this.welcome = null;
    await this.request(hello);
    return this.welcome;
  }

  request(msg) {
    const id = this.nextId++;
    this.ws.send(JSON.stringify({ ...msg, id }));
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
  }

  receive(msg) {
    if (msg.type === 'welcome') this.welcome = msg;
    if ((msg.type === 'ok' || msg.type === 'error') && this.pending.has(msg.id)) {
      const p = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      if (msg.type === 'ok') p.resolve(msg);
      else p.reject(Object.assign(new Error(`${msg.code}: ${msg.message}`), { code: msg.code }));
      return;
    }
    if (msg.type === 'state') this.onState(msg);
  }

  onState(msg) {
    if (msg.view_patch !== undefined) {
      assert.ok(this.changes, `${this.label}: a view_patch to a connection that did not ask for changes`);
      assert.equal(msg.view, undefined, 'view and view_patch never come together');
      assert.equal(msg.seq, this.lastSeq + 1, `${this.label}: a patch follows the state one seq below`);
      const view = applyPatch(this.view, msg.view_patch);
      // Nothing the viewer may not see: every value the patch carries is part of the view it makes.
      const parts = subtrees(view);
      for (const op of msg.view_patch)
        if ('value' in op) assert.ok(parts.has(canonical(op.value)), `${this.label}: a patch value not in the view: ${JSON.stringify(op)}`);
      this.view = view;
      this.kinds.push([msg.seq, 'patch']);
      this.patches += 1;
      if (this.askEvery && this.patches % this.askEvery === 0) {
        this.asking += 1;
        this.request({ type: 'full_view' }).finally(() => { this.asking -= 1; });
      }
    } else {
      assert.ok(msg.view && typeof msg.view === 'object', `${this.label}: a state without a view`);
      // The answer to full_view: the seq this connection has, and the view it built from patches.
      if (this.lastSeq === msg.seq && this.kinds.length && this.kinds[this.kinds.length - 1][0] === msg.seq && !msg.replayed_from && !msg.resync) {
        assert.deepEqual(this.view, msg.view, `${this.label}: the patched view of seq ${msg.seq} differs from the full view`);
        assert.deepEqual(msg.events, [], 'the full_view answer carries no events');
        this.checked += 1;
      }
      this.view = msg.view;
      this.kinds.push([msg.seq, 'view']);
    }
    this.lastSeq = msg.seq;
    this.state = { ...msg, view: this.view };
    this.views.set(msg.seq, this.view);
  }

  close() { this.ws.terminate(); }
}

// Waits until every connection has the newest state and no full_view is unanswered.
async function settle(conns, what) {
  await within(20000, (async () => {
    for (;;) {
      await sleep(20);
      const seqs = conns.map((c) => c.lastSeq);
      if (seqs.every((s) => s !== null && s === seqs[0]) && conns.every((c) => c.asking === 0)) {
        await sleep(30);
        if (conns.every((c) => c.lastSeq === seqs[0])) return;
      }
    }
  })(), what);
}

const concrete = (legal) => (legal ?? []).filter((e) => e && typeof e === 'object' && !('domain' in e));

async function playGame(url, game) {
  const p0 = new Conn(url, 'Anna', { changes: true, askEvery: 1 });
  const p1 = new Conn(url, 'Ben', { changes: true, askEvery: 3 });
  const s1 = new Conn(url, 'Sam', { changes: true });
  const s2 = new Conn(url, 'Tom', { changes: false });
  for (const c of [p0, p1, s1, s2]) await c.open();
  await assert.rejects(p0.request({ type: 'full_view' }), (e) => e.code === 'not_in_room');
  const { room } = await p0.request({ type: 'create_room', game, options: games[game] });
  await p1.request({ type: 'join_room', room, as: 'player' });
  await s1.request({ type: 'join_room', room, as: 'spectator' });
  await s2.request({ type: 'join_room', room, as: 'spectator' });
  await assert.rejects(p0.request({ type: 'full_view' }), (e) => e.code === 'game_not_started');
  let conns = [p0, p1, s1, s2];

  const play = async (maxMoves) => {
    let moves = 0;
    let resumed = false;
    while (moves < maxMoves) {
      await settle(conns, `${game}: every connection at the newest state`);
      if (p0.state.over) return true;
      if (!resumed && moves === 8) {
        // Cut Ben's connection; he comes back with his token and last_seq.
        resumed = true;
        const lastSeq = p1.lastSeq;
        const token = p1.welcome.token;
        p1.close();
        const back = new Conn(url, 'Ben', { changes: true, askEvery: 3 });
        const welcome = await back.open(token);
        assert.equal(welcome.resumed, true);
        back.lastSeq = lastSeq; // what it had processed
        await back.request({ type: 'join_room', room, as: 'player', last_seq: lastSeq });
        await settle([p0, back, s1, s2], `${game}: the resumed player caught up`);
        assert.equal(back.kinds[0][1], 'view', 'the state that answers a resume carries the whole view');
        conns = [p0, back, s1, s2];
        p1.kinds.push(...back.kinds.map(([s]) => [s, 'resumed']));
        Object.assign(p1, { resumedAs: back });
      }
      const players = conns.slice(0, 2);
      const actor = players.find((c) => c.state.prompt?.seats.includes(c.state.seat) && concrete(c.state.legal).length);
      if (!actor) {
        // Nobody can answer (Unterm Baum's MEMORIZE): the server's timer sends the next state.
        const seq = p0.lastSeq;
        await within(10000, (async () => { while (p0.lastSeq === seq) await sleep(20); })(), `${game}: a timer state`);
        continue;
      }
      const options = concrete(actor.state.legal);
      const pick = options[Math.floor(Math.random() * options.length)];
      const seq = p0.lastSeq;
      try {
        await actor.request({ type: 'action', action: pick });
        moves += 1;
        await within(10000, (async () => { while (p0.lastSeq === seq) await sleep(10); })(), `${game}: the state after a move`);
      } catch (e) {
        // A legal entry the game refuses after all would be a bug elsewhere: show it, go on.
        console.log(`${game}: refused ${JSON.stringify(pick)}: ${e.code}`);
      }
    }
    return false;
  };

  await p0.request({ type: 'start_game' });
  const over = await play(games[game].maxRounds ? 400 : 160);
  await settle(conns, `${game}: the end`);

  // The spectator that takes changes ends up with the other spectator's view for every seq.
  let compared = 0;
  for (const [seq, view] of s1.views) {
    if (!s2.views.has(seq)) continue;
    assert.deepEqual(view, s2.views.get(seq), `${game}: the spectators' views differ at seq ${seq}`);
    compared += 1;
  }
  const ben = p1.resumedAs;
  assert.ok(ben, `${game}: the resume happened`);
  for (const c of [p0, ben, s1]) {
    assert.equal(c.kinds[0][1], 'view', `${game}: ${c.label}'s first state has the whole view`);
    assert.ok(c.patches > 3, `${game}: ${c.label} got patches (${c.patches})`);
  }
  assert.ok(s2.kinds.every(([, k]) => k === 'view'));
  assert.ok(p0.checked >= p0.patches - 1, `${game}: Anna's patches were each checked (${p0.checked} of ${p0.patches})`);
  assert.ok(ben.checked > 0);

  // A new game in the same room starts with whole views.
  if (over) {
    const before = p0.kinds.length;
    await p0.request({ type: 'start_game' });
    await settle(conns, `${game}: the second game's first state`);
    for (const c of [p0, ben, s1]) assert.equal(c.kinds[c.kinds.length - 1][1], 'view', `${game}: a new game's first state is whole`);
    assert.ok(p0.kinds.length > before);
  }
  console.log(`ok - ${game}: ${p0.patches + ben.patches + s1.patches} patches, ${p0.checked + ben.checked} checked against full_view, ` +
              `${compared} spectator states compared; game over: ${over}`);
  for (const c of conns) c.close();
}

async function badHello(url) {
  const ws = new WebSocket(url);
  await new Promise((r) => ws.once('open', r));
  const answers = [];
  ws.on('message', (d) => answers.push(JSON.parse(String(d))));
  for (const views of ['diff', true, 1]) ws.send(JSON.stringify({ type: 'hello', protocol: 1, name: 'X', views, id: String(views) }));
  await within(5000, (async () => { while (answers.length < 3) await sleep(10); })(), 'the answers to bad hellos');
  for (const a of answers) {
    assert.equal(a.type, 'error');
    assert.equal(a.code, 'invalid_field');
  }
  ws.terminate();
  console.log('ok - views other than "full" or "changes" is invalid_field');
}

const server = await startServer(args.server, ['--journal', 'off']);
const url = `ws://127.0.0.1:${server.port}/ws`;
try {
  await badHello(url);
  for (const game of Object.keys(games)) await playGame(url, game);
} catch (err) {
  show(server.proc);
  throw err;
} finally {
  server.proc.child.kill('SIGTERM');
}
