// The solver page: a hand typed in, the best play and every word, solved
// by the engine in the page (the worker of worker-transport.js), with the
// answer of `quiddler solve --json` and `quiddler words --json`.

import { el, replace } from "./dom.js";
import { Engine } from "./worker-transport.js";

const engine = new Engine();
const form = document.getElementById("solve-form");
const status = document.getElementById("engine-status");
const button = document.getElementById("solve");
const error = document.getElementById("solve-error");
const answer = document.getElementById("answer");

const faces = (cards) => cards.join(" ");
const word = (w) => el("li", { "data-word": w.word, "data-cards": faces(w.cards) },
  el("strong", {}, w.word), ` ${faces(w.cards)} · ${w.points} points`);

function showPlay(play, list, score) {
  document.getElementById(score).textContent = String(play.score);
  replace(document.getElementById(list), play.words.map(word));
}

function show(solution, words) {
  const best = solution.best;
  showPlay(best, "best-words", "best-score");
  const parts = [best.goes_out ? "Goes out." : "Does not go out."];
  if (best.unused.length) parts.push(`Left over: ${faces(best.unused)}.`);
  if (best.discard) parts.push(`Discard: ${best.discard}.`);
  document.getElementById("best-summary").textContent = parts.join(" ");
  const out = solution.best_go_out;
  document.getElementById("go-out").hidden = !out || best.goes_out;
  if (out && !best.goes_out) showPlay(out, "out-words", "out-score");
  document.getElementById("word-count").textContent = String(words.length);
  replace(document.querySelector("#all-words tbody"), words.map((w) =>
    el("tr", { "data-word": w.word }, el("td", {}, w.word), el("td", {}, faces(w.cards)), el("td", {}, String(w.points)))));
  answer.hidden = false;
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  replace(error);
  button.disabled = true;
  try {
    const reply = await engine.call("solve", { cards: form.elements.hand.value, discard: form.elements.discard.checked });
    if (reply.body.error) {
      replace(error, reply.body.error);
      answer.hidden = true;
    } else {
      show(reply.body.solution, reply.body.words);
      answer.dataset.cards = form.elements.hand.value; // which hand the answer is for
      status.textContent = `Solved in ${Math.round(reply.ms)} ms`;
    }
  } catch (exc) {
    replace(error, exc.message);
  }
  button.disabled = false;
});

// Ready when the engine answers a first (tiny) solve: the word list is loaded by then.
engine.call("solve", { cards: "qu,i,t" }).then(() => {
  status.textContent = "Ready";
  button.disabled = false;
}, (exc) => {
  status.textContent = exc.message;
});
