"""The engine's own checks under Pyodide in Node (tests/site/pyodide.test.mjs,
``node --test``): the site's wheels in the pinned runtime must give the
answers native Python gives here, for solving, a whole game at every
computer level, a replayed record and a hint; with the wheels unpacked by
the worker's own unzip.js, their modules' bytecode for that runtime, and the
vocabularies' card tries read from the site's cache files.  Needs node (20 or later) and the runtime (fetched
with npm into the user cache by the fixture)."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from quiddler import solve
from quiddler.game import Game, Rules, hint, make_player, play_game
from quiddler.game.record import game_record
from quiddler.site.runtime import python_version

HERE = Path(__file__).parent
#: Each level's game: short rounds, so that the slowest levels finish in seconds there.
GAMES = {"easy": [3, 4, 5], "medium": [3, 4, 5], "hard": [3, 4], "expert": [3, 4, 5], "master": [3]}
HANDS = [("d,cl,o,g,a,b,er,in,n,y,s", False), ("qu,i,e,t,er,s", True), ("x,z,q", False), ("th,e,cl,a,w,s,i", True)]


def wheel_files(site: Path) -> list[dict[str, str]]:
    """Each wheel's files (folders left out) and their SHA-256, as Python's zipfile reads them."""
    manifest = json.loads((site / "quiddler-site.json").read_text())
    out = []
    for wheel in manifest["wheels"]:
        with zipfile.ZipFile(site / wheel) as archive:
            out.append({item.filename: hashlib.sha256(archive.read(item)).hexdigest()
                        for item in archive.infolist() if not item.is_dir()})  # fmt: skip
    return out


def native_answers(runtime: Path, site: Path) -> dict[str, object]:
    games = {}
    for number, (level, sizes) in enumerate(GAMES.items()):
        seeds, seed = [number + 1, number + 100], 1000 + number
        game = play_game([make_player(level, seeds[0]), make_player("expert", seeds[1])], seed=seed,
                         rules=Rules(round_sizes=tuple(sizes)))  # fmt: skip
        games[level] = {"seeds": seeds, "seed": seed, "round_sizes": sizes, "record": game_record(game)}
    position = Game(2, seed=77, rules=Rules(round_sizes=(5,)))
    return {
        "python": python_version(runtime),
        "solves": [{"cards": c, "discard": d, "answer": solve(c, discard=d).to_dict()} for c, d in HANDS],
        "games": games,
        "hint": {"seed": 77, "answer": hint(position.view(position.turn)).to_dict()},
        "wheel_files": wheel_files(site),
    }


@pytest.mark.timeout(900)
def test_the_engine_under_pyodide_in_node_answers_as_native_python(built_site: Path, pyodide_runtime: Path,
                                                                    tmp_path: Path) -> None:  # fmt: skip
    node = shutil.which("node")
    assert node is not None, "these tests need Node.js 20 or later (node) on the PATH"
    expected = tmp_path / "expected.json"
    expected.write_text(json.dumps(native_answers(pyodide_runtime, built_site)), "utf-8")
    env = {"PATH": str(Path(node).parent), "QUIDDLER_PYODIDE": str(pyodide_runtime), "QUIDDLER_SITE": str(built_site),
           "QUIDDLER_EXPECTED": str(expected), "HOME": str(tmp_path)}  # fmt: skip
    done = subprocess.run([node, "--test", "--test-reporter=tap", str(HERE / "pyodide.test.mjs")], env=env,
                          capture_output=True, text=True, timeout=840, check=False)  # fmt: skip
    sys.stdout.write(done.stdout)
    assert done.returncode == 0, (done.stdout[-6000:], done.stderr[-3000:])
    counts = dict(line[2:].split(" ", 1) for line in done.stdout.splitlines() if line.startswith("# ") and " " in line[2:])
    assert counts.get("fail") == "0" and counts.get("pass") == counts.get("tests") == str(8 + len(GAMES)), counts
