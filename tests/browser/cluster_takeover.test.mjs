// Cluster mode as a family lives it (issue 29, "done when"): two people play Happy Holidays in two
// browsers through HAProxy in front of two tinsel-server instances on one PostgreSQL
// (tests/support/cluster.mjs). The instance that owns the room is killed with SIGKILL mid-game:
// both pages carry on by themselves, without a reload, on the other instance (the badge shows its
// usual "reconnecting" at most). The killed instance is started again, and the room's new owner is
// drained (SIGTERM): the pages follow the room_moved to the instance that takes it and the game
// goes on to its end, whose record tinsel-replay confirms (when the binary is there).
// Skipped (exit 77) without PostgreSQL 15 or HAProxy.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { requireTools, startCluster, waitFor } from '../support/cluster.mjs';
import { killAll } from '../support/processes.mjs';
import { assertNoPageErrors, createRoom, joinByInvite, launchBrowser, newPlayer, playOneStep, screenshot, serverBinary, sleep, watchdogMs } from './lib.mjs';

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

// While an instance is gone, Chromium itself logs the page's failed reconnect attempts
// ("WebSocket connection to … failed: …"): expected, not an error of the page. Only those lines,
// and only during the outage, are taken out of the pages' errors.
function outage(pages) {
  const before = pages.map((p) => p.errors.length);
  return {
    end() {
      pages.forEach((p, i) => {
        const during = p.errors.slice(before[i]).filter((e) => !/console: WebSocket connection to '.*' failed/.test(e));
        p.errors.splice(before[i], p.errors.length - before[i], ...during);
      });
    },
  };
}

requireTools();
const started = Date.now();
let cluster;
let browser;
const dir = mkdtempSync(path.join(os.tmpdir(), 'tinsel-takeover-'));
const watchdog = setTimeout(() => {
  console.error(`FAILED browser: cluster takeover: no result after ${watchdogMs / 1000} s`);
  cluster?.show();
  killAll();
  process.exit(1);
}, watchdogMs);
watchdog.unref();
try {
  cluster = await startCluster({ binary: serverBinary, instances: 2 });
  const baseUrl = cluster.http;
  browser = await launchBrowser();
  const oma = await newPlayer(browser, 'Oma');
  const ben = await newPlayer(browser, 'Ben', { locale: 'de-DE', viewport: { width: 390, height: 844 } });
  const pages = [oma.page, ben.page];
  const code = await createRoom(oma.page, baseUrl, 'Oma Inge', 'Happy Holidays', { maxPlayers: 2 });
  // Ben opens the invite link: its page and /rooms/CODE may come from the instance that does not
  // serve the room (HAProxy sends pages round robin), which shows the owner's summary from the
  // database; his first connection then carries the room, and room_moved is followed if need be.
  // Both instances describe the room (its owner from memory, the other from the database).
  for (const inst of cluster.instances.values()) {
    const res = await fetch(`http://127.0.0.1:${inst.port}/rooms/${code}`, { headers: { Host: 'localhost' } });
    assert.equal(res.status, 200, `${inst.id} answers /rooms/${code}`);
    const summary = await res.json();
    assert.equal(summary.game, 'happy_holidays', `${inst.id}: ${JSON.stringify(summary)}`);
    assert.equal(summary.host, 'Oma Inge', `${inst.id}: ${JSON.stringify(summary)}`);
  }
  await joinByInvite(ben.page, baseUrl, code, 'Ben');
  await oma.page.getByText('Ben', { exact: true }).waitFor();
  await oma.page.getByRole('button', { name: 'Start the game' }).click();
  for (const p of pages) await p.getByTestId('turn').waitFor();
  // A page that reloads loses this mark.
  for (const p of pages) await p.evaluate(() => { window.__sameDocument = true; });
  const deadline = Date.now() + 400000;
  assert.equal(await play(pages, 6, deadline), 6);

  // kill -9 of the owner: no close frame, no room_moved; the pages reconnect to /ws?room=CODE and
  // HAProxy sends them to the other instance, which claims the room from the database.
  const first = await cluster.roomOwner(code);
  assert.ok(first?.owner, `room ${code} has an owner`);
  const logBefore = await oma.page.getByTestId('log').locator('li').count();
  const crash = outage(pages);
  await cluster.kill(first.owner);
  // What the family sees while the dead owner's lease runs out (a few seconds).
  await sleep(1200);
  await screenshot(oma.page, 'cluster-during-takeover.png');
  await screenshot(ben.page, 'cluster-during-takeover-phone-de.png');
  await waitFor(60000, 'the other instance to take the room', async () => {
    const now = await cluster.roomOwner(code);
    return now?.owner && now.owner !== first.owner;
  });
  await waitFor(60000, 'both pages online again', async () => {
    const states = await Promise.all(pages.map((p) => p.locator('#conn').getAttribute('class')));
    return states.every((c) => /conn-online/.test(c));
  });
  crash.end();
  const second = await cluster.roomOwner(code);
  assert.notEqual(second.owner, first.owner, 'the room moved to the other instance');
  assert.ok(second.epoch > first.epoch, 'with a new epoch');
  await ben.page.locator('.hh-player strong', { hasText: 'Ben (du)' }).waitFor(); // back in his seat
  assert.ok((await oma.page.getByTestId('log').locator('li').count()) >= logBefore, 'the log is still there');
  assert.equal(await play(pages, 6, deadline), 6, 'the game goes on after the takeover');
  await screenshot(oma.page, 'cluster-after-kill.png');
  await screenshot(ben.page, 'cluster-after-kill-phone-de.png');
  console.log(`ok: ${first.owner} killed, the room went on on ${second.owner} (epoch ${second.epoch}) without a reload`);

  // The killed instance comes back; the new owner is drained: its pages get room_moved and 4002,
  // follow it, and the game goes on.
  await cluster.startInstance(first.owner);
  await cluster.waitServerState(first.owner, 'UP');
  const drain = outage(pages);
  const exited = cluster.terminate(second.owner);
  await waitFor(60000, 'the drained room to be taken', async () => (await cluster.roomOwner(code))?.owner === first.owner);
  const exit = await exited;
  assert.equal(exit.code, 0, `${second.owner} exits 0 after the drain`);
  await waitFor(60000, 'both pages online after the drain', async () => {
    const states = await Promise.all(pages.map((p) => p.locator('#conn').getAttribute('class')));
    return states.every((c) => /conn-online/.test(c));
  });
  drain.end();
  assert.equal(await play(pages, 4, deadline), 4, 'the game goes on after the drain');
  console.log(`ok: ${second.owner} drained, the pages followed the room to ${first.owner}`);

  while (!(await oma.page.getByTestId('results').count()) && Date.now() < deadline) await play(pages, 20, deadline);
  for (const p of pages) await p.getByTestId('results').waitFor({ timeout: 10000 });
  for (const p of pages) assert.equal(await p.evaluate(() => window.__sameDocument), true, 'the page was never reloaded');
  await screenshot(oma.page, 'cluster-results.png');
  await screenshot(ben.page, 'cluster-results-phone-de.png');

  if (existsSync(replayBinary)) {
    const link = oma.page.getByTestId('record');
    await link.waitFor();
    const [download] = await Promise.all([oma.page.waitForEvent('download'), link.click()]);
    const file = path.join(dir, 'record.json');
    await download.saveAs(file);
    assert.match(execFileSync(replayBinary, [file], { encoding: 'utf8' }), /^OK: happy_holidays/);
    console.log('ok: the record of the game is confirmed by tinsel-replay');
  }
  assertNoPageErrors(...pages);
  console.log(`ok browser: cluster takeover (${((Date.now() - started) / 1000).toFixed(1)} s)`);
} catch (err) {
  console.error(`FAILED browser: cluster takeover: ${err.stack || err}`);
  cluster?.show();
  process.exitCode = 1;
} finally {
  clearTimeout(watchdog);
  await browser?.close().catch(() => {});
  cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
}
