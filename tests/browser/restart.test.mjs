// The "done when" of durable rooms, as a family would live it: two people play Happy Holidays in
// two browsers, the server is killed with SIGKILL in the middle of the game and started again on the
// same data folder and port; both pages reconnect by themselves and the game goes on where it was.
// Later a graceful restart (SIGTERM) shows "the server is restarting" and the game goes on again.
// At the end the record is downloaded from the results screen and checked with tinsel-replay.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { assertNoPageErrors, createRoom, joinByInvite, launchBrowser, newPlayer, playOneStep, screenshot, sleep, startServer, watchdogMs } from './lib.mjs';

const replayBinary = process.env.TINSEL_REPLAY_BINARY || 'build/tools/replay/tinsel-replay';

async function play(pages, clicks, deadline) {
  let done = 0;
  while (done < clicks && Date.now() < deadline) {
    if (await pages[0].getByTestId('results').count()) return done;
    let clicked = false;
    for (const p of pages) clicked = clicked || (await playOneStep(p));
    if (clicked) done += 1;
    else await sleep(50);
  }
  return done;
}

const started = Date.now();
// While the test has the server down, a page's reconnect attempt that finds no server is logged
// by Chromium itself ("WebSocket connection to … failed: … ERR_CONNECTION_REFUSED"): expected, on
// a busy machine more so, and not an error of the page. Only those lines, and only between the
// server going down and both pages being back online, are taken out of the pages' errors.
function outage(pages) {
  const before = pages.map((p) => p.errors.length);
  return {
    end() {
      pages.forEach((p, i) => {
        const during = p.errors.slice(before[i]).filter((e) => !/console: WebSocket connection to '.*' failed: .*ERR_CONNECTION_REFUSED/.test(e));
        p.errors.splice(before[i], p.errors.length - before[i], ...during);
      });
    },
  };
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tinsel-restart-'));
let server;
let browser;
const watchdog = setTimeout(() => {
  console.error(`FAILED browser: restart: no result after ${watchdogMs / 1000} s`);
  server?.proc.kill('SIGKILL');
  process.exit(1);
}, watchdogMs);
watchdog.unref();
try {
  server = await startServer(['--data-dir', dataDir]);
  const baseUrl = server.url;
  const port = new URL(baseUrl).port;
  browser = await launchBrowser();
  const oma = await newPlayer(browser, 'Oma');
  const ben = await newPlayer(browser, 'Ben', { locale: 'de-DE', viewport: { width: 390, height: 844 } });
  const code = await createRoom(oma.page, baseUrl, 'Oma Inge', 'Happy Holidays', { maxPlayers: 2 });
  await joinByInvite(ben.page, baseUrl, code, 'Ben');
  await oma.page.getByText('Ben', { exact: true }).waitFor();
  await oma.page.getByRole('button', { name: 'Start the game' }).click();
  await oma.page.getByTestId('turn').waitFor();
  await ben.page.getByTestId('turn').waitFor();
  const deadline = Date.now() + 200000;
  assert.equal(await play([oma.page, ben.page], 8, deadline), 8);

  // kill -9: no close frame; the pages see the connection drop and keep trying.
  const logBefore = await oma.page.getByTestId('log').locator('li').count();
  server.proc.kill('SIGKILL');
  await ben.page.locator('#conn.conn-reconnecting').waitFor({ timeout: 10000 });
  const down = outage([oma.page, ben.page]);
  server = await startServer(['--data-dir', dataDir, '--port', port]);
  await oma.page.locator('#conn.conn-online').waitFor({ timeout: 30000 });
  await ben.page.locator('#conn.conn-online').waitFor({ timeout: 30000 });
  down.end();
  await ben.page.locator('.hh-player strong', { hasText: 'Ben (du)' }).waitFor(); // back in the seat
  assert.ok((await oma.page.getByTestId('log').locator('li').count()) >= logBefore, 'the log is still there');
  assert.equal(await play([oma.page, ben.page], 6, deadline), 6, 'the game goes on after the crash');

  // A graceful restart: the badge says so, in the player's language, and the game goes on.
  const restart = outage([oma.page, ben.page]);
  const stopping = server.stop();
  await ben.page.locator('#conn.conn-restarting').waitFor({ timeout: 10000 });
  assert.match(await ben.page.locator('#conn').textContent(), /Der Server startet neu/);
  await oma.page.locator('#conn.conn-restarting').waitFor({ timeout: 10000 });
  await screenshot(ben.page, 'restarting-phone.png');
  await screenshot(oma.page, 'restarting.png');
  await stopping;
  server = await startServer(['--data-dir', dataDir, '--port', port]);
  await ben.page.locator('#conn.conn-online').waitFor({ timeout: 30000 });
  await oma.page.locator('#conn.conn-online').waitFor({ timeout: 30000 });
  restart.end();

  while (!(await oma.page.getByTestId('results').count()) && Date.now() < deadline) await play([oma.page, ben.page], 20, deadline);
  await oma.page.getByTestId('results').waitFor({ timeout: 5000 });
  await ben.page.getByTestId('results').waitFor({ timeout: 5000 });

  // The record, downloaded as the link offers it, and checked by the replay tool.
  const link = oma.page.getByTestId('record');
  await link.waitFor();
  await screenshot(oma.page, 'results-record.png');
  await ben.page.getByTestId('record').scrollIntoViewIfNeeded();
  await ben.page.screenshot({ path: path.join(process.env.TINSEL_SCREENSHOT_DIR || 'build/screenshots', 'results-record-phone.png') });
  const [download] = await Promise.all([oma.page.waitForEvent('download'), link.click()]);
  const file = path.join(dataDir, 'record.json');
  await download.saveAs(file);
  const out = execFileSync(replayBinary, [file], { encoding: 'utf8' });
  assert.match(out, /^OK: happy_holidays/);
  assertNoPageErrors(oma.page, ben.page);
  console.log(`ok browser: restart (${((Date.now() - started) / 1000).toFixed(1)} s)`);
} catch (err) {
  console.error(`FAILED browser: restart: ${err.stack || err}`);
  process.exitCode = 1;
} finally {
  clearTimeout(watchdog);
  await browser?.close().catch(() => {});
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
