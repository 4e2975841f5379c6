"""What ``--db`` may name, and what the server refuses to open.

A second server on a SQLite file another server holds is refused at start
(one line), and a server killed with SIGKILL leaves no stale lock; a URL is
opened as the database it names or refused, never taken for a file name;
another program's SQLite file is refused before anything is written to
it; a file made by an earlier quiddler, which has our tables but no
marker, is adopted and plays on.
"""

from __future__ import annotations

import asyncio
import hashlib
import shutil
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from quiddler import cli
from quiddler.game.state import Draw
from quiddler.web.limits import Limits
from quiddler.web.store import SqliteStore, StoreError
from quiddler.web.store.sqlite import APPLICATION_ID
from quiddler.web.tables import Tables

from .webtools import REPO, ServerProcess

#: A file made by quiddler before its databases were marked: one table
#: ("legacyTable1", seats Ann and Bob, four actions of a two-round game).
UNMARKED = Path(__file__).with_name("data") / "unmarked-tables.sqlite3"


def _serve(*args: str) -> tuple[int, str]:
    """``quiddler serve ARGS`` on a port that is taken: the database is
    opened (or refused) first, and a server that gets past it fails to bind
    instead of serving for ever."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        result = CliRunner().invoke(cli.main, ["serve", "--port", str(taken.getsockname()[1]), *args])
    return result.exit_code, result.output


def _one_error_line(output: str) -> str:
    assert output.startswith("Error:") and output.count("\n") == 1, output
    return output


def test_a_second_server_on_the_same_file_is_refused_and_a_killed_one_leaves_no_lock(tmp_path: Path) -> None:
    db = tmp_path / "tables.sqlite3"
    first = ServerProcess(db)
    try:
        second = subprocess.Popen([sys.executable, "-m", "quiddler.cli", "serve", "--port", "0", "--db", str(db)],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO)  # fmt: skip
        try:
            out, err = second.communicate(timeout=120)  # a second server that starts never ends: a failure
        finally:
            if second.poll() is None:
                second.kill()
                second.wait()
        assert second.returncode == 2 and out == ""
        assert "in use by another quiddler server" in _one_error_line(err) and str(db) in err
    finally:
        first.kill()  # SIGKILL: no shutdown code runs
    SqliteStore(db).close()  # the lock went with the process


@pytest.mark.parametrize("url", ["mysql://ann:s3cret@127.0.0.1/quiddler", "sqlite:///tmp/x.sqlite3",
                                 "redis://127.0.0.1:1"])  # fmt: skip
def test_a_url_of_another_database_is_refused_naming_its_scheme(url: str, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    monkeypatch.chdir(tmp_path)
    code, output = _serve("--db", url)
    scheme = url.partition(":")[0]
    assert code == 2 and f"not in {scheme}" in _one_error_line(output)
    assert "s3cret" not in output
    assert list(tmp_path.iterdir()) == [], "a folder or file was made from the URL"


def test_a_postgresql_url_is_never_taken_for_a_file_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, output = _serve("--db", "postgresql://ann:s3cret@127.0.0.1:1/quiddler")
    assert code == 2 and "postgresql://ann:***@127.0.0.1:1/quiddler" in _one_error_line(output)
    assert "s3cret" not in output
    assert list(tmp_path.iterdir()) == []


def _foreign(path: Path, *statements: str) -> bytes:
    with sqlite3.connect(path) as db:
        for statement in statements:
            db.execute(statement)
    db.close()
    return path.read_bytes()


_OUR_TABLES_TABLE = ("CREATE TABLE tables (id TEXT PRIMARY KEY, seed INTEGER NOT NULL, rules TEXT NOT NULL, "
                     "hints INTEGER NOT NULL, invite_hash TEXT NOT NULL, created REAL NOT NULL, "
                     "updated REAL NOT NULL, finished INTEGER NOT NULL DEFAULT 0)")  # fmt: skip


@pytest.mark.parametrize("statements", [
    ("CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT)", "INSERT INTO users (email) VALUES ('a@b.c')"),
    ("CREATE TABLE tables (id INTEGER PRIMARY KEY, legs INTEGER)", "INSERT INTO tables (legs) VALUES (4)"),
    (_OUR_TABLES_TABLE, "CREATE TABLE notes (body TEXT)"),
    ("PRAGMA application_id = 1196444237",),  # an empty database of another program that marks its files
], ids=["other-tables", "conflicting-table", "ours-and-more", "other-application"])  # fmt: skip
def test_another_programs_database_is_refused_and_left_as_it_was(statements: tuple[str, ...], tmp_path: Path) -> None:
    path = tmp_path / "theirs.sqlite3"
    before = _foreign(path, *statements)
    code, output = _serve("--db", str(path))
    assert code == 2 and "another program's database" in _one_error_line(output)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["theirs.sqlite3"]


def test_a_file_that_is_not_a_database_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("shopping: milk, eggs\n" * 100)
    code, output = _serve("--db", str(path))
    assert code == 2 and "not a quiddler database" in _one_error_line(output)
    assert path.read_text() == "shopping: milk, eggs\n" * 100


def test_a_database_of_a_newer_quiddler_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "newer.sqlite3"
    before = _foreign(path, f"PRAGMA application_id = {APPLICATION_ID}", "PRAGMA user_version = 99")
    with pytest.raises(StoreError, match="newer quiddler"):
        SqliteStore(path)
    assert path.read_bytes() == before


def test_a_new_file_is_marked_as_ours(tmp_path: Path) -> None:
    SqliteStore(tmp_path / "new.sqlite3").close()
    with sqlite3.connect(tmp_path / "new.sqlite3") as db:
        assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        assert db.execute("PRAGMA user_version").fetchone()[0] >= 1


def test_a_file_of_an_earlier_quiddler_is_adopted_and_its_game_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite3"
    shutil.copy(UNMARKED, path)
    store = SqliteStore(path)

    async def scenario() -> int:
        tables = Tables(store, Limits(), workers=2)
        table = await tables.get("legacyTable1")
        assert table is not None and table.full and table.moves == 4
        assert table.seat_of("token-bob") == 1 and [s.name for s in table.seats] == ["Ann", "Bob"]
        mover = table.game.turn
        await table.act(mover, Draw(mover, "pile"))
        await tables.close()
        return table.moves

    assert asyncio.run(scenario()) == 5
    store.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        assert db.execute("SELECT COUNT(*) FROM actions").fetchone()[0] == 5
        assert db.execute("SELECT invite_hash FROM tables").fetchone()[0] == hashlib.sha256(b"invite").hexdigest()
