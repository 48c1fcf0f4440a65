#!/usr/bin/env node
// bench/README.md "Views as changes": average bytes of one state for one client under each way of
// sending the view, from one real game of 4 players playing `legal` at random on a running server:
//   node bench/view_formats.mjs ws://127.0.0.1:PORT/ws GAME OPTIONS_JSON [MAX_MOVES]
// Bytes of a state per client under each view format, from real games (4 players, views as
// changes): the server's RFC 6902 patches, the views they make, and from those views RFC 7396
// merge patches and a compact [path, value] / [path] form of the same RFC 6902 operations.
import WebSocket from 'ws';
import { applyPatch } from '../clients/js/json_patch.js';
const [url, game, optsText, movesText] = process.argv.slice(2);
const opts = JSON.parse(optsText); const maxMoves = Number(movesText ?? 150);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
function conn() {
  const ws = new WebSocket(url); const c = { ws, states: [], id: 1, waiters: new Map(), view: null };
  ws.on('message', (d) => { const text = String(d); const m = JSON.parse(text);
    if (m.type === 'state') { const prev = c.view; c.view = m.view_patch ? applyPatch(c.view, m.view_patch) : m.view; c.states.push({ text, m, prev, view: c.view }); }
    if (m.id !== undefined && c.waiters.has(m.id)) c.waiters.get(m.id)(m); });
  c.req = (m) => new Promise((r) => { const id = c.id++; c.waiters.set(id, r); ws.send(JSON.stringify({ ...m, id })); });
  c.open = new Promise((r) => ws.once('open', r));
  return c;
}
const cs = [conn(), conn(), conn(), conn()];
for (const c of cs) await c.open;
for (const [i, c] of cs.entries()) await c.req({ type: 'hello', protocol: 1, name: `P${i}`, views: 'changes' });
const ok = await cs[0].req({ type: 'create_room', game, options: { maxPlayers: 4, ...opts } });
for (const c of cs.slice(1)) await c.req({ type: 'join_room', room: ok.room });
await cs[0].req({ type: 'start_game' });
let moves = 0;
while (moves < maxMoves) {
  await sleep(5);
  const last = cs.map((c) => c.states[c.states.length - 1].m);
  if (last[0].over) break;
  const i = last.findIndex((s) => s.prompt?.seats.includes(s.seat) && s.legal.some((e) => !e.domain));
  if (i < 0) { await sleep(50); continue; }
  const legal = last[i].legal.filter((e) => !e.domain);
  const seq = last[0].seq;
  await cs[i].req({ type: 'action', action: legal[Math.floor(Math.random() * legal.length)] });
  moves++;
  while (cs.some((c) => c.states[c.states.length - 1].m.seq === seq)) await sleep(2);
}
function mergePatch(a, b) {
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object' || Array.isArray(a) || Array.isArray(b)) return b;
  const out = {};
  for (const k of Object.keys(a)) if (!(k in b)) out[k] = null;
  for (const k of Object.keys(b)) if (!(k in a)) out[k] = b[k];
    else if (JSON.stringify(a[k]) !== JSON.stringify(b[k])) out[k] = mergePatch(a[k], b[k]);
  return out;
}
const compact = (ops) => ops.map((o) => (o.op === 'remove' ? [o.path] : [o.path, o.value]));
const sum = { full: 0, p6902: 0, merge: 0, compact: 0, n: 0, view6902: 0, viewFull: 0, events: 0, legal: 0, prompt: 0 };
for (const c of cs) for (const s of c.states) {
  if (!s.m.view_patch) continue;
  const base = s.text.length - JSON.stringify(s.m.view_patch).length;
  sum.n++;
  sum.p6902 += s.text.length;
  sum.full += base + JSON.stringify(s.view).length - '_patch'.length;
  sum.merge += base + JSON.stringify(mergePatch(s.prev, s.view)).length;
  sum.compact += base + JSON.stringify(compact(s.m.view_patch)).length;
  sum.view6902 += JSON.stringify(s.m.view_patch).length; sum.viewFull += JSON.stringify(s.view).length;
  sum.events += JSON.stringify(s.m.events).length; sum.legal += JSON.stringify(s.m.legal).length; sum.prompt += JSON.stringify(s.m.prompt).length;
}
const avg = (k) => Math.round(sum[k] / sum.n);
console.log(JSON.stringify({ game, states: sum.n, moves, full: avg('full'), rfc6902: avg('p6902'), merge7396: avg('merge'), compact: avg('compact'),
  view_full: avg('viewFull'), view_6902: avg('view6902'), events: avg('events'), legal: avg('legal'), prompt: avg('prompt') }));
process.exit(0);
