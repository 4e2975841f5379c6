"""The Starlette app: the page, the REST API and the WebSocket of
:mod:`~quiddler.web.protocol`.

:func:`create_app` builds it over a database file.  At start-up every
unfinished table is rebuilt from the database and its computer players
play on; at shutdown the database is closed.  Security is here, at the
edge: the Host header must be one the server answers to (so a page on
another site cannot reach a loopback server by DNS rebinding), WebSocket
handshakes must come from the server's own origin or an allowed one,
REST writes must be JSON (so a cross-site form cannot post), and every
response carries a Content-Security-Policy that allows scripts only from
the server itself (no inline script, no ``eval``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket

from ..errors import IllegalActionError
from ..game.players import player_names
from ..game.rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from .limits import AddressCounter, ClientRates, Limits, RateLimiter, client_key
from .protocol import (
    ActionRequest,
    CheckRequest,
    ClientMessage,
    Hello,
    HintRequest,
    MatchRequest,
    Ping,
    ProtocolError,
    Refusal,
    dumps,
    error_body,
    error_message,
    match_reply,
    message_type,
    parse_body,
    parse_join,
    parse_message,
    parse_new_table,
    refusal,
    to_engine_action,
)
from .rematch import Rematches, parse_rematch
from .reviews import ReviewRefused, table_review
from .store import Store, StoreError, open_store
from .tables import JoinError, Table, Tables
from .wordcheck import check_words

__all__ = ["CSP", "LEVELS", "STATIC", "content_security_policy", "create_app"]

log = logging.getLogger("quiddler.web")

#: The page's files: index.html, its scripts and styles.
STATIC = Path(__file__).with_name("static")
#: The computer players a table form offers first, weakest first.
LEVELS = ("easy", "medium", "hard", "expert", "master")

#: The Content-Security-Policy of every response; ``{ws}`` becomes the
#: server's own WebSocket origins.  Scripts, styles, images and fonts come
#: from the server alone: no inline script or style element, no ``eval``.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
       "connect-src 'self' {ws}; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'")  # fmt: skip
_HOST = re.compile(r"^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$")
_TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")

_RULE_HELP = {
    "round_sizes": "Cards dealt in each round, one round per entry (official: 3 to 10).",
    "longest_word_bonus": "Points for the longest word of a round (0: no such bonus).",
    "most_words_bonus": "Points for the most words in a round (0: no such bonus).",
    "two_player_bonuses": "With two players: play both bonuses, or only 'longest' or 'most'.",
    "bonus_requires_going_out": "Only a player who went out may win a bonus.",
    "floor_at_zero": "A total never goes below zero.",
    "no_going_out_first_turn": "No going out on a player's first turn of a round.",
    "first_turn_rule_rounds": "The first-turn rule holds only in this many first rounds (null: every round).",
    "fresh_deck_each_round": "Every round is dealt from the full deck, shuffled.",
    "reshuffle_discards": "An empty draw pile is refilled from the discard pile.",
    "turn_limit": "A round nobody goes out of ends once every player has taken this many turns.",
}


def content_security_policy(host: str | None) -> str:
    ws = f"ws://{host} wss://{host}" if host is not None and _HOST.match(host) else ""
    return CSP.format(ws=ws).replace("'self' ;", "'self';")


def _hostname(host: str) -> str:
    """``host`` of a Host header without its port (IPv6 without brackets)."""
    if host.startswith("["):
        return host[1:].partition("]")[0].lower()
    return host.rpartition(":")[0].lower() if ":" in host else host.lower()


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return str(value.decode("latin-1"))
    return None


class _EdgeChecks:
    """Refuses a Host the server does not answer to; adds the security headers to every response."""

    def __init__(self, app: ASGIApp, allowed_hosts: frozenset[str] | None) -> None:
        self.app = app
        self.allowed_hosts = allowed_hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host = _header(scope, b"host")
        if self.allowed_hosts is not None and (host is None or _hostname(host) not in self.allowed_hosts):
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008})
            else:
                await PlainTextResponse("unknown host", status_code=400)(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return
        extra = [
            (b"content-security-policy", content_security_policy(host).encode("latin-1")),
            (b"x-content-type-options", b"nosniff"),
            (b"referrer-policy", b"no-referrer"),
            (b"x-frame-options", b"DENY"),
        ]

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = dict(message)
                message["headers"] = list(message.get("headers", [])) + extra
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _error(status: int, code: str, message: str, params: dict[str, Any] | None = None) -> JSONResponse:
    return JSONResponse(error_body(code, message, params), status_code=status, headers=_NO_STORE)


def _refused(status: int, exc: ProtocolError | Refusal) -> JSONResponse:
    """The error answer of a refusal: its code, message, params (and reason, a bad body's)."""
    reason = exc.reason if isinstance(exc, ProtocolError) else None
    return JSONResponse(error_body(exc.code, exc.message, exc.params, reason=reason), status_code=status,
                        headers=_NO_STORE)  # fmt: skip


_NO_STORE = {"cache-control": "no-store"}


class _Connection:
    """One WebSocket client: its seat once it said hello, and a queue of
    messages its writer task sends in order (a slow client never holds up
    the table; one too far behind is disconnected)."""

    def __init__(self, websocket: WebSocket, limits: Limits) -> None:
        self.websocket = websocket
        self.seat: int | None = None
        self.hello = False
        self._limit = limits.send_queue
        self._queue: asyncio.Queue[str | int | None] = asyncio.Queue()
        self._closing = False

    def send(self, text: str) -> None:
        if self._closing:
            return
        if self._queue.qsize() >= self._limit:
            self.close(1008)  # too far behind: it reconnects and gets the state afresh
            return
        self._queue.put_nowait(text)

    def reply(self, message: dict[str, Any]) -> None:
        self.send(dumps(message))

    def close(self, code: int) -> None:
        """Send what is queued, then close with ``code``."""
        if not self._closing:
            self._closing = True
            self._queue.put_nowait(code)

    def stop(self) -> None:
        if not self._closing:
            self._closing = True
            self._queue.put_nowait(None)

    async def write(self) -> None:
        with contextlib.suppress(Exception):  # the client went away: nothing more to send
            while True:
                item = await self._queue.get()
                if item is None:
                    return
                if isinstance(item, int):
                    await self.websocket.close(item)
                    return
                await self.websocket.send_text(item)


class _Server:
    """The app's state and its handlers."""

    def __init__(self, db: Path | str | Store, allow_origins: Sequence[str], limits: Limits,
                 workers: int | None) -> None:  # fmt: skip
        self.db = db
        self.allow_origins = frozenset(origin.rstrip("/").lower() for origin in allow_origins)
        self.limits = limits
        self.workers = workers
        self.connections = AddressCounter(limits.connections_per_address)
        self.creations = ClientRates(limits.tables_per_hour / 3600, limits.table_burst)
        self._tables: Tables | None = None
        self.rematches = Rematches()

    @property
    def tables(self) -> Tables:
        assert self._tables is not None, "the app is not started"
        return self._tables

    @contextlib.asynccontextmanager
    async def lifespan(self, app: Starlette) -> AsyncIterator[None]:
        owned = not isinstance(self.db, Store)  # a store handed in is closed by whoever opened it
        store = open_store(self.db) if not isinstance(self.db, Store) else self.db
        self._tables = Tables(store, self.limits, self.workers)
        loaded = await self.tables.resume()
        if loaded:
            log.info("resumed %d table%s from %s", loaded, "" if loaded == 1 else "s", store.shown)
        loop = asyncio.get_running_loop()
        chores = [loop.create_task(self._purge_often()), loop.create_task(self._checkpoint(store))]
        try:
            yield
        finally:
            for chore in chores:
                chore.cancel()
            await self.tables.close()
            if owned:
                store.close()

    async def _checkpoint(self, store: Store) -> None:
        """Checkpoint the database every few seconds, off the event loop (see Store.checkpoint)."""
        while True:
            await asyncio.sleep(2.0)
            try:
                await asyncio.to_thread(store.checkpoint)
            except StoreError as exc:
                log.warning("%s", exc)

    async def _purge_often(self) -> None:
        """Drop expired tables every few minutes: unjoined ones expire within the hour."""
        while True:
            await asyncio.sleep(300)
            await self.tables.purge()

    # -- checks ------------------------------------------------------------

    def origin_allowed(self, origin: str | None, scheme: str, host: str | None) -> bool:
        """The Origin is the server's own (the scheme, host and port asked
        for, the host checked by _EdgeChecks) or one allowed explicitly."""
        if origin is None or host is None:
            return False
        origin = origin.rstrip("/").lower()
        own = {"ws": "http", "wss": "https"}.get(scheme, scheme)
        return origin == f"{own}://{host.lower()}" or origin in self.allow_origins

    async def _body(self, request: Request) -> dict[str, Any]:
        if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
            raise _Refused(_error(415, "bad_request", "send the body as application/json"))
        origin = request.headers.get("origin")
        if origin is not None and not self.origin_allowed(origin, request.url.scheme, request.headers.get("host")):
            raise _Refused(_error(403, "bad_origin", f"requests from {origin} are not allowed", {"origin": origin[:100]}))
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > self.limits.max_body_bytes:
                raise _Refused(_error(413, "too_large", f"the body is over {self.limits.max_body_bytes} bytes",
                                      {"limit": self.limits.max_body_bytes}))  # fmt: skip
        try:
            return parse_body(body)
        except ProtocolError as exc:
            raise _Refused(_refused(400, exc)) from None

    async def _table(self, request: Request) -> Table:
        table_id = request.path_params["table"]
        table = await self.tables.get(table_id) if _TABLE_ID.match(table_id) else None
        if table is None:
            raise _Refused(_error(404, "no_table", "no such table"))
        return table

    # -- REST --------------------------------------------------------------

    async def new_table(self, request: Request) -> Response:
        data = await self._body(request)
        client = client_key(request.client.host if request.client is not None else "unknown")
        try:
            spec = parse_new_table(data, player_names())
            limit = self.limits.tables_per_client
            if self.tables.open_count(client) >= limit:
                return _error(429, "too_many_tables", f"you have {limit} unfinished tables on this server: "
                                                      "finish one, or wait for an unjoined one to expire",
                              {"limit": limit, "scope": "client"})  # fmt: skip
            if not self.creations.allow(client):
                return _error(429, "rate_limited", "too many new tables: wait a few minutes")
            table, invite, token = await self.tables.create(list(spec.seats), spec.rules, spec.hints, spec.name,
                                                      client=client)  # fmt: skip
        except ProtocolError as exc:
            return _refused(400, exc)
        except JoinError as exc:
            return _refused(exc.status, exc)
        return JSONResponse({"table": table.id, "invite": invite, "seat": 0, "token": token}, status_code=201,
                            headers=_NO_STORE)  # fmt: skip

    async def join(self, request: Request) -> Response:
        table = await self._table(request)
        data = await self._body(request)
        try:
            wanted = parse_join(data)
            seat, token = await table.join(wanted.invite, wanted.name)
        except ProtocolError as exc:
            return _refused(400, exc)
        except JoinError as exc:
            return _refused(exc.status, exc)
        return JSONResponse({"seat": seat, "token": token}, headers=_NO_STORE)

    async def rematch(self, request: Request) -> Response:
        table = await self._table(request)
        data = await self._body(request)
        try:
            new_id, seat, token = await self.rematches.claim(self.tables, table, parse_rematch(data))
        except ProtocolError as exc:
            return _refused(400, exc)
        except JoinError as exc:
            return _refused(exc.status, exc)
        return JSONResponse({"table": new_id, "seat": seat, "token": token}, headers=_NO_STORE)

    async def table_summary(self, request: Request) -> Response:
        table = await self._table(request)
        self.tables.forget_if_done(table)  # a finished game read from the store need not stay in memory
        return JSONResponse(table.summary(), headers=_NO_STORE)

    async def record(self, request: Request) -> Response:
        table = await self._table(request)
        if not table.over:
            return _error(403, "not_over", "the record is shown once the game is over")
        self.tables.forget_if_done(table)
        return Response(table.record_json(), media_type="application/json",
                        headers={"content-disposition": f'attachment; filename="quiddler-{table.id}.json"'})  # fmt: skip

    async def review(self, request: Request) -> Response:
        try:
            data = await table_review(await self._table(request), self.tables, request.query_params.get("seat", "0"))
        except ReviewRefused as exc:
            return _refused(exc.status, exc)
        return JSONResponse(data, headers=_NO_STORE)

    async def players(self, request: Request) -> Response:
        names = player_names()
        return JSONResponse({"players": list(names), "levels": [n for n in LEVELS if n in names], "default": "medium"})

    async def rules(self, request: Request) -> Response:
        defaults = Rules().settings()
        variants = [{"name": name, "type": _kind(value), "default": value, "help": _RULE_HELP.get(name, "")}
                    for name, value in defaults.items()]  # fmt: skip
        return JSONResponse({"defaults": defaults, "variants": variants, "min_seats": MIN_PLAYERS,
                             "max_seats": MAX_PLAYERS})  # fmt: skip

    async def page(self, request: Request) -> Response:
        index = STATIC / "index.html"
        if not index.is_file():
            return PlainTextResponse("the page is missing from this installation", status_code=404)
        return FileResponse(index, headers={"cache-control": "no-cache"})

    # -- WebSocket ---------------------------------------------------------

    async def websocket(self, websocket: WebSocket) -> None:
        host = websocket.headers.get("host")
        if not self.origin_allowed(websocket.headers.get("origin"), websocket.url.scheme, host):
            await websocket.close(1008)  # before accepting: the handshake is refused (HTTP 403)
            return
        address = client_key(websocket.client.host if websocket.client is not None else "unknown")
        if not self.connections.acquire(address):
            await websocket.close(1008)
            return
        try:
            await websocket.accept()
            connection = _Connection(websocket, self.limits)
            writer = asyncio.get_running_loop().create_task(connection.write())
            table: Table | None = None
            try:
                table_id = websocket.path_params["table"]
                table = await self.tables.get(table_id) if _TABLE_ID.match(table_id) else None
                if table is None:
                    connection.reply(error_message("no_table", "no such table"))
                    connection.close(1008)
                else:
                    await self._converse(connection, table)
            finally:
                connection.stop()
                if table is not None:
                    await table.disconnect(connection)
                await writer
        finally:
            self.connections.release(address)

    async def _converse(self, connection: _Connection, table: Table) -> None:
        """Read the client's messages until it goes, answering each."""
        limits = self.limits
        limiter = RateLimiter(limits.messages_per_second, limits.message_burst)
        while True:
            try:
                message = await asyncio.wait_for(connection.websocket.receive(), limits.idle_seconds)
            except TimeoutError:
                connection.close(1000)
                return
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            size = len(text.encode("utf-8")) if text is not None else len(message.get("bytes") or b"")
            if size > limits.max_message_bytes:
                connection.close(1009)
                return
            if not limiter.allow():
                connection.reply(error_message("rate_limited", "too many messages: slow down"))
                continue
            request: ClientMessage | None = None
            try:
                if text is None:
                    raise ProtocolError("bad_message", "send JSON text frames, not binary", reason="not_text")
                request = parse_message(text)
                await self._answer(connection, table, request)
            except ProtocolError as exc:
                connection.reply(exc.reply(message_type(request)))
            except Exception as exc:  # noqa: BLE001 - a bug answering one message must not drop the connection
                log.error("table %s: answering a message failed (%s: %s)", table.id, type(exc).__name__, exc)
                connection.reply(error_message("server_error", "the server could not answer that message",
                                               request=message_type(request)))  # fmt: skip

    async def _answer(self, connection: _Connection, table: Table, request: object) -> None:
        if isinstance(request, Ping):
            connection.reply({"type": "pong"})
            return
        if isinstance(request, Hello):
            if connection.hello:
                raise ProtocolError("bad_message", "this connection already said hello", reason="hello_twice")
            seat = None
            if request.token is not None:
                await table.take_in_missed()  # a seat taken at another process meanwhile
                seat = table.seat_of(request.token)
                if seat is None:
                    raise ProtocolError("bad_token", "that token holds no seat at this table")
            connection.seat, connection.hello = seat, True
            connection.reply({"type": "welcome", "table": table.id, "seat": seat, "hints": table.hints})
            await table.connect(connection)
            offered = self.rematches.offered_by(table)
            if offered is not None:
                connection.reply({"type": "rematch", "by": offered})
            return
        if isinstance(request, CheckRequest):
            if not connection.hello:
                raise ProtocolError("hello_first", "say hello first, with your seat's token or as a spectator")
            connection.reply(check_words(table.game.rules.words, request.words))
            return
        if not connection.hello:
            raise ProtocolError("hello_first", "say hello first, with your seat's token or as a spectator")
        seat = connection.seat
        if seat is None:
            raise ProtocolError("not_seated", "a spectator watches: only a seated player acts or asks a hint")
        if not table.full:
            raise ProtocolError("not_started", "the game starts when every seat is taken")
        if isinstance(request, ActionRequest):
            try:
                await table.act(seat, to_engine_action(request, seat))
            except IllegalActionError as exc:
                raise refusal(exc) from None
            except StoreError as exc:
                log.error("table %s: %s", table.id, exc)
                raise ProtocolError("server_error", "the move could not be saved: try again") from None
        elif isinstance(request, HintRequest):
            if not table.hints:
                raise ProtocolError("no_hints", "this table plays without hints")
            view = table.view(seat)
            if not view.my_turn:
                raise ProtocolError("not_your_turn", "a hint is for your own turn", {"turn": view.turn})
            try:
                advice = await self.tables.hint(table, view)
            except TimeoutError:
                raise ProtocolError("busy", "the hint took too long: try again") from None
            # What the values are: the expert's hints value a move in expected points.
            connection.reply({"type": "hint", "hint": advice.to_dict(), "measure": {"unit": "expected_points"}})
        elif isinstance(request, MatchRequest):
            connection.reply(match_reply(table.view(seat), request))


class _Refused(Exception):
    def __init__(self, response: Response) -> None:
        super().__init__(response.status_code)
        self.response = response


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, list):
        return "list[int]"
    if value is None:
        return "int|null"
    return "str"


def _guarded(handler: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
    async def run(request: Request) -> Response:
        try:
            return await handler(request)
        except _Refused as refused:
            return refused.response

    return run


def create_app(db: Path | str | Store, *, allow_origins: Sequence[str] = (), allowed_hosts: Sequence[str] | None = None,
               limits: Limits | None = None, workers: int | None = None) -> ASGIApp:  # fmt: skip
    """The browser game as an ASGI app, for uvicorn or any ASGI server.

    Unfinished tables in ``db`` are loaded when the app starts (its
    lifespan), their stored actions replayed through the engine, and the
    computer players play on.

    :param db: the database of tables and games: a SQLite file's path
        (``":memory:"`` keeps nothing after the app stops), a
        ``postgresql://`` URL, or a store already open (which the app
        uses and leaves open).
    :param allow_origins: origins besides the server's own whose pages may
        open a WebSocket, such as ``https://quiddler.example`` behind a proxy.
    :param allowed_hosts: the host names the server answers to; None answers
        any.  A loopback server should name its loopback names, so that DNS
        rebinding cannot reach it.
    :param limits: the server's limits (:class:`Limits`); None for the defaults.
    :param workers: threads for the computer players' decisions and the
        hints (default: the usable cores, at least 2).
    :returns: the app, wrapped in the Host header and security header checks.
    """
    server = _Server(db, allow_origins, limits or Limits(), workers)
    routes = [
        Route("/", server.page),
        Route("/t/{table}", server.page),
        Route("/api/tables", _guarded(server.new_table), methods=["POST"]),
        Route("/api/tables/{table}", _guarded(server.table_summary)),
        Route("/api/tables/{table}/join", _guarded(server.join), methods=["POST"]),
        Route("/api/tables/{table}/record", _guarded(server.record)),
        Route("/api/tables/{table}/rematch", _guarded(server.rematch), methods=["POST"]),
        Route("/api/tables/{table}/review", _guarded(server.review)),
        Route("/api/players", server.players),
        Route("/api/rules", server.rules),
        WebSocketRoute("/ws/{table}", server.websocket),
        Mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=server.lifespan)
    app.state.server = server
    hosts = None if allowed_hosts is None else frozenset(h.strip("[]").lower() for h in allowed_hosts)
    return _EdgeChecks(app, hosts)
