// The training worker's bootstrap. The worker runs the page's own
// program, web/app.wasm: its main sees no document and runs the training
// worker (wasm/worker) instead of the page, so a first visit downloads
// and compiles one program, not two. Paths are relative to this script,
// /web/worker.js.
//
// Started as worker.js#page (named "page"), it waits for the page to post
// the program it compiled, {wasm: WebAssembly.Module} (web/boot.js,
// wasm/ui/browser/worker.go), or {wasm: "fetch"} when the page has none
// to give; started unnamed and without the #page, it fetches app.wasm
// itself (tools/bench). Started as worker.js#helper (named "helper") by
// the training worker, it is a helper of the training worker's pool
// (wasm/session/pool.go): it waits for the program the same way and runs
// wasm/worker's HelpMain (self.softmaxRole). Started as worker.js#plane
// (named "plane") by the page, it is the plane's worker
// (wasm/planework), run by wasm/worker's PlaneMain. Every worker keeps its
// compiled program in self.softmaxModule, from which the training worker
// starts its helpers without compiling it again.
//
// Messages are {env: "<JSON envelope>", bulk: ArrayBuffer | undefined}.
// Their types are listed once, in the table of wasm/protocol/codec.go;
// this script reads only "load" (to prefetch its pack) and writes only
// "failed" (when Go cannot start).
// Until Go runs, commands wait in self.goQueue; Go drains it when it
// installs its own onmessage. If the wasm cannot start, a fatal "failed"
// event is posted in the same wire form, so the page can show it.
"use strict";

// The role comes in the worker's name (new Worker(url, {name})); the
// fragment is the fallback. A worker script that the service worker serves
// from its cache has lost the fragment (its location is the cached
// response's URL), so a helper started as worker.js#helper would take
// itself for a training worker and never answer.
const role = self.name || self.location.hash.slice(1);
self.softmaxRole = role === "helper" || role === "plane" ? role : "training";
self.goQueue = [];
let givenProgram;
const program = new Promise((resolve) => {
  givenProgram = resolve;
});
self.onmessage = (e) => {
  if (e.data && "wasm" in e.data) {
    givenProgram(e.data.wasm);
    return;
  }
  if (e.data && e.data.prefetch === true) {
    fetchWanted(); // the program is nearly in (web/boot.js: softmaxWatchProgram)
    return;
  }
  prefetch(e.data);
  self.goQueue.push(e.data);
};

// A pack asked for before Go runs is fetched once the program is nearly
// in (the page posts {prefetch: true} half way through its last section)
// or once it is here, whichever comes first, while Go starts; Go's fetch
// (wasm/worker/env.go) takes the response from here. Not from the start:
// on a first visit over a slow network the program and the pack would
// share the link all the way, and the program, which the page needs to
// start at all, would arrive later.
self.prefetched = new Map();
let programHere = false;
const wanted = [];
function prefetch(data) {
  try {
    const m = JSON.parse(data.env);
    if (m.type !== "load" || !m.body || !m.body.url) return;
    const url = new URL(m.body.url, self.location.href).href;
    if (self.prefetched.has(url)) return;
    if (programHere) self.prefetched.set(url, abortable(url));
    else wanted.push(url);
  } catch (err) {
    // Not ours to report: Go decodes the same message and says what is wrong.
  }
}
function fetchWanted() {
  programHere = true;
  for (const url of wanted.splice(0)) if (!self.prefetched.has(url)) self.prefetched.set(url, abortable(url));
}
// abortable fetches url and gives the promise an abort(), which Go calls
// when the download stalls (wasm/worker/env.go), so that a held connection
// is closed and not left open beside the Retry.
function abortable(url) {
  const c = new AbortController();
  const p = fetch(url, { signal: c.signal });
  p.abort = () => c.abort();
  return p;
}

function fail(message) {
  const env = JSON.stringify({
    v: 1,
    type: "failed",
    body: {
      message: String(message),
      hint: "reload the page; if it persists, rebuild with `make`",
      fatal: true,
    },
  });
  self.postMessage({ env });
}

// stallAfter is how long a download of the program may receive nothing
// before it fails as stalled (web/boot.js and wasm/session use the same
// 15 s): a slow download that keeps receiving goes on.
const stallAfter = 15000;
class Stalled extends Error {}

// guarded fetches url and returns its response with a body that fails
// once no byte has arrived for stallAfter; the wait for the response's
// headers has the same bound.
async function guarded(url) {
  const c = new AbortController();
  const what = new URL(url).pathname.split("/").pop();
  const fail = () => new Stalled(`the download of ${what} stalled: nothing arrived for ${stallAfter / 1000} s`);
  const within = (p) => {
    let timer;
    const stalled = new Promise((_, reject) => {
      timer = setTimeout(() => {
        c.abort();
        reject(fail());
      }, stallAfter);
    });
    return Promise.race([p, stalled]).finally(() => clearTimeout(timer));
  };
  const resp = await within(fetch(url, { signal: c.signal }));
  if (!resp.body) return resp;
  const reader = resp.body.getReader();
  const body = new ReadableStream({
    async pull(ctrl) {
      try {
        const { done, value } = await within(reader.read());
        if (done) ctrl.close();
        else ctrl.enqueue(value);
      } catch (e) {
        ctrl.error(e);
      }
    },
    cancel(why) {
      return reader.cancel(why);
    },
  });
  return new Response(body, { status: resp.status, statusText: resp.statusText, headers: resp.headers });
}

async function instantiate(url, imports) {
  try {
    return await WebAssembly.instantiateStreaming(guarded(url), imports);
  } catch (err) {
    if (err instanceof Stalled) throw err; // asking again would wait as long
    // A server that does not say application/wasm, or a fetch error:
    // fetch again to report the status, then compile from the bytes.
    const resp = await guarded(url);
    if (!resp.ok) {
      throw new Error(`fetching ${url}: HTTP ${resp.status} ${resp.statusText}`);
    }
    return await WebAssembly.instantiate(await resp.arrayBuffer(), imports);
  }
}

// kernels loads web/kernels.wasm, the batch gradient in WebAssembly SIMD,
// on the Go program's memory; Go checks it and uses it (wasm/worker/kernel.go).
// Without SIMD, or without the file, Go's own kernels run.
async function kernels(bytes, mem) {
  try {
    const b = await bytes;
    if (!b || !WebAssembly.validate(b)) return;
    const { instance } = await WebAssembly.instantiate(b, { env: { mem } });
    self.softmaxKernels = instance.exports;
  } catch (err) {
    console.warn(`SIMD kernels unavailable: ${err && err.message ? err.message : err}`);
  }
}

async function start() {
  importScripts("../wasm_exec.js"); // go-app's, at the site's root, which the page runs too
  const go = new Go();
  const url = new URL("app.wasm", self.location.href);
  const simd = guarded(new URL("kernels.wasm", self.location.href).href)
    .then((r) => (r.ok ? r.arrayBuffer() : null))
    .catch(() => null);
  const given = role === "page" || role === "helper" || role === "plane" ? await program : "fetch";
  let instance;
  if (given instanceof WebAssembly.Module) {
    fetchWanted();
    self.softmaxModule = given;
    instance = await WebAssembly.instantiate(given, go.importObject);
  } else {
    const made = await instantiate(url, go.importObject);
    self.softmaxModule = made.module;
    instance = made.instance;
    fetchWanted();
  }
  await kernels(simd, instance.exports.mem);
  await go.run(instance);
  fail(`the ${self.softmaxRole} worker stopped`);
}

start().catch((err) => fail(`the ${self.softmaxRole} worker could not start: ${err && err.message ? err.message : err}`));
