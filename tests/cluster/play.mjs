// Families playing Happy Holidays through HAProxy on the client library (clients/js), with a
// recorder that keeps what each client saw and what the server acknowledged, and the checks the
// cluster tests share: every state in order without gap or duplicate, the same game for every
// member of a room, and every acknowledged command in the room's journal, in order.
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { TinselClient, sendable } from '../../clients/js/index.js';
import { waitFor } from '../support/cluster.mjs';
import { within } from '../support/processes.mjs';

// Long games (15 gifts of each colour), no turn timers: every command comes from a player, so
// nothing moves while a room is between instances.
export const gameOptions = { maxPlayers: 4, giftsPerColour: 15, startPlayer: 'host-picks', mainTimeoutSec: 'off', subPromptTimeoutSec: 'off' };
const names = ['Oma', 'Ben', 'Lena', 'Tom'];

export function until(client, type, test = () => true) {
  return new Promise((resolve) => {
    const off = client.on(type, (...a) => {
      if (test(...a)) {
        off();
        resolve(a[0]);
      }
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
// JSON with sorted keys, to compare commands as sent with commands as journaled.
export function canonical(v) {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`;
  return JSON.stringify(v);
}

// One client of a room, recording everything. `play`: answers its prompts from `legal` after
// `thinkMs` (random up to it), as long as `family.playing`.
export class Player {
  constructor(family, name, url, { room = undefined, thinkMs = 250 } = {}) {
    this.family = family;
    this.name = name;
    this.thinkMs = thinkMs;
    this.client = new TinselClient({ url, name, WebSocket, room, backoff: { baseMs: 200, restartBaseMs: 300, maxMs: 2000 } });
    this.states = []; // {seq, join, replayed_from, resync, gap, sig}
    this.acks = []; // {seat, command, game}: commands the server acknowledged (ok), in order
    this.refused = []; // codes of refused commands
    this.duplicates = 0;
    this.welcomes = []; // welcome.server.instance of every welcome
    this.moved = []; // the library's `moved` events
    this.disconnects = []; // close codes
    this.busy = false;
    const c = this.client;
    c.on('welcome', (w) => {
      this.welcomes.push(w.server?.instance ?? null);
      this.token = w.token ?? this.token;
    });
    c.on('moved', (m) => this.moved.push(m));
    this.statuses = [];
    c.on('status', (st, d) => this.statuses.push([st, d.code ?? null, d.attempt ?? null, d.error?.code ?? null]));
    c.on('disconnect', (d) => this.disconnects.push(d.silent ? `${d.code}s` : d.code));
    c.on('duplicate', () => { this.duplicates += 1; });
    c.on('state', (state, info) => {
      // The seq at which the room's latest game started (a replay's events carry their own seq).
      for (const e of state.events) if (e.kind === 'game_started') family.gameStart = Math.max(family.gameStart, e.seq ?? state.seq);
      this.states.push({
        seq: state.seq, join: info.join, replayed_from: state.replayed_from, resync: info.resync, gap: info.gap,
        // What every member of the room sees alike: the prompt and the kinds of the events.
        sig: canonical({ prompt: state.prompt && { kind: state.prompt.kind, seats: state.prompt.seats }, over: state.over, events: state.events.map((e) => e.kind) }),
      });
      this.act();
    });
  }

  get lastSeq() { return this.client.lastSeq; }
  // The instance that answered this client's latest hello.
  get instance() { return this.welcomes.at(-1); }

  act() {
    const c = this.client;
    const s = c.state;
    if (this.busy || !this.family.playing || !s || s.over || !s.prompt?.seats.includes(s.seat) || c.status !== 'online') return;
    this.busy = true;
    const seq = s.seq;
    (async () => {
      await sleep(Math.random() * this.thinkMs);
      const now = c.state;
      if (!this.family.playing || !now || now.seq !== seq || now.over) return;
      const legal = sendable(now.legal);
      if (!legal.length) return;
      const command = legal[Math.floor(Math.random() * legal.length)];
      try {
        await c.action(command);
        this.acks.push({ seat: now.seat, command: canonical(command), seq });
      } catch (e) {
        this.refused.push(e.code);
      }
    })().finally(() => {
      this.busy = false;
      // The state that came meanwhile may be ours to answer.
      setTimeout(() => this.act(), 0);
    });
  }

  close() { this.client.close(); }
}

// A room of 4: a host who creates it through HAProxy, and 3 more who join it through HAProxy (a
// third of the rooms: 2 more and a server bot). `playing` switches the players on and off.
export class Family {
  constructor(cluster, index, { bot = false, thinkMs = 250 } = {}) {
    this.cluster = cluster;
    this.index = index;
    this.bot = bot;
    this.thinkMs = thinkMs;
    this.players = [];
    this.playing = false;
    this.gameStart = 0; // the seq of the latest game's first state
    this.code = null;
  }

  async open() {
    const host = new Player(this, `${names[0]}${this.index}`, this.cluster.url, { thinkMs: this.thinkMs });
    this.players.push(host);
    await host.client.connect();
    const { room } = await host.client.createRoom('happy_holidays', gameOptions);
    this.code = room;
    this.creator = host.welcomes.at(-1);
    if (this.bot) await host.client.addBot();
    for (let k = 1; k < (this.bot ? 3 : 4); k++) {
      // A guest opens the invite: the room is in the URL from the first connection.
      const p = new Player(this, `${names[k]}${this.index}`, this.cluster.url, { room, thinkMs: this.thinkMs });
      this.players.push(p);
      await p.client.connect();
      await p.client.joinRoom(room);
    }
    return this;
  }

  get host() { return this.players[0]; }

  // Starts a game (the host) and lets everyone play; a game that ends is followed by another.
  async start() {
    this.playing = true;
    const host = this.host.client;
    if (!this.restarting) {
      this.restarting = true;
      host.on('state', (s) => {
        if (s.over && this.playing) {
          host.startGame(0).catch(() => {});
        }
      });
    }
    await host.startGame(0);
    for (const p of this.players) p.act();
  }

  // The highest seq any member of the room has seen.
  get seq() { return Math.max(...this.players.map((p) => p.lastSeq ?? 0)); }

  close() {
    this.playing = false;
    for (const p of this.players) p.close();
  }
}

// Opens `count` rooms, `parallel` at a time; every third has a bot.
export async function openFamilies(cluster, count, { parallel = 6, thinkMs = 250 } = {}) {
  const families = Array.from({ length: count }, (_, i) => new Family(cluster, i, { bot: i % 3 === 2, thinkMs }));
  for (let i = 0; i < families.length; i += parallel) {
    await within(120000, Promise.all(families.slice(i, i + parallel).map((f) => f.open())), `rooms ${i}..${i + parallel - 1} to open`);
  }
  return families;
}

// A spectator's hello on `url`: every message until the close, or after 3 s.
function askRoom(url, token, room, lastSeq) {
  return new Promise((resolve) => {
    const ws = new WebSocket(url);
    const got = [];
    const done = () => resolve(got.map((m) => (m.type === 'error' ? m : m.type)));
    ws.on('open', () => ws.send(JSON.stringify({ type: 'hello', protocol: 1, name: 'Probe', id: 1, ...(token ? { token } : {}) })));
    ws.on('message', (d) => {
      const m = JSON.parse(String(d));
      got.push(m);
      if (m.type === 'welcome' && room) ws.send(JSON.stringify({ type: 'join_room', room, last_seq: lastSeq, id: 2 }));
    });
    ws.on('close', done);
    ws.on('error', done);
    setTimeout(() => { ws.terminate(); done(); }, 3000);
  });
}

// For a failure: the clients of `families` that are not online, and what the database and every
// live instance answer about their rooms (also to such a client's token).
async function diagnose(families) {
    const lost = families.flatMap((f) => f.players.filter((p) => p.client.status !== 'online'))
      .map((p) => `${p.name}: ${p.client.status}, welcomes ${JSON.stringify(p.welcomes)}, closes ${JSON.stringify(p.disconnects.slice(-8))}, moved ${JSON.stringify(p.moved.slice(-3))}, next ${p.client.connectUrl?.()}, statuses ${JSON.stringify(p.statuses.slice(-6))}`);
    // What the database and every live instance say about the stuck rooms.
    const asked = [];
    for (const f of families.filter((g) => g.players.some((p) => p.client.status !== 'online')).slice(0, 3)) {
      const cluster = f.cluster;
      asked.push(`${f.code}: database ${JSON.stringify(await cluster.roomOwner(f.code))}, instances ${JSON.stringify(await cluster.query('SELECT id, incarnation, lease_until > clock_timestamp(), draining FROM instances ORDER BY id').catch((x) => x.message))}`);
      for (const [id, inst] of cluster.instances) {
        if (inst.proc.exit) continue;
        asked.push(`  ${id} answers hello ?room=${f.code}: ${JSON.stringify(await askRoom(cluster.direct(id, `?room=${f.code}`))).slice(0, 400)}`);
        const p = f.players.find((q) => q.client.status !== 'online');
        if (p) asked.push(`  ${id} answers ${p.name}'s hello with token and join_room last_seq ${p.lastSeq}: ${JSON.stringify(await askRoom(cluster.direct(id, `?room=${f.code}`), p.token, f.code, p.lastSeq)).slice(0, 400)}`);
      }
    }
  return { lost, asked };
}

// Waits until every family's room has moved on by `more` states from now.
export async function progress(families, more, ms, what) {
  const from = families.map((f) => f.seq);
  await waitFor(ms, what, () => families.every((f, i) => f.seq >= from[i] + more), 200).catch(async (e) => {
    const stuck = families.filter((f, i) => f.seq < from[i] + more)
      .map((f) => `${f.code}: seq ${f.seq} (from ${from[families.indexOf(f)]}), statuses ${f.players.map((p) => p.client.status).join('/')}`);
    const { lost, asked } = await diagnose(families.filter((f, i) => f.seq < from[i] + more));
    throw new Error(`${e.message}; stuck: ${stuck.slice(0, 8).join('; ')}\n${lost.slice(0, 6).join('\n')}\n${asked.join('\n')}`);
  });
}

// Every state each client saw followed the one before: one above it, or (answering a rejoin) a
// replay from exactly one above it, or the same seq again when nothing was missed. No gap, no
// duplicate, no resync. Returns the number of rejoins that resumed. With `rebuilds`, a room that
// went back to its journal after a write that failed (the database went away) may send each member
// the state it is in again, as a resync of the seq the member already has (docs/operations.md,
// "PostgreSQL journal": nothing unacknowledged is kept).
export function checkOrder(families, { rebuilds = false } = {}) {
  let resumes = 0;
  for (const f of families) {
    for (const p of f.players) {
      assert.equal(p.duplicates, 0, `${p.name} in ${f.code} got a state twice`);
      let last = null;
      for (const s of p.states) {
        if (rebuilds && s.resync && last !== null && s.seq === last) continue;
        assert.ok(!s.resync && !s.gap, `${p.name} in ${f.code}: ${s.resync ? 'a resync' : 'a gap'} at seq ${s.seq}${s.resync ? ` after ${last}` : ''}`);
        if (last === null) {
          last = s.seq;
          continue;
        }
        if (s.join) {
          if (s.replayed_from !== undefined) assert.equal(s.replayed_from, last + 1, `${p.name} in ${f.code}: a rejoin replayed from ${s.replayed_from} after seq ${last}`);
          else assert.ok(s.seq === last || s.seq === last + 1, `${p.name} in ${f.code}: a rejoin answered with seq ${s.seq} after ${last}`);
          resumes += 1;
        } else {
          assert.equal(s.seq, last + 1, `${p.name} in ${f.code}: seq ${s.seq} after ${last}`);
        }
        last = s.seq;
      }
    }
  }
  return resumes;
}

// Every member of a room saw the same game: for each seq that two members got as a push (not a
// rejoin's answer nor a resync), the same prompt and the same kinds of events.
export function checkSameGame(families) {
  for (const f of families) {
    const bySeq = new Map();
    for (const p of f.players) {
      for (const s of p.states) {
        if (s.join || s.resync) continue;  // an answer to a rejoin, or the state sent again after a rebuild
        const seen = bySeq.get(s.seq);
        if (seen) assert.equal(s.sig, seen.sig, `${f.code} seq ${s.seq}: ${p.name} saw ${s.sig}, ${seen.name} saw ${seen.sig}`);
        else bySeq.set(s.seq, { sig: s.sig, name: p.name });
      }
    }
  }
}

// Every command acknowledged in the room's current game is in its journal, in the order it was
// acknowledged (per seat: a command is acknowledged only after the seat's previous one, so the
// acknowledged commands are a subsequence of the seat's journaled ones; the journal may hold one
// more whose ok was lost with its instance). Returns how many acknowledged commands were checked.
export async function checkJournal(cluster, families) {
  let checked = 0;
  for (const f of families) {
    const journal = await cluster.journalCommands(f.code);
    for (const p of f.players) {
      // A command answers a state of the current game when that state's seq is past the game's start.
      const acked = p.acks.filter((a) => a.seq >= f.gameStart);
      if (!acked.length) continue;
      const seat = acked[0].seat;
      const mine = journal.filter((e) => e.seat === seat && e.by !== 'server').map((e) => canonical(e.command));
      let i = 0;
      for (const a of acked) {
        while (i < mine.length && mine[i] !== a.command) i += 1;
        assert.ok(i < mine.length, `${f.code}: ${p.name}'s acknowledged command ${a.command} (${acked.indexOf(a) + 1} of ${acked.length}) is not in the journal in order (the seat's journaled commands: ${mine.length})`);
        i += 1;
        checked += 1;
      }
    }
  }
  return checked;
}

// The rooms' owners in the database: Map code -> {owner, epoch}.
export async function owners(cluster, families) {
  const out = new Map();
  for (const f of families) out.set(f.code, await cluster.roomOwner(f.code));
  return out;
}

// The instance that owns the most of these rooms.
export function busiest(ownerMap) {
  const count = new Map();
  for (const { owner } of ownerMap.values()) count.set(owner, (count.get(owner) ?? 0) + 1);
  return [...count.entries()].sort((a, b) => b[1] - a[1])[0][0];
}

// Stops the players and waits until no command is in flight.
export async function settle(families) {
  for (const f of families) f.playing = false;
  await waitFor(20000, 'the commands in flight to be answered', () => families.every((f) => f.players.every((p) => !p.busy)));
}

// After a room left `victim`: every client of each room is back online, on the room's new owner
// (the database's), and the same one for all of them.
export async function checkMoved(cluster, families, victim, ms = 60000) {
  await waitFor(ms, 'every client of the moved rooms to be online again', () =>
    families.every((f) => f.players.every((p) => p.client.status === 'online' && p.client.room?.code === f.code))).catch(async (e) => {
    const { lost, asked } = await diagnose(families);
    throw new Error(`${e.message}\n${lost.slice(0, 6).join('\n')}\n${asked.join('\n')}`);
  });
  for (const f of families) {
    const now = await cluster.roomOwner(f.code);
    assert.ok(now.owner && now.owner !== victim, `${f.code} is owned by ${now.owner} after ${victim} left`);
    for (const p of f.players) assert.equal(p.instance, now.owner, `${p.name} of ${f.code} is on ${p.instance}, the room on ${now.owner}`);
  }
}
