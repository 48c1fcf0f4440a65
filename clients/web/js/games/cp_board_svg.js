// Christmas Penguins: the board as SVG (the ice floes in axial coordinates from `view.cells`, water
// channels on edges, the figures, the tree, the hut, stones and loose presents), and which floe a
// `legal` entry is chosen on: such floes are highlighted, and clicking one plays it.
import { t } from '../i18n.js';
import { esc } from '../util.js';
import { markAttrs, markPath, seatColourName } from '../marks.js';
import { art } from './cp_art.js';
import { colourName, isMe, penguinTip, side, where } from './cp_words.js';

// The pieces' colours: a present's, a stone's.
export const paint = { red: '#d62828', blue: '#1d6fd6', green: '#2a9d3f', yellow: '#e0b000', purple: '#8e44ad', orange: '#e06c00' };

// Kinds whose floe parameter is chosen by clicking the board.
const floeParam = {
  place_penguin: 'floe', place_tree: 'floe', place_bear: 'floe', place_stone: 'floe', relocate_tree: 'floe',
  move: 'to', bear_move: 'to', flee: 'to',
};
export function boardFloe(entry) {
  if (entry.domain) return null;
  if (entry.kind in floeParam) return entry[floeParam[entry.kind]];
  if (entry.kind === 'push') return entry.chain[entry.chain.length - 1]; // where the last penguin lands
  if (entry.kind === 'use_stone' && entry.stone !== 'green') return entry.target;
  return null;
}

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
export function moverOf(ctx) {
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

export function boardSvg(ctx, ui) {
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
        drawing = art.penguin(ctx.colour(fig.seat), seatColourName(fig.seat), here.length > 1);
        attrs = markAttrs(seatColourName(fig.seat));
      } else {
        tip = fig.kind === 'santa' ? t('cp.tip.santa', { name: santaName }) : t('cp.tip.bear');
        const santaSeat = v.players.find((p) => p.role === 'santa')?.seat;
        drawing = fig.kind === 'santa' && santaSeat !== undefined ? art.santa(ctx.colour(santaSeat), seatColourName(santaSeat), here.length > 1) : art[fig.kind]();
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
