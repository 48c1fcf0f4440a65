// The WebSocket session with the server: hello (with the saved token), requests answered by
// `ok`/`error`, pushes, and automatic reconnection with backoff. It knows the protocol's envelope
// and nothing about rooms or games; app.js decides what to do after each (re)connect.

export const protocolVersion = 1;

export class Connection {
  // handlers: status(state, detail), welcome(msg), push(msg), error(msg) for errors without an id.
  constructor(url, handlers) {
    this.url = url;
    this.handlers = handlers;
    this.socket = null;
    this.nextId = 1;
    this.pending = new Map();
    this.name = null;
    this.token = null;
    this.welcome = null;
    this.retries = 0;
    this.retryTimer = null;
    this.stopped = false;
    this.status = 'idle';
  }

  // Starts (or restarts) the session as `name`, resuming `token` if given.
  start(name, token) {
    this.name = name;
    this.token = token;
    this.stopped = false;
    if (this.socket && this.socket.readyState <= WebSocket.OPEN && this.status !== 'failed') return;
    this.retries = 0;
    this.open();
  }

  // Drops the connection and forgets the identity (for "this is not me").
  reset() {
    this.token = null;
    this.welcome = null;
    if (this.socket) this.socket.close(1000);
  }

  setStatus(status, detail) {
    this.status = status;
    this.handlers.status(status, detail);
  }

  open() {
    clearTimeout(this.retryTimer);
    this.setStatus(this.retries === 0 ? 'connecting' : this.restarting ? 'restarting' : 'reconnecting');
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.onopen = () => this.hello();
    socket.onmessage = (e) => this.receive(e.data);
    socket.onclose = (e) => this.closed(socket, e.code);
  }

  async hello() {
    const msg = { type: 'hello', protocol: protocolVersion, name: this.name };
    if (this.token) msg.token = this.token;
    try {
      await this.request(msg);
      this.retries = 0;
      this.restarting = false;
      this.setStatus('online');
      this.handlers.ready(this.welcome);
    } catch (err) {
      if (err.code === 'disconnected') return; // the close handler already reconnects
      // The server refused the session (e.g. a name it does not accept): stop and say why.
      this.stopped = true;
      this.setStatus('failed', err);
      this.socket?.close(1000);
    }
  }

  closed(socket, code) {
    if (socket !== this.socket) return;
    this.socket = null;
    this.welcome = null;
    for (const { reject } of this.pending.values()) reject({ code: 'disconnected', message: 'connection lost' });
    this.pending.clear();
    if (code === 4001) {
      // Another tab or device resumed this player: do not fight over the seat.
      this.setStatus('replaced');
      return;
    }
    if (this.stopped) return;
    // 1012: the server is restarting; rooms survive it, so this is only a pause. Give it a second
    // before the first try, then back off as after any drop.
    if (code === 1012) this.restarting = true;
    this.retries += 1;
    const delay = Math.min(10000, (this.restarting ? 1000 : 500) * 2 ** Math.min(this.retries - 1, 5));
    this.setStatus(this.restarting ? 'restarting' : 'reconnecting', { delay });
    this.retryTimer = setTimeout(() => this.open(), delay);
  }

  // Reconnects now (the "try again" button, or after being replaced by another tab).
  reconnect() {
    this.stopped = false;
    this.retries = Math.max(this.retries, 1);
    if (this.socket) this.socket.close(1000);
    else this.open();
  }

  receive(text) {
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    if (msg.type === 'ok' || msg.type === 'error') {
      const waiter = msg.id !== undefined ? this.pending.get(msg.id) : undefined;
      if (waiter) {
        this.pending.delete(msg.id);
        if (msg.type === 'ok') waiter.resolve(msg);
        else waiter.reject(msg);
      } else if (msg.type === 'error') {
        this.handlers.error(msg);
      }
      return;
    }
    if (msg.type === 'welcome') {
      this.welcome = msg;
      this.token = msg.token;
      this.handlers.welcome(msg);
      return;
    }
    this.handlers.push(msg);
  }

  // Sends a request with a fresh id; resolves with the `ok`, rejects with the `error`.
  request(msg) {
    return new Promise((resolve, reject) => {
      if (!this.socket || this.socket.readyState !== WebSocket.OPEN) {
        reject({ code: 'disconnected', message: 'not connected' });
        return;
      }
      const id = this.nextId++;
      this.pending.set(id, { resolve, reject });
      this.socket.send(JSON.stringify({ ...msg, id }));
    });
  }
}
