#!/usr/bin/env node
// Tinsel on a slow line (issue 32): the first page in Chromium and a whole Christmas Penguins game,
// each client behind a simulated 400 kbit/s line with a long round trip. bench/README.md, "slow_line.mjs".
//
//   node bench/slow_line.mjs [--kbit 400] [--rtt 400] [--game christmas_penguins] [--players 4]
//        [--server build/server/tinsel-server] [--loadgen build/bench/loadgen/tinsel-loadgen]
//        [--chromium /usr/bin/chromium] [--skip-page] [--skip-game] [--game-seconds 900] [--json]
//
// The line: a TCP proxy in this process between the client and a fresh tinsel-server. Each
// direction of a line is a queue that lets --kbit kilobits a second through, cut into segments of
// 1,460 bytes (one Ethernet-sized TCP segment each), and delays every segment by half of --rtt
// after it has gone through. TCP/IP headers are not counted (a real line also carries ~40 bytes a
// segment). Nothing outside the proxy is slowed: `tc netem` on the loopback device would slow every
// other process of the machine too.
//
// 1. The first page: a fresh Chromium context (empty cache) opens http://proxy/; every connection
//    the browser makes shares one line. It reports when the HTML's DOMContentLoaded and load fired,
//    and when the page was usable: the name field and the Christmas Penguins button shown (the
//    home screen is drawn by the scripts, after the WebSocket's welcome), with the bytes that crossed
//    the line by then.
// 2. A whole game: tinsel-loadgen plays it closed-loop (1 room of --players, the game's options
//    with its timers off, as in bench/run.sh), each connection on a line of its own (a family, each
//    on a phone). The proxy reads the WebSocket frames that cross each line (the server's are not
//    masked; the clients' it unmasks) and reports, for the first game from its start_game to the
//    state that says `over` on every connection: the bytes per client both ways, the largest
//    `state` frame and its time on the line at --kbit, and the time from a command leaving its
//    client to each state it caused reaching each client (the sender's own, and every member's).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, parseArgs, repoRoot } from './lib.mjs';

const args = parseArgs(process.argv.slice(2), {
  kbit: 400, rtt: 400, game: 'christmas_penguins', players: 4, server: '', loadgen: '', chromium: '',
  gameSeconds: 900, skipPage: false, skipGame: false, json: false,
});
if (args.help) {
  console.log(fs.readFileSync(fileURLToPath(import.meta.url), 'utf8').split("\n").slice(1, 13).map((l) => l.replace(/^\/\/ ?/, '')).join('\n'));
  process.exit(0);
}
const kbit = args.kbit;
const rttMs = args.rtt;
const game = args.game;
const players = args.players;
const serverBin = path.resolve(args.server || path.join(repoRoot, 'build/server/tinsel-server'));
const loadgenBin = path.resolve(args.loadgen || path.join(repoRoot, 'build/bench/loadgen/tinsel-loadgen'));
const chromiumPath = args.chromium || process.env.TINSEL_CHROMIUM || '/usr/bin/chromium';
const bytesPerMs = (kbit * 1000) / 8 / 1000;
const SEGMENT = 1460;

// ---- the line ---------------------------------------------------------------------------------

// One direction of a line: segments leave one after another at the line's rate, and arrive half a
// round trip after they have left. Several sockets may share it (the browser's connections).
class direction {
  constructor() {
    this.busyUntil = 0;
  }
  // When a segment of `bytes` handed over at `now` arrives at the far end.
  schedule(now, bytes) {
    const start = Math.max(now, this.busyUntil);
    this.busyUntil = start + bytes / bytesPerMs;
    return this.busyUntil + rttMs / 2;
  }
}

export function makeLine() {
  return { up: new direction(), down: new direction() };
}

// Writes to `to` what comes from `from`, through the line direction `dir`, in order. `onDeliver`
// sees every piece when it arrives, with its arrival time.
function pump(from, to, dir, onReceive, onDeliver) {
  const queue = [];
  let timer = null;
  let queued = 0;
  let ended = false;
  const drain = () => {
    timer = null;
    const now = performance.now();
    while (queue.length && queue[0].at <= now + 0.5) {
      const item = queue.shift();
      queued -= item.data.length;
      if (!to.destroyed) to.write(item.data);
      onDeliver?.(item.data, performance.now());
    }
    if (queued < 1 << 20 && from.isPaused()) from.resume();
    if (queue.length) timer = setTimeout(drain, Math.max(0, queue[0].at - performance.now()));
    else if (ended && !to.destroyed) to.end();
  };
  from.on('data', (chunk) => {
    const now = performance.now();
    onReceive?.(chunk, now);
    for (let off = 0; off < chunk.length; off += SEGMENT) {
      const data = chunk.subarray(off, Math.min(chunk.length, off + SEGMENT));
      queue.push({ data, at: dir.schedule(now, data.length) });
      queued += data.length;
    }
    if (queued >= 1 << 20) from.pause();
    if (!timer) timer = setTimeout(drain, Math.max(0, queue[0].at - performance.now()));
  });
  from.on('end', () => {
    ended = true;
    if (!queue.length && !timer && !to.destroyed) to.end();
  });
}

// A proxy to `target` (a port on 127.0.0.1). lineFor(): the line a new connection takes.
// onConnection(conn): every connection, with conn.up/down byte counts and frame parsers.
function startProxy(target, lineFor, onConnection) {
  const server = net.createServer((client) => {
    client.setNoDelay(true);
    const upstream = net.connect(target, '127.0.0.1');
    upstream.setNoDelay(true);
    const line = lineFor();
    const conn = { up: 0, down: 0, client, upstream, line };
    onConnection?.(conn);
    pump(client, upstream, line.up, (chunk, t) => {
      conn.up += chunk.length;
      conn.onUp?.(chunk, t);
    });
    pump(upstream, client, line.down, null, (chunk, t) => {
      conn.down += chunk.length;
      conn.onDown?.(chunk, t);
    });
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', close);
    upstream.on('error', close);
    client.on('close', () => setTimeout(close, rttMs + 100));
    upstream.on('close', () => setTimeout(close, rttMs + 100));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: server.address().port })));
}

// ---- WebSocket frames as they cross the line ---------------------------------------------------

// Reads one direction of a WebSocket connection: first the HTTP head (up to the blank line), then
// frames. Calls onMessage(text, time) for every whole text message, at the time its last byte
// crossed. Compressed messages (permessage-deflate) are not read: this script does not offer it.
function wsReader(onMessage) {
  let buf = Buffer.alloc(0);
  let head = true;
  let parts = [];
  return (chunk, t) => {
    buf = Buffer.concat([buf, chunk]);
    if (head) {
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      buf = buf.subarray(end + 4);
      head = false;
    }
    for (;;) {
      if (buf.length < 2) return;
      const fin = (buf[0] & 0x80) !== 0;
      const opcode = buf[0] & 0x0f;
      const masked = (buf[1] & 0x80) !== 0;
      let len = buf[1] & 0x7f;
      let off = 2;
      if (len === 126) {
        if (buf.length < 4) return;
        len = buf.readUInt16BE(2);
        off = 4;
      } else if (len === 127) {
        if (buf.length < 10) return;
        len = Number(buf.readBigUInt64BE(2));
        off = 10;
      }
      const maskAt = off;
      if (masked) off += 4;
      if (buf.length < off + len) return;
      let payload = Buffer.from(buf.subarray(off, off + len));
      if (masked) for (let i = 0; i < payload.length; i++) payload[i] ^= buf[maskAt + (i & 3)];
      buf = buf.subarray(off + len);
      if (opcode >= 0x8) continue;  // close, ping, pong
      parts.push(payload);
      if (fin) {
        const whole = Buffer.concat(parts);
        parts = [];
        onMessage(whole.toString('utf8'), t, whole.length);
      }
    }
  };
}

// ---- helpers ------------------------------------------------------------------------------------

const children = new Set();
process.on('exit', () => { for (const c of children) c.kill('SIGKILL'); });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(1));

async function startServer() {
  const port = await freePort();
  const data = fs.mkdtempSync(path.join(os.tmpdir(), 'tinsel-slow-line-'));
  const child = spawn(serverBin, ['--port', String(port), '--log-level', 'warn', '--journal', 'off', '--data-dir', data,
    '--metrics-bind', 'off', '--threads', '1'], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let log = '';
  child.stdout.on('data', (d) => { log += d; });
  child.stderr.on('data', (d) => { log += d; });
  for (let i = 0; i < 200; i++) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (r.ok) return { port, child, log: () => log, data };
    } catch { /* not yet */ }
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`tinsel-server did not come up:\n${log}`);
}

function stop(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', resolve);
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 5000).unref();
  });
}

const q = (xs, p) => {
  if (!xs.length) return null;
  const v = [...xs].sort((a, b) => a - b);
  return v[Math.min(v.length - 1, Math.max(0, Math.ceil((p / 100) * v.length) - 1))];
};
const ms = (x) => (x === null ? '–' : `${Math.round(x).toLocaleString('en-US')} ms`);
const kb = (x) => `${(x / 1000).toLocaleString('en-US', { maximumFractionDigits: 1 })} KB`;

// ---- 1. the first page --------------------------------------------------------------------------

async function firstPage(port) {
  const { chromium } = await import('playwright-core');
  const line = makeLine();
  const conns = [];
  const proxy = await startProxy(port, () => line, (c) => conns.push(c));
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
      '--disable-component-update', '--no-first-run', '--disable-features=Translate,MediaRouter'],
  });
  try {
    const context = await browser.newContext({ locale: 'en-GB', viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const requests = [];
    page.on('requestfinished', (r) => requests.push(r.url()));
    const bytes = () => conns.reduce((a, c) => ({ down: a.down + c.down, up: a.up + c.up }), { down: 0, up: 0 });
    const t0 = performance.now();
    await page.goto(`http://127.0.0.1:${proxy.port}/`, { waitUntil: 'commit', timeout: 120000 });
    const marks = {};
    const wait = async (name, fn) => {
      await fn();
      marks[name] = { t: performance.now() - t0, ...bytes() };
    };
    await Promise.all([
      wait('domcontentloaded', () => page.waitForLoadState('domcontentloaded', { timeout: 120000 })),
      wait('load', () => page.waitForLoadState('load', { timeout: 120000 })),
      wait('usable', async () => {
        await page.locator('#name').waitFor({ state: 'visible', timeout: 120000 });
        await page.getByRole('button', { name: /Christmas Penguins/ }).first().waitFor({ state: 'visible', timeout: 120000 });
      }),
    ]);
    // What else the page fetches once it stands (nothing, ideally), in the next two round trips.
    await page.waitForTimeout(2 * rttMs + 500);
    const total = bytes();
    await context.close();
    return { marks, total, requests: requests.length, connections: conns.length, errors };
  } finally {
    await browser.close();
    proxy.server.close();
  }
}

// ---- 2. a whole game ----------------------------------------------------------------------------

async function wholeGame(port) {
  const conns = [];
  // What crossed the lines: the commands sent and the states received, with their times, for the
  // first game (from its start_game to the state that says `over` on every connection).
  const g = { started: null, commands: [], states: [], over: new Set(), done: false, doneAt: null };
  const watch = (c, index) => {
    c.onUp = wsReader((text, t) => {
      let m;
      try { m = JSON.parse(text); } catch { return; }
      if (m.type === 'start_game' && !g.started) {
        g.started = t;
        for (const x of conns) x.atStart = { down: x.down, up: x.up };
      }
      if (m.type === 'action' && g.started && !g.done) g.commands.push({ conn: index, t });
    });
    c.onDown = wsReader((text, t, size) => {
      if (!g.started || g.done || !text.includes('"state"')) return;
      let m;
      try { m = JSON.parse(text); } catch { return; }
      if (m.type !== 'state') return;
      g.states.push({ conn: index, t, size, over: m.over === true, n: g.states.filter((x) => x.conn === index).length + 1 });
      if (size > (g.largest?.size ?? 0)) g.largest = { size, m };
      if (m.over !== true) return;
      g.over.add(index);
      if (g.over.size < players) return;
      g.done = true;
      g.doneAt = t;
      for (const x of conns) x.gameBytes = { down: x.down - (x.atStart?.down ?? 0), up: x.up - (x.atStart?.up ?? 0) };
      g.resolve?.();
    });
  };
  const proxy = await startProxy(port, makeLine, (c) => {
    conns.push(c);
    watch(c, conns.length - 1);
  });
  // The load generator plays on after the first game; it is stopped once that game is over on
  // every connection (or after --game-seconds, 900 by default).
  const limit = args.gameSeconds;
  const lg = spawn(loadgenBin, ['--url', `ws://127.0.0.1:${proxy.port}/ws`, '--game', game, '--rooms', '1',
    '--players', String(players), '--seconds', String(limit), '--warmup', '0'],
  { stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(lg);
  let out = '';
  lg.stdout.on('data', (d) => { out += d; });
  lg.stderr.on('data', (d) => { out += d; });
  const exited = new Promise((resolve) => lg.on('exit', (c, sig) => resolve(c ?? sig)));
  g.finished = new Promise((resolve) => { g.resolve = resolve; });
  await Promise.race([g.finished, exited]);
  lg.kill('SIGTERM');
  await exited;
  proxy.server.close();
  if (!g.done) throw new Error(`the game did not finish through the proxy:\n${out}`);
  // Errors the load generator met before the game was over (it prints them as they come).
  const errors = out.split('\n').filter((l) => /^tinsel-loadgen: (error|refusal)/.test(l));
  return { game: g, conns, errors };
}

// For each command, the states it caused: the first state each connection receives after it (the
// loop sends the next command only once every member has the newest state, so they pair up).
function pairStates(g) {
  const own = [];
  const all = [];
  const byConn = new Map();
  for (const s of g.states) {
    if (!byConn.has(s.conn)) byConn.set(s.conn, []);
    byConn.get(s.conn).push(s);
  }
  for (const c of g.commands) {
    for (const [conn, list] of byConn) {
      const s = list.find((x) => x.t > c.t);
      if (!s) continue;
      all.push(s.t - c.t);
      if (conn === c.conn) own.push(s.t - c.t);
    }
  }
  return { own, all };
}

// ---- main ---------------------------------------------------------------------------------------

async function main() {
  for (const [what, bin] of [['tinsel-server', serverBin], ['tinsel-loadgen', loadgenBin]])
    if (!fs.existsSync(bin)) throw new Error(`${what} not found at ${bin}: cmake --build build --target tinsel-server tinsel-loadgen`);
  const report = { kbit, rtt_ms: rttMs };
  console.log(`Slow line: ${kbit} kbit/s each way, ${rttMs} ms round trip, per client (bench/slow_line.mjs).`);
  if (!args.skipPage) {
    const srv = await startServer();
    try {
      const p = await firstPage(srv.port);
      report.first_page = p;
      console.log(`\nFirst page (Chromium, empty cache, every connection of the browser on one line):`);
      for (const [k, label] of [['domcontentloaded', 'DOMContentLoaded'], ['load', 'load'], ['usable', 'usable (name field and game buttons shown)']]) {
        const m = p.marks[k];
        console.log(`  ${label.padEnd(44)} ${ms(m.t).padStart(9)}   ${kb(m.down)} down, ${kb(m.up)} up by then`);
      }
      console.log(`  in all                                       ${kb(p.total.down)} down, ${kb(p.total.up)} up; ${p.requests} requests over ${p.connections} connections`);
      if (p.errors.length) console.log(`  page errors: ${p.errors.join('; ')}`);
    } finally {
      await stop(srv.child);
      fs.rmSync(srv.data, { recursive: true, force: true });
    }
  }
  if (!args.skipGame) {
    const srv = await startServer();
    try {
      const r = await wholeGame(srv.port);
      const g = r.game;
      const { own, all } = pairStates(g);
      const sizes = g.states.map((s) => s.size);
      const largest = Math.max(...sizes);
      const big = g.states.find((x) => x.size === largest);
      const bigWhere = big.over ? 'the last (over)' : big.n === 1 ? 'the first' : `number ${big.n}`;
      // What the largest state is made of: its biggest members, as JSON text.
      const parts = (o, prefix = '') => Object.entries(o).flatMap(([k, v]) => {
        const len = JSON.stringify(v).length;
        return v && typeof v === 'object' && !Array.isArray(v) && len > 2000 ? parts(v, `${prefix}${k}.`) : [[`${prefix}${k}`, len]];
      });
      const bigParts = parts(g.largest.m).sort((a, b) => b[1] - a[1]).slice(0, 4);
      const perClient = r.conns.filter((c) => c.gameBytes).map((c) => c.gameBytes);
      const down = perClient.map((b) => b.down);
      const up = perClient.map((b) => b.up);
      const avg = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
      const states = g.states.length / players;
      const figures = {
        game, players, commands: g.commands.length, states_per_client: states,
        seconds: (g.doneAt - g.started) / 1000,
        bytes_down_per_client: Math.round(avg(down)), bytes_down_max: Math.max(...down),
        bytes_up_per_client: Math.round(avg(up)),
        state_bytes_mean: Math.round(avg(sizes)), state_bytes_largest: largest,
        largest_state_ms_on_line: largest / bytesPerMs, largest_state_is: bigWhere,
        largest_state_parts: Object.fromEntries(bigParts),
        own_state_ms: { p50: q(own, 50), p90: q(own, 90), max: q(own, 100) },
        any_state_ms: { p50: q(all, 50), p90: q(all, 90), max: q(all, 100) },
        loadgen_errors: r.errors.length,
      };
      report.game = figures;
      console.log(`\nA whole ${game} game, ${players} players (tinsel-loadgen, closed loop, one line per client):`);
      console.log(`  ${figures.commands} commands, ${states.toFixed(0)} states per client, ${figures.seconds.toFixed(1)} s from start_game to the last "over"`);
      console.log(`  bytes per client             ${kb(figures.bytes_down_per_client)} down (the most: ${kb(figures.bytes_down_max)}), ${kb(figures.bytes_up_per_client)} up (WebSocket frames, headers included)`);
      console.log(`  state frames                 mean ${figures.state_bytes_mean.toLocaleString('en-US')} B, largest ${largest.toLocaleString('en-US')} B (${bigWhere} of the game's states): ${ms(figures.largest_state_ms_on_line)} on the line at ${kbit} kbit/s`);
      console.log(`  the largest one's biggest members: ${bigParts.map(([k, n]) => `${k} ${n.toLocaleString('en-US')} B`).join(', ')}`);
      console.log(`  command -> sender's state    p50 ${ms(figures.own_state_ms.p50)}, p90 ${ms(figures.own_state_ms.p90)}, max ${ms(figures.own_state_ms.max)}`);
      console.log(`  command -> every state       p50 ${ms(figures.any_state_ms.p50)}, p90 ${ms(figures.any_state_ms.p90)}, max ${ms(figures.any_state_ms.max)} (each member's copy)`);
      console.log(`  (the floor: one round trip, ${rttMs} ms, plus the command's and the state's time on the line)`);
      if (r.errors.length) console.log(`  tinsel-loadgen met errors before the game was over:\n    ${r.errors.join('\n    ')}`);
    } finally {
      await stop(srv.child);
      fs.rmSync(srv.data, { recursive: true, force: true });
    }
  }
  if (args.json) console.log(JSON.stringify(report));
}

main().then(() => process.exit(0), (e) => {
  console.error(`slow_line: ${e.stack || e}`);
  process.exit(1);
});
