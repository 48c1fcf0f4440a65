// Colour-blind safe boards (issue 31): every colour that carries meaning is also told apart by a
// shape (js/marks.js: red heart, blue diamond, green fir, yellow star, purple square, orange
// circle). A host on a desktop (English) plays with computer players, a relative watches on a
// 390 px phone (German); on both screens, at both sizes:
//
// - every element that carries a colour (a seat's dot, a penguin, Santa's badge, a channel's buoys,
//   an event stone, a present or stone chip, a Happy Holidays gift pile, load, stack or result, a
//   die face's half) carries that colour's shape, drawn (the path is the shape's own) and big
//   enough to see (7 px; two figures sharing a floe on the phone's largest ice 5.25 px);
// - no two colours share a shape and no colour has two: the shape alone tells them apart;
// - the board is photographed as a person with deuteranopia, protanopia and achromatopsia sees it
//   (Chromium's vision deficiency emulation), for review in build/screenshots (cb-*.png).
import assert from 'node:assert/strict';
import { assertCleanText, assertNoPageErrors, assertNoSideScroll, createRoom, newPlayer, playOneStep, run, screenshot, sleep } from './lib.mjs';

const desktop = { width: 1280, height: 900 };
const phone = { width: 390, height: 844 };
const deficiencies = ['deuteranopia', 'protanopia'];

// Chromium draws the page as a person with `type` of colour vision deficiency sees it ('none': as
// everyone else).
async function see(page, type) {
  page.cdp ||= await page.context().newCDPSession(page);
  await page.cdp.send('Emulation.setEmulatedVisionDeficiency', { type });
}

// Screenshots of the page at both sizes, once as it is and once per deficiency (achromatopsia
// too, on the desktop); back to its own size afterwards.
async function shots(page, name, own) {
  for (const [size, viewport] of [['390', phone], ['desktop', desktop]]) {
    await page.setViewportSize(viewport);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await assertNoSideScroll(page, `${name} at ${size}`);
    const types = ['none', ...deficiencies, ...(size === 'desktop' ? ['achromatopsia'] : [])];
    for (const type of types) {
      await see(page, type);
      await screenshot(page, `cb-${name}-${size}${type === 'none' ? '' : `-${type}`}.png`);
    }
    await see(page, 'none');
  }
  await page.setViewportSize(own);
}

// Every coloured element on the page: its colour, its shape, and whether the shape is drawn (a
// path with the shape's own outline, at least `minPx` across). Read in one go, so that a push
// cannot fall between two reads.
function marksOnPage(page, minPx) {
  return page.evaluate(async (min) => {
    const { shapes } = await import('/js/marks.js');
    const out = [];
    for (const el of document.querySelectorAll('#screen [data-colour]')) {
      const colour = el.dataset.colour;
      const mark = el.dataset.mark;
      // The drawn shape: the element itself (a path), or the path inside it (a small picture, a
      // seat's dot), or a picture of the shape inside a piece, chip or pile.
      const drawn = el.matches('path') ? el
        : el.querySelector(`path.mark[data-mark="${mark}"], path.buoy[data-mark="${mark}"], svg.mark[data-mark="${mark}"] path`)
          || (el.matches('svg.mark, .seat-mark') ? el.querySelector('path:last-of-type') : null);
      const box = drawn?.getBoundingClientRect();
      const piece = el.closest('.piece')?.getAttribute('aria-label');
      const what = [el.closest('[data-testid]')?.dataset.testid || el.className?.baseVal || el.className || el.tagName, piece].filter(Boolean).join(': ');
      out.push({
        colour, mark, what: String(what).slice(0, 80),
        drawn: Boolean(drawn) && drawn.getAttribute('d') === shapes[mark],
        px: box ? Math.round(Math.min(box.width, box.height) * 10) / 10 : 0,
        shown: Boolean(box && box.width > 0 && el.closest('details:not([open])') === null),
        shared: Boolean(el.closest('.piece.shared')),
      });
    }
    // Elements painted in a colour of meaning that carry no colour name at all would escape the
    // check above: the pieces' own classes, each of which must say its colour.
    const unnamed = [...document.querySelectorAll('#screen .dot, #screen .present, #screen .stone-chip, #screen .pile, #screen .tower, #screen .load-group, #screen .gift-row .gift, #screen .cp-board .channel')]
      .filter((el) => !el.dataset.colour).map((el) => el.className);
    return { out, unnamed, min };
  }, minPx);
}

// The second channel is there and one to one: each colour its own shape, drawn and seen.
async function assertMarks(page, where, { minPx = 7, colours = [] } = {}) {
  const { out, unnamed } = await marksOnPage(page, minPx);
  const seen = out.filter((m) => m.shown);
  const least = (list) => (list.length ? list.reduce((a, m) => (m.px < a.px ? m : a)) : null);
  const say = (m) => (m ? `${m.px} px (the ${m.mark} of ${m.what})` : '–');
  console.log(`${where}: ${seen.length} shapes, the smallest ${say(least(seen.filter((m) => !m.shared)))}; on a shared floe ${say(least(seen.filter((m) => m.shared)))}`);
  assert.deepEqual(unnamed, [], `${where}: coloured pieces without a colour and shape`);
  assert.ok(out.length > 0, `${where}: coloured pieces on the screen`);
  const shapeOf = new Map();
  const colourOf = new Map();
  // Two figures on one floe stand side by side at 60 %: on a phone with the largest ice their
  // shapes may be a little smaller (a long press names them).
  const small = out.filter((m) => m.shown && m.px < (m.shared ? minPx * 0.75 : minPx)).map((m) => `the ${m.mark} of ${m.what} in ${m.colour}: ${m.px} px`);
  assert.deepEqual(small, [], `${where}: shapes under ${minPx} px`);
  for (const m of out) {
    assert.ok(m.mark, `${where}: ${m.what} in ${m.colour} has no shape`);
    assert.ok(m.drawn, `${where}: ${m.what} in ${m.colour} does not draw its shape (${m.mark})`);
    assert.equal(shapeOf.get(m.colour) ?? m.mark, m.mark, `${where}: ${m.colour} wears two shapes`);
    assert.equal(colourOf.get(m.mark) ?? m.colour, m.colour, `${where}: ${m.mark} is worn by two colours`);
    shapeOf.set(m.colour, m.mark);
    colourOf.set(m.mark, m.colour);
  }
  for (const c of colours) assert.ok(shapeOf.has(c), `${where}: ${c} is on the screen with its shape (${[...shapeOf.keys()]})`);
  return out;
}

async function addBots(page, seats) {
  for (let n = await page.locator('ul.seats li.seat:not(.empty)').count(); n < seats; n++) {
    await page.locator('[data-act="add-bot"]').click();
    await page.locator('[data-testid="add-bot-fair"]').click();
    await page.locator('ul.seats li.seat:not(.empty)').nth(n).waitFor();
  }
}

// A relative who watches from the watch link, in German, on a phone.
async function watcher(browser, baseUrl, code) {
  const opa = await newPlayer(browser, 'Opa', { locale: 'de-DE', viewport: phone, hasTouch: true });
  await opa.page.goto(`${baseUrl}/watch/${code}`);
  await opa.page.fill('#name', 'Opa Karl');
  await opa.page.locator('button[data-as="spectator"]').click();
  await opa.page.getByTestId('room-code').waitFor();
  return opa;
}

const seatColours = ['red', 'blue', 'green', 'yellow', 'purple', 'orange'];
const pick = (n) => Math.floor(Math.random() * n);

// Christmas Penguins: one step of the host's turn, as a person plays it (a water channel first,
// so that its buoys are on the ice; then a highlighted floe, or a choice). False: nothing to do.
async function cpStep(page, state) {
  if (!(await page.locator('.turn-bar.mine').count())) return false;
  try {
    const channelMode = page.locator('button[data-act="cp-mode"][data-mode="channel"]');
    // Once more if no channel is on the board a while after (a green stone takes a floe's channels
    // with it).
    const none = !(await page.locator('.cp-board .channel').count());
    if (none && Date.now() - (state.channelAt ?? 0) > 5000 && (await channelMode.count())) {
      await channelMode.click({ timeout: 1000 });
      await page.locator('.cp-board .floe.mode').first().click({ timeout: 1000 });
      const partners = page.locator('.cp-board .floe.mode:not(.chosen)');
      await partners.nth(pick(await partners.count())).click({ timeout: 1000 });
      state.channelAt = Date.now();
      return true;
    }
    const targets = page.locator('.cp-board .floe.target');
    const n = await targets.count();
    if (n) {
      await targets.nth(pick(n)).click({ timeout: 1000 });
      return true;
    }
    const primary = page.locator('.actions button.action.primary');
    const buttons = page.locator('.actions button.action');
    const m = await buttons.count();
    if (!m) return false;
    await ((await primary.count()) ? primary.first() : buttons.nth(pick(m))).click({ timeout: 1000 });
    return true;
  } catch {
    return false; // the screen changed under the click: look again
  }
}

// Plays the host's turns until `test` holds on every page in `pages`: it returns true, or a word on
// what is still missing (printed if the time runs out).
async function playUntil(host, pages, what, test, step, timeout = 180000) {
  const deadline = Date.now() + timeout;
  const state = {};
  for (;;) {
    const seen = [];
    for (const p of pages) seen.push(await p.evaluate(test));
    if (seen.every((r) => r === true)) return;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeout / 1000} s (${seen.map((r) => (r === true ? 'ready' : r || 'not yet')).join('; ')})`);
    if (!(await step(host, state))) await sleep(100);
  }
}

await run('browser: Christmas Penguins tells every colour apart by its shape', async ({ browser, baseUrl }) => {
  const host = await newPlayer(browser, 'Oma Inge', { viewport: desktop });
  // No time limit: the host plays her turns here, the computer players theirs.
  const code = await createRoom(host.page, baseUrl, 'Oma Inge', 'Christmas Penguins', { maxPlayers: 6, mainTimeoutSec: 'off' });
  await addBots(host.page, 6);
  const opa = await watcher(browser, baseUrl, code);
  // The lobby: six seats, six shapes.
  await assertMarks(host.page, 'the lobby (desktop)', { colours: seatColours });
  await opa.page.locator('ul.seats li.seat:not(.empty)').nth(5).waitFor();
  await assertMarks(opa.page, 'the lobby (phone, de)', { colours: seatColours });
  for (const type of ['none', ...deficiencies]) {
    await see(opa.page, type);
    await screenshot(opa.page, `cb-lobby-de-390${type === 'none' ? '' : `-${type}`}.png`);
  }
  await see(opa.page, 'none');

  await host.page.locator('[data-act="start"]:not([disabled])').click();
  // Into the game: every penguin on the ice, the second round under way.
  // The host builds a water channel on her first turn: its buoys wear her shape.
  const ready = () => import('/js/state.js').then(({ store }) => {
    const v = store.state?.view;
    if (!v) return 'no game yet';
    const onIce = v.players.filter((p) => typeof p.penguin === 'number').length;
    const pieces = document.querySelectorAll('.cp-board .piece[data-colour]').length;
    const channels = document.querySelectorAll('.cp-board .channel').length;
    return (v.round >= 2 && onIce >= 5 && pieces >= 6 && channels > 0)
      || `round ${v.round}, ${onIce} penguins on the ice, ${pieces} coloured pieces, ${channels} channels${store.state.over ? ', game over' : ''}`;
  });
  await playUntil(host.page, [host.page, opa.page], 'the second round with every penguin on the ice and a channel', ready, cpStep);

  await shots(host.page, 'cp-en', desktop);
  await shots(opa.page, 'cp-de', phone);
  for (const [p, where, lang] of [[host.page, 'desktop, en', 'en'], [opa.page, 'phone, de', 'de']]) {
    const marks = await assertMarks(p, `the board (${where})`, { colours: seatColours });
    assert.ok(marks.length > 0);
    // On the ice: the penguins (and Santa's badge) and the stones wear their shapes.
    const stones = await p.locator('.cp-board .piece[data-colour] path.mark').count();
    assert.ok(stones >= 6, `${where}: penguins, Santa and stones on the ice wear shapes (${stones})`);
    await assertCleanText(p, lang);
  }
  assertNoPageErrors(host.page, opa.page);
});

await run('browser: Happy Holidays tells every colour apart by its shape', async ({ browser, baseUrl }) => {
  const host = await newPlayer(browser, 'Oma Inge', { viewport: desktop });
  const code = await createRoom(host.page, baseUrl, 'Oma Inge', 'Happy Holidays', { maxPlayers: 4, mainTimeoutSec: 'off', giftsPerColour: 5 });
  await addBots(host.page, 4);
  const opa = await watcher(browser, baseUrl, code);
  await host.page.locator('[data-act="start"]:not([disabled])').click();

  // Gifts on stacks and sleighs, and the die showing two colours.
  const ready = () => Boolean(document.querySelectorAll('.tower:not(.none)').length >= 2
    && /^(red|green|blue|yellow)_(red|green|blue|yellow)$/.test(document.querySelector('[data-testid="hh-die"]')?.dataset.face));
  const gifts = ['red', 'green', 'blue', 'yellow'];
  for (const [p, where, lang, own] of [[host.page, 'desktop, en', 'en', desktop], [opa.page, 'phone, de', 'de', phone]]) {
    for (let tries = 0; ; tries++) {
      await playUntil(host.page, [p], 'stacks and a die with two colours', ready, playOneStep);
      const marks = await assertMarks(p, `the board (${where})`, { colours: gifts });
      // The die's two halves: read again with the marks, a roll may have fallen in between.
      const die = marks.filter((m) => m.what === 'hh-die');
      if (die.length === 0 && tries < 5) continue;
      assert.ok(die.length >= 1, `${where}: the die's colours wear their shapes`);
      break;
    }
    // Each gift box under the tree and on a sleigh has its colour's shape as a sticker.
    const boxes = await p.evaluate(async () => {
      const { markOf, shapes } = await import('/js/marks.js');
      return [...document.querySelectorAll('#screen .pile-boxes .gb, #screen .load-boxes .gb')].map((el) => {
        const colour = [...el.classList].find((k) => k.startsWith('gb-') && k !== 'gb-mark')?.slice(3);
        return el.querySelector('.gb-mark path')?.getAttribute('d') === shapes[markOf[colour]] ? 'ok' : `${colour}: ${el.innerHTML}`;
      });
    });
    assert.ok(boxes.length > 0, `${where}: gift boxes on the screen`);
    assert.deepEqual(boxes.filter((b) => b !== 'ok'), [], `${where}: gift boxes without their shape`);
    await assertCleanText(p, lang);
    await shots(p, `hh-${lang}`, own);
  }
  // The results: each player's stacks with their shapes, and the seats' dots.
  await playUntil(host.page, [host.page], 'the end of the game', () => Boolean(document.querySelector('[data-testid="results"]')), playOneStep, 240000);
  await opa.page.getByTestId('results').waitFor({ timeout: 30000 });
  await assertMarks(host.page, 'the results (desktop, en)', { colours: [...gifts, ...seatColours.slice(0, 4)].filter((c, i, a) => a.indexOf(c) === i) });
  await assertMarks(opa.page, 'the results (phone, de)', { colours: gifts });
  for (const type of ['none', ...deficiencies]) {
    await see(opa.page, type);
    await screenshot(opa.page, `cb-hh-results-de-390${type === 'none' ? '' : `-${type}`}.png`);
  }
  assertNoPageErrors(host.page, opa.page);
});
