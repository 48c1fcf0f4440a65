// The browser client on a slow phone line: the first load arrives compressed (every script, style
// sheet and the page itself with Content-Encoding gzip), and a second visit revalidates from the
// cache and transfers under 5 % of the first besides the invite page (never cached: it says who
// sits where). Prints the bytes of both loads and how long the
// first takes at 400 kbit/s with 400 ms of latency (a slow 3G line): the figures the README quotes.
// Bytes and ratios are asserted; times are only printed. index.html's modulepreload list is
// checked against the modules the page really loads.
import assert from 'node:assert/strict';
import { assertNoPageErrors, newPlayer, run } from './lib.mjs';

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
