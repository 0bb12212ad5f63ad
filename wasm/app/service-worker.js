// The service worker (app-worker.js): it keeps every file of the site so
// the page works offline after the first visit. wasm/app writes it from
// this template, in place of go-app's own (DefaultAppWorkerJS), which it
// follows but for two changes, and minus the push notifications we do not
// use.
//
// The change: go-app's worker downloads the whole site again as soon as the
// page registers it, which on a first visit is while the page itself is
// still downloading and compiling the same files: on two cores, that makes
// the page ready hundreds of milliseconds later
// (docs/decisions/0010-service-worker-fills-cache-after-ready.md). This one asks the open pages first and
// waits until one says it is ready (web/boot.js answers), then fills its
// cache, mostly from the browser's HTTP cache; if no page answers within
// precacheWaitMs, it goes ahead anyway.
//
// The second: the program, app.wasm, is answered from the browser's HTTP
// cache when that holds the version this worker keeps, and from this
// worker's cache otherwise (programResponse). Chromium keeps V8's compiled
// code beside the HTTP cache's entry for a response passed through, and
// beside this cache's entry for a response from here: the first visit
// compiles from the network and leaves its code with the HTTP cache's
// entry, which the following visits then read, instead of compiling the
// program again (docs/decisions/0030-program-fetched-for-the-code-cache.md).
const cacheName = "app-" + "{{.Version}}";
const resourcesToCache = {{.ResourcesToCache}};
const precacheWaitMs = 10000;
// The program's path, and its Subresource Integrity metadata, written by
// wasm/app: this version's app.wasm is the one with that SHA-256.
const program = "{{.Program}}";
const programIntegrity = "{{.ProgramIntegrity}}";

let pageIsReady;
const pageReady = new Promise((resolve) => {
  pageIsReady = resolve;
});

self.addEventListener("install", (event) => {
  event.waitUntil(install());
});

async function install() {
  try {
    console.log("installing app worker {{.Version}}");
    const pages = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    for (const page of pages) page.postMessage({ type: "softmax:precache?" });
    let why = "no page open";
    if (pages.length > 0) {
      why = await Promise.race([
        pageReady.then(() => "the page was ready"),
        new Promise((resolve) => setTimeout(() => resolve(`no page was ready after ${precacheWaitMs} ms`), precacheWaitMs)),
      ]);
    }
    const cache = await caches.open(cacheName);
    await cache.addAll(resourcesToCache.filter((r) => r !== program));
    await cache.put(program, await programToCache());
    console.log(`app worker {{.Version}} cached the site (${why})`);
    for (const page of await self.clients.matchAll({ type: "window", includeUncontrolled: true })) {
      page.postMessage({ type: "softmax:precached", why });
    }
    await self.skipWaiting();
  } catch (error) {
    console.error("error during installation:", error);
  }
}

self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "softmax:precache") pageIsReady();
});

self.addEventListener("activate", (event) => {
  event.waitUntil(activate());
});

async function activate() {
  try {
    await deletePreviousCaches();
    await self.clients.claim(); // take control of the open pages
    console.log("app worker {{.Version}} is activated");
  } catch (error) {
    console.error("error during activation:", error);
  }
}

async function deletePreviousCaches() {
  const keys = await caches.keys();
  await Promise.all(
    keys.map(async (key) => {
      if (key !== cacheName) {
        try {
          console.log("deleting", key, "cache");
          await caches.delete(key);
        } catch (err) {
          console.error("deleting", key, "cache failed:", err);
        }
      }
    })
  );
}

// The class's requests (tools/serve -class) are live and never cached:
// the browser makes them itself, so that the event stream is the page's
// own connection and ends when the page does, not when this worker
// stops.
const classPaths = new URL("class/", self.registration.scope).pathname;

self.addEventListener("fetch", (event) => {
  if (new URL(event.request.url).pathname.startsWith(classPaths)) return;
  event.respondWith(fetchWithCache(event.request));
});

async function fetchWithCache(request) {
  const cachedResponse = await caches.match(request);
  if (cachedResponse && new URL(request.url).pathname === program) {
    return await programResponse(request, cachedResponse);
  }
  if (cachedResponse) {
    return cachedResponse;
  }
  return await fetch(request);
}

// programToCache returns the program to keep: the HTTP cache's copy,
// without asking the network, if it is this version's, and the network's
// otherwise. Taken from the HTTP cache as it is, not revalidated, the
// entry keeps the time of the first visit's response, which the code V8
// cached for it is checked against; a revalidation (a 304 from a server
// that sends Cache-Control: no-cache) would give it a new time and leave
// that code unused.
async function programToCache() {
  try {
    const cached = await fetch(program, { mode: "same-origin", cache: "only-if-cached", integrity: programIntegrity });
    if (cached.ok) return cached;
  } catch (e) {
    // Not in the HTTP cache, or another version there.
  }
  const resp = await fetch(program, { integrity: programIntegrity });
  if (!resp.ok) throw new Error(`fetching ${program}: HTTP ${resp.status}`);
  return resp;
}

// programResponse answers a request for the program with the HTTP
// cache's response, passed through, where it holds the same response as
// this worker's cache (the same ETag, or Last-Modified and length), and
// with cached, this worker's own, otherwise: when the HTTP cache lost it,
// holds another version, or the browser is offline. It never asks the
// network.
async function programResponse(request, cached) {
  try {
    const resp = await fetch(request.url, { mode: "same-origin", cache: "only-if-cached", credentials: request.credentials });
    if (resp.ok && sameResponse(resp, cached)) return resp;
    if (resp.body) resp.body.cancel().catch(() => {});
  } catch (e) {
    // Not in the HTTP cache.
  }
  return cached;
}

function sameResponse(a, b) {
  const h = (r, name) => r.headers.get(name) || "";
  if (h(a, "ETag") || h(b, "ETag")) return h(a, "ETag") === h(b, "ETag");
  return h(a, "Last-Modified") !== "" && h(a, "Last-Modified") === h(b, "Last-Modified") && h(a, "Content-Length") === h(b, "Content-Length");
}
