// Happy Holidays' art: one warm style, drawn as inline SVG and CSS (css/happy_holidays.css). The
// board (happy_holidays.js) and the rules sheet (js/rules/happy_holidays.js) both draw with it, so
// the sheet loads these pictures without the board.
import { markOf, markPath, shapes } from '../marks.js';

// The gift colours in the order the board lists them, and how each is painted.
export const colours = ['red', 'green', 'blue', 'yellow'];
export const paint = { red: '#d62828', green: '#2a9d3f', blue: '#1d6fd6', yellow: '#f2c500' };

// The die's two faces that are not colours.
export const special = (face) => face === 'reindeer_reward' || face === 'christmas_wish';

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

// A face of the LEGO die: two colours (a 2×2 plate, half and half), each half with its colour's
// shape (marks.js) between its studs, the reindeer or the star; a plain blank face before the
// first roll (no studs: four of them looked like a 4).
export function dieSvg(face) {
  const faceShape = 'M14 4h58a10 10 0 0 1 10 10v58a10 10 0 0 1-10 10H14A10 10 0 0 1 4 72V14A10 10 0 0 1 14 4z';
  let inner;
  if (face && !special(face)) {
    const [a, b] = face.split('_');
    inner = `<path style="fill:${paint[a]}" d="M14 4h29v78H14A10 10 0 0 1 4 72V14A10 10 0 0 1 14 4z"/>
      <path style="fill:${paint[b]}" d="M43 4h29a10 10 0 0 1 10 10v58a10 10 0 0 1-10 10H43z"/>
      <g class="studs">${stud(24, 20)}${stud(24, 66)}${stud(62, 20)}${stud(62, 66)}</g>
      ${markPath(a, { x: 24, y: 43, size: 24, fill: '#fff', stroke: '#1d2a24', width: 2.5, cls: 'mark die-mark' })}${markPath(b, { x: 62, y: 43, size: 24, fill: '#fff', stroke: '#1d2a24', width: 2.5, cls: 'mark die-mark' })}`;
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

// One gift box in a colour: ribbon and bow are CSS (.gb); where the ribbons cross, a sticker in
// the colour's shape (marks.js), so that a red box and a green one differ without their colours.
export function giftBox(colour, attrs = '') {
  return `<i class="gb gb-${colour}" style="--g:${paint[colour]}" ${attrs}><svg class="gb-mark" viewBox="-11 -11 22 22" aria-hidden="true" focusable="false"><path d="${shapes[markOf[colour]]}"/></svg></i>`;
}

