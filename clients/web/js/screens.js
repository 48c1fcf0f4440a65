// The screens as HTML: home, invite, lobby (with the options form), the game frame and the
// results. Every string from the server or another player goes through esc(). The game screen is
// drawn with the room's board (games/board.js) and the context app.js passes down.
import { inviteHtml, nameField } from './invite.js';
import { addTexts, list, t } from './i18n.js';
import { defaultsOf, fieldOf, optionSpecs, seatsMax, unitOf } from './options.js';
import { boardReady, displayName, errorText, gameTitle, games, isHost, loadBoard, roomBoard, seatColours, seatName, store } from './state.js';
import { concrete, esc, settings } from './util.js';
import { seatDot } from './marks.js';
import { clockHtml } from './calls.js';
import { helpButton } from './help.js';
import { botPickHtml } from './bots.js';
import { droppedTurnLine, presenceHtml, skipExplainHtml, stateText, watchersHtml } from './presence.js';

addTexts({
  en: { 'game.loading_board': 'Loading the board…' },
  de: { 'game.loading_board': 'Das Spielbrett wird geladen…' },
});

// `ctx`: the context the room's board draws with (RenderContext, games/board.js).
export function screenHtml(ctx) {
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
  if (store.room && store.joined) return banners.join('') + roomHtml(ctx);
  const r = store.route;
  if (r.kind === 'invite' || r.kind === 'watch') return banners.join('') + inviteHtml(r);
  return banners.join('') + homeHtml();
}

function homeHtml() {
  document.title = t('page.title');
  const w = store.welcome;
  const back = w?.resumed && w.room
    ? `<p><button class="big" data-act="rejoin" data-code="${esc(w.room)}">${esc(t('home.back_to_room', { code: w.room }))}</button></p>`
    : '';
  const gameList = store.welcome?.games || [];
  const picked = store.createGame;
  const cards = Object.values(games).map((g) => {
    const info = gameList.find((x) => x.id === g.id);
    // As many as a room of this game accepts (its seats option), not only its default seats.
    const range = info ? t('home.players', { min: info.min_players, max: Math.max(info.max_players, seatsMax(info.options || []) ?? 0) }) : '';
    return `<div class="game-pick"><button class="game-card ${picked === g.id ? 'picked' : ''}" data-act="pick-game" data-game="${g.id}">
      <span class="game-icon" aria-hidden="true">${g.icon}</span>
      <strong>${esc(gameTitle(g.id))}</strong><span>${esc(t(`${g.id}.blurb`))}</span><small>${esc(range)}</small></button>
      ${helpButton(g.id, 'home', 'small')}</div>`;
  });
  const options = picked ? optionsForm(picked, draft('create-form', picked) || newRoomOptions(picked)) : '';
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

// The settings the host is picking in `form`, as left (app.js keeps them across redraws).
const draft = (form, game) => (store.optionDraft?.form === form && store.optionDraft.game === game ? store.optionDraft.values : null);

// A new room starts with seats for a family of four where a game's default is more (Unterm Baum's
// rulebook default is 6): the picker's time estimate then speaks of a usual evening, and the invite
// does not offer seats nobody will take. A game may start a family's room with other values too
// (`familyDefaults` in its catalogue entry). The host may choose otherwise.
function newRoomOptions(gameId) {
  const seats = optionSpecs(store.welcome, gameId).find((s) => s.seats === 'max');
  const out = { ...(games[gameId]?.familyDefaults || {}) };
  if (typeof seats?.default === 'number' && seats.default > 4) out.maxPlayers = 4;
  return Object.keys(out).length ? out : null;
}

// The options form of a game: the main options first, the rest folded under "More settings" (in
// the order of their keys, as the picker has always listed them).
function optionsForm(gameId, current) {
  const g = games[gameId];
  const specs = optionSpecs(store.welcome, gameId);
  const values = { ...defaultsOf(specs), ...(current || {}) };
  const byKey = new Map(specs.map((s) => [s.key, s]));
  const fields = (keys) => keys.filter((k) => byKey.has(k)).map((k) => optionField(g, byKey.get(k), values[k])).join('');
  const main = g.mainOptions || [];
  const rest = [...byKey.keys()].filter((k) => !main.includes(k)).sort();
  return `<fieldset class="options" data-game="${esc(gameId)}"><legend>${esc(t('home.options'))}</legend>${fields(main)}
    <details><summary>${esc(t('home.more_options'))}</summary>${fields(rest)}</details>
    <p class="estimate" data-testid="estimate">${esc(estimateText(gameId, values))}</p></fieldset>`;
}

// "About 40 minutes with 4 players" for these options (each game's estimateMinutes), rounded to
// 5 minutes; updated as the settings change (app.js).
export function estimateText(gameId, options) {
  const g = games[gameId];
  const minutes = g?.estimateMinutes?.(options);
  if (!Number.isFinite(minutes)) return '';
  return t('home.estimate', { n: Math.max(5, Math.round(minutes / 5) * 5), players: options.maxPlayers });
}

// Timers in words a family uses: "60 seconds", not "60".
function withUnit(spec, n) {
  const unit = unitOf(spec);
  return unit ? t('opt.seconds', { n: unit === 'ms' ? n / 1000 : n }) : String(n);
}

// One setting as the server declares it (`spec`, options.js), with its current `value`.
function optionField(g, spec, value) {
  const field = fieldOf(spec, g.presets?.[spec.key]);
  const label = t(`${g.id}.opt.${spec.key}`) !== `${g.id}.opt.${spec.key}` ? t(`${g.id}.opt.${spec.key}`) : spec.key;
  const name = esc(spec.key);
  const id = `opt-${name}`;
  let input;
  if (field.kind === 'bool') {
    input = `<input type="checkbox" id="${id}" data-opt="${name}" data-kind="bool" data-fresh ${value ? 'checked' : ''}>`;
  } else if (field.kind === 'select') {
    const choices = field.choices.includes(value) ? field.choices : [value, ...field.choices];
    const opts = choices.map((c) => {
      const key = `${g.id}.opt.${name}.${c}`;
      const text = t(key) !== key ? t(key) : c === 'off' ? t('opt.off') : typeof c === 'number' ? withUnit(spec, c) : String(c);
      return `<option value="${esc(JSON.stringify(c))}" ${c === value ? 'selected' : ''}>${esc(text)}</option>`;
    });
    input = `<select id="${id}" data-opt="${name}" data-kind="json" data-fresh>${opts.join('')}</select>`;
  } else if (field.kind === 'number') {
    input = `<input type="number" id="${id}" data-opt="${name}" data-kind="number" data-fresh value="${esc(value)}"
      min="${field.min}" max="${field.max}">`;
  } else {
    input = `<input id="${id}" data-opt="${name}" data-kind="text" data-fresh value="${esc(value)}">`;
  }
  const unit = field.kind === 'number' && unitOf(spec) ? ` (${t(unitOf(spec) === 'ms' ? 'opt.in_ms' : 'opt.in_seconds')})` : '';
  return `<label class="field option ${field.kind === 'bool' ? 'check' : ''}"><span>${esc(label + unit)}</span>${input}</label>`;
}

export function readOptions(form) {
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

function roomHtml(ctx) {
  const room = store.room;
  const g = games[room.game];
  if (room.status === 'lobby' || store.showLobby || !store.state) return lobbyHtml(room, g);
  // The board is loaded as soon as the room is known (app.js), so it is normally here by now; on a
  // slow line the screen says so until it arrives (app.js then draws it).
  if (!boardReady(room.game)) return boardLoadingHtml(room, g);
  return gameHtml(room, roomBoard(), ctx);
}

function boardLoadingHtml(room, g) {
  loadBoard(room.game);
  const title = gameTitle(room.game, room.title);
  document.title = `${title} · Tinsel`;
  return `<section class="card board-loading" data-testid="board-loading" role="status">
    <h2><span aria-hidden="true">${g?.icon || ''}</span> ${esc(title)}</h2>
    <p><span aria-hidden="true">⏳</span> ${esc(t('game.loading_board'))}</p></section>`;
}

function seatsHtml(room, controls) {
  const me = store.welcome?.player;
  const rows = room.seats.map((s) => {
    const colour = seatColours[s.seat % seatColours.length];
    if (s.status === 'empty') {
      return `<li class="seat empty">${seatDot(s.seat, colour)}<em>${esc(t('lobby.empty_seat'))}</em></li>`;
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
    return `<li class="seat status-${esc(s.status)}"><span class="who">${seatDot(s.seat, colour)}<strong>${esc(displayName(s.name, s.player))}</strong></span>
      ${tags.length ? `<span class="tag">${esc(tags.join(', '))}</span>` : ''}
      <span class="status"${s.status === 'disconnected' && s.since ? ` data-since="${Number(s.since)}"` : ''}>${esc(stateText(s))}</span> ${buttons.join(' ')}</li>`;
  });
  // Who watches, by name (presence.js); a count only from a server that does not name them.
  const watching = room.watchers ? watchersHtml(room)
    : room.spectators ? `<p class="muted">${esc(t('lobby.spectators', { n: room.spectators }))}</p>` : '';
  // Whom the host sent away stays away until the host lets them back.
  const away = isHost() && room.kicked?.length
    ? `<ul class="sent-away" data-testid="sent-away">${room.kicked.map((k) => `<li><span>${esc(t('lobby.sent_away', { name: k.name }))}</span>
        <button class="small" data-act="readmit" data-player="${esc(k.player)}">${esc(t('lobby.readmit'))}</button></li>`).join('')}</ul>`
    : '';
  return `<ul class="seats" aria-label="${esc(t('a11y.seats'))}">${rows.join('')}</ul>${watching}${away}`;
}

// How long the host waits on a player before "Move on for …" is offered, and since when the game
// waits on the prompt on screen.
export const skipAfterMs = 20000;
const waiting = { key: '', since: 0 };

function firstSeatSelect(room) {
  if (room.options?.startPlayer !== 'host-picks') return '';
  const taken = room.seats.filter((s) => s.status !== 'empty');
  return `<label class="field"><span>${esc(t('lobby.first_seat'))}</span><select id="first-seat">
    ${taken.map((s, i) => `<option value="${i}">${esc(displayName(s.name, s.player))}</option>`).join('')}</select></label>`;
}

function lobbyHtml(room, g) {
  const title = gameTitle(room.game, room.title);
  document.title = `${room.code} · ${title} · Tinsel`;
  const invite = `${location.origin}/r/${room.code}`;
  const watch = `${location.origin}/watch/${room.code}`;
  const seated = room.seats.filter((s) => s.status !== 'empty').length;
  const host = isHost();
  const hostSeat = room.seats.find((s) => s.player === room.host);
  const hostName = hostSeat ? displayName(hostSeat.name, hostSeat.player) : '';
  let controls = '';
  if (host) {
    const enough = seated >= room.min_players;
    const free = room.seats.some((s) => s.status === 'empty');
    controls = `<div class="host-controls">
      ${store.editingOptions ? `<form id="options-form" data-act-submit="save-options">${optionsForm(room.game, draft('options-form', room.game) || room.options)}
        <button class="big" type="submit">${esc(t('lobby.save_options'))}</button></form>` : ''}
      ${firstSeatSelect(room)}
      <div class="row">
        <button class="big primary" data-act="start" ${enough ? '' : 'disabled'}>${esc(room.status === 'finished' ? t('game.play_again') : t('lobby.start'))}</button>
        ${free && !store.pickingBot ? `<button data-act="add-bot" data-testid="add-bot">${esc(t('lobby.add_bot'))}</button>` : ''}
        ${store.editingOptions ? '' : `<button data-act="edit-options">${esc(t('lobby.change_options'))}</button>`}
        ${store.pickingNext ? '' : `<button data-act="next-game" data-testid="next-game">${esc(t(room.status === 'finished' ? 'next.choose' : 'next.change'))}</button>`}
      </div>
      ${free ? botPickHtml() : ''}
      ${enough ? '' : `<p class="muted">${esc(t('lobby.need_players', { n: room.min_players }))}</p>`}
      ${room.seats.filter((s) => s.status === 'disconnected').map((s) => `<p class="notice">${esc(t('lobby.disconnected_warning', { name: s.name }))}</p>`).join('')}
    </div>`;
  } else {
    controls = `<p class="waiting">${esc(t('lobby.waiting_host', { name: hostName }))}</p>`;
  }
  return `<section class="card lobby">
    <div class="title-row"><h2><span aria-hidden="true">${g?.icon || ''}</span> ${esc(title)}</h2>${helpButton(room.game, 'lobby', 'small')}</div>
    ${nextNoteHtml(room, hostName)}${nextGameHtml(room)}
    <p class="room-code">${esc(t('lobby.code'))}: <strong data-testid="room-code">${esc(room.code)}</strong></p>
    <div class="invite">
      <p>${esc(t('lobby.invite'))}</p>
      <div class="row invite-row"><input id="invite-link" readonly value="${esc(invite)}" data-fresh aria-label="${esc(t('a11y.invite_link'))}">
        <button data-act="copy" id="copy-link" data-text="${esc(invite)}" aria-label="${esc(t('lobby.copy'))}: ${esc(t('a11y.copy'))}">${esc(t('lobby.copy'))}</button>
        ${navigator.share ? `<button data-act="share" data-text="${esc(invite)}" aria-label="${esc(t('lobby.share'))} ${esc(t('a11y.share'))}">${esc(t('lobby.share'))}</button>` : ''}</div>
      <p class="muted">${esc(t('lobby.watch_link'))}: <a href="${esc(watch)}" target="_blank" rel="noopener" aria-label="${esc(t('a11y.watch_link'))}: ${esc(watch)}">${esc(watch)}</a></p>
    </div>
    ${room.game === 'unterm_baum' ? `<p class="notice">${esc(t('honesty'))}</p>` : ''}
    ${store.seat === null ? `<p class="notice">${esc(t('game.spectating'))}</p>` : ''}
    <h3>${esc(t('lobby.seats'))}</h3>
    ${seatsHtml(room, true)}
    ${controls}
    <div class="row">
      <button data-act="leave">${esc(t('lobby.leave'))}</button>
      ${host ? `<button data-act="close-room">${esc(t('lobby.close'))}</button>` : ''}</div>
  </section>`;
}

// The game screen, drawn with the room's board (`g`, games/board.js).
function gameHtml(room, g, ctx) {
  const state = store.state;
  const prompt = state.prompt;
  const mine = store.seat !== null && prompt?.seats?.includes(store.seat) && state.legal.length > 0;
  let turnLine;
  if (state.over) turnLine = t('game.over');
  else if (mine) turnLine = t('game.your_turn');
  else if (prompt && prompt.seats.length === 1) {
    // "Oma Rosi's turn — connection lost" when the player on turn has dropped (presence.js).
    turnLine = droppedTurnLine(room, prompt.seats, seatName(prompt.seats[0])) || t('game.turn_of', { name: seatName(prompt.seats[0]) });
  }
  else if (prompt && prompt.seats.length > 1) turnLine = t('game.waiting_for', { names: list(prompt.seats.map(seatName)) });
  else turnLine = prompt ? g.promptText(ctx) || '' : ''; // a prompt that waits on nobody (memorising) says what happens
  let what = mine ? g.promptText(ctx) || '' : '';
  // A game may word the bar itself where whose turn it is and whom the prompt waits on differ
  // (Christmas Penguins' "Stop!" window after a roll waits on the stone holders): { turn, what }.
  const own = state.over ? null : g.turnBar?.(ctx, { mine });
  if (own) ({ turn: turnLine, what } = own);
  // A tab in the background still tells its player when it is their turn.
  document.title = mine ? `▶ ${t('game.your_turn')} · Tinsel` : `${gameTitle(room.game, room.title)} · Tinsel`;
  // The clock only for a decision the game will really take for someone, saying whose (calls.js).
  const timer = clockHtml(state, room);
  const spectator = store.seat === null ? `<p class="muted">${esc(t('game.spectating'))}</p>` : '';
  // A player whose time ran out twice in a row is "away": the game then chooses for them after a few
  // seconds (rulebook C5). They are told so, and how to play on.
  const away = store.seat !== null && !state.over && room.seats[store.seat]?.status === 'away'
    ? `<p class="notice away-note" data-testid="away-note">${esc(t('game.away_you'))}</p>` : '';
  // The host can move the game on for a player it is waiting on (the default, as on a timeout).
  const waitedFor = isHost() && prompt && !state.over
    ? prompt.seats.filter((s) => s !== store.seat && !['bot', 'gone'].includes(room.seats[s]?.status)) : [];
  // Not at once: a player who is only thinking should not be moved on by a stray tap. The
  // buttons appear once the game has waited `skipAfterMs` on the same prompt (tick() in calls.js
  // shows them), or at once for a player whose connection is gone.
  const waitKey = prompt ? `${prompt.kind}|${prompt.seats.join(',')}|${prompt.deadline ?? ''}|${state.view?.round ?? ''}|${state.view?.active ?? ''}` : '';
  if (waitKey !== waiting.key) Object.assign(waiting, { key: waitKey, since: Date.now() });
  const showAt = waitedFor.some((s) => room.seats[s]?.status === 'disconnected') ? 0 : waiting.since + skipAfterMs;
  const skip = waitedFor.length
    ? `<p class="host-skip" data-show-at="${showAt}" ${Date.now() < showAt ? 'hidden' : ''}>${waitedFor.map((s) => `<button class="small" data-act="skip" data-seat="${s}" data-testid="skip-${s}"
        title="${esc(t('game.skip_title', { name: seatName(s) }))}">⏭ ${esc(t('game.skip', { name: seatName(s) }))}</button>`).join(' ')}
        ${skipExplainHtml(waitedFor.map(seatName))}</p>`
    : '';
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
  // Who is here, at a glance, above the turn bar: on turn, the seats the game waits on.
  const strip = presenceHtml(room, state.over ? [] : prompt?.seats || []);
  return `<section class="game game-${esc(room.game)}">
    ${strip}
    <div class="turn-bar ${mine ? 'mine' : ''}" role="status">
      <strong class="turn" data-testid="turn">${esc(turnLine)}</strong>
      <span class="what">${esc(what)}</span> ${timer} ${helpButton(room.game, 'game', 'small')}
    </div>
    ${spectator}${away}${skip}
    ${state.over ? resultHtml(g, ctx) : ''}
    ${actions}
    <div class="board-wrap" data-key="board-wrap">${board}</div>
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
          <button class="big" data-act="next-game" data-testid="next-game">${esc(t('next.choose'))}</button>
          <button data-act="show-lobby">${esc(t('game.back_to_lobby'))}</button></div>`
      : `<p class="muted">${esc(t('game.waiting_again'))}</p><div class="row"><button data-act="leave">${esc(t('lobby.leave'))}</button></div>`)
    : '';
  return `<section class="card results" data-testid="results">
    <h2>🏆 ${esc(t('game.over'))}</h2>
    <p class="headline">${esc(headline)}</p>
    ${g.resultHtml(ctx)}
    ${g.resultNote ? `<p class="result-note" data-testid="result-note">${esc(g.resultNote(ctx))}</p>` : ''}
    ${again}
    ${result.record ? `<p class="small"><a href="/records/${esc(result.record)}.json" download="tinsel-${esc(result.record)}.json" data-testid="record">${esc(t('game.record'))}</a><br><span class="muted">${esc(t('game.record_hint'))}</span></p>` : ''}
    ${result.seed ? `<details class="small muted record-details"><summary>${esc(t('game.record_details'))}</summary><p>${esc(t('game.seed', { seed: result.seed }))}</p></details>` : ''}
  </section>`;
}

// ---------------------------------------------------------------------------------------------
// The next game (issue 31): after a game, or in the lobby, the host picks any game with its
// settings for the same room (set_game); the seats, the chat and the links stay. The cards and
// the settings are those of the start page.

// The settings the picker starts from: the room's own for its current game; for another game that
// game's family start (newRoomOptions) with a seat for everyone already at the table.
function nextOptions(room, gameId) {
  if (gameId === room.game) return room.options;
  const out = { ...(newRoomOptions(gameId) || {}) };
  const seats = optionSpecs(store.welcome, gameId).find((s) => s.seats === 'max');
  const seated = room.seats.filter((s) => s.status !== 'empty').length;
  if (seats) {
    const want = Math.max(seated, out[seats.key] ?? seats.default);
    out[seats.key] = Math.min(seats.max ?? want, Math.max(seats.min ?? want, want));
  }
  return out;
}

function nextGameHtml(room) {
  if (!isHost() || !store.pickingNext || room.status === 'playing') return '';
  const picked = games[store.nextGame] ? store.nextGame : room.game;
  const gameList = store.welcome?.games || [];
  const cards = Object.values(games).map((g) => {
    const info = gameList.find((x) => x.id === g.id);
    const range = info ? t('home.players', { min: info.min_players, max: Math.max(info.max_players, seatsMax(info.options || []) ?? 0) }) : '';
    const now = g.id === room.game ? `<em class="tag">${esc(t(room.status === 'finished' ? 'next.just_played' : 'next.current'))}</em>` : '';
    return `<div class="game-pick"><button class="game-card ${picked === g.id ? 'picked' : ''}" data-act="next-pick" data-game="${g.id}"
      aria-pressed="${picked === g.id}" data-testid="next-card-${g.id}">
      <span class="game-icon" aria-hidden="true">${g.icon}</span>
      <strong>${esc(gameTitle(g.id))}</strong>${now}<span>${esc(t(`${g.id}.blurb`))}</span><small>${esc(range)}</small></button>
      ${helpButton(g.id, 'home', 'small')}</div>`;
  });
  const values = draft('next-form', picked) || nextOptions(room, picked);
  return `<section class="next-game" data-testid="next-game-picker" aria-labelledby="next-title">
    <h3 id="next-title">${esc(t('next.title'))}</h3>
    <p class="muted">${esc(t('next.hint'))}</p>
    <div class="game-cards">${cards.join('')}</div>
    <form id="next-form" data-act-submit="set-game" data-game="${esc(picked)}">${optionsForm(picked, values)}
      <div class="row"><button class="big primary" type="submit" data-testid="next-confirm">${esc(t('next.confirm', { game: gameTitle(picked) }))}</button>
        <button type="button" data-act="next-cancel">${esc(t('next.cancel'))}</button></div></form>
  </section>`;
}

// Everyone is told what comes next once the host picked it (store.nextNote, app.js), until it starts.
function nextNoteHtml(room, hostName) {
  if (!store.nextNote || room.status !== 'lobby') return '';
  const game = gameTitle(room.game, room.title);
  const text = isHost() ? t('next.note_host', { game }) : t('next.note', { game, name: hostName });
  return `<p class="notice next-note" role="status" data-testid="next-note"><span aria-hidden="true">${games[room.game]?.icon || ''}</span> ${esc(text)}</p>`;
}
