package kit

import (
	"bytes"

	"softmaxdemo/wasm/ui/paint"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// GreyCanvas draws grey levels (ink 255 dark on white) as an IW×IH image
// the size CSS gives it: a digit (28×28) or its strip of 784 numbers
// (784×1).
type GreyCanvas struct {
	app.Compo

	IID     string
	IPixels []byte // IW·IH grey levels
	IW, IH  int
	ILabel  string // what it shows, for screen readers

	drawn []byte // the pixels last drawn
	rgba  []byte
}

func (g *GreyCanvas) OnMount(ctx app.Context) {
	g.drawn = nil
	ctx.Defer(func(app.Context) { g.draw() })
}

func (g *GreyCanvas) OnUpdate(ctx app.Context) {
	if !bytes.Equal(g.drawn, g.IPixels) {
		ctx.Defer(func(app.Context) { g.draw() })
	}
}

func (g *GreyCanvas) Render() app.UI {
	return app.Canvas().ID(g.IID).Class("pixelated").Width(g.IW).Height(g.IH).Attr("role", "img").Aria("label", g.ILabel)
}

func (g *GreyCanvas) draw() {
	if len(g.IPixels) != g.IW*g.IH {
		return
	}
	if len(g.rgba) != 4*len(g.IPixels) {
		g.rgba = make([]byte, 4*len(g.IPixels))
	}
	paint.GreyImage(g.rgba, g.IPixels)
	_, c := paint.Context2D(g.IID)
	if !c.Truthy() {
		return
	}
	paint.PutRGBA(c, g.rgba, g.IW, g.IH, 0, 0)
	g.drawn = append(g.drawn[:0], g.IPixels...)
}
