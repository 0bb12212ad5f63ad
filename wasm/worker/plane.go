//go:build js && wasm

package worker

import (
	"context"
	"time"

	"softmaxdemo/wasm/planework"
	"softmaxdemo/wasm/protocol"
)

// PlaneMain runs the plane's worker (wasm/planework): a Web Worker of its
// own, started by the page as worker.js#plane (named "plane") from the
// program it compiled. It says it is alive every second, as the training
// worker does, so that the page replaces it if it dies. It never returns.
func PlaneMain() {
	in, out := listen()
	go func() {
		for range time.Tick(heartbeatEvery) {
			post(protocol.Heartbeat{})
		}
	}()
	planework.Run(context.Background(), in, out, newEnv())
}
