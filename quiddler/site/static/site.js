// The static site's own start-up: the service worker that keeps every file
// of the site, so that once loaded it plays offline, and the note under
// the game in the page's language.  (The page itself is quiddler serve's,
// on the worker transport: see app.js.)

import { onLanguageChange, t, tWith } from "./messages.js";

if ("serviceWorker" in navigator && location.protocol !== "file:") {
  navigator.serviceWorker.register(new URL("../sw.js", import.meta.url), { scope: "../" }).catch(() => {
    // no service worker (a private window, a host that refuses it): the site still plays, online
  });
}

/** The note's sentence around its two links (the addresses stay as the site was built with them). */
function sayNote() {
  const note = document.querySelector(".site-note p");
  if (!note) return;
  const [hosting, solver] = note.querySelectorAll("a");
  hosting.textContent = t("site.hostingLink");
  solver.textContent = t("site.solverLink");
  note.replaceChildren(...tWith("site.note", { hosting, solver }));
}

sayNote();
onLanguageChange(sayNote);
