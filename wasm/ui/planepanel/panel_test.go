package planepanel

import (
	"html"
	"strings"
	"testing"
	"time"

	"softmaxdemo/core/plane"
	"softmaxdemo/wasm/planework"
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit/kittest"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// rig is a panel with the plane's worker running in a goroutine, as the
// browser runs it in a Web Worker: the panel's commands go to it, and
// pump hands its events to the panel.
type rig struct {
	p   *Panel
	in  chan protocol.Msg
	out chan protocol.Msg
}

// mount renders p with a worker of its own and sets the worker up for its
// view, as mounting it in a page does.
func mount(t *testing.T, p *Panel) *rig {
	t.Helper()
	r := &rig{p: p, in: make(chan protocol.Msg, 256), out: make(chan protocol.Msg, 4096)}
	p.IWorker = &Worker{post: func(m protocol.Msg) { r.in <- m }}
	t.Cleanup(planework.Go(r.in, r.out))
	kittest.Render(t, p)
	p.setUp()
	return r
}

// pump hands the worker's events to the panel until ok says so.
func (r *rig) pump(t *testing.T, ok func(p *Panel) bool) {
	t.Helper()
	deadline := time.After(60 * time.Second)
	for !ok(r.p) {
		select {
		case m := <-r.out:
			r.p.took(m)
		case <-deadline:
			t.Fatalf("the panel never got there: %q at step %d, %d points, seq %d", r.p.state, r.p.st.Steps, len(r.p.data.Points), r.p.seq)
		}
	}
}

// settled: the worker has no work left, and the panel shows its last
// scene and frame.
func settled(p *Panel) bool {
	return p.seq > 0 && !p.building && p.state != stateTraining && p.scene != nil && p.timing.scenes > 0 && p.model != nil
}

// do runs the panel's handler of an action, as go-app does when a
// control posts it.
func (r *rig) do(name string, v any) { r.p.handlers()[name](v) }

// TestPanelShowsWhatTheWorkerSays: the panel has the elements the page's
// tests and lessons rely on, in both languages, with the status and the
// three paths once the worker's scene is in.
func TestPanelShowsWhatTheWorkerSays(t *testing.T) {
	for _, l := range []i18n.Lang{i18n.EN, i18n.ZH} {
		r := mount(t, New().Lang(l).Pace("full"))
		r.pump(t, settled)
		page := app.HTMLString(r.p.Render())
		for _, want := range []string{`id="plane"`, `id="plane-points"`, `id="plane-data"`, `value="overlap"`, `value="separable"`,
			`value="ring"`, `id="plane-k"`, `id="plane-train"`, `id="plane-reset"`, `id="plane-psi"`, `data-state="ready"`,
			`data-points="120"`, `id="plane-surface"`, `data-kind="exact"`, `data-method="gd"`, `data-method="sgd"`,
			`data-method="newton"`, `id="plane-alpha-max"`, html.EscapeString(l.T("plane.k2")), html.EscapeString(l.T("plane.surfaceExact"))} {
			if !strings.Contains(page, want) {
				t.Errorf("%v: the panel lacks %q", l, want)
			}
		}
		if strings.Contains(page, "NaN") {
			t.Errorf("%v: the panel shows NaN", l)
		}
	}
}

// TestPanelRefusesBadFields: α, λ and B that are not numbers or out of
// range are refused beside their fields, and nothing goes to the worker;
// good ones go, and the worker's next scene has them.
func TestPanelRefusesBadFields(t *testing.T) {
	r := mount(t, New().Lang(i18n.EN))
	r.pump(t, settled)
	scene := r.p.scene
	for _, c := range []struct {
		lr, l2, batch string
		field         func(f fields) i18n.Msg
		key           string
	}{
		{"NaN", "0", "1", func(f fields) i18n.Msg { return f.LRErr }, "plane.badRate"},
		{"1e999", "0", "1", func(f fields) i18n.Msg { return f.LRErr }, "plane.badRate"},
		{"abc", "0", "1", func(f fields) i18n.Msg { return f.LRErr }, "plane.notNumber"},
		{"1", "-1", "1", func(f fields) i18n.Msg { return f.L2Err }, "plane.badLambda"},
		{"1", "0", "0", func(f fields) i18n.Msg { return f.BatchErr }, "plane.badBatch"},
		{"1", "0", "2.5", func(f fields) i18n.Msg { return f.BatchErr }, "plane.badBatch"},
		{"1", "0", "121", func(f fields) i18n.Msg { return f.BatchErr }, "plane.badBatch"},
	} {
		r.p.f.L2, r.p.f.Batch = c.l2, c.batch
		r.do(actionTyped, typing{Field: fieldLR, Value: c.lr})
		if got := c.field(r.p.f); got.Key != c.key || len(r.in) != 0 {
			t.Errorf("α %q, λ %q, B %q: reason %q, want %q; %d commands sent", c.lr, c.l2, c.batch, got.Key, c.key, len(r.in))
		}
	}
	r.do(actionTyped, typing{Field: fieldLR, Value: "2"})
	r.do(actionTyped, typing{Field: fieldL2, Value: "0.01"})
	r.do(actionTyped, typing{Field: fieldBatch, Value: "4"})
	r.pump(t, func(p *Panel) bool { return settled(p) && p.scene != scene && p.scene.Settings.Batch == 4 })
	if s := r.p.scene.Settings; s.Rate != 2 || s.Lambda != 0.01 || r.p.set != s {
		t.Errorf("good fields were not applied: %+v, the panel shows %+v", s, r.p.set)
	}
}

// TestPanelEditsPoints: a click adds a point of the chosen class, a click
// on it removes it; K cannot drop a class that has points, which stay,
// and the refusal says why.
func TestPanelEditsPoints(t *testing.T) {
	r := mount(t, New().Lang(i18n.EN))
	r.pump(t, settled)
	r.do(actionK, 3)
	r.pump(t, func(p *Panel) bool { return p.data.K == 3 && settled(p) })
	if len(r.p.data.Points) != 3*plane.PerClass || r.p.edited {
		t.Fatalf("K = 3 on an unedited data set: %d points", len(r.p.data.Points))
	}
	r.do(actionClass, 2)
	r.do(actionClass, 7) // no such class: kept at 2
	r.do(actionPoint, click{At: [2]float64{3.9, -3.9}, Radius: 0.05})
	r.pump(t, func(p *Panel) bool { return len(p.data.Points) == 3*plane.PerClass+1 && settled(p) })
	if last := r.p.data.Points[len(r.p.data.Points)-1]; last.Class != 2 || !r.p.edited || r.p.st.Points != 3*plane.PerClass+1 {
		t.Fatalf("the click added %+v; the model trains on %d points", last, r.p.st.Points)
	}
	r.do(actionK, 2)
	r.pump(t, func(p *Panel) bool { return !p.refused.IsZero() })
	if r.p.data.K != 3 || r.p.refused.Key != "plane.removed" {
		t.Errorf("K = 2 dropped class 2's points: K = %d, message %q", r.p.data.K, r.p.refused.Key)
	}
	r.do(actionPoint, click{At: [2]float64{3.88, -3.9}, Radius: 0.05})
	r.pump(t, func(p *Panel) bool { return len(p.data.Points) == 3*plane.PerClass && settled(p) })
}

// TestPanelTrainsAtFullPace: Train runs the live model to the end of its
// budget; on separable data without λ it separates the points and the
// panel says J has no minimum.
func TestPanelTrainsAtFullPace(t *testing.T) {
	r := mount(t, New().Lang(i18n.EN).Pace("full"))
	r.do(actionData, "separable")
	r.pump(t, func(p *Panel) bool { return p.name == "separable" && settled(p) })
	r.do(actionTrain, nil)
	r.pump(t, func(p *Panel) bool { return p.state == stateDone && p.st.Steps == plane.DefaultSteps })
	if r.p.st.Accuracy != 1 {
		t.Errorf("after training: %+v", r.p.st)
	}
	if html := app.HTMLString(r.p.Render()); !strings.Contains(html, `data-note="plane.separated"`) {
		t.Error("separable data without λ do not say that J has no minimum")
	}
}

// TestPlaneViewsShowTheirPictures: each of the lesson's views of the plane
// shows its picture and the controls its chapter needs, and none of the
// others', each id once, in both languages; each starts with its own data
// and settings, and the view of ψ trains its model to the end at full
// pace, whatever the page's pace.
func TestPlaneViewsShowTheirPictures(t *testing.T) {
	tests := []struct {
		view   View
		want   []string
		absent []string
		start  func(p *Panel) bool
	}{
		{Whole, []string{"plane", "plane-points", "plane-data", "plane-k", "plane-train", "plane-psi", "plane-status", "plane-surface", "plane-paths", "plane-lr", "plane-alpha-max"},
			nil, func(p *Panel) bool { return p.data.K == 2 && p.name == "blobs" && p.scene.Exact }},
		{Regions, []string{"plane", "plane-points", "plane-k", "plane-class", "plane-train", "plane-reset", "plane-status", "plane-error"},
			[]string{"plane-surface", "plane-paths", "plane-psi", "plane-lr", "plane-data"},
			func(p *Panel) bool { return p.data.K == 3 && p.set.Bias && !p.set.Pin && p.state == stateReady }},
		{Surface, []string{"plane-surface", "plane-surface-note", "plane-paths", "plane-lr", "plane-alpha-max", "plane-error"},
			[]string{"plane", "plane-points", "plane-status", "plane-psi", "plane-train"},
			func(p *Panel) bool { return p.name == "overlap" && p.scene.Exact && p.scene.HasMin }},
		{Psi, []string{"plane", "plane-points", "plane-psi", "plane-psi-result", "plane-status", "plane-error"},
			[]string{"plane-surface", "plane-paths", "plane-lr", "plane-train"},
			func(p *Panel) bool {
				return p.data.K == 3 && !p.set.Pin && p.set.Lambda == 0 && p.state == stateDone && p.st.Steps == plane.DefaultSteps
			}},
	}
	for _, tt := range tests {
		for _, l := range i18n.Langs {
			r := mount(t, New().Lang(l).Pace("1").View(tt.view))
			r.pump(t, func(p *Panel) bool { return settled(p) && tt.start(p) })
			html := app.HTMLString(r.p.Render())
			n := kittest.IDs(html)
			for _, id := range tt.want {
				if n[id] != 1 {
					t.Errorf("view %q, %s: #%s is there %d times", tt.view, l, id, n[id])
				}
			}
			for _, id := range tt.absent {
				if n[id] != 0 {
					t.Errorf("view %q, %s: shows #%s", tt.view, l, id)
				}
			}
			if tt.view == Surface || tt.view == Whole {
				if c := strings.Count(html, `data-method="`); c != 3 {
					t.Errorf("view %q, %s: %d paths", tt.view, l, c)
				}
			}
			if strings.Contains(html, "NaN") || strings.Contains(html, "plane.") {
				t.Errorf("view %q, %s shows NaN or a catalog key", tt.view, l)
			}
		}
	}
}

// TestPanelTakesWhatThePageAsks: α asked at a multiple of 2/λ_max and a
// ψ asked while the model trains go to the worker, which does each as
// soon as it can; the fields show the α set.
func TestPanelTakesWhatThePageAsks(t *testing.T) {
	r := mount(t, New().Lang(i18n.EN).View(Surface))
	r.do(ActionAbove, AboveCeiling)
	r.pump(t, func(p *Panel) bool { return settled(p) && p.set.Rate != plane.Defaults().Rate })
	if gd := r.p.scene.Paths[plane.GD]; gd.ZigZags < gd.Steps-5 || r.p.f.LR != fieldsOf(r.p.set).LR {
		t.Errorf("α above 2/λ_max: %d zig-zags in %d steps; the field shows %q", gd.ZigZags, gd.Steps, r.p.f.LR)
	}
	if html := app.HTMLString(r.p.Render()); !strings.Contains(html, `data-above="yes"`) {
		t.Error("#plane-alpha-max does not say α is above 2/λ_max")
	}
	q := mount(t, New().Lang(i18n.EN).Pace("1").View(Psi))
	q.do(ActionPsi, nil)
	q.pump(t, func(p *Panel) bool { return p.psi != nil })
	if q.p.state != stateDone || q.p.psi.MaxDP > 1e-5 {
		t.Errorf("ψ added in state %q: %+v", q.p.state, q.p.psi)
	}
}

// TestPanelDropsWhatIsStale: a scene or a frame for data older than the
// panel shows, or of another set-up, is not taken; a frame that moves only the numbers asks for
// the status line alone.
func TestPanelDropsWhatIsStale(t *testing.T) {
	r := mount(t, New().Lang(i18n.EN).Pace("1"))
	r.pump(t, settled)
	scene, seq, setup := r.p.scene, r.p.seq, r.p.setup
	if r.p.took(protocol.PlaneScene{Setup: setup, Seq: seq - 1, Scene: &plane.Scene{}}) || r.p.scene != scene {
		t.Error("a scene for older data was taken")
	}
	if r.p.took(protocol.PlaneScene{Setup: setup - 1, Seq: seq, Scene: &plane.Scene{}}) || r.p.scene != scene {
		t.Error("a scene of an earlier set-up was taken")
	}
	if r.p.took(protocol.PlaneState{Setup: setup + 1, Seq: seq + 1, State: stateDone}) || r.p.state == stateDone {
		t.Error("a state of another set-up was taken")
	}
	f := protocol.PlaneFrame{Setup: setup, Seq: seq, State: stateTraining, N: 1, Image: make([]byte, 4), W: []float32{0, 0, 1, 1}, B: []float32{0, 0}}
	if !r.p.takeFrame(f) {
		t.Error("a frame that starts a run does not render the panel")
	}
	f.Status.Steps = 5
	if r.p.takeFrame(f) {
		t.Error("a frame that moves only the numbers renders the panel")
	}
	f.Seq = seq - 1
	f.Status.Steps = 9
	if r.p.takeFrame(f); r.p.st.Steps != 5 {
		t.Error("a frame for older data was taken")
	}
}
