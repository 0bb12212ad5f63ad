package store

import (
	"errors"
	"strconv"

	"softmaxdemo/core/plane"
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/i18n"
)

// refusalOf is the refusal the worker sent, in the page's words.
func refusalOf(r *protocol.PlaneRefusal) i18n.Msg {
	if r == nil {
		return i18n.Msg{}
	}
	if r.Problem < 0 {
		return i18n.Text("raw", r.Message)
	}
	num := func(s string) float64 { v, _ := strconv.ParseFloat(s, 64); return v }
	return refusal(&plane.InputError{Problem: plane.Problem(r.Problem), Value: num(r.Value),
		Point: plane.Point{X: [2]float64{num(r.X[0]), num(r.X[1])}, Class: r.Class}, Class: r.Class, Count: r.Count, Name: r.Name})
}

// refusal says why core/plane refused an input, in the page's words.
func refusal(err error) i18n.Msg {
	var e *plane.InputError
	if !errors.As(err, &e) {
		return i18n.Text("raw", err.Error())
	}
	num := func(v float64) string { return strconv.FormatFloat(v, 'g', 4, 64) }
	x, y := num(e.Point.X[0]), num(e.Point.X[1])
	switch e.Problem {
	case plane.NotFinite:
		return i18n.Text("plane.notFinite", x, y)
	case plane.OutsideView:
		return i18n.Text("plane.outside", x, y)
	case plane.NoSuchClass:
		return i18n.Text("plane.noSuchClass", e.Class, int(e.Value))
	case plane.TooManyPoints:
		return i18n.Text("plane.tooMany", plane.MaxPoints)
	case plane.BadClasses:
		return i18n.Text("plane.badK", num(e.Value))
	case plane.RemovedClass:
		return i18n.Text("plane.removed", num(e.Value), e.Count, e.Class)
	case plane.NoPoints:
		return i18n.Text("plane.noPoints")
	case plane.BadRate:
		return i18n.Text("plane.badRate", num(e.Value))
	case plane.BadLambda:
		return i18n.Text("plane.badLambda", num(e.Value))
	case plane.BadBatch:
		return i18n.Text("plane.badBatch", num(e.Value), e.Count)
	case plane.BadStart:
		return i18n.Text("plane.badStart")
	case plane.BadSteps:
		return i18n.Text("plane.badSteps", num(e.Value))
	case plane.UnknownData:
		return i18n.Text("plane.unknownData", e.Name)
	case plane.Pinned:
		return i18n.Text("plane.pinned")
	case plane.BadTheta:
		return i18n.Text("plane.badTheta", e.Class, num(e.Value))
	}
	return i18n.Text("raw", err.Error())
}
