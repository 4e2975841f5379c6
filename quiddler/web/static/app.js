// The page's entry point: which screen the address asks for.
//
//   /              home: play now against the computer, or set up a table
//   /t/{table}     a table: join it (with #invite=CODE), its lobby, the game
//
// The invite code travels in the fragment (#invite=...), which browsers
// never send to a server, so it stays out of server logs.
//
// The static site (quiddler site) is this page with the engine in a Web
// Worker: its index.html names the worker transport in a meta tag, and the
// screen's path lives in the query (?/t/{table}), since a static host has
// no /t/{table} addresses.

import { keptFields } from "./dom.js";
import { showHome } from "./home.js";
import { languageSwitch } from "./language-switch.js";
import { onLanguageChange } from "./messages.js";
import { ServerTransport } from "./server-transport.js";
import { useTransport } from "./transport.js";
import { TableSession } from "./session.js";

document.querySelector("header.top").append(languageSwitch());

const onSite = document.querySelector('meta[name="quiddler-transport"]')?.content === "worker";
useTransport(onSite ? new (await import("./worker-transport.js")).WorkerTransport() : new ServerTransport());
const currentPath = () => (onSite ? location.search.slice(1) || "/" : location.pathname);

let current = null; // the table session on screen, closed when leaving it

export function navigate(path) {
  history.pushState(null, "", onSite ? `?${path}` : path);
  route();
}

function route() {
  if (current) {
    current.close();
    current = null;
  }
  const main = document.getElementById("main");
  const match = currentPath().match(/^\/t\/([A-Za-z0-9_-]{1,64})\/?$/);
  if (match) {
    const invite = new URLSearchParams(location.hash.slice(1)).get("invite");
    current = new TableSession(main, match[1], invite, { navigate });
  } else {
    showHome(main, { navigate });
  }
}

window.addEventListener("popstate", route);
// Another language: the screen on show is drawn again in it, where it is (a table keeps its
// connection, the home page what was typed and chosen in its forms).
onLanguageChange(async () => {
  if (current) return current.relabel();
  const main = document.getElementById("main");
  const restore = keptFields(main);
  await showHome(main, { navigate });
  restore();
});
// Links inside the page (the brand, "back to the start") change screens
// without a reload; the modifier keys keep their usual meaning.
document.addEventListener("click", (event) => {
  const link = event.target.closest("a[href^='/']");
  if (!link || link.hasAttribute("download") || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  navigate(link.getAttribute("href"));
});
route();
