// The host's controls in the browser: a player sent away cannot sit down again (also after
// reloading their page) until the host lets them back in; and during a game the host moves it on
// for a player it is waiting on ("Move on for Ben"): the game makes that player's usual choice,
// and every log says so.
import assert from 'node:assert/strict';
import { assertNoPageErrors, createRoom, joinByInvite, newPlayer, run, screenshot } from './lib.mjs';

await run('browser: host sends a player away, lets them back, and moves the game on for them', async ({ browser, baseUrl }) => {
  const oma = await newPlayer(browser, 'Oma');
  const ben = await newPlayer(browser, 'Ben');
  const code = await createRoom(oma.page, baseUrl, 'Oma Inge', 'Happy Holidays', { maxPlayers: 2, startPlayer: 'host-picks' });
  await joinByInvite(ben.page, baseUrl, code, 'Ben');
  await oma.page.locator('ul.seats').getByText('Ben', { exact: true }).waitFor();

  // Sent away: Ben is told, and cannot sit down again, not even after a reload.
  await oma.page.getByRole('button', { name: 'Send away' }).click();
  await ben.page.getByText('The host sent you away from the room.').waitFor();
  const away = oma.page.getByTestId('sent-away');
  await away.getByText('Ben was sent away').waitFor();
  await screenshot(oma.page, 'host-sent-away.png');
  await ben.page.reload();
  await ben.page.goto(`${baseUrl}/r/${code}`);
  await ben.page.locator('button[data-as="player"]').click();
  await ben.page.getByText('The host sent you away from this room. You can still watch.').waitFor();
  assert.equal(await ben.page.getByTestId('room-code').count(), 0, 'Ben is not in the room');

  // Let back in: the list empties, and Ben sits down from the invite link as before.
  await away.getByRole('button', { name: 'Let back in' }).click();
  await away.waitFor({ state: 'detached' });
  await ben.page.goto(`${baseUrl}/r/${code}`); // his name is remembered: the link seats him at once
  await ben.page.getByTestId('room-code').waitFor();
  await oma.page.locator('ul.seats').getByText('Ben', { exact: true }).waitFor();

  // Ben begins; the host moves the game on for him, and both logs say the game chose for Ben: to
  // Ben himself, "for you" (issue 31).
  await oma.page.locator('#first-seat').selectOption({ label: 'Ben' });
  await oma.page.getByRole('button', { name: 'Start the game' }).click();
  await ben.page.getByTestId('turn').getByText('Your turn').waitFor();
  const skip = oma.page.getByRole('button', { name: 'Move on for Ben' });
  // Not at once (Ben may only be thinking): after 20 s of waiting on him.
  const started = Date.now();
  await oma.page.waitForTimeout(2000);
  assert.equal(await skip.count(), 0, 'no "Move on" while Ben has only just begun');
  await skip.waitFor({ timeout: 90000 });
  assert.ok(Date.now() - started >= 15000, `"Move on" came after ${Date.now() - started} ms, not about 20 s`);
  assert.equal(await ben.page.getByRole('button', { name: /Move on for/ }).count(), 0, 'only the host has the button');
  await screenshot(oma.page, 'host-move-on.png');
  await skip.click();
  await oma.page.getByTestId('log').getByText('The game chose for Ben (time ran out, or the host moved on)').first().waitFor();
  await ben.page.getByTestId('log').getByText('The game chose for you (time ran out, or the host moved on)').first().waitFor();
  // Ben is told in a banner what the game did for him (moments.js, the game's timeoutText).
  await ben.page.waitForFunction(() => JSON.parse(document.getElementById('moment')?.dataset.shown || '[]')
    .includes("⏱ Time was up: the game took Oma Inge's reindeer for you and rolled the die"), null, { timeout: 5000 });
  assertNoPageErrors(oma.page, ben.page);
});
