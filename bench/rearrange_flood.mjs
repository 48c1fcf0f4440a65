// One Unterm Baum player who never ends his turn (timers off) sends N rearrangements, moving one
// card back and forth, and a no-op one; prints the answers, and how much the server's memory (RSS)
// and its data folder grew meanwhile. Issue 30, finding 2: before the limit, every one of them was
// accepted, journaled and kept. Usage (from the repository root, tinsel-server built):
//   node bench/rearrange_flood.mjs [N=30000]      (BIN=path/to/tinsel-server to compare builds)
import WebSocket from 'ws';
import { spawn } from 'node:child_process';
import { statSync, readFileSync, readdirSync } from 'node:fs';
const N = Number(process.argv[2] || 30000);
const dir = `/tmp/tinsel-rearrange-flood-${Date.now()}`;
const srv = spawn(process.env.BIN || 'build/server/tinsel-server', ['--port', '18931', '--data-dir', dir, '--rate-per-sec', '1000000', '--rate-burst', '1000000', '--metrics-bind', 'off', '--log-level', 'warn'], { stdio: 'inherit' });
await new Promise((r) => setTimeout(r, 1500));
function client() {
  const ws = new WebSocket('ws://127.0.0.1:18931/ws');
  const q = []; let waiters = [];
  ws.on('message', (d) => { const m = JSON.parse(d); q.push(m); waiters = waiters.filter((w) => !w(m)); });
  let id = 0;
  return {
    open: new Promise((r) => ws.on('open', r)),
    send: (m) => ws.send(JSON.stringify(m)),
    req: (m) => new Promise((res) => { const my = `r${++id}`; waiters.push((f) => (f.id === my ? (res(f), true) : false)); ws.send(JSON.stringify({ ...m, id: my })); }),
    wait: (pred) => new Promise((res) => { const f = q.find(pred); if (f) return res(f); waiters.push((m) => (pred(m) ? (res(m), true) : false)); }),
    last: (type) => [...q].reverse().find((m) => m.type === type),
    close: () => ws.close(),
  };
}
const a = client(), b = client(); await a.open; await b.open;
await a.req({ type: 'hello', protocol: 1, name: 'Oma' }); await b.req({ type: 'hello', protocol: 1, name: 'Ben' });
const room = (await a.req({ type: 'create_room', game: 'unterm_baum', options: { maxPlayers: 2, startPlayer: 'host-picks', memorizeSeconds: 1, mainTimeoutSec: 'off', assignSeconds: 300 } })).room;
await b.req({ type: 'join_room', room });
await a.req({ type: 'start_game', first_seat: 0 });
for (const c of [a, b]) { const st = await c.wait((m) => m.type === 'state' && m.legal.length); const e = { ...st.legal[0] }; delete e.family; await c.req({ type: 'action', action: e }); }
await a.wait((m) => m.type === 'state' && m.view.phase === 'play');
await a.req({ type: 'action', action: { kind: 'move', from: { tree: 0 }, to: { seat: 0, row: 0, slot: 0 } } });
const rss = () => Number(readFileSync(`/proc/${srv.pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1]);
const dbSize = () => readdirSync(dir).reduce((s, f) => s + statSync(`${dir}/${f}`).size, 0);
await new Promise((r) => setTimeout(r, 500));
const rss0 = rss(), db0 = dbSize();
const codes = {};
const A = { row: 0, slot: 0 }, B = { row: 0, slot: 1 };
for (let i = 0; i < N; i++) {
  const moves = i % 2 ? [{ from: B, to: A }] : [{ from: A, to: B }];
  const r = await a.req({ type: 'action', action: { kind: 'rearrange', moves } });
  const k = r.type === 'ok' ? 'ok' : r.code; codes[k] = (codes[k] || 0) + 1;
}
const noop = await a.req({ type: 'action', action: { kind: 'rearrange', moves: [{ from: A, to: A }] } });
await new Promise((r) => setTimeout(r, 1000));
console.log(JSON.stringify({ sent: N, answers: codes, noop: noop.code, rss_kb_growth: rss() - rss0, db_bytes_growth: dbSize() - db0 }));
a.close(); b.close(); srv.kill('SIGTERM');
