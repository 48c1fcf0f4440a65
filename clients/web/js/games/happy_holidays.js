// Happy Holidays: the gifts around the tree, every player's sleigh, stacks and reindeer, the die,
// and the choices of `legal` as buttons. Everything here is public.
import { list, t } from '../i18n.js';
import { esc } from '../util.js';

const colours = ['red', 'green', 'blue', 'yellow'];
const paint = { red: '#d62828', green: '#2a9d3f', blue: '#1d6fd6', yellow: '#f2c500' };

const texts = {
  en: {
    'happy_holidays.title': 'Happy Holidays',
    'happy_holidays.blurb': 'Roll the die, load your sleigh, stack your gifts high.',
    'happy_holidays.opt.maxPlayers': 'Seats',
    'happy_holidays.opt.startPlayer': 'Who begins',
    'happy_holidays.opt.startPlayer.random': 'chosen at random',
    'happy_holidays.opt.startPlayer.host-picks': 'the host decides',
    'happy_holidays.opt.giftsPerColour': 'Gifts of each colour',
    'happy_holidays.opt.reindeerCount': 'Reindeer',
    'happy_holidays.opt.reindeerCount.auto': 'one fewer than players',
    'happy_holidays.opt.reindeerMode': 'Forgot your reindeer?',
    'happy_holidays.opt.reindeerMode.strict': 'you miss your turn (as in the box)',
    'happy_holidays.opt.reindeerMode.assisted': 'the game reminds you',
    'happy_holidays.opt.rerollEmptyReward': 'Roll again when every sleigh is empty',
    'happy_holidays.opt.endCheck': 'The game ends',
    'happy_holidays.opt.endCheck.endOfTurn': 'at the end of the turn',
    'happy_holidays.opt.endCheck.immediate': 'at once',
    'happy_holidays.opt.tieBreak': 'On a tie',
    'happy_holidays.opt.tieBreak.shared': 'share the win',
    'happy_holidays.opt.tieBreak.totalGifts': 'most gifts wins',
    'happy_holidays.opt.mainTimeoutSec': 'Time for a turn (seconds)',
    'happy_holidays.opt.subPromptTimeoutSec': 'Time for a choice (seconds)',
    'happy_holidays.off': 'no limit',
    'hh.red': 'red', 'hh.green': 'green', 'hh.blue': 'blue', 'hh.yellow': 'yellow',
    'hh.face.reindeer_reward': 'Reindeer reward', 'hh.face.christmas_wish': 'Christmas wish',
    'hh.tree': 'Gifts around the tree',
    'hh.die': 'The die',
    'hh.sleigh': 'Sleigh',
    'hh.stacks': 'Stacks',
    'hh.reindeer': 'has a reindeer',
    'hh.no_reindeer': 'no reindeer',
    'hh.points': { one: '{n} point', other: '{n} points' },
    'hh.total': { one: '{n} gift in all', other: '{n} gifts in all' },
    'hh.round': 'Round {n}',
    'hh.a.take_reindeer': "Take {name}'s reindeer",
    'hh.a.roll': 'Roll the die',
    'hh.a.roll_forgot': 'Roll without a reindeer (you miss your turn)',
    'hh.a.sleigh_colour': 'Stack the {colour} gifts',
    'hh.a.choose_sleigh': "{name}'s sleigh",
    'hh.a.choose_sleigh_load': "{name}'s sleigh: {load}", 'hh.empty': 'empty',
    'hh.a.choose_own_sleigh': 'Your own sleigh: {load}', 'hh.a.choose_sleigh_swap': "{name}'s sleigh: {load} (you swap sleighs)",
    'hh.result_note': 'Points are the gifts in your two biggest stacks.', 'hh.result_tie': 'Equal points: the most gifts in all decided.',
    'hh.a.wish_colour': 'Wish for {colour}',
    'hh.p.take_reindeer_or_roll': 'Take a reindeer first, then roll the die',
    'hh.p.take_reindeer': 'Take a reindeer from another player',
    'hh.p.roll': 'Roll the die',
    'hh.p.sleigh_colour': 'Which colour goes from the sleigh onto the stacks?',
    'hh.p.choose_sleigh': 'Reindeer reward: choose a sleigh to bank',
    'hh.p.wish_colour': 'Christmas wish: which colour do you wish for?',
    'hh.e.took_reindeer': "{name} takes {from}'s reindeer",
    'hh.e.forgot_reindeer': '{name} forgot the reindeer and misses the turn',
    'hh.e.rolled': '{name} rolled {face}',
    'hh.e.gifts_to_sleigh': "Onto {name}'s sleigh: {colours}",
    'hh.e.roll_again': '{name} rolls again',
    'hh.e.reroll_cap': 'Too many rolls: the turn ends',
    'hh.e.banked': { one: "{name} stacks {count} gift from {owner}'s sleigh", other: "{name} stacks {count} gifts from {owner}'s sleigh" },
    'hh.e.banked_own': { one: '{name} stacks {count} gift from their own sleigh', other: '{name} stacks {count} gifts from their own sleigh' },
    'hh.e.sleigh_swapped': '{name} swaps sleighs with {with}',
    'hh.e.wish_given': '{name} wished for {colour} and gets {count}',
    'hh.e.turn_started': "{name}'s turn",
    'hh.e.game_over': 'Game over',
    'hh.tip.reindeer': '{name} has a reindeer: you need one before you roll',
    'hh.tip.no_reindeer': '{name} has no reindeer: take one from another player before rolling',
    'hh.tip.sleigh': "{name}'s sleigh: gifts here are not safe until they go onto the stacks",
    'hh.tip.tree': 'Gifts under the tree: a colour you roll brings one onto your sleigh',
    'hh.tip.stacks': "{name}'s stacks: the two biggest count at the end",
  },
  de: {
    'happy_holidays.title': 'Happy Holidays',
    'happy_holidays.blurb': 'Würfeln, den Schlitten beladen, Geschenke hoch stapeln.',
    'happy_holidays.opt.maxPlayers': 'Plätze',
    'happy_holidays.opt.startPlayer': 'Wer beginnt',
    'happy_holidays.opt.startPlayer.random': 'zufällig',
    'happy_holidays.opt.startPlayer.host-picks': 'der Gastgeber bestimmt',
    'happy_holidays.opt.giftsPerColour': 'Geschenke pro Farbe',
    'happy_holidays.opt.reindeerCount': 'Rentiere',
    'happy_holidays.opt.reindeerCount.auto': 'eins weniger als Spieler',
    'happy_holidays.opt.reindeerMode': 'Rentier vergessen?',
    'happy_holidays.opt.reindeerMode.strict': 'Zug verpasst (wie in der Schachtel)',
    'happy_holidays.opt.reindeerMode.assisted': 'das Spiel erinnert dich',
    'happy_holidays.opt.rerollEmptyReward': 'Nochmal würfeln, wenn alle Schlitten leer sind',
    'happy_holidays.opt.endCheck': 'Das Spiel endet',
    'happy_holidays.opt.endCheck.endOfTurn': 'am Ende des Zugs',
    'happy_holidays.opt.endCheck.immediate': 'sofort',
    'happy_holidays.opt.tieBreak': 'Bei Gleichstand',
    'happy_holidays.opt.tieBreak.shared': 'gemeinsamer Sieg',
    'happy_holidays.opt.tieBreak.totalGifts': 'die meisten Geschenke gewinnen',
    'happy_holidays.opt.mainTimeoutSec': 'Zeit für einen Zug (Sekunden)',
    'happy_holidays.opt.subPromptTimeoutSec': 'Zeit für eine Wahl (Sekunden)',
    'happy_holidays.off': 'ohne Limit',
    'hh.red': 'Rot', 'hh.green': 'Grün', 'hh.blue': 'Blau', 'hh.yellow': 'Gelb',
    'hh.face.reindeer_reward': 'Rentier-Belohnung', 'hh.face.christmas_wish': 'Weihnachtswunsch',
    'hh.tree': 'Geschenke am Weihnachtsbaum',
    'hh.die': 'Der Würfel',
    'hh.sleigh': 'Schlitten',
    'hh.stacks': 'Stapel',
    'hh.reindeer': 'hat ein Rentier',
    'hh.no_reindeer': 'kein Rentier',
    'hh.points': { one: '{n} Punkt', other: '{n} Punkte' },
    'hh.total': { one: '{n} Geschenk insgesamt', other: '{n} Geschenke insgesamt' },
    'hh.round': 'Runde {n}',
    'hh.a.take_reindeer': 'Rentier von {name} nehmen',
    'hh.a.roll': 'Würfeln',
    'hh.a.roll_forgot': 'Ohne Rentier würfeln (Zug verpasst)',
    'hh.a.sleigh_colour': 'Geschenke in {colour} stapeln',
    'hh.a.choose_sleigh': 'Schlitten von {name}',
    'hh.a.choose_sleigh_load': 'Schlitten von {name}: {load}', 'hh.empty': 'leer',
    'hh.a.choose_own_sleigh': 'Dein eigener Schlitten: {load}', 'hh.a.choose_sleigh_swap': 'Schlitten von {name}: {load} (ihr tauscht die Schlitten)',
    'hh.result_note': 'Punkte sind die Geschenke in deinen zwei größten Stapeln.', 'hh.result_tie': 'Bei gleichen Punkten entschieden die meisten Geschenke insgesamt.',
    'hh.a.wish_colour': '{colour} wünschen',
    'hh.p.take_reindeer_or_roll': 'Erst ein Rentier nehmen, dann würfeln',
    'hh.p.take_reindeer': 'Nimm ein Rentier von einem anderen Spieler',
    'hh.p.roll': 'Würfeln',
    'hh.p.sleigh_colour': 'Welche Farbe kommt vom Schlitten auf die Stapel?',
    'hh.p.choose_sleigh': 'Rentier-Belohnung: wähle einen Schlitten',
    'hh.p.wish_colour': 'Weihnachtswunsch: welche Farbe wünschst du dir?',
    'hh.e.took_reindeer': '{name} nimmt das Rentier von {from}',
    'hh.e.forgot_reindeer': '{name} hat das Rentier vergessen und setzt aus',
    'hh.e.rolled': '{name} würfelt {face}',
    'hh.e.gifts_to_sleigh': 'Auf den Schlitten von {name}: {colours}',
    'hh.e.roll_again': '{name} würfelt nochmal',
    'hh.e.reroll_cap': 'Zu oft gewürfelt: der Zug endet',
    'hh.e.banked': { one: '{name} stapelt {count} Geschenk vom Schlitten von {owner}', other: '{name} stapelt {count} Geschenke vom Schlitten von {owner}' },
    'hh.e.banked_own': { one: '{name} stapelt {count} Geschenk vom eigenen Schlitten', other: '{name} stapelt {count} Geschenke vom eigenen Schlitten' },
    'hh.e.sleigh_swapped': '{name} tauscht den Schlitten mit {with}',
    'hh.e.wish_given': '{name} wünscht sich {colour} und bekommt {count}',
    'hh.e.turn_started': '{name} ist dran',
    'hh.e.game_over': 'Spielende',
    'hh.tip.reindeer': '{name} hat ein Rentier: das braucht man vor dem Würfeln',
    'hh.tip.no_reindeer': '{name} hat kein Rentier: vor dem Würfeln einem anderen eins wegnehmen',
    'hh.tip.sleigh': 'Schlitten von {name}: Geschenke hier sind erst auf den Stapeln sicher',
    'hh.tip.tree': 'Geschenke unterm Baum: eine gewürfelte Farbe bringt eins davon auf deinen Schlitten',
    'hh.tip.stacks': 'Stapel von {name}: die zwei größten zählen am Ende',
  },
};

const colourName = (c) => t(`hh.${c}`);

function faceName(face) {
  if (!face) return '';
  if (face === 'reindeer_reward' || face === 'christmas_wish') return t(`hh.face.${face}`);
  return face.split('_').map(colourName).join(' + ');
}

function dieHtml(face) {
  if (!face) return '<div class="die empty" aria-hidden="true">?</div>';
  if (face === 'reindeer_reward' || face === 'christmas_wish') {
    return `<div class="die" role="img" aria-label="${esc(faceName(face))}" title="${esc(faceName(face))}">${face === 'reindeer_reward' ? '🦌' : '⭐'}</div>`;
  }
  const [a, b] = face.split('_');
  return `<div class="die split" role="img" aria-label="${esc(faceName(face))}" title="${esc(faceName(face))}"><span style="background:${paint[a]}"></span><span style="background:${paint[b]}"></span></div>`;
}

function giftRow(gifts, big = false) {
  return colours.map((c) => `<span class="gift ${big ? 'big' : ''}" style="--g:${paint[c]}" title="${esc(colourName(c))}">
    <span class="box" aria-hidden="true"></span><span class="n">${gifts[c] ?? 0}</span></span>`).join('');
}

function stacksHtml(stacks) {
  const max = Math.max(8, ...colours.map((c) => stacks[c] || 0));
  return `<div class="stacks">${colours.map((c) => `<div class="stack" title="${esc(colourName(c))}: ${stacks[c] || 0}">
    <div class="bar" style="height:${((stacks[c] || 0) / max) * 100}%;background:${paint[c]}"></div><span>${stacks[c] || 0}</span></div>`).join('')}</div>`;
}

export default {
  id: 'happy_holidays',
  icon: '🛷',
  texts,
  mainOptions: ['maxPlayers', 'startPlayer', 'mainTimeoutSec'],
  // Commands in a game of bots with 8 gifts per colour (median of 20 games per table size:
  // `tinsel-engine-bench --bot-games 20 --game happy_holidays`), about 10 seconds each for a family.
  estimateMinutes: (o) => ({ 2: 78, 3: 69, 4: 64, 5: 61, 6: 53 }[o.maxPlayers] ?? 64) * (o.giftsPerColour / 8) * 10 / 60,
  options: {
    startPlayer: { choices: ['random', 'host-picks'] },
    maxPlayers: { min: 2, max: 6 },
    giftsPerColour: { min: 5, max: 15 },
    reindeerCount: { choices: ['auto', 1, 2, 3, 4, 5] },
    reindeerMode: { choices: ['strict', 'assisted'] },
    endCheck: { choices: ['endOfTurn', 'immediate'] },
    tieBreak: { choices: ['shared', 'totalGifts'] },
    mainTimeoutSec: { choices: [15, 30, 60, 120, 300, 'off'] },
    subPromptTimeoutSec: { choices: [10, 15, 30, 60, 120, 'off'] },
  },

  promptText(ctx) {
    const kind = ctx.state.prompt?.kind;
    return kind ? t(`hh.p.${kind}`) : '';
  },

  primary(entry) {
    return entry.kind === 'roll' || entry.kind === 'take_reindeer';
  },

  // Moments announced to everyone (moments.js): a reindeer changing hands or forgotten, a sleigh
  // swap, a wish.
  moments: { took_reindeer: '🦌', forgot_reindeer: '🦌', sleigh_swapped: '🛷', wish_given: '⭐' },

  actionLabel(entry, ctx) {
    const v = ctx.view;
    switch (entry.kind) {
      case 'take_reindeer': return t('hh.a.take_reindeer', { name: ctx.name(entry.from) });
      case 'roll': return v.players[v.active]?.reindeer ? t('hh.a.roll') : t('hh.a.roll_forgot');
      case 'sleigh_colour': return t('hh.a.sleigh_colour', { colour: colourName(entry.colour) });
      case 'choose_sleigh': {
        // Say what is on the sleigh, so the choice needs no look at the board.
        const gifts = v.players[entry.owner]?.sleigh?.gifts || {};
        const load = Object.entries(gifts).filter(([, n]) => n > 0).map(([c, n]) => `${n} ${colourName(c)}`);
        const params = { name: ctx.name(entry.owner), load: load.length ? list(load) : t('hh.empty') };
        // Taking another player's sleigh swaps sleighs (rules F5): the button says so.
        return entry.owner === v.active ? t('hh.a.choose_own_sleigh', params) : t('hh.a.choose_sleigh_swap', params);
      }
      case 'wish_colour': return t('hh.a.wish_colour', { colour: colourName(entry.colour) });
      default: return entry.kind;
    }
  },

  eventText(ev, ctx) {
    const name = ctx.name(ev.seat);
    switch (ev.kind) {
      case 'took_reindeer': return t('hh.e.took_reindeer', { name, from: ctx.name(ev.from) });
      case 'forgot_reindeer': return t('hh.e.forgot_reindeer', { name });
      case 'rolled': return t('hh.e.rolled', { name, face: faceName(ev.face) });
      case 'gifts_to_sleigh': return t('hh.e.gifts_to_sleigh', { name, colours: ev.colours.map(colourName).join(' + ') });
      case 'roll_again': return t('hh.e.roll_again', { name });
      case 'reroll_cap': return t('hh.e.reroll_cap', { name });
      case 'banked': return ev.sleigh_owner === ev.seat ? t('hh.e.banked_own', { name, count: ev.count })
        : t('hh.e.banked', { name, count: ev.count, owner: ctx.name(ev.sleigh_owner) });
      case 'sleigh_swapped': return t('hh.e.sleigh_swapped', { name, with: ctx.name(ev.with) });
      case 'wish_given': return t('hh.e.wish_given', { name, colour: colourName(ev.colour), count: ev.count });
      case 'turn_started': return t('hh.e.turn_started', { name });
      case 'game_over': return t('hh.e.game_over');
      default: return null;
    }
  },

  render(ctx) {
    const v = ctx.view;
    // Pieces explain themselves: a title for the mouse, a name for screen readers, data-tip for a
    // long press on a touch screen (help.js).
    const tip = (text) => `title="${esc(text)}" data-tip="${esc(text)}"`;
    const players = v.players.map((p) => {
      const active = p.seat === v.active && !ctx.state.over;
      const name = ctx.name(p.seat);
      const deer = t(p.reindeer ? 'hh.tip.reindeer' : 'hh.tip.no_reindeer', { name });
      return `<div class="hh-player ${active ? 'active' : ''}" style="--c:${ctx.colour(p.seat)}" data-testid="hh-player-${p.seat}">
        <div class="who"><span class="dot" style="--c:${ctx.colour(p.seat)}"></span><strong>${esc(ctx.who(p.seat))}</strong>
          <span class="reindeer ${p.reindeer ? 'has' : ''}" role="img" aria-label="${esc(deer)}" ${tip(deer)}>${p.reindeer ? '🦌' : '·'}</span>
          <span class="score">${esc(t('hh.points', { n: p.score }))}</span></div>
        <div class="sleigh" ${tip(t('hh.tip.sleigh', { name }))}><span class="label">🛷 ${esc(t('hh.sleigh'))}</span>${giftRow(p.sleigh.gifts)}</div>
        <div class="label" ${tip(t('hh.tip.stacks', { name }))}>${esc(t('hh.stacks'))}</div>${stacksHtml(p.stacks)}
      </div>`;
    });
    return `<div class="hh-board">
      <div class="hh-centre">
        <div class="tree-area" ${tip(t('hh.tip.tree'))}><h3>🎄 ${esc(t('hh.tree'))}</h3><div class="gifts">${giftRow(v.tree, true)}</div></div>
        <div class="die-area"><h3>${esc(t('hh.die'))}</h3>${dieHtml(v.last_roll?.face)}
          <p class="muted">${v.last_roll ? esc(`${ctx.name(v.last_roll.seat)}: ${faceName(v.last_roll.face)}`) : ''}</p>
          <p class="muted">${esc(t('hh.round', { n: v.round }))}</p></div>
      </div>
      <div class="hh-players">${players.join('')}</div>
    </div>`;
  },

  // Why the winner won, in one line under the table.
  resultNote(ctx) {
    const r = ctx.state.result || {};
    return [t('hh.result_note'), r.decided_by === 'total_gifts' ? t('hh.result_tie') : ''].filter(Boolean).join(' ');
  },

  resultHtml(ctx) {
    const r = ctx.state.result;
    const rows = r.scores.map((score, seat) => `<tr class="${r.winners.includes(seat) ? 'winner' : ''}">
      <td><span class="dot" style="--c:${ctx.colour(seat)}"></span>${esc(ctx.name(seat))}</td><td><strong>${score}</strong></td>
      <td>${giftRow(r.stacks[seat])}</td><td>${r.total_gifts[seat]}</td></tr>`);
    return `<table class="score-table"><thead><tr><th></th><th>${esc(t('game.score'))}</th><th>${esc(t('hh.stacks'))}</th><th>${esc(t('game.total'))}</th></tr></thead>
      <tbody>${rows.join('')}</tbody></table>`;
  },
};
