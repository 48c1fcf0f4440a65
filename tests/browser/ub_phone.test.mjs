// Unterm Baum on a phone (issue 31): a grandmother on a 390 × 844 phone in German, against a
// computer player, in a timed game (the turn bar then carries its clock line too).
//
// - During her turn the sticky bars (the turn bar at the top, the dock of choices at the bottom)
//   together cover less than a fifth of the screen, also while a card is chosen.
// - The placement in two taps without scrolling away from the card: she taps a card on the tree;
//   without her scrolling, a chip of the chosen card and free places on her own table are both on
//   the screen, outside every sticky bar (the geometry from getBoundingClientRect against
//   window.innerHeight). Her second tap, at that place's position on the screen as it is, places the
//   card, and the server's next state shows it there (her table counts 1 present, the log says
//   where it went). Before that, the chip's ✕ leaves a chosen card where it is. In her next turn
//   she takes that card from her own table: a place it may go is on the screen next to the chip.
// - A free place on the tree is an empty hook, not a hole: it has no dashed frame or light fill.
// - The results on the phone name every present on the tables under its picture.
import assert from 'node:assert/strict';
import {
  assertCleanText, assertNoPageErrors, assertNoSideScroll, newPlayer, run, screenshotDir, setOption, sleep,
} from './lib.mjs';

const phone = { width: 390, height: 844 };

// The screen as it is (not scrolled to the top first, as lib.mjs's screenshot does).
async function shot(page, file) {
  await page.screenshot({ path: `${screenshotDir}/${file}` });
  console.log(`screenshot ${screenshotDir}/${file}`);
}

// The part of the viewport's height under sticky or fixed bars that are on screen (their union,
// clipped to the viewport), and which bars those are.
function barsCover(page) {
  return page.evaluate(() => {
    const H = window.innerHeight;
    const spans = [];
    for (const el of document.querySelectorAll('body *')) {
      const pos = getComputedStyle(el).position;
      if (pos !== 'sticky' && pos !== 'fixed') continue;
      const r = el.getBoundingClientRect();
      if (r.height < 1 || r.width < 1 || getComputedStyle(el).visibility === 'hidden') continue;
      const top = Math.max(0, r.top);
      const bottom = Math.min(H, r.bottom);
      if (bottom > top) spans.push([top, bottom, el.className || el.id]);
    }
    spans.sort((a, b) => a[0] - b[0]);
    let covered = 0;
    let end = 0;
    for (const [top, bottom] of spans) {
      if (bottom <= end) continue;
      covered += bottom - Math.max(top, end);
      end = bottom;
    }
    return { covered, share: covered / H, bars: spans.map(([a, b, name]) => `${name} ${Math.round(a)}–${Math.round(b)}`) };
  });
}

// Waits until nothing passing lies over the board: the moment banner gone, the first-turn tip and
// the offer of notifications answered.
async function quietScreen(page) {
  const deadline = Date.now() + 30000;
  for (;;) {
    for (const sel of ['#coach-never', '[data-testid="calls-no"]']) {
      const el = page.locator(sel);
      if (await el.count() && await el.first().isVisible()) await el.first().click().catch((e) => console.log(String(e).slice(0, 300)));
    }
    const quiet = await page.evaluate(() => !document.querySelector('#moment:not([hidden])') && !document.querySelector('#coach')
      && !document.querySelector('[data-testid="calls-offer"]:not([hidden])'));
    if (quiet) return;
    if (Date.now() > deadline) throw new Error(`a banner, tip or offer stays over the board: ${await page.evaluate(() => [document.querySelector('#moment')?.className, document.querySelector('#moment')?.textContent, !!document.querySelector('#coach'), document.querySelector('[data-testid="calls-offer"]')?.outerHTML].join(' / '))}`);
    await sleep(200);
  }
}

// Waits until the page has not scrolled for several frames in a row (a smooth scroll has ended).
function scrollSettled(page) {
  return page.waitForFunction(() => {
    const y = window.scrollY;
    if (window.ubLastY === y) window.ubSameFrames = (window.ubSameFrames || 0) + 1;
    else window.ubSameFrames = 0;
    window.ubLastY = y;
    return window.ubSameFrames >= 8;
  }, null, { polling: 'raf', timeout: 15000 });
}

// Waits until at least `min` elements matching `selector` lie on the screen between the turn bar
// and the dock (the page brings them there by itself, with a smooth scroll that on a busy machine
// may begin some frames late), then until the scroll has ended.
async function placesInView(page, selector, min) {
  await page.waitForFunction(({ sel, n }) => {
    const bar = document.querySelector('#screen .turn-bar')?.getBoundingClientRect();
    const dock = document.querySelector('#screen .actions')?.getBoundingClientRect();
    if (!bar || !dock) return false;
    return [...document.querySelectorAll(sel)].filter((el) => {
      const r = el.getBoundingClientRect();
      return r.top >= bar.bottom && r.bottom <= dock.top && r.top >= 0 && r.bottom <= window.innerHeight;
    }).length >= n;
  }, { sel: selector, n: min }, { polling: 'raf', timeout: 20000 }).catch(() => {});
  await scrollSettled(page);
}

await run('browser: the Unterm Baum phone placement in two taps without scrolling away from the card', async ({ browser, baseUrl }) => {
  const oma = await newPlayer(browser, 'Oma', { locale: 'de-DE', viewport: phone, hasTouch: true, isMobile: true });
  const { page } = oma;
  await page.goto(`${baseUrl}/`);
  await page.fill('#name', 'Oma Rosi');
  await page.locator('[data-act="pick-game"][data-game="unterm_baum"]').click();
  await page.locator('#create-form').waitFor();
  const options = { maxPlayers: 2, maxRounds: 2, startPlayer: 'host-picks', assignSeconds: 3, memorizeSeconds: 2, revealSeconds: 4, mainTimeoutSec: 600 };
  for (const [k, v] of Object.entries(options)) await setOption(page, k, v);
  await page.locator('#create-form button[type="submit"]').click();
  await page.getByTestId('room-code').waitFor();
  await page.locator('[data-act="add-bot"]').click();
  await page.locator('[data-testid="add-bot-fair"]').click();
  await page.locator('[data-act="start"]:not([disabled])').click();
  await page.getByTestId('ub-folded').waitFor({ timeout: 60000 });
  await page.locator('.turn-bar.mine').waitFor({ timeout: 60000 });
  await quietScreen(page);
  await scrollSettled(page);

  // Her turn: the bar says so and shows the clock; the dock says what to tap.
  assert.equal(await page.getByTestId('turn').textContent(), 'Du bist dran!');
  assert.equal(await page.locator('.turn-bar .countdown').count(), 1, 'a timed turn: the clock is in the bar');
  assert.equal(await page.locator('#screen .actions .hint').innerText(), 'Tippe eine Karte an: alle sehen sie kurz.');
  // The sticky bars at the top of the page and further down (both stuck there).
  for (const y of [0, 700]) {
    await page.evaluate((to) => window.scrollTo(0, to), y);
    await scrollSettled(page);
    const c = await barsCover(page);
    assert.ok(c.share < 0.2, `during a turn the sticky bars cover ${(c.share * 100).toFixed(1)} % of the screen (at ${y}): ${c.bars.join(', ')}`);
  }
  await assertNoSideScroll(page, 'a turn on the phone');
  await shot(page, 'ub-phone-turn-de-390.png');

  // "Karte verschieben": the tree is in view; she taps a card on it.
  await page.locator('#screen .actions button.mode[data-mode="move"]').tap();
  await page.locator('#screen .actions button.mode[data-mode="move"][aria-pressed="true"]').waitFor();
  assert.equal(await page.locator('#screen .actions .hint').innerText(), 'Tippe die Karte an, die du verschiebst.');
  await page.evaluate(() => document.querySelector('#screen [data-testid="ub-tree"]').scrollIntoView({ block: 'center' }));
  await scrollSettled(page);
  // A card of the tree that lies fully on the screen, outside the bars: its middle, where she taps.
  const treeCard = () => page.evaluate(() => {
    const bar = document.querySelector('#screen .turn-bar').getBoundingClientRect();
    const dock = document.querySelector('#screen .actions').getBoundingClientRect();
    const card = [...document.querySelectorAll('#screen .ub-tree .ub-card.can.full')]
      .find((el) => { const r = el.getBoundingClientRect(); return r.top > bar.bottom && r.bottom < dock.top; });
    if (!card) return null;
    const r = card.getBoundingClientRect();
    return { id: card.dataset.testid, x: r.left + r.width / 2, y: r.top + r.height / 2 };
  });

  // First a card chosen and left where it is: the chip's ✕.
  let card = await treeCard();
  assert.ok(card, 'a card of the tree is on the screen');
  await page.touchscreen.tap(card.x, card.y);
  await page.getByTestId('ub-pick').waitFor({ timeout: 10000 });
  await scrollSettled(page);
  await page.getByTestId('ub-pick-cancel').tap();
  await page.getByTestId('ub-pick').waitFor({ state: 'detached', timeout: 10000 });
  assert.equal(await page.locator('#screen .ub-card.selected').count(), 0, 'no card is chosen after ✕');
  assert.equal(await page.locator(`[data-testid="${card.id}"].full`).count(), 1, 'the card is still on the tree');
  assert.equal(await page.locator('#screen .actions button.mode[data-mode="move"][aria-pressed="true"]').count(), 1, 'still moving a card');

  // Now the two taps. The first: a card on the tree.
  await page.evaluate(() => document.querySelector('#screen [data-testid="ub-tree"]').scrollIntoView({ block: 'center' }));
  await scrollSettled(page);
  card = await treeCard();
  await page.touchscreen.tap(card.x, card.y);
  await page.getByTestId('ub-pick').waitFor({ timeout: 10000 });
  // Without her scrolling: the chip of the chosen card and free places on her own table are on the
  // screen together, outside the sticky bars.
  await placesInView(page, '#screen .ub-field.mine .ub-card.can.free', 5);
  const seen = await page.evaluate(() => {
    const H = window.innerHeight;
    const bar = document.querySelector('#screen .turn-bar').getBoundingClientRect();
    const dock = document.querySelector('#screen .actions').getBoundingClientRect();
    const chip = document.querySelector('[data-testid="ub-pick"]').getBoundingClientRect();
    const places = [...document.querySelectorAll('#screen .ub-field.mine .ub-card.can.free')].map((el) => ({ id: el.dataset.testid, r: el.getBoundingClientRect() }))
      .filter(({ r }) => r.top >= bar.bottom && r.bottom <= dock.top && r.top >= 0 && r.bottom <= H);
    return {
      H, chip: { top: chip.top, bottom: chip.bottom }, scrollY: window.scrollY,
      chipText: document.querySelector('[data-testid="ub-pick"]').innerText.replace(/\s+/g, ' ').trim(),
      selected: document.querySelector('#screen .ub-card.selected')?.dataset.testid,
      places: places.map(({ id, r }) => ({ id, x: r.left + r.width / 2, y: r.top + r.height / 2 })),
    };
  });
  assert.equal(seen.selected, card.id, 'the tapped card is the chosen one');
  assert.ok(seen.chip.top >= 0 && seen.chip.bottom <= seen.H, `the chip of the chosen card is on the screen (${seen.chip.top}–${seen.chip.bottom} of ${seen.H})`);
  assert.match(seen.chipText, /^Karte vom Baum Wohin\? Tippe einen freien Platz an\./);
  assert.ok(seen.places.length >= 5, `free places on her own table are on the screen next to the chip (${seen.places.length})`);
  const c = await barsCover(page);
  assert.ok(c.share < 0.2, `with a card chosen the sticky bars cover ${(c.share * 100).toFixed(1)} % of the screen: ${c.bars.join(', ')}`);
  await shot(page, 'ub-phone-chosen-de-390.png');

  // The second tap, where the place is on the screen now: the card is placed.
  const place = seen.places[0];
  await page.touchscreen.tap(place.x, place.y);
  await page.locator(`[data-testid="${place.id}"].full`).waitFor({ timeout: 10000 });
  // The server's state shows it: her table holds one present, the tree one fewer, the log says so.
  await page.locator('#screen .ub-field.mine .ub-count').getByText('1 von 8 Geschenken').waitFor({ timeout: 10000 });
  assert.equal(await page.locator(`[data-testid="${card.id}"].free`).count(), 1, 'the place on the tree is free');
  await page.getByTestId('log').getByText(/^Du verschiebst eine Karte vom Baum \(.+\) auf deinen Tisch \(bei .+, 1\. Platz\)$/).waitFor({ timeout: 10000 });
  assert.equal(await page.getByTestId('ub-pick').count(), 0, 'no chip once the card is placed');
  assert.equal(await page.locator('#screen .actions button.mode[data-mode="move"]').count(), 0, 'the move of this turn is used');
  await shot(page, 'ub-phone-placed-de-390.png');

  // The free place on the tree is an empty hook on its branch, not a hole cut into the tree.
  const hook = await page.locator(`[data-testid="${card.id}"]`).evaluate((el) => {
    const s = getComputedStyle(el);
    const ring = getComputedStyle(el, '::after');
    return { border: s.borderTopStyle, bg: s.backgroundColor, ring: ring.borderTopStyle, round: ring.borderTopLeftRadius };
  });
  assert.equal(hook.border, 'none', 'a free place on the tree has no frame');
  assert.equal(hook.bg, 'rgba(0, 0, 0, 0)', 'nor a light fill');
  assert.equal(hook.ring, 'dashed', 'it shows an empty bauble');
  await page.locator(`[data-testid="${card.id}"]`).evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await scrollSettled(page);
  await page.locator('#screen .ub-tree').screenshot({ path: `${screenshotDir}/ub-phone-tree-free-de-390.png` });

  // She ends her turn; after the computer player's, in her next turn she takes the card from her
  // table again: the places it may go (the tree, the other table) come into view next to the chip.
  await page.locator('#screen .actions button.action').tap();
  await page.locator('.turn-bar.mine').waitFor({ state: 'detached', timeout: 30000 });
  await page.locator('.turn-bar.mine').waitFor({ timeout: 60000 });
  await quietScreen(page);
  await page.locator('#screen .actions button.mode[data-mode="move"]').tap();
  await page.locator('#screen .actions button.mode[data-mode="move"][aria-pressed="true"]').waitFor();
  await page.locator(`[data-testid="${place.id}"]`).evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await scrollSettled(page);
  const own = await page.locator(`[data-testid="${place.id}"]`).evaluate((el) => { const r = el.getBoundingClientRect(); return { x: r.left + r.width / 2, y: r.top + r.height / 2 }; });
  await page.touchscreen.tap(own.x, own.y);
  await page.getByTestId('ub-pick').waitFor({ timeout: 10000 });
  await placesInView(page, '#screen .ub-board .ub-card.can:not(.selected)', 1);
  const back = await page.evaluate(() => {
    const bar = document.querySelector('#screen .turn-bar').getBoundingClientRect();
    const dock = document.querySelector('#screen .actions').getBoundingClientRect();
    const chip = document.querySelector('[data-testid="ub-pick"]').getBoundingClientRect();
    const places = [...document.querySelectorAll('#screen .ub-board .ub-card.can:not(.selected)')].map((el) => ({ id: el.dataset.testid, r: el.getBoundingClientRect() }))
      .filter(({ r }) => r.top >= bar.bottom && r.bottom <= dock.top);
    return {
      chipIn: chip.top >= 0 && chip.bottom <= window.innerHeight, text: document.querySelector('[data-testid="ub-pick"]').innerText.replace(/\s+/g, ' ').trim(),
      places: places.map(({ id, r }) => ({ id, x: r.left + r.width / 2, y: r.top + r.height / 2 })),
    };
  });
  assert.ok(back.chipIn, 'the chip is on the screen');
  assert.match(back.text, /^Karte von deinem Tisch \(.+\) Wohin\? Tippe einen freien Platz an\./);
  assert.ok(back.places.length > 0, 'a place the card may go is on the screen next to the chip');
  await shot(page, 'ub-phone-chosen-own-de-390.png');
  await page.touchscreen.tap(back.places[0].x, back.places[0].y);
  await page.locator(`[data-testid="${back.places[0].id}"].full`).waitFor({ timeout: 10000 });
  await page.locator(`[data-testid="${place.id}"].free`).waitFor({ timeout: 10000 });

  // She ends her turn; the computer player's turn ends the last round: the results.
  await page.locator('#screen .actions button.action').tap();
  await page.getByTestId('results').waitFor({ timeout: 60000 });
  await quietScreen(page).catch(() => {});
  await assertNoSideScroll(page, 'the results on the phone');
  await assertCleanText(page, 'de');
  // Every present on the tables is named under its picture, and the name fits its card.
  const named = await page.evaluate(() => [...document.querySelectorAll('#screen .ub-field .ub-card.full')].map((el) => {
    const name = el.querySelector('.motif .name');
    const r = name?.getBoundingClientRect();
    const card = el.getBoundingClientRect();
    return {
      label: el.getAttribute('aria-label'), name: name ? name.textContent.replace(/\u00AD/g, '') : null,
      shown: !!name && getComputedStyle(name).display !== 'none' && r.width > 0 && r.height > 0,
      inside: !!r && r.left >= card.left - 1 && r.right <= card.right + 1 && r.bottom <= card.bottom + 1 && name.scrollWidth <= name.clientWidth + 1,
    };
  }));
  assert.ok(named.length >= 1, 'a present lies on a table');  // the computer player's, at least
  for (const n of named) {
    assert.ok(n.shown, `the present is named on the phone: ${n.label}`);
    assert.ok(n.inside, `its name fits its card: ${n.name}`);
    assert.ok(n.label.includes(n.name), `"${n.name}" is the present's name (${n.label})`);
  }
  await page.locator('#screen .ub-field:has(.ub-card.full)').first().evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await scrollSettled(page);
  await shot(page, 'ub-phone-results-table-de-390.png');
  // The same in English on the phone and on a desktop.
  await page.locator('#lang').click();
  await page.getByTestId('results').getByText('Game over').first().waitFor();
  const en = await page.locator('#screen .ub-field .ub-card.full .motif .name').first().isVisible();
  assert.ok(en, 'the name is shown in English too');
  await page.locator('#screen .ub-field:has(.ub-card.full)').first().evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await shot(page, 'ub-phone-results-table-en-390.png');
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.locator('#screen .ub-field:has(.ub-card.full)').first().evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await shot(page, 'ub-phone-results-table-en-1280.png');
  assertNoPageErrors(page);
});
