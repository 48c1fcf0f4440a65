#!/usr/bin/env node
// "Stop!" stress: Christmas Penguins rooms played fast until a state offers `stop` to two or more
// seats at once; then every such seat sends it in the same event-loop tick, each over its own
// connection, so the claims race to the server. See bench/README.md.
//
//   node bench/stop_stress.mjs [--trials 1000] [--rooms 6] [--players 4] [--url ws://…/ws]
//
// Checked for every trial (docs/protocol.md, Christmas Penguins, "Stop!" step by step):
// - at a stable point (roll, reaction, move, bear_move, post_move) exactly one claim gets `ok` and
//   a `stop_claimed` event for its seat; every other claim gets `stop_already_claimed` naming that seat;
// - during a sub-prompt every claim gets `ok` and a `stop_queued` event (positions 1..k); at the next
//   stable point exactly one `stop_granted`, for position 1 (or `stop_dropped` if it lost its stone);
// - every request with an id gets exactly one `ok` or `error` (a claim without an answer is "lost");
// - over the whole run, never a grant while another stop is running.
// Exit code 1 on any violation.
import WebSocket from 'ws';
import { parseArgs, knownFlags, repoRoot, startServer, stopServer, sleep, pick, table } from './lib.mjs';

const defaults = {
  trials: 1000,
  rooms: 6, // rooms playing at the same time
  players: 4,
  url: '',
  server: `${repoRoot}/build/server/tinsel-server`,
  serverLog: '/tmp/tinsel-stop-stress-server.log',
  useChance: 0.4, // the claimant uses a stone (else cancels)
  answerTimeoutSec: 30,
  maxMinutes: 30, // give up (a violation) if the trials take longer
};
const opt = parseArgs(process.argv.slice(2), defaults);
if (opt.help) {
  console.log(`usage: node bench/stop_stress.mjs [options]\n${Object.entries(defaults).map(([k, v]) => `  --${k.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase())} (${JSON.stringify(v)})`).join('\n')}`);
  process.exit(0);
}

// Stones everywhere, timers long enough never to fire while the script plays (it answers at once),
// so that a timeout never moves the game between a state and the claims it triggers.
const OPTIONS = {
  maxPlayers: opt.players,
  stones: '4/4/4',
  reactionWindowMs: 60000,
  mainTimeoutSec: 300,
  subPromptTimeoutSec: 300,
  stopSeconds: 300,
  maxRounds: 20, // games end and start again: setup and game ends are part of the run
};
const STABLE = new Set(['roll', 'reaction', 'move', 'bear_move', 'post_move']);

const stats = {
  trials: 0,
  immediateTrials: 0,
  queuedTrials: 0,
  claims: 0,
  grants: 0, // stop_claimed (immediate trials) + first stop_granted (queued trials)
  queued: 0, // claims answered ok + stop_queued
  refused: 0, // claims answered stop_already_claimed
  dropped: 0, // queued trials whose first in line lost its stone before the stable point
  lost: 0, // claims (or other requests) never answered
  violations: 0,
  games: 0,
  steps: 0,
  claimsPerTrial: {},
};
const violations = [];
function violation(what) {
  ++stats.violations;
  if (violations.length < 30) violations.push(what);
}

let finished = false;
let draining = false; // the trials are done: no new steps, answers still count

class Player {
  constructor(room, index) {
    this.room = room;
    this.index = index;
    this.nextId = 1;
    this.pending = new Map();
    this.answered = new Set();
    this.latest = null;
  }

  connect(url) {
    this.ws = new WebSocket(url, { perMessageDeflate: false });
    this.ws.on('open', () => this.request({ type: 'hello', protocol: 1, name: `Stop ${this.room.n}.${this.index}` }, 'hello'));
    this.ws.on('message', (d) => this.onMessage(JSON.parse(d.toString())));
    this.ws.on('close', (code) => {
      if (!finished) violation(`room ${this.room.n} player ${this.index}: connection closed (${code})`);
    });
    this.ws.on('error', (e) => violation(`room ${this.room.n} player ${this.index}: ${e.message}`));
  }

  request(msg, what, extra = {}) {
    const id = this.nextId++;
    this.pending.set(id, { what, t0: Date.now(), ...extra });
    ++this.room.inFlight;
    this.ws.send(JSON.stringify({ ...msg, id }));
    return id;
  }

  onMessage(m) {
    if (m.type === 'ok' || m.type === 'error') {
      if (m.id === undefined) return violation(`answer without id: ${JSON.stringify(m)}`);
      if (this.answered.has(m.id)) return violation(`second answer to id ${m.id}: ${JSON.stringify(m)}`);
      const p = this.pending.get(m.id);
      if (!p) return violation(`answer to an unknown id: ${JSON.stringify(m)}`);
      this.pending.delete(m.id);
      this.answered.add(m.id);
      --this.room.inFlight;
      this.room.onAnswer(this, p, m);
    } else if (m.type === 'welcome') {
      this.playerId = m.player;
    } else if (m.type === 'room') {
      this.room.onRoom(this, m.room);
    } else if (m.type === 'state') {
      if (this.latest && m.seq !== this.latest.seq + 1) violation(`room ${this.room.n}: seq ${this.latest.seq} -> ${m.seq}`);
      this.latest = m;
      if (this.index === 0) this.room.onEvents(m);
    }
    this.room.soon();
  }
}

class Room {
  constructor(n, url) {
    this.n = n;
    this.players = Array.from({ length: opt.players }, (_, i) => new Player(this, i));
    this.inFlight = 0;
    this.expectSeq = 0; // every player must have seen at least this seq before the next step
    this.stepSeq = -1;
    this.refused = []; // entries refused at stepSeq
    this.trial = null; // the trial whose answers and events are being gathered
    this.awaitGrant = null; // a queued trial waiting for its stable point
    this.stopRunning = false; // from the events: a stop is granted and has not ended
    this.code = null;
    this.scheduled = false;
    for (const p of this.players) p.connect(url);
  }

  soon() {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.step();
    });
  }

  onAnswer(player, p, m) {
    if (p.what === 'hello') {
      if (m.type !== 'ok') return violation(`hello: ${m.code}`);
      player.helloOk = true;
      if (player.index === 0) player.request({ type: 'create_room', game: 'christmas_penguins', options: OPTIONS }, 'create_room');
      else this.joinReady();
      return;
    }
    if (p.what === 'create_room') {
      if (m.type !== 'ok') return violation(`create_room: ${m.code} ${m.message}`);
      this.code = m.room;
      this.joinReady();
      return;
    }
    if (p.what === 'join_room' || p.what === 'start_game') {
      if (m.type !== 'ok') violation(`${p.what}: ${m.code} ${m.message}`);
      return;
    }
    if (p.what === 'claim') {
      this.trial.answers.set(player.index, m);
      if (m.type === 'ok') this.expectSeq = Math.max(this.expectSeq, this.stepSeq + ++this.stepOks);
      return;
    }
    // an ordinary move: each accepted one is followed by one state
    if (m.type === 'ok') this.expectSeq = Math.max(this.expectSeq, this.stepSeq + ++this.stepOks);
    else {
      if (p.seq === this.stepSeq) this.refused.push(JSON.stringify(p.action));
      violation(`room ${this.n}: ${JSON.stringify(p.action)} at seq ${p.seq} refused: ${m.code} ${m.message}`);
    }
  }

  joinReady() {
    if (!this.code) return;
    for (const q of this.players.slice(1))
      if (q.helloOk && !q.joinSent) {
        q.joinSent = true;
        q.request({ type: 'join_room', room: this.code }, 'join_room');
      }
  }

  onRoom(player, room) {
    if (player.index !== 0) return;
    const seated = room.seats.filter((s) => s.status !== 'empty').length;
    if ((room.status === 'lobby' && seated === opt.players) || room.status === 'finished') {
      if (this.startedFor === room.seq) return;
      this.startedFor = room.seq;
      if (room.status === 'finished') ++stats.games;
      if (!finished) player.request({ type: 'start_game' }, 'start_game');
    }
  }

  // Every event of the room, once (through player 0).
  onEvents(state) {
    const events = state.events;
    for (const e of events) {
      if (e.kind === 'stop_claimed' || e.kind === 'stop_granted') {
        if (this.stopRunning) violation(`room ${this.n} seq ${state.seq}: ${e.kind} for seat ${e.seat} while a stop runs`);
        this.stopRunning = true;
      } else if (e.kind === 'stop_ended') {
        this.stopRunning = false;
      }
    }
    if (this.trial) this.trial.events.push(...events.map((e) => ({ ...e, seq: state.seq })));
    if (this.awaitGrant) {
      const g = events.filter((e) => e.kind === 'stop_granted');
      const d = events.filter((e) => e.kind === 'stop_dropped');
      const order = this.awaitGrant.order;
      for (const e of d) {
        if (e.seat !== order[0]) violation(`room ${this.n} seq ${state.seq}: stop_dropped for seat ${e.seat}, expected ${order[0]} (queue ${order})`);
        order.shift();
      }
      if (g.length > 1) violation(`room ${this.n} seq ${state.seq}: ${g.length} stop_granted in one state`);
      if (g.length) {
        if (g[0].seat !== order[0]) violation(`room ${this.n} seq ${state.seq}: stop_granted for seat ${g[0].seat}, expected ${order[0]} (queue ${order})`);
        ++stats.grants;
        this.awaitGrant = null;
      } else if (!order.length) {
        ++stats.dropped;
        this.awaitGrant = null;
      }
    }
  }

  finishTrial() {
    const t = this.trial;
    this.trial = null;
    const oks = [...t.answers].filter(([, a]) => a.type === 'ok').map(([i]) => i);
    const errs = [...t.answers].filter(([, a]) => a.type === 'error');
    if (t.stable) {
      ++stats.immediateTrials;
      const claimed = t.events.filter((e) => e.kind === 'stop_claimed');
      if (oks.length !== 1 || claimed.length !== 1 || claimed[0].seat !== oks[0]) {
        return violation(`room ${this.n} trial at seq ${t.seq} (${t.prompt}): ${oks.length} ok for seats ${t.claimants}, stop_claimed ${JSON.stringify(claimed)}`);
      }
      ++stats.grants;
      for (const [i, a] of errs) {
        if (a.code !== 'stop_already_claimed' || !a.message.includes(`seat ${oks[0]} `))
          violation(`room ${this.n} trial at seq ${t.seq}: seat ${i} got ${a.code} "${a.message}", expected stop_already_claimed naming seat ${oks[0]}`);
        else ++stats.refused;
      }
      return;
    }
    ++stats.queuedTrials;
    const queuedEvents = t.events.filter((e) => e.kind === 'stop_queued');
    const positions = queuedEvents.map((e) => e.position).sort((a, b) => a - b);
    if (errs.length || queuedEvents.length !== t.claimants.length || positions.some((p, i) => p !== i + 1)) {
      return violation(`room ${this.n} queued trial at seq ${t.seq} (${t.prompt}): answers ${JSON.stringify([...t.answers])}, events ${JSON.stringify(queuedEvents)}`);
    }
    stats.queued += queuedEvents.length;
    const order = [...queuedEvents].sort((a, b) => a.position - b.position).map((e) => e.seat);
    // The grant may already be among the gathered events (it cannot: nobody moved yet), else later.
    this.awaitGrant = { order, seq: t.seq };
  }

  step() {
    if (finished || draining || this.inFlight > 0) return;
    const seqs = this.players.map((p) => p.latest?.seq);
    if (seqs.some((s) => s === undefined) || seqs.some((s) => s !== seqs[0]) || seqs[0] < this.expectSeq) return;
    const seq = seqs[0];
    if (this.trial) this.finishTrial();
    const s = this.players[0].latest;
    if (s.over) return; // the room push "finished" starts the next game
    if (seq !== this.stepSeq) {
      this.stepSeq = seq;
      this.refused = [];
    } else if (!this.refused.length) return; // already acted on this state; waiting for its outcome
    ++stats.steps;
    this.stepOks = 0;

    const stopSeats = this.players.filter((p) => p.latest.legal.some((e) => e.kind === 'stop')).map((p) => p.index);
    const view = s.view;
    if (stopSeats.length >= 2 && view.stop.claimant === null && view.stop.queue.length === 0 && stats.trials < opt.trials) {
      ++stats.trials;
      stats.claims += stopSeats.length;
      stats.claimsPerTrial[stopSeats.length] = (stats.claimsPerTrial[stopSeats.length] ?? 0) + 1;
      this.trial = { seq, claimants: stopSeats, stable: STABLE.has(s.prompt.kind), prompt: s.prompt.kind, answers: new Map(), events: [] };
      // The same tick, one connection each: the claims race to the server.
      for (const i of stopSeats) this.players[i].request({ type: 'action', action: { kind: 'stop' } }, 'claim');
      return;
    }

    if (s.prompt.kind === 'reaction') {
      for (const i of s.prompt.seats) this.move(this.players[i], { kind: 'pass' }, seq);
      return;
    }
    const seat = s.prompt.seats[0];
    const p = this.players[seat];
    const legal = p.latest.legal.filter((e) => !('domain' in e) && e.kind !== 'stop' && e.kind !== 'withdraw_stop' && !this.refused.includes(JSON.stringify(e)));
    if (!legal.length) return violation(`room ${this.n} seq ${seq}: seat ${seat} prompted (${s.prompt.kind}) with nothing to send`);
    if (s.prompt.kind === 'stopped') {
      const uses = legal.filter((e) => e.kind === 'use_stone');
      const cancel = legal.find((e) => e.kind === 'cancel_stop');
      return this.move(p, uses.length && (Math.random() < opt.useChance || !cancel) ? pick(uses) : cancel, seq);
    }
    // Head for stones and take them: "Stop!" needs stones.
    const stoneFloes = new Set(view.stones_on_board.map(([f]) => f));
    const weight = (e) => {
      if (e.kind === 'pickup_stone') return e.take ? 20 : 0;
      if (e.kind === 'place_channel') return 0;
      if (e.kind === 'move' && stoneFloes.has(e.to)) return 10;
      return 1;
    };
    const ws = legal.map(weight);
    const total = ws.reduce((a, b) => a + b, 0);
    let r = Math.random() * total;
    let chosen = legal[legal.length - 1];
    for (let i = 0; i < legal.length; ++i) if ((r -= ws[i]) < 0) { chosen = legal[i]; break; }
    if (total <= 0) chosen = pick(legal);
    this.move(p, chosen, seq);
  }

  move(player, action, seq) {
    player.request({ type: 'action', action }, 'move', { action, seq });
  }
}

async function main() {
  const t0 = Date.now();
  let server = null;
  let url = opt.url;
  if (!url) {
    const { args, skipped } = knownFlags(opt.server, {
      'rate-per-sec': 10000,
      'rate-burst': 10000,
      'rooms-per-address-per-minute': 100000,
      'live-rooms-per-address': 100000,
      'identities-per-address': 100000,
      'max-connections-per-address': 20000,
      'max-tcp-connections-per-address': 100000,
      'connections-per-address-per-sec': 100000,
      'connection-burst-per-address': 100000,
    });
    server = await startServer({ binary: opt.server, flags: args, logFile: opt.serverLog });
    url = server.url;
    console.log(`server: ${opt.server} ${server.args.join(' ')} (flags this build lacks: ${skipped.join(', ') || 'none'})`);
  }
  console.log(`stop stress: ${opt.trials} trials, ${opt.rooms} rooms of ${opt.players}, options ${JSON.stringify(OPTIONS)}`);
  const rooms = Array.from({ length: opt.rooms }, (_, n) => new Room(n, url));

  const deadline = t0 + opt.maxMinutes * 60000;
  let lastReport = Date.now();
  while (Date.now() < deadline) {
    await sleep(200);
    const stalled = Date.now();
    for (const r of rooms)
      for (const p of r.players)
        for (const [id, q] of p.pending)
          if (stalled - q.t0 > opt.answerTimeoutSec * 1000) {
            p.pending.delete(id);
            --r.inFlight;
            ++stats.lost;
            violation(`room ${r.n} player ${p.index}: ${q.what} id ${id} unanswered after ${opt.answerTimeoutSec}s`);
          }
    const settled = rooms.every((r) => !r.trial && !r.awaitGrant);
    if (stats.trials >= opt.trials && settled) break;
    if (Date.now() - lastReport > 10000) {
      lastReport = Date.now();
      console.log(`t=${((Date.now() - t0) / 1000).toFixed(0)}s trials=${stats.trials} grants=${stats.grants} games=${stats.games} violations=${stats.violations}`);
    }
  }
  const secs = (Date.now() - t0) / 1000;
  if (stats.trials < opt.trials) violation(`only ${stats.trials} trials in ${opt.maxMinutes} min`);
  // No new steps; every request sent must get its answer: wait for stragglers, then count.
  draining = true;
  for (let i = 0; i < 50 && rooms.some((r) => r.inFlight > 0); ++i) await sleep(100);
  for (const r of rooms)
    for (const p of r.players)
      for (const [id, q] of p.pending) {
        if (q.what === 'claim') ++stats.lost;
        violation(`room ${r.n} player ${p.index}: ${q.what} id ${id} unanswered at the end`);
      }
  finished = true;
  for (const r of rooms) for (const p of r.players) p.ws.close(1000);
  if (server) {
    await sleep(500);
    const exit = await stopServer(server);
    if (exit.signal || exit.code !== 0) violation(`server exit ${JSON.stringify(exit)}`);
  }

  console.log('\nstop stress result\n' + table([
    ['trials', `${stats.trials} (${stats.immediateTrials} at a stable point, ${stats.queuedTrials} during a sub-prompt)`],
    ['claims', `${stats.claims} (claims per trial: ${JSON.stringify(stats.claimsPerTrial)})`],
    ['grants', `${stats.grants}`],
    ['queued', `${stats.queued}`],
    ['refused (stop_already_claimed)', `${stats.refused}`],
    ['dropped (queued, stone lost)', `${stats.dropped}`],
    ['lost claims', `${stats.lost}`],
    ['violations', `${stats.violations}`],
    ['games finished', `${stats.games}`],
    ['steps', `${stats.steps}`],
    ['time', `${secs.toFixed(1)} s (${(stats.trials / secs).toFixed(1)} trials/s)`],
  ]));
  if (violations.length) console.log('violations:\n  ' + violations.join('\n  '));
  const ok = stats.violations === 0 && stats.lost === 0 && stats.grants + stats.dropped === stats.trials;
  console.log(ok ? 'PASS' : 'FAIL');
  process.exit(ok ? 0 : 1);
}

main().catch((e) => {
  console.error(e);
  process.exit(2);
});
