// Helpers for `state.legal` (docs/protocol.md, "Legal entries"). Every entry without a `domain` is
// a command ready to send as it is. A `domain` entry describes a parameter with too many values to
// list; for Unterm Baum the domains are exact, so these helpers turn them into commands:
// every `move`, a valid `rearrange`, an `assign` from a motif → cell mapping. Christmas Penguins'
// domain entries are descriptions for people only; its concrete entries pass through sendable().

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
const cellKey = (cell) => `${cell.row},${cell.slot}`;

// Unterm Baum --------------------------------------------------------------------------------

// The area of a location: the tree, or one seat's field.
function area(location) {
  return 'tree' in location ? 'tree' : `seat ${location.seat}`;
}

/** Whether a `move` from → to is allowed by the move domain: both listed, different areas. */
export function checkMove(domain, from, to) {
  if (!domain.from.some((l) => key(l) === key(from))) return 'location_empty';
  if (!domain.to.some((l) => key(l) === key(to))) return 'location_occupied';
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
  for (const from of domain.from) {
    for (const to of domain.to) if (area(from) !== area(to)) out.push({ kind: 'move', from, to });
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
export const untermBaum = { moves, checkMove, rearrange, checkRearrange, assign, checkAssign };
