// Shared by the browser tests: a real tinsel-server on an ephemeral port, Debian's Chromium driven
// by playwright-core, and small helpers that act the way a person does (type, click, wait).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

export const serverBinary = process.env.TINSEL_SERVER_BINARY || 'build/server/tinsel-server';
export const chromiumPath = process.env.TINSEL_CHROMIUM || '/usr/bin/chromium';
export const screenshotDir = process.env.TINSEL_SCREENSHOT_DIR || 'build/screenshots';

// Starts tinsel-server with `--port 0` and resolves with its base URL once it listens.
export function startServer(extraArgs = []) {
  return new Promise((resolve, reject) => {
    const proc = spawn(serverBinary, ['--port', '0', '--log-level', 'info', '--data-dir', mkdtempSync(path.join(os.tmpdir(), 'tinsel-browser-')), ...extraArgs], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`server did not start:\n${out}`));
    }, 10000);
    const onData = (chunk) => {
      out += chunk;
      const m = /url=(http:\/\/[^\s]+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1].replace(/\/$/, ''), stop: () => stopProcess(proc), proc });
      }
    };
    proc.stdout.on('data', onData);
    proc.stderr.on('data', onData);
    proc.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${out}`)));
  });
}

function stopProcess(proc) {
  return new Promise((resolve) => {
    if (proc.exitCode !== null) return resolve();
    proc.once('exit', resolve);
    proc.kill('SIGTERM');
    setTimeout(() => proc.kill('SIGKILL'), 5000).unref();
  });
}

export async function launchBrowser() {
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
      '--disable-component-update', '--no-first-run', '--disable-features=Translate,MediaRouter'],
  });
}

// A new browser context (its own localStorage: a different person) with one page. Console errors
// and uncaught exceptions in the page fail the test.
// A person in a browser of their own. Further options go to the browser context
// (`reducedMotion: 'reduce'`, `hasTouch: true` for a phone); `init` is a function run in every
// page before its scripts (a test's counters).
export async function newPlayer(browser, name, { locale = 'en-GB', viewport = { width: 1280, height: 900 }, init, ...contextOptions } = {}) {
  const context = await browser.newContext({ locale, viewport, ...contextOptions });
  if (init) await context.addInitScript(init);
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (err) => page.errors.push(`${name}: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') page.errors.push(`${name}: console: ${msg.text()}`);
  });
  page.playerName = name;
  return { context, page, name };
}

export function assertNoPageErrors(...pages) {
  const errors = pages.flatMap((p) => p.errors);
  if (errors.length) throw new Error(`errors in the page:\n${errors.join('\n')}`);
}

// The two phone screens every screen must fit (issue 17): no sideways scroll on either.
export const phoneSizes = [{ width: 390, height: 844 }, { width: 360, height: 740 }];

// Fails when the page scrolls sideways at its current size: the document is wider than the
// window. `where` names the screen in the message, with the widest elements that stick out.
export async function assertNoSideScroll(page, where) {
  const r = await page.evaluate(() => {
    const width = window.innerWidth;
    const out = [];
    for (const el of document.querySelectorAll('body *')) {
      const b = el.getBoundingClientRect();
      if (b.right > width + 0.5 && b.width > 0) out.push({ el: el.tagName.toLowerCase() + (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\s+/).join('.') : ''), right: Math.round(b.right) });
    }
    out.sort((a, b) => b.right - a.right);
    return { scrollWidth: document.documentElement.scrollWidth, width, out: out.slice(0, 5) };
  });
  if (r.scrollWidth > r.width) {
    throw new Error(`${where}: the page scrolls sideways at ${r.width} px (scrollWidth ${r.scrollWidth}); sticking out: ${JSON.stringify(r.out)}`);
  }
}

// English words that must not appear on a German screen (names and game titles aside).
const englishWords = ['the', 'and', 'your', 'turn', 'player', 'players', 'seconds', 'points', 'room', 'game', 'waiting', 'start', 'settings'];

// Fails on text in the page that is a raw key ("hh.points"), "undefined", "NaN", "[object", an
// unfilled {placeholder}, or (on a German screen) an English word from the list above.
export async function assertCleanText(page, lang) {
  const text = await page.evaluate(() => document.body.innerText);
  const bad = [];
  for (const m of text.matchAll(/\b(undefined|NaN)\b|\[object|\{\w+\}|\b[a-z_]+\.[a-z_]+\.?[a-z_.]*\b/g)) {
    if (/^\w+\.(js|css|html|png|json)$/.test(m[0]) || /^\d/.test(m[0])) continue;
    bad.push(m[0]);
  }
  if (lang === 'de') {
    for (const w of englishWords) if (new RegExp(`\\b${w}\\b`, 'i').test(text)) bad.push(w);
  }
  if (bad.length) throw new Error(`text in the page that a family should not see: ${[...new Set(bad)].join(', ')}\n${text}`);
}

export async function screenshot(page, file) {
  mkdirSync(screenshotDir, { recursive: true });
  const target = path.join(screenshotDir, file);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: target, fullPage: false });
  console.log(`screenshot ${target}`);
}

// Sets an option in the create form, also a value the picker does not offer (short timers for a
// quick game): the select gets that value as an extra choice.
export async function setOption(page, name, value) {
  const el = page.locator(`#opt-${name}`);
  if (!(await el.isVisible())) await page.locator('.options summary').click();
  await el.evaluate((e, v) => {
    const json = JSON.stringify(v);
    if (e.tagName === 'SELECT') {
      if (![...e.options].some((o) => o.value === json)) e.add(new Option(json, json));
      e.value = json;
    } else {
      e.value = String(v);
    }
  }, value);
}

// Home page → name → pick game → (options) → create. Returns the room code shown in the lobby.
export async function createRoom(page, baseUrl, name, gameTitle, options = {}) {
  await page.goto(`${baseUrl}/`);
  await page.fill('#name', name);
  await page.getByRole('button', { name: new RegExp(gameTitle) }).click();
  for (const [opt, value] of Object.entries(options)) {
    const el = page.locator(`#opt-${opt}`);
    if (!(await el.isVisible())) await page.locator('.options summary').click();
    const tag = await el.evaluate((e) => e.tagName);
    if (tag === 'SELECT') await el.selectOption(JSON.stringify(value));
    else await el.fill(String(value));
  }
  await page.getByRole('button', { name: /Create the room/ }).click();
  const code = (await page.getByTestId('room-code').textContent()).trim();
  return code;
}

// Opens the invite link as a new visitor, types a name and sits down.
export async function joinByInvite(page, baseUrl, code, name) {
  await page.goto(`${baseUrl}/r/${code}`);
  await page.fill('#name', name);
  await page.locator('button[data-as="player"]').click(); // "Sit down and play", in any language
  await page.getByTestId('room-code').waitFor();
}

// Fail with a word 30 s before CTest's TIMEOUT (which tests/browser/CMakeLists.txt passes in as
// TINSEL_TEST_TIMEOUT_S) would kill the test silently. On a machine running many tests per core a
// whole game in Chromium can take several minutes; the margin is in the timeout, not in the steps.
export const watchdogMs = (Number(process.env.TINSEL_TEST_TIMEOUT_S) || 300) * 1000 - 30000;

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Runs `body` with a server (started with `serverArgs`) and a browser, always cleaning up; exits
// non-zero on failure.
export async function run(name, body, { serverArgs = [] } = {}) {
  const started = Date.now();
  let server;
  let browser;
  // Fail (and clean up) well before CTest's own timeout would kill the test without a word.
  const watchdog = setTimeout(() => {
    console.error(`FAILED ${name}: no result after ${watchdogMs / 1000} s`);
    server?.proc.kill('SIGKILL');
    process.exit(1);
  }, watchdogMs);
  watchdog.unref();
  try {
    server = await startServer(serverArgs);
    browser = await launchBrowser();
    await body({ server, browser, baseUrl: server.url });
    console.log(`ok ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  } catch (err) {
    console.error(`FAILED ${name}: ${err.stack || err}`);
    process.exitCode = 1;
  } finally {
    clearTimeout(watchdog);
    await browser?.close().catch(() => {});
    await server?.stop();
  }
}

// A TCP proxy in front of the server, so a test can cut every connection through it at once (a
// dropped Wi-Fi: the browser sees its WebSocket die without a close frame) and let new ones in.
export { startProxy } from '../support/proxy.mjs';

// Happy Holidays: clicks one offered action if it is this page's turn; returns true if it clicked.
export async function playOneStep(page) {
  const mine = await page.locator('.turn-bar.mine').count();
  if (!mine) return false;
  const buttons = page.locator('.actions button.action');
  const n = await buttons.count();
  if (!n) return false;
  // Prefer the highlighted choice (take a reindeer, roll), else a random one.
  const primary = page.locator('.actions button.action.primary');
  const target = (await primary.count()) ? primary.first() : buttons.nth(Math.floor(Math.random() * n));
  try {
    await target.click({ timeout: 1000 });
    return true;
  } catch {
    return false; // the screen changed under the click: look again
  }
}
