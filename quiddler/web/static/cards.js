// The deck's faces and points, and reading typed words.
//
// The points are the official deck table (quiddler/cards.py); the page
// needs them to show each card's value without asking the server.  Typed
// words are matched to the hand's cards by the server ("match"), which
// gives the exact reasons `quiddler play` gives when they cannot be.

export const POINTS = {
  a: 2, b: 8, c: 8, d: 5, e: 2, f: 6, g: 6, h: 7, i: 2, j: 13, k: 8, l: 3, m: 5,
  n: 5, o: 2, p: 6, q: 15, r: 5, s: 3, t: 3, u: 4, v: 11, w: 10, x: 12, y: 4, z: 14,
  er: 7, in: 7, qu: 9, th: 9, cl: 10,
};

export const points = (face) => POINTS[face] ?? 0;
export const wordText = (faces) => faces.join("");
export const wordPoints = (faces) => faces.reduce((sum, f) => sum + points(f), 0);
/** Letters of a word: a two-letter card counts two (the longest-word bonus counts letters). */
export const wordLetters = (faces) => faces.reduce((sum, f) => sum + f.length, 0);

/** What the words box shows before anything is typed: English words, as the words are (and the keyword "discard"). */
export const TYPED_EXAMPLES = { goOut: "quiet ax", layDown: "quiet ax discard z" };

/** Typed text the page cannot even send: `key` and `params` name its sentence in the catalog. */
export class WordProblem extends Error {
  constructor(key, params = {}) {
    super(key);
    this.key = key;
    this.params = params;
  }
}

/**
 * Read what a person typed: "quiet ax" or "quiet ax discard z" (commas are
 * blanks too).  Returns {words, discard}; a discard that is not a card
 * throws WordProblem naming it.
 */
export function parseTyped(text) {
  const tokens = text.toLowerCase().replace(/,/g, " ").split(/\s+/).filter(Boolean);
  let discard = null;
  const at = tokens.indexOf("discard");
  if (at >= 0) {
    if (at !== tokens.length - 2) throw new WordProblem("typed.discardAtEnd");
    discard = tokens[at + 1];
    if (!(discard in POINTS)) throw new WordProblem("typed.unknownCard", { card: discard });
    tokens.splice(at, 2);
  }
  return { words: tokens, discard };
}
