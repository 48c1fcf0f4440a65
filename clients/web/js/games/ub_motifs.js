// Unterm Baum's card art, drawn here as inline SVG: one card back (red wrapping paper, a gold
// ribbon and a bow) and a picture for each of the 160 motifs of the catalogue (engine/unterm_baum:
// the wire ids, in catalogue order). Every motif has its own small drawing on a pale background;
// none uses the back's paper, and tests/browser/unterm_baum.test.mjs renders them all and checks
// that no two pictures are alike and none looks like the back.

// The catalogue in the engine's order (the wire ids).
export const motifIds = `teddy_bear rocking_horse toy_train jigsaw_puzzle snow_globe woolly_scarf knitted_gloves
bobble_hat board_game kite yo_yo spinning_top skateboard roller_skates ice_skates sledge skis football basketball
tennis_racket fishing_rod telescope microscope chemistry_set paint_box crayons sketchbook diary storybook comic_book
cookbook atlas globe alarm_clock wristwatch camera headphones radio record_player guitar violin flute drum_kit
harmonica xylophone music_box doll_house rag_doll puppet toy_robot racing_car fire_engine toy_plane sailing_ship
building_blocks marbles playing_cards dominoes chess_set magic_kit kaleidoscope bubble_wand water_pistol beach_ball
umbrella raincoat wellies slippers dressing_gown pyjamas woolly_socks jumper cardigan necktie handbag wallet backpack
suitcase sunglasses perfume bath_salts soap_set hairbrush hand_mirror necklace bracelet earrings silver_ring brooch
hair_clip scented_candle lantern fairy_lights flower_vase teapot mug tea_set coffee_grinder waffle_iron cake_tin
gingerbread marzipan chocolates stollen candy_cane honey_jar jam_jar fruit_basket nutcracker cuckoo_clock plant_pot
bonsai bird_feeder watering_can garden_gnome toolbox claw_hammer screwdriver_set torch pocket_knife compass binoculars
thermos_flask picnic_blanket hammock tent sleeping_bag bicycle bike_bell helmet scooter snowboard hockey_stick
goldfish_bowl hamster_cage dog_lead cat_toy cushion quilt hot_water_bottle earmuffs mittens beanie fountain_pen
pencil_case calculator tablet_computer game_console walkie_talkies remote_car train_ticket theatre_tickets
cinema_voucher spa_voucher photo_album picture_frame wall_calendar poster origami_paper gift_voucher`.split(/\s+/);

import { esc } from '../util.js';

// Colours: warm and saturated enough to read at 40 px.
const K = {
  ink: '#3a2a1e', red: '#c8372d', dred: '#8e1f18', green: '#2f7d4f', dgreen: '#1d5535', gold: '#e0a526',
  blue: '#3b6fb6', lblue: '#cfe6f7', brown: '#8a5a34', tan: '#d9b48a', pink: '#e88aae', purple: '#7a4fa3',
  grey: '#9a9a9a', silver: '#c9ced3', white: '#fffdf6', orange: '#e67e22', teal: '#2a9d8f', skin: '#f2c9a0',
  yellow: '#f4d03f', cream: '#f7ecd2', black: '#33302c', lilac: '#c9b3e6', lgreen: '#8fcf8f', amber: '#e8a13a',
};

// Tiny drawing words (viewBox 0 0 48 48; the outline colour and width come from the group).
const r = (x, y, w, h, f, rx = 0, extra = '') => `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="${rx}" fill="${f}"${extra}/>`;
const c = (cx, cy, rr, f, extra = '') => `<circle cx="${cx}" cy="${cy}" r="${rr}" fill="${f}"${extra}/>`;
const e = (cx, cy, rx, ry, f, extra = '') => `<ellipse cx="${cx}" cy="${cy}" rx="${rx}" ry="${ry}" fill="${f}"${extra}/>`;
const p = (d, f = 'none', extra = '') => `<path d="${d}" fill="${f}"${extra}/>`;
const g = (pts, f) => `<polygon points="${pts}" fill="${f}"/>`;
const l = (x1, y1, x2, y2, w = 0, col = '') => `<path d="M${x1} ${y1}L${x2} ${y2}" fill="none"${w ? ` stroke-width="${w}"` : ''}${col ? ` stroke="${col}"` : ''}/>`;
const dot = (cx, cy, rr = 1.3, f = K.ink) => `<circle cx="${cx}" cy="${cy}" r="${rr}" fill="${f}" stroke="none"/>`;
const thick = (d, w, col) => `<path d="${d}" fill="none" stroke="${col}" stroke-width="${w}"/>`;

// Shared shapes, each used by a few motifs with its own details.
const book = (fill, spine, emblem) => r(13, 8, 23, 32, fill, 2) + r(13, 8, 5, 32, spine, 1) + emblem;
const ticket = (fill, emblem) => p('M6 14H42V20A4 4 0 0 0 42 28V34H6V28A4 4 0 0 0 6 20Z', fill) + l(14, 14, 14, 34, 1) + emblem;
const boot = (fill) => p('M13 8H25V25H35Q40 25 40 30V34H13Z', fill) + l(13, 14, 25, 14, 1);
const glove = (x, fill) => p(`M${x} 40V22Q${x} 19 ${x + 2} 19V11Q${x + 2} 9 ${x + 4} 9T${x + 6} 11V18V9Q${x + 6} 7 ${x + 8} 7T${x + 10} 9V18V10Q${x + 10} 8 ${x + 12} 8T${x + 14} 10V20L${x + 17} 17Q${x + 19} 16 ${x + 20} 18L${x + 15} 30V40Z`, fill)
  + r(x, 35, 15, 5, K.white);
const jar = (fill, lid) => r(13, 16, 22, 24, fill, 4) + r(12, 10, 24, 7, lid, 2);
const sweater = (fill) => p('M16 8L8 14L11 24L15 22V40H33V22L37 24L40 14L32 8Q24 13 16 8Z', fill);
const wheel = (cx, cy, rr = 4) => c(cx, cy, rr, K.black) + dot(cx, cy, 1.3, K.silver);
const note = (x, y) => p(`M${x} ${y}V${y - 9}L${x + 6} ${y - 11}V${y - 2}`, 'none', ' stroke-width="1.6"') + e(x - 1.5, y, 2.2, 1.7, K.ink) + e(x + 4.5, y - 2, 2.2, 1.7, K.ink);
const star = (cx, cy, s, f) => g([0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => {
  const a = -Math.PI / 2 + i * Math.PI / 5;
  const rr = i % 2 ? s * 0.45 : s;
  return `${(cx + rr * Math.cos(a)).toFixed(1)},${(cy + rr * Math.sin(a)).toFixed(1)}`;
}).join(' '), f);
const heart = (x, y, s, f) => p(`M${x} ${y + s}C${x - 2 * s} ${y - s / 4} ${x - s} ${y - 1.4 * s} ${x} ${y - s / 3}C${x + s} ${y - 1.4 * s} ${x + 2 * s} ${y - s / 4} ${x} ${y + s}Z`, f);
const mountain = (x, y, w, h) => r(x, y, w, h, K.lblue) + g(`${x},${y + h} ${x + w * 0.35},${y + h * 0.35} ${x + w * 0.6},${y + h * 0.7} ${x + w * 0.75},${y + h * 0.5} ${x + w},${y + h}`, K.green) + dot(x + w * 0.78, y + h * 0.25, 2, K.yellow);

// One drawing per motif.
const art = {
  teddy_bear: () => c(15, 12, 5, K.brown) + c(33, 12, 5, K.brown) + e(24, 35, 11, 9, K.brown) + e(24, 36, 5, 5, K.tan) + c(24, 19, 9.5, K.brown) + e(24, 22.5, 4.5, 3.2, K.tan) + dot(20, 17) + dot(28, 17) + dot(24, 21.5, 1.5),
  rocking_horse: () => thick('M6 40Q24 48 42 40', 3, K.dred) + l(14, 40, 16, 30) + l(33, 40, 31, 30) + e(23, 27, 11, 5.5, K.white) + g('30,25 35,11 42,14 37,27', K.white) + p('M35 11Q30 14 30 22', 'none', ' stroke="#c8372d" stroke-width="3"') + dot(38, 15),
  toy_train: () => r(6, 20, 22, 14, K.red, 2) + r(20, 12, 10, 22, K.red, 2) + r(9, 12, 6, 8, K.black) + r(22, 15, 6, 5, K.lblue) + r(31, 22, 11, 12, K.green, 2) + wheel(12, 37) + wheel(24, 37) + wheel(37, 37, 3),
  jigsaw_puzzle: () => p('M10 14H20A4 4 0 1 1 28 14H36V22A4 4 0 1 1 36 30V38H28A4 4 0 1 0 20 38H10V30A4 4 0 1 0 10 22Z', K.blue) + l(23, 26, 23, 26),
  snow_globe: () => r(13, 34, 22, 8, K.brown, 2) + c(24, 21, 13, K.lblue) + g('24,12 18,27 30,27', K.green) + r(22, 27, 4, 4, K.brown) + dot(15, 18, 1.3, '#fff') + dot(32, 15, 1.3, '#fff') + dot(31, 26, 1.3, '#fff') + dot(17, 28, 1.3, '#fff'),
  woolly_scarf: () => p('M8 12Q24 22 40 12V20Q24 30 8 20Z', K.red) + r(27, 21, 8, 20, K.red) + l(27, 27, 35, 27, 2, '#fff') + l(27, 33, 35, 33, 2, '#fff') + l(29, 41, 29, 44) + l(33, 41, 33, 44),
  knitted_gloves: () => glove(4, K.green) + glove(22, K.teal),
  bobble_hat: () => p('M10 32Q10 14 24 14Q38 14 38 32Z', K.red) + r(8, 30, 32, 8, K.white, 3) + c(24, 10, 5, K.white) + l(17, 20, 17, 30, 1) + l(24, 15, 24, 30, 1) + l(31, 20, 31, 30, 1),
  board_game: () => r(8, 8, 32, 32, K.cream, 2) + r(8, 8, 11, 11, K.red) + r(29, 8, 11, 11, K.blue) + r(8, 29, 11, 11, K.green) + r(29, 29, 11, 11, K.yellow) + r(21, 21, 6, 6, K.white) + c(24, 15, 2.5, K.red),
  kite: () => g('24,4 36,18 24,32 12,18', K.red) + l(24, 4, 24, 32, 1) + l(12, 18, 36, 18, 1) + p('M24 32Q18 36 24 40T22 46') + g('20,36 22,38 20,40', K.yellow) + g('26,41 24,43 26,45', K.blue),
  yo_yo: () => thick('M24 26L33 3', 1.2, K.ink) + c(24, 27, 13, K.red) + c(24, 27, 8, K.dred) + c(24, 27, 2.5, K.white),
  spinning_top: () => r(22, 6, 4, 9, K.brown, 1) + p('M10 20Q24 10 38 20L24 43Z', K.orange) + p('M14 24Q24 18 34 24', 'none', ' stroke="#2f7d4f" stroke-width="3"') + p('M18 31Q24 28 30 31', 'none', ' stroke="#3b6fb6" stroke-width="3"'),
  skateboard: () => r(4, 22, 40, 7, K.orange, 3.5) + l(10, 25.5, 38, 25.5, 1) + r(10, 29, 6, 3, K.grey) + r(32, 29, 6, 3, K.grey) + c(11, 34, 3, K.yellow) + c(15, 34, 3, K.yellow) + c(33, 34, 3, K.yellow) + c(37, 34, 3, K.yellow),
  roller_skates: () => boot(K.pink) + r(12, 33, 29, 3, K.grey) + c(17, 39, 3.5, K.yellow) + c(27, 39, 3.5, K.yellow) + c(36, 39, 3.5, K.yellow),
  ice_skates: () => boot(K.white) + l(17, 34, 17, 39) + l(35, 34, 35, 39) + thick('M8 40H40Q43 40 43 37', 2.2, '#7d8a96'),
  sledge: () => thick('M5 36H36Q43 36 43 29', 2.5, K.dred) + r(9, 21, 28, 6, K.brown, 2) + l(14, 27, 14, 36, 2) + l(31, 27, 31, 36, 2) + thick('M37 21Q42 16 40 12', 1.6, K.ink),
  skis: () => thick('M8 6L14 44', 1.3, K.grey) + thick('M40 6L34 44', 1.3, K.grey) + e(13, 38, 3, 1.2, K.grey) + e(35, 38, 3, 1.2, K.grey) + p('M17 44V12Q17 4 21 4Q23 4 23 10V44Z', K.red) + p('M25 44V10Q25 4 27 4Q31 4 31 12V44Z', K.blue) + r(15.5, 25, 9, 5, K.black, 1) + r(23.5, 25, 9, 5, K.black, 1),
  football: () => c(24, 24, 15, K.white) + g('24,18 29.7,22.1 27.5,28.9 20.5,28.9 18.3,22.1', K.black) + l(24, 18, 24, 10) + l(29.7, 22.1, 38, 19) + l(27.5, 28.9, 32, 36) + l(20.5, 28.9, 16, 36) + l(18.3, 22.1, 10, 19),
  basketball: () => c(24, 24, 15, K.orange) + l(9, 24, 39, 24) + l(24, 9, 24, 39) + p('M14 13Q21 24 14 35') + p('M34 13Q27 24 34 35'),
  tennis_racket: () => thick('M25 30L37 44', 4, K.brown) + e(19, 18, 11, 13, K.white, ' stroke-width="2.5"') + l(13, 9, 13, 28, 0.7) + l(19, 5, 19, 31, 0.7) + l(25, 9, 25, 28, 0.7) + l(9, 14, 29, 14, 0.7) + l(8, 19, 30, 19, 0.7) + l(10, 25, 28, 25, 0.7) + c(38, 12, 5, '#c6dc3a'),
  fishing_rod: () => thick('M6 42L38 6', 2.2, K.brown) + p('M38 6Q43 22 34 32', 'none', ' stroke-width="0.8"') + c(34, 33, 2.8, K.red) + c(13, 34, 4, K.grey) + thick('M34 36q0 4 -3 4', 1, K.ink),
  telescope: () => g('6,24 34,12 37,19 9,31', K.blue) + g('34,12 41,9 44,16 37,19', K.gold) + l(22, 24, 14, 43) + l(22, 24, 30, 43) + l(22, 24, 22, 43),
  microscope: () => r(10, 38, 28, 5, K.black, 1) + thick('M31 38Q39 26 30 13', 4, K.grey) + g('20,6 27,4 31,22 24,24', K.white) + r(14, 27, 20, 3, K.black) + dot(22, 25, 1.5, K.lblue),
  chemistry_set: () => p('M15 6H23V17L31 38H7L15 17Z', K.white) + p('M10 30H28L31 38H7Z', K.lgreen) + r(32, 10, 7, 30, K.white, 3.5) + r(32, 26, 7, 14, K.pink, 3.5) + dot(17, 27, 1.5, '#fff'),
  paint_box: () => r(5, 14, 38, 22, K.white, 3) + c(12, 21, 3.5, K.red) + c(21, 21, 3.5, K.yellow) + c(30, 21, 3.5, K.blue) + c(12, 30, 3.5, K.green) + c(21, 30, 3.5, K.purple) + c(30, 30, 3.5, K.orange) + thick('M36 42L44 8', 2, K.brown) + g('43,6 45,5 46,10 44,11', K.black),
  crayons: () => [[10, K.red], [20, K.blue], [30, K.yellow]].map(([x, f]) => g(`${x},14 ${x + 4},5 ${x + 8},14`, f) + r(x, 14, 8, 28, f, 1) + l(x, 20, x + 8, 20, 1) + l(x, 36, x + 8, 36, 1)).join(''),
  sketchbook: () => r(10, 10, 28, 32, K.white, 2) + [14, 19, 24, 29, 34].map((x) => c(x, 10, 2, 'none')).join('') + p('M14 34Q18 20 24 28T34 18', 'none', ' stroke="#8a5a34" stroke-width="1.5"'),
  diary: () => book(K.purple, '#5a3580', heart(27, 21, 5, K.pink)) + r(33, 20, 6, 6, K.gold, 1),
  storybook: () => p('M24 14Q15 9 6 12V38Q15 35 24 40Q33 35 42 38V12Q33 9 24 14Z', K.white) + l(24, 14, 24, 40) + star(15, 24, 5, K.gold) + l(28, 20, 38, 19, 1) + l(28, 25, 38, 24, 1) + l(28, 30, 38, 29, 1),
  comic_book: () => book(K.yellow, K.amber, p('M20 15H33V25H26L22 29V25H20Z', K.white)) + dot(23.5, 20) + dot(26.5, 20) + dot(29.5, 20),
  cookbook: () => book(K.red, K.dred, e(27, 18, 4, 5, K.white) + thick('M27 23V34', 2, K.white)),
  atlas: () => book(K.blue, '#244c86', c(27, 24, 7, K.lblue) + p('M22 21Q26 19 27 23T32 27', 'none', ' stroke="#2f7d4f" stroke-width="2"') + l(20, 24, 34, 24, 0.8)),
  globe: () => thick('M10 22A14 14 0 0 0 38 22', 2, K.gold) + c(24, 20, 12, K.blue) + p('M16 14Q21 12 22 17T18 26Z', K.green) + p('M27 22Q33 20 34 26Q29 30 27 22Z', K.green) + l(24, 36, 24, 40, 2) + r(16, 40, 16, 4, K.brown, 1),
  alarm_clock: () => c(14, 11, 5, K.gold) + c(34, 11, 5, K.gold) + l(16, 38, 13, 43, 2) + l(32, 38, 35, 43, 2) + c(24, 26, 14, K.red) + c(24, 26, 10, K.white) + l(24, 26, 24, 19, 1.6) + l(24, 26, 29, 28, 1.6),
  wristwatch: () => r(18, 4, 12, 40, K.brown, 3) + c(24, 24, 10, K.gold) + c(24, 24, 7.5, K.white) + l(24, 24, 24, 19, 1.4) + l(24, 24, 27.5, 25, 1.4),
  camera: () => r(18, 11, 11, 6, K.black, 1) + r(6, 15, 36, 24, K.black, 4) + c(24, 27, 9, K.silver) + c(24, 27, 5.5, K.blue) + dot(22, 25, 1.5, '#fff') + r(34, 18, 5, 3, K.yellow),
  headphones: () => thick('M11 28Q11 8 24 8Q37 8 37 28', 3.5, K.black) + r(6, 25, 10, 15, K.red, 4) + r(32, 25, 10, 15, K.red, 4),
  radio: () => l(30, 16, 40, 4, 1.5) + r(6, 16, 36, 24, K.brown, 4) + c(17, 28, 7, K.tan) + [14, 17, 20].map((x) => l(x, 24, x, 32, 0.8)).join('') + r(28, 21, 10, 5, K.cream, 1) + c(30, 33, 2.5, K.gold) + c(36, 33, 2.5, K.gold),
  record_player: () => r(6, 8, 36, 32, K.brown, 3) + c(22, 24, 12, K.black) + c(22, 24, 7, 'none', ' stroke="#666"') + c(22, 24, 3, K.red) + thick('M37 11V28L28 31', 2, K.silver) + c(37, 11, 2.5, K.grey),
  guitar: () => thick('M27 21L40 7', 3.5, K.brown) + r(38, 3, 6, 6, K.brown, 1) + c(19, 32, 10, K.orange) + c(25, 23, 7.5, K.orange) + c(22, 28, 3, K.ink) + l(14, 37, 19, 32, 1.5),
  violin: () => thick('M8 42L40 8', 1.2, K.brown) + p('M24 10Q31 10 30 17Q28 21 31 25Q34 32 24 40Q14 32 17 25Q20 21 18 17Q17 10 24 10Z', K.dred) + thick('M24 10V3', 3, K.black) + p('M21 24q1 3 0 6M27 24q-1 3 0 6', 'none', ' stroke-width="1"'),
  flute: () => r(3, 21, 42, 6, K.silver, 3) + dot(12, 24) + dot(19, 24) + dot(24, 24) + dot(29, 24) + dot(34, 24) + r(6, 20, 3, 8, K.grey, 1) + note(34, 16),
  drum_kit: () => thick('M10 6L22 18', 2, K.tan) + thick('M38 6L26 18', 2, K.tan) + r(10, 22, 28, 17, K.red) + e(24, 22, 14, 4.5, K.white) + p('M10 39Q24 44 38 39', K.red) + l(10, 28, 38, 34, 0.8) + l(10, 34, 38, 28, 0.8),
  harmonica: () => r(5, 16, 38, 16, K.silver, 2) + r(5, 21, 38, 6, K.grey) + [9, 14, 19, 24, 29, 34].map((x) => r(x, 22.5, 3, 3, K.black)).join('') + note(38, 12),
  xylophone: () => [K.red, K.orange, K.yellow, K.green, K.blue, K.purple].map((f, i) => r(6 + i * 6, 10 + i * 2, 5, 26 - i * 4, f, 1)).join('') + thick('M30 44L42 30', 1.6, K.brown) + c(43, 29, 3, K.white),
  music_box: () => g('8,24 12,12 40,12 40,24', K.lilac) + r(8, 24, 32, 16, K.pink, 2) + c(36, 32, 2.5, K.gold) + note(18, 10) + note(28, 8),
  doll_house: () => g('24,4 6,20 42,20', K.red) + r(9, 20, 30, 22, K.cream) + r(13, 24, 8, 7, K.lblue) + r(27, 24, 8, 7, K.lblue) + r(20, 32, 8, 10, K.brown) + r(31, 7, 5, 8, K.brown),
  rag_doll: () => c(24, 13, 7, K.skin) + p('M17 12Q16 5 24 5Q32 5 31 12Q29 8 24 8Q19 8 17 12Z', K.orange) + g('24,20 12,38 36,38', K.blue) + l(14, 26, 34, 26, 2) + l(20, 38, 19, 45, 2) + l(28, 38, 29, 45, 2) + dot(21.5, 13) + dot(26.5, 13) + dot(18, 16, 1.3, K.pink) + dot(30, 16, 1.3, K.pink),
  puppet: () => p('M10 44Q12 26 24 26Q36 26 38 44Z', K.green) + c(24, 18, 9, K.skin) + g('15,14 24,2 33,14', K.red) + c(24, 20, 2.5, K.red) + dot(20, 16) + dot(28, 16) + c(24, 2, 2, K.yellow),
  toy_robot: () => l(24, 4, 24, 8) + c(24, 4, 2, K.red) + r(15, 8, 18, 13, K.silver, 2) + c(20, 14, 2.5, K.yellow) + c(28, 14, 2.5, K.yellow) + r(13, 22, 22, 14, K.blue, 2) + r(6, 23, 6, 10, K.silver, 2) + r(36, 23, 6, 10, K.silver, 2) + r(16, 36, 6, 8, K.silver) + r(26, 36, 6, 8, K.silver) + r(19, 26, 10, 5, K.yellow),
  racing_car: () => p('M4 32V27L14 25L20 18H30L34 25L44 27V32Z', K.red) + r(22, 20, 7, 5, K.lblue) + c(14, 29, 3, K.white) + wheel(12, 33) + wheel(36, 33),
  fire_engine: () => r(4, 18, 28, 16, K.red, 1) + p('M32 34V22H38L44 28V34Z', K.red) + r(35, 24, 5, 4, K.lblue) + thick('M6 14L30 14M8 10L8 18M14 10L14 18M20 10L20 18M26 10L26 18', 1.5, K.silver) + r(34, 18, 4, 4, K.blue) + wheel(11, 36) + wheel(37, 36),
  toy_plane: () => e(24, 24, 19, 5, K.blue) + g('20,22 28,22 22,6 18,6', K.yellow) + g('20,26 28,26 22,42 18,42', K.yellow) + g('5,22 9,22 7,14 4,14', K.yellow) + c(40, 24, 2, K.white),
  sailing_ship: () => p('M6 32H42L35 41H13Z', K.brown) + l(24, 5, 24, 32, 2) + g('26,7 26,30 40,30', K.white) + g('22,9 22,30 10,30', K.white) + g('24,5 31,7 24,9', K.red) + thick('M4 44Q10 41 16 44T28 44T40 44', 1.5, K.blue),
  building_blocks: () => r(6, 27, 16, 16, K.red, 1) + r(26, 27, 16, 16, K.blue, 1) + r(16, 9, 16, 16, K.yellow, 1) + c(14, 35, 3, K.white) + g('35,31 39,39 31,39', K.white) + r(21, 14, 6, 6, K.green),
  marbles: () => c(15, 31, 9, K.blue) + c(33, 30, 8, K.red) + c(24, 15, 8, K.green) + p('M10 29Q15 25 20 32', 'none', ' stroke="#fff" stroke-width="2"') + p('M29 27Q33 33 37 29', 'none', ' stroke="#fff" stroke-width="2"') + p('M20 14Q24 19 28 13', 'none', ' stroke="#fff" stroke-width="2"'),
  playing_cards: () => `<g transform="rotate(-14 18 26)">${r(8, 10, 20, 28, K.white, 2)}${heart(18, 24, 4, K.red)}</g><g transform="rotate(12 30 24)">${r(20, 8, 20, 28, K.white, 2)}${p('M30 14C27 18 24 20 26 24C28 27 30 25 30 25L28 30H32L30 25C30 25 32 27 34 24C36 20 33 18 30 14Z', K.black)}</g>`,
  dominoes: () => `<g transform="rotate(-12 16 24)">${r(8, 6, 16, 34, K.black, 3)}${l(8, 23, 24, 23, 1, '#fff')}${dot(16, 14, 2, '#fff')}${dot(12, 30, 2, '#fff')}${dot(20, 34, 2, '#fff')}</g>${r(26, 10, 16, 34, K.white, 3)}${l(26, 27, 42, 27)}${dot(30, 14, 2)}${dot(38, 22, 2)}${dot(34, 18, 2)}${dot(30, 32, 2)}${dot(38, 32, 2)}${dot(30, 39, 2)}${dot(38, 39, 2)}`,
  chess_set: () => r(4, 34, 40, 10, K.cream) + r(4, 34, 10, 5, K.black) + r(24, 34, 10, 5, K.black) + r(14, 39, 10, 5, K.black) + r(34, 39, 10, 5, K.black) + c(15, 12, 5, K.white) + p('M11 18H19L22 31H8Z', K.white) + p('M28 31H42L40 24Q43 14 36 8Q30 8 28 14L32 16L29 21Z', K.black) + dot(35, 12, 1.2, '#fff'),
  magic_kit: () => r(13, 10, 20, 22, K.black, 1) + r(13, 25, 20, 4, K.red) + e(23, 33, 17, 4, K.black) + thick('M30 44L44 30', 3, K.black) + thick('M41 33L44 30', 3, '#fff') + star(10, 10, 4, K.gold) + star(40, 14, 3, K.gold),
  kaleidoscope: () => g('6,34 32,10 40,18 14,42', K.purple) + c(36, 14, 6.5, K.white) + star(36, 14, 5, K.pink) + c(36, 14, 1.8, K.yellow) + l(14, 26, 22, 34, 1, K.gold),
  bubble_wand: () => thick('M30 44L20 24', 2.5, K.pink) + c(17, 17, 7.5, 'none', ' stroke-width="2.2" stroke="#e88aae"') + c(34, 12, 6, K.lblue, ' fill-opacity=".7"') + c(36, 28, 4, K.lblue, ' fill-opacity=".7"') + c(8, 34, 4, K.lblue, ' fill-opacity=".7"') + dot(32, 10, 1.2, '#fff'),
  water_pistol: () => p('M6 14H34V20H40V26H28L26 40H16L18 26H6Z', K.lgreen) + r(20, 8, 9, 6, K.orange, 2) + r(3, 15, 4, 4, K.orange) + dot(42, 23, 1.6, K.blue) + dot(45, 20, 1.3, K.blue) + dot(45, 27, 1.3, K.blue),
  beach_ball: () => c(24, 24, 16, K.white) + e(24, 24, 11, 16, K.red) + e(24, 24, 5, 16, K.yellow) + l(24, 8, 24, 40, 1) + c(24, 24, 16, 'none') + c(24, 10, 2.5, K.blue),
  umbrella: () => p('M5 25Q24 1 43 25Q38 21 33.5 25Q29 21 24 25Q19 21 14.5 25Q10 21 5 25Z', K.purple) + l(24, 8, 24, 40, 1.8) + p('M24 40Q24 45 20 45Q17 45 17 42', 'none', ' stroke-width="1.8"'),
  raincoat: () => p('M16 8Q24 2 32 8L40 16L36 24L33 21V42H15V21L12 24L8 16Z', K.yellow) + p('M18 9Q24 14 30 9', 'none') + l(24, 13, 24, 42, 1) + dot(21, 20) + dot(21, 28) + dot(21, 36),
  wellies: () => p('M6 8H17V32H24Q27 32 27 36V40H6Z', K.green) + p('M22 6H33V30H40Q43 30 43 34V38H22Z', K.dgreen) + l(6, 12, 17, 12, 1) + l(22, 10, 33, 10, 1),
  slippers: () => e(15, 26, 8, 16, K.pink) + p('M7 20Q15 10 23 20V26Q15 22 7 26Z', K.red) + e(33, 24, 8, 16, K.pink) + p('M25 18Q33 8 41 18V24Q33 20 25 24Z', K.red) + c(15, 16, 2.5, K.white) + c(33, 14, 2.5, K.white),
  dressing_gown: () => p('M17 6L9 12L6 26L12 27L14 18V43H34V18L36 27L42 26L39 12L31 6L24 24Z', K.teal) + p('M17 6L24 24L31 6', 'none', ' stroke="#fff" stroke-width="2.5"') + r(14, 26, 20, 4, K.white) + p('M24 30L20 38M24 30L28 37', 'none', ' stroke="#fff" stroke-width="2.5"'),
  pyjamas: () => sweater(K.lblue) + [13, 20, 27, 34].map((y) => l(15, y, 33, y, 2.5, '#3b6fb6')).join('') + dot(24, 12, 1.6) + dot(24, 18, 1.6),
  woolly_socks: () => p('M16 6H28V28L35 33Q39 38 34 42Q31 44 27 41L16 34Z', K.red) + r(16, 6, 12, 6, K.white) + l(16, 18, 28, 18, 2.5, '#fff') + l(16, 24, 28, 24, 2.5, '#fff') + p('M27 35Q30 38 33 42', 'none', ' stroke="#fff" stroke-width="3"'),
  jumper: () => sweater(K.green) + p('M15 28L18 25L21 28L24 25L27 28L30 25L33 28', 'none', ' stroke="#fff" stroke-width="2"') + star(24, 19, 3.5, K.white) + r(15, 37, 18, 3, K.red),
  cardigan: () => sweater(K.amber) + l(24, 11, 24, 40, 1.5) + dot(26.5, 18, 1.6) + dot(26.5, 25, 1.6) + dot(26.5, 32, 1.6) + r(16, 26, 5, 5, K.brown, 1),
  necktie: () => g('20,6 28,6 26,12 22,12', K.blue) + g('22,12 26,12 31,36 24,44 17,36', K.blue) + l(19, 22, 29, 18, 2.5, K.gold) + l(18, 30, 30, 26, 2.5, K.gold),
  handbag: () => p('M16 18Q16 6 24 6Q32 6 32 18', 'none', ' stroke-width="2.5"') + p('M8 18H40L37 40H11Z', K.red) + r(21, 22, 6, 5, K.gold, 1) + l(8, 18, 40, 18, 1.5),
  wallet: () => r(8, 11, 22, 10, '#6fbf73', 1) + r(5, 16, 38, 24, K.brown, 4) + p('M26 22H43V32H26Q23 27 26 22Z', '#6b4326') + c(30, 27, 2.2, K.gold),
  backpack: () => p('M19 10Q19 4 24 4Q29 4 29 10', 'none', ' stroke-width="2.5"') + r(11, 9, 26, 33, K.green, 8) + r(15, 26, 18, 12, K.dgreen, 3) + l(15, 31, 33, 31, 1) + l(11, 20, 37, 20, 1),
  suitcase: () => r(18, 8, 12, 6, 'none', 2, ' stroke-width="2.5"') + r(5, 13, 38, 27, K.brown, 4) + l(14, 13, 14, 40, 2, K.tan) + l(34, 13, 34, 40, 2, K.tan) + r(19, 20, 10, 7, K.white, 1) + c(10, 42, 2, K.black) + c(38, 42, 2, K.black),
  sunglasses: () => p('M3 18L8 18M45 18L40 18', 'none', ' stroke-width="2"') + e(14, 24, 9, 7, K.black) + e(34, 24, 9, 7, K.black) + p('M23 22Q24 19 25 22', 'none', ' stroke-width="2"') + p('M9 21Q12 19 15 21', 'none', ' stroke="#fff" stroke-width="1.2"') + p('M29 21Q32 19 35 21', 'none', ' stroke="#fff" stroke-width="1.2"'),
  perfume: () => c(24, 8, 4, K.gold) + r(21, 11, 6, 6, K.gold) + r(11, 17, 26, 25, K.pink, 6) + r(17, 24, 14, 9, K.white, 2) + thick('M37 22Q43 21 44 15', 1.5, K.ink) + c(44, 13, 2.5, K.purple),
  bath_salts: () => jar(K.lblue, K.white) + dot(18, 28, 2.2, K.pink) + dot(24, 32, 2.2, K.lilac) + dot(30, 27, 2.2, K.pink) + dot(20, 35, 2.2, K.lilac) + dot(28, 35, 2.2, K.white) + dot(24, 24, 2.2, K.white) + r(18, 12, 12, 3, K.lilac),
  soap_set: () => r(4, 24, 24, 14, K.pink, 7) + r(20, 28, 24, 14, K.lgreen, 7) + c(14, 14, 4, K.lblue, ' fill-opacity=".7"') + c(24, 9, 3, K.lblue, ' fill-opacity=".7"') + c(32, 17, 5, K.lblue, ' fill-opacity=".7"'),
  hairbrush: () => thick('M26 27L38 44', 5, K.brown) + e(18, 17, 11, 13, K.brown) + e(18, 17, 7.5, 9.5, K.tan) + [[15, 12], [21, 12], [14, 18], [18, 17], [22, 18], [15, 23], [21, 23]].map(([x, y]) => dot(x, y, 1.1)).join(''),
  hand_mirror: () => r(21, 30, 6, 15, K.gold, 2) + c(24, 18, 14, K.gold) + c(24, 18, 10.5, K.lblue) + p('M17 14Q20 10 24 10', 'none', ' stroke="#fff" stroke-width="2"'),
  necklace: () => p('M8 8Q10 32 24 34Q38 32 40 8', 'none', ' stroke="#c9ced3" stroke-width="1"') + [[9, 14], [11, 21], [14, 27], [18, 31], [30, 31], [34, 27], [37, 21], [39, 14]].map(([x, y]) => c(x, y, 2.2, K.white)).join('') + g('24,34 29,39 24,46 19,39', K.red),
  bracelet: () => e(24, 26, 16, 10, 'none', ' stroke="#e0a526" stroke-width="3"') + [[10, 22], [16, 17], [24, 16], [32, 17], [38, 22], [38, 31], [31, 35], [17, 35], [10, 31]].map(([x, y], i) => c(x, y, 2.5, [K.red, K.blue, K.green][i % 3])).join(''),
  earrings: () => p('M14 6Q19 6 16 12M34 6Q39 6 36 12', 'none', ' stroke-width="1.5"') + l(16, 12, 16, 20) + l(36, 12, 36, 20) + c(16, 20, 2, K.gold) + c(36, 20, 2, K.gold) + p('M16 22Q10 32 16 38Q22 32 16 22Z', K.teal) + p('M36 22Q30 32 36 38Q42 32 36 22Z', K.teal),
  silver_ring: () => c(24, 30, 12, 'none', ' stroke="#8d959c" stroke-width="5"') + c(24, 30, 12, 'none', ' stroke="#e6eaee" stroke-width="2.5"') + g('24,4 31,10 24,19 17,10', K.lblue) + l(17, 10, 31, 10, 0.8),
  brooch: () => [0, 1, 2, 3, 4, 5].map((i) => c(24 + 10 * Math.cos(i * Math.PI / 3), 24 + 10 * Math.sin(i * Math.PI / 3), 6, K.pink)).join('') + c(24, 24, 6, K.gold) + dot(24, 24, 2, K.red),
  hair_clip: () => r(6, 28, 36, 6, K.silver, 3) + g('24,20 8,10 8,30', K.purple) + g('24,20 40,10 40,30', K.purple) + c(24, 20, 4, K.lilac),
  scented_candle: () => p('M24 6Q30 14 24 18Q18 14 24 6Z', K.amber) + l(24, 18, 24, 21) + r(12, 21, 24, 21, K.lilac, 3) + r(12, 29, 24, 7, K.white) + p('M20 33Q22 30 24 33T28 33', 'none', ' stroke="#7a4fa3" stroke-width="1.2"'),
  lantern: () => c(24, 6, 3.5, 'none', ' stroke-width="2"') + g('14,13 34,13 30,9 18,9', K.black) + r(15, 13, 18, 24, '#ffd77a') + p('M24 20Q28 25 24 30Q20 25 24 20Z', K.orange) + l(15, 13, 15, 37, 2) + l(33, 13, 33, 37, 2) + l(24, 13, 24, 19, 1.5) + r(12, 37, 24, 5, K.black, 1),
  fairy_lights: () => thick('M2 14Q12 26 24 14T46 14', 1.4, K.dgreen) + thick('M2 30Q12 42 24 30T46 30', 1.4, K.dgreen) + [[7, 19, K.red], [17, 22, K.yellow], [30, 19, K.blue], [41, 17, K.green], [7, 35, K.yellow], [17, 38, K.blue], [30, 35, K.red], [41, 33, K.pink]].map(([x, y, f]) => e(x, y + 3, 2.6, 3.6, f)).join(''),
  flower_vase: () => l(17, 24, 14, 10, 1.5, K.green) + l(24, 24, 24, 7, 1.5, K.green) + l(31, 24, 34, 12, 1.5, K.green) + c(14, 10, 4, K.red) + c(24, 7, 4, K.yellow) + c(34, 12, 4, K.pink) + p('M17 22H31Q27 28 34 36Q30 44 24 44Q18 44 14 36Q21 28 17 22Z', K.blue),
  teapot: () => p('M34 24Q44 22 43 14', 'none', ' stroke-width="3"') + p('M12 22Q4 22 6 30Q8 36 14 34', 'none', ' stroke-width="2.5"') + e(24, 29, 13, 11, K.white) + p('M13 22Q24 15 35 22', K.red) + c(24, 15, 2.5, K.red) + c(24, 30, 3, K.red),
  mug: () => p('M34 20Q43 20 43 27Q43 34 34 34', 'none', ' stroke-width="3"') + r(12, 16, 23, 26, K.red, 3) + heart(23.5, 28, 4, K.white) + p('M18 12Q15 8 18 4M24 12Q21 8 24 4M30 12Q27 8 30 4', 'none', ' stroke="#9a9a9a" stroke-width="1.5"'),
  tea_set: () => e(24, 37, 18, 4, K.white) + p('M12 22H32Q32 36 22 36Q12 36 12 22Z', K.white) + p('M31 25Q38 25 37 30Q36 33 30 32', 'none', ' stroke-width="2"') + p('M12 26H32', 'none', ' stroke="#c8372d" stroke-width="2"') + dot(18, 31, 1.5, K.teal) + dot(25, 31, 1.5, K.teal) + p('M18 18Q15 14 18 10M25 18Q22 14 25 10', 'none', ' stroke="#9a9a9a" stroke-width="1.5"'),
  coffee_grinder: () => r(12, 24, 24, 18, K.brown, 1) + r(21, 31, 6, 4, K.gold, 1) + p('M14 24Q14 14 24 14Q34 14 34 24Z', K.silver) + l(24, 14, 24, 8, 2) + thick('M24 8H36', 2, K.ink) + c(37, 8, 3, K.dred),
  waffle_iron: () => thick('M40 30L46 34', 3, K.black) + c(24, 26, 17, K.silver) + p('M24 36C10 27 14 14 24 21C34 14 38 27 24 36Z', K.amber) + l(18, 20, 30, 32, 0.7) + l(30, 20, 18, 32, 0.7) + l(15, 24, 27, 36, 0.7) + l(33, 24, 21, 36, 0.7),
  cake_tin: () => p('M6 18H42L37 40H11Z', K.silver) + e(24, 18, 18, 5, K.grey) + e(24, 18, 5, 2, K.cream) + [13, 19, 24, 29, 35].map((x) => l(x, 22, x + (x < 24 ? 1 : x > 24 ? -1 : 0), 39, 1)).join(''),
  gingerbread: () => c(24, 12, 7, K.brown) + p('M17 19H31L40 25L37 29L31 26V30L36 42L31 44L24 34L17 44L12 42L17 30V26L11 29L8 25Z', K.brown) + dot(21.5, 11, 1.3, '#fff') + dot(26.5, 11, 1.3, '#fff') + p('M21 15Q24 17 27 15', 'none', ' stroke="#fff" stroke-width="1.2"') + dot(24, 24, 1.6, K.red) + dot(24, 29, 1.6, K.green),
  marzipan: () => e(24, 28, 16, 12, K.pink) + g('12,20 10,10 19,17', K.pink) + g('36,20 38,10 29,17', K.pink) + e(24, 32, 6, 4.5, '#f4b6cc') + dot(22, 32, 1.2) + dot(26, 32, 1.2) + dot(18, 24) + dot(30, 24),
  chocolates: () => r(4, 12, 40, 28, K.gold, 3) + r(7, 15, 34, 22, K.brown, 2) + [[13, 21], [24, 21], [35, 21], [13, 31], [24, 31], [35, 31]].map(([x, y], i) => c(x, y, 4, i % 2 ? '#4a2a16' : '#7a4a26')).join('') + p('M11 20Q13 18 15 20M22 30Q24 28 26 30M33 20Q35 18 37 20', 'none', ' stroke="#fff" stroke-width=".8"'),
  stollen: () => p('M4 32Q6 16 24 16Q42 16 44 32Z', '#d99a52') + p('M7 25Q12 17 24 17Q36 17 41 25Q35 22 24 22Q13 22 7 25Z', K.white) + r(4, 31, 40, 4, K.white, 2) + dot(16, 28, 1.6, K.red) + dot(26, 27, 1.6, K.green) + dot(34, 29, 1.6, K.dred),
  candy_cane: () => thick('M18 44V16Q18 6 26 6Q34 6 34 14', 6, K.ink) + thick('M18 44V16Q18 6 26 6Q34 6 34 14', 4, '#fff') + p('M18 44V16Q18 6 26 6Q34 6 34 14', 'none', ' stroke="#c8372d" stroke-width="4" stroke-dasharray="3 3"'),
  honey_jar: () => jar(K.amber, K.white) + p('M12 13Q24 20 36 13', 'none', ' stroke="#c8372d" stroke-width="1.5"') + r(17, 25, 14, 9, K.cream, 2) + p('M20 28Q22 31 24 28T28 28', 'none', ' stroke="#8a5a34" stroke-width="1.3"') + thick('M38 8L30 26', 2, K.brown),
  jam_jar: () => jar(K.dred, K.red) + p('M12 10L16 13L20 10L24 13L28 10L32 13L36 10', 'none', ' stroke="#fff" stroke-width="1.5"') + r(17, 25, 14, 9, K.white, 2) + c(24, 29.5, 2.5, K.red),
  fruit_basket: () => c(15, 21, 6, K.red) + c(33, 22, 6, K.green) + p('M19 15Q26 6 34 12Q27 12 22 18Z', K.yellow) + c(24, 20, 3, K.purple) + c(27, 23, 3, K.purple) + p('M5 24H43L38 42H10Z', K.tan) + l(8, 30, 40, 30, 1) + l(9, 36, 39, 36, 1),
  nutcracker: () => r(17, 4, 14, 10, K.black, 1) + r(18, 14, 12, 10, K.skin) + r(18, 21, 12, 4, K.white) + dot(21, 18) + dot(27, 18) + r(15, 25, 18, 12, K.red, 1) + l(24, 25, 24, 37, 1.5, K.gold) + r(16, 37, 6, 7, K.blue) + r(26, 37, 6, 7, K.blue),
  cuckoo_clock: () => g('24,3 4,18 44,18', K.dgreen) + r(9, 18, 30, 20, K.brown) + c(24, 27, 7, K.white) + l(24, 27, 24, 22) + l(24, 27, 28, 27) + r(21, 11, 6, 5, K.black) + e(24, 12, 1.8, 1.4, K.yellow) + l(18, 38, 18, 44) + l(30, 38, 30, 44) + e(18, 45, 2, 3, K.brown) + e(30, 45, 2, 3, K.brown),
  plant_pot: () => p('M24 24Q14 20 10 8Q20 10 24 24Z', K.green) + p('M24 24Q34 20 38 8Q28 10 24 24Z', K.green) + p('M24 24Q22 12 24 4Q27 12 24 24Z', K.lgreen) + r(11, 24, 26, 5, '#c86b3c', 1) + p('M13 29H35L32 44H16Z', '#c86b3c'),
  bonsai: () => c(14, 14, 7, K.green) + c(30, 11, 8, K.green) + c(36, 22, 6, K.green) + p('M22 36Q18 28 24 24Q30 20 27 14', 'none', ' stroke="#8a5a34" stroke-width="3.5"') + p('M25 22Q31 21 34 22', 'none', ' stroke="#8a5a34" stroke-width="2"') + r(8, 36, 32, 7, K.blue, 2),
  bird_feeder: () => l(24, 2, 24, 9, 1.2) + g('24,8 6,20 42,20', K.red) + r(12, 20, 24, 14, K.tan) + c(24, 27, 4, K.black) + r(8, 34, 32, 4, K.brown, 1) + c(36, 29, 4, K.blue) + g('40,28 44,29 40,31', K.orange) + dot(37, 28, 0.9, '#fff'),
  watering_can: () => thick('M34 26L44 14', 3, K.green) + e(44, 13, 3, 2, K.green) + r(8, 20, 28, 22, K.green, 4) + p('M12 20Q22 6 32 20', 'none', ' stroke-width="3"') + p('M45 18Q46 22 44 24M42 19Q42 23 40 25', 'none', ' stroke="#3b6fb6" stroke-width="1.2"'),
  garden_gnome: () => g('24,2 14,20 34,20', K.red) + c(24, 22, 6, K.skin) + p('M17 24Q24 40 31 24Q28 28 24 28Q20 28 17 24Z', K.white) + c(24, 22, 1.8, K.pink) + p('M14 44Q14 30 19 30H29Q34 30 34 44Z', K.blue) + r(14, 40, 20, 4, K.brown),
  toolbox: () => r(18, 8, 12, 7, 'none', 2, ' stroke-width="2.5"') + thick('M30 14L40 4', 2.5, K.grey) + r(5, 14, 38, 28, K.red, 3) + r(5, 22, 38, 4, K.dred) + r(21, 24, 6, 5, K.silver, 1),
  claw_hammer: () => thick('M20 17L36 44', 4.5, K.brown) + p('M6 13L24 5L28 12L10 20Z', K.silver) + p('M24 5Q32 2 38 8Q32 7 27 11Z', K.silver),
  screwdriver_set: () => [[10, K.red], [22, K.yellow], [34, K.blue]].map(([x, f]) => r(x, 6, 7, 15, f, 3) + r(x + 2.5, 21, 2, 15, K.silver) + g(`${x + 2.5},36 ${x + 4.5},36 ${x + 3.5},41`, K.silver)).join(''),
  torch: () => g('30,14 46,4 46,36 30,26', '#fff2a8', ' stroke="none"') + r(4, 16, 20, 12, K.blue, 2) + p('M24 13H30V31H24Z', K.silver) + r(10, 19, 5, 4, K.red, 1),
  pocket_knife: () => p('M22 20L44 14Q44 20 24 26Z', K.silver) + r(4, 20, 24, 11, K.red, 5.5) + r(14, 23, 3.5, 5, K.white) + r(13.25, 23.75, 5, 3.5, K.white) + dot(8, 25.5, 1.2, K.silver),
  compass: () => c(24, 24, 17, K.gold) + c(24, 24, 13, K.white) + g('24,12 27,24 21,24', K.red) + g('24,36 27,24 21,24', K.silver) + dot(24, 24, 1.6) + l(24, 7, 24, 9, 1.5) + l(24, 39, 24, 41, 1.5),
  binoculars: () => r(7, 14, 13, 26, K.black, 4) + r(28, 14, 13, 26, K.black, 4) + r(19, 18, 10, 8, K.grey) + c(13.5, 36, 5, K.lblue) + c(34.5, 36, 5, K.lblue) + r(9, 8, 9, 7, K.grey, 2) + r(30, 8, 9, 7, K.grey, 2),
  thermos_flask: () => r(15, 5, 18, 9, K.red, 2) + r(14, 14, 20, 30, K.teal, 5) + r(14, 22, 20, 4, K.silver) + r(16, 9, 16, 1.5, K.dred),
  picnic_blanket: () => `<g transform="rotate(-8 24 24)">${r(6, 8, 36, 32, K.white)}${[0, 1, 2, 3].map((i) => r(6 + i * 9, 8, 4.5, 32, K.red, 0, ' stroke="none" fill-opacity=".75"') + r(6, 8 + i * 8, 36, 4, K.red, 0, ' stroke="none" fill-opacity=".75"')).join('')}${r(6, 8, 36, 32, 'none')}</g>`,
  hammock: () => l(6, 8, 6, 44, 3) + l(42, 8, 42, 44, 3) + p('M6 16Q24 40 42 16Q24 30 6 16Z', K.orange) + p('M12 20Q24 33 36 20', 'none', ' stroke="#fff" stroke-width="1.2"') + c(18, 7, 4, K.green) + c(38, 6, 4, K.green),
  tent: () => g('24,6 4,40 44,40', K.orange) + g('24,18 16,40 32,40', K.dred) + l(24, 6, 24, 2) + g('24,2 30,4 24,6', K.yellow) + l(2, 40, 46, 40, 1.5),
  sleeping_bag: () => r(6, 14, 36, 22, K.blue, 11) + c(14, 25, 6, K.lblue) + l(18, 19, 40, 19, 1.2, K.yellow) + l(26, 14, 26, 36, 1.5),
  bicycle: () => c(11, 31, 8, 'none', ' stroke-width="2"') + c(37, 31, 8, 'none', ' stroke-width="2"') + p('M11 31L19 19H33L37 31M19 19L24 31H11M33 19L24 31', 'none', ' stroke="#c8372d" stroke-width="2.2"') + l(17, 16, 22, 16, 2.5) + p('M33 19L31 13H36', 'none', ' stroke-width="2"'),
  bike_bell: () => thick('M4 38H44', 3.5, K.grey) + p('M10 36Q10 14 24 14Q38 14 38 36Z', K.silver) + c(24, 12, 2.5, K.silver) + p('M16 30Q17 22 22 19', 'none', ' stroke="#fff" stroke-width="2"') + thick('M36 36L44 30', 2.5, K.red),
  helmet: () => p('M6 32Q6 10 26 10Q42 10 42 30L36 32Z', K.green) + p('M16 14L20 24M26 11V22M35 14L32 23', 'none', ' stroke="#fff" stroke-width="2.5"') + p('M14 32Q18 42 26 40', 'none', ' stroke-width="1.6"') + r(4, 31, 34, 4, K.black, 2),
  scooter: () => thick('M32 38L36 8', 2.5, K.red) + thick('M30 8H42', 3, K.black) + r(8, 34, 28, 4, K.red, 2) + wheel(10, 40) + wheel(34, 40),
  snowboard: () => `<g transform="rotate(-30 24 24)">${r(4, 17, 40, 14, K.purple, 7)}${p('M12 22Q24 28 36 22', 'none', ' stroke="#fff" stroke-width="2"')}${r(12, 20, 6, 8, K.black, 1)}${r(30, 20, 6, 8, K.black, 1)}</g>`,
  hockey_stick: () => thick('M14 4L30 36', 4, K.brown) + p('M28 32L30 36H44V32Z', K.black) + e(12, 38, 7, 3, K.black) + r(14, 9, 4, 7, K.white, 0, ' transform="rotate(-27 16 12)"'),
  goldfish_bowl: () => p('M14 10H34Q44 18 42 30Q38 42 24 42Q10 42 6 30Q4 18 14 10Z', K.lblue) + thick('M8 18H40', 1.2, K.blue) + e(22, 28, 7, 4.5, K.orange) + g('28,28 34,23 34,33', K.orange) + dot(19, 27, 1, K.ink) + c(16, 20, 1.5, 'none', ' stroke="#fff"'),
  hamster_cage: () => p('M6 42V18Q6 6 24 6Q42 6 42 18V42Z', 'none', ' stroke-width="2"') + [12, 18, 24, 30, 36].map((x) => l(x, 8, x, 42, 0.8)).join('') + r(4, 40, 40, 5, K.orange, 1) + e(22, 34, 8, 6, K.amber) + c(16, 30, 2, K.amber) + dot(16, 32, 1) + c(36, 28, 6, 'none', ' stroke="#3b6fb6" stroke-width="2"'),
  dog_lead: () => c(12, 12, 7, 'none', ' stroke="#c8372d" stroke-width="3"') + p('M17 17Q34 20 26 30Q20 38 34 38', 'none', ' stroke="#c8372d" stroke-width="3"') + r(33, 35, 6, 6, K.silver, 1) + p('M32 44Q39 44 44 40', 'none', ' stroke="#e0a526" stroke-width="2"') + dot(40, 45, 1.6, K.gold),
  cat_toy: () => thick('M4 6Q18 4 24 16', 1.5, K.brown) + p('M24 16L26 10M24 16L30 13M24 16L29 19', 'none', ' stroke="#e88aae" stroke-width="2"') + e(26, 34, 10, 6, K.grey) + c(34, 29, 3.5, K.grey) + c(36, 31, 1, K.pink) + dot(33, 32, 1) + p('M16 34Q8 32 6 40', 'none', ' stroke-width="1.6"'),
  cushion: () => p('M6 8Q24 14 42 8Q36 24 42 40Q24 34 6 40Q12 24 6 8Z', K.red) + c(24, 24, 3, K.gold) + p('M14 16Q24 20 34 16M14 32Q24 28 34 32', 'none', ' stroke="#fff" stroke-width="1" stroke-opacity=".6"'),
  quilt: () => [[K.red, K.cream, K.green], [K.cream, K.blue, K.cream], [K.yellow, K.cream, K.pink]].map((row, y) => row.map((f, x) => r(6 + x * 12, 6 + y * 12, 12, 12, f)).join('')).join('') + p('M6 6H42V42H6Z', 'none', ' stroke-dasharray="2 2"'),
  hot_water_bottle: () => r(20, 4, 8, 6, K.black, 1) + r(21, 9, 6, 6, K.red) + r(9, 14, 30, 30, K.red, 8) + [22, 27, 32, 37].map((y) => l(14, y, 34, y, 1)).join('') + heart(24, 18, 2.5, K.white),
  earmuffs: () => thick('M11 28Q11 6 24 6Q37 6 37 28', 3, K.silver) + c(11, 30, 8, K.white) + c(37, 30, 8, K.white) + c(11, 30, 3.5, K.pink, ' stroke="none"') + c(37, 30, 3.5, K.pink, ' stroke="none"'),
  mittens: () => p('M8 42V18Q8 8 17 8Q24 8 24 18V24L28 20Q32 18 32 23L25 34V42Z', K.blue) + r(7, 36, 19, 7, K.white, 2) + p('M22 42V24Q22 14 31 14Q38 14 38 24V28L42 24Q46 22 46 27L39 36V42Z', K.red, ' fill-opacity=".9"') + r(21, 37, 19, 6, K.white, 2) + star(16, 22, 3, K.white),
  beanie: () => p('M8 34Q8 8 24 8Q40 8 40 34Z', K.teal) + r(6, 30, 36, 10, K.dgreen, 2) + [11, 16, 21, 26, 31, 36].map((x) => l(x, 31, x, 39, 1)).join('') + r(22, 5, 4, 4, K.teal, 1),
  fountain_pen: () => g('6,42 12,30 18,36', K.gold) + l(6, 42, 12, 36, 0.8) + g('12,30 34,8 40,14 18,36', K.black) + g('34,8 38,4 44,10 40,14', K.gold) + l(22, 26, 28, 20, 1.5, K.gold),
  pencil_case: () => r(4, 20, 40, 20, K.blue, 6) + p('M8 20H40', 'none', ' stroke="#c9ced3" stroke-width="2.5"') + c(40, 24, 2.5, K.silver) + g('10,20 13,6 16,20', K.yellow) + g('18,20 22,8 26,20', K.red) + g('28,20 31,10 34,20', K.green) + dot(13, 7, 1.2) + dot(22, 9, 1.2) + dot(31, 11, 1.2),
  calculator: () => r(10, 4, 28, 40, K.black, 3) + r(14, 8, 20, 8, '#b9d9a0', 1) + [0, 1, 2].map((y) => [0, 1, 2].map((x) => r(14 + x * 7, 20 + y * 7, 5.5, 5, x === 2 && y === 2 ? K.orange : K.silver, 1)).join('')).join(''),
  tablet_computer: () => r(8, 4, 32, 40, K.black, 4) + r(11, 8, 26, 30, K.lblue) + mountain(11, 8, 26, 30) + c(24, 41, 1.5, K.grey),
  game_console: () => p('M10 16H38Q46 16 46 28Q46 38 40 38Q36 38 33 32H15Q12 38 8 38Q2 38 2 28Q2 16 10 16Z', K.silver) + r(10, 24, 10, 3, K.black) + r(13.5, 20.5, 3, 10, K.black) + c(33, 23, 2.5, K.red) + c(38, 27, 2.5, K.blue) + c(33, 31, 2.5, K.green) + c(28, 27, 2.5, K.yellow),
  walkie_talkies: () => l(12, 4, 12, 12, 2.5) + r(6, 12, 14, 30, K.yellow, 3) + r(9, 16, 8, 6, K.black) + [25, 29, 33].map((y) => l(9, y, 17, y, 1)).join('') + l(36, 8, 36, 14, 2.5) + r(30, 14, 14, 28, K.orange, 3) + r(33, 18, 8, 6, K.black) + [27, 31, 35].map((y) => l(33, y, 41, y, 1)).join(''),
  remote_car: () => r(4, 4, 14, 12, K.black, 2) + thick('M11 4V0', 1.5, K.ink) + dot(8, 10, 1.6, K.red) + dot(14, 10, 1.6, K.red) + p('M10 38V32L16 30L20 24H34L38 30L44 31V38Z', K.blue) + thick('M36 24L40 14', 1.2, K.ink) + wheel(17, 39) + wheel(37, 39),
  train_ticket: () => ticket(K.cream, r(20, 19, 14, 8, K.green, 1) + r(30, 16, 5, 11, K.green, 1) + wheel(23, 29, 2.5) + wheel(31, 29, 2.5)),
  theatre_tickets: () => `<g transform="rotate(-10 24 24)">${ticket(K.pink, '')}</g>` + ticket(K.red, c(28, 24, 7, K.white) + dot(25.5, 22) + dot(30.5, 22) + p('M25 26Q28 29 31 26', 'none', ' stroke-width="1.2"')),
  cinema_voucher: () => ticket(K.black, c(28, 24, 7, K.silver) + [[28, 20], [32, 24], [28, 28], [24, 24]].map(([x, y]) => dot(x, y, 1.8, K.black)).join('')),
  spa_voucher: () => ticket(K.lgreen, p('M28 30Q20 26 22 18Q28 20 28 30Z', K.green) + p('M28 30Q36 26 34 18Q28 20 28 30Z', K.green) + p('M28 30Q25 22 28 15Q31 22 28 30Z', K.teal)),
  photo_album: () => book(K.brown, '#5e3b20', r(20, 14, 13, 12, K.white) + mountain(21.5, 15.5, 10, 9)) + l(21, 31, 33, 31, 1.5, K.gold),
  picture_frame: () => r(6, 6, 36, 36, K.gold, 2) + r(11, 11, 26, 26, K.white) + mountain(12, 12, 24, 24),
  wall_calendar: () => r(8, 9, 32, 34, K.white, 2) + r(8, 9, 32, 9, K.red, 2) + c(16, 8, 2, 'none', ' stroke-width="1.6"') + c(32, 8, 2, 'none', ' stroke-width="1.6"') + [0, 1, 2, 3].map((y) => [0, 1, 2, 3, 4].map((x) => r(11 + x * 5.5, 21 + y * 5, 3.5, 3, x === 3 && y === 2 ? K.red : K.silver, 0, ' stroke="none"')).join('')).join(''),
  poster: () => r(9, 4, 30, 40, K.blue) + star(24, 18, 8, K.yellow) + r(14, 31, 20, 3, K.white, 0, ' stroke="none"') + r(17, 37, 14, 2, K.white, 0, ' stroke="none"') + c(12, 7, 1.8, K.red) + c(36, 7, 1.8, K.red),
  origami_paper: () => r(4, 30, 16, 14, K.pink, 0) + r(8, 28, 16, 14, K.lblue) + g('12,20 24,28 40,10 28,26 44,24 24,34', K.orange) + g('24,28 22,12 28,26', K.yellow),
  gift_voucher: () => r(4, 12, 40, 24, K.white, 3) + r(4, 12, 40, 24, 'none', 3, ' stroke-dasharray="3 2"') + thick('M30 12V36', 3, K.green) + p('M30 20Q24 12 22 18Q22 22 30 20Q36 12 38 18Q38 22 30 20Z', K.green) + l(9, 22, 24, 22, 1.2) + l(9, 27, 22, 27, 1.2),
};

// A pale background per motif (cycled), so even two drawings of a kind never look the same.
const tints = ['#fdf3dc', '#e7f3e9', '#e5eef9', '#f9e6ec', '#efe7f8', '#e3f4f3', '#fbeadf', '#f2f2e4'];

const outline = 'stroke="#3a2a1e" stroke-width="1.3" stroke-linejoin="round" stroke-linecap="round"';

// The picture of one motif: an inline SVG (decorative: the card's name says what it is).
export function motifSvg(motif) {
  const i = motifIds.indexOf(motif);
  const draw = art[motif];
  const tint = tints[(i < 0 ? 0 : i) % tints.length];
  const body = draw ? draw() : star(24, 24, 14, K.gold);
  return `<svg class="ub-pic" viewBox="0 0 48 48" aria-hidden="true" focusable="false"><rect width="48" height="48" rx="6" fill="${tint}"/><g ${outline}>${body}</g></svg>`;
}

// The card back: red wrapping paper with small gold stars, a gold ribbon both ways and a bow.
export function backSvg() {
  return '<svg class="ub-back" viewBox="0 0 48 58" aria-hidden="true" focusable="false" preserveAspectRatio="none">'
    + '<rect width="48" height="58" rx="5" fill="#b3261e"/>'
    + '<g fill="#f1c65a" opacity=".55"><circle cx="9" cy="9" r="1.4"/><circle cx="39" cy="10" r="1.4"/><circle cx="10" cy="48" r="1.4"/><circle cx="38" cy="47" r="1.4"/><circle cx="9" cy="28" r="1"/><circle cx="39" cy="30" r="1"/><circle cx="18" cy="40" r="1"/><circle cx="31" cy="18" r="1"/></g>'
    + '<rect x="20" width="8" height="58" fill="#e0a526"/><rect y="25" width="48" height="8" fill="#e0a526"/>'
    + '<path d="M24 29C14 18 8 24 12 29C14 32 20 31 24 29C28 31 34 32 36 29C40 24 34 18 24 29Z" fill="#f1c65a" stroke="#8e6a10" stroke-width="1"/>'
    + '<circle cx="24" cy="29" r="3" fill="#e0a526" stroke="#8e6a10" stroke-width="1"/></svg>';
}

// Where the long words of the motif names may break, in both languages ("-" marks a syllable
// break): a caption on a small card breaks only there, with a hyphen, never inside a syllable.
const syllables = `Schaukel-pferd Spiel-zeug-eisen-bahn Schnee-kugel Woll-schal Strick-hand-schuhe Bommel-mütze
Brett-spiel Skate-board Roll-schuhe Schlitt-schuhe Schlit-ten Basket-ball Tennis-schläger Tele-scope Mikro-skop
Micro-scope Chemie-bau-kasten Chemis-try Mal-kasten Wachs-mal-stifte Skizzen-buch Sketch-book Märchen-buch
Story-book Arm-band-uhr Wrist-watch Foto-apparat Kopf-hörer Head-phones Platten-spieler Schlag-zeug
Mund-harmo-nika Harmo-nica Xylo-phone Xylo-phon Puppen-haus Stoff-puppe Hand-puppe Spiel-zeug-roboter
Feuer-wehr-auto Spiel-zeug-flug-zeug Segel-schiff Bau-klötze Spiel-karten Schach-spiel Zauber-kasten
Kaleido-skop Kaleido-scope Seifen-blasen Wasser-pistole Wasser-ball Regen-schirm Regen-mantel Gummi-stiefel
Haus-schuhe Bade-mantel Schlaf-anzug Woll-socken Strick-jacke Hand-tasche Geld-börse Sonnen-brille Sun-glasses
Seifen-set Haar-bürste Hair-brush Hand-spiegel Hals-kette Silber-ring Haar-spange Duft-kerze Lichter-kette
Blumen-vase Tee-service Kaffee-mühle Waffel-eisen Kuchen-form Leb-kuchen Ginger-bread Choco-lates Zucker-stange
Honig-glas Marme-lade Nuss-knacker Nut-cracker Kuckucks-uhr Blumen-topf Vogel-häus-chen Gieß-kanne Garten-zwerg
Werk-zeug-kasten Schrauben-zieher Screw-driver Taschen-lampe Taschen-messer Bino-culars Thermos-kanne
Picknick-decke Hänge-matte Schlaf-sack Fahr-rad-klingel Snow-board Hockey-schläger Gold-fisch-glas
Hamster-käfig Hunde-leine Katzen-spiel-zeug Stepp-decke Wärm-flasche Ohren-schützer Fäust-linge Strick-mütze
Feder-mäpp-chen Taschen-rechner Calcu-lator Spiel-konsole Fern-gesteu-ertes Zug-ticket
Theater-karten Kino-gut-schein Wellness-gut-schein Foto-album Bilder-rahmen Wand-kalender Origami-papier
Geschenk-gut-schein`.split(/\s+/);
const breaks = new Map(syllables.map((s) => [s.replace(/-/g, '').toLowerCase(), s]));

// A caption as HTML-ready text: known long words get soft hyphens at their syllable breaks
// (U+00AD, shown as "-" only where the line breaks). `esc` is applied by the caller first.
export function hyphenate(text) {
  return String(text).replace(/[\p{L}]{9,}/gu, (word) => {
    const known = breaks.get(word.toLowerCase());
    if (!known) return word;
    let out = '';
    let i = 0;
    for (const ch of known) {
      if (ch === '-') out += '\u00AD';
      else out += word[i++];
    }
    return out;
  });
}

// A motif's picture with its name under it (the name already in the page's language).
// Its longest piece that cannot break (`--len`, in letters) lets the CSS shrink a long name until
// it fits the card, rather than breaking a word.
export function motifCardHtml(motif, name) {
  const text = hyphenate(name);
  const len = Math.max(...text.split(/[\s\u00AD]|(?<=-)/).map((piece) => piece.length + (/\u00AD/.test(text) ? 1 : 0)));
  return `<span class="motif"><span class="pic">${motifSvg(motif)}</span><span class="name" style="--len:${len}">${esc(text)}</span></span>`;
}
