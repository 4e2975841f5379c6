"""The server's default limits and bounds are those the protocol page
lists, and the limits are a value."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from quiddler.web.limits import Limits
from quiddler.web.protocol import MAX_ROUNDS, MAX_TURN_LIMIT
from quiddler.web.server import PING_SECONDS, PONG_SECONDS

PAGE = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def documented_limits() -> dict[str, str]:
    """The rows of the page's Limits table: what is limited, its default."""
    text = PAGE.read_text(encoding="utf-8").split("\n## Limits\n", 1)[1]
    rows = [line for line in text.splitlines() if line.startswith("| ")][1:]  # past the header (the rule is "|---")
    table: dict[str, str] = {}
    for row in rows:
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        table[cells[0]] = cells[1]
    return table


def test_the_default_limits_are_the_protocol_pages() -> None:
    limits = Limits()
    assert documented_limits() == {
        "WebSocket message": f"{limits.max_message_bytes // 1024} KiB",
        "REST body": f"{limits.max_body_bytes // 1024} KiB",
        "messages per connection": f"{limits.messages_per_second:g} a second, bursts of {limits.message_burst}",
        "connections per client": f"{limits.connections_per_address}",
        "new tables per client": f"{limits.table_burst} at once, then {limits.tables_per_hour:g} an hour",
        "unfinished tables a client made": f"{limits.tables_per_client}",
        "unfinished tables": f"{limits.max_tables}",
        "the time to send a whole HTTP request": f"{limits.request_seconds:g} seconds from the connection's "
                                                 "opening, or from the previous response",
        "shutdown (SIGTERM, Ctrl-C)": f"{limits.shutdown_seconds:g} seconds",
        "idle connection": f"{limits.idle_seconds / 60:g} minutes without a message",
        f"an unanswered keepalive ping (sent every {PING_SECONDS:g} seconds)":
            f"{limits.decision_seconds + PONG_SECONDS:g} seconds: a decision's time and {PONG_SECONDS:g} more, "
            "as a hint holds the connection's next message back",
        "a computer's decision, a hint": f"{limits.decision_seconds:g} seconds",
        "messages queued for a slow client": f"{limits.send_queue}",
        "thinking threads for one client's tables": "half the threads (at least one)",
    }


def test_the_bounds_on_a_new_tables_rules_are_the_protocol_pages() -> None:
    text = " ".join(PAGE.read_text(encoding="utf-8").split())
    assert f"a `turn_limit` over {MAX_TURN_LIMIT}, more than {MAX_ROUNDS} rounds" in text


def test_the_limits_are_a_value() -> None:
    limits = Limits()
    with pytest.raises(dataclasses.FrozenInstanceError):
        limits.send_queue = 1  # type: ignore[misc]
    assert not hasattr(limits, "__dict__")
