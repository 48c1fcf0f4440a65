// Unterm Baum in two browsers: both write their wish list (one rearranges the suggestion first and
// reloads the page, which keeps the edit),
// the list is on screen during MEMORIZE and gone afterwards, a looked-at card appears for everyone
// and disappears again, a card is moved by clicking, and the game ends on the results screen.
import assert from 'node:assert/strict';
import { assertNoPageErrors, createRoom, joinByInvite, newPlayer, run, screenshot, sleep } from './lib.mjs';

async function whoseTurn(pages) {
  for (const p of pages) if (await p.locator('.turn-bar.mine').count()) return p;
  return null;
}

await run('browser: Unterm Baum wish list, reveal, play to the end', async ({ browser, baseUrl }) => {
  const oma = await newPlayer(browser, 'Oma');
  const ben = await newPlayer(browser, 'Ben');
  const code = await createRoom(oma.page, baseUrl, 'Oma Inge', 'Unterm Baum',
    { maxPlayers: 2, memorizeSeconds: 4, revealSeconds: 2, maxRounds: 3 });
  await joinByInvite(ben.page, baseUrl, code, 'Ben');
  await oma.page.getByText('Ben', { exact: true }).waitFor();
  await oma.page.getByRole('button', { name: 'Start the game' }).click();

  // ASSIGN: Oma moves one gift to another place before folding the list; Ben takes the suggestion.
  const grid = oma.page.getByTestId('ub-assign-grid');
  await grid.waitFor();
  const cards = () => grid.locator('.ub-card').evaluateAll((els) => els.map((e) => e.textContent).join('|'));
  const suggested = await cards();
  await grid.locator('.ub-card.open').first().click();
  await grid.locator('.ub-card.free').first().click();
  const edited = await cards();
  assert.notEqual(edited, suggested, 'clicking a gift and a free place moves it');
  // A reload while writing keeps the list as edited.
  await oma.page.reload();
  await grid.waitFor();
  assert.equal(await cards(), edited, 'the edited list survives a reload');
  await oma.page.getByRole('button', { name: 'Done: fold my wish list' }).click();
  await ben.page.getByRole('button', { name: 'Done: fold my wish list' }).click();

  // MEMORIZE: each sees the own list, with its motifs.
  const list = oma.page.getByTestId('ub-wishlist');
  await list.waitFor();
  await ben.page.getByTestId('ub-wishlist').waitFor();
  const motifs = await list.locator('.motif .name').allTextContents();
  assert.equal(motifs.length, 8, 'the wish list shows all 8 gifts');
  await screenshot(oma.page, 'unterm-baum-memorize.png');

  // After MEMORIZE the list is gone, and no wished motif is anywhere on the page.
  await oma.page.getByTestId('ub-folded').waitFor({ timeout: 10000 });
  assert.equal(await oma.page.getByTestId('ub-wishlist').count(), 0);
  const body = await oma.page.locator('#screen').textContent();
  for (const m of motifs) assert.ok(!body.includes(m), `"${m}" is still on screen after memorize`);

  // A reveal: the player on turn looks at a tree card; both see it, then it is face-down again.
  const active = await whoseTurn([oma.page, ben.page]);
  assert.ok(active, 'somebody is on turn');
  const other = active === oma.page ? ben.page : oma.page;
  await active.locator('.ub-tree .ub-card.can').first().click();
  await active.getByTestId('reveal').waitFor();
  await other.getByTestId('reveal').waitFor();
  const shown = await other.getByTestId('reveal').locator('.motif .name').textContent();
  assert.ok(shown.length > 0);
  await screenshot(other, 'unterm-baum.png');
  await other.getByTestId('reveal').waitFor({ state: 'detached', timeout: 6000 });
  assert.equal(await other.locator('.ub-card.open').count(), 0, 'no card stays face-up after the reveal');
  const log = await other.getByTestId('log').textContent();
  assert.ok(!log.includes(shown), 'the log does not keep the revealed motif');

  // Move a card by clicking it and then a free place on the other table.
  await active.getByRole('button', { name: 'Move a card' }).click();
  await active.locator('.ub-tree .ub-card.can').first().click();
  await active.locator('.ub-field .ub-card.can.free').first().click();
  await other.getByTestId('log').getByText(/moves a card from under the tree/).waitFor();

  // Play on (end each turn) to the round cap and the results.
  const deadline = Date.now() + 90000;
  while (Date.now() < deadline && !(await oma.page.getByTestId('results').count())) {
    const p = await whoseTurn([oma.page, ben.page]);
    if (p) await p.getByRole('button', { name: 'End my turn' }).click({ timeout: 2000 }).catch(() => {});
    else await sleep(50);
  }
  await oma.page.getByTestId('results').waitFor({ timeout: 5000 });
  await ben.page.getByTestId('results').waitFor({ timeout: 5000 });
  assert.equal(await oma.page.locator('.results .score-table tbody tr').count(), 2);
  await screenshot(oma.page, 'unterm-baum-results.png');
  assertNoPageErrors(oma.page, ben.page);
});
