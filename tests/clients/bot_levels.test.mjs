#!/usr/bin/env node
// A computer player's level through the client library against the real server (issue 31):
// addBot('gentle') and addBot() (fair) show as seats[].bot_level, an unknown level is refused with
// invalid_field and adds nobody, the levels stay for the next game (setGame), and after kill -9 the
// restarted server brings the room back with them (the journal keeps the level).
//
//   node bot_levels.test.mjs --server PATH
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { TinselClient } from '../../clients/js/index.js';
import { parseArgs, startServer, killAll, within, show } from '../support/processes.mjs';

const args = parseArgs(process.argv.slice(2));

// The first room push from now on for which `test(room)` holds.
function roomWhere(client, test) {
  return new Promise((resolve) => {
    const off = client.on('room', (room) => {
      if (test(room)) {
        off();
        resolve(room);
      }
    });
  });
}
const levels = (room) => room.seats.map((s) => (s.status === 'empty' ? '' : s.status === 'bot' ? s.bot_level ?? 'missing' : '-'));
const bots = (room) => room.seats.filter((s) => s.status === 'bot').length;

let first = await startServer(args.server);
let second = null;
try {
  const url = `ws://127.0.0.1:${first.port}/ws`;
  const host = new TinselClient({ url, name: 'Oma Inge', WebSocket });
  await host.connect();
  const code = (await host.createRoom('unterm_baum', { maxPlayers: 4 })).room;
  const gentle = roomWhere(host, (r) => bots(r) === 1);
  await host.addBot('gentle');
  assert.deepEqual(levels(await within(10000, gentle, 'the gentle bot')), ['-', 'gentle', '', '']);
  for (const bad of ['cruel', 'Gentle', 1, {}]) {
    await assert.rejects(host.request({ type: 'add_bot', level: bad }), (e) => e.code === 'invalid_field' && e.message.length > 0,
      `level ${JSON.stringify(bad)}`);
  }
  const fair = roomWhere(host, (r) => bots(r) === 2);
  await host.addBot();
  assert.deepEqual(levels(await within(10000, fair, 'the fair bot')), ['-', 'gentle', 'fair', ''],
    'the refused levels added nobody; without a level the bot is fair');
  const next = roomWhere(host, (r) => r.game === 'happy_holidays');
  await host.setGame('happy_holidays', { maxPlayers: 3, giftsPerColour: 5 });
  assert.deepEqual(levels(await within(10000, next, 'the next game')),
    ['-', 'gentle', 'fair'], 'the next game keeps the bots and their levels');

  first.proc.child.kill('SIGKILL');
  await first.proc.exited;
  host.close();
  second = await startServer(args.server, [], { dataDir: first.dataDir });
  const uncle = new TinselClient({ url: `ws://127.0.0.1:${second.port}/ws`, name: 'Onkel Tom', WebSocket });
  await uncle.connect();
  const back = roomWhere(uncle, (r) => r.code === code);
  await uncle.joinRoom(code, { as: 'spectator' });
  await within(10000, back, 'the room after the restart');
  const room = await back;
  assert.equal(room.game, 'happy_holidays');
  assert.deepEqual(levels(room), ['-', 'gentle', 'fair'], 'the levels survive kill -9');
  uncle.close();
  console.log('ok: levels shown, refused, kept for the next game and after kill -9');
  killAll();
  process.exit(0);
} catch (e) {
  console.log(`FAILED: ${e.stack}`);
  show(first.proc);
  if (second) show(second.proc);
  killAll();
  process.exit(1);
}
