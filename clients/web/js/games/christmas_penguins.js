// Christmas Penguins: an SVG hex board of ice floes (axial coordinates from `view.cells`), water
// channels on edges, the figures, the tree, the hut, stones and loose presents. Floes named by a
// `legal` entry are highlighted and clicked to play it; everything else is a button. A big "Stop!"
// button appears whenever `legal` offers `stop`, and says at once whether the claim was granted,
// queued or beaten. Everything in this game is public.
import { addTexts, t } from '../i18n.js';
import { esc } from '../util.js';
import { reducedMotion } from '../motion.js';
import { markAttrs, markPath, markSvg, seatColourName, seatDot } from '../marks.js';
import { art, picture } from './cp_art.js';
import texts from './cp_texts.js';

const presentColours = ['red', 'blue', 'green', 'yellow', 'purple', 'orange'];
const paint = { red: '#d62828', blue: '#1d6fd6', green: '#2a9d3f', yellow: '#e0b000', purple: '#8e44ad', orange: '#e06c00' };

// The board's words (the picker's and the lobby's are in catalogue.js, loaded on every page).
addTexts(texts);

const colourName = (c) => t(`cp.${c}`);
// "a red" or "an orange" (English texts say {a_colour}; German ones "ein Geschenk in {colour}").
const aColour = (c) => { const w = colourName(c); return `${/^[aeiou]/i.test(w) ? 'an' : 'a'} ${w}`; };

// A floe in words a family uses: the tree's or the hut's floe, or its number (written small on the
// board, so that a log line says which floe: issue 31) with where it lies ("floe 12 next to the
// tree", "floe 7 on the edge at the top left"). `on`: the form after "stands on" (German dative)
// rather than "moves to" (accusative); only the tree's and the hut's floe differ.
const ring = ([q, r]) => (Math.abs(q) + Math.abs(r) + Math.abs(q + r)) / 2;
const apart = ([q1, r1], [q2, r2]) => ring([q1 - q2, r1 - r2]);
function side([q, r]) {
  const angle = (Math.atan2(-1.5 * r, Math.sqrt(3) * (q + r / 2)) * 180) / Math.PI;
  return t(`cp.side.${(Math.round(((angle + 360) % 360) / 60)) % 6}`);
}
function where(f, v, on = false, { noTree = false } = {}) {
  const key = (k) => (on && t(`cp.w.${k}_on`) !== `cp.w.${k}_on` ? `cp.w.${k}_on` : `cp.w.${k}`);
  const cell = v.cells[f];
  if (!cell) return '?';
  const tree = noTree ? null : v.tree;  // where the tree itself goes is not told by the tree
  if (f === tree) return t(key('tree'));
  if (f === v.hut) return t(key('hut'));
  const n = f + 1;
  if (tree !== null && tree !== undefined && apart(cell, v.cells[tree]) === 1) return t(key('by_tree'), { n });
  if (apart(cell, v.cells[v.hut]) === 1) return t(key('by_hut'), { n });
  if (ring(cell) <= 1) return t(key('middle'), { n });
  return t(key(ring(cell) >= v.radius ? 'edge' : 'side'), { side: side(cell), n });
}
// Whether `seat` is the viewer's own (a spectator has none).
const isMe = (ctx, seat) => ctx.seat !== null && ctx.seat !== undefined && seat === ctx.seat;
// "Oma's penguin", or "your penguin" to Oma (German dative: "mit deinem Pinguin").
const penguinOf = (seat, ctx) => (isMe(ctx, seat) ? t('cp.who.your_penguin') : t('cp.who.penguin', { name: ctx.name(seat) }));
const penguinTip = (seat, ctx) => (isMe(ctx, seat) ? t('cp.tip.penguin_you') : t('cp.tip.penguin', { name: ctx.name(seat) }));
// The figure on floe f other than the seat's own penguin: for the red and blue stones.
function figureOn(f, v, ctx, seat) {
  const penguin = v.players.find((p) => p.penguin === f && p.seat !== seat);
  if (penguin) return penguinOf(penguin.seat, ctx);
  if (v.santa === f) return t('cp.who.santa');
  if (v.bear === f) return t('cp.who.bear');
  return '?';
}

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

// Kinds whose floe parameter is chosen by clicking the board.
const floeParam = {
  place_penguin: 'floe', place_tree: 'floe', place_bear: 'floe', place_stone: 'floe', relocate_tree: 'floe',
  move: 'to', bear_move: 'to', flee: 'to',
};
function boardFloe(entry) {
  if (entry.domain) return null;
  if (entry.kind in floeParam) return entry[floeParam[entry.kind]];
  if (entry.kind === 'push') return entry.chain[entry.chain.length - 1]; // where the last penguin lands
  if (entry.kind === 'use_stone' && entry.stone !== 'green') return entry.target;
  return null;
}

// The board of one room (see board.js). `ui` is this browser's own state of it: the board mode, the
// first clicked floe, a pending choice, the stop claim, whether a new Santa is to be told again
// when their turn begins; a new room gets a new board, so none of it carries over.
export function createBoard() {
  const ui = { mode: null, first: null, choice: null, stop: null, stopSerial: null, santaNews: false };
  return {
    ...hooks,
    moments: { ...hooks.moments, ...santaMoments(ui) },
    onState: (msg, ctx) => onState(msg, ctx, ui),
    actionsExtra: (ctx) => actionsExtra(ctx, ui),
    render: (ctx) => render(ctx, ui),
    onClick: (el, ctx) => onClick(el, ctx, ui),
  };
}

// A new Santa is told in the second person, the old one that their penguin starts again, the rest
// in the third person. Caught in someone else's turn, the new Santa hears it once more when their
// own turn begins (moments.js drops older news then).
const santaMoments = (ui) => ({
  roles_swapped: (ev, ctx, msg) => {
    if (ctx.seat !== null && ctx.seat !== undefined && ev.santa_seat === ctx.seat) {
      ui.santaNews = !msg.prompt?.seats?.includes(ctx.seat);
      return t('cp.m.you_santa');
    }
    const santa = ctx.name(ev.santa_seat);
    return t(ev.at_hut_seat === ctx.seat && ctx.seat !== null ? 'cp.m.santa_now_you_penguin' : 'cp.m.santa_now', { santa });
  },
  turn_started: (ev, ctx, msg) => {
    if (!ui.santaNews || ctx.seat === null || ev.seat !== ctx.seat) return null;
    ui.santaNews = false;
    return msg.view?.players?.[ctx.seat]?.role === 'santa' ? t('cp.m.you_santa') : null;
  },
});

const size = 30;
const sqrt3 = Math.sqrt(3);
const centre = ([q, r]) => [size * sqrt3 * (q + r / 2), size * 1.5 * r];
function hexPoints([x, y], s = size) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 180) * (60 * i - 30);
    pts.push(`${(x + s * Math.cos(a)).toFixed(1)},${(y + s * Math.sin(a)).toFixed(1)}`);
  }
  return pts.join(' ');
}
function figureAt(v) {
  const figures = new Map();
  const add = (floe, html) => figures.set(floe, [...(figures.get(floe) || []), html]);
  for (const p of v.players) if (typeof p.penguin === 'number') add(p.penguin, { kind: 'penguin', seat: p.seat });
  if (v.santa !== null && v.santa !== undefined) add(v.santa, { kind: 'santa' });
  if (v.bear !== null && v.bear !== undefined) add(v.bear, { kind: 'bear' });
  return figures;
}
const figureKey = (f) => (f.kind === 'penguin' ? `cp-penguin-${f.seat}` : `cp-${f.kind}`);

// The figure that the current choice moves, and from which floe: the own figure for a move, the
// bear for a bear step, the own penguin for fleeing or a red or blue stone.
function moverOf(ctx) {
  const v = ctx.view;
  const kinds = new Set(ctx.legal.map((e) => e.kind));
  const me = v.players[ctx.seat];
  if (kinds.has('move')) {
    const p = v.players[v.active];
    if (!p) return null;
    if (p.role === 'santa') return { kind: 'santa', floe: v.santa };
    return { kind: 'penguin', seat: p.seat, floe: typeof p.penguin === 'number' ? p.penguin : v.hut, atHut: typeof p.penguin !== 'number' };
  }
  if (kinds.has('bear_move')) return { kind: 'bear', floe: v.bear };
  if (me && typeof me.penguin === 'number' && (kinds.has('flee') || ctx.legal.some((e) => e.kind === 'use_stone' && e.stone !== 'green'))) {
    return { kind: 'penguin', seat: me.seat, floe: me.penguin, swap: !kinds.has('flee') };
  }
  return null;
}

// A piece on the board that explains itself: a tooltip on hover (title), an accessible name, and
// the long-press tooltip on touch screens (data-tip, see help.js). `key`: it slides when it moves
// (motion.js); the <g> carrying the key has no transform of its own, the drawing inside has.
function piece(tip, [x, y], scale, inner, { key = '', cls = '', attrs = '' } = {}) {
  return `<g class="piece ${cls}" ${attrs} role="img" aria-label="${esc(tip)}" data-tip="${esc(tip)}"${key ? ` data-flip="${key}"` : ''}><title>${esc(tip)}</title><g transform="translate(${x.toFixed(1)} ${y.toFixed(1)}) scale(${scale.toFixed(3)})">${inner}</g></g>`;
}

// A water channel: open water along the edge between two floes, with two little buoys at its ends
// in the builder's colour and shape (`seat`: the builder's seat).
function channelSvg(a, b, colour, seat, tip) {
  const m = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
  const d = [b[0] - a[0], b[1] - a[1]];
  const len = Math.hypot(d[0], d[1]) || 1;
  const u = [-d[1] / len, d[0] / len];
  const n = [d[0] / len, d[1] / len];
  const h = size * 0.56;
  const e1 = [m[0] - u[0] * h, m[1] - u[1] * h];
  const e2 = [m[0] + u[0] * h, m[1] + u[1] * h];
  // A ripple down the middle: a gentle wave across the channel.
  const w = size * 0.07;
  const pt = (k, side) => [m[0] + u[0] * h * k + n[0] * w * side, m[1] + u[1] * h * k + n[1] * w * side];
  const f = (p) => `${p[0].toFixed(1)} ${p[1].toFixed(1)}`;
  const ripple = `M${f(pt(-0.75, 0))} Q${f(pt(-0.5, 1))} ${f(pt(-0.25, 0))} T${f(pt(0.25, 0))} T${f(pt(0.75, 0))}`;
  const line = (cls, p, q) => `<line class="${cls}" x1="${p[0].toFixed(1)}" y1="${p[1].toFixed(1)}" x2="${q[0].toFixed(1)}" y2="${q[1].toFixed(1)}"></line>`;
  const buoy = (p) => markPath(seatColourName(seat), { x: p[0].toFixed(1), y: p[1].toFixed(1), size: size * 0.5, fill: colour, stroke: '#fff', width: 1.8, cls: 'buoy' });
  return `<g class="channel" ${markAttrs(seatColourName(seat))} role="img" aria-label="${esc(tip)}" data-tip="${esc(tip)}"><title>${esc(tip)}</title>
    ${line('water', e1, e2)}<path class="ripple" d="${ripple}"></path>${buoy(e1)}${buoy(e2)}</g>`;
}

function boardSvg(ctx, ui) {
  const v = ctx.view;
  const santaName = ctx.name(v.players.find((p) => p.role === 'santa')?.seat);
  const targets = new Map(); // floe -> legal indices
  if (ctx.seat !== null && !ctx.state.over && !ui.mode) {
    ctx.legal.forEach((e, i) => {
      const f = boardFloe(e);
      if (f !== null && f !== undefined) targets.set(f, [...(targets.get(f) || []), i]);
    });
  }
  const mover = targets.size ? moverOf(ctx) : null;
  const centres = v.cells.map(centre);
  // Channel and green-stone choices come from legal, which lists every one of them.
  const channels = ctx.legal.filter((e) => e.kind === 'place_channel');
  const greens = ctx.legal.filter((e) => e.kind === 'use_stone' && e.stone === 'green');
  const extra = ui.mode === 'green' && ui.first !== null ? greens.filter((e) => e.floe === ui.first).map((e) => e.to) : [];
  const all = [...centres, ...extra.map(centre)];
  const xs = all.map(([x]) => x);
  const ys = all.map(([, y]) => y);
  const pad = size * 1.15;
  const box = [Math.min(...xs) - pad, Math.min(...ys) - pad, Math.max(...xs) - Math.min(...xs) + 2 * pad, Math.max(...ys) - Math.min(...ys) + 2 * pad];
  const figures = figureAt(v);
  const stones = new Map((v.stones_on_board || []).map(([f, c]) => [f, c]));
  const loose = new Map((v.loose_presents || []).map((l) => [l.floe, Object.values(l.presents).reduce((a, b) => a + b, 0)]));
  const parts = [];
  // In channel mode a floe on an edge that may take a channel can be clicked; after the first,
  // only the floes across such an edge from it.
  const channelPartner = (id) => {
    if (id === ui.first) return true;
    return channels.some((e) => (ui.first === null ? e.a === id || e.b === id
      : (e.a === id && e.b === ui.first) || (e.b === id && e.a === ui.first)));
  };
  // In green mode every floe that may move; once one is chosen, the water cells it may go to.
  const greenFloe = (id) => (ui.first === null ? greens.some((e) => e.floe === id) : id === ui.first);
  const choosing = targets.size > 0 || (ctx.seat !== null && !!ui.mode);
  v.cells.forEach((cell, id) => {
    const c = centres[id];
    const isTarget = targets.has(id);
    const modeTarget = ctx.seat !== null && ((ui.mode === 'green' && greenFloe(id)) || (ui.mode === 'channel' && channelPartner(id)));
    const chosen = ui.first === id;
    // A penguin that moves onto Santa's floe is caught: that floe is offered, but marked red and
    // says so (a trial's grandmother stepped onto Santa unwarned).
    const danger = isTarget && id === v.santa && mover?.kind === 'penguin' && ctx.legal.some((e) => e.kind === 'move' && e.to === id);
    const cls = ['floe', id === v.hut ? 'hut' : '', id === v.tree ? 'tree' : '', isTarget ? 'target' : '', danger ? 'danger' : '', modeTarget ? 'mode' : '', chosen ? 'chosen' : '',
      mover && mover.floe === id ? 'from' : ''].filter(Boolean).join(' ');
    const clickable = isTarget || modeTarget;
    const here = figures.get(id) || [];
    // A clickable floe is a button, whose name says what stands on it (its pieces are inside it).
    const on = [id === v.tree ? t('cp.tree') : '', id === v.hut ? t('cp.hut') : '',
      stones.has(id) ? t('cp.tip.stone', { colour: colourName(stones.get(id)) }).split(':')[0] : '',
      ...here.map((f) => (f.kind === 'penguin' ? penguinTip(f.seat, ctx) : t(`cp.${f.kind}`)))].filter(Boolean);
    const place = where(id, v);
    const label = `${place.charAt(0).toUpperCase()}${place.slice(1)}${on.length ? `: ${on.join(', ')}` : ''}${danger ? `. ${t('cp.danger_santa')}` : ''}`;
    parts.push(`<g class="${cls}" ${clickable ? `data-act="cp-floe" data-floe="${id}" role="button" tabindex="0" aria-label="${esc(label)}"` : ''} data-testid="floe-${id}">
      <polygon points="${hexPoints(c, size - 2)}"></polygon><polygon class="sheen" points="${hexPoints([c[0] - size * 0.08, c[1] - size * 0.1], size * 0.62)}"></polygon>`);
    const crowded = here.length > 0;
    if (id === v.tree) parts.push(piece(t('cp.tip.tree'), [c[0], c[1] + size * 0.1], 0.5, art.tree(), { key: 'cp-tree' }));
    if (id === v.hut) {
      parts.push(piece(t('cp.tip.hut'), crowded ? [c[0] + size * 0.5, c[1] - size * 0.48] : [c[0], c[1] + size * 0.05], crowded ? 0.3 : 0.5, art.hut()));
    }
    here.forEach((fig, i) => {
      // Figures sharing a floe (a penguin and the bear it meets) stand side by side, smaller.
      const k = here.length > 1 ? 0.6 : 1;
      const x = c[0] + (i - (here.length - 1) / 2) * size * 0.8;
      const y = c[1] + (id === v.hut ? size * 0.15 : 0);
      const moving = mover && mover.kind === fig.kind && (fig.kind !== 'penguin' || fig.seat === mover.seat) && !mover.atHut;
      const ring = moving ? `<circle class="mover-ring" r="56"></circle>` : '';
      let tip;
      let drawing;
      let attrs = '';
      // A penguin (and Santa's badge) wears its player's shape as well as the colour (marks.js).
      if (fig.kind === 'penguin') {
        tip = penguinTip(fig.seat, ctx);
        drawing = art.penguin(ctx.colour(fig.seat), seatColourName(fig.seat));
        attrs = markAttrs(seatColourName(fig.seat));
      } else {
        tip = fig.kind === 'santa' ? t('cp.tip.santa', { name: santaName }) : t('cp.tip.bear');
        const santaSeat = v.players.find((p) => p.role === 'santa')?.seat;
        drawing = fig.kind === 'santa' && santaSeat !== undefined ? art.santa(ctx.colour(santaSeat), seatColourName(santaSeat)) : art[fig.kind]();
        if (fig.kind === 'santa' && santaSeat !== undefined) attrs = markAttrs(seatColourName(santaSeat));
      }
      if (moving) tip = `${tip} · ${t('cp.moves_now')}`;
      parts.push(piece(tip, [x, y], 0.46 * k, ring + drawing, { key: figureKey(fig), cls: `${moving ? 'moving' : ''} ${here.length > 1 ? 'shared' : ''}`, attrs }));
    });
    // Stones and loose presents lie in front of the figures, at the floe's lower corners.
    if (stones.has(id)) {
      const s = stones.get(id);
      parts.push(piece(t('cp.tip.stone', { colour: colourName(s) }), crowded || id === v.hut ? [c[0] + size * 0.5, c[1] + size * 0.45] : c, crowded || id === v.hut ? 0.46 : 0.56, art.stone(paint[s], s), { attrs: markAttrs(s) }));
    }
    if (loose.has(id)) {
      const at = [c[0] - size * 0.5, c[1] + size * 0.45];
      parts.push(piece(t('cp.tip.loose'), at, 0.32, `${art.gift('#d62828')}<text class="count" x="0" y="9" font-size="28">${loose.get(id)}</text>`));
    }
    // The floe's number (the log names floes by it), over whatever stands there.
    parts.push(`<text class="floe-no" x="${(c[0] - size * 0.62).toFixed(1)}" y="${(c[1] - size * 0.12).toFixed(1)}" aria-hidden="true">${id + 1}</text></g>`);
  });
  for (const cell of extra) {
    const c = centre(cell);
    parts.push(`<g class="water-cell" data-act="cp-cell" data-q="${cell[0]}" data-r="${cell[1]}" role="button" tabindex="0" aria-label="${esc(t('cp.open_water', { side: side(cell) }))}"><polygon points="${hexPoints(c, size - 3)}"></polygon></g>`);
  }
  for (const ch of v.channels || []) {
    const a = centres[ch.a];
    const b = centres[ch.b];
    if (!a || !b) continue;
    parts.push(channelSvg(a, b, ctx.colour(ch.owner), ch.owner, isMe(ctx, ch.owner) ? t('cp.tip.channel_you') : t('cp.tip.channel', { name: ctx.name(ch.owner) })));
  }
  // Which figure goes where: a dashed arrow from the moving figure to the floe under the pointer
  // (or with the keyboard focus). The penguin still waiting at the hut starts from the hut.
  let routes = '';
  if (mover && mover.floe !== null && mover.floe !== undefined && centres[mover.floe]) {
    const from = centres[mover.floe];
    const rules = [];
    for (const id of targets.keys()) {
      if (id === mover.floe || !centres[id]) continue;
      const to = centres[id];
      const d = Math.hypot(to[0] - from[0], to[1] - from[1]) || 1;
      const cut = size * 0.55;
      const p = [from[0] + ((to[0] - from[0]) * cut) / d, from[1] + ((to[1] - from[1]) * cut) / d];
      const q = [to[0] - ((to[0] - from[0]) * cut) / d, to[1] - ((to[1] - from[1]) * cut) / d];
      routes += `<line class="route route-${id}" x1="${p[0].toFixed(1)}" y1="${p[1].toFixed(1)}" x2="${q[0].toFixed(1)}" y2="${q[1].toFixed(1)}" marker-end="url(#cp-arrow)"${mover.swap ? ' marker-start="url(#cp-arrow)"' : ''}></line>`;
      rules.push(`.cp-board:has([data-floe="${id}"]:is(:hover, :focus-visible)) .route-${id}`);
    }
    if (rules.length) routes = `<style>${rules.join(',\n')} { opacity: 1; }</style><g class="routes" aria-hidden="true">${routes}</g>`;
  }
  const ratio = (box[2] / box[3]).toFixed(3);
  return `<svg class="cp-board ${choosing ? 'choosing' : ''}" viewBox="${box.map((n) => n.toFixed(1)).join(' ')}" style="--ratio:${ratio}" role="group" aria-label="${esc(t('cp.board'))}">
    <defs>
      <linearGradient id="cp-ice" x1="0" y1="0" x2="0.4" y2="1"><stop offset="0" stop-color="#ffffff"></stop><stop offset="1" stop-color="#d7e9f4"></stop></linearGradient>
      <pattern id="cp-waves" width="48" height="22" patternUnits="userSpaceOnUse"><path d="M2 12 q6 -6 12 0 t12 0" fill="none" stroke="#ffffff2e" stroke-width="2" stroke-linecap="round"></path><path d="M26 2 q5 -4 10 0" fill="none" stroke="#ffffff1f" stroke-width="1.6" stroke-linecap="round"></path></pattern>
      <marker id="cp-arrow" viewBox="0 0 10 10" refX="6" refY="5" markerWidth="4" markerHeight="4" orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 Z" fill="#b8860b"></path></marker>
    </defs>
    <rect x="${box[0]}" y="${box[1]}" width="${box[2]}" height="${box[3]}" class="sea"></rect>
    <rect x="${box[0]}" y="${box[1]}" width="${box[2]}" height="${box[3]}" fill="url(#cp-waves)"></rect>${parts.join('')}${routes}</svg>`;
}

// Chips in a piece's colour with its shape and the count on it: white or near-black writing,
// whichever reads at WCAG AA (4.5:1) on that colour.
const inkOn = { red: '#fff', blue: '#fff', purple: '#fff', green: '#111', yellow: '#111', orange: '#111' };
const chip = (cls, c, n) => `<span class="${cls}" ${markAttrs(c)} style="--g:${paint[c]};--ink-on:${inkOn[c]}" role="img" aria-label="${esc(`${n} × ${colourName(c)}`)}" title="${esc(colourName(c))}">${markSvg(c)}<span>${n}</span></span>`;

function presentsHtml(presents) {
  return presentColours.filter((c) => presents[c]).map((c) => chip('present', c, presents[c])).join('') || '–';
}

// Whom the game waits for now (the prompt's seats), in every phase, setup included: their cards
// wear the gold frame. With no prompt (the end), the player whose turn it was.
function waitedFor(ctx) {
  const p = ctx.state?.prompt;
  return !ctx.state?.over && p?.seats?.length ? p.seats : [ctx.view.active];
}

function playersHtml(ctx) {
  const v = ctx.view;
  const waiting = waitedFor(ctx);
  return v.players.map((p) => {
    const where = p.role !== 'santa' && p.penguin === 'at_hut' ? t('cp.at_hut') : ''; // Santa's own penguin waits beside the board: nothing to show
    const stones = ['red', 'blue', 'green'].filter((s) => p.stones[s]).map((s) => chip('stone-chip', s, p.stones[s])).join('');
    // Too small for a shape of its own: the dot before the name shows the player's shape.
    const figure = p.role === 'santa' ? art.santa(ctx.colour(p.seat)) : art.penguin(ctx.colour(p.seat));
    const mine = p.seat === ctx.seat;
    const total = Object.values(p.presents || {}).reduce((a, b) => a + b, 0);
    const presentsLabel = t('cp.presents_n', { n: total });
    const channels = mine ? t('cp.channels_mine', { n: p.channels_left }) : t('cp.channels_other', { n: p.channels_left, name: ctx.name(p.seat) });
    // on-turn: whose turn it is (the frame follows the prompt, which may wait on others).
    return `<div class="cp-player ${waiting.includes(p.seat) ? 'active' : ''} ${p.seat === v.active ? 'on-turn' : ''} ${mine ? 'me' : ''} ${p.role === 'santa' ? 'santa' : ''}" data-testid="cp-player-${p.seat}">
      <div class="who">${seatDot(p.seat, ctx.colour(p.seat))}<strong>${esc(ctx.who(p.seat))}</strong>
      <span class="role">${picture(figure)} ${esc(p.role === 'santa' ? t('cp.santa') : t('cp.penguin'))}</span>
      ${where ? `<span class="muted">${esc(where)}</span>` : ''}</div>
      ${mine && p.role === 'santa' ? `<p class="cp-you-santa" data-testid="cp-you-santa">${esc(t('cp.you_santa'))}</p>` : ''}
      <div class="cp-holds"><span class="cp-presents" role="group" aria-label="${esc(presentsLabel)}" title="${esc(presentsLabel)}" data-tip="${esc(presentsLabel)}">${art.giftPicture('#d62828')}
        <span class="cp-label">${esc(t('cp.presents'))}:</span> ${presentsHtml(p.presents)}</span>
        ${stones ? `<span class="cp-stones"><span class="cp-label">${esc(t('cp.stones_label'))}</span> ${stones}</span>` : ''}</div>
      <div class="muted cp-channels" data-testid="cp-channels-${p.seat}">${esc(channels)}</div>
    </div>`;
  }).join('');
}

function actionLabel(entry, ctx) {
  switch (entry.kind) {
    case 'roll': case 'pass': case 'end_turn': case 'withdraw_stop': case 'cancel_stop':
      return t(`cp.a.${entry.kind}`);
    case 'push': return t('cp.a.push', { where: where(entry.chain[entry.chain.length - 1], ctx.view) });
    case 'confiscate': {
      // Where the present goes (rulebook A27): back under the tree by default, so say so; Santa's
      // own count does not rise.
      const to = ctx.room?.options?.confiscatedTo ?? 'pool';
      const key = to === 'pool' || to === 'removed' ? `cp.a.confiscate.${to}` : 'cp.a.confiscate';
      return t(key, { colour: colourName(entry.colour), a_colour: aColour(entry.colour) });
    }
    case 'steal': return t('cp.a.steal', { colour: colourName(entry.colour), a_colour: aColour(entry.colour) });
    case 'pickup_stone': return t(entry.take ? 'cp.a.pickup_yes' : 'cp.a.pickup_no');
    case 'place_channel': return t('cp.a.place_channel', { a: where(entry.a, ctx.view, true), b: where(entry.b, ctx.view, true) });
    case 'use_stone':
      return entry.stone === 'green' ? t('cp.a.use_green', { floe: where(entry.floe, ctx.view), to: side(entry.to) })
        : t(`cp.a.use_${entry.stone}`, { who: figureOn(entry.target, ctx.view, ctx, ctx.seat) });
    case 'flee': return t('cp.a.flee', { to: where(entry.to, ctx.view), colour: entry.colour ? colourName(entry.colour) : '–' });
    case 'stop': return t('cp.stop');
    default: {
      const f = boardFloe(entry);
      return f !== null ? t('cp.a.floe', { floe: where(f, ctx.view) }) : entry.kind;
    }
  }
}

// The die as a die: its pips, and a short tumble when a new roll lands (a new data-key makes it a
// new element, so its CSS animation runs once; none under reduced motion).
const pips = { 1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]], 4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
  5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]], 6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]] };
function dieHtml(v, ctx) {
  const n = v.roll;
  if (!pips[n]) {
    // Not rolled yet (the turn has just begun): said in words, so that a "Stop!" now reads right.
    const none = typeof v.active === 'number' && v.active !== ctx.seat && !ctx.state.over ? t('cp.die_none_of', { name: ctx.name(v.active) }) : t('cp.die_none');
    return `<div class="die empty" data-testid="cp-die" role="img" aria-label="${esc(`${t('cp.die')}: ${none}`)}" title="${esc(none)}">–</div>`;
  }
  const dots = pips[n].map(([x, y]) => `<circle cx="${x * 13}" cy="${y * 13}" r="5.5"></circle>`).join('');
  return `<div class="die cp-die" data-testid="cp-die" data-key="cp-die-${v.round}-${v.active}-${n}" role="img" aria-label="${esc(`${t('cp.die')}: ${n}`)}">
    <svg viewBox="-24 -24 48 48" aria-hidden="true">${dots}</svg></div>`;
}

// In words: which figure goes where (the board shows it with the gold ring and gold edges).
function moveHint(ctx) {
  const mover = moverOf(ctx);
  let text = t('cp.click_floe');
  if (mover) {
    const kinds = new Set(ctx.legal.map((e) => e.kind));
    if (kinds.has('move')) text = t(mover.kind === 'santa' ? 'cp.h.move_santa' : mover.atHut ? 'cp.h.move_hut' : 'cp.h.move_penguin');
    else if (kinds.has('bear_move')) text = t('cp.h.bear_move');
    else if (kinds.has('flee')) text = t('cp.h.flee');
    else text = t('cp.h.swap');
    const v = ctx.view;
    if (mover.kind === 'penguin' && ctx.legal.some((e) => e.kind === 'move' && e.to === v.santa)) text += ` ${t('cp.h.danger')}`;
    if (window.matchMedia?.('(hover: hover) and (pointer: fine)').matches) text += ` ${t('cp.h.arrow')}`;
  }
  return `<p class="hint cp-move-hint" data-testid="cp-move-hint">${esc(text)}</p>`;
}

// What "Stop!" does now, next to its button, in the same words as the die: after a roll it names
// the roll the die shows; before one, it says nobody has rolled yet. Then what the stones held do.
// Floes Santa needs at the least to reach floe `to` (over the ice, not across water or channels;
// figures in the way are not counted), or null when no way leads there.
export function santaSteps(v, to) {
  const n = v.cells.length;
  const blocked = new Set((v.channels || []).map((c) => `${Math.min(c.a, c.b)}-${Math.max(c.a, c.b)}`));
  const dist = new Array(n).fill(null);
  dist[v.santa] = 0;
  for (const queue = [v.santa]; queue.length;) {
    const f = queue.shift();
    if (f === to) return dist[f];
    for (let g = 0; g < n; g++) {
      if (dist[g] !== null || apart(v.cells[f], v.cells[g]) !== 1 || blocked.has(`${Math.min(f, g)}-${Math.max(f, g)}`)) continue;
      dist[g] = dist[f] + 1;
      queue.push(g);
    }
  }
  return null;
}

function stopWhy(ctx) {
  const v = ctx.view;
  const you = v.active === ctx.seat;
  const name = ctx.name(v.active);
  const rolled = typeof v.roll === 'number' && pips[v.roll];
  const phase = v.phase === 'stopped' ? v.stop?.resumes : v.phase;
  let text;
  if (rolled && (phase === 'reaction' || phase === 'move')) text = t(you ? 'cp.sw.rolled_you' : 'cp.sw.rolled', { name, n: v.roll });
  else if (!rolled && phase === 'roll') text = t(you ? 'cp.sw.not_rolled_you' : 'cp.sw.not_rolled', { name });
  else text = t('cp.sw.now');
  // Santa rolled: whether he might reach this player's penguin with it, the question "Stop!" is for
  // (a newcomer had a few seconds and no way to tell).
  const me = v.players[ctx.seat];
  if (rolled && phase === 'reaction' && v.players[v.active]?.role === 'santa' && me?.role !== 'santa' && typeof me?.penguin === 'number') {
    const steps = santaSteps(v, me.penguin);
    if (steps !== null) text += ` ${t(steps <= v.roll ? 'cp.sw.santa_may' : 'cp.sw.santa_not', { n: steps, roll: v.roll })}`;
  }
  const held = v.players[ctx.seat]?.stones || {};
  const kinds = ['red', 'blue', 'green'].filter((k) => held[k]);
  return [text, ...kinds.map((k) => t(`cp.sw.${k}`))].join(' ');
}

// What stealing a present of `colour` is worth to the player on turn now: one point, and the
// bonus point if it makes them the one with the most colours or the most of one colour among the
// players who can win (everyone but Santa; ties count, as in the scoring, docs/rules).
function stealWorth(ctx, colour) {
  const v = ctx.view;
  const me = v.players[v.active];
  const two = ctx.room?.options?.bonusMode === 'twoAwards';
  const others = v.players.filter((p) => p.seat !== me.seat && p.role !== 'santa');
  const stats = (presents) => {
    const counts = Object.values(presents || {}).filter((n) => n > 0);
    return { total: counts.reduce((a, b) => a + b, 0), distinct: counts.length, most: Math.max(0, ...counts) };
  };
  const rivals = others.map((p) => stats(p.presents));
  const score = (s) => {
    const colours = s.distinct > 0 && rivals.every((r) => s.distinct >= r.distinct);
    const one = s.most > 0 && rivals.every((r) => s.most >= r.most);
    return { colours, one, points: s.total + (two ? Number(colours) + Number(one) : Number(colours || one)) };
  };
  const before = stats(me.presents);
  const after = stats({ ...me.presents, [colour]: (me.presents?.[colour] || 0) + 1 });
  const [b, a] = [score(before), score(after)];
  const n = a.points - b.points;
  const parts = [(me.presents?.[colour] || 0) === 0 ? t('cp.worth.new', { n: after.distinct })
    : t('cp.worth.more', { n: (me.presents[colour] || 0) + 1, colour: colourName(colour) })];
  // A bonus is named only where it adds a point (with one bonus at most, a player who already
  // has it for the other reason gains nothing by the second).
  const gained = [a.colours && !b.colours ? 'cp.worth.bonus_colours' : null, a.one && !b.one ? 'cp.worth.bonus_one' : null].filter(Boolean);
  parts.push(...gained.slice(0, Math.max(0, n - 1)).map((k) => t(k)));
  return [t('cp.worth.points', { n }), ...parts].join(' · ');
}

async function sendStop(ctx, ui) {
  const entry = ctx.legal.find((e) => e.kind === 'stop');
  if (!entry) return;
  ui.stop = { status: 'sent' };
  ctx.render();
  try {
    await ctx.act(entry);
    // The state that follows says whether it was granted at once or queued (see onState).
  } catch (err) {
    ui.stop = err.code === 'stop_already_claimed' ? { status: 'beaten', message: err.message } : null;
    ctx.render();
  }
}

// The hooks that keep nothing between calls (createBoard adds the others).
const hooks = {
  id: 'christmas_penguins',

  promptText(ctx) {
    const kind = ctx.state.prompt?.kind;
    const santa = ctx.view.players[ctx.view.active]?.role === 'santa';
    if (kind === 'move') return t(santa ? 'cp.p.move_santa' : 'cp.p.move_penguin', { n: ctx.view.roll ?? '' });
    if (kind === 'roll' && santa) return t('cp.p.roll_santa');
    // Channels are mentioned only while the player can still build one.
    let text = (kind === 'roll' || kind === 'post_move') && !ctx.legal.some((e) => e.kind === 'place_channel') ? t(`cp.p.${kind}_plain`) : null;
    // A roll that left no way to go is said where she looks, not only in the log.
    if (kind === 'post_move' && (ctx.state.events || []).some((e) => e.kind === 'no_move' && e.seat === ctx.seat)) {
      return `${t('cp.p.no_move', { n: ctx.view.roll ?? '' })} ${text ?? t('cp.p.post_move')}`;
    }
    if (text) return text;
    return kind ? t(`cp.p.${kind}`, { n: ctx.view.roll ?? '' }) : '';
  },

  // The turn bar (screens.js): while the game waits on someone other than the player whose turn
  // it is (the "Stop!" window after a roll waits on the stone holders, a "Stop!" on its caller,
  // Santa's choices on Santa, a flight on the penguin the bear reached), the bar still names whose
  // turn it is and says what happens now. null: the frame's own words.
  turnBar(ctx, { mine }) {
    const v = ctx.view;
    const p = ctx.state.prompt;
    if (!p || ctx.state.over || typeof v.active !== 'number') return null;
    const seats = p.seats || [];
    const kind = v.phase;
    const outOfTurn = seats.length !== 1 || seats[0] !== v.active;
    if (kind !== 'reaction' && kind !== 'stopped' && !(outOfTurn && ['confiscate', 'relocate_tree', 'flee'].includes(kind))) return null;
    const you = ctx.seat === v.active;
    // Someone else's turn, but the game waits on this player (a flight, Santa's choice, their own
    // "Stop!"): the bar says "Now you!" rather than the other's name (short: with the prompt and the
    // clock it must stay within a fifth of a 360 px phone's screen).
    const askedNow = mine && !you && kind !== 'reaction';
    // The player's own turn, while the game waits on someone else (Santa moving the tree after her
    // steal): not "Your turn!", which reads as "act now".
    const turn = you ? t(mine ? 'game.your_turn' : 'cp.tb.yours_wait') : askedNow ? t('cp.tb.now_you', { name: ctx.name(v.active) }) : t('game.turn_of', { name: ctx.name(v.active) });
    const name = ctx.name(v.active);
    let what;
    if (kind === 'reaction') {
      what = you ? t('cp.tb.rolled_you', { n: v.roll })
        : t(mine ? 'cp.tb.rolled_may' : 'cp.tb.rolled', { name, n: v.roll });
    } else if (kind === 'stopped') {
      const claimant = v.stop?.claimant;
      what = claimant === ctx.seat ? t('cp.tb.stopped_you') : t('cp.tb.stopped', { name: ctx.name(claimant) });
    } else {
      what = mine ? hooks.promptText(ctx) : t(kind === 'confiscate' && you ? 'cp.tb.confiscate_you' : `cp.tb.${kind}`, { name: ctx.name(seats[0]) });
    }
    return { turn, what };
  },

  primary(entry) {
    return entry.kind === 'roll' || entry.kind === 'end_turn';
  },

  // Everything chosen on the board (channels and green-stone moves through their modes).
  boardEntries(ctx) {
    return ctx.legal.map((e, i) => [e, i])
      .filter(([e]) => boardFloe(e) !== null || e.kind === 'stop' || e.kind === 'steal' || e.kind === 'place_channel' || (e.kind === 'use_stone' && e.stone === 'green'))
      .map(([, i]) => i);
  },

  actionLabel,
  eventText,

  // Moments announced to everyone (moments.js): "Stop!", a stone played, presents changing hands,
  // a new Santa (santaMoments, which remember whom to tell again).
  moments: {
    stop_claimed: '✋', stop_granted: '✋', stone_used: '🪨', present_stolen: '🎁',
    // The bear's victim is told in the second person (an own-seat event would get no banner: a
    // trial's grandmother lost a present and saw it only in the log).
    present_dropped: (ev, ctx) => (ctx.seat !== null && ctx.seat !== undefined && ev.seat === ctx.seat
      ? t('cp.m.dropped_you', { colour: colourName(ev.colour), a_colour: aColour(ev.colour) })
      : `🐻‍❄️ ${eventText(ev, ctx)}`),
    // The caught penguin hears it at once, in the second person (a trial's grandmother learnt she
    // was Santa only when her next turn began); Santa's own catch is no news to Santa.
    santa_met: (ev, ctx) => {
      if (ctx.seat !== null && ctx.seat !== undefined && ev.penguin_seat === ctx.seat) return t('cp.m.caught_you', { santa: ctx.name(ev.santa_seat) });
      if (ctx.seat !== null && ctx.seat !== undefined && ev.santa_seat === ctx.seat) return null;
      return `🎅 ${eventText(ev, ctx)}`;
    },
    present_confiscated: (ev, ctx, msg) => {
      // Santa's own choice is no news to Santa.
      if (ctx.seat !== null && msg.events.some((e) => (e.kind === 'santa_met' && e.santa_seat === ctx.seat)
        || (e.kind === 'roles_swapped' && e.at_hut_seat === ctx.seat))) return null;
      if (ctx.seat !== null && ev.from === ctx.seat) return t('cp.m.taken_from_you', { colour: colourName(ev.colour), a_colour: aColour(ev.colour) });
      const line = eventText(ev, ctx);
      return line ? `🎅 ${line}` : null;
    },
  },

  // Why the winner won and why the game ended, in a line under the table.
  resultNote(ctx) {
    const r = ctx.state.result || {};
    const santa = typeof r.final_santa === 'number'
      ? (r.final_santa === ctx.seat ? t('cp.final_santa_you') : t('cp.final_santa', { name: ctx.name(r.final_santa) })) : t('cp.result_santa');
    return `${t(r.reason === 'round_cap' ? 'cp.end_rounds' : 'cp.end_pool')} ${t('cp.result_note')} ${santa}`;
  },

  resultHtml(ctx) {
    const presentCount = (p) => Object.values(p || {}).reduce((a, b) => a + b, 0);
    const r = ctx.state.result;
    const rows = r.scores.map((score, seat) => `<tr class="${r.winners.includes(seat) ? 'winner' : ''}">
      <td>${seatDot(seat, ctx.colour(seat))}${esc(ctx.name(seat))} ${seat === r.final_santa ? `<span role="img" aria-label="${esc(t('cp.santa'))}">${picture(art.santa())}</span>` : ''}</td>
      <td><strong>${score}</strong></td><td>${presentsHtml(r.presents[seat] || {})}</td>
      <td data-testid="cp-bonus-${seat}">${esc(seat === r.final_santa ? t('cp.bonus_santa') : `+${score - presentCount(r.presents[seat])}`)}</td></tr>`);
    // The bonus point in a column of its own, so that a score above the presents (or equal to them,
    // for the final Santa) explains itself.
    return `<table class="score-table"><thead><tr><th></th><th>${esc(t('game.score'))}</th><th>${esc(t('cp.presents'))}</th><th>${esc(t('cp.bonus'))}</th></tr></thead>
      <tbody>${rows.join('')}</tbody></table>`;
  },
};

function onState(msg, ctx, ui) {
  if (msg.events.some((e) => e.kind === 'game_started')) Object.assign(ui, { mode: null, first: null, choice: null, stop: null, santaNews: false });
  for (const ev of msg.events) {
    if (ev.seat !== ctx.seat) continue;
    if (ev.kind === 'stop_claimed' || ev.kind === 'stop_granted') ui.stop = { status: 'granted' };
    else if (ev.kind === 'stop_queued') ui.stop = { status: 'queued', position: ev.position };
    else if (ev.kind === 'stop_ended' || ev.kind === 'stop_dropped' || ev.kind === 'stop_withdrawn') ui.stop = null;
  }
  ui.choice = null;
  const legal = msg.legal || [];
  // A chance to shout "Stop!" after someone's roll opens: its button is brought into view if the
  // page was left scrolled away from it (a trial's tap low on the board hid it above).
  const stopWindow = msg.prompt?.kind === 'reaction' && legal.some((e) => e.kind === 'stop');
  if (stopWindow && msg.prompt.serial !== ui.stopSerial) {
    ui.stopSerial = msg.prompt.serial;
    requestAnimationFrame(() => requestAnimationFrame(() => {
      const button = document.querySelector('#screen [data-testid="stop"]');
      const bar = document.querySelector('#screen .turn-bar')?.getBoundingClientRect().bottom ?? 0;
      const r = button?.getBoundingClientRect();
      if (r && (r.top < bar || r.bottom > innerHeight)) button.scrollIntoView({ block: 'center', behavior: reducedMotion() ? 'auto' : 'smooth' });
    }));
  }
  if (ui.mode === 'channel' && !legal.some((e) => e.kind === 'place_channel')) ui.mode = null;
  if (ui.mode === 'green' && !legal.some((e) => e.kind === 'use_stone' && e.stone === 'green')) ui.mode = null;
  if (!ui.mode) ui.first = null;
}

function actionsExtra(ctx, ui) {
  const out = [];
  // "Stop!" comes first where it is the thing to decide now (the window after someone's roll);
  // while the player has something else to do (roll, move, steal, flee) it comes after those
  // choices, so that the optional red button does not lie over the real step (two trials).
  const stopBlock = [];
  const stop = ctx.legal.find((e) => e.kind === 'stop');
  if (stop) {
    stopBlock.push(`<button class="stop-button" data-act="cp-stop" data-testid="stop">✋ ${esc(t('cp.stop'))}</button>`);
    stopBlock.push(`<p class="hint cp-stop-why" data-testid="stop-why">${esc(stopWhy(ctx))}</p>`);
  }
  const stopFirst = ctx.view.phase === 'reaction';
  if (stopFirst) out.push(...stopBlock);
  if (ui.stop) {
    const text = ui.stop.status === 'sent' ? t('cp.stop_sent')
      : ui.stop.status === 'granted' ? t('cp.stop_granted')
        : ui.stop.status === 'queued' ? t('cp.stop_queued', { n: ui.stop.position })
          : t('cp.stop_beaten', { message: ui.stop.message });
    out.push(`<p class="stop-result ${esc(ui.stop.status)}" data-testid="stop-result" data-status="${esc(ui.stop.status)}">${esc(text)}</p>`);
  }
  // Before the target is picked: what each stone does.
  if (ctx.view.phase === 'stopped' && ctx.view.stop?.claimant === ctx.seat) {
    // Only the stones this player holds (the sheet has all three).
    const held = ctx.view.players[ctx.seat]?.stones || {};
    const kinds = ['red', 'blue', 'green'].filter((k) => held[k]);
    out.push(`<p class="hint" data-testid="stones-help">${esc(kinds.map((k) => t(`cp.sw.${k}`)).join(' ') || t('cp.stones_help'))}</p>`);
  }
  // The first screen of a game: what it is all about, for a penguin and for Santa.
  const kinds = new Set(ctx.legal.map((e) => e.kind));
  if (kinds.has('place_penguin')) out.push(`<p class="hint cp-goal" data-testid="cp-goal">${esc(t('cp.goal_penguin'))}</p>`);
  else if (kinds.has('place_tree') || kinds.has('place_bear')) {
    out.push(`<p class="hint cp-goal" data-testid="cp-goal">${esc(t('cp.goal_santa'))}</p>`);
    // What the bear is for, when Santa places it.
    if (kinds.has('place_bear')) out.push(`<p class="hint" data-testid="cp-bear-why">${esc(t('cp.tip.bear'))}</p>`);
  }
  // Take the stone or leave it: what a stone is for.
  if (kinds.has('pickup_stone')) {
    const floe = ctx.view.pending?.floe;
    const colour = (ctx.view.stones_on_board || []).find(([f]) => f === floe)?.[1];
    out.push(`<p class="hint" data-testid="cp-stone-why">${esc(t(`cp.stone_why.${['red', 'blue', 'green'].includes(colour) ? colour : 'any'}`))}</p>`);
  }
  // Which present to steal: what each is worth to this player now (points and the bonus).
  const steals = ctx.legal.map((e, i) => [e, i]).filter(([e]) => e.kind === 'steal');
  if (steals.length) {
    out.push(`<p class="hint" data-testid="cp-worth-rule">${esc(t('cp.worth.rule'))}</p><div class="buttons cp-steals">${steals.map(([e, i]) =>
      `<button class="action cp-steal" data-act="legal" data-i="${i}" data-testid="cp-steal-${esc(e.colour)}">${art.giftPicture(paint[e.colour] || '#888', paint[e.colour] ? e.colour : undefined)}
        <span><span class="cp-steal-what">${esc(actionLabel(e, ctx))}</span><small class="cp-worth">${esc(stealWorth(ctx, e.colour))}</small></span></button>`).join('')}</div>`);
  }
  if (ui.choice) {
    out.push(`<p>${esc(t('cp.choose'))}</p><div class="buttons">${ui.choice.map((i) =>
      `<button class="action" data-act="legal" data-i="${i}">${esc(actionLabel(ctx.legal[i], ctx))}</button>`).join('')}</div>`);
  }
  if (ctx.legal.some((e) => boardFloe(e) !== null)) out.push(moveHint(ctx));
  const modes = [];
  if (ctx.legal.some((e) => e.kind === 'place_channel')) modes.push('channel');
  if (ctx.legal.some((e) => e.kind === 'use_stone' && e.stone === 'green')) modes.push('green');
  for (const m of modes) {
    out.push(ui.mode === m
      ? `<p class="hint">${esc(t(`cp.${m}_hint`))}</p><button data-act="cp-mode" data-mode="">${esc(t('cp.cancel'))}</button>`
      : `<button data-act="cp-mode" data-mode="${m}">${esc(t(`cp.${m}_mode`))}</button>`);
  }
  if (!stopFirst) out.push(...stopBlock);
  return out.join('');
}

function render(ctx, ui) {
  const v = ctx.view;
  const pool = presentsHtml(v.pool);
  const supply = (v.santa_supply || []).map((s) => chip('stone-chip', s, 1)).join('');
  return `<div class="cp-layout" data-phase="${esc(v.phase || '')}"><div class="cp-grid">
    <div class="cp-board-wrap">${boardSvg(ctx, ui)}</div>
    <div class="cp-side">
      <div class="cp-roll"><span>${esc(t('cp.die'))}</span>${dieHtml(v, ctx)}
        <span class="muted">${esc(t('cp.round', { n: Math.min(v.round, v.max_rounds), max: v.max_rounds }))}</span></div>
      <div>${picture(art.tree())} <strong>${esc(t('cp.pool'))}:</strong> ${pool}</div>
      ${supply ? `<div>${picture(art.santa())} <strong>${esc(t('cp.supply'))}:</strong> ${supply}</div>` : ''}
      <div class="cp-players">${playersHtml(ctx)}</div>
    </div></div></div>`;
}

async function onClick(el, ctx, ui) {
  const act = el.dataset.act;
  if (act === 'cp-stop') {
    await sendStop(ctx, ui);
  } else if (act === 'cp-mode') {
    ui.mode = el.dataset.mode || null;
    ui.first = null;
    ctx.render();
  } else if (act === 'cp-floe') {
    const floe = Number(el.dataset.floe);
    if (ui.mode === 'channel') {
      if (ui.first === null) ui.first = floe;
      else if (ui.first === floe) ui.first = null;
      else {
        const a = ui.first;
        ui.first = null;
        ui.mode = null; // built (the log and the board show it): back to the turn
        await ctx.act({ kind: 'place_channel', a, b: floe }).catch(() => {});
      }
      ctx.render();
      return;
    }
    if (ui.mode === 'green') {
      ui.first = ui.first === floe ? null : floe;
      ctx.render();
      return;
    }
    const candidates = ctx.legal.map((e, i) => [e, i]).filter(([e]) => boardFloe(e) === floe).map(([, i]) => i);
    if (candidates.length === 1) {
      await ctx.act(ctx.legal[candidates[0]]).catch(() => {});
    } else if (candidates.length > 1) {
      ui.choice = candidates;
      ctx.render();
    }
  } else if (act === 'cp-cell' && ui.mode === 'green' && ui.first !== null) {
    const to = [Number(el.dataset.q), Number(el.dataset.r)];
    const floe = ui.first;
    ui.first = null;
    ui.mode = null;
    await ctx.act({ kind: 'use_stone', stone: 'green', floe, to }).catch(() => {});
    ctx.render();
  }
}

// `log`, `i`: the line in the log (its floes in the words of that moment, see boardBefore);
// without them (a banner, shown as it happens) the board on screen is that moment.
function eventText(ev, ctx, log, i) {
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
