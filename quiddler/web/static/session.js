// One table on screen: the seat credential, the connection and what the
// server last said (lobby, state, hint, error), the hand as the player
// arranged it, and the pace at which states are shown (motion.js).  Views
// are pure functions of this object; every change re-renders the table.

import { el, rerender, replace } from "./dom.js";
import { lobbyView, joinView } from "./lobby.js";
import { forgetSeat, loadSeat, saveSeat } from "./seats.js";
import { ApiError, transport } from "./transport.js";
import { rememberName, rememberedName } from "./home.js";
import { describeEvent, finalBanner, gameView, focusTarget, turnLine } from "./table.js";
import { winnerText } from "./results.js";
import { Arrangement } from "./hand.js";
import { errorText } from "./errors.js";
import { has, t } from "./messages.js";
import { PACES, StatePacer, changes, fly, rememberPace, rememberSound, rememberedPace, rememberedSound, tick } from "./motion.js";


const DRAWN_PREFIX = "quiddler.drawn.";

/** The cards this browser saw its seat draw blind at a table (the server's log never names them). */
function loadDrawn(table) {
  try {
    return new Map(JSON.parse(localStorage.getItem(DRAWN_PREFIX + table) || "[]"));
  } catch {
    return new Map();
  }
}

/** Keep this round's blind draws (older rounds' log is gone from the screen). */
function saveDrawn(table, drawn, round) {
  try {
    const kept = [...drawn].filter(([key]) => key.startsWith(`${round}:`));
    localStorage.setItem(DRAWN_PREFIX + table, JSON.stringify(kept));
  } catch {
    // storage off: the log says "You drew from the pile." after a reload
  }
}

export class TableSession {
  constructor(main, table, invite, { navigate } = {}) {
    this.navigate = navigate;
    this.main = main;
    this.table = table;
    this.invite = invite;
    this.seat = loadSeat(table); // {token, seat, name, invite?} or null
    this.socket = null;
    this.watching = false;
    this.lobby = null;
    this.view = null;
    this.seats = []; // the server's seat facts: {seat, kind, name, taken, connected}
    this.summary = null; // the table's public facts, on the invite page
    this.joinName = rememberedName();
    this.hintsAllowed = null; // null: the server did not say
    this.hint = null; // {for: moveKey, hint} or {for, pending: true}
    // The last error and the join form's refusal: each a function that says
    // it in the page's language (drawn when shown, so a switch of language redraws it).
    this.error = null;
    this.joinError = null;
    this.joinBusy = false;
    this.status = "connecting";
    this.copied = false;
    this.typed = ""; // what the person has typed into the words box
    this.matching = false; // a match request is on its way
    this.choice = null; // typed words that fit, waiting for the discard to be chosen
    this.arrangement = new Arrangement(); // the hand's order and word groups (hand.js)
    this.handFocus = 0; // the hand card the keyboard is on
    this.checks = new Map(); // "c,a,t" -> {valid, points}, or null while asked
    this.checkRetry = null; // the timer that asks refused word checks again
    this.checkRefusals = 0; // refusals in a row: each waits twice as long before asking again
    this.drawn = loadDrawn(table); // "round:log index" -> the card this seat drew blind there (kept over a reload)
    this.fresh = null; // the id of the card just drawn, marked until the next move
    this.resultShown = null; // the round (1-based) whose result is over the table
    this.rematchOffer = null; // the seat that asked for a rematch
    this.pace = rememberedPace();
    this.sound = rememberedSound();
    this.received = null; // the newest view from the server (this.view may still be an older one)
    this.pacer = new StatePacer({ show: (msg) => this.showState(msg), held: () => this.resultShown !== null });

    this.relabel();
    if (this.seat) {
      this.connect({ type: "hello", token: this.seat.token });
    } else if (invite) {
      this.render();
      // Who is at the table already, shown on the invite page; a table that
      // is full or gone is said at once rather than after typing a name.
      transport().tableSummary(table).then((summary) => {
        this.summary = summary;
        if (summary.started) this.joinError = () => t("tableFull");
        this.render();
      }, (exc) => {
        if (exc instanceof ApiError && exc.status === 404) this.joinError = () => t("noTable");
        this.render();
      });
    } else {
      this.watch();
    }
  }

  get mySeat() {
    return this.view ? this.view.seat : this.seat ? this.seat.seat : null;
  }

  /** Whether a seat is played by the computer. */
  isComputer(seat) {
    const s = this.seats[seat];
    return Boolean(s && s.kind && s.kind !== "human");
  }

  /** Whether a person's seat has no open connection (the player is away). */
  isAway(seat) {
    const s = this.seats[seat];
    return Boolean(s && s.kind === "human" && s.connected === false);
  }

  /**
   * Name of a seat: a person's name, a computer's level ("Computer
   * (medium)"), else "Seat N".  Two seats of one name get a number each
   * to tell them apart.
   */
  nameOf(seat) {
    const names = this.seats.map((s) => {
      if (!s || typeof s !== "object") return null;
      if (s.kind && s.kind !== "human") return t("computerName", { level: has(`levelShort.${s.kind}`) ? t(`levelShort.${s.kind}`) : s.kind });
      return typeof s.name === "string" && s.name ? s.name : null;
    });
    const name = names[seat];
    if (!name) return t("seatN", { n: seat + 1 });
    const same = names.filter((n) => n === name).length;
    return same > 1 ? t("nameNumbered", { name, n: names.slice(0, seat + 1).filter((n) => n === name).length }) : name;
  }

  /** Draw everything again in the page's language (after a switch of language). */
  relabel() {
    document.title = t("tableTitle");
    // The connection's status only while there is one: the invite page has none yet.
    if (this.socket) this.setStatus(this.status, this.statusDetail);
    this.render();
  }

  close() {
    this.pacer.close();
    clearTimeout(this.checkRetry);
    this.checkRetry = null;
    if (this.socket) this.socket.close();
    this.socket = null;
    const label = document.getElementById("connection");
    if (label) replace(label);
  }

  connect(hello) {
    this.close();
    this.socket = transport().connect(this.table, hello, {
      onMessage: (msg) => this.receive(msg),
      onStatus: (status, detail) => this.setStatus(status, detail),
    });
  }

  watch() {
    this.watching = true;
    this.connect({ type: "hello", watch: true });
    this.render();
  }

  async join(name) {
    if (!name) {
      this.joinError = () => t("nameFirst");
      this.render();
      return;
    }
    this.joinBusy = true;
    this.joinError = null;
    this.render();
    try {
      const joined = await transport().joinTable(this.table, this.invite, name);
      this.seat = { token: joined.token, seat: joined.seat, name };
      saveSeat(this.table, this.seat);
      rememberName(name);
      // The invite has done its job; keep it out of the address bar so a
      // copied address does not hand the next person this browser's role.
      history.replaceState(null, "", location.pathname);
      this.invite = null;
      this.connect({ type: "hello", token: joined.token });
    } catch (exc) {
      this.joinError = !(exc instanceof ApiError) ? () => t("unreachable")
        : exc.status === 403 ? () => t("badInvite")
        : exc.status === 409 ? () => t("tableFull")
        : exc.status === 404 ? () => t("noTable")
        : () => t("refused", { why: errorText(exc) });
    }
    this.joinBusy = false;
    this.render();
  }

  send(msg) {
    this.error = null;
    if (!this.socket || !this.socket.send(msg)) {
      this.error = () => t("notConnected");
      this.render();
      return false;
    }
    return true;
  }

  act(action) {
    if (this.send({ type: "action", action })) {
      this.pendingAction = true;
      this.render();
    }
  }

  /** Ask the server to match typed words to the hand; its answer comes as "match" or "error". */
  askMatch(words, discard, mode) {
    this.choice = null;
    this.matching = { mode, for: this.moveKey() };
    const msg = { type: "match", words, mode };
    if (discard) msg.discard = discard;
    if (!this.send(msg)) this.matching = false;
    this.render();
  }

  /** The server's matches for the typed words: play the best one, or ask for the discard. */
  matched(msg) {
    const asked = this.matching;
    this.matching = false;
    if (!asked || asked.for !== this.moveKey() || !Array.isArray(msg.matches) || !msg.matches.length) return;
    const best = msg.matches[0]; // most points first
    if (best.discard) {
      this.typed = "";
      this.act({ type: asked.mode, words: best.words, discard: best.discard });
    } else {
      this.choice = { for: asked.for, kind: asked.mode, words: best.words, left: best.left };
    }
  }

  askHint() {
    const key = this.moveKey();
    this.hint = { for: key, pending: true };
    if (!this.send({ type: "hint" })) this.hint = null;
    this.render();
  }

  /** Identifies the move in front of the player: a hint or a half-built word belongs to one move. */
  moveKey() {
    const v = this.view;
    return v ? JSON.stringify([v.round, v.turn, v.phase, v.hand, v.turns_taken]) : "";
  }

  setStatus(status, detail) {
    const reopened = status === "open" && this.status !== "open";
    this.status = status;
    this.statusDetail = detail;
    // The server answers a request on the connection it came by: what was on its way when that
    // one went is never answered.  A hint is asked again on the new one (after the hello, so
    // the state it brings comes first); a match is given up, so its button works again.
    if (status !== "open") this.matching = false;
    if (status !== "open") this.forgetPendingChecks();
    if (reopened && this.hint?.pending && !(this.socket && this.socket.send({ type: "hint" }))) this.hint = null;
    const label = document.getElementById("connection");
    if (label) {
      replace(label, status === "open" ? "" : status === "connecting" ? t("connecting")
        : t("connectionLost", { n: Math.max(1, Math.round((detail?.delay ?? 1000) / 1000)) }));
    }
    if (status !== "open") this.render();
  }

  receive(msg) {
    switch (msg.type) {
      case "lobby":
        this.lobby = msg;
        this.readTableFacts(msg);
        break;
      case "state": {
        if (!msg.view || typeof msg.view !== "object") return;
        const { events } = changes(this.received, msg.view);
        const mine = events.every((e) => e && e.player === msg.view.seat);
        this.received = msg.view;
        this.pacer.push(msg, mine);
        return;
      }
      case "check":
        this.checkRefusals = 0;
        if (Array.isArray(msg.words)) {
          for (const w of msg.words) {
            if (w && Array.isArray(w.cards)) this.checks.set(w.cards.join(","), { valid: w.valid === true, points: Number(w.points) || 0 });
          }
        }
        break;
      case "rematch":
        if (Number.isInteger(msg.by)) {
          this.rematchOffer = msg.by;
          if (msg.by !== this.mySeat) this.announce(t("rematchAsked", { name: this.nameOf(msg.by) }));
        }
        break;
      case "welcome":
        if (typeof msg.hints === "boolean") this.hintsAllowed = msg.hints;
        break;
      case "match":
        this.matched(msg);
        break;
      case "hint":
        if (this.hint && this.hint.pending) this.hint = { for: this.hint.for, hint: msg.hint, measure: msg.measure };
        break;
      case "error": {
        // The request it answers: an error that names none (a message the server could not
        // read, or one over the rate limit) may answer any of them, so each is given up.
        const answers = (type) => typeof msg.request !== "string" || msg.request === type;
        if (answers("action")) this.pendingAction = false;
        if (answers("match")) this.matching = false;
        if (answers("hint") && this.hint && this.hint.pending) this.hint = null;
        if (answers("check")) this.askChecksLater();
        if (msg.code === "no_table") {
          // Nothing to reconnect to: the table was never made, or its time is up.
          this.close();
          this.gone = true;
          this.error = () => t("noTableKept");
          break;
        }
        if (!this.view && !this.lobby && this.seat && !this.watching && msg.code === "bad_token") {
          // The stored token opens no seat here (an old table, or a database
          // that was wiped): forget it and offer the invite or watching.
          forgetSeat(this.table);
          this.seat = null;
          this.close();
          this.error = () => t("seatInvalid", { why: errorText(msg) });
          break;
        }
        this.error = () => errorText(msg, (seat) => this.nameOf(seat));
        this.announce(this.error());
        break;
      }
      default:
        return; // a message type this page does not know: ignored, as the protocol says
    }
    this.render();
  }

  /** The seats (each {seat, kind, name, taken, connected}: see nameOf) and whether hints are on. */
  readTableFacts(msg) {
    if (Array.isArray(msg.seats)) this.seats = msg.seats;
    if (typeof msg.hints === "boolean") this.hintsAllowed = msg.hints;
  }

  /** Draw one state from the server (the pacer calls this, in order); returns the pause before the next. */
  showState(msg) {
    this.readTableFacts(msg);
    const old = this.view;
    const view = msg.view;
    const { events, roundEnded } = changes(old, view);
    this.newState(view, events, roundEnded);
    this.render();
    const others = events.filter((e) => e && e.player !== view.seat);
    const pause = PACES[this.pace] ?? 0;
    if (others.length) this.animate(others.at(-1), pause);
    if (this.sound && events.length) tick();
    return others.length || (roundEnded && old && old.turn !== old.seat) ? pause : 0;
  }

  newState(view, events, roundEnded) {
    const old = this.view;
    this.view = view;
    this.lobby = null;
    this.pendingAction = false;
    const key = this.moveKey();
    if (this.hint && this.hint.for !== key) this.hint = null;
    if (this.choice && this.choice.for !== key) this.choice = null;
    if (!old || old.round !== view.round || old.phase !== view.phase || old.turn !== view.turn) this.error = null;
    // The hand: a new round is a new deal; otherwise the player's arrangement is kept.
    if (old && old.round !== view.round) {
      this.arrangement = new Arrangement();
      this.fresh = null;
    }
    if (events.length) this.fresh = null; // marked until the next move
    const added = this.arrangement.reconcile(Array.isArray(view.hand) ? view.hand : []);
    const start = Array.isArray(view.log) ? view.log.length - events.length : 0;
    events.forEach((event, i) => {
      if (event && event.player === view.seat && event.type === "draw" && added.length === 1 && old) {
        if (event.source === "pile") {
          this.drawn.set(`${view.round}:${start + i}`, added[0]);
          saveDrawn(this.table, this.drawn, view.round);
        }
        this.fresh = this.arrangement.loose.at(-1).id;
      }
    });
    // What happened since the last state, for the screen reader's live region: every move, anyone's.
    const said = [];
    events.forEach((event, i) => {
      if (event) said.push(describeEvent(event, this, this.drawnAt(view.round, start + i)));
    });
    if (roundEnded && Array.isArray(view.history) && view.history.length) {
      said.push(t("roundOver", { round: view.history.length }));
      if (view.phase !== "game_over") this.resultShown = view.history.at(-1).round;
      else said.push(winnerText(view, this));
    }
    if ((!old || roundEnded) && Array.isArray(view.seen) && view.seen.length && view.phase !== "game_over") {
      said.push(t("faceUpCard", { card: view.seen[0] }));
    }
    const banner = finalBanner(view, this);
    if (banner && (!old || banner !== finalBanner(old, this))) said.push(banner);
    const line = turnLine(view, this);
    if (!old || line !== turnLine(old, this) || said.length) said.push(line);
    this.announce(said.join(" "));
    this.justMoved = !old || old.turn !== view.turn || old.phase !== view.phase || old.round !== view.round;
    // The move came to this seat: the keyboard goes where it is played, wherever it was.
    this.moveCame = view.my_turn === true && (!old || !old.my_turn || old.phase !== view.phase || old.round !== view.round);
  }

  /** The card this seat drew blind at that place of the round's log, when this page saw it. */
  drawnAt(round, index) {
    return this.drawn.get(`${round}:${index}`);
  }

  /** Show someone else's move as a card flying between their seat and the piles. */
  animate(event, pause) {
    const ms = Math.min(700, pause * 0.8);
    const seat = this.main.querySelector(`#seat-${event.player}`);
    const pile = this.main.querySelector("#pile");
    const discard = this.main.querySelector("#discard");
    if (event.type === "draw") {
      const from = event.source === "pile" ? pile : discard;
      fly(from, from, seat, ms);
    }
    else if (event.type === "discard" || event.type === "go_out" || event.type === "lay_down") fly(discard, seat, discard, ms);
    const laid = this.main.querySelector(`#seat-${event.player} .laid`);
    if (laid && (event.type === "go_out" || event.type === "lay_down")) laid.classList.add("fresh-words");
  }

  /** The player goes on from a round's result to the next round (states held meanwhile follow). */
  closeResult() {
    this.resultShown = null;
    this.justMoved = true;
    this.render();
    this.pacer.pump();
  }

  /** Whether a word group spells a word: {valid, points}, or undefined while the server is asked. */
  checked(faces) {
    const key = faces.join(",");
    if (this.checks.has(key)) return this.checks.get(key) ?? undefined;
    this.checks.set(key, null);
    // Sent past send(): a word check is no move, so it leaves the error on screen as it is.
    queueMicrotask(() => {
      if (!this.socket || !this.socket.send({ type: "check", words: [faces] })) this.checks.delete(key);
    });
    return undefined;
  }

  /** Word checks asked and not answered are forgotten, so the next drawing asks them again. */
  forgetPendingChecks() {
    for (const [key, check] of this.checks) if (check === null) this.checks.delete(key);
  }

  /**
   * A word check was refused (the server was busy, or could not answer): the groups still say
   * "checking", and their checks are asked again after a wait, longer after each refusal in a
   * row, rather than at once, which a rate limit would refuse again.
   */
  askChecksLater() {
    if (this.checkRetry !== null) return;
    const wait = Math.min(30000, 1000 * 2 ** this.checkRefusals);
    this.checkRefusals += 1;
    this.checkRetry = setTimeout(() => {
      this.checkRetry = null;
      this.forgetPendingChecks();
      this.render();
    }, wait);
  }

  /** Rearrange the hand: ["focus", pos], ["move", ±1], ["group"], ["ungroup"], ["sort", by], ["drop", place]. */
  arrange([kind, arg], pos = 0) {
    const a = this.arrangement;
    let at = pos;
    let said = null;
    if (kind === "focus") at = arg;
    else if (kind === "move") at = a.step(pos, arg);
    else if (kind === "group") at = a.startGroup(pos);
    else if (kind === "ungroup") at = a.ungroup(pos);
    else if (kind === "drop") at = a.move(pos, arg);
    else if (kind === "sort") a.sort(arg);
    const place = a.places()[at];
    if (place && kind !== "focus" && kind !== "sort") {
      const count = a.places().length;
      said = kind === "group" ? t("grouped", { card: place.face }) : kind === "ungroup" ? t("ungrouped", { card: place.face })
        : t("moved", { card: place.face, pos: at + 1, count });
    }
    this.handFocus = at;
    this.render();
    if (kind !== "sort" && kind !== "drop") {
      const node = this.main.querySelector(`[data-focus="hand-${at}"]`);
      if (node) node.focus();
    }
    if (said) this.announce(said);
  }

  setPace(pace) {
    if (!(pace in PACES)) return;
    this.pace = pace;
    rememberPace(pace);
    if (pace === "instant") this.pacer.flush();
  }

  setSound(on) {
    this.sound = on;
    rememberSound(on);
  }

  /** Take this seat's place at a rematch (making it if nobody asked yet) and go there. */
  async rematch() {
    if (!this.seat) return;
    this.rematchBusy = true;
    this.render();
    try {
      const made = await transport().rematch(this.table, this.seat.token);
      saveSeat(made.table, { token: made.token, seat: made.seat, name: this.seat.name });
      this.navigate(`/t/${encodeURIComponent(made.table)}`);
    } catch (exc) {
      this.rematchBusy = false;
      this.error = exc instanceof ApiError ? () => t("rematchRefused", { why: errorText(exc) }) : () => t("unreachable");
      this.announce(this.error());
      this.render();
    }
  }

  announce(text) {
    const region = document.getElementById("announce");
    if (region && text) replace(region, text);
  }

  render() {
    const active = document.activeElement;
    const had = active && active !== this.main && this.main.contains(active) ? active.dataset.focus : undefined;
    const restored = rerender(this.main, () => this.build());
    if (this.moveCame && this.resultShown === null) {
      this.moveCame = false;
      const target = focusTarget(this);
      const node = target && this.main.querySelector(`[data-focus="${CSS.escape(target)}"]`);
      if (node && !node.disabled) {
        this.justMoved = false;
        node.focus();
        return;
      }
    }
    if (restored) return;
    if (had !== undefined) this.refocus();
    else this.placeFocus();
  }

  /**
   * The focused control went away (a card moved into a word, a move was
   * sent): put the keyboard on the next useful control rather than letting
   * it fall back to the start of the page.
   */
  refocus() {
    this.justMoved = false;
    const candidates = ["next-round", "go-out-groups", focusTarget(this)];
    for (const key of candidates) {
      const node = key && this.main.querySelector(`[data-focus="${CSS.escape(key)}"]`);
      if (node && !node.disabled) return node.focus();
    }
    const card = this.main.querySelector('button[data-focus^="hand-"]:not([disabled])');
    if (card) return card.focus();
    return this.main.focus();
  }

  /**
   * After a move, put the keyboard where the next action is (pile, then
   * hand).  So too on this seat's move whenever the keyboard is on nothing
   * (the page itself): a reconnection or a control that went away must not
   * leave a keyboard user to search for the pile.
   */
  placeFocus() {
    const active = document.activeElement;
    const lost = !active || active === document.body || active === this.main;
    if (!this.justMoved && !(lost && this.view?.my_turn === true)) return;
    this.justMoved = false;
    if (this.resultShown !== null) {
      const next = this.main.querySelector("#next-round");
      if (next) return next.focus();
    }
    if (active && active !== document.body && active !== this.main && this.main.contains(active)) return;
    const target = focusTarget(this);
    if (target) {
      const node = this.main.querySelector(`[data-focus="${CSS.escape(target)}"]`);
      if (node) node.focus();
    }
  }

  build() {
    const parts = [];
    if (!this.seat && !this.watching && this.invite) {
      parts.push(joinView({
        table: this.table, name: this.joinName, busy: this.joinBusy, error: this.joinError?.(), summary: this.summary,
        // What is typed is kept here: the form is drawn again when the table's facts arrive.
        onName: (name) => { this.joinName = name; }, onJoin: (name) => this.join(name), onWatch: () => this.watch(),
      }));
    } else if (this.view) {
      parts.push(gameView(this));
    } else if (this.lobby) {
      parts.push(lobbyView({
        table: this.table, lobby: this.lobby, mySeat: this.mySeat, invite: this.seat?.invite, copied: this.copied,
        onCopy: (link) => this.copy(link),
      }));
      if (this.error) parts.push(el("p", { class: "error", role: "alert" }, this.error()));
    } else if (this.error && !this.socket) {
      parts.push(el("section", { class: "panel" },
        el("p", { class: "error", role: "alert" }, this.error()),
        el("div", { class: "buttons" },
          this.gone ? null : el("button", { type: "button", id: "watch", onclick: () => this.watch() }, t("watchTable")),
          el("a", { href: "/", class: "button" }, t("backToStart")),
        ),
      ));
    } else {
      parts.push(el("p", { class: "loading" }, this.status === "open" ? t("waitingTable") : t("connectingTable")));
      if (this.error) parts.push(el("p", { class: "error", role: "alert" }, this.error()));
    }
    return parts;
  }

  async copy(link) {
    try {
      await navigator.clipboard.writeText(link);
      this.copied = true;
    } catch {
      // No clipboard access (an insecure origin, or refused): select the
      // text so the person can copy it with the keyboard.
      const input = document.getElementById("invite-link");
      if (input) input.select();
    }
    this.render();
  }
}
