"""A throw-away PostgreSQL cluster for the tests and the benchmark.

``initdb`` into a fresh temporary folder, run by an unprivileged user
(PostgreSQL refuses to run as root: as root the cluster runs as
``nobody``), listening on a free loopback port and on a socket in that
folder; stopped and removed by :meth:`Cluster.stop`, which the fixtures
call even when a test fails.  Debian's binaries are found in
``/usr/lib/postgresql/*/bin`` when they are not on the PATH (``.ci/run``
installs the ``postgresql`` package when it is missing).
"""

from __future__ import annotations

import glob
import os
import secrets
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path
from typing import Self

USER = "quiddler"


def _bin(name: str) -> str:
    found = shutil.which(name)
    if found is not None:
        return found
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if os.access(os.path.join(folder, name), os.X_OK):
            return os.path.join(folder, name)
    raise RuntimeError(f"PostgreSQL's {name} is not installed: apt-get install postgresql")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Cluster:
    """One PostgreSQL server in a temporary folder; ``url(name)`` names a database in it."""

    def __init__(self, *, durable: bool = False) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="quiddler-pg-"))
        self.data = self.folder / "data"
        self.port = _free_port()
        self._as: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.folder, "nobody")
            self._as = ["runuser", "-u", "nobody", "--"]
        self._run(_bin("initdb"), "-D", str(self.data), "-U", USER, "-A", "trust", "-E", "UTF8", "--no-sync")
        options = [f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.folder}", "-c max_connections=200"]
        if not durable:  # the tests never lose power: no sync to disk (a commit still reaches the
            # system's cache before it returns, so it survives PostgreSQL being stopped at once)
            options.append("-c fsync=off -c full_page_writes=off")
        self._options = " ".join(options)
        self.start()

    def _run(self, *command: str) -> None:
        done = subprocess.run([*self._as, *command], capture_output=True, text=True, timeout=120, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{command[0]} failed: {done.stdout}{done.stderr}")

    def start(self) -> None:
        self._run(_bin("pg_ctl"), "-D", str(self.data), "-o", self._options, "-l", str(self.folder / "log"),
                  "-w", "-t", "60", "start")  # fmt: skip

    def stop_server(self) -> None:
        """Stop PostgreSQL at once (its clients' connections drop); start() brings it back."""
        self._run(_bin("pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh empty database: its URL."""
        import psycopg

        name = "t_" + secrets.token_hex(6)
        with psycopg.connect(self.url(), autocommit=True) as db:
            db.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def stop(self) -> None:
        try:
            if (self.data / "postmaster.pid").exists():
                self.stop_server()
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
