// The game itself: the table surface with a seat for every player, the
// piles in the middle, this seat's hand at the bottom, and the controls
// for the move in front of it (draw, discard, go out or lay down with the
// word groups or typed words), with hints when the table allows them.

import { el } from "./dom.js";
import { TYPED_EXAMPLES, WordProblem, parseTyped, points, wordPoints, wordText } from "./cards.js";
import { enableDrag, handKeys } from "./hand.js";
import { explanationText } from "./hints.js";
import { rulesText } from "./lobby.js";
import { amount, calledYou, list, num, t } from "./messages.js";
import { gameOverView, roundOverlay, scoreSheet } from "./results.js";

const isMyTurn = (v) => v.my_turn === true;
const someoneOut = (v) => v.went_out !== null && v.went_out !== undefined;
const isFinalTurn = (v) => someoneOut(v) && v.went_out !== v.seat && v.phase !== "game_over";
/** The rules let this seat go out now (the server applies the first-turn variant; the cards are not judged). */
const mayGoOut = (v) => v.may_go_out === true;
const isMe = (session, seat) => seat === session.view?.seat && seat !== null && seat !== undefined;
const wordsText = (words) => list(words.map((w) => wordText(w)));

/** One public action as a sentence: "Bo took the e from the discard pile."  `drawn` names the card this seat drew blind, when known. */
export function describeEvent(event, session, drawn) {
  const mine = isMe(session, event.player);
  const name = session.nameOf(event.player);
  switch (event.type) {
    case "draw":
      if (event.source === "discard") return t(mine ? "youTook" : "theyTook", { name, card: event.taken ?? "?" });
      if (mine && drawn) return t(event.reshuffled ? "youDrewCardReshuffled" : "youDrewCard", { card: drawn });
      if (mine) return t("youDrew");
      return t(event.reshuffled ? "theyDrewReshuffled" : "theyDrew", { name });
    case "discard":
      return t(mine ? "youDiscarded" : "theyDiscarded", { name, card: event.card });
    case "go_out":
      return t(mine ? "youWentOut" : "theyWentOut", { name, words: wordsText(event.words), card: event.discard });
    case "lay_down":
      if (!event.words.length) return t(mine ? "youLaidNothing" : "theyLaidNothing", { name, card: event.discard });
      return t(mine ? "youLaidDown" : "theyLaidDown", { name, words: wordsText(event.words), card: event.discard });
    default:
      return "";
  }
}

/** Whose turn it is and what they must do, in one sentence. */
export function turnLine(v, session) {
  if (v.phase === "game_over") return t("gameOver");
  const final = someoneOut(v);
  if (!isMyTurn(v)) {
    const name = session.nameOf(v.turn);
    if (session.isComputer(v.turn)) return t(final ? "thinkingFinal" : "thinking", { name });
    const line = t(final ? (v.phase === "draw" ? "theirFinalDraw" : "theirFinalDiscard") : (v.phase === "draw" ? "theirTurnDraw" : "theirTurnDiscard"), { name });
    return session.isAway(v.turn) ? `${line} ${t("awayNote", { name })}` : line;
  }
  if (v.phase === "draw") {
    if (final) return v.discard_top ? t("yourFinalDraw", { card: v.discard_top }) : t("yourFinalDrawNoDiscard");
    return v.discard_top ? t("yourDraw", { card: v.discard_top }) : t("yourDrawNoDiscard");
  }
  if (isFinalTurn(v)) return t("yourFinalDiscard");
  return mayGoOut(v) ? t("yourDiscard") : t("yourDiscardFirstTurn");
}

/** The words the player who went out laid down. */
const outWords = (v) => (someoneOut(v) ? v.laid_down?.[v.went_out] ?? [] : []);

/** The banner of the final turn: said before the draw, in the table's middle. */
export function finalBanner(v, session) {
  if (!someoneOut(v) || v.phase === "game_over") return null;
  const name = session.nameOf(v.went_out);
  const words = wordsText(outWords(v));
  if (isMe(session, v.went_out)) return t("finalBannerYou", { words });
  if (v.seat === null || v.seat === undefined) return t("finalBannerWatching", { name, words });
  return t("finalBanner", { name, words });
}

/** Where the keyboard goes when the move comes to this seat. */
export function focusTarget(session) {
  const v = session.view;
  if (!v) return null;
  if (v.phase === "game_over") return "rematch";
  if (!isMyTurn(v)) return null;
  if (v.phase === "draw") return "pile";
  // After a draw, the card drawn (the one most often played next), else the first.
  const fresh = session.arrangement.places().findIndex((p) => p.card.id === session.fresh);
  return `hand-${Math.max(0, fresh)}`;
}

// -- cards -------------------------------------------------------------------------

/** A card's letters (left to right in any page) and its points in the page's digits. */
function face(card) {
  return [
    el("span", { class: "face", dir: "ltr" }, card),
    el("span", { class: "pts corner-start", "aria-hidden": "true" }, num(points(card))),
    el("span", { class: "pts corner-end", "aria-hidden": "true" }, num(points(card))),
  ];
}
const cardClass = (card, extra = "") => `card${card.length === 2 ? " duo" : ""}${extra ? ` ${extra}` : ""}`;

/** A card that is only shown. */
export const cardShown = (card, extra = "") =>
  el("span", { class: cardClass(card, extra), role: "img", "aria-label": t("cardLabel", { card, points: points(card) }) }, face(card));

/** A row of cards: a word on the table or in a result, spelled left to right in any page. */
export const cardRow = (cards, extra = "small-card") => el("span", { class: "cards-row", dir: "ltr" }, cards.map((c) => cardShown(c, extra)));

/** The backs of an opponent's cards (at most a fanned few shown, the count said). */
function cardBacks(count, name) {
  if (!count) return null;
  return el("span", { class: "backs", role: "img", "aria-label": t("cardBacks", { name, n: count }) },
    [...Array(Math.min(count, 8)).keys()].map(() => el("span", { class: "back" })),
    el("span", { class: "count", "aria-hidden": "true" }, num(count)));
}

// -- the table ---------------------------------------------------------------------

/** A name that already says "you" (the name "Play now" gives) needs no "(you)" after it. */

function seatView(v, session, seat) {
  const laid = v.laid_down?.[seat] ?? [];
  const tags = [];
  if (seat === v.dealer) tags.push(t("dealer"));
  if (seat === v.went_out) tags.push(t("wentOutTag"));
  if (session.isAway(seat)) tags.push(t("away"));
  const turn = seat === v.turn && v.phase !== "game_over";
  const name = session.nameOf(seat);
  return el("li", { class: `seat${turn ? " turn" : ""}${isMe(session, seat) ? " me" : ""}`, id: `seat-${seat}`, "data-seat": seat },
    el("div", { class: "who" },
      el("span", { class: "name", title: name, tabindex: 0, "data-focus": `name-${seat}`, dir: "auto" }, name),
      isMe(session, seat) && !calledYou(name) ? el("span", { class: "small" }, t("youMark")) : null,
      el("span", { class: "total", "aria-label": t("total", { n: v.totals[seat] }) }, num(v.totals[seat])),
    ),
    el("div", { class: "tags" },
      turn ? el("strong", { class: "badge" }, t("toMove")) : null,
      tags.map((tag) => el("span", { class: "tag" }, tag)),
    ),
    isMe(session, seat) ? null : cardBacks(v.hand_sizes[seat], name),
    laid.length ? el("div", { class: "laid" }, laid.map((w) => el("span", { class: "laid-word" }, cardRow(w), el("span", { class: "pts-label" }, num(wordPoints(w)))))) : null,
  );
}

function pilesView(v, session) {
  const drawing = isMyTurn(v) && v.phase === "draw" && !session.pendingAction;
  const canPile = drawing && v.may_draw_from_pile !== false;
  const top = v.discard_top;
  return el("div", { class: "piles", role: "group", "aria-label": t("piles") },
    el("div", { class: "pile-spot" },
      el("button", {
        type: "button", class: "card back-card", id: "pile", "data-focus": "pile", disabled: !canPile,
        "aria-label": t("drawPileLabel", { n: v.draw_pile_size }), onclick: () => session.act({ type: "draw", source: "pile" }),
      }),
      el("span", { class: "pile-label" }, el("span", {}, t("drawPile")), el("span", { class: "small", id: "pile-count" }, t("drawPileCount", { n: v.draw_pile_size }))),
    ),
    el("div", { class: "pile-spot" },
      top
        ? el("button", {
          type: "button", class: cardClass(top, "discard-top"), id: "discard", "data-focus": "discard-top", "data-face": top,
          "aria-label": t("takeDiscard", { card: top, points: points(top) }), disabled: !drawing,
          onclick: () => session.act({ type: "draw", source: "discard" }),
        }, face(top))
        : el("span", { class: "card empty", id: "discard" }, t("discardEmpty")),
      el("span", { class: "pile-label" }, t("discardPile")),
    ),
  );
}

/** This seat's hand: word groups (each with its points or marked), the loose cards, and the sort buttons. */
function handView(v, session) {
  const arrangement = session.arrangement;
  const discarding = isMyTurn(v) && v.phase === "discard" && !session.pendingAction;
  const final = isFinalTurn(v);
  const places = arrangement.places();
  const count = places.length;
  const focusPos = Math.min(session.handFocus ?? 0, count - 1);
  const card = (place, pos) => {
    const fresh = session.fresh && session.fresh === place.card.id;
    const labelKey = discarding ? (final ? "discardCardFinal" : "discardCard") : "handCard";
    return el("button", {
      type: "button", class: cardClass(place.face, fresh ? "fresh" : ""), "data-pos": pos, "data-focus": `hand-${pos}`,
      "data-face": place.face, tabindex: pos === focusPos ? 0 : -1,
      "aria-label": t(labelKey, { card: place.face, points: points(place.face), pos: pos + 1, count }),
      "aria-disabled": discarding ? null : "true",
      onfocus: () => { session.handFocus = pos; },
      onclick: () => {
        if (!discarding) return;
        session.act(final ? { type: "lay_down", words: [], discard: place.face } : { type: "discard", card: place.face });
      },
      onkeydown: (event) => handKeys(event, pos, count, (kind) => session.arrange(kind, pos)),
    }, face(place.face), fresh ? el("span", { class: "new-tag" }, t("newCard")) : null);
  };
  let pos = 0;
  const groups = arrangement.groups.map((group, gi) => {
    const faces = group.map((c) => c.face);
    const check = session.checked(faces);
    const word = wordText(faces);
    const label = check === undefined ? t("groupChecking", { word }) : check.valid ? t("groupWord", { word, points: check.points }) : t("groupNotWord", { word });
    const cards = group.map(() => card(places[pos], pos++));
    return el("div", { class: `group${check && !check.valid ? " bad" : ""}${check?.valid ? " good" : ""}`, "data-group": gi, role: "group", "aria-label": t("groupLabel", { word }) },
      el("span", { class: "group-cards", dir: "ltr" }, cards),
      el("span", { class: "group-label" }, label));
  });
  const loose = arrangement.loose.map(() => card(places[pos], pos++));
  const held = places.reduce((s, p) => s + points(p.face), 0);
  const looseHeld = arrangement.loose.reduce((s, c) => s + points(c.face), 0);
  const hand = el("div", { class: "hand", id: "hand", role: "group", "aria-labelledby": "hand-title", "aria-describedby": "hand-help" },
    groups,
    el("div", { class: "loose", "data-group": -1, role: "group", "aria-label": t("looseCards") }, loose),
    el("div", { class: "new-group", "data-group": "new", "aria-hidden": "true" }, t("newGroup")),
  );
  enableDrag(hand, places, (from, to) => session.arrange(["drop", to], from));
  const inGroups = arrangement.groups.reduce((s, g) => s + g.length, 0);
  const summary = inGroups
    ? t("cardsLeftSummary", { cards: t("cards", { n: count - inGroups }), points: t("points", { n: looseHeld }) })
    : t("handSummary", { cards: t("cards", { n: count }), points: t("points", { n: held }) });
  return el("section", { class: "hand-area", "aria-labelledby": "hand-title" },
    el("div", { class: "hand-head" },
      el("h2", { id: "hand-title" }, t("yourHand"), " ", el("span", { class: "small", id: "hand-summary" }, summary)),
      el("div", { class: "sorts" },
        el("button", { type: "button", class: "small-button", id: "sort-letter", "data-focus": "sort-letter", onclick: () => session.arrange(["sort", "letter"]) }, t("sortLetter")),
        el("button", { type: "button", class: "small-button", id: "sort-points", "data-focus": "sort-points", onclick: () => session.arrange(["sort", "points"]) }, t("sortPoints")),
      ),
    ),
    hand,
    el("p", { class: "small", id: "hand-help" }, t("handHelp"), discarding ? ` ${t("handHelpDiscard")}` : ""),
  );
}

/** Going out, or laying down on a final turn, with the word groups as arranged. */
function groupsPlay(v, session) {
  const final = isFinalTurn(v);
  const arrangement = session.arrangement;
  const words = arrangement.words();
  const checks = words.map((w) => session.checked(w));
  const valid = words.filter((w, i) => checks[i]?.valid);
  const leftover = [...arrangement.loose.map((c) => c.face), ...words.filter((w, i) => !checks[i]?.valid).flat()];
  if (!final) {
    if (!mayGoOut(v)) return null;
    const ready = words.length > 0 && valid.length === words.length && leftover.length === 1;
    if (!ready) return el("p", { class: "small", id: "groups-help" }, t("groupsHelpOut"));
    return el("button", {
      type: "button", class: "primary", id: "go-out-groups", "data-focus": "go-out-groups",
      onclick: () => session.act({ type: "go_out", words: valid, discard: leftover[0] }),
    }, t("goOutGroups", { words: wordsText(valid), card: leftover[0] }));
  }
  if (!valid.length) return el("p", { class: "small", id: "groups-help" }, t("groupsHelpLay"));
  return el("div", { class: "lay-choices" },
    el("p", { class: "small" }, t("layDownGroupsHelp")),
    el("div", { class: "buttons" }, [...new Set(leftover)].map((card) => el("button", {
      type: "button", class: "primary", "data-focus": `lay-${card}`, "data-face": card,
      onclick: () => session.act({ type: "lay_down", words: valid, discard: card }),
    }, t("layDownGroups", { words: wordsText(valid), card })))),
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
    "data-focus": "words-input", placeholder: mode === "go-out" ? TYPED_EXAMPLES.goOut : TYPED_EXAMPLES.layDown, value: session.typed, dir: "ltr",
    oninput: (e) => { session.typed = e.target.value; },
  });
  const form = el("form", { class: "typed", id: "typed-form", novalidate: true },
    el("label", { for: "words-input" }, mode === "go-out" ? t("typedGoOut") : t("typedLayDown")),
    el("div", { class: "row" }, input,
      el("button", { type: "submit", id: "typed-send", "data-focus": "typed-send", disabled: Boolean(session.matching) },
        mode === "go-out" ? t("goOut") : t("layDown"))),
    el("p", { class: "small" }, t("typedHelp")),
    choiceView(session),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    session.error = null;
    try {
      const { words, discard } = parseTyped(input.value);
      if (!words.length && mode === "go-out") throw new WordProblem("typeGoOut");
      if (!words.length) {
        if (!discard) throw new WordProblem("typeLayDown");
        session.act({ type: "lay_down", words: [], discard });
        return;
      }
      session.askMatch(words, discard, mode === "go-out" ? "go_out" : "lay_down");
    } catch (exc) {
      if (!(exc instanceof WordProblem)) throw exc;
      session.error = () => t(exc.key, exc.params);
      session.announce(session.error());
      session.render();
    }
  });
  return form;
}

/** Typed words that fit but leave several cards: which one to discard. */
function choiceView(session) {
  const c = session.choice;
  if (!c) return null;
  return el("div", { class: "choice", role: "group", "aria-label": t("choose", { cards: list(c.left) }) },
    el("p", {}, t("choose", { cards: list(c.left) })),
    el("div", { class: "buttons" }, [...new Set(c.left)].map((card) => el("button", {
      type: "button", class: "primary", "data-focus": `choose-${card}`, "data-face": card,
      onclick: () => session.act({ type: c.kind, words: c.words, discard: card }),
    }, t("chooseDiscard", { card })))),
  );
}

// -- hints -------------------------------------------------------------------------

function describeOption(o) {
  const words = list((o.words || []).map((w) => w.word));
  switch (o.action) {
    case "take-discard": return t("hintTakeDiscard", { card: o.card });
    case "draw-pile": return t("hintDrawPile");
    case "discard": return t("hintDiscard", { card: o.card });
    case "go-out": return t("hintGoOut", { words, card: o.card });
    case "lay-down": return o.words?.length ? t("hintLayDown", { words, card: o.card }) : t("hintLayNothing", { card: o.card });
    default: return String(o.action);
  }
}

/**
 * What the play scores if the round ended now: its words' points (less, on
 * a final turn, the cards it keeps); null for a draw or a plain discard.
 */
export function pointsNow(o, hand) {
  if (o.action !== "go-out" && o.action !== "lay-down") return null;
  const words = o.words || [];
  const laid = words.reduce((s, w) => s + (Number(w.points) || 0), 0);
  if (o.action === "go-out") return laid;
  const left = [...hand];
  for (const c of [...words.flatMap((w) => w.cards), o.card]) {
    const at = left.indexOf(c);
    if (at >= 0) left.splice(at, 1);
  }
  return laid - left.reduce((s, f) => s + points(f), 0);
}

/** An option's value in the unit it is: expected points, or the master's average margin over N finishes. */
export function valueText(o, measure, hand) {
  const value = amount(o.value, { digits: 1 });
  const now = pointsNow(o, hand);
  if (measure?.unit === "margin") {
    const n = measure.finishes ?? "?";
    return now === null ? t("valueMargin", { value, n }) : t("valueNowAndMargin", { value, n, now });
  }
  return now === null ? t("valueExpected", { value }) : t("valueNowAndExpected", { value, now });
}

function hintView(session) {
  const h = session.hint;
  if (!h) return null;
  if (h.pending) return el("section", { class: "panel hint", id: "hint", "aria-live": "polite" }, el("p", {}, t("hintThinking")));
  const hint = h.hint || {};
  const options = Array.isArray(hint.options) ? hint.options : [];
  const hand = session.view?.hand ?? [];
  return el("section", { class: "panel hint", id: "hint", "aria-labelledby": "hint-title" },
    el("h2", { id: "hint-title" }, t("hintTitle", { move: hint.recommended ? describeOption(hint.recommended) : t("noAdvice") })),
    hint.explanation || hint.reason ? el("p", { class: "reason" }, explanationText(hint.explanation, hint.reason)) : null,
    el("p", { class: "small", id: "hint-measure" }, h.measure?.unit === "margin" ? t("measureMargin") : t("measureExpected")),
    options.length ? el("ol", { class: "options", "aria-label": t("hintOptions") },
      options.map((o) => el("li", {
        "data-action": o.action, "data-card": o.card ?? "",
        "data-words": (o.words || []).map((w) => w.cards.join(",")).join(" "),
      }, describeOption(o), " ", el("span", { class: "value" }, t("hintValue", { value: valueText(o, h.measure, hand) }))))) : null,
  );
}

function controlsView(v, session) {
  if (!isMyTurn(v)) return null;
  const parts = [];
  const discarding = v.phase === "discard" && !session.pendingAction;
  const hintsOn = session.hintsAllowed !== false;
  if (discarding) parts.push(groupsPlay(v, session));
  if (hintsOn) {
    parts.push(el("div", { class: "buttons controls" }, el("button", {
      type: "button", id: "hint-button", "data-focus": "hint-button", disabled: Boolean(session.hint?.pending),
      onclick: () => session.askHint(),
    }, t("hint"))));
  }
  if (discarding) {
    const mode = isFinalTurn(v) ? "lay-down" : mayGoOut(v) ? "go-out" : null;
    if (mode) parts.push(typedView(v, session, mode));
  }
  return parts;
}

function logView(v, session) {
  const events = Array.isArray(v.log) ? v.log : [];
  const first = Array.isArray(v.seen) && v.seen.length ? v.seen[0] : null;
  const shown = events.map((e, i) => ({ e, i })).slice(-6);
  return el("section", { class: "log", "aria-labelledby": "log-title" },
    el("h2", { id: "log-title" }, t("thisRound")),
    first ? el("p", { class: "face-up", id: "face-up" }, t("faceUpCard", { card: first })) : null,
    shown.length ? el("ol", { id: "log", start: shown[0].i + 1 },
      shown.map(({ e, i }) => el("li", {}, describeEvent(e, session, session.drawnAt(v.round, i))))) : null,
  );
}

/** The pace of the computer's moves, and the sound switch (off by default). */
function settingsView(session) {
  return el("div", { class: "settings" },
    el("label", { for: "pace" }, t("pace")),
    el("select", { id: "pace", "data-focus": "pace", onchange: (e) => session.setPace(e.target.value) },
      ["instant", "normal", "slow"].map((p) => el("option", { value: p, selected: session.pace === p }, t(`pace${p[0].toUpperCase()}${p.slice(1)}`)))),
    el("span", { class: "check" },
      el("input", { type: "checkbox", id: "sound", "data-focus": "sound", checked: session.sound, onchange: (e) => session.setSound(e.target.checked) }),
      el("label", { for: "sound" }, t("sound"))),
  );
}

/** The whole table for the current state. */
export function gameView(session) {
  const v = session.view;
  const rounds = v.rules?.round_sizes?.length ?? v.rounds;
  const over = v.phase === "game_over";
  const seats = [...Array(v.players ?? v.totals.length).keys()];
  const me = v.seat === null || v.seat === undefined ? null : v.seat;
  // Opponents around the top of the table in turn order after this seat; this seat at the bottom.
  const around = me === null ? seats : [...seats.slice(me + 1), ...seats.slice(0, me)];
  const banner = finalBanner(v, session);
  const dealer = isMe(session, v.dealer) ? null : session.nameOf(v.dealer);
  const roundParams = { round: v.round + 1, rounds, cards: t("cards", { n: v.round_size }), dealer };
  const overlay = roundOverlay(session);
  return el("div", { class: "game" },
    el("div", { class: "status" },
      el("p", { class: "round", id: "round-line" }, over ? t("gameOverAfter", { rounds: t("rounds", { n: rounds }) }) : t(dealer === null ? "roundLineYouDeal" : "roundLine", roundParams)),
      el("details", { class: "rules-line", open: Boolean(session.rulesOpen), ontoggle: (e) => { session.rulesOpen = e.target.open; } },
        el("summary", { "data-focus": "rules" }, t("rulesHere")),
        el("p", { class: "small" }, rulesText(v.rules, session.hintsAllowed))),
      settingsView(session),
    ),
    me === null ? el("p", { class: "small", id: "watching" }, t("watching")) : null,
    over ? null : el("p", { class: `turn-line${isMyTurn(v) ? " mine" : ""}`, id: "turn-line", "data-phase": v.phase }, turnLine(v, session)),
    session.error ? el("p", { class: "error", role: "alert", id: "error" }, session.error()) : null,
    overlay,
    over ? gameOverView(v, session) : null,
    over ? null : el("section", { class: "felt", "aria-label": t("players") },
      el("ul", { class: "seats" }, around.map((seat) => seatView(v, session, seat))),
      banner ? el("p", { class: "banner", id: "final-banner" }, banner) : null,
      pilesView(v, session),
      me === null ? null : el("ul", { class: "seats mine" }, seatView(v, session, me)),
      me === null ? null : handView(v, session),
    ),
    over ? null : controlsView(v, session),
    hintView(session),
    over ? null : logView(v, session),
    Array.isArray(v.history) && v.history.length && !over ? el("details", { class: "sheet-box" },
      el("summary", { "data-focus": "sheet" }, t("scoreSheet")), scoreSheet(v, session)) : null,
  );
}
