// The shared frame on a phone (issue 17) and in words a family uses (issue 14): every screen that is
// not one game's board fits 390 × 844 and 360 × 740 without sideways scroll (home, the picker with
// each game's settings, the rules sheets, the lobby as host and as guest with computer players and
// a long name, the invite page for an open, a full, a running and an unknown room, each game's
// screen with the log and chat, and each game's results, whose table fits); the sticky turn bar
// takes at most a fifth of the screen; text on coloured chips, badges and buttons reads at WCAG AA
// in both languages; computer players have friendly names in the page's language; German screens
// use the games' German titles; a timed first turn gets one tip, not a tour.
import assert from 'node:assert/strict';
import {
  assertCleanText, assertNoPageErrors, assertNoSideScroll, createRoom, joinByInvite, newPlayer, phoneSizes, playOneStep, run, setOption,
  screenshot, screenshotDir, sleep,
} from './lib.mjs';

const desktop = { width: 1280, height: 900 };
const longName = 'Hildegard-Annemarie Großmütterle'; // 32 characters, the most a name may have

// Two frames: the layout after a resize or a push has settled.
const settled = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

// Checks `where` at both phone sizes (and `more` at each), then goes back to `back`.
async function atPhones(page, where, more, back = null) {
  for (const size of phoneSizes) {
    await page.setViewportSize(size);
    await settled(page);
    await assertNoSideScroll(page, `${where} at ${size.width} px`);
    if (more) await more(size);
  }
  if (back) {
    await page.setViewportSize(back);
    await settled(page);
  }
}

// Text on a background of its own (chips, badges, buttons, bars, cards): the contrast of its colour
// against the effective background (the element's and its ancestors' background colours composed),
// WCAG AA: 4.5:1, large text (24 px, or 18.66 px bold) 3:1. Disabled controls are exempt, as in
// WCAG. Returns the failures of the frame; those inside a game's own board or results table are
// logged for that game's owner.
async function contrastFailures(page, where) {
  const r = await page.evaluate(() => {
    const parse = (c) => {
      const m = /rgba?\(([^)]+)\)/.exec(c || '');
      if (!m) return null;
      const p = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
      return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
    };
    const over = (top, bottom) => [0, 1, 2].map((i) => top[i] * top[3] + bottom[i] * (1 - top[3])).concat(1);
    const lum = (c) => {
      const [r, g, b] = c.slice(0, 3).map((v) => v / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const ratio = (a, b) => {
      const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
      return (x + 0.05) / (y + 0.05);
    };
    const out = [];
    // A fade-in under way ends at full opacity: what it shows is measured as it ends.
    const fading = new Set(document.getAnimations().map((a) => a.effect?.target).filter(Boolean));
    for (const el of document.querySelectorAll('body *')) {
      const own = [...el.childNodes].some((n) => n.nodeType === 3 && /[\p{L}\p{N}]/u.test(n.textContent));
      if (!own || el.closest('[disabled], [hidden], script, style, noscript, option')) continue;
      const box = el.getBoundingClientRect();
      if (!box.width || !box.height) continue;
      const cs = getComputedStyle(el);
      if (cs.visibility !== 'visible') continue;
      const layers = [];
      let opacity = 1;
      let image = false;
      for (let e = el; e; e = e.parentElement) {
        const s = getComputedStyle(e);
        if (!fading.has(e)) opacity *= Number(s.opacity);
        if (s.backgroundImage !== 'none' && !layers.some((l) => l[3] >= 1)) image = true;
        const c = parse(s.backgroundColor);
        if (c && c[3] > 0 && !layers.some((l) => l[3] >= 1)) layers.push(c);
      }
      if (image) continue; // a picture behind the text: not measurable this way
      let bg = [255, 255, 255, 1];
      for (const l of layers.reverse()) bg = over(l, bg);
      const fg = parse(cs.color);
      const text = over([fg[0], fg[1], fg[2], fg[3] * opacity], bg);
      const size = parseFloat(cs.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(cs.fontWeight) >= 700);
      const need = large ? 3 : 4.5;
      const got = ratio(text, bg);
      if (got + 0.005 < need) {
        const name = el.tagName.toLowerCase() + (typeof el.className === 'string' && el.className.trim() ? `.${el.className.trim().split(/\s+/).join('.')}` : '');
        const game = Boolean(el.closest('.board-wrap, .score-table, .result-board, [class^="hh-"], [class^="ub-"], [class^="cp-"]'));
        out.push({ el: name, text: el.textContent.trim().slice(0, 40), ratio: Math.round(got * 100) / 100, need, color: cs.color, bg: `rgb(${bg.slice(0, 3).map(Math.round).join(',')})`, game });
      }
    }
    return out;
  });
  const game = r.filter((x) => x.game);
  if (game.length) console.log(`contrast (for the game's owner), ${where}: ${JSON.stringify(game.slice(0, 8))}`);
  return r.filter((x) => !x.game);
}

async function assertContrast(page, where) {
  const bad = await contrastFailures(page, where);
  assert.deepEqual(bad, [], `${where}: text below WCAG AA contrast: ${JSON.stringify(bad, null, 1)}`);
}

// The sticky turn bar on a phone: at most a fifth of the screen's height.
async function assertTurnBar(page, where) {
  const r = await page.evaluate(() => ({ h: document.querySelector('#screen .turn-bar')?.getBoundingClientRect().height, H: window.innerHeight }));
  assert.ok(r.h > 0, `${where}: a turn bar`);
  assert.ok(r.h <= r.H / 5, `${where}: the turn bar is ${r.h} px high, more than a fifth of ${r.H} px`);
}

// Picks `game` on the home page (name typed), sets `options`, opens "More settings".
async function pick(page, baseUrl, name, game, options = {}) {
  await page.goto(`${baseUrl}/`);
  await page.fill('#name', name);
  await page.locator(`[data-act="pick-game"][data-game="${game}"]`).click();
  await page.locator('#create-form').waitFor();
  for (const [k, v] of Object.entries(options)) await setOption(page, k, v);
}

// Plays this page's turns with whatever is offered first (a choice, a highlighted place), until
// the results are on screen; the short timers move the game on meanwhile.
async function playToResults(pages, limitMs = 150000) {
  const end = Date.now() + limitMs;
  for (;;) {
    for (const page of pages) if (await page.getByTestId('results').count()) return;
    if (Date.now() > end) throw new Error('the game did not reach its results in time');
    let clicked = false;
    for (const page of pages) {
      if (await playOneStep(page)) clicked = true;
      else if (await page.locator('.turn-bar.mine').count()) {
        const place = page.locator('.cp-board .floe.target, .board-wrap [role="button"][data-act]').first();
        if (await place.count()) {
          clicked = await place.click({ timeout: 1000 }).then(() => true, () => false);
        }
      }
    }
    if (!clicked) await sleep(150);
  }
}

async function resultsFit(page, where) {
  await page.getByTestId('results').waitFor();
  await page.getByTestId('results').scrollIntoViewIfNeeded();
  await atPhones(page, where, async () => {
    const t = await page.evaluate(() => [...document.querySelectorAll('[data-testid="results"] table')].map((e) => ({
      scroll: e.scrollWidth, client: e.clientWidth, right: e.getBoundingClientRect().right, W: document.documentElement.clientWidth, html: e.outerHTML.slice(0, 1500),
    })));
    for (const x of t) {
      assert.ok(x.scroll <= x.client + 1, `${where}: the results table scrolls inside itself (${x.scroll} > ${x.client}): ${x.html}`);
      assert.ok(x.right <= x.W + 0.5, `${where}: the results table sticks out (${x.right} > ${x.W})`);
    }
  });
}

await run('browser: the shared frame on a phone, in both languages, with legible colours', async ({ browser, baseUrl }) => {
  const oma = await newPlayer(browser, 'Oma', { locale: 'en-GB', viewport: phoneSizes[0] });
  const hilde = await newPlayer(browser, 'Hilde', { locale: 'de-DE', viewport: phoneSizes[0] });
  const visitor = await newPlayer(browser, 'Visitor', { locale: 'de-DE', viewport: phoneSizes[1] });
  const pages = [oma.page, hilde.page, visitor.page];

  // Home, the picker with each game's settings and "More settings", each rules sheet; both languages.
  for (const [p, lang] of [[oma.page, 'en'], [hilde.page, 'de']]) {
    await p.goto(`${baseUrl}/`);
    await p.locator('#name').waitFor();
    await atPhones(p, `home (${lang})`);
    if (lang === 'de') {
      assert.match(await p.title(), /Weihnachtsspiele/, 'a German page title');
      assert.equal(await p.locator('#lang').getAttribute('aria-label'), 'English: die Seite auf Englisch zeigen');
    } else {
      assert.equal(await p.locator('#lang').getAttribute('aria-label'), 'Deutsch: show the page in German');
    }
    for (const game of ['happy_holidays', 'unterm_baum', 'christmas_penguins']) {
      await pick(p, baseUrl, lang === 'de' ? longName : 'Oma Inge', game);
      await p.locator('.options summary').click();
      await atPhones(p, `${game} settings with "More settings" (${lang})`);
      if (lang === 'de') await assertCleanText(p, 'de');
      await p.locator(`[data-help="${game}"]`).click();
      await p.locator('#help-sheet[open]').waitFor();
      await atPhones(p, `${game} rules sheet (${lang})`);
      await p.keyboard.press('Escape');
      await p.locator('#help-sheet').waitFor({ state: 'hidden' });
    }
  }
  await screenshot(hilde.page, 'phone-picker-de-390.png');

  // The lobby: Oma hosts Happy Holidays for four; Hilde (a long name, German) sits down; a
  // computer player joins. The invite page on the way: open, full, running.
  const code = await createRoom(oma.page, baseUrl, 'Oma Inge', 'Happy Holidays', { maxPlayers: 4, giftsPerColour: 5, mainTimeoutSec: 15, subPromptTimeoutSec: 10 });
  await joinByInvite(hilde.page, baseUrl, code, longName);
  await oma.page.getByRole('button', { name: 'Add a computer player' }).click();
  // Two choices, each with its line (bots.js); Oma picks the gentle one, and every seat list says so.
  await oma.page.locator('[data-testid="bot-pick"]').waitFor();
  await assertNoSideScroll(oma.page, 'the computer player choice');
  await oma.page.getByTestId('bot-pick').screenshot({ path: `${screenshotDir}/phone-bot-pick-en-390.png` });
  await oma.page.getByRole('button', { name: /Gentle.*children usually win/ }).click();
  await oma.page.locator('.seat strong', { hasText: 'Holly' }).waitFor();
  await oma.page.locator('.seat', { hasText: 'Holly' }).getByText('computer, gentle').first().waitFor();
  await hilde.page.locator('.seat strong', { hasText: 'Holly' }).waitFor(); // the same name in both languages
  for (const p of [oma.page, hilde.page]) {
    assert.doesNotMatch(await p.locator('#screen').innerText(), /Bot \d/, 'no "Bot 1" on screen');
  }
  await atPhones(oma.page, 'lobby as host (en)', () => assertContrast(oma.page, 'lobby as host (en)'));
  await oma.page.getByRole('button', { name: 'Change settings' }).click();
  await oma.page.locator('#options-form').waitFor();
  await oma.page.locator('#options-form summary').click();
  await atPhones(oma.page, 'lobby as host, changing the settings (en)');
  await oma.page.locator('#options-form button[type="submit"]').click();
  await oma.page.locator('#options-form').waitFor({ state: 'detached' });
  await atPhones(hilde.page, 'lobby as guest (de)', () => assertContrast(hilde.page, 'lobby as guest (de)'));
  await assertCleanText(hilde.page, 'de');
  assert.equal(await oma.page.locator('#copy-link').getAttribute('aria-label'), 'Copy link: Copy the invite link');
  assert.equal(await hilde.page.locator('#invite-link').getAttribute('aria-label'), 'Einladungslink für deine Familie');
  assert.equal(await hilde.page.locator('#conn').getAttribute('aria-label'), 'Verbindung: Verbunden');
  await screenshot(oma.page, 'phone-lobby-host-en-390.png');
  await screenshot(hilde.page, 'phone-lobby-guest-de-390.png');
  await hilde.page.setViewportSize(desktop);
  await screenshot(hilde.page, 'desktop-lobby-guest-de-1280.png');
  await hilde.page.setViewportSize(phoneSizes[0]);

  // The invite page, in German on the small phone: one seat free, then full, then the game runs.
  await visitor.page.goto(`${baseUrl}/r/${code}`);
  await visitor.page.getByTestId('invite-status').getByText('Ein Platz ist frei').waitFor();
  await visitor.page.getByTestId('invite-seats').getByText('Holly').waitFor();
  assert.match(await visitor.page.title(), /Happy Holidays/);
  await atPhones(visitor.page, 'invite page, a seat free (de)');
  await assertCleanText(visitor.page, 'de');
  await screenshot(visitor.page, 'phone-invite-de-360.png');
  await oma.page.getByRole('button', { name: 'Add a computer player' }).click();
  await oma.page.getByRole('button', { name: /Fair.*play well/ }).click();
  await oma.page.locator('.seat strong', { hasText: 'Rudi' }).waitFor();
  await visitor.page.reload();
  await visitor.page.getByTestId('invite-status').getByText('Alle Plätze sind besetzt').waitFor();
  await atPhones(visitor.page, 'invite page, room full (de)');
  await visitor.page.goto(`${baseUrl}/r/ZZZZZZ`);
  await visitor.page.getByTestId('invite-gone').waitFor();
  await atPhones(visitor.page, 'invite page, unknown room (de)');
  assert.match(await visitor.page.title(), /Diesen Spielraum gibt es nicht/);

  // Happy Holidays: the game screen, the side panel, the turn bar; the running game's invite page.
  await oma.page.getByRole('button', { name: 'Start the game' }).click();
  await oma.page.getByTestId('turn').waitFor();
  await hilde.page.getByTestId('turn').waitFor();
  await visitor.page.goto(`${baseUrl}/r/${code}`);
  await visitor.page.getByTestId('invite-status').getByText('Das Spiel läuft schon').waitFor();
  await atPhones(visitor.page, 'invite page, game running (de)');
  // The visitor watches: the game frame for a spectator.
  await visitor.page.fill('#name', 'Onkel Friedrich');
  await visitor.page.locator('button[data-as="spectator"]').click();
  await visitor.page.getByTestId('turn').waitFor();
  await atPhones(visitor.page, 'Happy Holidays watched (de)', () => assertTurnBar(visitor.page, 'Happy Holidays watched (de)'));
  await assertContrast(visitor.page, 'Happy Holidays watched (de)');
  await assertCleanText(visitor.page, 'de');
  for (const [p, lang] of [[oma.page, 'en'], [hilde.page, 'de']]) {
    await atPhones(p, `Happy Holidays game (${lang})`, () => assertTurnBar(p, `Happy Holidays (${lang})`));
    await assertContrast(p, `Happy Holidays game (${lang})`);
    await p.locator('#side').scrollIntoViewIfNeeded();
    await atPhones(p, `log and chat beside Happy Holidays (${lang})`);
  }
  assert.match(await hilde.page.title(), /Happy Holidays|Du bist dran/);
  await hilde.page.getByTestId('log').getByText('Das Spiel beginnt').waitFor();
  assert.doesNotMatch(await hilde.page.locator('body').innerText(), /Bot \d/, 'the log and the board name the computer players as the lobby does');
  assert.match(await hilde.page.getByTestId('log').innerText(), /Holly/);
  await hilde.page.locator('#chat-text').fill('Frohe Weihnachten aus dem Schwarzwald, ihr Lieben!');
  await hilde.page.locator('#chat-send').click();
  await oma.page.getByTestId('chat').getByText('Schwarzwald').waitFor();
  await screenshot(hilde.page, 'phone-hh-game-de-390.png');
  await oma.page.setViewportSize(desktop);
  await screenshot(oma.page, 'desktop-hh-game-en-1280.png');
  await oma.page.setViewportSize(phoneSizes[0]);
  await playToResults([oma.page, hilde.page]);
  for (const [p, lang] of [[oma.page, 'en'], [hilde.page, 'de']]) {
    await resultsFit(p, `Happy Holidays results (${lang})`);
    await assertContrast(p, `Happy Holidays results (${lang})`);
  }
  // The seat colours: their text variant reads on every light background of the frame, and the
  // text colour for a fill of each seat colour reads on it.
  const seatColours = await hilde.page.evaluate(async () => {
    const { seatColours: fill, seatInk: ink, seatOnColour: on } = await import('/js/state.js');
    return { fill, ink, on };
  });
  const lum = (h) => {
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(h.length === 4 ? h[(i + 1) / 2].repeat(2) : h.slice(i, i + 2), 16) / 255)
      .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => (Math.max(lum(a), lum(b)) + 0.05) / (Math.min(lum(a), lum(b)) + 0.05);
  seatColours.fill.forEach((fill, i) => {
    for (const bg of ['#ffffff', '#fffdf8', '#f6f1e7', '#e9e2d3', '#fff1b8', '#e8f3ee']) {
      assert.ok(ratio(seatColours.ink[i], bg) >= 4.5, `seat ${i}'s text colour ${seatColours.ink[i]} on ${bg}: ${ratio(seatColours.ink[i], bg).toFixed(2)}`);
    }
    assert.ok(ratio(seatColours.on[i], fill) >= 4.5, `text ${seatColours.on[i]} on seat colour ${fill}: ${ratio(seatColours.on[i], fill).toFixed(2)}`);
  });
  await assertCleanText(hilde.page, 'de');
  await screenshot(hilde.page, 'phone-hh-results-de-390.png');
  await visitor.page.getByTestId('results').waitFor();
  await resultsFit(visitor.page, 'Happy Holidays results watched (de)');
  await screenshot(visitor.page, 'phone-hh-results-watched-de-360.png');

  // Unterm Baum: one round, short timers, against a computer player; in German.
  await pick(hilde.page, baseUrl, longName, 'unterm_baum', { maxPlayers: 2, maxRounds: 1, familySize: 3, startPlayer: 'host-picks', assignSeconds: 3, memorizeSeconds: 2, revealSeconds: 10, mainTimeoutSec: 15 });
  await hilde.page.locator('#create-form button[type="submit"]').click();
  await hilde.page.getByTestId('room-code').waitFor();
  assert.match(await hilde.page.locator('.lobby h2').innerText(), /Unterm Baum/);
  await hilde.page.locator('[data-act="add-bot"]').click();
  await hilde.page.locator('[data-testid="bot-pick"]').waitFor();
  await assertNoSideScroll(hilde.page, 'the computer player choice in German');
  await hilde.page.getByTestId('bot-pick').screenshot({ path: `${screenshotDir}/phone-bot-pick-de-390.png` });
  await hilde.page.getByRole('button', { name: /Gemütlich.*Kinder gewinnen meistens/ }).click();
  await hilde.page.locator('.seat', { hasText: 'Computer, gemütlich' }).first().waitFor();
  await hilde.page.locator('[data-act="start"]:not([disabled])').click();
  await hilde.page.getByTestId('turn').waitFor();
  await atPhones(hilde.page, 'Unterm Baum game (de)', () => assertTurnBar(hilde.page, 'Unterm Baum (de)'));
  await assertContrast(hilde.page, 'Unterm Baum game (de)');
  await screenshot(hilde.page, 'phone-ub-game-de-390.png');
  // Hilde begins: she looks at a card. The revealed card sticks below the turn bar, never under it,
  // also with the page scrolled.
  await hilde.page.locator('.turn-bar.mine').waitFor();
  await hilde.page.locator('.ub-tree .ub-card.can').first().click();
  await hilde.page.getByTestId('reveal').waitFor();
  await atPhones(hilde.page, 'Unterm Baum reveal (de)', async (size) => {
    await hilde.page.evaluate(() => {
      const b = document.querySelector('#screen .board-wrap');
      window.scrollTo(0, b.getBoundingClientRect().top + window.scrollY + b.offsetHeight / 2 - window.innerHeight / 2);
    });
    await settled(hilde.page);
    const r = await hilde.page.evaluate(() => {
      const bar = document.querySelector('#screen .turn-bar').getBoundingClientRect();
      const reveal = document.querySelector('[data-testid="reveal"]')?.getBoundingClientRect();
      return { bar: bar.bottom, reveal: reveal?.top, h: reveal?.height };
    });
    if (r.reveal === undefined) return; // shown for revealSeconds only
    assert.ok(r.bar <= r.reveal + 0.5, `Unterm Baum at ${size.width} px: the turn bar (bottom ${r.bar}) covers the revealed card (top ${r.reveal})`);
  });
  await hilde.page.screenshot({ path: `${process.env.TINSEL_SCREENSHOT_DIR || 'build/screenshots'}/phone-ub-reveal-de-360.png` });
  await playToResults([hilde.page]);
  await resultsFit(hilde.page, 'Unterm Baum results (de)');
  await assertContrast(hilde.page, 'Unterm Baum results (de)');
  await screenshot(hilde.page, 'phone-ub-results-de-390.png');

  // Christmas Penguins: one round against a computer player, in English. Oma's first turn has a
  // time limit: one tip at once, not a tour of four.
  await oma.page.evaluate(() => localStorage.setItem('tinsel', JSON.stringify({ ...JSON.parse(localStorage.getItem('tinsel') || '{}'), coach: {} })));
  await pick(oma.page, baseUrl, 'Oma Inge', 'christmas_penguins', { maxPlayers: 2, maxRounds: 1, startPlayer: 'host-picks', mainTimeoutSec: 30, subPromptTimeoutSec: 30, reactionWindowMs: 0 });
  await oma.page.locator('#create-form button[type="submit"]').click();
  await oma.page.getByTestId('room-code').waitFor();
  await oma.page.locator('[data-act="add-bot"]').click();
  await oma.page.locator('[data-testid="add-bot-fair"]').click();
  await oma.page.locator('[data-act="start"]:not([disabled])').click();
  await oma.page.locator('.turn-bar.mine').waitFor();
  const tip = oma.page.getByTestId('coach');
  await tip.waitFor();
  assert.equal(await tip.getAttribute('data-step'), 'quick', 'a timed turn: one tip');
  assert.match(await tip.innerText(), /The clock up here keeps running/);
  assert.equal(await tip.locator('.coach-count').count(), 0);
  await atPhones(oma.page, 'Christmas Penguins game with the tip (en)', () => assertTurnBar(oma.page, 'Christmas Penguins (en)'));
  await screenshot(oma.page, 'phone-cp-tip-en-390.png');
  await oma.page.locator('#coach-next').click();
  await tip.waitFor({ state: 'detached' });
  await assertContrast(oma.page, 'Christmas Penguins game (en)');
  await playToResults([oma.page]);
  await resultsFit(oma.page, 'Christmas Penguins results (en)');
  await assertContrast(oma.page, 'Christmas Penguins results (en)');
  await screenshot(oma.page, 'phone-cp-results-en-390.png');

  // At a desktop size the frame still looks as before.
  await oma.page.setViewportSize(desktop);
  await screenshot(oma.page, 'desktop-cp-results-en-1280.png');
  assertNoPageErrors(...pages);
});
