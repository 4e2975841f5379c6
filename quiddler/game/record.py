"""Game records: a finished (or unfinished) game as JSON, and replaying one.

A record holds the seed, the rules, every round's deal, every action and
every round result (fields in ``docs/game.md``).  :func:`replay` rebuilds
the game from the seed and the actions alone and checks that each deal,
each round result and the final scores come out as recorded.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ..errors import IllegalActionError
from ..wordlist import WordList
from .engine import Game
from .errors import GameRecordError
from .rules import Rules
from .state import action_from_dict

__all__ = ["FORMAT", "game_record", "replay"]

#: The ``format`` field of every record this version writes.
FORMAT = "quiddler-game/1"

_DEAL_FIELDS = ("round", "cards", "dealer", "hands", "discard", "draw_pile")


def game_record(game: Game, names: Sequence[str] | None = None) -> dict[str, Any]:
    """The JSON record of ``game``; ``names`` labels the seats (strategy names)."""
    if names is not None and len(names) != game.players:
        raise ValueError(f"{len(names)} names for {game.players} players")
    return {
        "format": FORMAT,
        "seed": game.seed,
        "players": list(names) if names is not None else [f"player{seat}" for seat in range(game.players)],
        "rules": game.rules.to_dict(),
        "rounds": [dict(entry) for entry in game.log],
        "finished": game.over,
        "final_scores": list(game.totals),
        "winners": list(game.winners) if game.over else [],
    }


def replay(record: dict[str, Any] | str, wordlist: WordList | None = None) -> Game:
    """Replay a record (a dict or its JSON text) and return the game.

    ``wordlist`` must be the list the game was played with (None: ENABLE);
    raises :class:`GameRecordError` if the record is malformed, an action is
    illegal, or anything replays differently from what is recorded.
    """
    if isinstance(record, str):
        try:
            record = json.loads(record)
        except json.JSONDecodeError as exc:
            raise GameRecordError(f"a game record must be JSON: {exc}") from None
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise GameRecordError(f"not a {FORMAT} record")
    try:
        rules = Rules.from_dict(record["rules"], wordlist)
        players, seed, rounds = len(record["players"]), int(record["seed"]), record["rounds"]
    except (KeyError, TypeError, ValueError) as exc:
        raise GameRecordError(f"bad record header: {exc}") from None
    recorded_digest = record["rules"].get("wordlist_sha256")
    if recorded_digest is not None and recorded_digest != rules.words.digest:
        raise GameRecordError(f"the game was played with word list {record['rules'].get('wordlist')!r}, "
                              f"not {rules.words.name!r}: pass that list to replay")  # fmt: skip
    try:
        game = Game(players, seed=seed, rules=rules)
    except ValueError as exc:
        raise GameRecordError(f"bad record: {exc}") from None
    for index, entry in enumerate(rounds):
        if index >= len(game.log):
            raise GameRecordError(f"the record has more rounds than the game: round {index + 1}")
        dealt = game.log[index]
        for name in _DEAL_FIELDS:
            if entry.get(name) != dealt[name]:
                raise GameRecordError(f"round {index + 1}: the deal's {name!r} differs from the record")
        for number, data in enumerate(entry.get("actions", ()), 1):
            try:
                game.apply(action_from_dict(data))
            except IllegalActionError as exc:
                raise GameRecordError(f"round {index + 1}, action {number}: {exc}") from None
        if "result" in entry and game.log[index].get("result") != entry["result"]:
            raise GameRecordError(f"round {index + 1}: the result differs from the record")
    if "final_scores" in record and list(game.totals) != record["final_scores"]:
        raise GameRecordError(
            f"final scores {list(game.totals)} differ from the record's {record['final_scores']}"
        )
    return game
