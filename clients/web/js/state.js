// The client's state, shared by the flow (app.js) and the screens (screens.js): what the server
// last said about the session, the room and the game, and this page's own view of it.
import { t } from './i18n.js';
import happyHolidays from './games/happy_holidays.js';
import untermBaum from './games/unterm_baum.js';
import christmasPenguins from './games/christmas_penguins.js';

export const games = Object.fromEntries([happyHolidays, untermBaum, christmasPenguins].map((g) => [g.id, g]));

// Colours of seats 0..5, used for names, pieces and the score table.
export const seatColours = ['#d62828', '#1d6fd6', '#2a9d3f', '#e0a100', '#8e44ad', '#e06c00'];

export function parseRoute(path) {
  const m = /^\/(r|watch)\/([^/]+)\/?$/.exec(path);
  if (!m) return { kind: 'home' };
  const code = decodeURIComponent(m[2]).toUpperCase().replace(/[\s-]/g, '');
  return { kind: m[1] === 'r' ? 'invite' : 'watch', code };
}

export const store = {
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
};

// Names by game seat. Seats move when a game ends (freed seats, a new game), so the names of a
// game's players are taken when it starts and used for its events and results.
export function seatName(seat) {
  if (seat === null || seat === undefined) return '';
  return store.gameNames?.[seat] || store.room?.seats?.[seat]?.name || t('seat', { n: seat + 1 });
}

// A seat's name with "(you)" for this player's own seat, for labels on the board.
export function seatLabel(seat) {
  const name = seatName(seat);
  return seat === store.seat && seat !== null ? `${name} (${t('you')})` : name;
}

export function isHost() {
  return Boolean(store.room && store.welcome && store.room.host === store.welcome.player);
}

// A refusal in the player's language when we have a text for its code, else the server's message.
export function errorText(err) {
  const key = `error.${err.code}`;
  return t(key) !== key ? t(key) : err.message || err.code;
}
