package classhub

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"softmaxdemo/core/class"
	"softmaxdemo/tools/internal/classclient"
)

// TestBodiesAreChecked: a body over the limit is 413, one that is not
// the message 400, one of another type 415, one from another site 403;
// each says why and none changes the class.
func TestBodiesAreChecked(t *testing.T) {
	tc := newClass(t, "", nil)
	ctx := tc.ctx()
	pres := tc.presenter()
	pres.Ask(ctx, class.Question{ID: "q1", Choices: []string{"a", "b"}})
	p := tc.phone()
	good := class.Answer{Phone: p.Phone, Seq: 1, Question: "q1", Choice: "a"}.Encode()
	for _, tt := range []struct {
		name, path, ctype string
		body              []byte
		status            int
		code, says        string
	}{
		{"a body over the limit", class.PathAnswer, "application/json", []byte(strings.Repeat(" ", 4097)), 413, class.CodeTooLarge, "4096 bytes"},
		{"a drawing over the limit", class.PathDrawing, "application/json", append([]byte(`{"phone":"`), make([]byte, 5000)...), 413, class.CodeTooLarge, ""},
		{"malformed JSON", class.PathAnswer, "application/json", []byte(`{"phone":`), 400, class.CodeMalformed, "malformed"},
		{"an unknown field", class.PathAnswer, "application/json", []byte(strings.Replace(string(good), `"seq"`, `"sequence"`, 1)), 400, class.CodeMalformed, `"sequence"`},
		{"a label of 10", class.PathDrawing, "application/json", []byte(strings.Replace(string((&class.Drawing{Phone: p.Phone, Seq: 2, Label: 9}).Encode()), `"label":9`, `"label":10`, 1)), 400, class.CodeInvalid, "label 10"},
		{"a drawing of 783 pixels", class.PathDrawing, "application/json", []byte(`{"phone":"` + p.Phone.String() + `","seq":2,"label":1,"pixels":"` + strings.Repeat("A", 1044) + `"}`), 400, class.CodeMalformed, "784 bytes"},
		{"a line outside the plane", class.PathLine, "application/json", class.Line{Phone: p.Phone, Seq: 3, Line: class.PlaneLine{K: 2, W: []float32{0, 0, 0, 101}, B: []float32{0, 0}}}.Encode(), 400, class.CodeInvalid, "within ±100"},
		{"a form", class.PathAnswer, "application/x-www-form-urlencoded", good, 415, class.CodeContentType, "application/json"},
		{"a join of another version", class.PathJoin, "application/json", []byte(`{"v":7,"phone":"` + p.Phone.String() + `"}`), 400, class.CodeVersion, "reload the page"},
		{"a θ that is not one", class.PathTheta + "?key=" + tc.key.String(), "application/octet-stream", []byte("MNPK"), 400, class.CodeMalformed, "header"},
		{"a θ over the limit", class.PathTheta + "?key=" + tc.key.String(), "application/octet-stream", make([]byte, class.MaxThetaBytes+1), 413, class.CodeTooLarge, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			status, _, body := tc.raw(http.MethodPost, tt.path, tt.ctype, tt.body)
			ref := class.DecodeRefusal(status, "", body)
			if status != tt.status || ref.Code != tt.code || !strings.Contains(ref.Message, tt.says) {
				t.Errorf("status %d, %s", status, body)
			}
		})
	}
	for _, tt := range []struct {
		method, path string
		status       int
		code         string
	}{
		{http.MethodGet, class.PathAnswer, 405, class.CodeMethod},
		{http.MethodPost, class.PathEvents, 405, class.CodeMethod},
		{http.MethodPut, class.PathDrawings + "/1", 405, class.CodeMethod},
		{http.MethodGet, "/class/nope", 404, class.CodeNotFound},
	} {
		status, _, body := tc.raw(tt.method, tt.path, "", nil)
		if ref := class.DecodeRefusal(status, "", body); status != tt.status || ref.Code != tt.code {
			t.Errorf("%s %s: %d %s", tt.method, tt.path, status, body)
		}
	}
	req, _ := http.NewRequest(http.MethodPost, tc.srv.URL+class.PathAnswer, strings.NewReader(string(good)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", "http://evil.example")
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusForbidden {
		t.Errorf("a POST from another site: %v, %v", resp.Status, err)
	}
	tc.locked(func(h *Hub) {
		if len(h.answers) != 0 || h.digits.kept != 0 || len(h.lines) != 0 || h.theta != nil {
			t.Errorf("refused requests changed the class: %d answers, %d drawings, %d lines, θ %v", len(h.answers), h.digits.kept, len(h.lines), h.theta)
		}
	})
	if _, err := p.SendAnswer(ctx, class.Answer{Phone: p.Phone, Seq: 9, Question: "q1", Choice: "a"}); err != nil {
		t.Errorf("a good answer after the refusals: %v", err)
	}
}

// TestRate: a phone that sends more than Burst requests at once, and
// then more than Rate a second, gets 429 with Retry-After and changes
// nothing; another phone is not held up.
func TestRate(t *testing.T) {
	now := time.Unix(1e9, 0)
	tc := newClass(t, "", func(h *Hub) {
		h.Rate, h.Burst = 2, 3
		h.Now = func() time.Time { return now }
	})
	ctx := tc.ctx()
	tc.presenter().Ask(ctx, class.Question{ID: "q", Choices: []string{"a", "b"}})
	fast, other := tc.phone(), tc.phone()
	post := func(c interface{ Next() uint32 }, phone class.PhoneID, choice string) (int, string) {
		status, retry, _ := tc.raw(http.MethodPost, class.PathAnswer, "application/json",
			class.Answer{Phone: phone, Seq: c.Next(), Question: "q", Choice: choice}.Encode())
		return status, retry
	}
	for i := range 3 {
		if s, _ := post(fast, fast.Phone, "a"); s != 200 {
			t.Fatalf("request %d of a burst of 3: status %d", i+1, s)
		}
	}
	s, retry := post(fast, fast.Phone, "b")
	if s != http.StatusTooManyRequests || retry != "1" {
		t.Errorf("the 4th request at once: status %d, Retry-After %q; want 429 and 1", s, retry)
	}
	tc.locked(func(h *Hub) {
		if a := h.answers[fast.Phone]; a.choice != 0 {
			t.Errorf("a refused answer changed the phone's choice to %d", a.choice)
		}
	})
	if s, _ := post(other, other.Phone, "b"); s != 200 {
		t.Errorf("another phone meanwhile: status %d", s)
	}
	tc.locked(func(*Hub) { now = now.Add(500 * time.Millisecond) }) // one token back
	if s, _ := post(fast, fast.Phone, "b"); s != 200 {
		t.Errorf("half a second later: status %d", s)
	}
	if s, _ := post(fast, fast.Phone, "a"); s != http.StatusTooManyRequests {
		t.Errorf("then at once: status %d", s)
	}
}

// TestClassFull: with MaxStudents joined, the next phone is told the
// class is full (503, a message, Retry-After), by its join and its
// stream; a joined phone is not refused; a seat frees when a phone has
// been gone for Grace.
func TestClassFull(t *testing.T) {
	now := time.Unix(1e9, 0)
	tc := newClass(t, "", func(h *Hub) {
		h.MaxStudents = 3
		h.Now = func() time.Time { return now }
	})
	ctx := tc.ctx()
	var in []*follower
	for range 3 {
		in = append(in, follow(t, tc.phone()))
	}
	late := tc.phone()
	err := late.Join(ctx)
	if ref := refusal(t, err, http.StatusServiceUnavailable); ref.Code != class.CodeFull || ref.RetryAfter == 0 || !strings.Contains(ref.Message, "class is full (3 phones)") || !ref.Retry() {
		t.Errorf("the 4th phone: %+v", ref)
	}
	err = late.Follow(ctx, func(class.Event) {}, nil)
	if ref := refusal(t, err, http.StatusServiceUnavailable); ref.Code != class.CodeFull {
		t.Errorf("the 4th phone's stream: %+v", ref)
	}
	if err := in[0].c.Join(ctx); err != nil {
		t.Errorf("a phone in the class joins again: %v", err)
	}
	in[0].stop()
	tc.until("the stream closed", func(h *Hub) bool { return len(h.phones[in[0].c.Phone].open) == 0 })
	tc.locked(func(h *Hub) {
		h.expire()
		if len(h.phones) != 3 {
			t.Errorf("a phone gone a moment is not kept: %d joined", len(h.phones))
		}
		now = now.Add(h.Grace + time.Second)
		h.expire()
		if len(h.phones) != 2 {
			t.Errorf("a phone gone for longer than Grace is kept: %d joined", len(h.phones))
		}
	})
	if err := late.Join(ctx); err != nil {
		t.Errorf("with a seat free: %v", err)
	}
}

// TestDrawingLimits: a phone sends at most DrawBurst drawings at once
// and DrawRate a second (429), at most MaxDrawingsPerPhone in the class
// (403), and the class keeps at most MaxDrawings (403); a removed
// drawing leaves room in the class, not to the phone.
func TestDrawingLimits(t *testing.T) {
	now := time.Unix(1e9, 0)
	tc := newClass(t, "", func(h *Hub) {
		h.DrawRate, h.DrawBurst = 1, 2
		h.MaxDrawingsPerPhone, h.MaxDrawings = 3, 5
		h.Now = func() time.Time { return now }
	})
	ctx := tc.ctx()
	r := newRand()
	a := tc.phone()
	send := func(c interface{ Next() uint32 }, phone class.PhoneID) (int, *class.Refusal) {
		d := &class.Drawing{Phone: phone, Seq: c.Next(), Label: 1, Pixels: digit(r)}
		status, retry, body := tc.raw(http.MethodPost, class.PathDrawing, "application/json", d.Encode())
		return status, class.DecodeRefusal(status, retry, body)
	}
	later := func() { tc.locked(func(*Hub) { now = now.Add(time.Second) }) }
	for range 2 {
		if s, _ := send(a, a.Phone); s != 200 {
			t.Fatalf("a drawing of a burst of 2: %d", s)
		}
	}
	if s, ref := send(a, a.Phone); s != 429 || ref.Code != class.CodeRate || ref.RetryAfter != 1 || !strings.Contains(ref.Message, "drawings a second") {
		t.Errorf("the 3rd at once: %d %+v", s, ref)
	}
	later()
	if s, _ := send(a, a.Phone); s != 200 {
		t.Errorf("a second later: %d", s)
	}
	later()
	if s, ref := send(a, a.Phone); s != 403 || ref.Code != class.CodePhoneLimit || !strings.Contains(ref.Message, "3 drawings") {
		t.Errorf("the phone's 4th: %d %+v", s, ref)
	}
	b := tc.phone()
	for range 2 {
		if s, _ := send(b, b.Phone); s != 200 {
			t.Fatalf("b's drawing: %d", s)
		}
	}
	later()
	c := tc.phone()
	if s, ref := send(c, c.Phone); s != 403 || ref.Code != class.CodeClassLimit || !strings.Contains(ref.Message, "limit of 5") {
		t.Errorf("the class's 6th: %d %+v", s, ref)
	}
	if err := tc.presenter().Remove(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if s, _ := send(c, c.Phone); s != 200 {
		t.Errorf("after a removal, the class has room: %d", s)
	}
	later()
	if s, ref := send(a, a.Phone); s != 403 || ref.Code != class.CodePhoneLimit {
		t.Errorf("a removal gives its phone no more: %d %+v", s, ref)
	}
	tc.locked(func(h *Hub) {
		if h.digits.kept != 5 || h.digits.last != 6 {
			t.Errorf("%d drawings kept, the last %d; want 5 and 6", h.digits.kept, h.digits.last)
		}
	})
}

// TestLinesLimit: the class keeps the lines of MaxLines phones; the
// next phone's is refused; a phone's new line replaces its own.
func TestLinesLimit(t *testing.T) {
	tc := newClass(t, "", func(h *Hub) { h.MaxLines = 2 })
	ctx := tc.ctx()
	line := class.PlaneLine{K: 2, W: []float32{0, 1, 0, -1}, B: []float32{0, 0}}
	a, b := tc.phone(), tc.phone()
	for _, c := range []*classclient.Client{a, b, a} {
		if _, err := c.SendLine(ctx, line); err != nil {
			t.Fatal(err)
		}
	}
	_, err := tc.phone().SendLine(ctx, line)
	if ref := refusal(t, err, http.StatusForbidden); ref.Code != class.CodeClassLimit || !strings.Contains(ref.Message, strconv.Itoa(2)) {
		t.Errorf("the third phone's line: %+v", ref)
	}
}
