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

	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/session"
)

// env is session.Env in a Web Worker.
type env struct {
	sink    js.Value      // Drop posts here; a handler that does nothing takes it
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
	sink := js.Global().Get("MessageChannel").New()
	sink.Get("port1").Set("onmessage", js.Global().Get("Function").New())
	e.sink = sink.Get("port2")
	return e
}

// Drop posts m as post does, to the sink, whose handler does nothing.
func (e *env) Drop(m protocol.Msg) { postTo(e.sink, m) }

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
// wire or the header is missing. Each wait, for the headers and for every
// chunk, ends after session.StallAfter without a byte: the request is
// aborted and the error wraps session.ErrStalled. A download that keeps
// receiving, however slowly, is never cut short.
func (e *env) Fetch(ctx context.Context, url string, progress func(body []byte, total int64)) ([]byte, error) {
	p, abort := prefetched(url)
	wait := func(p js.Value) (js.Value, error) { return awaitWithin(ctx, p, session.StallAfter, abort) }
	resp, err := wait(p)
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
		buf, err := wait(resp.Call("arrayBuffer"))
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
		r, err := wait(reader.Call("read"))
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

// prefetched returns the promise of a response to url, and a function
// that aborts that request: the one worker.js started before Go ran,
// taken once, or a new fetch.
func prefetched(url string) (p, abort js.Value) {
	if cache, loc := js.Global().Get("prefetched"), js.Global().Get("location"); cache.Truthy() && loc.Truthy() {
		abs := js.Global().Get("URL").New(url, loc.Get("href")).Get("href")
		if p := cache.Call("get", abs); p.Truthy() {
			cache.Call("delete", abs)
			return p, p.Get("abort")
		}
	}
	ctrl := js.Global().Get("AbortController").New()
	opts := js.Global().Get("Object").New()
	opts.Set("signal", ctrl.Get("signal"))
	return js.Global().Call("fetch", url, opts), ctrl.Get("abort").Call("bind", ctrl)
}

// awaitWithin is await with a deadline: if p has not settled after d, or
// once ctx is done, it calls abort (the request's AbortController, which
// rejects p) and returns ErrStalled or ctx's error. It returns only once p
// has settled, so that the callbacks it gave p are never called released.
func awaitWithin(ctx context.Context, p js.Value, d time.Duration, abort js.Value) (js.Value, error) {
	ch := settle(p)
	t := time.NewTimer(d)
	defer t.Stop()
	var err error
	select {
	case r := <-ch:
		return r.v, r.err
	case <-t.C:
		err = session.ErrStalled
	case <-ctx.Done():
		err = ctx.Err()
	}
	if abort.Type() == js.TypeFunction {
		abort.Invoke()
		<-ch
	}
	return js.Undefined(), err
}

// await blocks the calling goroutine until the promise p settles and
// returns its value or its rejection as an error.
func await(p js.Value) (js.Value, error) {
	r := <-settle(p)
	return r.v, r.err
}

// result is a settled promise's value or rejection.
type result struct {
	v   js.Value
	err error
}

// settle returns a channel that delivers p's outcome once it settles; the
// callbacks it gives p release themselves then.
func settle(p js.Value) <-chan result {
	ch := make(chan result, 1)
	var then, catch js.Func
	done := func(r result) {
		then.Release()
		catch.Release()
		ch <- r
	}
	then = js.FuncOf(func(_ js.Value, args []js.Value) any {
		done(result{v: arg(args)})
		return nil
	})
	catch = js.FuncOf(func(_ js.Value, args []js.Value) any {
		done(result{err: jsError(arg(args))})
		return nil
	})
	p.Call("then", then, catch)
	return ch
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
