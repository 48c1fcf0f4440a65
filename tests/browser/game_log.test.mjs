// The log and the results as a family lives them across leaving, coming back and playing again:
// three people play Happy Holidays; Ben leaves mid-game (the computer plays for him) and comes back
// to the results: every screen names the same winners and the same players in the same rows. Then
// the host plays again; Ben reloads his page and a spectator arrives mid-game: both logs show the
// new game from its start, line for line as the host's.
import assert from 'node:assert/strict';
import { assertNoPageErrors, createRoom, joinByInvite, newPlayer, playOneStep, run, screenshot, sleep } from './lib.mjs';

// Clicks offered actions on these pages until `done()` or `clicks` clicks; returns the clicks made.
async function play(pages, { clicks = Infinity, done = async () => false, deadline }) {
  let made = 0;
  while (made < clicks && Date.now() < deadline) {
    if (await done()) return made;
    let clicked = false;
    for (const p of pages) clicked = clicked || (await playOneStep(p));
    if (clicked) made += 1;
    else await sleep(50);
  }
  return made;
}

const logLines = (page) => page.getByTestId('log').locator('li').allTextContents();

// Waits until `page` shows the log of the same events as `reference` (a state may arrive meanwhile:
// both get it): as many lines, the same first line. The words of a line differ between viewers ("Ben
// takes your reindeer" to Oma is "Ben takes Oma Inge's reindeer" to Cleo), so the lines themselves
// are compared only between two looks of the same viewer.
async function sameLog(page, reference, what) {
  const until = Date.now() + 20000;
  let mine;
  let theirs;
  do {
    mine = await logLines(page);
    theirs = await logLines(reference);
    if (mine.length && mine.length === theirs.length && mine.at(-1) === theirs.at(-1)) return mine;
    await sleep(100);
  } while (Date.now() < until);
  assert.equal(mine.length, theirs.length, `${what}: as many lines`);
  assert.equal(mine.at(-1), theirs.at(-1), `${what}: the same first line`);
  return mine;
}

async function results(page) {
  const box = page.getByTestId('results');
  await box.waitFor({ timeout: 30000 });
  return {
    headline: (await box.locator('.headline').textContent()).trim(),
    rows: (await box.locator('.score-table tbody tr td:first-child').allTextContents()).map((s) => s.trim()),
    winners: (await box.locator('.score-table tbody tr.winner td:first-child').allTextContents()).map((s) => s.trim()),
  };
}

await run('browser: the winner after a leave and rejoin, and the log after a reload after Play again', async ({ browser, baseUrl }) => {
  const oma = await newPlayer(browser, 'Oma');
  const ben = await newPlayer(browser, 'Ben');
  const cleo = await newPlayer(browser, 'Cleo');
  const code = await createRoom(oma.page, baseUrl, 'Oma Inge', 'Happy Holidays', { maxPlayers: 3, giftsPerColour: 5 });
  await joinByInvite(ben.page, baseUrl, code, 'Ben');
  await joinByInvite(cleo.page, baseUrl, code, 'Cleo');
  await oma.page.locator('ul.seats').getByText('Cleo', { exact: true }).waitFor();
  await oma.page.getByRole('button', { name: 'Start the game' }).click();
  for (const p of [oma.page, ben.page, cleo.page]) await p.getByTestId('turn').waitFor();
  const deadline = Date.now() + 220000;
  await play([oma.page, ben.page, cleo.page], { clicks: 3, deadline });

  // Ben leaves the game (the computer plays his seat to the end) and Oma and Cleo finish it.
  ben.page.on('dialog', (d) => d.accept());
  await ben.page.locator('details.table-seats summary').click();
  await ben.page.getByRole('button', { name: 'Leave the game (the computer plays for me)' }).click();
  await ben.page.locator('#code').waitFor(); // back on the home page
  await play([oma.page, cleo.page], { deadline, done: async () => (await oma.page.getByTestId('results').count()) > 0 });
  const seen = await results(oma.page);
  assert.deepEqual(seen.rows, ['Oma Inge', 'Ben', 'Cleo'], 'the rows are the players of the game');
  assert.ok(seen.winners.length >= 1);

  // Ben comes back through the invite link: he sits down again (in another seat now), and his
  // results screen says what everyone else's says.
  await ben.page.goto(`${baseUrl}/r/${code}`);
  await ben.page.fill('#name', 'Ben');
  await ben.page.locator('button[data-as="player"]').click();
  for (const p of [ben.page, cleo.page]) assert.deepEqual(await results(p), seen, `${p.playerName}'s results`);
  await screenshot(ben.page, 'results-after-rejoin.png');
  // His log is the finished game's, from its start.
  await sameLog(ben.page, oma.page, "Ben's log after coming back");

  // Play again: Oma, Cleo and Ben (the seats as they are now). A few moves, then Ben reloads.
  await oma.page.getByRole('button', { name: 'Play again' }).click();
  for (const p of [oma.page, ben.page, cleo.page]) await p.getByTestId('turn').waitFor();
  assert.equal(await play([oma.page, ben.page, cleo.page], { clicks: 4, deadline }), 4);
  const before = await sameLog(ben.page, oma.page, "Ben's log before the reload");
  await ben.page.reload();
  await ben.page.getByTestId('turn').waitFor();
  // After the reload: the same events as Oma's page shows, and every line Ben saw before, word for
  // word (newest first: a move still on its way when he reloaded may come on top).
  const lines = await sameLog(ben.page, oma.page, "Ben's log after the reload");
  assert.deepEqual(lines.slice(lines.length - before.length), before, "Ben's lines after the reload are those he saw before");
  assert.ok(lines.length > 4, `the log is filled: ${lines.length} lines`);
  const starts = lines.filter((l) => l.startsWith('The game begins'));
  assert.equal(starts.length, 1, 'one game in the log: the new one');
  assert.equal(lines.at(-1), starts[0], 'the log goes back to the start of the new game');
  assert.match(starts[0], /Oma Inge.*Cleo.*Ben/);

  // A spectator who comes now sees the same log.
  const tom = await newPlayer(browser, 'Tom');
  await tom.page.goto(`${baseUrl}/watch/${code}`);
  await tom.page.fill('#name', 'Onkel Tom');
  await tom.page.getByRole('button', { name: 'Just watch' }).click();
  await tom.page.getByText('You are watching.').waitFor();
  await sameLog(tom.page, oma.page, "the spectator's log");
  await screenshot(tom.page, 'log-spectator-mid-game.png');
  assertNoPageErrors(oma.page, ben.page, cleo.page, tom.page);
}, { serverArgs: ['--auto-play-delay-ms', '50'] });
