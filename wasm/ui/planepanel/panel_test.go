package planepanel

import (
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit/kittest"

	"html"
	"strconv"
	"strings"
	"testing"

	"softmaxdemo/core/plane"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// settle runs the plane's frames until its scene is computed and no run
// is in training, as the browser's animation frames would.
func settle(t *testing.T, p *Panel) {
	t.Helper()
	for range 100000 {
		if p.build == nil && p.state != stateTraining {
			return
		}
		p.frame(now())
	}
	t.Fatal("the plane never settled")
}

// TestPlanePanelRendersItsParts: the panel has the elements the page's
// tests and lessons rely on, in both languages, with the status and the
// three paths once the scene is computed.
func TestPlanePanelRendersItsParts(t *testing.T) {
	for _, l := range []i18n.Lang{i18n.EN, i18n.ZH} {
		p := New().Lang(l).Pace("full")
		kittest.Render(t, p)
		settle(t, p)
		page := app.HTMLString(p.Render())
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

// TestPlanePanelRefusesBadFields: α, λ and B that are not numbers or out
// of range are refused beside their fields, the last good settings and
// scene stay, and a good value then applies.
func TestPlanePanelRefusesBadFields(t *testing.T) {
	p := New().Lang(i18n.EN)
	kittest.Render(t, p)
	settle(t, p)
	scene, set := p.scene, p.set
	for _, c := range []struct {
		lr, l2, batch string
		field         *i18n.Msg
		key           string
	}{
		{"NaN", "0", "1", &p.f.LRErr, "plane.badRate"},
		{"1e999", "0", "1", &p.f.LRErr, "plane.badRate"},
		{"abc", "0", "1", &p.f.LRErr, "plane.notNumber"},
		{"1", "-1", "1", &p.f.L2Err, "plane.badLambda"},
		{"1", "0", "0", &p.f.BatchErr, "plane.badBatch"},
		{"1", "0", "2.5", &p.f.BatchErr, "plane.badBatch"},
		{"1", "0", "121", &p.f.BatchErr, "plane.badBatch"},
	} {
		p.f.L2, p.f.Batch = c.l2, c.batch
		p.typed(typing{Field: fieldLR, Value: c.lr})
		if c.field.Key != c.key || p.set != set || p.build != nil || p.scene != scene {
			t.Errorf("α %q, λ %q, B %q: reason %q, want %q; the settings or scene changed", c.lr, c.l2, c.batch, c.field.Key, c.key)
		}
	}
	p.typed(typing{Field: fieldLR, Value: "2"})
	p.typed(typing{Field: fieldL2, Value: "0.01"})
	p.typed(typing{Field: fieldBatch, Value: "4"})
	settle(t, p)
	if p.set.Rate != 2 || p.set.Lambda != 0.01 || p.set.Batch != 4 || p.scene == scene || p.scene.Settings.Rate != 2 {
		t.Errorf("good fields were not applied: %+v", p.set)
	}
}

// TestPlanePanelEditsPoints: a click adds a point of the chosen class, a
// click on it removes it; K cannot drop a class that has points, which
// stay, and can once they are gone; the plane trains on what it shows.
func TestPlanePanelEditsPoints(t *testing.T) {
	p := New().Lang(i18n.EN)
	kittest.Render(t, p)
	if !p.setK(3) || p.data.K != 3 || len(p.data.Points) != 3*plane.PerClass || p.edited {
		t.Fatalf("K = 3 on an unedited data set: K = %d, %d points", p.data.K, len(p.data.Points))
	}
	p.add = 2
	p.clickAt([2]float64{3.9, -3.9}, 0.05)
	if len(p.data.Points) != 3*plane.PerClass+1 || p.data.Points[len(p.data.Points)-1].Class != 2 || !p.edited {
		t.Fatalf("the click did not add a point of class 2")
	}
	settle(t, p)
	if st := p.lab.Status(); st.Points != 3*plane.PerClass+1 {
		t.Errorf("the model trains on %d points", st.Points)
	}
	if p.setK(2) || p.data.K != 3 || p.msg.Key != "plane.removed" {
		t.Errorf("K = 2 dropped class 2's points: K = %d, message %q", p.data.K, p.msg.Key)
	}
	p.clickAt([2]float64{3.88, -3.9}, 0.05)
	if len(p.data.Points) != 3*plane.PerClass {
		t.Errorf("the second click did not remove the point: %d points", len(p.data.Points))
	}
}

// TestPlanePanelTrainsAtFullPace: Train runs the live model to the end of
// its budget; on separable data without λ it separates the points and
// the panel says J has no minimum.
func TestPlanePanelTrainsAtFullPace(t *testing.T) {
	p := New().Lang(i18n.EN).Pace("full")
	kittest.Render(t, p)
	p.setData("separable")
	settle(t, p)
	p.trainOrPause()
	if p.state != stateTraining {
		t.Fatalf("state %q after Train", p.state)
	}
	settle(t, p)
	if p.state != stateDone || p.st.Steps != plane.DefaultSteps || p.st.Accuracy != 1 {
		t.Errorf("after training: %q, %+v", p.state, p.st)
	}
	if html := app.HTMLString(p.Render()); !strings.Contains(html, `data-note="plane.separated"`) {
		t.Error("separable data without λ do not say that J has no minimum")
	}
}

// TestPlanePanelDragsTheStart: dragging the start computes only the
// paths, on the surface already drawn; once α has changed, the surface
// drawn is not the settings' any more, and a drag computes all of it.
func TestPlanePanelDragsTheStart(t *testing.T) {
	p := New().Lang(i18n.EN)
	kittest.Render(t, p)
	settle(t, p)
	first := p.scene
	p.setStart([2]float64{-1, -1}, true)
	settle(t, p)
	if p.scene == first || &p.scene.J[0] != &first.J[0] || p.scene.Settings.Start != [2]float64{-1, -1} {
		t.Fatal("a drag did not keep the surface while moving the start")
	}
	if p.scene.Paths[plane.GD].Points[0] != [2]float64{-1, -1} {
		t.Errorf("gradient descent starts at %v", p.scene.Paths[plane.GD].Points[0])
	}
	p.typed(typing{Field: fieldLR, Value: "3"})
	p.setStart([2]float64{-1.5, 0}, true)
	settle(t, p)
	if &p.scene.J[0] == &first.J[0] || p.scene.Settings.Rate != 3 || p.scene.Settings.Start != [2]float64{-1.5, 0} {
		t.Errorf("after α changed, a drag kept the old surface, or lost α or the start: %+v", p.scene.Settings)
	}
}

// TestPlanePanelIsReadyAfterNewData: a run that is done is ready again
// once the data or settings change (its model goes on with a new budget,
// or starts again for a new K): "done" is never a finished run's left
// over.
func TestPlanePanelIsReadyAfterNewData(t *testing.T) {
	p := New().Lang(i18n.EN).Pace("full")
	kittest.Render(t, p)
	p.trainOrPause()
	settle(t, p)
	if p.state != stateDone {
		t.Fatalf("state %q after a run", p.state)
	}
	p.setK(3)
	if p.state != stateReady || p.st.Steps != 0 {
		t.Errorf("after K = 3: %q at step %d", p.state, p.st.Steps)
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
			p := New().Lang(l).Pace("1").View(tt.view)
			kittest.Render(t, p)
			settle(t, p)
			html := app.HTMLString(p.Render())
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
			if !tt.start(p) {
				t.Errorf("view %q starts with %s, K = %d, %+v, %q at step %d", tt.view, p.name, p.data.K, p.set, p.state, p.st.Steps)
			}
			if strings.Contains(html, "NaN") || strings.Contains(html, "plane.") {
				t.Errorf("view %q, %s shows NaN or a catalog key", tt.view, l)
			}
		}
	}
}

// TestPlaneViewChangesStartAfresh: a panel that the page shows as another
// view in its place starts that view's data and settings afresh, its run
// stopped.
func TestPlaneViewChangesStartAfresh(t *testing.T) {
	p := New().Lang(i18n.EN).Pace("1").View(Regions)
	kittest.Render(t, p)
	p.trainOrPause()
	p.frame(now())
	if p.state != stateTraining || p.st.Steps == 0 {
		t.Fatalf("the regions' run did not start: %q at step %d", p.state, p.st.Steps)
	}
	p.IView = Surface
	p.setUp()
	if p.view != Surface || p.state != stateReady || p.st.Steps != 0 || p.name != "overlap" || p.data.K != 2 || p.set != plane.Defaults() {
		t.Errorf("after the change: view %q, %q at step %d, %s with K = %d, %+v", p.view, p.state, p.st.Steps, p.name, p.data.K, p.set)
	}
	settle(t, p)
	if !p.scene.Exact {
		t.Error("the surface is not J itself")
	}
}

// TestPlaneTakesWhatThePageAsks: α asked at a multiple of 2/λ_max
// (ActionAbove) is set once the scene knows 2/λ_max, and makes gradient
// descent overshoot and zig-zag; asked again, it is set again. A ψ asked
// for (ActionPsi) while the model trains is added once it has trained,
// and changes no probability; each ask adds one.
func TestPlaneTakesWhatThePageAsks(t *testing.T) {
	p := New().Lang(i18n.EN).View(Surface)
	kittest.Render(t, p)
	do := p.handlers()
	do[ActionAbove](AboveCeiling)
	if p.set.Rate != plane.Defaults().Rate {
		t.Fatalf("α is %v before the scene knows 2/λ_max", p.set.Rate)
	}
	settle(t, p)
	ceiling := p.scene.AlphaMax
	if want, _ := strconv.ParseFloat(strconv.FormatFloat(AboveCeiling*ceiling, 'g', 3, 64), 64); p.set.Rate != want || p.scene.Settings.Rate != want {
		t.Fatalf("α = %v (the scene's %v), want %v = %v·2/λ_max", p.set.Rate, p.scene.Settings.Rate, want, AboveCeiling)
	}
	gd := p.scene.Paths[plane.GD]
	if gd.Stop == plane.Converged || gd.ZigZags < gd.Steps-5 {
		t.Errorf("α above 2/λ_max: gradient descent %v with %d zig-zags in %d steps", gd.Stop, gd.ZigZags, gd.Steps)
	}
	if html := app.HTMLString(p.Render()); !strings.Contains(html, `data-above="yes"`) {
		t.Error("#plane-alpha-max does not say α is above 2/λ_max")
	}
	p.typed(typing{Field: fieldLR, Value: "1"})
	settle(t, p)
	p.takeWants()
	if p.set.Rate != 1 {
		t.Errorf("the ask was taken twice: α = %v", p.set.Rate)
	}
	do[ActionAbove](AboveCeiling)
	settle(t, p)
	if p.set.Rate == 1 {
		t.Error("a new ask was not taken")
	}

	q := New().Lang(i18n.EN).Pace("1").View(Psi)
	kittest.Render(t, q)
	take := q.handlers()
	take[ActionPsi](nil)
	if q.psi != nil || q.state != stateTraining {
		t.Fatalf("ψ was added to a model in training (%q)", q.state)
	}
	settle(t, q)
	if q.psi == nil || q.psi.MaxDP > 1e-5 || q.psi.NormAfter == q.psi.NormBefore {
		t.Fatalf("ψ asked for: %+v", q.psi)
	}
	first := q.psi
	q.takeWants()
	if q.psi != first {
		t.Error("one ask added ψ twice")
	}
	take[ActionPsi](nil)
	if q.psi == first || q.psis != 2 {
		t.Errorf("a second ask did not add a second ψ: %d added", q.psis)
	}
}

// TestPlaneHandlesItsActions: each of the panel's actions, as its
// controls post them, changes what it says; a refused value changes
// nothing.
func TestPlaneHandlesItsActions(t *testing.T) {
	p := New().Lang(i18n.EN).Pace("full")
	kittest.Render(t, p)
	do := p.handlers()
	for _, a := range []struct {
		name  string
		value any
		check func() bool
	}{
		{actionData, "ring", func() bool { return p.name == "ring" }},
		{actionK, 4, func() bool { return p.data.K == 4 }},
		{actionClass, 3, func() bool { return p.add == 3 }},
		{actionClass, 9, func() bool { return p.add == 3 }},
		{actionOption, option{Name: "bias", On: true}, func() bool { return p.set.Bias }},
		{actionOption, option{Name: "pin", On: false}, func() bool { return !p.set.Pin }},
		{actionTyped, typing{Field: fieldL2, Value: "0.5"}, func() bool { return p.set.Lambda == 0.5 }},
		{actionPoint, click{At: [2]float64{3.9, 3.9}, Radius: 0.01}, func() bool { return p.edited && p.data.Points[len(p.data.Points)-1].Class == 3 }},
		{actionTrain, nil, func() bool { return p.state == stateTraining }},
		{actionTrain, nil, func() bool { return p.state == stateReady }},
		{actionReset, nil, func() bool { return p.st.Steps == 0 }},
	} {
		do[a.name](a.value)
		if !a.check() {
			t.Errorf("%s %v: not taken", a.name, a.value)
		}
	}
	settle(t, p)
	do[actionStart](startAt{At: [2]float64{0.5, -0.5}})
	settle(t, p)
	if p.scene.Settings.Start != [2]float64{0.5, -0.5} {
		t.Errorf("the start is %v", p.scene.Settings.Start)
	}
}

// TestPlaneFrameRendersTheLineAlone: a frame of a run in training that
// moves only the numbers says so (the status line renders alone); one
// that ends the run says the panel changed.
func TestPlaneFrameRendersTheLineAlone(t *testing.T) {
	p := New().Lang(i18n.EN).Pace("1").View(Regions)
	kittest.Render(t, p)
	settle(t, p)
	p.trainOrPause()
	if got := p.frame(now()); got != changedNumbers {
		t.Fatalf("the run's first step: frame says %d, want the numbers alone (%d)", got, changedNumbers)
	}
	if got := p.frame(now()); got != changedNothing {
		t.Errorf("a frame with no step due says %d", got)
	}
	p.IPace = "full"
	for range 100000 {
		if got := p.frame(now()); p.state == stateDone {
			if got != changedPanel {
				t.Errorf("the frame that ends the run says %d", got)
			}
			return
		}
	}
	t.Fatal("the run never ended")
}
