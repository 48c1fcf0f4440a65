// Rules at hand: the "How to play" sheet of each game in a native <dialog>, opened from the game
// picker, the lobby and every game screen. The dialog lives outside #screen, so the screen under it
// keeps its state and scroll while it is open, and closing it returns to exactly that screen.
// Also the long-press tooltip of board pieces: on touch screens, holding a piece with `data-tip`
// shows its text (hover shows the same text through `title`).
import { addTexts, lang, t } from './i18n.js';
import { esc } from './util.js';
import { gameTitle, games } from './state.js';

// The sheets (js/rules/, with the game's pictures: they bring its art module along, not its board)
// are loaded when one is first opened: nobody needs a sheet before that.
const sheets = {}; // id → the loaded sheet

addTexts({
  en: {
    'help.open': 'How to play',
    'help.short': 'Rules',
    'help.title': 'How to play {game}',
    'help.close': 'Close',
    'help.back': 'Back to the game',
    'help.goal': 'What it is about',
    'help.pieces': 'What is on the board',
    'help.before': 'Before the first turn',
    'help.steps': 'Your turn, step by step',
    'help.special': 'Special moments',
    'help.end': 'How it ends, who wins',
    'help.tip_hint': 'Tip: hold your finger on a piece of the board (or point at it with the mouse) to see what it is.',
  },
  de: {
    'help.open': 'Spielregeln',
    'help.short': 'Regeln',
    'help.title': 'So wird {game} gespielt',
    'help.close': 'Schließen',
    'help.back': 'Zurück zum Spiel',
    'help.goal': 'Worum geht es?',
    'help.pieces': 'Was auf dem Spielbrett liegt',
    'help.before': 'Vor dem ersten Zug',
    'help.steps': 'So geht ein Zug',
    'help.special': 'Besondere Momente',
    'help.end': 'Wie endet es, wer gewinnt?',
    'help.tip_hint': 'Tipp: Halte den Finger auf eine Figur auf dem Spielbrett (oder zeig mit der Maus darauf), dann steht da, was sie ist.',
  },
});

// The button that opens a game's sheet. `where` names it (home, lobby, game), for focus on return.
export function helpButton(gameId, where, extraClass = '') {
  const id = `help-${where}${where === 'home' ? `-${gameId}` : ''}`;
  return `<button type="button" class="help-open ${extraClass}" id="${esc(id)}" data-help="${esc(gameId)}"
    aria-haspopup="dialog"><span aria-hidden="true">📖</span> <span class="help-label">${esc(t('help.open'))}</span><span class="help-short" aria-hidden="true">${esc(t('help.short'))}</span></button>`;
}

// Plain text with **bold** for the labels of buttons on screen.
function text(s) {
  return esc(s).replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>');
}

function sheetHtml(gameId) {
  const sheet = sheets[gameId];
  const r = sheet[lang()] || sheet.en;
  const game = gameTitle(gameId);
  const list = (items, tag = 'ul') => `<${tag}>${items.map((s) => `<li>${text(s)}</li>`).join('')}</${tag}>`;
  const pieces = r.pieces.map(([pic, name, what]) => `<li><span class="rs-pic">${pic}</span>
    <span><strong>${esc(name)}</strong><br>${text(what)}</span></li>`).join('');
  const special = r.special.map(([title, what, more]) => `<li><strong>${esc(title)}</strong> ${text(what)}${more ? list(more) : ''}</li>`).join('');
  return `<header class="help-head">
      <h2 id="help-title"><span aria-hidden="true">${sheet.icon}</span> ${esc(t('help.title', { game }))}</h2>
      <button type="button" class="help-x" id="help-close" data-help-close aria-label="${esc(t('help.close'))}">✕</button>
    </header>
    <div class="help-body" data-testid="help-body">
      <section><h3>${esc(t('help.goal'))}</h3><p>${text(r.goal)}</p></section>
      <section><h3>${esc(t('help.pieces'))}</h3><ul class="rs-pieces">${pieces}</ul>
        <p class="muted small">${esc(t('help.tip_hint'))}</p></section>
      ${r.before ? `<section><h3>${esc(t('help.before'))}</h3>${list(r.before, 'ol')}</section>` : ''}
      <section><h3>${esc(t('help.steps'))}</h3>${list(r.steps, 'ol')}</section>
      <section><h3>${esc(t('help.special'))}</h3><ul class="rs-special">${special}</ul></section>
      <section><h3>${esc(t('help.end'))}</h3>${list(r.end)}</section>
    </div>
    <footer class="help-foot"><button type="button" class="big primary" data-help-close>${esc(t(inGame() ? 'help.back' : 'help.close'))}</button></footer>`;
}

const inGame = () => Boolean(document.querySelector('#screen .game'));

let dialog = null;
let opener = null;

function ensureDialog() {
  if (dialog) return dialog;
  dialog = document.createElement('dialog');
  dialog.id = 'help-sheet';
  dialog.className = 'help-sheet';
  dialog.setAttribute('aria-labelledby', 'help-title');
  dialog.dataset.testid = 'help-sheet';
  document.body.append(dialog);
  dialog.addEventListener('click', (ev) => {
    // A click on the backdrop (the dialog box itself, outside its content) closes it too.
    if (ev.target === dialog || ev.target.closest('[data-help-close]')) dialog.close();
  });
  dialog.addEventListener('close', () => {
    // Back where the player was: the button that opened the sheet (redrawn meanwhile, so by id),
    // without scrolling the page.
    const back = opener && document.getElementById(opener);
    back?.focus({ preventScroll: true });
  });
  return dialog;
}

// Opens a game's sheet, loading it first if needed. Meanwhile the button says it is at work (an
// hourglass, aria-busy), and a second press does not load it twice; on a slow line that is a second
// or so, after which the sheet opens whole.
const loading = new Map(); // id → promise of the sheet
function loadSheet(gameId) {
  if (!loading.has(gameId)) {
    loading.set(gameId, games[gameId].rules().then((m) => {
      sheets[gameId] = m.default;
      return m.default;
    }, (err) => {
      loading.delete(gameId); // the line dropped: the next press tries again
      console.warn('could not load the rules of', gameId, err?.message);
      return null;
    }));
  }
  return loading.get(gameId);
}

export async function openHelp(gameId, openerId = null) {
  if (!games[gameId]?.rules) return;
  if (!sheets[gameId]) {
    const button = openerId && document.getElementById(openerId);
    const icon = button?.querySelector('[aria-hidden="true"]');
    button?.setAttribute('aria-busy', 'true');
    if (icon) icon.textContent = '⏳';
    const sheet = await loadSheet(gameId);
    button?.removeAttribute('aria-busy');
    if (icon) icon.textContent = '📖';
    if (!sheet) return;
  }
  const d = ensureDialog();
  opener = openerId;
  d.dataset.game = gameId;
  d.innerHTML = sheetHtml(gameId);
  if (!d.open) d.showModal();
  d.querySelector('.help-body').scrollTop = 0;
  d.querySelector('#help-close').focus({ preventScroll: true });
}

document.addEventListener('click', (ev) => {
  const el = ev.target.closest?.('[data-help]');
  if (!el) return;
  ev.preventDefault();
  openHelp(el.dataset.help, el.id || null);
});

// ---------------------------------------------------------------------------------------------
// Long-press tooltips for touch screens. A mouse gets the `title`; a finger held still on a piece
// for half a second gets a small bubble with the same text, and the click that ends the press
// is swallowed, so looking at a piece never plays it.

const holdMs = 500;
let press = null; // {el, x, y, timer}
let tip = null;
let tipTimer = null;
let swallowClick = false;

function tipEl() {
  if (!tip) {
    tip = document.createElement('div');
    tip.id = 'tip';
    tip.className = 'tip';
    tip.setAttribute('role', 'tooltip');
    tip.hidden = true;
    document.body.append(tip);
  }
  return tip;
}

export function hideTip() {
  if (tip) tip.hidden = true;
  clearTimeout(tipTimer);
}

function showTip(el, x, y) {
  const box = tipEl();
  box.textContent = el.dataset.tip;
  box.hidden = false;
  // Above the finger, kept inside the window.
  const w = box.offsetWidth;
  const h = box.offsetHeight;
  const left = Math.max(8, Math.min(window.innerWidth - w - 8, x - w / 2));
  const top = y - h - 28 > 8 ? y - h - 28 : y + 28;
  box.style.left = `${left}px`;
  box.style.top = `${top}px`;
  clearTimeout(tipTimer);
  tipTimer = setTimeout(hideTip, 4000);
}

function cancelPress() {
  if (press) clearTimeout(press.timer);
  press = null;
}

document.addEventListener('pointerdown', (ev) => {
  hideTip();
  swallowClick = false;
  if (ev.pointerType === 'mouse') return;
  const el = ev.target.closest?.('[data-tip]');
  if (!el) return;
  cancelPress();
  const x = ev.clientX;
  const y = ev.clientY;
  press = {
    el, x, y,
    timer: setTimeout(() => {
      showTip(el, x, y);
      swallowClick = true;
      press = null;
    }, holdMs),
  };
}, { passive: true });
document.addEventListener('pointermove', (ev) => {
  if (press && Math.hypot(ev.clientX - press.x, ev.clientY - press.y) > 12) cancelPress();
}, { passive: true });
document.addEventListener('pointerup', cancelPress, { passive: true });
document.addEventListener('pointercancel', cancelPress, { passive: true });
document.addEventListener('scroll', () => {
  cancelPress();
  hideTip();
}, { passive: true, capture: true });
document.addEventListener('click', (ev) => {
  if (!swallowClick) return;
  swallowClick = false;
  ev.preventDefault();
  ev.stopPropagation();
}, true);
document.addEventListener('contextmenu', (ev) => {
  // The long-press menu of a phone would cover the tooltip.
  if (ev.target.closest?.('[data-tip]') && (press || swallowClick || !tip?.hidden)) ev.preventDefault();
});
