"""The browser game's wire protocol: the strict schema of what a client
may send, and the JSON the server sends back.

The server is the only trusted party.  Every client message is parsed here
against a closed schema (known types only, no extra fields, bounded sizes,
cards parsed by :meth:`~quiddler.cards.Card.parse`); anything else is a
:class:`ProtocolError`, answered with an ``error`` message while the
connection stays open.  The seat an action is for never comes from a
message: it is the seat of the connection's token, so an action that names
a ``player`` is refused.

REST (JSON bodies of at most 16 KiB; errors are ``{"error": CODE, "message": TEXT, "params": {...}}``)
-----------------------------------------------------------------------------------------------------

``POST /api/tables`` ``{"seats": ["human", "expert", ...], "rules": {...},
"hints": true, "name": "Ann"}`` -> ``201 {"table": ID, "invite": CODE,
"seat": 0, "token": TOKEN}``.  ``seats`` has 2 to 8 entries, each
``"human"`` or a name of ``GET /api/players``; seat 0 (the creator's) must
be ``"human"``.  ``rules`` (optional) holds :class:`~quiddler.game.Rules`
fields by name (``GET /api/rules``; the word list is always ENABLE).
``hints`` (optional, default true) allows the hint button.  ``name``
(optional) is the creator's display name.  ``400`` for a bad body,
rules included that the engine and its solver cannot play (a bonus over
:data:`~quiddler.MAX_BONUS`, a ``turn_limit`` over :data:`MAX_TURN_LIMIT`,
more than :data:`MAX_ROUNDS` rounds); ``429`` when the client made too
many tables lately (``rate_limited``) or holds its maximum of unfinished
ones (``too_many_tables``); ``503`` (``too_many_tables``) when the server
holds its maximum of tables.

``POST /api/tables/{table}/join`` ``{"invite": CODE, "name": "Bo"}`` ->
``200 {"seat": K, "token": TOKEN}`` for the next free human seat; ``404``
no such table, ``403`` a wrong invite (whether or not a seat is free),
``409`` the right invite but no free seat.

``GET /api/tables/{table}`` -> ``200 {"table": ID, "seats": [SEAT, ...],
"started": bool, "over": bool, "hints": bool, "rules": RULES}``: what an
invite page shows before joining (public: no token, invite, hand or seed).

``GET /api/tables/{table}/record`` -> the game record once the game is
over (the engine's JSON, ``docs/game.md``; players by name: a person's
display name, a computer's level); ``403`` before, ``404`` no such table.

``POST /api/tables/{table}/rematch`` ``{"token": TOKEN}`` -> ``200 {"table":
ID, "seat": K, "token": TOKEN}``: once the game is over, the token's own seat
at a new table with the same seats, rules and hints and a new deal (the
first seat to ask makes it; :mod:`.rematch`); ``403`` a token of no seat,
``409`` before the end or a seat collected already.

``GET /api/players`` -> ``{"players": [NAME, ...], "levels": ["easy",
"medium", "hard", "expert"], "default": "medium"}``: the computer players a
seat may name (``levels`` the ones worth offering first, weakest first).

``GET /api/rules`` -> ``{"defaults": RULES, "variants": [{"name", "type",
"default", "help"}, ...], "max_seats": 8, "min_seats": 2}``: the rule
options a table may set (the variants ``quiddler play`` offers, by field).

WebSocket ``/ws/{table}``
-------------------------

The handshake's ``Origin`` must be the server's own origin (scheme, host
and port of the request, the host being one the server answers to) or one
given with ``--allow-origin``; anything else, or no ``Origin``, is refused
(HTTP 403).  So is a connection over the per-address limit.  Every message
is one JSON object in a text frame of at most :data:`MAX_MESSAGE_BYTES`
(64 KiB); a bigger one closes the connection with code 1009.  A
connection that sends nothing for the idle time (30 minutes by default) is
closed with code 1000; the page reconnects when it is used again.

Client -> server:

- ``{"type": "hello", "token": TOKEN}``: take the seat of that token, or
  ``{"type": "hello", "watch": true}``: watch as a spectator.  Must come
  first; a wrong token gets ``error`` ``bad_token`` and no view (another
  hello may follow).  Answered by ``welcome``, then ``lobby`` or ``state``.
- ``{"type": "action", "action": ACTION}``: ACTION is the game record's
  action encoding without ``"player"``: ``{"type": "draw", "source":
  "pile"}`` (or ``"discard"``), ``{"type": "discard", "card": "q"}``,
  ``{"type": "go_out", "words": [["qu", "i", "t"]], "discard": "e"}``,
  ``{"type": "lay_down", "words": [...], "discard": "z"}``.  Accepted:
  the next ``state`` shows it.  Refused: ``error``.
- ``{"type": "hint"}`` -> ``{"type": "hint", "hint": HINT}``, HINT in the
  shape of ``quiddler hint --json`` (``recommended``, ``options``,
  ``reason``, and ``explanation``: the reason as structure, the kind of
  move and the named terms of each value, from which a page renders the
  sentence in its language; ``docs/json.md`` lists its kinds), for the
  connection's own seat on its turn only.
- ``{"type": "match", "words": ["quiet", "dog"], "discard": "e" or null,
  "mode": "go_out" or "lay_down"}``: words typed as text, matched to the
  hand's cards as ``quiddler play`` does -> ``{"type": "match", "matches":
  [{"words": [["qu", "i", "e", "t"], ...], "discard": FACE or null,
  "left": [FACE, ...], "points": N}, ...]}`` (every distinct way, most
  points first; ``discard`` null when the player must still choose one of
  ``left``), or ``error`` ``no_match`` with ``play``'s exact reason.
- ``{"type": "ping"}`` -> ``{"type": "pong"}``.
- ``{"type": "check", "words": [["c", "a", "t"], ...]}``: do these groups
  of cards spell words? -> ``{"type": "check", "words": [{"cards": [...],
  "word": "cat", "valid": true, "points": 8}, ...]}`` (a word needs two
  cards or more and to be in the table's word list; ``points`` are the
  cards' points either way).

Server -> client (clients ignore types and fields they do not know):

- ``{"type": "welcome", "table": ID, "seat": K or null, "hints": bool}``
- ``{"type": "lobby", "seats": [SEAT, ...]}`` until every seat is taken.
- ``{"type": "state", "view": VIEW, "seats": [SEAT, ...], "moves": N,
  "hints": bool}`` at once and after every change at the table (an
  action, a seat connecting or leaving); ``moves`` counts the actions
  accepted so far, so a client can tell a newer state from a re-sent one.
- ``{"type": "hint", "hint": HINT, "measure": {"unit": "expected_points"}}``
  (``measure`` says what the options' values are), ``{"type": "match", ...}``,
  ``{"type": "check", ...}``, ``{"type": "pong"}``.
- ``{"type": "rematch", "by": K}``: seat K asked for a rematch of this
  finished game (``POST /api/tables/{table}/rematch``, :mod:`.rematch`).
- ``{"type": "error", "code": CODE, "message": TEXT, "params": {...}}``
  (and ``"reason"``: see Errors below; and ``"request"``: the ``type`` of
  the message it answers, when the server read that message, so a client
  with a hint and a match on their way knows which was refused; an error
  without it, such as ``rate_limited``, may answer any).  Codes:
  ``bad_message`` (not JSON, unknown type, missing or extra field,
  oversized string, bad card, an action naming a player), ``hello_first``,
  ``bad_token``, ``not_seated`` (a spectator acting or asking a hint),
  ``not_started`` (seats still free), ``not_your_turn``, ``illegal`` (the
  engine's exact reason), ``no_hints`` (the table has hints off),
  ``no_match``, ``rate_limited``, ``busy`` (a hint took too long: it goes
  on, and asking again for the same position waits for it; or one for
  another position is still being worked out at this table), ``no_table``, ``server_error``
  (the server failed to answer that message; the connection stays open).

SEAT is ``{"seat": K, "kind": "human" or a level, "name": TEXT or null,
"taken": bool, "connected": bool, "fallback": bool}``: a computer seat is
always taken and connected and is named by its level; a free human seat
has name null.  ``fallback``: the seat's computer player failed since the
server started, and a plain legal move was played in its place (the game
goes on).

VIEW is a :class:`~quiddler.game.PlayerView` as JSON, field by field
(cards are faces such as ``"qu"``; a word is a list of faces):

- ``seat``: the viewer's seat, null for a spectator.
- ``players``: seats at the table.  ``rounds``: rounds in the game.
- ``rules``: the table's :class:`~quiddler.game.Rules` fields by name
  (``round_sizes`` a list), ``wordlist`` its name.
- ``round``: the round in play, 0-based.  ``round_size``: cards dealt in it.
- ``dealer``: the seat that dealt.  ``turn``: the seat to move.
- ``phase``: ``"draw"`` (the seat to move draws), ``"discard"`` (it has
  drawn: discard, go out or lay down) or ``"game_over"``.
- ``hand``: the viewer's cards in the order held (empty for a spectator).
- ``hand_sizes``: cards each seat holds (public).
- ``discard_top``: the face-up card, or null.  ``draw_pile_size``,
  ``discard_pile_size``: cards in each pile.
- ``seen``: every card turned face up on the discard pile this round, oldest first.
- ``laid_down``: per seat, the words laid down this round (lists of faces).
- ``totals``: each seat's total after the finished rounds.
- ``went_out``: the seat that went out this round, or null.
- ``turns_taken``: turns the viewer has started this round (null for a spectator).
- ``my_turn``: the viewer is to move.  ``final_turn``: someone went out,
  so the seat to move is on its last turn of the round.  ``may_go_out``:
  the rules let the viewer go out now (the first-turn variant; cards aside).
  ``may_draw_from_pile``: the pile is not empty, or can be refilled.
- ``history``: each finished round, oldest first: ``{"round": 1-based,
  "cards", "dealer", "went_out", "scores": [{"score", "words", "unused",
  "longest_bonus", "most_words_bonus", "went_out"} per seat], "totals",
  "turn_limit"}``; ``score`` is the words' points minus the unused cards'
  plus both bonuses; ``totals`` are after the zero floor when the rules
  floor totals (``rules.floor_at_zero``), so a total can differ from the
  sum of scores.
- ``log``: this round's actions as the table saw them, oldest first: the
  action's record encoding with ``player`` (``{"type": "draw", "player",
  "source"}``, ``discard`` with ``card``, ``go_out``/``lay_down`` with
  ``words`` and ``discard``), plus ``taken`` (the face-up card a draw from
  the discard pile took, else null; a blind draw never shows its card) and
  ``reshuffled`` (the discard pile was shuffled into a new draw pile first).
- ``winners``: the seats with the highest total once the game is over, else empty.

Errors
------

Every error keeps its ``code`` and its English ``message`` and carries
``params``: the values the message names, ``{}`` when it names none, so a
page in any language can say the same.  The engine's refusals
(``illegal``, and ``not_your_turn`` for an action), ``no_match`` and
``bad_message`` also carry ``reason``, naming the rule that refused; the
params are then the reason's.  A string a client sent comes back cut to 64
characters; a value that is not a string, number or bool, as its short repr.

Codes with params (any code not listed has none): ``bad_origin``
``{origin}``; ``too_large`` ``{limit}`` (bytes); ``too_many_tables``
``{limit, scope}`` (``scope`` ``"client"`` for the 429, ``"server"`` for
the 503); ``bad_seat`` ``{max}`` (a review's seat: the highest there is)
or, in the static site's table, ``{seat}``; ``not_your_turn`` for a hint
``{turn}`` (the seat to move).  No params: ``bad_request``, ``no_table``,
``rate_limited``, ``bad_invite``, ``table_full``, ``not_over``,
``rematch_taken``, ``bad_token``, ``busy``, ``hello_first``,
``not_seated``, ``not_started``, ``no_hints``, ``server_error``,
``bad_save``.

``illegal`` (and ``not_your_turn``) reasons, the engine's rules:
``wrong_player`` ``{turn, player}`` (code ``not_your_turn``: it is seat
``turn``'s turn, not ``player``'s), ``game_over``, ``draw_first``,
``already_drew``, ``discard_pile_empty``, ``draw_pile_empty``,
``final_turn`` (a plain discard on a final turn: lay down and discard),
``already_went_out`` ``{player}`` (going out on a final turn: ``player``
went out), ``nobody_went_out`` (a lay-down when nobody went out),
``first_turn_no_go_out``, ``cards_left`` ``{count}`` (going out leaves
``count`` cards besides the discard), ``not_a_word`` ``{word}`` (not in
the word list), ``too_short`` ``{word}`` (a one-card word),
``misspelled`` ``{cards, word}``, ``not_in_hand`` ``{card}``,
``used_too_often`` ``{card, used, held}``, ``malformed``.

``no_match`` reasons, the typed words' problem: ``not_letters`` ``{word}``,
``not_a_word`` ``{word, wordlist}``, ``single_card`` ``{word}``,
``discard_not_in_hand`` ``{card}``, ``too_many_words`` ``{words, fewest,
held, besides_discard}`` (``words`` words need at least ``fewest`` cards,
the hand has ``held``), ``cannot_spell`` ``{word, missing,
discard_in_word}`` and ``cannot_spell_together`` ``{words, missing,
discard_in_word}`` (``missing``: ``[{"card", "needed", "have"}, ...]``,
the cards short; ``discard_in_word``: the named discard, when it is among
them, else null), ``no_discard_left`` (a final turn's words use every
card), ``go_out_no_discard`` ``{held}`` (going out's words use all
``held`` cards), ``cards_over`` ``{cards, discard}`` (going out leaves
``cards``; ``discard`` the one named, or null), ``too_many_ways``
``{limit}``.

``bad_message`` reasons, each with the ``field`` it is about (a name, or a
path such as ``words[0][1]`` or ``rules.turn_limit``) unless said:
``not_json`` (no field), ``not_object`` ``{field, value}``,
``duplicate_field`` ``{field}``, ``missing_field`` ``{field}``,
``unknown_field`` ``{field}`` (rules: and ``known``, the fields there
are), ``names_player`` (no field), ``not_string`` ``{field, value}``,
``not_list`` ``{field, value}``, ``too_long`` ``{field, length, limit}``
(characters), ``too_many`` ``{field, length, limit}`` (entries),
``bad_card`` ``{field, value}``, ``bad_value`` ``{field, value}`` (a
source, mode, ``watch`` or ``hints`` that is none of the allowed),
``unknown_type`` ``{field, value}``, ``empty`` ``{field}``,
``not_printable`` ``{field}``, ``fixed_field`` ``{field}`` (the word
list), ``too_large`` ``{field, limit, value}``, ``bad_rules``
``{detail}`` (rules the engine cannot play; ``detail`` is the engine's
English reason), ``seat_count`` ``{min, max, count}``, ``bad_seat_kind``
``{field, value, known}``, ``creator_seat`` ``{field}``; and with no
params ``not_text`` (a binary frame), ``hello_twice``; in the static
site's table also ``bad_body``, ``needs_server`` (another person's seat)
and ``unknown_operation`` ``{operation}``.

Never in any message before the game is over: another seat's hand, the
draw pile, the game's seed, the record.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from typing import Any, Literal

from ..cards import Card
from ..errors import IllegalActionError, QuiddlerError
from ..game.engine import Game
from ..game.errors import WrongPlayerError
from ..game.rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from ..game.state import Action, Discard, Draw, GoOut, LayDown, Phase, PlayerView, PublicEvent, word_of
from ..play.spelling import WordProblem, match_words
from ..solver import MAX_BONUS

__all__ = [
    "MAX_MESSAGE_BYTES",
    "ActionRequest",
    "CheckRequest",
    "Hello",
    "HintRequest",
    "MatchRequest",
    "Ping",
    "ProtocolError",
    "encode_view",
    "error_body",
    "error_message",
    "match_reply",
    "message_type",
    "parse_message",
    "refusal",
    "spectator_view",
    "to_engine_action",
]

#: The largest message either side sends; a bigger client message closes the connection (1009).
MAX_MESSAGE_BYTES = 64 * 1024
#: The longest string a client may put in any field (tokens are 43 characters).
MAX_STRING = 64
#: The most words in one action or match request, and cards in one word (a hand holds at most 20 cards).
MAX_WORDS = 20
MAX_WORD_CARDS = 20


class Refusal(Exception):
    """A request the server refuses with an HTTP status: ``status`` (such as
    403, 404, 409, 503), ``code`` the error body's code, ``params`` the
    values its message names, so a page can say it in any language."""

    def __init__(self, status: int, code: str, message: str, params: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.params = dict(params or {})


class ProtocolError(Exception):
    """A message the server refuses: ``code`` is the error reply's code,
    ``params`` the values its message names and ``reason`` (for the codes
    that have one) the finer cause, so a page can say it in any language."""

    def __init__(self, code: str, message: str, params: dict[str, Any] | None = None, *,
                 reason: str | None = None) -> None:  # fmt: skip
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = dict(params or {})
        self.reason = reason

    def reply(self, request: str | None = None) -> dict[str, Any]:
        """The WebSocket ``error`` message (answering a message of type ``request``, when it was read)."""
        return error_message(self.code, self.message, self.params, reason=self.reason, request=request)

    def body(self) -> dict[str, Any]:
        """The HTTP error body."""
        return error_body(self.code, self.message, self.params, reason=self.reason)


def error_message(code: str, message: str, params: dict[str, Any] | None = None, *,
                  reason: str | None = None, request: str | None = None) -> dict[str, Any]:  # fmt: skip
    """``{"type": "error", "code", "message", "params"}`` (and ``"reason"``, ``"request"`` when given)."""
    out = {"type": "error", "code": code, "message": message, "params": dict(params or {})}
    if reason is not None:
        out["reason"] = reason
    if request is not None:
        out["request"] = request
    return out


def error_body(code: str, message: str, params: dict[str, Any] | None = None, *,
               reason: str | None = None) -> dict[str, Any]:  # fmt: skip
    """An HTTP error's body: ``{"error": CODE, "message", "params"}`` (and ``"reason"`` when given)."""
    out = {"error": code, "message": message, "params": dict(params or {})}
    if reason is not None:
        out["reason"] = reason
    return out


def refusal(exc: IllegalActionError) -> ProtocolError:
    """The engine's refusal of an action as the client's error: ``not_your_turn``
    for another seat's turn, else ``illegal``; the rule that refused it as
    ``reason``, with its params."""
    code = "not_your_turn" if isinstance(exc, WrongPlayerError) else "illegal"
    return ProtocolError(code, str(exc), exc.params, reason=exc.reason)


# -- client messages -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hello:
    token: str | None  #: None for a spectator


@dataclass(frozen=True, slots=True)
class ActionRequest:
    """An action without its seat: :func:`to_engine_action` adds the connection's."""

    kind: Literal["draw", "discard", "go_out", "lay_down"]
    source: Literal["pile", "discard"] = "pile"
    card: Card | None = None  #: the discard of every kind but a draw
    words: tuple[tuple[Card, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class HintRequest:
    pass


@dataclass(frozen=True, slots=True)
class MatchRequest:
    words: tuple[str, ...]
    discard: Card | None
    mode: Literal["go_out", "lay_down"]


@dataclass(frozen=True, slots=True)
class Ping:
    pass


@dataclass(frozen=True, slots=True)
class CheckRequest:
    """Groups of cards arranged in a hand: does each spell a word?  (Only
    the word list is consulted: no hand or game fact is read or given.)"""

    words: tuple[tuple[Card, ...], ...]


ClientMessage = Hello | ActionRequest | HintRequest | MatchRequest | Ping | CheckRequest

_TYPES: dict[type, str] = {Hello: "hello", ActionRequest: "action", HintRequest: "hint", MatchRequest: "match",
                           Ping: "ping", CheckRequest: "check"}  # fmt: skip


def message_type(request: ClientMessage | None) -> str | None:
    """The ``type`` of a client message as it was sent (None: it could not be read), which an
    error answering it names: a page with several requests on their way can tell which was refused."""
    return None if request is None else _TYPES[type(request)]


def _bad(message: str, reason: str, **params: Any) -> ProtocolError:
    return ProtocolError("bad_message", message, params, reason=reason)


def _value(value: Any) -> Any:
    """A client's value as an error's param: a string cut to :data:`MAX_STRING`
    characters, a number or bool as it is, anything else as its shortened repr."""
    if isinstance(value, str):
        return value[:MAX_STRING]
    if value is None or isinstance(value, (bool, int, float)):
        return value
    return _shown(value)


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _bad(f"field {_shown(key)} appears twice", "duplicate_field", field=_value(key))
        out[key] = value
    return out


def _reject_constant(name: str) -> Any:
    raise _bad(f"not a JSON number: {name}", "not_json")


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _fields(data: dict[str, Any], what: str, required: set[str], optional: frozenset[str] = frozenset()) -> None:
    """``data`` has every required field and nothing but the known ones."""
    missing = sorted(required - data.keys())
    if missing:
        raise _bad(f"{what} needs the field {_shown(missing[0])}", "missing_field", field=missing[0])
    extra = sorted(data.keys() - required - optional)
    if extra:
        if "player" in extra and what == "an action":
            raise _bad("an action must not name a player: the seat is the one of your token", "names_player")
        raise _bad(f"{what} has an unknown field {_shown(extra[0])}", "unknown_field", field=_value(extra[0]))


def _string(value: Any, what: str, limit: int = MAX_STRING) -> str:
    if not isinstance(value, str):
        raise _bad(f"{what} must be a string, not {_shown(value)}", "not_string", field=what, value=_value(value))
    if len(value) > limit:
        raise _bad(f"{what} is too long ({len(value)} characters; at most {limit})", "too_long", field=what,
                   length=len(value), limit=limit)  # fmt: skip
    return value


def _card(value: Any, what: str) -> Card:
    face = _string(value, what, 8)
    try:
        return Card.parse(face)
    except QuiddlerError as exc:
        raise _bad(f"{what}: {exc}", "bad_card", field=what, value=face) from None


def _list(value: Any, what: str, limit: int) -> list[Any]:
    if not isinstance(value, list):
        raise _bad(f"{what} must be a list, not {_shown(value)}", "not_list", field=what, value=_value(value))
    if len(value) > limit:
        raise _bad(f"{what} is too long ({len(value)} entries; at most {limit})", "too_many", field=what,
                   length=len(value), limit=limit)  # fmt: skip
    return value


def _words(value: Any) -> tuple[tuple[Card, ...], ...]:
    words = _list(value, "words", MAX_WORDS)
    return tuple(
        tuple(_card(face, f"words[{i}][{j}]") for j, face in enumerate(_list(word, f"words[{i}]", MAX_WORD_CARDS)))
        for i, word in enumerate(words)
    )


def _action(value: Any) -> ActionRequest:
    if not isinstance(value, dict):
        raise _bad(f"action must be an object, not {_shown(value)}", "not_object", field="action",
                   value=_value(value))  # fmt: skip
    kind = value.get("type")
    if kind == "draw":
        _fields(value, "an action", {"type", "source"})
        source = value["source"]
        if source not in ("pile", "discard"):
            raise _bad(f"a draw's source must be 'pile' or 'discard', not {_shown(source)}", "bad_value",
                       field="source", value=_value(source))  # fmt: skip
        return ActionRequest("draw", source=source)
    if kind == "discard":
        _fields(value, "an action", {"type", "card"})
        return ActionRequest("discard", card=_card(value["card"], "card"))
    if kind in ("go_out", "lay_down"):
        _fields(value, "an action", {"type", "words", "discard"})
        return ActionRequest(kind, card=_card(value["discard"], "discard"), words=_words(value["words"]))
    raise _bad(f"unknown action type {_shown(kind)} (expected draw, discard, go_out or lay_down)", "unknown_type",
               field="action.type", value=_value(kind))  # fmt: skip


def _json_object(text: str | bytes, what: str, not_json: str) -> dict[str, Any]:
    """``text`` as one JSON object, strictly: no duplicate keys, no NaN or
    Infinity; :class:`ProtocolError` otherwise, saying ``not_json`` or that
    ``what`` must be an object."""
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_reject_constant)
    except ProtocolError:
        raise
    except (ValueError, RecursionError) as exc:
        raise _bad(f"{not_json}: {exc}"[:200], "not_json") from None
    if not isinstance(data, dict):
        raise _bad(f"{what} must be a JSON object, not {type(data).__name__}", "not_object", field=what,
                   value=type(data).__name__)  # fmt: skip
    return data


def parse_message(text: str) -> ClientMessage:
    """The client message in ``text``, or :class:`ProtocolError` saying what is wrong."""
    data = _json_object(text, "a message", "not JSON")
    kind = data.get("type")
    if kind == "hello":
        if "watch" in data:
            _fields(data, "hello", {"type", "watch"})
            if data["watch"] is not True:
                raise _bad("watch must be true", "bad_value", field="watch", value=_value(data["watch"]))
            return Hello(None)
        _fields(data, "hello", {"type", "token"})
        return Hello(_string(data["token"], "token"))
    if kind == "action":
        _fields(data, "an action message", {"type", "action"})
        return _action(data["action"])
    if kind == "hint":
        _fields(data, "hint", {"type"})
        return HintRequest()
    if kind == "match":
        _fields(data, "match", {"type", "words", "mode"}, frozenset({"discard"}))
        texts = tuple(_string(w, f"words[{i}]", 32) for i, w in enumerate(_list(data["words"], "words", MAX_WORDS)))
        if not texts:
            raise _bad("match needs at least one word", "empty", field="words")
        mode = data["mode"]
        if mode not in ("go_out", "lay_down"):
            raise _bad(f"mode must be 'go_out' or 'lay_down', not {_shown(mode)}", "bad_value", field="mode",
                       value=_value(mode))  # fmt: skip
        discard = data.get("discard")
        return MatchRequest(texts, None if discard is None else _card(discard, "discard"), mode)
    if kind == "ping":
        _fields(data, "ping", {"type"})
        return Ping()
    if kind == "check":
        _fields(data, "check", {"type", "words"})
        return CheckRequest(_words(data["words"]))
    raise _bad(f"unknown message type {_shown(kind)} (expected hello, action, hint, match, check or ping)",
               "unknown_type", field="type", value=_value(kind))  # fmt: skip


def to_engine_action(request: ActionRequest, seat: int) -> Action:
    """The engine action for the connection's seat."""
    if request.kind == "draw":
        return Draw(seat, request.source)
    assert request.card is not None
    if request.kind == "discard":
        return Discard(seat, request.card)
    words = tuple(word_of(cards) for cards in request.words)
    if request.kind == "go_out":
        return GoOut(seat, words, request.card)
    return LayDown(seat, words, request.card)


#: The most ways to spell a set of typed words that a match request may ask the server to try.
MAX_SPELLING_COMBINATIONS = 4096


def match_reply(view: PlayerView, request: MatchRequest) -> dict[str, Any]:
    """The ``match`` reply: typed words matched to the seat's cards, as
    ``quiddler play`` matches them (ProtocolError ``no_match`` if none fit)."""
    words = view.rules.words
    ways = 1
    for text in request.words:
        ways *= max(1, len(words.spellings(text.strip().lower())))
        if ways > MAX_SPELLING_COMBINATIONS:
            raise ProtocolError("no_match", "too many words to match at once", {"limit": MAX_SPELLING_COMBINATIONS},
                                reason="too_many_ways")  # fmt: skip
    try:
        found = match_words(request.words, view.hand, words, discard=request.discard,
                            mode="go-out" if request.mode == "go_out" else "lay-down")  # fmt: skip
    except WordProblem as exc:
        raise ProtocolError("no_match", str(exc), exc.params, reason=exc.reason) from None
    return {"type": "match", "matches": [
        {"words": [[c.face for c in w.cards] for w in m.words], "discard": None if m.discard is None else m.discard.face,
         "left": [c.face for c in m.left], "points": m.points} for m in found]}  # fmt: skip


# -- REST bodies -----------------------------------------------------------------

#: The longest display name.
MAX_NAME = 24
#: The most rounds a table may play, and the highest turn limit it may set.
MAX_ROUNDS = 20
MAX_TURN_LIMIT = 200


@dataclass(frozen=True, slots=True)
class NewTable:
    seats: tuple[str, ...]
    rules: Rules
    hints: bool
    name: str


@dataclass(frozen=True, slots=True)
class JoinRequest:
    invite: str
    name: str | None  #: None: "Player K" for seat K - 1


def parse_body(body: bytes) -> dict[str, Any]:
    """A REST body: one JSON object (ProtocolError otherwise)."""
    return _json_object(body, "the body", "the body is not JSON")


def parse_name(value: Any, default: str) -> str:
    """A display name: printable text, at most :data:`MAX_NAME` characters once trimmed."""
    if value is None:
        return default
    name = " ".join(_string(value, "name").split())
    if not name:
        raise _bad("name must not be empty", "empty", field="name")
    if len(name) > MAX_NAME:
        raise _bad(f"name is too long ({len(name)} characters; at most {MAX_NAME})", "too_long", field="name",
                   length=len(name), limit=MAX_NAME)  # fmt: skip
    if not name.isprintable():
        raise _bad("name must be printable text", "not_printable", field="name")
    return name


def parse_rules(value: Any) -> Rules:
    """Rules fields by name (no word list: tables play with ENABLE)."""
    if value is None:
        return Rules()
    if not isinstance(value, dict):
        raise _bad(f"rules must be an object, not {_shown(value)}", "not_object", field="rules", value=_value(value))
    known = [f.name for f in fields(Rules) if f.name != "wordlist"]
    for key in value:
        if key == "wordlist":
            raise _bad("rules: a table plays with the ENABLE word list; wordlist cannot be set", "fixed_field",
                       field="rules.wordlist")  # fmt: skip
        if key not in known:
            raise _bad(f"rules: unknown field {_shown(key)} (known: {', '.join(known)})", "unknown_field",
                       field=_value(key), known=known)  # fmt: skip
    sizes = value.get("round_sizes")
    if sizes is not None:
        _list(sizes, "rules.round_sizes", MAX_ROUNDS)
    limit = value.get("turn_limit")
    if isinstance(limit, int) and limit > MAX_TURN_LIMIT:
        raise _bad(f"rules.turn_limit must be at most {MAX_TURN_LIMIT}, not {limit}", "too_large",
                   field="rules.turn_limit", limit=MAX_TURN_LIMIT, value=limit)  # fmt: skip
    for name in ("longest_word_bonus", "most_words_bonus"):
        bonus = value.get(name)
        if isinstance(bonus, int) and bonus > MAX_BONUS:
            raise _bad(f"rules.{name} must be at most {MAX_BONUS:,} (the solver's bound), not {bonus}", "too_large",
                       field=f"rules.{name}", limit=MAX_BONUS, value=bonus)  # fmt: skip
    try:
        return Rules.from_dict(value)
    except (TypeError, ValueError) as exc:
        raise _bad(f"rules: {exc}", "bad_rules", detail=str(exc)[:200]) from None


def parse_new_table(data: dict[str, Any], players: tuple[str, ...]) -> NewTable:
    """``POST /api/tables``; ``players`` are the computer players' names."""
    _fields(data, "a new table", {"seats"}, frozenset({"rules", "hints", "name"}))
    seats = _list(data["seats"], "seats", MAX_PLAYERS)
    if len(seats) < MIN_PLAYERS:
        raise _bad(f"a table needs {MIN_PLAYERS} to {MAX_PLAYERS} seats, not {len(seats)}", "seat_count",
                   min=MIN_PLAYERS, max=MAX_PLAYERS, count=len(seats))  # fmt: skip
    for number, kind in enumerate(seats):
        _string(kind, f"seats[{number}]")
        if kind != "human" and kind not in players:
            raise _bad(f"seats[{number}]: {_shown(kind)} is neither 'human' nor a computer player "
                       f"({', '.join(players)})", "bad_seat_kind", field=f"seats[{number}]", value=_value(kind),
                       known=list(players))  # fmt: skip
    if seats[0] != "human":
        raise _bad("seats[0] is the creator's seat: it must be 'human'", "creator_seat", field="seats[0]")
    hints = data.get("hints", True)
    if not isinstance(hints, bool):
        raise _bad(f"hints must be true or false, not {_shown(hints)}", "bad_value", field="hints",
                   value=_value(hints))  # fmt: skip
    rules = parse_rules(data.get("rules"))
    try:
        rules.check_players(len(seats))
    except ValueError as exc:
        raise _bad(str(exc), "bad_rules", detail=str(exc)[:200]) from None
    return NewTable(tuple(seats), rules, hints, parse_name(data.get("name"), "Player 1"))


def parse_join(data: dict[str, Any]) -> JoinRequest:
    """``POST /api/tables/{table}/join``."""
    _fields(data, "a join", {"invite"}, frozenset({"name"}))
    name = data.get("name")
    return JoinRequest(_string(data["invite"], "invite"), None if name is None else parse_name(name, ""))


# -- server messages -------------------------------------------------------------


def _faces(cards: Any) -> list[str]:
    return [c.face for c in cards]


def _event(event: PublicEvent) -> dict[str, Any]:
    out = event.action.to_dict()
    out["taken"] = None if event.taken is None else event.taken.face
    out["reshuffled"] = event.reshuffled
    return out


def encode_view(view: PlayerView, *, spectator: bool = False) -> dict[str, Any]:
    """A seat's view as the JSON the server sends in a ``state`` message.

    Every field of :class:`~quiddler.game.PlayerView` by its name, cards as
    faces and words as lists of faces (the module docstring lists them).

    :param view: the seat's view, from :meth:`quiddler.game.Game.view`.
    :param spectator: blank the seat, the hand and the turn count: any
        seat's view less those is the public view a spectator gets.
    :returns: the view as a JSON-ready dict.
    """
    over = view.phase is Phase.GAME_OVER
    rules = view.rules.settings()
    rules["wordlist"] = view.rules.words.name
    best = max(view.totals)
    return {
        "seat": None if spectator else view.seat,
        "players": view.players,
        "rounds": view.rules.rounds,
        "rules": rules,
        "round": view.round,
        "round_size": view.round_size,
        "dealer": view.dealer,
        "turn": view.turn,
        "phase": view.phase.value,
        "hand": [] if spectator else _faces(view.hand),
        "hand_sizes": list(view.hand_sizes),
        "discard_top": None if view.discard_top is None else view.discard_top.face,
        "draw_pile_size": view.draw_pile_size,
        "discard_pile_size": view.discard_pile_size,
        "seen": _faces(view.seen),
        "laid_down": [[_faces(w.cards) for w in words] for words in view.laid_down],
        "totals": list(view.totals),
        "went_out": view.went_out,
        "turns_taken": None if spectator else view.turns_taken,
        "my_turn": False if spectator else view.my_turn,
        "final_turn": view.went_out is not None and not over,
        "may_go_out": False if spectator else (view.my_turn and view.may_go_out),
        "may_draw_from_pile": view.may_draw_from_pile,
        "history": [r.to_dict() for r in view.history],
        "log": [_event(e) for e in view.log],
        "winners": [seat for seat, total in enumerate(view.totals) if total == best] if over else [],
    }


def spectator_view(game: Game) -> dict[str, Any]:
    """The public VIEW: seat 0's view with its private fields blanked."""
    return encode_view(game.view(0), spectator=True)


def dumps(message: dict[str, Any]) -> str:
    """Compact JSON text of a server message (finite numbers only)."""
    return json.dumps(message, separators=(",", ":"), allow_nan=False)
