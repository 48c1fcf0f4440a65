// Your turn calls you, and clocks that tell the truth (issue 31):
// - a reload in an untimed game shows no clock (the grandmother on a 390 px phone, in German): the
//   grace the server keeps for her lost connection is not her turn clock, and the first-turn tip
//   promises no timeout;
// - a timed game shows the clock and says whose decision it is and what happens when it runs out;
// - the call (sound, vibration, a notification while the page is hidden) comes when the turn
//   becomes the player's, and not when muted; the mute switch survives a reload.
// Notification, navigator.vibrate and document.visibilityState are stubbed in the page (init
// script); what calls.js played is read from window.__tinselCalls.
import assert from 'node:assert/strict';
import { assertCleanText, assertNoPageErrors, assertNoSideScroll, createRoom, joinByInvite, newPlayer, playOneStep, run, screenshot, sleep } from './lib.mjs';

const phone = { width: 390, height: 844 };
const desktop = { width: 1280, height: 900 };

// In the page before its scripts: a Notification that records, a vibrate that records, and a
// page that can be told it is hidden (another tab, a locked phone).
function stubs() {
  window.__notifications = [];
  window.__vibrations = [];
  class FakeNotification {
    constructor(title, options = {}) {
      window.__notifications.push({ title, body: options.body });
    }
    close() {}
    static requestPermission() {
      FakeNotification.permission = 'granted';
      return Promise.resolve('granted');
    }
  }
  FakeNotification.permission = 'default';
  window.Notification = FakeNotification;
  Object.defineProperty(navigator, 'vibrate', { configurable: true, value: (pattern) => (window.__vibrations.push(pattern), true) });
  let hidden = false;
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (hidden ? 'hidden' : 'visible') });
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
  window.__setHidden = (h) => {
    hidden = h;
    document.dispatchEvent(new Event('visibilitychange'));
  };
}

const countdowns = (page) => page.locator('#screen .turn-bar .countdown').count();
const calls = (page) => page.evaluate(() => window.__tinselCalls.slice());

// Plays `page`'s moves (Happy Holidays) until `done()` holds.
async function playUntil(page, done, what) {
  const until = Date.now() + 120000;
  while (!(await done())) {
    if (Date.now() > until) throw new Error(`never: ${what}`);
    if (!(await playOneStep(page))) await sleep(150);
  }
}

await run('browser: a reload in an untimed game shows no clock (German, 390 px phone)', async ({ browser, baseUrl }) => {
  const host = await newPlayer(browser, 'Host');
  const oma = await newPlayer(browser, 'Oma', { locale: 'de-DE', viewport: phone, hasTouch: true });
  const code = await createRoom(host.page, baseUrl, 'Anna', 'Happy Holidays', { maxPlayers: 2, startPlayer: 'host-picks', mainTimeoutSec: 'off' });
  await joinByInvite(oma.page, baseUrl, code, 'Oma Rosi');
  await host.page.locator('ul.seats').getByText('Oma Rosi', { exact: true }).waitFor();
  await host.page.locator('#first-seat').selectOption({ label: 'Oma Rosi' });
  await host.page.getByRole('button', { name: 'Start the game' }).click();
  const turn = oma.page.getByTestId('turn').getByText('Du bist dran!');
  await turn.waitFor({ timeout: 20000 });
  await oma.page.getByTestId('clock').getByText('ohne Zeitlimit').waitFor();
  assert.equal(await countdowns(oma.page), 0, 'no countdown in an untimed game');

  // She reloads: the server kept her seat for the grace of a lost connection, which is not her
  // turn clock. Still "no time limit", and no tip that promises a timeout.
  await oma.page.reload();
  await turn.waitFor({ timeout: 20000 });
  await oma.page.getByTestId('clock').getByText('ohne Zeitlimit').waitFor();
  await oma.page.waitForFunction(() => window.__tinselCalls !== undefined);
  assert.equal(await countdowns(oma.page), 0, 'no countdown after the reload');
  const text = await oma.page.evaluate(() => document.body.innerText);
  assert.ok(!/Läuft sie ab|Die Uhr hier oben|wählt das Spiel für dich/.test(text), `no timeout is promised:\n${text}`);
  // The host's bar: her turn, no clock either.
  await host.page.getByTestId('turn').getByText("Oma Rosi's turn").waitFor();
  assert.equal(await countdowns(host.page), 0, "no countdown on the host's screen");
  await assertCleanText(oma.page, 'de');
  await assertNoSideScroll(oma.page, 'untimed turn after a reload');
  await screenshot(oma.page, 'calls-untimed-reload-de-390.png');
  assertNoPageErrors(host.page, oma.page);
});

await run('browser: a timed game shows whose clock it is and what happens; header with the mute switch', async ({ browser, baseUrl }) => {
  const host = await newPlayer(browser, 'Host');
  const ben = await newPlayer(browser, 'Ben', { locale: 'de-DE', viewport: phone, hasTouch: true });
  const code = await createRoom(host.page, baseUrl, 'Anna', 'Happy Holidays', { maxPlayers: 2, startPlayer: 'host-picks' });
  await joinByInvite(ben.page, baseUrl, code, 'Ben');
  await host.page.locator('ul.seats').getByText('Ben', { exact: true }).waitFor();
  await host.page.locator('#first-seat').selectOption({ label: 'Ben' });
  await host.page.getByRole('button', { name: 'Start the game' }).click();
  // Ben's clock is his; the host's says the game chooses for Ben.
  await ben.page.getByTestId('turn').getByText('Du bist dran!').waitFor({ timeout: 20000 });
  const benClock = ben.page.getByTestId('clock');
  await benClock.getByText(/wählt das Spiel für dich/).waitFor();
  assert.match(await benClock.innerText(), /^⏱ in \d:\d\d wählt das Spiel für dich$/);
  const hostClock = host.page.getByTestId('clock');
  await hostClock.getByText(/the game chooses for Ben/).waitFor();
  assert.match(await hostClock.innerText(), /^⏱ in \d:\d\d the game chooses for Ben$/);
  assert.equal(await countdowns(host.page), 1);
  // The offer of a message waits until Ben waits for the others: not during his own turn.
  assert.equal(await ben.page.getByTestId('calls-offer').isVisible(), false, 'no offer during his own turn');

  // The header's mute switch and the timed turn bar, at both sizes in both languages.
  for (const { page } of [host, ben]) {
    await page.getByTestId('mute').waitFor();
    for (const lang of ['en', 'de']) {
      if ((await page.evaluate(() => document.documentElement.lang)) !== lang) await page.locator('#lang').click();
      for (const [size, viewport] of [['390', phone], ['desktop', desktop]]) {
        await page.setViewportSize(viewport);
        await sleep(300); // not an assertion: lets the first-turn tip follow the new layout before the picture
        await assertNoSideScroll(page, `timed turn, ${lang}, ${size}`);
        await assertCleanText(page, lang);
        await screenshot(page, `calls-timed-${page.playerName.toLowerCase()}-${lang}-${size}.png`);
      }
    }
  }
  await host.page.setViewportSize({ width: 360, height: 740 });
  await assertNoSideScroll(host.page, 'header at 360 px');
  assertNoPageErrors(host.page, ben.page);
});

await run('browser: the turn calls with sound, vibration and a notification, and stays silent when muted', async ({ browser, baseUrl }) => {
  const oma = await newPlayer(browser, 'Oma');
  const ben = await newPlayer(browser, 'Ben', { viewport: phone, hasTouch: true, init: stubs });
  const code = await createRoom(oma.page, baseUrl, 'Oma', 'Happy Holidays', { maxPlayers: 2, startPlayer: 'host-picks', mainTimeoutSec: 'off' });
  await joinByInvite(ben.page, baseUrl, code, 'Ben');
  await oma.page.locator('ul.seats').getByText('Ben', { exact: true }).waitFor();
  // No offer before a game: never at first load, nor in the room's lobby.
  assert.equal(await ben.page.getByTestId('calls-offer').count(), 0, 'no notification offer in the lobby');
  await oma.page.locator('#first-seat').selectOption({ label: 'Oma' });
  await oma.page.getByRole('button', { name: 'Start the game' }).click();

  // Seated in a running game, waiting for Oma: the offer. Its "Yes" is a tap, which also unlocks the sound.
  const offer = ben.page.getByTestId('calls-offer');
  await offer.waitFor();
  await screenshot(ben.page, 'calls-offer-en-390.png');
  await offer.getByRole('button', { name: 'Yes, please' }).click();
  await offer.waitFor({ state: 'hidden' });
  assert.equal(await ben.page.evaluate(() => Notification.permission), 'granted');
  assert.deepEqual(await calls(ben.page), [], 'nothing called while it was not his turn');

  // Ben looks at another app; Oma plays: his turn calls him.
  await ben.page.evaluate(() => window.__setHidden(true));
  await playUntil(oma.page, async () => (await ben.page.locator('.turn-bar.mine').count()) > 0, "Ben's turn");
  await ben.page.waitForFunction(() => window.__tinselCalls.some((c) => c.kind === 'turn'), null, { timeout: 10000 });
  let log = await calls(ben.page);
  assert.equal(log.length, 1, `one call: ${JSON.stringify(log)}`);
  assert.deepEqual({ ...log[0], at: 0 }, { kind: 'turn', at: 0, muted: false, sound: true, vibrate: true, notification: true });
  assert.equal((await ben.page.evaluate(() => window.__vibrations)).length, 1);
  const notes = await ben.page.evaluate(() => window.__notifications);
  assert.equal(notes.length, 1);
  assert.equal(notes[0].title, '▶ Your turn!');
  assert.match(notes[0].body, /Happy Holidays: the others are waiting for you\./);
  // Oma's page, whose turn it is not, called nobody.
  assert.deepEqual(await oma.page.evaluate(() => window.__tinselCalls), []);

  // He comes back and mutes: the next turn is silent, with nothing vibrating and no message.
  await ben.page.evaluate(() => window.__setHidden(false));
  await ben.page.getByTestId('mute').click();
  assert.equal(await ben.page.getByTestId('mute').getAttribute('aria-pressed'), 'true');
  await playUntil(ben.page, async () => (await ben.page.locator('.turn-bar.mine').count()) === 0, "the end of Ben's turn");
  await ben.page.evaluate(() => window.__setHidden(true));
  await playUntil(oma.page, async () => (await ben.page.locator('.turn-bar.mine').count()) > 0, "Ben's next turn");
  await ben.page.waitForFunction(() => window.__tinselCalls.length >= 2, null, { timeout: 10000 });
  log = await calls(ben.page);
  assert.equal(log.length, 2, `two calls: ${JSON.stringify(log)}`);
  assert.deepEqual({ ...log[1], at: 0 }, { kind: 'turn', at: 0, muted: true, sound: false, vibrate: false, notification: false });
  assert.equal((await ben.page.evaluate(() => window.__vibrations)).length, 1, 'no vibration while muted');
  assert.equal((await ben.page.evaluate(() => window.__notifications)).length, 1, 'no notification while muted');

  // The switch survives a reload; the offer does not come back.
  await ben.page.evaluate(() => window.__setHidden(false));
  await ben.page.reload();
  await ben.page.getByTestId('turn').waitFor();
  const mute = ben.page.getByTestId('mute');
  await mute.waitFor();
  assert.equal(await mute.getAttribute('aria-pressed'), 'true', 'still muted after the reload');
  assert.match(await mute.innerText(), /🔕/);
  assert.equal(await ben.page.getByTestId('calls-offer').isVisible(), false, 'the offer is not made twice');
  await ben.page.setViewportSize(desktop);
  await mute.getByText('Sound off').waitFor();
  await screenshot(ben.page, 'calls-muted-en-desktop.png');
  assertNoPageErrors(oma.page, ben.page);
});
