package ui

import (
	"encoding/binary"
	"hash/fnv"
	"math"
	"strconv"

	"softmaxdemo/core/softmax"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// weightGrid shows the ten learned templates θ_c as 28×28 images on a
// diverging scale: red pixels vote for the digit, blue ones against it.
type weightGrid struct {
	app.Compo

	ILang    lang
	IModel   *softmax.Model[float32]
	IVersion int

	rgba  []byte
	scale [softmax.K]float64
}

func newWeightGrid() *weightGrid { return &weightGrid{} }

func (g *weightGrid) OnMount(ctx app.Context)  { ctx.Defer(func(app.Context) { g.draw() }) }
func (g *weightGrid) OnUpdate(ctx app.Context) { ctx.Defer(func(app.Context) { g.draw() }) }

func (g *weightGrid) Render() app.UI {
	l := g.ILang
	return app.Section().Class("panel weights").Aria("label", l.T("weights.region")).Body(
		app.H2().Text(l.T("weights.title")),
		app.P().Class("note").Text(l.T("weights.note")),
		app.Div().ID("weights").Class("templates").Attr("data-version", g.IVersion).Attr("data-checksum", modelChecksum(g.IModel)).Body(
			app.Range(make([]struct{}, softmax.K)).Slice(func(c int) app.UI {
				return app.Figure().Class("template").Body(
					app.Canvas().ID("weight-"+strconv.Itoa(c)).Width(28).Height(28).Class("pixelated").
						Aria("label", l.T("weights.digit", c)),
					app.FigCaption().Text(strconv.Itoa(c)),
				)
			}),
		),
	)
}

func (g *weightGrid) draw() {
	if g.IModel == nil || len(g.IModel.W) != 784*softmax.K {
		return
	}
	if g.rgba == nil {
		g.rgba = make([]byte, 4*784)
	}
	for c := range softmax.K {
		g.scale[c] = templateImage(g.rgba, g.IModel.W, c)
		_, ctx := context2D("weight-" + strconv.Itoa(c))
		putRGBA(ctx, g.rgba, 28, 28, 0, 0)
	}
}

// modelChecksum is an FNV-1a hash of the bits of m's parameters, in hex,
// or "" for no model: two pages that trained the same run show the same
// checksum, which is how tools/browsertest compares runs bit for bit.
func modelChecksum(m *softmax.Model[float32]) string {
	if m == nil {
		return ""
	}
	h := fnv.New64a()
	var b [4]byte
	for _, part := range [][]float32{m.W, m.B} {
		for _, v := range part {
			binary.LittleEndian.PutUint32(b[:], math.Float32bits(v))
			h.Write(b[:])
		}
	}
	return strconv.FormatUint(h.Sum64(), 16)
}
