"""Game records: a finished (or unfinished) game as JSON, and replaying one.

A record holds the seed, the shuffle scheme, the rules, every round's deal,
every action, every reshuffled draw pile and every round result (fields in
``docs/game.md``).  :func:`replay` rebuilds the game from the seed and the
actions alone, then writes the record of what it played and requires it to
equal the given record in every field, so no change to a record goes
unnoticed.  Records of format 1 (written before the content hash of the word
list, the turn limit and the per-round shuffles) still replay.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Sequence
from typing import Any

from ..errors import IllegalActionError
from ..files import MAX_JSON_DEPTH, loads_json, nesting_depth
from ..wordlist import WordList
from .engine import Game
from .errors import GameRecordError
from .listhash import legacy_wordlist_keys, wordlist_sha256
from .rules import Rules
from .shuffle import SHUFFLE_SCHEMES, ShuffleScheme
from .state import action_from_dict

__all__ = ["FORMAT", "FORMATS", "game_record", "replay"]

#: The ``format`` field of every record this version writes.
FORMAT = "quiddler-game/2"
#: Every format :func:`replay` reads, oldest first.
FORMATS = ("quiddler-game/1", FORMAT)

_DEAL_FIELDS = ("round", "cards", "dealer", "hands", "discard", "draw_pile")

# Compact JSON, as json.dumps(..., separators=(",", ":")) writes it, the encoder made once.
# A record is the engine's log and values of plain lists and dicts, none holding another that
# holds it, so the encoder skips its check for cycles (an id kept and dropped per list and
# dict: a sixth of the text's time).
_COMPACT = json.JSONEncoder(separators=(",", ":"), check_circular=False)


def game_record(game: Game, names: Sequence[str] | None = None) -> dict[str, Any]:
    """The JSON record of ``game``; ``names`` labels the seats (player names).
    Its rounds are a copy of the game's log: the game may go on.  The fields
    are described on [Game records](../reference/records.md).

    :param game: The game, finished or not.
    :param names: One name per seat; None: ``player0``, ``player1``...
    :returns: The record, ready for :func:`json.dumps`.
    :raises ValueError: ``names`` does not give one name per seat.
    """
    return _record(game, names, copy.deepcopy(game.log))


def game_record_text(game: Game, names: Sequence[str] | None = None) -> str:
    """:func:`game_record` as compact JSON text.  The text is made at once,
    so the game's log is read as it is, not copied first (the copy is a
    noticeable share of a simulation with ``--log``)."""
    return _COMPACT.encode(_record(game, names, game.log))


def _record(game: Game, names: Sequence[str] | None, rounds: list[dict[str, Any]]) -> dict[str, Any]:
    if names is not None and len(names) != game.players:
        raise ValueError(f"{len(names)} names for {game.players} players")
    return {
        "format": FORMAT,
        "seed": game.seed,
        "shuffle": game.shuffle,
        "players": list(names) if names is not None else [f"player{seat}" for seat in range(game.players)],
        "rules": game.rules.to_dict(),
        "rounds": rounds,
        "finished": game.over,
        "final_scores": list(game.totals),
        "winners": list(game.winners) if game.over else [],
    }


def _as_format_1(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` in the layout format-1 records have (no shuffle scheme,
    turn limit or reshuffles; the word list's key is checked apart)."""
    out = {key: value for key, value in record.items() if key != "shuffle"}
    out["format"] = FORMATS[0]
    out["rules"] = {key: value for key, value in record["rules"].items() if key != "turn_limit"}
    out["rounds"] = []
    for entry in record["rounds"]:
        entry = {key: value for key, value in entry.items() if key != "reshuffles"}
        if "result" in entry:
            entry["result"] = {key: value for key, value in entry["result"].items() if key != "turn_limit"}
        out["rounds"].append(entry)
    return out


def replay(record: dict[str, Any] | str, wordlist: WordList | None = None) -> Game:
    """Replay a record (a dict or its JSON text) and return the game.

    ``wordlist`` must be the list the game was played with (None: ENABLE).

    :param record: A record as :func:`game_record` gives it, or its JSON text.
    :param wordlist: The word list the game was played with; None: ENABLE.
    :returns: The game, in the state the record ends in.
    :raises GameRecordError: The record is not JSON or not of a known
        format, is malformed, holds an illegal action, was played with
        another word list, or any field differs from what the replay gives.
    """
    if isinstance(record, str):
        try:
            record = loads_json(record)
        except ValueError as exc:  # malformed, nested too deeply, a number too long
            raise GameRecordError(f"a game record must be JSON: {_cut(str(exc))}") from None
    elif nesting_depth(record) > MAX_JSON_DEPTH:
        # Deeper than any record: every walk over it (comparing, printing)
        # would end in a RecursionError.
        raise GameRecordError(f"not a game record: its values nest more than {MAX_JSON_DEPTH} levels deep")
    if not isinstance(record, dict) or record.get("format") not in FORMATS:
        found = record.get("format") if isinstance(record, dict) else None
        raise GameRecordError(f"not a game record of a known format ({', '.join(FORMATS)}): format {found!r}")
    version = FORMATS.index(record["format"]) + 1
    game = _new_game(record, version, wordlist)
    rounds = record.get("rounds")
    if not isinstance(rounds, list):
        raise GameRecordError(f"the record's rounds must be a list, not {_short(rounds)}")
    for index, entry in enumerate(rounds):
        _replay_round(game, index, entry)
    expected = _record(game, record["players"], game.log)  # only compared, never changed
    if version == 1:
        expected = _as_format_1(expected)
    # The list's name is a label, its hash was checked by _new_game.
    for key in ("wordlist", "wordlist_sha256"):
        expected["rules"][key] = record["rules"].get(key)
    for key, value in expected.items():
        difference = _first_difference(record.get(key, _MISSING), value, key)
        if difference is not None:
            raise GameRecordError(difference)
    return game


def _new_game(record: dict[str, Any], version: int, wordlist: WordList | None) -> Game:
    """The game a record starts, its header checked."""
    players, seed = record.get("players"), record.get("seed")
    if not isinstance(players, list) or not all(isinstance(name, str) for name in players):
        raise GameRecordError(f"the record's players must be a list of names, not {_short(players)}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise GameRecordError(f"the record's seed must be an integer, not {_short(seed)}")
    shuffle: ShuffleScheme = "single-stream"
    if version == 1 and "shuffle" in record:
        raise GameRecordError("a format-1 record has no shuffle field (its games used the single stream)")
    if version >= 2:
        shuffle = record.get("shuffle")  # type: ignore[assignment]
        if shuffle not in SHUFFLE_SCHEMES:
            raise GameRecordError(f"unknown shuffle scheme {_short(shuffle)} "
                                  f"(expected one of: {', '.join(SHUFFLE_SCHEMES)})")  # fmt: skip
    data = record.get("rules")
    if not isinstance(data, dict):
        raise GameRecordError(f"the record's rules must be an object, not {_short(data)}")
    try:
        rules = Rules.from_dict(data, wordlist)
    except (TypeError, ValueError) as exc:
        raise GameRecordError(f"bad rules in the record: {_cut(str(exc))}") from None
    recorded = data.get("wordlist_sha256")
    words = rules.words
    known = legacy_wordlist_keys(words) if version == 1 else {wordlist_sha256(words)}
    if not isinstance(recorded, str) or recorded not in known:
        raise GameRecordError(f"the game was played with word list {_short(data.get('wordlist'), keep_end=True)} "
                              f"(SHA-256 {_short(recorded)}), not {words.name!r}: pass that list to replay")  # fmt: skip
    try:
        return Game(len(players), seed=seed, rules=rules, shuffle=shuffle)
    except ValueError as exc:
        raise GameRecordError(f"bad record: {_cut(str(exc))}") from None


def _replay_round(game: Game, index: int, entry: Any) -> None:
    """Check round ``index``'s deal, then apply its actions, each of which
    must fall inside that round."""
    where = f"round {index + 1}"
    if not isinstance(entry, dict):
        raise GameRecordError(f"{where}: a round must be an object, not {_short(entry)}")
    if index >= len(game.log):
        raise GameRecordError(f"the record has more rounds than the game: {where}")
    dealt = game.log[index]
    for name in _DEAL_FIELDS:
        if entry.get(name) != dealt[name]:
            raise GameRecordError(f"{where}: the deal's {name!r} differs from the record")
    actions = entry.get("actions")
    if not isinstance(actions, list):
        raise GameRecordError(f"{where}: actions must be a list, not {_short(actions)}")
    for number, data in enumerate(actions, 1):
        if "result" in dealt:
            raise GameRecordError(f"{where}, action {number}: the round is already over")
        try:
            game.apply(action_from_dict(data))
        except IllegalActionError as exc:
            raise GameRecordError(f"{where}, action {number}: {exc}") from None


class _Missing:
    def __repr__(self) -> str:
        return "nothing"


_MISSING: Any = _Missing()


def _first_difference(recorded: Any, replayed: Any, path: str) -> str | None:
    """Where ``recorded`` first differs from ``replayed`` (JSON values; a
    bool is not an int), as a message naming the field, or None."""
    if type(recorded) is not type(replayed):
        return f"{path}: the record has {_short(recorded)}, the replay gives {_short(replayed)}"
    if isinstance(replayed, dict):
        for key in sorted(set(recorded) | set(replayed), key=str):
            found = _first_difference(recorded.get(key, _MISSING), replayed.get(key, _MISSING), f"{path}.{key}")
            if found is not None:
                return found
        return None
    if isinstance(replayed, list):
        if len(recorded) != len(replayed):
            return f"{path}: the record has {len(recorded)} entries, the replay gives {len(replayed)}"
        for i, (a, b) in enumerate(zip(recorded, replayed)):
            found = _first_difference(a, b, f"{path}[{i}]")
            if found is not None:
                return found
        return None
    if recorded != replayed:
        return f"{path}: the record has {_short(recorded)}, the replay gives {_short(replayed)}"
    return None


def _short(value: Any, limit: int = 80, *, keep_end: bool = False) -> str:
    """A repr for an error message, cut to ``limit`` characters; from the
    start if ``keep_end`` (a file's path, whose name is at its end)."""
    text = repr(value)
    if len(text) <= limit:
        return text
    return "..." + text[3 - limit :] if keep_end else text[: limit - 3] + "..."


def _cut(message: str, limit: int = 300) -> str:
    """A message built from a record's values, cut to ``limit`` characters
    (a value may be a list of a million entries)."""
    return message if len(message) <= limit else message[: limit - 3] + "..."
