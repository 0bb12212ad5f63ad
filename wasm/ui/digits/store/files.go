package store

import (
	"strconv"

	"softmaxdemo/core/modelfile"
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/digits/files"
	"softmaxdemo/wasm/ui/i18n"
)

// Files are what the room says of the model's file and of my digits, and
// what it knows of the copies the browser keeps.
type Files struct {
	ModelStatus i18n.Msg // what happened to the model's file last (#model-status)
	// ModelKind is its kind (data-kind): "loaded", "restored",
	// "forgotten", "notKept", or a refusal's (files.ErrKind).
	ModelKind string
	Restored  bool        // the model shown is the one the browser kept
	Restoring *files.Kept // the kept record, whose model is used once the data are in
	Legacy    bool        // it was version 1's two keys, dropped once a record is kept
	// RestoredSum is the checksum of the model restored, which is not
	// kept again unchanged; ForgotSum the model "start afresh" forgot,
	// never kept again; Kept the checksum and accuracy of the model kept
	// last.
	RestoredSum, ForgotSum, Kept string
	Loading                      bool            // a model from a file was sent to the worker
	FileRun                      int             // the run that holds it: kept though it took no step
	FileInfo                     *modelfile.Info // how it was trained, if its file said

	Digits        protocol.Samples // my digits: labels and 784 grey levels each
	DigitsVersion int              // grows when they change
	Rate          string           // their share of each batch, one of MyDigitsRates
	DigitsStatus  i18n.Msg         // what happened to them last (#digits-status)
	DigitsKind    string           // its kind (data-kind)
}

// MyDigit is one drawing a person labelled: 784 grey levels, not
// straightened. A Label above 9 means nothing was drawn.
type MyDigit struct {
	Label  uint8
	Pixels []byte
}

// MyDigitsRates are the shares of each batch my digits may take, as the
// #my-digits-rate control offers them: "0" is off.
var MyDigitsRates = []string{"0", "0.01", "0.05", "0.1", "0.2", "0.5"}

// DefaultMyDigitsRate is the share chosen until the person picks another:
// 10% of a batch of 100 learns 50 digits for under half a point of MNIST
// accuracy (docs/modelfile.md).
const DefaultMyDigitsRate = "0.1"

// ParseMyDigitsRate returns the fraction a rate stop stands for, and
// whether it is one.
func ParseMyDigitsRate(s string) (float64, bool) {
	for _, r := range MyDigitsRates {
		if r == s {
			v, err := strconv.ParseFloat(s, 64)
			return v, err == nil
		}
	}
	return 0, false
}

// Share is protocol.Config's MyDigitsRate: the chosen share of each
// batch, when there are my digits to mix in.
func (f *Files) Share() float64 {
	if len(f.Digits.Labels) == 0 {
		return 0
	}
	r, _ := ParseMyDigitsRate(f.Rate)
	return r
}

// ModelSaid shows m, of the kind kind, in #model-status.
func (f *Files) ModelSaid(m i18n.Msg, kind string) { f.ModelStatus, f.ModelKind = m, kind }

// DigitsSaid shows m, of the kind kind, in #digits-status.
func (f *Files) DigitsSaid(m i18n.Msg, kind string) { f.DigitsStatus, f.DigitsKind = m, kind }

// SetDigits makes d my digits.
func (f *Files) SetDigits(d protocol.Samples) {
	f.Digits = d
	f.DigitsVersion++
}

// SetRate makes r, one of MyDigitsRates, my digits' share, and reports
// whether it is one.
func (f *Files) SetRate(r string) bool {
	if _, ok := ParseMyDigitsRate(r); !ok {
		return false
	}
	f.Rate = r
	return true
}

// TakeRestoring returns the kept record whose model is to be used now
// that the data are in, once; nil if there is none.
func (f *Files) TakeRestoring() *files.Kept {
	k := f.Restoring
	f.Restoring = nil
	return k
}

// RestoredFrom records that the model the browser kept, of checksum sum,
// saved at saved (as the page shows it), is the one shown.
func (f *Files) RestoredFrom(sum, saved string) {
	f.Restored, f.RestoredSum = true, sum
	f.ModelSaid(i18n.Text("model.restored", saved), "restored")
}

// Chosen records that the model of the file name, just read, replaces
// the one shown: it is kept, even if it is the one forgotten.
func (f *Files) Chosen(name string) {
	f.Restored, f.RestoredSum, f.ForgotSum = false, "", ""
	f.ModelSaid(i18n.Text("model.loaded", name), "loaded")
}

// Using records that a model from a file (or the browser's keeping) was
// sent to the worker, with how it was trained if its file said (nil
// otherwise).
func (f *Files) Using(info *modelfile.Info) { f.Loading, f.FileInfo = true, info }

// Arrived records that the worker's run run holds the model last sent,
// if one was.
func (f *Files) Arrived(run int) {
	if f.Loading {
		f.Loading, f.FileRun = false, run
	}
}

// Keeping reports whether the model of checksum sum, at accuracy acc
// after step steps of run, is worth keeping now, and notes that it is
// being kept: not if it is kept already, was restored unchanged, was
// forgotten, or has not learnt anything (a file's model counts, though
// it took no step).
func (f *Files) Keeping(sum string, acc float64, step, run int) bool {
	key := sum + "/" + strconv.FormatFloat(acc, 'g', -1, 64)
	if key == f.Kept || sum == f.RestoredSum || sum == f.ForgotSum || (step == 0 && run != f.FileRun) {
		return false
	}
	f.Kept = key
	return true
}

// KeptIn records whether the browser kept the model (ok) and reports
// whether version 1's two keys are left to drop: the status says once,
// until a keep succeeds, that the model is not kept.
func (f *Files) KeptIn(ok bool) (dropLegacy bool) {
	if !ok {
		f.ModelSaid(i18n.Text("model.notKept"), "notKept")
		return false
	}
	if f.ModelKind == "notKept" {
		f.ModelSaid(i18n.Msg{}, "")
	}
	dropLegacy, f.Legacy = f.Legacy, false
	return dropLegacy
}

// Dropped records that the browser's copy of the model is gone.
func (f *Files) Dropped() { f.Legacy = false }

// Forgot records that the person forgot the kept model, of checksum sum
// ("" for none shown): the worker may still send it (the kept model it
// was given once the data were in, say), and those events must not keep
// it again.
func (f *Files) Forgot(sum string) {
	f.ForgotSum = f.RestoredSum
	if sum != "" {
		f.ForgotSum = sum
	}
	f.Restored, f.Kept = false, ""
	f.ModelSaid(i18n.Text("model.forgotten"), "forgotten")
}
