"""No message to any seat ever holds what that seat may not see.

Whole games at real tables (computer seats and scripted people, a
spectator watching), every message checked at the moment it is sent
against the real game: a seat's message holds its own hand and nothing
that depends on another seat's hand or on the draw pile.  The check is by
perturbation: the same game with the other seats' hidden cards swapped
for cards of the draw pile must give the very same message.
"""

from __future__ import annotations

import asyncio
import copy
import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from quiddler.game.engine import Game
from quiddler.game.rules import Rules
from quiddler.web.limits import Limits
from quiddler.web.protocol import encode_view, parse_message, to_engine_action
from quiddler.web.store import SqliteStore
from quiddler.web.tables import HUMAN, Table, Tables

from .webtools import scripted_action

#: Every field a VIEW has (a new field must be added here, and to the check, on purpose).
VIEW_FIELDS = {
    "seat", "players", "rounds", "rules", "round", "round_size", "dealer", "turn", "phase", "hand", "hand_sizes",
    "discard_top", "draw_pile_size", "discard_pile_size", "seen", "laid_down", "totals", "went_out",
    "turns_taken", "my_turn", "final_turn", "may_go_out", "may_draw_from_pile", "history", "log", "winners",
}  # fmt: skip


def _perturbed(game: Game, keep: int | None, rng: random.Random) -> Game | None:
    """``game`` with every hidden card changed: each hand but ``keep``'s
    trades cards with the draw pile (faces that differ), and the pile is
    reordered.  None if there is nothing to trade."""
    other = copy.copy(game)
    hands = [list(hand) for hand in game._hands]
    draw = list(game._draw)
    traded = False
    for seat, hand in enumerate(hands):
        if seat == keep:
            continue
        for i, card in enumerate(hand):
            for j, candidate in enumerate(draw):
                if candidate != card:
                    hand[i], draw[j] = candidate, card
                    traded = True
                    break
    rng.shuffle(draw)
    other._hands, other._draw = hands, draw
    return other if traded or game.over else None


class Recorder:
    """A listener that checks every message it is sent, as it is sent."""

    def __init__(self, table: Table, seat: int | None, rng: random.Random) -> None:
        self.table = table
        self.seat = seat
        self.rng = rng
        self.messages: list[dict[str, Any]] = []
        self.perturbed_checks = 0

    def send(self, text: str) -> None:
        game = self.table.game
        message = json.loads(text)
        self.messages.append(message)
        assert str(game.seed) not in text, "the seed was sent"
        assert '"draw_pile"' not in text and '"rounds":[' not in text, "the draw pile or the record was sent"
        if message["type"] != "state":
            return
        view = message["view"]
        assert set(view) == VIEW_FIELDS
        if self.seat is None:
            assert view["seat"] is None and view["hand"] == []
        else:
            assert view["seat"] == self.seat
            assert view["hand"] == [c.face for c in game.hand(self.seat)]
        for seat in range(game.players):
            if seat != self.seat and not game.over and len(game.hand(seat)) >= 3:
                assert view["hand"] != [c.face for c in game.hand(seat)]
        # The rest of the message holds no card at all.
        rest = {key: value for key, value in message.items() if key != "view"}
        assert set(rest) == {"type", "seats", "moves", "hints"}
        # The view is the engine's view of this seat, and does not change when the hidden cards do.
        spectator = self.seat is None
        own = encode_view(game.view(0 if spectator else self.seat), spectator=spectator)
        assert view == own, "the message is not the engine's view of the seat"
        other = _perturbed(game, self.seat, self.rng)
        if other is not None:
            hidden_changed = encode_view(other.view(0 if spectator else self.seat), spectator=spectator)
            assert hidden_changed == view, "the view depends on hidden cards"
            self.perturbed_checks += 1


async def _play(tmp_path: Path, kinds: list[str], rules: Rules, seed: int) -> tuple[Table, list[Recorder]]:
    rng = random.Random(seed)
    seed += 7 * 10**17  # a seed too long to turn up in a message by chance
    tables = Tables(SqliteStore(tmp_path / "t.sqlite3"), Limits(), workers=2)
    table, invite, _token = await tables.create(kinds, rules, True, "Ann", seed=seed)
    humans = [0]
    for seat, kind in enumerate(kinds[1:], 1):
        if kind == HUMAN:
            got, _ = await table.join(invite, f"P{seat}")
            humans.append(got)
    recorders = [Recorder(table, seat, rng) for seat in humans] + [Recorder(table, None, rng)]
    for recorder in recorders:
        await table.connect(recorder)
    turns = 0
    for _ in range(5000):
        if table.over:
            break
        seat = table.game.turn
        if kinds[seat] != HUMAN:
            await asyncio.sleep(0.005)  # the computer seats play in the pool
            continue
        view = next(r for r in recorders if r.seat == seat).messages[-1]["view"]
        if not view["my_turn"]:
            await asyncio.sleep(0.005)
            continue
        if rng.random() < 0.1:  # a wrong move now and then: refused, nothing shown
            wrong = parse_message(json.dumps({"type": "action", "action": {"type": "discard", "card": "q"}}))
            try:
                await table.act(seat, to_engine_action(wrong, seat))  # type: ignore[arg-type]
            except ValueError:
                pass
        request = parse_message(json.dumps({"type": "action", "action": scripted_action(view, turns)}))
        turns += 1
        await table.act(seat, to_engine_action(request, seat))  # type: ignore[arg-type]
    assert table.over, "the game did not end"
    await tables.close()
    return table, recorders


@pytest.mark.parametrize(
    ("kinds", "seed"),
    [
        (["human", "easy"], 1),
        (["human", "human", "random"], 2),
        (["human", "greedy", "human", "medium"], 3),
        (["human", "hard"], int(os.environ.get("QUIDDLER_TEST_SEED", "5"))),
    ],
)
def test_no_message_holds_another_seats_hidden_cards(tmp_path: Path, kinds: list[str], seed: int) -> None:
    rules = Rules(round_sizes=(3, 5, 4))
    table, recorders = asyncio.run(_play(tmp_path, kinds, rules, seed))
    for recorder in recorders:
        states = [m for m in recorder.messages if m["type"] == "state"]
        assert states[-1]["view"]["phase"] == "game_over"
        assert states[-1]["moves"] == table.moves
        assert recorder.perturbed_checks >= max(3, len(states) // 2)


def test_the_check_catches_a_message_that_leaks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above fails when the server adds another seat's hand to a message."""

    def leaking_message(self: Table, seat: int | None) -> str:
        game = self.game
        view = encode_view(game.view(seat if seat is not None else 0), spectator=seat is None)
        view["laid_down"] = [[[c.face for c in game.hand(1 if seat == 0 else 0)]]]
        return json.dumps({"type": "state", "view": view, "seats": [], "moves": self.moves, "hints": True})

    monkeypatch.setattr(Table, "message_for", leaking_message)
    with pytest.raises(AssertionError, match="not the engine's view"):
        asyncio.run(_play(tmp_path, ["human", "easy"], Rules(round_sizes=(3,)), 4))


def test_the_check_catches_a_view_that_leaks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """... and when the view itself holds a hidden card (the perturbation notices)."""
    from dataclasses import replace

    real_view = Game.view

    def leaky_view(self: Game, seat: int) -> Any:
        view = real_view(self, seat)
        return replace(view, seen=view.seen + (self._draw[-1],) if self._draw else view.seen)

    monkeypatch.setattr(Game, "view", leaky_view)
    with pytest.raises(AssertionError, match="depends on hidden cards"):
        asyncio.run(_play(tmp_path, ["human", "easy"], Rules(round_sizes=(3,)), 4))
