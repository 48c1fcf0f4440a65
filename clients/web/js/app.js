// The Tinsel browser client's flow: the session, joining and resuming rooms, the pushes, what each
// click does, and drawing the page (the screens themselves are in screens.js). It is a thin client:
// every game screen is drawn from the server's `view` and every action the player can take is an
// entry of the server's `legal` list (see docs/protocol.md).
// The session (reconnecting, resuming, ordered states) is the client library, served at /lib/
// from clients/js (docs/operations.md, --lib-root).
import { TinselClient, expand } from '/lib/index.js';
import { addTexts, lang, list, setLang, t } from './i18n.js';
import { showMoments } from './moments.js';
import { readOptions, screenHtml } from './screens.js';
import { afterRender } from './coach.js';
import { callsAfterState, renderCalls, tick } from './calls.js';
import morphdom from '../vendor/morphdom/morphdom-esm.js';
import { measure, play } from './motion.js';
import { followOptionForms } from './option_form.js';
import { refreshInvite } from './invite.js';
import { initChat, noteChat, renderChatButton } from './presence.js';
import { botActions } from './bots.js';
import { displayName, errorText, gameTitle, games, loadBoard, onBoard, parseRoute, roomBoard, seatColours, seatInk, seatLabel, seatName, seatOnColour, store } from './state.js';
import { esc, settings } from './util.js';

for (const g of Object.values(games)) addTexts(g.texts);

// A game's board arrived (loaded when its room became known, see onRoom): the room's new board
// takes in the state on screen, which came before it, and the screen and the log are drawn with it.
onBoard((g) => {
  const board = g.id === store.room?.game ? roomBoard() : null;
  if (store.state && board) board.onState?.(store.state, context());
  render();
});

// Events the log keeps, as many as a game_log brings by default (docs/protocol.md, "Limits"); the
// panel lists them newest first and scrolls back to the game's start.
const logEvents = 2000;

const wsUrl = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
// The seat token lives in localStorage with the name, so a reload or a new visit resumes.
// An invite or watch link names the room: the connections carry it (`/ws?room=CODE`) from the
// first, so that a cluster of servers sends them to the room's own. A room that moves to another
// server (cluster mode) is followed by the library: the page shows "reconnecting" and carries on.
const conn = new TinselClient({
  url: wsUrl,
  room: store.route.kind === 'home' ? null : store.route.code,
  tokenStore: { get: () => settings.get('token'), set: (token) => settings.set('token', token) },
});
conn.on('status', (status, detail) => {
  store.conn = status;
  store.connError = status === 'failed' ? detail.error : null;
  renderHeader();
  if (status === 'replaced' || status === 'failed') render();
});
conn.on('welcome', (msg) => {
  store.welcome = msg;
  settings.set('name', msg.name);
});
conn.on('ready', onReady);
conn.on('joined', onJoined);
conn.on('left', onLeft);
conn.on('room', onRoom);
conn.on('state', onState);
conn.on('game_log', onGameLog);
conn.on('chat', (msg) => {
  store.chat.push(msg);
  if (store.chat.length > 100) store.chat.shift();
  renderChat();
  noteChat(msg); // a badge and a toast while the chat is out of sight (presence.js)
});
conn.on('chat_history', (msg) => {
  // What was said before we (re)joined: the room's last 100 lines replace ours.
  store.chat = msg.messages.slice(-100);
  renderChat();
});
conn.on('error', (err) => flash(err.message || err.code, 'error'));

// ---------------------------------------------------------------------------------------------
// Session and room flow

function startSession(name) {
  settings.set('name', name);
  conn.connect(name);
}

// Online: after the first hello, and after every reconnect (the library has then taken the seat
// back already). Then runs what the user asked for when the session was not running yet.
async function onReady(welcome) {
  // The invite or watch link of the room this player is already in: straight back in.
  const r = store.route;
  if (!store.joined && r.kind !== 'home' && welcome.resumed && welcome.room === r.code) {
    await join(r.code, r.kind === 'watch' ? 'spectator' : 'player');
  }
  render();
  const then = store.pendingThen;
  store.pendingThen = null;
  if (then) await then();
}

async function join(code, as) {
  // The log needs no catching up: every join brings the game from its start (game_log).
  try {
    await conn.joinRoom(code, { as });
    store.error = null;
  } catch (err) {
    store.error = err;
    store.joined = null;
    // The seats changed since the page was served: show them as they are now (the room exists, so
    // this costs nothing against the address's allowance of unknown codes).
    if (['room_full', 'game_in_progress'].includes(err.code)) await refreshInvite(code);
  }
  render();
}

// In a room: created, joined, or taken back by the library after a reconnect.
function onJoined(ok) {
  store.joined = { code: ok.room, as: ok.spectator ? 'spectator' : 'player' };
  store.seat = ok.seat;
  const path = `/${ok.spectator ? 'watch' : 'r'}/${ok.room}`;
  if (location.pathname !== path) history.replaceState(null, '', path);
  store.route = parseRoute(path);
}

function onLeft({ reason, error }) {
  if (reason === 'left') leftRoom('notice.left');
  else if (reason === 'kicked') leftRoom('notice.kicked');
  else if (reason === 'closed') {
    leftRoom(store.closedByMe ? 'notice.closed_by_me' : 'notice.closed');
    store.closedByMe = false;
  } else if (error?.code === 'unknown_room') {
    leftRoom('notice.closed'); // the room ended while we were away
  } else {
    store.error = error;
    store.joined = null;
    render();
  }
}

function leftRoom(noticeKey) {
  if (store.welcome) store.welcome.room = null; // no "back to your room" for a room we left
  store.joined = null;
  store.room = null;
  store.state = null;
  store.seat = null;
  store.board = null; // the same code joined again gets a new board
  store.log = [];
  store.chat = [];
  store.gameNames = null;
  store.showLobby = false;
  store.editingOptions = false;
  store.pickingNext = false;
  store.nextNote = null;
  store.notice = noticeKey ? t(noticeKey) : null;
  history.replaceState(null, '', '/');
  store.route = { kind: 'home' };
  render();
}

function onRoom(room) {
  if (room.status === 'closed') return; // the library reports it as left, see onLeft
  const before = store.room;
  // The host picked the next game (set_game): another game, or the same one again after it ended.
  const next = before?.code === room.code && (before.game !== room.game || (before.status === 'finished' && room.status === 'lobby'));
  store.room = room;
  if (next) nextGameChosen(room);
  loadBoard(room.game); // by the time the game starts, its board is here
  if (room.status === 'playing') {
    store.showLobby = false;
    store.pickingNext = false;
    store.nextNote = null;
    store.gameNames = room.seats.filter((s) => s.status !== 'empty').map((s) => s.name);
  }
  render();
}

// The finished game leaves the room: its state, log and names; the lobby shows the next game to
// everyone (screens.js, nextNoteHtml) at the top of the page.
function nextGameChosen(room) {
  store.state = null;
  store.log = [];
  store.gameNames = null;
  store.showLobby = false;
  store.pickingNext = false;
  store.editingOptions = false;
  store.optionDraft = null;
  store.nextNote = room.game;
  window.scrollTo({ top: 0 });
}

// The game from its start, on every join (a reload, a reconnect, a spectator mid-game, after
// "Play again"): it replaces the log, and the state that follows adds nothing to it.
function onGameLog(msg) {
  store.log = msg.truncated ? [{ kind: 'log_truncated' }] : [];
  for (const ev of msg.events) addLog(ev);
  const started = msg.events.find((e) => e.kind === 'game_started');
  if (started) store.gameNames = started.players;
}

function onState(msg, info) {
  const game = games[msg.view?.game] || games[store.room?.game];
  const first = !store.state;
  if (!info?.logged) {
    const started = msg.events.find((e) => e.kind === 'game_started');
    if (started) {
      store.log = [];
      store.gameNames = started.players;
    }
    if (msg.resync && !first) addLog({ kind: 'caught_up' });
    for (const ev of msg.events) addLog(game?.logEvent ? game.logEvent(ev) : ev);
  }
  // A finished game names its players as they were: seats move when players leave and come back.
  if (msg.result?.names) store.gameNames = msg.result.names;
  const wasOver = Boolean(store.state?.over);
  // The boards work on concrete lists: the domains that stand for single commands (Christmas
  // Penguins' green moves, channels and flights, Unterm Baum's reveals) written out (legal.js).
  store.state = { ...msg, legal: expand(msg.legal) };
  store.seat = msg.seat;
  const board = roomBoard();
  board?.onState?.(store.state, context());
  // Moments only for what happens now, not for a state that answers a join or catches up.
  if (!first && !info?.join && !msg.resync && msg.replayed_from === undefined) showMoments(msg, board, context());
  const ended = msg.over && !wasOver;
  render();
  callsAfterState(store.state, wasOver); // your turn calls you (sound, vibration, notification)
  // The end of a game: the results are at the top of the screen, so the page goes there (the
  // morphed screen would otherwise keep wherever the last move left it).
  if (ended) window.scrollTo({ top: 0 });
}

// `game`: the catalogue entry, `board`: the room's board (null before it is loaded).
function eventText(ev, game, board, log, i) {
  if (ev.kind === 'caught_up') return t('game.caught_up');
  if (ev.kind === 'log_truncated') return t('game.log_truncated');
  if (ev.kind === 'game_started') return t('game.started', { names: list(ev.players.map((name) => displayName(name))) });
  if (ev.kind === 'timed_out') {
    if (game?.windowPrompts?.includes(ev.prompt)) return null; // a window closing: nobody's time ran out
    // The reader first, as "you" ("The game chose for you and Ben").
    const seats = [...ev.seats].sort((x, y) => Number(y === store.seat) - Number(x === store.seat));
    const names = seats.map((s) => (store.seat !== null && store.seat !== undefined && s === store.seat ? t('game.timed_out_you') : seatName(s)));
    return names.length ? t('game.timed_out', { names: list(names) }) : null;
  }
  return board?.eventText?.(ev, context(), log, i) ?? null; // none before the board is loaded (log, i: for a line that depends on earlier ones)
}

// The log keeps events, not text: lines are written when shown, in the current language.
function addLog(ev) {
  store.log.push(ev);
  if (store.log.length > logEvents) store.log.shift();
}


async function send(msg) {
  try {
    return await conn.request(msg);
  } catch (err) {
    flash(errorText(err), 'error');
    throw err;
  }
}

// The context a board draws with (games/board.js, RenderContext).
function context() {
  const state = store.state;
  return {
    state,
    view: state?.view,
    legal: state?.legal || [],
    seat: store.seat,
    room: store.room,
    name: seatName,
    who: seatLabel,
    colour: (seat) => seatColours[seat % seatColours.length],
    // For text: a seat's colour dark enough to read on a light background, and the text colour
    // that reads on a fill of the seat's colour (both WCAG AA, see state.js).
    ink: (seat) => seatInk[seat % seatInk.length],
    onColour: (seat) => seatOnColour[seat % seatOnColour.length],
    act: (action) => send({ type: 'action', action }),
    render,
    flash,
    lang: lang(),
  };
}

// ---------------------------------------------------------------------------------------------
// Rendering

const $ = (sel) => document.querySelector(sel);

function renderHeader() {
  const status = $('#conn');
  status.className = `conn conn-${store.conn}`;
  status.hidden = store.conn === 'idle'; // nothing to say before the first connection
  status.textContent = t(`conn.${store.conn}`);
  status.title = t(`conn.${store.conn}`);
  status.setAttribute('aria-label', t('a11y.conn', { state: t(`conn.${store.conn}`) }));
  const langButton = $('#lang');
  langButton.textContent = t('lang.switch');
  langButton.setAttribute('aria-label', t('a11y.lang'));
  $('#tagline').textContent = t('tagline');
  const brand = $('.brand');
  brand.setAttribute('aria-label', t('a11y.home'));
  $('#side').setAttribute('aria-label', t('a11y.side'));
  $('#chat-send').setAttribute('aria-label', t('a11y.chat_send'));
  renderChatButton();
}

// morphdom pairs old and new elements among siblings by this key: an id, or data-key where a
// list's items would otherwise be paired by position (a new first item would change them all).
function nodeKey(node) {
  return node.nodeType === 1 ? node.id || node.getAttribute('data-key') || undefined : undefined;
}

// A <details> the user opened or closed stays so across pushes ("At the table" during a game,
// "More settings"): the new HTML never says, so the element keeps its own state.
function keepOpen(from, to) {
  if (from.tagName === 'DETAILS') to.open = from.open;
  return true;
}

// Re-renders the main area, keeping what the user is typing.
export function render() {
  renderHeader();
  renderCalls(); // the mute switch and the notification offer
  const screen = $('#screen');
  const focused = document.activeElement?.id;
  const kept = {};
  for (const input of screen.querySelectorAll('input[id], select[id], textarea[id]')) {
    kept[input.id] = input.type === 'checkbox' ? input.checked : input.value;
  }
  // Morphed, not replaced: elements that stay keep their focus, scroll, selection and running
  // transitions, and pieces that moved slide to their new place (motion.js).
  const next = screen.cloneNode(false);
  next.innerHTML = screenHtml(context());
  const before = measure(screen);
  morphdom(screen, next, { childrenOnly: true, getNodeKey: nodeKey, onBeforeElUpdated: keepOpen });
  play(screen, before);
  for (const [id, value] of Object.entries(kept)) {
    const input = document.getElementById(id);
    if (!input || input.dataset.fresh !== undefined) continue;
    if (input.type === 'checkbox') input.checked = value;
    else input.value = value;
  }
  if (focused) document.getElementById(focused)?.focus();
  turnBarHeight();
  renderSide();
  tick();
  afterRender(); // the first-turn walkthrough follows the screen
}


// The sticky turn bar's height, for whatever sticks below it (a revealed card) so that the bar
// never covers it: --turn-bar-h on the page, followed as the bar wraps or the window turns.
const barObserver = typeof ResizeObserver === 'function' ? new ResizeObserver(() => turnBarHeight()) : null;
let observedBar = null;
function turnBarHeight() {
  const bar = document.querySelector('#screen .turn-bar');
  if (bar !== observedBar) {
    if (observedBar) barObserver?.unobserve(observedBar);
    if (bar) barObserver?.observe(bar);
    observedBar = bar;
  }
  const h = bar ? Math.ceil(bar.getBoundingClientRect().height) : 0;
  document.documentElement.style.setProperty('--turn-bar-h', `${h}px`);
}

function renderSide() {
  const side = $('#side');
  const inRoom = Boolean(store.room && store.joined);
  side.hidden = !inRoom;
  const log = $('#log');
  if (inRoom && store.state) {
    log.hidden = false;
    const game = games[store.room.game];
    const board = roomBoard();
    const lines = store.log.map((ev, i) => eventText(ev, game, board, store.log, i)).filter(Boolean);
    const items = lines.reverse().map((line) => `<li>${esc(line)}</li>`); // newest first; the list scrolls
    log.innerHTML = `<h3>${esc(t('game.log'))}</h3><ol class="log-list" data-testid="log">${items.join('')}</ol>`;
  } else {
    log.hidden = true;
  }
  $('#chat-title').textContent = t('chat.title');
  $('#chat-text').placeholder = t('chat.placeholder');
  $('#chat-send').textContent = t('chat.send');
  renderChat();
}

function renderChat() {
  const items = store.chat.map((m) => {
    const colour = m.from.seat === null ? 'var(--muted)' : seatInk[m.from.seat % seatInk.length];
    return `<li><strong style="color:${colour}">${esc(m.from.name)}:</strong> ${esc(m.text)}</li>`;
  });
  const listEl = $('#chat-list');
  listEl.innerHTML = items.join('');
  listEl.scrollTop = listEl.scrollHeight;
}

let flashTimer = null;
function flash(text, kind = 'info') {
  const el = $('#flash');
  el.textContent = text;
  el.className = `flash ${kind}`;
  el.hidden = false;
  clearTimeout(flashTimer);
  flashTimer = setTimeout(() => {
    el.hidden = true;
  }, 5000);
}

// ---------------------------------------------------------------------------------------------
// User actions

function currentName() {
  const input = $('#name');
  const name = (input?.value || settings.get('name', '') || '').trim();
  if (!name) {
    input?.focus();
    input?.reportValidity();
    return null;
  }
  return name;
}

// Makes sure a session is running as `name`, then runs `then` (now, or when it is ready).
function withSession(name, then) {
  if (conn.welcome && conn.status === 'online') {
    if (conn.welcome.name !== name && !store.joined) {
      // A different name: a new identity (reset() forgets the token).
      store.pendingThen = then;
      conn.reset();
      conn.connect(name);
      return;
    }
    then();
    return;
  }
  store.pendingThen = then;
  startSession(name);
}

const actions = {
  async 'pick-game'(el) {
    // The options and their defaults come from the server's welcome, so the session starts here.
    const name = currentName();
    if (!name) return;
    store.createGame = el.dataset.game;
    withSession(name, render);
  },
  async create() {
    const name = currentName();
    if (!name) return;
    const options = readOptions($('#create-form'));
    withSession(name, async () => {
      try {
        await conn.createRoom(store.createGame, options); // onJoined takes it from here
        store.notice = null;
      } catch (err) {
        flash(errorText(err), 'error');
        /* flashed */
      }
      render();
    });
  },
  async 'join-code'() {
    const name = currentName();
    const code = ($('#code').value || '').toUpperCase().replace(/[\s-]/g, '');
    if (!name || !code) return;
    withSession(name, () => join(code, 'player'));
  },
  async 'watch-code'() {
    const name = currentName();
    const code = ($('#code').value || '').toUpperCase().replace(/[\s-]/g, '');
    if (!name || !code) return;
    withSession(name, () => join(code, 'spectator'));
  },
  async 'invite-join'(el, ev) {
    const name = currentName();
    if (!name) return;
    const as = ev?.submitter?.dataset.as || (store.route.kind === 'watch' ? 'spectator' : 'player');
    withSession(name, () => join(store.route.code, as));
  },
  async 'invite-watch'() {
    const name = currentName();
    if (!name) return;
    withSession(name, () => join(store.route.code, 'spectator'));
  },
  async rejoin(el) {
    const name = settings.get('name', 'Guest');
    withSession(name, () => join(el.dataset.code, 'player'));
  },
  async home(el, ev) {
    ev?.preventDefault();
    if (!store.joined) conn.roomHint = null; // the invite's room is not where the next connection goes
    history.replaceState(null, '', '/');
    store.route = { kind: 'home' };
    store.error = null;
    render();
  },
  async copy(el) {
    const text = el.dataset.text;
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      const input = $('#invite-link');
      input.select();
      document.execCommand('copy');
    }
    el.textContent = t('lobby.copied');
    el.setAttribute('aria-label', t('a11y.copied'));
  },
  async share(el) {
    try {
      await navigator.share({ title: 'Tinsel', text: gameTitle(store.room?.game, store.room?.title), url: el.dataset.text });
    } catch {
      /* cancelled */
    }
  },
  async start() {
    const msg = { type: 'start_game' };
    const pick = $('#first-seat');
    if (pick) msg.first_seat = Number(pick.value);
    await send(msg).catch(() => {});
  },
  async 'remove-bot'(el) {
    await send({ type: 'remove_bot', seat: Number(el.dataset.seat) }).catch(() => {});
  },
  async kick(el) {
    await send({ type: 'kick', player: el.dataset.player }).catch(() => {});
  },
  async readmit(el) {
    await send({ type: 'readmit', player: el.dataset.player }).catch(() => {});
  },
  // The host plays the usual default for a player the game is waiting on (as when time runs out).
  async skip(el) {
    await send({ type: 'skip', seat: Number(el.dataset.seat) }).catch(() => {});
  },
  async 'make-host'(el) {
    await send({ type: 'transfer_host', player: el.dataset.player }).catch(() => {});
  },
  async 'edit-options'() {
    store.editingOptions = true;
    store.optionDraft = null; // from the room's settings as they are
    render();
  },
  async 'save-options'() {
    const options = readOptions($('#options-form'));
    try {
      await send({ type: 'set_options', options });
      store.editingOptions = false;
      render();
    } catch {
      /* flashed */
    }
  },
  async leave() {
    try {
      await conn.leaveRoom(); // onLeft shows the lobby's goodbye
    } catch (err) {
      flash(errorText(err), 'error');
      /* flashed; still in the room */
    }
  },
  async 'close-room'() {
    if (!window.confirm(t('lobby.close_confirm'))) return;
    store.closedByMe = true;
    await send({ type: 'close_room' }).catch(() => {});
  },
  async 'leave-game'() {
    if (store.seat !== null && !window.confirm(t('game.leave_confirm'))) return;
    try {
      await conn.leaveRoom();
    } catch (err) {
      flash(errorText(err), 'error');
      /* flashed; still in the room */
    }
  },
  // The next game in the same room (issue 31): the picker opens in the room's lobby.
  async 'next-game'() {
    store.pickingNext = true;
    store.nextGame = store.room?.game;
    store.editingOptions = false; // one settings form at a time
    store.showLobby = true;
    store.optionDraft = null;
    render();
    $('[data-testid="next-game-picker"]')?.scrollIntoView({ block: 'start' });
  },
  async 'next-pick'(el) {
    store.nextGame = el.dataset.game;
    render();
  },
  async 'next-cancel'() {
    store.pickingNext = false;
    render();
  },
  async 'set-game'(form) {
    const options = readOptions(form);
    try {
      await send({ type: 'set_game', game: form.dataset.game, options });
      store.pickingNext = false;
      render();
    } catch {
      /* flashed */
    }
  },
  async 'show-lobby'() {
    store.showLobby = true;
    render();
  },
  async legal(el) {
    const entry = store.state?.legal?.[Number(el.dataset.i)];
    if (!entry) return;
    await context().act(entry).catch(() => {});
  },
  async 'use-here'() {
    conn.reconnect();
  },
  async 'not-me'() {
    // Start over: no saved name or token; the home page asks for a name again.
    conn.reset();
    settings.set('name', null);
    store.welcome = null;
    render();
  },
  async noop() {},
  ...botActions(send, render),
};

document.addEventListener('click', (ev) => {
  const el = ev.target.closest('[data-act]');
  if (!el || el.disabled) return;
  const name = el.dataset.act;
  if (actions[name]) {
    ev.preventDefault();
    actions[name](el, ev);
    return;
  }
  const board = roomBoard();
  if (board?.onClick && store.state) {
    ev.preventDefault();
    board.onClick(el, context());
  }
});

// A change on the game screen (a select of the board's own) goes to the board.
document.addEventListener('change', (ev) => {
  const board = roomBoard();
  if (board?.onChange && store.state) board.onChange(ev.target, context());
});

// Board places are not buttons (SVG, grids), so Enter and Space activate them like a click.
document.addEventListener('keydown', (ev) => {
  if (ev.key !== 'Enter' && ev.key !== ' ') return;
  const el = ev.target.closest?.('[role="button"][data-act]');
  if (!el) return;
  ev.preventDefault();
  el.dispatchEvent(new MouseEvent('click', { bubbles: true }));
});

document.addEventListener('submit', (ev) => {
  const form = ev.target;
  const name = form.dataset.actSubmit;
  if (!name) return;
  ev.preventDefault();
  actions[name]?.(form, ev);
});

$('#chat-form').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  const input = $('#chat-text');
  const text = input.value.trim();
  if (!text) return;
  try {
    await send({ type: 'chat', text });
    input.value = '';
  } catch {
    /* flashed */
  }
});

$('#lang').addEventListener('click', () => {
  setLang(lang() === 'de' ? 'en' : 'de');
  render();
});

document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible' && (conn.status === 'reconnecting' || conn.status === 'restarting')) conn.reconnect();
});

initChat();
followOptionForms();

// Start: a returning visitor (saved name) connects at once; a new one after typing a name.
const savedName = settings.get('name');
if (savedName) startSession(savedName);
render();
