// One room for the whole evening (issue 31): three people, one room, two games, the same links.
// The host (desktop, English), Oma Rosi on a 390 px phone (German) and Onkel Tom watching from
// the watch link play a short Happy Holidays to the end; the host then picks the next game in the
// same room ("Play another game": the start page's game cards and settings) and all three pages
// show Christmas Penguins, at the same addresses, with the same invite and watch links; the
// invite summary names the new game; the second game starts and is played a few moves on every
// screen. The picker is photographed at 390 px and on the desktop, in English and German.
import assert from 'node:assert/strict';
import {
  assertCleanText, assertNoPageErrors, assertNoSideScroll, createRoom, joinByInvite, newPlayer, playOneStep, run, screenshot, sleep,
} from './lib.mjs';

const phone = { width: 390, height: 844 };
const desktop = { width: 1280, height: 900 };

// The picker, photographed in the page's language at its current size; the language switch in
// the header then goes back.
async function pickerShots(page, size) {
  for (const lang of ['en', 'de']) {
    const now = await page.evaluate(() => document.documentElement.lang);
    if (now !== lang) await page.locator('#lang').click();
    await page.getByTestId('next-game-picker').waitFor();
    await page.getByTestId('next-game-picker').locator('h3').getByText(lang === 'de' ? 'Welches Spiel als Nächstes?' : 'Which game next?').waitFor();
    await assertCleanText(page, lang);
    await assertNoSideScroll(page, `the next-game picker (${lang}, ${size})`);
    await screenshot(page, `next-game-picker-${lang}-${size}.png`);
  }
  if ((await page.evaluate(() => document.documentElement.lang)) !== 'en') await page.locator('#lang').click();
}

await run('browser: the next game in the same room, with the same links, on three screens', async ({ browser, baseUrl }) => {
  const host = await newPlayer(browser, 'Oma Inge', { viewport: desktop });
  const rosi = await newPlayer(browser, 'Oma Rosi', { locale: 'de-DE', viewport: phone, hasTouch: true });
  const tom = await newPlayer(browser, 'Onkel Tom', { viewport: { width: 1024, height: 768 } });

  // A short first game: Happy Holidays for two, five gifts of each colour, no time limit.
  const code = await createRoom(host.page, baseUrl, 'Oma Inge', 'Happy Holidays', { maxPlayers: 2, giftsPerColour: 5, mainTimeoutSec: 'off' });
  const invite = await host.page.locator('#invite-link').inputValue();
  assert.equal(invite, `${baseUrl}/r/${code}`);
  const watchLink = `${baseUrl}/watch/${code}`;
  await joinByInvite(rosi.page, baseUrl, code, 'Oma Rosi');
  await tom.page.goto(watchLink);
  await tom.page.fill('#name', 'Onkel Tom');
  await tom.page.locator('button[data-as="spectator"]').click();
  await host.page.getByTestId('watchers').getByText('Watching: Onkel Tom').waitFor();
  const urls = { rosi: rosi.page.url(), tom: tom.page.url() };
  assert.equal(urls.rosi, invite);
  assert.equal(urls.tom, watchLink);

  await host.page.getByRole('button', { name: 'Start the game' }).click();
  const deadline = Date.now() + 180000;
  for (;;) {
    assert.ok(Date.now() < deadline, 'the first game ends within three minutes');
    if ((await host.page.getByTestId('results').count()) && (await rosi.page.getByTestId('results').count())) break;
    if (!((await playOneStep(host.page)) || (await playOneStep(rosi.page)))) await sleep(50);
  }
  await tom.page.getByTestId('results').waitFor({ timeout: 30000 });

  // The others see the results and wait; only the host has the choice of the next game.
  assert.equal(await rosi.page.getByTestId('next-game').count(), 0, 'only the host picks the next game');
  assert.equal(await tom.page.getByTestId('next-game').count(), 0, 'a watcher does not pick the next game');
  await host.page.getByRole('button', { name: 'Play another game' }).click();
  const picker = host.page.getByTestId('next-game-picker');
  await picker.waitFor();
  // The game just played is marked; every game is offered.
  for (const id of ['happy_holidays', 'unterm_baum', 'christmas_penguins']) await picker.getByTestId(`next-card-${id}`).waitFor();
  await picker.getByTestId('next-card-happy_holidays').getByText('Just played').waitFor();
  // No dead end: the room after a game has no "Game over" button that only shows the results again.
  assert.equal(await host.page.getByRole('button', { name: 'Game over', exact: true }).count(), 0);

  // The picker at 390 px and on the desktop, in English and German.
  await picker.getByTestId('next-card-christmas_penguins').click();
  await picker.locator('fieldset[data-game="christmas_penguins"]').waitFor();
  await host.page.setViewportSize(phone);
  await pickerShots(host.page, '390');
  await host.page.setViewportSize(desktop);
  await pickerShots(host.page, 'desktop');

  // Christmas Penguins next, for the two of them, no time limit for a turn.
  await picker.locator('#opt-maxPlayers').selectOption('2').catch(async () => picker.locator('#opt-maxPlayers').fill('2'));
  await picker.locator('#opt-mainTimeoutSec').selectOption(JSON.stringify('off'));
  await picker.getByRole('button', { name: 'Play Christmas Penguins next' }).click();

  // Every page shows the new game, at the same address, and says what comes next.
  await host.page.getByTestId('next-note').getByText('Next game: Christmas Penguins. Start it when everyone is ready.').waitFor();
  await rosi.page.getByTestId('next-note').getByText('Als Nächstes: Christmas Penguins. Oma Inge startet, wenn alle bereit sind.').waitFor();
  await tom.page.getByTestId('next-note').getByText('Next game: Christmas Penguins. Oma Inge starts it when everyone is ready.').waitFor();
  for (const p of [host.page, rosi.page, tom.page]) {
    await p.locator('.lobby h2').getByText('Christmas Penguins').waitFor();
    assert.equal(await p.getByTestId('results').count(), 0, `${p.playerName}: the last game's results gave way to the next game`);
  }
  assert.equal(rosi.page.url(), urls.rosi, 'the phone stays on the same invite link');
  assert.equal(tom.page.url(), urls.tom, 'the watcher stays on the same watch link');
  assert.equal(await host.page.locator('#invite-link').inputValue(), invite, 'the invite link is the same');
  assert.equal(await host.page.locator('.invite a').getAttribute('href'), watchLink, 'the watch link is the same');
  assert.equal(await host.page.getByTestId('room-code').textContent(), code);
  // Seats, names and the watcher carried over.
  for (const name of ['Oma Inge', 'Oma Rosi']) await tom.page.locator('ul.seats').getByText(name, { exact: true }).waitFor();
  await host.page.getByTestId('watchers').getByText('Watching: Onkel Tom').waitFor();
  await screenshot(rosi.page, 'next-game-chosen-de-390.png');
  await assertNoSideScroll(rosi.page, 'the lobby of the next game on the phone');
  await assertCleanText(rosi.page, 'de');
  await screenshot(tom.page, 'next-game-chosen-watcher.png');

  // The invite link shows what is played now.
  const summary = await (await fetch(`${baseUrl}/rooms/${code}`)).json();
  assert.equal(summary.game, 'christmas_penguins');
  assert.equal(summary.status, 'lobby');
  assert.deepEqual(summary.players.map((p) => p.name), ['Oma Inge', 'Oma Rosi']);
  const preview = await (await fetch(`${baseUrl}/watch/${code}`)).text();
  assert.match(preview, /og:title" content="Watch Oma Inge play Christmas Penguins"/);

  // The second game starts on every screen and is played a few moves.
  await host.page.getByRole('button', { name: 'Start the game' }).click();
  for (const p of [host.page, rosi.page, tom.page]) await p.locator('.cp-board').waitFor({ timeout: 30000 });
  const logLines = () => tom.page.getByTestId('log').locator('li').count();
  const before = await logLines();
  let moves = 0;
  for (const until = Date.now() + 120000; moves < 2 && Date.now() < until;) {
    let moved = false;
    for (const p of [host.page, rosi.page]) {
      if (!(await p.locator('.turn-bar.mine').count())) continue;
      const targets = p.locator('.cp-board .floe.target');
      const n = await targets.count();
      if (!n) continue;
      moved = await targets.nth(Math.floor(Math.random() * n)).click({ timeout: 1000 }).then(() => true, () => false);
      if (moved) {
        moves += 1;
        break;
      }
    }
    if (!moved) await sleep(100);
  }
  assert.equal(moves, 2, 'two penguins placed in the second game');
  await tom.page.waitForFunction((n) => document.querySelectorAll('[data-testid="log"] li').length >= n, before + 2, { timeout: 30000 });
  assert.equal(rosi.page.url(), urls.rosi);
  assert.equal(tom.page.url(), urls.tom);
  assert.equal(await host.page.getByTestId('next-note').count(), 0, 'the note goes once the game starts');
  await screenshot(rosi.page, 'next-game-second-game-de-390.png');
  assertNoPageErrors(host.page, rosi.page, tom.page);
});
