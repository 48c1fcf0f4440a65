// Christmas Penguins: the action panel under the board: the "Stop!" button and what it does now,
// the step a player decides (what a stone is for, what a stolen present is worth, a choice between
// moves onto one floe), the board's modes (a channel, the green stone) and every button's label.
import { t } from '../i18n.js';
import { esc } from '../util.js';
import { art } from './cp_art.js';
import { boardFloe, moverOf, paint } from './cp_board_svg.js';
import { pips } from './cp_side.js';
import { aColour, apart, colourName, figureOn, side, where } from './cp_words.js';

export function actionLabel(entry, ctx) {
  switch (entry.kind) {
    case 'roll': case 'pass': case 'end_turn': case 'withdraw_stop': case 'cancel_stop':
      return t(`cp.a.${entry.kind}`);
    case 'push': return t('cp.a.push', { where: where(entry.chain[entry.chain.length - 1], ctx.view) });
    case 'confiscate': {
      // Where the present goes (rulebook A27): back under the tree by default, so say so; Santa's
      // own count does not rise.
      const to = ctx.room?.options?.confiscatedTo ?? 'pool';
      const key = to === 'pool' || to === 'removed' ? `cp.a.confiscate.${to}` : 'cp.a.confiscate';
      return t(key, { colour: colourName(entry.colour), a_colour: aColour(entry.colour) });
    }
    case 'steal': return t('cp.a.steal', { colour: colourName(entry.colour), a_colour: aColour(entry.colour) });
    case 'pickup_stone': return t(entry.take ? 'cp.a.pickup_yes' : 'cp.a.pickup_no');
    case 'place_channel': return t('cp.a.place_channel', { a: where(entry.a, ctx.view, true), b: where(entry.b, ctx.view, true) });
    case 'use_stone':
      return entry.stone === 'green' ? t('cp.a.use_green', { floe: where(entry.floe, ctx.view), to: side(entry.to) })
        : t(`cp.a.use_${entry.stone}`, { who: figureOn(entry.target, ctx.view, ctx, ctx.seat) });
    case 'flee': return t('cp.a.flee', { to: where(entry.to, ctx.view), colour: entry.colour ? colourName(entry.colour) : '–' });
    case 'stop': return t('cp.stop');
    default: {
      const f = boardFloe(entry);
      return f !== null ? t('cp.a.floe', { floe: where(f, ctx.view) }) : entry.kind;
    }
  }
}

// In words: which figure goes where (the board shows it with the gold ring and gold edges).
function moveHint(ctx) {
  const mover = moverOf(ctx);
  let text = t('cp.click_floe');
  if (mover) {
    const kinds = new Set(ctx.legal.map((e) => e.kind));
    if (kinds.has('move')) text = t(mover.kind === 'santa' ? 'cp.h.move_santa' : mover.atHut ? 'cp.h.move_hut' : 'cp.h.move_penguin');
    else if (kinds.has('bear_move')) text = t('cp.h.bear_move');
    else if (kinds.has('flee')) text = t('cp.h.flee');
    else text = t('cp.h.swap');
    const v = ctx.view;
    if (mover.kind === 'penguin' && ctx.legal.some((e) => e.kind === 'move' && e.to === v.santa)) text += ` ${t('cp.h.danger')}`;
    if (window.matchMedia?.('(hover: hover) and (pointer: fine)').matches) text += ` ${t('cp.h.arrow')}`;
  }
  return `<p class="hint cp-move-hint" data-testid="cp-move-hint">${esc(text)}</p>`;
}

// Floes Santa needs at the least to reach floe `to` (over the ice, not across water or channels;
// figures in the way are not counted), or null when no way leads there.
export function santaSteps(v, to) {
  const n = v.cells.length;
  const blocked = new Set((v.channels || []).map((c) => `${Math.min(c.a, c.b)}-${Math.max(c.a, c.b)}`));
  const dist = new Array(n).fill(null);
  dist[v.santa] = 0;
  for (const queue = [v.santa]; queue.length;) {
    const f = queue.shift();
    if (f === to) return dist[f];
    for (let g = 0; g < n; g++) {
      if (dist[g] !== null || apart(v.cells[f], v.cells[g]) !== 1 || blocked.has(`${Math.min(f, g)}-${Math.max(f, g)}`)) continue;
      dist[g] = dist[f] + 1;
      queue.push(g);
    }
  }
  return null;
}

// What "Stop!" does now, next to its button, in the same words as the die: after a roll it names
// the roll the die shows; before one, it says nobody has rolled yet. Then what the stones held do.
function stopWhy(ctx) {
  const v = ctx.view;
  const you = v.active === ctx.seat;
  const name = ctx.name(v.active);
  const rolled = typeof v.roll === 'number' && pips[v.roll];
  const phase = v.phase === 'stopped' ? v.stop?.resumes : v.phase;
  let text;
  if (rolled && (phase === 'reaction' || phase === 'move')) text = t(you ? 'cp.sw.rolled_you' : 'cp.sw.rolled', { name, n: v.roll });
  else if (!rolled && phase === 'roll') text = t(you ? 'cp.sw.not_rolled_you' : 'cp.sw.not_rolled', { name });
  else text = t('cp.sw.now');
  // Santa rolled: whether he might reach this player's penguin with it, the question "Stop!" is for
  // (a newcomer had a few seconds and no way to tell).
  const me = v.players[ctx.seat];
  if (rolled && phase === 'reaction' && v.players[v.active]?.role === 'santa' && me?.role !== 'santa' && typeof me?.penguin === 'number') {
    const steps = santaSteps(v, me.penguin);
    if (steps !== null) text += ` ${t(steps <= v.roll ? 'cp.sw.santa_may' : 'cp.sw.santa_not', { n: steps, roll: v.roll })}`;
  }
  const held = v.players[ctx.seat]?.stones || {};
  const kinds = ['red', 'blue', 'green'].filter((k) => held[k]);
  return [text, ...kinds.map((k) => t(`cp.sw.${k}`))].join(' ');
}

// What stealing a present of `colour` is worth to the player on turn now: one point, and the
// bonus point if it makes them the one with the most colours or the most of one colour among the
// players who can win (everyone but Santa; ties count, as in the scoring, docs/rules).
function stealWorth(ctx, colour) {
  const v = ctx.view;
  const me = v.players[v.active];
  const two = ctx.room?.options?.bonusMode === 'twoAwards';
  const others = v.players.filter((p) => p.seat !== me.seat && p.role !== 'santa');
  const stats = (presents) => {
    const counts = Object.values(presents || {}).filter((n) => n > 0);
    return { total: counts.reduce((a, b) => a + b, 0), distinct: counts.length, most: Math.max(0, ...counts) };
  };
  const rivals = others.map((p) => stats(p.presents));
  const score = (s) => {
    const colours = s.distinct > 0 && rivals.every((r) => s.distinct >= r.distinct);
    const one = s.most > 0 && rivals.every((r) => s.most >= r.most);
    return { colours, one, points: s.total + (two ? Number(colours) + Number(one) : Number(colours || one)) };
  };
  const before = stats(me.presents);
  const after = stats({ ...me.presents, [colour]: (me.presents?.[colour] || 0) + 1 });
  const [b, a] = [score(before), score(after)];
  const n = a.points - b.points;
  const parts = [(me.presents?.[colour] || 0) === 0 ? t('cp.worth.new', { n: after.distinct })
    : t('cp.worth.more', { n: (me.presents[colour] || 0) + 1, colour: colourName(colour) })];
  // A bonus is named only where it adds a point (with one bonus at most, a player who already
  // has it for the other reason gains nothing by the second).
  const gained = [a.colours && !b.colours ? 'cp.worth.bonus_colours' : null, a.one && !b.one ? 'cp.worth.bonus_one' : null].filter(Boolean);
  parts.push(...gained.slice(0, Math.max(0, n - 1)).map((k) => t(k)));
  return [t('cp.worth.points', { n }), ...parts].join(' · ');
}

export function actionsExtra(ctx, ui) {
  const out = [];
  // "Stop!" comes first where it is the thing to decide now (the window after someone's roll);
  // while the player has something else to do (roll, move, steal, flee) it comes after those
  // choices, so that the optional red button does not lie over the real step (two trials).
  const stopBlock = [];
  const stop = ctx.legal.find((e) => e.kind === 'stop');
  if (stop) {
    stopBlock.push(`<button class="stop-button" data-act="cp-stop" data-testid="stop">✋ ${esc(t('cp.stop'))}</button>`);
    stopBlock.push(`<p class="hint cp-stop-why" data-testid="stop-why">${esc(stopWhy(ctx))}</p>`);
  }
  const stopFirst = ctx.view.phase === 'reaction';
  if (stopFirst) out.push(...stopBlock);
  if (ui.stop) {
    const text = ui.stop.status === 'sent' ? t('cp.stop_sent')
      : ui.stop.status === 'granted' ? t('cp.stop_granted')
        : ui.stop.status === 'queued' ? t('cp.stop_queued', { n: ui.stop.position })
          : t('cp.stop_beaten', { message: ui.stop.message });
    out.push(`<p class="stop-result ${esc(ui.stop.status)}" data-testid="stop-result" data-status="${esc(ui.stop.status)}">${esc(text)}</p>`);
  }
  // Before the target is picked: what each stone does.
  if (ctx.view.phase === 'stopped' && ctx.view.stop?.claimant === ctx.seat) {
    // Only the stones this player holds (the sheet has all three).
    const held = ctx.view.players[ctx.seat]?.stones || {};
    const kinds = ['red', 'blue', 'green'].filter((k) => held[k]);
    out.push(`<p class="hint" data-testid="stones-help">${esc(kinds.map((k) => t(`cp.sw.${k}`)).join(' ') || t('cp.stones_help'))}</p>`);
  }
  // The first screen of a game: what it is all about, for a penguin and for Santa.
  const kinds = new Set(ctx.legal.map((e) => e.kind));
  if (kinds.has('place_penguin')) out.push(`<p class="hint cp-goal" data-testid="cp-goal">${esc(t('cp.goal_penguin'))}</p>`);
  else if (kinds.has('place_tree') || kinds.has('place_bear')) {
    out.push(`<p class="hint cp-goal" data-testid="cp-goal">${esc(t('cp.goal_santa'))}</p>`);
    // What the bear is for, when Santa places it.
    if (kinds.has('place_bear')) out.push(`<p class="hint" data-testid="cp-bear-why">${esc(t('cp.tip.bear'))}</p>`);
  }
  // Take the stone or leave it: what a stone is for.
  if (kinds.has('pickup_stone')) {
    const floe = ctx.view.pending?.floe;
    const colour = (ctx.view.stones_on_board || []).find(([f]) => f === floe)?.[1];
    out.push(`<p class="hint" data-testid="cp-stone-why">${esc(t(`cp.stone_why.${['red', 'blue', 'green'].includes(colour) ? colour : 'any'}`))}</p>`);
  }
  // Which present to steal: what each is worth to this player now (points and the bonus).
  const steals = ctx.legal.map((e, i) => [e, i]).filter(([e]) => e.kind === 'steal');
  if (steals.length) {
    out.push(`<p class="hint" data-testid="cp-worth-rule">${esc(t('cp.worth.rule'))}</p><div class="buttons cp-steals">${steals.map(([e, i]) =>
      `<button class="action cp-steal" data-act="legal" data-i="${i}" data-testid="cp-steal-${esc(e.colour)}">${art.giftPicture(paint[e.colour] || '#888', paint[e.colour] ? e.colour : undefined)}
        <span><span class="cp-steal-what">${esc(actionLabel(e, ctx))}</span><small class="cp-worth">${esc(stealWorth(ctx, e.colour))}</small></span></button>`).join('')}</div>`);
  }
  if (ui.choice) {
    out.push(`<p>${esc(t('cp.choose'))}</p><div class="buttons">${ui.choice.map((i) =>
      `<button class="action" data-act="legal" data-i="${i}">${esc(actionLabel(ctx.legal[i], ctx))}</button>`).join('')}</div>`);
  }
  if (ctx.legal.some((e) => boardFloe(e) !== null)) out.push(moveHint(ctx));
  const modes = [];
  if (ctx.legal.some((e) => e.kind === 'place_channel')) modes.push('channel');
  if (ctx.legal.some((e) => e.kind === 'use_stone' && e.stone === 'green')) modes.push('green');
  for (const m of modes) {
    out.push(ui.mode === m
      ? `<p class="hint">${esc(t(`cp.${m}_hint`))}</p><button data-act="cp-mode" data-mode="">${esc(t('cp.cancel'))}</button>`
      : `<button data-act="cp-mode" data-mode="${m}">${esc(t(`cp.${m}_mode`))}</button>`);
  }
  if (!stopFirst) out.push(...stopBlock);
  return out.join('');
}
