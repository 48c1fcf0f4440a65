#!/usr/bin/env node
// The client library's helpers for `legal` (clients/js/legal.js): first on hand-made domains, then
// in a real Unterm Baum game against a server bot, where every command they build must be
// accepted: an assign from a motif → cell mapping, moves expanded from the move domain, reveals
// from the reveal domain, swaps and moves of the rearrange domain; and in a real Christmas Penguins
// game, where a channel expanded from the channel domain must be accepted.
//
//   node legal_helpers.test.mjs --server PATH
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import {
  TinselClient, assign, channels, checkAssign, checkGreen, checkMove, checkRearrange, domainOf, expand, flights, greenMoves, hasLocation, isDomain,
  locations, moves, rearrange, reveals, sendable,
} from '../../clients/js/index.js';
import { parseArgs, startServer, killAll, within, show } from '../support/processes.mjs';

const args = parseArgs(process.argv.slice(2));

function handMade() {
  // Concrete entries pass through; domain entries do not.
  const legal = [{ kind: 'roll' }, { kind: 'place_channel', a: 1, b: 2 }, { kind: 'place_channel', domain: { edges: [[1, 2], [1, 5], [3, 4]] } }];
  assert.deepEqual(sendable(legal), legal.slice(0, 2));
  assert.ok(isDomain(legal[2]) && !isDomain(legal[0]));
  // Channels: every edge; expand replaces example + domain by the list, example not repeated.
  assert.deepEqual(channels(legal).map((c) => [c.a, c.b]), [[1, 2], [1, 5], [3, 4]]);
  assert.deepEqual(expand(legal), [{ kind: 'roll' }, { kind: 'place_channel', a: 1, b: 2 }, { kind: 'place_channel', a: 1, b: 5 }, { kind: 'place_channel', a: 3, b: 4 }]);

  // Flights: every floe with every colour, floe by floe.
  const flee = [{ kind: 'flee', colour: 'red', to: 3 }, { kind: 'flee', domain: { to: [3, 8], colours: ['red', 'blue'], rule: 'to_x_colours' } }];
  assert.deepEqual(flights(flee).map((f) => `${f.to}${f.colour}`), ['3red', '3blue', '8red', '8blue']);
  assert.equal(expand(flee).length, 4);
  assert.deepEqual(flights([{ kind: 'flee', to: 4 }]), [{ kind: 'flee', to: 4 }]); // no presents: concrete

  // Green: floes 0 and 2 to every cell but one touching only themselves; floe 5 by pairs.
  const green = {
    floes: [0, 2],
    cells: [[1, -4], [3, -4, 0], [-2, 4, 2]],
    pairs: [[5, 1, -4]],
    rule: 'floes_x_cells',
  };
  const stopped = [{ kind: 'cancel_stop' }, { kind: 'use_stone', stone: 'green', floe: 0, to: [1, -4] }, { kind: 'use_stone', stone: 'green', domain: green }];
  const allGreen = greenMoves(stopped).map((g) => `${g.floe}:${g.to}`);
  assert.deepEqual(allGreen, ['0:1,-4', '0:-2,4', '2:1,-4', '2:3,-4', '5:1,-4']);
  assert.deepEqual(expand(stopped).map((e) => e.kind), ['cancel_stop', 'use_stone', 'use_stone', 'use_stone', 'use_stone', 'use_stone']);
  assert.ok(checkGreen(green, 0, [1, -4]) && checkGreen(green, 5, [1, -4]) && checkGreen(green, 2, [3, -4]));
  assert.ok(!checkGreen(green, 0, [3, -4]), 'a cell that touches only the floe itself');
  assert.ok(!checkGreen(green, 5, [-2, 4]), 'a floe of pairs only to its listed cells');
  assert.ok(!checkGreen(green, 1, [1, -4]), 'a floe in neither list');
  assert.ok(!checkGreen(green, 0, [9, 9]), 'a cell not listed');

  // Unterm Baum: location sets, reveals.
  const set = { tree: [0, 4, [6, 8]], fields: [[1, [2, [5, 7]]]], slots: 5 };
  assert.deepEqual(locations(set), [{ tree: 0 }, { tree: 4 }, { tree: 6 }, { tree: 7 }, { tree: 8 },
    { seat: 1, row: 0, slot: 2 }, { seat: 1, row: 1, slot: 0 }, { seat: 1, row: 1, slot: 1 }, { seat: 1, row: 1, slot: 2 }]);
  assert.ok(hasLocation(set, { tree: 4 }) && hasLocation(set, { tree: 7 }) && !hasLocation(set, { tree: 5 }));
  assert.ok(hasLocation(set, { seat: 1, row: 0, slot: 2 }) && hasLocation(set, { seat: 1, row: 1, slot: 1 }));
  assert.ok(!hasLocation(set, { seat: 0, row: 0, slot: 2 }) && !hasLocation(set, { seat: 1, row: 0, slot: 3 }));
  const turn = [{ kind: 'end_turn' }, { kind: 'reveal', location: { tree: 0 } }, { kind: 'reveal', domain: { locations: set } }];
  assert.deepEqual(reveals(turn).map((r) => r.location), locations(set));
  assert.deepEqual(expand(turn), [{ kind: 'end_turn' }, ...locations(set).map((location) => ({ kind: 'reveal', location }))]);

  const move = { from: { tree: [0], fields: [[0, [0]]], slots: 5 }, to: { tree: [1], fields: [[0, [1]], [1, [13]]], slots: 5 }, rule: 'different_areas' };
  const all = moves([{ kind: 'end_turn' }, { kind: 'move', domain: move }]);
  // tree 0 → seat 0 and seat 1 fields; seat 0's card → the tree and seat 1's field.
  assert.equal(all.length, 4);
  assert.ok(all.every((m) => checkMove(move, m.from, m.to) === null));
  assert.equal(checkMove(move, { tree: 0 }, { tree: 1 }), 'move_within_tree');
  assert.equal(checkMove(move, { seat: 0, row: 0, slot: 0 }, { seat: 0, row: 0, slot: 1 }), 'move_within_field');
  assert.equal(checkMove(move, { tree: 5 }, { tree: 1 }), 'location_empty');
  assert.equal(checkMove(move, { tree: 0 }, { seat: 1, row: 0, slot: 0 }), 'location_occupied');
  // expand leaves the move domain to moves().
  assert.ok(isDomain(expand([{ kind: 'move', domain: move }])[0]));
  // Without a domain, the concrete moves.
  assert.deepEqual(moves([{ kind: 'move', from: { tree: 0 }, to: { tree: 1 } }]), [{ kind: 'move', from: { tree: 0 }, to: { tree: 1 } }]);

  const field = { occupied: [[0, 0], [1, 2]], rows: 4, slots: 5 };
  const A = { row: 0, slot: 0 };
  const B = { row: 1, slot: 2 };
  const E = { row: 3, slot: 4 };
  assert.deepEqual(rearrange(field, A, B).moves, [{ from: A, to: B }, { from: B, to: A }]); // a swap
  assert.deepEqual(rearrange(field, A, E).moves, [{ from: A, to: E }]); // a move to an empty cell
  assert.throws(() => rearrange(field, E, A), (e) => e.code === 'location_empty');
  assert.equal(checkRearrange(field, [{ from: A, to: B }]), 'location_occupied');
  assert.equal(checkRearrange(field, [{ from: A, to: E }, { from: B, to: E }]), 'invalid_mapping');
  assert.equal(checkRearrange(field, [{ from: A, to: { row: 4, slot: 0 } }]), 'invalid_location');
  assert.equal(checkRearrange(field, [{ from: A, to: B }, { from: B, to: E }]), null); // a chain
  assert.equal(checkRearrange(field, [{ from: A, to: A }, { from: B, to: B }]), 'rearrange_changes_nothing');
  assert.equal(checkRearrange(field, [{ from: A, to: A }, { from: B, to: E }]), null); // one card stays, one moves
  assert.throws(() => rearrange(field, A, A), (e) => e.code === 'rearrange_changes_nothing');

  const wish = { motifs: ['kite', 'skis', 'atlas', 'radio'], rows: 3, slots: 2, families: ['mueller'] };
  const mapping = { kite: { row: 0, slot: 0 }, skis: { row: 1, slot: 1 }, atlas: { row: 2, slot: 0 }, radio: { row: 2, slot: 1 } };
  assert.deepEqual(assign(wish, mapping, 'mueller').wishes[1], { motif: 'skis', row: 1, slot: 1 });
  assert.equal(assign(wish, new Map(Object.entries(mapping))).family, undefined);
  assert.throws(() => assign(wish, { ...mapping, radio: { row: 2, slot: 0 } }), (e) => e.code === 'invalid_assignment'); // a cell twice
  assert.throws(() => assign(wish, { ...mapping, atlas: { row: 1, slot: 0 }, radio: { row: 1, slot: 0 } }), (e) => e.code === 'invalid_assignment');
  assert.equal(checkAssign(wish, assign(wish, mapping).wishes, 'weber'), 'unknown_family');
  assert.equal(checkAssign(wish, [{ motif: 'kite', row: 0, slot: 0 }]), 'invalid_assignment');
  console.log('ok: helpers on hand-made domains');
}

// An assign that differs from the server's suggestion: the motifs in reverse order, row by row.
function reversedAssign(domain) {
  const mapping = {};
  [...domain.motifs].reverse().forEach((motif, i) => { mapping[motif] = { row: i % domain.rows, slot: Math.floor(i / domain.rows) }; });
  return assign(domain, mapping);
}

async function liveGame(url) {
  const c = new TinselClient({ url, name: 'Helga', WebSocket });
  await c.connect();
  await c.createRoom('unterm_baum', { maxPlayers: 2, startPlayer: 'host-picks', assignSeconds: 120, memorizeSeconds: 1, revealSeconds: 1, mainTimeoutSec: 120, maxRounds: 4 });
  await c.addBot();
  const used = { assign: 0, domainMove: 0, domainReveal: 0, rearrange: 0 };
  let acted = 0;
  const done = new Promise((resolve, reject) => {
    c.on('state', async (state) => {
      if (state.over) return resolve();
      if (!state.prompt?.seats.includes(state.seat) || acted === state.seq) return;
      acted = state.seq;
      try {
        const legal = state.legal;
        if (state.prompt.kind === 'assign') {
          await c.action(reversedAssign(domainOf(legal, 'assign')));
          used.assign += 1;
          return;
        }
        // One command per state: a move from the domain first, then a rearrange, then end the turn.
        const examples = sendable(legal).filter((e) => e.kind === 'move').map((e) => JSON.stringify(e));
        const fromDomain = moves(legal).filter((m) => !examples.includes(JSON.stringify(m)));
        const field = domainOf(legal, 'rearrange');
        const revealExample = sendable(legal).find((e) => e.kind === 'reveal');
        const revealFromDomain = reveals(legal).filter((r) => JSON.stringify(r) !== JSON.stringify(revealExample)).at(-1);
        if (revealFromDomain && used.domainReveal < 2) {
          await c.action(revealFromDomain);
          used.domainReveal += 1;
        } else if (domainOf(legal, 'move') && fromDomain.length) {
          // Into our own field when we can, so that there is something to rearrange.
          await c.action(fromDomain.find((m) => m.to.seat === state.seat) ?? fromDomain.at(-1));
          used.domainMove += 1;
        } else if (field && state.view.actions.used > 0 && used.rearrange < 3) {
          const cells = [];
          for (let row = 0; row < field.rows; row++) for (let slot = 0; slot < field.slots; slot++) cells.push({ row, slot });
          const occupied = field.occupied.map(([row, slot]) => ({ row, slot }));
          const from = occupied[0];
          // Somewhere else: a rearrangement that moves nothing is refused.
          const to = occupied.length > 1 ? occupied.at(-1) : cells.filter((x) => x.row !== from.row || x.slot !== from.slot).at(-1);
          await c.action(rearrange(field, from, to));
          used.rearrange += 1;
        } else {
          await c.action({ kind: 'end_turn' });
        }
      } catch (e) {
        reject(new Error(`refused: ${e.code} ${e.message}`));
      }
    });
  });
  await c.startGame(0);
  await within(180000, done, 'the Unterm Baum game to end');
  c.close();
  assert.equal(used.assign, 1);
  assert.ok(used.domainMove >= 1, 'a move from the domain was accepted');
  assert.ok(used.rearrange >= 1, 'a rearrange was accepted');
  assert.ok(used.domainReveal >= 1, 'a reveal from the domain was accepted');
  console.log(`ok: a live Unterm Baum game with ${JSON.stringify(used)}`);
}

// Christmas Penguins: on each of our turns, place a channel expanded from the domain (not the
// example) while we have channels; the server must accept each. Then end the game early.
async function livePenguins(url) {
  const c = new TinselClient({ url, name: 'Helga', WebSocket });
  await c.connect();
  await c.createRoom('christmas_penguins', { maxPlayers: 2, startPlayer: 'host-picks', mainTimeoutSec: 120, maxRounds: 3 });
  await c.addBot();
  let placed = 0;
  let acted = 0;
  const done = new Promise((resolve, reject) => {
    c.on('state', async (state) => {
      if (state.over) return resolve();
      if (!state.prompt?.seats.includes(state.seat) || acted === state.seq) return;
      acted = state.seq;
      try {
        const legal = state.legal;
        const domain = domainOf(legal, 'place_channel');
        if (domain && placed < 2) {
          const example = sendable(legal).find((e) => e.kind === 'place_channel');
          assert.deepEqual([example.a, example.b], domain.edges[0], 'the example is the first edge');
          const all = channels(legal);
          assert.equal(all.length, domain.edges.length);
          placed += 1;
          return void (await c.action(all.at(-1)));
        }
        const concrete = expand(legal).filter((e) => !isDomain(e) && e.kind !== 'stop' && e.kind !== 'place_channel');
        await c.action(concrete[0]);
      } catch (e) {
        reject(new Error(`refused: ${e.code} ${e.message}`));
      }
    });
  });
  await c.startGame(0);
  await within(180000, done, 'the Christmas Penguins game to end');
  c.close();
  assert.ok(placed >= 1, 'a channel from the domain was accepted');
  console.log(`ok: a live Christmas Penguins game with ${placed} channels from the domain`);
}

let server;
try {
  handMade();
  const s = await startServer(args.server, ['--auto-play-delay-ms', '20']);
  server = s.proc;
  await within(200000, liveGame(`ws://127.0.0.1:${s.port}/ws`), 'the live game');
  await within(200000, livePenguins(`ws://127.0.0.1:${s.port}/ws`), 'the live Christmas Penguins game');
  server.child.kill('SIGTERM');
  await within(10000, server.exited, 'the server to stop');
  process.exit(0);
} catch (e) {
  console.log(`FAILED: ${e.stack || e.message}`);
  if (server) show(server);
  killAll();
  process.exit(1);
}
