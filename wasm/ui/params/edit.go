package params

import "slices"

// Edit is one change a person makes in the Train panel: the input whose
// element id is Field set to Text, or, for a check box ("pin",
// "deskew"), to On.
type Edit struct {
	Field string
	Text  string
	On    bool
}

// Edited returns f with e made, and whether e is one the panel can make:
// an edit of an input it does not have, or a choice it does not offer (a
// method or a pace not listed), leaves f as it was.
func (f Fields) Edited(e Edit) (Fields, bool) {
	switch e.Field {
	case "method":
		if !slices.Contains(Methods, e.Text) {
			return f, false
		}
		f.Method = e.Text
	case "pace":
		if _, ok := PaceRate(e.Text); !ok {
			return f, false
		}
		f.Pace = e.Text
	case "pin":
		f.Pin = e.On
	case "deskew":
		f.Deskew = e.On
	default:
		text, ok := f.texts()[e.Field]
		if !ok {
			return f, false
		}
		*text = e.Text
	}
	return f, true
}

// texts maps each text input's element id (and the start's choice,
// "init", which takes any word: Check reads "normal" or not) to its
// field in f.
func (f *Fields) texts() map[string]*string {
	return map[string]*string{
		"lr": &f.LR, "batch": &f.Batch, "l2": &f.L2, "epochs": &f.Epochs, "seed": &f.Seed, "decay": &f.Decay, "init": &f.Init,
		"newton-iters": &f.NewtonIters, "grad-tol": &f.GradTol, "cg-steps": &f.CGSteps,
	}
}
