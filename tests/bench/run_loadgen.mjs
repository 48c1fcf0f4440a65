#!/usr/bin/env node
// Runs tinsel-loadgen for a few seconds against a real server and fails on any error or refusal it
// reports, never on its speed: the figures are printed, not judged.
//
//   node run_loadgen.mjs --server PATH --loadgen PATH --game GAME [--rooms 4] [--players 4]
//                        [--seconds 3] [--min-games N] [--options JSON]
//                        [--record-sizes FILE]
//   node run_loadgen.mjs --echo PATH --loadgen PATH [--rooms 4] [--players 4] [--seconds 3] [--sizes FILE]
//   node run_loadgen.mjs --server PATH --loadgen PATH --idle N [--players 4]
//
// Starts the server (tinsel-server on a free port with the journal off, rate and per-address limits
// lifted; or tinsel-echo), runs tinsel-loadgen with --json --pid, and checks its exit status and
// its JSON line. Both processes are killed on the way out, whatever happens.
import fs from 'node:fs';
import { parseArgs, start, killAll, within, show } from '../support/processes.mjs';

const args = parseArgs(process.argv.slice(2));
// Generous: a busy CI machine is slow, and no check below depends on speed.
const DEADLINE_MS = 170000;

function check(condition, message) {
  if (!condition) throw new Error(message);
}

async function main() {
  const procs = [];
  try {
    let server;
    let url;
    if (args.echo) {
      server = start('tinsel-echo', args.echo, ['--port', '0'], { scanStderr: true });
      procs.push(server);
      const [, port] = await within(30000, server.line(/listening port=(\d+)/), 'tinsel-echo to listen');
      url = `ws://127.0.0.1:${port}/ws`;
    } else {
      server = start('tinsel-server', args.server, [
        '--port', '0', '--log-level', 'info', '--journal', 'off', '--metrics-bind', 'off', '--threads', '1',
        '--max-connections', '20000', '--max-connections-per-address', '20000',
        '--rooms-per-address-per-minute', '100000', '--live-rooms-per-address', '100000',
        '--identities-per-address', '100000', '--rate-per-sec', '100000', '--rate-burst', '100000',
        '--max-tcp-connections-per-address', '100000', '--connections-per-address-per-sec', '100000',
        '--connection-burst-per-address', '100000',
      ], { scanStderr: true });
      procs.push(server);
      const [, port] = await within(30000, server.line(/listening url=http:\/\/127\.0\.0\.1:(\d+)\//), 'tinsel-server to listen');
      url = `ws://127.0.0.1:${port}/ws`;
    }

    const lgArgs = ['--url', url, '--pid', String(server.child.pid), '--json', '--seed', '7'];
    if (args.idle) {
      lgArgs.push('--idle', String(args.idle), '--players', String(args.players ?? 4), '--settle', '1');
    } else {
      lgArgs.push('--rooms', String(args.rooms ?? 4), '--players', String(args.players ?? 4),
                  '--seconds', String(args.seconds ?? 3), '--warmup', '0.5');
      if (args.echo) lgArgs.push('--echo');
      else lgArgs.push('--game', args.game);
      if (args['min-games']) lgArgs.push('--min-games', String(args['min-games']));
      if (args.options) lgArgs.push('--options', args.options);
      if (args['record-sizes']) {
        fs.rmSync(args['record-sizes'], { force: true });
        lgArgs.push('--record-sizes', args['record-sizes']);
      }
      if (args.sizes) lgArgs.push('--sizes', args.sizes);
    }
    const lg = start('tinsel-loadgen', args.loadgen, lgArgs);
    procs.push(lg);
    await within(DEADLINE_MS, lg.exited, 'tinsel-loadgen to finish');
    console.log(lg.lines.filter((l) => !l.startsWith('{')).join('\n'));

    check(server.exit === null, `the server exited during the run: ${JSON.stringify(server.exit)}`);
    const jsonLine = lg.lines.find((l) => l.startsWith('{'));
    check(jsonLine, `tinsel-loadgen printed no JSON line (exit ${JSON.stringify(lg.exit)})`);
    const r = JSON.parse(jsonLine);
    check(r.errors === 0, `tinsel-loadgen counted ${r.errors} error(s):\n${lg.stderr}`);
    check(r.refusals === 0, `tinsel-loadgen counted ${r.refusals} refusal(s):\n${lg.stderr}`);
    check(lg.exit.code === 0, `tinsel-loadgen exited with ${JSON.stringify(lg.exit)}:\n${lg.stderr}`);
    if (args.idle) {
      check(r.connections === Number(args.idle), `${r.connections} of ${args.idle} connections were open`);
      check(typeof r.server_rss_kb_before === 'number' && typeof r.server_rss_kb_after === 'number' &&
            typeof r.rss_kb_per_connection === 'number', `no RSS figures: ${jsonLine}`);
    } else {
      // One move in a window of seconds, from rooms that are all set up before it opens: a check
      // that the loop works, not of speed.
      check(r.moves > 0 && r.samples === r.moves, `no moves measured: ${jsonLine}`);
      check(r.frames_per_move >= r.players, `fewer frames per move (${r.frames_per_move}) than players: every member gets every state`);
      if (args['min-games']) check(r.games >= Number(args['min-games']), `${r.games} games finished, expected ${args['min-games']}`);
    }
    if (args.echo) {
      // Tinsel sends P states and the sender's ok per move; the echo the same P + 1 frames.
      check(Math.abs(r.frames_per_move - (r.players + 1)) < 0.01, `${r.frames_per_move} frames per move, not players + 1 (the ok and P echoes)`);
    }
    if (args['record-sizes']) {
      const sizes = fs.readFileSync(args['record-sizes'], 'utf8').trim().split('\n');
      check(sizes.length > 0 && sizes.every((l) => /^[1-9][0-9]*$/.test(l)), `--record-sizes wrote no sizes, or not one positive number a line`);
      // Every state is a JSON object of a few hundred bytes at least; the mean over the file is
      // about the payload a client receives per move.
      const mean = sizes.reduce((a, b) => a + Number(b), 0) / sizes.length;
      check(mean > 100 && mean <= r.payload_bytes_per_move_per_client * 2, `recorded sizes average ${mean} bytes, received ${r.payload_bytes_per_move_per_client} per move and client`);
    }
    if (args.sizes) {
      // Every member receives frames of the recorded sizes: the payload per move and client is at
      // least the smallest of them (plus the ok's share), at most the largest.
      const sizes = fs.readFileSync(args.sizes, 'utf8').trim().split('\n').map(Number);
      const least = Math.min(...sizes), most = Math.max(...sizes);
      check(r.payload_bytes_per_move_per_client >= least && r.payload_bytes_per_move_per_client <= most + 30,
            `${r.payload_bytes_per_move_per_client} bytes per move and client, outside the recorded sizes ${least}..${most}`);
    }
    server.child.kill('SIGTERM');
    await within(30000, server.exited, 'the server to stop');
    console.log(`ok: ${jsonLine}`);
  } catch (e) {
    console.log(`FAILED: ${e.message}`);
    for (const p of procs) show(p, 40);
    killAll();
    process.exit(1);
  }
}

await main();
