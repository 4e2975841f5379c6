"""The nginx configuration of the serving-at-scale page, tested as written:
Debian's nginx, started on a free loopback port with that configuration
(the page's name and ports put in), in front of two ``quiddler serve``
processes on one PostgreSQL database.  The page and the API pass through,
WebSockets are upgraded, a game is played with its two people on the two
processes, and the Host and Origin checks still hold behind the proxy."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from .webtools import REPO, ServerProcess, loads

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
PAGE = REPO / "docs" / "serve-at-scale.md"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def site_config(ports: tuple[int, int], listen: int) -> str:
    """The page's first nginx block, on this machine's ports, answering localhost as well as its name."""
    block = re.search(r"```nginx\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.DOTALL)
    assert block is not None, "the page has no nginx block"
    text = block.group(1)
    for old in ("127.0.0.1:8001", "127.0.0.1:8002", "listen 80", "quiddler.example"):
        assert old in text, old
    return (text.replace("127.0.0.1:8001", f"127.0.0.1:{ports[0]}").replace("127.0.0.1:8002", f"127.0.0.1:{ports[1]}")
            .replace("listen 80", f"listen 127.0.0.1:{listen}").replace("server_name quiddler.example;", "server_name quiddler.example localhost;"))  # fmt: skip


class Nginx:
    """nginx in the foreground of a temporary folder: its pid, logs and temporary files there."""

    def __init__(self, site: str, port: int) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="quiddler-nginx-"))
        self.port = port
        for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (self.folder / name).mkdir()
        if _root():  # the workers run as nobody and write the temporary files
            for folder in (self.folder, *(self.folder / n for n in ("body", "proxy", "fastcgi", "uwsgi", "scgi"))):
                shutil.chown(folder, "nobody")
        (self.folder / "site.conf").write_text(site)
        temp = " ".join(f"{name}_temp_path {self.folder / name};" for name in ("proxy", "fastcgi", "uwsgi", "scgi"))
        (self.folder / "nginx.conf").write_text(
            f"daemon off;\npid {self.folder / 'nginx.pid'};\nerror_log {self.folder / 'error.log'} warn;\n"
            f"worker_processes 1;\n{'user nobody nogroup;' if _root() else ''}\nevents {{ worker_connections 256; }}\n"
            f"http {{\n log_format upstream '$upstream_addr $status';\n"
            f" access_log {self.folder / 'access.log'} upstream;\n client_body_temp_path {self.folder / 'body'};\n"
            f" {temp}\n include {self.folder / 'site.conf'};\n}}\n"
        )  # fmt: skip
        self.process = subprocess.Popen([NGINX, "-p", str(self.folder), "-c", str(self.folder / "nginx.conf")],
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)  # fmt: skip
        deadline = time.monotonic() + 60
        while True:  # until nginx answers on its port (or has exited)
            assert self.process.poll() is None, self.log()
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, self.log()
                time.sleep(0.05)

    def log(self) -> str:
        path = self.folder / "error.log"
        return path.read_text() if path.exists() else ""

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


def _root() -> bool:
    return os.geteuid() == 0


@pytest.fixture
def proxied(pg_url: str) -> Iterator[tuple[Nginx, ServerProcess, ServerProcess]]:
    port = _free_port()
    origin = f"http://localhost:{port}"
    proxy = ("--allow-origin", origin, "--trusted-proxy", "127.0.0.1")  # as the page says to start them
    with ServerProcess(pg_url, *proxy) as first, \
            ServerProcess(pg_url, *proxy) as second:  # type: ignore[arg-type]  # fmt: skip
        nginx = Nginx(site_config((first.port, second.port), port), port)
        try:
            yield nginx, first, second
        finally:
            nginx.stop()


def test_the_documented_nginx_config_serves_a_game_over_both_processes(proxied: tuple[Nginx, ServerProcess,
                                                                                      ServerProcess]) -> None:  # fmt: skip
    nginx, first, second = proxied
    base = f"http://localhost:{nginx.port}"
    page = httpx.get(base + "/", timeout=30)
    assert page.status_code == 200 and "content-security-policy" in page.headers
    named = httpx.get(f"http://127.0.0.1:{nginx.port}/api/players", headers={"host": "quiddler.example"}, timeout=30)
    assert named.status_code == 200  # the site's own name reaches the servers, which answer only loopback names
    table = httpx.post(base + "/api/tables", json={"seats": ["human", "human"], "rules": {"round_sizes": [3]}},
                       headers={"origin": base}, timeout=30).json()  # fmt: skip
    bob = httpx.post(f"{base}/api/tables/{table['table']}/join", json={"invite": table["invite"]},
                     headers={"origin": base}, timeout=30).json()  # fmt: skip
    sockets = []
    for token in (table["token"], bob["token"]):
        ws = connect(f"ws://localhost:{nginx.port}/ws/{table['table']}", origin=base, open_timeout=30).__enter__()  # type: ignore[arg-type]
        ws.send(json.dumps({"type": "hello", "token": token}))
        sockets.append(ws)

    def next_state(ws: object) -> dict[str, object]:
        while True:
            message = loads(str(ws.recv(timeout=60)))  # type: ignore[attr-defined]
            if message["type"] == "state":
                return message
            assert message["type"] in ("welcome", "lobby"), message

    states = [next_state(ws) for ws in sockets]
    mover = next(i for i, s in enumerate(states) if s["view"]["my_turn"])  # type: ignore[index]
    sockets[mover].send(json.dumps({"type": "action", "action": {"type": "draw", "source": "pile"}}))
    for ws in sockets:  # (a state saying the other person came online may come first)
        while next_state(ws)["moves"] != 1:
            pass
    upstreams = {line.split()[0] for line in (nginx.folder / "access.log").read_text().splitlines()}
    assert {f"127.0.0.1:{first.port}", f"127.0.0.1:{second.port}"} <= upstreams
    for ws in sockets:
        ws.close()


def test_behind_the_proxy_the_host_and_origin_checks_still_hold(proxied: tuple[Nginx, ServerProcess,
                                                                               ServerProcess]) -> None:  # fmt: skip
    nginx, first, _ = proxied
    base = f"http://localhost:{nginx.port}"
    with pytest.raises(httpx.RemoteProtocolError):  # another name: nginx drops the request
        httpx.get(f"http://127.0.0.1:{nginx.port}/", headers={"host": "rebound.example"}, timeout=30)
    table = httpx.post(base + "/api/tables", json={"seats": ["human", "easy"]}, timeout=30).json()
    for origin in ("http://evil.example", f"http://127.0.0.1:{nginx.port}"):
        with pytest.raises(InvalidStatus) as refused:
            connect(f"ws://localhost:{nginx.port}/ws/{table['table']}", origin=origin, open_timeout=30)  # type: ignore[arg-type]
        assert refused.value.response.status_code == 403
    forged = httpx.post(base + "/api/tables", json={"seats": ["human", "easy"]},
                        headers={"origin": "http://evil.example"}, timeout=30)  # fmt: skip
    assert forged.status_code == 403
    direct = httpx.get(f"{first.url}/", headers={"host": "localhost.evil.example"}, timeout=30)
    assert direct.status_code == 400
