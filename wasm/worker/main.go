//go:build js && wasm

package worker

import (
	"context"
	"fmt"
	"syscall/js"
	"time"

	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/session"
)

// inboxSize is how many commands may wait while the session is busy.
const inboxSize = 64

// heartbeatEvery is how often the worker says it is alive; the page
// replaces a worker that has been silent for a few seconds (wasm/ui).
// The ticker's goroutine runs whenever the session yields, which a
// training run does every slice (about 8 ms) and an idle one by waiting.
const heartbeatEvery = time.Second

var (
	self       = js.Global()
	uint8Array = js.Global().Get("Uint8Array")
	arrayBuf   = js.Global().Get("ArrayBuffer")
)

// Main runs the worker's session; it never returns.
func Main() {
	in, out := listen()
	go func() {
		for range time.Tick(heartbeatEvery) {
			post(protocol.Heartbeat{})
		}
	}()
	env := newEnv()
	env.kernel, env.refused = installKernel()
	session.Run(context.Background(), in, out, env)
}

// listen connects this worker's global scope to a session: it installs
// self.onmessage, which delivers each message to the inbox in, then
// delivers the messages worker.js queued in self.goQueue before Go ran,
// in the same JS turn, and starts a goroutine that posts whatever the
// session sends on out.
func listen() (in <-chan protocol.Msg, out chan<- protocol.Msg) {
	inbox := make(chan protocol.Msg, inboxSize)
	outbox := make(chan protocol.Msg, 16)
	receive := js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) > 0 {
			deliver(args[0].Get("data"), inbox)
		}
		return nil
	})
	self.Set("onmessage", receive)
	if q := self.Get("goQueue"); q.Truthy() {
		for i := range q.Length() {
			deliver(q.Index(i), inbox)
		}
	}
	self.Set("goQueue", js.Undefined())
	go func() {
		for m := range outbox {
			post(m)
		}
	}()
	return inbox, outbox
}

// deliver decodes one {env, bulk} message from the page and queues it for
// the session without blocking; it posts Failed if it cannot.
func deliver(data js.Value, in chan<- protocol.Msg) {
	if data.Type() != js.TypeObject || data.Get("env").Type() != js.TypeString {
		post(protocol.Failed{Message: "the worker got a message without a string envelope"})
		return
	}
	env := data.Get("env").String()
	var bulk []byte
	if b := data.Get("bulk"); b.Truthy() && b.InstanceOf(arrayBuf) {
		u := uint8Array.New(b)
		bulk = make([]byte, u.Length())
		js.CopyBytesToGo(bulk, u)
	}
	m, err := protocol.Decode([]byte(env), bulk)
	if err != nil {
		post(protocol.Failed{Message: fmt.Sprintf("the worker could not read a message: %v", err)})
		return
	}
	select {
	case in <- m:
	default:
		post(protocol.Failed{
			Message: fmt.Sprintf("the worker is busy: it dropped a %s command", protocol.Name(m)),
			Hint:    "hint.busy",
			Key:     "err.busy",
			Args:    []string{protocol.Name(m)},
		})
	}
}

// post sends m to the page (or, in a helper, to the training worker),
// transferring its bulk bytes.
func post(m protocol.Msg) { postTo(self, m) }

// postTo sends m to target (a worker's global scope or a Worker).
func postTo(target js.Value, m protocol.Msg) {
	env, bulk, err := protocol.Encode(m)
	if err != nil {
		env, bulk, _ = protocol.Encode(protocol.Failed{Message: err.Error()})
	}
	msg := js.Global().Get("Object").New()
	msg.Set("env", string(env))
	if bulk == nil {
		target.Call("postMessage", msg)
		return
	}
	u := uint8Array.New(len(bulk))
	js.CopyBytesToJS(u, bulk)
	buf := u.Get("buffer")
	msg.Set("bulk", buf)
	target.Call("postMessage", msg, []any{buf})
}
