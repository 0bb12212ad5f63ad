// Runs web/kernels.wasm for wasm/worker's native tests (kernels_test.go):
// each request on stdin is a memory image and one call, and the answer on
// stdout is the image after the call and the call's result as float64.
//
//   request: u32 image length, the image, u32 JSON length, {"fn", "args"}
//   answer:  the image, f64 result
"use strict";
const fs = require("fs");

function readExactly(n) {
  const buf = Buffer.alloc(n);
  let got = 0;
  while (got < n) {
    let k;
    try {
      k = fs.readSync(0, buf, got, n - got, null);
    } catch (e) {
      if (e.code === "EAGAIN") continue;
      throw e;
    }
    if (k === 0) return null;
    got += k;
  }
  return buf;
}

const compiled = new WebAssembly.Module(fs.readFileSync(process.argv[2]));
for (;;) {
  const head = readExactly(4);
  if (head === null) break;
  const image = readExactly(head.readUInt32LE(0));
  const call = JSON.parse(readExactly(readExactly(4).readUInt32LE(0)).toString());
  const mem = new WebAssembly.Memory({ initial: Math.ceil(image.length / 65536) + 1 });
  new Uint8Array(mem.buffer).set(image);
  const k = new WebAssembly.Instance(compiled, { env: { mem } }).exports;
  const r = k[call.fn](...call.args);
  const out = Buffer.alloc(image.length + 8);
  Buffer.from(mem.buffer, 0, image.length).copy(out);
  out.writeDoubleLE(r === undefined ? 0 : r, image.length);
  fs.writeSync(1, out);
}
