// The review of a finished game: every decision of one seat against the
// expert's best move in the position that seat saw, and the points it cost.
//
// renderReview(container, review, {nameOf}) draws a review (the JSON of
// GET /api/tables/{table}/review?seat=N, which is GameReview.to_dict())
// into a container: the summary, a chart of the loss by round (SVG drawn
// here), the worst decisions, and every decision as the position the
// player saw with the move made beside the best.  reviewSection(session)
// is the game-over screen's part: a choice of seat and the button that
// asks the transport for the review.  Everything is built as text (dom.js: no innerHTML).

import { el, replace } from "./dom.js";
import { points } from "./cards.js";
import { transport } from "./transport.js";

const SVG = "http://www.w3.org/2000/svg";
const LABELS = { best: "best", good: "good", inaccuracy: "inaccuracy", mistake: "mistake", blunder: "blunder" };

/** Reviews fetched, by table and seat, and the seat on show per table: a re-render of the page keeps them. */
const fetched = new Map();
const onShow = new Map();


function useStyles() {
  if (!document.querySelector("link[data-review-styles]")) {
    document.head.append(el("link", { rel: "stylesheet", href: new URL("./review.css", import.meta.url).href, "data-review-styles": true }));
  }
}

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const fixed = (n, digits = 1) => Number(n).toFixed(digits);

/** A move in the record's encoding, in words (the card a discard-pile draw takes: `top`). */
export function moveText(move, top) {
  switch (move.type) {
    case "draw":
      return move.source === "discard" ? `take the ${top ?? "discard top"}` : "draw from the pile";
    case "discard":
      return `discard ${move.card}`;
    default: {
      const words = move.words.map((w) => w.join("")).join(", ") || "no words";
      return `${move.type === "go_out" ? "go out" : "lay down"}: ${words}, discard ${move.discard}`;
    }
  }
}

function cardChip(face) {
  return el("span", { class: "rv-card" }, el("span", { class: "rv-face" }, face), el("span", { class: "rv-pts" }, String(points(face))));
}

/** The chart: one bar per round, its height the points lost, the worst round's bar marked. */
function lossChart(review) {
  const rounds = review.rounds;
  const width = 320;
  const height = 140;
  const left = 28;
  const bottom = 22;
  const top = 12;
  const most = Math.max(1, ...rounds.map((r) => r.loss));
  const slot = (width - left - 4) / Math.max(1, rounds.length);
  const worst = rounds.reduce((w, r, i) => (r.loss > (rounds[w]?.loss ?? -1) ? i : w), 0);
  const y = (loss) => top + (height - top - bottom) * (1 - loss / most);
  const bars = rounds.map((r, i) => {
    const x = left + i * slot + slot * 0.15;
    const h = height - bottom - y(r.loss);
    const cls = `rv-bar${i === worst && r.loss > 0 ? " rv-bar-worst" : ""}`;
    return svg("g", {},
      svg("rect", { class: cls, x: fixed(x, 2), y: fixed(y(r.loss), 2), width: fixed(slot * 0.7, 2), height: fixed(Math.max(h, 0.5), 2) },
        svg("title", {}, `Round ${r.round + 1}: ${fixed(r.loss)} points lost over ${r.decisions} decisions`)),
      svg("text", { class: "rv-axis", x: fixed(x + slot * 0.35, 2), y: height - 6, "text-anchor": "middle" }, String(r.round + 1)),
      r.loss > 0 ? svg("text", { class: "rv-value", x: fixed(x + slot * 0.35, 2), y: fixed(y(r.loss) - 2, 2), "text-anchor": "middle" }, fixed(r.loss)) : null,
    );
  });
  return svg("svg", { class: "rv-chart", id: "review-chart", viewBox: `0 0 ${width} ${height}`, role: "img",
    "aria-label": `Points lost by round: ${rounds.map((r) => `round ${r.round + 1} ${fixed(r.loss)}`).join(", ")}` },
  svg("line", { class: "rv-base", x1: left, y1: height - bottom, x2: width - 4, y2: height - bottom }),
  svg("text", { class: "rv-axis", x: 2, y: top + 4 }, fixed(most, 0)),
  svg("text", { class: "rv-axis", x: 2, y: height - bottom }, "0"),
  bars);
}

/** What the player saw: their hand, the discard top, the words laid down, the totals. */
function positionView(position, review, nameOf) {
  const laid = position.laid_down.map((words, seat) => (words.length
    ? el("li", {}, `${nameOf(seat)}: ${words.map((w) => w.join("")).join(", ")}${position.went_out === seat ? " (went out)" : ""}`)
    : null)).filter(Boolean);
  return el("div", { class: "rv-position" },
    el("p", { class: "rv-hand" }, el("span", { class: "rv-what" }, "Hand "), position.hand.map(cardChip)),
    el("p", {}, el("span", { class: "rv-what" }, "Discard top "), position.discard_top ? cardChip(position.discard_top) : "none",
      ` · draw pile ${position.draw_pile_size} cards · face up this round: ${position.seen.join(", ") || "none"}`),
    laid.length ? el("ul", { class: "rv-laid" }, laid) : null,
    el("p", { class: "rv-small" }, `Totals: ${position.totals.map((t, s) => `${nameOf(s)} ${t}`).join(", ")}`),
  );
}

function decisionItem(d, index, review, nameOf, worst) {
  const top = d.position.discard_top;
  const same = d.label === "best";
  const noise = d.samples ? ` ± ${fixed(d.se)}` : "";
  return el("li", { class: `rv-decision rv-is-${d.label}${worst.has(index) ? " rv-worst" : ""}`, id: `review-decision-${index}` },
    el("details", { open: worst.has(index) },
      el("summary", {},
        el("span", { class: "rv-where" }, `Round ${d.round + 1}, turn ${d.turn + 1} · ${d.kind}`),
        el("span", { class: "rv-played" }, moveText(d.played, top)),
        el("span", { class: `rv-label rv-label-${d.label}` }, LABELS[d.label] ?? d.label),
        el("span", { class: "rv-loss" }, d.loss > 0 ? `−${fixed(d.loss)}${noise}` : "0"),
        worst.has(index) ? el("span", { class: "rv-flag" }, "worst") : null,
      ),
      positionView(d.position, review, nameOf),
      el("div", { class: "rv-moves" },
        el("div", { class: "rv-move" }, el("h4", {}, "Move made"), el("p", {}, moveText(d.played, top)), el("p", { class: "rv-small" }, `valued ${fixed(d.played_value)}`)),
        el("div", { class: `rv-move${same ? "" : " rv-best"}` }, el("h4", {}, "Best move"), el("p", {}, same ? "the same" : moveText(d.best, top)), el("p", { class: "rv-small" }, `valued ${fixed(d.best_value)}`)),
      ),
      el("p", { class: "rv-why" }, d.explanation),
    ),
  );
}

/** Draw `review` into `container`. `nameOf(seat)` names the players (default "Seat N"). */
export function renderReview(container, review, { nameOf = (seat) => `Seat ${seat + 1}` } = {}) {
  useStyles();
  const worst = new Set(review.worst);
  const counts = Object.entries(review.labels).filter(([, n]) => n > 0).map(([label, n]) => `${n} ${label}`).join(", ");
  replace(container,
    el("h3", { id: "review-title" }, `Review of ${nameOf(review.seat)}'s game`),
    el("p", { class: "rv-summary", id: "review-summary" },
      el("strong", {}, `Accuracy ${fixed(review.accuracy, 0)} of 100`),
      ` · ${fixed(review.loss_total)} points lost over ${review.decisions.length} decisions (${fixed(review.mean_loss, 2)} a decision) · ${counts}`),
    el("p", { class: "rv-small" }, `Each decision is judged by the ${review.level} on what ${nameOf(review.seat)} could see at that moment: the loss is its value of its best move less its value of the move made, in points.`),
    el("figure", { class: "rv-figure" }, lossChart(review), el("figcaption", {}, "Points lost in each round")),
    review.worst.length
      ? el("div", { class: "rv-worst-list", id: "review-worst" }, el("h4", {}, "The costliest decisions"),
        el("ol", {}, review.worst.map((i) => {
          const d = review.decisions[i];
          return el("li", {}, el("a", { href: `#review-decision-${i}` }, `Round ${d.round + 1}, turn ${d.turn + 1}: ${moveText(d.played, d.position.discard_top)}`),
            ` (${d.label}, −${fixed(d.loss)}); best: ${moveText(d.best, d.position.discard_top)}`);
        })))
      : el("p", { id: "review-worst" }, "No decision cost more than a point: well played."),
    el("ol", { class: "rv-decisions", id: "review-decisions" }, review.decisions.map((d, i) => decisionItem(d, i, review, nameOf, worst))),
  );
  return container;
}

/** The game-over screen's review: which seat, a button, and the review once it has come. */
export function reviewSection(session, players) {
  useStyles();
  const table = session.table;
  const mine = session.mySeat ?? 0;
  const container = el("div", { class: "rv", id: "review", "aria-live": "polite" });
  const chosen = onShow.get(table) ?? mine;
  const select = el("select", { id: "review-seat", "data-focus": "review-seat", "aria-label": "Whose game to review" },
    [...Array(players).keys()].map((s) => el("option", { value: String(s), selected: s === chosen }, `${session.nameOf(s)}${s === session.mySeat ? " (you)" : ""}`)));
  const show = async () => {
    const seat = Number(select.value);
    onShow.set(table, seat);
    const key = `${table}/${seat}`;
    if (!fetched.has(key)) {
      replace(container, el("p", { class: "rv-small", id: "review-status" }, "Reviewing the game…"));
      try {
        const data = await transport().review(table, seat);
        fetched.set(key, data);
      } catch (exc) {
        replace(container, el("p", { class: "error", role: "alert", id: "review-status" }, `No review: ${exc.message}`));
        return;
      }
    }
    // The page may have been drawn again meanwhile: draw into the container on show now.
    const target = container.isConnected ? container : document.getElementById("review") ?? container;
    renderReview(target, fetched.get(key), { nameOf: (s) => session.nameOf(s) });
  };
  const button = el("button", { type: "button", class: "button", id: "review-button", "data-focus": "review", onclick: show }, "Review the game");
  if (onShow.has(table) && fetched.has(`${table}/${onShow.get(table)}`)) {
    renderReview(container, fetched.get(`${table}/${onShow.get(table)}`), { nameOf: (s) => session.nameOf(s) });
  }
  return el("section", { class: "rv-section", "aria-labelledby": "review-heading" },
    el("h3", { id: "review-heading", class: "visually-hidden" }, "Game review"),
    el("div", { class: "buttons" }, el("label", { for: "review-seat", class: "rv-small" }, "Review "), select, button),
    container);
}
