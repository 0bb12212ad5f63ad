package store

import (
	"slices"

	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/link"
	"softmaxdemo/wasm/ui/params"
)

// Store is the digits room's whole state: the run as its worker tells it
// (State), what the page's controls set (Controls), the model's file and
// my digits (Files), what the room knows of its worker beyond what it
// says (Worker), and a link's branch being trained again (Replay). The
// room's owner changes it only through this package's methods.
type Store struct {
	State
	Controls Controls
	Files    Files
	Worker   Worker
	Replay   *Replay // nil when no branch is being trained again
}

// Controls are what the page's controls set: the Train panel's fields,
// the workers, the pack and the branch a link asks for, the language, and
// the inspector's α.
type Controls struct {
	// Typed are the Train panel's fields as it shows them, a refused one
	// among them, with the reason it is refused.
	Typed params.Settings
	// Settings are the fields runs train with and the page's link says:
	// the panel's last whose every field passed, or those a link, a
	// chapter or the lesson gave.
	Settings params.Settings
	// Version grows when the fields come from elsewhere than a person
	// typing them (a link, a chapter, the lesson, a preset): the panel
	// then shows them in its inputs.
	Version int
	// Workers is how many workers compute full passes, as a link says;
	// 0 leaves it to the browser's cores.
	Workers int
	// WantData is a pack a link asked for, loaded once the manifest is
	// read; "" when none is awaited.
	WantData string
	// WantChain is a link's branch, trained again once its pack is in.
	WantChain link.Chain
	// Linked is the branch the page's link last said the run descends
	// from.
	Linked link.Chain
	// Lang is the page's language, which the link kept with the model
	// says.
	Lang i18n.Lang
	// InspectRate is the inspector's own α.
	InspectRate float64
}

// DefaultInspectRate is the inspector's α: one step on one image shows
// plainly in p without undoing much of what was learnt, as the Train
// panel's 0.5 for minibatches of 100 would.
const DefaultInspectRate = 0.01

// NewStore returns the state of a room before its worker has said
// anything: the Train panel's fields f, the workers and the pack a link
// asks for (data; "" or "default" for the default pack), the branch it
// asks to train again, the page's language, and what the browser kept of
// the files.
func NewStore(f params.Fields, workers int, data string, chain link.Chain, lang i18n.Lang, files Files) *Store {
	s := &Store{State: *New(), Files: files}
	c := &s.Controls
	c.Typed = s.Check(f)
	c.Settings = c.Typed
	c.Workers, c.WantChain, c.Lang, c.InspectRate = workers, chain, lang, DefaultInspectRate
	if data != "default" {
		c.WantData = data
	}
	return s
}

// Check checks the Train panel's fields f for the training set loaded
// (params.MaxTrain before one is). It is the room's one place where
// fields become numbers: the panel's, a link's, a chapter's, a branch's.
func (s *Store) Check(f params.Fields) params.Settings { return params.Check(f, s.TrainN) }

// Apply changes the state for one worker event (State.Apply), and checks
// the Train panel's fields again if the training set changed size.
func (s *Store) Apply(m protocol.Msg) {
	s.State.Apply(m)
	c := &s.Controls
	if m := max(s.TrainN, 0); (m > 0 && c.Typed.M != m) || (m == 0 && c.Typed.M != params.MaxTrain) {
		c.Typed, c.Settings = s.Check(c.Typed.Fields), s.Check(c.Settings.Fields)
	}
}

// Edited makes the change e a person made in the Train panel. It reports
// whether the fields now all pass, so that runs and the link take them,
// and whether the pace changed, which applies at once whatever the other
// fields say.
func (s *Store) Edited(e params.Edit) (accepted, pace bool) {
	c := &s.Controls
	f, ok := c.Typed.Fields.Edited(e)
	if !ok {
		return false, false
	}
	pace = f.Pace != c.Typed.Fields.Pace
	c.Typed = s.Check(f)
	if pace {
		c.Settings.Fields.Pace = f.Pace // no run's setting: nothing in Config follows it
	}
	if c.Typed.OK() {
		c.Settings = c.Typed
	}
	return c.Typed.OK(), pace
}

// SetFields makes f the Train panel's fields and the runs', as a link, a
// chapter or the lesson gives them; the panel shows them.
func (s *Store) SetFields(f params.Fields) {
	c := &s.Controls
	c.Typed = s.Check(f)
	c.Settings = c.Typed
	c.Version++
}

// Preset fills the Train panel's fields from the preset name, for the
// training set loaded, keeping the pinning, the straightening and the
// pace, which are choices apart from a way of descending (the lecture's
// preset trains on raw pixels, as the notes did); the panel shows them.
// It reports whether name is a preset and whether the fields all pass.
func (s *Store) Preset(name string) (found, accepted bool) {
	i := slices.IndexFunc(params.Presets, func(p params.Preset) bool { return p.Name == name })
	if i < 0 {
		return false, false
	}
	c := &s.Controls
	old := c.Typed.Fields
	f := params.Presets[i].Fields(c.Typed.M)
	f.Pin, f.Pace, f.Deskew = old.Pin, old.Pace, old.Deskew && name != "lecture"
	c.Typed = s.Check(f)
	c.Version++
	if c.Typed.OK() {
		c.Settings = c.Typed
	}
	return true, c.Typed.OK()
}

// SetWorkers makes n the number of workers a link asks for (0: the
// browser's cores less one).
func (s *Store) SetWorkers(n int) { s.Controls.Workers = n }

// SetLang records the page's language.
func (s *Store) SetLang(l i18n.Lang) { s.Controls.Lang = l }

// SetInspectRate makes a the inspector's α.
func (s *Store) SetInspectRate(a float64) { s.Controls.InspectRate = a }

// WantData records that a link asked for the pack name, to be loaded
// once the manifest has it ("": none awaited).
func (s *Store) WantData(name string) { s.Controls.WantData = name }

// WantBranch records a link's branch, trained again once its pack is in,
// as a fresh page does.
func (s *Store) WantBranch(c link.Chain) { s.Controls.WantChain = c }

// LinkData is the pack the page's link names: the one a link asked for
// and the room has yet to find, or the one loaded.
func (s *Store) LinkData() string {
	switch {
	case s.Controls.WantData != "":
		return s.Controls.WantData
	case s.Dataset != "":
		return s.Dataset
	}
	return "default"
}

// Chain is the runs the page's link says its run descends from: the
// branch being trained again, or a link's yet to be, or the current run's
// origin.
func (s *Store) Chain() link.Chain {
	switch {
	case s.Replay != nil:
		return s.Replay.Chain
	case s.Controls.WantChain != (link.Chain{}):
		return s.Controls.WantChain
	}
	var runs []link.Branch
	for _, o := range s.Origin() {
		f := params.FieldsOf(o.Cfg)
		f.Pace = ""
		runs = append(runs, link.Branch{Fields: f, Step: o.Step})
	}
	return link.NewChain(runs...)
}

// ChainChanged reports whether the chain the link says changed since it
// last reported so, and notes the new one.
func (s *Store) ChainChanged() bool {
	c := s.Chain()
	if c == s.Controls.Linked {
		return false
	}
	s.Controls.Linked = c
	return true
}

// RunConfig is the configuration of a run of the settings: theirs, with
// my digits' share.
func (s *Store) RunConfig() protocol.Config {
	c := s.Controls.Settings.Config
	c.MyDigitsRate = s.Files.Share()
	return c
}

// ContinueConfig is the settings a model handed to the room trains on
// with: the current run's, or a descent's where it was Newton's (which
// starts from θ = 0), on the images the model reads.
func (s *Store) ContinueConfig() protocol.Config {
	if r := s.Current(); r != nil && r.Cfg.Method != "newton" {
		c := r.Cfg
		c.MyDigitsRate = s.Files.Share()
		return c
	}
	f := s.Controls.Settings.Fields
	f.Method = "sgd"
	c := s.Check(f).Config
	c.Deskew = s.ModelDeskew()
	c.MyDigitsRate = s.Files.Share()
	return c
}
