"""Rematch: the same seats, names, rules and hints at a new table, with a
new deal, once a game is over.

The first seat to ask makes the new table; every human seat of the old
table gets its own seat there, in the same place, with a fresh token that
only the holder of the old seat's token can collect (each asks for its
own).  The others at the old table are told that a rematch is offered
(a ``rematch`` message) and choose whether to take their seat.  Offers
live in the server's memory: after a restart a finished table can be
offered a rematch again (a second new table).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from .protocol import _fields, _string, dumps
from .tables import JoinError, Table, Tables

__all__ = ["Rematches", "parse_rematch"]

#: Offers kept at once; the oldest is forgotten first (its new table goes on).
MAX_OFFERS = 1000


def parse_rematch(data: dict[str, Any]) -> str:
    """``POST /api/tables/{table}/rematch``: the asking seat's token."""
    _fields(data, "a rematch", {"token"})
    return _string(data["token"], "token")


@dataclass(slots=True)
class _Offer:
    table_id: str
    by: int
    tokens: dict[int, str] = field(default_factory=dict)  #: seats not collected yet -> their token


class Rematches:
    """The rematches offered by this server's finished tables."""

    def __init__(self) -> None:
        self._offers: OrderedDict[str, _Offer] = OrderedDict()
        self._lock = asyncio.Lock()

    def offered_by(self, table: Table) -> int | None:
        """The seat that offered a rematch of this table, or None."""
        offer = self._offers.get(table.id)
        return None if offer is None else offer.by

    async def claim(self, tables: Tables, table: Table, token: str) -> tuple[str, int, str]:
        """The token's seat at the rematch of ``table``: (new table, seat,
        token), making the rematch if it is the first to ask.  JoinError:
        403 a token of no seat, 409 a game not over or a seat collected already."""
        seat = table.seat_of(token)
        if seat is None:
            raise JoinError(403, "bad_token", "that token holds no seat at this table")
        if not table.over:
            raise JoinError(409, "not_over", "a rematch is offered once the game is over")
        async with self._lock:
            offer = self._offers.get(table.id)
            if offer is None or await tables.get(offer.table_id) is None:
                offer = await self._make(tables, table, seat)
                self._offers[table.id] = offer
                while len(self._offers) > MAX_OFFERS:
                    self._offers.popitem(last=False)
                message = dumps({"type": "rematch", "by": seat})
                for listener in list(table.listeners):
                    listener.send(message)
            new_token = offer.tokens.pop(seat, None)
        if new_token is None:
            raise JoinError(409, "rematch_taken", "this seat's place at the rematch was collected already")
        return offer.table_id, seat, new_token

    @staticmethod
    async def _make(tables: Tables, table: Table, by: int) -> _Offer:
        seats = table.seats
        new, invite, first = await tables.create([s.kind for s in seats], table.game.rules, table.hints,
                                           seats[0].name or "Player 1")  # fmt: skip
        offer = _Offer(new.id, by, {0: first})
        for number, seat in enumerate(seats[1:], start=1):
            if not seat.computer:
                taken, token = await new.join(invite, seat.name)
                assert taken == number, "the next free seat is the same seat"
                offer.tokens[number] = token
        return offer
