#!/usr/bin/env node
// A complete Tinsel client for Happy Holidays in one file, written from docs/protocol.md alone.
//
//   node clients/examples/happy-holidays.mjs [ws://127.0.0.1:8080/ws] [name]
//
// It creates a room with quick options, prints its code, waits for a second player (for example
// the reference bot: tinsel-bot --join CODE), starts the game, plays it to the end by choosing from
// `legal`, and prints every event as a readable line and the final result.
import WebSocket from 'ws';

const url = process.argv[2] ?? 'ws://127.0.0.1:8080/ws';
const myName = process.argv[3] ?? 'Example';
const OPTIONS = { maxPlayers: 2, giftsPerColour: 5, startPlayer: 'host-picks' };

const ws = new WebSocket(url);
let nextId = 1;
const waiting = new Map(); // request id -> {resolve, reject}
let me = null; // our player id, from `welcome`
let mySeat = null; // our seat, from the `state` pushes
let names = []; // seat -> display name, from the `room` pushes
let started = false;
let lastSeq = 0;
let finished = false;

// Every request carries an id; the server answers it with exactly one `ok` or `error`.
function request(message) {
  const id = nextId++;
  ws.send(JSON.stringify({ ...message, id }));
  return new Promise((resolve, reject) => waiting.set(id, { resolve, reject }));
}

function fail(why) {
  console.error(`error: ${why}`);
  process.exit(1);
}

const who = (seat) => names[seat] ?? `seat ${seat}`;
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

// One readable line per event; `docs/protocol.md` lists the fields of each kind.
function describe(e) {
  switch (e.kind) {
    case 'game_started': return `The game starts: ${e.players.join(', ')}`;
    case 'turn_started': return `--- ${who(e.seat)}'s turn (round ${e.round})`;
    case 'took_reindeer': return `${who(e.seat)} takes ${who(e.from)}'s reindeer`;
    case 'forgot_reindeer': return `${who(e.seat)} forgot the reindeer and misses the turn`;
    case 'rolled':
      if (e.colours) return `${who(e.seat)} rolled ${e.colours.join('+')}`;
      return `${who(e.seat)} rolled ${e.face === 'reindeer_reward' ? 'a Reindeer reward' : 'a Christmas wish'}`;
    case 'gifts_to_sleigh': return `${e.colours.join(' and ')} go onto ${who(e.seat)}'s sleigh`;
    case 'roll_again': return `${who(e.seat)} rolls again (${e.reason.replaceAll('_', ' ')})`;
    case 'reroll_cap': return `too many rerolls: ${who(e.seat)}'s turn ends`;
    case 'banked': {
      const what = e.colour ? `${e.count} ${e.colour}` : plural(e.count, 'gift');
      const whose = e.sleigh_owner === e.seat ? 'their own' : `${who(e.sleigh_owner)}'s`;
      return `${who(e.seat)} banks ${what} from ${whose} sleigh`;
    }
    case 'sleigh_swapped': return `${who(e.seat)} swaps sleighs with ${who(e.with)}`;
    case 'wish_given': return `${who(e.seat)} wishes for ${e.colour} and gets ${plural(e.count, 'gift')}`;
    case 'timed_out': return `time ran out for ${e.seats.map(who).join(', ')} (${e.prompt})`;
    case 'game_over': return `Game over (${e.reason === 'tree' ? 'the tree is bare' : 'round cap'})`;
    default: return `${e.kind} ${JSON.stringify(e)}`; // a kind added by a later version
  }
}

// Any entry of `legal` may be sent back as it is. A little sense: never forget the reindeer,
// and bank into the stacks that are already large (the score counts the two largest).
function choose(state) {
  const legal = state.legal.filter((entry) => !('domain' in entry));
  const take = legal.find((entry) => entry.kind === 'take_reindeer');
  if (take) return take;
  const stacks = state.view.players[mySeat].stacks;
  const value = (entry) => (entry.colour ? stacks[entry.colour] : 0) + Math.random();
  return legal.reduce((best, entry) => (value(entry) > value(best) ? entry : best));
}

function onRoom(room) {
  names = room.seats.map((s) => s.name);
  if (room.status === 'closed') fail('the room was closed');
  const seated = room.seats.filter((s) => s.status !== 'empty').length;
  if (room.host === me && room.status === 'lobby' && !started && seated >= 2) {
    started = true;
    console.log(`${names[1]} joined; starting`);
    // startPlayer "host-picks": the host says who begins (seat 0 is the host).
    request({ type: 'start_game', first_seat: 0 }).catch((e) => fail(`start_game: ${e.message}`));
  }
}

async function onState(state) {
  if (state.seq !== lastSeq + 1 && lastSeq !== 0) console.log(`(seq jumped from ${lastSeq} to ${state.seq})`);
  lastSeq = state.seq;
  mySeat = state.seat;
  for (const event of state.events) console.log(describe(event));

  if (state.over) {
    finished = true;
    const r = state.result;
    const scores = r.scores.map((score, seat) => `${who(seat)} ${score}`).join(', ');
    console.log(`Final scores: ${scores}. Winner${r.winners.length > 1 ? 's' : ''}: ${r.winners.map(who).join(' and ')}`);
    console.log(`result ${JSON.stringify(r)}`);
    await request({ type: 'leave_room' });
    ws.close(1000);
    return;
  }
  // Act only when the prompt names our seat; `legal` is then never empty.
  if (!state.prompt.seats.includes(mySeat)) return;
  const action = choose(state);
  try {
    await request({ type: 'action', action });
  } catch (e) {
    // A refused command changes nothing; the next state push says what to do.
    console.log(`(refused: ${e.code})`);
  }
}

ws.on('message', (data) => {
  const msg = JSON.parse(data.toString());
  switch (msg.type) {
    case 'ok':
    case 'error': {
      const w = waiting.get(msg.id);
      if (!w) {
        if (msg.type === 'error') console.log(`server error: ${msg.code}: ${msg.message}`);
        return;
      }
      waiting.delete(msg.id);
      if (msg.type === 'ok') w.resolve(msg);
      else w.reject(Object.assign(new Error(`${msg.code}: ${msg.message}`), { code: msg.code }));
      return;
    }
    case 'welcome': me = msg.player; return;
    case 'room': onRoom(msg.room); return;
    case 'state': onState(msg).catch((e) => fail(e.message)); return;
    case 'chat': console.log(`${msg.from.name}: ${msg.text}`); return;
    case 'kicked': fail('kicked from the room');
    default: // pushes added by later versions are ignored
  }
});

ws.on('open', async () => {
  try {
    await request({ type: 'hello', protocol: 1, name: myName });
    const ok = await request({ type: 'create_room', game: 'happy_holidays', options: OPTIONS });
    const invite = url.replace(/^ws/, 'http').replace(/\/ws$/, `/r/${ok.room}`);
    console.log(`room ${ok.room}`);
    console.log(`Waiting for a second player: open ${invite}`);
    console.log(`  or run: tinsel-bot --url ${url} --join ${ok.room}`);
  } catch (e) {
    fail(e.message);
  }
});

ws.on('close', (code) => {
  if (!finished) fail(`connection closed before the game ended (code ${code})`);
  process.exit(0);
});
ws.on('error', (e) => fail(e.message));
