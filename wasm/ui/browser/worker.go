package browser

import (
	"errors"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"

	"softmaxdemo/wasm/protocol"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Worker is the page's side of the training worker: it starts
// web/worker.js, encodes commands, and decodes events. Bulk numbers
// (weights, gallery pixels) arrive as transferred ArrayBuffers beside the
// JSON envelope: {env: string, bulk?: ArrayBuffer}.
type Worker struct {
	w     app.Value
	funcs []app.Func

	// Preloaded names the pack web/boot.js already asked an adopted
	// worker for, so the page does not ask twice.
	Preloaded string

	heard atomic.Int64 // when the worker last sent anything, in Unix nanoseconds

	rawType string          // events of this wire type go to raw, undecoded (OnRaw)
	raw     func(app.Value) // ...
}

// Silent returns how long ago the worker last sent anything (a
// protocol.Heartbeat at least every second while it runs), or since it
// started or Heard was last called.
func (c *Worker) Silent() time.Duration { return time.Since(time.Unix(0, c.heard.Load())) }

// Heard counts now as a sign of life: after a time in which silence means
// nothing (a hidden tab, whose timers the browser slows), the watch
// starts again.
func (c *Worker) Heard() { c.heard.Store(time.Now().UnixNano()) }

// StartWorker starts the worker script at url. onEvent receives every
// decoded event; onCrash receives a description when the worker dies. Both
// are called from JavaScript callbacks and must not block.
//
// If web/boot.js started a worker while the page loaded, StartWorker adopts
// it instead, and replays the events it received meanwhile.
func StartWorker(url string, onEvent func(protocol.Msg), onCrash func(string)) *Worker {
	c, decode := listenTo(onEvent, onCrash)
	boot := app.Window().Get("softmaxBoot")
	app.Window().Set("softmaxBoot", nil) // a restart starts afresh
	// The worker runs this same program (web/worker.js): it is handed the
	// module the page compiled, or told to fetch it.
	give := app.Window().Get("softmaxGiveProgram")
	if boot.Truthy() && boot.Get("worker").Truthy() {
		c.w = boot.Get("worker")
		c.Preloaded = boot.Get("loading").String()
		if !boot.Get("given").Truthy() && give.Truthy() {
			give.Invoke(c.w)
		}
	} else if give.Truthy() {
		c.w = app.Window().Get("Worker").New(url+"#page", map[string]any{"name": "page"})
		give.Invoke(c.w)
	} else {
		c.w = app.Window().Get("Worker").New(url)
	}
	c.attach()
	if boot.Truthy() {
		events := boot.Get("events")
		for i := range events.Length() {
			onEvent(decode(events.Index(i)))
		}
		if crashed := boot.Get("crashed"); crashed.Truthy() {
			onCrash(crashed.String())
		}
	}
	return c
}

// StartPlaneWorker starts the plane's worker (wasm/planework) from the
// worker script at url, handing it the program the page compiled; its
// events and its death reach onEvent and onCrash, as StartWorker's do.
func StartPlaneWorker(url string, onEvent func(protocol.Msg), onCrash func(string)) *Worker {
	c, _ := listenTo(onEvent, onCrash)
	c.w = app.Window().Get("Worker").New(url+"#plane", map[string]any{"name": "plane"})
	if give := app.Window().Get("softmaxGiveProgram"); give.Truthy() {
		give.Invoke(c.w)
	} else {
		c.w.Call("postMessage", map[string]any{"wasm": "fetch"})
	}
	c.attach()
	return c
}

// listenTo returns a Worker, not yet started, whose handlers decode each
// message for onEvent and report a death to onCrash, and its decoder.
func listenTo(onEvent func(protocol.Msg), onCrash func(string)) (*Worker, func(app.Value) protocol.Msg) {
	c := &Worker{}
	uint8Array := app.Window().Get("Uint8Array")
	decode := func(data app.Value) protocol.Msg {
		var bulk []byte
		if b := data.Get("bulk"); b.Truthy() {
			u8 := uint8Array.New(b)
			bulk = make([]byte, u8.Length())
			app.CopyBytesToGo(bulk, u8)
		}
		m, err := protocol.Decode([]byte(data.Get("env").String()), bulk)
		if err != nil {
			m = protocol.Failed{Message: "the page could not read a message from the worker: " + err.Error(),
				Key: "err.pageDecode", Args: []string{err.Error()}}
		}
		return m
	}
	c.Heard()
	onMessage := app.FuncOf(func(this app.Value, args []app.Value) any {
		c.Heard()
		data := args[0].Get("data")
		if c.raw != nil {
			if env := data.Get("env"); env.Type() == app.TypeString && protocol.EnvelopeType(env.String()) == c.rawType {
				c.raw(data)
				return nil
			}
		}
		onEvent(decode(data))
		return nil
	})
	onError := app.FuncOf(func(this app.Value, args []app.Value) any {
		ev := args[0]
		ev.Call("preventDefault")
		detail := "no details"
		if msg := ev.Get("message"); msg.Truthy() {
			detail = msg.String()
		}
		onCrash(detail)
		return nil
	})
	c.funcs = append(c.funcs, onMessage, onError)
	return c, decode
}

// OnRaw hands the events of wire type typ to f as they arrive, {env,
// bulk} undecoded, instead of to onEvent: a page that draws only the
// latest of many decodes only that one (DecodeInto).
func (c *Worker) OnRaw(typ string, f func(app.Value)) { c.rawType, c.raw = typ, f }

// DecodeInto decodes an event OnRaw handed over, its bulk bytes copied
// into *buf, which it grows as needed and reuses: the message's slices
// alias *buf until the next call. An event that cannot be read is a
// Failed, as StartWorker's are.
func (c *Worker) DecodeInto(data app.Value, buf *[]byte) protocol.Msg {
	var bulk []byte
	if b := data.Get("bulk"); b.Truthy() {
		u8 := app.Window().Get("Uint8Array").New(b)
		n := u8.Length()
		if cap(*buf) < n {
			*buf = make([]byte, n)
		}
		bulk = (*buf)[:n]
		app.CopyBytesToGo(bulk, u8)
	}
	m, err := protocol.Decode([]byte(data.Get("env").String()), bulk)
	if err != nil {
		return protocol.Failed{Message: "the page could not read a message from the worker: " + err.Error(),
			Key: "err.pageDecode", Args: []string{err.Error()}}
	}
	return m
}

// attach gives the started worker the handlers of listenTo.
func (c *Worker) attach() {
	c.w.Set("onmessage", c.funcs[0])
	c.w.Set("onerror", c.funcs[1])
	c.w.Set("onmessageerror", c.funcs[1])
}

// BootManifest returns the manifest web/boot.js fetched, once: nil if it
// has none (yet), and nil on every later call, so that a Retry fetches.
func BootManifest() []byte {
	boot := app.Window().Get("softmaxBoot")
	if !boot.Truthy() {
		return nil
	}
	m := boot.Get("manifest")
	if m.Type() != app.TypeString || m.String() == "" {
		return nil
	}
	boot.Set("manifest", "")
	return []byte(m.String())
}

// Send posts one command, with its bulk bytes if it has any.
func (c *Worker) Send(m protocol.Msg) error {
	env, bulk, err := protocol.Encode(m)
	if err != nil {
		return err
	}
	obj := app.Window().Get("Object").New()
	obj.Set("env", string(env))
	if bulk == nil {
		c.w.Call("postMessage", obj)
		return nil
	}
	// Bulk bytes (UseModel, MyDigits) travel as a transferred ArrayBuffer
	// beside the envelope, as the worker's events do the other way.
	u8 := app.Window().Get("Uint8Array").New(len(bulk))
	app.CopyBytesToJS(u8, bulk)
	buf := u8.Get("buffer")
	obj.Set("bulk", buf)
	transfer := app.Window().Get("Array").New()
	transfer.Call("push", buf)
	c.w.Call("postMessage", obj, transfer)
	return nil
}

// Terminate stops the worker and releases the callbacks.
func (c *Worker) Terminate() {
	c.w.Set("onmessage", nil)
	c.w.Set("onerror", nil)
	c.w.Set("onmessageerror", nil)
	c.w.Call("terminate")
	for _, f := range c.funcs {
		f.Release()
	}
	c.funcs = nil
}

// FetchDeadline bounds a Fetch: the whole response, headers and body (the
// manifest, under 2 kB), must arrive within it.
const FetchDeadline = 15 * time.Second

// ErrTimedOut is the error Fetch wraps when nothing came within
// FetchDeadline.
var ErrTimedOut = errors.New("no answer within " + strconv.Itoa(int(FetchDeadline/time.Second)) + " s")

// fetchTries is how many times Fetch asks: a network error or a server
// error (5xx) is asked again after fetchBackoff, then twice that; a
// missing file (4xx) or a timeout is not, as asking again would not help
// or would only double the wait.
const (
	fetchTries   = 3
	fetchBackoff = 500 * time.Millisecond
)

// Fetch GETs url and returns the body. It blocks, so call it from
// ctx.Async, never on the UI goroutine.
func Fetch(url string) ([]byte, error) {
	wait := fetchBackoff
	for try := 1; ; try++ {
		b, again, err := fetchOnce(url)
		if err == nil || !again || try == fetchTries {
			return b, err
		}
		time.Sleep(wait)
		wait *= 2
	}
}

// fetchOnce is one GET of url within FetchDeadline; again says whether
// asking again may help.
func fetchOnce(url string) (b []byte, again bool, err error) {
	type result struct {
		b     []byte
		again bool
		err   error
	}
	done := make(chan result, 1)
	var funcs []app.Func
	fn := func(f func(app.Value) any) app.Value {
		jf := app.FuncOf(func(this app.Value, args []app.Value) any { return f(args[0]) })
		funcs = append(funcs, jf)
		return jf
	}
	fail := fn(func(e app.Value) any {
		done <- result{again: true, err: errors.New(e.Call("toString").String())}
		return nil
	})
	ctrl := app.Window().Get("AbortController").New()
	opts := app.Window().Get("Object").New()
	opts.Set("signal", ctrl.Get("signal"))
	app.Window().Call("fetch", url, opts).Call("then", fn(func(resp app.Value) any {
		if status := resp.Get("status").Int(); !resp.Get("ok").Bool() {
			done <- result{again: status >= 500, err: fmt.Errorf("GET %s: HTTP %d", url, status)}
			return nil
		}
		resp.Call("arrayBuffer").Call("then", fn(func(buf app.Value) any {
			u8 := app.Window().Get("Uint8Array").New(buf)
			b := make([]byte, u8.Length())
			app.CopyBytesToGo(b, u8)
			done <- result{b: b}
			return nil
		}), fail)
		return nil
	}), fail)
	var r result
	select {
	case r = <-done:
	case <-time.After(FetchDeadline):
		ctrl.Call("abort") // settles the promises, so their callbacks may go
		<-done
		r = result{err: fmt.Errorf("GET %s: %w", url, ErrTimedOut)}
	}
	for _, f := range funcs {
		f.Release()
	}
	return r.b, r.again, r.err
}
