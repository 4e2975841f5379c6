// The start screen: one click to play the computer, or a table for friends.

import { el, replace } from "./dom.js";
import { ApiError, createTable, listPlayers, saveSeat } from "./net.js";

// How the computer players are offered; the server's GET /api/players says
// which exist (quiddler.game.player_names()) and which are the levels worth
// offering first.  This list is the fallback when it cannot be asked.
const LABELS = {
  easy: "Easy",
  medium: "Medium",
  hard: "Hard",
  expert: "Expert (plays like the hints)",
  master: "Master (the expert, searching ahead)",
  ev: "EV (expected value)",
  greedy: "Greedy",
  random: "Random",
  "random-eager": "Random, goes out at once",
};
const FALLBACK = { players: Object.keys(LABELS), levels: ["easy", "medium", "hard", "expert"], default: "medium" };
const OFFICIAL_SIZES = [3, 4, 5, 6, 7, 8, 9, 10];
const NAME_KEY = "quiddler.name";

/** The levels first (weakest first), then the other strategies. */
const levelOptions = (selected, known) => {
  const order = [...known.levels, ...known.players.filter((p) => !known.levels.includes(p))];
  return order.map((value) => el("option", { value, selected: value === selected }, LABELS[value] ?? value));
};

/** The name this browser used last, offered again. */
export function rememberedName() {
  try {
    return localStorage.getItem(NAME_KEY) || "";
  } catch {
    return "";
  }
}

export function rememberName(name) {
  try {
    localStorage.setItem(NAME_KEY, name);
  } catch {
    // storage off: the name is asked for again next time
  }
}

/** Start a table and go to it; `error` is where a refusal is shown. */
async function start(settings, error, navigate) {
  replace(error);
  try {
    const made = await createTable(settings);
    saveSeat(made.table, { token: made.token, seat: made.seat, name: settings.name, invite: made.invite });
    rememberName(settings.name);
    navigate(`/t/${encodeURIComponent(made.table)}`);
  } catch (exc) {
    const why = exc instanceof ApiError ? exc.message : "the server cannot be reached";
    replace(error, `Could not start the table: ${why}`);
  }
}

/** The rules form's values as the server's `rules` object (Rules field names). */
function rulesFrom(form) {
  const rules = {};
  const sizesText = form.elements.sizes.value.trim();
  if (sizesText) {
    rules.round_sizes = sizesText.split(/[\s,]+/).filter(Boolean).map(Number);
  } else {
    const rounds = Number(form.elements.rounds.value);
    if (rounds !== OFFICIAL_SIZES.length) rules.round_sizes = OFFICIAL_SIZES.slice(0, rounds);
  }
  if (form.elements.firstTurn.checked) rules.no_going_out_first_turn = true;
  if (form.elements.noBonuses.checked) {
    rules.longest_word_bonus = 0;
    rules.most_words_bonus = 0;
  }
  if (form.elements.noFloor.checked) rules.floor_at_zero = false;
  const limit = Number(form.elements.turnLimit.value);
  if (limit !== 50) rules.turn_limit = limit;
  return rules;
}

function seatRows(count, names) {
  const rows = [el("li", {}, "Seat 1: you")];
  for (let i = 1; i < count; i += 1) {
    rows.push(
      el("li", {},
        el("label", { for: `seat-${i}` }, `Seat ${i + 1}: `),
        el("select", { id: `seat-${i}`, name: `seat-${i}` },
          el("option", { value: "human", selected: i === 1 }, "A friend (invite link)"),
          levelOptions(null, names).map((o) => {
            o.textContent = `Computer: ${o.textContent}`;
            return o;
          }),
        ),
      ),
    );
  }
  return rows;
}

export async function showHome(main, { navigate }) {
  document.title = "Quiddler";
  const name = rememberedName();
  const quickError = el("p", { class: "error", role: "alert" });
  const friendsError = el("p", { class: "error", role: "alert" });
  const answer = await listPlayers();
  const names = answer && Array.isArray(answer.players) && Array.isArray(answer.levels) ? answer : FALLBACK;

  const quickLevel = el("select", { id: "quick-level" }, levelOptions(names.default ?? "medium", names));
  const quick = el("section", { class: "panel", "aria-labelledby": "quick-title" },
    el("h2", { id: "quick-title" }, "Play now"),
    el("p", {}, "A whole game against the computer, hints on."),
    el("div", { class: "row" },
      el("label", { for: "quick-level" }, "Computer level "),
      quickLevel,
    ),
    el("button", {
      class: "primary big", id: "play-now", type: "button", "data-focus": "play-now",
      onclick: () => start({ seats: ["human", quickLevel.value], hints: true, name: rememberedName() || "You" },
        quickError, navigate),
    }, "Play now"),
    quickError,
  );

  const seatList = el("ul", { class: "seats-setup" }, seatRows(2, names));  // each row says its seat number
  const form = el("form", { class: "setup", novalidate: true },
    el("div", { class: "row" },
      el("label", { for: "my-name" }, "Your name "),
      el("input", { id: "my-name", name: "myName", maxlength: 24, autocomplete: "nickname", required: true, value: name }),
    ),
    el("div", { class: "row" },
      el("label", { for: "seat-count" }, "Seats "),
      el("select", {
        id: "seat-count", name: "seatCount",
        onchange: (e) => replace(seatList, seatRows(Number(e.target.value), names)),
      }, [2, 3, 4, 5, 6, 7, 8].map((n) => el("option", { value: n }, String(n)))),
    ),
    seatList,
    el("fieldset", {},
      el("legend", {}, "Rules"),
      el("div", { class: "row" },
        el("label", { for: "rounds" }, "Rounds "),
        el("select", { id: "rounds", name: "rounds" },
          OFFICIAL_SIZES.map((_, i) => el("option", { value: i + 1, selected: i === 7 }, `${i + 1} (${i ? `3 to ${i + 3}` : 3} cards)`)),
        ),
      ),
      el("div", { class: "row" },
        el("label", { for: "sizes" }, "Or cards per round "),
        el("input", { id: "sizes", name: "sizes", placeholder: "e.g. 3,5,7", inputmode: "numeric", maxlength: 60 }),
      ),
      el("div", { class: "check" },
        el("input", { type: "checkbox", id: "first-turn", name: "firstTurn" }),
        el("label", { for: "first-turn" }, "No going out on a player's first turn"),
      ),
      el("div", { class: "check" },
        el("input", { type: "checkbox", id: "no-bonuses", name: "noBonuses" }),
        el("label", { for: "no-bonuses" }, "No longest-word or most-words bonus"),
      ),
      el("div", { class: "check" },
        el("input", { type: "checkbox", id: "no-floor", name: "noFloor" }),
        el("label", { for: "no-floor" }, "Totals may go below zero"),
      ),
      el("div", { class: "row" },
        el("label", { for: "turn-limit" }, "Turn limit per round "),
        el("input", { id: "turn-limit", name: "turnLimit", type: "number", min: 1, max: 200, value: 50 }),
      ),
    ),
    el("div", { class: "check" },
      el("input", { type: "checkbox", id: "hints", name: "hints", checked: true }),
      el("label", { for: "hints" }, "Hints allowed"),
    ),
    el("button", { class: "primary", type: "submit", id: "create-table" }, "Create the table"),
    friendsError,
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const myName = form.elements.myName.value.trim();
    if (!myName) {
      replace(friendsError, "Type your name first: the others see it at the table.");
      form.elements.myName.focus();
      return;
    }
    const count = Number(form.elements.seatCount.value);
    const seats = ["human"];
    for (let i = 1; i < count; i += 1) seats.push(form.elements[`seat-${i}`].value);
    start({ seats, rules: rulesFrom(form), hints: form.elements.hints.checked, name: myName }, friendsError, navigate);
  });

  const friends = el("section", { class: "panel", "aria-labelledby": "friends-title" },
    el("h2", { id: "friends-title" }, "A table with friends"),
    el("p", {}, "Choose the seats: friends get an invite link, computer players are ready at once. The game starts when every seat is taken."),
    form,
  );
  const rules = el("details", { class: "panel how" },
    el("summary", {}, "How Quiddler is played"),
    el("p", {}, "Each round deals everyone a few cards: 3 in the first round, one more each round after. On your turn, draw a card (from the pile, or the face-up discard), then discard one."),
    el("p", {}, "When every card but your discard spells words (each word two cards or more), you may go out. Everyone else then has one final turn to lay down what words they can; the cards left in their hands count against them."),
    el("p", {}, "A round scores the points of your words minus the points of the cards you kept. The longest word and the most words each earn a bonus (a tie earns nothing). The highest total after the last round wins."),
  );
  replace(main, el("h1", {}, "Play Quiddler in your browser"),
    el("p", { class: "intro" }, "The card game of making words, with hints from the solver and computer players from easy to expert."),
    el("div", { class: "home" }, quick, friends), rules);
}
