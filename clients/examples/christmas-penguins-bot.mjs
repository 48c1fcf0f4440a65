#!/usr/bin/env node
// A Christmas Penguins bot on the client library (clients/js): it plays from `legal` and shouts
// "Stop!" when a stone would help it, e.g. when a red or blue swap would bring its penguin next to
// the tree or away from Santa and the polar bear.
//
//   node clients/examples/christmas-penguins-bot.mjs [ws://127.0.0.1:8080/ws] [name] [--join CODE]
//
// Without --join it creates a room for two with plenty of stones, prints its code and starts the
// game when a second player has sat down (e.g. tinsel-bot --join CODE). It prints one line per
// "Stop!" and per stone it uses, the final scores and a `result {json}` line.
import WebSocket from 'ws';
import { TinselClient, sendable, expand } from '../js/index.js';

const argv = process.argv.slice(2);
const joinAt = argv.indexOf('--join');
const joinCode = joinAt >= 0 ? argv.splice(joinAt, 2)[1] : null;
const url = argv[0] ?? 'ws://127.0.0.1:8080/ws';
const THINK_MS = 100;
const OPTIONS = { maxPlayers: 2, startPlayer: 'host-picks', stones: '2/4/2', maxRounds: 24, reactionWindowMs: 1500 };

const client = new TinselClient({ url, name: argv[1] ?? 'Pinguin', WebSocket });
let started = false;
let finished = false;
let stops = 0;
let names = [];
let acting = 0; // the seq of the state we last acted on: one command per state

function fail(why) {
  console.error(`error: ${why}`);
  process.exit(1);
}

// Hex distance between two floes (docs/rules/christmas-penguins.md, "Board and coordinates").
function dist(view, a, b) {
  const [q1, r1] = view.cells[a];
  const [q2, r2] = view.cells[b];
  const dq = q1 - q2;
  const dr = r1 - r2;
  return (Math.abs(dq) + Math.abs(dr) + Math.abs(dq + dr)) / 2;
}

const onBoard = (floe) => Number.isInteger(floe);

// How good it is for our penguin to stand on `floe` with Santa and the bear where they are: near
// the tree (a present to steal), away from Santa (who would take one) and the bear.
function worth(view, floe, santa = view.santa, bear = view.bear) {
  let v = 0;
  if (onBoard(view.tree)) v -= dist(view, floe, view.tree);
  if (onBoard(santa)) v -= 2 * Math.max(0, 3 - dist(view, floe, santa));
  if (onBoard(bear)) v -= Math.max(0, 2 - dist(view, floe, bear));
  return v;
}

// The swaps a red or blue stone offers from the view: red with another penguin, blue also with
// Santa or the bear. Each with how much better our penguin would then stand.
function swaps(view, me, stone) {
  const mine = view.players[me].penguin;
  const targets = view.players.filter((p) => p.seat !== me && onBoard(p.penguin)).map((p) => p.penguin);
  if (stone === 'blue') targets.push(view.santa, view.bear);
  return targets.filter(onBoard).map((target) => {
    // After the swap the other figure stands where our penguin stood.
    const santa = target === view.santa ? mine : view.santa;
    const bear = target === view.bear ? mine : view.bear;
    return { stone, target, gain: worth(view, target, santa, bear) - worth(view, mine) };
  });
}

function bestSwap(view, me, stones) {
  const options = stones.flatMap((stone) => swaps(view, me, stone));
  return options.reduce((best, o) => (!best || o.gain > best.gain ? o : best), null);
}

// "Stop!" pays when a red/blue stone we hold brings us next to the tree or out of danger.
function stopHelps(view, me) {
  const p = view.players[me];
  if (!onBoard(p.penguin)) return false;
  const held = ['red', 'blue'].filter((s) => p.stones[s] > 0);
  const best = bestSwap(view, me, held);
  return Boolean(best && best.gain >= 2);
}

// A stone on this floe that "Stop!" could use: blue always, red when there is another penguin to
// swap with (with two players the other is Santa); and whether we hold one already.
const otherPenguins = (view, me) => view.players.some((p) => p.seat !== me && p.role !== 'santa');
const swapStone = (view, floe, me) =>
  view.stones_on_board.some(([f, stone]) => f === floe && (stone === 'blue' || (stone === 'red' && otherPenguins(view, me))));
const holdsSwap = (view, me) => view.players[me].stones.blue + (otherPenguins(view, me) ? view.players[me].stones.red : 0) > 0;

// A score for every other command; the best one is sent.
function score(view, me, e) {
  const penguins = view.players.filter((p) => p.seat !== me && onBoard(p.penguin)).map((p) => p.penguin);
  switch (e.kind) {
    case 'move':
      if (view.players[me].role === 'santa') {
        // Catch a penguin: its player becomes Santa, and Santa never wins.
        if (penguins.includes(e.to)) return 100;
        return -Math.min(...penguins.map((f) => dist(view, e.to, f)), 99);
      }
      return (e.to === view.tree ? 50 : 0) + (swapStone(view, e.to, me) && !holdsSwap(view, me) ? 8 : 0) + worth(view, e.to);
    case 'flee': return worth(view, e.to);
    case 'bear_move': return -Math.min(...penguins.map((f) => dist(view, e.to, f)), 99);
    case 'pickup_stone': return e.take ? 1 : 0;
    case 'steal': return view.players[me].presents[e.colour]; // the most of one colour earns a bonus
    case 'place_channel': return -10; // channels only slow everyone down
    case 'stop': case 'withdraw_stop': case 'cancel_stop': return -100;
    default: return Math.random();
  }
}

function choose(state) {
  const { view, seat: me } = state;
  // expand: the green moves, channels and flights that legal gives as domains, written out.
  const legal = sendable(expand(state.legal));
  if (state.prompt.kind === 'stopped') {
    // Our "Stop!" was granted: the best red/blue swap that legal offers, else give up the stop.
    const uses = legal.filter((e) => e.kind === 'use_stone' && (e.stone === 'red' || e.stone === 'blue'));
    const ranked = uses.map((e) => [swaps(view, me, e.stone).find((s) => s.target === e.target)?.gain ?? -99, e]).sort((a, b) => b[0] - a[0]);
    if (ranked.length && ranked[0][0] > 0) {
      console.log(`${names[me]} uses a ${ranked[0][1].stone} stone on floe ${ranked[0][1].target}`);
      return ranked[0][1];
    }
    return legal.find((e) => e.kind === 'cancel_stop');
  }
  const stop = legal.find((e) => e.kind === 'stop');
  if (stop && stopHelps(view, me)) {
    stops += 1;
    console.log(`${names[me]}: "Stop!"`);
    return stop;
  }
  return legal.reduce((best, e) => (score(view, me, e) > score(view, me, best) ? e : best));
}

async function onState(state) {
  if (state.over) {
    finished = true;
    const r = state.result;
    console.log(`Final scores: ${r.scores.map((s, seat) => `${names[seat]} ${s}`).join(', ')}. Stops claimed: ${stops}`);
    console.log(`result ${JSON.stringify(r)}`);
    await client.leaveRoom();
    client.close();
    process.exit(0);
  }
  if (!state.prompt?.seats.includes(state.seat) || acting === state.seq) return;
  acting = state.seq;
  // A short pause, as a person takes: it keeps the bot well inside the server's rate limit. If
  // the game moved on meanwhile, the newer state is answered instead.
  await new Promise((resolve) => setTimeout(resolve, THINK_MS));
  if (client.state !== state) return;
  const command = choose(state);
  if (!command) return;
  // A refused command changes nothing (another claim or a timer came first); the next state says
  // what to do.
  await client.action(command).catch((e) => console.log(`(refused: ${e.code})`));
}

client.on('room', (room) => {
  names = room.seats.map((s) => s.name);
  const seated = room.seats.filter((s) => s.status !== 'empty').length;
  if (client.isHost && room.status === 'lobby' && !started && seated >= 2) {
    started = true;
    client.startGame(0).catch((e) => fail(`start_game: ${e.message}`));
  }
});
client.on('state', (state) => onState(state).catch((e) => fail(e.message)));
client.on('joined', () => { acting = 0; }); // after a reconnect, answer the current prompt again
client.on('left', ({ reason }) => { if (!finished) fail(`left the room (${reason})`); });
client.on('status', (status) => { if (status === 'replaced' || status === 'failed') fail(`session ${status}`); });

try {
  await client.connect();
  const ok = joinCode ? await client.joinRoom(joinCode) : await client.createRoom('christmas_penguins', OPTIONS);
  console.log(`room ${ok.room}`);
} catch (e) {
  fail(e.message);
}
