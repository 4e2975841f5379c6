// The start screen: one click to play the computer, or a table for friends.

import { el, replace } from "./dom.js";
import { errorText } from "./errors.js";
import { has, num, t } from "./messages.js";
import { saveSeat } from "./seats.js";
import { ApiError, transport } from "./transport.js";

// The computer players the server's GET /api/players names (it says which
// exist, quiddler.game.player_names(), and which are the levels worth
// offering first); this is the fallback when it cannot be asked.  Each is
// offered as its catalog key `level.<name>` says (a name without one as it is).
const FALLBACK = {
  players: ["easy", "medium", "hard", "expert", "master", "ev", "greedy", "random", "random-eager"],
  levels: ["easy", "medium", "hard", "expert"],
  default: "medium",
};
const OFFICIAL_SIZES = [3, 4, 5, 6, 7, 8, 9, 10];
const NAME_KEY = "quiddler.name";
/** The rules panel "How Quiddler is played", a paragraph each. */
const HOW_TO = ["howTo.cards", "howTo.deal", "howTo.turn", "howTo.goOut", "howTo.scoring", "howTo.winning"];

const levelLabel = (name) => (has(`level.${name}`) ? t(`level.${name}`) : name);

/** The levels first (weakest first), then the other strategies; `label` says each. */
const levelOptions = (selected, known, label = levelLabel) => {
  const order = [...known.levels, ...known.players.filter((p) => !known.levels.includes(p))];
  return order.map((value) => el("option", { value, selected: value === selected }, label(value)));
};

/** The choice of rounds: "1 (3 cards)", "2 (3 to 4 cards)", ... */
const roundsOptions = () => OFFICIAL_SIZES.map((last, i) => el("option", { value: i + 1, selected: i === 7 },
  i ? t("home.roundsMany", { rounds: i + 1, first: OFFICIAL_SIZES[0], n: last }) : t("home.roundsOne", { rounds: 1, n: last })));

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
    const made = await transport().createTable(settings);
    saveSeat(made.table, { token: made.token, seat: made.seat, name: settings.name, invite: made.invite });
    rememberName(settings.name);
    navigate(`/t/${encodeURIComponent(made.table)}`);
  } catch (exc) {
    replace(error, exc instanceof ApiError ? t("home.startFailed", { why: errorText(exc) }) : t("home.startUnreachable"));
  }
}

/** The zero of each script of digits the page's languages write (Arabic-Indic, Persian, Devanagari, Bengali). */
const ZEROS = [0x660, 0x6f0, 0x966, 0x9e6];
/** Typed digits as the server reads them: "۳،۵" or "৩,৫" is "3,5". */
const latinDigits = (text) => text.replace(/[\u0660-\u0669\u06f0-\u06f9\u0966-\u096f\u09e6-\u09ef]/g, (digit) => {
  const code = digit.codePointAt(0);
  return String(code - ZEROS.find((zero) => code >= zero && code <= zero + 9));
}).replace(/[،٬]/g, ",");

/** The rules form's values as the server's `rules` object (Rules field names). */
function rulesFrom(form) {
  const rules = {};
  const sizesText = latinDigits(form.elements.sizes.value).trim();
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
  const rows = [el("li", {}, t("home.seatYou", { n: 1 }))];
  for (let i = 1; i < count; i += 1) {
    rows.push(
      el("li", {},
        el("label", { for: `seat-${i}` }, t("home.seatLabel", { n: i + 1 })), " ",
        el("select", { id: `seat-${i}`, name: `seat-${i}` },
          el("option", { value: "human", selected: i === 1 }, t("home.friend")),
          levelOptions(null, names, (level) => t("home.computerOption", { level: levelLabel(level) })),
        ),
      ),
    );
  }
  return rows;
}

export async function showHome(main, { navigate }) {
  document.title = t("page.brand");
  const name = rememberedName();
  const quickError = el("p", { class: "error", role: "alert" });
  const friendsError = el("p", { class: "error", role: "alert" });
  const answer = await transport().listPlayers();
  const names = answer && Array.isArray(answer.players) && Array.isArray(answer.levels) ? answer : FALLBACK;

  const quickLevel = el("select", { id: "quick-level" }, levelOptions(names.default ?? "medium", names));
  const quickRounds = el("select", { id: "quick-rounds" }, roundsOptions());
  const quickFirst = el("input", { type: "checkbox", id: "quick-first-turn" });
  const quickHints = el("input", { type: "checkbox", id: "quick-hints", checked: true });
  const quickRules = () => {
    const rules = {};
    const rounds = Number(quickRounds.value);
    if (rounds !== OFFICIAL_SIZES.length) rules.round_sizes = OFFICIAL_SIZES.slice(0, rounds);
    if (quickFirst.checked) rules.no_going_out_first_turn = true;
    return rules;
  };
  const quick = el("section", { class: "panel", "aria-labelledby": "quick-title" },
    el("h2", { id: "quick-title" }, t("home.playNow")),
    el("p", {}, t("home.playNowIntro")),
    el("div", { class: "row" },
      el("label", { for: "quick-level" }, t("home.computerLevel")), " ",
      quickLevel,
    ),
    el("div", { class: "row" },
      el("label", { for: "quick-rounds" }, t("home.rounds")), " ",
      quickRounds,
    ),
    el("div", { class: "check" }, quickFirst, el("label", { for: "quick-first-turn" }, t("home.firstTurn"))),
    el("div", { class: "check" }, quickHints, el("label", { for: "quick-hints" }, t("home.hintsAllowed"))),
    el("button", {
      class: "primary big", id: "play-now", type: "button", "data-focus": "play-now",
      onclick: () => start({ seats: ["human", quickLevel.value], rules: quickRules(), hints: quickHints.checked,
        name: rememberedName() || t("home.defaultName") }, quickError, navigate),
    }, t("home.playNow")),
    quickError,
  );

  const seatList = el("ul", { class: "seats-setup" }, seatRows(2, names));  // each row says its seat number
  const form = el("form", { class: "setup", novalidate: true },
    el("div", { class: "row" },
      el("label", { for: "my-name" }, t("yourName")), " ",
      el("input", { id: "my-name", name: "myName", maxlength: 24, autocomplete: "nickname", required: true, value: name }),
    ),
    el("div", { class: "row" },
      el("label", { for: "seat-count" }, t("home.seats")), " ",
      el("select", {
        id: "seat-count", name: "seatCount",
        onchange: (e) => replace(seatList, seatRows(Number(e.target.value), names)),
      }, [2, 3, 4, 5, 6, 7, 8].map((n) => el("option", { value: n }, num(n)))),
    ),
    seatList,
    el("fieldset", {},
      el("legend", {}, t("home.rules")),
      el("div", { class: "row" },
        el("label", { for: "rounds" }, t("home.rounds")), " ",
        el("select", { id: "rounds", name: "rounds" }, roundsOptions()),
      ),
      el("div", { class: "row" },
        el("label", { for: "sizes" }, t("home.sizes")), " ",
        el("input", { id: "sizes", name: "sizes", placeholder: t("home.sizesExample"), inputmode: "numeric", maxlength: 60, dir: "ltr" }),
      ),
      el("div", { class: "check" },
        el("input", { type: "checkbox", id: "first-turn", name: "firstTurn" }),
        el("label", { for: "first-turn" }, t("home.firstTurn")),
      ),
      el("div", { class: "check" },
        el("input", { type: "checkbox", id: "no-bonuses", name: "noBonuses" }),
        el("label", { for: "no-bonuses" }, t("home.noBonuses")),
      ),
      el("div", { class: "check" },
        el("input", { type: "checkbox", id: "no-floor", name: "noFloor" }),
        el("label", { for: "no-floor" }, t("home.belowZero")),
      ),
      el("div", { class: "row" },
        el("label", { for: "turn-limit" }, t("home.turnLimit")), " ",
        el("input", { id: "turn-limit", name: "turnLimit", type: "number", min: 1, max: 200, value: 50 }),
      ),
    ),
    el("div", { class: "check" },
      el("input", { type: "checkbox", id: "hints", name: "hints", checked: true }),
      el("label", { for: "hints" }, t("home.hintsAllowed")),
    ),
    el("button", { class: "primary", type: "submit", id: "create-table" }, t("home.create")),
    friendsError,
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const myName = form.elements.myName.value.trim();
    if (!myName) {
      replace(friendsError, t("nameFirst"));
      form.elements.myName.focus();
      return;
    }
    const count = Number(form.elements.seatCount.value);
    const seats = ["human"];
    for (let i = 1; i < count; i += 1) seats.push(form.elements[`seat-${i}`].value);
    start({ seats, rules: rulesFrom(form), hints: form.elements.hints.checked, name: myName }, friendsError, navigate);
  });

  const friends = el("section", { class: "panel", "aria-labelledby": "friends-title" },
    el("h2", { id: "friends-title" }, t("home.friendsTitle")),
    el("p", {}, t("home.friendsIntro")),
    form,
  );
  const rules = el("details", { class: "panel how" },
    el("summary", {}, t("howTo.title")),
    HOW_TO.map((key) => el("p", {}, t(key))),
  );
  replace(main, el("h1", {}, t("home.title")),
    el("p", { class: "intro" }, t("home.intro")),
    el("div", { class: "home" }, quick, friends), rules);
}
