// The one way the page talks to "a game": every screen goes through the
// transport returned by transport(), never through fetch or WebSocket.
//
// Today's only implementation is ServerTransport (server-transport.js):
// REST calls and a WebSocket to `quiddler serve`.  Another one (the engine
// running in a Web Worker) can be installed with useTransport() before the
// first screen is drawn, and the screens do not change.
//
// The interface (every method of an implementation; messages are the
// protocol's JSON objects, docs/protocol.md):
//
//   connect(table, hello, {onMessage(msg), onStatus(status, detail)})
//       -> a connection {send(msg) -> bool, close()}.  `hello` is the
//       first message, sent again after every reconnect; onMessage gets
//       every server message (welcome, lobby, state, hint, match, check,
//       rematch, error); onStatus gets "open" | "connecting" | "offline".
//       send() returns false when the message could not go (never queued).
//   createTable(settings) -> Promise<{table, invite, seat, token}>
//   joinTable(table, invite, name) -> Promise<{seat, token}>
//   tableSummary(table) -> Promise<{table, seats, started, over, hints, rules}>
//   rematch(table, token) -> Promise<{table, seat, token}>
//   listPlayers() -> Promise<{players, levels, default} | null>
//   recordUrl(table) -> the address the finished game's record downloads from
//
// A refused call rejects with ApiError (its `status` an HTTP status, its
// message the reason); a transport that cannot be reached rejects with any
// other error.

/** A refused call: `status` is the HTTP status (or its equivalent), `message` the reason. */
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

let current = null;

/** The transport the page uses (the server's, unless another was installed). */
export function transport() {
  if (!current) throw new Error("no transport installed: call useTransport() first");
  return current;
}

/** Install the transport every screen uses. */
export function useTransport(implementation) {
  current = implementation;
}
