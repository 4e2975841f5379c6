"""The Content-Security-Policy of the server's pages: the page may open
its WebSocket only to the host it was served from, and a Host header that
is not a host name adds nothing to the policy."""

from __future__ import annotations

import pytest

from quiddler.web.app import content_security_policy


def connect_sources(policy: str) -> list[str]:
    (directive,) = [d.strip() for d in policy.split(";") if d.strip().startswith("connect-src")]
    return directive.split()[1:]


@pytest.mark.parametrize("host", ["127.0.0.1:8765", "localhost:8000", "[::1]:9000", "games.example"])
def test_the_page_may_connect_to_its_own_host_only(host: str) -> None:
    assert connect_sources(content_security_policy(host)) == ["'self'", f"ws://{host}", f"wss://{host}"]


@pytest.mark.parametrize("host", [None, "", "evil.example; script-src *", "a b", "host:123456"])
def test_a_missing_or_malformed_host_adds_no_source(host: str | None) -> None:
    policy = content_security_policy(host)
    assert connect_sources(policy) == ["'self'"]
    assert "script-src 'self';" in policy and "*" not in policy
