// The first-game walkthrough: on a player's first turn of a game, four coach marks point in turn at
// the board, the choices, the timer and the "How to play" button, each with one sentence and
// "Next" / "Got it" / "Don't show again". A game whose walkthrough was shown once (finished, closed,
// or the turn passed) is remembered per game in localStorage; "Don't show again" ends it for every
// game. The marks never cover the element they describe, sit where they hide the fewest buttons,
// block nothing for long (the first action of the turn puts them away) and are reached with Tab
// (the first mark takes the focus unless the player is typing) and closed with Escape.
//
// The turn timer does not stop for the tips. So the four-step tour is shown only on a turn without
// a time limit; on a timed turn one bubble says the essentials at once (the game's board sentence,
// that the clock runs and what happens when it ends, where the rules are), needs no click and goes
// away with the first move; with less than `minSeconds` left no tip is shown (they wait for a turn
// with time). See docs/web-client.md, "Rules at hand".
import { addTexts, lang, t } from './i18n.js';
import { store } from './state.js';
import { esc, settings } from './util.js';

addTexts({
  en: {
    'coach.label': 'Tips for your first turn',
    'coach.step': 'Tip {n} of {of}',
    'coach.next': 'Next',
    'coach.done': 'Got it',
    'coach.never': "Don't show again",
    'coach.frame': 'The gold frame shows what a tip is about.',
    'coach.board.happy_holidays': 'This is the table: the gifts under the tree, the die, and every player\'s sleigh and stacks.',
    'coach.board.unterm_baum': 'Here is the tree with the face-down presents, and below it every player\'s table.',
    'coach.board.christmas_penguins': 'This is the ice. When it is your move, the floes you may choose light up in yellow: just choose one.',
    'coach.actions': 'Your choices are here. Choose one of them to play.',
    'coach.timer': 'The time left for your turn. If it runs out, the game makes a sensible choice for you.',
    'coach.no_timer': 'There is no time limit: take your time.',
    'coach.help': 'Forgot a rule? The 📖 button shows the rules at any time.',
    'coach.quick': 'The clock up here keeps running: if it runs out, the game chooses for you.',
  },
  de: {
    'coach.label': 'Tipps für deinen ersten Zug',
    'coach.step': 'Tipp {n} von {of}',
    'coach.next': 'Weiter',
    'coach.done': 'Verstanden',
    'coach.never': 'Nicht mehr zeigen',
    'coach.frame': 'Der goldene Rahmen zeigt, worum es im Tipp geht.',
    'coach.board.happy_holidays': 'Das ist der Spieltisch: die Geschenke unterm Baum, der Würfel, und von allen Spielern der Schlitten mit den Stapeln.',
    'coach.board.unterm_baum': 'Hier ist der Baum mit den verdeckten Geschenken, darunter die Tische aller Spieler.',
    'coach.board.christmas_penguins': 'Das ist das Eis. Wenn du ziehen darfst, leuchten die möglichen Schollen gelb: einfach eine wählen.',
    'coach.actions': 'Hier stehen deine Möglichkeiten. Wähl eine davon.',
    'coach.timer': 'So viel Zeit bleibt dir noch. Läuft sie ab, wählt das Spiel für dich etwas Vernünftiges.',
    'coach.no_timer': 'Es gibt kein Zeitlimit: lass dir Zeit.',
    'coach.help': 'Regel vergessen? Der 📖-Knopf zeigt sie jederzeit.',
    'coach.quick': 'Die Uhr hier oben läuft weiter: Läuft sie ab, wählt das Spiel für dich.',
  },
});

// Prompts that are not a turn of one's own: writing and memorising the wish list (everyone at
// once), the window to shout "Stop!" and playing a stone after it.
const notATurn = new Set(['assign', 'memorize', 'reaction', 'stopped']);

const steps = [
  { key: 'board', target: () => document.querySelector('#screen .board-wrap') },
  { key: 'actions', target: () => document.querySelector('#screen .actions') },
  { key: 'timer', target: () => document.querySelector('#screen .turn-bar .timer') },
  { key: 'help', target: () => document.querySelector('#help-game') },
].map((s, i) => ({ ...s, i }));
// On a timed turn: one bubble at the turn bar (whose turn, what to do, the clock) with all of it.
const quick = [{ key: 'quick', i: 0, target: () => document.querySelector('#screen .turn-bar') }];
// Below this many seconds left, a tip would cost the turn: none is shown.
const minSeconds = 15;

let active = null; // {game, step}
let bubble = null;
let ring = null;

const memory = () => settings.get('coach', {});
function remember(change) {
  settings.set('coach', { ...memory(), ...change });
}

function myTurn() {
  const s = store.state;
  if (!s || s.over || store.seat === null || !document.querySelector('#screen .game')) return false;
  const p = s.prompt;
  return Boolean(p && p.seats?.includes(store.seat) && s.legal?.length && !notATurn.has(p.kind));
}

// Called after every render of the screen.
export function afterRender() {
  const game = store.room?.game;
  if (active && (active.game !== game || !myTurn())) {
    finish(); // the turn is over: it was shown once
    return;
  }
  if (!active) {
    const mem = memory();
    if (!game || mem.off || mem.seen?.[game] || !myTurn()) return;
    // Timed only when the turn bar shows a clock (calls.js shows one only for a decision the game
    // really takes for the player): the tip never promises a timeout the game will not keep.
    const deadline = document.querySelector('#screen .turn-bar .countdown') ? store.state.prompt?.deadline : null;
    const left = deadline ? (deadline - Date.now()) / 1000 : Infinity;
    if (left < minSeconds) return; // no time to read: maybe on a later turn
    active = { game, step: 0, timed: Boolean(deadline) };
    show(true);
    return;
  }
  show(false);
}

function text(step) {
  if (step.key === 'quick') return `${t(`coach.board.${active.game}`)} ${t('coach.quick')}`;
  if (step.key === 'board') return `${t('coach.frame')} ${t(`coach.board.${active.game}`)}`;
  if (step.key === 'timer' && step.el.classList.contains('muted')) return t('coach.no_timer');
  return t(`coach.${step.key}`);
}

// The steps whose element is on screen now (the choices may be missing, e.g. a board-only turn).
function present() {
  return (active.timed ? quick : steps).map((s) => ({ ...s, el: s.target() })).filter((s) => s.el && s.el.getClientRects().length);
}

function show(first) {
  const list = present();
  // active.step is the index of the step to show; steps now missing are skipped.
  const here = list.filter((s) => s.i >= active.step);
  if (!here.length) {
    finish();
    return;
  }
  const step = here[0];
  active.step = step.i;
  active.key = step.key;
  const last = here.length === 1;
  const n = list.findIndex((s) => s.key === step.key) + 1;
  if (!bubble) {
    // One thing at a time: the offer of turn messages (calls.js) waits while a tip is shown.
    const offer = document.getElementById('calls-offer');
    if (offer) offer.hidden = true;
    bubble = document.createElement('div');
    bubble.className = 'coach';
    bubble.id = 'coach';
    bubble.setAttribute('role', 'dialog');
    bubble.setAttribute('aria-modal', 'false');
    bubble.setAttribute('aria-labelledby', 'coach-text');
    bubble.dataset.testid = 'coach';
    ring = document.createElement('div');
    ring.className = 'coach-ring';
    ring.setAttribute('aria-hidden', 'true');
    document.body.append(ring, bubble);
    bubble.addEventListener('click', onBubbleClick);
    bubble.addEventListener('keydown', (ev) => {
      if (ev.key === 'Escape') finish();
    });
  }
  const shownKey = `${active.game}:${step.key}:${list.length}:${lang()}`;
  if (bubble.dataset.shown !== shownKey) {
    const hadFocus = bubble.contains(document.activeElement);
    bubble.dataset.shown = shownKey;
    bubble.dataset.step = step.key;
    bubble.innerHTML = `<p id="coach-text" class="coach-text">${esc(text(step))}</p>
      <div class="coach-buttons">
        <button type="button" class="primary" id="coach-next" data-coach="${last ? 'done' : 'next'}">${esc(t(last ? 'coach.done' : 'coach.next'))}</button>
        <button type="button" class="small" id="coach-never" data-coach="never">${esc(t('coach.never'))}</button>
        ${list.length > 1 ? `<span class="coach-count">${esc(t('coach.step', { n, of: list.length }))}</span>` : ''}
      </div>`;
    bubble.setAttribute('aria-label', t('coach.label'));
    const typing = document.activeElement?.matches?.('input, textarea, select');
    if (hadFocus || (first && !typing)) bubble.querySelector('#coach-next').focus({ preventScroll: true });
    revealTarget(step.el);
  }
  place();
}

// Brings the described element into view when none of it is on screen (the page does not jump
// while any of it can be seen).
function revealTarget(el) {
  const r = el.getBoundingClientRect();
  if (r.bottom > 0 && r.top < window.innerHeight) return;
  const smooth = !window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  el.scrollIntoView({ block: 'center', behavior: smooth ? 'smooth' : 'auto' });
}

const area = (a, b) => Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left))
  * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));

// Puts the bubble next to its element: of the places in the window, the one that covers no button
// or clickable board place, then as little of the element as possible (nothing, unless it is
// larger than the window), then is nearest to it.
function place() {
  if (!active || !bubble) return;
  const step = [...steps, ...quick].find((s) => s.key === active.key);
  const el = step?.target();
  if (!el) return;
  const r = el.getBoundingClientRect();
  const W = document.documentElement.clientWidth;
  const H = window.innerHeight;
  bubble.style.maxWidth = `${Math.min(22 * 16, W - 16)}px`;
  const w = bubble.offsetWidth;
  const h = bubble.offsetHeight;
  const gap = 12;
  const clampX = (x) => Math.max(8, Math.min(W - w - 8, x));
  const clampY = (y) => Math.max(8, Math.min(H - h - 8, y));
  const cx = clampX(r.left + Math.min(r.width, 2 * w) / 2 - w / 2);
  const candidates = [
    [cx, r.bottom + gap], [cx, r.top - h - gap],
    [r.right + gap, clampY(r.top)], [r.left - w - gap, clampY(r.top)],
    [clampX(r.right - w), r.bottom + gap], [clampX(r.right - w), r.top - h - gap],
  ];
  // And anywhere else in the window, so that the nearest free place is found when the places
  // around the element are taken by buttons.
  for (let y = 8; y <= H - h - 8; y += 24) for (let x = 8; x <= W - w - 8; x += 24) candidates.push([x, y]);
  const busy = [...document.querySelectorAll('#screen button, #screen [data-act], #screen input, #screen select, #screen summary, #chat-form, .top button, .top a')]
    .filter((b) => b !== el).map((b) => b.getBoundingClientRect()).filter((b) => b.width && b.height);
  let best = null;
  for (const [x0, y0] of candidates) {
    const x = clampX(x0);
    const y = clampY(y0);
    const box = { left: x, top: y, right: x + w, bottom: y + h };
    const covered = area(box, r) / Math.max(1, Math.min(r.width * r.height, w * h));
    const blocked = busy.reduce((n, b) => n + (area(box, b) > 0 ? 1 : 0), 0);
    const moved = Math.abs(x - x0) + Math.abs(y - y0);
    const away = Math.max(0, r.left - box.right, box.left - r.right) + Math.max(0, r.top - box.bottom, box.top - r.bottom);
    // The one tip of a timed turn talks about the clock in the turn bar: it never lies on the bar.
    const score = blocked * 2000 + covered * (step.key === 'quick' ? 100000 : 1000) + (moved + away) / 100;
    if (!best || score < best.score) best = { x, y, score };
  }
  bubble.style.left = `${Math.round(best.x)}px`;
  bubble.style.top = `${Math.round(best.y)}px`;
  const pad = 4;
  Object.assign(ring.style, {
    left: `${r.left - pad}px`, top: `${r.top - pad}px`, width: `${r.width + 2 * pad}px`, height: `${r.height + 2 * pad}px`,
  });
  ring.hidden = false;
  bubble.hidden = false;
}

function onBubbleClick(ev) {
  const what = ev.target.closest('[data-coach]')?.dataset.coach;
  if (what === 'next') {
    active.step += 1;
    show(false);
  } else if (what === 'done') {
    finish();
  } else if (what === 'never') {
    remember({ off: true });
    finish();
  }
}

// The walkthrough is over for this game: remembered, and put away.
function finish() {
  if (active) remember({ seen: { ...(memory().seen || {}), [active.game]: true } });
  const hadFocus = bubble?.contains(document.activeElement);
  active = null;
  bubble?.remove();
  ring?.remove();
  bubble = null;
  ring = null;
  if (hadFocus) document.querySelector('#screen .actions button, #help-game')?.focus({ preventScroll: true });
}

// Playing is the best sign the tips are no longer needed: the first action of the turn puts them
// away, so they never stand in the way for long.
document.addEventListener('click', (ev) => {
  if (!active || ev.target.closest?.('#coach, [data-help]')) return;
  if (ev.target.closest?.('#screen [data-act]')) finish();
}, true);

let queued = false;
const follow = () => {
  if (queued || !active) return;
  queued = true;
  requestAnimationFrame(() => {
    queued = false;
    place();
  });
};
window.addEventListener('scroll', follow, { passive: true });
window.addEventListener('resize', follow);
