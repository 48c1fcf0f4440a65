#!/usr/bin/env node
// A complete Tinsel client for Happy Holidays in one file, on the client library (clients/js): the
// library does the session (hello, requests, reconnecting and resuming), this file the game.
//
//   node clients/examples/happy-holidays.mjs [ws://127.0.0.1:8080/ws] [name]
//
// It creates a room with quick options, prints its code, waits for a second player (for example
// the reference bot: tinsel-bot --join CODE), starts the game, plays it to the end by choosing from
// `legal`, and prints every event as a readable line and the final result.
import WebSocket from 'ws';
import { TinselClient, sendable } from '../js/index.js';

const url = process.argv[2] ?? 'ws://127.0.0.1:8080/ws';
const myName = process.argv[3] ?? 'Example';
const OPTIONS = { maxPlayers: 2, giftsPerColour: 5, startPlayer: 'host-picks' };

const client = new TinselClient({ url, name: myName, WebSocket });
let names = []; // seat -> display name, from the `room` pushes
let started = false;
let finished = false;

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
  const legal = sendable(state.legal);
  const take = legal.find((entry) => entry.kind === 'take_reindeer');
  if (take) return take;
  const stacks = state.view.players[state.seat].stacks;
  const value = (entry) => (entry.colour ? stacks[entry.colour] : 0) + Math.random();
  return legal.reduce((best, entry) => (value(entry) > value(best) ? entry : best));
}

function onRoom(room) {
  names = room.seats.map((s) => s.name);
  if (room.status === 'closed') fail('the room was closed');
  const seated = room.seats.filter((s) => s.status !== 'empty').length;
  if (client.isHost && room.status === 'lobby' && !started && seated >= 2) {
    started = true;
    console.log(`${names[1]} joined; starting`);
    // startPlayer "host-picks": the host says who begins (seat 0 is the host).
    client.startGame(0).catch((e) => fail(`start_game: ${e.message}`));
  }
}

// The library hands states on in order, every event once, also across a reconnect.
async function onState(state) {
  for (const event of state.events) console.log(describe(event));

  if (state.over) {
    finished = true;
    const r = state.result;
    const scores = r.scores.map((score, seat) => `${who(seat)} ${score}`).join(', ');
    console.log(`Final scores: ${scores}. Winner${r.winners.length > 1 ? 's' : ''}: ${r.winners.map(who).join(' and ')}`);
    console.log(`result ${JSON.stringify(r)}`);
    await client.leaveRoom();
    client.close();
    process.exit(0);
  }
  // Act only when the prompt names our seat; `legal` is then never empty.
  if (!state.prompt.seats.includes(state.seat)) return;
  const action = choose(state);
  try {
    await client.action(action);
  } catch (e) {
    // A refused command changes nothing; the next state push says what to do.
    console.log(`(refused: ${e.code})`);
  }
}

client.on('room', onRoom);
client.on('state', (state) => onState(state).catch((e) => fail(e.message)));
client.on('chat', (msg) => console.log(`${msg.from.name}: ${msg.text}`));
client.on('error', (e) => console.log(`server error: ${e.code}: ${e.message}`));
client.on('left', ({ reason }) => { if (!finished) fail(`left the room (${reason})`); });
client.on('status', (status, detail) => {
  if (status === 'reconnecting' || status === 'restarting') console.log(`(connection lost; ${status} in ${detail.delay} ms)`);
  if (status === 'replaced' || status === 'failed') fail(`session ${status}`);
});

try {
  await client.connect();
  const ok = await client.createRoom('happy_holidays', OPTIONS);
  const invite = url.replace(/^ws/, 'http').replace(/\/ws$/, `/r/${ok.room}`);
  console.log(`room ${ok.room}`);
  console.log(`Waiting for a second player: open ${invite}`);
  console.log(`  or run: tinsel-bot --url ${url} --join ${ok.room}`);
} catch (e) {
  fail(e.message);
}
