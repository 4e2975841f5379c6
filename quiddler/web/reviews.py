"""Game reviews served once a game is over: ``GET /api/tables/{table}/review?seat=N``.

A review reads every seat's cards, so it exists only once the game is over
(before that: 409), when the record with every card is public anyway.  It
is worked out in the server's worker pool (the threads the computer
players think in, in the turn of the table's client) with the decision
time bound, and kept by table and
seat: the work of one seat is started once, and a request that gives up
waiting (503) leaves it running for the next request to collect.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any

from ..game.reviews import review
from .protocol import Refusal
from .tables import Table, Tables

__all__ = ["KEPT_REVIEWS", "ReviewRefused", "table_review"]

#: The reviews kept: the most recently asked for, by table and seat, each
#: the review's JSON or the work under way.  A finished game never changes,
#: so a review stays right for as long as it is kept; keeping it past the
#: table's stay in memory means asking again (or many times) costs nothing.
_REVIEWS: OrderedDict[tuple[str, int], asyncio.Future[dict[str, Any]]] = OrderedDict()
#: How many reviews are kept (each is tens of kilobytes of JSON).
KEPT_REVIEWS = 256


class ReviewRefused(Refusal):
    """No review (400, 409, 503)."""


def _seat(text: str, players: int) -> int:
    if text.isascii() and text.isdigit() and len(text) <= 2 and int(text) < players:
        return int(text)
    raise ReviewRefused(400, "bad_seat", f"seat must be a seat number, 0 to {players - 1}", {"max": players - 1})


async def table_review(table: Table, tables: Tables, seat_text: str) -> dict[str, Any]:
    """The review of seat ``seat_text`` at level expert, as
    :meth:`~quiddler.game.reviews.GameReview.to_dict` gives it."""
    if not table.over:
        raise ReviewRefused(409, "not_over", "the review is shown once the game is over")
    seat = _seat(seat_text, table.game.players)
    key = (table.id, seat)
    future = _REVIEWS.get(key)
    if future is None or future.cancelled() or (future.done() and future.exception() is not None):
        record = table.record_json()
        wordlist = table.game.rules.wordlist
        future = _REVIEWS[key] = tables.pool.submit(table.pool_key,
                                                    lambda: review(record, seat, wordlist=wordlist).to_dict())  # fmt: skip
        while len(_REVIEWS) > KEPT_REVIEWS:
            _REVIEWS.popitem(last=False)
    _REVIEWS.move_to_end(key)
    try:
        data = await asyncio.wait_for(asyncio.shield(future), tables.limits.decision_seconds)
    except TimeoutError:
        raise ReviewRefused(503, "busy", "the review is taking long: try again in a moment") from None
    tables.forget_if_done(table)  # a finished table nobody watches leaves memory (its reviews are kept here)
    return data
