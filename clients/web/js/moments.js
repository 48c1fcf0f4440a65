// Moments everyone sees: a short banner on every screen, for players and spectators alike, when
// something big happens at the table ("Stop!", a stone played, a stolen present, a lost reindeer,
// a sleigh swap, the last round). The end has the results screen. The log keeps every event; the
// banner only these.
// Each game names its moments (`moments`: event kind -> icon) and words them as in its log. A
// moment that is only news for some viewers, or needs other words for them ("You are Santa now"),
// is a function instead: (event, ctx, msg) -> the banner's whole text, or null for no banner.
// What the viewer did themselves is no news to them: an event whose `seat` is the viewer's own
// seat gets no banner, unless the game's function words it. Two moments are the frame's own: the
// viewer's time ran out (the game may say what it chose: `timeoutText(msg, ctx)`), and a new game
// began after "Play again".
import { addTexts, t } from './i18n.js';
import { games } from './state.js';

addTexts({
  en: { 'moment.timed_out_you': 'Time was up: the game chose for you', 'moment.new_game': 'A new game begins! The last one is over: everything starts afresh.' },
  de: { 'moment.timed_out_you': 'Die Zeit war um: das Spiel hat für dich gewählt', 'moment.new_game': 'Ein neues Spiel beginnt! Das letzte ist vorbei: alles fängt von vorn an.' },
});

const queue = [];
let timer = null;
let awaited = false; // whether the last state waited on this viewer

// `board`: the room's board (games/board.js), null while it is on its way.
function momentText(ev, msg, board, ctx) {
  const v = msg.view || {};
  if (ev.kind === 'turn_started' && v.max_rounds && ev.round === v.max_rounds && v.max_rounds > 1) return `⏳ ${t('moment.last_round')}`;
  // Time ran out on the viewer: said to them, with what the game chose if it says (timeoutText).
  // Not the end of a window that only waited for whoever wanted to act (Christmas Penguins'
  // "Stop!" window): nothing was chosen for anybody there.
  if (ev.kind === 'timed_out') {
    if (ctx.seat === null || ctx.seat === undefined || !ev.seats?.includes(ctx.seat) || games[board?.id ?? v.game]?.windowPrompts?.includes(ev.prompt)) return null;
    return `⏱ ${board?.timeoutText?.(msg, ctx) || t('moment.timed_out_you')}`;
  }
  // "Play again": the results give way to a new game, and everyone is told so.
  if (ev.kind === 'game_started') return `🎄 ${t('moment.new_game')}`;
  const moment = board?.moments?.[ev.kind];
  if (typeof moment === 'function') return moment(ev, ctx, msg) || null;
  const icon = moment;
  if (!icon) return null;
  if (ctx.seat !== null && ctx.seat !== undefined && ev.seat === ctx.seat) return null;
  const line = board.eventText(ev, ctx);
  return line ? `${icon} ${line}` : null;
}

function next() {
  const el = document.getElementById('moment');
  const text = queue.shift();
  if (!el || text === undefined) {
    if (el) el.hidden = true;
    timer = null;
    return;
  }
  el.textContent = text;
  el.hidden = false;
  // The last few moments shown, for anyone who looks later (and the browser tests).
  const shown = JSON.parse(el.dataset.shown || '[]').concat(text).slice(-10);
  el.dataset.shown = JSON.stringify(shown);
  // Restart the fade-in (CSS; none with prefers-reduced-motion).
  el.classList.remove('show');
  void el.offsetWidth;
  el.classList.add('show');
  timer = setTimeout(next, queue.length ? 2500 : 3500);
}

// Shows the moments of a live state (not of one that catches up after a reload or reconnect).
// When the viewer's own turn begins, what happened before it is old news: only this state's
// moments (and what follows during the turn) are shown. The end of the game has the results screen instead.
export function showMoments(msg, board, ctx) {
  if (msg.over) return clearMoments();
  // Only when the turn begins, not on every state of it: news that arrives while the player acts
  // (a quick player answers before a queued banner had its turn) is still shown.
  const mine = ctx.seat !== null && Boolean(msg.prompt?.seats?.includes(ctx.seat));
  if (mine && !awaited) {
    queue.length = 0;
    clearTimeout(timer);
    timer = null;
  }
  awaited = mine;
  let first = null; // a new game is said first and never trimmed away by the moments after it
  for (const ev of msg.events) {
    const text = momentText(ev, msg, board, ctx);
    if (!text) continue;
    if (ev.kind === 'game_started') {
      queue.length = 0;
      first = text;
    } else queue.push(text);
  }
  // A burst (a turn of a computer player) keeps only its last few moments.
  while (queue.length > (first ? 2 : 3)) queue.shift();
  if (first) {
    queue.unshift(first);
    clearTimeout(timer);
    timer = null;
  }
  if (!timer) next();
}

// A new room or game: nothing from before is announced any more.
export function clearMoments() {
  awaited = false;
  queue.length = 0;
  clearTimeout(timer);
  timer = null;
  const el = document.getElementById('moment');
  if (el) el.hidden = true;
}
