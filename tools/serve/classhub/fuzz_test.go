package classhub

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"softmaxdemo/core/class"
)

// FuzzParseFile: the loader of the file of drawings never panics, takes
// only whole and right records, and the records it takes, written again,
// load the same without a warning.
func FuzzParseFile(f *testing.F) {
	r := newRand()
	var phone class.PhoneID
	phone[0] = 1
	a := addRecord(&drawing{n: 1, phone: phone, seq: 1, label: 3, pixels: digit(r)})
	b := addRecord(&drawing{n: 2, label: 9, pixels: digit(r)})
	f.Add([]byte(fileMagic))
	f.Add(append([]byte(fileMagic), a...))
	f.Add(append(append(append([]byte(fileMagic), a...), removeRecord(1)...), b[:100]...))
	f.Add(append(append([]byte(fileMagic), "junkA"...), b...))
	f.Fuzz(func(t *testing.T, file []byte) {
		recs, good, _, err := parseFile(file)
		if err != nil {
			return
		}
		if good > int64(len(file)) {
			t.Fatalf("the good part is %d bytes of %d", good, len(file))
		}
		var again []byte
		for _, rec := range recs {
			if rec.removed {
				again = append(again, removeRecord(rec.d.n)...)
			} else {
				if rec.d.label > 9 || rec.d.n == 0 {
					t.Fatalf("a record taken with label %d, number %d", rec.d.label, rec.d.n)
				}
				again = append(again, addRecord(&rec.d)...)
			}
		}
		recs2, _, warnings, err := parseFile(append([]byte(fileMagic), again...))
		if err != nil || len(warnings) != 0 || len(recs2) != len(recs) {
			t.Fatalf("the records written again: %d of %d, warnings %q, %v", len(recs2), len(recs), warnings, err)
		}
		for i := range recs {
			if recs[i] != recs2[i] {
				t.Fatalf("record %d changed", i)
			}
		}
	})
}

// FuzzRequests sends any body to each of the paths a phone posts to,
// and to the presenter's: the hub never panics, answers every body with
// a 2xx or a 4xx (never a 5xx), and keeps its counts consistent.
func FuzzRequests(f *testing.F) {
	paths := []string{class.PathJoin, class.PathAnswer, class.PathDrawing, class.PathLine,
		class.PathState, class.PathQuestion, class.PathTheta, class.PathDigitsNPZ}
	var key class.Key
	key[0] = 9
	h := New(key)
	h.Rate, h.Burst, h.DrawRate, h.DrawBurst = 1e9, 1e9, 1e9, 1e9
	h.MaxDrawings, h.MaxDrawingsPerPhone = 1e9, 1e9
	defer h.Close()
	r := newRand()
	var phone class.PhoneID
	phone[5] = 3
	for i, body := range [][]byte{
		class.Join{Version: class.Version, Phone: phone}.Encode(),
		class.Answer{Phone: phone, Seq: 2, Question: "q", Choice: "a"}.Encode(),
		(&class.Drawing{Phone: phone, Seq: 3, Label: 4, Pixels: digit(r)}).Encode(),
		class.Line{Phone: phone, Seq: 4, Line: class.PlaneLine{K: 2, W: []float32{0, 1, 2, 3}, B: []float32{0, 1}}}.Encode(),
		class.State{Chapter: 1, Lang: "en", Scrub: -1}.Encode(),
		class.Question{ID: "q", Choices: []string{"a", "b"}}.Encode(),
		{'C', 'L', 0xce, 0xb8, 2, 0, 0, 0, 1, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16},
	} {
		f.Add(uint8(i), body)
	}
	f.Fuzz(func(t *testing.T, which uint8, body []byte) {
		path := paths[int(which)%len(paths)]
		ctype := "application/json"
		if path == class.PathTheta || path == class.PathDigitsNPZ {
			ctype = "application/octet-stream"
		}
		req := httptest.NewRequest(http.MethodPost, path+"?key="+key.String(), bytes.NewReader(body))
		req.Header.Set("Content-Type", ctype)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code >= 500 || w.Code < 200 || (w.Code >= 300 && w.Code < 400) {
			t.Fatalf("%s: status %d, %s", path, w.Code, w.Body)
		}
		if w.Code >= 400 && class.DecodeRefusal(w.Code, "", w.Body.Bytes()).Code == "" {
			t.Fatalf("%s: a refusal without its code: %s", path, w.Body)
		}
		if !strings.HasPrefix(w.Header().Get("Content-Type"), "application/json") {
			t.Fatalf("%s: Content-Type %q", path, w.Header().Get("Content-Type"))
		}
		h.mu.Lock()
		defer h.mu.Unlock()
		sum := 0
		for _, n := range h.counts {
			sum += n
		}
		if sum != len(h.answers) || len(h.counts) != len(h.question.Choices) {
			t.Fatalf("counts %v for %d answers and %d choices", h.counts, len(h.answers), len(h.question.Choices))
		}
		if h.digits.kept != len(h.digits.all) {
			t.Fatalf("%d drawings kept of %d", h.digits.kept, len(h.digits.all))
		}
	})
}
