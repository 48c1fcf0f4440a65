// The invite and watch pages (/r/CODE, /watch/CODE): what you are invited to, before you type a
// name. The server writes the room's public summary into the page it serves for these links
// (<script id="tinsel-room">, docs/protocol.md "Invite links"), so the page needs no request to say
// which game it is, who invites, who already sits at the table and whether a seat is free; a link
// to a room that is gone says so at once and offers a new room instead.
import { addTexts, list, t } from './i18n.js';
import { displayName, errorText, gameTitle, games, loadBoard, store } from './state.js';
import { esc, settings } from './util.js';

addTexts({
  en: {
    'invite.heading': '{host} invites you to play {game}',
    'invite.heading_nohost': 'You are invited to play {game}',
    'invite.watch_heading': 'Watch {host} play {game}',
    'invite.watch_heading_nohost': 'Watch a game of {game}',
    'invite.at_table': 'At the table',
    'invite.nobody': 'Nobody has sat down yet.',
    'invite.free_seat': 'free seat',
    'invite.is_host': 'invites',
    'invite.computer': 'computer',
    'invite.seats_free': '{n} seats are free. Type your name and sit down.',
    'invite.seat_free': 'One seat is free. Type your name and sit down.',
    'invite.full': 'Every seat is taken. You can still watch.',
    'invite.running': 'The game is already running. You can watch.',
    'invite.watch_only': 'Type your name to watch. You can chat with the players.',
    'invite.gone_title': 'This game room does not exist (any more)',
    'invite.gone': 'The link leads to room {code}, which is not open: the game may be over and the room closed, or the link is not complete. Ask for a new link, or start a new room yourself.',
    'invite.gone_bad': 'This link does not lead to a game room: it may not be complete. Ask for a new link, or start a new room yourself.',
    'invite.unavailable_title': 'This game room could not be brought back',
    'invite.unavailable': 'Room {code} was lost when the server restarted. Please start a new room.',
    'invite.new_room': 'Start a new game room',
  },
  de: {
    'invite.heading': '{host} lädt dich zu {game} ein',
    'invite.heading_nohost': 'Du bist zu {game} eingeladen',
    'invite.watch_heading': 'Schau {host} bei {game} zu',
    'invite.watch_heading_nohost': 'Schau eine Partie {game} an',
    'invite.at_table': 'Am Tisch',
    'invite.nobody': 'Noch sitzt niemand am Tisch.',
    'invite.free_seat': 'freier Platz',
    'invite.is_host': 'lädt ein',
    'invite.computer': 'Computer',
    'invite.seats_free': '{n} Plätze sind frei. Gib deinen Namen ein und setz dich dazu.',
    'invite.seat_free': 'Ein Platz ist frei. Gib deinen Namen ein und setz dich dazu.',
    'invite.full': 'Alle Plätze sind besetzt. Du kannst aber zuschauen.',
    'invite.running': 'Das Spiel läuft schon. Du kannst zuschauen.',
    'invite.watch_only': 'Gib deinen Namen ein, um zuzuschauen. Du kannst mit den Spielern chatten.',
    'invite.gone_title': 'Diesen Spielraum gibt es nicht (mehr)',
    'invite.gone': 'Der Link führt zum Raum {code}, der nicht offen ist: Vielleicht ist das Spiel vorbei und der Raum geschlossen, oder der Link ist unvollständig. Frag nach einem neuen Link oder eröffne selbst einen neuen Raum.',
    'invite.gone_bad': 'Dieser Link führt zu keinem Spielraum: Vielleicht ist er unvollständig. Frag nach einem neuen Link oder eröffne selbst einen neuen Raum.',
    'invite.unavailable_title': 'Dieser Spielraum ließ sich nicht wiederherstellen',
    'invite.unavailable': 'Der Raum {code} ging beim Neustart des Servers verloren. Bitte eröffne einen neuen Raum.',
    'invite.new_room': 'Einen neuen Spielraum eröffnen',
  },
});

// What the server wrote into this page: a room summary, an error object, or null (a page from
// elsewhere, e.g. a development server: then the page asks for a name as it always did).
function embedded() {
  try {
    return JSON.parse(document.getElementById('tinsel-room')?.textContent || 'null');
  } catch {
    return null;
  }
}
const first = embedded();
const known = new Map(); // code → summary or error object
if (first?.code) known.set(first.code, first);
// The room's game is known: its board (and only its) is fetched while the guest reads and types.
if (first?.game) loadBoard(first.game);

// Asks the server again (after a refused join, the seats may have changed); GET /rooms/CODE counts
// against the same allowance as join_room, so only when something happened.
export async function refreshInvite(code) {
  try {
    const res = await fetch(`/rooms/${encodeURIComponent(code)}`, { cache: 'no-store' });
    const body = await res.json();
    if (body && (body.code || body.error)) known.set(code, body);
    if (body?.game) loadBoard(body.game);
  } catch {
    /* offline: keep what we had */
  }
}

// The name field of the home and the invite page, filled with the name this browser last used.
export function nameField() {
  const name = settings.get('name', '');
  return `<label class="field"><span>${esc(t('home.name'))}</span>
    <input id="name" maxlength="32" autocomplete="nickname" value="${esc(name)}" required>
    <small>${esc(t('home.name_hint'))}</small></label>`;
}

// t() with HTML for its placeholders: the text is escaped, the parameters are inserted as given.
function tHtml(key, params) {
  const marks = Object.fromEntries(Object.keys(params).map((k) => [k, `\u0001${k}\u0002`]));
  return esc(t(key, marks)).replace(/\u0001(\w+)\u0002/g, (_, k) => params[k]);
}

export function inviteHtml(r) {
  const info = known.get(r.code);
  if (info?.error === 'unknown_room' || info?.error === 'room_unavailable') return goneHtml(r, info);
  if (!info || info.error) return plainHtml(r, info);
  const g = games[info.game];
  const watch = r.kind === 'watch';
  const game = `<strong>${esc(g ? gameTitle(g.id, info.title) : info.title)}</strong>`;
  const host = info.host === null ? null : `<strong>${esc(info.host)}</strong>`;
  const heading = watch
    ? tHtml(host ? 'invite.watch_heading' : 'invite.watch_heading_nohost', { host, game })
    : tHtml(host ? 'invite.heading' : 'invite.heading_nohost', { host, game });
  const plain = { host: info.host ?? '', game: g ? gameTitle(g.id, info.title) : info.title };
  document.title = `${t(watch ? (info.host === null ? 'invite.watch_heading_nohost' : 'invite.watch_heading') : (info.host === null ? 'invite.heading_nohost' : 'invite.heading'), plain)} · Tinsel`;
  const playing = info.status === 'playing';
  const players = info.players.map((p) => {
    const tags = [];
    if (p.bot) tags.push(t('invite.computer'));
    if (p.host) tags.push(t('invite.is_host'));
    const tag = tags.length ? ` <span class="tag">${esc(tags.join(', '))}</span>` : '';
    return `<li class="seat">${esc(displayName(p.name, p.bot ? undefined : ''))}${tag}</li>`;
  });
  for (let i = 0; i < info.free_seats; i++) players.push(`<li class="seat empty"><em>${esc(t('invite.free_seat'))}</em></li>`);
  const canSit = !watch && !playing && info.free_seats > 0;
  const status = watch ? t('invite.watch_only')
    : playing ? t('invite.running')
    : info.free_seats === 0 ? t('invite.full')
    : info.free_seats === 1 ? t('invite.seat_free')
    : t('invite.seats_free', { n: info.free_seats });
  const buttons = canSit
    ? `<button class="big primary" type="submit" data-as="player">${esc(t('invite.sit'))}</button>
       <button type="button" data-act="invite-watch">${esc(t('invite.watch'))}</button>`
    : `<button class="big primary" type="submit" data-as="spectator">${esc(t('invite.watch'))}</button>`;
  const err = store.error ? `<p class="error">${esc(errorText(store.error))}</p>` : '';
  return `<section class="card invite" data-testid="invite">
    <div class="invite-head">
      <img class="invite-picture" src="/og/${esc(g ? g.id : 'tinsel')}.png" alt="" width="1200" height="630">
      <div>
        <h2 data-testid="invite-heading"><span class="game-icon" aria-hidden="true">${g ? g.icon : '🎄'}</span> ${heading}</h2>
        ${g ? `<p class="muted">${esc(t(`${g.id}.blurb`))}</p>` : ''}
      </div>
    </div>
    <h3>${esc(t('invite.at_table'))}</h3>
    ${players.length ? `<ul class="seats" data-testid="invite-seats">${players.join('')}</ul>` : `<p>${esc(t('invite.nobody'))}</p>`}
    <p class="waiting" data-testid="invite-status">${esc(status)}</p>
    <form id="invite-form" data-act-submit="invite-join">${nameField()}<div class="row">${buttons}</div></form>
    ${err}
    <p class="room-code small">${esc(t('lobby.code'))}: <strong>${esc(r.code)}</strong></p>
    <p><a href="/" data-act="home">${esc(t('invite.new_room'))}</a></p>
  </section>`;
}

// No room behind the link: no name to type, a new room instead.
function goneHtml(r, info) {
  const unavailable = info.error === 'room_unavailable';
  const text = unavailable ? t('invite.unavailable', { code: info.code })
    : info.code ? t('invite.gone', { code: info.code }) : t('invite.gone_bad');
  document.title = `${t(unavailable ? 'invite.unavailable_title' : 'invite.gone_title')} · Tinsel`;
  return `<section class="card invite" data-testid="invite-gone">
    <h2>${esc(t(unavailable ? 'invite.unavailable_title' : 'invite.gone_title'))}</h2>
    <p>${esc(text)}</p>
    <p><button class="big primary" data-act="home">${esc(t('invite.new_room'))}</button></p>
  </section>`;
}

// Without a summary (none written into the page, or too many unknown codes from this network):
// the name and both ways in, as before; the server decides when the name is sent.
function plainHtml(r, info) {
  const err = store.error || info?.error ? `<p class="error">${esc(errorText(store.error || { code: info.error, message: info.message }))}</p>` : '';
  const canWatch = store.error && ['room_full', 'game_in_progress', 'kicked'].includes(store.error.code);
  const title = r.kind === 'watch' ? t('watch.title') : t('invite.title');
  document.title = `${title} · Tinsel`;
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
