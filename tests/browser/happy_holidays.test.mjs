// Two people in two browsers: one creates a Happy Holidays room through the UI, the other (on a
// phone, in German) opens the invite link and sits down; they chat, a third watches through the
// watch-only link, they play a complete game by clicking the offered choices (the guest reloads the
// page mid-game and carries on; the host opens a second window, which takes the seat over), and
// everyone reaches the results screen. On the way: every phase of the game fits both phone sizes
// without sideways scroll, the die shows the face rolled, moved gifts slide (and nothing moves for
// the watcher who asked for reduced motion).
import assert from 'node:assert/strict';
import { assertCleanText, assertNoPageErrors, assertNoSideScroll, createRoom, joinByInvite, newPlayer, phoneSizes, playOneStep, run, screenshot, sleep, startProxy } from './lib.mjs';

// Counts, in the page, the animations that start on the board: Web Animations (the slides of
// motion.js; `slides` for gift boxes) and CSS animations (the die's roll).
function countBoardAnimations() {
  window.hhAnimations = { all: 0, slides: 0, rolls: 0 };
  const animate = Element.prototype.animate;
  Element.prototype.animate = function countedAnimate(...args) {
    if (this.closest?.('.hh-board')) {
      window.hhAnimations.all += 1;
      if (this.classList.contains('gb')) window.hhAnimations.slides += 1;
    }
    return animate.apply(this, args);
  };
  document.addEventListener('animationstart', (e) => {
    if (!e.target.closest?.('.hh-board')) return;
    window.hhAnimations.all += 1;
    if (e.target.id === 'hh-die') window.hhAnimations.rolls += 1;
  }, true);
}
const boardAnimations = (page) => page.evaluate(() => window.hhAnimations);

// A person whose phone asks for reduced motion (as newPlayer in lib.mjs, plus that setting).
async function newWatcherWithReducedMotion(browser, name) {
  const context = await browser.newContext({ locale: 'en-GB', viewport: { width: 390, height: 844 }, reducedMotion: 'reduce' });
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (err) => page.errors.push(`${name}: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') page.errors.push(`${name}: console: ${msg.text()}`);
  });
  await page.addInitScript(countBoardAnimations);
  return { context, page, name };
}

// The phases of a game by the board's data-phase (the game's view.phase).
const phaseOf = (page) => page.locator('.hh-board').getAttribute('data-phase', { timeout: 5000 }).catch(() => null);

// For a picture: wait until nothing moves any more.
const settled = (page) => page.waitForFunction(() => document.getAnimations().length === 0);

// The screen at both phone sizes, then back at the page's own size: nothing sticks out sideways.
async function fitsPhones(page, where, shotName) {
  const own = page.viewportSize();
  for (const size of phoneSizes) {
    await page.setViewportSize(size);
    await assertNoSideScroll(page, `${where} at ${size.width} px`);
    if (shotName && size.width === 390) {
      await settled(page);
      await screenshot(page, shotName);
    }
  }
  await page.setViewportSize(own);
}

await run('browser: Happy Holidays from invite to results', async ({ browser, baseUrl }) => {
  const oma = await newPlayer(browser, 'Oma');
  const ben = await newPlayer(browser, 'Ben', { locale: 'de-DE', viewport: { width: 412, height: 915 } }); // a phone
  const benNet = await startProxy(baseUrl); // Ben's flaky home network
  await oma.page.addInitScript(countBoardAnimations);
  await oma.page.goto(`${baseUrl}/`);
  await screenshot(oma.page, 'home.png');

  const code = await createRoom(oma.page, baseUrl, 'Oma Inge', 'Happy Holidays', { maxPlayers: 2 });
  assert.match(code, /^[2-9A-HJKMNP-Z]{6}$/);
  assert.equal(await oma.page.locator('#invite-link').inputValue(), `${baseUrl}/r/${code}`);

  await ben.page.goto(`${benNet.url}/r/${code}`);
  await ben.page.getByRole('button', { name: 'Hinsetzen und mitspielen' }).waitFor(); // German, from the browser
  await joinByInvite(ben.page, benNet.url, code, 'Ben');
  await oma.page.getByText('Ben', { exact: true }).waitFor();
  await ben.page.getByText('Schick diesen Link an deine Familie:').waitFor();
  // The host reloads the lobby: same seat, still the host, Ben still seated.
  await oma.page.reload();
  await oma.page.getByRole('button', { name: 'Start the game' }).waitFor();
  await oma.page.getByText('Ben', { exact: true }).waitFor();
  await screenshot(oma.page, 'lobby.png');

  // Chat reaches the other browser.
  await ben.page.fill('#chat-text', 'Frohe Weihnachten, Oma!');
  await ben.page.click('#chat-send');
  await oma.page.getByTestId('chat').getByText('Frohe Weihnachten, Oma!').waitFor();

  // A spectator through the watch-only link sees the room but takes no seat.
  // (Tom asked his phone for reduced motion: nothing on the board may move for him.)
  const tom = await newWatcherWithReducedMotion(browser, 'Tom');
  await tom.page.goto(`${baseUrl}/watch/${code}`);
  await tom.page.fill('#name', 'Onkel Tom');
  await tom.page.getByRole('button', { name: 'Just watch' }).click();
  await oma.page.getByTestId('watchers').getByText('Watching: Onkel Tom').waitFor();

  await oma.page.getByRole('button', { name: 'Start the game' }).click();
  await oma.page.getByTestId('turn').waitFor();
  await ben.page.getByTestId('turn').waitFor();
  await tom.page.getByText('You are watching.').waitFor();
  assert.equal(await tom.page.locator('.actions').count(), 0, 'a spectator is offered no actions');
  // Before the first roll the die is a blank face (no studs that look like a 4), named as such.
  const idleDie = oma.page.getByTestId('hh-die');
  assert.equal(await idleDie.getAttribute('data-face'), '');
  assert.equal(await idleDie.locator('.stud').count(), 0, 'the idle die has no pips');
  assert.equal(await idleDie.getAttribute('aria-label'), 'The die: not rolled yet');
  // The start player holds no reindeer: taking one is the recommended (primary) choice, rolling
  // without one (the turn is missed) a plain button.
  {
    const starter = (await oma.page.locator('.turn-bar.mine').count()) ? oma.page : ben.page;
    await starter.locator('.actions button.action').first().waitFor();
    const forgot = starter.locator('.actions button.action', { hasText: /Roll without a reindeer|Ohne Rentier würfeln/ });
    const take = starter.locator('.actions button.action', { hasText: /reindeer|Rentier von/ }).first();
    assert.equal(await forgot.count(), 1, 'the miss-a-turn roll is offered');
    assert.ok(!(await forgot.getAttribute('class')).includes('primary'), 'the miss-a-turn roll is not primary');
    assert.ok((await take.getAttribute('class')).includes('primary'), 'taking a reindeer is primary');
    // The start player's bar says why there is no reindeer yet.
    assert.match(await starter.locator('.turn-bar .what').textContent(), /^(You have no reindeer: take one, then roll|Du hast kein Rentier – nimm dir eins, dann würfeln)$/);
  }
  const starterPage = (await oma.page.locator('.turn-bar.mine').count()) ? oma.page : ben.page;
  const secondPage = starterPage === oma.page ? ben.page : oma.page;
  // The other player watches the board further down the page while the start player plays.
  await secondPage.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  {
    const until = Date.now() + 30000;
    while (!(await secondPage.locator('.turn-bar.mine').count()) && Date.now() < until) {
      if (!(await playOneStep(starterPage))) await sleep(50);
    }
  }
  // Their turn comes: the choices are brought into full view below the sticky turn bar, and the
  // first-turn tip covers none of them.
  await secondPage.waitForFunction(() => {
    const bar = document.querySelector('#screen .turn-bar').getBoundingClientRect();
    const actions = document.querySelector('#screen .actions').getBoundingClientRect();
    return actions.top >= bar.bottom && actions.bottom <= window.innerHeight;
  }, null, { timeout: 5000 });
  await secondPage.getByTestId('coach').waitFor();
  await secondPage.waitForFunction(() => {
    const tip = document.getElementById('coach')?.getBoundingClientRect();
    const overlap = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    return tip && [...document.querySelectorAll('#screen .actions button')].every((b) => !overlap(tip, b.getBoundingClientRect()));
  }, null, { timeout: 5000 });
  await settled(secondPage);
  await screenshot(secondPage, `hh-second-turn-${secondPage === ben.page ? 'de' : 'en'}.png`);
  // The start player took the only reindeer from the other: the other's turn says who took it,
  // and so does their own place on the board.
  assert.match(await secondPage.locator('.turn-bar .what').textContent(), /^(Oma Inge hat dein Rentier genommen – nimm dir eins, dann würfeln|Ben took your reindeer: take one yourself, then roll)$/);
  assert.match(await secondPage.getByTestId('hh-news').locator('li:not(.hh-news-head)').first().textContent(), /^(Oma Inge nimmt dir dein Rentier weg|Ben takes your reindeer)$/);
  let rewardChecked = false;
  let endNearSeen = false;

  let steps = 0;
  let reloaded = false;
  let dropped = false;
  let shot = false;
  const phasesChecked = new Set();
  let dieChecked = false;
  let sleighButtonsChecked = false;
  let tomChecks = 0;
  const deadline = Date.now() + 200000;
  while (Date.now() < deadline) {
    if ((await oma.page.getByTestId('results').count()) && (await ben.page.getByTestId('results').count())) break;
    const clicked = (await playOneStep(oma.page)) || (await playOneStep(ben.page));
    if (clicked) steps += 1;
    else await sleep(50);
    // Each phase once, on the screen of the player it waits for (the choices showing), at both
    // phone sizes: Ben's in German, Oma's in English.
    const mover = (await oma.page.locator('.turn-bar.mine').count()) ? oma.page : ben.page;
    const phase = await phaseOf(mover);
    if (phase && !phasesChecked.has(phase) && (await mover.locator('.turn-bar.mine').count())) {
      phasesChecked.add(phase);
      await fitsPhones(mover, `the ${phase} screen`, `hh-${phase}-${mover === ben.page ? 'de' : 'en'}-390.png`);
    }
    if (phase === 'sleigh_colour' && !sleighButtonsChecked && (await mover.locator('.turn-bar.mine').count())) {
      // Each colour button says how many gifts it stacks from the sleigh.
      const labels = await mover.locator('.actions button.action').allTextContents();
      if (labels.length === 2) {
        for (const label of labels) {
          assert.match(label, /^(Stack [a-z]+: (\d+ gifts? from your sleigh|none on your sleigh)|\S+ stapeln: (\d+ Geschenke? vom Schlitten|keins auf dem Schlitten))$/, label);
        }
        sleighButtonsChecked = true;
      }
    }
    const reward = phase === 'choose_sleigh' && !rewardChecked ? await mover.evaluate(() => (document.querySelector('.turn-bar.mine')
      && document.querySelector('.hh-board')?.dataset.phase === 'choose_sleigh' ? [...document.querySelectorAll('.actions button.action')].map((b) => b.textContent) : null)) : null;
    if (reward) {
      // Each sleigh of the reindeer reward says what it brings and where the gifts go.
      for (const label of reward) {
        assert.match(label, /(onto your stacks|auf deine Stapel|nothing for you|nichts für dich) \((no swap|kein Tausch|.+ gets your sleigh: .+|.+ bekommt deinen Schlitten: .+)\)$/, label);
      }
      rewardChecked = true;
    }
    {
      // Two colours left under the tree: a line says the end is near; one left: the last turn.
      const board = await oma.page.evaluate(() => ({
        left: [...document.querySelectorAll('[data-testid^="hh-tree-"]')].filter((p) => !p.classList.contains('gone')).length,
        line: document.querySelector('[data-testid="hh-end-near"]')?.textContent ?? null,
        over: Boolean(document.querySelector('[data-testid="results"]')),
      }));
      if (!board.over && board.left === 2) {
        assert.match(board.line || '', /^Only \w+ and \w+ left under the tree: once one of them is used up, the game is over\.$/);
        endNearSeen = true;
      }
      if (!board.over && board.left > 2) assert.equal(board.line, null, 'no end line while three colours are left');
    }
    if (!dieChecked && (await oma.page.locator('[data-testid="hh-die"]:not([data-face=""])').count())) {
      // The die shows the face rolled, as a picture with its name; no question mark.
      const die = oma.page.getByTestId('hh-die');
      assert.match(await die.getAttribute('data-face'), /^(red_green|green_blue|blue_yellow|yellow_red|reindeer_reward|christmas_wish)$/);
      assert.match(await die.getAttribute('aria-label'), /^The die shows: (\w+ \+ \w+|Reindeer reward|Christmas wish)$/);
      assert.equal(await die.locator('svg').count(), 1);
      assert.ok(!(await die.textContent()).includes('?'), 'the die shows a face, not a question mark');
      dieChecked = true;
    }
    if (clicked && tomChecks < 12) {
      // Right after a move, on the watcher's screen with reduced motion: nothing animates.
      assert.equal(await tom.page.evaluate(() => document.getAnimations().length), 0, 'no animation runs under reduced motion');
      tomChecks += 1;
    }
    if (!shot && steps >= 12 && (await oma.page.locator('.turn-bar.mine').count())) {
      await settled(oma.page);
      await screenshot(oma.page, 'happy-holidays.png');
      await settled(ben.page);
      await screenshot(ben.page, 'happy-holidays-phone.png');
      await assertCleanText(ben.page, 'de'); // Ben's German game screen: no raw keys, no English
      shot = true;
    }
    if (!reloaded && steps === 20) {
      // A reload mid-game: the saved token brings Ben back to his seat, up to date, and the log
      // back as it was (nobody clicks meanwhile: this loop is the only one clicking).
      const logBefore = (await ben.page.getByTestId('log').locator('li').allTextContents()).slice(0, 8);
      await ben.page.reload();
      await ben.page.getByTestId('turn').waitFor();
      assert.equal(await ben.page.locator('#conn').textContent(), 'Verbunden');
      await ben.page.locator('.hh-player strong', { hasText: 'Ben (du)' }).waitFor(); // seated, not watching
      assert.ok((await ben.page.getByTestId('log').locator('li').count()) > 3, 'the log is filled again after the reload');
      // The last click's state may reach Ben only after he read his log: its lines then come first.
      const logAfter = (await ben.page.getByTestId('log').locator('li').allTextContents()).slice(0, 16);
      const at = [0, 1, 2, 3, 4].find((k) => logBefore.every((line, i) => logAfter[k + i] === line));
      assert.ok(at !== undefined, `the newest log lines are back after the reload:\n${logBefore.join('\n')}\n---\n${logAfter.join('\n')}`);
      reloaded = true;
    }
    if (!dropped && steps === 30) {
      // The network drops: the badge says so at once, and the client reconnects and catches up.
      benNet.cut();
      await ben.page.locator('#conn.conn-reconnecting').waitFor({ timeout: 5000 });
      await ben.page.locator('#conn.conn-online').waitFor({ timeout: 10000 });
      await ben.page.locator('.hh-player strong', { hasText: 'Ben (du)' }).waitFor();
      dropped = true;
    }
  }
  assert.ok(reloaded && dropped, 'the game ended before the reload and network-drop steps');
  assert.ok(dieChecked, 'the die was checked after a roll');
  assert.ok(sleighButtonsChecked, 'the sleigh-colour buttons were checked');
  console.log(`end-near line seen: ${endNearSeen}; reward buttons checked: ${rewardChecked}`);
  for (const phase of ['start_of_turn', 'sleigh_colour']) assert.ok(phasesChecked.has(phase), `the ${phase} screen was checked on phones`);
  console.log(`phases checked on phones: ${[...phasesChecked].join(', ')}`);
  // Moves animate for Oma: the die rolled and gifts slid; for Tom (reduced motion) nothing did.
  const omaMoved = await boardAnimations(oma.page);
  assert.ok(omaMoved.slides > 0 && omaMoved.rolls > 0, `moves animate without reduced motion: ${JSON.stringify(omaMoved)}`);
  assert.equal(await tom.page.evaluate(() => document.getAnimations().length), 0);
  assert.deepEqual(await boardAnimations(tom.page), { all: 0, slides: 0, rolls: 0 }, 'nothing on the board moved under reduced motion');
  // Oma opens the room in a second window: it takes the seat over, the first window says so.
  const omaTab2 = await oma.context.newPage();
  await omaTab2.goto(`${baseUrl}/r/${code}`);
  await omaTab2.getByTestId('results').waitFor();
  await oma.page.locator('#screen').getByText('This seat is now open in another window.').waitFor();
  await oma.page.getByRole('button', { name: 'Play in this window' }).click();
  await omaTab2.locator('#screen').getByText('This seat is now open in another window.').waitFor();
  await oma.page.getByTestId('results').waitFor({ timeout: 5000 });
  await ben.page.getByTestId('results').waitFor({ timeout: 5000 });
  const headline = await oma.page.locator('.results .headline').textContent();
  assert.match(headline, /won/);
  assert.equal(await oma.page.locator('.score-table tbody tr').count(), 2);
  // The results say why the game ended, and what the total column counts.
  assert.match(await oma.page.getByTestId('result-note').textContent(), /^The game ended (because|after) .*Points are the gifts in your two biggest stacks\./);
  assert.match(await ben.page.getByTestId('result-note').textContent(), /^Das Spiel ist (aus, weil|nach) /);
  assert.deepEqual(await oma.page.locator('.score-table th').allTextContents(), ['', 'Points', 'Stacks', 'Gifts in all']);
  // The host is offered another game; the guest is told the host can start one.
  await oma.page.getByRole('button', { name: 'Play again' }).waitFor();
  await ben.page.getByText('Der Gastgeber kann ein neues Spiel starten.').waitFor();
  await oma.page.getByTestId('chat').getByText('Frohe Weihnachten, Oma!').waitFor(); // chat survived
  await tom.page.getByTestId('results').waitFor();
  await screenshot(oma.page, 'happy-holidays-results.png');
  await fitsPhones(ben.page, 'the results (German)', 'hh-over-de-390.png');
  await fitsPhones(oma.page, 'the results (English)', 'hh-over-en-390.png');
  await fitsPhones(tom.page, 'the results for a watcher');
  console.log(`played ${steps} clicks to the end`);
  // "Play again": the results give way to a new game, and a banner says so.
  await oma.page.getByRole('button', { name: 'Play again' }).click();
  await ben.page.waitForFunction(() => (document.getElementById('moment')?.dataset.shown || '').includes('Ein neues Spiel beginnt!'), null, { timeout: 10000 });
  await tom.page.waitForFunction(() => (document.getElementById('moment')?.dataset.shown || '').includes('A new game begins!'), null, { timeout: 10000 });
  assertNoPageErrors(oma.page, ben.page, tom.page);
  benNet.close();
});

// The fullest table the rules allow (six players, 15 gifts of a colour, loaded sleighs, tall
// stacks, long names) still fits both phones, in German, and uses a desktop's width.
await run('browser: Happy Holidays at its fullest fits a phone', async ({ browser, baseUrl }) => {
  const { page } = await newPlayer(browser, 'Oma', { locale: 'de-DE', viewport: phoneSizes[0] });
  await page.goto(`${baseUrl}/`);
  await page.locator('#name').waitFor();
  await page.evaluate(async () => {
    const hh = (await import('/js/games/happy_holidays.js')).createBoard();
    const names = ['Großmutter Hildegard', 'Onkel Maximilian', 'Ben', 'Tante Friederike', 'Opa', 'Lena-Sophie'];
    const player = (seat) => ({
      seat, reindeer: seat % 2 === 1, score: 29, total_gifts: 54,
      sleigh: { id: seat, gifts: { red: 5, green: 4, blue: 6, yellow: 3 } },
      stacks: { red: 15, green: 14, blue: 13, yellow: 12 },
    });
    const view = {
      game: 'happy_holidays', phase: 'choose_sleigh', prompt: 'choose_sleigh', active: 0, round: 12, turn: 70,
      tree: { red: 15, green: 0, blue: 15, yellow: 1 }, players: names.map((_, seat) => player(seat)),
      last_roll: { seat: 0, face: 'reindeer_reward' },
    };
    const ctx = {
      view, state: { view, over: false, seq: 9 }, legal: [], seat: 0,
      name: (s) => names[s], who: (s) => names[s], colour: () => '#b3261e',
    };
    // A page of its own, beside the app's (which it leaves alone), laid out as a game screen.
    document.querySelector('.layout').style.display = 'none';
    const layout = document.createElement('div');
    layout.className = 'layout';
    layout.innerHTML = `<main><section class="game"><div class="board-wrap">${hh.render(ctx)}</div></section></main>
      <aside class="card">…</aside>`;
    document.body.append(layout);
  });
  for (const size of phoneSizes) {
    await page.setViewportSize(size);
    await assertNoSideScroll(page, `the fullest table at ${size.width} px`);
  }
  await screenshot(page, 'hh-fullest-de-360.png');
  await page.setViewportSize({ width: 1280, height: 900 });
  await assertNoSideScroll(page, 'the fullest table on a desktop');
  // On a desktop the players sit side by side.
  const tops = await page.locator('.hh-player').evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().top)));
  assert.ok(new Set(tops).size < tops.length, `players side by side on a desktop: ${tops}`);
  await screenshot(page, 'hh-fullest-de-1280.png');
  assertNoPageErrors(page);
});

// Which gifts slide where, from the game's own states (no server needed): a Reindeer reward that
// takes Ben's sleigh sends its gifts to Oma's stacks and Oma's old load over to Ben's place, once.
await run('browser: Happy Holidays knows where moved gifts come from', async ({ browser, baseUrl }) => {
  const { page } = await newPlayer(browser, 'Oma');
  await page.goto(`${baseUrl}/`);
  await page.locator('#name').waitFor();
  const found = await page.evaluate(async () => {
    const hh = (await import('/js/games/happy_holidays.js')).createBoard();
    const none = { red: 0, green: 0, blue: 0, yellow: 0 };
    const player = (seat, reindeer, sleigh, stacks) => ({ seat, reindeer, score: 0, total_gifts: 0, sleigh: { id: seat, gifts: { ...none, ...sleigh } }, stacks: { ...none, ...stacks } });
    const view = (players, tree, phase) => ({ game: 'happy_holidays', phase, active: 0, round: 2, tree, players, last_roll: { seat: 0, face: 'reindeer_reward' } });
    const tree = { red: 6, green: 7, blue: 8, yellow: 8 };
    const before = view([player(0, true, { green: 1 }, {}), player(1, false, { red: 2, blue: 1 }, {})], tree, 'choose_sleigh');
    const after = view([player(0, true, {}, { red: 2, blue: 1 }), player(1, false, { green: 1 }, {})], tree, 'start_of_turn');
    const html = (v, seq) => hh.render({ view: v, state: { view: v, over: false, seq }, name: (s) => `P${s}`, who: (s) => `P${s}`, colour: () => '#b3261e' });
    const froms = (h) => [...h.matchAll(/data-flip-from="([^"]+)"/g)].map((m) => m[1]).sort();
    hh.onState({ room: 'R', seq: 1, view: before, events: [] });
    hh.onState({ room: 'R', seq: 2, view: after, events: [{ kind: 'banked', seat: 0, sleigh_owner: 1, count: 3 }, { kind: 'sleigh_swapped', seat: 0, with: 1 }] });
    const first = froms(html(after, 2));
    const again = html(after, 2) === html(after, 2);
    hh.onState({ room: 'R', seq: 3, view: after, events: [{ kind: 'turn_started', seat: 1 }] });
    return { first, again, later: froms(html(after, 3)) };
  });
  assert.deepEqual(found.first, ['at-sl-0-green', 'at-sl-1-blue', 'at-sl-1-red', 'at-sl-1-red']);
  assert.ok(found.again, 'drawing the same state twice gives the same screen');
  assert.deepEqual(found.later, [], 'the next state slides nothing that did not move');
  assertNoPageErrors(page);
});

// The words of the choices and the results, from the game's own states (no server needed).
await run('browser: Happy Holidays says what each choice does', async ({ browser, baseUrl }) => {
  const { page } = await newPlayer(browser, 'Oma');
  await page.goto(`${baseUrl}/`);
  await page.locator('#name').waitFor();
  const found = await page.evaluate(async () => {
    const hh = (await import('/js/games/happy_holidays.js')).createBoard();
    const none = { red: 0, green: 0, blue: 0, yellow: 0 };
    const player = (seat, reindeer, sleigh, stacks) => ({ seat, reindeer, score: 0, total_gifts: 0, sleigh: { id: seat, gifts: { ...none, ...sleigh } }, stacks: { ...none, ...stacks } });
    const view = { game: 'happy_holidays', phase: 'wish_colour', active: 0, round: 7, max_rounds: 200, tree: { red: 0, green: 0, blue: 1, yellow: 2 },
      players: [player(0, false, { red: 1, green: 3 }, { blue: 2 }), player(1, true, {}, { red: 3, yellow: 1 }), player(2, true, {}, { red: 1 })], last_roll: null };
    const ctx = { view, state: { view, over: false, seq: 4 }, name: (s) => `P${s}`, who: (s) => `P${s}`, colour: () => '#b3261e' };
    hh.onState({ room: 'U', seq: 4, view, events: [] });
    const label = (e) => hh.actionLabel(e, ctx);
    const html = hh.render(ctx);
    // On the page, for a picture: colours gone from under the tree and empty stacks keep their colour.
    document.querySelector('.layout').style.display = 'none';
    const layout = document.createElement('div');
    layout.className = 'layout';
    layout.innerHTML = `<main><section class="game"><div class="board-wrap">${html}</div></section></main><aside class="card">…</aside>`;
    document.body.append(layout);
    const over = { ...ctx, state: { view, over: true, result: { scores: [2, 4, 1], winners: [1], stacks: view.players.map((p) => p.stacks), total_gifts: [2, 4, 1], decided_by: 'score', reason: 'tree' } } };
    const oneLeft = { ...view, tree: { ...none, yellow: 2 } };
    return {
      rollPrimary: hh.primary({ kind: 'roll' }), takePrimary: hh.primary({ kind: 'take_reindeer', from: 1 }),
      wishPrimary: hh.primary({ kind: 'wish_colour', colour: 'red' }),
      red: label({ kind: 'sleigh_colour', colour: 'red' }), green: label({ kind: 'sleigh_colour', colour: 'green' }), blue: label({ kind: 'sleigh_colour', colour: 'blue' }),
      wishRed: label({ kind: 'wish_colour', colour: 'red' }), wishYellow: label({ kind: 'wish_colour', colour: 'yellow' }), wishGreen: label({ kind: 'wish_colour', colour: 'green' }),
      studs: (html.match(/class="stud"/g) || []).length, dieLabel: /aria-label="The die: not rolled yet"/.test(html),
      emptyTinted: /class="tower none" style="--g:#d62828"/.test(html),
      noteTreeNone: hh.resultNote(over),
      noteTreeOne: hh.resultNote({ ...over, view: oneLeft, state: { ...over.state, view: oneLeft } }),
      noteCap: hh.resultNote({ ...over, state: { ...over.state, result: { ...over.state.result, reason: 'round_cap' } } }),
    };
  });
  await assertNoSideScroll(page, 'a board with colours gone from the tree');
  await screenshot(page, 'hh-gone-en-1280.png');
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, 'hh-gone-en-390.png');
  assert.equal(found.rollPrimary, false, 'rolling without a reindeer is not primary');
  assert.equal(found.takePrimary, true);
  assert.equal(found.wishPrimary, false, 'no wish colour looks recommended');
  assert.equal(found.red, 'Stack red: 1 gift from your sleigh');
  assert.equal(found.green, 'Stack green: 3 gifts from your sleigh');
  assert.equal(found.blue, 'Stack blue: none on your sleigh');
  assert.equal(found.wishRed, 'Wish for red: you get 2 gifts', 'a wish says what it brings from the others\' stacks; the tree plays no part');
  assert.equal(found.wishYellow, 'Wish for yellow: you get 1 gift');
  assert.equal(found.wishGreen, 'Wish for green: nobody has one to give');
  assert.equal(found.studs, 0, 'the idle die has no pips');
  assert.ok(found.dieLabel, 'the idle die is named "not rolled yet"');
  assert.ok(found.emptyTinted, 'an empty stack slot carries its colour');
  assert.match(found.noteTreeNone, /^The game ended because all the gifts under the tree are used up\. Points are/);
  assert.match(found.noteTreeOne, /^The game ended because only yellow gifts are left under the tree/);
  assert.match(found.noteCap, /^The game ended after 200 rounds/);
  assertNoPageErrors(page);
});

// What happens to a player is told to that player, in their language: who took their gifts or
// their reindeer, a sleigh swap, what the reindeer reward brings, the end coming near, and what
// the game chose when their time ran out (a banner, moments.js).
await run('browser: Happy Holidays tells each player what happened to them', async ({ browser, baseUrl }) => {
  const { page } = await newPlayer(browser, 'Oma', { locale: 'de-DE', viewport: phoneSizes[0] });
  await page.goto(`${baseUrl}/`);
  await page.locator('#name').waitFor();
  const say = async (lang) => {
    const found = await page.evaluate(async (l) => {
      const i18n = await import('/js/i18n.js');
      i18n.setLang(l);
      const hh = (await import('/js/games/happy_holidays.js')).createBoard();
      const { showMoments, clearMoments } = await import('/js/moments.js');
      const names = ['Oma', 'Holly', 'Rudi'];
      const none = { red: 0, green: 0, blue: 0, yellow: 0 };
      const player = (seat, reindeer, sleigh, stacks) => ({ seat, reindeer, score: 0, total_gifts: 0, sleigh: { id: seat, gifts: { ...none, ...sleigh } }, stacks: { ...none, ...stacks } });
      const view = (active, phase, tree, players) => ({ game: 'happy_holidays', phase, active, round: 5, max_rounds: 200, tree, players, last_roll: null });
      const ctxFor = (seat, v, prompt, legal = []) => ({ seat, view: v, legal, state: { room: 'T', view: v, over: false, seq: 9, prompt: prompt ? { kind: prompt, seats: [v.active] } : null }, name: (s) => names[s], who: (s) => names[s], colour: () => '#b3261e' });
      const out = {};
      // Holly wishes for yellow: Oma and Rudi each give one.
      const wish = { kind: 'wish_given', seat: 1, colour: 'yellow', from: [2, 0], count: 2 };
      const v1 = view(1, 'wish_colour', { red: 4, green: 3, blue: 2, yellow: 1 }, [player(0, true, {}, { yellow: 2 }), player(1, true, {}, {}), player(2, false, {}, { yellow: 1 })]);
      out.wishToGiver = hh.eventText(wish, ctxFor(0, v1));
      out.wishToOther = hh.eventText(wish, { ...ctxFor(null, v1) });
      out.wishToWisher = hh.eventText(wish, ctxFor(1, v1));
      out.wishNothing = hh.eventText({ kind: 'wish_given', seat: 1, colour: 'red', from: [], count: 0 }, ctxFor(0, v1));
      // Rudi takes Oma's sleigh (2 green) with a reindeer reward; Oma gets Rudi's (1 blue, 1 red).
      const swapEvents = [{ kind: 'banked', seat: 2, sleigh_owner: 0, gifts: { ...none, green: 2 }, count: 2 }, { kind: 'sleigh_swapped', seat: 2, with: 0, gifts_given: { ...none, red: 1, blue: 1 } }];
      out.swapBanner = hh.moments.sleigh_swapped(swapEvents[1], ctxFor(0, v1), { events: swapEvents });
      out.swapLog = swapEvents.map((e) => hh.eventText(e, ctxFor(0, v1)));
      out.swapToOther = hh.eventText(swapEvents[1], ctxFor(1, v1));
      // The reindeer reward's buttons, for Oma (2 green on Holly's sleigh, 1 blue and 1 red on hers).
      const v2 = view(0, 'choose_sleigh', { red: 4, green: 3, blue: 2, yellow: 1 }, [player(0, true, { blue: 1, red: 1 }, {}), player(1, false, { green: 2 }, {}), player(2, false, {}, {})]);
      const c2 = ctxFor(0, v2, 'choose_sleigh', [0, 1, 2].map((owner) => ({ kind: 'choose_sleigh', owner })));
      out.rewardOther = hh.actionLabel({ kind: 'choose_sleigh', owner: 1 }, c2);
      out.rewardOwn = hh.actionLabel({ kind: 'choose_sleigh', owner: 0 }, c2);
      out.rewardEmpty = hh.actionLabel({ kind: 'choose_sleigh', owner: 2 }, c2);
      out.weakLast = hh.boardEntries(c2);
      out.weakHtml = hh.actionsExtra(c2);
      // The end near: two colours left, then one (the last turn).
      const near = (tree, phase) => {
        const v = view(0, phase, tree, v2.players);
        const html = hh.render(ctxFor(0, v, phase));
        return html.match(/data-testid="hh-end-near">([^<]*)</)?.[1] ?? null;
      };
      out.nearThree = near({ red: 0, green: 3, blue: 2, yellow: 1 }, 'start_of_turn');
      out.nearTwo = near({ red: 0, green: 0, blue: 2, yellow: 1 }, 'start_of_turn');
      out.nearLast = near({ red: 0, green: 0, blue: 0, yellow: 1 }, 'sleigh_colour');
      const vLast = view(0, 'sleigh_colour', { ...none, yellow: 1 }, v2.players);
      out.promptLast = hh.promptText(ctxFor(0, vLast, 'sleigh_colour'));
      out.nearBanner = hh.moments.gifts_to_sleigh({ kind: 'gifts_to_sleigh', seat: 1, colours: ['green', 'blue'] }, ctxFor(0, v1), { view: view(1, 'sleigh_colour', { ...none, blue: 2, yellow: 1 }, v1.players), events: [] });
      // Rudi took Oma's reindeer: her turn says so.
      const v3 = view(0, 'start_of_turn', { red: 4, green: 3, blue: 2, yellow: 1 }, [player(0, false, {}, {}), player(1, true, {}, {}), player(2, true, {}, {})]);
      hh.onState({ room: 'T', seq: 1, seat: 0, view: v3, events: [{ kind: 'took_reindeer', seat: 2, from: 0 }, { kind: 'turn_started', seat: 0 }], legal: [], prompt: null });
      out.deerPrompt = hh.promptText(ctxFor(0, v3, 'take_reindeer_or_roll'));
      out.deerNews = hh.render(ctxFor(0, v3, 'take_reindeer_or_roll')).match(/data-testid="hh-news">(.*?)<\/ul>/s)?.[1].replace(/<[^>]+>/g, '|') ?? null;
      // Time ran out on Oma at the colour choice: the banner says what the game chose for her.
      clearMoments();
      const el = document.getElementById('moment');
      el.dataset.shown = '[]';
      const timedOut = { room: 'T', seq: 2, seat: 0, view: v3, prompt: { kind: 'roll', seats: [1] }, legal: [],
        events: [{ kind: 'timed_out', seats: [0], prompt: 'sleigh_colour' }, { kind: 'banked', seat: 0, sleigh_owner: 0, colour: 'green', gifts: { ...none, green: 2 }, count: 2 }, { kind: 'turn_started', seat: 1 }] };
      showMoments(timedOut, hh, ctxFor(0, v3));
      out.timeoutBanner = el.textContent;
      showMoments({ ...timedOut, seq: 3, events: [{ kind: 'timed_out', seats: [1], prompt: 'roll' }] }, hh, ctxFor(0, v3));
      out.shown = JSON.parse(el.dataset.shown);
      out.timeoutStart = hh.timeoutText({ events: [{ kind: 'timed_out', seats: [0], prompt: 'take_reindeer_or_roll' }, { kind: 'took_reindeer', seat: 0, from: 1 }, { kind: 'rolled', seat: 0, face: 'red_green' }] }, ctxFor(0, v3));
      clearMoments();
      // On the page, for the phone checks and a picture: Oma's turn after Rudi took her reindeer and
      // Holly wished for yellow, two colours left, the reward's buttons (the empty sleigh last).
      const v4 = view(0, 'choose_sleigh', { ...none, blue: 2, yellow: 1 }, [player(0, false, { blue: 1, red: 1 }, { yellow: 1 }), player(1, true, { green: 2 }, { yellow: 1 }), player(2, true, {}, {})]);
      hh.onState({ room: 'T', seq: 5, seat: 0, view: v4, events: [wish, { kind: 'turn_started', seat: 0 }], legal: [], prompt: null });
      const c4 = ctxFor(0, v4, 'choose_sleigh', [0, 1, 2].map((owner) => ({ kind: 'choose_sleigh', owner })));
      document.querySelector('.layout').style.display = 'none';
      document.getElementById('hh-probe')?.remove();
      const layout = document.createElement('div');
      layout.className = 'layout';
      layout.id = 'hh-probe';
      const buttons = c4.legal.map((e, i) => [e, i]).filter(([, i]) => !hh.boardEntries(c4).includes(i))
        .map(([e, i]) => `<button class="action" data-i="${i}">${hh.actionLabel(e, c4)}</button>`).join('');
      layout.innerHTML = `<main id="screen"><section class="game game-happy_holidays"><div class="turn-bar mine"><strong class="turn">…</strong><span class="what">${hh.promptText(c4)}</span></div>
        <section class="actions"><h3>…</h3>${hh.actionsExtra(c4)}<div class="buttons">${buttons}</div></section>
        <div class="board-wrap">${hh.render(c4)}</div></section></main>
        <aside class="card"><ul class="log-list">${[wish, ...swapEvents].map((e) => `<li>${hh.eventText(e, c4)}</li>`).join('')}</ul></aside>`;
      document.body.append(layout);
      return out;
    }, lang);
    for (const size of phoneSizes) {
      await page.setViewportSize(size);
      await assertNoSideScroll(page, `the losses, the end line and the reward buttons in ${lang} at ${size.width} px`);
      await screenshot(page, `hh-told-${lang}-${size.width}.png`);
    }
    return found;
  };

  const de = await say('de');
  assert.equal(de.wishToGiver, 'Holly wünscht sich Gelb und bekommt 1 von dir und 1 von Rudi');
  assert.equal(de.wishToOther, 'Holly wünscht sich Gelb und bekommt 1 von Rudi und 1 von Oma');
  assert.equal(de.wishToWisher, 'Du wünschst dir Gelb und bekommst 1 von Rudi und 1 von Oma');
  assert.equal(de.wishNothing, 'Holly wünscht sich Rot, aber niemand hat eins abzugeben');
  assert.equal(de.swapBanner, '🛷 Rudi nimmt 2 grüne Geschenke von deinem Schlitten auf die eigenen Stapel. Dafür bekommst du den Schlitten von Rudi: 1 rotes und 1 blaues Geschenk');
  assert.deepEqual(de.swapLog, ['Rudi stapelt 2 grüne Geschenke von deinem Schlitten', 'Rudi tauscht den Schlitten mit dir; du bekommst den Schlitten von Rudi: 1 rotes und 1 blaues Geschenk']);
  assert.equal(de.swapToOther, 'Rudi tauscht den Schlitten mit Oma; Oma bekommt den Schlitten von Rudi: 1 rotes und 1 blaues Geschenk');
  assert.equal(de.rewardOther, '2 grüne Geschenke vom Schlitten von Holly auf deine Stapel (Holly bekommt deinen Schlitten: 1 rotes und 1 blaues Geschenk)');
  assert.equal(de.rewardOwn, '1 rotes und 1 blaues Geschenk vom eigenen Schlitten auf deine Stapel (kein Tausch)');
  assert.equal(de.rewardEmpty, 'Der Schlitten von Rudi ist leer: nichts für dich (Rudi bekommt deinen Schlitten: 1 rotes und 1 blaues Geschenk)');
  assert.deepEqual(de.weakLast, [2], 'the empty sleigh is offered apart, after the others');
  assert.match(de.weakHtml, /class="buttons hh-weak"><button class="action weak" data-act="legal" data-i="2">/);
  assert.equal(de.nearThree, null, 'with three colours left nothing is said yet');
  assert.equal(de.nearTwo, 'Unterm Baum nur noch Blau und Gelb: ist eine Farbe aufgebraucht, ist das Spiel aus.');
  assert.equal(de.nearLast, 'Letzter Zug! Unterm Baum liegt nur noch Gelb: nach diesem Zug ist das Spiel aus.');
  assert.equal(de.promptLast, 'Letzter Zug! Welche Farbe kommt vom Schlitten auf die Stapel?');
  assert.equal(de.nearBanner, '⏳ Unterm Baum nur noch Blau und Gelb: ist eine Farbe aufgebraucht, ist das Spiel aus.');
  assert.equal(de.deerPrompt, 'Rudi hat dein Rentier genommen – nimm dir eins, dann würfeln');
  assert.equal(de.deerNews, '|Seit deinem letzten Wurf:||Rudi nimmt dir dein Rentier weg|');
  assert.equal(de.timeoutBanner, '⏱ Die Zeit war um: das Spiel hat Grün für dich gestapelt');
  assert.deepEqual(de.shown, ['⏱ Die Zeit war um: das Spiel hat Grün für dich gestapelt'], 'another player\'s time running out is no banner for Oma');
  assert.equal(de.timeoutStart, 'Die Zeit war um: das Spiel hat für dich das Rentier von Holly genommen und gewürfelt');

  const en = await say('en');
  assert.equal(en.wishToGiver, 'Holly wishes for yellow and gets 1 from you and 1 from Rudi');
  assert.equal(en.wishNothing, 'Holly wishes for red, but nobody has one to give');
  assert.equal(en.swapBanner, "🛷 Rudi takes 2 green gifts from your sleigh onto their stacks. In exchange you get Rudi's sleigh: 1 red gift and 1 blue gift");
  assert.deepEqual(en.swapLog, ['Rudi stacks 2 green gifts from your sleigh', "Rudi swaps sleighs with you; you get Rudi's sleigh: 1 red gift and 1 blue gift"]);
  assert.equal(en.rewardOther, "2 green gifts from Holly's sleigh onto your stacks (Holly gets your sleigh: 1 red gift and 1 blue gift)");
  assert.equal(en.rewardOwn, '1 red gift and 1 blue gift from your own sleigh onto your stacks (no swap)');
  assert.equal(en.rewardEmpty, "Rudi's sleigh is empty: nothing for you (Rudi gets your sleigh: 1 red gift and 1 blue gift)");
  assert.equal(en.nearTwo, 'Only blue and yellow left under the tree: once one of them is used up, the game is over.');
  assert.equal(en.nearLast, 'Last turn! Only yellow is left under the tree: the game is over after this turn.');
  assert.equal(en.deerPrompt, 'Rudi took your reindeer: take one yourself, then roll');
  assert.equal(en.timeoutBanner, '⏱ Time was up: the game stacked green for you');
  assert.equal(en.timeoutStart, "Time was up: the game took Holly's reindeer for you and rolled the die");

  // On a touch screen no button looks chosen because the finger was last there (no sticky hover);
  // with a mouse, hovering still shows.
  const hoverBackground = async (p) => {
    await p.evaluate(() => {
      const b = document.createElement('button');
      b.id = 'hover-probe';
      b.textContent = 'probe';
      document.body.prepend(b);
    });
    await p.locator('#hover-probe').hover();
    return p.evaluate(() => getComputedStyle(document.getElementById('hover-probe')).backgroundColor);
  };
  const touch = await browser.newContext({ locale: 'de-DE', viewport: phoneSizes[0], hasTouch: true, isMobile: true });
  const touchPage = await touch.newPage();
  await touchPage.goto(`${baseUrl}/`);
  assert.equal(await hoverBackground(touchPage), 'rgb(255, 255, 255)', 'no hover colour on a touch screen');
  assert.equal(await hoverBackground(page), 'rgb(232, 243, 238)', 'the hover colour with a mouse');
  await touch.close();
  assertNoPageErrors(page);
});
