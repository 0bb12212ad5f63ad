package class

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
)

// FuzzRequests feeds every request body the server decodes (kind picks
// the decoder): a decoder never panics, refuses with one of the
// package's sentinels, accepts only what encoding/json calls valid JSON,
// and what it accepts encodes and decodes back to the same message.
func FuzzRequests(f *testing.F) {
	rqs := requests(newRand())
	for i, rq := range rqs {
		f.Add(uint8(i), rq.encode())
	}
	f.Add(uint8(3), []byte(`{"phone":"3f0c0000000000000000000000000001","seq":1,"k":2,"w":[1e-45,-0,0,2],"b":[0,"\u0030"]}`))
	f.Add(uint8(1), []byte(`{"phone":"3f0c0000000000000000000000000001","seq":1,"question":"\ud83d\ude00","choice":"a"}`))
	f.Fuzz(func(t *testing.T, kind uint8, b []byte) {
		rq := rqs[int(kind)%len(rqs)]
		v, err := rq.decode(b)
		if err != nil {
			if !IsRefusable(err) {
				t.Fatalf("%s: error %v wraps no sentinel", rq.name, err)
			}
			return
		}
		if !json.Valid(b) {
			t.Fatalf("%s: accepted %q, which is not JSON", rq.name, b)
		}
		again := encodeRequest(t, v)
		w, err := rq.decode(again)
		if err != nil || !same(v, w) {
			t.Fatalf("%s: %+v encodes to %s, which decodes to %+v (%v)", rq.name, v, again, w, err)
		}
	})
}

func encodeRequest(t *testing.T, v any) []byte {
	switch v := v.(type) {
	case Join:
		return v.Encode()
	case Answer:
		return v.Encode()
	case *Drawing:
		return v.Encode()
	case Line:
		return v.Encode()
	case State:
		return v.Encode()
	case Question:
		return v.Encode()
	}
	t.Fatalf("no encoder for %T", v)
	return nil
}

// eventNames are the events' names, for FuzzDecodeEvent's kind.
var eventNames = []string{EventHello, EventState, EventTeacher, EventTheta, EventQuestion, EventCounts,
	EventJoined, EventDrawing, EventRemoved, EventLine, EventCleared, EventFault}

// FuzzDecodeEvent is FuzzRequests for the events a page decodes.
func FuzzDecodeEvent(f *testing.F) {
	for _, e := range events(newRand()) {
		for i, n := range eventNames {
			if n == e.Name() {
				f.Add(uint8(i), mustEncode(f, e))
			}
		}
	}
	f.Fuzz(func(t *testing.T, kind uint8, b []byte) {
		name := eventNames[int(kind)%len(eventNames)]
		e, err := DecodeEvent(name, b)
		if err != nil {
			if !IsRefusable(err) {
				t.Fatalf("%s: error %v wraps no sentinel", name, err)
			}
			return
		}
		if !json.Valid(b) {
			t.Fatalf("%s: accepted %q, which is not JSON", name, b)
		}
		again := mustEncode(t, e)
		e2, err := DecodeEvent(name, again)
		if err != nil || !same(e, e2) {
			t.Fatalf("%s: %+v encodes to %s, which decodes to %+v (%v)", name, e, again, e2, err)
		}
	})
}

// FuzzDecodeTheta: DecodeTheta never panics, refuses with a sentinel,
// and what it accepts encodes to the same bytes.
func FuzzDecodeTheta(f *testing.F) {
	for _, shape := range [][2]int{{784, 10}, {2, 3}} {
		b, err := EncodeTheta(randomTheta(newRand(), shape[0], shape[1]))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := DecodeTheta(b)
		if err != nil {
			if !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v wraps no sentinel", err)
			}
			return
		}
		again, err := EncodeTheta(m)
		if err != nil || !bytes.Equal(again, b) {
			t.Fatalf("decoded θ encodes to other bytes (%v)", err)
		}
		if Checksum(m) != ChecksumWire(b) {
			t.Fatal("the checksums of the model and of its wire form differ")
		}
	})
}

// FuzzDecodeDigitList is FuzzDecodeTheta for the list of drawings.
func FuzzDecodeDigitList(f *testing.F) {
	r := newRand()
	b, _ := EncodeDigitList([]*Digit{{N: 1, Label: 2, Pixels: pixels(r)}, {N: 5, Label: 9, Pixels: pixels(r)}})
	f.Add(b)
	f.Fuzz(func(t *testing.T, b []byte) {
		ds, err := DecodeDigitList(b)
		if err != nil {
			if !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v wraps no sentinel", err)
			}
			return
		}
		again, err := EncodeDigitList(ds)
		if err != nil || !bytes.Equal(again, b) {
			t.Fatalf("decoded list encodes to other bytes (%v)", err)
		}
	})
}
