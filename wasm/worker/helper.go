//go:build js && wasm

package worker

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"syscall/js"

	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/session"
)

// HelpMain runs a helper of the training worker's pool (session.Help):
// the training worker starts it as a nested Web Worker on this same
// program (web/worker.js#helper) and it never returns.
func HelpMain() {
	in, out := listen()
	installKernel()
	session.Help(context.Background(), in, out)
}

// helper is a helper of the pool as the training worker sees it: a
// nested Web Worker running web/worker.js#helper on the program this one
// runs (self.softmaxModule, which worker.js keeps).
type helper struct {
	w       js.Value
	replies chan protocol.Msg
	funcs   []js.Func
	mu      sync.Mutex
	stopped bool
}

// StartHelper implements session.Env.
func (e *env) StartHelper() (session.Helper, error) {
	module := self.Get("softmaxModule")
	if !module.Truthy() {
		return nil, errors.New("this worker has no compiled program to give a helper")
	}
	url := js.Global().Get("URL").New("worker.js#helper", self.Get("location").Get("href"))
	var w js.Value
	if err := catch(func() { w = js.Global().Get("Worker").New(url.Call("toString"), map[string]any{"name": "helper"}) }); err != nil {
		return nil, fmt.Errorf("the browser refused a worker: %v", err)
	}
	h := &helper{w: w, replies: make(chan protocol.Msg, 64)}
	onMessage := js.FuncOf(func(_ js.Value, args []js.Value) any {
		data := args[0].Get("data")
		if data.Type() != js.TypeObject || data.Get("env").Type() != js.TypeString {
			return nil
		}
		var bulk []byte
		if b := data.Get("bulk"); b.Truthy() && b.InstanceOf(arrayBuf) {
			u := uint8Array.New(b)
			bulk = make([]byte, u.Length())
			js.CopyBytesToGo(bulk, u)
		}
		m, err := protocol.Decode([]byte(data.Get("env").String()), bulk)
		if err != nil {
			m = protocol.Failed{Message: fmt.Sprintf("a helper sent a message that cannot be read: %v", err)}
		}
		if f, ok := m.(protocol.Failed); ok && !f.Fatal {
			return nil // a helper's own notices are not the pool's business
		}
		h.reply(m)
		return nil
	})
	onError := js.FuncOf(func(_ js.Value, args []js.Value) any {
		msg := "the helper's worker failed"
		if len(args) > 0 && args[0].Get("message").Type() == js.TypeString {
			msg += ": " + args[0].Get("message").String()
		}
		h.reply(protocol.Failed{Message: msg, Fatal: true})
		return nil
	})
	h.funcs = []js.Func{onMessage, onError}
	w.Set("onmessage", onMessage)
	w.Set("onerror", onError)
	w.Call("postMessage", js.ValueOf(map[string]any{"wasm": module}))
	return h, nil
}

// reply delivers m unless the helper was stopped; a full channel (the
// training worker busy) drops nothing: the send waits in a goroutine.
func (h *helper) reply(m protocol.Msg) {
	h.mu.Lock()
	stopped := h.stopped
	h.mu.Unlock()
	if stopped {
		return
	}
	select {
	case h.replies <- m:
	default:
		go func() { h.replies <- m }()
	}
}

func (h *helper) Post(m protocol.Msg) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.stopped {
		return
	}
	postTo(h.w, m)
}

func (h *helper) Replies() <-chan protocol.Msg { return h.replies }

func (h *helper) Stop() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.stopped {
		return
	}
	h.stopped = true
	h.w.Call("terminate")
	for _, f := range h.funcs {
		f.Release()
	}
}

// catch runs f, turning a JavaScript exception into an error.
func catch(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	f()
	return nil
}
