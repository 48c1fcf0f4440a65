// Types of the client library's API (hand-written; the messages' types are generated from the
// JSON Schemas into protocol.d.ts by scripts/gen-types.mjs).
import type {
  ChatHistoryServerToClient,
  ChatServerToClient,
  ClientMessage,
  ErrorServerToClient,
  GameLogServerToClient,
  KickedServerToClient,
  OkServerToClient,
  RoomServerToClient,
  StateServerToClient,
  WelcomeServerToClient,
} from './protocol.js';

export * from './protocol.js';

export declare const protocolVersion: 1;

/** What each close code means (docs/protocol.md, "Close codes"). */
export declare const closeReasons: Record<number, string>;

/** Where the seat token is kept between connections (and page loads). */
export interface TokenStore {
  get(): string | null;
  set(token: string | null): void;
}

/** Keeps the token in memory only (the default). */
export declare function memoryTokenStore(initial?: string | null): TokenStore;

/** How many `room_moved` redirects the library follows in a row (5); a joined room, or the ordinary backoff pause taken after the last hop, starts the count again. */
export declare const maxHops: number;
/** The base URL with the room in its query: `roomUrl('wss://h/ws', 'K7M2QX')` is `wss://h/ws?room=K7M2QX`; without a room the base URL. */
export declare function roomUrl(base: string, room: string | null | undefined): string;

/** A refused request: the server's `error`, or code `disconnected` when the connection was lost. */
export declare class TinselError extends Error {
  readonly code: string;
  readonly retry_after_ms?: number;
  /** The `error` message as the server sent it (or the library's stand-in). */
  readonly reply: ErrorServerToClient | { code: string; message: string };
}

export type Status = 'idle' | 'connecting' | 'online' | 'reconnecting' | 'restarting' | 'replaced' | 'failed' | 'closed';

export interface StatusDetail {
  /** reconnecting/restarting: the pause before the next try, in ms. */
  delay?: number;
  /** reconnecting/restarting: how many tries since the connection was last online. */
  attempt?: number;
  /** The close code that ended the previous connection. */
  code?: number;
  /** reconnecting: the room moved to another server (`room_moved`); the library follows it by itself. */
  moved?: boolean;
  /** failed: why the server refused the session. */
  error?: TinselError;
}

/** How a delivered state relates to the one before. */
export interface StateInfo {
  /** This state answers a join_room (also the library's own after a reconnect). */
  join: boolean;
  /** Its events were replayed by the server (each event then has `seq`). */
  replayed: boolean;
  /** The server could not replay what was missed: take the view as the new truth. */
  resync: boolean;
  /**
   * The seq is more than one above the last delivered, although this state answers no join and
   * is no resync: states were lost (a server that breaks the protocol; never expected). Treat
   * it like `resync`.
   */
  gap: boolean;
  /**
   * A `game_log` came just before this state (it answers a join) and already holds its events:
   * a client that shows the game log does not add them again.
   */
  logged: boolean;
}

export interface LeftInfo {
  /** left: leave_room; kicked; closed: the host closed it; rejoin_failed: after a reconnect. */
  reason: 'left' | 'kicked' | 'closed' | 'rejoin_failed';
  room: string | null;
  error?: TinselError;
  resumed?: boolean;
}

export type RoomInfo = RoomServerToClient['room'];
export type OkReply = OkServerToClient & Record<string, unknown>;

export interface ClientEvents {
  status: (status: Status, detail: StatusDetail) => void;
  welcome: (welcome: WelcomeServerToClient) => void;
  /** Online: after hello, and after a reconnect once the room is taken back. */
  ready: (welcome: WelcomeServerToClient) => void;
  /** In a room: createRoom, joinRoom, or the library's rejoin after a reconnect. */
  joined: (ok: OkReply, info: { rejoin: boolean }) => void;
  left: (info: LeftInfo) => void;
  room: (room: RoomInfo, message: RoomServerToClient) => void;
  /** States in seq order, every event once. */
  state: (state: StateServerToClient, info: StateInfo) => void;
  chat: (message: ChatServerToClient) => void;
  chat_history: (message: ChatHistoryServerToClient) => void;
  /** The game from its start, on every join (also the library's rejoin); replaces the log shown. */
  game_log: (message: GameLogServerToClient) => void;
  kicked: (message: KickedServerToClient) => void;
  /** An `error` without an id (e.g. frame_too_large). */
  error: (error: TinselError) => void;
  /**
   * A connection ended; `code` is its close code (4002: the room moved). `silent`: the library gave
   * it up itself (code 1006) because nothing came for silenceMs + pingTimeoutMs, or no close
   * followed a room_moved.
   */
  disconnect: (info: { code: number; reason: string; silent?: boolean }) => void;
  /**
   * The room is served by another server instance (`room_moved`, cluster mode): the library
   * connects to `url` after `delay` ms (hop `hop` of at most maxHops in a row), says hello with
   * the token and takes the seat back with last_seq. Nothing for a player to read: the status is
   * `reconnecting` meanwhile, with `moved: true`.
   */
  moved: (info: { room: string | null; instance: string | null; url: string; hop: number; delay: number }) => void;
  /** Every message from the server, before the library handles it. */
  message: (message: { type: string; [key: string]: unknown }) => void;
  /** A push type this library does not know (a later protocol version). */
  push: (message: { type: string; [key: string]: unknown }) => void;
  /** A state the library had already delivered (not expected from a conforming server). */
  duplicate: (state: StateServerToClient) => void;
}

export interface ClientOptions {
  /** The server's WebSocket URL, e.g. ws://127.0.0.1:8080/ws or wss://games.example.org/ws. */
  url: string;
  /** The display name for hello (or pass it to connect()). */
  name?: string;
  /** A WebSocket class; default globalThis.WebSocket (in Node.js < 22: the ws package's). */
  WebSocket?: unknown;
  /** Where the seat token is kept; default memoryTokenStore(). */
  tokenStore?: TokenStore;
  /** Reconnect pauses: base (500), base after close code 1012 (1000), maximum (10000) ms. */
  backoff?: { baseMs?: number; restartBaseMs?: number; maxMs?: number };
  /** Ask for views as changes (hello `views: "changes"`); states are still delivered with whole views. Default true. */
  viewChanges?: boolean;
  /**
   * The room this client is about to join (e.g. from an invite link): connections carry it in
   * their URL (`?room=CODE`) before the join, so that a cluster routes them to the room's server.
   */
  room?: string;
  /** With no message from the server for this long, send a `ping` (default 25000 ms). */
  silenceMs?: number;
  /** Still nothing this long after the ping: close the connection and reconnect (default 10000 ms). */
  pingTimeoutMs?: number;
}

export declare class TinselClient {
  constructor(options: ClientOptions);
  /** The base URL; connections go to it with `?room=CODE` once a room is known. */
  readonly url: string;
  name: string | null;
  /** The room for the URL while no room is joined yet (option `room`); cleared when a room is left. */
  roomHint: string | null;
  readonly silenceMs: number;
  readonly pingTimeoutMs: number;
  /** The URL the next connection goes to. */
  connectUrl(): string;
  readonly status: Status;
  /** The latest welcome. */
  readonly welcome: WelcomeServerToClient | null;
  readonly player: string | null;
  /** The room this client is in (kept across reconnects), or null. */
  readonly room: { code: string; as: 'player' | 'spectator' } | null;
  /** The latest `room` push's room. */
  readonly roomInfo: RoomInfo | null;
  readonly isHost: boolean;
  /**
   * After createRoom/joinRoom the ok's `seat` (the lobby seat; null for a spectator); from the
   * first state on, that state's `seat` (the seat in the game, which may differ: seated players
   * move to the front when a game starts). Null in no room.
   */
  readonly seat: number | null;
  /** The latest state delivered, and its seq. */
  readonly state: StateServerToClient | null;
  readonly lastSeq: number | null;

  on<K extends keyof ClientEvents>(type: K, listener: ClientEvents[K]): () => void;
  off<K extends keyof ClientEvents>(type: K, listener: ClientEvents[K]): void;

  /** Starts the session; resolves with the welcome once online, rejects if hello is refused. */
  connect(name?: string): Promise<WelcomeServerToClient>;
  /** Tries again now (during a backoff pause, after `replaced` or `failed`). */
  reconnect(): void;
  /** Ends the session; the seat stays with the server as after a dropped connection. */
  close(): void;
  /** Ends the session and forgets the token and the room. */
  reset(): void;

  /** Any request; resolves with its ok, rejects with a TinselError. */
  request(message: ClientMessage | { type: string; [key: string]: unknown }): Promise<OkReply>;
  createRoom(game: string, options?: Record<string, unknown>): Promise<OkReply>;
  /**
   * join_room. Answered `room_moved` (cluster mode), the library follows the redirect and joins
   * there: the promise settles with that join's answer.
   */
  joinRoom(code: string, options?: { as?: 'player' | 'spectator'; lastSeq?: number }): Promise<OkReply>;
  leaveRoom(): Promise<OkReply>;
  startGame(firstSeat?: number): Promise<OkReply>;
  setOptions(options: Record<string, unknown>): Promise<OkReply>;
  /** Host, between games: the room plays `game` next with `options` (left out: their defaults). */
  setGame(game: string, options?: Record<string, unknown>): Promise<OkReply>;
  kick(player: string): Promise<OkReply>;
  transferHost(player: string): Promise<OkReply>;
  /** Seats a computer player: 'gentle' (friendly, clearly weaker) or 'fair' (the default, plays as a sensible person would). */
  addBot(level?: 'gentle' | 'fair'): Promise<OkReply>;
  removeBot(seat: number): Promise<OkReply>;
  closeRoom(): Promise<OkReply>;
  /** One game command, e.g. an entry of `legal`. */
  action(command: { kind: string; [key: string]: unknown }): Promise<OkReply>;
  chat(text: string): Promise<OkReply>;
}

// Helpers for `legal` ---------------------------------------------------------------------------

export type LegalEntry = { kind: string; domain?: unknown; [key: string]: unknown };
export type Location = { tree: number } | { seat: number; row: number; slot: number };
export type Cell = { row: number; slot: number };
/** Slot indices in ascending order, a run of three or more as [first, last]. */
export type Slots = (number | [number, number])[];
/** Unterm Baum: a set of locations: tree slots, and [seat, slots] per field (index = row × slots + slot). */
export interface LocationSet { tree: Slots; fields: [number, Slots][]; slots: number }
export interface MoveDomain { from: LocationSet; to: LocationSet; rule: 'different_areas' }
export interface RevealDomain { locations: LocationSet }
/** `occupied`: the cells of the own field holding a card, as [row, slot]. */
export interface RearrangeDomain { occupied: [number, number][]; rows: number; slots: number }
export interface AssignDomain { motifs: string[]; rows: number; slots: number; families: string[] }

export declare function isDomain(entry: LegalEntry): boolean;
/** The entries that can be sent as they are (no domain entries). */
export declare function sendable<T extends LegalEntry>(legal: T[] | null | undefined): T[];
export declare function domainOf(legal: LegalEntry[] | null | undefined, kind: string): any;
/**
 * `legal` with the domains that stand for single commands written out in the server's order (Christmas
 * Penguins: green moves, channels, flights; Unterm Baum: reveals), the example before each not
 * repeated. Other domains stay as they are.
 */
export declare function expand(legal: LegalEntry[] | null | undefined): LegalEntry[];

/** Christmas Penguins: the green-stone domain. */
export interface GreenDomain { floes: number[]; cells: ([number, number] | [number, number, number])[]; pairs: [number, number, number][]; rule: 'floes_x_cells' }
export interface ChannelDomain { edges: [number, number][] }
export interface FleeDomain { to: number[]; colours: string[]; rule: 'to_x_colours' }
export type GreenMove = { kind: 'use_stone'; stone: 'green'; floe: number; to: [number, number] };
/** Every green-stone move of the domain (pass `legal` or the domain), in order of floe, then cell. */
export declare function greenMoves(legalOrDomain: LegalEntry[] | GreenDomain): GreenMove[];
export declare function greenDomain(legal: LegalEntry[] | null | undefined): GreenDomain | null;
/** Whether the green domain allows moving `floe` to the cell [q, r]. */
export declare function checkGreen(domain: GreenDomain, floe: number, to: [number, number]): boolean;
/** Every channel of the channel domain, or the concrete channels. */
export declare function channels(legal: LegalEntry[]): { kind: 'place_channel'; a: number; b: number }[];
/** Every flight of the flee domain (each floe with each colour), or the concrete flights. */
export declare function flights(legal: LegalEntry[]): { kind: 'flee'; to: number; colour?: string }[];
export declare const christmasPenguins: {
  greenMoves: typeof greenMoves;
  greenDomain: typeof greenDomain;
  checkGreen: typeof checkGreen;
  channels: typeof channels;
  flights: typeof flights;
};

/** Unterm Baum: the locations of a location set as objects, in board order. */
export declare function locations(set: LocationSet | Location[]): Location[];
export declare function hasLocation(set: LocationSet | Location[], location: Location): boolean;
/** Unterm Baum: every reveal of the reveal domain, or the concrete reveals. */
export declare function reveals(legal: LegalEntry[]): { kind: 'reveal'; location: Location }[];

/**
 * Unterm Baum: every move of the move domain as a sendable command (from × to, the two in
 * different areas; `from` in domain order, then `to`); without a move domain the concrete `move`
 * entries of `legal` (so `[]` when no move is left).
 */
export declare function moves(legal: LegalEntry[]): { kind: 'move'; from: Location; to: Location }[];
/** null if the move is allowed by the domain, else the game's error code. */
export declare function checkMove(domain: MoveDomain, from: Location, to: Location): string | null;
/**
 * A sendable rearrange bringing `from` to `to`: one move if `to` is empty, a swap (two moves) if it
 * holds a card. Throws an Error with `code` location_empty, invalid_location or
 * rearrange_changes_nothing (from = to).
 */
export declare function rearrange(domain: RearrangeDomain, from: Cell, to: Cell): { kind: 'rearrange'; moves: { from: Cell; to: Cell }[] };
/** null if the mapping is valid for the domain, else the game's error code. */
export declare function checkRearrange(domain: RearrangeDomain, moves: { from: Cell; to: Cell }[]): string | null;
/**
 * A sendable assign from a motif → cell mapping (wishes in the mapping's order; `family` only if
 * given). Throws an Error with `code` invalid_assignment or unknown_family if it is not valid.
 */
export declare function assign(
  domain: AssignDomain,
  mapping: Record<string, Cell> | Map<string, Cell>,
  family?: string,
): { kind: 'assign'; wishes: { motif: string; row: number; slot: number }[]; family?: string };
/** null if the wishes are valid for the domain, else 'invalid_assignment' or 'unknown_family'. */
export declare function checkAssign(domain: AssignDomain, wishes: { motif: string; row: number; slot: number }[], family?: string): string | null;

export declare const untermBaum: {
  moves: typeof moves;
  checkMove: typeof checkMove;
  reveals: typeof reveals;
  locations: typeof locations;
  hasLocation: typeof hasLocation;
  rearrange: typeof rearrange;
  checkRearrange: typeof checkRearrange;
  assign: typeof assign;
  checkAssign: typeof checkAssign;
};
