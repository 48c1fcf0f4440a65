#!/usr/bin/env node
// The option picker's reading of the server's option specifications (clients/web/js/options.js),
// on a welcome message of the shape the server sends (welcome.games[i].options, docs/protocol.md):
// ranges, choices and defaults come from the server, the values offered in a list where a range
// is wide from the catalogue's presets, and only values the server accepts are offered.
//
//   node tests/browser/option_specs.test.mjs
import assert from 'node:assert/strict';
import { accepts, defaultsOf, fieldOf, optionSpecs, seatsMax, unitOf } from '../../clients/web/js/options.js';

const options = [
  { key: 'maxPlayers', type: 'integer', default: 4, min: 2, max: 6, seats: 'max' },
  { key: 'startPlayer', type: 'choice', default: 'random', choices: ['random', 'host-picks'] },
  { key: 'rerollEmptyReward', type: 'boolean', default: false },
  { key: 'mainTimeoutSec', type: 'integer', default: 60, min: 1, max: 3600, also: ['off'], unit: 'seconds' },
  { key: 'reindeerCount', type: 'integer', default: 'auto', min: 1, max: 5, also: ['auto'] },
  { key: 'decoys', type: 'integer', default: 'auto', min: 0, max: 40, also: ['auto'] },
  { key: 'reactionWindowMs', type: 'integer', default: 4000, min: 0, max: 60000 },
];
const welcome = { games: [{ id: 'happy_holidays', min_players: 2, max_players: 4, options }, { id: 'other' }] };
const specs = optionSpecs(welcome, 'happy_holidays');
const spec = (key) => specs.find((s) => s.key === key);

// What the server sends, in its order; nothing for a game without specifications or an unknown one.
assert.deepEqual(specs.map((s) => s.key), options.map((o) => o.key));
assert.deepEqual(optionSpecs(welcome, 'other'), []);
assert.deepEqual(optionSpecs(null, 'happy_holidays'), []);

// Defaults and the seats offered at most.
assert.deepEqual(defaultsOf(specs), {
  maxPlayers: 4, startPlayer: 'random', rerollEmptyReward: false, mainTimeoutSec: 60, reindeerCount: 'auto', decoys: 'auto', reactionWindowMs: 4000,
});
assert.equal(seatsMax(specs), 6);
assert.equal(seatsMax([spec('startPlayer')]), undefined);

// What the server accepts: the range, the words besides it, the choices, a boolean.
assert.ok(accepts(spec('mainTimeoutSec'), 1) && accepts(spec('mainTimeoutSec'), 3600) && accepts(spec('mainTimeoutSec'), 'off'));
assert.ok(!accepts(spec('mainTimeoutSec'), 0) && !accepts(spec('mainTimeoutSec'), 3601) && !accepts(spec('mainTimeoutSec'), 2.5) && !accepts(spec('mainTimeoutSec'), 'auto'));
assert.ok(accepts(spec('startPlayer'), 'host-picks') && !accepts(spec('startPlayer'), 'oldest'));
assert.ok(accepts(spec('rerollEmptyReward'), true) && !accepts(spec('rerollEmptyReward'), 'true'));

// How each is offered: a checkbox, the server's choices, a number field with its range.
assert.deepEqual(fieldOf(spec('rerollEmptyReward')), { kind: 'bool' });
assert.deepEqual(fieldOf(spec('startPlayer')), { kind: 'select', choices: ['random', 'host-picks'] });
assert.deepEqual(fieldOf(spec('maxPlayers')), { kind: 'number', min: 2, max: 6 });
// A short range with a word besides it: every value in a list, the word first.
assert.deepEqual(fieldOf(spec('reindeerCount')), { kind: 'select', choices: ['auto', 1, 2, 3, 4, 5] });
// A long one: a field that takes a number or the word.
assert.deepEqual(fieldOf(spec('decoys')), { kind: 'text' });
// A wide range with the catalogue's presets: the presets the server accepts, in their order.
assert.deepEqual(fieldOf(spec('mainTimeoutSec'), [15, 30, 60, 120, 300, 'off']), { kind: 'select', choices: [15, 30, 60, 120, 300, 'off'] });
assert.deepEqual(fieldOf({ ...spec('mainTimeoutSec'), max: 100, also: [] }, [15, 30, 60, 120, 300, 'off']), { kind: 'select', choices: [15, 30, 60] });
// A type the picker does not know: a text field.
assert.deepEqual(fieldOf({ key: 'stones', type: 'text', default: '2/2/2' }), { kind: 'text' });

// Timers: in seconds as the server says, else by the name (…Ms in milliseconds).
assert.equal(unitOf(spec('mainTimeoutSec')), 's');
assert.equal(unitOf(spec('reactionWindowMs')), 'ms');
assert.equal(unitOf({ key: 'x', unit: 'milliseconds' }), 'ms');
assert.equal(unitOf(spec('maxPlayers')), null);
console.log('ok: the picker reads ranges, choices and defaults from the server');
