// The hint's explanation in the player's language, from its named terms.
//
// The server sends why a move is best as structure (docs/protocol.md,
// HINT.explanation): a `kind` of sentence, the SUMs of value it weighs
// (each a base value and the named terms it is made of) and the cards and
// words involved.  Each kind, base and term is a catalog key (hint.*); the
// English `reason` is the fallback for a kind this page does not know.

import { amount, list, percent, t } from "./messages.js";

/** Digits each base value is written with (the server rounds to them). */
const BASE_DIGITS = { words: 0, go_out_now: 0, keep_hand: 1, blind_draw: 1, kept_average: 1, waiting_average: 1, kept_now: 0, play: 0 };

const tenths = (value) => amount(value, { digits: 1 });
const signedTenths = (value) => amount(value, { digits: 1, signed: true });
/** The words of a play: "quiet, dog" (a list of items, as the server's English writes them). */
const wordList = (words) => list(words ?? [], "unit");

/** One named term: "+2.0 for going out". */
function termText(term) {
  const value = signedTenths(term.value);
  const others = Number(term.others ?? 0);
  switch (term.kind) {
    case "longest_kept":
    case "most_kept":
      return others > 1 ? t(`hint.term.${term.kind}.against`, { value, n: others }) : t(`hint.term.${term.kind}`, { value });
    case "longest_denied":
    case "most_denied": {
      const key = `hint.term.${term.kind}.${term.tie ? "tie" : "beat"}`;
      return others > 1 ? t(`${key}.weighted`, { value, n: others }) : t(key, { value });
    }
    case "out_chance":
      return t("hint.term.out_chance", { value, percent: percent(term.percent) });
    case "longest_won":
      return t("hint.term.longest_won", { value, letters: t("letters", { n: term.letters }), laid: term.laid });
    case "most_won":
      return t("hint.term.most_won", { value, words: t("words", { n: term.count }), laid: term.laid });
    default:
      return t(`hint.term.${term.kind}`, { value, card: term.card });
  }
}

/** A SUM: its base value, then the terms it is made of and their total. */
function sumText(sum) {
  const n = amount(sum.value, { digits: BASE_DIGITS[sum.kind] ?? 1 });
  const base = sum.kind === "play" ? t("points", { n })
    : sum.kind === "keep_hand" ? t("hint.base.keep_hand", { value: n })
      : t(`hint.base.${sum.kind}`, { n });
  if (!Array.isArray(sum.terms) || !sum.terms.length) return base;
  return t("hint.withTerms", { base, terms: list(sum.terms.map(termText), "unit"), total: tenths(sum.total) });
}

/** A move the master's simulation weighed: "going out with quie (discarding the t)". */
function candidateText(candidate) {
  return t(`hint.candidate.${candidate.kind}`, { words: wordList(candidate.words), card: candidate.card });
}

/** The master's hint: the move, then each candidate's simulated result (the recommended one first). */
function simulatedText(e) {
  const shown = (value) => (e.last_round ? percent(value) : value);
  const [head, ...rest] = e.candidates;
  const results = [
    t(e.last_round ? "hint.simulated.headLast" : "hint.simulated.head", { move: candidateText(head), value: shown(head.value), n: e.samples }),
    ...rest.map((c) => (c.samples === e.samples
      ? t("hint.simulated.other", { move: candidateText(c), value: shown(c.value) })
      : t("hint.simulated.otherSamples", { move: candidateText(c), value: shown(c.value), samples: c.samples }))),
  ];
  const key = e.action === "go-out" ? "hint.simulated.goOut" : "hint.simulated.wait";
  return t(key, { words: wordList(e.words), card: e.card, results: list(results, "unit") });
}

/** Why the recommended move is best, as one sentence in the page's language (`english`: the server's reason, for a kind not known here). */
export function explanationText(e, english = null) {
  switch (e?.kind) {
    case "only_draw":
      return t(`hint.only_draw.${e.source === "discard" ? "discard" : "pile"}`);
    case "take_discard":
    case "draw_pile":
      return t(`hint.${e.kind}`, { card: e.card, take: sumText(e.take), pile: sumText(e.pile) });
    case "go_out":
      return e.waiting
        ? t("hint.go_out", { words: wordList(e.value.words), card: e.value.card, value: sumText(e.value), waitCard: e.waiting.card, waitValue: tenths(e.waiting.value) })
        : t("hint.go_out.alone", { words: wordList(e.value.words), card: e.value.card, value: sumText(e.value) });
    case "wait":
      return t(e.last_say ? "hint.wait.lastSay" : "hint.wait",
        { card: e.card, value: sumText(e.value), outCard: e.going_out.card, outValue: tenths(e.going_out.value) });
    case "discard":
      return t("hint.discard", { card: e.card, value: sumText(e.value) });
    case "lay_down":
      return e.value.words?.length
        ? t("hint.lay_down", { words: wordList(e.value.words), card: e.value.card, value: sumText(e.value) })
        : t("hint.lay_down.nothing", { card: e.value.card, value: sumText(e.value) });
    case "simulated":
      return simulatedText(e);
    default:
      return english ?? "";
  }
}
