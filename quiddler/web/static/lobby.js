// Before the game: taking a seat from an invite link, and the lobby that
// shows who is still missing (with the invite link for the table's creator).

import { el } from "./dom.js";
import { has, list, num, t } from "./messages.js";

/** The table's rules in one line: "2 rounds (3, 4 cards) · bonuses: longest word 10, most words 10 · zero floor · hints on". */
export function rulesText(rules, hints) {
  if (!rules) return "";
  const sizes = rules.round_sizes || [];
  const parts = [t("rulesRounds", { n: sizes.length, sizes: list(sizes.map((size) => num(size)), "unit") })];
  const longest = rules.longest_word_bonus ?? 10;
  const most = rules.most_words_bonus ?? 10;
  parts.push(longest || most ? t("rulesBonuses", { longest, most }) : t("rulesNoBonuses"));
  if (rules.bonus_requires_going_out) parts.push(t("rulesBonusOut"));
  if (rules.no_going_out_first_turn) parts.push(t("rulesFirstTurn"));
  parts.push(rules.floor_at_zero === false ? t("rulesBelowZero") : t("rulesFloor"));
  parts.push(t("rulesTurnLimit", { n: rules.turn_limit ?? 50 }));
  if (typeof hints === "boolean") parts.push(hints ? t("rulesHints") : t("rulesNoHints"));
  return parts.join(" · ");
}

/** The join form: a name, then "Take a seat"; or just watch.  `summary` is the table's public facts, when known. */
export function joinView({ table, name, busy, error, summary, onName, onJoin, onWatch }) {
  const input = el("input", {
    id: "join-name", name: "name", maxlength: 24, autocomplete: "nickname", required: true, value: name || "",
    "data-focus": "join-name", oninput: (e) => onName(e.target.value),
  });
  const form = el("form", { class: "panel join", novalidate: true },
    el("h2", {}, t("invited")),
    el("div", { class: "row" }, el("label", { for: "join-name" }, t("yourName")), " ", input),
    el("div", { class: "buttons" },
      el("button", { class: "primary", type: "submit", id: "take-seat", disabled: busy || Boolean(summary?.started), "data-focus": "take-seat" }, t("takeSeat")),
      el("button", { type: "button", id: "watch", onclick: onWatch, "data-focus": "watch" }, t("justWatch")),
    ),
    error ? el("p", { class: "error", role: "alert" }, error) : null,
    summary && Array.isArray(summary.seats) ? el("div", {},
      el("h3", {}, summary.over ? t("gameIsOver") : summary.started ? t("gameStarted") : t("atTheTable")),
      el("ul", { class: "lobby-seats" }, summary.seats.map((s, i) => el("li", {}, seatText(s, i, null)))),
      el("p", { class: "small" }, rulesText(summary.rules, summary.hints)),
    ) : null,
    el("p", { class: "small" }, t("tableId", { table })),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    onJoin(input.value.trim());
  });
  return form;
}

/**
 * One lobby seat as words.  The server sends each seat as an object such
 * as {"kind": "human", "name": "Ann"} or {"kind": "expert"}; a plain string
 * is read as the kind.
 */
export function seatText(seat, index, mySeat) {
  const s = typeof seat === "string" ? { kind: seat } : seat || {};
  const kind = s.kind ?? s.player ?? s.type ?? "human";
  const n = index + 1;
  const you = index === mySeat;
  if (kind !== "human") {
    const level = s.level ?? kind;
    return t(you ? "seatComputerYou" : "seatComputer", { n, level: has(`levelShort.${level}`) ? t(`levelShort.${level}`) : level });
  }
  const taken = s.taken ?? s.joined ?? s.filled ?? Boolean(s.name);
  if (!taken) return t("seatWaiting", { n });
  return t(you ? "seatPersonYou" : "seatPerson", { n, name: s.name || t("aPlayer") });
}

/** The lobby: seats, and the invite link to copy when this browser holds the invite. */
export function lobbyView({ table, lobby, mySeat, invite, copied, onCopy }) {
  const seats = Array.isArray(lobby.seats) ? lobby.seats : [];
  const link = invite ? `${location.origin}/t/${encodeURIComponent(table)}#invite=${encodeURIComponent(invite)}` : null;
  const waiting = seats.filter((s, i) => seatText(s, i, mySeat) === t("seatWaiting", { n: i + 1 })).length;
  return el("section", { class: "panel lobby", "aria-labelledby": "lobby-title" },
    el("h2", { id: "lobby-title" }, t("waitingPlayers")),
    el("p", {}, t("seatsFree", { n: waiting })),
    el("ul", { class: "lobby-seats", id: "lobby-seats" }, seats.map((s, i) => el("li", {}, seatText(s, i, mySeat)))),
    lobby.rules ? el("p", { class: "small" }, rulesText(lobby.rules, lobby.hints)) : null,
    link ? el("div", { class: "invite" },
      el("label", { for: "invite-link" }, t("sendLink")),
      el("div", { class: "row" },
        el("input", { id: "invite-link", readonly: true, value: link, dir: "ltr", onfocus: (e) => e.target.select() }),
        el("button", { type: "button", id: "copy-invite", "data-focus": "copy-invite", onclick: () => onCopy(link) },
          copied ? t("copied") : t("copyLink")),
      ),
      el("p", { class: "small" }, t("linkNote")),
    ) : null,
  );
}
