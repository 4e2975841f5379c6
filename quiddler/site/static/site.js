// The static site's own start-up: the service worker that keeps every file
// of the site, so that once loaded it plays offline.  (The page itself is
// quiddler serve's, on the worker transport: see app.js.)

if ("serviceWorker" in navigator && location.protocol !== "file:") {
  navigator.serviceWorker.register(new URL("../sw.js", import.meta.url), { scope: "../" }).catch(() => {
    // no service worker (a private window, a host that refuses it): the site still plays, online
  });
}
