// Scores: a round's result (each player's words as rows of cards, the
// cards left over, the bonuses, the round and the total) as an overlay
// with a clear "next round", the score sheet, and the end of the game
// (the winner, a rematch, the record to download).

import { el } from "./dom.js";
import { points, wordLetters, wordPoints, wordText } from "./cards.js";
import { list, num, signed, t } from "./messages.js";
import { transport } from "./transport.js";
import { cardRow } from "./table.js";
import { reviewSection } from "./review.js";

/** Bonus values in force: the two-player "one bonus only" variant turns one off. */
export function bonusValues(rules, players) {
  let longest = rules?.longest_word_bonus ?? 10;
  let most = rules?.most_words_bonus ?? 10;
  if (players === 2 && rules?.two_player_bonuses === "longest") most = 0;
  if (players === 2 && rules?.two_player_bonuses === "most") longest = 0;
  return { longest, most };
}

/** Why each bonus went where it did, a sentence each. */
function bonusSentences(result, rules, nameOf) {
  const scores = result.scores;
  const { longest, most } = bonusValues(rules, scores.length);
  const onlyOut = Boolean(rules?.bonus_requires_going_out);
  const eligible = scores.map((s) => s.words.length > 0 && (!onlyOut || s.unused.length === 0));
  const out = [];
  const explain = (kind, value) => {
    const field = kind === "longest" ? "longest_bonus" : "most_words_bonus";
    if (!value) {
      out.push(t("noBonusHere", { bonus: t(`${kind}Name`) }));
      return;
    }
    const winner = scores.findIndex((s) => s[field] > 0);
    if (winner >= 0) {
      const s = scores[winner];
      if (kind === "longest") {
        const best = s.words.reduce((a, w) => (wordLetters(w) > wordLetters(a) ? w : a));
        out.push(t("bonusWonLongest", { points: signed(s[field]), name: nameOf(winner), word: wordText(best), letters: t("letters", { n: wordLetters(best) }) }));
      } else {
        out.push(t("bonusWonMost", { points: signed(s[field]), name: nameOf(winner), words: t("words", { n: s.words.length }) }));
      }
      return;
    }
    const measure = kind === "longest" ? (s) => Math.max(0, ...s.words.map(wordLetters)) : (s) => s.words.length;
    const values = scores.map((s, i) => (eligible[i] ? measure(s) : -1));
    const best = Math.max(...values);
    const Bonus = t(kind === "longest" ? "LongestName" : "MostName");
    if (best <= 0) {
      out.push(t(onlyOut ? "bonusNobodyOut" : "bonusNobody", { bonus: Bonus }));
      return;
    }
    const names = list(values.map((v, i) => (v === best ? nameOf(i) : null)).filter(Boolean));
    out.push(kind === "longest" ? t("bonusTiedLongest", { names, letters: t("letters", { n: best }) })
      : t("bonusTiedMost", { names, words: t("words", { n: best }) }));
  };
  explain("longest", longest);
  explain("most", most);
  if (onlyOut && (longest || most)) out.push(t("bonusOnlyOut"));
  return out;
}

/** The zero floor, said about the players it touched this round. */
function floorSentences(result, before, rules, nameOf) {
  if (rules && rules.floor_at_zero === false) return [t("belowZero")];
  const out = [];
  result.scores.forEach((s, seat) => {
    const raw = (before[seat] ?? 0) + s.score;
    if (raw < 0) {
      out.push(t("floorHit", { name: nameOf(seat), before: before[seat] ?? 0, sign: s.score < 0 ? "−" : "+", amount: Math.abs(s.score), raw: signed(raw) }));
    }
  });
  // Said every round, so the rule is known before it bites.
  if (!out.length) out.push(t("floorRule"));
  return out;
}

/** One round's result: a block per player (a list, so a phone reads it top to bottom) and the sentences that explain it. */
export function roundResult(result, before, rules, session) {
  const nameOf = (seat) => session.nameOf(seat);
  const rows = result.scores.map((s, seat) => {
    const bonuses = [];
    if (s.longest_bonus) bonuses.push(t("longestBonus", { points: signed(s.longest_bonus) }));
    if (s.most_words_bonus) bonuses.push(t("mostBonus", { points: signed(s.most_words_bonus) }));
    const left = s.unused.reduce((a, f) => a + points(f), 0);
    return el("li", { class: "result-row", "data-seat": seat },
      el("div", { class: "result-who" },
        el("span", { class: "name", title: nameOf(seat), tabindex: 0, dir: "auto" }, nameOf(seat)),
        s.went_out ? el("span", { class: "tag" }, t("wentOutTag")) : null,
        el("span", { class: "num round-score" }, t("roundScore", { score: signed(s.score) })),
        el("span", { class: "num total" }, t("totalScore", { total: result.totals[seat] })),
      ),
      el("div", { class: "result-part" }, el("span", { class: "part-label" }, t("wordsHeading")),
        s.words.length ? s.words.map((w) => el("span", { class: "laid-word" }, cardRow(w), el("span", { class: "pts-label" }, signed(wordPoints(w)))))
          : el("span", { class: "small" }, t("noneWords"))),
      el("div", { class: "result-part" }, el("span", { class: "part-label" }, t("leftInHand")),
        s.unused.length ? el("span", { class: "laid-word left" }, cardRow(s.unused), el("span", { class: "pts-label" }, signed(-left)))
          : el("span", { class: "small" }, t("noneLeft"))),
      el("div", { class: "result-part" }, el("span", { class: "part-label" }, t("bonusesHeading")),
        el("span", {}, bonuses.length ? list(bonuses) : t("noBonus"))),
    );
  });
  const out = result.went_out !== null && result.went_out !== undefined;
  const how = !out ? t("howLimit") : result.went_out === session.view?.seat ? t("howOutYou") : t("howOut", { name: nameOf(result.went_out) });
  return el("div", { class: "result", id: `result-${result.round}` },
    el("ol", { class: "result-rows" }, rows),
    el("p", {}, how),
    bonusSentences(result, rules, nameOf).map((text) => el("p", { class: "bonus" }, text)),
    floorSentences(result, before, rules, nameOf).map((text) => el("p", { class: "floor" }, text)),
    el("p", { class: "small" }, t("scoring")),
  );
}

/** The totals before a round of the history: the previous round's, or zeros. */
const totalsBefore = (history, index) => (index > 0 ? history[index - 1].totals : history[index].totals.map(() => 0));

/**
 * The round just finished, over the table until the player goes on to the
 * next round (states of the next round wait meanwhile: see session.js).
 */
export function roundOverlay(session) {
  const v = session.view;
  const history = Array.isArray(v.history) ? v.history : [];
  if (!session.resultShown || v.phase === "game_over" || !history.length) return null;
  const index = history.findIndex((r) => r.round === session.resultShown);
  if (index < 0) return null;
  const last = history[index];
  return el("section", { class: "overlay", id: "round-result", role: "region", "aria-labelledby": "result-title" },
    el("div", { class: "overlay-card panel" },
      el("h2", { id: "result-title", tabindex: -1, "data-focus": "result-title" }, t("roundResult", { round: last.round, cards: last.cards })),
      roundResult(last, totalsBefore(history, index), v.rules, session),
      el("div", { class: "buttons" },
        el("button", { type: "button", class: "primary big", id: "next-round", "data-focus": "next-round", onclick: () => session.closeResult() }, t("nextRound"))),
    ),
  );
}

/** The score sheet: each round's score and running total per player. */
export function scoreSheet(view, session) {
  const history = Array.isArray(view.history) ? view.history : [];
  const seats = [...Array(view.players ?? view.totals.length).keys()];
  return el("div", { class: "table-wrap" },
    el("table", { class: "sheet", id: "score-sheet" },
      el("caption", { class: "visually-hidden" }, t("sheetCaption")),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("roundHeading")),
        seats.map((s) => el("th", { scope: "col" }, el("span", { class: "name", title: session.nameOf(s), dir: "auto" }, session.nameOf(s)))))),
      el("tbody", {},
        history.map((r) => el("tr", {},
          el("th", { scope: "row", class: "num" }, t("sheetRound", { round: r.round, cards: r.cards })),
          seats.map((s) => el("td", { class: "num" }, t("sheetCell", { score: signed(r.scores[s].score), total: r.totals[s] }))),
        )),
        el("tr", { class: "totals" }, el("th", { scope: "row" }, t("totalHeading")), seats.map((s) => el("td", { class: "num" }, num(view.totals[s])))),
      ),
    ),
  );
}

/** Who won, as a sentence: "You win with 94 points.", "Ann and Bo share the win with 40 points." */
export function winnerText(view, session) {
  const best = Math.max(...view.totals);
  const seats = view.totals.map((total, seat) => (total === best ? seat : null)).filter((s) => s !== null);
  const pts = t("points", { n: best });
  const mine = seats.includes(view.seat);
  if (seats.length === 1) return mine ? t("youWin", { points: pts }) : t("theyWin", { name: session.nameOf(seats[0]), points: pts });
  const others = seats.filter((s) => s !== view.seat).map((s) => session.nameOf(s));
  return mine ? t("tieWithYou", { names: list(others), points: pts }) : t("tie", { names: list(others), points: pts });
}

/** The end of the game: who won, the last round, the score sheet, a rematch and the record. */
export function gameOverView(view, session) {
  const history = Array.isArray(view.history) ? view.history : [];
  const seated = view.seat !== null && view.seat !== undefined;
  const offer = session.rematchOffer;
  return el("section", { class: "panel over", "aria-labelledby": "over-title" },
    el("h2", { id: "over-title" }, t("gameOverTitle")),
    el("p", { class: "winner", id: "winner" }, winnerText(view, session)),
    offer !== null && offer !== undefined && offer !== view.seat && seated
      ? el("p", { class: "banner", id: "rematch-offer" }, t("rematchAsked", { name: session.nameOf(offer) })) : null,
    el("div", { class: "buttons" },
      seated ? el("button", {
        type: "button", class: "primary big", id: "rematch", "data-focus": "rematch", disabled: Boolean(session.rematchBusy),
        onclick: () => session.rematch(),
      }, offer !== null && offer !== undefined && offer !== view.seat ? t("rematchJoin") : t("rematch")) : null,
      el("a", {
        class: "button", id: "download-record", "data-focus": "download", href: transport().recordUrl(session.table),
        download: `quiddler-${session.table}.json`,
      }, t("download")),
      el("a", { class: "button", href: "/", "data-focus": "again" }, t("playAnother")),
    ),
    el("p", { class: "small" }, t("recordNote")),
    el("h3", {}, t("scoreSheet")),
    scoreSheet(view, session),
    history.length ? el("h3", {}, t("roundResult", { round: history.at(-1).round, cards: history.at(-1).cards })) : null,
    history.length ? roundResult(history.at(-1), totalsBefore(history, history.length - 1), view.rules, session) : null,
    reviewSection(session, view.totals.length),
  );
}
