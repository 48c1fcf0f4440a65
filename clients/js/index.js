// The Tinsel client library (clients/js/README.md): the session (client.js) and the helpers for
// `legal` (legal.js). Served to browsers at /lib/index.js; imported by path in Node.js.
export { TinselClient, TinselError, closeReasons, memoryTokenStore, protocolVersion } from './client.js';
export { assign, checkAssign, checkMove, checkRearrange, domainOf, isDomain, moves, rearrange, sendable, untermBaum } from './legal.js';
