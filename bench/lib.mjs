// Shared helpers of the bench scripts: arguments, starting tinsel-server as a child process on a
// free port (with only the flags its --help lists), and reading its RSS and CPU time from /proc.
import { spawn, execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// `--name value` and `--flag` (true) into an object; defaults fill the rest. Numbers stay numbers.
export function parseArgs(argv, defaults) {
  const out = { ...defaults };
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    if (a === '--help' || a === '-h') {
      out.help = true;
      continue;
    }
    if (!a.startsWith('--')) throw new Error(`unexpected argument ${a}`);
    const key = a.slice(2).replace(/-([a-z])/g, (_, c) => c.toUpperCase());
    if (!(key in defaults)) throw new Error(`unknown option ${a}`);
    if (typeof defaults[key] === 'boolean') {
      out[key] = true;
      continue;
    }
    const v = argv[++i];
    if (v === undefined) throw new Error(`${a} needs a value`);
    out[key] = typeof defaults[key] === 'number' ? Number(v) : v;
    if (typeof defaults[key] === 'number' && !Number.isFinite(out[key])) throw new Error(`${a}: not a number: ${v}`);
  }
  return out;
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

// The flags this binary accepts, from its --help ("  --name VALUE").
export function serverFlags(binary) {
  const help = execFileSync(binary, ['--help'], { encoding: 'utf8' });
  return new Set([...help.matchAll(/^\s+--([a-z0-9-]+)/gm)].map((m) => m[1]));
}

// Wanted flags ({name: value}) that this binary knows; the others are returned as `skipped` (the
// per-address limits, for example, exist only in newer builds).
export function knownFlags(binary, wanted) {
  const have = serverFlags(binary);
  const args = [];
  const skipped = [];
  for (const [name, value] of Object.entries(wanted)) {
    if (have.has(name)) args.push(`--${name}`, String(value));
    else skipped.push(name);
  }
  return { args, skipped };
}

function healthz(port) {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/healthz', timeout: 2000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => {
      req.destroy();
      resolve(false);
    });
  });
}

// Starts the server and resolves once /healthz answers. Its warnings and errors are counted (the
// script runs it at --log-level warn, so every line it prints is one of them) and the first few kept.
export async function startServer({ binary, flags, logFile, port: fixedPort }) {
  const port = fixedPort ?? (await freePort());
  const journal = flags.includes('--journal') || flags.includes('--data-dir') ? [] : ['--journal', 'off'];
  const args = ['--port', String(port), '--log-level', 'warn', ...journal, ...flags];
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const server = { child, port, url: `ws://127.0.0.1:${port}/ws`, args, logLines: 0, firstLines: [], exit: null, capture: null };
  const log = logFile ? fs.createWriteStream(logFile) : null;
  const onData = (chunk) => {
    if (log) log.write(chunk);
    for (const line of chunk.toString().split('\n')) {
      if (!line.trim()) continue;
      if (server.capture) {
        server.capture.push(line); // the allocator statistics asked for by heapStats, not a log line
        continue;
      }
      ++server.logLines;
      if (server.firstLines.length < 10) server.firstLines.push(line.slice(0, 300));
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  server.exited = new Promise((resolve) =>
    child.on('exit', (code, signal) => {
      server.exit = { code, signal };
      resolve(server.exit);
    }),
  );
  for (let i = 0; i < 200 && !server.exit; ++i) {
    if (await healthz(port)) return server;
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`tinsel-server did not come up (${JSON.stringify(server.exit)}): ${server.firstLines.join(' | ')}`);
}

export async function stopServer(server, timeoutMs = 15000) {
  if (server.exit) return server.exit;
  server.child.kill('SIGTERM');
  const timer = setTimeout(() => server.child.kill('SIGKILL'), timeoutMs);
  const exit = await server.exited;
  clearTimeout(timer);
  return exit;
}

const clockTicks = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

// {rssKb, cpuSec} of a process, or null if it is gone.
export function sampleProcess(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start at field 3; utime and stime are 14 and 15.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cpuSec = (Number(rest[11]) + Number(rest[12])) / clockTicks;
    return { rssKb, cpuSec };
  } catch {
    return null;
  }
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const randInt = (lo, hi) => lo + Math.floor(Math.random() * (hi - lo + 1));
export const pick = (arr) => arr[Math.floor(Math.random() * arr.length)];

export function table(rows) {
  const w = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `  ${k.padEnd(w)}  ${v}`).join('\n');
}

// The server's heap as its allocator sees it: {inUseBytes, systemBytes}, called in the server
// through gdb (which pauses it for a moment), or null without gdb or ptrace. RSS alone cannot tell a
// leak from freed memory the allocator keeps; "in use" can. glibc's malloc_stats() ("in use bytes"
// and "system bytes" of its Total), or jemalloc's malloc_stats_print ("Allocated" and "mapped") in a
// server started with jemalloc preloaded.
export async function heapStats(server) {
  if (server.exit) return null;
  server.capture = [];
  try {
    // jemalloc's first; where it is missing gdb says so and goes on to glibc's.
    const calls = ['-ex', 'call (void)malloc_stats_print(0, 0, "gmdablxeh")', '-ex', 'call (void)malloc_stats()'];
    await new Promise((resolve) =>
      execFile('gdb', ['-p', String(server.child.pid), '-batch', ...calls], { timeout: 60000 }, () => resolve()),
    );
    await new Promise((r) => setTimeout(r, 300)); // the server's stderr reaches us a little later
    const text = server.capture.join('\n');
    const je = /Allocated:\s*(\d+),.*?mapped:\s*(\d+)/.exec(text);
    if (je) return { inUseBytes: Number(je[1]), systemBytes: Number(je[2]) };
    const total = text.slice(text.lastIndexOf('Total'));
    const systemBytes = Number(/system bytes\s*=\s*(\d+)/.exec(total)?.[1]);
    const inUseBytes = Number(/in use bytes\s*=\s*(\d+)/.exec(total)?.[1]);
    return Number.isFinite(inUseBytes) && Number.isFinite(systemBytes) ? { inUseBytes, systemBytes } : null;
  } catch {
    return null;
  } finally {
    server.capture = null;
  }
}
