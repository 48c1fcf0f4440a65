// Christmas Penguins: an SVG hex board of ice floes (axial coordinates from `view.cells`), water
// channels on edges, the figures, the tree, the hut, stones and loose presents. Floes named by a
// `legal` entry are highlighted and clicked to play it; everything else is a button. A big "Stop!"
// button appears whenever `legal` offers `stop`, and says at once whether the claim was granted,
// queued or beaten. Everything in this game is public.
// The board's parts: cp_board_svg.js draws the ice, cp_side.js the panel beside it, cp_panel.js
// the actions under it, cp_log.js (with cp_words.js) the log's and the banners' words.
import { addTexts, t } from '../i18n.js';
import { esc } from '../util.js';
import { reducedMotion } from '../motion.js';
import { seatDot } from '../marks.js';
import { art, picture } from './cp_art.js';
import texts from './cp_texts.js';
import { boardFloe, boardSvg } from './cp_board_svg.js';
import { actionLabel, actionsExtra } from './cp_panel.js';
import { eventText } from './cp_log.js';
import { chip, dieHtml, playersHtml, presentsHtml } from './cp_side.js';
import { aColour, colourName } from './cp_words.js';

// For the browser tests: the log's replayed board, and how far Santa is from a floe.
export { boardAfterLog } from './cp_log.js';
export { santaSteps } from './cp_panel.js';

// The board's words (the picker's and the lobby's are in catalogue.js, loaded on every page).
addTexts(texts);

// The board of one room (see board.js). `ui` is this browser's own state of it: the board mode, the
// first clicked floe, a pending choice, the stop claim, whether a new Santa is to be told again
// when their turn begins; a new room gets a new board, so none of it carries over.
export function createBoard() {
  const ui = { mode: null, first: null, choice: null, stop: null, stopSerial: null, santaNews: false };
  return {
    ...hooks,
    moments: { ...hooks.moments, ...santaMoments(ui) },
    onState: (msg, ctx) => onState(msg, ctx, ui),
    actionsExtra: (ctx) => actionsExtra(ctx, ui),
    render: (ctx) => render(ctx, ui),
    onClick: (el, ctx) => onClick(el, ctx, ui),
  };
}

// A new Santa is told in the second person, the old one that their penguin starts again, the rest
// in the third person. Caught in someone else's turn, the new Santa hears it once more when their
// own turn begins (moments.js drops older news then).
const santaMoments = (ui) => ({
  roles_swapped: (ev, ctx, msg) => {
    if (ctx.seat !== null && ctx.seat !== undefined && ev.santa_seat === ctx.seat) {
      ui.santaNews = !msg.prompt?.seats?.includes(ctx.seat);
      return t('cp.m.you_santa');
    }
    const santa = ctx.name(ev.santa_seat);
    return t(ev.at_hut_seat === ctx.seat && ctx.seat !== null ? 'cp.m.santa_now_you_penguin' : 'cp.m.santa_now', { santa });
  },
  turn_started: (ev, ctx, msg) => {
    if (!ui.santaNews || ctx.seat === null || ev.seat !== ctx.seat) return null;
    ui.santaNews = false;
    return msg.view?.players?.[ctx.seat]?.role === 'santa' ? t('cp.m.you_santa') : null;
  },
});

async function sendStop(ctx, ui) {
  const entry = ctx.legal.find((e) => e.kind === 'stop');
  if (!entry) return;
  ui.stop = { status: 'sent' };
  ctx.render();
  try {
    await ctx.act(entry);
    // The state that follows says whether it was granted at once or queued (see onState).
  } catch (err) {
    ui.stop = err.code === 'stop_already_claimed' ? { status: 'beaten', message: err.message } : null;
    ctx.render();
  }
}

// The hooks that keep nothing between calls (createBoard adds the others).
const hooks = {
  id: 'christmas_penguins',

  promptText(ctx) {
    const kind = ctx.state.prompt?.kind;
    const santa = ctx.view.players[ctx.view.active]?.role === 'santa';
    if (kind === 'move') return t(santa ? 'cp.p.move_santa' : 'cp.p.move_penguin', { n: ctx.view.roll ?? '' });
    if (kind === 'roll' && santa) return t('cp.p.roll_santa');
    // Channels are mentioned only while the player can still build one.
    let text = (kind === 'roll' || kind === 'post_move') && !ctx.legal.some((e) => e.kind === 'place_channel') ? t(`cp.p.${kind}_plain`) : null;
    // A roll that left no way to go is said where she looks, not only in the log.
    if (kind === 'post_move' && (ctx.state.events || []).some((e) => e.kind === 'no_move' && e.seat === ctx.seat)) {
      return `${t('cp.p.no_move', { n: ctx.view.roll ?? '' })} ${text ?? t('cp.p.post_move')}`;
    }
    if (text) return text;
    return kind ? t(`cp.p.${kind}`, { n: ctx.view.roll ?? '' }) : '';
  },

  // The turn bar (screens.js): while the game waits on someone other than the player whose turn
  // it is (the "Stop!" window after a roll waits on the stone holders, a "Stop!" on its caller,
  // Santa's choices on Santa, a flight on the penguin the bear reached), the bar still names whose
  // turn it is and says what happens now. null: the frame's own words.
  turnBar(ctx, { mine }) {
    const v = ctx.view;
    const p = ctx.state.prompt;
    if (!p || ctx.state.over || typeof v.active !== 'number') return null;
    const seats = p.seats || [];
    const kind = v.phase;
    const outOfTurn = seats.length !== 1 || seats[0] !== v.active;
    if (kind !== 'reaction' && kind !== 'stopped' && !(outOfTurn && ['confiscate', 'relocate_tree', 'flee'].includes(kind))) return null;
    const you = ctx.seat === v.active;
    // Someone else's turn, but the game waits on this player (a flight, Santa's choice, their own
    // "Stop!"): the bar says "Now you!" rather than the other's name (short: with the prompt and the
    // clock it must stay within a fifth of a 360 px phone's screen).
    const askedNow = mine && !you && kind !== 'reaction';
    // The player's own turn, while the game waits on someone else (Santa moving the tree after her
    // steal): not "Your turn!", which reads as "act now".
    const turn = you ? t(mine ? 'game.your_turn' : 'cp.tb.yours_wait') : askedNow ? t('cp.tb.now_you', { name: ctx.name(v.active) }) : t('game.turn_of', { name: ctx.name(v.active) });
    const name = ctx.name(v.active);
    let what;
    if (kind === 'reaction') {
      what = you ? t('cp.tb.rolled_you', { n: v.roll })
        : t(mine ? 'cp.tb.rolled_may' : 'cp.tb.rolled', { name, n: v.roll });
    } else if (kind === 'stopped') {
      const claimant = v.stop?.claimant;
      what = claimant === ctx.seat ? t('cp.tb.stopped_you') : t('cp.tb.stopped', { name: ctx.name(claimant) });
    } else {
      what = mine ? hooks.promptText(ctx) : t(kind === 'confiscate' && you ? 'cp.tb.confiscate_you' : `cp.tb.${kind}`, { name: ctx.name(seats[0]) });
    }
    return { turn, what };
  },

  primary(entry) {
    return entry.kind === 'roll' || entry.kind === 'end_turn';
  },

  // Everything chosen on the board (channels and green-stone moves through their modes).
  boardEntries(ctx) {
    return ctx.legal.map((e, i) => [e, i])
      .filter(([e]) => boardFloe(e) !== null || e.kind === 'stop' || e.kind === 'steal' || e.kind === 'place_channel' || (e.kind === 'use_stone' && e.stone === 'green'))
      .map(([, i]) => i);
  },

  actionLabel,
  eventText,

  // Moments announced to everyone (moments.js): "Stop!", a stone played, presents changing hands,
  // a new Santa (santaMoments, which remember whom to tell again).
  moments: {
    stop_claimed: '✋', stop_granted: '✋', stone_used: '🪨', present_stolen: '🎁',
    // The bear's victim is told in the second person (an own-seat event would get no banner: a
    // trial's grandmother lost a present and saw it only in the log).
    present_dropped: (ev, ctx) => (ctx.seat !== null && ctx.seat !== undefined && ev.seat === ctx.seat
      ? t('cp.m.dropped_you', { colour: colourName(ev.colour), a_colour: aColour(ev.colour) })
      : `🐻‍❄️ ${eventText(ev, ctx)}`),
    // The caught penguin hears it at once, in the second person (a trial's grandmother learnt she
    // was Santa only when her next turn began); Santa's own catch is no news to Santa.
    santa_met: (ev, ctx) => {
      if (ctx.seat !== null && ctx.seat !== undefined && ev.penguin_seat === ctx.seat) return t('cp.m.caught_you', { santa: ctx.name(ev.santa_seat) });
      if (ctx.seat !== null && ctx.seat !== undefined && ev.santa_seat === ctx.seat) return null;
      return `🎅 ${eventText(ev, ctx)}`;
    },
    present_confiscated: (ev, ctx, msg) => {
      // Santa's own choice is no news to Santa.
      if (ctx.seat !== null && msg.events.some((e) => (e.kind === 'santa_met' && e.santa_seat === ctx.seat)
        || (e.kind === 'roles_swapped' && e.at_hut_seat === ctx.seat))) return null;
      if (ctx.seat !== null && ev.from === ctx.seat) return t('cp.m.taken_from_you', { colour: colourName(ev.colour), a_colour: aColour(ev.colour) });
      const line = eventText(ev, ctx);
      return line ? `🎅 ${line}` : null;
    },
  },

  // Why the winner won and why the game ended, in a line under the table.
  resultNote(ctx) {
    const r = ctx.state.result || {};
    const santa = typeof r.final_santa === 'number'
      ? (r.final_santa === ctx.seat ? t('cp.final_santa_you') : t('cp.final_santa', { name: ctx.name(r.final_santa) })) : t('cp.result_santa');
    return `${t(r.reason === 'round_cap' ? 'cp.end_rounds' : 'cp.end_pool')} ${t('cp.result_note')} ${santa}`;
  },

  resultHtml(ctx) {
    const presentCount = (p) => Object.values(p || {}).reduce((a, b) => a + b, 0);
    const r = ctx.state.result;
    const rows = r.scores.map((score, seat) => `<tr class="${r.winners.includes(seat) ? 'winner' : ''}">
      <td>${seatDot(seat, ctx.colour(seat))}${esc(ctx.name(seat))} ${seat === r.final_santa ? `<span role="img" aria-label="${esc(t('cp.santa'))}">${picture(art.santa())}</span>` : ''}</td>
      <td><strong>${score}</strong></td><td>${presentsHtml(r.presents[seat] || {})}</td>
      <td data-testid="cp-bonus-${seat}">${esc(seat === r.final_santa ? t('cp.bonus_santa') : `+${score - presentCount(r.presents[seat])}`)}</td></tr>`);
    // The bonus point in a column of its own, so that a score above the presents (or equal to them,
    // for the final Santa) explains itself.
    return `<table class="score-table"><thead><tr><th></th><th>${esc(t('game.score'))}</th><th>${esc(t('cp.presents'))}</th><th>${esc(t('cp.bonus'))}</th></tr></thead>
      <tbody>${rows.join('')}</tbody></table>`;
  },
};

function onState(msg, ctx, ui) {
  if (msg.events.some((e) => e.kind === 'game_started')) Object.assign(ui, { mode: null, first: null, choice: null, stop: null, santaNews: false });
  for (const ev of msg.events) {
    if (ev.seat !== ctx.seat) continue;
    if (ev.kind === 'stop_claimed' || ev.kind === 'stop_granted') ui.stop = { status: 'granted' };
    else if (ev.kind === 'stop_queued') ui.stop = { status: 'queued', position: ev.position };
    else if (ev.kind === 'stop_ended' || ev.kind === 'stop_dropped' || ev.kind === 'stop_withdrawn') ui.stop = null;
  }
  ui.choice = null;
  const legal = msg.legal || [];
  // A chance to shout "Stop!" after someone's roll opens: its button is brought into view if the
  // page was left scrolled away from it (a trial's tap low on the board hid it above).
  const stopWindow = msg.prompt?.kind === 'reaction' && legal.some((e) => e.kind === 'stop');
  if (stopWindow && msg.prompt.serial !== ui.stopSerial) {
    ui.stopSerial = msg.prompt.serial;
    requestAnimationFrame(() => requestAnimationFrame(() => {
      const button = document.querySelector('#screen [data-testid="stop"]');
      const bar = document.querySelector('#screen .turn-bar')?.getBoundingClientRect().bottom ?? 0;
      const r = button?.getBoundingClientRect();
      if (r && (r.top < bar || r.bottom > innerHeight)) button.scrollIntoView({ block: 'center', behavior: reducedMotion() ? 'auto' : 'smooth' });
    }));
  }
  if (ui.mode === 'channel' && !legal.some((e) => e.kind === 'place_channel')) ui.mode = null;
  if (ui.mode === 'green' && !legal.some((e) => e.kind === 'use_stone' && e.stone === 'green')) ui.mode = null;
  if (!ui.mode) ui.first = null;
}

function render(ctx, ui) {
  const v = ctx.view;
  const pool = presentsHtml(v.pool);
  const supply = (v.santa_supply || []).map((s) => chip('stone-chip', s, 1)).join('');
  return `<div class="cp-layout" data-phase="${esc(v.phase || '')}"><div class="cp-grid">
    <div class="cp-board-wrap">${boardSvg(ctx, ui)}</div>
    <div class="cp-side">
      <div class="cp-roll"><span>${esc(t('cp.die'))}</span>${dieHtml(v, ctx)}
        <span class="muted">${esc(t('cp.round', { n: Math.min(v.round, v.max_rounds), max: v.max_rounds }))}</span></div>
      <div>${picture(art.tree())} <strong>${esc(t('cp.pool'))}:</strong> ${pool}</div>
      ${supply ? `<div>${picture(art.santa())} <strong>${esc(t('cp.supply'))}:</strong> ${supply}</div>` : ''}
      <div class="cp-players">${playersHtml(ctx)}</div>
    </div></div></div>`;
}

async function onClick(el, ctx, ui) {
  const act = el.dataset.act;
  if (act === 'cp-stop') {
    await sendStop(ctx, ui);
  } else if (act === 'cp-mode') {
    ui.mode = el.dataset.mode || null;
    ui.first = null;
    ctx.render();
  } else if (act === 'cp-floe') {
    const floe = Number(el.dataset.floe);
    if (ui.mode === 'channel') {
      if (ui.first === null) ui.first = floe;
      else if (ui.first === floe) ui.first = null;
      else {
        const a = ui.first;
        ui.first = null;
        ui.mode = null; // built (the log and the board show it): back to the turn
        await ctx.act({ kind: 'place_channel', a, b: floe }).catch(() => {});
      }
      ctx.render();
      return;
    }
    if (ui.mode === 'green') {
      ui.first = ui.first === floe ? null : floe;
      ctx.render();
      return;
    }
    const candidates = ctx.legal.map((e, i) => [e, i]).filter(([e]) => boardFloe(e) === floe).map(([, i]) => i);
    if (candidates.length === 1) {
      await ctx.act(ctx.legal[candidates[0]]).catch(() => {});
    } else if (candidates.length > 1) {
      ui.choice = candidates;
      ctx.render();
    }
  } else if (act === 'cp-cell' && ui.mode === 'green' && ui.first !== null) {
    const to = [Number(el.dataset.q), Number(el.dataset.r)];
    const floe = ui.first;
    ui.first = null;
    ui.mode = null;
    await ctx.act({ kind: 'use_stone', stone: 'green', floe, to }).catch(() => {});
    ctx.render();
  }
}
