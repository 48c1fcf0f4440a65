// Your turn calls you, and the clock tells the truth (issue 31).
//
// Calls: when a decision becomes the player's, the page plays a short, friendly two-note chime
// (made here with Web Audio: nothing is downloaded), vibrates a phone (navigator.vibrate) and, when
// the page is hidden (another tab, a locked phone), shows a system notification. A few big moments
// (the end of a game, a new game in the room) get a softer single note and a short buzz. The tab
// title says "Your turn" as before (screens.js). One mute switch in the header silences sound,
// vibration and notifications; it is remembered in this browser (settings, localStorage).
// Browsers play sound only after a user gesture: the AudioContext is made and resumed on the first
// click, tap or key press. Notification permission is never asked at load: once the player is
// seated in a running game and waits for the others, a small offer asks whether they want a
// message when it is their turn.
//
// Everything the module does is also written to `window.__tinselCalls` (the last 50 calls:
// kind, and whether sound, vibration and a notification went out), so the browser tests can see it.
//
// Clock: the turn bar shows a countdown only for a decision the game will really take for a player
// (prompt.deadline: the prompt's timer, or an away player's few seconds; the server leaves a lost
// connection's grace out of it, docs/protocol.md "Timeouts"), and says whose decision it is and
// what happens when it runs out.
import { lang, t } from './i18n.js';
import { gameTitle, games, seatName, store } from './state.js';
import { esc, formatSeconds, secondsLeft, settings } from './util.js';

const calls = (window.__tinselCalls = window.__tinselCalls || []);

// Prompts that call nobody: a window that waits for whoever wants to act and closes by itself
// ("Stop!"), the stone after one's own "Stop!" (the player is looking), memorising (no seat).
const quiet = new Set(['reaction', 'stopped', 'memorize']);

export function muted() {
  return settings.get('muted', false) === true;
}

function setMuted(on) {
  settings.set('muted', on ? true : null);
  if (on) closeNotification();
  renderCalls();
}

// ---------------------------------------------------------------------------------------------
// Sound: made on the page with Web Audio, after the first user gesture.

let audio = null;
function unlock() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return;
  try {
    audio ??= new Ctx();
    if (audio.state === 'suspended') audio.resume().catch(() => {});
  } catch {
    audio = null;
  }
}
for (const type of ['pointerdown', 'keydown', 'touchend']) document.addEventListener(type, unlock, { capture: true, passive: true });

// One soft sine note with a gentle attack and a long fade (no click at start or end).
function note(freq, start, length, volume) {
  const osc = audio.createOscillator();
  const gain = audio.createGain();
  osc.type = 'sine';
  osc.frequency.value = freq;
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(volume, start + 0.02);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
  osc.connect(gain).connect(audio.destination);
  osc.start(start);
  osc.stop(start + length + 0.05);
}

// 'turn': two rising notes (E5, B5), like a doorbell; 'moment': one low, quiet note (C5).
function chime(kind) {
  if (!audio || audio.state !== 'running') return false; // no gesture yet: the browser would not play it
  const now = audio.currentTime + 0.01;
  if (kind === 'turn') {
    note(659.25, now, 0.4, 0.2);
    note(987.77, now + 0.16, 0.6, 0.18);
  } else {
    note(523.25, now, 0.7, 0.08);
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Notifications: only while the page is hidden, only with permission, never while muted.

let shown = null;
function notify(title, body) {
  if (document.visibilityState !== 'hidden' || typeof window.Notification !== 'function' || Notification.permission !== 'granted') return false;
  try {
    closeNotification();
    shown = new Notification(title, { body, tag: 'tinsel-turn', icon: document.querySelector('link[rel=icon]')?.href });
    shown.onclick = () => {
      window.focus();
      closeNotification();
    };
    return true;
  } catch {
    return false; // Android Chrome allows notifications only from a service worker
  }
}
function closeNotification() {
  try {
    shown?.close();
  } catch {
    /* already gone */
  }
  shown = null;
}
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible') closeNotification();
});

function call(kind, title, body) {
  const entry = { kind, at: Date.now(), muted: muted(), sound: false, vibrate: false, notification: false };
  if (!entry.muted) {
    entry.sound = chime(kind);
    if (typeof navigator.vibrate === 'function') {
      try {
        navigator.vibrate(kind === 'turn' ? [150, 100, 150] : [60]);
        entry.vibrate = true;
      } catch {
        /* no vibration here */
      }
    }
    entry.notification = title ? notify(title, body) : false;
  }
  calls.push(entry);
  if (calls.length > 50) calls.shift();
}

// ---------------------------------------------------------------------------------------------
// When to call: called by app.js after every state.

let awaited = false;
let seenState = false;

function myDecision(state) {
  const p = state.prompt;
  return Boolean(store.seat !== null && store.seat !== undefined && !state.over && p && p.seats?.includes(store.seat) &&
    state.legal?.length && !quiet.has(p.kind));
}

// `state`: the state just shown; `wasOver`: whether the state before it was a finished game.
export function callsAfterState(state, wasOver) {
  const first = !seenState; // the page just loaded: the player is looking at it
  seenState = true;
  const mine = myDecision(state);
  const game = gameTitle(store.room?.game, store.room?.title);
  if (!first && mine && !awaited) call('turn', `▶ ${t('game.your_turn')}`, t('calls.notify_body', { game }));
  else if (!first && state.over && !wasOver) call('moment', t('calls.over_title'), game);
  else if (!first && wasOver && !state.over && state.events?.some((e) => e.kind === 'game_started')) call('moment', null);
  awaited = mine;
  renderCalls();
}

// ---------------------------------------------------------------------------------------------
// The mute switch (header) and the notification offer (under the header).

function header() {
  let button = document.getElementById('mute');
  if (!button) {
    button = document.createElement('button');
    button.id = 'mute';
    button.type = 'button';
    button.className = 'mute';
    button.dataset.testid = 'mute';
    button.addEventListener('click', () => setMuted(!muted()));
    const lang = document.getElementById('lang');
    lang?.parentNode.insertBefore(button, lang);
  }
  const off = muted();
  button.setAttribute('aria-pressed', String(off));
  button.classList.toggle('off', off);
  button.title = t(off ? 'calls.mute_title_off' : 'calls.mute_title_on');
  button.setAttribute('aria-label', t('calls.mute_label'));
  const html = `<span aria-hidden="true">${off ? '🔕' : '🔔'}</span> <span class="mute-text">${esc(t(off ? 'calls.sound_off' : 'calls.sound_on'))}</span>`;
  if (button.dataset.html !== html) { // only when it changes: a tap on it is never lost to a redraw
    button.innerHTML = html;
    button.dataset.html = html;
  }
}

// Android's browsers show notifications only through a service worker, which this page does not
// have (yet): there, sound and vibration call, and no offer promises a message that never comes.
const canNotify = typeof window.Notification === 'function' && !/Android/i.test(navigator.userAgent);

let offerOpen = false; // the offer is on screen
function offerWanted() {
  // First made while the player waits for the others (the moment a message would help), not
  // during their own turn, where the first-turn tips and the choices need the space; once on
  // screen it stays until answered, so that the page does not jump at every turn.
  const wanted = canNotify && Notification.permission === 'default' && !muted() &&
    !settings.get('notifyAsked') && store.seat !== null && store.seat !== undefined && store.room?.status === 'playing' &&
    Boolean(store.state) && (offerOpen || !myDecision(store.state)) &&
    !document.getElementById('coach'); // one thing at a time: the first-turn tip first
  offerOpen = wanted;
  return wanted;
}

function offer() {
  let box = document.getElementById('calls-offer');
  if (!offerWanted()) {
    if (box) box.hidden = true;
    return;
  }
  if (!box) {
    box = document.createElement('div');
    box.id = 'calls-offer';
    box.className = 'calls-offer';
    box.setAttribute('role', 'region');
    box.dataset.testid = 'calls-offer';
    box.addEventListener('click', (ev) => {
      const act = ev.target.closest('button')?.dataset.calls;
      if (!act) return;
      settings.set('notifyAsked', true);
      box.hidden = true;
      if (act === 'yes') Notification.requestPermission?.().then(renderCalls, renderCalls);
    });
    document.querySelector('header.top')?.after(box);
  }
  if (box.dataset.lang !== lang()) { // only in a new language: a tap on it is never lost to a redraw
    box.dataset.lang = lang();
    box.setAttribute('aria-label', t('calls.offer_label'));
    box.innerHTML = `<span class="calls-offer-text">🔔 ${esc(t('calls.offer'))}</span>
      <span class="calls-offer-buttons"><button type="button" class="small primary" data-calls="yes" data-testid="calls-yes">${esc(t('calls.offer_yes'))}</button>
      <button type="button" class="small" data-calls="no" data-testid="calls-no">${esc(t('calls.offer_no'))}</button></span>`;
  }
  box.hidden = false;
}

// Called on every render (a language switch, a new room, a new state).
export function renderCalls() {
  header();
  offer();
}

// ---------------------------------------------------------------------------------------------
// The turn bar's clock: only for a decision that will really be taken for someone.

// Updates every countdown once per quarter second without redrawing the screen (and shows what
// waits for a moment, data-show-at: the host's skip buttons).
export function tick() {
  for (const el of document.querySelectorAll('[data-show-at][hidden]')) {
    if (Date.now() >= Number(el.dataset.showAt)) el.hidden = false;
  }
  for (const el of document.querySelectorAll('[data-deadline]')) {
    el.textContent = formatSeconds(secondsLeft(Number(el.dataset.deadline)));
    el.closest('.timer')?.classList.toggle('urgent', secondsLeft(Number(el.dataset.deadline)) <= 15);
  }
}
if (typeof document !== 'undefined') setInterval(tick, 250);

// The clock's HTML for the turn bar, '' for none, or the "no time limit" note.
export function clockHtml(state, room) {
  const prompt = state.prompt;
  if (!prompt || state.over) return '';
  const seats = prompt.seats || [];
  // Seats the server plays (a computer player, a player who left) move by themselves within a
  // second: no clock for them.
  const people = seats.filter((s) => !['bot', 'gone'].includes(room?.seats?.[s]?.status));
  if (seats.length && !people.length) return '';
  if (!prompt.deadline) return `<span class="timer muted" data-testid="clock">${esc(t('game.no_timer'))}</span>`;
  const mine = store.seat !== null && store.seat !== undefined && seats.includes(store.seat);
  // A window that only waits for whoever wants to act (Christmas Penguins' "Stop!") closes by
  // itself: nobody's choice is made for them, play just goes on.
  // The bar already says what the window is for: the clock there is the time alone.
  const window_ = games[room?.game]?.windowPrompts?.includes(prompt.kind);
  let key = 'calls.clock_nobody';
  if (window_) key = 'calls.clock_window';
  else if (mine) key = 'calls.clock_you';
  else if (people.length === 1) key = 'calls.clock_one';
  else if (people.length > 1) key = 'calls.clock_many';
  const mark = '\u0000';
  const [before, after = ''] = t(key, { time: mark, name: people.length === 1 ? seatName(people[0]) : '' }).split(mark);
  const left = secondsLeft(prompt.deadline);
  // On a phone the words show for the player's own decision; for someone else's the bar already
  // names them and the time stands alone (the words stay for screen readers): the bar stays low.
  const words = (text) => (text ? `<span class="clock-words">${esc(text)}</span>` : '');
  return `<span class="timer ${mine ? 'clock-mine' : ''} ${left <= 15 ? 'urgent' : ''}" data-testid="clock" title="${esc(t('a11y.timer'))}"><span aria-hidden="true">⏱</span> ${words(before)}<span class="countdown" data-clock="${prompt.deadline}">${clockText(left)}</span>${words(after)}</span>`;
}

// Always minutes and seconds ("0:45"), so that "in 0:45" reads as a time.
function clockText(seconds) {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

// The clocks count down between states (app.js's tick counts the [data-deadline] ones).
setInterval(() => {
  for (const el of document.querySelectorAll('[data-clock]')) {
    const left = secondsLeft(Number(el.dataset.clock));
    el.textContent = clockText(left);
    el.closest('.timer')?.classList.toggle('urgent', left <= 15);
  }
}, 500);
