#!/usr/bin/env node
// The metrics port taken (docs/operations.md, "Metrics"): the server never runs without metrics
// silently.
//  - The default address (127.0.0.1:9464, no --metrics-bind) is best effort, so that a second
//    server on one machine still starts: with the port taken, the server starts, serves, and
//    says at warning level that metrics are off, where, why and what to do.
//  - An address the operator chose (--metrics-bind) must be bound: taken, the server does not
//    start (exit status 1) and says why, as for the public port.
// The test holds 127.0.0.1:9464 itself (waiting up to a minute while a server of another test run
// with defaults holds it; if it never comes free, the port is taken all the same).
//
//   node metrics_port_taken.test.mjs --server PATH
import assert from 'node:assert/strict';
import net from 'node:net';
import { parseArgs, start, startServer, within, fail } from '../support/processes.mjs';

const args = parseArgs(process.argv.slice(2));
const DEFAULT_PORT = 9464;

// Listens on 127.0.0.1:port; resolves with the server, or null when another process holds it.
function hold(port) {
  return new Promise((resolve, reject) => {
    const srv = net.createServer((socket) => socket.destroy());
    srv.once('error', (e) => (e.code === 'EADDRINUSE' ? resolve(null) : reject(e)));
    srv.listen(port, '127.0.0.1', () => resolve(srv));
  });
}

async function healthz(port) {
  const res = await fetch(`http://127.0.0.1:${port}/healthz`);
  return { status: res.status, body: await res.json() };
}

async function main() {
  const all = [];
  try {
    // Another test's server run with defaults may hold the port for a while: wait for it, so that
    // the port cannot come free between here and the server's start.
    let held = null;
    for (let tries = 0; !held && tries < 300; tries++) {
      held = await hold(DEFAULT_PORT);
      if (!held) await new Promise((r) => setTimeout(r, 200));
    }
    console.log(held ? `holding 127.0.0.1:${DEFAULT_PORT}` : `127.0.0.1:${DEFAULT_PORT} is held by another process`);

    // The default address, taken: the server starts and says that metrics are off.
    const { proc: server, port } = await startServer(args.server);
    all.push(server);
    const [warning] = await within(10000, server.line(/ warning metrics off: .*/), 'the warning that metrics are off');
    assert.match(warning, /cannot listen on 127\.0\.0\.1:9464 for metrics: Address already in use/);
    assert.match(warning, /--metrics-bind ADDR:PORT, or --metrics-bind off/, 'the warning says what to do');
    assert.ok(!server.lines.some((l) => l.includes('metrics listening')), 'no metrics listener was reported');
    const health = await healthz(port);
    assert.equal(health.status, 200);
    assert.equal(health.body.status, 'ok');
    server.child.kill('SIGTERM');
    await within(10000, server.exited, 'the server to stop');

    // The same address chosen with --metrics-bind: the server refuses to start.
    const chosen = start('server --metrics-bind', args.server,
                         ['--port', '0', '--journal', 'off', '--log-level', 'info', '--metrics-bind', `127.0.0.1:${DEFAULT_PORT}`]);
    all.push(chosen);
    const exit = await within(10000, chosen.exited, 'the server with a taken --metrics-bind to exit');
    assert.equal(exit.code, 1, 'a taken --metrics-bind address stops the start');
    const said = [...chosen.lines, ...chosen.stderr.split('\n')].join('\n');
    assert.match(said, /startup failed .*cannot listen on 127\.0\.0\.1:9464 for metrics: Address already in use/);
    assert.ok(!chosen.lines.some((l) => / listening url=/.test(l)), 'it never listened on its public port');
    held?.close();
    console.log('ok: a taken default metrics port is a warning, a taken chosen one stops the start');
  } catch (e) {
    fail(e, all);
  }
}

await main();
