// The client's state, shared by the flow (app.js) and the screens (screens.js): what the server
// last said about the session, the room and the game, and this page's own view of it.
import { t } from './i18n.js';
import catalogue from './games/catalogue.js';

// The games by id: what every page needs of each (games/catalogue.js: icon, words, settings). The
// board of a game is a module of its own (games/board.js), loaded by loadBoard.
export const games = Object.fromEntries(catalogue.map((g) => [g.id, g]));

// Each game's board module is loaded when it is needed (a room of that game, its screen), once; a
// page never fetches the boards of games it does not show. `onBoard` hears of each arrival (app.js
// draws the screen again). A failed load (the line dropped) is tried again a few seconds later, a
// few times, and at every later need.
const loads = new Map(); // id → promise of the board module
const modules = new Map(); // id → the loaded board module ({ createBoard })
const retries = new Map(); // id → failed loads so far
const boardListeners = [];
export const boardReady = (id) => modules.has(id);
export function onBoard(fn) {
  boardListeners.push(fn);
}
export function loadBoard(id) {
  const g = games[id];
  if (!g) return Promise.resolve(null);
  if (!loads.has(id)) {
    loads.set(id, g.board().then((m) => {
      modules.set(id, m);
      for (const fn of boardListeners) fn(g);
      return m;
    }, (err) => {
      loads.delete(id);
      const n = (retries.get(id) || 0) + 1;
      retries.set(id, n);
      console.warn('could not load the board of', id, err?.message);
      if (n <= 5) setTimeout(() => loadBoard(id), 3000 * n);
      return null;
    }));
  }
  return loads.get(id);
}

// The board of the room this page is in (games/board.js), made when it is first needed once the
// room and its game's board module are here, and made anew for another room (or the same code
// joined again after leaving it: leftRoom in app.js drops it). Null while the module is on its way.
export function roomBoard() {
  const room = store.room;
  const m = room && modules.get(room.game);
  if (!m) return null;
  const held = store.board;
  if (held?.code !== room.code || held.game !== room.game) store.board = { code: room.code, game: room.game, board: m.createBoard() };
  return store.board.board;
}

// Colours of seats 0..5, used for pieces, dots and fills.
export const seatColours = ['#d62828', '#1d6fd6', '#2a9d3f', '#e0a100', '#8e44ad', '#e06c00'];
// The same colours dark enough for text on the page's light backgrounds (cards, the turn bar, the
// gold highlight of a winner's row): at least 4.5:1 (WCAG AA) on all of them.
export const seatInk = ['#b3261e', '#1a5fb8', '#1b6e2e', '#7a5b00', '#7d3a99', '#9a4a00'];
// Text drawn on a seat colour (a name on a chip of that colour): white where it reads at 4.5:1,
// near-black on the light ones (green, yellow, orange; the page's ink is not dark enough on them).
export const seatOnColour = ['#fff', '#fff', '#111', '#111', '#fff', '#111'];

// A game's name for people in the page's language: the game's own title text (German where the
// game has a German name), never the server's English `title`.
export function gameTitle(id, fallback = '') {
  const key = `${id}.title`;
  return t(key) !== key ? t(key) : fallback || id || '';
}

// The server names its computer players (server/src/rooms/room.cpp, bot_name: Holly, Rudi, …, one
// not already taken by someone at the table), the same on every screen and in both languages (a
// family on the phone together talks about the same "Rudi"). Rooms journaled by older servers still
// say "Bot 1", "Bot 2": the page renames those by the same list. The seat list says it is a
// computer player.
const botNames = ['Holly', 'Rudi', 'Noel', 'Stella', 'Niko', 'Ella'];
export function displayName(name, player) {
  const m = /^Bot (\d+)$/.exec(name || '');
  const person = typeof player === 'string' && !player.startsWith('bot_'); // a person may call herself "Bot 1"
  return m && !person ? botNames[(Number(m[1]) - 1) % botNames.length] : name;
}

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
  board: null, // {code, game, board}: the board of the room (roomBoard)
  log: [],
  chat: [],
  notice: null,
  error: null,
  createGame: null,
  editingOptions: false,
  showLobby: false,
  pickingNext: false, // the host's "next game" picker is open (screens.js, nextGameHtml)
  pickingBot: false, // the host's choice of computer player is open (bots.js)
  nextGame: null, // the game picked there
  nextNote: null, // the host picked the next game: the lobby says so until it starts
};

// Names by game seat. Seats move when a game ends (freed seats, a new game), so the names of a
// game's players are taken when it starts and used for its events and results.
export function seatName(seat) {
  if (seat === null || seat === undefined) return '';
  const s = store.room?.seats?.[seat];
  const name = store.gameNames?.[seat];
  if (name) return displayName(name, name === s?.name ? s?.player : undefined);
  return s?.name ? displayName(s.name, s.player) : t('seat', { n: seat + 1 });
}

// A seat's name with "(you)" for this player's own seat, for labels on the board.
export function seatLabel(seat) {
  const name = seatName(seat);
  return seat === store.seat && seat !== null ? `${name} (${t('you')})` : name;
}

export function isHost() {
  return Boolean(store.room && store.welcome && store.room.host === store.welcome.player);
}

// A refusal in the player's language. The server's own message is English and written for
// developers ("it is seat 2's turn"), so a code without a text of ours gets a plain "That did not
// work" and the details go to the console.
export function errorText(err) {
  const key = `error.${err.code}`;
  if (t(key) !== key) return t(key);
  console.warn('refused', err.code, err.message);
  return t('error.other');
}
