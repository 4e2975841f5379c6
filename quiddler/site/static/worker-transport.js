// The transport of the static site (quiddler site): the game engine runs
// in this page, in a Web Worker on Pyodide (worker.js), and answers the
// server's protocol there (quiddler.web.local).  The same interface as
// ServerTransport (transport.js), so the screens are the same; what differs:
//
//   - one game at a time, against the computer: a table with other people
//     needs the server (a seat for a person is refused, with the reason);
//   - the game is saved in this browser (localStorage) after every move,
//     before the page shows it, and rebuilt from its record on a reload,
//     at the same move;
//   - the finished game's record downloads from a blob: address.
//
// Nothing here talks to anything but this page's own files.

import { t } from "./messages.js";
import { ApiError, refusal } from "./transport.js";

const SAVE_KEY = "quiddler.site.game";
const here = (path) => new URL(path, import.meta.url).href;

/** What `quiddler site` built: versions, the wheels and the levels offered (quiddler-site.json). */
export const manifest = fetch(here("../quiddler-site.json")).then((response) => {
  if (!response.ok) throw new Error(`the site's manifest is missing (${response.status})`);
  return response.json();
});

let settle;
/**
 * Resolves once an engine of this page has started and answered all it was
 * asked, with nothing more asked for half a second (on the game's page:
 * the first hand is shown), or has failed to start.  The service worker
 * (site.js) fills its cache of the site's files only then, so that a first
 * visit's own downloads, start and first hand do not share the machine
 * with it.
 */
export const engineIdle = new Promise((resolve) => {
  settle = resolve;
});
const IDLE_MS = 500;
let asked = 0; // calls of this page's engines not yet answered
let anyStarted = false;
let idleTimer = null;

function maybeIdle() {
  clearTimeout(idleTimer);
  if (anyStarted && asked === 0) idleTimer = setTimeout(settle, IDLE_MS);
}

/**
 * The worker, called one operation at a time: call(op, body) resolves to
 * {status, body, ms}, the answer of quiddler.web.local.LocalHost.handle and
 * how long the engine took; it rejects if the engine could not start.
 * `started` resolves to {from, ms} once the engine is ready: "snapshot" if
 * it started from the copy of its memory a visit before kept, "start"
 * otherwise, and the worker's time to get there.
 */
export class Engine {
  constructor() {
    // The page's first engine is the worker engine-early.js started, if it did.
    const early = globalThis.quiddlerEarlyEngine;
    globalThis.quiddlerEarlyEngine = undefined;
    this.worker = early ? early.worker : new Worker(here("./worker.js"), { type: "module" });
    this.pending = new Map();
    this.next = 1;
    this.failure = null;
    this.started = new Promise((resolve) => {
      this.onStarted = resolve;
    });
    this.worker.addEventListener("message", (event) => {
      const { id, answer, ms, failed, started } = event.data;
      if (started !== undefined) {
        this.onStarted(started);
        anyStarted = true;
        maybeIdle();
        return;
      }
      if (failed !== undefined) settle();
      const waiting = this.pending.get(id);
      if (!waiting) return;
      this.pending.delete(id);
      asked -= 1;
      maybeIdle();
      if (failed !== undefined) waiting.reject(new Error(failed));
      else waiting.resolve({ ...JSON.parse(answer), ms });
    });
    this.worker.addEventListener("error", (event) => {
      this.failure = new Error(`the game engine did not start: ${event.message}`);
      settle();
      for (const waiting of this.pending.values()) waiting.reject(this.failure);
      this.pending.clear();
    });
    if (early) {
      this.worker.removeEventListener("message", early.keep);
      this.worker.removeEventListener("error", early.keep);
      for (const event of early.early) this.worker.dispatchEvent(new event.constructor(event.type, event));
    }
  }

  call(op, body = "") {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.next++;
    asked += 1;
    clearTimeout(idleTimer);
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, op, body: typeof body === "string" ? body : JSON.stringify(body) });
    });
  }
}

/** The answer's body, or ApiError with its status, code and reason. */
function accepted(answer) {
  if (answer.status >= 400) throw refusal(answer.status, answer.body);
  return answer.body;
}

function savedGame() {
  try {
    return localStorage.getItem(SAVE_KEY);
  } catch {
    return null; // storage off: a reload starts afresh
  }
}

export class WorkerTransport {
  constructor() {
    this.engine = new Engine();
    this.table = null; // the table the engine holds
    this.records = new Map(); // table -> blob: address of its finished record
  }

  /** Keep the game in this browser: what a reload resumes from. */
  async save() {
    const saved = accepted(await this.engine.call("save")); // JSON text: the seed stays exact
    try {
      localStorage.setItem(SAVE_KEY, saved);
    } catch {
      // storage full or off: the game plays on, a reload cannot resume it
    }
  }

  /** The engine holds `table`: rebuilt from the saved game if it does not yet. */
  async hold(table) {
    if (this.table === table) return;
    const saved = savedGame();
    let parsed = null;
    try {
      parsed = saved && JSON.parse(saved);
    } catch {
      parsed = null;
    }
    if (!parsed || parsed.table !== table) {
      throw new ApiError(404, t("site.noServer"));
    }
    accepted(await this.engine.call("restore", saved));
    this.table = table;
  }

  async createTable(settings) {
    const made = accepted(await this.engine.call("create", settings));
    this.table = made.table;
    await this.save();
    return made;
  }

  async joinTable() {
    throw new ApiError(404, t("site.noServer"));
  }

  async tableSummary(table) {
    await this.hold(table);
    return accepted(await this.engine.call("summary"));
  }

  async rematch(table, token) {
    await this.hold(table);
    const made = accepted(await this.engine.call("rematch", { token }));
    this.table = made.table;
    await this.save();
    return made;
  }

  async listPlayers() {
    try {
      return (await manifest).players;
    } catch {
      return null;
    }
  }

  recordUrl(table) {
    return this.records.get(table) ?? "";
  }

  async review(table, seat) {
    await this.hold(table);
    return accepted(await this.engine.call("review", { seat }));
  }

  /** Make the finished game's record ready to download, before its last state is shown. */
  async keepRecord(table) {
    if (this.records.has(table)) return;
    const record = accepted(await this.engine.call("record")); // JSON text: the seed stays exact
    const blob = new Blob([record], { type: "application/json" });
    this.records.set(table, URL.createObjectURL(blob));
  }

  connect(table, hello, handlers) {
    return new LocalConnection(this, table, hello, handlers);
  }
}

/**
 * A table's connection: the client messages go to the engine in order, and
 * its replies come back as the server's would; after a move the computer
 * seats play, one state per move, as the server broadcasts them.
 */
class LocalConnection {
  constructor(transport, table, hello, { onMessage, onStatus }) {
    this.transport = transport;
    this.table = table;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.open = false;
    this.closed = false;
    this.onStatus("connecting", 0);
    this.queue = this.start(hello).catch((exc) => this.fail(exc));
  }

  async start(hello) {
    await this.transport.hold(this.table);
    await this.exchange(hello);
    if (this.closed) return;
    this.open = true;
    this.onStatus("open");
    await this.playComputers();
  }

  fail(exc) {
    if (this.closed) return;
    if (exc instanceof ApiError) {
      const code = exc.status === 404 ? "no_table" : exc.code;
      this.onMessage({ type: "error", code, reason: exc.reason, params: exc.params, message: exc.message });
    } else {
      // The engine itself failed (Pyodide did not start): its own words are for a developer, not the player.
      this.onMessage({ type: "error", code: "engine", message: t("site.engineFailed") });
    }
    this.onStatus("offline", { code: 1011, delay: null });
  }

  /** One client message: its replies delivered (a new state saved first). */
  async exchange(msg) {
    const replies = accepted(await this.transport.engine.call("message", msg));
    if (replies.some((reply) => reply.type === "state")) await this.transport.save();
    await this.deliver(replies);
    return replies;
  }

  async deliver(replies) {
    for (const reply of replies) {
      if (this.closed) return;
      if (reply.type === "state" && reply.view.phase === "game_over") await this.transport.keepRecord(this.table);
      this.onMessage(reply);
    }
  }

  /** The computer seats' moves, until it is the person's turn or the game is over. */
  async playComputers() {
    while (!this.closed) {
      const state = accepted(await this.transport.engine.call("step"));
      if (state === null) return;
      await this.transport.save();
      await this.deliver([state]);
    }
  }

  send(msg) {
    if (!this.open || this.closed) return false;
    this.queue = this.queue
      .then(async () => {
        const replies = await this.exchange(msg);
        if (msg.type === "action" && replies.some((reply) => reply.type === "state")) await this.playComputers();
      })
      .catch((exc) => this.fail(exc));
    return true;
  }

  close() {
    this.closed = true;
  }
}
