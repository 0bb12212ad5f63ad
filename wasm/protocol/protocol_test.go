package protocol

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"reflect"
	"softmaxdemo/core/plane"
	"strings"
	"testing"
)

func allMessages() []Msg {
	w := make([]float32, 3*10)
	for i := range w {
		w[i] = float32(i) * 0.5
	}
	return []Msg{
		Load{Name: "default", URL: "web/data/default.mnpk", SHA256: "ab", Bytes: 10},
		Train{Config: Config{LearningRate: 0.5, BatchSize: 100, L2: 1e-4, Epochs: 5, Seed: 3, PinFirst: true}},
		Pause{},
		Step{Config: Config{LearningRate: 0.1, BatchSize: 1, Seed: 1}},
		Train{Config: Config{LearningRate: 0.5, BatchSize: 100, Epochs: 5, Seed: 1, Deskew: true}},
		Reset{Config: Config{Seed: 9, InitNormal: true}},
		Train{Config: Config{L2: 1e-4, Method: "newton", NewtonIters: 20, GradTol: 1e-6, CGSteps: 50}},
		Train{Config: Config{LearningRate: 0.1, L2: 1e-3, Epochs: 100, Method: "gd"}},
		Evaluate{},
		Warm{},
		Pace{StepsPerSecond: 20},
		Hessian{L2: 1e-4, Deskew: true},
		HessianView{Images: 2000, Features: 1, N: 2, Image: []int8{-127, 0, 5, 127},
			Cases: []HessianCase{{Lambda: 0, Smallest: []float64{0, 1e-3}, Zero: 1, Largest: 2}, {Lambda: 1e-4, Pinned: true, Smallest: []float64{1e-4}, Largest: 2}}},
		UseModel{Config: Config{LearningRate: 0.5, BatchSize: 100, Epochs: 5, Seed: 1, MyDigitsRate: 0.1}, D: 3, W: w, B: []float32{1, 2, 3, 4, 5, 6, 7, 8, 9, -0.5}},
		MyDigits{Labels: []uint8{7, 0, 9}, Pixels: append(make([]byte, 3*784-1), 255)},
		Loading{Name: "default", Received: 5, Total: 10},
		Loaded{Name: "default", Train: 10000, Test: 2000, Millis: 12.5, Kernel: "wasm-simd"},
		Loaded{Name: "default", Train: 10000, Test: 2000, Millis: 9, Kernel: "go", KernelRefused: "gradient 12 is 0.5, the Go code's 0.25"},
		Progress{Run: 2, State: "training", Epoch: 1, Epochs: 5, Step: 130, Seen: 13000, PerEpoch: 10000,
			Loss: 0.31, Losses: []Point{{Step: 129, Loss: 0.3, T: 0.25}, {Step: 130, Loss: 0.31, T: 0.26}}, Rate: 0.5, PerSecond: 1e6},
		Progress{Run: 3, State: "done", Stop: "converged", Epoch: 283, Step: 9, Seen: 2830000, PerEpoch: 10000,
			Loss: 0.188, Losses: []Point{{Step: 9, Loss: 0.188}}, EpochLoss: 0.188, Rate: 1, PerSecond: 3e6,
			Method: "newton", Iteration: 9, CGSteps: 81, GradNorm: 8e-6, Reason: "‖∇J‖ ≤ 1e-05 after 9 iterations"},
		Weights{Run: 2, Step: 130, D: 3, W: w, B: []float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}},
		Evaluated{Run: 2, T: 1.5, Epoch: 1, Step: 100, Accuracy: 0.9, Likelihood: 0.7, Loss: 0.3,
			Confusion: [10][10]int{{1, 2}}, PerClass: [10]float64{0.5}},
		Samples{Labels: []uint8{3, 9}, Pixels: make([]byte, 2*784)},
		Apply{Config: Config{LearningRate: 0.5, BatchSize: 100, L2: 1e-4, Epochs: 5, Seed: 1, Deskew: true}, Label: 7, Pixels: pixels(1)},
		FindExamples{True: 4, Predicted: 9, Max: 60},
		PickTrain{Index: 1234},
		Examples{Run: 2, Step: 600, True: 4, Predicted: 9, Count: 31, Index: []int{5, 77},
			Probs: []float32{0, 0, 0, 0, 0.25, 0, 0, 0, 0, 0.75, 0.125, 0, 0, 0, 0.375, 0, 0, 0, 0, 0.5}, Pixels: pixels(2)},
		Examples{Run: 1, True: 3, Predicted: 3},
		Picked{Index: 12, Label: 5, Pixels: pixels(1)},
		Failed{Message: "checksum mismatch", Hint: "hint.checksum", Fatal: true, Key: "err.checksum", Args: []string{"pack default: checksum mismatch"}},
		Resume{Config: Config{LearningRate: 0.5, BatchSize: 100, Epochs: 5, Seed: 1}, Run: 3, State: []byte("TRST state")},
		Snapshot{Run: 3, Step: 1200, Epoch: 12, State: []byte("TRST state")},
		Heartbeat{},
		Progress{Run: 4, State: "paused", Step: 0, Method: "sgd", Heap: 45 << 20},
		Workers{N: 4},
		Curvature{Config: Config{L2: 1e-4, Deskew: true}},
		CurvatureIs{Run: 2, Step: 600, L2: 1e-4, Deskew: true, LambdaMax: 3.75, AlphaMax: 0.5333, Products: 17},
		PoolState{Asked: 4, Running: 1, Refused: "the browser refused a worker"},
		ShardData{Set: SetDeskewed, Gen: 2, Shard: 5, D: 784, N: 2, Labels: []uint8{3, 9},
			Start: []int32{0, 2, 3}, Index: []uint16{4, 783, 100}, Value: []float32{0.5, 1, 0.25}},
		ShardHeld{Set: SetDeskewed, Gen: 2, Shard: 5},
		Pass{ID: 17, Op: "grad", Set: SetTrain, Gen: 2, Shards: []int{1, 3}, Vec32: []float32{0.5, -1, 2}},
		Pass{ID: 18, Op: "hv", Set: SetDeskewed, Gen: 2, Shards: []int{7}, Slot: 1, Vec64: []float64{1e-300, -2}},
		PassDone{ID: 17, Shards: []int{1, 3}, Out: [][]float64{{1, 2.5}, {-3, 1e300}}},
		PassDone{ID: 19, Shards: []int{0, 4}, N32: 3, Out: [][]float64{{0.25}, {7}}, Out32: [][]float32{{1, -2, 3}, {0.5, 0, -0}}},
		PassDone{ID: 18, Shards: []int{7}, Failed: "shard 7 of set 1 is not here"},
		PlaneSetUp{Data: "blobs", K: 3, Settings: plane.Settings{Bias: true, Lambda: 0.01, Rate: 1, Batch: 1, Start: [2]float64{-2, 2}, Seed: 1}, Warm: true},
		PlaneData{Name: "ring"},
		PlaneClasses{K: 4},
		PlaneOption{Name: "bias", On: true},
		PlaneNumbers{Rate: 0.5, Lambda: 1e-3, Batch: 10},
		PlaneTrain{On: true},
		PlaneRestart{},
		PlanePsi{},
		PlaneAbove{Times: 1.5},
		PlanePoint{At: [2]float64{1.5, -0.25}, Radius: 0.05, Class: 2},
		PlaneStart{At: [2]float64{-1, 1}, Quick: true},
		PlanePace{StepsPerSecond: 50},
		PlaneGrid{N: 96},
		PlaneResume{Name: "blobs", Edited: true, Data: plane.Data{K: 2, Points: []plane.Point{{X: [2]float64{1, 2}, Class: 1}}},
			Settings: plane.Defaults(), Training: true, W: []float32{0, 0, 0.5, -0.25}, B: []float32{0, 0}},
		PlaneState{Seq: 3, State: "done", Name: "blobs", Data: plane.Data{K: 2, Points: []plane.Point{{X: [2]float64{1, 2}}}},
			Settings: plane.Defaults(), Refused: &PlaneRefusal{Problem: 2, X: [2]string{"NaN", "1"}, Value: "+Inf"}, Psis: 1, Building: true, Scenes: 2,
			Psi: &plane.Psi{Psi: [3]float64{0.5, -1, 0}, NormBefore: 1, NormAfter: math.Inf(1), MaxDP: 1e-8, MaxDZ: 0.25}},
		PlaneFrame{Seq: 3, State: "training", N: 2, Status: plane.Status{Steps: 7, Points: 120, Accuracy: 0.9, Loss: math.Inf(1), ThetaNorm: 2, Separated: true},
			W: []float32{0, 0, 0.5, -0.25}, B: []float32{0, 0.125}, Image: make([]byte, 16), Boundaries: []float64{-4, 4, 4, -4}},
		PlaneScene{Seq: 3, MS: 12.5, Scene: planeScene()},
		PlaneTheta{W: []float64{0, 1.5, 0, -0.1}, B: []float64{0, 0.25}, Quick: true, Hand: 3},
		PlaneFrame{Seq: 4, State: "ready", N: 1, Hand: 3, W: []float32{0, 1.5, 0, -0.1}, B: []float32{0, 0}, Image: make([]byte, 4), Boundaries: []float64{}},
		Weights{Run: 3, Step: 64, D: 3, Key: true, W: w, B: []float32{0, 0, 0, 0, 0, 0, 0, 0, 0, -1}},
		EvaluateModel{Run: 3, Step: 64, Deskew: true, D: 3, W: w, B: []float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}},
		Evaluated{Run: 3, Keyframe: true, Step: 64, Accuracy: 0.75, Likelihood: 0.5, Loss: 0.7, Confusion: [10][10]int{{3}, {0, 2}}},
	}
}

// planeScene is a scene of blobs with K = 2, as the plane's worker sends it.
func planeScene() *plane.Scene {
	d, err := plane.Generate("blobs", 2, 1)
	if err != nil {
		panic(err)
	}
	s := plane.Defaults()
	s.Steps = 5
	sc, err := plane.Build(d, s)
	if err != nil {
		panic(err)
	}
	return sc
}

func TestRoundTrip(t *testing.T) {
	seen := map[string]bool{}
	for _, m := range allMessages() {
		name := Name(m)
		seen[name] = true
		t.Run(name+" survives encode and decode", func(t *testing.T) {
			env, bulk, err := Encode(m)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(string(env), `{"v":1,"type":"`+name+`","body":`) {
				t.Errorf("envelope %s", env)
			}
			got, err := Decode(env, bulk)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, m) {
				t.Errorf("got %#v\nwant %#v", got, m)
			}
		})
	}
	for _, e := range messages {
		if !seen[e.name] {
			t.Errorf("allMessages has no %s message", e.name)
		}
	}
	if len(seen) != len(messages) {
		t.Errorf("allMessages has %d message types, the table %d", len(seen), len(messages))
	}
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name, env string
		bulk      []byte
		want      string
	}{
		{"not JSON", `{`, nil, "bad envelope"},
		{"another version", `{"v":2,"type":"pause","body":{}}`, nil, "unsupported version: 2"},
		{"an unknown type", `{"v":1,"type":"explode","body":{}}`, nil, `unknown message type "explode"`},
		{"a body of the wrong shape", `{"v":1,"type":"progress","body":{"step":"x"}}`, nil, "bad progress body"},
		{"weights without their bytes", `{"v":1,"type":"weights","body":{"d":3}}`, nil, "need 160 bytes, got 0"},
		{"weights with no features", `{"v":1,"type":"weights","body":{"d":0}}`, nil, "0 features"},
		{"samples with short pixels", `{"v":1,"type":"samples","body":{"labels":[1]}}`, make([]byte, 5), "need 784 bytes"},
		{"apply without its pixels", `{"v":1,"type":"apply","body":{"label":3}}`, nil, "apply needs 784 bytes"},
		{"apply with a bad label", `{"v":1,"type":"apply","body":{"label":10}}`, make([]byte, 784), "label 10"},
		{"picked with short pixels", `{"v":1,"type":"picked","body":{"label":3}}`, make([]byte, 783), "picked needs 784 bytes"},
		{"examples with too few pixels", `{"v":1,"type":"examples","body":{"index":[1],"probs":[0,0,0,0,0,0,0,0,0,1]}}`, make([]byte, 5), "need 784 bytes"},
		{"examples without probabilities", `{"v":1,"type":"examples","body":{"index":[1]}}`, make([]byte, 784), "10 probabilities"},
		{"samples with a bad label", `{"v":1,"type":"samples","body":{"labels":[12]}}`, make([]byte, 784), "label 12"},
		{"a model without its bytes", `{"v":1,"type":"useModel","body":{"d":784}}`, nil, "useModel for 784 features need 31400 bytes, got 0"},
		{"a model with no features", `{"v":1,"type":"useModel","body":{"d":0}}`, nil, "useModel with 0 features"},
		{"my digits with short pixels", `{"v":1,"type":"myDigits","body":{"labels":[1,2]}}`, make([]byte, 784), "2 myDigits need 1568 bytes, got 784"},
		{"my digits with a bad label", `{"v":1,"type":"myDigits","body":{"labels":[10]}}`, make([]byte, 784), "myDigits 0 has label 10"},
		{"loss points cut short", `{"v":1,"type":"progress","body":{"step":3}}`, make([]byte, 25), "25 bytes of loss points"},
		{"a loss point at a fractional step", `{"v":1,"type":"progress","body":{}}`, floats(1.5, 0.3, 0), "step 1.5"},
		{"a loss point at a negative step", `{"v":1,"type":"progress","body":{}}`, floats(-1, 0.3, 0), "step -1"},
		{"a loss point past 2^53", `{"v":1,"type":"progress","body":{}}`, floats(1<<60, 0.3, 0), "not a whole number"},
		{"a NaN loss", `{"v":1,"type":"progress","body":{}}`, floats(1, 0.3, 0, 2, math.NaN(), 0), "loss point 1 is not finite"},
		{"an infinite time", `{"v":1,"type":"progress","body":{}}`, floats(1, 0.3, math.Inf(1)), "not finite"},
		{"resume without a state", `{"v":1,"type":"resume","body":{"run":2}}`, nil, "resume with a state of 0 bytes"},
		{"a snapshot without a state", `{"v":1,"type":"snapshot","body":{"run":2}}`, []byte{}, "snapshot with a state of 0 bytes"},
		{"too many of my digits", `{"v":1,"type":"myDigits","body":{"labels":[` + strings.Repeat("1,", MaxMyDigits) + `1]}}`, nil, "1001 of my digits"},
	}
	for _, tt := range tests {
		t.Run(tt.name+" is an error", func(t *testing.T) {
			_, err := Decode([]byte(tt.env), tt.bulk)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
	if _, err := Decode([]byte(`{"v":0,"type":"pause"}`), nil); !errors.Is(err, ErrVersion) {
		t.Errorf("version 0: %v, want ErrVersion", err)
	}
}

// floats returns v as little-endian float64 bytes.
func floats(v ...float64) []byte {
	var b []byte
	for _, f := range v {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(f))
	}
	return b
}

func FuzzDecode(f *testing.F) {
	for _, m := range allMessages() {
		env, bulk, err := Encode(m)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(env, bulk)
	}
	f.Add([]byte(`{"v":1,"type":"weights","body":{"d":-1}}`), []byte{})
	f.Fuzz(func(t *testing.T, env, bulk []byte) {
		m, err := Decode(env, bulk)
		if err != nil {
			return
		}
		env2, bulk2, err := Encode(m)
		if err != nil {
			t.Fatalf("decoded %#v but cannot encode it: %v", m, err)
		}
		m2, err := Decode(env2, bulk2)
		if err != nil {
			t.Fatalf("re-decoding: %v", err)
		}
		if Name(m2) != Name(m) {
			t.Fatalf("type changed from %s to %s", Name(m), Name(m2))
		}
	})
}

func TestConfigDeskew(t *testing.T) {
	tests := []struct {
		name, body string
		want       bool
	}{
		{"deskew true is read", `{"config":{"lr":0.5,"batch":100,"epochs":5,"seed":1,"deskew":true}}`, true},
		{"a config without deskew trains on raw images", `{"config":{"lr":0.5,"batch":100,"epochs":5,"seed":1}}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Decode([]byte(`{"v":1,"type":"train","body":`+tt.body+`}`), nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := m.(Train).Config.Deskew; got != tt.want {
				t.Errorf("Deskew = %v, want %v", got, tt.want)
			}
		})
	}
	env, _, err := Encode(Train{Config: Config{Seed: 1}})
	if err != nil || strings.Contains(string(env), "deskew") {
		t.Errorf("a raw config is encoded as %s (%v): want no deskew key", env, err)
	}
}

// TestNewFieldsAreOptional: a run without a method, and its Progress,
// have the wire form they had before Newton came, so an older page or
// worker reads them unchanged.
func TestNewFieldsAreOptional(t *testing.T) {
	for _, m := range []Msg{
		Train{Config: Config{LearningRate: 0.5, BatchSize: 100, L2: 1e-4, Epochs: 5, Seed: 3}},
		Progress{Run: 1, State: "training", Step: 3, Loss: 0.5},
	} {
		env, _, err := Encode(m)
		if err != nil {
			t.Fatal(err)
		}
		for _, key := range []string{"method", "newtonIters", "gradTol", "cgSteps", "iteration", "gradNorm", "reason"} {
			if strings.Contains(string(env), `"`+key+`"`) {
				t.Errorf("%s carries %q: %s", Name(m), key, env)
			}
		}
	}
}

// pixels returns n images of 784 grey levels with some ink.
func pixels(n int) []byte {
	p := make([]byte, 784*n)
	for i := range p {
		p[i] = byte(i * 7)
	}
	return p
}

// TestPointersEncodeAsValues: a pointer to a message has the message's
// name and wire form, bulk bytes included.
func TestPointersEncodeAsValues(t *testing.T) {
	for _, m := range allMessages() {
		p := reflect.New(reflect.TypeOf(m))
		p.Elem().Set(reflect.ValueOf(m))
		pm := p.Interface().(Msg)
		env, bulk, err := Encode(m)
		penv, pbulk, perr := Encode(pm)
		if err != nil || perr != nil || string(env) != string(penv) || string(bulk) != string(pbulk) || Name(pm) != Name(m) {
			t.Errorf("%s: value %s/%d bytes (%v), pointer %s %s/%d bytes (%v)", Name(m), env, len(bulk), err, Name(pm), penv, len(pbulk), perr)
		}
	}
}

// TestShardDataRefusesCorruption: examples that a helper would compute
// wrong numbers from, or read outside its weights with, are refused, each
// with what is wrong and in which example.
func TestShardDataRefusesCorruption(t *testing.T) {
	good := ShardData{Set: SetDeskewed, Gen: 2, Shard: 5, D: 784, N: 2, Labels: []uint8{3, 9},
		Start: []int32{0, 2, 3}, Index: []uint16{4, 783, 100}, Value: []float32{0.5, 1, 0.25}}
	env, bulk, err := Encode(good)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Decode(env, bulk); err != nil {
		t.Fatalf("the good shard: %v", err)
	}
	// The bulk: 2 labels, 3 starts (uint32), 3 indices (uint16), 3 values
	// (float32).
	const labels, starts, index, value = 0, 2, 14, 20
	u16 := func(at int, v uint16) func([]byte) {
		return func(b []byte) { binary.LittleEndian.PutUint16(b[at:], v) }
	}
	u32 := func(at int, v uint32) func([]byte) {
		return func(b []byte) { binary.LittleEndian.PutUint32(b[at:], v) }
	}
	f32 := func(at int, v float32) func([]byte) { return u32(at, math.Float32bits(v)) }
	tests := []struct {
		name  string
		spoil func([]byte)
		want  string
	}{
		{"a label of 10", func(b []byte) { b[labels+1] = 10 }, "example 1 has label 10"},
		{"a feature past the last", u16(index+2, 784), "example 0 has feature 784 out of order or range"},
		{"features out of order", u16(index, 783), "example 0 has feature 783 out of order"},
		{"a feature twice", u16(index+2, 4), "example 0 has feature 4 out of order"},
		{"a NaN value", f32(value+8, float32(math.NaN())), "example 1 has a value that is not finite"},
		{"an infinite value", f32(value, float32(math.Inf(-1))), "example 0 has a value that is not finite"},
		{"starts that go back", u32(starts+4, 4), "start 1 is 4"},
		{"a first start that is not 0", u32(starts, 1), "start 0 is 1"},
		{"a count of values that is not the bytes'", u32(starts+8, 2), "bytes of shard data"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := append([]byte(nil), bulk...)
			tt.spoil(b)
			if _, err := Decode(env, b); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// TestPlaneBulkRefusesCorruption: the plane's bulk bytes that do not fit
// their message are refused with an error that names it, never a panic.
func TestPlaneBulkRefusesCorruption(t *testing.T) {
	frame := PlaneFrame{Seq: 1, State: "training", N: 2, W: []float32{0, 0, 1, 1}, B: []float32{0, 0}, Image: make([]byte, 16), Boundaries: []float64{0, 1, 2, 3}}
	env, good, err := Encode(frame)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Decode(env, good); err != nil {
		t.Fatalf("a good frame: %v", err)
	}
	other := func(f PlaneFrame) []byte {
		_, b, err := Encode(f)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	wrongImage := frame
	wrongImage.Image = make([]byte, 12)
	oddTheta := frame
	oddTheta.W = []float32{0, 1, 2}
	oneClass := frame
	oneClass.W, oneClass.B = []float32{0, 1}, []float32{0}
	sceneEnv, sceneBulk, err := Encode(PlaneScene{Seq: 1, Scene: planeScene()})
	if err != nil {
		t.Fatal(err)
	}
	stateEnv, _, err := Encode(PlaneState{Seq: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		env, bulk []byte
		want      string
	}{
		{"a frame cut short", env, good[:len(good)-3], "planeFrame"},
		{"a frame with a byte too many", env, append(bytes.Clone(good), 0), "planeFrame"},
		{"an image of another size", env, other(wrongImage), "planeFrame"},
		{"weights not two a class", env, other(oddTheta), "planeFrame"},
		{"one class", env, other(oneClass), "planeFrame"},
		{"a scene cut short", sceneEnv, sceneBulk[:len(sceneBulk)/2], "planeScene"},
		{"no scene", sceneEnv, nil, "planeScene"},
		{"a ψ cut short", stateEnv, make([]byte, 20), "planeState"},
	} {
		if _, err := Decode(c.env, c.bulk); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error naming %s", c.name, err, c.want)
		}
	}
}

// TestEnvelopeType: the type of every message's envelope reads back
// without its body; what is not an envelope has none.
func TestEnvelopeType(t *testing.T) {
	for _, m := range allMessages() {
		env, _, err := Encode(m)
		if err != nil {
			t.Fatal(err)
		}
		if got := EnvelopeType(string(env)); got != Name(m) {
			t.Errorf("%T: %q", m, got)
		}
	}
	for _, s := range []string{"", "{", `{"v":1}`, `[1,2]`, `{"type":"progress","v":1}`} {
		if got, want := EnvelopeType(s), map[bool]string{true: "progress"}[strings.Contains(s, "progress")]; got != want {
			t.Errorf("%q: %q, want %q", s, got, want)
		}
	}
}

// TestPlaneThetaCarriesTheModelsNumbers: a θ set by hand comes out of the
// wire as the float32s the page computed (its float64s hold them
// exactly); a θ that is not a number cannot be sent: Encode returns an
// error, as JSON has no NaN, and nothing panics.
func TestPlaneThetaCarriesTheModelsNumbers(t *testing.T) {
	w := []float32{0, 1.0 / 3, -0, 99.99999}
	m := PlaneTheta{W: make([]float64, len(w)), B: []float64{0, float64(float32(0.1))}, Hand: 7}
	for i, v := range w {
		m.W[i] = float64(v)
	}
	env, bulk, err := Encode(m)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(env, bulk)
	if err != nil {
		t.Fatal(err)
	}
	th := got.(PlaneTheta)
	for i, v := range th.W {
		if float32(v) != w[i] || v != float64(w[i]) {
			t.Errorf("W[%d] arrives as %v, sent %v", i, v, w[i])
		}
	}
	if float32(th.B[1]) != float32(0.1) || th.Hand != 7 {
		t.Errorf("B %v, hand %d", th.B, th.Hand)
	}
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if _, _, err := Encode(PlaneTheta{W: []float64{bad, 0, 0, 0}, B: []float64{0, 0}}); err == nil {
			t.Errorf("θ with %v was encoded", bad)
		}
	}
}
