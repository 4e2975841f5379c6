"""The review of a finished game over REST: refused while the game goes on
(it reads every seat's cards), then each seat's review as the library
gives it, worked out once and kept with the table."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from quiddler.game.reviews import review
from quiddler.web import reviews as reviews_module
from quiddler.web.app import create_app
from quiddler.web.limits import Limits

from .test_web_protocol import connect, hello, new_table, play_to_the_end


def app_client(path: Path, limits: Limits | None = None) -> TestClient:
    return TestClient(create_app(path, allowed_hosts=["testserver"], limits=limits))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with app_client(tmp_path / "db.sqlite3") as opened:
        yield opened


def finished_table(client: TestClient) -> tuple[str, dict[str, Any]]:
    data = new_table(client, ["human", "medium"], rules={"round_sizes": [3, 4]})
    table = data["table"]
    with connect(client, table) as ws:
        state = hello(ws, data["token"])
        assert client.get(f"/api/tables/{table}/review?seat=0").status_code == 409  # the game goes on
        play_to_the_end(ws, state)
    return table, client.get(f"/api/tables/{table}/record").json()


def test_no_review_before_the_game_is_over(client: TestClient) -> None:
    data = new_table(client, ["human", "expert"], rules={"round_sizes": [3]})
    response = client.get(f"/api/tables/{data['table']}/review?seat=1")
    assert response.status_code == 409 and response.json()["error"] == "not_over"


def test_each_seats_review_once_the_game_is_over(client: TestClient) -> None:
    table, record = finished_table(client)
    for seat in (0, 1):
        response = client.get(f"/api/tables/{table}/review", params={"seat": str(seat)})
        assert response.status_code == 200, response.text
        assert response.json() == review(record, seat).to_dict()
    assert client.get(f"/api/tables/{table}/review").json()["seat"] == 0  # the first seat by default


@pytest.mark.parametrize("seat", ["2", "-1", "x", "", "0x1", "١"])
def test_a_seat_that_is_not_at_the_table_is_refused(client: TestClient, seat: str) -> None:
    table, _ = finished_table(client)
    response = client.get(f"/api/tables/{table}/review", params={"seat": seat})
    assert response.status_code == 400 and response.json()["error"] == "bad_seat"


def test_a_review_is_worked_out_once_per_seat(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    table, _ = finished_table(client)
    calls: list[int] = []
    real = reviews_module.review

    def counted(record: Any, seat: int, **options: Any) -> Any:
        calls.append(seat)
        return real(record, seat, **options)

    monkeypatch.setattr(reviews_module, "review", counted)
    first = client.get(f"/api/tables/{table}/review?seat=1").json()
    for _ in range(3):  # asked again, by anyone, also once the table has left the server's memory
        assert client.get(f"/api/tables/{table}/review?seat=1").json() == first
    assert client.get(f"/api/tables/{table}/review?seat=0").status_code == 200
    assert calls == [1, 0]


def test_an_unknown_table_is_404(client: TestClient) -> None:
    assert client.get("/api/tables/nosuchtable/review?seat=0").status_code == 404


def test_reviews_have_a_time_bound(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with app_client(tmp_path / "db.sqlite3", Limits(decision_seconds=0.05)) as slow:
        a_slow_review_is_collected_later(slow, monkeypatch)


def a_slow_review_is_collected_later(slow: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    table, _ = finished_table(slow)
    release = threading.Event()
    real = reviews_module.review

    def stuck(record: Any, seat: int, **options: Any) -> Any:
        release.wait(30)
        return real(record, seat, **options)

    monkeypatch.setattr(reviews_module, "review", stuck)
    try:
        response = slow.get(f"/api/tables/{table}/review?seat=0")
        assert response.status_code == 503 and response.json()["error"] == "busy"
        release.set()
        for _ in range(200):  # the work goes on: a later request collects it
            response = slow.get(f"/api/tables/{table}/review?seat=0")
            if response.status_code == 200:
                break
        assert response.status_code == 200 and response.json()["seat"] == 0
    finally:
        release.set()
