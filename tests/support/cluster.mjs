// A Tinsel cluster for one test (tests/cluster/): a database of its own on the tests' throwaway
// PostgreSQL (tests/support/postgres_cluster.sh; the CTest fixture's cluster, TINSEL_TEST_POSTGRES_DIR,
// or one of the test's own), N `tinsel-server --instance iK` on free ports, and HAProxy in front
// with packaging/haproxy.cfg (its server lines replaced by the instances'). Helpers to kill, pause,
// resume, drain and restart an instance, to crash and restart PostgreSQL, and to read the database.
// Everything started here is stopped when the test process exits, however it exits.
//
// Without PostgreSQL 15 or HAProxy the test exits 77: CTest reports it skipped (SKIP_RETURN_CODE),
// never passed.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { liftedAddressLimits, start, within, show, killAll } from './processes.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const sourceDir = path.resolve(here, '../..');
const pgScript = path.join(here, 'postgres_cluster.sh');
const haproxyTemplate = path.join(sourceDir, 'packaging/haproxy.cfg');
const pgBin = process.env.TINSEL_PG_BINDIR || '/usr/lib/postgresql/15/bin';

export const SKIP = 77;

function which(program) {
  for (const dir of (process.env.PATH || '').split(':').concat(['/usr/sbin', '/sbin'])) {
    const p = path.join(dir, program);
    if (dir && existsSync(p)) return p;
  }
  return null;
}

// PostgreSQL 15 and HAProxy, or exit 77 (skipped) saying which is missing.
export function requireTools() {
  const missing = [];
  if (!existsSync(path.join(pgBin, 'initdb'))) missing.push(`PostgreSQL 15 (${pgBin}/initdb; apt-get install postgresql-15)`);
  if (!which('psql')) missing.push('psql (apt-get install postgresql-client-15)');
  const haproxy = process.env.TINSEL_HAPROXY || which('haproxy');
  if (!haproxy) missing.push('HAProxy (apt-get install haproxy)');
  if (missing.length) {
    console.log(`SKIPPED: not installed: ${missing.join(', ')}`);
    process.exit(SKIP);
  }
  return { haproxy };
}

function runScript(cmd, dir, extra = []) {
  try {
    execFileSync('bash', [pgScript, cmd, dir, ...extra], { stdio: ['ignore', 'inherit', 'inherit'] });
  } catch (e) {
    if (e.status === SKIP) {
      console.log('SKIPPED: PostgreSQL 15 is not installed');
      process.exit(SKIP);
    }
    throw new Error(`postgres_cluster.sh ${cmd} ${dir} failed (${e.status})`);
  }
}

// The run's shared PostgreSQL (the CTest fixture's), or with `own` (a test that crashes the
// database) one of this process's own, stopped at exit.
export function postgres({ own = false } = {}) {
  const fixture = process.env.TINSEL_TEST_POSTGRES_DIR;
  let dir;
  let owned = false;
  if (!own && fixture && existsSync(path.join(fixture, 'data/postmaster.pid'))) {
    dir = fixture;
  } else {
    dir = mkdtempSync(path.join(os.tmpdir(), 'tinsel-pg-'));
    // Watched by this process: the cluster stops by itself if the test dies without cleaning up.
    runScript('start', dir, [String(process.pid)]);
    owned = true;
  }
  const conninfo = (db) => `host=${dir} port=5432 user=postgres dbname=${db}`;
  const pg = {
    dir,
    conninfo,
    // A new, empty database; its connection string.
    createDatabase() {
      const name = `t${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
      execFileSync('psql', [conninfo('postgres'), '-qAt', '-v', 'ON_ERROR_STOP=1', '-c', `CREATE DATABASE ${name}`]);
      return conninfo(name);
    },
    // Stops at once, as in a crash (pg_ctl stop -m immediate), keeping its data.
    crash() { runScript('crash', dir); },
    restart() { runScript('restart', dir); },
    stop() {
      if (owned) {
        owned = false;
        try { runScript('stop', dir); } catch (e) { console.log(e.message); }
      }
    },
  };
  if (owned) process.on('exit', () => pg.stop());
  return pg;
}

// Rows of a query, each an array of strings (null for SQL NULL), through psql.
export function query(conninfo, sql) {
  return new Promise((resolve, reject) => {
    execFile('psql', [conninfo, '-qAt', '-F', '\x1f', '-R', '\x1e', '-P', 'null=\x01', '-v', 'ON_ERROR_STOP=1', '-c', sql],
      { maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
        if (err) return reject(new Error(`psql: ${stderr.trim() || err.message} (${sql})`));
        const text = stdout.replace(/\n$/, '');
        resolve(text === '' ? [] : text.split('\x1e').map((row) => row.replace(/^\n/, '').split('\x1f').map((v) => (v === '\x01' ? null : v))));
      });
  });
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

// packaging/haproxy.cfg with its server lines replaced by `servers` ([{id, port}]), checked every
// 500 ms, down after 2 failed checks, up after 1 good one.
export function haproxyConfig(servers) {
  const template = readFileSync(haproxyTemplate, 'utf8');
  const lines = servers.map(({ id, port }) => `    server ${id} 127.0.0.1:${port} check inter 500 fall 2 rise 1`);
  const out = template.replace(/(^[ \t]*# servers: begin\n)[\s\S]*?(^[ \t]*# servers: end)/m, (_, begin, end) => `${begin}${lines.join('\n')}\n${end}`);
  if (out === template) throw new Error('packaging/haproxy.cfg has no "servers: begin/end" block');
  return out;
}

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

// Polls `check` (async, truthy when done) every `every` ms until `ms` have passed.
export async function waitFor(ms, what, check, every = 100) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms: ${what}`);
    await sleep(every);
  }
}

async function httpGet(port, pathname) {
  try {
    const res = await fetch(`http://127.0.0.1:${port}${pathname}`, { signal: AbortSignal.timeout(2000) });
    return { status: res.status, body: await res.text() };
  } catch {
    return null;
  }
}

// The cluster. `instances`: how many (ids i1..iN); `serverArgs`: more flags for every instance;
// `ownPostgres`: a PostgreSQL of the test's own (it may be crashed).
// `haproxyEnv`: HAProxy's settings (packaging/haproxy.cfg's TINSEL_HAPROXY_*); its per-address
// limits are lifted unless given (every test client comes from 127.0.0.1). `single`: one instance
// outside cluster mode (no --instance), to try the harness on a server without cluster mode.
export async function startCluster({ binary, instances = 3, leaseMs = 3000, renewMs = 500, serverArgs = [], ownPostgres = false, haproxyEnv = {}, single = false } = {}) {
  if (single) instances = 1;
  if (!binary) throw new Error('startCluster needs the tinsel-server binary (--server PATH)');
  const { haproxy } = requireTools();
  const pg = postgres({ own: ownPostgres });
  const conninfo = pg.createDatabase();
  const work = mkdtempSync(path.join(os.tmpdir(), 'tinsel-cluster-'));
  const procs = []; // every process ever started, for show()
  active = { procs, pg };

  const cluster = {
    pg,
    conninfo,
    work,
    instances: new Map(), // id -> {id, port, proc, dataDir}
    haproxy: null,
    port: 0,
    procs,
    // The public URLs, through HAProxy.
    get url() { return `ws://127.0.0.1:${cluster.port}/ws`; },
    get http() { return `http://127.0.0.1:${cluster.port}`; },
    // An instance's own WebSocket URL, bypassing HAProxy.
    direct(id, query = '') { return `ws://127.0.0.1:${cluster.instances.get(id).port}/ws${query}`; },
    query: (sql) => query(conninfo, sql),
  };

  const args = (id, port) => [
    '--port', String(port), '--log-level', 'info', '--metrics-bind', 'off',
    '--journal', 'postgres', '--postgres', conninfo,
    ...(single ? [] : ['--instance', id, '--lease-ms', String(leaseMs), '--renew-ms', String(renewMs)]),
    '--trusted-proxy', '127.0.0.1',
    ...liftedAddressLimits,
    ...serverArgs,
  ];

  // Starts (or starts again, on its old port) instance `id`; resolves once it listens.
  cluster.startInstance = async (id, { port, extra = [] } = {}) => {
    const old = cluster.instances.get(id);
    port = port ?? old?.port ?? 0;
    const dataDir = old?.dataDir ?? mkdtempSync(path.join(work, `${id}-`));
    const proc = start(`${id}${old ? ` (start ${old.starts + 1})` : ''}`, binary, [...args(id, port), '--data-dir', dataDir, ...extra]);
    procs.push(proc);
    const [, bound] = await within(20000, proc.line(/url=http:\/\/127\.0\.0\.1:(\d+)\//), `${id} to listen`);
    const inst = { id, port: Number(bound), proc, dataDir, starts: (old?.starts ?? 0) + 1 };
    cluster.instances.set(id, inst);
    return inst;
  };

  for (let k = 1; k <= instances; k++) await cluster.startInstance(`i${k}`);

  cluster.port = await freePort();
  const cfgPath = path.join(work, 'haproxy.cfg');
  writeFileSync(cfgPath, haproxyConfig([...cluster.instances.values()]));
  const socket = path.join(work, 'haproxy.sock');
  Object.assign(process.env, {
    TINSEL_HAPROXY_CONNECTIONS_PER_ADDRESS: '100000',
    TINSEL_HAPROXY_REQUESTS_PER_ADDRESS_PER_10S: '1000000',
    ...haproxyEnv,
    TINSEL_HAPROXY_BIND: `127.0.0.1:${cluster.port}`,
    TINSEL_HAPROXY_SOCKET: socket,
  });
  cluster.haproxy = start('haproxy', haproxy, ['-db', '-f', cfgPath], { scanStderr: true });
  procs.push(cluster.haproxy);
  await waitFor(20000, 'HAProxy to listen', async () => (await httpGet(cluster.port, '/healthz'))?.status === 200);

  // HAProxy's runtime API (the unix socket): one command, its answer.
  cluster.runtime = (command) => new Promise((resolve, reject) => {
    const c = net.connect(socket);
    let out = '';
    c.on('connect', () => c.end(`${command}\n`));
    c.on('data', (d) => { out += d; });
    c.on('end', () => resolve(out));
    c.on('error', reject);
  });
  // HAProxy's view of instance `id`: 'UP', 'DOWN', 'MAINT', ...
  cluster.serverState = async (id) => {
    const csv = await cluster.runtime('show stat');
    const row = csv.split('\n').map((l) => l.split(',')).find((f) => f[0] === 'tinsel' && f[1] === id);
    return row ? row[17] : null;
  };
  cluster.waitServerState = (id, want, ms = 20000) =>
    waitFor(ms, `HAProxy to see ${id} ${want}`, async () => (await cluster.serverState(id))?.startsWith(want));
  // Every instance up in HAProxy (its /healthz 200: lease valid).
  for (const id of cluster.instances.keys()) await cluster.waitServerState(id, 'UP');

  // /healthz of an instance itself: {status, json} or null when it does not answer.
  cluster.health = async (id) => {
    const r = await httpGet(cluster.instances.get(id).port, '/healthz');
    if (!r) return null;
    let json = null;
    try { json = JSON.parse(r.body); } catch { /* not JSON */ }
    return { status: r.status, json };
  };

  const signal = (id, sig) => {
    const inst = cluster.instances.get(id);
    inst.proc.child.kill(sig);
    return inst;
  };
  // kill -9: resolves once the process is gone.
  cluster.kill = async (id) => { const inst = signal(id, 'SIGKILL'); await inst.proc.exited; return inst.proc.exit; };
  // SIGTERM (a drain in cluster mode): resolves with its exit once it has exited.
  cluster.terminate = async (id, ms = 30000) => {
    const inst = signal(id, 'SIGTERM');
    return within(ms, inst.proc.exited, `${id} to exit after SIGTERM`);
  };
  cluster.pause = (id) => { signal(id, 'SIGSTOP'); };
  cluster.resume = (id) => { signal(id, 'SIGCONT'); };
  // A room's owner and epoch in the database: {owner, epoch} (owner null when released), or null.
  cluster.roomOwner = async (code) => {
    const rows = await cluster.query(`SELECT owner, epoch FROM rooms WHERE code = '${code.replace(/[^A-Z0-9]/g, '')}'`);
    return rows.length ? { owner: rows[0][0], epoch: Number(rows[0][1]) } : null;
  };
  // The command records of a room's journal, in order: [{n, epoch, seat, command, by}].
  cluster.journalCommands = async (code) => {
    const rows = await cluster.query(`SELECT n, epoch, body FROM entries WHERE room = '${code.replace(/[^A-Z0-9]/g, '')}' AND kind = 'command' ORDER BY n`);
    return rows.map(([n, epoch, body]) => ({ n: Number(n), epoch: Number(epoch), ...JSON.parse(body) }));
  };

  // What every process printed (for a failure).
  cluster.show = (lines = 40) => { for (const p of procs) show(p, lines); };
  cluster.stop = () => {
    for (const p of procs) if (!p.exit) { try { p.child.kill('SIGCONT'); p.child.kill('SIGKILL'); } catch { /* gone */ } }
    pg.stop();
  };
  process.on('exit', cluster.stop);
  return cluster;
}

let active = null; // the cluster being started or running, for failCluster

// A test's end on failure: the error, what every process printed, everything stopped, exit 1.
export function failCluster(e, lines = 40) {
  console.log(`FAILED: ${e?.stack || e}`);
  for (const p of active?.procs ?? []) show(p, lines);
  // Everything each process printed, kept for a look after the test.
  if (active?.procs.length) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tinsel-cluster-failed-'));
    active.procs.forEach((p, i) => writeFileSync(path.join(dir, `${i}-${p.name.replace(/[^a-z0-9]+/gi, '_')}.log`),
      `exit ${JSON.stringify(p.exit)}\n-- stdout:\n${p.lines.join('\n')}\n-- stderr:\n${p.stderr}`));
    console.log(`every process's whole output: ${dir}`);
  }
  killAll();
  active?.pg.stop();
  process.exit(1);
}

// A cluster test's main: fn(args) with --server PATH; exit 0 when it returns, 1 with everything
// printed when it throws, 77 when PostgreSQL or HAProxy is missing.
export async function clusterTest(fn) {
  const args = {};
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i += 2) args[argv[i].replace(/^--/, '')] = argv[i + 1];
  requireTools();
  try {
    await fn(args);
  } catch (e) {
    failCluster(e);
  }
  killAll();
  active?.pg.stop();
  console.log('PASSED');
  process.exit(0);
}
