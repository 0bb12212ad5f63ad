//go:build js && wasm

package worker

import (
	"context"
	"encoding/base64"
	"reflect"
	"strings"
	"syscall/js"
	"testing"

	"softmaxdemo/wasm/protocol"
)

// capture replaces the global postMessage for one test and returns the
// messages it receives, decoded.
func capture(t *testing.T) *[]protocol.Msg {
	t.Helper()
	var got []protocol.Msg
	fn := js.FuncOf(func(_ js.Value, args []js.Value) any {
		data := args[0]
		var bulk []byte
		if b := data.Get("bulk"); b.Truthy() {
			if len(args) < 2 || args[1].Index(0).Get("byteLength").Int() != b.Get("byteLength").Int() {
				t.Error("the bulk buffer is not in the transfer list")
			}
			u := uint8Array.New(b)
			bulk = make([]byte, u.Length())
			js.CopyBytesToGo(bulk, u)
		}
		m, err := protocol.Decode([]byte(data.Get("env").String()), bulk)
		if err != nil {
			t.Errorf("posted an undecodable message: %v", err)
		}
		got = append(got, m)
		return nil
	})
	old := self.Get("postMessage")
	self.Set("postMessage", fn)
	t.Cleanup(func() {
		self.Set("postMessage", old)
		fn.Release()
	})
	return &got
}

// wire returns the {env, bulk} object the page would post for m.
func wire(t *testing.T, m protocol.Msg) js.Value {
	t.Helper()
	env, _, err := protocol.Encode(m)
	if err != nil {
		t.Fatal(err)
	}
	return js.ValueOf(map[string]any{"env": string(env)})
}

func TestPost(t *testing.T) {
	got := capture(t)
	msgs := []protocol.Msg{
		protocol.Progress{Run: 1, State: "training", Step: 3, Losses: []protocol.Point{{Step: 3, Loss: 0.5}}},
		protocol.Weights{Run: 1, Step: 3, D: 2, W: make([]float32, 20), B: []float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}},
		protocol.Samples{Labels: []uint8{7}, Pixels: make([]byte, 784)},
	}
	for _, m := range msgs {
		post(m)
	}
	if !reflect.DeepEqual(*got, msgs) {
		t.Errorf("posted %#v\nwant %#v", *got, msgs)
	}
}

func TestDeliver(t *testing.T) {
	tests := []struct {
		name string
		data func(t *testing.T) js.Value
		want string // in a posted Failed, or "" for a delivered command
	}{
		{"a command is delivered", func(t *testing.T) js.Value {
			return wire(t, protocol.Train{Config: protocol.Config{LearningRate: 0.5, BatchSize: 10, Epochs: 1}})
		}, ""},
		{"a bad envelope is reported", func(t *testing.T) js.Value {
			return js.ValueOf(map[string]any{"env": `{"v":9,"type":"pause"}`})
		}, "unsupported version: 9"},
		{"a message without an envelope is reported", func(t *testing.T) js.Value {
			return js.ValueOf("hello")
		}, "without a string envelope"},
		{"a full inbox is reported", func(t *testing.T) js.Value { return wire(t, protocol.Pause{}) }, "busy"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := capture(t)
			in := make(chan protocol.Msg, 1)
			if tt.want == "busy" {
				in <- protocol.Evaluate{}
			}
			deliver(tt.data(t), in)
			if tt.want == "" {
				if len(*got) != 0 || len(in) != 1 {
					t.Errorf("posted %v, queued %d", *got, len(in))
				}
				return
			}
			if f, ok := (*got)[0].(protocol.Failed); len(*got) != 1 || !ok || !strings.Contains(f.Message, tt.want) {
				t.Errorf("posted %#v, want a Failed naming %q", *got, tt.want)
			}
		})
	}
}

// TestYieldRunsTheEventLoop: Yield returns to the JS event loop before it
// returns, which is what lets the page's commands in between slices. A
// microtask queued before each Yield has run when it returns; a Yield that
// returned without leaving Go (or a Gosched) would leave it queued.
func TestYieldRunsTheEventLoop(t *testing.T) {
	e := newEnv()
	ran := 0
	count := js.FuncOf(func(js.Value, []js.Value) any { ran++; return nil })
	defer count.Release()
	for i := range 3 {
		js.Global().Get("Promise").Call("resolve").Call("then", count)
		e.Yield()
		if ran != i+1 {
			t.Fatalf("after Yield %d the event loop ran %d queued tasks, want %d", i+1, ran, i+1)
		}
	}
}

// TestKernelRefusal: a SIMD module that computes nothing fails the
// bitwise check, and install says why, for Loaded.KernelRefused; with no
// module it names Go's kernel and has nothing to report.
func TestKernelRefusal(t *testing.T) {
	idle := js.FuncOf(func(js.Value, []js.Value) any { return -1 }) // "no bad example", and no gradient
	defer idle.Release()
	all := map[string]any{}
	for _, f := range []string{"grad", "update", "eval", "neval", "hv", "add32", "add64"} {
		all[f] = idle
	}
	name, refused := install(js.ValueOf(all))
	if name != "go" || !strings.Contains(refused, "the Go code's") {
		t.Errorf("a kernel that computes nothing: %q, refused for %q", name, refused)
	}
	name, refused = install(js.ValueOf(map[string]any{"grad": idle}))
	if name != "go" || !strings.Contains(refused, "has no update") {
		t.Errorf("a module without the update: %q, refused for %q", name, refused)
	}
	if name, refused := install(js.Undefined()); name != "go" || refused != "" {
		t.Errorf("no module: %q, refused for %q", name, refused)
	}
}

func TestAwait(t *testing.T) {
	promise := js.Global().Get("Promise")
	if v, err := await(promise.Call("resolve", 42)); err != nil || v.Int() != 42 {
		t.Errorf("a resolved promise gave %v, %v", v, err)
	}
	reason := js.Global().Get("Error").New("no way")
	if _, err := await(promise.Call("reject", reason)); err == nil || err.Error() != "no way" {
		t.Errorf("a rejected promise gave %v", err)
	}
}

func TestFetch(t *testing.T) {
	want := []byte("softmax regression, in a worker")
	url := "data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(want)
	var last int64
	b, err := newEnv().Fetch(context.Background(), url, func(body []byte, total int64) { last = int64(len(body)) })
	if err != nil || string(b) != string(want) || last != int64(len(want)) {
		t.Errorf("got %q, %v, progress to %d", b, err, last)
	}
	if _, err := newEnv().Fetch(context.Background(), "nope://x", func([]byte, int64) {}); err == nil ||
		!strings.Contains(err.Error(), "fetching nope://x") {
		t.Errorf("a bad URL gave %v", err)
	}
}
