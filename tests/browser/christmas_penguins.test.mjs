// Christmas Penguins in two browsers: setup and moves are made by clicking highlighted floes (a
// move is checked against the log), a water channel is built in channel mode (only floes on edges
// that legal lists can be clicked; the channel appears on the board), and the player who is not on
// turn shouts "Stop!" with the big button and is told at once that the claim was granted. The game
// is played to the results.
import assert from 'node:assert/strict';
import { assertNoPageErrors, createRoom, joinByInvite, newPlayer, run, screenshot, sleep } from './lib.mjs';

const pick = (n) => Math.floor(Math.random() * n);

// Waits until the page has shown a moment banner matching `re` (moments.js keeps the last few).
async function shownMoment(page, re) {
  const deadline = Date.now() + 10000;
  for (;;) {
    const shown = JSON.parse((await page.getByTestId('moment').getAttribute('data-shown')) || '[]');
    if (shown.some((s) => re.test(s))) return;
    if (Date.now() > deadline) throw new Error(`no moment ${re} on ${page.playerName}'s screen: ${JSON.stringify(shown)}`);
    await sleep(100);
  }
}

// One step for `page` if it has something to do; returns what it did, or null.
async function step(page, state) {
  const stop = page.getByTestId('stop');
  if (!state.stopped && (await stop.count())) {
    const meActive = await page.locator('.cp-player.me.active').count();
    if (!meActive) {
      // The reaction window may close between seeing the button and clicking it.
      const clicked = await stop.click({ timeout: 1000 }).then(() => true, () => false);
      if (clicked) return 'stop';
    }
  }
  if (!(await page.locator('.turn-bar.mine').count())) return null;
  try {
    const channelMode = page.getByRole('button', { name: 'Build a water channel' });
    if (!state.channel && (await channelMode.count())) {
      const before = await page.locator('.cp-board .channel').count();
      await channelMode.click({ timeout: 1000 });
      const first = page.locator('.cp-board .floe.mode').first();
      const a = await first.getAttribute('data-testid');
      await first.click({ timeout: 1000 });
      // Now only the floes across a listed edge from the first one (and the first, to undo).
      const partners = page.locator(`.cp-board .floe.mode:not([data-testid="${a}"])`);
      const n = await partners.count();
      assert.ok(n >= 1 && n <= 6, `${n} floes offered across an edge from ${a}`);
      await partners.nth(pick(n)).click({ timeout: 1000 });
      await page.getByTestId('log').getByText(/builds a water channel$/).first().waitFor({ timeout: 5000 });
      assert.equal(await page.locator('.cp-board .channel').count(), before + 1, 'the channel is drawn on the board');
      state.channel = true;
      return 'channel';
    }
    const targets = page.locator('.cp-board .floe.target');
    const n = await targets.count();
    if (n) {
      const what = await page.locator('.turn-bar .what').textContent();
      const floe = targets.nth(pick(n));
      const id = Number((await floe.getAttribute('data-testid')).replace('floe-', ''));
      const movesBefore = await page.getByTestId('log').getByText(/ moves to /).count();
      if (what.startsWith('Move your figure') && !state.shotMove) {
        await screenshot(page, 'christmas-penguins.png'); // the destinations, highlighted
        state.shotMove = true;
      }
      await floe.click({ timeout: 1000 });
      return what.startsWith('Move your figure') ? { move: id, movesBefore } : 'floe';
    }
    const take = page.getByRole('button', { name: 'Take the stone' });
    if (await take.count()) {
      await take.click({ timeout: 1000 });
      return 'button';
    }
    const buttons = page.locator('.actions button.action');
    const k = await buttons.count();
    if (!k) return null;
    const primary = page.locator('.actions button.action.primary');
    await ((await primary.count()) ? primary.first() : buttons.nth(pick(k))).click({ timeout: 1000 });
    return 'button';
  } catch {
    return null; // the screen changed under the click
  }
}

await run('browser: Christmas Penguins click to move, Stop! granted', async ({ browser, baseUrl }) => {
  const oma = await newPlayer(browser, 'Oma');
  const ben = await newPlayer(browser, 'Ben');
  const code = await createRoom(oma.page, baseUrl, 'Oma Inge', 'Christmas Penguins',
    { maxPlayers: 2, maxRounds: 12, stones: '4/4/4', reactionWindowMs: 3000 });
  await joinByInvite(ben.page, baseUrl, code, 'Ben');
  await oma.page.getByText('Ben', { exact: true }).waitFor();
  // A relative who only watches: the "Stop!" banner reaches spectators too.
  const clara = await newPlayer(browser, 'Clara');
  await clara.page.goto(`${baseUrl}/watch/${code}`);
  await clara.page.fill('#name', 'Clara');
  await clara.page.locator('button[data-as="spectator"]').click();
  await oma.page.getByText('1 person watching').waitFor();
  await oma.page.getByRole('button', { name: 'Start the game' }).click();
  await oma.page.locator('.cp-board').waitFor();

  const state = { stopped: false, moved: false, channel: false };
  const deadline = Date.now() + 200000;
  while (Date.now() < deadline) {
    if ((await oma.page.getByTestId('results').count()) && (await ben.page.getByTestId('results').count())) {
      if (state.moved && state.stopped && state.channel) break;
      // The dice gave nobody a stone at the right moment: the host starts another game.
      await oma.page.getByRole('button', { name: 'Play again' }).click();
      await oma.page.getByTestId('results').waitFor({ state: 'detached' });
      continue;
    }
    let acted = false;
    for (const page of [oma.page, ben.page]) {
      const did = await step(page, state);
      if (!did) continue;
      acted = true;
      if (did === 'stop') {
        const result = page.getByTestId('stop-result');
        await page.locator('[data-testid="stop-result"]:not([data-status="sent"])').waitFor({ timeout: 5000 });
        const status = await result.getAttribute('data-status');
        assert.ok(['granted', 'queued'].includes(status), `stop claim was ${status}`);
        if (status === 'queued') await page.locator('[data-testid="stop-result"][data-status="granted"]').waitFor({ timeout: 10000 });
        const other = page === oma.page ? ben.page : oma.page;
        await other.getByTestId('log').getByText(/shouts "Stop!"|may play a stone now/).first().waitFor();
        // Everyone sees the moment: the player not on turn's opponent and the spectator.
        for (const p of [other, clara.page]) await shownMoment(p, /shouts "Stop!"|may play a stone now/);
        await page.getByTestId('stones-help').waitFor();
        await screenshot(page, 'christmas-penguins-stop.png');
        state.stopped = true;
      } else if (did.move !== undefined && !state.moved) {
        // One more "moves to" line in the log (in words, no floe number), and a figure stands on
        // exactly the floe that was clicked.
        const lines = page.getByTestId('log').getByText(/ moves to /);
        const deadline = Date.now() + 5000;
        while ((await lines.count()) <= did.movesBefore && Date.now() < deadline) await sleep(50);
        assert.ok((await lines.count()) > did.movesBefore, 'the log shows the move');
        const text = await lines.first().textContent();
        assert.doesNotMatch(text, /\d/, `the log line has no floe number: ${text}`);
        const floe = page.getByTestId(`floe-${did.move}`);
        assert.ok((await floe.locator('circle.penguin').count()) + (await floe.getByText('🎅').count()) > 0, `a figure stands on floe ${did.move}`);
        state.moved = true;
      }
    }
    if (!acted) await sleep(50);
  }
  assert.ok(state.moved, 'a move was made by clicking a highlighted floe');
  assert.ok(state.channel, 'a water channel was built by clicking two floes');
  assert.ok(state.stopped, 'the player not on turn shouted "Stop!"');
  await oma.page.getByTestId('results').waitFor({ timeout: 5000 });
  await ben.page.getByTestId('results').waitFor({ timeout: 5000 });
  await screenshot(oma.page, 'christmas-penguins-results.png');
  assertNoPageErrors(oma.page, ben.page, clara.page);
});
