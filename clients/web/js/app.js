// The Tinsel browser client: screens for the name, creating and joining a room, the lobby, the game
// and its results. It is a thin client: every game screen is drawn from the server's `view` and
// every action the player can take is an entry of the server's `legal` list (see docs/protocol.md).
import { Connection } from './connection.js';
import { addTexts, lang, list, setLang, t } from './i18n.js';
import { concrete, esc, formatSeconds, secondsLeft, settings } from './util.js';
import happyHolidays from './games/happy_holidays.js';
import untermBaum from './games/unterm_baum.js';
import christmasPenguins from './games/christmas_penguins.js';

const games = Object.fromEntries([happyHolidays, untermBaum, christmasPenguins].map((g) => [g.id, g]));
for (const g of Object.values(games)) addTexts(g.texts);

// Colours of seats 0..5, used for names, pieces and the score table.
export const seatColours = ['#d62828', '#1d6fd6', '#2a9d3f', '#e0a100', '#8e44ad', '#e06c00'];

const store = {
  conn: 'idle',
  welcome: null,
  route: parseRoute(location.pathname),
  joined: null, // {code, as} of the room this browser is in
  room: null, // the latest `room` push
  seat: null,
  state: null, // the latest `state` push
  log: [],
  chat: [],
  notice: null,
  error: null,
  createGame: null,
  editingOptions: false,
  showLobby: false,
  busy: false,
};

// States replayed into the log after a reload.
const recentStates = 30;

const wsUrl = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
const conn = new Connection(wsUrl, {
  status(status, detail) {
    store.conn = status;
    store.connError = status === 'failed' ? detail : null;
    renderHeader();
    if (status === 'replaced' || status === 'failed') render();
  },
  welcome(msg) {
    store.welcome = msg;
    settings.set('token', msg.token);
    settings.set('name', msg.name);
  },
  ready: onReady,
  push: onPush,
  error(msg) {
    flash(msg.message || msg.code, 'error');
  },
});

function parseRoute(path) {
  const m = /^\/(r|watch)\/([^/]+)\/?$/.exec(path);
  if (!m) return { kind: 'home' };
  const code = decodeURIComponent(m[2]).toUpperCase().replace(/[\s-]/g, '');
  return { kind: m[1] === 'r' ? 'invite' : 'watch', code };
}

// ---------------------------------------------------------------------------------------------
// Session and room flow

function startSession(name) {
  settings.set('name', name);
  conn.start(name, settings.get('token'));
}

async function onReady(welcome) {
  if (store.joined) {
    // A reconnect: take the seat back and catch up on what was missed.
    await join(store.joined.code, store.joined.as, true);
    return;
  }
  // The invite or watch link of the room this player is already in: straight back in.
  const r = store.route;
  if (r.kind !== 'home' && welcome.resumed && welcome.room === r.code) {
    await join(r.code, r.kind === 'watch' ? 'spectator' : 'player');
  }
  render();
}

async function join(code, as, resuming = false) {
  const msg = { type: 'join_room', room: code, as };
  const last = settings.get('seqs', {})[code];
  if (last !== undefined && resuming) msg.last_seq = last;
  // After a reload the log is empty: ask for the last states again to fill it (the server replays
  // what it still has; replayed events carry their own `seq`).
  else if (last !== undefined && store.welcome?.resumed) msg.last_seq = Math.max(0, last - recentStates);
  try {
    const ok = await conn.request(msg);
    store.joined = { code: ok.room, as: ok.spectator ? 'spectator' : 'player' };
    store.seat = ok.seat;
    store.error = null;
    const path = `/${ok.spectator ? 'watch' : 'r'}/${ok.room}`;
    if (location.pathname !== path) history.replaceState(null, '', path);
    store.route = parseRoute(path);
  } catch (err) {
    if (resuming && err.code === 'unknown_room') {
      leftRoom('notice.closed');
    } else {
      store.error = err;
      store.joined = null;
    }
  }
  render();
}

function leftRoom(noticeKey) {
  if (store.welcome) store.welcome.room = null; // no "back to your room" for a room we left
  store.joined = null;
  store.room = null;
  store.state = null;
  store.seat = null;
  store.log = [];
  store.chat = [];
  store.gameNames = null;
  store.showLobby = false;
  store.editingOptions = false;
  store.notice = noticeKey ? t(noticeKey) : null;
  history.replaceState(null, '', '/');
  store.route = { kind: 'home' };
  render();
}

function onPush(msg) {
  switch (msg.type) {
    case 'room':
      if (msg.room.status === 'closed') {
        leftRoom(store.closedByMe ? 'notice.closed_by_me' : 'notice.closed');
        store.closedByMe = false;
        return;
      }
      store.room = msg.room;
      if (msg.room.status === 'playing') {
        store.showLobby = false;
        store.gameNames = msg.room.seats.filter((s) => s.status !== 'empty').map((s) => s.name);
      }
      render();
      break;
    case 'state':
      onState(msg);
      break;
    case 'chat':
      store.chat.push(msg);
      if (store.chat.length > 100) store.chat.shift();
      renderChat();
      break;
    case 'kicked':
      leftRoom('notice.kicked');
      break;
    default:
      break; // later protocol versions may add pushes; ignore them
  }
}

function onState(msg) {
  const game = games[msg.view?.game] || games[store.room?.game];
  const first = !store.state;
  const started = msg.events.find((e) => e.kind === 'game_started');
  if (started) {
    store.log = [];
    store.gameNames = started.players;
  }
  store.state = msg;
  store.seat = msg.seat;
  const seqs = settings.get('seqs', {});
  seqs[msg.room] = msg.seq;
  // Keep the map small: only the rooms of the last few days matter.
  const codes = Object.keys(seqs);
  if (codes.length > 10) delete seqs[codes[0]];
  settings.set('seqs', seqs);
  if (msg.resync && !first) addLog({ kind: 'caught_up' });
  for (const ev of msg.events) addLog(ev);
  game?.onState?.(msg, context(game));
  render();
}

function eventText(ev, game) {
  if (ev.kind === 'caught_up') return t('game.caught_up');
  if (ev.kind === 'game_started') return t('game.started', { names: list(ev.players) });
  if (ev.kind === 'timed_out') {
    const names = ev.seats.map((s) => seatName(s));
    return names.length ? t('game.timed_out', { names: list(names) }) : null;
  }
  return game?.eventText(ev, context(game)) ?? null;
}

// The log keeps events, not text: lines are written when shown, in the current language.
function addLog(ev) {
  store.log.push(ev);
  if (store.log.length > 200) store.log.shift();
}

// Names by game seat. Seats move when a game ends (freed seats, a new game), so the names of a
// game's players are taken when it starts and used for its events and results.
function seatName(seat) {
  if (seat === null || seat === undefined) return '';
  return store.gameNames?.[seat] || store.room?.seats?.[seat]?.name || t('seat', { n: seat + 1 });
}

// A seat's name with "(you)" for this player's own seat, for labels on the board.
function seatLabel(seat) {
  const name = seatName(seat);
  return seat === store.seat && seat !== null ? `${name} (${t('you')})` : name;
}

async function send(msg) {
  try {
    return await conn.request(msg);
  } catch (err) {
    flash(errorText(err), 'error');
    throw err;
  }
}

// The context a game module draws with.
function context(game) {
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
    act: (action) => send({ type: 'action', action }),
    render,
    flash,
    lang: lang(),
    game,
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
  $('#lang').textContent = t('lang.switch');
  $('#tagline').textContent = t('tagline');
}

// Re-renders the main area, keeping what the user is typing.
export function render() {
  renderHeader();
  const screen = $('#screen');
  const focused = document.activeElement?.id;
  const kept = {};
  for (const input of screen.querySelectorAll('input[id], select[id], textarea[id]')) {
    kept[input.id] = input.type === 'checkbox' ? input.checked : input.value;
  }
  screen.innerHTML = screenHtml();
  for (const [id, value] of Object.entries(kept)) {
    const input = document.getElementById(id);
    if (!input || input.dataset.fresh !== undefined) continue;
    if (input.type === 'checkbox') input.checked = value;
    else input.value = value;
  }
  if (focused) document.getElementById(focused)?.focus();
  renderSide();
  tick();
}

function screenHtml() {
  if (store.conn === 'failed') {
    return `<section class="card"><p class="error">${esc(t('conn.failed'))} ${esc(store.connError?.message || '')}</p>
      <button class="big" data-act="not-me">${esc(t('home.not_me', { name: settings.get('name', '') }))}</button></section>`;
  }
  if (store.conn === 'replaced') {
    return `<section class="card"><p>${esc(t('conn.replaced'))}</p>
      <button class="big" data-act="use-here">${esc(t('conn.use_here'))}</button></section>`;
  }
  const banners = [];
  if (store.notice) banners.push(`<p class="notice">${esc(store.notice)}</p>`);
  if (store.room && store.joined) return banners.join('') + roomHtml();
  const r = store.route;
  if (r.kind === 'invite' || r.kind === 'watch') return banners.join('') + inviteHtml(r);
  return banners.join('') + homeHtml();
}

function nameField() {
  const name = settings.get('name', '');
  return `<label class="field"><span>${esc(t('home.name'))}</span>
    <input id="name" maxlength="32" autocomplete="nickname" value="${esc(name)}" required>
    <small>${esc(t('home.name_hint'))}</small></label>`;
}

function homeHtml() {
  const w = store.welcome;
  const back = w?.resumed && w.room
    ? `<p><button class="big" data-act="rejoin" data-code="${esc(w.room)}">${esc(t('home.back_to_room', { code: w.room }))}</button></p>`
    : '';
  const gameList = store.welcome?.games || [];
  const picked = store.createGame;
  const cards = Object.values(games).map((g) => {
    const info = gameList.find((x) => x.id === g.id);
    const range = info ? t('home.players', { min: info.min_players, max: info.max_players }) : '';
    return `<button class="game-card ${picked === g.id ? 'picked' : ''}" data-act="pick-game" data-game="${g.id}">
      <span class="game-icon" aria-hidden="true">${g.icon}</span>
      <strong>${esc(t(`${g.id}.title`))}</strong><span>${esc(t(`${g.id}.blurb`))}</span><small>${esc(range)}</small></button>`;
  });
  const options = picked ? optionsForm(picked, null) : '';
  const err = store.error ? `<p class="error">${esc(errorText(store.error))}</p>` : '';
  return `${back}
  <section class="card">
    <form id="name-form" data-act-submit="noop">${nameField()}</form>
  </section>
  <section class="card">
    <h2>${esc(t('home.create'))}</h2>
    <p>${esc(t('home.pick_game'))}</p>
    <div class="game-cards">${cards.join('')}</div>
    ${picked ? `<form id="create-form" data-act-submit="create">${options}
      <button class="big primary" type="submit">${esc(t('home.create_button'))}</button></form>` : ''}
  </section>
  <section class="card">
    <h2>${esc(t('home.join'))}</h2>
    <form id="join-form" data-act-submit="join-code" class="row">
      <label class="field"><span>${esc(t('home.code'))}</span>
      <input id="code" maxlength="12" autocapitalize="characters" autocomplete="off" placeholder="K7M2QX"></label>
      <button type="submit" class="big">${esc(t('home.join_button'))}</button>
      <button type="button" data-act="watch-code">${esc(t('home.watch_button'))}</button>
    </form>${err}
  </section>`;
}

function inviteHtml(r) {
  const err = store.error ? `<p class="error">${esc(errorText(store.error))}</p>` : '';
  const canWatch = store.error && ['room_full', 'game_in_progress'].includes(store.error.code);
  const title = r.kind === 'watch' ? t('watch.title') : t('invite.title');
  const buttons = r.kind === 'watch'
    ? `<button class="big primary" type="submit" data-as="spectator">${esc(t('invite.watch'))}</button>`
    : `<button class="big primary" type="submit" data-as="player">${esc(t('invite.sit'))}</button>
       <button type="button" data-act="invite-watch" class="${canWatch ? 'primary big' : ''}">${esc(t('invite.watch'))}</button>`;
  return `<section class="card">
    <h2>${esc(title)}</h2>
    <p class="room-code">${esc(t('lobby.code'))}: <strong>${esc(r.code)}</strong></p>
    <form id="invite-form" data-act-submit="invite-join">${nameField()}<div class="row">${buttons}</div></form>
    ${err}
    <p><a href="/" data-act="home">${esc(t('home.create'))}</a></p>
  </section>`;
}

// A refusal in the player's language when we have a text for its code, else the server's message.
function errorText(err) {
  const key = `error.${err.code}`;
  return t(key) !== key ? t(key) : err.message || err.code;
}

// The options form of a game: the main options first, the rest folded under "More settings".
function optionsForm(gameId, current) {
  const g = games[gameId];
  const info = store.welcome?.games?.find((x) => x.id === gameId);
  const defaults = info?.default_options || {};
  const values = { ...defaults, ...(current || {}) };
  const fields = (names) => names.filter((n) => n in defaults).map((n) => optionField(g, n, values[n])).join('');
  const main = g.mainOptions || [];
  const rest = Object.keys(defaults).filter((n) => !main.includes(n));
  return `<fieldset class="options"><legend>${esc(t('home.options'))}</legend>${fields(main)}
    <details><summary>${esc(t('home.more_options'))}</summary>${fields(rest)}</details></fieldset>`;
}

function optionField(g, name, value) {
  const meta = g.options?.[name] || {};
  const label = t(`${g.id}.opt.${name}`) !== `${g.id}.opt.${name}` ? t(`${g.id}.opt.${name}`) : name;
  const id = `opt-${esc(name)}`;
  name = esc(name);
  let input;
  if (typeof value === 'boolean') {
    input = `<input type="checkbox" id="${id}" data-opt="${name}" data-kind="bool" data-fresh ${value ? 'checked' : ''}>`;
  } else if (meta.choices) {
    const choices = meta.choices.includes(value) ? meta.choices : [value, ...meta.choices];
    const opts = choices.map((c) => {
      const key = `${g.id}.opt.${name}.${c}`;
      const text = t(key) !== key ? t(key) : c === 'off' ? t('opt.off') : String(c);
      return `<option value="${esc(JSON.stringify(c))}" ${c === value ? 'selected' : ''}>${esc(text)}</option>`;
    });
    input = `<select id="${id}" data-opt="${name}" data-kind="json" data-fresh>${opts.join('')}</select>`;
  } else if (typeof value === 'number') {
    input = `<input type="number" id="${id}" data-opt="${name}" data-kind="number" data-fresh value="${value}"
      ${meta.min !== undefined ? `min="${meta.min}"` : ''} ${meta.max !== undefined ? `max="${meta.max}"` : ''}>`;
  } else {
    input = `<input id="${id}" data-opt="${name}" data-kind="text" data-fresh value="${esc(value)}">`;
  }
  return `<label class="field option ${typeof value === 'boolean' ? 'check' : ''}"><span>${esc(label)}</span>${input}</label>`;
}

function readOptions(form) {
  const options = {};
  for (const input of form.querySelectorAll('[data-opt]')) {
    const name = input.dataset.opt;
    switch (input.dataset.kind) {
      case 'bool':
        options[name] = input.checked;
        break;
      case 'json':
        options[name] = JSON.parse(input.value);
        break;
      case 'number':
        options[name] = Number(input.value);
        break;
      default:
        options[name] = /^-?\d+$/.test(input.value) ? Number(input.value) : input.value;
    }
  }
  return options;
}

function roomHtml() {
  const room = store.room;
  const g = games[room.game];
  if (room.status === 'lobby' || store.showLobby || !store.state) return lobbyHtml(room, g);
  return gameHtml(room, g);
}

function isHost() {
  return store.room && store.welcome && store.room.host === store.welcome.player;
}

function seatsHtml(room, controls) {
  const me = store.welcome?.player;
  const rows = room.seats.map((s) => {
    const colour = seatColours[s.seat % seatColours.length];
    if (s.status === 'empty') {
      return `<li class="seat empty"><span class="dot" style="--c:${colour}"></span><em>${esc(t('lobby.empty_seat'))}</em></li>`;
    }
    const tags = [];
    if (s.player === room.host) tags.push(t('lobby.host'));
    if (s.player === me) tags.push(t('lobby.you'));
    const buttons = [];
    if (controls && isHost() && s.player !== me) {
      if (s.status === 'bot') buttons.push(`<button class="small" data-act="remove-bot" data-seat="${s.seat}">${esc(t('lobby.remove'))}</button>`);
      else {
        buttons.push(`<button class="small" data-act="kick" data-player="${esc(s.player)}">${esc(t('lobby.kick'))}</button>`);
        if (s.status === 'connected') buttons.push(`<button class="small" data-act="make-host" data-player="${esc(s.player)}">${esc(t('lobby.make_host'))}</button>`);
      }
    }
    return `<li class="seat status-${esc(s.status)}"><span class="who"><span class="dot" style="--c:${colour}"></span><strong>${esc(s.name)}</strong></span>
      ${tags.length ? `<span class="tag">${esc(tags.join(', '))}</span>` : ''}
      <span class="status">${esc(t(`status.${s.status}`))}</span> ${buttons.join(' ')}</li>`;
  });
  const watching = room.spectators ? `<p class="muted">${esc(t('lobby.spectators', { n: room.spectators }))}</p>` : '';
  return `<ul class="seats">${rows.join('')}</ul>${watching}`;
}

function firstSeatSelect(room) {
  if (room.options?.startPlayer !== 'host-picks') return '';
  const taken = room.seats.filter((s) => s.status !== 'empty');
  return `<label class="field"><span>${esc(t('lobby.first_seat'))}</span><select id="first-seat">
    ${taken.map((s, i) => `<option value="${i}">${esc(s.name)}</option>`).join('')}</select></label>`;
}

function lobbyHtml(room, g) {
  document.title = `${room.code} · ${room.title} · Tinsel`;
  const invite = `${location.origin}/r/${room.code}`;
  const watch = `${location.origin}/watch/${room.code}`;
  const seated = room.seats.filter((s) => s.status !== 'empty').length;
  const host = isHost();
  const hostName = room.seats.find((s) => s.player === room.host)?.name || '';
  let controls = '';
  if (host) {
    const enough = seated >= room.min_players;
    const free = room.seats.some((s) => s.status === 'empty');
    controls = `<div class="host-controls">
      ${store.editingOptions ? `<form id="options-form" data-act-submit="save-options">${optionsForm(room.game, room.options)}
        <button class="big" type="submit">${esc(t('lobby.save_options'))}</button></form>` : ''}
      ${firstSeatSelect(room)}
      <div class="row">
        <button class="big primary" data-act="start" ${enough ? '' : 'disabled'}>${esc(room.status === 'finished' ? t('game.play_again') : t('lobby.start'))}</button>
        ${free ? `<button data-act="add-bot">${esc(t('lobby.add_bot'))}</button>` : ''}
        ${store.editingOptions ? '' : `<button data-act="edit-options">${esc(t('lobby.change_options'))}</button>`}
      </div>
      ${enough ? '' : `<p class="muted">${esc(t('lobby.need_players', { n: room.min_players }))}</p>`}
      ${room.seats.filter((s) => s.status === 'disconnected').map((s) => `<p class="notice">${esc(t('lobby.disconnected_warning', { name: s.name }))}</p>`).join('')}
    </div>`;
  } else {
    controls = `<p class="waiting">${esc(t('lobby.waiting_host', { name: hostName }))}</p>`;
  }
  const back = room.status === 'finished' && store.state
    ? `<button data-act="show-game">${esc(t('game.over'))}</button>` : '';
  return `<section class="card lobby">
    <h2><span aria-hidden="true">${g?.icon || ''}</span> ${esc(room.title)}</h2>
    <p class="room-code">${esc(t('lobby.code'))}: <strong data-testid="room-code">${esc(room.code)}</strong></p>
    <div class="invite">
      <p>${esc(t('lobby.invite'))}</p>
      <div class="row"><input id="invite-link" readonly value="${esc(invite)}" data-fresh>
        <button data-act="copy" data-text="${esc(invite)}">${esc(t('lobby.copy'))}</button>
        ${navigator.share ? `<button data-act="share" data-text="${esc(invite)}">${esc(t('lobby.share'))}</button>` : ''}</div>
      <p class="muted">${esc(t('lobby.watch_link'))}: <a href="${esc(watch)}" target="_blank" rel="noopener">${esc(watch)}</a></p>
    </div>
    ${room.game === 'unterm_baum' ? `<p class="notice">${esc(t('honesty'))}</p>` : ''}
    ${store.seat === null ? `<p class="notice">${esc(t('game.spectating'))}</p>` : ''}
    <h3>${esc(t('lobby.seats'))}</h3>
    ${seatsHtml(room, true)}
    ${controls}
    <div class="row">${back}
      <button data-act="leave">${esc(t('lobby.leave'))}</button>
      ${host ? `<button data-act="close-room">${esc(t('lobby.close'))}</button>` : ''}</div>
  </section>`;
}

function gameHtml(room, g) {
  const state = store.state;
  const ctx = context(g);
  const prompt = state.prompt;
  const mine = store.seat !== null && prompt?.seats?.includes(store.seat) && state.legal.length > 0;
  let turnLine;
  if (state.over) turnLine = t('game.over');
  else if (mine) turnLine = t('game.your_turn');
  else if (prompt && prompt.seats.length === 1) turnLine = t('game.turn_of', { name: seatName(prompt.seats[0]) });
  else if (prompt && prompt.seats.length > 1) turnLine = t('game.waiting_for', { names: list(prompt.seats.map(seatName)) });
  else turnLine = '';
  const what = mine ? g.promptText(ctx) || '' : '';
  // A tab in the background still tells its player when it is their turn.
  document.title = mine ? `▶ ${t('game.your_turn')} · Tinsel` : `${t(`${room.game}.title`)} · Tinsel`;
  const timer = prompt && !state.over
    ? (prompt.deadline
      ? `<span class="timer" title="${esc(t('game.time_left'))}">⏱ <span class="countdown" data-deadline="${prompt.deadline}">${formatSeconds(secondsLeft(prompt.deadline))}</span></span>`
      : `<span class="timer muted">${esc(t('game.no_timer'))}</span>`)
    : '';
  const spectator = store.seat === null ? `<p class="muted">${esc(t('game.spectating'))}</p>` : '';
  const board = g.render(ctx);
  const handled = new Set(g.boardEntries ? g.boardEntries(ctx) : []);
  const rest = state.legal.map((e, i) => [e, i]).filter(([e, i]) => concrete(e) && !handled.has(i));
  const buttons = rest.map(([e, i]) =>
    `<button class="action ${g.primary?.(e) ? 'primary' : ''}" data-act="legal" data-i="${i}">${esc(g.actionLabel(e, ctx))}</button>`);
  const extra = g.actionsExtra ? g.actionsExtra(ctx) : '';
  // Nothing to offer outside the board (or nothing at all): the turn bar says whose turn it is.
  const boardOnly = !buttons.length && !extra;
  const actions = store.seat === null || state.over || boardOnly
    ? ''
    : `<section class="actions" aria-label="${esc(t('game.you_may'))}">
        <h3>${esc(t('game.you_may'))}</h3>
        ${extra}
        <div class="buttons">${buttons.join('')}</div></section>`;
  return `<section class="game game-${esc(room.game)}">
    <div class="turn-bar ${mine ? 'mine' : ''}" role="status">
      <strong class="turn" data-testid="turn">${esc(turnLine)}</strong>
      <span class="what">${esc(what)}</span> ${timer}
    </div>
    ${spectator}
    ${state.over ? resultHtml(g, ctx) : ''}
    ${actions}
    <div class="board-wrap">${board}</div>
    <details class="table-seats"><summary>${esc(t('lobby.seats'))}</summary>${seatsHtml(room, false)}
      ${state.over ? '' : `<p class="row"><button data-act="leave-game">${esc(t(store.seat === null ? 'lobby.leave' : 'game.leave'))}</button></p>`}
    </details>
  </section>`;
}

function resultHtml(g, ctx) {
  const result = store.state.result || {};
  const winners = (result.winners || []).map(seatName);
  const headline = winners.length > 1 ? t('game.winners', { names: list(winners) }) : t('game.winner', { names: list(winners) });
  const host = isHost();
  const again = store.room.status === 'finished'
    ? (host
      ? `${firstSeatSelect(store.room)}<div class="row"><button class="big primary" data-act="start">${esc(t('game.play_again'))}</button>
          <button data-act="show-lobby">${esc(t('game.back_to_lobby'))}</button></div>`
      : `<p class="muted">${esc(t('game.waiting_again'))}</p><div class="row"><button data-act="leave">${esc(t('lobby.leave'))}</button></div>`)
    : '';
  return `<section class="card results" data-testid="results">
    <h2>🏆 ${esc(t('game.over'))}</h2>
    <p class="headline">${esc(headline)}</p>
    ${g.resultHtml(ctx)}
    ${again}
    ${result.seed ? `<p class="muted small">${esc(t('game.seed', { seed: result.seed }))}</p>` : ''}
  </section>`;
}

function renderSide() {
  const side = $('#side');
  const inRoom = Boolean(store.room && store.joined);
  side.hidden = !inRoom;
  const log = $('#log');
  if (inRoom && store.state) {
    log.hidden = false;
    const game = games[store.room.game];
    const lines = store.log.map((ev) => eventText(ev, game)).filter(Boolean);
    const items = lines.slice(-40).reverse().map((line) => `<li>${esc(line)}</li>`);
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
    const colour = m.from.seat === null ? '#777' : seatColours[m.from.seat % seatColours.length];
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

// Updates every countdown once per quarter second without redrawing the screen.
function tick() {
  for (const el of document.querySelectorAll('[data-deadline]')) {
    el.textContent = formatSeconds(secondsLeft(Number(el.dataset.deadline)));
    el.closest('.timer')?.classList.toggle('urgent', secondsLeft(Number(el.dataset.deadline)) <= 10);
  }
}
setInterval(tick, 250);

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
      // A different name: a new identity (the old token stays with the old name).
      settings.set('token', null);
      store.pendingThen = then;
      conn.reset();
      conn.start(name, null);
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
        const ok = await send({ type: 'create_room', game: store.createGame, options });
        store.joined = { code: ok.room, as: 'player' };
        store.seat = ok.seat;
        store.notice = null;
        history.replaceState(null, '', `/r/${ok.room}`);
        store.route = parseRoute(location.pathname);
      } catch {
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
  },
  async share(el) {
    try {
      await navigator.share({ title: 'Tinsel', text: store.room?.title, url: el.dataset.text });
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
  async 'add-bot'() {
    await send({ type: 'add_bot' }).catch(() => {});
  },
  async 'remove-bot'(el) {
    await send({ type: 'remove_bot', seat: Number(el.dataset.seat) }).catch(() => {});
  },
  async kick(el) {
    await send({ type: 'kick', player: el.dataset.player }).catch(() => {});
  },
  async 'make-host'(el) {
    await send({ type: 'transfer_host', player: el.dataset.player }).catch(() => {});
  },
  async 'edit-options'() {
    store.editingOptions = true;
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
      await send({ type: 'leave_room' });
      leftRoom('notice.left');
    } catch {
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
      await send({ type: 'leave_room' });
      leftRoom('notice.left');
    } catch {
      /* flashed; still in the room */
    }
  },
  async 'show-lobby'() {
    store.showLobby = true;
    render();
  },
  async 'show-game'() {
    store.showLobby = false;
    render();
  },
  async legal(el) {
    const entry = store.state?.legal?.[Number(el.dataset.i)];
    if (!entry) return;
    const g = games[store.room.game];
    await (g.send ? g.send(entry, context(g)) : context(g).act(entry)).catch(() => {});
  },
  async 'use-here'() {
    conn.reconnect();
  },
  async 'not-me'() {
    // Start over: no saved name or token; the home page asks for a name again.
    settings.set('name', null);
    settings.set('token', null);
    store.conn = 'idle';
    store.welcome = null;
    render();
  },
  async noop() {},
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
  const g = games[store.room?.game];
  if (g?.onClick && store.state) {
    ev.preventDefault();
    g.onClick(el, context(g));
  }
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

// When the session becomes ready after a name was entered, run what the user asked for.
const readyHandler = conn.handlers.ready;
conn.handlers.ready = async (welcome) => {
  await readyHandler(welcome);
  const then = store.pendingThen;
  store.pendingThen = null;
  if (then) await then();
};

document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible' && conn.status === 'reconnecting') conn.reconnect();
});

// Start: a returning visitor (saved name) connects at once; a new one after typing a name.
const savedName = settings.get('name');
if (savedName) startSession(savedName);
render();
