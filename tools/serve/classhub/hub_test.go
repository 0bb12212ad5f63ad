package classhub

import (
	"go/ast"
	"go/parser"
	"go/token"
	"net/http"
	"os"
	"strings"
	"testing"

	"softmaxdemo/core/class"
)

// TestJoinAndFollow: a presenter and three phones join; the presenter
// sees them counted; two chapter changes reach every phone, in order;
// a phone's Hello is a student's and the presenter's a presenter's.
func TestJoinAndFollow(t *testing.T) {
	tc := newClass(t, "", nil)
	ctx := tc.ctx()
	pr := follow(t, tc.presenter())
	if h := pr.hello(t); h.Role != class.RolePresenter || !h.Teacher || h.Joined != 0 {
		t.Errorf("the presenter's hello: %+v", h)
	}
	var phones []*follower
	for range 3 {
		c := tc.phone()
		if err := c.Join(ctx); err != nil {
			t.Fatal(err)
		}
		f := follow(t, c)
		if h := f.hello(t); h.Role != class.RoleStudent || !h.Teacher || h.MaxSent != 50 {
			t.Errorf("a phone's hello: %+v", h)
		}
		phones = append(phones, f)
	}
	pr.next(t, "three joined", is(class.Joined{N: 3}))
	for _, s := range []class.State{{Chapter: 2, Lang: "en", Scrub: -1}, {Chapter: 3, Lang: "zh", Scrub: 12}} {
		if err := tc.presenter().SetState(ctx, s); err != nil {
			t.Fatal(err)
		}
		for i, f := range phones {
			f.next(t, "phone "+itoa(i)+" follows to "+itoa(s.Chapter), is(s))
		}
	}
	// A phone that joins now starts where the presenter is.
	late := follow(t, tc.phone())
	if h := late.hello(t); h.State != (class.State{Chapter: 3, Lang: "zh", Scrub: 12}) {
		t.Errorf("a late phone's hello has state %+v", h.State)
	}
	pr.next(t, "four joined", is(class.Joined{N: 4}))
}

// TestAnswersCountedOncePerPhone: one answer per phone per question,
// changeable until the reveal; an answer sent again (after its answer
// was lost on the way back) is acknowledged and not counted twice; the
// phones get the counts at the reveal only; the presenter, live.
func TestAnswersCountedOncePerPhone(t *testing.T) {
	tc := newClass(t, "", nil)
	ctx := tc.ctx()
	pres := tc.presenter()
	pr := follow(t, pres)
	q := class.Question{ID: "q-newton", Choices: []string{"0", "1", "2"}}
	if err := pres.Ask(ctx, q); err != nil {
		t.Fatal(err)
	}
	a, b := tc.phone(), tc.phone()
	cut := &cutter{base: http.DefaultTransport}
	a.HTTP = &http.Client{Transport: cut}
	fa := follow(t, a)
	if h := fa.hello(t); h.Poll.Question.ID != "q-newton" || h.Poll.Counts != nil {
		t.Errorf("a phone's hello shows the question %+v with counts %v", h.Poll.Question, h.Poll.Counts)
	}
	counts := func(c ...int) class.Tally {
		out := class.Tally{Question: q.ID}
		for i, n := range c {
			out.Counts = append(out.Counts, class.Count{Choice: q.Choices[i], N: n})
		}
		return out
	}

	cut.arm(1) // a's answer reaches the server, its Ack is lost: a sends it again
	if ack, err := a.Answer(ctx, q.ID, "1"); err != nil || !ack.Duplicate {
		t.Fatalf("the answer sent again: %+v, %v; want an Ack of a duplicate", ack, err)
	}
	if cut.cut != 1 {
		t.Fatalf("%d responses cut, want 1", cut.cut)
	}
	pr.next(t, "a's answer counted", is(counts(0, 1, 0)))
	if _, err := b.Answer(ctx, q.ID, "1"); err != nil {
		t.Fatal(err)
	}
	pr.next(t, "b's answer counted", is(counts(0, 2, 0)))
	if _, err := b.Answer(ctx, q.ID, "2"); err != nil {
		t.Fatal(err)
	}
	pr.next(t, "b's answer changed", is(counts(0, 1, 1)))
	// b's first answer arriving late (a lower Seq) changes nothing.
	if ack, err := b.SendAnswer(ctx, class.Answer{Phone: b.Phone, Seq: 1, Question: q.ID, Choice: "0"}); err != nil || !ack.Duplicate {
		t.Errorf("an older answer: %+v, %v; want a duplicate", ack, err)
	}
	for _, tt := range []struct {
		question, choice string
		status           int
		code             string
	}{
		{"q-other", "1", http.StatusConflict, class.CodeNoQuestion},
		{q.ID, "3", http.StatusBadRequest, class.CodeChoice},
	} {
		_, err := b.Answer(ctx, tt.question, tt.choice)
		if ref := refusal(t, err, tt.status); ref.Code != tt.code || ref.Retry() {
			t.Errorf("answer %s/%s: %+v", tt.question, tt.choice, ref)
		}
	}
	tc.locked(func(h *Hub) {
		if len(h.answers) != 2 || h.counts[0]+h.counts[1]+h.counts[2] != 2 {
			t.Errorf("%d answers, counts %v", len(h.answers), h.counts)
		}
	})

	q.Revealed = true
	if err := pres.Ask(ctx, q); err != nil {
		t.Fatal(err)
	}
	p := fa.next(t, "the reveal", named(class.EventQuestion)).(class.Poll)
	if !p.Question.Revealed || len(p.Counts) != 3 || p.Counts[1].N != 1 || p.Counts[2].N != 1 {
		t.Errorf("the phones' reveal: %+v", p)
	}
	_, err := a.Answer(ctx, q.ID, "0")
	if ref := refusal(t, err, http.StatusConflict); ref.Code != class.CodeRevealed {
		t.Errorf("an answer after the reveal: %+v", ref)
	}
	for _, e := range fa.all() {
		if _, ok := e.(class.Tally); ok {
			t.Errorf("a phone got the live counts: %+v", e)
		}
	}
	// The same question posted again keeps its answers; another resets them.
	q.Revealed = false
	pres.Ask(ctx, q)
	pr.next(t, "the question opened again", func(e class.Event) bool {
		p, ok := e.(class.Poll)
		return ok && !p.Question.Revealed && p.Counts[1].N == 1
	})
	pres.Ask(ctx, class.Question{ID: "q2", Choices: []string{"a", "b"}})
	pr.next(t, "a new question", func(e class.Event) bool {
		p, ok := e.(class.Poll)
		return ok && p.Question.ID == "q2" && p.Counts[0].N == 0 && p.Counts[1].N == 0
	})
}

// TestKey: the presenter's requests need the key; a wrong or missing
// key is refused with 403 and changes nothing; a stream with a wrong
// key is a student's.
func TestKey(t *testing.T) {
	tc := newClass(t, "", nil)
	ctx := tc.ctx()
	wrong := tc.key
	wrong[15] ^= 1
	for _, key := range []string{"", wrong.String(), strings.ToUpper(tc.key.String()), tc.key.String()[:31], tc.key.String() + "0"} {
		c := tc.presenter()
		c.Key = key
		err := c.SetState(ctx, class.State{Chapter: 5, Lang: "en", Scrub: -1})
		if ref := refusal(t, err, http.StatusForbidden); ref.Code != class.CodeKey {
			t.Errorf("key %q: %+v", key, ref)
		}
		if key == "" {
			continue
		}
		f := follow(t, c)
		if h := f.hello(t); h.Role != class.RoleStudent {
			t.Errorf("a stream with the key %q is a %s's", key, h.Role)
		}
		f.stop()
	}
	status, _, body := tc.raw(http.MethodGet, class.PathDigitsNPZ+"?key="+wrong.String(), "", nil)
	if status != http.StatusForbidden || !strings.Contains(string(body), `"key"`) {
		t.Errorf("a download with a wrong key: %d %s", status, body)
	}
	tc.locked(func(h *Hub) {
		if h.state != (class.State{}) {
			t.Errorf("a refused state changed the class: %+v", h.state)
		}
	})
	if err := tc.presenter().SetState(ctx, class.State{Chapter: 5, Lang: "en", Scrub: -1}); err != nil {
		t.Errorf("the right key: %v", err)
	}
}

// TestKeyComparedInConstantTime reads isPresenter: the key is parsed from
// fixed-length hex (class.ParseKey) and compared with
// crypto/subtle.ConstantTimeCompare, never with ==, bytes.Equal or
// strings.
func TestKeyComparedInConstantTime(t *testing.T) {
	_, body := source(t, "hub.go", "isPresenter")
	if !strings.Contains(body, "subtle.ConstantTimeCompare(k[:], h.key[:]) == 1") || !strings.Contains(body, "class.ParseKey(") {
		t.Errorf("isPresenter does not compare with subtle.ConstantTimeCompare:\n%s", body)
	}
	for _, bad := range []string{"== h.key", "h.key ==", "bytes.Equal", "strings.", "!= h.key"} {
		if strings.Contains(body, bad) {
			t.Errorf("isPresenter uses %q:\n%s", bad, body)
		}
	}
	// ParseKey's loop reads every digit, whatever the ones before.
	fn, text := source(t, "../../../core/class/ids.go", "parseHex")
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		if loop, ok := n.(*ast.RangeStmt); ok {
			ast.Inspect(loop.Body, func(m ast.Node) bool {
				if _, ok := m.(*ast.ReturnStmt); ok {
					t.Errorf("parseHex returns from inside its loop:\n%s", text)
				}
				if b, ok := m.(*ast.BranchStmt); ok && b.Tok == token.BREAK {
					t.Errorf("parseHex breaks out of its loop:\n%s", text)
				}
				return true
			})
		}
		return true
	})
}

// source returns the declaration of function name in file, and its text.
func source(t *testing.T, file, name string) (*ast.FuncDecl, string) {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Name.Name == name {
			return fn, string(src[fset.Position(fn.Pos()).Offset:fset.Position(fn.End()).Offset])
		}
	}
	t.Fatalf("%s has no function %s", file, name)
	return nil, ""
}
