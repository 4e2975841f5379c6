// Every sentence the table screens show, by key, with named placeholders.
//
// This is the English catalog; a translation is another object of the same
// keys.  A sentence is never built by joining pieces in code: a key names a
// whole sentence, and a count picks its plural form through
// Intl.PluralRules (a key whose value is an object of plural categories).
// The player's own moves have their own keys ("you" takes other verbs and
// other word orders in many languages than a name does).

const EN = {
  // counts
  cards: { one: "{n} card", other: "{n} cards" },
  points: { one: "{n} point", other: "{n} points" },
  words: { one: "{n} word", other: "{n} words" },
  rounds: { one: "{n} round", other: "{n} rounds" },
  handSummary: "{cards}, {points}",
  cardsLeftSummary: "{cards} left, {points}",

  // the table's rules, in one line
  rulesRounds: { one: "{n} round ({sizes} cards)", other: "{n} rounds ({sizes} cards)" },
  rulesBonuses: "bonuses: longest word {longest}, most words {most}",
  rulesNoBonuses: "no bonuses",
  rulesBonusOut: "bonuses only for going out",
  rulesFirstTurn: "no going out on a first turn",
  rulesBelowZero: "totals may go below zero",
  rulesFloor: "zero floor",
  rulesTurnLimit: "turn limit {n}",
  rulesHints: "hints on",
  rulesNoHints: "no hints",

  // the invite page and the lobby
  invited: "You are invited to a game of Quiddler",
  yourName: "Your name",
  takeSeat: "Take a seat",
  justWatch: "Just watch",
  gameIsOver: "This game is over",
  gameStarted: "This game has started",
  atTheTable: "At the table",
  tableId: "Table {table}",
  seatN: "Seat {n}",
  computerName: "Computer ({level})",
  aPlayer: "a player",
  seatComputer: "Seat {n}: computer, {level}",
  seatComputerYou: "Seat {n}: computer, {level} (you)",
  seatWaiting: "Seat {n}: waiting for a friend",
  seatPerson: "Seat {n}: {name}",
  seatPersonYou: "Seat {n}: {name} (you)",
  waitingPlayers: "Waiting for players",
  seatsFree: { one: "One seat is still free. The game starts when every seat is taken.", other: "{n} seats are still free. The game starts when every seat is taken." },
  sendLink: "Send this link to your friends:",
  copied: "Copied",
  copyLink: "Copy link",
  linkNote: "Anyone with the link can take a free seat; it stops working once the table is full.",

  // joining, connecting, refusals
  tableTitle: "Quiddler table",
  tableFull: "Every seat at this table is taken. You can still watch.",
  noTable: "There is no such table (the link may be old).",
  noTableKept: "There is no such table (the link may be old: tables are kept for a while after their last move).",
  nameFirst: "Type your name first: the others see it at the table.",
  unreachable: "The server cannot be reached; try again in a moment.",
  badInvite: "This invite link is not right for this table. Ask for the link again, or just watch.",
  refused: "The server refused: {why}",
  refusedThat: "the server refused that",
  notConnected: "Not connected to the server right now: your move was not sent. Reconnecting…",
  connecting: "Connecting…",
  connectionLost: "Connection lost; retrying in {n} s",
  seatInvalid: "This browser's seat at the table is not valid any more ({why}).",
  watchTable: "Watch the table",
  backToStart: "Back to the start",
  waitingTable: "Waiting for the table…",
  connectingTable: "Connecting to the table…",

  // the table
  roundLine: "Round {round} of {rounds} · {cards} each · {dealer} deals",
  roundLineYouDeal: "Round {round} of {rounds} · {cards} each · you deal",
  gameOverAfter: "Game over after {rounds}",
  watching: "You are watching: you see what every player may see, never a hand.",
  rulesHere: "Rules at this table",
  drawPile: "Draw pile",
  drawPileCount: { one: "{n} card left", other: "{n} cards left" },
  drawPileLabel: { one: "Draw from the pile ({n} card left)", other: "Draw from the pile ({n} cards left)" },
  discardPile: "Discard pile",
  discardEmpty: "empty",
  takeDiscard: "Take the {card} ({points} points) from the discard pile",
  cardLabel: "{card}, {points} points",
  cardBacks: { one: "{name} holds {n} card", other: "{name} holds {n} cards" },
  toMove: "to move",
  dealer: "dealer",
  wentOutTag: "went out",
  away: "away",
  you: "you",
  total: "total {n}",
  players: "Players",
  piles: "Piles",

  // whose turn
  gameOver: "Game over.",
  gameOverTitle: "Game over",
  thinking: "{name} is thinking…",
  thinkingFinal: "{name} is thinking (final turn)…",
  theirTurnDraw: "{name}'s turn: drawing.",
  theirTurnDiscard: "{name}'s turn: discarding.",
  theirFinalDraw: "{name}'s final turn: drawing.",
  theirFinalDiscard: "{name}'s final turn: discarding.",
  awayNote: "{name} is away: the game waits for them.",
  yourDraw: "Your turn: draw from the pile or take the {card} from the discard pile.",
  yourDrawNoDiscard: "Your turn: draw from the pile.",
  yourFinalDraw: "Your final turn: draw from the pile or take the {card}, then lay down what words you can.",
  yourFinalDrawNoDiscard: "Your final turn: draw from the pile, then lay down what words you can.",
  yourFinalDiscard: "Your final turn: lay down what words you can and discard one card; cards left in your hand count against you.",
  yourDiscard: "Your turn: discard a card, or go out.",
  yourDiscardFirstTurn: "Your turn: discard a card (no going out on your first turn).",
  finalBanner: "{name} went out with {words}: this is your final turn.",
  finalBannerWatching: "{name} went out with {words}: everyone else has one final turn.",
  finalBannerYou: "You went out with {words}: the others have one final turn.",
  faceUpCard: "The face-up card of this round is the {card}.",

  // what happened (the log and the screen reader)
  youDrew: "You drew from the pile.",
  youDrewCard: "You drew the {card} from the pile.",
  youDrewCardReshuffled: "The discards were shuffled into a new pile; you drew the {card}.",
  theyDrew: "{name} drew from the pile.",
  theyDrewReshuffled: "The discards were shuffled into a new pile; {name} drew from it.",
  youTook: "You took the {card} from the discard pile.",
  theyTook: "{name} took the {card} from the discard pile.",
  youDiscarded: "You discarded the {card}.",
  theyDiscarded: "{name} discarded the {card}.",
  youWentOut: "You went out with {words} and discarded the {card}.",
  theyWentOut: "{name} went out with {words} and discarded the {card}.",
  youLaidDown: "You laid down {words} and discarded the {card}.",
  theyLaidDown: "{name} laid down {words} and discarded the {card}.",
  youLaidNothing: "You laid down no words and discarded the {card}.",
  theyLaidNothing: "{name} laid down no words and discarded the {card}.",
  roundOver: "Round {round} is over.",
  thisRound: "This round",
  newCard: "new",

  // the hand
  yourHand: "Your hand",
  handHelp: "Drag cards to arrange them; drop one on “New word group” to start a word. Keyboard: arrow keys choose a card, Shift with an arrow moves it, G starts a word group with it, U puts it back among the loose cards.",
  handHelpDiscard: "Press a card (Enter) to discard it.",
  discardCard: "Discard the {card} ({points} points). Position {pos} of {count}",
  discardCardFinal: "Discard the {card} and lay down nothing. Position {pos} of {count}",
  handCard: "{card}, {points} points. Position {pos} of {count}",
  sortLetter: "Sort by letter",
  sortPoints: "Sort by points",
  groupWord: "{word}: {points}",
  groupNotWord: "{word}: not a word",
  groupChecking: "{word}: checking…",
  groupLabel: "Word group {word}",
  looseCards: "Loose cards",
  moved: "The {card} is now at position {pos} of {count}.",
  grouped: "A word group starts with the {card}.",
  ungrouped: "The {card} is back among the loose cards.",
  newGroup: "New word group",
  goOutGroups: "Go out with {words}, discard the {card}",
  layDownGroups: "Lay down {words}, discard the {card}",
  layDownGroupsHelp: "Lay down your word groups:",
  groupsHelpOut: "To go out with word groups, every card but one must be in a group that spells a word.",
  groupsHelpLay: "Arrange words into groups to lay them down.",
  typedGoOut: "Or type your words to go out:",
  typedLayDown: "Or type the words to lay down:",
  typedHelp: "Words separated by spaces; add “discard x” to name the card to discard.",
  typeGoOut: "type the words you go out with, e.g. quiet ax",
  typeLayDown: "type the words to lay down, or “discard x” to lay nothing down",
  choose: "Those words leave {cards}: which card do you discard?",
  chooseDiscard: "Discard the {card}",
  goOut: "Go out",
  layDown: "Lay down",

  // hints
  hint: "Hint",
  hintThinking: "Thinking about your move…",
  hintTitle: "Hint: {move}",
  noAdvice: "no advice",
  hintOptions: "Options, best first",
  hintTakeDiscard: "take the {card} from the discard pile",
  hintDrawPile: "draw from the pile",
  hintDiscard: "discard the {card}",
  hintGoOut: "go out with {words}, discard the {card}",
  hintLayDown: "lay down {words}, discard the {card}",
  hintLayNothing: "lay down nothing, discard the {card}",
  valueExpected: "expected {value} points",
  valueNowAndExpected: "scores {now} points now; expected {value} points, counting bonuses it may keep",
  valueMargin: "average margin {value} points over {n} simulated finishes",
  valueNowAndMargin: "scores {now} points now; average margin {value} points over {n} simulated finishes",
  measureExpected: "Values are the points each move is expected to be worth by the end of the round.",
  measureMargin: "Values are each move's average round margin (your score less the best other player's) over simulated finishes.",

  // pace and sound
  pace: "Computer moves",
  paceInstant: "instant",
  paceNormal: "normal",
  paceSlow: "slow",
  sound: "Sound",

  // round result and game over
  roundResult: "Round {round} result ({cards} cards)",
  nextRound: "Next round",
  nextRoundIn: "Next round (in {n} s)",
  seeTable: "Back to the table",
  leftInHand: "Left in hand",
  wordsHeading: "Words",
  bonusesHeading: "Bonuses",
  roundHeading: "Round",
  totalHeading: "Total",
  noneWords: "no words",
  noneLeft: "nothing left",
  noBonus: "no bonus",
  longestBonus: "longest word {points}",
  mostBonus: "most words {points}",
  // why the bonuses went where they did
  noBonusHere: "No {bonus} bonus at this table.",
  bonusWonLongest: "Longest-word bonus {points}: {name}, for “{word}” ({letters}).",
  bonusWonMost: "Most-words bonus {points}: {name}, for {words}.",
  bonusNobody: "{bonus} bonus: nobody laid down a word, so nobody gets it.",
  bonusNobodyOut: "{bonus} bonus: nobody who went out laid down a word, so nobody gets it.",
  bonusTiedLongest: "Longest-word bonus: {names} tied at {letters}, so nobody gets it.",
  bonusTiedMost: "Most-words bonus: {names} tied at {words}, so nobody gets it.",
  longestName: "longest-word",
  mostName: "most-words",
  LongestName: "Longest-word",
  MostName: "Most-words",
  letters: { one: "{n} letter", other: "{n} letters" },
  bonusOnlyOut: "At this table only a player who laid down every card may win a bonus.",
  belowZero: "Totals may go below zero at this table.",
  floorHit: "{name}: {before} {sign} {amount} would be {raw}; a total never goes below zero (the zero floor), so it is 0.",
  floorRule: "Zero floor: a total never goes below zero (a round that would take it lower leaves it at 0).",
  howOut: "{name} went out; everyone else had a final turn.",
  howOutYou: "You went out; everyone else had a final turn.",
  howLimit: "Nobody went out: the round ended at the turn limit, and every player laid down the best words their hand allowed.",
  scoring: "A round scores the points of your words, minus the points of the cards left in your hand, plus any bonus.",
  roundScore: "round {score}",
  totalScore: "total {total}",
  sheetCaption: "Score sheet: each round's score and the total after it",
  sheetRound: "{round} ({cards})",
  sheetCell: "{score} → {total}",
  youWin: "You win with {points}.",
  theyWin: "{name} wins with {points}.",
  tie: "{names} share the win with {points}.",
  tieWithYou: "You and {names} share the win with {points}.",
  listTwo: "{a} and {b}",
  scoreSheet: "Score sheet",
  download: "Download the game record",
  rematch: "Rematch",
  rematchAsked: "{name} asks for a rematch: same seats and rules, a new deal.",
  rematchJoin: "Join the rematch",
  rematchRefused: "The rematch could not start: {why}",
  playAnother: "Play another game",
  recordNote: "The record holds the game's seed, every deal and every move (the engine's JSON game record).",
};

let catalog = EN;
let locale = "en";
let plurals = new Intl.PluralRules(locale);
let numbers = new Intl.NumberFormat(locale);

/** Use another language's catalog (same keys) for `tag`; missing keys fall back to English. */
export function useCatalog(messages, tag) {
  catalog = { ...EN, ...messages };
  locale = tag;
  plurals = new Intl.PluralRules(tag);
  numbers = new Intl.NumberFormat(tag);
}

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => {
    const value = params[name];
    if (value === undefined || value === null) return whole;
    return typeof value === "number" ? numbers.format(value) : String(value);
  });
}

/**
 * t("theyDrew", {name: "Bo"}) -> "Bo drew from the pile."; a plural key
 * takes its count as `n`: t("cards", {n: 1}) -> "1 card".
 */
export function t(key, params = {}) {
  const entry = catalog[key] ?? EN[key];
  if (entry === undefined) return key;
  const text = typeof entry === "string" ? entry : entry[plurals.select(params.n ?? 0)] ?? entry.other;
  return fill(text, params);
}

/** A list read as one phrase: "cat", "cat and dog", "cat, dog and ax" (Intl.ListFormat). */
export function list(items) {
  return new Intl.ListFormat(locale, { style: "long", type: "conjunction" }).format(items.map(String));
}
