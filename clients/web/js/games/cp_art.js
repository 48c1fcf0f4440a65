// Christmas Penguins' art: the pieces in one warm style, as SVG. The board (christmas_penguins.js)
// and the rules sheet (js/rules/christmas_penguins.js) both draw with it, so the sheet loads these
// pictures without the board.

import { markPath } from '../marks.js';

// Each piece is drawn in a box of about -50..50 around its centre and scaled where it stands.
// `name` (a colour's name: red, blue, …) adds that colour's shape (marks.js), so that a penguin,
// a stone or a present is told apart without its colour; the rules sheet draws them without.
// `big`: two figures share the floe and stand smaller side by side; their shapes grow so that on a
// phone's largest ice they stay big enough to see.
const dark = '#1f2a36';
export const art = {
  penguin: (c, name, big = false) => `<ellipse cx="0" cy="42" rx="30" ry="8" fill="#0b2a4033"></ellipse>
    <circle r="44" fill="${c}" stroke="#fff" stroke-width="6"></circle>
    <ellipse cx="-24" cy="8" rx="8" ry="20" fill="${dark}" transform="rotate(18 -24 8)"></ellipse>
    <ellipse cx="24" cy="8" rx="8" ry="20" fill="${dark}" transform="rotate(-18 24 8)"></ellipse>
    <ellipse cx="0" cy="2" rx="23" ry="36" fill="${dark}"></ellipse>
    <ellipse cx="0" cy="12" rx="15" ry="23" fill="#fff"></ellipse>
    <circle cx="-7" cy="-17" r="8" fill="#fff"></circle><circle cx="7" cy="-17" r="8" fill="#fff"></circle>
    <circle cx="-6" cy="-18" r="3.2" fill="${dark}"></circle><circle cx="6" cy="-18" r="3.2" fill="${dark}"></circle>
    <path d="M-6 -11 L6 -11 L0 -3 Z" fill="#f59e0b"></path>
    <path d="M-19 -4 Q0 6 19 -4 L19 3 Q0 13 -19 3 Z" fill="${c}" stroke="#fff" stroke-width="2"></path>
    <ellipse cx="-9" cy="37" rx="8" ry="4" fill="#f59e0b"></ellipse><ellipse cx="9" cy="37" rx="8" ry="4" fill="#f59e0b"></ellipse>
    ${name ? markPath(name, big ? { y: 13, size: 40, fill: c, stroke: dark, width: 3.2 } : { y: 16, size: 30, fill: c, stroke: dark, width: 2.8 }) : ''}`,
  // The ring is the colour of the player who is Santa (red when no one is, as in the panels).
  // With `name`, the Santa player's shape on a badge at the ring.
  santa: (ring = '#b3261e', name, big = false) => `<ellipse cx="0" cy="42" rx="30" ry="8" fill="#0b2a4033"></ellipse>
    <circle r="44" fill="#fff" stroke="${ring}" stroke-width="6"></circle>
    <path d="M-27 38 Q-29 2 0 0 Q29 2 27 38 Z" fill="#c62828"></path>
    <rect x="-27" y="22" width="54" height="7" fill="${dark}"></rect><rect x="-5" y="20.5" width="10" height="10" rx="1.5" fill="#f2c14e"></rect>
    <circle cx="0" cy="-12" r="15" fill="#f6cfae"></circle>
    <path d="M-17 -12 Q-19 16 0 20 Q19 16 17 -12 Q9 -2 0 -4 Q-9 -2 -17 -12 Z" fill="#fff" stroke="#d9d9d9" stroke-width="1.5"></path>
    <circle cx="-6" cy="-15" r="2.2" fill="${dark}"></circle><circle cx="6" cy="-15" r="2.2" fill="${dark}"></circle>
    <circle cx="0" cy="-9" r="3.2" fill="#e8998d"></circle>
    <path d="M-16 -23 Q-6 -54 22 -40 L15 -23 Z" fill="#c62828"></path>
    <rect x="-19" y="-28" width="38" height="8" rx="4" fill="#fff" stroke="#d9d9d9" stroke-width="1"></rect>
    <circle cx="23" cy="-40" r="5.5" fill="#fff" stroke="#d9d9d9" stroke-width="1"></circle>
    ${name ? (big
      ? `<circle cx="29" cy="25" r="25" fill="#fff" stroke="${ring}" stroke-width="3.5"></circle>${markPath(name, { x: 29, y: 25.5, size: 38, fill: ring, stroke: dark, width: 2.6 })}`
      : `<circle cx="31" cy="27" r="20" fill="#fff" stroke="${ring}" stroke-width="3"></circle>${markPath(name, { x: 31, y: 27.5, size: 30, fill: ring, stroke: dark, width: 2.2 })}`) : ''}`,
  bear: () => `<ellipse cx="0" cy="42" rx="30" ry="8" fill="#0b2a4033"></ellipse>
    <circle r="44" fill="#bcd9ea" stroke="#4f7894" stroke-width="6"></circle>
    <circle cx="-22" cy="-20" r="10" fill="#fbfbf5" stroke="#8aa4b6" stroke-width="3"></circle><circle cx="-22" cy="-20" r="4.5" fill="#e3cfc4"></circle>
    <circle cx="22" cy="-20" r="10" fill="#fbfbf5" stroke="#8aa4b6" stroke-width="3"></circle><circle cx="22" cy="-20" r="4.5" fill="#e3cfc4"></circle>
    <ellipse cx="0" cy="2" rx="29" ry="26" fill="#fbfbf5" stroke="#8aa4b6" stroke-width="3"></ellipse>
    <ellipse cx="0" cy="13" rx="14" ry="11" fill="#fff" stroke="#cfdbe3" stroke-width="2"></ellipse>
    <circle cx="-11" cy="-4" r="3.6" fill="${dark}"></circle><circle cx="11" cy="-4" r="3.6" fill="${dark}"></circle>
    <ellipse cx="0" cy="7" rx="6" ry="4.5" fill="${dark}"></ellipse>
    <path d="M0 11 V16 M-5 17 Q0 21 5 17" stroke="${dark}" stroke-width="2" fill="none" stroke-linecap="round"></path>`,
  hut: () => `<rect x="-25" y="-6" width="50" height="34" fill="#a0612f" stroke="#5e3219" stroke-width="2.5"></rect>
    <path d="M-25 4 H25 M-25 14 H25 M-25 24 H25" stroke="#6f3b1a" stroke-width="1.6"></path>
    <rect x="-7" y="9" width="14" height="19" rx="2" fill="#5e3219"></rect><circle cx="4" cy="19" r="1.4" fill="#f2c14e"></circle>
    <rect x="12" y="1" width="9" height="9" fill="#ffd76a" stroke="#5e3219" stroke-width="1.5"></rect>
    <rect x="13" y="-34" width="8" height="16" fill="#7a3b1e"></rect>
    <path d="M-35 -3 L0 -34 L35 -3 Z" fill="#b23a2e" stroke="#7a1f18" stroke-width="2" stroke-linejoin="round"></path>
    <path d="M-35 -3 L0 -34 L35 -3 L28 -3 Q20 -9 12 -4 Q4 -10 -4 -4 Q-12 -10 -20 -4 Q-26 -8 -35 -3 Z" fill="#fff" stroke="#c9dbe6" stroke-width="1.5" stroke-linejoin="round"></path>`,
  tree: () => `<rect x="-5" y="20" width="10" height="12" fill="#7a4a26"></rect>
    <path d="M0 -14 L-30 24 L30 24 Z M0 -30 L-24 4 L24 4 Z M0 -44 L-18 -14 L18 -14 Z" fill="#1f7a3a" stroke="#145a2a" stroke-width="2" stroke-linejoin="round"></path>
    <circle cx="-9" cy="14" r="3.2" fill="#d62828"></circle><circle cx="11" cy="8" r="3.2" fill="#f2c14e"></circle>
    <circle cx="-5" cy="-6" r="3" fill="#f2c14e"></circle><circle cx="8" cy="-20" r="2.8" fill="#d62828"></circle>
    <path d="M0 -53 L3 -46 L10 -46 L4.5 -41.5 L6.5 -34.5 L0 -38.5 L-6.5 -34.5 L-4.5 -41.5 L-10 -46 L-3 -46 Z" fill="#f5c518" stroke="#b8860b" stroke-width="1.2"></path>
    ${gift(-30, 22, 16, 13, '#d62828')}${gift(16, 24, 15, 11, '#1d6fd6')}${gift(-12, 30, 13, 9, '#e0a100')}`,
  // An event stone: a round, glossy pebble in its colour.
  // With `name`, its shape engraved in white on top.
  stone: (c, name) => `<ellipse cx="1" cy="6" rx="22" ry="9" fill="#0b2a4040"></ellipse>
    <ellipse cx="0" cy="0" rx="21" ry="16" fill="${c}" stroke="#00000055" stroke-width="3"></ellipse>
    ${name ? markPath(name, { y: 0.5, size: 25, fill: '#fff', stroke: dark, width: 2.4 }) : '<ellipse cx="-7" cy="-6" rx="8" ry="4.5" fill="#ffffffaa"></ellipse>'}`,
  gift: (c) => gift(-16, -14, 32, 28, c),
  // The gift alone, filling its picture (side panel); with `name`, its shape on the ribbons' knot.
  giftPicture: (c, name) => `<svg class="cp-pic" viewBox="-20 -24 40 44" aria-hidden="true">${gift(-16, -14, 32, 28, c)}${name ? markPath(name, { y: 0, size: 17, fill: c, stroke: '#fff6d5', width: 2.4 }) : ''}</svg>`,
};
function gift(x, y, w, h, c) {
  return `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="2" fill="${c}" stroke="#00000040" stroke-width="1.5"></rect>
    <path d="M${x + w / 2} ${y} V${y + h} M${x} ${y + h / 2} H${x + w}" stroke="#fff6d5" stroke-width="${Math.max(2, w / 7)}"></path>
    <path d="M${x + w / 2} ${y} q-${w / 4} -${h / 3} -${w / 4} 0 Z M${x + w / 2} ${y} q${w / 4} -${h / 3} ${w / 4} 0 Z" fill="none" stroke="#fff6d5" stroke-width="1.8"></path>`;
}
// A piece as a small stand-alone picture (the rules sheet, the side panel).
export function picture(inner, cls = 'cp-pic') {
  return `<svg class="${cls}" viewBox="-50 -58 100 108" aria-hidden="true">${inner}</svg>`;
}
