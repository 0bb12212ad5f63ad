// The benchmark page's logic, driven by tools/bench over the DevTools
// protocol. Every implementation trains the same model: 784→10 softmax,
// cross-entropy, plain minibatch SGD with B = 100, α = 0.5, zero initial
// weights, λ = 0, for one epoch, on the same data.
//
//   bench.ready                      → facts about the browser and the libraries
//   bench.load(pack)                 → fetches /data/<pack>/{train,test}-{x.f32,y.u8},
//                                      the dense arrays tools/bench wrote
//   bench.run({impl, pack, seed, load}) → {ms, accuracy, longTask, seen, evalMs, stepsMs}
//
// Timing covers the epoch: data are in typed arrays (and, for
// TensorFlow.js, in tensors) before the clock starts. Ours is timed from
// posting "train" to the later of the "done" progress event and the
// epoch's test-set evaluation (the page shows "done" only once both are
// in), a fresh worker having fetched and decoded the pack before, with
// the pool of workers the page asks for (as many as the browser has
// cores, at most 8), which evaluates beside the training (evalMs is what
// an evaluation alone costs). The peers run on this page's main thread,
// as their users run them, and are evaluated after the clock stops.

const D = 784;
const K = 10;
const B = 100;
const LR = 0.5;
const wasmDir = new URL("node_modules/@tensorflow/tfjs-backend-wasm/dist/", import.meta.url).href;

// Long tasks (≥ 50 ms) on this page's main thread, as [start, end] in ms.
const longTasks = [];
const observer = new PerformanceObserver((list) => record(list.getEntries()));
observer.observe({ type: "longtask", buffered: true });

function record(entries) {
  for (const e of entries) longTasks.push([e.startTime, e.startTime + e.duration]);
}

// longestTask returns the duration of the longest task that overlapped
// [t0, t1], or 0 if none took 50 ms or more.
async function longestTask(t0, t1) {
  await sleep(20);
  record(observer.takeRecords());
  let longest = 0;
  for (const [s, e] of longTasks) {
    if (s < t1 && e > t0) longest = Math.max(longest, e - s);
  }
  return longest;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// nextTask lets the current task end, so that timing starts in a new one.
const nextTask = () => sleep(0);

// settle starts every implementation's timing from the same quiet state:
// it collects the garbage the previous runs left on this page (tools/bench
// starts Chromium with --js-flags=--expose-gc), then lets the browser's
// background work after it finish. Without it, the default pack's short
// epoch (ours: about 20 ms) often shared the cores with the collection of a
// peer's tensors: a median of 36.8 ms, against 17.8 ms alone.
async function settle() {
  if (typeof globalThis.gc === "function") globalThis.gc();
  await sleep(100);
}

// permutation returns 0..n-1 shuffled by Fisher–Yates with a seeded
// PRNG (mulberry32), so a run index gives the same order every time.
function permutation(n, seed) {
  let s = seed >>> 0;
  const rand = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const p = new Int32Array(n);
  for (let i = 0; i < n; i++) p[i] = i;
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    const t = p[i];
    p[i] = p[j];
    p[j] = t;
  }
  return p;
}

// ---- data ----

let data = null; // {pack, trainX, trainY, testX, testY, n, nTest}

async function fetchArray(url, Type) {
  const resp = await fetch(url);
  if (!resp.ok) throw new Error(`fetching ${url}: HTTP ${resp.status}`);
  return new Type(await resp.arrayBuffer());
}

async function load(pack) {
  if (data && data.pack === pack) return { train: data.n, test: data.nTest };
  data = null; // let the previous pack go before fetching the next
  const dir = `/data/${pack}/`;
  const d = {
    pack,
    trainX: await fetchArray(dir + "train-x.f32", Float32Array),
    trainY: await fetchArray(dir + "train-y.u8", Uint8Array),
    testX: await fetchArray(dir + "test-x.f32", Float32Array),
    testY: await fetchArray(dir + "test-y.u8", Uint8Array),
  };
  d.n = d.trainY.length;
  d.nTest = d.testY.length;
  if (d.trainX.length !== d.n * D || d.testX.length !== d.nTest * D) {
    throw new Error(`pack ${pack}: pixel arrays do not match the label counts`);
  }
  data = d;
  return { train: d.n, test: d.nTest };
}

function accuracyOf(predicted, labels) {
  let right = 0;
  for (let i = 0; i < labels.length; i++) if (predicted[i] === labels[i]) right++;
  return right / labels.length;
}

// ---- ours: the page's worker, through its own protocol ----

class WorkerClient {
  constructor(url) {
    this.log = []; // events: {type, body, t}
    this.error = null;
    this.wake = null;
    this.worker = new Worker(url);
    this.worker.onmessage = (e) => {
      const t = performance.now();
      const m = JSON.parse(e.data.env);
      this.log.push({ type: m.type, body: m.body || {}, t });
      if (m.type === "failed") this.error = new Error(`worker failed: ${m.body.message}`);
      if (this.wake) this.wake();
    };
    this.worker.onerror = (e) => {
      this.error = new Error(`worker error: ${e.message}`);
      if (this.wake) this.wake();
    };
  }

  post(type, body) {
    this.worker.postMessage({ env: JSON.stringify({ v: 1, type, body }) });
  }

  // until returns the first event at or after log index since with the
  // given type for which ok(body) holds.
  async until(type, ok, since, timeoutMs = 300000) {
    const deadline = performance.now() + timeoutMs;
    for (let i = since; ; ) {
      for (; i < this.log.length; i++) {
        const m = this.log[i];
        if (m.type === type && ok(m.body)) return m;
      }
      if (this.error) throw this.error;
      if (performance.now() > deadline) throw new Error(`no ${type} event from the worker within ${timeoutMs} ms`);
      await new Promise((resolve) => {
        this.wake = resolve;
        setTimeout(resolve, 1000);
      });
    }
  }

  terminate() {
    this.worker.terminate();
  }
}

// loadedWorker starts a fresh worker and waits until it has loaded the pack
// (and sent the gallery), as the page does before Train can be pressed.
// Then, as the page does once it shows "ready", it sends warm (the worker
// runs its kernels once, for the browser to optimise them) and waits until
// that is done, as a person reading the page would: an evaluate sent after
// it answers only when the warm-up is over.
async function loadedWorker(load) {
  const c = new WorkerClient("/web/worker.js");
  try {
    c.post("load", load);
    await c.until("loaded", () => true, 0);
    await c.until("samples", () => true, 0);
    // As many workers as the page starts: one fewer than the cores
    // (wasm/ui's sendWorkers).
    c.post("workers", { n: Math.max(1, Math.min((navigator.hardwareConcurrency || 2) - 1, 8)) });
    await c.until("poolState", () => true, 0);
    const mark = c.log.length;
    c.post("warm", {});
    c.post("evaluate", {});
    await c.until("evaluated", () => true, mark);
    await settle();
    return c;
  } catch (err) {
    c.terminate();
    throw err;
  }
}

async function runOurs(load, seed, deskew = false) {
  const c = await loadedWorker(load);
  try {
    const mark = c.log.length;
    const t0 = performance.now();
    c.post("train", { config: { lr: LR, batch: B, l2: 0, epochs: 1, seed, deskew } });
    const done = await c.until("progress", (b) => b.state === "done", mark);
    const ev = await c.until("evaluated", (b) => b.run >= 1 && b.epoch === 1, mark);
    const end = Math.max(done.t, ev.t);
    const longTask = await longestTask(t0, end);
    // An evaluate command's round trip shows what an evaluation costs.
    const mark2 = c.log.length;
    const e0 = performance.now();
    c.post("evaluate", {});
    const again = await c.until("evaluated", () => true, mark2);
    return {
      ms: end - t0,
      evalMs: again.t - e0,
      // The worker's own clock: the steps alone, without the evaluation,
      // the reports and the messages (the run's examples per second).
      stepsMs: done.body.perSecond > 0 ? (1000 * done.body.seen) / done.body.perSecond : 0,
      accuracy: ev.body.accuracy,
      longTask,
      seen: done.body.seen,
    };
  } finally {
    c.terminate();
  }
}

// timeTo92 presses Train, as the page does with its defaults (α 0.5,
// B 100, λ 1e-4, 5 epochs), and measures the time until the worker reports
// a test accuracy of at least 92% (an evaluation ends every epoch).
async function timeTo92(load, seed) {
  const c = await loadedWorker(load);
  try {
    const mark = c.log.length;
    const t0 = performance.now();
    c.post("train", { config: { lr: LR, batch: B, l2: 1e-4, epochs: 5, seed } });
    const ev = await c.until("evaluated", (b) => b.accuracy >= 0.92 || b.epoch >= 5, mark);
    return { ms: ev.t - t0, epoch: ev.body.epoch, accuracy: ev.body.accuracy, reached: ev.body.accuracy >= 0.92 };
  } finally {
    c.terminate();
  }
}

// ---- TensorFlow.js, as its users write it ----

async function useBackend(name) {
  if (tf.getBackend() !== name && !(await tf.setBackend(name))) {
    throw new Error(`TensorFlow.js backend ${name} did not initialise`);
  }
  await tf.ready();
}

function tfData(d) {
  return {
    x: tf.tensor2d(d.trainX, [d.n, D]),
    y: tf.tidy(() => tf.oneHot(tf.tensor1d(Int32Array.from(d.trainY), "int32"), K).cast("float32")),
  };
}

function tfAccuracy(d, predict) {
  const tx = tf.tensor2d(d.testX, [d.nTest, D]);
  const p = tf.tidy(() => predict(tx).argMax(1));
  const predicted = p.dataSync();
  tf.dispose([tx, p]);
  return accuracyOf(predicted, d.testY);
}

// tfjsLoop: variables, tf.train.sgd and optimizer.minimize per batch.
function tfjsLoop(d, seed) {
  const { x, y } = tfData(d);
  const W = tf.variable(tf.zeros([D, K]));
  const b = tf.variable(tf.zeros([K]));
  const optimizer = tf.train.sgd(LR);
  return {
    async train() {
      const perm = permutation(d.n, seed);
      for (let i = 0; i < d.n; i += B) {
        tf.tidy(() => {
          const idx = tf.tensor1d(perm.subarray(i, Math.min(i + B, d.n)), "int32");
          const xb = x.gather(idx);
          const yb = y.gather(idx);
          optimizer.minimize(() => tf.losses.softmaxCrossEntropy(yb, xb.matMul(W).add(b)));
        });
      }
      await W.data(); // the last update is complete
    },
    accuracy: () => tfAccuracy(d, (tx) => tx.matMul(W).add(b)),
    dispose: () => {
      tf.dispose([x, y, W, b]);
      optimizer.dispose();
    },
  };
}

// tfjsFit: a tf.sequential dense layer and model.fit.
function tfjsFit(d) {
  const { x, y } = tfData(d);
  const model = tf.sequential();
  model.add(tf.layers.dense({
    units: K, inputShape: [D], activation: "softmax",
    kernelInitializer: "zeros", biasInitializer: "zeros",
  }));
  const optimizer = tf.train.sgd(LR);
  model.compile({ optimizer, loss: "categoricalCrossentropy" });
  return {
    train: () => model.fit(x, y, { batchSize: B, epochs: 1, shuffle: true, verbose: 0 }),
    accuracy: () => tfAccuracy(d, (tx) => model.predict(tx)),
    dispose: () => {
      tf.dispose([x, y]);
      model.dispose();
      optimizer.dispose();
    },
  };
}

// ---- ConvNetJS ----

function convnet(d, seed) {
  const net = new convnetjs.Net();
  // A softmax layer brings its own fully connected layer: input → fc 10 → softmax.
  net.makeLayers([
    { type: "input", out_sx: 1, out_sy: 1, out_depth: D },
    { type: "softmax", num_classes: K },
  ]);
  const fc = net.layers[1];
  if (net.layers.length !== 3 || fc.layer_type !== "fc") throw new Error("unexpected ConvNetJS layers");
  for (const f of fc.filters) f.w.fill(0); // zero init, like the others
  fc.biases.w.fill(0);
  const trainer = new convnetjs.Trainer(net, {
    method: "sgd", learning_rate: LR, batch_size: B, l2_decay: 0, momentum: 0,
  });
  const v = new convnetjs.Vol(1, 1, D, 0.0);
  return {
    async train() {
      const perm = permutation(d.n, seed);
      for (let k = 0; k < d.n; k++) {
        const i = perm[k];
        v.w.set(d.trainX.subarray(i * D, (i + 1) * D));
        trainer.train(v, d.trainY[i]);
      }
    },
    accuracy() {
      const predicted = new Uint8Array(d.nTest);
      for (let i = 0; i < d.nTest; i++) {
        v.w.set(d.testX.subarray(i * D, (i + 1) * D));
        net.forward(v);
        predicted[i] = net.getPrediction();
      }
      return accuracyOf(predicted, d.testY);
    },
    dispose() {},
  };
}

async function runPeer(setup, seed) {
  const d = data;
  const p = setup(d, seed);
  try {
    await settle();
    const t0 = performance.now();
    await p.train();
    const t1 = performance.now();
    const longTask = await longestTask(t0, t1);
    return { ms: t1 - t0, accuracy: p.accuracy(), longTask, seen: d.n };
  } finally {
    p.dispose();
  }
}

const impls = {
  "ours": (a) => runOurs(a.load, a.seed),
  "ours-deskew": (a) => runOurs(a.load, a.seed, true),
  "tfjs-wasm-loop": async (a) => { await useBackend("wasm"); return runPeer(tfjsLoop, a.seed); },
  "tfjs-wasm-fit": async (a) => { await useBackend("wasm"); return runPeer(tfjsFit, a.seed); },
  "tfjs-cpu-loop": async (a) => { await useBackend("cpu"); return runPeer(tfjsLoop, a.seed); },
  "tfjs-cpu-fit": async (a) => { await useBackend("cpu"); return runPeer(tfjsFit, a.seed); },
  "convnetjs": (a) => runPeer(convnet, a.seed),
};

async function run(a) {
  const f = impls[a.impl];
  if (!f) throw new Error(`unknown implementation ${a.impl}`);
  if (!data || data.pack !== a.pack) throw new Error(`pack ${a.pack} is not loaded`);
  return f(a);
}

async function init() {
  tf.wasm.setWasmPaths(wasmDir);
  await useBackend("wasm");
  const simd = await tf.env().getAsync("WASM_HAS_SIMD_SUPPORT");
  const threads = await tf.env().getAsync("WASM_HAS_MULTITHREAD_SUPPORT");
  await useBackend("cpu");
  // The user agent string says 156.0.0.0; the full version is a high-entropy value.
  const ua = navigator.userAgentData;
  const brands = ua ? (await ua.getHighEntropyValues(["fullVersionList"])).fullVersionList : [];
  return {
    userAgent: navigator.userAgent,
    brands,
    tfjs: tf.version.tfjs,
    tfjsWasm: tf.wasm.version_wasm,
    wasmSimd: simd,
    wasmThreads: threads,
    longTaskObserver: PerformanceObserver.supportedEntryTypes.includes("longtask"),
  };
}

window.bench = { ready: init(), load, run, timeTo92 };
