package ui

import (
	"softmaxdemo/wasm/ui/chart"
	"softmaxdemo/wasm/ui/i18n"

	"math"
	"strconv"

	"softmaxdemo/wasm/protocol"
)

// maxRuns is how many runs of this session the chart keeps; the oldest
// goes first.
const maxRuns = 8

// runColors are the runs' colours, by run id, chosen to stay apart for the
// common forms of colour blindness (Okabe–Ito) and on a projector.
var runColors = []string{"#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000", "#8c6d31"}

// runRecord is one run of this session as the chart and its legend show
// it: how it was started, its loss points, and how it ended.
type runRecord struct {
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
}

// method is how the run descends: "newton", "gd" (B = m: full batch) or
// "sgd" (minibatches, B = 1 included).
func (r *runRecord) method() string {
	switch {
	case r.Cfg.Method == "newton" || r.Cfg.Method == "gd":
		return r.Cfg.Method
	case r.Cfg.BatchSize >= r.TrainN && r.TrainN > 0:
		return "gd"
	}
	return "sgd"
}

// color is the run's colour on the chart and in the legend.
func (r *runRecord) color() string { return runColors[(r.ID-1+len(runColors))%len(runColors)] }

// stepsPerEpoch is the number of steps in one pass over the data.
func (r *runRecord) stepsPerEpoch() float64 {
	if r.method() == "newton" || r.Cfg.BatchSize < 1 || r.TrainN < 1 {
		return 1
	}
	return math.Ceil(float64(r.TrainN) / float64(r.Cfg.BatchSize))
}

// label is the legend's text for the run: its method and settings.
func (r *runRecord) label(l i18n.Lang) string {
	s := r.settingsLabel(l)
	if r.Cfg.Deskew {
		s = l.T("runs.deskewed", s)
	}
	return s
}

func (r *runRecord) settingsLabel(l i18n.Lang) string {
	c := r.Cfg
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	switch r.method() {
	case "newton":
		return l.T("runs.newton", g(c.L2))
	case "gd":
		return l.T("runs.gd", g(c.LearningRate), g(c.L2))
	}
	return l.T("runs.sgd", g(c.LearningRate), strconv.Itoa(c.BatchSize), g(c.L2))
}

// runFor returns the record of run id, creating it (with the settings of
// the last command that could have started it) if it is new.
func (s *store) runFor(id int) *runRecord {
	for _, r := range s.Runs {
		if r.ID == id {
			return r
		}
	}
	r := &runRecord{ID: id, Cfg: s.pending, Dataset: s.Dataset, TrainN: s.TrainN, Accuracy: math.NaN(), Loss: math.NaN()}
	s.Runs = append(s.Runs, r)
	for len(s.Runs) > maxRuns {
		s.Runs = s.Runs[1:]
	}
	return r
}

// modelDeskew reports whether the model shown was trained on deskewed
// images, so that drawn and gallery digits are straightened the same way
// before it reads them.
func (s *store) modelDeskew() bool {
	if r := s.current(); r != nil {
		return r.Cfg.Deskew
	}
	return false
}

// current returns the record of the current run, or nil.
func (s *store) current() *runRecord {
	if n := len(s.Runs); n > 0 && s.Runs[n-1].ID == s.Run {
		return s.Runs[n-1]
	}
	return nil
}

// removeRun forgets run id, unless it is the current run (Reset replaces
// that one).
func (s *store) removeRun(id int) {
	for i, r := range s.Runs {
		if r.ID == id && id != s.Run {
			s.Runs = append(s.Runs[:i:i], s.Runs[i+1:]...)
			s.ChartVersion++
			return
		}
	}
}

// dropCurrent forgets the current run (Reset replaces it).
func (s *store) dropCurrent() {
	if n := len(s.Runs); n > 0 && s.Runs[n-1].ID == s.Run {
		s.Runs = s.Runs[:n-1]
		s.ChartVersion++
	}
}

// toggleRun hides or shows run id on the chart.
func (s *store) toggleRun(id int) {
	for _, r := range s.Runs {
		if r.ID == id {
			r.Hidden = !r.Hidden
			s.ChartVersion++
		}
	}
}

// chartRuns returns the runs the chart draws, the current one last.
func (s *store) chartRuns() []chart.Run {
	var out []chart.Run
	var cur *chart.Run
	for _, r := range s.Runs {
		if r.Hidden {
			continue
		}
		c := chart.Run{Losses: r.Losses, Acc: r.Acc, Color: r.color(), StepsPerEpoch: r.stepsPerEpoch(), Exact: r.method() != "sgd"}
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

// bestLoss is J* for the chart's J − J* axis: the lowest objective a
// full-batch or Newton run reached (their points are J itself, where a
// minibatch's loss is a noisy estimate of it), or the lowest point of any
// run if there is none; NaN before any.
func (s *store) bestLoss() float64 {
	best, exact := math.NaN(), false
	for _, r := range s.Runs {
		full := r.method() != "sgd"
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
