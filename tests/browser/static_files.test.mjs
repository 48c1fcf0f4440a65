// The browser client on a slow phone line: the first load arrives compressed (every script, style
// sheet and the page itself with Content-Encoding gzip), and a second visit revalidates from the
// cache and transfers under 5 % of the first besides the invite page (never cached: it says who
// sits where). Prints the bytes of both loads and how long the
// first takes at 400 kbit/s with 400 ms of latency (a slow 3G line): the figures the README quotes.
// Bytes and ratios are asserted; times are only printed. index.html's modulepreload list is
// checked against the modules the page really loads.
import assert from 'node:assert/strict';
import { assertCleanText, assertNoPageErrors, createRoom, newPlayer, playOneStep, run, screenshot, sleep } from './lib.mjs';

// Loads `url` in `page` and sums what crossed the network (bytes as received, headers included).
async function load(page, cdp, url) {
  const responses = new Map();
  let bytes = 0;
  const onResponse = (e) => responses.set(e.requestId, { url: e.response.url, status: e.response.status, encoding: (e.response.headers['content-encoding'] || e.response.headers['Content-Encoding'] || ''), type: e.type, fromCache: e.response.fromDiskCache || e.response.fromMemoryCache });
  const onFinished = (e) => {
    bytes += e.encodedDataLength;
    const r = responses.get(e.requestId);
    if (r) r.bytes = e.encodedDataLength;
  };
  cdp.on('Network.responseReceived', onResponse);
  cdp.on('Network.loadingFinished', onFinished);
  const started = Date.now();
  await page.goto(url, { waitUntil: 'networkidle' });
  // A code that names no room: the page says so (and asks for no name); it loads the same files.
  await page.locator('#name, [data-testid="invite-gone"]').first().waitFor();
  const ms = Date.now() - started;
  cdp.off('Network.responseReceived', onResponse);
  cdp.off('Network.loadingFinished', onFinished);
  return { bytes, ms, responses: [...responses.values()].filter((r) => !r.url.includes('/ws')) };
}

await run('browser: static files compressed, a second visit transfers next to nothing', async ({ browser, baseUrl }) => {
  const { page } = await newPlayer(browser, 'Oma');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  // A slow 3G line: 400 kbit/s down, 400 kbit/s up, 400 ms round trip.
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 400, downloadThroughput: 50000, uploadThroughput: 50000 });

  // The invite link, opened twice: the second time everything is revalidated from the cache.
  const first = await load(page, cdp, `${baseUrl}/r/ABC234`);
  console.log(`first load: ${first.bytes} bytes in ${first.responses.length} responses, ${first.ms} ms at 400 kbit/s + 400 ms RTT`);
  const text = first.responses.filter((r) => /\.(js|css)$|\/$/.test(new URL(r.url).pathname));
  assert.ok(text.length >= 5, `the page loads its scripts and styles (${text.length})`);
  for (const r of text) assert.equal(r.encoding, "gzip", `${r.url} is sent compressed: ${JSON.stringify(r)}`);

  // index.html preloads every module the page imports, and nothing else (a stale list would bring
  // the import-by-import waterfall back, or fetch a file for nothing).
  const loadedJs = new Set(first.responses.map((r) => new URL(r.url).pathname).filter((p) => p.endsWith('.js')));
  const preloaded = new Set(await page.$$eval('link[rel=modulepreload]', (ls) => ls.map((l) => new URL(l.href).pathname)));
  assert.deepEqual([...preloaded].sort(), [...loadedJs].sort(), 'index.html preloads exactly the modules the page loads');

  const second = await load(page, cdp, `${baseUrl}/r/ABC234`);
  const ratio = second.bytes / first.bytes;
  console.log(`second load: ${second.bytes} bytes (${(100 * ratio).toFixed(1)} % of the first), ${second.ms} ms; statuses ${second.responses.map((r) => r.status).join(' ')}`);
  // The invite page itself says who sits where now, so it is never cached (no-store, about 1.4 KB
  // compressed every time); everything it loads is revalidated with a 304.
  const page2 = second.responses.find((r) => r.type === 'Document');
  assert.ok(page2 && page2.encoding === 'gzip' && page2.bytes < 2500, `the invite page is sent again, compressed: ${JSON.stringify(page2)}`);
  const rest = (second.bytes - page2.bytes) / first.bytes;
  assert.ok(rest < 0.05, `a second visit transfers under 5 % of the first besides the page (${(100 * rest).toFixed(1)} %)`);
  assertNoPageErrors(page);
});

// Each game's board and each rules sheet is loaded when it is needed: the invite page of a Happy
// Holidays room fetches that board (while the guest reads and types) and no other game's, and no
// rules sheet; a board that is late when the game starts is announced ("Loading the board…") and
// drawn when it arrives; the home page fetches no board, and a rules sheet brings its game's
// pictures when it is opened.
await run('browser: a page loads only the boards it needs, when it needs them', async ({ browser, baseUrl }) => {
  const boardsAndSheets = (paths) => paths.filter((p) => /^\/js\/(games\/(?!catalogue)|rules\/)/.test(p)).sort();
  const track = (page) => {
    const fetched = [];
    page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
    return fetched;
  };
  const oma = await newPlayer(browser, 'Oma');
  const code = await createRoom(oma.page, baseUrl, 'Oma Inge', 'Happy Holidays');

  // Ben's line is so slow that the board only comes after the game has started.
  const ben = await newPlayer(browser, 'Ben', { locale: 'de-DE' });
  const benFetched = track(ben.page);
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  await ben.page.route('**/js/games/happy_holidays.js', async (route) => {
    await held;
    await route.continue();
  });
  const boardAsked = ben.page.waitForRequest((r) => new URL(r.url()).pathname === '/js/games/happy_holidays.js');
  await ben.page.goto(`${baseUrl}/r/${code}`);
  await ben.page.getByTestId('invite-heading').waitFor();
  await boardAsked; // as soon as the page knows the room, before a name is typed
  assert.deepEqual(boardsAndSheets(benFetched), ['/js/games/happy_holidays.js'], 'the invite page of a Happy Holidays room fetches its board and nothing of the other games');
  await ben.page.fill('#name', 'Ben');
  await ben.page.locator('button[data-as="player"]').click();
  await ben.page.getByTestId('room-code').waitFor();
  await oma.page.locator('ul.seats').getByText('Ben', { exact: true }).waitFor();
  await oma.page.getByRole('button', { name: 'Start the game' }).click();
  await oma.page.locator('#screen .board-wrap').waitFor();
  // No blank screen while the board is on its way: the page says so, in Ben's language.
  await ben.page.getByTestId('board-loading').getByText('Das Spielbrett wird geladen…').waitFor();
  assert.equal(await ben.page.locator('#screen .board-wrap').count(), 0);
  await screenshot(ben.page, 'board-loading-de.png');
  release();
  await ben.page.locator('#screen .board-wrap').waitFor();
  await ben.page.getByTestId('turn').waitFor();
  // The game goes on: one step by whoever is on turn, and Ben's log words it (its words came with the board).
  for (let tries = 0; !(await playOneStep(oma.page)) && !(await playOneStep(ben.page)); tries++) {
    assert.ok(tries < 300, 'someone is offered a move');
    await sleep(200);
  }
  await ben.page.getByTestId('log').locator('li').nth(1).waitFor();
  await assertCleanText(ben.page, 'de');
  assert.equal(await ben.page.getByTestId('board-loading').count(), 0);
  // The board came with its art and words, and nothing of another game.
  const hhBoard = ['/js/games/happy_holidays.js', '/js/games/hh_art.js', '/js/games/hh_texts.js'];
  assert.deepEqual(boardsAndSheets(benFetched), hhBoard, 'the game fetched no other board');

  // The home page: no board at all until a rules sheet is opened, which brings its pictures.
  const eva = await newPlayer(browser, 'Eva');
  const evaFetched = track(eva.page);
  await eva.page.goto(`${baseUrl}/`);
  await eva.page.locator('[data-help="christmas_penguins"]').waitFor();
  assert.deepEqual(boardsAndSheets(evaFetched), [], 'the home page fetches no board and no rules sheet');
  // On a slow line the button shows an hourglass until the sheet is there, then the sheet opens whole.
  let releaseSheet;
  const sheetHeld = new Promise((resolve) => { releaseSheet = resolve; });
  await eva.page.route('**/js/rules/christmas_penguins.js', async (route) => {
    await sheetHeld;
    await route.continue();
  });
  const button = eva.page.locator('[data-help="christmas_penguins"]');
  await button.click();
  await eva.page.locator('[data-help="christmas_penguins"][aria-busy="true"]').getByText('⏳').waitFor();
  const sheet = eva.page.locator('#help-sheet');
  assert.equal(await sheet.count(), 0, 'no empty sheet while it loads');
  releaseSheet();
  await sheet.waitFor();
  assert.equal(await button.getAttribute('aria-busy'), null);
  assert.ok((await sheet.locator('.rs-pieces .rs-pic svg').count()) >= 4, 'the Christmas Penguins sheet shows the pieces');
  // (A sheet needs the game's pictures, not its board.)
  assert.deepEqual(boardsAndSheets(evaFetched), ['/js/games/cp_art.js', '/js/rules/christmas_penguins.js']);
  await eva.page.keyboard.press('Escape');
  await sheet.waitFor({ state: 'hidden' });
  await eva.page.locator('[data-help="unterm_baum"]').click();
  await sheet.locator('#help-title').getByText('Unterm Baum').waitFor();
  assert.ok((await sheet.locator('.rs-pieces .rs-pic svg').count()) >= 3, 'the Unterm Baum sheet shows the cards');
  // (Unterm Baum's sheet needs only the card pictures, not the board that lays them out.)
  assert.deepEqual(boardsAndSheets(evaFetched), ['/js/games/cp_art.js', '/js/games/ub_motifs.js',
    '/js/rules/christmas_penguins.js', '/js/rules/unterm_baum.js']);
  assertNoPageErrors(oma.page, ben.page, eva.page);
});

// The page's one outside library, morphdom, is served from clients/web/vendor as npm ships it:
// the same bytes as the package package.json pins (npm ci installs it), with its licence beside it.
{
  const { readFile } = await import('node:fs/promises');
  const root = new URL('../../', import.meta.url);
  const served = await readFile(new URL('clients/web/vendor/morphdom/morphdom-esm.js', root));
  const npm = await readFile(new URL('node_modules/morphdom/dist/morphdom-esm.js', root));
  assert.ok(served.equals(npm), 'clients/web/vendor/morphdom/morphdom-esm.js equals node_modules/morphdom/dist/morphdom-esm.js');
  assert.match(await readFile(new URL('clients/web/vendor/morphdom/LICENSE', root), 'utf8'), /MIT License/);
  console.log('ok the vendored morphdom is the npm package, unchanged');
}
