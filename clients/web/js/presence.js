// Who is here, and chat on a phone (issue 31).
//
// The strip "at the table" at the top of the game and results screens: every player by name with
// a dot AND a word (here, connection lost 2 min ago, away, the computer plays), the one on turn
// marked, and who is watching, by name. It reads the room push: `seats[].status`, `seats[].since`
// (server time since when a seat is disconnected/away/gone, so "2 min ago" survives a reload) and
// `watchers` (docs/protocol.md, "The room push").
//
// The chat: a button in the header reaches it in one tap on every screen, with a badge counting
// messages from others that arrived while the chat was out of sight, and a short toast for each;
// seeing the chat clears the badge. On a phone the chat opens as a sheet over the page; on a
// desktop the side column is scrolled into view.
import { list, t } from './i18n.js';
import { displayName, seatInk, store } from './state.js';
import { esc } from './util.js';

const $ = (sel) => document.querySelector(sel);

// ---------------------------------------------------------------------------------------------
// Who is here

// How long ago `since` (server ms) was, in words: "just now", "2 min ago", "1 hour ago".
function agoParams(since) {
  const min = Math.max(0, Math.floor((Date.now() - Number(since)) / 60000));
  if (min < 1) return { key: 'now', n: 0 };
  if (min < 60) return { key: 'min', n: min };
  return { key: 'hours', n: Math.floor(min / 60) };
}

// A seat's state in words, as the strip and the seat list show it.
export function stateText(seat) {
  if (seat.status === 'disconnected' && seat.since) {
    const { key, n } = agoParams(seat.since);
    return t(`presence.dropped_${key}`, { n });
  }
  if (seat.status === 'bot' && ['gentle', 'fair'].includes(seat.bot_level)) return t(`status.bot_${seat.bot_level}`);
  return t(`status.${seat.status}`);
}

const stateIcon = { connected: '', away: '💤', disconnected: '📵', gone: '🤖', bot: '🤖', empty: '' };

function stateSpan(seat) {
  const since = seat.status === 'disconnected' && seat.since ? ` data-since="${Number(seat.since)}"` : '';
  return `<span class="pstate"${since}>${esc(stateText(seat))}</span>`;
}

// The watchers by name, each person once, without players who also watch from another page.
function watcherNames(room) {
  const seated = new Set(room.seats.map((s) => s.player).filter(Boolean));
  const seen = new Set();
  const names = [];
  for (const w of room.watchers || []) {
    if (seated.has(w.player) || seen.has(w.player)) continue;
    seen.add(w.player);
    names.push(w.player === store.welcome?.player ? `${w.name} (${t('lobby.you')})` : w.name);
  }
  return names;
}

// "👁 Watching: Tante Eva and Onkel Paul" (nothing when nobody watches).
export function watchersHtml(room) {
  const names = watcherNames(room);
  if (!names.length) return '';
  return `<p class="watchers" data-testid="watchers"><span aria-hidden="true">👁</span> ${esc(t('presence.watching', { n: names.length, names: list(names) }))}</p>`;
}

// The strip at the top of the game and results screens. `turn`: the seats the game waits on.
export function presenceHtml(room, turn = []) {
  const me = store.welcome?.player;
  const chips = room.seats.filter((s) => s.status !== 'empty').map((s) => {
    const onTurn = turn.includes(s.seat);
    const you = s.player === me ? ` (${t('lobby.you')})` : '';
    const icon = stateIcon[s.status] ? `<span aria-hidden="true">${stateIcon[s.status]}</span> ` : '';
    return `<li class="pchip st-${esc(s.status)} ${onTurn ? 'on-turn' : ''}" data-key="p-${s.seat}" data-testid="presence-seat-${s.seat}" data-status="${esc(s.status)}">
      <span class="pdot" aria-hidden="true"></span>
      ${onTurn ? `<span class="pturn" aria-hidden="true">▶</span><span class="visually-hidden">${esc(t('presence.on_turn'))}:</span>` : ''}
      <strong class="pname" style="color:${seatInk[s.seat % seatInk.length]}">${esc(displayName(s.name, s.player))}${esc(you)}</strong>
      ${icon}${stateSpan(s)}</li>`;
  });
  return `<section class="presence" data-testid="presence" aria-label="${esc(t('presence.title'))}">
    <ul class="presence-list">${chips.join('')}</ul>${watchersHtml(room)}</section>`;
}

// The turn bar's line when the one player the game waits on has lost the connection:
// "Oma Rosi's turn — connection lost"; null otherwise.
export function droppedTurnLine(room, seats, name) {
  if (seats?.length !== 1) return null;
  const s = room.seats[seats[0]];
  return s?.status === 'disconnected' ? t('presence.turn_dropped', { name }) : null;
}

// One line under the host's "Move on for …" buttons: what it does and when to use it.
export function skipExplainHtml(names) {
  return `<span class="skip-explain muted" data-testid="skip-explain">${esc(t('presence.skip_explain', { names: list(names) }))}</span>`;
}

// "connection lost 2 min ago" grows older without a push: the words are renewed twice a minute.
setInterval(() => {
  for (const el of document.querySelectorAll('.pstate[data-since], .status[data-since]')) {
    const { key, n } = agoParams(el.dataset.since);
    el.textContent = t(`presence.dropped_${key}`, { n });
  }
}, 30000);

// ---------------------------------------------------------------------------------------------
// Chat on a phone

const chat = { unread: 0, visible: false, open: false, toastTimer: null };
const phone = () => window.matchMedia('(max-width: 60rem)').matches;

// A button with its id as its test id.
function plainButton(id, className) {
  const button = document.createElement('button');
  button.id = id;
  button.type = 'button';
  button.className = className;
  button.dataset.testid = id;
  return button;
}

// Creates the header button, the toast and the sheet's close button (once, at start), and watches
// whether the chat is in sight.
export function initChat() {
  const header = $('header.top');
  const button = plainButton('chat-open', 'chat-open');
  button.hidden = true;
  button.innerHTML = '<span aria-hidden="true">💬</span> <span class="chat-open-label"></span> <span class="chat-badge" data-testid="chat-badge" hidden></span>';
  header.insertBefore(button, $('#lang'));
  button.addEventListener('click', openChat);

  const toast = plainButton('chat-toast', 'chat-toast');
  toast.hidden = true;
  toast.setAttribute('aria-live', 'polite');
  document.body.appendChild(toast);
  toast.addEventListener('click', openChat);

  const close = plainButton('chat-close', 'small chat-close');
  $('#chat').insertBefore(close, $('#chat-list'));
  close.addEventListener('click', closeChat);
  document.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape' && chat.open) closeChat();
  });
  // A tap on the dimmed page beside the sheet closes it.
  document.addEventListener('click', (ev) => {
    if (chat.open && !ev.target.closest?.('#chat, #chat-open, #chat-toast')) closeChat();
  });

  // In sight: at least part of the messages on screen, the page not hidden.
  if (typeof IntersectionObserver === 'function') {
    new IntersectionObserver((entries) => {
      chat.visible = entries[entries.length - 1].isIntersecting;
      if (chat.visible) markRead();
    }).observe($('#chat-list'));
  }
  document.addEventListener('visibilitychange', () => {
    if (chatInSight()) markRead();
  });
}

function chatInSight() {
  return document.visibilityState === 'visible' && !$('#side').hidden && (chat.open || chat.visible);
}

function markRead() {
  if (!chatInSight()) return;
  chat.unread = 0;
  hideToast();
  renderChatButton();
}

function openChat() {
  hideToast();
  if (phone()) {
    chat.open = true;
    document.body.classList.add('chat-sheet-open');
  } else {
    $('#chat').scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }
  chat.unread = 0;
  renderChatButton();
  // On a phone the keyboard would cover half the sheet before anything is read: the focus goes to
  // the sheet's close button there, to the message field on a desktop.
  (phone() ? $('#chat-close') : $('#chat-text')).focus({ preventScroll: true });
  const listEl = $('#chat-list');
  listEl.scrollTop = listEl.scrollHeight;
}

function closeChat() {
  chat.open = false;
  document.body.classList.remove('chat-sheet-open');
  $('#chat-open')?.focus();
}

// A chat message arrived (live, not the history a join brings).
export function noteChat(msg) {
  if (msg.from?.player === store.welcome?.player) return; // my own
  if (chatInSight()) return;
  chat.unread += 1;
  renderChatButton();
  showToast(msg);
}

function showToast(msg) {
  const toast = $('#chat-toast');
  const text = msg.text.length > 90 ? `${msg.text.slice(0, 88)}…` : msg.text;
  toast.innerHTML = `<span aria-hidden="true">💬</span> <strong>${esc(msg.from.name)}:</strong> ${esc(text)}`;
  toast.setAttribute('aria-label', `${t('presence.toast', { name: msg.from.name })}: ${text}`);
  toast.title = t('presence.chat_open');
  // Just below the header while it is on screen, else below the turn bar stuck at the top: the
  // chat button and whose turn it is stay in sight.
  const header = $('header.top').getBoundingClientRect();
  const bar = document.querySelector('#screen .turn-bar')?.getBoundingClientRect();
  let top = Math.max(0, header.bottom);
  if (bar && bar.top <= 1) top = Math.max(top, bar.bottom);
  toast.style.top = `${Math.round(top + 8)}px`;
  toast.hidden = false;
  clearTimeout(chat.toastTimer);
  chat.toastTimer = setTimeout(hideToast, 6000);
}

function hideToast() {
  clearTimeout(chat.toastTimer);
  const toast = $('#chat-toast');
  if (toast) toast.hidden = true;
}

// The header button (in a room only) with its badge, in the current language; the sheet's close
// button. Called with every header render.
export function renderChatButton() {
  const button = $('#chat-open');
  if (!button) return;
  const inRoom = Boolean(store.room && store.joined);
  button.hidden = !inRoom;
  if (!inRoom) {
    chat.unread = 0;
    if (chat.open) closeChat();
    hideToast();
  }
  button.querySelector('.chat-open-label').textContent = t('chat.title');
  const badge = button.querySelector('.chat-badge');
  badge.hidden = chat.unread === 0;
  badge.textContent = chat.unread > 9 ? '9+' : String(chat.unread);
  button.setAttribute('aria-label', chat.unread
    ? `${t('presence.chat_open')} (${t('presence.unread', { n: chat.unread })})`
    : t('presence.chat_open'));
  const close = $('#chat-close');
  close.textContent = `✕ ${t('presence.chat_close')}`;
}
