// Happy Holidays: the gifts around the tree, every player's sleigh, stacks and reindeer, the die,
// and the choices of `legal` as buttons. Everything here is public.
import { addTexts, list, t } from '../i18n.js';
import { esc } from '../util.js';
import { markAttrs, markSvg, seatDot } from '../marks.js';
import { colours, dieSvg, giftBox, paint, reindeerSvg, sleighSvg, special, treeSvg } from './hh_art.js';
import texts from './hh_texts.js';

// The board's words (the picker's and the lobby's are in catalogue.js, loaded on every page).
addTexts(texts);

const colourName = (c) => t(`hh.${c}`);

// Whether `seat` is the viewer's own (a spectator has none): what happens to them is told to them.
const isMe = (ctx, seat) => ctx.seat !== null && ctx.seat !== undefined && seat === ctx.seat;

// Gifts with their colours, as a family says them: "2 green gifts and 1 blue gift" ("2 grüne und
// 1 blaues Geschenk": German says the noun once, at the end), or `none` ("empty").
function loadText(gifts, none = t('hh.empty')) {
  const held = colours.filter((c) => (gifts?.[c] || 0) > 0);
  if (!held.length) return none;
  const last = held[held.length - 1];
  return list([...held.slice(0, -1).map((c) => `${gifts[c]} ${t(`hh.adj.${c}`, { n: gifts[c] })}`), t(`hh.gifts.${last}`, { n: gifts[last] })]);
}
const bankedText = (ev) => (ev.gifts ? loadText(ev.gifts, t('hh.nothing')) : String(ev.count));
const treeLeft = (v) => colours.filter((c) => (v?.tree?.[c] || 0) > 0);

// The line near the tree when the end is near: two colours left (one used up ends the game), or
// the last turn (at most one colour left: the game ends when this turn is over).
function endNearText(v) {
  const left = treeLeft(v);
  if (left.length === 2) return { last: false, text: t('hh.end_near', { colours: list(left.map(colourName)) }) };
  if (left.length === 1) return { last: true, text: t('hh.last_turn', { colour: colourName(left[0]) }) };
  if (left.length === 0) return { last: true, text: t('hh.last_turn_none') };
  return null;
}

function faceName(face) {
  if (!face) return '';
  if (special(face)) return t(`hh.face.${face}`);
  return face.split('_').map(colourName).join(' + ');
}

// A count next to the gifts, dark on white: readable on every colour (WCAG AA); with the gifts'
// colour, the colour's shape before the number (marks.js: told apart without the colour).
const countChip = (n, c) => `<b class="cnt ${c ? 'marked' : ''}">${c ? markSvg(c, { fill: paint[c], edge: '#1f2a36' }) : ''}${n}</b>`;

// Where a gift (or a reindeer) lies, for the slides between two renders: an invisible anchor with
// a stable key (`data-flip`), measured before each render; a gift that arrived in this state is
// drawn with a key of its own (new, so it is seen as arriving) and `data-flip-from` pointing at
// the anchor it came from. The next render gives it its plain place again, so a slide plays once.
const anchor = (loc) => `<i class="anchor" data-flip="at-${loc}"></i>`;

// The last `n` of `shown` boxes arrived from `from` (moves.arrivals), the others lay there.
function boxes(moves, colour, loc, count, cap) {
  const shown = Math.min(count, cap);
  const arrived = moves.arrivals.get(loc);
  const fresh = arrived ? Math.min(arrived.n, shown) : 0;
  let html = '';
  for (let i = 0; i < shown; i++) {
    const arriving = i >= shown - fresh;
    html += giftBox(colour, arriving ? `data-flip="a${moves.seq}-${loc}-${i}" data-flip-from="at-${arrived.from}"` : '');
  }
  return html;
}

// ---------------------------------------------------------------------------------------------
// What moved in the last state, worked out from its events and the view before it.

// The board of one room (see board.js): `moves`, what moved in the state on screen, and `told`, who
// took whose reindeer (the one without it -> the taker) and what happened to the viewer's gifts and
// reindeer since their own last roll (shown in their own place on the board). A new room gets a new
// board, so nothing of another room's game is ever shown.
export function createBoard() {
  const moves = { prev: null, seq: null, arrivals: new Map(), deerFrom: new Map(), rolls: 0 };
  const told = { deerTakenBy: new Map(), news: [], mine: false };
  return {
    ...hooks,
    onState: (msg) => noteState(msg, moves, told),
    promptText: (ctx) => promptText(ctx, told),
    primary: (entry) => primary(entry, moves),
    render: (ctx) => render(ctx, moves, told),
  };
}

function noteNews(msg, told) {
  if ((msg.events || []).some((e) => e.kind === 'game_started')) Object.assign(told, { deerTakenBy: new Map(), news: [] });
  const me = msg.seat;
  for (const ev of msg.events || []) {
    if (ev.kind === 'took_reindeer') {
      told.deerTakenBy.set(ev.from, ev.seat);
      told.deerTakenBy.delete(ev.seat);
    }
    if (me === null || me === undefined) continue;
    if (ev.kind === 'rolled' && ev.seat === me) told.news = [];
    const lost = (ev.kind === 'took_reindeer' && ev.from === me)
      || (ev.kind === 'wish_given' && (ev.from || []).includes(me))
      || (ev.kind === 'sleigh_swapped' && ev.with === me);
    if (lost && !emptySwap(ev, msg.events)) told.news = [...told.news, { ev, events: msg.events }].slice(-2);
  }
}

// A swap of two empty sleighs: nothing changed hands, nothing to tell.
function emptySwap(ev, events) {
  if (ev.kind !== 'sleigh_swapped') return false;
  const b = (events || []).find((e) => e.kind === 'banked' && e.seat === ev.seat && e.sleigh_owner === ev.with);
  return !b?.count && !colours.some((c) => (ev.gifts_given?.[c] || 0) > 0);
}

// When the viewer's turn begins, the choices are brought fully into view below the sticky turn
// bar (a page scrolled down before would otherwise keep them under the bar).
function showChoices() {
  const actions = document.querySelector('#screen .game-happy_holidays .actions');
  const bar = document.querySelector('#screen .turn-bar');
  if (!actions || !bar) return;
  const below = bar.getBoundingClientRect().height + 8;
  const r = actions.getBoundingClientRect();
  if (r.top >= below && r.bottom <= window.innerHeight) return;
  window.scrollBy({ top: r.top - below, behavior: 'instant' });
}

function noteState(msg, moves, told) {
  noteNews(msg, told);
  const mine = msg.seat !== null && msg.seat !== undefined && Boolean(msg.prompt?.seats?.includes(msg.seat)) && msg.legal?.length > 0 && !msg.over;
  if (mine && !told.mine) queueMicrotask(showChoices); // after this state is drawn
  told.mine = mine;
  const v = msg.view;
  // Only the state right after the one drawn moves anything: a state that answers a join (a
  // reload, a second window, a reconnect) repeats the current seq or jumps past missed ones.
  const prev = msg.seq === moves.seq + 1 ? moves.prev : null;
  moves.prev = v || null;
  moves.seq = msg.seq;
  moves.arrivals = new Map();
  moves.deerFrom = new Map();
  const events = msg.events || [];
  // Only what happens now moves: not the state that answers a join or catches up, nor a new game.
  if (!v || v.game !== 'happy_holidays' || !prev || msg.resync || msg.replayed_from !== undefined
    || events.some((e) => e.kind === 'game_started') || prev.players.length !== v.players.length) return;
  const add = (loc, n, from) => {
    if (n <= 0) return;
    const had = moves.arrivals.get(loc);
    moves.arrivals.set(loc, { n: (had?.n || 0) + n, from: had?.from || from });
  };
  const gained = (seat, c) => (v.players[seat]?.stacks[c] || 0) - (prev.players[seat]?.stacks[c] || 0);
  for (const ev of events) {
    switch (ev.kind) {
      case 'rolled': moves.rolls += 1; break;
      case 'took_reindeer': moves.deerFrom.set(ev.seat, ev.from); break;
      case 'gifts_to_sleigh': for (const c of ev.colours) add(`sl-${ev.seat}-${c}`, 1, `tree-${c}`); break;
      case 'banked': for (const c of colours) add(`st-${ev.seat}-${c}`, gained(ev.seat, c), `sl-${ev.sleigh_owner}-${c}`); break;
      case 'sleigh_swapped': // the other player gets the active player's sleigh, with its load
        for (const c of colours) add(`sl-${ev.with}-${c}`, v.players[ev.with]?.sleigh.gifts[c] || 0, `sl-${ev.seat}-${c}`);
        break;
      case 'wish_given':
        for (const p of prev.players) {
          if (p.seat !== ev.seat && gained(p.seat, ev.colour) < 0) add(`st-${ev.seat}-${ev.colour}`, 1, `st-${p.seat}-${ev.colour}`);
        }
        break;
      default: break;
    }
  }
}

// The stacks in a row, each with its number; on the results, the two that count are marked.
function giftRow(gifts, marked = false) {
  const counting = new Set(marked ? [...colours].sort((x, y) => (gifts[y] || 0) - (gifts[x] || 0)).slice(0, 2).filter((c) => gifts[c] > 0) : []);
  return `<span class="gift-row">${colours.map((c) => {
    const label = t('hh.count', { n: gifts[c] ?? 0, colour: colourName(c) }) + (counting.has(c) ? ` (${t('hh.counts')})` : '');
    return `<span class="gift ${counting.has(c) ? 'counts' : ''}" ${markAttrs(c)} role="img" aria-label="${esc(label)}" title="${esc(label)}">${giftBox(c)}${countChip(gifts[c] ?? 0, c)}</span>`;
  }).join('')}</span>`;
}

// Why the game ended (result.reason): the tree down to one colour or none, or the round cap.
function endReason(r, v) {
  const tree = v?.tree || {};
  const left = colours.filter((c) => (tree[c] || 0) > 0);
  const reason = r.reason || (v?.tree && left.length <= 1 ? 'tree' : null);
  if (reason === 'round_cap') return t('hh.end.round_cap', { n: v?.max_rounds || 200 });
  if (reason !== 'tree') return '';
  return left.length === 1 ? t('hh.end.tree_one', { colour: colourName(left[0]) }) : t('hh.end.tree_none');
}

// A log line (and a banner's words): what happened to the viewer is said to them ("from you").
// The viewer's own doings are said to them ("You roll …": the key's `_you` form), what others did
// to them too ("… from your sleigh"); everyone else reads the third person, with the colours.
function eventText(ev, ctx) {
  const name = ctx.name(ev.seat);
  const me = isMe(ctx, ev.seat);
  const say = (key, params) => t(me && t(`${key}_you`) !== `${key}_you` ? `${key}_you` : key, { name, ...params });
  switch (ev.kind) {
    case 'took_reindeer': return isMe(ctx, ev.from) ? t('hh.e.took_your_reindeer', { name }) : say('hh.e.took_reindeer', { from: ctx.name(ev.from) });
    case 'forgot_reindeer': return say('hh.e.forgot_reindeer');
    case 'rolled': return say('hh.e.rolled', { face: faceName(ev.face) });
    case 'gifts_to_sleigh': return say('hh.e.gifts_to_sleigh', { gifts: loadText(Object.fromEntries(ev.colours.map((c) => [c, 1]))) });
    case 'roll_again': return say('hh.e.roll_again');
    case 'reroll_cap': return t('hh.e.reroll_cap', { name });
    case 'banked': {
      const load = bankedText(ev);
      if (ev.sleigh_owner === ev.seat) {
        if (!ev.count) return say('hh.e.banked_own_empty');
        return me ? t('hh.e.banked_own_you', { load }) : t('hh.e.banked_own_load', { name, load });
      }
      if (isMe(ctx, ev.sleigh_owner)) return t(ev.count ? 'hh.e.banked_yours' : 'hh.e.banked_empty_yours', { name, load });
      const owner = ctx.name(ev.sleigh_owner);
      if (me) return ev.count ? t('hh.e.banked_you', { load, owner }) : t('hh.e.banked_empty_you', { owner });
      return ev.count ? t('hh.e.banked_other', { name, load, owner }) : t('hh.e.banked_empty', { name, owner });
    }
    case 'sleigh_swapped': {
      // The other player now has the active player's old sleigh, with what was on it.
      const load = loadText(ev.gifts_given || ctx.view?.players?.[ev.with]?.sleigh?.gifts);
      if (isMe(ctx, ev.with)) return t('hh.e.swap_yours', { name, load });
      if (isMe(ctx, ev.seat)) return t('hh.e.swap_you', { with: ctx.name(ev.with), load });
      return t('hh.e.swap', { name, with: ctx.name(ev.with), load });
    }
    case 'wish_given': {
      if (!Array.isArray(ev.from)) return say('hh.e.wish_given', { colour: colourName(ev.colour), count: loadText({ [ev.colour]: ev.count }, t('hh.nothing')) });
      // Who gave: "1 from you and 1 from Rudi" (the viewer first).
      const from = [...ev.from].sort((x, y) => Number(isMe(ctx, y)) - Number(isMe(ctx, x)))
        .map((s) => (isMe(ctx, s) ? t('hh.from_you') : t('hh.from', { name: ctx.name(s) })));
      const me = isMe(ctx, ev.seat);
      const colour = colourName(ev.colour);
      if (!from.length) return t(me ? 'hh.e.wish_nothing_you' : 'hh.e.wish_nothing', { name, colour });
      return t(me ? 'hh.e.wish_from_you' : 'hh.e.wish_from', { name, colour, from: list(from) });
    }
    case 'turn_started': return say('hh.e.turn_started');
    case 'game_over': return t('hh.e.game_over');
    default: return null;
  }
}

// A sleigh swap told to the one who lost their sleigh: what went, and what they have now.
function swapLostText(ev, ctx, events) {
  const name = ctx.name(ev.seat);
  const load = loadText(ev.gifts_given || ctx.view?.players?.[ev.with]?.sleigh?.gifts);
  const b = (events || []).find((e) => e.kind === 'banked' && e.seat === ev.seat && e.sleigh_owner === ev.with);
  return b?.count ? t('hh.m.swap_lost', { name, lost: bankedText(b), load }) : t('hh.m.swap_lost_empty', { name, load });
}

// What a news line in the viewer's own place says (their losses since their last roll).
const newsText = (n, ctx) => (n.ev.kind === 'sleigh_swapped' ? swapLostText(n.ev, ctx, n.events) : eventText(n.ev, ctx));

// A choice that brings nothing: a wish nobody can answer, an empty sleigh. Legal, so offered,
// but after the others and plainer.
function weak(entry, v) {
  if (entry.kind === 'wish_colour') return !v.players.some((p) => p.seat !== v.active && (p.stacks?.[entry.colour] || 0) > 0);
  if (entry.kind === 'choose_sleigh') return !colours.some((c) => (v.players[entry.owner]?.sleigh?.gifts?.[c] || 0) > 0);
  if (entry.kind === 'sleigh_colour') return !(v.players[v.active]?.sleigh?.gifts?.[entry.colour] > 0);
  return false;
}

// Pieces explain themselves: a title for the mouse, data-tip for a long press on a touch screen
// (help.js); each also has a name for screen readers (aria-label).
const tip = (text) => `title="${esc(text)}" data-tip="${esc(text)}"`;

// What to do now; without a reindeer, also why (who took it).
function promptText(ctx, told) {
  const kind = ctx.state.prompt?.kind;
  if (!kind) return '';
  const v = ctx.view;
  if ((kind === 'take_reindeer_or_roll' || kind === 'take_reindeer') && isMe(ctx, v?.active) && v.players?.[v.active]?.reindeer === false) {
    const taker = told.deerTakenBy.get(v.active);
    return taker !== undefined ? t('hh.p.deer_taken', { name: ctx.name(taker) }) : t('hh.p.deer_none');
  }
  const text = t(`hh.p.${kind}`);
  return kind === 'sleigh_colour' && v?.tree && treeLeft(v).length <= 1 ? `${t('hh.p.last_turn')} ${text}` : text;
}

// The recommended choice: taking a reindeer, or rolling with one. Rolling without a reindeer
// (strict mode: the turn is missed) is offered as a plain button.
function primary(entry, moves) {
  if (entry.kind === 'take_reindeer') return true;
  if (entry.kind !== 'roll') return false;
  const v = moves.prev; // the state just taken in by onState, the one on screen
  return !v || v.players?.[v.active]?.reindeer !== false;
}

// The hooks that keep nothing between calls (createBoard adds the others).
const hooks = {
  id: 'happy_holidays',

  // Moments announced to everyone (moments.js): a reindeer changing hands or forgotten, a sleigh
  // swap, a wish; what is lost is told to the one who lost it ("from you"); the end coming near.
  moments: {
    took_reindeer: '🦌',
    forgot_reindeer: '🦌',
    wish_given: '⭐',
    sleigh_swapped: (ev, ctx, msg) => {
      if (isMe(ctx, ev.seat) || (isMe(ctx, ev.with) && ev.gifts_given && emptySwap(ev, msg.events))) return null;
      return `🛷 ${isMe(ctx, ev.with) ? swapLostText(ev, ctx, msg.events) : eventText(ev, ctx)}`;
    },
    // A colour used up: two left (the end is near) or at most one (this is the last turn).
    gifts_to_sleigh: (ev, ctx, msg) => {
      const tree = msg.view?.tree;
      if (!tree || msg.over || !ev.colours.some((c) => !tree[c])) return null;
      const near = endNearText(msg.view);
      return near ? `⏳ ${near.text}` : null;
    },
  },

  // Said to the player whose time ran out (moments.js): what the game chose for them.
  timeoutText(msg, ctx) {
    const evs = msg.events || [];
    const i = evs.findIndex((e) => e.kind === 'timed_out' && e.seats?.includes(ctx.seat));
    if (i < 0) return null;
    const after = evs.slice(i + 1).filter((e) => e.seat === ctx.seat);
    const find = (kind) => after.find((e) => e.kind === kind);
    switch (evs[i].prompt) {
      case 'sleigh_colour': {
        const b = find('banked');
        return b?.colour ? t('hh.to.colour', { colour: colourName(b.colour) }) : null;
      }
      case 'choose_sleigh': {
        const b = find('banked');
        if (!b) return null;
        return b.sleigh_owner === ctx.seat ? t('hh.to.sleigh_own') : t('hh.to.sleigh', { name: ctx.name(b.sleigh_owner) });
      }
      case 'wish_colour': {
        const w = find('wish_given');
        return w ? t('hh.to.wish', { colour: colourName(w.colour) }) : null;
      }
      default: {
        const took = find('took_reindeer');
        if (took) return t('hh.to.start_deer', { from: ctx.name(took.from) });
        return find('rolled') ? t('hh.to.start') : null;
      }
    }
  },

  // Choices that bring nothing come last, in a plainer style (actionsExtra).
  boardEntries(ctx) {
    return ctx.legal.map((e, i) => [e, i]).filter(([e]) => weak(e, ctx.view)).map(([, i]) => i);
  },

  actionsExtra(ctx) {
    const weakOnes = ctx.legal.map((e, i) => [e, i]).filter(([e]) => weak(e, ctx.view));
    if (!weakOnes.length) return '';
    return `<div class="buttons hh-weak">${weakOnes.map(([e, i]) =>
      `<button class="action weak" data-act="legal" data-i="${i}">${esc(hooks.actionLabel(e, ctx))}</button>`).join('')}</div>`;
  },

  actionLabel(entry, ctx) {
    const v = ctx.view;
    switch (entry.kind) {
      case 'take_reindeer': return t('hh.a.take_reindeer', { name: ctx.name(entry.from) });
      case 'roll': return v.players[v.active]?.reindeer ? t('hh.a.roll') : t('hh.a.roll_forgot');
      case 'sleigh_colour': {
        // Say how many gifts go onto the stacks: on a phone the sleigh may be out of sight.
        const n = v.players[v.active]?.sleigh?.gifts?.[entry.colour] || 0;
        return t(n ? 'hh.a.sleigh_colour' : 'hh.a.sleigh_colour_none', { n, colour: colourName(entry.colour) });
      }
      case 'choose_sleigh': {
        // What she gains (all of that sleigh's gifts onto her stacks) and, for another player's
        // sleigh, where her own sleigh goes (rules R8/A11: that player gets it with its load).
        const gifts = v.players[entry.owner]?.sleigh?.gifts || {};
        const has = colours.some((c) => (gifts[c] || 0) > 0);
        const load = loadText(gifts);
        if (entry.owner === v.active) return t(has ? 'hh.a.reward_own' : 'hh.a.reward_own_empty', { load });
        const mine = loadText(v.players[v.active]?.sleigh?.gifts);
        return t(has ? 'hh.a.reward_other' : 'hh.a.reward_other_empty', { name: ctx.name(entry.owner), load, mine });
      }
      case 'wish_colour': {
        // Every other player with a stack of that colour gives one (rules F6).
        const n = v.players.filter((p) => p.seat !== v.active && (p.stacks?.[entry.colour] || 0) > 0).length;
        // What the wish brings is what the button says; the tree plays no part in a wish.
        return t(n ? 'hh.a.wish_colour' : 'hh.a.wish_colour_none', { n, colour: colourName(entry.colour) });
      }
      default: return entry.kind;
    }
  },

  eventText,

  // Why the winner won, in one line under the table.
  resultNote(ctx) {
    const r = ctx.state.result || {};
    return [endReason(r, ctx.view), t('hh.result_note'), r.decided_by === 'total_gifts' ? t('hh.result_tie') : ''].filter(Boolean).join(' ');
  },

  resultHtml(ctx) {
    const r = ctx.state.result;
    const rows = r.scores.map((score, seat) => `<tr class="${r.winners.includes(seat) ? 'winner' : ''}">
      <td>${seatDot(seat, ctx.colour(seat))}${esc(ctx.name(seat))}</td><td><strong>${score}</strong></td>
      <td>${giftRow(r.stacks[seat], true)}</td><td>${r.total_gifts[seat]}</td></tr>`);
    return `<table class="score-table"><thead><tr><th></th><th>${esc(t('game.score'))}</th><th>${esc(t('hh.stacks'))}</th><th>${esc(t('hh.total_col'))}</th></tr></thead>
      <tbody>${rows.join('')}</tbody></table>`;
  },
};

function render(ctx, moves, told) {
  const v = ctx.view;
  const names = (seat) => ctx.name(seat);
  const pile = (c) => {
    const n = v.tree[c] ?? 0;
    const label = t('hh.tip.pile', { count: t('hh.count', { n, colour: colourName(c) }) });
    return `<div class="pile ${n ? '' : 'gone'}" style="--g:${paint[c]}" ${markAttrs(c)} role="img" aria-label="${esc(label)}" ${tip(label)} data-testid="hh-tree-${c}">
      <span class="pile-boxes">${anchor(`tree-${c}`)}${boxes(moves, c, `tree-${c}`, n, 6)}</span>${countChip(n, c)}</div>`;
  };
  const face = v.last_roll?.face;
  const dieLabel = face ? t('hh.tip.die', { face: faceName(face) }) : t('hh.die_not_rolled');
  const rolled = moves.rolls ? `rolled roll-${moves.rolls % 2 ? 'a' : 'b'}` : '';
  const endNear = ctx.state.over ? null : endNearText(v);
  // In the viewer's own place: what others took from them since their last roll.
  const news = isMe(ctx, ctx.seat) && !ctx.state.over
    ? told.news.map((n) => `<li>${esc(newsText(n, ctx))}</li>`).join('') : '';
  const players = v.players.map((p) => playerHtml(ctx, p, moves, news));
  return `<div class="hh-board" data-phase="${esc(v.phase)}">
    <div class="tree-area" ${tip(t('hh.tip.tree'))}>
      <h3>${esc(t('hh.tree'))}</h3>
      <p class="round">${esc(t('hh.round', { n: v.round }))}</p>
      <p class="die-caption">${v.last_roll ? esc(t(isMe(ctx, v.last_roll.seat) ? 'hh.e.rolled_you' : 'hh.e.rolled', { name: names(v.last_roll.seat), face: faceName(face) })) : ''}</p>
      ${endNear ? `<p class="end-near ${endNear.last ? 'last' : ''}" data-testid="hh-end-near">${esc(endNear.text)}</p>` : ''}
      <div class="die-area">
        <div id="hh-die" class="die3d ${rolled}" role="img" aria-label="${esc(dieLabel)}" ${tip(dieLabel)} data-face="${esc(face || '')}" data-testid="hh-die">${dieSvg(face)}</div>
      </div>
      <div class="scene">${treeSvg()}<div class="piles left">${pile('red')}${pile('green')}</div><div class="piles right">${pile('blue')}${pile('yellow')}</div></div>
    </div>
    <div class="hh-players">${players.join('')}</div>
  </div>`;
}

// A player's place: the sleigh with its load and its reindeer, the stacks, and in the viewer's own
// place the news of what others took from them (`news`).
function playerHtml(ctx, p, moves, news) {
  const active = p.seat === ctx.view.active && !ctx.state.over;
  const name = ctx.name(p.seat);
  const deer = t(p.reindeer ? 'hh.tip.reindeer' : 'hh.tip.no_reindeer', { name });
  const deerFrom = moves.deerFrom.get(p.seat);
  const deerMove = p.reindeer && deerFrom !== undefined ? `data-flip="deer-a${moves.seq}" data-flip-from="at-deer-${deerFrom}"` : '';
  const load = colours.filter((c) => p.sleigh.gifts[c] > 0).map((c) => {
    const n = p.sleigh.gifts[c];
    const label = t('hh.tip.load', { name, count: t('hh.count', { n, colour: colourName(c) }) });
    return `<span class="load-group ${n === 1 ? 'one' : ''}" ${markAttrs(c)} role="img" aria-label="${esc(label)}" ${tip(label)}>
      <span class="load-boxes">${anchor(`sl-${p.seat}-${c}`)}${boxes(moves, c, `sl-${p.seat}-${c}`, n, 4)}</span>${countChip(n, c)}</span>`;
  }).join('');
  const stacks = colours.map((c) => {
    const n = p.stacks[c] || 0;
    const label = t('hh.tip.stack', { name, count: t('hh.count', { n, colour: colourName(c) }) });
    return `<div class="tower ${n ? '' : 'none'}" style="--g:${paint[c]}" ${markAttrs(c)} role="img" aria-label="${esc(label)}" ${tip(label)}>
      <span class="tower-boxes">${anchor(`st-${p.seat}-${c}`)}${boxes(moves, c, `st-${p.seat}-${c}`, n, 10)}</span>${countChip(n, c)}</div>`;
  }).join('');
  return `<div class="hh-player ${active ? 'active' : ''} ${isMe(ctx, p.seat) ? 'me' : ''}" style="--c:${ctx.colour(p.seat)}" data-testid="hh-player-${p.seat}">
    <div class="who">${seatDot(p.seat, ctx.colour(p.seat))}<strong>${esc(ctx.who(p.seat))}</strong>
      <span class="score">${esc(t('hh.points', { n: p.score }))}</span></div>
    ${news && isMe(ctx, p.seat) ? `<ul class="hh-news" data-testid="hh-news"><li class="hh-news-head">${esc(t('hh.news_head'))}</li>${news}</ul>` : ''}
    <div class="hh-table">
      <div class="rig">
        <div class="sleigh" role="group" aria-label="${esc(t('hh.tip.sleigh', { name }))}" ${tip(t('hh.tip.sleigh', { name }))}>
          <div class="load">${load || `<span class="load-empty">${esc(t('hh.empty'))}</span>`}</div>${sleighSvg()}</div>
        <span class="reindeer ${p.reindeer ? 'has' : ''}" role="img" aria-label="${esc(deer)}" ${tip(deer)} ${deerMove}>${anchor(`deer-${p.seat}`)}${reindeerSvg(p.reindeer)}</span>
      </div>
      <div class="stacks" role="group" aria-label="${esc(t('hh.tip.stacks', { name }))}" ${tip(t('hh.tip.stacks', { name }))}>
        <span class="label" aria-hidden="true">${esc(t('hh.stacks'))}</span>${stacks}</div>
    </div>
  </div>`;
}
