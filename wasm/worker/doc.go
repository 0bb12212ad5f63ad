// Package worker is the training Web Worker: syscall/js glue around
// wasm/session. It is part of web/app.wasm, whose main runs Main when it
// finds no document (a worker's global scope); web/worker.js starts it.
//
// Messages cross in both directions as {env, bulk}: env is the JSON
// envelope of wasm/protocol as a string, bulk an optional ArrayBuffer
// (transferred) with the bulk bytes of Weights and Samples.
//
// Commands that arrive before Go runs are queued by worker.js in
// self.goQueue; Main (and HelpMain, in a helper) installs self.onmessage
// and drains the queue in the same JS turn, so none is lost or reordered.
package worker
