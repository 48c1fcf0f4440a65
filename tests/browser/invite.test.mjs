// The invite link says what it invites to before anyone types a name (issue 14): the game, who
// invites, who sits at the table and whether a seat is free, or that the game runs and one may
// watch; in English and German, on a phone (390 px, nothing wider than the screen) and a desktop.
// A link to a room that does not exist says so at once and offers a new room.
import assert from 'node:assert/strict';
import { assertNoPageErrors, createRoom, joinByInvite, newPlayer, run, screenshot } from './lib.mjs';

const phone = { width: 390, height: 844 };
const desktop = { width: 1280, height: 900 };

async function fitsWidth(page, what) {
  const { scroll, inner } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
  assert.ok(scroll <= inner, `${what}: the page is ${scroll} px wide in a ${inner} px window`);
}

await run('browser: the invite page shows the game, the host and the seats before a name is typed', async ({ browser, baseUrl }) => {
  const oma = await newPlayer(browser, 'Oma');
  const ben = await newPlayer(browser, 'Ben');
  const code = await createRoom(oma.page, baseUrl, 'Oma Inge', 'Christmas Penguins', { maxPlayers: 4 });
  await joinByInvite(ben.page, baseUrl, code, 'Ben');
  await oma.page.locator('ul.seats').getByText('Ben', { exact: true }).waitFor();

  const visitors = [];
  for (const [lang, locale, heading, free] of [
    ['en', 'en-GB', 'Oma Inge invites you to play Christmas Penguins', '2 seats are free. Type your name and sit down.'],
    ['de', 'de-DE', 'Oma Inge lädt dich zu Christmas Penguins ein', '2 Plätze sind frei. Gib deinen Namen ein und setz dich dazu.'],
  ]) {
    for (const [size, viewport] of [['390', phone], ['desktop', desktop]]) {
      const v = await newPlayer(browser, `${lang}-${size}`, { locale, viewport });
      visitors.push(v);
      await v.page.goto(`${baseUrl}/r/${code}`);
      await v.page.getByTestId('invite-heading').getByText(heading).waitFor();
      // Before a name is typed: the name field is empty, and the table is already there.
      assert.equal(await v.page.locator('#name').inputValue(), '');
      const seats = v.page.getByTestId('invite-seats');
      await seats.getByText('Oma Inge').waitFor();
      await seats.getByText('Ben', { exact: true }).waitFor();
      assert.equal(await seats.locator('li.empty').count(), 2, 'two free seats listed');
      await v.page.getByTestId('invite-status').getByText(free).waitFor();
      assert.ok(await v.page.locator('img.invite-picture').evaluate((img) => img.complete && img.naturalWidth === 1200), 'the picture loaded');
      // The preview a messaging app shows, in the same words.
      const og = await v.page.locator('meta[property="og:title"]').getAttribute('content');
      assert.equal(og, heading);
      await fitsWidth(v.page, `invite ${lang} ${size}`);
      await screenshot(v.page, `invite-${lang}-${size}.png`);
    }
  }

  // The German visitor on the phone sits down; the page said one seat fewer is free afterwards.
  const anna = visitors[2]; // de, 390
  await anna.page.fill('#name', 'Anna');
  await anna.page.locator('button[data-as="player"]').click();
  await anna.page.getByTestId('room-code').waitFor();
  await oma.page.locator('ul.seats').getByText('Anna', { exact: true }).waitFor();

  // A running game: the link offers watching, and says why.
  await oma.page.getByRole('button', { name: 'Start the game' }).click();
  await ben.page.getByTestId('turn').waitFor();
  for (const [lang, locale, text, button] of [
    ['en', 'en-GB', 'The game is already running. You can watch.', 'Just watch'],
    ['de', 'de-DE', 'Das Spiel läuft schon. Du kannst zuschauen.', 'Nur zuschauen'],
  ]) {
    const late = await newPlayer(browser, `late-${lang}`, { locale, viewport: phone });
    visitors.push(late);
    await late.page.goto(`${baseUrl}/r/${code}`);
    await late.page.getByTestId('invite-status').getByText(text).waitFor();
    assert.equal(await late.page.locator('button[data-as="player"]').count(), 0, 'no seat to take in a running game');
    await late.page.locator('button[data-as="spectator"]').getByText(button).waitFor();
    await fitsWidth(late.page, `running ${lang}`);
    await screenshot(late.page, `invite-running-${lang}-390.png`);
  }
  const late = visitors.at(-2);
  await late.page.fill('#name', 'Onkel Paul');
  await late.page.locator('button[data-as="spectator"]').click();
  await late.page.getByTestId('turn').waitFor();
  assertNoPageErrors(oma.page, ben.page, ...visitors.map((v) => v.page));
});

await run('browser: a link to a room that does not exist says so before a name is typed', async ({ browser, baseUrl }) => {
  const pages = [];
  for (const [lang, locale, heading, button] of [
    ['en', 'en-GB', 'This game room does not exist (any more)', 'Start a new game room'],
    ['de', 'de-DE', 'Diesen Spielraum gibt es nicht (mehr)', 'Einen neuen Spielraum eröffnen'],
  ]) {
    const v = await newPlayer(browser, `gone-${lang}`, { locale, viewport: phone });
    pages.push(v.page);
    await v.page.goto(`${baseUrl}/r/ZZZZZ2`);
    await v.page.getByTestId('invite-gone').getByText(heading).waitFor();
    assert.equal(await v.page.locator('#name').count(), 0, 'no name is asked for');
    assert.equal(await v.page.locator('meta[property="og:image"]').getAttribute('content'), `${baseUrl}/og/tinsel.png`);
    await fitsWidth(v.page, `gone ${lang}`);
    await screenshot(v.page, `invite-gone-${lang}-390.png`);
    // "Start a new game room" leads home, where a room is made.
    await v.page.getByRole('button', { name: button }).click();
    await v.page.locator('#name').waitFor();
    assert.equal(new URL(v.page.url()).pathname, '/');
  }
  assertNoPageErrors(...pages);
});
