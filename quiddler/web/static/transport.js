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
//   review(table, seat) -> Promise<the review of that seat's decisions, once
//       the game is over (GameReview.to_dict(), docs/json.md)>
//
// A refused call rejects with ApiError (its `status` an HTTP status, its
// message the reason); a transport that cannot be reached rejects with any
// other error.

/**
 * A refused call: `status` is the HTTP status (or its equivalent),
 * `message` the server's English reason; `code`, `reason` and `params`
 * (when the server sent them) say it in any language (errors.js).
 */
export class ApiError extends Error {
  constructor(status, message, { code = null, reason = null, params = {} } = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.reason = reason;
    this.params = params;
  }
}

/** The ApiError of a refusal's JSON body ({error, message, reason?, params?}). */
export function refusal(status, body) {
  const message = body && typeof body.message === "string" ? body.message : "";
  return new ApiError(status, message, {
    code: typeof body?.error === "string" ? body.error : null,
    reason: typeof body?.reason === "string" ? body.reason : null,
    params: body?.params && typeof body.params === "object" ? body.params : {},
  });
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
