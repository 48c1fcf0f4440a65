// A game's settings as the server declares them (`welcome.games[i].options`, in declaration order:
// key, type "integer" | "choice" | "boolean", default, and where they apply min, max, choices,
// `also` (words accepted besides the integer range, e.g. "off"), unit "seconds" and seats
// "min" | "max"; docs/protocol.md), and how the picker offers each one. The ranges, choices and
// defaults come from there alone; the words for them are the client's (catalogue.js). No imports:
// tests/browser/option_specs.test.mjs runs these functions in Node.

// The specifications of a game's settings, [] when the server names none.
export function optionSpecs(welcome, gameId) {
  return welcome?.games?.find((x) => x.id === gameId)?.options || [];
}

// { key: default } of the specifications.
export function defaultsOf(specs) {
  return Object.fromEntries(specs.map((s) => [s.key, s.default]));
}

// The most seats a room of the game may offer (its seats option's max), or undefined.
export function seatsMax(specs) {
  return specs.find((s) => s.seats === 'max')?.max;
}

// Whether the server accepts `value` for the setting.
export function accepts(spec, value) {
  if (spec.also?.includes(value)) return true;
  switch (spec.type) {
    case 'integer': return Number.isInteger(value) && !(value < spec.min) && !(value > spec.max);
    case 'choice': return spec.choices.includes(value);
    case 'boolean': return typeof value === 'boolean';
    default: return false;
  }
}

// An integer range this short (with words besides it, as "auto") is offered as a list of all its
// values; a longer one as a text field that takes a number or one of the words.
const listedRange = 10;

// How the picker offers a setting: a checkbox, a list of `choices`, a number field with `min` and
// `max`, or a text field. `presets`: the values the catalogue offers in a list where the server
// accepts a wide range (a turn's time: 1 to 3600 seconds or "off"; a family picks from a few); only
// those the server accepts are offered.
export function fieldOf(spec, presets) {
  if (spec.type === 'boolean') return { kind: 'bool' };
  if (spec.type === 'choice') return { kind: 'select', choices: spec.choices };
  if (spec.type !== 'integer') return { kind: 'text' };
  if (presets) return { kind: 'select', choices: presets.filter((v) => accepts(spec, v)) };
  if (spec.also?.length) {
    if (spec.max - spec.min >= listedRange) return { kind: 'text' };
    const range = Array.from({ length: spec.max - spec.min + 1 }, (_, i) => spec.min + i);
    return { kind: 'select', choices: [...spec.also, ...range] };
  }
  return { kind: 'number', min: spec.min, max: spec.max };
}

// The unit of a timer setting, 's' or 'ms' (null for none): as the server says, else by the key's
// ending (…Sec, …Seconds, …Ms), as the options are named.
export function unitOf(spec) {
  if (spec.unit === 'seconds') return 's';
  if (spec.unit === 'milliseconds' || spec.unit === 'ms') return 'ms';
  return /(Sec|Seconds)$/.test(spec.key) ? 's' : /Ms$/.test(spec.key) ? 'ms' : null;
}
