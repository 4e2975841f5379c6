"""A computer seat's decision in a game it did not set up: the terminal
game, the server and the browser's own engine all decide this way.

Each decision is made by a freshly made player, seeded from the game seed
and where in the game the decision falls, so no state is carried between
decisions: a game rebuilt from its record (a resumed save, a restarted
server, a reloaded page) plays on exactly as it would have.
"""

from __future__ import annotations

import random

from .players import make_player
from .state import Action, Phase, PlayerView

__all__ = ["computer_action", "decision_seed"]


def decision_seed(game_seed: int, seat: int, view: PlayerView) -> int:
    """The seed of one computer decision: fixed by the game seed, the seat
    and where in the game the decision falls (round, the seat's turn, the
    phase), so a resumed game's opponents decide exactly as they would have."""
    key = f"{game_seed}:{seat}:{view.round}:{view.turns_taken}:{view.phase.value}"
    return random.Random(key).getrandbits(63)


def computer_action(strategy: str, game_seed: int, view: PlayerView) -> Action:
    """A computer seat's move: its strategy, freshly seeded for this decision."""
    player = make_player(strategy, decision_seed(game_seed, view.seat, view))
    if view.phase is Phase.DRAW:
        return player.choose_draw(view)
    if view.final_turn:
        return player.choose_lay_down(view)
    return player.choose_end(view)
