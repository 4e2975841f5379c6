"""Write the golden game records that tests/game/test_golden_records.py replays.

Run from the repository root:  python tests/data/golden/make_records.py DIR
(DIR is e.g. tests/data/golden/v1).  Each game is played by the code of the
working tree and written as DIR/NAME.json; the files are committed, so that
every later version of the engine must still replay what an earlier version
wrote.  Do not regenerate a committed folder: add a new one for a new format.

The games cover several seeds, 2 to 8 players, every rule variant, a custom
word list, an unfinished game, reshuffled draw piles (8 players dealt 13-14
cards leave a pile of a few cards) and, in formats that have it, a round
ended by the turn limit.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from quiddler.game import Game, Rules, make_player
from quiddler.game.record import game_record
from quiddler.game.runner import next_action
from quiddler.wordlist import load_wordlist

HERE = Path(__file__).resolve().parent
SHORT_WORDS = "short-words.txt"  # the ENABLE words of 2-4 letters
TINY_WORDS = "quit-queen.txt"  # nobody can ever go out: every round meets the turn limit


@dataclass(frozen=True)
class Spec:
    name: str
    players: tuple[str, ...]
    seed: int
    rules: dict[str, Any] = field(default_factory=dict)
    wordlist: str | None = None  # a file in this folder, None: ENABLE
    stop_after: int | None = None  # actions, for an unfinished game
    expect_reshuffle: bool = False
    expect_empty_pile: bool = False  # with reshuffle_discards off: someone had to take the discard
    needs: str | None = None  # a Rules field this game needs (skipped where it is missing)


SPECS = (
    Spec("two-greedy-random", ("greedy", "random"), 1),
    Spec("three-mixed", ("random", "random-eager", "greedy"), 2),
    Spec("four-first-turn-rule-no-floor", ("greedy", "random", "greedy", "random"), 3,
         {"no_going_out_first_turn": True, "first_turn_rule_rounds": 4, "floor_at_zero": False}),
    Spec("two-one-bonus-most", ("random-eager", "greedy"), 4,
         {"two_player_bonuses": "most", "most_words_bonus": 15}),
    Spec("two-one-bonus-longest", ("greedy", "random-eager"), 5,
         {"two_player_bonuses": "longest"}),
    Spec("five-old-pile-bonus-needs-out", ("random-eager", "random", "greedy", "random", "random-eager"), 6,
         {"fresh_deck_each_round": False, "bonus_requires_going_out": True}),
    Spec("six-up-and-down-no-bonuses", ("random",) * 6, 7,
         {"round_sizes": [3, 4, 5, 4, 3], "longest_word_bonus": 0, "most_words_bonus": 0}),
    Spec("eight-reshuffle", ("random",) * 8, 8, {"round_sizes": [3, 13, 14]}, expect_reshuffle=True),
    Spec("eight-reshuffle-old-pile", ("random",) * 8, 9,
         {"round_sizes": [14, 13], "fresh_deck_each_round": False}, expect_reshuffle=True),
    Spec("eight-no-reshuffle", ("random",) * 8, 10, {"round_sizes": [14, 12], "reshuffle_discards": False},
         expect_empty_pile=True),
    Spec("two-custom-list", ("greedy", "random-eager"), 11, wordlist=SHORT_WORDS),
    Spec("three-unfinished", ("greedy", "random", "random"), 12, stop_after=40),
    Spec("two-turn-limit", ("greedy", "random"), 13, {"round_sizes": [3, 4], "turn_limit": 5},
         wordlist=TINY_WORDS, needs="turn_limit"),
    Spec("two-turn-limit-words", ("greedy", "random"), 14, {"no_going_out_first_turn": True, "turn_limit": 1},
         needs="turn_limit"),
)


def play(spec: Spec) -> dict[str, Any]:
    wordlist = load_wordlist(HERE / spec.wordlist) if spec.wordlist else None
    if wordlist is not None:
        wordlist.name = spec.wordlist  # a record names the list, not this machine's path
    game = Game(len(spec.players), seed=spec.seed, rules=Rules(**_rules(spec.rules), wordlist=wordlist))
    players = [make_player(name, spec.seed * 10 + seat) for seat, name in enumerate(spec.players)]
    reshuffled = emptied = False
    actions = 0
    while not game.over and (spec.stop_after is None or actions < spec.stop_after):
        emptied |= game.phase.value == "draw" and not game.draw_pile
        reshuffled |= game.apply(next_action(game, players)).reshuffled
        actions += 1
    if spec.expect_reshuffle and not reshuffled:
        raise SystemExit(f"{spec.name}: expected a reshuffle, none happened: pick another seed")
    if spec.expect_empty_pile and not emptied:
        raise SystemExit(f"{spec.name}: expected an empty draw pile, never happened: pick another seed")
    return game_record(game, spec.players)


def _rules(data: dict[str, Any]) -> dict[str, Any]:
    return {k: tuple(v) if isinstance(v, list) else v for k, v in data.items()}


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    known = set(Rules.__dataclass_fields__)
    for spec in SPECS:
        if spec.needs is not None and spec.needs not in known:
            print(f"skip {spec.name}: no Rules.{spec.needs} in this version")
            continue
        record = play(spec)
        (out / f"{spec.name}.json").write_text(json.dumps(record, separators=(",", ":")) + "\n")
        print(f"{spec.name}: {len(record['rounds'])} rounds, scores {record['final_scores']}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
