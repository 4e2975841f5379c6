// The transport to `quiddler serve`: its REST calls and one WebSocket per
// table that reconnects by itself.  The only module that touches fetch or
// WebSocket (see transport.js for the interface it implements).

import { refusal } from "./transport.js";

async function request(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "same-origin",
  });
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) throw refusal(response.status, data);
  return data;
}

const tablePath = (table) => `/api/tables/${encodeURIComponent(table)}`;

/** The REST API and WebSockets of the server this page came from. */
export class ServerTransport {
  /** POST /api/tables: {table, invite, seat, token}. */
  createTable(settings) {
    return request("POST", "/api/tables", settings);
  }

  /** POST /api/tables/{table}/join: {seat, token}. */
  joinTable(table, invite, name) {
    return request("POST", `${tablePath(table)}/join`, { invite, name });
  }

  /** GET /api/tables/{table}: the public facts (seats, started, over, hints, rules). */
  tableSummary(table) {
    return request("GET", tablePath(table));
  }

  /** POST /api/tables/{table}/rematch: this seat's place at the rematch {table, seat, token}. */
  rematch(table, token) {
    return request("POST", `${tablePath(table)}/rematch`, { token });
  }

  /** GET /api/tables/{table}/review?seat=N: seat N's decisions against the best (GameReview.to_dict()). */
  review(table, seat) {
    return request("GET", `${tablePath(table)}/review?seat=${encodeURIComponent(seat)}`);
  }

  /** Where the finished game's record is downloaded from. */
  recordUrl(table) {
    return `${tablePath(table)}/record`;
  }

  /** GET /api/players, when the server lists its computer players (else null). */
  async listPlayers() {
    try {
      return await request("GET", "/api/players");
    } catch {
      return null;
    }
  }

  connect(table, hello, handlers) {
    return new TableSocket(table, hello, handlers);
  }
}

/**
 * The table's WebSocket.  `hello` is the first message ({type: "hello",
 * token} or {type: "hello", watch: true}); it is sent again after every
 * reconnect, so the server's answer (a lobby or state) brings the page up
 * to date.  Handlers: onMessage(msg), onStatus("open" | "connecting" |
 * "offline", detail).
 */
class TableSocket {
  constructor(table, hello, { onMessage, onStatus }) {
    this.url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/${encodeURIComponent(table)}`;
    this.hello = hello;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.failures = 0;
    this.closed = false;
    this.ws = null;
    this.connect();
    // A phone that wakes up or a laptop back on the network: retry at once
    // instead of waiting out the backoff.
    this.retryNow = () => {
      if (!this.closed && (!this.ws || this.ws.readyState === WebSocket.CLOSED)) {
        clearTimeout(this.timer);
        this.connect();
      }
    };
    window.addEventListener("online", this.retryNow);
    document.addEventListener("visibilitychange", this.retryNow);
  }

  connect() {
    this.onStatus("connecting", this.failures);
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.failures = 0;
      ws.send(JSON.stringify(this.hello));
      this.onStatus("open");
    });
    ws.addEventListener("message", (event) => {
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return; // not JSON: nothing the page can act on
      }
      if (msg && typeof msg === "object" && typeof msg.type === "string") this.onMessage(msg);
    });
    ws.addEventListener("close", (event) => {
      if (this.ws !== ws || this.closed) return;
      this.failures += 1;
      // Exponential backoff with jitter, at most 15 s: many clients of a
      // restarted server should not all knock at the same moment.
      const delay = Math.min(15000, 500 * 2 ** Math.min(this.failures - 1, 5)) * (0.75 + Math.random() / 2);
      this.onStatus("offline", { code: event.code, delay });
      this.timer = setTimeout(() => this.connect(), delay);
    });
  }

  /**
   * Send if connected; false when not.  Moves are never queued for later:
   * after a reconnect the table may have moved on, and the fresh state the
   * server sends decides what the player can do next.
   */
  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    window.removeEventListener("online", this.retryNow);
    document.removeEventListener("visibilitychange", this.retryNow);
    if (this.ws) this.ws.close(1000);
  }
}
