#!/usr/bin/env node
// The bot loop of clients/js/README.md ("A complete minimal client"), to the letter: this test
// takes the README's code block as it stands, points its URL at a real tinsel-server and its
// imports at this checkout (nothing else is changed), runs it, seats the reference bot with
// `tinsel-bot --join CODE` as the README says, and waits for the game's end.
//
// The README's loop keeps at most one action in flight and ignores states while one is. If the
// state an action caused reached the listener before the code after `await client.action(...)`
// had run (as with Node's `ws` before the library held messages after an answer), the loop
// would pass over its own next prompt and wait for the turn timer. So the test fails on any
// `timed_out` event the README client prints (every event is printed), and on the test's own
// deadline, which is shorter than a few turn timers of the README's room (mainTimeoutSec 60).
// Nothing here measures speed.
//
//   node readme_bot.test.mjs --server PATH --bot PATH
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs, start, startServer, within, fail } from '../support/processes.mjs';

const args = parseArgs(process.argv.slice(2));
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');

// The first ```js block after the heading "## A complete minimal client".
function readmeBot() {
  const readme = readFileSync(path.join(root, 'clients/js/README.md'), 'utf8');
  const at = readme.indexOf('## A complete minimal client');
  assert.ok(at >= 0, 'the README has no "A complete minimal client" section');
  const block = readme.slice(at).match(/```js\n([\s\S]*?)```/);
  assert.ok(block, 'the section has no js code block');
  return block[1];
}

async function main() {
  const all = [];
  try {
    const { proc: server, port } = await startServer(args.server);
    all.push(server);
    const url = `ws://127.0.0.1:${port}/ws`;

    // The README's code with three strings replaced: where the server is, where the library is,
    // where `ws` is (the program runs from a temporary folder without node_modules).
    let code = readmeBot();
    const replace = (from, to) => {
      assert.ok(code.includes(from), `the README's client no longer contains ${from}`);
      code = code.replaceAll(from, to);
    };
    replace("'ws://127.0.0.1:8080/ws'", JSON.stringify(url));
    replace("'./clients/js/index.js'", JSON.stringify(pathToFileURL(path.join(root, 'clients/js/index.js')).href));
    replace("from 'ws'", `from ${JSON.stringify(pathToFileURL(createRequire(import.meta.url).resolve('ws')).href)}`);
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'tinsel-readme-bot-')), 'readme-bot.mjs');
    writeFileSync(file, code);

    const client = start('README client', process.execPath, [file]);
    all.push(client);
    const [, room] = await within(10000, client.line(/^room (\w+): tinsel-bot --join \1$/), 'the README client to create a room');
    const bot = start('tinsel-bot', args.bot, ['--url', url, '--name', 'Ben', '--join', room, '--seed', '3', '--think-ms', '0']);
    all.push(bot);

    // A game of Happy Holidays for two against a bot that answers at once takes seconds; a single
    // missed prompt costs a 60 s turn timer and prints `timed_out`.
    const [, resultJson] = await within(100000, client.line(/^result (.*)$/), 'the README client to print the result');
    const exit = await within(10000, client.exited, 'the README client to exit after close()');
    assert.equal(exit.code, 0, 'the README client exits by itself once it has closed the session');

    const result = JSON.parse(resultJson);
    assert.equal(result.scores.length, 2);
    const kinds = client.lines.map((l) => l.split(' ')[0]);
    assert.ok(kinds.includes('rolled'), 'the game was played');
    assert.ok(!kinds.includes('timed_out'), `a turn timer fired: ${client.lines.find((l) => l.startsWith('timed_out'))}`);
    assert.ok(!client.lines.some((l) => l.startsWith('cannot start')), 'the README client could not start the game');
    // The README client acts on its prompts only, one action at a time: nothing it sends is refused.
    const refused = client.lines.filter((l) => l.startsWith('refused:'));
    assert.deepEqual(refused, [], 'the README client sent commands the server refused');
    console.log(`ok: the README client played a game to its end (${client.lines.filter((l) => l.startsWith('rolled')).length} rolls), no timer fired`);
    server.child.kill('SIGTERM');
    await within(10000, server.exited, 'the server to stop');
  } catch (e) {
    fail(e, all);
  }
}

await main();
