#!/usr/bin/env node
// An Unterm Baum client on the client library (clients/js), and an example of the one thing this
// game adds to `legal`: **domain entries**, which describe commands with too many variants to list.
// The library's helpers expand them: `assign` (a wish list), `moves` (every move), `reveals`
// (every reveal), `rearrange`.
//
//   node clients/examples/unterm-baum.mjs [ws://127.0.0.1:8080/ws] [name]
//
// It creates a room for two with quick options, seats a server bot (add_bot), starts the game,
// writes its own wish list, memorises it, and plays: grab a present blind into a wished cell of
// its field, look at it (reveal), and rearrange it into its wished cell, or aside.
import WebSocket from 'ws';
import { TinselClient, domainOf, moves, rearrange, assign, reveals as revealsOf } from '../js/index.js';

const url = process.argv[2] ?? 'ws://127.0.0.1:8080/ws';
const OPTIONS = { maxPlayers: 2, startPlayer: 'host-picks', assignSeconds: 60, memorizeSeconds: 2, revealSeconds: 1,
  mainTimeoutSec: 60, maxRounds: 10 }; // K = cardsToRemember stays 8, the smallest

const client = new TinselClient({ url, name: process.argv[3] ?? 'Example', WebSocket });
let names = [];
const wishes = new Map(); // motif -> {row, slot}: my wish list, memorised during MEMORIZE
const known = new Map(); // location key -> motif: every card I have seen revealed, followed as it moves
let submitted = false; // my wish list was accepted
let handled = 0; // the seq of the last state acted on: one command per state
let finished = false;

function fail(why) { console.error(`error: ${why}`); process.exit(1); }
const who = (seat) => names[seat] ?? `seat ${seat}`;
const key = (loc) => ('tree' in loc ? `tree ${loc.tree}` : `${loc.seat} ${loc.row} ${loc.slot}`);
const where = (loc) => ('tree' in loc ? `tree slot ${loc.tree}` : `${who(loc.seat)}'s field (row ${loc.row}, slot ${loc.slot})`);
const cell = (c) => `(${c.row}, ${c.slot})`;
const same = (a, b) => a.row === b.row && a.slot === b.slot;

// Follow every card I have seen, as a player at the table follows it with his eyes.
function remember(e) {
  // A reveal told again (game log, catch-up) has no motif: what was seen live is kept.
  if (e.kind === 'revealed' && e.motif) known.set(key(e.location), e.motif);
  if (e.kind === 'moved' && known.has(key(e.from))) {
    known.set(key(e.to), known.get(key(e.from)));
    known.delete(key(e.from));
  }
  if (e.kind === 'rearranged') { // all cards of the mapping move at once
    const moving = e.moves.map((m) => known.get(key({ seat: e.seat, ...m.from })));
    for (const m of e.moves) known.delete(key({ seat: e.seat, ...m.from }));
    e.moves.forEach((m, i) => { if (moving[i]) known.set(key({ seat: e.seat, ...m.to }), moving[i]); });
  }
}

function describe(e) {
  switch (e.kind) {
    case 'game_started': return `The game starts: ${e.players.join(', ')}`;
    case 'assigned': return `${who(e.seat)} has written a wish list (${e.family} family${e.by_default ? ', by the timer' : ''})`;
    case 'memorize_started': return `${e.ms / 1000} seconds to memorise the wish lists`;
    case 'memorize_ended': return 'The lists are folded shut';
    case 'turn_started': return `--- ${who(e.seat)}'s turn (round ${e.round})`;
    case 'revealed': return `${who(e.seat)} reveals ${where(e.location)}: ${e.motif.replaceAll('_', ' ')}`;
    case 'moved': return `${who(e.seat)} moves a card from ${where(e.from)} to ${where(e.to)}`;
    case 'rearranged': return `${who(e.seat)} rearranges: ${e.moves.map((m) => `${cell(m.from)}->${cell(m.to)}`).join(' ')}`;
    case 'turn_ended': return e.by_timeout ? `${who(e.seat)}'s time ran out` : null;
    case 'timed_out': return `time ran out (${e.prompt})`;
    case 'game_over': return `Game over (${e.reason === 'field_complete' ? `${who(e.ended_by)}'s field is full` : 'round cap'})`;
    default: return `${e.kind} ${JSON.stringify(e)}`; // a kind added by a later version
  }
}

// ASSIGN. legal[0] is the default wish list; legal[1] is the domain
// {motifs, rows, slots, families}: any placement of the motifs on distinct cells with every row used.
// We spread them over the rows from the right-hand end, and take the *last* free family sheet (the
// default, and other players' defaults, take the first one, so ours cannot clash with theirs).
function wishList(state) {
  const domain = domainOf(state.legal, 'assign');
  const mapping = {};
  domain.motifs.forEach((motif, i) => {
    mapping[motif] = { row: i % domain.rows, slot: domain.slots - 1 - Math.floor(i / domain.rows) };
  });
  const command = assign(domain, mapping, domain.families.at(-1)); // checks it; throws with `code`
  console.log(`My wish list (${command.family}): ${command.wishes.map((w) => `${w.motif} ${cell(w)}`).join(', ')}`);
  return command;
}

// One command of my turn, chosen from `legal` and its domains; end_turn when nothing is left.
function turn(state) {
  const me = state.seat;
  const mine = (loc) => loc.seat === me;
  const wishAt = (c) => [...wishes].find(([, w]) => same(w, c))?.[0]; // the motif wished at cell c

  // 1. The rearrange domain {occupied, rows, slots}: my field's cards. Bring a seen wish into its
  //    wished cell (the helper swaps when that cell holds a card), or move a seen card that is not
  //    a wish off a wished cell to an empty unwished one.
  const field = domainOf(state.legal, 'rearrange');
  for (const [row, slot] of field?.occupied ?? []) { // [row, slot] pairs
    const c = { row, slot };
    const motif = known.get(key({ seat: me, ...c }));
    if (!motif) continue;
    const target = wishes.get(motif);
    if (target && !same(target, c)) {
      console.log(`> rearrange (domain): ${motif} ${cell(c)} -> its wished cell ${cell(target)}`);
      return rearrange(field, c, target);
    }
    if (!target && wishAt(c)) {
      const cells = Array.from({ length: field.rows * field.slots }, (_, i) => ({ row: Math.floor(i / field.slots), slot: i % field.slots }));
      const aside = cells.find((f) => !wishAt(f) && !field.occupied.some(([row, slot]) => same({ row, slot }, f)));
      if (aside) {
        console.log(`> rearrange (domain): ${motif} is no wish; ${cell(c)} -> ${cell(aside)}, freeing a wished cell`);
        return rearrange(field, c, aside);
      }
    }
  }

  // 2. The move domain {from, to, rule}: moves(legal) lists every move it allows (any card to any
  //    empty slot of another area). Prefer a seen wish from the tree, into its own cell if empty (a
  //    wish in the other field would only be taken back); else grab an unseen card blind into an
  //    empty wished cell (it may be the one; the reveal below tells), from the other field first.
  if (domainOf(state.legal, 'move')) {
    const all = moves(state.legal).filter((m) => mine(m.to) && !mine(m.from));
    const wanted = all.filter((m) => 'tree' in m.from && wishes.has(known.get(key(m.from))));
    const exact = wanted.find((m) => same(m.to, wishes.get(known.get(key(m.from)))));
    const blind = all.filter((m) => !known.has(key(m.from)) && wishAt(m.to));
    const pick = exact ?? wanted[0] ?? blind.find((m) => !('tree' in m.from)) ?? blind[0] ?? all[0];
    if (pick) {
      const what = known.get(key(pick.from)) ?? 'an unseen card';
      console.log(`> move (domain, 1 of ${all.length} into my field): ${what} from ${where(pick.from)} to ${cell(pick.to)}`);
      return pick;
    }
  }

  // 3. The reveal domain {locations}: reveals(legal) lists a reveal for every card. Look at an
  //    unseen card of my own field first, else the tree.
  const reveals = revealsOf(state.legal).filter((e) => !known.has(key(e.location)));
  const look = reveals.find((e) => mine(e.location)) ?? reveals.find((e) => 'tree' in e.location);
  return look ?? state.legal[0]; // legal[0] of a turn is always end_turn (the default)
}

// Act on the newest state while the prompt waits for me, one command at a time.
let busy = false;
async function play() {
  if (busy) return;
  busy = true;
  try {
    for (let s = client.state; s && !s.over && s.seq > handled && s.prompt?.seats.includes(s.seat); s = client.state) {
      handled = s.seq;
      if (s.prompt.kind === 'assign' && submitted) return; // a state built before my list arrived
      const command = s.prompt.kind === 'assign' ? wishList(s) : turn(s);
      try {
        await client.action(command);
        if (command.kind === 'assign') submitted = true;
      } catch (e) {
        // Refused (a lost race for a family sheet, a timer): fall back on the default, legal[0].
        console.log(`(refused: ${e.code})`);
        if (client.state === s) await client.action(s.legal[0]).catch((e2) => console.log(`(refused: ${e2.code})`));
      }
    }
  } finally {
    busy = false;
  }
}

async function onState(state) {
  for (const e of state.events) {
    remember(e);
    const line = describe(e);
    if (line) console.log(line);
  }
  const list = state.view.wish_list?.wishes; // shown during ASSIGN (once written) and MEMORIZE only
  if (list && wishes.size === 0) {
    for (const w of list) wishes.set(w.motif, { row: w.row, slot: w.slot });
    console.log(`Memorising ${wishes.size} wishes`);
  }
  if (state.over) {
    finished = true;
    const r = state.result;
    const mine = r.players[state.seat];
    console.log(`My field: ${mine.exact} exact (4), ${mine.member} right row (3), ${mine.other} other (1)`);
    console.log(`Final scores: ${r.scores.map((s, seat) => `${who(seat)} ${s}`).join(', ')}. Winner${r.winners.length > 1 ? 's' : ''}: ${r.winners.map(who).join(' and ')}`);
    console.log(`result ${JSON.stringify(r)}`);
    await client.leaveRoom();
    client.close();
    process.exit(0);
  }
  await play();
}

client.on('room', (room) => { names = room.seats.map((s) => s.name); });
client.on('state', (state) => onState(state).catch((e) => fail(e.stack)));
client.on('joined', () => { handled = 0; }); // after a reconnect, answer the current prompt again
client.on('left', ({ reason }) => { if (!finished) fail(`left the room (${reason})`); });
client.on('status', (status) => { if (status === 'replaced' || status === 'failed') fail(`session ${status}`); });

try {
  await client.connect();
  const ok = await client.createRoom('unterm_baum', OPTIONS);
  console.log(`room ${ok.room}`);
  const bot = await client.addBot(); // a server bot takes the second seat
  console.log(`${bot.player} sits down in seat ${bot.seat}; starting`);
  await client.startGame(1); // startPlayer "host-picks": the bot begins, so the last turn is mine
} catch (e) {
  fail(e.message);
}
