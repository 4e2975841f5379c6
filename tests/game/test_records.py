"""Game records: every field is checked on replay (tampering anywhere is
caught), malformed records raise GameRecordError, the word list is named by
the SHA-256 of its words, reshuffles and turn-limit rounds are recorded,
and format-1 records replay."""

from __future__ import annotations

import copy
import hashlib
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from quiddler import WordList, default_wordlist
from quiddler.game import Discard, Draw, Game, GameRecordError, Phase, Rules, make_player, play_game
from quiddler.game.listhash import legacy_wordlist_keys, wordlist_sha256
from quiddler.game.record import FORMAT, FORMATS, game_record, replay
from quiddler.game.runner import next_action
from quiddler.wordlist import load_wordlist

GOLDEN = Path(__file__).parents[1] / "data" / "golden"


def small_game() -> dict[str, Any]:
    """Two rounds of 2 players: in round 1 everyone draws from the pile and
    discards until a reshuffle, then goes out when it can; round 2 ends at
    the turn limit."""
    rules = Rules(round_sizes=(3, 4), turn_limit=60)
    game = Game(2, seed=5, rules=rules)
    eager, final = make_player("random-eager", 1), make_player("greedy")
    while not game.over:
        seat, view = game.turn, game.view(game.turn)
        if game.phase is Phase.DRAW:
            game.apply(Draw(seat))
        elif game.final_turn:
            game.apply(final.choose_lay_down(view))
        elif game.round == 0 and game.turns_taken(seat) > 57 and view.may_go_out:
            game.apply(eager.choose_end(view))
        else:
            game.apply(Discard(seat, game.hand(seat)[-1]))
    record = game_record(game, ["a", "b"])
    assert record["rounds"][0]["reshuffles"] and record["rounds"][0]["result"]["went_out"] is not None
    assert record["rounds"][1]["result"]["turn_limit"]
    return record


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return small_game()


def test_a_record_replays_and_names_its_format_shuffle_and_word_list(record: dict[str, Any]) -> None:
    assert record["format"] == FORMAT == "quiddler-game/2" and FORMATS == ("quiddler-game/1", FORMAT)
    assert record["shuffle"] == "per-round"
    assert record["rules"]["turn_limit"] == 60
    assert record["rules"]["wordlist"] == "ENABLE"
    game = replay(json.dumps(record))
    assert game_record(game, record["players"]) == record


def leaves(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Every (path, value) of a JSON tree, containers included; long lists
    (draw piles, actions) by a dozen items spread over them, the last included."""
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from leaves(item, path + (key,))
    elif isinstance(value, list):
        picks = sorted(set(range(0, len(value), max(1, len(value) // 12))) | {len(value) - 1}) if value else []
        for i in picks:
            yield from leaves(value[i], path + (i,))


def changed(value: Any) -> Any:
    """A different value of the same kind, as a plausible forgery would be."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        swaps = {"e": "a", "pile": "discard", "discard": "pile", "draw": "discard", "per-round": "single-stream"}
        return swaps.get(value, "e" if value != "e" else "a")
    if isinstance(value, list):
        return value[:-1] if value else [0]
    if isinstance(value, dict):
        return {k: v for k, v in list(value.items())[:-1]}
    return 0  # None


def set_at(tree: Any, path: tuple[Any, ...], value: Any) -> Any:
    tree = copy.deepcopy(tree)
    node = tree
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return tree


# Labels, not game data: seat names and the word list's name.
_LABELS = {("players",) + (i,) for i in range(8)} | {("rules", "wordlist")}
# Rules fields that do not change this game's play (checked below): changing
# one gives a different but consistent record.  Every other field counts.
_NO_EFFECT = {("rules", name) for name in ("most_words_bonus", "floor_at_zero", "no_going_out_first_turn",
                                           "first_turn_rule_rounds")}  # fmt: skip


def test_the_rules_fields_left_out_of_the_tampering_test_do_not_matter_to_its_game(record: dict) -> None:
    scores = [s for entry in record["rounds"] for s in entry["result"]["scores"]]
    assert not any(s["most_words_bonus"] for s in scores)  # nobody won it: its value is not seen
    assert all(s["score"] >= 0 for s in scores)  # no total went below zero: the floor is not seen
    for entry in record["rounds"]:  # nobody went out on a first turn: the first-turn rule is not seen
        draws: dict[int, int] = {}
        for action in entry["actions"]:
            if action["type"] == "draw":
                draws[action["player"]] = draws.get(action["player"], 0) + 1
            elif action["type"] == "go_out":
                assert draws[action["player"]] > 1


def test_tampering_with_any_field_of_a_record_is_caught(record: dict[str, Any]) -> None:
    tried = 0
    for path, value in leaves(record):
        if not path or path in _LABELS or path in _NO_EFFECT:
            continue
        bad = set_at(record, path, changed(value))
        with pytest.raises(GameRecordError):
            replay(bad)
        tried += 1
    assert tried > 250


def test_swapping_two_cards_of_a_pile_or_hand_is_caught(record: dict[str, Any]) -> None:
    first = record["rounds"][0]
    for path in (("rounds", 0, "draw_pile"), ("rounds", 0, "reshuffles", 0, "draw_pile"),
                 ("rounds", 1, "draw_pile")):  # fmt: skip
        pile = list(first["draw_pile"] if path[1] == 0 and len(path) == 3 else
                    record["rounds"][path[1]]["draw_pile"] if len(path) == 3 else first["reshuffles"][0]["draw_pile"])  # fmt: skip
        i = next(i for i in range(1, len(pile)) if pile[i] != pile[0])
        pile[0], pile[i] = pile[i], pile[0]
        with pytest.raises(GameRecordError, match="draw_pile"):
            replay(set_at(record, path, pile))
    hands = copy.deepcopy(first["hands"])
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    if hands != first["hands"]:
        with pytest.raises(GameRecordError, match="hands"):
            replay(set_at(record, ("rounds", 0, "hands"), hands))


def test_wrong_winners_finished_or_scores_are_caught(record: dict[str, Any]) -> None:
    for key, value in (("winners", [0, 1]), ("winners", []), ("finished", False), ("final_scores", [0, 0])):
        if record[key] != value:
            with pytest.raises(GameRecordError, match=key):
                replay({**record, key: value})


def test_dropping_the_last_round_while_patching_the_totals_is_caught(record: dict[str, Any]) -> None:
    bad = copy.deepcopy(record)
    dropped = bad["rounds"].pop()
    bad["final_scores"] = dropped["result"]["totals"][:]  # what a forger would patch
    with pytest.raises(GameRecordError, match="rounds"):
        replay(bad)


def test_an_action_moved_into_the_previous_round_is_caught(record: dict[str, Any]) -> None:
    bad = copy.deepcopy(record)
    bad["rounds"][0]["actions"].append(bad["rounds"][1]["actions"].pop(0))
    with pytest.raises(GameRecordError, match="round 1, action .*: the round is already over"):
        replay(bad)
    bad = copy.deepcopy(record)
    bad["rounds"][1]["actions"].insert(0, bad["rounds"][0]["actions"].pop())
    with pytest.raises(GameRecordError):
        replay(bad)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"rounds": {}}, "rounds must be a list"),
        ({"rounds": None}, "rounds must be a list"),
        ({"rules": None}, "rules must be an object"),
        ({"rules": []}, "rules must be an object"),
        ({"players": None}, "players must be a list"),
        ({"players": [1, 2]}, "players must be a list of names"),
        ({"players": ["a", 2]}, "players must be a list of names"),
        ({"players": ["a"]}, "2 to 8 players"),
        ({"seed": "5"}, "seed must be an integer"),
        ({"seed": 5.0}, "seed must be an integer"),
        ({"seed": True}, "seed must be an integer"),
        ({"seed": None}, "seed must be an integer"),
        ({"shuffle": "fresh"}, "unknown shuffle scheme"),
        ({"shuffle": None}, "unknown shuffle scheme"),
        ({"format": "quiddler-game/3"}, "known format"),
        ({"format": None}, "known format"),
    ],
)
def test_malformed_headers_raise_game_record_error(record: dict[str, Any], change: dict[str, Any],
                                                    message: str) -> None:  # fmt: skip
    with pytest.raises(GameRecordError, match=message):
        replay({**record, **change})


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("rounds", 0), None, "round 1: a round must be an object"),
        (("rounds", 0), [], "round 1: a round must be an object"),
        (("rounds", 0, "actions"), None, "round 1: actions must be a list"),
        (("rounds", 0, "actions"), {}, "round 1: actions must be a list"),
        (("rounds", 0, "actions", 0), None, "bad action"),
        (("rounds", 0, "actions", 0), [], "bad action"),
        (("rounds", 0, "actions", 1, "card"), 5, "bad action"),
        (("rounds", 0, "actions", 0, "player"), "x", "bad action"),
        (("rounds", 0, "actions", 0, "player"), 1.0, r"rounds\[0\].actions\[0\].player"),
        (("rules", "round_sizes"), "3,4", "round_sizes must be a list"),
        (("rules", "round_sizes"), [3, "4"], "round_sizes must be an integer"),
        (("rules", "turn_limit"), None, "turn_limit must be an integer"),
        (("rules", "floor_at_zero"), 1, "floor_at_zero must be True or False"),
        (("rules", "wordlist_sha256"), None, "word list"),
    ],
)
def test_malformed_fields_raise_game_record_error(record: dict[str, Any], path: tuple[Any, ...], value: Any,
                                                   message: str) -> None:  # fmt: skip
    with pytest.raises(GameRecordError, match=message):
        replay(set_at(record, path, value))


def test_a_record_may_carry_extra_top_level_notes_but_not_extra_game_fields(record: dict[str, Any]) -> None:
    replay({**record, "note": "played at the club"})
    with pytest.raises(GameRecordError, match=r"rounds\[0\].comment"):
        replay(set_at(record, ("rounds", 0, "comment"), "x"))
    with pytest.raises(GameRecordError, match=r"rules.house_rule"):
        replay(set_at(record, ("rules", "house_rule"), True))


# -- the word list's hash ------------------------------------------------------


def test_the_word_list_hash_is_the_sha256_of_its_sorted_words_one_per_line() -> None:
    words = WordList(["queen", "quit", "at"])
    assert wordlist_sha256(words) == hashlib.sha256(b"at\nqueen\nquit\n").hexdigest()
    enable = (Path(__file__).parents[2] / "quiddler" / "data" / "enable.txt").read_bytes()
    assert wordlist_sha256(default_wordlist()) == hashlib.sha256(enable).hexdigest()
    assert Rules().to_dict()["wordlist_sha256"] == hashlib.sha256(enable).hexdigest()


def test_the_word_list_hash_does_not_depend_on_the_file_format(tmp_path: Path) -> None:
    messy = tmp_path / "messy.txt"
    messy.write_bytes(b"\xef\xbb\xbfQuit\r\n\r\n  queen \nquit\nAT")
    clean = tmp_path / "clean.txt"
    clean.write_text("at\nqueen\nquit\n")
    assert wordlist_sha256(load_wordlist(messy)) == wordlist_sha256(load_wordlist(clean))
    assert wordlist_sha256(load_wordlist(clean)) == hashlib.sha256(clean.read_bytes()).hexdigest()


def test_the_hash_is_not_the_solvers_cache_key(monkeypatch: pytest.MonkeyPatch) -> None:
    words = WordList(["cat", "act"])
    monkeypatch.setattr(WordList, "digest", property(lambda self: "f" * 64))
    assert wordlist_sha256(words) == hashlib.sha256(b"act\ncat\n").hexdigest()
    # the keys format-1 records hold, recomputed from their frozen formula
    text = b"act\ncat"
    assert hashlib.sha256(b"quiddler-cardtrie-2\0" + text).hexdigest() in legacy_wordlist_keys(words)


def test_a_custom_list_is_recorded_by_name_and_hash_and_replay_needs_it(tmp_path: Path) -> None:
    path = tmp_path / "mine.txt"
    path.write_text("\n".join(sorted(w for w in default_wordlist() if len(w) <= 3)) + "\n")
    words = load_wordlist(path)
    game = play_game([make_player("greedy"), make_player("random-eager", 3)], seed=8,
                     rules=Rules(wordlist=words, round_sizes=(3, 4)))  # fmt: skip
    record = game_record(game)
    assert record["rules"]["wordlist"] == str(path)
    assert record["rules"]["wordlist_sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
    with pytest.raises(GameRecordError, match=r"word list .*mine.txt' \(SHA-256 '[0-9a-f]{64}'\), not 'ENABLE'"):
        replay(record)
    record["rules"]["wordlist"] = "/deep" * 40 + "/mine.txt"  # a long path keeps its end, the file's name
    with pytest.raises(GameRecordError, match=r"word list \.\.\.[/a-z]*/mine.txt' \(SHA-256"):
        replay(record)
    copy_path = tmp_path / "same-words-elsewhere.txt"
    copy_path.write_text(path.read_text().upper())
    assert replay(record, load_wordlist(copy_path)).totals == game.totals  # the words count, not the path


# -- format 1 ------------------------------------------------------------------


@pytest.fixture(scope="module")
def old_record() -> dict[str, Any]:
    return json.loads((GOLDEN / "v1" / "eight-reshuffle.json").read_text())


def test_format_1_records_replay_with_the_single_stream_and_the_default_turn_limit(old_record: dict) -> None:
    game = replay(old_record)
    assert game.shuffle == "single-stream" and game.rules.turn_limit == 50
    assert "shuffle" not in old_record and "turn_limit" not in old_record["rules"]


def test_tampering_with_format_1_records_is_caught(old_record: dict[str, Any]) -> None:
    tried = 0
    for path, value in leaves(old_record):
        if not path or path in _LABELS or path[0] == "rules":
            continue
        if len(path) > 2 and path[0] == "rounds" and path[1] != 1:
            continue  # one round is enough here
        with pytest.raises(GameRecordError):
            replay(set_at(old_record, path, changed(value)))
        tried += 1
    assert tried > 100
    for name in ("round_sizes", "most_words_bonus", "fresh_deck_each_round", "reshuffle_discards",
                 "wordlist_sha256", "floor_at_zero", "two_player_bonuses"):  # fmt: skip
        with pytest.raises(GameRecordError):
            replay(set_at(old_record, ("rules", name), changed(old_record["rules"][name])))
    for key, value in (("shuffle", "single-stream"), ("shuffle", "per-round")):
        with pytest.raises(GameRecordError, match="shuffle"):
            replay({**old_record, key: value})  # format 1 has no shuffle field
    bad = copy.deepcopy(old_record)
    bad["rounds"][0]["reshuffles"] = []
    with pytest.raises(GameRecordError, match="reshuffles"):
        replay(bad)
    bad = copy.deepcopy(old_record)
    bad["rules"]["wordlist_sha256"] = wordlist_sha256(default_wordlist())  # the new hash in an old record
    with pytest.raises(GameRecordError, match="word list"):
        replay(bad)


def test_an_old_record_upgraded_by_hand_to_format_2_does_not_replay(old_record: dict[str, Any]) -> None:
    with pytest.raises(GameRecordError):
        replay({**old_record, "format": FORMAT, "shuffle": "single-stream"})


def test_a_game_in_the_old_shuffle_scheme_writes_a_format_2_record_that_replays() -> None:
    game = Game(2, seed=1, shuffle="single-stream")
    old = json.loads((GOLDEN / "v1" / "two-greedy-random.json").read_text())
    assert game.log[0]["hands"] == old["rounds"][0]["hands"]
    players = [make_player("greedy", 10), make_player("random", 11)]
    for _ in range(30):
        game.apply(next_action(game, players))
    record = game_record(game)
    assert record["shuffle"] == "single-stream"
    assert replay(record)._snapshot() == game._snapshot()


def test_game_record_needs_one_name_per_seat_and_labels_seats_by_default() -> None:
    game = Game(3, seed=2)
    with pytest.raises(ValueError, match="2 names for 3 players"):
        game_record(game, ["a", "b"])
    assert game_record(game)["players"] == ["player0", "player1", "player2"]
    assert game_record(game, ("x", "y", "z"))["players"] == ["x", "y", "z"]


def test_a_record_with_more_rounds_than_the_game_is_refused(record: dict[str, Any]) -> None:
    bad = copy.deepcopy(record)
    bad["rounds"].append(copy.deepcopy(bad["rounds"][-1]))
    with pytest.raises(GameRecordError, match="more rounds than the game: round 3"):
        replay(bad)


# -- hostile records: replay() raises GameRecordError and nothing else -----------


def nested(depth: int, inner: Any = 3) -> Any:
    value = inner
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize("path", [("rules", "round_sizes"), ("rules", "round_sizes", 0), ("players",),
                                  ("rounds", 0, "actions"), ("rounds", 0, "hands", 0), ("seed",),
                                  ("rules", "wordlist_sha256"), ("final_scores",)])  # fmt: skip
def test_a_record_nested_thousands_deep_raises_game_record_error(record: dict[str, Any], path: tuple[Any, ...]) -> None:
    with pytest.raises(GameRecordError, match="nest more than 32 levels deep"):
        replay(set_at(record, path, nested(5000)))


def test_a_record_just_as_deep_as_a_record_replays(record: dict[str, Any]) -> None:
    assert replay(record).over  # a record's own nesting is well inside the bound
    assert replay({**record, "notes": nested(20, "deep but harmless")}).over  # extra top-level notes may nest too


@pytest.mark.parametrize("text", ["[" * 100_000, '{"a": ' * 100_000, "[" * 100_000 + "]" * 100_000,
                                  '{"format": "quiddler-game/2", "seed": ' + "9" * 10_000 + "}"])  # fmt: skip
def test_json_text_nested_without_end_or_with_a_huge_number_raises_game_record_error(text: str) -> None:
    with pytest.raises(GameRecordError, match="a game record must be JSON"):
        replay(text)


def test_a_record_that_contains_itself_raises_game_record_error(record: dict[str, Any]) -> None:
    looped = copy.deepcopy(record)
    looped["rules"]["round_sizes"] = [3, 4]
    looped["rules"]["round_sizes"].append(looped["rules"]["round_sizes"])
    with pytest.raises(GameRecordError, match="nest more than"):
        replay(looped)


@pytest.mark.parametrize("value", [["0" * 64], {"sha": "0" * 64}, 0, True])
def test_a_word_list_hash_of_the_wrong_kind_raises_game_record_error(record: dict[str, Any], value: Any) -> None:
    with pytest.raises(GameRecordError, match="word list"):
        replay(set_at(record, ("rules", "wordlist_sha256"), value))


def test_a_huge_bad_value_gives_a_short_message(record: dict[str, Any]) -> None:
    with pytest.raises(GameRecordError) as caught:
        replay(set_at(record, ("rules", "round_sizes"), [0] * 1_000_000))
    assert len(str(caught.value)) < 400


_DAMAGE = [None, -1, 0, 1, 2, 10**30, 1.5, float("nan"), True, False, "", "x", "qu", "pile", [], {}, [1], {"a": 1},
           [[[]]], ["a", "b"], nested(40)]  # fmt: skip


def test_damage_anywhere_raises_game_record_error_and_nothing_else(record: dict[str, Any]) -> None:
    """A few hundred records damaged at random places (values replaced by
    others of any kind, entries dropped), always the same ones: each
    replays or raises GameRecordError, never another exception."""
    rng = random.Random(17)
    places = [path for path, _ in leaves(record) if path]
    refused = 0
    for _ in range(400):
        bad = copy.deepcopy(record)
        for _ in range(rng.choice((1, 1, 2, 3))):
            path = rng.choice(places)
            node = bad
            try:
                for key in path[:-1]:
                    node = node[key]
                if rng.random() < 0.85:
                    node[path[-1]] = copy.deepcopy(rng.choice(_DAMAGE))
                else:
                    del node[path[-1]]
            except (KeyError, IndexError, TypeError):
                continue  # an earlier change took this place away
        try:
            replay(bad)
        except GameRecordError:
            refused += 1
    assert refused > 300
