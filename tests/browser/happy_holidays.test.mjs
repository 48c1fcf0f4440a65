// Two people in two browsers: one creates a Happy Holidays room through the UI, the other (on a
// phone, in German) opens the invite link and sits down; they chat, a third watches through the
// watch-only link, they play a complete game by clicking the offered choices (the guest reloads the
// page mid-game and carries on; the host opens a second window, which takes the seat over), and
// everyone reaches the results screen.
import assert from 'node:assert/strict';
import { assertCleanText, assertNoPageErrors, createRoom, joinByInvite, newPlayer, playOneStep, run, screenshot, sleep, startProxy } from './lib.mjs';

await run('browser: Happy Holidays from invite to results', async ({ browser, baseUrl }) => {
  const oma = await newPlayer(browser, 'Oma');
  const ben = await newPlayer(browser, 'Ben', { locale: 'de-DE', viewport: { width: 412, height: 915 } }); // a phone
  const benNet = await startProxy(baseUrl); // Ben's flaky home network
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
  const tom = await newPlayer(browser, 'Tom');
  await tom.page.goto(`${baseUrl}/watch/${code}`);
  await tom.page.fill('#name', 'Onkel Tom');
  await tom.page.getByRole('button', { name: 'Just watch' }).click();
  await oma.page.getByText('1 person watching').waitFor();

  await oma.page.getByRole('button', { name: 'Start the game' }).click();
  await oma.page.getByTestId('turn').waitFor();
  await ben.page.getByTestId('turn').waitFor();
  await tom.page.getByText('You are watching.').waitFor();
  assert.equal(await tom.page.locator('.actions').count(), 0, 'a spectator is offered no actions');

  let steps = 0;
  let reloaded = false;
  let dropped = false;
  let shot = false;
  const deadline = Date.now() + 200000;
  while (Date.now() < deadline) {
    if ((await oma.page.getByTestId('results').count()) && (await ben.page.getByTestId('results').count())) break;
    const clicked = (await playOneStep(oma.page)) || (await playOneStep(ben.page));
    if (clicked) steps += 1;
    else await sleep(50);
    if (!shot && steps >= 12 && (await oma.page.locator('.turn-bar.mine').count())) {
      await screenshot(oma.page, 'happy-holidays.png');
      await screenshot(ben.page, 'happy-holidays-phone.png');
      await assertCleanText(ben.page, 'de'); // Ben's German game screen: no raw keys, no English
      shot = true;
    }
    if (!reloaded && steps === 20) {
      // A reload mid-game: the saved token brings Ben back to his seat, up to date, and the log
      // back as it was (nobody moves meanwhile: this loop is the only one clicking).
      const logBefore = (await ben.page.getByTestId('log').locator('li').allTextContents()).slice(0, 8);
      await ben.page.reload();
      await ben.page.getByTestId('turn').waitFor();
      assert.equal(await ben.page.locator('#conn').textContent(), 'Verbunden');
      await ben.page.locator('.hh-player strong', { hasText: 'Ben (du)' }).waitFor(); // seated, not watching
      assert.ok((await ben.page.getByTestId('log').locator('li').count()) > 3, 'the log is filled again after the reload');
      const logAfter = (await ben.page.getByTestId('log').locator('li').allTextContents()).slice(0, 8);
      assert.deepEqual(logAfter, logBefore, 'the newest log lines are back after the reload');
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
  // The host is offered another game; the guest is told the host can start one.
  await oma.page.getByRole('button', { name: 'Play again' }).waitFor();
  await ben.page.getByText('Der Gastgeber kann ein neues Spiel starten.').waitFor();
  await oma.page.getByTestId('chat').getByText('Frohe Weihnachten, Oma!').waitFor(); // chat survived
  await tom.page.getByTestId('results').waitFor();
  await screenshot(oma.page, 'happy-holidays-results.png');
  console.log(`played ${steps} clicks to the end`);
  assertNoPageErrors(oma.page, ben.page, tom.page);
  benNet.close();
});
