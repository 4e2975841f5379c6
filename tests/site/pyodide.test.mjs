// The engine under Pyodide, the browser's Python, in Node: the wheels of
// the built site installed in the pinned runtime, checked against what
// native Python answered for the same questions (solving, a whole game at
// every computer level, a record replayed, a hint, a saved game resumed).
// The wheels go in as the site's worker puts them there: unpacked by
// static/unzip.js and copied into site-packages, with the vocabularies'
// card tries in quiddler's cache folder.
//
// Run by tests/site/test_pyodide.py, which builds the site, computes the
// native answers and sets:
//   QUIDDLER_PYODIDE   the pyodide npm package (its folder)
//   QUIDDLER_SITE      the built site (its wheels are installed)
//   QUIDDLER_EXPECTED  a JSON file of the native answers

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { before, test } from "node:test";
import { pathToFileURL } from "node:url";

const runtime = process.env.QUIDDLER_PYODIDE;
const site = process.env.QUIDDLER_SITE;
const expected = JSON.parse(readFileSync(process.env.QUIDDLER_EXPECTED, "utf8"));
const CACHE_DIR = "/home/pyodide/.cache/quiddler";
const manifest = JSON.parse(readFileSync(join(site, "quiddler-site.json"), "utf8"));
let pyodide;
let unpacked;

before(async () => {
  const { loadPyodide } = await import(pathToFileURL(join(runtime, "pyodide.mjs")).href);
  const { unzip } = await import(pathToFileURL(join(site, "static", "unzip.js")).href);
  pyodide = await loadPyodide({ indexURL: runtime + "/", env: { QUIDDLER_CACHE_DIR: CACHE_DIR }, stdout: () => {},
                                stderr: () => {} });
  unpacked = await Promise.all(manifest.wheels.map((wheel) => unzip(new Uint8Array(readFileSync(join(site, wheel))))));
  const root = pyodide._api.sitePackages;
  for (const files of unpacked) {
    for (const [name, content] of files) {
      pyodide.FS.mkdirTree(`${root}/${name.slice(0, name.lastIndexOf("/"))}`);
      pyodide.FS.writeFile(`${root}/${name}`, content);
    }
  }
  pyodide.FS.mkdirTree(CACHE_DIR);
  for (const path of manifest.cache) pyodide.FS.writeFile(`${CACHE_DIR}/${path.split("/").pop()}`, readFileSync(join(site, path)));
  pyodide.globals.set("expected_text", readFileSync(process.env.QUIDDLER_EXPECTED, "utf8"));
  pyodide.runPython(`
import json
expected = json.loads(expected_text)
`);
});

/** The JSON text a Python expression gives, parsed. */
const py = (code) => JSON.parse(pyodide.runPython(code));

test("the runtime is the pinned Python, on Emscripten, without numba or numpy", () => {
  const facts = py(`
import importlib.util, platform, sys
json.dumps([sys.platform, platform.system(), "%d.%d.%d" % sys.version_info[:3],
            importlib.util.find_spec("numba") is None, importlib.util.find_spec("numpy") is None])`);
  assert.deepEqual(facts, ["emscripten", "Emscripten", expected.python, true, true]);
});

test("unzip.js unpacks each wheel to the files Python's zipfile does", () => {
  const digests = unpacked.map((files) => Object.fromEntries(files.map(([name, content]) =>
    [name, createHash("sha256").update(content).digest("hex")])));
  assert.deepEqual(digests, expected.wheel_files);
});

test("the wheels carry each module's bytecode for this runtime, used without its source's time", () => {
  const [checked, missing, stale] = py(`
import importlib.util, sys, quiddler.web.local, pygtrie
checked, missing, stale = 0, [], []
for name, module in sorted(sys.modules.items()):
    origin = getattr(getattr(module, "__spec__", None), "origin", None) or ""
    if not (name == "pygtrie" or name.split(".")[0] == "quiddler") or not origin.endswith(".py"):
        continue
    checked += 1
    try:
        with open(importlib.util.cache_from_source(origin), "rb") as pyc:
            head = pyc.read(8)
    except OSError:
        missing.append(name)
        continue
    if head[:4] != importlib.util.MAGIC_NUMBER or int.from_bytes(head[4:8], "little") != 1:  # unchecked hash
        stale.append(name)
json.dumps([checked, missing, stale])`);
  assert.ok(checked > 30, `only ${checked} modules checked`);
  assert.deepEqual([missing, stale], [[], []]);
});

test("the vocabularies' card tries are read from the site's cache files, not indexed", () => {
  assert.deepEqual(py(`
from quiddler.game.vocabulary import VOCABULARY_ZIPF, vocabulary_wordlist
from quiddler.wordlist import default_wordlist
json.dumps([vocabulary_wordlist(name, default_wordlist()).needs_indexing() for name in VOCABULARY_ZIPF])`),
  [false, false]);
});

test("solving gives the answers native Python gives", () => {
  const answers = py(`
from quiddler import solve
json.dumps([solve(s["cards"], discard=s["discard"]).to_dict() for s in expected["solves"]])`);
  assert.deepEqual(answers, expected.solves.map((s) => s.answer));
});

test("the default backend solves in pure Python there", () => {
  assert.deepEqual(py(`
from quiddler.solver._backends import get_backend
backend = get_backend("auto")
backend.current(upcoming=1e9)
json.dumps([backend.current().name, backend.compiled is None])`), ["python", true]);
});

for (const level of Object.keys(expected.games)) {
  test(`a whole game with ${level} plays as natively, and its record replays`, () => {
    pyodide.globals.set("level", level);
    assert.deepEqual(py(`
from quiddler.game import Rules, make_player, play_game
from quiddler.game.record import game_record, replay
spec = expected["games"][level]
game = play_game([make_player(level, spec["seeds"][0]), make_player("expert", spec["seeds"][1])],
                 seed=spec["seed"], rules=Rules(round_sizes=tuple(spec["round_sizes"])))
record = game_record(game)
json.dumps([record == spec["record"], replay(spec["record"]).totals == tuple(spec["record"]["final_scores"])])`),
    [true, true]);
  });
}

test("a hint gives the native advice", () => {
  assert.deepEqual(py(`
from quiddler.game import Game, Rules, hint
spec = expected["hint"]
game = Game(2, seed=spec["seed"], rules=Rules(round_sizes=(5,)))
json.dumps(hint(game.view(game.turn)).to_dict())`), expected.hint.answer);
});

test("a game through the protocol is saved and resumes at the same move", () => {
  assert.deepEqual(py(`
from quiddler.web.local import LocalHost
def call(host, op, body=""):
    return json.loads(host.handle(op, body))
host = LocalHost()
made = call(host, "create", json.dumps({"seats": ["human", "hard"], "rules": {"round_sizes": [3, 4]}}))["body"]
hello = json.dumps({"type": "hello", "token": made["token"]})
call(host, "message", hello)
while call(host, "step")["body"] is not None:
    pass
drawn = call(host, "message", json.dumps({"type": "action", "action": {"type": "draw", "source": "pile"}}))["body"]
saved = call(host, "save")["body"]
again = LocalHost()
restored = call(again, "restore", saved)["status"]
resumed = call(again, "message", hello)["body"][1]
json.dumps([restored, resumed == drawn[-1], call(again, "save")["body"] == saved])`), [200, true, true]);
});
