"""One game between a person and computer players: the loop over the engine.

:class:`Session` owns the one mutable :class:`~quiddler.game.Game` and
drives it to the end: a computer seat is asked for its action, the person's
seat is asked at a prompt, and every action goes through ``Game.apply``, so
the engine alone decides what is legal.  Input is parsed by
:mod:`~quiddler.play.commands`, typed words matched to cards by
:mod:`~quiddler.play.spelling`, everything shown is built by
:mod:`~quiddler.play.render` and printed by a :class:`~quiddler.play.screen.Screen`.

Nothing is lost: bad input is explained and asked again; with a save file
the game is written after each of the person's turns and whenever the
session stops (quit, end of input, Ctrl-C).
"""

from __future__ import annotations

import random
import signal
from collections.abc import Sequence
from pathlib import Path

from rich.console import RenderableType

from ..cards import Card
from ..errors import IllegalActionError, shown
from ..game.engine import Game
from ..game.hints import hint
from ..game.plans import next_action
from ..game.players import Player, make_player
from ..game.state import Action, Discard, Draw, GoOut, LayDown, Outcome, Phase, PlayerView
from . import render
from .commands import (
    Auto,
    DiscardCard,
    DrawCard,
    GoOutWith,
    Help,
    HintRequest,
    InputProblem,
    LayDownWords,
    Prompt,
    Quit,
    Score,
    Table,
    parse,
)
from .saves import HUMAN, SaveError, check_save_target, save_game
from .screen import Screen
from .spelling import Match, Mode, WordProblem, distinct_choices, match_words

__all__ = ["COMPUTER_NAMES", "EXIT_INTERRUPTED", "Session", "StopSignal", "decision_seed"]

#: Display names of the computer seats, in seat order after the person.
COMPUTER_NAMES = ("Ada", "Bram", "Cleo", "Dev", "Esme", "Finn", "Gus")
#: Exit status after Ctrl-C (128 + SIGINT), as shells expect.
EXIT_INTERRUPTED = 130
_DEFAULT_SAVE = "quiddler-game.json"
#: The player whose moves are the hints' recommended moves (``hint()`` is the expert explaining itself).
ADVISER = "expert"


_PROMPTS: dict[Prompt, str] = {
    "draw": "Draw: pile or discard",
    "end": "Discard a card, or go out (go WORD...)",
    "final": "Final turn: WORD... discard CARD",
}


class StopSignal(BaseException):
    """A signal asking the game to stop (SIGTERM, SIGHUP), raised where the
    game is as Ctrl-C raises KeyboardInterrupt: the session stops as at
    Ctrl-C, saving the game when a file was named, and whoever holds the
    save file's lock lets it go.  (A BaseException, like KeyboardInterrupt,
    so that no ``except Exception`` on the way swallows it.)"""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum

    @property
    def status(self) -> int:
        """The exit status: 128 + the signal, as a shell reports a process a signal ended."""
        return 128 + self.signum

    @property
    def name(self) -> str:
        return signal.Signals(self.signum).name


class _Stop(Exception):
    """Ends the session with an exit status (quit, end of input, Ctrl-C)."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class _Cancel(Exception):
    """The person backed out of a follow-up question: ask for the move again."""


class _AutoMove(Exception):
    """``auto`` typed at a follow-up question: play the recommended move instead."""

    def __init__(self, whole_round: bool) -> None:
        super().__init__(whole_round)
        self.whole_round = whole_round


#: The longest file name the save question takes (longer is explained and asked again).
_MAX_NAME = 1024


def decision_seed(game_seed: int, seat: int, view: PlayerView) -> int:
    """The seed of one computer decision: fixed by the game seed, the seat
    and where in the game the decision falls (round, the seat's turn, the
    phase), so a resumed game's opponents decide exactly as they would have."""
    key = f"{game_seed}:{seat}:{view.round}:{view.turns_taken}:{view.phase.value}"
    return random.Random(key).getrandbits(63)


class _Opponent:
    """A computer seat.  Each decision is made by the named player,
    freshly seeded by :func:`decision_seed`: no state is carried between
    decisions, so a game resumed from its record continues exactly."""

    def __init__(self, name: str, game_seed: int) -> None:
        make_player(name)  # an unknown player name fails now, not mid-game
        self.name = name
        self._game_seed = game_seed

    def _player(self, view: PlayerView) -> Player:
        return make_player(self.name, decision_seed(self._game_seed, view.seat, view))

    def choose_draw(self, view: PlayerView) -> Draw:
        return self._player(view).choose_draw(view)

    def choose_end(self, view: PlayerView) -> Discard | GoOut:
        return self._player(view).choose_end(view)

    def choose_lay_down(self, view: PlayerView) -> LayDown:
        return self._player(view).choose_lay_down(view)


class Session:
    """A game in progress between the person (the seat labelled ``"human"``)
    and computer players (the other seats, labelled with their player names)."""

    def __init__(self, game: Game, labels: Sequence[str], screen: Screen, save_path: Path | None = None) -> None:
        if len(labels) != game.players or list(labels).count(HUMAN) != 1:
            raise ValueError("label exactly one seat 'human' and every other seat with a player name")
        self.game = game
        self.labels = tuple(labels)
        self.human = self.labels.index(HUMAN)
        self.screen = screen
        self.save_path = save_path
        names = iter(COMPUTER_NAMES)
        self.names = tuple("You" if label == HUMAN else next(names) for label in self.labels)
        #: Who decides for each seat: the computer players, and for the person's `auto` the expert,
        #: whose move is by construction the hint's recommended one.
        self.players: tuple[Player, ...] = tuple(
            make_player(ADVISER) if label == HUMAN else _Opponent(label, game.seed) for label in self.labels
        )
        self._fresh = True  # nothing shown yet: the first prompt shows the table whatever the phase
        self._announced_round = -1
        self._auto_round: int | None = None  # `auto round`: the round to play automatically

    # -- the loop -------------------------------------------------------------

    def run(self) -> int:
        """Play to the end of the game (or until the person stops); the exit status."""
        try:
            self._introduce()
            while not self.game.over:
                self._announce_round()
                if self.game.turn == self.human:
                    self._human_move()
                else:
                    self._computer_move()
            self.screen.blank()
            self.screen.show(render.game_over(self.game.history, self.names, self.human, self.game.totals))
            self._autosave()
            return 0
        except _Stop as stop:
            return stop.status
        except KeyboardInterrupt:
            self.screen.blank()
            return self._stop_now("Interrupted", EXIT_INTERRUPTED)
        except StopSignal as stop:  # (no blank line first: after SIGHUP the terminal may be gone, the save comes first)
            return self._stop_now(f"Stopped by {stop.name}", stop.status)
        except EOFError:
            return self._stop_now("End of input", 0)

    def _introduce(self) -> None:
        game, s = self.game, self.screen
        rivals = ", ".join(f"{self.names[seat]} ({label})" for seat, label in enumerate(self.labels)
                           if seat != self.human)
        sizes = game.rules.round_sizes
        rounds = f"{len(sizes)} round{'s' if len(sizes) > 1 else ''} of {_sizes_text(sizes)} cards"
        s.say(f"Quiddler: you against {rivals}. {rounds}. Game seed {game.seed}.", "bold")
        resumed = bool(game.history or game.log[-1]["actions"])
        if resumed:
            s.say(f"Resuming at round {game.round + 1}: totals " + ", ".join(
                f"{name} {total}" for name, total in zip(self.names, game.totals)) + ".")  # fmt: skip
        if game.over:
            s.say("This game is already over: its score sheet follows.")
        elif self.save_path is not None:
            s.say(f"The game is saved to {self.save_path} after each of your turns.")
        s.say("Type help at any prompt for the commands.")
        events = game.view(self.human).log if resumed and not game.over else ()
        if events:
            s.blank()
            s.say(f"Round {game.round + 1} so far:", "bold")
            for event in events:
                outcome = Outcome(event.action, drawn=event.taken, reshuffled=event.reshuffled)
                s.show(render.action_line(event.action, outcome, self.names, self.human))

    def _announce_round(self) -> None:
        if self._announced_round == self.game.round:
            return
        self._announced_round = self.game.round
        if self.game.log[-1]["actions"]:
            return  # resumed mid-round: the table shown on the person's turn says where we are
        self.screen.blank()
        self.screen.show(render.round_start(self.game.view(self.human), self.names, self.human))

    def _apply(self, action: Action) -> None:
        """Apply a legal action and show what it did (and the round's end)."""
        game = self.game
        before = game.totals
        outcome = game.apply(action)
        kept: tuple[Card, ...] = ()  # a final turn's cards left in hand (they count against the player)
        if isinstance(action, LayDown):
            result = outcome.round_result
            kept = result.scores[action.player].unused if result is not None else game.hand(action.player)
        self.screen.show(render.action_line(action, outcome, self.names, self.human, kept))
        if action.player == self.human and isinstance(action, Draw):
            self.screen.show(render.hand_grid(game.hand(self.human)))
        if outcome.round_result is not None:
            self.screen.blank()
            self.screen.show(render.round_summary(outcome.round_result, self.names, self.human, before))

    def _computer_moves_per_table(self) -> int:
        """Computer moves between two of the person's prompts (a draw and an end per computer seat)."""
        return 2 * (self.game.players - 1)

    def _computer_move(self) -> None:
        seat = self.game.turn
        with self.screen.working(f"{self.names[seat]} is thinking..."):
            self.screen.pause(self._computer_moves_per_table())
            action = next_action(self.game, self.players)
        self._apply(action)

    # -- the person's turn ------------------------------------------------------

    def _human_move(self) -> None:
        game = self.game
        view = game.view(self.human)
        prompt: Prompt = "draw" if game.phase is Phase.DRAW else ("final" if game.final_turn else "end")
        if prompt == "draw" or self._fresh:
            self._fresh = False
            self.screen.forget_typeahead()
            self.screen.blank()
            self.screen.show(render.turn_table(view, self.names))
        if self._auto_round == game.round:
            if prompt == "draw":
                self.screen.new_table()  # each of the person's automatic turns starts a new table's pace
            self.screen.pause(self._computer_moves_per_table() + 2)
            self._apply(next_action(game, self.players))
            return
        self._auto_round = None
        while True:
            action = self._read_action(prompt, view)
            if action is not None:
                break
        self._apply(action)
        if prompt != "draw":
            self._autosave()

    def _read_action(self, prompt: Prompt, view: PlayerView) -> Action | None:
        """One line from the person: an action to apply, or None after a
        command that is not a move (help, hint...) or a mistake, explained."""
        line = self.screen.ask(_PROMPTS[prompt])
        try:
            command = parse(line, prompt)
            match command:
                case Help():
                    self.screen.show(render.help_text(prompt))
                case Score() | Table() | HintRequest():
                    self._show(command, view)
                case Quit():
                    self._quit()
                case Auto(round=whole_round):
                    return self._auto(whole_round)
                case DrawCard(source=source):
                    return self._checked(Draw(self.human, source))
                case DiscardCard(card=card):
                    self._check_held(card, view.hand)
                    return self._checked(Discard(self.human, card))
                case GoOutWith(words=words, discard=discard, command_word=command_word):
                    if not view.may_go_out:
                        raise InputProblem("no going out on your first turn of this round (house rule): "
                                           "discard a card")  # fmt: skip
                    match = self._choose(self._matches(words, discard, command_word, view, "go-out"))
                    assert match.discard is not None
                    return self._checked(GoOut(self.human, match.words, match.discard))
                case LayDownWords(words=words, discard=discard, command_word=command_word):
                    match = self._choose(self._matches(words, discard, command_word, view, "lay-down"))
                    card = match.discard if match.discard is not None else self._ask_discard(match)
                    return self._checked(LayDown(self.human, match.words, card))
        except (InputProblem, WordProblem) as problem:
            self.screen.problem(str(problem))
        except _Cancel:
            self.screen.say("Cancelled.")
        except _AutoMove as auto:
            return self._auto(auto.whole_round)
        return None

    def _auto(self, whole_round: bool) -> Action:
        """``auto``: the recommended move (``auto round``: and every move to the round's end)."""
        if whole_round:
            self._auto_round = self.game.round
        with self.screen.working("Working out the best move..."):
            return next_action(self.game, self.players)

    def _show(self, command: Score | Table | HintRequest, view: PlayerView) -> None:
        """The commands that show something and leave the prompt where it was."""
        match command:
            case Score():
                self.screen.show(render.score_sheet(self.game.history, self.names, self.human,
                                                    self.game.totals))  # fmt: skip
            case Table():
                self.screen.show(render.turn_table(view, self.names))
            case HintRequest(all=everything):
                with self.screen.working("Working out the hint..."):
                    advice = hint(view)
                self.screen.show(render.hint_panel(advice, shown=len(advice.options) if everything else 5))

    def _ask(self, question: str, help_text: str, *, quitting: bool = False, keep_case: bool = False) -> str:
        """The answer to a follow-up question (stripped; lower case unless ``keep_case``).  The
        commands of every prompt work here too: help, hint, score and table
        show and ask again, auto plays the recommended move, quit stops
        (offering to save); while quitting already, quit asks again."""
        while True:
            answer = self.screen.ask(question).strip()
            try:
                command = parse(answer, "draw")
            except InputProblem:
                return answer if keep_case else answer.lower()  # not a command: the question's own answer
            view = self.game.view(self.human)
            match command:
                case Help():
                    self.screen.show(render.follow_up_help(help_text))
                case Score() | Table() | HintRequest():
                    self._show(command, view)
                case Auto(round=whole_round):
                    raise _AutoMove(whole_round)
                case Quit() if quitting:
                    self.screen.problem(f"you are quitting already: {help_text}")
                case Quit():
                    self._quit()
                case _:
                    return answer if keep_case else answer.lower()  # a move's word (pile, discard...): the question's own answer

    def _checked(self, action: Action) -> Action:
        """The action if the engine takes it; otherwise the engine's reason, as an input problem."""
        try:
            self.game.legal(action)
        except IllegalActionError as exc:
            raise InputProblem(str(exc)) from None
        return action

    @staticmethod
    def _check_held(card: Card, hand: Sequence[Card]) -> None:
        if card not in hand:
            raise InputProblem(f"you hold no {card}: your cards are {', '.join(c.face for c in hand)}")

    def _matches(self, words: tuple[str, ...], discard: Card | None, command_word: str | None,
                 view: PlayerView, mode: Mode) -> list[Match]:  # fmt: skip
        """The ways the hand lays down the typed words.  When the first word
        typed was taken as a command but is a word too (``out``), both
        readings are tried on the hand: the one that fits is taken and said
        so, and when both fit the person is asked which was meant."""

        def ways(texts: tuple[str, ...]) -> list[Match]:
            if not texts and discard is None:
                raise InputProblem("discard which card? for example: discard x (or: WORD... discard x)")
            return match_words(texts, view.hand, view.rules.words, discard=discard, mode=mode)

        if command_word is None:
            return ways(words)
        as_word = (command_word, *words)
        found: dict[tuple[str, ...], list[Match]] = {}
        problems: dict[tuple[str, ...], InputProblem | WordProblem] = {}
        for texts in (as_word, words):
            try:
                found[texts] = ways(texts)
            except (InputProblem, WordProblem) as problem:
                problems[texts] = problem
        if len(found) == 2:
            options = [render.reading(mode, as_word, discard), render.reading(mode, words, discard)]
            heading = f"{command_word} is a command and a word: which did you mean?"
            return found[(as_word, words)[self._pick(render.numbered(heading, options), len(options))]]
        if found:
            texts = next(iter(found))
            meant = "a word" if texts == as_word else "the command"
            self.screen.say(f"Taking {command_word} as {meant}: {render.reading(mode, texts, discard).plain}.")
            return found[texts]
        if words:
            raise problems[words]
        raise WordProblem(f"{problems[as_word]} (to lay nothing down: discard CARD)")

    def _choose(self, matches: list[Match]) -> Match:
        """The one way to lay the words down, asking when the ways differ."""
        if not distinct_choices(matches):
            return matches[0]
        return matches[self._pick(render.choices(matches), len(matches))]

    def _pick(self, options: RenderableType, count: int) -> int:
        """Show ``count`` numbered options and ask for one; its index."""
        self.screen.show(options)
        expected = f"type a number from 1 to {count}, or cancel"
        while True:
            answer = self._ask(f"Which one (1-{count}, or cancel)", expected)
            if answer in ("cancel", "c", "back"):
                raise _Cancel
            number = _number(answer)
            if number is not None and 1 <= number <= count:
                return number - 1
            self.screen.problem(f"{shown(answer)}: {expected}" if answer else expected)

    def _ask_discard(self, match: Match) -> Card:
        """A final turn whose words leave several cards: which one to discard."""
        left = match.left
        faces = ", ".join(c.face for c in left)
        expected = f"type one of {faces}, or cancel"
        while True:
            answer = self._ask(f"Discard which card ({faces}; the others count against you)", expected)
            if answer in ("cancel", "back"):
                raise _Cancel
            if answer.startswith("discard "):
                answer = answer.removeprefix("discard ").strip()
            chosen = next((c for c in left if c.face == answer), None)
            if chosen is not None:
                return chosen
            self.screen.problem(f"{shown(answer)}: {expected}" if answer else expected)

    # -- stopping and saving ------------------------------------------------------

    def _save(self) -> None:
        if self.save_path is not None:
            save_game(self.save_path, self.game, self.labels)

    def _autosave(self) -> None:
        """Save as the game goes; a failure is said and the game goes on
        (the person can still ``quit`` and save elsewhere)."""
        try:
            self._save()
        except SaveError as exc:
            self.screen.problem(f"{exc} (the game goes on; quit offers to save elsewhere)")

    def _stop_now(self, why: str, status: int) -> int:
        """End of input or Ctrl-C at any point: save if a file was named, say so, stop."""
        if self.save_path is not None:
            try:
                self._save()
            except SaveError as exc:
                self.screen.problem(f"{why}: {exc}")
                return status
            self.screen.say(f"{why}: game saved to {self.save_path}. "
                            f"Continue it with: quiddler play --resume {self.save_path}")  # fmt: skip
        else:
            self.screen.say(f"{why}: the game stops here, not saved (use --save FILE to keep games).")
        return status

    def _quit(self) -> None:
        """``quit``: save (asking where when no file was named) and stop."""
        if self.save_path is not None:
            try:
                self._save()
            except SaveError as exc:
                self.screen.problem(str(exc))  # ask where else, below
            else:
                self.screen.say(f"Game saved to {self.save_path}. "
                                f"Continue it with: quiddler play --resume {self.save_path}")  # fmt: skip
                raise _Stop(0)
        while True:
            answer = self._ask("Save the game before you quit? (yes, no, or cancel)",
                               "type yes to save first, no to quit without saving, or cancel to play on",
                               quitting=True)  # fmt: skip
            if answer in ("n", "no"):
                self.screen.say("Game not saved. Bye.")
                raise _Stop(0)
            if answer in ("c", "cancel", "back"):
                raise _Cancel
            if answer in ("y", "yes"):
                break
            self.screen.problem(f"{shown(answer)}: type yes, no or cancel" if answer else "type yes, no or cancel")
        expected = (f"type a file name (Enter: {_DEFAULT_SAVE}; ./NAME for a file named like a command), "
                    "or cancel to play on")  # fmt: skip
        while True:
            name = self._ask(f"Save to which file (Enter: {_DEFAULT_SAVE})", expected, quitting=True,
                             keep_case=True) or _DEFAULT_SAVE  # fmt: skip
            if name.lower() in ("cancel", "back"):
                raise _Cancel
            problem = _file_name_problem(name)
            if problem is not None:
                self.screen.problem(f"{problem}: {expected}")
                continue
            try:
                check_save_target(Path(name))
                save_game(Path(name), self.game, self.labels)
            except (SaveError, OSError, ValueError) as exc:
                why = str(exc) if isinstance(exc, SaveError) else f"{getattr(exc, 'strerror', None) or exc}"
                self.screen.problem(why if isinstance(exc, SaveError) else f"cannot save the game to {shown(name)}: {why}")
                continue
            self.screen.say(f"Game saved to {name}. Continue it with: quiddler play --resume {name}")
            raise _Stop(0)


def _number(answer: str) -> int | None:
    """The number typed (ASCII digits only: ``²`` or ``٣`` are digits to
    ``str.isdigit`` but not numbers a person means here), else None."""
    if answer.isascii() and answer.isdigit() and len(answer) < 10:
        return int(answer)
    return None


def _file_name_problem(name: str) -> str | None:
    """Why a typed file name cannot name a file, or None."""
    if "\x00" in name:
        return "a file name cannot hold a NUL character"
    if len(name) > _MAX_NAME:
        return f"a file name of {len(name):,} characters is too long"
    if any(not ch.isprintable() for ch in name):
        return f"{shown(name)} holds a control character"
    return None


def _sizes_text(sizes: Sequence[int]) -> str:
    if len(sizes) > 1 and list(sizes) == list(range(sizes[0], sizes[-1] + 1)):
        return f"{sizes[0]} to {sizes[-1]}"
    return ", ".join(map(str, sizes))

