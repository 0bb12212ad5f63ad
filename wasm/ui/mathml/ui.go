package mathml

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// UI returns n as go-app elements in the MathML namespace.
func (n *Node) UI() app.UI {
	e := app.Elem(n.Tag).XMLNS(Namespace)
	for _, a := range n.Attrs {
		e = e.Attr(a.Name, a.Value)
	}
	if n.Text != "" {
		return e.Text(n.Text)
	}
	kids := make([]app.UI, len(n.Kids))
	for i, k := range n.Kids {
		kids[i] = k.UI()
	}
	return e.Body(kids...)
}

// Math returns the formula tex as a <math> element, a block of its own
// (display="block") or inline in text, named by its Plain text. A formula that does not parse is a
// mistake in the page's own text, which tests catch; it shows as an
// error in place of the formula.
func Math(tex string, block bool) app.UI {
	m := app.Elem("math").XMLNS(Namespace)
	if block {
		m = m.Attr("display", "block")
	}
	n, err := Parse(tex)
	if err != nil {
		return m.Body(app.Elem("merror").XMLNS(Namespace).Body(app.Elem("mtext").XMLNS(Namespace).Text(err.Error())))
	}
	// Its name for assistive technology that reads no MathML, and for
	// the names of the buttons and table headers it is in.
	return m.Aria("label", n.Plain()).Body(n.UI())
}

// Rich returns text with its formulas ($…$) typeset inline.
func Rich(text string) []app.UI {
	pieces := Split(text)
	out := make([]app.UI, len(pieces))
	for i, p := range pieces {
		if p.Math {
			out[i] = Math(p.Text, false)
		} else {
			out[i] = app.Text(p.Text)
		}
	}
	return out
}
