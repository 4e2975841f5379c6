// Scores: each round's result with both bonuses and the zero floor
// explained, the score sheet, and the end of the game.

import { el } from "./dom.js";
import { points, wordLetters, wordPoints, wordText } from "./cards.js";
import { recordUrl } from "./net.js";

const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0");
const listed = (items) => (items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`);

/** Bonus values in force: the two-player "one bonus only" variant turns one off. */
export function bonusValues(rules, players) {
  let longest = rules?.longest_word_bonus ?? 10;
  let most = rules?.most_words_bonus ?? 10;
  if (players === 2 && rules?.two_player_bonuses === "longest") most = 0;
  if (players === 2 && rules?.two_player_bonuses === "most") longest = 0;
  return { longest, most };
}

/** Why each bonus went where it did, in a sentence each. */
function bonusSentences(result, rules, nameOf) {
  const scores = result.scores;
  const { longest, most } = bonusValues(rules, scores.length);
  const onlyOut = Boolean(rules?.bonus_requires_going_out);
  const eligible = scores.map((s) => s.words.length > 0 && (!onlyOut || s.unused.length === 0));
  const out = [];
  const explain = (label, value, measure, unit, field) => {
    if (!value) {
      out.push(`No ${label} bonus at this table.`);
      return;
    }
    const winner = scores.findIndex((s) => s[field] > 0);
    if (winner >= 0) {
      const detail = field === "longest_bonus"
        ? (() => {
          const best = scores[winner].words.reduce((a, w) => (wordLetters(w) > wordLetters(a) ? w : a));
          return `'${wordText(best)}' (${wordLetters(best)} letters)`;
        })()
        : `${scores[winner].words.length} words`;
      out.push(`${label[0].toUpperCase()}${label.slice(1)} bonus ${signed(scores[winner][field])}: ${nameOf(winner)}, for ${detail}.`);
      return;
    }
    const values = scores.map((s, i) => (eligible[i] ? measure(s) : -1));
    const best = Math.max(...values);
    if (best <= 0) {
      out.push(`${label[0].toUpperCase()}${label.slice(1)} bonus: nobody${onlyOut ? " who went out" : ""} laid down a word, so nobody gets it.`);
      return;
    }
    const tied = values.map((v, i) => (v === best ? nameOf(i) : null)).filter(Boolean);
    out.push(`${label[0].toUpperCase()}${label.slice(1)} bonus: ${listed(tied)} tied at ${best} ${best === 1 ? unit.slice(0, -1) : unit}, so nobody gets it.`);
  };
  explain("longest-word", longest, (s) => Math.max(0, ...s.words.map(wordLetters)), "letters", "longest_bonus");
  explain("most-words", most, (s) => s.words.length, "words", "most_words_bonus");
  if (onlyOut && (longest || most)) out.push("At this table only a player who laid down every card may win a bonus.");
  return out;
}

/** The zero floor, said about the players it touched this round. */
function floorSentences(result, before, rules, nameOf) {
  if (rules && rules.floor_at_zero === false) return ["Totals may go below zero at this table."];
  const out = [];
  result.scores.forEach((s, seat) => {
    const raw = (before[seat] ?? 0) + s.score;
    if (raw < 0) {
      out.push(`${nameOf(seat)}: ${before[seat] ?? 0} ${s.score < 0 ? "−" : "+"} ${Math.abs(s.score)} would be ${signed(raw)}; a total never goes below zero (the zero floor), so it is 0.`);
    }
  });
  // Said every round, so the rule is known before it bites.
  if (!out.length) out.push("Zero floor: a total never goes below zero (a round that would take it lower leaves it at 0).");
  return out;
}

/** One round's result: a row per player and the sentences that explain it. */
export function roundResultView(result, before, rules, session, { open, onToggle }) {
  const nameOf = (seat) => session.nameOf(seat);
  const rows = result.scores.map((s, seat) => {
    const bonuses = [];
    if (s.longest_bonus) bonuses.push(`longest word ${signed(s.longest_bonus)}`);
    if (s.most_words_bonus) bonuses.push(`most words ${signed(s.most_words_bonus)}`);
    return el("tr", {},
      el("th", { scope: "row" }, nameOf(seat), s.went_out ? ", went out" : ""),
      el("td", {}, s.words.length ? s.words.map((w) => `${wordText(w)} ${wordPoints(w)}`).join(", ") : "none"),
      el("td", {}, s.unused.length ? `${s.unused.join(", ")} ${signed(-s.unused.reduce((a, f) => a + points(f), 0))}` : "none"),
      el("td", {}, bonuses.length ? bonuses.join(", ") : "none"),
      el("td", { class: "num" }, signed(s.score)),
      el("td", { class: "num" }, String(result.totals[seat])),
    );
  });
  const how = result.went_out !== null && result.went_out !== undefined
    ? `${nameOf(result.went_out)} went out; everyone else had a final turn.`
    : "Nobody went out: the round ended at the turn limit, and every player laid down the best words their hand allowed.";
  const details = el("details", { class: "result", id: `result-${result.round}`, open },
    el("summary", { "data-focus": `result-${result.round}` }, `Round ${result.round} result (${result.cards} cards)`),
    el("div", { class: "table-wrap" },
      el("table", {},
        el("thead", {}, el("tr", {}, ["Player", "Words", "Left in hand", "Bonuses", "Round", "Total"].map((h) => el("th", { scope: "col" }, h)))),
        el("tbody", {}, rows),
      ),
    ),
    el("p", {}, how),
    bonusSentences(result, rules, nameOf).map((t) => el("p", { class: "bonus" }, t)),
    floorSentences(result, before, rules, nameOf).map((t) => el("p", { class: "floor" }, t)),
    el("p", { class: "small" }, "A round scores the points of your words, minus the points of the cards left in your hand, plus any bonus."),
  );
  details.addEventListener("toggle", () => onToggle(details.open));
  return details;
}

/** The score sheet: each round's score and running total per player. */
export function scoreSheet(view, session) {
  const history = Array.isArray(view.history) ? view.history : [];
  const seats = [...Array(view.players ?? view.totals.length).keys()];
  return el("div", { class: "table-wrap" },
    el("table", { class: "sheet", id: "score-sheet" },
      el("caption", { class: "visually-hidden" }, "Score sheet: each round's score and the total after it"),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Round"), seats.map((s) => el("th", { scope: "col" }, session.nameOf(s))))),
      el("tbody", {},
        history.map((r) => el("tr", {},
          el("th", { scope: "row" }, `${r.round} (${r.cards})`),
          seats.map((s) => el("td", { class: "num" }, `${signed(r.scores[s].score)} → ${r.totals[s]}`)),
        )),
        el("tr", { class: "totals" }, el("th", { scope: "row" }, "Total"), seats.map((s) => el("td", { class: "num" }, String(view.totals[s])))),
      ),
    ),
  );
}

/** The end of the game: who won, and the record to download. */
export function gameOverView(view, session) {
  const best = Math.max(...view.totals);
  const winners = view.totals.map((t, i) => (t === best ? session.nameOf(i) : null)).filter(Boolean);
  const text = winners.length === 1 ? `${winners[0]} wins with ${best} points.` : `${listed(winners)} share the win with ${best} points.`;
  return el("section", { class: "panel over", "aria-labelledby": "over-title" },
    el("h2", { id: "over-title" }, "Game over"),
    el("p", { class: "winner", id: "winner" }, text),
    el("div", { class: "buttons" },
      el("a", {
        class: "button primary", id: "download-record", "data-focus": "download", href: recordUrl(session.table),
        download: `quiddler-${session.table}.json`,
      }, "Download the game record"),
      el("a", { class: "button", href: "/", "data-focus": "again" }, "Play another game"),
    ),
    el("p", { class: "small" }, "The record holds the game's seed, every deal and every move (the engine's JSON game record)."),
  );
}
