// The page's language, before anything is drawn: index.html is written in
// Chinese (wasm/ui's defaultLang); a visitor who will read English (their
// link, their earlier choice, or a browser that prefers no Chinese: the
// same rule as wasm/ui's pickLang) has the prerendered text hidden until
// the page has rendered in English, instead of a flash of Chinese.
"use strict";
(() => {
  let lang = "";
  try {
    const m = /(?:^#|&)lang=([a-z]{2})/i.exec(location.hash);
    lang = (m && m[1].toLowerCase()) || localStorage.getItem("softmax:lang") || "";
  } catch (e) {}
  if (lang !== "zh" && lang !== "en") {
    const prefs = navigator.languages || [navigator.language || ""];
    lang = prefs.some((l) => /^zh\b/i.test(l)) ? "zh" : "en";
  }
  const html = document.documentElement;
  if (!html.lang.toLowerCase().startsWith(lang)) {
    html.setAttribute("data-lang-pending", "");
    html.lang = lang === "zh" ? "zh-CN" : "en";
  }
})();

// Storage and the clipboard for the Go page: a browser throws when
// storage is disabled or full, and an exception thrown into Go's
// WebAssembly would stop the page, so these catch it and say no.
globalThis.softmaxStore = {
  get(key) {
    try {
      return localStorage.getItem(key);
    } catch (e) {
      return null;
    }
  },
  set(key, value) {
    try {
      localStorage.setItem(key, value);
      return true;
    } catch (e) {
      return false;
    }
  },
  // The tab's own storage (sessionStorage), gone when the tab closes: the
  // class's presenter key.
  tabGet(key) {
    try {
      return sessionStorage.getItem(key);
    } catch (e) {
      return null;
    }
  },
  tabSet(key, value) {
    try {
      sessionStorage.setItem(key, value);
      return true;
    } catch (e) {
      return false;
    }
  },
};
// softmaxCopy says whether the browser let the page ask for the
// clipboard: not in an insecure context, such as a plain-HTTP address on
// the local network (make serve-class), where the page shows the link to
// copy by hand instead.
globalThis.softmaxCopy = (text) => {
  try {
    if (!globalThis.isSecureContext || !navigator.clipboard) return false;
    navigator.clipboard.writeText(text).catch(() => {});
    return true;
  } catch (e) {
    return false;
  }
};

// Files for the Go page (wasm/ui/digits/files.go), with the same care: a
// download through a Blob and an <a download>, a File read into bytes (a
// promise that never rejects: it resolves to {bytes} or {error}), and a
// file dropped anywhere on the page handed to the page.
globalThis.softmaxDownload = (name, type, bytes) => {
  try {
    const url = URL.createObjectURL(new Blob([bytes], { type }));
    const a = document.createElement("a");
    a.href = url;
    a.download = name;
    a.style.display = "none";
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60000);
    return true;
  } catch (e) {
    return false;
  }
};
globalThis.softmaxReadFile = (file) => {
  try {
    return file.arrayBuffer().then(
      (buf) => ({ bytes: new Uint8Array(buf) }),
      (e) => ({ error: String((e && e.message) || e) }),
    );
  } catch (e) {
    return Promise.resolve({ error: String((e && e.message) || e) });
  }
};
globalThis.softmaxOnDrop = (handle) => {
  try {
    const files = (e) => e.dataTransfer && [...(e.dataTransfer.types || [])].includes("Files");
    document.addEventListener("dragover", (e) => {
      if (files(e)) e.preventDefault();
    });
    document.addEventListener("drop", (e) => {
      if (!files(e)) return;
      e.preventDefault();
      const f = e.dataTransfer.files && e.dataTransfer.files[0];
      if (f) handle(f);
    });
    return true;
  } catch (e) {
    return false;
  }
};

// Starts the training worker, and asks it for the default data, as soon as
// the page's HTML is parsed, while the page's own WebAssembly is still
// loading: the two start up side by side instead of one after the other.
// The Go page adopts the worker (wasm/ui/worker.go: adoptWorker) and
// replays the events that arrived before it was ready. Without this file
// the page starts its own worker, only later.
//
// The worker runs the page's own program (web/worker.js): this script
// compiles it (below) and hands the worker the WebAssembly.Module as soon
// as it is compiled, so that app.wasm is downloaded and compiled once.
// softmaxProgram keeps it for a worker the page starts later (a restart
// after a crash); a worker given {wasm: "fetch"} fetches app.wasm itself.
globalThis.softmaxProgram = null;
globalThis.softmaxGiveProgram = (worker) => {
  try {
    worker.postMessage({ wasm: globalThis.softmaxProgram || "fetch" });
  } catch (e) {
    worker.postMessage({ wasm: "fetch" }); // a browser that cannot send a Module
  }
};
// A download of the program fails as stalled once no byte has arrived for
// softmaxStallAfter milliseconds ("the download of <what> stalled"): a
// slow download that keeps receiving goes on, a held one ends in an error
// the page shows, instead of "loading" for ever. web/worker.js has the
// same deadline for the worker's own downloads.
globalThis.softmaxStallAfter = 15000;
// softmaxStallText says that the download of what stalled, in the page's
// language (set above, before Go's catalogs exist): nothing arrived for
// ms milliseconds, or, with noAnswer, the server never answered.
globalThis.softmaxStallText = (what, ms, noAnswer) => {
  const s = ms / 1000;
  if (document.documentElement.lang.toLowerCase().startsWith("zh")) {
    return noAnswer ? `${what} 的下载停住了：${s} 秒内服务器没有回应` : `${what} 的下载停住了：${s} 秒内没有收到任何数据`;
  }
  return noAnswer ? `the download of ${what} stalled: no answer for ${s} s` : `the download of ${what} stalled: nothing arrived for ${s} s`;
};

// The program, web/app.wasm, is compiled from here, as this script runs
// in the <head>, not when go-app's deferred app.js runs after the whole
// page is parsed and laid out: its compilation overlaps the page's, and
// the worker gets the module, and starts, hundreds of milliseconds
// earlier. Its download was started by the inline script ahead of this
// one (softmaxProgramFetch, written by wasm/app), which this takes.
//
// The compiler is given the fetch's own Response, never a copy made in
// JavaScript (new Response(stream)), for two reasons: V8 compiles it as it
// arrives, off the main thread, and Chromium keeps the compiled code only
// for a Response that came from the network, the HTTP cache or the
// service worker's cache, with its URL and Content-Type application/wasm,
// and reuses it on the next visit (wasm/app/service-worker.js hands this
// fetch the HTTP cache's response, whose code the first visit left).
// Deadlines and the slow link's watch read a clone, a branch of the same
// stream, instead.
//
// go-app's app.js then fetches app.wasm itself and compiles it with
// WebAssembly.instantiateStreaming: its fetch is answered with an empty
// stand-in, and its instantiateStreaming instantiates the module compiled
// here. An error (a missing or broken program, a stall) rejects there, and
// go-app's loader shows it.
(() => {
  const compileStreaming = WebAssembly.compileStreaming;
  const instantiate = WebAssembly.instantiateStreaming;
  if (!compileStreaming || !instantiate || typeof AbortController === "undefined") return; // app.js compiles, and the page says "fetch"
  const started = globalThis.softmaxProgramFetch;
  const url = started ? started.url : new URL("app.wasm", document.currentScript.src).href;
  const stall = globalThis.softmaxStallAfter;
  const waitForLoad = 1000;
  const abort = started ? started.abort : new AbortController();
  let timer = 0;
  let fail;
  const stalled = new Promise((_, reject) => {
    fail = reject;
  });
  stalled.catch(() => {});
  // arm starts the deadline again: the answer's headers, then each chunk.
  const arm = (noAnswer) => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      fail(new Error(softmaxStallText("app.wasm", stall, noAnswer)));
      abort.abort();
    }, stall);
  };
  arm(true);
  const response = started ? started.response : fetch(url, { signal: abort.signal });
  const program = Promise.race([response, stalled]).then((resp) => {
    if (resp.ok && resp.body && resp.clone) {
      arm(false);
      // On a slow link the worker asks for the pack before the program
      // is in: only before the program is given, which makes the worker
      // fetch anyway (worker.js reads this, Go would not).
      const soon = softmaxSlowLink()
        ? () => {
            const boot = globalThis.softmaxBoot;
            if (boot && boot.worker && !boot.given) boot.worker.postMessage({ prefetch: true });
          }
        : null;
      softmaxWatchProgram(resp.clone(), soon, () => arm(false)).finally(() => clearTimeout(timer));
    } else {
      clearTimeout(timer);
    }
    return Promise.race([compileStreaming.call(WebAssembly, resp), stalled]);
  });
  program.then(
    (module) => {
      globalThis.softmaxProgram = module;
      const boot = globalThis.softmaxBoot;
      if (boot && boot.worker && !boot.given) {
        globalThis.softmaxGiveProgram(boot.worker);
        boot.given = true;
      }
    },
    () => clearTimeout(timer), // reported by instantiateStreaming below
  );
  const realFetch = globalThis.fetch;
  const standIn = function (input, init) {
    const asked = input instanceof Request ? input.url : new URL(String(input), location.href).href;
    if (asked !== url) return realFetch.call(this, input, init);
    globalThis.fetch = realFetch; // only app.js's fetch of the program, the first
    return Promise.resolve(new Response(new Uint8Array(0), { headers: { "Content-Type": "application/wasm" } }));
  };
  globalThis.fetch = standIn;
  WebAssembly.instantiateStreaming = async function (source, imports) {
    WebAssembly.instantiateStreaming = instantiate; // only app.js's, the first
    if (globalThis.fetch === standIn) globalThis.fetch = realFetch;
    Promise.resolve(source)
      .then((r) => r && r.body && r.body.cancel())
      .catch(() => {});
    const module = await program;
    // The worker is asked for the pack first (boot.asked, below), or after
    // waitForLoad at most, should the manifest be slow to come.
    const boot = globalThis.softmaxBoot;
    if (boot && boot.asked) await Promise.race([boot.asked, new Promise((resolve) => setTimeout(resolve, waitForLoad))]);
    return { module, instance: await WebAssembly.instantiate(module, imports) };
  };
})();
// softmaxSlowLink says whether watching the program is worth its copy:
// only on a network whose round trip is long enough to leave the link idle
// while the worker asks for the pack (the HTML's own request took 10 ms or
// more), not on localhost, and not where the service worker answers from
// its cache.
globalThis.softmaxSlowLink = () => {
  try {
    const sw = navigator.serviceWorker;
    if (sw && sw.controller) return false;
    const nav = performance.getEntriesByType("navigation")[0];
    return !!nav && nav.responseStart - nav.requestStart >= 10;
  } catch (e) {
    return false;
  }
};

// softmaxWatchProgram reads a copy of the program as it arrives and calls
// soon() once half of its last section, the data section, is in: Go's
// WebAssembly ends with its data (a third of the bytes, under half of the
// compressed ones), and a section's header gives its size. A program
// without a data section calls soon() at its end; a stream that is not
// WebAssembly, or breaks, at once (the compiler then reports the
// program's failure). With arrived, it reads the copy to its end and
// calls arrived() as each chunk comes (the deadline of a stalled
// download); soon may then be null. It never throws and never holds the
// program up: the copy is a branch of the same stream, dropped once done.
globalThis.softmaxWatchProgram = async (resp, soon, arrived) => {
  let called = !soon;
  const call = () => {
    if (!called) {
      called = true;
      soon();
    }
  };
  try {
    const reader = resp.body.getReader();
    let pos = 0; // bytes read so far
    let next = 8; // where the next section's header starts
    let header = []; // its bytes, while they straddle chunks
    let fireAt = Infinity;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (arrived) arrived();
      if (!called) {
        try {
          for (let i = 0; i < value.length && pos + i < 8; i++) {
            if (value[i] !== [0, 0x61, 0x73, 0x6d, 1, 0, 0, 0][pos + i]) throw new Error("not WebAssembly");
          }
          for (let i = Math.max(next - pos, 0); i < value.length && fireAt === Infinity; ) {
            header.push(value[i++]);
            if (header.length < 2 || header[header.length - 1] & 0x80) {
              if (header.length > 6) throw new Error("not a WebAssembly section header");
              continue;
            }
            let size = 0;
            for (let k = header.length - 1; k >= 1; k--) size = size * 128 + (header[k] & 0x7f);
            const start = pos + i; // the section's first byte
            if (header[0] === 11) fireAt = start + size / 2;
            next = start + size;
            header = [];
            i = next - pos;
          }
        } catch (e) {
          call(); // watching is an optimisation: the worker still asks when given the program
        }
      }
      pos += value.length;
      if (pos >= fireAt) call();
      if (called && !arrived) {
        reader.cancel().catch(() => {});
        return;
      }
    }
  } catch (e) {
    // A broken stream: the compiler reports it.
  }
  call();
};

(() => {
  if (typeof Worker === "undefined") return;
  const base = new URL(".", document.currentScript.src); // .../web/
  const boot = { worker: new Worker(new URL("worker.js#page", base), { name: "page" }), events: [], crashed: "", loading: "", manifest: "", given: false };
  // The worker's messages are listed in wasm/protocol/codec.go's table;
  // this script sends "load" and watches for "loaded", and the page reads
  // the rest from boot.events.
  boot.worker.onmessage = (e) => {
    boot.events.push(e.data);
    // For tools/browsertest's BenchmarkPageReady: when the data were ready.
    if (e.data.env.startsWith('{"v":1,"type":"loaded"')) performance.mark("softmax:loaded");
  };
  boot.worker.onerror = (e) => {
    e.preventDefault();
    boot.crashed = e.message || "the worker could not start";
  };
  // The manifest has 15 s (it is under 2 kB); after that the page asks
  // for it itself (wasm/ui/browser: Fetch), which reports a failure.
  const abort = new AbortController();
  const giveUp = setTimeout(() => abort.abort(), globalThis.softmaxStallAfter);
  boot.asked = fetch(new URL("data/manifest.json", base), { signal: abort.signal })
    .then((r) => (r.ok ? r.text() : Promise.reject(new Error(`HTTP ${r.status}`))))
    .then((text) => {
      boot.manifest = text; // the page reads it from here instead of fetching it again
      const m = JSON.parse(text);
      const p = m.packs.find((p) => p.name === "default");
      const body = { name: p.name, url: new URL("data/" + p.file, base).href, sha256: p.sha256, bytes: p.bytes };
      if (p.trainBytes && p.trainSha256) {
        // The training images come first: the worker says Loaded once they are in.
        body.trainBytes = p.trainBytes;
        body.trainSha256 = p.trainSha256;
      }
      boot.worker.postMessage({ env: JSON.stringify({ v: 1, type: "load", body }) });
      boot.loading = p.name;
    })
    .catch(() => {}) // the page fetches the manifest too, and reports a failure
    .finally(() => clearTimeout(giveUp));
  // boot.asked settles once the worker has been asked for the pack, or the
  // manifest failed: the page's program waits for it (above), since the
  // page's start is one long task that would hold the manifest's last
  // steps, and with them the worker's load, until it ends.
  globalThis.softmaxBoot = boot;
})();

// The service worker fills its cache for offline use once the page is
// ready, not while the page starts (wasm/app/service-worker.js): it asks
// "softmax:precache?", and the page answers "softmax:precache" when it is
// ready (it calls softmaxPageReady). What it did is kept in
// softmaxPrecached, for the tests.
(() => {
  const sw = navigator.serviceWorker;
  if (!sw) return;
  let ready = false;
  const asking = [];
  sw.addEventListener("message", (e) => {
    const type = e.data && e.data.type;
    if (type === "softmax:precache?") {
      if (ready) e.source.postMessage({ type: "softmax:precache" });
      else asking.push(e.source);
    } else if (type === "softmax:precached") {
      globalThis.softmaxPrecached = e.data.why;
    }
  });
  sw.startMessages();
  globalThis.softmaxPageReady = () => {
    ready = true;
    for (const w of asking.splice(0)) w.postMessage({ type: "softmax:precache" });
  };
})();

// The class (wasm/ui/classroom, served by tools/serve -class), with the
// same care as the files above: a request whose promise never rejects (it
// resolves to {status, retryAfter, version, checksum, bytes} or {error}),
// and an event stream (EventSource) whose events and state changes go to
// Go's callbacks, which must not throw.
globalThis.softmaxClassRequest = (method, url, type, bytes) => {
  try {
    const init = { method, cache: "no-store", credentials: "same-origin" };
    if (bytes) {
      init.body = bytes;
      init.headers = { "Content-Type": type };
    }
    return fetch(url, init).then(
      (r) =>
        r.arrayBuffer().then(
          (buf) => ({
            status: r.status,
            retryAfter: r.headers.get("Retry-After") || "",
            version: r.headers.get("X-Theta-Version") || "",
            checksum: r.headers.get("X-Theta-Checksum") || "",
            bytes: new Uint8Array(buf),
          }),
          (e) => ({ error: String((e && e.message) || e) }),
        ),
      (e) => ({ error: String((e && e.message) || e) }),
    );
  } catch (e) {
    return Promise.resolve({ error: String((e && e.message) || e) });
  }
};
// softmaxClassEvents opens the stream at url and calls onEvent(name, id,
// data) for each of names, and onState(readyState) on open and on error
// (0 reconnecting, 1 open, 2 closed for good). It returns a function that
// closes it, or null where the browser has no EventSource.
globalThis.softmaxClassEvents = (url, names, onEvent, onState) => {
  try {
    if (typeof EventSource === "undefined") return null;
    const es = new EventSource(url);
    for (const name of names) {
      es.addEventListener(name, (e) => onEvent(name, e.lastEventId || "", e.data));
    }
    es.onopen = () => onState(1);
    es.onerror = () => onState(es.readyState === 2 ? 2 : 0);
    return () => es.close();
  } catch (e) {
    return null;
  }
};
// softmaxClassID returns 16 random bytes in hex (crypto.getRandomValues,
// which plain-HTTP pages have too), for a phone's id.
globalThis.softmaxClassID = () => {
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
};
