// The game itself: players, piles, the hand, and the controls for the
// move in front of this seat (draw, discard, build words and go out, or
// lay down on a final turn), with hints when the table allows them.

import { el, plural } from "./dom.js";
import { WordProblem, parseTyped, points, wordPoints, wordText } from "./cards.js";
import { rulesText } from "./lobby.js";
import { gameOverView, roundResultView, scoreSheet } from "./results.js";

const isMyTurn = (v) => v.my_turn === true;
const isFinalTurn = (v) => v.went_out !== null && v.went_out !== undefined && v.went_out !== v.seat;
/** The rules let this seat go out now (the server applies the first-turn variant; the cards are not judged). */
const mayGoOut = (v) => v.may_go_out === true;

const who = (session, seat) => (seat === session.view?.seat ? "You" : session.nameOf(seat));
const wordsText = (words) => words.map((w) => wordText(w)).join(", ");

/** One public action as a sentence: "Bo took the e from the discard pile". */
export function describeEvent(event, session) {
  // `event` is the action's record encoding (with its player), plus
  // `taken` (the face-up card a draw took) and `reshuffled`.
  const name = who(session, event.player);
  switch (event.type) {
    case "draw":
      if (event.source === "discard") return `${name} took the ${event.taken ?? "top card"} from the discard pile.`;
      return `${name} drew from the pile${event.reshuffled ? " (the discards were shuffled into a new pile)" : ""}.`;
    case "discard":
      return `${name} discarded ${event.card}.`;
    case "go_out":
      return `${name} went out with ${wordsText(event.words)} and discarded ${event.discard}.`;
    case "lay_down":
      return `${name} laid down ${event.words.length ? wordsText(event.words) : "no words"} and discarded ${event.discard}.`;
    default:
      return `${name} moved.`;
  }
}

/** Whose turn it is and what they must do, in one sentence. */
export function turnLine(v, session) {
  if (v.phase === "game_over") return "Game over.";
  if (!isMyTurn(v)) {
    const name = session.nameOf(v.turn);
    const final = v.went_out !== null && v.went_out !== undefined ? ", final turn" : "";
    if (session.isComputer(v.turn)) return `${name} is thinking${final ? " (final turn)" : ""}…`;
    const away = session.isAway(v.turn) ? " (away: the game waits for them)" : "";
    return `${name}'s turn${final}: ${v.phase === "draw" ? "drawing" : "discarding"}${away}.`;
  }
  if (v.phase === "draw") {
    const top = v.discard_top ? ` or take the ${v.discard_top} from the discard pile` : "";
    return `Your turn: draw from the pile${top}.`;
  }
  if (isFinalTurn(v)) {
    return `Your final turn (${session.nameOf(v.went_out)} went out): lay down what words you can and discard one card; cards left in your hand count against you.`;
  }
  return mayGoOut(v) ? "Your turn: discard a card, or go out." : "Your turn: discard a card (no going out on your first turn).";
}

/** Where the keyboard goes when the move comes to this seat. */
export function focusTarget(session) {
  const v = session.view;
  if (!v) return null;
  if (v.phase === "game_over") return "download";
  if (!isMyTurn(v)) return null;
  return v.phase === "draw" ? "pile" : "hand-0";
}

function cardFace(face) {
  return [el("span", { class: "face" }, face), el("span", { class: "pts", "aria-hidden": "true" }, String(points(face)))];
}

/** A card that is only shown. */
const cardShown = (face, extra = "") => el("span", { class: `card ${extra}`, role: "img", "aria-label": `${face}, ${points(face)} points` }, cardFace(face));

/** A card that is a button: `label` is what pressing it does, for screen readers. */
const cardButton = (face, { label, focus, onclick, extra = "", disabled = false }) =>
  el("button", { type: "button", class: `card ${extra}`, "aria-label": label, "data-focus": focus, "data-face": face, onclick, disabled }, cardFace(face));

const wordChip = (faces) => el("span", { class: "word" }, wordText(faces), el("span", { class: "pts" }, ` ${wordPoints(faces)}`));

function playersView(v, session) {
  const seats = [...Array(v.players ?? v.totals.length).keys()];
  return el("ul", { class: "players", "aria-label": "Players" }, seats.map((seat) => {
    const laid = v.laid_down?.[seat] ?? [];
    const tags = [];
    if (seat === v.dealer) tags.push("dealer");
    if (seat === v.went_out) tags.push("went out");
    if (session.isAway(seat)) tags.push("away");
    return el("li", { class: `player${seat === v.turn && v.phase !== "game_over" ? " turn" : ""}${seat === v.seat ? " me" : ""}`, id: `player-${seat}` },
      el("div", { class: "who" },
        el("span", { class: "name" }, session.nameOf(seat), seat === v.seat && session.nameOf(seat) !== "You" ? " (you)" : ""),
        el("span", { class: "total", "aria-label": `total ${v.totals[seat]}` }, String(v.totals[seat])),
      ),
      el("div", { class: "small" },
        seat === v.turn && v.phase !== "game_over" ? el("strong", {}, "to move · ") : null,
        plural(v.hand_sizes[seat], "card"),
        tags.length ? ` · ${tags.join(", ")}` : "",
      ),
      laid.length ? el("div", { class: "laid" }, laid.map(wordChip)) : null,
    );
  }));
}

function pilesView(v, session) {
  const drawing = isMyTurn(v) && v.phase === "draw" && !session.pendingAction;
  const canPile = drawing && v.may_draw_from_pile !== false;
  const top = v.discard_top;
  return el("div", { class: "piles", role: "group", "aria-label": "Piles" },
    el("figure", {}, el("button", {
      type: "button", class: "card pile", id: "pile", "data-focus": "pile", disabled: !canPile,
      "aria-label": `Draw from the pile (${plural(v.draw_pile_size, "card")})`, onclick: () => session.act({ type: "draw", source: "pile" }),
    }, el("span", { class: "face" }, "?"), el("span", { class: "pts" }, String(v.draw_pile_size))),
    el("figcaption", {}, "Draw pile")),
    el("figure", {}, top
      ? cardButton(top, {
        label: `Take the ${top} (${points(top)} points) from the discard pile`, focus: "discard-top", extra: "discard-top",
        disabled: !drawing, onclick: () => session.act({ type: "draw", source: "discard" }),
      })
      : el("span", { class: "card empty", id: "discard-empty" }, "empty"),
    el("figcaption", {}, "Discard")),
  );
}

/** Indices of the hand not yet in a built word. */
const freeIndices = (hand, b) => hand.map((_, i) => i).filter((i) => !b.words.some((w) => w.includes(i)) && !b.current.includes(i));

function handView(v, session) {
  const discarding = isMyTurn(v) && v.phase === "discard" && !session.pendingAction;
  const b = session.builder;
  const final = isFinalTurn(v);
  const cards = v.hand.map((face, i) => {
    if (b) {
      if (!freeIndices(v.hand, b).includes(i)) return null;
      return el("li", {}, cardButton(face, {
        label: `Add ${face} (${points(face)} points) to the word`, focus: `hand-${i}`,
        onclick: () => { b.current.push(i); session.render(); },
      }));
    }
    if (!discarding) return el("li", {}, cardShown(face));
    return el("li", {}, cardButton(face, {
      label: final ? `Discard ${face} and lay down nothing` : `Discard ${face} (${points(face)} points)`, focus: `hand-${i}`,
      onclick: () => session.act(final ? { type: "lay_down", words: [], discard: face } : { type: "discard", card: face }),
    }));
  });
  const held = v.hand.reduce((s, f) => s + points(f), 0);
  return el("section", { class: "hand-area", "aria-labelledby": "hand-title" },
    el("h2", { id: "hand-title" }, b ? "Cards left" : "Your hand", el("span", { class: "small" }, ` ${plural(v.hand.length, "card")}, ${plural(held, "point")}`)),
    el("ul", { class: "hand", id: "hand" }, cards),
    discarding && !b ? el("p", { class: "small" }, final ? "Press a card to discard it without laying anything down, or lay down words first." : "Press a card to discard it.") : null,
  );
}

/** The word builder: click cards into words, then go out (or lay down). */
function builderView(v, session) {
  const b = session.builder;
  const faces = (w) => w.map((i) => v.hand[i]);
  const free = freeIndices(v.hand, b);
  const words = [...b.words, ...(b.current.length >= 2 ? [b.current] : [])];
  const ready = b.current.length !== 1;
  const send = (discardIndex) => {
    const action = { type: b.mode === "go-out" ? "go_out" : "lay_down", words: words.map(faces), discard: v.hand[discardIndex] };
    session.act(action);
  };
  const finish = [];
  if (b.mode === "go-out") {
    if (free.length === 1 && words.length && ready) {
      finish.push(el("button", { type: "button", class: "primary", id: "go-out-send", "data-focus": "go-out-send", onclick: () => send(free[0]) },
        `Go out: ${words.map((w) => wordText(faces(w))).join(", ")}, discard ${v.hand[free[0]]}`));
    } else {
      finish.push(el("p", { class: "small" }, free.length > 1 ? `Put every card but one into words (${free.length - 1} more to place).` : "Keep one card to discard."));
    }
  } else if (ready && free.length >= 1) {
    const uniques = [...new Set(free.map((i) => v.hand[i]))];
    finish.push(el("p", { class: "small" }, "Choose the card to discard:"));
    finish.push(el("div", { class: "buttons" }, uniques.map((face) => el("button", {
      type: "button", class: "primary", "data-focus": `lay-${face}`, "data-face": face,
      onclick: () => send(free.find((i) => v.hand[i] === face)),
    }, `Lay down ${words.length} word${words.length === 1 ? "" : "s"}, discard ${face}`))));
  }
  const cancel = () => { session.builder = null; session.render(); };
  return el("section", { class: "panel builder", "aria-labelledby": "builder-title" },
    el("h2", { id: "builder-title" }, b.mode === "go-out" ? "Going out" : "Final turn: laying down"),
    el("ol", { class: "built" },
      b.words.map((w, k) => el("li", {},
        el("span", { class: "cards-row" }, faces(w).map((f) => cardShown(f, "small-card"))),
        el("button", { type: "button", class: "link", "data-focus": `unword-${k}`, onclick: () => { b.words.splice(k, 1); session.render(); } },
          `Take back ${wordText(faces(w))}`),
      )),
      el("li", { class: "current" },
        el("span", { class: "cards-row", "aria-label": "word being built" },
          b.current.length ? faces(b.current).map((f) => cardShown(f, "small-card")) : el("span", { class: "small" }, "Press cards in your hand to spell a word.")),
      ),
    ),
    el("div", { class: "buttons" },
      el("button", {
        type: "button", id: "finish-word", "data-focus": "finish-word", disabled: b.current.length < 2,
        onclick: () => { b.words.push(b.current); b.current = []; session.render(); },
      }, "Finish this word"),
      el("button", {
        type: "button", id: "undo-card", "data-focus": "undo-card", disabled: !b.current.length,
        onclick: () => { b.current.pop(); session.render(); },
      }, "Undo last card"),
      el("button", { type: "button", id: "cancel-build", "data-focus": "cancel-build", onclick: cancel }, "Cancel (Esc)"),
    ),
    finish,
  );
}

/**
 * Typing the words: the server matches them to the hand's cards ("match")
 * and answers with the ways they fit, or with `quiddler play`'s exact
 * reason why they cannot.  See session.matched() for what follows.
 */
function typedView(v, session, mode) {
  const input = el("input", {
    id: "words-input", name: "words", autocomplete: "off", autocapitalize: "none", spellcheck: "false", maxlength: 200,
    "data-focus": "words-input", placeholder: mode === "go-out" ? "quiet ax" : "quiet ax discard z", value: session.typed,
    oninput: (e) => { session.typed = e.target.value; },
  });
  const form = el("form", { class: "typed", id: "typed-form", novalidate: true },
    el("label", { for: "words-input" }, mode === "go-out" ? "Or type your words to go out:" : "Or type the words to lay down:"),
    el("div", { class: "row" }, input,
      el("button", { type: "submit", id: "typed-send", "data-focus": "typed-send", disabled: Boolean(session.matching) },
        mode === "go-out" ? "Go out" : "Lay down")),
    el("p", { class: "small" }, "Words separated by spaces; add \u201cdiscard x\u201d to name the card to discard."),
    choiceView(session),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    session.error = null;
    try {
      const { words, discard } = parseTyped(input.value);
      if (!words.length && mode === "go-out") throw new WordProblem("type the words you go out with, e.g. quiet ax");
      if (!words.length) {
        if (!discard) throw new WordProblem("type the words to lay down, or \u201cdiscard x\u201d to lay nothing down");
        session.act({ type: "lay_down", words: [], discard });
        return;
      }
      session.askMatch(words, discard, mode === "go-out" ? "go_out" : "lay_down");
    } catch (exc) {
      if (!(exc instanceof WordProblem)) throw exc;
      session.error = exc.message;
      session.announce(exc.message);
      session.render();
    }
  });
  return form;
}

/** Typed words that fit but leave several cards: which one to discard. */
function choiceView(session) {
  const c = session.choice;
  if (!c) return null;
  return el("div", { class: "choice", role: "group", "aria-label": "Choose the card to discard" },
    el("p", {}, `Those words leave ${c.left.join(", ")}: which card do you discard?`),
    el("div", { class: "buttons" }, [...new Set(c.left)].map((face) => el("button", {
      type: "button", class: "primary", "data-focus": `choose-${face}`, "data-face": face,
      onclick: () => session.act({ type: c.kind, words: c.words, discard: face }),
    }, `Discard ${face}`))),
  );
}

function describeOption(o) {
  const words = (o.words || []).map((w) => `${w.word} (${w.cards.join(",")})`).join(", ") || "no words";
  switch (o.action) {
    case "take-discard": return `take the discard top (${o.card})`;
    case "draw-pile": return "draw from the pile";
    case "discard": return `discard ${o.card}`;
    case "go-out": return `go out with ${words}, discard ${o.card}`;
    case "lay-down": return `lay down ${words}, discard ${o.card}`;
    default: return String(o.action);
  }
}

function hintView(session) {
  const h = session.hint;
  if (!h) return null;
  if (h.pending) return el("section", { class: "panel hint", id: "hint", "aria-live": "polite" }, el("p", {}, "Thinking about your move…"));
  const hint = h.hint || {};
  const options = Array.isArray(hint.options) ? hint.options : [];
  return el("section", { class: "panel hint", id: "hint", "aria-labelledby": "hint-title" },
    el("h2", { id: "hint-title" }, "Hint: ", hint.recommended ? describeOption(hint.recommended) : "no advice"),
    hint.reason ? el("p", { class: "reason" }, hint.reason) : null,
    options.length ? el("ol", { class: "options", "aria-label": "Options, best first (expected points)" },
      options.map((o) => el("li", {
        "data-action": o.action, "data-card": o.card ?? "",
        "data-words": (o.words || []).map((w) => w.cards.join(",")).join(" "),
      }, describeOption(o), el("span", { class: "value" }, ` ${Number(o.value).toFixed(1)}`)))) : null,
  );
}

function controlsView(v, session) {
  if (!isMyTurn(v)) return null;
  const parts = [];
  const discarding = v.phase === "discard" && !session.pendingAction;
  const hintsOn = session.hintsAllowed !== false;
  const buttons = [];
  if (discarding && !session.builder) {
    const mode = isFinalTurn(v) ? "lay-down" : mayGoOut(v) ? "go-out" : null;
    if (mode) {
      buttons.push(el("button", {
        type: "button", id: "build-words", "data-focus": "build-words", class: "primary",
        onclick: () => { session.builder = { for: session.moveKey(), mode, words: [], current: [] }; session.render(); },
      }, mode === "go-out" ? "Go out…" : "Lay down words…"));
    }
  }
  if (hintsOn) {
    buttons.push(el("button", {
      type: "button", id: "hint-button", "data-focus": "hint-button", disabled: Boolean(session.hint?.pending),
      onclick: () => session.askHint(),
    }, "Hint"));
  }
  if (buttons.length) parts.push(el("div", { class: "buttons controls" }, buttons));
  if (discarding && session.builder) parts.push(builderView(v, session));
  if (discarding) {
    const mode = isFinalTurn(v) ? "lay-down" : mayGoOut(v) ? "go-out" : null;
    if (mode) parts.push(typedView(v, session, mode));
  }
  return parts;
}

function logView(v, session) {
  const events = Array.isArray(v.log) ? v.log.slice(-6) : [];
  if (!events.length) return null;
  return el("section", { class: "log", "aria-labelledby": "log-title" },
    el("h2", { id: "log-title" }, "This round"),
    el("ol", { id: "log" }, events.map((e) => el("li", {}, describeEvent(e, session)))),
  );
}

function resultsView(v, session) {
  const history = Array.isArray(v.history) ? v.history : [];
  if (!history.length) return null;
  const last = history.at(-1);
  const before = history.length > 1 ? history.at(-2).totals : last.totals.map(() => 0);
  // The last round's result opens by itself while the next round is young
  // (or the game is over); after that it stays as the person left it.
  const chosen = session.resultOpen && session.resultOpen.round === last.round ? session.resultOpen.open : null;
  const young = v.phase === "game_over" || (Array.isArray(v.log) && v.log.length < 2 * (v.players ?? 2));
  return [
    roundResultView(last, before, v.rules, session, {
      open: chosen ?? young,
      onToggle: (open) => { session.resultOpen = { round: last.round, open }; },
    }),
    el("details", { class: "sheet-box", open: v.phase === "game_over" },
      el("summary", { "data-focus": "sheet" }, "Score sheet"), scoreSheet(v, session)),
  ];
}

/** The whole table for the current state. */
export function gameView(session) {
  const v = session.view;
  const rounds = v.rules?.round_sizes?.length ?? "?";
  const over = v.phase === "game_over";
  return el("div", {
    class: "game",
    // Esc leaves the word builder from wherever the keyboard is (usually the hand).
    onkeydown: (e) => {
      if (e.key === "Escape" && session.builder) {
        session.builder = null;
        session.render();
      }
    },
  },
    el("div", { class: "status" },
      el("p", { class: "round", id: "round-line" },
        over ? `Game over after ${plural(rounds, "round")}` : `Round ${v.round + 1} of ${rounds} · ${v.round_size} cards each · ${v.dealer === v.seat ? "you deal" : `${session.nameOf(v.dealer)} deals`}`),
      over ? null : el("p", { class: `turn-line${isMyTurn(v) ? " mine" : ""}`, id: "turn-line" }, turnLine(v, session)),
      el("details", { class: "rules-line", open: Boolean(session.rulesOpen), ontoggle: (e) => { session.rulesOpen = e.target.open; } }, el("summary", { "data-focus": "rules" }, "Rules at this table"),
        el("p", { class: "small" }, rulesText(v.rules, session.hintsAllowed))),
      v.seat === null || v.seat === undefined ? el("p", { class: "small", id: "watching" }, "You are watching: you see what every player may see, never a hand.") : null,
    ),
    session.error ? el("p", { class: "error", role: "alert", id: "error" }, session.error) : null,
    over ? gameOverView(v, session) : null,
    playersView(v, session),
    over ? null : el("div", { class: "play-area" },
      pilesView(v, session),
      v.seat === null || v.seat === undefined ? null : handView(v, session),
    ),
    over ? null : controlsView(v, session),
    hintView(session),
    logView(v, session),
    resultsView(v, session),
  );
}
