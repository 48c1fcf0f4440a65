// Christmas Penguins: the log's lines and the banners' words (`eventText`), each in the words of
// the moment it happened, against the board replayed from the log.
import { t } from '../i18n.js';
import { aColour, colourName, figureOn, isMe, penguinOf, where } from './cp_words.js';

// A log line keeps the words it had when it happened: its floes are described against the board
// as it was just before the event, replayed from the log itself, never against the board on screen
// now (where the tree has moved on since). The log starts with `game_started` (the server sends
// the game from its start on every join), so the board is rebuilt from data that does not change:
// the ice's first layout (the hexagon of the view's radius, floe ids by row, then column), then
// each event that moves the tree, a figure or a floe. A reload therefore shows the same words as
// before. A log cut at its start (`log_truncated`, past 2000 events) or with a gap (`caught_up`
// after a reconnect) cannot be replayed: each of its lines (from the gap on) is then described
// against the board on screen when it is first shown, and kept so.
const boards = new WeakMap(); // event -> the board just before it
const pos = { edge: 'edge', hut: 'at_hut' };
function firstBoard(v) {
  const R = v.radius;
  const cells = [];
  for (let r = -R; r <= R; r++) for (let q = Math.max(-R, -r - R); q <= Math.min(R, -r + R); q++) cells.push([q, r]);
  if (cells.length !== v.cells.length) return null; // not the ice this page knows: described as now
  return { cells, tree: null, hut: v.hut, radius: R, santa: v.hut, bear: null, penguins: {} };
}
function nowBoard(v) {
  const penguins = {};
  for (const p of v.players) penguins[p.seat] = p.penguin;
  return { cells: v.cells.map((c) => [...c]), tree: v.tree, hut: v.hut, radius: v.radius, santa: v.santa, bear: v.bear, penguins, now: true };
}
// The board after event `ev` (a new object where anything changed).
function afterEvent(b, ev) {
  const n = { ...b };
  const pen = (seat, to) => { n.penguins = { ...n.penguins, [seat]: to }; };
  switch (ev.kind) {
    case 'tree_placed': n.tree = ev.floe; break;
    case 'tree_relocated': n.tree = ev.to; break;
    case 'bear_placed': n.bear = ev.floe; break;
    case 'bear_moved': n.bear = ev.to; break;
    case 'penguin_placed': case 'entered_hut_floe': pen(ev.seat, ev.floe); break;
    case 'moved': if (ev.figure === 'santa') n.santa = ev.to; else pen(ev.seat, ev.to); break;
    case 'fled': pen(ev.seat, ev.to); break;
    case 'pushed': (ev.penguins || []).forEach((seat, i) => pen(seat, ev.chain[i])); break;
    case 'roles_swapped': n.santa = ev.santa_floe; pen(ev.santa_seat, pos.edge); pen(ev.at_hut_seat, pos.hut); break;
    case 'stone_used':
      if (ev.stone === 'green' && Array.isArray(ev.to)) {
        n.cells = b.cells.slice();
        n.cells[ev.floe] = ev.to;
      } else if (typeof ev.to === 'number') {
        // Red or blue: the own penguin and the figure that stood on `to` swap places.
        const other = Object.keys(b.penguins).find((s) => b.penguins[s] === ev.to && Number(s) !== ev.seat);
        if (other !== undefined) pen(other, ev.from);
        else if (b.santa === ev.to) n.santa = ev.from;
        else if (b.bear === ev.to) n.bear = ev.from;
        pen(ev.seat, ev.to);
      }
      break;
    default: return b;
  }
  return n;
}
function boardBefore(log, i, v) {
  const ev = log[i];
  if (boards.has(ev)) return boards.get(ev);
  if (log[0]?.kind !== 'game_started') {
    boards.set(ev, nowBoard(v)); // cut at its start: as the board is now, kept from now on
    return boards.get(ev);
  }
  let j = i;
  while (j > 0 && !boards.has(log[j])) j--;
  let b = boards.get(log[j]);
  if (!b) {
    b = firstBoard(v) || nowBoard(v);
    boards.set(log[0], b);
  }
  for (; j < i; j++) {
    // After a reconnect that skipped events (`caught_up`) the replay cannot be trusted any more:
    // from there on, as the board is when a line is first shown.
    b = b.now || log[j].kind === 'caught_up' ? nowBoard(v) : afterEvent(b, log[j]);
    boards.set(log[j + 1], b);
  }
  return b;
}
// The board after the whole log (the browser test checks that it is the board on screen).
export function boardAfterLog(log, v) {
  if (!log.length) return null;
  const b = boardBefore(log, log.length - 1, v);
  return b.now ? b : afterEvent(b, log[log.length - 1]);
}
// Who stood on floe f on board b (for a swap: the figure on the target before it).
function figureWas(f, b, ctx, seat) {
  const penguin = Object.keys(b.penguins).find((s) => b.penguins[s] === f && Number(s) !== seat);
  if (penguin !== undefined) return penguinOf(Number(penguin), ctx);
  if (b.santa === f) return t('cp.who.santa');
  if (b.bear === f) return t('cp.who.bear');
  return '?';
}

// `log`, `i`: the line in the log (its floes in the words of that moment, see boardBefore);
// without them (a banner, shown as it happens) the board on screen is that moment.
export function eventText(ev, ctx, log, i) {
  const board = log && log[i] === ev ? boardBefore(log, i, ctx.view) : null;
  const params = { ...ev, name: ctx.name(ev.seat) };
  if (ev.stone) params.stone = colourName(ev.stone);
  if (ev.colour) {
    params.colour = colourName(ev.colour);
    params.a_colour = aColour(ev.colour);
  }
  // What the viewer did is said to them ("You roll a 4"), and what was done to them too ("Santa
  // takes a red present from you"); everyone else reads the third person.
  const say = (key, p = params) => (isMe(ctx, ev.seat) && t(`${key}_you`) !== `${key}_you` ? t(`${key}_you`, p) : t(key, p));
  if (ev.kind === 'present_confiscated') {
    params.victim = ctx.name(ev.from);
    if (isMe(ctx, ev.from)) return t('cp.e.present_confiscated_yours', params);
    // Santa is the one who caught the penguin just before (santa_met, in the same state).
    const met = log && log.slice(0, i).reverse().find((e) => e.kind === 'santa_met');
    if (met && isMe(ctx, met.santa_seat)) return t('cp.e.present_confiscated_you', params);
  }
  if (ev.kind === 'santa_met') {
    params.santa = ctx.name(ev.santa_seat);
    params.penguin = ctx.name(ev.penguin_seat);
    if (isMe(ctx, ev.penguin_seat)) return t('cp.e.santa_met_you', params);
    if (isMe(ctx, ev.santa_seat)) return t('cp.e.santa_met_by_you', params);
  }
  if (ev.kind === 'roles_swapped') {
    params.santa = ctx.name(ev.santa_seat);
    if (isMe(ctx, ev.santa_seat)) return t('cp.e.you_are_santa');
    if (isMe(ctx, ev.at_hut_seat)) return t('cp.e.roles_swapped_hut_you', params);
  }
  if (ev.kind === 'pushed' && !isMe(ctx, ev.seat) && (ev.penguins || []).some((s) => isMe(ctx, s))) return t('cp.e.pushed_yours', params);
  const noTree = ev.kind === 'tree_placed' || ev.kind === 'tree_relocated';
  const at = board || ctx.view;
  if (typeof ev.to === 'number') params.to = where(ev.to, at, false, { noTree });
  if (typeof ev.floe === 'number') params.floe_on = where(ev.floe, at, true, { noTree });
  // Declining the "Stop!" window is no news: the log leaves it out.
  if (ev.kind === 'passed' || ev.kind === 'reaction_closed') return null;
  if (ev.kind === 'stone_used') {
    // What the stone did: after a red or blue swap the other figure stands on `from`.
    if (ev.stone === 'green') return say('cp.e.stone_floe');
    // Replayed: the figure that stood on the target before; as on screen now: the one on `from`.
    const who = board && !board.now ? figureWas(ev.to, board, ctx, ev.seat)
      : board ? figureWas(ev.from, board, ctx, ev.seat) : figureOn(ev.from, ctx.view, ctx, ev.seat);
    if (who !== '?') return say('cp.e.stone_swap', { ...params, who });
  }
  const key = `cp.e.${ev.kind}`;
  return t(key) !== key ? say(key) : null;
}
