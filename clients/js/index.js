// The Tinsel client library (clients/js/README.md): the session (client.js) and the helpers for
// `legal` (legal.js). Served to browsers at /lib/index.js; imported by path in Node.js.
export { TinselClient, TinselError, closeReasons, maxHops, memoryTokenStore, protocolVersion, roomUrl } from './client.js';
export {
  assign, channels, checkAssign, checkGreen, checkMove, checkRearrange, christmasPenguins, domainOf, expand, flights, greenDomain, greenMoves,
  hasLocation, isDomain, locations, moves, rearrange, reveals, sendable, untermBaum,
} from './legal.js';
