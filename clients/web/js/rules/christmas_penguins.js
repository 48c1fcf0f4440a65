// "How to play" Christmas Penguins, for families, in both languages (from
// docs/rules/christmas-penguins.md). Plain text; **bold** marks a word the screen shows on a button.
// Pictures are the board's own art (js/games/cp_art.js).
import { art, picture } from '../games/cp_art.js';

const hex = 'points="27.7,-16 27.7,16 0,32 -27.7,16 -27.7,-16 0,-32"';
const pic = {
  penguin: picture(art.penguin('#1d6fd6')),
  santa: picture(art.santa()),
  hut: picture(art.hut()),
  tree: picture(art.tree()),
  bear: picture(art.bear()),
  stones: picture(`<g transform="translate(-26 -10) scale(.8)">${art.stone('#d62828')}</g><g transform="translate(26 -10) scale(.8)">${art.stone('#1d6fd6')}</g><g transform="translate(0 24) scale(.8)">${art.stone('#2a9d3f')}</g>`),
  floe: `<svg class="rs-floe" viewBox="-32 -32 64 64" aria-hidden="true"><polygon ${hex}></polygon></svg>`,
  // Two floes with open water between them, the builder's colour on its buoys.
  channel: `<svg class="rs-floe" viewBox="-32 -32 124 64" aria-hidden="true"><polygon ${hex}></polygon><polygon transform="translate(60 0)" ${hex}></polygon>
    <line x1="30" y1="-17" x2="30" y2="17" stroke="#2f6f9f" stroke-width="9" stroke-linecap="round"></line>
    <path d="M30 -12 q2.5 6 0 12 t0 12" fill="none" stroke="#9cc9e6" stroke-width="1.6"></path>
    <circle cx="30" cy="-18" r="3" fill="#d62828" stroke="#fff"></circle><circle cx="30" cy="18" r="3" fill="#d62828" stroke="#fff"></circle></svg>`,
};

export default {
  icon: '🐧',
  en: {
    goal: 'You are cheeky penguins who steal presents from under Santa\'s tree. One player is Santa and tries to catch the penguins. Whoever is caught becomes the new Santa. At the end the penguin with the most presents wins; the player who is Santa then cannot win.',
    pieces: [
      [pic.penguin, 'Penguin', 'Each player has one, in their colour, and starts with 2 presents of that colour.'],
      [pic.santa, 'Santa', 'One player plays Santa. His penguin waits beside the ice.'],
      [pic.hut, 'Santa\'s hut', 'When Santa hands his role on, his penguin starts again from here.'],
      [pic.tree, 'The tree', 'The presents lie under it. Santa may never step onto the tree\'s floe.'],
      [pic.bear, 'Polar bear', 'Moves only on a 1. Penguins run away from him.'],
      [pic.stones, 'Stones', 'Red, blue and green. Step on one to pick it up.'],
      [pic.channel, 'Water channel', 'Open water between two floes. Nobody can cross it.'],
    ],
    steps: [
      'If you like, build water channels first. Then press **Roll the die**.',
      'Move your figure exactly that many floes: your figure gets a gold ring and the floes it can reach get a gold edge: just tap one. You may not jump over figures, cross water channels or use a floe twice.',
      'If you cannot move that far, you stay where you are.',
      'Afterwards you may build channels again. Then press **End my turn**.',
    ],
    special: [
      ['🎄 At the tree', 'A penguin that reaches the tree steals one present of any colour. Then Santa puts the tree somewhere else, far away from himself.'],
      ['Pushing', 'Land on another penguin and you push it onto a neighbouring floe; you choose where.'],
      ['🎅 Caught!', 'When Santa and a penguin meet on one floe, Santa takes a present from that player, and they swap: the caught player is now Santa, and the old Santa\'s penguin starts again at the hut.'],
      ['✋ "Stop!"', 'Penguins with a stone may press **Stop!** whenever the button appears, even when it is not their move, and play the stone at once. A played stone goes to Santa, who puts it back on the ice.', [
        'Red: swap your penguin with another penguin.',
        'Blue: swap with any figure, even Santa or the bear.',
        'Green: move a whole floe, with everything on it.',
      ]],
      ['🐻‍❄️ The polar bear', 'If you roll a 1, you also move the bear one floe. If he reaches a penguin, that penguin drops a present and flees.'],
      ['Water channels', 'Everyone has 3. Click a floe, then its neighbour: the channel goes between them. It may not cut the ice in two.'],
    ],
    end: [
      'The game ends when the last present under the tree is stolen (or after the last round).',
      'Every present is 1 point. One bonus point for the most presents of one colour, or for the most different colours.',
      'The most points wins, but whoever is Santa at the end cannot win.',
    ],
  },
  de: {
    goal: 'Ihr seid freche Pinguine, die dem Weihnachtsmann die Geschenke unterm Baum stibitzen. Ein Spieler ist der Weihnachtsmann und versucht, die Pinguine zu erwischen. Wer erwischt wird, ist der neue Weihnachtsmann. Am Ende gewinnt der Pinguin mit den meisten Geschenken; wer dann Weihnachtsmann ist, kann nicht gewinnen.',
    pieces: [
      [pic.penguin, 'Pinguin', 'Jeder Spieler hat einen, in seiner Farbe, und fängt mit 2 Geschenken in seiner Farbe an.'],
      [pic.santa, 'Weihnachtsmann', 'Ein Spieler spielt den Weihnachtsmann. Sein Pinguin wartet neben dem Eis.'],
      [pic.hut, 'Hütte', 'Gibt der Weihnachtsmann seine Rolle ab, startet sein Pinguin hier neu.'],
      [pic.tree, 'Der Baum', 'Darunter liegen die Geschenke. Der Weihnachtsmann darf nie auf die Scholle mit dem Baum.'],
      [pic.bear, 'Eisbär', 'Zieht nur bei einer 1. Pinguine laufen vor ihm davon.'],
      [pic.stones, 'Steine', 'Rot, Blau, Grün. Wer auf einem stehen bleibt, darf ihn nehmen.'],
      [pic.channel, 'Wasserrinne', 'Offenes Wasser zwischen zwei Schollen. Da kommt keiner hinüber.'],
    ],
    steps: [
      'Wenn du magst, bau zuerst Wasserrinnen. Dann auf **Würfeln** drücken.',
      'Zieh deine Figur genau so viele Schollen weit: deine Figur bekommt einen goldenen Ring, die Schollen, die sie erreicht, einen goldenen Rand: einfach eine antippen. Über Figuren springen, durch Wasserrinnen gehen oder eine Scholle zweimal betreten geht nicht.',
      'Kommst du nicht so weit, bleibst du stehen.',
      'Danach darfst du wieder Rinnen bauen. Dann auf **Zug beenden** drücken.',
    ],
    special: [
      ['🎄 Am Baum', 'Ein Pinguin, der den Baum erreicht, stibitzt ein Geschenk in einer Farbe seiner Wahl. Dann stellt der Weihnachtsmann den Baum woanders hin, weit weg von sich.'],
      ['Schubsen', 'Landest du auf einem anderen Pinguin, schubst du ihn auf eine Nachbarscholle; du bestimmst, wohin.'],
      ['🎅 Erwischt!', 'Treffen Weihnachtsmann und Pinguin auf einer Scholle zusammen, nimmt der Weihnachtsmann diesem Spieler ein Geschenk ab, und sie tauschen: der Erwischte ist jetzt der Weihnachtsmann, der Pinguin des alten Weihnachtsmanns fängt an der Hütte neu an.'],
      ['✋ „Stopp!“', 'Pinguine mit einem Stein dürfen auf **Stopp!** drücken, sobald der Knopf erscheint, auch wenn gerade ein anderer zieht, und den Stein sofort spielen. Ein gespielter Stein geht an den Weihnachtsmann, der ihn wieder aufs Eis legt.', [
        'Rot: dein Pinguin tauscht mit einem anderen Pinguin den Platz.',
        'Blau: Platztausch mit irgendeiner Figur, sogar mit Weihnachtsmann oder Eisbär.',
        'Grün: eine ganze Scholle samt allem darauf verschieben.',
      ]],
      ['🐻‍❄️ Der Eisbär', 'Würfelst du eine 1, ziehst du danach auch den Eisbären eine Scholle weit. Trifft er einen Pinguin, lässt dieser ein Geschenk fallen und flieht.'],
      ['Wasserrinnen', 'Jeder hat 3 Stück. Eine Scholle anklicken, dann ihre Nachbarscholle: die Rinne kommt dazwischen. Sie darf das Eis nicht in zwei Teile schneiden.'],
    ],
    end: [
      'Das Spiel endet, wenn das letzte Geschenk unterm Baum stibitzt ist (oder nach der letzten Runde).',
      'Jedes Geschenk zählt 1 Punkt. Einen Extrapunkt gibt es für die meisten Geschenke einer Farbe oder für die meisten verschiedenen Farben.',
      'Die meisten Punkte gewinnen, aber wer am Ende Weihnachtsmann ist, kann nicht gewinnen.',
    ],
  },
};
