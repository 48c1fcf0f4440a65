// Helpers for `state.legal` (docs/protocol.md, "Legal entries"). Every entry without a `domain` is
// a command ready to send as it is. A `domain` entry describes a parameter with too many values to
// list; the domains are exact, so these helpers turn them into commands. Christmas Penguins: every
// green-stone move, channel and flight (greenMoves, channels, flights, or all at once with expand);
// Unterm Baum: every reveal and move (locations, reveals, moves; expand lists the reveals), a valid
// `rearrange`, an `assign` from a motif → cell mapping.

/** Whether a legal entry describes a domain (not sendable) rather than a command. */
export function isDomain(entry) {
  return entry !== null && typeof entry === 'object' && 'domain' in entry;
}

/** The entries of `legal` that can be sent as they are. */
export function sendable(legal) {
  return (legal ?? []).filter((entry) => !isDomain(entry));
}

/** The domain entry of this kind in `legal`, or null. */
export function domainOf(legal, kind) {
  return (legal ?? []).find((entry) => entry.kind === kind && isDomain(entry))?.domain ?? null;
}

const key = (value) => JSON.stringify(value, Object.keys(value).sort());
// A cell of the own field: {row, slot} or, in the rearrange domain's `occupied`, [row, slot].
const cellKey = (cell) => (Array.isArray(cell) ? `${cell[0]},${cell[1]}` : `${cell.row},${cell.slot}`);
// A command's identity: its members in sorted order, arrays kept in order.
const commandKey = (value) => JSON.stringify(value, (k, v) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.keys(v).sort().map((x) => [x, v[x]])) : v));

// Christmas Penguins ------------------------------------------------------------------------

/**
 * Every green-stone move of the green domain
 * `{"floes":[F…],"cells":[[q,r] or [q,r,F]…],"pairs":[[F,q,r]…],"rule":"floes_x_cells"}`:
 * each floe of `floes` to each cell of `cells` except a cell whose third number is that floe (the
 * only floe it touches), and every pair of `pairs`; in order of floe, then of the cell (by r, then q).
 * Pass `legal` (or the domain itself). Without a domain: the concrete green moves of `legal`.
 */
export function greenMoves(legalOrDomain) {
  const domain = Array.isArray(legalOrDomain) ? greenDomain(legalOrDomain) : legalOrDomain;
  if (!domain) return sendable(legalOrDomain).filter((e) => e.kind === 'use_stone' && e.stone === 'green');
  const byFloe = new Map();
  const add = (floe, q, r) => {
    if (!byFloe.has(floe)) byFloe.set(floe, []);
    byFloe.get(floe).push({ kind: 'use_stone', stone: 'green', floe, to: [q, r] });
  };
  for (const floe of domain.floes) for (const [q, r, only] of domain.cells) if (only !== floe) add(floe, q, r);
  for (const [floe, q, r] of domain.pairs) add(floe, q, r);
  return [...byFloe.keys()].sort((a, b) => a - b).flatMap((f) => byFloe.get(f));
}

/** The green domain of `legal` (the `use_stone` entry with stone "green" and a domain), or null. */
export function greenDomain(legal) {
  return (legal ?? []).find((e) => e.kind === 'use_stone' && e.stone === 'green' && isDomain(e))?.domain ?? null;
}

/** Whether the green domain allows moving `floe` to the cell [q, r]. */
export function checkGreen(domain, floe, to) {
  const [q, r] = to;
  if (domain.pairs.some(([f, pq, pr]) => f === floe && pq === q && pr === r)) return true;
  if (!domain.floes.includes(floe)) return false;
  return domain.cells.some(([cq, cr, only]) => cq === q && cr === r && only !== floe);
}

/** Every channel of the channel domain `{"edges":[[a,b]…]}` (or the concrete channels of `legal`). */
export function channels(legal) {
  const domain = domainOf(legal, 'place_channel');
  if (!domain) return sendable(legal).filter((e) => e.kind === 'place_channel');
  return domain.edges.map(([a, b]) => ({ kind: 'place_channel', a, b }));
}

/**
 * Every flight of the flee domain `{"to":[F…],"colours":[C…],"rule":"to_x_colours"}`: each floe
 * with each colour, floe by floe (or the concrete flights of `legal`).
 */
export function flights(legal) {
  const domain = domainOf(legal, 'flee');
  if (!domain) return sendable(legal).filter((e) => e.kind === 'flee');
  return domain.to.flatMap((to) => domain.colours.map((colour) => ({ kind: 'flee', colour, to })));
}

// Unterm Baum: a set of locations {"tree":SLOTS,"fields":[[seat,SLOTS]…],"slots":C} ----------

// The slot indices of SLOTS: numbers, and runs [first, last] of three or more.
function indices(slots) {
  const out = [];
  for (const x of slots ?? []) {
    if (Array.isArray(x)) for (let i = x[0]; i <= x[1]; i++) out.push(i);
    else out.push(x);
  }
  return out;
}

/**
 * The locations of a location set as objects, {tree: i} and {seat, row, slot}, in board order
 * (the tree, then field by field, row by row). A field slot's index is row × `slots` + slot.
 */
export function locations(set) {
  if (Array.isArray(set)) return set; // already a list of locations
  const tree = indices(set.tree).map((i) => ({ tree: i }));
  const fields = (set.fields ?? []).flatMap(([seat, slots]) =>
    indices(slots).map((i) => ({ seat, row: Math.floor(i / set.slots), slot: i % set.slots })));
  return [...tree, ...fields];
}

const inSlots = (slots, i) => (slots ?? []).some((x) => (Array.isArray(x) ? i >= x[0] && i <= x[1] : x === i));

/** Whether a location set holds the location (an object {tree} or {seat, row, slot}). */
export function hasLocation(set, l) {
  if (Array.isArray(set)) return set.some((x) => key(x) === key(l));
  if ('tree' in l) return inSlots(set.tree, l.tree);
  if (!(l.slot >= 0 && l.slot < set.slots)) return false;
  return (set.fields ?? []).some(([seat, slots]) => seat === l.seat && inSlots(slots, l.row * set.slots + l.slot));
}

/** Every reveal of the reveal domain `{"locations": set}` (or the concrete reveals of `legal`). */
export function reveals(legal) {
  const domain = domainOf(legal, 'reveal');
  if (!domain) return sendable(legal).filter((e) => e.kind === 'reveal');
  return locations(domain.locations).map((location) => ({ kind: 'reveal', location }));
}

// Both games ---------------------------------------------------------------------------------

const expanders = {
  place_channel: channels,
  flee: flights,
  reveal: reveals,
};

/**
 * `legal` with each domain that stands for a list of single commands written out, in the server's
 * order: Christmas Penguins' green moves, channels and flights, Unterm Baum's reveals. The example
 * entry the server puts before each such domain is not repeated. Other domains (Unterm Baum's
 * assign, move, rearrange) stay as they are: expand their commands with assign(), moves(),
 * rearrange(). Every entry of the result without `domain` is sendable.
 */
export function expand(legal) {
  const list = legal ?? [];
  const lists = new Map(); // an expandable domain entry -> its commands
  const covered = new Set();
  for (const e of list) {
    if (!isDomain(e)) continue;
    const commands = e.kind === 'use_stone' && e.stone === 'green' ? greenMoves(e.domain) : expanders[e.kind]?.([e]);
    if (!commands) continue;
    lists.set(e, commands);
    for (const c of commands) covered.add(commandKey(c));
  }
  const out = [];
  for (const e of list) {
    if (lists.has(e)) out.push(...lists.get(e));
    else if (isDomain(e) || !covered.has(commandKey(e))) out.push(e);
  }
  return out;
}


// Unterm Baum --------------------------------------------------------------------------------

// The area of a location: the tree, or one seat's field.
function area(location) {
  return 'tree' in location ? 'tree' : `seat ${location.seat}`;
}

/** Whether a `move` from → to is allowed by the move domain: both listed, different areas. */
export function checkMove(domain, from, to) {
  if (!hasLocation(domain.from, from)) return 'location_empty';
  if (!hasLocation(domain.to, to)) return 'location_occupied';
  if (area(from) === area(to)) return 'tree' in from ? 'move_within_tree' : 'move_within_field';
  return null;
}

/**
 * Every move the seat may send: the move domain of `legal` (from × to, in different areas)
 * expanded into commands, or the concrete `move` entries when there is no domain.
 */
export function moves(legal) {
  const domain = domainOf(legal, 'move');
  if (!domain) return sendable(legal).filter((entry) => entry.kind === 'move');
  const out = [];
  const targets = locations(domain.to);
  for (const from of locations(domain.from)) {
    for (const to of targets) if (area(from) !== area(to)) out.push({ kind: 'move', from, to });
  }
  return out;
}

/**
 * Why a rearrange mapping would be refused (an error code of the game), or null if it is valid
 * for the rearrange domain: every `from` holds a card, no cell twice as `from` or as `to`, every
 * `to` inside the grid and empty or itself a `from`, and at least one card moving. (The server
 * also counts a turn's rearrangements: after 20, `legal` has no rearrange domain.)
 */
export function checkRearrange(domain, moveList) {
  if (!Array.isArray(moveList) || moveList.length === 0) return 'invalid_command';
  const occupied = new Set(domain.occupied.map(cellKey));
  const inside = (c) => Number.isInteger(c.row) && Number.isInteger(c.slot) && c.row >= 0 && c.row < domain.rows && c.slot >= 0 && c.slot < domain.slots;
  const froms = new Set();
  const tos = new Set();
  for (const { from, to } of moveList) {
    if (!inside(from) || !inside(to)) return 'invalid_location';
    if (!occupied.has(cellKey(from))) return 'location_empty';
    if (froms.has(cellKey(from)) || tos.has(cellKey(to))) return 'invalid_mapping';
    froms.add(cellKey(from));
    tos.add(cellKey(to));
  }
  for (const to of tos) if (occupied.has(to) && !froms.has(to)) return 'location_occupied';
  if (moveList.every(({ from, to }) => cellKey(from) === cellKey(to))) return 'rearrange_changes_nothing';
  return null;
}

/**
 * A rearrange that brings the card at `from` to `to`: a swap when `to` holds a card, else a
 * move. Throws if `from` is empty, a cell is outside the grid, or `from` is `to`.
 */
export function rearrange(domain, from, to) {
  const occupied = domain.occupied.some((c) => cellKey(c) === cellKey(to));
  const moveList = [{ from: { row: from.row, slot: from.slot }, to: { row: to.row, slot: to.slot } }];
  if (occupied && cellKey(from) !== cellKey(to)) moveList.push({ from: moveList[0].to, to: moveList[0].from });
  const why = checkRearrange(domain, moveList);
  if (why) throw Object.assign(new Error(`rearrange: ${why}`), { code: why });
  return { kind: 'rearrange', moves: moveList };
}

/**
 * Why an assign's wishes would be refused ('invalid_assignment', 'unknown_family'), or null:
 * each of the domain's motifs exactly once, on distinct cells inside rows × slots, every row used.
 */
export function checkAssign(domain, wishes, family) {
  if (family !== undefined && family !== null && !domain.families.includes(family)) return 'unknown_family';
  if (!Array.isArray(wishes) || wishes.length !== domain.motifs.length) return 'invalid_assignment';
  const motifs = new Set(domain.motifs);
  const seen = new Set();
  const cells = new Set();
  const rows = new Set();
  for (const w of wishes) {
    if (!motifs.has(w.motif) || seen.has(w.motif)) return 'invalid_assignment';
    if (!Number.isInteger(w.row) || !Number.isInteger(w.slot) || w.row < 0 || w.row >= domain.rows || w.slot < 0 || w.slot >= domain.slots) return 'invalid_assignment';
    if (cells.has(cellKey(w))) return 'invalid_assignment';
    seen.add(w.motif);
    cells.add(cellKey(w));
    rows.add(w.row);
  }
  return rows.size === domain.rows ? null : 'invalid_assignment';
}

/**
 * An `assign` command from a mapping motif → {row, slot} (an object or a Map) over the assign
 * domain; `family` optional (without it the server gives the first free sheet). Throws with
 * `code` if the mapping is not valid.
 */
export function assign(domain, mapping, family) {
  const entries = mapping instanceof Map ? [...mapping] : Object.entries(mapping);
  const wishes = entries.map(([motif, cell]) => ({ motif, row: cell.row, slot: cell.slot }));
  const why = checkAssign(domain, wishes, family);
  if (why) throw Object.assign(new Error(`assign: ${why}`), { code: why });
  const command = { kind: 'assign', wishes };
  if (family !== undefined && family !== null) command.family = family;
  return command;
}

/** The Unterm Baum helpers under one name. */
export const untermBaum = { moves, checkMove, reveals, locations, hasLocation, rearrange, checkRearrange, assign, checkAssign };

/** The Christmas Penguins helpers under one name. */
export const christmasPenguins = { greenMoves, greenDomain, checkGreen, channels, flights };
