// Before the game: taking a seat from an invite link, and the lobby that
// shows who is still missing (with the invite link for the table's creator).

import { el } from "./dom.js";

/** The join form: a name, then "Take a seat"; or just watch. */
export function joinView({ table, name, busy, error, onJoin, onWatch }) {
  const input = el("input", { id: "join-name", name: "name", maxlength: 40, autocomplete: "nickname", required: true, value: name || "" });
  const form = el("form", { class: "panel join", novalidate: true },
    el("h2", {}, "You are invited to a game of Quiddler"),
    el("div", { class: "row" }, el("label", { for: "join-name" }, "Your name "), input),
    el("div", { class: "buttons" },
      el("button", { class: "primary", type: "submit", id: "take-seat", disabled: busy, "data-focus": "take-seat" }, "Take a seat"),
      el("button", { type: "button", id: "watch", onclick: onWatch, "data-focus": "watch" }, "Just watch"),
    ),
    error ? el("p", { class: "error", role: "alert" }, error) : null,
    el("p", { class: "small" }, `Table ${table}`),
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
  const you = index === mySeat ? " (you)" : "";
  if (kind !== "human") return `Seat ${index + 1}: computer, ${s.level ?? kind}${you}`;
  const taken = s.taken ?? s.joined ?? s.filled ?? Boolean(s.name);
  if (!taken) return `Seat ${index + 1}: waiting for a friend`;
  return `Seat ${index + 1}: ${s.name || "a player"}${you}`;
}

/** The lobby: seats, and the invite link to copy when this browser holds the invite. */
export function lobbyView({ table, lobby, mySeat, invite, copied, onCopy }) {
  const seats = Array.isArray(lobby.seats) ? lobby.seats : [];
  const link = invite ? `${location.origin}/t/${encodeURIComponent(table)}#invite=${encodeURIComponent(invite)}` : null;
  const waiting = seats.filter((s, i) => seatText(s, i, mySeat).endsWith("waiting for a friend")).length;
  return el("section", { class: "panel lobby", "aria-labelledby": "lobby-title" },
    el("h2", { id: "lobby-title" }, "Waiting for players"),
    el("p", {}, waiting === 1 ? "One seat is still free. The game starts when every seat is taken."
      : `${waiting} seats are still free. The game starts when every seat is taken.`),
    el("ul", { class: "lobby-seats", id: "lobby-seats" }, seats.map((s, i) => el("li", {}, seatText(s, i, mySeat)))),
    link ? el("div", { class: "invite" },
      el("label", { for: "invite-link" }, "Send this link to your friends:"),
      el("div", { class: "row" },
        el("input", { id: "invite-link", readonly: true, value: link, onfocus: (e) => e.target.select() }),
        el("button", { type: "button", id: "copy-invite", "data-focus": "copy-invite", onclick: () => onCopy(link) },
          copied ? "Copied" : "Copy link"),
      ),
      el("p", { class: "small" }, "Anyone with the link can take a free seat; it stops working once the table is full."),
    ) : null,
  );
}
