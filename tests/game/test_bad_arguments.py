"""Bad arguments to the game API: every one is a QuiddlerError that is also
the builtin it resembles (TypeError for a wrong kind of value, ValueError
for a wrong value), with a message naming the argument, never an
AttributeError from deep inside; and a malformed action is refused before
it can reach a record."""

from __future__ import annotations

import pytest

import quiddler
from quiddler import Card, IllegalActionError, QuiddlerError
from quiddler.errors import ArgumentTypeError, InvalidArgumentError
from quiddler.game import (
    Discard,
    Draw,
    Game,
    GoOut,
    LayDown,
    MalformedActionError,
    Rules,
    WrongPhaseError,
    WrongPlayerError,
    hint,
    make_player,
    play_game,
    simulate,
)
from quiddler.game.record import game_record, replay


@pytest.mark.parametrize("players", [1, 9, 0, -3])
def test_a_game_of_too_few_or_too_many_players_is_a_value_error(players: int) -> None:
    with pytest.raises(InvalidArgumentError, match=f"2 to 8 players, not {players}") as caught:
        Game(players)
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, QuiddlerError)


@pytest.mark.parametrize("players", ["2", True, 2.0, None])
def test_players_that_are_not_an_integer_are_a_type_error(players: object) -> None:
    with pytest.raises(ArgumentTypeError, match="players must be an integer") as caught:
        Game(players)  # type: ignore[arg-type]
    assert isinstance(caught.value, TypeError)


def test_seed_and_rules_of_the_wrong_kind_are_quiddler_type_errors() -> None:
    with pytest.raises(ArgumentTypeError, match="seed must be an integer"):
        Game(2, seed="x")  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError, match="rules must be a Rules"):
        Game(2, rules=3)  # type: ignore[arg-type]


@pytest.mark.parametrize("view", [None, "a,b", 3])
def test_hint_of_something_that_is_not_a_view_names_the_argument(view: object) -> None:
    with pytest.raises(ArgumentTypeError, match="view must be a PlayerView") as caught:
        hint(view)  # type: ignore[arg-type]
    assert isinstance(caught.value, TypeError)


def test_hint_of_a_game_instead_of_its_view_says_what_to_pass() -> None:
    with pytest.raises(ArgumentTypeError, match=r"game\.view\(seat\)"):
        hint(Game(2, seed=1))  # type: ignore[arg-type]


def test_hint_out_of_turn_is_a_wrong_player_error_naming_who_is_to_move() -> None:
    game = Game(2, seed=7)
    with pytest.raises(WrongPlayerError, match=r"not seat 0's move \(seat 1 is to move\)") as caught:
        hint(game.view(0))
    assert isinstance(caught.value, ValueError)


def test_hint_after_the_game_is_over_is_a_wrong_phase_error() -> None:
    game = play_game([make_player("greedy"), make_player("greedy")], seed=3,
                     rules=Rules(round_sizes=(3,)))  # fmt: skip
    with pytest.raises(WrongPhaseError, match="game is over"):
        hint(game.view(0))


def test_play_game_of_player_names_says_to_make_players() -> None:
    with pytest.raises(ArgumentTypeError, match=r"players\[0\] must be a Player \(make_player\('greedy'\)") as caught:
        play_game(["greedy", "random"])  # type: ignore[list-item]
    assert isinstance(caught.value, TypeError)
    with pytest.raises(ArgumentTypeError, match="players must be a sequence of players"):
        play_game("greedy,random")  # type: ignore[arg-type]


def test_simulate_checks_the_kind_of_its_arguments() -> None:
    with pytest.raises(ArgumentTypeError, match="names must be a sequence of player names"):
        simulate("greedy,random", 2)  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError, match="games must be an integer"):
        simulate(["greedy", "random"], 2.5)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="at least 1, not 0"):
        simulate(["greedy", "random"], 0)
    with pytest.raises(InvalidArgumentError, match="workers must be 'auto' or at least 1, not True"):
        simulate(["greedy", "random"], 2, workers=True)


def test_an_unknown_draw_source_is_a_malformed_action_not_a_wrong_phase() -> None:
    game = Game(2, seed=7)
    before = game._snapshot()
    with pytest.raises(MalformedActionError, match=r"unknown draw source: 'deck' \(expected 'pile' or 'discard'\)") as caught:
        game.apply(Draw(1, "deck"))  # type: ignore[arg-type]
    assert not isinstance(caught.value, WrongPhaseError)
    assert isinstance(caught.value, IllegalActionError) and isinstance(caught.value, TypeError)
    assert not game.is_legal(Draw(1, "deck"))  # type: ignore[arg-type]
    assert game._snapshot() == before


@pytest.mark.parametrize("seat", [True, 1.0, "1", None])
def test_a_seat_that_is_not_an_int_is_refused_and_the_record_stays_replayable(seat: object) -> None:
    game = Game(2, seed=7)
    before = game._snapshot()
    with pytest.raises(MalformedActionError, match="player is a seat number, an integer"):
        game.apply(Draw(seat))  # type: ignore[arg-type]
    assert game._snapshot() == before
    game.apply(Draw(1))
    game.apply(Discard(1, game.hand(1)[0]))
    assert replay(game_record(game)).log == game.log


def test_views_and_hands_take_only_seats() -> None:
    game = Game(3, seed=1)
    for call in (game.view, game.hand, game.laid_down, game.turns_taken):
        with pytest.raises(InvalidArgumentError, match="no seat 3 in a game of 3"):
            call(3)
        with pytest.raises(ArgumentTypeError, match="a seat is an integer, not True"):
            call(True)


def test_going_out_with_a_string_for_a_word_says_a_word_was_expected() -> None:
    game = Game(2, seed=7)
    game.apply(Draw(1))
    card = game.hand(1)[0]
    with pytest.raises(MalformedActionError, match=r"words\[0\] must be a Word .*not 'run'"):
        game.apply(GoOut(1, ["run"], card))  # type: ignore[list-item]
    with pytest.raises(MalformedActionError, match="the discard must be a Card"):
        game.apply(Discard(1, "e"))  # type: ignore[arg-type]
    with pytest.raises(MalformedActionError, match="not an action"):
        game.apply("draw")  # type: ignore[arg-type]
    assert not game.is_legal(LayDown(1, ("run",), card))  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["Expert", "GREEDY", " random ", "Random-Eager", "Hard"])
def test_make_player_takes_names_in_any_case_as_the_command_line_does(name: str) -> None:
    assert make_player(name).name == name.strip().lower()


def test_a_players_repr_says_which_player_it_is() -> None:
    assert repr(make_player("expert")) == "<AIPlayer 'expert'>"
    assert repr(make_player("greedy")) == "<GreedyPlayer 'greedy'>"
    assert repr(make_player("random-eager")) == "<RandomPlayer 'random-eager'>"


def test_make_player_of_a_non_string_is_a_type_error() -> None:
    with pytest.raises(ArgumentTypeError, match="a player name is a string, not 3"):
        make_player(3)  # type: ignore[arg-type]


def test_dir_of_the_package_lists_no_typing_helpers() -> None:
    assert "Any" not in dir(quiddler)


def test_the_error_classes_are_exported_and_subclass_the_builtins() -> None:
    assert issubclass(InvalidArgumentError, ValueError) and issubclass(InvalidArgumentError, QuiddlerError)
    assert issubclass(ArgumentTypeError, TypeError) and issubclass(ArgumentTypeError, QuiddlerError)
    assert issubclass(MalformedActionError, IllegalActionError)
    assert Card("e")  # a real card still makes a legal discard: only malformed ones are refused
