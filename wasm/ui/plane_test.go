package ui

import (
	"softmaxdemo/wasm/ui/i18n"

	"html"
	"strings"
	"testing"

	"softmaxdemo/core/plane"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// settle runs the plane's frames until its scene is computed and no run
// is in training, as the browser's animation frames would.
func settle(t *testing.T, p *planePanel) {
	t.Helper()
	for range 100000 {
		if p.build == nil && p.state != planeTraining {
			return
		}
		p.frame(planeNow())
	}
	t.Fatal("the plane never settled")
}

// TestPlanePanelRendersItsParts: the panel has the elements the page's
// tests and lessons rely on, in both languages, with the status and the
// three paths once the scene is computed.
func TestPlanePanelRendersItsParts(t *testing.T) {
	for _, l := range []i18n.Lang{i18n.EN, i18n.ZH} {
		p := newPlanePanel().Lang(l).Pace("full")
		render(t, p)
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
	p := newPlanePanel().Lang(i18n.EN)
	render(t, p)
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
		p.f.LR, p.f.L2, p.f.Batch = c.lr, c.l2, c.batch
		p.onFields()
		if c.field.Key != c.key || p.set != set || p.build != nil || p.scene != scene {
			t.Errorf("α %q, λ %q, B %q: reason %q, want %q; the settings or scene changed", c.lr, c.l2, c.batch, c.field.Key, c.key)
		}
	}
	p.f.LR, p.f.L2, p.f.Batch = "2", "0.01", "4"
	p.onFields()
	settle(t, p)
	if p.set.Rate != 2 || p.set.Lambda != 0.01 || p.set.Batch != 4 || p.scene == scene || p.scene.Settings.Rate != 2 {
		t.Errorf("good fields were not applied: %+v", p.set)
	}
}

// TestPlanePanelEditsPoints: a click adds a point of the chosen class, a
// click on it removes it; K cannot drop a class that has points, which
// stay, and can once they are gone; the plane trains on what it shows.
func TestPlanePanelEditsPoints(t *testing.T) {
	p := newPlanePanel().Lang(i18n.EN)
	render(t, p)
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
	p := newPlanePanel().Lang(i18n.EN).Pace("full")
	render(t, p)
	p.onData(app.Context{}, "separable")
	settle(t, p)
	p.onTrain(app.Context{}, app.Event{})
	if p.state != planeTraining {
		t.Fatalf("state %q after Train", p.state)
	}
	settle(t, p)
	if p.state != planeDone || p.st.Steps != plane.DefaultSteps || p.st.Accuracy != 1 {
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
	p := newPlanePanel().Lang(i18n.EN)
	render(t, p)
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
	p.f.LR = "3"
	p.onFields()
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
	p := newPlanePanel().Lang(i18n.EN).Pace("full")
	render(t, p)
	p.onTrain(app.Context{}, app.Event{})
	settle(t, p)
	if p.state != planeDone {
		t.Fatalf("state %q after a run", p.state)
	}
	p.setK(3)
	if p.state != planeReady || p.st.Steps != 0 {
		t.Errorf("after K = 3: %q at step %d", p.state, p.st.Steps)
	}
}
