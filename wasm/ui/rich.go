package ui

import (
	"softmaxdemo/wasm/ui/mathml"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Text for people marks its formulas with dollar signs ("the score
// $z_c$"): rich typesets them as MathML in an element's body, plain
// writes them as Unicode for an attribute, which holds only text.

// rich returns s with its formulas typeset, as an element's body.
func rich(s string) []app.UI { return mathml.Rich(s) }

// plain returns s with its formulas in Unicode, for an attribute.
func plain(s string) string { return mathml.PlainText(s) }
