// The screen is morphed, not replaced (docs/web-client.md, "Rendering and motion"): a push from
// the server keeps what a player was doing on the page. Two players of Happy Holidays; while the
// other one plays, the watcher's "At the table" stays open, the element under her finger stays
// the same element (so a transition on it could run), and her scroll position stays.
import assert from 'node:assert/strict';
import { assertNoPageErrors, createRoom, joinByInvite, newPlayer, phoneSizes, playOneStep, run } from './lib.mjs';

await run('browser: a push keeps open panels, elements and the scroll position', async ({ browser, baseUrl }) => {
  const host = await newPlayer(browser, 'Oma', { viewport: phoneSizes[0] });
  const guest = await newPlayer(browser, 'Ben');
  const code = await createRoom(host.page, baseUrl, 'Oma', 'Happy Holidays', { startPlayer: 'host-picks', mainTimeoutSec: 'off' });
  await joinByInvite(guest.page, baseUrl, code, 'Ben');
  // The host lets Ben begin, so the host (on a phone) watches the first moves.
  await host.page.locator('[data-act="start"]:not([disabled])').waitFor();
  await host.page.locator('#first-seat').selectOption({ label: 'Ben' });
  await host.page.locator('[data-act="start"]').click();
  await host.page.locator('.game').waitFor();
  await guest.page.locator('.game').waitFor();

  const [watcher, player] = [host.page, guest.page];

  await watcher.locator('details.table-seats summary').click();
  assert.equal(await watcher.locator('details.table-seats').evaluate((d) => d.open), true);
  await watcher.evaluate(() => {
    window.scrollTo(0, document.documentElement.scrollHeight);
    window.keptBoard = document.querySelector('.board-wrap');
  });
  const scrolled = await watcher.evaluate(() => window.scrollY);
  const seqBefore = await watcher.evaluate(() => document.querySelector('[data-testid="turn"]').textContent);

  // The player moves until the watcher has seen at least one new state.
  const logBefore = await watcher.locator('[data-testid="log"] li').count();
  for (let i = 0; i < 50 && (await watcher.locator('[data-testid="log"] li').count()) === logBefore; i++) {
    await playOneStep(player);
    await watcher.waitForTimeout(200);
  }
  assert.ok((await watcher.locator('[data-testid="log"] li').count()) > logBefore, `the watcher saw a move (turn line before: ${seqBefore})`);

  assert.equal(await watcher.locator('details.table-seats').evaluate((d) => d.open), true, '"At the table" stays open after a push');
  assert.equal(await watcher.evaluate(() => window.keptBoard === document.querySelector('.board-wrap')), true, 'the board is the same element after a push');
  const after = await watcher.evaluate(() => window.scrollY);
  assert.ok(Math.abs(after - scrolled) < 80, `the scroll position stays (${scrolled} → ${after})`);
  assertNoPageErrors(host.page, guest.page);
});
