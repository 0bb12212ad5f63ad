package session

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/dataset/datasettest"
	"softmaxdemo/wasm/protocol"
)

func TestLoad(t *testing.T) {
	b := synthPack(t, 300, 100)
	for _, early := range []bool{false, true} {
		name := "the whole pack"
		if early {
			name = "the training images first"
		}
		t.Run(name, func(t *testing.T) {
			env := newEnv(time.Millisecond)
			env.refused = "gradient 3 is 0.5, the Go code's 0.25"
			h := start(t, env)
			l := env.serve("synth", "synth.mnpk", b)
			if !early {
				l.TrainBytes, l.TrainSHA256 = 0, ""
			} else if l.TrainBytes == 0 || l.TrainBytes >= int64(len(b)) {
				t.Fatalf("the pack's training images end at %d of %d bytes", l.TrainBytes, len(b))
			}
			h.send(l)
			all, got := untilType[protocol.Loaded](h)
			if got.Kernel != "go" || got.KernelRefused != env.refused {
				t.Errorf("Loaded names kernel %q, refused for %q: want the Env's %q, %q", got.Kernel, got.KernelRefused, "go", env.refused)
			}
			testLoad(t, h, b, l, all, got)
		})
	}
}

func testLoad(t *testing.T, h *harness, b []byte, l protocol.Load, all []protocol.Msg, got protocol.Loaded) {
	t.Run("reports loading progress", func(t *testing.T) {
		ls := only[protocol.Loading](all)
		if len(ls) < 2 && l.TrainBytes == 0 {
			t.Fatalf("%d Loading events, want at least 2", len(ls))
		}
		for _, l := range ls {
			if l.Total != int64(len(b)) || l.Received > l.Total {
				t.Errorf("Loading %+v, want a total of %d", l, len(b))
			}
		}
		last := ls[len(ls)-1].Received
		switch {
		case l.TrainBytes == 0 && last != int64(len(b)):
			t.Errorf("the last Loading has %d bytes, want %d", last, len(b))
		case l.TrainBytes > 0 && last > l.TrainBytes:
			t.Errorf("a Loading has %d bytes, after the training images (%d): Loaded should have gone out", last, l.TrainBytes)
		}
	})
	t.Run("says how many images there are", func(t *testing.T) {
		if got.Name != "synth" || got.Train != 300 || got.Test != 100 || got.Millis <= 0 {
			t.Errorf("Loaded %+v", got)
		}
	})
	t.Run("sends six test digits of each class", func(t *testing.T) {
		s := h.next().(protocol.Samples)
		pack, err := dataset.Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Labels) != 60 || len(s.Pixels) != 60*784 {
			t.Fatalf("%d labels, %d pixels", len(s.Labels), len(s.Pixels))
		}
		for k, y := range s.Labels {
			if int(y) != k/6 {
				t.Fatalf("sample %d has label %d, want %d", k, y, k/6)
			}
			i := k%6*10 + int(y) // synthPack's labels cycle 0..9
			want := pack.Test.Dense(make([]byte, 784), i)
			if !bytes.Equal(s.Pixels[k*784:(k+1)*784], want) {
				t.Errorf("sample %d is not test image %d", k, i)
			}
		}
	})
}

// TestTrainingImagesFirst holds the download just after the training
// images: Loaded goes out, a Train waits for the test images, and the run
// is the one a whole download gives, bit for bit.
func TestTrainingImagesFirst(t *testing.T) {
	b := synthPack(t, 300, 100)
	cfg := protocol.Config{LearningRate: 0.5, BatchSize: 10, L2: 1e-4, Epochs: 2, Seed: 3}
	run := func(early bool) (protocol.Evaluated, protocol.Weights) {
		env := newEnv(time.Millisecond)
		h := start(t, env)
		l := env.serve("synth", "synth.mnpk", b)
		release := make(chan struct{})
		if early {
			env.stopAt(l.URL, stop{at: int(l.TrainBytes), release: release})
		} else {
			l.TrainBytes, l.TrainSHA256 = 0, ""
			close(release)
		}
		h.send(l)
		untilType[protocol.Loaded](h)
		h.send(protocol.Train{Config: cfg})
		if early {
			select {
			case m := <-h.out:
				t.Fatalf("while the test images were held back the session sent %#v", m)
			case <-time.After(50 * time.Millisecond):
			}
			close(release)
			if s, ok := h.next().(protocol.Samples); !ok || len(s.Labels) != 60 {
				t.Fatalf("after the test images: %d samples (%v), want 60", len(s.Labels), ok)
			}
		}
		all := h.until(done)
		_, e := untilType[protocol.Evaluated](h)
		ws := only[protocol.Weights](all)
		if len(ws) == 0 {
			_, w := untilType[protocol.Weights](h)
			ws = append(ws, w)
		}
		return e, ws[len(ws)-1]
	}
	e1, w1 := run(false)
	e2, w2 := run(true)
	if e1.Accuracy != e2.Accuracy || e1.Epoch != 2 || e2.Epoch != 2 {
		t.Errorf("test accuracy %v (epoch %d) from the whole pack, %v (epoch %d) from the training images first", e1.Accuracy, e1.Epoch, e2.Accuracy, e2.Epoch)
	}
	if !slices.Equal(w1.W, w2.W) || !slices.Equal(w1.B, w2.B) {
		t.Error("the runs' weights differ")
	}
}

// loadCase is a Load that goes wrong: load makes it, and the session must
// answer Failed containing want, with the hint hint.
type loadCase struct {
	name string
	load func(env *fakeEnv) protocol.Load
	want string
	hint string
}

// goodAndCorrupt returns a small pack and a copy of it whose last test
// grey level is flipped: its training prefix is intact, its checksum is
// not.
func goodAndCorrupt(t *testing.T) (good, corrupt []byte) {
	t.Helper()
	good = synthPack(t, 100, 50)
	corrupt = bytes.Clone(good)
	corrupt[len(corrupt)-1] ^= 0xff
	return good, corrupt
}

// TestTestImagesFail: when the test images fail after Loaded, the pack is
// dropped and Failed says so, and a later load works.
func TestTestImagesFail(t *testing.T) {
	good, corrupt := goodAndCorrupt(t)
	tests := []loadCase{
		{"a broken connection", func(env *fakeEnv) protocol.Load {
			l := env.serve("synth", "a.mnpk", good)
			env.stopAt(l.URL, stop{at: int(l.TrainBytes) + 10, err: errors.New("network error")})
			return l
		}, "network error", hintFetch},
		{"a stall after the training images", func(env *fakeEnv) protocol.Load {
			l := env.serve("synth", "a.mnpk", good)
			env.stopAt(l.URL, stop{at: int(l.TrainBytes) + 10, err: ErrStalled})
			return l
		}, "stalled: no data arrived", hintFetch},
		{"a wrong SHA-256 of the whole pack", func(env *fakeEnv) protocol.Load {
			l := env.serve("synth", "a.mnpk", corrupt)
			sum := sha256.Sum256(good)
			l.SHA256 = hex.EncodeToString(sum[:])
			return l
		}, "checksum mismatch: SHA-256", hintChecksum},
		{"a corrupt test part", func(env *fakeEnv) protocol.Load {
			return env.serve("synth", "a.mnpk", corrupt)
		}, "dataset: checksum mismatch", hintDecode},
	}
	for _, tt := range tests {
		t.Run(tt.name+" drops the pack", func(t *testing.T) {
			env := newEnv(time.Millisecond)
			h := start(t, env)
			h.send(tt.load(env))
			untilType[protocol.Loaded](h)
			_, f := untilType[protocol.Failed](h)
			if !f.Unloaded || !strings.Contains(f.Message, tt.want) || f.Hint != tt.hint || f.Fatal {
				t.Errorf("Failed %+v, want %q, unloaded, with the hint %q", f, tt.want, tt.hint)
			}
			h.send(protocol.Evaluate{})
			if f, ok := h.next().(protocol.Failed); !ok || f.Message != "no data loaded yet" {
				t.Errorf("after the failure Evaluate gave %#v, want no data", f)
			}
			h.send(env.serve("synth", "good.mnpk", good))
			untilType[protocol.Loaded](h)
			if s, ok := h.next().(protocol.Samples); !ok || len(s.Labels) != 50 {
				t.Errorf("a later good load gave %d samples (%v), want all 50 test images", len(s.Labels), ok)
			}
		})
	}
}

// TestBadTrainingPrefix: a prefix that does not match the manifest fails
// the load before Loaded, with nothing loaded.
func TestBadTrainingPrefix(t *testing.T) {
	good := synthPack(t, 100, 50)
	tests := []struct {
		name string
		edit func(l *protocol.Load)
		want string
	}{
		{"another length", func(l *protocol.Load) { l.TrainBytes-- }, "the training images end at byte"},
		{"another digest", func(l *protocol.Load) { l.TrainSHA256 = strings.Repeat("0", 64) }, "training images: checksum mismatch: SHA-256"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newEnv(time.Millisecond)
			h := start(t, env)
			l := env.serve("synth", "a.mnpk", good)
			tt.edit(&l)
			h.send(l)
			all, f := untilType[protocol.Failed](h)
			if len(only[protocol.Loaded](all)) != 0 || f.Unloaded || !strings.Contains(f.Message, tt.want) || f.Hint != hintChecksum {
				t.Errorf("events %#v, want Failed with %q and the checksum hint before any Loaded", all, tt.want)
			}
		})
	}
}

func TestLoadFailures(t *testing.T) {
	good, corrupt := goodAndCorrupt(t)
	tests := []loadCase{
		{"a wrong SHA-256 is a checksum mismatch", func(env *fakeEnv) protocol.Load {
			l := env.serve("synth", "a.mnpk", good)
			l.SHA256 = strings.Repeat("0", 64)
			return l
		}, "checksum mismatch: SHA-256", hintChecksum},
		{"a wrong size is a checksum mismatch", func(env *fakeEnv) protocol.Load {
			l := env.serve("synth", "a.mnpk", good)
			l.Bytes++
			return l
		}, "checksum mismatch: got", hintChecksum},
		{"a missing file names the status", func(env *fakeEnv) protocol.Load {
			return protocol.Load{Name: "synth", URL: "missing.mnpk"}
		}, "HTTP 404", hintFetch},
		{"a stalled download is named as such", func(env *fakeEnv) protocol.Load {
			l := env.serve("synth", "a.mnpk", good)
			env.stopAt(l.URL, stop{at: 10, err: ErrStalled})
			return l
		}, "loading pack synth stalled: no data arrived for 15 s", hintFetch},
		{"a corrupt pack gives the decoder's message", func(env *fakeEnv) protocol.Load {
			return env.serve("synth", "a.mnpk", corrupt)
		}, "dataset: checksum mismatch", hintDecode},
		{"a panic in Fetch is recovered", func(env *fakeEnv) protocol.Load {
			return protocol.Load{Name: "synth", URL: "panic"}
		}, "internal error in load: fetch exploded", hintInternal},
	}
	for _, tt := range tests {
		t.Run(tt.name+" and leaves the old data usable", func(t *testing.T) {
			defer func(f func(string, ...any)) { logf = f }(logf)
			logf = t.Logf
			env := newEnv(time.Millisecond)
			h := start(t, env)
			h.send(env.serve("synth", "good.mnpk", good))
			untilType[protocol.Samples](h)
			h.send(tt.load(env))
			_, f := untilType[protocol.Failed](h)
			if !strings.Contains(f.Message, tt.want) || f.Hint != tt.hint || f.Key == "" || f.Fatal {
				t.Errorf("Failed %+v, want %q with a hint naming %q", f, tt.want, tt.hint)
			}
			h.send(protocol.Evaluate{})
			if e, ok := h.next().(protocol.Evaluated); !ok || e.Run != 0 {
				t.Errorf("after the failure Evaluate gave %#v", e)
			}
			h.send(env.serve("synth", "good.mnpk", good))
			if _, l := untilType[protocol.Loaded](h); l.Train != 100 {
				t.Errorf("a later good load gave %+v", l)
			}
		})
	}
}

func TestCommandsBeforeLoad(t *testing.T) {
	cfg := protocol.Config{LearningRate: 0.5, BatchSize: 10, Epochs: 1, Seed: 1}
	for _, m := range []protocol.Msg{
		protocol.Train{Config: cfg}, protocol.Step{Config: cfg}, protocol.Reset{Config: cfg}, protocol.Evaluate{},
	} {
		t.Run(protocol.Name(m)+" fails with a hint", func(t *testing.T) {
			h := start(t, newEnv(time.Millisecond))
			h.send(m)
			f, ok := h.next().(protocol.Failed)
			if !ok || f.Message != "no data loaded yet" || f.Hint != hintNoData || f.Fatal {
				t.Errorf("got %#v", f)
			}
		})
	}
}

func TestUnexpectedMessage(t *testing.T) {
	h := start(t, newEnv(time.Millisecond))
	h.send(protocol.Progress{})
	if f, ok := h.next().(protocol.Failed); !ok || !strings.Contains(f.Message, "does not accept progress") {
		t.Errorf("got %#v", f)
	}
	h.send(protocol.Pause{}) // nothing to pause: no event
	h.send(protocol.Evaluate{})
	if f, ok := h.next().(protocol.Failed); !ok || f.Message != "no data loaded yet" {
		t.Errorf("the session did not go on: %#v", f)
	}
}

// TestDefaultPack loads the committed pack and trains one epoch on it.
func TestDefaultPack(t *testing.T) {
	if testing.Short() {
		t.Skip("trains on 10,000 images")
	}
	b := datasettest.DefaultBytes(t)
	root, err := datasettest.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	mb, err := os.ReadFile(filepath.Join(root, "web/data/manifest.json"))
	if err != nil {
		t.Fatal("the committed manifest cannot be read:", err)
	}
	var man dataset.Manifest
	if err := json.Unmarshal(mb, &man); err != nil {
		t.Fatal(err)
	}
	info, ok := man.Find("default")
	if !ok {
		t.Fatal("the manifest lists no default pack")
	}
	env := newEnv(time.Millisecond)
	h := start(t, env)
	env.files["/web/data/default.mnpk"] = b
	h.send(protocol.Load{Name: info.Name, URL: "/web/data/default.mnpk", SHA256: info.SHA256, Bytes: info.Bytes})
	if _, l := untilType[protocol.Loaded](h); l.Train != info.Train || l.Test != info.Test {
		t.Errorf("Loaded %+v, manifest %+v", l, info)
	}
	h.send(protocol.Train{Config: protocol.Config{LearningRate: 0.5, BatchSize: 100, L2: 1e-4, Epochs: 1, Seed: 1}})
	_, e := untilType[protocol.Evaluated](h)
	if e.Epoch != 1 || e.Accuracy < 0.85 {
		t.Errorf("after one epoch: %+v", e)
	}
	t.Logf("test accuracy after one epoch on the default pack: %.4f", e.Accuracy)
}
