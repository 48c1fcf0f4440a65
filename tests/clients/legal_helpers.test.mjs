#!/usr/bin/env node
// The client library's helpers for `legal` (clients/js/legal.js): first on hand-made domains, then
// in a real Unterm Baum game against a server bot, where every command they build must be
// accepted: an assign from a motif → cell mapping, moves expanded from the move domain, swaps and
// moves of the rearrange domain.
//
//   node legal_helpers.test.mjs --server PATH
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { TinselClient, assign, checkAssign, checkMove, checkRearrange, domainOf, isDomain, moves, rearrange, sendable } from '../../clients/js/index.js';
import { parseArgs, startServer, killAll, within, show } from '../support/processes.mjs';

const args = parseArgs(process.argv.slice(2));

function handMade() {
  // Concrete entries pass through; domain entries do not (Christmas Penguins' legal is concrete).
  const legal = [{ kind: 'roll' }, { kind: 'place_channel', a: 1, b: 2 }, { kind: 'place_channel', domain: { a: 'floe id' } }];
  assert.deepEqual(sendable(legal), legal.slice(0, 2));
  assert.ok(isDomain(legal[2]) && !isDomain(legal[0]));

  const move = { from: [{ tree: 0 }, { seat: 0, row: 0, slot: 0 }], to: [{ tree: 1 }, { seat: 0, row: 0, slot: 1 }, { seat: 1, row: 2, slot: 3 }], rule: 'different_areas' };
  const all = moves([{ kind: 'end_turn' }, { kind: 'move', domain: move }]);
  // tree 0 → seat 0 and seat 1 fields; seat 0's card → the tree and seat 1's field.
  assert.equal(all.length, 4);
  assert.ok(all.every((m) => checkMove(move, m.from, m.to) === null));
  assert.equal(checkMove(move, { tree: 0 }, { tree: 1 }), 'move_within_tree');
  assert.equal(checkMove(move, { seat: 0, row: 0, slot: 0 }, { seat: 0, row: 0, slot: 1 }), 'move_within_field');
  assert.equal(checkMove(move, { tree: 5 }, { tree: 1 }), 'location_empty');
  // Without a domain, the concrete moves.
  assert.deepEqual(moves([{ kind: 'move', from: { tree: 0 }, to: { tree: 1 } }]), [{ kind: 'move', from: { tree: 0 }, to: { tree: 1 } }]);

  const field = { occupied: [{ row: 0, slot: 0 }, { row: 1, slot: 2 }], rows: 4, slots: 5 };
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
  const used = { assign: 0, domainMove: 0, rearrange: 0 };
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
        if (domainOf(legal, 'move') && fromDomain.length) {
          // Into our own field when we can, so that there is something to rearrange.
          await c.action(fromDomain.find((m) => m.to.seat === state.seat) ?? fromDomain.at(-1));
          used.domainMove += 1;
        } else if (field && state.view.actions.used > 0 && used.rearrange < 3) {
          const cells = [];
          for (let row = 0; row < field.rows; row++) for (let slot = 0; slot < field.slots; slot++) cells.push({ row, slot });
          const from = field.occupied[0];
          // Somewhere else: a rearrangement that moves nothing is refused.
          const to = field.occupied.length > 1 ? field.occupied.at(-1) : cells.filter((x) => x.row !== from.row || x.slot !== from.slot).at(-1);
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
  console.log(`ok: a live Unterm Baum game with ${JSON.stringify(used)}`);
}

let server;
try {
  handMade();
  const s = await startServer(args.server, ['--auto-play-delay-ms', '20']);
  server = s.proc;
  await within(200000, liveGame(`ws://127.0.0.1:${s.port}/ws`), 'the live game');
  server.child.kill('SIGTERM');
  await within(10000, server.exited, 'the server to stop');
  process.exit(0);
} catch (e) {
  console.log(`FAILED: ${e.stack || e.message}`);
  if (server) show(server);
  killAll();
  process.exit(1);
}
