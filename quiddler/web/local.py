"""The server's protocol played in-process: a game against the computer
with no server, for the static site's Web Worker (``quiddler site``).

The page talks to a :class:`LocalTable` exactly as it talks to a table of
``quiddler serve``: it sends the client messages of
:mod:`~quiddler.web.protocol` (hello, action, hint, match, ping) and gets
the same replies, parsed and encoded by the same functions, and it asks
for the same REST answers (a new table, its summary, its record).  Every
message is parsed against the protocol's closed schema, the seat an
action is for comes from the table (seat 0, the one person), and the page
only ever receives seat 0's view: the other hands, the draw pile and the
seed stay in here.  (In a browser this is a separation of code, not a
secret: a person can read the worker's memory and the saved game with the
browser's developer tools.  A game against the computer has nobody to
hide from; a table with friends needs the server.)

Nothing here imports Starlette, uvicorn, SQLite or rich: it runs under
Pyodide, where the computer players decide with the pure-Python solver.

The game is saved as :meth:`LocalTable.save` (the engine's game record and
the table's settings) after every move, so a reloaded page rebuilds it with
:meth:`LocalTable.restore` by replaying the record, at the same move.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from ..errors import IllegalActionError, QuiddlerError
from ..game.decisions import computer_action
from ..game.engine import Game
from ..game.hints import hint
from ..game.players import player_names
from ..game.record import game_record, replay
from ..solver import find_words, solve
from .protocol import (
    ActionRequest,
    CheckRequest,
    ClientMessage,
    Hello,
    HintRequest,
    MatchRequest,
    Ping,
    ProtocolError,
    encode_view,
    match_reply,
    message_type,
    parse_body,
    parse_message,
    parse_new_table,
    refusal,
    spectator_view,
    to_engine_action,
)
from .wordcheck import check_words

__all__ = ["SAVE_FORMAT", "LocalHost", "LocalTable", "players_answer", "solve_answer"]

#: The ``format`` field of :meth:`LocalTable.save`.
SAVE_FORMAT = "quiddler-local/1"
#: The seat of the one person at a local table.
PERSON = 0
#: The computer levels the static site offers, weakest first: the ones whose
#: decisions stay quick in the browser's Python (see docs/site.md).
LEVELS = ("easy", "medium", "hard", "expert")
#: The level a new table's form suggests.
DEFAULT_LEVEL = "medium"


def _text(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), allow_nan=False)


def _token(body: str) -> str:
    """The token of a ``{"token": TOKEN}`` body."""
    data = parse_body(body.encode("utf-8"))
    token = data.get("token")
    if set(data) != {"token"} or not isinstance(token, str):
        raise ProtocolError("bad_message", 'send {"token": TOKEN}', reason="bad_body")
    return token


def players_answer(levels: tuple[str, ...] = LEVELS) -> dict[str, Any]:
    """``GET /api/players`` as the site answers it: only the levels offered there."""
    return {"players": list(levels), "levels": list(levels), "default": DEFAULT_LEVEL}


class LocalTable:
    """One game against the computer: a person in seat 0, computers elsewhere."""

    def __init__(self, table_id: str, token: str, game: Game, kinds: list[str], name: str, hints: bool,
                 moves: int) -> None:  # fmt: skip
        self.id = table_id
        self.token = token
        self.game = game
        self.kinds = kinds  #: "human" for seat 0, a computer level for every other seat
        self.name = name
        self.hints = hints
        self.moves = moves  #: actions applied so far
        self.hello = False
        self.seat: int | None = None  #: the seat the hello took (None: watching)

    # -- REST ------------------------------------------------------------

    @classmethod
    def create(cls, body: str, *, levels: tuple[str, ...] = LEVELS, seed: int | None = None) -> LocalTable:
        """``POST /api/tables``: the body as the server reads it, except that
        every seat but the creator's must be a computer level the site
        offers (ProtocolError otherwise).  ``seed`` fixes the deal (tests)."""
        spec = parse_new_table(parse_body(body.encode("utf-8")), tuple(levels))
        if "human" in spec.seats[1:]:
            raise ProtocolError("bad_message", "a table with other people needs the server (quiddler serve): "
                                               "here every other seat is a computer player",
                                reason="needs_server")  # fmt: skip
        game = Game(len(spec.seats), rules=spec.rules, seed=seed)
        return cls(secrets.token_urlsafe(9), secrets.token_urlsafe(32), game, list(spec.seats), spec.name,
                   spec.hints, 0)  # fmt: skip

    def created(self) -> dict[str, Any]:
        """The ``201`` answer to the creation: ``{table, invite, seat, token}`` (no invite here)."""
        return {"table": self.id, "invite": None, "seat": PERSON, "token": self.token}

    def seats_json(self) -> list[dict[str, Any]]:
        return [
            {"seat": seat, "kind": kind, "name": self.name if kind == "human" else kind, "taken": True,
             "connected": kind != "human" or self.hello}
            for seat, kind in enumerate(self.kinds)
        ]  # fmt: skip

    def summary(self) -> dict[str, Any]:
        """``GET /api/tables/{table}``."""
        rules = self.game.rules.settings()
        rules["wordlist"] = self.game.rules.words.name
        return {"table": self.id, "seats": self.seats_json(), "started": True, "over": self.game.over,
                "hints": self.hints, "rules": rules}  # fmt: skip

    def names(self) -> list[str]:
        """Each seat's name in the record: the person's display name, a computer's level."""
        return [self.name if kind == "human" else kind for kind in self.kinds]

    def record(self) -> dict[str, Any]:
        """``GET /api/tables/{table}/record``: the game record, once the game is over."""
        if not self.game.over:
            raise ProtocolError("not_over", "the record is shown once the game is over")
        return game_record(self.game, self.names())

    def review(self, body: str) -> dict[str, Any]:
        """``GET /api/tables/{table}/review?seat=N``: a seat's decisions
        against the expert's best, once the game is over (a ``{"seat": N}`` body)."""
        from ..game.reviews import review  # the review's modules load only when one is asked for

        if not self.game.over:
            raise ProtocolError("not_over", "the review is shown once the game is over")
        try:
            seat = json.loads(body).get("seat", 0)
        except (ValueError, AttributeError):
            seat = None
        if type(seat) is not int or not 0 <= seat < self.game.players:
            raise ProtocolError("bad_seat", f"no seat {str(seat)[:20]!r} at this table", {"seat": str(seat)[:20]})
        return review(self.record(), seat, wordlist=self.game.rules.wordlist).to_dict()

    def rematch(self, token: str) -> LocalTable:
        """The same seats, names, rules and hints at a new table with a new
        deal, once the game is over (``POST /api/tables/{table}/rematch``)."""
        if not secrets.compare_digest(token, self.token):
            raise ProtocolError("bad_token", "that token holds no seat at this table")
        if not self.game.over:
            raise ProtocolError("not_over", "a rematch is offered once the game is over")
        game = Game(self.game.players, rules=self.game.rules)
        return LocalTable(secrets.token_urlsafe(9), secrets.token_urlsafe(32), game, list(self.kinds), self.name,
                          self.hints, 0)  # fmt: skip

    # -- saving ------------------------------------------------------------

    def save(self) -> dict[str, Any]:
        """Everything needed to rebuild the table: the game record so far and the table's settings."""
        return {"format": SAVE_FORMAT, "table": self.id, "token": self.token, "hints": self.hints,
                "seats": list(self.kinds), "record": game_record(self.game, self.names())}  # fmt: skip

    @classmethod
    def restore(cls, saved: str) -> LocalTable:
        """The table :meth:`save` described (its JSON text), its game replayed
        from the record.  ProtocolError ``bad_save`` for anything else."""
        try:
            data = json.loads(saved)
            if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
                raise ValueError(f"not a saved table of format {SAVE_FORMAT}")
            kinds, record = data["seats"], data["record"]
            if (not isinstance(kinds, list) or not kinds or kinds[0] != "human"
                    or any(kind not in player_names() for kind in kinds[1:])):  # fmt: skip
                raise ValueError(f"bad seats {kinds!r}")
            if not all(isinstance(data[key], str) for key in ("table", "token")) or not isinstance(data["hints"], bool):
                raise ValueError("bad table, token or hints")
            game = replay(record)
            if len(kinds) != game.players:
                raise ValueError(f"{len(kinds)} seats for {game.players} players")
            moves = sum(len(entry["actions"]) for entry in record["rounds"])
            return cls(data["table"], data["token"], game, kinds, record["players"][0], data["hints"], moves)
        except (ValueError, TypeError, KeyError, QuiddlerError) as exc:
            raise ProtocolError("bad_save", f"the saved game cannot be resumed: {exc}"[:300]) from None

    # -- the table's messages --------------------------------------------------

    def state(self) -> dict[str, Any]:
        """The ``state`` message for the connection's seat (the public view for a spectator)."""
        view = spectator_view(self.game) if self.seat is None else encode_view(self.game.view(self.seat))
        return {"type": "state", "view": view, "seats": self.seats_json(), "moves": self.moves, "hints": self.hints}

    def receive(self, text: str) -> list[dict[str, Any]]:
        """The replies to one client message, in order (errors as ``error`` messages)."""
        request: ClientMessage | None = None
        try:
            request = parse_message(text)
            return self._answer(request)
        except ProtocolError as exc:
            return [exc.reply(message_type(request))]

    def _answer(self, request: object) -> list[dict[str, Any]]:
        match request:
            case Ping():
                return [{"type": "pong"}]
            case Hello(token=token):
                if self.hello:
                    raise ProtocolError("bad_message", "this connection already said hello", reason="hello_twice")
                if token is not None and not secrets.compare_digest(token, self.token):
                    raise ProtocolError("bad_token", "that token holds no seat at this table")
                self.hello, self.seat = True, None if token is None else PERSON
                return [{"type": "welcome", "table": self.id, "seat": self.seat, "hints": self.hints}, self.state()]
        if not self.hello:
            raise ProtocolError("hello_first", "say hello first, with your seat's token or as a spectator")
        if isinstance(request, CheckRequest):
            return [check_words(self.game.rules.words, request.words)]
        seat = self.seat
        if seat is None:
            raise ProtocolError("not_seated", "a spectator watches: only a seated player acts or asks a hint")
        match request:
            case ActionRequest():
                try:
                    self._apply(to_engine_action(request, seat))
                except IllegalActionError as exc:
                    raise refusal(exc) from None
                return [self.state()]
            case HintRequest():
                if not self.hints:
                    raise ProtocolError("no_hints", "this table plays without hints")
                view = self.game.view(seat)
                if not view.my_turn:
                    raise ProtocolError("not_your_turn", "a hint is for your own turn", {"turn": view.turn})
                return [{"type": "hint", "hint": hint(view).to_dict(), "measure": {"unit": "expected_points"}}]
            case MatchRequest():
                return [match_reply(self.game.view(seat), request)]
        raise ProtocolError("bad_message", "unknown message", reason="unknown_type")  # parse_message returns no other

    def _apply(self, action: Any) -> None:
        self.game.legal(action)
        self.game.apply(action)
        self.moves += 1

    def computer_to_move(self) -> bool:
        return not self.game.over and self.kinds[self.game.turn] != "human"

    def computer_step(self) -> dict[str, Any] | None:
        """Let the computer seat to move play one action: the new ``state``,
        or None when it is the person's turn or the game is over.  The page
        calls it until None, showing each state, as the server's computer
        task broadcasts one state per move."""
        if not self.computer_to_move():
            return None
        seat = self.game.turn
        self._apply(computer_action(self.kinds[seat], self.game.seed, self.game.view(seat)))
        return self.state()


# -- the solver page ---------------------------------------------------------------


def solve_answer(body: str) -> dict[str, Any]:
    """The solver page's answer for ``{"cards": "qu,i,t", "discard": false}``:
    ``{"solution": ..., "words": [...]}``, ``solution`` as ``quiddler solve
    --json`` prints it and ``words`` as ``quiddler words --json`` lists
    them; ``{"error": TEXT}`` for a bad hand."""
    try:
        data = parse_body(body.encode("utf-8"))
        cards, discard = data.get("cards"), data.get("discard", False)
        if not isinstance(cards, str) or not isinstance(discard, bool) or set(data) - {"cards", "discard"}:
            raise ProtocolError("bad_message", 'send {"cards": TEXT, "discard": true or false}', reason="bad_body")
        solution = solve(cards, discard=discard, backend="python", wordlist=None)
        words = [{**w.to_dict(), "letters": w.letters} for w in find_words(solution.cards, backend="python")]
    except (ProtocolError, QuiddlerError) as exc:
        return {"error": exc.message if isinstance(exc, ProtocolError) else str(exc)}
    return {"solution": solution.to_dict(), "words": words}



# -- what the worker calls -----------------------------------------------------------


class LocalHost:
    """The worker's one entry point: an operation name and a text body in,
    JSON text out, so the JavaScript side handles only strings.  Holds the
    table in play (one per page).

    Every answer is ``{"status": HTTP-LIKE, "body": ...}``: 200 or 201 with
    the server's answer, else 4xx with ``{"error": CODE, "message": TEXT}``
    as the server's REST errors are.  Operations: ``players``, ``create``
    (a new-table body), ``restore`` (a saved table), ``rematch`` (a
    ``{"token"}`` body: the same table anew), ``summary``,
    ``record``, ``message`` (a client message: its replies, a list),
    ``step`` (one computer move: a ``state`` or null), ``review`` (a
    ``{"seat"}`` body), ``save`` and
    ``solve`` (the solver page).  ``record`` and ``save`` answer JSON
    *text*: the page keeps and downloads it as it is, since a game seed
    (up to 2**63) does not survive a trip through JavaScript's numbers.
    """

    def __init__(self, levels: tuple[str, ...] = LEVELS) -> None:
        self.levels = levels
        self.table: LocalTable | None = None

    def handle(self, op: str, body: str = "") -> str:
        try:
            status, answer = self._handle(op, body)
        except ProtocolError as exc:
            status = 409 if exc.code == "not_over" else 400
            answer = exc.body()
        return _text({"status": status, "body": answer})

    def _table(self) -> LocalTable:
        if self.table is None:
            raise ProtocolError("no_table", "no game is in play here")
        return self.table

    def _handle(self, op: str, body: str) -> tuple[int, Any]:
        match op:
            case "players":
                return 200, players_answer(self.levels)
            case "solve":
                return 200, solve_answer(body)
            case "create":
                self.table = LocalTable.create(body, levels=self.levels)
                return 201, self.table.created()
            case "rematch":
                self.table = self._table().rematch(_token(body))
                return 200, self.table.created()
            case "restore":
                self.table = LocalTable.restore(body)
                return 200, self.table.created()
            case "summary":
                return 200, self._table().summary()
            case "record":
                return 200, _text(self._table().record())
            case "message":
                return 200, self._table().receive(body)
            case "step":
                return 200, self._table().computer_step()
            case "save":
                return 200, _text(self._table().save())
            case "review":
                return 200, self._table().review(body)
        raise ProtocolError("bad_message", f"unknown operation {op!r}"[:100], {"operation": op[:40]},
                            reason="unknown_operation")  # fmt: skip
