// Rules at hand (issue 14). The "How to play" sheet of every game opens from the game picker, the
// lobby and the game screen, in the reader's language (no stray English in German, no German in
// English), fits a 390 px phone without sideways scrolling, and closing it leaves the game screen
// exactly as it was (same turn, same board, same scroll). The first-turn walkthrough points at the
// board, the choices, the timer and the rules button without covering them, is shown once per game,
// and stays away after "Don't show again", also after a reload. Board pieces explain themselves
// (title, accessible name, a tooltip on long press). Screenshots of every sheet at 390×844 and
// 1280×900 in both languages, and of the walkthrough, go to build/screenshots.
import assert from 'node:assert/strict';
import { assertNoPageErrors, createRoom, joinByInvite, newPlayer, playOneStep, run, screenshot, sleep } from './lib.mjs';

const games = [['happy_holidays', 'Happy Holidays'], ['unterm_baum', 'Unterm Baum'], ['christmas_penguins', 'Christmas Penguins']];
const phone = { width: 390, height: 844 };
const desktop = { width: 1280, height: 900 };
// Words that give away the other language.
const english = ['the', 'and', 'your', 'you', 'turn', 'dice', 'roll', 'with', 'player', 'gift', 'gifts', 'card', 'stone', 'floe', 'click', 'press', 'when', 'what', 'move', 'of'];
const german = ['und', 'der', 'das', 'dein', 'deine', 'würfel', 'würfeln', 'geschenk', 'geschenke', 'spieler', 'zug', 'nicht', 'ist', 'wer', 'karte', 'scholle'];


const words = (text) => new Set((text.toLowerCase().match(/\p{L}+/gu) || []));

async function checkLanguage(page, lang) {
  const text = await page.locator('#help-sheet').innerText();
  const found = words(text);
  const foreign = (lang === 'de' ? english : german).filter((w) => found.has(w));
  assert.deepEqual(foreign, [], `the ${lang} sheet has words of the other language: ${foreign.join(', ')}`);
  const own = (lang === 'de' ? german : english).filter((w) => found.has(w));
  assert.ok(own.length >= 3, `the ${lang} sheet is written in ${lang} (${own.join(', ')})`);
}

async function noSidewaysScroll(page, what) {
  const { scroll, inner } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
  assert.ok(scroll <= inner, `${what}: nothing overflows sideways (${scroll} > ${inner})`);
}

async function openSheet(page, button, title) {
  await page.locator(button).click();
  const sheet = page.locator('#help-sheet');
  await sheet.waitFor();
  assert.ok(await sheet.evaluate((d) => d.open && d.matches(':modal')), 'the sheet is a modal dialog');
  assert.match(await sheet.locator('#help-title').innerText(), new RegExp(title));
  return sheet;
}

async function closeSheet(page, how) {
  if (how === 'escape') await page.keyboard.press('Escape');
  else if (how === 'x') await page.locator('#help-close').click();
  else await page.locator('.help-foot button').click();
  await page.locator('#help-sheet').waitFor({ state: 'hidden' });
}

// Every game's sheet from the game picker: language, fit, a screenshot.
async function picker(page, lang, size) {
  await page.setViewportSize(size);
  for (const [id, title] of games) {
    const sheet = await openSheet(page, `[data-help="${id}"]`, title);
    await checkLanguage(page, lang);
    // Pictures of the pieces are part of the sheet.
    assert.ok((await sheet.locator('.rs-pieces li').count()) >= 4, 'the sheet shows the pieces');
    if (size.width <= 400) await noSidewaysScroll(page, `${id} sheet at ${size.width} px`);
    await page.screenshot({ path: `${process.env.TINSEL_SCREENSHOT_DIR || 'build/screenshots'}/rules-${id}-${lang}-${size.width}.png` });
    await closeSheet(page, size.width <= 400 ? 'escape' : 'x');
  }
}

// Where the bubble ends up once it has slid in (no animation when less motion is asked for).
const settled = (page) => page.evaluate(() => Promise.all(['#coach', '.coach-ring']
  .flatMap((sel) => document.querySelector(sel)?.getAnimations() || []).map((a) => a.finished)));

// The walkthrough bubble never covers the element it describes.
async function coachClear(page, target) {
  await settled(page);
  return page.evaluate((sel) => {
    const a = document.querySelector('#coach').getBoundingClientRect();
    const b = document.querySelector(sel).getBoundingClientRect();
    const w = Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left));
    const h = Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
    return w * h;
  }, target);
}

// How many buttons and clickable places the bubble lies on.
async function coachBlocks(page) {
  await settled(page);
  return page.evaluate(() => {
    const a = document.querySelector('#coach').getBoundingClientRect();
    return [...document.querySelectorAll('#screen button, #screen [data-act], #screen input, #screen select')]
      .map((e) => e.getBoundingClientRect())
      .filter((b) => b.width && Math.min(a.right, b.right) > Math.max(a.left, b.left) && Math.min(a.bottom, b.bottom) > Math.max(a.top, b.top)).length;
  });
}

const coachTargets = { board: '#screen .board-wrap', actions: '#screen .actions', timer: '#screen .turn-bar .timer', help: '#help-game' };

await run('browser: rules sheets, first-turn walkthrough, pieces that explain themselves', async ({ browser, baseUrl }) => {
  // Oma's computer asks for less motion: the tips appear without animation.
  const oma = await newPlayer(browser, 'Oma', { locale: 'en-GB', viewport: desktop, reducedMotion: 'reduce' });
  const ben = await newPlayer(browser, 'Ben', { locale: 'de-DE', viewport: phone, hasTouch: true });
  const shots = process.env.TINSEL_SCREENSHOT_DIR || 'build/screenshots';

  // The game picker: every sheet, both languages, phone and desktop.
  await oma.page.goto(`${baseUrl}/`);
  await ben.page.goto(`${baseUrl}/`);
  await oma.page.locator('[data-help="unterm_baum"]').waitFor();
  await ben.page.locator('[data-help="unterm_baum"]').waitFor();
  assert.equal(await ben.page.locator('[data-help="unterm_baum"]').innerText(), '📖 Spielregeln');
  await picker(oma.page, 'en', desktop);
  await picker(oma.page, 'en', phone);
  await oma.page.setViewportSize(desktop);
  await picker(ben.page, 'de', phone);
  await picker(ben.page, 'de', desktop);
  await ben.page.setViewportSize(phone);

  // The lobby.
  // Without a time limit: the four-step tour (a timed turn gets one bubble, see phone_layout.test.mjs).
  const code = await createRoom(oma.page, baseUrl, 'Oma Inge', 'Happy Holidays', { maxPlayers: 2, startPlayer: 'host-picks', mainTimeoutSec: 'off' });
  await joinByInvite(ben.page, baseUrl, code, 'Ben');
  await oma.page.locator('.seat strong', { hasText: 'Ben' }).waitFor();
  await openSheet(oma.page, '#help-lobby', 'Happy Holidays');
  await checkLanguage(oma.page, 'en');
  await closeSheet(oma.page, 'footer');
  await openSheet(ben.page, '#help-lobby', 'Happy Holidays');
  await checkLanguage(ben.page, 'de');
  await noSidewaysScroll(ben.page, 'sheet in the lobby');
  await closeSheet(ben.page, 'footer');
  assert.equal(await ben.page.locator('#help-lobby').evaluate((b) => b === document.activeElement), true, 'the focus is back on the button');

  // Oma begins (the host picks the first seat: herself). Her first turn: the walkthrough.
  await oma.page.getByRole('button', { name: 'Start the game' }).click();
  await oma.page.locator('.turn-bar.mine').waitFor();
  const coach = oma.page.getByTestId('coach');
  await coach.waitFor();
  const seen = [];
  for (;;) {
    const step = await coach.getAttribute('data-step');
    seen.push(step);
    assert.equal(await coachClear(oma.page, coachTargets[step]), 0, `the tip on the ${step} does not cover it`);
    assert.equal(await coachBlocks(oma.page), 0, `the tip on the ${step} covers no button`);
    await screenshot(oma.page, `coach-en-1280-${seen.length}-${step}.png`);
    const next = oma.page.locator('#coach-next');
    const last = (await next.getAttribute('data-coach')) === 'done';
    await next.click();
    if (last) break;
    await oma.page.locator(`#coach:not([data-step="${step}"])`).waitFor();
  }
  assert.deepEqual(seen, ['board', 'actions', 'timer', 'help']);
  await coach.waitFor({ state: 'detached' });
  const memory = await oma.page.evaluate(() => JSON.parse(localStorage.getItem('tinsel')).coach);
  assert.equal(memory.seen.happy_holidays, true, 'the walkthrough of this game is remembered');

  // The sheet from the game screen closes back to the same game: same turn, same board, same
  // scroll. (Nobody moves meanwhile: it is Oma's turn.)
  await oma.page.setViewportSize({ width: 1280, height: 500 }); // something to scroll
  await oma.page.evaluate(() => window.scrollTo(0, 180));
  const before = await oma.page.evaluate(() => ({
    turn: document.querySelector('[data-testid="turn"]').textContent,
    what: document.querySelector('.turn-bar .what').textContent,
    board: document.querySelector('.board-wrap').innerHTML,
    actions: [...document.querySelectorAll('.actions button')].map((b) => b.textContent),
    y: window.scrollY,
  }));
  assert.ok(before.y > 0, 'the page is scrolled');
  await openSheet(oma.page, '#help-game', 'Happy Holidays');
  await checkLanguage(oma.page, 'en');
  await closeSheet(oma.page, 'escape');
  const after = await oma.page.evaluate(() => ({
    turn: document.querySelector('[data-testid="turn"]').textContent,
    what: document.querySelector('.turn-bar .what').textContent,
    board: document.querySelector('.board-wrap').innerHTML,
    actions: [...document.querySelectorAll('.actions button')].map((b) => b.textContent),
    y: window.scrollY,
  }));
  assert.deepEqual(after, before, 'closing the sheet returns to exactly the same game screen');
  await oma.page.setViewportSize(desktop);

  // The pieces explain themselves.
  const deer = oma.page.locator('[data-testid="hh-player-1"] .reindeer');
  assert.match(await deer.getAttribute('title'), /Ben has a reindeer/);
  assert.match(await deer.getAttribute('aria-label'), /reindeer/);
  assert.match(await oma.page.locator('.tree-area').getAttribute('title'), /under the tree/);
  assert.match(await oma.page.locator('[data-testid="hh-player-0"] .sleigh').getAttribute('title'), /sleigh/);

  // Oma plays her turn; then Ben's first turn, on his phone, in German.
  for (let i = 0; i < 200 && !(await ben.page.locator('.turn-bar.mine').count()); i++) {
    if (!(await playOneStep(oma.page))) await sleep(50);
  }
  await ben.page.locator('.turn-bar.mine').waitFor();
  const benCoach = ben.page.getByTestId('coach');
  await benCoach.waitFor();
  assert.match(await benCoach.innerText(), /Spieltisch/);
  assert.match(await benCoach.innerText(), /Nicht mehr zeigen/);
  await noSidewaysScroll(ben.page, 'walkthrough on a phone');
  await settled(ben.page);
  await ben.page.screenshot({ path: `${shots}/coach-de-390-1-board.png` });
  // On a phone the board is taller than the screen: the tip may lie on part of it, but on nothing
  // that can be clicked; the choices above stay free.
  assert.equal(await coachBlocks(ben.page), 0, 'the tip covers no button or clickable place');
  await ben.page.locator('#coach-next').click();
  await ben.page.locator('#coach[data-step="actions"]').waitFor();
  assert.equal(await coachClear(ben.page, coachTargets.actions), 0, 'the tip does not cover the choices');
  assert.equal(await coachBlocks(ben.page), 0, 'the tip covers no button or clickable place');
  await settled(ben.page);
  await ben.page.screenshot({ path: `${shots}/coach-de-390-2-actions.png` });
  await ben.page.locator('#coach-never').click();
  await benCoach.waitFor({ state: 'detached' });

  // A long press on a piece shows what it is (and plays nothing).
  const benDeer = ben.page.locator('[data-testid="hh-player-0"] .reindeer');
  await benDeer.scrollIntoViewIfNeeded();
  const box = await benDeer.boundingBox();
  const cdp = await ben.context.newCDPSession(ben.page);
  const point = [{ x: box.x + box.width / 2, y: box.y + box.height / 2 }];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: point });
  await ben.page.locator('#tip').waitFor();
  assert.match(await ben.page.locator('#tip').innerText(), /Rentier/);
  await ben.page.screenshot({ path: `${shots}/tooltip-de-390.png` });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  assert.equal(await ben.page.locator('.turn-bar.mine').count(), 1, 'looking at a piece plays nothing');

  // The sheet from the game screen on the phone, in German.
  await openSheet(ben.page, '#help-game', 'Happy Holidays');
  await checkLanguage(ben.page, 'de');
  await noSidewaysScroll(ben.page, 'sheet over the game on a phone');
  await screenshot(ben.page, 'rules-game-de-390.png');
  await closeSheet(ben.page, 'x');

  // After a reload, Ben's turn goes on without the walkthrough ("Don't show again").
  await ben.page.reload();
  await ben.page.locator('.turn-bar.mine').waitFor();
  assert.equal(await ben.page.getByTestId('coach').count(), 0, 'no walkthrough after "Don\'t show again", also after a reload');
  const benMemory = await ben.page.evaluate(() => JSON.parse(localStorage.getItem('tinsel')).coach);
  assert.equal(benMemory.off, true);

  // Oma's next turn: shown once, so not again.
  for (let i = 0; i < 200 && !(await oma.page.locator('.turn-bar.mine').count()); i++) {
    if (!(await playOneStep(ben.page))) await sleep(50);
  }
  await oma.page.locator('.turn-bar.mine').waitFor();
  assert.equal(await oma.page.getByTestId('coach').count(), 0, 'the walkthrough is shown on the first turn only');

  // Christmas Penguins: Oma is the first Santa against a computer player. Her first turn there
  // brings this game's walkthrough; clicking a floe (playing) puts it away. Every piece has a
  // title and a name.
  await createRoom(oma.page, baseUrl, 'Oma Inge', 'Christmas Penguins', { maxPlayers: 2, startPlayer: 'host-picks' });
  await oma.page.getByRole('button', { name: 'Add a computer player' }).click();
  await oma.page.locator('[data-testid="add-bot-fair"]').click();
  await oma.page.getByRole('button', { name: 'Start the game' }).click();
  for (const prompt of ['You are Santa: place the tree', 'You are Santa: place the polar bear']) {
    await oma.page.locator('.turn-bar.mine .what', { hasText: prompt }).waitFor();
    if (prompt.includes('tree')) {
      await oma.page.getByTestId('coach').waitFor();
      assert.match(await oma.page.getByTestId('coach').innerText(), /This is the ice/);
    }
    const floe = oma.page.locator('.cp-board .floe.target').first();
    const name = await floe.getAttribute('aria-label');
    assert.match(name, /floe/i, `a floe to click has a name: ${name}`);
    // Its number as drawn on it (the log names floes by it, issue 31), and where it lies in words.
    const number = await floe.locator('.floe-no').textContent();
    assert.match(name, new RegExp(`^(Floe ${number} (next to|in the middle|on the edge|on the|at the)|The tree's floe|The hut's floe)`), `the floe's name says which floe: ${name}`);
    await floe.click();
  }
  await oma.page.locator('.turn-bar.mine .what', { hasText: 'Roll the die' }).waitFor();
  assert.equal(await oma.page.getByTestId('coach').count(), 0, 'playing puts the walkthrough away');
  const tips = await oma.page.locator('.cp-board .piece').evaluateAll((els) => els.map((e) => [e.querySelector('title').textContent, e.getAttribute('aria-label')]));
  for (const [title, label] of tips) assert.equal(label, title, 'a piece is named as its title says');
  const titles = tips.map(([title]) => title).join('\n');
  for (const piece of [/^Polar bear:/m, /^Santa \(Oma Inge\):/m, /penguin$/m, /^The tree:/m, /^Santa's hut:/m, /^(red|blue|green) stone:/m]) {
    assert.match(titles, piece, `a piece of the board explains itself: ${piece}`);
  }

  // Unterm Baum in German: the tree and its cards say what they are.
  await ben.page.setViewportSize(desktop);
  await ben.page.goto(`${baseUrl}/`);
  await ben.page.locator('[data-act="pick-game"][data-game="unterm_baum"]').click();
  await ben.page.locator('#create-form button[type="submit"]').click();
  await ben.page.getByTestId('room-code').waitFor();
  await ben.page.locator('[data-act="add-bot"]').click();
  await ben.page.locator('[data-testid="add-bot-fair"]').click();
  await ben.page.locator('[data-act="start"]:not([disabled])').click();
  const card = ben.page.locator('.ub-tree .ub-card').first();
  await card.waitFor();
  assert.match(await card.getAttribute('aria-label'), /^Ein Geschenk unterm Baum, verdeckt/);
  assert.equal(await card.getAttribute('title'), await card.getAttribute('aria-label'));
  assert.match(await ben.page.locator('.ub-tree h3').getAttribute('title'), /Der Baum/);
  console.log(`screenshots in ${shots}`);
  assertNoPageErrors(oma.page, ben.page);
});
