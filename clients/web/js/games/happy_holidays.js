// Happy Holidays: the gifts around the tree, every player's sleigh, stacks and reindeer, the die,
// and the choices of `legal` as buttons. Everything here is public.
import { addTexts, list, t } from '../i18n.js';
import { esc } from '../util.js';

const colours = ['red', 'green', 'blue', 'yellow'];
const paint = { red: '#d62828', green: '#2a9d3f', blue: '#1d6fd6', yellow: '#f2c500' };

const texts = {
  en: {
    'hh.red': 'red', 'hh.green': 'green', 'hh.blue': 'blue', 'hh.yellow': 'yellow',
    'hh.face.reindeer_reward': 'Reindeer reward', 'hh.face.christmas_wish': 'Christmas wish',
    'hh.tree': 'Gifts around the tree',
    'hh.die': 'The die',
    'hh.sleigh': 'Sleigh',
    'hh.stacks': 'Stacks',
    'hh.reindeer': 'has a reindeer',
    'hh.no_reindeer': 'no reindeer',
    'hh.points': { one: '{n} point', other: '{n} points' },
    'hh.news_head': 'Since your last roll:',
    'hh.total': { one: '{n} gift in all', other: '{n} gifts in all' },
    'hh.round': 'Round {n}',
    'hh.a.take_reindeer': "Take {name}'s reindeer",
    'hh.a.roll': 'Roll the die',
    'hh.a.roll_forgot': 'Roll without a reindeer (you miss your turn)',
    'hh.a.sleigh_colour': { one: 'Stack {colour}: {n} gift from your sleigh', other: 'Stack {colour}: {n} gifts from your sleigh' },
    'hh.a.sleigh_colour_none': 'Stack {colour}: none on your sleigh',
    'hh.empty': 'empty',
    'hh.result_note': 'Points are the gifts in your two biggest stacks.', 'hh.result_tie': 'Equal points: the most gifts in all decided.',
    'hh.total_col': 'Gifts in all',
    'hh.end.tree_one': 'The game ended because only {colour} gifts are left under the tree: the other colours are used up.',
    'hh.end.tree_none': 'The game ended because all the gifts under the tree are used up.',
    'hh.end.round_cap': 'The game ended after {n} rounds, the most a game may last.',
    'hh.a.wish_colour': { one: 'Wish for {colour}: you get {n} gift', other: 'Wish for {colour}: you get {n} gifts' },
    'hh.a.wish_colour_none': 'Wish for {colour}: nobody has one to give',
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
    'hh.e.wish_given': '{name} wished for {colour} and gets {count}',
    'hh.e.turn_started': "{name}'s turn",
    'hh.e.game_over': 'Game over',
    'hh.tip.reindeer': '{name} has a reindeer: you need one before you roll',
    'hh.tip.no_reindeer': '{name} has no reindeer: take one from another player before rolling',
    'hh.tip.sleigh': "{name}'s sleigh: gifts here are not safe until they go onto the stacks",
    'hh.tip.tree': 'Gifts under the tree: a colour you roll brings one onto your sleigh',
    'hh.tip.stacks': "{name}'s stacks: the two biggest count at the end",
    'hh.count': { one: '{n} {colour} gift', other: '{n} {colour} gifts' },
    'hh.tip.pile': 'Under the tree: {count}',
    'hh.tip.load': "On {name}'s sleigh: {count}",
    'hh.tip.stack': "{name}'s stack: {count}",
    'hh.tip.die': 'The die shows: {face}',
    'hh.die_not_rolled': 'The die: not rolled yet',
    'hh.a.reward_other': "{load} from {name}'s sleigh onto your stacks ({name} gets your sleigh: {mine})",
    'hh.a.reward_other_empty': "{name}'s sleigh is empty: nothing for you ({name} gets your sleigh: {mine})",
    'hh.a.reward_own': '{load} from your own sleigh onto your stacks (no swap)',
    'hh.a.reward_own_empty': 'Your own sleigh is empty: nothing for you (no swap)',
    'hh.from_you': '1 from you', 'hh.from': '1 from {name}',
    'hh.e.wish_from': '{name} wishes for {colour} and gets {from}',
    'hh.e.wish_nothing': '{name} wishes for {colour}, but nobody has one to give',
    'hh.e.wish_from_you': 'You wish for {colour} and get {from}',
    'hh.e.wish_nothing_you': 'You wish for {colour}, but nobody has one to give',
    'hh.e.banked_you': "You stack {load} from {owner}'s sleigh",
    'hh.e.banked_own_you': 'You stack {load} from your own sleigh',
    'hh.e.banked_yours': '{name} stacks {load} from your sleigh',
    'hh.e.banked_empty': "{name} takes {owner}'s empty sleigh",
    'hh.e.banked_empty_yours': '{name} takes your empty sleigh',
    'hh.e.banked_empty_you': "You take {owner}'s empty sleigh",
    'hh.e.swap': "{name} swaps sleighs with {with}; {with} gets {name}'s sleigh: {load}",
    'hh.e.swap_you': 'You swap sleighs with {with}; {with} gets your sleigh: {load}',
    'hh.e.swap_yours': "{name} swaps sleighs with you; you get {name}'s sleigh: {load}",
    'hh.m.swap_lost': "{name} takes {lost} from your sleigh onto their stacks. In exchange you get {name}'s sleigh: {load}",
    'hh.m.swap_lost_empty': "{name} takes your empty sleigh. In exchange you get {name}'s sleigh: {load}",
    'hh.end_near': 'Only {colours} left under the tree: once one of them is used up, the game is over.',
    'hh.last_turn': 'Last turn! Only {colour} is left under the tree: the game is over after this turn.',
    'hh.last_turn_none': 'Last turn! Nothing is left under the tree: the game is over after this turn.',
    'hh.p.last_turn': 'Last turn!',
    'hh.p.deer_taken': '{name} took your reindeer: take one yourself, then roll',
    'hh.p.deer_none': 'You have no reindeer: take one, then roll',
    'hh.to.start': 'Time was up: the game rolled the die for you',
    'hh.to.start_deer': "Time was up: the game took {from}'s reindeer for you and rolled the die",
    'hh.to.colour': 'Time was up: the game stacked {colour} for you',
    'hh.to.sleigh': "Time was up: the game chose {name}'s sleigh for you",
    'hh.to.sleigh_own': 'Time was up: the game chose your own sleigh for you',
    'hh.to.wish': 'Time was up: the game wished for {colour} for you',
    'hh.e.took_your_reindeer': '{name} takes your reindeer',
    'hh.counts': 'counts',
  },
  de: {
    'hh.red': 'Rot', 'hh.green': 'Grün', 'hh.blue': 'Blau', 'hh.yellow': 'Gelb',
    'hh.face.reindeer_reward': 'Rentier-Belohnung', 'hh.face.christmas_wish': 'Weihnachtswunsch',
    'hh.tree': 'Geschenke am Weihnachtsbaum',
    'hh.die': 'Der Würfel',
    'hh.sleigh': 'Schlitten',
    'hh.stacks': 'Stapel',
    'hh.reindeer': 'hat ein Rentier',
    'hh.no_reindeer': 'kein Rentier',
    'hh.points': { one: '{n} Punkt', other: '{n} Punkte' },
    'hh.news_head': 'Seit deinem letzten Wurf:',
    'hh.total': { one: '{n} Geschenk insgesamt', other: '{n} Geschenke insgesamt' },
    'hh.round': 'Runde {n}',
    'hh.a.take_reindeer': 'Rentier von {name} nehmen',
    'hh.a.roll': 'Würfeln',
    'hh.a.roll_forgot': 'Ohne Rentier würfeln (Zug verpasst)',
    'hh.a.sleigh_colour': { one: '{colour} stapeln: {n} Geschenk vom Schlitten', other: '{colour} stapeln: {n} Geschenke vom Schlitten' },
    'hh.a.sleigh_colour_none': '{colour} stapeln: keins auf dem Schlitten',
    'hh.empty': 'leer',
    'hh.result_note': 'Punkte sind die Geschenke in deinen zwei größten Stapeln.', 'hh.result_tie': 'Bei gleichen Punkten entschieden die meisten Geschenke insgesamt.',
    'hh.total_col': 'Geschenke insgesamt',
    'hh.end.tree_one': 'Das Spiel ist aus, weil unterm Baum nur noch Geschenke in {colour} liegen: die anderen Farben sind aufgebraucht.',
    'hh.end.tree_none': 'Das Spiel ist aus, weil alle Geschenke unterm Baum aufgebraucht sind.',
    'hh.end.round_cap': 'Das Spiel ist nach {n} Runden aus: länger dauert ein Spiel nie.',
    'hh.a.wish_colour': { one: '{colour} wünschen: du bekommst {n} Geschenk', other: '{colour} wünschen: du bekommst {n} Geschenke' },
    'hh.a.wish_colour_none': '{colour} wünschen: niemand hat eins abzugeben',
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
    'hh.e.wish_given': '{name} wünscht sich {colour} und bekommt {count}',
    'hh.e.turn_started': '{name} ist dran',
    'hh.e.game_over': 'Spielende',
    'hh.tip.reindeer': '{name} hat ein Rentier: das braucht man vor dem Würfeln',
    'hh.tip.no_reindeer': '{name} hat kein Rentier: vor dem Würfeln einem anderen eins wegnehmen',
    'hh.tip.sleigh': 'Schlitten von {name}: Geschenke hier sind erst auf den Stapeln sicher',
    'hh.tip.tree': 'Geschenke unterm Baum: eine gewürfelte Farbe bringt eins davon auf deinen Schlitten',
    'hh.tip.stacks': 'Stapel von {name}: die zwei größten zählen am Ende',
    'hh.count': { one: '{n} Geschenk in {colour}', other: '{n} Geschenke in {colour}' },
    'hh.tip.pile': 'Unterm Baum: {count}',
    'hh.tip.load': 'Auf dem Schlitten von {name}: {count}',
    'hh.tip.stack': 'Stapel von {name}: {count}',
    'hh.tip.die': 'Der Würfel zeigt: {face}',
    'hh.die_not_rolled': 'Der Würfel: noch nicht gewürfelt',
    'hh.a.reward_other': '{load} vom Schlitten von {name} auf deine Stapel ({name} bekommt deinen Schlitten: {mine})',
    'hh.a.reward_other_empty': 'Schlitten von {name} ist leer: nichts für dich ({name} bekommt deinen Schlitten: {mine})',
    'hh.a.reward_own': '{load} vom eigenen Schlitten auf deine Stapel (kein Tausch)',
    'hh.a.reward_own_empty': 'Dein eigener Schlitten ist leer: nichts für dich (kein Tausch)',
    'hh.from_you': '1 von dir', 'hh.from': '1 von {name}',
    'hh.e.wish_from': '{name} wünscht sich {colour} und bekommt {from}',
    'hh.e.wish_nothing': '{name} wünscht sich {colour}, aber niemand hat eins abzugeben',
    'hh.e.wish_from_you': 'Du wünschst dir {colour} und bekommst {from}',
    'hh.e.wish_nothing_you': 'Du wünschst dir {colour}, aber niemand hat eins abzugeben',
    'hh.e.banked_you': 'Du stapelst {load} vom Schlitten von {owner}',
    'hh.e.banked_own_you': 'Du stapelst {load} vom eigenen Schlitten',
    'hh.e.banked_yours': '{name} stapelt {load} von deinem Schlitten',
    'hh.e.banked_empty': '{name} nimmt den leeren Schlitten von {owner}',
    'hh.e.banked_empty_yours': '{name} nimmt deinen leeren Schlitten',
    'hh.e.banked_empty_you': 'Du nimmst den leeren Schlitten von {owner}',
    'hh.e.swap': '{name} tauscht den Schlitten mit {with}; {with} bekommt den Schlitten von {name}: {load}',
    'hh.e.swap_you': 'Du tauschst den Schlitten mit {with}; {with} bekommt deinen Schlitten: {load}',
    'hh.e.swap_yours': '{name} tauscht den Schlitten mit dir; du bekommst den Schlitten von {name}: {load}',
    'hh.m.swap_lost': '{name} nimmt {lost} von deinem Schlitten auf die eigenen Stapel. Dafür bekommst du den Schlitten von {name}: {load}',
    'hh.m.swap_lost_empty': '{name} nimmt deinen leeren Schlitten. Dafür bekommst du den Schlitten von {name}: {load}',
    'hh.end_near': 'Unterm Baum nur noch {colours}: ist eine Farbe aufgebraucht, ist das Spiel aus.',
    'hh.last_turn': 'Letzter Zug! Unterm Baum liegt nur noch {colour}: nach diesem Zug ist das Spiel aus.',
    'hh.last_turn_none': 'Letzter Zug! Unterm Baum liegt nichts mehr: nach diesem Zug ist das Spiel aus.',
    'hh.p.last_turn': 'Letzter Zug!',
    'hh.p.deer_taken': '{name} hat dein Rentier genommen – nimm dir eins, dann würfeln',
    'hh.p.deer_none': 'Du hast kein Rentier – nimm dir eins, dann würfeln',
    'hh.to.start': 'Die Zeit war um: das Spiel hat für dich gewürfelt',
    'hh.to.start_deer': 'Die Zeit war um: das Spiel hat für dich das Rentier von {from} genommen und gewürfelt',
    'hh.to.colour': 'Die Zeit war um: das Spiel hat {colour} für dich gestapelt',
    'hh.to.sleigh': 'Die Zeit war um: das Spiel hat für dich den Schlitten von {name} gewählt',
    'hh.to.sleigh_own': 'Die Zeit war um: das Spiel hat für dich deinen eigenen Schlitten gewählt',
    'hh.to.wish': 'Die Zeit war um: das Spiel hat sich für dich {colour} gewünscht',
    'hh.e.took_your_reindeer': '{name} nimmt dir dein Rentier weg',
    'hh.counts': 'zählt',
  },
};
// The board's words (the picker's and the lobby's are in catalogue.js, loaded on every page).
addTexts(texts);

const colourName = (c) => t(`hh.${c}`);
const special = (face) => face === 'reindeer_reward' || face === 'christmas_wish';

// Whether `seat` is the viewer's own (a spectator has none): what happens to them is told to them.
const isMe = (ctx, seat) => ctx.seat !== null && ctx.seat !== undefined && seat === ctx.seat;

// "2 green and 1 blue", or "empty".
function loadText(gifts) {
  const parts = colours.filter((c) => (gifts?.[c] || 0) > 0).map((c) => `${gifts[c]} ${colourName(c)}`);
  return parts.length ? list(parts) : t('hh.empty');
}
const bankedText = (ev) => (ev.gifts ? loadText(ev.gifts) : String(ev.count));
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

// ---------------------------------------------------------------------------------------------
// The art: one warm style, drawn here as inline SVG and CSS (css/happy_holidays.css). The rules
// sheet (js/rules/happy_holidays.js) shows the same pictures.

const deerPath = `
  <path class="deer-antler" d="M49 17c-2-6-1-11 3-15M51 11c3-2 6-2 8-1M49 17c-5-4-10-5-14-4M42 14c-1-4-4-6-7-6"/>
  <path class="deer-body" d="M14 40c0-7 8-11 20-11h10l4-12c1-3 6-3 8 0l6 6c2 2 1 5-2 5h-5l-3 13c0 4-3 7-7 7H22c-5 0-8-3-8-8z"/>
  <path class="deer-belly" d="M22 44c5 2 15 2 20 0"/>
  <path class="deer-leg" d="M20 46v16M27 47v15M40 47v15M46 45v17"/>
  <path class="deer-tail" d="M15 36l-5-3"/>
  <circle class="deer-eye" cx="55" cy="20" r="1.3"/>
  <circle class="deer-nose" cx="64" cy="27" r="3"/>
  <path class="deer-harness" d="M44 27c-2 6-2 10 0 14"/>`;

// A reindeer, standing in front of a sleigh; without one, only its dashed outline.
export function reindeerSvg(has = true) {
  return `<svg class="deer ${has ? '' : 'none'}" viewBox="0 0 70 64" aria-hidden="true" focusable="false">${deerPath}</svg>`;
}

// The Christmas tree the gifts lie around.
export function treeSvg() {
  return `<svg class="tree" viewBox="0 0 100 118" aria-hidden="true" focusable="false">
    <rect class="trunk" x="43" y="96" width="14" height="18" rx="2"/>
    <path class="tier" d="M50 50 8 100h84z"/><path class="tier t2" d="M50 30 16 76h68z"/><path class="tier t3" d="M50 12 24 52h52z"/>
    <path class="garland" d="M30 44q20 10 40-2M22 68q28 12 56-4M14 92q36 12 72-4"/>
    <circle class="bauble b1" cx="34" cy="58" r="3.5"/><circle class="bauble b2" cx="64" cy="50" r="3.5"/>
    <circle class="bauble b3" cx="46" cy="80" r="3.5"/><circle class="bauble b4" cx="74" cy="86" r="3.5"/>
    <circle class="bauble b2" cx="24" cy="90" r="3.5"/><circle class="bauble b1" cx="56" cy="36" r="3"/>
    <path class="star" d="M50 1l3.2 6.6 7.3 1-5.3 5.1 1.3 7.2L50 17.5l-6.5 3.4 1.3-7.2-5.3-5.1 7.3-1z"/>
  </svg>`;
}

// The sleigh's body: a red sleigh with a golden rim on curled runners, facing right.
export function sleighSvg() {
  return `<svg class="sleigh-body" viewBox="0 0 200 52" preserveAspectRatio="none" aria-hidden="true" focusable="false">
    <path class="runner" d="M12 46h160c10 0 16-6 16-14s-6-12-11-9"/>
    <path class="strut" d="M40 40v6M130 40v6"/>
    <path class="body" d="M6 6h150c14 0 22 8 26 20l-8 14H24C12 40 6 30 6 18z"/>
    <path class="rim" d="M6 8h150c12 0 19 6 23 16"/>
    <path class="swirl" d="M30 24c6-8 16-8 18 0M160 22c-4 6 2 12 8 8"/>
  </svg>`;
}

const stud = (x, y) => `<circle class="stud" cx="${x}" cy="${y}" r="9"/>`;

// A face of the LEGO die: two colours (a 2×2 plate, half and half), the reindeer or the star;
// a plain blank face before the first roll (no studs: four of them looked like a 4).
export function dieSvg(face) {
  const faceShape = 'M14 4h58a10 10 0 0 1 10 10v58a10 10 0 0 1-10 10H14A10 10 0 0 1 4 72V14A10 10 0 0 1 14 4z';
  let inner;
  if (face && !special(face)) {
    const [a, b] = face.split('_');
    inner = `<path style="fill:${paint[a]}" d="M14 4h29v78H14A10 10 0 0 1 4 72V14A10 10 0 0 1 14 4z"/>
      <path style="fill:${paint[b]}" d="M43 4h29a10 10 0 0 1 10 10v58a10 10 0 0 1-10 10H43z"/>
      <g class="studs">${stud(24, 24)}${stud(24, 62)}${stud(62, 24)}${stud(62, 62)}</g>`;
  } else if (face === 'reindeer_reward') {
    inner = `<g transform="translate(12 16) scale(.92)">${deerPath}</g>`;
  } else if (face === 'christmas_wish') {
    inner = '<path class="star" d="M43 12l9 18.5 20.5 3-14.8 14.4 3.5 20.3L43 58.6l-18.2 9.6 3.5-20.3L13.5 33.5l20.5-3z"/>';
  } else {
    inner = '';
  }
  return `<svg class="die-svg" viewBox="0 0 92 92" aria-hidden="true" focusable="false">
    <path class="die-side" d="M14 10h62a10 10 0 0 1 10 10v58a10 10 0 0 1-10 10H14A10 10 0 0 1 4 78V20A10 10 0 0 1 14 10z"/>
    <path class="die-face" d="${faceShape}"/>${inner}<path class="die-edge" d="${faceShape}"/>
  </svg>`;
}

// One gift box in a colour: ribbon and bow are CSS (.gb).
export function giftBox(colour, attrs = '') {
  return `<i class="gb gb-${colour}" style="--g:${paint[colour]}" ${attrs}></i>`;
}

// A count next to the gifts, dark on white: readable on every colour (WCAG AA).
const countChip = (n) => `<b class="cnt">${n}</b>`;

// Where a gift (or a reindeer) lies, for the slides between two renders: an invisible anchor with
// a stable key (`data-flip`), measured before each render; a gift that arrived in this state is
// drawn with a key of its own (new, so it is seen as arriving) and `data-flip-from` pointing at
// the anchor it came from. The next render gives it its plain place again, so a slide plays once.
const anchor = (loc) => `<i class="anchor" data-flip="at-${loc}"></i>`;

// The last `n` of `shown` boxes arrived from `from` (moves.arrivals), the others lay there.
function boxes(colour, loc, count, cap) {
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

const moves = { room: null, prev: null, seq: null, arrivals: new Map(), deerFrom: new Map(), rolls: 0 };
// Who took whose reindeer (the one without it -> the taker), and what happened to the viewer's
// gifts and reindeer since their own last roll (shown in their own place on the board).
const told = { room: null, deerTakenBy: new Map(), news: [], mine: false };

function noteNews(msg) {
  if (msg.room !== told.room || (msg.events || []).some((e) => e.kind === 'game_started')) {
    Object.assign(told, { room: msg.room, deerTakenBy: new Map(), news: [] });
  }
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

function noteState(msg) {
  noteNews(msg);
  const mine = msg.seat !== null && msg.seat !== undefined && Boolean(msg.prompt?.seats?.includes(msg.seat)) && msg.legal?.length > 0 && !msg.over;
  if (mine && !told.mine) queueMicrotask(showChoices); // after this state is drawn
  told.mine = mine;
  const v = msg.view;
  // Only the state right after the one drawn moves anything: a state that answers a join (a
  // reload, a second window, a reconnect) repeats the current seq or jumps past missed ones.
  const prev = moves.room === msg.room && msg.seq === moves.seq + 1 ? moves.prev : null;
  moves.room = msg.room;
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
    return `<span class="gift ${counting.has(c) ? 'counts' : ''}" role="img" aria-label="${esc(label)}" title="${esc(label)}">${giftBox(c)}${countChip(gifts[c] ?? 0)}</span>`;
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
function eventText(ev, ctx) {
  const name = ctx.name(ev.seat);
  switch (ev.kind) {
    case 'took_reindeer': return isMe(ctx, ev.from) ? t('hh.e.took_your_reindeer', { name }) : t('hh.e.took_reindeer', { name, from: ctx.name(ev.from) });
    case 'forgot_reindeer': return t('hh.e.forgot_reindeer', { name });
    case 'rolled': return t('hh.e.rolled', { name, face: faceName(ev.face) });
    case 'gifts_to_sleigh': return t('hh.e.gifts_to_sleigh', { name, colours: ev.colours.map(colourName).join(' + ') });
    case 'roll_again': return t('hh.e.roll_again', { name });
    case 'reroll_cap': return t('hh.e.reroll_cap', { name });
    case 'banked': {
      const load = bankedText(ev);
      if (ev.sleigh_owner === ev.seat) return isMe(ctx, ev.seat) && ev.count ? t('hh.e.banked_own_you', { load }) : t('hh.e.banked_own', { name, count: ev.count });
      if (isMe(ctx, ev.sleigh_owner)) return t(ev.count ? 'hh.e.banked_yours' : 'hh.e.banked_empty_yours', { name, load });
      const owner = ctx.name(ev.sleigh_owner);
      if (isMe(ctx, ev.seat)) return ev.count ? t('hh.e.banked_you', { load, owner }) : t('hh.e.banked_empty_you', { owner });
      return ev.count ? t('hh.e.banked', { name, count: ev.count, owner }) : t('hh.e.banked_empty', { name, owner });
    }
    case 'sleigh_swapped': {
      // The other player now has the active player's old sleigh, with what was on it.
      const load = loadText(ev.gifts_given || ctx.view?.players?.[ev.with]?.sleigh?.gifts);
      if (isMe(ctx, ev.with)) return t('hh.e.swap_yours', { name, load });
      if (isMe(ctx, ev.seat)) return t('hh.e.swap_you', { with: ctx.name(ev.with), load });
      return t('hh.e.swap', { name, with: ctx.name(ev.with), load });
    }
    case 'wish_given': {
      if (!Array.isArray(ev.from)) return t('hh.e.wish_given', { name, colour: colourName(ev.colour), count: ev.count });
      // Who gave: "1 from you and 1 from Rudi" (the viewer first).
      const from = [...ev.from].sort((x, y) => Number(isMe(ctx, y)) - Number(isMe(ctx, x)))
        .map((s) => (isMe(ctx, s) ? t('hh.from_you') : t('hh.from', { name: ctx.name(s) })));
      const me = isMe(ctx, ev.seat);
      const colour = colourName(ev.colour);
      if (!from.length) return t(me ? 'hh.e.wish_nothing_you' : 'hh.e.wish_nothing', { name, colour });
      return t(me ? 'hh.e.wish_from_you' : 'hh.e.wish_from', { name, colour, from: list(from) });
    }
    case 'turn_started': return t('hh.e.turn_started', { name });
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

export default {
  id: 'happy_holidays',

  promptText(ctx) {
    const kind = ctx.state.prompt?.kind;
    if (!kind) return '';
    const v = ctx.view;
    // Without a reindeer: say why (who took it), and what to do.
    if ((kind === 'take_reindeer_or_roll' || kind === 'take_reindeer') && isMe(ctx, v?.active) && v.players?.[v.active]?.reindeer === false) {
      const taker = told.deerTakenBy.get(v.active);
      return taker !== undefined ? t('hh.p.deer_taken', { name: ctx.name(taker) }) : t('hh.p.deer_none');
    }
    const text = t(`hh.p.${kind}`);
    return kind === 'sleigh_colour' && v?.tree && treeLeft(v).length <= 1 ? `${t('hh.p.last_turn')} ${text}` : text;
  },

  // The recommended choice: taking a reindeer, or rolling with one. Rolling without a reindeer
  // (strict mode: the turn is missed) is offered as a plain button.
  primary(entry) {
    if (entry.kind === 'take_reindeer') return true;
    if (entry.kind !== 'roll') return false;
    const v = moves.prev; // the state just taken in by onState, the one on screen
    return !v || v.players?.[v.active]?.reindeer !== false;
  },

  // Moments announced to everyone (moments.js): a reindeer changing hands or forgotten, a sleigh
  // swap, a wish.
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
      `<button class="action weak" data-act="legal" data-i="${i}">${esc(this.actionLabel(e, ctx))}</button>`).join('')}</div>`;
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

  onState(msg) {
    noteState(msg);
  },

  render(ctx) {
    const v = ctx.view;
    const names = (seat) => ctx.name(seat);
    const pile = (c) => {
      const n = v.tree[c] ?? 0;
      const label = t('hh.tip.pile', { count: t('hh.count', { n, colour: colourName(c) }) });
      return `<div class="pile ${n ? '' : 'gone'}" style="--g:${paint[c]}" role="img" aria-label="${esc(label)}" ${tip(label)} data-testid="hh-tree-${c}">
        <span class="pile-boxes">${anchor(`tree-${c}`)}${boxes(c, `tree-${c}`, n, 6)}</span>${countChip(n)}</div>`;
    };
    const face = v.last_roll?.face;
    const dieLabel = face ? t('hh.tip.die', { face: faceName(face) }) : t('hh.die_not_rolled');
    const rolled = moves.rolls ? `rolled roll-${moves.rolls % 2 ? 'a' : 'b'}` : '';
    const endNear = ctx.state.over ? null : endNearText(v);
    // In the viewer's own place: what others took from them since their last roll.
    const news = told.room === ctx.state.room && isMe(ctx, ctx.seat) && !ctx.state.over
      ? told.news.map((n) => `<li>${esc(newsText(n, ctx))}</li>`).join('') : '';
    const players = v.players.map((p) => {
      const active = p.seat === v.active && !ctx.state.over;
      const name = names(p.seat);
      const deer = t(p.reindeer ? 'hh.tip.reindeer' : 'hh.tip.no_reindeer', { name });
      const deerFrom = moves.deerFrom.get(p.seat);
      const deerMove = p.reindeer && deerFrom !== undefined ? `data-flip="deer-a${moves.seq}" data-flip-from="at-deer-${deerFrom}"` : '';
      const load = colours.filter((c) => p.sleigh.gifts[c] > 0).map((c) => {
        const n = p.sleigh.gifts[c];
        const label = t('hh.tip.load', { name, count: t('hh.count', { n, colour: colourName(c) }) });
        return `<span class="load-group ${n === 1 ? 'one' : ''}" role="img" aria-label="${esc(label)}" ${tip(label)}>
          <span class="load-boxes">${anchor(`sl-${p.seat}-${c}`)}${boxes(c, `sl-${p.seat}-${c}`, n, 4)}</span>${countChip(n)}</span>`;
      }).join('');
      const stacks = colours.map((c) => {
        const n = p.stacks[c] || 0;
        const label = t('hh.tip.stack', { name, count: t('hh.count', { n, colour: colourName(c) }) });
        return `<div class="tower ${n ? '' : 'none'}" style="--g:${paint[c]}" role="img" aria-label="${esc(label)}" ${tip(label)}>
          <span class="tower-boxes">${anchor(`st-${p.seat}-${c}`)}${boxes(c, `st-${p.seat}-${c}`, n, 10)}</span>${countChip(n)}</div>`;
      }).join('');
      return `<div class="hh-player ${active ? 'active' : ''} ${isMe(ctx, p.seat) ? 'me' : ''}" style="--c:${ctx.colour(p.seat)}" data-testid="hh-player-${p.seat}">
        <div class="who"><span class="dot" style="--c:${ctx.colour(p.seat)}"></span><strong>${esc(ctx.who(p.seat))}</strong>
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
    });
    return `<div class="hh-board" data-phase="${esc(v.phase)}">
      <div class="tree-area" ${tip(t('hh.tip.tree'))}>
        <h3>${esc(t('hh.tree'))}</h3>
        <p class="round">${esc(t('hh.round', { n: v.round }))}</p>
        <p class="die-caption">${v.last_roll ? esc(t('hh.e.rolled', { name: names(v.last_roll.seat), face: faceName(face) })) : ''}</p>
        ${endNear ? `<p class="end-near ${endNear.last ? 'last' : ''}" data-testid="hh-end-near">${esc(endNear.text)}</p>` : ''}
        <div class="die-area">
          <div id="hh-die" class="die3d ${rolled}" role="img" aria-label="${esc(dieLabel)}" ${tip(dieLabel)} data-face="${esc(face || '')}" data-testid="hh-die">${dieSvg(face)}</div>
        </div>
        <div class="scene">${treeSvg()}<div class="piles left">${pile('red')}${pile('green')}</div><div class="piles right">${pile('blue')}${pile('yellow')}</div></div>
      </div>
      <div class="hh-players">${players.join('')}</div>
    </div>`;
  },

  // Why the winner won, in one line under the table.
  resultNote(ctx) {
    const r = ctx.state.result || {};
    return [endReason(r, ctx.view), t('hh.result_note'), r.decided_by === 'total_gifts' ? t('hh.result_tie') : ''].filter(Boolean).join(' ');
  },

  resultHtml(ctx) {
    const r = ctx.state.result;
    const rows = r.scores.map((score, seat) => `<tr class="${r.winners.includes(seat) ? 'winner' : ''}">
      <td><span class="dot" style="--c:${ctx.colour(seat)}"></span>${esc(ctx.name(seat))}</td><td><strong>${score}</strong></td>
      <td>${giftRow(r.stacks[seat], true)}</td><td>${r.total_gifts[seat]}</td></tr>`);
    return `<table class="score-table"><thead><tr><th></th><th>${esc(t('game.score'))}</th><th>${esc(t('hh.stacks'))}</th><th>${esc(t('hh.total_col'))}</th></tr></thead>
      <tbody>${rows.join('')}</tbody></table>`;
  },
};
