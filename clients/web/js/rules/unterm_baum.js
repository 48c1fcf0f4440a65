// "How to play" Unterm Baum, for families, in both languages (from docs/rules/unterm-baum.md).
// Plain text; **bold** marks a word the screen shows on a button. Pictures are the board's own art.
import { backSvg, motifSvg } from '../games/ub_motifs.js';

const card = `<span class="ub-card full rs-card" aria-hidden="true"><span class="ub-flip"><span class="ub-face ub-down">${backSvg()}</span></span></span>`;
const free = '<span class="ub-card free rs-card" aria-hidden="true"></span>';
const mini = (motif) => `<span class="ub-rs-mini">${motifSvg(motif)}</span>`;
const pic = {
  tree: `<span aria-hidden="true">🎄</span>${card}${card}${card}`,
  card,
  wish: `<span aria-hidden="true">📝</span><span class="rs-wish" aria-hidden="true">${mini('teddy_bear')}${mini('toy_train')}${mini('woolly_scarf')}</span>`,
  table: `<span class="rs-row" aria-hidden="true">${card}${free}${card}</span>`,
};

export default {
  icon: '🎁',
  en: {
    goal: 'A memory game. You secretly write a wish list for your family, memorise it, and then try to find exactly those presents among the face-down cards under the tree, and put them in the right place on your own table.',
    pieces: [
      [pic.tree, 'The tree', 'All presents lie here face down. Nobody knows which is which.'],
      [pic.wish, 'Your wish list', 'One row for each family member. You only see it at the start, for a short while.'],
      [pic.table, 'Your table', 'The same rows as your wish list. Presents you collect go here.'],
      [pic.card, 'A present', 'Face down, you see only the wrapping paper.'],
    ],
    before: [
      'Write your wish list: put each present in the row of the family member who wishes for it (click a present, then a free place). Every row needs at least one. Or simply keep the suggestion. Then press **Done: fold my wish list**.',
      'Memorise! Everyone sees their own list for half a minute. Then it is folded shut, and nobody sees it again until the end, not even you.',
    ],
    steps: [
      '**Look at a card**: click any face-down card, under the tree or on any table. Everybody sees it for a few seconds.',
      '**Move a card**: click a card, then a free place. From the tree to a table (yours or someone else\'s), from one table to another, or from a table back to the tree. The card stays face down.',
      '**Rearrange my table** as often as you like, without looking at the cards.',
      'Each of the first two only once per turn. Then press **End my turn**.',
    ],
    special: [
      ['Memory counts', 'Watch closely: which card was looked at, and where did it go?'],
      ['How to score', 'At the end every present on your table scores: 4 points for the right family member at the right place, 3 for the right family member at another place, 1 for any other present. So fetch the presents from your own wish list, and put them in the right rows. But any present is worth a point, and the game ends as soon as one table is full: a quick full table can win.'],
      ['The last card', 'You may not put the card that would fill another player\'s table. Only its owner may do that.'],
      ['Play fair', 'No notes and no screenshots of your wish list, please.'],
    ],
    end: [
      'When someone fills their own table with their own move, the game ends at once.',
      'Now all wish lists are opened. For each card on your table: 4 points in the right row at the right place, 3 points in the right row at another place, 1 point otherwise.',
      'The most points wins.',
    ],
  },
  de: {
    goal: 'Ein Gedächtnisspiel. Du schreibst heimlich eine Wunschliste für deine Familie, prägst sie dir ein und suchst dann genau diese Geschenke unter den verdeckten Karten unterm Baum. Sie kommen an den richtigen Platz auf deinem Tisch.',
    pieces: [
      [pic.tree, 'Der Baum', 'Hier liegen alle Geschenke verdeckt. Keiner weiß, welches welches ist.'],
      [pic.wish, 'Deine Wunschliste', 'Eine Reihe für jedes Familienmitglied. Du siehst sie nur am Anfang, für kurze Zeit.'],
      [pic.table, 'Dein Tisch', 'Dieselben Reihen wie auf der Wunschliste. Hierher kommen deine gesammelten Geschenke.'],
      [pic.card, 'Ein Geschenk', 'Verdeckt siehst du nur das Geschenkpapier.'],
    ],
    before: [
      'Schreib deine Wunschliste: leg jedes Geschenk in die Reihe des Familienmitglieds, das es sich wünscht (erst ein Geschenk anklicken, dann einen freien Platz). Jede Reihe braucht mindestens eins. Oder nimm einfach den Vorschlag. Dann auf **Fertig: Wunschliste zuklappen** drücken.',
      'Einprägen! Alle sehen eine halbe Minute lang ihre eigene Liste. Dann wird sie zugeklappt, und bis zum Schluss sieht sie keiner mehr, auch du nicht.',
    ],
    steps: [
      '**Karte ansehen**: klick eine verdeckte Karte an, unterm Baum oder auf einem Tisch. Alle sehen sie ein paar Sekunden lang.',
      '**Karte verschieben**: erst eine Karte anklicken, dann einen freien Platz. Vom Baum auf einen Tisch (deinen oder einen fremden), von einem Tisch auf einen anderen oder von einem Tisch zurück unter den Baum. Die Karte bleibt verdeckt.',
      '**Meinen Tisch umräumen**, so oft du willst, ohne die Karten anzusehen.',
      'Ansehen und Verschieben je einmal pro Zug. Dann auf **Zug beenden** drücken.',
    ],
    special: [
      ['Gut aufpassen', 'Welche Karte wurde angesehen, und wohin ist sie gewandert?'],
      ['So gibt es Punkte', 'Am Schluss zählt jedes Geschenk auf deinem Tisch: 4 Punkte für das richtige Familienmitglied am richtigen Platz, 3 für das richtige Familienmitglied an einem anderen Platz, 1 für jedes andere Geschenk. Hol dir also die Geschenke von deiner Wunschliste und leg sie in die richtigen Reihen. Aber jedes Geschenk bringt einen Punkt, und das Spiel ist aus, sobald ein Tisch voll ist: wer schnell einen vollen Tisch hat, kann gewinnen.'],
      ['Die letzte Karte', 'Die Karte, die den Tisch eines anderen voll machen würde, darfst du nicht hinlegen. Das darf nur er selbst.'],
      ['Ehrlich spielen', 'Bitte keine Notizen und keine Bildschirmfotos der Wunschliste.'],
    ],
    end: [
      'Sobald jemand mit seinem eigenen Zug seinen eigenen Tisch voll macht, ist das Spiel sofort aus.',
      'Jetzt werden alle Wunschlisten aufgeklappt. Für jede Karte auf deinem Tisch: 4 Punkte in der richtigen Reihe am richtigen Platz, 3 Punkte in der richtigen Reihe an einem anderen Platz, sonst 1 Punkt.',
      'Wer die meisten Punkte hat, gewinnt.',
    ],
  },
};
