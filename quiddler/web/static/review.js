// The review of a finished game: every decision of one seat against the
// expert's best move in the position that seat saw, and the points it cost.
//
// renderReview(container, review, {nameOf, mine}) draws a review (the JSON of
// GET /api/tables/{table}/review?seat=N, which is GameReview.to_dict())
// into a container: the summary, a chart of the loss by round (SVG drawn
// here), the worst decisions, and every decision as the position the
// player saw with the move made beside the best.  reviewSection(session)
// is the game-over screen's part: a choice of seat and the button that
// asks the transport for the review.  Everything is built as text (dom.js: no innerHTML).

import { el, replace } from "./dom.js";
import { points } from "./cards.js";
import { errorText } from "./errors.js";
import { explanationText } from "./hints.js";
import { amount, calledYou, has, list, num, t } from "./messages.js";
import { ApiError, transport } from "./transport.js";

const SVG = "http://www.w3.org/2000/svg";

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

/** Coordinates in the chart (SVG attributes: never in the page's digits). */
const fixed = (n, digits = 1) => Number(n).toFixed(digits);
/** Points lost, as the page shows them: one fraction digit. */
const tenths = (n) => amount(n, { digits: 1 });
const label = (name) => (has(`review.label.${name}`) ? t(`review.label.${name}`) : name);
const wordsOf = (words) => list(words.map((w) => w.join("")));

/** A move in the record's encoding, in words (the card a discard-pile draw takes: `top`), as the hints say it. */
export function moveText(move, top) {
  switch (move.type) {
    case "draw":
      if (move.source !== "discard") return t("hintDrawPile");
      return top ? t("hintTakeDiscard", { card: top }) : t("review.takeDiscardTop");
    case "discard":
      return t("hintDiscard", { card: move.card });
    case "go_out":
      return t("hintGoOut", { words: wordsOf(move.words), card: move.discard });
    default:
      return move.words.length ? t("hintLayDown", { words: wordsOf(move.words), card: move.discard }) : t("hintLayNothing", { card: move.discard });
  }
}

function cardChip(face) {
  return el("span", { class: "rv-card" }, el("span", { class: "rv-face", dir: "ltr" }, face), el("span", { class: "rv-pts" }, num(points(face))));
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
        svg("title", {}, t("review.barTitle", { round: r.round + 1, points: t("review.pointsLost", { n: tenths(r.loss) }),
          decisions: t("review.decisions", { n: r.decisions }) }))),
      svg("text", { class: "rv-axis", x: fixed(x + slot * 0.35, 2), y: height - 6, "text-anchor": "middle" }, num(r.round + 1)),
      r.loss > 0 ? svg("text", { class: "rv-value", x: fixed(x + slot * 0.35, 2), y: fixed(y(r.loss) - 2, 2), "text-anchor": "middle" }, tenths(r.loss)) : null,
    );
  });
  // The chart is a picture of its numbers: drawn left to right (round 1 first) in every language.
  return svg("svg", { class: "rv-chart", id: "review-chart", viewBox: `0 0 ${width} ${height}`, role: "img", direction: "ltr",
    "aria-label": t("review.chartLabel", { rounds: list(rounds.map((r) => t("review.chartItem", { round: r.round + 1, loss: tenths(r.loss) })), "unit") }) },
  svg("line", { class: "rv-base", x1: left, y1: height - bottom, x2: width - 4, y2: height - bottom }),
  svg("text", { class: "rv-axis", x: 2, y: top + 4 }, num(Math.round(most))),
  svg("text", { class: "rv-axis", x: 2, y: height - bottom }, num(0)),
  bars);
}

/** What the player saw: their hand, the discard top, the words laid down, the totals. */
function positionView(position, review, nameOf) {
  const laid = position.laid_down.map((words, seat) => (words.length
    ? el("li", {}, t(position.went_out === seat ? "review.laidOut" : "review.laid", { name: nameOf(seat), words: wordsOf(words) }))
    : null)).filter(Boolean);
  return el("div", { class: "rv-position" },
    el("p", { class: "rv-hand" }, el("span", { class: "rv-what" }, t("review.hand")), " ", position.hand.map(cardChip)),
    el("p", {}, el("span", { class: "rv-what" }, t("review.discardTop")), " ", position.discard_top ? cardChip(position.discard_top) : t("review.none"),
      " · ", t("review.drawPile", { cards: t("cards", { n: position.draw_pile_size }) }),
      " · ", t("review.seen", { cards: position.seen.length ? list(position.seen, "unit") : t("review.none") })),
    laid.length ? el("ul", { class: "rv-laid" }, laid) : null,
    el("p", { class: "rv-small" }, t("review.totals", {
      totals: list(position.totals.map((total, s) => t("review.totalItem", { name: nameOf(s), total })), "unit"),
    })),
  );
}

function decisionItem(d, index, review, nameOf, worst) {
  const top = d.position.discard_top;
  const same = d.label === "best";
  const noise = d.samples ? ` ± ${tenths(d.se)}` : "";
  return el("li", { class: `rv-decision rv-is-${d.label}${worst.has(index) ? " rv-worst" : ""}`, id: `review-decision-${index}` },
    el("details", { open: worst.has(index) },
      el("summary", {},
        el("span", { class: "rv-where" }, t("review.where", { round: d.round + 1, turn: d.turn + 1, kind: has(`review.kind.${d.kind}`) ? t(`review.kind.${d.kind}`) : d.kind })),
        el("span", { class: "rv-played" }, moveText(d.played, top)),
        el("span", { class: `rv-label rv-label-${d.label}` }, label(d.label)),
        el("span", { class: "rv-loss" }, d.loss > 0 ? `${num(-d.loss, { digits: 1 })}${noise}` : num(0)),
        worst.has(index) ? el("span", { class: "rv-flag" }, t("review.worstFlag")) : null,
      ),
      positionView(d.position, review, nameOf),
      el("div", { class: "rv-moves" },
        el("div", { class: "rv-move" }, el("h4", {}, t("review.played")), el("p", {}, moveText(d.played, top)), el("p", { class: "rv-small" }, t("review.valued", { value: tenths(d.played_value) }))),
        el("div", { class: `rv-move${same ? "" : " rv-best"}` }, el("h4", {}, t("review.best")), el("p", {}, same ? t("review.same") : moveText(d.best, top)), el("p", { class: "rv-small" }, t("review.valued", { value: tenths(d.best_value) }))),
      ),
      el("p", { class: "rv-why" }, explanationText(d.explanation_terms, d.explanation)),
    ),
  );
}

/** Draw `review` into `container`. `nameOf(seat)` names the players (default "Seat N"). */
export function renderReview(container, review, { nameOf = (seat) => t("seatN", { n: seat + 1 }), mine = null } = {}) {
  useStyles();
  const worst = new Set(review.worst);
  const counts = Object.entries(review.labels).filter(([, n]) => n > 0).map(([name, n]) => t("review.labelCount", { label: label(name), n }));
  const level = has(`levelShort.${review.level}`) ? t(`levelShort.${review.level}`) : review.level;
  // The viewer's own game under the name "You" ("Play now" gives it): "your game", not "You's game".
  const yours = mine !== null && review.seat === mine && calledYou(nameOf(review.seat));
  replace(container,
    el("h3", { id: "review-title" }, yours ? t("review.titleYou") : t("review.title", { name: nameOf(review.seat) })),
    el("p", { class: "rv-summary", id: "review-summary" },
      el("strong", {}, t("review.accuracy", { accuracy: amount(review.accuracy, { digits: 0 }) })), " · ",
      t("review.summary", { points: t("review.pointsLost", { n: tenths(review.loss_total) }), decisions: t("review.decisions", { n: review.decisions.length }),
        mean: amount(review.mean_loss, { digits: 2 }) }), " · ", list(counts, "unit")),
    el("p", { class: "rv-small" }, yours ? t("review.methodYou", { level }) : t("review.method", { level, name: nameOf(review.seat) })),
    el("figure", { class: "rv-figure" }, lossChart(review), el("figcaption", {}, t("review.chartCaption"))),
    review.worst.length
      ? el("div", { class: "rv-worst-list", id: "review-worst" }, el("h4", {}, t("review.worstTitle")),
        el("ol", {}, review.worst.map((i) => {
          const d = review.decisions[i];
          return el("li", {}, el("a", { href: `#review-decision-${i}` }, t("review.worstItem", { round: d.round + 1, turn: d.turn + 1, move: moveText(d.played, d.position.discard_top) })),
            " ", t("review.worstDetail", { label: label(d.label), loss: num(-d.loss, { digits: 1 }), best: moveText(d.best, d.position.discard_top) }));
        })))
      : el("p", { id: "review-worst" }, t("review.noWorst")),
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
  const select = el("select", { id: "review-seat", "data-focus": "review-seat", "aria-label": t("review.whose") },
    [...Array(players).keys()].map((s) => el("option", { value: String(s), selected: s === chosen },
      s === session.mySeat && !calledYou(session.nameOf(s)) ? t("review.seatYou", { name: session.nameOf(s) }) : session.nameOf(s))));
  const show = async () => {
    const seat = Number(select.value);
    onShow.set(table, seat);
    const key = `${table}/${seat}`;
    if (!fetched.has(key)) {
      replace(container, el("p", { class: "rv-small", id: "review-status" }, t("review.working")));
      try {
        const data = await transport().review(table, seat);
        fetched.set(key, data);
      } catch (exc) {
        replace(container, el("p", { class: "error", role: "alert", id: "review-status" }, t("review.failed", { why: exc instanceof ApiError ? errorText(exc) : t("unreachable") })));
        return;
      }
    }
    // The page may have been drawn again meanwhile: draw into the container on show now.
    const target = container.isConnected ? container : document.getElementById("review") ?? container;
    renderReview(target, fetched.get(key), { nameOf: (s) => session.nameOf(s), mine: session.mySeat });
  };
  const button = el("button", { type: "button", class: "button", id: "review-button", "data-focus": "review", onclick: show }, t("review.button"));
  if (onShow.has(table) && fetched.has(`${table}/${onShow.get(table)}`)) {
    renderReview(container, fetched.get(`${table}/${onShow.get(table)}`), { nameOf: (s) => session.nameOf(s), mine: session.mySeat });
  }
  return el("section", { class: "rv-section", "aria-labelledby": "review-heading" },
    el("h3", { id: "review-heading", class: "visually-hidden" }, t("review.heading")),
    el("div", { class: "buttons" }, el("label", { for: "review-seat", class: "rv-small" }, t("review.choose")), " ", select, button),
    container);
}
