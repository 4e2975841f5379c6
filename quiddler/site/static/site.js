// The static site's own start-up: the service worker that keeps every file
// of the site, so that once loaded it plays offline, and on the game's page
// the note under the game in the player's language.  (The page itself is
// quiddler serve's, on the worker transport: see app.js.  The solver page
// stays English: it loads no catalog.)

if ("serviceWorker" in navigator && location.protocol !== "file:") {
  // Registered once the page's engine has started and is idle (the first hand shown), or after
  // a while: installing it downloads every file of the site again into its cache, which would
  // only slow a first visit down.  A page it already controls registers it at once.
  const { engineIdle } = await import("./worker-transport.js");
  const waited = navigator.serviceWorker.controller
    ? Promise.resolve()
    : Promise.race([engineIdle, new Promise((resolve) => setTimeout(resolve, 30_000))]);
  waited.then(() => navigator.serviceWorker.register(new URL("../sw.js", import.meta.url), { scope: "../" })).catch(() => {
    // no service worker (a private window, a host that refuses it): the site still plays, online
  });
}

const game = document.querySelector('meta[name="quiddler-transport"]');
if (game) {
  const { onLanguageChange, t, tWith } = await import("./messages.js");
  /** The note's sentence around its two links (their addresses as the site was built with them). */
  const sayNote = () => {
    const note = document.querySelector(".site-note p");
    const [hosting, solver] = note.querySelectorAll("a");
    hosting.textContent = t("site.hostingLink");
    solver.textContent = t("site.solverLink");
    note.replaceChildren(...tWith("site.note", { hosting, solver }));
  };
  sayNote();
  onLanguageChange(sayNote);
}
