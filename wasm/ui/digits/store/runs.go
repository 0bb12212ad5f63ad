package store

import (
	"softmaxdemo/wasm/ui/chart"
	"softmaxdemo/wasm/ui/i18n"

	"math"
	"strconv"

	"softmaxdemo/wasm/protocol"
)

// MaxRuns is how many runs of this session the chart keeps; the oldest
// goes first.
const MaxRuns = 8

// RunColors are the runs' colours, by run id, chosen to stay apart for the
// common forms of colour blindness (Okabe–Ito) and on a projector.
var RunColors = []string{"#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000", "#8c6d31"}

// Runs are this session's runs, the current one last.
type Runs []*Run

// Run is one run of this session as the chart and its legend show
// it: how it was started, its loss points, and how it ended.
type Run struct {
	ID       int
	Cfg      protocol.Config // the settings it was started with
	Dataset  string
	TrainN   int // examples in one pass over the data
	Losses   []protocol.Point
	Acc      []chart.AccPoint
	Loss     float64 // the latest epoch's mean loss, or the latest step's before the first epoch
	Accuracy float64 // the latest test accuracy, NaN before the first
	State    string
	Hidden   bool
	// Frames are the run's keyframes in the order of their steps, kept
	// for the last run and the run selected in #runs only (scrub.go).
	Frames []Keyframe
	// From is where a branch started, the run it descends from first
	// reached from its own start: nil for a run trained from its start.
	From []Origin
}

// Method is how the run descends: "newton", "gd" (B = m: full batch) or
// "sgd" (minibatches, B = 1 included).
func (r *Run) Method() string {
	switch {
	case r.Cfg.Method == "newton" || r.Cfg.Method == "gd":
		return r.Cfg.Method
	case r.Cfg.BatchSize >= r.TrainN && r.TrainN > 0:
		return "gd"
	}
	return "sgd"
}

// Color is the run's colour on the chart and in the legend.
func (r *Run) Color() string { return RunColors[(r.ID-1+len(RunColors))%len(RunColors)] }

// StepsPerEpoch is the number of steps in one pass over the data.
func (r *Run) StepsPerEpoch() float64 {
	if r.Method() == "newton" || r.Cfg.BatchSize < 1 || r.TrainN < 1 {
		return 1
	}
	return math.Ceil(float64(r.TrainN) / float64(r.Cfg.BatchSize))
}

// Label is the legend's text for the run: its method and settings.
func (r *Run) Label(l i18n.Lang) string {
	s := r.SettingsLabel(l)
	if r.Cfg.Deskew {
		s = l.T("runs.deskewed", s)
	}
	if n := len(r.From); n > 0 {
		s = l.T("scrub.branch", r.From[n-1].Run, r.From[n-1].Step, s)
	}
	return s
}

func (r *Run) SettingsLabel(l i18n.Lang) string {
	c := r.Cfg
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	switch r.Method() {
	case "newton":
		return l.T("runs.newton", g(c.L2))
	case "gd":
		return l.T("runs.gd", g(c.LearningRate), g(c.L2))
	}
	return l.T("runs.sgd", g(c.LearningRate), strconv.Itoa(c.BatchSize), g(c.L2))
}

// RunFor returns the record of run id, creating it (with the settings of
// the last command that could have started it) if it is new.
func (s *State) RunFor(id int) *Run {
	for _, r := range s.Runs {
		if r.ID == id {
			return r
		}
	}
	r := &Run{ID: id, Cfg: s.Pending, Dataset: s.Dataset, TrainN: s.TrainN, Accuracy: math.NaN(), Loss: math.NaN(), From: s.branching}
	s.branching = nil
	s.Runs = append(s.Runs, r)
	for len(s.Runs) > MaxRuns {
		if s.Runs[0].ID == s.Selected {
			s.Selected = 0
		}
		s.Runs[0].Frames = nil
		s.Runs = s.Runs[1:]
	}
	s.Runs.keepFrames(s.Selected)
	return r
}

// ModelDeskew reports whether the model shown was trained on deskewed
// images, so that drawn and gallery digits are straightened the same way
// before it reads them.
func (s *State) ModelDeskew() bool {
	if r := s.Current(); r != nil {
		return r.Cfg.Deskew
	}
	return false
}

// Current returns the record of the Current run, or nil.
func (s *State) Current() *Run {
	if n := len(s.Runs); n > 0 && s.Runs[n-1].ID == s.Run {
		return s.Runs[n-1]
	}
	return nil
}

// RemoveRun forgets run id, unless it is the current run (Reset replaces
// that one).
func (s *State) RemoveRun(id int) {
	for i, r := range s.Runs {
		if r.ID == id && id != s.Run {
			if s.Selected == id {
				s.Selected = 0
			}
			if s.Scrub.Run == id {
				s.Scrub = Scrub{}
				s.scrubs++
			}
			s.Runs = append(s.Runs[:i:i], s.Runs[i+1:]...)
			s.ChartVersion++
			return
		}
	}
}

// DropCurrent forgets the current run (Reset replaces it).
func (s *State) DropCurrent() {
	if n := len(s.Runs); n > 0 && s.Runs[n-1].ID == s.Run {
		s.Runs = s.Runs[:n-1]
		s.ChartVersion++
	}
}

// ToggleRun hides or shows run id on the chart.
func (s *State) ToggleRun(id int) {
	for _, r := range s.Runs {
		if r.ID == id {
			r.Hidden = !r.Hidden
			s.ChartVersion++
		}
	}
}

// ChartRuns returns the runs the chart draws, the current one last.
func (s *State) ChartRuns() []chart.Run {
	var out []chart.Run
	var cur *chart.Run
	for _, r := range s.Runs {
		if r.Hidden {
			continue
		}
		c := chart.Run{Losses: r.Losses, Acc: r.Acc, Color: r.Color(), StepsPerEpoch: r.StepsPerEpoch(), Exact: r.Method() != "sgd"}
		if k := s.Frame(); k != nil && r == s.Shown() {
			c.Mark, c.Marked = k.Step, true
		}
		if r.ID == s.Run {
			cur = &c
			continue
		}
		out = append(out, c)
	}
	if cur != nil {
		out = append(out, *cur)
	} else {
		out = append(out, chart.Run{StepsPerEpoch: 1}) // no current run shown: an empty one on top
	}
	return out
}

// BestLoss is J* for the chart's J − J* axis: the lowest objective a
// full-batch or Newton run reached (their points are J itself, where a
// minibatch's loss is a noisy estimate of it), or the lowest point of any
// run if there is none; NaN before any.
func (rs Runs) BestLoss() float64 {
	best, exact := math.NaN(), false
	for _, r := range rs {
		full := r.Method() != "sgd"
		if exact && !full {
			continue
		}
		for _, p := range r.Losses {
			if math.IsNaN(p.Loss) || math.IsInf(p.Loss, 0) {
				continue
			}
			if full && !exact {
				best, exact = p.Loss, true
			}
			if !(p.Loss >= best) {
				best = p.Loss
			}
		}
	}
	return best
}
