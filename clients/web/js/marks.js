// Colour-blind safe pieces: every colour that carries meaning has a shape of its own, drawn with it
// wherever the colour is told apart (a seat, a penguin, a present, an event stone, a Happy Holidays
// gift or die face). A family member who cannot tell red from green still tells a heart from a
// tree: red is always the heart, in every game and on every screen. Shapes, not letters: the
// colours' initials clash in German (Grün, Gelb) and would change with the language.
//
// The seats' colours are the presents' colours of Christmas Penguins, in the same order (seat 0 is
// red, seat 1 blue, …; state.js seatColours), so a penguin, its player's presents and its player's
// dot next to the name all wear the same shape.

// Each shape in a box of -10..10 around its centre; the edge stays about a unit inside the box, so
// an outline fits.
function starPath(points, outer, inner) {
  const d = [];
  for (let i = 0; i < points * 2; i++) {
    const r = i % 2 ? inner : outer;
    const a = (Math.PI / points) * i - Math.PI / 2;
    d.push(`${(r * Math.cos(a)).toFixed(2)} ${(r * Math.sin(a)).toFixed(2)}`);
  }
  return `M${d.join(' L')} Z`;
}
export const shapes = {
  heart: 'M0 8.6 C-10.4 1.8 -10 -4.4 -7.6 -7 C-5 -9.6 -1.6 -8.6 0 -5.4 C1.6 -8.6 5 -9.6 7.6 -7 C10 -4.4 10.4 1.8 0 8.6 Z',
  diamond: 'M0 -9.6 L8 0 L0 9.6 L-8 0 Z',
  tree: 'M0 -9.6 L9.2 8 L-9.2 8 Z',
  star: starPath(5, 9.8, 4.2),
  square: 'M-7.4 -7.4 H7.4 V7.4 H-7.4 Z',
  circle: 'M-8 0 A8 8 0 1 0 8 0 A8 8 0 1 0 -8 0 Z',
};

// Which shape each colour wears (Christmas: the red heart, the green fir, the yellow star).
export const markOf = { red: 'heart', blue: 'diamond', green: 'tree', yellow: 'star', purple: 'square', orange: 'circle' };

// The colour name of seat 0..5 (the order of state.js seatColours).
export const seatColourNames = ['red', 'blue', 'green', 'yellow', 'purple', 'orange'];
export const seatColourName = (seat) => seatColourNames[((seat % 6) + 6) % 6];

// The attributes every coloured piece carries, so that a test (and a screen reader's inspector)
// can check that no two colours share a shape.
export const markAttrs = (colour) => `data-colour="${colour}" data-mark="${markOf[colour] || ''}"`;

// The shape as a path inside another SVG, centred on (x, y) and `size` units across.
export function markPath(colour, { x = 0, y = 0, size = 20, fill = '#fff', stroke = '#1f2a36', width = 2.2, cls = 'mark' } = {}) {
  const k = size / 20;
  return `<path class="${cls}" ${markAttrs(colour)} d="${shapes[markOf[colour]] || shapes.circle}" transform="translate(${x} ${y}) scale(${k.toFixed(3)})"
    fill="${fill}" stroke="${stroke}" stroke-width="${(width / k).toFixed(2)}" stroke-linejoin="round"></path>`;
}

// The shape as a small picture of its own, one text line high (in a chip, next to a name).
// `fill`: its colour (the colour's own, or the ink of a chip); `edge`: its outline.
export function markSvg(colour, { fill = 'currentColor', edge = 'none', cls = 'mark' } = {}) {
  return `<svg class="${cls}" viewBox="-11 -11 22 22" aria-hidden="true" focusable="false" ${markAttrs(colour)}><path d="${shapes[markOf[colour]] || shapes.circle}" fill="${fill}" stroke="${edge}" stroke-width="1.6" stroke-linejoin="round"></path></svg>`;
}

// A seat's dot next to a name: the seat's shape in its colour, with a white rim and a hairline
// around it (as the round dots had).
export function seatDot(seat, colour) {
  const name = seatColourName(seat);
  const d = shapes[markOf[name]];
  return `<span class="dot seat-mark" ${markAttrs(name)} style="--c:${colour}"><svg viewBox="-12 -12 24 24" aria-hidden="true" focusable="false">
    <path d="${d}" fill="none" stroke="#0000004d" stroke-width="5.4" stroke-linejoin="round"></path>
    <path d="${d}" fill="${colour}" stroke="#fff" stroke-width="3" stroke-linejoin="round"></path></svg></span>`;
}
