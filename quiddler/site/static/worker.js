// The game engine of the static site: Pyodide (CPython compiled to
// WebAssembly) running quiddler in a Web Worker, so the page stays live
// while a computer player thinks.  The page posts {id, op, body}; the
// answer is {id, answer, ms}: the JSON text of
// quiddler.web.local.LocalHost.handle(op, body) and how long it took, or
// {id, failed} if the engine could not start.  Once started, the worker
// posts {started: {from, ms, phases}} once: "snapshot" or "start" (below),
// the time from the worker's start to an engine ready to answer, and the
// parts of that time.  Every file comes from the site itself: the runtime
// (../pyodide/), the wheels and the cache files the manifest names.
//
// The engine's memory snapshot.  Starting Python and importing quiddler
// takes seconds of the first visit; the engine's memory right after that
// (Python started, quiddler imported, the word lists and their card tries
// read, no game yet) is kept in this browser's Cache Storage, and a later
// visit starts from that copy instead ("snapshot"), skipping Python's start
// and the imports.  It is kept under the build's name (quiddler-site.json's
// "build"), so a rebuilt site never starts from an older build's engine:
// the copies of other builds are deleted when a new copy is kept.  A copy
// that cannot be read or does not start is dropped, and the engine starts
// as on a first visit ("start"), which keeps a new copy.  Where Cache
// Storage is not offered or refused, every visit starts so.

import { loadPyodide } from "../pyodide/pyodide.mjs";
import { unzip } from "./unzip.js";

const began = performance.now();
const here = (path) => new URL(path, import.meta.url).href;
/** Cache Storage names of the engine's snapshots: this prefix and the build. */
const SNAPSHOT_CACHE = "quiddler-engine-";
/** The snapshot's key in its cache (never fetched: a name, not a file of the site). */
const SNAPSHOT_KEY = here("../quiddler-engine.snapshot");

async function fetched(path) {
  const response = await fetch(here(path));
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return response;
}

const manifest = fetched("../quiddler-site.json").then((response) => response.json());
// The wheels download and are unpacked (unzip.js) while the runtime's own
// files download and WebAssembly compiles; their files are copied into
// site-packages once Python runs, the same after a start and a snapshot.
const wheels = manifest.then((site) => Promise.all(site.wheels.map(async (wheel) =>
  unzip(new Uint8Array(await (await fetched(`../${wheel}`)).arrayBuffer())))));
wheels.catch(() => {}); // a failure is reported by the start that awaits it
// The vocabularies' card tries, for quiddler's cache folder: read there, not indexed.
const cacheFiles = manifest.then((site) => Promise.all((site.cache ?? []).map(async (path) =>
  [path.split("/").pop(), new Uint8Array(await (await fetched(`../${path}`)).arrayBuffer())])));
cacheFiles.catch(() => {});

/** quiddler's cache folder in the engine (QUIDDLER_CACHE_DIR). */
const CACHE_DIR = "/home/pyodide/.cache/quiddler";
const options = {
  indexURL: here("../pyodide/"), env: { QUIDDLER_CACHE_DIR: CACHE_DIR },
  stdout: () => {}, stderr: (text) => console.warn(text),
};

function install(pyodide, unpacked) {
  const root = pyodide._api.sitePackages;
  for (const files of unpacked) {
    for (const [name, content] of files) {
      const slash = name.lastIndexOf("/");
      if (slash > 0) pyodide.FS.mkdirTree(`${root}/${name.slice(0, slash)}`);
      pyodide.FS.writeFile(`${root}/${name}`, content);
    }
  }
  pyodide.runPython("import importlib; importlib.invalidate_caches()");
}

// What a snapshot holds: quiddler's modules imported, the word list's card
// trie read (a solve reads it) and the vocabularies of the easy and medium
// players with their card tries (their first move needs them), and no game.
const PREPARE = `
from quiddler.game import Rules as _Rules
from quiddler.game.vocabulary import VOCABULARY_ZIPF as _NAMES, vocabulary_wordlist as _vocabulary
from quiddler.web.local import LocalHost as _LocalHost
_LocalHost().handle("solve", '{"cards": "qu,i,t"}')
for _name in _NAMES:
    _vocabulary(_name, _Rules().words).card_trie
del _Rules, _NAMES, _vocabulary, _LocalHost, _name
`;

/** How long each part of the start took (ms), for the page to report. */
const phases = {};
let lastMark = began;
function mark(phase) {
  const now = performance.now();
  phases[phase] = Math.round(now - lastMark);
  lastMark = now;
}

/**
 * The snapshot of this build in Cache Storage: find, keep or drop it; null
 * where Cache Storage is not offered.  Finding it reads no list of caches
 * and opens none (what a later visit waits on); keeping it deletes the
 * snapshots of other builds first.
 */
function snapshotStore(build) {
  if (!self.caches || typeof build !== "string") return null;
  const name = SNAPSHOT_CACHE + build;
  return {
    /** null, or the promise of the snapshot's bytes (read while the runtime's files load). */
    async find() {
      const hit = await caches.match(SNAPSHOT_KEY, { cacheName: name });
      return hit ? hit.arrayBuffer().then((bytes) => new Uint8Array(bytes)) : null;
    },
    async keep(snapshot) {
      const names = await caches.keys();
      await Promise.all(names.filter((n) => n.startsWith(SNAPSHOT_CACHE) && n !== name).map((n) => caches.delete(n)));
      const cache = await caches.open(name);
      await cache.put(SNAPSHOT_KEY, new Response(snapshot, { headers: { "content-type": "application/octet-stream" } }));
    },
    drop: () => caches.delete(name),
  };
}

// The runtime's module loads at once, while the manifest and the snapshot are looked up.
const runtimeModule = import("../pyodide/pyodide.asm.mjs");
runtimeModule.catch(() => {});

/** Pyodide from a snapshot: its memory is grown to the snapshot's size before the snapshot is copied in. */
async function fromSnapshot(snapshot) {
  const { default: create } = await runtimeModule;
  const createPyodideModule = async (settings) => {
    const module = await create(settings);
    module.growMemory(settings.INITIAL_MEMORY);
    return module;
  };
  const pyodide = await loadPyodide({ ...options, _loadSnapshot: snapshot, createPyodideModule });
  mark("runtime");
  await installFiles(pyodide);
  return pyodide;
}

/** The wheels into site-packages and the cache files into quiddler's cache
 * folder: the files are not in the memory a snapshot keeps, so both starts do this. */
async function installFiles(pyodide) {
  install(pyodide, await wheels);
  pyodide.FS.mkdirTree(CACHE_DIR);
  for (const [name, content] of await cacheFiles) pyodide.FS.writeFile(`${CACHE_DIR}/${name}`, content);
  mark("wheels");
}

async function fromStart(store) {
  const createPyodideModule = (await runtimeModule).default;
  const pyodide = await loadPyodide({ ...options, _makeSnapshot: store !== null, createPyodideModule });
  mark("runtime");
  await installFiles(pyodide);
  pyodide.runPython(PREPARE);
  mark("prepare");
  if (store !== null) {
    let snapshot = null;
    try {
      snapshot = pyodide.makeMemorySnapshot();
    } catch (exc) {
      console.warn("the engine's snapshot could not be made:", exc);
    }
    mark("snapshot");
    // Kept once the messages already waiting are answered (the first hand's, on a first visit).
    if (snapshot) {
      setTimeout(() => store.keep(snapshot).catch((exc) => console.warn("the engine's snapshot was not kept:", exc)), 0);
    }
  }
  return pyodide;
}

async function start() {
  const store = snapshotStore((await manifest).build);
  mark("manifest");
  let snapshot = null;
  try {
    snapshot = store && (await store.find());
  } catch (exc) {
    console.warn("the engine's snapshot could not be looked up:", exc); // storage refused: start every time
  }
  mark("snapshot found");
  let pyodide = null;
  let from = "start";
  if (snapshot) {
    try {
      pyodide = await fromSnapshot(snapshot);
      from = "snapshot";
    } catch (exc) {
      console.warn("the engine did not start from its snapshot, it starts afresh:", exc);
      await store.drop().catch(() => {});
    }
  }
  pyodide ??= await fromStart(store);
  const engine = pyodide.pyimport("quiddler.web.local").LocalHost();
  self.postMessage({ started: { from, ms: Math.round(performance.now() - began), phases } });
  return engine;
}

const host = start();
host.catch(() => {}); // reported to each message below

self.addEventListener("message", async (event) => {
  const { id, op, body } = event.data;
  let engine;
  try {
    engine = await host;
  } catch (exc) {
    self.postMessage({ id, failed: String(exc && exc.message ? exc.message : exc) });
    return;
  }
  const started = performance.now();
  const answer = engine.handle(op, body);
  self.postMessage({ id, answer, ms: performance.now() - started });
});
