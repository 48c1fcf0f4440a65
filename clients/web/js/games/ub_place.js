// Unterm Baum: what the player on turn does with a card, and where it goes. The choices sit in a
// dock at the bottom of the screen (css/unterm_baum.css): the kinds of move, a line saying what to
// tap, "End my turn", and, once a card is chosen to move, a chip of that card (with a ✕ that puts
// it back) in their place. The page then brings the places the card may go into view, next to the
// chip: on a phone the own table lies a long scroll below the tree, and a move is still two taps
// (issue 31). After each render this module also scrolls into view what has to be seen now (the
// wish list to memorise, a card just turned over) and keeps the reveal banner off the card it shows.
import { t } from '../i18n.js';
import { esc, same } from '../util.js';
import { reducedMotion } from '../motion.js';
import { hasLocation } from '/lib/legal.js';
import { backSvg } from './ub_motifs.js';

const area = (loc) => ('tree' in loc ? 'tree' : `seat${loc.seat}`);

export function entries(ctx, kind) {
  return ctx.legal.filter((e) => e.kind === kind);
}
export function domainOf(ctx, kind) {
  return entries(ctx, kind).find((e) => e.domain)?.domain || null;
}

export function availableModes(ctx) {
  const modes = [];
  if (entries(ctx, 'reveal').length) modes.push('reveal');
  if (domainOf(ctx, 'move')) modes.push('move');
  if (domainOf(ctx, 'rearrange')) modes.push('rearrange');
  return modes;
}

export function currentMode(ctx, ui) {
  const modes = availableModes(ctx);
  if (!modes.includes(ui.mode)) {
    ui.mode = modes[0] || null;
    ui.selected = null;
  }
  return ui.mode;
}

// Is `loc` a place the player may click now, and what would it do?
export function clickable(loc, occupied, ctx, ui) {
  const mode = currentMode(ctx, ui);
  if (mode === 'reveal') return occupied && entries(ctx, 'reveal').some((e) => same(e.location, loc));
  if (mode === 'move') {
    const d = domainOf(ctx, 'move');
    if (!ui.selected) return hasLocation(d.from, loc);
    return same(ui.selected, loc) || (area(ui.selected) !== area(loc) && hasLocation(d.to, loc));
  }
  if (mode === 'rearrange') {
    if (!('seat' in loc) || loc.seat !== ctx.seat) return false;
    return ui.selected ? true : occupied;
  }
  return false;
}


// The dock's own part (screens.js adds "End my turn" after it): the kinds of move, and what to tap
// now, in full on a wide screen and in a few words on a phone, where the dock keeps to two short
// lines. With a card chosen, its chip: a small card back ringed like the card on the board, where
// it comes from (`whence`: words for a place), what to tap next, and ✕.
export function actionsExtra(ctx, ui, whence) {
  const modes = availableModes(ctx);
  if (!modes.length) return '';
  const mode = currentMode(ctx, ui);
  const step = mode === 'reveal' ? 'reveal'
    : mode === 'move' ? (ui.selected ? 'move_to' : 'move_from')
      : ui.selected ? 'rearrange_to' : 'rearrange_from';
  const say = (long, short) => `<span class="ub-long">${esc(long)}</span><span class="ub-short" aria-hidden="true">${esc(short)}</span>`;
  const buttons = modes.map((m) => `<button class="mode ${m === mode ? 'primary' : ''}" data-act="ub-mode" data-mode="${m}" aria-pressed="${m === mode}">${say(t(`ub.mode.${m}`), t(`ub.mode_short.${m}`))}</button>`);
  const hint = `<p class="hint">${say(t(`ub.hint.${step}`), t(`ub.hint_short.${step}`))}</p>`;
  const chip = ui.selected && (mode === 'move' || mode === 'rearrange')
    ? `<div class="ub-pick" data-testid="ub-pick" role="status"><span class="ub-pick-card" aria-hidden="true">${backSvg()}</span>
      <span class="ub-pick-text"><strong>${esc(whence(ui.selected))}</strong> ${say(t(`ub.hint.${step}`), t(`ub.hint_short.${step}`))}</span>
      <button class="ub-pick-cancel" data-act="ub-cancel" data-testid="ub-pick-cancel" title="${esc(t('ub.pick_cancel'))}" aria-label="${esc(t('ub.pick_cancel'))}">✕</button></div>`
    : '';
  return `<div class="buttons ub-modes">${buttons.join('')}</div>${chip || hint}`;
}

// A tap on a place of the board: look at it, or choose the card to move (then the places it may go
// are brought into view), or the place it goes to.
export async function tapPlace(loc, ctx, ui) {
  const mode = currentMode(ctx, ui);
  if (mode === 'reveal') {
    const entry = entries(ctx, 'reveal').find((e) => same(e.location, loc));
    if (entry) await ctx.act(entry).catch(() => {});
  } else if (mode === 'move') {
    if (!ui.selected) {
      ui.selected = loc;
      ui.pending.dest = true;
    } else if (same(ui.selected, loc)) ui.selected = null;
    else {
      const from = ui.selected;
      ui.selected = null;
      await ctx.act({ kind: 'move', from, to: loc }).catch(() => {});
    }
    ctx.render();
  } else if (mode === 'rearrange') {
    const field = ctx.view.players[ctx.seat].field;
    if (!ui.selected) {
      if (field[loc.row][loc.slot]) ui.selected = loc;
    } else if (same(ui.selected, loc)) {
      ui.selected = null;
    } else {
      const a = { row: ui.selected.row, slot: ui.selected.slot };
      const b = { row: loc.row, slot: loc.slot };
      ui.selected = null;
      const moves = field[b.row][b.slot] ? [{ from: a, to: b }, { from: b, to: a }] : [{ from: a, to: b }];
      await ctx.act({ kind: 'rearrange', moves }).catch(() => {});
    }
    ctx.render();
  }
}

// The part of the screen no sticky bar covers: below the turn bar, above the dock. `stuck`: once
// the page has scrolled (the bar then sticks to the top of the screen).
function freeBand(stuck = false) {
  const bar = document.querySelector('#screen .turn-bar')?.getBoundingClientRect();
  const over = (bar ? Math.max(0, stuck ? bar.height : bar.bottom) : 0) + 8;
  const dock = document.querySelector('#screen .game-unterm_baum > .actions');
  const d = dock?.getBoundingClientRect();
  const under = d && getComputedStyle(dock).position === 'sticky' && d.bottom >= window.innerHeight - 2 ? d.top - 8 : window.innerHeight - 8;
  return { over, under };
}

// A card was just chosen to move: if none of the places it may go is in sight, the page brings
// the nearest table that takes it (the own one first, unless the card comes from there; else the
// tree) to just below the turn bar. The chip in the dock stays in sight meanwhile. A smooth scroll
// can be cut short (by the tail of the very tap that chose the card, on some phones): if the places
// are still out of sight a moment later, the page jumps there.
function bringDestinations(behavior, again = true) {
  const screen = document.querySelector('#screen');
  const from = screen?.querySelector('.ub-card.selected');
  const dests = [...(screen?.querySelectorAll('.ub-board .ub-card.can:not(.selected)') || [])];
  if (!from || !dests.length) return;
  let { over, under } = freeBand();
  const inSight = (el) => {
    const r = el.getBoundingClientRect();
    return r.top >= over && r.bottom <= under;
  };
  if (dests.some(inSight)) return;
  const home = from.closest('.ub-field, .ub-tree');
  const order = ['.ub-field.mine', '.ub-tree', '.ub-field'];
  let target = null;
  for (const sel of order) {
    target = dests.find((el) => el.closest(sel) && el.closest('.ub-field, .ub-tree') !== home);
    if (target) break;
  }
  target ||= dests[0];
  ({ over, under } = freeBand(true));
  const block = target.closest('.ub-field');
  const r = target.getBoundingClientRect();
  // A table's heading right under the bar, unless the place itself would then still be hidden
  // below the dock; a place on the tree (or that one), in the middle of the free part, with the
  // branches around it.
  const middle = r.top - over - Math.max(0, (under - over - r.height) / 2);
  let top = block ? block.getBoundingClientRect().top - over : middle;
  if (r.bottom - top > under) top = middle;
  window.scrollBy({ top, behavior });
  if (again && behavior === 'smooth') {
    setTimeout(() => {
      if (document.querySelector('#screen .ub-card.selected') === from) bringDestinations('auto', false);
    }, 900);
  }
}

// After a render (the sticky reveal sits right under the sticky turn bar: --turn-bar-h, app.js),
// what has to be seen now (the wish list when MEMORIZE starts, a card that was just turned over:
// `pending`) is scrolled into the part of the screen that no sticky bar covers.
export function afterRender(pending) {
  const dockEl = document.querySelector('#screen .game-unterm_baum > .actions');
  document.documentElement.style.setProperty('--ub-dock-h', `${dockEl ? Math.ceil(dockEl.getBoundingClientRect().height) : 0}px`);
  const bar = document.querySelector('#screen .turn-bar');
  const barBottom = bar ? Math.max(0, bar.getBoundingClientRect().height) : 0;
  const behavior = reducedMotion() ? 'auto' : 'smooth';
  if (pending.wishlist) {
    pending.wishlist = false;
    const list = document.querySelector('#screen [data-testid="ub-wishlist"]');
    if (list) {
      const top = list.getBoundingClientRect().top - barBottom - 8;
      window.scrollBy({ top, behavior });
    }
  }
  // The player's own turn begins (the tree) or a new game's wish list is to be written (the list):
  // brought into view if it is not, so that she does not start her turn looking at someone else's
  // table with the clock running (found by a newcomer trial).
  if (pending.to) {
    const el = document.querySelector(`#screen ${pending.to}`);
    pending.to = null;
    const r = el?.getBoundingClientRect();
    if (r && (r.bottom < barBottom + 120 || r.top > window.innerHeight * 0.6)) window.scrollBy({ top: r.top - barBottom - 8, behavior });
  }
  if (pending.dest) {
    pending.dest = false;
    bringDestinations(behavior);
  }
  if (pending.card) {
    const el = document.querySelector(`#screen [data-testid="ub-${pending.card}"]`);
    pending.card = null;
    if (!el) return;
    const banner = document.querySelector('#screen .ub-reveal');
    const dock = document.querySelector('#screen .actions');
    const over = Math.max(barBottom, banner ? banner.getBoundingClientRect().bottom : 0) + 8;
    let under = window.innerHeight - 8;
    const d = dock?.getBoundingClientRect();
    if (d && getComputedStyle(dock).position === 'sticky' && d.bottom >= window.innerHeight - 2) under = d.top - 8;
    const c = el.getBoundingClientRect();
    // Instant: the card must be visible while it is open, and open it is now.
    if (c.top < over) window.scrollBy(0, c.top - over);
    else if (c.bottom > under) window.scrollBy(0, Math.min(c.bottom - under, c.top - over));
  }
}
export function settleAfterRender(pending) {
  requestAnimationFrame(() => {
    afterRender(pending);
    placeBanner();
  });
}

// The banner sticks under the turn bar; when the page is scrolled so that the revealed card would
// lie under the banner, the banner moves down below the card: it never covers what it shows.
export function placeBanner() {
  const banner = document.querySelector('#screen .ub-reveal');
  if (!banner) return;
  banner.style.transform = '';
  const card = document.querySelector('#screen .ub-card.revealed');
  if (!card) return;
  const b = banner.getBoundingClientRect();
  const c = card.getBoundingClientRect();
  const overlaps = b.bottom > c.top && b.top < c.bottom && b.right > c.left && b.left < c.right;
  if (overlaps) banner.style.transform = `translateY(${Math.ceil(c.bottom + 6 - b.top)}px)`;
}
let placing = false;
window.addEventListener('scroll', () => {
  if (placing) return;
  placing = true;
  requestAnimationFrame(() => {
    placing = false;
    placeBanner();
  });
}, { passive: true });
