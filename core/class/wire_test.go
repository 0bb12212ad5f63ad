package class

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestRequestsRoundTrip: every request decodes to what was encoded, and
// its wire form is JSON that encoding/json reads too.
func TestRequestsRoundTrip(t *testing.T) {
	for _, rq := range requests(newRand()) {
		b := rq.encode()
		if !json.Valid(b) || bytes.ContainsAny(b, "\n\r") {
			t.Errorf("%s: %s is not one line of JSON", rq.name, b)
		}
		got, err := rq.decode(b)
		if err != nil {
			t.Errorf("%s: %v", rq.name, err)
			continue
		}
		if !same(got, rq.value) {
			t.Errorf("%s: decoded %+v, want %+v", rq.name, got, rq.value)
		}
	}
}

// TestEventsRoundTrip: every event decodes to what was encoded, one line
// of JSON that encoding/json reads too.
func TestEventsRoundTrip(t *testing.T) {
	for _, e := range events(newRand()) {
		b := mustEncode(t, e)
		if !json.Valid(b) || bytes.ContainsAny(b, "\n\r") {
			t.Errorf("%s: %s is not one line of JSON", e.Name(), b)
		}
		got, err := DecodeEvent(e.Name(), b)
		if err != nil {
			t.Errorf("%s: %v\n%s", e.Name(), err, b)
			continue
		}
		if !same(got, e) {
			t.Errorf("%s: decoded %+v, want %+v", e.Name(), got, e)
		}
	}
	if _, err := EncodeEvent(nil); err == nil {
		t.Error("EncodeEvent(nil) succeeded")
	}
}

// TestWireForm: the wire form of a few messages, written out by hand
// from the doc comments, byte for byte.
func TestWireForm(t *testing.T) {
	p := PhoneID{0x3f, 0x0c, 15: 1}
	pid := "3f0c0000000000000000000000000001"
	for _, tt := range []struct {
		got  []byte
		want string
	}{
		{Join{Version: 1, Phone: p}.Encode(), `{"v":1,"phone":"` + pid + `"}`},
		{Answer{p, 7, "q-newton", "2"}.Encode(), `{"phone":"` + pid + `","seq":7,"question":"q-newton","choice":"2"}`},
		{Line{p, 9, PlaneLine{2, []float32{0, -1.5, 0, 2}, []float32{0, 0.25}}}.Encode(),
			`{"phone":"` + pid + `","seq":9,"k":2,"w":[0,-1.5,0,2],"b":[0,0.25]}`},
		{State{3, "zh", -1}.Encode(), `{"chapter":3,"lang":"zh","scrub":-1}`},
		{Question{"q-newton", []string{"0", "1", "2"}, false}.Encode(), `{"id":"q-newton","choices":["0","1","2"],"revealed":false}`},
		{mustEncode(t, Poll{Question{"q1", []string{"0", "1"}, true}, []Count{{"0", 4}, {"1", 20}}}),
			`{"id":"q1","choices":["0","1"],"revealed":true,"counts":{"0":4,"1":20}}`},
		{mustEncode(t, Poll{Question: Question{"q1", []string{"0", "1"}, false}}), `{"id":"q1","choices":["0","1"],"revealed":false,"counts":null}`},
		{mustEncode(t, Tally{"q1", []Count{{"0", 4}}}), `{"question":"q1","counts":{"0":4}}`},
		{mustEncode(t, Teacher{}), `{"here":false}`},
		{mustEncode(t, ThetaVersion{12, "9d2f"}), `{"version":12,"checksum":"9d2f"}`},
		{mustEncode(t, Cleared{}), `{}`},
		{mustEncode(t, Fault{"a \"b\"\n\x01"}), `{"message":"a \"b\"\n\u0001"}`},
		{(&Refusal{Status: 400, Code: CodeChoice, Message: "no"}).Encode(), `{"error":"choice","message":"no"}`},
		{Ack{Drawing: 12}.Encode(), `{"ok":true,"duplicate":false,"drawing":12}`},
	} {
		if string(tt.got) != tt.want {
			t.Errorf("got  %s\nwant %s", tt.got, tt.want)
		}
	}
	d := &Drawing{Phone: p, Seq: 8, Label: 3}
	d.Pixels[0] = 0xff
	want := `{"phone":"` + pid + `","seq":8,"label":3,"pixels":"/w` + strings.Repeat("A", 1044) + `=="}`
	if got := string(d.Encode()); got != want {
		t.Errorf("drawing: got %s", got)
	}
}

// decoders are the decoders of request bodies, by name.
var decoders = map[string]func([]byte) error{
	"join":     func(b []byte) error { _, err := DecodeJoin(b); return err },
	"answer":   func(b []byte) error { _, err := DecodeAnswer(b); return err },
	"drawing":  func(b []byte) error { _, err := DecodeDrawing(b); return err },
	"line":     func(b []byte) error { _, err := DecodeLine(b); return err },
	"state":    func(b []byte) error { _, err := DecodeState(b); return err },
	"question": func(b []byte) error { _, err := DecodeQuestion(b); return err },
}

// TestDecodeErrors: each refusal wraps its sentinel and says what is
// wrong.
func TestDecodeErrors(t *testing.T) {
	const pid = `"3f0c0000000000000000000000000001"`
	px := `"` + strings.Repeat("A", 1046) + `=="`
	line := func(k, w, b string) string {
		return `{"phone":` + pid + `,"seq":1,"k":` + k + `,"w":` + w + `,"b":` + b + `}`
	}
	for _, tt := range []struct {
		decoder, body string
		is            error
		says          string
	}{
		{"answer", ``, ErrMalformed, "want an object"},
		{"answer", `[]`, ErrMalformed, "want an object"},
		{"answer", `{"phone":` + pid + `,"seq":1,"question":"q","choice":"a"} x`, ErrMalformed, "bytes after"},
		{"answer", `{"phone":` + pid + `,"seq":1,"question":"q"}`, ErrMalformed, `no field "choice"`},
		{"answer", `{"phone":` + pid + `,"seq":1,"question":"q","choice":"a","x":1}`, ErrMalformed, `unknown field "x"`},
		{"answer", `{"phone":` + pid + `,"phone":` + pid + `,"seq":1,"question":"q","choice":"a"}`, ErrMalformed, `"phone" twice`},
		{"answer", `{"phone":` + pid + `,"seq":"1","question":"q","choice":"a"}`, ErrMalformed, "want a number"},
		{"answer", `{"phone":` + pid + `,"seq":1.5,"question":"q","choice":"a"}`, ErrMalformed, "not an integer"},
		{"answer", `{"phone":` + pid + `,"seq":4294967296,"question":"q","choice":"a"}`, ErrMalformed, "not an integer"},
		{"answer", `{"phone":` + pid + `,"seq":-1,"question":"q","choice":"a"}`, ErrMalformed, "not an integer"},
		{"answer", `{"phone":` + pid + `,"seq":01,"question":"q","choice":"a"}`, ErrMalformed, "want ',' or '}'"},
		{"answer", `{"phone":` + pid + `,"seq":0,"question":"q","choice":"a"}`, ErrInvalid, "seq 0"},
		{"answer", `{"phone":"3F0C0000000000000000000000000001","seq":1,"question":"q","choice":"a"}`, ErrInvalid, "lowercase hex"},
		{"answer", `{"phone":"00000000000000000000000000000000","seq":1,"question":"q","choice":"a"}`, ErrInvalid, "zero"},
		{"answer", `{"phone":"3f0c","seq":1,"question":"q","choice":"a"}`, ErrInvalid, "32 hex digits"},
		{"answer", `{"phone":` + pid + `,"seq":1,"question":"q","choice":""}`, ErrInvalid, "choice of 0 bytes"},
		{"answer", `{"phone":` + pid + `,"seq":1,"question":"q q","choice":"a"}`, ErrInvalid, `' '`},
		{"answer", `{"phone":` + pid + `,"seq":1,"question":"q","choice":"a` + "\x01" + `"}`, ErrMalformed, "control character"},
		{"answer", `{"phone":` + pid + `,"seq":1,"question":"q","choice":"` + "\xff" + `"}`, ErrMalformed, "not UTF-8"},
		{"answer", `{"phone":` + pid + `,"seq":1,"question":"q","choice":"\q"}`, ErrMalformed, `bad escape`},
		{"answer", `{"phone":` + pid + `,"seq":1,"question":"q","choice":"a`, ErrMalformed, "without its end"},
		{"drawing", `{"phone":` + pid + `,"seq":1,"label":10,"pixels":` + px + `}`, ErrInvalid, "label 10"},
		{"drawing", `{"phone":` + pid + `,"seq":1,"label":256,"pixels":` + px + `}`, ErrMalformed, "not an integer"},
		{"drawing", `{"phone":` + pid + `,"seq":1,"label":1,"pixels":"AAAA"}`, ErrMalformed, "want 1048 (784 bytes)"},
		{"drawing", `{"phone":` + pid + `,"seq":1,"label":1,"pixels":"` + strings.Repeat("A", 1047) + `="}`, ErrMalformed, "bad base64"},
		{"drawing", `{"phone":` + pid + `,"seq":1,"label":1,"pixels":"` + strings.Repeat("*", 1048) + `"}`, ErrMalformed, "bad base64"},
		{"line", line("2", "[0,0,0,0]", "[0,0]"), nil, ""},
		{"line", line("1", "[0,0]", "[0]"), ErrInvalid, "K = 1"},
		{"line", line("6", "[]", "[]"), ErrInvalid, "K = 6"},
		{"line", line("5", "[0,0,0,0,0,0,0,0,0,0,0]", "[0,0,0,0,0]"), ErrMalformed, "more than 10 numbers"},
		{"line", line("2", "[0,0,0]", "[0,0]"), ErrInvalid, "3 weights"},
		{"line", line("2", "[0,0,0,100.0001]", "[0,0]"), ErrInvalid, "weight 3"},
		{"line", line("2", "[0,0,0,0]", "[0,-1e3]"), ErrInvalid, "bias 1"},
		{"line", line("2", "[0,0,0,1e39]", "[0,0]"), ErrMalformed, "beyond float32"},
		{"line", line("2", "[0,0,0,NaN]", "[0,0]"), ErrMalformed, "want a number"},
		{"line", line("2", "[0,0,0,Infinity]", "[0,0]"), ErrMalformed, "want a number"},
		{"line", line("2", "[0,0,0,1.]", "[0,0]"), ErrMalformed, "after its point"},
		{"line", line("2", "[0,0,0,1e]", "[0,0]"), ErrMalformed, "exponent"},
		{"line", line("2", "[0,0,0,0,]", "[0,0]"), ErrMalformed, "want a number"},
		{"state", `{"chapter":65,"lang":"en","scrub":-1}`, ErrInvalid, "chapter 65"},
		{"state", `{"chapter":1,"lang":"fr","scrub":-1}`, ErrInvalid, `"fr"`},
		{"state", `{"chapter":1,"lang":"en","scrub":-2}`, ErrInvalid, "scrub"},
		{"question", `{"id":"q","choices":["a"],"revealed":false}`, ErrInvalid, "1 choices"},
		{"question", `{"id":"q","choices":["a","a"],"revealed":false}`, ErrInvalid, "twice"},
		{"question", `{"id":"","choices":["a","b"],"revealed":false}`, ErrInvalid, "closes"},
		{"question", `{"id":"","choices":[],"revealed":false}`, nil, ""},
		{"question", `{"id":"q","choices":[` + strings.Repeat(`"a",`, 16) + `"b"],"revealed":false}`, ErrMalformed, "more than 16"},
		{"question", `{"id":"q","choices":["a","b"],"revealed":0}`, ErrMalformed, "true or false"},
		{"join", `{"v":2,"phone":` + pid + `}`, ErrVersion, "reload the page"},
		{"join", `{"v":1,"phone":""}`, ErrInvalid, "phone id"},
	} {
		t.Run(tt.decoder+" "+tt.body[:min(len(tt.body), 40)], func(t *testing.T) {
			err := decoders[tt.decoder]([]byte(tt.body))
			switch {
			case tt.is == nil && err != nil:
				t.Fatalf("error %v, want none", err)
			case tt.is == nil:
			case !errors.Is(err, tt.is):
				t.Fatalf("error %v, want one wrapping %v", err, tt.is)
			case !strings.Contains(err.Error(), tt.says):
				t.Errorf("error %q does not say %q", err, tt.says)
			}
		})
	}
}

// TestPrefixesAreMalformed: every proper prefix of every request and
// event is refused as malformed, never accepted and never a panic.
func TestPrefixesAreMalformed(t *testing.T) {
	for _, rq := range requests(newRand()) {
		b := rq.encode()
		for n := range len(b) {
			if _, err := rq.decode(b[:n]); !errors.Is(err, ErrMalformed) {
				t.Fatalf("%s cut to %d of %d bytes: error %v, want ErrMalformed", rq.name, n, len(b), err)
			}
		}
	}
	for _, e := range events(newRand()) {
		b := mustEncode(t, e)
		for n := range len(b) {
			if _, err := DecodeEvent(e.Name(), b[:n]); !errors.Is(err, ErrMalformed) {
				t.Fatalf("%s cut to %d of %d bytes: error %v, want ErrMalformed", e.Name(), n, len(b), err)
			}
		}
	}
}

// TestStringsAsEncodingJSONReadsThem: the reader's strings, escapes and
// all, are encoding/json's, and what the writer writes encoding/json
// reads back unchanged.
func TestStringsAsEncodingJSONReadsThem(t *testing.T) {
	for _, in := range []string{
		`""`, `"a"`, `"\"\\\/\b\f\n\r\t"`, `"\u00e9\u4e2d"`, `"中文 θ"`, `"\ud83d\ude00"`,
		`"\ud83d"`, `"\ud83dx"`, `"\ude00\ud83d"`, `"\ud83d\u0041"`, `"\uD83D\uDE00"`,
	} {
		var want string
		if err := json.Unmarshal([]byte(in), &want); err != nil {
			t.Fatal(err)
		}
		r := reader{b: []byte(in)}
		got, err := r.str()
		if err != nil || got != want || r.p != len(in) {
			t.Errorf("%s: read %q (%v, at %d), encoding/json %q", in, got, err, r.p, want)
		}
		var back string
		if err := json.Unmarshal(appendString(nil, want), &back); err != nil || back != want {
			t.Errorf("%q written as %s reads back %q (%v)", want, appendString(nil, want), back, err)
		}
	}
}

// TestDecodeEventErrors: an unknown event, counts that are not the
// question's, a Hello of another version or role.
func TestDecodeEventErrors(t *testing.T) {
	hello := func(v, role string) string {
		return `{"v":` + v + `,"role":"` + role + `","state":{"chapter":0,"lang":"en","scrub":-1},"teacher":false,` +
			`"theta":{"version":0,"checksum":""},"question":{"id":"","choices":[],"revealed":false,"counts":null},` +
			`"mine":"","sent":0,"maxSent":50,"joined":0,"drawings":0,"last":0,"lines":[],"fault":""}`
	}
	for _, tt := range []struct {
		name, data string
		is         error
	}{
		{"hello", hello("1", "student"), nil},
		{"hello", hello("2", "student"), ErrVersion},
		{"hello", hello("1", "teacher"), ErrInvalid},
		{"nope", `{}`, ErrMalformed},
		{"question", `{"id":"q","choices":["a","b"],"revealed":true,"counts":{"a":1}}`, ErrInvalid},
		{"question", `{"id":"q","choices":["a","b"],"revealed":true,"counts":{"b":1,"a":1}}`, ErrInvalid},
		{"question", `{"id":"q","choices":["a","b"],"revealed":true,"counts":{"a":1,"b":-1}}`, ErrMalformed},
		{"counts", `{"question":"q","counts":null}`, ErrMalformed},
		{"drawing", `{"n":1,"label":10,"pixels":""}`, ErrMalformed},
		{"line", `{"slot":1,"k":2,"w":[0,0,0,0],"b":[0,101]}`, ErrInvalid},
		{"cleared", `{"x":1}`, ErrMalformed},
	} {
		_, err := DecodeEvent(tt.name, []byte(tt.data))
		if (tt.is == nil) != (err == nil) || (tt.is != nil && !errors.Is(err, tt.is)) {
			t.Errorf("%s %s: error %v, want %v", tt.name, tt.data, err, tt.is)
		}
	}
}

func TestRefusalAndAck(t *testing.T) {
	r := &Refusal{Status: 429, Code: CodeRate, Message: "more than 5 requests a second from this phone", RetryAfter: 2}
	got := DecodeRefusal(429, "2", r.Encode())
	if *got != *r || !got.Retry() {
		t.Errorf("decoded %+v (retry %v), want %+v", got, got.Retry(), r)
	}
	if p := DecodeRefusal(502, "", []byte("<html>Bad gateway\n</html>")); p.Code != "" || p.Message != "<html>Bad gateway" || p.Retry() {
		t.Errorf("a proxy's page: %+v", p)
	}
	if p := DecodeRefusal(400, "x", []byte(`{"error":"choice","message":"m"}`)); p.Retry() || p.Code != CodeChoice || p.RetryAfter != 0 {
		t.Errorf("a final refusal: %+v", p)
	}
	for _, a := range []Ack{{}, {Duplicate: true, Drawing: 4294967295}} {
		if b, err := DecodeAck(a.Encode()); err != nil || b != a {
			t.Errorf("Ack %+v decodes to %+v (%v)", a, b, err)
		}
	}
	for _, bad := range []string{`{"ok":false,"duplicate":false,"drawing":0}`, `{"ok":true}x`, `null`} {
		if _, err := DecodeAck([]byte(bad)); err == nil {
			t.Errorf("DecodeAck(%s) succeeded", bad)
		}
	}
	if s := fmt.Sprint(r); !strings.Contains(s, "429 rate") {
		t.Errorf("Refusal prints %q", s)
	}
}

func TestParseIDs(t *testing.T) {
	p := phone(newRand())
	if q, err := ParsePhoneID(p.String()); err != nil || q != p {
		t.Errorf("ParsePhoneID(%s) = %v, %v", p, q, err)
	}
	k := Key(p)
	if q, err := ParseKey(k.String()); err != nil || q != k {
		t.Errorf("ParseKey(%s) = %v, %v", k, q, err)
	}
	for _, s := range []string{"", "0", strings.Repeat("g", 32), strings.Repeat("A", 32), strings.Repeat("0", 33), " " + strings.Repeat("0", 31)} {
		if _, err := ParseKey(s); !errors.Is(err, ErrInvalid) {
			t.Errorf("ParseKey(%q): %v, want ErrInvalid", s, err)
		}
	}
	if _, err := ParseKey(strings.Repeat("0", 32)); err != nil {
		t.Errorf("a zero key is a key: %v", err)
	}
}
