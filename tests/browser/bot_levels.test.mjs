// Computer players a family enjoys (issue 31): the host picks the level when adding a computer
// player, from two choices with one line each, and every screen's seat list shows it, in the
// reader's language. At desktop size (phone_layout.test.mjs checks the choice at 390 px).
import assert from 'node:assert/strict';
import { assertNoPageErrors, assertNoSideScroll, createRoom, joinByInvite, newPlayer, run, screenshot } from './lib.mjs';

await run('browser: the host picks a gentle or a fair computer player and the seats show it', async ({ browser, baseUrl }) => {
  const oma = await newPlayer(browser, 'Oma');
  const ben = await newPlayer(browser, 'Ben', { locale: 'de-DE' });
  const code = await createRoom(oma.page, baseUrl, 'Oma Inge', 'Unterm Baum', { maxPlayers: 5 });
  await joinByInvite(ben.page, baseUrl, code, 'Ben');
  await oma.page.locator('ul.seats').getByText('Ben', { exact: true }).waitFor();

  // The button opens the choice; "Cancel" closes it and adds nobody.
  await oma.page.getByRole('button', { name: 'Add a computer player' }).click();
  const pick = oma.page.getByTestId('bot-pick');
  await pick.getByText('Which computer player?').waitFor();
  await pick.getByText('Plays kindly and makes mistakes: children usually win.').waitFor();
  await pick.getByText('Plays like an attentive person: to win, play well.').waitFor();
  assert.equal(await oma.page.getByRole('button', { name: 'Add a computer player' }).count(), 0, 'the button gives way to the choice');
  await assertNoSideScroll(oma.page, 'the computer player choice');
  await screenshot(oma.page, 'bot-pick-en-desktop.png');
  await pick.getByRole('button', { name: 'Cancel' }).click();
  await pick.waitFor({ state: 'detached' });
  assert.equal(await oma.page.locator('.seat.status-bot').count(), 0, 'Cancel adds no computer player');

  // Gentle, then fair: each seat says which, for the host in English and for Ben in German.
  await oma.page.getByRole('button', { name: 'Add a computer player' }).click();
  await oma.page.getByRole('button', { name: /Gentle/ }).click();
  await oma.page.locator('.seat.status-bot', { hasText: 'computer, gentle' }).waitFor();
  await ben.page.locator('.seat.status-bot', { hasText: 'Computer, gemütlich' }).waitFor();
  await oma.page.getByRole('button', { name: 'Add a computer player' }).click();
  await oma.page.getByRole('button', { name: /Fair/ }).click();
  await oma.page.locator('.seat.status-bot', { hasText: 'computer, fair' }).waitFor();
  await ben.page.locator('.seat.status-bot', { hasText: 'Computer, fair' }).waitFor();
  assert.equal(await oma.page.locator('.seat.status-bot').count(), 2);
  await screenshot(oma.page, 'bot-levels-seats-en-desktop.png');

  assert.equal(await ben.page.getByTestId('bot-pick').count(), 0, 'only the host chooses');
  await screenshot(ben.page, 'bot-levels-seats-de-desktop.png');
  // Ben becomes host: the same choice in German (one seat is still free).
  await oma.page.locator('.seat', { hasText: 'Ben' }).getByRole('button', { name: 'Make host' }).click();
  await ben.page.getByRole('button', { name: 'Computerspieler dazunehmen' }).click();
  const bens = ben.page.getByTestId('bot-pick');
  await bens.getByText('Welcher Computerspieler?').waitFor();
  await bens.getByRole('button', { name: /Gemütlich.*Spielt freundlich und macht Fehler: Kinder gewinnen meistens\./ }).waitFor();
  await bens.getByRole('button', { name: /Fair.*Spielt wie ein aufmerksamer Mensch/ }).waitFor();
  await screenshot(ben.page, 'bot-pick-de-desktop.png');
  await bens.getByRole('button', { name: 'Abbrechen' }).click();
  await bens.waitFor({ state: 'detached' });
  assertNoPageErrors(oma.page, ben.page);
});
