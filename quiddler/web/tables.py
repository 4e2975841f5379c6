"""The tables in play: one :class:`Table` per game, held by :class:`Tables`.

A table owns its :class:`~quiddler.game.Game` (the one mutable game
object), its seats and the connections watching it.  Everything that
changes a table happens under the table's :class:`asyncio.Lock`, so the
actions at one table are applied one at a time, in the order accepted,
while other tables go on.  An accepted action is written to the store
*before* it is applied and before any client hears of it: what a player
has seen acknowledged survives a crash.

Computer players decide off the event loop, in a thread pool (the solver's
compiled kernels release the GIL) shared fairly among the clients who made
the tables (:mod:`~quiddler.web.thinking`), with a time bound: a decision
that takes longer, or a player that fails, is replaced by a plain legal
move, so no table waits forever and a busy table never stalls the others.  Each decision is seeded from
the game seed and where it falls in the game (as in ``quiddler play``), so
a table rebuilt after a restart plays on as it would have.

Several processes may serve the same tables from one shared store: what
another process stored is caught up with before a write goes on top of it
(:meth:`Table.catch_up`), and :mod:`~quiddler.web.coordination` says how
each process hears of it and which one plays a computer's move.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import hashlib
import hmac
import logging
import os
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from ..cards import Card
from ..errors import IllegalActionError
from ..game.decisions import computer_action
from ..game.engine import Game
from ..game.hints import Hint, hint
from ..game.record import game_record
from ..game.rules import Rules
from ..game.state import Action, Discard, Draw, LayDown, Phase, PlayerView, action_from_dict
from .coordination import CHANGES, Coordinator
from .limits import Limits
from .protocol import ProtocolError, Refusal, dumps, encode_view, spectator_view
from .store import RematchRow, SeatRow, StaleError, Store, StoreError, TableRow
from .thinking import FairPool

__all__ = ["HUMAN", "JoinError", "Listener", "SeatState", "Table", "Tables", "computer_action", "hash_secret"]

log = logging.getLogger("quiddler.web")

#: Finished games kept in memory after their page or record was read, the latest ones.
FINISHED_AT_HAND = 256
#: A seat kind: a person; every other kind is a computer player's name.
HUMAN = "human"

T = TypeVar("T")

#: Threads (and connections) a process calls a shared store from.  A commit
#: waits for the database's disk; PostgreSQL lets commits that wait at once
#: share one flush, so the moves stored a second grow with the threads.
STORE_THREADS = 16
#: How long a table nobody here is connected to, and that other processes
#: change, stays in memory after it was last asked for (seconds): far longer
#: than a connection takes from its arrival to its hello.
UNSERVED_SECONDS = 120.0


def hash_secret(secret: str) -> str:
    """How tokens and invites are stored: their SHA-256, in hex."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def secret_matches(secret: str, stored_hash: str | None) -> bool:
    """Whether ``secret`` hashes to ``stored_hash``, compared in constant time."""
    if stored_hash is None:
        return False
    return hmac.compare_digest(hash_secret(secret), stored_hash)


def new_token() -> str:
    return secrets.token_urlsafe(32)


def new_invite() -> str:
    return secrets.token_urlsafe(12)


def new_table_id() -> str:
    return secrets.token_urlsafe(9)


class Listener(Protocol):
    """A connection watching a table: its seat (None: a spectator) and a way
    to queue a message to it without waiting."""

    seat: int | None

    def send(self, text: str) -> None: ...


@dataclass(slots=True)
class SeatState:
    kind: str
    name: str | None
    token_hash: str | None
    #: A computer seat whose player failed (raised) since the server started: a
    #: plain legal move was played in its place, and the players are told.
    fallback: bool = False

    @property
    def computer(self) -> bool:
        return self.kind != HUMAN

    @property
    def taken(self) -> bool:
        return self.computer or self.token_hash is not None


class JoinError(Refusal):
    """A join, a rematch's seat or a new table refused (403, 404, 409, 503)."""


def plain_action(view: PlayerView) -> Action:
    """A legal move that needs no thought: what a computer plays when its
    decision runs out of time (draw blind; shed the costliest card)."""
    if view.phase is Phase.DRAW:
        return Draw(view.seat, "pile" if view.may_draw_from_pile or view.discard_top is None else "discard")
    card: Card = max(view.hand, key=lambda c: c.points)
    if view.final_turn:
        return LayDown(view.seat, (), card)
    return Discard(view.seat, card)


class Table:
    """One game at one table."""

    def __init__(self, host: Tables, table_id: str, game: Game, seats: list[SeatState], hints: bool,
                 invite_hash: str, moves: int, rematch: RematchRow | None = None) -> None:  # fmt: skip
        self.host = host
        self.id = table_id
        self.game = game
        self.seats = seats
        self.hints = hints
        self.invite_hash = invite_hash
        self.moves = moves  #: actions accepted (stored) so far
        self.lock = asyncio.Lock()
        self.listeners: set[Listener] = set()
        #: Seats connected to other processes (a shared store), as last read.
        self.elsewhere: frozenset[int] = frozenset()
        #: What other processes changed while this one served the table to
        #: nobody (of :data:`~quiddler.web.coordination.CHANGES`), not read yet.
        self.missed: frozenset[str] = frozenset()
        self.fetched = time.monotonic()  #: when :meth:`Tables.get` last handed it out
        #: The rematch offered, once the game is over (:mod:`~quiddler.web.rematch`).
        self.rematch = rematch
        self._computer_task: asyncio.Task[None] | None = None
        self.client: str | None = None  #: who made it (this run of the server only), for the per-client limits
        self._version = 0  # bumps on every change a message shows
        self._cache: dict[int | None, str] = {}
        self._cache_version = -1
        self._record: str | None = None

    # -- reading -------------------------------------------------------------

    @property
    def full(self) -> bool:
        return all(seat.taken for seat in self.seats)

    @property
    def over(self) -> bool:
        return self.game.over

    @property
    def playing(self) -> bool:
        """Whether this process is playing the table's computer seats now."""
        return self._computer_task is not None

    def names(self) -> list[str]:
        """Each seat's name in the record: a person's display name, a computer's level."""
        return [seat.kind if seat.computer else (seat.name or f"player{i}") for i, seat in enumerate(self.seats)]

    def seat_of(self, token: str) -> int | None:
        """The seat whose token this is; every seat is compared (in constant time)."""
        digest = hash_secret(token)
        found = None
        for number, seat in enumerate(self.seats):
            if seat.token_hash is not None and hmac.compare_digest(digest, seat.token_hash):
                found = number
        return found

    def connected(self) -> set[int]:
        """The seats with a connection, to this process or another."""
        return self._seats_here() | self.elsewhere

    def _seats_here(self) -> set[int]:
        return {listener.seat for listener in self.listeners if listener.seat is not None}

    def seats_json(self) -> list[dict[str, Any]]:
        connected = self.connected()
        return [
            {"seat": number, "kind": seat.kind, "name": seat.kind if seat.computer else seat.name,
             "taken": seat.taken, "connected": seat.computer or number in connected, "fallback": seat.fallback}
            for number, seat in enumerate(self.seats)
        ]  # fmt: skip

    def summary(self) -> dict[str, Any]:
        """The public facts of the table (``GET /api/tables/{table}``)."""
        rules = self.game.rules.settings()
        rules["wordlist"] = self.game.rules.words.name
        return {"table": self.id, "seats": self.seats_json(), "started": self.full, "over": self.over,
                "hints": self.hints, "rules": rules}  # fmt: skip

    def record_json(self) -> str:
        """The game record as JSON text (built once: a finished game does not change)."""
        if self._record is None:
            self._record = dumps(game_record(self.game, self.names()))
        return self._record

    def message_for(self, seat: int | None) -> str:
        """The lobby or state message for a seat (None: a spectator), cached until the table changes."""
        if self._cache_version != self._version:
            self._cache.clear()
            self._cache_version = self._version
        text = self._cache.get(seat)
        if text is None:
            if not self.full:
                message: dict[str, Any] = {"type": "lobby", "seats": self.seats_json()}
            else:
                view = spectator_view(self.game) if seat is None else encode_view(self.game.view(seat))
                message = {"type": "state", "view": view, "seats": self.seats_json(), "moves": self.moves,
                           "hints": self.hints}  # fmt: skip
            text = self._cache[seat] = dumps(message)
        return text

    def broadcast(self) -> None:
        """Tell every listener the table as it is now (called under the lock)."""
        self._version += 1
        for listener in list(self.listeners):
            listener.send(self.message_for(listener.seat))

    # -- changing ------------------------------------------------------------

    async def connect(self, listener: Listener) -> None:
        async with self.lock:
            await self._take_in_missed()
            seat, shown = listener.seat, self.connected()
            first_here = seat not in self._seats_here()
            self.listeners.add(listener)
            if seat is not None and first_here:
                await self._mark_connected(seat, True)
            if self.connected() != shown:
                self.broadcast()  # the others see the seat come online
            else:
                listener.send(self.message_for(seat))

    async def disconnect(self, listener: Listener) -> None:
        async with self.lock:
            if listener not in self.listeners:
                return
            seat, shown = listener.seat, self.connected()
            self.listeners.discard(listener)
            if seat is not None and seat not in self._seats_here():
                await self._mark_connected(seat, False)
            if self.connected() != shown:
                self.broadcast()
        self.host.forget_if_done(self)

    async def _mark_connected(self, seat: int, connected: bool) -> None:
        """Tell the other processes whether this one holds a connection of
        the seat, and read theirs again (a shared store: a process that
        died is no longer counted).  Only what is shown depends on it, so a
        database out of reach leaves it as it was."""
        store = self.host.store
        if not store.shared:
            return
        try:
            await self.host.stored(store.mark_connected, self.id, seat, connected)
            self.elsewhere = await self.host.stored(store.connected_elsewhere, self.id)
        except StoreError as exc:
            log.warning("table %s: %s", self.id, exc)

    async def remark_connected(self) -> None:
        """The connection to the database is back: say again which seats
        this process holds (a process's marks are dropped while it is away)."""
        async with self.lock:
            for seat in self._seats_here():
                await self._mark_connected(seat, True)

    async def join(self, invite: str, name: str | None) -> tuple[int, str]:
        """Give the next free human seat to the holder of the invite: its
        number and its token (shown once, stored only hashed)."""
        async with self.lock:
            if not secret_matches(invite, self.invite_hash):
                raise JoinError(403, "bad_invite", "that is not this table's invite")
            while True:
                free = next((n for n, seat in enumerate(self.seats) if not seat.taken), None)
                if free is None:
                    raise JoinError(409, "table_full", "every seat at this table is taken")
                try:
                    token = await self._take(free, name if name is not None else f"Player {free + 1}")
                    break
                except StaleError:  # another process gave that seat away first
                    await self._catch_up()
        self.start_computers()
        return free, token

    async def collect(self, seat: int, name: str | None) -> str:
        """Give seat ``seat`` of a rematch to its person: a new token
        (JoinError 409 if the seat was collected already, here or elsewhere)."""
        async with self.lock:
            try:
                token = await self._take(seat, name or f"Player {seat + 1}")
            except StaleError:
                raise JoinError(409, "rematch_taken", "this seat's place at the rematch was collected already") from None
        self.start_computers()
        return token

    async def _take(self, seat: int, name: str) -> str:
        """Store the free seat as taken by ``name``, then show it (under the
        lock): a new token; StaleError if the seat is not free in the store."""
        if self.seats[seat].taken:
            raise StaleError(f"seat {seat} of table {self.id} is taken")
        token = new_token()
        token_hash = hash_secret(token)
        await self.host.stored(self.host.store.take_seat, self.id, seat, name, token_hash)
        self.seats[seat].name, self.seats[seat].token_hash = name, token_hash
        self.broadcast()
        return token

    async def offer_rematch(self, rematch: RematchRow) -> None:
        """A rematch of this finished table was made (here or elsewhere): tell
        every connection, once."""
        async with self.lock:
            self._offered(rematch)

    def _offered(self, rematch: RematchRow) -> None:
        if self.rematch != rematch:
            self.rematch = rematch
            message = dumps({"type": "rematch", "by": rematch.by})
            for listener in list(self.listeners):
                listener.send(message)

    async def act(self, seat: int, action: Action) -> None:
        """Apply a person's action for ``seat``: checked by the engine,
        stored, applied, then shown to everyone.  Raises ProtocolError
        (``not_started``) or the engine's IllegalActionError."""
        async with self.lock:
            if not self.full and self.host.store.shared:
                await self._catch_up()
            if not self.full:
                raise ProtocolError("not_started", "the game starts when every seat is taken")
            while True:
                self.game.legal(action)
                try:
                    await self._commit(action)
                    break
                except StaleError:  # another process stored a move first: try again on top of it
                    await self._catch_up()
        self.start_computers()

    async def _commit(self, action: Action) -> None:
        """Store, then apply, a legal action and broadcast (under the lock)."""
        store = self.host.store
        await self.host.stored(store.append_action, self.id, self.moves, action.to_dict())
        self.moves += 1
        self.game.apply(action)
        if self.game.over:
            await self.host.stored(store.mark_finished, self.id)
        self.broadcast()

    def view(self, seat: int) -> PlayerView:
        return self.game.view(seat)

    async def _catch_up(self, changed: frozenset[str] = CHANGES) -> None:
        """Take in what other processes stored since this table last looked
        (``changed``: what to read again, of :data:`CHANGES`), and tell the
        listeners if anything changed (under the lock)."""
        store, stored = self.host.store, self.host.stored
        if "seat" in changed:
            rows = await stored(store.seats, self.id)
            seated = False
            for seat, row in zip(self.seats, rows, strict=True):
                if (seat.name, seat.token_hash) != (row.name, row.token_hash):
                    seat.name, seat.token_hash = row.name, row.token_hash
                    seated = True
            if seated:
                self.broadcast()
        if "action" in changed:
            for data in await stored(store.actions_since, self.id, self.moves):  # one state per move, as sent
                self.game.apply(action_from_dict(data))
                self.moves += 1
                self.broadcast()
        if "presence" in changed and store.shared:
            elsewhere = await stored(store.connected_elsewhere, self.id)
            if elsewhere != self.elsewhere:
                self.elsewhere = elsewhere
                self.broadcast()
        if "rematch" in changed and self.over:
            rematch = await stored(store.rematch, self.id)
            if rematch is not None:
                self._offered(rematch)

    async def _take_in_missed(self) -> None:
        """Read what other processes changed while nobody here was served
        the table, and what they change meanwhile (under the lock).  A
        database out of reach leaves the table as last read, the rest still
        to be read."""
        while self.missed:
            missed, self.missed = self.missed, frozenset()
            try:
                await self._catch_up(missed)
            except StoreError as exc:
                self.missed |= missed
                log.warning("table %s: %s", self.id, exc)
                return

    async def take_in_missed(self) -> None:
        """Read what other processes changed while nobody here was served the table."""
        if self.missed:
            async with self.lock:
                await self._take_in_missed()

    async def catch_up(self, changed: frozenset[str] = CHANGES) -> None:
        """Another process changed the table (``changed``, of :data:`CHANGES`):
        take it in, tell the listeners, and let the computers play if it is their turn."""
        async with self.lock:
            await self._catch_up(changed)
        self.start_computers()
        self.host.forget_if_done(self)

    # -- computer players ----------------------------------------------------

    @property
    def pool_key(self) -> str:
        """Whose share of the thinking threads this table's work takes: its
        client's, or (a table resumed after a restart) its own."""
        return self.client if self.client is not None else f"table {self.id}"

    def _computer_to_move(self) -> bool:
        return self.full and not self.game.over and self.seats[self.game.turn].computer

    def start_computers(self) -> None:
        """Let the computer seats play, if one is to move (one task per table)."""
        if self._computer_task is None and self._computer_to_move():
            self._computer_task = asyncio.get_running_loop().create_task(self._play_computers())
            self._computer_task.add_done_callback(self._computers_done)

    def _computers_done(self, task: asyncio.Task[None]) -> None:
        self._computer_task = None
        if not task.cancelled() and task.exception() is not None:
            log.error("table %s: the computer players stopped", self.id, exc_info=task.exception())

    async def _play_computers(self) -> None:
        coordinator = self.host.coordinator
        while True:
            async with self.lock:
                if not self._computer_to_move():
                    return
                seat = self.game.turn
                view = self.game.view(seat)
                moves = self.moves
                strategy = self.seats[seat].kind
                if not await coordinator.claim(self.id, moves):  # another process plays this move
                    coordinator.try_again_later(self)
                    return
            # Decided outside the lock: the table still answers (errors, hints refused) meanwhile.
            keeping = asyncio.get_running_loop().create_task(coordinator.keep(self.id, moves))
            try:
                action = await self.host.decide(self, strategy, view)
            except Exception as exc:  # noqa: BLE001 - a player's bug must not stop the game: it goes on, says so
                log.error("table %s: the %s player failed (%s: %s): playing a plain move", self.id, strategy,
                          type(exc).__name__, exc)  # fmt: skip
                action = plain_action(view)
                self.seats[seat].fallback = True
            finally:
                keeping.cancel()
            async with self.lock:
                if self.moves != moves:
                    continue  # caught up meanwhile with a move stored elsewhere; look again
                try:
                    self.game.legal(action)
                except IllegalActionError as exc:
                    log.error("table %s: %s played an illegal move (%s); playing a plain one", self.id, strategy, exc)
                    action = plain_action(view)
                try:
                    await self._commit(action)
                except StaleError:  # another process played it after all (its lease had run out)
                    await self._catch_up()

    async def stop(self) -> None:
        task = self._computer_task
        if task is not None:
            task.cancel()
            try:
                await task
            except asyncio.CancelledError:
                pass


class Tables:
    """Every table the server holds, the store behind them and the thread
    pool the computer players think in."""

    def __init__(self, store: Store, limits: Limits | None = None, workers: int | None = None) -> None:
        self.store = store
        self.limits = limits or Limits()
        self.tables: dict[str, Table] = {}
        self.coordinator = Coordinator(self)
        workers = workers or max(2, os.cpu_count() or 2)
        #: One client's tables think in at most half the threads, so a flood cannot starve the others.
        self.pool = FairPool(workers, share=workers // 2)
        #: The threads a shared store is called from, each with its own connection: commits wait for
        #: the disk together, so more threads store more moves a second (see STORE_THREADS).
        self._store_threads = (concurrent.futures.ThreadPoolExecutor(STORE_THREADS, thread_name_prefix="quiddler-store")
                               if store.shared else None)  # fmt: skip
        #: Per table, the hint being worked out: the view it is for, and its answer to come.
        self._hinting: dict[str, tuple[PlayerView, asyncio.Future[Hint]]] = {}
        self._finished: OrderedDict[str, Table] = OrderedDict()  # finished games read lately, oldest first

    # -- the store, and thinking off the event loop ---------------------------

    async def stored(self, call: Callable[..., T], *args: Any) -> T:
        """Run a store call: on a shared store in a thread (a database round
        trip, a commit waiting for the disk, never holds up the event loop,
        and the commits of different tables go on at once); on SQLite, here."""
        if self._store_threads is not None:
            return await asyncio.get_running_loop().run_in_executor(self._store_threads, call, *args)
        return call(*args)

    async def decide(self, table: Table, strategy: str, view: PlayerView) -> Action:
        """A computer seat's move, worked out in the pool in the turn of the
        table's client; a plain one if it takes too long.  A player that
        raises raises here."""
        try:
            return await self.pool.run(table.pool_key, lambda: computer_action(strategy, table.game.seed, view),
                                       self.limits.decision_seconds)  # fmt: skip
        except TimeoutError:
            log.warning("a %s decision took over %.0f s: playing a plain move", strategy, self.limits.decision_seconds)
            return plain_action(view)

    async def hint(self, table: Table, view: PlayerView) -> Hint:
        """The expert's hint for the view, worked out one at a time per
        table.  Asked again for the view whose hint is under way (one that
        took too long goes on, and the person asks again), it waits for that
        one; for another view it is refused (ProtocolError ``busy``).
        TimeoutError if it takes too long."""
        running = self._hinting.get(table.id)
        if running is not None and running[0] != view:
            raise ProtocolError("busy", "a hint for this table is still being worked out: try again")
        if running is not None:
            done = running[1]
        else:
            done = self.pool.submit(table.pool_key, lambda: hint(view))
            self._hinting[table.id] = (view, done)
            done.add_done_callback(lambda _: self._hinting.pop(table.id, None))
        try:
            return await asyncio.wait_for(asyncio.shield(done), self.limits.decision_seconds)
        except TimeoutError:
            self.pool.drop(table.pool_key, done)
            raise
        except asyncio.CancelledError:
            if done.cancelled():  # dropped before it started, when another request for it timed out
                raise TimeoutError from None
            raise

    # -- tables ----------------------------------------------------------

    def open_count(self, client: str | None = None) -> int:
        """Unfinished tables held: all of them, or those ``client`` made since the server started."""
        return sum(1 for table in self.tables.values() if not table.over and client in (None, table.client))

    async def create(self, kinds: list[str], rules: Rules, hints: bool, name: str | None,
                     seed: int | None = None, client: str | None = None,
                     rematch_of: tuple[str, int] | None = None) -> tuple[Table, str, str]:  # fmt: skip
        """A new table with the creator in seat 0: (table, invite, token).
        ``seed`` fixes the deal (tests); by default it is random.
        ``client`` is who asked (see :func:`~quiddler.web.limits.client_key`),
        for the per-client limits; it is kept in memory only.  With ``name``
        None every seat is left free.  ``rematch_of`` (a finished table, the
        seat asking) makes it that table's rematch: StaleError if it has one
        already.  Raises JoinError (503) when the server holds its maximum of tables."""
        if self.open_count() >= self.limits.max_tables:
            raise JoinError(503, "too_many_tables", f"the server holds its maximum of {self.limits.max_tables} "
                                                    "tables: try again later",
                            {"limit": self.limits.max_tables, "scope": "server"})  # fmt: skip
        game = Game(len(kinds), rules=rules, seed=seed)
        table_id = new_table_id()
        while table_id in self.tables or await self.stored(self.store.load, table_id) is not None:
            table_id = new_table_id()
        invite, token = new_invite(), new_token()
        seats = [SeatState(HUMAN, name, None if name is None else hash_secret(token))]
        seats += [SeatState(kind, None, None) for kind in kinds[1:]]
        await self.stored(self.store.create_table, table_id, game.seed, rules.settings(), hints, hash_secret(invite),
                          [SeatRow(s.kind, s.name, s.token_hash) for s in seats], rematch_of)  # fmt: skip
        table = Table(self, table_id, game, seats, hints, hash_secret(invite), 0)
        table.client = client
        self.tables[table_id] = table
        table.start_computers()
        return table, invite, token

    async def get(self, table_id: str) -> Table | None:
        """The table, from memory or rebuilt from the store; None if there is none."""
        table = self.tables.get(table_id)
        if table is None:
            table = self._finished.pop(table_id, None)
            if table is not None and self.store.shared:
                table.missed = CHANGES  # out of play, it heard no notes (a rematch offered elsewhere)
            elif table is None:
                row = await self.stored(self.store.load, table_id)
                if row is None:
                    return None
                table = self._rebuild(row)
                if table is None:
                    return None
                if table.over and not row.finished:
                    await self.stored(self.store.mark_finished, row.id)  # killed between its last move and this
            self.tables[table_id] = table
        table.fetched = time.monotonic()
        await table.take_in_missed()
        table.start_computers()  # a computer to move plays on (on a shared store, unless another process is)
        return table

    def _rebuild(self, row: TableRow) -> Table | None:
        """The table as its last stored action left it: the seed, the rules
        and every action replayed through the engine."""
        try:
            game = Game(len(row.seats), seed=row.seed, rules=Rules.from_dict(row.rules))
            for data in row.actions:
                game.apply(action_from_dict(data))
        except (ValueError, TypeError, KeyError) as exc:
            log.error("table %s does not replay (%s): left out", row.id, exc)
            return None
        seats = [SeatState(s.kind, s.name, s.token_hash) for s in row.seats]
        return Table(self, row.id, game, seats, row.hints, row.invite_hash, len(row.actions), row.rematch)

    async def resume(self) -> int:
        """Load every unfinished table and let its computers play on (and,
        on a shared store, start hearing the other processes); how many were loaded."""
        await self.coordinator.start()
        await self.purge()
        for row in await self.stored(self.store.unfinished):
            if row.id not in self.tables:
                table = self._rebuild(row)
                if table is not None:
                    if table.over:  # killed between its last action and marking it over
                        await self.stored(self.store.mark_finished, row.id)
                    self.tables[row.id] = table
        for table in self.tables.values():
            table.start_computers()
        return len(self.tables)

    async def purge(self) -> None:
        """Drop what is kept no longer (see :class:`~quiddler.web.limits.Limits`)."""
        now, day, limits = time.time(), 86400.0, self.limits
        gone = await self.stored(functools.partial(self.store.purge, finished_before=now - limits.keep_finished_days * day,
                                                   unfinished_before=now - limits.keep_unfinished_days * day,
                                                   lobby_before=now - limits.keep_lobby_days * day))  # fmt: skip
        for table_id in gone:
            self.tables.pop(table_id, None)
            self._finished.pop(table_id, None)
        # Tables other processes play that nobody here has asked for lately:
        # rebuilt from the store if someone does (see the coordination module).
        idle = time.monotonic() - UNSERVED_SECONDS
        for table in [t for t in self.tables.values() if t.missed and not t.listeners and not t.playing]:
            if table.fetched < idle:
                del self.tables[table.id]

    def forget_if_done(self, table: Table) -> None:
        """A finished game nobody watches leaves the tables in play (the store
        keeps it); the last few read stay at hand, so that reading one again
        (its page, its record) does not replay the whole game each time."""
        if table.over and not table.listeners and self.tables.get(table.id) is table:
            del self.tables[table.id]
            self._finished[table.id] = table
            while len(self._finished) > FINISHED_AT_HAND:
                self._finished.popitem(last=False)

    async def close(self) -> None:
        self.coordinator.stop()
        for table in list(self.tables.values()):
            await table.stop()
        self.pool.close()
        if self._store_threads is not None:
            self._store_threads.shutdown(wait=False, cancel_futures=True)
