// TinselClient: the session with a Tinsel server (docs/protocol.md), so that a client only has to
// draw the game. It says `hello` (resuming with the saved token), sends requests with ids and
// settles each with its `ok` or `error`, reconnects with backoff when the connection drops, takes
// its seat back with `join_room` + `last_seq`, and hands the `state` pushes on in order, every
// event once. It knows the envelope, rooms and seqs, and nothing about any game's rules.
//
// Cluster mode (docs/protocol.md, "Cluster mode"): once a room is known, every connection carries it
// in its URL (`/ws?room=CODE`), a `room_moved` answer is followed to the path it names (a few hops at
// most, jittered), and a connection that stays silent is pinged and, without an answer, replaced.
//
// No dependencies and no build step: an ES module for browsers and Node.js (pass a WebSocket
// implementation such as the `ws` package's in Node before version 22).

import { applyPatch } from './json_patch.js';

// A room code as the server writes it: upper case, without the spaces and dashes people type.
const normalCode = (code) => String(code).toUpperCase().replace(/[\s-]/g, '');

export const protocolVersion = 1;

/** A refused request: the server's `error` (or `disconnected` when the connection was lost). */
export class TinselError extends Error {
  constructor(reply) {
    super(reply.message || reply.code);
    this.name = 'TinselError';
    this.code = reply.code;
    if (reply.retry_after_ms !== undefined) this.retry_after_ms = reply.retry_after_ms;
    this.reply = reply;
  }
}

// What each close code means (docs/protocol.md, "Close codes").
export const closeReasons = {
  1000: 'normal close',
  1001: 'the server is shutting down',
  1006: 'connection lost',
  1012: 'the server is restarting',
  4001: 'replaced by another connection',
  4002: 'the room moved to another server',
  4008: 'too slow: the outgoing queue overflowed',
  4029: 'too many refused requests',
};

/** A token store that keeps the token in memory only (the default). */
export function memoryTokenStore(initial = null) {
  let token = initial;
  return { get: () => token, set: (value) => { token = value; } };
}

const defaultBackoff = { baseMs: 500, restartBaseMs: 1000, maxMs: 10000 };

// Following `room_moved`: at most this many hops in a row (a join answered `ok`, or the ordinary
// backoff pause taken after the last hop, starts the count again); the pause before hop k is
// random in [0, 250 × 2^(k-1)) ms, or, when the room_moved carries `retry_after_ms` (its owner
// stopped answering, and the room can be claimed once its lease has run out), that long and up to
// 100 ms more (the members of a room come back together, the rooms of a dead instance spread).
export const maxHops = 5;
const hopJitterMs = 250;
const retryJitterMs = 100;

/** The pause before hop `hop` after the room_moved `moved`. */
function hopDelay(moved, hop, random = Math.random) {
  const wait = moved?.retry_after_ms;
  if (Number.isInteger(wait) && wait >= 0) return Math.min(wait, 60000) + Math.round(random() * retryJitterMs);
  return Math.round(random() * hopJitterMs * 2 ** (hop - 1));
}

/** The base URL with the room in its query (`/ws?room=CODE`); the base URL itself without a room. */
export function roomUrl(base, room) {
  if (!room) return base;
  const url = new URL(base);
  url.searchParams.set('room', room);
  return url.href;
}

// The URL a `room_moved`'s `ws` (a path on the same origin, e.g. /i/i2/ws?room=K7M2QX) names,
// resolved against the base URL's origin, with its scheme; null for anything that is not such a path.
function movedUrl(base, ws) {
  if (typeof ws !== 'string' || !ws.startsWith('/') || ws.startsWith('//')) return null;
  try {
    const url = new URL(ws, base);
    return url.origin === new URL(base).origin ? url.href : null;
  } catch {
    return null;
  }
}

// Runs fn in a task of its own, after every pending promise continuation (microtask).
const laterTask = typeof globalThis.setImmediate === 'function'
  ? (fn) => globalThis.setImmediate(fn)
  : (fn) => setTimeout(fn, 0);

export class TinselClient {
  /**
   * @param {object} opts
   * @param {string} opts.url  the server's WebSocket URL, e.g. ws://127.0.0.1:8080/ws
   * @param {string} [opts.name]  the display name for `hello` (or give it to connect())
   * @param {typeof WebSocket} [opts.WebSocket]  a WebSocket class; default globalThis.WebSocket
   * @param {{get(): (string|null), set(token: string|null): void}} [opts.tokenStore]
   * @param {{baseMs?: number, restartBaseMs?: number, maxMs?: number}} [opts.backoff]
   * @param {boolean} [opts.viewChanges]  ask for views as changes (hello `views: "changes"`; the
   *   library applies them and delivers whole views); default true, false for whole views on the wire
   * @param {string} [opts.room]  the code of a room this client is about to join (e.g. from an
   *   invite link): connections carry it in their URL before the join (see roomHint)
   * @param {number} [opts.silenceMs]  with no message for this long, send a `ping` (default 25000)
   * @param {number} [opts.pingTimeoutMs]  still nothing this long after the ping: the connection is
   *   dead, close it and reconnect (default 10000)
   */
  constructor({ url, name = null, WebSocket: ws = globalThis.WebSocket, tokenStore = memoryTokenStore(), backoff = {},
                viewChanges = true, room = null, silenceMs = 25000, pingTimeoutMs = 10000 }) {
    if (!ws) throw new Error('no WebSocket implementation: pass one, e.g. from the ws package');
    this.url = url; // the base URL: every connection goes here (with ?room=), or where room_moved says
    this.name = name;
    this.WebSocket = ws;
    this.tokenStore = tokenStore;
    this.backoff = { ...defaultBackoff, ...backoff };
    this.viewChanges = viewChanges;
    /** idle, connecting, online, reconnecting, restarting, replaced, failed or closed */
    this.status = 'idle';
    this.welcome = null; // the latest `welcome`
    this.room = null; // {code, as} of the room this client is in, or null
    this.roomInfo = null; // the latest `room` push's room
    this.seat = null;
    this.state = null; // the latest `state` delivered
    this.lastSeq = null; // the seq of that state, for resuming
    this.loggedSeq = null; // the seq a game_log just covered: the next state's events are in it
    this.listeners = new Map();
    this.socket = null;
    this.nextId = 1;
    this.pending = new Map();
    this.retries = 0;
    this.restarting = false;
    this.retryTimer = null;
    this.wanted = false; // whether the session should be running
    this.joinAnswered = false; // the next state answers a join: deliver it even with an old seq
    this.ready = null; // {promise, resolve, reject} for connect()
    this.patchHeld = null; // states whose view_patch did not apply, waiting for a whole view (full_view)
    this.held = null; // messages that wait until a request's promise has settled (deliver())
    this.roomHint = room ? normalCode(room) : null; // the room to put in the URL before one is joined
    this.silenceMs = silenceMs;
    this.pingTimeoutMs = pingTimeoutMs;
    this.silenceTimer = null;
    this.welcomed = null; // the socket whose hello was answered
    this.hops = 0; // room_moved hops since a join was last answered ok
    this.moved = null; // the room_moved received on the current connection
    this.hopUrl = null; // where the next connection goes (once), after a room_moved
    this.followJoin = null; // a joinRoom() answered room_moved: {code, as, lastSeq, resolve, reject}
  }

  /** The URL of the next connection: where a room_moved points, else the base URL with the room. */
  connectUrl() {
    return this.hopUrl ?? roomUrl(this.url, this.room?.code ?? this.followJoin?.code ?? this.roomHint);
  }

  // ------------------------------------------------------------------------------------------
  // Events

  /** Calls fn(...args) for every event of this type; returns a function that unsubscribes. */
  on(type, fn) {
    if (!this.listeners.has(type)) this.listeners.set(type, new Set());
    this.listeners.get(type).add(fn);
    return () => this.off(type, fn);
  }

  off(type, fn) {
    this.listeners.get(type)?.delete(fn);
  }

  // A listener that throws must not break the session: its error is rethrown on its own, where
  // the browser or Node reports it as uncaught.
  emit(type, ...args) {
    for (const fn of [...(this.listeners.get(type) ?? [])]) {
      try {
        fn(...args);
      } catch (err) {
        queueMicrotask(() => { throw err; });
      }
    }
  }

  setStatus(status, detail = {}) {
    this.status = status;
    this.emit('status', status, detail);
  }

  // ------------------------------------------------------------------------------------------
  // The session

  /**
   * Starts the session (if it is not running) and resolves with the `welcome` once it is online;
   * rejects with the TinselError when the server refuses the `hello` (status `failed`).
   */
  connect(name = this.name) {
    if (!name) return Promise.reject(new Error('connect() needs a name'));
    this.name = name;
    if (this.status === 'online') return Promise.resolve(this.welcome);
    if (!this.ready) {
      let resolve;
      let reject;
      const promise = new Promise((res, rej) => { resolve = res; reject = rej; });
      promise.catch(() => {}); // a caller that does not wait still sees it through `status`
      this.ready = { promise, resolve, reject };
    }
    const { promise } = this.ready;
    if (!this.wanted || this.status === 'failed' || this.status === 'replaced' || this.status === 'closed') {
      this.wanted = true;
      this.retries = 0;
      this.hops = 0;
      if (this.socket) this.socket.close(1000);
      else this.open();
    }
    return promise;
  }

  /** Tries to reconnect now: during a backoff pause, or after `replaced` or `failed`. */
  reconnect() {
    this.wanted = true;
    this.retries = Math.max(this.retries, 1);
    if (this.socket) this.socket.close(1000); // its close handler opens the next one
    else this.open();
  }

  /** Ends the session; the seat stays with the server as after a dropped connection. */
  close() {
    this.wanted = false;
    clearTimeout(this.retryTimer);
    this.hopUrl = null;
    this.rejectFollow(new TinselError({ code: 'disconnected', message: 'the session was closed' }));
    const socket = this.socket;
    this.dropSocket('closed');
    socket?.close(1000);
    this.setStatus('closed');
  }

  /** Ends the session and forgets the identity (token) and the room: the next connect() is a new player. */
  reset() {
    this.close();
    this.tokenStore.set(null);
    this.welcome = null;
    this.forgetRoom();
    this.setStatus('idle');
  }

  open() {
    clearTimeout(this.retryTimer);
    const hop = this.hopUrl !== null;
    const status = this.retries === 0 && !hop ? 'connecting' : this.restarting ? 'restarting' : 'reconnecting';
    if (this.status !== status) this.setStatus(status, { attempt: this.retries, ...(hop ? { moved: true } : {}) });
    const url = this.connectUrl();
    this.hopUrl = null; // a learned /i/<id>/ path is used once: after any other drop, /ws?room=
    this.moved = null;
    let socket;
    try {
      socket = new this.WebSocket(url);
    } catch (err) {
      // A malformed URL: nothing to retry.
      this.failed(new TinselError({ code: 'invalid_url', message: String(err.message || err) }));
      return;
    }
    this.socket = socket;
    this.listen(socket); // a connection that never opens counts as silent too
    socket.onopen = () => this.hello(socket);
    socket.onmessage = (e) => {
      if (socket !== this.socket) return;
      this.listen(socket);
      this.deliver(e.data);
    };
    socket.onerror = () => {}; // a close event follows
    socket.onclose = (e) => this.closed(socket, e.code, e.reason);
  }

  async hello(socket) {
    const msg = { type: 'hello', protocol: protocolVersion, name: this.name };
    if (this.viewChanges) msg.views = 'changes';
    const token = this.tokenStore.get();
    if (token) msg.token = token;
    let welcome;
    try {
      await this.request(msg);
      welcome = this.welcome;
    } catch (err) {
      // The close handler goes on (after a room_moved: to where the room is now).
      if (socket !== this.socket || err.code === 'disconnected' || err.code === 'room_moved') return;
      // The server refused the session (a name it does not accept, too many identities): stop.
      this.failed(err);
      return;
    }
    // A reconnect: take the seat back and catch up with last_seq.
    if (this.room) await this.rejoin(welcome);
    else if (this.followJoin) await this.joinFollowed();
    if (socket !== this.socket || this.moved) return;
    this.retries = 0;
    this.restarting = false;
    this.setStatus('online');
    this.emit('ready', welcome);
    this.ready?.resolve(welcome);
    this.ready = null;
  }

  async rejoin(welcome) {
    const { code, as } = this.room;
    try {
      await this.joinRoom(code, { as, lastSeq: this.lastSeq ?? undefined, rejoin: true });
    } catch (err) {
      if (err.code === 'disconnected' || err.code === 'room_moved') return; // the close handler goes on
      // The room expired or was closed while we were away, or the identity was forgotten
      // (welcome.resumed false) and the game no longer takes players.
      this.forgetRoom();
      this.emit('left', { reason: 'rejoin_failed', room: code, error: err, resumed: welcome.resumed });
    }
  }

  // A joinRoom() that was answered room_moved, sent again on a connection to where the room is.
  async joinFollowed() {
    const follow = this.followJoin;
    try {
      const ok = await this.joinRoom(follow.code, { as: follow.as, lastSeq: follow.lastSeq, followed: true });
      if (this.followJoin === follow) this.followJoin = null;
      follow.resolve(ok);
    } catch (err) {
      if (err.code === 'disconnected' || err.code === 'room_moved') return; // again on the next connection
      if (this.followJoin === follow) this.followJoin = null;
      follow.reject(err);
    }
  }

  rejectFollow(err) {
    const follow = this.followJoin;
    this.followJoin = null;
    follow?.reject(err);
  }

  failed(err) {
    this.wanted = false;
    this.rejectFollow(err);
    const socket = this.socket;
    this.dropSocket('the session failed');
    socket?.close(1000);
    this.setStatus('failed', { error: err });
    this.ready?.reject(err);
    this.ready = null;
  }

  // Rejects what waits for an answer on this socket and forgets it.
  dropSocket(why) {
    this.socket = null;
    this.held = null;
    this.welcomed = null;
    clearTimeout(this.silenceTimer);
    this.silenceTimer = null;
    for (const { reject } of this.pending.values()) reject(new TinselError({ code: 'disconnected', message: why }));
    this.pending.clear();
  }

  closed(socket, code, reason, silent = false) {
    if (socket !== this.socket) return;
    this.flushHeld(); // what arrived before the close is handled before the close
    this.dropSocket('connection lost');
    this.emit('disconnect', { code, reason: reason || closeReasons[code] || '', ...(silent ? { silent: true } : {}) });
    if (code === 4001) {
      // Another tab or device resumed this player: do not fight over the seat.
      this.wanted = false;
      this.rejectFollow(new TinselError({ code: 'disconnected', message: 'replaced by another connection' }));
      this.setStatus('replaced', { code });
      return;
    }
    if (!this.wanted) return;
    const moved = this.moved;
    this.moved = null;
    if ((moved || code === 4002) && this.hops < maxHops) {
      // The room is served by another instance now: go there after a short random pause (so that
      // the clients of a drained instance do not all arrive at once), a little longer every hop.
      this.hops += 1;
      const room = moved?.room ?? this.room?.code ?? this.followJoin?.code ?? this.roomHint;
      this.hopUrl = movedUrl(this.url, moved?.ws) ?? roomUrl(this.url, room);
      const delay = hopDelay(moved, this.hops);
      this.emit('moved', { room, instance: moved?.instance ?? null, url: this.hopUrl, hop: this.hops, delay });
      this.setStatus(this.restarting ? 'restarting' : 'reconnecting', { delay, attempt: this.retries, code, moved: true });
      this.retryTimer = setTimeout(() => this.open(), delay);
      return;
    }
    // Past maxHops: ordinary backoff, to /ws?room=CODE (hopUrl stays null). After that pause a
    // room_moved is followed again: while a dead owner's lease runs, the other instances rightly
    // send a client to it, and 5 quick hops can be spent before the room is claimed; the hash of
    // /ws?room= may then keep reaching an instance that is not the new owner, whose room_moved
    // must not be ignored forever.
    if (moved || code === 4002) this.hops = 0;
    // 1012: the server is restarting and rooms survive it; the first try waits a little longer.
    if (code === 1012) this.restarting = true;
    this.retries += 1;
    const base = this.restarting ? this.backoff.restartBaseMs : this.backoff.baseMs;
    const pause = Math.min(this.backoff.maxMs, base * 2 ** Math.min(this.retries - 1, 6));
    // Up to a fifth less, so that the clients of a restarted server do not all come back at once.
    const delay = Math.round(pause * (0.8 + 0.2 * Math.random()));
    this.setStatus(this.restarting ? 'restarting' : 'reconnecting', { delay, attempt: this.retries, code });
    this.retryTimer = setTimeout(() => this.open(), delay);
  }

  // ------------------------------------------------------------------------------------------
  // The silence timer: a connection that died without a close (a machine that vanished, a NAT that
  // forgot the mapping) can look open for minutes. Every message restarts the timer; after
  // silenceMs without one a `ping` goes out (the server answers at once), and if nothing at all
  // has come pingTimeoutMs later the connection is given up and replaced, as after a drop.

  listen(socket) {
    clearTimeout(this.silenceTimer);
    this.silenceTimer = setTimeout(() => this.silent(socket), this.silenceMs);
  }

  silent(socket) {
    if (socket !== this.socket) return;
    // After hello only; an older server answers `unknown_type`, which is an answer all the same.
    if (this.welcomed === socket) this.requestOnce({ type: 'ping' }).catch(() => {});
    this.silenceTimer = setTimeout(() => this.giveUp(socket), this.pingTimeoutMs);
  }

  // The server closes the connection after a room_moved; if its close does not come, the library
  // does not wait longer than a moment for it.
  roomMoved(msg) {
    this.moved = msg;
    const socket = this.socket;
    clearTimeout(this.silenceTimer);
    this.silenceTimer = setTimeout(() => this.giveUp(socket, 'the room moved to another server'), 2000);
  }

  giveUp(socket, reason = `no message from the server for ${(this.silenceMs + this.pingTimeoutMs) / 1000} s`) {
    if (socket !== this.socket) return;
    // The close handshake cannot finish on a dead connection: do not wait for it.
    this.closed(socket, 1006, reason, true);
    socket.onclose = null;
    socket.onmessage = null;
    socket.onopen = null;
    if (typeof socket.terminate === 'function') socket.terminate();
    else socket.close();
  }

  // ------------------------------------------------------------------------------------------
  // Messages

  // A request's promise settles before anything that follows its answer is handled: after an `ok`
  // or `error` that answers a request, the messages that arrive next wait for a task of their own,
  // after the promise's continuations (`await client.action(...)` and the code after it) have run.
  // Browsers hand each WebSocket message to a task of its own anyway; Node's `ws` hands every
  // message of one network read over in a row, so without this the `state` an action causes
  // reached its listeners before the code after the action's `await` ran.
  deliver(text) {
    if (this.held) this.held.push(text);
    else this.receive(text);
  }

  holdAfterAnswer() {
    if (this.held) return;
    this.held = [];
    const socket = this.socket;
    laterTask(() => { if (socket === this.socket) this.flushHeld(); });
  }

  flushHeld() {
    const held = this.held;
    this.held = null;
    if (!held) return;
    for (let i = 0; i < held.length; i += 1) {
      this.receive(held[i]);
      if (this.held) { // another answer: the rest waits for the task after its continuations
        this.held.unshift(...held.slice(i + 1));
        return;
      }
    }
  }

  receive(text) {
    let msg;
    try {
      msg = JSON.parse(typeof text === 'string' ? text : String(text));
    } catch {
      return; // the server sends JSON only; nothing to do with anything else
    }
    if (!msg || typeof msg !== 'object') return;
    this.emit('message', msg);
    switch (msg.type) {
      case 'ok':
      case 'error': {
        // The room lives on another instance: the server closes this connection (4002) next and
        // the close handler follows `ws`. Nothing else of this connection is used any more.
        if (msg.type === 'error' && msg.code === 'room_moved') this.roomMoved(msg);
        const waiter = msg.id !== undefined ? this.pending.get(msg.id) : undefined;
        if (waiter) {
          this.pending.delete(msg.id);
          if (msg.type === 'ok') {
            waiter.onOk?.(msg); // at once: the pushes that follow depend on it
            waiter.resolve(msg);
          } else {
            waiter.reject(new TinselError(msg));
          }
          this.holdAfterAnswer();
        } else if (msg.type === 'error' && msg.code !== 'room_moved') {
          this.emit('error', new TinselError(msg));
        }
        return;
      }
      case 'welcome':
        this.welcome = msg;
        this.welcomed = this.socket;
        this.tokenStore.set(msg.token);
        this.emit('welcome', msg);
        return;
      case 'room':
        if (msg.room.status === 'closed') {
          const code = this.room?.code ?? msg.room.code;
          this.forgetRoom();
          this.emit('room', msg.room, msg);
          this.emit('left', { reason: 'closed', room: code });
          return;
        }
        // The host picked another game (set_game): the last game's state is of a game the room no
        // longer plays. lastSeq stays: the room's seq goes on across games.
        if (this.roomInfo && this.roomInfo.code === msg.room.code && this.roomInfo.game !== msg.room.game) this.state = null;
        this.roomInfo = msg.room;
        this.emit('room', msg.room, msg);
        return;
      case 'state':
        this.onState(msg);
        return;
      case 'kicked': {
        const code = this.room?.code ?? msg.room;
        this.forgetRoom();
        this.emit('kicked', msg);
        this.emit('left', { reason: 'kicked', room: code });
        return;
      }
      case 'chat':
      case 'chat_history':
        this.emit(msg.type, msg);
        return;
      case 'game_log':
        // The game from its start; the state that answers the join (same seq) is in it.
        this.loggedSeq = msg.seq;
        this.emit('game_log', msg);
        return;
      default:
        this.emit('push', msg); // a push of a later protocol version
    }
  }

  // Hands states on in seq order, every event once. A state is normally one above the last; the
  // state that answers a join_room with last_seq carries the missed events (each with its `seq`)
  // or `resync: true`, and may repeat the last seq when nothing was missed.
  onState(msg) {
    msg = this.wholeView(msg);
    if (!msg) return;
    this.deliverState(msg);
  }

  // Views as changes: a state with `view_patch` gets the view it makes of the view of the state
  // before it (seq one lower), so listeners see whole views as ever. A patch that does not apply
  // (no view of seq - 1 here, or a path that is not there) holds this state and asks for the whole
  // view (full_view); the states held until a whole view comes are delivered as one state, with
  // that view and all their events in order. Returns the state to deliver, or null while held.
  wholeView(msg) {
    if (msg.view_patch !== undefined) {
      const { view_patch: patch, ...rest } = msg;
      const base = !this.patchHeld && this.state && this.lastSeq === msg.seq - 1 ? this.state.view : undefined;
      if (base !== undefined) {
        try {
          return { ...rest, view: applyPatch(base, patch) };
        } catch { /* ask for the whole view below */ }
      }
      if (!this.patchHeld) {
        this.patchHeld = [];
        this.request({ type: 'full_view' }).catch(() => {}); // after a drop, the rejoin brings the view
      }
      this.patchHeld.push(rest);
      return null;
    }
    if (!this.patchHeld) return msg;
    // The answer to a join (a rejoin after a drop) catches up from the last state delivered.
    if (this.joinAnswered) {
      this.patchHeld = null;
      return msg;
    }
    // A whole view (the answer to full_view, or any state with `view`): it ends the hold.
    const held = this.patchHeld;
    this.patchHeld = null;
    const events = [...held.flatMap((h) => h.events ?? []), ...(msg.seq > held[held.length - 1].seq ? msg.events ?? [] : [])];
    return { ...msg, seq: Math.max(msg.seq, held[held.length - 1].seq), events, recovered: true };
  }

  deliverState(msg) {
    const answer = this.joinAnswered;
    this.joinAnswered = false;
    const logged = this.loggedSeq !== null && msg.seq <= this.loggedSeq;
    this.loggedSeq = null;
    const last = this.lastSeq;
    const info = { join: answer, replayed: msg.replayed_from !== undefined, resync: Boolean(msg.resync), gap: false, logged };
    const recovered = msg.recovered === true;
    if (recovered) delete msg.recovered;
    if (last !== null && !answer && !info.resync && !recovered && msg.seq <= last) {
      // Already delivered (cannot happen with a conforming server; a guard, not a feature).
      this.emit('duplicate', msg);
      return;
    }
    if (last !== null && info.replayed) {
      // Events this client has already delivered are not delivered again.
      msg = { ...msg, events: msg.events.filter((e) => e.seq === undefined || e.seq > last) };
    }
    if (last !== null && !answer && !info.resync && !recovered && msg.seq > last + 1) info.gap = true;
    this.lastSeq = msg.seq;
    this.state = msg;
    this.seat = msg.seat;
    this.emit('state', msg, info);
  }

  forgetRoom() {
    this.room = null;
    this.roomHint = null;
    this.roomInfo = null;
    this.seat = null;
    this.state = null;
    this.lastSeq = null;
    this.joinAnswered = false;
    this.loggedSeq = null;
    this.patchHeld = null;
  }

  // ------------------------------------------------------------------------------------------
  // Requests

  /**
   * Sends any request with a fresh id; resolves with its `ok`, rejects with a TinselError (its
   * `code`, `message`, `retry_after_ms`), also with code `disconnected` when not connected or
   * when the connection drops before the answer (the request may or may not have been applied).
   * A request refused with `rate_limited` was not executed, so it is sent again after a pause
   * (about 0.1, 0.2, 0.4 … 3.2 s, each a little random so that a burst spreads out, and never
   * shorter than the error's `retry_after_ms`, which a `join_room` refused for the address's
   * join budget carries; it is sent at most six times more, and the seventh refusal is passed on): a fast bot stays
   * within the server's rate limit without counting its own requests.
   */
  async request(msg, onOk) {
    for (let pause = 100; ; pause *= 2) {
      try {
        return await this.requestOnce(msg, onOk);
      } catch (err) {
        if (err.code !== 'rate_limited' || pause > 3200) throw err;
        const wait = Math.max(pause * (0.5 + Math.random()), err.retry_after_ms ?? 0);
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  }

  requestOnce(msg, onOk) {
    return new Promise((resolve, reject) => {
      const socket = this.socket;
      if (!socket || socket.readyState !== 1 /* OPEN */) {
        reject(new TinselError({ code: 'disconnected', message: 'not connected' }));
        return;
      }
      const id = this.nextId++;
      this.pending.set(id, { resolve, reject, onOk });
      socket.send(JSON.stringify({ ...msg, id }));
    });
  }

  // A room was entered: remember it for reconnecting; the state that follows answers the join.
  entered(ok, as, rejoin) {
    this.hops = 0; // a joined room ends a run of room_moved hops
    if (this.room?.code !== ok.room) {
      this.lastSeq = null;
      this.state = null;
    }
    this.room = { code: ok.room, as: ok.spectator ? 'spectator' : as };
    this.seat = ok.seat;
    this.joinAnswered = true;
    this.emit('joined', ok, { rejoin });
  }

  /** create_room; resolves with the ok ({room, seat, …}). */
  createRoom(game, options) {
    const msg = { type: 'create_room', game };
    if (options !== undefined) msg.options = options;
    return this.request(msg, (ok) => this.entered(ok, 'player', false));
  }

  /**
   * join_room. `lastSeq` asks the server for what was missed since that state (a client that
   * reloads may pass the seq it saved); by default the client's own last seq in that room.
   */
  async joinRoom(code, { as = 'player', lastSeq, rejoin = false, followed = false } = {}) {
    const room = normalCode(code);
    const msg = { type: 'join_room', room, as };
    const seq = lastSeq ?? (this.room?.code === room ? this.lastSeq : null);
    if (seq !== null && seq !== undefined) msg.last_seq = seq;
    try {
      return await this.request(msg, (ok) => {
        this.entered(ok, as, rejoin);
        // Events up to the given seq count as delivered, so a replay starts after them.
        if (lastSeq !== undefined && lastSeq !== null) this.lastSeq = lastSeq;
      });
    } catch (err) {
      if (err.code !== 'room_moved' || rejoin || followed) throw err;
      // The room lives on another instance: this promise settles with the join there, once the
      // library has followed the redirect (or with its refusal there).
      this.rejectFollow(new TinselError({ code: 'disconnected', message: 'another join was asked for' }));
      return new Promise((resolve, reject) => { this.followJoin = { code: room, as, lastSeq, resolve, reject }; });
    }
  }

  leaveRoom() {
    return this.request({ type: 'leave_room' }, () => {
      const code = this.room?.code;
      this.forgetRoom();
      this.emit('left', { reason: 'left', room: code });
    });
  }

  startGame(firstSeat) {
    const msg = { type: 'start_game' };
    if (firstSeat !== undefined && firstSeat !== null) msg.first_seat = firstSeat;
    return this.request(msg);
  }

  setOptions(options) { return this.request({ type: 'set_options', options }); }
  /** Host, between games: the room plays `game` next, with `options` (left out: defaults). */
  setGame(game, options) {
    const msg = { type: 'set_game', game };
    if (options !== undefined && options !== null) msg.options = options;
    return this.request(msg);
  }
  kick(player) { return this.request({ type: 'kick', player }); }
  transferHost(player) { return this.request({ type: 'transfer_host', player }); }
  /** Seats a computer player; `level` 'gentle' or 'fair' (the server's default when left out). */
  addBot(level) { return this.request(level === undefined ? { type: 'add_bot' } : { type: 'add_bot', level }); }
  removeBot(seat) { return this.request({ type: 'remove_bot', seat }); }
  closeRoom() { return this.request({ type: 'close_room' }); }
  /** Sends one game command, e.g. an entry of `legal`. */
  action(command) { return this.request({ type: 'action', action: command }); }
  chat(text) { return this.request({ type: 'chat', text }); }

  /** The player id of this session, once welcomed. */
  get player() {
    return this.welcome?.player ?? null;
  }

  /** Whether this session's player is the room's host. */
  get isHost() {
    return Boolean(this.roomInfo && this.welcome && this.roomInfo.host === this.welcome.player);
  }
}
