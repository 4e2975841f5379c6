// The game engine's worker (worker.js), started as soon as the browser
// reads the page's head: Pyodide's start is most of a first visit's wait,
// and need not wait for the page's own modules to load.  The first Engine
// of worker-transport.js takes this worker over, with what it said before
// that (its start, or its failure).  A classic script, not a module, so
// that it runs at once.

(() => {
  const worker = new Worker(new URL("worker.js", document.currentScript.src), { type: "module" });
  const early = [];
  const keep = (event) => early.push(event);
  worker.addEventListener("message", keep);
  worker.addEventListener("error", keep);
  window.quiddlerEarlyEngine = { worker, early, keep };
})();
