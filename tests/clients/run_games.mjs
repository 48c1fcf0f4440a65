#!/usr/bin/env node
// Plays complete games through a real tinsel-server with clients that know only the protocol:
// the reference bot (clients/bot) against itself, and the Node.js example clients against the bot.
//
//   node run_games.mjs --server PATH --bot PATH --game GAME --players N [--games N] [--add-bots N]
//                      [--options JSON] [--first-seat-pick] [--stop-chance P]
//   node run_games.mjs --server PATH --bot PATH --example PATH/happy-holidays.mjs [--expect-output REGEX]…
//                      [--example-adds-bot] [--attempts N]
//   … [--think-ms MS] [--drop-at-ms T1,T2,…] [--expect-events KIND,…] [--log-dir DIR] [--show-logs]
//
// An example (clients/examples) creates a room for two and prints `room CODE`, a `Final scores:` line
// and `result {json}`; --expect-output names a line it must also have printed (e.g. a "Stop!"); it
// may be given several times, and every one must match a line. With --example-adds-bot the example
// seats a server bot itself (add_bot) and no reference bot joins. Some lines need a situation that
// the dice may not bring in one game (a rearrange is needless when every card lands in its wished
// cell at once, about one game in sixty): --attempts N plays up to N games, each in a new room on the
// same server, until every expected line has been printed (in any of them); every game must pass
// every other check.
// --drop-at-ms puts a TCP proxy between the clients and the server that cuts every connection
// T ms after the game has started: the bots must resume their seats (token + last_seq) and finish.
//
// Starts the server on a free port, starts the clients, waits for them (with a deadline), and
// checks that every client exited 0 and printed the result of every game with one score per
// player. The server and every client are killed on the way out, whatever happens.
import { writeFileSync } from 'node:fs';
import { parseArgs, start, startServer, within, show, fail } from '../support/processes.mjs';
import { startProxy } from '../support/proxy.mjs';

const args = parseArgs(process.argv.slice(2));
const DEADLINE_MS = Number(args['deadline-ms'] ?? 90000);
function check(condition, message) {
  if (!condition) throw new Error(message);
}

// Every `result {json}` line of a client: one per game, each with one score per player.
function results(proc, players, games) {
  const found = proc.lines.filter((l) => l.startsWith('result ')).map((l) => JSON.parse(l.slice(7)));
  check(found.length === games, `${proc.name} printed ${found.length} results, expected ${games}`);
  for (const r of found) {
    check(Array.isArray(r.scores) && r.scores.length === players, `${proc.name}: ${r.scores?.length} scores, expected ${players}`);
    check(Array.isArray(r.winners) && typeof r.seed === 'string', `${proc.name}: result without winners or seed`);
  }
  return found;
}

// One game (or --games N of the bots): starts the clients, waits for them, checks what they printed.
async function playOnce({ url, proxy, drops, bot, all }) {
  let clients;
  let players;
  let games = 1;
  if (args.example) {
    players = 2;
    const example = start('example', process.execPath, [args.example, url, 'Example']);
    const [, code] = await within(10000, example.line(/^room (\w+)$/), 'the example to create a room');
    clients = args['example-adds-bot'] ? [example] : [example, bot('Bot Ben', ['--join', code, '--seed', '7'])];
  } else {
    players = Number(args.players);
    games = Number(args.games ?? 1);
    const addBots = Number(args['add-bots'] ?? 0);
    const common = ['--games', String(games), '--stop-chance', String(args['stop-chance'] ?? 0.05)];
    const host = bot('Bot Anna', ['--create', args.game, '--options', args.options ?? '{}',
      '--wait-players', String(players), '--add-bots', String(addBots), '--seed', '1', ...common]);
    all.push(host);
    const [, code] = await within(10000, host.line(/^room (\w+)$/), 'the host bot to create a room');
    clients = [host];
    for (let i = 1; i < players - addBots; i++) {
      // The code is typed the way people do: lower case, with a dash.
      const typed = `${code.slice(0, 3)}-${code.slice(3)}`.toLowerCase();
      clients.push(bot(`Bot ${i + 1}`, ['--join', typed, '--seed', String(i + 1), ...common]));
    }
  }
  for (const c of clients) if (!all.includes(c)) all.push(c);
  if (proxy) {
    // The host bot logs when its room starts playing.
    await within(10000, new Promise((resolve) => {
      const poll = setInterval(() => { if (/ is playing/.test(clients[0].stderr)) { clearInterval(poll); resolve(); } }, 20);
    }), 'the game to start');
    const t = Date.now();
    for (const at of drops) {
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, t + at - Date.now())));
      const live = clients.filter((c) => c.exit === null).length;
      console.log(`cut ${proxy.cut()} connections at +${at} ms (${live} clients running)`);
    }
  }

  await within(DEADLINE_MS, Promise.all(clients.map((c) => c.exited)), 'the games to finish');
  for (const c of clients) check(c.exit.code === 0, `${c.name} exited with ${JSON.stringify(c.exit)}`);
  const seen = clients.map((c) => results(c, players, games));
  // Everybody saw the same games end the same way.
  for (const r of seen.slice(1)) check(JSON.stringify(r) === JSON.stringify(seen[0]), 'the clients disagree on the results');
  // The bots send only `legal` entries: a refusal other than a lost race is a bug somewhere.
  for (const c of clients) {
    const refused = c.stderr.split('\n').find((l) => l.includes('the server refused'));
    check(!refused, `${c.name}: ${refused}`);
  }
  // Events that must have happened (read from the host bot's log), e.g. stop_claimed.
  for (const kind of args['expect-events'] ? String(args['expect-events']).split(',') : []) {
    check(new RegExp(`^\\[[^\\]]+\\] #\\d+ ${kind}( |$)`, 'm').test(clients[0].stderr), `no ${kind} event in the game`);
  }
  if (args.example) check(clients[0].lines.some((l) => l.startsWith('Final scores:')), 'the example printed no final scores');
  return { seen, games, players, clients };
}

async function main() {
  const t0 = Date.now();
  const all = [];
  try {
    const { proc: server, port } = await startServer(args.server, ['--auto-play-delay-ms', '20']);
    all.push(server);
    const drops = args['drop-at-ms'] ? String(args['drop-at-ms']).split(',').map(Number) : [];
    const proxy = drops.length ? await startProxy(port) : null;
    const url = `ws://127.0.0.1:${proxy ? proxy.port : port}/ws`;
    const bot = (name, extra) =>
      start(name, args.bot, ['--url', url, '--name', name, '--think-ms', String(args['think-ms'] ?? 0), ...extra]);

    const wanted = [];
    const argv = process.argv.slice(2); // parseArgs keeps only the last one of a repeated flag
    for (let i = 0; i < argv.length - 1; i++) if (argv[i] === '--expect-output') wanted.push(new RegExp(argv[i + 1]));
    const attempts = args.example ? Number(args.attempts ?? 1) : 1;
    let seen;
    let games = 1;
    let players;
    let clients;
    let attempt = 1;
    const printed = [];
    for (;; attempt++) {
      ({ seen, games, players, clients } = await playOnce({ url, proxy, drops, bot, all }));
      printed.push(...clients[0].lines);
      const missing = wanted.filter((want) => !printed.some((l) => want.test(l)));
      if (!missing.length) break;
      check(attempt < attempts, `the example printed no line matching ${missing.join(', ')}${attempts > 1 ? ` in ${attempts} games` : ''}`);
      console.log(`game ${attempt}: no line matching ${missing.join(', ')} yet; another game`);
    }
    if (proxy) {
      proxy.close();
      const resumed = clients.map((c) => (c.stderr.match(/resumed as /g) ?? []).length);
      console.log(`resumed sessions per client: ${resumed.join(', ')}`);
      check(resumed.some((n) => n > 0), 'no client resumed its session');
    }

    server.child.kill('SIGTERM');
    await within(10000, server.exited, 'the server to stop');
    if (args['show-logs']) for (const p of all) show(p);
    if (args['log-dir']) for (const p of all) writeFileSync(`${args['log-dir']}/${p.name.replaceAll(' ', '_')}.log`, `${p.lines.join('\n')}\n${p.stderr}`);
    for (const r of seen[0]) console.log(`result scores=${JSON.stringify(r.scores)} winners=${JSON.stringify(r.winners)} reason=${r.reason}`);
    console.log(`ok: ${games} game(s) of ${players} players${attempt > 1 ? ` (the last of ${attempt} tries)` : ''} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  } catch (e) {
    fail(e, all);
  }
}

await main();
