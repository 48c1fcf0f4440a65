// Words a family uses: plurals through Intl.PluralRules in both languages ("1 point", "1 Punkt",
// "genau 1 Scholle"), timers in seconds, and German screens without raw keys, "undefined", "NaN"
// or English words.
import assert from 'node:assert/strict';
import { assertCleanText, assertNoPageErrors, newPlayer, run } from './lib.mjs';

await run('browser: plurals and words in English and German', async ({ browser, baseUrl }) => {
  const { page } = await newPlayer(browser, 'Oma', { locale: 'de-DE' });
  await page.goto(`${baseUrl}/`);
  await page.locator('#name').waitFor();
  const say = (lang, key, params) => page.evaluate(async ([l, k, p]) => {
    // A board's words come with the board, which a page loads when it needs it.
    await Promise.all(['happy_holidays', 'christmas_penguins'].map((id) => import(`/js/games/${id}.js`)));
    const i18n = await import('/js/i18n.js');
    i18n.setLang(l);
    return i18n.t(k, p);
  }, [lang, key, params]);
  const cases = [
    ['en', 'hh.points', { n: 1 }, '1 point'], ['en', 'hh.points', { n: 2 }, '2 points'], ['en', 'hh.points', { n: 0 }, '0 points'],
    ['de', 'hh.points', { n: 1 }, '1 Punkt'], ['de', 'hh.points', { n: 7 }, '7 Punkte'],
    ['en', 'cp.p.move', { n: 1 }, 'Move your figure exactly 1 floe'], ['de', 'cp.p.move', { n: 1 }, 'Zieh deine Figur genau 1 Scholle weit'],
    ['de', 'cp.p.move', { n: 4 }, 'Zieh deine Figur genau 4 Schollen weit'],
    ['en', 'hh.gifts.yellow', { n: 1 }, '1 yellow gift'], ['en', 'hh.gifts.yellow', { n: 3 }, '3 yellow gifts'],
    ['de', 'hh.gifts.yellow', { n: 1 }, '1 gelbes Geschenk'], ['de', 'hh.gifts.yellow', { n: 3 }, '3 gelbe Geschenke'],
    ['de', 'hh.adj.red', { n: 1 }, 'rotes'], ['de', 'hh.adj.red', { n: 2 }, 'rote'],
    ['en', 'opt.seconds', { n: 1 }, '1 second'], ['de', 'opt.seconds', { n: 60 }, '60 Sekunden'],
    ['en', 'lobby.spectators', { n: 1 }, '1 person watching'], ['de', 'lobby.spectators', { n: 2 }, '2 Personen schauen zu'],
  ];
  for (const [lang, key, params, want] of cases) assert.equal(await say(lang, key, params), want, `${lang} ${key} ${JSON.stringify(params)}`);

  // Articles: "an orange present", through the game's own log text.
  const stolen = (lang, colour) => page.evaluate(async ([l, c]) => {
    (await import('/js/i18n.js')).setLang(l);
    const cp = (await import('/js/games/christmas_penguins.js')).createBoard();
    return cp.eventText({ kind: 'present_stolen', seat: 0, colour: c }, { name: () => 'Oma', view: { players: [], cells: [] } });
  }, [lang, colour]);
  assert.equal(await stolen('en', 'orange'), 'Oma steals an orange present!');
  assert.equal(await stolen('en', 'red'), 'Oma steals a red present!');
  assert.equal(await stolen('de', 'orange'), 'Oma stibitzt ein Geschenk in Orange!');

  // The home page and a game's settings in German: seconds, and no English or raw text.
  await page.evaluate(async () => (await import('/js/i18n.js')).setLang('de'));
  await page.reload();
  await page.fill('#name', 'Oma Inge');
  await page.getByRole('button', { name: /Christmas Penguins|Pinguin/ }).click();
  await page.locator('.options summary').click();
  assert.equal(await page.locator('#opt-mainTimeoutSec option:checked').textContent(), '60 Sekunden');
  // A family's room gives 10 s to shout "Stop!" (familyDefaults), the rulebook 4 s.
  assert.equal(await page.locator('#opt-reactionWindowMs option:checked').textContent(), '10 Sekunden');
  // The picker estimates how long a game takes, and follows the settings. A new room starts with
  // four seats though the game's default is six: a family's evening.
  assert.equal(await page.locator('#opt-maxPlayers').inputValue(), '4');
  await page.getByTestId('estimate').getByText('Eine Partie dauert mit 4 Spielern etwa 40 Minuten.').waitFor();
  await page.locator('#opt-maxPlayers').fill('6');
  await page.locator('#opt-maxPlayers').dispatchEvent('change');
  await page.getByTestId('estimate').getByText('Eine Partie dauert mit 6 Spielern etwa 60 Minuten.').waitFor();
  await assertCleanText(page, 'de');

  // The check itself: the same screen in English is not a German screen.
  await page.evaluate(async () => (await import('/js/i18n.js')).setLang('en'));
  await page.reload();
  await page.locator('#name').waitFor();
  await assert.rejects(assertCleanText(page, 'de'), /should not see/);
  assertNoPageErrors(page);
});
