// Christmas Penguins: the panel beside the board: the die, the presents under the tree, Santa's
// stones, and every player's card with what they hold.
import { t } from '../i18n.js';
import { esc } from '../util.js';
import { markAttrs, markSvg, seatDot } from '../marks.js';
import { art, picture } from './cp_art.js';
import { paint } from './cp_board_svg.js';
import { colourName } from './cp_words.js';

const presentColours = ['red', 'blue', 'green', 'yellow', 'purple', 'orange'];

// Chips in a piece's colour with its shape and the count on it: white or near-black writing,
// whichever reads at WCAG AA (4.5:1) on that colour.
const inkOn = { red: '#fff', blue: '#fff', purple: '#fff', green: '#111', yellow: '#111', orange: '#111' };
export const chip = (cls, c, n) => `<span class="${cls}" ${markAttrs(c)} style="--g:${paint[c]};--ink-on:${inkOn[c]}" role="img" aria-label="${esc(`${n} × ${colourName(c)}`)}" title="${esc(colourName(c))}">${markSvg(c)}<span>${n}</span></span>`;

export function presentsHtml(presents) {
  return presentColours.filter((c) => presents[c]).map((c) => chip('present', c, presents[c])).join('') || '–';
}

// Whom the game waits for now (the prompt's seats), in every phase, setup included: their cards
// wear the gold frame. With no prompt (the end), the player whose turn it was.
function waitedFor(ctx) {
  const p = ctx.state?.prompt;
  return !ctx.state?.over && p?.seats?.length ? p.seats : [ctx.view.active];
}

export function playersHtml(ctx) {
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

// The die as a die: its pips, and a short tumble when a new roll lands (a new data-key makes it a
// new element, so its CSS animation runs once; none under reduced motion).
export const pips = { 1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]], 4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
  5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]], 6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]] };
export function dieHtml(v, ctx) {
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
