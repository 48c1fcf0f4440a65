// Who is here, and chat on a phone (issue 31): the host at a desktop (English), Oma Rosi on a
// 390 px phone (German) and Tante Eva watching. Everyone sees who plays, who watches, by name; when
// Rosi's phone goes, the others see "connection lost" by her name within seconds, and the turn bar
// says so; a chat message shows on her phone as a badge and a toast, and one tap opens the chat.
import assert from 'node:assert/strict';
import { assertCleanText, assertNoPageErrors, assertNoSideScroll, createRoom, joinByInvite, newPlayer, run, screenshot } from './lib.mjs';

const phone = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };
const generous = { timeout: 30000 };

// The strip's entry for a seat.
const chip = (page, seat) => page.getByTestId(`presence-seat-${seat}`);

// True when the element's top edge is on screen with the page scrolled to its top.
async function visibleAtTop(page, locator) {
  await page.evaluate(() => window.scrollTo(0, 0));
  const box = await locator.boundingBox();
  const height = await page.evaluate(() => window.innerHeight);
  return Boolean(box) && box.y >= 0 && box.y + box.height <= height;
}

await run('browser: who is here (players, dropped, watchers) and the chat badge on a phone', async ({ browser, baseUrl }) => {
  const oma = await newPlayer(browser, 'Oma Inge');
  const rosi = await newPlayer(browser, 'Oma Rosi', { locale: 'de-DE', ...phone });
  const eva = await newPlayer(browser, 'Tante Eva');
  const code = await createRoom(oma.page, baseUrl, 'Oma Inge', 'Happy Holidays',
    { maxPlayers: 2, startPlayer: 'host-picks', mainTimeoutSec: 'off' });
  await joinByInvite(rosi.page, baseUrl, code, 'Oma Rosi');
  await eva.page.goto(`${baseUrl}/watch/${code}`);
  await eva.page.fill('#name', 'Tante Eva');
  await eva.page.locator('button[data-as="spectator"]').click();

  // The lobby names whoever watches, in both languages (German: "schaut" for one).
  await oma.page.getByTestId('watchers').getByText('Watching: Tante Eva').waitFor(generous);
  await rosi.page.getByTestId('watchers').getByText('Schaut zu: Tante Eva').waitFor(generous);
  await eva.page.getByTestId('watchers').getByText('Watching: Tante Eva (you)').waitFor(generous);

  // The game: Rosi begins. Every screen shows the strip with both players and the watcher.
  await oma.page.locator('#first-seat').selectOption({ label: 'Oma Rosi' });
  await oma.page.getByRole('button', { name: 'Start the game' }).click();
  for (const p of [oma.page, rosi.page, eva.page]) await p.getByTestId('presence').waitFor(generous);
  await chip(oma.page, 1).getByText('Oma Rosi').waitFor();
  assert.equal(await chip(oma.page, 1).getAttribute('data-status'), 'connected');
  assert.match(await chip(oma.page, 1).innerText(), /here/);
  assert.ok((await chip(oma.page, 1).getAttribute('class')).includes('on-turn'), 'Rosi, on turn, is marked');
  assert.ok(!(await chip(oma.page, 0).getAttribute('class')).includes('on-turn'), 'Oma, not on turn, is not');
  await chip(rosi.page, 1).getByText('Oma Rosi (du)').waitFor();
  assert.match(await chip(rosi.page, 0).innerText(), /Oma Inge\s+da/);
  await rosi.page.getByTestId('presence').getByText('Schaut zu: Tante Eva').waitFor();
  await eva.page.getByTestId('presence').getByText('Watching: Tante Eva (you)').waitFor();
  // On the phone the strip and the chat button are on screen without scrolling.
  assert.ok(await visibleAtTop(rosi.page, rosi.page.getByTestId('presence')), 'the strip is on screen on a 390 px phone');
  assert.ok(await visibleAtTop(rosi.page, rosi.page.getByTestId('chat-open')), 'the chat button is on screen on a 390 px phone');
  await assertNoSideScroll(rosi.page, 'game with the strip (de, 390 px)');
  await screenshot(rosi.page, 'presence-game-phone-de.png');
  await screenshot(oma.page, 'presence-game-desktop-en.png');

  // Chat: the host writes. On the desktop the side column is in sight: no badge, no toast. On
  // Rosi's phone the chat is far below: a badge and a toast; one tap opens the chat.
  assert.equal(await rosi.page.evaluate(() => window.scrollY), 0);
  await oma.page.fill('#chat-text', 'Hallo Rosi, du bist dran!');
  await oma.page.press('#chat-text', 'Enter');
  await eva.page.getByTestId('chat').getByText('Hallo Rosi, du bist dran!').waitFor(generous);
  assert.ok(await eva.page.getByTestId('chat-badge').isHidden(), 'no badge where the chat is in sight');
  assert.ok(await oma.page.getByTestId('chat-badge').isHidden(), 'no badge for my own message');
  const badge = rosi.page.getByTestId('chat-badge');
  await badge.waitFor(generous);
  assert.equal((await badge.textContent()).trim(), '1');
  const toast = rosi.page.getByTestId('chat-toast');
  await toast.getByText('Hallo Rosi, du bist dran!').waitFor();
  assert.match(await toast.innerText(), /Oma Inge:/);
  assert.match(await rosi.page.getByTestId('chat-open').getAttribute('aria-label'), /1 neue Nachricht\)/);
  await screenshot(rosi.page, 'presence-chat-badge-phone-de.png');
  await rosi.page.getByTestId('chat-open').tap();
  await rosi.page.locator('#chat-list').getByText('Hallo Rosi, du bist dran!').waitFor();
  assert.ok(await rosi.page.locator('#chat-list').isVisible());
  await badge.waitFor({ state: 'hidden' });
  await toast.waitFor({ state: 'hidden' });
  // The sheet is on screen where she is, with the field to answer in.
  const field = await rosi.page.locator('#chat-text').boundingBox();
  assert.ok(field && field.y >= 0 && field.y + field.height <= 844, `the message field is on screen: ${JSON.stringify(field)}`);
  await screenshot(rosi.page, 'presence-chat-open-phone-de.png');
  // She answers from the sheet and closes it.
  await rosi.page.fill('#chat-text', 'Danke!');
  await rosi.page.press('#chat-text', 'Enter');
  await oma.page.getByTestId('chat').getByText('Danke!').waitFor(generous);
  await rosi.page.getByTestId('chat-close').tap();
  await rosi.page.getByTestId('chat-close').waitFor({ state: 'hidden' });
  assert.ok(await badge.isHidden(), 'her own message counts for nothing');
  await assertCleanText(rosi.page, 'de');

  // Rosi's phone goes (the page is closed): the host and the watcher see her dropped, by name,
  // within seconds; the turn bar says so; the host's "Move on" is there at once and explains itself.
  await rosi.page.close();
  for (const p of [oma.page, eva.page]) {
    await p.locator('[data-testid="presence-seat-1"][data-status="disconnected"]').waitFor(generous);
    await chip(p, 1).getByText('connection lost just now').waitFor();
    await p.getByTestId('turn').getByText("Oma Rosi's turn — connection lost").waitFor(generous);
  }
  const skip = oma.page.getByRole('button', { name: 'Move on for Oma Rosi' });
  await skip.waitFor(generous);
  await oma.page.getByTestId('skip-explain').getByText('The game makes the usual choice for Oma Rosi this once').waitFor();
  assert.equal(await eva.page.getByTestId('skip-explain').count(), 0, 'only the host has "Move on"');
  await assertCleanText(oma.page, 'en');
  await screenshot(oma.page, 'presence-dropped-desktop-en.png');
  await oma.page.locator('#lang').click();
  await oma.page.getByTestId('turn').getByText('Oma Rosi ist dran – Verbindung weg').waitFor();
  await chip(oma.page, 1).getByText('Verbindung gerade abgebrochen').waitFor();
  await oma.page.getByTestId('skip-explain').getByText('Das Spiel trifft dieses eine Mal die übliche Wahl für Oma Rosi').waitFor();
  await assertCleanText(oma.page, 'de');
  await screenshot(oma.page, 'presence-dropped-desktop-de.png');
  await oma.page.locator('#lang').click();

  // How long ago, as it grows (the server's `since`), with plurals in both languages.
  const ago = (lang, minutes) => oma.page.evaluate(async ([l, m]) => {
    const i18n = await import('/js/i18n.js');
    const before = i18n.lang();
    i18n.setLang(l);
    const { stateText } = await import('/js/presence.js');
    const text = stateText({ status: 'disconnected', since: Date.now() - m * 60000 - 5000 });
    i18n.setLang(before);
    return text;
  }, [lang, minutes]);
  assert.equal(await ago('en', 1), 'connection lost 1 minute ago');
  assert.equal(await ago('en', 2), 'connection lost 2 minutes ago');
  assert.equal(await ago('en', 61), 'connection lost 1 hour ago');
  assert.equal(await ago('de', 1), 'Verbindung seit 1 Minute weg');
  assert.equal(await ago('de', 5), 'Verbindung seit 5 Minuten weg');
  assert.equal(await ago('de', 125), 'Verbindung seit 2 Stunden weg');

  // She comes back (the same phone, the link again): "here" on every screen.
  const back = await rosi.context.newPage();
  back.errors = [];
  back.on('pageerror', (err) => back.errors.push(`Oma Rosi: ${err.message}`));
  await back.goto(`${baseUrl}/r/${code}`);
  for (const p of [oma.page, eva.page]) {
    await p.locator('[data-testid="presence-seat-1"][data-status="connected"]').waitFor(generous);
    await p.getByTestId('turn').getByText("Oma Rosi's turn", { exact: true }).waitFor(generous);
  }
  await back.getByTestId('presence').waitFor(generous);
  await chip(back, 1).getByText('Oma Rosi (du)').waitFor();
  // The phone in English, too.
  await back.locator('#lang').click();
  await chip(back, 1).getByText('Oma Rosi (you)').waitFor();
  await assertNoSideScroll(back, 'game with the strip (en, 390 px)');
  await screenshot(back, 'presence-game-phone-en.png');
  // The watcher's page, desktop.
  await screenshot(eva.page, 'presence-watcher-desktop-en.png');
  assertNoPageErrors(oma.page, eva.page, back);
});
