// "How to play" Happy Holidays, for families, in both languages (from docs/rules/happy-holidays.md).
// Plain text; **bold** marks a word the screen shows on a button. Pictures are the board's own art
// (js/games/hh_art.js, css/happy_holidays.css).
import { colours, dieSvg, giftBox, reindeerSvg, sleighSvg, treeSvg } from '../games/hh_art.js';

const tower = (colour, n) => `<span class="tower-boxes">${giftBox(colour).repeat(n)}</span>`;
const die = (face) => `<span class="die3d">${dieSvg(face)}</span>`;
const pic = {
  tree: `${treeSvg()}${colours.map((c) => giftBox(c)).join('')}`,
  sleigh: `<span class="hh-rs-sleigh">${giftBox('red')}${giftBox('blue')}${sleighSvg()}</span>`,
  stacks: `<span class="hh-rs-stacks">${tower('red', 2)}${tower('green', 4)}${tower('blue', 3)}${tower('yellow', 1)}</span>`,
  reindeer: reindeerSvg(true),
  die: `${die('red_green')}${die('reindeer_reward')}${die('christmas_wish')}`,
};

export default {
  icon: '🛷',
  en: {
    goal: 'Collect as many gifts as you can and stack them by colour. At the end only your two biggest stacks count, so it pays to collect two colours.',
    pieces: [
      [pic.tree, 'Gifts under the tree', 'Red, green, blue and yellow. This is where the gifts come from.'],
      [pic.sleigh, 'Your sleigh', 'Gifts on your sleigh are not safe yet: someone can take the whole sleigh.'],
      [pic.stacks, 'Your stacks', 'Gifts you have stacked are yours. They count at the end.'],
      [pic.reindeer, 'Reindeer', 'You need a reindeer before you roll. There is one reindeer fewer than players.'],
      [pic.die, 'The die', 'Four sides show two colours, one shows a reindeer (Reindeer reward), one a star (Christmas wish).'],
    ],
    steps: [
      'No reindeer in front of you? First take one from another player, for example **Take Grandpa\'s reindeer**.',
      'Press **Roll the die**.',
      'Two colours: one gift of each colour goes from the tree onto your sleigh.',
      'Then choose one of the two colours: every gift of that colour on your sleigh goes onto your stacks. The other colour stays on the sleigh.',
    ],
    special: [
      ['Forgot the reindeer?', 'If you roll without a reindeer, you miss your turn. (The host can set the game to remind you instead.)'],
      ['🦌 Reindeer reward', 'Choose any sleigh, yours or another player\'s, and stack all of its gifts. If it was someone else\'s sleigh, you swap sleighs: they get yours, with everything still on it.'],
      ['⭐ Christmas wish', 'Name a colour. Every other player who has that colour in their stacks gives you one gift of it.'],
      ['Roll again', 'If the die brings nothing (both colours are gone from the tree, or nobody has stacked a gift yet for a wish), you simply roll again.'],
    ],
    end: [
      'The game ends when only one colour (or none) is left under the tree, at the end of that turn.',
      'Gifts still on a sleigh do not count. Add up your two biggest stacks: that is your score.',
      'The highest score wins. Equal scores share the win.',
    ],
  },
  de: {
    goal: 'Sammle möglichst viele Geschenke und staple sie nach Farben. Am Ende zählen nur deine zwei größten Stapel, darum lohnt es sich, zwei Farben zu sammeln.',
    pieces: [
      [pic.tree, 'Geschenke unterm Baum', 'Rot, Grün, Blau und Gelb. Von hier kommen die Geschenke.'],
      [pic.sleigh, 'Dein Schlitten', 'Geschenke auf dem Schlitten sind noch nicht sicher: jemand kann dir den ganzen Schlitten wegnehmen.'],
      [pic.stacks, 'Deine Stapel', 'Gestapelte Geschenke gehören dir. Sie zählen am Ende.'],
      [pic.reindeer, 'Rentier', 'Vor dem Würfeln brauchst du ein Rentier. Es gibt ein Rentier weniger als Mitspieler.'],
      [pic.die, 'Der Würfel', 'Vier Seiten zeigen zwei Farben, eine ein Rentier (Rentier-Belohnung), eine einen Stern (Weihnachtswunsch).'],
    ],
    steps: [
      'Kein Rentier vor dir? Nimm zuerst einem anderen Spieler eins weg, zum Beispiel mit **Rentier von Opa nehmen**.',
      'Drück auf **Würfeln**.',
      'Zwei Farben: von jeder Farbe kommt ein Geschenk vom Baum auf deinen Schlitten.',
      'Dann wählst du eine der beiden Farben: alle Geschenke dieser Farbe wandern vom Schlitten auf deine Stapel. Die andere Farbe bleibt auf dem Schlitten.',
    ],
    special: [
      ['Rentier vergessen?', 'Wer ohne Rentier würfelt, setzt diese Runde aus. (Der Gastgeber kann einstellen, dass das Spiel stattdessen erinnert.)'],
      ['🦌 Rentier-Belohnung', 'Such dir einen Schlitten aus, deinen oder einen fremden, und staple alle Geschenke darauf. War es ein fremder Schlitten, tauscht ihr die Schlitten: der andere bekommt deinen, mit allem, was noch darauf liegt.'],
      ['⭐ Weihnachtswunsch', 'Wünsch dir eine Farbe. Jeder andere Spieler, der diese Farbe auf seinen Stapeln hat, gibt dir ein Geschenk davon.'],
      ['Nochmal würfeln', 'Bringt der Würfel nichts (beide Farben sind unterm Baum schon weg, oder beim Wunsch hat noch niemand etwas gestapelt), würfelst du einfach nochmal.'],
    ],
    end: [
      'Das Spiel endet, wenn unterm Baum nur noch eine Farbe (oder gar keine) liegt, am Ende dieses Zuges.',
      'Geschenke auf den Schlitten zählen nicht mehr. Zähl deine zwei größten Stapel zusammen: das sind deine Punkte.',
      'Wer die meisten Punkte hat, gewinnt. Bei Gleichstand gewinnen alle Punktgleichen gemeinsam.',
    ],
  },
};
