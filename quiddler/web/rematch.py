"""Rematch: the same seats, names, rules and hints at a new table, with a
new deal, once a game is over.

The first seat to ask makes the new table, linked to the old one in the
store; every human seat of the old table has its own seat there, in the
same place, which only the holder of the old seat's token can collect,
with a fresh token (each asks for its own, once).  The new table starts
when every person has collected their seat.  The others at the old table
are told that a rematch is offered (a ``rematch`` message) and choose
whether to take their seat.  The link is kept with the table, so every
server on a shared store offers the same rematch, and after a restart
too; of two servers asked at once, one makes it and the other hands out
seats at that one.
"""

from __future__ import annotations

import asyncio
from typing import Any

from .protocol import _fields, _string
from .store import RematchRow, StaleError
from .tables import JoinError, Table, Tables

__all__ = ["Rematches", "parse_rematch"]


def parse_rematch(data: dict[str, Any]) -> str:
    """``POST /api/tables/{table}/rematch``: the asking seat's token."""
    _fields(data, "a rematch", {"token"})
    return _string(data["token"], "token")


class Rematches:
    """Making rematches, one at a time in this process."""

    def __init__(self) -> None:
        self._lock = asyncio.Lock()

    @staticmethod
    def offered_by(table: Table) -> int | None:
        """The seat that offered a rematch of this table, or None."""
        return None if table.rematch is None else table.rematch.by

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
            new = None if table.rematch is None else await tables.get(table.rematch.table_id)
            if new is None:  # none yet, or its table expired unplayed: make one
                seats = table.seats
                try:
                    new, _, _ = await tables.create([s.kind for s in seats], table.game.rules, table.hints, None,
                                                    rematch_of=(table.id, seat))  # fmt: skip
                    await table.offer_rematch(RematchRow(new.id, seat))
                except StaleError:  # another server made it first: its seats are handed out
                    await table.catch_up(frozenset({"rematch"}))
                    new = None if table.rematch is None else await tables.get(table.rematch.table_id)
                    if new is None:
                        raise JoinError(409, "rematch_taken", "the rematch is no longer kept") from None
        return new.id, seat, await new.collect(seat, table.seats[seat].name)
