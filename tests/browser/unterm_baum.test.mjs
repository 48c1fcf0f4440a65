// Unterm Baum in two browsers: Oma on a desktop in English, Ben on a phone in German with reduced
// motion. Both write their wish list (Oma rearranges the suggestion first and reloads the page,
// which keeps the edit), the list is on screen during MEMORIZE and gone afterwards, a looked-at card
// turns over for everyone and back, a card is moved by clicking, and the game ends on the results
// screen. On the way, every phase fits both phone sizes without sideways scroll, each row keeps its
// 5 places in one line, the reveal never hides behind a sticky bar, and the card turns over with an
// animation only where motion is welcome.
// A second check renders every motif's picture: 160 different pictures, none like the card back,
// and every name fits its card (and the reveal banner) on a phone in both languages without
// breaking a word. A third plays a 20-gift game (rows of 17 places) on both phone sizes, with an
// uncle watching on his phone; he and Ben after a reload read the reveal in their logs, without
// the card.
import assert from 'node:assert/strict';
import {
  assertCleanText, assertNoPageErrors, assertNoSideScroll, createRoom, joinByInvite, newPlayer, phoneSizes, run, screenshot, screenshotDir, sleep,
} from './lib.mjs';

// A picture of one part of the page (the wish list being written lies below the first screen).
async function screenshotOf(locator, file) {
  await locator.screenshot({ path: `${screenshotDir}/${file}` });
  console.log(`screenshot ${screenshotDir}/${file}`);
}

// lib.mjs's newPlayer with a counter of the card flips that actually animate (a CSS transition on
// a card's turning part) and of the cards that slide.
function newPerson(browser, name, options) {
  return newPlayer(browser, name, {
    ...options,
    init: () => {
      window.ubFlips = 0;
      window.ubSlides = 0; // cards sliding to a new place (motion.js animates keyed elements)
      const animate = Element.prototype.animate;
      Element.prototype.animate = function slide(...args) {
        if (this.classList?.contains('ub-card')) {
          window.ubSlides += 1;
          (window.ubSlideLog ||= []).push(`${this.dataset.flip} ${JSON.stringify(args[0])} ${document.querySelector('.turn-bar')?.textContent.replace(/\s+/g, ' ')}`);
        }
        return animate.apply(this, args);
      };
      document.addEventListener('transitionrun', (ev) => {
        if (ev.target.classList?.contains('ub-flip')) window.ubFlips += 1;
      }, true);
    },
  });
}

// Waits until the page has shown a moment banner matching `re` (moments.js keeps the last few).
async function waitMoment(page, re) {
  await page.waitForFunction((source) => JSON.parse(document.getElementById('moment')?.dataset.shown || '[]')
    .some((text) => new RegExp(source).test(text)), re.source, { timeout: 10000 });
}

// Waits until no card moves or turns (for a screenshot of the cards at rest).
function settled(page) {
  return page.waitForFunction(() => (document.querySelector('#screen .ub-board')?.getAnimations({ subtree: true }) || [])
    .every((a) => a.playState !== 'running'));
}

async function whoseTurn(pages) {
  for (const p of pages) if (await p.locator('.turn-bar.mine').count()) return p;
  return null;
}

// Every row of every table and wish list has its places side by side on one line.
async function assertRowsInOneLine(page, where) {
  const bad = await page.evaluate(() => [...document.querySelectorAll('#screen .ub-row .cells')].map((cells) => {
    // One line: every place's middle is level with the first's (a hovered card lifts by 2 px).
    const boxes = [...cells.children].map((c) => c.getBoundingClientRect());
    const mid = (b) => b.top + b.height / 2;
    return { n: boxes.length, tops: boxes.map((b) => Math.round(b.top)), oneLine: boxes.every((b) => Math.abs(mid(b) - mid(boxes[0])) < boxes[0].height / 2) };
  }).filter((r) => !r.oneLine || r.n !== 5));
  assert.deepEqual(bad, [], `${where}: a row breaks into more than one line`);
  const n = await page.locator('#screen .ub-row .cells').count();
  assert.ok(n > 0, `${where}: there are rows`);
}

// At both phone sizes: no sideways scroll, and (at 360 px, the narrower) rows in one line each.
async function assertFitsPhones(page, where) {
  const size = page.viewportSize();
  for (const phone of phoneSizes) {
    await page.setViewportSize(phone);
    await page.waitForFunction((w) => window.innerWidth === w, phone.width);
    await assertNoSideScroll(page, `${where} at ${phone.width} px`);
    await assertRowsInOneLine(page, `${where} at ${phone.width} px`);
  }
  await page.setViewportSize(size);
}

// Text of the game's own pieces (name chips, counts, row names, the hint, the reveal) has WCAG AA
// contrast (4.5:1) against the colour it sits on.
async function assertContrast(page, where) {
  const bad = await page.evaluate(() => {
    const rgb = (s) => (s.match(/[\d.]+/g) || []).map(Number);
    const lum = ([r, g, b]) => {
      const lin = (v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4);
      return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
    };
    const out = [];
    const sel = '#screen .ub-chip, #screen .ub-count, #screen .ub-fam, #screen .ub-row .member, #screen .actions .hint, #screen .ub-reveal .who, #screen .ub-tree h3';
    for (const el of document.querySelectorAll(sel)) {
      if (!el.textContent.trim()) continue;
      let bg = null;
      for (let e = el; e && !bg; e = e.parentElement) {
        const c = getComputedStyle(e).backgroundColor;
        if (rgb(c).length === 3 || (rgb(c).length === 4 && rgb(c)[3] === 1)) bg = rgb(c).slice(0, 3);
      }
      const fg = rgb(getComputedStyle(el).color).slice(0, 3);
      const [a, b] = [lum(fg), lum(bg || [255, 255, 255])].sort((x, y) => y - x);
      const ratio = (a + 0.05) / (b + 0.05);
      if (ratio < 4.5) out.push(`${el.className}: "${el.textContent.trim().slice(0, 30)}" ${ratio.toFixed(2)}`);
    }
    return out;
  });
  assert.deepEqual(bad, [], `${where}: text below 4.5:1 contrast`);
}

// Nothing sticky (turn bar, reveal, the choices at the bottom) lies over the card that is shown.
function revealedCardUncovered(page) {
  return page.waitForFunction(() => {
    const card = document.querySelector('#screen .ub-card.revealed');
    if (!card) return false;
    const c = card.getBoundingClientRect();
    if (c.top < 0 || c.bottom > window.innerHeight) return false;
    const overlaps = (el) => {
      if (!el) return false;
      const b = el.getBoundingClientRect();
      return b.bottom > c.top && b.top < c.bottom && b.right > c.left && b.left < c.right;
    };
    return !overlaps(document.querySelector('#screen .ub-reveal')) && !overlaps(document.querySelector('#screen .turn-bar'))
      && !overlaps(document.querySelector('#screen .actions'));
  }, null, { timeout: 5000 });
}

await run('browser: Unterm Baum wish list, reveal, play to the end, on a desktop and a phone', async ({ browser, baseUrl }) => {
  const oma = await newPerson(browser, 'Oma', { locale: 'en-GB', viewport: { width: 1280, height: 900 } });
  const ben = await newPerson(browser, 'Ben', { locale: 'de-DE', viewport: phoneSizes[0], reducedMotion: 'reduce', hasTouch: true });
  const code = await createRoom(oma.page, baseUrl, 'Oma Inge', 'Unterm Baum',
    { maxPlayers: 2, memorizeSeconds: 10, revealSeconds: 10, maxRounds: 3 });
  await joinByInvite(ben.page, baseUrl, code, 'Ben');
  await oma.page.getByText('Ben', { exact: true }).waitFor();
  await oma.page.getByRole('button', { name: 'Start the game' }).click();

  // ASSIGN: Oma moves one gift to another place before folding the list; Ben takes the suggestion.
  const grid = oma.page.getByTestId('ub-assign-grid');
  await grid.waitFor();
  await ben.page.getByTestId('ub-assign-grid').waitFor();
  await assertFitsPhones(ben.page, 'the wish list being written');
  await assertCleanText(ben.page, 'de');
  await screenshot(ben.page, 'unterm-baum-assign-phone-de.png');
  const cards = () => grid.locator('.ub-card').evaluateAll((els) => els.map((e) => e.textContent).join('|'));
  const suggested = await cards();
  // The hint follows the list: all presents placed (fold it, or choose one to move), one chosen
  // (now a place for it).
  const hint = (page) => page.getByTestId('ub-assign-hint');
  assert.equal(await hint(oma.page).getAttribute('data-state'), 'ready');
  assert.match(await hint(oma.page).textContent(), /^All 8 presents are on your list\. Happy with it\? Press “Done: fold my wish list”\./);
  await grid.locator('.ub-card.open').first().click();
  await oma.page.locator('[data-testid="ub-assign-hint"][data-state="pick"]').waitFor();
  assert.match(await hint(oma.page).textContent(), /^Now choose a free place for this present/);
  await screenshotOf(oma.page.locator('.ub-assign'), 'unterm-baum-assign-pick.png');
  await assertFitsPhones(oma.page, 'the wish list in English, a present chosen');
  await grid.locator('.ub-card.free').first().click();
  await oma.page.locator('[data-testid="ub-assign-hint"][data-state="ready"]').waitFor();
  const edited = await cards();
  assert.notEqual(edited, suggested, 'clicking a gift and a free place moves it');
  // Ben presses "Use the suggestion" on the suggestion: a line says that nothing changed.
  const benGrid = ben.page.getByTestId('ub-assign-grid');
  const benCards = () => benGrid.locator('.ub-card').evaluateAll((els) => els.map((e) => e.textContent).join('|'));
  const benSuggested = await benCards();
  assert.match(await hint(ben.page).textContent(), /^Alle 8 Geschenke sind auf deiner Liste\. Zufrieden\? Dann auf „Fertig: Wunschliste zuklappen“ drücken\./);
  await ben.page.getByRole('button', { name: 'Den Vorschlag nehmen' }).click();
  await ben.page.locator('[data-testid="ub-assign-note"][data-note="same"]').waitFor();
  assert.equal(await ben.page.getByTestId('ub-assign-note').textContent(), 'ℹ️ Das ist schon der Vorschlag: nichts hat sich geändert.');
  assert.equal(await benCards(), benSuggested);
  // Ben empties the last row (both its presents to the first row): the hint names who has no
  // present yet, the list cannot be folded, and the line about the suggestion is gone.
  const lastRow = benGrid.locator('.ub-row').last();
  const lastMember = await lastRow.locator('.member').textContent();
  while (await lastRow.locator('.ub-card.open').count()) {
    const before = await lastRow.locator('.ub-card.open').count();
    await lastRow.locator('.ub-card.open').first().click();
    await benGrid.locator('.ub-row').first().locator('.ub-card.free').first().click();
    await ben.page.waitForFunction((n) => document.querySelectorAll('[data-testid="ub-assign-grid"] .ub-row:last-child .ub-card.open').length < n, before);
  }
  await ben.page.locator('[data-testid="ub-assign-hint"][data-state="empty"]').waitFor();
  assert.equal(await hint(ben.page).textContent(), `${lastMember} hat noch kein Geschenk: erst ein Geschenk wählen, dann einen freien Platz in der Reihe von ${lastMember}.`);
  assert.ok(await ben.page.locator('[data-act="ub-assign"]').isDisabled(), 'a list with an empty row cannot be folded');
  assert.equal(await ben.page.getByTestId('ub-assign-note').count(), 0);
  await assertFitsPhones(ben.page, 'a wish list with an empty row');
  await screenshotOf(ben.page.locator('.ub-assign'), 'unterm-baum-assign-empty-phone-de.png');
  // "Use the suggestion" puts every present back, and says so.
  await ben.page.getByRole('button', { name: 'Den Vorschlag nehmen' }).click();
  await ben.page.locator('[data-testid="ub-assign-note"][data-note="back"]').waitFor();
  assert.equal(await benCards(), benSuggested, 'the suggestion is back');
  assert.equal(await hint(ben.page).getAttribute('data-state'), 'ready');
  await assertFitsPhones(ben.page, 'the suggestion taken again');
  await screenshotOf(ben.page.locator('.ub-assign'), 'unterm-baum-assign-back-phone-de.png');
  // The family picker explains itself: each family with the names its rows would carry, under a
  // surname that fits them (issue 31), and a line that says what the choice is for.
  assert.equal(await ben.page.locator('#ub-family option[value="weber"]').textContent(), 'Dubois: Oma Jeanne, Pierre, Claire, Hugo');
  assert.equal(await ben.page.getByTestId('ub-family-why').textContent(),
    'Die Familie gibt nur den Reihen deiner Liste ihre Namen: jede spielt gleich, und jede gibt es nur einmal am Tisch.');
  // Ben chooses the Dubois family (wire id "weber") for his list: the rows carry its names.
  await ben.page.getByTestId('ub-family').selectOption('weber');
  await benGrid.locator('.ub-row .member').first().getByText('Oma Jeanne').waitFor();
  // A reload while writing keeps the list as edited.
  await oma.page.reload();
  await grid.waitFor();
  assert.equal(await cards(), edited, 'the edited list survives a reload');
  // Oma takes the Weber family first: it leaves Ben's choice, Ben is told so plainly and chooses
  // another family before he can fold his list (nobody's family is renamed behind their back).
  await oma.page.getByTestId('ub-family').selectOption('weber');
  await oma.page.getByRole('button', { name: 'Done: fold my wish list' }).click();
  await ben.page.locator('[data-testid="ub-assign-hint"][data-state="family"]').waitFor({ timeout: 5000 });
  assert.equal(await hint(ben.page).textContent(),
    'Die Familie Dubois hat gerade Oma Inge genommen. Bitte wähl eine andere Familie für deine Liste: die Reihen tragen dann deren Namen.');
  assert.equal(await ben.page.locator('#ub-family option[value="weber"]').count(), 0, 'a family taken by another is no longer offered');
  assert.ok(await ben.page.locator('[data-act="ub-assign"]').isDisabled(), 'the list cannot be folded without a family');
  assert.equal(await benGrid.getByText('Oma Jeanne').count(), 0, "the rows no longer carry the taken family's names");
  await assertFitsPhones(ben.page, 'a family taken by another');
  await screenshotOf(ben.page.locator('.ub-assign'), 'unterm-baum-assign-family-taken-phone-de.png');
  await ben.page.getByTestId('ub-family').selectOption('becker');
  await benGrid.locator('.ub-row .member').first().getByText('Oma Trudi').waitFor();
  assert.equal(await hint(ben.page).getAttribute('data-state'), 'ready');
  assert.equal(await benCards(), benSuggested, 'the list itself stays as written');
  // Ben has scrolled down to the tables meanwhile: MEMORIZE brings his list back into view.
  await ben.page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await ben.page.locator('[data-act="ub-assign"]').click();
  await ben.page.locator('.ub-field.mine .ub-fam').getByText('Becker').waitFor({ timeout: 5000 });

  // MEMORIZE: each sees the own list, with its motifs, scrolled into view.
  const list = oma.page.getByTestId('ub-wishlist');
  await list.waitFor();
  const benList = ben.page.getByTestId('ub-wishlist');
  await benList.waitFor();
  await ben.page.waitForFunction(() => {
    const r = document.querySelector('[data-testid="ub-wishlist"]').getBoundingClientRect();
    return r.top >= 0 && r.top < window.innerHeight / 2;
  }, null, { timeout: 5000 });
  const motifs = await list.locator('.motif .name').allTextContents();
  assert.equal(motifs.length, 8, 'the wish list shows all 8 gifts');
  assert.equal(await list.locator('.motif svg.ub-pic').count(), 8, 'each gift has its picture');
  await screenshot(oma.page, 'unterm-baum-memorize.png');
  await screenshot(ben.page, 'unterm-baum-memorize-phone-de.png');
  await assertFitsPhones(ben.page, 'memorising');

  // After MEMORIZE the list is gone, and no wished motif is anywhere on the page.
  await oma.page.getByTestId('ub-folded').waitFor({ timeout: 15000 });
  assert.equal(await oma.page.getByTestId('ub-wishlist').count(), 0);
  const body = await oma.page.locator('#screen').textContent();
  for (const m of motifs) assert.ok(!body.includes(m), `"${m}" is still on screen after memorize`);
  await ben.page.getByTestId('ub-folded').waitFor({ timeout: 15000 });
  await assertFitsPhones(ben.page, 'a turn');
  await assertFitsPhones(oma.page, 'a turn in English');
  await oma.page.setViewportSize(phoneSizes[1]);
  await screenshot(oma.page, 'unterm-baum-360-en.png');
  await oma.page.setViewportSize({ width: 1280, height: 900 });
  // The tree hangs its cards anew for the phone and back (they slide): the count starts here.
  await oma.page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  await settled(oma.page);
  await oma.page.evaluate(() => { window.ubSlides = 0; window.ubSlideLog = []; });
  await assertContrast(ben.page, 'a turn');
  await assertContrast(oma.page, 'a turn');
  await ben.page.setViewportSize(phoneSizes[1]);
  await screenshot(ben.page, 'unterm-baum-360-de.png');
  await ben.page.setViewportSize(phoneSizes[0]);
  await assertCleanText(ben.page, 'de');
  // Cards speak German to Ben, and a face-down card shows the one card back.
  // Where a card is, in words a family uses (no place numbers).
  assert.equal(await ben.page.locator('.ub-tree .ub-card.full').first().getAttribute('aria-label'), 'Ein Geschenk unterm Baum, verdeckt (ganz oben)');
  assert.equal(await ben.page.locator('.ub-tree .ub-card.full').nth(2).getAttribute('aria-label'), 'Ein Geschenk unterm Baum, verdeckt (2. Zweig von oben, 2. von links)');
  assert.equal(await oma.page.locator('.ub-tree .ub-card.full').nth(3).getAttribute('aria-label'), 'A present under the tree, face down (3rd branch from the top, 1st from the left)');
  assert.equal(await ben.page.locator('.ub-tree .ub-card.full .ub-down svg.ub-back').count(), await ben.page.locator('.ub-tree .ub-card.full').count());
  // Face down, the other side is a card back too: a card turning back never shows a blank face.
  assert.equal(await ben.page.locator('.ub-tree .ub-card.full .ub-up svg.ub-back').count(), await ben.page.locator('.ub-tree .ub-card.full').count());
  // On the phone, Ben's own table comes right after the tree, before Oma's.
  const order = await ben.page.locator('.ub-field').evaluateAll((els) => els.map((e) => e.classList.contains('mine')));
  assert.deepEqual(order, [true, false], 'the own table comes first');

  // A reveal: the player on turn looks at a tree card; both see it turn over, then back.
  const active = await whoseTurn([oma.page, ben.page]);
  assert.ok(active, 'somebody is on turn');
  if (active === ben.page) {
    // The choices and "End my turn" stay on the screen, at its bottom, wherever Ben scrolls.
    await ben.page.evaluate(() => window.scrollTo(0, 0));
    const dock = await ben.page.locator('#screen .actions').boundingBox();
    assert.ok(dock.y + dock.height <= phoneSizes[0].height + 1 && dock.y + dock.height > phoneSizes[0].height - 40, 'the choices sit at the bottom of the screen');
    assert.ok(dock.height <= phoneSizes[0].height / 4, `the choices take at most a quarter of the screen (${dock.height})`);
  }
  // Both look at the bottom of the page (the tree is out of sight): the reveal brings it back for
  // the player who looks, and nobody else's page moves by itself.
  const watcher = active === oma.page ? ben.page : oma.page;
  for (const p of [oma.page, ben.page]) await p.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  const watcherAt = await watcher.evaluate(() => window.scrollY);
  const flipsBefore = await oma.page.evaluate(() => window.ubFlips);
  await active.locator('.ub-tree .ub-card.can').nth(2).click();
  await active.getByTestId('reveal').waitFor();
  for (const p of [oma.page, ben.page]) await p.getByTestId('reveal').waitFor();
  // The banner says where the card lies, in the same words on a phone and a desktop (the tree
  // hangs the same branches on both), and so does the log, without the motif.
  assert.equal(await oma.page.getByTestId('reveal-where').textContent(), '📍 on the tree, 2nd branch from the top, 2nd from the left');
  assert.equal(await ben.page.getByTestId('reveal-where').textContent(), '📍 am Baum, 2. Zweig von oben, 2. von links');
  await oma.page.getByTestId('log').getByText(active === oma.page ? 'You look at a card: on the tree, 2nd branch from the top, 2nd from the left'
    : 'Ben looks at a card: on the tree, 2nd branch from the top, 2nd from the left').waitFor();
  await ben.page.getByTestId('log').getByText(active === ben.page ? 'Du siehst dir eine Karte an: am Baum, 2. Zweig von oben, 2. von links'
    : 'Oma Inge sieht sich eine Karte an: am Baum, 2. Zweig von oben, 2. von links').waitFor();
  const shown = await ben.page.getByTestId('reveal').locator('.motif .name').textContent();
  assert.ok(shown.length > 0);
  for (const p of [oma.page, ben.page]) await p.locator('.ub-tree .ub-card.open.revealed').waitFor();
  await revealedCardUncovered(active);
  // Two frames after the render (the board scrolls in the frame after it): the watcher's page stays.
  await watcher.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  assert.equal(await watcher.evaluate(() => window.scrollY), watcherAt, "another player's reveal does not scroll the page");
  // The watcher presses the place in the banner: the card, ringed in gold, comes into view.
  await watcher.getByTestId('reveal-where').click();
  await revealedCardUncovered(watcher);
  assert.equal(await watcher.locator('.ub-card.revealed').evaluate((el) => getComputedStyle(el).outlineStyle), 'solid', 'the card looked at wears a ring');
  // Ben scrolls so that the card lies right below the turn bar, where the banner sticks: the
  // banner steps aside below the card.
  await ben.page.evaluate(() => {
    const bar = document.querySelector('#screen .turn-bar').getBoundingClientRect();
    const card = document.querySelector('#screen .ub-card.revealed').getBoundingClientRect();
    window.scrollBy(0, card.top - bar.bottom - 4);
  });
  await revealedCardUncovered(ben.page);
  // At the top of the page the banner lies over the strip kept for it, not over the board.
  for (const p of [oma.page, ben.page]) {
    await p.evaluate(() => window.scrollTo(0, 0));
    await p.waitForFunction(() => document.querySelector('#screen .ub-board').getBoundingClientRect().top
      >= document.querySelector('#screen .ub-reveal').getBoundingClientRect().bottom, null, { timeout: 5000 });
  }
  // The card turned over with an animation for Oma, and without one for Ben (reduced motion).
  await oma.page.waitForFunction((n) => window.ubFlips > n, flipsBefore, { timeout: 5000 });
  assert.match(await ben.page.locator('.ub-card.revealed').getAttribute('aria-label'), /aufgedeckt unterm Baum/);
  await settled(oma.page);
  await screenshot(oma.page, 'unterm-baum.png');
  await screenshot(ben.page, 'unterm-baum-reveal-phone-de.png');
  await assertFitsPhones(ben.page, 'a card being looked at');
  await assertContrast(ben.page, 'a card being looked at');
  await ben.page.getByTestId('reveal').waitFor({ state: 'detached', timeout: 15000 });
  await oma.page.getByTestId('reveal').waitFor({ state: 'detached', timeout: 15000 });
  assert.equal(await ben.page.locator('.ub-card.open').count(), 0, 'no card stays face-up after the reveal');
  assert.equal(await ben.page.locator('.ub-card.full .ub-up:not(:has(svg.ub-back))').count(), 0, 'a card turned back shows a card back on both sides');
  await oma.page.waitForFunction((n) => window.ubFlips > n + 1, flipsBefore, { timeout: 5000 }); // and back

  const log = await oma.page.getByTestId('log').textContent();
  assert.ok(!log.includes(shown), 'the log does not keep the revealed motif');

  // Move a card by clicking it and then a free place on the other table: it slides there (a
  // keyed card, motion.js), keeping its key.
  const moveButton = active === oma.page ? 'Move a card' : 'Karte verschieben';
  await active.getByRole('button', { name: moveButton }).click();
  // Nothing has slid so far (phase and turn changes, the reveal banner: the board stays put).
  assert.equal(await oma.page.evaluate(() => window.ubSlides), 0, `no card slid before the first move: ${await oma.page.evaluate(() => (window.ubSlideLog || []).slice(0, 5).join('\n'))}`);
  const from = active.locator('.ub-tree .ub-card.can').first();
  const key = await from.getAttribute('data-flip');
  await from.click();
  if (active === ben.page) await assertFitsPhones(ben.page, 'a card chosen to move');
  const target = active.locator('.ub-field .ub-card.can.free').first();
  const targetId = await target.getAttribute('data-testid');
  await target.click();
  // The log names the place on the table: whose table, which family member, which place; the
  // player's own doings in the second person.
  await oma.page.getByTestId('log').getByText(active === oma.page ? /^You move a card from the tree \(at the very top\) to your table \(at [^,]+, 1st place\)$/
    : /^Ben moves a card from the tree \(at the very top\) to Ben's table \(at [^,]+, 1st place\)$/).waitFor();
  await ben.page.getByTestId('log').getByText(active === ben.page ? /^Du verschiebst eine Karte vom Baum \(ganz oben\) auf deinen Tisch \(bei [^,]+, 1\. Platz\)$/
    : /^Oma Inge verschiebt eine Karte vom Baum \(ganz oben\) auf den Tisch von Oma Inge \(bei [^,]+, 1\. Platz\)$/).waitFor();
  const ownName = active === oma.page ? 'Oma Inge' : 'Ben';
  const ownLog = await active.getByTestId('log').locator('li').allTextContents();
  assert.deepEqual(ownLog.filter((l) => l.startsWith(`${ownName} `)), [], 'the own doings are never told in the third person');
  // Where the card went is ringed in gold for a moment, on the other screen too.
  await watcher.locator(`[data-testid="${targetId}"].landed`).waitFor({ timeout: 5000 });
  await screenshotOf(watcher.locator('.ub-board'), watcher === oma.page ? 'unterm-baum-moved-ring.png' : 'unterm-baum-moved-ring-phone-de.png');
  await active.locator(`.ub-field .ub-card.full[data-flip="${key}"]`).waitFor();
  await oma.page.waitForFunction(() => window.ubSlides > 0, null, { timeout: 5000 });
  assert.equal(await oma.page.evaluate(() => window.ubSlides), 1, 'only the moved card slides');
  assert.equal(await active.locator(`.ub-tree [data-flip="${key}"]`).count(), 0, 'the moved card left the tree');
  // Rearranging the own table: the card goes to another place there, still the same card.
  await active.getByRole('button', { name: active === oma.page ? 'Rearrange my table' : 'Meinen Tisch umräumen' }).click();
  await active.locator(`.ub-field.mine [data-flip="${key}"]`).click();
  const place = active.locator('.ub-field.mine .ub-card.can.free').last();
  const placeId = await place.getAttribute('data-testid');
  await place.click();
  await active.locator(`[data-testid="${placeId}"][data-flip="${key}"]`).waitFor();
  await oma.page.getByTestId('log').getByText(/rearranges the table|You rearrange your table/).waitFor();
  // A second rearrangement in the same turn: the log says it once.
  await active.locator(`.ub-field.mine [data-flip="${key}"]`).click();
  const place2 = active.locator('.ub-field.mine .ub-card.can.free').first();
  const place2Id = await place2.getAttribute('data-testid');
  await place2.click();
  await active.locator(`[data-testid="${place2Id}"][data-flip="${key}"]`).waitFor();
  await oma.page.waitForFunction((id) => document.querySelector(`[data-testid="${id}"].full`), place2Id);
  assert.equal(await oma.page.getByTestId('log').getByText(/rearranges the table|You rearrange your table/).count(), 1, 'rearranging twice in a turn is one line');
  // How points are made is on screen during the game, and the own table is called so everywhere.
  assert.equal(await ben.page.getByTestId('ub-points-hint').textContent(),
    'Jedes Geschenk auf deinem Tisch zählt: 1 Punkt, 3 bei der richtigen Person, 4 wenn auch der Platz stimmt. Ist ein Tisch voll (8 Geschenke), ist das Spiel aus.');
  assert.match(await oma.page.getByTestId('ub-points-hint').textContent(), /^Every present on your table scores: 1 point.*When one table is full \(8 presents\), the game ends\.$/);
  assert.match(await ben.page.locator('.ub-field.mine .ub-card').first().getAttribute('aria-label'), /^Dein Tisch, /);
  assert.match(await oma.page.locator('.ub-field.mine .ub-card').first().getAttribute('aria-label'), /^Your table, /);
  assert.deepEqual(await ben.page.evaluate(() => [window.ubFlips, window.ubSlides]), [0, 0], 'no card animation under reduced motion');
  await assertFitsPhones(ben.page, 'after a move');
  await settled(active);
  await screenshot(active, active === oma.page ? 'unterm-baum-turn.png' : 'unterm-baum-turn-phone-de.png');
  await screenshot(ben.page, 'unterm-baum-phone-de.png');

  // The other player takes that card from the table back under the tree: its owner is told, and
  // the emptied place is marked for a moment.
  await active.locator('.actions button.action').click();
  await watcher.locator('.turn-bar.mine').waitFor({ timeout: 5000 });
  await watcher.getByRole('button', { name: watcher === oma.page ? 'Move a card' : 'Karte verschieben' }).click();
  await watcher.locator('.ub-field:not(.mine) .ub-card.can.full').click();
  await watcher.locator('.ub-tree .ub-card.can.free').first().click();
  await active.locator(`[data-testid="${place2Id}"].free.taken`).waitFor({ timeout: 5000 });
  await waitMoment(active, active === oma.page ? /has taken a present from your table/ : /hat ein Geschenk von deinem Tisch genommen/);
  await active.getByTestId('log').getByText(active === oma.page ? /from your table \(at [^,]+, \d+\w+ place\) onto the tree \(at the very top\)$/
    : /von deinem Tisch \(bei [^,]+, \d+\. Platz\) an den Baum \(ganz oben\)$/).waitFor();
  if (active === ben.page) {
    await ben.page.locator(`[data-testid="${place2Id}"]`).scrollIntoViewIfNeeded();
    await screenshot(ben.page, 'unterm-baum-taken-phone-de.png');
  }

  // The watcher ends the turn; the other player puts a present on the own table (it is scored at
  // the end).
  await watcher.locator('.actions button.action').click();
  await active.locator('.turn-bar.mine').waitFor({ timeout: 5000 });
  await active.getByRole('button', { name: moveButton }).click();
  await active.locator('.ub-tree .ub-card.can.full').nth(4).click();
  await active.locator('.ub-field.mine .ub-card.can.free').first().click();
  await active.locator('.ub-field.mine .ub-card.full').first().waitFor();

  // Play on (end each turn) to the round cap and the results.
  const deadline = Date.now() + 90000;
  let lastRound = false;
  let barChecked = false;
  while (Date.now() < deadline && !(await oma.page.getByTestId('results').count())) {
    lastRound ||= (await ben.page.locator('.ub-last-round').count()) > 0;
    const p = await whoseTurn([oma.page, ben.page]);
    if (p === ben.page && !barChecked) {
      // On Ben's turn the sticky turn bar takes at most a fifth of the smaller phone's screen.
      await ben.page.setViewportSize(phoneSizes[1]);
      const bar = await ben.page.locator('#screen .turn-bar.mine').boundingBox();
      assert.ok(bar.height <= phoneSizes[1].height / 5, `the turn bar takes at most a fifth of the screen (${bar.height})`);
      await ben.page.setViewportSize(phoneSizes[0]);
      barChecked = true;
    }
    if (p) {
      // One click per turn: a second one before the answer arrives would be refused by the server.
      const clicked = await p.locator('.actions button.action').click({ timeout: 2000 }).then(() => true, () => false);
      if (clicked) await p.locator('.turn-bar.mine').waitFor({ state: 'detached', timeout: 5000 }).catch(() => {});
    }
    else await sleep(50);
  }
  await oma.page.getByTestId('results').waitFor({ timeout: 5000 });
  assert.ok(lastRound, 'the last round was announced');
  assert.ok(barChecked, 'Ben had a turn');
  await ben.page.getByTestId('results').waitFor({ timeout: 5000 });
  assert.equal(await oma.page.locator('.results .score-table tbody tr').count(), 2);
  // Under the table: what each column is worth.
  assert.match(await oma.page.getByTestId('ub-points-note').textContent(), /exact .* = 4 points, right person = 3 points, other = 1 point/);
  // Each present on a table shows what it scored (4, 3 or 1): together, the player's score.
  for (const [p, name] of [[oma.page, 'Oma Inge'], [ben.page, 'Ben']]) {
    const badges = (await p.locator('.ub-field.mine [data-testid="ub-score"]').allTextContents()).map(Number);
    assert.equal(badges.length, await p.locator('.ub-field.mine .ub-card.full').count(), `${name}: every present on the table is marked`);
    assert.ok(badges.every((n) => [1, 3, 4].includes(n)), `${name}: marks are 4, 3 or 1`);
    const score = Number(await p.locator('.results .score-table tbody tr', { hasText: name }).locator('strong').textContent());
    assert.equal(badges.reduce((a, b) => a + b, 0), score, `${name}: the marks add up to the score`);
  }
  assert.ok(await active.locator('.ub-field.mine [data-testid="ub-score"]').count() > 0, 'a present was on a table at the end');
  await screenshotOf(active.locator('.ub-field.mine'), active === oma.page ? 'unterm-baum-results-table.png' : 'unterm-baum-results-table-phone-de.png');
  assert.match(await active.locator('.ub-field.mine .ub-card.full').first().getAttribute('aria-label'),
    active === oma.page ? /\. (4 points: exact|3 points: right person|1 point: other)$/ : /\. (4 Punkte: genau|3 Punkte: richtige Person|1 Punkt: sonst)$/);
  await settled(oma.page);
  await screenshot(oma.page, 'unterm-baum-results.png');
  await assertFitsPhones(ben.page, 'the results');
  await assertCleanText(ben.page, 'de');
  await screenshot(ben.page, 'unterm-baum-results-phone-de.png');
  // The same ends in the other language and on the other screen.
  await ben.page.setViewportSize({ width: 1280, height: 900 });
  await screenshot(ben.page, 'unterm-baum-results-de.png');
  await oma.page.setViewportSize(phoneSizes[0]);
  await assertNoSideScroll(oma.page, 'the results in English at 390 px');
  await screenshot(oma.page, 'unterm-baum-results-phone.png');
  assertNoPageErrors(oma.page, ben.page);
});

await run('browser: Unterm Baum has 160 different motif pictures, none like the card back, names that fit', async ({ browser, baseUrl }) => {
  const { page } = await newPerson(browser, 'Pictures', { locale: 'en-GB', viewport: { width: 360, height: 740 } });
  await page.goto(`${baseUrl}/`);
  // Creating a room: both time limits (a turn, the wish list) are among the main settings.
  await page.fill('#name', 'Pictures');
  await page.getByRole('button', { name: /Unterm Baum/ }).click();
  await page.locator('#opt-maxPlayers').waitFor({ timeout: 5000 });
  for (const opt of ['mainTimeoutSec', 'assignSeconds']) assert.ok(await page.locator(`#opt-${opt}`).isVisible(), `${opt} is shown without "More settings"`);
  // The turn bar when the game may end: with one present to go on the player's own table, and when
  // another table is one short (the game may end before the next turn); while others still write
  // their lists, whom the player waits for.
  const bars = await page.evaluate(async () => {
    const ub = (await import('/js/games/unterm_baum.js')).createBoard();
    const ctx = (seat, counts, phase = 'play', seats = [seat]) => ({
      seat, name: (s) => ['Oma', 'Ben', 'Rudi'][s], state: { prompt: { seats } },
      view: { phase, cards_to_remember: 8, players: counts.map((n, i) => ({ seat: i, card_count: n })) } });
    return {
      own: ub.turnBar(ctx(0, [7, 3, 2]), { mine: true }),
      other: ub.turnBar(ctx(1, [3, 2, 7]), { mine: true }),
      none: ub.turnBar(ctx(1, [3, 2, 6]), { mine: true }),
      lists: ub.turnBar(ctx(0, [0, 0, 0], 'assign', [1, 2]), { mine: false }),
    };
  });
  assert.deepEqual(bars.own, { turn: 'Your turn!', what: 'One more present on your table and the game is over!' });
  assert.deepEqual(bars.other, { turn: 'Your turn!', what: 'Collect presents for your table! Careful: Rudi needs one more present, then the game is over.' });
  // Otherwise the bar says whose turn it is; what to tap is in the dock at the bottom.
  assert.deepEqual(bars.none, { turn: 'Your turn!', what: '' });
  assert.deepEqual(bars.lists, { turn: 'Waiting for the wish lists of Ben and Rudi', what: '' });
  // The time promise: writing and memorising the lists, then about 8 rounds (a table holds 8
  // presents) of about 25 s a turn.
  await page.locator('#opt-maxPlayers').fill('3');
  await page.locator('#opt-maxPlayers').dispatchEvent('change');
  await page.getByTestId('estimate').getByText('A game takes about 10 minutes with 3 players.').waitFor();
  await page.locator('#opt-assignSeconds').scrollIntoViewIfNeeded();
  await screenshot(page, 'unterm-baum-options.png');
  // Every picture drawn to pixels (48 × 48), compared with every other one and with the back.
  const r = await page.evaluate(async () => {
    const { motifIds, motifSvg, backSvg } = await import('/js/games/ub_motifs.js');
    const canvas = document.createElement('canvas');
    canvas.width = 48;
    canvas.height = 48;
    const g = canvas.getContext('2d', { willReadFrequently: true });
    const pixels = async (svg) => {
      const src = svg.replace('<svg ', '<svg xmlns="http://www.w3.org/2000/svg" width="48" height="48" ');
      const img = new Image();
      img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(src)}`;
      await img.decode();
      g.clearRect(0, 0, 48, 48);
      g.drawImage(img, 0, 0, 48, 48);
      return g.getImageData(0, 0, 48, 48).data;
    };
    const diff = (a, b) => {
      let sum = 0;
      for (let i = 0; i < a.length; i++) sum += Math.abs(a[i] - b[i]);
      return sum / a.length;
    };
    const back = await pixels(backSvg());
    const pics = [];
    for (const id of motifIds) pics.push(await pixels(motifSvg(id)));
    let closest = { d: Infinity };
    for (let i = 0; i < pics.length; i++) {
      for (let j = i + 1; j < pics.length; j++) {
        const d = diff(pics[i], pics[j]);
        if (d < closest.d) closest = { d, a: motifIds[i], b: motifIds[j] };
      }
    }
    const nearBack = pics.map((p, i) => ({ d: diff(p, back), id: motifIds[i] })).sort((a, b) => a.d - b.d)[0];
    const hashes = new Set(pics.map((p) => Array.from(p).join(',')));
    return { count: motifIds.length, distinct: hashes.size, closest, nearBack, backInside: hashes.has(Array.from(back).join(',')) };
  });
  assert.equal(r.count, 160, 'the catalogue has 160 motifs');
  assert.equal(r.distinct, 160, 'every motif has its own picture');
  assert.equal(r.backInside, false, 'no motif shows the card back');
  assert.ok(r.closest.d > 3, `${r.closest.a} and ${r.closest.b} look too much alike (${r.closest.d.toFixed(2)})`);
  assert.ok(r.nearBack.d > 30, `${r.nearBack.id} looks too much like the card back (${r.nearBack.d.toFixed(2)})`);

  // Every name, in both languages, on a wish-list card of a 360 px phone: no word sticks out of
  // its card (a name breaks only at a space or a soft hyphen, never inside a syllable).
  const tooWide = await page.evaluate(async () => {
    const { motifIds, motifCardHtml } = await import('/js/games/ub_motifs.js');
    const de = (await import('/js/games/motifs_de.js')).default;
    const en = (id) => id.charAt(0).toUpperCase() + id.slice(1).replace(/_/g, ' ');
    const screen = document.querySelector('#screen');
    const out = [];
    for (const [lang, name] of [['en', en], ['de', (id) => de[id]]]) {
      document.documentElement.lang = lang;
      const rows = [];
      for (let i = 0; i < motifIds.length; i += 5) {
        const cells = motifIds.slice(i, i + 5).map((id) => `<div class="ub-card wish open"><span class="ub-wish-card">${motifCardHtml(id, name(id))}</span></div>`);
        rows.push(`<div class="ub-row"><span class="member">Oma Erna</span><div class="cells" style="--cols:5">${cells.join('')}</div></div>`);
      }
      screen.innerHTML = `<section class="game game-unterm_baum"><div class="board-wrap"><section class="ub-wishlist card"><div class="ub-wishes">${rows.join('')}</div></section></div></section>`;
      for (const el of screen.querySelectorAll('.motif .name')) {
        if (el.scrollWidth > el.clientWidth + 1) out.push(`${lang}: ${el.textContent.replace(/\u00AD/g, '·')} (${el.scrollWidth} > ${el.clientWidth})`);
      }
      if (document.documentElement.scrollWidth > window.innerWidth) out.push(`${lang}: the list scrolls sideways`);
    }
    return out;
  });
  assert.deepEqual(tooWide, [], 'every motif name fits its card');

  // And in the reveal banner, on a phone and a desktop: the name fits, the banner keeps its height.
  for (const size of [{ width: 360, height: 740 }, { width: 1280, height: 900 }]) {
    await page.setViewportSize(size);
    const bad = await page.evaluate(async () => {
      const { motifIds, motifCardHtml } = await import('/js/games/ub_motifs.js');
      const de = (await import('/js/games/motifs_de.js')).default;
      const en = (id) => id.charAt(0).toUpperCase() + id.slice(1).replace(/_/g, ' ');
      const screen = document.querySelector('#screen');
      const out = [];
      for (const [lang, name] of [['en', en], ['de', (id) => de[id]]]) {
        const banners = motifIds.map((id) => `<div class="ub-reveal-slot"><div class="ub-reveal"><span class="who">Oma Inge looks at a card:</span>${motifCardHtml(id, name(id))}</div></div>`);
        screen.innerHTML = `<section class="game game-unterm_baum"><div class="board-wrap">${banners.join('')}</div></section>`;
        for (const el of screen.querySelectorAll('.ub-reveal')) {
          const n = el.querySelector('.name');
          if (n.scrollWidth > n.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1) out.push(`${lang}: ${n.textContent}`);
        }
      }
      return out;
    });
    assert.deepEqual(bad, [], `every motif name fits the reveal banner at ${size.width} px`);
  }
  assertNoPageErrors(page);
});

await run('browser: Unterm Baum with 20 gifts to remember fits a phone', async ({ browser, baseUrl }) => {
  const oma = await newPerson(browser, 'Oma', { locale: 'en-GB', viewport: { width: 1280, height: 900 } });
  const ben = await newPerson(browser, 'Ben', { locale: 'de-DE', viewport: phoneSizes[1], hasTouch: true });
  const code = await createRoom(oma.page, baseUrl, 'Oma Inge', 'Unterm Baum', { maxPlayers: 2, cardsToRemember: 20, memorizeSeconds: 2, revealSeconds: 60 });
  // Ben plays as "Tom", like a member of the Smith family he will choose.
  await joinByInvite(ben.page, baseUrl, code, 'Tom');
  await oma.page.getByText('Tom', { exact: true }).waitFor();
  await oma.page.getByRole('button', { name: 'Start the game' }).click();
  await ben.page.getByTestId('ub-assign-grid').waitFor();
  for (const phone of phoneSizes) {
    await ben.page.setViewportSize(phone);
    await assertNoSideScroll(ben.page, `20 gifts, the wish list at ${phone.width} px`);
  }
  assert.equal(await ben.page.locator('.ub-tree .ub-card').count(), 60, '2 × 20 wishes and 20 more gifts');
  // Every card stays big enough to tap, and no name sticks out of its card.
  const smallest = await ben.page.locator('#screen .ub-card').evaluateAll((els) => Math.min(...els.map((e) => e.getBoundingClientRect().width)));
  assert.ok(smallest >= 36, `cards are at least 36 px wide (${smallest})`);
  const over = await ben.page.locator('#screen .motif .name').evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent));
  assert.deepEqual(over, []);
  await screenshot(ben.page, 'unterm-baum-20-assign-phone-de.png');
  // Two people writing at once start on different families (each seat its own, computer players
  // take the first free ones), so that nobody's rows are renamed when the other folds first.
  const startFamily = (page) => page.getByTestId('ub-family').inputValue();
  assert.equal(await startFamily(oma.page), 'becker');
  assert.equal(await startFamily(ben.page), 'wagner');
  // Oma takes Ben's starting family anyway and folds first: Ben, who never touched the choice, is
  // told so and follows to his next one, whose rows the line names.
  await oma.page.getByTestId('ub-family').selectOption('wagner');
  await oma.page.getByRole('button', { name: 'Done: fold my wish list' }).click();
  await oma.page.locator('.waiting[data-key="ub-waiting"]').waitFor();
  await ben.page.getByTestId('ub-family-note').waitFor({ timeout: 5000 });
  assert.equal(await ben.page.getByTestId('ub-family-note').textContent(),
    'ℹ️ Die Familie García hat gerade Oma Inge genommen. Deine Liste gehört jetzt zur Familie Kowalski: ihre Reihen sind Oma Zofia, Piotr, Ewa, Kuba.');
  // While Ben still writes, Oma's bar says whom she waits for.
  assert.equal(await oma.page.getByTestId('turn').textContent(), 'Waiting for the wish list of Tom');
  for (const phone of phoneSizes) {
    await ben.page.setViewportSize(phone);
    await assertNoSideScroll(ben.page, `a suggested family taken by another at ${phone.width} px`);
  }
  await screenshotOf(ben.page.locator('.ub-assign'), 'unterm-baum-assign-family-followed-phone-de.png');
  // Ben plays as "Tom": he picks the Smiths, who have a Tom too.
  await ben.page.getByTestId('ub-family').selectOption('schmidt');
  await ben.page.locator('[data-act="ub-assign"]').click();
  await ben.page.getByTestId('ub-folded').waitFor({ timeout: 15000 });
  await oma.page.getByTestId('ub-folded').waitFor({ timeout: 15000 });
  // A family member has the same name on every screen: only the word for a grandparent (and for
  // the family, after a name that a player has too) is the screen's own.
  const members = (page) => page.locator('[data-testid="ub-field-0"] .ub-row .member, [data-testid="ub-field-1"] .ub-row .member')
    .evaluateAll((els) => els.sort((a, b) => a.closest('.ub-field').dataset.testid.localeCompare(b.closest('.ub-field').dataset.testid))
      .map((e) => e.textContent));
  const benSees = await members(ben.page);
  const omaSees = await members(oma.page);
  for (const name of ['Oma Rose', 'Opa Bill', 'Sarah', 'Tom (Familie)', 'Oma Carmen', 'Javier', 'Pablo']) assert.ok(benSees.includes(name), `Ben sees ${name}: ${benSees}`);
  for (const name of ['Grandma Rose', 'Grandpa Bill', 'Sarah', 'Tom (family)', 'Grandma Carmen', 'Javier', 'Pablo']) assert.ok(omaSees.includes(name), `Oma sees ${name}: ${omaSees}`);
  const given = (names) => names.map((n) => n.replace(/^(Oma|Opa|Grandma|Grandpa) /, '').replace(/ \((Familie|family)\)$/, ''));
  assert.deepEqual(given(benSees), given(omaSees), 'the same family members on a German and an English screen');
  assert.ok(!benSees.some((n) => /Grandma|Grandpa/.test(n)), `no English words on a German screen: ${benSees}`);
  // Both screens keep the family's Tom apart from the player Tom.
  assert.ok(!omaSees.includes('Tom') && !benSees.includes('Tom'), `${omaSees} / ${benSees}`);

  // A card looked at (shown for a whole minute) goes when the turn passes: the next player's turn
  // never starts under it, on either screen.
  const looker = await whoseTurn([oma.page, ben.page]);
  const next = looker === oma.page ? ben.page : oma.page;
  await looker.locator('.ub-tree .ub-card.can').last().click();
  for (const p of [oma.page, ben.page]) await p.getByTestId('reveal').waitFor();
  for (const p of [oma.page, ben.page]) await p.locator('.ub-card.open.revealed').waitFor();
  // Under the tree the cards lie in rows of 7 on every screen: the banner names the row.
  assert.equal(await ben.page.getByTestId('reveal-where').textContent(), '📍 unterm Baum, 5. Reihe, 4. von links');
  assert.equal(await oma.page.getByTestId('reveal-where').textContent(), '📍 under the tree, 5th row, 4th from the left');
  const looked = await ben.page.getByTestId('reveal').locator('.motif .name').textContent();
  await screenshotOf(ben.page.locator('.ub-tree'), 'unterm-baum-20-tree-360-de.png');
  await screenshot(ben.page, 'unterm-baum-20-reveal-360-de.png');
  await looker.locator('.actions button.action').click();
  await next.locator('.turn-bar.mine').waitFor({ timeout: 5000 });
  await looker.locator('.ub-field:not(.mine).active').waitFor({ timeout: 5000 });
  for (const p of [oma.page, ben.page]) {
    assert.equal(await p.getByTestId('reveal').count(), 0, 'the reveal box is gone when the next turn starts');
    assert.equal(await p.locator('.ub-card.open').count(), 0, 'no card stays face up into the next turn');
  }
  for (const phone of phoneSizes) {
    await ben.page.setViewportSize(phone);
    await assertNoSideScroll(ben.page, `20 gifts, a turn at ${phone.width} px`);
  }
  // An uncle watches on his phone: the same tree and tables, nothing to click, nothing too wide.
  const uncle = await newPerson(browser, 'Uncle', { locale: 'de-DE', viewport: phoneSizes[1], hasTouch: true });
  await uncle.page.goto(`${baseUrl}/r/${code}`);
  await uncle.page.fill('#name', 'Onkel Max');
  await uncle.page.locator('button[data-as="spectator"]').click();
  await uncle.page.getByTestId('ub-tree').waitFor();
  await assertNoSideScroll(uncle.page, 'a spectator at 360 px');
  assert.equal(await uncle.page.locator('.ub-field').count(), 2);
  assert.equal(await uncle.page.locator('#screen .ub-card.can').count(), 0, 'a spectator has nothing to click');
  await assertCleanText(uncle.page, 'de');
  // Told again, the reveal says who looked at which place, never what (rulebook A12): the uncle,
  // who came after it, and Ben after a reload read it in their logs, and the card is named nowhere.
  const retold = /(sieht sich eine Karte an|Du siehst dir eine Karte an): unterm Baum, 5\. Reihe, 4\. von links$/;
  await uncle.page.getByTestId('log').getByText(retold).waitFor();
  await ben.page.reload();
  await ben.page.getByTestId('ub-tree').waitFor();
  await ben.page.getByTestId('log').getByText(retold).waitFor();
  await screenshotOf(ben.page.getByTestId('log'), 'unterm-baum-20-log-after-reload-360-de.png');
  for (const p of [uncle.page, ben.page]) {
    assert.ok(!(await p.locator('body').textContent()).includes(looked), `"${looked}" is not named again`);
    assert.equal(await p.getByTestId('reveal').count(), 0, 'nor shown again');
  }
  assertNoPageErrors(oma.page, ben.page, uncle.page);
});
