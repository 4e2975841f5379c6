"""The web tests' PostgreSQL: one throw-away cluster per test session
(per xdist worker), started on first use and stopped at the end even when
a test fails; each test that asks gets a fresh empty database in it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .pgcluster import Cluster


@pytest.fixture(scope="session")
def postgres() -> Iterator[Cluster]:
    cluster = Cluster()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def pg_url(postgres: Cluster) -> str:
    """A new empty database's URL (``postgresql://quiddler@127.0.0.1:PORT/NAME``)."""
    return postgres.new_database()
