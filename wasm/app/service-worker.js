// The service worker (app-worker.js): it keeps every file of the site so
// the page works offline after the first visit. wasm/app writes it from
// this template, in place of go-app's own (DefaultAppWorkerJS), which it
// follows but for one change, and minus the push notifications we do not
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
const cacheName = "app-" + "{{.Version}}";
const resourcesToCache = {{.ResourcesToCache}};
const precacheWaitMs = 10000;

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
    await cache.addAll(resourcesToCache);
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

self.addEventListener("fetch", (event) => {
  event.respondWith(fetchWithCache(event.request));
});

async function fetchWithCache(request) {
  const cachedResponse = await caches.match(request);
  if (cachedResponse) {
    return cachedResponse;
  }
  return await fetch(request);
}
