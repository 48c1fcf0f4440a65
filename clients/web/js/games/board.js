// The interface between the frame (app.js, screens.js, moments.js) and a game's board: what a board
// module exports, what each hook is given and when the frame calls it. Types only (JSDoc), nothing
// runs here and no page loads this file.
//
// A board module (js/games/<id>.js, loaded by `loadBoard` in state.js when a room of that game is
// known) exports `createBoard()`. The frame makes one board per room (`roomBoard` in state.js):
// whatever a board remembers between calls (what moved, a mode the player chose, a wish list being
// written) lives in the object it returns, so a new room starts with a new board and nothing needs
// resetting by hand. What every page needs of a game before its board is loaded (icon, words of the
// settings, `estimateMinutes`, `logEvent`, `windowPrompts`, …) is its entry in catalogue.js.
//
// Every hook gets the context of its moment (a new one on each call: never keep it); only `render`,
// `resultHtml`, `promptText` and `actionLabel` are required.

/**
 * What a board draws with: the latest state and the frame's services (built by `context` in app.js).
 * @typedef {object} RenderContext
 * @property {object|null} state   The latest `state` push (docs/protocol.md), or null before one.
 * @property {object|undefined} view  `state.view`: the game as this viewer may see it.
 * @property {object[]} legal      `state.legal`: what this viewer may send now ([] when nothing).
 * @property {number|null} seat    This viewer's seat, null for a spectator.
 * @property {object|null} room    The latest `room` push (seats, options, host).
 * @property {(seat: number) => string} name   A seat's player as named in this game.
 * @property {(seat: number) => string} who    The same with "(you)" for the viewer's own seat.
 * @property {(seat: number) => string} colour A seat's colour, for fills.
 * @property {(seat: number) => string} ink    A seat's colour dark enough for text (WCAG AA).
 * @property {(seat: number) => string} onColour  Text colour on a fill of the seat's colour.
 * @property {(action: object) => Promise<object>} act  Sends an `action`; rejects (after flashing
 *   the refusal in the player's language) when the server refuses it.
 * @property {() => void} render   Draws the page again (after a change of the board's own state).
 * @property {(text: string, kind?: 'info'|'error') => void} flash  A short note at the top.
 * @property {'en'|'de'} lang      The page's language.
 */

/**
 * A banner for a moment (moments.js): an icon to put before the event's log line, or a function
 * that words the whole banner (null: no banner).
 * @typedef {string | ((ev: object, ctx: RenderContext, msg: object) => string|null)} Moment
 */

/**
 * One room's board of one game.
 * @typedef {object} Board
 * @property {string} id  The game's id (as in catalogue.js).
 * @property {(ctx: RenderContext) => string} render  The board as HTML, below the actions; called on
 *   every draw of the game screen.
 * @property {(ctx: RenderContext) => string} resultHtml  The results table, when the game is over.
 * @property {(ctx: RenderContext) => string} promptText  What to do now, for the turn bar (own turn),
 *   or what happens (a prompt that waits on nobody).
 * @property {(entry: object, ctx: RenderContext) => string} actionLabel  A button's words for a
 *   concrete `legal` entry.
 * @property {(msg: object, ctx: RenderContext) => void} [onState]  A new `state` push, before it is
 *   drawn (also the state already on screen when the board arrives late).
 * @property {(ev: object, ctx: RenderContext, log?: object[], i?: number) => string|null} [eventText]
 *   A log line (`log`, `i`: the whole log and the event's place in it) or a banner's words (without
 *   them); null: no line.
 * @property {Object<string, Moment>} [moments]  Event kinds announced with a banner, to everyone.
 * @property {(msg: object, ctx: RenderContext) => string|null} [timeoutText]  Said to the viewer whose
 *   time ran out in `msg`: what the game chose for them.
 * @property {(ctx: RenderContext, opts: {mine: boolean}) => ({turn: string, what: string}|null)} [turnBar]
 *   The turn bar in the game's own words, where whose turn it is and whom the prompt waits on differ.
 * @property {(entry: object) => boolean} [primary]  Whether a button is the highlighted choice.
 * @property {(ctx: RenderContext) => number[]} [boardEntries]  Indices of `legal` entries the board
 *   (or `actionsExtra`) offers itself: the frame makes no buttons for them.
 * @property {(ctx: RenderContext) => string} [actionsExtra]  HTML above the buttons (modes, hints).
 * @property {(ctx: RenderContext) => string} [resultNote]  A line under the results: why it ended.
 * @property {(el: Element, ctx: RenderContext) => void} [onClick]  A click on an element with a
 *   `data-act` the frame does not know (the board's own places and buttons).
 * @property {(el: Element, ctx: RenderContext) => void} [onChange]  A `change` event on the game screen
 *   (a select of the board's own).
 */

/**
 * What a board module exports.
 * @typedef {object} BoardModule
 * @property {() => Board} createBoard  A new board, for one room.
 */

export {};
