// Child processes for the Node.js test drivers (tests/clients/, tests/bench/run_loadgen.mjs):
// arguments, starting a program (or tinsel-server) with its output collected, waiting for a line of
// it, deadlines, and showing what a process printed when a test fails. Every process
// started here is killed when the driver exits, however it exits.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

// `--key value` and bare `--flag` (true).
export function parseArgs(list) {
  const out = {};
  for (let i = 0; i < list.length; i++) {
    const key = list[i].replace(/^--/, '');
    if (i + 1 < list.length && !list[i + 1].startsWith('--')) out[key] = list[++i];
    else out[key] = true;
  }
  return out;
}

const children = new Set();

export function killAll() {
  for (const child of children) child.kill('SIGKILL');
}
process.on('exit', killAll);
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => { killAll(); process.exit(1); });

// A child process whose stdout lines and stderr are collected. `line(re)` waits for a stdout line
// matching re (also a stderr line with `scanStderr`), and fails once the process has exited
// without one.
export function start(name, command, argv, { scanStderr = false } = {}) {
  const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
  const proc = { name, child, lines: [], stderr: '', waiters: [], exit: null };
  children.add(child);
  const wake = () => { for (const w of [...proc.waiters]) w(); };
  createInterface({ input: child.stdout }).on('line', (l) => {
    proc.lines.push(l);
    wake();
  });
  child.stderr.on('data', (d) => {
    proc.stderr += d;
    if (scanStderr) wake();
  });
  proc.exited = new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      children.delete(child);
      proc.exit = { code, signal };
      resolve(proc.exit);
    });
  });
  const scan = (re) => [...proc.lines, ...(scanStderr ? proc.stderr.split('\n') : [])].map((l) => l.match(re)).find(Boolean);
  proc.line = (re) => new Promise((resolve, reject) => {
    const hit = scan(re);
    if (hit) return resolve(hit);
    const w = () => {
      const m = scan(re);
      if (m) { proc.waiters.splice(proc.waiters.indexOf(w), 1); resolve(m); }
    };
    proc.waiters.push(w);
    proc.exited.then(() => {
      const m = scan(re);
      if (m) resolve(m);
      else reject(new Error(`${name} exited (${JSON.stringify(proc.exit)}) before printing ${re}`));
    });
  });
  return proc;
}

// tinsel-server on a free port (or `port`) with a new data folder (or `dataDir`, to restart one);
// resolves with {proc, port, dataDir} once it listens.
export async function startServer(binary, extra = [], { port = 0, dataDir = mkdtempSync(path.join(os.tmpdir(), 'tinsel-clients-')) } = {}) {
  const proc = start('server', binary, ['--port', String(port), '--log-level', 'info', '--data-dir', dataDir, ...extra]);
  const [, bound] = await within(10000, proc.line(/url=http:\/\/127\.0\.0\.1:(\d+)\//), 'the server to listen');
  return { proc, port: Number(bound), dataDir };
}

// Server flags that lift the limits per client address: every test or benchmark client connects
// from 127.0.0.1, where a family would come from an address of its own.
export const liftedAddressLimits = [
  '--max-connections-per-address', '100000', '--rooms-per-address-per-minute', '100000',
  '--live-rooms-per-address', '100000', '--identities-per-address', '100000',
  '--max-tcp-connections-per-address', '100000', '--connections-per-address-per-sec', '100000',
  '--connection-burst-per-address', '100000', '--free-failed-joins', '100000',
  '--join-bytes-per-sec', '1099511627776', '--join-bytes-burst', '1099511627776',
];

export function within(ms, promise, what) {
  let timer;
  const timeout = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`timed out: ${what}`)), ms); });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

// A driver's end on failure: the error, what every process printed, every child killed, exit 1.
export function fail(e, procs) {
  console.log(`FAILED: ${e.message}`);
  for (const p of procs) show(p);
  killAll();
  process.exit(1);
}

// What a process printed: its exit, the last `lines` lines of stdout and of stderr.
export function show(proc, lines = 60) {
  const tail = (text) => text.split('\n').slice(-lines).join('\n');
  console.log(`---- ${proc.name}: exit ${JSON.stringify(proc.exit)}\n-- stdout:\n${tail(proc.lines.join('\n'))}\n-- stderr (tail):\n${tail(proc.stderr)}`);
}
