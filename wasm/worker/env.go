//go:build js && wasm

package worker

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"strconv"
	"syscall/js"
	"time"
)

// env is session.Env in a Web Worker.
type env struct {
	port    js.Value      // posts wake-ups to ...
	woken   chan struct{} // ... the handler that fills this
	kernel  string        // the training kernel in use
	refused string        // why the SIMD kernel was refused, if it was
}

func (e *env) Kernel() (name, refused string) { return e.kernel, e.refused }

// newEnv returns an env whose Yield goes through a MessageChannel, which
// returns to the event loop without setTimeout's 4 ms clamp.
func newEnv() *env {
	e := &env{woken: make(chan struct{}, 1)}
	ch := js.Global().Get("MessageChannel").New()
	ch.Get("port1").Set("onmessage", js.FuncOf(func(js.Value, []js.Value) any {
		select {
		case e.woken <- struct{}{}:
		default:
		}
		return nil
	}))
	e.port = ch.Get("port2")
	return e
}

func (e *env) Now() time.Time { return time.Now() }

// After is time.After: Go's timers in WebAssembly wait in setTimeout, so
// the JS event loop runs meanwhile and delivers the page's commands.
func (e *env) After(d time.Duration) <-chan time.Time { return time.After(d) }

// Yield posts a message to itself and waits for it: meanwhile every
// goroutine is blocked, so the JS event loop runs and delivers the page's
// queued messages.
func (e *env) Yield() {
	e.port.Call("postMessage", js.Null())
	<-e.woken
}

// SHA256 digests b with crypto.subtle, which browsers offer in secure
// contexts (https and localhost); elsewhere it falls back to Go's.
func (e *env) SHA256(b []byte) ([32]byte, error) {
	var sum [32]byte
	subtle := js.Global().Get("crypto").Get("subtle")
	if subtle.IsUndefined() || subtle.IsNull() {
		return sha256.Sum256(b), nil
	}
	u := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(u, b)
	buf, err := await(subtle.Call("digest", "SHA-256", u))
	if err != nil {
		return sum, err
	}
	js.CopyBytesToGo(sum[:], js.Global().Get("Uint8Array").New(buf))
	return sum, nil
}

// Fetch gets url with fetch(), streaming the body to report progress. The
// total is the Content-Length, or 0 when the body is compressed on the
// wire or the header is missing.
func (e *env) Fetch(ctx context.Context, url string, progress func(body []byte, total int64)) ([]byte, error) {
	resp, err := await(prefetched(url))
	if err != nil {
		return nil, fmt.Errorf("fetching %s: %w", url, err)
	}
	if !resp.Get("ok").Bool() {
		return nil, fmt.Errorf("fetching %s: HTTP %d %s", url, resp.Get("status").Int(), resp.Get("statusText").String())
	}
	var total int64
	h := resp.Get("headers")
	if enc := h.Call("get", "content-encoding"); enc.IsNull() || enc.String() == "identity" {
		if n := h.Call("get", "content-length"); !n.IsNull() {
			total, _ = strconv.ParseInt(n.String(), 10, 64)
		}
	}
	body := resp.Get("body")
	if body.IsNull() || body.IsUndefined() {
		buf, err := await(resp.Call("arrayBuffer"))
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", url, err)
		}
		u := js.Global().Get("Uint8Array").New(buf)
		b := make([]byte, u.Length())
		js.CopyBytesToGo(b, u)
		progress(b, total)
		return b, nil
	}
	reader := body.Call("getReader")
	b := make([]byte, 0, max(total, 0))
	for {
		if ctx.Err() != nil {
			reader.Call("cancel")
			return nil, ctx.Err()
		}
		r, err := await(reader.Call("read"))
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", url, err)
		}
		if r.Get("done").Bool() {
			return b, nil
		}
		chunk := r.Get("value")
		n := chunk.Length()
		b = append(b, make([]byte, n)...)
		js.CopyBytesToGo(b[len(b)-n:], chunk)
		progress(b, total)
	}
}

// prefetched returns the promise of a response to url: the one worker.js
// started before Go ran, taken once, or a new fetch.
func prefetched(url string) js.Value {
	if cache, loc := js.Global().Get("prefetched"), js.Global().Get("location"); cache.Truthy() && loc.Truthy() {
		abs := js.Global().Get("URL").New(url, loc.Get("href")).Get("href")
		if p := cache.Call("get", abs); p.Truthy() {
			cache.Call("delete", abs)
			return p
		}
	}
	return js.Global().Call("fetch", url)
}

// await blocks the calling goroutine until the promise p settles and
// returns its value or its rejection as an error.
func await(p js.Value) (js.Value, error) {
	type result struct {
		v   js.Value
		err error
	}
	ch := make(chan result, 1)
	then := js.FuncOf(func(_ js.Value, args []js.Value) any {
		ch <- result{v: arg(args)}
		return nil
	})
	defer then.Release()
	catch := js.FuncOf(func(_ js.Value, args []js.Value) any {
		ch <- result{err: jsError(arg(args))}
		return nil
	})
	defer catch.Release()
	p.Call("then", then, catch)
	r := <-ch
	return r.v, r.err
}

func arg(args []js.Value) js.Value {
	if len(args) == 0 {
		return js.Undefined()
	}
	return args[0]
}

// jsError turns a JS exception or rejection reason into an error.
func jsError(v js.Value) error {
	if v.Type() == js.TypeObject && v.Get("message").Type() == js.TypeString {
		return errors.New(v.Get("message").String())
	}
	return errors.New(js.Global().Call("String", v).String())
}
