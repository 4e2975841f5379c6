"""``quiddler site DIR``: what it writes, and how it refuses a folder or a
runtime it cannot use (one ``Error:`` line, exit code 2)."""

from __future__ import annotations

import hashlib
import json
import shutil
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from quiddler.cardtrie import CardTrie
from quiddler.cli import main
from quiddler.game.vocabulary import VOCABULARY_ZIPF, vocabulary_wordlist
from quiddler.site.bytecode import pyc_name
from quiddler.site.runtime import PYODIDE_VERSION, RUNTIME_FILES
from quiddler.wordlist import default_wordlist


def run(*args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(main, ["site", *args], env=env)


def refused(result: Result, *fragments: str) -> None:
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert result.stdout == ""
    errors = [line for line in result.stderr.splitlines() if not line.endswith("...")]  # less the progress lines
    assert len(errors) == 1 and errors[0].startswith("Error: "), result.stderr
    for fragment in fragments:
        assert fragment in errors[0], errors[0]


def test_the_site_holds_the_page_the_runtime_with_its_licence_and_the_wheels(site_build: tuple[Path, Result]) -> None:
    folder, result = site_build
    assert result.stdout.startswith("Wrote ") and f"on Pyodide {PYODIDE_VERSION}" in result.stdout
    assert "pyodide" in result.stderr and "wheels" in result.stderr  # the progress lines
    manifest = json.loads((folder / "quiddler-site.json").read_text())
    assert manifest["pyodide"] == PYODIDE_VERSION and manifest["python"].startswith("3.")
    for name in ("index.html", "solver.html", "sw.js", "static/app.js", "static/worker.js", "static/worker-transport.js",
                 *(f"pyodide/{n}" for n in RUNTIME_FILES), "pyodide/LICENSE", "pyodide/LICENSE-CPython"):  # fmt: skip
        assert (folder / name).is_file(), name
    assert "Mozilla Public License Version 2.0" in (folder / "pyodide" / "LICENSE").read_text()
    assert "PYTHON SOFTWARE FOUNDATION LICENSE VERSION 2" in (folder / "pyodide" / "LICENSE-CPython").read_text()
    for name, entry in manifest["files"].items():
        assert hashlib.sha256((folder / name).read_bytes()).hexdigest() == entry["sha256"], name
    index = (folder / "index.html").read_text()
    assert '<meta name="quiddler-transport" content="worker">' in index
    assert 'src="/' not in index and 'href="/static' not in index  # relative: the site lives in any folder
    wheels = {Path(w).name.split("-")[0]: folder / w for w in manifest["wheels"]}
    assert set(wheels) == {"quiddler", "pygtrie"}
    names = zipfile.ZipFile(wheels["quiddler"]).namelist()
    assert "quiddler/data/enable.cardtrie" in names and "quiddler/web/local.py" in names
    assert not any(n.startswith("quiddler/web/static/") for n in names)  # served beside it, not twice


def test_the_site_ships_the_vocabularies_card_tries_for_the_engines_cache(built_site: Path) -> None:
    manifest = json.loads((built_site / "quiddler-site.json").read_text())
    lists = [vocabulary_wordlist(name, default_wordlist()) for name in VOCABULARY_ZIPF]
    assert sorted(manifest["cache"]) == sorted(f"cache/{words.cache_file.name}" for words in lists)
    for words in lists:
        source = bytes.fromhex(words.digest)
        shipped = CardTrie.from_bytes((built_site / "cache" / words.cache_file.name).read_bytes(), source)
        assert shipped.to_bytes(source) == words.card_trie.to_bytes(source)
        assert f"cache/{words.cache_file.name}" in manifest["files"]  # and so in the service worker's cache


def test_the_wheels_carry_the_bytecode_the_runtime_compiled(built_site: Path) -> None:
    manifest = json.loads((built_site / "quiddler-site.json").read_text())
    for wheel in manifest["wheels"]:
        names = set(zipfile.ZipFile(built_site / wheel).namelist())
        sources = {n for n in names if n.endswith(".py")}
        assert sources
        tag = "cpython-" + "".join(manifest["python"].split(".")[:2])
        assert {n for n in names if n.endswith(".pyc")} == {pyc_name(n, tag) for n in sources}


def test_without_node_the_site_is_built_without_bytecode(pyodide_runtime: Path, tmp_path: Path) -> None:
    result = run(str(tmp_path / "out"), "--pyodide", str(pyodide_runtime), env={"PATH": str(tmp_path)})
    assert result.exit_code == 0, result.stderr
    assert "no bytecode (node is not installed)" in result.stderr
    manifest = json.loads((tmp_path / "out" / "quiddler-site.json").read_text())
    for wheel in manifest["wheels"]:
        assert not [n for n in zipfile.ZipFile(tmp_path / "out" / wheel).namelist() if n.endswith(".pyc")]


#: Names that look like addresses but are never fetched: XML namespaces.
NAMESPACES = ("http://www.w3.org/2000/svg",)


def test_no_file_of_the_site_names_another_origin(built_site: Path) -> None:
    for path in built_site.rglob("*"):
        if path.suffix in (".html", ".js", ".css") and path.parent.name != "pyodide":
            text = path.read_text()
            for name in NAMESPACES:
                text = text.replace(f'"{name}"', '""')
            for found in ("http://", "https://", "//cdn"):
                lines = [line for line in text.splitlines() if found in line and "<a href=" not in line]
                assert not lines, (path, lines)


def test_force_replaces_an_earlier_site_and_keeps_other_files(built_site: Path, pyodide_runtime: Path,
                                                              tmp_path: Path) -> None:  # fmt: skip
    folder = tmp_path / "public"
    shutil.copytree(built_site, folder)
    (folder / "notes.txt").write_text("mine")
    manifest = json.loads((folder / "quiddler-site.json").read_text())
    stale = "wheels/quiddler-0.0.1-py3-none-any.whl"
    (folder / stale).write_bytes(b"an older build")
    manifest["files"][stale] = {"size": 14, "sha256": ""}
    (folder / "quiddler-site.json").write_text(json.dumps(manifest))
    refused(run(str(folder), "--pyodide", str(pyodide_runtime)), "is not empty", "--force")
    result = run(str(folder), "--force", "--pyodide", str(pyodide_runtime))
    assert result.exit_code == 0, result.stderr
    assert (folder / "notes.txt").read_text() == "mine" and not (folder / stale).exists()
    assert (folder / "index.html").is_file()
    # The site's manifest lists its own files alone: a later --force leaves notes.txt too.
    assert "notes.txt" not in json.loads((folder / "quiddler-site.json").read_text())["files"]


def test_a_file_where_the_folder_goes_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "public"
    target.write_text("x")
    refused(run(str(target)), "is a file")


def test_a_folder_without_the_pinned_runtime_is_refused_by_name(tmp_path: Path) -> None:
    refused(run(str(tmp_path / "out"), "--pyodide", str(tmp_path)), "no pyodide npm package", str(tmp_path))
    package = tmp_path / "node_modules" / "pyodide"
    package.mkdir(parents=True)
    (package / "package.json").write_text(json.dumps({"name": "pyodide", "version": "0.1.0"}))
    refused(run(str(tmp_path / "out"), "--pyodide", str(tmp_path)), "holds pyodide 0.1.0", PYODIDE_VERSION)
    (package / "package.json").write_text(json.dumps({"name": "pyodide", "version": PYODIDE_VERSION}))
    refused(run(str(tmp_path / "out"), "--pyodide", str(tmp_path)), "misses pyodide.mjs")
    assert not (tmp_path / "out").exists()


def test_without_npm_or_a_runtime_the_command_says_how_to_get_one(tmp_path: Path) -> None:
    env = {"PATH": str(tmp_path), "QUIDDLER_CACHE_DIR": str(tmp_path / "cache")}
    refused(run(str(tmp_path / "out"), env=env), "npm is not installed", "--pyodide PATH", f"pyodide@{PYODIDE_VERSION}")


@pytest.mark.parametrize("args", [[], ["a", "b"]])
def test_the_folder_is_one_argument(args: list[str]) -> None:
    assert run(*args).exit_code == 2


def test_the_pages_security_policy_comes_before_everything_it_governs(built_site: Path) -> None:
    """A policy given in a meta element covers only what the page loads after
    it: in each page it comes before any script, stylesheet or other load."""
    for name in ("index.html", "solver.html"):
        page = (built_site / name).read_text()
        policy = page.index('<meta http-equiv="Content-Security-Policy"')
        head = page[: page.index("</head>")]
        loads = [head.find(tag) for tag in ("<script", "<link", "<style", "<base")]
        assert all(at == -1 or policy < at for at in loads), (name, head)
        assert policy < page.index("<title>") and page.index('<meta charset="utf-8">') < policy
