#!/usr/bin/env node
// Soak: many connections playing real games at a human pace for a long time, while the server's
// RSS and CPU time are sampled. See bench/README.md. Run through bench/soak.sh (raises `ulimit -n`).
//
//   bench/soak.sh [--connections 10000] [--minutes 10] [--pace-min 200] [--pace-max 2000] ...
//
// Rooms of 4 players: the host creates the room, three join, the host starts the game and starts
// another when one ends. Every player acts only when its seat is in the state's prompt, a random
// pause (pace) after the state came, with a concrete entry of its `legal` list. Exit code 1 when
// an error was seen (an `error` frame other than a documented benign race, an unanswered request,
// an unexpected close, the server exiting) or the RSS grew more than --max-rss-growth % in the
// steady state.
import http from 'node:http';
import WebSocket from 'ws';
import { parseArgs, knownFlags, repoRoot, startServer, stopServer, sampleProcess, heapStats, sleep, randInt, pick, table } from './lib.mjs';

const defaults = {
  connections: 10000,
  minutes: 10,
  url: '', // an already running server: no spawning, no RSS/CPU unless --pid
  pid: 0,
  server: `${repoRoot}/build/server/tinsel-server`,
  serverLog: '/tmp/tinsel-soak-server.log',
  threads: 0, // --threads of the spawned server; 0: its default
  serverArgs: '', // more flags for the spawned server, space-separated (e.g. "--history-states 16")
  paceMin: 200, // ms between a prompt and the player's answer
  paceMax: 2000,
  rampPerSec: 250, // new connections per second while ramping up
  mix: 'happy_holidays=8,unterm_baum=1,christmas_penguins=1',
  cpMaxRounds: 10, // Christmas Penguins rounds per game (default 60 would outlast the run)
  stopChance: 0.05, // Christmas Penguins: chance to shout "Stop!" in a reaction window
  // The steady state starts this long after the last connection is up and playing: by then every
  // room's bounded state history (--history-states, 256) is full, so growth after it is a leak.
  warmupSec: 300,
  sampleSec: 10,
  maxRssGrowth: 5, // percent
  answerTimeoutSec: 30, // a request unanswered this long counts as lost
  noHeapStats: false, // skip the allocator's statistics through gdb at the start and the end of the steady state
};

const opt = parseArgs(process.argv.slice(2), defaults);
if (opt.help) {
  console.log(`usage: bench/soak.sh [options]\n${Object.entries(defaults).map(([k, v]) => `  --${k.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase())} (${JSON.stringify(v)})`).join('\n')}`);
  process.exit(0);
}
opt.connections = Math.max(4, Math.floor(opt.connections / 4) * 4);

// Refusals that are races, not mistakes (clients/bot/src/player.cpp lists the same): a timer or
// another seat's "Stop!" moved the game on between the state and the command.
const BENIGN = new Set(['not_your_turn', 'wrong_phase', 'stop_already_claimed', 'stop_already_queued', 'stop_reclaim_blocked',
  'game_stopped', 'not_claimant', 'no_stop_claimed', 'not_queued', 'game_over', 'game_not_started', 'no_usable_stone', 'family_taken']);

const stats = {
  opened: 0,
  helloOk: 0,
  playing: 0, // rooms whose first game has started
  gamesStarted: 0,
  gamesFinished: 0,
  gamesByKind: {},
  moves: 0,
  errors: 0,
  errorsByCode: {},
  errorSamples: [],
  benign: 0,
  benignByCode: {},
  closes: {},
  latencies: [], // action → ok, ms, this sampling interval
  lagMaxMs: 0, // this interval's worst event-loop delay of this script
};

function error(kind, detail) {
  ++stats.errors;
  stats.errorsByCode[kind] = (stats.errorsByCode[kind] ?? 0) + 1;
  if (stats.errorSamples.length < 20) stats.errorSamples.push(`${kind}: ${detail}`);
}

let stopping = false;
const players = [];

// ---- choosing ------------------------------------------------------------------------------------

const concrete = (legal) => legal.filter((e) => !('domain' in e));

function weighted(entries, weight) {
  const ws = entries.map(weight);
  const total = ws.reduce((a, b) => a + b, 0);
  if (total <= 0) return pick(entries);
  let r = Math.random() * total;
  for (let i = 0; i < entries.length; ++i) if ((r -= ws[i]) < 0) return entries[i];
  return entries[entries.length - 1];
}

function chooseHappyHolidays(legal) {
  return legal.find((e) => e.kind === 'take_reindeer') ?? pick(legal); // never "forget" the reindeer
}

function chooseUntermBaum(state, legal) {
  const assign = legal.find((e) => e.kind === 'assign');
  if (assign) {
    // The default wish list without `family`: the server gives the first free sheet, so four
    // players submitting at once do not race for one (docs/protocol.md, Unterm Baum).
    const { family, ...rest } = assign;
    return rest;
  }
  const actions = state.view.actions ?? {};
  const reveals = legal.filter((e) => e.kind === 'reveal');
  const moves = legal.filter((e) => e.kind === 'move');
  if (actions.reveal && reveals.length) return pick(reveals);
  if (actions.move && moves.length) return pick(moves);
  return legal.find((e) => e.kind === 'end_turn') ?? pick(legal);
}

function chooseChristmasPenguins(state, legal) {
  const kind = state.prompt.kind;
  const stop = legal.find((e) => e.kind === 'stop');
  if (kind === 'reaction') {
    if (stop && Math.random() < opt.stopChance) return stop;
    return legal.find((e) => e.kind === 'pass') ?? null;
  }
  if (kind === 'stopped') {
    const uses = legal.filter((e) => e.kind === 'use_stone');
    if (uses.length && Math.random() < 0.5) return pick(uses);
    return legal.find((e) => e.kind === 'cancel_stop') ?? null;
  }
  const moves = legal.filter((e) => e.kind !== 'stop' && e.kind !== 'withdraw_stop');
  if (!moves.length) return null;
  return weighted(moves, (e) => {
    if (e.kind === 'place_channel') return 0.05;
    if (e.kind === 'pickup_stone') return e.take ? 4 : 1;
    return 1;
  });
}

function choose(state, seat, refused) {
  if (!state.prompt || !state.prompt.seats.includes(seat)) return null;
  const legal = concrete(state.legal).filter((e) => !refused.some((r) => JSON.stringify(r) === JSON.stringify(e)));
  if (!legal.length) return null;
  switch (state.view.game) {
    case 'happy_holidays': return chooseHappyHolidays(legal);
    case 'unterm_baum': return chooseUntermBaum(state, legal);
    case 'christmas_penguins': return chooseChristmasPenguins(state, legal);
    default: return pick(legal);
  }
}

// ---- one connection --------------------------------------------------------------------------------

class Player {
  constructor(room, index) {
    this.room = room; // shared by the 4 players of a room
    this.index = index; // 0 = host
    this.nextId = 1;
    this.pending = new Map(); // id -> {what, t0, seq}
    this.state = null;
    this.seat = null;
    this.timer = null;
    this.inFlight = false;
    this.refused = [];
    this.closed = false;
  }

  connect(url) {
    return new Promise((resolve) => {
      this.ws = new WebSocket(url, { perMessageDeflate: false, handshakeTimeout: 30000 });
      this.ws.on('open', () => {
        ++stats.opened;
        this.request({ type: 'hello', protocol: 1, name: `Soak ${this.room.n}.${this.index}` }, 'hello');
        resolve(true);
      });
      this.ws.on('message', (data) => this.onMessage(data));
      this.ws.on('error', (e) => {
        if (!stopping) error('socket_error', e.message);
        resolve(false);
      });
      this.ws.on('close', (code) => {
        this.closed = true;
        clearTimeout(this.timer);
        stats.closes[code] = (stats.closes[code] ?? 0) + 1;
        if (!stopping) error('unexpected_close', `room ${this.room.code} player ${this.index}: close code ${code}`);
      });
    });
  }

  request(msg, what) {
    if (this.closed || this.ws.readyState !== WebSocket.OPEN) return;
    const id = this.nextId++;
    this.pending.set(id, { what, t0: Date.now(), seq: this.state?.seq ?? 0, msg });
    this.ws.send(JSON.stringify({ ...msg, id }));
  }

  onMessage(data) {
    let m;
    try {
      m = JSON.parse(data.toString());
    } catch (e) {
      return error('bad_frame', e.message);
    }
    switch (m.type) {
      case 'ok':
      case 'error':
        return this.onAnswer(m);
      case 'welcome':
        this.playerId = m.player;
        return;
      case 'room':
        return this.onRoom(m.room);
      case 'state':
        return this.onState(m);
      case 'chat':
        return;
      default:
        return error('unexpected_message', m.type);
    }
  }

  onAnswer(m) {
    const p = this.pending.get(m.id);
    if (m.id === undefined || !p) return error('unmatched_answer', JSON.stringify(m).slice(0, 200));
    this.pending.delete(m.id);
    if (m.type === 'ok') {
      switch (p.what) {
        case 'hello':
          ++stats.helloOk;
          if (this.index === 0) this.request({ type: 'create_room', game: this.room.game, options: this.room.options }, 'create_room');
          else this.room.waiting.push(this);
          this.room.joinWhenReady();
          return;
        case 'create_room':
          this.room.code = m.room;
          this.room.joinWhenReady();
          return;
        case 'action':
          ++stats.moves;
          stats.latencies.push(Date.now() - p.t0);
          this.inFlight = false;
          // Every state received so far was built before this action was applied (the ok comes
          // before the pushes it causes): they are all spent; the next push shows the action.
          this.spentSeq = this.state?.seq ?? p.seq;
          return this.schedule();
        case 'start_game':
          this.room.startInFlight = false;
          return;
        default:
          return;
      }
    }
    if (p.what === 'action') {
      this.inFlight = false;
      // A refusal that follows a newer state than the one the action was chosen from lost a race
      // (a timer, another seat's "Stop!"): the command was legal when chosen.
      const overtaken = (this.state?.seq ?? 0) !== p.seq;
      // The codes of such races are the ones the reference bot lists; the same code without a
      // newer state is a real error (the server promises a push before the answer to a command it
      // processed after another change).
      if (overtaken && BENIGN.has(m.code)) {
        ++stats.benign;
        stats.benignByCode[m.code] = (stats.benignByCode[m.code] ?? 0) + 1;
      } else {
        error(m.code, `${JSON.stringify(p.msg.action)} in ${this.state?.view?.game}: ${m.message}`);
      }
      // A refusal changes nothing: if no newer state came, choose again without that entry.
      if ((this.state?.seq ?? 0) === p.seq && this.refused.length < 8) this.refused.push(p.msg.action);
      return this.schedule();
    }
    if (p.what === 'start_game') this.room.startInFlight = false;
    error(m.code, `${p.what}: ${m.message}`);
  }

  onRoom(room) {
    this.room.last = room;
    if (this.index !== 0) return;
    if (room.host !== this.playerId) return error('host_lost', `room ${room.code}`);
    const seated = room.seats.filter((s) => s.status !== 'empty').length;
    if (room.status === 'lobby' && seated === 4 && !this.room.everStarted) {
      this.room.everStarted = true;
      ++stats.playing;
      this.room.start();
    } else if (room.status === 'finished') {
      setTimeout(() => {
        if (this.room.last.status === 'finished') this.room.start();
      }, randInt(opt.paceMin, opt.paceMax) * 2);
    }
  }

  onState(s) {
    if (this.state && s.seq !== this.state.seq + 1) error('seq_gap', `room ${s.room}: ${this.state.seq} -> ${s.seq}`);
    this.state = s;
    this.seat = s.seat;
    this.refused = [];
    if (s.over && this.index === 0) {
      ++stats.gamesFinished;
      stats.gamesByKind[s.view.game] = (stats.gamesByKind[s.view.game] ?? 0) + 1;
    }
    this.schedule();
  }

  // Acts a random pause after the latest state, once no action is in flight.
  schedule() {
    clearTimeout(this.timer);
    this.timer = null;
    const s = this.state;
    if (stopping || this.closed || this.inFlight || !s || s.over || !s.prompt || s.seq === this.spentSeq) return;
    if (!s.prompt.seats.includes(this.seat)) return;
    this.timer = setTimeout(() => this.act(), randInt(opt.paceMin, opt.paceMax));
  }

  act() {
    this.timer = null;
    if (stopping || this.closed || this.inFlight || !this.state || this.state.seq === this.spentSeq) return;
    const action = choose(this.state, this.seat, this.refused);
    if (!action) return;
    this.inFlight = true;
    this.request({ type: 'action', action }, 'action');
  }
}

class Room {
  constructor(n, game) {
    this.n = n;
    this.game = game;
    this.options = game === 'christmas_penguins' ? { maxPlayers: 4, maxRounds: opt.cpMaxRounds } : { maxPlayers: 4 };
    this.players = [0, 1, 2, 3].map((i) => new Player(this, i));
    this.waiting = [];
    this.code = null;
    this.everStarted = false;
    this.startInFlight = false;
  }

  joinWhenReady() {
    if (!this.code) return;
    for (const p of this.waiting.splice(0)) p.request({ type: 'join_room', room: this.code }, 'join_room');
  }

  start() {
    if (stopping || this.startInFlight) return;
    this.startInFlight = true;
    ++stats.gamesStarted;
    this.players[0].request({ type: 'start_game' }, 'start_game');
  }
}

function parseMix(s) {
  const entries = s.split(',').map((kv) => {
    const [k, v] = kv.split('=');
    return [k.trim(), Number(v ?? 1)];
  });
  const total = entries.reduce((a, [, v]) => a + v, 0);
  return (i) => {
    // Deterministic spread: room i gets the game whose share of the cumulative weight covers it.
    let r = ((i * 0.6180339887) % 1) * total;
    for (const [k, v] of entries) if ((r -= v) < 0) return k;
    return entries[entries.length - 1][0];
  };
}

function healthz(port) {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/healthz', timeout: 5000 }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => {
        try {
          resolve(JSON.parse(body));
        } catch {
          resolve(null);
        }
      });
    });
    req.on('error', () => resolve(null));
    req.on('timeout', () => {
      req.destroy();
      resolve(null);
    });
  });
}

const pct = (arr, p) => {
  if (!arr.length) return 0;
  const s = [...arr].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const mb = (kb) => (kb / 1024).toFixed(1);

// ---- main ------------------------------------------------------------------------------------------

async function main() {
  const t0 = Date.now();
  let server = null;
  let url = opt.url;
  let pid = opt.pid || 0;
  let port = 0;
  if (!url) {
    const wanted = {
      'max-connections': 20000,
      'max-connections-per-address': 20000,
      'max-tcp-connections-per-address': 100000,
      'connections-per-address-per-sec': 100000,
      'connection-burst-per-address': 100000,
      'rooms-per-address-per-minute': 100000,
      'live-rooms-per-address': 100000,
      'identities-per-address': 100000,
      'rate-per-sec': 1000,
      'rate-burst': 1000,
    };
    if (opt.threads > 0) wanted.threads = opt.threads;
    const { args, skipped } = knownFlags(opt.server, wanted);
    if (opt.serverArgs.trim()) args.push(...opt.serverArgs.trim().split(/\s+/));
    server = await startServer({ binary: opt.server, flags: args, logFile: opt.serverLog });
    url = server.url;
    pid = server.child.pid;
    port = server.port;
    console.log(`server: ${opt.server} ${server.args.join(' ')} (pid ${pid}; flags this build lacks: ${skipped.join(', ') || 'none'})`);
  } else {
    port = Number(new URL(url).port || 80);
  }
  console.log(`soak: ${opt.connections} connections in rooms of 4, ${opt.minutes} min, pace ${opt.paceMin}-${opt.paceMax} ms, mix ${opt.mix}`);

  // Event-loop lag of this script: if it is large, the figures measure the client, not the server.
  let lagLast = Date.now();
  const lagTimer = setInterval(() => {
    const now = Date.now();
    stats.lagMaxMs = Math.max(stats.lagMaxMs, now - lagLast - 100);
    lagLast = now;
  }, 100);

  const gameOf = parseMix(opt.mix);
  const rooms = [];
  const endAt = t0 + opt.minutes * 60000;
  let allUpAt = null;
  let steady = null; // {t, rssKb, cpuSec}
  let last = pid ? { t: Date.now(), ...sampleProcess(pid) } : null;
  let maxRssKb = last?.rssKb ?? 0;
  let serverGone = false;
  const samples = [];

  const sampler = setInterval(async () => {
    const now = Date.now();
    const sp = pid ? sampleProcess(pid) : null;
    if (pid && !sp && !serverGone) {
      serverGone = true;
      error('server_exited', JSON.stringify(server?.exit ?? 'process gone'));
    }
    const h = port ? await healthz(port) : null;
    let cpu = '';
    if (sp && last) cpu = `${((100 * (sp.cpuSec - last.cpuSec)) / ((now - last.t) / 1000)).toFixed(0)}%`;
    if (sp) {
      maxRssKb = Math.max(maxRssKb, sp.rssKb);
      last = { t: now, ...sp };
    }
    const open = players.filter((p) => !p.closed && p.ws?.readyState === WebSocket.OPEN).length;
    const lat = stats.latencies.splice(0);
    const line = {
      t: Math.round((now - t0) / 1000),
      open,
      rooms: h?.rooms ?? '?',
      playing: stats.playing,
      games: stats.gamesFinished,
      moves: stats.moves,
      errors: stats.errors,
      benign: stats.benign,
      rssMB: sp ? mb(sp.rssKb) : '?',
      cpu,
      ackP50: pct(lat, 50),
      ackP99: pct(lat, 99),
      lagMax: stats.lagMaxMs,
    };
    stats.lagMaxMs = 0;
    samples.push({ ...line, now, rssKb: sp?.rssKb });
    console.log(Object.entries(line).map(([k, v]) => `${k}=${v}`).join(' ') + (steady ? '' : ' (warming up)'));
    if (!allUpAt && stats.playing === rooms.length && rooms.length === opt.connections / 4) allUpAt = now;
    if (allUpAt && !steady && now - allUpAt >= opt.warmupSec * 1000 && sp) {
      steady = { t: now, ...sp, moves: stats.moves };
      console.log(`steady state from t=${line.t}s: RSS ${mb(sp.rssKb)} MB`);
      if (server && !opt.noHeapStats) {
        steady.heap = await heapStats(server);
        if (steady.heap) console.log(`  heap in use ${mb(steady.heap.inUseBytes / 1024)} MB of ${mb(steady.heap.systemBytes / 1024)} MB from the system`);
      }
    }
  }, opt.sampleSec * 1000);

  // Ramp up: rooms of 4, at most rampPerSec new connections a second.
  const nRooms = opt.connections / 4;
  const perTick = Math.max(1, Math.round(opt.rampPerSec / 10));
  for (let i = 0; i < nRooms && Date.now() < endAt; ) {
    const tick = Date.now();
    for (let k = 0; k < perTick && i < nRooms; k += 4, ++i) {
      const room = new Room(i, gameOf(i));
      rooms.push(room);
      for (const p of room.players) {
        players.push(p);
        p.connect(url);
      }
    }
    await sleep(Math.max(0, 100 - (Date.now() - tick)));
  }
  console.log(`ramp done after ${((Date.now() - t0) / 1000).toFixed(0)} s`);

  // Lost answers: a request unanswered for answerTimeoutSec.
  const lostCheck = setInterval(() => {
    const now = Date.now();
    for (const p of players)
      for (const [id, q] of p.pending)
        if (now - q.t0 > opt.answerTimeoutSec * 1000) {
          p.pending.delete(id);
          error('unanswered', `${q.what} after ${opt.answerTimeoutSec}s`);
        }
  }, 5000);

  await sleep(Math.max(0, endAt - Date.now()));
  const end = pid ? sampleProcess(pid) : null;
  const endT = Date.now();
  const endMoves = stats.moves;
  clearInterval(sampler);
  clearInterval(lostCheck);
  clearInterval(lagTimer);

  const endHeap = server && steady && !opt.noHeapStats ? await heapStats(server) : null;
  stopping = true;
  for (const p of players) if (!p.closed && p.ws) p.ws.close(1000);
  await sleep(2000);
  let exit = null;
  if (server) {
    exit = await stopServer(server);
    if (exit.signal || exit.code !== 0) error('server_exit', JSON.stringify(exit));
  }

  const rows = [
    ['connections', `${opt.connections} requested, ${stats.opened} opened, ${stats.helloOk} said hello`],
    ['rooms playing', `${stats.playing} of ${nRooms}`],
    ['games', `${stats.gamesStarted} started, ${stats.gamesFinished} finished ${JSON.stringify(stats.gamesByKind)}`],
    ['moves (accepted actions)', `${stats.moves}`],
    ['errors', `${stats.errors} ${JSON.stringify(stats.errorsByCode)}`],
    ['benign refusals (races)', `${stats.benign} ${JSON.stringify(stats.benignByCode)}`],
    ['close codes seen', JSON.stringify(stats.closes)],
    ['server log lines (warn+)', server ? `${server.logLines}` : 'n/a'],
  ];
  let growth = null;
  if (steady && end) {
    growth = (100 * (end.rssKb - steady.rssKb)) / steady.rssKb;
    // A leak grows in both halves of the steady state; a warm-up (state histories and allocator
    // pools filling) only in the first.
    const mid = samples.find((x) => x.now >= (steady.t + endT) / 2 && x.rssKb);
    const secondHalf = mid ? `${((100 * (end.rssKb - mid.rssKb)) / mid.rssKb).toFixed(2)} % (from ${mb(mid.rssKb)} MB at t=${mid.t}s)` : 'n/a';
    const secs = (endT - steady.t) / 1000;
    rows.push(
      ['steady state', `${secs.toFixed(0)} s from t=${((steady.t - t0) / 1000).toFixed(0)}s, ${((endMoves - steady.moves) / secs).toFixed(0)} moves/s`],
      ['RSS at steady start', `${mb(steady.rssKb)} MB`],
      ['RSS at end', `${mb(end.rssKb)} MB (max seen ${mb(maxRssKb)} MB)`],
      ['RSS growth', `${growth.toFixed(2)} % (limit ${opt.maxRssGrowth} %)`],
      ['RSS growth, 2nd half', secondHalf],
      ['heap in use (the allocator)', steady.heap && endHeap
        ? `${mb(steady.heap.inUseBytes / 1024)} MB -> ${mb(endHeap.inUseBytes / 1024)} MB (${((100 * (endHeap.inUseBytes - steady.heap.inUseBytes)) / steady.heap.inUseBytes).toFixed(2)} %); from the system ${mb(steady.heap.systemBytes / 1024)} -> ${mb(endHeap.systemBytes / 1024)} MB`
        : 'n/a (no gdb, or --no-heap-stats)'],
      ['server CPU', `${((100 * (end.cpuSec - steady.cpuSec)) / secs).toFixed(1)} % of one core (${(end.cpuSec - steady.cpuSec).toFixed(1)} s in ${secs.toFixed(0)} s)`],
    );
  } else {
    rows.push(['steady state', 'not reached (connections not all up, or no server pid to sample)']);
  }
  rows.push(['server exit', exit ? JSON.stringify(exit) : 'n/a']);
  console.log('\nsoak result\n' + table(rows));
  if (stats.errorSamples.length) console.log('first errors:\n  ' + stats.errorSamples.join('\n  '));
  if (server?.firstLines.length) console.log(`first server log lines (${opt.serverLog}):\n  ` + server.firstLines.join('\n  '));

  const failed = stats.errors > 0 || growth === null || growth > opt.maxRssGrowth;
  console.log(failed ? 'FAIL' : 'PASS');
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.error(e);
  process.exit(2);
});
