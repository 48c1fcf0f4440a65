// Christmas Penguins: things on the board in the words a family uses (a floe by its number and
// where it lies, a present's colour, whose penguin), for the log, the banners, the buttons and the
// floes' accessible names alike.
import { t } from '../i18n.js';

export const colourName = (c) => t(`cp.${c}`);
// "a red" or "an orange" (English texts say {a_colour}; German ones "ein Geschenk in {colour}").
export const aColour = (c) => { const w = colourName(c); return `${/^[aeiou]/i.test(w) ? 'an' : 'a'} ${w}`; };

// A floe in words a family uses: the tree's or the hut's floe, or its number (written small on the
// board, so that a log line says which floe: issue 31) with where it lies ("floe 12 next to the
// tree", "floe 7 on the edge at the top left"). `on`: the form after "stands on" (German dative)
// rather than "moves to" (accusative); only the tree's and the hut's floe differ.
const ring = ([q, r]) => (Math.abs(q) + Math.abs(r) + Math.abs(q + r)) / 2;
export const apart = ([q1, r1], [q2, r2]) => ring([q1 - q2, r1 - r2]);
export function side([q, r]) {
  const angle = (Math.atan2(-1.5 * r, Math.sqrt(3) * (q + r / 2)) * 180) / Math.PI;
  return t(`cp.side.${(Math.round(((angle + 360) % 360) / 60)) % 6}`);
}
export function where(f, v, on = false, { noTree = false } = {}) {
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
export const isMe = (ctx, seat) => ctx.seat !== null && ctx.seat !== undefined && seat === ctx.seat;
// "Oma's penguin", or "your penguin" to Oma (German dative: "mit deinem Pinguin").
export const penguinOf = (seat, ctx) => (isMe(ctx, seat) ? t('cp.who.your_penguin') : t('cp.who.penguin', { name: ctx.name(seat) }));
export const penguinTip = (seat, ctx) => (isMe(ctx, seat) ? t('cp.tip.penguin_you') : t('cp.tip.penguin', { name: ctx.name(seat) }));
// The figure on floe f other than the seat's own penguin: for the red and blue stones.
export function figureOn(f, v, ctx, seat) {
  const penguin = v.players.find((p) => p.penguin === f && p.seat !== seat);
  if (penguin) return penguinOf(penguin.seat, ctx);
  if (v.santa === f) return t('cp.who.santa');
  if (v.bear === f) return t('cp.who.bear');
  return '?';
}
