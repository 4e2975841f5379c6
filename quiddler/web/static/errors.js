// The server's refusals in the player's language.
//
// An error reply carries a `code` and the `params` it names; the engine's
// and the word matcher's refusals (and a malformed message's) also a
// `reason`: which rule refused.  The sentence is the catalog's
// `error.<code>.<reason>` (or a variant of it, below), else `error.<code>`.
//
// The server's English `message` is the English page's sentence: it is the
// exact reason `quiddler play` gives ("you cannot spell 'quiz' with your
// cards: it needs two z's"), with articles and number words no catalog
// sentence can follow.  In any other language it is the fallback for a
// code the page does not know.

import { currentLanguage, has, list, t } from "./messages.js";

const seatName = (seat) => t("seatN", { n: Number(seat) + 1 });

/** The cards a word is short of: "a z, 2 × e (you have 1)". */
const missingText = (missing) => list((missing ?? []).map((m) => (m.have > 0
  ? t("error.missingHave", { n: m.needed, card: m.card, have: m.have })
  : t("error.missing", { n: m.needed, card: m.card }))));

/**
 * The reasons whose params a sentence takes otherwise than as they come
 * (seats as names, counts as `n`, lists as lists), and the variant key a
 * param picks: code.reason -> (params, nameOf) -> [key, values].
 */
const SENTENCES = {
  "not_your_turn.wrong_player": (p, nameOf) => ["error.not_your_turn.wrong_player", { name: nameOf(p.turn) }],
  "illegal.already_went_out": (p, nameOf) => ["error.illegal.already_went_out", { name: nameOf(p.player) }],
  "illegal.cards_left": (p) => ["error.illegal.cards_left", { n: p.count }],
  "illegal.used_too_often": (p) => ["error.illegal.used_too_often",
    { card: p.card, used: t("timesCount", { n: p.used }), held: t("timesCount", { n: p.held }) }],
  "no_match.too_many_words": (p) => [`error.no_match.too_many_words${p.besides_discard ? ".besides" : ""}`,
    { words: t("words", { n: p.words }), cards: t("cards", { n: p.fewest }), held: p.held }],
  "no_match.cannot_spell": (p) => [`error.no_match.cannot_spell${p.discard_in_word ? ".discardInWord" : ""}`,
    { word: p.word, missing: missingText(p.missing), card: p.discard_in_word }],
  "no_match.cannot_spell_together": (p) => [`error.no_match.cannot_spell_together${p.discard_in_word ? ".discardInWord" : ""}`,
    { words: list(p.words ?? []), missing: missingText(p.missing), card: p.discard_in_word }],
  "no_match.go_out_no_discard": (p) => ["error.no_match.go_out_no_discard", { n: p.held }],
  "no_match.cards_over": (p) => [`error.no_match.cards_over${p.discard ? ".discard" : ""}`,
    { cards: list(p.cards ?? []), discard: p.discard }],
};

/**
 * errorText({code, reason, params, message}, nameOf) -> the sentence that
 * says it; `nameOf(seat)` names the seats a refusal names.  Works on an
 * error message ({type: "error", ...}) and on an ApiError alike.
 */
export function errorText(error, nameOf = seatName) {
  const { code, reason } = error;
  const params = error.params && typeof error.params === "object" ? error.params : {};
  const english = typeof error.message === "string" && error.message ? error.message : null;
  if (english && (currentLanguage() === "en" || !code)) return english;
  if (code && reason) {
    const sentence = SENTENCES[`${code}.${reason}`];
    const [key, values] = sentence ? sentence(params, nameOf) : [`error.${code}.${reason}`, params];
    if (has(key)) return t(key, values);
  }
  if (has(`error.${code}`)) return t(`error.${code}`);
  return english ?? t("error.unknown");
}
