// Durable rooms, measured (docs/operations.md, "The journal"):
//
// 1. Crash: R rooms of Happy Holidays with P players each play; at a random moment the server is
//    killed with SIGKILL and started again on the same data folder and port. It prints how long the
//    restart took until every room answered, then every client resumes with its token and last_seq,
//    the games play to the end, and every room's record is downloaded and checked: each command the
//    clients saw acknowledged (an `ok`) must be in it, and tinsel-replay must confirm it. Prints the
//    acknowledged commands lost (must be 0) and the journal's size per game.
// 2. Throughput: 50 rooms x 4 players with no think time, journal on and off in turns; moves per
//    second and the own-move latency (action sent -> the sender's next state).
//
//   node bench/durable.mjs [--rooms 1000] [--players 3] [--kill-after-min 4] [--kill-after-max 10]
//                          [--tp-rooms 50] [--tp-seconds 10] [--tp-rounds 2] [--skip-crash] [--skip-throughput]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { parseArgs, repoRoot, startServer, stopServer, sampleProcess, sleep, randInt, pick, table } from './lib.mjs';
import { liftedAddressLimits } from '../tests/support/processes.mjs';

const args = parseArgs(process.argv.slice(2), {
  rooms: 1000,
  players: 3,
  killAfterMin: 4,
  killAfterMax: 10,
  thinkMin: 50,
  thinkMax: 400,
  tpRooms: 50,
  tpSeconds: 10,
  tpRounds: 2,
  threads: 2,
  skipCrash: false,
  skipThroughput: false,
  binary: `${repoRoot}/build/server/tinsel-server`,
  replay: `${repoRoot}/build/tools/replay/tinsel-replay`,
});
if (args.help) {
  console.log(fs.readFileSync(new URL(import.meta.url)).toString().split('\n').filter((l) => l.startsWith('//')).join('\n'));
  process.exit(0);
}

const lifted = ['--max-connections', '100000', ...liftedAddressLimits, '--rate-per-sec', '100000', '--rate-burst', '100000',
  '--threads', String(args.threads)];

function httpGet(port, target) {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path: target }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode, body }));
    }).on('error', reject);
  });
}

// One player: a WebSocket session that answers its prompts with a random concrete legal command.
class Player {
  constructor(table, index, name) {
    Object.assign(this, { table, index, name, token: null, lastSeq: 0, seat: null, over: false, nextId: 1, pending: new Map() });
  }
  connect(url) {
    return new Promise((resolve, reject) => {
      this.ws = new WebSocket(url, { perMessageDeflate: false, handshakeTimeout: 60000 });
      this.ws.on('open', resolve);
      this.ws.on('error', reject);
      this.ws.on('message', (data) => this.receive(JSON.parse(data.toString())));
      this.ws.on('close', () => {
        for (const p of this.pending.values()) p.reject(new Error('closed'));
        this.pending.clear();
      });
    });
  }
  request(msg) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, msg });
      this.ws.send(JSON.stringify({ ...msg, id }));
    });
  }
  receive(m) {
    if ((m.type === 'ok' || m.type === 'error') && this.pending.has(m.id)) {
      const p = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (m.type === 'ok') p.resolve(m);
      else p.reject(Object.assign(new Error(m.message), { code: m.code }));
      return;
    }
    if (m.type === 'welcome') this.token = m.token;
    if (m.type !== 'state') return;
    this.lastSeq = m.seq;
    this.seat = m.seat;
    if (this.sentAt && m.seq > this.sentSeq) {
      this.table.run.latencies.push(performance.now() - this.sentAt);
      this.sentAt = 0;
    }
    if (m.over) {
      this.over = true;
      this.table.onOver(this, m);
      return;
    }
    this.over = false;
    if (!m.prompt || !m.prompt.seats.includes(m.seat)) return;
    const legal = m.legal.filter((e) => !e.domain);
    if (!legal.length) return;
    const cmd = legal.find((e) => e.kind === 'take_reindeer') || pick(legal);
    const seq = m.seq;
    const go = () => {
      if (this.ws.readyState !== WebSocket.OPEN || this.lastSeq !== seq || this.table.run.stopped) return;
      this.sentAt = performance.now();
      this.sentSeq = seq;
      this.request({ type: 'action', action: cmd }).then(
        () => {
          this.table.acked.push({ seat: m.seat, command: cmd });
          this.table.run.moves += 1;
        },
        (e) => {
          if (e.code) this.table.run.refused += 1;
        },
      );
    };
    const think = this.table.run.think();
    if (think > 0) setTimeout(go, think);
    else go();
  }
}

class Table {
  constructor(run, index, players) {
    this.run = run;
    this.acked = [];
    this.players = Array.from({ length: players }, (_, i) => new Player(this, i, `P${index}-${i}`));
    this.code = null;
    this.result = null;
  }
  async open(url, options) {
    for (const p of this.players) {
      await p.connect(url);
      await p.request({ type: 'hello', protocol: 1, name: p.name });
    }
    this.code = (await this.players[0].request({ type: 'create_room', game: 'happy_holidays', options })).room;
    for (const p of this.players.slice(1)) await p.request({ type: 'join_room', room: this.code });
  }
  start() {
    return this.players[0].request({ type: 'start_game' });
  }
  onOver(player, state) {
    if (player.index !== 0) return;
    this.result = state.result;
    this.run.gamesFinished += 1;
    if (this.run.restartGames && !this.run.stopped) setTimeout(() => this.start().catch(() => {}), 10);
  }
  async resume(url) {
    for (const p of this.players) {
      const lastSeq = p.lastSeq;
      p.ws.removeAllListeners('close');
      await p.connect(url);
      const hello = await p.request({ type: 'hello', protocol: 1, name: p.name, token: p.token }).catch((e) => e);
      if (!(hello.type === 'ok')) throw new Error(`hello refused: ${hello.message}`);
      let seqAfter = null;
      const seen = new Promise((resolve) => {
        const on = (data) => {
          const m = JSON.parse(data.toString());
          if (m.type === 'state') {
            seqAfter = m.seq;
            p.ws.off('message', on);
            resolve();
          }
        };
        p.ws.on('message', on);
      });
      const ok = await p.request({ type: 'join_room', room: this.code, last_seq: lastSeq });
      if (!ok.resumed) throw new Error(`room ${this.code}: seat not resumed`);
      await seen;
      if (seqAfter < lastSeq) this.run.seqLost += 1;
    }
  }
}

function makeRun(think) {
  return { moves: 0, refused: 0, latencies: [], gamesFinished: 0, seqLost: 0, stopped: false, restartGames: false, think };
}

function percentile(xs, p) {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

async function openTables(run, url, rooms, players, options) {
  const tables = Array.from({ length: rooms }, (_, i) => new Table(run, i, players));
  for (let i = 0; i < tables.length; i += 50) await Promise.all(tables.slice(i, i + 50).map((t) => t.open(url, options)));
  return tables;
}

// The database file, and its write-ahead log (which a checkpoint empties).
function dbBytes(dir) {
  const size = (f) => (fs.existsSync(path.join(dir, f)) ? fs.statSync(path.join(dir, f)).size : 0);
  return { db: size('tinsel.db'), wal: size('tinsel.db-wal') };
}

async function crash() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tinsel-bench-durable-'));
  const flags = [...lifted, '--data-dir', dir];
  let server = await startServer({ binary: args.binary, flags });
  const run = makeRun(() => randInt(args.thinkMin, args.thinkMax));
  const options = { maxPlayers: args.players, giftsPerColour: 5 };
  const t0 = performance.now();
  const tables = await openTables(run, server.url, args.rooms, args.players, options);
  await Promise.all(tables.map((t) => t.start()));
  console.log(`crash: ${args.rooms} rooms x ${args.players} players playing (set up in ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  const killAfter = randInt(args.killAfterMin * 1000, args.killAfterMax * 1000);
  await sleep(killAfter);
  const ackedAtKill = tables.reduce((n, t) => n + t.acked.length, 0);
  server.child.kill('SIGKILL');
  await server.exited;
  run.stopped = true; // answers in flight are lost with the connections: the clients resume
  const port = server.port;
  const restartAt = performance.now();
  server = await startServer({ binary: args.binary, flags, port });
  const recoveryMs = performance.now() - restartAt;
  const health = JSON.parse((await httpGet(port, '/healthz')).body);
  console.log(`crash: killed after ${(killAfter / 1000).toFixed(1)} s with ${ackedAtKill} commands acknowledged; ` +
    `restarted with ${health.rooms} rooms in ${recoveryMs.toFixed(0)} ms`);
  run.stopped = false;
  const r0 = performance.now();
  for (let i = 0; i < tables.length; i += 50) await Promise.all(tables.slice(i, i + 50).map((t) => t.resume(server.url)));
  const resumeMs = performance.now() - r0;
  // Each resumed state lets the prompted player act again; the games run to their end.
  const deadline = Date.now() + 600000;
  while (tables.some((t) => !t.result) && Date.now() < deadline) await sleep(500);
  const unfinished = tables.filter((t) => !t.result).length;
  // Every acknowledged command is in the record, which tinsel-replay confirms.
  let lost = 0;
  let replayFailed = 0;
  let recordBytes = 0;
  const recDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tinsel-bench-records-'));
  for (const t of tables) {
    if (!t.result) continue;
    const res = await httpGet(port, `/records/${t.result.record}`);
    if (res.status !== 200) {
      lost += t.acked.length;
      continue;
    }
    recordBytes += res.body.length;
    const record = JSON.parse(res.body);
    let next = 0;
    for (const e of record.commands)
      if (next < t.acked.length && e.kind === 'command' && e.seat === t.acked[next].seat &&
          JSON.stringify(e.command) === JSON.stringify(t.acked[next].command))
        ++next;
    lost += t.acked.length - next;
    const file = path.join(recDir, `${t.code}.json`);
    fs.writeFileSync(file, res.body);
    try {
      execFileSync(args.replay, [file], { stdio: 'ignore' });
    } catch {
      replayFailed += 1;
    }
  }
  const bytes = dbBytes(dir);
  for (const t of tables) for (const p of t.players) p.ws.close();
  await stopServer(server);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(recDir, { recursive: true, force: true });
  const finished = tables.length - unfinished;
  return [
    ['rooms, players per room', `${args.rooms}, ${args.players}`],
    ['killed (SIGKILL) after', `${(killAfter / 1000).toFixed(1)} s, ${ackedAtKill} commands acknowledged`],
    ['restart until every room answers', `${recoveryMs.toFixed(0)} ms (${health.rooms} rooms recovered)`],
    ['every client resumed (token + last_seq)', `${resumeMs.toFixed(0)} ms`],
    ['states behind what a client had seen', String(run.seqLost)],
    ['acknowledged commands lost', String(lost)],
    ['games finished, records confirmed by tinsel-replay', `${finished - replayFailed} of ${args.rooms}${unfinished ? ` (${unfinished} unfinished)` : ''}`],
    ['journal after all games (database file)', `${(bytes.db / 1024).toFixed(0)} KiB, ${(bytes.db / finished / 1024).toFixed(1)} KiB per game (the WAL beside it: ${(bytes.wal / 1024).toFixed(0)} KiB)`],
    ['record size per game', `${(recordBytes / finished / 1024).toFixed(1)} KiB`],
  ];
}

async function throughputOnce(journal) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tinsel-bench-tp-'));
  const flags = [...lifted, ...(journal ? ['--data-dir', dir] : ['--journal', 'off'])];
  const server = await startServer({ binary: args.binary, flags });
  const run = makeRun(() => 0);
  run.restartGames = true;
  const tables = await openTables(run, server.url, args.tpRooms, 4, { maxPlayers: 4 });
  await Promise.all(tables.map((t) => t.start()));
  await sleep(1000); // warm up
  const cpu0 = sampleProcess(server.child.pid);
  run.moves = 0;
  run.latencies = [];
  const t0 = performance.now();
  await sleep(args.tpSeconds * 1000);
  const seconds = (performance.now() - t0) / 1000;
  const cpu1 = sampleProcess(server.child.pid);
  const moves = run.moves;
  const lat = run.latencies;
  run.stopped = true;
  for (const t of tables) for (const p of t.players) p.ws.close();
  await stopServer(server);
  fs.rmSync(dir, { recursive: true, force: true });
  return { moves: moves / seconds, p50: percentile(lat, 50), p99: percentile(lat, 99), cpuPerMove: ((cpu1.cpuSec - cpu0.cpuSec) / moves) * 1e6, refused: run.refused };
}

async function throughput() {
  const rows = { on: [], off: [] };
  for (let r = 0; r < args.tpRounds; ++r)
    for (const mode of ['off', 'on']) {
      const res = await throughputOnce(mode === 'on');
      rows[mode].push(res);
      console.log(`throughput: journal ${mode}: ${res.moves.toFixed(0)} moves/s, p50 ${res.p50.toFixed(2)} ms, p99 ${res.p99.toFixed(2)} ms`);
    }
  const med = (xs, k) => percentile(xs.map((x) => x[k]), 50);
  const line = (mode) =>
    `${med(rows[mode], 'moves').toFixed(0)} moves/s, p50 ${med(rows[mode], 'p50').toFixed(2)} ms, p99 ${med(rows[mode], 'p99').toFixed(2)} ms, ` +
    `${med(rows[mode], 'cpuPerMove').toFixed(0)} µs server CPU per move`;
  return [
    [`journal off (${args.tpRooms} rooms x 4, median of ${args.tpRounds})`, line('off')],
    [`journal on  (${args.tpRooms} rooms x 4, median of ${args.tpRounds})`, line('on')],
    ['on / off', `${((med(rows.on, 'moves') / med(rows.off, 'moves')) * 100).toFixed(0)} % of the moves/s, p99 ${(med(rows.on, 'p99') - med(rows.off, 'p99')).toFixed(2)} ms more`],
  ];
}

const rows = [];
if (!args.skipCrash) rows.push(...(await crash()));
if (!args.skipThroughput) rows.push(...(await throughput()));
console.log(`\ndurable rooms (${os.cpus().length} cores, --threads ${args.threads}):\n${table(rows)}`);
