// A TCP relay in front of a server whose connections can all be cut at once: a dropped Wi-Fi, as
// the client sees it (its WebSocket dies without a close frame), while new connections still get
// through. Or frozen: nothing is forwarded any more in either direction and nothing is closed (a
// machine that vanished, a NAT that forgot the mapping), so only a silence timer can tell. Used by
// tests/clients (the bots and the client library) and tests/browser.
import net from 'node:net';

// `target`: a port on 127.0.0.1, or a URL (http://host:port/…) whose host and port are used.
export async function startProxy(target) {
  const { hostname, port } = typeof target === 'number' ? { hostname: '127.0.0.1', port: target } : new URL(target);
  const open = new Set();
  let down = false;
  const server = net.createServer((client) => {
    if (down) {
      client.destroy(); // the network is down: the connection fails at once
      return;
    }
    const upstream = net.connect(Number(port), hostname);
    const pair = [client, upstream];
    open.add(pair);
    const end = () => {
      open.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    pair.freeze = () => {
      if (pair.frozen) return false;
      pair.frozen = true;
      client.unpipe(upstream);
      upstream.unpipe(client);
      client.pause();
      upstream.pause();
      return true;
    };
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref(); // never keeps a failed test alive
  const own = server.address().port;
  return {
    port: own,
    url: `http://127.0.0.1:${own}`,
    // Cuts every open connection; returns how many there were.
    cut() {
      const n = open.size;
      for (const [a, b] of [...open]) {
        a.destroy();
        b.destroy();
      }
      return n;
    },
    // Freezes every open connection: from now on nothing passes in either direction, and
    // neither side is told (the sockets stay open until an end closes its own). New connections
    // still get through. A frozen connection stays in the list (nobody reads its end), so it is
    // closed by cut() or close(). Returns how many were frozen now (not those frozen before).
    freeze() {
      return [...open].filter((pair) => pair.freeze()).length;
    },
    // How many connections are open (frozen ones included).
    get connections() {
      return open.size;
    },
    // While down, new connections are refused (cut at once) too.
    setDown(value) {
      down = value;
      if (down) this.cut();
    },
    close() {
      this.cut();
      server.close();
    },
  };
}
