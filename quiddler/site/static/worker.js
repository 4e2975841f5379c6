// The game engine of the static site: Pyodide (CPython compiled to
// WebAssembly) running quiddler in a Web Worker, so the page stays live
// while a computer player thinks.  The page posts {id, op, body}; the
// answer is {id, answer, ms}: the JSON text of
// quiddler.web.local.LocalHost.handle(op, body) and how long it took, or
// {id, failed} if the engine could not start.  Every file comes from the
// site itself: the runtime (../pyodide/) and the wheels the manifest names.

import { loadPyodide } from "../pyodide/pyodide.mjs";

const here = (path) => new URL(path, import.meta.url).href;

async function fetched(path) {
  const response = await fetch(here(path));
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return response;
}

const host = (async () => {
  const manifest = await (await fetched("../quiddler-site.json")).json();
  const [pyodide, wheels] = await Promise.all([
    loadPyodide({ indexURL: here("../pyodide/"), stdout: () => {}, stderr: (text) => console.warn(text) }),
    Promise.all(manifest.wheels.map(async (wheel) => (await fetched(`../${wheel}`)).arrayBuffer())),
  ]);
  for (const wheel of wheels) pyodide.unpackArchive(wheel, "wheel");
  return pyodide.pyimport("quiddler.web.local").LocalHost();
})();

// The word list's card trie is read on first use (a solve, a computer's
// first move): read it now, while the page shows its first screen.
host.then((engine) => engine.handle("solve", '{"cards": "qu,i,t"}')).catch(() => {});

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
