#!/usr/bin/env node
// The client library's JSON Patch (clients/js/json_patch.js) and how the session uses it for views
// that travel as changes (hello `views: "changes"`, docs/protocol.md "The state push"):
//  - every RFC 6902 operation, on objects and arrays, with nulls as values (a view has them), and
//    escaped pointers; a path that is not there, an unknown op and a failed test throw, and the
//    document given is never changed;
//  - the session applies `view_patch` to the view of the state before and hands on a whole view;
//    a patch that does not follow (a missing state) or does not apply holds the state, sends
//    `full_view`, and delivers the held events with the whole view that answers it.
//
//   node json_patch.test.mjs
import assert from 'node:assert/strict';
import { applyPatch, PatchError } from '../../clients/js/json_patch.js';
import { TinselClient } from '../../clients/js/index.js';

let checks = 0;
function check(name, fn) {
  fn();
  checks += 1;
  console.log(`ok - ${name}`);
}

check('add, remove and replace on objects; nulls are values, not deletions', () => {
  const doc = { phase: 'roll', result: null, tree: { red: 8 } };
  const out = applyPatch(doc, [
    { op: 'replace', path: '/phase', value: 'bank' },
    { op: 'add', path: '/winner', value: null },
    { op: 'replace', path: '/result', value: { winners: [0] } },
    { op: 'remove', path: '/tree/red' },
    { op: 'add', path: '/tree/blue', value: 7 },
  ]);
  assert.deepEqual(out, { phase: 'bank', result: { winners: [0] }, winner: null, tree: { blue: 7 } });
  assert.deepEqual(doc, { phase: 'roll', result: null, tree: { red: 8 } }, 'the base view is left as it was');
});

check('arrays change per index: replace inside an element, add at an index and at the end, remove', () => {
  const doc = { players: [{ seat: 0, score: 1 }, { seat: 1, score: 2 }], log: [1, 2, 3] };
  const out = applyPatch(doc, [
    { op: 'replace', path: '/players/1/score', value: 5 },
    { op: 'add', path: '/log/1', value: 9 },
    { op: 'add', path: '/log/-', value: 4 },
    { op: 'remove', path: '/log/0' },
  ]);
  assert.deepEqual(out, { players: [{ seat: 0, score: 1 }, { seat: 1, score: 5 }], log: [9, 2, 3, 4] });
});

check('move, copy, test, the whole document, and ~0 ~1 escapes', () => {
  const doc = { 'a/b': { 'c~d': 1 }, x: [1] };
  const out = applyPatch(doc, [
    { op: 'test', path: '/a~1b/c~0d', value: 1 },
    { op: 'copy', from: '/a~1b', path: '/y' },
    { op: 'move', from: '/x', path: '/z' },
  ]);
  assert.deepEqual(out, { 'a/b': { 'c~d': 1 }, y: { 'c~d': 1 }, z: [1] });
  assert.deepEqual(applyPatch(doc, [{ op: 'replace', path: '', value: [1] }]), [1]);
});

check('what does not apply throws a PatchError', () => {
  const doc = { players: [{ score: 1 }] };
  for (const patch of [
    [{ op: 'replace', path: '/missing', value: 1 }],
    [{ op: 'remove', path: '/players/1' }],
    [{ op: 'add', path: '/players/5', value: 1 }],
    [{ op: 'replace', path: '/players/0/score/deeper', value: 1 }],
    [{ op: 'test', path: '/players/0/score', value: 2 }],
    [{ op: 'frobnicate', path: '/players' }],
    [{ op: 'add', path: 'players', value: 1 }],
    { op: 'add', path: '/x', value: 1 },
  ]) assert.throws(() => applyPatch(doc, patch), PatchError, JSON.stringify(patch));
  assert.deepEqual(doc, { players: [{ score: 1 }] });
});

// A session without a server: a fake socket records what the client sends; frames are fed in.
function offlineClient() {
  const client = new TinselClient({ url: 'ws://fake', name: 'T', WebSocket: class {} });
  const sent = [];
  client.socket = { readyState: 1, send: (t) => sent.push(JSON.parse(t)), close() {} };
  const states = [];
  client.on('state', (s, info) => states.push({ s, info }));
  const feed = (m) => client.receive(JSON.stringify(m));
  return { client, sent, states, feed };
}
const state = (seq, more) => ({ type: 'state', room: 'K7M2QX', seq, seat: 0, legal: [], prompt: null, over: false, result: null, ...more });

check('hello asks for changes unless viewChanges is false', () => {
  const sends = [];
  const fakeSocket = { readyState: 1, send: (t) => sends.push(JSON.parse(t)) };
  for (const viewChanges of [undefined, false]) {
    const c = new TinselClient({ url: 'ws://fake', name: 'T', WebSocket: class {}, ...(viewChanges === undefined ? {} : { viewChanges }) });
    c.socket = fakeSocket;
    c.hello(fakeSocket);
  }
  assert.equal(sends[0].views, 'changes');
  assert.equal(sends[1].views, undefined);
});

check('a view_patch is applied to the view of the state before; listeners get whole views', () => {
  const { states, feed, sent } = offlineClient();
  feed(state(5, { view: { turn: 1, players: [{ score: 0 }, { score: 0 }], result: null }, events: [{ kind: 'a' }] }));
  feed(state(6, { view_patch: [{ op: 'replace', path: '/players/1/score', value: 3 }], events: [{ kind: 'b' }] }));
  feed(state(7, { view_patch: [{ op: 'replace', path: '/turn', value: 2 }], events: [] }));
  assert.equal(states.length, 3);
  assert.deepEqual(states[1].s.view, { turn: 1, players: [{ score: 0 }, { score: 3 }], result: null });
  assert.deepEqual(states[2].s.view, { turn: 2, players: [{ score: 0 }, { score: 3 }], result: null });
  assert.equal(states[2].s.view_patch, undefined);
  assert.deepEqual(states[0].s.view.players[1], { score: 0 }, 'an earlier view is not changed by a later patch');
  assert.equal(sent.length, 0);
});

check('a patch that does not apply holds the state, asks for full_view, and the answer delivers all held events', () => {
  const { states, feed, sent } = offlineClient();
  feed(state(5, { view: { turn: 1 }, events: [] }));
  feed(state(6, { view_patch: [{ op: 'replace', path: '/nope', value: 1 }], events: [{ kind: 'b' }] }));
  feed(state(7, { view_patch: [{ op: 'replace', path: '/turn', value: 3 }], events: [{ kind: 'c' }] }));
  assert.equal(states.length, 1, 'nothing is delivered without a whole view');
  assert.equal(sent.length, 1);
  assert.equal(sent[0].type, 'full_view');
  // The answer: the current seq again, no events, the whole view.
  feed(state(7, { view: { turn: 3, extra: true }, events: [] }));
  assert.equal(states.length, 2);
  assert.equal(states[1].s.seq, 7);
  assert.deepEqual(states[1].s.view, { turn: 3, extra: true });
  assert.deepEqual(states[1].s.events, [{ kind: 'b' }, { kind: 'c' }]);
  assert.equal(states[1].info.gap, false);
  feed(state(8, { view_patch: [{ op: 'remove', path: '/extra' }], events: [] }));
  assert.deepEqual(states[2].s.view, { turn: 3 });
});

check('a patch after a missing state (seq not one above) is not applied but recovered', () => {
  const { states, feed, sent } = offlineClient();
  feed(state(5, { view: { turn: 1 }, events: [] }));
  feed(state(7, { view_patch: [{ op: 'replace', path: '/turn', value: 9 }], events: [{ kind: 'x' }] }));
  assert.equal(states.length, 1);
  assert.equal(sent[0].type, 'full_view');
  feed(state(8, { view: { turn: 10 }, events: [{ kind: 'y' }] }));
  assert.deepEqual(states[1].s.view, { turn: 10 });
  assert.deepEqual(states[1].s.events, [{ kind: 'x' }, { kind: 'y' }]);
  assert.equal(states[1].s.seq, 8);
});

console.log(`${checks} checks passed`);
